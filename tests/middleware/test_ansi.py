"""ANSI stripping of tool results, through a real bus."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import agentbus
from agentbus.middleware import ansi
from agentbus.middleware.ansi import strip_ansi

pytestmark = pytest.mark.anyio


async def run(output: Any) -> Any:
    bus = agentbus.Bus(log_level=None)
    ansi.install(bus.registry)

    async def tool(args: dict[str, Any]) -> Any:
        return output

    return await bus.call_tool("exec", {"command": "ls --color"}, tool)


async def test_colour_codes_are_removed_from_a_string_result() -> None:
    assert await run("\x1b[1;31merror\x1b[0m: \x1b[38;5;208mfailed\x1b[m") == "error: failed"


async def test_every_string_in_a_nested_result_is_cleaned() -> None:
    result = await run({"stdout": "\x1b[32mok\x1b[0m", "lines": ["\x1b[2Kdone", 3]})
    assert result == {"stdout": "ok", "lines": ["done", 3]}


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("\x1b[2K\x1b[1G50%\x1b[?25l", "50%"),  # erase line, cursor column, hide cursor
        ("\x1b]0;my title\x07prompt$ ", "prompt$ "),  # window title, ended by BEL
        ("\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\", "link"),  # hyperlink: text kept
        ("\x1bP1$r0m\x1b\\text", "text"),  # a DCS string
        ("\x1b(Bplain\x1b7\x1b8", "plain"),  # charset selection, save/restore cursor
        ("a\x9b1mb", "ab"),  # 8-bit CSI
    ],
)
def test_sequences_beyond_sgr_are_removed(raw: str, clean: str) -> None:
    assert strip_ansi(raw) == clean


async def test_results_without_escapes_are_kept_as_the_same_object() -> None:
    output = {"stdout": "plain [1m text with brackets [0m"}
    assert await run(output) is output


@given(
    st.lists(
        st.sampled_from(["text", " ", "\n", "\x1b", "[", "31", ";", "m", "]", "\x07", "\\", "P", "\x9b"])
    )
)
def test_no_escape_character_survives_any_input(parts: list[str]) -> None:
    cleaned = strip_ansi("".join(parts))
    assert "\x1b" not in cleaned
    assert "\x9b" not in cleaned


@given(st.text(alphabet=st.characters(blacklist_characters="\x1b\x9b")))
def test_text_without_escapes_is_unchanged(text: str) -> None:
    assert strip_ansi(text) == text


async def test_installed_stripper_records_name_the_field_but_carry_no_values() -> None:
    """It runs before redaction: the old result it would record may hold a secret."""
    bus = agentbus.Bus(log_level=None)
    ansi.install(bus.registry)
    records: list[agentbus.Record] = []
    bus.on_event(records.append, level="info")

    async def tool(args: dict[str, Any]) -> str:
        return "\x1b[31mOPENAI=sk-proj-secret\x1b[0m"

    assert await bus.call_tool("exec", {"command": "env"}, tool) == "OPENAI=sk-proj-secret"
    (record,) = records
    assert set(record.changes) == {"result"}
    assert "sk-proj-secret" not in repr(record.to_dict())
