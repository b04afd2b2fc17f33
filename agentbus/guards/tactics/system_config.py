"""Tactic family ``system_config``: how the whole machine behaves, changed (asked).

SYSTEM_CONFIG (asked by default):

- a file under ``/etc`` written, edited, linked, created or given away (``sed -i … /etc/locale.gen``,
  ``sudo tee /etc/apt/sources.list.d/x.list``, ``chown -R app /etc/myapp``, ``sudo mkdir
  /etc/apt/keyrings``) when no narrower place covers it: :mod:`..locations` names the places
  whose change is a tactic of its own (cron, sudoers, profiles: blocked or asked as such) and
  :func:`..locations.written` falls back to this category for the rest of ``/etc``;
- a file among the system's programs made runnable (``chmod +x /usr/sbin/python``, ``chmod 755
  /usr/bin/ls``): a program planted, or one put in a system program's place, on every user's ``PATH``
  (``/usr/local/bin`` is the administrator's own);
- ``git config --system`` (every repository of every user), ``update-alternatives`` (which
  program ``/usr/bin/python`` is), locale, host name, time zone, kernel settings (``sysctl -w``;
  the hardening ones are defense impairment), routes and interfaces (``ip route add``,
  ``route del default``, ``ip link set … down``, ``nmcli``), a driver unloaded from the running
  kernel (``rmmod``, ``modprobe -r``, ``kextunload``, ``kmutil unload``: Bella unloads the keyboard's);
- a Machine Owner Key enrolled (``mokutil --import key.der``): what it signs loads under Secure Boot;
- macOS: ``systemsetup -set…``, ``scutil --set``, ``pmset -a …``, ``nvram``, ``launchctl
  limit``/``config``, ``defaults write /Library/Preferences/…`` (every user's). ``networksetup
  -setwebproxy`` is how a developer points the Mac at a debugging proxy: not here (its DNS and
  proxy forms that hijack traffic are :mod:`.macos`' and :mod:`.impairment`'s).

Reading any of it is discovery (``git config --system --list``, ``update-alternatives
--display``, ``sysctl -a``, ``ip route``, ``scutil --get``, ``pmset -g``). ``/usr/local/etc`` and
Homebrew's ``/opt/homebrew/etc`` are the user's own prefix, not the machine's.
"""

from __future__ import annotations

import re

from ..findings import finding, static_args
from ..git_settings import subcommand_at
from ..locations import written
from ..modes import made_executable
from ..paths import normalize_path
from ..programs import Invocation
from ..verdict import SCHEDULED, SYSTEM_CONFIG, SYSTEM_FILES, Verdict
from .impact import ipmi_power
from .writes import writes

__all__ = ["judge"]

_GIT_CONFIG_READS = frozenset({"--list", "-l", "--get", "--get-all", "--get-regexp", "--get-urlmatch",
                               "--get-color", "--get-colorbool", "list", "get", "--show-origin",
                               "--show-scope", "-h", "--help"})  # fmt: skip
"""``git config`` read forms (option style and git 2.46's subcommands)."""
_ALTERNATIVES_CHANGES = frozenset({"--install", "--set", "--remove", "--remove-all", "--auto", "--config",
                                   "--all", "--set-selections"})  # fmt: skip
_OWNERS = frozenset({"chown", "chgrp", "chmod", "mkdir", "touch", "setfacl", "chattr"})
"""Programs that create or give away the files they name (their modes and owners are the rest's rules)."""
_PROGRAM_DIRECTORIES = ("/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/libexec")
"""Where the system's programs are, on every user's ``PATH`` (``/usr/local/bin`` is the admin's own)."""
_CREATORS = frozenset({"mkdir", "touch"})
"""Programs that make a file or directory (empty) where they are told: among the system's programs and
scheduled tasks, a place found writable for a payload (``touch /usr/bin/writeable``, ``mkdir -p
/var/spool/cron/crontabs``), asked as a change of the machine."""

_SETTERS: dict[str, frozenset[str] | None] = {
    # program: the words that change a setting (None: every run with an operand does)
    "locale-gen": None,
    "update-locale": None,
    "dpkg-reconfigure": None,
    "localectl": frozenset({"set-locale", "set-keymap", "set-x11-keymap"}),
    "hostnamectl": frozenset({"set-hostname", "hostname", "set-icon-name", "set-chassis", "set-deployment",
                              "set-location", "icon-name", "chassis", "deployment", "location"}),
    "timedatectl": frozenset({"set-time", "set-timezone", "set-local-rtc", "set-ntp"}),
    "systemsetup": None,  # judged by its -set… options below
    "scutil": frozenset({"--set"}),
    "nvram": None,
    "pmset": None,
    "nmcli": frozenset({"up", "down", "add", "modify", "mod", "delete", "del", "disconnect", "connect",
                        "off", "on", "reload", "import"}),
    "resolvectl": frozenset({"dns", "domain", "default-route", "llmnr", "mdns", "dnssec", "dnsovertls",
                             "revert"}),
    "route": frozenset({"add", "del", "delete", "change", "flush"}),
    # a Machine Owner Key enrolled or removed: what it signs (a DKMS driver, or a rootkit) loads under
    # Secure Boot; the NVIDIA and VirtualBox guides do it, so asked (--disable-validation: impairment's)
    "mokutil": frozenset({"--import", "-i", "--import-hash", "--delete", "-d", "--delete-hash", "--reset",
                          "--ignore-db", "--trust-mok", "--ignore-keyring"}),
}  # fmt: skip
_IP_CHANGES = frozenset({"add", "del", "delete", "change", "replace", "flush", "set", "append"})
_IP_OBJECTS = frozenset({"route", "r", "ro", "addr", "a", "address", "link", "l", "rule", "ru", "neigh", "n",
                         "tunnel", "tuntap"})  # fmt: skip
"""The objects of ``ip`` whose change reroutes the machine (``tuntap``: a pivot's tunnel interface)."""
_READ_FLAGS = frozenset({"-h", "--help", "-V", "--version"})


def _git_config(values: list[str]) -> str | None:
    """``git config --system KEY VALUE`` (or ``git config set --system``): a write every user's git reads."""
    rest = values[subcommand_at(values) :]
    if rest[:1] != ["config"] or "--system" not in rest:
        return None
    if _GIT_CONFIG_READS & set(rest):
        return None
    return "changes git's configuration for every user and repository of the machine (git config --system)"


_GRUB_REGENERATORS = frozenset({"update-grub", "update-grub2"})
_GRUBBY_CHANGES = ("--update-kernel", "--args", "--remove-args", "--set-default", "--set-default-index",
                   "--add-kernel", "--remove-kernel", "--make-default")  # fmt: skip
_BOOT_ENTRY_SETTERS = frozenset({"grub-set-default", "grub2-set-default", "grub-reboot", "grub2-reboot"})


def _boot_setting(name: str, values: list[str]) -> str | None:
    """Why ``name values`` changes how the machine boots (its kernel, the kernel's options: an edit of
    ``/etc/default/grub`` takes effect through ``update-grub``), or None. ``grub-mkconfig -o /boot/…``
    writes the boot loader's file (system file corruption); printed, it only reads."""
    if set(values) & _READ_FLAGS:
        return None
    if name in _GRUB_REGENERATORS:
        return (
            f"{name} rewrites the boot loader's configuration: the kernel and options the machine boots with"
        )
    if name == "grubby":
        found = next((v.partition("=")[0] for v in values if v.partition("=")[0] in _GRUBBY_CHANGES), None)
        return f"grubby {found} changes the kernels the machine boots or their options" if found else None
    if name in _BOOT_ENTRY_SETTERS and any(not v.startswith("-") for v in values):
        return f"{name} chooses the kernel the machine boots next"
    if name in ("grub-editenv", "grub2-editenv") and {"set", "unset"} & set(values):
        return f"{name} changes the boot loader's saved settings"
    return None


def _setting(name: str, values: list[str]) -> str | None:
    """Why ``name values`` changes a setting of the whole machine, or None when it only reads."""
    boot = _boot_setting(name, values)
    if boot is not None:
        return boot
    if not values or set(values) <= _READ_FLAGS:
        return None
    if name in ("update-alternatives", "alternatives"):
        found = next((v for v in values if v in _ALTERNATIVES_CHANGES), None)
        return f"{name} {found} changes which program the system's commands run" if found else None
    if name == "sysctl":
        sets = any(v in ("-w", "--write", "-p", "--load", "--system") or "=" in v for v in values)
        return "changes a kernel setting" if sets else None
    if name == "hostname":
        operands = [v for v in values if not v.startswith("-")]
        return "changes the machine's name" if operands or "-F" in values or "--file" in values else None
    if name == "ip":
        words = [v for v in values if not v.startswith("-")]
        if words[:1] and words[0] in _IP_OBJECTS and len(words) > 1 and words[1] in _IP_CHANGES:
            return f"ip {words[0]} {words[1]} changes the machine's network"
        return None
    if name == "ifconfig":
        operands = [v for v in values if not v.startswith("-")]
        return "changes a network interface" if len(operands) > 1 else None
    if name in _MODULE_UNLOADERS:
        return _module_unloaded(name, values)
    if name == "launchctl":
        return (
            "changes launchd's limits for every process"
            if values[:1] in (["limit"], ["config"]) and len(values) > 2
            else None
        )
    if name == "ipmitool":  # a server's management controller (-H BMC: another machine's)
        words = [v for v in values if not v.startswith("-")]
        verb = ipmi_power(words)
        if verb == "on" or any(w in ("bootdev", "bootparam") for w in words):
            return "ipmitool powers a machine on or changes how it boots, through its management controller"
        changes = [w for i, w in enumerate(words[1:], 1) if words[i - 1] in ("mc", "user", "lan", "sol")]
        return (
            "ipmitool changes a management controller's users or network"
            if set(changes) & {"reset", "set", "enable", "disable", "priv"}
            else None
        )
    if name == "defaults":
        # defaults write /Library/Preferences/...: every user's settings, not the user's own domain.
        writes_system = values[:1] in (["write"], ["delete"]) and len(values) > 1
        return (
            "changes a setting of every user" if writes_system and values[1].startswith("/Library/") else None
        )
    if name not in _SETTERS:
        return None
    wanted = _SETTERS[name]
    if name == "systemsetup":
        found = next((v for v in values if v.lower().startswith("-set")), None)
    elif name == "nvram":
        found = next((v for v in values if "=" in v or v in ("-d", "-c", "-f")), None)
    elif name == "pmset":  # pmset -a sleep 0, pmset repeat …; not -g (read) nor schedule cancel
        found = values[0] if values[0] in ("-a", "-b", "-c", "-u", "repeat") else None
    elif name == "route":
        found = next((v for v in values if v in (wanted or ())), None)
    elif wanted is None:
        found = values[0]
    else:
        found = next((v for v in values if v in wanted), None)
    return f"{name} {found} changes a setting of the whole machine" if found else None


_MODULE_UNLOADERS = frozenset({"rmmod", "modprobe", "kextunload", "kmutil"})
_MODULE_UNLOAD_VALUES = frozenset({"-b", "--bundle-identifier", "-p", "--bundle-path", "-c", "--class",
                                   "-m", "--module", "-C", "--config", "-d", "--dirname", "-S",
                                   "--set-version"})  # fmt: skip


def _module_unloaded(name: str, values: list[str]) -> str | None:
    """``rmmod``, ``modprobe -r``, ``kextunload``, ``kmutil unload``: a driver taken out of the running
    kernel (the keyboard's, the trackpad's, a file system's). A security module's is defense
    impairment (:mod:`.impairment`); loading one is hidden persistence (:mod:`.persistence`)."""
    if name == "modprobe" and (
        not any(v in ("-r", "--remove") or re.fullmatch(r"-[a-zA-Z]*r[a-zA-Z]*", v) for v in values)
        or any(v in ("--dry-run", "--show") or re.fullmatch(r"-[a-zA-Z]*n[a-zA-Z]*", v) for v in values)
    ):
        return None  # not a removal, or a dry run (-n)
    if name == "kmutil":
        if values[:1] != ["unload"]:
            return None
        values = values[1:]
    operands, skip = [], False
    for value in values:
        if skip:
            operands.append(value)
            skip = False
        elif value in _MODULE_UNLOAD_VALUES:
            skip = True
        elif not value.startswith("-"):
            operands.append(value)
    if not operands:
        return None
    return f"{name} unloads {operands[0]} from the running kernel: what it drives stops working"


def _configuration_written(invocation: Invocation, home: str) -> str | None:
    """The file under /etc ``invocation`` writes, creates or gives away, when no narrower rule covers it."""
    for write in writes(invocation):
        found = written(write.path, home=home, cwd=invocation.cwd)
        if found is not None and found[0] == SYSTEM_CONFIG:
            return f"{write.how} {found[1]}"
    if invocation.name == "chmod":
        for file in made_executable(invocation):
            path = normalize_path(file, home=home, cwd=invocation.cwd)
            if any(path == d or path.startswith(d + "/") for d in _PROGRAM_DIRECTORIES):
                return f"makes {path} runnable among the system's programs: one planted on every user's PATH"
    if invocation.name in _OWNERS:
        for value in static_args(invocation):
            if value.startswith("-"):
                continue
            found = written(value, home=home, cwd=invocation.cwd)
            if found is not None and found[0] == SYSTEM_CONFIG:
                verb = {"mkdir": "creates", "touch": "creates"}.get(
                    invocation.name, "changes the owner or mode of"
                )
                return f"{verb} {found[1]}"
            if found is not None and invocation.name in _CREATORS and found[0] in (SYSTEM_FILES, SCHEDULED):
                return f"creates {found[1]}"  # touch /usr/bin/writeable: a dropper finds where it can write
    return None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A change of the machine's own configuration: asked."""
    name = invocation.name
    values = static_args(invocation)
    why = _git_config(values) if name == "git" else _setting(name, values)
    why = why or _configuration_written(invocation, home)
    return None if why is None else finding(SYSTEM_CONFIG, invocation, why)
