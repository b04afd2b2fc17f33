"""The hook's own reading of a plain command line gives what argparse gives, or leaves it to argparse.

Claude Code starts the hook for every event; `agentbus install` writes a plain
command line, which :func:`agentbus.hook.parse_args_quickly` reads without
importing argparse. Any command line it answers for must come out as argparse
reads it; anything else (an abbreviation, --help, an error) is left to argparse.
"""

from __future__ import annotations

import argparse
import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbus import hook
from agentbus.install import hook_command

WORDS = (
    *("claude-code", "--config", "--middleware", "--audit-log", "--no-audit-log", "--audit-level"),
    *(
        "--rewrite-decision",
        "--max-bytes",
        "--import-path",
        "--import",
        "--conf",
        "--no-audit",
        "-h",
        "--help",
        "--",
        "-x",
    ),
    *("debug", "info", "warning", "error", "loud", "passthrough", "allow", "ask"),
    *("0", "12", "007", "-5", "1_000", "+3", "²", "9" * 30, "x.toml", "-", "", "a=b", "mod:install"),
)
"""Option names, their abbreviations, choices, numbers argparse reads its own way, paths."""


def argparse_reading(argv: list[str]) -> dict[str, object] | None:
    """What the hook's argparse parser makes of ``argv``; None where it refuses it."""
    parser = argparse.ArgumentParser(prog="agentbus hook", exit_on_error=False)
    hook.add_arguments(parser)
    try:
        return vars(parser.parse_args(argv))
    except (argparse.ArgumentError, SystemExit):
        return None


def word() -> st.SearchStrategy[str]:
    plain = st.sampled_from(WORDS)
    joined = st.builds(lambda a, b: f"{a}={b}", st.sampled_from(WORDS), st.sampled_from(WORDS))
    return plain | joined | st.text(max_size=5)


@given(st.lists(word(), max_size=8))
def test_what_it_reads_argparse_reads_the_same(argv: list[str]) -> None:
    quick = hook.parse_args_quickly(argv)
    if quick is not None:
        assert vars(quick) == argparse_reading(argv), argv


@given(st.lists(word(), max_size=8))
def test_what_it_reads_starting_with_the_runtime(argv: list[str]) -> None:
    argv = ["claude-code", *argv]
    quick = hook.parse_args_quickly(argv)
    if quick is not None:
        assert vars(quick) == argparse_reading(argv), argv


@pytest.mark.parametrize(
    "hook_args",
    [
        [],
        ["--no-audit-log"],
        ["--rewrite-decision", "allow"],
        ["--rewrite-decision=ask", "--audit-level", "info", "--max-bytes", "1024"],
        ["--config", "/etc/agentbus.toml", "--middleware", "a:install", "--middleware=b:install"],
        ["--audit-log", "/tmp/audit.jsonl"],
        ["--import-path", "/srv/policies", "--import-path=~/mine", "--middleware", "mine:install"],
    ],
)
def test_the_command_lines_install_writes_are_read_without_argparse(hook_args: list[str]) -> None:
    argv = shlex.split(hook_command(hook_args))
    rest = argv[argv.index("hook") + 1 :]
    quick = hook.parse_args_quickly(rest)
    assert quick is not None
    assert vars(quick) == argparse_reading(rest)


@pytest.mark.parametrize(
    "argv",
    [
        ["claude-code", "--no-audit"],  # an abbreviation: argparse's to expand
        ["claude-code", "--help"],
        ["claude-code", "--audit-log", "a", "--no-audit-log"],  # argparse refuses it, with its message
        ["claude-code", "--audit-level", "loud"],
        ["claude-code", "--max-bytes", "-5"],
        ["claude-code", "--config"],
        ["--no-audit-log", "claude-code"],  # the runtime after an option
    ],
)
def test_anything_else_is_left_to_argparse(argv: list[str]) -> None:
    assert hook.parse_args_quickly(argv) is None
