"""Parse and validate scenario files (SCENARIO.md) into the typed model.

This is the only place where scenario input is checked: everything downstream trusts
the :class:`~takt.model.Scenario` it gets. Any problem is reported as a
:class:`ScenarioError` naming the file, the key path (and the line when it can be
found in the raw text) and what is wrong, e.g.::

    examples/bad.toml: line 12: task "T2" (task[1]).wcet: must be a positive integer, got 0

Beyond SCENARIO.md, ``[system]`` accepts ``priority = "explicit" | "rm" | "dm"``
(default ``"explicit"``), ``round_robin = <bool>`` and ``tickless = <bool>`` (tickless
idle, not with ``policy = "hsf"``; both default ``false``); a ``[[server]]``
accepts ``type = "idling" | "deferrable"`` (default: ``[hsf] server_type``). With ``rm``
(rate monotonic) or ``dm`` (deadline monotonic), tasks must not give a priority; the
tool assigns the distinct priorities n..1 to the n tasks (within each server under
``hsf``), shorter period (resp. relative deadline) first, ties to the task defined first.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from typing import Final, NoReturn, cast

from takt.model import (
    HsfConfig,
    Policy,
    Preemption,
    PriorityAssignment,
    Scenario,
    Server,
    ServerType,
    SystemConfig,
    Task,
)
from takt.number_text import count_text

__all__ = ["ScenarioError", "load_scenario", "parse_scenario", "rule_order"]

# The kernel's time is 32 bits, compared by signed difference: every interval
# (period, deadline, offset, budget, run length) must fit in half that range.
MAX_TICKS = 2**31 - 1
TICKS_LIMIT_NOTE = "ticks (the kernel's 32-bit time compares intervals within half its range)"
# A job's miss is checked one tick after its deadline, which must be in that range too.
MAX_DEADLINE: Final = MAX_TICKS - 1
DEADLINE_LIMIT_NOTE = (
    "ticks (the kernel checks for a miss one tick after the deadline, within half the "
    "range of its 32-bit time)"
)
PRIORITY_MIN: Final = 1
PRIORITY_MAX: Final = 255
RESERVED_NAME: Final = "idle"
MAX_NAME_BYTES: Final = 31  # the kernels' TAKT_CONFIG_MAX_NAME_LEN (32) with its terminator
MAX_TICK_HZ: Final = 1_000_000_000
MAX_SEGMENTS: Final = 64  # the runner's RUNNER_MAX_SEGMENTS (apps/runner/scenario_input.h)
# A scenario of the most tasks and servers the runner takes, every key written out,
# is well under a megabyte: a longer file is not a scenario (or is /dev/zero).
MAX_SCENARIO_BYTES: Final = 16 * 1024 * 1024

POLICIES: Final[tuple[str, ...]] = ("fp", "edf", "hsf")
PREEMPTIONS: Final[tuple[str, ...]] = ("full", "none", "deferred")
PORTS: Final[tuple[str, ...]] = ("sim", "qemu-m3", "qemu-m4")
SERVER_TYPES: Final[tuple[str, ...]] = ("idling", "deferrable")
GLOBAL_POLICIES: Final[tuple[str, ...]] = ("fp", "edf")
PRIORITY_ASSIGNMENTS: Final[tuple[str, ...]] = ("explicit", "rm", "dm")
# First entry of each tuple is the default.
READY_QUEUES: Final[dict[str, tuple[str, ...]]] = {
    "fp": ("bitmap", "list", "hwpq"),
    "edf": ("heap", "mlist", "rbtree", "hwpq"),
    "hsf": ("bitmap", "list"),
}

TOP_LEVEL_KEYS: Final = ("system", "hsf", "server", "task")
SYSTEM_KEYS: Final = (
    "policy",
    "preemption",
    "ready_queue",
    "tick_hz",
    "duration",
    "port",
    "priority",
    "round_robin",
    "tickless",
)
HSF_KEYS: Final = ("server_type", "global")
SERVER_KEYS: Final = ("name", "priority", "period", "budget", "offset", "type")
TASK_KEYS: Final = (
    "name",
    "server",
    "priority",
    "period",
    "wcet",
    "deadline",
    "offset",
    "segments",
)

PathPart = str | int
KeyPath = tuple[PathPart, ...]


class ScenarioError(Exception):
    """An invalid scenario (or a file that cannot be read as one).

    Attributes:
        source: the file name (or ``"<string>"``).
        key: the key path in the document, e.g. ``"task[1].wcet"``; None when the
            problem is not tied to one key (unreadable file, syntax error).
        line: 1-based line in the file, when known.
        problem: what is wrong, in words.
    """

    def __init__(
        self,
        source: str,
        key: str | None,
        line: int | None,
        problem: str,
        *,
        label: str | None = None,
    ) -> None:
        self.source = source
        self.key = key
        self.line = line
        self.problem = problem
        self.label = label if label is not None else key
        parts = [source]
        if line is not None:
            parts.append(f"line {line}")
        if self.label:
            parts.append(self.label)
        parts.append(problem)
        super().__init__(": ".join(parts))


# ---------------------------------------------------------------------------
# Locating keys in the raw text (tomllib gives no positions).

_BARE = r"[A-Za-z0-9_-]+"
_BASIC = r'"(?:[^"\\\n]|\\.)*"'
_LITERAL = r"'[^'\n]*'"
_SIMPLE_KEY = rf"(?:{_BARE}|{_BASIC}|{_LITERAL})"
_DOTTED_KEY = rf"{_SIMPLE_KEY}(?:\s*\.\s*{_SIMPLE_KEY})*"
_ARRAY_HEADER_RE = re.compile(rf"^\s*\[\[\s*({_DOTTED_KEY})\s*\]\]")
_TABLE_HEADER_RE = re.compile(rf"^\s*\[\s*({_DOTTED_KEY})\s*\]")
_KEY_LINE_RE = re.compile(rf"^\s*({_DOTTED_KEY})\s*=")
_SIMPLE_KEY_RE = re.compile(_SIMPLE_KEY)
_LONG_DIGITS_RE = re.compile(r"[0-9_]{4000,}")
_TOML_POS_RE = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_END_RE = re.compile(r"\s*\(at end of document\)\s*$")


def _split_dotted(key: str) -> list[str]:
    parts: list[str] = []
    for m in _SIMPLE_KEY_RE.finditer(key):
        s = m.group(0)
        if s[0] in "\"'":
            s = s[1:-1]
        parts.append(s)
    return parts


def _open_multiline(line: str, inside: str | None) -> str | None:
    """The multi-line string delimiter (\"\"\" or ''') still open after ``line``, given
    the one open before it (None: none). One-line strings and comments are skipped as
    TOML reads them, so a triple quote inside either opens nothing."""
    i, n = 0, len(line)
    while i < n:
        if inside is not None:
            end = line.find(inside, i)
            while end > 0 and inside == '"""' and _escaped(line, end):
                end = line.find(inside, end + 1)
            if end < 0:
                return inside
            i = end + 3
            extra = 0  # up to two quotes of the content may touch the delimiter
            while i < n and extra < 2 and line[i] == inside[0]:
                i += 1
                extra += 1
            inside = None
            continue
        char = line[i]
        if char == "#":
            return None
        if line.startswith('"""', i) or line.startswith("'''", i):
            inside = line[i : i + 3]
            i += 3
        elif char == '"':
            i += 1
            while i < n and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
            i += 1
        elif char == "'":
            close = line.find("'", i + 1)
            i = n if close < 0 else close + 1
        else:
            i += 1
    return inside


def _escaped(line: str, at: int) -> bool:
    """Whether the character at ``at`` follows an odd run of backslashes."""
    run = 0
    while at - run - 1 >= 0 and line[at - run - 1] == "\\":
        run += 1
    return run % 2 == 1


class _Locator:
    """Best-effort map from document key paths to the line that defines them.

    Handles ``[table]``, ``[[array.of.tables]]`` and (dotted) ``key = value`` lines; a
    key inside an inline table is located at the line of its enclosing key.
    """

    def __init__(self, text: str) -> None:
        self._lines: dict[KeyPath, int] = {}
        self._last_line = max(1, text.count("\n") + (0 if text.endswith("\n") else 1))
        array_counts: dict[tuple[str, ...], int] = {}
        table: KeyPath = ()
        in_multiline: str | None = None
        for lineno, line in enumerate(text.splitlines(), start=1):
            if in_multiline is not None:
                in_multiline = _open_multiline(line, in_multiline)
                continue
            m = _ARRAY_HEADER_RE.match(line)
            if m:
                raw = tuple(_split_dotted(m.group(1)))
                array_counts[raw] = array_counts.get(raw, 0) + 1
                table = self._resolve(raw, array_counts)
                self._lines.setdefault(table, lineno)
                self._lines.setdefault(table[:-1], lineno)
                continue
            m = _TABLE_HEADER_RE.match(line)
            if m:
                raw = tuple(_split_dotted(m.group(1)))
                table = self._resolve(raw, array_counts)
                self._record(table, lineno)
                continue
            m = _KEY_LINE_RE.match(line)
            if m:
                self._record(table + tuple(_split_dotted(m.group(1))), lineno)
                in_multiline = _open_multiline(line[m.end() :], None)

    @staticmethod
    def _resolve(raw: tuple[str, ...], array_counts: Mapping[tuple[str, ...], int]) -> KeyPath:
        path: list[PathPart] = []
        for i, part in enumerate(raw):
            path.append(part)
            count = array_counts.get(raw[: i + 1])
            if count:
                path.append(count - 1)
        return tuple(path)

    def _record(self, path: KeyPath, lineno: int) -> None:
        for n in range(1, len(path) + 1):
            self._lines.setdefault(path[:n], lineno)

    def line(self, path: KeyPath) -> int | None:
        """The line of ``path``, or of its nearest located ancestor."""
        for n in range(len(path), 0, -1):
            found = self._lines.get(path[:n])
            if found is not None:
                return found
        return None


# ---------------------------------------------------------------------------
# Value description helpers.


def name_problem(kind: str, name: str) -> str | None:
    """What is wrong with a task or server name, or None. The kernels keep names in
    MAX_NAME_BYTES, and the trace, the CSVs and the runner's input separate fields by
    whitespace: a name is one word of printable characters."""
    if not name.strip():
        return f"{kind} name must not be empty"
    if any(c.isspace() or not c.isprintable() for c in name):
        return (
            f"{kind} name {name!r} must be one word of printable characters "
            "(no spaces, tabs, newlines or control characters)"
        )
    if len(name.encode()) > MAX_NAME_BYTES:
        return (
            f"{kind} name {name!r} is {len(name.encode())} bytes long "
            f"(at most {MAX_NAME_BYTES} in UTF-8)"
        )
    return None


def _quoted(name: str) -> str:
    """A name for a message: in double quotes, escaped if it holds anything unprintable."""
    if name.isprintable():
        return f'"{name}"'
    return json.dumps(name)


def _type_name(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "table"
    return "date/time"


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, int | float):
        return _number_text(value)
    return _type_name(value)


def _number_text(value: int | float) -> str:
    """A number for a message: written out as typed, or an integer too long to read
    (past 4300 digits Python will not even convert it) by its first digits and size."""
    if isinstance(value, int) and abs(value).bit_length() > 128:
        return count_text(value)
    return repr(value)


def _got(value: object) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"got {_type_name(value)} {_show(value)}"
    if isinstance(value, bool | str):
        return f"got {_type_name(value)} {_show(value)}"
    return f"got {_type_name(value)}"


def _key_string(path: KeyPath) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


def _choices(options: Sequence[str]) -> str:
    return " | ".join(f'"{o}"' for o in options)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------------------
# The validator.


class _Parser:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.locator = _Locator(text)
        # Labels for element tables, e.g. ("task", 1) -> 'task "T2" (task[1])'.
        self.labels: dict[KeyPath, str] = {}

    # -- errors ------------------------------------------------------------

    def fail(self, path: KeyPath, problem: str) -> NoReturn:
        key = _key_string(path) if path else None
        label = key
        if len(path) >= 2 and path[:2] in self.labels:
            rest = _key_string(path[2:]) if len(path) > 2 else ""
            label = self.labels[path[:2]] + ("." + rest if rest else "")
        raise ScenarioError(
            self.source, key, self.locator.line(path) if path else None, problem, label=label
        )

    # -- typed getters -----------------------------------------------------

    def check_keys(
        self, table: Mapping[str, object], allowed: Sequence[str], path: KeyPath
    ) -> None:
        for key in table:
            if key not in allowed:
                where = f"[{_key_string(path)}]" if path else "the scenario"
                self.fail(
                    path + (key,),
                    f'unknown key "{key}" in {where} (allowed: {", ".join(allowed)})',
                )

    def get_table(self, data: Mapping[str, object], key: str) -> dict[str, object] | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, dict):
            self.fail((key,), f"must be a table ([{key}]), {_got(value)}")
        return cast(dict[str, object], value)

    def get_table_array(self, data: Mapping[str, object], key: str) -> list[dict[str, object]]:
        value = data.get(key)
        if value is None:
            return []
        if isinstance(value, dict):
            self.fail((key,), f"must be an array of tables: write [[{key}]], not [{key}]")
        if not isinstance(value, list):
            self.fail((key,), f"must be an array of tables ([[{key}]]), {_got(value)}")
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                self.fail((key, i), f"must be a table, {_got(item)}")
        return cast(list[dict[str, object]], value)

    def get_str(
        self, table: Mapping[str, object], key: str, path: KeyPath, *, required: bool = False
    ) -> str | None:
        if key not in table:
            if required:
                self.fail(path + (key,), f'missing required key "{key}"')
            return None
        value = table[key]
        if not isinstance(value, str):
            self.fail(path + (key,), f"must be a string, {_got(value)}")
        return value

    def get_enum(
        self,
        table: Mapping[str, object],
        key: str,
        path: KeyPath,
        options: Sequence[str],
        default: str,
    ) -> str:
        value = self.get_str(table, key, path)
        if value is None:
            return default
        if value not in options:
            self.fail(path + (key,), f"must be one of {_choices(options)}, got {_show(value)}")
        return value

    def get_int(
        self,
        table: Mapping[str, object],
        key: str,
        path: KeyPath,
        *,
        required: bool = False,
        minimum: int | None = None,
        maximum: int | None = None,
        what: str = "an integer",
        limit_note: str | None = None,
    ) -> int | None:
        if key not in table:
            if required:
                self.fail(path + (key,), f'missing required key "{key}"')
            return None
        value = table[key]
        if not _is_int(value):
            hint = " (times are integer ticks)" if isinstance(value, float) else ""
            self.fail(path + (key,), f"must be {what}{hint}, {_got(value)}")
        number = cast(int, value)
        if maximum is not None and number > maximum and limit_note is not None:
            self.fail(
                path + (key,),
                f"must be at most {maximum} {limit_note}, got {_number_text(number)}",
            )
        if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
            self.fail(path + (key,), f"must be {what}, got {_number_text(number)}")
        return number

    def get_positive(
        self,
        table: Mapping[str, object],
        key: str,
        path: KeyPath,
        *,
        required: bool = False,
        maximum: int = MAX_TICKS,
        limit_note: str = TICKS_LIMIT_NOTE,
    ) -> int | None:
        return self.get_int(
            table,
            key,
            path,
            required=required,
            minimum=1,
            maximum=maximum,
            what="a positive integer",
            limit_note=limit_note,
        )

    def get_offset(self, table: Mapping[str, object], path: KeyPath) -> int:
        value = self.get_int(
            table,
            "offset",
            path,
            minimum=0,
            maximum=MAX_TICKS,
            what="a non-negative integer",
            limit_note=TICKS_LIMIT_NOTE,
        )
        return 0 if value is None else value

    def get_priority(
        self, table: Mapping[str, object], path: KeyPath, *, required: bool
    ) -> int | None:
        return self.get_int(
            table,
            "priority",
            path,
            required=required,
            minimum=PRIORITY_MIN,
            maximum=PRIORITY_MAX,
            what=f"an integer from {PRIORITY_MIN} to {PRIORITY_MAX} (0 is reserved for idle)",
        )

    def get_name(self, table: Mapping[str, object], path: KeyPath, kind: str) -> str:
        name = self.get_str(table, "name", path, required=True)
        assert name is not None
        problem = name_problem(kind, name)
        if problem is not None:
            self.fail(path + ("name",), problem)
        if name == RESERVED_NAME:
            self.fail(
                path + ("name",),
                f'"{RESERVED_NAME}" is reserved (the idle {kind}); choose another {kind} name',
            )
        return name

    # -- sections ----------------------------------------------------------

    def parse(self) -> Scenario:
        if self.text.startswith("\ufeff"):
            raise ScenarioError(
                self.source, None, 1, "starts with a byte-order mark (save it as UTF-8 without BOM)"
            )
        try:
            data = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            raise _syntax_error(self.source, exc) from None
        except RecursionError:
            raise ScenarioError(
                self.source, None, None, "TOML nesting too deep (arrays or tables in each other)"
            ) from None
        except ValueError:
            # Python's limit on converting long digit strings (tomllib lets it through).
            m = _LONG_DIGITS_RE.search(self.text)
            line = self.text.count("\n", 0, m.start()) + 1 if m else None
            raise ScenarioError(
                self.source, None, line, "an integer with thousands of digits: no time fits that"
            ) from None

        for key, value in data.items():
            if key not in TOP_LEVEL_KEYS:
                kind = "table" if isinstance(value, dict | list) else "key"
                self.fail(
                    (key,),
                    f'unknown top-level {kind} "{key}" (allowed: [system], [hsf], '
                    "[[server]], [[task]])",
                )

        system = self.parse_system(self.get_table(data, "system") or {})
        hsf = self.parse_hsf(data, system)
        servers = self.parse_servers(data, system, hsf)
        tasks = self.parse_tasks(data, system, servers)
        tasks = self.assign_priorities(tasks, system)
        return Scenario(
            system=system,
            tasks=tuple(tasks),
            servers=tuple(servers),
            hsf=hsf,
            source=self.source,
        )

    def parse_system(self, table: Mapping[str, object]) -> SystemConfig:
        path: KeyPath = ("system",)
        self.check_keys(table, SYSTEM_KEYS, path)
        policy = self.get_enum(table, "policy", path, POLICIES, "fp")
        preemption = self.get_enum(table, "preemption", path, PREEMPTIONS, "full")
        if preemption != "full" and policy not in ("fp", "hsf"):
            self.fail(
                path + ("preemption",),
                f'preemption = "{preemption}" is only available with policy "fp" or "hsf" '
                f'(policy is "{policy}")',
            )
        queues = READY_QUEUES[policy]
        ready_queue = self.get_str(table, "ready_queue", path)
        if ready_queue is None:
            ready_queue = queues[0]
        elif ready_queue not in queues:
            self.fail(
                path + ("ready_queue",),
                f'must be one of {_choices(queues)} for policy "{policy}", '
                f"got {_show(ready_queue)}",
            )
        tick_hz = self.get_int(
            table,
            "tick_hz",
            path,
            minimum=1,
            maximum=MAX_TICK_HZ,
            what="a positive integer",
            limit_note="(a tick is at least a nanosecond)",
        )
        duration = self.get_positive(table, "duration", path)
        port = self.get_enum(table, "port", path, PORTS, "sim")
        priority = self.get_enum(table, "priority", path, PRIORITY_ASSIGNMENTS, "explicit")
        round_robin = False
        if "round_robin" in table:
            value = table["round_robin"]
            if not isinstance(value, bool):
                self.fail(path + ("round_robin",), f"must be a boolean, {_got(value)}")
            round_robin = value
        if policy == "edf" and round_robin:
            self.fail(
                path + ("round_robin",),
                'round-robin is only available with policy "fp" or "hsf": EDF never '
                "rotates jobs of equal deadline (the one ready first runs on)",
            )
        if policy == "edf" and priority != "explicit":
            self.fail(
                path + ("priority",),
                f'priority = "{priority}" assigns fixed priorities, which policy "edf" '
                "does not use (it orders jobs by deadline); remove it",
            )
        tickless = False
        if "tickless" in table:
            value = table["tickless"]
            if not isinstance(value, bool):
                self.fail(path + ("tickless",), f"must be a boolean, {_got(value)}")
            if value and policy == "hsf":
                self.fail(
                    path + ("tickless",),
                    'tickless idle is not available with policy "hsf": the servers\' budgets '
                    "and replenishments are kept at every tick",
                )
            tickless = value
        defaults = SystemConfig()
        return SystemConfig(
            policy=cast(Policy, policy),
            preemption=cast(Preemption, preemption),
            ready_queue=ready_queue,
            tick_hz=defaults.tick_hz if tick_hz is None else tick_hz,
            duration=defaults.duration if duration is None else duration,
            port=port,
            priority=cast(PriorityAssignment, priority),
            round_robin=round_robin,
            tickless=tickless,
        )

    def parse_hsf(self, data: Mapping[str, object], system: SystemConfig) -> HsfConfig | None:
        table = self.get_table(data, "hsf")
        if system.policy != "hsf":
            if table is not None:
                self.fail(
                    ("hsf",),
                    f'the [hsf] table is only allowed with policy = "hsf" '
                    f'(policy is "{system.policy}")',
                )
            return None
        table = table or {}
        path: KeyPath = ("hsf",)
        self.check_keys(table, HSF_KEYS, path)
        server_type = self.get_enum(table, "server_type", path, SERVER_TYPES, "idling")
        global_policy = self.get_enum(table, "global", path, GLOBAL_POLICIES, "fp")
        return HsfConfig(server_type=cast(ServerType, server_type), global_policy=global_policy)

    def parse_servers(
        self, data: Mapping[str, object], system: SystemConfig, hsf: HsfConfig | None
    ) -> list[Server]:
        tables = self.get_table_array(data, "server")
        if tables and system.policy != "hsf":
            self.fail(
                ("server",),
                f'[[server]] tables are only allowed with policy = "hsf" '
                f'(policy is "{system.policy}")',
            )
        servers: list[Server] = []
        seen: dict[str, int] = {}
        for i, table in enumerate(tables):
            path: KeyPath = ("server", i)
            name_value = table.get("name")
            if isinstance(name_value, str):
                self.labels[path] = f"server {_quoted(name_value)} (server[{i}])"
            self.check_keys(table, SERVER_KEYS, path)
            name = self.get_name(table, path, "server")
            if name in seen:
                self.fail(
                    path + ("name",),
                    f'duplicate server name "{name}" (also server[{seen[name]}])',
                )
            seen[name] = i
            priority = self.get_priority(table, path, required=True)
            period = self.get_positive(table, "period", path, required=True)
            budget = self.get_positive(table, "budget", path, required=True)
            offset = self.get_offset(table, path)
            default_type = hsf.server_type if hsf is not None else "idling"
            server_type = self.get_enum(table, "type", path, SERVER_TYPES, default_type)
            assert priority is not None and period is not None and budget is not None
            if budget > period:
                self.fail(
                    path + ("budget",),
                    f"budget must not exceed the period: budget {budget} > period {period}",
                )
            servers.append(
                Server(name, priority, period, budget, offset, cast(ServerType, server_type))
            )
        return servers

    def parse_tasks(
        self, data: Mapping[str, object], system: SystemConfig, servers: Sequence[Server]
    ) -> list[Task]:
        tables = self.get_table_array(data, "task")
        if not tables:
            raise ScenarioError(self.source, "task", None, "no tasks: define at least one [[task]]")
        server_names = {s.name for s in servers}
        explicit = system.priority == "explicit"
        tasks: list[Task] = []
        seen: dict[str, int] = {}
        for i, table in enumerate(tables):
            path: KeyPath = ("task", i)
            name_value = table.get("name")
            if isinstance(name_value, str):
                self.labels[path] = f"task {_quoted(name_value)} (task[{i}])"
            self.check_keys(table, TASK_KEYS, path)
            name = self.get_name(table, path, "task")
            if name in seen:
                self.fail(
                    path + ("name",), f'duplicate task name "{name}" (also task[{seen[name]}])'
                )
            seen[name] = i
            period = self.get_positive(table, "period", path, required=True)
            wcet = self.get_positive(table, "wcet", path, required=True)
            assert period is not None and wcet is not None
            deadline = self.get_positive(
                table, "deadline", path, maximum=MAX_DEADLINE, limit_note=DEADLINE_LIMIT_NOTE
            )
            if deadline is None:
                if period > MAX_DEADLINE:
                    self.fail(
                        path + ("period",),
                        f"is also the deadline (none given), which must be at most "
                        f"{MAX_DEADLINE} {DEADLINE_LIMIT_NOTE}, got {period}; give a "
                        "deadline or a shorter period",
                    )
                deadline = period
            offset = self.get_offset(table, path)

            priority: int | None
            if not explicit and "priority" in table:
                self.fail(
                    path + ("priority",),
                    f"an explicit priority is ambiguous with [system] priority = "
                    f'"{system.priority}" (priorities are assigned automatically); '
                    "remove one of them",
                )
            priority = self.get_priority(
                table, path, required=explicit and system.policy in ("fp", "hsf")
            )

            server: str | None = None
            if system.policy == "hsf":
                server = self.get_str(table, "server", path)
                if server is None:
                    self.fail(
                        path + ("server",),
                        'missing required key "server" (every task needs a server '
                        'under policy "hsf")',
                    )
                if server not in server_names:
                    known = ", ".join(s.name for s in servers) or "none defined"
                    self.fail(
                        path + ("server",),
                        f'names server "{server}", which is not defined (servers: {known})',
                    )
            elif "server" in table:
                self.fail(
                    path + ("server",),
                    f'"server" is only allowed with policy = "hsf" (policy is "{system.policy}")',
                )

            segments = self.parse_segments(table, path, system, wcet)
            tasks.append(
                Task(
                    name=name,
                    period=period,
                    wcet=wcet,
                    deadline=deadline,
                    offset=offset,
                    priority=priority,
                    server=server,
                    segments=segments,
                )
            )
        return tasks

    def parse_segments(
        self, table: Mapping[str, object], path: KeyPath, system: SystemConfig, wcet: int
    ) -> tuple[int, ...] | None:
        if "segments" not in table:
            return None
        spath = path + ("segments",)
        if system.preemption != "deferred":
            self.fail(
                spath,
                'segments are only allowed with preemption = "deferred" '
                f'(preemption is "{system.preemption}")',
            )
        value = table["segments"]
        if not isinstance(value, list) or not value:
            self.fail(spath, f"must be a non-empty array of positive integers, {_got(value)}")
        if len(value) > MAX_SEGMENTS:
            self.fail(spath, f"at most {MAX_SEGMENTS} subjobs, but {len(value)} are given")
        for k, item in enumerate(value):
            if not _is_int(item) or item <= 0:
                self.fail(
                    spath,
                    f"must be an array of positive integers, but element {k} is "
                    f"{_show(item) if isinstance(item, int | float | str) else _type_name(item)}",
                )
        segments = tuple(cast(list[int], value))
        if sum(segments) != wcet:
            self.fail(
                spath,
                f"segments must sum to wcet: {' + '.join(map(str, segments))} = "
                f"{sum(segments)}, but wcet = {wcet}",
            )
        return segments

    def assign_priorities(self, tasks: list[Task], system: SystemConfig) -> list[Task]:
        if system.priority == "explicit":
            return tasks
        groups: dict[str | None, list[int]] = {}
        for index, task in enumerate(tasks):
            groups.setdefault(task.server, []).append(index)
        assigned: dict[int, int] = {}
        for indices in groups.values():
            if len(indices) > PRIORITY_MAX:
                self.fail(
                    ("system", "priority"),
                    f"cannot assign distinct priorities to {len(indices)} tasks "
                    f"(at most {PRIORITY_MAX})",
                )

            group = [tasks[i] for i in indices]
            ordered = [indices[k] for k in rule_order(group, system.priority)]
            n = len(ordered)
            for rank, index in enumerate(ordered):
                assigned[index] = n - rank
        return [_with_priority(task, assigned[i]) for i, task in enumerate(tasks)]


def rule_order(tasks: Sequence[Task], rule: PriorityAssignment) -> list[int]:
    """The tasks' positions, highest priority first under rm (shorter period first) or
    dm (shorter relative deadline first), ties to the task defined first: the order
    ``[system] priority`` gives the tasks of one group (the flat set, or one server)."""
    if rule == "explicit":
        raise ValueError("rule_order needs the rm or dm rule")
    return sorted(
        range(len(tasks)), key=lambda i: (tasks[i].period if rule == "rm" else tasks[i].deadline, i)
    )


def _with_priority(task: Task, priority: int) -> Task:
    return Task(
        name=task.name,
        period=task.period,
        wcet=task.wcet,
        deadline=task.deadline,
        offset=task.offset,
        priority=priority,
        server=task.server,
        segments=task.segments,
    )


def _syntax_error(source: str, exc: tomllib.TOMLDecodeError) -> ScenarioError:
    message = str(exc)
    line: int | None = None
    m = _TOML_POS_RE.search(message)
    if m:
        line = int(m.group(1))
        message = message[: m.start()] + f" (column {m.group(2)})"
    else:
        m_end = _TOML_END_RE.search(message)
        if m_end:
            message = message[: m_end.start()] + " (at end of document)"
    return ScenarioError(source, None, line, f"TOML syntax error: {message}")


def parse_scenario(text: str, source: str = "<string>") -> Scenario:
    """Parse and validate scenario TOML ``text``; ``source`` names it in errors."""
    return _Parser(text, source).parse()


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read, parse and validate the scenario file at ``path``.

    Every failure — missing or unreadable file, invalid UTF-8, TOML syntax, invalid
    content — is raised as :class:`ScenarioError`.
    """
    source = os.fspath(path)
    try:
        with open(source, "rb") as handle:
            raw = handle.read(MAX_SCENARIO_BYTES + 1)
    except FileNotFoundError:
        raise ScenarioError(source, None, None, "file not found") from None
    except IsADirectoryError:
        raise ScenarioError(source, None, None, "is a directory, not a scenario file") from None
    except OSError as exc:
        raise ScenarioError(source, None, None, f"cannot read file: {exc.strerror}") from None
    if len(raw) > MAX_SCENARIO_BYTES:
        raise ScenarioError(
            source,
            None,
            None,
            f"longer than {MAX_SCENARIO_BYTES // (1024 * 1024)} MiB: not a scenario file "
            "(the largest scenario the runner takes is well under 1 MiB)",
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ScenarioError(
            source, None, line, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x})"
        ) from None
    return parse_scenario(text, source)
