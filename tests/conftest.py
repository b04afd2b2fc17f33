"""Every async test runs on asyncio and on trio.

Hypothesis runs without per-example deadlines everywhere: a deadline is a timing
threshold, and a test must not fail because a shared machine was slow. It also
runs derandomized by default, so that the README's test command gives the same
verdict on every machine and every run (CI included: the machine it runs on sets
no ``CI``). Exploring new examples is a developer's job, done before a merge:
``AGENTBUS_HYPOTHESIS=explore python -m pytest --hypothesis-seed=$RANDOM``
(see CONTRIBUTING.md); what it finds becomes an ``@example``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("reproducible", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile("explore" if os.environ.get("AGENTBUS_HYPOTHESIS") == "explore" else "reproducible")

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


@pytest.fixture(autouse=True)
def _fresh_session_directories(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where each session's shell is, followed per process: each test starts with none."""
    from collections import OrderedDict

    from agentbus.guards import session_directory

    monkeypatch.setattr(session_directory, "_sessions", OrderedDict())
