"""The cheap checks made before a costly pattern let through everything the pattern matches.

Compiling a pattern costs a hook process more than judging an ordinary command, so a few
rules ask a plain string question first (does the path start with ``$`` or ``%``? do the
arguments say ``completion``?). Each must hold for every text the pattern matches, or a
verdict would change: hypothesis generates such texts from the pattern itself.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentbus.guards import operands, pathnames, paths, setup_code
from agentbus.guards.tactics import credentials, impact


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


@settings(max_examples=300)
@given(_matching(pathnames._STREAM))
def test_every_ntfs_stream_name_holds_colon_dollar(text: str) -> None:
    assert ":$" in text


@settings(max_examples=300)
@given(_matching(operands.DEVICE))
def test_every_device_is_under_dev(text: str) -> None:
    assert text.startswith("/dev/")


@settings(max_examples=300)
@given(_matching(operands._SYSTEM_FILE))
def test_every_system_file_is_in_a_system_directory(text: str) -> None:
    assert text.startswith(operands._SYSTEM_DIRECTORIES)


@settings(max_examples=300)
@given(_matching(impact._DATA_SYSTEM))
def test_every_data_directory_starts_as_listed(text: str) -> None:
    assert text.startswith(impact._DATA_SYSTEM_STARTS)


@settings(max_examples=300)
@given(_matching(impact._MINERS))
def test_every_miner_name_holds_a_listed_part(text: str) -> None:
    assert not text.isascii() or any(part in text.lower() for part in impact._MINER_PARTS)


def _at_start(rule: paths._Rule) -> st.SearchStrategy[str]:
    return st.from_regex(re.compile(f"^(?:{rule.pattern.pattern})", rule.pattern.flags))


@pytest.mark.parametrize(
    ("table", "rule"),
    [(table, rule) for table in (paths._HOMES, paths._ROOTS) for rule in table.rules],
    ids=lambda value: getattr(value, "label", "table")[:40],
)
def test_every_path_a_table_matches_at_its_start_begins_as_it_says(
    table: paths._Table, rule: paths._Rule
) -> None:
    assert table.starts is not None

    @settings(max_examples=100)
    @given(_at_start(rule))
    def begins_as_listed(text: str) -> None:
        assert not text.isascii() or text.lower().startswith(table.starts or ())

    begins_as_listed()


@settings(max_examples=300)
@given(_matching(credentials._SYSTEM_STORES))
def test_every_system_store_starts_as_listed(text: str) -> None:
    assert text.startswith(credentials._SYSTEM_STORE_STARTS)


@settings(max_examples=300)
@given(_matching(credentials._FIREFOX_IN_A_VARIABLE))
def test_a_firefox_profile_in_a_variable_starts_with_a_dollar(text: str) -> None:
    assert text.startswith("$")


@settings(max_examples=300)
@given(_matching(credentials._HISTORY))
def test_every_history_file_holds_hist(text: str) -> None:
    assert "hist" in text
