"""Which project files a build, package or deploy command runs: ``make``, ``npm run``, ``kubectl -f``.

``make test`` runs the Makefile's recipes, ``npm test`` the ``test`` script of
``package.json``, ``kubectl apply -f pod.yaml`` the pod its manifest describes,
``docker compose up`` the services of ``compose.yaml``: the project directory is
not trusted, so what they run is judged by what the files say
(:mod:`.script_files` reads them safely and judges them). This module only
says which file a command reads, from where, and what of it:

- ``make [-C DIR] [-f FILE] [VAR=value] [target...]``: ``FILE``, else ``GNUmakefile``,
  ``makefile``, ``Makefile`` in ``DIR``, with the goals named; command-line variables
  override the file's;
- ``npm run X`` / ``npm test|start|stop|restart`` / ``yarn [run] X`` / ``pnpm [run] X``
  / ``bun run X``: ``package.json``'s ``preX``, ``X`` and ``postX``; ``npm install``
  / ``npm ci`` / ``yarn`` / ``pnpm install`` / ``bun install``: the project's own
  lifecycle scripts (``preinstall``, ``install``, ``postinstall``, ``prepare`` ...);
  ``npm pack|publish|version`` (yarn's, pnpm's): theirs (``prepack``, ``prepublishOnly`` ...);
- ``kubectl apply|create|replace -f FILE|DIR`` and ``-k DIR``: the manifests;
- ``docker compose up|run|create`` / ``docker-compose`` / ``podman compose``: the
  compose files (``-f``, ``COMPOSE_FILE=`` before the command, else ``compose.yaml`` and
  its kin, and the override file);
- ``helm install|upgrade|template … CHART``: the chart, with its ``-f`` values files and
  ``--set`` values (``--post-renderer`` names a script helm runs);
- ``pip install .`` / ``-e DIR``: the project's ``setup.py``, and an in-tree build backend
  (``pyproject.toml``'s ``backend-path``);
- ``tox``: its configuration's command lines; ``nox``: ``noxfile.py``.

A file fetched when the command runs (``kubectl apply -f URL``, a chart from a repository)
is :data:`UNSEEN`: there is nothing to judge offline, and a person is asked. ``-f -``
(:data:`STDIN`) is resolved by :mod:`.project_sources`, which sees the whole line.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from ..frozen import Frozen
from .findings import scan_options, static_args
from .programs import Invocation

__all__ = [
    "APPENDED",
    "CMAKE",
    "COMPOSE_ENV",
    "COMPOSE_FILES",
    "INSTALL_SCRIPTS",
    "PEP517",
    "STDIN",
    "TOX",
    "TOX_FILES",
    "UNSEEN",
    "WRITTEN",
    "FileRun",
    "compose_file_list",
    "planned",
    "remote",
    "unseen",
]


class FileRun(Frozen):
    """A file a command runs (a script, or a project's Makefile, package.json, manifest): its
    path as written, how to read it, and what of it runs. :mod:`.script_files` judges it."""

    __slots__ = ("cwd", "elevated", "entries", "fallbacks", "how", "language", "text", "word")

    word: str
    language: str
    """``shell``, ``python``, ``applescript``, ``jxa``, another interpreter's name (``perl`` ...),
    ``""`` (the shebang says), or for a project's files ``make``, ``npm``, ``kube``, ``compose``."""
    cwd: str | None
    fallbacks: tuple[str, ...]
    """Other names, read if ``word`` is no file: ``makefile``, ``Makefile`` after ``GNUmakefile``;
    for a script, later operands (``python3 --some-option value x.py``: ``value`` may be an option's)."""
    entries: tuple[str, ...]
    """What of the file runs: npm script names; make's goals (``goal:NAME``, ``goal:*`` for every
    recipe) and ``VAR=value`` overrides (``env:VAR=value`` for the environment's, which the
    file's own assignments win over); a chart's values files (``values:FILE``) and ``--set``
    values (``set:KEY=VALUE``)."""
    how: str
    """Where the text comes from: ``""`` the file on disk; :data:`WRITTEN` ``text`` itself (written
    earlier in the command, or fed on standard input); :data:`APPENDED` the file on disk and then
    ``text``; :data:`UNSEEN` from where the guard cannot read it (a URL, a program's output), which
    ``text`` says."""
    text: str
    elevated: bool
    """Run as root or another account (``sudo ./x.sh``, ``doas sh x.sh``): its file reads are judged too."""

    def __init__(
        self,
        word: str,
        language: str,
        cwd: str | None,
        fallbacks: tuple[str, ...] = (),
        entries: tuple[str, ...] = (),
        how: str = "",
        text: str = "",
        elevated: bool = False,
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "word", word)
        set_field(self, "language", language)
        set_field(self, "cwd", cwd)
        set_field(self, "fallbacks", fallbacks)
        set_field(self, "entries", entries)
        set_field(self, "how", how)
        set_field(self, "text", text)
        set_field(self, "elevated", elevated)


WRITTEN, APPENDED, UNSEEN = "written", "appended", "unseen"
STDIN = "-"
"""The word of a project file read from standard input (``kubectl apply -f -``, ``make -f -``):
:mod:`.script_files` finds what feeds it (a here-document, the stage before it in a pipeline)."""


def remote(word: str) -> bool:
    """Whether ``word`` names something fetched when the command runs (a URL, a git repository)."""
    return "://" in word or word.startswith(("git@", "github.com/", "gitlab.com/", "bitbucket.org/"))


def unseen(word: str, language: str, cwd: str | None, why: str, entries: tuple[str, ...] = ()) -> FileRun:
    """A project file the guard cannot read, and why (``fetched from URL when kubectl runs``)."""
    return FileRun(word, language, cwd, entries=entries, how=UNSEEN, text=why)


def planned(invocation: Invocation, exported: Mapping[str, str | None] | None = None) -> tuple[FileRun, ...]:
    """The project files ``invocation`` runs (none for any other command). ``exported``: the variables
    the line exported before it (``export COMPOSE_FILE=x.yml``; None: a value made at run time)."""
    name = invocation.name
    if name in ("make", "gmake", "bmake", "remake"):
        return _make(invocation)
    if name in ("npm", "yarn", "pnpm", "bun", "yarnpkg"):
        return _package(invocation)
    if name in ("kubectl", "oc"):
        return _kube(invocation)
    if name in ("docker", "podman", "nerdctl", "docker-compose", "podman-compose"):
        return _compose(invocation, exported or {})
    if name == "helm":
        return _helm(invocation)
    if name in ("pip", "pip3") or (name.startswith("pip3.") and name[5:].isdigit()):
        return _pip(invocation)
    if name.startswith("python") and static_args(invocation)[:2] == ["-m", "pip"]:
        return _pip(invocation)  # python3 -m pip install -e .
    if name in ("tox", "nox") or (name.startswith("python") and static_args(invocation)[:2] in _TASK_MODULES):
        return _task_runner(invocation)
    if name == "cmake":
        return _cmake(invocation)
    return ()


def _fed(invocation: Invocation) -> bool:
    """Whether a here-document or here-string feeds the command (tree-sitter-bash drops a bare
    ``-`` written just before ``<<EOF``: ``kubectl apply -f - <<EOF`` parses as ``-f`` alone)."""
    return any(redirect.op in ("<<", "<<<") for redirect in invocation.command.redirects)


def _within(cwd: str | None, directory: str | None) -> str | None:
    """The directory ``directory`` names, seen from ``cwd`` (None: unknown)."""
    if directory is None:
        return cwd
    if directory.startswith("/"):
        return posixpath.normpath(directory)
    return posixpath.normpath(posixpath.join(cwd, directory)) if cwd is not None else None


# -- make ------------------------------------------------------------------------------------------

_MAKE_VALUES = frozenset({"-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir", "-j",
                          "--jobs", "-l", "--load-average", "-o", "--old-file", "--assume-old", "-W",
                          "--what-if", "--new-file", "--assume-new", "-O", "--output-sync", "--eval",
                          "--debug", "--shuffle", "--jobserver-style"})  # fmt: skip
_MAKE_OPTIONAL = frozenset({"-j", "--jobs", "-l", "--load-average", "-O", "--output-sync", "--debug"})
"""Options whose value is optional: only a number (or a mode word) that follows is theirs."""
_MAKE_MODES = frozenset({"target", "line", "recurse", "none", "basic", "verbose", "implicit", "jobs", "all",
                         "makefile", "print", "why"})  # fmt: skip


_MAKE_ATTACHED = frozenset({"-C", "-f", "-I", "-o", "-W"})
"""Short options whose value may be written against them (``-Cdir``)."""


def _make_value(option: str, word: str) -> bool:
    """Whether ``word`` is the value of ``option``: ``-j 4`` is, ``-j all`` (a goal) is not."""
    return option not in _MAKE_OPTIONAL or word.isdigit() or word in _MAKE_MODES


def _make(invocation: Invocation) -> tuple[FileRun, ...]:
    values = static_args(invocation)
    if {"--version", "-v", "--help", "-h"} & set(values):
        return ()
    cwd = invocation.cwd
    files: list[str] = []
    overrides: list[str] = []
    goals: list[str] = []
    for option, value in scan_options(values, _MAKE_VALUES, attached=_MAKE_ATTACHED, optional=_make_value):
        if option in ("-C", "--directory"):
            cwd = _within(cwd, value)
        elif option in ("-f", "--file", "--makefile"):
            files.append(value or (STDIN if _fed(invocation) else ""))
        elif not option and "=" in value:
            overrides.append(value)
        elif not option:
            goals.append(value)
    for assignment in invocation.env:
        overrides.append("env:" + (invocation.command.static(assignment) or assignment))
    if len(files) > 1:
        goals = ["*"]  # the rules of several files make one graph: every recipe is judged
    entries = (*overrides, *(f"goal:{goal}" for goal in goals))
    if files:
        return tuple(FileRun(file, "make", cwd, entries=entries) for file in files if file)
    return (FileRun("GNUmakefile", "make", cwd, ("makefile", "Makefile"), entries),)


# -- npm, yarn, pnpm, bun ------------------------------------------------------------------------

INSTALL_SCRIPTS = ("preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare",
                   "postprepare", "dependencies")  # fmt: skip
"""The project's own scripts npm runs on ``npm install`` / ``npm ci`` (its dependencies' are not read)."""
_RUNS = frozenset({"run", "run-script", "rum", "urn"})
_SHORTHANDS = {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop",
               "restart": "restart"}  # fmt: skip
_INSTALLS = frozenset({"install", "i", "ci", "clean-install", "add", "isntall", "in", "ins", "inst", "insta",
                       "instal", "isnt", "isnta", "isntal", "install-clean", "install-test", "it", "cit",
                       "install-ci-test", "rebuild", "rb"})  # fmt: skip
_LIFECYCLES = {
    "pack": ("prepack", "prepare", "postpack"),
    "publish": ("prepublishOnly", "prepack", "prepare", "postpack", "prepublish", "publish", "postpublish"),
    "version": ("preversion", "version", "postversion"),
}
"""The project's own scripts ``npm pack``, ``npm publish`` and ``npm version`` run."""
_YARN_COMMANDS = frozenset({"add", "audit", "autoclean", "bin", "cache", "check", "config", "create", "dlx",
                            "exec", "generate-lock-entry", "global", "help", "import", "info", "init",
                            "install", "licenses", "link", "list", "login", "logout", "node", "outdated",
                            "owner", "pack", "patch", "plugin", "policies", "publish", "remove", "set",
                            "tag", "team", "unlink", "unplug", "upgrade", "upgrade-interactive", "version",
                            "versions", "why", "workspace", "workspaces", "up", "dedupe", "explain",
                            "constraints", "npm", "rebuild", "search", "stage", "sdks"})  # fmt: skip
"""yarn's own commands: any other first word runs the script of that name."""
_PNPM_COMMANDS = frozenset({"add", "install", "i", "update", "up", "remove", "rm", "link", "unlink", "import",
                            "rebuild", "rb", "prune", "fetch", "audit", "list", "ls", "outdated", "why",
                            "exec", "dlx", "create", "env", "store", "publish", "pack", "server", "setup",
                            "init", "deploy", "licenses", "patch", "patch-commit", "config", "root", "bin",
                            "dedupe", "doctor", "help", "ci", "cat-file", "cat-index", "find-hash",
                            "approve-builds", "self-update", "recursive", "-r"})  # fmt: skip
_PACKAGE_VALUES = frozenset({"--prefix", "--cwd", "-C", "--dir", "--workspace", "-w", "--filter", "-F",
                             "--registry", "--cache", "--loglevel", "--userconfig", "--tag"})  # fmt: skip


def _package(invocation: Invocation) -> tuple[FileRun, ...]:
    name = "yarn" if invocation.name == "yarnpkg" else invocation.name
    values = static_args(invocation)
    cwd = invocation.cwd
    words: list[str] = []
    index = 0
    while index < len(values):
        value = values[index]
        option, equals, attached = value.partition("=")
        if value == "--":
            words.extend(values[index:])  # arguments for the script: not a script name
            break
        if value.startswith("-"):
            following = attached if equals else (values[index + 1] if index + 1 < len(values) else "")
            if option in ("--prefix", "--cwd", "-C", "--dir"):
                cwd = _within(cwd, following)
            index += 1 if equals or option not in _PACKAGE_VALUES else 2
            continue
        words.append(value)
        index += 1
    command = words[0] if words else ""
    scripts: tuple[str, ...] = ()
    if command in _RUNS or (name == "bun" and command == "run"):
        named = words[1] if len(words) > 1 and words[1] != "--" else ""
        scripts = _with_hooks(named) if named else ()
    elif name != "bun" and command in _SHORTHANDS:
        script = _SHORTHANDS[command]
        scripts = ("prestop", "stop", "poststop", "prestart", "start", "poststart", "prerestart", "restart",
                   "postrestart") if script == "restart" else _with_hooks(script)  # fmt: skip
    elif command in _INSTALLS or (command == "" and name in ("yarn", "pnpm", "bun")):
        scripts = INSTALL_SCRIPTS
    elif command in _LIFECYCLES and name != "bun":
        scripts = _LIFECYCLES[command]
    elif (name == "yarn" and command not in _YARN_COMMANDS) or (
        name == "pnpm" and command not in _PNPM_COMMANDS
    ):
        scripts = _with_hooks(command)
    if scripts and _ignores_scripts(invocation, values):
        # --ignore-scripts: no lifecycle script runs (npm ci, npm install), and a script named by
        # the command (npm test, npm run build) runs without its pre and post scripts (npm 7+).
        installs = command in _INSTALLS or not command
        scripts = () if installs else scripts[1::3]  # each (preX, X, postX): X
    if not scripts:
        return ()
    # npm, yarn and pnpm run the nearest package.json up the tree (cd src && npm test: the project's).
    parents = tuple("../" * level + "package.json" for level in range(1, _PARENTS + 1))
    return (FileRun("package.json", "npm", cwd, parents, scripts),)


_PARENTS = 8
"""How many directories up the nearest ``package.json`` is looked for."""
_TRUE = frozenset({"", "true", "1", "yes"})


def _ignores_scripts(invocation: Invocation, values: list[str]) -> bool:
    """``--ignore-scripts`` on the command line, or ``npm_config_ignore_scripts=true`` before it."""
    for value in values:
        option, _, setting = value.partition("=")
        if option == "--ignore-scripts" and setting.lower() in _TRUE:
            return True
        if value == "--":
            break
    for assignment in invocation.env:
        variable, _, setting = (invocation.command.static(assignment) or "").partition("=")
        if variable.lower() == "npm_config_ignore_scripts" and setting.lower() in ("true", "1"):
            return True
    return False


def _with_hooks(script: str) -> tuple[str, ...]:
    return (f"pre{script}", script, f"post{script}")


# -- kubectl and compose --------------------------------------------------------------------------

_KUBE_VERBS = frozenset({"apply", "create", "replace"})


def _kube(invocation: Invocation) -> tuple[FileRun, ...]:
    values = static_args(invocation)
    if not _KUBE_VERBS & set(values):
        return ()
    runs: list[FileRun] = []
    cwd = invocation.cwd
    for index, value in enumerate(values):
        option, equals, attached = value.partition("=")
        following = attached if equals else (values[index + 1] if index + 1 < len(values) else "")
        if option in ("-f", "--filename") or (value.startswith("-f") and len(value) > 2 and not equals):
            word = value[2:] if option not in ("-f", "--filename") else following
            word = word or (STDIN if _fed(invocation) else "")
            if word and remote(word):
                runs.append(
                    unseen(word, "kube", cwd, f"the manifest is fetched from {word} when kubectl runs")
                )
            elif word:
                runs.append(FileRun(word, "kube", cwd))
        elif option in ("-k", "--kustomize") and following:
            if remote(following):
                why = f"the kustomization is fetched from {following} when kubectl runs"
                runs.append(unseen(following, "kube", cwd, why))
            else:
                runs.append(FileRun(following, "kube", cwd, entries=("kustomize",)))
    return tuple(runs)


COMPOSE_FILES = ("compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml")
"""Where ``docker compose`` finds its file, in order (with the ``.override`` file beside it)."""
_COMPOSE_VERBS = frozenset({"up", "run", "create", "start", "restart", "watch"})


def _compose(invocation: Invocation, exported: Mapping[str, str | None]) -> tuple[FileRun, ...]:
    """The compose files ``up`` reads: ``-f`` files; else ``COMPOSE_FILE`` (set before the command or
    exported earlier in the line); else the project's ``.env`` (or ``--env-file``), which may set
    ``COMPOSE_FILE`` itself (:data:`COMPOSE_ENV`), and the default names."""
    values = static_args(invocation)
    if invocation.name in ("docker", "podman", "nerdctl"):
        if "compose" not in values[:3]:
            return ()
        values = values[values.index("compose") + 1 :]
    cwd = invocation.cwd
    if not _COMPOSE_VERBS & set(values):
        return ()
    environment = dict(exported)
    for assignment in invocation.env:  # COMPOSE_FILE=a.yml:b.yml docker compose up
        variable, _, setting = (invocation.command.static(assignment) or "").partition("=")
        if assignment.startswith("COMPOSE_FILE=") or assignment.startswith("COMPOSE_PATH_SEPARATOR="):
            environment[assignment.partition("=")[0]] = setting if variable else None
    files: list[str] = []
    env_files: list[str] = []
    for index, value in enumerate(values):
        option, equals, attached = value.partition("=")
        following = attached if equals else (values[index + 1] if index + 1 < len(values) else "")
        if option in ("-f", "--file"):
            files.append(following or (STDIN if _fed(invocation) else ""))
        elif option == "--project-directory":
            cwd = _within(cwd, following)
        elif option == "--env-file" and following:
            env_files.append(following)
    if files:
        return tuple(FileRun(file, "compose", cwd) for file in files if file)
    if "COMPOSE_FILE" in environment:
        named = environment["COMPOSE_FILE"]
        if named is None:
            return (unseen("$COMPOSE_FILE", "compose", cwd, "COMPOSE_FILE is a value made at run time"),)
        return tuple(FileRun(file, "compose", cwd) for file in compose_file_list(named, environment))
    runs = [FileRun(file, COMPOSE_ENV, cwd) for file in env_files or [".env"]]
    runs.append(FileRun(COMPOSE_FILES[0], "compose", cwd, COMPOSE_FILES[1:]))
    overrides = tuple(f.replace(".y", ".override.y") for f in COMPOSE_FILES)
    runs.append(FileRun(overrides[0], "compose", cwd, overrides[1:]))
    return tuple(runs)


COMPOSE_ENV = "compose-env"
"""The language of a compose project's ``.env`` file, read for the ``COMPOSE_FILE`` it may set."""


def compose_file_list(setting: str, environment: Mapping[str, str | None]) -> list[str]:
    """The files a ``COMPOSE_FILE`` value names: split by ``COMPOSE_PATH_SEPARATOR`` (``:`` on
    Linux and macOS; ``;`` is taken too, as on Windows)."""
    separator = environment.get("COMPOSE_PATH_SEPARATOR") or ":"
    return [file for file in setting.replace(";", separator).split(separator) if file]


# -- helm --------------------------------------------------------------------------------------

_HELM_VERBS = frozenset({"install", "upgrade", "template"})
_HELM_VALUES = frozenset({"-f", "--values", "--set", "--set-string", "--set-json", "--set-file",
                          "--set-literal", "-n", "--namespace", "--version", "--repo", "--kube-context",
                          "--kubeconfig",
                          "--timeout", "--post-renderer", "--post-renderer-args", "--description", "-o",
                          "--output", "--username", "--password", "--ca-file", "--cert-file", "--key-file",
                          "--keyring", "--registry-config", "--repository-cache", "--repository-config",
                          "--kube-apiserver", "--kube-token", "--kube-as-user", "--kube-as-group",
                          "--kube-ca-file", "--burst-limit", "--history-max", "--name-template",
                          "--api-versions",
                          "-a", "--kube-version", "--output-dir", "--show-only", "-s", "--release-name",
                          "--labels", "-l", "--max-history", "--qps", "--kube-tls-server-name"})  # fmt: skip
"""helm's options that take a value (``--set k=v``); the others are switches."""


def _helm(invocation: Invocation) -> tuple[FileRun, ...]:
    """``helm install|upgrade NAME CHART``, ``helm template [NAME] CHART``: the chart, its values files,
    ``--set`` values; ``--post-renderer`` names a program helm runs on the rendered manifests."""
    values = static_args(invocation)
    verbs = [value for value in values if not value.startswith("-")][:1]
    if not verbs or verbs[0] not in _HELM_VERBS:
        return ()
    entries: list[str] = []
    positionals: list[str] = []
    repository = ""
    runs: list[FileRun] = []
    index = values.index(verbs[0]) + 1
    while index < len(values):
        value = values[index]
        option, equals, attached = value.partition("=")
        if value.startswith("-") and (equals or option in _HELM_VALUES):
            following = attached if equals else (values[index + 1] if index + 1 < len(values) else "")
            index += 1 if equals else 2
            if option in ("-f", "--values"):
                entries += [f"values:{file}" for file in following.split(",") if file]
            elif option in ("--set", "--set-string", "--set-literal"):
                entries += [f"set:{pair}" for pair in following.split(",") if pair]
            elif option == "--repo":
                repository = following
            elif option == "--post-renderer" and following:
                runs.append(FileRun(following, "", invocation.cwd))  # a script: its #! line says how
            continue
        if not value.startswith("-"):
            positionals.append(value)
        index += 1
    if not positionals:
        return tuple(runs)
    chart = positionals[-1]
    if repository or remote(chart) or chart.startswith("oci:"):
        where = f"{chart} from {repository}" if repository else chart
        why = f"the chart {where} is fetched when helm runs: its templates cannot be judged offline"
        return (*runs, unseen(chart, "helm", invocation.cwd, why, tuple(entries)))
    return (*runs, FileRun(chart, "helm", invocation.cwd, entries=tuple(entries)))


# -- pip ---------------------------------------------------------------------------------------


def _pip(invocation: Invocation) -> tuple[FileRun, ...]:
    """``pip install .`` / ``-e .`` / ``pip install ./pkg``: the project's ``setup.py`` runs (a
    requirement from an index, or a wheel, runs none of the project's code)."""
    values = static_args(invocation)
    if "install" not in values:
        return ()
    start = values.index("install") + 1
    runs = []
    for index in range(start, len(values)):
        value = values[index].split("[", 1)[0]  # .[dev]: the extras of the project in .
        editable = values[index - 1] in ("-e", "--editable")
        local = value in (".", "..") or value.startswith(("./", "../", "/"))
        if (editable or (local and not values[index - 1].startswith("-"))) and not _packaged(value):
            runs.append(FileRun(posixpath.join(value, "setup.py"), "python", invocation.cwd))
            runs.append(FileRun(posixpath.join(value, "pyproject.toml"), PEP517, invocation.cwd))
    return tuple(runs)


PEP517 = "pep517"
"""The language of a ``pyproject.toml`` read for an in-tree build backend (``backend-path``):
:mod:`.script_files` judges the backend's module, the code ``pip install .`` runs."""


def _packaged(value: str) -> bool:
    """A URL, a VCS link or a built archive: no ``setup.py`` of the project's runs from disk."""
    return "://" in value or "+" in value.split("/", 1)[0] or value.endswith((".whl", ".tar.gz", ".zip"))


# -- cmake --------------------------------------------------------------------------------------------

CMAKE = "cmake"
"""The language of a CMake file a configure step runs (:mod:`.cmake_files` reads what it runs)."""
_CMAKE_VALUES = frozenset({"-S", "-B", "-C", "-D", "-U", "-G", "-T", "-A", "--toolchain", "--install-prefix",
                           "--preset", "-P", "--build", "--install", "--graphviz", "--system-information",
                           "--profiling-output", "--trace-redirect", "--log-level", "--debug-find-pkg",
                           "--debug-find-var"})  # fmt: skip
_CMAKE_ATTACHED = ("-S", "-B", "-C", "-D", "-G", "-T", "-A", "-P")
"""Short options whose value may be written against them (``-Bbuild``)."""
_CMAKE_ELSEWHERE = frozenset({"-E", "--build", "--install", "--open", "--version", "--help", "-h",
                              "--workflow", "-N"})  # fmt: skip
"""Modes that configure nothing: a tool (``-E``), a build of a configured tree, an install, a query."""
_TOOLCHAIN = ("CMAKE_TOOLCHAIN_FILE", "CMAKE_PROJECT_TOP_LEVEL_INCLUDES", "CMAKE_PROJECT_INCLUDE",
              "CMAKE_PROJECT_INCLUDE_BEFORE")  # fmt: skip
"""``-D`` variables naming CMake files the configure step runs (a toolchain, includes of ``project()``)."""


def _cmake(invocation: Invocation) -> tuple[FileRun, ...]:
    """``cmake -B build``, ``cmake ..``, ``cmake -S src``: the source tree's ``CMakeLists.txt``, the
    toolchain file, the initial cache script (``-C``); ``cmake -P x.cmake``: the script."""
    values = static_args(invocation)
    cwd = invocation.cwd
    options: list[tuple[str, str]] = []
    operands: list[str] = []
    index = 0
    while index < len(values):
        value = values[index]
        index += 1
        attached = next((o for o in _CMAKE_ATTACHED if value.startswith(o) and value != o), None)
        if attached is not None and not value.startswith("--"):
            options.append((attached, value[len(attached) :]))
        elif value.startswith("--") and "=" in value:
            options.append(tuple(value.split("=", 1)))  # type: ignore[arg-type]
        elif value in _CMAKE_VALUES:
            options.append((value, values[index] if index < len(values) else ""))
            index += 1
        elif value.startswith("-"):
            options.append((value, ""))
        else:
            operands.append(value)
    given = {option for option, _ in options}
    script = next((v for o, v in options if o == "-P"), None)
    if script:
        return (FileRun(script, CMAKE, cwd),)
    if given & _CMAKE_ELSEWHERE:
        return ()
    source = next((v for o, v in options if o == "-S"), None) or (operands[-1] if operands else ".")
    runs = [FileRun(posixpath.join(source, "CMakeLists.txt"), CMAKE, cwd)]
    for option, value in options:
        name, _, setting = value.partition("=")
        if option == "-C" or option == "--toolchain":
            runs.append(FileRun(value, CMAKE, cwd))
        elif option == "-D" and name.partition(":")[0] in _TOOLCHAIN and setting:
            runs.extend(FileRun(word, CMAKE, cwd) for word in setting.split(";") if word)
    return tuple(runs)


# -- tox, nox ----------------------------------------------------------------------------------------

TOX = "tox"
"""The language of a tox configuration: :mod:`.script_files` judges its ``commands`` (and
``commands_pre``, ``commands_post``, ``install_command``) as command lines."""
TOX_FILES = ("tox.ini", "tox.toml", "pyproject.toml", "setup.cfg")
"""Where tox looks for its configuration (each read: a file without tox's settings holds no commands)."""
_TASK_MODULES = (["-m", "tox"], ["-m", "nox"])
_TASK_FILES = frozenset({"-c", "--conf", "-f", "--noxfile"})
_TASK_QUERIES = frozenset({"--version", "--help", "-h", "list", "l", "config", "c", "-l", "--listenvs", "-a",
                           "--listenvs-all", "--showconfig", "quickstart", "q"})  # fmt: skip


def _task_runner(invocation: Invocation) -> tuple[FileRun, ...]:
    """``tox`` runs the commands of its configuration; ``nox`` imports ``noxfile.py`` (``-l`` too:
    listing the sessions runs the file) and runs its sessions."""
    values = static_args(invocation)
    program = invocation.name
    if values[:1] == ["-m"]:
        program, values = values[1], values[2:]
    chosen = None
    for option, value in scan_options(values, _TASK_FILES):
        if option in _TASK_FILES and value:
            chosen = value
    if program == "nox":
        queried = {"--version", "--help", "-h"} & set(values)
        return () if queried else (FileRun(chosen or "noxfile.py", "python", invocation.cwd),)
    if _TASK_QUERIES & set(values[:1]) or {"--version", "--help", "-h"} & set(values):
        return ()
    if chosen is not None:
        return (FileRun(chosen, TOX, invocation.cwd),)
    return tuple(FileRun(name, TOX, invocation.cwd) for name in TOX_FILES)
