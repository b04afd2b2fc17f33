"""agentbus.frozen.Frozen gives plain classes what attrs gave the guards' value classes."""

from __future__ import annotations

import copy
import pickle

import pytest

from agentbus.adapters.claude_code import HookReply
from agentbus.guards.parse import Redirect, SimpleCommand, parsed
from agentbus.guards.policy import Policy
from agentbus.guards.verdict import Verdict


def test_equal_by_value_with_the_fields_left_out_of_comparison_ignored() -> None:
    one = Verdict("c", "piece", "why", rule="a rule", decision="ask")
    assert one == Verdict("c", "piece", "why")  # rule and decision are not compared, as before
    assert hash(one) == hash(Verdict("c", "piece", "why"))
    assert one != Verdict("c", "other", "why")
    assert one != ("c", "piece", "why", "c: piece (why)")  # another class is never equal
    assert len({one, Verdict("c", "piece", "why"), Verdict("d", "piece", "why")}) == 2


def test_defaults_and_derived_fields() -> None:
    verdict = Verdict("filesystem destruction", "rm -rf /", "deletes everything")
    assert verdict.reason == "filesystem destruction: rm -rf / (deletes everything)"
    assert (verdict.rule, verdict.decision) == ("", "block")
    assert Policy(verdicts={"scheduled task": "allow"}).decision("scheduled task") == "allow"
    with pytest.raises(ValueError, match="unknown category"):
        Policy(verdicts={"no such category": "allow"})


def test_immutable() -> None:
    verdict = Verdict("c", "p", "w")
    with pytest.raises(AttributeError, match="immutable"):
        verdict.reason = "changed"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del verdict.reason
    with pytest.raises(AttributeError):
        verdict.extra = 1  # type: ignore[attr-defined]


def test_replace_goes_through_init() -> None:
    policy = Policy(profile="unattended")
    stricter = policy.replace(verdicts={"scheduled task": "block"})
    assert stricter.decision("scheduled task") == "block"  # the derived table follows the change
    assert (stricter.profile, policy.verdicts) == ("unattended", ())
    verdict = Verdict("c", "p", "w", reason="kept")
    assert verdict.replace(rule="r") == verdict
    assert verdict.replace(rule="r").rule == "r"
    assert verdict.replace(rule="r").reason == "kept"
    with pytest.raises(TypeError, match="no field 'nope'"):
        verdict.replace(nope=1)


def test_repr_shows_the_fields_in_order_but_those_left_out() -> None:
    assert repr(Redirect(">", "out.txt")) == "Redirect(op='>', target='out.txt', fd='')"
    command = SimpleCommand(("ls",), (), [])
    assert repr(command) == "SimpleCommand(words=('ls',), redirects=(), background=False)"
    assert repr(HookReply()) == "HookReply(exit_code=0, output=None, stderr=None)"


def test_copies_and_pickles_are_equal() -> None:
    script = parsed("ls -la > out.txt; echo $(whoami)")
    for again in (copy.copy(script), copy.deepcopy(script), pickle.loads(pickle.dumps(script))):
        assert again == script
        assert again.pipelines[0][0].redirects == script.pipelines[0][0].redirects
    policy = Policy(verdicts={"scheduled task": "allow"})
    assert pickle.loads(pickle.dumps(policy)).decision("scheduled task") == "allow"
