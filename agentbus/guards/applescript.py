"""Reading AppleScript and JavaScript for Automation (JXA) enough to judge what ``osascript`` does.

``osascript`` runs AppleScript (or JXA with ``-l JavaScript``) given with ``-e``
(one line each, several make one script), in a here-document or here-string,
or in a file. Attackers use it for what a shell command cannot do: a password
prompt that looks like the system's, the Finder deleting or copying files,
keystrokes typed into another application, mail sent as the user. This
module finds, in the script's text: the shell code it runs (``do shell
script``, Terminal's ``do script``, JXA's ``doShellScript``), the paths it
names (``POSIX file "/var/log/x"``, HFS paths built from ``path to home
folder``), and the string literals, so that :mod:`.tactics.macos` can judge
them and :mod:`.carriers` can hand the shell code on to every rule.

A script read from a file cannot be judged here (the guard reads no files).
Each function is one pass of regular expressions over the text: linear in it.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator, Sequence

from ..lazy_regex import lazy_compile

__all__ = ["paths", "script_text", "shell_code"]

_STRING = r"\"(?:[^\"\\]|\\.){0,4000}\""
_PIECE = rf"(?:quoted\s+form\s+of\s+)?{_STRING}"
_CONCATENATION = lazy_compile(rf"{_PIECE}(?:\s*&\s*{_PIECE})*")
_PIECE_RE = lazy_compile(rf"(quoted\s+form\s+of\s+)?({_STRING})")
_RUNS_SHELL = lazy_compile(
    r"\bdo\s+shell\s+script\s+|\bdo\s+script\s+|\bwrite\s+text\s+|\bdoShellScript\s*\(\s*", re.IGNORECASE
)
"""Where shell code follows: ``do shell script``, Terminal's ``do script``, iTerm's ``write text``, JXA."""
_JS_STRING = lazy_compile(r"(['\"`])((?:(?!\1)[^\\]|\\.){0,4000})\1")
_AS_ROOT = lazy_compile(
    r"^[^\n]{0,200}?(?:\bwith\s+administrator\s+privileges|administratorPrivileges\s*:\s*true)", re.IGNORECASE
)
_POSIX_FILE = lazy_compile(rf"\bPOSIX\s+file\s+({_STRING})|({_STRING})\s+as\s+POSIX\s+file", re.IGNORECASE)
_FOLDERS = {
    "home folder": "~", "library folder": "~/Library", "documents folder": "~/Documents",
    "desktop folder": "~/Desktop", "downloads folder": "~/Downloads", "pictures folder": "~/Pictures",
    "movies folder": "~/Movies", "music folder": "~/Music", "preferences folder": "~/Library/Preferences",
    "application support": "~/Library/Application Support", "system folder": "/System",
    "startup disk": "/", "launch agents": "~/Library/LaunchAgents", "shared documents": "/Users/Shared",
}  # fmt: skip
_PATH_TO = lazy_compile(
    rf"\bpath\s+to\s+({'|'.join(map(re.escape, _FOLDERS))})(\s+from\s+(?:user|local|system)\s+domain)?"
    rf"(?:\s+as\s+(?:text|string))?\)?(?:\s*&\s*({_STRING}))?",
    re.IGNORECASE,
)
_HFS = lazy_compile(r"\"(?:Macintosh HD|[A-Za-z ]{1,40} HD)?:((?:[^\":\\]{1,255}:)*[^\":\\]{0,255})\"")


def _literal(quoted: str) -> str:
    """The text of an AppleScript string literal (``"a\\"b"`` -> ``a"b``)."""
    body = quoted[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "r": "\r"}.get(m.group(1), m.group(1)), body)


_OF_HOME = lazy_compile(rf"\bfolder\s+({_STRING})\s+of\s+(?:the\s+)?home\b(?!\s+folder)", re.IGNORECASE)
"""``folder "Documents" of home``: the Finder names a folder of the user's home so."""


def _evaluate(expression: str) -> str:
    """A concatenation of literals (``"rm -rf " & quoted form of "/var/log"``) as the text it makes."""
    parts = []
    for match in _PIECE_RE.finditer(expression):
        text = _literal(match.group(2))
        parts.append(shlex.quote(text) if match.group(1) else text)
    return "".join(parts)


def script_text(values: Sequence[str], fed: Sequence[str]) -> tuple[str, str | None]:
    """(the script ``osascript VALUES`` runs as far as it is given inline, the script file or None).

    ``-e`` lines are joined as the lines of one script; here-documents and
    here-strings are the script when no ``-e`` and no file is given.
    """
    lines: list[str] = []
    file: str | None = None
    index = 0
    while index < len(values):
        value = values[index]
        if value == "-e" and index + 1 < len(values):
            lines.append(values[index + 1])
            index += 2
            continue
        if value.startswith("-e") and len(value) > 2:
            lines.append(value[2:])
        elif value in ("-l", "-s") and index + 1 < len(values):
            index += 1
        elif value == "--":
            file = values[index + 1] if index + 1 < len(values) else None
            break
        elif not value.startswith("-") or value == "-":
            file = None if value == "-" else value
            break
        index += 1
    if not lines and file is None:
        lines.extend(fed)
    return "\n".join(lines), file


def shell_code(text: str) -> Iterator[str]:
    """The shell commands the script runs: ``do shell script EXPR`` (as root when it says ``with
    administrator privileges``: handed on as ``sudo CMD``), Terminal's ``do script``, iTerm's
    ``write text``, JXA's ``doShellScript("CMD")``."""
    for match in _RUNS_SHELL.finditer(text):
        rest = text[match.end() : match.end() + 8000]
        if match.group(0).rstrip().endswith("("):
            string = _JS_STRING.match(rest)
            code = _unescape_js(string.group(2)) if string else ""
        else:
            expression = _CONCATENATION.match(rest)
            code = _evaluate(expression.group(0)) if expression else ""
            rest = rest[expression.end() :] if expression else rest
        if code.strip():
            yield f"sudo {code}" if _AS_ROOT.match(rest) else code


def _unescape_js(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def paths(text: str) -> list[str]:
    """The file paths the script names: ``POSIX file "/x"``, ``path to home folder & "Library:x"``,
    HFS paths (``"Macintosh HD:Users:alice:Library:"``), and quoted absolute POSIX paths."""
    found: list[str] = []
    for match in _POSIX_FILE.finditer(text):
        found.append(_literal(match.group(1) or match.group(2)))
    for match in _PATH_TO.finditer(text):
        base = _FOLDERS[match.group(1).lower()]
        if match.group(1).lower() == "library folder" and (match.group(2) or "").strip().endswith(
            ("local domain", "system domain")
        ):
            base = "/Library"
        tail = _literal(match.group(3)).replace(":", "/").strip("/") if match.group(3) else ""
        found.append(f"{base}/{tail}" if tail else base)
    for match in _HFS.finditer(text):
        found.append("/" + match.group(1).replace(":", "/").rstrip("/"))
    for match in _JS_STRING.finditer(text):
        body = match.group(2)
        if body.startswith(("/", "~/")) and "\n" not in body and " " not in body.strip():
            found.append(body.rstrip("/") or "/")
    for match in re.finditer(_STRING, text):
        body = _literal(match.group(0))
        if body.startswith(("/", "~/")) and "\n" not in body:
            found.append(body.rstrip("/") or "/")
    # The Finder's own words for a folder of the home: folder "Documents" of home.
    for match in _OF_HOME.finditer(text):
        found.append("~/" + _literal(match.group(1)).replace(":", "/").strip("/"))
    # A relative HFS piece after a folder variable ("Library:Group Containers:x:") joined to home.
    for match in re.finditer(r"\"((?:Library|Documents|Desktop):[^\"]{0,400})\"", text):
        found.append("~/" + match.group(1).replace(":", "/").rstrip("/"))
    return found
