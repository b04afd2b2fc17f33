"""The hooks a project brings into Claude Code that can change or answer what agentbus decided.

Claude Code runs a project's own hooks beside agentbus's, all at once, and merges
their answers (checked with the real CLI 2.1.332, tests/e2e/test_claude_code_settings.py
and test_claude_code_agents_and_plugins.py): a deny wins and an "allow" does not
outvote agentbus's deny or ask, but a PreToolUse hook's ``updatedInput`` replaces
the call agentbus judged (the answer that ends last wins), and Claude Code runs
the replacement, which no hook sees. They come from:

- the project's ``.claude/settings.json`` and ``settings.local.json``;
- the frontmatter of its skills (a skill's ``hooks:`` run while it is loaded);
- the frontmatter of its agents (``.claude/agents/**/*.md``: they run for that
  agent's calls, a sub-agent's or the main thread's when the settings' ``"agent"``
  names it), once the project is trusted;
- the plugins its settings enable, or whose marketplace they declare (loaded with
  no prompt once the project is trusted; a marketplace declared under the name of
  the user's own replaces it);

and a project's PermissionRequest hook answers the prompt agentbus's "ask" asks
for. So the PreToolUse hook (:func:`agentbus.adapters.claude_code.pre_tool_use`)
asks about a call that a PreToolUse hook of the project's settings matches (Claude
Code's prompt, a `--permission-prompt-tool` and the interactive one, shows the call that will run, the
replacement included: tests/e2e/test_claude_code_prompt.py), and denies:

- such a call where agentbus blocks it, rewrote it, or a PermissionRequest hook of
  the project's would answer the prompt;
- a call agentbus asks about, where a project's PermissionRequest hook matches;
- a Skill call, where a project's skill defines hooks in its frontmatter;
- an Agent call starting, and every call of, a project's agent that defines hooks;
- every call while the project brings a plugin whose files may define hooks, or that
  agentbus cannot read (:func:`plugin_hooks`).

The machine's managed settings with ``"allowManagedHooksOnly": true``
(``agentbus install claude-code --managed``) run no project, plugin or agent
hook, and then nothing here counts. An entry ``agentbus install`` writes
(agentbus's own, in a project-scope install) is not the project's; a plugin the
user's own settings enable (``$CLAUDE_CONFIG_DIR`` or ``~/.claude``) is the
user's. Files are read, never run; one too large to read whole counts as
defining what it may define.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Iterator, Mapping
from typing import Any

from .userdirs import claude_config_dir_name

__all__ = [
    "REWRITING_EVENTS",
    "agent_hooks",
    "foreign_hooks",
    "managed_hooks_only",
    "plugin_hooks",
    "project_directories",
    "skill_hooks",
]

REWRITING_EVENTS = ("PreToolUse", "PermissionRequest")
"""Hook events whose answer can replace a call's input or approve it."""

_SETTINGS = ("settings.json", "settings.local.json")
_LARGEST = 4 * 1024 * 1024
_LARGEST_SKILL = 1024 * 1024
_MOST_SKILLS = 1000
_MOST_PLUGIN_FILES = 20000
_SIMPLE_MATCHER = re.compile(r"^[A-Za-z0-9_|]*$")
_FRONTMATTER_HOOKS = re.compile(r"""(?<![\w-])["']?hooks["']?\s*:""")
_BOM = "\ufeff"
_NAME_KEY = re.compile(r"""^["']?name["']?[ \t]*:""", re.M)
_PLAIN_NAME = re.compile(r"""^name:[ \t]*(["']?)([A-Za-z0-9_.:-]+)\1[ \t]*$""", re.M)


def project_directories(payload: Mapping[str, Any]) -> list[str]:
    """Where the session's project settings may be: ``$CLAUDE_PROJECT_DIR``, else the event's
    ``cwd`` and the directories above it; never the home directory (its ``.claude`` is the user's
    own, where a session started in it finds its project settings too)."""
    home = os.path.realpath(os.path.expanduser("~"))
    project = os.environ.get("CLAUDE_PROJECT_DIR")
    if project:
        return [] if os.path.realpath(project) == home else [project]
    cwd = payload.get("cwd")
    if not isinstance(cwd, str) or not os.path.isabs(cwd):
        return []
    found = []
    directory = os.path.normpath(cwd)
    while True:
        if os.path.realpath(directory) != home:
            found.append(directory)
        parent = os.path.dirname(directory)
        if parent == directory:
            return found
        directory = parent


def foreign_hooks(projects: list[str], event: str, tool_name: str) -> list[str]:
    """Where the project's settings define a hook on ``event`` that matches ``tool_name``
    ("PATH: PreToolUse hook, matcher 'Bash'"), agentbus's own entries aside."""
    found = []
    for project in projects:
        for name in _SETTINGS:
            path = os.path.join(project, ".claude", name)
            settings = _read_json(path)
            if settings is None:
                continue
            if settings is _TOO_LARGE:
                found.append(
                    f"{path} (over {_LARGEST // (1024 * 1024)} MiB, not read: it may define any hook)"
                )
                continue
            for matcher in _matching_groups(settings, event, tool_name):
                found.append(f"{path}: {event} hook, matcher {matcher!r}")
    return found


def skill_hooks(projects: list[str], skill: str) -> list[str]:
    """The project's skills and slash commands that define hooks in their frontmatter (any
    may be PreToolUse); ``skill`` (``apps/web:deploy``) adds the directory it is scoped to."""
    found = []
    for claude_dir in _claude_dirs(projects, skill):
        candidates = [
            os.path.join(claude_dir, "skills", entry, "SKILL.md") for entry in _listing(claude_dir, "skills")
        ]
        candidates += list(_markdown_under(os.path.join(claude_dir, "commands")))
        if len(candidates) > _MOST_SKILLS:
            found.append(f"{claude_dir} (more than {_MOST_SKILLS} skills and commands: not all read)")
            candidates = candidates[:_MOST_SKILLS]
        for path in candidates:
            why = _frontmatter_hooks(path)
            if why:
                found.append(f"{path} ({why})")
    return found


def agent_hooks(projects: list[str], agent_type: str | None) -> list[str]:
    """The project's sub-agent definitions (``.claude/agents/**/*.md``) that define hooks in their
    frontmatter and may be the agent ``agent_type`` (one whose name cannot be read plainly may be any;
    None: every one).

    Claude Code 2.1.332 runs such hooks for the agent's own calls, once the project is trusted: for a
    sub-agent the Agent tool starts, and for the main thread when the settings' ``"agent"`` (or
    ``--agent``) names it; their ``updatedInput`` replaces a call agentbus judged.
    """
    found = []
    for project in projects:
        directory = os.path.join(project, ".claude", "agents")
        paths = list(itertools.islice(_markdown_under(directory), _MOST_SKILLS + 1))
        if len(paths) > _MOST_SKILLS:
            found.append(f"{directory} (more than {_MOST_SKILLS} agents: not all read)")
            paths = paths[:_MOST_SKILLS]
        for path in paths:
            why = _frontmatter_hooks(path)
            if not why:
                continue
            name = _agent_name(path)
            if agent_type is None or name is None or name.casefold() == agent_type.casefold():
                found.append(f"{path} ({why})")
    return found


def plugin_hooks(projects: list[str]) -> list[str]:
    """The plugins the project brings that may run hooks: those its settings enable
    (``enabledPlugins``) and the user's own settings do not, and any enabled plugin whose marketplace
    the project declares (``extraKnownMarketplaces``), since that declaration chooses where the plugin
    comes from.

    Claude Code 2.1.332 in a trusted project loads such a plugin with no prompt, in ``claude -p``
    too, and runs its hooks (a PreToolUse hook's ``updatedInput`` replaces a call agentbus judged); a
    marketplace the project declares under the name of the user's own replaces it. A plugin counts
    when it may define hooks (:func:`_plugin_hooks`): its marketplace entry, ``plugin.json``,
    ``hooks/hooks.json``, ``settings.json`` or a Markdown file's frontmatter (its skills, commands and
    agents) defines them, or its files cannot be read here (a marketplace or plugin that is not a
    local directory, a file too large or unreadable): fail closed.
    """
    config = claude_config_dir_name()
    user = _read_json(os.path.join(config, "settings.json"))
    users_own = _enabled(user) if isinstance(user, dict) and user is not _TOO_LARGE else set()
    files = []
    for project in projects:
        for name in _SETTINGS:
            path = os.path.join(project, ".claude", name)
            settings = _read_json(path)
            if settings is not None:
                files.append((path, settings))
    enabled = set(users_own)
    for _, settings in files:
        enabled |= _enabled(settings)
    sources = _marketplace_sources(files, config, user)
    found = []
    for path, settings in files:
        if settings is _TOO_LARGE:
            continue  # foreign_hooks says so already
        for plugin in sorted(_enabled(settings) - users_own):
            why = _plugin_hooks(plugin, sources)
            if why:
                found.append(f"{path}: enabledPlugins {plugin!r} (a plugin the project enables: {why})")
        markets = settings.get("extraKnownMarketplaces")
        for market in sorted(markets) if isinstance(markets, dict) else ():
            chosen = sorted(plugin for plugin in enabled if plugin.rpartition("@")[2] == market)
            hooked = [f"{plugin}: {why}" for plugin in chosen if (why := _plugin_hooks(plugin, sources))]
            if hooked:
                found.append(
                    f"{path}: extraKnownMarketplaces {market!r} (the project chooses where "
                    f"{'; '.join(hooked)} comes from)"
                )
    return found


def _marketplace_sources(
    files: list[tuple[str, dict[str, Any]]], config: str, user: dict[str, Any] | None
) -> dict[str, list[Any]]:
    """Each marketplace name -> the sources Claude Code may take it from: the project's declarations
    where it declares one (they replace the user's), else the user's (``known_marketplaces.json``,
    the user's settings)."""
    project: dict[str, list[Any]] = {}
    for _, settings in files:
        markets = settings.get("extraKnownMarketplaces")
        for market, entry in markets.items() if isinstance(markets, dict) else ():
            project.setdefault(str(market), []).append(
                entry.get("source") if isinstance(entry, dict) else None
            )
    users: dict[str, list[Any]] = {}
    known = _read_json(os.path.join(config, "plugins", "known_marketplaces.json"))
    declared = user.get("extraKnownMarketplaces") if isinstance(user, dict) else None
    for markets in (known, declared):
        for market, entry in markets.items() if isinstance(markets, dict) else ():
            users.setdefault(str(market), []).append(entry.get("source") if isinstance(entry, dict) else None)
    if known is _TOO_LARGE:
        return {**{market: [None] for market in users}, **project, "": [None]}
    return {**users, **project}


def _plugin_hooks(plugin: str, sources: Mapping[str, list[Any]]) -> str:
    """Why the plugin ``name@marketplace`` may define hooks ('' when its files say it defines none)."""
    name, _, market = plugin.rpartition("@")
    found = sources.get(market) or sources.get("")
    if not name or not found:
        return f"its marketplace {market!r} is not one agentbus can find, so its hooks were not read"
    for source in found:
        why = _source_hooks(source, name)
        if why:
            return why
    return ""


def _source_hooks(source: Any, name: str) -> str:
    kind = source.get("source") if isinstance(source, dict) else None
    root = source.get("path") if isinstance(source, dict) else None
    if kind != "directory" or not isinstance(root, str) or not os.path.isabs(root):
        return f"its marketplace is a {kind or 'source'!s} agentbus does not read (only a local directory)"
    listing = _read_json(os.path.join(root, ".claude-plugin", "marketplace.json"))
    if listing is None or listing is _TOO_LARGE:
        return f"{root}/.claude-plugin/marketplace.json cannot be read"
    metadata = listing.get("metadata")
    if isinstance(metadata, dict) and "pluginRoot" in metadata:
        return f"{root}: its marketplace.json sets pluginRoot, which agentbus does not follow"
    plugins = listing.get("plugins")
    entries = (
        [entry for entry in plugins if isinstance(entry, dict) and entry.get("name") == name]
        if (isinstance(plugins, list))
        else []
    )
    if not entries:
        return f"{root}: its marketplace.json does not list {name!r} plainly"
    for entry in entries:
        if "hooks" in entry:
            return f"{root}: its marketplace entry declares hooks"
        where = entry.get("source")
        if not isinstance(where, str) or os.path.isabs(where):
            return f"{root}: the plugin comes from a source agentbus does not read (only a local directory)"
        why = _plugin_directory_hooks(os.path.normpath(os.path.join(root, where)), entry)
        if why:
            return why
    return ""


def _plugin_directory_hooks(directory: str, entry: Mapping[str, Any]) -> str:
    """Why the plugin in ``directory`` may define hooks ('' when it defines none)."""
    if not os.path.isdir(directory):
        return f"{directory} is not a directory agentbus can read"
    manifest_path = os.path.join(directory, ".claude-plugin", "plugin.json")
    manifest = _read_json(manifest_path) if os.path.lexists(manifest_path) else {}
    if manifest is None or manifest is _TOO_LARGE:
        return f"{manifest_path} cannot be read"
    if "hooks" in manifest:
        return f"{manifest_path} declares hooks"
    for name in ("hooks", "settings.json"):
        if os.path.lexists(os.path.join(directory, name)):
            return f"{directory}/{name} exists (hooks, or settings that may choose them)"
    for declaration in (entry, manifest):
        for key in ("commands", "agents", "skills"):
            paths = declaration.get(key)
            for path in paths if isinstance(paths, list) else [paths] if paths is not None else []:
                if (
                    not isinstance(path, str)
                    or os.path.isabs(path)
                    or ".." in path.replace("\\", "/").split("/")
                ):
                    return f"{directory}: its {key} are read from outside the plugin"
    count = entries = 0
    for root, directories, files in os.walk(directory):
        if any(os.path.islink(os.path.join(root, child)) for child in directories):
            return f"{root} holds a linked directory agentbus does not follow"
        entries += len(directories) + len(files)
        if entries > _MOST_PLUGIN_FILES:
            return f"{directory} (more than {_MOST_PLUGIN_FILES} files: not all read)"
        directories.sort()
        for file in sorted(files):
            if not file.endswith(".md"):
                continue
            count += 1
            if count > _MOST_SKILLS:
                return f"{directory} (more than {_MOST_SKILLS} Markdown files: not all read)"
            path = os.path.join(root, file)
            why = _frontmatter_hooks(path)
            if why:
                return f"{path} ({why})"
    return ""


def managed_hooks_only() -> bool:
    """Whether the managed settings run no hook but their own (``allowManagedHooksOnly``)."""
    from .install import MANAGED_ONLY, managed_settings_path

    settings = _read_json(str(managed_settings_path()))
    return isinstance(settings, dict) and settings.get(MANAGED_ONLY) is True


_TOO_LARGE: dict[str, Any] = {}


def _read_json(path: str) -> dict[str, Any] | None:
    """The settings in ``path``; None when it cannot be read or is not a JSON object (Claude Code
    takes nothing from it either); :data:`_TOO_LARGE` when it is over the limit."""
    try:
        with open(path, "rb") as file:
            data = file.read(_LARGEST + 1)
    except OSError:
        return None
    if len(data) > _LARGEST:
        return _TOO_LARGE
    try:
        settings = json.loads(data)
    except ValueError:
        return None
    return settings if isinstance(settings, dict) else None


def _enabled(settings: Mapping[str, Any]) -> set[str]:
    """The plugins a settings file enables (``"name@marketplace": true``; any value but false)."""
    plugins = settings.get("enabledPlugins")
    if isinstance(plugins, dict):
        return {str(name) for name, on in plugins.items() if on is not False and on is not None}
    if isinstance(plugins, list):  # not Claude Code's documented form: counted all the same
        return {str(name) for name in plugins}
    return set()


def _matching_groups(settings: Mapping[str, Any], event: str, tool_name: str) -> Iterator[str]:
    hooks = settings.get("hooks")
    groups = hooks.get(event) if isinstance(hooks, dict) else None
    for group in groups if isinstance(groups, list) else ():
        if not isinstance(group, dict):
            continue
        entries = group.get("hooks")
        if not isinstance(entries, list) or all(_agentbus_own(entry) for entry in entries):
            continue
        matcher = group.get("matcher")
        if _matches(matcher, tool_name):
            yield "*" if matcher in (None, "") else str(matcher)


def _matches(matcher: Any, tool_name: str) -> bool:
    """Whether Claude Code's matcher selects the tool: none, "" and "*" select every tool, plain
    names joined by ``|`` select those, anything else is a regular expression (one that does not
    compile here counts as matching)."""
    if matcher is None or matcher in ("", "*"):
        return True
    if not isinstance(matcher, str):
        return True
    if _SIMPLE_MATCHER.match(matcher):
        return tool_name in matcher.split("|")
    try:
        return re.search(matcher, tool_name) is not None
    except re.error:
        return True


def _agentbus_own(entry: Any) -> bool:
    """An entry `agentbus install` writes (plain, by paths the project cannot change)."""
    from .install import is_agentbus_hook

    if not is_agentbus_hook(entry):
        return False
    from .doctor import plain_agentbus_hook

    return plain_agentbus_hook(entry)


def _claude_dirs(projects: list[str], skill: str) -> Iterator[str]:
    scope, _, _ = skill.rpartition(":")
    for project in projects:
        yield os.path.join(project, ".claude")
        if "/" in scope and ".." not in scope.split("/"):
            yield os.path.join(project, *scope.split("/"), ".claude")


def _listing(directory: str, name: str) -> list[str]:
    try:
        return sorted(os.listdir(os.path.join(directory, name)))
    except OSError:
        return []


def _markdown_under(directory: str) -> Iterator[str]:
    for root, directories, files in os.walk(directory):
        directories.sort()
        for file in sorted(files):
            if file.endswith(".md"):
                yield os.path.join(root, file)


def _agent_name(path: str) -> str | None:
    """The agent's name when its frontmatter spells it plainly, once; None otherwise (YAML can spell
    a name with escapes, or twice: such an agent may be any)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            text = file.read(_LARGEST_SKILL + 1).lstrip(_BOM)  # Claude Code reads past one: seen
    except OSError:
        return None
    end = text.find("\n---", 3)
    frontmatter = text[3:] if end < 0 else text[3:end]
    plain = _PLAIN_NAME.findall(frontmatter)
    if len(plain) != 1 or len(_NAME_KEY.findall(frontmatter)) != 1:
        return None
    return str(plain[0][1])


def _frontmatter_hooks(path: str) -> str:
    """Why a skill file may define a PreToolUse or PermissionRequest hook ('' when it does not).

    Any ``hooks:`` in its frontmatter counts: YAML can spell an event's name with escapes.
    """
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            text = file.read(_LARGEST_SKILL + 1).lstrip(_BOM)  # Claude Code reads past one: seen
    except OSError:
        return ""
    if len(text) > _LARGEST_SKILL:
        return f"over {_LARGEST_SKILL // (1024 * 1024)} MiB, not read: its frontmatter may define hooks"
    if not text.startswith("---"):
        return ""
    end = text.find("\n---", 3)
    frontmatter = text[3:] if end < 0 else text[3:end]
    if not _FRONTMATTER_HOOKS.search(frontmatter):
        return ""
    events = [event for event in REWRITING_EVENTS if event in frontmatter]
    return f"its frontmatter defines {' and '.join(events) or 'its own'} hooks"
