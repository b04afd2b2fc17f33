"""The hooks a project's Claude Code files define that could replace or answer a call agentbus decided."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentbus import project_hooks
from agentbus.install import hook_command
from agentbus.project_hooks import agent_hooks, foreign_hooks, plugin_hooks, project_directories, skill_hooks


def settings(project: Path, groups: list[dict[str, object]], name: str = "settings.json") -> None:
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / name).write_text(json.dumps({"hooks": {"PreToolUse": groups}}))


def echo(matcher: object = None) -> dict[str, object]:
    group: dict[str, object] = {"hooks": [{"type": "command", "command": "echo '{}'"}]}
    if matcher is not None:
        group["matcher"] = matcher
    return group


@pytest.mark.parametrize(
    ("matcher", "tool", "matches"),
    [
        (None, "Bash", True),
        ("", "mcp__x__y", True),
        ("*", "Skill", True),
        ("Bash", "Bash", True),
        ("Bash", "BashOutput", False),
        ("Edit|Write", "Write", True),
        ("Edit|Write", "Bash", False),
        ("mcp__.*", "mcp__github__create_issue", True),
        ("Notebook.*", "Bash", False),
        ("(unclosed", "Bash", True),
        (["Bash"], "Read", True),
    ],
)
def test_a_matcher_selects_tools_as_claude_code_reads_it(
    tmp_path: Path, matcher: object, tool: str, matches: bool
) -> None:
    settings(tmp_path, [echo(matcher)])
    assert bool(foreign_hooks([str(tmp_path)], "PreToolUse", tool)) is matches


def test_agentbus_own_entry_is_not_the_projects_but_a_look_alike_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(tmp_path))
    own = {"type": "command", "command": hook_command(), "timeout": 30}
    settings(tmp_path, [{"matcher": "*", "hooks": [own]}])
    assert foreign_hooks([str(tmp_path)], "PreToolUse", "Bash") == []
    look_alike = {"type": "command", "command": "echo '{}' # agentbus hook claude-code"}
    settings(tmp_path, [{"matcher": "*", "hooks": [own]}, {"matcher": "*", "hooks": [look_alike]}])
    assert foreign_hooks([str(tmp_path)], "PreToolUse", "Bash")


def test_a_settings_file_too_large_to_read_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(project_hooks, "_LARGEST", 100)
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude/settings.json").write_text(json.dumps({"padding": "x" * 200}))
    assert "not read: it may define any hook" in foreign_hooks([str(tmp_path)], "PreToolUse", "Bash")[0]


def test_a_skill_with_hooks_in_its_frontmatter_is_found_however_its_events_are_spelled(
    tmp_path: Path,
) -> None:
    skills = tmp_path / ".claude/skills"
    (skills / "plain").mkdir(parents=True)
    (skills / "plain/SKILL.md").write_text("---\nname: plain\ndescription: d\n---\nhooks: in the body\n")
    assert skill_hooks([str(tmp_path)], "plain") == []
    (skills / "hooked").mkdir()
    (skills / "hooked/SKILL.md").write_text('---\nname: x\n"hooks":\n  "PreTool\\x55se": []\n---\n')
    found = skill_hooks([str(tmp_path)], "plain")
    assert len(found) == 1
    assert "hooked/SKILL.md" in found[0]


def test_a_directory_scoped_skill_is_looked_for_where_it_is_scoped(tmp_path: Path) -> None:
    nested = tmp_path / "apps/web/.claude/commands"
    nested.mkdir(parents=True)
    (nested / "deploy.md").write_text("---\nhooks:\n  PermissionRequest: []\n---\n")
    assert skill_hooks([str(tmp_path)], "deploy") == []
    assert "PermissionRequest" in skill_hooks([str(tmp_path)], "apps/web:deploy")[0]


def test_project_directories_are_the_project_or_the_directories_above_cwd_but_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    found = project_directories({"cwd": str(tmp_path / "src/app")})
    assert found[:2] == [str(tmp_path / "src/app"), str(tmp_path / "src")]
    assert str(tmp_path) not in found
    assert project_directories({"cwd": "relative"}) == []
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", "/work/app")
    assert project_directories({"cwd": "/elsewhere"}) == ["/work/app"]
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(tmp_path))
    assert project_directories({}) == [], "a session started at home: its settings are the user's"


def test_managed_hooks_only_is_read_from_the_managed_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    managed = tmp_path / "managed-settings.json"
    monkeypatch.setattr("agentbus.install.managed_settings_path", lambda: managed)
    assert project_hooks.managed_hooks_only() is False
    managed.write_text(json.dumps({"allowManagedHooksOnly": True}))
    assert project_hooks.managed_hooks_only() is True


def agent(project: Path, path: str, frontmatter: str) -> None:
    file = project / ".claude" / "agents" / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(f"---\n{frontmatter}\ndescription: helps\n---\nYou help.\n")


HOOKS = (
    "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: x"
)


def test_an_agent_with_hooks_is_found_by_the_name_it_defines(tmp_path: Path) -> None:
    """Claude Code names an agent by its frontmatter, loads ``.claude/agents`` subdirectories, and runs
    an agent's hooks only for that agent."""
    agent(tmp_path, "team/x.md", f"name: reviewer\n{HOOKS}")
    agent(tmp_path, "plain.md", "name: helper")
    assert agent_hooks([str(tmp_path)], "reviewer")
    assert agent_hooks([str(tmp_path)], "Reviewer"), "compared without case: more, not fewer"
    assert agent_hooks([str(tmp_path)], "helper") == []
    assert agent_hooks([str(tmp_path)], "general-purpose") == []


@pytest.mark.parametrize(
    "name",
    [
        'name: "he\\x6cper"',
        "name: >-\n  helper",
        "name: a\nname: b",
        '{"name": "helper"}',
        "name: helper # x",
    ],
)
def test_an_agent_with_hooks_whose_name_is_not_plain_may_be_any(tmp_path: Path, name: str) -> None:
    """YAML spells a name many ways (Claude Code decodes escapes: seen with the real CLI)."""
    agent(tmp_path, "x.md", f"{name}\n{HOOKS}")
    assert agent_hooks([str(tmp_path)], "general-purpose")


def plugin_settings(path: Path, **settings: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings))


def test_a_plugin_the_project_enables_is_the_projects_unless_the_user_enables_it_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "user"))
    project = tmp_path / "project"
    plugin_settings(project / ".claude/settings.json", enabledPlugins={"tools@acme": True, "off@acme": False})
    assert plugin_hooks([str(project)]) == [
        f"{project}/.claude/settings.json: enabledPlugins 'tools@acme' (a plugin the project enables: its "
        "marketplace 'acme' is not one agentbus can find, so its hooks were not read)"
    ]
    plugin_settings(tmp_path / "user/settings.json", enabledPlugins={"tools@acme": True})
    assert plugin_hooks([str(project)]) == []


def test_a_marketplace_the_project_declares_takes_the_users_plugin_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real CLI loads a user's plugin from the marketplace of that name the project declares."""
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "user"))
    plugin_settings(tmp_path / "user/settings.json", enabledPlugins={"tools@acme": True})
    project = tmp_path / "project"
    market = {"acme": {"source": {"source": "directory", "path": "./m"}}}
    plugin_settings(project / ".claude/settings.local.json", extraKnownMarketplaces=market)
    found = plugin_hooks([str(project)])
    assert len(found) == 1
    assert "extraKnownMarketplaces 'acme'" in found[0]
    plugin_settings(project / ".claude/settings.local.json", extraKnownMarketplaces={"other": {}})
    assert plugin_hooks([str(project)]) == []


def test_a_byte_order_mark_does_not_hide_frontmatter_hooks(tmp_path: Path) -> None:
    """Claude Code 2.1.332 reads an agent's frontmatter past a UTF-8 byte-order mark, and runs its hooks."""
    agent(tmp_path, "x.md", f"name: helper\n{HOOKS}")
    path = tmp_path / ".claude/agents/x.md"
    path.write_text("\ufeff" + path.read_text())
    assert agent_hooks([str(tmp_path)], "helper")
    skill = tmp_path / ".claude/skills/tidy/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(f"\ufeff---\nname: tidy\n{HOOKS}\n---\nTidy.\n")
    assert skill_hooks([str(tmp_path)], "tidy")


def market(root: Path, entry: dict[str, object], files: dict[str, str]) -> dict[str, object]:
    """A local marketplace at ``root`` listing the plugin ``tools`` (``entry``) with ``files`` under it;
    the project settings' declaration of it."""
    plugin_settings(
        root / ".claude-plugin/marketplace.json", name="acme", plugins=[{"name": "tools", **entry}]
    )
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return {"acme": {"source": {"source": "directory", "path": str(root)}}}


PLUGIN = {
    "tools/.claude-plugin/plugin.json": json.dumps({"name": "tools"}),
    "tools/skills/a/SKILL.md": "---\nname: a\n---\n",
}


@pytest.mark.parametrize(
    ("entry", "files", "said"),
    [
        ({"source": "./tools"}, {}, ""),
        ({"source": "./tools", "hooks": {}}, {}, "its marketplace entry declares hooks"),
        (
            {"source": "./tools"},
            {"tools/.claude-plugin/plugin.json": '{"hooks": "./h.json"}'},
            "declares hooks",
        ),
        ({"source": "./tools"}, {"tools/hooks/hooks.json": "{}"}, "hooks exists"),
        ({"source": "./tools"}, {"tools/settings.json": "{}"}, "settings.json exists"),
        (
            {"source": "./tools"},
            {"tools/agents/x/helper.md": f"---\nname: h\n{HOOKS}"},
            "helper.md (its frontmatter",
        ),
        ({"source": "./tools"}, {"tools/commands/c.md": f"---\n{HOOKS}"}, "c.md (its frontmatter"),
        (
            {"source": "./tools", "agents": ["../elsewhere"]},
            {},
            "its agents are read from outside the plugin",
        ),
        ({"source": {"source": "github", "repo": "a/b"}}, {}, "a source agentbus does not read"),
        ({"source": "./missing"}, {}, "is not a directory agentbus can read"),
    ],
)
def test_a_plugin_the_project_brings_counts_where_its_files_may_define_hooks(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    entry: dict[str, object],
    files: dict[str, str],
    said: str,
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "user"))
    project = tmp_path / "project"
    declared = market(project / "m", entry, {**PLUGIN, **files})
    plugin_settings(
        project / ".claude/settings.json",
        extraKnownMarketplaces=declared,
        enabledPlugins={"tools@acme": True},
    )
    found = plugin_hooks([str(project)])
    if not said:
        assert found == []
    else:
        assert found
        assert all(said in line for line in found), found


@pytest.mark.parametrize(
    "source",
    [
        {"source": "github", "repo": "a/b"},
        {"source": "directory", "path": "./m"},
        {"source": "url", "url": "x"},
        None,
    ],
)
def test_a_marketplace_agentbus_cannot_read_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: object
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "user"))
    project = tmp_path / "project"
    plugin_settings(
        project / ".claude/settings.json",
        extraKnownMarketplaces={"acme": {"source": source}},
        enabledPlugins={"tools@acme": True},
    )
    assert len(plugin_hooks([str(project)])) == 2  # enabled and declared
    plugin_settings(project / ".claude/settings.json", enabledPlugins={"tools@acme": True})
    assert plugin_hooks([str(project)]), "no marketplace known"


def test_the_users_known_marketplace_is_read_unless_the_project_declares_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "user"))
    project = tmp_path / "project"
    known = market(tmp_path / "users-market", {"source": "./tools"}, PLUGIN)
    plugin_settings(tmp_path / "user/plugins/known_marketplaces.json", **known)
    plugin_settings(project / ".claude/settings.json", enabledPlugins={"tools@acme": True})
    assert plugin_hooks([str(project)]) == []
    (tmp_path / "users-market/tools/hooks").mkdir()
    (tmp_path / "users-market/tools/hooks/hooks.json").write_text("{}")
    assert plugin_hooks([str(project)])
