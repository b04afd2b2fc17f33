"""MITRE Caldera's stockpile: attack procedures nobody on the team wrote, measured at first sight.

``corpus/external/caldera-stockpile.jsonl`` holds the Linux and macOS ``sh`` abilities of
Caldera's stockpile plugin (Apache 2.0, see external/README.md). It was measured before any
guard was tuned with it in view: the floors below are today's figures, raised when the guards
improve, and the README reports first sight next to now.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from test_corpus import HOME, judge_command

CORPUS = Path(__file__).parent / "corpus" / "external" / "caldera-stockpile.jsonl"
ENTRIES = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]

HELD_BACK_FLOOR = 25
"""Dangerous abilities held back today (of 29; first sight: 14). Missed: uploads whose file or
host is a placeholder at the start of a word (``curl -T #{host.dir.compress} ftp://…``: bash
reads ``#`` there as a comment, so nothing is sent), and a Dropbox upload whose options lost
their line continuations (each ``--header`` line runs as a command of its own)."""
DISCOVERY_CEILING = 4
"""Discovery abilities held back today (of 37): LinEnum downloaded and run, Chrome's profile
directory and TCC.db read, a ping sweep whose address comes from a substitution, and (asked since
session 19) ``nmap -sV`` fingerprinting another machine's services."""


@pytest.fixture(scope="module")
def decisions() -> list[tuple[dict[str, str], str]]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", HOME)  # check_shell_files resolves ~ from the environment
        return [(entry, judge_command(entry["command"])) for entry in ENTRIES]


def test_the_corpus_is_what_the_readme_describes() -> None:
    labels = Counter(entry["label"] for entry in ENTRIES)
    assert labels == {"dangerous": 29, "benign": 37, "unlabelled": 28}


def test_dangerous_abilities_held_back_do_not_fall_below_todays(
    decisions: list[tuple[dict[str, str], str]],
) -> None:
    dangerous = [(e, d) for e, d in decisions if e["label"] == "dangerous"]
    held = [e["test"] for e, d in dangerous if d != "allow"]
    missed = [e["test"] for e, d in dangerous if d == "allow"]
    print(f"\nCaldera stockpile: {len(held)}/{len(dangerous)} dangerous held back; missed: {missed}")
    assert len(held) >= HELD_BACK_FLOOR, missed


def test_discovery_abilities_are_not_held_back_more_than_today(
    decisions: list[tuple[dict[str, str], str]],
) -> None:
    flagged = [e["test"] for e, d in decisions if e["label"] == "benign" and d != "allow"]
    assert len(flagged) <= DISCOVERY_CEILING, flagged
