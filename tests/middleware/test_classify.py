"""The message classifier and the think-level rule, through a real bus."""

from __future__ import annotations

import pytest

import agentbus
from agentbus.middleware import classify
from agentbus.middleware.classify import MessageClassifier, Rule, ThinkLevelFromTags

pytestmark = pytest.mark.anyio


async def test_the_default_install_is_the_seeds_pair() -> None:
    bus = agentbus.Bus(log_level=None)
    classify.install(bus.registry)
    message, params = await bus.prepare("please DEBUG the build")
    assert message.metadata == {"complexity": "high"}
    assert params.think_level == "high"
    message, params = await bus.prepare("hello")
    assert message.metadata == {"complexity": "low"}
    assert params.think_level is None
    _, params = await bus.prepare("x" * 500)
    assert params.think_level == "high"


async def test_rules_from_config_dicts_set_several_tags_first_match_wins() -> None:
    bus = agentbus.Bus(log_level=None)
    classify.install(
        bus.registry,
        rules=[
            {"tag": "topic", "value": "security", "keywords": ["cve", "exploit"]},
            {"tag": "topic", "value": "code", "pattern": r"\btraceback\b"},
            {"tag": "complexity", "value": "medium", "min_length": 20},
        ],
        defaults={"topic": "chat"},
        think={"complexity": {"medium": "medium"}, "topic": {"security": "high"}},
    )
    message, params = await bus.prepare("Is CVE-2024-1 an exploit? Traceback follows")
    assert message.metadata == {"topic": "security", "complexity": "medium"}
    assert params.think_level == "high"
    message, params = await bus.prepare("hi")
    assert message.metadata == {"topic": "chat"}
    assert params.think_level is None


async def test_the_think_rule_only_raises_the_level() -> None:
    bus = agentbus.Bus(log_level=None)
    bus.intercept("params.before", ThinkLevelFromTags({"complexity": {"high": "medium"}}))
    message = await bus.process_message("x", metadata={"complexity": "high"})
    assert (await bus.resolve_params(message, think_level="high")).think_level == "high"
    assert (await bus.resolve_params(message, think_level="low")).think_level == "medium"


async def test_tags_already_set_are_kept_unless_overwrite() -> None:
    rule = Rule("complexity", "high", keywords=["debug"])
    bus = agentbus.Bus(log_level=None)
    bus.intercept("message.before", MessageClassifier([rule]), id="keep")
    message = await bus.process_message("debug", metadata={"complexity": "low"})
    assert message.metadata["complexity"] == "low"
    bus.intercept("message.before", MessageClassifier([rule], overwrite=True), id="overwrite")
    message = await bus.process_message("debug", metadata={"complexity": "low"})
    assert message.metadata["complexity"] == "high"


def test_bad_rules_and_levels_are_refused_with_a_clear_message() -> None:
    with pytest.raises(ValueError, match="needs keywords"):
        Rule("complexity", "high")
    with pytest.raises(ValueError, match="think level 'max'"):
        ThinkLevelFromTags({"complexity": {"high": "max"}})
    with pytest.raises(ValueError, match="a classifier rule takes"):
        classify.install(agentbus.Registry(), rules=[{"tag": "x", "value": 1, "regex": "y"}])
