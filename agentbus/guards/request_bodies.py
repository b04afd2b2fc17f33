"""What an HTTP client sends: curl's and wget's request-body and upload options, one table.

Each option says how its value becomes part of the request (curl(1), wget(1)):

- :data:`LITERAL`: the value is sent as written (``--data-raw``, ``--form-string``,
  ``--post-data``, ``--body-data``): a leading ``@`` is text, not a file;
- :data:`AT_FILE`: ``@FILE`` sends the file's content, ``@-`` standard input (``-d``,
  ``--data``, ``--data-ascii``, ``--data-binary``, ``--json``, and ``-H``, whose
  ``@FILE`` is a file of headers);
- :data:`URLENCODED`: ``@FILE`` or ``name@FILE`` sends the file url-encoded
  (``--data-urlencode``, and ``--url-query``, which puts it in the URL);
- :data:`FORM`: ``name=@FILE`` attaches the file, ``name=<FILE`` sends its text (``-F``);
- :data:`IS_FILE`: the value is the file sent (``-T``/``--upload-file``, wget's
  ``--post-file``/``--body-file``).

curl takes ``--opt value``, ``-dvalue`` and a cluster of short flags ending in one
that takes a value (``-sd @f``, ``-sTf``); ``--opt=value`` is wget's spelling, read for
curl too (a guard must not lose a file to a spelling). Since curl 8.3, ``--expand-data``
(any option with ``--expand-``) is the option with ``{{variables}}`` expanded.
``-K``/``--config`` reads more options from a file: what that file makes curl send is
not known here (the exfiltration tactic counts it as a connection setting). wget's short
options are not curl's (``-d`` debugs, ``-T`` is a timeout); HTTPie and xh send request
items (``field=@file``), not options, and their ``--form`` takes no value: their
senders read those items themselves.

Beside the table, the options whose value is a local file that is not sent
(:data:`UNSENT_FILE_OPTIONS`: an output, a cookie jar, a certificate), and all the options whose
value is a local file or folder (:func:`file_valued_options`, per program): never the URL.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

__all__ = [
    "AT_FILE",
    "BODY_OPTIONS",
    "CURL_PROGRAMS",
    "CURL_VALUES",
    "FILE_UPLOADS",
    "FORM",
    "IS_FILE",
    "LITERAL",
    "REQUEST_OPTIONS",
    "UNSENT_FILE_OPTIONS",
    "URLENCODED",
    "WGET_PROGRAMS",
    "WRITE_OPTIONS",
    "file_valued_options",
    "request_options",
    "sent_file",
]

LITERAL = "literal"
AT_FILE = "@file"
URLENCODED = "name@file"
FORM = "name=@file"
IS_FILE = "file"

_CURL: dict[str, str] = {
    "-d": AT_FILE,
    "--data": AT_FILE,
    "--data-ascii": AT_FILE,
    "--data-binary": AT_FILE,
    "--json": AT_FILE,
    "--data-raw": LITERAL,
    "--data-urlencode": URLENCODED,
    "--url-query": URLENCODED,
    "-F": FORM,
    "--form": FORM,
    "--form-string": LITERAL,
    "-T": IS_FILE,
    "--upload-file": IS_FILE,
    "-H": AT_FILE,
    "--header": AT_FILE,
}
_WGET: dict[str, str] = {
    "--post-data": LITERAL,
    "--body-data": LITERAL,
    "--post-file": IS_FILE,
    "--body-file": IS_FILE,
}
REQUEST_OPTIONS: dict[str, str] = {**_CURL, **_WGET}
"""Every option here, and how its value names a file."""
BODY_OPTIONS = frozenset(REQUEST_OPTIONS) - {"-H", "--header"}
"""Options whose value is the request's body (or, ``--url-query``, its query): what is sent."""
FILE_UPLOADS = frozenset(
    {"-F", "--form", "-T", "--upload-file", "--data-binary", "--post-file", "--body-file"}
)
"""Options that send a file as a file: attached to a form, uploaded, or byte for byte
(``--data-binary @f``, how paste sites are fed). ``-d @f``, ``--json @f`` send a file as a
text body: a webhook's JSON payload."""
WRITE_OPTIONS = BODY_OPTIONS - {"--url-query"}
"""Options that make the request a write (curl sends POST, or PUT for ``-T``), unless a method is named."""
UNSENT_FILE_OPTIONS = frozenset({
    "-o", "--output", "-O", "--output-document", "-D", "--dump-header", "-c", "--cookie-jar", "-P",
    "--directory-prefix", "--output-dir", "--cacert", "--capath", "--cert", "-E", "--key", "--config", "-K",
    "--netrc-file", "-a", "--append-output", "--trace", "--trace-ascii", "--stderr", "--ca-certificate",
    "--certificate", "--private-key", "--load-cookies", "--save-cookies",
})  # fmt: skip
"""curl's and wget's options whose file is written (an output, headers, a cookie jar, a trace) or used
to make the connection (a certificate, a key, a config, a netrc), not sent."""
_CURL_FILE_VALUED = frozenset({
    "-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar", "--output-dir", "--cacert", "--capath",
    "--cert", "-E", "--key", "--config", "-K", "--netrc-file", "--trace", "--trace-ascii", "--stderr", "-T",
    "--upload-file", "-b", "--cookie",
})  # fmt: skip
"""curl's options whose value is a local file or folder. ``-O`` (``--remote-name``) takes no value: the
word after it is the URL whose name the output takes (``curl -O h/x?cmd=id``)."""
_WGET_FILE_VALUED = frozenset({
    "-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "-P", "--directory-prefix",
    "--ca-certificate", "--ca-directory", "--certificate", "--private-key", "--load-cookies",
    "--save-cookies", "--post-file", "--body-file", "-i", "--input-file", "--config",
})  # fmt: skip
"""wget's options whose value is a local file or folder (its ``-c``, ``-b``, ``-E``, ``-K`` take none)."""


def file_valued_options(program: str) -> frozenset[str]:
    """The options of ``program`` (curl or wget) whose value is a local file or folder, never the URL:
    an output, a cookie file, a certificate, the file uploaded, wget's list of URLs."""
    if program in CURL_PROGRAMS:
        return _CURL_FILE_VALUED
    return _WGET_FILE_VALUED if program in WGET_PROGRAMS else frozenset()


CURL_PROGRAMS = frozenset({"curl", "curlie"})
WGET_PROGRAMS = frozenset({"wget", "wget2"})
_CURL_SHORT = frozenset("dFTH")
"""curl's short options in the table."""
CURL_VALUES = frozenset("AbcCdDeEFHKmoPQrtTuUwxXyYz")
"""curl's short options that take a value: in a cluster (``-sLo``) the rest of it, or the next word."""


def request_options(program: str, words: Sequence[str]) -> Iterator[tuple[str, str]]:
    """Each option of the table in ``words``, ``program``'s arguments, and its value.

    The option is named as in the table (``--expand-data`` as ``--data``, ``-sd`` as
    ``-d``); its value is the attached one (``--data=@f``, ``-d@f``) or the next word.
    Only curl's options for curl (and curlie), wget's for wget; none for other programs.
    """
    curl = program in CURL_PROGRAMS
    table = _CURL if curl else _WGET if program in WGET_PROGRAMS else {}
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word == "--":
            return
        if word.startswith("--"):
            option, equals, value = word.partition("=")
            if curl and option.startswith("--expand-"):
                option = "--" + option[len("--expand-") :]
            if option not in table:
                continue
        elif curl and word.startswith("-") and len(word) > 1:
            option, value, equals = _short(word)
            if not option:
                index += _next_is_value(word)  # -o FILE: a value, never an option
                continue
        else:
            continue
        if not equals:
            value = words[index] if index < len(words) else ""
            index += 1
        yield option, value


def _short(word: str) -> tuple[str, str, str]:
    """The table's option a cluster of short options ends in (``-sd@f``), its attached value, and
    whether one is attached; empty when the option taking a value is not one of the table's."""
    for at, char in enumerate(word[1:], start=1):
        if char in CURL_VALUES:
            if char not in _CURL_SHORT:
                return "", "", ""
            attached = word[at + 1 :]
            return "-" + char, attached, "attached" if attached else ""
    return "", "", ""


def _next_is_value(word: str) -> int:
    """1 when a cluster of curl's short options ends in one that takes the next word (``-sLo``)."""
    for at, char in enumerate(word[1:], start=1):
        if char in CURL_VALUES:
            return int(at == len(word) - 1)
    return 0


def sent_file(option: str, value: str) -> str | None:
    """The file whose content ``option`` sends with ``value`` (``-`` for standard input), or None."""
    how = REQUEST_OPTIONS.get(option)
    if how == IS_FILE:
        return value
    if how == AT_FILE:
        return value[1:] if value.startswith("@") else None
    if how == URLENCODED:
        name, at, file = value.partition("@")
        return file if at and "=" not in name else None
    if how == FORM:
        name, equals, content = value.partition("=")
        if equals and content[:1] in ("@", "<"):
            return content[1:].split(";", 1)[0].strip("\"'")
    return None
