"""The real Claude Code CLI, run offline against a scripted Messages API.

The CLI comes from npm (``@anthropic-ai/claude-code``), installed by .ci/run
into a cache; ``AGENTBUS_CLAUDE_CLI`` names it. When it cannot be found the
tests fail and say how to install it: they skip only when
``AGENTBUS_SKIP_CLAUDE_CLI`` says why the CLI is absent on purpose.

Each scenario gets a throwaway HOME and project directory, agentbus's hooks
installed by ``agentbus install claude-code --project`` (the command hook, or
``--http`` with ``agentbus serve`` running; another scope on request), and one
``claude -p`` run.

The managed scope (/etc/claude-code) is the machine's: a scenario that uses it
runs the install and the CLI in a private mount namespace whose /etc is an
overlay (``unshare -Urm``, unprivileged), so nothing outside the test sees it.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

from .fake_anthropic import Block, FakeAnthropic

HERE = Path(__file__).parent
# The version .ci/claude-cli installs (the README's test command and CI run it): one place.
CLI_VERSION = re.search(r"^version=(\S+)", (HERE.parent.parent / ".ci/claude-cli").read_text(), re.M)[1]  # type: ignore[index]
CLI_ENV = "AGENTBUS_CLAUDE_CLI"
SKIP_ENV = "AGENTBUS_SKIP_CLAUDE_CLI"
AGENTBUS = Path(sys.executable).parent / "agentbus"
CACHED_CLI = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / (
    f"agentbus/claude-code-{CLI_VERSION}/node_modules"
)
INSTALL_HINT = (
    f"install it with `bash .ci/claude-cli` (npm install --prefix {CACHED_CLI.parent} "
    f"@anthropic-ai/claude-code@{CLI_VERSION}), or set {CLI_ENV}=/path/to/claude; "
    f"set {SKIP_ENV}=<why> only where the CLI is absent on purpose"
)


def _candidates() -> Iterator[Path]:
    if os.environ.get(CLI_ENV):
        yield Path(os.environ[CLI_ENV])
    yield CACHED_CLI / ".bin" / "claude"
    # The native binary itself, should npm have skipped the package's install script.
    yield from sorted(CACHED_CLI.glob("@anthropic-ai/claude-code-*/claude"))


@pytest.fixture(scope="session")
def claude_cli() -> Path:
    """The Claude Code CLI; a failure saying how to install it when there is none."""
    if os.environ.get(SKIP_ENV):
        pytest.skip(f"the Claude Code CLI is absent on purpose ({SKIP_ENV}: {os.environ[SKIP_ENV]})")
    tried = []
    for candidate in _candidates():
        try:
            completed = subprocess.run(
                [str(candidate), "--version"], capture_output=True, text=True, timeout=60, check=False
            )
        except OSError as exc:
            tried.append(f"{candidate}: {exc.strerror or exc}")
            continue
        if completed.returncode == 0 and re.match(r"\d+\.\d+\.\d+", completed.stdout):
            return candidate
        tried.append(f"{candidate}: --version said {(completed.stdout + completed.stderr).strip()[:200]!r}")
    pytest.fail(f"the Claude Code CLI is not installed ({'; '.join(tried)}); {INSTALL_HINT}", pytrace=False)


@attrs.frozen
class Run:
    """One ``claude -p`` session and everything a scenario checks."""

    completed: subprocess.CompletedProcess[str]
    fake: FakeAnthropic
    home: Path
    project: Path
    audit_log: Path
    debug_log: Path

    def records(self) -> list[dict[str, Any]]:
        if not self.audit_log.exists():
            return []
        return [json.loads(line) for line in self.audit_log.read_text().splitlines() if line.strip()]

    def debug(self) -> str:
        return self.debug_log.read_text(errors="replace") if self.debug_log.exists() else ""


@attrs.define
class Claude:
    """Runs scenarios: the CLI, the hook kind, and a fresh HOME and project per run."""

    cli: Path
    root: Path
    http: bool = False
    serve_url: str | None = None
    count: int = 0
    home: Path | None = None  # the HOME every run shares (agentbus serve's own); else one per run

    def run(
        self,
        turns: Sequence[Sequence[Block]],
        *,
        mode: str = "bypassPermissions",
        prompt: str = "go",
        files: dict[str, str] | None = None,
        home_files: dict[str, str] | None = None,
        hook_args: str = "",
        timeout: int = 60,
        cli_args: Sequence[str] = (),
        scope: str = "project",
        env: dict[str, str] | None = None,
    ) -> Run:
        """One ``claude -p`` run; ``env`` adds variables to the CLI's environment and the install's
        (written with ``{home}`` for this run's HOME)."""
        base, home, project, audit_log = self.workspace(files, home_files, hook_args, timeout, scope, env)
        env = self.environment(home, env)
        debug_log = base / "debug.log"
        with FakeAnthropic(turns) as fake:
            env["ANTHROPIC_BASE_URL"] = fake.url
            completed = subprocess.run(
                [*self.private_etc(base, scope), str(self.cli), "-p", prompt, "--permission-mode", mode,
                 "--output-format", "json", "--debug-file", str(debug_log), "--allowedTools", "Glob,Grep",
                 *cli_args],
                cwd=project, env=env, capture_output=True, text=True, timeout=180,
                stdin=subprocess.DEVNULL, check=False,
            )  # fmt: skip
        return Run(completed, fake, home, project, audit_log, debug_log)

    def workspace(
        self,
        files: dict[str, str] | None = None,
        home_files: dict[str, str] | None = None,
        hook_args: str = "",
        timeout: int = 60,
        scope: str = "project",
        env: dict[str, str] | None = None,
    ) -> tuple[Path, Path, Path, Path]:
        """A fresh HOME and project with agentbus's hooks installed: (base, home, project, audit log)."""
        self.count += 1
        base = self.root / f"run{self.count}"
        home, project = self.home or base / "home", base / "project"
        audit_log = base / "audit.jsonl" if not self.http else self.root / "serve-audit.jsonl"
        for directory, contents in ((home, home_files), (project, files)):
            directory.mkdir(parents=True, exist_ok=True)
            for name, text in (contents or {}).items():
                (directory / name).parent.mkdir(parents=True, exist_ok=True)
                (directory / name).write_text(text)
        install = [*self.private_etc(base, scope), str(AGENTBUS), "install", "claude-code", f"--{scope}"]
        install += ["--timeout", str(timeout), "--claude", str(self.cli)]
        if self.http:
            assert self.serve_url is not None
            install += ["--http", "--url", self.serve_url]
        else:
            arguments = (
                f"--import-path {HERE} --middleware e2e_policies:install --audit-log {audit_log} {hook_args}"
            )
            install.append(f"--hook-args={arguments}")
        env = self.environment(home, env)
        subprocess.run(install, cwd=project, env=env, check=True, capture_output=True, timeout=60)
        return base, home, project, audit_log

    def private_etc(self, base: Path, scope: str) -> list[str]:
        """The command prefix that runs a program with this run's own /etc (managed scope only)."""
        if scope != "managed":
            return []
        if reason := private_etc_unavailable():
            pytest.skip(f"the managed scope needs a private /etc: {reason}")
        upper, work = base / "etc-upper", base / "etc-work"
        upper.mkdir(exist_ok=True)
        work.mkdir(exist_ok=True)
        return private_etc_prefix(upper, work)

    def environment(self, home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
        added = {name: value.format(home=home) for name, value in (extra or {}).items()}
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "PYTHONPATH": str(HERE),
            "ANTHROPIC_API_KEY": "sk-ant-fake-key-for-the-scripted-api",
            "IS_SANDBOX": "1",  # bypassPermissions as root
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "NO_COLOR": "1",
        } | added


def private_etc_prefix(upper: Path, work: Path) -> list[str]:
    """``unshare`` a user and mount namespace, lay an overlay over /etc, then run the command."""
    mount = f"mount -t overlay overlay -o lowerdir=/etc,upperdir={upper},workdir={work} /etc"
    return ["unshare", "-Urm", "sh", "-c", f'{mount} && exec "$@"', "private-etc"]


@functools.cache
def private_etc_unavailable() -> str:
    """Why this machine cannot give a process a private /etc ('' when it can), checked once."""
    if shutil.which("unshare") is None:
        return "no `unshare` on PATH (util-linux)"
    with tempfile.TemporaryDirectory() as scratch:
        upper, work = Path(scratch, "u"), Path(scratch, "w")
        upper.mkdir()
        work.mkdir()
        completed = subprocess.run(
            [*private_etc_prefix(upper, work), "true"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    if completed.returncode != 0:
        return f"the kernel refused an unprivileged user namespace or overlay: {completed.stderr.strip()}"
    return ""


@pytest.fixture
def claude(claude_cli: Path, tmp_path: Path) -> Claude:
    """Scenarios through the command hook (`agentbus hook claude-code`)."""
    return Claude(claude_cli, tmp_path)


@pytest.fixture
def served_claude(claude_cli: Path, tmp_path: Path) -> Iterator[Claude]:
    """Scenarios through the HTTP hook, `agentbus serve` running on a free port. Its sessions share
    its HOME, as one user's server and sessions do (serve denies a session under another home)."""
    log = tmp_path / "serve-audit.jsonl"
    home = tmp_path / "home"
    home.mkdir()
    process = subprocess.Popen(
        [
            str(AGENTBUS),
            "serve",
            "--port",
            "0",
            "--middleware",
            "e2e_policies:install",
            "--audit-log",
            str(log),
        ],
        env={**os.environ, "PYTHONPATH": str(HERE), "HOME": str(home)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        found = re.search(r"(http://\S+/claude-code)", line)
        assert found, f"agentbus serve did not start: {line}"
        yield Claude(claude_cli, tmp_path, http=True, serve_url=found.group(1), home=home)
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()
