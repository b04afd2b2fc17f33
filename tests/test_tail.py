"""`agentbus tail`: following a log that other processes append to, rotate and truncate."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

import pytest

import agentbus
from agentbus import tail
from agentbus.cli import main
from agentbus.records import DEBUG, DISPATCH, INFO, WARNING, Record
from agentbus.tail import LogFollower


def line(**fields: Any) -> str:
    base: dict[str, Any] = {"point": "tool.before", "id": "guard", "level": WARNING, "tool": "exec"}
    return json.dumps(Record(**{**base, **fields}).to_dict())


BLOCK_RM = line(decision="block", reason="rm -rf is not allowed")
BLOCK_SSH = line(id="audit", tool="read", decision="block", reason="Access denied: ~/.ssh/id_rsa")
UNCHANGED = line(level=DEBUG)
REDACT = line(point="tool.after", id="redact", level=INFO, changes={"result": ("sk-1", "[REDACTED]")})
CALL_END = line(point="tool.call", id=DISPATCH, level=DEBUG, duration=0.5)
RM_TEXT = '🛡️ guard · blocked exec — "rm -rf is not allowed"'
SSH_TEXT = '🛡️ audit · blocked read — "Access denied: ~/.ssh/id_rsa"'


def write(path: Path, text: str, mode: str = "a") -> None:
    with open(path, mode) as file:
        file.write(text)


def texts(items: list[Any]) -> list[str]:
    return [item if isinstance(item, str) else f"NOTICE {item.text}" for item in items]


# -- the follower, step by step ------------------------------------------------------


def test_follower_starts_at_the_end_and_holds_a_partial_line(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    write(path, "old\n")
    with LogFollower(path) as follower:
        assert follower.open()
        assert list(follower.poll()) == []
        write(path, '{"half": ')
        assert list(follower.poll()) == []
        write(path, "1}\nnext\n")
        assert list(follower.poll()) == ['{"half": 1}', "next"]


def test_follower_skips_the_rest_of_a_line_half_written_when_it_started(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    write(path, 'done\n{"half": ')
    with LogFollower(path) as follower:
        assert follower.open()
        write(path, "1}\nwhole\n")
        assert list(follower.poll()) == ["whole"]


def test_follower_reads_from_the_start_of_a_truncated_log(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    write(path, "a\nb\n")
    with LogFollower(path, from_start=True) as follower:
        assert list(follower.poll()) == ["a", "b"]
        write(path, "c\n", mode="w")
        assert texts(list(follower.poll())) == [
            f"NOTICE {path} was truncated; reading it from the start",
            "c",
        ]


def test_follower_drains_a_rotated_log_then_follows_the_new_one(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    write(path, "a\n")
    with LogFollower(path, from_start=True) as follower:
        assert list(follower.poll()) == ["a"]
        write(path, "b\n")  # written before the rotation, read after it
        path.rename(tmp_path / "audit.jsonl.1")
        assert list(follower.poll()) == ["b"]  # the new file does not exist yet: keep the old one
        write(path, "c\n")
        assert texts(list(follower.poll())) == [f"NOTICE {path} was rotated; following the new file", "c"]


def test_follower_drops_an_endless_line_instead_of_growing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tail, "_MAX_LINE", 10)
    path = tmp_path / "audit.jsonl"
    write(path, "")
    with LogFollower(path) as follower:
        assert follower.open()
        write(path, "x" * 50)
        assert list(follower.poll()) == []
        write(path, "still the same line\nnext\n")
        assert list(follower.poll()) == ["next"]


def test_follower_waits_for_a_missing_log_and_reads_all_of_it(tmp_path: Path) -> None:
    path = tmp_path / "later.jsonl"
    with LogFollower(path) as follower:
        assert not follower.open()
        assert list(follower.poll()) == []
        write(path, "first\n")
        assert list(follower.poll()) == ["first"]


# -- the command, on a finished log ---------------------------------------------------


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "audit.jsonl"
    write(
        path, "\n".join([BLOCK_RM, UNCHANGED, "this is not json", REDACT, BLOCK_SSH, CALL_END, "[1]"]) + "\n"
    )
    return path


def test_from_start_renders_the_seed_lines_and_warns_about_garbage(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tail", str(log), "--from-start", "--no-follow", "--color", "never"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [RM_TEXT, SSH_TEXT]
    assert err.count("skipped a line that is not an agentbus record") == 2
    assert "'this is not json'" in err


def test_full_level_and_filters(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tail", str(log), "--from-start", "--no-follow", "--level", "full", "--color", "never"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "· guard · tool.before exec unchanged"
    assert out[2] == '📤 redact · tool.after exec — result: "sk-1" → "[REDACTED]"'
    assert out[4] == "✅ exec · done in 500.0 ms"
    assert main(["tail", str(log), "--from-start", "--no-follow", "--blocked", "--tool", "^read$"]) == 0
    assert capsys.readouterr().out.splitlines() == [SSH_TEXT]
    assert main(["tail", str(log), "--from-start", "--no-follow", "--level", "full", "--id", "red"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_last_n_matching_records(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tail", str(log), "-n", "1", "--no-follow"]) == 0
    assert capsys.readouterr().out.splitlines() == [SSH_TEXT]


def test_json_passes_matching_lines_through_unchanged(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tail", str(log), "--from-start", "--no-follow", "--json", "--tool", "exec"]) == 0
    assert capsys.readouterr().out.splitlines() == [BLOCK_RM, UNCHANGED, REDACT, CALL_END]


def test_missing_log_without_follow_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tail", str(tmp_path / "nope.jsonl"), "--no-follow"]) == 1
    assert "no such file" in capsys.readouterr().err


def test_an_unreadable_log_is_an_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tail", str(tmp_path)]) == 1  # a directory
    assert "cannot read" in capsys.readouterr().err


def test_bad_regex_is_a_usage_error(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tail", str(log), "--tool", "("]) == 2
    assert "bad regular expression" in capsys.readouterr().err


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["tail", "--help"])
    assert exit_.value.code == 0
    assert "examples:" in capsys.readouterr().out


# -- the command, live, against a log another process appends to ---------------------


class Reader:
    """Collects a pipe's lines on a thread, so the test can wait for one."""

    def __init__(self, pipe: IO[str]) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.thread = threading.Thread(target=self._pump, args=(pipe,), daemon=True)
        self.thread.start()

    def _pump(self, pipe: IO[str]) -> None:
        for text in pipe:
            self.lines.put(text.rstrip("\n"))

    def wait_for(self, predicate: Any, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                text = self.lines.get(timeout=max(remaining, 0.01))
            except queue.Empty:
                raise AssertionError(f"no matching line within {timeout} s; saw {self.seen}") from None
            self.seen.append(text)
            if predicate(text):
                return text


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_live_tail_survives_partial_garbage_truncation_and_rotation(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    write(path, BLOCK_RM + "\n")  # history: not shown without --from-start
    env = {**os.environ, "PYTHONPATH": str(Path(agentbus.__file__).parent.parent), "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "agentbus.cli", "tail", str(path), "--interval", "0.02"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8", env=env,
    )  # fmt: skip
    out, err = Reader(proc.stdout), Reader(proc.stderr)  # type: ignore[arg-type]
    try:
        # Appends until the first one shows: tail may still be starting (it starts at the end).
        marker = line(id="marker", decision="block", reason="ready")
        deadline = time.monotonic() + 30
        while True:
            write(path, marker + "\n")
            try:
                out.wait_for(lambda t: "marker" in t, timeout=0.5)
                break
            except AssertionError:
                assert time.monotonic() < deadline, "tail never showed an appended line"
        write(path, BLOCK_SSH[:40])  # a partial line: held back
        write(path, BLOCK_SSH[40:] + "\n")
        assert out.wait_for(lambda t: "marker" not in t) == SSH_TEXT
        write(path, "{not json\n" + BLOCK_RM + "\n")
        assert "not an agentbus record" in err.wait_for(lambda t: "skipped" in t)
        assert out.wait_for(lambda t: True) == RM_TEXT
        write(path, BLOCK_SSH + "\n", mode="w")  # truncated and rewritten
        assert "truncated" in err.wait_for(lambda t: "truncated" in t)
        assert out.wait_for(lambda t: True) == SSH_TEXT
        path.rename(tmp_path / "audit.jsonl.1")
        write(path, BLOCK_RM + "\n")
        assert "rotated" in err.wait_for(lambda t: "rotated" in t)
        assert out.wait_for(lambda t: True) == RM_TEXT
        assert proc.poll() is None  # still following
    finally:
        proc.send_signal(signal.SIGINT)
        status = proc.wait(timeout=30)
    out.thread.join(timeout=30)  # the pipes end with the process
    err.thread.join(timeout=30)
    proc.stdout.close()  # type: ignore[union-attr]
    proc.stderr.close()  # type: ignore[union-attr]
    assert status == 130
    while not err.lines.empty():
        err.seen.append(err.lines.get())
    assert not any("Traceback" in text for text in err.seen)


def test_tail_reads_the_audit_middlewares_log_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The audit middleware writes one entry per call; tail shows them like the bus's records."""
    import anyio

    from agentbus.middleware import audit

    path = tmp_path / "calls.jsonl"
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", tool=r"^exec$", priority=100, id="no-rm")
    def no_rm(call: agentbus.ToolCall) -> None:
        if "rm -rf" in call.args["command"]:
            call.block("rm -rf is not allowed")

    def boom(args: dict[str, Any]) -> str:
        raise ValueError("disk full")

    async def agent() -> None:
        await bus.call_tool("exec", {"command": "rm -rf /"}, boom)
        await bus.call_tool("exec", {"command": "ls"}, boom)

    audit.install(bus.registry, path=path)
    anyio.run(agent)
    assert main(["tail", str(path), "--from-start", "--no-follow"]) == 0
    assert capsys.readouterr().out.splitlines() == ['🛡️ no-rm · blocked exec — "rm -rf is not allowed"']
    assert main(["tail", str(path), "--from-start", "--no-follow", "--level", "full"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == '🛡️ no-rm · blocked exec — "rm -rf is not allowed"'
    assert lines[1] == '⛔ exec · blocked — "rm -rf is not allowed"'
    assert lines[2] == "✅ exec · allowed"
    assert lines[3].startswith("❌ exec · failed in ")
    assert lines[3].endswith(" — ValueError: disk full")
