/*
 * Tickless idle (configUSE_TICKLESS_IDLE 1) through the FreeRTOS API, built
 * tickless (configEXPECTED_IDLE_TIME_BEFORE_SLEEP 2 and 5, and with the tick
 * count starting just below the wraparound) and ticking as the reference,
 * every build with the sleep macros of config/sleep_macros_config.h defined.
 * Seven phases, each checked against expectations derived by hand here:
 *   A  tasks in vTaskDelay, xTaskDelayUntil and xSemaphoreTake with a
 *      timeout, an auto-reload and a one-shot software timer: every event at
 *      the tick it has ticking, and with the tick stopped, one tick
 *      interrupt per tick with something due (plus the ticks too close to
 *      the previous one to sleep);
 *   B  configPRE_SUPPRESS_TICKS_AND_SLEEP_PROCESSING shortens each sleep;
 *   C  ... forbids it (x below the minimum: no sleep, every tick runs);
 *   D  configPRE_SLEEP_PROCESSING sets x to 0 (the application slept);
 *   E  nothing timed: eNoTasksWaitingTimeout, an interrupt in the middle of
 *      a tick ends the sleep and sees the ticks before it counted, and the
 *      tick runs aligned after it;
 *   F  an interrupt at a tick the sleep left out, then a timeout's tick;
 *   G  ... PRE_SUPPRESS asks for a longer sleep than the kernel allows.
 * In every phase: the tick interrupts (rtos_interrupts less the injected),
 * the tick hook's and traceTASK_INCREMENT_TICK's calls agree (none for a
 * left-out tick); the sleep macros come in order (PRE_SUPPRESS, then BEGIN,
 * PRE_SLEEP, POST_SLEEP, END around each wait), in the idle task, with
 * consistent values, and eTaskConfirmSleepModeStatus answers in PRE_SLEEP as
 * the situation says (eAbortSleep from a task and from an interrupt).
 * Ticking, no macro runs. On a board (RTOS_EXACT_TIME 0) the counts of
 * interrupts, plans and waits are bounds: its port may give a sleep up after
 * the plan and waits twice in a sleep over two ticks.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include <string.h>

#include "rtos_check.h"
#include "rtos_port.h"
#include "semphr.h"
#include "timers.h"

#ifndef TEST_SLEEP_MACROS
#error "tickless.c needs TEST_SLEEP_MACROS (config/sleep_macros_config.h)"
#endif

#define TICKLESS (configUSE_TICKLESS_IDLE == 1)
#define MIN_SLEEP configEXPECTED_IDLE_TIME_BEFORE_SLEEP
#define RECORDS 16u

/* ---- the sleep macros, counted and checked as they run ----
 * A sleep is planned once (PRE_SUPPRESS) and waits for an interrupt once on
 * the sim, up to twice on the Cortex-M port, or not at all when that port
 * gives it up after the plan (a tick came due); each wait is BEGIN,
 * PRE_SLEEP, POST_SLEEP, END. */

static struct {
    unsigned plans;    /* PRE_SUPPRESS calls */
    unsigned sleeps;   /* of them, the ones that left a sleep */
    unsigned unwaited; /* sleeps given up before a wait */
    unsigned begins, pre, post, ends, traced_ticks;
    unsigned order_errors, outside_idle;
    char state; /* '-' awake; 'S' a sleep planned; 'B' a wait begun; 'P' before it; 'Q' after it; 'W' after a wait */
    uint32_t limit; /* PRE_SUPPRESS cuts x to this */
    uint32_t stretch; /* or adds this to it */
    bool pre_sleep_zero; /* PRE_SLEEP sets x to 0 */
    uint32_t plan_in[RECORDS];
    uint32_t planned; /* the sleep under way, as the layer passes it on */
    unsigned sleep_no; /* its number in the phase */
    /* each wait: */
    uint32_t wait_planned[RECORDS], pre_in[RECORDS], post_in[RECORDS];
    unsigned wait_sleep[RECORDS];
#if TICKLESS
    eSleepModeStatus status[RECORDS];
#endif
} sl = {.state = '-', .limit = UINT32_MAX};

static void in_order(const char *from, char to)
{
    if (strchr(from, sl.state) == NULL) {
        sl.order_errors++;
    }
    sl.state = to;
    if (xTaskGetCurrentTaskHandle() != xTaskGetIdleTaskHandle()) {
        sl.outside_idle++;
    }
}

void test_pre_suppress(uint32_t *x)
{
    unsigned i = sl.plans++;
    if (sl.state == 'S') {
        sl.unwaited++; /* the last plan's sleep never waited */
    }
    uint32_t in = *x;
    if (*x > sl.limit) {
        *x = sl.limit;
    }
    if (*x < UINT32_MAX - sl.stretch) {
        *x += sl.stretch;
    }
    if (i < RECORDS) {
        sl.plan_in[i] = in;
    }
    uint32_t kept = *x > in ? in : *x; /* the layer cuts a longer sleep back to the kernel's */
    if (kept >= MIN_SLEEP) {
        sl.planned = kept;
        sl.sleep_no = sl.sleeps++;
    }
    in_order("-SW", kept >= MIN_SLEEP ? 'S' : '-');
}

void test_low_power(char what)
{
    if (what == 'B') {
        unsigned i = sl.begins++;
        if (i < RECORDS) {
            sl.wait_planned[i] = sl.planned;
            sl.wait_sleep[i] = sl.sleep_no;
        }
        in_order("SW", 'B');
    } else {
        sl.ends++;
        in_order("Q", 'W');
    }
}

void test_pre_sleep(uint32_t *x)
{
    unsigned i = sl.pre++;
    if (i < RECORDS) {
        sl.pre_in[i] = *x;
#if TICKLESS
        sl.status[i] = eTaskConfirmSleepModeStatus();
#endif
    }
    if (sl.pre_sleep_zero) {
        *x = 0;
    }
#ifdef TAKT_TEST_TARGET
    else {
        rtos_spin_until_interrupt(); /* for the port's WFI (rtos_port.h says why) */
        *x = 0;
    }
#endif
    in_order("B", 'P');
}

void test_post_sleep(uint32_t x)
{
    unsigned i = sl.post++;
    if (i < RECORDS) {
        sl.post_in[i] = x;
    }
    in_order("P", 'Q');
}

void test_tick_traced(uint32_t tick)
{
    (void)tick;
    sl.traced_ticks++;
}

/* ---- observations: the tick count is the time's whole ticks ---- */

static TickType_t base;    /* the phase's first tick */
static uint64_t base_ns;   /* and its instant */
static unsigned misaligned;

#define REL() ((TickType_t)(xTaskGetTickCount() - base))

static void observe(void)
{
    TickType_t ticks = (TickType_t)(xTaskGetTickCount() - (TickType_t)configTAKT_TICK_START);
    if (ticks != (TickType_t)(rtos_now_ns() / RTOS_TICK_NS)) {
        misaligned++;
    }
}

/* ---- a phase: what it expects, and the checks every phase makes ---- */

typedef struct {
    const char *name;
    TickType_t ticks;   /* its length */
    unsigned injected;  /* interrupts it injects */
#if TICKLESS
    unsigned interrupts; /* tick and injected, tickless */
    unsigned plans;      /* PRE_SUPPRESS calls */
    uint32_t plan_in[RECORDS];
    unsigned sleeps;     /* of them, the ones that left a sleep (each one wait on the sim) */
    bool no_timer_first; /* the first sleep has nothing timed (eNoTasksWaitingTimeout) */
    bool waits_skipped;  /* PRE_SLEEP sets x to 0 */
#endif
} phase_t;

static struct {
    uint64_t interrupts;
    unsigned long tick_hooks;
    unsigned traced;
} at_start;

static void begin_phase(void)
{
    base = xTaskGetTickCount();
    base_ns = rtos_now_ns();
    misaligned = 0;
    at_start.interrupts = rtos_interrupts();
    at_start.tick_hooks = tick_hook_calls;
    at_start.traced = sl.traced_ticks;
    sl.plans = sl.sleeps = sl.unwaited = 0;
    sl.begins = sl.pre = sl.post = sl.ends = 0;
    sl.order_errors = sl.outside_idle = 0;
    sl.state = '-';
}

#if TICKLESS
/* Nothing timed is portMAX_DELAY (FreeRTOS: its next unblock time); a
 * board's port may cap it first at the ticks its timer can count. */
static bool plan_as_expected(uint32_t given, uint32_t expected)
{
#ifdef TAKT_TEST_TARGET
    if (expected == portMAX_DELAY) {
        return given >= MIN_SLEEP;
    }
#endif
    return given == expected;
}

/* What PRE_SLEEP is given: the planned sleep (the sim's port caps "nothing
 * timed" at INT32_MAX ticks); on a board's second wait of a sleep, the rest
 * of it. */
static bool pre_sleep_as_expected(uint32_t given, uint32_t planned)
{
#if RTOS_EXACT_TIME
    if (planned != portMAX_DELAY) {
        return given == planned;
    }
    return given >= MIN_SLEEP && given <= planned;
#else
    return given >= 1u && given <= planned;
#endif
}
#endif

/* On the sim (exact) the counts of interrupts, plans, sleeps and waits are the
 * phase's. A board's port may give a sleep up after its plan (a tick came
 * due: that tick then runs, and the idle task plans again) and waits twice
 * in a sleep over two ticks, so there they are bounded. */
static void end_phase(const phase_t *p)
{
    const bool exact = RTOS_EXACT_TIME;
    (void)exact; /* ticking: every count is exact */
    observe();
    CHECK(REL() == p->ticks && misaligned == 0, "%s: ends at +%lu, every observation's tick count the time's whole ticks",
          p->name, (unsigned long)REL());
    if (sl.state == 'S') {
        sl.unwaited++;
    }
    unsigned interrupts = (unsigned)(rtos_interrupts() - at_start.interrupts);
    unsigned tick_hooks = (unsigned)(tick_hook_calls - at_start.tick_hooks);
#if TICKLESS
    unsigned most = exact ? p->interrupts : p->waits_skipped ? p->ticks + p->injected : p->interrupts + sl.unwaited;
    CHECK(interrupts >= p->interrupts && interrupts <= most, "%s: %u interrupts in %lu ticks (%u injected), tickless",
          p->name, interrupts, (unsigned long)p->ticks, p->injected);
#else
    CHECK(interrupts == p->ticks + p->injected, "%s: %u interrupts in %lu ticks (%u injected): one per tick", p->name,
          interrupts, (unsigned long)p->ticks, p->injected);
#endif
    CHECK(tick_hooks == interrupts - p->injected && sl.traced_ticks - at_start.traced == tick_hooks,
          "%s: the tick hook and traceTASK_INCREMENT_TICK once per tick interrupt (%lu, %u)", p->name,
          (unsigned long)tick_hooks, sl.traced_ticks - at_start.traced);
    LOG("%s: %u plans, %u sleeps, %u waits", p->name, sl.plans, sl.sleeps, sl.begins);
#if TICKLESS
    if (exact) {
        bool plans_ok = sl.plans == p->plans && sl.sleeps == p->sleeps;
        for (unsigned i = 0; plans_ok && i < p->plans && i < RECORDS; i++) {
            plans_ok = plan_as_expected(sl.plan_in[i], p->plan_in[i]);
        }
        CHECK(plans_ok, "%s: configPRE_SUPPRESS_TICKS_AND_SLEEP_PROCESSING %u times, with the ticks to the next timer; "
              "%u sleeps", p->name, p->plans, p->sleeps);
    }
    unsigned waited = sl.sleeps - sl.unwaited;
    bool waits_ok = exact ? sl.unwaited == 0 && sl.begins == sl.sleeps : sl.begins >= waited && sl.begins <= 2u * waited;
    CHECK(waits_ok && sl.pre == sl.begins && sl.post == sl.begins && sl.ends == sl.begins,
          "%s: %u waits: traceLOW_POWER_IDLE_BEGIN, PRE_SLEEP, POST_SLEEP, traceLOW_POWER_IDLE_END around each", p->name,
          sl.begins);
    /* POST gets what PRE_SLEEP got, as FreeRTOS's ports pass it. */
    bool values_ok = true;
    for (unsigned i = 0; i < sl.pre && i < RECORDS; i++) {
        values_ok = values_ok && pre_sleep_as_expected(sl.pre_in[i], sl.wait_planned[i]) &&
                    sl.post_in[i] == sl.pre_in[i] && sl.wait_planned[i] >= MIN_SLEEP;
    }
    CHECK(values_ok, "%s: PRE_SLEEP given the planned sleep, POST_SLEEP what PRE_SLEEP was given", p->name);
    bool status_ok = true;
    for (unsigned i = 0; i < sl.pre && i < RECORDS; i++) {
        eSleepModeStatus want = sl.wait_sleep[i] == 0 && p->no_timer_first ? eNoTasksWaitingTimeout : eStandardSleep;
        status_ok = status_ok && sl.status[i] == want;
    }
    CHECK(status_ok, "%s: eTaskConfirmSleepModeStatus in PRE_SLEEP: %s", p->name,
          p->no_timer_first ? "eNoTasksWaitingTimeout, then eStandardSleep" : "eStandardSleep");
#else
    CHECK(sl.plans + sl.begins + sl.pre + sl.post + sl.ends == 0, "%s: ticking, no sleep macro runs", p->name);
#endif
    CHECK(sl.order_errors == 0 && sl.outside_idle == 0, "%s: the macros in order, in the idle task", p->name);
}

/* ---- A: the events of delays, timeouts and timers ---- */

static SemaphoreHandle_t sem;
static TimerHandle_t every9, once13;
static TickType_t delay_woke[3], until_woke[2], take_woke[2], every9_fired[3], once13_fired;
static BaseType_t take_got[2];
static unsigned every9_n;
static unsigned late; /* an event woken by its tick that came later than it */

/* A task woken by its tick runs at that tick's instant (the sim's exact time;
 * the board's snapped to the boundary). */
static void on_tick(void)
{
    observe();
#if RTOS_EXACT_TIME
    if (rtos_now_ns() != base_ns + (uint64_t)REL() * RTOS_TICK_NS) {
        late++;
    }
#endif
}

static void delayer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        vTaskDelay(7);
        delay_woke[i] = REL();
        on_tick();
    }
    vTaskSuspend(NULL);
}

static void periodic(void *arg)
{
    (void)arg;
    TickType_t last = base;
    for (int i = 0; i < 2; i++) {
        xTaskDelayUntil(&last, 10);
        until_woke[i] = REL();
        on_tick();
    }
    vTaskSuspend(NULL);
}

static void taker(void *arg)
{
    (void)arg;
    take_got[0] = xSemaphoreTake(sem, 5);
    take_woke[0] = REL();
    on_tick();
    take_got[1] = xSemaphoreTake(sem, 12); /* given at 13 by the one-shot, before its timeout at 17 */
    take_woke[1] = REL();
    on_tick();
    vTaskSuspend(NULL);
}

static void every9_expired(TimerHandle_t timer)
{
    if (every9_n < 3) {
        every9_fired[every9_n] = REL();
    }
    if (++every9_n == 3) {
        xTimerStop(timer, 0);
    }
    on_tick();
}

static void once13_expired(TimerHandle_t timer)
{
    (void)timer;
    once13_fired = REL();
    on_tick();
    xSemaphoreGive(sem);
}

/* Timers due at 5 (the take's timeout), 7, 9, 10, 13, 14, 18, 20, 21, 27
 * and 30 (the control task): gaps 5 2 2 1 3 1 4 2 1 6 3. A gap of at least
 * the minimum is one sleep and one interrupt, a shorter one a tick each. */
static const phase_t phase_a = {
    .name = "A", .ticks = 30, .injected = 0,
#if TICKLESS && MIN_SLEEP == 2
    .interrupts = 11, .plans = 8, .plan_in = {5, 2, 2, 3, 4, 2, 6, 3}, .sleeps = 8,
#elif TICKLESS && MIN_SLEEP == 5
    .interrupts = 21, .plans = 2, .plan_in = {5, 6}, .sleeps = 2,
#endif
};

static void run_phase_a(void)
{
    begin_phase();
    late = 0;
    xTaskCreate(delayer, "delay", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    xTaskCreate(periodic, "until", configMINIMAL_STACK_SIZE, NULL, 3, NULL);
    xTaskCreate(taker, "take", configMINIMAL_STACK_SIZE, NULL, 1, NULL);
    xTimerStart(every9, 0);
    xTimerStart(once13, 0);
    vTaskDelay(30);
    CHECK(delay_woke[0] == 7 && delay_woke[1] == 14 && delay_woke[2] == 21, "A: vTaskDelay(7) wakes at 7 14 21");
    CHECK(until_woke[0] == 10 && until_woke[1] == 20, "A: xTaskDelayUntil every 10 wakes at 10 20");
    CHECK(take_got[0] == pdFALSE && take_woke[0] == 5, "A: xSemaphoreTake(5) times out at 5");
    CHECK(take_got[1] == pdTRUE && take_woke[1] == 13, "A: xSemaphoreTake(12) given at 13");
    CHECK(every9_n == 3 && every9_fired[0] == 9 && every9_fired[1] == 18 && every9_fired[2] == 27,
          "A: auto-reload timer of 9 at 9 18 27, then stopped");
    CHECK(once13_fired == 13, "A: one-shot timer of 13 at 13");
    CHECK(late == 0, "A: every event at its tick's instant");
    end_phase(&phase_a);
}

/* ---- B, C, D: what the macros do to the sleep ---- */

/* B: PRE_SUPPRESS cuts x to one tick above the minimum: sleeps that short
 * until the delay's last ticks. Minimum 2 (cut to 3): sleeps 10→3, 7→3,
 * 4→3 end at 3 6 9, then a tick to 10. Minimum 5 (cut to 6): one sleep to
 * 6, then 7 8 9 10. */
static const phase_t phase_b = {
    .name = "B", .ticks = 10, .injected = 0,
#if TICKLESS && MIN_SLEEP == 2
    .interrupts = 4, .plans = 3, .plan_in = {10, 7, 4}, .sleeps = 3,
#elif TICKLESS && MIN_SLEEP == 5
    .interrupts = 5, .plans = 1, .plan_in = {10}, .sleeps = 1,
#endif
};

/* C: PRE_SUPPRESS sets x to 0: no sleep, no BEGIN, every tick runs; it is
 * asked at each tick while the delay is at least the minimum away. */
static const phase_t phase_c = {
    .name = "C", .ticks = 6, .injected = 0,
#if TICKLESS && MIN_SLEEP == 2
    .interrupts = 6, .plans = 5, .plan_in = {6, 5, 4, 3, 2}, .sleeps = 0,
#elif TICKLESS && MIN_SLEEP == 5
    .interrupts = 6, .plans = 2, .plan_in = {6, 5}, .sleeps = 0,
#endif
};

/* D: PRE_SLEEP sets x to 0 (it put the processor to sleep itself): the
 * sim's port sleeps as long anyway, POST_SLEEP is given the expected 8. A
 * board's port does not wait then: it comes back at once and plans again,
 * the ticks run, and only the pairs are checked. */
static const phase_t phase_d = {
    .name = "D", .ticks = 8, .injected = 0,
#if TICKLESS
    .interrupts = 1, .plans = 1, .plan_in = {8}, .sleeps = 1, .waits_skipped = true,
#endif
};

static void run_phase_bcd(void)
{
    begin_phase();
    sl.limit = MIN_SLEEP + 1;
    vTaskDelay(10);
    sl.limit = UINT32_MAX;
    observe();
    end_phase(&phase_b);

    begin_phase();
    sl.limit = 0;
    vTaskDelay(6);
    sl.limit = UINT32_MAX;
    end_phase(&phase_c);

    begin_phase();
    sl.pre_sleep_zero = true;
    vTaskDelay(8);
    sl.pre_sleep_zero = false;
    end_phase(&phase_d);
}

/* G: PRE_SUPPRESS asks for 5 ticks more than there are to the next timer:
 * the layer cuts it back, so the sleep still ends at the delay's tick (a
 * sleep past it would pass over the timer: the sim's port stops the run). */
static const phase_t phase_g = {
    .name = "G", .ticks = 6, .injected = 0,
#if TICKLESS
    .interrupts = 1, .plans = 1, .plan_in = {6}, .sleeps = 1,
#endif
};

static void run_phase_g(void)
{
    begin_phase();
    sl.stretch = 5;
    vTaskDelay(6);
    sl.stretch = 0;
    end_phase(&phase_g);
}

/* ---- E, F: interrupts that end a sleep ---- */

static TickType_t isr_saw;
#if TICKLESS
static int isr_status = -1;
#endif

static void give_isr(void *arg)
{
    (void)arg;
    isr_saw = REL();
    observe();
#if TICKLESS
    isr_status = (int)eTaskConfirmSleepModeStatus();
#endif
    BaseType_t woken = pdFALSE;
    xSemaphoreGiveFromISR(sem, &woken);
    portYIELD_FROM_ISR(woken);
}

/* E: nothing timed (every other task suspended, the timers stopped): the
 * idle task sleeps until the interrupt at +25.5, which sees 25 ticks
 * counted; the control task then delays 3 and wakes on the tick at 28.
 * Minimum 2: that delay is one more sleep; minimum 5: ticks 26 27 28. */
static const phase_t phase_e = {
    .name = "E", .ticks = 28, .injected = 1,
#if TICKLESS && MIN_SLEEP == 2
    .interrupts = 2, .plans = 2, .plan_in = {portMAX_DELAY, 3}, .sleeps = 2, .no_timer_first = true,
#elif TICKLESS && MIN_SLEEP == 5
    .interrupts = 4, .plans = 1, .plan_in = {portMAX_DELAY}, .sleeps = 1, .no_timer_first = true,
#endif
};

/* F: a take with a timeout of 50, given by an interrupt at +12 exactly, a
 * tick the sleep left out (it sees 12 counted, and no tick interrupt runs
 * there); then a take that times out at 16, whose tick runs. */
static const phase_t phase_f = {
    .name = "F", .ticks = 16, .injected = 1,
#if TICKLESS && MIN_SLEEP == 2
    .interrupts = 2, .plans = 2, .plan_in = {50, 4}, .sleeps = 2,
#elif TICKLESS && MIN_SLEEP == 5
    .interrupts = 5, .plans = 1, .plan_in = {50}, .sleeps = 1,
#endif
};

static void run_phase_ef(void)
{
#if TICKLESS
    CHECK(eTaskConfirmSleepModeStatus() == eAbortSleep, "eTaskConfirmSleepModeStatus from a task: eAbortSleep");
#endif
    begin_phase();
    CHECK(rtos_inject_irq(base_ns + 25u * RTOS_TICK_NS + RTOS_TICK_NS / 2u, 3, give_isr, NULL) == 0,
          "E: an interrupt injected at +25.5");
    BaseType_t got = xSemaphoreTake(sem, portMAX_DELAY);
    TickType_t woke = REL();
    observe();
    CHECK(got == pdTRUE && isr_saw == 25 && woke == 25, "E: the interrupt saw 25 ticks counted, the waiter woke at 25");
#if RTOS_EXACT_TIME
    CHECK(rtos_now_ns() == base_ns + 25u * RTOS_TICK_NS + RTOS_TICK_NS / 2u, "E: ... at the interrupt's instant");
#endif
#if TICKLESS
    CHECK(isr_status == (int)eAbortSleep, "E: eTaskConfirmSleepModeStatus from an interrupt: eAbortSleep");
#endif
    vTaskDelay(3);
    woke = REL();
#if RTOS_EXACT_TIME
    CHECK(woke == 28 && rtos_now_ns() == base_ns + 28u * RTOS_TICK_NS, "E: vTaskDelay(3) wakes on the tick at 28");
#else
    CHECK(woke == 28, "E: vTaskDelay(3) wakes on the tick at 28");
#endif
    end_phase(&phase_e);

    begin_phase();
    isr_saw = 0;
    CHECK(rtos_inject_irq(base_ns + 12u * RTOS_TICK_NS, 3, give_isr, NULL) == 0, "F: an interrupt injected at +12");
    got = xSemaphoreTake(sem, 50);
    woke = REL();
    observe();
    CHECK(got == pdTRUE && isr_saw == 12 && woke == 12, "F: the interrupt saw 12 ticks counted, the waiter woke at 12");
    got = xSemaphoreTake(sem, 4);
    woke = REL();
#if RTOS_EXACT_TIME
    CHECK(got == pdFALSE && woke == 16 && rtos_now_ns() == base_ns + 16u * RTOS_TICK_NS,
          "F: xSemaphoreTake(4) times out on the tick at 16");
#else
    CHECK(got == pdFALSE && woke == 16, "F: xSemaphoreTake(4) times out on the tick at 16");
#endif
    end_phase(&phase_f);
}

static void control(void *arg)
{
    (void)arg;
    uint64_t interrupts = rtos_interrupts();
    TickType_t start = xTaskGetTickCount();
    run_phase_a();
    run_phase_bcd();
    run_phase_ef();
    run_phase_g();
    unsigned ticks = (unsigned)(xTaskGetTickCount() - start);
    LOG("%u interrupts in %u ticks", (unsigned)(rtos_interrupts() - interrupts), ticks);
    vTaskEndScheduler();
}

int main(void)
{
    sem = xSemaphoreCreateBinary();
    every9 = xTimerCreate("every9", 9, pdTRUE, NULL, every9_expired);
    once13 = xTimerCreate("once13", 13, pdFALSE, NULL, once13_expired);
    CHECK(sem != NULL && every9 != NULL && once13 != NULL, "semaphore and timers created");
    printf("configUSE_TICKLESS_IDLE %d, configEXPECTED_IDLE_TIME_BEFORE_SLEEP %d, tick start %lu\n",
           configUSE_TICKLESS_IDLE, MIN_SLEEP, (unsigned long)configTAKT_TICK_START);
    xTaskCreate(control, "ctl", configMINIMAL_STACK_SIZE, NULL, 6, NULL);
    vTaskStartScheduler();
    return rtos_check_summary();
}
