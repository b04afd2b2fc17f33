"""Tactic family ``IRC bots``: a script told to join an IRC server, the oldest botnets' command channel.

Honeypot sessions end with a Perl bot fetched and started with where to report
(``perl bot.pl 203.0.113.5 6667 '#chan'``, ``perl x.pl irc.example.net``, ``./a irc.example.net 6667``):
the bot joins the channel and runs what its herder says there (floods, scans, shells). What the script
does is not read here, but its arguments say where it takes orders from: an IRC server (a host named
``irc.*``, or a host with IRC's ports 6660-6669 and 6697) or a channel (``#chan``) beside a host.
Someone writing their own chat bot runs it the same way, so the finding is
:data:`~agentbus.guards.verdict.REMOTE_ACCESS`: a person is asked. IRC clients (``irssi``, ``weechat``)
run by their names are not scripts, and are not judged.
"""

from __future__ import annotations

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..interpreters import INTERPRETERS, inline_code
from ..programs import SHELLS, Invocation
from ..verdict import REMOTE_ACCESS, Verdict

__all__ = ["judge"]

_IRC_HOST = lazy_compile(r"^irc\d*\.[a-z0-9.-]+\.[a-z]{2,}$")
_HOST = lazy_compile(r"^(?:\d{1,3}(?:\.\d{1,3}){3}|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})$")
_IRC_PORTS = frozenset({*(str(port) for port in range(6660, 6670)), "6697"})
_LOCAL = lazy_compile(r"^(?:127\.|0\.0\.0\.0$|localhost$)")
_CHANNEL = lazy_compile(r"^#[^\s,#]{1,50}$")
_MAX_ARGUMENTS = 32


def _script_arguments(invocation: Invocation) -> list[str] | None:
    """The arguments a script is given: after the script's path for an interpreter or a shell
    (``perl bot.pl ARGS``), all of them for a program run by its path (``./bot ARGS``); None else."""
    name = invocation.name.lower()
    values = _values(invocation)
    if INTERPRETERS.match(name) or name in SHELLS:
        if inline_code(invocation) is not None:
            return None
        at = next((i for i, v in enumerate(values) if not v.startswith("-")), None)
        return values[at + 1 :] if at is not None else None
    command = invocation.command
    at = len(command.words) - len(invocation.args) - 1
    head = command.static(command.words[at]) if 0 <= at < len(command.words) else None
    return values if head and "/" in head else None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A script given an IRC server or channel to join, or None."""
    arguments = _script_arguments(invocation)
    if not arguments:
        return None
    words = [a.lower() for a in arguments[:_MAX_ARGUMENTS]]
    server = next((w for w in words if _IRC_HOST.match(w)), None)
    host = next((w for w in words if _HOST.match(w) and not _LOCAL.match(w)), None)
    port = next((w for w in words if w in _IRC_PORTS), None)
    channel = next((w for w in arguments[:_MAX_ARGUMENTS] if _CHANNEL.match(w)), None)
    if server is None and not (host is not None and (port is not None or channel is not None)):
        return None
    where = " ".join(w for w in (server or host, port, channel) if w)
    why = f"{invocation.name} runs a script told to join IRC ({where}): a bot that takes orders there"
    return _verdict(REMOTE_ACCESS, invocation, why)
