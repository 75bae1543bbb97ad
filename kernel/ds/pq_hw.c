/*
 * Hardware backend of the priority queue: the device (hw/) keeps the
 * entries in order and answers for its first in one cycle; the driver keeps
 * which node each handle stands for. Every operation is a few register
 * accesses, whatever the count: the hardware data structure of the HWDS
 * study, with the scheduling policy left in software.
 */
#include <stdint.h>

#include "hwpq_regs.h"
#include "port.h"
#include "pq.h"

#ifndef TAKT_PORT_HWPQ_UNITS
#error "pq_hw.c needs a port with the hardware priority queue (TAKT_PORT_HWPQ_UNITS)"
#endif

/* A free handle's slot holds the next free handle, shifted left and tagged
 * with bit 0 (node pointers are aligned: bit 0 is 0), so the free handles
 * need no array of their own and taking one is O(1). */
static takt_pq_node_t *free_link(uint32_t next)
{
    return (takt_pq_node_t *)(uintptr_t)(((uintptr_t)next << 1) | 1u);
}

static uint32_t free_next(const takt_pq_node_t *slot)
{
    return (uint32_t)((uintptr_t)slot >> 1);
}

static uint32_t read_reg(const takt_pq_t *pq, uint32_t offset)
{
    return port_hwpq_read(pq->impl.hw.unit, offset);
}

static void write_reg(const takt_pq_t *pq, uint32_t offset, uint32_t value)
{
    port_hwpq_write(pq->impl.hw.unit, offset, value);
}

static uint32_t last_error(const takt_pq_t *pq)
{
    return (read_reg(pq, HWPQ_REG_STATUS) & HWPQ_STATUS_ERROR_MASK) >> HWPQ_STATUS_ERROR_SHIFT;
}

/* The operand registers set to the node's entry, for an insert. */
static void write_entry(const takt_pq_t *pq, const takt_pq_node_t *node)
{
    write_reg(pq, HWPQ_REG_KEY, node->key);
    write_reg(pq, HWPQ_REG_TIE_LO, (uint32_t)node->tie);
    write_reg(pq, HWPQ_REG_TIE_HI, (uint32_t)(node->tie >> 32));
}

uint32_t takt_pq_hw_depth(unsigned unit)
{
    if (unit >= TAKT_PORT_HWPQ_UNITS || port_hwpq_read(unit, HWPQ_REG_ID) != HWPQ_ID) {
        return 0;
    }
    return HWPQ_CONFIG_DEPTH(port_hwpq_read(unit, HWPQ_REG_CONFIG));
}

bool takt_pq_hw_init(takt_pq_t *pq, unsigned unit, takt_pq_node_t **storage, uint32_t capacity)
{
    pq->impl.hw.unit = (uint16_t)unit; /* a unit past the port's has depth 0 */
    pq->impl.hw.handles = storage;
    pq->impl.hw.capacity = 0;
    pq->impl.hw.free_head = 0;
    pq->count = 0;
    uint32_t depth = takt_pq_hw_depth(unit);
    if (depth == 0) {
        return false;
    }
    if (capacity > depth) {
        capacity = depth;
    }
    write_reg(pq, HWPQ_REG_CMD, HWPQ_CMD_CLEAR);
    for (uint32_t h = 0; h < capacity; h++) {
        storage[h] = free_link(h + 1u);
    }
    pq->impl.hw.capacity = capacity;
    return true;
}

bool takt_pq_hw_insert(takt_pq_t *pq, takt_pq_node_t *node)
{
    uint32_t handle = pq->impl.hw.free_head;
    if (handle >= pq->impl.hw.capacity) {
        return false;
    }
    write_entry(pq, node);
    write_reg(pq, HWPQ_REG_HANDLE, handle);
    write_reg(pq, HWPQ_REG_CMD, HWPQ_CMD_INSERT);
    /* The device refuses only what the driver should never ask (full, a
     * handle it holds): then the queue is out of step with the driver, and
     * the node stays out rather than being lost to a handle the device may
     * not hold. */
    if (last_error(pq) != HWPQ_ERR_NONE) {
        return false;
    }
    pq->impl.hw.free_head = (uint16_t)free_next(pq->impl.hw.handles[handle]);
    pq->impl.hw.handles[handle] = node;
    node->link.hw.handle = handle;
    node->queued = true;
    pq->count++;
    return true;
}

static void release_handle(takt_pq_t *pq, takt_pq_node_t *node)
{
    uint32_t handle = node->link.hw.handle;
    pq->impl.hw.handles[handle] = free_link(pq->impl.hw.free_head);
    pq->impl.hw.free_head = (uint16_t)handle;
    node->queued = false;
    pq->count--;
}

void takt_pq_hw_remove(takt_pq_t *pq, takt_pq_node_t *node)
{
    if (!node->queued) {
        return; /* its handle may be another node's by now */
    }
    write_reg(pq, HWPQ_REG_HANDLE, node->link.hw.handle);
    write_reg(pq, HWPQ_REG_CMD, HWPQ_CMD_REMOVE);
    release_handle(pq, node);
}

/* One read: the device's first entry is in a register. */
takt_pq_node_t *takt_pq_hw_peek(const takt_pq_t *pq)
{
    if (pq->count == 0) {
        return NULL;
    }
    return pq->impl.hw.handles[read_reg(pq, HWPQ_REG_HEAD_HANDLE)];
}

takt_pq_node_t *takt_pq_hw_pop(takt_pq_t *pq)
{
    takt_pq_node_t *first = takt_pq_hw_peek(pq);
    if (first != NULL) {
        write_reg(pq, HWPQ_REG_CMD, HWPQ_CMD_POP);
        release_handle(pq, first);
    }
    return first;
}

/* The device has no update: out and in again, which puts the node behind
 * its new equals as a later insert does. It keeps its handle. */
void takt_pq_hw_moved_later(takt_pq_t *pq, takt_pq_node_t *node)
{
    write_reg(pq, HWPQ_REG_HANDLE, node->link.hw.handle);
    write_reg(pq, HWPQ_REG_CMD, HWPQ_CMD_REMOVE);
    write_entry(pq, node);
    write_reg(pq, HWPQ_REG_CMD, HWPQ_CMD_INSERT);
}

static void ops_init(takt_pq_t *pq, takt_pq_node_t **storage, uint32_t capacity)
{
    (void)takt_pq_hw_init(pq, 0, storage, capacity);
}

const takt_pq_ops_t takt_pq_hw_ops = {
    .name = "hw",
    .init = ops_init,
    .insert = takt_pq_hw_insert,
    .remove = takt_pq_hw_remove,
    .peek = takt_pq_hw_peek,
    .pop = takt_pq_hw_pop,
    .moved_later = takt_pq_hw_moved_later,
};
