"""Seed 002's exclude_directories transformer for glob, through a real bus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import agentbus
from agentbus.config import load_config
from agentbus.middleware import glob_exclude
from agentbus.middleware.glob_exclude import GlobExclude

pytestmark = pytest.mark.anyio

PATHS = [
    "src/app.py",
    ".venv/lib/site.py",
    "pkg/node_modules/x/index.js",
    "a.egg-info/PKG-INFO",
    "tests/t.py",
]


async def listing(args: dict[str, Any]) -> list[str]:
    return list(PATHS)


async def test_glob_calls_get_an_advisory_note_naming_the_excluded_directories() -> None:
    bus = agentbus.Bus(log_level=None)
    glob_exclude.install(bus.registry)
    call = await bus.decide_tool("Glob", {"pattern": "**/*.py"})
    assert call.args == {"pattern": "**/*.py"}, "advisory: the call itself is unchanged"
    assert len(call.notes) == 1
    assert ".venv, node_modules, __pycache__, .git, *.egg-info" in call.notes[0]


async def test_results_are_filtered_only_when_asked() -> None:
    advising = agentbus.Bus(log_level=None)
    glob_exclude.install(advising.registry)
    assert await advising.call_tool("glob", {"pattern": "**/*"}, listing) == PATHS
    filtering = agentbus.Bus(log_level=None)
    glob_exclude.install(filtering.registry, filter_results=True)
    assert await filtering.call_tool("glob", {"pattern": "**/*"}, listing) == ["src/app.py", "tests/t.py"]


async def test_claude_codes_glob_object_is_filtered_and_its_counts_kept_in_step() -> None:
    """Claude Code's Glob answers an object with ``filenames``, not a list."""

    async def claude_glob(args: dict[str, Any]) -> dict[str, Any]:
        return {
            "filenames": list(PATHS),
            "durationMs": 3,
            "numFiles": 5,
            "truncated": False,
            "totalMatches": 5,
        }

    bus = agentbus.Bus(log_level=None)
    glob_exclude.install(bus.registry, filter_results=True)
    assert await bus.call_tool("glob", {"pattern": "**/*"}, claude_glob) == {
        "filenames": ["src/app.py", "tests/t.py"],
        "durationMs": 3,
        "numFiles": 2,
        "truncated": False,
        "totalMatches": 2,
    }


async def test_a_call_that_targets_an_excluded_directory_is_left_alone() -> None:
    bus = agentbus.Bus(log_level=None)
    glob_exclude.install(bus.registry, filter_results=True)
    call = await bus.decide_tool("glob", {"pattern": "**/*.py", "path": ".venv/lib"})
    assert call.notes == []
    assert await bus.call_tool("glob", {"pattern": "node_modules/**/*.js"}, listing) == PATHS


async def test_seed_002_yaml_configures_it_by_its_transformer_name(tmp_path: Path) -> None:
    config = tmp_path / "command_intercept.yaml"
    config.write_text(
        "version: 1\nenabled: true\ntools:\n  Glob:\n    enabled: true\n    transformers:\n"
        "      - name: exclude_directories\n        config:\n          patterns: ['.venv', 'dist']\n"
    )
    bus = agentbus.Bus(load_config(config).build_registry(), log_level=None)
    call = await bus.decide_tool("Glob", {"pattern": "**/*"})
    assert "ignore results under .venv, dist;" in call.notes[0]


def test_excluded_matches_directory_components_not_file_names() -> None:
    layer = GlobExclude([".git", "*.egg-info"])
    assert layer.excluded(".git/config")
    assert layer.excluded("a\\b.egg-info\\PKG-INFO")
    assert not layer.excluded("src/.gitignore")
    assert not layer.excluded(".git")
    assert not GlobExclude([]).excluded(".venv/x.py")
