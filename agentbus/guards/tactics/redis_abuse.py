"""Redis driven as a file writer and a way into other machines.

Miners and botnets spread through Redis servers left open on the network. Two steps recur:

- ``CONFIG SET dir /var/spool/cron`` (or ``/root/.ssh``, ``/etc/cron.d``) and ``CONFIG SET
  dbfilename root`` (``authorized_keys``), then ``SAVE``: the server writes its database file,
  with a cron line or an SSH key planted in a value, wherever it is told. No coding task moves
  a server's dump file at run time, so either setting is
  :data:`~agentbus.guards.verdict.STEALTH_PERSISTENCE` (blocked by default), whether the command is
  in ``redis-cli``'s arguments or fed to it (``echo -e "config set dir …" | redis-cli``);
- a file of Redis commands fed to every host of a list (``while read h p; do cat cmds | redis-cli -h
  $h -p $p; done < hosts``): commands run on other machines, lateral movement, asked as
  :data:`~agentbus.guards.verdict.REMOTE_ACCESS` like ``docker -H``. One host named at run time
  (``redis-cli -h $REDIS_HOST < seed.redis``) is a developer's seed script: ordinary.

- a cron line or an SSH key stored in a value, padded with newlines (``SET x "\\n\\n*/2 * * * * … | sh\\n"``):
  the payload the moved dump file plants, :data:`~agentbus.guards.verdict.STEALTH_PERSISTENCE` too; and
  ``FLUSHALL`` fed on standard input (``echo FLUSHALL | redis-cli -h HOST``) destroys as it does in the
  arguments (:mod:`.impact`);
- a web page's code stored in a value (``SET x "<?php system($_GET['c']); ?>"``): what the dump file,
  moved to ``/var/www/html`` as ``shell.php``, serves as a web shell;
  :data:`~agentbus.guards.verdict.BACKDOOR` (blocked);
- code loaded into the server: ``MODULE LOAD /tmp/exp.so`` runs a shared library inside it, and
  ``SLAVEOF``/``REPLICAOF HOST PORT`` makes it copy whatever HOST sends (the rogue-master way in:
  the attacker's master ships the module, then ``MODULE LOAD``). Both are
  :data:`~agentbus.guards.verdict.REMOTE_CODE` (blocked), but a module installed on the machine
  (under ``/usr`` or ``/opt``), a replica of a server on this machine and ``REPLICAOF NO ONE``.

``valkey-cli`` and ``keydb-cli`` are the same client under other names.
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..carriers import PAGE_CODE
from ..findings import finding as _verdict
from ..findings import piece
from ..findings import static_args as _values
from ..hosts import is_this_machine
from ..parse import Script
from ..programs import Invocation, walk
from ..verdict import BACKDOOR, DATA_DESTRUCTION, REMOTE_ACCESS, REMOTE_CODE, STEALTH_PERSISTENCE, Verdict

__all__ = ["judge", "judge_script"]

_CLIENTS = frozenset({"redis-cli", "valkey-cli", "keydb-cli"})
_MOVES_DUMP = lazy_compile(r"\bconfig\s+set\s+(dir|dbfilename)\s+(\S+)", re.IGNORECASE)
"""``CONFIG SET dir PATH`` / ``CONFIG SET dbfilename NAME``: where the server writes its database file."""
_PRINTERS = frozenset({"echo", "printf", "cat"})
_LOADS_MODULE = lazy_compile(r"\bmodule\s+load(?:ex)?\s+(\S+)", re.IGNORECASE)
"""``MODULE LOAD PATH`` (``MODULE LOADEX PATH``): a shared library run inside the server."""
_INSTALLED_MODULE = lazy_compile(r"^/(?:usr|opt)/(?!.*\.\./)")
_REPLICATES = lazy_compile(r"\b(?:slaveof|replicaof)\s+(\S+)\s+(\S+)", re.IGNORECASE)
"""``SLAVEOF HOST PORT`` / ``REPLICAOF HOST PORT``: the server copies everything HOST sends."""
_PLANTED = lazy_compile(
    r"\bset\s+\S+\s+.{0,400}?(?:\\n|\n)\s*(?:(?:[*\d/,-]+\s+){4}[*\d/,-]+\s+\S"
    r"|@(?:reboot|hourly|daily|weekly|monthly)\s+\S|ssh-(?:rsa|dss|ed25519|ecdsa-\S+)\s+AAAA)",
    re.IGNORECASE | re.DOTALL,
)
"""``SET KEY "\\n\\n*/2 * * * * curl … | sh\\n"``: a cron line (or an SSH key) padded with newlines, kept
in a value so that the dump file, once moved to ``/var/spool/cron``, holds a line cron reads."""
_STORES = lazy_compile(r"\b(?:set|setnx|setex|getset|append|hset|lpush|rpush|sadd)\s+\S", re.IGNORECASE)
"""A command that stores a value (``SET KEY VALUE``, ``HSET``, ``LPUSH`` …)."""
_FLUSHES = lazy_compile(r"\bflushall\b", re.IGNORECASE)


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """``redis-cli -h HOST config set dir /root/.ssh``: the dump file moved by the arguments."""
    if invocation.name not in _CLIENTS:
        return None
    return _moved(invocation, " ".join(_values(invocation)))


def _moved(invocation: Invocation, commands: str) -> Verdict | None:
    """What ``commands`` (the client's arguments, or what it is fed) make the server do that plants
    a file or runs code: the dump file moved, a module loaded, a replica of another server."""
    module = _LOADS_MODULE.search(commands)
    if module is not None and not _INSTALLED_MODULE.match(module.group(1).strip("'\"")):
        why = f"loads {module.group(1)} into the Redis server: a shared library it runs as its own code"
        return _verdict(REMOTE_CODE, invocation, why)
    master = _REPLICATES.search(commands)
    if master is not None and master.group(1).lower() != "no" and not is_this_machine(master.group(1)):
        why = (
            f"makes the Redis server a replica of {master.group(1)}: it loads whatever that server sends "
            "(the rogue-master way to run code on a Redis server)"
        )
        return _verdict(REMOTE_CODE, invocation, why)
    planted = _PLANTED.search(commands)
    if planted is not None:
        why = (
            "stores a cron line or an SSH key, padded with newlines, in a Redis value: the dump file "
            "written to a cron or .ssh directory then plants it"
        )
        return _verdict(STEALTH_PERSISTENCE, invocation, why)
    if _STORES.search(commands) and PAGE_CODE.search(commands):
        why = (
            "stores a web page's code (<?php, <%) in a Redis value: the dump file, written into a web "
            "root, is then a web shell"
        )
        return _verdict(BACKDOOR, invocation, why)
    match = _MOVES_DUMP.search(commands)
    if match is None:
        return None
    why = (
        f"tells Redis to write its database file to {match.group(1)} {match.group(2)}: the known way "
        "to plant a cron job or an SSH key through a Redis server"
    )
    return _verdict(STEALTH_PERSISTENCE, invocation, why)


def judge_script(script: Script, home: str) -> Verdict | None:
    """Redis commands fed on standard input: the dump file moved, or a command file sent to a host list."""
    hosts: set[str] = set()
    """Variables ``read`` so far: a list of hosts when a Redis client is pointed at one of them."""
    for stages in walk(script):
        for index, stage in enumerate(stages):
            if stage.name == "read":
                hosts.update(v for v in _values(stage) if re.fullmatch(r"[A-Za-z_]\w*", v))
            if stage.name not in _CLIENTS:
                continue
            fed = " ".join(" ".join(_values(s)) for s in stages[:index] if s.name in ("echo", "printf"))
            moved = _moved(stage, fed.replace("\\n", "\n"))
            if moved is None and _FLUSHES.search(fed):
                moved = _verdict(DATA_DESTRUCTION, stage, "deletes every key in every Redis database")
            if moved is not None:
                return Verdict(
                    moved.category, piece(" | ".join(s.text for s in stages[: index + 1])), moved.why
                )
            if _fed_commands(stages[:index], stage) and _host_from_list(stage, hosts):
                text = piece(" | ".join(s.text for s in stages))
                why = "feeds a file of Redis commands to every host of a list: commands run on other machines"
                return Verdict(REMOTE_ACCESS, text, why)
    return None


def _fed_commands(upstream: list[Invocation], client: Invocation) -> bool:
    """``cat FILE | redis-cli``, ``redis-cli < FILE``: commands come from standard input."""
    return any(s.name in _PRINTERS for s in upstream) or any(r.op == "<" for r in client.command.redirects)


def _host_from_list(client: Invocation, hosts: set[str]) -> bool:
    """``-h $h`` where ``h`` was ``read`` (a loop over a host list), or xargs' placeholder (``-h {}``)."""
    words = [client.command.render(word) for word in client.command.words]
    for index, word in enumerate(words[:-1]):
        if word != "-h":
            continue
        host = words[index + 1]
        variable = re.fullmatch(r"\$\{?([A-Za-z_]\w*)\}?", host)
        if (variable and variable.group(1) in hosts) or ("xargs" in client.wrappers and "{}" in host):
            return True
    return False
