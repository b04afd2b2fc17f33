"""Which programs a parsed command line runs: wrappers resolved, nested code found.

:func:`walk` yields the pipelines of a :class:`~.parse.Script` as lists of
:class:`Invocation`, with wrappers (``sudo``, ``env``, ``nohup``, ``timeout``,
``xargs`` ...) resolved and nested scripts (``bash -c``, ``eval``, ``trap``,
substitutions, ``find -exec``, ``ssh host cmd``) visited as well, and ``cd DIR``
followed for the commands after it.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import posixpath
import re
import shlex
from collections.abc import Iterable, Iterator, Sequence

from ..frozen import Frozen
from ..lazy_regex import lazy_compile
from .budget import spend
from .carriers import PERHAPS, Perhaps, carried, confines, unknown_program
from .git_settings import READERS as GIT_ENVIRONMENT_READERS
from .git_settings import Exported
from .hidden_names import (
    empty_reading,
    has_positional_noise,
    names_the_shell,
    positional_only,
    prefix_reading,
    without_positional,
)
from .parse import (
    RUNTIME,
    WRITE_OPERATORS,
    Function,
    Redirect,
    Script,
    ShellSyntaxError,
    SimpleCommand,
    ansi_c,
    carries_runtime,
    parse,
)

__all__ = [
    "CONTAINER_RUNNERS",
    "ROOT_WRAPPERS",
    "SHELLS",
    "SSH_OPTIONS_WITH_VALUES",
    "SYSTEM_CONTAINER_RUNNERS",
    "Invocation",
    "Layer",
    "ShellMode",
    "find_narrowed",
    "find_selects",
    "is_root_user",
    "keeping_walks",
    "piping",
    "runs_as",
    "runtime_program",
    "script_operands",
    "shell_mode",
    "substituted",
    "walk",
    "wrapper_option",
    "written_text",
]

SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "rbash",
                    "busybox-sh", "pwsh-sh", "elvish"})  # fmt: skip
"""Programs that run shell code."""
_SHELL_VARIABLES = {"$SHELL": "sh", "${SHELL}": "sh", "$BASH": "bash", "${BASH}": "bash", "$0": "sh"}
"""Variables that name a shell: ``curl x | $SHELL`` runs a shell."""

_SHELL_DEFAULT = lazy_compile(r"^\$\{(?:SHELL|BASH)(?::?[-=+?][^}]*|##?[^}]{0,20})?\}$")
"""``${SHELL:-sh}``, ``${BASH}``, ``${SHELL##*/}`` (the shell's path cut to its name): a shell."""
MAX_NESTED = 8
"""How deep code handed to shells as strings (``bash -c "eval '...'"``) is followed."""
_ASSIGNMENT = lazy_compile(r"^[A-Za-z_][A-Za-z0-9_]*\+?=")


class Layer(Frozen):
    """One wrapper a program runs under, with the words it was given itself (``sudo -u dev``,
    ``flock -u /``): each wrapper's options are read against its own words, never another's."""

    __slots__ = ("args", "name")

    name: str
    args: tuple[str, ...]
    """The wrapper's own options and fixed operands, before the command it runs."""

    def __init__(self, name: str, args: tuple[str, ...] = ()) -> None:
        set_field = object.__setattr__
        set_field(self, "name", name)
        set_field(self, "args", args)


class Invocation(Frozen):
    """One program run: wrappers (``sudo``, ``env`` ...) resolved.

    ``name`` is the program's base name (``/bin/rm`` -> ``rm``), or ``""`` when
    it is computed at run time; ``args`` its arguments; ``layers`` the wrappers
    that ran it, outermost first, each with its own arguments (``wrappers`` their
    names); ``env`` the assignments before it.
    """

    __slots__ = ("_wrappers", "args", "command", "cwd", "dynamic", "env", "layers", "name")

    name: str
    args: tuple[str, ...]
    command: SimpleCommand
    layers: tuple[Layer, ...]
    env: tuple[str, ...]
    dynamic: bool
    cwd: str | None
    """The working directory it runs in, as far as ``cd`` earlier in the line tells (None: unknown)."""
    _wrappers: tuple[str, ...]

    def __init__(
        self,
        name: str,
        args: tuple[str, ...],
        command: SimpleCommand,
        layers: tuple[Layer, ...] = (),
        env: tuple[str, ...] = (),
        dynamic: bool = False,
        cwd: str | None = None,
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "name", name)
        set_field(self, "args", args)
        set_field(self, "command", command)
        set_field(self, "layers", layers)
        set_field(self, "env", env)
        set_field(self, "dynamic", dynamic)
        set_field(self, "cwd", cwd)
        set_field(self, "_wrappers", tuple([layer.name for layer in layers]))

    @property
    def wrappers(self) -> tuple[str, ...]:
        """The names of the wrappers that ran the program, outermost first."""
        return self._wrappers

    def options_of(self, wrapper: str) -> tuple[str, ...] | None:
        """The words the innermost ``wrapper`` was given (``strace -o FILE``), or None if none ran it."""
        for layer in reversed(self.layers):
            if layer.name == wrapper:
                return layer.args
        return None

    @property
    def text(self) -> str:
        """The simple command as written (for messages)."""
        return self.command.text


class ShellMode(Frozen):
    """How a shell invocation gets its code: a ``-c`` string, a script file, or stdin."""

    __slots__ = ("arguments", "file", "interactive", "privileged", "reads_stdin", "script")

    script: str | None
    file: str | None
    reads_stdin: bool
    interactive: bool
    privileged: bool
    """Started in privileged mode (``-p``, ``-o privileged``): a set-user-ID program's user is kept."""
    arguments: tuple[str, ...]
    """The words after a ``-c`` string, rendered: its ``$0``, ``$1`` ... (``sh -c 'rm "$1"' _ FILE``)."""

    def __init__(
        self,
        script: str | None,
        file: str | None,
        reads_stdin: bool,
        interactive: bool,
        privileged: bool = False,
        arguments: tuple[str, ...] = (),
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "script", script)
        set_field(self, "file", file)
        set_field(self, "reads_stdin", reads_stdin)
        set_field(self, "interactive", interactive)
        set_field(self, "privileged", privileged)
        set_field(self, "arguments", arguments)


# -- resolving wrappers and nested scripts ----------------------------------------------


class _Wrapper(Frozen):
    __slots__ = ("long_values", "positionals", "short_values")

    short_values: str
    long_values: frozenset[str]
    positionals: int

    def __init__(
        self, short_values: str = "", long_values: frozenset[str] = frozenset(), positionals: int = 0
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "short_values", short_values)
        set_field(self, "long_values", long_values)
        set_field(self, "positionals", positionals)


_WRAPPERS: dict[str, _Wrapper] = {
    "sudo": _Wrapper("ugCDhprtTU", frozenset({"--user", "--group", "--close-from", "--chdir", "--host",
                                              "--prompt", "--role", "--type", "--command-timeout",
                                              "--other-user"})),
    "doas": _Wrapper("uC"),
    "pkexec": _Wrapper("", frozenset({"--user"})),
    "run0": _Wrapper("ugD", frozenset({"--user", "--group", "--chdir", "--unit", "--property", "--setenv"})),
    "env": _Wrapper("uCP", frozenset({"--unset", "--chdir"})),
    "nohup": _Wrapper(),
    "nice": _Wrapper("n", frozenset({"--adjustment"})),
    "ionice": _Wrapper("cnpPuU", frozenset({"--class", "--classdata"})),
    "time": _Wrapper("fo", frozenset({"--format", "--output"})),
    "command": _Wrapper(),
    "builtin": _Wrapper(),
    "exec": _Wrapper("a"),
    "zapper": _Wrapper("a"),
    "timeout": _Wrapper("sk", frozenset({"--signal", "--kill-after"}), positionals=1),
    "xargs": _Wrapper("IdEaLnPs", frozenset({"--delimiter", "--eof", "--arg-file", "--max-lines",
                                            "--max-args", "--max-procs", "--max-chars",
                                            "--replace"})),
    "stdbuf": _Wrapper("ioe", frozenset({"--input", "--output", "--error"})),
    "setsid": _Wrapper(),
    "chronic": _Wrapper(),
    "unbuffer": _Wrapper(),
    "caffeinate": _Wrapper("tw"),
    "xcrun": _Wrapper("", frozenset({"-sdk", "--sdk", "-toolchain", "--toolchain", "-log", "--log"})),
    "strace": _Wrapper("abeEoOpPsSUuX"),
    "ltrace": _Wrapper("aenoOpsuXFAlw"),
    "chrt": _Wrapper("T", frozenset({"--sched-runtime", "--sched-period", "--sched-deadline"}),
                     positionals=1),
    "taskset": _Wrapper("", positionals=1),
    "numactl": _Wrapper("CNmpi", frozenset({"--cpunodebind", "--membind", "--physcpubind", "--preferred",
                                            "--interleave"})),
    "unshare": _Wrapper("S", frozenset({"--setuid", "--setgid", "--root", "--wd"})),
    "nsenter": _Wrapper("tSGwr", frozenset({"--target", "--setuid", "--setgid", "--wd", "--root"})),
    "prlimit": _Wrapper(""),
    "cgexec": _Wrapper("g"),
    "sg": _Wrapper("", positionals=1),
    "flock": _Wrapper("wEc", frozenset({"--timeout", "--conflict-exit-code", "--command"}), positionals=1),
    "chroot": _Wrapper("", frozenset({"--userspec", "--groups"}), positionals=1),
    "busybox": _Wrapper(),
    "toybox": _Wrapper(),
    "proxychains": _Wrapper("f"),
    "proxychains4": _Wrapper("f"),
    "torsocks": _Wrapper("uap"),
    "runuser": _Wrapper("ugG", frozenset({"--user", "--group", "--supp-group"})),
    "fakeroot": _Wrapper("ls"),
    "firejail": _Wrapper(),
    "systemd-run": _Wrapper("pEuM", frozenset({"--property", "--setenv", "--unit", "--uid"})),
    "setarch": _Wrapper("", frozenset({"--uname-2.6"})),  # its ARCH first, read in _resolve
    "linux32": _Wrapper(),
    "linux64": _Wrapper(),
    "rlwrap": _Wrapper("bCeFfHlOPpqSswz", frozenset({"--break-chars", "--command-name", "--file",
                                                     "--history-filename", "--logfile", "--prompt-colour"})),
    "cpulimit": _Wrapper("lpe", frozenset({"--limit", "--pid", "--exe"})),
    "aa-exec": _Wrapper("pn", frozenset({"--profile", "--namespace"})),
    "aoss": _Wrapper(),
    "choom": _Wrapper("np", frozenset({"--adjust", "--pid"})),
    "multitime": _Wrapper("fns"),
    "softlimit": _Wrapper("mdslaopfcrt"),
    "sshpass": _Wrapper("pfdP"),
    "ssh-agent": _Wrapper("aEtPO"),
    "torify": _Wrapper(),
    "valgrind": _Wrapper(),
    "grc": _Wrapper("c", frozenset({"--config"})),
    "logsave": _Wrapper("", positionals=1),
    "setlock": _Wrapper("", positionals=1),
    "distcc": _Wrapper(),
    "faketime": _Wrapper("mp", positionals=1),
    "catchsegv": _Wrapper(),
    "openvt": _Wrapper("c", frozenset({"--console", "--user"})),
    "xvfb-run": _Wrapper("efnpsw", frozenset({"--error-file", "--auth-file", "--server-num",
                                              "--xauth-protocol", "--server-args", "--wait"})),
    "dbus-run-session": _Wrapper("", frozenset({"--config-file", "--dbus-daemon"})),
    "setpriv": _Wrapper("", frozenset({"--reuid", "--regid", "--groups", "--inh-caps", "--ambient-caps",
                                       "--bounding-set", "--securebits", "--selinux-label",
                                       "--apparmor-profile", "--pdeathsig", "--landlock-access",
                                       "--landlock-rule"})),
    "proot": _Wrapper("rbmwqkv", frozenset({"--rootfs", "--bind", "--mount", "--cwd", "--qemu",
                                             "--kernel-release", "--verbose"})),
    **dict.fromkeys(("wine", "wine64", "mono", "qemu-x86_64", "qemu-i386", "qemu-aarch64", "qemu-arm",
                     "qemu-x86_64-static", "qemu-aarch64-static", "qemu-arm-static", "box64", "box86"),
                    _Wrapper()),
    **dict.fromkeys(("ld.so", "ld-linux.so.2", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
                     "ld-linux-armhf.so.3", "ld-musl-x86_64.so.1", "ld-musl-aarch64.so.1", "ld64.so.1",
                     "ld64.so.2"),
                    _Wrapper("", frozenset({"--library-path", "--inhibit-rpath", "--audit", "--preload",
                                            "--argv0", "--glibc-hwcaps-prepend", "--glibc-hwcaps-mask"}))),
}  # fmt: skip
"""Programs that run the rest of their arguments as a command, with the options
that take a value (so that the value is not mistaken for the command)."""

SSH_OPTIONS_WITH_VALUES = "BbcDEeFIiJLlmOopQRSWw"
"""ssh's one-letter options that take a value (what follows them in a cluster is that value)."""


_SCRIPT_LOGS = frozenset({"-I", "-O", "-B", "-T", "--log-in", "--log-out", "--log-io", "--log-timing"})
_SCRIPT_VALUES = _SCRIPT_LOGS | {"-c", "--command", "-E", "--echo", "-m", "--logging-format", "-o",
                                 "--output-limit", "-F"}  # fmt: skip


def script_operands(values: Sequence[str]) -> tuple[list[str], int]:
    """The files ``script`` writes (its log options' files, then the typescript: its first operand) and
    the index in *values* where the command it runs starts (``script -q /dev/null CMD …`` on BSD and
    macOS; util-linux takes it as ``-c CMD``), ``len(values)`` when none follows."""
    files: list[str] = []
    i = 0
    while i < len(values):
        value = values[i]
        option, equals, attached = value.partition("=")
        if value == "--":
            i += 1
            break
        if value.startswith("--") and equals:
            files += [attached] if option in _SCRIPT_LOGS else []
            i += 1
        elif value in _SCRIPT_VALUES or (value[:1] == "-" != value[1:2] and value[-1:] in "cEIOBTmoF"):
            flag = value if value in _SCRIPT_VALUES else "-" + value[-1]
            files += values[i + 1 : i + 2] if flag in _SCRIPT_LOGS else []
            i += 2
        elif value.startswith("-") and len(value) > 1:
            i += 1
        else:
            break
    if i < len(values):
        files.append(values[i])
        i += 1
    return files, min(i, len(values))


def _skip_options(words: Sequence[str], i: int, spec: _Wrapper) -> int:
    """Index of the first word after the options (and fixed positionals) of a wrapper."""
    n = len(words)
    while i < n:
        word = words[i]
        if word == "--":
            i += 1
            break
        if word.startswith("--") or word in spec.long_values:  # xcrun's -sdk NAME: a long option, one dash
            i += 2 if word in spec.long_values else 1
            continue
        if word.startswith("-") and len(word) > 1:
            i += 1
            for index, char in enumerate(word[1:], start=1):
                if char in spec.short_values:
                    if index == len(word) - 1:
                        i += 1  # the value is the next word
                    break
            continue
        break
    return min(i + spec.positionals, n)


_WINDOWS_PATH = lazy_compile(r"^[A-Za-z]:\\")
"""``C:\\Users\\me\\python.exe``: a Windows path, which Git Bash and MSYS run as it is."""
_WINDOWS_SUFFIX = lazy_compile(r"\.exe$", re.IGNORECASE)
"""``python.exe`` is ``python`` where Windows programs run (Git Bash, MSYS, WSL's interop)."""


def _basename(word: str) -> str:
    if _WINDOWS_PATH.match(word):
        word = word.replace("\\", "/")
    return posixpath.basename(word.rstrip("/")) if "/" in word else word


_PLAIN_NAME = lazy_compile(r"^[A-Za-z0-9._+-]+$")
_CASED_PROGRAMS = frozenset({"R", "Rscript", "PlistBuddy", "SetFile", "GetFileInfo"})
"""Programs whose names have capitals, judged under those names."""


def program_name(word: str) -> str:
    """The name of the program ``word`` runs: its base name, in lower case.

    macOS's file systems ignore case by default, so ``RM -rf ~`` runs ``rm`` and
    ``Python.app/Contents/MacOS/Python`` is ``python``; elsewhere a name in
    capitals is a program nobody installed, so judging it as its lower case
    costs nothing. A Windows program's ``.exe`` is dropped and a Windows path's backslashes
    separate directories, as Git Bash runs them: ``C:\\Python312\\python.exe`` is ``python``.
    """
    name = _basename(word)
    if name in _CASED_PROGRAMS or not _PLAIN_NAME.match(name):
        return name  # "$SHELL", "${BASH}": variables, not names
    return _WINDOWS_SUFFIX.sub("", name.lower()) or name.lower()


def shell_mode(invocation: Invocation) -> ShellMode:
    """How a shell (``bash``, ``sh`` ...) invocation gets the code it runs."""
    args = invocation.args
    command = invocation.command
    has_c = reads_stdin = interactive = privileged = False
    i = 0
    while i < len(args):
        word = args[i]
        if word in ("--", "-"):
            i += 1 if word == "--" else 0
            break
        if word.startswith("--"):
            i += 2 if word in ("--rcfile", "--init-file") else 1
            continue
        if word[:1] in "-+" and len(word) > 1:
            flags = word[1:]
            on = word[0] == "-"  # +p turns a flag off
            has_c = has_c or "c" in flags
            reads_stdin = reads_stdin or "s" in flags
            interactive = interactive or "i" in flags
            privileged = privileged or (on and "p" in flags)
            if flags[-1] in "oO":  # -o OPTION: set -o privileged, as a flag of the command line
                privileged = privileged or (on and i + 1 < len(args) and args[i + 1] == "privileged")
                i += 2
            else:
                i += 1
            continue
        break
    rest = args[i:]
    if has_c:
        script = command.render(rest[0]) if rest else ""
        arguments = tuple(command.render(word) for word in rest[1:])
        return ShellMode(script, None, False, interactive, privileged, arguments)
    if rest and not reads_stdin:
        file = rest[0]
        return ShellMode(None, file, file in ("-", "/dev/stdin"), interactive, privileged)
    return ShellMode(None, None, True, interactive, privileged)


def _resolve(command: SimpleCommand) -> tuple[Invocation | None, list[str]]:
    """The program a simple command runs, and shell code it hands on (``eval``, ``-c`` ...)."""
    if any(has_positional_noise(w) for w in (*command.words, *(r.target for r in command.redirects))):
        command = _positional_put_in(command)
    words = list(command.words)
    layers: list[Layer] = []
    env: list[str] = []
    nested: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if _ASSIGNMENT.match(word):
            env.append(word)
            i += 1
            continue
        static = command.static(word)
        name = program_name(static) if static is not None else ""
        if name == "env":
            i += 1
            options: list[str] = []
            while i < len(words):
                arg = words[i]
                if arg in ("-S", "--split-string") or arg.startswith(("-S", "--split-string=")):
                    split = arg.partition("=")[2] if arg.startswith("--") else arg[2:]
                    if not split:
                        i += 1
                        split = words[i] if i < len(words) else ""
                    rest = " ".join(shlex.quote(command.render(w)) for w in words[i + 1 :])
                    nested.append(f"{command.render(split)} {rest}")
                    return None, nested
                if _ASSIGNMENT.match(arg):
                    env.append(arg)
                    i += 1
                elif arg == "-":  # the same as -i
                    options.append(arg)
                    i += 1
                elif arg.startswith("-"):
                    end = _skip_options(words, i, _WRAPPERS["env"])
                    options.extend(words[i:end])
                    i = end
                else:
                    break
            layers.append(Layer("env", tuple(options)))
            continue
        if name == "coproc":
            # coproc [NAME] { CMD; } or coproc CMD: bash runs CMD as a coprocess (tree-sitter-bash
            # reads `{ CMD` as words and `}` as a command of its own).
            body = list(words[i + 1 :])
            readings = [body, body[2:] if body[1:2] == ["{"] else body[1:] if body[:1] == ["{"] else []]

            # `coproc echo x > ~/.bashrc`: the redirections are CMD's.
            def shown(word: str) -> str:  # a substitution stays one (`coproc x > $(echo ~/.bashrc)`)
                return command.render(word) if command.substitutions_in(word) else shlex.quote(word)

            redirects = [
                f"{r.fd}{r.op}{shown(r.target)}" for r in command.redirects if r.op not in ("<<", "<<<")
            ]
            nested.extend(" ".join([*(shown(w) for w in r), *redirects]) for r in readings if r)
            return None, nested
        if name == "command" and i + 1 < len(words) and words[i + 1] in ("-v", "-V"):
            return None, nested  # a lookup, not a run
        if name in ("su", "runuser", "flock", "sg") and (
            "-c" in words[i + 1 :] or "--command" in words[i + 1 :]
        ):
            after = words[i + 1 :]
            index = after.index("-c" if "-c" in after else "--command")
            if index + 1 < len(after):
                nested.append(command.render(after[index + 1]))
            return Invocation(name, tuple(after), command, tuple(layers), tuple(env)), nested
        if name == "script" and any(
            w in ("-c", "--command") or w.startswith(("-qc", "-c")) for w in words[i + 1 :]
        ):
            after = words[i + 1 :]
            for index, word in enumerate(after):  # script -qc 'CMD' /dev/null: CMD runs
                if (
                    word in ("-c", "--command") or (word.startswith("-") and word.endswith("c"))
                ) and index + 1 < len(after):
                    nested.append(command.render(after[index + 1]))
                    break
            return Invocation(name, tuple(after), command, tuple(layers), tuple(env)), nested
        if name == "script":
            after = words[i + 1 :]
            start = script_operands([command.static(w) or "" for w in after])[1]
            if start < len(after):  # script -q /dev/null CMD ARGS (BSD, macOS): CMD runs
                nested.append(" ".join(command.render(w) for w in after[start:]))
        if name in ("at", "batch", "newgrp"):
            # at now <<< 'CMD': at runs what it reads, later; newgrp docker <<< 'CMD' now, in the group.
            for redirect in command.redirects:
                if redirect.op == "<<<":
                    nested.append(command.render(redirect.target))
                elif redirect.op == "<<":
                    nested.extend(sub.text for sub in command.substitutions_in(redirect.target))
        if name == "alias":
            for word in words[i + 1 :]:
                if "=" in word:
                    nested.append(command.render(word.partition("=")[2]))  # alias ll='rm -rf ~'; ll
            return Invocation(name, tuple(words[i + 1 :]), command, tuple(layers), tuple(env)), nested
        if name == "watch":
            start = _skip_options(words, i + 1, _Wrapper("nq", frozenset({"--interval"})))
            nested.append(" ".join(command.render(w) for w in words[start:]))
            return None, nested
        if name == "ssh":
            ssh_options = _Wrapper(SSH_OPTIONS_WITH_VALUES)
            host = _skip_options(words, i + 1, ssh_options)
            start = min(host + 1, len(words))
            if words[host - 1 : host] != ["--"]:  # ssh HOST -i KEY CMD: OpenSSH reads options again
                start = _skip_options(words, start, ssh_options)
            if start < len(words):
                nested.append(" ".join(command.render(w) for w in words[start:]))
            invocation = Invocation(name, tuple(words[i + 1 :]), command, tuple(layers), tuple(env))
            nested.extend(_carried(invocation))
            return invocation, nested
        if (
            static is not None
            and (_UNKNOWN_VARIABLE.match(static) or positional_only(static))
            and static not in _SHELL_VARIABLES
            and not names_the_shell(static)
            and i + 1 < len(words)
            and _BARE_PROGRAM.match(command.static(words[i + 1]) or "")
        ):
            # $SUDO rm -rf /: a variable the line does not set, before a program name, is a wrapper
            # (sudo, env …) or nothing (unquoted and empty, the word vanishes): the program runs;
            # so is ${*} base64 -d (a command line has no arguments).
            layers.append(Layer(static))
            i += 1
            continue
        spec = _WRAPPERS.get(name)
        if spec is not None and i + 1 < len(words):
            start = i + 1
            if name == "setarch" and not words[start].startswith("-"):
                start += 1  # setarch ARCH [OPTIONS] CMD; setarch -R CMD: ARCH may be left out
            end = _skip_options(words, start, spec)
            layers.append(Layer(name, tuple(words[i + 1 : end])))
            i = end
            continue
        break
    if i >= len(words):
        if layers and layers[-1].name != "env":
            # sudo -s, chroot /mnt, nsenter -t 1 -a: the wrapper runs a shell of its own.
            own = Invocation(layers[-1].name, layers[-1].args, command, tuple(layers[:-1]), tuple(env))
            return own, nested
        if env or (command.redirects and not words):
            # "> /dev/sda" or "HISTFILE=/dev/null" alone: no program, but the shell still acts.
            return Invocation("", (), command, tuple(layers), tuple(env)), nested
        if layers and layers[-1].name == "xargs":
            # xargs -a FILE with no command runs echo: FILE's words are printed.
            return Invocation("echo", (), command, tuple(layers), tuple(env)), nested
        return None, nested
    head = words[i]
    static = command.static(head)
    name = program_name(static) if static is not None else _fixed_name(head)
    name = _SHELL_VARIABLES.get(name, name)
    if static is not None and (_SHELL_DEFAULT.match(static) or names_the_shell(static)):
        name = "sh"  # ${SHELL:-sh}: a shell, whichever; ${0##-}: the shell running the line
    args = tuple(words[i + 1 :])
    if command.substitutions and args:
        # cat `xxd -r -p <<< 2f65…`: the argument as it decodes (one word, and split when unquoted)
        nested.extend(_decoded_arguments(command, words[i:]))
    prefixed = prefix_reading(name) if static is not None else None
    if prefixed is not None:
        # ${QZ}nc -${QZ}e /bin/sh: the program after an unknown prefix, its values read as empty everywhere
        nested.append(_emptied(command, words[i:], name, prefixed))
        name = prefixed
    spelled = empty_reading(name) if static is not None else None
    if spelled is not None:
        # c${u}a${u}t F: the unknown values between the letters read as empty, as the payload means them
        nested.append(_emptied(command, words[i:], name, spelled))
    if static is not None and " " in static.strip() and command.substitutions_in(head):
        # "/opt/my tools/rm" (quoted, or with an escaped space) is one word: that program. An unquoted
        # variable was split by the parser; the output of a substitution is one word when quoted,
        # several when not ($(echo rm -rf) /), and the words no longer say which: the one-word
        # reading is the invocation, and the split reading is judged too, as nested code.
        split_reading = (*static.split(), *(command.render(a) for a in args))
        nested.append(" ".join(map(shlex.quote, split_reading)))
    if runtime_program(command, head) is not None:
        static, name = None, ""  # read x; $x: a program the guard cannot know (tactics.unseen)
    elif static is not None and name == static and _DEFAULT_VALUE.match(static):
        # ${RUN:-rm} -rf ~: a variable the line does not set is the program; its default is a reading.
        default = _DEFAULT_VALUE.match(static)
        if default is not None and default.group(1).strip():
            nested.append(" ".join([default.group(1), *(shlex.quote(command.render(a)) for a in args)]))
    invocation = Invocation(
        name,
        args,
        command,
        tuple(layers),
        tuple(env),
        dynamic=static is None,
    )
    nested.extend(_carried(invocation))
    if static is not None and _runs_as_node(static, env, [command.static(a) for a in args]):
        # ELECTRON_RUN_AS_NODE=1 Slack.app/Contents/MacOS/Slack -e CODE: an Electron app is Node.
        nested.append(" ".join(["node", *(shlex.quote(command.render(a)) for a in args)]))
    if name == "eval" and args:
        code = args[1:] if args[0] == "--" else args  # `eval -- CODE`: the end of (no) options
        nested.append(" ".join(command.render(w) for w in code))
    elif name in ("mapfile", "readarray", "complete", "compgen"):
        # mapfile -C CODE: CODE runs every -c lines; complete -C CODE NAME: when NAME is completed.
        nested.extend(_callbacks(command, args))
    elif name == "history" and args[:1] == ("-s",):
        nested.append(" ".join(command.render(w) for w in args[1:]))  # history -s CMD; fc -s runs CMD
    elif name == "bind":
        nested.extend(_key_bindings(command, args))  # bind -x '"\C-a": CODE': CODE runs on the key
    elif name == "trap" and args and not args[0].startswith("-"):
        nested.append(command.render(args[0]))  # trap 'CODE' EXIT: the code runs later
    elif name in ("source", ".") and [command.static(a) for a in args[:1]] in ([], ["/dev/stdin"], ["-"]):
        nested.extend(_fed(command))  # . /dev/stdin <<< 'CODE'
    elif name in SHELLS:
        # BASH_ENV=FILE bash -c … (ENV=FILE sh -i): the shell sources FILE first.
        for assignment in env:
            variable, _, value = assignment.partition("=")
            if variable in ("BASH_ENV", "ENV") and value:
                nested.append(f"source {shlex.quote(command.render(value))}")
        mode = shell_mode(invocation)
        if mode.script:
            nested.append(mode.script)
            if mode.arguments:  # find ~ -exec sh -c 'openssl enc -in "$1" …' _ {} ;: the code on ~'s files
                nested.extend(_with_arguments(mode.script, mode.arguments))
        for redirect in command.redirects:
            if redirect.op == "<<<":
                nested.append(command.render(redirect.target))
            elif redirect.op == "<<":
                nested.extend(sub.text for sub in command.substitutions_in(redirect.target))
    return invocation, nested


_NODE_CODE_FLAGS = frozenset({"-e", "--eval", "-p", "--print"})


def _positional_put_in(command: SimpleCommand) -> SimpleCommand:
    """``command`` with its positional parameters put in (nothing: a command line has no
    arguments), when a word holds them as noise (``r$@m``, ``"${@/f}" $BASH``); a word left empty goes."""
    words = tuple(w for w in (without_positional(w) for w in command.words) if w)
    redirects = tuple(
        Redirect(r.op, without_positional(r.target), r.fd) if has_positional_noise(r.target) else r
        for r in command.redirects
    )
    return SimpleCommand(words, redirects, command.substitutions, command.background)


def _decoded_arguments(command: SimpleCommand, words: Sequence[str]) -> list[str]:
    """The command line ``words`` run with the arguments it decodes put in (``rm -rf $(echo L2hvbWU= |
    base64 -d)`` is ``rm -rf /home``), when one does: a path spelled in hex or base64 is still that path.

    A decoded value with blanks is one word when the substitution is quoted and several when not
    (``rm `xxd -r -p <<< 2d7266…``` is ``rm -rf /home/dev``); the words no longer say which, so
    both readings are given."""
    from .danger import decoded_output  # here: danger imports this module

    found = False
    blank = False

    def shown(word: str, split: bool) -> str:
        nonlocal found, blank
        subs = command.substitutions_in(word)
        if not subs or len(subs) > _PATH_PARTS:
            return command.render(word) if subs else shlex.quote(word)
        values = [decoded_output(sub.script) if sub.kind in ("$(", "`") else None for sub in subs]
        if any(v is None for v in values):
            return command.render(word)
        found = True
        value = command.put_in(word, [v or "" for v in values])
        blank = blank or any(c.isspace() for c in value.strip())
        return " ".join(map(shlex.quote, value.split())) if split else shlex.quote(value)

    text = " ".join(shown(w, False) for w in words)
    if not found:
        return []
    return [text, " ".join(shown(w, True) for w in words)] if blank else [text]


_PATH_PARTS = 4
"""The most substitutions a decoded argument may have (each is decoded)."""


def _emptied(command: SimpleCommand, words: Sequence[str], name: str, spelled: str) -> str:
    """The command line ``words`` run, read with the unknown values of the program's name ``name``
    empty wherever they stand (``${u}r${u}m -${u}rf ~`` is ``rm -rf ~``)."""
    values = set(_NAME_VALUES.findall(name))
    pattern = re.compile("|".join(re.escape(v) for v in sorted(values, key=len, reverse=True)))

    def shown(word: str) -> str:
        word = pattern.sub("", word)
        return command.render(word) if command.substitutions_in(word) else shlex.quote(word)

    redirects = [f"{r.fd}{r.op}{shown(r.target)}" for r in command.redirects if r.op != "<<"]
    return " ".join([shlex.quote(spelled), *(shown(w) for w in words[1:]), *redirects])


_NAME_VALUES = lazy_compile(r"\$(?:\{[^}]{0,200}\}|[A-Za-z_][A-Za-z0-9_]*)")


def _runs_as_node(program: str, env: list[str], args: list[str | None]) -> bool:
    """Whether an app runs its arguments as Node does: an Electron app with ``ELECTRON_RUN_AS_NODE``
    set, or an app bundle's executable given code (``-e``), which it runs when the variable is exported."""
    if any(a.startswith("ELECTRON_RUN_AS_NODE=") for a in env):
        return True
    return ".app/Contents/MacOS/" in program and bool(_NODE_CODE_FLAGS & set(filter(None, args)))


def _callbacks(command: SimpleCommand, args: tuple[str, ...]) -> list[str]:
    """The code ``mapfile``/``readarray`` is given to run as a callback (``-C CODE``, ``-CCODE``)."""
    found: list[str] = []
    for index, word in enumerate(args):
        if word == "-C" and index + 1 < len(args):
            found.append(command.render(args[index + 1]))
        elif word.startswith("-C") and len(word) > 2:
            found.append(command.render(word[2:]))
    return found


_UNKNOWN_VARIABLE = lazy_compile(
    r"^\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*(?::?[-=+?][^}]*)?\})$"
)
"""A program word that is one variable the line does not set (``$SUDO``, ``${RUN:-rm}``)."""
_DEFAULT_VALUE = lazy_compile(r"^\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=]([^}]*)\}$")
_BARE_PROGRAM = lazy_compile(r"^[A-Za-z_][\w.+-]*$")
"""A program named on its own (``rm``, ``apt-get``): no path, no option, no file."""


def runtime_program(command: SimpleCommand, head: str) -> str | None:
    """The variable made at run time (``$x`` after ``read x``) that names the program ``head`` runs.

    The name starts with the value: ``$x``, ``"${a[@]}"``, ``/usr/bin/$x``; not ``echo_$x`` or
    ``$dir/run.sh``, whose program is known but for a prefix or a directory.
    """
    leaf = head.rpartition("/")[2]
    subs = command.substitutions_in(leaf)
    found = [sub.text for sub in subs if sub.kind == RUNTIME]
    if found and command.render(leaf).startswith(found[0]):
        return found[0]
    if subs and carries_runtime(subs[0]) and command.render(leaf).startswith(f"{subs[0].kind}{subs[0].text}"):
        return command.render(leaf)  # $(echo "$c"): the value of $c, made at run time
    return None


def _key_bindings(command: SimpleCommand, args: tuple[str, ...]) -> list[str]:
    """The code ``bind -x 'KEYS: CODE'`` runs when the keys are pressed."""
    found: list[str] = []
    for index, word in enumerate(args[:-1]):
        if word == "-x" or (word.startswith("-") and word.endswith("x") and not word.startswith("--")):
            code = command.render(args[index + 1]).partition(":")[2].strip()
            if len(code) > 1 and code[0] == code[-1] and code[0] in "\"'":
                code = code[1:-1]
            found.append(code)
    return found


def _fed(command: SimpleCommand) -> list[str]:
    """The texts a command reads from here-strings and here-documents."""
    texts: list[str] = []
    for redirect in command.redirects:
        if redirect.op == "<<<":
            texts.append(command.static(redirect.target) or "")
        elif redirect.op == "<<":
            texts.extend(sub.text for sub in command.substitutions_in(redirect.target))
    return texts


def _carried(invocation: Invocation) -> list[str]:
    """Shell code the program runs from an option, a line of its own language or the environment."""
    command = invocation.command
    if invocation.name in CONTAINER_RUNNERS:  # docker run -v "$(pwd)":/src IMG CMD: each word keeps its place
        values = _container_values(invocation)
    else:
        values = [v for v in (command.static(w) for w in invocation.args) if v is not None]
    env = [v for v in (command.static(w) for w in invocation.env) if v is not None]
    return carried(invocation.name, values, _fed(command), env)


_NAME_TESTS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex",
                         "-iregex", "-lname", "-ilname", "-samefile", "-inum", "-newer"})  # fmt: skip
_MATCHES_ALL = lazy_compile(r"^[*?]*(?:\.[*?]*)?$|^(?=.*\*)[*?./]*$")
"""A name pattern every file (or nearly) has: only wildcards, dots and slashes (``*``, ``*.*``, ``.*``,
``*/*``, ``./*``). A literal character narrows it: ``*.got.*`` and ``*test*`` pick some files (gitleaks'
Makefile deletes its ``*.got.*`` test outputs with ``find . -name '*.got.*' -delete``)."""


def find_narrowed(args: Sequence[str]) -> str | None:
    """The name find's tests pick files by, when not every file has it (``-name '*.pyc'``)."""
    for index, value in enumerate(args[:-1]):
        if value in _NAME_TESTS and not _MATCHES_ALL.match(args[index + 1]):
            return args[index + 1]
    return None


_SELECTING_TESTS = frozenset({
    "-executable", "-readable", "-writable", "-perm", "-empty", "-size", "-user", "-uid", "-group", "-gid",
    "-nouser", "-nogroup", "-links", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newermt",
    "-newerct", "-newerat", "-used", "-fstype", "-xtype", "-context",
})  # fmt: skip
"""find's tests that pick some files by what they are (not ``-type``, ``-maxdepth``, ``-mindepth``:
a directory's every regular file, or everything below a depth, is still all of it)."""


def find_selects(args: Sequence[str]) -> bool:
    """Whether find's tests pick only some of the files under its starting points: a name that not
    every file has, or a property (``-executable``, ``-mtime +7``, ``-empty``), not negated. What
    ``find . -type f -executable -delete`` and ``find . -type f -executable | xargs rm -f`` delete
    is the same, and judged the same."""
    if find_narrowed(args) is not None:
        return True
    return any(
        value in _SELECTING_TESTS and not (index and args[index - 1] in ("!", "-not"))
        for index, value in enumerate(args)
    )


_PER_FILE_RECURSIVE = frozenset({"chmod", "chown", "chgrp", "setfacl", "chattr", "chcon"})
"""Programs that find's ``-exec`` applies to every file: the same as their recursive option."""
_PER_FILE_SEARCHES = frozenset({"grep", "egrep", "fgrep", "zgrep"})
"""Searches that find's ``-exec`` runs on every file of a kind: a recursive search of the starting points."""


def _confined(invocation: Invocation) -> str | None:
    """How the code ``invocation`` hands on is kept to a container (:func:`.carriers.confines`); a word
    made at run time is read as written (``-v "$(pwd)":/src`` is the working directory; ``-v "$X":/h``
    may mount anything: not kept)."""
    if invocation.name in SYSTEM_CONTAINER_RUNNERS:
        return "exec"  # lxc exec NAME -- CMD: a container made earlier, its devices not on the line
    if invocation.name not in CONTAINER_RUNNERS:
        return None
    return confines(invocation.name, _container_values(invocation))


def _container_values(invocation: Invocation) -> list[str]:
    """A container runner's arguments, each in its place: one made at run time as written."""
    command = invocation.command
    return [command.render(w) if (v := command.static(w)) is None else v for w in invocation.args]


CONTAINER_RUNNERS = frozenset({"docker", "podman", "nerdctl", "kubectl", "oc"})
"""Programs that run a command in a container: the wrapper of what they run (see :mod:`.containers`)."""
SYSTEM_CONTAINER_RUNNERS = frozenset({"lxc", "incus"})
"""LXD's and Incus's clients: ``lxc exec NAME -- CMD`` runs in a system container made earlier."""


def _find_exec(invocation: Invocation) -> list[SimpleCommand]:
    """The commands ``find ... -exec CMD {} ;`` runs."""
    found: list[SimpleCommand] = []
    args = invocation.args
    starts: list[str] = []
    for arg in args:
        if arg.startswith(("-", "(", "!", ")")):
            break
        starts.append(arg)
    i = 0
    while i < len(args):
        if args[i] in ("-exec", "-execdir", "-ok", "-okdir"):
            end = i + 1
            while end < len(args) and args[end] not in (";", "+"):
                end += 1
            # {} stands for each file found: the starting points (find / -exec chmod 777 {}), or,
            # when a name test narrows the search, a file of that name under them.
            found_files = starts or ["."]
            name = find_narrowed(args)
            run = args[i + 1 : end]
            globbed = name is None or any(c in name for c in "*?[")
            if run and _basename(run[0]) in _PER_FILE_SEARCHES and globbed:
                # find / -name '*.conf' -exec grep password {} ;: every file of a kind under the starting
                # points searched, as grep -r searches them (a name glob narrows the kind, not the places)
                searched = tuple(w for word in run[1:] for w in (found_files if word == "{}" else [word]))
                found.append(SimpleCommand((run[0], "-r", *searched), (), invocation.command.substitutions))
                i = end + 1
                continue
            if name is not None:
                leaf = name if not any(c in name for c in "*?[") else "x"
                found_files = [f"{start.rstrip('/')}/{leaf}" for start in found_files]
            words = tuple(w for word in args[i + 1 : end] for w in (found_files if word == "{}" else [word]))
            if name is None and words and _basename(words[0]) in _PER_FILE_RECURSIVE:
                words = (words[0], "-R", *words[1:])  # find / -exec chown x {} +: every file, as chown -R
            if words:
                found.append(SimpleCommand(tuple(words), (), invocation.command.substitutions))
            i = end
        i += 1
    return found


_PLAIN_PROGRAM = lazy_compile(r"^[\w./+-]+$")
"""A renamed command that is one plain program (``alias g=git``), not a line of code."""


def _note_renames(invocation: Invocation, renamed: dict[str, str]) -> None:
    """``alias NAME=CODE`` and ``hash -p PATH NAME``: NAME runs CODE (or PATH) from now on."""
    command = invocation.command
    values = [command.static(word) for word in invocation.args]
    if invocation.name == "alias":
        for value in values:
            name, equals, code = (value or "").partition("=")
            if equals and name:
                renamed[name] = code
    elif invocation.name == "hash" and "-p" in values:
        index = values.index("-p")
        path, names = values[index + 1 : index + 2], values[index + 2 :]
        for hashed in names:
            if path and path[0] is not None and hashed is not None:
                renamed[hashed] = path[0] if _PLAIN_PROGRAM.match(path[0]) else shlex.quote(path[0])


def _lone_cd(stages: list[Invocation]) -> bool:
    return len(stages) == 1 and stages[0].name in ("cd", "pushd")


_PAYLOAD_DIRS = ("/dev/shm", "/run/shm", "/var/run", "/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp")
"""Where droppers try to land, riskiest first: memory and run-time directories, then world-writable ones."""


def _risk(directory: str | None) -> int:
    """How early :data:`_PAYLOAD_DIRS` names where ``directory`` is (their number when it names none)."""
    if directory is not None:
        for rank, place in enumerate(_PAYLOAD_DIRS):
            if (directory.rstrip("/") + "/").startswith(place + "/"):
                return rank
    return len(_PAYLOAD_DIRS)


def _changed_directory(stages: list[Invocation], cwd: str | None) -> str | None:
    """The working directory after a pipeline: ``cd DIR`` alone changes it."""
    if len(stages) != 1 or stages[0].name not in ("cd", "pushd"):
        return cwd
    cd = stages[0]
    targets = [cd.command.static(a) for a in cd.args if not a.startswith("-") or a == "-"]
    if not targets:
        return "~"
    target = targets[0]
    if target is None or target == "-":
        return None
    if target.startswith(("/", "~", "$HOME", "${HOME")):
        return target
    return f"{cwd.rstrip('/')}/{target}" if cwd else None


_SHELL_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh", ".command")
_CODE_SUFFIXES = {
    ".py": ("python3", "-c"), ".pl": ("perl", "-e"), ".rb": ("ruby", "-e"), ".js": ("node", "-e"),
    ".mjs": ("node", "-e"), ".cjs": ("node", "-e"), ".ts": ("deno", "eval"), ".php": ("php", "-r"),
    ".lua": ("lua", "-e"), ".tcl": ("tclsh", "-c"), ".r": ("Rscript", "-e"), ".jl": ("julia", "-e"),
    ".ps1": ("pwsh", "-c"), ".go": ("go", "-e"), ".awk": ("awk", "--"), ".exp": ("expect", "-c"),
    ".groovy": ("groovy", "-e"), ".scala": ("scala", "-e"), ".nse": ("lua", "-e"),
    ".applescript": ("osascript", "-e"), ".scpt": ("osascript", "-e"), ".osa": ("osascript", "-e"),
}  # fmt: skip
"""A script's suffix, and the command line that runs its code inline (``.go``: judged as code)."""


_WRITERS = frozenset({"echo", "printf", "cat"})
"""Programs whose output :func:`written_text` knows."""


_piped: contextvars.ContextVar[tuple[Invocation, str] | None] = contextvars.ContextVar(
    "agentbus_piped", default=None
)


@contextlib.contextmanager
def piping(invocation: Invocation, text: str | None) -> Iterator[None]:
    """While judging ``invocation`` (a ``tee``), ``text`` is what the stage before it writes into it
    (``echo TEXT | sudo tee FILE``): :func:`written_text` gives it as what tee writes, as for ``>``."""
    token = _piped.set((invocation, text) if text is not None else None)
    try:
        yield
    finally:
        _piped.reset(token)


def written_text(invocation: Invocation) -> str | None:
    """What ``echo TEXT``, ``printf TEXT`` or ``cat <<EOF`` writes, when it is known; what ``tee`` writes:
    its here-document, or the text piped into it (:func:`piping`)."""
    command = invocation.command
    if invocation.name == "tee":
        piped = _piped.get()
        fed = "\n".join(_fed(command)) or (piped[1] if piped and piped[0] is invocation else "")
        return fed or None
    values = [command.static(w) for w in invocation.args]
    if any(v is None for v in values):
        return None
    words = [v for v in values if v is not None]
    if invocation.name == "cat" and all(word in ("-", "--") for word in words):  # cat - <<EOF: stdin
        texts = [command.static(r.target) or "" for r in command.redirects if r.op == "<<<"]
        texts += [
            s.text for r in command.redirects if r.op == "<<" for s in command.substitutions_in(r.target)
        ]
        return "\n".join(texts) or None
    if invocation.name == "printf" and words[:1] == ["--"]:
        words = words[1:]  # printf -- '-e sh x': the template after the end of options
    if invocation.name == "printf" and words:
        template = words[0]
        if "%" not in template:
            return ansi_c(template)  # printf '\x72\x6d' is rm
        if template.replace("%s", "") not in ("", "\\n"):
            return None
        # printf '%s\\n' '#!/bin/sh' 'CMD': the template is used again for each argument, one per line
        return ("\n" if template.endswith("\\n") else "").join(words[1:])
    if invocation.name == "echo":
        text = " ".join(w for w in words if w not in ("-n", "-e", "-E", "-ne", "-en"))
        return ansi_c(text) if words and words[0] in ("-e", "-ne", "-en") else text
    return None


_KEEPS_WRITTEN = frozenset({"chmod", "chown", "chgrp", "touch", "ls", "stat", "file", "test", "["})
"""Programs that change or look at a written script without running it (``chmod +x x.sh``): the script
is judged there (written and made executable: a program to be), and kept for where it runs next
(``sudo scp -S x.sh``: as root). Each script is judged at most twice, whatever the line repeats."""
_KEPT = "\0kept\0"
"""The key prefix under which ``written`` remembers a script one of them has judged."""


def _run_written(
    invocation: Invocation, written: dict[str, str], cwd: str | None, depth: int, piped: str | None = None
) -> Iterator[list[Invocation]]:
    """``echo CODE > x.go && go run x.go``: a script written earlier in the line, judged where it runs
    (``sudo neofetch --config FILE``: as root, when the program it is handed to runs as root)."""
    command = invocation.command
    if invocation.name in ("echo", "printf", "cat"):
        targets = [command.static(r.target) for r in command.redirects if r.op in WRITE_OPERATORS]
        text = written_text(invocation) if any(targets) else None
        for target in targets:
            if target and text:
                written[posixpath.normpath(target)] = text
        later = next((t for t in targets if t and text and RUN_LATER.match(t)), None)
        if later is not None and text is not None:
            yield from _run_later(invocation, text, later, cwd, depth)
        elif text:
            yield from _units_written(invocation, text, targets, cwd, depth)
        return
    if invocation.name == "tee":
        # tee FILE <<'EOF' … EOF, printf CODE | tee FILE: what tee reads is what it writes to FILE
        text = "\n".join(_fed(command)) or piped
        files = [command.static(a) for a in invocation.args]
        for target in files:
            if target and text and not target.startswith("-"):
                written[posixpath.normpath(target)] = text
        later = next((t for t in files if t and text and RUN_LATER.match(t)), None)
        if later is not None and text:
            yield from _run_later(invocation, text, later, cwd, depth)
        elif text:
            yield from _units_written(invocation, text, files, cwd, depth)
        return
    if invocation.name == "sed":
        yield from _sed_added(invocation, cwd, depth)
    if piped is not None and (_reads_commands(invocation) or _shell_reading_input(invocation)):
        yield from _run_later(invocation, piped, "", cwd, depth)
    if not written:
        return
    keeps = invocation.name in _KEEPS_WRITTEN
    runs = [command.static(w) for w in (*command.words[:1], *invocation.args)]
    runs += [v.partition("=")[2] for v in runs if v and v.startswith("-") and "=" in v]  # --script=x.nse
    for value in runs:
        key = posixpath.normpath(value) if value else ""
        if keeps:
            if not key or _KEPT + key in written:
                continue
            text = written.get(key)
            if text is not None:
                written[_KEPT + key] = ""
        else:
            # Popped: a script run many times is judged once (linear in the line, whatever it repeats).
            text = written.pop(key, None) if key else None
        if text is None or value is None:
            continue
        suffix = posixpath.splitext(value)[1].lower()
        if suffix in _CODE_SUFFIXES:
            program, flag = _CODE_SUFFIXES[suffix]
            inline = SimpleCommand((program, flag, text), (), ())
            resolved, _ = _resolve(inline)
            if resolved is not None:
                yield [_under(invocation, resolved.replace(cwd=cwd))]
            continue
        try:
            inner = parse_nested(text)
        except ShellSyntaxError:
            continue
        for stages in _walk(inner, cwd=cwd, _depth=depth + 1):
            yield [_under(invocation, stage) for stage in stages]


RUN_LATER = lazy_compile(
    r"^(?:/usr(?:/local)?/s?bin|/s?bin|/opt/[^/]+/s?bin|(?:~|/home/[^/]+|/root)/(?:bin|\.local/bin))/[^/]+$"
    r"|^(?:/|~/)(?:[^/]+/)*[^/]+\.(?:sh|bash|py|pl|rb|php|js|mjs|cjs|lua)$"
    r"|^/(?:opt|srv)/(?:[^/]+/)+[^/]+$"
)
"""Where a script written is run later by someone else, by name: a directory of programs (a cron job
or a setuid program calling ``ifconfig`` finds it there), a script outside the project (a root job's
``backup.sh``, the ``example.py`` a sudo rule runs, a module a root script imports: ``/tmp/random.py``,
``/usr/lib/python3/random.py``; a PHP plug-in a root ``wp`` loads), or an installed program's file under
``/opt`` or ``/srv`` (its service's worker). Relative paths are the project's: written there, nothing
runs them yet. A code file is judged by its suffix's interpreter (:data:`_CODE_SUFFIXES`)."""


_UNIT_EXEC = lazy_compile(r"^[ \t]*Exec[A-Za-z]*[ \t]*=[ \t]*[-@:+!]*(.+)$", re.MULTILINE)
"""A systemd unit's command lines (``ExecStart=``, ``ExecStartPre=-/bin/sh -c ...``), prefixes dropped."""


def _units_written(
    invocation: Invocation, text: str, targets: Sequence[str | None], cwd: str | None, depth: int
) -> Iterator[list[Invocation]]:
    """The commands of a systemd unit (or drop-in) written by ``echo``, ``printf``, ``cat`` or ``tee``."""
    from .locations import location

    for target in targets:
        if target and "systemd" in target and "Exec" in text and (place := location(target)) is not None:
            yield from _unit_commands(invocation, text, place[0], cwd, depth)
            return


def _unit_commands(
    invocation: Invocation, text: str, category: str, cwd: str | None, depth: int
) -> Iterator[list[Invocation]]:
    """``printf '[Service]\\nExecStart=/bin/sh -c "curl x | sh"' > ~/.config/systemd/user/x.service``:
    the commands a unit written (a service or a timer's) will run, judged as if run now."""
    from .verdict import SCHEDULED, SERVICE

    if category not in (SERVICE, SCHEDULED):
        return
    for line in _UNIT_EXEC.finditer(text):
        try:
            inner = parse_nested(line.group(1))
        except ShellSyntaxError:
            continue
        for stages in _walk(inner, cwd=cwd, _depth=depth + 1):
            yield [_under(invocation, stage) for stage in stages]


_SED_ADDS = lazy_compile(r"^\s*(?:(?:\$|\d+|/[^/]*/)\s*)?[aic]\\?\s*(\S.*)$", re.DOTALL)
"""sed's append, insert and change commands (``$a TEXT``, ``1i\\ TEXT``): the text they add."""


def _sed_added(invocation: Invocation, cwd: str | None, depth: int) -> Iterator[list[Invocation]]:
    """``sed -i '$a chmod u+s /bin/bash' /usr/local/sbin/cleanup``: a line added in place to a script run
    later (:data:`RUN_LATER`), judged as a write of it is."""
    values = [invocation.command.static(w) for w in invocation.args]
    if not any(v is not None and (v.startswith("-i") or v.startswith("--in-place")) for v in values):
        return
    scripts: list[str] = []
    operands: list[str] = []
    expecting = False
    for value in values:
        if value is None:
            return
        if expecting:
            scripts.append(value)
            expecting = False
        elif value in ("-e", "--expression"):
            expecting = True
        elif value.startswith("--expression="):
            scripts.append(value.partition("=")[2])
        elif not value.startswith("-"):
            operands.append(value)
    if not scripts and operands:
        scripts.append(operands.pop(0))
    added = [m.group(1) for script in scripts if (m := _SED_ADDS.match(script))]
    target = next((t for t in operands if RUN_LATER.match(t)), None)
    if added and target is not None:
        yield from _run_later(invocation, "\n".join(added), target, cwd, depth)


_SHEBANG = lazy_compile(r"^#!\s*(?:\S*/)?(?:env\s+(?:-\S+\s+)*)?([A-Za-z][\w.+-]*)")
_SHEBANG_CODE = {
    "python": ("python3", "-c"), "perl": ("perl", "-e"), "ruby": ("ruby", "-e"), "node": ("node", "-e"),
    "php": ("php", "-r"), "lua": ("lua", "-e"),
}  # fmt: skip
"""A script's interpreter by its shebang's program (``python3.11`` is ``python``), and the command line
that runs its code inline."""


def _run_later(
    invocation: Invocation, text: str, target: str, cwd: str | None, depth: int
) -> Iterator[list[Invocation]]:
    """``echo 'chmod 777 /etc/passwd' > /usr/local/bin/backup.sh``: a script written to where it runs
    later (:data:`RUN_LATER`), judged as if run now: what it will do is known, who runs it is not."""
    suffix = posixpath.splitext(target)[1].lower()
    code = _CODE_SUFFIXES.get(suffix) if suffix not in _SHELL_SUFFIXES else None
    shebang = _SHEBANG.match(text)
    if shebang is not None:  # #!/usr/bin/env python3 in /usr/local/bin/ps: the interpreter named
        code = _SHEBANG_CODE.get(shebang.group(1).rstrip("0123456789.")) or (
            None if shebang.group(1) in SHELLS else code
        )
    if depth >= MAX_NESTED or not (code or _COMMAND_TEXT.match(text)):
        return
    from .locations import location  # here: locations' table is only needed for a write of a script

    place = location(target) if target else None
    if place is not None:
        # ~/.local/bin/ssh, a shell snapshot: the place is the finding (hidden persistence ...); a unit's
        # commands are judged too (a service change is asked, a shell fetched and run there is not)
        yield from _unit_commands(invocation, text, place[0], cwd, depth)
        return
    if code is not None:  # /tmp/random.py: the code its interpreter runs, as ``python3 -c CODE`` is judged
        resolved, _ = _resolve(SimpleCommand((*code, text), (), ()))
        if resolved is not None:
            yield [_under(invocation, resolved.replace(cwd=cwd))]
        return
    try:
        inner = parse_nested(text)
    except ShellSyntaxError:
        return
    for stages in _walk(inner, cwd=cwd, _depth=depth + 1):
        yield [_under(invocation, stage) for stage in stages]


_FIXED_NAME = lazy_compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*|\.[A-Za-z0-9_][A-Za-z0-9_.+-]*")


def _fixed_name(word: str) -> str:
    """The program a word whose directory is found at run time names by a fixed last component
    (``/usr/src/linux-headers-$(uname -r)/scripts/sign-file``: ``sign-file``, as
    ``$KDIR/scripts/sign-file`` is); ``""`` when the name itself is computed (``$(x)``, ``/bin/$(x)``)."""
    directory, slash, last = word.rpartition("/")
    if not slash or not directory or not _FIXED_NAME.fullmatch(last):
        return ""
    return program_name(last)


def _reads_commands(invocation: Invocation) -> bool:
    """``echo "cp x /lib; echo /lib/x > /etc/ld.so.preload" | ./subuid_shell``, ``echo CMD | $rootshell``:
    a program of the project's or the attacker's own (run by its path, or named at run time), which no
    rule knows, fed a line on its input: a shell, for all the guards can tell."""
    command = invocation.command
    program = command.static(command.words[0]) if command.words else None
    if program is None:
        return invocation.dynamic
    return "/" in program and unknown_program(invocation.name)


def _shell_reading_input(invocation: Invocation) -> bool:
    """``echo 'cat ~/.ssh/id_rsa' | $0``: a shell that runs the lines it reads, as ``sh <<< CODE`` does
    (every rule judges them, the rules of secret paths too)."""
    if invocation.name not in SHELLS:
        return False
    mode = shell_mode(invocation)
    return mode.reads_stdin and mode.script is None and mode.file is None


_COMMAND_TEXT = lazy_compile(r"^\s*(?:#!\S+\s+)?(?:[A-Za-z_]\w*=\S*\s+)*[/.~$A-Za-z_]")
"""Text that can be a command line (not data: a number, JSON, a comment alone)."""


ROOT_WRAPPERS = frozenset({"sudo", "doas", "pkexec", "run0"})
"""Wrappers that run their command as root (as another user with ``-u``)."""


def wrapper_option(layer: Layer, short: str, long: str = "") -> str | None:
    """The value ``layer``'s own option was given (``sudo -u USER``, ``-uUSER``, ``-iu USER``,
    ``--user=USER``), read with that wrapper's options that take a value (``sudo -D/usr`` names
    no user); None when it was not given. The last one given wins, as getopt reads them."""
    spec = _WRAPPERS.get(layer.name, _Wrapper())
    args = layer.args
    found: str | None = None
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--":
            break
        if long and (word == long or word.startswith(long + "=")):
            if "=" in word:
                found = word.partition("=")[2]
            elif index < len(args):
                found, index = args[index], index + 1
            continue
        if word.startswith("--"):
            index += 1 if word in spec.long_values else 0
            continue
        if not word.startswith("-"):
            continue  # a fixed operand (timeout's DURATION)
        for at, char in enumerate(word[1:], start=1):
            if char == short or char in spec.short_values:
                value = word[at + 1 :]
                if not value and index < len(args):
                    value, index = args[index], index + 1
                if char == short:
                    found = value
                break
    return found


def is_root_user(user: str) -> bool:
    """Whether the account a root wrapper names is root: by name, by uid (``#0``), or by sudo's
    ``-u#-1`` (CVE-2019-14287: uid -1 is read as 0)."""
    return user in ("root", "0", "#0", "toor") or user.startswith("#-") or user == "#4294967295"


def runs_as(invocation: Invocation) -> str | None:
    """The account the innermost root wrapper runs the program as: ``"root"`` for ``sudo CMD``, the
    user named for ``sudo -u postgres CMD`` (as written: ``#0`` is root's uid); None when no root
    wrapper runs it. Each wrapper's own words are read, so ``sudo flock -u / sh`` is root's."""
    for layer in reversed(invocation.layers):
        if layer.name in ROOT_WRAPPERS:
            user = wrapper_option(layer, "u", "--user")
            if user is None:
                return "root"
            static = invocation.command.static(user)
            return user if static is None else static
    return None


def _root_wrapped(invocation: Invocation) -> bool:
    """Whether code ``invocation`` runs in turn (``sudo sh -c CODE``, ``sudo find -exec CMD``) runs under
    its root wrapper too; not ``ssh``'s remote command, which runs as the remote user."""
    return invocation.name != "ssh" and not ROOT_WRAPPERS.isdisjoint(invocation.wrappers)


def _remote(runner: Invocation, handed_on: Sequence[str]) -> int:
    """How many of the codes ``runner`` hands on run on another machine (they come first): ssh's
    remote command; its ``ProxyCommand`` and ``LocalCommand`` run here, as ssh's own user."""
    return len(handed_on) - len(_carried(runner)) if runner.name == "ssh" else 0


def _root_runner(command: SimpleCommand) -> Invocation | None:
    """The root wrapper a command starts with, when it hands on code and runs no program of its own
    (``sudo watch 'vim x'``, ``sudo env -S 'vim x'``): what runs that code."""
    words = command.words
    name = program_name(command.static(words[0]) or "") if words else ""
    if name not in ROOT_WRAPPERS:
        return None
    end = _skip_options(words, 1, _WRAPPERS[name])
    return Invocation("", (), command, (Layer(name, tuple(words[1:end])),))


def _under(runner: Invocation, inner: Invocation) -> Invocation:
    """``inner``, run by ``runner``, under ``runner``'s root wrappers (and their ``-u USER``): what
    ``sudo find . -exec vim {} ;`` runs is ``vim`` as root, for the judges of privilege. A command
    with a root wrapper of its own is left as it is (its own ``sudo`` says who runs it)."""
    if ROOT_WRAPPERS.isdisjoint(runner.wrappers) or not ROOT_WRAPPERS.isdisjoint(inner.wrappers):
        return inner
    outer = tuple(layer for layer in runner.layers if layer.name in ROOT_WRAPPERS)
    return inner.replace(layers=outer + inner.layers)


MAX_CALLS = 16
"""How many calls of functions defined in the line are followed with their arguments."""
_POSITIONAL = lazy_compile(r"\"?\$(?:\{([1-9@*])\}|([1-9@*]))\"?")


def _called(
    function: Function, invocation: Invocation, cwd: str | None, depth: int
) -> Iterator[list[Invocation]]:
    """``f(){ rm -rf "$1"; }; f ~``: the body again, with the call's arguments for ``$1``, ``$@``."""
    inner = _call_body(function, invocation)
    if inner is not None:
        yield from _walk(inner, cwd=cwd, _depth=depth + 1)


_SHELL_POSITIONAL = lazy_compile(r"\"?\$(?:\{([0-9@*])\}|([0-9@*]))\"?")
_ARGUMENT_LOOP = lazy_compile(r"\bfor\s+(\w+)(?:\s*;\s*|\s+)do\b")
"""``for f; do``, ``for f do``: a loop over the arguments (``"$@"``), as ``for f in "$@"; do``."""


def _with_arguments(code: str, arguments: tuple[str, ...]) -> list[str]:
    """``sh -c CODE NAME ARGS...``'s CODE with ``$0`` (NAME), ``$1`` ... and ``$@`` put in; none when it
    names none of them."""
    quoted = [shlex.quote(argument) for argument in arguments]

    def argument(match: re.Match[str]) -> str:
        key = match.group(1) or match.group(2)
        if key in "@*":
            return " ".join(quoted[1:]) or "''"
        index = int(key)
        return quoted[index] if index < len(quoted) else "''"

    looped = _ARGUMENT_LOOP.sub(lambda m: f'for {m.group(1)} in "$@"; do', code)
    filled = _SHELL_POSITIONAL.sub(argument, looped)
    return [filled] if filled != code else []


def _call_body(function: Function, invocation: Invocation) -> Script | None:
    """The body of ``function`` as ``invocation`` runs it (arguments put in); None if it does not parse."""
    text = function.text
    body = text[text.find("{") + 1 : text.rfind("}")] if "{" in text else text
    args = [shlex.quote(invocation.command.render(a)) for a in invocation.args]

    def argument(match: re.Match[str]) -> str:
        key = match.group(1) or match.group(2)
        if key in "@*":
            return " ".join(args)
        index = int(key) - 1
        return args[index] if index < len(args) else "''"

    try:
        inner = parse_nested(_POSITIONAL.sub(argument, body))
    except ShellSyntaxError:
        return None
    return None if inner.malformed else inner


def _shadowing(script: Script) -> dict[str, Function]:
    """The functions a script certainly defines once and never removes: a call to one runs its body,
    not the program of that name (``pass() { echo ok; }; pass show x`` runs no password store)."""
    removed = {
        word
        for stages in script.pipelines
        for c in stages
        if c.words[:1] == ("unset",)
        for word in c.words[1:]
    }
    counts: dict[str, int] = {}
    for function in script.functions:
        counts[function.name] = counts.get(function.name, 0) + 1
    return {
        f.name: f
        for f in script.functions
        if f.defined_at is not None and counts[f.name] == 1 and f.name not in removed
    }


def _runs_function(
    invocation: Invocation, pipeline: Sequence[SimpleCommand], position: int, function: Function | None
) -> bool:
    """Whether this stage certainly runs ``function`` and nothing else: called by its plain name after
    the definition, alone in its pipeline, with no wrapper (``sudo f``, ``xargs f`` run the program), no
    redirection and no assignment (what the stage writes or is given is judged with the program's name)."""
    if function is None or function.defined_at is None:
        return False
    command = invocation.command
    head = len(command.words) - len(invocation.args) - 1
    return (
        len(pipeline) == 1
        and position >= function.defined_at + len(function.body.pipelines)
        and not invocation.wrappers
        and not invocation.env
        and not command.redirects
        and head == 0
        and command.static(command.words[0]) == function.name
    )


@functools.lru_cache(maxsize=256)
def parse_nested(code: str) -> Script:
    """Parse code handed to a shell (``bash -c``, ``eval``): cached, since several rules walk it."""
    return parse(code)


_REPL_END = "AGENTBUS_REPL_INPUT"


def _repl_input(script: Script, position: int, stages: Sequence[Invocation]) -> list[str]:
    """``jjs`` (or ``tclsh``, ``jshell`` ...) alone on a line, then lines of its language.

    An interpreter started with no code and no script reads its program from standard input;
    when the command line itself arrives on standard input (``bash -s``, ``ssh host < cmds``,
    a terminal the agent types into) the lines after it are that program. They are judged
    as its code, fed through a here-document, as well as shell commands.

    Only what the interpreter can read: the lines after its own (the shell has read the rest
    of its line, ``python; echo socket subprocess``, before it starts it), when it is the
    first stage of its pipeline (a later one reads the pipe), not in the background, not
    reading a file, and not where each line runs in a shell of its own (a make recipe, see
    :func:`lines_run_apart`).
    """
    from .interpreters import AWKS, INTERPRETERS, inline_code

    invocation = stages[0]
    name = invocation.name
    if not _lines_are_input.get() or invocation.command.background:
        return []
    if name in AWKS or not INTERPRETERS.match(name) or inline_code(invocation) is not None:
        return []
    values = [invocation.command.static(a) or "-" for a in invocation.args]
    if any(not v.startswith("-") for v in values) or any(v in _NO_PROGRAM_OPTIONS for v in values):
        return []  # a script file; python --version
    if any(r.op in ("<", "<<", "<<<", "<&") for r in invocation.command.redirects):
        return []
    following = script.pipelines[position + 1 :]
    if script.rows:
        row = script.rows[position]
        later = [p for p, r in zip(following, script.rows[position + 1 :], strict=True) if r > row]
        following = tuple(later)
    rest = "\n".join(" | ".join(c.text for c in p) for p in following)
    return [f"{shlex.quote(name)} <<'{_REPL_END}'\n{rest}\n{_REPL_END}"] if rest.strip() else []


_NO_PROGRAM_OPTIONS = frozenset({"--version", "-V", "--help", "-h", "-help", "-version", "-?"})
"""Options with which an interpreter prints and exits, reading no program."""

_lines_are_input: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "agentbus_lines_are_input", default=True
)


@contextlib.contextmanager
def lines_run_apart() -> Iterator[None]:
    """Judge scripts whose lines each run in a shell of their own (a make recipe, an npm script
    line): an interpreter there reads make's input, never the lines after it."""
    token = _lines_are_input.set(False)
    try:
        yield
    finally:
        _lines_are_input.reset(token)


def walk(script: Script, *, cwd: str | None = None, _depth: int = 0) -> Iterator[list[Invocation]]:
    """Every pipeline that running ``script`` may run, as lists of invocations (see :func:`_walk`).

    Inside :func:`keeping_walks` a whole script's walk is kept for the next rule that walks
    it (every tactic that judges a script as a whole walks it again): the pipelines must not
    be changed by the caller.
    """
    if _depth or not _keep_walks.get():
        return _walk(script, cwd=cwd, _depth=_depth)
    try:
        pipelines, nested = _walked(script, cwd, _lines_are_input.get())
    except TypeError:  # a script that cannot be hashed: walked afresh
        return _walk(script, cwd=cwd)
    found = _nested_found.get()  # a kept walk hands over the nested scripts it found, as a fresh one does
    if found is not None:
        known = {id(inner) for inner, _ in found}  # walked again in the same block: handed over once
        fresh = [kept for kept in nested if id(kept[0]) not in known]
        found.extend(fresh[: max(0, MAX_NESTED_SCRIPTS - len(found))])
    return iter(pipelines)


def substituted(command: SimpleCommand, words: Iterable[str]) -> Iterator[list[Invocation]]:
    """The pipelines the command substitutions in ``words`` (``command``'s) run: ``kill $(pgrep x)``'s
    ``pgrep x``, ``rm $(find ~ -type f)``'s ``find``."""
    for word in words:
        for sub in command.substitutions_in(word):
            yield from walk(sub.script)


_keep_walks: contextvars.ContextVar[bool] = contextvars.ContextVar("agentbus_keep_walks", default=False)
_nested_found: contextvars.ContextVar[list[tuple[Script, bool]] | None] = contextvars.ContextVar(
    "agentbus_nested_scripts", default=None
)
MAX_NESTED_SCRIPTS = 64
"""At most this many nested scripts are kept for the rules that judge a script as a whole."""


@contextlib.contextmanager
def collecting_nested() -> Iterator[list[tuple[Script, bool]]]:
    """The scripts nested in what is walked inside the block (``bash -c CODE``, ``watch CODE``,
    ``su -c CODE``, ``ssh host CODE``, here-documents fed to a shell): the rules that judge a
    whole script (``env | grep -i token``) judge each of them too. Each comes with whether it is a
    :class:`~.carriers.Perhaps` (an argument a program may run or only show: asked)."""
    found: list[tuple[Script, bool]] = []
    token = _nested_found.set(found)
    try:
        yield found
    finally:
        _nested_found.reset(token)


@contextlib.contextmanager
def keeping_walks() -> Iterator[None]:
    """Walk each whole script once inside the block: for a script file's many lines, judged by
    every rule and every tactic (a command line is walked lazily: a block ends its walk)."""
    token = _keep_walks.set(True)
    try:
        yield
    finally:
        _keep_walks.reset(token)


@functools.lru_cache(maxsize=8)
def _walked(
    script: Script, cwd: str | None, lines_are_input: bool
) -> tuple[tuple[list[Invocation], ...], tuple[tuple[Script, bool], ...]]:
    """The pipelines of a whole script's walk, and the nested scripts it found (kept with it: a rule
    that walked it first, outside :func:`collecting_nested`, must not leave the next one without)."""
    with collecting_nested() as nested:
        pipelines = tuple(_walk(script, cwd=cwd))  # lines_are_input: part of the key (lines_run_apart)
    return pipelines, tuple(nested)


def _walk(
    script: Script, *, cwd: str | None = None, _depth: int = 0, _perhaps: bool = False
) -> Iterator[list[Invocation]]:
    """Every pipeline that running ``script`` may run, as lists of invocations.

    Nested code is visited too: substitutions, here-documents fed to a shell,
    ``bash -c``/``sh -c``/``eval``/``su -c``/``env -S``/``watch``/``ssh host``
    strings, ``find -exec``. Strings that do not parse are skipped here; the
    guard decides what an unparseable command means. ``cwd`` is the directory
    the line starts in; ``cd`` moves it for the commands after it.
    """
    start = cwd
    written: dict[str, str] = {}
    renamed: dict[str, str] = {}
    """``alias ls='rm -rf'``, ``hash -p /bin/rm ls``: what a name runs from then on."""
    functions = {function.name: function for function in script.functions}
    shadowing = _shadowing(script) if script.functions else {}
    expanded = 0
    repl_fed = False
    exported = Exported()
    """``export GIT_CONFIG_COUNT=1 …`` (:mod:`.git_settings`): given to each later git and go."""
    chained = False
    """Whether the pipeline before was a ``cd`` that ``cd /tmp || cd /var/run || cd /dev/shm`` may try
    another directory after: the line is then judged in the riskiest of them (where payloads land, by
    :data:`_PAYLOAD_DIRS`; else the first, where the line is when it exists)."""
    before_chain = cwd
    for position, pipeline in enumerate(script.pipelines):
        spend()
        stages: list[Invocation] = []
        nested: list[str] = []
        as_root: dict[int, Invocation] = {}
        """Which of ``nested`` (by index) a root wrapper's program hands on: that code runs as root too."""
        contained: dict[int, str] = {}
        """Which of ``nested`` a container runs: the runner, as CMD's wrapper (``docker`` for ``docker run
        IMG CMD``; ``docker exec`` for a container made earlier: see :mod:`.containers`)."""
        for command in pipeline:
            invocation, handed_on = _resolve(command)
            runner = invocation if invocation is not None else _root_runner(command) if handed_on else None
            if runner is not None and not ROOT_WRAPPERS.isdisjoint(runner.wrappers):
                here = len(nested) + _remote(runner, handed_on)
                as_root.update(dict.fromkeys(range(here, len(nested) + len(handed_on)), runner))
            level = _confined(invocation) if invocation is not None and handed_on else None
            if invocation is not None and level is not None:
                marker = invocation.name if level == "run" else f"{invocation.name} {level}"
                contained.update(dict.fromkeys(range(len(nested), len(nested) + len(handed_on)), marker))
            nested.extend(handed_on)
            if invocation is not None:
                invocation = invocation.replace(cwd=cwd)
                if exported.exported and invocation.name in GIT_ENVIRONMENT_READERS:
                    invocation = invocation.replace(env=(*exported.words(), *invocation.env))
                elif exported.exported and invocation.name in ("sudoedit", "sudo"):
                    # export EDITOR=/tmp/x; sudoedit FILE: the editor sudoedit runs (privilege's rule)
                    editors = tuple(
                        f"{key}={value}"
                        for key, value in exported.exported.items()
                        if value is not None and key in ("SUDO_EDITOR", "VISUAL", "EDITOR")
                    )
                    invocation = invocation.replace(env=(*editors, *invocation.env))
                exported.note(invocation)
                if renamed and invocation.name in renamed:
                    code = renamed[invocation.name]
                    if _PLAIN_PROGRAM.match(code):  # hash -p /usr/bin/curl git: this stage is curl
                        invocation = invocation.replace(name=program_name(code))
                    else:
                        args = " ".join(shlex.quote(command.render(a)) for a in invocation.args)
                        nested.append(f"{code} {args}")
                shadow = shadowing.get(invocation.name) if invocation.name not in renamed else None
                body = _call_body(shadow, invocation) if shadow is not None else None
                if (
                    body is not None
                    and _depth < MAX_NESTED
                    and expanded < MAX_CALLS
                    and _runs_function(invocation, pipeline, position, shadow)
                ):
                    # pass() { echo ok; }; pass show x: the body runs, judged in full with the arguments;
                    # the stage itself is no program (a wrapper of the program calls it by `command pass`).
                    expanded += 1
                    stages.append(invocation.replace(name="", dynamic=False))
                    yield from _walk(body, cwd=cwd, _depth=_depth + 1)
                    continue
                stages.append(invocation)
                _note_renames(invocation, renamed)
                if _depth < MAX_NESTED:
                    before = stages[-2] if len(stages) > 1 else None
                    piped = written_text(before) if before is not None and before.name in _WRITERS else None
                    yield from _run_written(invocation, written, cwd, _depth, piped)
                function = functions.get(invocation.name) if invocation.args else None
                if function is not None and _depth < MAX_NESTED and expanded < MAX_CALLS:
                    expanded += 1
                    yield from _called(function, invocation, cwd, _depth)
                if invocation.name == "find":
                    for exec_command in _find_exec(invocation):
                        exec_invocation, exec_code = _resolve(exec_command)
                        if _root_wrapped(invocation):  # sudo find . -exec vim {} ;: vim runs as root
                            own = exec_invocation is not None and _root_wrapped(exec_invocation)
                            outer = exec_invocation if own and exec_invocation is not None else invocation
                            as_root.update(
                                dict.fromkeys(range(len(nested), len(nested) + len(exec_code)), outer)
                            )
                        nested.extend(exec_code)
                        if exec_invocation is not None:
                            yield [_under(invocation, exec_invocation.replace(cwd=cwd))]
        if stages:
            yield stages
            if _depth < MAX_NESTED and not repl_fed and position + 1 < len(script.pipelines):
                # Once: the first interpreter's input is every line after it (linear in the script).
                fed = _repl_input(script, position, stages)
                repl_fed = bool(fed)
                nested.extend(fed)
        if _depth < MAX_NESTED:
            for index, code in enumerate(nested):
                try:
                    inner = parse_nested(code)
                except ShellSyntaxError:
                    continue
                perhaps = _perhaps or isinstance(code, Perhaps)
                found = _nested_found.get()
                if found is not None and len(found) < MAX_NESTED_SCRIPTS:
                    found.append((inner, perhaps))
                runner = as_root.get(index)
                container = contained.get(index)
                for inner_stages in _walk(inner, cwd=cwd, _depth=_depth + 1, _perhaps=perhaps):
                    if perhaps and not _perhaps:  # tool 'rm -rf ~': it may run or only show it (Perhaps)
                        inner_stages = [s.replace(layers=(Layer(PERHAPS), *s.layers)) for s in inner_stages]
                    if runner is not None:
                        inner_stages = [_under(runner, s) for s in inner_stages]
                    if container is not None:  # docker run IMG sh -c CODE: CODE's programs, run by docker
                        inner_stages = [s.replace(layers=(Layer(container), *s.layers)) for s in inner_stages]
                    yield inner_stages
        if position in script.fallbacks and chained and _lone_cd(stages):
            other = _changed_directory(stages, before_chain)
            cwd = other if _risk(other) < _risk(cwd) else cwd
        else:
            before_chain = cwd
            cwd = _changed_directory(stages, cwd)
            chained = _lone_cd(stages)
    for sub in script.substitutions:
        yield from _walk(sub.script, cwd=start, _depth=_depth, _perhaps=_perhaps)
