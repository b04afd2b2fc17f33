"""The variables a shell line exports, followed statement by statement.

A later program of the line (or of a later call in the same shell) runs with them: ``export
COMPOSE_FILE=evil.yml; docker compose up`` (:mod:`.project_sources`), ``export GIT_CONFIG_COUNT=1 …;
git status`` (:mod:`.git_settings`). Each reader picks the variables it cares about.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .parse import SimpleCommand
    from .programs import Invocation

__all__ = ["Exports"]

_DECLARES = frozenset({"declare", "typeset", "local", "readonly"})


class Exports:
    """The variables a line has exported so far, statement by statement: ``export X=v``, ``declare
    -x X=v``, ``X=v; export X``, every assignment after ``set -a``; ``unset X`` and ``export -n X``
    take one back. A value made at run time (``export X=$(pick)``) is None."""

    __slots__ = ("_all", "_assigned", "exported")

    def __init__(self) -> None:
        self.exported: dict[str, str | None] = {}
        self._assigned: dict[str, str | None] = {}
        self._all = False

    def note(self, invocation: Invocation) -> None:
        """Learn what ``invocation`` (a statement run before the next) does to the environment."""
        command = invocation.command
        name = invocation.name
        if not name and not invocation.dynamic:  # X=v alone: a shell variable, exported if it was
            for assignment in invocation.env:
                variable, value = _assigned(command, assignment)
                self._assigned[variable] = value
                if self._all or variable in self.exported:
                    self.exported[variable] = value
            return
        args = [command.static(arg) for arg in invocation.args]
        flags = "".join(a[1:] for a in args if a and a.startswith("-") and not a.startswith("--"))
        if name == "set":
            if "a" in flags or ("allexport" in args and "-o" in args):
                self._all = True
            elif "+a" in args or ("allexport" in args and "+o" in args):
                self._all = False
        elif name == "unset":
            for arg in args:
                self.exported.pop(arg or "", None)
        elif name == "export" or (name in _DECLARES and "x" in flags):
            for raw, arg in zip(invocation.args, args, strict=True):
                if arg is not None and arg.startswith("-"):
                    continue
                variable, equals, _ = raw.partition("=")
                if "n" in flags:
                    self.exported.pop(variable, None)
                elif equals:
                    self.exported[variable] = _assigned(command, raw)[1]
                else:
                    self.exported[variable] = self._assigned.get(variable, self.exported.get(variable))

    @property
    def exporting_all(self) -> bool:
        """Whether ``set -a`` is on: each later assignment is exported."""
        return self._all


def _assigned(command: SimpleCommand, assignment: str) -> tuple[str, str | None]:
    variable = assignment.partition("=")[0]
    value = command.static(assignment)
    return variable, (value.partition("=")[2] if value is not None else None)
