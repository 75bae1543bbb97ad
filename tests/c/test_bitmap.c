/*
 * ds/bitmap.h, built once per size (TAKT_BITMAP_LEVELS comes from the build:
 * 1, 32, 33, 64, 1024), checked against a plain array of flags.
 */
#include <stdlib.h>

#ifndef TAKT_BITMAP_LEVELS
#error "the build defines TAKT_BITMAP_LEVELS"
#endif
#include "ds/bitmap.h"

#include "check.h"
#include "xorshift.h"

static bool ref[TAKT_BITMAP_LEVELS];

static int ref_highest(void)
{
    for (int l = TAKT_BITMAP_LEVELS - 1; l >= 0; l--) {
        if (ref[l]) {
            return l;
        }
    }
    return -1;
}

static int ref_highest_below(unsigned level)
{
    for (int l = (int)level - 1; l >= 0; l--) {
        if (ref[l]) {
            return l;
        }
    }
    return -1;
}

static void check_against_ref(const takt_bitmap_t *map, int line)
{
    int hi = ref_highest();
    bool ok = CHECK_EQ(takt_bitmap_empty(map), hi < 0);
    if (hi >= 0) {
        ok = CHECK_EQ(takt_bitmap_highest(map), hi) && ok;
    }
    for (unsigned l = 0; l < TAKT_BITMAP_LEVELS; l++) {
        if (takt_bitmap_test(map, l) != ref[l]) {
            ok = CHECK_EQ(takt_bitmap_test(map, l), ref[l]) && ok;
        }
    }
    /* every bound, the one past the top level included */
    for (unsigned l = 0; l <= TAKT_BITMAP_LEVELS; l++) {
        if (takt_bitmap_highest_below(map, l) != ref_highest_below(l)) {
            ok = CHECK_EQ(takt_bitmap_highest_below(map, l), ref_highest_below(l)) && ok;
            fprintf(stderr, "  (highest below %u)\n", l);
        }
    }
    if (!ok) {
        fprintf(stderr, "  (levels %d, from line %d)\n", TAKT_BITMAP_LEVELS, line);
    }
}

static uint32_t rng_state = 12345u;
static uint32_t rng(void)
{
    return xorshift32(&rng_state);
}

int main(void)
{
    takt_bitmap_t map;
    takt_bitmap_init(&map);
    check_against_ref(&map, __LINE__);

    /* every level alone */
    for (unsigned l = 0; l < TAKT_BITMAP_LEVELS; l++) {
        takt_bitmap_set(&map, l);
        ref[l] = true;
        check_against_ref(&map, __LINE__);
        takt_bitmap_clear(&map, l);
        ref[l] = false;
        CHECK(takt_bitmap_empty(&map));
    }

    /* fill upwards: the highest follows the last set; then clear from the top */
    for (unsigned l = 0; l < TAKT_BITMAP_LEVELS; l++) {
        takt_bitmap_set(&map, l);
        ref[l] = true;
        CHECK_EQ(takt_bitmap_highest(&map), l);
    }
    check_against_ref(&map, __LINE__);
    for (unsigned l = TAKT_BITMAP_LEVELS; l-- > 1;) {
        takt_bitmap_clear(&map, l);
        ref[l] = false;
        CHECK_EQ(takt_bitmap_highest(&map), l - 1);
    }
    takt_bitmap_clear(&map, 0);
    ref[0] = false;
    check_against_ref(&map, __LINE__);

    /* word boundaries: a level at the bottom of word w and the top of word w-1;
     * clearing the higher word must hand the highest back to the lower word. */
    for (unsigned w = 1; w * 32u < TAKT_BITMAP_LEVELS; w++) {
        unsigned low = w * 32u - 1u, high = w * 32u;
        takt_bitmap_set(&map, low);
        takt_bitmap_set(&map, high);
        ref[low] = ref[high] = true;
        check_against_ref(&map, __LINE__);
        takt_bitmap_clear(&map, high);
        ref[high] = false;
        CHECK_EQ(takt_bitmap_highest(&map), low);
        takt_bitmap_clear(&map, low);
        ref[low] = false;
        CHECK(takt_bitmap_empty(&map));
    }

    /* clearing an already clear level in a non-empty word keeps the summary */
    if (TAKT_BITMAP_LEVELS >= 3) {
        takt_bitmap_set(&map, 2);
        takt_bitmap_clear(&map, 1);
        ref[2] = true;
        check_against_ref(&map, __LINE__);
        takt_bitmap_clear(&map, 2);
        ref[2] = false;
    }

#if TAKT_BITMAP_WORDS == 1
    /* one-word maps by mask (fp ready queues: a task's ready_bit) */
    for (unsigned l = 0; l < TAKT_BITMAP_LEVELS; l++) {
        takt_bitmap_set_mask(&map, 1u << l);
        ref[l] = true;
        check_against_ref(&map, __LINE__);
    }
    takt_bitmap_set_mask(&map, 0); /* no level (the idle task's) changes nothing */
    takt_bitmap_clear_mask(&map, 0);
    check_against_ref(&map, __LINE__);
    for (unsigned l = 0; l < TAKT_BITMAP_LEVELS; l += 2) {
        takt_bitmap_clear_mask(&map, 1u << l);
        ref[l] = false;
        check_against_ref(&map, __LINE__);
    }
#endif

    /* random sets and clears */
    for (int step = 0; step < 20000; step++) {
        unsigned l = rng() % TAKT_BITMAP_LEVELS;
        if (rng() % 2u) {
            takt_bitmap_set(&map, l);
            ref[l] = true;
        } else {
            takt_bitmap_clear(&map, l);
            ref[l] = false;
        }
        if (step % 97 == 0) {
            check_against_ref(&map, __LINE__);
        } else if (step % 7 == 0) {
            unsigned bound = rng() % (TAKT_BITMAP_LEVELS + 1u);
            if (!CHECK_EQ(takt_bitmap_highest_below(&map, bound), ref_highest_below(bound))) {
                break;
            }
        } else {
            int hi = ref_highest();
            if (hi >= 0) {
                if (!CHECK_EQ(takt_bitmap_highest(&map), hi)) {
                    break;
                }
            } else if (!CHECK(takt_bitmap_empty(&map))) {
                break;
            }
        }
    }
    check_against_ref(&map, __LINE__);

    return CHECK_SUMMARY();
}
