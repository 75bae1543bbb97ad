#include "scenario_input.h"

#include <inttypes.h>
#include <string.h>

#include "takt/kernel.h"
#include "takt/server.h"

/* Input names, indexed by the kernel's enumeration values. */
static const char *const schedulers[] = {
    [TAKT_SCHED_FP] = "fp",
    [TAKT_SCHED_EDF_HEAP] = "edf-heap",
    [TAKT_SCHED_EDF_MLIST] = "edf-mlist",
    [TAKT_SCHED_EDF_RBTREE] = "edf-rbtree",
    [TAKT_SCHED_HSF] = "hsf",
    [TAKT_SCHED_FP_LIST] = "fp-list",
    [TAKT_SCHED_EDF_HWPQ] = "edf-hwpq",
    [TAKT_SCHED_FP_HWPQ] = "fp-hwpq",
};

static const char *const server_types[] = {
    [TAKT_SERVER_IDLING] = "idling",
    [TAKT_SERVER_DEFERRABLE] = "deferrable",
};

static const char *const preemptions[] = {
    [TAKT_PREEMPT_FULL] = "full",
    [TAKT_PREEMPT_NONE] = "none",
    [TAKT_PREEMPT_DEFERRED] = "deferred",
};

/* The index of name in names; an absent name keeps *out (the default). */
static bool lookup(const char *name, const char *const *names, size_t count, int *out)
{
    if (name == NULL) {
        return true;
    }
    for (size_t i = 0; i < count; i++) {
        if (strcmp(name, names[i]) == 0) {
            *out = (int)i;
            return true;
        }
    }
    return false;
}

/* "[scheduler [preemption]]" after the numbers of the system line. */
static bool parse_modes(char *rest, int *scheduler, int *preemption)
{
    *scheduler = TAKT_SCHED_FP;
    *preemption = TAKT_PREEMPT_FULL;
    if (rest == NULL) {
        return true;
    }
    char *save = NULL;
    const char *sched_name = strtok_r(rest, " \t", &save);
    const char *preempt_name = sched_name != NULL ? strtok_r(NULL, " \t", &save) : NULL;
    bool trailing = preempt_name != NULL && strtok_r(NULL, " \t", &save) != NULL;
    return !trailing &&
           lookup(sched_name, schedulers, sizeof(schedulers) / sizeof(schedulers[0]),
                  scheduler) &&
           lookup(preempt_name, preemptions, sizeof(preemptions) / sizeof(preemptions[0]),
                  preemption);
}

static bool parse_u32(const char *tok, uint32_t *out)
{
    if (tok == NULL || *tok == '\0') {
        return false;
    }
    uint64_t v = 0;
    for (const char *p = tok; *p != '\0'; p++) {
        if (*p < '0' || *p > '9') {
            return false;
        }
        v = v * 10u + (uint64_t)(*p - '0');
        if (v > UINT32_MAX) {
            return false;
        }
    }
    *out = (uint32_t)v;
    return true;
}

static bool parse_fields(char *rest, uint32_t *fields, size_t count, char **tail)
{
    char *save = NULL;
    char *cursor = rest;
    for (size_t i = 0; i < count; i++) {
        char *tok = strtok_r(cursor, " \t", &save);
        cursor = NULL;
        if (!parse_u32(tok, &fields[i])) {
            return false;
        }
    }
    if (tail != NULL) {
        *tail = save;
        while (*tail != NULL && (**tail == ' ' || **tail == '\t')) {
            (*tail)++;
        }
    }
    return true;
}

/* "server <priority> <period> <budget> <offset> <type> <name>"; false with a message. */
static bool parse_server(char *rest, runner_scenario_t *out, unsigned lineno, char *err,
                         size_t err_size)
{
    if (out->scheduler != TAKT_SCHED_HSF) {
        snprintf(err, err_size, "line %u: server lines need 'system ... hsf' before them",
                 lineno);
        return false;
    }
    if (out->task_count > 0) {
        snprintf(err, err_size, "line %u: server lines must come before every task line", lineno);
        return false;
    }
    if (out->server_count == RUNNER_MAX_SERVERS) {
        snprintf(err, err_size, "line %u: more than %d servers", lineno, RUNNER_MAX_SERVERS);
        return false;
    }
    uint32_t f[4];
    char *tail = NULL;
    char *save = NULL;
    const char *type_name = NULL, *name = NULL;
    int type = -1;
    if (parse_fields(rest, f, 4, &tail) && tail != NULL) {
        type_name = strtok_r(tail, " \t", &save);
        name = save;
        while (name != NULL && (*name == ' ' || *name == '\t')) {
            name++;
        }
    }
    if (type_name == NULL || !lookup(type_name, server_types, 2, &type) || type < 0 ||
        name == NULL || *name == '\0' || strlen(name) >= RUNNER_MAX_NAME) {
        snprintf(err, err_size,
                 "line %u: expected 'server <priority> <period> <budget> <offset> "
                 "<idling|deferrable> <name>' (name 1..%d bytes)",
                 lineno, RUNNER_MAX_NAME - 1);
        return false;
    }
    if (f[1] == 0 || f[2] == 0 || f[2] > f[1]) {
        snprintf(err, err_size,
                 "line %u: server %s: period must be positive and 0 < budget <= period", lineno,
                 name);
        return false;
    }
    runner_server_t *server = &out->servers[out->server_count++];
    server->priority = f[0];
    server->period = f[1];
    server->budget = f[2];
    server->offset = f[3];
    server->type = type;
    strcpy(server->name, name);
    return true;
}

/* "server-of <index>" right after a task line, under hsf. */
static bool parse_server_of(char *rest, runner_scenario_t *out, bool awaited, unsigned lineno,
                            char *err, size_t err_size)
{
    uint32_t index;
    if (!awaited) {
        snprintf(err, err_size,
                 "line %u: server-of must follow a task line, once, under 'system ... hsf'",
                 lineno);
        return false;
    }
    if (!parse_fields(rest, &index, 1, NULL) || index >= out->server_count) {
        snprintf(err, err_size, "line %u: server-of names no server (%u defined)", lineno,
                 (unsigned)out->server_count);
        return false;
    }
    out->tasks[out->task_count - 1].server = (int)index;
    return true;
}

/* The longest record: a segments line of RUNNER_MAX_SEGMENTS lengths of up to
 * ten digits, one separator each; room to spare for wider spacing. */
#define RUNNER_MAX_LINE (2 * (sizeof("segments ") + RUNNER_MAX_SEGMENTS * 11u))

bool scenario_input_read(FILE *in, runner_scenario_t *out, char *err, size_t err_size)
{
    char line[RUNNER_MAX_LINE];
    unsigned lineno = 0;
    bool have_header = false, have_system = false;
    unsigned awaiting_server_of = 0; /* line of an hsf task still without its server-of */
    memset(out, 0, sizeof(*out));
    while (fgets(line, sizeof(line), in) != NULL) {
        lineno++;
        if (strchr(line, '\n') == NULL && !feof(in)) {
            /* Read on, a piece at a time, it would pass for several records. */
            snprintf(err, err_size, "line %u: longer than %u bytes", lineno,
                     (unsigned)sizeof(line) - 2u);
            return false;
        }
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#') {
            continue;
        }
        if (awaiting_server_of != 0 && strncmp(line, "server-of ", 10) != 0) {
            snprintf(err, err_size, "line %u: task %s needs a 'server-of <index>' line after it",
                     awaiting_server_of, out->tasks[out->task_count - 1].name);
            return false;
        }
        if (!have_header) {
            if (strcmp(line, "takt-scenario 1") != 0) {
                snprintf(err, err_size, "line %u: expected header 'takt-scenario 1'", lineno);
                return false;
            }
            have_header = true;
        } else if (strncmp(line, "system ", 7) == 0) {
            uint32_t f[4];
            char *modes = NULL;
            if (!parse_fields(line + 7, f, 4, &modes) || f[0] == 0 || f[1] == 0 || f[2] > 1 ||
                f[0] > 1000000000u || !parse_modes(modes, &out->scheduler, &out->preemption)) {
                snprintf(err, err_size,
                         "line %u: expected 'system <tick_hz> <duration> <round_robin 0|1> "
                         "<tick_start> [fp|fp-list|edf-heap|edf-mlist|edf-rbtree|edf-hwpq|fp-hwpq|hsf "
                         "[full|none|deferred]]' with positive tick_hz and duration",
                         lineno);
                return false;
            }
            out->tick_hz = f[0];
            out->duration = f[1];
            out->round_robin = f[2] == 1;
            out->tick_start = f[3];
            have_system = true;
            if (out->scheduler == TAKT_SCHED_HSF && out->preemption != TAKT_PREEMPT_FULL) {
                snprintf(err, err_size, "line %u: hsf supports preemption 'full' only", lineno);
                return false;
            }
#ifndef TAKT_PORT_HWPQ_UNITS
            if (out->scheduler == TAKT_SCHED_EDF_HWPQ || out->scheduler == TAKT_SCHED_FP_HWPQ) {
                snprintf(err, err_size,
                         "line %u: %s needs the hardware priority queue, which this "
                         "port does not have (the sim's model has it, the boards' runners emulate it)",
                         lineno, schedulers[out->scheduler]);
                return false;
            }
#endif
        } else if (strncmp(line, "server-of ", 10) == 0) {
            if (!parse_server_of(line + 10, out, awaiting_server_of != 0, lineno, err,
                                 err_size)) {
                return false;
            }
            awaiting_server_of = 0;
        } else if (strncmp(line, "server ", 7) == 0) {
            if (!parse_server(line + 7, out, lineno, err, err_size)) {
                return false;
            }
        } else if (strncmp(line, "task ", 5) == 0) {
            uint32_t f[5];
            char *name = NULL;
            if (out->task_count == RUNNER_MAX_TASKS) {
                snprintf(err, err_size, "line %u: more than %d tasks", lineno, RUNNER_MAX_TASKS);
                return false;
            }
            if (!parse_fields(line + 5, f, 5, &name) || name == NULL || *name == '\0' ||
                strlen(name) >= RUNNER_MAX_NAME) {
                snprintf(err, err_size,
                         "line %u: expected 'task <priority> <period> <wcet> <deadline> <offset> "
                         "<name>' (name 1..%d bytes)",
                         lineno, RUNNER_MAX_NAME - 1);
                return false;
            }
            runner_task_t *t = &out->tasks[out->task_count++];
            t->priority = f[0];
            t->period = f[1];
            t->wcet = f[2];
            t->deadline = f[3];
            t->offset = f[4];
            strcpy(t->name, name);
            t->server = -1;
            if (t->period == 0 || t->wcet == 0) {
                snprintf(err, err_size, "line %u: task %s: period and wcet must be positive",
                         lineno, t->name);
                return false;
            }
            if (out->scheduler == TAKT_SCHED_HSF) {
                awaiting_server_of = lineno;
            }
        } else if (strncmp(line, "segments ", 9) == 0) {
            runner_task_t *t = out->task_count > 0 ? &out->tasks[out->task_count - 1] : NULL;
            char *save = NULL;
            uint64_t sum = 0;
            uint32_t n = 0;
            bool ok = t != NULL && t->segment_count == 0;
            for (char *tok = strtok_r(line + 9, " \t", &save); ok && tok != NULL;
                 tok = strtok_r(NULL, " \t", &save)) {
                uint32_t c;
                ok = n < RUNNER_MAX_SEGMENTS && parse_u32(tok, &c) && c > 0;
                if (ok) {
                    t->segments[n++] = c;
                    sum += c;
                }
            }
            if (!ok || n == 0 || sum != t->wcet) {
                snprintf(err, err_size,
                         "line %u: segments must follow a task and list 1..%d positive lengths "
                         "summing to its wcet",
                         lineno, RUNNER_MAX_SEGMENTS);
                return false;
            }
            t->segment_count = n;
        } else {
            snprintf(err, err_size, "line %u: unknown record '%.40s'", lineno, line);
            return false;
        }
    }
    if (awaiting_server_of != 0) {
        snprintf(err, err_size, "line %u: task %s needs a 'server-of <index>' line after it",
                 awaiting_server_of, out->tasks[out->task_count - 1].name);
        return false;
    }
    if (!have_header || !have_system || out->task_count == 0) {
        snprintf(err, err_size, "input needs the header, a system line and at least one task");
        return false;
    }
    return true;
}
