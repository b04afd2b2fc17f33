"""The shell commands a Claude Code skill or slash command runs as it loads.

A skill (``.claude/skills/NAME/SKILL.md``) or a slash command
(``.claude/commands/NAME.md``) may hold commands, ``!`cmd``` inline or a
fenced block opened with ```` ```! ````, that Claude Code runs when the model
calls the Skill tool, and whose output it puts in the text: no Bash call
comes first, so agentbus never sees them as one. The PreToolUse hook reads
the skill the call names and judges its commands as one Bash call
(:func:`agentbus.adapters.claude_code.pre_tool_use`). A project's skills are
the project's to write; the user's own are read too (the agent may have
written them). Skills of plugins are not read. ``disableSkillShellExecution``
in the managed settings (``agentbus install claude-code --managed``) keeps
Claude Code from running any of them.
"""

from __future__ import annotations

import os
import re

from ..lazy_regex import lazy_compile

__all__ = ["skill_commands"]

_INLINE = lazy_compile(r"!`([^`\n]+)`")
_BLOCK = lazy_compile(r"^```!\s*\n(.*?)^```", re.M | re.S)
_LARGEST = 1024 * 1024
_NAME = lazy_compile(r"^[A-Za-z0-9_.:-]{1,200}$")


def skill_commands(name: str, project: str, home: str) -> tuple[str, list[str] | None] | None:
    """(file, commands) for the first file that defines skill ``name``; None when none does.

    ``name`` may carry a namespace (``frontend:build`` is commands/frontend/build.md).
    The commands are None for a file over 1 MiB: padded past what is read, it would hide
    a command from the judge and not from Claude Code.
    """
    if not _NAME.match(name) or name.startswith(".") or ".." in name:
        return None
    parts = name.split(":")
    for base in (os.path.join(project, ".claude"), os.path.join(home, ".claude")):
        for path in (
            os.path.join(base, "skills", *parts, "SKILL.md"),
            os.path.join(base, "commands", *parts) + ".md",
        ):
            try:
                with open(path, encoding="utf-8", errors="replace") as file:
                    text = file.read(_LARGEST + 1)
            except OSError:
                continue
            return path, (_commands(text) if len(text) <= _LARGEST else None)
    return None


def _commands(text: str) -> list[str]:
    """The commands in a skill's text, blocks first, then the inline ones, in order."""
    return [block.strip() for block in _BLOCK.findall(text)] + _INLINE.findall(text)
