"""What every judge builds a finding from: the piece of the command it names, and its static words.

One place for the helpers the command guard and each tactic family share, so that a
finding reads the same whoever made it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..lazy_regex import lazy_compile
from .programs import Invocation
from .verdict import Verdict

__all__ = [
    "PIECE_LIMIT",
    "copies_into_found",
    "exec_runs",
    "finding",
    "inverts_match",
    "looked_up_program",
    "piece",
    "positionals",
    "scan_options",
    "static_args",
]

PIECE_LIMIT = 200
"""The longest piece of a command a reason quotes (a 10 MB command is not repeated back)."""


def piece(text: str) -> str:
    """``text`` on one line, cut to :data:`PIECE_LIMIT` characters."""
    text = " ".join(text.split())
    return text if len(text) <= PIECE_LIMIT else text[: PIECE_LIMIT - 1] + "…"


def finding(category: str, invocation: Invocation, why: str) -> Verdict:
    """A finding of ``category`` about one simple command."""
    return Verdict(category, piece(invocation.text), why)


def static_args(invocation: Invocation) -> list[str]:
    """The arguments whose values are known without running anything, or whose directory is
    (``/etc/cron.d/$(hostname)`` is ``/etc/cron.d/…``: :meth:`~.parse.SimpleCommand.shape`)."""
    return [value for value in map(invocation.command.shape, invocation.args) if value is not None]


_LOOKUP = lazy_compile(
    r"\s*(?:command\s+-v|type\s+-[pP]|which|whereis\s+-b)\s+([\w.+-]+|\"?\$\{?\w+\}?\"?)\s*"
)
"""``command -v chattr``, ``type -P wget``, ``which curl``: the path of a program the PATH finds; the
program may be named by a variable (``command -v $SYSFILEBIN``): whichever it is, it is the system's."""


def looked_up_program(invocation: Invocation, words: tuple[str, ...] | None = None) -> str | None:
    """``rm -f $(command -v chattr)``, ``setfacl -m u::x `which chmod```: an argument (of ``words``, by
    default all) that is the path of a program the PATH finds (malware locks, deletes or replaces the
    administrator's tools wherever they are)."""
    command = invocation.command
    for word in invocation.args if words is None else words:
        for sub in command.substitutions_in(word):
            match = _LOOKUP.fullmatch(sub.text)
            if match is not None:
                return match.group(1).strip('"')
    return None


def positionals(values: list[str], takes_value: frozenset[str] = frozenset()) -> list[str]:
    """The arguments that are not options (nor the values of ``takes_value`` options).

    Everything after ``--`` is an argument; ``-`` (standard input) is one too.
    """
    found: list[str] = []
    skip = False
    for index, value in enumerate(values):
        if skip:
            skip = False
        elif value == "--":
            found.extend(values[index + 1 :])
            break
        elif value.startswith("-") and value != "-":
            skip = value in takes_value
        else:
            found.append(value)
    return found


def without_values(values: list[str], takes_value: frozenset[str]) -> list[str]:
    """``values`` less the ``takes_value`` options and the word after each (``-t ext4``, ``-pw PASS``);
    every other option and operand is kept in its place."""
    kept: list[str] = []
    skip = False
    for value in values:
        if skip:
            skip = False
        elif value in takes_value:
            skip = True
        else:
            kept.append(value)
    return kept


def scan_options(
    values: list[str],
    takes_value: frozenset[str],
    *,
    attached: frozenset[str] = frozenset(),
    optional: Callable[[str, str], bool] | None = None,
) -> Iterator[tuple[str, str]]:
    """Each argument as ``(option, value)``: an option with its value (``--opt=value``; ``-Cdir``
    for the short options in ``attached``; ``-o value`` for those in ``takes_value``, unless
    ``optional(option, word)`` says the next word is not its value; ``""`` for a flag), or an
    operand as ``("", word)``. Everything after ``--`` is an operand."""
    index = 0
    while index < len(values):
        value = values[index]
        index += 1
        name, equals, inline = value.partition("=")
        if value == "--":
            yield from (("", operand) for operand in values[index:])
            return
        if value.startswith("--") and equals:
            yield name, inline
        elif value[:2] in attached and len(value) > 2:
            yield value[:2], value[2:]
        elif value.startswith("-") and value != "-":
            following = values[index] if index < len(values) else None
            if (
                value in takes_value
                and following is not None
                and (optional is None or optional(value, following))
            ):
                index += 1
                yield value, following
            else:
                yield value, ""
        else:
            yield "", value


def inverts_match(values: list[str]) -> bool:
    """grep's -v (--invert-match): the lines it names are dropped, every other one passes."""
    return "--invert-match" in values or any(
        v.startswith("-") and not v.startswith("--") and "v" in v[1:] for v in values
    )


def exec_runs(values: list[str]) -> list[list[str]]:
    """``find``'s ``-exec``/``-execdir``/``-ok``/``-okdir`` commands, each as its words up to ``;`` or
    ``+`` (one pass over the arguments)."""
    runs: list[list[str]] = []
    run: list[str] | None = None
    for value in values:
        if run is None:
            if value in ("-exec", "-execdir", "-ok", "-okdir"):
                run = []
                runs.append(run)
        elif value in (";", "+"):
            run = None
        else:
            run.append(value)
    return runs


def copies_into_found(args: list[str]) -> bool:
    """``cp NOTE {}`` run by ``find -exec``: the destination is what the search found, the source is not."""
    words = [v for v in args if not v.startswith("-")]
    return len(words) >= 2 and words[-1].startswith("{}") and not any("{}" in w for w in words[:-1])
