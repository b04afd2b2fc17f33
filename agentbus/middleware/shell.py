"""Shell command lines, split into the simple commands that bash would run.

The guards judge what a command line *does*, not how it is spelled, so they
need what bash itself would see: ``rm -r -f /``, ``sudo env X=1 /bin/rm -fr ~``
and ``bash -c 'rm -rf /'`` are one command, ``echo "rm -rf /"`` is not.

Word splitting and quote removal are the standard library's :mod:`shlex` (in
POSIX mode, with ``punctuation_chars`` so that ``;``, ``&&``, ``||``, ``|``,
``&``, ``(``, ``)``, redirections and newlines become operator tokens). shlex
knows nothing of expansions, so a scanner runs first and does what shlex
cannot, keeping the quoting rules of bash:

- command substitutions ``$(...)`` and backticks, process substitutions
  ``<(...)`` / ``>(...)`` (they run, even inside double quotes) are cut out,
  parsed on their own and replaced by a placeholder word;
- here-documents are cut out (a shell reading one runs it);
- operator characters that are quoted or escaped (``'a|b'``, ``\\;``) are
  hidden from shlex, so that only real operators split commands;
- comments, line continuations, ``$'...'`` strings and ``$IFS`` are resolved.

A bash parser from PyPI (bashlex) would do more, but the guards are part of
the core, which depends on anyio, attrs and structlog only.

:func:`parse` gives a :class:`Script`; :func:`walk` yields its pipelines as
:class:`Invocation` lists, with wrappers (``sudo``, ``env``, ``nohup``,
``timeout`` ...) resolved and nested scripts (``bash -c``, ``eval``,
substitutions, ``find -exec``, ``ssh host cmd``) visited as well.
"""

from __future__ import annotations

import codecs
import posixpath
import re
import shlex
import warnings
from collections.abc import Iterator, Sequence

import attrs

__all__ = [
    "Invocation",
    "Redirect",
    "Script",
    "ShellMode",
    "ShellSyntaxError",
    "SimpleCommand",
    "Substitution",
    "parse",
    "shell_mode",
    "walk",
]

MAX_DEPTH = 8
"""How deep substitutions and ``bash -c`` strings may nest before parsing gives up."""

_OPERATOR_CHARS = "();<>|&\n"
_HIDE = {c: chr(0xE000 + i) for i, c in enumerate(_OPERATOR_CHARS)}
_REVEAL = str.maketrans({v: k for k, v in _HIDE.items()})
_HIDE_TABLE = str.maketrans(_HIDE)
_SUB_OPEN, _SUB_CLOSE = "\ue020", "\ue021"
_FD = "\ue022"
_PLACEHOLDER = re.compile(f"{_SUB_OPEN}(\\d+){_SUB_CLOSE}")
_OPERATOR = re.compile(r"\|\||&&|;;&|;;|;&|\|&|&>>|&>|>>|>&|>\||<<<|<<|<>|<&|[;&|()<>\n]")
_WORD_START = " \t\r\n;&|()<>"

REDIRECTS = frozenset({">", ">>", "<", "<<", "<<<", "<>", ">|", "&>", "&>>", ">&", "<&"})
"""Redirection operators; the word after one is its target, not an argument."""
_PIPES = frozenset({"|", "|&"})

SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash"})
"""Programs that run shell code."""

_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\+?=")
_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_BRACES = re.compile(r"^(.*?)\{([^{}\s]*,[^{}\s]*)\}(.*)$")


class ShellSyntaxError(ValueError):
    """The command line is not valid shell syntax (an unclosed quote or substitution)."""


@attrs.frozen
class Substitution:
    """Code that runs while the command line is expanded: ``$(...)``, backticks,
    ``<(...)``, ``>(...)``; or a here-document (``kind="<<"``), whose ``text`` is
    the body and whose ``script`` holds only the substitutions it expands."""

    kind: str
    text: str
    script: Script


@attrs.frozen
class Redirect:
    """One redirection: ``op`` is ``>``, ``>>``, ``<``, ``<<`` ...; ``target`` the word after it."""

    op: str
    target: str
    fd: str = ""
    """The file descriptor written before the operator (``2`` in ``2>&1``), if any."""


@attrs.frozen
class SimpleCommand:
    """Words and redirections between two operators, as bash would run them.

    Words are unquoted; a word may hold placeholders for substitutions, which
    :meth:`render` turns back into shell text.
    """

    words: tuple[str, ...]
    redirects: tuple[Redirect, ...]
    substitutions: tuple[Substitution, ...] = attrs.field(repr=False)

    def substitutions_in(self, word: str) -> list[Substitution]:
        """The substitutions a word holds."""
        return [self.substitutions[int(m.group(1))] for m in _PLACEHOLDER.finditer(word)]

    def render(self, word: str) -> str:
        """A word as shell text again: placeholders become ``$(...)`` etc."""

        def original(match: re.Match[str]) -> str:
            sub = self.substitutions[int(match.group(1))]
            if sub.kind == "`":
                return f"`{sub.text}`"
            if sub.kind == "<<":
                return "EOF"
            return f"{sub.kind}{sub.text})"

        return _PLACEHOLDER.sub(original, word)

    def static(self, word: str) -> str | None:
        """The value of a word if it can be known without running anything.

        A substitution that is a lone ``echo``/``printf`` of plain words is
        evaluated (``$(echo rm)`` is ``rm``); any other makes the word dynamic.
        """
        if _SUB_OPEN not in word:
            return word
        parts: list[str] = []
        last = 0
        for match in _PLACEHOLDER.finditer(word):
            parts.append(word[last : match.start()])
            value = _static_output(self.substitutions[int(match.group(1))])
            if value is None:
                return None
            parts.append(value)
            last = match.end()
        parts.append(word[last:])
        return "".join(parts)

    def _shown(self, word: str) -> str:
        return self.render(word) if _SUB_OPEN in word else _quote(word)

    @property
    def text(self) -> str:
        """The command as shell text (for messages)."""
        words = [self._shown(w) for w in self.words]
        words += [f"{r.fd}{r.op}{self._shown(r.target)}" for r in self.redirects if r.op != "<<"]
        words += ["<< EOF" for r in self.redirects if r.op == "<<"]
        return " ".join(words)


@attrs.frozen
class Script:
    """A parsed command line: pipelines of simple commands, plus every substitution."""

    pipelines: tuple[tuple[SimpleCommand, ...], ...]
    substitutions: tuple[Substitution, ...]
    skeleton: str = attrs.field(repr=False)
    """The text with quoted parts hidden and substitutions cut out (for shape checks)."""


@attrs.frozen
class Invocation:
    """One program run: wrappers (``sudo``, ``env`` ...) resolved.

    ``name`` is the program's base name (``/bin/rm`` -> ``rm``), or ``""`` when
    it is computed at run time; ``args`` its arguments; ``wrappers`` the
    programs that ran it; ``env`` the assignments before it.
    """

    name: str
    args: tuple[str, ...]
    command: SimpleCommand
    wrappers: tuple[str, ...] = ()
    env: tuple[str, ...] = ()
    dynamic: bool = False
    cwd: str | None = None
    """The working directory it runs in, as far as ``cd`` earlier in the line tells (None: unknown)."""

    @property
    def text(self) -> str:
        """The simple command as written (for messages)."""
        return self.command.text


@attrs.frozen
class ShellMode:
    """How a shell invocation gets its code: a ``-c`` string, a script file, or stdin."""

    script: str | None
    file: str | None
    reads_stdin: bool
    interactive: bool


def _quote(word: str) -> str:
    if word and all(c.isalnum() or c in "@%+=:,./-_~$*{}[]!?#^`" for c in word):
        return word
    if word and " " not in word and "'" not in word and '"' not in word and "\\" not in word:
        return word
    if "'" in word and not any(c in word for c in '"$`\\'):
        return f'"{word}"'
    return shlex.quote(word)


def _hide(text: str) -> str:
    return text.translate(_HIDE_TABLE)


def _static_output(sub: Substitution) -> str | None:
    if sub.kind not in ("$(", "`") or len(sub.script.pipelines) != 1:
        return None
    pipeline = sub.script.pipelines[0]
    if len(pipeline) != 1:
        return None
    command = pipeline[0]
    words = [command.static(w) for w in command.words]
    if not words or any(w is None for w in words) or command.redirects:
        return None
    name, *args = words
    if name == "echo":
        while args and args[0] in ("-n", "-e", "-E", "-ne", "-en"):
            args = args[1:]
        return " ".join(a for a in args if a is not None)
    if name == "printf" and args:
        template = args[0] or ""
        if "%" in template:
            if template.replace("%s", "") in ("", "\\n"):
                return "".join(a for a in args[1:] if a is not None)
            return None
        return codecs.decode(template.encode("latin-1", "backslashreplace"), "unicode_escape")
    return None


# -- scanning: substitutions, quoting, here-documents -----------------------------------


def _heredoc_delimiter(text: str, i: int) -> tuple[str, bool, bool, int]:
    """At a ``<<``: (delimiter, strip tabs, quoted, index after the delimiter word)."""
    i += 2
    strip_tabs = text.startswith("-", i)
    if strip_tabs:
        i += 1
    while i < len(text) and text[i] in " \t":
        i += 1
    start = i
    while i < len(text) and text[i] not in _WORD_START:
        if text[i] in "'\"":
            close = text.find(text[i], i + 1)
            i = close + 1 if close > 0 else len(text)
        else:
            i += 1
    raw = text[start:i]
    quoted = any(c in raw for c in "'\"\\")
    return raw.replace("'", "").replace('"', "").replace("\\", ""), strip_tabs, quoted, i


def _heredoc_body(text: str, i: int, delimiter: str, strip_tabs: bool) -> tuple[str, int]:
    """The body of a here-document starting at ``i``, and the index after its last line."""
    lines: list[str] = []
    while i < len(text):
        end = text.find("\n", i)
        line = text[i:] if end < 0 else text[i:end]
        i = len(text) if end < 0 else end + 1
        if (line.lstrip("\t") if strip_tabs else line) == delimiter:
            break
        lines.append(line)
    return "\n".join(lines), i


def _closing_paren(text: str, open_index: int) -> int:
    """The index of the ``)`` matching the ``(`` at ``open_index``.

    Quotes and here-documents are skipped: Claude Code writes commit messages as
    ``git commit -m "$(cat <<'EOF' ... EOF\n)"``, and an apostrophe in the
    message is not a quote.
    """
    depth = 0
    i = open_index
    n = len(text)
    heredocs: list[tuple[str, bool]] = []
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "<" and text.startswith("<<", i) and not text.startswith("<<<", i):
            delimiter, strip_tabs, _, i = _heredoc_delimiter(text, i)
            heredocs.append((delimiter, strip_tabs))
            continue
        if c == "<" and text.startswith("<<<", i):
            i += 3
            continue
        if c == "\n" and heredocs:
            i += 1
            for delimiter, strip_tabs in heredocs:
                _, i = _heredoc_body(text, i, delimiter, strip_tabs)
            heredocs = []
            continue
        if c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                break
            i = end + 1
            continue
        if c == '"':
            i = _closing_double_quote(text, i) + 1
            continue
        if c == "`":
            i = _closing_backtick(text, i) + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ShellSyntaxError("unclosed parenthesis: a '(' has no matching ')'")


def _closing_double_quote(text: str, open_index: int) -> int:
    i = open_index + 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i
        if c == "$" and text.startswith("$(", i):
            i = _closing_paren(text, i + 1) + 1
            continue
        if c == "`":
            i = _closing_backtick(text, i) + 1
            continue
        i += 1
    raise ShellSyntaxError("unclosed double quote: a '\"' has no match")


def _closing_backtick(text: str, open_index: int) -> int:
    i = open_index + 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "`":
            return i
        i += 1
    raise ShellSyntaxError("unclosed backtick: a '`' has no match")


def _ansi_c(body: str) -> str:
    # Python warns about escapes bash accepts (``\;``): they mean themselves here too.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            return codecs.decode(body.encode("latin-1", "backslashreplace"), "unicode_escape")
        except UnicodeDecodeError:
            return body


class _Scanner:
    """Turns a command line into text for shlex plus a list of substitutions."""

    def __init__(self, text: str, depth: int) -> None:
        self.text = text
        self.depth = depth
        self.out: list[str] = []
        self.subs: list[Substitution | None] = []
        self.heredocs: list[tuple[int, str, bool, bool]] = []

    def substitution(self, kind: str, inner: str) -> None:
        if self.depth >= MAX_DEPTH:
            raise ShellSyntaxError(f"substitutions nest more than {MAX_DEPTH} deep")
        self.subs.append(Substitution(kind, inner, parse(inner, _depth=self.depth + 1)))
        self.out.append(f"{_SUB_OPEN}{len(self.subs) - 1}{_SUB_CLOSE}")

    def dollar(self, i: int, quoted: bool) -> int:
        """Handle a ``$`` at ``i``; return the index after what was consumed."""
        text = self.text
        if text.startswith("$((", i):
            end = _closing_paren(text, i + 1)
            self.out.append(_hide(text[i : end + 1]))
            return end + 1
        if text.startswith("$(", i):
            end = _closing_paren(text, i + 1)
            self.substitution("$(", text[i + 2 : end])
            return end + 1
        if text.startswith("${", i):
            end = text.find("}", i)
            if end < 0:
                raise ShellSyntaxError("unclosed ${: a '${' has no matching '}'")
            name = text[i + 2 : end]
            # ${IFS} unquoted is a word break: rm${IFS}-rf${IFS}/ is rm -rf /.
            self.out.append(" " if not quoted and name.startswith("IFS") else _hide(text[i : end + 1]))
            return end + 1
        if not quoted and text.startswith("$'", i):
            end = i + 2
            while end < len(text) and text[end] != "'":
                end += 2 if text[end] == "\\" else 1
            if end >= len(text):
                raise ShellSyntaxError("unclosed $'...' string")
            value = _ansi_c(text[i + 2 : end])
            self.out.append("'" + _hide(value).replace("'", "'\\''") + "'")
            return end + 1
        if not quoted and re.match(r"\$IFS(?![A-Za-z0-9_])", text[i:]):
            self.out.append(" ")
            return i + 4
        self.out.append("$")
        return i + 1

    def backtick(self, i: int) -> int:
        end = _closing_backtick(self.text, i)
        self.substitution("`", self.text[i + 1 : end].replace("\\`", "`"))
        return end + 1

    def heredoc(self, i: int) -> int:
        """A ``<<`` at ``i``: read the delimiter now, the body at the next newline."""
        delimiter, strip_tabs, quoted, i = _heredoc_delimiter(self.text, i)
        self.subs.append(None)
        index = len(self.subs) - 1
        self.heredocs.append((index, delimiter, strip_tabs, quoted))
        self.out.append(f"<< {_SUB_OPEN}{index}{_SUB_CLOSE} ")
        return i

    def heredoc_bodies(self, i: int) -> int:
        """Read the bodies of pending here-documents from ``i`` (after a newline)."""
        for index, delimiter, strip_tabs, quoted in self.heredocs:
            body, i = _heredoc_body(self.text, i, delimiter, strip_tabs)
            expansions: list[Substitution] = []
            if not quoted:
                expansions = _body_substitutions(body, self.depth)
            script = Script(pipelines=(), substitutions=tuple(expansions), skeleton="")
            self.subs[index] = Substitution("<<", body, script)
        self.heredocs = []
        return i

    def run(self) -> tuple[str, tuple[Substitution, ...]]:
        text = self.text
        out = self.out
        n = len(text)
        i = 0
        in_double = False
        while i < n:
            c = text[i]
            if in_double:
                if c == '"':
                    in_double = False
                    out.append(c)
                    i += 1
                elif c == "\\" and i + 1 < n:
                    nxt = text[i + 1]
                    if nxt == "\n":
                        pass
                    elif nxt in "$`":
                        out.append(nxt)
                    elif nxt in '"\\':
                        out.append(text[i : i + 2])
                    else:
                        out.append("\\" + _HIDE.get(nxt, nxt))
                    i += 2
                elif c == "$":
                    i = self.dollar(i, quoted=True)
                elif c == "`":
                    i = self.backtick(i)
                else:
                    out.append(_HIDE.get(c, c))
                    i += 1
                continue
            if c == "'":
                end = text.find("'", i + 1)
                if end < 0:
                    raise ShellSyntaxError('unclosed single quote: a "\'" has no match')
                out.append("'" + _hide(text[i + 1 : end]) + "'")
                i = end + 1
            elif c == '"':
                in_double = True
                out.append(c)
                i += 1
            elif c == "\\":
                if i + 1 >= n:
                    i += 1
                    continue
                nxt = text[i + 1]
                if nxt != "\n":
                    out.append(_HIDE[nxt] if nxt in _HIDE else text[i : i + 2])
                i += 2
            elif (
                c.isdigit()
                and (i == 0 or text[i - 1] in _WORD_START)
                and (fd := re.match(r"\d+(?=[<>])", text[i:]))
            ):
                # 2>&1: the digits name a file descriptor, they are not an argument.
                out.append(f" {_FD}{fd.group(0)} ")
                i += fd.end()
            elif c == "#" and (i == 0 or text[i - 1] in _WORD_START):
                end = text.find("\n", i)
                i = n if end < 0 else end
            elif c == "\n" and self.heredocs:
                out.append(c)
                i = self.heredoc_bodies(i + 1)
            elif c == "<" and text.startswith("<<<", i):
                out.append("<<<")
                i += 3
            elif c == "<" and text.startswith("<<", i):
                i = self.heredoc(i)
            elif c in "<>" and text.startswith("(", i + 1):
                end = _closing_paren(text, i + 1)
                self.substitution(c + "(", text[i + 2 : end])
                i = end + 1
            elif c == "$":
                i = self.dollar(i, quoted=False)
            elif c == "`":
                i = self.backtick(i)
            else:
                out.append(c)
                i += 1
        if in_double:
            raise ShellSyntaxError("unclosed double quote: a '\"' has no match")
        if self.heredocs:
            self.heredoc_bodies(n)
        subs = tuple(s if s is not None else Substitution("<<", "", _EMPTY) for s in self.subs)
        return "".join(out), subs


_EMPTY = Script(pipelines=(), substitutions=(), skeleton="")


def _body_substitutions(body: str, depth: int) -> list[Substitution]:
    """The ``$(...)`` and backtick substitutions an unquoted here-document expands."""
    scanner = _Scanner(body, depth)
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            i += 2
        elif c == "$" and body.startswith("$(", i) and not body.startswith("$((", i):
            try:
                end = _closing_paren(body, i + 1)
            except ShellSyntaxError:
                break
            scanner.substitution("$(", body[i + 2 : end])
            i = end + 1
        elif c == "`":
            try:
                i = scanner.backtick(i)
            except ShellSyntaxError:
                break
        else:
            i += 1
    return [s for s in scanner.subs if s is not None]


# -- parsing: tokens -> simple commands -> pipelines ------------------------------------


def parse(text: str, *, _depth: int = 0) -> Script:
    """Parse a command line; raise :class:`ShellSyntaxError` if bash could not either."""
    masked, subs = _Scanner(text, _depth).run()
    lexer = shlex.shlex(masked, posix=True, punctuation_chars=_OPERATOR_CHARS)
    lexer.whitespace = " \t\r"  # a newline separates commands; shlex would eat it
    lexer.whitespace_split = True
    lexer.commenters = ""  # comments were removed by the scanner, which knows word starts
    try:
        tokens = list(lexer)
    except ValueError as exc:  # shlex: "No closing quotation", "No escaped character"
        raise ShellSyntaxError(str(exc)) from None
    builder = _Builder(subs)
    for token in tokens:
        if token and all(c in _OPERATOR_CHARS for c in token):
            for op in _OPERATOR.findall(token):
                builder.operator(op)
        else:
            builder.word(token.translate(_REVEAL))
    builder.end_pipeline()
    return Script(tuple(builder.pipelines), subs, masked)


class _Builder:
    def __init__(self, subs: tuple[Substitution, ...]) -> None:
        self.subs = subs
        self.pipelines: list[tuple[SimpleCommand, ...]] = []
        self.pipeline: list[SimpleCommand] = []
        self.words: list[str] = []
        self.redirects: list[Redirect] = []
        self.pending: str | None = None
        self.fd = ""
        self.variables: dict[str, str] = {}

    def word(self, word: str) -> None:
        if word.startswith(_FD):
            self.fd = word[len(_FD) :]
            return
        if self.pending is not None:
            self.redirects.append(Redirect(self.pending, word, self.fd))
            self.pending = None
            self.fd = ""
        else:
            self.words.append(word)

    def operator(self, op: str) -> None:
        if op in REDIRECTS:
            self.pending = op
            return
        self.pending = None
        self.end_command()
        # A subshell's parentheses end a command, not a pipeline: (curl x) | sh.
        if op not in _PIPES and op not in ("(", ")"):
            self.end_pipeline()

    def end_command(self) -> None:
        words, redirects = self.words, self.redirects
        self.words, self.redirects = [], []
        if not words and not redirects:
            return
        if words and all(_ASSIGNMENT.match(w) for w in words):
            # NAME=value alone sets a shell variable: remember it for later words.
            for word in words:
                name, _, value = word.partition("=")
                if _SUB_OPEN not in value:
                    self.variables[name.rstrip("+")] = value
        words = [expanded for w in words for expanded in self.expand(w)]
        self.pipeline.append(SimpleCommand(tuple(words), tuple(redirects), self.subs))

    def end_pipeline(self) -> None:
        self.end_command()
        if self.pipeline:
            self.pipelines.append(tuple(self.pipeline))
            self.pipeline = []

    def expand(self, word: str) -> list[str]:
        """Known variables and brace expansion (``{rm,-rf,/}``), as bash would."""
        if "$" in word and self.variables:

            def value(match: re.Match[str]) -> str:
                name = match.group(1) or match.group(2)
                return self.variables.get(name, match.group(0))

            word = _VARIABLE.sub(value, word)
        match = _BRACES.match(word)
        if match is None:
            return [word]
        head, body, tail = match.groups()
        return [head + part + tail for part in body.split(",")]


# -- resolving wrappers and nested scripts ----------------------------------------------


@attrs.frozen
class _Wrapper:
    short_values: str = ""
    long_values: frozenset[str] = frozenset()
    positionals: int = 0


_WRAPPERS: dict[str, _Wrapper] = {
    "sudo": _Wrapper("ugCDhprtTU", frozenset({"--user", "--group", "--close-from", "--chdir", "--host",
                                              "--prompt", "--role", "--type", "--command-timeout",
                                              "--other-user"})),
    "doas": _Wrapper("uC"),
    "env": _Wrapper("uCP", frozenset({"--unset", "--chdir"})),
    "nohup": _Wrapper(),
    "nice": _Wrapper("n", frozenset({"--adjustment"})),
    "ionice": _Wrapper("cnpPuU", frozenset({"--class", "--classdata"})),
    "time": _Wrapper("fo", frozenset({"--format", "--output"})),
    "command": _Wrapper(),
    "builtin": _Wrapper(),
    "exec": _Wrapper("a"),
    "timeout": _Wrapper("sk", frozenset({"--signal", "--kill-after"}), positionals=1),
    "xargs": _Wrapper("IdEaLnPs", frozenset({"--delimiter", "--eof", "--arg-file", "--max-lines",
                                            "--max-args", "--max-procs", "--max-chars",
                                            "--replace"})),
    "stdbuf": _Wrapper("ioe", frozenset({"--input", "--output", "--error"})),
    "setsid": _Wrapper(),
    "chronic": _Wrapper(),
    "unbuffer": _Wrapper(),
    "caffeinate": _Wrapper("tw"),
    "strace": _Wrapper("abeEoOpPsSUuX"),
    "ltrace": _Wrapper("aenoOpsuX"),
    "flock": _Wrapper("wEc", frozenset({"--timeout", "--conflict-exit-code", "--command"}), positionals=1),
    "chroot": _Wrapper("", frozenset({"--userspec", "--groups"}), positionals=1),
    "busybox": _Wrapper(),
    "proxychains": _Wrapper("f"),
    "proxychains4": _Wrapper("f"),
    "torsocks": _Wrapper("uap"),
    "runuser": _Wrapper("ugG", frozenset({"--user", "--group", "--supp-group"})),
    "fakeroot": _Wrapper("ls"),
    "firejail": _Wrapper(),
    "systemd-run": _Wrapper("pEuM", frozenset({"--property", "--setenv", "--unit", "--uid"})),
}  # fmt: skip
"""Programs that run the rest of their arguments as a command, with the options
that take a value (so that the value is not mistaken for the command)."""

_RESERVED = frozenset({"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}",
                       "[[", "]]", "esac", "coproc"})  # fmt: skip
_SSH_VALUES = "BbcDEeFIiJLlmOopQRSWw"


def _skip_options(words: Sequence[str], i: int, spec: _Wrapper) -> int:
    """Index of the first word after the options (and fixed positionals) of a wrapper."""
    n = len(words)
    while i < n:
        word = words[i]
        if word == "--":
            i += 1
            break
        if word.startswith("--"):
            i += 2 if word in spec.long_values else 1
            continue
        if word.startswith("-") and len(word) > 1:
            i += 1
            for index, char in enumerate(word[1:], start=1):
                if char in spec.short_values:
                    if index == len(word) - 1:
                        i += 1  # the value is the next word
                    break
            continue
        break
    return min(i + spec.positionals, n)


def _basename(word: str) -> str:
    return posixpath.basename(word.rstrip("/")) if "/" in word else word


def shell_mode(invocation: Invocation) -> ShellMode:
    """How a shell (``bash``, ``sh`` ...) invocation gets the code it runs."""
    args = invocation.args
    command = invocation.command
    has_c = reads_stdin = interactive = False
    i = 0
    while i < len(args):
        word = args[i]
        if word in ("--", "-"):
            i += 1 if word == "--" else 0
            break
        if word.startswith("--"):
            i += 2 if word in ("--rcfile", "--init-file") else 1
            continue
        if word[:1] in "-+" and len(word) > 1:
            flags = word[1:]
            has_c = has_c or "c" in flags
            reads_stdin = reads_stdin or "s" in flags
            interactive = interactive or "i" in flags
            i += 2 if flags[-1] in "oO" else 1
            continue
        break
    rest = args[i:]
    if has_c:
        return ShellMode(command.render(rest[0]) if rest else "", None, False, interactive)
    if rest and not reads_stdin:
        file = rest[0]
        return ShellMode(None, file, file in ("-", "/dev/stdin"), interactive)
    return ShellMode(None, None, True, interactive)


def _resolve(command: SimpleCommand) -> tuple[Invocation | None, list[str]]:
    """The program a simple command runs, and shell code it hands on (``eval``, ``-c`` ...)."""
    lead = 0
    while lead < len(command.words):
        if command.words[lead] in _RESERVED:
            lead += 1
        elif command.words[lead] == "function":  # function NAME { BODY }: the body follows
            lead += 2
        else:
            break
    if lead:
        # "then rm -rf /", "{ rm -rf ~": the keywords are not part of the command.
        command = SimpleCommand(command.words[lead:], command.redirects, command.substitutions)
    words = list(command.words)
    wrappers: list[str] = []
    env: list[str] = []
    nested: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if _ASSIGNMENT.match(word):
            env.append(word)
            i += 1
            continue
        static = command.static(word)
        name = _basename(static) if static is not None else ""
        if name in _RESERVED:
            i += 1
            continue
        if name == "env":
            i += 1
            while i < len(words):
                arg = words[i]
                if arg in ("-S", "--split-string") or arg.startswith(("-S", "--split-string=")):
                    split = arg.partition("=")[2] if arg.startswith("--") else arg[2:]
                    if not split:
                        i += 1
                        split = words[i] if i < len(words) else ""
                    rest = " ".join(shlex.quote(command.render(w)) for w in words[i + 1 :])
                    nested.append(f"{command.render(split)} {rest}")
                    return None, nested
                if _ASSIGNMENT.match(arg):
                    env.append(arg)
                    i += 1
                elif arg == "-":  # the same as -i
                    i += 1
                elif arg.startswith("-"):
                    i = _skip_options(words, i, _WRAPPERS["env"])
                else:
                    break
            wrappers.append("env")
            continue
        if name == "command" and i + 1 < len(words) and words[i + 1] in ("-v", "-V"):
            return None, nested  # a lookup, not a run
        if name in ("su", "runuser") and ("-c" in words[i + 1 :] or "--command" in words[i + 1 :]):
            after = words[i + 1 :]
            index = after.index("-c" if "-c" in after else "--command")
            if index + 1 < len(after):
                nested.append(command.render(after[index + 1]))
            return Invocation(name, tuple(after), command, tuple(wrappers), tuple(env)), nested
        if name == "watch":
            start = _skip_options(words, i + 1, _Wrapper("nq", frozenset({"--interval"})))
            nested.append(" ".join(command.render(w) for w in words[start:]))
            return None, nested
        if name == "ssh":
            start = _skip_options(words, i + 1, _Wrapper(_SSH_VALUES, positionals=1))
            if start < len(words):
                nested.append(" ".join(command.render(w) for w in words[start:]))
            return Invocation(name, tuple(words[i + 1 :]), command, tuple(wrappers), tuple(env)), nested
        spec = _WRAPPERS.get(name)
        if spec is not None and i + 1 < len(words):
            wrappers.append(name)
            i = _skip_options(words, i + 1, spec)
            continue
        break
    if i >= len(words):
        if command.redirects and not words:
            # "> /dev/sda" alone: no program, but the redirection still happens.
            return Invocation("", (), command, tuple(wrappers), tuple(env)), nested
        return None, nested
    head = words[i]
    static = command.static(head)
    name = _basename(static) if static is not None else ""
    args = tuple(words[i + 1 :])
    if static is not None and " " in static.strip():
        # $(echo rm -rf) /: the substitution's words are split into several.
        parts = static.split()
        name, args = _basename(parts[0]), (*parts[1:], *args)
    invocation = Invocation(name, args, command, tuple(wrappers), tuple(env), dynamic=static is None)
    if name == "eval" and args:
        nested.append(" ".join(command.render(w) for w in args))
    elif name in SHELLS:
        mode = shell_mode(invocation)
        if mode.script:
            nested.append(mode.script)
        for redirect in command.redirects:
            if redirect.op == "<<<":
                nested.append(command.render(redirect.target))
            elif redirect.op == "<<":
                nested.extend(sub.text for sub in command.substitutions_in(redirect.target))
    return invocation, nested


def _find_exec(invocation: Invocation) -> list[SimpleCommand]:
    """The commands ``find ... -exec CMD {} ;`` runs."""
    found: list[SimpleCommand] = []
    args = invocation.args
    i = 0
    while i < len(args):
        if args[i] in ("-exec", "-execdir", "-ok", "-okdir"):
            end = i + 1
            while end < len(args) and args[end] not in (";", "+"):
                end += 1
            words = args[i + 1 : end]
            if words:
                found.append(SimpleCommand(tuple(words), (), invocation.command.substitutions))
            i = end
        i += 1
    return found


def _changed_directory(stages: list[Invocation], cwd: str | None) -> str | None:
    """The working directory after a pipeline: ``cd DIR`` alone changes it."""
    if len(stages) != 1 or stages[0].name not in ("cd", "pushd"):
        return cwd
    cd = stages[0]
    targets = [cd.command.static(a) for a in cd.args if not a.startswith("-") or a == "-"]
    if not targets:
        return "~"
    target = targets[0]
    if target is None or target == "-":
        return None
    if target.startswith(("/", "~", "$HOME", "${HOME")):
        return target
    return f"{cwd.rstrip('/')}/{target}" if cwd else None


def walk(script: Script, *, cwd: str | None = None, _depth: int = 0) -> Iterator[list[Invocation]]:
    """Every pipeline that running ``script`` may run, as lists of invocations.

    Nested code is visited too: substitutions, here-documents fed to a shell,
    ``bash -c``/``sh -c``/``eval``/``su -c``/``env -S``/``watch``/``ssh host``
    strings, ``find -exec``. Strings that do not parse are skipped here; the
    guard decides what an unparseable command means. ``cwd`` is the directory
    the line starts in; ``cd`` moves it for the commands after it.
    """
    start = cwd
    for pipeline in script.pipelines:
        stages: list[Invocation] = []
        nested: list[str] = []
        for command in pipeline:
            invocation, handed_on = _resolve(command)
            nested.extend(handed_on)
            if invocation is not None:
                invocation = attrs.evolve(invocation, cwd=cwd)
                stages.append(invocation)
                if invocation.name == "find":
                    for exec_command in _find_exec(invocation):
                        exec_invocation, exec_code = _resolve(exec_command)
                        nested.extend(exec_code)
                        if exec_invocation is not None:
                            yield [attrs.evolve(exec_invocation, cwd=cwd)]
        if stages:
            yield stages
        if _depth < MAX_DEPTH:
            for code in nested:
                try:
                    inner = parse(code, _depth=_depth + 1)
                except ShellSyntaxError:
                    continue
                yield from walk(inner, cwd=cwd, _depth=_depth + 1)
        cwd = _changed_directory(stages, cwd)
    for sub in script.substitutions:
        yield from walk(sub.script, cwd=start, _depth=_depth + 1)
