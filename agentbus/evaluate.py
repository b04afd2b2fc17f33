"""Run tool calls through a stack of middleware without executing any tool.

Reads JSON lines, one tool call each: {"tool": NAME, "args": {...}} with
optional "agent" and "session" (Claude Code's "tool_name" / "tool_input" are
accepted as well). Runs tool.before, nothing else: no tool runs, no result is
produced. Prints one JSON line per input line, in order:

  {"line": 1, "tool": "exec", "blocked": true, "reason": "...", "by": "builtin:...",
   "decision": "block", "args": {...}, "notes": []}

"blocked" is true for a block; a layer that asks a person to approve gives
"decision": "ask" with "blocked": false. A line that cannot be evaluated gives
{"line": N, "error": "..."} and the run goes on. Blank lines are skipped.

The stack: the configuration file (--config, else $AGENTBUS_CONFIG, else
agentbus.toml / agentbus.yaml / [tool.agentbus] found in the working
directory; none means the built-in guards), plus each --middleware installer.
Exit status 0, also when lines had errors; 1 if the input cannot be read; 2 if
the stack cannot be built.

With --diff, the input is a recorded session (an audit log, the output of an
earlier eval, or Claude Code hook payloads) and only the calls whose decision
would change are printed; see :mod:`agentbus.replay` for the formats and the
exit status (1 when a decision changed, 2 when the log cannot be read).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

from .cli import silence_stdout

if TYPE_CHECKING:
    from .bus import Bus

__all__ = ["EXAMPLES", "add_arguments", "evaluate_line", "evaluate_stream", "read_lines", "run"]

EXAMPLES = """\
examples:
  echo '{"tool": "bash", "args": {"command": "rm -rf ~"}}' | agentbus eval
  agentbus eval calls.jsonl --config agentbus.toml
  agentbus eval calls.jsonl --middleware mypolicy:install | jq 'select(.blocked)'
  agentbus eval calls.jsonl --middleware agentbus.middleware.defaults:install --verbose
  agentbus eval --diff session.jsonl --config new-policy.toml   # what would the change change?
"""

MAX_LINE_BYTES = 1 << 20
"""Longer input lines are reported as errors, not parsed (a 1 MiB tool call is a mistake)."""

_CHUNK = 1 << 16


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "input", nargs="?", default="-", metavar="FILE", help="JSON lines of tool calls ('-' or none: stdin)"
    )
    parser.add_argument(
        "--config", metavar="PATH", help="configuration file (default: discovered in the working directory)"
    )
    parser.add_argument(
        "--middleware",
        action="append",
        default=[],
        metavar="MODULE:ATTR",
        help="an installer, install(registry), to add to the stack (repeatable; or an entry-point name)",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="print the interception lines of each call to stderr"
    )
    parser.add_argument(
        "--diff",
        action="store_true",
        help="FILE is a recorded session (audit log, eval output, hook payloads): print the calls "
        "whose decision would change; exit 1 if any would, 2 if the log cannot be read",
    )
    parser.add_argument(
        "--max-line-bytes",
        type=int,
        default=MAX_LINE_BYTES,
        metavar="N",
        help=f"longer lines are reported as errors (default {MAX_LINE_BYTES})",
    )


def read_lines(
    stream: IO[bytes], max_bytes: int = MAX_LINE_BYTES, *, limit: int | None = None
) -> Iterator[tuple[int, bytes | None]]:
    """Yield (line number, bytes) per line; bytes is None for a line longer than ``max_bytes``.

    A long line is skipped in chunks, so memory stays bounded whatever the input.
    ``limit``: read no more than this many bytes (what a growing file held at the start).
    """
    number = 0
    left = limit
    while left is None or left > 0:
        line = stream.readline(max_bytes + 1 if left is None else min(max_bytes + 1, left))
        if not line:
            return
        number += 1
        if left is not None:
            left -= len(line)
        if len(line) > max_bytes and not line.endswith(b"\n"):
            while not line.endswith(b"\n") and (left is None or left > 0):
                line = stream.readline(_CHUNK if left is None else min(_CHUNK, left))
                if not line:
                    break
                if left is not None:
                    left -= len(line)
            yield number, None
            continue
        yield number, line


class _InputError(ValueError):
    """A line that is not a tool call; the message is the error line's text."""


def _parse(raw: bytes) -> dict[str, Any] | None:
    """The tool call on a line, or None for a blank line; raises _InputError."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _InputError(f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})") from None
    text = text.strip().lstrip("\ufeff")
    if not text:
        return None
    try:
        data = json.loads(text)
    except RecursionError:
        raise _InputError("not valid JSON: nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and integers too long to convert
        raise _InputError(f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise _InputError(f'expected a JSON object {{"tool": ..., "args": {{...}}}}, got {_kind(data)}')
    tool = data.get("tool", data.get("tool_name"))
    if not isinstance(tool, str) or not tool.strip():
        raise _InputError(f'"tool" must be a non-empty string, got {_kind(tool)}')
    args = data.get("args", data.get("tool_input", {}))
    if not isinstance(args, dict):
        raise _InputError(f'"args" must be a JSON object, got {_kind(args)}')
    for key in ("agent", "session"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise _InputError(f'"{key}" must be a string, got {_kind(value)}')
    return {"tool": tool, "args": args, "agent": data.get("agent"), "session": data.get("session")}


def _kind(value: Any) -> str:
    """The JSON name of a parsed value's type, for error lines."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


async def evaluate_line(
    bus: Bus, number: int, raw: bytes | None, max_bytes: int = MAX_LINE_BYTES
) -> dict[str, Any] | None:
    """The output for one input line (None for a blank line). Never raises an Exception."""
    if raw is None:
        return {"line": number, "error": f"line longer than {max_bytes} bytes; not evaluated"}
    try:
        call = _parse(raw)
    except _InputError as exc:
        return {"line": number, "error": str(exc)}
    if call is None:
        return None
    try:
        decided = await bus.decide_tool(
            call["tool"], call["args"], agent_id=call["agent"], session_key=call["session"]
        )
    except Exception as exc:
        return {"line": number, "error": f"the stack failed: {type(exc).__name__}: {exc}"}
    return {
        "line": number,
        "tool": decided.tool,
        "blocked": decided.blocked,
        "reason": decided.block_reason,
        "by": decided.blocked_by,
        "decision": decided.decision,
        "args": decided.args,
        "notes": list(decided.notes),
    }


def _dumps(output: dict[str, Any]) -> str:
    try:
        return json.dumps(output, ensure_ascii=False, default=repr)
    except (TypeError, ValueError, RecursionError) as exc:  # odd keys or circular args left by a layer
        return json.dumps(
            {"line": output.get("line"), "error": f"the result is not JSON-serialisable: {exc}"}
        )


async def evaluate_stream(
    bus: Bus, stream: IO[bytes], write: Callable[[str], None], *, max_bytes: int = MAX_LINE_BYTES
) -> int:
    """Evaluate every line of ``stream``, calling ``write`` with each output line; return the count."""
    count = 0
    for number, raw in read_lines(stream, max_bytes):
        output = await evaluate_line(bus, number, raw, max_bytes)
        if output is not None:
            write(_dumps(output))
            count += 1
    return count


def build_bus(config_path: str | None, middleware: list[str], *, verbose: bool = False) -> Bus:
    """The bus that ``agentbus eval`` runs calls through; raises ConfigError."""
    from . import Bus, format_record
    from .config import ConfigError, load_config, load_installer

    config = load_config(config_path)
    registry = config.build_registry()
    for message in config.refusals:  # what an untrusted project's configuration may not do
        print(f"agentbus eval: {message}", file=sys.stderr)
    for reference in middleware:
        installer = load_installer(reference)
        try:
            installer(registry)
        except ConfigError:
            raise
        except Exception as exc:
            raise ConfigError(
                f"--middleware {reference}: the installer failed: {type(exc).__name__}: {exc}"
            ) from exc
    bus = Bus(registry, log_level=None)
    if verbose:

        def show(record: Any) -> None:
            line = format_record(record)
            if line is not None:
                print(line, file=sys.stderr)

        bus.on_event(show, level="info")
    return bus


def run(args: argparse.Namespace) -> int:
    import anyio

    from .config import ConfigError

    if args.max_line_bytes < 1:
        print("agentbus eval: --max-line-bytes must be at least 1", file=sys.stderr)
        return 2
    try:
        bus = build_bus(args.config, args.middleware, verbose=args.verbose)
    except ConfigError as exc:
        print(f"agentbus eval: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a broken installer: say so in one line, as documented (exit 2)
        print(f"agentbus eval: the stack cannot be built: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    write = _stdout_writer()
    if args.diff:
        return _run_diff(args, bus, write)
    try:
        stream = sys.stdin.buffer if args.input == "-" else open(args.input, "rb")  # noqa: SIM115
    except OSError as exc:
        print(f"agentbus eval: cannot read {args.input}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        anyio.run(_evaluate, bus, stream, write, args.max_line_bytes)
    except _OutputError as exc:
        if isinstance(exc.__cause__, BrokenPipeError):  # the reader went away (| head): fine
            silence_stdout()
            return 0
        print(f"agentbus eval: cannot write the output: {exc.__cause__}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"agentbus eval: cannot read {args.input}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    return 0


def _run_diff(args: argparse.Namespace, bus: Bus, write: Callable[[str], None]) -> int:
    """``eval --diff``: 1 if a recorded decision would change, 0 if none, 2 if the log is unreadable."""
    import os

    import anyio

    from .replay import Replay, drop_audit_layers, refusal, replay, summary

    name = "stdin" if args.input == "-" else args.input
    try:
        stream = sys.stdin.buffer if args.input == "-" else open(args.input, "rb")  # noqa: SIM115
    except OSError as exc:
        print(f"agentbus eval --diff: cannot read {name}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    drop_audit_layers(bus.registry)  # nothing runs: the audit log keeps the calls that did
    # Only what the file holds now: a layer that writes into this very file must not feed itself.
    limit = None if stream is sys.stdin.buffer else os.fstat(stream.fileno()).st_size
    result = Replay()

    async def run_replay() -> None:
        nonlocal result
        result = await replay(bus, stream, write, max_bytes=args.max_line_bytes, limit=limit)

    try:
        anyio.run(run_replay)
    except _OutputError as exc:
        if isinstance(exc.__cause__, BrokenPipeError):
            silence_stdout()
            return 1  # the reader saw at least one change, or it would not have gone away
        print(f"agentbus eval --diff: cannot write the output: {exc.__cause__}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"agentbus eval --diff: cannot read {name}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    problem = refusal(result, name)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    print(summary(result, name), file=sys.stderr)
    return 1 if result.changed else 0


class _OutputError(Exception):
    """Writing to stdout failed (kept apart from errors reading the input)."""


def _stdout_writer() -> Callable[[str], None]:
    """Write JSON lines to stdout as UTF-8, whatever the locale's encoding."""
    out = sys.stdout
    buffer = getattr(out, "buffer", None)

    def write(line: str) -> None:
        # Lone surrogates (from "\ud800" escapes) are written as \ud800: the line stays valid JSON.
        data = line.encode("utf-8", "backslashreplace") + b"\n"
        try:
            if buffer is not None:
                buffer.write(data)
                buffer.flush()
            else:
                out.write(data.decode("utf-8"))
                out.flush()
        except OSError as exc:
            raise _OutputError from exc

    return write


async def _evaluate(bus: Bus, stream: IO[bytes], write: Callable[[str], None], max_bytes: int) -> None:
    await evaluate_stream(bus, stream, write, max_bytes=max_bytes)
