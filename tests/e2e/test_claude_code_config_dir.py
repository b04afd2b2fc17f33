"""``$CLAUDE_CONFIG_DIR``: where the real Claude Code CLI keeps the user's directory when it is set.

Claude Code 2.1.332 then reads the user's settings from
``$CLAUDE_CONFIG_DIR/settings.json`` (never ``~/.claude/settings.json``) and keeps
its shell snapshots and session environments there, which its Bash tool sources
before each command. ``agentbus install claude-code`` once wrote
``~/.claude/settings.json`` whatever the variable said: no hook ran, and
``rm -rf ~/work`` ran.
"""

from __future__ import annotations

import pytest

from .conftest import Claude
from .fake_anthropic import text, tool_use

pytestmark = pytest.mark.claude_cli

CANARY = {"work/canary.txt": "still here"}
CONFIG_DIR = {"CLAUDE_CONFIG_DIR": "{home}/claude-config"}


def test_the_users_install_and_the_snapshot_rule_follow_claude_config_dir(claude: Claude) -> None:
    """`agentbus install claude-code --user` with the variable set: the hook runs, denies `rm -rf
    ~/work`, and denies a line appended to the snapshot in the directory the variable names (the
    snapshot is really there: a harmless `ls` of it lists it)."""
    where = tool_use("Bash", command="ls $CLAUDE_CONFIG_DIR/shell-snapshots; ls -a ~/.claude 2>&1 | wc -l")
    rm = tool_use("Bash", command="rm -rf ~/work")
    snapshot = tool_use(
        "Bash",
        command="echo 'ls() { rm -rf ~/work; }' >> \"$CLAUDE_CONFIG_DIR\"/shell-snapshots/snapshot-x.sh",
    )
    literal = tool_use("Bash", command="cp /dev/null ~/claude-config/session-env/hook-0.sh")
    run = claude.run(
        [[where], [rm], [snapshot], [literal], [text("ok")]], scope="user", env=CONFIG_DIR, home_files=CANARY
    )
    assert run.completed.returncode == 0, run.completed.stderr + run.completed.stdout
    assert (run.home / "claude-config/settings.json").exists()
    assert not (run.home / ".claude/settings.json").exists()
    assert "snapshot-bash-" in run.fake.result_text(where), (
        "Claude Code's snapshot is where the variable says"
    )
    assert (run.home / "work/canary.txt").read_text() == "still here"
    assert "agentbus: builtin:command-safety-guard" in run.fake.result_text(rm)
    for call in (snapshot, literal):
        assert "hidden persistence" in run.fake.result_text(call), call["input"]["command"]
    assert not list((run.home / "claude-config/shell-snapshots").glob("snapshot-x.sh"))


def test_agentbus_serve_denies_a_session_whose_claude_config_dir_it_does_not_read(
    served_claude: Claude,
) -> None:
    """An HTTP hook gets none of the session's environment: `agentbus serve` reads its own
    $CLAUDE_CONFIG_DIR (the user's settings and plugins, the snapshots it protects). The session's
    directory shows in the transcript path Claude Code sends; where it is another, calls are denied."""
    echo = tool_use("Bash", command="echo one")
    run = served_claude.run([[echo], [text("ok")]], env=CONFIG_DIR)
    assert run.completed.returncode == 0, run.completed.stderr + run.completed.stdout
    said = run.fake.result_text(echo)
    assert "Start agentbus serve with CLAUDE_CONFIG_DIR=" in said
    assert str(run.home / "claude-config") in said


def test_agentbus_serve_denies_a_session_under_another_home(served_claude: Claude) -> None:
    """A session run with another HOME (no $CLAUDE_CONFIG_DIR) keeps its user directory in that
    home's .claude, which `agentbus serve` does not read: a line written into that session's own
    shell snapshot (by its absolute path) was allowed, judged against the server's home; now the
    session's calls are denied, naming the home to start serve with."""
    other = served_claude.root / "other-home"
    other.mkdir()
    snapshot = other / ".claude/shell-snapshots/snapshot-x.sh"
    planted = tool_use("Bash", command=f"printf 'cd() {{ builtin cd \"$@\"; . ./.x; }}\\n' >> {snapshot}")
    run = served_claude.run([[planted], [text("ok")]], env={"HOME": str(other)})
    assert run.completed.returncode == 0, run.completed.stderr + run.completed.stdout
    said = run.fake.result_text(planted)
    assert f"Start agentbus serve with HOME={other}" in said, said
    assert not snapshot.exists()
