/*
 * Priority bitmap: one bit per priority level, highest set bit found in O(1)
 * with count-leading-zeros.
 *
 * Two levels (a summary word over up to 32 words) cover 1,024 levels, so the
 * pick costs two CLZ instructions whatever the number of priorities. With 32 or
 * fewer levels there is no summary: the one word is its own (TAKT_BITMAP_WORDS
 * is a constant, so each test below folds away at compile time).
 */
#ifndef TAKT_DS_BITMAP_H
#define TAKT_DS_BITMAP_H

#include <stdbool.h>
#include <stdint.h>

#ifndef TAKT_BITMAP_LEVELS
#error "define TAKT_BITMAP_LEVELS (number of levels, 1..1024) before including ds/bitmap.h"
#endif
#if TAKT_BITMAP_LEVELS < 1 || TAKT_BITMAP_LEVELS > 1024
#error "TAKT_BITMAP_LEVELS must be within 1..1024"
#endif

#define TAKT_BITMAP_WORDS ((TAKT_BITMAP_LEVELS + 31) / 32)

typedef struct {
    uint32_t summary; /* bit w set <=> words[w] != 0; unused with one word */
    uint32_t words[TAKT_BITMAP_WORDS];
} takt_bitmap_t;

static inline unsigned takt_bitmap_msb(uint32_t word)
{
    return 31u - (unsigned)__builtin_clz(word);
}

static inline void takt_bitmap_init(takt_bitmap_t *map)
{
    map->summary = 0;
    for (unsigned w = 0; w < TAKT_BITMAP_WORDS; w++) {
        map->words[w] = 0;
    }
}

static inline void takt_bitmap_set(takt_bitmap_t *map, unsigned level)
{
    if (TAKT_BITMAP_WORDS == 1) {
        map->words[0] |= 1u << level;
        return;
    }
    map->words[level / 32u] |= 1u << (level % 32u);
    map->summary |= 1u << (level / 32u);
}

static inline void takt_bitmap_clear(takt_bitmap_t *map, unsigned level)
{
    if (TAKT_BITMAP_WORDS == 1) {
        map->words[0] &= ~(1u << level);
        return;
    }
    uint32_t *word = &map->words[level / 32u];
    *word &= ~(1u << (level % 32u));
    if (*word == 0) {
        map->summary &= ~(1u << (level / 32u));
    }
}

#if TAKT_BITMAP_WORDS == 1
/* A one-word map (32 levels or fewer) by a mask the caller keeps at hand
 * (1 << level, or 0 for no level): no shift on the caller's hot path. */
static inline void takt_bitmap_set_mask(takt_bitmap_t *map, uint32_t mask)
{
    map->words[0] |= mask;
}

static inline void takt_bitmap_clear_mask(takt_bitmap_t *map, uint32_t mask)
{
    map->words[0] &= ~mask;
}
#endif

static inline bool takt_bitmap_test(const takt_bitmap_t *map, unsigned level)
{
    return (map->words[level / 32u] >> (level % 32u)) & 1u;
}

static inline bool takt_bitmap_empty(const takt_bitmap_t *map)
{
    return (TAKT_BITMAP_WORDS == 1 ? map->words[0] : map->summary) == 0;
}

/* Highest set level; the map must not be empty. */
static inline unsigned takt_bitmap_highest(const takt_bitmap_t *map)
{
    unsigned w = (TAKT_BITMAP_WORDS == 1) ? 0u : takt_bitmap_msb(map->summary);
    return w * 32u + takt_bitmap_msb(map->words[w]);
}

/* Highest set level below level (0 .. TAKT_BITMAP_LEVELS), or -1: the rest of
 * level's word, else the highest word below it that the summary marks. */
static inline int takt_bitmap_highest_below(const takt_bitmap_t *map, unsigned level)
{
    unsigned w = level / 32u;
    uint32_t bits;
    if (w < TAKT_BITMAP_WORDS) {
        bits = map->words[w] & ((1u << (level % 32u)) - 1u); /* the levels under it */
    } else {
        w = TAKT_BITMAP_WORDS - 1u; /* past the top: the whole top word */
        bits = map->words[w];
    }
    if (bits != 0) {
        return (int)(w * 32u + takt_bitmap_msb(bits));
    }
    if (TAKT_BITMAP_WORDS == 1) {
        return -1;
    }
    uint32_t lower_words = map->summary & ((1u << w) - 1u); /* w < 32 words */
    if (lower_words == 0) {
        return -1;
    }
    w = takt_bitmap_msb(lower_words);
    return (int)(w * 32u + takt_bitmap_msb(map->words[w]));
}

#endif
