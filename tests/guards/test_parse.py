"""The parser: tree-sitter-bash's tree turned into the commands bash would run, for any text."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentbus.guards.danger import check_command
from agentbus.guards.files import check_shell_files
from agentbus.guards.parse import expand_braces, parse, parsed
from agentbus.guards.paths import check_glob, check_path
from agentbus.guards.programs import walk
from agentbus.guards.verdict import Verdict


def commands(text: str) -> list[list[str]]:
    return [list(stage.command.words) for stages in walk(parse(text)) for stage in stages]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rm${IFS}-rf${IFS}/", [["rm", "-rf", "/"]]),
        ("echo {rm,-rf,/}", [["echo", "rm", "-rf", "/"]]),
        ("F=/etc/passwd; cat $F", [["F=/etc/passwd"], ["cat", "/etc/passwd"]]),  # HISTFILE=x alone acts
        ('for f in a b; do cat "$f"; done', [["cat", "a", "b"]]),
        ("echo \"a \\\"b\\\" $'x'\" $'\\x41'", [["echo", "a \"b\" $'x'", "A"]]),
        ("if true; then rm -rf /; fi", [["true"], ["rm", "-rf", "/"]]),
        ("a && b || c", [["a"], ["b"], ["c"]]),
        ("(curl x) | sh", [["curl", "x"], ["sh"]]),
    ],
)
def test_words_are_what_bash_would_pass(text: str, expected: list[list[str]]) -> None:
    assert commands(text) == expected


def test_a_redirect_of_a_list_belongs_to_its_last_command() -> None:
    """tree-sitter hangs ``< <(curl x)`` on the list; bash gives it to ``bash``."""
    script = parse("true && bash < <(curl x)")
    last = script.pipelines[-1][-1]
    assert last.words == ("bash",)
    assert [r.op for r in last.redirects] == ["<"]
    assert last.substitutions_in(last.redirects[0].target)[0].script.pipelines[0][0].words == ("curl", "x")


def test_a_function_definition_is_recorded_with_its_body() -> None:
    script = parse(":(){ :|:& };:")
    assert [f.name for f in script.functions] == [":"]
    assert all(command.background for command in script.functions[0].body.pipelines[0])


def test_placeholders_in_the_input_cannot_forge_a_substitution() -> None:
    script = parse("echo \ue0200\ue021 $(id)")
    words = script.pipelines[0][0].words
    assert words[1] != words[2]
    assert len(script.substitutions) == 1


def test_every_guard_shares_one_parse_of_a_command() -> None:
    command = "cat notes.txt | wc -l"
    assert parsed(command) is parsed(command)


def test_brace_expansion_is_linear_in_the_word() -> None:
    assert expand_braces("a{b,c}d") == ["abd", "acd"]
    assert expand_braces("{x}") == ["{x}"]
    assert len(expand_braces("{" + "," * 60_000 + "}")) == 60_001


_ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=200)
_SHELLISH = st.text(
    alphabet=st.sampled_from(list("abrm -f/~$(){}[]<>|&;'\"`\\\n\t*?=.#!\ud800\udfff")), max_size=200
)


@settings(max_examples=300)
@given(st.one_of(_ANY_TEXT, _SHELLISH))
def test_any_text_including_surrogates_gets_a_decision(text: str) -> None:
    """Random Unicode (lone surrogates too) never raises: a verdict or None, every guard."""
    for verdict in (
        check_command(text, home="/home/me"),
        check_shell_files(text, cwd="/home/me/p"),
        check_path(text, home="/home/me"),
        check_glob(text, home="/home/me"),
    ):
        assert verdict is None or isinstance(verdict, Verdict)


def test_non_ascii_text_cannot_crash_the_parser() -> None:
    """tree-sitter-bash segfaulted on this sequence (recorded from hypothesis) about one run in three.

    Non-ASCII bytes are never shell syntax, so the parser reads them as ``a``;
    the words keep their real characters.
    """
    lines = (
        (Path(__file__).parent / "data" / "segfault_sequence.txt").read_text(encoding="utf-8").splitlines()
    )
    texts = [ast.literal_eval(line) for line in lines if line.strip()]
    for _ in range(10):
        for text in texts:
            parse(text)
    assert parse("cat ünïcødé\ud800.txt").pipelines[0][0].words == ("cat", "ünïcødé\ud800.txt")
