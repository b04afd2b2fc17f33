"""What a patch makes of the files it touches: OpenAI's ``apply_patch`` format and unified diffs.

A patch tool (``apply_patch``; Codex runs ``apply_patch <<'EOF' … EOF`` in its shell) or ``patch
-p1 < x.diff`` writes files as Write and Edit do, several in one call. The guards that judge what a
write says (a git configuration's settings, :mod:`.git_files`; a fetch written into a CMake file,
:mod:`.clones`) need the file's text after the patch: :func:`patched` gives it, hunk by hunk, each
hunk's old lines found in the file as it is (from where the previous one ended, as both tools
apply them). When a hunk's lines are not in the file the patch would fail there; the text given
then is the file with the new side of every hunk added at its end, so that what the patch adds is
judged all the same.

Formats:

- ``*** Begin Patch`` / ``*** Add File: P`` (every line ``+``), ``*** Update File: P`` (optionally
  ``*** Move to: Q``) with ``@@`` hunks of `` ``/``-``/``+`` lines, ``*** Delete File: P``;
- unified diffs: ``--- a/P`` / ``+++ b/P`` headers, ``@@ -l,n +l,n @@`` hunks; ``strip`` components
  of the path taken off as ``patch -pN`` does (``git diff``'s ``a/``, ``b/`` with 1).
"""

from __future__ import annotations

from ..frozen import Frozen

__all__ = ["FileChange", "changes", "patched"]

_MAX_FILES = 256
"""The files of one patch read."""


class FileChange(Frozen):
    """What a patch does to one file: its path as the patch names it (the new path of a move),
    whether it creates or deletes the file, and its hunks (old lines, new lines)."""

    __slots__ = ("created", "deleted", "hunks", "path")

    path: str
    created: bool
    deleted: bool
    hunks: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]

    def __init__(
        self,
        path: str,
        hunks: list[tuple[list[str], list[str]]],
        *,
        created: bool = False,
        deleted: bool = False,
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "path", path)
        set_field(self, "created", created)
        set_field(self, "deleted", deleted)
        set_field(self, "hunks", tuple((tuple(old), tuple(new)) for old, new in hunks if old or new))


def changes(text: str, strip: int | None = None) -> list[FileChange]:
    """The files ``text`` (an ``apply_patch`` patch or a unified diff) changes, in order; ``strip``:
    the leading components of a unified diff's paths taken off (None: ``git diff``'s ``a/``, ``b/``)."""
    if "*** Begin Patch" in text or "*** Update File:" in text or "*** Add File:" in text:
        return _openai(text)
    return _unified(text, strip)


def _openai(text: str) -> list[FileChange]:
    found: list[FileChange] = []
    path: str | None = None
    created = deleted = False
    hunks: list[tuple[list[str], list[str]]] = []

    def close() -> None:
        if path is not None and len(found) < _MAX_FILES:
            found.append(FileChange(path, hunks, created=created, deleted=deleted))

    for line in text.splitlines():
        header = next(
            (line[len(p) :].strip() for p in ("*** Add File:", "*** Update File:", "*** Delete File:")
             if line.startswith(p)),
            None,
        )  # fmt: skip
        if header is not None:
            close()
            path, hunks = header, [([], [])]
            created, deleted = line.startswith("*** Add"), line.startswith("*** Delete")
        elif path is None:
            continue
        elif line.startswith("*** Move to:"):
            path = line[len("*** Move to:") :].strip()
        elif line.startswith("@@"):
            hunks.append(([], []))
        elif line.startswith("***"):
            continue  # *** End of File, *** End Patch
        else:
            _line(hunks[-1], line)
    close()
    return found


def _unified(text: str, strip: int | None) -> list[FileChange]:
    found: list[FileChange] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines) and len(found) < _MAX_FILES:
        line = lines[index]
        if not (line.startswith("--- ") and index + 1 < len(lines) and lines[index + 1].startswith("+++ ")):
            index += 1
            continue
        old_name, new_name = _name(line[4:]), _name(lines[index + 1][4:])
        index += 2
        hunks: list[tuple[list[str], list[str]]] = []
        while index < len(lines) and not (
            lines[index].startswith("--- ") and index + 1 < len(lines) and lines[index + 1].startswith("+++ ")
        ):
            line = lines[index]
            if line.startswith("@@"):
                hunks.append(([], []))
            elif hunks and line[:1] in (" ", "-", "+", ""):
                _line(hunks[-1], line)
            index += 1
        deleted = new_name == "/dev/null"
        name = old_name if deleted else new_name
        found.append(
            FileChange(_stripped(name, strip), hunks, created=old_name == "/dev/null", deleted=deleted)
        )
    return found


def _line(hunk: tuple[list[str], list[str]], line: str) -> None:
    old, new = hunk
    mark, rest = line[:1], line[1:]
    if mark in (" ", ""):
        old.append(rest)
        new.append(rest)
    elif mark == "-":
        old.append(rest)
    elif mark == "+":
        new.append(rest)


def _name(header: str) -> str:
    """A file header's path: up to a tab (a date may follow), quotes of ``git diff`` removed."""
    name = header.split("\t", 1)[0].strip()
    return name[1:-1] if len(name) > 1 and name[0] == name[-1] == '"' else name


def _stripped(name: str, strip: int | None) -> str:
    if strip is None:
        return name[2:] if name.startswith(("a/", "b/")) else name
    if name == "/dev/null" or strip <= 0:
        return name
    parts = name.split("/")
    return "/".join(parts[strip:]) if len(parts) > strip else parts[-1]


def patched(old: str, change: FileChange) -> str:
    """The file's text after ``change`` (``old``: its text now; a created file starts empty)."""
    if change.deleted:
        return ""
    lines = [] if change.created else old.splitlines()
    position = 0
    unplaced: list[str] = []
    for before, after in change.hunks:
        at = _find(lines, list(before), position)
        if at is None:
            unplaced.extend(after)
            continue
        lines[at : at + len(before)] = after
        position = at + len(after)
    return "\n".join([*lines, *unplaced]) + "\n"


def _find(lines: list[str], block: list[str], start: int) -> int | None:
    """Where ``block`` is in ``lines`` (from ``start`` on, else anywhere; trailing blanks ignored);
    an empty block (a hunk that only adds) goes at the end."""
    if not block:
        return len(lines)
    wanted = [line.rstrip() for line in block]
    for origin in (start, 0):
        for index in range(origin, len(lines) - len(block) + 1):
            if (
                lines[index].rstrip() == wanted[0]
                and [x.rstrip() for x in lines[index : index + len(block)]] == wanted
            ):
                return index
    return None
