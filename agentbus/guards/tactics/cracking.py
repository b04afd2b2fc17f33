"""Tactic family ``cracking``: guessing passwords, online against a login or offline against hashes.

ATT&CK's brute force (password guessing, spraying, cracking): no coding task needs it, so
each finding is :data:`~agentbus.guards.verdict.CREDENTIALS` (blocked by default):

- the tools by name: online guessers (``hydra``, ``medusa``, ``ncrack``, ``patator``,
  ``crowbar``, ``crackmapexec``/``nxc``, ``kerbrute``, ``legba``, ``brutespray``) and offline
  crackers (``john``, ``hashcat``, ``ophcrack``, ``fcrackzip``, ``pdfcrack``, ``aircrack-ng`` …);
- a password tried against a local account: ``dscl . -authonly USER PASSWORD`` (macOS), the
  step of a guessing loop.

Asking a tool for its help or version is ordinary.
"""

from __future__ import annotations

from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..programs import Invocation
from ..verdict import CREDENTIALS, Verdict

__all__ = ["judge"]

_GUESSERS = frozenset({"hydra", "xhydra", "pw-inspector", "medusa", "ncrack", "patator", "crowbar",
                       "crackmapexec", "cme", "nxc", "netexec", "kerbrute", "legba", "brutespray",
                       "thc-pptp-bruter", "sucrack", "spray", "o365spray"})  # fmt: skip
"""Programs that try passwords against a login service."""
_CRACKERS = frozenset({"john", "hashcat", "ophcrack", "fcrackzip", "pdfcrack", "rarcrack", "zip2john",
                       "ssh2john", "ssh2john.py", "keychain2john", "office2john", "unshadow", "aircrack-ng",
                       "cowpatty", "asleap", "bkcrack", "hashcat-legacy", "oclhashcat", "rcracki_mt",
                       "chntpw"})  # fmt: skip
"""Programs that recover passwords from hashes, keys or captured handshakes."""
_INFO = frozenset({"-h", "--help", "-help", "--version", "-V", "--list", "-I"})


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A password guessed or cracked in this command, or None."""
    name = invocation.name
    if name not in _GUESSERS and name not in _CRACKERS and name != "dscl":
        return None
    values = _values(invocation)
    if name == "dscl":
        return _dscl_guess(invocation, values)
    if len(values) == 1 and values[0] in _INFO:
        return None
    if name in _GUESSERS:
        return _verdict(CREDENTIALS, invocation, f"{name} guesses passwords against a login")
    return _verdict(CREDENTIALS, invocation, f"{name} cracks passwords from hashes or keys")


def _dscl_guess(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``dscl . -authonly USER PASSWORD``: one guess at an account's password (macOS's spraying loop)."""
    if "-authonly" not in values:
        return None
    return _verdict(CREDENTIALS, invocation, "dscl -authonly tries a password against a local account")
