"""`agentbus demo` as a user (or CI) runs it: a subprocess with stdout captured."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest

import agentbus
from agentbus.demo import run_demo


def demo(*options: str, **environ: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    env.pop("FORCE_COLOR", None)
    env.pop("NO_COLOR", None)
    env.update(environ)
    return subprocess.run(
        [sys.executable, "-m", "agentbus.cli", "demo", *options],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )


def test_demo_shows_every_interception_the_readme_promises() -> None:
    done = demo()
    assert done.returncode == 0, done.stderr
    out = done.stdout
    expected = [
        "📨 message.before · metadata: complexity",  # classified and tagged
        "⚙️ params.before · thinkLevel → high",  # think level raised from the tag
        "🤖 assistant [thinkLevel high]:",  # ... and the model received it
        "↳ args: timeout injected by defaults:exec",  # arguments injected
        '🛡️ builtin:command-safety-guard · blocked exec — "',  # rm -rf / blocked
        '🔨 exec {"command": "rm -rf /", "timeout": 120} → blocked, never ran',
        "↳ result changed by redact:secrets",  # a secret redacted
        "x-access-token:[REDACTED:github_token]@github.com",
        "→ error after",  # an error passed on
        '"error": "ConnectionError: artifacts.ci.example.com',
        "(agent busy: queued until this prompt ends)",  # send() while a turn runs
        "👤 user: CI webhook: build #813 on main passed.",
        "🛡️ demo:ask-before-push · asks approval for exec",  # approval: denied, unattended
        "summary: 2 prompts, 6 turns, 5 tool calls, 2 blocked,",
        "overhead per executed call (median):",
    ]
    for line in expected:
        assert line in out, f"missing {line!r} in:\n{out}"
    assert "ghp_" not in out
    assert re.search(r"→ ok in \d+\.\d\d ms", out)  # each call's duration
    assert done.stderr == ""


def test_demo_output_is_plain_text_when_stdout_is_not_a_terminal() -> None:
    out = demo("--verbose", "full").stdout
    assert "\x1b[" not in out
    assert "ghp_" not in out  # not even in the redactor's own diff
    assert "· redact:secrets · tool.after exec unchanged" in out  # full shows unchanged layers too
    assert "args.timeout: ∅ → 120" in out  # ... and each change, old and new


def test_demo_colours_only_when_asked_and_no_color_wins() -> None:
    assert "\x1b[" in demo(FORCE_COLOR="1").stdout
    assert "\x1b[" not in demo(FORCE_COLOR="1", NO_COLOR="1").stdout


def test_demo_verbose_off_keeps_only_the_conversation_and_the_summary() -> None:
    out = demo("--verbose", "off").stdout
    assert "🛡️" not in out
    assert "📨" not in out
    assert "👤 user:" in out
    assert "summary:" in out


def test_demo_help_has_examples() -> None:
    done = demo("--help")
    assert done.returncode == 0
    assert "examples:" in done.stdout
    assert "agentbus demo --verbose full" in done.stdout


@pytest.mark.anyio
async def test_demo_runs_twice_in_one_process_and_leaves_the_registry_as_it_found_it() -> None:
    registry = agentbus.init_registry()
    before = [r.id for r in registry.list()]
    for _ in range(2):
        out = io.StringIO()
        assert await run_demo(out) == 0
        assert "summary: 2 prompts" in out.getvalue()
    assert [r.id for r in registry.list()] == before
