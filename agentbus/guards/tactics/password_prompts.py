"""A password typed at a silent prompt, then kept in a file: the fake password prompt of a stealer.

macOS stealers (and Linux droppers) ask for the login password with a prompt of their own (``read -s
-p "Password:" pw``), then keep what was typed (``echo "$pw" > ~/.hidden/p``) to send it or to unlock
the keychain with it; checking it against the account (``dscl . -authonly``) is judged by
:mod:`.macos`. A coding agent has no terminal to type into, and a script of the project that asks
for a password hands it to the program that needs it (``echo "$pw" | sudo -S``, ``curl -u
"u:$pw"``). So the value of a ``read -s`` variable written to a file by ``echo``, ``printf`` or ``tee``
is held back: CREDENTIALS (blocked) for a file outside the project, COLLECTION (asked) for the
project's own (``.vault_pass``). The terminal and ``/dev/null`` are not files kept. Sent in a request's
body or its URL (``curl -d "p=$pw" https://…``, ``wget --post-data``) to another machine, it is the
stealer's catch on its way out: CREDENTIALS too; ``curl -u "u:$pw"`` logs in with it, and this machine's
own service (``localhost``) is a developer's login.
"""

from __future__ import annotations

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..parse import WRITE_OPERATORS, Script
from ..pathnames import normalize_path
from ..programs import Invocation, walk
from ..verdict import COLLECTION, CREDENTIALS, Verdict

__all__ = ["judge_script"]

_READ_VALUED = frozenset("adinNptu")
"""``read`` options that take a value (``-p PROMPT``, ``-t SECONDS``): the rest of the word or the next."""
_PRINTERS = frozenset({"echo", "printf", "print", "cat"})
_NOT_KEPT = ("/dev/null", "/dev/tty", "/dev/stdout", "/dev/stderr", "/dev/fd/")


def _silent_variables(invocation: Invocation) -> list[str]:
    """The variables ``read -s`` stores what is typed in (``REPLY`` when none is named)."""
    silent = False
    names: list[str] = []
    skip = False
    for value in _values(invocation):
        if skip:
            skip = False
            continue
        if value.startswith("-") and len(value) > 1:
            for index, char in enumerate(value[1:]):
                silent = silent or char == "s"
                if char in _READ_VALUED:
                    skip = index + 2 == len(value)  # the value is the next word
                    break
            continue
        names.append(value)
    if not silent:
        return []
    return names or ["REPLY"]


def _prints(invocation: Invocation, names: set[str]) -> bool:
    """Whether the command prints one of ``names``' values (``echo "$pw"``, ``printf %s "${pw}"``)."""
    command = invocation.command
    for word in (*command.words, *(r.target for r in command.redirects if r.op == "<<<")):
        for substitution in command.substitutions_in(word):
            if substitution.kind == "$" and substitution.text.strip("${}") in names:
                return True
    return False


def _kept_in(stages: list[Invocation], index: int) -> str | None:
    """The file the output of ``stages[index]`` is written to: its own redirection or a ``tee`` after it."""
    command = stages[index].command
    targets = [
        t for r in command.redirects if r.op in WRITE_OPERATORS for t in [command.static(r.target)] if t
    ]
    if index + 1 < len(stages) and stages[index + 1].name == "tee":
        targets += [v for v in _values(stages[index + 1]) if not v.startswith("-")]
    return next((t for t in targets if not t.startswith((*_NOT_KEPT, "&"))), None)


_SENDERS = frozenset({"curl", "wget", "http", "https", "xh", "curlie"})
_BODY_OPTIONS = frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-urlencode",
                           "--data-ascii", "-F", "--form", "--form-string", "--json", "--post-data",
                           "--body-data"})  # fmt: skip
"""Options whose value is a request's body (curl's, wget's)."""
_LOCAL_URL = lazy_compile(r"^(?:https?://)?(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])(?:[:/]|$)")


def _sent(invocation: Invocation, names: set[str]) -> bool:
    """Whether a network client sends one of ``names``' values to another machine in a request's body or
    URL (``curl -d "p=$pw" https://h/``, ``wget --post-data="p=$pw" URL``, ``curl "https://h/?p=$pw"``)."""
    command = invocation.command
    words = list(invocation.args)
    statics = [command.static(word) or "" for word in words]
    if any(_LOCAL_URL.match(value) for value in statics if "://" in value or value.startswith("localhost")):
        return False
    for index, word in enumerate(words):
        if not any(s.kind == "$" and s.text.strip("${}") in names for s in command.substitutions_in(word)):
            continue
        previous = statics[index - 1] if index else ""
        rendered = command.render(word)
        option = rendered.partition("=")[0] if rendered.startswith("--") else rendered[:2]
        if previous in _BODY_OPTIONS or option in _BODY_OPTIONS or "://" in rendered:
            return True
    return False


def judge_script(script: Script, home: str) -> Verdict | None:
    """A ``read -s`` variable's value written to a file later in the line."""
    names: set[str] = set()
    for stages in walk(script):
        for index, stage in enumerate(stages):
            if stage.name == "read":
                names.update(_silent_variables(stage))
                continue
            if names and stage.name in _SENDERS and _sent(stage, names):
                why = "sends a password typed at a silent prompt to another machine: a fake prompt's catch"
                return _verdict(CREDENTIALS, stage, why)
            if not names or stage.name not in _PRINTERS or not _prints(stage, names):
                continue
            kept = _kept_in(stages, index)
            if kept is None:
                continue
            full = normalize_path(kept, home=home, cwd=stage.cwd)
            if full.startswith("/") and not (stage.cwd and full.startswith(stage.cwd.rstrip("/") + "/")):
                why = f"keeps a password typed at a silent prompt in {kept}: a fake password prompt's catch"
                return _verdict(CREDENTIALS, stage, why)
            why = f"keeps a password typed at a silent prompt in the project's {kept}"
            return _verdict(COLLECTION, stage, why)
    return None
