"""Tactic family ``process hunts``: processes searched for and killed by what marks them as another's.

A dropper clears the machine before it settles: it kills the miners and bots that came before it
and whatever talks to their pools. It finds them by a search, not by a name it started itself:
``ps aux | grep -v grep | grep '/tmp/.xmrig' | awk '{print $2}' | xargs kill -9``, ``netstat -anp |
grep :3333 | awk '{print $7}' | … | xargs -I % kill -9 %``, ``pkill -f stratum``, ``killall -9
kswapd0``, ``kill -9 $(pgrep -f 185.71.65.238)``. A developer kills their own server the same way
(``pkill -f uvicorn``, ``lsof -ti:3000 | xargs kill``, ``ps aux | grep 'manage.py runserver' | awk
'{print $2}' | xargs kill``); what differs is the mark the search names:

- a miner (``xmrig``, ``minerd``, ``stratum``, a pool's host, a Monero wallet): a miner clearing the
  CPU for itself, :data:`~agentbus.guards.verdict.RESOURCE_HIJACK` (blocked by default);
- a place no project runs from (``/tmp/…``, ``/var/tmp/…``, ``/dev/shm/…``, ``/boot/…``), a kernel
  thread's name (``kworker``, ``kswapd0``: a kernel thread cannot be killed, only a program disguised
  as one), a hidden program name (``killall .sshd``), a network peer (``185.71.65.238``,
  ``mine.pool.example.com:3333``), or the connection table itself (``netstat``/``ss`` output handed
  to ``kill``: every process holding a matching connection), the SSH sessions (``pkill -f sshpass``, ``kill
  $(pgrep -f 'ssh ')``: other sessions' logins and tunnels): :data:`~agentbus.guards.verdict.PROCESS_HUNT`,
  asked by default, since as the developer's own user it reaches only their own processes.

The same kits clear the containers too: ``docker ps | grep -E 'xmr|kinsing' | awk '{print $1}' | xargs
-I % docker kill %``, ``docker images -a | grep monero | awk '{print $3}' | xargs docker rmi -f``: a
miner's or a kit's name picked from a container listing and handed to ``kill``/``stop``/``rm``/``rmi``
is resource hijacking as well; a developer's own (``grep myapp``, ``--filter dangling=true``) is not.
And a process hidden by a bind mount over its ``/proc/PID`` (a rootkit's trick to keep it out of
``ps``) is found in the mount table: PIDs read from ``/proc/mounts`` and killed are another's.

Killing every process, or every one of a shape, and the system's daemons stay :mod:`.impact`'s.
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import inverts_match, piece
from ..findings import static_args as _values
from ..parse import Script
from ..paths import normalize_path
from ..programs import Invocation, substituted, walk
from ..verdict import PROCESS_HUNT, RESOURCE_HIJACK, Verdict
from .hidden_runs import hiding_place, kernel_thread
from .impact import is_miner, names_wallet

__all__ = ["judge", "judge_script", "names_mining"]

_LISTERS = frozenset({"ps", "pgrep", "pidof", "netstat", "ss", "lsof"})
"""Programs whose output a kill takes its PIDs from."""
_CONNECTION_TABLES = frozenset({"netstat", "ss"})
"""Listings of every connection with its process (``-p``): filtered by a port or a peer, not by a program."""
_VALUED = frozenset({"-u", "--user", "-U", "--uid", "-G", "--group", "-g", "--pgroup", "-s", "--session",
                     "--signal", "-t", "--terminal", "-P", "--parent", "-F", "--pidfile", "-o", "-y",
                     "--older-than", "--younger-than", "-Z", "--context", "--ns", "--nslist"})  # fmt: skip
"""pkill's and killall's options that take a value (``-F /var/run/x.pid``): no pattern."""
_GREPS = frozenset({"grep", "egrep", "fgrep", "rg"})
_AWKS = frozenset({"awk", "gawk", "mawk"})
_KILLERS = frozenset({"kill", "pkill", "killall"})

_MINING_WORDS = ("stratum", "monero", "xmr", "cryptonight", "randomx", "minerd", "cpuminer", "minergate",
                 "minexmr", "nanopool", "nicehash", "f2pool", "c3pool", "hashvault", "supportxmr",
                 "crypto-pool", "kdevtmpfsi", "kinsing", "kerberods", "watchbog", "sysrv", "kthreaddi",
                 "kworkerds", "sustes", "pamdicks", "systemten", "dbused", "pocosow", "gakeaws",
                 "azulu")  # fmt: skip
"""Words of miners, their pools and the cryptojacking kits that fight over the same machines (Kinsing,
kerberods, WatchBog, Sysrv, Rocke's kthreaddi, lsd's systemten.org, the dbused worm, the images
pocosow, gakeaws and azulu that TeamTNT's and Kinsing's scripts remove as rivals')."""


def names_mining(text: str) -> bool:
    """Whether ``text`` names a miner, a mining pool or a cryptojacking kit (``minexmr``, ``c3pool``)."""
    lowered = text.lower()
    return any(word in lowered for word in _MINING_WORDS)


_KIT_PROGRAMS = frozenset({"xig", "ddgs", "ddg", "sysupdate", "sysguard", "networkservice", "phpguard",
                           "qw3xt", "wntkyg", "loopback", "xzpauectgr", "slxfbkmxtd", "mixtape", "addnj",
                           "xiaoyao", "xiaoxue", "mwyumwdbpq", "honvbsasbf", "mqdsflm", "seervceaess",
                           "servceaess"})  # fmt: skip
"""Programs of the kits whose names are too short or too plain to look for inside a pattern: a
pattern that is one of them (``grep "xig"``, ``pkill sysupdate``) names the kit (DDG's ``ddgs``, the
``xig`` build of XMRig, the WatchDog kit's ``sysupdate``, ``sysguard``, ``networkservice``, DDG's
``ddg.2011``, ``qW3xT.2`` and ``wnTKYg``, Diicot's ``Loopback``, and the rivals the Rocke and Kinsing
kill lists name in copy after copy: ``xzpauectgr``, ``mixtape``, ``xiaoyao``, ``mwyumwdbpq.conf`` ...);
a pattern's alternatives (``egrep 'wnTKYg|ddg'``) are looked up one by one, each without its version
(``ddg.2011``) or its ending (``mwyumwdbpq.conf``)."""
_BOT_PROGRAMS = frozenset({"kaiten", "tsunami", "dvrhelper", "mirai", "gafgyt", "bashlite", "mozi", "hajime"})
"""IRC and DDoS bots that worms evict (Kaiten/Knight, Tsunami, Mirai's ``dvrHelper``, Gafgyt, Mozi)."""
_ARCH_BUILD = lazy_compile(
    r"^(?!qemu[.-])(?:[\w]+[.-])?(?:x86(?:_64|_32)?|i[3-6]86|arm(?:v?[4-8]l?|el|hf)?|aarch64|mips(?:el|64)?|mpsl|ppc(?:64)?"
    r"|powerpc|m68k|sh4|sparc|spc|arc)$",
    re.IGNORECASE,
)
"""A program named by the CPU it was built for, bare or after a kit's word (``arm5``, ``mipsel``,
``ktx-mips``, ``bot.x86``, ``911.x86``): Mirai's and Gafgyt's builds, one per architecture; no developer's
process is (QEMU's user-mode emulators, ``qemu-arm``, aside)."""
_KIT_VERSION = lazy_compile(r"\.(?:\d+|conf|cf)$")
_KERNEL_SUFFIX = lazy_compile(r"^(k[a-z]+?)d?[_-](?:svc|srv|service|daemon|d)$")
"""A kernel thread's name with a service's ending (``kacpi_svc``, ``kthreadd_svc``, ``kswap_svc``): a
program posing as the thread (Rocke's and Kinsing's rivals), since no kernel thread is named so."""
_BASE64_WORD = lazy_compile(r"^[A-Za-z0-9+/]{8,}={0,2}$")
_DECODED_SHELL = ("/bin/", "#!", "wget ", "curl ", "| sh", "|sh", "| bash", "|bash", "http://", "https://")
"""What a base64 pattern decodes to when it picks a dropper's command line (``L2Jpbi9iYXN``: ``/bin/bas``,
``KHdnZXQgLXFPLSBodHRw``: ``(wget -qO- http``)."""
_WALLET_FRAGMENT = lazy_compile(r"^[1-9A-HJ-NP-Za-km-z]{28,}$")
"""A run of base58 long enough to be a coin address or a piece of one (``45cToD1FzkjAxHRBhYKKLg5utMGEN``,
Electroneum's ``etnk…``): the wallet another miner pays."""
_POOL_LOGIN = lazy_compile(r"^[\w.+-]+@(?:[a-z0-9-]+\.)+[a-z]{2,}$", re.IGNORECASE)
"""``zhuabcn@yahoo.com``: an e-mail address a miner logs in to its pool with (Rocke's rivals')."""
_IPV4 = lazy_compile(r"(?<![\w.])(\d{1,3}(?:\.\d{1,3}){3})(?![\w.])")
_HOST = lazy_compile(r"(?<![\w./-])((?:[a-z0-9-]+\.){2,}[a-z]{2,})(?::\d+)?(?![\w/-])|"
                     r"(?<![\w./-])((?:[a-z0-9-]+\.)+[a-z]{2,}):\d{2,5}(?!\w)", re.IGNORECASE)  # fmt: skip
"""A host name of three labels or more (``mine.moneropool.com``), or with a port (``pool.fr:3333``)."""
_DOMAIN = lazy_compile(r"^[a-z0-9][a-z0-9-]*\.([a-z]{2,6})$")
_DOMAIN_ENDINGS = frozenset({"com", "net", "org", "info", "biz", "me", "ru", "su", "cn", "xyz", "top", "pro",
                             "cc", "tk", "pw", "club", "online", "site", "fun", "icu", "vip", "live", "work",
                             "host", "space", "tech", "cloud", "link", "ws", "to", "de", "fr", "uk", "nl",
                             "us", "co", "eu", "hk", "tw", "jp", "kr", "ir", "ua", "br"})  # fmt: skip
"""The endings of a registered domain (``kieuanilam.me``, ``zer0day.ru``, ``hashvault.pro``): two labels
alone name a host when the second is one of them; ``app.js``, ``main.py``, ``socket.io`` stay names of
files and libraries."""
_FILE_EXTENSIONS = frozenset({"js", "mjs", "cjs", "ts", "jsx", "tsx", "py", "rb", "sh", "go", "rs", "php",
                              "pl", "lua", "jar", "json", "yaml", "yml", "toml", "conf", "cfg", "ini", "txt",
                              "log", "pid", "sock", "vue", "java", "class", "war", "exs", "ex"})  # fmt: skip
"""What ends a file's name, not a host's (``webpack.config.js``)."""
_HOST_LIMIT = 300
"""Longer than any host name with a port and a scheme: no word that long is searched for one."""
_LOCAL_PEERS = frozenset({"127.0.0.1", "0.0.0.0"})
_PLACES = ("/tmp/", "/var/tmp/", "/dev/shm/", "/run/shm/", "/boot/", "/var/run/", "/run/user/")
_HIDDEN_NAME = lazy_compile(r"^\\?\.[A-Za-z][\w-]*$")
"""A program named as a hidden file (``.sshd``, ``\\.Historys``); ``./x`` and ``.venv/…`` are no names."""
_DEVELOPER_DOTS = frozenset({".venv", ".env", ".next", ".nuxt", ".cache", ".vscode-server", ".cursor-server",
                             ".vscode", ".idea", ".git", ".bin", ".local", ".cargo", ".npm"})  # fmt: skip
"""Dot folders a developer's own processes run from (``pkill -f .vscode-server`` restarts its server)."""
_SSH_SESSIONS = frozenset({"ssh", "sshpass", "sshd", "autossh", "dropbear", "mosh-server", "ssh-session"})
"""The programs of SSH sessions (``pkill -9 -f sshpass``, ``kill -9 $(pgrep -f 'ssh ')``): a worm or a
rival's brute-forcer ended, or the admin's own login and tunnels cut; ``ssh-agent`` holds keys, no session."""
_CONTAINER_TOOLS = frozenset({"docker", "podman", "nerdctl"})
_CONTAINER_LISTINGS = frozenset({"ps", "images", "ls", "list"})
"""``docker ps``, ``docker images``, ``docker container ls``: the listings a container kill picks from."""
_CONTAINER_ENDINGS = frozenset({"kill", "stop", "rm", "rmi"})
"""``docker kill``, ``docker rmi``, ``docker container rm``: what ends a container or removes an image."""
_CONTAINER_FILTERS = frozenset({"-f", "--filter"})
_MOUNT_TABLES = frozenset({"/proc/mounts", "/proc/self/mounts", "/proc/self/mountinfo", "/etc/mtab"})
"""The mount table, where a bind mount over ``/proc/PID`` (a process hidden from ``ps``) shows."""
_MOUNT_LISTERS = frozenset({"mount", "findmnt"})
_SPLIT = lazy_compile(r"[|()\s]+|\\\|")
_AWK_LITERAL = lazy_compile(r'"((?:[^"\\]|\\.)*)"|(?<![\w)\]])/((?:[^/\\\n]|\\.)+)/')


def _mark(pattern: str) -> tuple[str, str] | None:
    """What marks the processes ``pattern`` picks as another's (a category and a reason), or None."""
    lowered = pattern.lower()
    if names_mining(pattern) or lowered.strip("'\"^$*./ ") in _KIT_PROGRAMS or names_wallet(pattern):
        return RESOURCE_HIJACK, f"kills other miners ({piece(pattern)}): a miner clearing the CPU for itself"
    for token in _SPLIT.split(pattern):
        token = token.strip("'\"^$*")
        if not token:
            continue
        base = token.rstrip("/").rsplit("/", 1)[-1]
        kit = _kit_mark(token, base)
        if kit is not None:
            return kit
        if is_miner(base):
            return RESOURCE_HIJACK, f"kills other miners ({token}): a miner clearing the CPU for itself"
        place = next((p for p in _PLACES if token.startswith(p)), None)
        if place is not None:
            return PROCESS_HUNT, f"kills the programs run from {token}, where no project runs"
        thread = token if kernel_thread(token) else base if kernel_thread(base) else _posed_thread(base)
        if thread is not None:
            why = f"kills a process named like a kernel thread ({thread}): only an impostor dies"
            return PROCESS_HUNT, why
        if base in _SSH_SESSIONS:
            return PROCESS_HUNT, f"kills the SSH sessions ({token}): other sessions' logins and tunnels cut"
        if _HIDDEN_NAME.match(token) and token.lstrip("\\") not in _DEVELOPER_DOTS:
            return PROCESS_HUNT, f"kills a program named as a hidden file ({token.lstrip(chr(92))})"
    return _peer(pattern)


def _kit_mark(token: str, base: str) -> tuple[str, str] | None:
    """What marks one word of a pattern as another kit's: its program's name (``ddg.2011``), a coin
    address, a base64 command line, a generated name, a pool login's e-mail address."""
    if _KIT_VERSION.sub("", token.lower().strip("./")) in _KIT_PROGRAMS:
        return RESOURCE_HIJACK, f"kills a cryptojacking kit's program ({token}): a miner clearing the CPU"
    if base.lower() in _BOT_PROGRAMS or _ARCH_BUILD.match(base):
        return PROCESS_HUNT, f"kills a botnet's program ({token}): a worm evicting the bots before it"
    if _WALLET_FRAGMENT.match(token) and _mixed(token):
        return RESOURCE_HIJACK, f"kills the miners paying {token[:12]}…: a miner clearing the CPU"
    decoded = _decoded_command(token)
    if decoded is not None:
        return PROCESS_HUNT, f"kills the processes running an encoded command ({decoded!r}): a dropper's"
    if _generated_name(base):
        return PROCESS_HUNT, f"kills a program with a generated name ({base}): another dropper's"
    if _POOL_LOGIN.match(token):
        return PROCESS_HUNT, f"kills the processes logged in as {token} (a mining pool's login)"
    return None


def _mixed(token: str) -> bool:
    """Upper case, lower case and digits all in ``token``: a key's or an address's, not a word's."""
    return (
        any(c.isupper() for c in token)
        and any(c.islower() for c in token)
        and any(c.isdigit() for c in token)
    )


_GENERATED = lazy_compile(
    r"^(?=(?:[^A-Z]*[A-Z]){2})(?=[^a-z]*[a-z])(?![a-z]*[0-9]*$)(?!.*[a-z]{3})[A-Za-z0-9]{6,12}$"
)
"""A short name of random letters and digits (``OIcJi1m``, ``2Ne80nA``, ``65ccEJ7``): two capitals or more, a
lower-case letter, no run of three lower-case letters (no word in it)."""


def _generated_name(token: str) -> bool:
    """A program named by a generator, not a person: random capitals, small letters and a digit not last."""
    return _GENERATED.match(token) is not None and any(c.isdigit() for c in token.rstrip("0123456789"))


def _posed_thread(name: str) -> str | None:
    """``kacpi_svc``, ``kthreadd_svc``: a kernel thread's name (or its stem) with a service's ending."""
    posed = _KERNEL_SUFFIX.match(name)
    if posed is None:
        return None
    stem = posed.group(1)
    return name if kernel_thread(stem) or kernel_thread(stem + "d") else None


def _decoded_command(token: str) -> str | None:
    """The start of the command line a base64 ``token`` spells (``L2Jpbi9iYXN``: ``/bin/bas``), or None."""
    if not _BASE64_WORD.match(token) or token.islower() or token.isupper():
        return None
    import base64  # only here: a hook that judges no such pattern never loads it

    body = token.rstrip("=")
    try:
        text = base64.b64decode(body[: len(body) - len(body) % 4], validate=True).decode("ascii")
    except (ValueError, UnicodeDecodeError):
        return None
    if not text.isprintable() and not all(c.isprintable() or c in "\n\r\t" for c in text):
        return None
    return text[:24] if any(marker in text for marker in _DECODED_SHELL) else None


def _peer(pattern: str) -> tuple[str, str] | None:
    """A network peer the pattern names: an address, a host name (``pool.example.com:3333``)."""
    for token in _SPLIT.split(pattern):
        if len(token) > _HOST_LIMIT or "." not in token:
            continue
        for match in _IPV4.finditer(token):
            if match.group(1) not in _LOCAL_PEERS:
                return PROCESS_HUNT, f"kills the processes talking to {match.group(1)}"
        for host in _HOST.finditer(token):
            if host.group(0).rpartition(".")[2].partition(":")[0].lower() not in _FILE_EXTENSIONS:
                return PROCESS_HUNT, f"kills the processes talking to {host.group(0)}"
        domain = _DOMAIN.match(token.strip("'\"^$*").lower())
        if domain is not None and domain.group(1) in _DOMAIN_ENDINGS:
            return PROCESS_HUNT, f"kills the processes talking to {token.strip(chr(39) + chr(34))}"
    return None


def _patterns(stage: Invocation) -> list[str]:
    """The patterns a filter stage (grep, awk) or a lister (pgrep, pidof) picks processes by."""
    values = _values(stage)
    if stage.name in _GREPS:
        if inverts_match(values):
            return []  # grep -v grep: what it names is spared
        return [v for v in values if not v.startswith("-")][:1]
    if stage.name in _AWKS:
        program = " ".join(values)
        found = []
        for match in _AWK_LITERAL.finditer(program):
            literal = match.group(1) if match.group(1) is not None else match.group(2)
            if not program[max(0, match.start() - 8) : match.start()].rstrip().endswith("!"):
                found.append(literal)  # !/awk/ spares what it names
        return found
    if stage.name in ("pgrep", "pidof"):
        return [v for v in values if not v.startswith("-")]
    return []


def _hunt(listing: list[Invocation]) -> tuple[str, str] | None:
    """What marks the processes a listing and its filters (``ps aux | grep X | awk …``) pick."""
    if any(_reads_mount_table(stage) for stage in listing):
        why = "kills the processes the mount table names: processes hidden by a bind mount over /proc/PID"
        return PROCESS_HUNT, why
    if listing and listing[0].name == "unhide":
        return PROCESS_HUNT, "kills the processes unhide finds hidden: another kit's, hidden by its rootkit"
    if listing and listing[0].name == "cat":
        files = [v for v in _values(listing[0]) if not v.startswith("-")]
        single = files[0] if len(files) == 1 and files[0].startswith("/") and "/." in files[0] else None
        place = hiding_place(normalize_path(single)) if single else None
        if place is not None:
            return PROCESS_HUNT, f"kills the processes whose IDs {files[0]} holds, hidden in {place}"
        return None
    if not listing or listing[0].name not in _LISTERS:
        return None
    for stage in listing:
        for pattern in _patterns(stage):
            mark = _mark(pattern)
            if mark is not None:
                return mark
    if listing[0].name in _CONNECTION_TABLES and len(listing) > 1:
        return PROCESS_HUNT, f"kills the processes holding the connections {listing[0].name} lists"
    return None


def _reads_mount_table(stage: Invocation) -> bool:
    """Whether ``stage`` lists the mount table (``cat /proc/mounts``, ``grep … /etc/mtab``, ``mount``)."""
    if stage.name in _MOUNT_LISTERS:
        return True
    return any(normalize_path(v) in _MOUNT_TABLES for v in _values(stage) if v.startswith("/"))


def _container_verb(stage: Invocation) -> str | None:
    """The subcommand of a container tool (``docker container rm`` -> ``rm``), or None."""
    if stage.name not in _CONTAINER_TOOLS:
        return None
    words = [v for v in _values(stage) if not v.startswith("-")][:2]
    if words and words[0] in ("container", "image") and len(words) > 1:
        return {"ls": "ls", "list": "ls", "rm": "rmi" if words[0] == "image" else "rm"}.get(
            words[1], words[1]
        )
    return words[0] if words else None


def _container_hunt(listing: list[Invocation]) -> tuple[str, str] | None:
    """A miner's or a kit's name a container listing and its filters pick (``docker ps | grep xmr``)."""
    if not listing or _container_verb(listing[0]) not in _CONTAINER_LISTINGS:
        return None
    values = _values(listing[0])
    patterns = [
        v.partition("=")[2] for i, v in enumerate(values) if i and values[i - 1] in _CONTAINER_FILTERS
    ]
    patterns += [v.partition("=")[2] for v in values if v.startswith("--filter=")]
    for stage in listing[1:]:
        patterns += _patterns(stage)
    for pattern in patterns:
        mark = _mark(pattern)
        if mark is not None and mark[0] == RESOURCE_HIJACK:
            return (
                RESOURCE_HIJACK,
                f"removes other miners' containers ({piece(pattern)}): a miner clearing the host",
            )
    return None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """``pkill``/``killall`` by a mark, ``kill $(…)`` of what a search by a mark lists."""
    name = invocation.name
    if _container_verb(invocation) in _CONTAINER_ENDINGS:
        for stages in substituted(invocation.command, invocation.args):
            mark = _container_hunt(stages)
            if mark is not None:
                return _verdict(mark[0], invocation, mark[1])
        return None
    if name not in _KILLERS:
        return None
    if name in ("pkill", "killall"):
        values = _values(invocation)
        for index, word in enumerate(values):
            if word.startswith("-") or (index and values[index - 1] in _VALUED):
                continue
            mark = _mark(word)
            if mark is not None:
                return _verdict(mark[0], invocation, mark[1])
        return None
    command = invocation.command
    for stages in substituted(command, invocation.args):
        mark = _hunt(stages)
        if mark is not None:
            return _verdict(mark[0], invocation, mark[1])
    return None


_FORCED = frozenset({"-9", "-KILL", "-SIGKILL", "-s9", "--signal=9", "--signal=KILL"})
_KILL_LIST = 3
"""Programs killed by force, each found by its own search, in one script: a dropper's list of rivals
(``pgrep -f xzpauectgr | xargs -I % kill -9 %``, ``pkill -9 -f slxfbkmxtd``, ``killall -9 vfinder``),
whose names say nothing alone; a developer stops their own server or two, not a list of strangers."""
_PLAIN_KILL_LIST = 5
"""Programs killed by name without force in one script (``pkill -f mixtape; pkill -f jawa; pkill -f
servim; …``): the same list of rivals in plain words. A developer stopping a stack names a few of its
servers (``pkill -f uvicorn; pkill -f celery; pkill -f vite; pkill -f node``), not five strangers."""


def _killed_targets(stages: list[Invocation], *, forced: bool) -> list[str]:
    """The names a pipeline kills (by force only, if ``forced``): ``pkill -9 NAME``, ``killall NAME``, a
    listing's search (``pgrep -f NAME``, ``ps aux | grep NAME``) handed to ``xargs kill``."""
    for index, stage in enumerate(stages):
        if stage.name not in _KILLERS:
            continue
        values = _values(stage)
        if forced and _FORCED.isdisjoint(values):
            continue
        if stage.name != "kill":
            return [
                v
                for i, v in enumerate(values)
                if not v.startswith("-") and (not i or values[i - 1] not in _VALUED)
            ]
        if index and "xargs" in stage.wrappers and stages[0].name in _LISTERS:
            return [p for s in stages[:index] for p in _patterns(s) if p]
    return []


def _kill_list(script: Script) -> Verdict | None:
    """Three programs or more killed by force in one script, each found by a search of its own name;
    five or more killed by name without force."""
    for forced, least in ((True, _KILL_LIST), (False, _PLAIN_KILL_LIST)):
        named: dict[str, list[Invocation]] = {}
        for stages in walk(script):
            targets = _killed_targets(stages, forced=forced)
            if not forced and len(targets) > 1:
                continue  # killall node npm vite: one stop of a stack, not a list searched name by name
            for target in targets:
                named.setdefault(target.strip("'\""), stages)
        if len(named) >= least:
            shown = ", ".join(list(named)[:4])
            how = "by force, each by its name" if forced else "each by its name"
            why = f"kills {len(named)} programs {how} ({shown}): a dropper clearing its rivals"
            return Verdict(PROCESS_HUNT, piece(" | ".join(s.text for s in next(iter(named.values())))), why)
    return None


def judge_script(script: Script, home: str) -> Verdict | None:
    """A listing piped into ``xargs kill`` (or a ``while read`` loop that kills what it reads), and a
    list of programs killed by force."""
    return _hunted(script) or _kill_list(script)


def _hunted(script: Script) -> Verdict | None:
    for stages in walk(script):
        reads = False  # a `while read` loop between the listing and the kill
        for index, stage in enumerate(stages[1:], 1):
            fed = "xargs" in stage.wrappers or reads
            if fed and _container_verb(stage) in _CONTAINER_ENDINGS:
                mark = _container_hunt([s for s in stages[:index] if s.name != "read"])
                if mark is not None:
                    return Verdict(mark[0], piece(" | ".join(s.text for s in stages)), mark[1])
                break
            if stage.name in _KILLERS and fed:
                mark = _hunt([s for s in stages[:index] if s.name != "read"])
                if mark is not None:
                    return Verdict(mark[0], piece(" | ".join(s.text for s in stages)), mark[1])
                break
            reads = reads or stage.name == "read"
    return None
