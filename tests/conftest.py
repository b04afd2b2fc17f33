"""Every async test runs on asyncio and on trio.

Under CI (``CI`` set), hypothesis runs derandomized and without per-example
deadlines: CI must be reproducible and must not fail because a shared machine
was slow. Local runs keep exploring new examples.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(autouse=True)
def _fresh_session_downloads(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a session downloaded is remembered per process: each test starts with none."""
    from agentbus.guards import session_downloads

    monkeypatch.setattr(session_downloads, "_store", session_downloads._MemoryStore())
