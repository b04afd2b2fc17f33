"""macos18's rules where the class-fix data cannot show them: an AppleScript file on disk is judged by
its text (only one that is not there to read is asked), and the address-range pattern stays linear."""

from __future__ import annotations

from pathlib import Path

import pytest
from linearity import cost_ratio

from agentbus.guards.judge import judge_command
from agentbus.guards.tactics import pivots

HOME = "/home/dev"


def _decision(command: str, cwd: str) -> str:
    verdict = judge_command(command, cwd=cwd, home=HOME)
    return "allow" if verdict is None else verdict.decision


def test_an_applescript_on_disk_is_judged_by_its_text(tmp_path: Path) -> None:
    # /tmp itself is the shared place the rule names; tmp_path lives under it on Linux and macOS.
    notify = tmp_path / "notify.applescript"
    notify.write_text('display notification "build done" with title "CI"\n')
    prompt = tmp_path / "prompt.applescript"
    prompt.write_text('display dialog "Password:" default answer "" with hidden answer\n')
    assert _decision(f"osascript {notify}", str(tmp_path)) == "allow"
    assert _decision(f"osascript {prompt}", str(tmp_path)) == "block"


@pytest.mark.parametrize(
    "command",
    ["osascript /tmp/macos18-never-written.scpt", "osascript -l JavaScript /private/tmp/macos18-nope.js"],
)
def test_an_applescript_not_on_disk_in_a_temp_place_is_asked(command: str, tmp_path: Path) -> None:
    assert _decision(command, str(tmp_path)) == "ask"


@pytest.mark.parametrize("unit", ["@", "1.{1..2}.", "@10.0.0."])
def test_the_ranged_address_pattern_is_linear(unit: str) -> None:
    small, large = unit * 2_000, unit * 20_000
    ratio = cost_ratio(pivots._RANGED_ADDRESS.search, small, large)
    assert ratio < 50, f"{unit!r}: 10x the input cost {ratio:.0f}x"
