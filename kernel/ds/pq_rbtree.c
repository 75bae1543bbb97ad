/*
 * Red-black tree backend of the priority queue. The leftmost node is cached
 * so peek is O(1); insert and remove rebalance in O(log n) with at most
 * three rotations. The rightmost node is cached too: a node that goes at or
 * after it (a timeout at least as late as every armed one, the usual delay)
 * is linked under it at once, and only the rebalancing remains (amortised
 * O(1) for such inserts in a row). Invariants: the root is black; a red node has black
 * children; every root-to-leaf path has the same number of black nodes.
 * NULL children count as black leaves.
 *
 * Equal nodes (key and tie) share one place in the tree: the first queued is
 * the tree node, the others wait behind it in a ring (its group), in the
 * order they came. Timeouts bunch on ticks (every task that delays by one
 * tick at one tick wakes at the same one), and then a delay, and the wake of
 * each of them, costs the same however many are queued: no descent, no
 * rebalancing. In the ring, left and right are next and previous; parent is
 * the tree node for the first of the ring and NULL for the others, so that
 * a removal anywhere stays O(1).
 */
#include "pq.h"

#define L(n) ((n)->link.rb.left)
#define R(n) ((n)->link.rb.right)
#define P(n) ((n)->link.rb.parent)

static bool is_red(const takt_pq_node_t *node)
{
    return node != NULL && node->rb_red;
}

/* Where a goes against b: before (< 0), in b's group (0), or after (> 0):
 * takt_pq_node_before's order with equality told apart. Its own copy, not
 * the shared one: written as `before < 0` in pq.h it costs the heap and the
 * list 1-13 instructions per operation (measured: FP vTaskDelay +1, host
 * heap remove-head at 1 job 46 -> 59). */
static inline int place(const takt_pq_node_t *a, const takt_pq_node_t *b)
{
    if (a->key != b->key) {
        return takt_key_before(a->key, b->key) ? -1 : 1;
    }
    if (a->tie != b->tie) {
        return a->tie < b->tie ? -1 : 1;
    }
    return 0;
}

void takt_pq_rbtree_init(takt_pq_t *pq)
{
    pq->impl.rb.root = NULL;
    pq->impl.rb.leftmost = NULL;
    pq->impl.rb.rightmost = NULL;
    pq->count = 0;
}

/* Makes `with` take `node`'s place under node's parent. */
static void replace_child(takt_pq_t *pq, takt_pq_node_t *node, takt_pq_node_t *with)
{
    takt_pq_node_t *parent = P(node);
    if (parent == NULL) {
        pq->impl.rb.root = with;
    } else if (L(parent) == node) {
        L(parent) = with;
    } else {
        R(parent) = with;
    }
    if (with != NULL) {
        P(with) = parent;
    }
}

static void rotate_left(takt_pq_t *pq, takt_pq_node_t *x)
{
    takt_pq_node_t *y = R(x);
    R(x) = L(y);
    if (L(y) != NULL) {
        P(L(y)) = x;
    }
    replace_child(pq, x, y);
    L(y) = x;
    P(x) = y;
}

static void rotate_right(takt_pq_t *pq, takt_pq_node_t *x)
{
    takt_pq_node_t *y = L(x);
    L(x) = R(y);
    if (R(y) != NULL) {
        P(R(y)) = x;
    }
    replace_child(pq, x, y);
    R(y) = x;
    P(x) = y;
}

static void insert_fixup(takt_pq_t *pq, takt_pq_node_t *node)
{
    while (is_red(P(node))) {
        takt_pq_node_t *parent = P(node);
        takt_pq_node_t *grand = P(parent); /* exists: a red parent is not the root */
        bool parent_is_left = L(grand) == parent;
        takt_pq_node_t *uncle = parent_is_left ? R(grand) : L(grand);
        if (is_red(uncle)) {
            parent->rb_red = false;
            uncle->rb_red = false;
            grand->rb_red = true;
            node = grand;
            continue;
        }
        if (parent_is_left) {
            if (R(parent) == node) {
                rotate_left(pq, parent);
                node = parent;
                parent = P(node);
            }
            rotate_right(pq, grand);
        } else {
            if (L(parent) == node) {
                rotate_right(pq, parent);
                node = parent;
                parent = P(node);
            }
            rotate_left(pq, grand);
        }
        parent->rb_red = false;
        grand->rb_red = true;
    }
    pq->impl.rb.root->rb_red = false;
}

/* Queues node behind its equal owner, at the end of owner's group. */
static void chain_behind(takt_pq_node_t *owner, takt_pq_node_t *node)
{
    takt_pq_node_t *first = owner->link.rb.equals;
    node->link.rb.equals = node;
    if (first == NULL) {
        owner->link.rb.equals = node;
        L(node) = node;
        R(node) = node;
        P(node) = owner;
    } else {
        takt_pq_node_t *last = R(first);
        L(last) = node;
        R(node) = last;
        L(node) = first;
        R(first) = node;
        P(node) = NULL;
    }
}

bool takt_pq_rbtree_insert(takt_pq_t *pq, takt_pq_node_t *node)
{
    takt_pq_node_t *parent = NULL;
    takt_pq_node_t *last = pq->impl.rb.rightmost;
    bool leftmost = true;
    bool rightmost = true;
    bool go_left = false;
    /* Equal nodes go behind those already queued: in their group. */
    int where = last != NULL ? place(node, last) : -1;
    if (where >= 0) {
        if (where == 0) {
            chain_behind(last, node);
            goto queued;
        }
        parent = last; /* its right child is empty: it is the last */
        leftmost = false;
    } else {
        takt_pq_node_t *cur = pq->impl.rb.root;
        while (cur != NULL) {
            parent = cur;
            where = place(node, cur);
            go_left = where < 0;
            if (go_left) {
                cur = L(cur);
                rightmost = false;
            } else {
                if (where == 0) {
                    chain_behind(cur, node);
                    goto queued;
                }
                cur = R(cur);
                leftmost = false;
            }
        }
    }
    L(node) = NULL;
    R(node) = NULL;
    P(node) = parent;
    node->link.rb.equals = NULL;
    node->rb_red = true;
    if (parent == NULL) {
        pq->impl.rb.root = node;
    } else if (go_left) {
        L(parent) = node;
    } else {
        R(parent) = node;
    }
    if (leftmost) {
        pq->impl.rb.leftmost = node;
    }
    if (rightmost) {
        pq->impl.rb.rightmost = node;
    }
    insert_fixup(pq, node);
queued:
    node->queued = true;
    pq->count++;
    return true;
}

/* Takes a chained node out of its group. */
static void unchain(takt_pq_node_t *node)
{
    takt_pq_node_t *next = L(node);
    takt_pq_node_t *owner = P(node); /* set for the first of the group only */
    if (next == node) {
        owner->link.rb.equals = NULL; /* it was alone, so the first */
        return;
    }
    takt_pq_node_t *prev = R(node);
    L(prev) = next;
    R(next) = prev;
    if (owner != NULL) {
        owner->link.rb.equals = next;
        P(next) = owner;
    }
}

/* The tree node leaves and the first of its group, heir, takes its place in
 * the tree (same key and tie: the order holds, so do the caches' meaning). */
static void hand_over(takt_pq_t *pq, takt_pq_node_t *node, takt_pq_node_t *heir)
{
    takt_pq_node_t *rest = L(heir) == heir ? NULL : L(heir);
    if (rest != NULL) {
        takt_pq_node_t *last = R(heir);
        L(last) = rest;
        R(rest) = last;
        P(rest) = heir;
    }
    heir->link.rb.equals = rest;
    heir->rb_red = node->rb_red;
    replace_child(pq, node, heir);
    L(heir) = L(node);
    R(heir) = R(node);
    if (L(heir) != NULL) {
        P(L(heir)) = heir;
    }
    if (R(heir) != NULL) {
        P(R(heir)) = heir;
    }
    if (pq->impl.rb.leftmost == node) {
        pq->impl.rb.leftmost = heir;
    }
    if (pq->impl.rb.rightmost == node) {
        pq->impl.rb.rightmost = heir;
    }
}

static takt_pq_node_t *minimum(takt_pq_node_t *node)
{
    while (L(node) != NULL) {
        node = L(node);
    }
    return node;
}

static takt_pq_node_t *maximum(takt_pq_node_t *node)
{
    while (R(node) != NULL) {
        node = R(node);
    }
    return node;
}

/* Restores the black height after removing a black node; x (maybe NULL) has
 * an extra black and sits under parent. */
static void remove_fixup(takt_pq_t *pq, takt_pq_node_t *x, takt_pq_node_t *parent)
{
    while (x != pq->impl.rb.root && !is_red(x)) {
        if (x == L(parent)) {
            takt_pq_node_t *w = R(parent);
            if (is_red(w)) {
                w->rb_red = false;
                parent->rb_red = true;
                rotate_left(pq, parent);
                w = R(parent);
            }
            if (!is_red(L(w)) && !is_red(R(w))) {
                w->rb_red = true;
                x = parent;
                parent = P(x);
            } else {
                if (!is_red(R(w))) {
                    L(w)->rb_red = false;
                    w->rb_red = true;
                    rotate_right(pq, w);
                    w = R(parent);
                }
                w->rb_red = parent->rb_red;
                parent->rb_red = false;
                R(w)->rb_red = false;
                rotate_left(pq, parent);
                x = pq->impl.rb.root;
                parent = NULL;
            }
        } else {
            takt_pq_node_t *w = L(parent);
            if (is_red(w)) {
                w->rb_red = false;
                parent->rb_red = true;
                rotate_right(pq, parent);
                w = L(parent);
            }
            if (!is_red(L(w)) && !is_red(R(w))) {
                w->rb_red = true;
                x = parent;
                parent = P(x);
            } else {
                if (!is_red(L(w))) {
                    R(w)->rb_red = false;
                    w->rb_red = true;
                    rotate_left(pq, w);
                    w = L(parent);
                }
                w->rb_red = parent->rb_red;
                parent->rb_red = false;
                L(w)->rb_red = false;
                rotate_right(pq, parent);
                x = pq->impl.rb.root;
                parent = NULL;
            }
        }
    }
    if (x != NULL) {
        x->rb_red = false;
    }
}

void takt_pq_rbtree_remove(takt_pq_t *pq, takt_pq_node_t *node)
{
    /* A chained node's equals points at itself, a tree node's at its group:
     * one test finds the common case, a tree node with no group. */
    takt_pq_node_t *equals = node->link.rb.equals;
    if (equals != NULL) {
        if (equals == node) {
            unchain(node);
        } else {
            hand_over(pq, node, equals);
        }
        goto removed;
    }
    if (pq->impl.rb.leftmost == node) {
        /* The next smallest: the leftmost of the right subtree, else the parent. */
        pq->impl.rb.leftmost = R(node) != NULL ? minimum(R(node)) : P(node);
    }
    if (pq->impl.rb.rightmost == node) {
        /* The next largest: the rightmost of the left subtree, else the parent. */
        pq->impl.rb.rightmost = L(node) != NULL ? maximum(L(node)) : P(node);
    }
    takt_pq_node_t *x;
    takt_pq_node_t *x_parent;
    bool removed_red;
    if (L(node) == NULL || R(node) == NULL) {
        x = L(node) != NULL ? L(node) : R(node);
        x_parent = P(node);
        removed_red = node->rb_red;
        replace_child(pq, node, x);
    } else {
        /* Two children: the successor takes node's place and colour. */
        takt_pq_node_t *succ = minimum(R(node));
        removed_red = succ->rb_red;
        x = R(succ);
        if (P(succ) == node) {
            x_parent = succ;
        } else {
            x_parent = P(succ);
            replace_child(pq, succ, x);
            R(succ) = R(node);
            P(R(succ)) = succ;
        }
        replace_child(pq, node, succ);
        L(succ) = L(node);
        P(L(succ)) = succ;
        succ->rb_red = node->rb_red;
    }
    if (!removed_red) {
        remove_fixup(pq, x, x_parent);
    }
removed:
    node->queued = false;
    pq->count--;
}

takt_pq_node_t *takt_pq_rbtree_pop(takt_pq_t *pq)
{
    takt_pq_node_t *top = pq->impl.rb.leftmost;
    if (top != NULL) {
        takt_pq_rbtree_remove(pq, top);
    }
    return top;
}

/* The node in order after a tree node: the leftmost of its right subtree,
 * else the nearest ancestor it lies to the left of; NULL for the last. */
static takt_pq_node_t *successor(takt_pq_node_t *node)
{
    if (R(node) != NULL) {
        return minimum(R(node));
    }
    takt_pq_node_t *parent = P(node);
    while (parent != NULL && node == R(parent)) {
        node = parent;
        parent = P(node);
    }
    return parent;
}

/* A tree node without a group that still comes before its successor keeps
 * its place: the order around it holds. Otherwise (a group, or now at or
 * after its successor) it is taken out and put back, as the contract says:
 * the removal follows links, never keys, so the changed key does not
 * mislead it. */
void takt_pq_rbtree_moved_later(takt_pq_t *pq, takt_pq_node_t *node)
{
    if (node->link.rb.equals == NULL) {
        const takt_pq_node_t *next = successor(node);
        if (next == NULL || place(node, next) < 0) {
            return;
        }
    }
    takt_pq_rbtree_remove(pq, node);
    takt_pq_rbtree_insert(pq, node);
}

static void rbtree_ops_init(takt_pq_t *pq, takt_pq_node_t **storage, uint32_t capacity)
{
    (void)storage;
    (void)capacity;
    takt_pq_rbtree_init(pq);
}

const takt_pq_ops_t takt_pq_rbtree_ops = {
    .name = "rbtree",
    .init = rbtree_ops_init,
    .insert = takt_pq_rbtree_insert,
    .remove = takt_pq_rbtree_remove,
    .peek = takt_pq_rbtree_peek,
    .pop = takt_pq_rbtree_pop,
    .moved_later = takt_pq_rbtree_moved_later,
};
