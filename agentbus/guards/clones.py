"""Repositories a command fetches from the network, and where their code lands.

A tree of code fetched from the network:

- ``git clone URL [DIR]``, ``gh repo clone OWNER/REPO``, ``degit``/``tiged USER/REPO [DIR]``
  (``npx degit`` too), ``git submodule add URL [PATH]`` (:func:`cloned`: read from the line);
- ``git submodule update [--init]``: the submodules the repository's ``.gitmodules`` lists
  (submodules are clones);
- ``git pull URL``: the repository's work tree; ``git fetch URL [SRC:DST]`` then ``git
  checkout|switch|merge|reset|rebase FETCH_HEAD`` (or ``DST``): the work tree, ``git worktree
  add DIR FETCH_HEAD``: ``DIR``;
- a copy, move or link of such a tree (``cp -r /tmp/y vendor/y``, ``mv``, ``rsync``, ``ln -s``).

A clone alone runs nothing of what it fetched, and stays allowed. But the line that
clones and then runs what it cloned (``git clone URL && cd repo && ./install.sh``,
``git clone URL && make -C repo``) runs code that came from the network in the same
call, before anyone saw it: a download and run (:mod:`.tactics.exfiltration` tracks the
directory as it tracks an unpacked download). A clone of a local path (``git clone
../lib``) fetches nothing.

An agent clones in one tool call and builds in the next. So the command guard
remembers, per session, the directories its calls filled from the network
(:func:`remember_clones`, kept beside the session's downloads by
:mod:`.session_downloads`), and a later call of the session that runs their code
(``cd y && make``, ``npm install``, ``pip install .``, ``./install.sh``, ``cargo
build``, ``pytest``, ``tox``: :func:`.build_files.runs_code_in`) is asked about
(:func:`check_clone_runs`, category ``unjudged script``): the files the guard can
read are judged as they are for any project (the Makefile's recipes, the
``package.json`` scripts, the ``conftest.py``, ``build.rs`` and ``.cargo/config.toml``
the build runs: a download and run in them is blocked), but a build runs more of the
clone than those (compiled code, tests), which nobody has seen. In one call the files
are not there yet when the line is judged, and the line is blocked as a download and run.
A directory that holds files before the call (the project's own, an initialised
submodule) is not taken for a clone: git would not clone into it.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Sequence

from ..lazy_regex import lazy_compile
from .findings import positionals, scan_options, static_args
from .programs import Invocation
from .project_commands import remote
from .verdict import UNJUDGED_SCRIPT, Verdict

__all__ = ["Fetches", "check_clone_runs", "cloned", "remember_clones"]

_GIT_GLOBAL_VALUES = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env",
                                "--exec-path", "--super-prefix"})  # fmt: skip
"""git's own options that take a value (before the subcommand)."""
_CLONE_VALUES = frozenset({"-b", "--branch", "--depth", "-o", "--origin", "--reference",
                           "--reference-if-able", "-c", "--config", "--template", "--separate-git-dir",
                           "-j", "--jobs", "--filter", "--shallow-since", "--shallow-exclude", "-u",
                           "--upload-pack", "--server-option", "--bundle-uri", "--revision"})  # fmt: skip
"""``git clone``'s options that take a value (``--depth 1``)."""
_GH_VALUES = frozenset({"-u", "--upstream-remote-name", "-R", "--repo"})
_SUBMODULE_VALUES = frozenset({"-b", "--branch", "--name", "--reference", "--depth", "-j", "--jobs",
                               "--filter"})  # fmt: skip
_FETCH_VALUES = frozenset({"--depth", "--deepen", "--shallow-since", "--shallow-exclude", "-j", "--jobs",
                           "--upload-pack", "--refmap", "-o", "--server-option", "--negotiation-tip",
                           "--recurse-submodules-default", "-s", "--strategy", "-X", "--strategy-option",
                           "--cleanup", "--gpg-sign"})  # fmt: skip
_CHECKOUT_VALUES = frozenset({"-b", "-B", "--orphan", "-c", "-C", "--create", "--force-create", "--conflict",
                              "-s", "--strategy", "-X", "--strategy-option", "-m", "--message", "-F",
                              "--file", "--onto", "--reason", "--source", "--pathspec-from-file",
                              "--cleanup", "--into-name"})  # fmt: skip
"""Values of the options of ``git checkout|switch|merge|reset|rebase|cherry-pick|restore|worktree add``."""
_CHECKOUTS = frozenset({"checkout", "switch", "merge", "reset", "rebase", "cherry-pick", "restore"})
"""git subcommands that put a ref's files in the work tree."""
_DEGIT = frozenset({"degit", "tiged"})
_PACKAGE_RUNNERS = {"npx": 0, "bunx": 0, "pnpx": 0, "pnpm": 1, "yarn": 1, "npm": 1}
"""Programs that run a package's command (``npx degit``; ``pnpm dlx``, ``yarn dlx``, ``npm exec``:
after one subcommand word)."""


def cloned(invocation: Invocation) -> tuple[str, str] | None:
    """(what is cloned, the directory it lands in, as written) when ``invocation`` clones from the
    network (``git clone``, ``gh repo clone``, ``degit``, ``git submodule add``); None otherwise."""
    values = static_args(invocation)
    name, values = _package_run(invocation.name, values)
    if name == "git":
        rest, directory = _after_global(values)
        if rest[:1] == ["clone"]:
            operands = positionals(rest[1:], _CLONE_VALUES)
        elif rest[:2] == ["submodule", "add"]:
            operands = positionals(rest[2:], _SUBMODULE_VALUES)
        else:
            return None
        if not operands or not _fetched(operands[0]):
            return None
        target = operands[1] if len(operands) > 1 else _default_directory(operands[0])
        return operands[0], posixpath.join(directory, target) if directory else target
    if name == "gh" and values[:2] == ["repo", "clone"]:
        operands = positionals(values[2:], _GH_VALUES)
        if not operands:
            return None
        target = operands[1] if len(operands) > 1 else _default_directory(operands[0])
        return operands[0], target
    if name in _DEGIT:
        operands = positionals(values, frozenset({"-m", "--mode"}))
        if not operands:
            return None
        return operands[0], operands[1] if len(operands) > 1 else "."
    return None


def _package_run(name: str, values: list[str]) -> tuple[str, list[str]]:
    """The program and arguments a package runner runs (``npx -y degit x/y``: ``degit``, ``x/y``)."""
    skip = _PACKAGE_RUNNERS.get(name)
    if skip is None:
        return name, values
    if skip and values[:1] not in (["dlx"], ["exec"]):
        return name, values
    rest = values[skip:]
    while rest and rest[0].startswith("-"):
        rest = rest[2:] if rest[0] in ("-p", "--package", "-c", "--call") else rest[1:]
    rest = rest[1:] if rest[:1] == ["--"] else rest
    if not rest:
        return name, values
    program = rest[0].rsplit("@", 1)[0] if rest[0].rfind("@") > 0 else rest[0]
    return program, rest[1:]


def _after_global(values: list[str]) -> tuple[list[str], str]:
    """git's subcommand and its arguments, and the directory ``-C DIR`` moves to (``""``: none)."""
    directory = ""
    index = 0
    while index < len(values) and values[index].startswith("-"):
        if values[index] == "-C" and index + 1 < len(values):
            directory = posixpath.join(directory, values[index + 1]) if directory else values[index + 1]
        index += 2 if values[index] in _GIT_GLOBAL_VALUES else 1
    return values[index:], directory


def _fetched(source: str) -> bool:
    """A URL or ``host:path`` (scp-like), not a local directory."""
    if remote(source):
        return True
    host, colon, _ = source.partition(":")
    return bool(colon) and "/" not in host and bool(host)


def _default_directory(source: str) -> str:
    """Where git puts a clone when no directory is named: the last part of the URL, less ``.git``."""
    tail = source.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return tail[:-4] if tail.endswith(".git") and len(tail) > 4 else tail


# -- the trees a session fetched, statement by statement ---------------------------------------------


def _occupied(directory: str) -> bool:
    """Whether ``directory`` holds files now (git will not clone into it: it is somebody's own)."""
    try:
        return os.path.isdir(directory) and bool(os.listdir(directory))
    except OSError:
        return True


def _top_level(directory: str) -> str:
    """The work tree ``directory`` is in: the nearest folder up with a ``.git`` (else ``directory``)."""
    folder = directory
    for _ in range(32):
        if os.path.lexists(posixpath.join(folder, ".git")):
            return folder
        if folder == "/":
            break
        folder = posixpath.dirname(folder)
    return directory


_GITMODULES_SECTION = lazy_compile(r'^\s*\[\s*submodule\s+"([^"\n]*)"\s*\]', re.MULTILINE)
_GITMODULES_KEY = lazy_compile(r"^\s*(path|url)\s*=\s*(.*?)\s*$", re.MULTILINE)


def submodules(text: str) -> list[tuple[str, str]]:
    """(path, url) of each submodule a ``.gitmodules`` lists (git's config format)."""
    found = []
    sections = list(_GITMODULES_SECTION.finditer(text))
    for index, section in enumerate(sections):
        end = sections[index + 1].start() if index + 1 < len(sections) else len(text)
        keys = {key: value.strip('"') for key, value in _GITMODULES_KEY.findall(text[section.end() : end])}
        if keys.get("path"):
            found.append((keys["path"], keys.get("url", "")))
    return found


_COPIES = frozenset({"cp", "mv", "rsync", "ditto", "ln", "gcp", "gmv"})
_COPY_VALUES = frozenset({"-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "--owner",
                          "-g", "--group", "-e", "--rsh", "--exclude", "--include", "--exclude-from",
                          "--include-from", "--filter", "--chmod", "--chown", "--rsync-path",
                          "--backup-dir", "--files-from", "--log-file", "--partial-dir", "--temp-dir",
                          "--compare-dest", "--link-dest", "--copy-dest"})  # fmt: skip


def _copies(invocation: Invocation) -> tuple[list[str], str, bool] | None:
    """(sources, destination, whether the destination is surely a folder they go into) of a copy,
    move or link; None for another command."""
    if invocation.name not in _COPIES:
        return None
    operands = []
    into = None
    for option, value in scan_options(static_args(invocation), _COPY_VALUES):
        if option in ("-t", "--target-directory"):
            into = value or None
        elif not option:
            operands.append(value)
    if into is not None:
        return operands, into, True
    if len(operands) < 2:
        return None
    return operands[:-1], operands[-1], len(operands) > 2 or operands[-1].endswith("/")


class Fetches:
    """The trees of code a session fetched from the network (``trees``: directory -> where from) and
    the refs it fetched into a repository (``refs``: (repository, ref) -> where from), followed
    statement by statement (:meth:`note`)."""

    __slots__ = ("added", "refs", "trees")

    def __init__(self, entries: Sequence[str] = ()) -> None:
        self.trees: dict[str, str] = {}
        self.refs: dict[tuple[str, str], str] = {}
        self.added: list[str] = []
        """The lines :meth:`note` found (a tree: ``DIR<tab>SOURCE``; a ref: ``@REPO<tab>REF<tab>SOURCE``)."""
        for entry in entries:
            for line in entry.split("\n"):
                self._load(line)

    def entries(self) -> list[str]:
        """The lines found, packed into as few kept entries as fit: the session keeps its latest
        entries only, and one ``git submodule update`` of many submodules must not push out the rest."""
        from .session_downloads import MAX_STATEMENT

        packed: list[str] = []
        for line in self.added:
            if packed and len(packed[-1]) + 1 + len(line) <= MAX_STATEMENT:
                packed[-1] += "\n" + line
            else:
                packed.append(line)
        return packed

    def _load(self, entry: str) -> None:
        if entry.startswith("@"):
            repository, ref, source = [*entry[1:].split("\t"), "", ""][:3]
            if repository.startswith("/") and ref:
                self.refs[(repository, ref)] = source
            return
        directory, tab, source = entry.partition("\t")
        if tab and directory.startswith("/"):
            self.trees[directory.rstrip("/") or "/"] = source

    def _tree(self, directory: str, source: str) -> None:
        if not {"\t", "\n"} & set(directory + source):
            self.added.append(f"{directory}\t{source}")
            self._load(self.added[-1])

    def _ref(self, repository: str, ref: str, source: str) -> None:
        if not {"\t", "\n"} & set(repository + ref + source):
            self.added.append(f"@{repository}\t{ref}\t{source}")
            self._load(self.added[-1])

    def tree_of(self, path: str) -> str | None:
        """The fetched directory ``path`` is in, if any."""
        for directory in self.trees:
            if path == directory or path.startswith(directory.rstrip("/") + "/"):
                return directory
        return None

    def tree_beneath(self, path: str) -> str | None:
        """A fetched directory inside ``path`` (``pytest`` in the project collects ``vendor/y``'s tests)."""
        prefix = path.rstrip("/") + "/"
        return next((directory for directory in self.trees if directory.startswith(prefix)), None)

    def note(self, invocation: Invocation) -> None:
        """Follow one statement: the trees and refs it fetches, the trees it copies or moves."""
        from .paths import normalize_path

        cwd = invocation.cwd
        clone = cloned(invocation)
        if clone is not None:
            if cwd is None and not clone[1].startswith(("/", "~")):
                return  # a directory the guard cannot place (after a cd it cannot follow)
            directory = normalize_path(clone[1], cwd=cwd)
            if not _occupied(directory) or "--force" in static_args(invocation):
                self._tree(directory, clone[0])
            return
        if cwd is not None and invocation.name == "git":
            self._git(invocation, cwd)
        elif cwd is not None and self.trees:
            self._copy(invocation, cwd)

    def _git(self, invocation: Invocation, cwd: str) -> None:
        from .paths import normalize_path

        rest, moved = _after_global(static_args(invocation))
        here = normalize_path(moved, cwd=cwd) if moved else cwd
        command = rest[:1]
        if rest[:2] == ["submodule", "update"]:
            self._submodules(here, positionals(rest[2:], _SUBMODULE_VALUES))
        elif command in (["pull"], ["fetch"]):
            operands = positionals(rest[1:], _FETCH_VALUES)
            if not operands or not _fetched(operands[0]):
                return  # a remote of the repository's own configuration (origin)
            repository = _top_level(here)
            if command == ["pull"]:
                self._tree(repository, operands[0])
                return
            self._ref(repository, "FETCH_HEAD", operands[0])
            for refspec in operands[1:]:
                destination = refspec.lstrip("+").partition(":")[2]
                if destination:
                    self._ref(repository, destination.removeprefix("refs/heads/"), operands[0])
        elif self.refs and ((command and command[0] in _CHECKOUTS) or rest[:2] == ["worktree", "add"]):
            repository = _top_level(here)
            words = positionals(rest[2:] if command == ["worktree"] else rest[1:], _CHECKOUT_VALUES)
            named = [*rest[1:], *(value.partition("=")[2] for value in rest[1:] if value.startswith("-"))]
            sources = [self.refs.get((repository, word)) for word in named]  # --source=FETCH_HEAD too
            source = next((found for found in sources if found is not None), None)
            if source is None:
                return
            if command == ["worktree"] and words:
                self._tree(normalize_path(words[0], cwd=here), source)
            else:
                self._tree(repository, source)

    def _submodules(self, here: str, pathspecs: list[str]) -> None:
        """``git submodule update``: the submodules of ``.gitmodules`` (those the pathspecs name)."""
        from .paths import normalize_path
        from .script_files import read_script

        repository = _top_level(here)
        read = read_script(posixpath.join(repository, ".gitmodules"))
        wanted = [normalize_path(spec, cwd=here).rstrip("/") for spec in pathspecs]
        for path, url in submodules(read.text or ""):
            directory = normalize_path(path, cwd=repository)
            if wanted and not any(directory == w or directory.startswith(w + "/") for w in wanted):
                continue
            if not _occupied(directory):
                self._tree(directory, url or f"a submodule of {repository}")

    def _copy(self, invocation: Invocation, cwd: str) -> None:
        """``cp -r /tmp/y vendor/y``, ``mv``, ``rsync``, ``ln -s``: a fetched tree (or one inside
        what is copied) lands at the destination."""
        from .paths import normalize_path

        copy = _copies(invocation)
        if copy is None:
            return
        sources, destination, into = copy
        target = normalize_path(destination, cwd=cwd)
        into = into or os.path.isdir(target)
        for word in sources:
            source = normalize_path(word, cwd=cwd)
            # rsync y/ x and cp -r y/. x: y's files go into x
            contents = (invocation.name == "rsync" and word.endswith("/")) or word.endswith("/.")
            landed = target if contents or not into else posixpath.join(target, posixpath.basename(source))
            for directory, fetched in list(self.trees.items()):
                if directory == source or directory.startswith(source.rstrip("/") + "/"):
                    self._tree(landed + directory[len(source.rstrip("/")) :], fetched)
                elif source.startswith(directory + "/"):
                    self._tree(landed, fetched)


# -- across the calls of a session ---------------------------------------------------------------

_MENTIONS = lazy_compile(r"(?<![\w.-])(?:git|degit|tiged|gh|cp|mv|rsync|ditto|ln|gcp|gmv)(?![\w-])")
"""The programs that fetch, or carry a fetched tree on: a line naming none of them is not walked."""


def _session(session: str | None) -> Fetches:
    from .session_downloads import CLONES, kept

    return Fetches(kept(session, CLONES))


def _statements(command: str, cwd: str | None) -> Iterator[Invocation]:
    from .parse import ShellSyntaxError, parsed
    from .programs import walk

    try:
        script = parsed(command)
    except ShellSyntaxError:
        return
    for stages in walk(script, cwd=cwd):
        yield from stages


def remember_clones(session: str | None, command: str, cwd: str | None) -> None:
    """Keep the directories ``command`` (a call of ``session`` that was not blocked) fills from the
    network, and the refs it fetches (:class:`Fetches`)."""
    from .session_downloads import CLONES, keep

    if _MENTIONS.search(command) is None:
        return
    try:
        fetches = _session(session)
        for invocation in _statements(command, cwd):
            fetches.note(invocation)
    except Exception:  # the call was let through: a parse that fails here must not fail it
        return
    keep(session, CLONES, fetches.entries())


def check_clone_runs(session: str | None, command: str, cwd: str | None) -> Verdict | None:
    """An ask (category ``unjudged script``, as the policy decides) when ``command`` runs the code of
    a directory this session fetched from the network (in an earlier call, or earlier in this one),
    or a block when the files the build runs show a danger (:mod:`.script_files` judges them); None
    otherwise (and when nothing was fetched)."""
    fetches = _session(session)
    if not fetches.trees and not fetches.refs and _MENTIONS.search(command) is None:
        return None
    from . import build_files, script_files
    from .paths import normalize_path
    from .policy import current_policy

    for invocation in _statements(command, cwd):
        if invocation.cwd is None or not fetches.trees:
            fetches.note(invocation)
            continue
        places = [*build_files.runs_code_in(invocation)]
        script_word = script_files.script_run(invocation)  # ./install.sh, bash y/setup.sh
        if script_word is not None:
            places.append(script_word)
        collected = {  # pytest, go generate ./...: the code of every folder beneath
            normalize_path(word, cwd=run.cwd)
            for run in build_files.builds(invocation)
            if run.language == build_files.PYTEST or "recursive" in run.entries
            for word in (run.word, *run.fallbacks)
        }
        for word in [*places, *collected]:
            path = normalize_path(word, cwd=invocation.cwd)
            tree = fetches.tree_of(path) or (fetches.tree_beneath(path) if path in collected else None)
            if tree is None:
                continue
            builds = [b for b in build_files.builds(invocation) if b.cwd is not None]
            judged = script_files.check_runs(builds) if builds else None
            if judged is not None and judged.decision == "block":
                return judged
            name = posixpath.basename(tree)
            why = (
                f"runs the code of {name}, fetched from {fetches.trees[tree]} in this session: the guard "
                "judges its build and script files, not the rest of what runs (compiled code, tests), so "
                "a person is asked"
            )
            piece = " ".join(invocation.command.text.split())
            piece = piece if len(piece) <= 80 else piece[:79] + "…"
            found = Verdict(UNJUDGED_SCRIPT, piece, why, rule="clone rule")
            return script_files.stricter(current_policy().apply(found), judged)
        fetches.note(invocation)
    return None
