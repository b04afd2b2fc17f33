"""Public type aliases for writing layers, in one place."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Union

__all__ = ["CallNext", "Handler", "Middleware"]

CallNext = Callable[[Any], Awaitable[Any]]
"""What a middleware receives as ``call_next``: run the inner layers, get their result."""

Handler = Callable[..., Union[Awaitable[None], None]]
"""A simple handler: ``handler(event)`` or ``handler(input, output)``, sync or async."""

Middleware = Callable[[Any, CallNext], Awaitable[Any]]
"""ASGI-style middleware: ``async def mw(event, call_next)``."""
