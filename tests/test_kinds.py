"""Tool kinds told from names and JSON schemas: only where that is unambiguous."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbus.kinds import COMMAND_KEYS, PATH_KEYS, infer_kind, name_words

STRING = {"type": "string"}


def props(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


# The shell and file tools of real agents, with the schemas they send.
REAL_TOOLS = [
    ("run_shell", props(command=STRING), "exec"),
    ("run_command", props(command=STRING, cwd=STRING), "exec"),
    ("terminal", props(command=STRING), "exec"),
    ("execute_bash", props(command=STRING, timeout={"type": "integer"}), "exec"),
    ("shell_exec", props(cmd={"type": "array", "items": STRING}), "exec"),
    ("read_file", props(path=STRING, offset={"type": "integer"}), "read"),
    ("view", props(file_path=STRING), "read"),
    ("write_to_file", props(path=STRING, content=STRING), "write"),
    ("create_file", props(filename=STRING, file_text=STRING), "write"),
    ("delete_file", props(path=STRING), "write"),
    ("edit_file", props(target_file=STRING, old_string=STRING, new_string=STRING), "edit"),
    (
        "str_replace_editor",
        props(
            command={"enum": ["view", "create", "str_replace", "insert", "undo_edit"]},
            path=STRING,
            file_text=STRING,
            old_str=STRING,
            new_str=STRING,
        ),
        "edit",
    ),
    ("grep_search", props(pattern=STRING, path=STRING), "search"),
    ("fetch_url", props(url=STRING), "fetch"),
]


@pytest.mark.parametrize(("name", "schema", "kind"), REAL_TOOLS, ids=[t[0] for t in REAL_TOOLS])
def test_the_kind_of_real_agents_tools_is_told_from_their_schema(
    name: str, schema: dict[str, Any], kind: str
) -> None:
    inference = infer_kind(name, schema)
    assert (inference.kind, inference.suspect) == (kind, None)


@pytest.mark.parametrize(
    ("name", "schema", "suspect"),
    [
        ("terminal", props(input=STRING), "a shell tool"),  # the guards cannot read its command
        ("stat_file", props(path=STRING), "a file tool"),  # reads? writes? nothing says
        ("run", props(command=STRING, path=STRING, content=STRING), "a shell or file tool"),
        ("list_files", props(directory=STRING), "a file search tool"),
    ],
)
def test_a_tool_that_looks_like_a_shell_or_file_tool_without_a_clear_kind_is_a_suspect(
    name: str, schema: dict[str, Any], suspect: str
) -> None:
    inference = infer_kind(name, schema)
    assert (inference.kind, inference.suspect) == (None, suspect)


@pytest.mark.parametrize(
    ("name", "schema"),
    [
        ("create_issue", props(title=STRING, body=STRING)),
        ("media", props(command={"enum": ["play", "pause"]})),  # a choice, not a command line
        ("get_weather", props(city=STRING)),
        ("send_email", props(to=STRING, subject=STRING, text=STRING)),
    ],
)
def test_other_tools_have_no_kind_and_raise_no_suspicion(name: str, schema: dict[str, Any]) -> None:
    inference = infer_kind(name, schema)
    assert (inference.kind, inference.suspect) == (None, None)


@pytest.mark.parametrize(
    ("name", "kind"),
    [("run_shell", "exec"), ("read_file", "read"), ("writeFile", "write"), ("edit-notebook", "edit")],
)
def test_without_a_schema_the_name_decides(name: str, kind: str) -> None:
    assert infer_kind(name, None).kind == kind


def test_name_words_split_at_separators_and_case_changes() -> None:
    assert name_words("executeBash") == {"execute", "bash"}
    assert name_words("STR_REPLACE-editor.v2") == {"str", "replace", "editor", "v", "2"}
    assert name_words("readHTTPFile") == {"read", "http", "file"}


# -- properties ------------------------------------------------------------------------

_MEANINGFUL = {*COMMAND_KEYS, *PATH_KEYS, "script", "url", "uri", "href", "content", "contents", "text",
               "data", "file_text", "new_content", "pattern", "glob", "query", "regex", "include", "old_str",
               "new_str", "old_string", "new_string", "old_text", "new_text"}  # fmt: skip
_neutral_keys = st.from_regex(r"[a-z]{2,10}", fullmatch=True).filter(lambda key: key not in _MEANINGFUL)
_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)


@given(extra=st.dictionaries(_neutral_keys, _json_values, max_size=5), key=st.sampled_from(COMMAND_KEYS))
def test_a_free_text_command_argument_is_exec_whatever_else_the_tool_takes(
    extra: dict[str, Any], key: str
) -> None:
    schema = props(**extra, **{key: STRING})
    assert infer_kind("tool", schema).kind == "exec"


@given(options=st.lists(st.text(max_size=10), min_size=1, max_size=5), key=st.sampled_from(COMMAND_KEYS))
def test_a_command_argument_that_is_a_choice_is_never_a_shell_command(options: list[str], key: str) -> None:
    assert infer_kind("media", props(**{key: {"enum": options}})).kind is None


@given(name=st.text(max_size=40), schema=_json_values)
def test_any_name_and_any_json_as_a_schema_give_an_inference_never_an_error(name: str, schema: Any) -> None:
    inference = infer_kind(name, schema if isinstance(schema, dict) else None)
    assert inference.kind is None or inference.suspect is None  # a kind, or a suspicion, never both
    assert inference.reason


@given(words=st.lists(st.sampled_from(["run", "shell", "read", "file", "grep", "x"]), min_size=1, max_size=4))
def test_the_spelling_of_a_name_does_not_change_its_kind(words: list[str]) -> None:
    snake = "_".join(words)
    camel = words[0] + "".join(word.title() for word in words[1:])
    kebab = "-".join(word.upper() for word in words)
    for schema in (props(path=STRING), None):
        told = {(i.kind, i.suspect) for i in (infer_kind(n, schema) for n in (snake, camel, kebab))}
        assert len(told) == 1
