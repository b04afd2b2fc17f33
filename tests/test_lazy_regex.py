"""Patterns compiled on first use behave as compiled ones, and the guards compile none at import."""

from __future__ import annotations

import copy
import pickle
import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbus.lazy_regex import lazy_compile

PATTERNS = [
    r"^/dev/(?:tcp|udp)/",
    r"(?P<key>[a-z]+)=(?P<value>\d*)",
    r"\\(.)",
    r"[\"']([^\"'\n]{1,40})[\"']",
    r"^~([A-Za-z0-9_.][A-Za-z0-9_.-]*)(?=/|$)",
]
TEXT = st.text(alphabet="ab=1/~'\"\\.-_ devtcpKEY\n", max_size=40)


@given(st.sampled_from(PATTERNS), st.sampled_from([0, re.IGNORECASE, re.MULTILINE]), TEXT)
def test_a_lazy_pattern_answers_as_the_compiled_one(pattern: str, flags: int, text: str) -> None:
    lazy, compiled = lazy_compile(pattern, flags), re.compile(pattern, flags)
    for method in ("search", "match", "fullmatch"):
        got, expected = getattr(lazy, method)(text), getattr(compiled, method)(text)
        assert (got and got.groups()) == (expected and expected.groups())
        assert (got and got.span()) == (expected and expected.span())
    assert lazy.findall(text) == compiled.findall(text)
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert lazy.sub("X", text) == compiled.sub("X", text)
    assert lazy.subn(lambda m: "Y", text, count=1) == compiled.subn(lambda m: "Y", text, count=1)
    assert lazy.split(text) == compiled.split(text)
    assert (lazy.pattern, lazy.flags, lazy.groups, lazy.groupindex) == (
        compiled.pattern,
        compiled.flags,
        compiled.groups,
        compiled.groupindex,
    )


def test_bytes_patterns_too() -> None:
    lazy = lazy_compile(rb'"hook_event_name"\s*:\s*"(\w+)"')
    assert lazy.search(b'{"hook_event_name": "PreToolUse"}')[1] == b"PreToolUse"


def test_nothing_is_compiled_until_first_use() -> None:
    broken = lazy_compile("(unclosed")  # re.compile would raise here
    assert broken.pattern == "(unclosed"
    assert "(unclosed" in repr(broken)
    with pytest.raises(re.error):
        broken.search("x")


def test_copies_and_pickles_keep_working() -> None:
    lazy = lazy_compile(r"a(b)")
    for other in (copy.copy(lazy), copy.deepcopy(lazy), pickle.loads(pickle.dumps(lazy))):
        assert other.search("xab")[1] == "b"
    assert lazy.search("ab") is not None
    assert pickle.loads(pickle.dumps(lazy)).search("ab") is not None  # compiled state pickles too


def test_importing_the_guards_compiles_none_of_their_patterns() -> None:
    """Each hook process compiles only the patterns its call needs (see agentbus.lazy_regex)."""
    script = """
import sys
from agentbus.lazy_regex import _LazyPattern
import agentbus.middleware.builtin
from agentbus.guards import danger, files, interpreters, operands, parse, paths, programs
lazy = compiled = 0
for module in (danger, files, interpreters, operands, parse, paths, programs):
    for value in vars(module).values():
        for item in value if isinstance(value, tuple) else (value,):
            pattern = item[0] if isinstance(item, tuple) and item else item
            if isinstance(pattern, _LazyPattern):
                lazy += 1
                compiled += "search" in vars(pattern)
print(lazy, compiled)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    lazy, compiled = map(int, done.stdout.split())
    assert lazy > 50  # the guards' module-level patterns are lazy ...
    assert compiled == 0  # ... and none was compiled by importing them


def test_the_time_spent_compiling_is_counted() -> None:
    # The decision budget leaves it out (agentbus.guards.budget): each pattern is compiled once.
    from agentbus import lazy_regex

    before = lazy_regex.compiling_seconds()
    pattern = lazy_regex.lazy_compile(r"(?:counted|once)+\d{3,}")
    assert pattern.search("once123")
    after = lazy_regex.compiling_seconds()
    assert after >= before
    assert pattern.search("counted456")
    assert lazy_regex.compiling_seconds() == after
