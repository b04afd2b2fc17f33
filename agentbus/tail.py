"""Follow a JSON-lines audit log and render it like the verbose stream, live.

The log is the one a bus writes with bus.log_to(path) (or the Claude Code
hook, one process per tool call). New records are shown as they are appended,
as the seed's lines (--level on) or every layer with diffs and durations
(--level full). A log that is rotated or truncated is followed to its new
content, a half-written last line is held until its newline arrives, and a
line that is not a record is reported on stderr and skipped. Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import sys
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

from .cli import interrupted, silence_stdout

if TYPE_CHECKING:
    from .records import Record  # imported when used: the CLI starts once per hook call

__all__ = ["EXAMPLES", "LogFollower", "add_arguments", "run"]

EXAMPLES = """\
examples:
  agentbus tail ~/.agentbus/audit.jsonl
      follow new records as the seed's verbose lines
  agentbus tail audit.jsonl --level full -n 50
      the last 50 records with every layer, diffs and durations, then follow
  agentbus tail audit.jsonl --blocked --from-start
      every blocked (or asked) call since the log began, then follow
  agentbus tail audit.jsonl --tool '^exec$' --id 'guard' --no-follow
      what the guards did to shell commands so far, then exit
  agentbus tail audit.jsonl --json | jq -r .reason
      the matching lines as they are, for another program
"""

_CHUNK = 1 << 20
_MAX_LINE = 16 << 20
"""A "line" longer than this without a newline is not a record: drop it rather than grow."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="the JSON-lines audit log (it may not exist yet)")
    parser.add_argument(
        "--level", choices=("on", "full"), default=None,
        help="on: the seed's lines (default); full: every layer, diffs, durations, call ends "
        "(default with --json)",
    )  # fmt: skip
    parser.add_argument("--tool", metavar="REGEX", help="only records whose tool name matches")
    parser.add_argument("--id", metavar="REGEX", help="only records whose registration id matches")
    parser.add_argument("--blocked", action="store_true", help="only blocks and asks")
    history = parser.add_mutually_exclusive_group()
    history.add_argument("--from-start", action="store_true", help="show the whole log first")
    history.add_argument(
        "-n", "--lines", type=int, metavar="N", help="show the last N matching records first"
    )
    parser.add_argument("--json", action="store_true", help="print the matching JSON lines unchanged")
    parser.add_argument("--no-follow", action="store_true", help="print what is there, then exit")
    parser.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto",
        help="auto: colour on a terminal unless NO_COLOR is set (FORCE_COLOR forces it)",
    )  # fmt: skip
    parser.add_argument(
        "--interval", type=float, default=0.25, metavar="SECONDS", help="how often to look for new lines"
    )


def run(args: argparse.Namespace) -> int:
    import anyio

    if args.lines is not None and args.lines < 0:
        print("agentbus tail: -n needs a number >= 0", file=sys.stderr)
        return 2
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # a terminal that cannot show emoji gets escapes, not a crash
            stream.reconfigure(errors="backslashreplace")
    try:
        view = _View(args, sys.stdout)
    except re.error as exc:
        print(f"agentbus tail: bad regular expression: {exc}", file=sys.stderr)
        return 2
    try:
        status: int = anyio.run(_tail, args, view)
    except interrupted():
        return 130
    except BrokenPipeError:  # the reader went away (| head): that is how such a pipe ends
        silence_stdout()
        return 0
    return status


class _View:
    """Filters and renders one line of the log."""

    def __init__(self, args: argparse.Namespace, out: IO[str]) -> None:
        from .console import ConsoleStream

        self.tool = re.compile(args.tool) if args.tool else None
        self.id = re.compile(args.id) if args.id else None
        self.blocked = args.blocked
        self.json = args.json
        level = args.level or ("full" if args.json else "on")
        color = {"always": True, "never": False}.get(args.color)
        self.stream = ConsoleStream(level, file=out, json=args.json, color=color)
        self.out = out

    def render(self, text: str) -> str | None:
        """The output for one log line, or None; raises ValueError for a non-record."""
        from .console import record_from_dict

        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"a JSON {type(data).__name__}, not an object")
        if "point" not in data and data.get("event") in ("tool.before", "tool.after"):
            record = _record_from_audit_entry(data)
        else:
            record = record_from_dict(data)
        if self.blocked and record.decision is None:
            return None
        if self.tool is not None and not (record.tool and self.tool.search(record.tool)):
            return None
        if self.id is not None and not self.id.search(record.id):
            return None
        line = self.stream.line(record)
        if line is None:
            return None
        return text if self.json else line

    def show(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()


def _record_from_audit_entry(entry: dict[str, Any]) -> Record:
    """The audit middleware's entry (agentbus.middleware.audit) as the record it stands for.

    A tool.before entry with a decision is that layer's block or ask (the seed's
    line); any other entry marks a call allowed or finished, like the bus's
    dispatch records.
    """
    from .records import DEBUG, DISPATCH, ERROR, WARNING, Record

    def text(key: str) -> str | None:
        value = entry.get(key)
        return None if value is None else str(value)

    context: dict[str, Any] = {
        "tool": text("tool"), "agent_id": text("agent_id"), "session_key": text("session_key"),
        "call_id": text("call_id"), "reason": text("reason"),
    }  # fmt: skip
    try:
        time = float(entry.get("time") or 0.0)
        duration = float(entry.get("duration") or 0.0)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not an audit entry: {exc}") from None
    if entry["event"] == "tool.before":
        decision = text("decision")
        if decision is not None:
            return Record(
                point="tool.before", id=text("by") or "audit", level=WARNING, decision=decision,
                time=time, **context,
            )  # fmt: skip
        return Record(point="tool.before", id=DISPATCH, level=DEBUG, time=time, **context)
    outcome = entry.get("outcome")
    error = text("error")
    blocked = outcome == "blocked"
    return Record(
        point="tool.after", id=DISPATCH, level=ERROR if error else WARNING if blocked else DEBUG,
        decision="block" if blocked else None, error=error, duration=duration, time=time, **context,
    )  # fmt: skip


def _warn(message: str) -> None:
    print(f"⚠️ agentbus tail: {message}", file=sys.stderr, flush=True)


async def _tail(args: argparse.Namespace, view: _View) -> int:

    with LogFollower(args.path, from_start=bool(args.from_start or args.lines is not None)) as follower:
        return await _follow(args, view, follower)


async def _follow(args: argparse.Namespace, view: _View, follower: LogFollower) -> int:
    import anyio

    try:
        opened = follower.open()
    except OSError as exc:  # a directory, no permission: nothing to wait for
        print(f"agentbus tail: cannot read {args.path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if not opened:
        if args.no_follow:
            print(f"agentbus tail: {args.path}: no such file", file=sys.stderr)
            return 1
        _warn(f"waiting for {args.path} to appear")
    history: collections.deque[str] | None = None
    if args.lines is not None:
        history = collections.deque(maxlen=args.lines)
    first = True
    while True:
        for item in follower.poll():
            if isinstance(item, _Notice):
                _warn(item.text)
                continue
            try:
                line = view.render(item)
            except (ValueError, RecursionError) as exc:
                _warn(f"skipped a line that is not an agentbus record ({exc}): {item[:120]!r}")
                continue
            if line is None:
                continue
            if history is not None:
                history.append(line)
            else:
                view.show(line)
        if first and history is not None:
            for line in history:
                view.show(line)
            history = None
        first = False
        if args.no_follow:
            return 0
        await anyio.sleep(args.interval)


class _Notice:
    """Something a person following the log should know (rotation, truncation)."""

    def __init__(self, text: str) -> None:
        self.text = text


class LogFollower:
    """Reads complete lines from a log that others append to, rotate and truncate.

    :meth:`poll` returns what is new: each complete line (decoded, without its
    newline) and a :class:`_Notice` when the file was rotated or truncated. A
    line without its newline yet is held back until the rest arrives.
    """

    def __init__(self, path: str | os.PathLike[str], *, from_start: bool = False) -> None:
        self.path = os.fspath(path)
        self.from_start = from_start
        self._file: Any = None
        self._ident: tuple[int, int] | None = None
        self._buffer = b""
        self._skip_partial = False

    def open(self) -> bool:
        """Open the log (at its start or its end); False if it does not exist yet."""
        try:
            file = open(self.path, "rb", buffering=0)  # noqa: SIM115 (kept open while following)
        except FileNotFoundError:
            self.from_start = True  # when it appears, all of it is new
            return False
        stat = os.fstat(file.fileno())
        self._file, self._ident, self._buffer = file, (stat.st_dev, stat.st_ino), b""
        if not self.from_start and stat.st_size > 0:
            # Start at the end; if a line is half written there, skip its rest.
            file.seek(stat.st_size - 1)
            self._skip_partial = file.read(1) != b"\n"
        self.from_start = True  # a file that replaces this one is read from its start
        return True

    def poll(self) -> Iterator[str | _Notice]:
        """Everything new since the last poll."""
        if self._file is None:
            try:
                if not self.open():
                    return
            except OSError as exc:  # e.g. recreated without read permission: say so, keep trying
                yield _Notice(f"cannot read {self.path}: {exc.strerror or exc}")
                return
        yield from self._drain()
        try:
            stat = os.stat(self.path)
        except OSError:
            return  # moved away and not recreated yet: keep the old file until a new one appears
        if (stat.st_dev, stat.st_ino) != self._ident:
            yield from self._drain()  # what the writer added to the old file before it moved
            if self._buffer:
                yield _Notice(f"dropped an unfinished last line of the rotated log: {self._buffer[:120]!r}")
            self.close()
            yield _Notice(f"{self.path} was rotated; following the new file")
            if self.open():
                yield from self._drain()
        elif stat.st_size < self._file.tell():
            self._file.seek(0)
            self._buffer = b""
            self._skip_partial = False
            yield _Notice(f"{self.path} was truncated; reading it from the start")
            yield from self._drain()

    def _drain(self) -> Iterator[str]:
        while True:
            chunk = self._file.read(_CHUNK)
            if not chunk:
                return
            data = self._buffer + chunk
            if self._skip_partial:
                newline = data.find(b"\n")
                if newline < 0:
                    self._buffer = b""
                    continue
                data = data[newline + 1 :]
                self._skip_partial = False
            *lines, self._buffer = data.split(b"\n")
            if len(self._buffer) > _MAX_LINE:
                self._buffer = b""
                self._skip_partial = True  # and whatever follows it up to the next newline
            for raw in lines:
                text = raw.decode("utf-8", "replace").strip()
                if text:
                    yield text

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> LogFollower:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
