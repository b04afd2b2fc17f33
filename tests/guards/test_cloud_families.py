"""The verb-family reading of cloud calls (guards/tactics/cloud_families.py): its work stays linear.

What the families hold back and let pass is in class_fixes/cloud_verb_families.py; here the cost of
the option documents they search (a call given a long policy, flag list or log option) is measured
directly, without the parser, whose own cost is measured elsewhere.
"""

from __future__ import annotations

import pytest
from linearity import cost_ratio

from agentbus.guards.parse import parse
from agentbus.guards.programs import walk
from agentbus.guards.tactics.cloud import CloudCall
from agentbus.guards.tactics.cloud_families import judge_call

FILLERS = ["a.", "log.", "AuthAuth", "tcp:1 0.0.0.0/0 ", '"Principal":', "Enabled", "x=1,", "audit_"]


@pytest.mark.parametrize("filler", FILLERS)
def test_long_option_documents_cost_linear_work(filler: str) -> None:
    invocation = next(iter(walk(parse("aws ec2 authorize-security-group-ingress"))))[0]

    def judge(text: str) -> object:
        options = {
            name: (text,) for name in ("--attributes", "--ip-permissions", "--logs", "--database-flags")
        }
        call = CloudCall("aws", ("ec2", "authorize-security-group-ingress"), options, ())
        return judge_call(invocation, call)

    small, large = filler * (2_000 // len(filler)), filler * (20_000 // len(filler))
    ratio = cost_ratio(judge, small, large)
    assert ratio < 50, f"{filler!r}: 10x the input cost {ratio:.0f}x"
