"""Scripts run from disk, judged by what they hold: ``bash setup.sh``, ``./x.sh``, ``python tools/x.py``.

The command guard judges a command's text, so a script written in one call (the
Write tool, ``cat > x.sh``) and run in the next would pass whatever it holds, and
so would a hostile repository's ``setup.sh`` (the project directory is not
trusted). This module finds the scripts a command runs by path (``bash|sh|zsh
FILE``, ``source FILE``, ``. FILE``, ``./x`` or ``/path/x`` by its shebang,
``python FILE``, ``perl|ruby|node|php ... FILE``, ``osascript FILE``), reads each
one safely and judges its content with the judges of inline code:

- shell: every rule of the command guard, as if the script were the command line;
- Python, Perl, Ruby, Node and the other interpreters: the interpreter rule that
  judges ``python -c`` (:func:`.interpreters.judge_code` in its ``whole_file``
  form), a few lines at a time, so that a module's ``socket`` and a ``subprocess``
  a hundred lines apart are not taken for a reverse shell;
- AppleScript and JXA: as ``osascript -e`` is judged.

Scripts those scripts run are judged the same way, to :data:`MAX_DEPTH`; a cycle
ends. The reason names the file and line: ``filesystem destruction: evil.sh:1:
rm -rf ~ (recursive force delete of the home directory)``.

Reading is careful: only a regular file is opened (``stat`` first: a FIFO would
hang the guard, a device could act on open), never under ``/proc``, ``/sys`` or
``/dev``, non-blocking, at most :data:`MAX_BYTES`. What cannot be judged is held
for a person (category ``unjudged script``, ask by default): a file too large, one
that cannot be read or is not a regular file, compiled AppleScript or Python
bytecode, nesting past :data:`MAX_DEPTH`, judging past the decision budget. A
binary run directly (``./build/app``) is a program, not a script: it is let
through like any program. A script that does not exist yet, or is written by the
same command in a way the guard cannot follow, is not judged here. The check is
time-of-check: a file changed after it was judged runs as changed; the sandbox
(``docs/sandbox.md``) is the backstop.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import json
import os
import posixpath
import re
import shlex
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from ..frozen import Frozen
from ..lazy_regex import lazy_compile
from . import build_files, git_files, project_commands, project_sources
from .bounded_read import Unreadable, opened, read_at_most
from .budget import BudgetExceeded, deadline, spend
from .interpreters import INTERPRETERS, inline_code, judge_code
from .parse import WRITE_OPERATORS, Script, parsed
from .paths import check_path, normalize_path
from .policy import Policy, current_policy, using
from .programs import (
    SHELLS,
    Invocation,
    keeping_walks,
    lines_run_apart,
    runs_as,
    shell_mode,
    walk,
)
from .project_commands import FileRun as _Run
from .tactics.privilege import COMPILERS, root_shell_code
from .verdict import CLOUD_CONTROL, DEBUG_CONTAINER, PRIVILEGE, UNJUDGED_SCRIPT, Verdict
from .workdir import call_directory, working_directory

if TYPE_CHECKING:  # imported where a Makefile, a manifest or a packaged chart is read: most commands run none
    from .chart_archives import PackagedChart

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_FILES",
    "call_directory",
    "check_script_files",
    "stricter",
    "working_directory",
]

MAX_BYTES = 512 * 1024
"""The largest script read and judged; a larger one is held for a person."""
MAX_DEPTH = 6
"""How deep scripts run by scripts are followed (``a.sh`` runs ``b.sh`` runs ...)."""
MAX_FILES = 32
"""How many script files one decision reads; past that, a person is asked."""
MAX_SETTINGS = 64
"""How many settings of one git configuration file are judged (each is a command line judged)."""
MAX_FOLDERS = 256
"""How many CMake folders (``add_subdirectory``) one decision reads; past that, a person is asked. Their
``CMakeLists.txt`` are not counted among the :data:`MAX_FILES`: a large project has dozens."""
_WINDOW, _STEP = 10, 5
"""Interpreter code is judged ten lines at a time, each line in two windows."""


def stricter(first: Verdict | None, second: Verdict | None) -> Verdict | None:
    """The stricter of two decided verdicts: a block over an ask, else the first found."""
    if first is None or (second is not None and first.decision != "block" and second.decision == "block"):
        return second
    return first


# -- which scripts a command runs ----------------------------------------------------------


_STDIN = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_FALLBACKS = 3
_PYTHON = lazy_compile(r"^(?:python[\d.]*|pypy[\d.]*)$")
_VALUE_OPTIONS = {
    "python": frozenset({"-W", "-X", "-Q", "--check-hash-based-pycs"}),
    "perl": frozenset({"-I"}),
    "ruby": frozenset({"-I", "-r", "-C", "-E", "-F"}),
    "node": frozenset({"-r", "--require", "--import", "--loader", "--env-file", "--conditions", "-C"}),
    "osascript": frozenset({"-l", "-s"}),
}  # fmt: skip


_INLINE = {
    "python": lazy_compile(r"-[bBdEhiIOPqsSuvVx]*[cm].*"),
    "perl": lazy_compile(r"-[acnpstTuUwWXl0-9]*[eE].*"),
    "ruby": lazy_compile(r"-[acdlnpsSvwWy]*e.*"),
    "node": lazy_compile(r"-[ep]|--eval(?:=.*)?|--print(?:=.*)?"),
    "php": lazy_compile(r"-r.*"),
    "osascript": lazy_compile(r"-e.*"),
}  # fmt: skip
"""The options that give a language's interpreter its code inline, or a module (python -m)."""


def _language(name: str) -> str:
    if _PYTHON.match(name):
        return "python"
    return {"nodejs": "node", "bun": "node", "deno": "node"}.get(name, re.sub(r"[\d.]+$", "", name))


def _head(invocation: Invocation) -> str | None:
    """The program word as written (``./x.sh``), when the command names one."""
    words = invocation.command.words
    index = len(words) - len(invocation.args) - 1
    return invocation.command.static(words[index]) if 0 <= index < len(words) else None


def _runs(invocation: Invocation) -> _Run | None:
    """The script file ``invocation`` runs, if it runs one by path."""
    name = invocation.name
    command = invocation.command
    if name in SHELLS:
        mode = shell_mode(invocation)
        file = command.static(mode.file) if mode.file is not None else None
        return _Run(file, "shell", invocation.cwd) if file and file not in _STDIN else None
    if name in ("source", "."):
        first = command.static(invocation.args[0]) if invocation.args else None
        return _Run(first, "shell", invocation.cwd) if first and first not in _STDIN else None
    if INTERPRETERS.match(name):
        return _interpreter_file(invocation)
    if name in COMPILERS:
        values = (command.static(a) or "" for a in invocation.args)
        source = next((v for v in values if v.endswith(_C_SOURCES) and not v.startswith("-")), None)
        return _Run(source, _C_SOURCE, invocation.cwd) if source else None
    head = _head(invocation)
    if (
        name
        and head is not None
        and "/" in head
        and posixpath.basename(head).lower() == name.lower()
        and not invocation.dynamic
    ):
        return _Run(head, "", invocation.cwd)  # ./x.sh, /tmp/x: the shebang says how
    return None


_C_SOURCE = "c source"
_C_SOURCES = (".c", ".cc", ".cpp", ".cxx")
"""A C or C++ source handed to a compiler: read for a root shell's code (``root_shell_code``)."""


def _planned(script: Script, cwd: str | None) -> tuple[_Run, ...]:
    """The script files ``script`` runs, in order, but for those it writes itself first (what
    runs then is what it wrote, which :mod:`.programs` judges, not what is on disk now).

    A project file the line writes before a build command reads it (``printf … > Makefile &&
    make``) is judged as written (:mod:`.project_sources`), as well as the file on disk."""
    runs: list[_Run] = []
    written: set[str] = set()
    project_files: dict[str, _Run] = {}
    exports = project_sources.Exports()
    for stages in walk(script, cwd=cwd):
        for index, invocation in enumerate(stages):
            spend()
            elevated = runs_as(invocation) is not None  # as root, or as another account (sudo -u bob)
            for run in (_runs(invocation), *_fed(stages, index)):
                if run is not None and posixpath.normpath(run.word) not in written:
                    runs.append(run.replace(elevated=True) if elevated else run)
            for run in project_commands.planned(invocation, exports.exported):
                runs.extend(project_sources.as_run(run, stages, index, project_files))
            runs.extend(run for run in build_files.builds(invocation) if _elsewhere(run, cwd))
            runs.extend(build_files.given_settings(invocation))  # cargo --config FILE, npm --userconfig
            runs.extend(git_files.configuration_files(invocation))  # git config include.path FILE
            runs.extend(_in_submodules(invocation))
            written.update(_writes(invocation))
            project_sources.note_writes(stages, index, project_files)
            exports.note(invocation)
    return tuple(runs)


def _in_submodules(invocation: Invocation) -> Iterator[_Run]:
    """``git submodule foreach CMD``: the scripts ``CMD`` runs in each submodule (``make`` reads each
    submodule's Makefile)."""
    from . import clones

    code = clones.foreach(invocation)
    if code is None:
        return
    for directory in clones.foreach_directories(invocation):
        yield from _planned_text(code, directory)


def _elsewhere(run: _Run, project: str | None) -> bool:
    """Whether a build (:mod:`.build_files`) runs in a directory outside the project (the call's
    directory): there its ``conftest.py`` or ``build.rs`` is not the agent's own project's."""
    if project is None or run.cwd is None:
        return False
    return any(not _inside(normalize_path(word, cwd=run.cwd), project) for word in (run.word, *run.fallbacks))


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _planned_text(text: str, cwd: str | None) -> tuple[_Run, ...]:
    """:func:`_planned` of a command line or a script's text; cached, since an agent repeats itself
    (the files are read afresh each time: only where they are is remembered)."""
    if len(text) > _CACHED:
        return _planned(parsed(text), cwd)
    return _planned_cached(text, cwd)


@functools.lru_cache(maxsize=256)
def _planned_cached(text: str, cwd: str | None) -> tuple[_Run, ...]:
    return _planned(parsed(text), cwd)


def _fed(stages: list[Invocation], index: int) -> Iterator[_Run]:
    """Files a shell or an interpreter reads its code from on standard input: ``bash < x.sh``,
    ``cat x.sh | sh``, ``python3 - < x.py``."""
    from .danger import _runs_stdin

    invocation = stages[index]
    if not _runs_stdin(invocation) and not (invocation.name in SHELLS and shell_mode(invocation).reads_stdin):
        return
    language = "shell" if invocation.name in SHELLS or invocation.name in ("source", ".") else ""
    language = language or _language(invocation.name)
    command = invocation.command
    for redirect in command.redirects:
        target = command.static(redirect.target) if redirect.op == "<" else None
        if target and not target.startswith(_SPECIAL):  # bash </dev/tty: what a person types
            yield _Run(target, language, invocation.cwd)
    before = stages[index - 1] if index > 0 else None
    if before is not None and before.name == "cat":
        for value in (before.command.static(arg) for arg in before.args):
            if value and not value.startswith("-"):
                yield _Run(value, language, before.cwd)


def _interpreter_file(invocation: Invocation) -> _Run | None:
    """``python x.py``, ``perl x.pl``, ``osascript -l JavaScript x.js``: the file operand."""
    language = _language(invocation.name)
    inline = _INLINE.get(language)
    if inline is None and inline_code(invocation) is not None:
        return None
    takes_value = _VALUE_OPTIONS.get(language, frozenset())
    values = [invocation.command.static(arg) for arg in invocation.args]
    if language == "go":  # go run x.go; go build, go test ... run no file named after them
        if values[:1] != ["run"]:
            return None
        values = values[1:]
    skip = False
    for index, value in enumerate(values):
        if skip:
            skip = False
            if (
                language == "osascript"
                and values[index - 1] == "-l"
                and (value or "").lower() == "javascript"
            ):
                language = "jxa"
            continue
        if value is None:
            return None
        if inline is not None and inline.fullmatch(value):
            return None  # python -c CODE, perl -e CODE (the interpreter rule's); python -m module
        if value == "--":
            continue
        if value.startswith("-") and value != "-":
            skip = value in takes_value
            continue
        if value in _STDIN:
            return None
        later = [v for v in values[index + 1 :] if v and not v.startswith("-")][:_FALLBACKS]
        language = "applescript" if language == "osascript" else language
        return _Run(value, language, invocation.cwd, tuple(later))
    return None


_WRITERS = frozenset({"tee", "cp", "mv", "install", "ln", "rsync", "curl", "wget", "dd", "unzip", "tar"})
"""Programs that may write their operands (a copy's destination, a download, an unpacked file)."""


def _writes(invocation: Invocation) -> Iterator[str]:
    """Files ``invocation`` may write (redirects, ``tee``, a copy's destination, a download)."""
    command = invocation.command
    for redirect in command.redirects:
        if redirect.op in WRITE_OPERATORS:
            target = command.static(redirect.target)
            if target:
                yield posixpath.normpath(target)
    if invocation.name in _WRITERS:
        values = (command.static(a) for a in invocation.args)
        yield from (posixpath.normpath(v) for v in values if v and not v.startswith("-"))


# -- reading a file safely -------------------------------------------------------------------


class _Read(Frozen):
    """A file's text, or why it could not be judged (``missing``: nothing there to run)."""

    __slots__ = ("binary", "missing", "problem", "text")

    text: str | None
    problem: str
    missing: bool
    binary: bool

    def __init__(
        self, text: str | None = None, problem: str = "", missing: bool = False, binary: bool = False
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "text", text)
        set_field(self, "problem", problem)
        set_field(self, "missing", missing)
        set_field(self, "binary", binary)


_SPECIAL = ("/proc/", "/sys/", "/dev/")
_HEAD = 8192
"""The first bytes read: a NUL among them makes the file a binary."""


def read_script(path: str) -> _Read:
    """The text of the regular file at ``path`` (symlinks followed), read without blocking."""
    real = os.path.realpath(path)
    if real.startswith(_SPECIAL) or real in ("/proc", "/sys", "/dev"):
        return _Read(problem="it is a device or kernel file, not a script on disk")
    try:
        before = os.stat(real)
    except FileNotFoundError:
        return _Read(missing=True)
    except OSError as exc:
        return _Read(problem=f"it cannot be read ({exc.strerror or type(exc).__name__})")
    if stat.S_ISDIR(before.st_mode):
        return _Read(missing=True)  # bash DIR fails: nothing runs
    if not stat.S_ISREG(before.st_mode):
        return _Read(problem="it is not a regular file (a FIFO, socket or device)")
    try:
        with opened(real, before) as (descriptor, after):
            head = os.read(descriptor, _HEAD)
            if b"\0" in head:
                return _Read(
                    binary=True
                )  # a program (ELF, Mach-O) or compiled code: judged by its first bytes
            if after.st_size > MAX_BYTES:
                return _Read(problem=f"it is larger than the {MAX_BYTES // 1024} KiB the guard reads")
            data = read_at_most(descriptor, MAX_BYTES, head)
    except Unreadable as exc:
        return _Read(problem=str(exc))
    if len(data) > MAX_BYTES:
        return _Read(problem=f"it is larger than the {MAX_BYTES // 1024} KiB the guard reads")
    return _Read(text=data.decode("utf-8", "replace"))


# -- judging what a file holds ---------------------------------------------------------------


def _shebang_language(text: str) -> str:
    """How ``./x`` runs: its ``#!`` line's interpreter (``env [-S] [VAR=x] python3`` too),
    else the shell."""
    if not text.startswith("#!"):
        return "shell"  # no #!: the calling shell runs it
    words = text[2:].partition("\n")[0].split()
    program = posixpath.basename(words[0]) if words else ""
    if program == "env":
        rest = iter(words[1:])
        program = ""
        for word in rest:
            if word in ("-u", "--unset", "-C", "--chdir"):
                next(rest, None)
            elif not word.startswith("-") and "=" not in word:
                program = posixpath.basename(word)
                break
    if program in SHELLS:
        return "shell"
    if program == "osascript":
        return "applescript"
    return _language(program) if program and INTERPRETERS.match(program) else "other"


class _Judging:
    """One decision's walk through the script files of a command."""

    __slots__ = ("asked", "files", "folders", "home", "policy", "seen")

    def __init__(self, home: str, policy: Policy) -> None:
        self.home = home
        self.policy = policy
        self.seen: set[str] = set()
        """The files judged so far (their real paths): each once, and a cycle ends."""
        self.files = 0
        self.folders = 0
        self.asked: Verdict | None = None
        """The first ask found, kept while the rest is judged (a block ends the decision)."""

    def note(self, verdict: Verdict | None) -> Verdict | None:
        """``verdict`` if it blocks; an ask is kept (the first) while the rest is judged."""
        if verdict is None:
            return None
        if verdict.decision == "block":
            return verdict
        self.asked = self.asked or verdict
        return None

    def unjudged(self, shown: str, why: str) -> Verdict | None:
        found = Verdict(UNJUDGED_SCRIPT, shown, why, rule="script file rule")
        return self.note(self.policy.apply(found))

    def command(self, runs: Sequence[_Run], depth: int, origin: str | None) -> Verdict | None:
        """Judge the scripts a command line (or a script's text) runs from disk: :func:`_planned`."""
        for run in runs:
            spend()
            verdict = self.file(run, depth, origin)
            if verdict is not None:
                return verdict
        return None

    def file(self, run: _Run, depth: int, origin: str | None) -> Verdict | None:
        """Judge the file ``run`` names: the first of its words that is a file, where it may be."""
        if run.how == project_commands.UNSEEN:
            return self.unjudged(run.word, f"{run.text}, so it cannot be judged")
        if run.how:
            return self.written(run, depth, origin)
        if run.language == "helm":
            return self.chart(run, depth, origin)
        if run.language in build_files.WALKED:
            return self.walked(run, depth, origin)
        if run.language == build_files.PACKAGE_SETTINGS:
            return self.package_settings(run, depth, origin)
        for word in (run.word, *run.fallbacks):
            for path in _candidates(run.replace(word=word), self.home, origin):
                real = os.path.realpath(path)
                key = real + "\0" + "\0".join(run.entries) if run.language == "npm" else real
                key = (
                    key + "\0tox" if run.language == project_commands.TOX else key
                )  # pyproject.toml read twice
                # Judged already in this decision, or a cycle (a.sh sources b.sh sources a.sh).
                if key in self.seen:
                    return None
                if run.language == "kube" and os.path.isdir(real):
                    return self.manifest_directory(run.replace(word=word), real, depth, origin)
                read = read_script(path)
                if read.missing:
                    continue
                if depth >= MAX_DEPTH:
                    return self.unjudged(word, f"it is run by scripts nested more than {MAX_DEPTH} deep")
                self.seen.add(key)
                self.files += 1
                if self.files > MAX_FILES:
                    return self.unjudged(word, f"the command runs more than {MAX_FILES} script files")
                run = run.replace(word=word)
                if check_path(path, home=self.home) is None:
                    return self.content(run, read, path, depth)
                # A file of secrets (source .env): its lines never go into a reason the agent reads.
                asked = self.asked
                verdict = _redacted(self.content(run, read, path, depth), word)
                if self.asked is not asked:
                    self.asked = _redacted(self.asked, word)
                return verdict
        return None

    def written(self, run: _Run, depth: int, origin: str | None) -> Verdict | None:
        """A file as the command writes it before it runs (``printf … > Makefile && make``), or fed on
        standard input (``kubectl apply -f - <<EOF``): its text, after what is on disk when appended."""
        text = run.text
        if run.how == project_commands.APPENDED:
            for path in _candidates(run.replace(how="", text=""), self.home, origin):
                read = read_script(path)
                if read.text is None and not read.missing:
                    return self.unjudged(run.word, f"text is appended to it, and {read.problem}")
                text = (read.text or "") + text
                break
        if depth >= MAX_DEPTH:
            return self.unjudged(run.word, f"it is run by scripts nested more than {MAX_DEPTH} deep")
        self.files += 1
        if self.files > MAX_FILES:
            return self.unjudged(run.word, f"the command runs more than {MAX_FILES} script files")
        if len(text) > MAX_BYTES:
            return self.unjudged(run.word, f"it is larger than the {MAX_BYTES // 1024} KiB the guard reads")
        path = (
            project_sources.place(run.cwd, run.word)
            if run.word.startswith(("/", ".")) or run.cwd
            else run.word
        )
        return self.content(run.replace(how="", text=""), _Read(text=text), path, depth)

    def content(self, run: _Run, read: _Read, path: str, depth: int) -> Verdict | None:
        shown = run.word
        language = run.language
        if read.binary and language in _PROJECT_FILES:
            return None  # make, npm, kubectl refuse it: nothing runs
        if read.binary:
            if language in ("applescript", "jxa", "python"):
                what = (
                    "compiled AppleScript"
                    if language != "python"
                    else "compiled Python (bytecode or an archive)"
                )
                return self.unjudged(shown, f"{what}: its code cannot be read")
            return None  # a program, not a script: the guards judge no binaries
        if read.text is None:
            return self.unjudged(shown, f"the script cannot be judged: {read.problem}")
        text = read.text
        if language in _PROJECT_FILES:
            return _PROJECT_FILES[language](self, run, text, path, depth)
        if not language:
            language = _shebang_language(text)
        if language == "shell":
            return self.shell(text, shown, run.cwd, path, depth, elevated=run.elevated)
        if language in ("applescript", "jxa"):
            verdict = _judge_osascript(text, language, self.policy)
            return self.note(_located(verdict, shown, text))
        if language == "other":
            return None  # an interpreter the guards do not read (awk -f, make ...): judged as a program
        if language == "rust":
            text = build_files.rust_arguments(text)  # a cargo build script (.arg("-c").arg(…))
        return self.code(text, language, shown, run.cwd, path, depth)

    def commands(
        self, pieces: Sequence[tuple[int, str]], shown: str, cwd: str | None, path: str, depth: int
    ) -> Verdict | None:
        """Judge shell commands a project file holds, each given with the line it starts on (make
        and npm run each in a shell of its own: no line is another's input)."""
        for line, command in pieces:
            spend()
            found = _judge_shell_text(command, self.home, self.policy, lines_apart=True)
            if found is not None:
                at = line + _line_in(command, found.piece) - 1
                found = _renamed(found, f"{shown}:{at}: {found.piece}")
                found = found.replace(rule=f"{found.rule or 'command guard'}, in the file {shown}")
            verdict = self.note(found)
            if verdict is not None:
                return verdict
            inner = self.command(_planned_text(command, cwd), depth + 1, path)
            if inner is not None:
                return _through(inner, shown)
        return None

    def makefile(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """``make``: the recipes the goals reach (every recipe when that cannot be worked out), what
        runs while make reads the file, its ``SHELL``, its includes."""
        from . import makefiles

        shown = run.word
        overrides = [entry for entry in run.entries if not entry.startswith("goal:")]
        goals: list[str] | None = [entry[5:] for entry in run.entries if entry.startswith("goal:")]
        made = makefiles.read_makefile(text, overrides)
        if goals is not None and "*" in goals:
            goals = None
        verdict = self.commands(list(makefiles.recipe_lines(made, goals)), shown, run.cwd, path, depth)
        if verdict is not None:
            return verdict
        for shell in made.shells:
            program = shell.split()[0] if shell.split() else ""
            if program in SHELLS or program == "env" or program.startswith(("/bin/", "/usr/bin/")):
                continue  # a shell on the PATH or the system's: a program, not the project's script
            if "/" not in program:
                verdict = self.unjudged(
                    shown, f"its recipes run with SHELL={shell}, which the guard does not read"
                )
            else:
                verdict = self.file(_Run(program, "", run.cwd), depth + 1, path)
            if verdict is not None:
                return _through(verdict, shown)
        for word in made.includes:
            for included in _included(word, run.cwd)[: MAX_FILES + 1]:
                every = (*overrides, "goal:*")  # its rules join the including file's: every recipe counts
                verdict = self.file(_Run(included, "make", run.cwd, entries=every), depth + 1, path)
                if verdict is not None:
                    return _through(verdict, shown)
        if made.problem:
            return self.unjudged(shown, made.problem)
        return None

    def cmake(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """``cmake -B build``: the programs the CMake file runs (``execute_process``, custom commands,
        ``ExternalProject`` steps), and the files it includes (:mod:`.cmake_files`)."""
        from . import cmake_files

        shown = run.word
        verdict = self.commands(list(cmake_files.commands(text)), shown, run.cwd, path, depth)
        if verdict is not None:
            return verdict
        here = posixpath.dirname(path)  # CMake names included files from the including file's folder
        for word in cmake_files.included_files(text)[: MAX_FILES + 1]:
            if "${" in word:
                continue  # a path made while CMake runs: its own modules, most often
            included = word if word.startswith("/") else posixpath.join(here, word)
            verdict = self.file(_Run(included, project_commands.CMAKE, run.cwd), depth + 1, path)
            if verdict is not None:
                return _through(verdict, shown)
        return self.cmake_folders(run, text, here, depth)

    def cmake_folders(self, run: _Run, text: str, here: str, depth: int) -> Verdict | None:
        """The ``CMakeLists.txt`` of each folder ``add_subdirectory`` configures (run as the top one
        is), at the same depth: a folder is part of the build, not a script run by a script."""
        from . import cmake_files

        for word in cmake_files.subdirectories(text):
            if "${" in word:
                continue  # a folder named while CMake runs (a loop's variable)
            self.folders += 1
            if self.folders > MAX_FOLDERS:
                return self.unjudged(run.word, f"the build configures more than {MAX_FOLDERS} CMake folders")
            folder = word if word.startswith("/") else posixpath.join(here, word)
            counted = self.files
            verdict = self.file(
                _Run(posixpath.join(folder, "CMakeLists.txt"), project_commands.CMAKE, run.cwd), depth, here
            )
            self.files = counted  # a folder's CMakeLists.txt is not one of the MAX_FILES scripts
            if verdict is not None:
                return _through(verdict, run.word)
        return None

    def git_config(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """A git configuration file git reads (:func:`.git_files.configuration_files`): each setting
        judged as the ``git config KEY VALUE`` that adds it, and the files it includes."""
        settings = [(k, v) for k, v in git_files.config_settings(text) if not git_files.include_key(k)]
        for key, value in settings[:MAX_SETTINGS]:
            verdict = self.shell(shlex.join(["git", "config", key, value]), run.word, run.cwd, path, depth)
            if verdict is not None:
                return verdict
        for included in git_files.included_files(text, path)[: MAX_FILES + 1]:
            verdict = self.file(_Run(included, git_files.GIT_CONFIG, run.cwd), depth + 1, path)
            if verdict is not None:
                return _through(verdict, run.word)
        return None

    def package(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """``npm run X``: the scripts of ``package.json`` that run (``preX``, ``X``, ``postX``)."""
        try:
            data = json.loads(text)
        except ValueError:
            return None  # npm refuses it: nothing runs
        scripts = data.get("scripts") if isinstance(data, dict) else None
        if not isinstance(scripts, dict):
            return None
        pieces = []
        for name in run.entries:
            command = scripts.get(name)
            if isinstance(command, str):
                pieces.append((_key_line(text, name), command))
        return self.commands(pieces, run.word, run.cwd, path, depth)

    def manifest(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """``kubectl apply -f``: pods given the node; ``docker compose up``: services as ``docker run``."""
        from . import manifests

        shown = run.word
        try:
            if run.language == "compose":
                for service, command in manifests.compose_commands(text):
                    found = _judge_shell_text(command, self.home, self.policy)
                    if found is not None:
                        found = _renamed(found, f"{shown}: service {service}, as {found.piece}")
                        verdict = self.note(found.replace(rule=f"compose rule, in the file {shown}"))
                        if verdict is not None:
                            return verdict
                return self.compose_references(run, text, path, depth)
            if "kustomize" in run.entries and posixpath.basename(path).lower().startswith("kustomization."):
                verdict = self.kustomization(run, text, path, depth)
                if verdict is not None:
                    return verdict
            findings = manifests.kube_findings(text)
            commands = manifests.kube_commands(text) if not findings else []
            placements = manifests.kube_placements(text) if not findings else []
            debugging = manifests.kube_debugging(text) if not findings else []
        except ValueError as exc:
            return self.unjudged(shown, f"the manifest cannot be judged: {exc}")
        rule = f"manifest rule, in the file {shown}"
        if findings:
            why = "starts a pod with the node's privileges or disk: " + "; ".join(dict.fromkeys(findings))
            found = Verdict(PRIVILEGE, f"kubectl -f {shown}", why, rule=rule)
            return self.note(self.policy.apply(found))
        for container, command in commands:
            judged = _judge_shell_text(command, self.home, self.policy)
            if judged is not None:
                judged = _renamed(judged, f"{shown}: container {container} runs {judged.piece}")
                verdict = self.note(judged.replace(rule=rule))
                if verdict is not None:
                    return verdict
        if placements:
            why = "puts a workload beside the cluster's own components: " + "; ".join(placements)
            return self.note(self.policy.apply(Verdict(CLOUD_CONTROL, f"kubectl -f {shown}", why, rule=rule)))
        if debugging:
            why = "starts a debugger's container: " + "; ".join(dict.fromkeys(debugging))
            found = Verdict(DEBUG_CONTAINER, f"kubectl -f {shown}", why, rule=rule)
            return self.note(self.policy.apply(found))
        return None

    def c_source(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """``gcc /tmp/service.c -o /tmp/service``: a source that switches to uid 0 and starts a shell, or
        sets a setuid bit, compiled: the program is an escalation's payload, whoever wrote the file."""
        why = root_shell_code(text)
        if why is None:
            return None
        found = Verdict(PRIVILEGE, f"compiles {run.word}", why, rule=f"source rule, in the file {run.word}")
        return self.note(self.policy.apply(found))

    def compose_environment(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """``docker compose up`` with no ``-f``: the project's ``.env`` may set ``COMPOSE_FILE``, and then
        those are the files compose reads (relative to the project directory)."""
        from . import manifests

        settings = manifests.dotenv(text)
        if "COMPOSE_FILE" not in settings:
            return None
        setting = settings["COMPOSE_FILE"]
        if setting is None:
            why = "it sets COMPOSE_FILE from other variables, so it cannot be judged"
            return self.unjudged(run.word, why)
        for name in project_commands.compose_file_list(setting, settings):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), name))
            verdict = self.file(_Run(target, "compose", None), depth + 1, path)
            if verdict is not None:
                return _through(verdict, run.word)
        return None

    def compose_references(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """The compose files one brings in (``include:``, ``extends: {file: …}``): judged the same way."""
        from . import manifests

        directory = posixpath.dirname(path)
        for reference in manifests.compose_references(text):
            if project_commands.remote(reference) or reference.startswith("oci:"):
                why = f"it includes {reference}, fetched when compose runs, so it cannot be judged"
                verdict = self.unjudged(run.word, why)
            else:
                target = posixpath.normpath(posixpath.join(directory, reference))
                verdict = _through(self.file(_Run(target, "compose", None), depth + 1, path), run.word)
            if verdict is not None:
                return verdict
        return None

    def walked(self, run: _Run, depth: int, origin: str | None) -> Verdict | None:
        """``pytest``: the ``conftest.py`` files and the directory's ``-p`` plugins; ``go generate``:
        its ``//go:generate`` lines (:mod:`.build_files`)."""
        if depth >= MAX_DEPTH:
            return self.unjudged(run.word, f"it is run by scripts nested more than {MAX_DEPTH} deep")
        for word in (run.word, *run.fallbacks):
            for directory in _candidates(run.replace(word=word), self.home, origin):
                real = os.path.realpath(directory)
                if not os.path.isdir(real) or real + "\0" + run.language in self.seen:
                    continue
                self.seen.add(real + "\0" + run.language)
                try:
                    if run.language == build_files.PYTEST:
                        verdict = self.pytest_files(run, real, depth)
                    else:
                        verdict = self.go_generate(run, real, depth)
                except build_files.TooMany as exc:
                    verdict = self.unjudged(word, f"the files {run.language} runs cannot all be found: {exc}")
                if verdict is not None:
                    return verdict
        return None

    def pytest_files(self, run: _Run, directory: str, depth: int) -> Verdict | None:
        """The ``conftest.py`` files, and the plugins of the directory pytest loads: ``-p NAME`` on the
        command line and in the ini files' ``addopts``, ``pytest_plugins`` of a ``conftest.py``, and
        the ``pytest11`` entry points the package declares."""
        files = build_files.conftest_files(directory)
        texts = {name: read_script(posixpath.join(directory, name)).text or "" for name in _PYTEST_SETTINGS}
        plugins = [entry[7:] for entry in run.entries if entry.startswith("plugin:")]
        plugins += build_files.pytest_plugins([texts[name] for name in build_files.INI_FILES])
        plugins += build_files.entry_point_plugins(
            texts["pyproject.toml"], texts["setup.cfg"], texts["setup.py"]
        )
        for path in files:
            if "pytest_plugins" in (text := read_script(path).text or ""):
                plugins += build_files.conftest_plugins(text)
        # Where pytest imports them from: the directory (its src/), the folders of the conftest.py
        # files (pytest puts them on sys.path), and where it runs (python -m pytest).
        roots = [directory, posixpath.join(directory, "src"), *(posixpath.dirname(path) for path in files)]
        roots += [normalize_path(".", cwd=run.cwd)] if run.cwd is not None else []
        for name in dict.fromkeys(plugins):
            files += build_files.plugin_files(list(dict.fromkeys(roots)), name)
        return self.each([_Run(path, "python", None) for path in files], depth, directory)

    def package_settings(self, run: _Run, depth: int, origin: str | None) -> Verdict | None:
        """``npm``, ``yarn``, ``pnpm``, ``bun`` in a project: the programs and JavaScript files its
        ``.npmrc``, ``.yarnrc.yml``, ``bunfig.toml`` make them run, and its ``.pnpmfile.cjs``."""
        for directory in _candidates(run, self.home, origin):
            for name in build_files.PACKAGE_SETTING_FILES:
                path = posixpath.join(directory, name)
                if name.startswith(".pnpmfile."):
                    verdict = self.file(_Run(path, "node", None), depth + 1, None)
                else:
                    verdict = self.package_setting(path, name, directory, depth)
                if verdict is not None:
                    return verdict
        return None

    def package_setting(self, path: str, name: str, directory: str, depth: int) -> Verdict | None:
        read = read_script(path)
        if read.text is None:
            return (
                None
                if read.missing or read.binary
                else self.unjudged(path, f"it cannot be judged: {read.problem}")
            )
        return self.package_setting_text(path, name, read.text, directory, depth)

    def package_setting_text(
        self, path: str, name: str, text: str, directory: str, depth: int
    ) -> Verdict | None:
        commands, files = build_files.package_settings(name, text)
        pieces = [(_line_in(text, key), line) for key, line in commands]
        verdict = self.commands(pieces, path, directory, path, depth)
        if verdict is not None:
            return verdict
        loaded = [_Run(normalize_path(file, home=self.home, cwd=directory), "node", None) for file in files]
        return self.each(loaded, depth, path, path)

    def npmrc(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """``npm --userconfig FILE``: the file, as an ``.npmrc``."""
        return self.package_setting_text(path, ".npmrc", text, run.cwd or posixpath.dirname(path), depth)

    def go_generate(self, run: _Run, directory: str, depth: int) -> Verdict | None:
        recursive = "recursive" in run.entries
        for path, line, command in build_files.go_directives(directory, recursive):
            shown = posixpath.relpath(path, directory)
            verdict = self.commands([(line, command)], shown, posixpath.dirname(path), path, depth)
            if verdict is not None:
                return verdict
        return None

    def each(self, runs: Iterable[_Run], depth: int, origin: str, shown: str = "") -> Verdict | None:
        """Judge the files ``runs`` name, run by the file ``origin`` (``shown``: reached through it)."""
        for inner in runs:
            verdict = self.file(inner, depth + 1, origin)
            if verdict is not None:
                return _through(verdict, shown)
        return None

    def cargo(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """``cargo build``: the build scripts and procedural macros of the package, of the workspace's
        members and of its path dependencies; the programs the cargo configurations make it run."""
        try:
            code = build_files.cargo_code(text)
        except ValueError as exc:
            return self.unjudged(run.word, f"its build scripts cannot be found: {exc}")
        directory = posixpath.dirname(path)
        members = [
            member
            for pattern in code.members
            for member in _included(posixpath.join(directory, pattern), None)[: MAX_FILES + 1]
        ]
        packages = [posixpath.normpath(posixpath.join(directory, folder)) for folder in code.packages]
        return (
            self.each(
                [_Run(posixpath.join(directory, script), "rust", None) for script in code.scripts],
                depth,
                path,
                run.word,
            )
            or self.each(
                [
                    _Run(posixpath.join(folder, "Cargo.toml"), build_files.CARGO, None)
                    for folder in members + packages
                ],
                depth,
                path,
                run.word,
            )
            or self.cargo_configs(run, directory, depth)
        )

    def cargo_configs(self, run: _Run, directory: str, depth: int) -> Verdict | None:
        """The ``.cargo/config.toml`` files cargo reads: in its directory and each folder above, and
        above the package (but the user's own, ``~/.cargo``)."""
        folders: list[str] = []
        for start in (run.cwd, directory):
            folder = start or ""
            for _ in range(32) if folder.startswith("/") else ():
                folders.append(folder)
                if folder == "/":
                    break
                folder = posixpath.dirname(folder)
        users = posixpath.join(self.home, ".cargo") + "/"
        for folder in dict.fromkeys(folders):
            for name in build_files.CARGO_CONFIGS:
                path = posixpath.join(folder, name)
                if path.startswith(users) or path + "\0cargo-config" in self.seen:
                    continue
                self.seen.add(path + "\0cargo-config")
                read = read_script(path)
                if read.missing or read.binary:
                    continue
                if read.text is None:
                    return self.unjudged(path, f"the cargo configuration cannot be judged: {read.problem}")
                verdict = self.cargo_config(path, read.text, folder, depth)
                if verdict is not None:
                    return verdict
        return None

    def cargo_config(self, path: str, text: str, folder: str, depth: int) -> Verdict | None:
        """One cargo configuration: its programs judged as commands run from ``folder`` (relative paths
        in it are the folder's); an ``[env]`` that loads code is asked about."""
        shown = path
        try:
            programs = build_files.cargo_config_programs(text)
            loaders = build_files.cargo_environment(text)
        except ValueError as exc:
            return self.unjudged(shown, f"the cargo configuration cannot be judged: {exc}")
        pieces = [(_line_in(text, setting.rpartition(".")[2]), line) for setting, line in programs]
        verdict = self.commands(pieces, shown, folder, path, depth)
        if verdict is not None or not loaders:
            return verdict
        why = f"its [env] sets {', '.join(loaders)} for what cargo runs: code the guard does not read"
        return self.unjudged(shown, why)

    def given_cargo_config(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """``cargo --config FILE`` (its programs run from where cargo runs) or ``--config KEY=VALUE``."""
        folder = run.cwd or posixpath.dirname(path)
        return self.cargo_config(path if run.word != "cargo --config" else run.word, text, folder, depth)

    def tox(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """``tox``: the command lines of its environments (``commands``, ``commands_pre`` ...)."""
        try:
            commands = build_files.tox_commands(text, posixpath.basename(path))
        except ValueError as exc:
            return self.unjudged(run.word, f"its tox settings cannot be judged: {exc}")
        pieces = [(_line_in(text, command), command) for command in commands]
        return self.commands(pieces, run.word, posixpath.dirname(path), path, depth)

    def backend(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """``pip install .``: the module of an in-tree build backend (``backend-path``), as Python."""
        if "backend-path" not in text:
            return None  # the backend is an installed package (setuptools, hatchling ...): no TOML read
        try:
            files = build_files.backend_files(text)
        except ValueError as exc:
            return self.unjudged(run.word, f"its build backend cannot be found: {exc}")
        directory = posixpath.dirname(path)
        return self.each(
            [_Run(posixpath.join(directory, name), "python", None) for name in files], depth, path, run.word
        )

    def kustomization(self, run: _Run, text: str, path: str, depth: int) -> Verdict | None:
        """``kubectl apply -k DIR``: the resources its kustomization lists (files and directories)."""
        from . import manifests

        documents = manifests.load_documents(text) or []
        directory = posixpath.dirname(path)
        for document in documents:
            resources = document.get("resources") if isinstance(document, dict) else None
            for resource in resources if isinstance(resources, list) else []:
                if isinstance(resource, str) and project_commands.remote(resource):
                    why = f"its resource {resource} is fetched when kubectl runs, so it cannot be judged"
                    verdict = self.unjudged(run.word, why)
                    if verdict is not None:
                        return verdict
                elif isinstance(resource, str):
                    target = posixpath.normpath(posixpath.join(directory, resource))
                    verdict = self.file(_Run(target, "kube", None, entries=run.entries), depth + 1, path)
                    if verdict is not None:
                        return verdict
        return None

    def manifest_directory(self, run: _Run, real: str, depth: int, origin: str | None) -> Verdict | None:
        """``kubectl apply -f DIR`` / ``-k DIR``: the manifests in it."""
        from . import manifests

        if depth >= MAX_DEPTH:
            return self.unjudged(run.word, f"it is run by scripts nested more than {MAX_DEPTH} deep")
        try:
            names = os.listdir(real)
        except OSError as exc:
            return self.unjudged(run.word, f"the directory cannot be read ({exc.strerror})")
        for name in manifests.manifest_files(names)[: MAX_FILES + 1]:
            target = posixpath.join(real, name)
            verdict = self.file(_Run(target, "kube", None, entries=run.entries), depth + 1, origin)
            if verdict is not None:
                return verdict
        return None

    def chart(self, run: _Run, depth: int, origin: str | None) -> Verdict | None:
        """``helm install|upgrade|template … CHART``: a chart directory's templates, values and
        subcharts, or a packaged chart's (:mod:`.chart_archives`); a chart from a repository is
        asked about (it is fetched when helm runs)."""
        from . import chart_archives

        word = run.word
        places = _candidates(run, self.home, origin)
        for place in places:
            real = os.path.realpath(place)
            if os.path.isdir(real):
                return self.chart_directory(run, real, depth)
            if os.path.lexists(place):
                if real in self.seen:
                    return None
                self.seen.add(real)
                return self.packaged_chart(run, chart_archives.read_chart_archive(real), depth)
        if "/" in word and not word.startswith((".", "/", "~", "$")):
            why = (
                f"the chart {word} comes from a chart repository: its templates are fetched when helm runs, "
                "so it cannot be judged offline"
            )
            return self.unjudged(word, why)
        return None

    def chart_directory(self, run: _Run, directory: str, depth: int) -> Verdict | None:
        shown = run.word
        if directory in self.seen:
            return None
        self.seen.add(directory)
        if depth >= MAX_DEPTH:
            return self.unjudged(shown, f"its subcharts nest more than {MAX_DEPTH} deep")
        templates = [posixpath.join(root, name) for root, name in _chart_templates(directory)]
        if len(templates) > _MAX_TEMPLATES:
            return self.unjudged(shown, f"the chart has more than {_MAX_TEMPLATES} templates")
        texts: list[str] = []
        for path in (posixpath.join(directory, "values.yaml"), *templates):
            spend()
            read = read_script(path)
            if read.missing or read.binary:
                texts.append("")
                continue
            if read.text is None:
                return self.unjudged(shown, f"{posixpath.relpath(path, directory)}: {read.problem}")
            texts.append(read.text)
        verdict = self.chart_texts(run, texts[:1], texts[1:])
        if verdict is not None:
            return verdict
        return self.subcharts(run, directory, depth)

    def packaged_chart(self, run: _Run, chart: PackagedChart, depth: int) -> Verdict | None:
        """A chart packaged by ``helm package`` (``./chart.tgz``, ``charts/x.tgz``): read from the archive."""
        shown = run.word
        if chart.problem:
            return self.unjudged(shown, f"a packaged chart that cannot be read: {chart.problem}")
        if depth >= MAX_DEPTH:
            return self.unjudged(shown, f"its subcharts nest more than {MAX_DEPTH} deep")
        if len(chart.templates) > _MAX_TEMPLATES:
            return self.unjudged(shown, f"the chart has more than {_MAX_TEMPLATES} templates")
        values = [chart.values] if chart.values is not None else []
        verdict = self.chart_texts(run, values, [text for _, text in chart.templates])
        for name, inner in chart.subcharts[: MAX_FILES + 1] if verdict is None else ():
            sets = tuple(e for e in run.entries if e.startswith("set:"))
            verdict = self.packaged_chart(
                _Run(f"{shown}/charts/{name}", "helm", None, entries=sets), inner, depth + 1
            )
            if verdict is not None:
                break
        return verdict

    def chart_texts(self, run: _Run, values: list[str], templates: list[str]) -> Verdict | None:
        """Judge a chart by its own ``values.yaml`` (``values``), its templates, the ``-f`` values
        files and the ``--set`` values of the command."""
        from . import manifests

        shown = run.word
        certain = manifests.set_findings([entry[4:] for entry in run.entries if entry.startswith("set:")])
        conditional: list[str] = []
        debugging: list[str] = []
        values = list(values)
        for entry in run.entries:
            if entry.startswith("values:"):
                if project_commands.remote(entry[7:]):
                    return self.unjudged(shown, f"its values come from {entry[7:]}, so it cannot be judged")
                read = read_script(normalize_path(entry[7:], home=self.home, cwd=run.cwd))
                if read.text is None and not (read.missing or read.binary):
                    return self.unjudged(shown, f"{entry[7:]}: {read.problem}")
                values.append(read.text or "")
        try:
            for text in values:
                spend()
                certain += manifests.kube_findings(text)
                debugging += manifests.kube_debugging(text)
            for text in templates:
                spend()
                sure, maybe = manifests.chart_findings(text)
                certain += sure
                conditional += maybe
                debugging += manifests.chart_debugging(text)
        except ValueError as exc:
            return self.unjudged(shown, f"the chart cannot be judged: {exc}")
        if certain:
            why = "starts pods with the node's privileges or disk: " + "; ".join(dict.fromkeys(certain))
            found = Verdict(PRIVILEGE, f"helm chart {shown}", why, rule=f"chart rule, in the chart {shown}")
            verdict = self.note(self.policy.apply(found))
            if verdict is not None:
                return verdict
        if conditional:
            why = (
                "its templates give pods the node where the values say so ("
                + "; ".join(dict.fromkeys(conditional))
                + "), and the guard does not evaluate the templates' conditions"
            )
            return self.unjudged(shown, why)
        if debugging:
            why = "starts debuggers' containers: " + "; ".join(dict.fromkeys(debugging))
            rule = f"chart rule, in the chart {shown}"
            found = Verdict(DEBUG_CONTAINER, f"helm chart {shown}", why, rule=rule)
            return self.note(self.policy.apply(found))
        return None

    def subcharts(self, run: _Run, directory: str, depth: int) -> Verdict | None:
        """A chart's ``charts/``: each directory a chart of its own, each ``.tgz`` a packaged one."""
        from . import chart_archives

        folder = posixpath.join(directory, "charts")
        try:
            names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        except OSError as exc:
            return self.unjudged(run.word, f"its charts/ cannot be read ({exc.strerror})")
        sets = tuple(e for e in run.entries if e.startswith("set:"))
        for name in names[: MAX_FILES + 1]:
            path = posixpath.join(folder, name)
            inner = _Run(f"{run.word}/charts/{name}", "helm", None, entries=sets)
            if os.path.isdir(path):
                verdict = self.chart_directory(inner, path, depth + 1)
            elif name.endswith((".tgz", ".tar.gz")):
                verdict = self.packaged_chart(inner, chart_archives.read_chart_archive(path), depth + 1)
            else:
                continue
            if verdict is not None:
                return verdict
        return None

    def shell(
        self, text: str, shown: str, cwd: str | None, path: str, depth: int, *, elevated: bool = False
    ) -> Verdict | None:
        verdict = self.note(_located(_judge_shell_text(text, self.home, self.policy), shown, text))
        if verdict is not None:
            return verdict
        if elevated:
            # Run as root, the script reads what the agent cannot (sudo ./x.sh holding cat /root/root.txt,
            # cat /etc/shadow): its file operands are judged as the command line's are.
            verdict = self.note(_located(_judge_shell_reads(text, cwd, self.home), shown, text))
            if verdict is not None:
                return verdict
        inner = self.command(_planned_text(text, cwd), depth + 1, path)
        return _through(inner, shown)

    def code(
        self, text: str, language: str, shown: str, cwd: str | None, path: str, depth: int
    ) -> Verdict | None:
        from . import danger

        judged: dict[str, Verdict | None] = {}
        window = text

        def judge_shell(command: str) -> Verdict | None:
            if not _command_line(command, window):
                return None
            if command not in judged:  # the whole text, then its windows: each command once
                found = danger.check_command(command, home=self.home, policy=self.policy)
                if found is None or found.decision != "block":
                    nested = _through(self.command(_planned_text(command, cwd), depth + 1, path), "")
                    found = stricter(found, nested)
                judged[command] = found
            return judged[command]

        if _judge_code(text, language, self.home, cwd, judge_shell) is None:
            return None  # nothing in the whole text: no window of it holds anything either
        for start, window in _windows(text):
            spend()
            verdict = self.policy.apply(_judge_code(window, language, self.home, cwd, judge_shell))
            if verdict is not None:
                line = start + _line_in(window, verdict.piece) - 1
                verdict = _renamed(verdict, f"{shown}:{line}: {verdict.piece}")
                found = self.note(verdict.by("script file rule"))
                if found is not None:
                    return found
        return None


_PYTEST_SETTINGS = (*build_files.INI_FILES, "setup.py")
"""The files of a directory that say which plugins pytest loads."""


_PROJECT_FILES: dict[str, Callable[[_Judging, _Run, str, str, int], Verdict | None]] = {
    "make": _Judging.makefile,
    "npm": _Judging.package,
    project_commands.CMAKE: _Judging.cmake,
    git_files.GIT_CONFIG: _Judging.git_config,
    "kube": _Judging.manifest,
    "compose": _Judging.manifest,
    project_commands.COMPOSE_ENV: _Judging.compose_environment,
    build_files.CARGO: _Judging.cargo,
    build_files.CARGO_CONFIG: _Judging.given_cargo_config,
    build_files.NPMRC: _Judging.npmrc,
    project_commands.TOX: _Judging.tox,
    project_commands.PEP517: _Judging.backend,
    _C_SOURCE: _Judging.c_source,
}
"""How each project file a command runs (:mod:`.project_commands`) is judged."""


_MAX_TEMPLATES = 256
"""How many template files of one chart are read; past that, a person is asked."""
_TEMPLATE_SUFFIXES = (".yaml", ".yml", ".tpl", ".json")


def _chart_templates(directory: str) -> list[tuple[str, str]]:
    """(folder, name) of each template under a chart's ``templates/``, in order (at most one past the cap)."""
    found: list[tuple[str, str]] = []
    for root, folders, names in os.walk(posixpath.join(directory, "templates")):
        folders.sort()
        found += [(root, name) for name in sorted(names) if name.endswith(_TEMPLATE_SUFFIXES)]
        if len(found) > _MAX_TEMPLATES:
            break
    return found


def _key_line(text: str, key: str) -> int:
    """The line of a JSON file where ``"key":`` is (the last one: JSON's last duplicate wins)."""
    index = text.rfind(json.dumps(key) + ":")
    if index < 0:
        index = text.rfind(json.dumps(key))
    return text.count("\n", 0, index) + 1 if index >= 0 else 1


def _included(word: str, cwd: str | None) -> list[str]:
    """The files an ``include`` word names (a glob is expanded in make's directory)."""
    if not any(char in word for char in "*?["):
        return [word]
    if cwd is None and not word.startswith("/"):
        return []
    pattern = word if word.startswith("/") else posixpath.join(cwd or "/", word)
    return sorted(glob.glob(pattern))[: MAX_FILES + 1]


def _judge_code(
    code: str, language: str, home: str, cwd: str | None, judge_shell: Callable[[str], Verdict | None]
) -> Verdict | None:
    """The interpreter rule's verdict on a window of a file's code (its whole-file form)."""
    from .danger import _critical
    from .tactics.impact import data_tree

    found = judge_code(
        code,
        awk=False,
        is_critical=lambda path: _critical(path, home, cwd),
        judge_shell=judge_shell,
        whole_file=True,
        is_data=lambda path: data_tree(path, home, cwd),
    )
    if found is None:
        return None
    piece = found.command.strip() or _finding_line(code, found.category, home, cwd, judge_shell)
    return Verdict(found.category, _short(piece), f"{found.why}, in {language} code")


def _finding_line(
    code: str, category: str, home: str, cwd: str | None, judge_shell: Callable[[str], Verdict | None]
) -> str:
    """The line of a window that gives the finding alone (``shutil.rmtree(...)``), else its first
    line (a finding made of several lines: a socket and a shell bound to it)."""
    from .danger import _critical
    from .tactics.impact import data_tree

    lines = [line.strip() for line in code.split("\n") if line.strip()]
    for line in lines:
        alone = judge_code(
            line,
            awk=False,
            is_critical=lambda path: _critical(path, home, cwd),
            judge_shell=judge_shell,
            whole_file=True,
            is_data=lambda path: data_tree(path, home, cwd),
        )
        if alone is not None and alone.category == category:
            return line
    return lines[0] if lines else ""


def _renamed(verdict: Verdict, piece: str) -> Verdict:
    """``verdict`` with another piece (and the reason made from it)."""
    return Verdict(verdict.category, piece, verdict.why, rule=verdict.rule, decision=verdict.decision)


def _redacted(verdict: Verdict | None, shown: str) -> Verdict | None:
    """``verdict`` on a file that holds secrets, naming the file only."""
    if verdict is None:
        return None
    why = "what it holds is not shown: the path guards hold it as a file of secrets"
    return Verdict(verdict.category, shown, why, rule=verdict.rule, decision=verdict.decision)


def _through(verdict: Verdict | None, shown: str) -> Verdict | None:
    """A verdict on a script run by the script ``shown``, named as reached through it."""
    if verdict is None or not shown:
        return verdict
    return _renamed(verdict, f"{shown} -> {verdict.piece}")


def _located(verdict: Verdict | None, shown: str, text: str) -> Verdict | None:
    """``verdict`` on the content of ``shown``, its piece prefixed with the file and line."""
    if verdict is None:
        return None
    located = _renamed(verdict, f"{shown}:{_line_in(text, verdict.piece)}: {verdict.piece}")
    return located.replace(rule=f"{verdict.rule or 'command guard'}, in the script file {shown}")


def _line_in(text: str, piece: str) -> int:
    """The line of ``text`` where ``piece`` (a verdict's excerpt) starts; 1 when not found."""
    needle = piece.rstrip("…").strip()[:40]
    index = text.find(needle) if needle else -1
    if index < 0 and " " in needle:
        index = text.find(needle.split()[0] + " ")
    return text.count("\n", 0, index) + 1 if index >= 0 else 1


def _windows(text: str) -> Iterator[tuple[int, str]]:
    """(first line number, text) of overlapping windows of lines: each line is in at most two."""
    lines = text.split("\n")
    for start in range(0, max(1, len(lines) - _WINDOW + _STEP), _STEP):
        yield start + 1, "\n".join(lines[start : start + _WINDOW])


_COMMAND_LINE = lazy_compile(r"^\s*[\w./~$-]+(?:\s|$)")
_PROCESS_CALL = (
    r"(?:system|popen|exec\w*|spawn\w*|run|call|check_output|check_call|Popen|getoutput|Command|"
    r"shell_exec|passthru|qx|%x)\s*[(\[{]*\s*[rbf]?[\"'`]"
)


_PYTHON_STATEMENT = lazy_compile(
    r"^(?:import\s+[\w.]+(?:\s*,\s*[\w.]+)*(?:\s+as\s+\w+)?\s*(?:;|$)|from\s+[\w.]+\s+import\s)"
)
"""``import sys; print(…)``: Python code handed to ``python -c``, not ImageMagick's ``import``."""


def _command_line(command: str, code: str) -> bool:
    """Whether a string a program hands to a process looks like a command line (one line,
    starting with a program), not a word of prose caught by the interpreter rule's patterns:
    a lone word (``"screenshot"``) counts only as the first argument of a process call; Python
    code (``"import sys; print(sys.version)"`` for ``python -c``) is not one."""
    command = command.strip()
    if "\n" in command or _COMMAND_LINE.match(command) is None or _PYTHON_STATEMENT.match(command):
        return False
    if " " in command or "/" in command:
        return True
    return re.search(_PROCESS_CALL + re.escape(command) + r"[\"'`\s]", code) is not None


def _candidates(run: _Run, home: str, origin: str | None) -> list[str]:
    """Where the script may be: against the working directory, else (inside a script whose
    ``cd`` could not be followed) the caller's directory and the script's own."""
    word = run.word
    if run.cwd is not None or word.startswith(("/", "~", "$HOME", "${HOME")):
        return [normalize_path(word, home=home, cwd=run.cwd)] if _absolute(word, home, run.cwd) else []
    places = []
    if origin is not None:
        places.append(posixpath.dirname(origin))
    return [normalize_path(word, home=home, cwd=place) for place in places]


def _absolute(word: str, home: str, cwd: str | None) -> bool:
    return normalize_path(word, home=home, cwd=cwd).startswith("/")


def _judge_shell_text(text: str, home: str, policy: Policy, *, lines_apart: bool = False) -> Verdict | None:
    """The command guard's verdict on a script's text (what parsed: no repairs of a script).
    ``lines_apart``: each line runs in a shell of its own (:func:`.programs.lines_run_apart`)."""
    if len(text) <= _CACHED:
        return _judge_shell_cached(text, home, policy, lines_apart)
    return _judge_shell_uncached(text, home, policy, lines_apart)


_CACHED = 1 << 16


@functools.lru_cache(maxsize=128)
def _judge_shell_cached(text: str, home: str, policy: Policy, lines_apart: bool) -> Verdict | None:
    # An agent runs the same test script again and again: its text is judged once.
    return _judge_shell_uncached(text, home, policy, lines_apart)


def _judge_shell_uncached(text: str, home: str, policy: Policy, lines_apart: bool) -> Verdict | None:
    from . import danger

    with using(policy), keeping_walks(), lines_run_apart() if lines_apart else contextlib.nullcontext():
        return danger.judge_script(parsed(text), home, policy)


def _judge_shell_reads(text: str, cwd: str | None, home: str) -> Verdict | None:
    """The path guard's verdict on the files a script's text names (:func:`.files.check_shell_files`)."""
    from . import files

    return files._judge_shell_files(text, cwd, home)


def _judge_osascript(text: str, language: str, policy: Policy) -> Verdict | None:
    from . import danger

    words = ["osascript", *(["-l", "JavaScript"] if language == "jxa" else []), "-e", text]
    return danger.check_command(shlex.join(words), policy=policy)


# -- the public check ------------------------------------------------------------------------


def script_run(invocation: Invocation) -> str | None:
    """The script or program ``invocation`` runs by path (``bash x.sh``, ``./configure``), as written."""
    run = _runs(invocation)
    return run.word if run is not None else None


def check_runs(
    runs: Sequence[_Run], *, home: str | None = None, policy: Policy | None = None
) -> Verdict | None:
    """A verdict on the files ``runs`` name (their ``cwd`` set: :mod:`.build_files`'s builds),
    judged by their content as :func:`check_script_files` judges a command's, or None."""
    home = home or normalize_path("~")
    policy = current_policy() if policy is None else policy
    judging = _Judging(home, policy)
    try:
        with deadline(), using(policy):
            found = judging.command(runs, 0, None)
    except BudgetExceeded as exc:
        found = judging.unjudged(
            runs[0].word if runs else "", f"judging the files it runs took too long ({exc})"
        )
    except RecursionError:
        found = judging.unjudged(runs[0].word if runs else "", "the files it runs nest too deeply to judge")
    return found or judging.asked


def check_script_files(
    command: str,
    *,
    cwd: str | None = None,
    home: str | None = None,
    policy: Policy | None = None,
    script: Script | None = None,
) -> Verdict | None:
    """A verdict on the scripts ``command`` runs from disk, judged by their content, or None.

    ``cwd`` is the directory the command runs in (relative script paths resolve
    against it; None: only absolute and ``~`` paths are read); ``script``: the
    command already parsed. The decision has a
    budget of its own (:mod:`.budget`); past it, a person is asked. Reads files:
    the answer holds for the files as they are now.
    """
    if not isinstance(command, str) or not command.strip():
        return None
    home = home or normalize_path("~")
    policy = current_policy() if policy is None else policy
    judging = _Judging(home, policy)
    try:
        with deadline(), using(policy):
            runs = _planned_text(command, cwd) if script is None else _planned(script, cwd)
            found = judging.command(runs, 0, None)
    except BudgetExceeded as exc:
        found = judging.unjudged(_short(command), f"judging the scripts it runs took too long ({exc})")
    except RecursionError:
        found = judging.unjudged(_short(command), "the scripts it runs nest too deeply to judge")
    return found or judging.asked


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:79] + "…"
