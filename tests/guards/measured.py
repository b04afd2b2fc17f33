"""One way to measure the guards on a labelled corpus of outside material (``corpus/external``).

Each corpus is JSON lines labelled before any guard judged it: ``label`` is dangerous, benign or
unlabelled, ``category`` the tactic of a dangerous entry. A test module keeps per tactic the figure at
first sight and today's floor (raised when the guards improve, never lowered to let a change through),
and holds benign entries to no false positive but the ones it lists.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from agentbus.guards.judge import judge_command

EXTERNAL = Path(__file__).parent / "corpus" / "external"

Entry = dict[str, str]
Decisions = list[tuple[Entry, str]]


def load(name: str) -> list[Entry]:
    """The entries of ``corpus/external/NAME.jsonl``."""
    lines = (EXTERNAL / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def judge_all(entries: Iterable[Entry], judge: Callable[[str], str], home: str) -> Decisions:
    """Each entry with its decision, judged with HOME set (the shell-file guard resolves ~ from it)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", home)
        return [(entry, judge(entry["command"])) for entry in entries]


def exec_decision(home: str, cwd: str) -> Callable[[str], str]:
    """The whole exec decision, as the hook gives it (the command guard, the shell-file guard and what
    the command runs from disk or its input), as block, ask or allow."""

    def decide(command: str) -> str:
        verdict = judge_command(command, home=home, cwd=cwd)
        return "allow" if verdict is None else verdict.decision

    return decide


def assert_floor_holds(
    decisions: Decisions, tactic: str, *, first_sight: tuple[int, int], floor: int, name: str, key: str = "id"
) -> None:
    """At least ``floor`` of the tactic's dangerous entries held back; a floor never below first sight."""
    dangerous = [(e, d) for e, d in decisions if e["label"] == "dangerous" and e["category"] == tactic]
    missed = [e[key] for e, d in dangerous if d == "allow"]
    held = len(dangerous) - len(missed)
    first, total = first_sight
    print(f"\n{name}:{tactic}: {held}/{total} held back (first sight {first}); missed: {missed}")
    assert held >= floor, missed
    assert floor >= first, "a floor is never below first sight"


def assert_benign_pass(decisions: Decisions, known_false_positives: set[str]) -> None:
    """Benign entries are allowed, but for the false positives a test module lists and explains."""
    flagged = {e["command"] for e, d in decisions if e["label"] == "benign" and d != "allow"}
    assert flagged <= known_false_positives, flagged - known_false_positives
