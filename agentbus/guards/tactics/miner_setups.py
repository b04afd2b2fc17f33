"""Tactic family ``miner setups``: the steps that set a miner up without the word "xmrig" running.

A dropper rarely starts ``xmrig`` under its own name with a wallet on the command line; it edits the
miner's ``config.json`` and starts it under another name. Each step alone names no miner that
:mod:`.impact` can see, but each says what the file or the program is:

- a miner's config rewritten in place (``sed -i 's/"donate-level": *[^,]*,/"donate-level": 0,/'
  config.json``, ``sed -i "s/\\"url\\": .*/\\"url\\": \\"$POOL\\",/" config.json``, ``jq '.pools[0].user =
  …'``): keys only XMRig's config has, a pool's or a coin's name, a pool's address with no scheme, or
  the pool and wallet variables a dropper fills in;
- a miner's program renamed (``mv xmrig stealthd``, ``mv cpuminer-sse2 "$BIN_NAME"``, ``cp ./xmrig
  ~/kworker``): the name ``ps`` will show is a lie;
- a program told a pool and a wallet held in variables named so (``$BIN -o $POOL -u $WALLET``, ``-o
  pool.supportxmr.com:443 -u $WALLET``): XMRig's and cpuminer's login, whatever the program is called;
- a miner's algorithm chosen in its config (``"algo": "rx/0"``, ``"algo": "power2b"``), or a placeholder in
  a config named by a variable replaced by the dropper's pool or wallet (``sed -i "s/tua/$WALLET/" $CFG``);
- a miner's config written whole (``cat > config.json <<EOF`` with ``"donate-level"``, ``"algo": "rx/0"``,
  ``"algo": "$ALGO"``, a pool's login): the same keys as an edit's, in a file the line writes;
- a placeholder in a config hidden in a shared temporary directory replaced by an address held in
  variables (``sed -i "s/tua/$IP:$PORT/" /tmp/.ICE-unix/.x/config.json``); the same edit of a config
  named only by a variable (``$CFG``) is an ordinary template's, and stays allowed;
- a rival miner's hidden files deleted from a shared temporary directory (``rm -rf /tmp/.xmrig
  /tmp/.ICE-unix/.x``, or a hidden directory inside X11's ``/tmp/.ICE-unix`` alone): a miner clearing
  the machine for itself.

Each is :data:`~agentbus.guards.verdict.RESOURCE_HIJACK`. A developer's config edits (``"port": 3000``,
``"url": "http://localhost:8080"``) and copies of a miner under its own name stay allowed.
"""

from __future__ import annotations

import posixpath
import re

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..programs import Invocation, written_text
from ..verdict import RESOURCE_HIJACK, Verdict
from .impact import is_miner, names_wallet
from .process_hunts import names_mining

__all__ = ["judge"]

_EDITORS = frozenset({"sed", "gsed", "perl"})
_MINER_KEYS = lazy_compile(
    r'"(?:donate-level|donate-over-proxy|max-threads-hint|max-cpu-usage|cpu-max-threads-hint|rig-id|'
    r"randomx-mode|huge-pages-jit|1gb-pages|rebench-algo|bench-algo-time|cpu-priority|nicehash|"
    r'self-select|submit-to-origin)\\?"',
    re.IGNORECASE,
)
"""Keys only XMRig's (and its forks') ``config.json`` has: a web or build config has none of them."""
_LOGIN_KEYS = lazy_compile(r'"(?:url|user|pass|wallet|coin|algo)\\?"\s*:\s*\\?"([^"\\]*)')
"""A pool's login in a miner's config: the value a replacement gives it."""
_POOL_ADDRESS = lazy_compile(r"^(?:[a-z0-9-]+\.)+[a-z0-9-]+:\d{2,5}$", re.IGNORECASE)
"""``gulf.moneroocean.stream:10128``, ``43.157.91.13:2425``: a pool's address, which has no scheme."""
_LOCAL = ("localhost", "127.", "0.0.0.0")
_SERVICE_PORTS = frozenset({"80", "443", "1433", "1521", "2181", "3000", "3306", "5000", "5432", "5672",
                            "5984", "6379", "8000", "8080", "8086", "8443", "9000", "9092", "9200", "11211",
                            "27017"})  # fmt: skip
"""Ports of the web servers, databases and queues an application's config points at (``db.internal:5432``):
a pool's address has its own (3333, 4444, 10128 ...)."""
_MINING_VARIABLE = lazy_compile(r"\$\{?\w*(?:POOL|WALLET)\w*\}?", re.IGNORECASE)
"""``$POOL``, ``${WALLET}``, ``$XMR_POOL``: the variables a dropper fills with its pool and wallet."""
_POOLS_PATH = lazy_compile(r"\.pools\s*\[[^\]]*\]\s*\.\s*(?:url|user|pass|coin|algo)\b")
"""jq's path to a miner's pool login (``.pools[0].url``)."""
_CONFIG_SUFFIXES = (".json", ".conf", ".cfg", ".ini", ".toml", ".yaml", ".yml", ".txt")
"""A config file's endings: a pool's name edited into one is the miner's; into ``README.md``, words."""
_JQ_ASSIGNMENT = lazy_compile(r"(?<![=!<>|+*/%-])[|+*/%-]?=(?!=)")
"""jq's ``=``, ``|=``, ``+=`` …: a filter that sets a value (``==`` compares)."""
_MINING_ALGORITHMS = lazy_compile(
    r"^(?:rx|cn|cn-lite|cn-heavy|cn-pico|argon2|astrobwt|ghostrider|panthera)/\w+$|^(?:randomx|randomxmonero|"
    r"cryptonight\w*|power2b|yespower\w*|kawpow|ethash|etchash|autolykos2?|ghostrider|verushash|"
    r"randomarq|randomwow|gr|chukwa|minotaurx|yescrypt\w*)$",
    re.IGNORECASE,
)
"""The algorithms a CPU or GPU miner mines by (XMRig's ``rx/0``, ``cn/r``; cpuminer's ``power2b``,
``yespower``): an ``"algo"`` set to one is a miner's config, not a signature's (``"HS256"``)."""
_DROPPER_VARIABLE = lazy_compile(
    r"\$\{?(?:(?:xmr|monero|mining|miner|my|coin|crypto)_)?(?:POOL|WALLET)"
    r"(?:_?(?:URL|ADDR|ADDRESS|HOST|PORT))?\}?(?!\w)",
    re.IGNORECASE,
)
"""``$POOL``, ``${WALLET}``, ``$XMR_POOL``, ``$POOL_URL``: a dropper's pool or wallet by itself, not a
connection pool's setting (``$POOL_SIZE``, ``$DB_POOL``, ``$THREAD_POOL_MAX``)."""
_ALGO_VALUE = lazy_compile(r'"algo\\?"\s*:\s*\\?"((?:[^"\\]|\\/)*)')
"""An ``"algo"`` key's new value, sed's escaped slash kept (``"algo": "rx\\/0"``)."""
_SHARED_TEMPS = ("/tmp/", "/var/tmp/", "/dev/shm/")
_POOL_OPTIONS = frozenset({"-o", "--url", "--pool", "-pool", "-pool1", "-s", "--server"})
_WALLET_OPTIONS = frozenset({"-u", "--user", "--username", "--wallet", "-wallet", "-w"})
_SHOWERS = frozenset({"echo", "printf", "grep", "egrep", "fgrep", "rg"})
_MOVERS = frozenset({"mv", "cp", "install", "ln"})
_DIRECTORY_NAMES = frozenset({".", "..", "~", "$HOME", "bin", "sbin", "build", "dist", "out", "release",
                              "target", "tmp", "lib", "opt", "src", "vendor", "tools"})  # fmt: skip
"""Targets that are directories whatever they hold (``mv xmrig bin``): the program keeps its name."""


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A miner's config rewritten, its program renamed, or a program given a pool and a wallet."""
    name = invocation.name
    if name in _EDITORS or name == "jq":
        return _config_rewritten(invocation)
    if name in _MOVERS:
        return _renamed(invocation)
    if name == "rm":
        return _rivals_deleted(invocation)
    if name in _WRITERS:
        return _config_written(invocation)
    if name in _SHOWERS:
        return None
    return _pool_and_wallet(invocation)


def _config_rewritten(invocation: Invocation) -> Verdict | None:
    """``sed -i`` (or ``jq``) editing what only a miner's config holds."""
    args = list(invocation.args)
    redirected = [invocation.command.render(r.target) for r in invocation.command.redirects if r.op == ">"]
    if invocation.name != "jq" and not any(_in_place(a) for a in args):
        if not any(map(_hidden_config, redirected)):  # sed "s/tua/$IP:$PORT/" $CFG > /tmp/.x/config.json
            return None
        args += redirected
    expressions = [a for a in args if not a.startswith("-")]
    if invocation.name == "jq" and not any(_JQ_ASSIGNMENT.search(a) for a in expressions):
        return None  # jq '.pools[0].url' config.json: read, not rewritten
    for text in expressions:
        key = _MINER_KEYS.search(text)
        if key is not None:
            return _verdict(RESOURCE_HIJACK, invocation, f"edits a miner's config ({key.group(0)})")
        if invocation.name == "jq" and _POOLS_PATH.search(text):
            return _verdict(RESOURCE_HIJACK, invocation, "edits a miner's pool login (.pools[…])")
    configs = any(a.lower().endswith(_CONFIG_SUFFIXES) for a in expressions)
    named_by_variable = len(expressions) > 1 and expressions[-1].startswith("$")
    hidden = any(_hidden_config(a) for a in expressions[1:])
    for text in expressions:
        if named_by_variable and _replaced_by_dropper(text):
            why = "fills a config named by a variable with the dropper's pool or wallet"
            return _verdict(RESOURCE_HIJACK, invocation, why)
        if hidden and _replaced_by_address(text):
            why = "fills a config hidden in a shared temporary directory with an address held in variables"
            return _verdict(RESOURCE_HIJACK, invocation, why)
        algorithm = _chosen_algorithm(text)
        if algorithm is not None:
            return _verdict(RESOURCE_HIJACK, invocation, f"sets a miner's algorithm to {algorithm}")
        if (configs and names_mining(text)) or names_wallet(text):
            return _verdict(RESOURCE_HIJACK, invocation, "points a config at a mining pool or a wallet")
        login = _pool_login(text, _MINING_VARIABLE)
        if login is not None:
            why = f"sets a miner's pool login to {login} (a pool's address or a dropper's variable)"
            return _verdict(RESOURCE_HIJACK, invocation, why)
    return None


def _chosen_algorithm(text: str) -> str | None:
    """The mining algorithm an ``"algo"`` key is given (``rx/0``, sed's ``rx\\/0``), or "a variable's
    value" for ``"algo": "$ALGO"``; None for any other value (``"HS256"``)."""
    for algo in _ALGO_VALUE.finditer(text):
        value = algo.group(1).replace("\\/", "/")
        if _MINING_ALGORITHMS.match(value):
            return value
    variable = _ALGO_VARIABLE.search(text)
    if variable is None:
        return None
    # "algo": "$ALGO" names nothing else; "algo": "$HASH_ALGO" in hash.json is a digest's, unless the
    # text around it is a miner's (a pool, a wallet, a login)
    if variable.group(1).upper() == "ALGO" or _MINER_CONTEXT.search(text) or names_mining(text):
        return "a variable's value"
    return None


def _pool_login(text: str, variable: re.Pattern[str]) -> str | None:
    """A pool login's value in ``text`` that is a pool's address (a host and a port no service uses, not
    this machine's) or held in a ``variable`` a dropper fills."""
    for match in _LOGIN_KEYS.finditer(text):
        value = match.group(1)
        if variable.search(value) or (
            _POOL_ADDRESS.match(value)
            and not value.startswith(_LOCAL)
            and value.rpartition(":")[2] not in _SERVICE_PORTS
        ):
            return value
    return None


_WRITERS = frozenset({"cat", "echo", "printf", "tee"})
_ALGO_VARIABLE = lazy_compile(r'"algo\\?"\s*:\s*\\?"\$\{?(\w+)\}?\\?"')
"""``"algo": "$ALGO"``: a miner's algorithm left to the dropper (a token's signature key is ``"alg"``)."""
_MINER_CONTEXT = lazy_compile(r'"(?:pools|wallet|coin|rig-id|donate-level)\\?"\s*:')
"""Keys only a miner's config holds beside its algorithm: its pools, a wallet, a coin, a rig id."""
_ADDRESS_VARIABLES = lazy_compile(r"\$\{?\w+\}?:\$\{?\w*PORT\w*\}?", re.IGNORECASE)
"""``$IP:$PORT``, ``${HOST}:${POOL_PORT}``: an address held in variables."""


def _config_written(invocation: Invocation) -> Verdict | None:
    """``cat > config.json <<EOF``, ``echo '{…}' > c.json``: a file written whole with a miner's config
    keys, a mining algorithm (by its name or a variable) or a pool's login."""
    command = invocation.command
    if invocation.name != "tee" and not any(r.op in (">", ">>", ">|") for r in command.redirects):
        return None
    text = written_text(invocation)
    if text is None and invocation.name == "printf" and invocation.args:
        # printf '{"algo": "%s"}' "$ALGO" > config.json: the template with its arguments put in
        template, *rest = (command.render(a) for a in invocation.args)
        for value in rest:
            template = template.replace("%s", value, 1)
        text = template
    if text is None:
        text = " ".join(command.render(a) for a in invocation.args)
    key = _MINER_KEYS.search(text)
    if key is not None:
        return _verdict(RESOURCE_HIJACK, invocation, f"writes a miner's config ({key.group(0)})")
    algorithm = _chosen_algorithm(text)
    if algorithm is not None:
        return _verdict(RESOURCE_HIJACK, invocation, f"writes a miner's config mining {algorithm}")
    login = _pool_login(text, _DROPPER_VARIABLE)
    # a pool's address alone may be a service's host:port: a written config must name mining too
    if login is not None and (_DROPPER_VARIABLE.search(login) or names_mining(text)):
        return _verdict(RESOURCE_HIJACK, invocation, f"writes a miner's pool login ({login})")
    return None


def _hidden_config(path: str) -> bool:
    """``/tmp/.ICE-unix/.x/config.json``: a config in a hidden directory of a shared temporary one."""
    return path.startswith(_SHARED_TEMPS) and _hidden_inside(posixpath.dirname(path))


def _replacement(text: str) -> str:
    """What a sed substitution puts in (``s/tua/$WALLET/``: ``$WALLET``); "" for another expression."""
    if len(text) < 4 or text[0] != "s" or text[1].isalnum() or text[1].isspace():
        return ""
    parts = text.split(text[1])
    return parts[2] if len(parts) > 2 else ""


def _replaced_by_dropper(text: str) -> bool:
    """``s/tua/$WALLET/``, ``s#POOL_HERE#$POOL:$PORT#``: a substitution whose replacement is a dropper's
    pool or wallet variable."""
    return _DROPPER_VARIABLE.search(_replacement(text)) is not None


def _replaced_by_address(text: str) -> bool:
    """``s/tua/$IP:$PORT/``: a substitution whose replacement is an address held in variables."""
    return _ADDRESS_VARIABLES.search(_replacement(text)) is not None


def _rivals_deleted(invocation: Invocation) -> Verdict | None:
    """``rm -rf /tmp/.xmrig /tmp/.ICE-unix/.x``: hidden files in a shared temporary directory deleted by
    a command that names a miner."""
    operands = [a for a in invocation.args if not a.startswith("-")]
    hidden = [o for o in operands if o.startswith(_SHARED_TEMPS) and _hidden_inside(o)]
    if not hidden:
        return None
    x11 = next((o for o in hidden if _X11_HIDDEN.match(o)), None)
    if x11 is not None:
        why = f"deletes {x11}, a hidden directory inside X11's socket directory: where miners hide"
        return _verdict(RESOURCE_HIJACK, invocation, why)
    if not any(names_mining(o) or any(is_miner(part.lstrip(".")) for part in o.split("/")) for o in operands):
        return None
    why = f"deletes a rival miner's hidden files ({hidden[0]}): a miner clearing the machine for itself"
    return _verdict(RESOURCE_HIJACK, invocation, why)


_X11_HIDDEN = lazy_compile(r"^/tmp/\.(?:ICE|X11|font|XIM|Test)-unix/+\.(?!\.?/*$)[^/]")
"""``/tmp/.ICE-unix/.x``: a hidden name inside X11's socket directories, which hold sockets named by
number (``X0``, ``1234``) and nothing hidden; droppers park miners there and delete their rivals'."""


def _hidden_inside(path: str) -> bool:
    """``/tmp/.x``, ``/tmp/.ICE-unix/.x``: a hidden name below the shared directory."""
    rest = path[len(next(t for t in _SHARED_TEMPS if path.startswith(t))) :]
    return any(part.startswith(".") and part not in (".", "..") for part in rest.split("/"))


def _in_place(arg: str) -> bool:
    """``-i``, ``-i.bak``, ``--in-place``, ``-pi`` (perl), ``-ri``: a file edited where it is."""
    return arg.startswith(("-i", "--in-place")) or (arg[:1] == "-" and "i" in arg[1:] and arg[1:].isalpha())


def _renamed(invocation: Invocation) -> Verdict | None:
    """``mv xmrig stealthd``, ``cp ./xmrig ~/kworker``: a miner given a name that hides what it is."""
    operands = [a for a in invocation.args if not a.startswith("-")]
    if len(operands) != 2:
        return None
    source, target = (posixpath.basename(o.rstrip("/")) for o in operands)
    if not is_miner(source) or operands[1].endswith("/"):
        return None
    if target in _DIRECTORY_NAMES or is_miner(target) or target.lower().startswith(source.lower()):
        return None
    parent = posixpath.dirname(operands[1])
    renamed_in_place = not parent
    into_programs = posixpath.basename(parent) in ("bin", "sbin") or parent in ("~", "$HOME", "${HOME}")
    if not (renamed_in_place or into_programs or target.startswith("$")):
        return None
    why = f"renames the miner {source} to {target}: ps will show another program"
    return _verdict(RESOURCE_HIJACK, invocation, why)


def _option_value(args: tuple[str, ...], options: frozenset[str]) -> list[str]:
    """The values ``options`` are given (``-o $POOL``, ``--pool=$POOL``)."""
    found = [args[i + 1] for i, a in enumerate(args[:-1]) if a in options]
    found += [a.partition("=")[2] for a in args if a.partition("=")[0] in options and "=" in a]
    return found


def _pool_and_wallet(invocation: Invocation) -> Verdict | None:
    """``$BIN -a $ALGO -o $POOL -u $WALLET``: a pool (by its variable's name or a pool's host) and a wallet
    (by its variable's name) handed to a program."""
    args = invocation.args
    pools = _option_value(args, _POOL_OPTIONS)
    if not any(("POOL" in p.upper() and _MINING_VARIABLE.search(p)) or names_mining(p) for p in pools):
        return None
    wallets = _option_value(args, _WALLET_OPTIONS)
    if not any("WALLET" in w.upper() and _MINING_VARIABLE.search(w) for w in wallets):
        return None
    why = "logs in to a mining pool ($POOL) with a wallet ($WALLET), whatever the program is called"
    return _verdict(RESOURCE_HIJACK, invocation, why)
