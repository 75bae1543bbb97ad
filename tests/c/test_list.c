/* ds/list.h: intrusive circular list. */
#include "ds/list.h"

#include "check.h"

typedef struct {
    int value;
    takt_list_node_t node;
} item_t;

/* Checks that list holds exactly values[0..n) in order, walking both ways. */
static void check_contents(const takt_list_t *list, const int *values, size_t n, int line)
{
    size_t i = 0;
    for (const takt_list_node_t *p = list->next; p != list; p = p->next) {
        if (!CHECK(i < n)) {
            fprintf(stderr, "  (from line %d)\n", line);
            return;
        }
        if (!CHECK_EQ(TAKT_CONTAINER_OF(p, item_t, node)->value, values[i])) {
            fprintf(stderr, "  (from line %d, index %zu)\n", line, i);
        }
        CHECK(p->next->prev == p);
        i++;
    }
    if (!CHECK_EQ(i, n)) {
        fprintf(stderr, "  (from line %d)\n", line);
    }
    i = n;
    for (const takt_list_node_t *p = list->prev; p != list; p = p->prev) {
        if (!CHECK(i > 0)) {
            return;
        }
        i--;
        CHECK_EQ(TAKT_CONTAINER_OF(p, item_t, node)->value, values[i]);
    }
    CHECK_EQ(i, 0);
    CHECK_EQ(takt_list_empty(list), n == 0);
}

#define CONTENTS(list, ...)                                                     \
    do {                                                                        \
        static const int expect_[] = {__VA_ARGS__};                            \
        check_contents((list), expect_, sizeof(expect_) / sizeof(int), __LINE__); \
    } while (0)

int main(void)
{
    takt_list_t list;
    item_t items[6];
    for (int i = 0; i < 6; i++) {
        items[i].value = i;
        takt_list_node_init(&items[i].node);
        CHECK(!takt_list_node_linked(&items[i].node));
    }

    takt_list_init(&list);
    CHECK(takt_list_empty(&list));
    CHECK(takt_list_first(&list) == NULL);
    CHECK(takt_list_last(&list) == NULL);
    check_contents(&list, NULL, 0, __LINE__);

    takt_list_push_back(&list, &items[1].node);
    CHECK(!takt_list_empty(&list));
    CHECK(takt_list_node_linked(&items[1].node));
    CHECK(takt_list_first(&list) == &items[1].node);
    CHECK(takt_list_last(&list) == &items[1].node);
    CHECK(takt_list_is_last(&list, &items[1].node));

    takt_list_push_back(&list, &items[2].node);
    takt_list_push_front(&list, &items[0].node);
    CONTENTS(&list, 0, 1, 2);
    CHECK(takt_list_first(&list) == &items[0].node);
    CHECK(takt_list_last(&list) == &items[2].node);
    CHECK(!takt_list_is_last(&list, &items[1].node));
    CHECK(takt_list_is_last(&list, &items[2].node));

    /* insert before the head, the middle and the sentinel (= at the tail) */
    takt_list_insert_before(&items[0].node, &items[3].node);
    CONTENTS(&list, 3, 0, 1, 2);
    takt_list_insert_before(&items[2].node, &items[4].node);
    CONTENTS(&list, 3, 0, 1, 4, 2);
    takt_list_insert_before(&list, &items[5].node);
    CONTENTS(&list, 3, 0, 1, 4, 2, 5);

    /* remove head, middle, tail; removed nodes are unlinked */
    takt_list_remove(&items[3].node);
    CHECK(!takt_list_node_linked(&items[3].node));
    CONTENTS(&list, 0, 1, 4, 2, 5);
    takt_list_remove(&items[4].node);
    CONTENTS(&list, 0, 1, 2, 5);
    takt_list_remove(&items[5].node);
    CONTENTS(&list, 0, 1, 2);
    CHECK(takt_list_is_last(&list, &items[2].node));

    /* a removed node can be linked again */
    takt_list_push_front(&list, &items[4].node);
    CONTENTS(&list, 4, 0, 1, 2);

    /* a move: unlinked (front, middle, the only node) and linked again at once */
    takt_list_unlink(&items[4].node);
    CONTENTS(&list, 0, 1, 2);
    takt_list_push_back(&list, &items[4].node);
    CONTENTS(&list, 0, 1, 2, 4);
    takt_list_unlink(&items[1].node);
    takt_list_push_back(&list, &items[1].node);
    CONTENTS(&list, 0, 2, 4, 1);
    takt_list_t other;
    takt_list_init(&other);
    takt_list_push_back(&other, &items[5].node);
    takt_list_unlink(&items[5].node);
    CHECK(takt_list_empty(&other));
    takt_list_push_back(&other, &items[5].node);
    check_contents(&other, (const int[]){5}, 1, __LINE__);
    takt_list_remove(&items[5].node);
    /* unlink telling whether the list is left empty: only for its only node
     * (first and last of three, then a middle one, then the only one) */
    item_t extra[3] = {{.value = 10}, {.value = 11}, {.value = 12}};
    takt_list_t lone;
    takt_list_init(&lone);
    for (int i = 0; i < 3; i++) {
        takt_list_push_back(&lone, &extra[i].node);
    }
    CHECK(!takt_list_unlink_was_only(&extra[0].node));
    check_contents(&lone, (const int[]){11, 12}, 2, __LINE__);
    CHECK(!takt_list_unlink_was_only(&extra[2].node));
    check_contents(&lone, (const int[]){11}, 1, __LINE__);
    takt_list_push_back(&lone, &extra[2].node);
    takt_list_push_back(&lone, &extra[0].node);
    CHECK(!takt_list_unlink_was_only(&extra[2].node));
    check_contents(&lone, (const int[]){11, 10}, 2, __LINE__);
    CHECK(!takt_list_unlink_was_only(&extra[0].node));
    CHECK(takt_list_unlink_was_only(&extra[1].node));
    check_contents(&lone, NULL, 0, __LINE__);
    /* back to 4 0 1 2 for what follows */
    takt_list_unlink(&items[4].node);
    takt_list_push_front(&list, &items[4].node);
    takt_list_unlink(&items[1].node);
    takt_list_insert_before(&items[2].node, &items[1].node);
    CONTENTS(&list, 4, 0, 1, 2);

    takt_list_remove(&items[0].node);
    takt_list_remove(&items[4].node);
    takt_list_remove(&items[2].node);
    CONTENTS(&list, 1);
    takt_list_remove(&items[1].node);
    CHECK(takt_list_empty(&list));
    CHECK(takt_list_first(&list) == NULL);
    check_contents(&list, NULL, 0, __LINE__);
    for (int i = 0; i < 6; i++) {
        CHECK(!takt_list_node_linked(&items[i].node));
    }

    return CHECK_SUMMARY();
}
