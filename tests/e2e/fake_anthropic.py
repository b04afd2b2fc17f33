"""A scripted Anthropic Messages API on 127.0.0.1, for running the real Claude Code CLI offline.

Claude Code streams ``POST /v1/messages`` (server-sent events). The fake model
answers each request that offers tools (the agent loop, the main one or a
sub-agent's) with the next scripted turn: tool_use blocks or text. Requests
without tools (titles, summaries) get a short text. Every request is recorded,
so a test can check what the model was shown: tool results, additional context.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FakeAnthropic", "text", "tool_use"]

Block = dict[str, Any]

_ids = itertools.count(1)


def tool_use(name: str, **tool_input: Any) -> Block:
    """A tool_use block the fake model emits."""
    return {"type": "tool_use", "id": f"toolu_{next(_ids):06d}", "name": name, "input": tool_input}


def text(words: str) -> Block:
    return {"type": "text", "text": words}


class FakeAnthropic:
    """The scripted model: ``turns`` are answered in order, then "done"."""

    def __init__(self, turns: Sequence[Sequence[Block]]) -> None:
        self.turns = [list(turn) for turn in turns]
        self.requests: list[dict[str, Any]] = []
        self.agent_requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeAnthropic:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    # -- what the model saw ---------------------------------------------------------

    def tool_results(self) -> dict[str, Any]:
        """tool_use id -> the tool_result block the model was sent for it."""
        found: dict[str, Any] = {}
        for request in self.agent_requests:
            for message in request.get("messages", []):
                content = message.get("content")
                if isinstance(content, list):
                    for block in content:
                        if isinstance(block, dict) and block.get("type") == "tool_result":
                            found[block["tool_use_id"]] = block
        return found

    def result_text(self, block: Block) -> str:
        """What the model read for one of its tool_use blocks ('' if never sent)."""
        result = self.tool_results().get(block["id"])
        return "" if result is None else flatten(result.get("content"))

    def seen(self) -> str:
        """Everything the agent loop's requests carried, as one text (to search)."""
        return "\n".join(json.dumps(request.get("messages", [])) for request in self.agent_requests)

    # -- answering ------------------------------------------------------------------

    def _answer(self, body: dict[str, Any]) -> list[Block]:
        with self._lock:
            self.requests.append(body)
            if not body.get("tools"):
                return [text("ok")]
            self.agent_requests.append(body)
            return self.turns.pop(0) if self.turns else [text("done")]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_HEAD(self) -> None:
                self._json({})

            def do_GET(self) -> None:
                self._json({"data": [], "has_more": False})

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                path = self.path.split("?", 1)[0]
                if path.endswith("/count_tokens"):
                    self._json({"input_tokens": 100})
                    return
                if not path.endswith("/v1/messages"):
                    self._json({})
                    return
                blocks = fake._answer(body)
                if body.get("stream"):
                    self._stream(body, blocks)
                else:
                    self._json(_message(body, blocks))

            def _json(self, data: Any) -> None:
                payload = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def _stream(self, body: dict[str, Any], blocks: list[Block]) -> None:
                payload = b"".join(_sse(body, blocks))
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("cache-control", "no-cache")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        return Handler


def _message(body: dict[str, Any], blocks: list[Block]) -> dict[str, Any]:
    uses_tools = any(block["type"] == "tool_use" for block in blocks)
    return {
        "id": f"msg_{next(_ids):06d}",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "claude-fake"),
        "content": blocks,
        "stop_reason": "tool_use" if uses_tools else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 100, "output_tokens": 10},
    }


def _event(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


def _sse(body: dict[str, Any], blocks: list[Block]) -> Iterator[bytes]:
    message = _message(body, blocks)
    start = dict(message, content=[], stop_reason=None)
    start["usage"] = {"input_tokens": 100, "output_tokens": 1}
    yield _event("message_start", {"type": "message_start", "message": start})
    for index, block in enumerate(blocks):
        if block["type"] == "tool_use":
            opening = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            opening = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        yield _event(
            "content_block_start", {"type": "content_block_start", "index": index, "content_block": opening}
        )
        yield _event("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
        yield _event("content_block_stop", {"type": "content_block_stop", "index": index})
    yield _event(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": 10},
        },
    )
    yield _event("message_stop", {"type": "message_stop"})


def flatten(content: Any) -> str:
    """A tool_result's content (a string or text blocks) as one string."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            flatten(item.get("text", "")) if isinstance(item, dict) else str(item) for item in content
        )
    return "" if content is None else str(content)
