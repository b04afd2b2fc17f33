"""Shared by the adapters' tests: nothing may leave the machine."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """No key and no tracing export, for whichever framework a test module imported."""
    for name in ("LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    monkeypatch.setenv("OPENAI_AGENTS_DISABLE_TRACING", "1")
    if "agents" in sys.modules:  # the OpenAI Agents SDK: its tracing is a process-wide switch
        sys.modules["agents"].set_tracing_disabled(True)
