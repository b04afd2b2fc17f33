"""Code a build or test command runs from its directory without naming a file: ``pytest``, ``cargo build``.

``make``, ``npm install`` and ``pip install .`` read a project file the command
implies (:mod:`.project_commands`). Others run the directory's code as well:

- ``pytest`` (``py.test``, ``python -m pytest``) imports every ``conftest.py`` of the
  directories it collects (and of their parents up to the one with its ini file),
  and the plugins ``-p NAME`` names, on the command line or in the ini file's
  ``addopts``, when ``NAME`` is a module of the directory;
- ``cargo build|check|test|run|bench|clippy|doc|install`` compiles and runs the
  package's build script (``build.rs``, or what ``Cargo.toml``'s ``package.build``
  names), and the workspace members';
- ``go generate`` runs the ``//go:generate`` lines of the package's ``.go`` files
  (``./...``: of every package beneath).

Which files run is found where the files are (a walk of the directory, the
``Cargo.toml``); :mod:`.script_files` judges what they hold when the command
runs them from a directory outside the project, or one cloned from the network
in this session (:mod:`.clones`). For the agent's own project these are its own
tests and builds, not read. The walks are bounded (:data:`MAX_ENTRIES`): past
the bound, a person is asked.

:func:`runs_code_in` is wider and reads nothing: the directories whose code a
command runs (any build tool, test runner or package manager that executes the
project's files), so that running what a session cloned is noticed.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shlex
import sys
from collections.abc import Iterator

from ..frozen import Frozen
from ..lazy_regex import lazy_compile
from .findings import scan_options, static_args
from .programs import Invocation
from .project_commands import CMAKE, WRITTEN, FileRun, planned

__all__ = [
    "CARGO",
    "CARGO_CONFIG",
    "CARGO_CONFIGS",
    "GO_GENERATE",
    "INI_FILES",
    "MAX_ENTRIES",
    "NPMRC",
    "PACKAGE_SETTINGS",
    "PACKAGE_SETTING_FILES",
    "PYTEST",
    "WALKED",
    "CargoCode",
    "backend_files",
    "builds",
    "cargo_code",
    "cargo_config_programs",
    "cargo_environment",
    "conftest_files",
    "conftest_plugins",
    "entry_point_plugins",
    "given_settings",
    "go_directives",
    "package_settings",
    "pytest_plugins",
    "runs_code_in",
    "tox_commands",
]

PYTEST, CARGO, GO_GENERATE, PACKAGE_SETTINGS = "pytest", "cargo", "go-generate", "package-settings"
"""The languages of the runs :func:`builds` gives (:class:`.project_commands.FileRun`)."""
CARGO_CONFIG, NPMRC = "cargo-config", "npmrc"
"""The languages of the runs :func:`given_settings` gives: a cargo configuration, an ``.npmrc``."""
WALKED = frozenset({PYTEST, GO_GENERATE})
"""Runs whose files are found by walking a directory (``word`` is the directory)."""
MAX_ENTRIES = 4096
"""Directory entries one walk looks at; past that, the files that run cannot all be found."""
_SKIPPED = frozenset({"node_modules", "venv", "build", "dist", "CVS", "_darcs", "{arch}", "target",
                      "__pycache__", "site-packages"})  # fmt: skip
"""Directories pytest does not collect by default (``norecursedirs``; ``.*`` and ``*.egg`` too),
and cargo's build output."""


# -- which builds a command runs ------------------------------------------------------------------


def _pytest_args(invocation: Invocation) -> list[str] | None:
    """The arguments pytest gets, when ``invocation`` runs pytest."""
    values = static_args(invocation)
    if invocation.name in ("pytest", "py.test"):
        return values
    if invocation.name.startswith(("python", "pypy")) and values[:2] == ["-m", "pytest"]:
        return values[2:]
    return None


_PYTEST_VALUES = frozenset({"-k", "-m", "-c", "-p", "-o", "-W", "-n", "-r", "--rootdir", "--confcutdir",
                            "--basetemp", "--junitxml", "--junit-xml", "--ignore", "--ignore-glob",
                            "--deselect", "--durations", "--maxfail", "--tb", "--cov", "--cov-report",
                            "--log-level", "--override-ini", "--import-mode", "--capture", "--color",
                            "--config-file", "--dist", "--numprocesses", "--timeout", "--log-file",
                            "--html", "--lfnf", "--last-failed-no-failures", "--count", "--reruns",
                            "--randomly-seed"})  # fmt: skip
"""pytest's options that take a value (``-k expr``): the word after one is not a path."""


def _pytest(invocation: Invocation, values: list[str]) -> FileRun:
    """pytest's directories (its path operands, else where it runs) and the plugins ``-p`` names."""
    directories: list[str] = []
    plugins: list[str] = []
    for option, value in scan_options(values, _PYTEST_VALUES, attached=frozenset({"-p"})):
        if option == "-p" and value:
            plugins.append(value)
        elif not option:
            path = value.split("::", 1)[0]
            directories.append(posixpath.dirname(path) or "." if path.endswith(".py") else path)
    entries = tuple(f"plugin:{name}" for name in plugins if not name.startswith("no:"))
    return FileRun(
        directories[0] if directories else ".", PYTEST, invocation.cwd, tuple(directories[1:]), entries
    )


_CARGO_BUILDS = frozenset({"build", "b", "check", "c", "test", "t", "run", "r", "bench", "clippy", "doc", "d",
                           "install", "rustc", "fix", "miri"})  # fmt: skip


_CARGO_PATHS = frozenset({"--manifest-path", "--path"})


def _cargo(invocation: Invocation, values: list[str]) -> FileRun | None:
    words = [value for value in values if not value.startswith(("-", "+"))]
    if not words or words[0] not in _CARGO_BUILDS:
        return None
    manifest = "Cargo.toml"
    for option, value in scan_options(values, _CARGO_PATHS):
        if option == "--manifest-path" and value:
            manifest = value
        elif option == "--path" and words[0] == "install":
            manifest = posixpath.join(value or ".", "Cargo.toml")
    if words[0] == "install" and "--path" not in {value.partition("=")[0] for value in values}:
        return None  # cargo install NAME: a crate from the registry
    return FileRun(manifest, CARGO, invocation.cwd)


def _go_generate(invocation: Invocation, values: list[str]) -> FileRun | None:
    if values[:1] != ["generate"]:
        return None
    packages = [value for value in values[1:] if not value.startswith("-")] or ["."]
    recursive = tuple("recursive" for package in packages if package.endswith("/..."))
    directories = [package.removesuffix("/...").removesuffix("...") or "." for package in packages]
    return FileRun(directories[0], GO_GENERATE, invocation.cwd, tuple(directories[1:]), recursive[:1])


def builds(invocation: Invocation) -> tuple[FileRun, ...]:
    """The directories ``invocation`` runs the code of without naming it, as runs for
    :mod:`.script_files` (``word``: the directory, or ``Cargo.toml``)."""
    values = _pytest_args(invocation)
    if values is not None:
        return (_pytest(invocation, values),)
    if invocation.name == "cargo":
        run = _cargo(invocation, static_args(invocation))
        return (run,) if run is not None else ()
    if invocation.name == "go":
        run = _go_generate(invocation, static_args(invocation))
        return (run,) if run is not None else ()
    if invocation.name in _PACKAGE_MANAGERS:
        folders = (posixpath.dirname(run.word) or "." for run in planned(invocation) if run.language == "npm")
        return tuple(FileRun(folder, PACKAGE_SETTINGS, invocation.cwd) for folder in dict.fromkeys(folders))
    return ()


_PACKAGE_MANAGERS = frozenset({"npm", "yarn", "yarnpkg", "pnpm", "bun"})


_BUILDERS = frozenset({"pytest", "py.test", "tox", "nox", "cmake", "meson", "ninja", "mvn", "mvnw",
                       "gradle", "gradlew", "ant", "rake", "bundle", "poetry", "uv", "pdm", "hatch", "pipenv",
                       "flit", "composer", "mix", "swift", "dotnet", "msbuild", "bazel", "bazelisk", "buck",
                       "buck2", "sbt", "lein", "stack", "cabal", "dune", "zig", "deno", "bun", "scons",
                       "waf", "invoke", "inv", "just", "task", "jake", "grunt", "gulp", "tsc", "jest",
                       "vitest", "mocha", "phpunit", "rspec", "nimble", "xmake"})  # fmt: skip
"""Build tools, test runners and task runners that run the project's own files (its build
scripts, tests, task files) in the directory they run in."""


def _code_path(word: str) -> bool:
    """Whether an operand may name code the tool runs: a directory (no suffix), a Python test
    file, a manifest (``Cargo.toml``); not data it reads (``openapi.yaml``, ``report.xml``)."""
    name = posixpath.basename(word.rstrip("/"))
    suffix = name.rpartition(".")[2] if "." in name.lstrip(".") else ""
    return suffix in ("", "py", "toml", "txt") or name in (".", "..")


_GO_RUNS = frozenset({"generate", "run", "test"})
_QUERIES = frozenset({"--version", "-V", "--help", "-h", "version", "help"})


def runs_code_in(invocation: Invocation) -> Iterator[str]:
    """Where ``invocation`` runs code from (as written, from its ``cwd``): the directory of a
    build, test or task runner and the paths it is given, the directory of the project files
    :mod:`.project_commands` says it runs. A script or program run by path is not named here."""
    name = invocation.name
    values = static_args(invocation)
    if (name in _BUILDERS or _pytest_args(invocation) is not None) and not _QUERIES & set(values[:2]):
        yield "."
        for value in values:
            word = (value.partition("=")[2] if value.startswith("-") else value).split("::", 1)[0]
            if word and not word.startswith("-") and _code_path(word):
                yield word
    elif name == "go" and values[:1] and values[0] in _GO_RUNS:
        yield "."
        yield from (value.removesuffix("/...") for value in values[1:] if not value.startswith("-"))
    for run in builds(invocation):
        yield posixpath.dirname(run.word) or "." if run.language == CARGO else run.word
    for run in planned(invocation):
        if run.language in ("make", "npm", "python", CMAKE) and not run.how:
            yield posixpath.join(run.cwd or ".", posixpath.dirname(run.word) or ".")  # make -C y: y


# -- settings given on the command line ----------------------------------------------------------

_NPMS = frozenset({"npm", "pnpm", "yarn", "yarnpkg", "npx", "pnpx", "bun", "bunx"})


def given_settings(invocation: Invocation) -> Iterator[FileRun]:
    """The settings a command line gives a build tool, in a file or as text, as runs:
    ``cargo --config FILE`` or ``--config KEY=VALUE`` (a cargo configuration, :data:`CARGO_CONFIG`;
    the text is ``KEY = VALUE``, named ``cargo --config``), ``npm --userconfig FILE`` (or
    ``npm_config_userconfig=FILE``: an ``.npmrc``, :data:`NPMRC`)."""
    cwd = invocation.cwd
    if invocation.name == "cargo":
        for option, value in scan_options(static_args(invocation), frozenset({"--config"})):
            if option != "--config" or not value:
                continue
            key, equals, setting = value.partition("=")
            if not equals:
                yield FileRun(value, CARGO_CONFIG, cwd)
            else:
                text = _toml_pair(key, setting)
                yield FileRun("cargo --config", CARGO_CONFIG, cwd, how=WRITTEN, text=text)
    elif invocation.name in _NPMS:
        files = [value for option, value in scan_options(static_args(invocation), frozenset({"--userconfig"}))
                 if option == "--userconfig" and value]  # fmt: skip
        for assignment in invocation.env:
            key, _, value = assignment.partition("=")
            if key.lower() == "npm_config_userconfig":
                files.append(invocation.command.static(value) or "")
        yield from (FileRun(file, NPMRC, cwd) for file in files if file)


def _toml_pair(key: str, value: str) -> str:
    """``KEY = VALUE`` as cargo reads ``--config KEY=VALUE`` (a bare value, which cargo refuses, as a
    string: what it names is judged all the same)."""
    line = f"{key.strip()} = {value.strip()}"
    try:
        _toml(line, "--config")
    except ValueError:
        return f"{key.strip()} = {json.dumps(value.strip())}"
    return line


# -- the files those builds run ---------------------------------------------------------------


class TooMany(Exception):
    """A walk passed :data:`MAX_ENTRIES`: the files that run cannot all be found."""


def _walk(directory: str, recursive: bool = True) -> Iterator[tuple[str, list[str]]]:
    """(folder, file names) under ``directory``, pytest's skipped folders left out; at most
    :data:`MAX_ENTRIES` entries, else :class:`TooMany`. Symbolic links to folders are not followed."""
    seen = 0
    pending = [directory]
    while pending:
        folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        seen += len(entries)
        if seen > MAX_ENTRIES:
            raise TooMany(f"more than {MAX_ENTRIES} files and folders under {directory}")
        names = []
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                skipped = entry.name.startswith(".") or entry.name.endswith(".egg") or entry.name in _SKIPPED
                if recursive and not skipped:
                    pending.append(entry.path)
            elif entry.is_file():
                names.append(entry.name)
        yield folder, sorted(names)


INI_FILES = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")


def conftest_files(directory: str) -> list[str]:
    """The ``conftest.py`` files pytest imports for ``directory``: those beneath it, and those of
    its parents up to the first with an ini file (pytest's root). Raises :class:`TooMany`."""
    found = [
        posixpath.join(folder, "conftest.py") for folder, names in _walk(directory) if "conftest.py" in names
    ]
    parent = directory
    for _ in range(8):
        if any(os.path.isfile(posixpath.join(parent, name)) for name in INI_FILES) or parent == "/":
            break
        parent = posixpath.dirname(parent)
        if os.path.isfile(posixpath.join(parent, "conftest.py")):
            found.append(posixpath.join(parent, "conftest.py"))
    return sorted(dict.fromkeys(found))


_ADDOPTS = re.compile(r"^\s*addopts\s*=\s*(.*(?:\n[ \t]+.*)*)", re.MULTILINE)
_PLUGIN = re.compile(r"(?:^|\s)-p\s*=?\s*([\w.]+)")


def pytest_plugins(ini_texts: list[str]) -> list[str]:
    """The plugins ``-p NAME`` names in the ``addopts`` of pytest's ini files (pytest.ini,
    tox.ini, setup.cfg, pyproject.toml: a TOML string or list is matched the same way)."""
    found: list[str] = []
    for text in ini_texts:
        for match in _ADDOPTS.finditer(text):
            options = match.group(1).replace('"', " ").replace("'", " ").replace(",", " ").replace("[", " ")
            found += [name for name in _PLUGIN.findall(options) if not name.startswith("no:")]
    return found


def plugin_files(roots: list[str], name: str) -> list[str]:
    """The files of the module ``name`` if one of the folders ``roots`` holds it (``-p plugins.x``:
    ``plugins/x.py`` or ``plugins/x/__init__.py``); none for an installed plugin."""
    found = []
    for root in roots:
        base = posixpath.join(root, *name.split("."))
        found += [path for path in (f"{base}.py", f"{base}/__init__.py") if os.path.isfile(path)]
    return found


_PLUGINS_ASSIGNED = lazy_compile(r"^pytest_plugins\s*(?::[^=\n]*)?=\s*([\[(]?)", re.MULTILINE)
_MODULE_NAME = lazy_compile(r"""["']([\w.]+)["']""")


def conftest_plugins(text: str) -> list[str]:
    """The modules a ``conftest.py``'s ``pytest_plugins = [...]`` (or a string) names: pytest imports them."""
    found: list[str] = []
    for match in _PLUGINS_ASSIGNED.finditer(text):
        closing = {"[": "]", "(": ")"}.get(match.group(1))
        end = text.find(closing, match.end()) if closing else text.find("\n", match.end())
        found += _MODULE_NAME.findall(text[match.end() : end if end >= 0 else len(text)])
    return found


_SETUP_PY_PLUGINS = lazy_compile(r"""["']pytest11["']\s*:\s*[\[(]([^\])]*)""")
_ENTRY = lazy_compile(r"""=\s*([\w.]+)""")


def entry_point_plugins(pyproject: str, setup_cfg: str, setup_py: str) -> list[str]:
    """The modules a package declares as pytest plugins (``pytest11`` entry points: in
    ``pyproject.toml``'s ``[project.entry-points.pytest11]`` or Poetry's plugins, ``setup.cfg``'s
    ``[options.entry_points]``, ``setup.py``'s ``entry_points``): pytest loads them once the package
    is installed. A file that cannot be read declares none."""
    modules: list[str] = []
    try:
        data = _toml(pyproject, "pyproject.toml") if "pytest11" in pyproject else {}
    except ValueError:
        data = {}
    project, tool = data.get("project"), data.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    tables = (project.get("entry-points") if isinstance(project, dict) else None,
              poetry.get("plugins") if isinstance(poetry, dict) else None)  # fmt: skip
    for table in tables:
        declared = table.get("pytest11") if isinstance(table, dict) else None
        modules += [value for value in _values_of(declared) if isinstance(value, str)]
    if "pytest11" in setup_cfg:
        import configparser

        parser = configparser.ConfigParser(interpolation=None, strict=False)
        try:
            parser.read_string(setup_cfg)
            modules += _ENTRY.findall(parser.get("options.entry_points", "pytest11", fallback=""))
        except configparser.Error:
            pass
    for match in _SETUP_PY_PLUGINS.finditer(setup_py):
        modules += _ENTRY.findall(match.group(1))
    return [module.partition(":")[0].strip() for module in modules if module.strip()]


def _toml(text: str, name: str) -> dict[str, object]:
    """The table a TOML file holds; ValueError when it cannot be read (or Python 3.10 has no reader)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        try:
            import tomli as tomllib
        except ImportError:
            raise ValueError(f"reading {name} on Python 3.10 needs tomli") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{name} is not valid TOML ({exc})") from None


class CargoCode(Frozen):
    """What of a package ``cargo build`` runs, from its ``Cargo.toml`` (paths relative to its folder)."""

    __slots__ = ("members", "packages", "scripts")

    scripts: tuple[str, ...]
    """Rust run at build time: the build script (``build.rs``, or ``package.build``), and the
    library of a procedural macro crate (``[lib] proc-macro = true``), which the compiler runs."""
    members: tuple[str, ...]
    """The workspace's member patterns (``crates/*``)."""
    packages: tuple[str, ...]
    """The folders of path dependencies (``foo = { path = "../foo" }``): built, their build
    scripts and macros run too."""

    def __init__(self, scripts: tuple[str, ...], members: tuple[str, ...], packages: tuple[str, ...]) -> None:
        set_field = object.__setattr__
        set_field(self, "scripts", scripts)
        set_field(self, "members", members)
        set_field(self, "packages", packages)


_DEPENDENCY_TABLES = ("dependencies", "dev-dependencies", "build-dependencies", "dev_dependencies",
                      "build_dependencies")  # fmt: skip


def cargo_code(text: str) -> CargoCode:
    """What of a package ``Cargo.toml`` describes runs at build time (:class:`CargoCode`).
    Raises ValueError when it cannot be read (TOML errors, or no TOML reader on Python 3.10)."""
    data = _toml(text, "Cargo.toml")
    scripts: list[str] = []
    package = data.get("package")
    if isinstance(package, dict):
        build = package.get("build", "build.rs")
        if isinstance(build, str):
            scripts.append(build)
        elif isinstance(build, list):
            scripts += [item for item in build if isinstance(item, str)]
        elif build is not False:
            scripts.append("build.rs")
    library = data.get("lib")
    if isinstance(library, dict) and (library.get("proc-macro") is True or library.get("proc_macro") is True):
        path = library.get("path", "src/lib.rs")
        scripts.append(path if isinstance(path, str) else "src/lib.rs")
    workspace = data.get("workspace")
    members = workspace.get("members") if isinstance(workspace, dict) else None
    patterns = [item for item in members if isinstance(item, str)] if isinstance(members, list) else []
    tables = [data, *(t for t in _values_of(data.get("target")) if isinstance(t, dict))]
    if isinstance(workspace, dict):
        tables.append(workspace)
    packages = [
        dependency["path"]
        for table in tables
        for name in _DEPENDENCY_TABLES
        for dependency in _values_of(table.get(name))
        if isinstance(dependency, dict) and isinstance(dependency.get("path"), str)
    ]
    return CargoCode(tuple(scripts), tuple(patterns), tuple(dict.fromkeys(packages)))


def _values_of(table: object) -> list[object]:
    return list(table.values()) if isinstance(table, dict) else []


CARGO_CONFIGS = (".cargo/config.toml", ".cargo/config")
"""The configuration files cargo reads in its directory and in each folder above it."""
_PROGRAM_KEYS = frozenset({"rustc", "rustc-wrapper", "rustc-workspace-wrapper", "rustdoc", "runner", "linker",
                           "credential-provider", "ar"})  # fmt: skip
"""The settings of a cargo configuration that name a program cargo runs: in ``[build]``,
``[target.TRIPLE]`` (``runner``: what ``cargo run|test`` runs the program with), ``[host]``,
``[registry]`` and ``[registries.NAME]``."""
_LINKER_FLAG = lazy_compile(r"-C\s*linker=(\S+)")


def cargo_config_programs(text: str) -> list[tuple[str, str]]:
    """(setting, command line) of each program a ``.cargo/config.toml`` makes cargo run: the
    wrappers, runners and linkers (``-C linker=`` in ``rustflags`` too), credential providers, and
    the programs ``--config`` sets in an ``[alias]``. A string is given as written (cargo splits it
    at spaces), a list as shell words. Raises ValueError."""
    data = _toml(text, ".cargo/config.toml")
    found: list[tuple[str, str]] = []

    def visit(table: object, where: str, depth: int) -> None:
        if not isinstance(table, dict) or depth > 3:
            return
        for key, value in table.items():
            setting = f"{where}.{key}" if where else str(key)
            if where == "alias" and isinstance(value, (str, list)):
                words = value.split() if isinstance(value, str) else [str(item) for item in value]
                found.extend((setting, program) for program in _configured_programs(words))
            elif key in _PROGRAM_KEYS and isinstance(value, (str, list)):
                line = value if isinstance(value, str) else shlex.join(str(item) for item in value)
                if line.strip():
                    found.append((setting, line))
            elif key == "rustflags" and isinstance(value, (str, list)):
                flags = value if isinstance(value, str) else " ".join(str(item) for item in value)
                found.extend((setting, linker) for linker in _LINKER_FLAG.findall(flags))
            elif key != "env" or where:  # [env]: judged by :func:`cargo_environment`
                visit(value, setting, depth + 1)

    visit(data, "", 0)
    return found


def _configured_programs(words: list[str]) -> Iterator[str]:
    """The programs ``--config KEY=VALUE`` options in an alias's words set (``build.rustc-wrapper``)."""
    for index, word in enumerate(words[:-1]):
        if word == "--config" and "=" in words[index + 1]:
            key, _, value = words[index + 1].partition("=")
            if key.strip().rpartition(".")[2] in _PROGRAM_KEYS and value.strip(" '\""):
                yield value.strip(" '\"")


_LOADERS = frozenset({"LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES",
                      "DYLD_LIBRARY_PATH", "RUSTC_WRAPPER", "RUSTC", "RUSTC_WORKSPACE_WRAPPER",
                      "RUSTDOC", "NODE_OPTIONS", "PYTHONSTARTUP", "BASH_ENV", "ENV"})  # fmt: skip
"""Variables that make a program load or run other code: set in a cargo configuration's ``[env]``,
they reach the build scripts and the compiler."""


def cargo_environment(text: str) -> list[str]:
    """The ``[env]`` variables of a cargo configuration that load code (``LD_PRELOAD`` ...), as
    ``NAME=value``. Raises ValueError."""
    environment = _toml(text, ".cargo/config.toml").get("env")
    found = []
    for name, value in environment.items() if isinstance(environment, dict) else ():
        setting = value.get("value") if isinstance(value, dict) else value
        if str(name).upper() in _LOADERS and isinstance(setting, str):
            found.append(f"{name}={setting}")
    return found


def backend_files(text: str) -> list[str]:
    """The files of an in-tree PEP 517 build backend a ``pyproject.toml`` names (``backend-path``
    with ``build-backend``), relative to its directory: the code ``pip install .`` runs besides
    ``setup.py``. None for a backend that is an installed package. Raises ValueError."""
    system = _toml(text, "pyproject.toml").get("build-system")
    if not isinstance(system, dict):
        return []
    paths, backend = system.get("backend-path"), system.get("build-backend")
    if not isinstance(paths, list) or not isinstance(backend, str):
        return []
    module = posixpath.join(*backend.split(":", 1)[0].strip().split("."))
    found = []
    for folder in (path for path in paths if isinstance(path, str)):
        found += [posixpath.join(folder, module + ".py"), posixpath.join(folder, module, "__init__.py")]
    return found


_TOX_KEYS = ("commands_pre", "commands", "commands_post", "install_command", "list_dependencies_command")
"""The settings of a tox environment that hold the command lines it runs."""


def tox_commands(text: str, name: str) -> list[str]:
    """The command lines a tox configuration runs (every environment's: which run depends on ``-e``
    and the ``env_list``). ``name``: the file's name (``tox.ini`` and ``setup.cfg`` are INI files,
    ``tox.toml`` and ``pyproject.toml`` TOML, whose ``legacy_tox_ini`` is INI again). A file
    tox cannot read runs nothing. Raises ValueError for a TOML file that cannot be read."""
    if not name.endswith(".toml"):
        return _tox_ini_commands(text)
    data: object = _toml(text, name)
    if name.endswith("pyproject.toml"):
        tool = data.get("tool") if isinstance(data, dict) else None
        data = tool.get("tox") if isinstance(tool, dict) else None
    if not isinstance(data, dict):
        return []
    legacy = data.get("legacy_tox_ini")
    if isinstance(legacy, str):
        return _tox_ini_commands(legacy)
    environments = [data.get("env_run_base"), data.get("env_pkg_base"), *_values_of(data.get("env"))]
    found = []
    for environment in environments:
        if not isinstance(environment, dict):
            continue
        for key in _TOX_KEYS:
            value = environment.get(key)
            commands = value if isinstance(value, list) and key != "install_command" else [value]
            found += [_tox_words(command) for command in commands if isinstance(command, (str, list))]
    return [command for command in found if command]


def _tox_words(command: str | list[object]) -> str:
    """A tox.toml command (a list of words; ``{replace = "posargs"}`` for a substitution) as a line."""
    if isinstance(command, str):
        return command
    return shlex.join(_tox_word(item) for item in command)


def _tox_word(item: object) -> str:
    if isinstance(item, dict):
        return "{" + str(item.get("replace", "")) + "}"
    return str(item)


def _tox_ini_commands(text: str) -> list[str]:
    import configparser

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return []  # tox refuses the file: nothing runs
    found = []
    for section in parser.sections():
        for key in _TOX_KEYS:
            value = parser.get(section, key, fallback="")
            for line in value.replace("\\\n", " ").split("\n"):
                line = line.strip().lstrip("-!").strip()
                if line and not line.startswith("#"):
                    found.append(line)
    return found


# -- a package manager's settings in the project ------------------------------------------------------

PACKAGE_SETTING_FILES = (".npmrc", ".yarnrc.yml", ".yarnrc", "bunfig.toml", ".pnpmfile.cjs", ".pnpmfile.mjs")
"""The files of a Node project that make its package manager run code besides ``package.json``'s
scripts (:func:`package_settings`); ``.pnpmfile.cjs`` is itself code pnpm runs on install."""
_NPMRC_LINE = lazy_compile(r"^\s*([\w.-]+)\s*=\s*(.*?)\s*$", re.MULTILINE)
_NPMRC_PROGRAMS = frozenset({"script-shell", "shell", "git", "editor", "browser", "viewer"})
_NODE_PRELOAD = lazy_compile(r"(?:^|\s)(?:--require|-r|--import|--loader|--experimental-loader)[=\s]+(\S+)")
_YARN_FILE = lazy_compile(r"""^\s*(?:yarnPath|yarn-path|-?\s*path|-)\s*:?\s*["']?([^"'\s#]+\.[cm]?js)["']?""",
                        re.MULTILINE)  # fmt: skip
_BUN_PRELOAD = lazy_compile(r"""^\s*preload\s*=\s*(\[[^\]]*\]|"[^"\n]*"|'[^'\n]*')""", re.MULTILINE)


def package_settings(name: str, text: str) -> tuple[list[tuple[str, str]], list[str]]:
    """(setting, command line) of the programs a package manager's settings file makes it run
    (``.npmrc``'s ``script-shell``, ``git``, ``shell``), and the JavaScript files it loads
    (``node-options=--require ./x.js``, ``.yarnrc.yml``'s ``yarnPath`` and plugins, ``.yarnrc``'s
    ``yarn-path``, ``bunfig.toml``'s ``preload``), relative to the project."""
    commands: list[tuple[str, str]] = []
    files: list[str] = []
    if name == ".npmrc":
        for key, value in _NPMRC_LINE.findall(text):
            value = value.strip("\"'")
            if key in _NPMRC_PROGRAMS and value:
                commands.append((key, value))
            elif key in ("node-options", "onload-script"):
                files += _NODE_PRELOAD.findall(" " + value) if key == "node-options" else [value]
    elif name in (".yarnrc.yml", ".yarnrc"):
        files += _YARN_FILE.findall(text)
        files += [value.strip("\"'") for value in re.findall(r"^\s*yarn-path\s+(\S+)", text, re.MULTILINE)]
    elif name == "bunfig.toml":
        for value in _BUN_PRELOAD.findall(text):
            files += re.findall(r"""["']([^"']+)["']""", value)
    return commands, list(dict.fromkeys(file for file in files if file))


_DIRECTIVE = re.compile(r"^//go:generate[ \t]+(.+)$", re.MULTILINE)


def go_directives(directory: str, recursive: bool) -> Iterator[tuple[str, int, str]]:
    """(file, line, command) of each ``//go:generate`` line of the ``.go`` files in ``directory``
    (and beneath, ``recursive``). Raises :class:`TooMany`."""
    from .script_files import read_script  # script_files judges what this module finds

    files = 0
    for folder, names in _walk(directory, recursive):
        for name in names:
            if not name.endswith(".go"):
                continue
            files += 1
            if files > MAX_ENTRIES // 8:
                raise TooMany(f"more than {MAX_ENTRIES // 8} Go files under {directory}")
            path = posixpath.join(folder, name)
            read = read_script(path)  # a regular file only, bounded: never a FIFO
            if read.problem:
                raise TooMany(f"{path}: {read.problem}")
            text = read.text or ""
            if "//go:generate" not in text:
                continue
            for match in _DIRECTIVE.finditer(text):
                yield path, text.count("\n", 0, match.start()) + 1, match.group(1).strip()


_ARG = r'\s*\.arg\(\s*("(?:[^"\\\n]|\\.)*")\s*\)'
_ARGS = re.compile(f"(?:{_ARG})+")
_ONE_ARG = re.compile(_ARG)


def rust_arguments(code: str) -> str:
    """Rust's ``Command::new("sh").arg("-c").arg("…")`` written as ``.args(["-c", "…"])``, the
    list form the interpreter rule reads as a command line (lines kept where they were)."""

    def joined(match: re.Match[str]) -> str:
        text = match.group(0)
        words = _ONE_ARG.findall(text)
        return ".args([" + ", ".join(words) + "])" + "\n" * text.count("\n")

    return _ARGS.sub(joined, code) if ".arg(" in code else code
