"""Every code block of README.md and docs/ runs, with Sybil.

- ``python``: a complete script, run on its own (a fresh namespace, ``__name__`` is
  ``"__main__"``), so a block that only works after another one fails here.
- ``bash``: run with bash in an empty temporary directory; it must exit 0.
- ``console``: ``$ command`` lines (``\\`` continues a line) are run the same way and their
  output must be the lines that follow, exactly.
- ``toml`` / ``yaml``: an agentbus configuration, loaded and installed into a new registry
  (``[tool.agentbus]`` blocks as a pyproject.toml); ``json``: parsed.
- ``text``: what something prints; not code.

A block that cannot run standalone has ``<!-- skip: next "why" -->`` on the line before it
(the page says it is a fragment). Blocks run in a temporary directory that is also ``HOME``,
with this interpreter's scripts first on ``PATH``, so ``agentbus`` is the one under test and
nothing is written to the real home directory. Every fenced block must name one of these
languages: an unlabelled or unknown one would be silently skipped.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import SkipTest

import pytest

# Set for the shell commands the blocks run: a block that runs the test suite (it should be
# skipped, but if not) must not run these tests again, and again.
NESTED = "AGENTBUS_DOCS_BLOCK"
if os.environ.get(NESTED):
    pytest.skip("run from a documentation block", allow_module_level=True)
sybil = pytest.importorskip("sybil", reason="the docs tests need Sybil: pip install -e '.[dev]'")

from sybil import Document, Example  # noqa: E402
from sybil.evaluators.python import PythonEvaluator  # noqa: E402
from sybil.parsers.markdown import CodeBlockParser, SkipParser  # noqa: E402

import agentbus  # noqa: E402
from agentbus.config import load_config  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
WITH_CODE = [page for page in PAGES if "```" in page.read_text(encoding="utf-8")]
LANGUAGES = {"python", "bash", "console", "toml", "yaml", "json", "text"}
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)(?P<info>[^`\n]*)$", re.MULTILINE)
SHELL_TIMEOUT = 120
# The extras' packages: a block that imports one is skipped where it is not installed.
OPTIONAL = {"pydantic_ai", "agents", "langchain", "langchain_core", "langgraph", "fastmcp", "mcp"}
OPTIONAL |= {"claude_agent_sdk"}
OPTIONAL |= {"opentelemetry", "yaml", "h11", "trio", "pluggy"}
OPTIONAL |= {"google", "strands"}  # tested in their own environment (.ci/isolated)


def run_python(example: Example) -> None:
    """A fresh namespace per block: each block is a complete script."""
    example.namespace.clear()
    example.namespace["__name__"] = "__main__"
    agentbus.reset_registry()  # init_registry() in one block must not see another's layers
    PythonEvaluator()(example)


def shell(command: str, home: Path) -> subprocess.CompletedProcess[str]:
    scripts = str(Path(sys.executable).parent)
    env = {**os.environ, "HOME": str(home), "PATH": scripts + os.pathsep + os.environ.get("PATH", "")}
    env[NESTED] = "1"
    for name in ("AGENTBUS_CONFIG", "AGENTBUS_AUDIT_LOG", "NO_COLOR", "FORCE_COLOR"):
        env.pop(name, None)
    return subprocess.run(
        ["bash", "-c", "set -eo pipefail\n" + command],
        cwd=home,
        env=env,
        capture_output=True,
        text=True,
        timeout=SHELL_TIMEOUT,
        check=False,
    )


def run_bash(example: Example, tmp: Path) -> None:
    done = shell(example.parsed, tmp)
    assert done.returncode == 0, f"exit {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"


def console_sessions(source: str) -> Iterator[tuple[str, str]]:
    """(command, expected output) pairs of a console block."""
    lines = source.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        assert line.startswith("$ "), f"a console block is `$ command` lines and their output, got {line!r}"
        command = [line[2:]]
        while command[-1].endswith("\\"):
            index += 1
            command.append(lines[index])
        index += 1
        output = []
        while index < len(lines) and not lines[index].startswith("$ "):
            output.append(lines[index])
            index += 1
        yield "\n".join(command), "\n".join(output)


def run_console(example: Example, tmp: Path) -> None:
    for command, expected in console_sessions(example.parsed):
        done = shell(command, tmp)
        assert done.returncode == 0, f"{command}\nexit {done.returncode}\nstderr:\n{done.stderr}"
        assert done.stdout.rstrip("\n") == expected, f"{command}\nprinted:\n{done.stdout}"


def load_configuration(example: Example, tmp: Path, suffix: str) -> None:
    text = example.parsed
    name = "pyproject.toml" if "[tool.agentbus]" in text else f"agentbus{suffix}"
    file = tmp / name
    file.write_text(text, encoding="utf-8")
    registry = load_config(file).build_registry()
    assert isinstance(registry, agentbus.Registry)


def parse(page: Path, tmp: Path) -> Document:
    def evaluator(language: str) -> Any:
        def evaluate(example: Example) -> None:
            if language == "python":
                run_python(example)
            elif language == "bash":
                run_bash(example, tmp)
            elif language == "console":
                run_console(example, tmp)
            elif language in ("toml", "yaml"):
                load_configuration(example, tmp, "." + language)
            elif language == "json":
                json.loads(example.parsed)

        return evaluate

    parsers = [SkipParser()]
    parsers += [CodeBlockParser(language, evaluator(language)) for language in LANGUAGES - {"text"}]
    return Document.parse(str(page), *parsers)


def test_every_page_is_collected() -> None:
    assert ROOT / "README.md" in PAGES
    assert any(page.parent.name == "adapters" for page in PAGES), "docs/adapters/ has a page per adapter"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_fenced_block_names_a_language_that_is_checked(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    opened = False
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        if opened:
            opened = False
            continue
        opened = True
        language = match["info"].strip().split(" ")[0]
        assert language in LANGUAGES, (
            f"{page.name}:{line}: a ``` block labelled {language!r}: label it one of {sorted(LANGUAGES)} "
            "(`text` for output, which is not run)"
        )


@pytest.mark.parametrize("page", WITH_CODE, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_code_block_runs(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The blocks of one page, in order; a failure names the block's line."""
    monkeypatch.setenv("HOME", str(tmp_path))  # ~ in a python block never means the real home
    monkeypatch.chdir(tmp_path)  # nor does a file it writes land in the repository
    monkeypatch.setenv("OPENAI_API_KEY", "sk-docs-not-used")  # the frameworks' offline models
    monkeypatch.setenv("OPENAI_AGENTS_DISABLE_TRACING", "1")
    for name in ("LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "AGENTBUS_CONFIG", "AGENTBUS_AUDIT_LOG"):
        monkeypatch.delenv(name, raising=False)
    agentbus.reset_registry()
    document = parse(page, tmp_path)
    ran = skipped = 0
    try:
        for example in document.examples():
            try:
                example.evaluate()
            except SkipTest:
                skipped += 1
                continue
            except ModuleNotFoundError as exc:
                if (exc.name or "").split(".")[0] not in OPTIONAL:
                    raise
                skipped += 1  # a framework's page, without the framework's extra installed
                continue
            except Exception as exc:
                block = textwrap.indent(str(example.parsed), "    ")
                raise AssertionError(f"{page.name}, the block at line {example.line}:\n{block}") from exc
            ran += 1
    finally:
        agentbus.reset_registry()
    assert ran + skipped > 0, f"{page.name}: no code block was found, though the page has fences"


@pytest.mark.parametrize("script", sorted((ROOT / "examples").glob("*.py")), ids=lambda path: path.name)
def test_every_example_script_runs(script: Path, tmp_path: Path) -> None:
    done = shell(f"{sys.executable} {script}", tmp_path)
    assert done.returncode == 0, f"exit {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
