"""The hook process imports only what answering one event needs.

Claude Code starts `agentbus hook claude-code` for every tool call, so each
module it imports is paid for on every call. With sync layers only (the
built-in guards) the event is answered without an event loop: anyio, the
asyncio/trio machinery, structlog and the standard library's logging stay out.
An async layer brings anyio in, as it must. Nor does it import what only help
text, a grammar's query files or a typo's suggestions need: shutil (with bz2
and lzma), tempfile, importlib.resources, difflib; nor agentbus.coverage; nor
pathlib (with urllib.parse), nor base64 (with struct). And it builds no attrs
class but the public ones and the event model's: attrs generates and compiles
each class's methods at import.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

UNNEEDED = ("anyio", "sniffio", "structlog", "logging", "asyncio", "trio")
UNNEEDED_MODULES = (
    *("shutil", "bz2", "lzma", "tempfile", "importlib.resources", "tree_sitter_bash", "difflib"),
    *("argparse", "gettext", "locale", "hashlib"),
    *("pathlib", "urllib.parse", "ipaddress", "base64", "struct"),
    "agentbus.tool_coverage",
    *("dataclasses", "agentbus.guards.chart_archives", "agentbus.guards.makefiles"),
    *("agentbus.guards.manifests", "agentbus.guards.applescript"),
)
"""tree_sitter_bash's package imports importlib.resources: only its compiled binding is loaded.
argparse (with gettext and locale) only parses a hook command line that is not plainly written;
hashlib only names the download memory of a session whose id is not a UUID; pathlib, the
configuration or the data directory only when a file is found (os.path does the rest); base64
only decodes a command's base64; a Makefile, a manifest or a packaged chart's reader (and dataclasses)
only when the command runs one; AppleScript's only for osascript."""

ATTRS_CLASSES = {
    *("agentbus.config.Config", "agentbus.config.MiddlewareSpec"),
    *("agentbus.events.", "agentbus.records.", "agentbus.registry.", "agentbus.kinds."),
}
"""The attrs classes a hook process may build: the configuration's (public, users construct
them) and the event model's (any class of those modules)."""

SCRIPT = """
import sys
from agentbus.cli import main
status = main(["hook", "claude-code", *sys.argv[2:]])
with open(sys.argv[1], "w") as out:
    out.write("\\n".join(sorted(sys.modules)))
import attrs
with open(sys.argv[1] + ".attrs", "w") as out:
    out.write("\\n".join(
        f"{name}.{attribute}"
        for name, module in list(sys.modules.items()) if name.startswith("agentbus")
        for attribute, value in list(vars(module).items())
        if isinstance(value, type) and value.__module__ == name and attrs.has(value)
    ))
sys.exit(status)
"""

ASYNC_POLICY = """
async def look(call):
    pass

def install(registry):
    registry.add("tool.before", look, tool="exec")
"""


def run_hook(
    tmp_path: Path,
    command: str,
    *args: str,
    env: dict[str, str] | None = None,
    audit_log: bool = False,
    tool: tuple[str, dict[str, Any]] | None = None,
) -> tuple[dict[str, Any], set[str]]:
    """One hook process, as Claude Code starts it; its answer and the modules it imported.

    Without ``audit_log``, it writes none (``--no-audit-log``); with it, it writes the default
    log in a data directory in ``tmp_path``. ``tool`` is another call than Bash ``command``.
    """
    modules = tmp_path / "modules.txt"
    payload = {
        "session_id": "s",
        "transcript_path": "/dev/null",
        "cwd": str(tmp_path),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash" if tool is None else tool[0],
        "tool_input": {"command": command} if tool is None else tool[1],
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(modules), *([] if audit_log else ["--no-audit-log"]), *args],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "CLAUDE_PROJECT_DIR": str(tmp_path),
            "AGENTBUS_HOME": str(tmp_path / "data"),
            **(env or {}),
        },
        cwd=tmp_path,
        check=True,
    )
    answer = json.loads(done.stdout) if done.stdout.strip() else {}
    return answer, set(modules.read_text().split())


def top_level(modules: set[str]) -> set[str]:
    return {name.partition(".")[0] for name in modules}


def test_guards_alone_import_no_event_loop_nor_logging(tmp_path: Path) -> None:
    answer, modules = run_hook(tmp_path, "rm -rf /")
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"  # the guards did run
    assert "agentbus.guards.danger" in modules
    assert top_level(modules).isdisjoint(UNNEEDED), sorted(top_level(modules) & set(UNNEEDED))
    assert modules.isdisjoint(UNNEEDED_MODULES), sorted(modules & set(UNNEEDED_MODULES))
    assert "tree_sitter_bash._binding" in modules  # the command was parsed


def test_writing_the_audit_log_and_the_download_memory_imports_no_pathlib(tmp_path: Path) -> None:
    answer, modules = run_hook(tmp_path, "curl -o /tmp/p.sh https://x.example/p.sh", audit_log=True)
    assert answer.get("hookSpecificOutput", {}).get("permissionDecision") != "deny", answer
    assert (tmp_path / "data" / "audit.jsonl").stat().st_size > 0  # the records were written
    assert len(list((tmp_path / "data" / "sessions").iterdir())) == 1  # and the download remembered
    assert modules.isdisjoint(UNNEEDED_MODULES), sorted(modules & set(UNNEEDED_MODULES))


def test_the_hook_builds_no_attrs_class_but_the_public_ones_and_the_event_models(tmp_path: Path) -> None:
    answer, modules = run_hook(tmp_path, "ls -la")
    assert answer == {}  # allowed: Claude Code decides as it would without a hook
    assert "agentbus.guards.tactics.credentials" in modules  # the guards were imported
    built = set((tmp_path / "modules.txt.attrs").read_text().split())
    assert "agentbus.config.Config" in built  # the check sees attrs classes
    unexpected = {
        name
        for name in built
        if name not in ATTRS_CLASSES and name.rpartition(".")[0] + "." not in ATTRS_CLASSES
    }
    assert not unexpected, sorted(unexpected)


SHELL_MODULES = (
    *("agentbus.guards.danger", "agentbus.guards.tactics", "agentbus.guards.script_files"),
    *("agentbus.guards.parse", "agentbus.guards.programs", "agentbus.guards.interpreters"),
    *("agentbus.guards.carriers", "tree_sitter", "tree_sitter_bash._binding"),
)
"""What judging a shell command needs: a call of a file or search tool loads none of it."""


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("Read", {"file_path": "~/.ssh/id_rsa"}),
        ("Write", {"file_path": "~/.ssh/authorized_keys", "content": "ssh-ed25519 AAAA"}),
        ("Edit", {"file_path": "~/.aws/credentials", "old_string": "a", "new_string": "b"}),
        ("Grep", {"pattern": "KEY", "path": "~/.ssh"}),
        ("Glob", {"pattern": "~/.ssh/*"}),
    ],
)
def test_a_file_tool_call_loads_no_shell_parser_nor_tactics(
    tmp_path: Path, tool: str, args: dict[str, str]
) -> None:
    answer, modules = run_hook(tmp_path, "", tool=(tool, args))
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny", answer  # the path guards did run
    assert "agentbus.guards.files" in modules
    assert modules.isdisjoint(SHELL_MODULES), sorted(modules & set(SHELL_MODULES))


GC_POLICY = """
import gc, os, sys

def look(call):
    seen = "on" if gc.isenabled() else "off"
    print(f"collector {seen} frozen {gc.get_freeze_count() > 0}", file=sys.stderr)

def install(registry):
    registry.add("tool.before", look, tool="exec")
"""


def test_the_decision_runs_with_the_collector_on_and_the_start_up_frozen(tmp_path: Path) -> None:
    """The hook loads its guards with the cyclic collector off, then freezes them (a process per
    call); a layer, and whatever a large command allocates, runs with the collector on."""
    installed = tmp_path / "site"
    installed.mkdir()
    (installed / "gc_policy.py").write_text(GC_POLICY)
    project = tmp_path / "project"
    project.mkdir()
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}
    script = (
        "import gc, sys\nfrom agentbus.cli import main\n"
        "status = main(['hook', 'claude-code', '--no-audit-log', '--middleware', 'gc_policy:install'])\n"
        "print('after', gc.isenabled(), file=sys.stderr)\nsys.exit(status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(project), "PYTHONPATH": str(installed)},
        cwd=project,
        check=True,
    )
    assert "collector on frozen True" in done.stderr, done.stderr
    assert "after True" in done.stderr


def test_an_async_layer_brings_anyio_in(tmp_path: Path) -> None:
    installed = tmp_path / "site"  # outside the project: the hook imports nothing from there
    installed.mkdir()
    (installed / "async_policy.py").write_text(ASYNC_POLICY)
    project = tmp_path / "project"
    project.mkdir()
    answer, modules = run_hook(
        project, "rm -rf /", "--middleware", "async_policy:install", env={"PYTHONPATH": str(installed)}
    )
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny", answer
    assert "could not load" not in answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert "anyio" in modules


BINDING_SCRIPT = """
import sys
from agentbus.guards import parse
if sys.argv[1] == "unfindable":  # the binding cannot be found alone: the package is imported
    from importlib.machinery import PathFinder
    find_spec, missed = PathFinder.find_spec, []
    def once_unfindable(name, path=None, target=None):  # the import system's own lookup finds it
        if name == "tree_sitter_bash._binding" and not missed:
            missed.append(name)
            return None
        return find_spec(name, path, target)
    PathFinder.find_spec = once_unfindable
parse.parsed("ls -la")  # the command is parsed either way
print("tree_sitter_bash" in sys.modules)
import tree_sitter_bash
print(tree_sitter_bash.language is sys.modules["tree_sitter_bash._binding"].language)
print(tree_sitter_bash.language() is not None)
"""


def test_the_bash_binding_loaded_alone_is_the_one_the_package_uses() -> None:
    for case, package_imported in (("findable", "False"), ("unfindable", "True")):
        done = subprocess.run(
            [sys.executable, "-c", BINDING_SCRIPT, case], capture_output=True, text=True, check=True
        )
        assert done.stdout.split() == [package_imported, "True", "True"], (case, done.stdout, done.stderr)


def test_the_command_line_and_the_hook_module_import_neither_attrs_nor_the_bus() -> None:
    """agentbus's public names load on first use, so a hook process imports its event model
    and guards inside :func:`agentbus.hook.run`, which runs them with the collector off."""
    script = "import sys, agentbus.cli, agentbus.hook\n"
    script += "print('attrs' in sys.modules, 'agentbus.bus' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"], done.stderr
