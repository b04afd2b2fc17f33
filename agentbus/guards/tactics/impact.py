"""Tactic family ``impact``: stopping the machine, or destroying the user's data.

- :data:`~agentbus.guards.verdict.SHUTDOWN`: ``shutdown``, ``reboot``,
  ``halt``, ``poweroff``, ``systemctl reboot``/``poweroff``/``kexec``/``suspend``,
  ``init 0``/``6``, ``loginctl``, logind over D-Bus, AppleScript's ``shut down``,
  the magic SysRq key (``echo b > /proc/sysrq-trigger``), ``kexec``; and killing
  everything: ``kill -9 -1``, ``kill 1``, ``killall5``, ``pkill -u USER`` with no
  other pattern, ``pkill -f .``, every PID from ``ps`` handed to ``kill``, and
  the processes a session cannot live without (``launchd``, ``sshd``,
  ``WindowServer``, ``loginwindow`` ...).
- :data:`~agentbus.guards.verdict.DATA_DESTRUCTION`: mass deletion, overwriting
  or in-place encryption of the user's own data outside the project: a whole
  data folder (``~/Documents``, ``~/Desktop``, ``~/Pictures``, ``~/Library``,
  ``~/.local/share``, a backup volume, a database's directory) or every file in
  one, by ``rm``, ``shred``, ``wipe``, ``srm``, ``truncate``, ``ccrypt``,
  archivers that delete what they pack (``zip -m``, ``7z -sdel``, ``tar
  --remove-files``), ``find ... -delete``/``-exec``; filling the disk; dropping
  databases and buckets. ``rm -rf ./build`` and ``rm -rf ~/.cache/pip`` are ordinary.
  Also one file of the user's outside the project encrypted (``gpg -c``, ``openssl
  enc``, ``7z a -p``, ``zip -e``, ``age``, ``ccencrypt``) or shredded, and the free
  space overwritten (``sfill``, ``cat /dev/zero > FILE``): ransomware's and the
  anti-forensic wiper's steps. Encrypting the project's own files is ordinary, but not ransomware's
  loop: each file a loop, a glob or a search hands over encrypted and the original then deleted.
- :data:`~agentbus.guards.verdict.SERVICE` (asked): a system daemon stopped by
  signalling it (``killall cron``, ``kill $(pgrep crond)``), as ``systemctl stop``
  would be asked. Security and logging daemons are the impairment family's.
- :data:`~agentbus.guards.verdict.RESOURCE_HIJACK`: a cryptocurrency miner
  (``xmrig``, ``cpuminer``, a ``stratum+tcp://`` pool, ``--donate-level``).
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..findings import copies_into_found, exec_runs, looked_up_program, piece
from ..findings import finding as _verdict
from ..findings import inverts_match as _excludes
from ..findings import positionals as _positionals
from ..findings import static_args as _values
from ..interpreters import inline_code
from ..operands import operands
from ..parse import WRITE_OPERATORS, Script
from ..paths import normalize_path
from ..programs import SHELLS, Invocation, substituted, walk
from ..sizes import DISK_FILL_LIMIT, size_in_bytes
from ..transfers import URL
from ..verdict import (
    DATA_DESTRUCTION,
    FORK_BOMB,
    RESOURCE_HIJACK,
    SERVICE,
    SHARED_WIPE,
    SHUTDOWN,
    SYSTEM_CONFIG,
    SYSTEM_FILES,
    UNJUDGED_SCRIPT,
    Verdict,
)

__all__ = ["data_tree", "is_miner", "judge", "judge_script", "names_wallet", "user_data", "users_file"]


def _words(values: list[str]) -> list[str]:
    return [v for v in values if not v.startswith("-")]


# -- shutting the machine down --------------------------------------------------------------

_POWER_PROGRAMS = frozenset({"shutdown", "reboot", "halt", "poweroff", "kexec", "systemd-reboot"})
_HARMLESS_FLAGS = frozenset({"--help", "-?", "--version", "-V", "-c", "--show", "-k", "--wall", "--no-wall"})
_POWER_VERBS = frozenset({"reboot", "poweroff", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep",
                          "suspend-then-hibernate", "soft-reboot", "sleep"})  # fmt: skip
_POWER_TARGET = lazy_compile(r"^(?:reboot|poweroff|halt|kexec|suspend|hibernate|hybrid-sleep|soft-reboot|"
                           r"ctrl-alt-del|sleep|suspend-then-hibernate)\.target$")  # fmt: skip
_SESSION_KILLERS = frozenset({"terminate-user", "kill-user", "terminate-seat", "kill-session",
                              "terminate-session"})  # fmt: skip
_DBUS_POWER = lazy_compile(
    r"(?:login1|SessionManager|ConsoleKit|ksmserver|PowerManagement|xfce\.Session).*"
    r"(?:PowerOff|Reboot|Halt|KExec|Suspend|Hibernate|HybridSleep|Shutdown|Restart|Stop|Logout|logout)\b",
    re.IGNORECASE,
)
_APPLESCRIPT_POWER = lazy_compile(
    r"\b(?:shut\s*down|restart|log\s*out|sleep)\b|aevt(?:rsdn|rrst|rlgo|shut|slep)", re.IGNORECASE
)
_SYSRQ = "/proc/sysrq-trigger"


def _shutdown(invocation: Invocation) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    words = _words(values)
    first = words[0] if words else ""
    if name in _POWER_PROGRAMS:
        if values and all(v in _HARMLESS_FLAGS for v in values if v.startswith("-")) and not words:
            return None
        if name == "shutdown" and set(values) & {"-c", "--show", "-k"}:
            return None
        return _verdict(SHUTDOWN, invocation, f"{name} stops or restarts the machine")
    power_target = first in ("isolate", "start", "restart") and any(_POWER_TARGET.match(w) for w in words[1:])
    if name == "systemctl" and "--user" not in values and (first in _POWER_VERBS or power_target):
        return _verdict(SHUTDOWN, invocation, "stops, restarts or suspends the machine")
    if name == "loginctl" and (first in _POWER_VERBS or first in _SESSION_KILLERS):
        return _verdict(SHUTDOWN, invocation, "stops the machine or ends a user's every process")
    if name in ("init", "telinit") and first in ("0", "6", "1", "s", "S", "single"):
        return _verdict(SHUTDOWN, invocation, f"{name} {first} halts, reboots or drops to single-user mode")
    if name == "launchctl" and first in ("reboot", "halt"):
        return _verdict(SHUTDOWN, invocation, "launchctl reboots the machine or its userspace")
    if name == "ipmitool" and ipmi_power(words) in _IPMI_OFF:
        return _verdict(
            SHUTDOWN, invocation, "powers off or resets a machine through its management controller"
        )
    if name == "pmset" and first in ("sleepnow", "restart", "shutdown"):
        return _verdict(SHUTDOWN, invocation, "puts the machine to sleep or shuts it down")
    if name in ("dbus-send", "gdbus", "busctl", "qdbus", "qdbus6") and _DBUS_POWER.search(" ".join(values)):
        return _verdict(
            SHUTDOWN, invocation, "asks the session or login manager to power off, reboot or log out"
        )
    if name in (
        "gnome-session-quit",
        "xfce4-session-logout",
        "lxsession-logout",
        "mate-session-save",
    ) and not (set(values) & {"--help", "-h"}):
        return _verdict(SHUTDOWN, invocation, "ends the desktop session or powers off")
    if name == "osascript":
        code = " ".join(values)
        if _APPLESCRIPT_POWER.search(code) and re.search(
            r"System Events|Finder|loginwindow", code, re.IGNORECASE
        ):
            return _verdict(SHUTDOWN, invocation, "tells macOS to shut down, restart or log out")
    return _sysrq(invocation)


_IPMI_OFF = frozenset({"off", "cycle", "reset", "soft", "diag"})
_IPMI_VERBS = _IPMI_OFF | {"on", "status"}


def ipmi_power(words: list[str]) -> str | None:
    """The verb of ``ipmitool [-H BMC ...] [chassis] power VERB`` (words: the arguments but options)."""
    for index, word in enumerate(words[:-1]):
        if word == "power" and words[index + 1] in _IPMI_VERBS:
            return words[index + 1]
    return None


def _sysrq(invocation: Invocation) -> Verdict | None:
    command = invocation.command
    for redirect in command.redirects:
        if redirect.op not in ("<", "<<", "<<<") and _is_sysrq(command.static(redirect.target)):
            return _verdict(SHUTDOWN, invocation, "presses the magic SysRq key: reboot, power-off or crash")
    if invocation.name in ("tee", "dd", "cp", "sh", "bash") or invocation.name.startswith("python"):
        for operand in operands(invocation):
            if _is_sysrq(operand.value):
                return _verdict(
                    SHUTDOWN, invocation, "presses the magic SysRq key: reboot, power-off or crash"
                )
    return None


def _is_sysrq(value: str | None) -> bool:
    return value is not None and normalize_path(value, home="/") == _SYSRQ


# -- killing everything ----------------------------------------------------------------------

_VITAL = frozenset({"init", "systemd", "launchd", "sshd", "loginwindow", "WindowServer", "systemd-logind",
                    "dbus-daemon", "Xorg", "X", "Xwayland", "gnome-shell", "kwin_x11", "kwin_wayland",
                    "plasmashell", "gdm", "gdm3", "lightdm", "sddm", "login", "agetty", "getty",
                    "kernel_task", "systemd-journald", "Terminal", "iTerm2", "iTerm"})  # fmt: skip
"""Processes without which the machine, the session or the remote login is gone (the terminal app:
every shell the user has open in it, and what ran there, goes with it)."""
_SHELL_UI = frozenset({"Finder", "Dock", "SystemUIServer", "explorer", "explorer.exe"})
"""Relaunched at once when stopped politely (``killall Dock`` applies a setting); gone when KILLed."""
_EVERYTHING = lazy_compile(r"^(?:\.|\.\*|\^|\$|\^\.\*\$?|\.\+|\[\^?\]?.*\]\*|\(\.\*\)|\\w\*|)$")
_KILL_SIGNAL = lazy_compile(r"^-(?:9|KILL|SIGKILL|s\s*KILL)$", re.IGNORECASE)
_WHOLE_PS = lazy_compile(r"^\s*ps\b(?![^|]*\s-p\b)(?=[^|]*(?:\s-\w*[eA]|\s-?a?ux|\sax|\s-ef))")


def _kill(invocation: Invocation) -> Verdict | None:
    name = invocation.name
    command = invocation.command
    values = _values(invocation)
    if name == "killall5":
        return _verdict(SHUTDOWN, invocation, "killall5 signals every process on the machine")
    if name == "kill":
        targets: list[tuple[str, str]] = []  # (as written, as rendered)
        signal_seen = done = False
        skip = False
        for raw in invocation.args:
            word = command.render(raw)
            if skip:
                skip = False
                continue
            if done:
                targets.append((raw, word))
            elif word == "--":
                done = True
            elif word in ("-s", "-n", "--signal"):
                skip = signal_seen = True
            elif word in ("-l", "-L", "--list", "--table"):
                return None
            elif word.startswith("-") and not signal_seen and len(word) > 1:
                signal_seen = True
            else:
                targets.append((raw, word))
        for raw, target in targets:
            if target == "-1":
                return _verdict(SHUTDOWN, invocation, "kill -1 signals every process the user may signal")
            if target == "1":
                return _verdict(SHUTDOWN, invocation, "signals PID 1, the init process")
            subs = command.substitutions_in(raw)
            if any(_WHOLE_PS.match(sub.text) and _lists_every_process(sub.script) for sub in subs):
                return _verdict(SHUTDOWN, invocation, "kills every process that ps lists")
        return _daemon(invocation, _looked_up(invocation))
    if name in ("pkill", "killall"):
        return _by_pattern(invocation, name, values)
    return None


def _by_pattern(invocation: Invocation, name: str, values: list[str]) -> Verdict | None:
    """``pkill``/``killall`` (and ``pgrep``'s list when it is killed later, judged as ``pkill``)."""
    words = []
    user = False
    skip = False
    for value in values:
        if skip:
            skip = False
            continue
        if value in ("-u", "--user", "-U", "--uid", "-G", "--group", "-g", "--pgroup", "-s", "--session"):
            skip = True
            user = user or value in ("-u", "--user", "-U", "--uid")
            continue
        if value in ("-t", "--terminal", "-P", "--parent", "-F", "--pidfile", "--signal", "-o", "-y",
                     "--older-than", "--younger-than"):  # fmt: skip
            skip = True
            continue
        if value.startswith("-") and len(value) > 1:
            continue
        words.append(value)
    if user and not words:
        return _verdict(SHUTDOWN, invocation, f"{name} -u kills every process of that user")
    if any(_EVERYTHING.match(w) for w in words) and (
        name == "pkill" or "-r" in values or "--regexp" in values
    ):
        return _verdict(SHUTDOWN, invocation, f"{name} with a pattern that matches every process")
    if name == "pkill" and _full_command_line(values) and any(_shape_only(w) for w in words):
        return _verdict(SHUTDOWN, invocation, "pkill -f with a pattern of a shape, not a name: every "
                        "process started that way (from ./, from /tmp) is killed")  # fmt: skip
    for word in words:
        if word in _VITAL:
            return _verdict(SHUTDOWN, invocation, f"kills {word}, which the machine or session needs")
        if word in _SHELL_UI and any(_KILL_SIGNAL.match(v) for v in values):
            return _verdict(SHUTDOWN, invocation, f"kills {word} with SIGKILL")
    return _daemon(invocation, words)


# -- stopping a system daemon by signalling it -----------------------------------------------

_DAEMONS = frozenset({"cron", "crond", "cronie", "atd", "anacron", "chronyd", "ntpd", "openntpd",
                      "systemd-timesyncd", "NetworkManager", "wpa_supplicant", "dhclient", "dhcpcd",
                      "systemd-networkd", "systemd-resolved", "resolved", "avahi-daemon", "cupsd", "polkitd",
                      "systemd-udevd", "udevd", "devd", "rpcbind", "nscd", "sssd", "snapd", "postfix",
                      "sendmail", "exim4", "exim", "smbd", "nmbd", "named", "unbound", "inetd", "xinetd",
                      "ModemManager", "bluetoothd", "accounts-daemon", "udisksd", "upowerd", "irqbalance",
                      "multipathd", "iscsid", "nfsd", "acpid", "mountd", "lockd", "ntpdate", "containerd",
                      "dockerd", "kubelet", "libvirtd", "haveged", "rngd", "mDNSResponder"})  # fmt: skip
"""The system's own daemons (not the developer's servers): killing one stops a service."""
_PACKAGE_MANAGERS = frozenset({"apt", "apt-get", "aptitude", "dpkg", "yum", "dnf", "rpm", "zypper", "pacman",
                               "unattended-upgrade", "unattended-upgr", "packagekitd"})  # fmt: skip
"""The system's package managers: killed mid-run, they leave its package database half-written."""
_SERVERS = frozenset({"postgres", "postmaster", "mysqld", "mariadbd", "mongod", "nginx", "httpd", "apache2",
                      "redis-server", "memcached", "php-fpm", "slapd", "vsftpd", "proftpd",
                      "dovecot"})  # fmt: skip
"""Servers a developer also runs for themself: a system service only when killed as root."""
_GENTLE = lazy_compile(r"^-(?:s\s*)?(?:SIG)?(?:HUP|USR1|USR2|CONT|WINCH|0|1|10|12|18)$", re.IGNORECASE)
"""Signals that reload, reopen logs or probe (``killall -HUP nginx``): nothing stops."""
_PID_FILE = lazy_compile(r"^/(?:var/)?run/(?:[^/]+/)?([\w.-]+?)(?:\.pid)?$")


def _looked_up(invocation: Invocation) -> list[str]:
    """The names ``kill $(pgrep NAME)``, ``$(pidof NAME)``, ``$(cat /run/NAME.pid)`` look up."""
    names: list[str] = []
    command = invocation.command
    for stages in substituted(command, invocation.args):
        for stage in stages:
            words = _words(_values(stage))
            if stage.name in ("pgrep", "pidof"):
                names += words
            elif stage.name in ("grep", "egrep") and stages[0].name == "ps":
                names += words[:1]
            elif stage.name in ("cat", "head"):
                names += [m.group(1) for m in map(_PID_FILE.match, words) if m]
    return names


def _daemon(invocation: Invocation, names: list[str]) -> Verdict | None:
    values = _values(invocation)
    if any(_GENTLE.match(v) for v in values) or any(
        values[i] in ("-s", "--signal", "-n") and _GENTLE.match("-" + values[i + 1])
        for i in range(len(values) - 1)
    ):
        return None
    as_root = bool({"sudo", "doas", "run0", "pkexec"} & set(invocation.wrappers))
    for name in names:
        bare = name.strip("^$'\"")
        if bare in _DAEMONS or (as_root and bare in _SERVERS):
            return _verdict(SERVICE, invocation, f"stops the system daemon {bare} by killing it")
        if bare in _PACKAGE_MANAGERS and invocation.name != "kill":
            return _verdict(SERVICE, invocation, f"kills the system's package manager ({bare}) mid-run")
    return None


# -- the user's data -------------------------------------------------------------------------

_DATA_DIRS = frozenset({"documents", "desktop", "downloads", "pictures", "music", "movies", "videos",
                        "public", "library", "dropbox", "onedrive", "google drive", "icloud drive",
                        "photos", "mail", ".local", ".config", ".mozilla", ".thunderbird", ".var", "snap",
                        "projects", "code", "src", "workspace", "work", "dev", "git", "repos", "backups",
                        "backup", "notes", "obsidian", "sync", "nextcloud"})  # fmt: skip
"""Folders in a home directory that hold the user's own files (lower case)."""
_DATA_SUBDIRS = frozenset({".local/share", "library/application support", "library/mobile documents",
                           "library/mail", "library/messages", "library/photos", "library/containers",
                           "library/group containers", "library/keychains", ".config/google-chrome",
                           ".mozilla/firefox"})  # fmt: skip
_DATA_SYSTEM = lazy_compile(
    r"^/var/lib/(?:postgresql|pgsql|mysql|mariadb|mongodb|redis|elasticsearch|docker|containers|influxdb|"
    r"cassandra|couchdb|neo4j|clickhouse)(?:/|$)|^/(?:Volumes|media|mnt|run/media)/[^/]+(?:/Backups\.backupdb)?|^/srv(?:/|$)|"
    r"^/home$|^/Users$|^/var/backups?(?:/|$)|^/var/mail(?:/|$)|^/var/www(?:/|$)"
)
_DATA_SYSTEM_STARTS = ("/var/", "/Volumes/", "/media/", "/mnt/", "/run/media/", "/srv", "/home", "/Users")
"""How every :data:`_DATA_SYSTEM` path starts: other paths skip compiling it."""


def user_data(word: str, home: str, cwd: str | None = None) -> str | None:
    """Describe ``word`` if it is a whole folder of the user's own data, or every file in one.

    ``~/Documents``, ``~/Documents/*``, ``~/Pictures/*.jpg``, ``~/.local/share``,
    ``/Volumes/Backup/*``, ``/var/lib/postgresql``; not ``~/Downloads/x.zip`` or
    ``~/.cache``: a single file, or a cache, is not the user's data.
    """
    path = normalize_path(word, home=home, cwd=cwd).rstrip("/") or "/"
    every = ""
    last = path.rsplit("/", 1)[-1]
    if "*" in last or "?" in last or "[" in last or "{}" in last:  # a glob (plain tests: a word may be 10 MB)
        path, every = path.rsplit("/", 1)[0] or "/", "every file in "
    system = _DATA_SYSTEM.match(path) if path.startswith(_DATA_SYSTEM_STARTS) else None
    if system and (path == system.group(0) or every):
        return f"{every}{path}"
    home = home.rstrip("/")
    match = re.match(rf"^(?:{re.escape(home)}|/home/[^/]+|/Users/[^/]+|/root)(?=/|$)", path)
    if match is None:
        return None
    rest = path[match.end() :].lstrip("/")
    if not rest:
        return f"{every}the home directory" if every else None  # the home itself: seed 000's rule
    if rest.lower() in _DATA_DIRS or rest.lower() in _DATA_SUBDIRS:
        return f"{every}~/{rest}"
    return None


_DATA_TREES = ("/srv/", "/var/www/", "/mnt/", "/media/", "/run/media/", "/Volumes/", "/home/", "/Users/")


def data_tree(word: str, home: str, cwd: str | None = None) -> str | None:
    """Describe ``word`` if it is the user's data (:func:`user_data`), the home itself, or a folder of a
    server's, a mount's or a user's data (``/srv/share``, ``/var/www/site``) outside the project: where
    code that walks a tree and encrypts what it finds is ransomware."""
    found = user_data(word, home, cwd) or _home_itself(word, home, cwd)
    if found:
        return found
    path = normalize_path(word, home=home, cwd=cwd).rstrip("/")
    root = (cwd or "").rstrip("/")
    inside = bool(root) and (path == root or path.startswith(root + "/"))
    return path if path.startswith(_DATA_TREES) and not inside else None


_DESTROYERS = frozenset({"rm", "shred", "wipe", "srm", "truncate", "unlink", "ccrypt", "ccencrypt", "gshred",
                         "grm", "trash", "trash-put", "rmdir"})  # fmt: skip
_FIND_DESTROYS = lazy_compile(
    r"^(?:rm|shred|wipe|srm|truncate|unlink|gpg|gpg2|openssl|ccrypt|7z|7za|zip|age|aescrypt|dd|sh|bash|"
    r"mv|gshred|python3?|perl)$"
)
_JUNK = lazy_compile(
    r"\.(?:pyc|pyo|tmp|temp|log|swp|swo|orig|rej|bak|class|o|DS_Store|dmg|iso|pkg|part|crdownload|"
    r"lock)$|~$|__pycache__$|node_modules$|\.cache$|^\.?DS_Store$|^Thumbs\.db$",
    re.IGNORECASE,
)
_DISK_FILLERS = frozenset({"/dev/zero", "/dev/urandom", "/dev/random"})
_DROP_SQL = lazy_compile(r"\bDROP\s+(?:DATABASE|SCHEMA)\b|\bTRUNCATE\s+.*\bCASCADE\b", re.IGNORECASE)
_DISPOSABLE = lazy_compile(r"test|dev|tmp|temp|local|ci\b|example|sandbox|scratch|demo", re.IGNORECASE)
"""Database names a developer drops and recreates (``DROP DATABASE IF EXISTS app_test``)."""
_SQL_CLIENTS = frozenset({"mysql", "mariadb", "psql", "sqlcmd", "clickhouse-client", "cockroach", "mysqlsh",
                          "cqlsh", "sqlplus"})  # fmt: skip


def _destroy(invocation: Invocation, home: str) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    flags = {v for v in values if v.startswith("-")}
    if name in _DESTROYERS:
        if name in ("ccrypt", "ccencrypt") and flags & {"-d", "--decrypt", "-c", "--cat"}:
            return None
        one = _one_file(invocation, home)
        if one is not None:
            return one
        how = {"ccrypt": "encrypts in place", "ccencrypt": "encrypts in place", "truncate": "empties"}.get(
            name, "destroys"
        )
        for value in _words(values):
            what = user_data(value, home, invocation.cwd)
            if what:
                return _verdict(DATA_DESTRUCTION, invocation, f"{name} {how} {what}")
        what = _listed(invocation, home)
        if what:
            return _verdict(DATA_DESTRUCTION, invocation, f"{name} {how} every file find lists under {what}")
        return None
    if name == "find":
        return _find(invocation, home, values)
    if name in ("zip", "7z", "7za", "7zz", "rar", "tar", "gtar", "bsdtar"):
        deletes = (
            (name == "zip" and any(v.startswith("-") and not v.startswith("--") and "m" in v for v in values))
            or (name.startswith("7z") and "-sdel" in values)
            or (name == "rar" and bool(flags & {"-df", "m", "mf"}))
            or "--remove-files" in values
        )
        if deletes:
            for value in _words(values):
                what = user_data(value, home, invocation.cwd)
                if what:
                    return _verdict(
                        DATA_DESTRUCTION, invocation, f"{name} packs {what} and deletes the originals"
                    )
        return None
    if name == "tmutil" and _words(values)[:1] in (["delete"], ["deletelocalsnapshots"], ["disable"]):
        return _verdict(DATA_DESTRUCTION, invocation, "deletes Time Machine backups")
    if name in ("vssadmin", "wbadmin") and "delete" in [v.lower() for v in values]:
        return _verdict(DATA_DESTRUCTION, invocation, "deletes the system's backups")
    return _databases(invocation, values)


_SCRATCH = ("/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/", "/private/var/folders/", "/var/folders/")
_SYSTEM_DATA = lazy_compile(r"^/(?:etc|var|srv|opt|root|home|Users|Volumes|mnt|media|run/media|usr/local)/")
_NOT_DATA = lazy_compile(r"^\.(?:cache|npm|yarn|pnpm-store|cargo/registry|rustup|gradle/caches|m2/repository|"
                         r"local/share/Trash|Trash)(?:/|$)")  # fmt: skip


def users_file(word: str, home: str, cwd: str | None, *, scratch: bool = False) -> str | None:
    """Describe ``word`` if it is a file of the user's or the system's outside the project.

    The project is the working directory (a relative path is in it); the home
    directory's other files, another user's, ``/etc``, ``/var`` ... are not.
    The scratch directories (``/tmp``) count only when ``scratch`` is set.
    """
    if not word or word.startswith("-") or word.startswith("/dev/"):
        return None
    path = normalize_path(word, home=home, cwd=cwd)
    if not path.startswith("/") or (cwd is None and not word.startswith(("/", "~", "$HOME", "${HOME}"))):
        return None  # relative, working directory unknown: the project's
    if cwd is not None and (path == cwd.rstrip("/") or path.startswith(cwd.rstrip("/") + "/")):
        return None
    if path.startswith(_SCRATCH) or path in ("/tmp", "/var/tmp"):
        return path if scratch else None
    home = home.rstrip("/")
    if path.startswith(home + "/"):
        rest = path[len(home) + 1 :]
        return None if _NOT_DATA.match(rest) else f"~/{rest}"
    return path if _SYSTEM_DATA.match(path) else None


_WIPERS = frozenset({"shred", "gshred", "wipe", "srm"})
_IN_PLACE = frozenset({"ccrypt", "ccencrypt"})
_CCRYPT_VALUES = frozenset(
    {"-K", "--key", "-k", "--keyfile", "-E", "--envvar", "-S", "--suffix", "-H", "--key2"}
)


def _one_file(invocation: Invocation, home: str) -> Verdict | None:
    """One file of the user's, outside the project, overwritten (shred) or encrypted in place (ccencrypt)."""
    name = invocation.name
    if name not in _WIPERS and name not in _IN_PLACE:
        return None
    values = _values(invocation)
    for index, value in enumerate(values):
        if value.startswith("-") or (index and values[index - 1] in _CCRYPT_VALUES and name in _IN_PLACE):
            continue
        what = users_file(value, home, invocation.cwd, scratch=name in _IN_PLACE)
        if what:
            how = (
                "encrypts in place, with a key the user does not hold," if name in _IN_PLACE else "overwrites"
            )
            return _verdict(DATA_DESTRUCTION, invocation, f"{name} {how} {what}, outside the project")
    return None


# -- encrypting the user's files -------------------------------------------------------------

_GPG_VALUES = frozenset({"-r", "--recipient", "-R", "--hidden-recipient", "-o", "--output", "-u",
                         "--local-user",
                         "--passphrase", "--passphrase-file", "--passphrase-fd", "--homedir", "--cipher-algo",
                         "--compress-algo", "-z", "--default-key", "--pinentry-mode", "--trust-model",
                         "--s2k-cipher-algo", "--s2k-digest-algo", "--s2k-mode", "--s2k-count", "-f",
                         "--recipient-file", "--set-filename", "--comment"})  # fmt: skip
_AGE_VALUES = frozenset(
    {"-o", "--output", "-r", "--recipient", "-R", "--recipients-file", "-i", "--identity"}
)
_ZIP_VALUES = frozenset({"-P", "--password", "-b", "-n", "-t", "-tt", "-x", "-i", "-Z", "-O", "--out"})
_OPENSSL_CIPHER = lazy_compile(r"^-(?:aes|des|chacha|camellia|bf|cast|rc[245]|sm4|aria|seed|id-aes)|"
                               r"^-(?:k|kfile|K|pass|pbkdf2|iter|salt|S)$", re.IGNORECASE)  # fmt: skip
_OPENSSL_CIPHER_COMMAND = lazy_compile(
    r"^(?:aes|des|chacha|camellia|bf|cast|rc[245]|sm4|aria|seed)", re.IGNORECASE
)


def _encrypted_inputs(invocation: Invocation) -> list[str]:
    """The files a command encrypts in place or beside themselves (empty when it decrypts, lists, or does
    not encrypt). ``gpgtar --encrypt -o OUT DIR`` packs DIR into a new encrypted archive and leaves it as
    it was: a backup, as ``tar … | gpg -e`` is (what deletes DIR afterwards is judged on its own)."""
    name = invocation.name
    values = _values(invocation)
    flags = {v for v in values if v.startswith("-")}
    # gpg -c $(find ~ -type f): the files are a substitution's output, judged by what it lists
    unseen = ["$(…)"] if len(values) < len(invocation.args) else []
    if name in ("gpg", "gpg2"):
        short = {c for v in flags if not v.startswith("--") for c in v[1:]}
        if flags & {"-d", "--decrypt", "--list-packets", "--verify"} or not (
            {"c", "e"} & short or flags & {"--symmetric", "--encrypt"}
        ):
            return []
        return _positionals(values, _GPG_VALUES) or unseen
    if name == "openssl":
        words = _words(values)
        sub = words[0] if words else ""
        cipher = sub == "enc" and any(_OPENSSL_CIPHER.match(v) for v in flags)
        if not (cipher or _OPENSSL_CIPHER_COMMAND.match(sub) or (sub == "smime" and "-encrypt" in flags)):
            return []
        if "-d" in flags or "-decrypt" in flags:
            return []
        inputs = [values[i + 1] for i in range(len(values) - 1) if values[i] in ("-in", "--in")]
        inputs += [v for v in (invocation.command.static(r.target) for r in invocation.command.redirects
                               if r.op == "<") if v]  # fmt: skip
        return inputs
    if name in ("age", "rage"):
        if flags & {"-d", "--decrypt", "--help", "-h"}:
            return []
        return _positionals(values, _AGE_VALUES) or unseen
    if name in ("7z", "7za", "7zz", "rar"):
        words = _words(values)
        locked = any(v.startswith(("-p", "-hp")) for v in flags)
        return words[2:] if locked and words[:1] == ["a"] else []
    if name == "zip":
        locked = bool(flags & {"-e", "--encrypt", "-P", "--password"}) or any(
            v.startswith("-") and not v.startswith("--") and "e" in v for v in flags
        )
        files = _positionals(values, _ZIP_VALUES)
        return files[1:] if locked else []
    if name in ("aescrypt", "scrypt") and ("-e" in flags or _words(values)[:1] == ["enc"]):
        return [w for w in _positionals(values, frozenset({"-p", "-o", "-k"})) if w != "enc"]
    return []


_ARCHIVE = lazy_compile(r"\.(?:tar|tgz|tbz2?|txz|tzst|tar\.(?:gz|bz2|xz|zst|lz4|lzma))$", re.IGNORECASE)
_OUTPUT_OPTIONS = frozenset({"-o", "--output", "-out"})


def _backup_archive(value: str, invocation: Invocation) -> bool:
    """A tar archive encrypted into a new file: a backup script's step (``tar czf ~/b.tar.gz …;
    gpg -c ~/b.tar.gz``); ransomware's archive is lost only to a removal, judged on its own.
    Encrypted onto itself (``-o`` the same file) it is no backup."""
    if not _ARCHIVE.search(value):
        return False
    values = _values(invocation)
    return not any(values[i] in _OUTPUT_OPTIONS and values[i + 1] == value for i in range(len(values) - 1))


def _encrypt(invocation: Invocation, home: str) -> Verdict | None:
    """A file of the user's outside the project encrypted: ransomware's step (or staging for theft);
    the files a search of the home directory or the whole disk lists (``for f in $(find / -name
    '*.sql'); do openssl enc … -in $f``) likewise."""
    inputs = _encrypted_inputs(invocation)
    for value in inputs:
        what = users_file(value, home, invocation.cwd)
        if what and not _backup_archive(value, invocation):
            return _verdict(
                DATA_DESTRUCTION,
                invocation,
                f"{invocation.name} encrypts {what}, the user's file outside the project",
            )
    what = _listed(invocation, home, disk=True) if inputs else None
    if what:
        return _verdict(
            DATA_DESTRUCTION, invocation, f"{invocation.name} encrypts every file find lists under {what}"
        )
    return None


# -- filling the disk, mining ----------------------------------------------------------------

_FREE_SPACE_WIPERS = frozenset({"sfill", "sswap"})
_ENDLESS = frozenset({"/dev/zero", "/dev/urandom", "/dev/random"})


def _fill(invocation: Invocation, home: str) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    if name in _FREE_SPACE_WIPERS:
        for word in _words(values):
            where = _home_itself(word, home, invocation.cwd) or (
                "the system disk" if normalize_path(word, home=home) in ("/", "/var", "/tmp") else None
            )
            if where:
                return _verdict(DATA_DESTRUCTION, invocation, f"{name} overwrites the free space of {where}")
    if name == "dd":
        return _dd_fill(invocation, values)
    if name in ("fallocate", "mkfile", "xfs_mkfile"):
        return _allocates(invocation, values)
    endless = (name == "cat" and bool(_ENDLESS & set(values))) or name == "yes"
    size = _head_bytes(values) if name == "head" else None
    if not endless and (size is None or size < DISK_FILL_LIMIT):
        return None
    target = _file_written(invocation)
    if target is None:
        return None
    if endless:
        return _verdict(DATA_DESTRUCTION, invocation, f"writes {target} without end, until the disk is full")
    return _verdict(DATA_DESTRUCTION, invocation, f"writes {_shown(size or 0)} to {target}: {_FILLS}")


_FILLS = f"{DISK_FILL_LIMIT // 2**30} GiB or more fills the disk"


def _shown(size: int) -> str:
    return f"{size / 2**30:.4g} GiB"


def _file_written(invocation: Invocation) -> str | None:
    """The file the command's output is redirected into (not a device: ``> /dev/null``), if any."""
    command = invocation.command
    for redirect in command.redirects:
        target = command.static(redirect.target) if redirect.op in WRITE_OPERATORS else None
        if target and not target.startswith("/dev/") and not target.isdigit():
            return target
    return None


def _head_bytes(values: list[str]) -> int | None:
    """How many bytes ``head -c N`` (``-cN``, ``--bytes=N``) copies out of nothing: from ``/dev/zero``
    (``/dev/urandom``) or its standard input (``yes | head -c N``); a real file holds only so much."""
    size: int | None = None
    files: list[str] = []
    index = 0
    while index < len(values):
        value = values[index]
        if value in ("-c", "--bytes", "-n", "--lines") and index + 1 < len(values):
            size = size_in_bytes(values[index + 1]) if value in ("-c", "--bytes") else size
            index += 2
            continue
        if value.startswith("--bytes="):
            size = size_in_bytes(value.partition("=")[2])
        elif value.startswith("-c") and len(value) > 2:
            size = size_in_bytes(value[2:])
        elif not value.startswith("-") or value == "-":
            files.append(value)
        index += 1
    return size if all(f in _ENDLESS or f == "-" for f in files) else None


def _dd_fill(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``dd if=/dev/zero of=FILE``: with no count it writes until the disk is full; with one, ``bs``
    times ``count`` bytes (``iflag=count_bytes``: ``count`` bytes), held back above the limit."""
    operands = dict(v.partition("=")[::2] for v in values if "=" in v)
    source, target = operands.get("if", ""), operands.get("of", "")
    if source not in _DISK_FILLERS or not target or target.startswith("/dev/"):
        return None
    if "count" not in operands:
        return _verdict(DATA_DESTRUCTION, invocation, f"fills the disk from {source}, with no count")
    count = size_in_bytes(operands["count"])
    block = size_in_bytes(operands.get("bs") or operands.get("ibs") or "512")
    if count is None or block is None:
        return None
    size = count if "count_bytes" in operands.get("iflag", "") else count * block
    if size < DISK_FILL_LIMIT:
        return None
    return _verdict(
        DATA_DESTRUCTION, invocation, f"writes {_shown(size)} from {source} to {target}: {_FILLS}"
    )


def _allocates(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``fallocate -l 100G FILE``, ``mkfile 100g FILE`` (macOS; ``-n``: sparse, no space taken)."""
    if invocation.name == "fallocate":
        if {"-p", "--punch-hole", "-d", "--dig-holes", "-c", "--collapse-range"} & set(values):
            return None  # these free space
        lengths = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-l", "--length")]
        lengths += [v[2:] for v in values if v.startswith("-l") and len(v) > 2]
        lengths += [v.partition("=")[2] for v in values if v.startswith("--length=")]
    else:
        if "-n" in values:
            return None
        lengths = [v for v in values if not v.startswith("-")][:1]
    size = max((s for s in map(size_in_bytes, lengths) if s is not None), default=0)
    if size < DISK_FILL_LIMIT:
        return None
    return _verdict(DATA_DESTRUCTION, invocation, f"allocates {_shown(size)} on the disk: {_FILLS}")


_MINERS = lazy_compile(
    r"^(?:xmrig(?:-\w+)?|xmr-stak(?:-\w+)?|minerd|cpuminer(?:-\w+)?|cgminer|bfgminer|sgminer|ccminer|ethminer|"
    r"t-rex|nbminer|lolminer|phoenixminer|gminer|miner|teamredminer|nanominer|srbminer(?:-multi)?|xmrminer|"
    r"nheqminer|claymore\w*|kdevtmpfsi|kinsing|xmrigdaemon|wildrig|bzminer|rigel|onezerominer)"
    r"(?:\.exe|\.sh)?$",
    re.IGNORECASE,
)
_MINER_PARTS = ("miner", "xmr", "rig", "t-rex", "claymore", "kdevtmpfsi", "kinsing")
"""A part of every name :data:`_MINERS` matches: other programs skip compiling it."""


def is_miner(name: str) -> bool:
    """Whether ``name`` is a cryptocurrency miner's program (``xmrig``, ``cpuminer-opt``, ``minerd.sh``)."""
    if name.isascii() and not any(part in name.lower() for part in _MINER_PARTS):
        return False  # on ASCII, lower() is what IGNORECASE ignores
    return _MINERS.match(name) is not None


_POOL = lazy_compile(r"stratum\d?\+(?:tcp|ssl|tls|udp)://|stratum://", re.IGNORECASE)
_MINER_OPTION = lazy_compile(r"^(?:--donate-level(?:=|$)|--coin=|--algo=(?:rx/|cn/|kawpow|ethash|randomx)|"
                             r"-a=?(?:rx/|cryptonight|randomx)|--cpu-max-threads-hint(?:=|$)|"
                             r"--max-cpu-usage(?:=|$)|--randomx-1gb-pages$|--randomx-mode(?:=|$)|"
                             r"--cpu-priority(?:=|$)|--nicehash$)", re.IGNORECASE)  # fmt: skip
"""Options only XMRig and its forks have: a miner under another name (``kworker --donate-level 1``)."""
_MINER_DIR = lazy_compile(r"(?:^|/)(?:moneroocean|c3pool)/", re.IGNORECASE)
"""The directories the miners' own setup scripts install into (``$HOME/moneroocean/miner.sh``)."""
_MINING_MSRS = frozenset({"0x1a4", "0xc0011020", "0xc0011021", "0xc0011022", "0xc001102b"})
"""The prefetch registers XMRig's RandomX boost rewrites (``wrmsr -a 0xc001102b …``)."""
_WALLET = lazy_compile(r"[48][1-9A-HJ-NP-Za-km-z]{94}(?:[1-9A-HJ-NP-Za-km-z]{11})?(?:[.+/:].*)?")
"""A Monero address (95 characters; 106 integrated), perhaps with a pool's worker or difficulty suffix."""
_WALLET_IN_TEXT = lazy_compile(
    r"(?<![1-9A-HJ-NP-Za-km-z])[48][1-9A-HJ-NP-Za-km-z]{94}(?:[1-9A-HJ-NP-Za-km-z]{11})?(?![1-9A-HJ-NP-Za-km-z])"
)


def names_wallet(text: str) -> bool:
    """Whether ``text`` holds a Monero address (a miner's wallet)."""
    return len(text) >= 95 and _WALLET_IN_TEXT.search(text) is not None


_MINER_IMAGE = lazy_compile(r"(?:^|/)(?:xmrig|xmr-stak|cpuminer|minerd|monero-miner)(?::|$)", re.IGNORECASE)


def _miner(invocation: Invocation) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    if is_miner(name) and not (set(values) <= {"--help", "-h", "--version", "-V"} and values):
        return _verdict(RESOURCE_HIJACK, invocation, f"{name} mines cryptocurrency with this machine")
    script = _run_script(invocation, values)
    if script and (is_miner(script.rsplit("/", 1)[-1]) or _MINER_DIR.search(script)):
        return _verdict(RESOURCE_HIJACK, invocation, f"runs {script}, a cryptocurrency miner's start script")
    if name == "wrmsr" and _MINING_MSRS & {v.lower() for v in values}:
        why = "rewrites the CPU's prefetch registers for a RandomX miner"
        return _verdict(RESOURCE_HIJACK, invocation, why)
    # Each miner option starts with -- or -a: checked first, the pattern is costly to compile.
    if any(v[:2] in ("--", "-a", "-A") and _MINER_OPTION.match(v) for v in values) or any(
        "stratum" in v.lower() and _POOL.search(v) for v in values
    ):
        return _verdict(RESOURCE_HIJACK, invocation, "points a miner at a mining pool (stratum)")
    if _writes_wallet(invocation, values):
        why = "edits a Monero wallet into files: the miners there made to pay it"
        return _verdict(RESOURCE_HIJACK, invocation, why)
    if _pays_a_wallet(values):
        return _verdict(RESOURCE_HIJACK, invocation, "logs in to a mining pool with a Monero wallet (-u)")
    algorithm = _mining_algorithm(values, short=name not in _SHORT_A_FLAGS)
    if algorithm is not None:
        why = f"mines with the {algorithm} proof-of-work algorithm, whatever the program is called"
        return _verdict(RESOURCE_HIJACK, invocation, why)
    if name in ("docker", "podman", "nerdctl") and any(_MINER_IMAGE.search(v) for v in _words(values)):
        return _verdict(RESOURCE_HIJACK, invocation, "runs a cryptocurrency miner's image")
    fetched = None if name in _URL_SHOWERS else next(filter(None, map(_miner_release, values)), None)
    if fetched is not None:
        return _verdict(RESOURCE_HIJACK, invocation, f"fetches {fetched}, a cryptocurrency miner")
    return None


_URL_SHOWERS = frozenset({"echo", "printf", "print", "open", "xdg-open", "grep", "rg", "sed", "awk"})
"""Programs that show, open in a browser or search for a URL: nothing is fetched to run."""
_RELEASE_TAIL = lazy_compile(
    r"[-_.](?=v?\d|linux|lin64|static|x64|x86|amd64|arm|aarch64|win|mac|freebsd|bin\b|tar\b|zip\b|tgz\b|gz\b|xz\b)"
)
"""Where a release file's name ends and its version, platform or archive begins (``xmrig-6.21.0-linux``)."""
_FORGES = frozenset(
    {"github.com", "raw.githubusercontent.com", "gitlab.com", "codeberg.org", "bitbucket.org"}
)
_MINER_OWNERS = frozenset({"xmrig", "moneroocean", "c3pool"})


def _miner_release(value: str) -> str | None:
    """The miner a URL fetches: a release named for one (``…/xmrig-6.21.0-linux-static-x64.tar.gz``,
    ``lolMiner_v1.88_Lin64.tar.gz``), a file of a miner's directory (``http://IP/xmrig/busybox``) or a
    miner's repository on a forge (``github.com/xmrig/xmrig``)."""
    if "://" not in value[:10] or not URL.match(value):
        return None
    host, _, path = value.split("://", 1)[1].partition("/")
    segments = [s for s in path.split("?", 1)[0].split("#", 1)[0].split("/") if s]
    if not segments:
        return None
    for segment in reversed(segments):  # …/xmrig/processhider.so: a miner's kit, file by file
        if is_miner(_RELEASE_TAIL.split(segment, maxsplit=1)[0]):
            return segment if segment == segments[-1] else "/".join(segments)
    if host.lower().partition(":")[0].removeprefix("www.") in _FORGES and len(segments) >= 2:
        owner, repo = segments[0], segments[1].removesuffix(".git")
        if is_miner(repo) or owner.lower() in _MINER_OWNERS:
            return f"{owner}/{repo}"
    return None


def _writes_wallet(invocation: Invocation, values: list[str]) -> bool:
    """``sed -i 's/"user": .*/"user": "4…"/' config.json``: a wallet edited into files in place, as
    droppers rewrite the miners they find to pay them (a wallet merely written down is no mining)."""
    in_place = invocation.name in ("sed", "gsed", "perl") and any(
        v.startswith(("-i", "--in-place")) or (v[:1] == "-" and "i" in v[1:] and v[1:].isalpha())
        for v in values
    )
    return in_place and any(names_wallet(v) for v in values)


_ALGORITHM_OPTIONS = frozenset({"--algo", "--algorithm"})
_SHORT_A_FLAGS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "git", "ls", "cp", "mv", "rsync",
                            "tar", "echo", "printf", "cat", "diff", "sort", "uniq", "ps", "uname", "touch",
                            "tee", "tail", "head", "which", "type", "file", "du", "df", "wc", "sed", "awk",
                            "zip", "unzip", "usermod", "chattr", "lsattr", "strings", "ss", "netstat", "find",
                            "xargs"})  # fmt: skip
"""Programs whose ``-a`` is a flag of its own (``grep -a ethash log``): the word after it is no algorithm."""
_MINING_ALGORITHM = lazy_compile(
    r"^(?:yescrypt\w*|yespower\w*|minotaurx?|ghostrider|kawpow|firopow|progpow\w*|ethash|etchash|"
    r"randomx|rx/\w+|cn(?:-\w+)?/\w+|cryptonight\w*|panthera|verushash|autolykos\w*|x16r\w*|x25x|lyra2\w*|"
    r"k?heavyhash|equihash\w*|zelhash|beamhash\w*|cuckatoo\w*|cuckaroo\w*|karlsenhash|nexapow|astrobwt\w*|"
    r"argon2d\w+|power2b)$",
    re.IGNORECASE,
)
"""Proof-of-work algorithms only coin miners compute (cpuminer-opt's ``-a yescryptr32``, SRBMiner's
``--algorithm ghostrider``, XMRig's ``-a rx/0``); plain hashes a developer names (``sha256``, ``scrypt``,
``argon2id``, ``blake3``) are not among them."""


def _mining_algorithm(values: list[str], *, short: bool) -> str | None:
    """``./sgr1 --algorithm yescryptr32 --pool …``, ``./avv -a minotaurx``: a miner renamed, known by the
    proof-of-work algorithm it is told to compute (``-a``/``--algo``/``--algorithm``)."""
    for index, value in enumerate(values):
        option, equals, attached = value.partition("=")
        if option not in _ALGORITHM_OPTIONS and not (short and option == "-a"):
            continue
        given = attached if equals else values[index + 1] if index + 1 < len(values) else ""
        if _MINING_ALGORITHM.match(given):
            return given
    return None


def _pays_a_wallet(values: list[str]) -> bool:
    """``./job -o pool.hashvault.pro:443 -u 47xS… -k --tls``: XMRig's pool login (``-u``/``--user``) is a
    Monero wallet, whatever the program is called (malware renames the miner; the wallet stays)."""
    for index, value in enumerate(values):
        option, equals, attached = value.partition("=")
        if option in ("-u", "--user", "--username"):
            given = attached if equals else values[index + 1] if index + 1 < len(values) else ""
        elif value.startswith("-u") and not value.startswith("--"):
            given = value[2:]
        else:
            continue
        if _WALLET.fullmatch(given):
            return True
    return False


def _run_script(invocation: Invocation, values: list[str]) -> str | None:
    """The script file a shell runs (``bash $HOME/moneroocean/miner.sh``), if it runs one."""
    if invocation.name not in SHELLS:
        return None
    for value in values:
        if value in ("-c", "-s") or value.startswith("-c"):
            return None
        if not value.startswith(("-", "+")):
            return value
    return None


def _listed(invocation: Invocation, home: str, *, disk: bool = False) -> str | None:
    """``rm $(find ~ -type f)``, ``for f in $(find ~ ...); do rm "$f"``: the files a search lists (of the
    whole disk too when ``disk`` is set: ``find / -name '*.sql'``)."""
    command = invocation.command
    for stages in substituted(command, invocation.args):
        lister = stages[0]
        if lister.name not in ("find", "ls", "locate", "fd", "fdfind"):
            continue
        for value in _words(_values(lister)):
            what = user_data(value, home, lister.cwd) or _home_itself(value, home, lister.cwd)
            what = what or (_whole_disk(value, home, lister.cwd) if disk else None)
            if what:
                return what
    return None


def _home_itself(word: str, home: str, cwd: str | None) -> str | None:
    path = normalize_path(word, home=home, cwd=cwd).rstrip("/")
    pattern = rf"{re.escape(home.rstrip('/'))}|/home|/Users|/home/[^/]+|/Users/[^/]+|/root"
    return "the home directory" if re.fullmatch(pattern, path) else None


def _whole_disk(word: str, home: str, cwd: str | None) -> str | None:
    """``find / ... -exec``: every file on the machine, the user's among them."""
    return "the whole disk" if normalize_path(word, home=home, cwd=cwd).rstrip("/") == "" else None


def _datastore(word: str, home: str, cwd: str | None) -> str | None:
    """``find /vmfs/volumes -name '*.vmsn' -delete``: an ESXi datastore, every guest's disks on it."""
    path = normalize_path(word, home=home, cwd=cwd).rstrip("/")
    return "an ESXi datastore" if path == _DATASTORE or path.startswith(_DATASTORE + "/") else None


def _shell_code(run: list[str]) -> bool:
    """Whether ``find -exec`` runs a shell on code of the line (``sh -c 'CODE' _ {}``): the code is judged
    on its own with ``{}`` for its ``$1`` (``programs.shell_mode``), not as an unknown script. Code that
    writes over an argument (``: > "$1"``) stays the search's to judge: ``{}`` stands for the starting
    directory, which a redirection cannot overwrite."""
    return (
        len(run) > 2
        and run[0].rsplit("/", 1)[-1] in SHELLS
        and run[1].startswith("-")
        and not run[1].startswith("--")
        and run[1].endswith("c")
        and not _WRITES_ARGUMENT.search(run[2])
    )


_WRITES_ARGUMENT = lazy_compile(r">\|?\s*[\"']?\$\{?[0-9@*]")
"""A redirection onto a positional parameter (``> "$1"``, ``>| $0``)."""


def _find(invocation: Invocation, home: str, values: list[str]) -> Verdict | None:
    starts = []
    for value in values:
        if value.startswith(("-", "(", "!", ")")):
            break
        starts.append(value)
    destroys = "-delete" in values or any(
        value in ("-exec", "-execdir", "-ok", "-okdir")
        and index + 1 < len(values)
        and _FIND_DESTROYS.match(values[index + 1].rsplit("/", 1)[-1])
        and not _shell_code(values[index + 1 :])
        for index, value in enumerate(values)
    )
    if not destroys:
        return None
    names = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-name", "-iname", "-path", "-ipath")]
    if names and all(_JUNK.search(n.strip("*")) for n in names):
        return None  # find ~ -name '*.pyc' -delete: litter, not the user's files
    for start in starts or ["."]:
        what = (
            user_data(start, home, invocation.cwd)
            or _home_itself(start, home, invocation.cwd)
            or _whole_disk(start, home, invocation.cwd)
            or _datastore(start, home, invocation.cwd)
        )
        if what:
            return _verdict(
                DATA_DESTRUCTION, invocation, f"deletes, overwrites or encrypts the files under {what}"
            )
    return None


_DROPDB_VALUE_OPTIONS = frozenset({"-h", "--host", "-p", "--port", "-U", "--username", "--maintenance-db"})
_MYSQLADMIN_VALUE_OPTIONS = frozenset({"-h", "--host", "-P", "--port", "-u", "--user", "-S", "--socket",
                                       "--defaults-file", "--login-path", "-c", "--count", "-i",
                                       "--sleep"})  # fmt: skip


_PRODUCTION = lazy_compile(r"(?:^|[^a-z0-9])(?:prod|production|prd|live)(?:$|[^a-z0-9])", re.IGNORECASE)
"""Database names with a word that says they hold production data (``production``, ``shop_prod``,
``app-live``; not ``product_catalog`` or ``liveness``)."""


def _dropped_by_client(name: str, values: list[str]) -> str | None:
    """The database a client's drop command names: ``dropdb NAME`` (PostgreSQL), ``mysqladmin drop NAME``.
    One named database dropped is a developer resetting theirs (``dropdb mydb``, as ``FLUSHDB`` of one
    Redis database runs); one whose name says it is production's is not (``dropdb production``, as
    ``psql -c 'DROP DATABASE production'``). ``FLUSHALL`` empties every database of the server."""
    if name == "dropdb":
        skip = _DROPDB_VALUE_OPTIONS
    elif name in ("mysqladmin", "mariadb-admin"):
        skip = _MYSQLADMIN_VALUE_OPTIONS
    else:
        return None
    positional = [
        v for i, v in enumerate(values) if not v.startswith("-") and not (i and values[i - 1] in skip)
    ]
    if name == "dropdb":
        return positional[-1] if positional else None
    verbs = [v.lower() for v in positional]
    return positional[verbs.index("drop") + 1] if "drop" in verbs[:-1] else None


_DROPPED_SQL = lazy_compile(
    r"\bDROP\s+(?:DATABASE|SCHEMA)\s+(?:IF\s+EXISTS\s+)?([`\"\[]?[^\s;,`\"\]]*)", re.IGNORECASE
)


def _production_target(words: list[str]) -> str | None:
    """The first word that says production (a database, a host, a URL): ``shop_prod``, ``db.prod.x``."""
    return next((w for w in words if _PRODUCTION.search(w) and not w.startswith("-")), None)


def _dropped_in_sql(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``psql -c 'DROP DATABASE NAME'`` judged as ``dropdb NAME`` is: one database a developer resets runs;
    one whose name, or the server or database the client connects to, says production is blocked, and so
    are several dropped at once and a ``TRUNCATE … CASCADE`` of what is not marked disposable."""
    text = " ".join(values)
    names = [m.group(1) or "?" for m in _DROPPED_SQL.finditer(text)]
    kept = [n for n in names if not _DISPOSABLE.search(n)]
    sql = [v for v in values if _DROP_SQL.search(v)]
    target = _production_target([*kept, *(v for v in values if v not in sql)]) if kept else None
    if target is not None:
        return _verdict(DATA_DESTRUCTION, invocation, f"drops a production database or schema ({target})")
    if len(kept) > 1:
        return _verdict(DATA_DESTRUCTION, invocation, f"drops {len(kept)} databases or schemas at once")
    truncated = _DROP_SQL.search(text) if not names else None
    if truncated and not _DISPOSABLE.search(text[truncated.end() : truncated.end() + 80].split(";", 1)[0]):
        return _verdict(DATA_DESTRUCTION, invocation, "truncates tables and all that refers to them")
    return None


def _databases(invocation: Invocation, values: list[str]) -> Verdict | None:
    """Dropping a whole database or schema, flushing every Redis database, a bucket deleted."""
    name = invocation.name
    text = " ".join(values)
    words = _words(values)
    if name in _SQL_CLIENTS:
        verdict = _dropped_in_sql(invocation, values)
        if verdict is not None:
            return verdict
    dropped_name = _dropped_by_client(name, values)
    if dropped_name is not None and not _DISPOSABLE.search(dropped_name):
        target = _production_target([dropped_name, *values])
        if target is not None:
            return _verdict(DATA_DESTRUCTION, invocation, f"drops a production database ({target})")
    if name in ("redis-cli", "valkey-cli", "keydb-cli") and "flushall" in [w.lower() for w in words]:
        return _verdict(DATA_DESTRUCTION, invocation, "deletes every key in every Redis database")
    if name in ("mongo", "mongosh") and re.search(r"dropDatabase\s*\(|\.drop\s*\(\s*\)", text):
        return _verdict(DATA_DESTRUCTION, invocation, "drops a MongoDB database")
    if (
        name == "aws"
        and words[:2] in (["s3", "rm"], ["s3", "rb"])
        and ("--recursive" in values or "--force" in values)
    ):
        return _verdict(DATA_DESTRUCTION, invocation, "deletes a whole S3 bucket or prefix")
    if name == "gsutil" and "rm" in words and any(f in values for f in ("-r", "-R", "-a")):
        return _verdict(DATA_DESTRUCTION, invocation, "deletes a whole Cloud Storage bucket or prefix")
    if name == "gcloud" and words[:2] == ["storage", "rm"] and ("-r" in values or "--recursive" in values):
        return _verdict(DATA_DESTRUCTION, invocation, "deletes a whole Cloud Storage bucket or prefix")
    if name == "rclone" and words[:1] in (["purge"], ["delete"]):
        return _verdict(DATA_DESTRUCTION, invocation, "deletes a whole remote with rclone")
    if name == "az" and words[:3] == ["storage", "blob", "delete-batch"]:
        return _verdict(DATA_DESTRUCTION, invocation, "deletes every blob in an Azure container")
    if name == "git" and words[:1] == ["push"]:
        refs = words[2:] if len(words) > 2 else []
        deleted = [r[1:] for r in refs if r.startswith(":")]
        if "--delete" in values or "-d" in values:
            deleted += refs
        if any(
            ref.removeprefix("refs/heads/") in ("main", "master", "trunk", "production", "prod")
            for ref in deleted
        ):
            return _verdict(DATA_DESTRUCTION, invocation, "deletes the remote's main branch")
    code = inline_code(invocation) if name in ("mongo", "mongosh") else None
    if code and "dropDatabase" in code:
        return _verdict(DATA_DESTRUCTION, invocation, "drops a MongoDB database")
    return None


# -- the judge -----------------------------------------------------------------------------


_DELETERS = frozenset({"rm", "unlink", "shred", "gshred", "srm", "wipe", "grm"})
_OS_FILES = lazy_compile(r"^/(?:etc|usr/(?!local(?:/|$))[^/]+|lib(?:32|64|x32)?|boot|bin|sbin|System)/.")
"""The operating system's own files: its configuration and what its packages installed (not /usr/local)."""


def _deletes_system(invocation: Invocation, home: str) -> Verdict | None:
    """``rm -f /etc/phpguard``, ``rm -rf /usr/share/[crypto]``: a file of the operating system deleted.

    The places table holds the files whose change is a tactic (cron, profiles, logs); any
    other file in /etc or under /usr is the system's or a package's, and deleting it breaks
    what reads it (malware deletes its rivals' and the defenses' files there).
    """
    if invocation.name not in _DELETERS:
        return None
    program = looked_up_program(invocation)
    if program is not None:
        return _verdict(SYSTEM_FILES, invocation, f"deletes the program {program} wherever the PATH finds it")
    for value in _values(invocation):
        if value.startswith("-"):
            continue
        path = normalize_path(value, home=home, cwd=invocation.cwd)
        if path.startswith(("/private/etc/", "/private/var/")):
            path = path[len("/private") :]
        if _OS_FILES.match(path):
            return _verdict(SYSTEM_FILES, invocation, f"deletes {path}, a file of the operating system")
    return None


_SHARED_DIRS = frozenset({"/tmp", "/var/tmp", "/dev/shm", "/private/tmp", "/private/var/tmp"})
"""Directories every user and running program share: sockets, locks, other sessions' work."""
_EVERY_NAME = lazy_compile(r"\*|\.\*|\*\.\*|\{\*,\.\*\}|\{\.\*,\*\}|\.\[!.\]\*|\.\?\*")
"""A last path segment that names every file (``*``, ``.*``, ``{*,.*}``), not some (``*.log``)."""
_SHARED_WHY = "which every user and running program share (sockets, locks, other sessions' files)"
_WIPE_RM = frozenset({"rm", "grm", "shred", "gshred", "srm", "wipe", "trash", "trash-put"})


def _shared_wipe(invocation: Invocation, home: str) -> Verdict | None:
    """``rm -rf /tmp/*``, ``rm -fr /var/tmp/``, ``find /tmp -mindepth 1 -delete``: everything in a shared
    directory deleted (malware clears out its rivals so; a person may clean up so, now and then).

    One file or a pattern (``/tmp/*.lock``, ``/tmp/build``) is left alone, as is a tool's directory.
    """
    name = invocation.name
    values = _values(invocation)
    if name in _WIPE_RM:
        recursive = any(
            v in ("--recursive", "-R") or (v.startswith("-") and not v.startswith("--") and "r" in v)
            for v in values
        )
        for value in _words(values):
            if not value.startswith("/"):
                continue  # rm -rf "$TMP": the directory a variable names (mktemp's, most often)
            directory, _, last = value.rstrip("/").rpartition("/")
            if not _EVERY_NAME.fullmatch(last):
                if not recursive:
                    continue  # rm /tmp/x: one file
                directory = value.rstrip("/")  # rm -rf /tmp, rm -fr /tmp/: the directory and all in it
            place = normalize_path(directory or "/", home=home, cwd=invocation.cwd).rstrip("/")
            if place in _SHARED_DIRS:
                return _verdict(SHARED_WIPE, invocation, f"deletes everything in {place}, {_SHARED_WHY}")
        return None
    if name == "find" and ("-delete" in values or _find_removes(values)):
        filters = {"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-mtime", "-mmin", "-atime",
                   "-amin", "-ctime", "-cmin", "-newer", "-user", "-uid", "-size", "-empty", "-maxdepth",
                   "-links", "-perm", "-group", "-nouser"}  # fmt: skip
        starts = [v for v in values if not v.startswith(("-", "(", "!", ")"))][:1]
        if filters & set(values) and not ("-maxdepth" in values and set(values) & filters == {"-maxdepth"}):
            return None  # old files, some names: a cleaner's job
        for start in (start for start in starts if start.startswith("/")):
            place = normalize_path(start, home=home, cwd=invocation.cwd).rstrip("/")
            if place in _SHARED_DIRS:
                return _verdict(SHARED_WIPE, invocation, f"deletes everything in {place}, {_SHARED_WHY}")
    return None


def _find_removes(values: list[str]) -> bool:
    return any(
        value in ("-exec", "-execdir") and values[index + 1].rsplit("/", 1)[-1] == "rm"
        for index, value in enumerate(values[:-1])
    )


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """The first finding of this family in ``invocation``, or None."""
    if not invocation.name and not invocation.command.redirects:
        return None
    return (
        _shutdown(invocation)
        or _kill(invocation)
        or _destroy(invocation, home)
        or _deletes_system(invocation, home)
        or _shared_wipe(invocation, home)
        or _encrypt(invocation, home)
        or _fill(invocation, home)
        or _miner(invocation)
        or _hypervisor(invocation)
        or _vm_files_listed(invocation)
        or _virtual_machines(invocation)
        or _marked_renames(invocation, home)
        or _forks_forever(invocation)
        or _boot_chain(invocation)
        or _backups_destroyed(invocation)
        or _ransom_note(invocation)
    )


def _burns_cpu(invocation: Invocation) -> Verdict | None:
    """A program that never ends on its own, its output thrown away: ``yes > /dev/null``, ``cat /dev/zero
    > /dev/null``, ``dd if=/dev/urandom of=/dev/null`` with no count, started in the background. It does
    nothing but burn a CPU (in a loop, one per core: the machine starved). Stopped in sight
    (``timeout 5 yes > /dev/null``, ``yes > /dev/null & sleep 1; kill $!``) it is a test of load:
    :func:`judge_script` looks for the stop."""
    if "timeout" in invocation.wrappers or not invocation.command.background:
        return None  # in the foreground it runs until interrupted: the call's own business
    command = invocation.command
    values = _values(invocation)
    discarded = any(
        r.op in (">", ">>", ">|") and r.fd in ("", "1") and command.render(r.target) == "/dev/null"
        for r in command.redirects
    )
    endless = invocation.name == "yes" or (
        invocation.name in ("cat", "pv", "md5sum", "sha1sum", "sha256sum", "gzip", "bzip2", "xz")
        and any(v in _ENDLESS for v in values)
    )
    if (
        invocation.name == "dd"
        and "of=/dev/null" in values
        and not any(v.startswith("count=") for v in values)
    ):
        endless = discarded = any(v[3:] in _ENDLESS for v in values if v.startswith("if="))
    if not (endless and discarded):
        return None
    return _verdict(
        RESOURCE_HIJACK, invocation, f"{invocation.name} runs without end into /dev/null: it only burns a CPU"
    )


# -- the boot chain, backups and snapshots, ransom notes --------------------------------------

_EFI_CHANGES = frozenset("BoOcCnNAaD")
"""efibootmgr's short options that change the firmware's boot entries: delete one (``-b 0000 -B``), set
the order or the next boot (``-o``, ``-n``), create, (de)activate, remove duplicates."""
_EFI_LONG_CHANGES = frozenset({"--delete-bootnum", "--bootorder", "--delete-bootorder", "--create",
                               "--create-only", "--bootnext", "--delete-bootnext", "--inactive", "--active",
                               "--remove-dups"})  # fmt: skip
_BOOT_INSTALLERS = frozenset({"grub-install", "grub2-install", "grub-bios-setup", "grub2-bios-setup", "lilo",
                              "extlinux", "install-mbr", "ms-sys", "refind-install"})  # fmt: skip
_BOOTCTL_WRITES = frozenset(
    {"install", "remove", "update", "set-default", "set-oneshot", "unlink", "cleanup"}
)
_ONLY_ASKS = frozenset({"--help", "-h", "--version", "-V"})


def _boot_chain(invocation: Invocation) -> Verdict | None:
    """The machine's boot chain rewritten: a boot loader installed (``grub-install``, ``lilo``,
    ``bootctl install``) or the firmware's boot entries deleted or reordered (``efibootmgr -b 0000 -B``,
    ``efibootmgr -o``). The next boot starts something else, or nothing (wipers' and bootkits' step)."""
    name = invocation.name
    values = _values(invocation)
    if name in _BOOT_INSTALLERS and not set(values) <= _ONLY_ASKS:
        return _verdict(SYSTEM_FILES, invocation, f"{name} writes a boot loader: the machine's next boot")
    if name == "bootctl" and _words(values)[:1] and _words(values)[0] in _BOOTCTL_WRITES:
        return _verdict(SYSTEM_FILES, invocation, f"bootctl {_words(values)[0]} changes the boot loader")
    if name == "efibootmgr":
        short = {c for v in values if v.startswith("-") and not v.startswith("--") for c in v[1:]}
        if short & _EFI_CHANGES or _EFI_LONG_CHANGES & {v.partition("=")[0] for v in values}:
            return _verdict(SYSTEM_FILES, invocation, "efibootmgr changes the firmware's boot entries")
    return None


_SNAPSHOT_DELETES: dict[str, frozenset[str]] = {
    "borg": frozenset({"delete", "rdelete", "repo-delete"}),
    "borg2": frozenset({"delete", "rdelete", "repo-delete"}),
    "snapper": frozenset({"delete", "rm", "remove"}),
    "timeshift": frozenset({"--delete-all"}),
}
"""Backup and snapshot tools, and the words that delete what they keep (``borg delete REPO``, ``snapper
delete 1-100``, ``timeshift --delete-all``). One named archive or snapshot (``borg delete REPO::ARCHIVE``,
``snapper delete 42``) is upkeep, as ``zfs destroy pool/fs@snap`` is."""
_ONE_KEPT = lazy_compile(r"^[^*?\[\]{}]+::[^*?\[\]{}]+$|^\d+$")
_DRY = frozenset({"-n", "--dry-run", "--cache-only", "--help", "-h", "--list"})
_KEEP = lazy_compile(r"^--keep-(?:last|hourly|daily|weekly|monthly|yearly|within\S*|tag|secondly|minutely)$")


def _keeps_nothing(values: list[str]) -> bool:
    """``restic forget --keep-last 0``, ``borg prune --keep-daily=0``: a retention policy that keeps no
    snapshot (every ``--keep-*`` given is zero), so the prune deletes them all."""
    kept: list[str] = []
    for index, value in enumerate(values):
        option, equals, given = value.partition("=")
        if _KEEP.match(option):
            kept.append(given if equals else (values[index + 1] if index + 1 < len(values) else ""))
    return bool(kept) and all(re.fullmatch(r"0+[a-z]*", k.strip("'\"")) for k in kept)


def _backups_destroyed(invocation: Invocation) -> Verdict | None:
    """A backup repository or the machine's snapshots deleted, the way ransomware takes away the way
    back before it encrypts: ``borg delete REPO``, ``restic forget --keep-last 0 --prune``, ``snapper
    delete``, ``timeshift --delete-all``, every snapshot ``zfs list`` prints handed to ``zfs destroy``.
    A retention policy that keeps some (``restic forget --keep-daily 7 --prune``) is ordinary upkeep."""
    name = invocation.name
    values = _values(invocation)
    if _DRY & set(values):
        return None
    words = _words(values)
    deletes = _SNAPSHOT_DELETES.get(name) or frozenset()
    verb = next((index for index, value in enumerate(values) if value in deletes), None)
    named = _words(values[verb + 1 :]) if verb is not None else []
    if verb is not None and not (named and all(_ONE_KEPT.match(w) for w in named)):
        return _verdict(DATA_DESTRUCTION, invocation, f"{name} deletes backups or snapshots (the way back)")
    if (
        name in ("restic", "borg", "borg2", "rustic")
        and {"forget", "prune"} & set(words)
        and _keeps_nothing(values)
    ):
        return _verdict(
            DATA_DESTRUCTION, invocation, f"{name}'s retention keeps nothing: every backup deleted"
        )
    if name == "zfs" and words[:1] == ["destroy"] and (not words[1:] or len(values) < len(invocation.args)):
        return _verdict(
            DATA_DESTRUCTION,
            invocation,
            "zfs destroy of datasets or snapshots named only at run time (a listing)",
        )
    return None


_ENCRYPTED_NOTE = lazy_compile(
    r"\b(?:files?|data|documents|servers?|network|systems?|computers?|machines?|disks?|databases?)\b"
    r"[^.\n]{0,60}?\b(?:(?:have|has)\s+been|are|were|got|is)\s+(?:\w+\s+)?(?:encrypted|locked|stolen|crypted)\b",
    re.IGNORECASE,
)
_RANSOM_PAY = lazy_compile(
    r"\b(?:bitcoins?|btc|monero|xmr|ransom|wallet|decrypt(?:ion|or)?\s+(?:key|tool|software)|tor\s+browser)\b"
    r"|\.onion\b|\bsend\s+\$?\d",
    re.IGNORECASE,
)
_NOTE_WRITERS = frozenset({"tee", "wall", "write", "logger", "notify-send", "zenity", "xmessage"})


def _ransom_note(invocation: Invocation) -> Verdict | None:
    """A ransom note written: text that says the files are encrypted and asks for payment (bitcoin, a
    wallet, a decryption key, an .onion address) put into a file, a login banner or on users' screens
    (``echo "YOUR FILES ARE ENCRYPTED ... bitcoin" > ~/README.txt``, ``esxcli system welcomemsg set``).
    No coding task writes one; the text is the signal, wherever it goes."""
    command = invocation.command
    writes = any(r.op in (">", ">>", ">|") and r.fd in ("", "1") for r in command.redirects)
    welcome = invocation.name == "esxcli" and "welcomemsg" in _values(invocation)
    if not (writes or welcome or invocation.name in _NOTE_WRITERS):
        return None
    text = " ".join(command.render(word) for word in invocation.args)
    if len(text) > 20000 or not _ENCRYPTED_NOTE.search(text) or not _RANSOM_PAY.search(text):
        return None
    return _verdict(DATA_DESTRUCTION, invocation, "writes a ransom note (files encrypted, payment asked)")


_FORKS = lazy_compile(r"(?:\b|_)fork\b|\bProcess\.spawn\b|\bspawn\(process\.argv")
_FOREVER = lazy_compile(
    r"\bwhile\s*(?:\(\s*)?(?:1|True|true|!0)\b|\bfor\s*\(\s*;\s*;\s*\)|\bloop\s*(?:do|\{)|\buntil\s+(?:0|false)\b"
    r"|\bwhile\s+fork\b|iter\(int,\s*1\)|\bitertools\.count\(|\bsetInterval\("
)


def _forks_forever(invocation: Invocation) -> Verdict | None:
    """An interpreter's one-liner that forks in a loop without end (``perl -e 'fork while 1'``,
    ``python3 -c 'while True: os.fork()'``, ``ruby -e 'loop { fork }'``): a fork bomb
    in another language, the machine's process table filled."""
    code = inline_code(invocation)
    if not code or not _FORKS.search(code) or not _FOREVER.search(code):
        return None
    return _verdict(FORK_BOMB, invocation, f"{invocation.name}'s code forks in a loop without end")


_VM_STOPS = lazy_compile(
    r"^vmsvc/(?:power\.(?:off|shutdown|suspend|reset|reboot)|destroy|unregister"
    r"|snapshot\.remove(?:all)?)$|^hostsvc/(?:maintenance_mode_enter|standby_mode_enter)$"
)


_AUTOSTART_OFF = lazy_compile(
    r"^hostsvc/autostartmanager/(?:clear_autostart|enable_autostart\s+(?:0|false)|autostart_disable)\b"
)
_VMDK_DESTROYS = frozenset({"-U", "--deletevirtualdisk", "-w", "--writezeros", "-K", "--punchzero"})


def _hypervisor(invocation: Invocation) -> Verdict | None:
    """An ESXi host's virtual machines stopped or destroyed: ``esxcli vm process kill``, ``vim-cmd
    vmsvc/power.off``, ``vmsvc/snapshot.removeall`` (how ESXi ransomware clears the way before it
    encrypts the disks), or the host itself put in maintenance mode."""
    name = invocation.name
    if name == "vmkfstools" and _VMDK_DESTROYS & {v.partition("=")[0] for v in _values(invocation)}:
        return _verdict(DATA_DESTRUCTION, invocation, "vmkfstools deletes or zeroes a virtual machine's disk")
    if name not in ("esxcli", "vim-cmd"):
        return None
    words = [v for v in _values(invocation) if not v.startswith("-")]
    if name == "esxcli" and " system welcomemsg set " in f" {' '.join(words)} ":
        return _verdict(
            SYSTEM_CONFIG, invocation, "changes the ESXi host's welcome message (its console banner)"
        )
    if name == "vim-cmd" and words and _AUTOSTART_OFF.match(" ".join(words)):
        return _verdict(
            SHUTDOWN,
            invocation,
            "turns off the ESXi host's virtual machine autostart (they stay down after a boot)",
        )
    spoken = f" {' '.join(words)} "  # esxcli's namespaces, whatever options (--server h) come between
    if name == "esxcli" and " vm process kill " in spoken:
        return _verdict(SHUTDOWN, invocation, "kills a running virtual machine on the ESXi host")
    if name == "esxcli" and re.search(r" system shutdown (?:poweroff|reboot) ", spoken):
        return _verdict(SHUTDOWN, invocation, "shuts the ESXi host down")
    if name == "vim-cmd" and words and _VM_STOPS.match(words[0]):
        return _verdict(
            SHUTDOWN, invocation, f"{words[0]} stops or destroys virtual machines on the ESXi host"
        )
    return None


_DATASTORE = "/vmfs/volumes"
_ONLY_READ = frozenset({"cat", "ls", "du", "stat", "echo", "printf", "grep", "egrep", "head", "tail", "wc",
                        "file", "md5sum", "sha1sum", "sha256sum", "basename", "dirname", "test",
                        "[", "[["})  # fmt: skip


def _lists_vm_files(stage: Invocation) -> bool:
    """``esxcli vm process list`` (its Config File column), ``esxcli storage filesystem list`` (the
    datastores), ``vim-cmd vmsvc/getallvms``, ``find /vmfs/volumes/...``: the guests' files, listed."""
    spoken = f" {' '.join(_words(_values(stage)))} "
    if stage.name == "esxcli":
        return " vm process list " in spoken or " storage filesystem list " in spoken
    if stage.name == "vim-cmd":
        return " vmsvc/getallvms " in spoken
    return stage.name == "find" and any(
        normalize_path(v).startswith(_DATASTORE) for v in _values(stage) if not v.startswith("-")
    )


def _vm_files_listed(invocation: Invocation) -> Verdict | None:
    """``for f in $(esxcli vm process list | grep 'Config File' ...); do sed -i ... "$f"``, ``for f in $(find
    /vmfs/volumes/$v -name '*.vmdk'); do ./encrypt "$f"``: ESXi ransomware's walk over the guests' files,
    each handed to a program that changes it. Reading them (``du -k "$f"``) is not this."""
    if invocation.name in _ONLY_READ or invocation.name in ("esxcli", "vim-cmd", "find"):
        return None
    for stages in substituted(invocation.command, invocation.args):
        if stages and _lists_vm_files(stages[0]):
            why = "changes the files of the ESXi host's virtual machines, as listed"
            return _verdict(DATA_DESTRUCTION, invocation, why)
    return None


_VM_PROCESSES = lazy_compile(r"^\^?(?:vmx|vmware-vmx|vmx-\w+)\$?$")
"""The process of a running VMware virtual machine (one per guest on ESXi): killing it pulls the plug."""
_LIBVIRT_STOPS = frozenset({"destroy", "vol-wipe", "vol-delete", "pool-delete", "snapshot-delete"})
"""virsh's forced power-off and the deletions of disks, pools and snapshots (and ``undefine`` with them)."""
_LIBVIRT_STORAGE = frozenset({"--remove-all-storage", "--storage", "--wipe-storage"})


def _virtual_machines(invocation: Invocation) -> Verdict | None:
    """Virtual machines stopped by force or deleted the way ransomware clears its way to their disks:
    the VMware guest processes killed (``pkill -9 vmx``, ``kill -9 $(ps | grep vmx | awk ...)``),
    ``virsh destroy`` (libvirt's forced power-off), ``virsh undefine --remove-all-storage`` and the
    deletion of volumes, pools and snapshots."""
    name = invocation.name
    if name in ("pkill", "killall", "kill"):
        names = _looked_up(invocation) if name == "kill" else _words(_values(invocation))
        hit = next((n for n in names if _VM_PROCESSES.match(n.strip("'\""))), None)
        if hit is not None:
            return _verdict(SHUTDOWN, invocation, f"kills the virtual machines' processes ({hit})")
    if name == "virsh":
        words = _words(_values(invocation))
        values = _values(invocation)
        storage = words[:1] == ["undefine"] and any(v.partition("=")[0] in _LIBVIRT_STORAGE for v in values)
        if words and (words[0] in _LIBVIRT_STOPS or storage):
            return _verdict(
                SHUTDOWN, invocation, f"virsh {words[0]} forces a virtual machine off or deletes it"
            )
    return None


_RENAMERS = frozenset({"mv", "gmv"})
_NEW_EXTENSION = lazy_compile(r"^[.~_-][\w.~-]{1,24}$")


def _marked_renames(invocation: Invocation, home: str) -> Verdict | None:
    """Every file of a folder of the user's renamed with a new extension (``mv "$f" "$f.locked"`` over
    ``~/Documents/*``, ``rename 's/$/.enc/' /home/*/*``): ransomware's mark on what it encrypted, and
    the user's files out of reach of the programs that open them."""
    values = _values(invocation)
    if invocation.name in _RENAMERS:
        paths = [v for v in values if not v.startswith("-")]
        if len(paths) != 2 or not any(c in paths[0] for c in "*?["):
            return None
        source, target = paths
        if not (target.startswith(source) and _NEW_EXTENSION.match(target[len(source) :])):
            return None
        what = users_file(source, home, invocation.cwd)
    elif invocation.name in ("rename", "prename", "file-rename", "perl-rename"):
        words = _words(values)
        if not words or not re.search(r"\$/\.?\w+/|\$/\$&\.|\$/\.", words[0]):
            return None
        what = next(
            (users_file(w, home, invocation.cwd) for w in words[1:] if any(c in w for c in "*?[")), None
        )
    else:
        return None
    if what is None:
        return None
    return _verdict(
        DATA_DESTRUCTION, invocation, f"renames every file of {what} with a new extension (ransomware's mark)"
    )


_PID_COLUMNS = frozenset({"awk", "gawk", "mawk", "cut", "tail", "tr", "sort", "uniq"})


def _ps_into_kill(stages: list[Invocation]) -> Invocation | None:
    """``ps -ef | awk '{print $2}' | xargs kill -9``: every PID ps lists, killed (no filter between).

    A ``while read pid; do kill -9 $pid; done`` last stage kills what it reads the same way
    (the loop's ``read`` and body are stages of the pipeline here)."""
    if len(stages) < 2 or stages[0].name != "ps" or not _WHOLE_PS.match(stages[0].text):
        return None
    for index, stage in enumerate(stages[1:], 1):
        between = stages[1:index]
        reads = [s for s in between if s.name == "read"]
        if stage.name in ("kill", "pkill") and ("xargs" in stage.wrappers or reads):
            return stage if _listing_killed(stages[:index]) else None
    return None


def _listing_killed(listing: list[Invocation]) -> bool:
    """Whether killing what ``ps … | filters`` lists kills processes by shape or by load, not by a name."""
    filters = [s for s in listing[1:] if s.name != "read"]
    return not _picked_by_name(filters) or _busy(filters)


_LOAD_THRESHOLD = lazy_compile(r"\$\d+\s*>=?\s*\d")
"""An awk comparison of a column with a number (``$3>40.0``, ``if($2>=80)``): ps's load columns."""


def _busy(filters: list[Invocation]) -> bool:
    """A filter that keeps the processes above a CPU or memory threshold: a miner clearing the machine
    for itself kills whatever is busy, sparing (``grep -v``) or picking (``grep xmr``) a few by name."""
    return any(
        stage.name in ("awk", "gawk", "mawk") and _LOAD_THRESHOLD.search(" ".join(_values(stage)))
        for stage in filters
    )


_GREPS = frozenset({"grep", "egrep", "fgrep", "rg"})


def _lists_every_process(script: Script) -> bool:
    r"""``$(ps -eo pid=)``, ``$(ps aux | awk '$11 ~ /^\.\// {print $2}')``: the PIDs of every process,
    or of every one of a shape; not ``$(ps aux | awk '/node/ {print $2}')``."""
    for stages in walk(script):
        if stages and stages[0].name == "ps":
            return _listing_killed(stages)
    return False


def _picked_by_name(filters: list[Invocation]) -> bool:
    r"""Whether the stages between ``ps`` and ``kill`` pick processes by a name, sparing the rest.

    ``grep -v grep`` leaves the rest in; ``grep node``, ``awk '/node/ {print $2}'``, ``$11 ==
    "node"`` pick some; a filter by number (``length($5) == 8``, ``$3 > 80``) or by shape
    (``$11 ~ /^\.\//``, ``grep '/tmp/'``: every program started from a relative path or /tmp)
    picks every process that looks alike. A stage the guard does not know (``sort -k3``, ``head``
    are known) counts as a pick."""
    for stage in filters:
        values = _values(stage)
        if stage.name in _GREPS:
            if _excludes(values):
                continue  # grep -v grep, grep -v "$$": what is left out is spared, the rest still killed
            patterns = [v for v in values if not v.startswith("-")]
            if not patterns or not all(_shape_only(pattern) for pattern in patterns[:1]):
                return True
        elif stage.name not in _PID_COLUMNS or _names_a_process(" ".join(values)):
            return True
    return False


_FILTER_LITERAL = lazy_compile(r'"((?:[^"\\]|\\.)*)"|(?<![\w)\]])/((?:[^/\\\n]|\\.)+)/')
r"""The strings and regular expressions of an awk program (``"./"``, ``/^\.\//``)."""
_PLACE_WORDS = frozenset({"tmp", "var", "dev", "shm", "run", "usr", "local", "bin", "sbin", "opt", "home",
                          "root", "proc", "lib", "private", "Users", "Library", "x", "s", "w",
                          "d"})  # fmt: skip
"""Words of a directory (or a regular expression's class) that say where a program lies, not which it is."""


def _full_command_line(values: list[str]) -> bool:
    """pkill's ``-f`` (``--full``): the pattern is matched against the whole command line."""
    return "--full" in values or any(
        v.startswith("-") and not v.startswith("--") and "f" in v[1:] and not v[1:].isdigit() for v in values
    )


def _shape_only(pattern: str) -> bool:
    r"""A pattern with something to match but no word of a name in it (``^\./``, ``/tmp/\.``, ``./[0-9]* -c``:
    a single letter is an option or a class, not a program's name)."""
    words = re.findall(r"[A-Za-z][A-Za-z0-9_-]*", pattern)
    return bool(pattern.strip("^$.*")) and all(word in _PLACE_WORDS or len(word) == 1 for word in words)


def _names_a_process(program: str) -> bool:
    r"""Whether an awk (or cut ...) program picks processes by a name: a string or pattern that spells
    a word other than a directory's (``/node/``, ``$11 == "gunicorn"``), a variable from the
    command line (``-v``), ``index``/``match`` on one. ``$11 ~ /^\.\//`` and ``substr($11,1,2)=="./"``
    pick by shape (every program run from ``./``, from ``/tmp/``): no name."""
    if "-v" in program.split() or "ENVIRON" in program:
        return True
    for match in _FILTER_LITERAL.finditer(program):
        literal = match.group(1) if match.group(1) is not None else match.group(2)
        words = re.findall(r"[A-Za-z][A-Za-z0-9_-]*", literal)
        if any(word not in _PLACE_WORDS for word in words):
            return True
    return "~" in program and not _FILTER_LITERAL.search(program)  # $1 ~ pattern: a pattern in a variable


_PRINTS_PIDS = lazy_compile(r"\s*(?:NR\s*>\s*1\s*)?\{\s*print\s+\$\d+\s*;?\s*\}\s*")
"""An awk program that prints a column of every line: no filter."""


def _filters(stage: Invocation) -> bool:
    r"""A stage that keeps some lines (``awk '$3 > 80 …'``, ``grep '\./'``), not every one."""
    values = _values(stage)
    if stage.name in _GREPS:
        return not _excludes(values)
    return stage.name in ("awk", "gawk", "mawk") and not _PRINTS_PIDS.fullmatch(" ".join(values))


def judge_script(script: Script, home: str) -> Verdict | None:
    """What spans a pipeline or statements: every PID from ``ps`` handed to ``kill``, directly or
    through a file (``ps … > /tmp/p; kill -9 $(cat /tmp/p)``); each file a loop or a search hands
    over encrypted and then deleted (:func:`_encrypted_then_removed`); every file of the home handed
    to a script (:func:`_every_file_to_a_script`); a CPU burned without end, never stopped
    (:func:`_burns_cpu`)."""
    lists: dict[str, list[Invocation]] = {}
    encrypted: dict[str, Invocation] = {}
    burner: Verdict | None = None
    stopped = False
    planted = _note_in_every_directory(script, home)
    if planted is not None:
        return planted
    for stages in walk(script):
        for stage in stages:
            verdict = (
                _encrypted_then_removed(stage, encrypted)
                or _every_file_to_a_script(stages, stage, home)
                or _note_in_globbed_directories(stage, home)
            )
            if verdict is not None:
                return verdict
            burner = burner or _burns_cpu(stage)
            stopped = stopped or stage.name in ("kill", "pkill", "killall")
        killer = _ps_into_kill(stages)
        if killer is not None:
            category, why = _kill_why(stages[: stages.index(killer)])
            return Verdict(category, piece(" | ".join(s.text for s in stages)), why)
        listing = _pid_list_written(stages)
        if listing is not None:
            lists[listing[0]] = listing[1]
        read = _pid_list_read(stages) if lists else None
        if read is not None and read[0] in lists:
            verdict = _listed_then_killed(lists[read[0]], read[1])
            if verdict is not None:
                return verdict
    return None if stopped else burner


_EACH_DIRECTORY = lazy_compile(r'^"?(?:\$\{?[A-Za-z_]\w*\}?|\{\}|\$\([^()]*\)|`[^`]*`)"?(?:/[^/]+|/)?"?$')
"""``"$d/HOW_TO_DECRYPT.txt"``, ``$dir``, ``{}/README.txt``: a file in the directory a loop or a search
hands over (a ``for`` loop's variable is read as its word list: ``$(find ~ -type d)/README.txt``)."""


def _searched_directories(find: Invocation, home: str) -> str | None:
    """``find / -type d``, ``find ~ -type d``: the start (outside the project) of a search that lists
    directories."""
    values = _values(find)
    if "-type" not in values or values[values.index("-type") + 1 : values.index("-type") + 2] != ["d"]:
        return None
    for value in values:
        if value.startswith(("-", "(", "!", ")")):
            return None
        path = normalize_path(value, home=home, cwd=find.cwd).rstrip("/") or "/"
        root = (find.cwd or "").rstrip("/")
        inside = bool(root) and (path == root or path.startswith(root + "/"))
        scratch = path.startswith(_SCRATCH) or path in ("/tmp", "/var/tmp", "/dev/shm")
        if path.startswith("/") and not inside and not scratch:
            return "~" if path == home.rstrip("/") else path
    return None


def _written(stage: Invocation) -> list[tuple[str, str]]:
    """The files ``stage`` writes, each as (the word as written, as rendered): a redirect's target, the
    destination of ``cp``/``install``/``ln``, ``tee``'s files, ``curl -o``'s and ``wget -O``'s."""
    command = stage.command
    written = [(r.target, command.render(r.target)) for r in command.redirects if r.op in (">", ">>", ">|")]
    args = list(stage.args)
    if stage.name in ("curl", "wget"):
        options = ("-o", "--output") if stage.name == "curl" else ("-O", "--output-document")
        written += [
            (args[i + 1], command.render(args[i + 1])) for i in range(len(args) - 1) if args[i] in options
        ]
    elif stage.name in ("cp", "install", "tee", "ln"):
        words = [word for word in args if not word.startswith("-")]
        chosen = words if stage.name == "tee" else words[-1:] if len(words) >= 2 else []
        written += [(word, command.render(word)) for word in chosen]
    return written


def _plants(stage: Invocation) -> bool:
    """Whether ``stage`` writes a file into the directory a loop's variable or find's ``{}`` names."""
    return any(_EACH_DIRECTORY.match(rendered) for _, rendered in _written(stage))


_NOTE_NAME = lazy_compile(
    r"(?:decrypt|recover|restore|ransom|unlock|your[_-]?files|how[_-]?to|read[_-]?me|instructions?)[^/]*"
    r"\.(?:txt|html?|hta|rtf)$",
    re.IGNORECASE,
)
"""A ransom note's name (``README_DECRYPT.txt``, ``HOW_TO_RECOVER.html``, ``!!!RESTORE_FILES!!!.txt``)."""
_SPREAD_ROOTS = ("/", "/home", "/Users", "/mnt", "/media", "/run/media", "/Volumes", "/srv", "/var/www")


def _spread_root(word: str, home: str, cwd: str | None) -> str | None:
    """The home, a data folder, the whole disk or a root of many users' or mounts' data (``/home/*``,
    ``/mnt/*``, ``/srv/*``), when ``word`` is a glob of directories there."""
    path = normalize_path(word, home=home, cwd=cwd).rstrip("/") or "/"
    glob = min((i for i, c in enumerate(path) if c in "*?["), default=-1)
    if glob < 0:
        return None
    root = path[: path.rfind("/", 0, glob + 1)] or "/"
    if root in _SPREAD_ROOTS:
        return root
    return user_data(root, home, cwd) or _home_itself(root, home, cwd)


def _note_in_globbed_directories(stage: Invocation, home: str) -> Verdict | None:
    """``for d in /home/*/ /srv/*/; do curl … > "$d/README_DECRYPT.txt"; done``, ``for d in $(ls -d
    /mnt/*/); do cp HOW_TO_DECRYPT.txt "$d"; done``: a file with a ransom note's name written into every
    directory of many users', mounts' or sites' data (a loop's words are its list)."""
    command = stage.command
    sources = [w for w in stage.args if not w.startswith("-")][:-1] if stage.name in ("cp", "install") else []
    noted = any(_NOTE_NAME.search(command.render(w)) for w in sources)
    for raw, rendered in _written(stage):
        directory, _, name = rendered.rstrip("/").rpartition("/")
        if _NOTE_NAME.search(name) and directory:
            where = _spread_root(directory, home, stage.cwd)
            if where:
                return _verdict(DATA_DESTRUCTION, stage, f"writes {name} into every directory under {where} "
                                "(how ransomware spreads its note)")  # fmt: skip
        if noted:
            for sub in command.substitutions_in(raw):
                first = (
                    sub.script.pipelines[0][0] if sub.script.pipelines and sub.script.pipelines[0] else None
                )
                words = [command.render(w) for w in first.words[1:]] if first is not None else []
                if first is None or not words or first.words[0] not in ("ls", "find"):
                    continue
                where = next(
                    (
                        r
                        for w in words
                        if not w.startswith("-")
                        for r in [_spread_root(w, home, stage.cwd)]
                        if r
                    ),
                    None,
                )
                if where:
                    return _verdict(
                        DATA_DESTRUCTION, stage, f"copies a ransom note into every directory under {where}"
                    )
    return None


def _note_in_every_directory(script: Script, home: str) -> Verdict | None:
    """``find / -type d -exec cp NOTE {} \\;``, ``for d in $(find ~ -type d); do echo … > "$d/README.txt";
    done``: one file planted in every directory under the home or the whole disk, how ransomware
    leaves its note (HOW_TO_DECRYPT.txt) beside what it encrypted. A search inside the project
    (``find . -type d -exec touch {}/.keep \\;``) is the project's."""
    searches = [
        (stage, start)
        for stages in walk(script)
        for stage in stages
        if stage.name == "find" and (start := _searched_directories(stage, home)) is not None
    ]
    if not searches:
        return None
    spread = "(how ransomware spreads its note)"
    for find, start in searches:
        if _copies_into_each(_values(find)):
            return _verdict(
                DATA_DESTRUCTION, find, f"copies one file into every directory under {start} {spread}"
            )
    start = searches[0][1]
    for stages in walk(script):
        for stage in stages:
            if _plants(stage):
                why = f"writes a file into every directory a search lists under {start} {spread}"
                return _verdict(DATA_DESTRUCTION, stage, why)
    return None


def _copies_into_each(values: list[str]) -> bool:
    """``-exec cp NOTE {} \\;``: a copy whose destination is each thing the search found."""
    return any(
        run[:1] in (["cp"], ["install"], ["ln"]) and copies_into_found(run[1:]) for run in exec_runs(values)
    )


_REMOVERS = frozenset({"rm", "grm", "unlink", "shred", "gshred", "wipe", "srm", "truncate"})
_ENCRYPTORS = frozenset({"gpg", "gpg2", "openssl", "age", "rage", "7z", "7za", "7zz", "rar", "zip",
                         "aescrypt", "scrypt", "ccrypt", "ccencrypt"})  # fmt: skip
_ITERATED = lazy_compile(r"[*?\[]|\$(?:[0-9@*(]|\{?[a-z_][a-z0-9_]*\b)")
"""A word standing for many files: a glob (``*.pdf``), a command's output (``$(find …)``), a script's
argument (``"$1"``: what ``find -exec sh -c`` or a loop hands over) or a loop's variable (``"$f"``,
lower case by custom; an upper-case ``$SECRETS_FILE`` names one file of the environment's)."""


def _encrypted_then_removed(stage: Invocation, encrypted: dict[str, Invocation]) -> Verdict | None:
    """Each file a loop, a glob or a search hands over encrypted and the original deleted:
    ``for f in *.pdf; do gpg -c "$f"; shred -u "$f"; done``, ``find . -exec sh -c 'openssl enc -in "$1"
    … && rm "$1"' _ {} \\;``, ``find . -exec gpg -c {} \\; -delete``. Ransomware's loop, wherever it runs
    (the project's files too: every one of them left only as ciphertext, the key elsewhere). One named
    file encrypted and its plaintext removed is a developer's (``openssl enc -in .env … && rm .env``).
    ``encrypted`` keeps, across the script's statements, the words encrypted so far (as shell text)."""
    if stage.name == "find":
        return _find_encrypts_and_removes(stage)
    command = stage.command
    words = [_bare(command.render(word)) for word in stage.args]
    if _run_encrypts(stage.name, _values(stage)):
        for word in words:
            if not word.startswith("-") and _ITERATED.search(word):
                encrypted.setdefault(word, stage)
    if not encrypted or stage.name not in _REMOVERS | {"dd"}:
        return None
    removed = [w[3:] for w in words if w.startswith("of=")] if stage.name == "dd" else _words(words)
    for word in removed:
        crypt = encrypted.get(word)
        if crypt is not None:
            text = piece(f"{crypt.text} … {stage.text}")
            why = f"encrypts each file {word} stands for, then destroys the original ({stage.name})"
            return Verdict(DATA_DESTRUCTION, text, why)
    return None


def _run_encrypts(name: str, args: list[str]) -> bool:
    """Whether ``name ARGS`` (a program a search runs on each file) encrypts, not decrypts or signs."""
    if name not in _ENCRYPTORS or {"-d", "--decrypt", "-decrypt"} & set(args):
        return False
    if name in ("gpg", "gpg2"):
        short = {c for a in args if a.startswith("-") and not a.startswith("--") for c in a[1:]}
        return bool({"c", "e"} & short or {"--symmetric", "--encrypt"} & set(args))
    if name == "openssl":
        return bool(args) and (
            (args[0] == "enc" and any(_OPENSSL_CIPHER.match(a) for a in args[1:]))
            or bool(_OPENSSL_CIPHER_COMMAND.match(args[0]))
        )
    if name in ("7z", "7za", "7zz", "rar", "zip"):
        adds = name == "zip" or args[:1] == ["a"]  # 7z x, rar e: extracting
        return adds and any(a.startswith(("-p", "-hp", "-P", "--password", "-e", "--encrypt")) for a in args)
    return name not in ("aescrypt", "scrypt") or "-e" in args or args[:1] == ["enc"]


def _bare(word: str) -> str:
    """``"${f}"`` and ``$f`` as one word."""
    return re.sub(r"\$\{(\w+)\}", r"$\1", word.strip("'\""))


def _find_encrypts_and_removes(find: Invocation) -> Verdict | None:
    """``find … -exec gpg -c {} \\; -delete``, ``-exec openssl enc … \\; -exec rm {} \\;``: one search
    whose every file is encrypted, then deleted."""
    values = _values(find)
    runs: list[list[str]] = []
    for index, value in enumerate(values[:-1]):
        if value in ("-exec", "-execdir"):
            end = next((j for j in range(index + 1, len(values)) if values[j] in (";", "+")), len(values))
            runs.append([values[index + 1].rsplit("/", 1)[-1], *values[index + 2 : end]])
    crypt = next((run[0] for run in runs if _run_encrypts(run[0], run[1:])), None)
    if crypt is None or not ("-delete" in values or any(run[0] in _REMOVERS for run in runs)):
        return None
    return _verdict(
        DATA_DESTRUCTION,
        find,
        f"encrypts every file the search lists ({crypt}) and then deletes the originals",
    )


_SCRIPT_NAME = lazy_compile(r"\.(?:sh|bash|zsh|py|pl|rb|js|php|lua|ps1)$")
_SYSTEM_BIN = ("/usr/", "/bin/", "/sbin/", "/opt/homebrew/")


def _a_script(word: str) -> bool:
    """A program given by path or as a script file (``./crypto-locker.sh``, ``/tmp/enc``), not one the
    system provides: what it does to each file is in a file the guard does not read."""
    word = word.strip("'\"")
    return bool(_SCRIPT_NAME.search(word)) or ("/" in word and not word.startswith(_SYSTEM_BIN))


def _searched_start(find: Invocation, home: str) -> str | None:
    """The home, a data folder or the whole disk, when a search (``find``, ``fd``) starts there."""
    for value in _values(find):
        if value.startswith(("-", "(", "!", ")")):
            break
        what = (
            user_data(value, home, find.cwd)
            or _home_itself(value, home, find.cwd)
            or _whole_disk(value, home, find.cwd)
        )
        if what:
            return what
    return None


def _script_of(stage: Invocation) -> str | None:
    """The script file a shell or an interpreter runs (``bash ./lock.sh``, ``python3 enc.py``)."""
    if stage.name not in SHELLS and not re.match(r"^(?:python[\d.]*|perl|ruby|node|php|lua)$", stage.name):
        return None
    for value in _values(stage):
        if value.startswith("-c") or value in ("-e", "-s", "-m"):
            return None
        if not value.startswith(("-", "+")):
            return value
    return None


def _every_file_to_a_script(stages: list[Invocation], stage: Invocation, home: str) -> Verdict | None:
    """``find $HOME -type f | xargs ./crypto-locker.sh enc``, ``find / -type f -exec /tmp/x {} \\;``: every
    file under the home, a data folder or the whole disk handed to a script or a program of one's own,
    whose work on each file (encrypting it, overwriting it) is out of sight. Asked."""
    if stage.name == "find":
        start = _searched_start(stage, home)
        runs = exec_runs(_values(stage)) if start else []
        # -exec ./enc.sh {}, -exec bash ./enc.sh {}: the program, or the script a shell runs
        calls = [run[1:] if run[0] in SHELLS else run for run in runs if run]
        script = next((call[0] for call in calls if call and _a_script(call[0])), None)
        if start and script:
            why = f"hands every file under {start} to {script}, a script whose work on them is out of sight"
            return _verdict(UNJUDGED_SCRIPT, stage, why)
        return None
    if (
        "xargs" not in stage.wrappers
        or not stages
        or stages[0] is stage
        or stages[0].name not in ("find", "fd")
    ):
        return None
    start = _searched_start(stages[0], home)
    word = _script_of(stage) or next(
        (w for w in stage.text.split() if w.strip("'\"").rsplit("/", 1)[-1] == stage.name), stage.name
    )
    if start is None or not _a_script(word):
        return None
    why = f"hands every file under {start} to {word}, a script whose work on them is out of sight"
    return Verdict(UNJUDGED_SCRIPT, piece(f"{stages[0].text} | {stage.text}"), why)


def _kill_why(listing: list[Invocation]) -> tuple[str, str]:
    """The category and reason for killing what ``listing`` (``ps`` and its filters) prints."""
    filters = [s for s in listing[1:] if s.name != "read"]
    if _picked_by_name(filters):
        return RESOURCE_HIJACK, "kills the busiest processes, as a miner clears the CPU for itself"
    if any(_filters(stage) for stage in filters):
        return SHUTDOWN, "kills every process of a shape (no name picks them)"
    return SHUTDOWN, "kills every process that ps lists"


def _pid_list_written(stages: list[Invocation]) -> tuple[str, list[Invocation]] | None:
    """``ps aux | awk '$3>40 {print $2}' > F``, ``pgrep -f PATTERN > F``: the file a list of PIDs goes to."""
    if not stages or stages[0].name not in ("ps", "pgrep"):
        return None
    for redirect in stages[-1].command.redirects:
        if redirect.op in (">", ">>", ">|") and redirect.fd in ("", "1") and redirect.target:
            return redirect.target, stages
    return None


def _pid_list_read(stages: list[Invocation]) -> tuple[str, Invocation] | None:
    """The file a kill here takes its PIDs from: ``kill $(cat F)``, ``xargs kill < F``, ``cat F | xargs
    kill``, ``while read p; do kill $p; done < F`` (the loop's redirect reaches its body)."""
    for stage in stages:
        if stage.name != "kill" and not (stage.name == "pkill" and "xargs" in stage.wrappers):
            continue
        for redirect in stage.command.redirects:
            if redirect.op == "<":
                return redirect.target, stage
        first = _values(stages[0]) if stages[0].name == "cat" and "xargs" in stage.wrappers else []
        if first:
            return first[-1], stage
        for inner in substituted(stage.command, stage.args):
            if inner[0].name == "cat" and _values(inner[0]):
                return _values(inner[0])[-1], stage
            if not inner[0].name:
                reads = [r.target for r in inner[0].command.redirects if r.op == "<"]
                if reads:
                    return reads[0], stage
    return None


def _listed_then_killed(listing: list[Invocation], killer: Invocation) -> Verdict | None:
    """A PID list written to a file and killed later, judged as the one pipeline it stands for."""
    text = piece(" | ".join(s.text for s in listing) + " … " + killer.text)
    if listing[0].name == "pgrep":
        verdict = _by_pattern(listing[0], "pkill", _values(listing[0]))
        return None if verdict is None else Verdict(verdict.category, text, f"{verdict.why}, through a file")
    if not _WHOLE_PS.match(listing[0].text) or not _listing_killed(listing):
        return None
    category, why = _kill_why(listing)
    return Verdict(category, text, f"{why}, through a file")
