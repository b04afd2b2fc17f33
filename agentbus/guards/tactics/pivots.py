"""Tactic family ``pivots``: SOCKS relays and port forwarders known by their mode, whatever their name.

EarthWorm (``ew``) and its forks (Termite, ``ew_for_linux64``, renamed copies) take the mode as
``-s MODE``: ``ssocksd`` (a SOCKS server here), ``rcsocks``/``rssocks`` (a reverse SOCKS tunnel
between this machine and the attacker's), ``lcx_listen``/``lcx_tran``/``lcx_slave`` (port relays).
No other program takes those words, and attackers rename the binary, so the mode is what is judged
(a backdoor: the attacker reaches this network through it), not the program's name.
"""

from __future__ import annotations

from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..programs import Invocation
from ..verdict import BACKDOOR, Verdict

__all__ = ["judge"]

_MODES = frozenset({"ssocksd", "rcsocks", "rssocks", "lcx_listen", "lcx_tran", "lcx_slave"})


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """EarthWorm's relay modes (``-s rssocks -d HOST -e PORT``), or None."""
    if not invocation.name:
        return None
    values = _values(invocation)
    for index, value in enumerate(values[:-1]):
        mode = values[index + 1] if value == "-s" else None
        if mode in _MODES:
            why = f"runs an EarthWorm-style relay (-s {mode}): a SOCKS tunnel or port relay into this network"
            return _verdict(BACKDOOR, invocation, why)
    return None
