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
clones and then runs a file of what it cloned (``git clone URL && cd repo && ./install.sh``)
runs code that came from the network in the same call, before anyone saw it: a download
and run (:mod:`.tactics.exfiltration` tracks the directory as it tracks an unpacked
download). The line that clones and builds it (``git clone URL && make -C repo``, ``cd repo
&& ./configure``, ``pip install .``) is asked, as the same build in a later call is, and as
a source tarball built is: source is how software gets installed. A clone of a local path
(``git clone ../lib``) fetches nothing.

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
are not there yet when the line is judged: the build is asked all the same, and a file of
the clone run directly (``./install.sh``, ``make && ./tool``) is blocked as a download and
run. A directory that holds files before the call (the project's own, an initialised
submodule) is not taken for a clone: git would not clone into it.
"""

from __future__ import annotations

import os
import posixpath
import re
import shlex
from collections.abc import Iterator, Sequence

from ..lazy_regex import lazy_compile
from .findings import positionals, scan_options, static_args
from .git_files import with_included
from .git_settings import GLOBAL_VALUES as GIT_GLOBAL_VALUES
from .git_settings import settings as git_settings
from .parse import WRITE_OPERATORS
from .programs import Invocation
from .project_commands import remote
from .verdict import DOWNLOAD_RUN, UNJUDGED_SCRIPT, Verdict

__all__ = [
    "Fetches",
    "check_clone_runs",
    "cloned",
    "remember_clones",
    "remember_config_written",
    "remember_written_fetches",
    "submodule_directories",
]

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
_CHECKOUTS = frozenset(
    {"checkout", "switch", "merge", "reset", "rebase", "cherry-pick", "restore", "read-tree"}
)
"""git subcommands that put a ref's files in the work tree."""
_WHOLESALE = frozenset({"checkout", "switch", "reset", "restore", "read-tree"})
"""Of those, the ones that leave the fetched ref's files in the work tree, not merged with its own."""
_BRANCH_CREATORS = frozenset({"-b", "-B", "-c", "-C", "--create", "--force-create"})
"""``git checkout -b NEW``, ``git switch -c NEW``: the options that name a branch made at the ref."""
_BRANCH_QUERIES = frozenset({"-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "--list",
                             "-l", "-a", "-r", "--all", "--remotes", "-v", "-vv", "--contains", "--merged",
                             "--no-merged", "--show-current", "-u", "--set-upstream-to", "--unset-upstream",
                             "--edit-description"})  # fmt: skip
"""``git branch`` options that make no branch at a start point (delete, list, rename ...)."""
_REMOTE_VALUES = frozenset({"-t", "--track", "-m", "--master"})
_PREFIX = frozenset({"-P", "--prefix"})
_SUBTREE_VALUES = frozenset({*_PREFIX, "-m", "--message"})
_CONFIG_VALUES = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment", "--value"})
_REMOTE_URL = lazy_compile(r"^(?i:remote)\.(.+)\.(?i:url)$")
"""``remote.NAME.url``: the key ``git config`` points a remote at a URL with."""
_INSTEAD_OF = lazy_compile(r"^(?i:url)\.(.+)\.(?i:insteadof)$")
"""``url.BASE.insteadOf PREFIX``: git fetches from ``BASE…`` what a remote's URL names as ``PREFIX…``."""
_REVISION_SUFFIX = lazy_compile(r"(?:[~^][0-9]*|\^\{[^}]{0,64}\})+$")
"""``evil/main~1``, ``FETCH_HEAD^{commit}``: a revision of the ref."""
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
        index += 2 if values[index] in GIT_GLOBAL_VALUES else 1
    return values[index:], directory


_ANY_REMOTE = "*"
"""The remote name that stands for every remote of a repository whose ``.git/config`` was written."""


def _named_remote(name: str) -> bool:
    """A remote's name, not ``submodule:PATH`` or :data:`_ANY_REMOTE`."""
    return ":" not in name and name != _ANY_REMOTE


_LAST_IS_WRITTEN = frozenset({"cp", "mv", "install", "ln", "rsync", "ditto", "gcp", "gmv", "scp"})
_IN_PLACE = frozenset({"sed", "gsed", "perl"})


def _written_words(invocation: Invocation) -> Iterator[str]:
    """The files a statement writes, as written: its redirections, ``tee``'s operands, a copy's
    destination, the files ``sed -i`` edits, ``dd of=``."""
    command = invocation.command
    for redirect in command.redirects:
        target = command.static(redirect.target) if redirect.op in WRITE_OPERATORS else None
        if target:
            yield target
    values = static_args(invocation)
    operands = positionals(values)
    name = invocation.name
    in_place = any(
        v.startswith("--in-place") or (v[:1] == "-" and v[1:2] != "-" and "i" in v[1:]) for v in values
    )
    if name == "tee" or (name in _IN_PLACE and in_place):
        yield from operands
    elif name in _LAST_IS_WRITTEN and len(operands) >= 2:
        yield operands[-1]
    elif name == "dd":
        yield from (value[3:] for value in values if value.startswith("of="))


def _texts_written(invocation: Invocation) -> Iterator[str]:
    """What a statement that writes a file writes, where the line holds it: its here-documents and
    here-strings, ``echo``'s and ``printf``'s words."""
    command = invocation.command
    for redirect in command.redirects:
        if redirect.op == "<<<":
            yield command.static(redirect.target) or ""
        elif redirect.op in ("<<", "<<-"):
            yield from (sub.text for sub in command.substitutions_in(redirect.target))
    if invocation.name in ("echo", "printf"):
        yield " ".join(static_args(invocation)).replace("\\n", "\n")


def _fetched(source: str) -> bool:
    """A URL or ``host:path`` (scp-like), not a local directory; or a bundle (``y.bundle``: a
    repository carried here from elsewhere as a file)."""
    if remote(source) or source.endswith(".bundle"):
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


# [ \t]*, not \s*: a run of blank lines must not be scanned again from each of its lines.
_GITMODULES_SECTION = lazy_compile(r'^[ \t]*\[[ \t]*submodule[ \t]+"([^"\n]*)"[ \t]*\]', re.MULTILINE)
_GITMODULES_KEY = lazy_compile(r"^[ \t]*(path|url)[ \t]*=[ \t]*(.*?)[ \t]*$", re.MULTILINE)
_CONFIG_SECTION = lazy_compile(r'^[ \t]*\[[ \t]*([\w.-]+)(?:[ \t]+"([^"\n]*)")?[ \t]*\]', re.MULTILINE)


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


def submodule_directories(repository: str) -> list[tuple[str, str]]:
    """(directory, url) of each submodule the ``.gitmodules`` of the work tree ``repository`` lists."""
    from .paths import normalize_path
    from .script_files import read_script

    read = read_script(posixpath.join(repository, ".gitmodules"))
    return [
        (normalize_path(path, cwd=repository).rstrip("/"), url) for path, url in submodules(read.text or "")
    ]


def _configured_url(repository: str, name: str) -> str:
    """The URL the remote ``name`` has in the configuration of the work tree ``repository`` now."""
    return next((url for remote, url in _configured_remotes(repository) if remote == name), "")


def _configured_remotes(repository: str) -> list[tuple[str, str]]:
    """(name, URL) of each remote in the configuration of the work tree ``repository`` now."""
    from .script_files import read_script

    dot_git = posixpath.join(repository, ".git")
    config = posixpath.join(dot_git, "config")
    if os.path.isfile(dot_git):  # a worktree or a submodule: "gitdir: PATH"
        pointer = (read_script(dot_git).text or "").strip()
        if pointer.startswith("gitdir:"):
            gitdir = posixpath.join(repository, pointer[7:].strip())
            common = (read_script(posixpath.join(gitdir, "commondir")).text or "").strip()
            config = posixpath.join(gitdir, common, "config") if common else posixpath.join(gitdir, "config")
    text = read_script(config).text or ""
    sections = list(_CONFIG_SECTION.finditer(text))
    found = []
    for index, section in enumerate(sections):
        if section.group(1).lower() != "remote" or not section.group(2):
            continue
        end = sections[index + 1].start() if index + 1 < len(sections) else len(text)
        urls = [
            value.strip('"')
            for key, value in _GITMODULES_KEY.findall(text[section.end() : end])
            if key == "url"
        ]
        found += [(section.group(2), url) for url in urls[:1]]
    return found


def _same_repository(url: str, other: str) -> bool:
    """Whether two remote URLs name one repository (``https://github.com/me/p`` and
    ``git@github.com:me/p.git``)."""
    return bool(other) and _repository_of(url) == _repository_of(other)


def _repository_of(url: str) -> str:
    text = url.strip()
    _, separator, rest = text.partition("://")
    if separator:
        text = rest.partition("@")[2] if "@" in rest.partition("/")[0] else rest
        host, _, path = text.partition("/")
        host = host.partition(":")[0]  # a port
    else:
        host, _, path = text.partition(":")
        host = host.rpartition("@")[2]
    path = path.strip("/").removesuffix(".git").strip("/")
    return f"{host.lower()}/{path}"


_ARCHIVE_VALUES = frozenset({"--remote", "--exec", "-o", "--output", "--format", "--prefix", "--add-file",
                             "--add-virtual-file", "--mtime"})  # fmt: skip
"""``git archive``'s options that take a value."""
_OUTPUT = frozenset({"-o", "--output"})
_TARS = frozenset({"tar", "gtar", "bsdtar"})
_TAR_VALUE_LETTERS = frozenset("fCbTXKNgLV")
"""tar's short options that take a value (``-f ARCHIVE``, ``-C DIR`` ...)."""
_TAR_TO_STDOUT = frozenset({"-O", "--to-stdout", "--to-command", "-t", "--list"})


def _unpacked(invocation: Invocation) -> tuple[str, str] | None:
    """(the archive, as written: ``""`` or ``-`` for its input; the folder it lands in) of ``tar x``
    (``-C DIR``, ``--directory=DIR``) or ``unzip ARCHIVE [-d DIR]``; None for another command, or one
    that only lists or prints what the archive holds."""
    values = static_args(invocation)
    if invocation.name == "unzip":
        operands = positionals(values, frozenset({"-d", "-x", "-P"}))
        if not operands or {"-l", "-p", "-c", "-t", "-Z", "-v"} & set(values):
            return None
        directory = next((values[i + 1] for i, v in enumerate(values[:-1]) if v == "-d"), ".")
        return operands[0], directory
    if invocation.name not in _TARS:
        return None
    archive, directory, extract = "", ".", False
    pending: list[str] = []
    words = list(values)
    if words and not words[0].startswith("-"):  # tar xzf y.tgz: the old style, letters first
        pending = [letter for letter in words[0] if letter in _TAR_VALUE_LETTERS]
        extract = "x" in words[0]
        if "O" in words[0] or "t" in words[0]:
            return None
        words = words[1:]
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        following = words[index] if index < len(words) else ""
        if word in _TAR_TO_STDOUT or word.startswith("--to-command"):
            return None
        if word.startswith("--"):
            option, equals, value = word.partition("=")
            extract = extract or option in ("--extract", "--get")
            if option in ("--directory", "--file"):
                value = value if equals else following
                index += 0 if equals else 1
                archive, directory = (value, directory) if option == "--file" else (archive, value)
            continue
        if word.startswith("-") and len(word) > 1:
            for at, letter in enumerate(word[1:], start=1):
                if letter in "Ot":
                    return None
                extract = extract or letter == "x"
                if letter in _TAR_VALUE_LETTERS:
                    value = word[at + 1 :] or following
                    index += 0 if word[at + 1 :] else 1
                    archive, directory = (value, directory) if letter == "f" else (archive, directory)
                    directory = value if letter == "C" else directory
                    break
            continue
        if pending:  # tar xzf y.tgz -C y: the old style's values, in order
            letter = pending.pop(0)
            archive, directory = (word, directory) if letter == "f" else (archive, directory)
            directory = word if letter == "C" else directory
    return (archive, directory) if extract else None


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
    """The trees of code a session fetched from the network (``trees``: directory -> where from), the
    refs it fetched into a repository (``refs``: (repository, ref) -> where from; ``NAME/*``: the
    remote-tracking refs of a remote) and the remotes it pointed at a URL (``remotes``: (repository,
    name) -> URL; ``submodule:PATH`` for ``git submodule set-url``), followed statement by statement
    (:meth:`note`). ``fresh``: the trees found by this object's own :meth:`note` (this call)."""

    __slots__ = ("added", "build_texts", "fresh", "refs", "remotes", "trees")

    def __init__(self, entries: Sequence[str] = ()) -> None:
        self.trees: dict[str, str] = {}
        self.refs: dict[tuple[str, str], str] = {}
        self.remotes: dict[tuple[str, str], str] = {}
        self.fresh: set[str] = set()
        self.build_texts: dict[str, str] = {}
        """The build files of a directory, read once per decision (:func:`_built_beneath`)."""
        self.added: list[str] = []
        """The lines :meth:`note` found (a tree: ``DIR<tab>SOURCE``; a ref: ``@REPO<tab>REF<tab>SOURCE``;
        a remote: ``%REPO<tab>NAME<tab>URL``; an empty source or URL takes one back)."""
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
        if entry[:1] in ("@", "%"):
            repository, key, source = [*entry[1:].split("\t"), "", ""][:3]
            kept = self.refs if entry[0] == "@" else self.remotes
            if not repository.startswith("/") or not key:
                return
            if source:
                kept[(repository, key)] = source
            else:
                kept.pop((repository, key), None)
            return
        directory, tab, source = entry.partition("\t")
        if tab and directory.startswith("/"):
            self.trees[directory.rstrip("/") or "/"] = source

    def _add(self, line: str) -> None:
        if "\n" not in line and line.count("\t") == (1 if line[:1] not in ("@", "%") else 2):
            self.added.append(line)
            self._load(line)

    def _tree(self, directory: str, source: str, *, whole: bool = True) -> None:
        """``directory`` holds code fetched from ``source``; ``whole``: nothing but that code (a clone,
        a checkout of the fetched ref), not the fetched code merged into a work tree's own."""
        self._add(f"{directory}\t{source}")
        if whole and directory.rstrip("/") in self.trees:
            self.fresh.add(directory.rstrip("/") or "/")

    def _ref(self, repository: str, ref: str, source: str) -> None:
        self._add(f"@{repository}\t{ref}\t{source}")

    def _remote(self, repository: str, name: str, url: str) -> None:
        self._add(f"%{repository}\t{name}\t{url}")

    def tree_of(self, path: str) -> str | None:
        """The fetched directory ``path`` is in, if any."""
        for directory in self.trees:
            if path == directory or path.startswith(directory.rstrip("/") + "/"):
                return directory
        return None

    def tree_beneath(self, path: str) -> str | None:
        """A fetched directory inside ``path`` (``pytest`` in the project collects ``vendor/y``'s tests)."""
        return next(self.trees_beneath(path), None)

    def trees_beneath(self, path: str) -> Iterator[str]:
        """The fetched directories inside ``path``."""
        prefix = path.rstrip("/") + "/"
        return (directory for directory in self.trees if directory.startswith(prefix))

    def note(self, invocation: Invocation, fed: Invocation | None = None) -> None:
        """Follow one statement (``fed``: the stage of its pipeline whose output it reads): the trees
        and refs it fetches, the trees it copies, moves or unpacks."""
        from .paths import normalize_path

        cwd = invocation.cwd
        unpacked = _unpacked(invocation) if cwd is not None else None
        if unpacked is not None:  # git archive --remote=URL | tar x -C y; tar xzf y.tgz (fetched)
            archive, directory = unpacked
            source = self._archive_source(fed) if archive in ("", "-") and fed is not None else None
            if archive not in ("", "-"):
                source = self.trees.get(normalize_path(archive, cwd=cwd))
            if source is not None:
                self._tree(normalize_path(directory, cwd=cwd), source)
            return
        clone = cloned(invocation)
        if clone is not None:
            if cwd is None and not clone[1].startswith(("/", "~")):
                return  # a directory the guard cannot place (after a cd it cannot follow)
            directory = normalize_path(clone[1], cwd=cwd)
            if not _occupied(directory) or "--force" in static_args(invocation):
                self._tree(directory, clone[0])
            return
        if cwd is not None and invocation.name != "git":
            self._config_written(invocation, cwd)
        if cwd is not None and invocation.name == "git":
            self._git(invocation, cwd)
        elif (
            cwd is not None and invocation.name == "gh" and static_args(invocation)[:2] == ["pr", "checkout"]
        ):
            # A pull request's branch, from whoever wrote it, over the repository's own history.
            self._tree(_top_level(cwd), "a pull request checked out with gh", whole=False)
        elif cwd is not None and self.trees:
            self._copy(invocation, cwd)

    def _git(self, invocation: Invocation, cwd: str) -> None:
        from .paths import normalize_path

        values = static_args(invocation)
        rest, moved = _after_global(values)
        here = normalize_path(moved, cwd=cwd) if moved else cwd
        command = rest[:1]
        # git -c remote.origin.url=URL pull, GIT_CONFIG_PARAMETERS="'remote.origin.url'='URL'" git pull
        for setting in git_settings(values[: len(values) - len(rest)], invocation.env):
            self._configured(_top_level(here), *setting)
        if command == ["archive"]:
            output = next(
                (value for option, value in scan_options(rest[1:], _ARCHIVE_VALUES) if option in _OUTPUT),
                None,
            )
            source = self._archive_source(invocation)
            if output and source is not None:  # git archive --remote=URL -o y.tgz: an archive fetched
                self._tree(normalize_path(output, cwd=here), source)
        if command == ["config"]:
            operands = positionals(rest[1:], _CONFIG_VALUES)
            operands = operands[1:] if operands[:1] in (["set"], ["--add"]) else operands
            if len(operands) >= 2 and not {"--unset", "--get", "--unset-all", "--get-all"} & set(rest):
                repository = _top_level(here)
                # git config include.path ../remote.cfg: the included file's remotes are the repository's
                for setting in with_included(
                    [(operands[0], operands[1])], posixpath.join(repository, ".git")
                ):
                    self._configured(repository, *setting)
        if rest[:2] == ["submodule", "update"]:
            self._submodules(here, positionals(rest[2:], _SUBMODULE_VALUES))
        elif rest[:2] == ["submodule", "set-url"]:
            operands = positionals(rest[2:])
            if len(operands) == 2 and _fetched(operands[1]):
                repository = _top_level(here)
                path = normalize_path(operands[0], cwd=here).rstrip("/")
                self._remote(repository, f"submodule:{path}", operands[1])
        elif command == ["remote"]:
            self._remotes(_top_level(here), rest)
        elif command in (["pull"], ["fetch"]):
            self._fetch(_top_level(here), command[0], rest[1:])
        elif command == ["branch"]:
            self._branch(_top_level(here), rest[1:])
        elif rest[:2] in (["subtree", "add"], ["subtree", "pull"], ["subtree", "merge"]):
            self._subtree(_top_level(here), rest[1], rest[2:])
        elif (self.refs or self.remotes) and (
            (command and command[0] in _CHECKOUTS) or rest[:2] == ["worktree", "add"]
        ):
            repository = _top_level(here)
            words = positionals(rest[2:] if command == ["worktree"] else rest[1:], _CHECKOUT_VALUES)
            named = [*rest[1:], *(value.partition("=")[2] for value in rest[1:] if value.startswith("-"))]
            sources = [self._ref_source(repository, word) for word in named]  # --source=FETCH_HEAD too
            source = next((found for found in sources if found is not None), None)
            if source is None and command[0] in ("merge", "rebase") and not words:
                source = self._ref_source(repository, "@{upstream}")  # git merge: the branch's upstream
            if source is None:
                return
            if command == ["worktree"] and words:
                self._tree(normalize_path(words[0], cwd=here), source)
            else:
                self._tree(repository, source, whole=command[0] in _WHOLESALE)
            created = [
                value
                for option, value in scan_options(rest[1:], _BRANCH_CREATORS)
                if option in _BRANCH_CREATORS
            ]
            for branch in created if command[0] in ("checkout", "switch") else ():  # checkout -b pr evil/main
                self._ref(repository, branch, source)

    def _archive_source(self, invocation: Invocation) -> str | None:
        """Where ``git archive --remote=URL|REMOTE`` fetches its archive from, when that is the
        network (a remote this session pointed at a URL included); None for another command."""
        if invocation.name != "git" or invocation.cwd is None:
            return None
        from .paths import normalize_path

        rest, moved = _after_global(static_args(invocation))
        if rest[:1] != ["archive"]:
            return None
        remote_name = next(
            (value for option, value in scan_options(rest[1:], _ARCHIVE_VALUES) if option == "--remote"), ""
        )
        if not remote_name:
            return None
        if _fetched(remote_name):
            return remote_name
        here = normalize_path(moved, cwd=invocation.cwd) if moved else invocation.cwd
        return self._url_of(_top_level(here), remote_name)

    def _ref_source(self, repository: str, word: str) -> str | None:
        """Where the ref ``word`` names was fetched from, when this session fetched it: a ref named
        by a fetch (``FETCH_HEAD``, a refspec's destination, a branch made from one), or a
        remote-tracking ref of a remote this session pointed at a URL (``evil/main``,
        ``refs/remotes/evil/main``, ``evil``, ``@{upstream}`` while one is there)."""
        ref = _REVISION_SUFFIX.sub("", word)
        for prefix in ("refs/remotes/", "remotes/", "refs/heads/"):
            ref = ref.removeprefix(prefix)
        found = self.refs.get((repository, ref))
        if found is not None or not ref:
            return found
        if "@{u" in word:  # @{u}, @{upstream}, main@{u}: a tracked remote's branch
            return next(
                (s for (r, key), s in self.refs.items() if r == repository and key.endswith("/*")), None
            )
        return self.refs.get((repository, ref.partition("/")[0] + "/*"))

    def _configured(self, repository: str, key: str, value: str) -> None:
        """A setting of git's configuration that points a remote at a URL: ``remote.NAME.url URL``,
        ``url.URL.insteadOf PREFIX`` (every remote whose URL starts with the prefix)."""
        match = _REMOTE_URL.match(key)
        if match is not None:
            self._pointed(repository, match.group(1), value)
            return
        match = _INSTEAD_OF.match(key)
        if match is None or not _fetched(match.group(1)) or not value:
            return
        remotes = dict(_configured_remotes(repository))
        remotes.update((name, url) for (where, name), url in self.remotes.items() if where == repository)
        for name, url in remotes.items():
            if url.startswith(value) and not name.startswith("submodule:"):
                self._pointed(repository, name, match.group(1) + url[len(value) :])

    def _remotes(self, repository: str, rest: list[str]) -> None:
        """``git remote add|set-url|rename|remove|update``."""
        action, args = (rest[1], rest[2:]) if len(rest) > 1 else ("", [])
        operands = positionals(args, _REMOTE_VALUES)
        if action == "add" and len(operands) >= 2:
            if self._pointed(repository, operands[0], operands[1]) and {"-f", "--fetch"} & set(args):
                self._fetched_remote(repository, operands[0])
        elif action == "set-url" and len(operands) >= 2 and not {"--push", "--delete"} & set(args):
            self._pointed(repository, operands[0], operands[1])
        elif action == "rename" and len(operands) == 2 and (repository, operands[0]) in self.remotes:
            url = self.remotes[(repository, operands[0])]
            self._remote(repository, operands[0], "")
            self._remote(repository, operands[1], url)
            source = self.refs.get((repository, operands[0] + "/*"))
            if source is not None:
                self._ref(repository, operands[0] + "/*", "")
                self._ref(repository, operands[1] + "/*", source)
        elif action in ("remove", "rm") and len(operands) == 1:
            self._remote(repository, operands[0], "")
            self._ref(repository, operands[0] + "/*", "")  # git drops its remote-tracking refs
        elif action == "update":
            for (where, name), _url in list(self.remotes.items()):
                if where == repository and _named_remote(name):
                    self._fetched_remote(repository, name)

    def _pointed(self, repository: str, name: str, url: str) -> bool:
        """Remember that the remote ``name`` now fetches from ``url``, a URL of the network naming
        another repository than the one it named (``set-url origin git@…`` to the same one is not).
        A remote the session pointed at a URL stays pointed: what the configuration names now is
        the session's doing, not the user's (setting the same URL again must not clear it)."""
        if (repository, name) in self.remotes:
            self._remote(repository, name, url if _fetched(url) else self.remotes[(repository, name)])
            return True
        if not _fetched(url) or _same_repository(url, _configured_url(repository, name)):
            return False
        self._remote(repository, name, url)
        return True

    def _fetched_remote(self, repository: str, name: str, refspecs: Sequence[str] = ()) -> None:
        url = self._url_of(repository, name)
        if url is None:
            return
        self._ref(repository, name + "/*", url)
        self._ref(repository, "FETCH_HEAD", url)
        self._refspecs(repository, refspecs, url)

    def _refspecs(self, repository: str, refspecs: Sequence[str], source: str) -> None:
        for refspec in refspecs:
            destination = refspec.lstrip("+").partition(":")[2]
            if destination:
                self._ref(repository, destination.removeprefix("refs/heads/"), source)

    def _fetch(self, repository: str, command: str, args: list[str]) -> None:
        """``git fetch|pull URL``, or of a remote this session pointed at a URL (none named: the
        branch's upstream, which may be any of them)."""
        operands = positionals(args, _FETCH_VALUES)
        if operands and _fetched(operands[0]):
            url, refspecs = operands[0], operands[1:]
            if self._own_url(repository, url):
                return  # git pull https://github.com/me/proj: the repository's own remote, by its URL
        else:
            rewritten = (repository, _ANY_REMOTE) in self.remotes
            pointed = [name for (where, name) in self.remotes if where == repository and _named_remote(name)]
            if "--multiple" in args or (operands and "--all" not in args):
                names, refspecs = (operands, []) if "--multiple" in args else (operands[:1], operands[1:])
            else:
                names, refspecs = pointed or (["origin"] if rewritten else []), []  # --all, or none named
            names = [name for name in names if name in pointed or (rewritten and _named_remote(name))]
            if not names:
                return  # the remotes of the repository's own configuration
            if command == "fetch":
                for name in names:
                    self._fetched_remote(repository, name, refspecs)
                return
            url = self._url_of(repository, names[0]) or ""
        if command == "pull":
            self._tree(repository, url, whole=False)  # merged into the branch
            return
        self._ref(repository, "FETCH_HEAD", url)
        self._refspecs(repository, refspecs, url)

    def _own_url(self, repository: str, url: str) -> bool:
        """Whether ``url`` names the repository a remote of its configuration names, as the user left
        it (not a remote this session pointed, nor a configuration it wrote)."""
        if (repository, _ANY_REMOTE) in self.remotes:
            return False
        return any(
            _same_repository(url, own)
            for name, own in _configured_remotes(repository)
            if (repository, name) not in self.remotes
        )

    def _url_of(self, repository: str, name: str) -> str | None:
        """Where the remote ``name`` fetches from, when this session pointed it at a URL (or wrote the
        repository's ``.git/config`` by other means than git: any remote)."""
        found = self.remotes.get((repository, name))
        if found is None and _named_remote(name):
            found = self.remotes.get((repository, _ANY_REMOTE))
        return found

    def _config_written(self, invocation: Invocation, cwd: str) -> None:
        """``sed -i … .git/config``, ``printf … >> .git/config``, ``cp x .git/config``: a repository's
        remotes may point anywhere now (what the file says is not known when the line is judged)."""
        from .cmake_files import is_cmake_file
        from .paths import normalize_path
        from .script_files import read_script

        for word in _written_words(invocation):
            path = normalize_path(word, cwd=cwd)
            self.config_written(path)
            if is_cmake_file(path):  # cat >> CMakeLists.txt <<EOF … FetchContent_Declare(…) EOF
                self.fetch_written(path, read_script(path).text or "", "\n".join(_texts_written(invocation)))

    def fetch_written(self, path: str, old: str, new: str) -> None:
        """The CMake file ``path`` goes from ``old`` to ``new``: a fetch from the network it did not
        name before makes its folder's build run fetched code."""
        from .cmake_files import fetched_urls

        before = set(fetched_urls(old))
        url = next((url for url in fetched_urls(new) if url not in before), None)
        if url is not None:
            name = posixpath.basename(path)
            self._tree(
                posixpath.dirname(path) or "/", f"{url} (named in {name} in this session)", whole=False
            )

    def config_written(self, path: str) -> None:
        """``path`` was written: when it is a repository's ``.git/config``, its remotes may point
        anywhere now."""
        if path.endswith("/.git/config"):
            self._remote(path[: -len("/.git/config")] or "/", _ANY_REMOTE, f"{path}, written in this session")

    def _subtree(self, repository: str, action: str, args: list[str]) -> None:
        """``git subtree add|pull|merge --prefix=DIR URL|REMOTE|REF``: ``DIR`` holds what was fetched."""
        from .paths import normalize_path

        prefix = next(
            (value for option, value in scan_options(args, _SUBTREE_VALUES) if option in _PREFIX), ""
        )
        operands = positionals(args, _SUBTREE_VALUES)
        if not prefix or not operands:
            return
        source = operands[0] if _fetched(operands[0]) else self.remotes.get((repository, operands[0]))
        source = source or self._ref_source(repository, operands[0])
        if source is not None:
            self._tree(normalize_path(prefix, cwd=repository), source, whole=action == "add")

    def _branch(self, repository: str, args: list[str]) -> None:
        """``git branch NEW START``: a branch made from a fetched ref is the fetched code."""
        if _BRANCH_QUERIES & set(args):
            return
        operands = positionals(args)
        if len(operands) == 2:
            source = self._ref_source(repository, operands[1])
            if source is not None:
                self._ref(repository, operands[0], source)

    def _submodules(self, here: str, pathspecs: list[str]) -> None:
        """``git submodule update``: the submodules of ``.gitmodules`` (those the pathspecs name) that
        are empty, or whose URL this session changed (``git submodule set-url``)."""
        from .paths import normalize_path

        repository = _top_level(here)
        wanted = [normalize_path(spec, cwd=here).rstrip("/") for spec in pathspecs]
        for directory, url in submodule_directories(repository):
            if wanted and not any(directory == w or directory.startswith(w + "/") for w in wanted):
                continue
            pointed = self.remotes.get((repository, f"submodule:{directory}"))
            if pointed is not None:
                self._tree(directory, pointed)
            elif not _occupied(directory):
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

_MENTIONS = lazy_compile(
    r"(?<![\w.-])(?:git|degit|tiged|gh|cp|mv|rsync|ditto|ln|gcp|gmv)(?![\w-])|\.git/config|CMakeLists\.txt|\.cmake\b"
)
"""The programs that fetch, or carry a fetched tree on, and a repository's configuration (written, it
may point a remote anywhere): a line naming none of them is not walked (nor one that unpacks, when
the session fetched no archive)."""
_MENTION_WORDS = ("git", "tiged", "gh", "cp", "mv", "rsync", "ditto", "ln", "CMakeLists", ".cmake")
"""Substrings one of which every match of :data:`_MENTIONS` holds: found by a plain scan first, since
the pattern, tried at each position, costs about 70 ms on a 10 MB line that names none of them."""


def _mentions(command: str) -> bool:
    return any(word in command for word in _MENTION_WORDS) and _MENTIONS.search(command) is not None


_UNPACKS = lazy_compile(r"(?<![\w.-])(?:tar|gtar|bsdtar|unzip)(?![\w-])")
"""The programs that unpack an archive (``git archive --remote=URL -o y.tgz``, then ``tar xzf y.tgz``)."""


def _session(session: str | None) -> Fetches:
    from .session_downloads import CLONES, kept

    return Fetches(kept(session, CLONES))


def _statements(command: str, cwd: str | None) -> Iterator[Invocation]:
    for invocation, _fed in _piped(command, cwd):
        yield invocation


def _piped(command: str, cwd: str | None) -> Iterator[tuple[Invocation, Invocation | None]]:
    """Each statement of ``command``, with the stage of its pipeline whose output it reads (None:
    it reads none)."""
    from .parse import ShellSyntaxError, parsed
    from .programs import walk

    try:
        script = parsed(command)
    except ShellSyntaxError:
        return
    for stages in walk(script, cwd=cwd):
        fed = None
        for stage in stages:
            yield stage, fed
            fed = stage


def remember_clones(session: str | None, command: str, cwd: str | None) -> None:
    """Keep the directories ``command`` (a call of ``session`` that was not blocked) fills from the
    network, and the refs it fetches (:class:`Fetches`)."""
    from .session_downloads import CLONES, keep

    try:
        fetches = _session(session)
        if not _mentions(command) and not (fetches.trees and _UNPACKS.search(command)):
            return
        for invocation, fed in _piped(command, cwd):
            fetches.note(invocation, fed)
    except Exception:  # the call was let through: a parse that fails here must not fail it
        return
    keep(session, CLONES, fetches.entries())


def remember_written_fetches(session: str | None, path: str, old: str, new: str) -> None:
    """Keep that a call of ``session`` wrote into the CMake file ``path`` (its text ``old``, now
    ``new``) a fetch from the network (``FetchContent_Declare``, ``ExternalProject_Add``,
    ``file(DOWNLOAD)``) it did not hold: the folder's build runs what it fetches."""
    from .cmake_files import is_cmake_file
    from .session_downloads import CLONES, keep

    if not is_cmake_file(path) or not new:
        return
    fetches = _session(session)
    fetches.fetch_written(path, old, new)
    if fetches.added:
        keep(session, CLONES, fetches.entries())


def remember_config_written(session: str | None, path: str) -> None:
    """Keep that a call of ``session`` (a file tool's) pointed a remote of the repository whose git
    configuration is ``path`` at a URL: every remote of it may fetch from anywhere now, as after a
    ``sed -i`` of the file (:meth:`Fetches._config_written`)."""
    from .session_downloads import CLONES, keep

    fetches = _session(session)
    fetches.config_written(path)
    keep(session, CLONES, fetches.entries())


def check_clone_runs(session: str | None, command: str, cwd: str | None) -> Verdict | None:
    """An ask (category ``unjudged script``, as the policy decides) when ``command`` runs the code of
    a directory this session fetched from the network (in an earlier call, or earlier in this one),
    or a block when the files the build runs show a danger (:mod:`.script_files` judges them), or
    when it runs a file of a tree this very call fetched (a download and run); None otherwise (and
    when nothing was fetched)."""
    fetches = _session(session)
    if not (fetches.trees or fetches.refs or fetches.remotes) and not _mentions(command):
        return None
    for invocation, fed in _piped(command, cwd):
        if invocation.cwd is not None and fetches.trees:
            verdict = _judge_run(fetches, invocation) or _judge_foreach(fetches, invocation)
            if verdict is not None:
                return verdict
        fetches.note(invocation, fed)
    return None


def _judge_run(fetches: Fetches, invocation: Invocation) -> Verdict | None:
    """The verdict on one statement (its ``cwd`` known) that may run the code of a fetched tree."""
    from . import build_files, script_files
    from .paths import normalize_path
    from .policy import current_policy

    places = [*build_files.runs_code_in(invocation)]
    places += [run.word for run in build_files.given_settings(invocation) if not run.how]  # --config y/x.toml
    script_word = script_files.script_run(invocation)  # ./install.sh, bash y/setup.sh
    collected = {  # pytest, go generate ./...: the code of every folder beneath
        normalize_path(word, cwd=run.cwd)
        for run in build_files.builds(invocation)
        if run.language == build_files.PYTEST or "recursive" in run.entries
        for word in (run.word, *run.fallbacks)
    }
    for word in [*places, *([script_word] if script_word is not None else []), *collected]:
        path = normalize_path(word, cwd=invocation.cwd)
        tree = fetches.tree_of(path) or (fetches.tree_beneath(path) if path in collected else None)
        if tree is None and word in places:  # cmake -B build, make -C build: the root build builds vendor/x
            source_directory = _configured_source(path)
            tree = _built_beneath(fetches, path) or (
                _built_beneath(fetches, source_directory) if source_directory else None
            )
        if tree is None:
            continue
        name = posixpath.basename(tree)
        source = fetches.trees[tree]
        piece = " ".join(invocation.command.text.split())
        piece = piece if len(piece) <= 80 else piece[:79] + "…"
        if word == script_word and tree in fetches.fresh and not _build_entry(word):
            why = f"runs {word}, a file of {name}, fetched from {source} earlier in the command"
            return current_policy().apply(Verdict(DOWNLOAD_RUN, piece, why, rule="clone rule"))
        builds = [b for b in build_files.builds(invocation) if b.cwd is not None]
        judged = script_files.check_runs(builds) if builds else None
        if judged is not None and judged.decision == "block":
            return judged
        why = (
            f"runs the code of {name}, fetched from {source} in this session: the guard "
            "judges its build and script files, not the rest of what runs (compiled code, tests), so "
            "a person is asked"
        )
        found = Verdict(UNJUDGED_SCRIPT, piece, why, rule="clone rule")
        return script_files.stricter(current_policy().apply(found), judged)
    return None


def _build_entry(word: str) -> bool:
    """``./configure``, ``./autogen.sh``: a source tree's build entry point (building it is asked)."""
    from .tactics.exfiltration import BUILD_SCRIPTS

    return posixpath.basename(word) in BUILD_SCRIPTS


def foreach(invocation: Invocation) -> str | None:
    """The command ``git submodule foreach [--quiet] [--recursive] CMD`` runs in each submodule."""
    if invocation.name != "git":
        return None
    rest, _ = _after_global(static_args(invocation))
    if rest[:2] != ["submodule", "foreach"]:
        return None
    words = rest[2:]
    while words and words[0] in ("--quiet", "-q", "--recursive"):
        words = words[1:]
    if not words:
        return None
    return words[0] if len(words) == 1 else shlex.join(words)


def foreach_directories(invocation: Invocation) -> list[str]:
    """The directories of the submodules ``git submodule foreach`` runs its command in (those of
    the submodules' own ``.gitmodules`` too, with ``--recursive``)."""
    from .paths import normalize_path

    if invocation.cwd is None:
        return []
    rest, moved = _after_global(static_args(invocation))
    here = normalize_path(moved, cwd=invocation.cwd) if moved else invocation.cwd
    pending = [_top_level(here)]
    found: list[str] = []
    while pending and len(found) < _MAX_SUBMODULES:
        repository = pending.pop()
        for directory, _url in submodule_directories(repository):
            found.append(directory)
            if "--recursive" in rest[2:]:
                pending.append(directory)
    return found[:_MAX_SUBMODULES]


_MAX_SUBMODULES = 64
"""The submodules whose directories ``git submodule foreach`` is followed into."""


def _judge_foreach(fetches: Fetches, invocation: Invocation) -> Verdict | None:
    """``git submodule foreach make``: the command, run in each submodule a fetch filled."""
    code = foreach(invocation)
    if code is None:
        return None
    for directory in foreach_directories(invocation):
        if fetches.tree_of(directory) is None:
            continue
        for inner in _statements(code, directory):
            verdict = _judge_run(fetches, inner) if inner.cwd is not None else None
            if verdict is not None:
                return verdict
    return None


def _built_beneath(fetches: Fetches, directory: str) -> str | None:
    """A fetched tree inside ``directory`` that the build files of ``directory`` build: they name
    its path (``add_subdirectory(vendor/x)``, ``$(MAKE) -C vendor/x``, ``path = "vendor/x"``), a
    folder above it as a directory to build (``add_subdirectory(third_party)``, ``"packages/*"``),
    or it is a meson subproject they name (``subprojects/x``: ``subproject('x')``)."""
    beneath = list(fetches.trees_beneath(directory))
    if not beneath:
        return None
    from .script_files import read_script

    text = fetches.build_texts.get(directory)
    if text is None:
        text = "\n".join(
            read_script(posixpath.join(directory, name)).text or "" for name in _ROOT_BUILD_FILES
        )
        fetches.build_texts[directory] = text
    if not text.strip():
        return None
    for tree in beneath[:_MAX_SUBMODULES]:
        relative = tree[len(directory.rstrip("/")) + 1 :]
        if _names_path(text, relative):
            return tree
        parts = relative.split("/")
        if any(_names_folder(text, "/".join(parts[:index])) for index in range(1, len(parts))):
            return tree
        meson = rf"""subproject\(\s*['"]{re.escape(parts[-1])}['"]"""
        if parts[:-1] == ["subprojects"] and re.search(meson, text) is not None:
            return tree
    return None


_CMAKE_SOURCE = lazy_compile(r"^CMAKE_HOME_DIRECTORY:\w+=(/[^\n]*)", re.MULTILINE)
_MESON_SOURCE = lazy_compile(r'"source"\s*:\s*("(?:[^"\\\n]|\\.)*")')


def _configured_source(directory: str) -> str | None:
    """The source directory a build directory was configured from (``CMakeCache.txt``, meson's
    ``meson-info/meson-info.json``): what ``make -C build`` or ``ninja -C build`` compiles."""
    import json

    from .script_files import read_script

    cache = read_script(posixpath.join(directory, "CMakeCache.txt")).text or ""
    found = _CMAKE_SOURCE.search(cache)
    if found is not None:
        return found.group(1).strip()
    info = read_script(posixpath.join(directory, "meson-info", "meson-info.json")).text or ""
    found = _MESON_SOURCE.search(info)
    if found is not None:
        try:
            source = json.loads(found.group(1))
        except ValueError:
            return None
        return source if isinstance(source, str) and source.startswith("/") else None
    return None


_ROOT_BUILD_FILES = ("CMakeLists.txt", "meson.build", "Makefile", "makefile", "GNUmakefile", "build.ninja",
                     "Cargo.toml", "package.json", "pnpm-workspace.yaml", "setup.py", "pyproject.toml",
                     "setup.cfg", "build.gradle", "build.gradle.kts", "settings.gradle",
                     "settings.gradle.kts", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel", "BUILD",
                     "BUILD.bazel", "SConstruct", "Makefile.am", "configure.ac", "go.work", "go.mod",
                     "xmake.lua", "build.zig", "premake5.lua", "Rakefile", "pom.xml", "Justfile", "justfile",
                     "Taskfile.yml")  # fmt: skip
"""The build files of a directory that may build the code of a folder inside it."""


def _names_path(text: str, relative: str) -> bool:
    """Whether ``text`` names the path ``relative`` (``vendor/x``, ``./vendor/x/lib.a``), not a longer
    name that starts with it (``vendor/xz``)."""
    return re.search(rf"(?<![\w.-])(?:\./)?{re.escape(relative)}(?![\w.-])", text) is not None


_LISTS_FOLDERS = ("add_subdirectory", "subdir", "SUBDIRS", "-C")
"""What names a folder to build in a build file (cmake, meson, automake, make's recursion)."""


def _names_folder(text: str, folder: str) -> bool:
    """Whether ``text`` names ``folder`` as a directory to build: as a pattern of folders
    (``"packages/*"``), or alone on a line that lists folders to build (``add_subdirectory(third_party)``,
    ``subdir('lib')``, ``SUBDIRS = lib``, ``$(MAKE) -C lib``)."""
    word = rf"(?<![\w.-])(?:\./)?{re.escape(folder)}"
    if re.search(rf"{word}/\*", text) is not None:
        return True
    alone = re.compile(rf"{word}(?![\w./-])")
    return any(
        alone.search(line) is not None
        for line in text.splitlines()
        if folder in line and any(listing in line for listing in _LISTS_FOLDERS)
    )
