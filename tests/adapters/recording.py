"""A bus for the adapters' tests that keeps every record it emits."""

from __future__ import annotations

from typing import Any

import agentbus


def make_bus(**options: Any) -> tuple[agentbus.Bus, list[agentbus.Record]]:
    """A bus without structlog (``options`` as for ``agentbus.Bus``) and the list of its records."""
    bus = agentbus.Bus(log_level=None, **options)
    records: list[agentbus.Record] = []
    bus.on_event(records.append)
    return bus, records
