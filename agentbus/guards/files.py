"""The sensitive-path guards: ``builtin:security-audit`` and its two extensions.

- ``builtin:security-audit`` (seed 000): tool.before on the file tools
  (``read``, ``write``, ``edit``, plus ``apply_patch``, Claude Code's
  ``MultiEdit``/``NotebookEdit`` and the MCP filesystem server's file tools),
  priority 99. It reads the path from ``path``, ``file_path``, ``paths``,
  ``notebook_path`` (and the file headers of a patch), normalises it against
  ``cwd`` when the call has one, and blocks with ``Access denied: ~/.ssh/id_rsa
  (SSH private key)``.
- ``builtin:shell-file-guard``: tool.before on ``exec``, priority 99. The same
  classifier applied to the file arguments of shell commands that read, copy,
  archive, encode or upload files (``cat ~/.ssh/id_rsa``, ``cp ~/.aws/credentials
  /tmp``, ``base64 .env``, ``tar czf x.tgz ~/.ssh``, ``curl -d @.env``,
  ``< .env``), and to redirections that write a protected file.
- ``builtin:search-path-guard``: tool.before on search tools (``grep``,
  ``glob``, ``find``, ``ls`` and MCP search/list tools), priority 99: their
  paths and glob patterns (``**/.env``, ``~/.ssh/*``, ``*.pem``).

Each has its own id, so a user who finds one too strict turns that one off.
The pure functions :func:`check_path`, :func:`check_glob` and
:func:`check_shell_files` answer the same question without a bus.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..events import ToolCall
from ..lazy_regex import lazy_compile
from ..registry import Registry
from .budget import decide, spend
from .locations import location, written
from .operands import EDITORS, PATH_MAX, PATTERN_OPTIONS, block_device, option_values, system_file
from .pathnames import home_directory
from .paths import check_glob, check_path, display_path, in_project, new_in_project, normalize_path
from .policy import Policy, current_policy, hold, in_argument
from .request_bodies import CURL_PROGRAMS, WGET_PROGRAMS, request_options, sent_file
from .tool_matchers import (
    EXEC_TOOL,
    FILE_TOOLS,
    SEARCH_PATH_GUARD_ID,
    SEARCH_TOOL_NAMES,
    SEARCH_TOOLS,
    SECURITY_AUDIT_ID,
    SHELL_FILE_GUARD_ID,
)
from .verdict import DISK, SCHEDULED, SERVICE, SYSTEM_FILES, Guard, Verdict, install_guards
from .workdir import call_directory, judging_line

if TYPE_CHECKING:  # the shell's modules are imported where a command is judged: a Read needs none
    from .parse import Script
    from .programs import Invocation

__all__ = [
    "GUARDS",
    "SEARCH_PATH_GUARD",
    "SEARCH_PATH_GUARD_ID",
    "SECURITY_AUDIT",
    "SECURITY_AUDIT_ID",
    "SHELL_FILE_GUARD",
    "SHELL_FILE_GUARD_ID",
    "check_file_access",
    "check_glob",
    "check_path",
    "check_shell_files",
    "check_write",
    "install",
    "opened_path",
    "search_path_guard",
    "security_audit",
    "shell_file_guard",
    "written_text",
]

_WRITING = lazy_compile(
    r"^(?:write|edit|apply_patch|multiedit|notebookedit)$|(?:write_file|edit_file|move_file)$"
)
_CONTENT_SEARCH = lazy_compile(r"(?:^|__)(?:grep|search)$")  # their "pattern" is a regex over contents

_PATH_KEYS = ("path", "file_path", "filePath", "notebook_path", "target_file", "filename", "source",
              "destination")  # fmt: skip
_SEARCH_PATH_KEYS = ("path", "paths", "directory", "dir", "root", "target_directory", "cwd_path")
_GLOB_KEYS = ("glob", "include", "includes", "file_pattern")
_CWD_KEYS = ("cwd", "workdir", "working_directory")
_PATCH_KEYS = ("patch", "input", "diff")
_PATCH_FILE = lazy_compile(
    r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$"
    r"|^(?:\+\+\+|---) (?:[ab]/)?(\S+)",
    re.MULTILINE,
)


def _cwd(args: Mapping[str, Any]) -> str | None:
    for key in _CWD_KEYS:
        value = args.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, str):
                yield item


def _file_paths(args: Mapping[str, Any]) -> Iterator[str]:
    for key in _PATH_KEYS:
        yield from _strings(args.get(key))
    yield from _strings(args.get("paths"))
    for key in _PATCH_KEYS:
        patch = args.get(key)
        if isinstance(patch, str):
            yield from _patch_paths(patch)


def _patch_paths(patch: str) -> Iterator[str]:
    """The files a patch touches (apply_patch's ``*** Update File:`` or unified diff headers)."""
    if "*** " not in patch and "+++ " not in patch:
        return
    for match in _PATCH_FILE.finditer(patch):
        path = next(group for group in match.groups() if group)
        if path != "/dev/null":
            yield path


# -- the file tools ----------------------------------------------------------------------


def security_audit(call: ToolCall) -> None:
    """tool.before handler: block file-tool access to sensitive paths (or ask, as the policy says)."""
    cwd = _cwd(call.args)
    write = bool(_WRITING.search(call.tool) or (call.kind is not None and _WRITING.search(call.kind)))
    asked: Verdict | None = None  # the first ask waits: a later path may be blocked
    for path in _file_paths(call.args):
        decided = check_file_access(path, cwd=cwd, write=write)
        if decided is None and write and (_GIT_DIRECTORY in path or _CMAKE.search(path)):
            decided = _build_machinery(path, call, cwd)
        if write and (decided is None or decided.decision == "ask"):
            decided = _stricter(decided, _script_run_later(path, call, cwd))
        if decided is not None and decided.decision != "ask":
            hold(call, decided)
            return
        asked = asked or decided
    if asked is not None:
        hold(call, asked)


_GIT_DIRECTORY = ".git/"


_CMAKE = lazy_compile(r"(?:^|/)CMakeLists\.txt$|\.cmake$")


def _build_machinery(path: str, call: ToolCall, cwd: str | None) -> Verdict | None:
    """A hook or the configuration of a git directory written (:mod:`.git_files`), judged as the
    shell's writes of them are; a CMake file given a fetch from the network (``FetchContent``:
    :func:`.clones.remember_written_fetches`), kept for the build that follows."""
    from . import clones
    from .git_files import check_git_file_write
    from .script_files import read_script

    normalized = normalize_path(path, cwd=cwd or call_directory())
    if not normalized.startswith("/"):
        return None
    old = read_script(normalized).text or ""
    text = written_text(call.args, old)
    if text is None:
        text = patched_text(call.args, path, old)
    clones.remember_written_fetches(call.session_key, normalized, old, text or "")
    return current_policy().apply(check_git_file_write(normalized, old, text, session=call.session_key))


def _stricter(first: Verdict | None, second: Verdict | None) -> Verdict | None:
    """The verdict that holds more (a block over an ask), the first when they hold alike."""
    if second is None or (first is not None and (first.decision == "block" or second.decision != "block")):
        return first
    return second


def _script_run_later(path: str, call: ToolCall, cwd: str | None) -> Verdict | None:
    """A script written outside the project where someone else runs it later (a root job's
    ``/opt/scripts/backup.sh``, ``/usr/local/bin/cleanup``, a module a root script imports:
    :data:`.programs.RUN_LATER`; a systemd unit's commands), judged as the shell's ``cat > PATH <<EOF``
    writing the same text is (the command guard's rules and the shell-file guard's paths):
    what it will do is known, who runs it is not. A write in the project is not (nothing runs it yet,
    and the shell's parser stays unloaded for the file tool's everyday call)."""
    directory = cwd or call_directory() or ""
    normalized = normalize_path(path, cwd=directory or None)
    if not normalized.startswith("/") or (
        directory and (normalized + "/").startswith(directory.rstrip("/") + "/")
    ):
        return None
    from .judge import judge_command
    from .programs import RUN_LATER
    from .script_files import read_script

    if not RUN_LATER.match(normalized) and (location(normalized) or ("",))[0] not in (SERVICE, SCHEDULED):
        return None
    text = written_text(call.args, "")
    if text is None:
        old = read_script(normalized).text or ""
        text = written_text(call.args, old) or patched_text(call.args, path, old)
    if not text:
        return None
    end = "AGENTBUS_EOF"
    while end in text:
        end += "_"
    written = f"cat > {shlex.quote(normalized)} <<'{end}'\n{text}\n{end}"
    return current_policy().apply(judge_command(written, cwd=directory or None))


def patched_text(args: Mapping[str, Any], path: str, old: str, strip: int | None = None) -> str | None:
    """A file's text after a patch tool's call (``apply_patch``'s patch, a unified diff) changes
    ``path`` (as the patch names it; ``old``: its text now); None when no patch of the call names it."""
    from .patches import changes, patched

    for key in _PATCH_KEYS:
        patch = args.get(key)
        if not isinstance(patch, str):
            continue
        for change in changes(patch, strip):
            if change.path == path:
                return patched(old, change)
    return None


def written_text(args: Mapping[str, Any], old: str) -> str | None:
    """A file's text after a file tool's call (Write's ``content``; Edit's and MultiEdit's
    replacements applied to ``old``, the text on disk now); None when the call does not say."""
    for key in ("content", "contents", "text", "file_text"):
        value = args.get(key)
        if isinstance(value, str):
            return value
    edits = args.get("edits")
    pairs = edits if isinstance(edits, list) else [args]
    text = old
    changed = False
    for edit in pairs:
        if not isinstance(edit, Mapping):
            continue
        before = edit.get("old_string", edit.get("old_str"))
        after = edit.get("new_string", edit.get("new_str"))
        if isinstance(before, str) and isinstance(after, str):
            text = text.replace(before, after) if edit.get("replace_all") else text.replace(before, after, 1)
            changed = True
    return text if changed else None


def check_file_access(
    path: str, *, cwd: str | None = None, home: str | None = None, write: bool = False
) -> Verdict | None:
    """What the file-tool guard decides about ``path``: a verdict carrying ``block`` or ``ask``, or None.

    A write to a location of :mod:`.locations` is judged by its category
    (:func:`check_write`); anything else by :func:`.paths.check_path`. The
    policy of the decision under way (:func:`.policy.current_policy`) decides.
    """
    verdict = _judge_file(path, cwd=cwd, home=home, write=write)
    if verdict is None:
        verdict = _judge_link_target(path, cwd=cwd, home=home, write=write)
    return current_policy().apply(verdict)


def _judge_file(path: str, *, cwd: str | None, home: str | None, write: bool) -> Verdict | None:
    verdict = check_write(path, cwd=cwd, home=home) if write else None
    if verdict is None and write and new_in_project(path, cwd=cwd, home=home):
        return None  # a new key or certificate of the project's: made, not read
    return verdict or check_path(path, cwd=cwd, home=home, write=write, local=not write)


def _judge_link_target(path: str, *, cwd: str | None, home: str | None, write: bool) -> Verdict | None:
    """The verdict on the file the system will open for ``path``, where a symbolic link in it
    leads somewhere else: ``notes.md -> ~/.bashrc`` planted in the project makes a write to
    ``notes.md`` a write to the shell profile, ``cfg -> ~/.ssh`` makes ``cfg/id_rsa`` the key.
    A link that leads nowhere yet still names where the write lands (``~/.bashrc`` created);
    a loop, or a directory that cannot be searched, is judged as far as it resolves (opening
    it fails anyway)."""
    base = cwd or call_directory()
    opened = opened_path(path, cwd=base, home=home)
    if opened is None:
        return None
    real_home = _real_directory(home or home_directory())
    found = _judge_file(opened, cwd=_real_directory(base) if base else None, home=real_home, write=write)
    if found is None:
        return None
    shown = display_path(opened, home=real_home)
    reason = f"Access denied: {path.strip()} is a symbolic link to {shown} ({found.why})"
    return Verdict(found.category, shown, found.why, reason, rule=found.rule)


def opened_path(path: str, *, cwd: str | None = None, home: str | None = None) -> str | None:
    """Where the system opens ``path`` (``~`` expanded, relative to ``cwd``, every symbolic
    link in it followed: one :func:`os.path.realpath`), or None when no link leads elsewhere
    or the start is unknown (a relative path without ``cwd``)."""
    if not isinstance(path, str) or not path.strip() or len(path) > PATH_MAX:
        return None
    text = path.strip()
    if text == "~" or text.startswith("~/"):
        text = (home or home_directory()).rstrip("/") + text[1:]
    if not text.startswith("/"):
        if not cwd or not cwd.startswith("/"):
            return None
        text = os.path.join(cwd, text)
    try:
        real = _existing_real_path(text) or os.path.realpath(text)
    except (OSError, ValueError):  # a NUL byte; realpath itself does not raise on loops
        return None
    return None if real == os.path.normpath(text) else real


def _existing_real_path(path: str) -> str | None:
    """Where an existing file is, as the kernel found it (Linux: a few system calls, where
    :func:`os.path.realpath` makes one per component); None where it does not exist."""
    if not _PROC_FD:
        return None
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        found = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None
    finally:
        os.close(fd)
    return found if found.startswith("/") and not found.endswith(" (deleted)") else None


_PROC_FD = hasattr(os, "O_PATH") and os.path.isdir("/proc/self/fd")


@functools.lru_cache(maxsize=16)
def _real_directory(path: str) -> str:
    """The home or working directory with its own links followed, once per process."""
    return os.path.realpath(path)


def check_write(path: str, *, cwd: str | None = None, home: str | None = None) -> Verdict | None:
    """A :class:`Verdict` if writing ``path`` is dangerous, as it is for the command guard's writers:
    a location of :mod:`.locations` (``~/.bashrc``: a shell profile, ``/etc/ld.so.preload``: hidden
    persistence), a system file (``/etc/hosts``) or a block device. The policy decides its category."""
    if not isinstance(path, str) or not path.strip() or len(path) > PATH_MAX:
        return None
    home = home or normalize_path("~")
    normalized = normalize_path(path, home=home, cwd=cwd)
    device = block_device(normalized)
    if device is not None:
        return Verdict(DISK, device, "writing straight to a block device")
    found = location(path, home=home, cwd=cwd)
    if found is not None:
        return Verdict(found[0], display_path(normalized, home=home), f"writing {found[1]}")
    system = system_file(path, home=home, cwd=cwd)
    if system is not None:
        return Verdict(SYSTEM_FILES, system, "writing a system file")
    configuration = written(path, home=home, cwd=cwd)  # the rest of /etc: asked (system configuration)
    if configuration is not None:
        return Verdict(configuration[0], display_path(normalized, home=home), f"writing {configuration[1]}")
    return None


# -- file arguments of shell commands -----------------------------------------------------

_READERS = frozenset({
    "cat", "tac", "less", "more", "most", "head", "tail", "nl", "od", "xxd", "hexdump", "hd", "strings",
    "base64", "base32", "basenc", "uuencode", "cp", "mv", "scp", "rsync", "sftp", "tar", "zip", "7z", "7za",
    "gzip", "bzip2", "xz", "zstd", "lz4", "source", ".", "diff", "cmp", "sort", "uniq", "cut", "paste",
    "jq", "yq", "column", "fold", "fmt", "pr", "rev", "tr", "iconv", "openssl", "gpg", "install", "tee",
    "bat", "batcat", "view", "xclip", "xsel", "pbcopy", "wl-copy", "split", "dd", "envsubst", "ssh-add",
})  # fmt: skip
"""Programs whose file arguments are read (and shown, copied, sent or sourced)."""
_PATTERN_FIRST = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "awk", "gawk", "mawk", "sed", "jq",
                            "gojq", "jaq", "yq"})  # fmt: skip
"""Programs whose first operand is a pattern or program (``jq .env.TOKEN package.json``: a filter)."""
_LOCAL_READERS = (
    _READERS - {"scp", "rsync", "sftp", "xclip", "xsel", "pbcopy", "wl-copy", "ssh-add", "tee", "dd"}
    | _PATTERN_FIRST
    | {"wc", "bash", "sh", "zsh", "dash", "ksh", "fish", "shellcheck", "shfmt", "colordiff", "delta"}
    | (EDITORS - {"code", "subl"})
)
"""Readers that keep what they read on this machine: they show it, compare it, run it, edit it, copy
or move it locally. A file private only against leaving the machine (a shell profile) is theirs to
read (``vi ~/.zshrc``: what the editor writes back is the command guard's, which asks for a start-up
file); senders (``scp``, ``curl -F @``), the clipboard, editors that sync to a remote workspace
(``code``, ``subl``) and programs not known stay judged."""
_WRITE_TARGET = frozenset({"cp", "mv", "install", "rsync", "scp", "tee", "ln"})
_HOME_TAKERS = frozenset({"cp", "mv", "rsync", "scp", "sftp", "tar", "bsdtar", "zip", "7z", "7za", "7zz",
                          "rar", "cpio", "pax", "ln", "find"})  # fmt: skip
"""File commands whose operands are paths: a bare ``~word`` given to them (``cp -r ~bob ./x``) is that
account's home, as the shell expands it (elsewhere it is mostly a program's own syntax: bspc's
``~fullscreen``, mitmdump's ``~m_post`` filter)."""
_GLOB = lazy_compile(r"[*?\[]")


def _judge(
    word: str,
    *,
    cwd: str | None,
    write: bool = False,
    devices: bool = False,
    local: bool = False,
    listing: bool = False,
    tilde_home: bool = False,
) -> Verdict | None:
    """The verdict on one path a command or search names; disks only with ``devices``.

    A disk named in a command is the command guard's business: it knows which
    programs only read one (``smartctl -a /dev/sda``) and which destroy it.
    ``local``: the program keeps what it reads on this machine (:data:`_LOCAL_READERS`);
    ``listing``: only the names are shown (see :func:`.paths.check_glob`); ``tilde_home``: a bare
    ``~word`` is an account's home (:data:`_HOME_TAKERS`).
    """
    verdict = _judge_path(word, cwd=cwd, write=write, local=local, listing=listing, tilde_home=tilde_home)
    return None if verdict is not None and verdict.category == DISK and not devices else verdict


def _judge_path(
    word: str, *, cwd: str | None, write: bool, local: bool, listing: bool, tilde_home: bool = False
) -> Verdict | None:
    if not word or word == "-" or word.startswith("-") or len(word) > PATH_MAX:
        return None
    if _URL.match(word) and word[:7].lower() != "file://":
        return None  # a URL names a remote resource, not a local file (C://Users/... is a drive)
    if _GLOB.search(word):
        verdict = check_glob(word, cwd=cwd, local=local and not write, listing=listing)
        if verdict is not None or listing:
            return verdict
    elif listing and in_project(word, cwd=cwd):
        return None  # find . -name .env: the project's file named, not read
        # A quoted or unmatched pattern reaches the program as written: judged as the file it names.
    if not write and normalize_path(word, cwd=cwd) in _WORLD_READABLE:
        return None  # every local user reads /etc/passwd; writing it is the command guard's business
    if write and location(word, cwd=cwd) is not None:
        return None  # writing ~/.bashrc, /etc/cron.d/x: the command guard judges it, by the locations table
    return check_path(word, cwd=cwd, write=write, local=local and not write, tilde_home=tilde_home)


_WORLD_READABLE = frozenset({"/etc/passwd", "/etc/group"})
_CONTENT_READERS = frozenset({"cat", "tac", "nl", "strings", "grep", "egrep", "fgrep", "rg", "ag", "head",
                              "tail", "xxd", "hexdump", "hd", "od", "less", "more", "base64", "base32",
                              "zcat", "bzcat", "xzcat"})  # fmt: skip
"""Programs that show a file's bytes: given a disk (``strings /dev/sdb``, ``grep -a pass /dev/nvme0n1``), they
read every file on it past the permissions (tools that check or label a disk are the command guard's)."""
_URL = lazy_compile(r"^[A-Za-z][A-Za-z0-9+.-]+://")


_PATTERN_OPTIONS = frozenset({"--exclude", "--exclude-dir", "--include", "--filter", "--glob", "--ignore",
                              "--iglob", "--type", "--max-count", "--context", "--after-context",
                              "--before-context", "--regexp", "--expression"})  # fmt: skip
"""Long options whose value is a pattern or a number, not a file that is read."""
_FILE_OPTION = lazy_compile(r"^--(?:[a-z-]*-)?(?:file|files-from|input|in|from)$")
_VALUE_SHORT = {
    "grep": "ABCDdefm", "egrep": "ABCDdefm", "fgrep": "ABCDdefm", "rg": "ABCefgjMmTt", "ag": "ABCGgm",
    "ack": "ABCm", "awk": "Ffv", "gawk": "Ffv", "mawk": "Ffv", "sed": "efl",
    "jq": "fL", "gojq": "fL", "jaq": "fL", "yq": "oIp",
}  # fmt: skip
"""Short options that take a value, for programs whose first operand is a pattern or program."""


def _operands(invocation: Invocation) -> list[str]:
    """The files a reader reads: its operands and file options, not its pattern or program."""
    values = [v for v in (invocation.command.static(w) for w in invocation.args) if v is not None]
    name = invocation.name
    value_short = _VALUE_SHORT.get(name, "")
    positionals: list[str] = []
    files: list[str] = []
    pattern_given = False
    i = 0
    while i < len(values):
        value = values[i]
        i += 1
        if name == "dd":
            if value.startswith(("if=", "of=")):
                files.append(value[3:])
            continue
        if value == "--":
            positionals += values[i:]
            break
        if value.startswith("--"):
            key, equals, option_value = value.partition("=")
            if key in ("--regexp", "--expression", "--file"):
                pattern_given = True
            if _FILE_OPTION.match(key):
                if equals:
                    files.append(option_value)
                elif i < len(values):
                    files.append(values[i])
                    i += 1
            elif key in _PATTERN_OPTIONS and not equals:
                i += 1
            continue
        if name == "zip" and value in ("-x", "-i"):
            break  # the rest are patterns to leave out or take in
        if value.startswith("-") and value != "-":
            for index, char in enumerate(value[1:], start=1):
                if char in value_short:
                    pattern_given = pattern_given or char in "ef"
                    option_value = value[index + 1 :]
                    if not option_value and i < len(values):
                        option_value = values[i]
                        i += 1
                    if char == "f":
                        files.append(option_value)  # a pattern or program file is read
                    break
            continue
        positionals.append(value)
    if name == "yq" and positionals[:1] in (["e"], ["eval"], ["ea"], ["eval-all"]):
        positionals = positionals[1:]  # yq e EXPR FILE: the subcommand, then the expression
    if value_short and not pattern_given and positionals:
        positionals = positionals[1:]
    return positionals + files


def _curl_files(invocation: Invocation) -> list[str]:
    """The files curl or wget sends (``-T FILE``, ``-d @FILE``, ``-F f=@FILE``, ``--post-file=FILE``)."""
    values = [v for v in (invocation.command.static(w) for w in invocation.args) if v is not None]
    sent = (sent_file(option, value) for option, value in request_options(invocation.name, values))
    return [file for file in sent if file is not None]


_METADATA_ONLY = frozenset({
    "ls", "ll", "stat", "test", "[", "file", "du", "touch", "mkdir", "chown", "chgrp", "realpath", "readlink",
    "basename", "dirname", "echo", "printf", "which", "type", "command", "cd", "pushd", "popd", "export",
    "local", "declare", "typeset", "readonly", "unset", "ssh-keygen", "lsattr", "getfacl", "setfacl", "namei",
    "exa", "eza", "tree", "true", ":", "ausearch", "aureport", "auditctl", "getcap",
})  # fmt: skip
"""Programs known not to read or write their operands' contents: a secret's name is safe with them
(``auditctl -w /etc/shadow`` watches it, ``ausearch -f /etc/shadow`` looks up the audit trail's events
about it)."""
_KEYCHAIN_SETTINGS = frozenset({"show-keychain-info", "lock-keychain", "list-keychains", "default-keychain",
                                "login-keychain", "find-certificate", "find-identity"})  # fmt: skip
"""security(1) commands that name a keychain file to list, lock or choose it, or to show its public part
(``find-certificate -a -p`` prints certificates, ``find-identity -v`` their names and hashes: neither has
an option that prints a password or a private key), never reading its secret items."""
_IDENTITY_USERS = frozenset({"ssh", "scp", "sftp", "autossh", "mosh", "putty", "plink", "pscp", "psftp"})
"""``-i KEY`` gives them a key to log in with, which is not shown or sent."""
_GIT_METADATA = frozenset({"rm", "check-ignore", "ls-files", "status", "mv", "check-attr", "config"})
_PRIVATE_MODE = lazy_compile(r"^0?[0-7]?[0-7]00$|^(?:[ugoa]*-[rwxXst]+|u[+=][rwxXst]*|[+=]?x|-[rwx]+)(?:,|$)")


_LOADS_WITH = {
    "file": frozenset({"-f", "--files-from", "-m", "--magic-file"}),
    # -i prints a converted key; -y and -e print the public half of a key, -p and -c rewrite it in
    # place, but given a file that is no key, they read it (its text shows in the error).
    "ssh-keygen": frozenset({"-i"}),
}
"""Options that make a metadata-only program read a file's contents (its ``-f`` value)."""


def _metadata_only(invocation: Invocation) -> bool:
    name = invocation.name
    values = [v for v in (invocation.command.static(w) for w in invocation.args) if v is not None]
    if name == "chmod":
        mode = next((v for v in values if not v.startswith("-") or re.fullmatch(r"-[rwxXst]+", v)), "")
        return bool(_PRIVATE_MODE.match(mode))  # chmod 600 ~/.ssh/id_rsa; chmod 644 exposes it
    if name == "git":
        from .git_settings import subcommand_at  # only for git: a file tool's call loads no shell parser

        at = subcommand_at(values)
        subcommand = values[at] if at < len(values) else ""
        loads = any(v in ("-f", "--file", "--blob") or v.startswith(("--file=", "--blob=")) for v in values)
        return subcommand in _GIT_METADATA and not loads  # git config --file ~/.netrc --list reads it
    if (
        name == "ssh-keygen"
        and {"-l", "-B"} & set(values)
        and not {"-y", "-e", "-p", "-c", "-i", "-m"} & set(values)
    ):
        # ssh-keygen -l -f ~/.ssh/id_rsa shows a fingerprint; of a file that is no key, it reads it.
        return all(_is_key(values[i + 1]) for i, v in enumerate(values[:-1]) if v == "-f")
    if name == "ssh-keygen" and {"-y", "-e", "-p", "-c"} & set(values):
        return (
            all(_is_key(values[i + 1]) for i, v in enumerate(values[:-1]) if v == "-f") and "-i" not in values
        )
    if name == "security":
        # security show-keychain-info KEYCHAIN: its lock settings, never its items (exact names only:
        # security(1) runs the first command a shorter word is a prefix of, `security dump` included).
        subcommand = next((v for v in values if not v.startswith("-")), "")
        return subcommand in _KEYCHAIN_SETTINGS
    if name in _LOADS_WITH and any(v in _LOADS_WITH[name] for v in values):
        return False  # file -f LIST, ssh-keygen -y -f KEY: the file's contents are read
    return name in _METADATA_ONLY


_SHORT_PATTERN_OPTIONS = {"fd": ("-E",), "fdfind": ("-E",)}
"""Short options whose value is a pattern of names left out (``fd -E .env``), for programs that have one."""


def _generic_operands(invocation: Invocation) -> list[str]:
    """The file operands of any program: every argument but option names and pattern values."""
    values = [v for v in (invocation.command.static(w) for w in invocation.args) if v is not None]
    found: list[str] = []
    skip_next = identity_file = False
    identity = invocation.name in _IDENTITY_USERS
    for index, value in enumerate(values):
        if skip_next:
            skip_next = False
            continue
        if value in PATTERN_OPTIONS or value in _SHORT_PATTERN_OPTIONS.get(invocation.name, ()):
            skip_next = True  # --exclude .env, fd -E .env: a pattern, not a file
            continue
        if invocation.name == "git" and value == "-e" and {"clean", "grep"} & set(values[:index]):
            skip_next = True  # git clean -e .env keeps .env; git grep -e PATTERN
            continue
        if identity and value == "-i":
            identity_file = True  # ssh -i KEY: a key used to log in, not read out (if it is a key)
            continue
        if identity_file:
            identity_file = False
            if _is_key(value):
                continue
        if invocation.name == "zip" and value in ("-x", "-i"):
            break
        if invocation.name == "git" and index and values[index - 1] == "-c" and _git_runs_setting(value):
            continue  # git -c core.sshCommand='ssh -i KEY': a command, judged as one (walked)
        if invocation.name in _DECLARERS and _command_assignment(value):
            continue  # export GIT_SSH_COMMAND='ssh -i KEY': a command, judged as one (walked)
        if identity and value.startswith("-i") and len(value) > 2:
            continue
        if not value.startswith("-") or value == "-":
            found.append(value)
    return found


_FIND_NAMES = frozenset({"-name", "-iname"})
_FIND_ACTIONS = frozenset({"-exec", "-execdir", "-ok", "-okdir", "-delete"})


def _find_acts_on_files(invocation: Invocation) -> bool:
    """find -exec and its kin hand what they find to another program, which reads it; -delete removes
    it (``find . -name .env -delete`` is ``rm .env``): either is more than a listing of names."""
    return any(invocation.command.static(word) in _FIND_ACTIONS for word in invocation.args)


_FIND_PATHS = frozenset({"-path", "-ipath", "-wholename", "-iwholename"})


def _find_operands(invocation: Invocation, *, listing: bool = False) -> list[str]:
    """What find names: its starting points, and each name it looks for, under ``-path``'s directory.

    ``find / -name id_rsa`` hunts for keys; ``find . -name '*.pem' -path './tests/fixtures/*'``
    looks at test data, which the allow-list exempts. ``listing``: find only shows the paths it
    finds, so a name it looks for counts only when it is a credential's (``find /home -name
    package.json`` is not a file in the home of an account named package.json), and not a password-hash
    file at its one known place (``find /etc -name shadow``; ``-exec cat`` or ``| xargs cat`` reads it).
    """
    from .tactics.credentials import FIXED_PLACE_HASHES, secret_name

    values = [v for v in (invocation.command.static(w) for w in invocation.args) if v is not None]
    starts: list[str] = []
    for value in values:
        if value.startswith(("-", "(", "!", ")")):
            break
        starts.append(value)
    # ! -name .env: a name left out, not looked for; -name '*-*': every file ('.*': the hidden ones)
    names = [
        values[i + 1]
        for i in range(len(values) - 1)
        if values[i] in _FIND_NAMES
        and (i == 0 or values[i - 1] not in ("!", "-not"))
        and (values[i + 1].startswith(".") or any(c.isalnum() for c in values[i + 1]))
        and not (listing and (values[i + 1] in FIXED_PLACE_HASHES or not secret_name(values[i + 1])))
    ]
    paths = [values[i + 1] for i in range(len(values) - 1) if values[i] in _FIND_PATHS]
    bases = [p.rsplit("/", 1)[0] for p in paths if "/" in p] or [
        s.rstrip("/") or "/" for s in starts or ["."]
    ]
    known = [f"/etc/{leaf}" for leaf in names if leaf in FIXED_PLACE_HASHES]  # find / -name shadow -exec cat
    return [*starts, *(f"{base}/{leaf}" for base in bases for leaf in names), *known]


_KEY_FILE = lazy_compile(r"(?:^|/)(?:id_[a-z0-9_]+|[^/]*\.(?:pem|key|ppk))$|/\.ssh/[^/]+$", re.IGNORECASE)
_STRING_LITERAL = lazy_compile(r"[\"']([^\"'\n]{1,400})[\"']")


_SQL_SHELLS = frozenset({"sqlite3", "sqlite", "duckdb"})
"""SQL shells whose arguments are statements (``readfile('/home/me/.netrc')``)."""
_BARE_PATH = lazy_compile(r"(?:^|[\s\[({=,])((?:~|\$HOME|/)[\w.@%+-]*(?:/[\w.@%+-]+)+)")


def _is_key(value: str) -> bool:
    """An SSH identity: ``ssh -i`` of it logs in; ``ssh -i ~/.aws/credentials`` reads a secret."""
    return bool(_KEY_FILE.search(value))


_TEX = frozenset({"tex", "latex", "pdflatex", "xelatex", "lualatex", "etex", "pdftex", "luatex", "xetex",
                  "lualatex-dev", "pdflatex-dev"})  # fmt: skip
_TEX_READS = lazy_compile(
    r"\\(?:input|include|verbatiminput|lstinputlisting|VerbatimInput|inputminted\{[^}]{0,40}\})\s*"
    r"(?:\[[^\]]{0,200}\])?\s*\{([^}]{1,4096})\}|\\openin\d*\s*=?\s*([^\s\\]{1,4096})"
)
"""TeX that reads a file into the document: ``\\verbatiminput{~/.ssh/id_rsa}``, ``\\input{F}``."""


def _code_paths(invocation: Invocation) -> list[str]:
    """File paths quoted in interpreter code (``open("/home/me/.netrc")``, ``File.read(".env")``)."""
    from .interpreters import INTERPRETERS, fed_code, home_joined, inline_code

    if invocation.name in _TEX:
        texts = [v for v in (invocation.command.static(w) for w in invocation.args) if v]
        return [m.group(1) or m.group(2) for text in texts for m in _TEX_READS.finditer(text)]
    if invocation.name in _SQL_SHELLS:
        codes = [v for v in (invocation.command.static(w) for w in invocation.args) if v]
    elif INTERPRETERS.match(invocation.name):
        codes = [home_joined(code) for code in (inline_code(invocation), *fed_code(invocation)) if code]
    else:
        return []
    quoted = [
        match.group(1)
        for code in codes
        for match in _STRING_LITERAL.finditer(code)
        if "/" in match.group(1) or match.group(1).startswith((".", "~"))
    ]
    # Tcl's open /home/me/.netrc, Lua's io.open: paths need no quotes in some languages.
    bare = [match.group(1) for code in codes for match in _BARE_PATH.finditer(code)]
    return quoted + bare


# -- keys a program consumes in its role --------------------------------------------------

_KEY_OPTION = lazy_compile(
    r"^--?(?:[A-Za-z][\w-]*?)?(?:key|cert|certificate|identity|keystore|kubeconfig|creds|credentials|inkey|"
    r"signer|privkey|cafile|cacert|ks)(?:[-_]?(?:file|path))?$",
    re.IGNORECASE,
)
"""``--keyfile``, ``--ssl-certfile``, ``--kubeconfig``, ``-inkey``, ``--credentials-file``: the value is
a key, a certificate or a credential the program uses to authenticate or sign, not text it shows or sends."""
_KEY_LIKE = lazy_compile(
    r"(?:^|/)(?:id_[a-z0-9_]+|kubeconfig[^/]*|[^/]*credentials[^/]*\.json|[^/]*service[-_]account[^/]*\.json)$"
    r"|\.(?:pem|key|crt|cer|der|ppk|p12|pfx|jks|keystore|keychain(?:-db)?|kubeconfig)$|/\.ssh/[^/]+$"
    r"|/\.kube/config$",
    re.IGNORECASE,
)
"""What a key option is given: a key, a certificate, a keystore, a kubeconfig, a cloud credentials file."""
_OUTPUT_OPTION = lazy_compile(
    r"^--?(?:out|outfile|output|keyout|out-?file|output-file|key-?out)$", re.IGNORECASE
)
"""``openssl genrsa -out new.key``, ``certtool --outfile private.key``: a key being created, not read."""
_CREDENTIAL_STORE = lazy_compile(r"^/(?:home|Users)/[^/]+/\.|^/root/\.|^/(?:private/)?etc/", re.IGNORECASE)
_OPENSSL_PUBLIC = frozenset({
    "x509", "req", "verify", "crl", "ts", "dgst", "genrsa", "genpkey", "gendsa", "ecparam", "s_client",
    "s_server", "ocsp", "sm2", "rand", "ca", "spkac", "pkeyutl", "sign",
})  # fmt: skip
"""openssl commands whose output never holds a private key given to them (certificates, requests,
signatures, new keys); ``openssl rsa -in KEY`` prints it, unless ``-pubout``."""
_KEY_SHORT = frozenset({"-k", "-K", "-E", "-C"})
"""Short options that take a key or certificate (``curl -E CERT``, ``guacd -K KEY``, ``tomb -k KEY``):
consumed only when the value has a key's or certificate's extension, not for ``id_rsa`` or ``~/.ssh``."""
_CERT_FILE = lazy_compile(r"\.(?:pem|key|crt|cer|der|p12|pfx|keychain(?:-db)?)$", re.IGNORECASE)
_KEY_VARIABLE = lazy_compile(r"^[A-Z_]*(?:KUBECONFIG|KEY|CERT|CREDENTIALS)(?:_FILE|_PATH)?$")
"""``KUBECONFIG=PATH``, ``GOOGLE_APPLICATION_CREDENTIALS=PATH``: where a later program finds its key."""
_CREATES_KEYS = {"step": ("certificate", "create"), "tomb": ("forge",), "certtool": ()}
"""Programs (and subcommands) whose key-file operands are new keys they write."""
_USES_CERTIFICATES = {"security": frozenset({"add-certificates", "add-trusted-cert", "remove-trusted-cert",
                                             "verify-cert", "import"}),
                      "openssl": frozenset({"verify"}), "gmssl": frozenset({"verify"})}  # fmt: skip
"""Programs whose certificate operands are imported into a trust store or keychain, or checked
against one (``openssl verify`` prints OK or an error, never the file), not shown."""
_PATTERN_VALUE_OPTION = lazy_compile(r"^--(?:accept|reject|allow|deny|exclude|include|ignore|skip)[\w-]*$")
"""``kubectl proxy --accept-paths '^/api/.*'``: the value is a pattern, not a file."""


def _without_consumed(invocation: Invocation, cwd: str | None) -> Invocation:
    """The invocation without the keys it consumes and the keys it creates (see :data:`_KEY_OPTION`).

    A key given as a plain path to an option named for it (``gunicorn --keyfile key.pem``, ``scp -i
    KEY``, ``curl --cert c.pem --key k.pem``) is used, not revealed; a new key written by an output
    option outside the credential stores is created, not read. ``cat key.pem``, ``curl -d @id_rsa``
    and ``scp ~/.ssh/id_rsa host:`` name the key as an operand and stay judged.
    """
    command = invocation.command
    values = [command.static(w) for w in invocation.args]
    name = invocation.name
    openssl_public = name in ("openssl", "gmssl") and bool(
        _OPENSSL_PUBLIC & {v for v in values if v}
        or "-pubout" in values
        or ("-noout" in values and "-text" not in values)
    )
    words = [v for v in values if v and not v.startswith("-")]
    subcommand = _CREATES_KEYS.get(name)
    creates = subcommand is not None and tuple(words[: len(subcommand)]) == subcommand
    certificates = _USES_CERTIFICATES.get(name, frozenset())
    creates = creates or bool(words and words[0] in certificates)
    kept: list[str] = []
    skip = False
    for index, (word, value) in enumerate(zip(invocation.args, values, strict=True)):
        if skip:
            skip = False
            continue
        following = values[index + 1] if index + 1 < len(values) else None
        if value is not None and value.startswith("-") and "=" not in value and following is not None:
            if _OUTPUT_OPTION.match(value):
                if _created(following, cwd):
                    skip = True
                    continue
            elif _consumable(following, value) and (
                _KEY_OPTION.match(value)
                or openssl_public
                or (value == "-i" and name in _IDENTITY_USERS)
                or (value in _KEY_SHORT and _CERT_FILE.search(following))
            ):
                skip = True
                continue
            if _PATTERN_VALUE_OPTION.match(value):
                skip = True
                continue
        if value is not None and value.startswith("--") and "=" in value:
            option, _, given = value.partition("=")
            if (_KEY_OPTION.match(option) and _consumable(given, option)) or _PATTERN_VALUE_OPTION.match(
                option
            ):
                continue
        variable, _, path = (value or "").partition("=")
        if path and _KEY_VARIABLE.match(variable) and _consumable(path, variable):
            continue  # export KUBECONFIG=PATH
        if path and _SETTING.match(variable) and _KEY_OPTION.match("--" + variable) and _set_key(path, cwd):
            continue  # postgres -c ssl_key_file=server.key, local keyfile=tls/a.key
        if value is not None and creates and _created(value, cwd):
            continue  # step certificate create NAME new.crt new.key
        if name == "ssh-add" and value and not value.startswith("-") and _consumable(value):
            continue  # ssh-add ~/.ssh/id_ed25519: loaded into the agent as ssh -i uses it, never shown
        kept.append(word)
    if len(kept) == len(invocation.args):
        return invocation
    return invocation.replace(args=tuple(kept))


def _consumable(value: str, option: str = "") -> bool:
    """A plain path to a key (not a URL, an ``@file`` upload or a form field) that fits ``option``.

    A value that does not fit is how a consumer is turned into a reader: ``helm --kubeconfig
    ~/.ssh/id_ecdsa`` prints the key in its parse error, ``keytool -keystore server.key`` too.
    """
    if not _KEY_LIKE.search(value) or "://" in value or value.startswith(("@", "<")):
        return False
    option = option.lower()
    if "kubeconfig" in option:
        return bool(_KUBECONFIG.search(value))
    if "keystore" in option or option.lstrip("-") == "ks":
        return bool(_KEYSTORE.search(value))
    if "cred" in option:
        return not _KEY_FILE.search(value)
    return not _KUBECONFIG.search(value)


_KUBECONFIG = lazy_compile(r"(?:^|/)kubeconfig[^/]*$|\.kubeconfig$|/\.kube/config$", re.IGNORECASE)
"""A kubeconfig's names: ``kubeconfig``, ``kubeconfig.yaml``, ``~/.kube/config`` and ``NAME.kubeconfig``
(``clusterctl get kubeconfig capi-quickstart > capi-quickstart.kubeconfig``, the paths guard's name too)."""
_KEYSTORE = lazy_compile(r"\.(?:jks|keystore|p12|pfx|bks|keychain(?:-db)?)$", re.IGNORECASE)


_SETTING = lazy_compile(r"^[A-Za-z][\w-]*$")


def _set_key(value: str, cwd: str | None) -> bool:
    """A key given to a setting named for it (``ssl_key_file=server.key``): consumed like ``--keyfile``'s,
    when it is not in a credential store (``make KEY=~/.ssh/id_rsa``, ``--set-file key=~/.aws/...``
    stay judged: a setting is a weaker sign of use than an option)."""
    return _consumable(value) and not _CREDENTIAL_STORE.match(normalize_path(value, cwd=cwd))


def _created(value: str, cwd: str | None) -> bool:
    """A key file written outside the accounts' credential stores (``~/.ssh/id_rsa`` stays judged).

    A server's new key or DH parameters written into ``/etc`` (``openssl dhparam -out
    /etc/nginx/ssl/dhparam.pem``) reveal nothing: the write is the machine's configuration changed,
    which the system configuration rule asks about.
    """
    if not _KEY_LIKE.search(value):
        return False
    path = normalize_path(value, cwd=cwd)
    return path.startswith(("/etc/", "/private/etc/")) or not _CREDENTIAL_STORE.match(path)


_KUBECONFIG_FIELD = lazy_compile(
    r"^\^?\s*(?:server|current-context|cluster|context|namespace|apiVersion|kind|clusters|contexts)"
    r"(?::\s*)?$"
)
"""A kubeconfig's keys whose lines hold an address or a name, never a token, a password or a key."""
_PLAIN_SEARCH_FLAGS = frozenset("inHhowFEcqlsI")
"""grep's flags that neither widen what is shown (``-A``, ``-C``, ``-v``) nor read a pattern file."""


def _kubeconfig_field_search(invocation: Invocation) -> bool:
    """``grep server: kubeconfig.yaml``, ``grep -n current-context k.kubeconfig``: the lines shown are
    only those of one of :data:`_KUBECONFIG_FIELD`'s keys, which hold no credential."""
    if invocation.name not in ("grep", "egrep", "fgrep"):
        return False
    values = [invocation.command.static(w) for w in invocation.args]
    if any(v is None for v in values):
        return False
    flags = [v for v in values if v and v.startswith("-")]
    if any(f.startswith("--") or not set(f[1:]) <= _PLAIN_SEARCH_FLAGS for f in flags if f):
        return False
    words = [v for v in values if v and not v.startswith("-")]
    return bool(words) and bool(_KUBECONFIG_FIELD.match(words[0]))


def _a_name(word: str, cwd: str | None) -> bool:
    """A bare word (no ``/``, ``.`` or ``~``) given to a program not known to read files: a name.

    ``kind export kubeconfig``, ``k9s --context kubeconfig_name``: a subcommand, a context, a
    resource; unless ``cd`` took the command into a credential store (``cd ~/.ssh && x id_rsa``).
    """
    if any(c in word for c in "/.~$*?[") or not word:
        return False
    return not _CREDENTIAL_STORE.match(normalize_path(word, cwd=cwd))


_SHOWS_TEXT = frozenset({"gum", "zenity", "kdialog", "whiptail", "dialog", "notify-send", "terminal-notifier",
                         "xmessage", "gxmessage", "cowsay", "cowthink", "figlet", "toilet", "banner",
                         "say"})  # fmt: skip
"""Programs that show (or speak) the text they are given; ``gum`` but for ``gum spin -- CMD``."""
_VERSION_CONTROL = frozenset({"git", "gh", "glab", "hub", "svn", "hg", "jj", "fossil", "bzr", "tea", "sl"})
_MESSAGE_OPTION = lazy_compile(
    r"^(?:-[A-Za-z]*m|--?(?:message|title|body|subject|description|notes|comment))$"
)
"""Options of version control and ``gum spin`` whose value is a message or a title (``git commit -am``)."""
_PROSE = lazy_compile(r"^[^/~.$\s][^\s]*\s")
"""Text, not a path: a first word that does not start as a path, then a space (``cat ~/.ssh/id_rsa``
names, as a file, ``./cat ~/.ssh/id_rsa``; ``/Users/x/Library/Application Support/...`` is a path)."""


def _shown_text(invocation: Invocation) -> set[str]:
    """The arguments that a program only shows as text: a prompt's question (``gum confirm 'cat
    ~/.ssh/id_rsa?'``, ``zenity --question --text ...``), a commit message (``git commit -m``). A
    secret's path in them is not a read of the file. Whether the program may run that text is another
    rule's question (carriers: an argument it may run)."""
    values = [v for v in (invocation.command.static(w) for w in invocation.args) if v is not None]
    name = invocation.name
    if name in _SHOWS_TEXT and not (name == "gum" and "spin" in values):
        return {value for value in values if _PROSE.match(value)}
    if name not in _VERSION_CONTROL and name != "gum":
        return set()  # gum spin --title TEXT -- CMD: the title only
    texts: set[str] = set()
    for index, value in enumerate(values):
        option, equals, rest = value.partition("=")
        given = bool(equals) and _MESSAGE_OPTION.match(option) and _PROSE.match(rest)  # --message=TEXT
        after = index and _MESSAGE_OPTION.match(values[index - 1]) and _PROSE.match(value)  # -m TEXT
        if given or after:
            texts.add(value)
    return texts


def _check_invocation(invocation: Invocation, cwd: str | None, *, shown: bool = False) -> Verdict | None:
    """The verdict on one program run; ``shown``: its output goes to the terminal or a file, not
    into another program (the last stage of a pipeline of the command line itself)."""
    invocation = _without_consumed(invocation, cwd)
    name = invocation.name
    local = name in _LOCAL_READERS
    shown_text = _shown_text(invocation)
    if name in ("apply_patch", "applypatch"):
        # Codex runs patches through the shell: apply_patch <<'EOF' *** Update File: ... EOF
        command = invocation.command
        texts = [command.static(w) or "" for w in invocation.args]
        texts += [
            sub.text for r in command.redirects if r.op == "<<" for sub in command.substitutions_in(r.target)
        ]
        for text in texts:
            for path in _patch_paths(text):
                verdict = _judge(path, cwd=cwd, write=True)
                if verdict is not None:
                    return verdict
        verdict = _patched_machinery(texts, cwd, None)
        if verdict is not None:
            return verdict
    elif name in ("patch", "gpatch"):
        verdict = _patched_machinery(*_patch_input(invocation, cwd))
        if verdict is not None:
            return verdict
    elif (name or invocation.dynamic) and not _metadata_only(invocation):
        # Any program not known to leave contents alone reads what it is given (nawk, expand,
        # git diff --no-index, date -f, gcc @file, curl file://, socat FILE:...).
        if name in _READERS or name in _PATTERN_FIRST:
            plain = _operands(invocation)
        elif name == "find":
            plain = _find_operands(invocation, listing=shown and not _find_acts_on_files(invocation))
        else:
            plain = _generic_operands(invocation)
        last = len(plain) - 1
        generic = not (name in _READERS or name in _PATTERN_FIRST or name == "find")
        in_place = name in ("sed", "perl") and any(
            value.startswith(("-i", "--in-place", "-pi"))
            for value in map(invocation.command.static, invocation.args)
            if value
        )
        listing = name == "find" and shown and not _find_acts_on_files(invocation)
        field_search = _kubeconfig_field_search(invocation)
        for index, operand in enumerate(plain):
            if (generic and _a_name(operand, cwd)) or operand in shown_text:
                continue
            if (
                field_search
                and _KUBECONFIG.search(operand)
                and not _CREDENTIAL_STORE.match(normalize_path(operand, cwd=cwd))
            ):
                continue  # grep server: kubeconfig.yaml: the project's cluster address, not its token
            # sed -i edits its files where they are (nothing is shown); ln -s makes its last operand.
            write = name == "tee" or in_place or (name in _WRITE_TARGET and index == last and last > 0)
            if name == "tee" and new_in_project(operand, cwd=cwd):
                continue  # ... | tee certs/dev.pem: a new key or certificate of the project's
            devices = name in _CONTENT_READERS and not write
            homes = name in _HOME_TAKERS
            verdict = _judge(
                operand, cwd=cwd, write=write, local=local, listing=listing, devices=devices, tilde_home=homes
            )
            if verdict is not None:
                return verdict
        uploads = _curl_files(invocation) if name in CURL_PROGRAMS or name in WGET_PROGRAMS else []
        for path in [*uploads, *_code_paths(invocation)]:
            verdict = _judge(path, cwd=cwd)
            if verdict is not None:
                return verdict
    if name or invocation.dynamic:
        # --files0-from=FILE, -F~/.ssh/config, @FILE: an option that loads a file reads it,
        # whatever the program (du is metadata-only, its --files0-from is not).
        for value in (invocation.command.static(w) for w in invocation.args):
            if name == "git" and value and "=" in value and _git_runs_setting(value):
                continue  # git -c core.sshCommand='ssh -i KEY': a command line, walked and judged as one
            if name in _DECLARERS and value and _command_assignment(value):
                continue  # export GIT_SSH_COMMAND='ssh -i KEY': likewise
            if value in shown_text:
                continue  # git commit --message='...': text
            for loaded in option_values(value) if value else ():
                if loaded.role == "pattern" or (name in _IDENTITY_USERS and loaded.option == "-i"):
                    continue
                verdict = _judge(loaded.value, cwd=cwd, local=local)
                if verdict is not None:
                    return verdict
    command = invocation.command
    fed = [
        *(command.static(r.target) or "" for r in command.redirects if r.op == "<<<"),
        *(sub.text for r in command.redirects if r.op == "<<" for sub in command.substitutions_in(r.target)),
    ]
    printed = _printed_credential(invocation)
    if printed is not None:
        return Verdict("Access denied", invocation.text, printed, rule="credential printer rule")
    named = [*_transferred(invocation, fed), *_wrapper_files(invocation)]
    if fed and _reads_name_list(invocation):
        named += [name for text in fed for name in text.split()]
    for path in named:
        verdict = _judge(path, cwd=cwd)
        if verdict is not None:
            return verdict
    for redirect in command.redirects:
        target = command.static(redirect.target)
        if target is None or redirect.op in ("<<", "<<<", ">&", "<&") or target.isdigit():
            continue
        if redirect.op != "<" and new_in_project(target, cwd=cwd):
            continue  # security find-certificate -p > dev.pem: a new key or certificate of the project's
        verdict = _judge(target, cwd=cwd, write=redirect.op != "<", local=local)
        if verdict is not None:
            return verdict
    return None


def _patch_input(invocation: Invocation, cwd: str | None) -> tuple[list[str], str | None, int | None]:
    """``patch -p1 < x.diff``, ``patch -p1 -i x.diff``, ``patch -p1 <<'EOF' … EOF``: the patch texts,
    the directory, and the components its paths lose (``-pN``; without it patch keeps the file name)."""
    from .script_files import read_script

    command = invocation.command
    values = [command.static(word) or "" for word in invocation.args]
    texts = [
        sub.text for r in command.redirects if r.op == "<<" for sub in command.substitutions_in(r.target)
    ]
    files = [command.static(r.target) or "" for r in command.redirects if r.op == "<"]
    strip = 4096  # no -p: the file name alone
    directory = cwd
    for index, value in enumerate(values):
        given = values[index + 1] if index + 1 < len(values) else ""
        if value in ("-p", "--strip") and given.isdigit():
            strip = int(given)
        elif value.startswith("-p") and value[2:].isdigit():
            strip = int(value[2:])
        elif value.startswith("--strip=") and value[8:].isdigit():
            strip = int(value[8:])
        elif value in ("-i", "--input"):
            files.append(given)
        elif value.startswith("--input="):
            files.append(value[8:])
        elif value in ("-d", "--directory") and given:
            directory = normalize_path(given, cwd=cwd) if cwd else given
    for file in files:
        if file:
            texts.append(read_script(normalize_path(file, cwd=cwd)).text or "")
    return texts, directory, strip


def _patched_machinery(texts: list[str], cwd: str | None, strip: int | None) -> Verdict | None:
    """A patch run in the shell (``apply_patch <<'EOF'``, ``patch -p1``) that writes a hook or the
    configuration of a git directory: judged as a file tool's write of the same text is."""
    from .git_files import check_git_file_write
    from .patches import changes, patched
    from .script_files import read_script

    for text in texts:
        if _GIT_DIRECTORY not in text:
            continue
        for change in changes(text, strip):
            normalized = normalize_path(change.path, cwd=cwd or call_directory())
            if _GIT_DIRECTORY not in normalized or not normalized.startswith("/"):
                continue
            old = read_script(normalized).text or ""
            verdict = current_policy().apply(check_git_file_write(normalized, old, patched(old, change)))
            if verdict is not None:
                return verdict
    return None


_CREDENTIAL_PRINTERS = {
    "aws": (("configure", "export-credentials"), ("configure", "get", "aws_secret_access_key"),
            ("configure", "get", "aws_session_token")),
    "kubectl": (("config", "view", "--raw"),),
    "heroku": (("auth:token",),),
    "vault": (("print", "token"),),
    "op": (("read",),),
    "security": (("find-generic-password", "-w"), ("find-internet-password", "-w")),
}  # fmt: skip
"""Commands that print a stored credential: the same as reading the file that holds it (the access
tokens of ``gh auth token``, ``gcloud auth print-access-token`` ... are judged by where they go, in
:mod:`.tactics.access_tokens`)."""


def _printed_credential(invocation: Invocation) -> str | None:
    patterns = _CREDENTIAL_PRINTERS.get(invocation.name)
    if patterns is None:
        return None
    values = {v for v in (invocation.command.static(w) for w in invocation.args) if v is not None}
    for pattern in patterns:
        if values.issuperset(pattern):
            return f"{invocation.name} {' '.join(pattern)} prints a stored credential"
    return None


_TRANSFER_CLIENTS = frozenset({"ftp", "sftp", "lftp", "smbclient", "tftp", "ncftp", "ncftpput", "curlftpfs"})
_PUT_COMMANDS = frozenset({"put", "mput", "reput", "append", "send", "mirror"})


def _transferred(invocation: Invocation, fed: list[str]) -> list[str]:
    """Local files a transfer client's own commands send (``sftp host <<< 'put ~/.aws/credentials'``)."""
    if invocation.name not in _TRANSFER_CLIENTS:
        return []
    values = [v for v in (invocation.command.static(w) for w in invocation.args) if v is not None]
    texts = [*fed, *(values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-c", "-e"))]
    files: list[str] = []
    for text in texts:
        for line in re.split(r"[\n;]", text):
            try:
                words = shlex.split(line)
            except ValueError:
                words = line.split()
            if len(words) > 1 and words[0].lower() in _PUT_COMMANDS:
                files += [w for w in words[1:] if not w.startswith("-")][:1]
    return files


def _wrapper_files(invocation: Invocation) -> list[str]:
    """Files a wrapper is given: ``xargs -a FILE`` (also with no command: xargs runs echo),
    ``ltrace -F FILE``, ``strace -o FILE``; a wrapper's option values are user names, numbers
    and files, and a secret among them is read."""
    wrapped = tuple(w for layer in invocation.layers for w in layer.args)
    wrapped += invocation.args if invocation.name == "xargs" else ()
    words = [invocation.command.static(w) or "" for w in wrapped]
    files = [v.partition("=")[2] for v in words if v.startswith("--arg-file=")]
    files += [v for v in words if not v.startswith("-")]
    return files


def check_shell_files(command: str, *, cwd: str | None = None) -> Verdict | None:
    """A :class:`Verdict` if a shell command reads, copies or sends a sensitive file.

    ``cd`` and ``pushd`` in the command line move the directory that relative
    paths are resolved against, as they would in the shell. Linear in the
    command, within the decision budget; past it the verdict is a deny.
    """
    if not isinstance(command, str) or not command.strip():
        return None
    home = os.environ.get("HOME", "")
    if len(command) > _CACHED_LENGTH:
        return decide(command, lambda: _judge_shell_files(command, cwd, home))
    return decide(command, lambda: _check_shell_files(command, cwd, home))


_CACHED_LENGTH = 1 << 16
_IMAGE_RUNNERS = frozenset({"docker", "podman", "nerdctl"})


def _runner_values(invocation: Invocation) -> list[str]:
    command = invocation.command
    return [command.render(w) if (v := command.static(w)) is None else v for w in invocation.args]


def _fresh_containers(every: list[list[Invocation]]) -> bool:
    """True when every container the line starts or enters is a new one that mounts nothing and
    shares nothing with the host (:func:`~.carriers.image_arguments`): the paths its command and the
    image's arguments name are the image's files (``postgres -c ssl_key_file=/etc/ssl/private/db.key``).
    A ``docker exec`` or a mount anywhere in the line keeps every path judged as this machine's."""
    from .carriers import image_arguments

    runners = [
        invocation
        for stages in every
        for invocation in stages
        if invocation.name in _IMAGE_RUNNERS and {"run", "create", "exec"} & set(invocation.args)
    ]
    return bool(runners) and all(
        image_arguments(invocation.name, _runner_values(invocation)) is not None for invocation in runners
    )


_NAME_FILTERS = frozenset(
    {"head", "tail", "sort", "uniq", "wc", "grep", "egrep", "fgrep", "cut", "nl", "column"}
)
"""Programs that pass on or count the lines they are fed, opening none of the names in them:
``find repo -name '*.env' | head -10`` still only shows where files are (``| xargs cat`` reads them)."""


@functools.lru_cache(maxsize=1024)
def _check_shell_files(command: str, cwd: str | None, home: str) -> Verdict | None:
    # home is part of the key: the verdict depends on what ~ means.
    return _judge_shell_files(command, cwd, home)


def _judge_shell_files(
    command: str, cwd: str | None, home: str, script: Script | None = None
) -> Verdict | None:
    with judging_line(cwd):  # a relative name after a `cd` in the line is read from where it moved
        return _judge_line_files(command, cwd, home, script)


def _judge_line_files(command: str, cwd: str | None, home: str, script: Script | None) -> Verdict | None:
    from .carriers import PERHAPS, image_arguments
    from .parse import parsed
    from .programs import walk

    script = parsed(command) if script is None else script
    # The commands of the line itself; a nested one (in $(...), bash -c) may feed its output on.
    written = {id(pipeline[-1]) for pipeline in script.pipelines if pipeline}
    asked: Verdict | None = None
    links: dict[str, str] = {}
    every = list(walk(script, cwd=cwd))
    fresh = _fresh_containers(every)
    for stages in every:
        upstream: list[str] | None = None
        for index, invocation in enumerate(stages):
            spend()
            if fresh and not _IMAGE_RUNNERS.isdisjoint(invocation.wrappers):
                continue  # docker run alpine cat /etc/ssl/private/x.key: the image's own file
            if fresh and invocation.name in _IMAGE_RUNNERS:
                start = image_arguments(invocation.name, _runner_values(invocation))
                invocation = invocation.replace(args=invocation.args[:start])
            shown = id(stages[-1].command) in written and all(
                later.name in _NAME_FILTERS for later in stages[index + 1 :]
            )
            verdict = _check_invocation(invocation, invocation.cwd, shown=shown)
            if verdict is None and links:
                verdict = _through_links(invocation, links, home)
            if invocation.name == "ln":
                _record_link(invocation, links, home)
            if verdict is None and index > 0:
                if upstream is None:
                    upstream = _echoed(stages[0])
                verdict = _check_fed_names(invocation, upstream)
            if verdict is None:
                continue
            verdict = verdict.by(f"secret operand rule, for {invocation.name or 'a computed command'}")
            if any(layer.name == PERHAPS for layer in invocation.layers):
                # tool 'cat ~/.ssh/id_rsa': asked at most, and a later block in the line still wins
                asked = asked or in_argument(verdict, current_policy())
                continue
            return verdict
    return asked


def _record_link(invocation: Invocation, links: dict[str, str], home: str) -> None:
    """``ln -s /etc /tmp/e``: remember that later paths under ``/tmp/e/`` are paths under ``/etc/``."""
    values = [invocation.command.static(word) for word in invocation.args]
    if any(value is None for value in values):
        return
    words = [value for value in values if value]
    options = [word for word in words if word.startswith("-")]
    if not any(o in ("--symbolic",) or (o[1:2] != "-" and "s" in o[1:]) for o in options):
        return
    if any(o in ("-t", "--target-directory") or o.startswith("--target-directory=") for o in options):
        return
    positionals = [word for word in words if not word.startswith("-")]
    if len(positionals) != 2 or not positionals[0].startswith(("/", "~")):
        return
    target = normalize_path(positionals[0], home=home, cwd=invocation.cwd).rstrip("/") or "/"
    link = normalize_path(positionals[1], home=home, cwd=invocation.cwd).rstrip("/")
    if link and len(links) < _LINKS_KEPT:
        links[link] = target


_LINKS_KEPT = 16
"""Links remembered per command line: a bound, so that checking each later path stays linear."""


def _through_links(invocation: Invocation, links: dict[str, str], home: str) -> Verdict | None:
    """A path under a link this command line made, judged where it leads (``cat /tmp/e/shadow``
    after ``ln -s /etc /tmp/e`` reads ``/etc/shadow``)."""
    for word in invocation.args:
        value = invocation.command.static(word)
        if not value or value.startswith("-"):
            continue
        path = normalize_path(value, home=home, cwd=invocation.cwd)
        for link, target in links.items():
            if path.startswith(link + "/"):
                verdict = _judge(target.rstrip("/") + path[len(link) :], cwd=invocation.cwd)
                if verdict is not None:
                    return verdict.by(f"secret operand rule, through the link {link} -> {target}")
    return None


def _echoed(first: Invocation) -> list[str]:
    """The words ``echo``/``printf`` writes into a pipe, when they are known (file names for xargs, cpio)."""
    if first.name not in ("echo", "printf"):
        return []
    values = [first.command.static(w) for w in first.args]
    return [w for v in values if v is not None and not v.startswith("-") for w in v.split()]


def _check_fed_names(invocation: Invocation, names: list[str]) -> Verdict | None:
    """``echo ~/.aws/credentials | xargs cat``, ``| cpio -o``: names arriving on stdin are operands."""
    if not names:
        return None
    if "xargs" in invocation.wrappers:
        return _check_invocation(invocation.replace(args=(*invocation.args, *names)), invocation.cwd)
    if _reads_name_list(invocation):
        for name in names:
            verdict = _judge(name, cwd=invocation.cwd)
            if verdict is not None:
                return verdict
    return None


def _reads_name_list(invocation: Invocation) -> bool:
    """cpio -o, tar -T -, zip -@, rsync --files-from=-: the names of the files to read come on stdin."""
    values = [v for v in (invocation.command.static(w) for w in invocation.args) if v is not None]
    name = invocation.name
    if name in ("cpio", "afio"):
        # -o archives the named files, -p (pass-through) copies them into a directory.
        return any(
            v in ("--create", "--pass-through")
            or (v.startswith("-") and not v.startswith("--") and ("o" in v or "p" in v))
            for v in values
        )
    if name in ("tar", "bsdtar", "gtar"):
        stdin = ("-", "/dev/stdin")
        listed = any(
            v in ("-T", "--files-from") and values[i + 1] in stdin for i, v in enumerate(values[:-1])
        )
        return listed or "--files-from=-" in values
    if name == "zip":
        return "-@" in values
    if name == "rsync":
        return "--files-from=-" in values
    return False


def shell_file_guard(call: ToolCall) -> None:
    """tool.before handler: block exec calls that read or copy sensitive files (a function the call
    defines and cannot call: at its calls, :mod:`.definitions`)."""
    from . import definitions, session_directory, session_downloads
    from .danger import command_text, keeper

    # After a `cd` to where the session's shell is (.session_directory); others: where it may be.
    given = command_text(call.args)
    command, *elsewhere = session_directory.judged_as(call, given) or (None,)
    if command is None or given is None:
        return
    cwd = _cwd(call.args)

    def judge(text: str) -> Verdict | None:
        return check_shell_files(text, cwd=cwd)

    # A function the command defines and cannot call is judged at its calls (.definitions).
    verdict = definitions.deferred(command, judge(command), judge, keeper(call.session_key))
    if verdict is None:
        called = definitions.reached(command, session_downloads.kept(call.session_key, definitions.FUNCTIONS))
        if called:
            verdict = judge("\n".join([*called, command]))
    rooted = session_directory.from_the_root(call, given) if elsewhere else None
    for line in (*elsewhere, *([rooted] if rooted else [])):
        if verdict is None or verdict.decision != "block":
            verdict = _stricter(verdict, judge(line))
    hold(call, verdict)


# -- search tools --------------------------------------------------------------------------


def search_path_guard(call: ToolCall) -> None:
    """tool.before handler: block searches aimed at sensitive paths or names."""
    args = call.args
    cwd = _cwd(args)
    for key in _SEARCH_PATH_KEYS:
        for path in _strings(args.get(key)):
            verdict = _judge(path, cwd=cwd, devices=True)
            if verdict is None and not _GLOB.search(path):  # cfg -> ~/.ssh: the search reads there
                verdict = current_policy().apply(_judge_link_target(path, cwd=cwd, home=None, write=False))
            if hold(call, verdict):
                return
    keys = _GLOB_KEYS if _CONTENT_SEARCH.search(call.tool) else (*_GLOB_KEYS, "pattern", "name")
    base = next((p for k in ("path", "directory", "dir", "root") for p in _strings(args.get(k))), None)
    for key in keys:
        for pattern in _strings(args.get(key)):
            relative = not pattern.startswith(("/", "~", "$"))
            full = f"{base.rstrip('/')}/{pattern}" if base and relative else pattern
            if hold(call, check_glob(full, cwd=cwd)):
                return


SECURITY_AUDIT = Guard(id=SECURITY_AUDIT_ID, handler=security_audit, tool=FILE_TOOLS, priority=99)
SHELL_FILE_GUARD = Guard(id=SHELL_FILE_GUARD_ID, handler=shell_file_guard, tool=EXEC_TOOL, priority=99)
SEARCH_PATH_GUARD = Guard(
    id=SEARCH_PATH_GUARD_ID,
    handler=search_path_guard,
    tool=SEARCH_TOOLS,
    priority=99,
    declare=SEARCH_TOOL_NAMES,
)
GUARDS = (SECURITY_AUDIT, SHELL_FILE_GUARD, SEARCH_PATH_GUARD)
"""The three path guards, in the order they are installed."""


def install(
    registry: Registry,
    *,
    shadow: bool | Iterable[str] = False,
    disable: Iterable[str] = (),
    priorities: Mapping[str, int] | None = None,
    policy: Policy | None = None,
) -> None:
    """Installer (the middleware plug-in convention): add the three path guards.

    Options name guards by id, as in :func:`agentbus.middleware.builtin.install`.
    """
    install_guards(registry, GUARDS, shadow=shadow, disable=disable, priorities=priorities, policy=policy)


_DECLARERS = frozenset({"export", "declare", "typeset", "readonly", "local"})


def _command_assignment(assignment: str) -> bool:
    """``GIT_SSH_COMMAND=ssh -i KEY`` (an ``export``'s argument): a variable whose value a program
    runs (:data:`.carriers.COMMAND_VARIABLES`), a command line walked and judged as one."""
    from .carriers import variable_runs

    key, equals, _ = assignment.partition("=")
    return bool(equals) and variable_runs(key)


def _git_runs_setting(setting: str) -> bool:
    """:func:`.carriers.git_runs_setting`, imported when a git command needs it: a file tool's call
    loads no shell machinery (tests/test_hook_imports.py)."""
    from .carriers import git_runs_setting

    return git_runs_setting(setting)
