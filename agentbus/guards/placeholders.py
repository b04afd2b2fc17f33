"""A cheat sheet's placeholders (``<IP>``, ``<FQDN/IP>``, ``<user>``) read as the words they stand for.

Notes and write-ups spell a command's variable parts in angle brackets: ``smbclient //<FQDN/IP>/<share>``,
``wmiexec.py <user>:"<password>"@<FQDN/IP> "<command>"``. Bash reads each bracket as a redirection, so the
parse loses the target (``//`` is all smbclient is handed) and no rule sees what the line is for; an agent
copying such a line runs it once the brackets are filled in. :func:`filled` gives the line with each
placeholder replaced by its name as a word (``//share_name``), or by a documentation address when it stands
for one (``<IP>``: ``192.0.2.1``), for the rules to judge as well: only ever one more parse of a text
hardly longer than the command.
"""

from __future__ import annotations

import re

from ..lazy_regex import lazy_compile

__all__ = ["filled"]

_PLACEHOLDER = lazy_compile(r"(?<![<\w$])<([A-Za-z](?:[\w ./:|-]{0,40}[\w.])?)>(?![>&(])")
"""An angle-bracketed name (``<IP>``, ``<FQDN/IP>``, ``<community string>``): a letter first, no nested
brackets, not a heredoc (``<<EOF``), a process substitution (``<(…)``) or a descriptor (``>&2``)."""
_QUOTED = lazy_compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
_NOT_WORD = lazy_compile(r"[^\w.-]+")


_ADDRESS_NAME = lazy_compile(r"(?i)(?:^|[^a-z])ip(?:$|[^a-z])|^ip_?addr|ipaddress")
"""A placeholder for an address (``<IP>``, ``<FQDN/IP>``, ``<target ip>``, ``<IPaddressofTarget>``)."""
_AN_ADDRESS = "192.0.2.1"
"""What an address placeholder is read as: RFC 5737's documentation address, another machine."""


def _word(match: re.Match[str]) -> str:
    if _ADDRESS_NAME.search(match.group(1)):
        return _AN_ADDRESS
    return _NOT_WORD.sub("_", match.group(1)).strip("_") or "x"


def filled(command: str) -> str | None:
    """``command`` with its placeholders filled in, or None when no unquoted placeholder is in it (an
    ``echo "<div>"`` or a quoted ``<password>`` alone is text the shell passes on as it is)."""
    if "<" not in command or ">" not in command:
        return None
    if not _PLACEHOLDER.search(_QUOTED.sub("''", command)):
        return None
    return _PLACEHOLDER.sub(_word, command)
