"""Registry semantics of seed 000: ids, ordering, matchers, validation, the default registry."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import agentbus
from agentbus import RegistrationError, Registry
from agentbus.events import HOOK_POINTS, TOOL_POINTS
from agentbus.kinds import ToolKindWarning
from agentbus.tools import MAX_NAME_LENGTH, normalize_tool_name


def handler(event: Any) -> None:
    """A do-nothing simple handler."""


async def middleware(event: Any, call_next: Any) -> Any:
    return await call_next(event)


def ids(registrations: Any) -> list[str]:
    return [r.id for r in registrations]


# -- ids and ordering -----------------------------------------------------------------


def test_duplicate_id_is_refused_and_the_first_registration_stays() -> None:
    registry = Registry()
    first = registry.add("tool.before", handler, id="guard")
    with pytest.raises(RegistrationError, match="'guard' exists already"):
        registry.add("tool.after", handler, id="guard")
    assert registry["guard"] is first
    assert len(registry) == 1


def test_default_id_is_module_and_qualname() -> None:
    registration = Registry().add("tool.before", handler)
    assert registration.id == f"{__name__}:handler"


@pytest.mark.parametrize("bad_id", ["", 3])
def test_empty_or_non_string_id_is_refused(bad_id: Any) -> None:
    with pytest.raises(RegistrationError, match="id must be a non-empty string"):
        Registry().add("tool.before", handler, id=bad_id)


def test_equal_priorities_keep_registration_order() -> None:
    registry = Registry()
    for name in ("a", "b", "c"):
        registry.add("tool.before", handler, id=name, priority=5)
    registry.add("tool.before", handler, id="high", priority=10)
    registry.add("tool.before", handler, id="low", priority=-10)
    registry.add("tool.before", handler, id="d", priority=5)
    assert ids(registry.get("tool.before")) == ["high", "a", "b", "c", "d", "low"]


def test_remove_reports_whether_the_id_was_there() -> None:
    registry = Registry()
    registry.add("message.before", handler, id="x")
    version = registry.version
    assert registry.remove("x") is True
    assert registry.remove("x") is False
    assert "x" not in registry
    assert registry.get("message.before") == []
    assert registry.version > version


def test_clear_removes_everything_and_ids_can_be_reused() -> None:
    registry = Registry()
    registry.add("message.before", handler, id="x")
    registry.add("tool.after", handler, id="y")
    registry.clear()
    assert len(registry) == 0
    assert registry.list() == []
    registry.add("message.before", handler, id="x")
    assert ids(registry.list()) == ["x"]


def test_list_groups_by_point_each_group_in_order() -> None:
    registry = Registry()
    registry.add("tool.before", handler, id="t1", priority=1)
    registry.add("message.before", handler, id="m1")
    registry.add("tool.before", handler, id="t2", priority=2)
    assert ids(registry.list()) == ["m1", "t2", "t1"]


# One operation: ("add", point, priority) | ("remove", index) | ("clear",)
_points = st.sampled_from(["tool.before", "tool.after", "message.before"])
_operations = st.lists(
    st.one_of(
        st.tuples(st.just("add"), _points, st.integers(-3, 3)),
        st.tuples(st.just("remove"), st.integers(0, 50)),
        st.tuples(st.just("clear")),
    ),
    max_size=60,
)


@given(_operations)
def test_any_sequence_of_add_remove_clear_keeps_priority_then_registration_order(
    operations: list[tuple[Any, ...]],
) -> None:
    """Property: after every step, each point's stack is priority-desc, ties in insertion order."""
    registry = Registry()
    model: list[tuple[str, str, int, int]] = []  # (id, point, priority, insertion index)
    counter = 0
    for operation in operations:
        if operation[0] == "add":
            _, point, priority = operation
            registration_id = f"r{counter}"
            registry.add(point, handler, id=registration_id, priority=priority)
            model.append((registration_id, point, priority, counter))
            counter += 1
        elif operation[0] == "remove":
            if model:
                victim = model.pop(operation[1] % len(model))
                assert registry.remove(victim[0]) is True
            else:
                assert registry.remove("absent") is False
        else:
            registry.clear()
            model.clear()
        for point in ("tool.before", "tool.after", "message.before"):
            expected = [
                m[0] for m in sorted((m for m in model if m[1] == point), key=lambda m: (-m[2], m[3]))
            ]
            assert ids(registry.stack(point)) == expected
            assert ids(registry.get(point)) == expected
        assert len(registry) == len(model)


# -- validation -------------------------------------------------------------------------


def test_unknown_hook_point_is_refused_with_the_valid_points() -> None:
    with pytest.raises(RegistrationError, match=re.escape("unknown hook point 'tool.befor'")) as info:
        Registry().add("tool.before".rstrip("e"), handler)
    for point in HOOK_POINTS:
        assert point in str(info.value)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"priority": True}, "priority must be an int"),
        ({"priority": 1.5}, "priority must be an int"),
        ({"kind": "plugin"}, "kind must be 'handler' or 'middleware'"),
        ({"on_error": "ignore"}, "on_error must be one of"),
        ({"timeout": 0}, "timeout must be a number of seconds > 0"),
        ({"timeout": -1.0}, "timeout must be a number of seconds > 0"),
        ({"timeout": True}, "timeout must be a number of seconds > 0"),
        ({"timeout": 1.0}, "a timeout needs an async handler"),
    ],
)
def test_malformed_options_are_refused_with_a_message(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RegistrationError, match=re.escape(message)):
        Registry().add("tool.after", handler, **options)


def test_non_callable_handler_is_refused() -> None:
    with pytest.raises(RegistrationError, match="must be callable"):
        Registry().add("tool.before", "not a function")  # type: ignore[arg-type]


@pytest.mark.parametrize("point", sorted(HOOK_POINTS - {"tool.before"}))
def test_on_error_block_only_applies_to_tool_before(point: str) -> None:
    kind = "middleware" if point == "tool.call" else "handler"
    fn = middleware if kind == "middleware" else handler
    with pytest.raises(RegistrationError, match=re.escape("on_error='block' only applies to tool.before")):
        Registry().add(point, fn, kind=kind, on_error="block")  # type: ignore[arg-type]


@pytest.mark.parametrize("point", sorted(HOOK_POINTS))
def test_default_failure_policy_is_closed_on_tool_before_and_open_elsewhere(point: str) -> None:
    kind = "middleware" if point == "tool.call" else "handler"
    fn = middleware if kind == "middleware" else handler
    registration = Registry().add(point, fn, kind=kind)  # type: ignore[arg-type]
    assert registration.on_error == ("block" if point == "tool.before" else "continue")


def test_handler_forms_are_recognised() -> None:
    registry = Registry()

    def pair(input: Any, output: Any) -> None: ...

    async def single(event: Any) -> None: ...

    class Callable_:
        async def __call__(self, event: Any) -> None: ...

    assert registry.add("tool.before", pair, id="pair").pair is True
    assert registry.add("tool.before", handler, id="one").pair is False
    assert registry.add("tool.before", single, id="async").is_async is True
    assert registry.add("tool.before", Callable_(), id="instance").is_async is True


def test_handler_with_three_arguments_is_refused() -> None:
    def three(a: Any, b: Any, c: Any) -> None: ...

    with pytest.raises(RegistrationError, match="takes 3 positional arguments"):
        Registry().add("tool.before", three)


def test_sync_middleware_is_refused() -> None:
    def sync_mw(event: Any, call_next: Any) -> Any: ...

    with pytest.raises(RegistrationError, match="is not async"):
        Registry().add("tool.call", sync_mw, kind="middleware")


def test_middleware_with_wrong_arity_is_refused() -> None:
    async def one(event: Any) -> Any: ...

    with pytest.raises(RegistrationError, match="takes 1 positional arguments"):
        Registry().add("tool.call", one, kind="middleware")


def test_tool_call_accepts_only_middleware() -> None:
    with pytest.raises(RegistrationError, match="must be middleware"):
        Registry().add("tool.call", handler)


def test_shadow_tool_call_middleware_is_refused() -> None:
    with pytest.raises(RegistrationError, match=re.escape("shadow mode is not available for tool.call")):
        Registry().add("tool.call", middleware, kind="middleware", shadow=True)


# -- tool matchers ----------------------------------------------------------------------


def test_regex_tool_matcher_is_searched_in_the_normalised_name() -> None:
    registry = Registry()
    registry.add("tool.before", handler, id="exec-only", tool=r"^exec$")
    registry.add("tool.before", handler, id="web", tool="^web")
    registry.add("tool.before", handler, id="all")
    assert ids(registry.get("tool.before", "bash")) == ["exec-only", "all"]
    assert ids(registry.get("tool.before", "web_fetch")) == ["web", "all"]
    assert ids(registry.get("tool.before", "read")) == ["all"]


def test_compiled_pattern_is_accepted() -> None:
    registry = Registry()
    registry.add("tool.before", handler, id="p", tool=re.compile(r"^(read|write)$"))
    assert ids(registry.get("tool.before", "write")) == ["p"]
    assert ids(registry.get("tool.before", "edit")) == []


def test_group_matcher_covers_exactly_its_group() -> None:
    registry = Registry()
    registry.add("tool.before", handler, id="fs", tool="group:fs")
    for name in agentbus.TOOL_GROUPS["group:fs"]:
        assert ids(registry.get("tool.before", name)) == ["fs"]
    assert ids(registry.get("tool.before", "apply-patch")) == ["fs"]
    assert ids(registry.get("tool.before", "exec")) == []


def test_list_matcher_normalises_names_and_expands_groups() -> None:
    registry = Registry()
    registration = registry.add("tool.before", handler, id="l", tool=["Bash", "apply-patch", "group:web"])
    assert registration.tool is not None
    assert registration.tool.names == {"exec", "apply_patch", "web_search", "web_fetch", "fetch"}
    assert ids(registry.get("tool.before", "bash")) == ["l"]
    assert ids(registry.get("tool.before", "read")) == []


@pytest.mark.parametrize(
    ("pattern", "meant"), [(r"^bsh$", "bash"), (r"^(?:exce|reed)$", "exec"), (r"\bcanva\b", "canvas")]
)
def test_a_regex_that_is_a_near_miss_of_a_known_name_is_refused_with_the_name_meant(
    pattern: str, meant: str
) -> None:
    with pytest.raises(RegistrationError, match="matches no known tool: did you mean") as info:
        Registry().add("tool.before", handler, tool=pattern)
    assert repr(meant) in str(info.value)
    assert "declare_tools" in str(info.value)


def test_a_near_miss_in_a_list_is_refused_with_the_name_meant() -> None:
    with pytest.raises(
        RegistrationError, match="tool name 'exce' matches no known tool: did you mean 'exec'"
    ):
        Registry().add("tool.before", handler, tool=["exec", "exce"])


@pytest.mark.parametrize("matcher", [r"^delete_file$", ["delete_file"], r"^mcp__github__create_issue$"])
def test_a_matcher_for_the_users_own_tool_is_accepted_before_any_adapter_binds_it(matcher: Any) -> None:
    """Issue 17: a guard for the user's own tool must not be refused with another agent's names."""
    registry = Registry()
    registry.add("tool.before", handler, id="own", tool=matcher)
    assert ids(registry.get("tool.before", "delete_file")) == (["own"] if "delete" in str(matcher) else [])


def test_a_near_miss_of_a_bound_tool_is_refused_and_the_bound_name_accepted() -> None:
    registry = Registry()
    registry.bind_tools({"delete_file": {"properties": {"path": {"type": "string"}}}})
    registry.add("tool.before", handler, id="own", tool=r"^delete_file$")
    with pytest.raises(RegistrationError, match="did you mean 'delete_file'"):
        registry.add("tool.before", handler, tool=["delet_file"])


@pytest.mark.parametrize("matcher", ["group:nope", ["read", "group:nope"]])
def test_unknown_group_is_refused_with_the_valid_groups(matcher: Any) -> None:
    with pytest.raises(RegistrationError, match="unknown tool group 'group:nope'") as info:
        Registry().add("tool.before", handler, tool=matcher)
    assert "group:fs" in str(info.value)


def test_empty_list_and_non_string_names_are_refused() -> None:
    with pytest.raises(RegistrationError, match="empty list"):
        Registry().add("tool.before", handler, tool=[])
    with pytest.raises(RegistrationError, match="tool names must be strings"):
        Registry().add("tool.before", handler, tool=["exec", 3])  # type: ignore[list-item]


@pytest.mark.parametrize("pattern", ["(", "[a-", "*exec"])
def test_invalid_regex_is_refused_with_the_regex_error(pattern: str) -> None:
    with pytest.raises(RegistrationError, match="is not a valid regex"):
        Registry().add("tool.before", handler, tool=pattern)


@pytest.mark.parametrize("pattern", [".*", "", "^", "x*"])
def test_catch_all_regex_is_accepted_and_covers_plugin_tools(pattern: str) -> None:
    registry = Registry()
    registry.add("tool.before", handler, id="any", tool=pattern)
    assert ids(registry.get("tool.before", "mcp__github__create_issue")) == ["any"]


def test_declare_tools_makes_plugin_names_known_and_near_misses_of_them_refused() -> None:
    registry = Registry()
    registry.declare_tools("Deploy")
    assert "deploy" in registry.known_tools
    registry.add("tool.before", handler, id="regex", tool=r"^deploy$")
    registry.add("tool.before", handler, id="list", tool=["deploy"])
    assert ids(registry.get("tool.before", "deploy")) == ["regex", "list"]
    with pytest.raises(RegistrationError, match="did you mean 'deploy'"):
        registry.add("tool.before", handler, tool=["deplyo"])
    # Declaring is per registry: another registry takes the near miss for a tool of the user's.
    Registry().add("tool.before", handler, tool=["deplyo"])


def test_declared_kinds_make_layers_for_the_kind_apply_to_the_tool() -> None:
    registry = Registry()
    registry.add("tool.before", handler, id="exec", tool="exec")
    registry.add("tool.before", handler, id="runtime", tool="group:runtime")
    registry.add("tool.before", handler, id="fs", tool=["group:fs"])
    registry.add("tool.before", handler, id="web", tool="group:web")
    registry.add("tool.before", handler, id="by-name", tool=r"^run_shell$")
    registry.declare_tools({"run_shell": "exec", "Write_To_File": "write", "grab": "fetch"})
    assert ids(registry.get("tool.before", "run_shell")) == ["exec", "runtime", "by-name"]
    assert ids(registry.get("tool.before", "write_to_file")) == ["fs"]
    assert ids(registry.get("tool.before", "grab")) == ["web"]
    assert registry.kind_of("RUN_SHELL") == "exec"
    assert registry.kind_of("exec") == "exec"  # a canonical name is its own kind
    assert registry.kind_of("deploy") is None


def test_an_unknown_kind_is_refused_with_the_valid_kinds() -> None:
    with pytest.raises(RegistrationError, match=r"unknown kind 'shell' for tool 'run_shell'.*exec"):
        Registry().declare_tools({"run_shell": "shell"})
    with pytest.raises(RegistrationError, match="tool names or a mapping"):
        Registry().declare_tools(3)  # type: ignore[arg-type]


@pytest.mark.anyio
async def test_declaring_a_kind_changes_the_plan_of_a_bus_that_cached_one() -> None:
    registry = Registry()
    registry.add("tool.before", lambda call: call.block("no shell"), id="no-exec", tool="exec")
    seen: list[str | None] = []
    registry.add("tool.after", lambda result: seen.append(result.kind), id="kind")
    bus = agentbus.Bus(registry, log_level=None)
    assert await bus.call_tool("run_shell", {}, lambda args: "ran") == "ran"
    registry.declare_tools({"run_shell": "exec"})
    assert (await bus.call_tool("run_shell", {}, lambda args: "ran"))["status"] == "blocked"
    assert seen == [None, "exec"]  # the events carry the kind


@pytest.mark.parametrize("point", sorted(HOOK_POINTS - TOOL_POINTS))
def test_tool_matcher_off_tool_points_is_refused(point: str) -> None:
    with pytest.raises(RegistrationError, match="a tool matcher only applies to tool points"):
        Registry().add(point, handler, tool="exec")


# -- agent matchers ---------------------------------------------------------------------


def test_agent_matcher_selects_by_agent_id_on_message_points() -> None:
    registry = Registry()
    registry.add("message.before", handler, id="main-only", agent=r"^main$")
    registry.add("message.before", handler, id="listed", agent=["ops", "research"])
    registry.add("message.before", handler, id="all")
    assert ids(registry.get("message.before", "main")) == ["main-only", "all"]
    assert ids(registry.get("message.before", "ops")) == ["listed", "all"]
    assert ids(registry.get("message.before", "mainframe")) == ["all"]


def test_agent_matcher_applies_on_tool_points_through_agent_keyword() -> None:
    registry = Registry()
    registry.add("tool.before", handler, id="ops", tool="group:runtime", agent="^ops$")
    assert ids(registry.get("tool.before", "exec", agent="ops")) == ["ops"]
    assert ids(registry.get("tool.before", "exec", agent="main")) == []
    registration = registry["ops"]
    assert registration.matches("exec", "ops")
    assert not registration.matches("exec", None)
    assert not registration.matches("read", "ops")


def test_bad_agent_matchers_are_refused() -> None:
    with pytest.raises(RegistrationError, match="agent matcher"):
        Registry().add("message.before", handler, agent="(")
    with pytest.raises(RegistrationError, match="at least one agent id"):
        Registry().add("message.before", handler, agent=[])


# -- the process-wide registry -----------------------------------------------------------


@pytest.fixture
def fresh_default() -> Iterator[None]:
    agentbus.reset_registry()
    yield
    agentbus.reset_registry()


@pytest.mark.usefixtures("fresh_default")
def test_default_registry_is_none_before_init_then_the_same_object() -> None:
    assert agentbus.get_registry() is None
    registry = agentbus.init_registry()
    assert isinstance(registry, Registry)
    assert agentbus.init_registry() is registry
    assert agentbus.get_registry() is registry


@pytest.mark.usefixtures("fresh_default")
def test_reset_forgets_the_default_registry() -> None:
    first = agentbus.init_registry()
    first.add("tool.before", handler, id="mine")
    agentbus.reset_registry()
    assert agentbus.get_registry() is None
    second = agentbus.init_registry()
    assert second is not first
    assert "mine" not in second


@pytest.mark.usefixtures("fresh_default")
def test_init_runs_builtin_installers_once_per_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentbus import registry as registry_module

    calls: list[Registry] = []
    monkeypatch.setattr(registry_module, "_builtin_installers", [calls.append])
    registry = agentbus.init_registry()
    agentbus.init_registry()
    assert calls == [registry]


# -- hostile input ----------------------------------------------------------------------
#
# Matchers are regexes written by people and run on names an agent's model made up. The
# documented behaviour: a bad pattern is a RegistrationError that says why; patterns that
# can backtrack catastrophically (a repeat inside a repeat, a repeated alternation, more
# than MAX_REPEATS variable-length repeats) are refused at registration; names longer
# than MAX_NAME_LENGTH are refused with ValueError before any matcher sees them.

ADVERSARIAL_NAMES = [
    "a" * MAX_NAME_LENGTH,
    "a" * (MAX_NAME_LENGTH - 1) + "!",
    "ab" * (MAX_NAME_LENGTH // 2),
    "_" * (MAX_NAME_LENGTH - 1) + "\udcff",
    "exec" * (MAX_NAME_LENGTH // 4),
]

_atoms = st.sampled_from(["a", "b", "x", ".", r"\w", "[ab]", "exec", "_"])
_quantifiers = st.sampled_from(["", "", "*", "+", "?", "{1,3}", "{2}", "*?", "+?"])


def _regexes() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        group = st.tuples(inner, inner, st.booleans(), _quantifiers).map(
            lambda t: f"(?:{t[0]}|{t[1]}){t[3]}" if t[2] else f"({t[0]}{t[1]}){t[3]}"
        )
        sequence = st.lists(inner, min_size=2, max_size=4).map("".join)
        return group | sequence

    pieces = st.tuples(_atoms, _quantifiers).map("".join)
    return st.recursive(pieces, extend, max_leaves=8)


@settings(deadline=None, max_examples=300)
@given(_regexes())
@example("(b?.)+?x")  # an optional part inside a repeat: exponential on "abab..."
def test_accepted_matchers_finish_on_adversarial_names_and_refusals_say_why(pattern: str) -> None:
    registry = Registry()
    registry.declare_tools(*(name for name in ADVERSARIAL_NAMES if name.isascii() and "!" not in name))
    try:
        registration = registry.add("tool.before", handler, id="m", tool=pattern)
    except RegistrationError as exc:
        refusal = str(exc)
    else:
        refusal = ""
    if refusal:
        assert repr(pattern) in refusal  # the message names the pattern it refuses
        return
    assert registration.tool is not None
    for name in ADVERSARIAL_NAMES:
        registration.tool(name)  # returns: the pattern cannot run away on a bounded name


@given(st.text(max_size=40))
def test_any_text_as_a_tool_matcher_is_accepted_or_a_registration_error(pattern: str) -> None:
    try:
        Registry().add("tool.before", handler, tool=pattern)
    except RegistrationError:
        pass


@given(st.text(max_size=40))
def test_any_text_as_an_agent_matcher_is_accepted_or_a_registration_error(pattern: str) -> None:
    try:
        registration = Registry().add("message.before", handler, agent=pattern)
    except RegistrationError:
        return
    assert registration.agent is not None
    registration.agent("main")


@given(st.text(max_size=MAX_NAME_LENGTH + 20))
def test_any_tool_name_is_normalised_or_refused_for_its_length(name: str) -> None:
    registry = Registry()
    registry.add("tool.before", handler, id="exec", tool=r"^exec$")
    registry.add("tool.before", handler, id="any", tool=r".*")
    if len(name) > MAX_NAME_LENGTH:
        with pytest.raises(ValueError, match=f"at most {MAX_NAME_LENGTH} characters"):
            registry.get("tool.before", name)
        return
    if not name.strip():
        with pytest.raises(ValueError, match="must not be empty"):
            registry.get("tool.before", name)
        return
    selected = ids(registry.get("tool.before", name))
    assert selected == (["exec", "any"] if normalize_tool_name(name) == "exec" else ["any"])


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        ("(a+)+exec", "nests a repeat inside a repeat"),
        (r"(\w*)*$", "nests a repeat inside a repeat"),
        ("(.*x)*exec", "nests a repeat inside a repeat"),
        ("(?=(e+)+)exec", "nests a repeat inside a repeat"),
        ("(b?.)+?exec", "nests a repeat inside a repeat"),  # found by the property test below
        (r"(e)\1+xec", "repeats a group reference"),
        ("(?:exec|ex)+", "repeats an alternation"),
        ("(ab|a)*exec", "repeats an alternation"),
        (".*.*.*exec", "holds 3 variable-length repeats (at most 2)"),
        (r"^\w+_\w+_\w+$", "holds 3 variable-length repeats (at most 2)"),
    ],
)
def test_catastrophic_backtracking_patterns_are_refused_with_the_reason(pattern: str, reason: str) -> None:
    for options in ({"point": "tool.before", "tool": pattern}, {"point": "message.before", "agent": pattern}):
        point = options.pop("point")
        with pytest.raises(RegistrationError, match=re.escape(reason)) as info:
            Registry().add(point, handler, **options)
        assert "possessive" in str(info.value)


@pytest.mark.parametrize(
    "pattern", ["^exec$", "(e|x)*ec", "^.*exec.*$", "x{2,3}|exec", r"[0-9]{4}|read", "^(?:read|write)$"]
)
def test_ordinary_patterns_are_accepted(pattern: str) -> None:
    Registry().add("tool.before", handler, tool=pattern)


@pytest.mark.skipif(
    sys.version_info < (3, 11), reason="possessive repeats and atomic groups need Python 3.11"
)
@pytest.mark.parametrize("pattern", ["(e++)+xec", "(?>e+)+xec", "^e++x*+e*+c$"])
def test_possessive_and_atomic_repeats_never_backtrack_and_are_accepted(pattern: str) -> None:
    registration = Registry().add("tool.before", handler, tool=pattern)
    assert registration.tool is not None
    assert registration.tool("exec")


@pytest.mark.parametrize(
    ("matcher", "message"),
    [
        (5, "a tool matcher is a regex, a group name or a list of names, got int"),
        (b"exec", "got bytes"),
        ({"exec": True}, "got dict"),
        (["exec", None], "tool names must be strings"),
        (re.compile(b"exec"), "is a bytes pattern"),
    ],
)
def test_wrong_types_of_tool_matcher_are_registration_errors(matcher: Any, message: str) -> None:
    with pytest.raises(RegistrationError, match=re.escape(message)):
        Registry().add("tool.before", handler, tool=matcher)


@pytest.mark.parametrize(("matcher", "message"), [(5, "got int"), ([1, 2], "agent id (strings)")])
def test_wrong_types_of_agent_matcher_are_registration_errors(matcher: Any, message: str) -> None:
    with pytest.raises(RegistrationError, match=re.escape(message)):
        Registry().add("message.before", handler, agent=matcher)


def test_an_over_long_agent_id_is_refused_by_regex_matchers_only() -> None:
    registry = Registry()
    registry.add("message.before", handler, id="regex", agent="^ops")
    registry.add("message.before", handler, id="list", agent=["ops"])
    long_id = "ops" * MAX_NAME_LENGTH
    with pytest.raises(ValueError, match="regex matchers only run on names up to"):
        registry.get("message.before", long_id)
    assert not registry["list"].matches(None, long_id)


def test_get_refuses_an_unknown_hook_point() -> None:
    with pytest.raises(ValueError, match="unknown hook point 'nope'"):
        Registry().get("nope", "exec")


@pytest.mark.parametrize("pattern", ["[[", "[a-z&&b]", "[a||b]"])
def test_a_regex_python_warns_is_ambiguous_is_refused_not_raised_as_a_warning(pattern: str) -> None:
    """'[[' warns FutureWarning ("possible nested set"): a RegistrationError, not an escape."""
    with pytest.raises(RegistrationError, match="is ambiguous"):
        Registry().add("message.before", handler, agent=pattern)


def test_a_tool_name_has_one_declared_kind_and_a_declaration_beats_an_inference() -> None:
    registry = Registry()
    registry.bind_tools({"write_to_file": {"properties": {"path": {}, "content": {}}}})
    assert registry.kind_of("write_to_file") == "write"
    registry.declare_tools({"write_to_file": "edit"})  # the user knows better than the schema
    assert registry.kind_of("write_to_file") == "edit"
    registry.bind_tools({"write_to_file": {"properties": {"path": {}, "content": {}}}})
    assert registry.kind_of("write_to_file") == "edit"  # a later inference does not undo it
    with pytest.raises(RegistrationError, match="'write_to_file' has the kind 'edit' already, not 'read'"):
        registry.declare_tools({"write_to_file": "read"})
    with pytest.raises(RegistrationError, match="'exec' has the kind 'exec' already"):
        registry.bind_tools({"exec": None}, kinds={"exec": "read"})
    with pytest.raises(RegistrationError, match="tool_kinds names 'sh', which an adapter does not bind"):
        registry.bind_tools({"exec": None}, kinds={"sh": "exec"})


def test_two_tools_of_one_name_with_different_kinds_warn() -> None:
    registry = Registry()
    registry.bind_tools({"run": {"properties": {"path": {}, "content": {}}}})
    with pytest.warns(
        ToolKindWarning, match="'run', whose schema says 'exec', but a tool of that name was bound"
    ):
        registry.bind_tools({"run": {"properties": {"command": {"type": "string"}}}})


_LONG_KNOWN = sorted(name for name in agentbus.KNOWN_TOOL_NAMES if len(name) >= 4)


@given(name=st.sampled_from(_LONG_KNOWN), data=st.data())
def test_a_one_letter_typo_of_a_known_name_is_refused_and_the_name_itself_accepted(
    name: str, data: st.DataObject
) -> None:
    registry = Registry()
    registry.add("tool.before", handler, id="exact", tool=[name])
    index = data.draw(st.integers(0, len(name) - 1))
    letter = data.draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz").filter(lambda c: c != name[index]))
    typo = name[:index] + letter + name[index + 1 :]
    if typo in registry.known_tools or normalize_tool_name(typo) in registry.known_tools:
        return
    with pytest.raises(RegistrationError, match="did you mean"):
        registry.add("tool.before", handler, tool=[typo])
    with pytest.raises(RegistrationError, match="did you mean"):
        registry.add("tool.before", handler, tool=f"^{typo}$")


@pytest.mark.parametrize("typo", ["ecec", "exce", "exe", "execc", "wirte"])
def test_one_letter_typos_difflib_rates_low_are_still_refused(typo: str) -> None:
    """difflib's ratio rates 'ecec' below its cutoff for 'exec': the edit distance still catches it."""
    with pytest.raises(RegistrationError, match="did you mean"):
        Registry().add("tool.before", handler, id="typo", tool=[typo])


@pytest.mark.parametrize("matcher", ["bash", "^bash$", "Bash", "^(shell|read)$", "MultiEdit"])
def test_a_regex_naming_a_spelling_that_is_normalised_away_is_refused(matcher: str) -> None:
    # Tool names reach matchers normalised (bash -> exec): this guard would guard nothing.
    registry = agentbus.Registry()
    with pytest.raises(agentbus.RegistrationError, match="normalised before matching"):
        registry.add("tool.before", lambda call: None, id="x", tool=matcher)


@pytest.mark.parametrize("matcher", ["exec", "^(bash|exec)$", ["bash"], "^(?!exec).*$", "bash_helper"])
def test_matchers_that_reach_the_normalised_name_are_accepted(matcher: object) -> None:
    registry = agentbus.Registry()
    registry.add("tool.before", lambda call: None, id="x", tool=matcher)
