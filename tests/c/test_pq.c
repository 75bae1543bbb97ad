/*
 * ds/pq.h: every priority-queue backend against one reference model.
 *
 * Random sequences of insert / remove-any / peek / pop / moved-later are applied to the
 * backend and to a plain array; after every step the count, the membership
 * flags and the minimum (wraparound order: a before b iff (int32_t)(a - b) < 0)
 * must agree. Keys are drawn around a base that walks across 2^32, so queues
 * hold keys just below the wraparound point and small keys after it at once,
 * always within half the key range of each other.
 *
 * New backends: append their ops table to `backends`.
 */
#include <stdlib.h>
#include <string.h>

#include "ds/list.h" /* TAKT_CONTAINER_OF */
#include "ds/pq.h"

#include "check.h"
#include "takt/types.h"
#include "takt_port_types.h" /* TAKT_PORT_HWPQ_UNITS */
#ifdef TAKT_PORT_HWPQ_UNITS
#include "takt_sim.h" /* the only port with the device: its depth and counts */
#endif

static const takt_pq_ops_t *const backends[] = {
    &takt_pq_list_ops,
    &takt_pq_heap_ops,
    &takt_pq_rbtree_ops,
#ifdef TAKT_PORT_HWPQ_UNITS
    &takt_pq_hw_ops, /* the sim port's device: the C model of hw/ */
#endif
};

#define POOL 96

typedef struct {
    takt_pq_node_t node; /* first member is not assumed: see item_of */
    int id;
    bool in; /* reference model: queued? */
} item_t;

static item_t pool[POOL];
static takt_pq_node_t *heap_slots[POOL]; /* storage for the heap backend */

static item_t *item_of(takt_pq_node_t *node)
{
    return TAKT_CONTAINER_OF(node, item_t, node);
}

static uint64_t rng_state;
static uint32_t rng(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static uint32_t ref_count(void)
{
    uint32_t n = 0;
    for (int i = 0; i < POOL; i++) {
        n += pool[i].in;
    }
    return n;
}

/* Index of an item with the smallest key (wraparound order), -1 if empty. */
static int ref_min(void)
{
    int best = -1;
    for (int i = 0; i < POOL; i++) {
        if (pool[i].in && (best < 0 || takt_pq_node_before(&pool[i].node, &pool[best].node))) {
            best = i;
        }
    }
    return best;
}

/* The group of equal nodes chained behind a tree node: a ring through left
 * (next) and right (previous), every node equal to the owner, queued and
 * marked chained (equals points at itself), the first pointing back at the owner and no other.
 * Returns the group's size, -1 if broken. */
static int rb_check_group(const takt_pq_node_t *owner)
{
    const takt_pq_node_t *first = owner->link.rb.equals;
    int size = 0;
    const takt_pq_node_t *node = first;
    while (node != NULL) {
        const takt_pq_node_t *next = node->link.rb.left;
        if (node->link.rb.equals != node || !node->queued || node->key != owner->key || node->tie != owner->tie ||
            next == NULL || next->link.rb.right != node ||
            node->link.rb.parent != (node == first ? owner : NULL) || ++size > 1000) {
            return -1;
        }
        node = next == first ? NULL : next;
    }
    return size;
}

/* The red-black tree's own invariants below node: parent links, order, no red
 * node with a red child, one black height, the groups of equal nodes; returns
 * the black height, -1 if broken. seen counts the queued nodes, chained ones too. */
static int rb_check_subtree(const takt_pq_node_t *node, const takt_pq_node_t *parent,
                            const takt_pq_node_t **prev, uint32_t *seen)
{
    if (node == NULL) {
        return 1;
    }
    if (node->link.rb.parent != parent || !node->queued || node->link.rb.equals == node) {
        return -1;
    }
    int left = rb_check_subtree(node->link.rb.left, node, prev, seen);
    /* strictly in order: an equal node belongs in a group, not in the tree */
    if (*prev != NULL && !takt_pq_node_before(*prev, node)) {
        return -1;
    }
    *prev = node;
    int group = rb_check_group(node);
    if (group < 0) {
        return -1;
    }
    *seen += 1u + (uint32_t)group;
    int right = rb_check_subtree(node->link.rb.right, node, prev, seen);
    if (left < 0 || right < 0 || left != right) {
        return -1;
    }
    if (node->rb_red && ((node->link.rb.left != NULL && node->link.rb.left->rb_red) ||
                         (node->link.rb.right != NULL && node->link.rb.right->rb_red))) {
        return -1;
    }
    return left + (node->rb_red ? 0 : 1);
}

/* The tree's shape and its cached leftmost and rightmost nodes (the first and
 * the last in order). */
static bool rb_check(const takt_pq_t *pq)
{
    const takt_pq_node_t *root = pq->impl.rb.root;
    const takt_pq_node_t *first = root;
    while (first != NULL && first->link.rb.left != NULL) {
        first = first->link.rb.left;
    }
    const takt_pq_node_t *prev = NULL;
    uint32_t seen = 0;
    bool ok = CHECK(root == NULL || !root->rb_red);
    ok = CHECK(rb_check_subtree(root, NULL, &prev, &seen) > 0) && ok;
    ok = CHECK_EQ(seen, takt_pq_count(pq)) && ok;
    ok = CHECK(pq->impl.rb.leftmost == first) && ok;
    const takt_pq_node_t *last = root;
    while (last != NULL && last->link.rb.right != NULL) {
        last = last->link.rb.right;
    }
    ok = CHECK(pq->impl.rb.rightmost == last) && ok;
    return ok;
}

static bool check_state(const takt_pq_ops_t *ops, takt_pq_t *pq, const char *where)
{
    bool ok = true;
    ok = CHECK_EQ(takt_pq_count(pq), ref_count()) && ok;
    for (int i = 0; i < POOL; i++) {
        if (takt_pq_node_queued(&pool[i].node) != pool[i].in) {
            ok = CHECK_EQ(takt_pq_node_queued(&pool[i].node), pool[i].in) && ok;
        }
    }
    int m = ref_min();
    takt_pq_node_t *top = ops->peek(pq);
    if (m < 0) {
        ok = CHECK(top == NULL) && ok;
    } else if (CHECK(top != NULL)) {
        /* equal (key, tie) may come out in any order: compare them, then membership */
        ok = CHECK_EQ(top->key, pool[m].node.key) && ok;
        ok = CHECK_EQ(top->tie, pool[m].node.tie) && ok;
        ok = CHECK(item_of(top)->in) && ok;
    } else {
        ok = false;
    }
    if (ops == &takt_pq_rbtree_ops) {
        ok = rb_check(pq) && ok;
    }
    if (!ok) {
        fprintf(stderr, "  backend %s, %s\n", ops->name, where);
    }
    return ok;
}

/* Key spread: keys are base + [0, spread). */
static bool run_sequence(const takt_pq_ops_t *ops, uint32_t base, uint32_t spread, int steps,
                         uint32_t base_step, uint64_t seed)
{
    takt_pq_t pq;
    rng_state = seed;
    memset(&pq, 0xCD, sizeof(pq)); /* init must not rely on zeroed memory */
    ops->init(&pq, heap_slots, POOL);
    for (int i = 0; i < POOL; i++) {
        memset(&pool[i].node, 0xCD, sizeof(pool[i].node));
        takt_pq_node_init(&pool[i].node);
        pool[i].id = i;
        pool[i].in = false;
    }
    if (!check_state(ops, &pq, "after init")) {
        return false;
    }
    for (int step = 0; step < steps; step++) {
        uint32_t op = rng() % 11u;
        int i = (int)(rng() % POOL);
        char where[96];
        if (op < 4) { /* insert a free node */
            if (pool[i].in) {
                continue;
            }
            /* a few duplicate keys on purpose */
            uint32_t off = (rng() % 8u == 0) ? 0u : rng() % spread;
            pool[i].node.key = base + off;
            pool[i].node.tie = rng() % 3u; /* equal keys ordered by tie */
            if (!CHECK(ops->insert(&pq, &pool[i].node))) {
                return false;
            }
            pool[i].in = true;
            snprintf(where, sizeof(where), "step %d insert key 0x%08x", step,
                     (unsigned)pool[i].node.key);
        } else if (op < 6) { /* remove a queued node, anywhere */
            if (!pool[i].in) {
                continue;
            }
            ops->remove(&pq, &pool[i].node);
            pool[i].in = false;
            snprintf(where, sizeof(where), "step %d remove key 0x%08x", step,
                     (unsigned)pool[i].node.key);
        } else if (op < 8) { /* pop */
            int m = ref_min();
            takt_pq_node_t *got = ops->pop(&pq);
            if (m < 0) {
                if (!CHECK(got == NULL)) {
                    return false;
                }
                continue;
            }
            if (!CHECK(got != NULL)) {
                return false;
            }
            if (!CHECK_EQ(got->key, pool[m].node.key) || !CHECK_EQ(got->tie, pool[m].node.tie) ||
                !CHECK(item_of(got)->in) ||
                !CHECK(!takt_pq_node_queued(got))) {
                fprintf(stderr, "  backend %s, step %d pop\n", ops->name, step);
                return false;
            }
            item_of(got)->in = false;
            snprintf(where, sizeof(where), "step %d pop", step);
        } else if (op == 10) { /* a queued node comes later: a later tie, often a later key */
            if (!pool[i].in) {
                continue;
            }
            takt_pq_node_t *node = &pool[i].node;
            uint32_t room = spread - 1u - (node->key - base); /* keys stay below base + spread */
            if (room > 0 && rng() % 2u == 0) {
                node->key += 1u + rng() % room;
                node->tie = rng() % 3u;
            } else {
                node->tie += 1u + rng() % 2u;
            }
            ops->moved_later(&pq, node);
            snprintf(where, sizeof(where), "step %d moved later to key 0x%08x tie %u", step,
                     (unsigned)node->key, (unsigned)node->tie);
        } else { /* advance the base past wraparound, dropping keys now out of range */
            base += base_step;
            for (int j = 0; j < POOL; j++) {
                if (pool[j].in && takt_key_before(pool[j].node.key, base)) {
                    ops->remove(&pq, &pool[j].node);
                    pool[j].in = false;
                }
            }
            snprintf(where, sizeof(where), "step %d base 0x%08x", step, (unsigned)base);
        }
        if (!check_state(ops, &pq, where)) {
            return false;
        }
    }
    /* drain: pops come out in non-decreasing wraparound order */
    uint32_t n = ref_count();
    takt_pq_node_t *prev = NULL;
    for (uint32_t k = 0; k < n; k++) {
        takt_pq_node_t *got = ops->pop(&pq);
        if (!CHECK(got != NULL)) {
            return false;
        }
        if (prev != NULL && !CHECK(!takt_pq_node_before(got, prev))) {
            fprintf(stderr, "  backend %s: drain order 0x%08x then 0x%08x\n", ops->name,
                    (unsigned)prev->key, (unsigned)got->key);
            return false;
        }
        item_of(got)->in = false;
        prev = got;
    }
    CHECK(ops->pop(&pq) == NULL);
    CHECK(ops->peek(&pq) == NULL);
    return check_state(ops, &pq, "after drain");
}

/* Hand-written case: keys either side of the wraparound point. */
static void wrap_case(const takt_pq_ops_t *ops)
{
    static const uint32_t keys[] = {5u, 0xFFFFFFF0u, 0u, 0xFFFFFFFFu, 0x10u, 0xFFFFFFF8u, 1u};
    static const uint32_t sorted[] = {0xFFFFFFF0u, 0xFFFFFFF8u, 0xFFFFFFFFu, 0u, 1u, 5u, 0x10u};
    enum { N = sizeof(keys) / sizeof(keys[0]) };
    takt_pq_t pq;
    takt_pq_node_t nodes[N];
    takt_pq_node_t *slots[N];
    ops->init(&pq, slots, N);
    for (unsigned i = 0; i < N; i++) {
        takt_pq_node_init(&nodes[i]);
        nodes[i].key = keys[i];
        CHECK(ops->insert(&pq, &nodes[i]));
        CHECK_EQ(takt_pq_count(&pq), i + 1u);
    }
    CHECK_EQ(ops->peek(&pq)->key, 0xFFFFFFF0u);
    /* remove the minimum and one from the middle by handle */
    ops->remove(&pq, &nodes[1]); /* 0xFFFFFFF0 */
    ops->remove(&pq, &nodes[2]); /* 0 */
    CHECK(!takt_pq_node_queued(&nodes[1]));
    CHECK_EQ(takt_pq_count(&pq), N - 2u);
    CHECK_EQ(ops->peek(&pq)->key, 0xFFFFFFF8u);
    ops->insert(&pq, &nodes[2]);
    ops->insert(&pq, &nodes[1]);
    for (unsigned i = 0; i < N; i++) {
        takt_pq_node_t *got = ops->pop(&pq);
        if (!CHECK(got != NULL) || !CHECK_EQ(got->key, sorted[i])) {
            fprintf(stderr, "  backend %s: wrap case pop %u\n", ops->name, i);
            return;
        }
    }
    CHECK(ops->pop(&pq) == NULL);
    CHECK_EQ(takt_pq_count(&pq), 0);
}

/* Timer-like use: nodes queued in time order (most behind every queued one,
 * some equal to the last, a few earlier), the earliest popped, some cancelled.
 * Equal nodes leave in the order they were queued on the list and the tree
 * (the timer queue relies on it for timers due at one tick: time.c). */
static void time_order_case(const takt_pq_ops_t *ops)
{
    enum { N = 64 };
    takt_pq_t pq;
    static takt_pq_node_t nodes[N];
    static takt_pq_node_t *slots[N];
    static uint32_t queued_seq[N];
    uint32_t seq = 0;
    uint32_t now = 0xFFFFFFC0u; /* across the wraparound */
    ops->init(&pq, slots, N);
    for (unsigned i = 0; i < N; i++) {
        takt_pq_node_init(&nodes[i]);
        nodes[i].tie = UINT64_MAX; /* the timer queue's ordinary tie */
    }
    rng_state = 7u;
    bool fifo = ops != &takt_pq_heap_ops; /* the heap does not keep equal nodes in order */
    for (int step = 0; step < 20000; step++) {
        unsigned i = rng() % N;
        uint32_t op = rng() % 8u;
        if (op < 4 && !nodes[i].queued) {
            uint32_t r = rng() % 8u;
            nodes[i].key = now + (r == 0 ? 0u : r < 6 ? 3u : rng() % 5u);
            queued_seq[i] = seq++;
            CHECK(ops->insert(&pq, &nodes[i]));
        } else if (op < 6) {
            takt_pq_node_t *top = ops->peek(&pq);
            takt_pq_node_t *got = ops->pop(&pq);
            if (!CHECK(got == top)) {
                return;
            }
            /* nothing queued comes before it, nor an equal node queued earlier */
            for (unsigned j = 0; got != NULL && j < N; j++) {
                if (nodes[j].queued &&
                    (takt_pq_node_before(&nodes[j], got) ||
                     (fifo && nodes[j].key == got->key && queued_seq[j] < queued_seq[got - nodes]))) {
                    CHECK(false);
                    fprintf(stderr, "  backend %s: time order step %d\n", ops->name, step);
                    return;
                }
            }
        } else if (op == 6 && nodes[i].queued) {
            ops->remove(&pq, &nodes[i]);
        } else {
            now++;
        }
        if (ops == &takt_pq_rbtree_ops && !rb_check(&pq)) {
            fprintf(stderr, "  backend %s: time order step %d\n", ops->name, step);
            return;
        }
    }
}

/* The tree's groups: a node equal to one in the tree waits behind it, in the
 * order it came (found at the last node without a descent, or on the way
 * down), and leaves with no rebalancing. */
static void rb_group_case(void)
{
    enum { N = 7 };
    static const uint32_t keys[N] = {5, 7, 7, 7, 6, 5, 7};
    takt_pq_t pq;
    takt_pq_node_t n[N];
    takt_pq_rbtree_init(&pq);
    for (unsigned i = 0; i < N; i++) {
        takt_pq_node_init(&n[i]);
        n[i].key = keys[i];
        CHECK(takt_pq_rbtree_insert(&pq, &n[i]));
        CHECK(rb_check(&pq));
    }
    CHECK(n[1].link.rb.equals == &n[2]); /* 7, 7, 7 behind the first 7 */
    CHECK(n[2].link.rb.equals == &n[2] && n[3].link.rb.equals == &n[3] &&
          n[6].link.rb.equals == &n[6]);
    CHECK(n[0].link.rb.equals == &n[5]); /* the second 5, found on the way down */
    CHECK(n[4].link.rb.equals == NULL);
    CHECK_EQ(takt_pq_count(&pq), (uint32_t)N);
    /* the tree node leaves from the middle: the first of its group takes its place */
    takt_pq_rbtree_remove(&pq, &n[1]);
    CHECK(rb_check(&pq));
    CHECK(n[2].link.rb.equals == &n[3]);
    CHECK(pq.impl.rb.rightmost == &n[2]);
    /* a chained node leaves from the middle of its group */
    takt_pq_rbtree_remove(&pq, &n[3]);
    CHECK(rb_check(&pq));
    static const int order[] = {0, 5, 4, 2, 6};
    for (unsigned i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        takt_pq_node_t *got = takt_pq_rbtree_pop(&pq);
        if (!CHECK(got == &n[order[i]])) {
            fprintf(stderr, "  rbtree group case: pop %u\n", i);
            return;
        }
        CHECK(rb_check(&pq));
    }
    CHECK(takt_pq_rbtree_pop(&pq) == NULL);
}

/* The heap's pop done by its caller (the tick's timer queue): the caller
 * takes the root out and calls takt_pq_heap_refill_root only when nodes are
 * left. Mixed with inserts, the minimum leaves each time, as the
 * reference model says. */
static void heap_refill_case(void)
{
    takt_pq_t pq;
    takt_pq_heap_init(&pq, heap_slots, POOL);
    memset(pool, 0, sizeof(pool));
    rng_state = 5;
    for (int step = 0; step < 20000; step++) {
        int i = (int)(rng() % POOL);
        if (!pool[i].in && rng() % 3 != 0) {
            takt_pq_node_init(&pool[i].node);
            pool[i].node.key = 0xFFFFFF00u + rng() % 0x200u;
            pool[i].node.tie = rng() % 4u;
            pool[i].id = i;
            CHECK(takt_pq_heap_insert(&pq, &pool[i].node));
            pool[i].in = true;
        } else if (pq.count > 0) {
            takt_pq_node_t *top = takt_pq_heap_peek(&pq);
            int want = ref_min();
            CHECK(want >= 0 && !takt_pq_node_before(&pool[want].node, top));
            pq.count--;
            top->queued = false;
            if (pq.count != 0) {
                takt_pq_heap_refill_root(&pq);
            }
            item_of(top)->in = false;
        }
        CHECK_EQ(pq.count, ref_count());
    }
}

#ifdef TAKT_PORT_HWPQ_UNITS
/* What the device guarantees beyond the contract: equal nodes leave first
 * in, first out. */
static void hw_fifo_case(void)
{
    enum { N = 9 };
    takt_pq_t pq;
    takt_pq_node_t n[N];
    CHECK(takt_pq_hw_init(&pq, 0, heap_slots, POOL));
    for (unsigned i = 0; i < N; i++) {
        takt_pq_node_init(&n[i]);
        n[i].key = 0xFFFFFFFFu + (i % 3u); /* 2^32-1, 0, 1: across the wrap */
        n[i].tie = 7;
        CHECK(takt_pq_hw_insert(&pq, &n[i]));
    }
    static const int order[N] = {0, 3, 6, 1, 4, 7, 2, 5, 8};
    for (unsigned i = 0; i < N; i++) {
        if (!CHECK(takt_pq_hw_pop(&pq) == &n[order[i]])) {
            fprintf(stderr, "  hw fifo case: pop %u\n", i);
            return;
        }
    }
    CHECK(takt_pq_hw_pop(&pq) == NULL);
}

/* The queue holds no more than the device's depth nor the handles given;
 * a refused insert changes nothing; a unit the port lacks is refused. Each
 * operation is a fixed number of register accesses, whatever the count. */
static void hw_limits_case(void)
{
    enum { DEPTH = 5 };
    takt_pq_t pq;
    takt_pq_node_t n[DEPTH + 1];
    CHECK_EQ(takt_sim_hwpq_configure(0, DEPTH), TAKT_OK);
    CHECK_EQ(takt_sim_hwpq_configure(0, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_sim_hwpq_configure(TAKT_PORT_HWPQ_UNITS, 8), TAKT_ERR_ARG);
    CHECK(!takt_pq_hw_init(&pq, TAKT_PORT_HWPQ_UNITS, heap_slots, POOL));
    CHECK(takt_pq_hw_init(&pq, 0, heap_slots, POOL)); /* the device's 5, not 96 */
    for (unsigned i = 0; i <= DEPTH; i++) {
        takt_pq_node_init(&n[i]);
        n[i].key = 100u - i;
        CHECK_EQ(takt_pq_hw_insert(&pq, &n[i]), i < DEPTH);
    }
    CHECK(!takt_pq_node_queued(&n[DEPTH]));
    CHECK_EQ(takt_pq_count(&pq), (uint32_t)DEPTH);
    CHECK(takt_pq_hw_peek(&pq) == &n[DEPTH - 1]);
    takt_pq_hw_remove(&pq, &n[2]);
    takt_pq_hw_remove(&pq, &n[2]); /* not queued: nothing */
    CHECK_EQ(takt_pq_count(&pq), (uint32_t)(DEPTH - 1));
    CHECK(takt_pq_hw_insert(&pq, &n[DEPTH])); /* the freed handle serves another */
    CHECK(takt_pq_hw_peek(&pq) == &n[DEPTH]);
    /* fewer handles than the device's depth: the handles bound it */
    CHECK(takt_pq_hw_init(&pq, 0, heap_slots, 2));
    for (unsigned i = 0; i < 3; i++) {
        takt_pq_node_init(&n[i]);
        CHECK_EQ(takt_pq_hw_insert(&pq, &n[i]), i < 2);
    }

    CHECK_EQ(takt_sim_hwpq_configure(0, HWPQ_MODEL_MAX_DEPTH), TAKT_OK);
    CHECK(takt_pq_hw_init(&pq, 0, heap_slots, POOL));
    hwpq_model_counts_t before, after;
    uint64_t accesses[2] = {0, 0};
    for (unsigned round = 0; round < 2; round++) {
        unsigned fill = round == 0 ? 1 : POOL - 1; /* few queued, then many */
        for (unsigned i = 0; i < fill; i++) {
            takt_pq_node_init(&pool[i].node);
            pool[i].node.key = i * 3u;
            CHECK(takt_pq_hw_insert(&pq, &pool[i].node));
        }
        takt_pq_node_t extra;
        takt_pq_node_init(&extra);
        extra.key = 50;
        CHECK_EQ(takt_sim_hwpq_counts(0, &before), TAKT_OK);
        CHECK(takt_pq_hw_insert(&pq, &extra));
        takt_pq_hw_moved_later(&pq, &extra);
        (void)takt_pq_hw_peek(&pq);
        takt_pq_hw_remove(&pq, &extra);
        CHECK(takt_pq_hw_pop(&pq) == &pool[0].node);
        CHECK_EQ(takt_sim_hwpq_counts(0, &after), TAKT_OK);
        accesses[round] = (after.reads + after.writes) - (before.reads + before.writes);
        CHECK_EQ(after.refused, before.refused);
        while (takt_pq_hw_pop(&pq) != NULL) {
        }
    }
    CHECK(accesses[0] > 0);
    CHECK_EQ(accesses[0], accesses[1]);
}
#endif

int main(void)
{
    rb_group_case();
    heap_refill_case();
#ifdef TAKT_PORT_HWPQ_UNITS
    hw_fifo_case();
    hw_limits_case();
#endif
    for (size_t b = 0; b < sizeof(backends) / sizeof(backends[0]); b++) {
        const takt_pq_ops_t *ops = backends[b];
        printf("backend %s\n", ops->name);
        wrap_case(ops);
        time_order_case(ops);
        /* small spread across the wrap, base walking by small steps */
        run_sequence(ops, 0xFFFFFF00u, 0x400u, 40000, 0x40u, 1u);
        /* keys near 0xFFFFFFF0 and small keys after the wrap */
        run_sequence(ops, 0xFFFFFFF0u, 0x40u, 20000, 1u, 2u);
        /* widest legal spread: every pair within half the key range */
        run_sequence(ops, 0xC0000000u, 0x7FFFFFFFu, 40000, 0x10000000u, 3u);
        /* many duplicates */
        run_sequence(ops, 0x7FFFFFF0u, 4u, 20000, 1u, 4u);
    }
    return CHECK_SUMMARY();
}
