"""Registrations, matchers, validation and ordering.

A :class:`Registry` is an ordered collection of :class:`Registration` objects.
Everything that can be wrong with a registration is checked in :meth:`Registry.add`,
so a typo fails at start-up with a message that says what to do, not silently at
run time. Per hook point the registrations are kept sorted (priority descending,
ties in registration order) in an immutable tuple that is replaced on every change:
a dispatch already under way keeps the snapshot it started with.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import re
import threading
import warnings
import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, Union

import attrs

from .errors import RegistrationError
from .events import HOOK_POINTS, TOOL_POINTS
from .kinds import (
    GROUP_KINDS,
    NAME_KINDS,
    READABLE_KEYS,
    TOOL_KINDS,
    ToolKindWarning,
    guard_readable,
    infer_kind,
)
from .tools import KNOWN_TOOL_NAMES, MAX_NAME_LENGTH, TOOL_ALIASES, TOOL_GROUPS, normalize_tool_name

__all__ = [
    "MAX_REPEATS",
    "Kind",
    "Matcher",
    "NameMatcher",
    "OnError",
    "Registration",
    "Registry",
    "add_builtin_installer",
]

Kind = Literal["handler", "middleware"]
OnError = Literal["block", "continue", "raise"]
Matcher = Union[str, "re.Pattern[str]", Iterable[str], None]
"""A tool or agent matcher: a regex (searched, as in the seed), a compiled
pattern, a group name such as ``"group:fs"``, or an iterable of exact names."""

ON_ERROR_CHOICES = ("block", "continue", "raise")

_sequence = itertools.count()


def _is_async_callable(fn: Callable[..., Any]) -> bool:
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(fn, "__call__", None)  # noqa: B004 - a class instance with async __call__
    return call is not None and inspect.iscoroutinefunction(call)


def _positional_arity(fn: Callable[..., Any]) -> int | None:
    """How many positional arguments ``fn`` takes (None: any number)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # builtins without a signature: assume one
        return None
    count = 0
    for parameter in signature.parameters.values():
        if parameter.kind is parameter.VAR_POSITIONAL:
            return None
        positional = parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)
        if positional and parameter.default is parameter.empty:
            count += 1
    return count


@attrs.frozen(slots=True)
class NameMatcher:
    """A compiled matcher: an exact set of names or a regex (searched)."""

    source: str
    names: frozenset[str] | None = None
    pattern: re.Pattern[str] | None = None

    def __call__(self, value: str | None) -> bool:
        if value is None:
            return False
        if self.names is not None:
            return value in self.names
        assert self.pattern is not None
        if len(value) > MAX_NAME_LENGTH:
            raise ValueError(
                f"{value[:40]!r}... is longer than {MAX_NAME_LENGTH} characters; "
                f"regex matchers only run on names up to that length"
            )
        return self.pattern.search(value) is not None


def _is_iterable(value: object) -> bool:
    return isinstance(value, Iterable) and not isinstance(value, (bytes, bytearray, dict))


def _compile_tool_matcher(matcher: Matcher, known: frozenset[str]) -> NameMatcher | None:
    """Compile a tool matcher; refuse one that cannot be what the user meant.

    A matcher naming a tool nobody has bound yet is the user's own tool and is
    accepted; one that matches no known name but is a near miss of one
    (``"exce"``, ``^bsh$``) is a typo and is refused with the name it was
    probably meant to be.
    """
    if matcher is None:
        return None
    if isinstance(matcher, str) and matcher.startswith("group:"):
        return NameMatcher(source=matcher, names=_group(matcher))
    if isinstance(matcher, (str, re.Pattern)):
        pattern = _compile_regex(matcher, "tool")
        _refuse_alias(pattern)
        if not any(pattern.search(name) for name in known) and pattern.search("") is None:
            _refuse_near_miss(f"tool matcher {pattern.pattern!r}", _regex_words(pattern.pattern), known)
        return NameMatcher(source=pattern.pattern, pattern=pattern)
    if not _is_iterable(matcher):
        raise RegistrationError(
            f"a tool matcher is a regex, a group name or a list of names, got {type(matcher).__name__}"
        )
    names: set[str] = set()
    for name in matcher:
        if not isinstance(name, str):
            raise RegistrationError(f"tool names must be strings, got {name!r}")
        if name.startswith("group:"):
            names |= _group(name)
            continue
        canonical = normalize_tool_name(name)
        if canonical not in known:
            _refuse_near_miss(f"tool name {name!r}", [canonical], known)
        names.add(canonical)
    if not names:
        raise RegistrationError("an empty list of tool names matches nothing; omit the matcher instead")
    return NameMatcher(source=",".join(sorted(names)), names=frozenset(names))


def _refuse_alias(pattern: re.Pattern[str]) -> None:
    """Refuse a regex that names a spelling the bus normalises away (``"bash"``: it is ``exec``).

    Tool names are normalised before matching, so such a matcher would silently
    never match: a guard registered with it would guard nothing.
    """
    words = set(_regex_words(pattern.pattern))
    for alias, canonical in TOOL_ALIASES.items():
        if alias in words and canonical not in words and not pattern.search(canonical):
            raise RegistrationError(
                f"tool matcher {pattern.pattern!r} names {alias!r}, but tool names are normalised "
                f"before matching ({alias!r} is {canonical!r}), so it would never match: "
                f"write tool={canonical!r}, or a list (tool=[{alias!r}]), which is normalised"
            )


def _group(name: str) -> frozenset[str]:
    group = TOOL_GROUPS.get(name)
    if group is None:
        raise RegistrationError(
            f"unknown tool group {name!r}; valid groups: {', '.join(sorted(TOOL_GROUPS))}"
        )
    return group | GROUP_KINDS.get(name, frozenset())


_REGEX_WORD = re.compile(r"[a-z][a-z0-9_-]*")
_REGEX_ESCAPE = re.compile(r"\\(?:[0-7]{1,3}|x[0-9a-fA-F]{2}|[pPN]\{[^}]*\}|.)")
_NEAR_MISS = 0.75
"""How alike a name and a known name must be to call it a typo (difflib's ratio)."""


def _regex_words(pattern: str) -> list[str]:
    """The literal words of a regex (``^(?:exce|bsh)$`` -> ``exce``, ``bsh``), escapes left out."""
    return _REGEX_WORD.findall(_REGEX_ESCAPE.sub(" ", pattern).lower())


def _one_edit_apart(word: str, name: str) -> bool:
    """True if one letter substituted, inserted, deleted or two swapped turn ``word`` into ``name``."""
    if word == name or abs(len(word) - len(name)) > 1:
        return False
    start = 0
    while start < min(len(word), len(name)) and word[start] == name[start]:
        start += 1
    if len(word) == len(name):
        swapped = (
            word[start + 2 :] == name[start + 2 :]
            and word[start : start + 2] == name[start : start + 2][::-1]
        )
        return word[start + 1 :] == name[start + 1 :] or swapped
    longer, shorter = (word, name) if len(word) > len(name) else (name, word)
    return longer[start + 1 :] == shorter[start:]


def _refuse_near_miss(what: str, words: Iterable[str], known: frozenset[str]) -> None:
    """Raise if a word is a near miss of a known tool name or kind; else accept it as the user's tool."""
    import difflib  # here: a hook process registers only known names and never needs it

    vocabulary = sorted(known | TOOL_ALIASES.keys() | TOOL_KINDS.keys())
    for word in words:
        if word in vocabulary:
            continue
        close = difflib.get_close_matches(word, vocabulary, n=3, cutoff=_NEAR_MISS)
        if not close and len(word) >= 4:  # difflib's ratio misses some one-letter typos ("ecec")
            close = [name for name in vocabulary if _one_edit_apart(word, name)][:3]
        if close:
            raise RegistrationError(
                f"{what} matches no known tool: did you mean {' or '.join(map(repr, close))}? "
                f"If {word!r} is a tool of your own, declare it first: "
                f"registry.declare_tools({word!r}) (or {{{word!r}: kind}} with its kind, one of "
                f"{', '.join(TOOL_KINDS)}); adapters declare the tools they bind."
            )


def _compile_agent_matcher(matcher: Matcher) -> NameMatcher | None:
    if matcher is None:
        return None
    if isinstance(matcher, (str, re.Pattern)):
        pattern = _compile_regex(matcher, "agent")
        return NameMatcher(source=pattern.pattern, pattern=pattern)
    if not _is_iterable(matcher):
        raise RegistrationError(
            f"an agent matcher is a regex or a list of agent ids, got {type(matcher).__name__}"
        )
    names = frozenset(matcher)
    if not names or not all(isinstance(name, str) for name in names):
        raise RegistrationError("an agent matcher list must hold at least one agent id (strings)")
    return NameMatcher(source=",".join(sorted(names)), names=names)


def _compile_regex(matcher: str | re.Pattern[str], what: str) -> re.Pattern[str]:
    if isinstance(matcher, re.Pattern):
        pattern = matcher
        if not isinstance(pattern.pattern, str):
            raise RegistrationError(f"{what} matcher {pattern!r} is a bytes pattern; names are str")
    else:
        try:
            with warnings.catch_warnings():
                # e.g. "Possible nested set": a regex whose meaning a future Python changes.
                warnings.simplefilter("error", FutureWarning)
                pattern = re.compile(matcher)
        except (re.error, RecursionError, OverflowError) as exc:
            raise RegistrationError(f"{what} matcher {matcher!r} is not a valid regex: {exc}") from None
        except FutureWarning as exc:
            raise RegistrationError(
                f"{what} matcher {matcher!r} is ambiguous ({exc}); escape the character"
            ) from None
    risk = _backtracking_risk(pattern)
    if risk is not None:
        raise RegistrationError(
            f"{what} matcher {pattern.pattern!r} {risk}, which can make matching take "
            f"seconds or hours. Use a list of names, a simpler regex, or make a repeat "
            f"possessive (a++) or atomic ((?>...))."
        )
    return pattern


# Python's own regex parser: the only way to see a pattern's structure (re._parser on
# 3.11+, sre_parse before; importing sre_parse on 3.11+ would warn).
try:
    _sre: Any = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - Python 3.10
    _sre = importlib.import_module("sre_parse")
_REPEATS = (_sre.MAX_REPEAT, _sre.MIN_REPEAT)
_GROUP_REFERENCES = (_sre.GROUPREF, _sre.GROUPREF_IGNORE, _sre.GROUPREF_EXISTS)
_NEVER_BACKTRACK = tuple(
    getattr(_sre, name) for name in ("POSSESSIVE_REPEAT", "ATOMIC_GROUP") if hasattr(_sre, name)
)


MAX_REPEATS = 2
"""How many variable-length repeats (``*``, ``+``, ``{1,9}`` ...) one matcher may hold."""


def _backtracking_risk(pattern: re.Pattern[str]) -> str | None:
    """Why ``pattern`` can take too long on a name, or None.

    A repeat inside a repeat (``(a+)+``, ``(.*x)*``, ``(b?.)+``: an optional
    part counts), a repeated alternation (``(ab|a)*``) or a repeated group
    reference takes exponential time: the engine tries every way to split the
    input between them. Each further repeat in sequence multiplies the
    work by the name's length (``.*.*.*.*x`` needs seconds on 256 characters).
    So a matcher may hold at most MAX_REPEATS variable-length repeats
    (``?`` included), none nested and none over an alternation; possessive repeats (``a++``) and atomic
    groups (``(?>...)``) never backtrack and are not counted. Names are at most
    MAX_NAME_LENGTH characters, and a matcher runs once per name (stacks are
    cached), never per call.
    """
    try:
        parsed = _sre.parse(pattern.pattern, pattern.flags)
    except Exception:  # pragma: no cover - it compiled already; an unknown parser shape
        return None
    repeats = 0

    def walk(items: Any, repeated: bool) -> str | None:
        nonlocal repeats
        for op, argument in items:
            found: str | None = None
            if op in _NEVER_BACKTRACK:
                continue
            if op in _REPEATS:
                low, high, body = argument
                varies = low != high  # ``?`` too: ``(b?.)+`` splits a name in exponentially many ways
                if varies and repeated:
                    return "nests a repeat inside a repeat"
                repeats += varies
                found = walk(body, repeated or high > 1)
            elif op in _GROUP_REFERENCES and repeated:
                return "repeats a group reference"
            elif op is _sre.BRANCH:
                if repeated:
                    return "repeats an alternation"
                for branch in argument[1]:
                    found = found or walk(branch, repeated)
            elif op is _sre.SUBPATTERN:
                found = walk(argument[-1], repeated)
            elif op in (_sre.ASSERT, _sre.ASSERT_NOT):
                found = walk(argument[1], repeated)
            elif op is _sre.GROUPREF_EXISTS:  # (?(1)yes|no), outside any repeat
                found = walk(argument[1], repeated) or (walk(argument[2], repeated) if argument[2] else None)
            if found:
                return found
        return None

    found = walk(parsed, False)
    if found is None and repeats > MAX_REPEATS:
        found = f"holds {repeats} variable-length repeats (at most {MAX_REPEATS})"
    return found


@attrs.frozen(slots=True)
class Registration:
    """One layer on one hook point. Build them with :meth:`Registry.add`."""

    id: str
    point: str
    handler: Callable[..., Any]
    kind: Kind = "handler"
    priority: int = 0
    tool: NameMatcher | None = None
    agent: NameMatcher | None = None
    on_error: OnError = "continue"
    timeout: float | None = None
    shadow: bool = False
    record_values: bool = True
    """False for layers that handle secrets: their records name the fields they
    changed but carry no values (a redactor's "old" value is the secret)."""
    thread: bool = False
    """True: a sync handler that runs in a worker thread, so that its timeout holds."""
    is_async: bool = False
    pair: bool = False
    """True for the seed's ``handler(input, output)`` form."""
    sequence: int = 0

    def matches(self, tool: str | None, agent: str | None, kind: str | None = None) -> bool:
        """Whether this registration applies to a tool (by its name or its kind) / agent id."""
        if self.tool is not None and not (self.tool(tool) or (kind is not None and self.tool(kind))):
            return False
        return self.agent is None or self.agent(agent)

    @property
    def sort_key(self) -> tuple[int, int]:
        return (-self.priority, self.sequence)


def _default_on_error(point: str) -> OnError:
    # A gate that fails must not let the call through (seed 003's fail-safe).
    return "block" if point == "tool.before" else "continue"


class Registry:
    """An ordered set of registrations, validated as they are added.

    ``version`` changes on every modification, and every watcher (a
    :class:`~agentbus.Bus`) is told at once, so that it drops its compiled stacks:
    dispatches pay nothing to find out whether their cache is fresh.
    """

    def __init__(self) -> None:
        self._by_id: dict[str, Registration] = {}
        self._by_point: dict[str, tuple[Registration, ...]] = {}
        self._known_tools: frozenset[str] = KNOWN_TOOL_NAMES | TOOL_KINDS.keys()
        self._kinds: dict[str, str] = {}  # declared or inferred, by canonical name
        self._declared: dict[str, str] = {}  # the kinds the user declared (never overridden)
        self._warned: set[str] = set()
        self._lock = threading.Lock()
        self._watchers: weakref.WeakSet[Any] = weakref.WeakSet()
        self.version = 0

    def watch(self, watcher: Any) -> None:
        """Call ``watcher.invalidate()`` after every change (held weakly)."""
        self._watchers.add(watcher)

    def _changed(self) -> None:
        self.version += 1
        for watcher in tuple(self._watchers):
            watcher.invalidate()

    @property
    def known_tools(self) -> frozenset[str]:
        """Tool names (and kinds) that matchers are validated against."""
        return self._known_tools

    def declare_tools(self, *tools: str | Mapping[str, str]) -> None:
        """Declare tool names, with their kinds where given, so that matchers apply to them.

        ``declare_tools("deploy")`` makes a name known; ``declare_tools({"run_shell":
        "exec"})`` also gives it a kind, so that every layer matching ``exec``
        (the command guard, ``group:runtime``) applies to ``run_shell`` as well.
        A kind outside :data:`agentbus.kinds.TOOL_KINDS` raises RegistrationError.
        """
        names: set[str] = set()
        kinds: dict[str, str] = {}
        for item in tools:
            if isinstance(item, str):
                names.add(normalize_tool_name(item))
                continue
            if not isinstance(item, Mapping):
                raise RegistrationError(
                    f"declare_tools takes tool names or a mapping of names to kinds, got {item!r}"
                )
            for name, kind in item.items():
                canonical = normalize_tool_name(name)
                names.add(canonical)
                kinds[canonical] = self._declarable(name, kind)
        with self._lock:
            self._known_tools = self._known_tools | names
            self._kinds.update(kinds)
            self._declared.update(kinds)
            self._changed()

    def _declarable(self, name: str, kind: object) -> str:
        """``kind``, checked: a known kind, and not another than the one declared for ``name`` before.

        One tool name has one kind per registry; a kind inferred from a schema
        gives way to a declared one (the user knows the tool better).
        """
        checked = _checked_kind(name, kind)
        canonical = normalize_tool_name(name)
        earlier = self._declared.get(canonical) or NAME_KINDS.get(canonical)
        if earlier is not None and earlier != checked:
            raise RegistrationError(
                f"tool {name!r} has the kind {earlier!r} already, not {checked!r}: a tool name has one "
                f"kind per registry; give tools that do different things different names"
            )
        return checked

    def bind_tools(
        self,
        tools: Mapping[str, Mapping[str, Any] | None],
        *,
        kinds: Mapping[str, str] | None = None,
        source: str = "an adapter",
    ) -> dict[str, str | None]:
        """Declare the tools an adapter binds (name -> JSON schema); return each one's kind.

        A tool's kind is, strongest first, the one in ``kinds`` (the adapter's
        option), the one declared earlier, its canonical name's, or what its
        schema tells unambiguously (:func:`agentbus.kinds.infer_kind`). A tool
        that looks like a shell or file tool but gets no kind, and a shell tool
        whose command the guards cannot read, give one :class:`ToolKindWarning`.
        """
        kinds = kinds or {}
        for name in kinds:
            if name not in tools:
                raise RegistrationError(
                    f"tool_kinds names {name!r}, which {source} does not bind; "
                    f"its tools: {', '.join(sorted(tools)) or 'none'}"
                )
        bound: dict[str, str | None] = {}
        found: dict[str, str] = {}  # kinds the registry did not hold yet
        explicit: dict[str, str] = {}  # the adapter's tool_kinds, checked
        for name, schema in tools.items():
            canonical = normalize_tool_name(name)
            kind: str | None
            if name in kinds:
                kind = explicit[canonical] = self._declarable(name, kinds[name])
            else:
                kind = self.kind_of(canonical)
            inference = infer_kind(name, schema)
            if kind is None:
                kind = inference.kind
            elif inference.kind not in (None, kind) and canonical not in self._declared:
                self._warn_once(
                    canonical,
                    f"{source} binds {name!r}, whose schema says {inference.kind!r}, but a tool of that "
                    f"name was bound as {kind!r} before; one name has one kind per registry. Rename one "
                    f"of them, or declare the kind: registry.declare_tools({{{name!r}: ...}}).",
                )
            if kind is None and inference.suspect is not None:
                example = "exec" if "shell" in inference.suspect else "read"
                self._warn_once(
                    canonical,
                    f"{source} binds {name!r}, which looks like {inference.suspect} ({inference.reason}), "
                    f"but its kind is unknown, so the built-in guards do not judge it. Declare its kind: "
                    f"registry.declare_tools({{{name!r}: {example!r}}}) or the adapter's "
                    f"tool_kinds={{{name!r}: ...}} (kinds: {', '.join(TOOL_KINDS)}).",
                )
            elif kind is not None and not guard_readable(kind, schema):
                self._warn_once(
                    canonical,
                    f"{source} binds {name!r} as {kind!r}, but the built-in guards for {kind!r} read "
                    f"{', '.join(map(repr, READABLE_KEYS[kind]))} and it has none of these arguments: "
                    f"rename the argument so the guards can judge its calls.",
                )
            bound[name] = kind
            if kind is not None and self._kinds.get(canonical) != kind:
                found[canonical] = kind
        with self._lock:
            new_names = {normalize_tool_name(name) for name in tools} - self._known_tools
            if new_names or found or explicit:
                self._known_tools = self._known_tools | new_names
                self._kinds.update(found)
                self._declared.update(explicit)
                self._changed()
        return bound

    def kind_of(self, tool: str) -> str | None:
        """The kind of a tool (declared, bound or by its canonical name), or None."""
        canonical = normalize_tool_name(tool)
        return self._kinds.get(canonical) or NAME_KINDS.get(canonical)

    def _warn_once(self, tool: str, message: str) -> None:
        if tool in self._warned:
            return
        self._warned.add(tool)
        warnings.warn(message, ToolKindWarning, stacklevel=4)

    def add(
        self,
        point: str,
        handler: Callable[..., Any],
        *,
        id: str | None = None,
        kind: Kind = "handler",
        priority: int = 0,
        tool: Matcher = None,
        agent: Matcher = None,
        on_error: OnError | None = None,
        timeout: float | None = None,
        shadow: bool = False,
        record_values: bool = True,
        thread: bool = False,
    ) -> Registration:
        """Validate and add a registration; return it.

        ``handler`` is a simple handler (``kind="handler"``: sync or async,
        takes the event or the seed's ``(input, output)`` pair, mutates it,
        returns nothing) or ASGI-style middleware (``kind="middleware"``:
        ``async def mw(event, call_next)``). ``thread=True`` runs a sync handler
        in a worker thread, so that its ``timeout`` (and the bus's
        ``dispatch_timeout``) holds even if it blocks. Raises
        :class:`RegistrationError` with a message that says what to change.
        """
        registration = self._build(
            point, handler, id=id, kind=kind, priority=priority, tool=tool, agent=agent,
            on_error=on_error, timeout=timeout, shadow=shadow, record_values=record_values,
            thread=thread,
        )  # fmt: skip
        with self._lock:
            if registration.id in self._by_id:
                raise RegistrationError(
                    f"a registration with id {registration.id!r} exists already; "
                    f"remove it first or choose another id"
                )
            self._by_id[registration.id] = registration
            current = self._by_point.get(point, ())
            self._by_point[point] = tuple(sorted((*current, registration), key=_sort_key))
            self._changed()
        return registration

    def _build(
        self,
        point: str,
        handler: Callable[..., Any],
        *,
        id: str | None,
        kind: Kind,
        priority: int,
        tool: Matcher,
        agent: Matcher,
        on_error: OnError | None,
        timeout: float | None,
        shadow: bool,
        record_values: bool,
        thread: bool = False,
    ) -> Registration:
        if point not in HOOK_POINTS:
            raise RegistrationError(
                f"unknown hook point {point!r}; valid points: {', '.join(sorted(HOOK_POINTS))}"
            )
        if not callable(handler):
            raise RegistrationError(f"the handler for {point} must be callable, got {handler!r}")
        if kind not in ("handler", "middleware"):
            raise RegistrationError(f"kind must be 'handler' or 'middleware', got {kind!r}")
        if isinstance(priority, bool) or not isinstance(priority, int):
            raise RegistrationError(f"priority must be an int, got {priority!r}")
        if tool is not None and point not in TOOL_POINTS:
            raise RegistrationError(
                f"a tool matcher only applies to tool points ({', '.join(sorted(TOOL_POINTS))}), "
                f"not to {point}; use agent= to select agents"
            )
        resolved_on_error = on_error if on_error is not None else _default_on_error(point)
        if resolved_on_error not in ON_ERROR_CHOICES:
            raise RegistrationError(
                f"on_error must be one of {', '.join(ON_ERROR_CHOICES)}, got {on_error!r}"
            )
        if resolved_on_error == "block" and point != "tool.before":
            raise RegistrationError(
                f"on_error='block' only applies to tool.before, not to {point}; use 'continue' or 'raise'"
            )
        if timeout is not None and (
            isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0
        ):
            raise RegistrationError(f"timeout must be a number of seconds > 0, got {timeout!r}")
        is_async = _is_async_callable(handler)
        arity = _positional_arity(handler)
        pair = False
        if kind == "middleware":
            if thread:
                raise RegistrationError("thread=True applies to sync handlers; middleware is async")
            if not is_async:
                raise RegistrationError(
                    "middleware must be an async callable taking (event, call_next); "
                    f"{handler!r} is not async"
                )
            if arity is not None and arity != 2:
                raise RegistrationError(
                    f"middleware takes (event, call_next), but {handler!r} takes {arity} positional arguments"
                )
            if shadow and point == "tool.call":
                raise RegistrationError(
                    "shadow mode is not available for tool.call middleware: it would have to run the tool"
                )
        else:
            if point == "tool.call":
                raise RegistrationError(
                    "tool.call layers wrap the execution and must be middleware: "
                    "register with kind='middleware' (bus.middleware(...))"
                )
            if arity not in (None, 1, 2):
                raise RegistrationError(
                    f"a handler takes (event) or (input, output), but {handler!r} takes {arity} "
                    f"positional arguments"
                )
            pair = arity == 2
            if thread and is_async:
                raise RegistrationError(
                    f"thread=True runs a sync handler in a worker thread; {handler!r} is async already"
                )
            if timeout is not None and not is_async and not thread:
                raise RegistrationError(
                    "a timeout needs an async handler: a sync handler cannot be interrupted; "
                    "pass thread=True to run it in a worker thread, where its timeout holds"
                )
        if id is None:
            module = getattr(handler, "__module__", None) or "handler"
            id = f"{module}:{getattr(handler, '__qualname__', repr(handler))}"
        elif not isinstance(id, str) or not id:
            raise RegistrationError(f"id must be a non-empty string, got {id!r}")
        return Registration(
            id=id,
            point=point,
            handler=handler,
            kind=kind,
            priority=priority,
            tool=_compile_tool_matcher(tool, self._known_tools),
            agent=_compile_agent_matcher(agent),
            on_error=resolved_on_error,
            timeout=float(timeout) if timeout is not None else None,
            shadow=shadow,
            record_values=bool(record_values),
            thread=bool(thread),
            is_async=is_async,
            pair=pair,
            sequence=next(_sequence),
        )

    def remove(self, id: str) -> bool:
        """Remove a registration by id; return whether it was there."""
        with self._lock:
            registration = self._by_id.pop(id, None)
            if registration is None:
                return False
            remaining = tuple(r for r in self._by_point[registration.point] if r.id != id)
            if remaining:
                self._by_point[registration.point] = remaining
            else:
                del self._by_point[registration.point]
            self._changed()
        return True

    def get(self, point: str, match: str | None = None, *, agent: str | None = None) -> list[Registration]:
        """The registrations that apply, sorted (priority descending, then registration order).

        ``match`` is the tool name on tool points and the agent id elsewhere, as
        in the seed; pass ``agent=`` as well to select by agent on tool points.
        """
        if point not in HOOK_POINTS:
            raise ValueError(f"unknown hook point {point!r}; valid points: {', '.join(sorted(HOOK_POINTS))}")
        kind = None
        if point in TOOL_POINTS:
            tool = normalize_tool_name(match) if match is not None else None
            kind = self.kind_of(tool) if tool is not None else None
        else:
            tool, agent = None, match if match is not None else agent
        return [
            r
            for r in self._by_point.get(point, ())
            if (tool is None or r.tool is None or r.tool(tool) or (kind is not None and r.tool(kind)))
            and (agent is None or r.agent is None or r.agent(agent))
        ]

    def stack(self, point: str) -> tuple[Registration, ...]:
        """Every registration on a hook point, in order (an immutable snapshot)."""
        return self._by_point.get(point, ())

    def points(self) -> tuple[str, ...]:
        """The hook points that hold at least one registration."""
        return tuple(self._by_point)

    def list(self) -> list[Registration]:
        """Every registration, grouped by hook point, each group in order."""
        return [r for point in sorted(self._by_point) for r in self._by_point[point]]

    def clear(self) -> None:
        """Remove every registration."""
        with self._lock:
            self._by_id.clear()
            self._by_point.clear()
            self._changed()

    def __contains__(self, id: object) -> bool:
        return id in self._by_id

    def __len__(self) -> int:
        return len(self._by_id)

    def __getitem__(self, id: str) -> Registration:
        return self._by_id[id]


def _checked_kind(name: str, kind: object) -> str:
    if kind not in TOOL_KINDS:
        raise RegistrationError(
            f"unknown kind {kind!r} for tool {name!r}; valid kinds: "
            + ", ".join(f"{k} ({what})" for k, what in TOOL_KINDS.items())
        )
    return str(kind)


def _sort_key(registration: Registration) -> tuple[int, int]:
    return (-registration.priority, registration.sequence)


# -- what the process-wide registry installs (see agentbus.global_registry) ------------

_builtin_installers: list[Callable[[Registry], None]] = []


def add_builtin_installer(installer: Callable[[Registry], None]) -> None:
    """Have :func:`~agentbus.init_registry` call ``installer(registry)`` (built-in guards use this)."""
    if installer not in _builtin_installers:
        _builtin_installers.append(installer)
