"""``agentbus explain COMMAND``: why the guards block a command, or let it run, in one screen.

It shows the commands bash would run (wrappers resolved, nested code found),
each operand as the guards resolved it (``~``, ``$HOME``, variables, ``cd``)
with what it names, and the verdict of each guard with the rule that gave it.
Nothing is run.
"""

from __future__ import annotations

import argparse
import os

from . import definitions
from .danger import GUARD_ID, check_command
from .files import SHELL_FILE_GUARD_ID, check_shell_files
from .locations import location
from .operands import block_device, operands, system_file
from .parse import parsed
from .paths import check_path, display_path, normalize_path
from .policy import DEFAULT_POLICY, Policy, using
from .programs import walk
from .script_files import check_script_files, stricter
from .workdir import working_directory

__all__ = ["EXAMPLES", "add_arguments", "explain", "run"]

EXAMPLES = """examples:
  agentbus explain 'sudo env rm -rf ~'
  agentbus explain 'F=/etc/passwd; echo x >> $F'
  agentbus explain --cwd ~/project 'cd .. && cat .env'
"""
_MAX_LINES = 40


def explain(
    command: str, *, home: str | None = None, cwd: str | None = None, policy: Policy | None = None
) -> str:
    """The parsed commands, their resolved operands and each guard's verdict, as text.

    ``policy``: what each category does (default: the built-in defaults).
    """
    home = home or normalize_path("~")
    policy = policy or DEFAULT_POLICY
    script = parsed(command)
    lines = [f"command: {_short(command, 100)}"]
    if script.malformed:
        lines.append("  (bash would refuse part of it: what parsed is judged, and repairs of it)")
    for number, stages in enumerate(walk(script, cwd=cwd), start=1):
        for stage in stages:
            program = stage.name or ("(computed)" if stage.dynamic else "(redirections only)")
            extra = []
            if stage.wrappers:
                extra.append("via " + " ".join(stage.wrappers))
            if stage.cwd:
                extra.append(f"in {stage.cwd}")
            lines.append(
                f"{number:>2}. {program}: {_short(stage.text, 90)}"
                + (f"  [{', '.join(extra)}]" if extra else "")
            )
            for operand in operands(stage)[:8]:
                shown = _short(operand.value, 50)
                lines.append(f"      {operand.role:<12} {shown:<50} {_names(operand.value, home, stage.cwd)}")
        if len(lines) > _MAX_LINES:
            lines.append("    …")
            break
    lines.append("verdicts:")
    with using(policy), working_directory(cwd):
        command_verdict = check_command(command, home=home, policy=policy)
        if command_verdict is None or command_verdict.decision != "block":
            found = check_script_files(command, cwd=cwd, home=home, policy=policy)
            command_verdict = stricter(command_verdict, found)
        verdicts = (
            (GUARD_ID, command_verdict),
            (SHELL_FILE_GUARD_ID, policy.apply(check_shell_files(command, cwd=cwd))),
        )
    for guard_id, verdict in verdicts:
        if verdict is None:
            lines.append(f"  {guard_id}: allow")
        else:
            lines.append(f"  {guard_id}: {verdict.decision.upper()} {verdict.reason}")
            lines.append(
                f"      decided by the {verdict.rule or 'guard'}; category {verdict.category!r} is set to"
            )
            lines.append(f"      {verdict.decision} (builtins verdicts in the config change it)")
    unreached = [f.name for f in definitions.unreached(command, script)]
    if unreached and any(verdict is not None for _, verdict in verdicts):
        lines.append(
            f"defined, never called here: {', '.join(unreached)}; an exec guard with a session judges"
            " these at their calls (a later call that names one is judged after it)"
        )
    return "\n".join(line.rstrip() for line in lines)


def _names(value: str, home: str, cwd: str | None) -> str:
    """What an operand names, as the rules see it."""
    device = block_device(value)
    if device:
        return f"-> block device {device}"
    place = location(value, home=home, cwd=cwd)
    if place:
        return f"-> {place[0]}: {place[1]}"
    found = system_file(value, home=home, cwd=cwd)
    if found:
        return f"-> system file {found}"
    verdict = check_path(value, cwd=cwd, home=home)
    if verdict is not None:
        return f"-> {verdict.why}"
    if value.startswith(("/", "~", "$HOME", "${HOME", "..", "./")):
        return f"-> {display_path(normalize_path(value, home=home, cwd=cwd), home=home)}"
    return ""


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``agentbus explain``."""
    parser.add_argument(
        "command",
        nargs=argparse.REMAINDER,
        help="the shell command to explain (quote it, or pass its words last)",
    )
    parser.add_argument("--cwd", help="the directory the command runs in (default: unknown)")
    parser.add_argument("--home", help="the home directory ~ means (default: $HOME)")
    parser.add_argument(
        "--config",
        help="the config whose builtins verdicts and profile apply (default: discovered from --cwd)",
    )


def run(args: argparse.Namespace) -> int:
    """Print the explanation; exit status 1 when a guard blocks the command."""
    command = " ".join(_own_options(args))
    if not command.strip():
        print("agentbus explain: give the command to explain, e.g. agentbus explain 'rm -rf ~'")
        return 2
    home = args.home or os.environ.get("HOME") or None
    policy = _configured_policy(args)
    text = explain(command, home=home, cwd=args.cwd, policy=policy)
    print(text)
    decided = text.split("verdicts:", 1)[1]
    return 1 if "BLOCK " in decided or "ASK " in decided else 0


_OWN_OPTIONS = ("--cwd", "--home", "--config")


def _own_options(args: argparse.Namespace) -> list[str]:
    """The command's words, with explain's own options taken off its end when the command was
    quoted (``agentbus explain 'bash x.sh' --cwd DIR``: argparse leaves them in the command)."""
    words = list(args.command)
    quoted = bool(words) and len(words[0].split()) > 1
    while len(words) >= 2 and (quoted or len(words) == 3 or "=" in words[-1]):
        name, equals, value = words[-1].partition("=")
        if equals and name in _OWN_OPTIONS:
            setattr(args, name[2:], value)
            del words[-1]
        elif len(words) >= 3 and words[-2] in _OWN_OPTIONS:
            setattr(args, words[-2][2:], words[-1])
            del words[-2:]
        else:
            break
    return words


def _configured_policy(args: argparse.Namespace) -> Policy:
    """The policy the configuration in force sets (its refusals apply, as in the hook)."""
    from pathlib import Path

    from ..config import load_config

    config = load_config(Path(args.config) if args.config else None, cwd=Path(args.cwd) if args.cwd else None)
    options = config.builtin_options
    return Policy.from_options(options) if "policy" not in options else options["policy"]
