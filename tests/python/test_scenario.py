"""Tests for takt.scenario: valid scenarios parse, every kind of error is reported."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from takt.model import HsfConfig, Server, Task
from takt.scenario import ScenarioError, load_scenario, parse_scenario
from takt.sim import run_scenario

FP_TASK = """\
[[task]]
name = "T1"
priority = 1
period = 10
wcet = 2
"""


def doc(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def error_of(text: str, source: str = "s.toml") -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(doc(text), source)
    return info.value


def check(
    text: str,
    key: str | None,
    *fragments: str,
    line: int | None = None,
) -> ScenarioError:
    err = error_of(text)
    message = str(err)
    assert message.startswith("s.toml: "), message
    assert err.source == "s.toml"
    assert err.key == key, message
    if key is not None:
        # The key path (possibly decorated with the element's name) is in the message.
        assert key.split(".")[-1] in message
    for fragment in fragments:
        assert fragment in message, message
        assert fragment in err.problem or fragment in (err.label or ""), message
    if line is not None:
        assert err.line == line, message
        assert f"line {line}: " in message
    return err


# ---------------------------------------------------------------------------
# Valid scenarios


def test_minimal_fp_defaults() -> None:
    s = parse_scenario(doc(FP_TASK), "min.toml")
    assert s.source == "min.toml"
    assert s.system.policy == "fp"
    assert s.system.preemption == "full"
    assert s.system.ready_queue == "bitmap"
    assert s.system.port == "sim"
    assert s.system.priority == "explicit"
    assert s.system.round_robin is False
    assert s.tasks == (Task("T1", period=10, wcet=2, deadline=10, offset=0, priority=1),)
    assert s.servers == ()
    assert s.hsf is None


def test_full_fp_scenario() -> None:
    s = parse_scenario(
        doc(
            """
            [system]
            policy = "fp"            # comment
            preemption = "full"
            ready_queue = "list"
            tick_hz = 100
            duration = 200
            port = "qemu-m3"
            round_robin = true

            [[task]]
            name = "A"
            priority = 3
            period = 20
            wcet = 25                # wcet > deadline is allowed (it just misses)
            deadline = 15
            offset = 5

            [[task]]
            name = "B"
            priority = 3
            period = 10
            wcet = 1
            deadline = 30            # arbitrary deadlines are allowed
            """
        )
    )
    assert s.system.ready_queue == "list"
    assert s.system.tick_hz == 100 and s.system.duration == 200
    assert s.system.port == "qemu-m3" and s.system.round_robin is True
    assert [t.name for t in s.tasks] == ["A", "B"]
    assert s.tasks[0] == Task("A", period=20, wcet=25, deadline=15, offset=5, priority=3)
    assert s.tasks[1].deadline == 30


def test_edf_priority_optional_and_default_queue() -> None:
    s = parse_scenario(
        doc(
            """
            [system]
            policy = "edf"

            [[task]]
            name = "T1"
            period = 10
            wcet = 2

            [[task]]
            name = "T2"
            period = 10
            wcet = 2
            priority = 7
            """
        )
    )
    assert s.system.ready_queue == "heap"
    assert s.tasks[0].priority is None
    assert s.tasks[1].priority == 7


@pytest.mark.parametrize("queue", ["heap", "mlist", "rbtree", "hwpq"])
def test_edf_ready_queues(queue: str) -> None:
    s = parse_scenario(f'[system]\npolicy = "edf"\nready_queue = "{queue}"\n' + FP_TASK)
    assert s.system.ready_queue == queue


@pytest.mark.parametrize("queue", ["bitmap", "list", "hwpq"])
def test_fp_ready_queues(queue: str) -> None:
    s = parse_scenario(f'[system]\npolicy = "fp"\nready_queue = "{queue}"\n' + FP_TASK)
    assert s.system.ready_queue == queue


HSF_EXAMPLE = """
[system]
policy = "hsf"
duration = 50

[hsf]
server_type = "deferrable"
global = "fp"

[[server]]
name = "S1"
priority = 2
period = 20
budget = 10

[[server]]
name = "S2"
priority = 1
period = 40
budget = 15
offset = 3

[[task]]
name = "T1"
server = "S1"
priority = 1
period = 20
wcet = 4

[[task]]
name = "T2"
server = "S1"
priority = 2
period = 15
wcet = 2

[[task]]
name = "T3"
server = "S2"
priority = 2
period = 60
wcet = 10
"""


def test_hsf_worked_example() -> None:
    s = parse_scenario(doc(HSF_EXAMPLE))
    assert s.hsf == HsfConfig(server_type="deferrable", global_policy="fp")
    assert s.servers == (
        Server("S1", 2, 20, 10, server_type="deferrable"),
        Server("S2", 1, 40, 15, offset=3, server_type="deferrable"),
    )
    assert [(t.name, t.server, t.priority) for t in s.tasks] == [
        ("T1", "S1", 1),
        ("T2", "S1", 2),
        ("T3", "S2", 2),
    ]


def test_hsf_defaults_without_hsf_table() -> None:
    text = doc(HSF_EXAMPLE).replace('server_type = "deferrable"\nglobal = "fp"\n', "")
    text = text.replace("[hsf]\n", "")
    s = parse_scenario(text)
    assert s.hsf == HsfConfig()


def test_hsf_global_edf_accepted() -> None:
    s = parse_scenario(doc(HSF_EXAMPLE).replace('global = "fp"', 'global = "edf"'))
    assert s.hsf is not None and s.hsf.global_policy == "edf"


def test_budget_equal_to_period_is_fine() -> None:
    s = parse_scenario(doc(HSF_EXAMPLE).replace("budget = 10", "budget = 20"))
    assert s.servers[0].budget == 20


@pytest.mark.parametrize("policy", ["fp", "hsf"])
def test_deferred_preemption_with_segments(policy: str) -> None:
    base = doc(HSF_EXAMPLE) if policy == "hsf" else '[system]\npolicy = "fp"\n' + doc(FP_TASK)
    text = base.replace("[system]\n", '[system]\npreemption = "deferred"\n', 1)
    text = text.replace("wcet = 2\n", "wcet = 2\nsegments = [1, 1]\n", 1)
    s = parse_scenario(text)
    assert s.system.preemption == "deferred"
    assert [t.segments for t in s.tasks if t.segments] == [(1, 1)]
    assert all(t.segments is None for t in s.tasks if t.wcet != 2)


def test_preemption_none_with_fp() -> None:
    s = parse_scenario('[system]\npreemption = "none"\n' + FP_TASK)
    assert s.system.preemption == "none"


def test_inline_array_of_tables() -> None:
    s = parse_scenario('task = [{name = "A", priority = 1, period = 5, wcet = 1}]\n')
    assert s.tasks[0].name == "A"


# ---------------------------------------------------------------------------
# The message format


def test_message_format_names_file_line_task_and_problem() -> None:
    err = error_of(
        """
        [system]
        policy = "fp"

        [[task]]
        name = "T1"
        priority = 2
        period = 10
        wcet = 2

        [[task]]
        name = "T2"
        priority = 1
        period = 20
        wcet = 0
        """,
        source="examples/bad.toml",
    )
    assert str(err) == (
        'examples/bad.toml: line 14: task "T2" (task[1]).wcet: must be a positive integer, got 0'
    )
    assert err.source == "examples/bad.toml"
    assert err.key == "task[1].wcet"
    assert err.line == 14
    assert err.problem == "must be a positive integer, got 0"


def test_default_source_name() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario("")
    assert str(info.value).startswith("<string>: ")


def test_line_of_key_in_inline_table_is_the_enclosing_line() -> None:
    err = error_of(
        """
        task = [{name = "A", priority = 1, period = 0, wcet = 1}]

        [system]
        policy = "fp"
        """
    )
    assert err.key == "task[0].period" and err.line == 1
    assert 'task "A" (task[0]).period' in str(err)


# ---------------------------------------------------------------------------
# Unknown keys and tables


def test_unknown_key_in_system() -> None:
    check('[system]\npolicy = "fp"\nspeed = 3\n' + FP_TASK, "system.speed", '"speed"', line=3)


def test_unknown_key_in_hsf() -> None:
    text = doc(HSF_EXAMPLE).replace('global = "fp"', 'global = "fp"\nbudget_policy = 1')
    check(text, "hsf.budget_policy", 'unknown key "budget_policy"', line=8)


def test_unknown_key_in_server() -> None:
    text = doc(HSF_EXAMPLE).replace("budget = 15", "budget = 15\nbugdet = 3")
    err = check(text, "server[1].bugdet", 'unknown key "bugdet"', line=20)
    assert 'server "S2" (server[1]).bugdet' in str(err)
    assert "allowed: name, priority, period, budget, offset" in str(err)


def test_unknown_key_in_task() -> None:
    err = check(FP_TASK + "wcet_us = 3\n", "task[0].wcet_us", 'unknown key "wcet_us"', line=6)
    assert 'task "T1" (task[0])' in str(err)


def test_unknown_top_level_table() -> None:
    check(FP_TASK + "\n[tasks]\nx = 1\n", "tasks", 'unknown top-level table "tasks"', line=7)


def test_unknown_top_level_array_of_tables() -> None:
    check(FP_TASK + "\n[[servers]]\nname = 1\n", "servers", "unknown top-level table", line=7)


def test_unknown_top_level_key() -> None:
    check("version = 2\n" + FP_TASK, "version", 'unknown top-level key "version"', line=1)


def test_task_written_as_single_table() -> None:
    check('[task]\nname = "T"\n', "task", "write [[task]], not [task]", line=1)


def test_system_not_a_table() -> None:
    check('system = "fp"\n' + FP_TASK, "system", "must be a table", line=1)


# ---------------------------------------------------------------------------
# Missing required fields


@pytest.mark.parametrize("field", ["name", "period", "wcet", "priority"])
def test_task_missing_required_field(field: str) -> None:
    lines = [line for line in doc(FP_TASK).splitlines() if not line.startswith(field + " ")]
    check("\n".join(lines) + "\n", f"task[0].{field}", f'missing required key "{field}"', line=1)


def test_task_missing_priority_under_hsf() -> None:
    text = doc(HSF_EXAMPLE).replace('server = "S1"\npriority = 1\n', 'server = "S1"\n')
    check(text, "task[0].priority", 'missing required key "priority"', line=22)


@pytest.mark.parametrize("field", ["name", "priority", "period", "budget"])
def test_server_missing_required_field(field: str) -> None:
    text = doc(HSF_EXAMPLE)
    first = text.index("[[server]]")
    second = text.index("[[server]]", first + 1)
    block = text[first:second]
    new_block = "\n".join(line for line in block.splitlines() if not line.startswith(field + " "))
    text = text[:first] + new_block + "\n\n" + text[second:]
    check(text, f"server[0].{field}", f'missing required key "{field}"', line=9)


def test_no_tasks() -> None:
    check('[system]\npolicy = "fp"\n', "task", "no tasks")


def test_empty_task_array() -> None:
    check('task = []\n[system]\npolicy = "fp"\n', "task", "no tasks")


def test_empty_document() -> None:
    check("", "task", "no tasks")


# ---------------------------------------------------------------------------
# Wrong types


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("true", "got boolean true"),
        ("2.0", "got float 2.0"),
        ('"2"', 'got string "2"'),
        ("[2]", "got array"),
    ],
)
def test_task_period_wrong_type(value: str, expected: str) -> None:
    text = doc(FP_TASK).replace("period = 10", f"period = {value}")
    err = check(text, "task[0].period", "must be a positive integer", expected, line=4)
    if value == "2.0":
        assert "integer ticks" in str(err)


def test_bool_priority_is_not_an_int() -> None:
    text = doc(FP_TASK).replace("priority = 1", "priority = true")
    check(text, "task[0].priority", "got boolean true", line=3)


def test_name_must_be_string() -> None:
    check(doc(FP_TASK).replace('name = "T1"', "name = 1"), "task[0].name", "must be a string")


def test_policy_must_be_string() -> None:
    check("[system]\npolicy = 1\n" + FP_TASK, "system.policy", "must be a string, got integer 1")


def test_round_robin_must_be_bool() -> None:
    check(
        '[system]\nround_robin = "yes"\n' + FP_TASK,
        "system.round_robin",
        "must be a boolean",
        line=2,
    )


def test_duration_float() -> None:
    check("[system]\nduration = 1e3\n" + FP_TASK, "system.duration", "got float 1000.0", line=2)


def test_server_budget_float() -> None:
    text = doc(HSF_EXAMPLE).replace("budget = 10", "budget = 2.5")
    check(text, "server[0].budget", "got float 2.5", line=13)


# ---------------------------------------------------------------------------
# Out-of-range numbers


@pytest.mark.parametrize(
    ("field", "value"),
    [("period", "0"), ("wcet", "0"), ("period", "-5"), ("wcet", "-1"), ("deadline", "0")],
)
def test_task_non_positive(field: str, value: str) -> None:
    if field == "deadline":
        text = FP_TASK + f"deadline = {value}\n"
    else:
        text = re.sub(rf"^{field} = .*$", f"{field} = {value}", FP_TASK, flags=re.MULTILINE)
    check(text, f"task[0].{field}", f"must be a positive integer, got {value}")


@pytest.mark.parametrize("field", ["duration", "tick_hz"])
def test_system_non_positive(field: str) -> None:
    check(f"[system]\n{field} = 0\n" + FP_TASK, f"system.{field}", "positive integer, got 0")


def test_server_budget_non_positive() -> None:
    text = doc(HSF_EXAMPLE).replace("budget = 10", "budget = 0")
    check(text, "server[0].budget", "must be a positive integer, got 0", line=13)


def test_server_period_non_positive() -> None:
    text = doc(HSF_EXAMPLE).replace("period = 20\nbudget", "period = 0\nbudget")
    check(text, "server[0].period", "must be a positive integer, got 0", line=12)


def test_negative_task_offset() -> None:
    check(FP_TASK + "offset = -1\n", "task[0].offset", "non-negative integer, got -1", line=6)


def test_negative_server_offset() -> None:
    text = doc(HSF_EXAMPLE).replace("offset = 3", "offset = -3")
    check(text, "server[1].offset", "non-negative integer, got -3", line=20)


def test_zero_offset_is_fine() -> None:
    assert parse_scenario(FP_TASK + "offset = 0\n").tasks[0].offset == 0


def test_budget_exceeds_period() -> None:
    text = doc(HSF_EXAMPLE).replace("budget = 10", "budget = 21")
    check(text, "server[0].budget", "budget 21 > period 20", line=13)


@pytest.mark.parametrize("value", ["0", "256", "-1"])
def test_task_priority_range(value: str) -> None:
    text = doc(FP_TASK).replace("priority = 1", f"priority = {value}")
    check(text, "task[0].priority", "from 1 to 255", "reserved for idle", f"got {value}", line=3)


@pytest.mark.parametrize("value", ["0", "300"])
def test_server_priority_range(value: str) -> None:
    text = doc(HSF_EXAMPLE).replace(
        "priority = 2\nperiod = 20\nbudget", f"priority = {value}\nperiod = 20\nbudget"
    )
    check(text, "server[0].priority", "from 1 to 255", line=11)


def test_priority_255_and_1_accepted() -> None:
    text = doc(FP_TASK).replace("priority = 1", "priority = 255") + doc(FP_TASK).replace(
        '"T1"', '"T2"'
    )
    assert [t.priority for t in parse_scenario(text).tasks] == [255, 1]


# ---------------------------------------------------------------------------
# Segments


def deferred(text: str) -> str:
    return '[system]\npreemption = "deferred"\n' + doc(text)


def test_segments_must_sum_to_wcet() -> None:
    check(
        deferred(FP_TASK) + "segments = [1, 2]\n",
        "task[0].segments",
        "must sum to wcet",
        "1 + 2 = 3",
        "wcet = 2",
        line=8,
    )


@pytest.mark.parametrize("value", ["[1, 0, 1]", "[2.0]", "[true, 1]", '["2"]', "[-1, 3]"])
def test_segments_must_be_positive_ints(value: str) -> None:
    check(deferred(FP_TASK) + f"segments = {value}\n", "task[0].segments", "positive integers")


@pytest.mark.parametrize("value", ["[]", "2"])
def test_segments_must_be_non_empty_list(value: str) -> None:
    check(deferred(FP_TASK) + f"segments = {value}\n", "task[0].segments", "non-empty array")


@pytest.mark.usefixtures("runner")
def test_segments_are_at_most_what_the_runner_takes(tmp_path: Path) -> None:
    task = FP_TASK.replace("period = 10\nwcet = 2", "period = 100\nwcet = 65")
    ones = ", ".join(["1"] * 65)
    check(deferred(task) + f"segments = [{ones}]\n", "task[0].segments", "at most 64 subjobs")
    sixty_four = deferred(task.replace("wcet = 65", "wcet = 64"))
    scenario = tmp_path / "s.toml"
    scenario.write_text(sixty_four + f"segments = [{', '.join(['1'] * 64)}]\n")
    assert run_scenario(load_scenario(scenario)).jobs  # the runner takes 64


@pytest.mark.parametrize("preemption", ["full", "none"])
def test_segments_need_deferred_preemption(preemption: str) -> None:
    text = f'[system]\npreemption = "{preemption}"\n' + doc(FP_TASK) + "segments = [1, 1]\n"
    check(
        text,
        "task[0].segments",
        'only allowed with preemption = "deferred"',
        f'preemption is "{preemption}"',
        line=8,
    )


# ---------------------------------------------------------------------------
# Servers and policies


def test_task_names_missing_server() -> None:
    text = doc(HSF_EXAMPLE).replace('server = "S2"', 'server = "S9"')
    err = check(text, "task[2].server", 'server "S9"', "not defined", line=38)
    assert "S1, S2" in str(err)


def test_task_server_key_without_hsf() -> None:
    check(FP_TASK + 'server = "S1"\n', "task[0].server", 'only allowed with policy = "hsf"', line=6)


def test_task_without_server_under_hsf() -> None:
    text = doc(HSF_EXAMPLE).replace('server = "S2"\n', "")
    check(text, "task[2].server", 'missing required key "server"', line=36)


def test_server_must_be_string() -> None:
    text = doc(HSF_EXAMPLE).replace('server = "S2"', "server = 2")
    check(text, "task[2].server", "must be a string")


def test_servers_without_hsf_policy() -> None:
    text = doc(FP_TASK) + '\n[[server]]\nname = "S1"\npriority = 1\nperiod = 10\nbudget = 5\n'
    check(text, "server", "[[server]] tables are only allowed", 'policy is "fp"', line=7)


def test_hsf_table_without_hsf_policy() -> None:
    text = '[system]\npolicy = "edf"\n\n[hsf]\nserver_type = "idling"\n' + FP_TASK
    check(text, "hsf", "[hsf] table is only allowed", 'policy is "edf"', line=4)


# ---------------------------------------------------------------------------
# Names


def test_duplicate_task_names() -> None:
    err = check(FP_TASK + FP_TASK, "task[1].name", 'duplicate task name "T1"', "task[0]", line=7)
    assert err.line == 7


def test_duplicate_server_names() -> None:
    text = doc(HSF_EXAMPLE).replace('name = "S2"', 'name = "S1"')
    check(text, "server[1].name", 'duplicate server name "S1"', line=16)


def test_task_named_idle() -> None:
    check(doc(FP_TASK).replace('"T1"', '"idle"'), "task[0].name", '"idle" is reserved', line=2)


def test_server_named_idle() -> None:
    text = doc(HSF_EXAMPLE).replace('name = "S2"', 'name = "idle"')
    check(text, "server[1].name", '"idle" is reserved', line=16)


def test_empty_task_name() -> None:
    check(doc(FP_TASK).replace('"T1"', '""'), "task[0].name", "must not be empty")


# ---------------------------------------------------------------------------
# Enumerations


@pytest.mark.parametrize(
    ("key", "value", "fragment"),
    [
        ("policy", "rms", '"fp" | "edf" | "hsf"'),
        ("preemption", "partial", '"full" | "none" | "deferred"'),
        ("port", "qemu-m7", '"sim" | "qemu-m3" | "qemu-m4"'),
        ("priority", "edf", '"explicit" | "rm" | "dm"'),
        ("ready_queue", "heap", '"bitmap" | "list" | "hwpq" for policy "fp"'),
    ],
)
def test_system_enums(key: str, value: str, fragment: str) -> None:
    check(f'[system]\n{key} = "{value}"\n' + FP_TASK, f"system.{key}", fragment, value, line=2)


def test_edf_ready_queue_rejects_bitmap() -> None:
    text = '[system]\npolicy = "edf"\nready_queue = "bitmap"\n' + FP_TASK
    check(text, "system.ready_queue", '"heap" | "mlist" | "rbtree" | "hwpq"', line=3)


def test_hsf_ready_queue_rejects_rbtree() -> None:
    text = doc(HSF_EXAMPLE).replace('policy = "hsf"', 'policy = "hsf"\nready_queue = "rbtree"')
    check(text, "system.ready_queue", 'for policy "hsf"', line=3)


@pytest.mark.parametrize("preemption", ["none", "deferred"])
def test_non_full_preemption_needs_fixed_priority(preemption: str) -> None:
    text = f'[system]\npolicy = "edf"\npreemption = "{preemption}"\n' + FP_TASK
    check(text, "system.preemption", 'only available with policy "fp" or "hsf"', line=3)


def test_hsf_server_type() -> None:
    text = doc(HSF_EXAMPLE).replace('"deferrable"', '"polling"')
    check(text, "hsf.server_type", '"idling" | "deferrable"', '"polling"', line=6)


def test_hsf_global() -> None:
    text = doc(HSF_EXAMPLE).replace('global = "fp"', 'global = "rr"')
    check(text, "hsf.global", '"fp" | "edf"', line=7)


# ---------------------------------------------------------------------------
# Priority assignment


def rm_text(assignment: str, tasks: list[tuple[str, int, int]]) -> str:
    parts = [f'[system]\npriority = "{assignment}"\n']
    for name, period, deadline in tasks:
        parts.append(
            f'[[task]]\nname = "{name}"\nperiod = {period}\nwcet = 1\ndeadline = {deadline}\n'
        )
    return "\n".join(parts)


def test_rm_assignment_with_ties() -> None:
    s = parse_scenario(rm_text("rm", [("A", 20, 5), ("B", 10, 10), ("C", 20, 20), ("D", 5, 5)]))
    # Shorter period first; A and C tie at 20, A is defined first.
    assert {t.name: t.priority for t in s.tasks} == {"D": 4, "B": 3, "A": 2, "C": 1}
    assert [t.name for t in s.tasks] == ["A", "B", "C", "D"]


def test_dm_assignment_with_ties() -> None:
    s = parse_scenario(rm_text("dm", [("A", 20, 5), ("B", 10, 10), ("C", 20, 20), ("D", 5, 5)]))
    # Shorter deadline first; A and D tie at 5, A is defined first.
    assert {t.name: t.priority for t in s.tasks} == {"A": 4, "D": 3, "B": 2, "C": 1}


def test_rm_with_explicit_priority_is_ambiguous() -> None:
    text = '[system]\npriority = "rm"\n' + FP_TASK
    check(text, "task[0].priority", "ambiguous", '"rm"', line=5)


def test_dm_with_explicit_priority_is_ambiguous() -> None:
    text = '[system]\npriority = "dm"\n' + FP_TASK
    check(text, "task[0].priority", "ambiguous", '"dm"')


def test_rm_within_each_server_under_hsf() -> None:
    text = doc(HSF_EXAMPLE).replace("[system]\n", '[system]\npriority = "rm"\n')
    # Drop the task priorities (the servers keep theirs).
    out: list[str] = []
    in_task = False
    for line in text.splitlines():
        if line.startswith("[["):
            in_task = line == "[[task]]"
        if in_task and line.startswith("priority"):
            continue
        out.append(line)
    s = parse_scenario("\n".join(out) + "\n")
    # S1: T2 (T=15) above T1 (T=20); S2: T3 alone gets 1.
    assert {t.name: t.priority for t in s.tasks} == {"T1": 1, "T2": 2, "T3": 1}
    assert [sv.priority for sv in s.servers] == [2, 1]


# ---------------------------------------------------------------------------
# Loading files


def test_load_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "ok.toml"
    path.write_text(doc(FP_TASK), encoding="utf-8")
    s = load_scenario(path)
    assert s.source == str(path)
    assert s.tasks[0].name == "T1"


def test_load_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(ScenarioError) as info:
        load_scenario(str(path))
    assert str(info.value) == f"{path}: file not found"
    assert info.value.key is None and info.value.line is None


def test_load_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(b'[[task]]\nname = "T\xe9"\n')
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.line == 2
    assert "not valid UTF-8" in str(info.value)
    assert str(path) in str(info.value)


def test_load_toml_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[system]\npolicy = \n", encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.line == 2
    assert str(info.value).startswith(f"{path}: line 2: TOML syntax error: Invalid value")


def test_toml_duplicate_key_is_syntax_error() -> None:
    err = error_of(FP_TASK + "wcet = 3\n")
    assert err.line == 6 and "TOML syntax error" in str(err)


def test_load_directory(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError):
        load_scenario(tmp_path)


# ---- names the kernels and the outputs can carry; limits of the whole file ----


@pytest.mark.parametrize(
    "name",
    ["T1\\n", "T\\u0000X", "T1\\u0085", "two words", "tab\\there", "\\u001b[31mRED", "T1\\r"],
)
def test_task_name_must_be_one_printable_word(name: str) -> None:
    err = check(
        f'[[task]]\nname = "{name}"\npriority = 1\nperiod = 10\nwcet = 2\n',
        "task[0].name",
        "one word of printable characters",
    )
    assert "\x1b" not in str(err) and "\x00" not in str(err)  # shown escaped
    assert len(str(err).splitlines()) == 1


def test_server_name_must_be_one_printable_word() -> None:
    check(
        '[system]\npolicy = "hsf"\n[[server]]\nname = "S 1"\npriority = 1\nperiod = 10\n'
        'budget = 5\n[[task]]\nname = "T"\nserver = "S 1"\npriority = 1\nperiod = 10\n'
        "wcet = 1\n",
        "server[0].name",
        "one word",
    )


def test_name_longer_than_the_kernels_keep_is_refused() -> None:
    parse_scenario(FP_TASK.replace('"T1"', '"' + "x" * 31 + '"'))
    check(FP_TASK.replace('"T1"', '"' + "x" * 32 + '"'), "task[0].name", "32 bytes", "at most 31")
    check(FP_TASK.replace('"T1"', '"' + "é" * 16 + '"'), "task[0].name", "32 bytes")


def test_tick_hz_above_a_gigahertz_is_refused() -> None:
    parse_scenario("[system]\ntick_hz = 1000000000\n" + FP_TASK)
    check("[system]\ntick_hz = 1000000001\n" + FP_TASK, "system.tick_hz", "at most 1000000000")


@pytest.mark.parametrize("depth", [1000, 3000])
def test_deep_nesting_is_a_clear_error(depth: int) -> None:
    err = error_of("a = " + "[" * depth + "]" * depth + "\n")
    assert "nesting too deep" in str(err)
    err = error_of("x = " + "{a=" * depth + "1" + "}" * depth + "\n")
    assert "nesting too deep" in str(err)


def test_byte_order_mark_is_named() -> None:
    with pytest.raises(ScenarioError, match="byte-order mark"):
        parse_scenario("\ufeff" + FP_TASK, "s.toml")


def test_a_file_longer_than_a_scenario_can_be_is_refused_unread(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="longer than 16 MiB: not a scenario file"):
        load_scenario("/dev/zero")  # read to the limit, not until memory runs out
    padded = tmp_path / "padded.toml"
    padded.write_text(FP_TASK + "#" * (16 * 1024 * 1024))
    with pytest.raises(ScenarioError, match="longer than 16 MiB"):
        load_scenario(padded)


def test_an_integer_of_thousands_of_digits_is_a_clear_error() -> None:
    # Python will not convert a decimal of more than 4300 digits (tomllib raises
    # ValueError) nor write one back in a message (str() raises).
    err = error_of("[system]\nduration = 10\n" + FP_TASK.replace("10", "1" + "0" * 5000))
    assert err.line == 6 and "an integer with thousands of digits" in str(err)
    check(
        FP_TASK.replace("period = 10", "period = 0x" + "f" * 5000),
        "task[0].period",
        "got 3.980e6020, 6021 digits",
        line=4,
    )
    check(
        FP_TASK.replace("wcet = 2", "wcet = -1" + "0" * 400),
        "task[0].wcet",
        "got -1.000e400, 401 digits",
    )


def test_edf_refuses_the_fixed_priority_settings() -> None:
    edf = '[system]\npolicy = "edf"\n'
    check(edf + "round_robin = true\n" + FP_TASK, "system.round_robin", "never rotates", line=3)
    parse_scenario(edf + "round_robin = false\n" + FP_TASK)
    check(edf + 'priority = "rm"\n' + FP_TASK, "system.priority", 'priority = "rm"', line=3)
    check(edf + 'priority = "dm"\n' + FP_TASK, "system.priority", "orders jobs by deadline")
    parse_scenario(edf + 'priority = "explicit"\n' + FP_TASK)


@pytest.mark.parametrize(
    "name_line",
    [
        'name = """A""" # """ is a triple quote',
        "name = 'A' # ''' is another",
        'name = "A\\"\\"\\"" # an escaped quote is no delimiter',
        'name = """A""""  # a quote of the content touches the delimiter',
        'name = """A\\\n  """ # a line-ending backslash: the string goes on',
    ],
)
def test_an_error_after_strings_and_comments_with_triple_quotes_names_its_line(
    name_line: str,
) -> None:
    first = f"[[task]]\n{name_line}\npriority = 1\nperiod = 10\nwcet = 1\n"
    second = '[[task]]\nname = "B"\npriority = 1\nperiod = 10\nwcet = 0\n'
    text = "[system]\nduration = 10\n" + first + second
    err = error_of(text)
    assert err.key == "task[1].wcet"
    assert err.line == text.count("\n"), str(err)
