"""A path with a part made at run time still names its known directory (issue 18).

``echo x > /etc/cron.d/$(hostname)`` writes a cron job whatever the host is called: the
target is judged as ``/etc/cron.d/…`` (:meth:`~agentbus.guards.parse.SimpleCommand.shape`),
where it used to be dropped as unknown.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbus.guards.danger import check_command
from agentbus.guards.parse import UNKNOWN_PART, parse
from agentbus.guards.verdict import EVIDENCE, PROFILE, SCHEDULED, STEALTH_PERSISTENCE

HOME = "/home/dev"

WRITES_INTO_A_KNOWN_PLACE = [
    ("cp x.ko /lib/modules/$(uname -r)/kernel/drivers/x.ko", STEALTH_PERSISTENCE, "block"),
    ("install -m644 x.ko /lib/modules/`uname -r`/extra/", STEALTH_PERSISTENCE, "block"),
    ("echo '* * * * * root sh /tmp/x' > /etc/cron.d/$(hostname)", SCHEDULED, "ask"),
    ("echo x | sudo tee /etc/cron.d/job-$(date +%s)", SCHEDULED, "ask"),
    ('tee "/home/$(whoami)/.bashrc" < payload', PROFILE, "ask"),
    ("echo 'alias ls=x' >> /home/$(id -un)/.bashrc", PROFILE, "ask"),
    ("rm -f /var/log/app-$(date +%F).log", EVIDENCE, "block"),
]


@pytest.mark.parametrize(("command", "category", "decision"), WRITES_INTO_A_KNOWN_PLACE)
def test_a_write_target_with_a_substitution_is_judged_by_its_known_directory(
    command: str, category: str, decision: str
) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (category, decision), verdict


ORDINARY = [
    "mkdir -p /tmp/build-$(date +%s)",
    "echo ok > /tmp/log-$(date +%s).txt",
    "cp build/app $(go env GOPATH)/bin/",
    "ls /lib/modules/$(uname -r)",
    "cat /etc/cron.d/$(hostname)",
    "tar czf dist/app-$(git rev-parse --short HEAD).tgz build",
    'cp .env.example "$(pwd)/.env"',
]


@pytest.mark.parametrize("command", ORDINARY)
def test_ordinary_targets_with_substitutions_run(command: str) -> None:
    assert check_command(command, home=HOME) is None, command


def _shape(word: str) -> str | None:
    (command,) = [c for p in parse(f"echo {word}").pipelines for c in p]
    return command.shape(command.words[1])


def test_a_word_that_starts_unknown_has_no_shape() -> None:
    assert _shape("$(pwd)/x") is None
    assert _shape("/etc/cron.d/$(hostname)") == f"/etc/cron.d/{UNKNOWN_PART}"
    assert _shape("/etc/$(echo cron.d)/x") == "/etc/cron.d/x"  # worked out where it can be


@given(
    st.lists(st.sampled_from(["etc", "cron.d", "lib", "x"]), min_size=1, max_size=3),
    st.sampled_from(["$(hostname)", "`id -un`", "$(date +%s).log"]),
)
def test_the_shape_keeps_every_known_part(directories: list[str], unknown: str) -> None:
    prefix = "/" + "/".join(directories) + "/"
    shape = _shape(prefix + unknown)
    assert shape is not None
    assert shape.startswith(prefix)
    assert UNKNOWN_PART in shape
