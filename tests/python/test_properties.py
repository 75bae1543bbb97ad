"""Property tests: random task sets run on the kernel (sim port) obey SCHEDULING.md.

Every set is drawn from ``random.Random(seed)`` with a fixed seed, so a failure names a
reproducible case (its scenario TOML is in the assertion message). The checks are made
from the run's timeline and job table plus the scenario alone, with no help from the
kernel's own bookkeeping:

(a) FPPS: the running job has the highest priority among the ready jobs; a job is
    ready at tick t if it was released at or before t, has not finished by t, and is
    the oldest unfinished job of its task;
(b) no job runs before its release;
(c) the processor never idles while a job is ready;
(d) the jobs of a task run in order;
(e) a finished job ran exactly its wcet (and finished right after its last tick), an
    unfinished one ran less (a job whose last tick ends the run may be either: its
    completion falls on the instant ``duration``, which the run does not cover);
(f) the miss verdicts follow SCHEDULING.md "Jobs", and the trace records each miss
    once, at the first tick after the deadline;
(g) equal priorities are first come first served: the job that runs is the one that
    became ready earliest, ties to the task defined first (see :func:`ready_time`).

Plus: the table lists exactly the jobs the task parameters release in [0, duration),
and the same set started at tick 0xFFFFFFF0 (32-bit wraparound) or at a random tick
count gives the same timeline and job table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from conftest import T, make_scenario, scenario_toml

from takt.model import JobRow, RunResult, Scenario, TimelineRow, TraceEvent
from takt.sim import run_scenario

pytestmark = pytest.mark.usefixtures("runner")

SEEDS = range(1000)
WRAP_TICK = 0xFFFFFFF0

JobKey = tuple[int, int]  # (task index in definition order, job number)


# ---------------------------------------------------------------------------
# Random task sets.


@dataclass(frozen=True)
class Case:
    seed: int
    tasks: tuple[T, ...]
    duration: int
    tick_hz: int = 1000

    def toml(self) -> str:
        return scenario_toml(self.tasks, self.duration, tick_hz=self.tick_hz)

    def scenario(self) -> Scenario:
        return make_scenario(
            self.tasks, self.duration, tick_hz=self.tick_hz, source=f"<seed {self.seed}>"
        )


def random_case(seed: int) -> Case:
    """n in 1..10, utilisation 0.2..1.6 (overload included), priority ties, offsets."""
    rng = random.Random(seed)
    n = rng.randint(1, 10)
    target_u = rng.uniform(0.2, 1.6)
    period_style = rng.choice(("small", "wide", "harmonic"))
    priority_style = rng.choice(("distinct", "ties", "ties", "all_equal"))
    with_offsets = rng.random() < 0.5
    with_deadlines = rng.random() < 0.5

    shares = [rng.random() + 0.05 for _ in range(n)]
    total = sum(shares)
    tasks: list[T] = []
    distinct = rng.sample(range(1, 40) if rng.random() < 0.7 else range(1, 256), n)
    for i in range(n):
        if period_style == "small":
            period = rng.randint(2, 25)
        elif period_style == "wide":
            period = rng.randint(3, 120)
        else:
            period = rng.choice((4, 5, 8, 10, 20, 40, 50, 100))
        u_i = target_u * shares[i] / total
        wcet = max(1, round(u_i * period))
        if rng.random() < 0.05:
            wcet = period + rng.randint(0, period)  # a task that overloads on its own
        if priority_style == "distinct":
            priority = distinct[i]
        elif priority_style == "ties":
            priority = rng.randint(1, 3)
        else:
            priority = 7
        deadline = rng.randint(1, 2 * period) if with_deadlines and rng.random() < 0.6 else None
        offset = rng.randint(0, period + 10) if with_offsets and rng.random() < 0.7 else 0
        tasks.append(T(period, wcet, priority, deadline, offset))
    tick_hz = 1000 if rng.random() < 0.8 else rng.choice((100, 250, 3000, 10000, 32768))
    return Case(seed, tuple(tasks), rng.randint(50, 400), tick_hz)


def large_case(seed: int) -> Case:
    """20..60 tasks, priorities 1..12 (many ties), utilisation 0.5..1.3, long runs."""
    rng = random.Random(10_000 + seed)
    n = rng.randint(20, 60)
    target_u = rng.uniform(0.5, 1.3)
    tasks = []
    for _ in range(n):
        period = rng.choice((10, 20, 25, 40, 50, 100, 125, 200, 250, 500))
        wcet = max(1, round(target_u / n * period * rng.uniform(0.3, 1.7)))
        offset = rng.randint(0, period) if rng.random() < 0.5 else 0
        deadline = rng.randint(wcet, period) if rng.random() < 0.3 else None
        tasks.append(T(period, wcet, rng.randint(1, 12), deadline, offset))
    return Case(10_000 + seed, tuple(tasks), rng.randint(1000, 3000))


# ---------------------------------------------------------------------------
# The independent checker.


@dataclass(frozen=True)
class ExpectedJob:
    task: int
    job: int
    release: int
    deadline: int


def expected_jobs(scenario: Scenario) -> list[ExpectedJob]:
    """Every job the task parameters release in [0, duration), in job-table order."""
    duration = scenario.system.duration
    out: list[ExpectedJob] = []
    for index, task in enumerate(scenario.tasks):
        k = 0
        while task.offset + k * task.period < duration:
            release = task.offset + k * task.period
            out.append(ExpectedJob(index, k, release, release + task.deadline))
            k += 1
    return out


def timeline_ticks(
    scenario: Scenario, rows: Sequence[TimelineRow], problems: list[str]
) -> list[JobKey | None]:
    """What ran in each tick [t, t+1): (task index, job) or None for idle."""
    duration = scenario.system.duration
    index = {task.name: i for i, task in enumerate(scenario.tasks)}
    ticks: list[JobKey | None] = []
    previous: TimelineRow | None = None
    for row in rows:
        if row.start != len(ticks):
            problems.append(f"timeline row {row} does not start where the last ended")
        if row.end <= row.start:
            problems.append(f"timeline row {row} is empty")
        if row.server != "":
            problems.append(f"timeline row {row} names a server without hsf")
        if previous is not None and (previous.task, previous.job) == (row.task, row.job):
            problems.append(f"timeline rows {previous} and {row} are not maximal")
        previous = row
        what: JobKey | None
        if row.task == "idle":
            if row.job is not None:
                problems.append(f"idle row {row} has a job number")
            what = None
        elif row.task in index and row.job is not None:
            what = (index[row.task], row.job)
        else:
            problems.append(f"timeline row {row} names an unknown task or no job")
            what = None
        ticks.extend([what] * max(0, row.end - row.start))
    if len(ticks) != duration:
        problems.append(f"timeline covers {len(ticks)} ticks, the run {duration}")
    return ticks[:duration] + [None] * max(0, duration - len(ticks))


def check_run(scenario: Scenario, result: RunResult) -> list[str]:
    """Every violation of (a)-(g) and of the job table's shape; empty when all hold."""
    problems: list[str] = []
    tasks = scenario.tasks
    duration = scenario.system.duration
    names = [t.name for t in tasks]
    prio = [t.priority or 0 for t in tasks]

    # The job table lists exactly the released jobs, in order, with their deadlines.
    expected = expected_jobs(scenario)
    got = [(r.task, r.job, r.release, r.deadline) for r in result.jobs]
    want = [(names[e.task], e.job, e.release, e.deadline) for e in expected]
    if got != want:
        missing = sorted(set(want) - set(got))[:5]
        extra = sorted(set(got) - set(want))[:5]
        problems.append(f"job table rows differ: missing {missing}, unexpected {extra}")
        return problems
    table: dict[JobKey, JobRow] = {
        (e.task, e.job): r for e, r in zip(expected, result.jobs, strict=True)
    }
    release = {(e.task, e.job): e.release for e in expected}
    wcet = [t.wcet for t in tasks]

    ticks = timeline_ticks(scenario, result.timeline, problems)

    # (e) execution per job; finish derived from the timeline, not the kernel.
    ran: dict[JobKey, list[int]] = {}
    for t, what in enumerate(ticks):
        if what is None:
            continue
        if what not in release:
            problems.append(f"tick {t}: {names[what[0]]} job {what[1]} was never released")
            return problems
        ran.setdefault(what, []).append(t)
    finish: dict[JobKey, int | None] = {}
    for key, row in table.items():
        run_ticks = ran.get(key, [])
        c = wcet[key[0]]
        label = f"{names[key[0]]} job {key[1]}"
        if len(run_ticks) > c:
            problems.append(f"(e) {label} ran {len(run_ticks)} ticks, wcet {c}")
            finish[key] = None
        elif len(run_ticks) == c:
            finish[key] = run_ticks[-1] + 1
        else:
            finish[key] = None
        # A job whose last tick ends the run completes at the instant `duration`, outside
        # [0, duration) (like a release there): the table may leave its finish empty.
        at_end = finish[key] == duration and row.finish is None
        if row.finish != finish[key] and not at_end:
            problems.append(
                f"(e) {label}: table finish {row.finish}, but it ran {len(run_ticks)} of "
                f"{c} ticks" + (f", the last ending at {run_ticks[-1] + 1}" if run_ticks else "")
            )
        # (f) verdicts, from the table's own finish and deadline.
        if row.finish is not None:
            should_miss = row.finish > row.deadline
        else:
            should_miss = row.deadline < duration
        if row.missed != should_miss:
            problems.append(
                f"(f) {label}: missed={row.missed}, but finish {row.finish}, "
                f"deadline {row.deadline}, duration {duration}"
            )
    if problems:
        return problems
    if result.events:  # hand-built results in the checker's own tests have none
        problems += check_miss_events(scenario, result)

    # When each job became ready: its release, or its predecessor's completion if later.
    def ready_time(key: JobKey) -> int:
        task, job = key
        if job == 0:
            return release[key]
        before = finish[(task, job - 1)]
        assert before is not None
        return max(release[key], before)

    # The oldest unfinished job of each task, advanced as ticks go by.
    current = [0] * len(tasks)
    for t, what in enumerate(ticks):
        ready: list[JobKey] = []
        for i in range(len(tasks)):
            while (
                (i, current[i]) in finish and (f := finish[(i, current[i])]) is not None and f <= t
            ):
                current[i] += 1
            key = (i, current[i])
            if key in release and release[key] <= t:
                ready.append(key)
        if what is None:
            if ready:
                problems.append(
                    f"(c) tick {t}: idle while ready: "
                    + ", ".join(f"{names[i]} job {j}" for i, j in ready)
                )
            continue
        i, j = what
        if release[what] > t:
            problems.append(f"(b) tick {t}: {names[i]} job {j} runs before its release")
            continue
        if what not in ready:
            problems.append(
                f"(d) tick {t}: {names[i]} job {j} runs but job {current[i]} of its task "
                "has not finished"
            )
            continue
        top = max(prio[k[0]] for k in ready)
        if prio[i] != top:
            problems.append(
                f"(a) tick {t}: {names[i]} job {j} (priority {prio[i]}) runs while "
                + ", ".join(f"{names[a]} job {b}" for a, b in ready if prio[a] == top)
                + f" (priority {top}) is ready"
            )
            continue
        first = min((k for k in ready if prio[k[0]] == top), key=lambda k: (ready_time(k), k[0]))
        if first != what:
            problems.append(
                f"(g) tick {t}: {names[i]} job {j} (ready at {ready_time(what)}) runs ahead of "
                f"{names[first[0]]} job {first[1]} (ready at {ready_time(first)}), "
                f"same priority {top}"
            )
        if len(problems) >= 8:
            break
    return problems


def check_miss_events(scenario: Scenario, result: RunResult) -> list[str]:
    """(f) in the trace: a miss is recorded once, at the first tick after the deadline.

    That instant is d + 1 whether the job completes then (step 2 comes before step 3)
    or later. A miss whose instant is the end of the run (d + 1 = duration) or later is
    not recorded in the trace; the table still reports it when d < duration.
    """
    problems: list[str] = []
    duration = scenario.system.duration
    recorded: dict[tuple[str, int], list[float]] = {}
    for event in result.events:
        if event.kind == "deadline_miss" and event.task is not None:
            recorded.setdefault((event.task, event.arg), []).append(event.time)
    for row in result.jobs:
        times = recorded.pop((row.task, row.job), [])
        label = f"{row.task} job {row.job} (deadline {row.deadline}, finish {row.finish})"
        if row.missed and row.deadline + 1 < duration:
            if times != [row.deadline + 1]:
                problems.append(f"(f) {label}: miss recorded at {times}, not once at d + 1")
        elif times and not (row.missed and times == [float(duration)]):
            problems.append(f"(f) {label}: miss recorded at {times}")
    for (task, job), times in recorded.items():
        problems.append(f"(f) miss recorded at {times} for {task} job {job}, not in the table")
    return problems


def report(case: Case, problems: Sequence[str], result: RunResult) -> str:
    rows = "\n".join(f"{r.start},{r.end},{r.task},{r.job}" for r in result.timeline[:60])
    return (
        f"seed {case.seed}:\n  "
        + "\n  ".join(problems[:8])
        + f"\n--- scenario ---\n{case.toml()}--- timeline (first rows) ---\n{rows}"
    )


# ---------------------------------------------------------------------------
# The tests.


@pytest.mark.parametrize("seed", SEEDS)
def test_random_task_set_follows_fpps(seed: int) -> None:
    case = random_case(seed)
    scenario = case.scenario()
    result = run_scenario(scenario)
    problems = check_run(scenario, result)
    assert not problems, report(case, problems, result)

    wrapped = run_scenario(scenario, tick_start=WRAP_TICK)
    assert wrapped.timeline == result.timeline, (
        f"seed {seed}: timeline differs at tick_start {WRAP_TICK:#x}"
    )
    assert wrapped.jobs == result.jobs, (
        f"seed {seed}: job table differs at tick_start {WRAP_TICK:#x}"
    )

    if seed % 8 == 0:
        rng = random.Random(seed ^ 0x5EED)
        # Anywhere, or so close to the wrap that it happens mid-run.
        for start in (rng.randrange(2**32), 2**32 - rng.randint(1, case.duration)):
            other = run_scenario(scenario, tick_start=start)
            assert other.timeline == result.timeline, f"seed {seed}: tick_start {start:#x}"
            assert other.jobs == result.jobs, f"seed {seed}: tick_start {start:#x}"


@pytest.mark.parametrize("seed", range(12))
def test_large_task_set_follows_fpps(seed: int) -> None:
    case = large_case(seed)
    scenario = case.scenario()
    result = run_scenario(scenario)
    assert result.trace_overflows == 0
    problems = check_run(scenario, result)
    assert not problems, report(case, problems, result)
    wrapped = run_scenario(scenario, tick_start=WRAP_TICK)
    assert wrapped.timeline == result.timeline and wrapped.jobs == result.jobs


def test_generator_covers_the_interesting_cases() -> None:
    """The seeds include overload, priority ties, offsets, self-queueing and misses."""
    cases = [random_case(seed) for seed in SEEDS]
    utilizations = [sum(t.wcet / t.period for t in c.tasks) for c in cases]
    assert sum(u > 1 for u in utilizations) >= 50
    assert sum(u <= 0.7 for u in utilizations) >= 50
    prios = [[t.priority for t in c.tasks] for c in cases]
    assert sum(len(set(p)) < len(p) for p in prios) >= 100
    assert sum(any(t.offset for t in c.tasks) for c in cases) >= 100
    assert sum(any(t.wcet > t.period for t in c.tasks) for c in cases) >= 10
    assert {len(c.tasks) for c in cases} == set(range(1, 11))
    assert sum(c.tick_hz != 1000 for c in cases) >= 100
    assert min(c.duration for c in cases) >= 50 and max(c.duration for c in cases) <= 400


# Hand-made cases for the FIFO rule, where a wrong checker would be easiest to miss.

FIFO_CASES: dict[str, tuple[list[T], int]] = {
    # T2 becomes ready at 1 while T1 runs; T3 (higher) preempts T1 at 2; T1 resumes
    # first at 4 (it keeps its place), then T2.
    "preempted_keeps_place": ([T(100, 4, 1), T(100, 2, 1, None, 1), T(100, 2, 5, None, 2)], 20),
    # Equal priority, released together: definition order, not list order.
    "same_instant_definition_order": ([T(10, 3, 2), T(10, 3, 2), T(10, 3, 2)], 30),
    # T1 overloads itself; its queued job becomes ready at its predecessor's completion,
    # behind T2's job that has been waiting since its release.
    "queued_job_ready_at_completion": ([T(4, 6, 3), T(50, 3, 3, None, 2)], 40),
    # A queued job becoming ready at t ties with a job released at t: task defined first.
    "tie_completion_and_release": ([T(3, 4, 1), T(4, 1, 1, None, 4)], 30),
}


@pytest.mark.parametrize("name", sorted(FIFO_CASES))
def test_fifo_among_equal_priorities(name: str) -> None:
    tasks, duration = FIFO_CASES[name]
    case = Case(-1, tuple(tasks), duration)
    scenario = case.scenario()
    result = run_scenario(scenario)
    problems = check_run(scenario, result)
    assert not problems, report(case, problems, result)


def test_preempted_job_keeps_its_place_exact_timeline() -> None:
    """The first FIFO case, derived by hand from SCHEDULING.md."""
    tasks, duration = FIFO_CASES["preempted_keeps_place"]
    result = run_scenario(make_scenario(tasks, duration))
    got = [(r.start, r.end, r.task, r.job) for r in result.timeline]
    assert got == [
        (0, 2, "T1", 0),
        (2, 4, "T3", 0),
        (4, 6, "T1", 0),
        (6, 8, "T2", 0),
        (8, 20, "idle", None),
    ]


# The checker itself: hand-made wrong schedules must be caught under the right letter.


def fake_result(scenario: Scenario, rows: Sequence[tuple[int, int, str, int | None]]) -> RunResult:
    """A RunResult with this timeline and a job table consistent with it (per the spec)."""
    timeline = [TimelineRow(s, e, "", task, job) for s, e, task, job in rows]
    done: dict[tuple[str, int], int] = {}
    ran: dict[tuple[str, int], int] = {}
    for row in timeline:
        if row.job is not None:
            key = (row.task, row.job)
            ran[key] = ran.get(key, 0) + row.end - row.start
            wcet = next(t.wcet for t in scenario.tasks if t.name == row.task)
            if ran[key] >= wcet:
                done.setdefault(key, row.end - (ran[key] - wcet))
    duration = scenario.system.duration
    jobs = []
    for e in expected_jobs(scenario):
        name = scenario.tasks[e.task].name
        finish = done.get((name, e.job))
        missed = finish > e.deadline if finish is not None else e.deadline < duration
        jobs.append(JobRow(name, e.job, e.release, e.deadline, finish, missed))
    return RunResult(scenario, timeline, jobs)


BROKEN: dict[str, tuple[list[T], int, list[tuple[int, int, str, int | None]]]] = {
    "(a)": (
        [T(10, 2, 1), T(10, 2, 2)],
        6,
        [(0, 2, "T1", 0), (2, 4, "T2", 0), (4, 6, "idle", None)],
    ),
    "(b)": ([T(10, 2, 1, None, 2)], 6, [(0, 2, "T1", 0), (2, 6, "idle", None)]),
    "(c)": ([T(10, 2, 1)], 6, [(0, 1, "idle", None), (1, 3, "T1", 0), (3, 6, "idle", None)]),
    "(d)": ([T(2, 3, 1)], 5, [(0, 2, "T1", 0), (2, 5, "T1", 1)]),
    "(e)": ([T(10, 2, 1)], 6, [(0, 3, "T1", 0), (3, 6, "idle", None)]),
    "(g)": (
        FIFO_CASES["preempted_keeps_place"][0],
        20,
        [(0, 2, "T1", 0), (2, 4, "T3", 0), (4, 6, "T2", 0), (6, 8, "T1", 0), (8, 20, "idle", None)],
    ),
}


@pytest.mark.parametrize("letter", sorted(BROKEN))
def test_checker_catches_wrong_schedules(letter: str) -> None:
    tasks, duration, rows = BROKEN[letter]
    scenario = make_scenario(tasks, duration)
    problems = check_run(scenario, fake_result(scenario, rows))
    assert problems and problems[0].startswith(letter), problems


def test_checker_catches_wrong_verdicts_and_tables() -> None:
    tasks, duration = FIFO_CASES["preempted_keeps_place"]
    scenario = make_scenario(tasks, duration)
    good = fake_result(
        scenario,
        [(0, 2, "T1", 0), (2, 4, "T3", 0), (4, 6, "T1", 0), (6, 8, "T2", 0), (8, 20, "idle", None)],
    )
    assert check_run(scenario, good) == []
    flipped = [
        JobRow(j.task, j.job, j.release, j.deadline, j.finish, not j.missed) for j in good.jobs
    ]
    problems = check_run(scenario, RunResult(scenario, good.timeline, flipped))
    assert problems and problems[0].startswith("(f)")
    late = [JobRow(j.task, j.job, j.release, j.deadline, 7, j.missed) for j in good.jobs]
    assert check_run(scenario, RunResult(scenario, good.timeline, late))[0].startswith("(e)")
    assert "job table" in check_run(scenario, RunResult(scenario, good.timeline, good.jobs[1:]))[0]


def test_checker_catches_wrong_miss_events() -> None:
    scenario = make_scenario([T(10, 6, 2), T(10, 6, 1)], 40)
    result = run_scenario(scenario)
    assert check_run(scenario, result) == []
    misses = [e for e in result.events if e.kind == "deadline_miss"]
    assert [(e.task, e.arg, e.time) for e in misses] == [
        ("T2", 0, 11.0),
        ("T2", 1, 21.0),
        ("T2", 2, 31.0),
    ]
    for events in (
        [e for e in result.events if e != misses[0]],
        [*result.events, misses[1]],
        [*result.events, TraceEvent(12.0, "deadline_miss", "T1", 1)],
    ):
        broken = RunResult(scenario, result.timeline, result.jobs, events)
        problems = check_run(scenario, broken)
        assert problems and problems[0].startswith("(f)"), problems
