/*
 * The external interrupts of the MPS2 FPGA images AN385 and AN386 that
 * QEMU's mps2 machines raise (hw/arm/mps2.c wires UART n's receive line to
 * 0, 2, 4, 18, 20 and its transmit line to the next, the CMSDK timers to 8
 * and 9, the dual timer to 10, the UARTs' overflows to 12, the Ethernet
 * controller to 13), under the handler names of ARM's CMSIS start-up files
 * for the CMSDK. An application written for the board defines, say,
 * TIMER0_Handler and finds it in the vector table, as with the vendor's
 * start-up code (startup.c); the lines not listed here, and listed ones
 * nobody defines, stay faults until takt_arm_irq_attach.
 * X(irq, handler name).
 */
#ifndef TAKT_MPS2_IRQ_HANDLERS_H
#define TAKT_MPS2_IRQ_HANDLERS_H

#define TAKT_BOARD_IRQ_HANDLERS(X)                                                                 \
    X(0, UARTRX0_Handler)                                                                          \
    X(1, UARTTX0_Handler)                                                                          \
    X(2, UARTRX1_Handler)                                                                          \
    X(3, UARTTX1_Handler)                                                                          \
    X(4, UARTRX2_Handler)                                                                          \
    X(5, UARTTX2_Handler)                                                                          \
    X(8, TIMER0_Handler)                                                                           \
    X(9, TIMER1_Handler)                                                                           \
    X(10, DUALTIMER_HANDLER)                                                                       \
    X(12, UARTOVF_Handler)                                                                         \
    X(13, ETHERNET_Handler)                                                                        \
    X(18, UARTRX3_Handler)                                                                         \
    X(19, UARTTX3_Handler)                                                                         \
    X(20, UARTRX4_Handler)                                                                         \
    X(21, UARTTX4_Handler)

#endif
