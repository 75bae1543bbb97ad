/*
 * FreeRTOS atomic.h on Takt: the same functions, each one read-modify-write
 * that no interrupt or other task splits. Built on the compiler's atomic
 * operations (LDREX/STREX on ARMv7-M, the host's own on the sim), which need
 * no interrupt masking and work alike in tasks and interrupt handlers.
 * Each returns what FreeRTOS's does: the value before the operation, or for
 * the compare-and-swaps ATOMIC_COMPARE_AND_SWAP_SUCCESS / _FAILURE.
 */
#ifndef ATOMIC_H
#define ATOMIC_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include atomic.h"
#endif

#include <stdint.h>

#define ATOMIC_COMPARE_AND_SWAP_SUCCESS 0x1U
#define ATOMIC_COMPARE_AND_SWAP_FAILURE 0x0U

/* FreeRTOS's own sections around a longer sequence: a critical section that
 * also holds in an interrupt handler. */
#define ATOMIC_ENTER_CRITICAL() uint32_t takt_atomic_saved_state = takt_critical_enter_from_isr_or_task()
#define ATOMIC_EXIT_CRITICAL() takt_critical_exit_from_isr_or_task(takt_atomic_saved_state)

static inline uint32_t takt_critical_enter_from_isr_or_task(void)
{
    if (takt_in_isr()) {
        return takt_critical_enter_from_isr();
    }
    takt_critical_enter();
    return 0;
}

static inline void takt_critical_exit_from_isr_or_task(uint32_t state)
{
    if (takt_in_isr()) {
        takt_critical_exit_from_isr(state);
    } else {
        takt_critical_exit();
    }
}

static inline uint32_t Atomic_CompareAndSwap_u32(uint32_t volatile *pulDestination, uint32_t ulExchange,
                                                 uint32_t ulComparand)
{
    return __atomic_compare_exchange_n(pulDestination, &ulComparand, ulExchange, false, __ATOMIC_SEQ_CST,
                                       __ATOMIC_SEQ_CST)
               ? ATOMIC_COMPARE_AND_SWAP_SUCCESS
               : ATOMIC_COMPARE_AND_SWAP_FAILURE;
}

static inline void *Atomic_SwapPointers_p32(void *volatile *ppvDestination, void *pvExchange)
{
    return __atomic_exchange_n(ppvDestination, pvExchange, __ATOMIC_SEQ_CST);
}

static inline uint32_t Atomic_CompareAndSwapPointers_p32(void *volatile *ppvDestination, void *pvExchange,
                                                         void *pvComparand)
{
    return __atomic_compare_exchange_n(ppvDestination, &pvComparand, pvExchange, false, __ATOMIC_SEQ_CST,
                                       __ATOMIC_SEQ_CST)
               ? ATOMIC_COMPARE_AND_SWAP_SUCCESS
               : ATOMIC_COMPARE_AND_SWAP_FAILURE;
}

static inline uint32_t Atomic_Add_u32(uint32_t volatile *pulAddend, uint32_t ulCount)
{
    return __atomic_fetch_add(pulAddend, ulCount, __ATOMIC_SEQ_CST);
}

static inline uint32_t Atomic_Subtract_u32(uint32_t volatile *pulAddend, uint32_t ulCount)
{
    return __atomic_fetch_sub(pulAddend, ulCount, __ATOMIC_SEQ_CST);
}

static inline uint32_t Atomic_Increment_u32(uint32_t volatile *pulAddend)
{
    return __atomic_fetch_add(pulAddend, 1u, __ATOMIC_SEQ_CST);
}

static inline uint32_t Atomic_Decrement_u32(uint32_t volatile *pulAddend)
{
    return __atomic_fetch_sub(pulAddend, 1u, __ATOMIC_SEQ_CST);
}

static inline uint32_t Atomic_OR_u32(uint32_t volatile *pulDestination, uint32_t ulValue)
{
    return __atomic_fetch_or(pulDestination, ulValue, __ATOMIC_SEQ_CST);
}

static inline uint32_t Atomic_AND_u32(uint32_t volatile *pulDestination, uint32_t ulValue)
{
    return __atomic_fetch_and(pulDestination, ulValue, __ATOMIC_SEQ_CST);
}

static inline uint32_t Atomic_NAND_u32(uint32_t volatile *pulDestination, uint32_t ulValue)
{
    return __atomic_fetch_nand(pulDestination, ulValue, __ATOMIC_SEQ_CST);
}

static inline uint32_t Atomic_XOR_u32(uint32_t volatile *pulDestination, uint32_t ulValue)
{
    return __atomic_fetch_xor(pulDestination, ulValue, __ATOMIC_SEQ_CST);
}

#endif
