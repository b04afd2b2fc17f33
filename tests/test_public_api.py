"""The public facade keeps ``__all__`` honest (as anyio's tests/test_all_attributes.py does)."""

from __future__ import annotations

import importlib
import subprocess
import sys
import types

import pytest

import agentbus

MODULES = ["bus", "errors", "events", "logging", "records", "registry", "stack", "tools", "typing"]


def test_everything_in_all_exists() -> None:
    missing = [name for name in agentbus.__all__ if not hasattr(agentbus, name)]
    assert missing == []
    assert len(agentbus.__all__) == len(set(agentbus.__all__))


def test_every_public_name_of_the_facade_is_in_all() -> None:
    assert callable(agentbus.coverage)  # imported on first use (the hook process never uses it)
    public = {
        name
        for name, value in vars(agentbus).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    assert public == set(agentbus.__all__)


@pytest.mark.parametrize("module_name", MODULES)
def test_every_module_all_names_exist(module_name: str) -> None:
    module = importlib.import_module(f"agentbus.{module_name}")
    assert [name for name in module.__all__ if not hasattr(module, name)] == []
    defined_here = {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and isinstance(value, (type, types.FunctionType))
        and value.__module__ == module.__name__
    }
    assert defined_here <= set(module.__all__)


def test_facade_names_are_the_module_objects() -> None:
    """The facade re-exports; it never defines a second object under the same name."""
    for name in agentbus.__all__:
        value = getattr(agentbus, name)
        owner = getattr(value, "__module__", None)
        if isinstance(value, (type, types.FunctionType)) and not isinstance(value, types.GenericAlias):
            assert owner is not None
            assert owner.startswith("agentbus.")
            assert getattr(importlib.import_module(owner), name) is value


def test_version_matches_the_package_metadata() -> None:
    from importlib.metadata import version

    assert agentbus.__version__ == version("agentbus")


def test_coverage_is_imported_on_first_use() -> None:
    script = "import sys, agentbus; print('agentbus.tool_coverage' in sys.modules); agentbus.coverage; "
    script += "print('agentbus.tool_coverage' in sys.modules); print(hasattr(agentbus, 'no_such_name'))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True", "False"]
