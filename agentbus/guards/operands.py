"""What a command names: every word, option value, redirect target and ``file://`` URL, resolved.

The rules used to know which programs read or write files; any program they
did not know read ``~/.ssh/id_rsa`` freely. The model is inverted: every
operand of every command is resolved here, and a rule asks only whether an
operand names something sensitive and whether the program is one of the few
known *not* to touch its operands' contents (``ls``, ``stat``, ``test`` ...).

An :class:`Operand` is a value as the program receives it (quotes removed,
variables set earlier in the line expanded by the parser), with where it came
from: a plain argument, the value of an option (``--output=FILE``,
``-oFILE``, ``-o FILE`` is two arguments and judged as such), a response file
(``@FILE``), a form field (``name=@FILE``), a socat address (``FILE:path``), a
``file://`` URL, or a redirection. ``~``, ``$HOME``, ``cd`` and ``..`` are
resolved later, by :func:`~.paths.normalize_path` with the invocation's ``cwd``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..frozen import Frozen
from ..lazy_regex import lazy_compile
from .paths import OTHER_ROOT, host_dir_path, normalize_path

if TYPE_CHECKING:  # annotations only: the path guards use this module without the shell parser
    from .programs import Invocation

__all__ = [
    "CORE_SYSTEM_FILE",
    "DEVICE",
    "EDITORS",
    "PATTERN_OPTIONS",
    "Operand",
    "block_device",
    "operands",
    "option_values",
    "redirect_operands",
    "system_file",
]

PATTERN_OPTIONS = frozenset({
    "--exclude", "--exclude-dir", "--exclude-from", "--include", "--include-dir", "--filter", "--glob",
    "--iglob", "--ignore", "--ignore-dir", "--type", "--name", "--iname", "--regex", "--regexp",
    "--expression", "--pattern", "--exclude-pattern", "--skip",
})  # fmt: skip
"""Long options whose value is a pattern matched against names, not a file that is opened."""

_FILE_URL = lazy_compile(r"file://[^\s'\"<>|;]*", re.IGNORECASE)
_SOCAT_ADDRESS = lazy_compile(r"^(?:file|open|create|gopen):([^,]+)", re.IGNORECASE)
_FORM_FILE = lazy_compile(r"^[^=@<]*=[@<]([^;]+)")
_KEY_PATH = lazy_compile(r"^[A-Za-z_][A-Za-z0-9_.-]*=(.+)$")

PATH_MAX = 4096
"""The longest path Linux opens; a longer word is not a file name (macOS: 1024)."""

DEVICE = lazy_compile(
    r"^/dev/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|md\d|md/|dm-\d|mapper/|sr\d|"
    r"block/|disk/by-[a-z-]+/|mem$|kmem$|port$|root$|nbd\d|loop\d|zd\d|zvol/|bcache\d|pmem\d|ubi|mtd|"
    # /dev/VG/LV: an LVM logical volume (the directories of other devices excepted).
    r"(?!pts/|shm/|fd/|net/|input/|snd/|dri/|bus/|char/|cpu/|hugepages/|mqueue/|v4l/|serial/|usb/|vfio/|"
    r"disk/|block/|mapper/|md/|zvol/|dma_heap/|vhost|bsg/|cuse|hidraw|fuse|gpiochip)[\w.+-]+/[\w.+-]+$)"
)
"""Block devices (whole disks, partitions, their by-id/by-uuid links) and raw memory."""
_SYSTEM_FILE = lazy_compile(
    r"^/etc/(?:passwd|shadow|gshadow|group|sudoers|master\.passwd|ld\.so\.preload|crontab|environment|"
    r"profile|bash\.bashrc|zshrc|zshenv|security/opasswd|doas\.conf|ssh/sshd_config)"
    r"(?:[-~]|\.(?:bak|old|orig|tmp|lock|new))?$"
    r"|^/etc/(?:sudoers\.d|cron\.d|cron\.(?:hourly|daily|weekly|monthly)|pam\.d|profile\.d|"
    r"ssh/sshd_config\.d|systemd/system|init\.d|rc\d\.d)(?:/|$)|^/var/spool/cron(?:/|$)"
    # The machine's name service, mounts, kernel, network and login configuration; not the
    # package sources or daemon settings a developer edits (/etc/apt/sources.list.d, daemon.json).
    r"|^/etc/(?:hosts|hosts\.allow|hosts\.deny|fstab|resolv\.conf|hostname|nsswitch\.conf|login\.defs|shells|"
    r"exports|rc\.local|sysctl\.conf|securetty|inittab|ld\.so\.conf|modules|crypttab|mtab|anacrontab|"
    r"bashrc|zprofile|zlogin|csh\.cshrc|inputrc)(?:[-~]|\.(?:bak|old|orig|tmp|new))?$"
    r"|^/etc/(?:security|ssh|systemd|sysctl\.d|modprobe\.d|ld\.so\.conf\.d|udev/rules\.d|polkit-1|"
    r"network|netplan|NetworkManager/system-connections|xdg/autostart|update-motd\.d|logrotate\.d|"
    r"apparmor\.d|selinux)(?:/|$)"
)
"""Files whose change hands over the machine: accounts, sudo, PAM, preloads, cron, boot scripts;
and the rest of /etc, which :data:`CORE_SYSTEM_FILE` tells apart."""
_SYSTEM_DIRECTORIES = ("/etc/", "/var/spool/cron")
"""Where every :data:`_SYSTEM_FILE` is: other paths skip compiling it (a hook process is short)."""
CORE_SYSTEM_FILE = lazy_compile(
    r"^/etc/(?:passwd|shadow|gshadow|group|sudoers|master\.passwd|ld\.so\.preload|security/opasswd|doas\.conf)"
    r"(?:[-~]|\.(?:bak|old|orig|tmp|lock|new))?$|^/etc/(?:sudoers\.d|pam\.d)(?:/|$)"
)
"""Accounts, sudo, PAM, preloads: any program given one of these is taken to write it.
Other files in /etc count when a program is told to write them (an output option, a
redirection, a copy's destination), since editors and viewers are pointed at /etc/hosts."""


class Operand(Frozen):
    """One thing a command names: its ``value`` and ``role`` (``argument``, ``option value``,
    ``file``, ``url``, ``input``, ``output``), and the ``option`` it is the value of."""

    __slots__ = ("option", "role", "value")

    value: str
    role: str
    option: str

    def __init__(self, value: str, role: str, option: str = "") -> None:
        set_field = object.__setattr__
        set_field(self, "value", value)
        set_field(self, "role", role)
        set_field(self, "option", option)


def option_values(word: str) -> Iterator[Operand]:
    """The file-like parts of one argument, beyond the argument itself."""
    if word.startswith("--") and "=" in word:
        option, _, value = word.partition("=")
        role = "pattern" if option in PATTERN_OPTIONS else "option value"
        yield Operand(value, role, option)
        if value.startswith("@"):
            yield Operand(value[1:], "file", option)
    elif word.startswith("-") and len(word) > 2 and not word.startswith("--"):
        # -o/etc/passwd, -F~/.ssh/config, -i~/.ssh/id_rsa: a value attached to a short option.
        attached = word[2:]
        if attached.startswith(("/", "~", "./", "../", "$HOME", "${HOME")) or "/" in attached:
            yield Operand(attached, "option value", word[:2])
    elif word.startswith("@") and len(word) > 1:
        yield Operand(word[1:], "file")  # gcc @file, curl -d @file: the file is read
    if "=" in word and not word.startswith("-"):
        form = _FORM_FILE.match(word)
        if form:
            yield Operand(form.group(1), "file")  # curl -F name=@file
        else:
            key = _KEY_PATH.match(word)
            if key and ("/" in key.group(1) or key.group(1).startswith("~")):
                yield Operand(key.group(1), "option value", word.partition("=")[0])  # dd of=/dev/sda
    socat = _SOCAT_ADDRESS.match(word)
    if socat:
        yield Operand(socat.group(1), "file")
    if "file:" in word.lower():
        for url in _FILE_URL.findall(word):
            yield Operand(url, "url")


_FIND_RUNS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
"""find's actions followed by a program to run."""


def operands(invocation: Invocation) -> list[Operand]:
    """Every operand of a command whose value is known without running anything."""
    command = invocation.command
    found: list[Operand] = []
    previous = ""
    for word in invocation.args:
        value = command.shape(word)  # /lib/modules/$(uname -r)/x.ko: its known directory still counts
        if value is None or not value or len(value) > PATH_MAX:
            previous = ""  # longer than any path the kernel opens: text, not a file (and linear to skip)
            continue
        if invocation.name == "find" and previous in _FIND_RUNS:
            previous = value  # find -exec /bin/sh ;: a program to run (judged as its own command), no file
            continue
        if not value.startswith("-") or value == "-":
            # -o FILE, -d DIR: an argument right after an option is probably its value.
            after_option = (
                "=" not in previous
                and (len(previous) == 2 or previous.startswith("--"))
                and previous[:1] == "-"
            )
            found.append(
                Operand(
                    value, "after option" if after_option else "argument", previous if after_option else ""
                )
            )
        found.extend(option_values(value))
        previous = value
    found.extend(redirect_operands(invocation))
    return found


def redirect_operands(invocation: Invocation) -> list[Operand]:
    """The files a command's redirections open: ``< FILE`` is read, ``> FILE`` written."""
    command = invocation.command
    found: list[Operand] = []
    for redirect in command.redirects:
        if redirect.op in ("<<", "<<<", ">&", "<&") or not redirect.target:
            continue
        target = command.shape(redirect.target)
        if target is None or target.isdigit() or target == "-":
            continue
        found.append(Operand(target, "input" if redirect.op == "<" else "output", redirect.op))
    return found


def block_device(value: str) -> str | None:
    """The device ``value`` names, if it is a block device or raw memory.

    Also the devices a run-time value stands for: a glob of device names (``/dev/sd*``,
    ``/dev/nvme[0-9]n1``: every disk it matches) and a command substitution that lists them
    (``$(ls /dev/sd[a-z])``, ``$(find /dev -type b)``, ``$(lsblk -pdno NAME)``), the word a
    ``for`` loop over the machine's disks hands its body."""
    path = value
    if path.startswith(("$(", "`")):
        return _listed_device(path)
    if not path.startswith("/dev/"):
        return None  # every device is under /dev: other paths skip compiling the pattern
    if "//" in path or "/./" in path or "/../" in path:
        path = normalize_path(path)
    if DEVICE.match(path):
        return path
    if not _GLOB_CHARS.search(path):
        return None
    # /dev/sd* matches a disk when one of its names does: each wildcard read as a letter, then a digit.
    classes = _GLOB_CLASS.sub(lambda m: m.group(1)[:1], path)
    return path if any(DEVICE.match(classes.replace("*", c).replace("?", c)) for c in "a0") else None


_GLOB_CHARS = lazy_compile(r"[*?\[]")
_GLOB_CLASS = lazy_compile(r"\[!?\^?([^\]]*)\]")
_LISTED = lazy_compile(r"/dev/[^\s'\")`;|&<>]+|\blsblk\b|/sys/block\b|/sys/class/block\b")


def _listed_device(text: str) -> str | None:
    """The devices a command substitution lists: a device name or glob in it, ``lsblk``, ``/sys/block``."""
    for match in _LISTED.finditer(text):
        word = match.group(0)
        if not word.startswith("/dev/") or block_device(word) is not None:
            return word
    return None


_MOUNTED_ROOT = OTHER_ROOT  # where it is defined: .paths, which reads a secret of such a tree too


def mounted_root(path: str, cwd: str | None) -> str | None:
    """The top of the other root file system ``path`` (normalised) lies in (``/mnt`` of ``/mnt/etc/passwd``),
    unless the agent works inside that tree (a project under WSL's ``/mnt/c``)."""
    match = _MOUNTED_ROOT.match(path)
    if match is None or (cwd and (cwd + "/").startswith(match.group(0) + "/")):
        return None
    return match.group(0)


def system_file(value: str, *, home: str, cwd: str | None) -> str | None:
    """The system file ``value`` names (``/etc/sudoers``, ``/etc/shadow-`` ...), if it names one.

    A relative path names one only when enough ``..`` climb out of an unknown
    working directory (``../../../../etc/passwd``).
    """
    path = normalize_path(value, home=home, cwd=cwd)
    if path.startswith("/private/etc/"):
        path = path[len("/private") :]  # macOS: /etc is a link to /private/etc
    if path.startswith(_SYSTEM_DIRECTORIES) and _SYSTEM_FILE.match(path):
        return path
    top = mounted_root(path, cwd)
    if top is not None and CORE_SYSTEM_FILE.match(path[len(top) :]):
        return path  # /mnt/etc/shadow, /sysroot/etc/ld.so.preload: who may log in or be root on that system
    hosts = host_dir_path(path)
    if hosts is not None and CORE_SYSTEM_FILE.match(hosts):
        return path  # /host-etc/shadow: the host's /etc given to a container under its own name
    if cwd is None and path.startswith("../"):
        climbed = "/" + path.lstrip("./")
        if climbed.startswith(_SYSTEM_DIRECTORIES) and _SYSTEM_FILE.match(climbed):
            return climbed
    return None


EDITORS = frozenset({"vi", "vim", "nvim", "gvim", "nano", "pico", "emacs", "emacsclient", "ed", "ex", "joe",
                      "micro", "mcedit", "hx", "kak", "code", "subl", "gedit", "kate", "mousepad", "sponge",
                      "patch"})  # fmt: skip
"""Programs that write the files they are given as plain arguments: editors, ``sponge``, ``patch``."""
