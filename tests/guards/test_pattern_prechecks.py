"""The cheap checks made before a costly pattern let through everything the pattern matches.

Compiling a pattern costs a hook process more than judging an ordinary command, so a few
rules ask a plain string question first (does the path start with ``$`` or ``%``? do the
arguments say ``completion``?). Each must hold for every text the pattern matches, or a
verdict would change: hypothesis generates such texts from the pattern itself.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from agentbus.guards import pathnames, setup_code
from agentbus.guards.tactics import impact


def _matching(pattern: re.Pattern[str], *, fullmatch: bool = False) -> st.SearchStrategy[str]:
    compiled = re.compile(pattern.pattern, pattern.flags)
    return st.from_regex(compiled, fullmatch=fullmatch)


@settings(max_examples=300)
@given(_matching(pathnames._VARIABLE))
def test_a_variable_at_the_start_of_a_path_starts_with_a_dollar_or_percent(text: str) -> None:
    assert text.startswith(("$", "%"))


@settings(max_examples=300)
@given(_matching(pathnames._TILDE_USER))
def test_a_user_s_home_starts_with_a_tilde(text: str) -> None:
    assert text.startswith("~")


@settings(max_examples=300)
@given(_matching(setup_code._COMPLETION, fullmatch=True))
def test_every_completion_script_command_names_completion(text: str) -> None:
    assert "completion" in text


@settings(max_examples=300)
@given(_matching(impact._MINER_OPTION))
def test_every_miner_option_starts_with_two_dashes_or_dash_a(text: str) -> None:
    assert text[:2] in ("--", "-a", "-A")
