/*
 * EDF-L: EDF over Pathan's multiple linked lists, as evaluated on FreeRTOS by
 * the EDF-H vs EDF-L study (../shared/papers/edf-freertos-heap-vs-multilist-vs-rm.txt).
 *
 * One list per periodic task, indexed by the rank of its relative deadline:
 * list k belongs to the task whose relative deadline D_k is the k-th longest,
 * so a higher index means a shorter relative deadline (the same direction as
 * fixed priorities, so the bitmap's highest set bit is the list to look at).
 * A bitmap marks the non-empty lists; each list is circular with a sentinel,
 * so its tail is one pointer away.
 *
 * Invariants, at every instant t (before(a, b): earlier deadline, then
 * earlier ready order):
 *   (I1) each list is sorted by before();
 *   (I2) every job in list a comes before every job in list b if a > b — so
 *        the lists read from the highest index down are the EDF order;
 *   (I3) no job in list k has a deadline later than t + D_k;
 *   bit k of the bitmap is set iff list k is not empty.
 *
 * Costs:
 *   pick (peek) and removing the head: O(1) (highest bit, list head);
 *   inserting a job that comes before every queued job — the job a release
 *   preempts — O(1): at the head of list max(h, k), h the highest non-empty
 *   list (I3 holds: its deadline is at most that of h's head);
 *   inserting a released job that does not preempt: at the tail of its own
 *   list k (every job in lists >= k comes before it by I3, since D_l <= D_k
 *   there), then the jobs of lower lists that come before it are moved into
 *   list k in front of it — the linear re-distribution, paid only here.
 * A job woken late (its deadline long since fixed) may belong in front of
 * jobs of higher lists; it then goes into the highest list that has a job
 * after it, at its sorted place.
 *
 * A periodic task created opens its rank in O(n) (open_rank): the tasks
 * ranked above it move one rank up and every queued job stays where it is,
 * as each list's new owner bounds its jobs at least as loosely as the old
 * one (I3). Ranks of deleted tasks stay unused; when the ranks would run
 * past the lists, or the new rank's list still holds a deleted task's jobs,
 * all are recomputed and the queued jobs re-inserted (rebuild: O(n log n)
 * and the jobs' insertions, as every creation once paid).
 */
#include "policy_ops.h"

#define TAKT_BITMAP_LEVELS TAKT_CONFIG_MAX_TASKS
#include "ds/bitmap.h"

static struct {
    takt_bitmap_t nonempty;
    takt_list_t list[TAKT_CONFIG_MAX_TASKS];
    bool ranks_stale;
    uint16_t ranks_used; /* every live periodic task's list_index is below this */
    takt_task_t *scratch[TAKT_CONFIG_MAX_TASKS];
    takt_task_t *queued[TAKT_CONFIG_MAX_TASKS];
} ml;

static takt_task_t *task_of(takt_list_node_t *node)
{
    return TAKT_CONTAINER_OF(node, takt_task_t, ready.list);
}

static takt_task_t *head(unsigned k)
{
    return task_of(ml.list[k].next);
}

static takt_task_t *tail(unsigned k)
{
    return task_of(ml.list[k].prev);
}

/* The highest non-empty list below k, or -1. */
static int next_lower(unsigned k)
{
    return takt_bitmap_highest_below(&ml.nonempty, k);
}

void edf_mlist_init(void)
{
    takt_bitmap_init(&ml.nonempty);
    for (unsigned k = 0; k < TAKT_CONFIG_MAX_TASKS; k++) {
        takt_list_init(&ml.list[k]);
    }
    ml.ranks_stale = false;
    ml.ranks_used = 0;
    edf_background_init();
}

static void unlink_job(takt_task_t *task)
{
    if (takt_list_unlink_was_only(&task->ready.list)) {
        takt_bitmap_clear(&ml.nonempty, task->list_index_now);
    }
    takt_list_node_init(&task->ready.list);
}

static void link_before(unsigned k, takt_list_node_t *pos, takt_task_t *task)
{
    takt_list_insert_before(pos, &task->ready.list);
    task->list_index_now = (uint16_t)k;
    takt_bitmap_set(&ml.nonempty, k);
}

static void insert_job(takt_task_t *task)
{
    unsigned k = task->list_index;
    if (takt_bitmap_empty(&ml.nonempty)) {
        link_before(k, &ml.list[k], task);
        return;
    }
    unsigned h = takt_bitmap_highest(&ml.nonempty);
    if (edf_before(task, head(h))) {
        unsigned l = h > k ? h : k;
        link_before(l, ml.list[l].next, task);
        return;
    }
    /* The highest list holding a job that comes after this one. */
    int p = (int)h;
    while (p >= 0 && !edf_before(task, tail((unsigned)p))) {
        p = next_lower((unsigned)p);
    }
    if (p >= (int)k) {
        /* Only a job woken late gets here: sorted place inside list p. */
        takt_list_node_t *pos = ml.list[p].prev;
        while (pos != &ml.list[p] && edf_before(task, task_of(pos))) {
            pos = pos->prev;
        }
        link_before((unsigned)p, pos->next, task);
        return;
    }
    /* Tail of its own list, then re-distribution from the lower lists. */
    link_before(k, &ml.list[k], task);
    for (int l = next_lower(k); l >= 0; l = next_lower((unsigned)l)) {
        while (!takt_list_empty(&ml.list[l]) && edf_before(head((unsigned)l), task)) {
            takt_task_t *moved = head((unsigned)l);
            unlink_job(moved);
            link_before(k, &task->ready.list, moved);
        }
        if (!takt_list_empty(&ml.list[l])) {
            break; /* its head comes after the job: so does every lower list (I2) */
        }
    }
}

/* Ranks every live periodic task by relative deadline (longest: rank 0; ties:
 * the task created first ranks higher). Heap sort over a scratch array. */
static unsigned collect_periodic(void)
{
    unsigned n = 0;
    for (takt_list_node_t *node = takt_kernel.all_tasks.next; node != &takt_kernel.all_tasks;
         node = node->next) {
        takt_task_t *task = TAKT_CONTAINER_OF(node, takt_task_t, all_node);
        if (task->flags & TAKT_TASK_F_PERIODIC) { /* ranked by relative deadline */
            ml.scratch[n++] = task;
        }
    }
    return n;
}

/* Rank order: a sorts before b if its relative deadline is longer, or equal and created later. */
static bool rank_below(const takt_task_t *a, const takt_task_t *b)
{
    if (a->rel_deadline != b->rel_deadline) {
        return a->rel_deadline > b->rel_deadline;
    }
    return a->id > b->id;
}

static void sift(takt_task_t **a, unsigned root, unsigned n)
{
    for (;;) {
        unsigned child = 2u * root + 1u;
        if (child >= n) {
            return;
        }
        if (child + 1u < n && rank_below(a[child], a[child + 1u])) {
            child++;
        }
        if (!rank_below(a[root], a[child])) {
            return;
        }
        takt_task_t *tmp = a[root];
        a[root] = a[child];
        a[child] = tmp;
        root = child;
    }
}

static void rerank(void)
{
    unsigned n = collect_periodic();
    takt_task_t **a = ml.scratch;
    for (unsigned i = n / 2u; i-- > 0;) {
        sift(a, i, n);
    }
    for (unsigned end = n; end-- > 1u;) {
        takt_task_t *tmp = a[0];
        a[0] = a[end];
        a[end] = tmp;
        sift(a, 0, end);
    }
    for (unsigned i = 0; i < n; i++) {
        a[i]->list_index = (uint16_t)i;
    }
    ml.ranks_used = (uint16_t)n;
    ml.ranks_stale = false;
}

/* New ranks invalidate I3 for queued jobs: take them all out, re-rank, put them back. */
static void rebuild(void)
{
    takt_task_t **queued = ml.queued;
    unsigned n = 0;
    while (!takt_bitmap_empty(&ml.nonempty)) {
        takt_task_t *task = head(takt_bitmap_highest(&ml.nonempty));
        unlink_job(task);
        queued[n++] = task;
    }
    rerank();
    for (unsigned i = 0; i < n; i++) {
        insert_job(queued[i]);
    }
}

/*
 * The new periodic task's rank, opened in place: k, just above every task
 * ranked below it, and every task ranked at k or above moves one rank up.
 * The jobs stay where they are: a list's jobs are bounded by its old owner's
 * relative deadline (I3), and its new owner's is at least as long (the task
 * that ranked just below the old one, or, at k, the new task, ranked below
 * the task that owned k), so I3 holds with them in place, and I1 and I2 do as
 * nothing moved. Only a list at k whose task was deleted while it held jobs
 * has a bound not ordered against the new task's: then false (the caller
 * ranks everything anew). A deleted task's other lists are harmless: above k
 * each gets the owner just below it, and an empty one never gets a job again
 * (jobs go to their own list or to a non-empty one).
 */
static bool open_rank(takt_task_t *task)
{
    /* The ranks follow the indices (lower rank, lower index), so the task
     * just above the new one owns k exactly when the lowest index above is k. */
    int below = -1;
    int above = TAKT_CONFIG_MAX_TASKS;
    for (takt_list_node_t *node = takt_kernel.all_tasks.next; node != &takt_kernel.all_tasks;
         node = node->next) {
        const takt_task_t *other = TAKT_CONTAINER_OF(node, takt_task_t, all_node);
        if (other == task || !(other->flags & TAKT_TASK_F_PERIODIC)) {
            continue;
        }
        int index = other->list_index;
        if (rank_below(other, task)) {
            below = index > below ? index : below;
        } else {
            above = index < above ? index : above;
        }
    }
    unsigned k = (unsigned)(below + 1);
    bool k_owned = above == below + 1;
    if (!k_owned && !takt_list_empty(&ml.list[k])) {
        return false;
    }
    if (k_owned) {
        for (takt_list_node_t *node = takt_kernel.all_tasks.next; node != &takt_kernel.all_tasks;
             node = node->next) {
            takt_task_t *other = TAKT_CONTAINER_OF(node, takt_task_t, all_node);
            if (other != task && (other->flags & TAKT_TASK_F_PERIODIC) && other->list_index >= k) {
                other->list_index++;
            }
        }
        ml.ranks_used++;
    } else if (k >= ml.ranks_used) {
        ml.ranks_used = (uint16_t)(k + 1u);
    }
    task->list_index = (uint16_t)k;
    return true;
}

void edf_mlist_task_added(takt_task_t *task)
{
    if (!edf_has_deadline(task)) {
        return;
    }
    /* Room for one more index, and ranks to add to: else all anew. */
    if (ml.ranks_stale || ml.ranks_used >= TAKT_CONFIG_MAX_TASKS || !open_rank(task)) {
        ml.ranks_stale = true;
    }
}

void edf_mlist_insert(takt_task_t *task, takt_ready_how_t how)
{
    if (!edf_has_deadline(task)) {
        edf_background_insert(task, how);
        return;
    }
    if (ml.ranks_stale) {
        rebuild();
    }
    task->ready_deadline = task_deadline(task);
    insert_job(task);
}

void edf_mlist_remove(takt_task_t *task)
{
    if (!edf_has_deadline(task)) {
        edf_background_remove(task);
    } else {
        unlink_job(task);
    }
}

/* The job after a queued one in EDF order (I2: the next in its list, else
 * the head of the next lower non-empty list), or NULL. */
static takt_task_t *job_after(const takt_task_t *task)
{
    unsigned k = task->list_index_now;
    if (task->ready.list.next != &ml.list[k]) {
        return task_of(task->ready.list.next);
    }
    int lower = next_lower(k);
    return lower >= 0 ? head((unsigned)lower) : NULL;
}

/* A yield: same deadline, later ready order. The job goes right behind the
 * last job of its deadline, in that job's list, and stays where it is when
 * none follows it. That place keeps the invariants: the list stays sorted
 * (the job after it there has a later deadline); every job of a higher list
 * comes before the last equal, so before it too, and every job of a lower
 * list after it (I2); and its deadline is that last equal's, within the
 * list's bound (I3). The walk passes only the jobs of its deadline. */
void edf_mlist_move_behind_equals(takt_task_t *running)
{
    if (!edf_has_deadline(running)) {
        edf_background_move_behind_equals(running);
        return;
    }
    KASSERT(running->ready_deadline == task_deadline(running)); /* a change re-queues it */
    const takt_task_t *last = running;
    for (;;) {
        const takt_task_t *next = job_after(last);
        if (next == NULL || next->ready_deadline != running->ready_deadline) {
            break;
        }
        last = next;
    }
    if (last == running) {
        return;
    }
    unlink_job(running);
    link_before(last->list_index_now, last->ready.list.next, running);
}

takt_task_t *edf_mlist_peek(void)
{
    if (takt_bitmap_empty(&ml.nonempty)) {
        return edf_background_peek();
    }
    return head(takt_bitmap_highest(&ml.nonempty));
}

const takt_policy_t takt_policy_edf_mlist = TAKT_POLICY_EDF_MLIST_TABLE;
