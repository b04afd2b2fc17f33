"""Filling the disk: a file of 10 GiB or more made out of nothing is held back; small ones run.

``dd if=/dev/zero bs=... count=...``, ``head -c N /dev/zero > f``, ``fallocate -l N``, ``mkfile N``;
``yes > f`` and ``dd`` with no count write until the disk is full. Test fixtures (a few megabytes),
scratch images and random keys keep running.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbus.guards.danger import check_command
from agentbus.guards.policy import Policy
from agentbus.guards.sizes import DISK_FILL_LIMIT, size_in_bytes
from agentbus.guards.verdict import DATA_DESTRUCTION

HOME = "/home/dev"

FILLS = [
    "dd if=/dev/zero of=/tmp/fill bs=1M count=100000",
    "dd if=/dev/zero of=big.img bs=1G count=10",
    "dd if=/dev/urandom of=./junk bs=4M count=4096",
    "dd if=/dev/zero of=f count=30G iflag=count_bytes",
    "dd if=/dev/zero of=/var/tmp/x bs=1048576 count=20480",
    "dd if=/dev/zero of=/tmp/fill",  # no count: until the disk is full
    "fallocate -l 100G f",
    "fallocate -l10G /tmp/f",
    "fallocate --length=1T ~/x",
    "mkfile 20g /tmp/pad",
    "head -c 100G /dev/zero > f",
    "head --bytes=50G /dev/urandom > ~/noise",
    "cat /dev/zero | head -c 50G > f",
    "yes > f",
    "yes y > /tmp/f",
    "cat /dev/zero > /tmp/f",
]


@pytest.mark.parametrize("command", FILLS)
def test_filling_the_disk_is_blocked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, verdict
    assert (verdict.category, verdict.decision) == (DATA_DESTRUCTION, "block"), verdict


SMALL = [
    "dd if=/dev/zero of=test.img bs=1M count=100",
    "dd if=/dev/zero of=disk.img bs=1G count=9",
    "dd if=/dev/urandom of=random.bin bs=1k count=16",
    "dd if=/dev/zero of=/dev/null bs=1M count=100000",  # a throughput test: nothing is written
    "dd if=build/boot.bin of=out/image.bin bs=512 count=1 conv=notrunc",
    "fallocate -l 1G scratch.img",
    "fallocate -l 512M /tmp/swapfile-test",
    "fallocate -p -o 0 -l 100G big.img",  # punching a hole frees space
    "mkfile -n 20g sparse.img",  # -n: sparse, no space taken
    "mkfile 10m fixture.bin",
    "head -c 1M /dev/urandom > fixture.bin",
    "head -c 32 /dev/urandom | base64",
    "head -c 20G huge.log > first20g.log",  # a real file holds only so much
    "head -c 100G /dev/zero | wc -c",
    "yes | head -n 5 > answers.txt",
    "yes | npx create-app",
    "truncate -s 100G sparse.img",  # sparse: no space taken
]


@pytest.mark.parametrize("command", SMALL)
def test_small_or_bounded_files_run(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is None or verdict.category != DATA_DESTRUCTION, verdict


def test_the_verdict_says_how_much_and_a_policy_decides() -> None:
    verdict = check_command("fallocate -l 100G f", home=HOME)
    assert verdict is not None
    assert "100 GiB" in verdict.why
    assert "10 GiB or more" in verdict.why
    policy = Policy(verdicts={DATA_DESTRUCTION: "ask"})
    asked = check_command("fallocate -l 100G f", home=HOME, policy=policy)
    assert asked is not None
    assert asked.decision == "ask"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("512", 512),
        ("1K", 1024),
        ("1k", 1024),
        ("1KiB", 1024),
        ("1kB", 1000),
        ("1KB", 1000),
        ("1M", 2**20),
        ("1MB", 10**6),
        ("1m", 2**20),
        ("1G", 2**30),
        ("1.5G", 3 * 2**29),
        ("2T", 2 * 2**40),
        ("1b", 512),
        ("1c", 1),
        ("1w", 2),
        ("1Mx2", 2**21),
        ("", None),
        ("$SIZE", None),
        ("10Q", None),
        ("G", None),
        ("1GX", None),
    ],
)
def test_sizes_are_read_as_the_tools_read_them(text: str, expected: int | None) -> None:
    assert size_in_bytes(text) == expected


@given(number=st.integers(min_value=0, max_value=2**20), power=st.integers(min_value=0, max_value=5))
def test_binary_suffixes_are_powers_of_1024_in_every_spelling(number: int, power: int) -> None:
    letter = " KMGTP"[power].strip()
    for suffix in {letter, letter.lower(), f"{letter}iB" if letter else ""}:
        assert size_in_bytes(f"{number}{suffix}") == number * 1024**power


@given(gib=st.integers(min_value=0, max_value=64), unit=st.sampled_from(["G", "M"]))
def test_fallocate_is_held_back_exactly_from_the_limit(gib: int, unit: str) -> None:
    amount = gib if unit == "G" else gib * 1024
    verdict = check_command(f"fallocate -l {amount}{unit} data.bin", home=HOME)
    assert (verdict is not None) is (gib * 2**30 >= DISK_FILL_LIMIT), verdict
