/*
 * Sorted-list backend of the priority queue: the classic FreeRTOS delayed list.
 * Insertion walks from the head (O(n)); peek, pop and remove are O(1).
 * A new node goes behind existing nodes that do not come after it, so nodes
 * with equal key and tie leave in insertion order.
 */
#include "pq.h"

void takt_pq_list_init(takt_pq_t *pq)
{
    pq->impl.list.head = NULL;
    pq->count = 0;
}

bool takt_pq_list_insert(takt_pq_t *pq, takt_pq_node_t *node)
{
    takt_pq_node_t *prev = NULL;
    takt_pq_node_t *cur = pq->impl.list.head;
    if (node->tie == UINT64_MAX) {
        /* The largest tie (the timer queue's ordinary timers): the node goes
         * behind every node whose key is not after its own, so the walk
         * compares keys only. */
        uint32_t key = node->key;
        while (cur != NULL && takt_key_not_after(cur->key, key)) {
            prev = cur;
            cur = cur->link.list.next;
        }
    } else {
        while (cur != NULL && !takt_pq_node_before(node, cur)) {
            prev = cur;
            cur = cur->link.list.next;
        }
    }
    node->link.list.prev = prev;
    node->link.list.next = cur;
    if (prev != NULL) {
        prev->link.list.next = node;
    } else {
        pq->impl.list.head = node;
    }
    if (cur != NULL) {
        cur->link.list.prev = node;
    }
    node->queued = true;
    pq->count++;
    return true;
}

void takt_pq_list_remove(takt_pq_t *pq, takt_pq_node_t *node)
{
    takt_pq_node_t *prev = node->link.list.prev;
    takt_pq_node_t *next = node->link.list.next;
    if (prev != NULL) {
        prev->link.list.next = next;
    } else {
        pq->impl.list.head = next;
    }
    if (next != NULL) {
        next->link.list.prev = prev;
    }
    node->queued = false;
    pq->count--;
}

takt_pq_node_t *takt_pq_list_pop(takt_pq_t *pq)
{
    takt_pq_node_t *head = pq->impl.list.head;
    if (head != NULL) {
        takt_pq_list_remove(pq, head);
    }
    return head;
}

void takt_pq_list_moved_later(takt_pq_t *pq, takt_pq_node_t *node)
{
    const takt_pq_node_t *next = node->link.list.next;
    if (next == NULL || takt_pq_node_before(node, next)) {
        return;
    }
    takt_pq_list_remove(pq, node);
    takt_pq_list_insert(pq, node);
}

static void list_ops_init(takt_pq_t *pq, takt_pq_node_t **storage, uint32_t capacity)
{
    (void)storage;
    (void)capacity;
    takt_pq_list_init(pq);
}

const takt_pq_ops_t takt_pq_list_ops = {
    .name = "list",
    .init = list_ops_init,
    .insert = takt_pq_list_insert,
    .remove = takt_pq_list_remove,
    .peek = takt_pq_list_peek,
    .pop = takt_pq_list_pop,
    .moved_later = takt_pq_list_moved_later,
};
