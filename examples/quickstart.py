"""A small agent loop step through agentbus: run with `python examples/quickstart.py`."""

import anyio

import agentbus
from agentbus import format_record
from agentbus.typing import CallNext

bus = agentbus.Bus(log_level=None)
bus.on_event(lambda record: print(line) if (line := format_record(record)) else None)


@bus.intercept("message.before", id="classifier")
def classify(message: agentbus.Message) -> None:
    message.metadata["complexity"] = "high" if "debug" in message.message else "low"


@bus.intercept("params.before", id="think-adjuster")
def adjust_thinking(params: agentbus.Params) -> None:
    if params.metadata.get("complexity") == "high":
        params.think_level = "high"


@bus.intercept("tool.before", tool=r"^exec$", priority=100, id="safety:no-rm-rf")
def no_rm_rf(call: agentbus.ToolCall) -> None:
    if "rm -rf" in call.args.get("command", ""):
        call.block("rm -rf is not allowed")


@bus.middleware("tool.call", id="timing")
async def timing(call: agentbus.ToolCall, call_next: CallNext) -> object:
    started = anyio.current_time()
    result = await call_next(call)
    print(f"⏱️ {call.tool} took {(anyio.current_time() - started) * 1000:.2f} ms")
    return result


@bus.intercept("tool.after", id="redact")
def redact(result: agentbus.ToolResult) -> None:
    if isinstance(result.result, str):
        result.result = result.result.replace("hunter2", "***")


async def run_shell(args: dict[str, object]) -> str:
    return f"$ {args['command']}\npassword=hunter2"


async def main() -> None:
    _message, params = await bus.prepare("please debug the failing build")
    print(f"think level: {params.think_level}")
    print(await bus.call_tool("bash", {"command": "ls"}, run_shell))
    print(await bus.call_tool("bash", {"command": "rm -rf /"}, run_shell))


if __name__ == "__main__":
    anyio.run(main)
