"""``agentbus trust``: the projects whose configuration the user vouched for.

A configuration found in a project directory (``agentbus.toml``,
``agentbus.yaml``, ``[tool.agentbus]`` in ``pyproject.toml``) is written by
whoever writes the project, and that includes the agent agentbus guards. So,
like direnv's ``allow`` or mise's ``trust``, such a file has limited powers
until the user trusts it (see :mod:`agentbus.config`): it may add
restrictions and middleware from installed packages, but it may not turn off
or shadow the built-in guards, move the audit log out of agentbus's data
directory, or import its own code.

``agentbus trust DIR`` records the directory and a SHA-256 digest of its
agentbus settings in ``trusted.json`` in the data directory (0600). A changed
setting changes the digest, and the project needs trusting again. The command
asks for confirmation on a terminal: the agent's shell has none, so an agent
cannot simply trust the project it works in (it could still write the file
itself; keep the data directory out of the agent's reach, see the threat model).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .userdirs import data_dir, open_private

__all__ = [
    "EXAMPLES",
    "TRUST_FILE",
    "add_arguments",
    "digest",
    "is_trusted",
    "revoke",
    "run",
    "trust",
    "trusted",
]

TRUST_FILE = "trusted.json"

EXAMPLES = """\
examples:
  agentbus trust                 # trust the configuration in the working directory
  agentbus trust ~/src/project   # ... in another project
  agentbus trust --list
  agentbus trust --revoke ~/src/project
"""


def digest(settings: Mapping[str, Any]) -> str:
    """The SHA-256 of a project's agentbus settings, in a canonical JSON form.

    Comments, layout and the rest of ``pyproject.toml`` do not count: only
    what agentbus reads.
    """
    canonical = json.dumps(settings, sort_keys=True, ensure_ascii=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def _store_path() -> Path:
    return data_dir() / TRUST_FILE


def trusted() -> dict[str, dict[str, Any]]:
    """The trusted projects: ``{directory: {"file": ..., "sha256": ..., "time": ...}}``.

    A store that cannot be read trusts nothing (and says so on stderr).
    """
    path = _store_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        print(f"agentbus: cannot read the trusted projects in {path} ({exc}); trusting none", file=sys.stderr)
        return {}
    projects = data.get("projects") if isinstance(data, dict) else None
    if not isinstance(projects, dict):
        return {}
    return {key: value for key, value in projects.items() if isinstance(value, dict)}


def _key(directory: Path) -> str:
    return os.path.realpath(directory)


def is_trusted(directory: Path, file: Path, sha256: str) -> bool:
    """Whether the user trusted ``file`` in ``directory`` with exactly these settings."""
    entry = trusted().get(_key(directory))
    return entry is not None and entry.get("file") == file.name and entry.get("sha256") == sha256


def _save(projects: Mapping[str, Any]) -> None:
    """Replace the store in one step: write a private temporary file, then rename it."""
    path = _store_path()
    temporary = path.with_name(f".{TRUST_FILE}.{os.getpid()}.tmp")
    fd = open_private(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        os.write(fd, json.dumps({"version": 1, "projects": projects}, indent=2, sort_keys=True).encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, path)


def trust(directory: Path, file: Path, sha256: str) -> None:
    """Record that the user trusts ``file`` in ``directory`` with these settings."""
    projects = trusted()
    projects[_key(directory)] = {"file": file.name, "sha256": sha256, "time": time.time()}
    _save(projects)


def revoke(directory: Path) -> bool:
    """Forget ``directory``; return False if it was not trusted."""
    projects = trusted()
    if projects.pop(_key(directory), None) is None:
        return False
    _save(projects)
    return True


# -- the command ----------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", nargs="?", default=".", help="the project directory (default: here)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--list", action="store_true", help="list the trusted projects")
    action.add_argument("--revoke", action="store_true", help="stop trusting the project")


def run(args: argparse.Namespace) -> int:
    from .config import ConfigError, project_settings

    if args.list:
        for project, entry in sorted(trusted().items()):
            print(f"{project}  {entry.get('file')}  sha256:{str(entry.get('sha256'))[:12]}")
        return 0
    directory = Path(args.directory).expanduser()
    if args.revoke:
        if revoke(directory):
            print(f"agentbus: {_key(directory)} is no longer trusted")
            return 0
        print(f"agentbus: {_key(directory)} was not trusted", file=sys.stderr)
        return 1
    try:
        found = project_settings(directory)
    except ConfigError as exc:
        print(f"agentbus trust: {exc}", file=sys.stderr)
        return 2
    if found is None:
        print(f"agentbus trust: no agentbus configuration in {_key(directory)}", file=sys.stderr)
        return 1
    file, settings = found
    if not _confirmed(file, settings):
        return 1
    trust(directory, file, digest(settings))
    print(f"agentbus: trusted {file}; a change to its agentbus settings needs trusting again")
    return 0


def _confirmed(file: Path, settings: Mapping[str, Any]) -> bool:
    """Show what is about to be trusted and ask the person at the terminal."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            "agentbus trust: run this at a terminal: it asks a person to confirm "
            "(an agent's shell has no terminal, so an agent cannot trust its own project)",
            file=sys.stderr,
        )
        return False
    shown = json.dumps(settings, indent=2, sort_keys=True, default=str)
    print(f"{file} sets:\n{shown}\n")
    print("Trusted, it may turn off or shadow the built-in guards, move the audit log, import its own code.")
    try:
        answer = input("Trust it? [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")
