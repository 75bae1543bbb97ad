/*
 * Red-black tree backend of the priority queue. The leftmost node is cached
 * so peek is O(1); insert and remove rebalance in O(log n) with at most
 * three rotations. The rightmost node is cached too: a node that goes at or
 * after it (a timeout at least as late as every armed one, the usual delay)
 * is linked under it at once, and only the rebalancing remains (amortised
 * O(1) for such inserts in a row). Invariants: the root is black; a red node has black
 * children; every root-to-leaf path has the same number of black nodes.
 * NULL children count as black leaves.
 */
#include "pq.h"

#define L(n) ((n)->link.rb.left)
#define R(n) ((n)->link.rb.right)
#define P(n) ((n)->link.rb.parent)

static bool is_red(const takt_pq_node_t *node)
{
    return node != NULL && node->link.rb.red;
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
            parent->link.rb.red = false;
            uncle->link.rb.red = false;
            grand->link.rb.red = true;
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
        parent->link.rb.red = false;
        grand->link.rb.red = true;
    }
    pq->impl.rb.root->link.rb.red = false;
}

bool takt_pq_rbtree_insert(takt_pq_t *pq, takt_pq_node_t *node)
{
    takt_pq_node_t *parent = NULL;
    takt_pq_node_t *last = pq->impl.rb.rightmost;
    bool leftmost = true;
    bool rightmost = true;
    bool go_left = false;
    /* Equal nodes go right: they leave after those already queued. */
    if (last != NULL && !takt_pq_node_before(node, last)) {
        parent = last; /* its right child is empty: it is the last */
        leftmost = false;
    } else {
        takt_pq_node_t *cur = pq->impl.rb.root;
        while (cur != NULL) {
            parent = cur;
            go_left = takt_pq_node_before(node, cur);
            if (go_left) {
                cur = L(cur);
                rightmost = false;
            } else {
                cur = R(cur);
                leftmost = false;
            }
        }
    }
    L(node) = NULL;
    R(node) = NULL;
    P(node) = parent;
    node->link.rb.red = true;
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
    node->queued = true;
    pq->count++;
    return true;
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
                w->link.rb.red = false;
                parent->link.rb.red = true;
                rotate_left(pq, parent);
                w = R(parent);
            }
            if (!is_red(L(w)) && !is_red(R(w))) {
                w->link.rb.red = true;
                x = parent;
                parent = P(x);
            } else {
                if (!is_red(R(w))) {
                    L(w)->link.rb.red = false;
                    w->link.rb.red = true;
                    rotate_right(pq, w);
                    w = R(parent);
                }
                w->link.rb.red = parent->link.rb.red;
                parent->link.rb.red = false;
                R(w)->link.rb.red = false;
                rotate_left(pq, parent);
                x = pq->impl.rb.root;
                parent = NULL;
            }
        } else {
            takt_pq_node_t *w = L(parent);
            if (is_red(w)) {
                w->link.rb.red = false;
                parent->link.rb.red = true;
                rotate_right(pq, parent);
                w = L(parent);
            }
            if (!is_red(L(w)) && !is_red(R(w))) {
                w->link.rb.red = true;
                x = parent;
                parent = P(x);
            } else {
                if (!is_red(L(w))) {
                    R(w)->link.rb.red = false;
                    w->link.rb.red = true;
                    rotate_left(pq, w);
                    w = L(parent);
                }
                w->link.rb.red = parent->link.rb.red;
                parent->link.rb.red = false;
                L(w)->link.rb.red = false;
                rotate_right(pq, parent);
                x = pq->impl.rb.root;
                parent = NULL;
            }
        }
    }
    if (x != NULL) {
        x->link.rb.red = false;
    }
}

void takt_pq_rbtree_remove(takt_pq_t *pq, takt_pq_node_t *node)
{
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
        removed_red = node->link.rb.red;
        replace_child(pq, node, x);
    } else {
        /* Two children: the successor takes node's place and colour. */
        takt_pq_node_t *succ = minimum(R(node));
        removed_red = succ->link.rb.red;
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
        succ->link.rb.red = node->link.rb.red;
    }
    if (!removed_red) {
        remove_fixup(pq, x, x_parent);
    }
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
};
