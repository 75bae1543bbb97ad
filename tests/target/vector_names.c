/*
 * Defines a handler for every interrupt line the board names
 * (TAKT_BOARD_IRQ_HANDLERS in its board.h), as an application does, and
 * lists each with its line in named_lines. The build then checks
 * that every one sits in the boot vector table at its line
 * (check_vectors.cmake), on every board, the ones QEMU cannot run included.
 */
#include <stdint.h>

#include "board.h"

struct named_line {
    uint32_t irq;
    void (*handler)(void);
};

static volatile uint32_t last_line;

#define DEFINE_HANDLER(irq, name) \
    void name(void);              \
    void name(void)               \
    {                             \
        last_line = (irq);        \
    }
TAKT_BOARD_IRQ_HANDLERS(DEFINE_HANDLER)

#define LINE_ENTRY(irq, name) {(irq), name},
static const struct named_line named_lines[] = {TAKT_BOARD_IRQ_HANDLERS(LINE_ENTRY)};
static const uint32_t named_line_count = sizeof named_lines / sizeof named_lines[0];

int main(void)
{
    /* Reads both through volatile pointers, so that the link keeps them. */
    const struct named_line *volatile table = named_lines;
    const uint32_t *volatile count = &named_line_count;
    return table[0].irq >= TAKT_BOARD_IRQ_COUNT || *count == 0 ? 1 : (int)last_line;
}
