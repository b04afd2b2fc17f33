"""Every async test runs on asyncio and on trio.

Hypothesis runs without per-example deadlines everywhere: a deadline is a timing
threshold, and a test must not fail because a shared machine was slow (the
README's test command runs on machines that set no ``CI``). Under CI (``CI``
set) it also runs derandomized, to be reproducible; local runs keep exploring
new examples.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("local", deadline=None, print_blob=True)
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "local")

# The guards' decision budget (1 s of wall time) is a timing threshold too: on a loaded machine a
# first decision, which also imports the rules it needs, can outlive it and come out "undecided".
# Tests of the budget itself set theirs; every other test, and the hook processes they start
# (they inherit the environment), decides under a budget no slow machine reaches.
os.environ.setdefault("AGENTBUS_DECISION_BUDGET", "60")


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(autouse=True)
def _fresh_session_downloads(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a session downloaded is remembered per process: each test starts with none."""
    from agentbus.guards import session_downloads

    monkeypatch.setattr(session_downloads, "_store", session_downloads._MemoryStore())
