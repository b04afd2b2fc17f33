"""udev rules whose text is known and runs nothing: a device setting (asked), not a root program (blocked).

A file under ``/etc/udev/rules.d`` is blocked as hidden persistence: ``RUN+="/tmp/x"`` runs a program as root
whenever a device appears. The same file written with text that only matches devices and sets their group,
mode, name or links (``echo 'KERNEL=="kvm", GROUP="kvm", MODE="0666"' | sudo tee
/etc/udev/rules.d/99-kvm4all.rules``, the step every Android emulator CI job runs; a board's or a phone's
USB permissions) starts nothing: it is a change to the machine's configuration, asked like any other
(``MODE="0666"`` on a disk would still give every user the disk). Only text known in full is settled this
way, and only when every key of every line is one that matches a device or sets one of those properties:
``RUN``, ``PROGRAM``, ``IMPORT``, an assigned ``ENV`` (``ENV{SYSTEMD_WANTS}`` starts a unit), or anything not
read here keeps the block.
"""

from __future__ import annotations

from ..lazy_regex import lazy_compile
from .findings import finding
from .locations import UDEV_RULE
from .programs import Invocation
from .verdict import STEALTH_PERSISTENCE, SYSTEM_CONFIG, Verdict

__all__ = ["UDEV_RULE", "settled"]

_KEY = lazy_compile(r'\s*([A-Z]+)(?:\{[\w.:*-]*\})?\s*(==|!=|\+=|-=|:=|=)\s*"[^"\n]*"\s*(,|$)')
"""One ``KEY{attribute}OP"value"`` of a rule line, and the comma or the end after it."""
_MATCHES = frozenset({
    "ACTION", "DEVPATH", "KERNEL", "KERNELS", "NAME", "SYMLINK", "SUBSYSTEM", "SUBSYSTEMS", "DRIVER",
    "DRIVERS", "ATTR", "ATTRS", "TAG", "TAGS", "ENV", "CONST", "TEST", "RESULT",
})  # fmt: skip
"""Keys that only match a device when compared (``==``, ``!=``)."""
_SETS = frozenset({"NAME", "SYMLINK", "OWNER", "GROUP", "MODE", "TAG", "OPTIONS", "LABEL", "GOTO", "ATTR"})
"""Keys assigned without running anything: the device node's name, links, owner, group and mode, tags,
options, labels and jumps, and a sysfs attribute's value."""


def _runs_nothing(text: str) -> bool:
    """Whether every line of ``text`` is blank, a comment, or a rule of matches and settings only."""
    rules = 0
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        position = 0
        while position < len(line):
            match = _KEY.match(line, position)
            if match is None:
                return False
            key, operator = match.group(1), match.group(2)
            if key not in (_MATCHES if operator in ("==", "!=") else _SETS):
                return False
            position = match.end()
            if not match.group(3) and position < len(line):
                return False
        rules += 1
    return rules > 0


def settled(verdict: Verdict | None, text: str | None, invocation: Invocation) -> Verdict | None:
    """``verdict``, or a system-configuration finding when it blocks a udev rule written with ``text``
    (known in full) that runs nothing."""
    if verdict is None or text is None or verdict.category != STEALTH_PERSISTENCE:
        return verdict
    if UDEV_RULE not in verdict.why or not _runs_nothing(text):
        return verdict
    what = "a udev rule that only matches devices and sets their names, links, group or mode (runs nothing)"
    return finding(SYSTEM_CONFIG, invocation, verdict.why.replace(UDEV_RULE, what))
