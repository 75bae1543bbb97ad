/*
 * Intrusive circular doubly linked list with a sentinel head.
 *
 * Every ready list, wait list and the sorted-list priority queue are built from
 * this; nodes live inside the objects they link, so linking never allocates.
 * Pure data structure: no kernel state, no locking (callers hold the lock).
 */
#ifndef TAKT_DS_LIST_H
#define TAKT_DS_LIST_H

#include <stdbool.h>
#include <stddef.h>

typedef struct takt_list_node {
    struct takt_list_node *next;
    struct takt_list_node *prev;
} takt_list_node_t;

/* A list is its sentinel: an empty list points at itself. */
typedef takt_list_node_t takt_list_t;

#define TAKT_CONTAINER_OF(ptr, type, member) \
    ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

static inline void takt_list_init(takt_list_t *list)
{
    list->next = list;
    list->prev = list;
}

/* A node that is in no list points at itself, so membership is a pointer test. */
static inline void takt_list_node_init(takt_list_node_t *node)
{
    node->next = node;
    node->prev = node;
}

static inline bool takt_list_empty(const takt_list_t *list)
{
    return list->next == list;
}

static inline bool takt_list_node_linked(const takt_list_node_t *node)
{
    return node->next != node;
}

static inline takt_list_node_t *takt_list_first(const takt_list_t *list)
{
    return takt_list_empty(list) ? NULL : list->next;
}

static inline takt_list_node_t *takt_list_last(const takt_list_t *list)
{
    return takt_list_empty(list) ? NULL : list->prev;
}

/* Links node between prev and next, which must be adjacent. */
static inline void takt_list_link_between(takt_list_node_t *node, takt_list_node_t *prev,
                                          takt_list_node_t *next)
{
    node->prev = prev;
    node->next = next;
    prev->next = node;
    next->prev = node;
}

static inline void takt_list_push_back(takt_list_t *list, takt_list_node_t *node)
{
    takt_list_link_between(node, list->prev, list);
}

static inline void takt_list_push_front(takt_list_t *list, takt_list_node_t *node)
{
    takt_list_link_between(node, list, list->next);
}

static inline void takt_list_insert_before(takt_list_node_t *pos, takt_list_node_t *node)
{
    takt_list_link_between(node, pos->prev, pos);
}

/* Takes node out of its list and leaves its own links stale: for a node
 * that is linked in again at once (a move). */
static inline void takt_list_unlink(takt_list_node_t *node)
{
    node->prev->next = node->next;
    node->next->prev = node->prev;
}

/* Unlinks node and tells whether that left its list empty: the node was the
 * only element exactly when both its neighbours are the sentinel, so no
 * access to the list itself is needed. */
static inline bool takt_list_unlink_was_only(takt_list_node_t *node)
{
    takt_list_node_t *prev = node->prev;
    takt_list_node_t *next = node->next;
    prev->next = next;
    next->prev = prev;
    return prev == next;
}

static inline void takt_list_remove(takt_list_node_t *node)
{
    takt_list_unlink(node);
    takt_list_node_init(node);
}

/* True if node is the list's last element (its successor is the sentinel). */
static inline bool takt_list_is_last(const takt_list_t *list, const takt_list_node_t *node)
{
    return node->next == list;
}

#endif
