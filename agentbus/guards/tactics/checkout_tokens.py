"""The token a CI checkout leaves in the repository's ``.git/config``, read back.

``actions/checkout`` persists the job's ``GITHUB_TOKEN`` as ``http.https://github.com/.extraheader =
AUTHORIZATION: basic …`` in ``.git/config``; the tj-actions/changed-files compromise and the Shai-Hulud
worm read it from there (``git config --get http.https://github.com/.extraheader``, ``grep AUTHORIZATION
.git/config``, ``cat .git/config | grep extraheader``). Reading that entry is reading the job's token:
:data:`~agentbus.guards.verdict.SECRETS`. The rest of the configuration (``git config --get
remote.origin.url``, ``cat .git/config``) is the repository's own business, allowed.
"""

from __future__ import annotations

import itertools

from ...lazy_regex import lazy_compile
from ..findings import finding
from ..findings import static_args as _values
from ..parse import Script
from ..programs import Invocation, walk
from ..verdict import SECRETS, Verdict

__all__ = ["judge", "judge_script"]

_TOKEN_ENTRY = lazy_compile(r"(?i)extraheader|authorization")
"""The words of the persisted token's entry (the key, or the header in its value)."""
_GIT_CONFIG = lazy_compile(r"(?:^|/)\.git/config$")
_SEARCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "awk", "gawk", "mawk", "sed", "perl"})
"""Programs that pick lines out of what they read (the token's line out of ``.git/config``)."""
_CONFIG_READERS = frozenset({"--get", "--get-all", "--get-regexp", "get"})
_CONFIG_WRITERS = frozenset({"--unset", "--unset-all", "--add", "--replace-all", "unset", "set"})
_CONFIG_LISTERS = frozenset({"--list", "-l", "list"})


def _reads_config_entry(invocation: Invocation) -> bool:
    """``git config --get http.https://github.com/.extraheader``, ``git config --get-regexp extraheader``."""
    values = _values(invocation)
    if invocation.name != "git" or "config" not in values:
        return False
    rest = values[values.index("config") + 1 :]
    operands = [value for value in rest if not value.startswith("-")]
    if not operands or not _TOKEN_ENTRY.search(operands[0] if operands[0] != "get" else " ".join(operands)):
        return False
    if "--name-only" in rest or any(value in _CONFIG_WRITERS for value in rest):
        return False  # actions/checkout's own clean-up (is the entry there? unset it), or setting one
    return len(operands) == 1 or any(value in _CONFIG_READERS for value in rest)


def _searches_config(invocation: Invocation) -> bool:
    """``grep AUTHORIZATION .git/config``, ``sed -n '/extraheader/p' .git/config``."""
    values = _values(invocation)
    return (
        invocation.name in _SEARCHERS
        and any(_GIT_CONFIG.search(value) for value in values)
        and any(_TOKEN_ENTRY.search(value) for value in values)
    )


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """One command that reads the checkout's token from ``.git/config``."""
    del home
    if _reads_config_entry(invocation) or _searches_config(invocation):
        return finding(SECRETS, invocation, _WHY)
    return None


def _lists_config(invocation: Invocation) -> bool:
    """``cat .git/config``, ``git config --list``: the whole configuration, token entry included."""
    values = _values(invocation)
    if invocation.name == "git":
        return "config" in values and any(value in _CONFIG_LISTERS | _CONFIG_READERS for value in values)
    return any(_GIT_CONFIG.search(value) for value in values)


def judge_script(script: Script, home: str) -> Verdict | None:
    """``cat .git/config | grep extraheader``, ``git config -l | grep -i authorization``: the configuration
    listed, and the token's line picked out of it."""
    del home
    for stages in walk(script):
        for before, after in itertools.pairwise(stages):
            if (
                after.name in _SEARCHERS
                and any(_TOKEN_ENTRY.search(value) for value in _values(after))
                and _lists_config(before)
            ):
                return finding(SECRETS, after, _WHY)
    return None


_WHY = "reads the CI token actions/checkout keeps in .git/config (its extraheader)"
