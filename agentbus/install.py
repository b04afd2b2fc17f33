"""Install agentbus's Claude Code hooks in a settings.json, or remove them.

Writes one hook entry per event agentbus answers (tool calls, prompts, the
session's lifecycle) into Claude Code's settings file: the user's
(~/.claude/settings.json, every project; $CLAUDE_CONFIG_DIR/settings.json when
that is set, as Claude Code then reads no other), the project's (.claude/settings.json),
the project's local one (.claude/settings.local.json) or the machine's managed
settings (--managed: /etc/claude-code/managed-settings.json on Linux), the one
scope a project's ``"disableAllHooks": true`` cannot turn off; there it also
sets ``"allowManagedHooksOnly": true``, so that no user or project hook runs
beside agentbus's (a project's PreToolUse hook could otherwise rewrite a call
agentbus approved), and ``"disableSkillShellExecution": true``, so that no
skill runs a shell command without a Bash call. Running it again
changes nothing; the user's other hooks and settings are kept; --uninstall
removes only agentbus's entries.

Every entry carries ``"onFailure": "block"`` and a ``timeout``: since Claude
Code 2.1.295 a hook that crashes, cannot start or outlives its timeout then
blocks the tool call (or the prompt) instead of letting it through. Older
versions ignore the switch (`agentbus doctor` says which version you have).

``--hook-args`` are passed to `agentbus hook claude-code` (a configuration,
middleware, the audit log), for the command hook only.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .userdirs import claude_config_dir_name

__all__ = [
    "EVENTS",
    "EXAMPLES",
    "TOOL_EVENTS",
    "add_arguments",
    "hook_command",
    "is_agentbus_hook",
    "managed_only",
    "managed_settings_path",
    "run",
    "settings_path",
    "update_settings",
]

TOOL_EVENTS = ("PreToolUse", "PreSkillShellCommand", "PostToolUse", "PostToolUseFailure")
"""Events whose entries take a tool ``matcher`` ("*": every tool, MCP tools too; for
PreSkillShellCommand, the shell a skill's command runs in)."""

EVENTS = (
    *TOOL_EVENTS,
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
)
"""The events agentbus answers (agentbus.adapters.claude_code.HANDLED_EVENTS)."""

EVENT_SINCE: dict[str, tuple[int, int, int]] = {"PreSkillShellCommand": (2, 1, 332)}
"""The first Claude Code that knows each event newer than 2.1.295, read off each release's binary:
a Claude Code that meets an event it does not know may skip the whole settings file ("Invalid
key in record"), agentbus's other hooks with it (see :func:`events_for`)."""

DEFAULT_TIMEOUT = 30
MANAGED_ONLY = "allowManagedHooksOnly"
"""The managed setting that runs the managed settings' hooks and no others (see :func:`managed_only`)."""
NO_SKILL_SHELL = "disableSkillShellExecution"
"""The managed setting that keeps skills and slash commands from running shell commands of their own."""
DEFAULT_URL = "http://127.0.0.1:8787/claude-code"
TOKEN_ENV = "AGENTBUS_SERVE_TOKEN"

EXAMPLES = """\
examples:
  agentbus install claude-code                      # ~/.claude/settings.json, command hook
  agentbus install claude-code --project --hook-args="--config ~/agentbus.toml"
  agentbus install claude-code --http               # for `agentbus serve`
  sudo agentbus install claude-code --managed       # the machine's managed settings: no project turns it off
  agentbus install claude-code --uninstall
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runtime", choices=("claude-code",), help="the agent runtime to install hooks for")
    add_scope_arguments(parser)
    parser.add_argument(
        "--http", action="store_true", help="HTTP hooks for `agentbus serve` instead of commands"
    )
    parser.add_argument("--url", default=DEFAULT_URL, help=f"the HTTP hooks' URL (default {DEFAULT_URL})")
    parser.add_argument(
        "--timeout",
        type=int,
        default=DEFAULT_TIMEOUT,
        help=f"seconds Claude Code waits for each hook before it blocks the call (default {DEFAULT_TIMEOUT})",
    )
    parser.add_argument("--uninstall", action="store_true", help="remove agentbus's entries, keep the rest")
    parser.add_argument(
        "--hook-args",
        default="",
        metavar="ARGS",
        help='arguments for `agentbus hook claude-code`, as one string: --hook-args="--config agentbus.toml"',
    )
    parser.add_argument(
        "--claude",
        metavar="PATH",
        help="the Claude Code CLI whose version says which hook events to write (default: `claude` on PATH)",
    )


def add_scope_arguments(parser: argparse.ArgumentParser) -> None:
    """--user / --project / --local / --managed / --settings: which settings file (shared with doctor)."""
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument(
        "--user",
        action="store_const",
        const="user",
        dest="scope",
        help="~/.claude, or $CLAUDE_CONFIG_DIR (default)",
    )
    scope.add_argument(
        "--project", action="store_const", const="project", dest="scope", help=".claude/settings.json"
    )
    scope.add_argument(
        "--local", action="store_const", const="local", dest="scope", help=".claude/settings.local.json"
    )
    scope.add_argument(
        "--managed",
        action="store_const",
        const="managed",
        dest="scope",
        help=f"the machine's managed settings ({managed_settings_path()}, as root): no project can turn off",
    )
    scope.add_argument("--settings", metavar="PATH", help="this settings file")
    parser.set_defaults(scope="user")


def managed_settings_path() -> Path:
    """The file Claude Code reads its managed (administrator's) settings from on this platform.

    Managed settings outrank the user's and the project's: a ``disableAllHooks``
    in any other settings file leaves their hooks running.
    """
    if sys.platform == "darwin":
        return Path("/Library/Application Support/ClaudeCode/managed-settings.json")
    if sys.platform == "win32":
        return Path("C:/Program Files/ClaudeCode/managed-settings.json")
    return Path("/etc/claude-code/managed-settings.json")


def settings_path(scope: str, explicit: str | None = None) -> Path:
    """The settings file of a scope; the project is $CLAUDE_PROJECT_DIR or the working directory."""
    if explicit:
        return Path(explicit).expanduser()
    if scope == "managed":
        return managed_settings_path()
    if scope == "user":  # $CLAUDE_CONFIG_DIR, where Claude Code reads the user's settings when it is set
        return Path(claude_config_dir_name(), "settings.json")
    project = Path(os.environ.get("CLAUDE_PROJECT_DIR") or Path.cwd())
    return project / ".claude" / ("settings.local.json" if scope == "local" else "settings.json")


def hook_command(hook_args: Sequence[str] = ()) -> str:
    """The shell command that runs this installation's ``agentbus hook claude-code``.

    This interpreter by its absolute path, in isolated mode (``-I``), running
    this installation's ``agentbus`` script (or ``-m agentbus``): Claude Code
    gives its hooks the environment a project's ``.claude/settings.json``
    sets (``"env"``), and a ``PYTHONPATH`` there would otherwise run the
    project's code in the hook, or import the project's own ``agentbus``. An
    installation in the user's site-packages needs that directory, so it gets
    ``-E`` (the environment ignored) without ``-s``. Middleware the hook
    imports from elsewhere is named with ``--import-path`` in ``hook_args``.
    """
    if not _in_user_site():
        script = Path(sys.executable).parent / "agentbus"
        runner = [str(script)] if script.is_file() else ["-m", "agentbus"]
        return shlex.join([sys.executable, "-I", *runner, "hook", "claude-code", *hook_args])
    # The user's site-packages is on the path only without -s: -E keeps the environment out.
    user_script = _user_script()
    if user_script is not None:  # a script's sys.path[0] is its own directory, not the working one
        runner = ["-E", str(user_script)]
    elif sys.version_info >= (3, 11):
        runner = ["-E", "-P", "-m", "agentbus"]  # -P: no working directory on sys.path
    else:
        raise ValueError(
            f"agentbus is installed in the user's site-packages ({_package_directory()}) without its "
            f"`agentbus` script in {_user_scripts_directory()}, and on Python "
            f"{sys.version_info.major}.{sys.version_info.minor} `python -m agentbus` would import a "
            "project's own `agentbus` from the working directory. Reinstall it so that pip writes the "
            "script (pip install --user --force-reinstall agentbus), or install it in a virtual environment"
        )
    return shlex.join([sys.executable, *runner, "hook", "claude-code", *hook_args])


def _package_directory() -> str:
    """The directory agentbus was imported from (the one holding the ``agentbus`` package)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _in_user_site() -> bool:
    """Whether agentbus was imported from the user's site-packages (pip install --user)."""
    import site

    user_site = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    return bool(user_site) and os.path.realpath(_package_directory()) == os.path.realpath(str(user_site))


def _user_scripts_directory() -> str:
    """Where ``pip install --user`` writes scripts (``~/.local/bin`` on Linux), not beside the interpreter."""
    import sysconfig

    return sysconfig.get_path("scripts", scheme=sysconfig.get_preferred_scheme("user"))


def _user_script() -> Path | None:
    """The ``agentbus`` script of a user-site installation, or None if pip wrote none."""
    script = Path(_user_scripts_directory()) / "agentbus"
    return script if script.is_file() else None


def is_agentbus_hook(hook: Any) -> bool:
    """Whether a settings.json hook entry is one agentbus wrote."""
    if not isinstance(hook, dict):
        return False
    if hook.get("type") == "command":
        command = str(hook.get("command", ""))
        return "agentbus" in command and "hook claude-code" in command
    if hook.get("type") == "http":
        return str(hook.get("url", "")).split("?", 1)[0].rstrip("/").endswith("/claude-code")
    return False


def _entry(args: argparse.Namespace, hook_args: Sequence[str]) -> dict[str, Any]:
    entry: dict[str, Any]
    if args.http:
        entry = {
            "type": "http",
            "url": args.url,
            "headers": {"Authorization": f"Bearer ${TOKEN_ENV}"},
            "allowedEnvVars": [TOKEN_ENV],
        }
    else:
        entry = {"type": "command", "command": hook_command(hook_args)}
    entry["timeout"] = args.timeout
    entry["onFailure"] = "block"
    return entry


def events_for(version: tuple[int, ...] | None) -> tuple[str, ...]:
    """The events to install for Claude Code ``version``: all of them when it is unknown (None).

    Claude Code 2.1.268, 2.1.295 and 2.1.331 ran agentbus's hooks beside PreSkillShellCommand,
    which they do not know (tests/e2e run on them by hand, ``claude -p``), but public reports of
    files skipped for "Invalid key in record" are many: an event is left out wherever the version
    says it is unknown, and doctor reports a file that names one.
    """
    return tuple(event for event in EVENTS if version is None or version >= EVENT_SINCE.get(event, version))


def update_settings(
    settings: dict[str, Any], entry: dict[str, Any] | None, events: Sequence[str] = EVENTS
) -> dict[str, Any]:
    """``settings`` without agentbus's hook entries, plus ``entry`` for each of ``events`` (None: remove).

    Other hooks, matchers and settings are kept as they are, in their order
    (an event left with an empty list is dropped).
    """
    updated = dict(settings)
    hooks = updated.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise ValueError(f"'hooks' is a {type(hooks).__name__}, not an object: fix the settings file first")
    hooks = {event: _without_agentbus(groups) for event, groups in (hooks or {}).items()}
    if entry is not None:
        for event in events:
            group: dict[str, Any] = {"matcher": "*"} if event in TOOL_EVENTS else {}
            group["hooks"] = [dict(entry)]
            hooks[event] = [*hooks.get(event, []), group]
    hooks = {event: groups for event, groups in hooks.items() if groups != []}
    if hooks:
        updated["hooks"] = hooks
    else:
        updated.pop("hooks", None)
    return updated


def managed_only(settings: dict[str, Any], on: bool) -> dict[str, Any]:
    """Managed settings that close what runs beside agentbus's hooks (``on``), or no longer say so.

    Both shown with the real CLI in tests/e2e/test_claude_code_settings.py:

    - a project's own PreToolUse hook runs beside agentbus's and may answer
      with ``updatedInput``: Claude Code then runs the project's command in
      place of the one agentbus approved. ``allowManagedHooksOnly`` turns off
      every hook that is not in the managed settings (the user's own too);
    - a project's skill runs the shell commands written in it (``!`cmd```)
      when the model calls the Skill tool, with no Bash call for agentbus to
      judge. ``disableSkillShellExecution`` puts a placeholder in their place
      (in the user's skills and slash commands too).

    Uninstalling removes both with agentbus's hooks.
    """
    updated = dict(settings)
    for key in (MANAGED_ONLY, NO_SKILL_SHELL):
        if on:
            updated[key] = True
        else:
            updated.pop(key, None)
    return updated


def _without_agentbus(groups: Any) -> Any:
    if not isinstance(groups, list):
        return groups
    kept = []
    for group in groups:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            others = [hook for hook in group["hooks"] if not is_agentbus_hook(hook)]
            if not others and group["hooks"]:
                continue  # the group held only agentbus's hooks
            group = {**group, "hooks": others}
        kept.append(group)
    return kept


def read_settings(path: Path) -> dict[str, Any]:
    """A settings file's object ({} if there is none); ValueError saying what is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    if not text.strip():
        return {}
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON ({exc}); fix it first, nothing was changed") from None
    if not isinstance(settings, dict):
        raise ValueError(f"{path} holds a {type(settings).__name__}, not an object; nothing was changed")
    return settings


def write_settings(path: Path, settings: dict[str, Any]) -> None:
    """Replace the file in one step (a crash leaves the old file or the new one), keeping its mode."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.agentbus-{os.getpid()}")
    temporary.write_text(json.dumps(settings, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    try:
        os.chmod(temporary, path.stat().st_mode & 0o7777)
    except FileNotFoundError:
        pass
    os.replace(temporary, path)


def _events_for_the_cli(explicit: str | None) -> tuple[str, ...]:
    """The events the Claude Code at hand knows, saying on stderr which are left out and why."""
    import shutil

    from .doctor import claude_version

    executable = explicit or shutil.which("claude")
    version = claude_version(executable) if executable else None
    events = events_for(version)
    if version is None:
        print(
            "agentbus install: cannot read Claude Code's version (pass --claude PATH): writing every "
            "event, PreSkillShellCommand (2.1.332) too; run `agentbus doctor` to check them",
            file=sys.stderr,
        )
    elif left_out := [event for event in EVENTS if event not in events]:
        needs = ", ".join(f"{event} (from {'.'.join(map(str, EVENT_SINCE[event]))})" for event in left_out)
        print(
            f"agentbus install: Claude Code {'.'.join(map(str, version))} does not know {needs}: not "
            "written (a settings file naming an unknown event may be skipped whole). Skills' commands "
            "are judged at the Skill call; install again after updating Claude Code",
            file=sys.stderr,
        )
    return events


def run(args: argparse.Namespace) -> int:
    path = settings_path(args.scope, args.settings)
    try:
        hook_args = shlex.split(args.hook_args)
    except ValueError as exc:
        print(f"agentbus install: --hook-args: {exc}", file=sys.stderr)
        return 2
    if args.uninstall and (args.http or hook_args):
        print("agentbus install: --uninstall takes no --http or hook arguments", file=sys.stderr)
        return 2
    if args.http and hook_args:
        print("agentbus install: hook arguments are for the command hook; pass them to `agentbus serve`",
              file=sys.stderr)  # fmt: skip
        return 2
    if args.timeout <= 0:
        print("agentbus install: --timeout must be a positive number of seconds", file=sys.stderr)
        return 2
    events = EVENTS if args.uninstall else _events_for_the_cli(args.claude)
    try:
        settings = read_settings(path)
        updated = update_settings(settings, None if args.uninstall else _entry(args, hook_args), events)
        if args.scope == "managed":
            updated = managed_only(updated, not args.uninstall)
    except ValueError as exc:
        print(f"agentbus install: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"agentbus install: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if updated == settings:
        print(f"agentbus: {path} already {'has no agentbus hooks' if args.uninstall else 'up to date'}")
        return 0
    try:
        write_settings(path, updated)
    except PermissionError as exc:
        print(f"agentbus install: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        if args.scope == "managed" and not args.settings:
            print("The managed settings belong to the machine's administrator: run it as root "
                  "(sudo agentbus install claude-code --managed), or ask your administrator to.",
                  file=sys.stderr)  # fmt: skip
        return 1
    except OSError as exc:
        print(f"agentbus install: cannot write {path}: {exc}", file=sys.stderr)
        return 1
    if args.uninstall:
        print(f"agentbus: removed agentbus's hooks from {path}")
    else:
        kind = f"HTTP hooks ({args.url})" if args.http else "command hooks"
        print(f"agentbus: installed {kind} for {', '.join(events)} in {path}")
        if args.scope == "managed":
            print(f'and "{MANAGED_ONLY}": true there: Claude Code runs no user or project hook, '
                  f'so none can rewrite a call agentbus approved; "{NO_SKILL_SHELL}": true: no skill '
                  "runs a shell command agentbus does not see")  # fmt: skip
        where = f" --settings {shlex.quote(str(path))}" if args.settings else f" --{args.scope}"
        print(f"Check them with: agentbus doctor{'' if where == ' --user' else where}")
    return 0
