"""What one command writes, deletes, truncates or links, and how: the operands of the writers.

Destroying evidence is done with the plainest tools: ``rm``, ``truncate -s0``,
``> FILE``, ``ln -sf /dev/null``, ``shred``, ``sed -i '/ip/d'``, a ``cp`` or
``mv`` onto the file, ``find DIR -delete``. Each is a write to a place; the
place (:func:`~agentbus.guards.locations.location`) says which tactic it is.
This module says which operands a program writes, and how, so that a log file
that is only read (``tail /var/log/syslog``) is not one.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...frozen import Frozen
from ..locations import written
from ..programs import Invocation

__all__ = ["Write", "located", "writes"]


class Write(Frozen):
    """One file a command changes: its ``path`` as written and ``how`` (``deletes``, ``truncates`` ...)."""

    __slots__ = ("how", "path")

    path: str
    how: str

    def __init__(self, path: str, how: str) -> None:
        set_field = object.__setattr__
        set_field(self, "path", path)
        set_field(self, "how", how)


_OVERWRITE = frozenset({">", ">|", "&>", ">&"})
_APPEND = frozenset({">>", "&>>"})
_DELETERS = frozenset({"rm", "unlink", "shred", "srm", "wipe", "rmdir", "gio", "trash", "trash-put", "rmz"})
_COPIERS = frozenset({"cp", "install", "rsync", "ditto", "gcp", "scp"})
_IN_PLACE = frozenset({"sed", "gsed", "perl", "ruby"})
_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "shred": frozenset({"-n", "-s", "--iterations", "--size", "--random-source"}),
    "truncate": frozenset({"-s", "--size", "-r", "--reference"}),
    "cp": frozenset({"-t", "-S", "--suffix", "--target-directory"}),
    "install": frozenset({"-m", "-o", "-g", "-S", "-t", "--mode", "--owner", "--group", "--suffix",
                          "--target-directory"}),
    "mv": frozenset({"-t", "-S", "--suffix", "--target-directory"}),
    "ln": frozenset({"-t", "-S", "--suffix", "--target-directory"}),
    "sed": frozenset({"-e", "-f", "-l", "--expression", "--file", "--line-length"}),
    "gsed": frozenset({"-e", "-f", "-l", "--expression", "--file", "--line-length"}),
    "perl": frozenset({"-e", "-E", "-I", "-M", "-m"}),
    "ruby": frozenset({"-e", "-I", "-r"}),
    "visudo": frozenset({"-f", "--file"}),
    "tee": frozenset(),
    "dd": frozenset(),
    "openssl": frozenset({"-keyout"}),
}  # fmt: skip
_OUTPUT_OPTIONS = frozenset({"-o", "--output", "-O", "--output-document", "--out", "-out", "--log-file"})
_KEY_OUTPUT_OPTIONS = frozenset({"-keyout"})
"""``openssl req -newkey … -keyout KEY``: where the new private key is written."""
_FIND_DESTROYERS = frozenset({"rm", "shred", "unlink", "truncate", "srm"})


def _operands(invocation: Invocation) -> tuple[list[str], list[tuple[str, str]]]:
    """The positional arguments and the (option, value) pairs, values known without running anything."""
    command = invocation.command
    takes_value = _VALUE_OPTIONS.get(invocation.name, frozenset())
    positionals: list[str] = []
    options: list[tuple[str, str]] = []
    words = [command.static(word) for word in invocation.args]
    i = 0
    done = False
    while i < len(words):
        word = words[i]
        i += 1
        if word is None:
            continue
        if done or word == "-" or not word.startswith("-"):
            positionals.append(word)
        elif word == "--":
            done = True
        elif "=" in word and word.startswith("--"):
            option, _, value = word.partition("=")
            options.append((option, value))
        elif word in takes_value or word in _OUTPUT_OPTIONS:
            following = words[i] if i < len(words) else None
            i += 1
            if following is not None:
                options.append((word, following))
        elif not word.startswith("--") and len(word) > 2 and word[:2] in takes_value:
            options.append((word[:2], word[2:]))  # -s0, -tDIR
        else:
            options.append((word, ""))
    return positionals, options


def _copy_destination(name: str, positionals: list[str], options: list[tuple[str, str]]) -> Iterator[str]:
    """The destination of cp/mv/install/ln, and the files that land in it when it is a directory."""
    directory = next((v for o, v in options if o in ("-t", "--target-directory")), None)
    if directory is not None:
        sources = positionals
    elif len(positionals) >= 2:
        directory, sources = positionals[-1], positionals[:-1]
    elif name == "ln" and positionals:
        directory, sources = ".", positionals  # ln -s TARGET: a link of that name here
    else:
        return
    yield directory
    for source in sources:
        leaf = source.rstrip("/").rsplit("/", 1)[-1]
        if leaf and leaf not in (".", ".."):
            yield f"{directory.rstrip('/')}/{leaf}"


def _find_starts(invocation: Invocation) -> Iterator[str]:
    """The directories ``find`` deletes under (``-delete``, ``-exec rm``)."""
    values = [v for v in (invocation.command.static(w) for w in invocation.args) if v is not None]
    destroys = "-delete" in values or any(
        flag in ("-exec", "-execdir", "-ok", "-okdir")
        and index + 1 < len(values)
        and values[index + 1].rsplit("/", 1)[-1] in _FIND_DESTROYERS
        for index, flag in enumerate(values)
    )
    if not destroys:
        return
    for value in values:
        if value.startswith(("-", "(", "!", ")")):
            break
        yield value


def writes(invocation: Invocation) -> Iterator[Write]:
    """Every file ``invocation`` changes, with how: its redirections, then its program's operands."""
    command = invocation.command
    for redirect in command.redirects:
        target = command.static(redirect.target)
        if target is None or not target or target.isdigit() or target == "-":
            continue
        if redirect.op in _OVERWRITE:
            yield Write(target, "empties or overwrites")
        elif redirect.op in _APPEND:
            yield Write(target, "appends to")
        elif redirect.op == "<>":
            yield Write(target, "opens for writing")
    name = invocation.name
    if name == "find":
        for start in _find_starts(invocation):
            yield Write(start, "deletes files in")
        return
    if name not in _DELETERS and name not in _COPIERS and name not in _VALUE_OPTIONS:
        return
    positionals, options = _operands(invocation)
    flags = {option for option, _ in options}
    if name in _DELETERS:
        if name != "gio" or (positionals[:1] in (["remove"], ["trash"])):
            for path in positionals[1:] if name == "gio" else positionals:
                yield Write(path, "deletes")
    elif name == "truncate":
        for path in positionals:
            yield Write(path, "truncates")
    elif name == "tee":
        how = "appends to" if flags & {"-a", "--append"} else "overwrites"
        for path in positionals:
            yield Write(path, how)
    elif name == "dd":
        for path in positionals:
            if path.startswith("of="):
                yield Write(path[3:], "overwrites")
    elif name in _COPIERS or name in ("mv", "ln"):
        if name == "mv":
            directory = next((v for o, v in options if o in ("-t", "--target-directory")), None)
            for source in positionals if directory is not None else positionals[:-1]:
                yield Write(source, "moves away")
        if name == "install" and flags & {"-d", "--directory"}:
            for path in positionals:
                yield Write(path, "creates")
            return
        how = "links" if name == "ln" else "overwrites"
        if name == "ln" and positionals[:1] == ["/dev/null"]:
            how = "links to /dev/null"
        for path in _copy_destination(name, positionals, options):
            yield Write(path, how)
    elif name in _IN_PLACE:
        in_place = any(o == "-i" or o.startswith(("-i", "--in-place")) or (o[1:2] != "-" and "i" in o[1:])
                       for o in flags if o.startswith("-"))  # fmt: skip
        if not in_place:
            return
        scripted = flags & {"-e", "-f", "--expression", "--file", "-E"}
        files = positionals if scripted or name != "sed" else positionals[1:]
        if name == "sed" and files and positionals[0] == "" and not scripted:
            files = positionals[2:]  # BSD sed -i '' SCRIPT FILE
        for path in files:
            yield Write(path, "edits")
    elif name == "visudo":
        if flags & {"-c", "--check"} or any(
            o.startswith("-") and "c" in o[1:] for o in flags if o[1:2] != "-"
        ):
            return
        target = next((v for o, v in options if o in ("-f", "--file")), None)
        yield Write(target or "/etc/sudoers", "edits")
    for option, value in options:
        if (option in _OUTPUT_OPTIONS or option in _KEY_OUTPUT_OPTIONS) and value:
            yield Write(value, "writes")


def located(invocation: Invocation, home: str, categories: frozenset[str]) -> tuple[str, str] | None:
    """``(category, why)`` for the first write of ``invocation`` to a place of ``categories``."""
    for write in writes(invocation):
        found = written(write.path, home=home, cwd=invocation.cwd)  # a location, or a system file
        if found is not None and found[0] in categories:
            return found[0], f"{write.how} {found[1]}"
    return None
