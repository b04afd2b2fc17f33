"""Every class fix of ``class_fixes/``: its variants held back, its ordinary neighbours allowed."""

from __future__ import annotations

from types import ModuleType

import pytest
from class_fixes import detection_rules, linux_malware, linux_privesc, pentest_cheatsheets
from test_corpus import HOME, judge_command

SOURCES: tuple[ModuleType, ...] = (detection_rules, linux_malware, linux_privesc, pentest_cheatsheets)


def _source(module: ModuleType) -> str:
    return module.__name__.rpartition(".")[2]


HELD = [
    pytest.param(command, id=f"{_source(module)}:{family}:{command[:60]}")
    for module in SOURCES
    for family, commands in module.HELD.items()
    for command in commands
]
ALLOWED = [
    pytest.param(command, id=f"{_source(module)}:{command[:60]}")
    for module in SOURCES
    for command in module.ALLOWED
]


@pytest.fixture(autouse=True)
def _home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", HOME)  # the path guard resolves ~ (and whose home is whose) from it


@pytest.mark.parametrize("command", HELD)
def test_each_class_is_held_back_in_other_spellings(command: str) -> None:
    assert judge_command(command) != "allow", command


@pytest.mark.parametrize("command", ALLOWED)
def test_the_ordinary_neighbours_stay_allowed(command: str) -> None:
    assert judge_command(command) == "allow", command
