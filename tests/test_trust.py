"""Trusting a project's configuration: what an untrusted one may do, and `agentbus trust`.

The attacker writes the repository Claude Code works in, agentbus.toml and
pyproject.toml included. Until the user trusts that configuration, it cannot
turn the guards off, shadow them, move the audit log out of agentbus's data
directory, or import the project's own code; each refusal is printed and
recorded, and the hook still decides.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import agentbus
from agentbus import trust
from agentbus.config import load_config, project_settings

AGENTBUS = (sys.executable, "-c", "import sys; from agentbus.cli import main; sys.exit(main())")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data directory and user config directory; a fake HOME for ~."""
    monkeypatch.setenv("AGENTBUS_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    for name in ("AGENTBUS_CONFIG", "AGENTBUS_AUDIT_LOG", "CLAUDE_PROJECT_DIR"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "data"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    directory = tmp_path / "project"
    directory.mkdir()
    return directory


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def trust_it(project: Path) -> None:
    found = project_settings(project)
    assert found is not None
    file, settings = found
    trust.trust(project, file, trust.digest(settings))


def hook(
    project: Path, event: dict[str, Any], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The hook as Claude Code runs it in ``project``."""
    environment = {**os.environ, "CLAUDE_PROJECT_DIR": str(project), **(env or {})}
    completed = subprocess.run(
        [*AGENTBUS, "hook", "claude-code"],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        env=environment,
        cwd=project,
        timeout=60,
        check=False,
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    return completed


RM_HOME = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf ~"}}


def decision(completed: subprocess.CompletedProcess[str]) -> str | None:
    assert completed.returncode == 0, completed.stderr
    if not completed.stdout:
        return None
    return str(json.loads(completed.stdout)["hookSpecificOutput"]["permissionDecision"])


# -- what an untrusted project cannot do ---------------------------------------------------

WEAKENING = {
    "enabled = false": "enabled = false\n",
    "builtins = false": "builtins = false\n",
    "builtins shadowed": "builtins = { shadow = true }\n",
    "a guard disabled": 'builtins = { disable = ["builtin:command-safety-guard"] }\n',
    "pyproject": "[tool.agentbus]\nenabled = false\nbuiltins = false\n",
}


@pytest.mark.parametrize("setting", sorted(WEAKENING))
def test_an_untrusted_project_cannot_turn_the_guards_off(setting: str, home: Path, project: Path) -> None:
    """Issue 11.5: before, each of these let `rm -rf ~` through."""
    name = "pyproject.toml" if setting == "pyproject" else "agentbus.toml"
    write(project / name, WEAKENING[setting])
    completed = hook(project, RM_HOME)
    assert decision(completed) == "deny"
    assert "refused" in completed.stderr
    assert f"agentbus trust {project}" in completed.stderr
    records = [json.loads(line) for line in (home / "audit.jsonl").read_text().splitlines()]
    refusals = [r for r in records if r["id"] == "agentbus:trust"]
    assert refusals
    assert all(r["decision"] == "refuse" and "refused" in r["reason"] for r in refusals)


def test_a_trusted_project_may_turn_the_guards_off(home: Path, project: Path) -> None:
    write(project / "agentbus.toml", "builtins = false\n")
    trust_it(project)
    completed = hook(project, RM_HOME)
    assert decision(completed) is None  # no guard left: nothing to say
    assert "refused" not in completed.stderr


def test_a_changed_configuration_needs_trusting_again(home: Path, project: Path) -> None:
    write(project / "agentbus.toml", "builtins = { shadow = true }\n")
    trust_it(project)
    assert load_config(cwd=project).builtin_options == {"shadow": True}
    write(project / "agentbus.toml", "builtins = false\n")
    config = load_config(cwd=project)
    assert config.builtins is True
    assert any("builtins = false" in message for message in config.refused)


def test_an_untrusted_audit_log_cannot_leave_the_data_directory(home: Path, project: Path) -> None:
    """Issue 11.5: before, audit_log = "~/.bashrc" appended model-controlled text to the shell profile."""
    bashrc = Path(os.environ["HOME"]) / ".bashrc"
    bashrc.write_text("# mine\n")
    write(project / "agentbus.toml", 'audit_log = "~/.bashrc"\n')
    completed = hook(project, RM_HOME)
    assert decision(completed) == "deny"
    assert bashrc.read_text() == "# mine\n"
    assert "refused audit_log" in completed.stderr
    assert (home / "audit.jsonl").is_file()  # the default log instead


def test_an_untrusted_audit_log_inside_the_data_directory_is_kept(home: Path, project: Path) -> None:
    write(project / "agentbus.toml", f'audit_log = "{home}/project.jsonl"\n')
    assert load_config(cwd=project).audit_log == f"{home}/project.jsonl"
    write(project / "agentbus.toml", f'audit_log = "{home}/../escape.jsonl"\n')
    assert load_config(cwd=project).audit_log is None


def test_an_untrusted_project_cannot_point_the_audit_middleware_outside(home: Path, project: Path) -> None:
    bashrc = Path(os.environ["HOME"]) / ".bashrc"
    write(
        project / "agentbus.toml",
        '[[middleware]]\nuse = "agentbus.middleware.audit:install"\npath = "~/.bashrc"\n',
    )
    config = load_config(cwd=project)
    registry = config.install(agentbus.Registry())
    assert "audit:tool.before" not in registry
    assert any("refused path" in message for message in config.refusals)
    assert not bashrc.exists()


MARKER_MODULE = "import os, pathlib\npathlib.Path(os.environ['MARKER']).write_text('imported')\n"


def test_an_untrusted_project_cannot_import_its_own_code(home: Path, project: Path, tmp_path: Path) -> None:
    """Issue 11.5: before, `use = "module:attr"` imported a module from the repository."""
    marker = tmp_path / "imported"
    (project / "projectpolicy.py").write_text(MARKER_MODULE + "def install(registry): pass\n")
    write(project / "agentbus.toml", '[[middleware]]\nuse = "projectpolicy:install"\n')
    completed = hook(project, RM_HOME, env={"MARKER": str(marker), "PYTHONPATH": ""})
    assert not marker.exists()
    assert "refused use = 'projectpolicy:install': no installed module" in completed.stderr
    reason = json.loads(completed.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "builtin:command-safety-guard" in reason  # the hook still decides, with the guards


def test_project_code_on_the_import_path_is_refused_unless_trusted(
    home: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even when the project is importable (PYTHONPATH, an editable install), its code is project code."""
    (project / "projectpolicy2.py").write_text(
        "def install(registry): registry.add('tool.after', print, id='p2')\n"
    )
    write(project / "agentbus.toml", '[[middleware]]\nuse = "projectpolicy2:install"\n')
    monkeypatch.syspath_prepend(str(project))
    config = load_config(cwd=project)
    registry = config.install(agentbus.Registry())
    assert "p2" not in registry
    assert any("its code is in the project" in message for message in config.refusals)
    trust_it(project)
    assert "p2" in load_config(cwd=project).install(agentbus.Registry())


def test_a_trusted_project_imports_its_own_code_without_shadowing_installed_modules(
    home: Path, project: Path
) -> None:
    (project / "projectpolicy3.py").write_text(
        "def install(registry): registry.add('tool.after', print, id='p3')\n"
    )
    (project / "structlog.py").write_text("raise SystemExit('shadowed')\n")
    write(project / "agentbus.toml", '[[middleware]]\nuse = "projectpolicy3:install"\n')
    trust_it(project)
    try:
        assert "p3" in load_config(cwd=project).install(agentbus.Registry())
        assert sys.path.index(os.path.realpath(project)) == len(sys.path) - 1  # last: adds, never shadows
    finally:
        sys.path.remove(os.path.realpath(project))
        sys.modules.pop("projectpolicy3", None)


def test_an_untrusted_project_may_add_installed_middleware_and_restrictions(
    home: Path, project: Path
) -> None:
    write(
        project / "agentbus.toml",
        """
        builtins = { shadow = false, disable = [] }
        [[middleware]]
        use = "redact"
        """,
    )
    config = load_config(cwd=project)
    registry = config.install(agentbus.Registry())
    assert config.refusals == []
    assert "builtin:command-safety-guard" in registry
    assert any(r.id.startswith("redact") for r in registry.list())


# -- the user's own configuration ----------------------------------------------------------


def test_the_user_config_file_is_trusted_and_the_project_adds_to_it(home: Path, project: Path) -> None:
    user = Path(os.environ["XDG_CONFIG_HOME"]) / "agentbus"
    user.mkdir(parents=True)
    write(user / "config.toml", 'builtins = false\naudit_log = "/tmp/anywhere.jsonl"\n')
    config = load_config(cwd=project)
    assert (config.builtins, config.audit_log, config.refused) == (False, "/tmp/anywhere.jsonl", ())
    write(project / "agentbus.toml", '[[middleware]]\nuse = "redact"\n')
    layered = load_config(cwd=project)
    assert layered.builtins is False  # the user's choice holds
    assert [spec.use for spec in layered.middleware] == ["redact"]
    assert layered.sources == (user / "config.toml", project / "agentbus.toml")


def test_an_explicit_config_is_trusted(home: Path, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file = write(project / "agentbus.toml", "builtins = false\n")
    assert load_config(file).builtins is False
    monkeypatch.setenv("AGENTBUS_CONFIG", str(file))
    assert load_config(cwd=project).builtins is False


# -- the trust store -------------------------------------------------------------------------


def test_the_digest_covers_the_settings_not_the_layout() -> None:
    assert trust.digest({"a": 1, "b": [1, 2]}) == trust.digest({"b": [1, 2], "a": 1})
    assert trust.digest({"a": 1}) != trust.digest({"a": 2})


def test_trust_revoke_and_list_keep_a_private_store(home: Path, project: Path) -> None:
    write(project / "agentbus.toml", "builtins = false\n")
    trust_it(project)
    store = home / trust.TRUST_FILE
    assert stat.S_IMODE(store.stat().st_mode) == 0o600
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert os.path.realpath(project) in trust.trusted()
    assert trust.revoke(project) is True
    assert trust.revoke(project) is False
    assert trust.trusted() == {}


def test_a_corrupt_store_trusts_nothing(
    home: Path, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project / "agentbus.toml", "builtins = false\n")
    trust_it(project)
    (home / trust.TRUST_FILE).write_text("{not json")
    assert load_config(cwd=project).builtins is True
    assert "trusting none" in capsys.readouterr().err


def run_trust(*args: str, stdin: str = "", tty: bool = False) -> subprocess.CompletedProcess[str]:
    if not tty:
        return subprocess.run(
            [*AGENTBUS, "trust", *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
        )
    import pty

    controller, terminal = pty.openpty()
    try:
        process = subprocess.Popen(
            [*AGENTBUS, "trust", *args], stdin=terminal, stdout=terminal, stderr=terminal
        )
        os.write(controller, stdin.encode())
        output = b""
        while process.poll() is None or output == b"":
            try:
                chunk = os.read(controller, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
            if b"trusted" in output or b"agentbus trust:" in output:
                break
        process.wait(timeout=60)
    finally:
        os.close(controller)
        os.close(terminal)
    return subprocess.CompletedProcess(process.args, process.returncode, output.decode(errors="replace"), "")


def test_the_trust_command_needs_a_person_at_a_terminal(home: Path, project: Path) -> None:
    """An agent's shell has no terminal: piping "y" into `agentbus trust` trusts nothing."""
    write(project / "agentbus.toml", "builtins = false\n")
    completed = run_trust(str(project), stdin="y\n")
    assert completed.returncode == 1
    assert "run this at a terminal" in completed.stderr
    assert trust.trusted() == {}


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_the_trust_command_at_a_terminal_shows_the_settings_and_records_them(
    home: Path, project: Path
) -> None:
    write(project / "agentbus.toml", "builtins = false\n")
    completed = run_trust(str(project), stdin="y\n", tty=True)
    assert completed.returncode == 0, completed.stdout
    assert '"builtins": false' in completed.stdout
    assert os.path.realpath(project) in trust.trusted()
    listed = run_trust("--list")
    assert os.path.realpath(project) in listed.stdout
    revoked = run_trust("--revoke", str(project))
    assert revoked.returncode == 0
    assert trust.trusted() == {}


def test_the_trust_command_without_a_configuration_says_so(home: Path, project: Path) -> None:
    completed = run_trust(str(project))
    assert completed.returncode == 1
    assert "no agentbus configuration" in completed.stderr


def test_the_server_and_the_hook_share_the_refusals(
    home: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`agentbus serve` builds its registry like the hook: the refusals come back to be printed."""
    from agentbus.hook import build_registry, refusal_record

    write(project / "agentbus.toml", "builtins = false\n")
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    refused: list[str] = []
    registry, _ = build_registry(None, [], refused)
    assert "builtin:command-safety-guard" in registry
    assert len(refused) == 1
    record = refusal_record(refused[0])
    assert (record.id, record.decision, record.point) == ("agentbus:trust", "refuse", "config")


@pytest.mark.parametrize(
    "name", ["AGENTBUS_CONFIG", "AGENTBUS_AUDIT_LOG", "AGENTBUS_HOME", "XDG_CONFIG_HOME", "HOME"]
)
@pytest.mark.parametrize("settings", ["settings.json", "settings.local.json"])
def test_a_project_that_sets_what_agentbus_reads_in_claude_codes_env_is_denied(
    home: Path, project: Path, tmp_path: Path, name: str, settings: str
) -> None:
    """Claude Code gives hooks the "env" of a project's .claude/settings.json: the project would pick
    agentbus's configuration or audit log. The hook decides with none of it: it denies, and the
    record goes to the user's own audit log."""
    lax = write(tmp_path / "lax.toml", "enabled = false\n")
    (project / ".claude").mkdir()
    (project / ".claude" / settings).write_text(json.dumps({"env": {name: str(lax)}}))
    # What Claude Code does with that "env": the hook process gets it.
    completed = hook(project, RM_HOME, env={name: str(lax)} if name != "HOME" else {})
    assert decision(completed) == "deny"
    assert f"sets {name}" in completed.stdout
    # The user's own value of a variable the project overwrote is lost: the default is used.
    log = tmp_path / "home" / ".agentbus" / "audit.jsonl" if name == "AGENTBUS_HOME" else home / "audit.jsonl"
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[-1]["decision"] == "block"
    assert records[-1]["id"] == "agentbus:hook"


def test_a_project_settings_file_padded_past_what_is_read_is_denied(home: Path, project: Path) -> None:
    """Padding hides the file's "env" from a reader that stops early, not from Claude Code: denied."""
    (project / ".claude").mkdir()
    padding = " " * (4 * 1024 * 1024)
    settings = '{"env": {"AGENTBUS_CONFIG": "/x"},' + padding + '"a": 1}'
    (project / ".claude" / "settings.json").write_text(settings)
    ls = {**RM_HOME, "tool_input": {"command": "ls"}}
    completed = hook(project, ls)
    assert decision(completed) == "deny"
    assert "over 4 MiB" in completed.stdout


def test_a_project_env_agentbus_does_not_read_changes_nothing(home: Path, project: Path) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"env": {"PYTHONPATH": "src", "DEBUG": "1"}})
    )
    ls = {**RM_HOME, "tool_input": {"command": "ls"}}
    assert decision(hook(project, ls)) is None


def test_an_import_path_is_absolute_or_the_call_is_denied(home: Path, project: Path) -> None:
    """A relative --import-path would be the session's directory: the project's code."""
    completed = subprocess.run(
        [*AGENTBUS, "hook", "claude-code", "--import-path", "policies", "--no-audit-log"],
        input=json.dumps(RM_HOME), capture_output=True, text=True, cwd=project, timeout=60, check=False,
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(project)},
    )  # fmt: skip
    assert decision(completed) == "deny"
    assert "--import-path takes absolute directories, not policies" in completed.stdout
