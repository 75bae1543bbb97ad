"""Scenario files written from the model: the inverse of :mod:`takt.scenario`.

``parse_scenario(scenario_toml(s))`` gives back ``s`` (its source aside), so a
generated task set can be stored, edited by hand and run like any other file.
Every field is written, defaults too, so a file says all it means. Under an
``rm``/``dm`` priority assignment the task priorities are left out: the parser
derives them again from the rule.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from takt.model import Scenario, Server, SystemConfig, Task

__all__ = ["scenario_toml"]


def _string(value: str) -> str:
    # A JSON string is a valid TOML basic string for the names the parser accepts
    # (printable, no control characters).
    return json.dumps(value, ensure_ascii=False)


def _system_lines(system: SystemConfig) -> list[str]:
    lines = [
        "[system]",
        f"policy = {_string(system.policy)}",
        f"preemption = {_string(system.preemption)}",
        f"ready_queue = {_string(system.ready_queue)}",
        f"tick_hz = {system.tick_hz}",
        f"duration = {system.duration}",
        f"port = {_string(system.port)}",
    ]
    if system.priority != "explicit":
        lines.append(f"priority = {_string(system.priority)}")
    if system.round_robin:
        lines.append("round_robin = true")
    if system.tickless:
        lines.append("tickless = true")
    return lines


def _server_lines(server: Server) -> list[str]:
    return [
        "",
        "[[server]]",
        f"name = {_string(server.name)}",
        f"type = {_string(server.server_type)}",
        f"priority = {server.priority}",
        f"period = {server.period}",
        f"budget = {server.budget}",
        f"offset = {server.offset}",
    ]


def _task_lines(task: Task, derived_priorities: bool) -> list[str]:
    lines = ["", "[[task]]", f"name = {_string(task.name)}"]
    if task.server is not None:
        lines.append(f"server = {_string(task.server)}")
    if task.priority is not None and not derived_priorities:
        lines.append(f"priority = {task.priority}")
    lines += [
        f"period = {task.period}",
        f"wcet = {task.wcet}",
        f"deadline = {task.deadline}",
        f"offset = {task.offset}",
    ]
    if task.segments is not None:
        lines.append("segments = [" + ", ".join(str(s) for s in task.segments) + "]")
    return lines


def scenario_toml(scenario: Scenario, comments: Sequence[str] = ()) -> str:
    """The scenario as a TOML file; ``comments`` open it, one ``#`` line each."""
    lines = [f"# {c}" if c else "#" for c in comments]
    lines += _system_lines(scenario.system)
    if scenario.hsf is not None:
        lines += [
            "",
            "[hsf]",
            f"server_type = {_string(scenario.hsf.server_type)}",
            f"global = {_string(scenario.hsf.global_policy)}",
        ]
    for server in scenario.servers:
        lines += _server_lines(server)
    derived = scenario.system.priority != "explicit"
    for task in scenario.tasks:
        lines += _task_lines(task, derived)
    return "\n".join(lines) + "\n"
