"""The framework versions README.md and docs/ state are the ones CI installs.

"Tested with" versions are written ``name==version`` and must equal ``constraints.txt`` (the
pinned set of ``.ci/run``); supported ranges are written ``name>=...`` and must equal the
extra in ``pyproject.toml``. A version in prose (``langchain 1.4.7``) is refused: it cannot be
checked, so it goes stale when the pins move.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# The adapters' frameworks, and the packages of theirs whose version matters to an adapter.
EXTRAS = ("openai-agents", "langchain", "pydantic-ai", "mcp", "google-adk", "strands", "claude-agent-sdk")
RELATED = ("langchain-core", "langgraph", "mcp")


# Frameworks tested in an environment of their own (.ci/isolated), with its own pinned set.
ISOLATED = ("google-adk", "strands-agents")


def _read_pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            found[canonicalize_name(name)] = version.strip()
    return found


def pins() -> dict[str, str]:
    """The version CI tests each package with: constraints.txt, and for the frameworks tested
    apart, constraints-isolated.txt."""
    found = _read_pins(ROOT / "constraints.txt")
    isolated = _read_pins(ROOT / "constraints-isolated.txt")
    found.update({name: isolated[name] for name in ISOLATED if name in isolated})
    return found


def extras() -> dict[str, Requirement]:
    """The framework requirement of each adapter's extra, by package name."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = {}
    for extra in EXTRAS:
        for spec in project["optional-dependencies"][extra]:
            requirement = Requirement(spec)
            found[canonicalize_name(requirement.name)] = requirement
    return found


def frameworks() -> list[str]:
    return sorted({*extras(), *RELATED})


def mentions(pattern: str) -> list[tuple[str, int, re.Match[str]]]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(pattern, text):
            found.append((str(page.relative_to(ROOT)), text.count("\n", 0, match.start()) + 1, match))
    return found


def names_pattern() -> str:
    return "|".join(re.escape(name) for name in sorted(frameworks(), key=len, reverse=True))


def test_every_framework_has_a_pin_and_an_extra() -> None:
    pinned = pins()
    assert set(extras()) <= set(pinned), "every adapter's framework is in constraints.txt"
    assert set(RELATED) <= set(pinned)


def test_every_tested_with_version_is_the_pinned_one() -> None:
    pinned = pins()
    stated = mentions(rf"(?<![\w-])({names_pattern()})==([0-9][\w.]*)")
    assert stated, "the docs state the versions CI tests with"
    wrong = [
        f"{page}:{line}: {m[1]}=={m[2]}, constraints.txt pins {pinned[m[1]]}"
        for page, line, m in stated
        if pinned[m[1]] != m[2]
    ]
    assert not wrong, "\n".join(wrong)


def test_every_supported_range_is_the_extra_in_pyproject() -> None:
    required = extras()
    version = r"[0-9][\w.*]*"
    stated = mentions(rf"(?<![\w-])({names_pattern()})([<>~!]=?{version}(?:,[<>~!]=?{version})*)")
    ranges = list(stated)
    assert ranges, "the docs state the supported ranges"
    wrong = [
        f"{page}:{line}: {m[1]}{m[2]}, pyproject.toml allows {required[m[1]].specifier}"
        for page, line, m in ranges
        if m[1] not in required or SpecifierSet(m[2]) != required[m[1]].specifier
    ]
    assert not wrong, "\n".join(wrong)


def test_no_framework_version_is_stated_in_prose() -> None:
    prose = mentions(rf"(?<![\w-])({names_pattern()}) v?([0-9]+\.[0-9]+[\w.]*)")
    assert not prose, "\n".join(
        f"{page}:{line}: {m[0]!r}: write it as {m[1]}=={m[2]} (checked against constraints.txt)"
        for page, line, m in prose
    )


# The package each extra installs (the pydantic-ai extra installs pydantic-ai-slim).
PACKAGES = ("openai-agents", "langchain", "pydantic-ai-slim", "fastmcp", "claude-agent-sdk", *ISOLATED)


@pytest.mark.parametrize("name", PACKAGES)
def test_the_adapters_table_names_each_frameworks_pinned_version(name: str) -> None:
    table = (ROOT / "docs" / "adapters" / "index.md").read_text(encoding="utf-8")
    assert f"`{name}=={pins()[name]}`" in table
