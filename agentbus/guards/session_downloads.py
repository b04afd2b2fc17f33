"""What a session downloaded in earlier calls, so that running it in a later call is judged.

The guards judge one command line at a time, and within one line a payload that
is downloaded and then run is held back (``curl -o /tmp/x URL; sh /tmp/x``).
An agent runs statements as separate tool calls: ``curl -o /tmp/x URL`` in one
call, ``sh /tmp/x`` in the next. So the command guard remembers, per session,
the download statements of the calls it let through, and judges each later call
of that session after them, as one script: the statement that runs the download
is then held back like the same two statements on one line.

Only download statements are kept (a pipeline with a transfer program of :data:`.transfers.DOWNLOADERS`,
``curl``, ``wget``, ``tftp`` ..., or one reading a network peer: ``cat < /dev/tcp/h/80 > f``), and
the statements of later calls that carry a download on: move or copy it, unpack
it, decompress or decode it, ``cd`` into what it unpacked (``curl -O URL/kit.tgz``
in one call, ``tar xf kit.tgz`` in the next, ``./kit/install`` in a third is held
back). At most :data:`KEPT_PER_SESSION` statements are kept, :data:`MAX_STATEMENT`
characters each, so the extra work per call is small and bounded. Two stores:

- in memory (the default): one process serves the whole session (an in-process
  bus, ``agentbus serve``);
- in files (:func:`persist_in`): the Claude Code command hook starts a process per
  tool call, so it keeps each session's statements in a private file under
  agentbus's data directory (never in the project, which may be hostile).

What is remembered never decides alone: the command guard uses the statements
only when they pass on their own, and a failure to remember lets the call through.
Limits, stated in the README: a session without a key shares one memory; only the
latest :data:`KEPT_PER_SESSION` statements are kept.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING

from ..lazy_regex import lazy_compile
from .transfers import DOWNLOADERS, SOCKETS, download, printed_binary

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .parse import Script
    from .programs import Invocation

__all__ = [
    "CLONES",
    "KEPT_PER_SESSION",
    "MAX_STATEMENT",
    "earlier_downloads",
    "keep",
    "keep_all",
    "kept",
    "persist_in",
    "remember",
]

KEPT_PER_SESSION = 8
"""Download statements (and the statements carrying them on) kept per session: the latest."""
MAX_STATEMENT = 2048
"""Characters of one kept statement; a longer pipeline is not kept."""
KEPT_PER_KIND = {".functions": 32, ".exports": 1}  # definitions.MAX_DEFERRED; danger.EXPORTS
"""Kinds of entry kept in greater number than :data:`KEPT_PER_SESSION` (:mod:`.definitions`)."""
MAX_SESSIONS = 1024
"""Sessions kept in memory (least recently used first out)."""
STALE_SECONDS = 7 * 24 * 3600
"""A session file untouched this long is removed when another is written."""

CARRIERS = frozenset({"mv", "cp", "install", "ln", "ditto", "rsync", "tar", "gtar", "bsdtar", "unzip",
                      "7z", "7za", "7zz", "7zr", "unrar", "cpio", "gunzip", "gzip", "bunzip2", "bzip2", "xz",
                      "unxz", "zstd", "unzstd", "lz4", "unlz4", "uncompress", "lzma", "unlzma", "pigz",
                      "base64", "base32", "basenc", "xxd", "uudecode", "openssl", "gpg", "dd", "cat", "tac",
                      "tee", "cd", "pushd", "gcc", "cc", "clang", "g++", "c++", "clang++", "tcc", "musl-gcc",
                      "rustc", "gccgo"})  # fmt: skip
"""Programs that may carry a download on (move, unpack, decode, compile it): their statements may be kept
too (:data:`.tactics.unpack.BUILDERS`: a program built from a downloaded source is that download)."""


def download_statements(command: str, earlier: Sequence[str] = ()) -> list[str]:
    """The pipelines of ``command`` that download something, or carry on a download made
    before them (in ``command`` or in ``earlier``, the session's kept statements), as shell text."""
    # Most calls: no parse, no walk. The plain substring tests first: the pattern's look-behind
    # costs a step per character, a tenth of a second on a 10 MB command.
    downloads = (_names_in(command) and _FETCH_NAMES.search(command) is not None) or (
        "\\" in command
        and ("echo" in command or "printf" in command)
        and _PRINTER.search(command) is not None
    )
    carries = (downloads or bool(earlier)) and _CARRIER.search(command) is not None
    if not downloads and not carries:
        return []
    from .parse import Script, ShellSyntaxError, parsed  # here: a call that downloads nothing needs no parser
    from .programs import walk

    try:
        script = parsed(command)
    except ShellSyntaxError:
        return []
    chain = _carried_on(script, earlier) if carries else set()
    kept: list[str] = []
    moves: list[str] = []  # `cd /tmp && curl -O URL`: where the file lands depends on the cd before it
    for index, pipeline in enumerate(script.pipelines):
        text = " | ".join(stage.text for stage in pipeline)
        if len(text) > MAX_STATEMENT:
            continue
        if pipeline[0].words[:1] in (("cd",), ("pushd",)) and index not in chain:
            moves.append(text)
            continue
        alone = Script((pipeline,), script.substitutions)
        if index in chain or any(_fetches(stage) for stages in walk(alone) for stage in stages):
            placed = "; ".join([*moves, text])
            kept.append(placed if len(placed) <= MAX_STATEMENT else text)
            moves = []
    return kept


def _fetches(stage: Invocation) -> bool:
    """Whether ``stage`` brings a file from another machine (a transfer program, a network peer read), or a
    binary through the command line (``echo -ne '\\x7f\\x45...' >> f``)."""
    return (
        stage.name.rsplit("/", 1)[-1] in DOWNLOADERS
        or download(stage) is not None
        or bool(printed_binary(stage))
    )


def _carried_on(script: Script, earlier: Sequence[str]) -> set[int]:
    """Which pipelines of ``script`` carry a download on, after the ``earlier`` statements."""
    from .parse import Script, parsed
    from .paths import normalize_path
    from .tactics.exfiltration import download_chain

    before = parsed("\n".join(earlier)) if earlier else Script((), ())
    combined = Script(
        (*before.pipelines, *script.pipelines),
        (*before.substitutions, *script.substitutions),
        (*before.functions, *script.functions),
    )
    chain = download_chain(combined, normalize_path("~"))
    return {index - len(before.pipelines) for index in chain if index >= len(before.pipelines)}


_NAMES = DOWNLOADERS | SOCKETS | {"GET"}
_FETCHING = _NAMES | {"/dev/tcp/", "/dev/udp/"}
"""What a download statement's text holds: a transfer program's name (as typed: ``GET``), a raw socket
client's, bash's network paths."""
_NAME_LETTERS = {name: frozenset(name) for name in _FETCHING}
_LONG = 4096


def _names_in(command: str) -> bool:
    """Whether a downloader's name is a substring of ``command`` (``name in command``, each).

    On a long command the names whose letters it lacks are passed over: a letter is looked
    for once (``memchr``), a name of several letters costs a scan of its own (10 MB: 0.2 s for
    the twenty names).
    """
    if len(command) <= _LONG:
        return any(name in command for name in _FETCHING)
    letters = frozenset().union(*_NAME_LETTERS.values())
    present = frozenset(letter for letter in letters if letter in command)
    return any(_NAME_LETTERS[name] <= present and name in command for name in _FETCHING)


_FETCH_NAMES = lazy_compile(
    r"(?<![\w.-])(?:" + "|".join(map(re.escape, sorted(_NAMES))) + r")(?![\w.:-])|/dev/(?:tcp|udp)/"
)
_PRINTER = lazy_compile(r"(?<![\w.-])(?:echo|printf)(?![\w.:-])")
_CARRIER = lazy_compile(r"(?<![\w.-])(?:" + "|".join(map(re.escape, sorted(CARRIERS))) + r")(?![\w.:-])")


class _MemoryStore:
    """Each session's statements in a dict, least recently used sessions dropped first."""

    def __init__(self) -> None:
        self._sessions: OrderedDict[str, list[str]] = OrderedDict()
        self._lock = threading.Lock()  # agentbus serve decides on worker threads

    def read(self, session: str, kind: str = "") -> list[str]:
        with self._lock:
            statements = self._sessions.get(kind + session)
            if statements is None:
                return []
            self._sessions.move_to_end(kind + session)
            return list(statements)

    def add(self, session: str, statements: list[str], kind: str = "") -> None:
        with self._lock:
            kept = self._sessions.pop(kind + session, [])
            self._sessions[kind + session] = (kept + statements)[-KEPT_PER_KIND.get(kind, KEPT_PER_SESSION) :]
            while len(self._sessions) > MAX_SESSIONS:
                self._sessions.popitem(last=False)


class _FileStore:
    """Each session's statements in a private file: a JSON list, rewritten whole (it is small)."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = os.fspath(directory)  # os.path, not pathlib: a hook process imports neither

    def _path(self, session: str, kind: str = "") -> str:
        """Claude Code's session ids (UUIDs) name their file as they are; any other id is hashed.

        Lowercase letters, digits and ``-`` make a name that cannot leave the directory
        and that no other id shares, even on a case-insensitive file system; the prefix
        keeps the two kinds of name apart. Importing hashlib (OpenSSL) was about 2% of a
        hook process, paid on every Bash call.
        """
        if (
            len(session) <= 64
            and session.isascii()
            and session.replace("-", "").isalnum()
            and session.lower() == session
        ):
            return os.path.join(self.directory, f"s-{session}{kind}.json")
        import hashlib

        digest = hashlib.sha256(session.encode("utf-8", "surrogatepass")).hexdigest()[:40]
        return os.path.join(self.directory, f"h-{digest}{kind}.json")

    def read(self, session: str, kind: str = "") -> list[str]:
        import json

        try:
            with open(self._path(session, kind), encoding="utf-8") as file:
                data = json.loads(file.read())
        except (OSError, ValueError):
            return []
        if not isinstance(data, list):
            return []
        return [item for item in data if isinstance(item, str) and len(item) <= MAX_STATEMENT]

    def add(self, session: str, statements: list[str], kind: str = "") -> None:
        import json

        from ..userdirs import open_private

        path = self._path(session, kind)
        kept = (self.read(session, kind) + statements)[-KEPT_PER_KIND.get(kind, KEPT_PER_SESSION) :]
        temporary = f"{path}.{os.getpid()}.tmp"
        fd = open_private(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(kept, out)
        os.replace(temporary, path)  # a concurrent reader sees the old list or the new one
        self._prune(path)

    def _prune(self, keep: str) -> None:
        cutoff = time.time() - STALE_SECONDS
        try:
            entries = list(os.scandir(self.directory))
        except OSError:
            return
        for entry in entries:
            try:
                if entry.path != keep and entry.stat().st_mtime < cutoff:
                    os.unlink(entry.path)
            except OSError:
                pass


_store: _MemoryStore | _FileStore = _MemoryStore()


def persist_in(directory: str | os.PathLike[str]) -> None:
    """Keep the sessions' download statements in files under ``directory`` (a process per call)."""
    global _store
    _store = _FileStore(directory)


def earlier_downloads(session: str | None) -> list[str]:
    """The download statements of this session's earlier calls that were let through."""
    return _store.read(session or "")


CLONES = ".clones"
"""The kind of entry :mod:`.clones` keeps per session (the directories cloned from the network),
apart from the download statements."""


def kept(session: str | None, kind: str) -> list[str]:
    """The entries of ``kind`` kept for this session (:data:`CLONES`)."""
    return _store.read(session or "", kind)


def keep(session: str | None, kind: str, entries: list[str]) -> None:
    """Keep ``entries`` of ``kind`` for this session (the latest :data:`KEPT_PER_SESSION`); a
    failure to keep them (a full disk) is not the call's."""
    entries = [entry for entry in entries if len(entry) <= MAX_STATEMENT]
    if entries:
        try:
            _store.add(session or "", entries, kind)
        except OSError:
            pass


def keep_all(session: str | None, kind: str, entries: Sequence[str]) -> bool:
    """Keep every one of ``entries`` of ``kind`` for this session, or none: False when one is longer
    than :data:`MAX_STATEMENT`, when they would push out entries kept before, or when they cannot be
    written. What a caller let through on the promise that they are kept must not be dropped."""
    if any(len(entry) > MAX_STATEMENT for entry in entries):
        return False
    try:
        before = _store.read(session or "", kind)
        new = [entry for entry in dict.fromkeys(entries) if entry not in before]
        if len(before) + len(new) > KEPT_PER_KIND.get(kind, KEPT_PER_SESSION):
            return False
        if new:
            _store.add(session or "", new, kind)
    except OSError:
        return False
    return True


def remember(session: str | None, command: str) -> None:
    """Keep the download statements of ``command``, a call of ``session`` that was let through,
    and those that carry on a download the session made before."""
    try:
        statements = download_statements(command, _store.read(session or ""))
    except Exception:  # the call was let through: a parse that fails here must not fail the call
        return
    if statements:
        try:
            _store.add(session or "", statements)
        except OSError:  # a full disk must not fail the call that was let through
            pass
