"""Layers that misbehave on purpose, for the hook's fault-injection tests.

Loaded by the hook subprocess as ``hook_faults:install``; the Bash command
names the fault: ``fault:raise``, ``fault:exit``, ``fault:print``, ``fault:fd``,
``fault:child``, ``fault:dunder``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

from agentbus import Registry, ToolCall, ToolResult


def misbehave(command: str) -> None:
    if "fault:raise" in command:
        raise RuntimeError("the layer fell over")
    if "fault:exit" in command:
        sys.exit(0)
    if "fault:print" in command:
        print("printed by a layer")
    if "fault:fd" in command:
        os.write(1, b"written to fd 1 by a layer\n")
    if "fault:child" in command:
        subprocess.run([sys.executable, "-c", "print('printed by a child process')"], check=True)
    if "fault:dunder" in command:
        sys.__stdout__.write("written to sys.__stdout__ by a layer\n")  # type: ignore[union-attr]


def before(call: ToolCall) -> None:
    command = str(call.args.get("command", ""))
    misbehave(command)
    call.block(f"decided despite {command}")


def after(event: ToolResult) -> None:
    misbehave(str(event.args.get("command", "")))


def install(registry: Registry, **options: Any) -> None:
    registry.add("tool.before", before, id="fault:before", tool="exec")
    registry.add("tool.after", after, id="fault:after", tool="exec")
