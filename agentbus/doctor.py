"""Check agentbus's Claude Code hooks as installed: the entries, the CLI, one live answer.

Reads the settings files Claude Code reads (the user's, the project's and the
project's local one), checks that each event agentbus answers has an agentbus
entry with ``"onFailure": "block"`` and a timeout, runs the installed
PreToolUse hook on two scripted events (a harmless ``ls`` and ``rm -rf /``,
which the built-in guards deny) exactly as Claude Code would, and checks that
it answered in a form Claude Code accepts. It also says when the installed
``claude`` is older than 2.1.295, which ignores ``onFailure``: a hook that
crashes or times out then lets the tool call through.

It also reads the project's own settings (.claude/settings.json and
settings.local.json, which the project's author writes), without running
anything from them: a ``"disableAllHooks": true`` there turns off every hook
that is not in the machine's managed settings, agentbus's included; the
project's own hooks run beside agentbus's; a permission rule that allows Bash
wholesale leaves agentbus's hook as the only check on commands.

Exit status 0 when everything holds, 1 when something does not (each problem
says what to do).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "FAIL_CLOSED_VERSION",
    "add_arguments",
    "check_answer",
    "claude_version",
    "plain_agentbus_hook",
    "run",
]

FAIL_CLOSED_VERSION = (2, 1, 295)
"""The first Claude Code that honours a hook entry's ``"onFailure": "block"``."""

EXAMPLES = """\
examples:
  agentbus doctor
  agentbus doctor --project --claude ./node_modules/.bin/claude
"""

_SCOPES = ("managed", "user", "project", "local")
_WHOLESALE_BASH = re.compile(r"^Bash(\((\*|:\*|\*\*|\s*)\))?$")
"""Permission rules that allow every Bash command: ``Bash``, ``Bash()``, ``Bash(*)``, ``Bash(:*)``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from .install import add_scope_arguments

    add_scope_arguments(parser)
    parser.set_defaults(scope=None)
    parser.add_argument("--claude", metavar="PATH", help="the Claude Code CLI (default: `claude` on PATH)")


def claude_version(executable: str) -> tuple[int, ...] | None:
    """``claude --version`` as numbers, or None when it cannot be run or read."""
    try:
        completed = subprocess.run(
            [executable, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"(\d+)\.(\d+)\.(\d+)", completed.stdout)
    return tuple(int(part) for part in found.groups()) if found else None


def check_answer(stdout: str, exit_code: int, *, must_deny: bool) -> str | None:
    """What is wrong with a PreToolUse hook's answer, or None if Claude Code accepts it.

    Claude Code reads exit code 0 with nothing (no opinion) or one JSON object
    whose ``hookSpecificOutput`` names PreToolUse and a known decision.
    """
    if exit_code != 0:
        return f"exited with {exit_code} (Claude Code reads that as a failure)"
    text = stdout.strip()
    not_denied = "did not deny `rm -rf /` (are the built-in guards turned off?)"
    if not text:
        return not_denied if must_deny else None
    try:
        answer = json.loads(text)
    except json.JSONDecodeError:
        return f"printed something that is not one JSON object: {text[:200]!r}"
    if not isinstance(answer, dict):
        return f"printed JSON that is not an object: {text[:200]!r}"
    specific = answer.get("hookSpecificOutput")
    if specific is not None and (
        not isinstance(specific, dict) or specific.get("hookEventName") != "PreToolUse"
    ):
        return f"answered with a hookSpecificOutput that is not PreToolUse's: {text[:200]!r}"
    decision = (specific or {}).get("permissionDecision")
    if decision not in (None, "allow", "deny", "ask"):
        return f"answered permissionDecision {decision!r}, which Claude Code does not know"
    if must_deny and decision != "deny":
        return not_denied
    return None


def _event(command: str, cwd: str) -> dict[str, Any]:
    return {
        "session_id": "agentbus-doctor",
        "transcript_path": os.devnull,
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_agentbus_doctor",
    }


def _run_command_hook(hook: dict[str, Any], event: dict[str, Any], cwd: str) -> tuple[str, int]:
    env = {**os.environ, "CLAUDE_PROJECT_DIR": cwd}
    completed = subprocess.run(
        ["bash", "-c", str(hook["command"])],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        timeout=float(hook.get("timeout") or 60),
        cwd=cwd,
        env=env,
        check=False,
    )
    return completed.stdout, completed.returncode


def _run_http_hook(hook: dict[str, Any], event: dict[str, Any]) -> tuple[str, int]:
    allowed = set(hook.get("allowedEnvVars") or [])

    def interpolate(value: str) -> str:
        def variable(match: re.Match[str]) -> str:
            name = match.group(1) or match.group(2)
            return os.environ.get(name, "") if name in allowed else ""

        return re.sub(r"\$\{(\w+)\}|\$(\w+)", variable, value)

    headers = {str(k): interpolate(str(v)) for k, v in (hook.get("headers") or {}).items()}
    headers["Content-Type"] = "application/json"
    request = urllib.request.Request(
        str(hook["url"]), data=json.dumps(event).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=float(hook.get("timeout") or 30)) as response:
            return response.read().decode("utf-8", "replace"), 0
    except urllib.error.HTTPError as exc:
        return exc.read().decode("utf-8", "replace"), exc.code
    except OSError as exc:
        return f"cannot reach {hook['url']}: {exc}", 1


class _Report:
    def __init__(self) -> None:
        self.problems = 0

    def ok(self, line: str) -> None:
        print(f"✓ {line}")

    def problem(self, line: str) -> None:
        self.problems += 1
        print(f"✗ {line}")

    def note(self, line: str) -> None:
        print(f"! {line}")


def run(args: argparse.Namespace) -> int:
    from .install import EVENT_SINCE, events_for, is_agentbus_hook, read_settings, settings_path

    report = _Report()
    version = _check_cli(report, args.claude)
    scopes = [args.scope] if args.scope is not None or args.settings else list(_SCOPES)
    found: dict[str, list[tuple[Path, dict[str, Any]]]] = {}
    scoped: dict[str, list[tuple[str, Path, dict[str, Any]]]] = {}
    for scope in scopes:
        path = settings_path(scope or "user", args.settings)
        try:
            settings = read_settings(path)
        except ValueError as exc:
            report.problem(str(exc))
            continue
        hooks = settings.get("hooks")
        unknown = [
            event
            for event in (hooks if isinstance(hooks, dict) else ())
            if version is not None and version < EVENT_SINCE.get(event, version)
        ]
        if unknown and version is not None:
            report.problem(
                f"{path} names hook events that Claude Code {'.'.join(map(str, version))} does not know "
                f"({', '.join(unknown)}): it skips the whole file, every hook in it with it. Run `agentbus "
                "install claude-code` again (it writes only the events this Claude Code knows), or update it"
            )
        for event, groups in hooks.items() if isinstance(hooks, dict) else ():
            for group in groups if isinstance(groups, list) else ():
                for hook in group.get("hooks", []) if isinstance(group, dict) else ():
                    if is_agentbus_hook(hook):
                        found.setdefault(event, []).append((path, hook))
                        scoped.setdefault(event, []).append((scope or "user", path, hook))
    _check_project(report)
    if not found:
        report.problem("no agentbus hook is installed: run `agentbus install claude-code`")
        return 1
    for event in events_for(version):
        entries = found.get(event, [])
        if not entries:
            report.problem(f"{event}: no agentbus hook (run `agentbus install claude-code` again)")
        if len({path for path, _ in entries}) > 1:
            places = ", ".join(str(path) for path, _ in entries)
            report.note(f"{event}: agentbus is installed in {places}; Claude Code runs each")
        for path, hook in entries:
            missing = [
                what
                for what, held in (
                    ('"onFailure": "block"', hook.get("onFailure") == "block"),
                    ("a timeout", isinstance(hook.get("timeout"), (int, float))),
                )
                if not held
            ]
            if missing:
                report.problem(
                    f"{event} in {path}: without {' and '.join(missing)}: a failing hook lets it through"
                )
    for scope, path, hook in scoped.get("PreToolUse", []):
        _check_programs(report, scope, path, hook)
    entries = found.get("PreToolUse", [])
    project_files = {settings_path("project"), settings_path("local")}
    if entries and entries[0][0] in project_files and not plain_agentbus_hook(entries[0][1]):
        path, hook = entries[0]
        report.problem(
            f"PreToolUse hook ({path}) is not a plain `agentbus hook claude-code` command: doctor runs "
            "nothing else from a project's settings (the project writes them). Install agentbus again: "
            "agentbus install claude-code"
        )
        entries = []
    if entries:
        path, hook = entries[0]
        cwd = os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
        for command, must_deny in (("ls", False), ("rm -rf /", True)):
            try:
                if hook.get("type") == "http":
                    stdout, code = _run_http_hook(hook, _event(command, cwd))
                else:
                    stdout, code = _run_command_hook(hook, _event(command, cwd), cwd)
            except subprocess.TimeoutExpired:
                report.problem(f"PreToolUse hook ({path}) did not answer `{command}` within its timeout")
                continue
            except OSError as exc:
                report.problem(f"PreToolUse hook ({path}) could not run: {exc}")
                continue
            wrong = check_answer(stdout, code, must_deny=must_deny)
            if wrong is None:
                report.ok(f"PreToolUse hook ({path}) answered `{command}` as Claude Code expects")
            else:
                report.problem(f"PreToolUse hook ({path}), `{command}`: {wrong}")
    return 1 if report.problems else 0


def plain_agentbus_hook(hook: dict[str, Any]) -> bool:
    """Whether a hook is one `agentbus install` writes: doctor may run it from a project's settings.

    A project's settings are the project's: doctor runs a command from them only when
    it is an installed ``agentbus hook claude-code`` (no shell syntax, an ``agentbus``
    executable or a Python interpreter running one or ``-m agentbus``, each by an
    absolute path outside the project that no one else can write), never one that
    merely mentions agentbus, and posts only to a loopback URL that gets no
    environment variable but the server's token.
    """
    if hook.get("type") == "http":  # to agentbus serve on this machine, with no variable but its token
        from urllib.parse import urlsplit

        from .install import TOKEN_ENV

        allowed = hook.get("allowedEnvVars") or []
        host = urlsplit(str(hook.get("url", ""))).hostname
        return (
            host in ("127.0.0.1", "::1", "localhost")
            and isinstance(allowed, list)
            and set(allowed) <= {TOKEN_ENV}
        )
    programs = hook_programs(str(hook.get("command", "")))
    if not programs:
        return False
    project = os.path.realpath(os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    return all(os.path.isabs(program) and _untrusted_place(program, project) is None for program in programs)


_FLAGS = frozenset({"-I", "-E", "-s", "-P", "-S", "-B"})
"""Interpreter flags `agentbus install` writes (or a user might), before the script or ``-m``."""


def hook_programs(command: str) -> list[str]:
    """The files a plain ``agentbus hook claude-code`` command runs, interpreter first ([] if not plain).

    ``agentbus hook claude-code ...``, ``python [-I|-E ...] /path/agentbus hook claude-code ...``
    or ``python [-I ...] -m agentbus hook claude-code ...``; no shell syntax.
    """
    if any(character in command for character in ";&|$`<>()\n{}*?!#"):
        return []
    try:
        argv = shlex.split(command)
    except ValueError:
        return []
    programs = argv[:1]
    if argv and os.path.basename(argv[0]).startswith("python"):
        rest = argv[1:]
        while rest and rest[0] in _FLAGS:
            rest = rest[1:]
        if rest[:2] == ["-m", "agentbus"]:
            argv = rest[1:]
        elif rest and os.path.basename(rest[0]) == "agentbus":
            programs.append(rest[0])
            argv = rest
        else:
            return []
    elif not argv or os.path.basename(argv[0]) != "agentbus":
        return []
    return programs if argv[1:3] == ["hook", "claude-code"] else []


def _untrusted_place(program: str, project: str) -> str | None:
    """Why someone other than the user (the project, another account) could change ``program``.

    None when it is outside the project and /proc, and neither it nor a directory
    above it (as written, and resolved) is owned by another account or writable by the
    group or others (a sticky directory such as ``/tmp`` aside).
    """
    resolved = os.path.realpath(program)
    if resolved == project or resolved.startswith(project.rstrip(os.sep) + os.sep):
        return f"{program} is inside the project"
    if resolved.startswith("/proc/") or program.startswith("/proc/"):
        return f"{program} is under /proc"
    return _writable_by(program, _changeable_by_others, "the group or others")


def _changeable_by_others(status: os.stat_result) -> bool:
    """Whether an account other than the user and root can replace this file or directory's entries:
    it owns it, or the group or others may write it. A sticky directory (``/tmp``) lets them add
    entries but not rename or remove another owner's, so it does not count."""
    me = os.getuid() if hasattr(os, "getuid") else 0
    if status.st_uid not in (0, me):
        return True
    sticky = stat.S_ISDIR(status.st_mode) and bool(status.st_mode & stat.S_ISVTX)
    return bool(status.st_mode & 0o022) and not sticky


def _writable_by(program: str, writable: Callable[[os.stat_result], bool], whom: str) -> str | None:
    """The first of ``program`` and the directories above it (as written and resolved) ``whom`` can write."""
    seen = set()
    for path in (os.path.abspath(program), os.path.realpath(program)):
        current = path
        while current not in seen:
            seen.add(current)
            try:
                status = os.lstat(current) if current == path else os.stat(current)
            except OSError:
                return f"{current} cannot be read"
            if not stat.S_ISLNK(status.st_mode) and writable(status):
                return f"{current} can be changed by {whom}"
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
    return None


def _check_programs(report: _Report, scope: str, path: Path, hook: dict[str, Any]) -> None:
    """Whether what the PreToolUse hook runs is what the user installed, and stays so.

    Claude Code runs a command hook through a shell in the session's directory,
    with the session's environment (a project's settings may add to it): a
    command found through PATH may be the project's; a program the user can
    write can be changed by anything running as the user (the agent included),
    which for the managed settings undoes what they promise.
    """
    if hook.get("type") != "command":
        return
    command = str(hook.get("command", ""))
    programs = hook_programs(command)
    if not programs:
        return  # not agentbus's own command line: reported elsewhere when it matters
    project = os.path.realpath(os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    if not os.path.isabs(programs[0]):
        found = shutil.which(programs[0])
        report.problem(
            f"PreToolUse hook ({path}) runs `{programs[0]}` by name: the shell finds it through the "
            f"session's PATH (now {found or 'nothing'}), which a project's settings can change. Install "
            "again (agentbus install claude-code): it writes the interpreter's absolute path"
        )
        return
    if os.path.basename(programs[0]).startswith("python") and not ({"-I", "-E"} & set(shlex.split(command))):
        report.problem(
            f"PreToolUse hook ({path}) runs Python without -I: a project's settings can set PYTHONPATH "
            "for it and run their own code in the hook. Install again: agentbus install claude-code"
        )
    elif not os.path.basename(programs[0]).startswith("python"):
        report.problem(
            f"PreToolUse hook ({path}) runs the `agentbus` script, whose Python reads PYTHONPATH: a "
            "project's settings can set it and run their own code in the hook. Install again: "
            "agentbus install claude-code (it writes python -I)"
        )
    if os.path.realpath(programs[0]) == os.path.realpath(sys.executable):
        import agentbus

        programs.append(os.path.dirname(os.path.abspath(agentbus.__file__)))  # what it imports
    me = os.getuid() if hasattr(os, "getuid") else 0
    for program in programs:
        why = _untrusted_place(program, project)
        if why is None and scope == "managed" and os.name == "posix":
            why = _writable_by(program, lambda st: st.st_uid != 0, "a user other than root")
        elif why is None and me != 0:
            why = _writable_by(program, lambda st: st.st_uid == me, "you (and so by the agent)")
        if why is None:
            continue
        if scope == "managed" or "inside the project" in why or "/proc" in why:
            report.problem(
                f"PreToolUse hook ({path}) runs {program}, and {why}: whoever can write it decides "
                "what agentbus answers. Install agentbus where only root can write (a virtual "
                "environment made as root outside home), then install the hook from it again"
            )
        else:
            report.note(f"PreToolUse hook ({path}) runs {program}, and {why}")


def _check_project(report: _Report) -> None:
    """What the project's own settings files do to agentbus's hooks (read only, nothing run)."""
    from .install import is_agentbus_hook, read_settings, settings_path

    try:
        managed_settings = read_settings(settings_path("managed"))
    except (ValueError, OSError):
        managed_settings = {}
    managed = "PreToolUse" in _hooked_events(managed_settings, is_agentbus_hook)
    managed_only = managed_settings.get("allowManagedHooksOnly") is True
    from .hook_env import project_env_names

    for file, name in project_env_names(str(settings_path("project").parent.parent)):
        report.problem(
            f'{file} sets {name} in "env", which agentbus reads: the hook denies every call '
            "until it is removed (a project does not choose agentbus's configuration)"
        )
    if managed_settings.get("disableSkillShellExecution") is not True:
        for skill, why in _skills_that_run_commands(settings_path("project").parent):
            report.problem(
                f"{skill} {why} when the model calls it: Claude Code runs them with no Bash call (agentbus "
                "judges each in its PreSkillShellCommand hook, before it runs). Keep skills from running "
                "commands: sudo agentbus install claude-code --managed (disableSkillShellExecution)"
            )
    if not managed_only:
        from .project_hooks import agent_hooks, plugin_hooks, project_directories, skill_hooks

        project = str(settings_path("project").parent.parent.resolve())
        directories = project_directories({"cwd": project})
        for found in skill_hooks(directories, ""):
            report.problem(
                f"{found}: hooks a skill defines run while it is loaded, beside agentbus's, and may replace "
                "a call agentbus judged; agentbus denies every Skill call in this project. Remove them, or "
                "run only managed hooks: sudo agentbus install claude-code --managed"
            )
        for found in agent_hooks(directories, None):
            report.problem(
                f"{found}: hooks an agent defines run for its calls, beside agentbus's, and may replace a "
                "call agentbus judged; agentbus denies starting it, and every call while it is the main "
                "thread. Move it to ~/.claude/agents, or run only managed hooks: "
                "sudo agentbus install claude-code --managed"
            )
        for found in plugin_hooks(directories):
            report.problem(
                f"{found}: Claude Code loads it with no prompt once the project is trusted, and its hooks "
                "run beside agentbus's and may replace a call agentbus judged; agentbus denies every call "
                "in this project. Enable plugins you trust in your own settings, or run only managed "
                "hooks: sudo agentbus install claude-code --managed"
            )
    for scope in ("project", "local"):
        path = settings_path(scope)
        try:
            settings = read_settings(path)
        except (ValueError, OSError):
            continue  # the scope loop above reports an unreadable file
        if settings.get("disableAllHooks") is True:
            if managed:
                report.note(
                    f'{path} sets "disableAllHooks": true: Claude Code runs no user or project hook here; '
                    "agentbus's, in the managed settings, still runs"
                )
            else:
                report.problem(
                    f'{path} sets "disableAllHooks": true: Claude Code runs none of agentbus\'s hooks '
                    "in this project. Remove it, or install agentbus where no project can turn it off: "
                    "sudo agentbus install claude-code --managed"
                )
        own = _hooked_events(settings, lambda hook: not is_agentbus_hook(hook))
        if own and managed_only:
            report.note(
                f"{path} defines its own hooks ({', '.join(own)}): the managed settings' "
                '"allowManagedHooksOnly": true keeps them from running'
            )
        elif "PreToolUse" in own or "PermissionRequest" in own:
            report.problem(
                f"{path} defines its own PreToolUse or PermissionRequest hook: Claude Code runs it beside "
                "agentbus's, and its updatedInput would replace a call agentbus approved with a command "
                "agentbus never saw (or its answer approve what agentbus asks about), so agentbus asks "
                "you about each call it matches (Claude Code's prompt shows the call that will run), and "
                "denies it where a PermissionRequest hook of the project's would answer. Remove it, or "
                "run only managed hooks: sudo agentbus install claude-code --managed"
            )
        elif own:
            report.note(
                f"{path} defines its own hooks ({', '.join(own)}): Claude Code runs them "
                "beside agentbus's, as you, with whatever they hold (agentbus does not judge them); "
                "sudo agentbus install claude-code --managed runs only managed hooks"
            )
        for key in _COMMAND_SETTINGS:
            if key in settings:
                report.problem(
                    f"{path} sets {key}: Claude Code runs that command of the project's itself, outside "
                    "any tool call, so no hook judges it (`claude -p` asks nobody to trust the project "
                    "first, and managed hooks do not stop it). Remove it"
                )
        servers = _project_mcp_servers(settings, path.parent.parent)
        if servers:
            report.problem(
                f"{path} approves the project's own MCP servers ({', '.join(servers)}, in .mcp.json): "
                "Claude Code starts their commands as the session starts, before any tool call. Remove "
                'the approval; managed settings with "allowManagedMcpServersOnly" keep them from starting'
            )
        permissions = settings.get("permissions")
        allowed = permissions.get("allow") if isinstance(permissions, dict) else None
        rules = allowed if isinstance(allowed, list) else []
        wholesale = [rule for rule in rules if isinstance(rule, str) and _WHOLESALE_BASH.match(rule.strip())]
        if wholesale:
            report.note(
                f"{path} allows Bash wholesale ({', '.join(map(repr, wholesale))}): Claude Code asks "
                "about no command, so agentbus's hook is the only check on what runs"
            )


_COMMAND_SETTINGS = (
    "apiKeyHelper",
    "awsAuthRefresh",
    "awsCredentialExport",
    "otelHeadersHelper",
    "statusLine",
)
"""Settings whose value is a command Claude Code runs itself (a project's apiKeyHelper and
.mcp.json servers ran in `claude -p`, managed hooks or not: checked with the real CLI 2.1.332)."""


def _project_mcp_servers(settings: dict[str, Any], project: Path) -> list[str]:
    """The project's .mcp.json servers its own settings approve (all, or those named)."""
    enabled = settings.get("enabledMcpjsonServers")
    every = settings.get("enableAllProjectMcpServers") is True
    if not every and not (isinstance(enabled, list) and enabled):
        return []
    largest = 4 * 1024 * 1024
    try:
        with open(project / ".mcp.json", "rb") as handle:
            text = handle.read(largest + 1)
    except OSError:
        return []
    if len(text) > largest:  # padded past what doctor reads: it may name any server
        return ["any: .mcp.json is over 4 MiB, not read"]
    try:
        data = json.loads(text)
    except ValueError:
        return []
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    names = [str(name) for name in servers] if isinstance(servers, dict) else []
    return names if every else [name for name in names if isinstance(enabled, list) and name in enabled]


_INLINE_SHELL = re.compile(r"!`[^`\n]+`|^```!", re.M)
"""A skill's or slash command's shell command, which Claude Code runs as it loads the text."""


_LARGEST_SKILL = 1024 * 1024


def _skills_that_run_commands(claude_dir: Path) -> list[tuple[Path, str]]:
    """The project's skills and slash commands (.claude/skills, .claude/commands) that hold a
    command, with what doctor saw; one too large to read whole may hold one past what was read."""
    found = []
    candidates = [*claude_dir.glob("skills/*/SKILL.md"), *claude_dir.glob("commands/**/*.md")]
    for file in sorted(candidates)[:1000]:
        try:
            with open(file, encoding="utf-8", errors="replace") as handle:
                text = handle.read(_LARGEST_SKILL + 1)
        except OSError:
            continue
        if len(text) > _LARGEST_SKILL:
            found.append(
                (file, "is over 1 MiB, more than doctor reads: it may run shell commands of its own")
            )
        elif _INLINE_SHELL.search(text):
            found.append((file, "runs shell commands of its own (!`...`)"))
    return found


def _hooked_events(settings: dict[str, Any], which: Callable[[Any], bool]) -> list[str]:
    """The events a settings file hooks with an entry ``which`` picks, in the file's order."""
    hooks = settings.get("hooks")
    events = []
    for event, groups in hooks.items() if isinstance(hooks, dict) else ():
        for group in groups if isinstance(groups, list) else ():
            entries = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(entries, list) and any(which(hook) for hook in entries):
                events.append(str(event))
                break
    return events


def _check_cli(report: _Report, explicit: str | None) -> tuple[int, ...] | None:
    """Claude Code's version (None: not found or not readable), reporting what it means."""
    executable = explicit or shutil.which("claude")
    if executable is None:
        report.note("no `claude` on PATH: cannot check its version (pass --claude PATH)")
        return None
    version = claude_version(executable)
    if version is None:
        report.note(f"cannot read the version of {executable}")
        return None
    shown = ".".join(map(str, version))
    if version < FAIL_CLOSED_VERSION:
        wanted = ".".join(map(str, FAIL_CLOSED_VERSION))
        report.problem(
            f'Claude Code {shown} is older than {wanted}: it ignores "onFailure": "block", so a hook '
            "that crashes, cannot start or times out lets the tool call run (PreToolUse) and the prompt "
            "through (UserPromptSubmit), and an unchecked output reaches the model (PostToolUse). "
            f"Update Claude Code to {wanted} or later"
        )
    else:
        report.ok(f"Claude Code {shown}: a failing hook blocks the call (onFailure)")
    return version
