"""``builtin:command-safety-guard``: now :mod:`agentbus.guards.danger`; this name stays for installers."""

from ..guards.danger import (
    CATEGORIES,
    GUARD,
    GUARD_ID,
    check_command,
    command_safety_guard,
    command_text,
    install,
)

__all__ = [
    "CATEGORIES",
    "GUARD",
    "GUARD_ID",
    "check_command",
    "command_safety_guard",
    "command_text",
    "install",
]
