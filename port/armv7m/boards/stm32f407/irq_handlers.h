/*
 * The STM32F407's 82 external interrupts (RM0090's vector table) under the
 * handler names of ST's CMSIS start-up file: an application written for the
 * part defines, say, TIM2_IRQHandler and finds it in the vector table
 * (startup.c). Line 79 (the crypto processor of the STM32F417) has no
 * handler on the F407. X(irq, handler name).
 */
#ifndef TAKT_STM32F407_IRQ_HANDLERS_H
#define TAKT_STM32F407_IRQ_HANDLERS_H

#define TAKT_BOARD_IRQ_HANDLERS(X) \
    X(0, WWDG_IRQHandler)                                                                            \
    X(1, PVD_IRQHandler)                                                                             \
    X(2, TAMP_STAMP_IRQHandler)                                                                      \
    X(3, RTC_WKUP_IRQHandler)                                                                        \
    X(4, FLASH_IRQHandler)                                                                           \
    X(5, RCC_IRQHandler)                                                                             \
    X(6, EXTI0_IRQHandler)                                                                           \
    X(7, EXTI1_IRQHandler)                                                                           \
    X(8, EXTI2_IRQHandler)                                                                           \
    X(9, EXTI3_IRQHandler)                                                                           \
    X(10, EXTI4_IRQHandler)                                                                          \
    X(11, DMA1_Stream0_IRQHandler)                                                                   \
    X(12, DMA1_Stream1_IRQHandler)                                                                   \
    X(13, DMA1_Stream2_IRQHandler)                                                                   \
    X(14, DMA1_Stream3_IRQHandler)                                                                   \
    X(15, DMA1_Stream4_IRQHandler)                                                                   \
    X(16, DMA1_Stream5_IRQHandler)                                                                   \
    X(17, DMA1_Stream6_IRQHandler)                                                                   \
    X(18, ADC_IRQHandler)                                                                            \
    X(19, CAN1_TX_IRQHandler)                                                                        \
    X(20, CAN1_RX0_IRQHandler)                                                                       \
    X(21, CAN1_RX1_IRQHandler)                                                                       \
    X(22, CAN1_SCE_IRQHandler)                                                                       \
    X(23, EXTI9_5_IRQHandler)                                                                        \
    X(24, TIM1_BRK_TIM9_IRQHandler)                                                                  \
    X(25, TIM1_UP_TIM10_IRQHandler)                                                                  \
    X(26, TIM1_TRG_COM_TIM11_IRQHandler)                                                             \
    X(27, TIM1_CC_IRQHandler)                                                                        \
    X(28, TIM2_IRQHandler)                                                                           \
    X(29, TIM3_IRQHandler)                                                                           \
    X(30, TIM4_IRQHandler)                                                                           \
    X(31, I2C1_EV_IRQHandler)                                                                        \
    X(32, I2C1_ER_IRQHandler)                                                                        \
    X(33, I2C2_EV_IRQHandler)                                                                        \
    X(34, I2C2_ER_IRQHandler)                                                                        \
    X(35, SPI1_IRQHandler)                                                                           \
    X(36, SPI2_IRQHandler)                                                                           \
    X(37, USART1_IRQHandler)                                                                         \
    X(38, USART2_IRQHandler)                                                                         \
    X(39, USART3_IRQHandler)                                                                         \
    X(40, EXTI15_10_IRQHandler)                                                                      \
    X(41, RTC_Alarm_IRQHandler)                                                                      \
    X(42, OTG_FS_WKUP_IRQHandler)                                                                    \
    X(43, TIM8_BRK_TIM12_IRQHandler)                                                                 \
    X(44, TIM8_UP_TIM13_IRQHandler)                                                                  \
    X(45, TIM8_TRG_COM_TIM14_IRQHandler)                                                             \
    X(46, TIM8_CC_IRQHandler)                                                                        \
    X(47, DMA1_Stream7_IRQHandler)                                                                   \
    X(48, FSMC_IRQHandler)                                                                           \
    X(49, SDIO_IRQHandler)                                                                           \
    X(50, TIM5_IRQHandler)                                                                           \
    X(51, SPI3_IRQHandler)                                                                           \
    X(52, UART4_IRQHandler)                                                                          \
    X(53, UART5_IRQHandler)                                                                          \
    X(54, TIM6_DAC_IRQHandler)                                                                       \
    X(55, TIM7_IRQHandler)                                                                           \
    X(56, DMA2_Stream0_IRQHandler)                                                                   \
    X(57, DMA2_Stream1_IRQHandler)                                                                   \
    X(58, DMA2_Stream2_IRQHandler)                                                                   \
    X(59, DMA2_Stream3_IRQHandler)                                                                   \
    X(60, DMA2_Stream4_IRQHandler)                                                                   \
    X(61, ETH_IRQHandler)                                                                            \
    X(62, ETH_WKUP_IRQHandler)                                                                       \
    X(63, CAN2_TX_IRQHandler)                                                                        \
    X(64, CAN2_RX0_IRQHandler)                                                                       \
    X(65, CAN2_RX1_IRQHandler)                                                                       \
    X(66, CAN2_SCE_IRQHandler)                                                                       \
    X(67, OTG_FS_IRQHandler)                                                                         \
    X(68, DMA2_Stream5_IRQHandler)                                                                   \
    X(69, DMA2_Stream6_IRQHandler)                                                                   \
    X(70, DMA2_Stream7_IRQHandler)                                                                   \
    X(71, USART6_IRQHandler)                                                                         \
    X(72, I2C3_EV_IRQHandler)                                                                        \
    X(73, I2C3_ER_IRQHandler)                                                                        \
    X(74, OTG_HS_EP1_OUT_IRQHandler)                                                                 \
    X(75, OTG_HS_EP1_IN_IRQHandler)                                                                  \
    X(76, OTG_HS_WKUP_IRQHandler)                                                                    \
    X(77, OTG_HS_IRQHandler)                                                                         \
    X(78, DCMI_IRQHandler)                                                                           \
    X(80, HASH_RNG_IRQHandler)                                                                       \
    X(81, FPU_IRQHandler)

#endif
