"""What a CMake file runs and fetches: ``execute_process``, custom commands, ``FetchContent``.

``cmake -B build`` runs the project's ``CMakeLists.txt`` (and the toolchain file, the initial
cache script and the files they include): ``execute_process(COMMAND …)`` runs while it
configures, ``add_custom_command``/``add_custom_target`` and ``ExternalProject_Add``'s
``*_COMMAND`` steps while it builds. :func:`commands` gives those command lines, each with the
line it starts on, for :mod:`.script_files` to judge as a Makefile's recipes are.

``FetchContent_Declare``, ``ExternalProject_Add`` and ``file(DOWNLOAD …)`` fetch code from the
network when the project configures or builds, and FetchContent's ``MakeAvailable`` runs the
fetched ``CMakeLists.txt`` at once: :func:`fetched_urls` names what they fetch, so that a fetch the
agent writes into the build (with a file tool or the shell) is the clone tracker's
(:mod:`.clones`): the build that follows runs code nobody has seen, and is asked about.

The reader is one linear pass over the text: comments (``#`` to the end of the line; ``#[[ … ]]``
brackets), quoted arguments (``"…"`` with ``\\"``) and bracket arguments (``[[ … ]]``) are skipped
as CMake skips them; a command's arguments end at its closing parenthesis.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator

from ..lazy_regex import lazy_compile

__all__ = [
    "FILES",
    "Call",
    "calls",
    "commands",
    "fetched_urls",
    "included_files",
    "is_cmake_file",
    "subdirectories",
]

FILES = ("CMakeLists.txt",)
_SUFFIX = ".cmake"
_CALL = lazy_compile(r"([A-Za-z_][A-Za-z0-9_]*)[ \t]*\(")
_WORD = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MAX_CALLS = 4096
"""The calls of one file read (a larger file: the rest is not read)."""
_RUNS = frozenset({"execute_process", "add_custom_command", "add_custom_target", "externalproject_add",
                   "externalproject_add_step", "fetchcontent_declare", "fetchcontent_populate"})  # fmt: skip
"""The commands whose ``COMMAND`` (and ``*_COMMAND``) arguments name a program run."""
_FETCHES = frozenset({"fetchcontent_declare", "fetchcontent_populate", "externalproject_add", "file"})
_URL_KEYS = frozenset({"URL", "GIT_REPOSITORY", "SVN_REPOSITORY", "HG_REPOSITORY", "CVS_REPOSITORY",
                       "DOWNLOAD"})  # fmt: skip
_COMMAND_KEY = lazy_compile(r"^(?:[A-Z]+_)?COMMAND$")
_KEYWORD = lazy_compile(r"^[A-Z][A-Z0-9_]*$")
_NETWORK = lazy_compile(r"^(?:[a-z][a-z0-9+.-]*://|git@|[\w.-]+@[\w.-]+:)", re.IGNORECASE)


def is_cmake_file(path: str) -> bool:
    """``CMakeLists.txt`` or a ``.cmake`` file (a module, a toolchain file, an initial cache)."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return name in FILES or name.endswith(_SUFFIX)


class Call:
    """One command call of a CMake file: its name (lower case), the line it starts on, its
    arguments (quotes removed)."""

    __slots__ = ("arguments", "line", "name")

    def __init__(self, name: str, line: int, arguments: list[str]) -> None:
        self.name = name
        self.line = line
        self.arguments = arguments


def calls(text: str) -> Iterator[Call]:
    """The command calls of ``text``, in order, comments skipped."""
    index = 0
    line = 1
    found = 0
    length = len(text)
    while index < length and found < _MAX_CALLS:
        char = text[index]
        if char == "#":
            index, line = _skip_comment(text, index, line)
            continue
        if char == "\n":
            line += 1
            index += 1
            continue
        if not (char.isalpha() or char == "_"):
            index += 1
            continue
        match = _CALL.match(text, index)
        if match is None:  # a word, not a call: past all of it (no start inside it is tried again)
            index = _WORD.match(text, index).end()  # type: ignore[union-attr]
            continue
        start_line = line
        arguments, index, line = _arguments(text, match.end(), line)
        found += 1
        yield Call(match.group(1).lower(), start_line, arguments)


def _skip_comment(text: str, index: int, line: int) -> tuple[int, int]:
    """Past a comment starting at ``index`` (``#`` to the end of the line, or ``#[[ … ]]``)."""
    bracket = re.match(r"#\[(=*)\[", text[index : index + 64])
    if bracket is not None:
        close = "]" + bracket.group(1) + "]"
        end = text.find(close, index + bracket.end())
        end = len(text) if end < 0 else end + len(close)
        return end, line + text.count("\n", index, end)
    end = text.find("\n", index)
    return (len(text) if end < 0 else end), line


def _arguments(text: str, index: int, line: int) -> tuple[list[str], int, int]:
    """The arguments of a call whose ``(`` ends just before ``index``; where it ends; the line there."""
    arguments: list[str] = []
    word: list[str] = []
    depth = 1
    length = len(text)

    def flush() -> None:
        if word:
            arguments.append("".join(word))
            word.clear()

    while index < length:
        char = text[index]
        if char == "\n":
            line += 1
        if char == "#" and not word:
            index, line = _skip_comment(text, index, line)
            continue
        if char == '"':
            end = index + 1
            while end < length and text[end] != '"':
                if text[end] == "\\":
                    end += 1
                elif text[end] == "\n":
                    line += 1
                end += 1
            word.append(text[index + 1 : end].replace('\\"', '"'))
            index = end + 1
            continue
        bracket = re.match(r"\[(=*)\[", text[index : index + 64]) if char == "[" else None
        if bracket is not None:
            close = "]" + bracket.group(1) + "]"
            end = text.find(close, index + bracket.end())
            end = length if end < 0 else end
            word.append(text[index + bracket.end() : end])
            line += text.count("\n", index, end)
            index = end + len(close)
            continue
        if char in " \t\r\n":
            flush()
        elif char == "(":
            depth += 1
            word.append(char)
        elif char == ")":
            depth -= 1
            if depth == 0:
                flush()
                return arguments, index + 1, line
            word.append(char)
        else:
            word.append(char)
        index += 1
    flush()
    return arguments, index, line


def commands(text: str) -> Iterator[tuple[int, str]]:
    """(line, command line) of the programs each ``execute_process``, custom command and
    ``ExternalProject`` step runs (``${VAR}`` kept as the shell's variable: a value made at run time).
    The ``COMMAND``s of one call are one command line: ``execute_process`` pipes each into the next
    (``COMMAND wget -qO- URL COMMAND sh``), a custom command runs them one after another."""
    for call in calls(text):
        if call.name not in _RUNS:
            continue
        lines: list[str] = []
        words: list[str] | None = None
        for argument in call.arguments:
            if _COMMAND_KEY.match(argument):
                if words:
                    lines.append(_command_line(words))
                words = []
            elif words is not None and _KEYWORD.match(argument) and argument not in ("ON", "OFF"):
                if words:
                    lines.append(_command_line(words))
                words = None
            elif words is not None and argument:  # INSTALL_COMMAND "": the step is left out
                words.append(argument)
        if words:
            lines.append(_command_line(words))
        if lines:
            yield call.line, (" | " if call.name == "execute_process" else "\n").join(lines)


def _command_line(words: list[str]) -> str:
    """The words of a ``COMMAND`` as a shell command line (CMake runs them without a shell: each is
    one argument)."""
    return " ".join(_shell_word(word) for word in words)


def _shell_word(word: str) -> str:
    """``${CMAKE_COMMAND}`` in double quotes (a value made at run time, as the shell's variable is);
    any other word quoted as it is."""
    if "${" not in word:
        return shlex.quote(word)
    return '"' + re.sub(r'(["\\`]|\$(?!\{))', r"\\\1", word) + '"'


def fetched_urls(text: str) -> list[str]:
    """What the file's ``FetchContent_Declare``, ``ExternalProject_Add`` and ``file(DOWNLOAD)``
    fetch from the network (their ``URL``, ``GIT_REPOSITORY`` … values)."""
    found: list[str] = []
    for call in calls(text):
        if call.name not in _FETCHES:
            continue
        if call.name == "file" and call.arguments[:1] != ["DOWNLOAD"]:
            continue
        arguments = call.arguments
        for index, argument in enumerate(arguments[:-1]):
            value = arguments[index + 1]
            if argument in _URL_KEYS and _NETWORK.match(value):
                found.append(value)
    return found


def included_files(text: str) -> list[str]:
    """The files ``include(FILE)`` reads, as written (a module named without a path,
    ``include(FetchContent)``, is CMake's own: not named). The folders ``add_subdirectory`` configures
    are :func:`subdirectories`."""
    found: list[str] = []
    for call in calls(text):
        if call.name != "include" or not call.arguments:
            continue
        first = call.arguments[0]
        if "/" in first or first.endswith(_SUFFIX):
            found.append(first)
    return found


def subdirectories(text: str) -> list[str]:
    """The folders ``add_subdirectory(SOURCE_DIR [BINARY_DIR] …)`` configures, as written: CMake runs
    each folder's ``CMakeLists.txt`` while it configures, as it runs the top one."""
    return [call.arguments[0] for call in calls(text) if call.name == "add_subdirectory" and call.arguments]
