/*
 * A C model of the hardware priority queue (hw/rtl), at its registers: what
 * the device answers to every register read and write, cycle for cycle (each
 * command takes the cycle it is written in). The sim port puts the kernel's
 * driver on it, and the RTL's testbench checks the RTL against it.
 *
 * The queue is kept as the RTL keeps it, a sorted row of entries (entry 0
 * first); a command moves the row as the RTL's cells do in one cycle.
 */
#ifndef TAKT_HWPQ_MODEL_H
#define TAKT_HWPQ_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "hwpq_regs.h"

#define HWPQ_MODEL_MAX_DEPTH 1024u

typedef struct {
    uint32_t key;
    uint64_t tie;
    uint32_t handle;
} hwpq_entry_t;

/* What the device did, for accounting (the HWDS study's per-operation
 * counters): commands by kind, and every register access. */
typedef struct {
    uint64_t inserts;
    uint64_t removes;
    uint64_t pops;
    uint64_t clears;
    uint64_t refused; /* commands that left an error */
    uint64_t reads;
    uint64_t writes;
} hwpq_model_counts_t;

typedef struct {
    uint32_t depth;
    uint32_t handle_bits;
    uint32_t count;
    uint32_t error; /* HWPQ_ERR_* of the last command */
    uint32_t key, tie_lo, tie_hi, handle; /* operand registers */
    hwpq_model_counts_t counts;
    hwpq_entry_t entries[HWPQ_MODEL_MAX_DEPTH];
} hwpq_model_t;

/* A device of depth entries (1..HWPQ_MODEL_MAX_DEPTH), as after reset:
 * empty, operand registers 0. Its handles have the fewest bits that number
 * depth entries (at least 1), as the RTL's HANDLE_BITS default. False, and
 * nothing set, for a depth out of range. */
bool hwpq_model_init(hwpq_model_t *model, uint32_t depth);

/* A register read and write at a byte offset (HWPQ_REG_*). Offsets outside
 * the registers read 0 and ignore writes, as the RTL's decoder does. */
uint32_t hwpq_model_read(hwpq_model_t *model, uint32_t offset);
void hwpq_model_write(hwpq_model_t *model, uint32_t offset, uint32_t value);

/* A platform's unit of the device: its model, built at HWPQ_MODEL_MAX_DEPTH
 * by hwpq_model_unit on first use unless the platform built it already (at
 * another depth: the sim's takt_sim_hwpq_configure). */
typedef struct {
    hwpq_model_t model;
    bool built;
} hwpq_model_unit_t;

hwpq_model_t *hwpq_model_unit(hwpq_model_unit_t *unit);

/* Whether a comes before b in the device's order (hwpq_regs.h). */
bool hwpq_entry_before(const hwpq_entry_t *a, const hwpq_entry_t *b);

#endif
