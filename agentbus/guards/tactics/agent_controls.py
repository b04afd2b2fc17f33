"""Tactic family ``agent_controls``: another AI coding agent let loose, out of the guard's sight (asked).

An agent's shell commands pass this guard; the commands of an agent it starts do not. The published
attacks on coding agents use exactly that: the Nx "s1ngularity" packages (August 2025) ran the
installed ``claude --dangerously-skip-permissions -p``, ``gemini --yolo -p`` and ``q chat
--trust-all-tools --no-interactive`` with a prompt to inventory wallets, keys and ``.env`` files; the
Amazon Q extension 1.84 (July 2025, AWS-2025-015) ran ``q --trust-all-tools --no-interactive`` with a
prompt to wipe the home directory and the AWS account; prompt injections turn an agent's approvals off
by writing its settings (``"chat.tools.autoApprove": true``, CVE-2025-53773) or add an MCP server to a
user's agent config (the SANDWORM_MODE worm, February 2026). Each is
:data:`~agentbus.guards.verdict.UNGUARDED_AGENT` (asked by default: developers start agents so in a
sandbox of their own, and add MCP servers to their configs):

- an agent CLI started with its approvals off (:data:`UNGUARDED_FLAGS`), also by its npm package through
  ``npx``/``bunx``/``pnpm dlx`` (``npx @anthropic-ai/claude-code --dangerously-skip-permissions``);
- an MCP server added by an agent's CLI (``claude mcp add``, ``gemini mcp add``, ``codex mcp add``,
  ``code --add-mcp``): code every later session of that agent starts;
- an approval setting turned off in what a command writes (:data:`TURNED_OFF`: ``"chat.tools.autoApprove":
  true``, ``amp.dangerouslyAllowAll``, ``"defaultMode": "bypassPermissions"``, Gemini's ``approvalMode``
  ``yolo``, Codex's ``danger-full-access`` sandbox, Kiro's ``trustedCommands: ["*"]``), by a redirection,
  ``tee``, ``sed -i`` or an interpreter's code. Printed or searched for (``grep autoApprove``), it passes.

The same agents run with their approvals on (``claude -p "fix the tests"``, ``gemini -p``, ``codex exec``
in its read-only sandbox, ``claude --permission-mode plan``) and their MCP servers listed or removed
pass. The agents' settings and MCP files written by name are the path guards' (:mod:`..paths`).
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..findings import finding, static_args
from ..interpreters import INTERPRETERS, inline_code
from ..parse import Script
from ..programs import Invocation, walk
from ..verdict import UNGUARDED_AGENT, Verdict

__all__ = ["PACKAGES", "TURNED_OFF", "UNGUARDED_FLAGS", "judge", "judge_script"]

_BYPASS_MODE = lazy_compile(r"bypasspermissions")
_YOLO = lazy_compile(r"yolo")
_FULL_ACCESS = lazy_compile(r"danger-full-access")
_CODEX_CONFIG = lazy_compile(r"sandbox_mode\s*=\s*[\"']?danger-full-access[\"']?")

UNGUARDED_FLAGS: dict[str, tuple[frozenset[str], dict[str, re.Pattern[str]]]] = {
    "claude": (frozenset({"--dangerously-skip-permissions"}), {"--permission-mode": _BYPASS_MODE}),
    "gemini": (frozenset({"--yolo", "-y"}), {"--approval-mode": _YOLO}),
    "qwen": (frozenset({"--yolo", "-y"}), {"--approval-mode": _YOLO}),
    "q": (frozenset({"--trust-all-tools"}), {}),
    "kiro-cli": (frozenset({"--trust-all-tools"}), {}),
    "codex": (
        frozenset({"--dangerously-bypass-approvals-and-sandbox", "--yolo"}),
        {"--sandbox": _FULL_ACCESS, "-s": _FULL_ACCESS, "-c": _CODEX_CONFIG, "--config": _CODEX_CONFIG},
    ),
    "copilot": (frozenset({"--allow-all-tools", "--allow-all", "--yolo"}), {}),
    "cursor-agent": (frozenset({"--force", "-f", "--yolo"}), {}),
    "amp": (frozenset({"--dangerously-allow-all"}), {}),
    "aider": (frozenset({"--yes-always"}), {}),
    "crush": (frozenset({"--yolo", "-y"}), {}),
    "cline": (frozenset({"--yolo"}), {}),
    "opencode": (frozenset({"--dangerously-skip-permissions"}), {}),
    "droid": (frozenset({"--skip-permissions-unsafe"}), {}),
}
"""Each agent CLI's flags that run it without asking before its commands and edits, and its options
whose value does (``--permission-mode bypassPermissions``, Codex's ``-c sandbox_mode=danger-full-access``;
the value matched whole, in lower case)."""

PACKAGES = {
    "@anthropic-ai/claude-code": "claude",
    "@google/gemini-cli": "gemini",
    "@qwen-code/qwen-code": "qwen",
    "@openai/codex": "codex",
    "@github/copilot": "copilot",
    "@sourcegraph/amp": "amp",
    "@charmland/crush": "crush",
    "opencode-ai": "opencode",
    "cline": "cline",
}
"""The npm packages of the agent CLIs, as ``npx``/``bunx``/``pnpm dlx`` run them."""

_RUNNERS = frozenset({"npx", "bunx", "pnpx"})
_RUNNER_VALUES = frozenset({"-p", "--package", "-c", "--call", "--cache", "--registry", "--userconfig"})
"""``npx``'s options that take a value (the package to install, a command, a directory)."""

_MCP_ADDERS = frozenset({"claude", "gemini", "qwen", "codex", "amp", "q", "kiro-cli", "copilot", "opencode"})
_MCP_ADD = frozenset({"add", "add-json", "add-from-claude-desktop", "install"})
_EDITORS = frozenset({"code", "code-insiders", "cursor", "windsurf", "codium"})
"""VS Code and its forks: ``--add-mcp JSON`` adds an MCP server to the user's profile."""

TURNED_OFF = lazy_compile(
    r"chat\.tools\.(?:global\.)?autoApprove[\"']?\]?\s*[:=]\s*true"
    r"|chat\.tools\.terminal\.autoApprove.{0,200}?[\"']/\.[*+]/[\"']\s*:\s*true"
    r"|amp\.dangerouslyAllowAll[\"']?\]?\s*[:=]\s*true"
    r"|defaultMode[\"']?\]?\s*[:=]\s*[\"']bypassPermissions"
    r"|skipDangerousModePermissionPrompt[\"']?\]?\s*[:=]\s*true"
    r"|approvalMode[\"']?\]?\s*[:=]\s*[\"']?yolo"
    r"|sandbox_mode[\"']?\]?\s*[:=]\s*[\"']?danger-full-access"
    r"|trustedCommands[\"']?\]?\s*[:=]\s*\[\s*[\"']\*[\"']",
    re.IGNORECASE | re.DOTALL,
)
"""Settings that turn an agent's approvals off: VS Code's chat tools approved without asking (every
terminal command by ``/.*/``), Amp's ``dangerouslyAllowAll``, Claude Code's ``bypassPermissions`` mode and
its warning skipped, Gemini CLI's ``approvalMode: yolo``, Codex's unsandboxed mode, Kiro's every command
trusted."""
_WRITES = frozenset({">", ">>", ">|", "&>", "&>>"})
_NOT_FILES = lazy_compile(r"/dev/(?:null|stdout|stderr|tty|fd/[12])$|\.(?:md|markdown|rst|txt|html?|adoc)$")
"""Where a redirection writes no settings: the terminal, nowhere, or a document about them."""
_IN_PLACE = frozenset({"sed", "gsed", "perl", "yq"})


def _agent(invocation: Invocation) -> tuple[str, list[str]] | None:
    """The agent CLI ``invocation`` runs (by name, or by its npm package through a runner), and its words."""
    name = invocation.name
    values = static_args(invocation)
    if name in UNGUARDED_FLAGS:
        return name, values
    if name in ("pnpm", "yarn") and values[:1] == ["dlx"]:
        values = values[1:]
    elif name not in _RUNNERS:
        return None
    index = 0
    while index < len(values) and values[index].startswith("-"):
        index += 2 if values[index] in _RUNNER_VALUES else 1
    if index >= len(values):
        return None
    package = values[index]
    cut = package.rfind("@")
    agent = PACKAGES.get(package[:cut] if cut > 0 else package)
    return (agent, values[index + 1 :]) if agent else None


def _unguarded(agent: str, values: list[str]) -> str | None:
    """The flag or option in ``values`` that runs ``agent`` with its approvals off, if any."""
    flags, options = UNGUARDED_FLAGS[agent]
    for index, value in enumerate(values):
        if value == "--":
            break
        if value in flags:
            return value
        option, equals, inline = value.partition("=")
        wanted = options.get(option)
        if wanted is None:
            continue
        given = inline if equals else (values[index + 1] if index + 1 < len(values) else "")
        if wanted.fullmatch(given.lower()):
            return f"{option} {given}"
    return None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """An agent CLI started with its approvals off, or an MCP server added to an agent's config."""
    del home
    found = _agent(invocation)
    if found is not None:
        agent, values = found
        flag = _unguarded(agent, values)
        if flag is not None:
            why = f"starts the {agent} agent with its approvals off ({flag}): its commands pass no guard"
            return finding(UNGUARDED_AGENT, invocation, why)
        words = [v for v in values if not v.startswith("-")]
        if agent in _MCP_ADDERS and words[:1] == ["mcp"] and words[1:2] and words[1] in _MCP_ADD:
            why = f"adds an MCP server to the {agent} agent's config: code its later sessions start"
            return finding(UNGUARDED_AGENT, invocation, why)
        return None
    editor = invocation.name in _EDITORS
    if editor and any(v.partition("=")[0] == "--add-mcp" for v in static_args(invocation)):
        return finding(UNGUARDED_AGENT, invocation, "adds an MCP server to the editor's agent (--add-mcp)")
    return None


def _texts(invocation: Invocation) -> list[str]:
    """What a command may write: its static words and the here-documents it reads."""
    command = invocation.command
    texts = static_args(invocation)
    for redirect in command.redirects:
        if redirect.op == "<<":
            texts += [sub.text for sub in command.substitutions_in(redirect.target)]
        elif redirect.op == "<<<":
            texts.append(redirect.target)
    return texts


def _writes(invocation: Invocation, rest: list[Invocation]) -> bool:
    """Whether ``invocation`` writes a file: a redirection to one, in place (``sed -i``), an interpreter's
    own code, or a ``tee``/``sponge`` later in its pipeline."""
    command = invocation.command
    for redirect in command.redirects:
        if redirect.op in _WRITES and redirect.fd in ("", "1") and not _NOT_FILES.search(redirect.target):
            return True
    name = invocation.name
    values = static_args(invocation)
    if name in _IN_PLACE and any(v.startswith(("-i", "--in-place")) or v == "-pi" for v in values):
        return True
    if INTERPRETERS.match(name) and inline_code(invocation):
        return True
    return any(
        later.name in ("tee", "sponge")
        and any(not v.startswith("-") and not _NOT_FILES.search(v) for v in static_args(later))
        for later in rest
    )


def judge_script(script: Script, home: str) -> Verdict | None:
    """An approval setting turned off in what a command of ``script`` writes."""
    del home
    for pipeline in walk(script):
        for index, invocation in enumerate(pipeline):
            match = next((m for m in map(TURNED_OFF.search, _texts(invocation)) if m), None)
            if match is not None and _writes(invocation, pipeline[index + 1 :]):
                setting = " ".join(match.group(0).split())[:80]
                why = f"writes an agent's approvals off ({setting}): its commands would run without asking"
                return finding(UNGUARDED_AGENT, invocation, why)
    return None
