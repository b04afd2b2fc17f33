"""The everyday middleware are reachable by their entry-point names, as config files use them."""

from __future__ import annotations

from pathlib import Path

import pytest

import agentbus
from agentbus.config import load_config, load_installer
from agentbus.middleware import ansi, audit, classify, defaults, glob_exclude, limits, redact, retry, timeout

pytestmark = pytest.mark.anyio

NAMES = {
    "redact": redact.install,
    "strip_ansi": ansi.install,
    "default_args": defaults.install,
    "audit": audit.install,
    "classify": classify.install,
    "limits": limits.install,
    "timeout": timeout.install,
    "retry": retry.install,
    "exclude_directories": glob_exclude.install,
}


@pytest.mark.parametrize(("name", "installer"), sorted(NAMES.items()))
def test_each_entry_point_name_loads_its_installer(name: str, installer: object) -> None:
    assert load_installer(name) is installer


async def test_a_config_file_builds_a_working_stack_from_short_names(tmp_path: Path) -> None:
    config = tmp_path / "agentbus.toml"
    config.write_text(
        "builtins = false\n"
        '[[middleware]]\nuse = "redact"\n'
        '[[middleware]]\nuse = "strip_ansi"\n'
        '[[middleware]]\nuse = "limits"\nmax_calls = 1\n'
        '[tools.web_search]\ntransformers = [{ name = "default_args", config = { args = { count = 5 } } }]\n'
    )
    bus = agentbus.Bus(load_config(config).build_registry(), log_level=None)

    async def search(args: dict[str, object]) -> str:
        return f"\x1b[1m{args['count']} results\x1b[0m, token ghp_{'a' * 36}"

    assert (
        await bus.call_tool("web_search", {"query": "x"}, search)
        == "5 results, token [REDACTED:github_token]"
    )
    assert (await bus.call_tool("web_search", {"query": "x"}, search))["status"] == "blocked"
