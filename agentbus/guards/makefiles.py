"""What ``make`` runs from a Makefile, as shell text the command guard can judge.

The project directory is not trusted, and ``make test`` runs whatever its
Makefile says. This module reads a Makefile's text (:mod:`.script_files` reads
the file safely and judges what this module gives) into:

- its rules: targets, prerequisites and recipes; :func:`running` gives the rules a
  goal reaches (the goal's, its prerequisites' and so on; every pattern and suffix
  rule once a target has no explicit recipe; the makefile's own rule, which make
  runs first). Where that cannot be worked out faithfully (``$(eval)``, second
  expansion, static pattern rules, included makefiles whose rules join the graph,
  target names computed as make runs) every recipe counts;
- the commands make runs while it reads the file: ``$(shell CMD)`` anywhere,
  ``VAR != CMD``;
- the files it includes, and the ``SHELL`` the recipes run with.

Recipe lines are shell commands: the ``@``, ``-`` and ``+`` prefixes are
stripped, ``$$`` is ``$``, variables defined in the Makefile are expanded (each
value one from a conditional branch could give: both branches count), ``$@``,
``$<`` and ``$^`` are the rule's target and prerequisites, ``$(MAKE)`` is
``make``, ``$(shell CMD)`` is ``$(CMD)`` and a few text functions (``subst``,
``patsubst``, ``strip``, ``addprefix`` ...) are computed. What cannot be
expanded becomes a shell variable of the same name (``$(CC)`` -> ``${CC}``, which
is what make gives too when ``CC`` comes from the environment): an unknown word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from ..frozen import Frozen
from ..lazy_regex import lazy_compile
from .budget import spend

__all__ = ["MAX_VALUES", "MAX_WAYS", "Makefile", "Recipe", "read_makefile", "recipe_lines", "running"]

MAX_VALUES = 16
"""How many values a variable (or a recipe, once expanded) may have; past that it cannot be judged."""
MAX_WAYS = 64
"""How many ways one line (a recipe, a value) may expand; past that it cannot be judged."""
_MAX_EXPANSION = 64 * 1024
"""The longest expansion of one line: a variable that doubles itself is not expanded further."""
_MAX_NESTING = 24


class Recipe(Frozen):
    """One rule: where it starts, its targets and prerequisites (expanded), and its recipe as shell text."""

    __slots__ = ("automatic", "line", "prerequisites", "target", "targets", "text")

    line: int
    target: str
    """The targets as written."""
    targets: tuple[str, ...]
    prerequisites: tuple[str, ...]
    """Normal and order-only, every value their variables may take."""
    text: str
    """The recipe as written (prefixes stripped, lines kept apart); empty for a rule without one.
    :func:`recipe_lines` expands it, once per way its variables may expand."""
    automatic: tuple[tuple[str, str], ...]
    """``$@``, ``$<``, ``$^``, ``$+`` of the rule."""

    def __init__(
        self,
        line: int,
        target: str,
        text: str,
        targets: tuple[str, ...] = (),
        prerequisites: tuple[str, ...] = (),
        automatic: tuple[tuple[str, str], ...] = (),
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "line", line)
        set_field(self, "target", target)
        set_field(self, "text", text)
        set_field(self, "targets", targets)
        set_field(self, "prerequisites", prerequisites)
        set_field(self, "automatic", automatic)


class Makefile:
    """What a Makefile makes run: recipes, commands run while reading it, includes, its ``SHELL``.

    Read-only by convention (not a :class:`~agentbus.frozen.Frozen` value: it keeps the reader
    that expands its recipes).
    """

    __slots__ = ("_problem", "_reader", "default_goals", "includes", "reading", "recipes", "shells", "unsure")

    recipes: tuple[Recipe, ...]
    """Every rule, in the order of the file."""
    default_goals: tuple[str, ...]
    """The goal of a bare ``make`` (``.DEFAULT_GOAL``, else the first target; more than one when
    a conditional may skip the first)."""
    unsure: str
    """Why the rules a goal reaches cannot be worked out (``$(eval)``, includes ...): every recipe
    counts then. Empty when they can."""
    reading: tuple[tuple[int, str], ...]
    """(line, shell command) run while make reads the file: ``$(shell ...)``, ``!=``."""
    includes: tuple[str, ...]
    shells: tuple[str, ...]
    """The values ``SHELL`` is given (empty: ``/bin/sh``)."""
    _problem: str
    _reader: _Reader | None

    def __init__(
        self,
        recipes: tuple[Recipe, ...],
        reading: tuple[tuple[int, str], ...],
        includes: tuple[str, ...],
        shells: tuple[str, ...],
        problem: str,
        default_goals: tuple[str, ...] = (),
        unsure: str = "every recipe",
        reader: _Reader | None = None,
    ) -> None:
        self._reader = reader
        self.default_goals = default_goals
        self.unsure = unsure
        self.recipes = recipes
        self.reading = reading
        self.includes = includes
        self.shells = shells
        self._problem = problem

    @property
    def problem(self) -> str:
        """Why part of it cannot be judged (too many values), else empty; known once the recipes
        that run are expanded (:func:`recipe_lines`)."""
        return self._reader.problem if self._reader is not None else self._problem

    def expand(self, text: str, automatic: dict[str, str]) -> list[str]:
        """``text`` expanded with the file's variables, each way it may (at most :data:`MAX_WAYS`)."""
        if self._reader is None:
            return [text]
        return self._reader.expand(text, automatic)


_ASSIGNMENT = lazy_compile(
    r"^(?P<prefix>(?:(?:export|override|private|unexport)\s+)*)(?P<name>[^\s:#=!?+]+)\s*"
    r"(?P<op>:::=|::=|:=|\?=|\+=|!=|=)\s*(?P<value>.*)$"
)
_DEFINE = lazy_compile(
    r"^(?:(?:export|override|private)\s+)*define\s+(?P<name>[^\s:#=!?+]+)\s*(?P<op>\S*)\s*$"
)
_CONDITIONAL = lazy_compile(r"^(?:else\s*)?(?:ifeq|ifneq|ifdef|ifndef)\b|^else\b|^endif\b")
_INCLUDE = lazy_compile(r"^(?:-include|sinclude|include)\s+(?P<files>.*)$")
_SHELL_CALL = "shell "


class _Reader:
    """One Makefile's text read line by line (directives, rules, recipes)."""

    def __init__(self, text: str) -> None:
        self.lines = text.replace("\r\n", "\n").split("\n")
        self.variables: dict[str, list[str]] = {}
        self.recipes: list[tuple[int, str, str, list[tuple[int, str]]]] = []
        """(first line, target, prerequisites, [(line, raw recipe line)]) per rule."""
        self.depths: list[int] = []
        """How many conditionals enclose each rule (a goal in one may not be defined)."""
        self.unsure = ""
        self.done = False
        """Reading is over: a variable's value no longer changes, so its expansion is kept."""
        self.expanded: dict[str, list[str]] = {}
        """Variables expanded once the file is read (those whose value names no ``$@``, ``$1`` ...)."""
        self.contextual = 0
        """How many times a rule's or a call's own value (``$@``, ``$1``) was looked up."""
        self.reading: list[tuple[int, str]] = []
        self.includes: list[str] = []
        self.problem = ""
        self.prefix = "\t"
        self.fixed: set[str] = set()
        """Variables set on make's command line: the file's assignments do not change them."""
        self.depth = 0
        """How many conditionals enclose the line: an assignment there may or may not happen."""

    # -- reading ----------------------------------------------------------------------------------

    def read(self) -> None:
        index = 0
        rule: tuple[int, str, str, list[tuple[int, str]]] | None = None
        while index < len(self.lines):
            spend()
            number = index + 1
            line = self.lines[index]
            if line.startswith(self.prefix) and rule is not None:
                text, index = self.recipe_line(index)
                rule[3].append((number, text))
                continue
            logical, index = self.logical_line(index)
            stripped = _uncommented(logical).strip()
            if not stripped:
                continue
            define = _DEFINE.match(stripped)
            if define is not None:
                body, index = self.define_body(index)
                self.assign(define.group("name"), define.group("op") or "=", body, number)
                continue
            if _CONDITIONAL.match(stripped):
                word = stripped.split()[0]
                self.depth += 1 if word.startswith("if") else -1 if word == "endif" else 0
                self.depth = max(self.depth, 0)
                self.shell_calls(stripped, number)
                continue
            if "$(eval" in stripped or "${eval" in stripped or stripped.startswith(".SECONDEXPANSION"):
                self.unsure = (
                    self.unsure or f"line {number} defines rules as it runs ($(eval), second expansion)"
                )
            include = _INCLUDE.match(stripped)
            if include is not None:
                files = self.expand(include.group("files"))
                self.includes.extend(dict.fromkeys(v for value in files for v in value.split()))
                self.shell_calls(include.group("files"), number)
                continue
            assignment = _ASSIGNMENT.match(stripped)
            if assignment is not None:
                name, op, value = assignment.group("name", "op", "value")
                self.assign(name, op, value, number, forced="override" in assignment.group("prefix"))
                continue
            if ":" in stripped:
                rule = self.rule(stripped, number)
                continue
            self.shell_calls(stripped, number)  # $(eval ...), $(info ...): what it calls runs now

    def recipe_line(self, index: int) -> tuple[str, int]:
        """A recipe line with its continuation lines (make hands the backslash-newlines to the shell)."""
        parts = [self.lines[index][len(self.prefix) :]]
        while _continued(parts[-1]) and index + 1 < len(self.lines):
            index += 1
            following = self.lines[index]
            parts.append(following[1:] if following.startswith("\t") else following)
        return "\n".join(parts), index + 1

    def logical_line(self, index: int) -> tuple[str, int]:
        parts = [self.lines[index]]
        while _continued(parts[-1]) and index + 1 < len(self.lines):
            parts[-1] = parts[-1][:-1]
            index += 1
            parts.append(self.lines[index].lstrip())
        return " ".join(parts), index + 1

    def define_body(self, index: int) -> tuple[str, int]:
        body: list[str] = []
        nested = 0
        while index < len(self.lines):
            line = self.lines[index]
            index += 1
            word = line.strip().split()[0] if line.strip() else ""
            if word == "endef" and nested == 0:
                break
            nested += word == "define"
            nested -= word == "endef"
            body.append(line)
        return "\n".join(body), index

    def rule(self, stripped: str, number: int) -> tuple[int, str, str, list[tuple[int, str]]]:
        targets, _, rest = stripped.partition(":")
        rest = rest.lstrip(":&")
        prerequisites, semicolon, inline = rest.partition(";")
        target_variable = _ASSIGNMENT.match(prerequisites.strip())
        if target_variable is not None:  # target: VAR = value (a target-specific variable)
            self.assign(target_variable.group("name"), target_variable.group("op"),
                        target_variable.group("value"), number, conditional=True)  # fmt: skip
        else:
            self.shell_calls(targets + " " + prerequisites, number)
        found: tuple[int, str, str, list[tuple[int, str]]] = (
            number,
            targets.strip(),
            prerequisites.strip(),
            [],
        )
        if semicolon:
            found[3].append((number, inline.strip()))
        if target_variable is None:
            self.recipes.append(found)
            self.depths.append(self.depth)
            if ":" in prerequisites or "(" in targets.replace("$(", "").replace("${", ""):
                self.unsure = self.unsure or f"line {number} is a static pattern or archive rule"
        return found

    # -- variables --------------------------------------------------------------------------------

    def assign(
        self, name: str, op: str, value: str, number: int, *, conditional: bool = False, forced: bool = False
    ) -> None:
        name = self.expand(name)[0].strip()
        if name in self.fixed and not forced:
            self.shell_calls(value, number)
            return
        if name == ".RECIPEPREFIX":
            self.prefix = value[:1] or "\t"
            return
        self.shell_calls(value, number)
        assigned = [value]
        if op == "!=":
            self.reading.append((number, value))  # VAR != CMD: the shell runs CMD now
            assigned = ["${" + _shell_name(name) + "}"]
        elif op in (":=", "::="):
            assigned = self.expand(value)  # expanded now, each way it may
        old = self.variables.get(name)
        maybe = bool(self.depth or conditional)
        if op == "+=" and old and maybe:
            # Appended in a conditional: the value with every append so far, beside the earlier
            # ones (not every subset of the appends: that doubles with each).
            values = [*old, f"{old[-1]} {value}".strip()]
        elif op == "+=" and old:
            values = [f"{before} {value}".strip() for before in old]
        elif op == "?=" and old:
            values = old
        else:
            values = assigned
        if maybe and old is not None:
            values = list(dict.fromkeys([*old, *values]))  # maybe assigned: both values may be
        if len(values) > MAX_VALUES:
            self.problem = f"the variable {name} takes more than {MAX_VALUES} values"
            values = values[-MAX_VALUES:]
        self.variables[name] = values

    def shell_calls(self, text: str, number: int) -> None:
        """Record the ``$(shell CMD)`` calls in ``text``: they run while make reads the file."""
        if "$(" + _SHELL_CALL not in text and "${" + _SHELL_CALL not in text:
            return
        for expanded in self.expand(text):
            index = expanded.find("$(")
            while index >= 0:
                end = _closing(expanded, index + 1)
                if end < 0:
                    break
                self.reading.append((number, expanded[index + 2 : end]))
                index = expanded.find("$(", end)

    def expand(self, text: str, automatic: dict[str, str] | None = None) -> list[str]:
        """``text`` with its variable references and functions expanded: each way it may expand."""
        results = _Expander(self, automatic or {}).text(text, 0)
        if len(results) > MAX_WAYS:
            self.problem = f"a line expands in more than {MAX_WAYS} ways"
        return results[:MAX_WAYS]

    def makefile(self) -> Makefile:
        self.done = True
        recipes: list[Recipe] = []
        for first_line, targets, prerequisites, lines in self.recipes:
            names = _words(self.expand(targets))
            wanted = _words(self.expand(prerequisites.replace("|", " ")))
            text = _recipe_text(lines) if lines else ""
            automatic = tuple(_automatic(targets, prerequisites).items())
            recipes.append(
                Recipe(lines[0][0] if lines else first_line, targets, text, names, wanted, automatic)
            )
        default_goals = self.default_goals(recipes)
        unsure = self.unsure
        if self.includes:
            unsure = unsure or "it includes other makefiles, whose rules join its own"
        if any("${" in name or "$(" in name for recipe in recipes for name in recipe.targets):
            unsure = unsure or "a target's name is computed as make runs"
        shells = tuple(v for v in self.variables.get("SHELL", []) if v.strip())
        return Makefile(tuple(recipes), tuple(self.reading), tuple(self.includes), shells, self.problem,
                        tuple(default_goals), unsure, self)  # fmt: skip

    def default_goals(self, recipes: list[Recipe]) -> list[str]:
        """``.DEFAULT_GOAL``, else the first target that is no special or pattern target; while the
        rules found are inside conditionals, the next one too (the first may not be defined)."""
        set_goal = [goal for value in self.variables.get(".DEFAULT_GOAL", []) for goal in value.split()]
        if set_goal:
            return set_goal
        goals: list[str] = []
        for recipe, depth in zip(recipes, self.depths, strict=True):
            name = next((t for t in recipe.targets if "%" not in t and not _special(t)), None)
            if name is None:
                continue
            goals.append(name)
            if depth == 0:
                break
        return goals


def _words(values: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(word for value in values for word in value.split()))


def _special(target: str) -> bool:
    """``.PHONY``, ``.SUFFIXES`` ...: a name starting with a dot (and no slash) is no default goal."""
    return target.startswith(".") and "/" not in target


def _recipe_text(lines: list[tuple[int, str]]) -> str:
    """A rule's recipe lines as one text whose lines keep their distance in the file."""
    first = lines[0][0]
    padded: list[str] = []
    reached = first
    for line, raw in lines:
        padded.extend([""] * max(0, line - reached))  # comments and blank lines between
        command = _recipe_command(raw)
        padded.append(command)
        reached = max(reached, line) + command.count("\n") + 1
    return "\n".join(padded)


def _automatic(targets: str, prerequisites: str) -> dict[str, str]:
    """``$@``, ``$<``, ``$^`` and ``$+`` of a rule: its first target, first and all prerequisites."""
    normal = prerequisites.partition("|")[0]
    return {
        "@": targets.split()[0] if targets.split() else "",
        "<": normal.split()[0] if normal.split() else "",
        "^": normal,
        "+": normal,
    }


class _Expander:
    """Make's ``$`` references expanded into the values they may take."""

    def __init__(self, reader: _Reader, automatic: dict[str, str]) -> None:
        self.reader = reader
        self.automatic = automatic

    def text(self, text: str, depth: int) -> list[str]:
        results = [""]
        index = 0
        while index < len(text):
            spend()
            dollar = text.find("$", index)
            if dollar < 0:
                results = [r + text[index:] for r in results]
                break
            results = [r + text[index:dollar] for r in results]
            if dollar + 1 >= len(text):
                results = [r + "$" for r in results]
                break
            char = text[dollar + 1]
            if char == "$":
                values, index = ["$$"], dollar + 2  # make's $$ is the shell's $: kept for it
            elif char in "({":
                end = _closing(text, dollar + 1)
                if end < 0:
                    values, index = [text[dollar:]], len(text)
                else:
                    values, index = self.reference(text[dollar + 2 : end], char, depth), end + 1
            else:
                values, index = self.variable(char, depth), dollar + 2
            results = _product(results, values)
            if len(results) > MAX_WAYS:
                self.reader.problem = f"a line expands in more than {MAX_WAYS} ways"
            if any(len(r) > _MAX_EXPANSION for r in results):
                self.reader.problem = "a line expands to more than the guard reads"
                return [r[:_MAX_EXPANSION] for r in results]
        return results

    def reference(self, inner: str, bracket: str, depth: int) -> list[str]:
        if depth > _MAX_NESTING:
            return ["${MAKE_NESTED}"]
        function, _, arguments = inner.partition(" ")
        if function in _FUNCTIONS and arguments:
            return _FUNCTIONS[function](self, arguments, depth + 1)
        if ":" in inner and "=" in inner:  # $(VAR:.c=.o): a substitution reference
            name, _, pattern = inner.partition(":")
            values = self.variable(name, depth)
            old, _, new = pattern.partition("=")
            return [" ".join(_patsubst(old, new, w) for w in v.split()) for v in values]
        names = self.text(inner, depth + 1)
        return [value for name in names for value in self.variable(name.strip(), depth)]

    def variable(self, name: str, depth: int) -> list[str]:
        if name in self.automatic:
            self.reader.contextual += 1
            return [self.automatic[name]]
        reader = self.reader
        if reader.done and name in reader.expanded:
            return reader.expanded[name]
        before = reader.contextual
        found = self.variable_values(name, depth)
        if reader.done and reader.contextual == before and depth <= 1:
            reader.expanded[name] = found  # the same wherever it is used: expanded once (linear)
        return found

    def variable_values(self, name: str, depth: int) -> list[str]:
        if name in ("MAKE", "MAKE_COMMAND"):
            return ["make"]
        if name in ("@D", "@F", "<D", "<F", "*", "?", "|", "%", "*D", "*F"):
            return ["${MAKE_AUTOMATIC}"]
        values = self.reader.variables.get(name)
        if values is None:
            return ["${" + _shell_name(name) + "}"]  # an unknown word: the environment's, or nothing
        if depth > _MAX_NESTING:
            return ["${" + _shell_name(name) + "}"]
        found: list[str] = []
        for value in values:
            found.extend(self.text(value, depth + 1))
        found = list(dict.fromkeys(found))
        if len(found) > MAX_WAYS:
            self.reader.problem = f"the variable {name} expands in more than {MAX_WAYS} ways"
        return found[: MAX_WAYS + 1]

    def arguments(self, arguments: str, depth: int) -> list[list[str]]:
        return [self.text(part, depth) for part in _split_arguments(arguments)]


_Function = Callable[["_Expander", str, int], list[str]]


def _shell(expander: _Expander, arguments: str, depth: int) -> list[str]:
    return [f"$({command})" for command in expander.text(arguments, depth)]


def _subst(expander: _Expander, arguments: str, depth: int) -> list[str]:
    parts = expander.arguments(arguments, depth)
    if len(parts) < 3:
        return ["${MAKE_FUNCTION}"]
    return [t.replace(f, r) if f else t for f in parts[0] for r in parts[1] for t in parts[2]]


def _patsubst_function(expander: _Expander, arguments: str, depth: int) -> list[str]:
    parts = expander.arguments(arguments, depth)
    if len(parts) < 3:
        return ["${MAKE_FUNCTION}"]
    return [
        " ".join(_patsubst(old.strip(), new.strip(), word) for word in text.split())
        for old in parts[0]
        for new in parts[1]
        for text in parts[2]
    ]


def _strip(expander: _Expander, arguments: str, depth: int) -> list[str]:
    return [" ".join(v.split()) for v in expander.text(arguments, depth)]


def _affix(prefix: bool) -> _Function:
    def compute(expander: _Expander, arguments: str, depth: int) -> list[str]:
        parts = expander.arguments(arguments, depth)
        if len(parts) < 2:
            return ["${MAKE_FUNCTION}"]
        return [
            " ".join((a + w) if prefix else (w + a) for w in words.split())
            for a in parts[0]
            for words in parts[1]
        ]

    return compute


def _if(expander: _Expander, arguments: str, depth: int) -> list[str]:
    parts = _split_arguments(arguments)
    found: list[str] = []
    for branch in parts[1:3]:  # then and else: either may be taken
        found.extend(expander.text(branch, depth))
    return found or [""]


def _call(expander: _Expander, arguments: str, depth: int) -> list[str]:
    parts = expander.arguments(arguments, depth)
    if not parts:
        return ["${MAKE_FUNCTION}"]
    found: list[str] = []
    for name in parts[0]:
        automatic = dict(expander.automatic)
        for number, values in enumerate(parts[1:], start=1):
            automatic[str(number)] = values[0] if values else ""
        inner = _Expander(expander.reader, automatic)
        found.extend(inner.variable(name.strip(), depth + 1))
    return found


def _joined(expander: _Expander, arguments: str, depth: int) -> list[str]:
    """A function the guard does not compute: what its arguments run is kept, its value is unknown."""
    commands = [value for value in expander.text(arguments, depth) if "$(" in value]
    return [f"${{MAKE_FUNCTION}}{' '.join(commands)}" if commands else "${MAKE_FUNCTION}"]


def _first_argument(expander: _Expander, arguments: str, depth: int) -> list[str]:
    """``$(eval TEXT)``, ``$(value V)``, ``$(foreach v,list,TEXT)``: kept as text to judge."""
    return expander.text(arguments, depth)


_FUNCTIONS: dict[str, _Function] = {
    "shell": _shell,
    "subst": _subst,
    "patsubst": _patsubst_function,
    "strip": _strip,
    "addprefix": _affix(True),
    "addsuffix": _affix(False),
    "if": _if,
    "or": _if,
    "and": _if,
    "call": _call,
    "eval": _first_argument,
    "foreach": _joined,
    "value": _first_argument,
    "wildcard": _joined,
    "filter": _joined,
    "filter-out": _joined,
    "sort": _strip,
    "firstword": _joined,
    "lastword": _joined,
    "word": _joined,
    "wordlist": _joined,
    "words": _joined,
    "notdir": _joined,
    "dir": _joined,
    "basename": _joined,
    "suffix": _joined,
    "realpath": _joined,
    "abspath": _joined,
    "join": _joined,
    "findstring": _joined,
    "origin": _joined,
    "flavor": _joined,
    "error": _joined,
    "warning": _joined,
    "info": _joined,
    "file": _joined,
    "let": _joined,
    "intcmp": _joined,
    "guile": _joined,
}
"""The functions the guard computes (or, for ``_joined``, whose arguments it keeps to judge)."""


# -- text helpers -----------------------------------------------------------------------------------


def _continued(line: str) -> bool:
    """Whether a line ends in an odd number of backslashes (it continues on the next)."""
    trailing = len(line) - len(line.rstrip("\\"))
    return trailing % 2 == 1


def _uncommented(line: str) -> str:
    """A makefile line without its comment (``\\#`` is a literal ``#``)."""
    index = 0
    while True:
        index = line.find("#", index)
        if index < 0:
            return line
        if index and line[index - 1] == "\\":
            index += 1
            continue
        return line[:index]


def _closing(text: str, start: int) -> int:
    """The index of the bracket that closes the one at ``start`` (``(`` or ``{``), or -1."""
    opening = text[start]
    closing = ")" if opening == "(" else "}"
    depth = 0
    for index in range(start, len(text)):
        char = text[index]
        if char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return index
    return -1


def _split_arguments(arguments: str) -> list[str]:
    """A function's arguments split at top-level commas."""
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for char in arguments:
        if char in "({":
            depth += 1
        elif char in ")}":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def _patsubst(old: str, new: str, word: str) -> str:
    if "%" not in old:
        return new if word == old else word
    head, _, tail = old.partition("%")
    if word.startswith(head) and word.endswith(tail) and len(word) >= len(head) + len(tail):
        stem = word[len(head) : len(word) - len(tail)]
        return new.replace("%", stem, 1) if "%" in new else new
    return word


def _product(results: list[str], values: list[str]) -> list[str]:
    combined = list(dict.fromkeys(r + v for r in results for v in values))
    return combined[: MAX_WAYS + 1]


def _shell_name(name: str) -> str:
    cleaned = re.sub(r"\W", "_", name)
    return cleaned if cleaned and not cleaned[0].isdigit() else f"MAKE_{cleaned}"


def _recipe_command(raw: str) -> str:
    """A recipe line as the shell gets it: without make's ``@``, ``-`` and ``+`` prefixes."""
    stripped = raw.lstrip()
    while stripped[:1] in ("@", "-", "+") and stripped:
        stripped = stripped[1:].lstrip()
    return stripped


def read_makefile(text: str, overrides: Sequence[str] = ()) -> Makefile:
    """The recipes, parse-time commands, includes and ``SHELL`` of a Makefile's text.

    ``overrides``: ``VAR=value`` from make's command line (they win over the file's
    assignments), ``env:VAR=value`` from its environment (the file's win over them).
    """
    reader = _Reader(text)
    for override in overrides:
        weak = override.startswith("env:")
        name, _, value = override.removeprefix("env:").partition("=")
        name = name.rstrip(":?+!")
        if name:
            reader.variables[name] = [value]
            if not weak:
                reader.fixed.add(name)
    reader.read()
    return reader.makefile()


def recipe_lines(makefile: Makefile, goals: Sequence[str] | None = None) -> Iterator[tuple[int, str]]:
    """(first line, shell text) of the recipes that run and the parse-time commands, each way
    it expands. ``goals``: the targets named (none: the default goal); None: every recipe."""
    recipes = makefile.recipes if goals is None else running(makefile, goals)
    for recipe in recipes:
        if not recipe.text:
            continue
        for text in makefile.expand(recipe.text, dict(recipe.automatic)):
            yield recipe.line, text.replace("$$", "$")
    for line, command in makefile.reading:
        yield line, command.replace("$$", "$")


_ALWAYS = (".BEGIN", ".END", ".INTERRUPT", ".ERROR", ".DEFAULT", "Makefile", "makefile", "GNUmakefile")
"""Targets whose recipes may run whatever the goal: bmake's hooks, and the makefile itself
(make remakes a makefile that has a rule before it reads it)."""


def running(makefile: Makefile, goals: Sequence[str]) -> tuple[Recipe, ...]:
    """The rules whose recipes may run for ``goals`` (none: the default goal): the goals' rules,
    their prerequisites' rules and so on; the pattern and suffix rules when a target has no
    explicit recipe. Every rule when :attr:`Makefile.unsure`."""
    if makefile.unsure:
        return makefile.recipes
    explicit: dict[str, list[Recipe]] = {}
    patterns: list[Recipe] = []
    for recipe in makefile.recipes:
        for name in recipe.targets:
            if "%" in name or _suffix_rule(name):
                patterns.append(recipe)
            else:
                explicit.setdefault(name, []).append(recipe)
    queue = list(goals or makefile.default_goals) + list(_ALWAYS)
    reached: set[str] = set()
    chosen: dict[int, Recipe] = {}
    implicit = False
    while queue:
        name = queue.pop()
        if name in reached:
            continue
        spend()
        reached.add(name)
        rules = explicit.get(name, [])
        for rule in rules:
            chosen[id(rule)] = rule
            queue.extend(rule.prerequisites)
        if not implicit and name not in _ALWAYS and not any(rule.text for rule in rules):
            implicit = True  # a file, or made by a pattern or suffix rule: every one may run (once)
            for rule in patterns:
                chosen[id(rule)] = rule
                queue.extend(p for p in rule.prerequisites if "%" not in p)
                queue.extend(_matching(rule.prerequisites, explicit))
    return tuple(rule for rule in makefile.recipes if id(rule) in chosen)


_SPECIAL_TARGETS = frozenset({".PHONY", ".SUFFIXES", ".DEFAULT", ".PRECIOUS", ".INTERMEDIATE", ".SECONDARY",
                              ".SECONDEXPANSION", ".DELETE_ON_ERROR", ".IGNORE", ".LOW_RESOLUTION_TIME",
                              ".SILENT", ".EXPORT_ALL_VARIABLES", ".NOTPARALLEL", ".ONESHELL", ".POSIX",
                              ".NOTINTERMEDIATE", ".WAIT", ".EXTRA_PREREQS", ".BEGIN", ".END",
                              ".INTERRUPT", ".ERROR", ".MAIN", ".MAKEFLAGS", ".PATH", ".SHELL",
                              ".NOPATH", ".ORDER", ".USE", ".USEBEFORE", ".EXEC", ".JOIN", ".MADE",
                              ".OPTIONAL", ".META", ".NOMETA", ".STALE"})  # fmt: skip
"""make's (and bmake's) special targets: none is a suffix rule."""
_SUFFIX_RULE = lazy_compile(r"^\.[\w+-]+(?:\.[\w+-]+)?$")


def _suffix_rule(name: str) -> bool:
    """``.c.o``, ``.c``: an old-fashioned suffix rule (not a special target such as ``.PHONY``)."""
    return name not in _SPECIAL_TARGETS and _SUFFIX_RULE.match(name) is not None


def _matching(prerequisites: tuple[str, ...], explicit: dict[str, list[Recipe]]) -> list[str]:
    """The explicit targets a pattern prerequisite (``%.c``, ``gen/%.h``) may name."""
    found: list[str] = []
    for pattern in prerequisites:
        if "%" not in pattern:
            continue
        head, _, tail = pattern.partition("%")
        found.extend(name for name in explicit if name.startswith(head) and name.endswith(tail))
    return found
