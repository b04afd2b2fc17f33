"""The ``agentbus`` command.

It runs once per tool call when it serves as a Claude Code hook, so it imports
only the module of the command it runs: each command lives in its own module
with ``add_arguments(parser)`` and ``run(args) -> int``, listed in COMMANDS.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

__all__ = ["COMMANDS", "interrupted", "main", "silence_stdout"]

COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("agentbus.demo", "watch agentbus intercept a scripted agent (no network, no key)"),
    # name: (module, one-line help)
    "bench": ("agentbus.bench", "measure interception overhead against baselines in the same run"),
    "eval": ("agentbus.evaluate", "run tool calls through the stack, none executed; --diff replays a log"),
    "tail": ("agentbus.tail", "follow a JSON-lines audit log, rendered like the verbose stream"),
    "hook": ("agentbus.hook", "answer one Claude Code hook event (JSON on stdin, decision on stdout)"),
    "tools": (
        "agentbus.tool_coverage",
        "list an agent's tools with their kind and the guards that judge them",
    ),
    "serve": ("agentbus.serve", "serve Claude Code's HTTP hooks on 127.0.0.1, with live interceptions"),
    "explain": (
        "agentbus.guards.explain",
        "show how the guards parse and judge a shell command, and which rule decided",
    ),
    "install": ("agentbus.install", "install (or --uninstall) agentbus's hooks in Claude Code's settings"),
    "doctor": ("agentbus.doctor", "check the installed Claude Code hooks: entries, CLI, a live answer"),
    "sandbox": (
        "agentbus.guards.sandbox",
        "run a command confined: writes in the project, no secrets, no network",
    ),
    "trust": ("agentbus.trust", "trust a project's agentbus configuration (or --list, --revoke)"),
}


def silence_stdout() -> None:
    """Point stdout at devnull after its reader went away (``| head``), so that the
    interpreter's final flush does not fail with a second BrokenPipeError."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def interrupted() -> tuple[type[BaseException], ...]:
    """What Ctrl-C raises out of ``anyio.run``: KeyboardInterrupt, and on Python 3.10
    also the asyncio backend's CancelledError (its runner turns the signal into one)."""
    if sys.version_info >= (3, 11):
        return (KeyboardInterrupt,)
    import asyncio

    return (KeyboardInterrupt, asyncio.CancelledError)


def terminal_width() -> int:
    """``$COLUMNS``, else the width of the terminal on stdout, else 80 (as shutil.get_terminal_size)."""
    import os

    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def _usage() -> str:
    width = max((len(name) for name in COMMANDS), default=0)
    lines = ["usage: agentbus COMMAND [options]", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {help_}" for name, (_, help_) in sorted(COMMANDS.items())]
    lines += ["", "Run 'agentbus COMMAND --help' for a command's options and examples."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0 if args else 2
    if args[0] == "--version":
        from . import __version__

        print(f"agentbus {__version__}")
        return 0
    name = args[0]
    if name not in COMMANDS:
        print(f"agentbus: unknown command {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module_name, help_ = COMMANDS[name]
    module = importlib.import_module(module_name)
    # A command run per event (the hook) may read its plainest command lines itself.
    quick = getattr(module, "parse_args_quickly", None)
    options = quick(args[1:]) if quick is not None else None
    if options is None:
        import argparse

        from .help_formatter import HelpFormatter

        parser = argparse.ArgumentParser(
            prog=f"agentbus {name}",
            description=(module.__doc__ or help_).strip(),
            formatter_class=HelpFormatter,
            epilog=getattr(module, "EXAMPLES", None),
        )
        module.add_arguments(parser)
        options = parser.parse_args(args[1:])
    try:
        status: int = module.run(options)
    except BrokenPipeError:
        # The reader went away (`agentbus explain CMD | head`): stop quietly, as other
        # command-line tools do, and keep Python from failing again at exit on the flush.
        _discard_stdout()
        return 1
    return status


def _discard_stdout() -> None:
    """Point stdout at the null device, so the interpreter's final flush has nowhere to fail."""
    import os

    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
