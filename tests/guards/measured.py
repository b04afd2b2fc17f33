"""One way to measure the guards on a labelled corpus of outside material (``corpus/external``).

Each corpus is JSON lines labelled before any guard judged it: ``label`` is dangerous, benign or
unlabelled, ``category`` the tactic of a dangerous entry. A test module keeps per tactic the figure at
first sight and today's floor (raised when the guards improve, never lowered to let a change through),
and holds benign entries to no false positive but the ones it lists. ``HeldOut`` describes one such
corpus and ``held_out_tests`` makes the three tests every such module runs.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
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


@dataclass(frozen=True)
class HeldOut:
    """One labelled corpus of ``corpus/external`` and the figures its test module keeps.

    ``first_sight`` maps a tactic to (held back at first sight, dangerous entries); ``floors`` maps it
    to today's figure; ``labels`` (and ``sources`` when given) are the counts the README describes.
    """

    name: str
    first_sight: Mapping[str, tuple[int, int]]
    floors: Mapping[str, int]
    labels: Mapping[str, int]
    judge: Callable[[str], str]
    home: str
    known_false_positives: frozenset[str] = frozenset()
    sources: Mapping[str, int] | None = None
    key: str = "id"
    entries: list[Entry] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "entries", load(self.name))


def held_out_tests(*corpora: HeldOut) -> tuple[Callable[..., None], Callable[..., None], Callable[..., None]]:
    """The three tests of a held-out module, for its corpora: the corpus is what the README says, each
    tactic holds its floor, and benign entries pass but for the known false positives.

    A module binds them to names of its own, which pytest collects:
    ``(test_the_corpus_..., test_dangerous_..., test_discovery_...) = held_out_tests(CORPUS)``.
    """
    by_name = {corpus.name: corpus for corpus in corpora}

    @cache
    def decisions(name: str) -> Decisions:
        corpus = by_name[name]
        return judge_all(corpus.entries, corpus.judge, corpus.home)

    @pytest.mark.parametrize("corpus", sorted(by_name))
    def test_the_corpus_is_what_the_readme_describes(corpus: str) -> None:
        measured = by_name[corpus]
        assert Counter(e["label"] for e in measured.entries) == measured.labels
        if measured.sources is not None:
            assert Counter(e["source"] for e in measured.entries) == measured.sources
        dangerous = Counter(e["category"] for e in measured.entries if e["label"] == "dangerous")
        assert dangerous == {tactic: total for tactic, (_, total) in measured.first_sight.items()}
        assert set(measured.floors) == set(measured.first_sight)

    @pytest.mark.parametrize(("corpus", "tactic"), [(c.name, t) for c in corpora for t in sorted(c.floors)])
    def test_dangerous_commands_held_back_do_not_fall_below_todays(corpus: str, tactic: str) -> None:
        measured = by_name[corpus]
        assert_floor_holds(
            decisions(corpus),
            tactic,
            first_sight=measured.first_sight[tactic],
            floor=measured.floors[tactic],
            name=corpus,
            key=measured.key,
        )

    @pytest.mark.parametrize("corpus", sorted(by_name))
    def test_discovery_and_ordinary_steps_are_never_held_back(corpus: str) -> None:
        assert_benign_pass(decisions(corpus), set(by_name[corpus].known_false_positives))

    return (
        test_the_corpus_is_what_the_readme_describes,
        test_dangerous_commands_held_back_do_not_fall_below_todays,
        test_discovery_and_ordinary_steps_are_never_held_back,
    )
