#include "hwpq_model.h"

#include <string.h>

bool hwpq_model_init(hwpq_model_t *model, uint32_t depth)
{
    if (depth == 0 || depth > HWPQ_MODEL_MAX_DEPTH) {
        return false;
    }
    memset(model, 0, sizeof(*model));
    model->depth = depth;
    model->handle_bits = 1;
    while ((1u << model->handle_bits) < depth) {
        model->handle_bits++;
    }
    return true;
}

bool hwpq_entry_before(const hwpq_entry_t *a, const hwpq_entry_t *b)
{
    if (a->key != b->key) {
        return (int32_t)(a->key - b->key) < 0;
    }
    return a->tie < b->tie;
}

static uint32_t handle_mask(const hwpq_model_t *model)
{
    return (1u << model->handle_bits) - 1u;
}

/* The row's place of a handle, or count when it is not queued. */
static uint32_t find_handle(const hwpq_model_t *model, uint32_t handle)
{
    uint32_t i = 0;
    while (i < model->count && model->entries[i].handle != handle) {
        i++;
    }
    return i;
}

static void take_out(hwpq_model_t *model, uint32_t at)
{
    memmove(&model->entries[at], &model->entries[at + 1],
            (model->count - at - 1) * sizeof(model->entries[0]));
    model->count--;
    memset(&model->entries[model->count], 0, sizeof(model->entries[0]));
}

static uint32_t insert(hwpq_model_t *model)
{
    hwpq_entry_t entry = {.key = model->key,
                          .tie = ((uint64_t)model->tie_hi << 32) | model->tie_lo,
                          .handle = model->handle & handle_mask(model)};
    if (model->count == model->depth) {
        return HWPQ_ERR_FULL;
    }
    if (find_handle(model, entry.handle) < model->count) {
        return HWPQ_ERR_DUPLICATE;
    }
    /* Behind every entry it does not come before: its equals too. */
    uint32_t at = 0;
    while (at < model->count && !hwpq_entry_before(&entry, &model->entries[at])) {
        at++;
    }
    memmove(&model->entries[at + 1], &model->entries[at],
            (model->count - at) * sizeof(model->entries[0]));
    model->entries[at] = entry;
    model->count++;
    model->counts.inserts++;
    return HWPQ_ERR_NONE;
}

static uint32_t run_command(hwpq_model_t *model, uint32_t command)
{
    switch (command) {
    case HWPQ_CMD_INSERT:
        return insert(model);
    case HWPQ_CMD_REMOVE: {
        uint32_t at = find_handle(model, model->handle & handle_mask(model));
        if (at == model->count) {
            return HWPQ_ERR_NOT_FOUND;
        }
        take_out(model, at);
        model->counts.removes++;
        return HWPQ_ERR_NONE;
    }
    case HWPQ_CMD_POP:
        if (model->count == 0) {
            return HWPQ_ERR_EMPTY;
        }
        take_out(model, 0);
        model->counts.pops++;
        return HWPQ_ERR_NONE;
    case HWPQ_CMD_CLEAR:
        memset(model->entries, 0, model->count * sizeof(model->entries[0]));
        model->count = 0;
        model->counts.clears++;
        return HWPQ_ERR_NONE;
    default:
        return HWPQ_ERR_BAD_COMMAND;
    }
}

uint32_t hwpq_model_read(hwpq_model_t *model, uint32_t offset)
{
    model->counts.reads++;
    /* An empty queue's head reads as zeros: the RTL clears a cell it empties. */
    const hwpq_entry_t *head = &model->entries[0];
    switch (offset) {
    case HWPQ_REG_ID:
        return HWPQ_ID;
    case HWPQ_REG_CONFIG:
        return model->depth | (model->handle_bits << 16);
    case HWPQ_REG_KEY:
        return model->key;
    case HWPQ_REG_TIE_LO:
        return model->tie_lo;
    case HWPQ_REG_TIE_HI:
        return model->tie_hi;
    case HWPQ_REG_HANDLE:
        return model->handle;
    case HWPQ_REG_STATUS:
        return model->count | (model->count == 0 ? HWPQ_STATUS_EMPTY : 0) |
               (model->count == model->depth ? HWPQ_STATUS_FULL : 0) |
               (model->error << HWPQ_STATUS_ERROR_SHIFT);
    case HWPQ_REG_HEAD_KEY:
        return head->key;
    case HWPQ_REG_HEAD_TIE_LO:
        return (uint32_t)head->tie;
    case HWPQ_REG_HEAD_TIE_HI:
        return (uint32_t)(head->tie >> 32);
    case HWPQ_REG_HEAD_HANDLE:
        return head->handle;
    default:
        return 0; /* CMD, and offsets the device does not decode */
    }
}

void hwpq_model_write(hwpq_model_t *model, uint32_t offset, uint32_t value)
{
    model->counts.writes++;
    switch (offset) {
    case HWPQ_REG_KEY:
        model->key = value;
        break;
    case HWPQ_REG_TIE_LO:
        model->tie_lo = value;
        break;
    case HWPQ_REG_TIE_HI:
        model->tie_hi = value;
        break;
    case HWPQ_REG_HANDLE:
        model->handle = value & handle_mask(model);
        break;
    case HWPQ_REG_CMD:
        model->error = run_command(model, value);
        if (model->error != HWPQ_ERR_NONE) {
            model->counts.refused++;
        }
        break;
    default:
        break; /* read-only registers, and offsets the device does not decode */
    }
}

hwpq_model_t *hwpq_model_unit(hwpq_model_unit_t *unit)
{
    if (!unit->built) {
        (void)hwpq_model_init(&unit->model, HWPQ_MODEL_MAX_DEPTH);
        unit->built = true;
    }
    return &unit->model;
}
