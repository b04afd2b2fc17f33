"""Where bash reads here-document bodies: one linear scan of the text, by bash's rules.

tree-sitter-bash's scanner misreads some bodies: one that starts with ``\\`` becomes
words of the redirection, one that starts with ``$"`` an error, a second ``<<`` on a
line a redirection from a file. bash's rule is simple: each ``<<WORD`` (``<<-WORD``)
outside quotes and comments queues a body, and at the next newline the queued bodies
are read, one after the other, each up to a line that is its delimiter (leading tabs
removed for ``<<-``) or to the end of the text. The parser takes the bodies from here,
and judges as code a body tree-sitter did not tie to its redirection.
"""

from __future__ import annotations

import re

from ..frozen import Frozen
from ..lazy_regex import lazy_compile

__all__ = ["HereDocument", "closing", "here_documents"]


class HereDocument(Frozen):
    """One body: ``operator`` is the byte where its ``<<`` starts; ``start:end`` its bytes.

    A :class:`~agentbus.frozen.Frozen` value, not a dataclass: every hook process parses
    its command, and importing dataclasses and building the class cost more than the
    parse of an ordinary command."""

    __slots__ = ("after", "delimiter", "end", "operator", "quoted", "start", "strip_tabs", "terminated")
    operator: int
    start: int
    end: int
    quoted: bool
    """The delimiter was quoted (``<<'EOF'``): the body is not expanded."""
    strip_tabs: bool
    """``<<-``: bash removes the leading tabs of each line."""
    delimiter: bytes
    terminated: bool
    """A delimiter line ends the body (else the end of the text does)."""
    after: int
    """Where bash reads on after the delimiter line."""

    def __init__(
        self,
        operator: int,
        start: int,
        end: int,
        quoted: bool,
        strip_tabs: bool,
        delimiter: bytes,
        terminated: bool,
        after: int,
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "operator", operator)
        set_field(self, "start", start)
        set_field(self, "end", end)
        set_field(self, "quoted", quoted)
        set_field(self, "strip_tabs", strip_tabs)
        set_field(self, "delimiter", delimiter)
        set_field(self, "terminated", terminated)
        set_field(self, "after", after)

    def text(self, source: bytes) -> str:
        body = source[self.start : self.end].decode("utf-8", "surrogatepass")
        return _LEADING_TABS.sub("", body) if self.strip_tabs else body


_SPECIAL = lazy_compile(rb"""['"\\<\n#]""")
_OPERATOR = lazy_compile(rb"<<(-?)[ \t]*")
_WORD_END = frozenset(b" \t\n;&|<>()")
_LEADING_TABS = lazy_compile(r"^\t+", re.MULTILINE)


def here_documents(source: bytes) -> dict[int, HereDocument]:
    """Every here-document body of ``source`` (bytes, as tree-sitter reads them), by operator."""
    found: dict[int, HereDocument] = {}
    pending: list[tuple[int, bytes, bool, bool]] = []  # operator, delimiter, quoted, strip
    index = 0
    length = len(source)
    while True:
        match = _SPECIAL.search(source, index)
        if match is None:
            break
        at = match.start()
        char = source[at]
        if char == 0x5C:  # backslash: the next byte is quoted
            index = at + 2
        elif char == 0x27:  # '...' ($'...' has escapes)
            index = _after_single(source, at)
        elif char == 0x22:  # "..."
            index = at + 1
            while index < length and source[index] != 0x22:
                index += 2 if source[index] == 0x5C else 1
            index += 1
        elif char == 0x23:  # a comment when it starts a word: to the end of the line
            if at == 0 or source[at - 1] in b" \t\n;&|()<>":
                newline = source.find(b"\n", at)
                index = length if newline < 0 else newline
            else:
                index = at + 1
        elif char == 0x3C:  # <<WORD or <<-WORD (not <<<)
            operator = _OPERATOR.match(source, at)
            if operator is None or source.startswith(b"<<<", at):
                index = at + (3 if source.startswith(b"<<<", at) else 1)
                continue
            delimiter, quoted, index = _delimiter(source, operator.end())
            if delimiter is not None:
                pending.append((at, delimiter, quoted, operator.group(1) == b"-"))
        else:  # a newline: the queued bodies start on the next line
            index = at + 1
            for operator_at, delimiter, quoted, strip in pending:
                start = index
                end, index = _body_end(source, start, delimiter, strip)
                terminated = end < length or source.endswith(b"\n" + delimiter)
                found[operator_at] = HereDocument(
                    operator_at, start, end, quoted, strip, delimiter, terminated, index
                )
            pending.clear()
    for operator_at, delimiter, quoted, strip in pending:  # no newline after them: empty bodies
        found[operator_at] = HereDocument(
            operator_at, length, length, quoted, strip, delimiter, False, length
        )
    return found


def closing(source: bytes) -> bytes:
    """What ends the bodies the end of the text ends (``bash <<EOF echo x >> ~/.bashrc``, ``bash
    <<EOF`` then lines with no ``EOF``): their delimiter lines. bash reads such a body to the end
    of the text; tree-sitter gives up on the line that started it unless a delimiter follows."""
    if b"<" not in source or b"<<" not in source:  # the one-byte search first: memchr
        return b""
    suffix = b""
    for document in here_documents(source).values():
        if not document.terminated:
            newline = b"" if (source + suffix).endswith(b"\n") else b"\n"
            suffix += newline + document.delimiter + b"\n"
    return suffix


def _after_single(source: bytes, at: int) -> int:
    ansi = at > 0 and source[at - 1] == 0x24
    close = at + 1
    while True:
        close = source.find(b"'", close)
        if close < 0:
            return len(source)
        if not ansi or not _escaped(source, close):
            return close + 1
        close += 1


def _escaped(source: bytes, index: int) -> bool:
    count = 0
    while index - count - 1 >= 0 and source[index - count - 1] == 0x5C:
        count += 1
    return count % 2 == 1


def _delimiter(source: bytes, index: int) -> tuple[bytes | None, bool, int]:
    """The delimiter word after ``<<`` with its quotes removed, whether it was quoted, where it ends."""
    out = bytearray()
    quoted = False
    length = len(source)
    while index < length and source[index] not in _WORD_END:
        char = source[index]
        if char == 0x5C and index + 1 < length:
            quoted = True
            out.append(source[index + 1])
            index += 2
        elif char in (0x27, 0x22):
            quoted = True
            close = source.find(bytes([char]), index + 1)
            close = length if close < 0 else close
            out += source[index + 1 : close]
            index = close + 1
        elif char == 0x24 and index + 1 < length and source[index + 1] in (0x27, 0x22):
            index += 1  # $'EOF', $"EOF": the quotes count, the $ does not
        else:
            out.append(char)
            index += 1
    return (bytes(out) if out or quoted else None), quoted, index


def _body_end(source: bytes, start: int, delimiter: bytes, strip: bool) -> tuple[int, int]:
    """Where the body that starts at ``start`` ends, and where reading goes on after its delimiter line."""
    tabs = rb"\t*" if strip else b""
    line = re.compile(rb"^" + tabs + re.escape(delimiter) + rb"$", re.MULTILINE)
    match = line.search(source, start)
    if match is None:
        return len(source), len(source)  # delimited by the end of the text, as bash warns
    after = match.end() + 1 if match.end() < len(source) else match.end()
    return match.start(), after
