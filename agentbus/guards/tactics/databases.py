"""Tactic family ``databases``: a database server used as a way onto its machine.

A database client sends statements to a server that runs as an account of its own, on the
machine the data lives on. Some statements make that server act on the operating system; pentest
notes use them once they hold a database login:

- :data:`~agentbus.guards.verdict.SERVICE_ATTACK` (asked): operating-system commands run by the
  server: SQL Server's ``xp_cmdshell`` (and turning it on with ``sp_configure``, OLE automation's
  ``sp_OACreate``), a user-defined function called with a command (``SELECT sys_exec('id')``,
  ``do_system(…)``: a function named for running or evaluating something, given a string), and
  PostgreSQL's ``COPY … FROM PROGRAM 'CMD'`` on another machine's server (``-h HOST``, a URL,
  ``PGHOST``; the developer's own server unpacks dumps with it). The command itself is judged too,
  as shell code (:mod:`..carriers`), so ``COPY … FROM PROGRAM 'rm -rf ~'`` is blocked anywhere; a
  harmless one is asked, since it runs as the database's account, on the database's machine.
- :data:`~agentbus.guards.verdict.CREDENTIALS`: the server's own password tables read: ``pg_shadow``,
  ``pg_authid``, ``mysql.user`` with its password column (``authentication_string``, ``*``), MongoDB's
  ``system.users``, SQL Server's ``sql_logins``/``syslogins`` with the hash, Oracle's ``sys.user$``.
  ``SELECT user, host FROM mysql.user`` (who may log in) stays allowed.
- :data:`~agentbus.guards.verdict.BACKDOOR`: a web page written by the server: ``INTO OUTFILE``,
  ``INTO DUMPFILE``, ``COPY … TO``, ``lo_export`` or the query log moved (``general_log_file``) to a
  file a web server runs (``.php``, ``.jsp``, ``.asp`` …), or a file given ``<?php``/``<%`` code: a
  web shell. Where else the server writes is judged as a write to that path (:mod:`..carriers`).
- :data:`~agentbus.guards.verdict.PRIVILEGE`: a shared library loaded into PostgreSQL as a C function
  (``CREATE FUNCTION f() … AS '/tmp/x.so'``, ``LOAD '/tmp/x.so'``): the server runs it as its own code
  (MySQL's ``… SONAME`` is :mod:`.privilege`'s).
- :data:`~agentbus.guards.verdict.UNJUDGED_SCRIPT` (asked): the client's shell escape to a bare shell
  (``mysql -e '\\! bash -i'``, ``sqlite3 db '.shell sh'``): a shell whose commands the guard never sees.
  An escape that names a command is that command, judged as it is (:mod:`..carriers`).

- a file read through the server (``LOAD_FILE('F')``, ``pg_read_file``, ``lo_import``, ``LOAD DATA INFILE``,
  ``COPY t FROM 'F'``, ``BULK INSERT``, ``OPENROWSET(BULK …)``): a secret file is judged as its read
  (``/etc/shadow``, a key: blocked); any server-side read on another machine's server is
  :data:`~agentbus.guards.verdict.SERVICE_ATTACK`; a shared library the server writes
  (``INTO DUMPFILE '/tmp/udf.so'``) is :data:`~agentbus.guards.verdict.PRIVILEGE`.

Statements reach the server in the client's arguments, in a here-document, on its standard input
(``echo '\\! sh' | mysql``) or from a file the same command line wrote (``echo … > x.sql && mysql < x.sql``,
``psql -f``, ``sqlplus @F``): each is judged alike (:func:`judge_script` for the last two). H2's own clients
(``java -cp h2.jar org.h2.tools.Shell -sql …``) are clients too.

Developer work stays allowed: queries of the project's tables, migrations, ``COPY … FROM STDIN``,
``\\copy … TO 'out.csv'``, ``CREATE EXTENSION pgcrypto``, ``mongosh --eval 'db.stats()'``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...lazy_regex import lazy_compile
from ..carriers import PAGE_CODE, SERVER_COMMAND, carried, sql_read_sources, sql_write_targets
from ..findings import finding as _verdict
from ..findings import piece
from ..interpreters import fed_code
from ..options import option_values
from ..parse import Script
from ..paths import check_path
from ..programs import Invocation, walk, written_text
from ..verdict import BACKDOOR, CREDENTIALS, PRIVILEGE, SERVICE_ATTACK, UNJUDGED_SCRIPT, Verdict

__all__ = ["CLIENTS", "JVM_LAUNCHERS", "judge", "judge_script"]

CLIENTS = frozenset({
    "mysql", "mariadb", "mysqlsh", "psql", "pgcli", "mycli", "sqlcmd", "osql", "isql", "bcp",
    "mssqlclient.py", "impacket-mssqlclient", "mssqlclient", "usql", "sqlplus", "cockroach",
    "mongo", "mongosh", "sqlite3", "sqlite", "duckdb", "clickhouse-client", "litecli",
})  # fmt: skip
"""Database clients: what their arguments and fed text say, the server does."""

_SERVER_RUNS = lazy_compile(
    r"\b(?:enable_)?xp_cmdshell\b|\bsp_OACreate\b|\bsp_execute_external_script\b|\bsp_start_job\s+\S|"
    r"\bdbms_scheduler\s*\.\s*create_(?:job|program)\b[^;]{0,2000}?\b(?:executable|external_script)\b|"
    r"\bgetRuntime\s*\(\s*\)\s*\.\s*exec\s*\(|\bnew\s+(?:java\.lang\.)?ProcessBuilder\s*\(",
    re.IGNORECASE,
)
"""A statement that has the server run a command (and :data:`~..carriers.SERVER_COMMAND`): SQL Server's
``xp_cmdshell`` (impacket's ``enable_xp_cmdshell``, an Agent job's ``sp_start_job CMD``), Oracle's
scheduler job of an ``EXECUTABLE`` or ``EXTERNAL_SCRIPT`` (its Java given the right to execute a file
is :data:`_JAVA_GRANT`'s), and Java that starts a process handed to the server (Oracle's ``CREATE JAVA
SOURCE``, H2's ``CREATE ALIAS … AS $$ … Runtime.getRuntime().exec(…) $$``)."""
_JAVA_GRANT = lazy_compile(r"\bdbms_java\s*\.\s*grant_permission\b", re.IGNORECASE)
"""Oracle's grant of a Java permission: one to execute a file lets the server's Java run programs."""
_PROGRAM_COPY = lazy_compile(r"\b(?:FROM|TO)\s+PROGRAM\s+'", re.IGNORECASE)
"""PostgreSQL's ``COPY … FROM PROGRAM``: a developer's own server unpacks a dump with it
(``FROM PROGRAM 'gzip -dc dump.csv.gz'``), so only another machine's server running one is asked."""
_HOST_OPTIONS = frozenset({"-h", "--host"})
_SQL_SERVER_CLIENTS = frozenset({"sqlcmd", "osql", "isql", "bcp"})
"""Clients whose ``-S`` names the server (psql's is single-line mode, mysql's a socket)."""
_URL_HOST = lazy_compile(r"^(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?)://(?:[^@/]*@)?([^/:?,]+)")
_THIS_MACHINE = lazy_compile(
    r"^(?:localhost|127(?:\.\d+){3}|::1|\[::1\]|0\.0\.0\.0|/.*|\.|\(local\)|tcp:localhost\b.*)$",
    re.IGNORECASE,
)

_PASSWORD_TABLES = lazy_compile(
    r"\bpg_shadow\b|\bpg_authid\b|\bsys\.user\$|\bsystem\.users\b|\bmysql\s*\.\s*`?user`?\b|"
    r"\b(?:sql_logins|syslogins)\b",
    re.IGNORECASE,
)
"""The server's tables of logins and their password hashes."""
_PASSWORD_COLUMN = lazy_compile(
    r"authentication_string|password|passwd|\bselect\s+(?:\w+\.)?\*", re.IGNORECASE
)
"""What makes a read of ``mysql.user`` or ``sql_logins`` a read of the hashes, not of the names."""

_WEB_PAGE = lazy_compile(r"\.(?:php\d?|phtml|phar|jspx?|aspx?|ashx|asmx|cfm|cgi|shtml)$", re.IGNORECASE)
_LIBRARY = lazy_compile(r"\.(?:so|dll|dylib)(?:\.\d+)*$", re.IGNORECASE)

_C_FUNCTION = lazy_compile(
    r"\bcreate\s+(?:or\s+replace\s+)?function\b[^;]{0,2000}?\bas\s+'(?!\$libdir)[^']*\.(?:so|dll|dylib)(?:\.\d+)*'|"
    r"^\s*LOAD\s+'(?!\$libdir)[^']*/[^']*'",
    re.IGNORECASE | re.MULTILINE,
)
"""PostgreSQL's C function from a library file, or a library file loaded into the session (``LOAD
'auto_explain'`` and ``'$libdir/…'`` name the server's own libraries)."""

_BARE_SHELL = lazy_compile(
    r"^\s*(?:\\?!|\.shell\s|\.system\s|system\s)\s*(?:/usr)?(?:/bin/)?(?:ba|da|z|k|c|tc|fi)?sh"
    r"(?:\s+-[il]+)*\s*$",
    re.MULTILINE,
)


_H2_TOOLS = frozenset({"org.h2.tools.Shell", "org.h2.tools.RunScript"})
"""H2's own clients, run by ``java -cp h2.jar CLASS``: their ``-sql`` and ``-url …;INIT=…`` are statements."""
JVM_LAUNCHERS = frozenset({"java"})
"""Programs that start H2's clients (:data:`_H2_TOOLS`)."""


def _client(invocation: Invocation) -> bool:
    if invocation.name in CLIENTS:
        return True
    if invocation.name not in JVM_LAUNCHERS:
        return False
    return any(invocation.command.static(word) in _H2_TOOLS for word in invocation.args)


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """What a database client's statements (its arguments and the text it is fed) make the server do."""
    if not _client(invocation):
        return None
    command = invocation.command
    texts = [value for value in (command.static(word) for word in invocation.args) if value]
    texts.extend(fed_code(invocation))
    for text in texts:
        found = _statement(invocation, text, home)
        if found is not None:
            return found
    return None


def _statement(invocation: Invocation, text: str, home: str) -> Verdict | None:
    for part in re.split(r";|\n", text) if len(text) < 100_000 else [text]:
        if _PASSWORD_TABLES.search(part) is not None and _reads_hashes(part):
            why = "reads the database server's password hashes (its table of logins)"
            return _verdict(CREDENTIALS, invocation, why)
    page_code = PAGE_CODE.search(text) is not None
    for target in sql_write_targets(text):
        if page_code or _WEB_PAGE.search(target.strip()):
            why = f"has the database server write {target}, a page a web server runs: a web shell"
            return _verdict(BACKDOOR, invocation, why)
        if _LIBRARY.search(target.strip()):
            why = f"has the database server write {target}, a shared library: code for it to load as its own"
            return _verdict(PRIVILEGE, invocation, why)
    if _C_FUNCTION.search(text):
        why = "loads a shared library into the database server: code of one's own run as the server"
        return _verdict(PRIVILEGE, invocation, why)
    runs = _SERVER_RUNS.search(text) or SERVER_COMMAND.search(text) or _grants_execute(text)
    remote = _other_machine(invocation)
    if runs is None and remote:
        runs = _PROGRAM_COPY.search(text)
    for path, _ in sql_read_sources(text) if runs is None else ():
        secret = check_path(path, home=home, local=True)
        if secret is not None:
            return _verdict(secret.category, invocation, f"has the database read {path}: {secret.why}")
    if runs is not None:
        why = (
            f"has the database server run an operating-system command ({piece(runs.group(0))[:60]} …): "
            "it runs as the database's account, on the database's machine"
        )
        return _verdict(SERVICE_ATTACK, invocation, why)
    if remote:
        read = next((path for path, server in sql_read_sources(text) if server), None)
        if read is not None:
            why = f"has a database server on another machine read {read} from its own disk"
            return _verdict(SERVICE_ATTACK, invocation, why)
    if _BARE_SHELL.search(text):
        why = "starts a shell from inside the database client: the guard never sees what is typed into it"
        return _verdict(UNJUDGED_SCRIPT, invocation, why)
    return None


_FILE_OPTIONS = {
    **dict.fromkeys(("psql", "pgcli"), frozenset({"-f", "--file"})),
    **dict.fromkeys(("sqlcmd", "osql", "isql"), frozenset({"-i", "--input-file"})),
    "java": frozenset({"-script"}),
}
"""Options that name a file of statements the client runs (psql's ``-f``, sqlcmd's ``-i``, H2's
``-script``; sqlplus takes ``@FILE``)."""


def judge_script(script: Script, home: str) -> Verdict | None:
    """Statements a client reads on its standard input or from a file the same command line wrote:
    ``echo '\\! sh' | mysql``, ``printf "COPY t FROM PROGRAM 'id';" | psql -h HOST``, ``echo "select
    sys_exec('id')" > /tmp/x.sql && mysql < /tmp/x.sql``, ``psql -f x.sql``. They are judged as the same
    statements given on the command line are (:func:`judge`), and what they carry as shell code (a
    ``\\! CMD`` line, ``xp_cmdshell 'CMD'``, a file the server reads or writes) as that command."""
    from ..danger import _decoded, check_command  # here: danger imports the tactics

    written: dict[str, str] = {}
    """Files a printer wrote so far (``echo TEXT > F``), by name: what a client later reads from them."""
    for stages in walk(script):
        for index, stage in enumerate(stages):
            if stage.name in ("echo", "printf", "cat") and len(stages) == 1:
                text = written_text(stage)
                for redirect in stage.command.redirects:
                    target = stage.command.static(redirect.target)
                    if redirect.op in (">", ">>", ">|") and text is not None and target:
                        before = written.get(target, "") + "\n" if redirect.op == ">>" else ""
                        written[target] = before + text
            if not _client(stage):
                continue
            texts = [_decoded(stages[:index])] if index else []
            values = [v for v in (stage.command.static(word) for word in stage.args) if v]
            files = [r.target for r in stage.command.redirects if r.op == "<"]
            names = [stage.command.static(word) for word in files]
            names += option_values(values, _FILE_OPTIONS.get(stage.name, frozenset()))
            names += [value[1:] for value in values if stage.name == "sqlplus" and value.startswith("@")]
            texts += [written.get(name) for name in names if name]
            for text in texts:
                found = _fed_verdict(stage, text, values, home, check_command) if text else None
                if found is not None:
                    fed = piece(" | ".join(s.text for s in stages[: index + 1]))
                    return Verdict(found.category, fed, found.why)
    return None


def _fed_verdict(
    stage: Invocation, text: str, values: list[str], home: str, check: Callable[..., Verdict | None]
) -> Verdict | None:
    found = _statement(stage, text, home)
    if found is not None:
        return found
    env = [v for v in (stage.command.static(word) for word in stage.env) if v is not None]
    for code in carried(stage.name, values, [text], env):
        verdict = check(code, home=home)
        if verdict is not None:
            why = f"{verdict.why}; run by {stage.name} from the statements fed to it"
            return Verdict(verdict.category, verdict.piece, why)
    return None


def _grants_execute(text: str) -> re.Match[str] | None:
    """``dbms_java.grant_permission('SCOTT', 'SYS:java.io.FilePermission', '/bin/sh', 'execute')``: the
    grant, when its statement (the next 1,000 characters, to a ``;``) gives a file's execute right."""
    for grant in _JAVA_GRANT.finditer(text):
        statement = text[grant.end() : grant.end() + 1000].split(";", 1)[0].lower()
        if "filepermission" in statement and "execute" in statement:
            return grant
    return None


def _other_machine(invocation: Invocation) -> bool:
    """Whether the client names a server on another machine (``-h HOST``, ``-S HOST``, a URL, ``PGHOST``)."""
    values = [value for value in (invocation.command.static(word) for word in invocation.args) if value]
    options = _HOST_OPTIONS | {"-S", "--server"} if invocation.name in _SQL_SERVER_CLIENTS else _HOST_OPTIONS
    hosts = option_values(values, options)
    hosts += [match.group(1) for value in values if (match := _URL_HOST.match(value))]
    hosts += [a.partition("=")[2] for a in invocation.env if a.startswith(("PGHOST=", "MYSQL_HOST="))]
    return any(host and not _THIS_MACHINE.match(host) for host in hosts)


def _reads_hashes(statement: str) -> bool:
    """``pg_shadow``, ``pg_authid``, ``sys.user$``, ``system.users`` hold nothing else; ``mysql.user`` and
    ``sql_logins`` also say who may log in, so a read of them is one of the hashes when it names them."""
    lowered = statement.lower()
    if any(table in lowered for table in ("pg_shadow", "pg_authid", "sys.user$", "system.users")):
        return True
    return "select" in lowered and _PASSWORD_COLUMN.search(statement) is not None
