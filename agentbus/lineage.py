"""Which agent started which: the parent of a sub-agent, for the events' context.

A sub-agent runs inside a tool call of its parent (an OpenAI Agents
``agent.as_tool()``, a LangChain agent called from a tool, a pydantic-ai agent
run inside a tool). Adapters run every tool inside :func:`running` with the
calling agent's id; an event built while it holds gets that agent as its
``parent_agent_id``, however deep the frameworks nest and across asyncio or
trio tasks (a :class:`~contextvars.ContextVar` is copied into the tasks a
framework spawns). No framework is asked: the nesting is the call stack's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["parent_of", "running"]

# The agents whose tools are running around the current code, outermost first.
_chain: ContextVar[tuple[str, ...]] = ContextVar("agentbus_agent_chain", default=())

nested = False
"""True once any agent's tool has run in this process (never reset): until then no event has a
parent, and the hot paths skip the ContextVar read (``lineage.nested and _chain.get()``)."""


@contextmanager
def running(agent_id: str | None) -> Iterator[None]:
    """Run a tool of ``agent_id``: agents started inside it are its sub-agents."""
    if agent_id is None:
        yield
        return
    global nested
    nested = True  # before the chain holds anything: an event that sees the chain sees this
    token = _chain.set((*_chain.get(), agent_id))
    try:
        yield
    finally:
        _chain.reset(token)


def parent_of(agent_id: str | None) -> str | None:
    """The agent whose tool is running ``agent_id`` (None at the top level).

    The innermost running agent, unless that is ``agent_id`` itself (an event
    of the agent whose tool runs, e.g. a tool.call layer's): then the one before.
    """
    chain = _chain.get()
    if not chain:
        return None
    if chain[-1] != agent_id:
        return chain[-1]
    return chain[-2] if len(chain) > 1 else None
