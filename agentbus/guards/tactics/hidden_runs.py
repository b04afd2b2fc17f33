"""Tactic family ``hidden runs``: a program run from where no installed program lives, and payloads hide.

Malware drops its payload in shared memory (``/dev/shm``, a file system in RAM that
leaves nothing on disk) or under a dot name in a shared temporary directory
(``/tmp/.x``, ``/tmp/.ICE-unix/.x``, ``/var/tmp/.cache/sshd``, macOS's ``/Users/Shared/.agent``), then
runs it: ``cd /dev/shm && ./x``, or hands it to an interpreter (``node /tmp/.x.js``,
``osascript -l JavaScript /tmp/.p.js``).
In the home, the same hiding is a program in a hidden folder inside a hidden folder (``~/.cache/.x/a``),
in ``~/.ssh``, or in a hidden folder no toolchain lays out (no ``bin``, ``shims``, ``versions``) and left
running on its own (``cd ~/.configrc/a; nohup ./init0 &``, Outlaw's kit).
A developer runs builds from ``/tmp/build`` or ``./bin``, not from there. A download saved into
such a directory (``wget -O /var/tmp/.X11/agent URL``) is the same payload a step earlier, a program
named like a kernel thread (``./kworker``) or a socket (``/usr/local/bin/com.docker.sock``) a masquerade,
and a library that a program is told to load (``ssh-keygen -D /tmp/x.so``, ``ssh -I``: a PKCS#11
provider's code runs in it) is a program run by another name. What such a program does cannot be
seen (a binary is not read; a script is judged by :mod:`..script_files` too, and one right in
``/tmp`` that is not on disk to read by :mod:`.temp_scripts`), so the finding is
:data:`~agentbus.guards.verdict.UNJUDGED_SCRIPT`: a person is asked (blocked unattended). A program
of another name given a mass scanner's packet rate and ports (``./firewire --rate 50000 -p2375``:
Kinsing's masscan, renamed) is a masquerade too, found as the scan it is
(:data:`~agentbus.guards.verdict.NETWORK_SCAN`, asked), and so is a program run by its path given a
wide address range (``./tsm -t 8 p 10.0.0.0/8``: Outlaw's SSH guesser); given a password list and
logins to try it on (a login port, a host list) it is a guesser renamed
(:data:`~agentbus.guards.verdict.CREDENTIALS`).
"""

from __future__ import annotations

import itertools
import os
import posixpath
import re

from ...lazy_regex import lazy_compile
from ..carriers import unknown_program
from ..findings import finding as _verdict
from ..findings import piece
from ..findings import static_args as _values
from ..interpreters import INTERPRETERS, inline_code, runs_scripts
from ..options import option_values
from ..parse import Script
from ..paths import normalize_path
from ..programs import SHELLS, Invocation, program_name, shell_mode, walk
from ..transfers import download, url_name
from ..verdict import BACKDOOR, CREDENTIALS, NETWORK_SCAN, UNJUDGED_SCRIPT, Verdict

__all__ = ["hiding_place", "judge", "judge_script", "kernel_thread", "launched_file"]

_SHARED = ("/tmp/", "/var/tmp/", "/private/tmp/", "/private/var/tmp/", "/Users/Shared/")
_PROGRAM_DIRS = ("/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/local/bin/", "/usr/local/sbin/", "/lib/",
                 "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/local/lib/")  # fmt: skip
"""Where installed programs and libraries live: a hidden name right inside is a payload's (Fedora's
``/usr/lib/.build-id`` index of debug links aside)."""


def hiding_place(path: str) -> str | None:
    """Why ``path`` (absolute, normalised) is where payloads hide, or None."""
    if path.startswith(("/dev/shm/", "/run/shm/")):
        return "shared memory (/dev/shm), where nothing stays on disk"
    if path.startswith("/var/run/"):
        return "the runtime directory (/var/run), where no program is installed"
    for system in _PROGRAM_DIRS:
        if path.startswith(system):
            # /usr/bin/.sshd, /lib/.x/kit: no package installs a dot name where programs and libraries live
            first = path[len(system) :].split("/", 1)[0]
            if first.startswith(".") and first not in (".", "..", ".build-id"):
                return f"a hidden name ({first}) among the system's programs ({system.rstrip('/')})"
    for shared in _SHARED:
        if path.startswith(shared):
            parts = path[len(shared) :].split("/")
            # /tmp/.x, /tmp/.ICE-unix/.x/kworker: hidden where anyone looks first; not a project's
            # own dot directory further down (/tmp/work/app/.venv/bin/python).
            hidden = parts[0] if parts[0].startswith(".") else parts[-1] if parts[-1].startswith(".") else ""
            if hidden:
                return f"a hidden name ({hidden}) in the shared {shared.rstrip('/')}"
    return None


_ARRIVALS = lazy_compile(r"^(?:/(?:home|Users)/[^/]+|/root)/Downloads/|^/Volumes/|^/(?:run/)?media/")


def _arrival_place(path: str) -> str | None:
    """Why ``path`` (absolute, normalised) is where files from elsewhere arrive, or None: the Downloads
    folder, a mounted disk image or removable disk (``/Volumes``, ``/media``). A developer runs what
    they built or installed, not a file fresh from the network or a disk image (``~/Downloads/tool``,
    ``bash ~/Downloads/install.sh``, ``/Volumes/App/App.app/Contents/MacOS/App``); a project kept on
    such a disk (the call's working directory under it, not a ``cd`` in the command) is not one.
    Opening, listing or copying such a file is not a run. A root helper in
    ``/Library/PrivilegedHelperTools`` is launchd's to start, not a person's: run by hand, it is
    whatever was put there (DPRK's STRATOFEAR, named as Zoom's helper)."""
    from ..workdir import call_directory

    if path.startswith("/Library/PrivilegedHelperTools/"):
        return "the privileged helper tools folder, whose programs launchd runs as root for a daemon"
    match = _ARRIVALS.match(path)
    if match is None:
        return None
    cwd = call_directory()
    if cwd and (path + "/").startswith(normalize_path(cwd).rstrip("/") + "/"):
        return None
    if match.group(0).endswith("/Downloads/"):
        return "the Downloads folder, where files from the network land"
    return "a mounted disk image or removable disk, whose files came from elsewhere"


_ACCOUNT_HOMES = lazy_compile(r"^(?:/home/[^/]+|/Users/(?!Shared/)[^/]+|/root|/var/root)(?=/)")
_SHARED_HOMES = frozenset({"/home/linuxbrew"})
_DRIVE = lazy_compile(r"^[A-Za-z]:[\\/]")
"""A Windows path (``C:/Users/me/...``): that machine's user, not another account here."""
"""Homes that hold no account's own files (Homebrew on Linux installs into /home/linuxbrew/.linuxbrew)."""


def _another_account(path: str, home: str) -> str | None:
    """Why ``path`` (absolute, normalised) is in another account's home, or None: a program there is
    whatever that account (or whoever could write there) put in it, and running it, as root above all
    (``sudo /home/bob/tools/backup``), runs a planted binary. The user's own home and the project (the
    call's working directory) are not another's."""
    from ..workdir import call_directory

    match = _ACCOUNT_HOMES.match(path)
    if match is None or match.group(0) in _SHARED_HOMES:
        return None
    if (path + "/").startswith(home.rstrip("/") + "/"):
        return None
    cwd = call_directory()
    if cwd and (path + "/").startswith(normalize_path(cwd).rstrip("/") + "/"):
        return None
    return f"another account's home ({match.group(0)}), where a program may be planted for whoever runs it"


_VALUED = frozenset({"-l", "-m", "-W", "-X", "-r", "--require", "-I", "--import", "--loader", "-s"})
"""Interpreter options whose value is not the script (osascript's ``-l JavaScript``, node's ``-r MOD``)."""


def _script_operand(values: list[str]) -> str | None:
    """The script file an interpreter runs: its first operand that is no option's value."""
    skip = False
    for value in values:
        if skip:
            skip = False
        elif value == "-m":
            return None  # python3 -m MODULE ARGS: a module runs, the words after it are its arguments
        elif value in _VALUED:
            skip = True
        elif not value.startswith("-"):
            return value
    return None


_PROVIDER_OPTIONS = {
    "ssh-keygen": frozenset({"-D"}),
    "ssh": frozenset({"-I"}),
    "ssh-add": frozenset({"-s", "-e"}),
}
_SYSTEM_LIBRARIES = ("/usr/lib/", "/usr/lib64/", "/lib/", "/lib64/", "/usr/local/lib/", "/opt/homebrew/lib/",
                     "/usr/local/opt/", "/opt/homebrew/opt/", "/Library/")  # fmt: skip


_KERNEL_THREAD = lazy_compile(
    r"^\[.*\]$|^(?:kworker\w*|ksoftirqd\w*|kswapd\w*|kthreadd\w*|kdevtmpfs|kauditd|khugepaged|ksmd|kcompactd\d*"
    r"|rcu_(?:sched|bh|preempt)|watchdogd|kblockd|kintegrityd|kthrotld|sync_supers|khubd|kjournald|kseriod"
    r"|kpsmoused|kacpid|bdi-default|khungtaskd|kmpathd|kdmflush)(?:/[\w:.+-]*)?$"
    r"|^(?:migration|irq|jbd2|cpuhp)/[\w:.+-]+$"
)
"""A kernel thread's name (``kworker/0:1``, ``[kthreadd]``), or one that starts like the busiest threads'
(``kworkerds``, ``kthreaddi``: miners' names): no program on disk is called that."""


_RUNTIME_FILE = lazy_compile(r"\.(?:sock|socket|pid|lock)$", re.IGNORECASE)
"""A socket's, pid file's or lock's name (``com.docker.sock``): files a program makes, never one it runs,
so a program called so (``/usr/local/bin/com.docker.sock &``) is disguised as one."""


def kernel_thread(name: str) -> bool:
    """Whether ``name`` is a kernel thread's (``kworker/0:1``, ``kswapd0``, ``[kthreadd]``)."""
    return _KERNEL_THREAD.match(name) is not None


_ONLY_RUN = lazy_compile(r"\.(?:scptd?|applescript|jxa|dylib)$", re.IGNORECASE)
"""Files fetched only to be run or loaded: a compiled AppleScript or JXA script (``osascript
/tmp/t.scpt`` next: DPRK's keychain test), a macOS library (``curl -o /tmp/XYZ.tmp
URL/libmodule_keychain.dylib``, loaded by a runner). A developer builds their own or gets them
packaged (Homebrew, a release archive), and a script to read comes as text (``.sh``, ``.js``)."""


def _saved_or_loaded(invocation: Invocation, home: str) -> Verdict | None:
    """A download written into a hiding place, or one of a file only ever run or loaded; a PKCS#11
    provider loaded from outside the system's libraries."""
    name = invocation.name
    values = _values(invocation)
    fetched = download(invocation)  # any transfer program: aria2c -o, tftp -l, cat < /dev/tcp/h/p > f
    outputs = list(fetched.files) if fetched is not None else []
    if fetched is not None and fetched.stdout:  # wget -O - URL > /var/run/x: written by a redirect
        command = invocation.command
        outputs += [command.render(r.target) for r in command.redirects if r.op in (">", ">|", ">>")]
    for path in outputs:
        # the directory: /var/tmp/.X11/agent, /dev/shm/.x/a (a hidden file right in /tmp is a download's)
        folder = posixpath.dirname(normalize_path(path, home=home, cwd=invocation.cwd))
        where = hiding_place(folder) if folder.startswith("/") else None
        if where is not None:
            why = f"downloads into {where}, where payloads hide: what it fetched cannot be seen"
            return _verdict(UNJUDGED_SCRIPT, invocation, why)
    if fetched is not None:
        for fetched_name in (*outputs, *url_name(values)):
            base = posixpath.basename(fetched_name.rstrip("/"))
            if _ONLY_RUN.search(base):
                why = f"fetches {base}, a compiled AppleScript or a library: code to run or load, unseen"
                return _verdict(UNJUDGED_SCRIPT, invocation, why)
    providers = option_values(values, _PROVIDER_OPTIONS.get(name, frozenset()))
    if name in ("ssh", "scp", "sftp"):
        providers += [v.split("=", 1)[-1].strip() for v in values if v.lower().startswith("pkcs11provider")]
    for path in providers:
        full = normalize_path(path, home=home, cwd=invocation.cwd)
        if "/" in path and not full.startswith(_SYSTEM_LIBRARIES):
            why = f"loads {full} into {name} as a PKCS#11 provider: code whose doings cannot be seen"
            return _verdict(UNJUDGED_SCRIPT, invocation, why)
    return None


_LAUNCH_OPTIONS = {"java": frozenset({"-jar", "-cp", "-classpath", "--class-path"})}
"""Launchers whose option names the file they run (``java -jar /tmp/x.jar``, ``java -cp /tmp/x.jar Main``)."""
_RUN_VERBS = {"deno": frozenset({"run"}), "bun": frozenset({"run", "x"}), "dotnet": frozenset({"exec"})}
"""A launcher's verb before the file it runs (``deno run -A /tmp/x.ts``, ``dotnet exec /tmp/x.dll``)."""
_LAUNCHERS = frozenset({"dotnet", "source", "."})
"""Programs whose first operand is the file they run."""


def launched_file(invocation: Invocation) -> str | None:
    """The file an interpreter or launcher runs, as written: a shell's script, ``source FILE``, an
    interpreter's script (``node /tmp/x.js``), ``java -jar FILE``, ``deno run FILE``, ``dotnet FILE``,
    ``run-parts DIR`` and ``find DIR -exec {} ;`` (given as ``DIR/*``: every program in DIR); None for
    inline code or a program run by its own name."""
    name = invocation.name
    if name in SHELLS:
        mode = shell_mode(invocation)
        return invocation.command.static(mode.file) if mode.file is not None else None
    values = _values(invocation)
    options = _LAUNCH_OPTIONS.get(name)
    if options is not None:
        found = option_values(values, options)
        return found[0].split(":", 1)[0] if found else None
    if name == "run-parts":
        operands = [v for v in values if not v.startswith("-")]
        return operands[-1].rstrip("/") + "/*" if operands else None
    if name == "find":
        return _found_and_run(values)
    verbs = _RUN_VERBS.get(name, frozenset())
    if (INTERPRETERS.match(name) and inline_code(invocation) is None) or name in _LAUNCHERS:
        operand = _script_operand(values[1:] if values[:1] and values[0] in verbs else values)
        if name == "dotnet" and operand is not None and "/" not in operand and not operand.endswith(".dll"):
            return None  # dotnet build, dotnet test: a verb of its own
        return operand
    return None


_FOUND_RUN = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def _found_and_run(values: list[str]) -> str | None:
    """``find /dev/shm -type f -exec {} \\;``: the files found are the programs run (``DIR/*``)."""
    first = next((i for i, v in enumerate(values) if v in _FOUND_RUN), None)
    if first is None:
        return None
    starts = [v for v in values[:first] if v[:1] in "/~."]
    runs = [values[i + 1] for i in range(first, len(values) - 1) if values[i] in _FOUND_RUN]
    if starts and any(run in ("{}", "./{}") for run in runs):
        return starts[0].rstrip("/") + "/*"
    return None


_PRELOADS = frozenset({"-r", "--require", "--import", "--loader", "--experimental-loader", "-I", "-M",
                       "--preload", "-d", "--include-path", "-i"})  # fmt: skip
"""Interpreter options that load a module or a file before the script (``node --require F``, ``ruby -rF``,
``perl -IDIR``, ``php -d auto_prepend_file=F``): code run by another name."""
_LITERAL_PATH = lazy_compile(r"[\"'](/(?:dev/shm|tmp|var/tmp|private/tmp|Users/Shared)/[^\"'\s]{1,400})[\"']")
_RUNS_FILE = lazy_compile(
    r"\b(?:exec|eval|execfile|run_path|runpy|load|loadfile|dofile|require|require_relative|include|source"
    r"|system|popen|spawn|execv\w*|CDLL|cdll|LoadLibrary|dlopen|ffi_lib|DynaLoader|import_module)\b"
)
"""Inline code that runs or loads a file (``exec(open(F).read())``, ``runpy.run_path(F)``,
``ctypes.CDLL(F)``, ``load F``, ``require F``)."""


def _loaded_by_code(invocation: Invocation) -> str | None:
    """A file in a hiding place an interpreter's inline code runs or loads, or a module it preloads."""
    for value in option_values(_values(invocation), _PRELOADS):
        path = value.rpartition("=")[2]  # php -d auto_prepend_file=/dev/shm/p.php
        full = normalize_path(path)
        if path.startswith("/") and (hiding_place(full) or hiding_place(full + "/x")) is not None:
            return path  # (a directory of modules: perl -I/dev/shm)
    code = inline_code(invocation)
    if code is None or _RUNS_FILE.search(code) is None:
        return None
    for match in _LITERAL_PATH.finditer(code):
        if hiding_place(normalize_path(match.group(1))) is not None:
            return match.group(1)
    return None


_ATTACK_NAME = lazy_compile(
    r"(?:^|[-_.])(?:rev(?:erse)?[-_]?shell|bind[-_]?shell|backdoor|back[-_]door|implant|dropper|stager"
    r"|meterpreter|rootkit|webshell)(?=$|[-_.\d])",
    re.IGNORECASE,
)
"""A file that calls itself an attacker's tool (``/tmp/revshell.jar``, ``./backdoor``, ``python3
implant.py``): whatever it does, its author says it gives someone else a way in."""
_LEAKED_PASSWORDS = lazy_compile(
    r"(?:^|/)(?:rockyou[\w.-]*|fasttrack\.txt|john\.lst|darkweb2017[\w.-]*|[\w.-]*xato-net[\w.-]*"
    r"|10[-_]million[\w.-]*)$|/seclists/passwords/",
    re.IGNORECASE,
)
"""A list of leaked passwords (``rockyou.txt``, SecLists' ``Passwords/``): given to a program as an option's
value (``jwt_tool.py TOKEN -d rockyou.txt -C``), it is what the program guesses with."""

_WORDLIST_OPTION = lazy_compile(r"^(?:-[wWdDPp]|--[\w-]*(?:word|dict|pass|list)[\w-]*)$", re.IGNORECASE)
"""Options that take the list a guesser tries: ``-w``, ``-d``, ``-P``, ``--wordlist``, ``--passwords``."""


def _leaked_password_list(invocation: Invocation) -> Verdict | None:
    """Any program given a leaked password list as an option's value (``-w``, ``-d``, ``--wordlist=``):
    a password guessed or cracked; reading or counting the list (``wc -l rockyou.txt``) is not."""
    values = _values(invocation)
    for index, value in enumerate(values):
        option, equals, attached = value.partition("=")
        given = attached if option.startswith("-") and equals else value
        if not equals:
            option = values[index - 1] if index else ""
        if _WORDLIST_OPTION.match(option) and _LEAKED_PASSWORDS.search(given):
            why = f"{invocation.name} is given the leaked password list {given}: passwords guessed or cracked"
            return _verdict(CREDENTIALS, invocation, why)
    return None


_SCANNERS = frozenset({"masscan", "zmap", "pnscan", "zgrab", "zgrab2", "unicornscan", "nmap", "naabu",
                       "rustscan"})  # fmt: skip
_RATE = lazy_compile(r"^--(?:rate|max-rate|packets-per-second|pps)(?:=\d+)?$")
_PORTS = lazy_compile(r"^(?:-p|--ports?=|--target-ports?=)\d+(?:[,-]\d+)*$")
_PORT_OPTIONS = frozenset({"-p", "--port", "--ports", "--target-port", "--target-ports"})
_PORT_LIST = lazy_compile(r"^\d+(?:[,-]\d+)*$")


def _renamed_scanner(invocation: Invocation) -> Verdict | None:
    """``./firewire -iL ranges --rate 50000 -p2375``: a packet rate and the ports to probe (masscan's
    and zmap's options) given to a program of another name: droppers ship the scanner renamed, and the
    scanners' own names are :mod:`.scanning`'s."""
    name = invocation.name
    if name in _SCANNERS or not unknown_program(name):
        return None
    values = _values(invocation)
    ports = any(_PORTS.match(v) for v in values) or any(
        v in _PORT_OPTIONS and _PORT_LIST.match(after) for v, after in itertools.pairwise(values)
    )
    if ports and any(_RATE.match(v) for v in values):
        why = f"{name} is given a network scanner's packet rate and ports"
        return _verdict(NETWORK_SCAN, invocation, why)
    return None


_KEY_STORES = frozenset({".ssh", ".gnupg"})
"""Home folders of keys, where no program is installed."""
_TOOL_PARTS = frozenset({"bin", "sbin", "libexec", "shims", "node_modules", "versions", "plugins", "tools"})
"""Where toolchains in the home keep their programs (``~/.cargo/bin``, ``~/.pyenv/shims``)."""
_TOOL_DOTS = frozenset({".bin", ".venv", ".git"})
"""Dot names a toolchain nests (``node_modules/.bin``, a cached ``.venv``): no hiding."""
_TOOL_HOMES = frozenset({
    ".local", ".cache", ".config", ".cargo", ".rustup", ".nvm", ".pyenv", ".rbenv", ".nodenv", ".goenv",
    ".jenv", ".volta", ".bun", ".deno", ".sdkman", ".asdf", ".npm", ".yarn", ".pnpm", ".dotnet", ".foundry",
    ".elan", ".ghcup", ".opam", ".rye", ".poetry", ".gradle", ".m2", ".vscode-server", ".cursor-server",
    ".docker", ".kube",
})  # fmt: skip
"""The home's dot folders that toolchains and the desktop install programs into (``~/.local/share/pnpm``)."""
_DETACHERS = frozenset({"nohup", "setsid", "disown", "daemonize", "start-stop-daemon"})


def _detached(invocation: Invocation) -> bool:
    """Whether the program is left running on its own (``nohup``, ``setsid``, ``&``)."""
    return invocation.command.background or not _DETACHERS.isdisjoint(invocation.wrappers)


def _home_hideout(path: str, home: str, *, detached: bool) -> str | None:
    """Why a program at ``path`` hides in the home, or None: in a folder of keys (``~/.ssh/x``), under a
    hidden name inside a hidden folder (``~/.cache/.x/a``), or in a hidden folder no toolchain lays out
    and left running on its own (``cd ~/.configrc/a; nohup ./init0 &``: Outlaw's miner and bot)."""
    prefix = home.rstrip("/") + "/"
    if not path.startswith(prefix):
        return None
    parts = path[len(prefix) :].split("/")[:-1]
    if not parts or not parts[0].startswith("."):
        return None
    if parts[0] in _KEY_STORES:
        return f"the key folder ~/{parts[0]}, where no program is installed"
    nested = parts[-1] if len(parts) > 1 and parts[-1].startswith(".") else None
    if nested is not None and nested not in _TOOL_DOTS:
        return f"a hidden folder ({nested}) inside the hidden ~/{parts[0]}"
    if detached and parts[0] not in _TOOL_HOMES and _TOOL_PARTS.isdisjoint(parts):
        return f"the hidden folder ~/{'/'.join(parts)}, left running on its own"
    return None


_PASSWORD_LIST = lazy_compile(
    r"(?:^|/)(?:pass(?:word)?s?|pwds?|passlist|wordlist|dict(?:ionary)?|rockyou|combos?|creds?|userpass)"
    r"(?:[-_.]?\w+)?\.(?:txt|lst|list|dic)$",
    re.IGNORECASE,
)
"""A list of passwords to try (``pass.txt``, ``passwords.lst``, ``rockyou.txt``, ``combo_ssh.txt``)."""
_WIDE_RANGE = lazy_compile(r"^(?:\d{1,3}\.){3}\d{1,3}/(?:[0-9]|1[0-6])$")
"""An address range of 65536 addresses or more (``10.0.0.0/8``, ``172.16.0.0/12``, ``0.0.0.0/0``)."""
_LOGIN_PORTS = frozenset({"21", "22", "23", "2222", "3389", "5900", "3306", "5432", "6379", "1433"})


def _renamed_guesser(invocation: Invocation) -> Verdict | None:
    """A program run from a path, not one the rules know, given a password list and a target (a login
    port, a host list), or a wide address range as an operand (``./tsm -t 8 -p 0 p 10.0.0.0/8``:
    Outlaw's SSH guesser renamed; the guessers' own names are :mod:`.cracking`'s)."""
    name = invocation.name
    command = invocation.command
    at = len(command.words) - len(invocation.args) - 1
    head = command.static(command.words[at]) if 0 <= at < len(command.words) else None
    if (
        not head
        or "/" not in head
        or head.startswith(("/usr/", "/bin/", "/sbin/"))
        or "." in name  # a script (allow.sh, tool.py): its file is judged, not its arguments
        or not unknown_program(name)
    ):
        return None
    values = _values(invocation)
    operands = [
        v for i, v in enumerate(values) if not v.startswith("-") and (i == 0 or values[i - 1][:1] != "-")
    ]
    wide = next((v for v in operands if _WIDE_RANGE.match(v)), None)
    if wide is not None:
        return _verdict(
            NETWORK_SCAN, invocation, f"{head} is given the address range {wide}: a renamed scanner"
        )
    if any(_PASSWORD_LIST.search(v) for v in values) and (
        _LOGIN_PORTS.intersection(values)
        or any(v.lower() in ("ssh", "telnet", "rdp", "ftp") for v in values)
        or any(re.search(r"(?:^|/)(?:ips?|hosts?|targets?|ranges?)[\w.-]*\.(?:txt|lst)$", v) for v in values)
    ):
        return _verdict(CREDENTIALS, invocation, f"{head} is given a password list and logins to try it on")
    return None


_APP_BUNDLE = lazy_compile(r"^(.*?/([^/]+)\.app)/Contents/")
_DEVELOPER_TOOLS = lazy_compile(r"/Xcode[^/]*\.app/Contents/Developer/|/CommandLineTools/")
"""Apple's developer toolchain, whose ``python3`` is the one ``/usr/bin/python3`` runs."""


def _bundled_interpreter(invocation: Invocation, head: str | None) -> Verdict | None:
    """An app's own interpreter given code (``/Applications/GIMP.app/Contents/MacOS/python -c …``,
    ``ELECTRON_RUN_AS_NODE=1 …/Visual Studio Code.app/Contents/MacOS/Electron -e …``): the code runs as
    that app, with the privacy grants (Full Disk Access, the camera, other apps' data) the user gave it."""
    if not head or "/" not in head or _DEVELOPER_TOOLS.search(head):
        return None
    bundle = _APP_BUNDLE.match(head)
    if bundle is None:
        return None
    as_node = any(e.startswith("ELECTRON_RUN_AS_NODE=") for e in invocation.env)
    if not (as_node or INTERPRETERS.match(invocation.name) or program_name(head) in _INTERPRETER_STEMS):
        return None
    app = bundle.group(2)
    why = (f"runs code in {app}.app's own interpreter: it borrows the privacy grants given to {app} "
           "(files, camera, other apps' data), and what it reaches under them cannot be seen")  # fmt: skip
    return _verdict(UNJUDGED_SCRIPT, invocation, why)


_SHARED_TEMP = lazy_compile(r"^(?:/private)?/(?:tmp|var/tmp|var/folders|Users/Shared|dev/shm)/")


def _unread_applescript(invocation: Invocation, launched: str | None, home: str) -> Verdict | None:
    """``osascript -l JavaScript /tmp/p.jxa`` where no such file is on disk to read: something else
    writes it (a download, an earlier background call), and AppleScript drives other apps, draws
    password dialogs and borrows their privacy grants. A script the agent wrote is on disk when it
    runs, and is judged by its text (:mod:`..script_files`)."""
    if invocation.name != "osascript" or not launched or "/" not in launched:
        return None
    path = normalize_path(launched, home=home, cwd=invocation.cwd)
    if not _SHARED_TEMP.match(path) or os.path.exists(path):
        return None
    why = f"runs the AppleScript {path}, which is not on disk to read in a shared temporary place: unseen"
    return _verdict(UNJUDGED_SCRIPT, invocation, why)


_INTERPRETER_STEMS = frozenset({"python", "python3", "node", "ruby", "perl", "php", "lua", "electron"})


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A program (or a shell script: ``sh /dev/shm/x``) this command runs by a path into such a
    place, a download saved there, a library loaded from outside the system's, a file named as an
    attacker's tool, or None."""
    found = (
        _saved_or_loaded(invocation, home)
        or _renamed_scanner(invocation)
        or _renamed_guesser(invocation)
        or _leaked_password_list(invocation)
    )
    if found is not None:
        return found
    command = invocation.command
    at = len(command.words) - len(invocation.args) - 1
    head = command.static(command.words[at]) if 0 <= at < len(command.words) else None
    launched = launched_file(invocation)
    borrowed = _bundled_interpreter(invocation, head) or _unread_applescript(invocation, launched, home)
    if borrowed is not None:
        return borrowed
    if INTERPRETERS.match(invocation.name):
        loaded = _loaded_by_code(invocation)
        if loaded is not None:
            full = normalize_path(loaded)
            place = hiding_place(full) or hiding_place(full + "/x") or ""
            return _verdict(UNJUDGED_SCRIPT, invocation, f"loads or runs {loaded} from {place}: code unseen")
    if launched is not None or runs_scripts(invocation.name):
        # nothing launched (inline code, a REPL): the program itself, when run by its path (/dev/shm/.s/go)
        own = head if head and "/" in head and program_name(head) == invocation.name.lower() else None
        head = launched if launched is not None else own
    elif not head or program_name(head) != invocation.name.lower():
        return None  # (names are read without case: /tmp/.X-AbC runs as `.x-abc`; x.exe as `x`)
    stem = posixpath.basename((head or "").rstrip("/")).rsplit(".", 1)[0]
    if head and ("/" in head or launched is not None) and _ATTACK_NAME.search(stem):
        why = f"runs {head}, a file named as an attacker's tool (a reverse shell, a backdoor, an implant)"
        return _verdict(BACKDOOR, invocation, why)
    if not head or "/" not in head:
        return None
    path = normalize_path(head, home=home, cwd=invocation.cwd)
    where = hiding_place(path) if path.startswith("/") else None
    where = where or _home_hideout(path, home, detached=_detached(invocation))
    if where is None:
        # /usr/bin/[kworker/0:1]: the name shown is what follows the last "/["
        shown = path[path.rfind("/[") + 1 :] if "/[" in path else posixpath.basename(path)
        if _RUNTIME_FILE.search(shown) and head.startswith(("/", "~")):  # not tldr's path/to/socket.sock
            why = f"runs {path}, named like a socket or pid file to pass for one: what it does cannot be seen"
            return _verdict(UNJUDGED_SCRIPT, invocation, why)
        if not _KERNEL_THREAD.match(shown):
            # ~/Downloads/tool, /Volumes/App/App.app/Contents/MacOS/App; /home/bob/tools/x
            arrived = _arrival_place(path) or (None if _DRIVE.match(head) else _another_account(path, home))
            why = f"runs {path} from {arrived}: what it does cannot be seen"
            return None if arrived is None else _verdict(UNJUDGED_SCRIPT, invocation, why)
        why = (
            f"runs {path}, named like a kernel thread so that ps lists it as one: what it does cannot be seen"
        )
        return _verdict(UNJUDGED_SCRIPT, invocation, why)
    return _verdict(UNJUDGED_SCRIPT, invocation, f"runs {path} from {where}: what it does cannot be seen")


def _fed_script(stages: list[Invocation]) -> tuple[Invocation, str] | None:
    """The shell of a pipeline that runs a file fed to its input (``cat /var/tmp/.x/s | bash``, ``sh <
    /dev/shm/s``) and that file, or None: the file is the script run, as ``sh FILE`` runs it."""
    for index, stage in enumerate(stages):
        if stage.name not in SHELLS:
            continue
        mode = shell_mode(stage)
        if mode.script is not None or mode.file is not None:
            continue
        command = stage.command
        fed = [command.static(r.target) or "" for r in command.redirects if r.op == "<" and r.fd in ("", "0")]
        if not fed and index and stages[index - 1].name == "cat":
            files = [v for v in _values(stages[index - 1]) if not v.startswith("-")]
            fed = files if len(files) == 1 else []
        if fed and fed[-1]:
            return stage, fed[-1]
    return None


def judge_script(script: Script, home: str) -> Verdict | None:
    """A script fed to a shell's input from where payloads hide (``cat /var/tmp/.../.set.ms | bash``)."""
    for stages in walk(script):
        found = _fed_script(stages)
        if found is None:
            continue
        shell, file = found
        path = normalize_path(file, home=home, cwd=shell.cwd)
        where = hiding_place(path) if path.startswith("/") else None
        if where is not None:
            return Verdict(
                UNJUDGED_SCRIPT, piece(" | ".join(s.text for s in stages)), f"runs {file} from {where}"
            )
    return None
