/*
 * FreeRTOS's tickless idle macros as an application defines them, for
 * tests/freertos/tickless.c (FreeRTOSConfig.h includes this with
 * TEST_SLEEP_MACROS, in the tickless and the ticking build alike): each
 * calls the program, which counts and checks the calls and may change the
 * sleep (x is the layer's TickType_t variable, an lvalue, as in FreeRTOS).
 */
#ifndef SLEEP_MACROS_CONFIG_H
#define SLEEP_MACROS_CONFIG_H

#include <stdint.h>

void test_pre_suppress(uint32_t *x);
void test_pre_sleep(uint32_t *x);
void test_post_sleep(uint32_t x);
void test_low_power(char what);
void test_tick_traced(uint32_t tick);

#define configPRE_SUPPRESS_TICKS_AND_SLEEP_PROCESSING(x) test_pre_suppress(&(x))
#define configPRE_SLEEP_PROCESSING(x) test_pre_sleep(&(x))
#define configPOST_SLEEP_PROCESSING(x) test_post_sleep(x)
#define traceLOW_POWER_IDLE_BEGIN() test_low_power('B')
#define traceLOW_POWER_IDLE_END() test_low_power('E')
/* No traced tick for one a sleep left out, as in FreeRTOS. */
#define traceTASK_INCREMENT_TICK(xTickCount) test_tick_traced(xTickCount)

#endif
