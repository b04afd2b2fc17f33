"""Configuration files: discovery, the schema, seed 002's YAML, and clear errors."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import agentbus
from agentbus.config import Config, ConfigError, load_config, load_installer, load_reference

INSTALLED: list[dict[str, Any]] = []


def record_install(registry: agentbus.Registry, **options: Any) -> None:
    """A test installer: remembers its options and adds one registration."""
    INSTALLED.append(options)
    registry.add("tool.after", lambda event: None, id=f"test:{len(INSTALLED)}")


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No configuration of the machine's user leaks in: a fresh data and config directory."""
    INSTALLED.clear()
    monkeypatch.delenv("AGENTBUS_CONFIG", raising=False)
    user = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("AGENTBUS_HOME", str(user / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(user / "config"))


def test_no_file_is_the_default_config(tmp_path: Path) -> None:
    assert load_config(cwd=tmp_path) == Config()


def test_agentbus_toml_is_discovered_and_installs_middleware_with_options(tmp_path: Path) -> None:
    write(
        tmp_path / "agentbus.toml",
        f"""
        audit_log = "audit.jsonl"
        [[middleware]]
        use = "{__name__}:record_install"
        limit = 3
        """,
    )
    config = load_config(cwd=tmp_path)
    assert config.audit_log is None  # an untrusted project's log stays in agentbus's data directory
    assert "refused audit_log = 'audit.jsonl'" in config.refused[0]
    registry = config.build_registry()
    assert INSTALLED == [{"limit": 3}]
    assert "test:1" in registry


def test_pyproject_table_is_used_only_when_present(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[project]\nname = 'x'\n")
    assert load_config(cwd=tmp_path) == Config()
    write(tmp_path / "pyproject.toml", "[tool.agentbus]\nbuiltins = false\n")
    config = load_config(cwd=tmp_path)
    assert config.builtins is True  # refused: the project is not trusted (tests/test_trust.py)
    assert config.refused
    assert config.path == tmp_path / "pyproject.toml"


@pytest.mark.parametrize(
    "text",
    [
        '[tool."agentbus"]\nbuiltins = false\n',
        '[tool."\\u0061gentbus"]\nbuiltins = false\n',  # an escaped key is still found
        "[tool]\nagentbus = { builtins = false }\n",
    ],
)
def test_a_pyproject_table_is_found_however_its_key_is_spelled(tmp_path: Path, text: str) -> None:
    write(tmp_path / "pyproject.toml", text)
    config = load_config(cwd=tmp_path)
    assert config.path == tmp_path / "pyproject.toml"
    assert config.refused  # builtins = false, refused: the project is not trusted


def test_a_pyproject_without_agentbus_is_not_parsed(tmp_path: Path) -> None:
    """The TOML parser is not imported (several milliseconds of a hook process) for a file that
    cannot name agentbus; so a broken one that does not is no configuration, not an error."""
    write(tmp_path / "pyproject.toml", "[project]\nname = 'x'\nbroken = \n")
    assert load_config(cwd=tmp_path) == Config()
    script = "import sys; from agentbus.config import load_config; load_config(cwd=sys.argv[1]); "
    script += "print('tomllib' in sys.modules or 'tomli' in sys.modules)"
    environment = {**os.environ, "AGENTBUS_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    assert done.stdout.strip() == "False"
    write(tmp_path / "pyproject.toml", "[tool.agentbus]\nbroken = \n")
    with pytest.raises(ConfigError, match="invalid TOML"):
        load_config(cwd=tmp_path)


def test_environment_variable_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file = write(tmp_path / "elsewhere.toml", "enabled = false\n")
    monkeypatch.setenv("AGENTBUS_CONFIG", str(file))
    assert load_config(cwd=tmp_path).enabled is False


def test_disabled_config_installs_nothing(tmp_path: Path) -> None:
    file = write(
        tmp_path / "agentbus.toml",
        f"""
        enabled = false
        [[middleware]]
        use = "{__name__}:record_install"
        """,
    )
    registry = load_config(file).build_registry()
    assert len(registry) == 0
    assert INSTALLED == []


def test_seed_002_yaml_maps_transformers_to_installers(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    file = write(
        tmp_path / "command_intercept.yaml",
        f"""
        version: 1
        enabled: true
        tools:
          Glob:
            enabled: true
            transformers:
              - name: {__name__}:record_install
                config:
                  patterns: [".venv", "node_modules"]
          Grep:
            enabled: false
            transformers:
              - name: {__name__}:record_install
        """,
    )
    load_config(file).build_registry()
    assert INSTALLED == [{"tool": "Glob", "patterns": [".venv", "node_modules"]}]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("enabled = 'yes'\n", "enabled must be true or false"),
        ("colour = 1\n", "unknown key(s) colour"),
        ("version = 2\n", "version must be 1"),
        ("[[middleware]]\npriority = 1\n", "middleware[0].use"),
        ("middleware = 3\n", "middleware must be a list"),
        ("[tools.Glob]\ntransformers = [{config = {}}]\n", "tools.Glob.transformers[0].name"),
        ("enabled = \n", "invalid TOML"),
    ],
)
def test_bad_files_name_the_file_the_key_and_what_is_expected(
    tmp_path: Path, text: str, message: str
) -> None:
    file = write(tmp_path / "agentbus.toml", text)
    with pytest.raises(ConfigError) as caught:
        load_config(file)
    assert str(file) in str(caught.value)
    assert message in str(caught.value)


def test_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "nope.toml")


def test_references_resolve_and_fail_clearly() -> None:
    assert load_reference("agentbus:Bus") is agentbus.Bus
    assert load_reference(f"{__name__}:record_install") is record_install
    with pytest.raises(ConfigError, match=r"package\.module:attribute"):
        load_reference("agentbus.Bus")
    with pytest.raises(ConfigError, match="cannot import"):
        load_reference("no_such_module_xyz:thing")
    with pytest.raises(ConfigError, match="has no attribute"):
        load_reference("agentbus:NoSuchThing")
    with pytest.raises(ConfigError, match="entry points"):
        load_installer("no-such-middleware")


def test_installer_that_refuses_its_options_is_reported_with_its_source(tmp_path: Path) -> None:
    file = write(
        tmp_path / "agentbus.toml",
        """
        [[middleware]]
        use = "agentbus.middleware.builtin:install"
        colour = "red"
        """,
    )
    with pytest.raises(ConfigError, match=r"middleware\[0\]: agentbus.middleware.builtin:install refused"):
        load_config(file).build_registry()


def test_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)
    assert issubclass(ConfigError, agentbus.AgentbusError)
    assert sys.version_info >= (3, 10)
