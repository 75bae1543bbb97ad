/*
 * The hardware priority queue's register map (hw/rtl/hwpq_apb.v), shared by
 * its C model (hw/model) and the kernel's driver (kernel/ds/pq_hw.c): the
 * device's own header, as a vendor's device header would be.
 *
 * Registers are 32 bits wide, at byte offsets in the device's window. A
 * command is written to CMD with its operands already in KEY, TIE_LO, TIE_HI
 * and HANDLE; it completes in the cycle it is written (the bus never waits),
 * so the next read sees its effect. A refused command changes nothing and
 * leaves its reason in STATUS until the next command.
 *
 * Order: entry a comes before b when its key does, compared across the
 * 32-bit wraparound ((int32_t)(a.key - b.key) < 0: "deadline folding"), and
 * on equal keys when its tie is smaller (unsigned 64-bit). An entry equal to
 * others in both goes behind them (first in, first out). The keys queued at
 * once must fit one window narrower than 2^31 (the largest minus the
 * smallest, mod 2^32): pairs each within 2^31 of the other are not enough
 * (0, 0x55555555 and 0xAAAAAAAA go round in a circle), and each cell
 * compares only with the entry it holds, so outside one window the row's
 * order breaks.
 */
#ifndef TAKT_HWPQ_REGS_H
#define TAKT_HWPQ_REGS_H

#define HWPQ_REG_ID 0x00u          /* r: HWPQ_ID */
#define HWPQ_REG_CONFIG 0x04u      /* r: depth [15:0], handle bits [23:16] */
#define HWPQ_REG_KEY 0x08u         /* rw: the operand's key */
#define HWPQ_REG_TIE_LO 0x0Cu      /* rw: the operand's tie, bits 31:0 */
#define HWPQ_REG_TIE_HI 0x10u      /* rw: bits 63:32 */
#define HWPQ_REG_HANDLE 0x14u      /* rw: the operand's handle */
#define HWPQ_REG_CMD 0x18u         /* w: a HWPQ_CMD_*; reads 0 */
#define HWPQ_REG_STATUS 0x1Cu      /* r: see HWPQ_STATUS_* */
#define HWPQ_REG_HEAD_KEY 0x20u    /* r: the first entry's key (0 when empty) */
#define HWPQ_REG_HEAD_TIE_LO 0x24u /* r */
#define HWPQ_REG_HEAD_TIE_HI 0x28u /* r */
#define HWPQ_REG_HEAD_HANDLE 0x2Cu /* r */
#define HWPQ_REG_WINDOW 0x30u      /* bytes the device decodes */

#define HWPQ_ID 0x48575051u /* "HWPQ" */

#define HWPQ_CMD_INSERT 1u /* queue (KEY, TIE, HANDLE) */
#define HWPQ_CMD_REMOVE 2u /* take out the entry holding HANDLE */
#define HWPQ_CMD_POP 3u    /* take out the first entry */
#define HWPQ_CMD_CLEAR 4u  /* empty the queue */

#define HWPQ_STATUS_COUNT_MASK 0xFFFFu /* entries queued */
#define HWPQ_STATUS_EMPTY (1u << 16)
#define HWPQ_STATUS_FULL (1u << 17)
#define HWPQ_STATUS_ERROR_SHIFT 24 /* the last command's HWPQ_ERR_* */
#define HWPQ_STATUS_ERROR_MASK (7u << HWPQ_STATUS_ERROR_SHIFT)

#define HWPQ_ERR_NONE 0u
#define HWPQ_ERR_FULL 1u        /* insert with every entry in use */
#define HWPQ_ERR_DUPLICATE 2u   /* insert of a handle already queued */
#define HWPQ_ERR_NOT_FOUND 3u   /* remove of a handle not queued */
#define HWPQ_ERR_EMPTY 4u       /* pop of an empty queue */
#define HWPQ_ERR_BAD_COMMAND 5u /* a CMD value with no command */

#define HWPQ_CONFIG_DEPTH(config) ((config) & 0xFFFFu)
#define HWPQ_CONFIG_HANDLE_BITS(config) (((config) >> 16) & 0xFFu)

#endif
