"""The one bounded reader the script and chart-archive guards share."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbus.guards.bounded_read import Unreadable, opened, read_at_most


@given(st.binary(max_size=300), st.integers(min_value=0, max_value=200))
def test_reads_at_most_one_byte_past_the_limit(data: bytes, limit: int) -> None:
    read, write = os.pipe()
    try:
        os.write(write, data)
        os.close(write)
        write = -1
        got = read_at_most(read, limit)
    finally:
        os.close(read)
        if write != -1:
            os.close(write)
    assert got == data[: limit + 1]


def test_a_file_swapped_after_the_look_is_not_read(tmp_path: Path) -> None:
    looked, other = tmp_path / "setup.sh", tmp_path / "other.sh"
    looked.write_text("echo hi\n")
    other.write_text("rm -rf ~\n")
    before = os.stat(looked)
    os.replace(other, looked)
    with pytest.raises(Unreadable, match="changed while the guard opened it"), opened(str(looked), before):
        pass


def test_a_file_that_cannot_be_opened_says_why(tmp_path: Path) -> None:
    path = tmp_path / "gone.sh"
    path.write_text("x")
    before = os.stat(path)
    path.unlink()
    with pytest.raises(Unreadable, match=r"it cannot be read \(No such file"), opened(str(path), before):
        pass


def test_the_start_counts_toward_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"0123456789")
    with opened(str(path), os.stat(path)) as (descriptor, after):
        head = os.read(descriptor, 4)
        assert read_at_most(descriptor, 6, head) == b"0123456"
        assert after.st_size == 10
