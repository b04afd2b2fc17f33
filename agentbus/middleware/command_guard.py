"""``builtin:command-safety-guard``: moved to :mod:`agentbus.guards.danger`; this name stays for the installer."""

from ..guards.danger import CATEGORIES, GUARD, GUARD_ID, check_command, command_safety_guard, command_text, install

__all__ = ["CATEGORIES", "GUARD", "GUARD_ID", "check_command", "command_safety_guard", "command_text", "install"]
