/* The one entry a member object uses to tell its queue set it has data. */
#ifndef TAKT_SYNC_QUEUE_SET_POST_H
#define TAKT_SYNC_QUEUE_SET_POST_H

#include "wait.h"

#if TAKT_CONFIG_QUEUE_SETS
/* The set a member (queue or semaphore) belongs to, or NULL. */
#define member_set(member) ((member)->set)

/* A member (queue or semaphore) gained an item or unit: its handle goes to the
 * first task waiting on the set, or into the set's ring. Assumptions: lock held. */
void queue_set_post(takt_queue_set_t *set, void *member, bool *woken);

/* The member was emptied without the set (takt_queue_reset) or leaves it:
 * its pending handles leave the ring. Assumptions: lock held. */
void queue_set_forget(takt_queue_set_t *set, const void *member);
#else
/* No sets in this build: no member has one, which the compiler knows, so the
 * tests and posts on the send and give paths drop out. */
#define member_set(member) ((takt_queue_set_t *)NULL)

static inline void queue_set_post(takt_queue_set_t *set, void *member, bool *woken)
{
    (void)set;
    (void)member;
    (void)woken;
}

static inline void queue_set_forget(takt_queue_set_t *set, const void *member)
{
    (void)set;
    (void)member;
}
#endif

#endif
