"""Tactic family ``bait files``: files that make Windows send its users' NTLM hashes, made or planted.

A shell command file (``.scf``), an internet or Windows shortcut (``.url``, ``.lnk``), a library or
search connector (``.library-ms``, ``.searchConnector-ms``) or a ``desktop.ini`` whose icon points at
the attacker's server: whoever opens the folder holding it in Windows Explorer authenticates to that
server, and Responder there takes the hash. Generators make a set of them (``ntlm_theft.py -g all -s IP
-f name``); the attack is putting one on a share others browse: ``smbmap --upload``, ``curl -T x.scf
smb://h/share/``, or a plain copy into a share mounted under ``/mnt`` or ``/media`` (``sudo cp pwn.scf
/mnt/Share/``). smbclient's ``put`` is :mod:`.domain_attacks`'. No project ships those to a share:
:data:`~agentbus.guards.verdict.CREDENTIALS`, blocked. Copying such a file within the project, or
generating one's own desktop.ini into it, is not judged.
"""

from __future__ import annotations

import posixpath
import re

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..interpreters import INTERPRETERS
from ..paths import normalize_path
from ..programs import Invocation
from ..verdict import CREDENTIALS, Verdict

__all__ = ["BAIT_NAME", "judge"]

BAIT_NAME = lazy_compile(
    r"(?:\.(?:scf|lnk|url|library-ms|searchconnector-ms)|(?:^|/)desktop\.ini)$", re.IGNORECASE
)
"""A file Windows Explorer follows to a server when it shows the folder holding it."""
_GENERATORS = frozenset({"ntlm_theft", "ntlm-theft", "ntlmtheft"})
"""Tools that write a set of bait files pointed at a server (Greenwolf's ntlm_theft)."""
_COPIERS = frozenset({"cp", "mv", "install", "rsync", "smbget", "gcp"})
_MOUNTED_SHARE = lazy_compile(r"^/(?:mnt|media|run/media|Volumes)/")
"""Where shares are mounted (``mount -t cifs //h/share /mnt/share``)."""
_SMB_URL = lazy_compile(r"^smbs?://", re.IGNORECASE)
_INFO = frozenset({"-h", "--help", "-help", "--version", "-V"})


def _generator(invocation: Invocation, values: list[str]) -> str | None:
    """The bait generator this command runs (``ntlm_theft.py -g all``, ``python3 ntlm_theft.py ...``)."""
    name = invocation.name.lower()
    if INTERPRETERS.match(name):
        script = next((v for v in values if not v.startswith("-")), "")
        name = posixpath.basename(script).lower()
    stem = name.removesuffix(".py")
    return stem if stem in _GENERATORS else None


def _planted(invocation: Invocation, values: list[str], home: str) -> str | None:
    """The bait file this command puts on a share, or None."""
    name = invocation.name
    if name == "smbmap":
        uploaded = [values[i + 1] for i, v in enumerate(values[:-1]) if v == "--upload"]
        uploaded += [values[i + 2] for i, v in enumerate(values[:-2]) if v == "--upload"]
        return next((u for u in uploaded if BAIT_NAME.search(u.replace("\\", "/"))), None)
    if name == "curl" and any(_SMB_URL.match(v) for v in values):
        sent = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-T", "--upload-file")]
        sent += [v[2:] for v in values if v.startswith("-T") and len(v) > 2]
        sent += [v.partition("=")[2] for v in values if v.startswith("--upload-file=")]
        return next((s for s in sent if BAIT_NAME.search(s)), None)
    if name in _COPIERS:
        operands = [v for v in values if not v.startswith("-")]
        if len(operands) < 2:
            return None
        target = normalize_path(operands[-1], home=home, cwd=invocation.cwd)
        if not (_MOUNTED_SHARE.match(target) or target.startswith("//")):
            return None
        return next((s for s in operands[:-1] if BAIT_NAME.search(s)), None)
    return None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A bait file made by a generator, or put on a share, in this command; else None."""
    name = invocation.name
    lowered = name.lower()
    if (
        name not in _COPIERS
        and name not in ("smbmap", "curl")
        and not INTERPRETERS.match(lowered)
        and lowered.removesuffix(".py") not in _GENERATORS
    ):
        return None
    values = _values(invocation)
    if not values or set(values) <= _INFO:
        return None
    generator = _generator(invocation, values)
    if generator is not None:
        why = f"{generator} makes files that send the NTLM hash of whoever browses them to a server (bait)"
        return _verdict(CREDENTIALS, invocation, why)
    planted = _planted(invocation, values, home)
    if planted is not None:
        why = f"{name} puts {planted} on a share: whoever opens its folder in Windows sends their NTLM hash"
        return _verdict(CREDENTIALS, invocation, why)
    return None
