"""What bash builtins assign: ``printf -v``, ``read``, ``mapfile``, ``set --``.

``x='rm -rf ~'; $x`` is judged because the parser remembers the assignment. A builtin
can assign just as well: ``printf -v x 'rm -rf ~'``, ``read x <<< 'rm -rf ~'``,
``read -a a <<< …``, ``mapfile -t a <<< …``, ``set -- rm -rf ~`` (then ``"$@"``). Here
each is read for the values it gives, worked out the way bash would when its input
is in the command line (a here-string, a here-document, a static format). When the
value comes from what the guard cannot see (standard input, a file, the clock, a
substitution), the variable is marked *made at run time*: running it as a command
is then held (:mod:`.tactics.unseen`), as no judge can tell what it is.

The operators of a parameter expansion are worked out here too (:func:`operated`):
``${x/a/b}``, ``${x//a/b}``, ``${x:1:2}``, ``${x^^}``, ``${x#pat}``, ``${x%%pat}``, on a value
the line gives; an operation the line does not settle (``${x:$i}``) is made at run time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..frozen import Frozen
from ..lazy_regex import lazy_compile

if TYPE_CHECKING:
    from .parse import SimpleCommand

__all__ = [
    "DEFAULT_IFS",
    "Assigned",
    "Expansion",
    "assigned",
    "expansion",
    "fields",
    "formatted",
    "operated",
    "with_known_numbers",
]

DEFAULT_IFS = " \t\n"
_NAME = lazy_compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_ASSIGNMENT = lazy_compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.DOTALL)
_READ_VALUES = frozenset("adinNptu")
"""``read``'s options that take a value (``-a NAME``, ``-d DELIM``, ``-p PROMPT`` ...)."""
_MAPFILE_VALUES = frozenset("dnOsuC c".replace(" ", ""))
_EVAL_PLAIN = lazy_compile(r"^[\w ./,:=+-]*$")
"""A word ``eval`` reads again as the same words split at blanks (no quote, no expansion)."""
_FORMAT = lazy_compile(r"%(?:%|[-+ #0]*\d*(?:\.\d+)?([a-zA-Z])|\([^)]*\)T)")


class Assigned(Frozen):
    """One variable a builtin sets: its values (the words an array holds), or None: made at run time."""

    __slots__ = ("array", "name", "values")

    name: str
    values: tuple[str, ...] | None
    array: bool

    def __init__(self, name: str, values: Sequence[str] | None, array: bool = False) -> None:
        set_field = object.__setattr__
        set_field(self, "name", name)
        set_field(self, "values", tuple(values) if values is not None else None)
        set_field(self, "array", array)


def fields(text: str, ifs: str = DEFAULT_IFS) -> list[str]:
    """``text`` split into fields at the characters of ``ifs``, as word splitting does (no empty ones)."""
    if not ifs:
        return [text] if text else []
    return [part for part in re.split(f"[{re.escape(ifs)}]+", text) if part]


def formatted(template: str, args: Sequence[str]) -> str | None:
    """What ``printf TEMPLATE ARGS`` prints, for ``%s``, ``%b``, ``%d``, ``%c`` and ``%%``; else None.

    The template is used again while arguments are left, as bash does.
    """
    from .parse import ansi_c

    specs = [m.group(1) for m in _FORMAT.finditer(template) if m.group(0) != "%%"]
    if any(spec not in ("s", "b", "d", "i", "c") for spec in specs):
        return None  # %(...)T (the clock), %x, %f ...: not worked out
    pending = list(args)
    out: list[str] = []
    while True:

        def one(match: re.Match[str]) -> str:
            if match.group(0) == "%%":
                return "%"
            value = pending.pop(0) if pending else ""
            if match.group(1) == "b":
                return ansi_c(value)
            return value[:1] if match.group(1) == "c" else value

        out.append(ansi_c(_FORMAT.sub(one, template)))
        if not pending or not specs:
            return "".join(out)


def assigned(command: SimpleCommand, ifs: str | None) -> list[Assigned]:
    """The variables ``command`` sets if it is ``printf -v``, ``read``, ``mapfile`` or ``set``.

    ``ifs`` is the shell's ``IFS`` as far as the line tells (None: the default).
    """
    words = list(command.words)
    for index, word in enumerate(words):
        match = _ASSIGNMENT.match(word)
        if match is None:
            words = words[index:]
            break
        if match.group(1) == "IFS":
            ifs = command.static(match.group(2))  # IFS=, read -a a: for this command only
    else:
        return []
    while words and words[0] in ("builtin", "command", "eval"):  # eval read x <<< …: the same read
        plain = words[0] == "eval" and all(_EVAL_PLAIN.match(word) for word in words[1:])
        words = " ".join(words[1:]).split() if plain else words[1:]  # eval joins its words, then splits
    if not words:
        return []
    name, args = words[0], words[1:]
    ifs = DEFAULT_IFS if ifs is None else ifs
    if name == "printf":
        return _printf(command, args)
    if name == "read":
        return _read(command, args, ifs)
    if name in ("mapfile", "readarray"):
        return _mapfile(command, args)
    if name == "set":
        return _set(command, args)
    return []


def _printf(command: SimpleCommand, args: list[str]) -> list[Assigned]:
    if len(args) < 2 or args[0] != "-v":
        if args[:1] and args[0].startswith("-v") and len(args[0]) > 2:
            args = ["-v", args[0][2:], *args[1:]]  # printf -vx FORMAT
        else:
            return []
    target = command.static(args[1])
    rest = args[2:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    if target is None or not _NAME.match(target.partition("[")[0]) or not rest:
        return []
    values = [command.static(word) for word in rest]
    text = None
    if all(value is not None for value in values):
        text = formatted(values[0] or "", [v for v in values[1:] if v is not None])
    return [Assigned(target.partition("[")[0], None if text is None else [text])]


def _input(command: SimpleCommand) -> str | None:
    """The text a command reads on standard input when the line gives it (a here-string or
    here-document); None when it comes from elsewhere (a file, a pipe, the terminal)."""
    text: str | None = None
    for redirect in command.redirects:
        if redirect.fd not in ("", "0"):
            continue
        if redirect.op == "<<<":
            value = command.static(redirect.target)
            text = None if value is None else value + "\n"
        elif redirect.op == "<<":
            subs = command.substitutions_in(redirect.target)
            text = subs[0].text if subs and not subs[0].script.pipelines else None
        elif redirect.op in ("<", "<&", "<>"):
            text = None
    return text


def _options(args: list[str], valued: frozenset[str]) -> tuple[dict[str, str], list[str]]:
    """Short options (with their values) and the words after them."""
    options: dict[str, str] = {}
    index = 0
    while index < len(args):
        word = args[index]
        if word == "--":
            index += 1
            break
        if not word.startswith("-") or word == "-":
            break
        for position, letter in enumerate(word[1:], start=1):
            if letter in valued:
                value = word[position + 1 :]
                if not value and index + 1 < len(args):
                    index += 1
                    value = args[index]
                options[letter] = value
                break
            options[letter] = ""
        index += 1
    return options, args[index:]


def _read(command: SimpleCommand, args: list[str], ifs: str) -> list[Assigned]:
    options, names = _options(args, _READ_VALUES)
    statics = [command.static(name) for name in names]
    names = [name for name in statics if name is not None and _NAME.match(name)]
    array = command.static(options["a"]) if "a" in options else None
    text = _input(command)
    line: str | None = None
    if text is not None:
        delimiter = options.get("d", "\n")
        line = text.split(delimiter[:1], 1)[0] if delimiter else text.split("\0", 1)[0]
        if "r" not in options:
            line = re.sub(r"\\(.)", r"\1", line.replace("\\\n", ""))
    if array is not None and _NAME.match(array):
        return [Assigned(array, None if line is None else fields(line, ifs), array=True)]
    names = names or ["REPLY"]
    if line is None:
        return [Assigned(name, None) for name in names]
    parts = fields(line, ifs)
    found = [Assigned(name, [parts[i] if i < len(parts) else ""]) for i, name in enumerate(names[:-1])]
    rest = parts[len(names) - 1 :]
    found.append(Assigned(names[-1], [(ifs[:1] or " ").join(rest)]))
    return found


def _mapfile(command: SimpleCommand, args: list[str]) -> list[Assigned]:
    options, names = _options(args, _MAPFILE_VALUES)
    statics = [command.static(name) for name in names[:1]]
    name = statics[0] if statics and statics[0] is not None else "MAPFILE"
    if not _NAME.match(name):
        return []
    text = _input(command)
    if text is None:
        return [Assigned(name, None, array=True)]
    delimiter = options.get("d", "\n")[:1] or "\0"
    lines = [line for line in text.split(delimiter) if line]
    return [Assigned(name, lines, array=True)]


def _set(command: SimpleCommand, args: list[str]) -> list[Assigned]:
    """``set -- WORDS``, ``set -e WORDS``, ``set WORDS``: the positional parameters."""
    index = 0
    given = False
    while index < len(args):
        word = args[index]
        if word in ("--", "-"):
            index += 1
            given = True
            break
        if word[:1] in "-+" and len(word) > 1:
            index += 2 if word[-1] == "o" else 1  # -o NAME, -euo NAME: the option's value
            continue
        given = True
        break
    words = args[index:]
    if not given:
        return []  # set -euo pipefail: options only, the parameters are left as they were
    values: list[str] = []
    for word in words:
        value = command.static(word)
        if value is None:
            return [Assigned("@", None, array=True)]
        # $(echo rm -rf) unquoted: its output split into words (a quoted one is not: judged the same).
        values.extend(value.split() if command.substitutions_in(word) else [value])
    return [Assigned("@", values, array=True)]


# -- parameter expansions: ${x/a/b}, ${x:1:2}, ${!n}, ${x^^}, zsh's ${=x} ------------------------

MAX_MATCHED = 1024
"""The longest value a pattern operator (``${x/a/b}``, ``${x%%pat}``) is worked out on; a longer
one is made at run time (held when run), so the work stays linear in the command."""
_EXPANSION_NAME = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OFFSET = lazy_compile(r"\s*(?:\(\s*(-?\d+)\s*\)|(-?\d*))\s*")


class Expansion(Frozen):
    """A ``${...}`` read into its parts: the variable, ``!`` (its value names the variable to
    read), zsh's ``=`` (split the value into words) and the operator after the name."""

    __slots__ = ("indirect", "name", "operator", "split")

    name: str
    indirect: bool
    split: bool
    operator: str

    def __init__(self, name: str, indirect: bool, split: bool, operator: str) -> None:
        set_field = object.__setattr__
        set_field(self, "name", name)
        set_field(self, "indirect", indirect)
        set_field(self, "split", split)
        set_field(self, "operator", operator)


def expansion(text: str) -> Expansion | None:
    """``${!n}``, ``${x/a/b}``, ``${x:2:3}`` ... read into parts; None for a form not read here
    (``${x:-default}``, ``${#x}``, ``${!prefix*}``, ``${a[1]}``: the parser reads those as before)."""
    if not (text.startswith("${") and text.endswith("}")):
        return None
    inner = text[2:-1]
    indirect = inner.startswith("!")
    split = inner.startswith("=")
    inner = inner[1:] if indirect or split else inner
    match = _EXPANSION_NAME.match(inner)
    if match is None:
        return None
    operator = inner[match.end() :]
    if (operator and operator[0] not in "/:^,#%") or operator[:2] in (":-", ":=", ":+", ":?"):
        return None
    if indirect and operator:
        return None  # ${!n/a/b}: not read here
    return Expansion(match.group(0), indirect, split, operator)


def operated(value: str, operator: str) -> str | None:
    """``value`` after a parameter expansion's operator (``/a/b``, ``:1:2``, ``^^``, ``#pat``),
    as bash gives it; None when it cannot be worked out from the line (``${x:$i}``)."""
    if not operator:
        return value
    head = operator[0]
    if head in "/#%" and len(value) > MAX_MATCHED:
        return None  # a pattern tried at every place: quadratic, so a long value is not worked out
    if head == "/":
        return _replaced(value, operator[1:])
    if head == ":":
        return _sliced(value, operator[1:])
    if operator in ("^^", ",,", "^", ","):
        if operator == "^^":
            return value.upper()
        if operator == ",,":
            return value.lower()
        return (value[:1].upper() if head == "^" else value[:1].lower()) + value[1:]
    if head in "#%":
        longest = operator[:2] in ("##", "%%")
        pattern = _glob(operator[2 if longest else 1 :])
        if pattern is None:
            return None
        ends = range(len(value), -1, -1) if longest else range(len(value) + 1)
        if head == "#":
            cut = next((end for end in ends if pattern.fullmatch(value, 0, end)), 0)
            return value[cut:]
        starts = range(len(value) + 1) if longest else range(len(value), -1, -1)
        cut = next((start for start in starts if pattern.fullmatch(value, start)), len(value))
        return value[:cut]
    return None


def _replaced(value: str, spec: str) -> str | None:
    """``${x/pat/rep}`` (``spec`` after the first ``/``): ``/`` every match, ``#`` at the start,
    ``%`` at the end."""
    every = spec.startswith("/")
    anchor = spec[:1] if spec[:1] in "#%" else ""
    spec = spec[1:] if every or anchor else spec
    pattern_text, _, replacement = _split_unescaped(spec)
    pattern = _glob(pattern_text)
    if pattern is None or any(c in replacement for c in "$`&"):
        return None  # & is the match (bash 5.2's patsub_replacement, a shell option): not settled
    replacement = re.sub(r"\\(.)", r"\1", replacement)
    if not pattern_text:
        return value
    if pattern.fullmatch(""):
        return replacement  # ${x//*/r}: the longest match is the whole value, once (even an empty one)
    if anchor == "#":
        ends = [end for end in range(len(value), -1, -1) if pattern.fullmatch(value, 0, end)]
        return replacement + value[ends[0] :] if ends else value
    if anchor == "%":
        starts = [start for start in range(len(value) + 1) if pattern.fullmatch(value, start)]
        return value[: starts[0]] + replacement if starts else value
    searched = re.compile(pattern.pattern, re.DOTALL)
    return searched.sub(lambda _: replacement, value, count=0 if every else 1)


def _split_unescaped(spec: str) -> tuple[str, str, str]:
    """``spec`` split at its first ``/`` that no backslash escapes."""
    index = 0
    while index < len(spec):
        if spec[index] == "\\":
            index += 2
            continue
        if spec[index] == "/":
            return spec[:index], "/", spec[index + 1 :]
        index += 1
    return spec, "", ""


def _glob(pattern: str) -> re.Pattern[str] | None:
    """A bash pattern (``*``, ``?``, ``[...]``, ``\\x``) as a regular expression (``*`` takes the
    longest run, as bash's replacement does); None for what is not read (``$v``, extglobs)."""
    if "$" in pattern or "`" in pattern or re.search(r"[?*+@!]\(", pattern):
        return None
    parts: list[str] = []
    index = 0
    while index < len(pattern):
        character = pattern[index]
        if character == "\\" and index + 1 < len(pattern):
            parts.append(re.escape(pattern[index + 1]))
            index += 2
            continue
        if character == "*":
            parts.append(".*")
        elif character == "?":
            parts.append(".")
        elif character == "[":
            end = pattern.find("]", index + 2)
            if end < 0:
                parts.append(re.escape(character))
            else:
                body = pattern[index + 1 : end]
                body = "^" + body[1:] if body[:1] in "!^" else body
                parts.append("[" + body.replace("\\", "\\\\") + "]")
                index = end
        else:
            parts.append(re.escape(character))
        index += 1
    try:
        return re.compile("".join(parts), re.DOTALL)
    except re.error:
        return None


_ARITHMETIC_NAME = lazy_compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$?([A-Za-z_][A-Za-z0-9_]*)")
_INTEGER = lazy_compile(r"-?\d{1,18}")


def with_known_numbers(operator: str, number: Callable[[str], str | None]) -> str:
    """A substring operator (``:$i``, ``:i:${n}``) with each variable the line set to a number
    put in (``:1:2``); a variable it did not set stays, and the slice is not worked out. The
    offset and length are arithmetic to bash: ``$i``, ``${i}`` and a bare ``i`` are the same."""

    def put(match: re.Match[str]) -> str:
        value = number(match.group(1) or match.group(2))
        return f"({value})" if value is not None and _INTEGER.fullmatch(value) else match.group(0)

    return operator[:1] + _ARITHMETIC_NAME.sub(put, operator[1:])


def _sliced(value: str, spec: str) -> str | None:
    """``${x:offset}``, ``${x:offset:length}`` with numbers written in the line (negative ones count
    from the end); None for arithmetic the line does not settle (``${x:$i:1}``)."""
    offset_text, _, length_text = spec.partition(":")
    offset_match = _OFFSET.fullmatch(offset_text)
    if offset_match is None or (length_text and _OFFSET.fullmatch(length_text) is None):
        return None
    offset_value = offset_match.group(1) or offset_match.group(2) or "0"
    if offset_value == "-":
        return None
    offset = int(offset_value)
    if offset > len(value) or len(value) + offset < 0:
        return ""  # bash: an offset past either end gives nothing
    start = len(value) + offset if offset < 0 else offset
    if not spec.count(":"):
        return value[start:]
    length_match = _OFFSET.fullmatch(length_text)
    assert length_match is not None
    length_value = length_match.group(1) or length_match.group(2) or "0"
    if length_value == "-":
        return None
    length = int(length_value)
    end = len(value) + length if length < 0 else start + length
    return value[start:end] if end >= start else None  # bash: "substring expression < 0"
