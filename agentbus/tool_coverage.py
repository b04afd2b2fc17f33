"""Which layers judge each of an agent's tools: check coverage before the agent runs.

A guard written for ``exec`` judges a tool named ``run_shell`` only if that
tool has the kind ``exec`` (see :mod:`agentbus.kinds`). :func:`coverage` takes
an agent's tool list (names, or names with their JSON schemas) and says, per
tool, its kind, where the kind comes from, and which layers apply to it on each
tool hook point, so that a tool nothing judges shows up before it runs::

    rows = agentbus.coverage({"run_shell": schema, "notes": None}, registry)
    print(format_coverage(rows))

``agentbus tools`` prints the same from the command line, for the configured
stack, and exits 1 when a tool looks like a shell or file tool but has no kind.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from .kinds import NAME_KINDS, TOOL_KINDS, infer_kind
from .registry import Registry
from .tools import normalize_tool_name

__all__ = ["EXAMPLES", "ToolCoverage", "add_arguments", "coverage", "format_coverage", "run", "tool_schemas"]

EXAMPLES = """\
examples:
  agentbus tools run_shell read_file write_to_file
  agentbus tools deploy=exec --config agentbus.toml
  agentbus tools --from tools.json          # OpenAI, MCP (tools/list) or plain {name, parameters} definitions
  agentbus tools --from tools.json --json | jq 'select(.kind == null)'
"""

_POINTS = ("tool.before", "tool.call", "tool.after")


@attrs.frozen
class ToolCoverage:
    """One tool: its kind, where the kind comes from, and the layers that apply to it."""

    name: str
    tool: str
    """The canonical name the bus sees."""
    kind: str | None
    source: str
    """``"declared"``, ``"name"`` (a canonical name's kind), ``"inferred"`` or ``"none"``."""
    reason: str
    suspect: str | None
    """Set when the tool looks like a shell or file tool but has no kind: nothing built in judges it."""
    layers: Mapping[str, tuple[str, ...]]
    """Registration ids per tool hook point, in the order they run."""

    @property
    def guards(self) -> tuple[str, ...]:
        """The built-in guards that judge this tool's calls."""
        return tuple(id for id in self.layers.get("tool.before", ()) if id.startswith("builtin:"))

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "tool": self.tool, "kind": self.kind, "source": self.source,
            "reason": self.reason, "suspect": self.suspect, "guards": list(self.guards),
            "layers": {point: list(ids) for point, ids in self.layers.items()},
        }  # fmt: skip


def coverage(
    tools: Mapping[str, Mapping[str, Any] | None] | Iterable[Any], registry: Registry | None = None
) -> list[ToolCoverage]:
    """The coverage of each tool by ``registry`` (default: the process-wide one, with the built-in guards).

    ``tools`` maps tool names to their JSON schemas (None where unknown), or is
    a list of names or of the frameworks' tool objects (an OpenAI Agents
    ``FunctionTool``, a LangChain tool, a FastMCP or MCP ``Tool``, a pydantic-ai
    ``ToolDefinition``): ``agentbus.coverage(agent.tools)``. Nothing is declared
    or bound: this only looks.
    """
    if registry is None:
        from .global_registry import init_registry

        registry = init_registry()
    schemas = tools if isinstance(tools, Mapping) else dict(map(_name_and_schema, tools))
    rows = []
    for name, schema in schemas.items():
        canonical = normalize_tool_name(name)
        declared = registry.kind_of(canonical)
        inference = infer_kind(name, schema)
        if declared is not None:
            source = "name" if NAME_KINDS.get(canonical) == declared else "declared"
            kind, reason, suspect = declared, f"{source} kind", None
        elif inference.kind is not None:
            kind, source, reason, suspect = inference.kind, "inferred", inference.reason, None
        else:
            kind, source, reason, suspect = None, "none", inference.reason, inference.suspect
        layers = {
            point: tuple(r.id for r in registry.stack(point) if r.matches(canonical, None, kind))
            for point in _POINTS
        }
        rows.append(ToolCoverage(name, canonical, kind, source, reason, suspect, layers))
    return rows


def _name_and_schema(tool: Any) -> tuple[str, Mapping[str, Any] | None]:
    """A tool's name and JSON schema, from a name or a framework's tool object."""
    if isinstance(tool, str):
        return tool, None
    name = getattr(tool, "name", None)
    if not isinstance(name, str):
        raise TypeError(f"a tool is a name or an object with a .name, got {tool!r}")
    for attribute in (
        "params_json_schema",
        "parameters_json_schema",
        "parameters",
        "input_schema",
        "inputSchema",
    ):
        schema = getattr(tool, attribute, None)
        if isinstance(schema, Mapping):
            return name, schema
    args = getattr(tool, "args", None)  # LangChain: the schema's properties
    return name, {"properties": args} if isinstance(args, Mapping) else None


def format_coverage(rows: Iterable[ToolCoverage]) -> str:
    """A table: tool, kind (and where it comes from), the guards and other layers on tool.before."""
    lines = []
    for row in rows:
        kind = f"{row.kind} ({row.source})" if row.kind else "-"
        before = row.layers.get("tool.before", ())
        others = [id for id in before if id not in row.guards]
        judged = ", ".join(row.guards) or "no built-in guard"
        extra = f"; also {', '.join(others)}" if others else ""
        lines.append(f"{row.name:<24} {kind:<18} {judged}{extra}")
        if row.suspect:
            lines.append(f"{'':<24} ! looks like {row.suspect}: {row.reason}; declare its kind")
    return "\n".join(lines)


def tool_schemas(definitions: Any) -> dict[str, Mapping[str, Any] | None]:
    """Tool names and schemas from a list of definitions, in the common formats.

    OpenAI (``{"type": "function", "function": {"name", "parameters"}}`` or
    ``{"name", "parameters"}``), MCP ``tools/list`` (``{"name", "inputSchema"}``
    or ``{"tools": [...]}``), Anthropic (``{"name", "input_schema"}``).
    Raises ValueError naming the first entry it cannot read.
    """
    if isinstance(definitions, Mapping) and isinstance(definitions.get("tools"), list):
        definitions = definitions["tools"]
    if not isinstance(definitions, list):
        raise ValueError('expected a JSON list of tool definitions (or {"tools": [...]})')
    schemas: dict[str, Mapping[str, Any] | None] = {}
    for index, entry in enumerate(definitions):
        if isinstance(entry, Mapping) and isinstance(entry.get("function"), Mapping):
            entry = entry["function"]
        name = entry.get("name") if isinstance(entry, Mapping) else None
        if not isinstance(name, str) or not name:
            raise ValueError(f"tool definition {index} has no name: {json.dumps(entry)[:80]}")
        schema = next(
            (
                entry[key]
                for key in ("parameters", "inputSchema", "input_schema")
                if isinstance(entry.get(key), Mapping)
            ),
            None,
        )
        schemas[name] = schema
    return schemas


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "tools",
        nargs="*",
        metavar="NAME[=KIND]",
        help=f"tool names, with a kind to declare ({', '.join(TOOL_KINDS)})",
    )
    parser.add_argument(
        "--from", dest="source", metavar="FILE", help="a JSON file of tool definitions ('-': stdin)"
    )
    parser.add_argument(
        "--config", metavar="PATH", help="configuration file (default: discovered in the working directory)"
    )
    parser.add_argument(
        "--middleware",
        action="append",
        default=[],
        metavar="MODULE:ATTR",
        help="an installer to add (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per tool")


def run(args: argparse.Namespace) -> int:
    """Print each tool's coverage. Exit 1 if a tool looks like a shell or file tool without a kind."""
    from .errors import RegistrationError
    from .evaluate import build_bus

    try:
        registry = build_bus(args.config, args.middleware).registry
    except Exception as exc:  # a ConfigError, or a broken installer
        print(f"agentbus tools: the stack cannot be built: {exc}", file=sys.stderr)
        return 2
    schemas: dict[str, Mapping[str, Any] | None] = {}
    if args.source:
        try:
            with sys.stdin if args.source == "-" else open(args.source, encoding="utf-8") as stream:
                schemas.update(tool_schemas(json.load(stream)))
        except (OSError, ValueError) as exc:
            print(f"agentbus tools: {args.source}: {exc}", file=sys.stderr)
            return 2
    declared: dict[str, str] = {}
    for item in args.tools:
        name, _, kind = item.partition("=")
        schemas.setdefault(name, None)
        if kind:
            declared[name] = kind
    if not schemas:
        print("agentbus tools: name some tools, or give --from FILE", file=sys.stderr)
        return 2
    try:
        registry.declare_tools(declared)
    except RegistrationError as exc:
        print(f"agentbus tools: {exc}", file=sys.stderr)
        return 2
    rows = coverage(schemas, registry)
    if args.json:
        for row in rows:
            print(json.dumps(row.as_dict()))
    else:
        print(format_coverage(rows))
    return 1 if any(row.suspect for row in rows) else 0
