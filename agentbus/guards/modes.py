"""What ``chmod`` does to the files it names: which it lets run."""

from __future__ import annotations

import re

from .findings import static_args
from .programs import Invocation

__all__ = ["gives_execute", "made_executable"]


def gives_execute(mode: str) -> bool:
    """``+x``, ``u+rwx``, ``a=rx``, ``755``: a mode that lets the file run (``644``, ``-x`` do not)."""
    if mode.isdigit():
        return any(int(digit) % 2 for digit in mode[-3:])
    return any(re.search(r"[+=][rwst]*x", clause) for clause in mode.split(","))


def made_executable(invocation: Invocation) -> list[str]:
    """The files ``chmod`` (``invocation``) lets run (``chmod +x a b``, ``chmod -x`` none), as written."""
    values = [v for v in static_args(invocation) if v != "--"]
    modes = [v for v in values if re.fullmatch(r"-[rwxXst]+", v)]
    operands = [v for v in values if not v.startswith("-")]
    mode, files = (modes[0], operands) if modes else (operands[0] if operands else "", operands[1:])
    return files if gives_execute(mode) else []
