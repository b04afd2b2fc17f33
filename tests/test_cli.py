"""The ``agentbus`` command's help is sized to the terminal, without importing shutil to do it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from agentbus.cli import main, terminal_width


def options_section(help_text: str) -> list[str]:
    """The lines argparse wrapped: the options, not the raw description or examples."""
    lines = help_text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("options:"))
    end = next((i for i, line in enumerate(lines) if i > start and not line.strip()), len(lines))
    return lines[start:end]


@pytest.mark.parametrize("columns", [50, 70, 140])
def test_help_wraps_at_the_terminal_width(
    columns: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    with pytest.raises(SystemExit) as exit_:
        main(["hook", "--help"])
    assert exit_.value.code == 0
    options = options_section(capsys.readouterr().out)
    assert any("--rewrite-decision" in line for line in options)
    assert max(len(line) for line in options) <= columns - 2
    if columns == 140:  # the long help lines use the room they are given
        assert max(len(line) for line in options) > 100


def test_terminal_width_falls_back_to_80_without_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(sys, "__stdout__", None)
    assert terminal_width() == 80
    monkeypatch.setenv("COLUMNS", "not a number")
    assert terminal_width() == 80
    monkeypatch.setenv("COLUMNS", "123")
    assert terminal_width() == 123


def test_parsing_a_command_line_imports_no_shutil() -> None:
    """argparse's own formatter imports shutil for each add_argument; the hook runs per tool call."""
    script = (
        "import sys\n"
        "import argparse\n"
        "from agentbus import help_formatter, hook\n"
        "parser = argparse.ArgumentParser(formatter_class=help_formatter.HelpFormatter)\n"
        "hook.add_arguments(parser)\n"
        "parser.parse_args(['claude-code', '--no-audit-log'])\n"
        "print('shutil' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    """`agentbus explain CMD | head -1`: no traceback for a closed pipe, as other tools do."""
    script = "import sys\nfrom agentbus.cli import main\nsys.exit(main(['explain', 'ls -la']))\n"
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first write: every write fails
    try:
        done = subprocess.run(
            [sys.executable, "-c", script],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr
    assert "BrokenPipeError" not in done.stderr
    assert done.returncode == 1
