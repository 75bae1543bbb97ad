/*
 * Event groups: 32 event bits; tasks wait for any or all of a set of bits,
 * optionally clearing them when the wait is satisfied. Setting bits serves
 * every waiter the new bits satisfy (in waiter order, each seeing the bits as
 * they were set, before any clear-on-exit), then clears the bits those waiters
 * asked to clear. Setting and clearing from an interrupt is done at once (not
 * deferred to a daemon task as in FreeRTOS): its cost grows with the number
 * of waiters. Conventions (timeouts, results, *_from_isr): takt/sync.h.
 */
#ifndef TAKT_EVENT_GROUP_H
#define TAKT_EVENT_GROUP_H

#include "takt/sync.h"

typedef uint32_t takt_event_bits_t;

enum {
    TAKT_EVENT_WAIT_ALL = 1u << 0,      /* every requested bit (default: any one) */
    TAKT_EVENT_CLEAR_ON_EXIT = 1u << 1, /* clear the requested bits when satisfied */
};

/* Fields belong to the kernel; applications allocate it for create_static. */
typedef struct takt_event_group {
    takt_waitq_t waiters;
    uint32_t magic;
    uint8_t flags;
    takt_event_bits_t bits;
#if TAKT_CONFIG_EVENT_GROUP_USER_WORD
    uintptr_t user_word;
#endif
} takt_event_group_t;

/* TAKT_ERR_ARG: out null; TAKT_ERR_NOMEM; TAKT_ERR_CONTEXT from an interrupt. */
int takt_event_group_create(takt_event_group_t **out);
/* In caller memory; TAKT_ERR_STATE if the memory holds a live object (takt/sync.h). All bits start clear. */
int takt_event_group_create_static(takt_event_group_t *group);
/* TAKT_ERR_STATE if tasks wait on it. Context: task or before start. */
int takt_event_group_delete(takt_event_group_t *group);
#if TAKT_CONFIG_EVENT_GROUP_USER_WORD
/* The group's application word (TAKT_CONFIG_EVENT_GROUP_USER_WORD); NULL for
 * a bad handle. The kernel never reads it. Any context. */
uintptr_t *takt_event_group_user_word(takt_event_group_t *group);
#endif
/* TAKT_OK when the group lives in caller memory (create_static), TAKT_ERR_STATE
 * when it came from the heap, TAKT_ERR_ARG for a bad handle. Any context. */
int takt_event_group_static_memory(const takt_event_group_t *group);

/*
 * Waits up to timeout until (flags & TAKT_EVENT_WAIT_ALL ? all : any of) bits
 * are set. *result (may be NULL) receives the group's bits when the wait was
 * satisfied (before clearing), or the bits at the timeout. Bits set after the
 * timeout ended the wait but before the task ran again still satisfy it
 * (TAKT_OK, cleared on exit if asked), as in FreeRTOS.
 * TAKT_ERR_ARG: bits 0 or unknown flags. Context: task. May reschedule.
 */
int takt_event_group_wait(takt_event_group_t *group, takt_event_bits_t bits, unsigned flags,
                          takt_event_bits_t *result, takt_tick_t timeout);
/* Sets bits and serves the waiters they satisfy. *result (may be NULL): the
 * bits after the call (after clear-on-exit). Context: task. May reschedule. */
int takt_event_group_set(takt_event_group_t *group, takt_event_bits_t bits,
                         takt_event_bits_t *result);
/* Clears bits; *previous (may be NULL): the bits before. Any context. */
int takt_event_group_clear(takt_event_group_t *group, takt_event_bits_t bits,
                           takt_event_bits_t *previous);
/* The current bits into *bits. TAKT_ERR_ARG for a bad handle or a NULL
 * bits. Any context. */
int takt_event_group_get(const takt_event_group_t *group, takt_event_bits_t *bits);
/*
 * Rendezvous (FreeRTOS xEventGroupSync): sets set_bits, then waits up to
 * timeout for all of wait_bits, which are cleared when satisfied. *result as in
 * wait. TAKT_ERR_ARG if wait_bits is 0. A timeout (TAKT_ERR_TIMEOUT, at once
 * for timeout 0) leaves set_bits set, as in FreeRTOS; TAKT_ERR_CONTEXT (it
 * would wait where it may not) sets nothing. Context: task. May reschedule.
 */
int takt_event_group_sync(takt_event_group_t *group, takt_event_bits_t set_bits,
                          takt_event_bits_t wait_bits, takt_event_bits_t *result,
                          takt_tick_t timeout);

int takt_event_group_set_from_isr(takt_event_group_t *group, takt_event_bits_t bits,
                                  bool *woken);
/* Same as takt_event_group_clear (named for the FreeRTOS mapping). */
int takt_event_group_clear_from_isr(takt_event_group_t *group, takt_event_bits_t bits,
                                    takt_event_bits_t *previous);

#endif
