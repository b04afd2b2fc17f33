"""Claude Code's interactive permission prompt, in a pseudo-terminal, for a call agentbus asks about.

agentbus asks (rather than denies) about a call that a PreToolUse hook of the project's settings
matches, because Claude Code's prompt shows the call that will run: the hook's ``updatedInput``
included, whichever hook ends last. ``claude -p`` shows no prompt, so this runs the real CLI as a
person would, in a pseudo-terminal, and reads the screen. Checked the same way by hand (the
same driver, other hooks): a Write the hook moved to another file asked "Do you want to create
evil.txt?" with the replacement's content, and a command given ``dangerouslyDisableSandbox: true``
(sandbox on, bubblewrap and socat installed) was shown as "Bash command (unsandboxed)".
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import time

import pytest

from .conftest import Claude
from .fake_anthropic import FakeAnthropic, text, tool_use

pty = pytest.importorskip("pty")
pytestmark = pytest.mark.claude_cli

_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>]")


def screen_text(data: bytes) -> str:
    """What the terminal was sent, escapes and blanks removed (Ink moves the cursor between words)."""
    return re.sub(r"[\s╌]+", "", _ESCAPES.sub("", data.decode(errors="replace")))


@pytest.mark.parametrize("slow", ["agentbus", "project"])
def test_the_interactive_prompt_shows_the_replacement_and_yes_runs_it(claude: Claude, slow: str) -> None:
    answer = {
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "touch new.txt"}}
    }
    delay = "sleep 2; " if slow == "project" else ""
    hook = {"type": "command", "command": f"{delay}echo '{json.dumps(answer)}'"}
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}
    base, home, project, _ = claude.workspace({".claude/settings.json": json.dumps(settings)}, scope="user")
    env = claude.environment(home) | {"TERM": "xterm-256color"}
    key = env["ANTHROPIC_API_KEY"]
    state = {
        "hasCompletedOnboarding": True,
        "theme": "dark",
        "customApiKeyResponses": {"approved": [key[-20:]], "rejected": []},
        "projects": {str(project): {"hasTrustDialogAccepted": True}},
    }
    (home / ".claude.json").write_text(json.dumps(state))
    command = "touch old.txt" + (" # fault:slow" if slow == "agentbus" else "")
    seen = b""
    with FakeAnthropic([[tool_use("Bash", command=command)], [text("ok")]]) as fake:
        env["ANTHROPIC_BASE_URL"] = fake.url
        leader, follower = pty.openpty()
        process = subprocess.Popen(
            [str(claude.cli), "go", "--permission-mode", "default", "--debug-file", str(base / "debug.log")],
            cwd=project, env=env, stdin=follower, stdout=follower, stderr=follower, start_new_session=True,
        )  # fmt: skip
        os.close(follower)
        try:
            answered = False
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and not (project / "new.txt").exists():
                if select.select([leader], [], [], 0.5)[0]:
                    try:
                        seen += os.read(leader, 65536)
                    except OSError:
                        break
                shown = screen_text(seen)
                if not answered and "Doyouwanttoproceed?" in shown:
                    time.sleep(1)  # the prompt is drawn; Ink reads keys once it is mounted
                    os.write(leader, b"1")
                    answered = True
        finally:
            os.killpg(process.pid, 15)
            process.wait(timeout=30)
            os.close(leader)
    shown = screen_text(seen)
    (base / "screen.txt").write_text(shown)
    prompt = shown[shown.rfind("Bashcommand") : shown.rfind("Doyouwanttoproceed?")]
    assert "touchnew.txt" in prompt, shown[-3000:]
    assert "touchold.txt" not in prompt
    assert "agentbusjudgedthiscallasthemodelwroteit" in prompt
    assert (project / "new.txt").exists(), shown[-3000:]
    assert not (project / "old.txt").exists()
