"""Classify messages into metadata tags, and raise the think level from them.

The seed's example pair of "inter-interceptor communication": a
message.before classifier tags ``metadata["complexity"]``, and a params.before
rule reads the tag and raises the think level. Both are configurable:

- :class:`MessageClassifier` applies :class:`Rule` objects (keywords, a regex,
  a minimum length) to set tags; for each tag the first matching rule wins,
  otherwise the tag's default applies.
- :class:`ThinkLevelFromTags` maps tag values to think levels. It only
  raises: a level set by the runtime or an earlier layer that is already
  higher is kept, so several rules compose without fighting.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from ..events import THINK_LEVELS, Message, Params
from ..registry import Matcher, Registry

__all__ = [
    "MessageClassifier",
    "Rule",
    "ThinkLevelFromTags",
    "complexity_classifier",
    "install",
    "think_from_complexity",
]


def _pattern(value: str | re.Pattern[str] | None) -> re.Pattern[str] | None:
    if value is None or isinstance(value, re.Pattern):
        return value
    return re.compile(value, re.IGNORECASE)


def _lowered(keywords: Iterable[str]) -> tuple[str, ...]:
    if isinstance(keywords, str):
        keywords = (keywords,)
    return tuple(keyword.lower() for keyword in keywords)


@attrs.frozen(slots=True)
class Rule:
    """Set ``metadata[tag] = value`` when the message matches any condition.

    Conditions: one of ``keywords`` occurs (case-insensitive), ``pattern``
    is found (a regex, case-insensitive when given as a string), or the
    message is at least ``min_length`` characters long.
    """

    tag: str
    value: Any
    keywords: tuple[str, ...] = attrs.field(default=(), converter=_lowered)
    pattern: re.Pattern[str] | None = attrs.field(default=None, converter=_pattern)
    min_length: int | None = None

    def __attrs_post_init__(self) -> None:
        if not self.keywords and self.pattern is None and self.min_length is None:
            raise ValueError(
                f"the rule for {self.tag}={self.value!r} needs keywords, a pattern or min_length"
            )

    def matches(self, text: str, lowered: str) -> bool:
        if self.min_length is not None and len(text) >= self.min_length:
            return True
        if any(keyword in lowered for keyword in self.keywords):
            return True
        return self.pattern is not None and self.pattern.search(text) is not None


class MessageClassifier:
    """A message.before handler that tags ``metadata`` by rules.

    ``defaults`` gives the value of a tag when no rule for it matched (a tag
    without a default stays unset). A tag that is already set, by the
    runtime or an earlier layer, is kept unless ``overwrite`` is true.
    """

    def __init__(
        self,
        rules: Sequence[Rule],
        *,
        defaults: Mapping[str, Any] | None = None,
        overwrite: bool = False,
    ) -> None:
        self.rules = tuple(rules)
        self.defaults = dict(defaults or {})
        self.overwrite = overwrite
        self.tags = tuple(dict.fromkeys([*(rule.tag for rule in self.rules), *self.defaults]))

    def classify(self, text: str) -> dict[str, Any]:
        """The tags for ``text``."""
        lowered = text.lower()
        tags: dict[str, Any] = {}
        for rule in self.rules:
            if rule.tag not in tags and rule.matches(text, lowered):
                tags[rule.tag] = rule.value
        for tag, value in self.defaults.items():
            tags.setdefault(tag, value)
        return tags

    def __call__(self, message: Message) -> None:
        metadata = message.metadata
        for tag, value in self.classify(message.message).items():
            if self.overwrite or tag not in metadata:
                metadata[tag] = value


def complexity_classifier(
    *, min_length: int = 500, keywords: Iterable[str] = ("debug",), tag: str = "complexity"
) -> MessageClassifier:
    """The seed's classifier: ``complexity`` is "high" for long messages or "debug", else "low"."""
    return MessageClassifier(
        [Rule(tag, "high", keywords=tuple(keywords), min_length=min_length)], defaults={tag: "low"}
    )


class ThinkLevelFromTags:
    """A params.before handler: raise ``think_level`` to the level a tag value maps to.

    ``levels`` maps a tag to ``{value: think level}``:
    ``{"complexity": {"high": "high", "medium": "medium"}}``. The level only
    goes up (in the order of ``THINK_LEVELS``); None, the runtime's default,
    counts as below every level.
    """

    def __init__(self, levels: Mapping[str, Mapping[Any, str]]) -> None:
        for tag, mapping in levels.items():
            for value, level in mapping.items():
                if level not in THINK_LEVELS:
                    raise ValueError(
                        f"{tag}={value!r} maps to think level {level!r}; use one of {', '.join(THINK_LEVELS)}"
                    )
        self.levels = {tag: dict(mapping) for tag, mapping in levels.items()}

    def __call__(self, params: Params) -> None:
        metadata = params.metadata
        current = params.think_level
        rank = THINK_LEVELS.index(current) if current is not None else -1
        for tag, mapping in self.levels.items():
            value = metadata.get(tag)
            try:
                level = mapping.get(value)
            except TypeError:  # an unhashable tag value maps to nothing
                continue
            if level is not None and THINK_LEVELS.index(level) > rank:
                current, rank = level, THINK_LEVELS.index(level)
        if current != params.think_level:
            params.think_level = current


def think_from_complexity(tag: str = "complexity") -> ThinkLevelFromTags:
    """The seed's rule: ``complexity == "high"`` raises the think level to "high"."""
    return ThinkLevelFromTags({tag: {"high": "high"}})


def _rule(spec: Rule | Mapping[str, Any]) -> Rule:
    if isinstance(spec, Rule):
        return spec
    try:
        return Rule(**spec)
    except TypeError as exc:
        raise ValueError(
            f"a classifier rule takes tag, value, keywords, pattern, min_length; got {dict(spec)!r} ({exc})"
        ) from None


def install(
    registry: Registry,
    *,
    rules: Sequence[Rule | Mapping[str, Any]] | None = None,
    defaults: Mapping[str, Any] | None = None,
    think: Mapping[str, Mapping[Any, str]] | None = None,
    agent: Matcher = None,
    priority: int = 0,
) -> None:
    """Install a classifier (``classify:message``) and a think rule (``classify:think``).

    Without options this is the seed's pair: ``complexity`` from length and
    "debug", and "high" complexity raises the think level to "high". Rules may
    be :class:`Rule` objects or dicts with the same fields (for config files).
    """
    if rules is None:
        classifier = complexity_classifier()
        if defaults:
            classifier = MessageClassifier(classifier.rules, defaults={**classifier.defaults, **defaults})
    else:
        classifier = MessageClassifier([_rule(spec) for spec in rules], defaults=defaults)
    levels = think if think is not None else {"complexity": {"high": "high"}}
    registry.add("message.before", classifier, id="classify:message", priority=priority, agent=agent)
    if levels:
        registry.add(
            "params.before", ThinkLevelFromTags(levels), id="classify:think", priority=priority, agent=agent
        )
