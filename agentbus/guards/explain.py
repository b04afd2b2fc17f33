"""``agentbus explain COMMAND``: why the guards block a command, or let it run, in one screen.

It shows the commands bash would run (wrappers resolved, nested code found),
each operand as the guards resolved it (``~``, ``$HOME``, variables, ``cd``)
with what it names, and the verdict of each guard with the rule that gave it.
Nothing is run.

It judges one call on its own, in the directory it says (``--cwd``, else this process's). An
exec guard with a session (an in-process shell) judges a call where the session's earlier calls
left the shell (:mod:`.session_directory`): ``--after CMD`` names those calls, taken as run, and
the command is judged after a ``cd`` to where they left it. What earlier calls downloaded,
defined or exported (:mod:`.session_downloads`) is not replayed.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

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
from .session_directory import lines_in, shell_after
from .verdict import Verdict
from .workdir import call_directory, working_directory

__all__ = ["EXAMPLES", "add_arguments", "explain", "run"]

EXAMPLES = """examples:
  agentbus explain 'sudo env rm -rf ~'
  agentbus explain 'F=/etc/passwd; echo x >> $F'
  agentbus explain --cwd ~/project 'cd .. && cat .env'
  agentbus explain --after 'cd /root' 'cat root.txt'
"""
_MAX_LINES = 40


def explain(
    command: str,
    *,
    home: str | None = None,
    cwd: str | None = None,
    policy: Policy | None = None,
    after: Sequence[str] = (),
) -> str:
    """The parsed commands, their resolved operands and each guard's verdict, as text.

    ``policy``: what each category does (default: the built-in defaults). ``after``: the session's
    earlier calls, taken as run: the command is judged where they left the shell.
    """
    home = home or normalize_path("~")
    policy = policy or DEFAULT_POLICY
    lines = [f"command: {_short(command, 100)}"]
    with working_directory(cwd):
        start = call_directory()
    given = "--cwd" if cwd and cwd.startswith("/") else "this process's directory; --cwd sets it"
    lines.append(f"runs in: {display_path(start, home=home) if start else 'unknown'} ({given})")
    judged = [command]
    if after and start:
        shell = shell_after(after, start)
        judged = lines_in(shell, start, command)
        where = [display_path(place, home=home) for place in shell.places]
        where += ['where no text tells (as after cd "$X")'] if shell.unknown else []
        lines.append(f"session shell: {' or '.join(where)}, after {len(after)} earlier call(s) (--after)")
    verdicts, command = _verdicts(judged, home=home, cwd=cwd, policy=policy)
    script = parsed(command)
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


def _verdicts(
    judged: list[str], *, home: str, cwd: str | None, policy: Policy
) -> tuple[tuple[tuple[str, Verdict | None], ...], str]:
    """Each exec guard's verdict on the lines a command is judged as (the stricter wins, as in the
    guards), and the line the command guard's verdict came from (the first when none differs)."""
    command_verdict: Verdict | None = None
    file_verdict: Verdict | None = None
    deciding = judged[0]
    with using(policy), working_directory(cwd):
        for line in judged:
            found = check_command(line, home=home, policy=policy)
            if found is None or found.decision != "block":
                found = stricter(found, check_script_files(line, cwd=cwd, home=home, policy=policy))
            if stricter(command_verdict, found) is not command_verdict:
                command_verdict, deciding = found, line
            file_verdict = stricter(file_verdict, policy.apply(check_shell_files(line, cwd=cwd)))
    return ((GUARD_ID, command_verdict), (SHELL_FILE_GUARD_ID, file_verdict)), deciding


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
        "--after",
        action="append",
        default=[],
        metavar="CMD",
        help="an earlier call of the session, taken as run (repeat it, in order): the command is judged"
        " where those calls' cd left the session's shell, as an exec guard with a session judges it",
    )
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
    text = explain(command, home=home, cwd=args.cwd, policy=policy, after=args.after)
    print(text)
    decided = text.split("verdicts:", 1)[1]
    return 1 if "BLOCK " in decided or "ASK " in decided else 0


_OWN_OPTIONS = ("--cwd", "--home", "--config", "--after")


def _own_options(args: argparse.Namespace) -> list[str]:
    """The command's words, with explain's own options taken off its end when the command was
    quoted (``agentbus explain 'bash x.sh' --cwd DIR``: argparse leaves them in the command)."""
    words = list(args.command)
    quoted = bool(words) and len(words[0].split()) > 1
    later: list[str] = []  # --after given after the command: after those given before it, in order
    while len(words) >= 2 and (quoted or len(words) == 3 or "=" in words[-1]):
        name, equals, value = words[-1].partition("=")
        if equals and name in _OWN_OPTIONS:
            del words[-1]
        elif len(words) >= 3 and words[-2] in _OWN_OPTIONS:
            name, value = words[-2], words[-1]
            del words[-2:]
        else:
            break
        if name == "--after":
            later.insert(0, value)
        else:
            setattr(args, name[2:], value)
    args.after = [*getattr(args, "after", []), *later]
    return words


def _configured_policy(args: argparse.Namespace) -> Policy:
    """The policy the configuration in force sets (its refusals apply, as in the hook)."""
    from pathlib import Path

    from ..config import load_config

    config = load_config(Path(args.config) if args.config else None, cwd=Path(args.cwd) if args.cwd else None)
    options = config.builtin_options
    return Policy.from_options(options) if "policy" not in options else options["policy"]
