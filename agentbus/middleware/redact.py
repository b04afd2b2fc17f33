"""Secret redaction in tool results (seed 000: "Redact sensitive data from tool results").

An agent that runs ``env``, ``cat config.yaml`` or ``git log -p`` can read a
credential and then repeat it to a model provider or a chat. This layer, on
tool.after, replaces every secret it recognises in the result with
``[REDACTED:kind]`` before the agent sees it: in plain strings and in every
string inside dicts and lists (MCP's ``{"content": [{"type": "text", "text":
...}]}``, a shell's ``{"stdout": ...}``).

What it redacted is reported by kind and count (``{"openai_api_key": 1}``),
never the secret itself: per result to ``on_redact(event, counts)``, and in
total in ``Redactor.counts``.

The patterns recognise the shape of well-known credentials (API keys with a
vendor prefix, JWTs, PEM private keys) and the generic ``password=...``
assignment. They are a safety net, not a guarantee: a random 32-character
secret without a prefix or a name next to it looks like any other string.
Add your own with ``patterns`` (see :class:`SecretPattern`).

The observation plane needs the same care. :func:`install` registers the
redactor with ``record_values=False``, so its own records name the field it
changed and never carry the old value (the secret). Records of *other* layers
that changed a result before the redactor ran may still hold one: clean them
with :meth:`Redactor.redact_record` (for ``bus.on_event`` and ``bus.subscribe``
consumers) or add :meth:`Redactor.structlog_processor` to your structlog
processors.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Union

import attrs

from ..events import ToolResult
from ..records import Record
from ..registry import Matcher, Registry
from ._walk import map_strings

__all__ = [
    "DEFAULT_PATTERNS",
    "PatternSpec",
    "Redactor",
    "SecretPattern",
    "install",
    "redact_secrets",
]


def _as_pattern(regex: str | re.Pattern[str]) -> re.Pattern[str]:
    return re.compile(regex) if isinstance(regex, str) else regex


@attrs.frozen(slots=True)
class SecretPattern:
    """One kind of secret: a name for reports and a regex that finds it.

    If the regex has a group named ``secret``, only that group is replaced,
    so ``password=hunter2`` becomes ``password=[REDACTED:secret]`` and the
    reader still sees which setting it was.
    """

    kind: str
    regex: re.Pattern[str] = attrs.field(converter=_as_pattern)

    def redact(self, text: str, replacement: str, found: Counter[str]) -> str:
        regex = self.regex
        masked = replacement.format(kind=self.kind)
        has_group = "secret" in regex.groupindex

        def replace(match: re.Match[str]) -> str:
            found[self.kind] += 1
            if not has_group:
                return masked
            whole, start, end = match.group(0), match.start("secret"), match.end("secret")
            offset = match.start()
            return whole[: start - offset] + masked + whole[end - offset :]

        return regex.sub(replace, text)


PatternSpec = Union[SecretPattern, "tuple[str, str | re.Pattern[str]]"]
"""A :class:`SecretPattern`, or a ``(kind, regex)`` pair."""

# Names of settings whose value is a secret, for the generic assignment pattern.
_SECRET_NAMES = (
    r"password|passwd|pwd|passphrase|secret|client[_-]?secret|api[_-]?key|apikey"
    r"|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?key|secret[_-]?access[_-]?key"
)

DEFAULT_PATTERNS: tuple[SecretPattern, ...] = (
    # A private key block; an unterminated one (truncated output) is redacted to the end.
    SecretPattern(
        "private_key",
        r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
        r"(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    ),
    SecretPattern("anthropic_api_key", r"\bsk-ant-[A-Za-z0-9_-]{20,}"),
    SecretPattern("openai_api_key", r"\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
    SecretPattern("aws_access_key_id", r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
    SecretPattern("github_token", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b"),
    SecretPattern("slack_token", r"\bxox[abposre]-[A-Za-z0-9-]{10,}"),
    SecretPattern("google_api_key", r"\bAIza[0-9A-Za-z_-]{35}"),
    SecretPattern("stripe_key", r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),
    SecretPattern("huggingface_token", r"\bhf_[A-Za-z0-9]{30,}"),
    SecretPattern("npm_token", r"\bnpm_[A-Za-z0-9]{36}\b"),
    SecretPattern("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    SecretPattern("bearer_token", r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)"),
    # user:password@ in a URL (database and broker connection strings).
    SecretPattern("url_password", r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]+:(?P<secret>[^\s:/@]+)@"),
    # name = value, name: value, "name": "value" (env files, YAML, JSON, INI, flags, code).
    # Kept: empty values, placeholders (***, <key>, [REDACTED...]) and ${VARIABLES}.
    SecretPattern(
        "secret",
        rf"(?i)(?<![A-Za-z0-9])(?:{_SECRET_NAMES})[\"']?\s*[:=]\s*"
        r"(?P<quote>[\"'])(?![*<\[${])(?P<secret>(?:(?!(?P=quote))[^\n]){1,512})(?P=quote)",
    ),
    # Unquoted, the value must not look like code, so that source an agent reads (and may
    # write back) stays intact: not None/true/str, not a call or subscript (get_password(),
    # os.environ["PW"]), not an attribute chain (self.password). The value is matched
    # atomically (lookahead + backreference), so that a call cannot match in part.
    SecretPattern(
        "secret",
        rf"(?i)(?<![A-Za-z0-9])(?:{_SECRET_NAMES})[\"']?\s*[:=]\s*"
        r"(?![\"'*<\[${])(?!(?:none|null|nil|true|false|str|string|bytes|int|optional)\b)"
        r"(?![A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?![^\s\"'`,;&(){}\[\]<>]))"
        r"(?=(?P<secret>[^\s\"'`,;&(){}\[\]<>]+))(?P=secret)(?![(\[])",
    ),
)
"""The patterns used unless you pass ``patterns``; extend with ``extra_patterns``."""


def _compile(specs: Iterable[PatternSpec]) -> tuple[SecretPattern, ...]:
    patterns = []
    for spec in specs:
        if isinstance(spec, SecretPattern):
            patterns.append(spec)
        else:
            kind, regex = spec
            try:
                patterns.append(SecretPattern(kind, regex))
            except re.error as exc:
                raise ValueError(f"the redaction pattern for {kind!r} is not a valid regex: {exc}") from None
    return tuple(patterns)


class Redactor:
    """Finds secrets in a value and replaces them; a tool.after handler when called.

    ``patterns`` replaces the default patterns, ``extra_patterns`` adds to
    them (either as :class:`SecretPattern` objects or ``(kind, regex)`` pairs,
    or a ``{kind: regex}`` mapping). ``replacement`` is formatted with
    ``kind``. ``on_redact(event, counts)`` is called when a result had secrets.
    """

    def __init__(
        self,
        patterns: Iterable[PatternSpec] | Mapping[str, str] | None = None,
        *,
        extra_patterns: Iterable[PatternSpec] | Mapping[str, str] = (),
        replacement: str = "[REDACTED:{kind}]",
        on_redact: Callable[[ToolResult, dict[str, int]], None] | None = None,
    ) -> None:
        base = DEFAULT_PATTERNS if patterns is None else _compile(_items(patterns))
        self.patterns = base + _compile(_items(extra_patterns))
        self.replacement = replacement
        self.on_redact = on_redact
        self.counts: Counter[str] = Counter()
        """How many secrets of each kind this redactor has replaced in tool results."""

    def redact_text(self, text: str, found: Counter[str] | None = None) -> str:
        """``text`` with every recognised secret replaced."""
        found = Counter() if found is None else found
        for pattern in self.patterns:
            text = pattern.redact(text, self.replacement, found)
        return text

    def redact(self, value: Any) -> tuple[Any, dict[str, int]]:
        """Redact every string inside ``value``; return the new value and counts by kind.

        The value is returned as it is (the same object) when it held no secret.
        """
        found: Counter[str] = Counter()
        redacted = map_strings(value, lambda text: self.redact_text(text, found))
        return redacted, dict(found)

    def redact_record(self, record: Record) -> Record:
        """``record`` with secrets redacted from its changes, reason and error."""
        changes, found = self.redact(record.changes)
        reason, in_reason = self.redact(record.reason)
        error, in_error = self.redact(record.error)
        if not (found or in_reason or in_error):
            return record
        return attrs.evolve(record, changes=changes, reason=reason, error=error)

    def structlog_processor(self, logger: Any, method_name: str, event_dict: Any) -> Any:
        """A structlog processor: redact every string in the event dict (the bus's records too)."""
        redacted, _ = self.redact(event_dict)
        return redacted

    def __call__(self, event: ToolResult) -> None:
        result = event.result
        if result is None or isinstance(result, (bool, int, float)):
            return
        redacted, found = self.redact(result)
        if not found:
            return
        event.result = redacted
        self.counts.update(found)
        if self.on_redact is not None:
            self.on_redact(event, found)


def _items(specs: Iterable[PatternSpec] | Mapping[str, str]) -> Iterable[PatternSpec]:
    if isinstance(specs, Mapping):
        return list(specs.items())
    return specs


def redact_secrets(
    patterns: Iterable[PatternSpec] | Mapping[str, str] | None = None,
    *,
    extra_patterns: Iterable[PatternSpec] | Mapping[str, str] = (),
    replacement: str = "[REDACTED:{kind}]",
    on_redact: Callable[[ToolResult, dict[str, int]], None] | None = None,
) -> Redactor:
    """A tool.after handler that redacts secrets: ``bus.intercept("tool.after", redact_secrets())``."""
    return Redactor(patterns, extra_patterns=extra_patterns, replacement=replacement, on_redact=on_redact)


def install(
    registry: Registry,
    *,
    id: str = "redact:secrets",
    priority: int = -5,
    tool: Matcher = None,
    patterns: Iterable[PatternSpec] | Mapping[str, str] | None = None,
    extra_patterns: Iterable[PatternSpec] | Mapping[str, str] = (),
    replacement: str = "[REDACTED:{kind}]",
    on_redact: Callable[[ToolResult, dict[str, int]], None] | None = None,
) -> None:
    """Redact secrets in every tool result (or those of ``tool``).

    Priority -5: after layers that transform results (they might reveal a
    secret), before an auditor at -10.
    """
    handler = Redactor(patterns, extra_patterns=extra_patterns, replacement=replacement, on_redact=on_redact)
    registry.add("tool.after", handler, id=id, priority=priority, tool=tool, record_values=False)
