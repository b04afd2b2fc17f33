"""PowerShell's here-strings, judged as what they are: text written to a file or fed to a program.

Claude Code's PowerShell tool, and Codex on Windows (its shell tool runs PowerShell), send
PowerShell where the guards read bash. Most of it reads alike (``git status``, ``npm test``), but
a here-string (``@'`` newline … newline ``'@``) does not: bash takes its body, broken at every
quote, for code, so a TypeScript file written with ``@'…'@ | Set-Content src\\app.ts`` was
asked about as an unread script. Inside :func:`shell_dialect` ``"powershell"`` each here-string
that begins a statement and goes to ``Set-Content``/``Out-File``/``Add-Content``, to a
redirection, or to a program's input is read as bash's quoted here-document to the same place
(``cat > src/app.ts <<'EOF'``): the body is judged as the content of the file it is written to
(a secret file or a profile is still held by the file rules) or as the script a program reads
(``| python -``, ``| powershell -Command -``), never as bash code. Anything the reading does not
know (a target it computes, an option it has not seen, a here-string stored in a variable for
anything but ``Invoke-Expression``) is left as it was: the bash reading, which holds more. A
here-string stored in a variable that ``Invoke-Expression`` then runs is judged as that script.

PowerShell's escape character is the backtick (```t``, ```n``, ```"``, a line's continuation), never
a command substitution; bash reads the text between two of them as code. Outside single-quoted
strings each backtick escape is read as bash's backslash escape of the same character.
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import re
from collections.abc import Iterator, Mapping

__all__ = ["POWERSHELLS", "as_bash", "reading_powershell", "shell_dialect", "shell_of_hook_call"]

_DIALECT: contextvars.ContextVar[str] = contextvars.ContextVar("agentbus_shell_dialect", default="bash")


@contextlib.contextmanager
def shell_dialect(name: str) -> Iterator[None]:
    """Judge the exec calls made inside as written for ``name``'s shell (``"powershell"`` or ``"bash"``)."""
    token = _DIALECT.set(name)
    try:
        yield
    finally:
        _DIALECT.reset(token)


def reading_powershell() -> bool:
    """Whether the exec calls judged now are PowerShell (inside :func:`shell_dialect`)."""
    return _DIALECT.get() == "powershell"


_WINDOWS_DIRECTORY = re.compile(r"[A-Za-z]:[\\/]")


def shell_of_hook_call(tool_name: str, payload: Mapping[str, object]) -> str:
    """Which shell runs a hook's exec call: Claude Code's PowerShell tool, and Codex's shell on Windows
    (a drive-letter ``cwd`` and a transcript under ``.codex``), run PowerShell; anything else bash."""
    if tool_name == "PowerShell":
        return "powershell"
    if tool_name != "Bash":
        return "bash"
    cwd, transcript = payload.get("cwd"), payload.get("transcript_path")
    on_windows = isinstance(cwd, str) and _WINDOWS_DIRECTORY.match(cwd) is not None
    from_codex = isinstance(transcript, str) and re.search(r"[\\/]\.codex[\\/]", transcript) is not None
    return "powershell" if on_windows and from_codex else "bash"


# A here-string opens at the end of a line (``@'`` and nothing after it) and closes at the start of
# one (``'@``); one that begins a statement (a line's start, or after ``;``) is a pipeline's head.
_OPENING = re.compile(r"(?m)(^|;)([ \t]*)(?:\$(\w+)[ \t]*=[ \t]*)?@(['\"])[ \t]*\r?\n")
# ``Invoke-Expression $name`` as the next statement after a here-string stored in ``$name``.
_INVOKED = re.compile(
    r"[ \t]*(?:;|\r?\n)[ \t]*(?i:Invoke-Expression|iex)(?:[ \t]+-Command)?[ \t]+\$(\w+)[ \t]*"
)
_WRITERS = {"set-content": ">", "sc": ">", "out-file": ">", "add-content": ">>", "ac": ">>"}
_SWITCHES = frozenset({"-nonewline", "-force", "-append", "-noclobber", "-confirm", "-whatif", "-passthru"})
_VALUED = frozenset({"-encoding", "-width", "-stream"})
_PATH_OPTIONS = frozenset({"-path", "-literalpath", "-filepath", "-pspath", "-lp"})
POWERSHELLS = frozenset({"powershell", "powershell.exe", "pwsh", "pwsh.exe"})
"""PowerShell's program names, Windows' and the cross-platform one's (one table for every guard)."""
_STDIN_SCRIPT = frozenset({"-command", "-c", "-file", "-f"})
# A word the reading knows: quoted without expansions, or bare without a character PowerShell gives
# a meaning to (a variable, a sub-expression, an escape, a wildcard, a script block).
_WORD = re.compile(r"""'[^'\n]*'|"[^"$`\n]*"|[^\s'"$`()\[\]{}|;&<>*?,@#]+""")


# The home and the profile as PowerShell names them in a path it writes to.
_HOME = re.compile(
    r"(?i)(?<![\w$])(?:\$env:USERPROFILE|\$\{env:USERPROFILE\}|\$env:HOME|\$HOME)(?=[\\/\s]|$)"
)
_PROFILE = re.compile(
    r"(?i)(?<![\w$])\$PROFILE(?:\.(?:CurrentUser|AllUsers)(?:CurrentHost|AllHosts))?(?=\s|$)"
)
_PROFILE_PATH = "~/Documents/PowerShell/Microsoft.PowerShell_profile.ps1"


def _words(text: str) -> list[str] | None:
    """``text`` as words, or None if it holds what the reading does not know."""
    words: list[str] = []
    position, end = 0, len(text)
    while position < end:
        if text[position] in " \t":
            position += 1
            continue
        found = _WORD.match(text, position)
        if found is None or (found.end() < end and text[found.end()] not in " \t"):
            return None
        words.append(found.group())
        position = found.end()
    return words


def _unquoted(word: str) -> str:
    return word[1:-1] if word[:1] in ("'", '"') else word


def _bash_path(word: str) -> str:
    """A PowerShell path as bash names it: separators as ``/``, the home as ``~``, quoted."""
    path = _unquoted(word).replace("\\", "/")
    if path == "~" or path.startswith("~/"):
        return "~" + _quoted(path[1:]) if len(path) > 1 else "~"
    return _quoted(path)


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _writer_target(words: list[str]) -> str | None:
    """The one file ``Set-Content``/``Out-File``/``Add-Content`` writes, from their words; None when
    an option is unknown, a value is missing, or there is not exactly one path."""
    paths: list[str] = []
    index = 0
    while index < len(words):
        word = words[index].lower()
        if word in _SWITCHES:
            index += 1
        elif word in _VALUED or word in _PATH_OPTIONS:
            if index + 1 >= len(words) or words[index + 1].startswith("-"):
                return None
            if word in _PATH_OPTIONS:
                paths.append(words[index + 1])
            index += 2
        elif word.startswith("-"):
            return None
        else:
            paths.append(words[index])
            index += 1
    return _bash_path(paths[0]) if len(paths) == 1 else None


def _destination(tail: str, depth: int) -> tuple[str, bool] | None:
    """Where the text of a here-string followed by ``tail`` goes, in bash: (the command before
    ``<<``, whether the body is PowerShell code to read as such). None when the reading does not know."""
    tail = tail.strip()
    if not tail:
        return "cat", False
    redirect = re.fullmatch(r"(>>?)[ \t]*(.+)", tail)
    if redirect:
        words = _words(redirect.group(2))
        return (
            (f"cat {redirect.group(1)} {_bash_path(words[0])}", False) if words and len(words) == 1 else None
        )
    if not tail.startswith("|"):
        return None
    words = _words(_HOME.sub("~", _PROFILE.sub(_PROFILE_PATH, tail[1:])))
    if not words:
        return None
    name = words[0].lower()
    if name in _WRITERS:
        target = _writer_target(words[1:])
        append = name == "out-file" and any(w.lower() == "-append" for w in words[1:])
        return (f"cat {'>>' if append else _WRITERS[name]} {target}", False) if target else None
    if name in POWERSHELLS:
        lowered = [w.lower() for w in words]
        piped = any(a in _STDIN_SCRIPT and b == "-" for a, b in itertools.pairwise(lowered))
        if piped and depth == 0:
            return "", True  # the body runs here as PowerShell: read in place
        return None
    if name.startswith("-") or "\\" in words[0] or "/" in words[0]:
        return None
    return " ".join(w if w[:1] != '"' else _quoted(w[1:-1]) for w in words), False


def as_bash(command: str, *, depth: int = 0) -> str:
    """``command`` (PowerShell) with the here-strings it writes or pipes rewritten as bash's
    here-documents to the same place; the rest as it was. Linear in the command."""
    pieces: list[str] = []
    position = read_until = 0
    for opening in _OPENING.finditer(command):
        if opening.start() < read_until:
            continue  # inside a here-string already seen
        variable, quote = opening.group(3), opening.group(4)
        body_start = opening.end()
        closing = re.compile(rf"(?m)^{quote}@").search(command, body_start)
        if closing is None:
            break
        read_until = closing.end()
        body = command[body_start : closing.start()].removesuffix("\n").removesuffix("\r")
        if re.search(rf"(?m)^[ \t]+{quote}@", body):
            continue  # a closing indented: PowerShell versions differ on it, so keep the bash reading
        if variable is not None:
            invoked = _INVOKED.match(command, closing.end())
            if depth or invoked is None or invoked.group(1).lower() != variable.lower():
                continue
            if invoked.end() < len(command) and command[invoked.end()] not in ";\r\n":
                continue
            pieces.append(_escapes_as_bash(command[position : opening.start()]) + opening.group(1))
            pieces.append(opening.group(2) + as_bash(body, depth=depth + 1))
            position = read_until = invoked.end()
            continue
        line_end = command.find("\n", closing.end())
        line_end = len(command) if line_end < 0 else line_end
        tail = command[closing.end() : line_end]
        statement_end = tail.find(";")
        rest = ""
        if statement_end >= 0:
            tail, rest = tail[:statement_end], tail[statement_end:]
        destination = _destination(tail, depth)
        if destination is None:
            continue
        program, is_code = destination
        pieces.append(
            _escapes_as_bash(command[position : opening.start()]) + opening.group(1) + opening.group(2)
        )
        if is_code:
            pieces.append(as_bash(body, depth=depth + 1))
        else:
            literal = quote == "'"
            pieces.append(
                _here_document(program, body if literal else _escapes_as_bash(body, quoted=True), literal)
            )
        pieces.append(_escapes_as_bash(rest))
        position = read_until = line_end
    pieces.append(_escapes_as_bash(command[position:]))
    return "".join(pieces)


# A backtick escape, a quote, or the opening of a here-string (whose body is one string).
_ESCAPE_OR_QUOTE = re.compile(r"`.|\"|'|@(['\"])[ \t]*\r?\n", re.DOTALL)
# The characters bash's backslash escapes alike: a letter, a quote, ``$``, a backtick, a line's end.
_ESCAPABLE = re.compile(r"[A-Za-z0-9`$\"'\r\n]")


def _escapes_as_bash(text: str, *, quoted: bool = False) -> str:
    """``text`` (PowerShell, outside here-strings the rewrite reads; a ``@"`` body when ``quoted``)
    with each backtick escape outside single-quoted strings as bash's backslash escape. Linear."""
    if "`" not in text:
        return text
    pieces: list[str] = []
    start = position = 0
    in_double = quoted
    while (found := _ESCAPE_OR_QUOTE.search(text, position)) is not None:
        token = found.group()
        position = found.end()
        if token[0] == "`":
            if _ESCAPABLE.fullmatch(token[1]):
                pieces.append(text[start : found.start()] + "\\")
                start = found.start() + 1
        elif quoted:
            continue  # a ``@"`` body: its quotes are text
        elif token == '"':
            in_double = not in_double
        elif token == "'":
            if in_double:
                continue
            end = text.find("'", position)
            if end < 0:
                break
            position = end + 1
        elif in_double:
            in_double = found.group(1) != '"'  # ``@"`` inside a string: its quote closes the string
        else:  # a here-string: its body is one string
            closing = text.find("\n" + found.group(1) + "@", position - 1)
            if closing < 0:
                break
            if found.group(1) == '"':
                pieces.append(text[start:position] + _escapes_as_bash(text[position:closing], quoted=True))
                start = closing
            position = closing + 3
    pieces.append(text[start:])
    return "".join(pieces)


def _here_document(program: str, body: str, literal: bool) -> str:
    """``program <<'END'`` (``<<END`` for a ``@"`` here-string, whose ``$`` expands) with ``body``."""
    lines = set(body.split("\n"))
    delimiter = "POWERSHELL_HERE_STRING"
    while delimiter in lines:
        delimiter += "_"
    opener = f"'{delimiter}'" if literal else delimiter
    return f"{program} <<{opener}\n{body}\n{delimiter}"
