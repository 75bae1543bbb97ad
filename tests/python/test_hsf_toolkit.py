"""Hierarchical scheduling in the toolkit, without the kernel: the per-server ``type``
key, the runner input compiled from a scenario (the HSF contract), and decoding of a
hand-made trace of the SCHEDULING.md worked example into timeline and budgets."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from takt import trace as tracemod
from takt.model import RunResult, Scenario, SystemConfig, Task
from takt.report import render_summary, to_chrome_trace, write_gantt, write_timeline
from takt.report._chart import build_chart
from takt.scenario import ScenarioError, load_scenario, parse_scenario
from takt.sim import RunError, compile_input, unsupported_reason
from takt.trace import IDLE_SERVER, RECORD, EventType, TraceFormatError

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = ROOT / "tests" / "expected"
TICK_NS = 1_000_000

HSF_TEXT = """
[system]
policy = "hsf"
duration = 50
[hsf]
server_type = "deferrable"
[[server]]
name = "A"
priority = 2
period = 20
budget = 5
[[server]]
name = "B"
priority = 1
period = 10
budget = 3
offset = 4
type = "idling"
[[task]]
name = "x"
server = "B"
priority = 1
period = 10
wcet = 2
[[task]]
name = "y"
server = "A"
priority = 3
period = 20
wcet = 1
"""


def test_server_type_defaults_to_hsf_server_type_and_can_be_set_per_server() -> None:
    s = parse_scenario(HSF_TEXT)
    assert [(v.name, v.server_type) for v in s.servers] == [("A", "deferrable"), ("B", "idling")]
    default = parse_scenario(HSF_TEXT.replace('server_type = "deferrable"', ""))
    assert [v.server_type for v in default.servers] == ["idling", "idling"]


@pytest.mark.parametrize(
    ("value", "problem"),
    [('"polling"', 'must be one of "idling" | "deferrable"'), ("1", "must be a string")],
)
def test_bad_server_type_is_rejected_with_line(value: str, problem: str) -> None:
    text = HSF_TEXT.replace('type = "idling"', f"type = {value}")
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text, "s.toml")
    line = text.splitlines().index(f"type = {value}") + 1
    assert err.value.line == line
    assert err.value.key == "server[1].type"
    assert problem in str(err.value) and 'server "B"' in str(err.value)


def test_compile_input_follows_the_contract() -> None:
    text = compile_input(parse_scenario(HSF_TEXT), tick_start=7)
    assert text == (
        "takt-scenario 1\n"
        "system 1000 50 0 7 hsf full\n"
        "server 2 20 5 0 deferrable A\n"
        "server 1 10 3 4 idling B\n"
        "task 1 10 2 10 0 x\n"
        "server-of 1\n"
        "task 3 20 1 20 0 y\n"
        "server-of 0\n"
    )


def test_compile_input_fp_unchanged() -> None:
    s = parse_scenario("[system]\nduration = 5\n[[task]]\nname = 'a'\npriority = 1\n"
                       "period = 5\nwcet = 1\n")  # fmt: skip
    assert compile_input(s) == "takt-scenario 1\nsystem 1000 5 0 0 fp full\ntask 1 5 1 5 0 a\n"


def test_server_names_the_runner_cannot_take() -> None:
    """The scenario refuses them (as task names) before anything is compiled."""
    text = HSF_TEXT.replace('name = "A"', 'name = "has space"').replace(
        'server = "A"', 'server = "has space"')  # fmt: skip
    with pytest.raises(ScenarioError, match="server name 'has space' must be one word"):
        parse_scenario(text)


@pytest.mark.parametrize("name", ["has space", "T1\n", "\nT1", "x" * 32, ""])
def test_compile_input_refuses_names_built_in_code(name: str) -> None:
    s = Scenario(system=SystemConfig(duration=5), tasks=(Task(name, 5, 1, 5, 0, 1),))
    with pytest.raises(RunError, match="task name"):
        compile_input(s)


def test_unsupported_hsf_variants_are_named() -> None:
    s = parse_scenario(HSF_TEXT.replace('server_type = "deferrable"', 'global = "edf"'))
    reason = unsupported_reason(s)
    assert reason is not None and '"edf"' in reason
    listq = parse_scenario(HSF_TEXT.replace("duration = 50", 'duration = 50\nready_queue = "list"'))
    reason = unsupported_reason(listq)
    assert reason is not None and '"list"' in reason
    assert unsupported_reason(parse_scenario(HSF_TEXT)) is None


# --- a hand-made trace of the idling worked example -------------------------

T1, T2, T3 = 1, 2, 3
S1, S2 = 0, 1
E = EventType


def encode(events: list[tuple[int, EventType, int, int]], *, header: str = "") -> bytes:
    head = (
        f"takt-trace 1\ntick_ns {TICK_NS}\ntask 1 T1\ntask 2 T2\ntask 3 T3\n"
        "server 0 S1\nserver 1 S2\ntask-server 1 0\ntask-server 2 0\ntask-server 3 1\n"
        + header
        + "events\n"
    )
    body = b"".join(RECORD.pack(t * TICK_NS, int(k), task, arg) for t, k, task, arg in events)
    return head.encode() + body


# What the kernel records for the idling example, per the contract (SERVER_SWITCH before
# the DISPATCH it causes; the idle task keeps running across a switch from S1 to S2).
IDLING_EVENTS: list[tuple[int, EventType, int, int]] = [
    (0, E.SERVER_REPLENISH, S1, 10), (0, E.SERVER_REPLENISH, S2, 15),
    (0, E.RELEASE, T1, 0), (0, E.RELEASE, T2, 0), (0, E.RELEASE, T3, 0),
    (0, E.SERVER_SWITCH, S1, 10), (0, E.DISPATCH, T2, 0),
    (2, E.COMPLETE, T2, 0), (2, E.DISPATCH, T1, 0),
    (6, E.COMPLETE, T1, 0), (6, E.DISPATCH, 0, 0),
    (10, E.SERVER_DEPLETE, S1, 0), (10, E.SERVER_SWITCH, S2, 15), (10, E.DISPATCH, T3, 0),
    (15, E.RELEASE, T2, 1),
    (20, E.COMPLETE, T3, 0), (20, E.SERVER_REPLENISH, S1, 10), (20, E.RELEASE, T1, 1),
    (20, E.SERVER_SWITCH, S1, 10), (20, E.DISPATCH, T2, 0),
    (22, E.COMPLETE, T2, 1), (22, E.DISPATCH, T1, 0),
    (26, E.COMPLETE, T1, 1), (26, E.DISPATCH, 0, 0),
    (30, E.SERVER_DEPLETE, S1, 0), (30, E.RELEASE, T2, 2), (30, E.SERVER_SWITCH, S2, 5),
    (35, E.SERVER_DEPLETE, S2, 0), (35, E.SERVER_SWITCH, IDLE_SERVER, 0),
    (40, E.SERVER_REPLENISH, S1, 10), (40, E.SERVER_REPLENISH, S2, 15),
    (40, E.RELEASE, T1, 2), (40, E.SERVER_SWITCH, S1, 10), (40, E.DISPATCH, T2, 0),
    (42, E.COMPLETE, T2, 2), (42, E.DISPATCH, T1, 0),
    (45, E.RELEASE, T2, 3), (45, E.PREEMPT, T1, 0), (45, E.DISPATCH, T2, 0),
    (47, E.COMPLETE, T2, 3), (47, E.DISPATCH, T1, 0),
    (48, E.COMPLETE, T1, 2), (48, E.DISPATCH, 0, 0),
]  # fmt: skip


def idling_scenario() -> Scenario:
    return load_scenario(ROOT / "examples" / "hsf_idling.toml")


def test_header_servers_and_task_servers_decode() -> None:
    trace = tracemod.decode(encode(IDLING_EVENTS))
    assert trace.server_names == {0: "S1", 1: "S2"}
    assert trace.task_servers == {1: 0, 2: 0, 3: 1}
    assert trace.hierarchical


def test_timeline_from_hand_made_trace_is_the_spec_timeline() -> None:
    trace = tracemod.decode(encode(IDLING_EVENTS))
    out = io.StringIO()
    write_timeline(tracemod.timeline(trace, 50), out)
    assert out.getvalue() == (EXPECTED / "hsf_idling.timeline.csv").read_text()


def test_budgets_from_hand_made_trace() -> None:
    budgets = tracemod.budgets(tracemod.decode(encode(IDLING_EVENTS)), idling_scenario())
    s1, s2 = budgets["S1"], budgets["S2"]
    assert s1.points == (
        (0, 0), (0, 10), (10, 0), (20, 0), (20, 10), (30, 0), (40, 0), (40, 10), (50, 0),
    )  # fmt: skip
    assert s2.points == (
        (0, 0), (0, 15), (10, 15), (20, 5), (30, 5), (35, 0), (40, 0), (40, 15), (50, 15),
    )  # fmt: skip
    assert (s1.replenishments, s1.depletions) == ((0, 20, 40), (10, 30))
    assert (s2.replenishments, s2.depletions) == ((0, 40), (35,))
    assert s1.capacity == 10 and s2.capacity == 15
    assert [s1.at(t) for t in (0, 5, 10, 15, 20, 25, 45)] == [10, 5, 0, 0, 10, 5, 5]
    assert [s2.at(t) for t in (12, 20, 33, 36, 40)] == [13, 5, 2, 0, 15]


def test_server_events_name_their_server() -> None:
    events = list(tracemod.events(tracemod.decode(encode(IDLING_EVENTS))))
    switches = [(e.time, e.task, e.arg) for e in events if e.kind == "server_switch"]
    assert switches[:2] == [(0.0, "S1", 10), (10.0, "S2", 15)]
    assert (35.0, "idle", 0) in switches
    assert ("server_deplete", "S2") in {(e.kind, e.task) for e in events if e.time == 35}


def test_no_servers_means_empty_server_column_and_no_budgets() -> None:
    data = (f"takt-trace 1\ntick_ns {TICK_NS}\ntask 1 a\nevents\n").encode() + b"".join(
        RECORD.pack(t * TICK_NS, int(k), task, arg)
        for t, k, task, arg in [(0, E.RELEASE, 1, 0), (0, E.DISPATCH, 1, 0),
                                (3, E.COMPLETE, 1, 0), (3, E.DISPATCH, 0, 0)]
    )  # fmt: skip
    trace = tracemod.decode(data)
    rows = tracemod.timeline(trace, 5)
    assert [(r.server, r.task) for r in rows] == [("", "a"), ("", "idle")]
    assert tracemod.budgets(trace, idling_scenario()) == {}


@pytest.mark.parametrize(
    ("header", "events", "message"),
    [
        ("task-server 1 5\n", [], "task-server names server 5"),
        ("server x S9\n", [], "trace header line"),
        ("", [(0, E.SERVER_REPLENISH, 7, 3)], "server 7"),
        ("", [(0, E.SERVER_DEPLETE, IDLE_SERVER, 0)], "idle server"),
    ],
)
def test_bad_server_records_are_format_errors(
    header: str, events: list[tuple[int, EventType, int, int]], message: str
) -> None:
    with pytest.raises(TraceFormatError, match=message):
        trace = tracemod.decode(encode(events, header=header))
        tracemod.budgets(trace, idling_scenario())


def test_hsf_preemption_modes_other_than_full_are_refused() -> None:
    s = parse_scenario(HSF_TEXT.replace("duration = 50", 'duration = 50\npreemption = "none"'))
    reason = unsupported_reason(s)
    assert reason is not None and '"none"' in reason


# --- reports of the hand-made run -------------------------------------------


def hand_made_run() -> RunResult:
    scenario = idling_scenario()
    trace = tracemod.decode(encode(IDLING_EVENTS))
    return RunResult(
        scenario,
        tracemod.timeline(trace, 50),
        tracemod.jobs(trace, scenario),
        list(tracemod.events(trace)),
        context_switches=13,
        budgets=tracemod.budgets(trace, scenario),
    )


def test_chart_takes_budgets_and_marks_from_the_run() -> None:
    chart = build_chart(hand_made_run())
    lanes = [(lane.kind, lane.name) for lane in chart.lanes]
    assert lanes == [
        ("server", "S1"), ("task", "T1"), ("task", "T2"),
        ("server", "S2"), ("task", "T3"), ("idle", "idle"),
    ]  # fmt: skip
    assert chart.budgets[0][:3] == [(0, 0), (0, 10), (10, 0)]
    assert chart.budget_max == {0: 10, 3: 15}
    assert chart.budget_marks == [
        (0, 0, "replenish"), (0, 10, "deplete"), (0, 20, "replenish"), (0, 30, "deplete"),
        (0, 40, "replenish"), (3, 0, "replenish"), (3, 35, "deplete"), (3, 40, "replenish"),
    ]  # fmt: skip


def test_gantt_png_and_html_of_the_run(tmp_path: Path) -> None:
    run = hand_made_run()
    write_gantt(run, tmp_path / "g.png")
    assert (tmp_path / "g.png").read_bytes()[:4] == b"\x89PNG"
    write_gantt(run, tmp_path / "g.html")
    page = (tmp_path / "g.html").read_text()
    assert '"budgetMarks":[[0,0,0],[0,10,1]' in page
    assert "replenished" in page and "depleted" in page


def test_perfetto_budget_counters_and_server_events_on_server_tracks() -> None:
    data = to_chrome_trace(hand_made_run())
    counters = [e for e in data["traceEvents"] if e["ph"] == "C"]
    assert {e["name"] for e in counters} == {"budget S1", "budget S2"}
    s2 = [(e["ts"], e["args"]["budget"]) for e in counters if e["name"] == "budget S2"]
    assert s2[:4] == [(0, 0), (0, 15), (10_000, 15), (20_000, 5)]
    names = {e["tid"]: e["args"]["name"] for e in data["traceEvents"] if e["name"] == "thread_name"}
    replenish = [e for e in data["traceEvents"] if e["name"] == "server_replenish"]
    assert {names[e["tid"]] for e in replenish} == {"server S1", "server S2"}


def test_summary_budget_use() -> None:
    text = render_summary(hand_made_run())
    rows = {ln.split()[0]: ln.split()[1:] for ln in text.splitlines() if ln.startswith("  S")}
    # S1: busy 2+4+2+4+2+3+2+1 = 20, idle 4+4+2 = 10; three replenishments of 10
    assert rows["S1"] == ["10/20", "20", "10", "30", "30", "100.0%", "2", "idling"]
    assert rows["S2"] == ["15/40", "10", "5", "15", "30", "50.0%", "1", "idling"]


def test_more_servers_than_the_runner_takes_are_refused() -> None:
    servers = "".join(
        f'[[server]]\nname = "S{i}"\npriority = 1\nperiod = 10\nbudget = 1\n' for i in range(257)
    )
    s = parse_scenario(
        '[system]\npolicy = "hsf"\n' + servers
        + '[[task]]\nname = "t"\nserver = "S0"\npriority = 1\nperiod = 10\nwcet = 1\n'
    )  # fmt: skip
    reason = unsupported_reason(s)
    assert reason is not None and "at most 256" in reason
