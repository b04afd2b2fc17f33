"""Code of one's own run as root: what a program run through sudo, doas, pkexec, run0 or ``su -c`` is
handed to run (part of the ``privilege`` family, consulted by :mod:`.privilege`).

GTFOBins lists hundreds of programs that, run as root, run whatever they are handed: a
configuration file that names a command (``neofetch --config``, ``wg-quick up``), a script
(``bpftrace FILE``, ``pandoc -L FILE``), code on the command line (``guile -c``, ``php -r``), a
library to load (``openssl -engine``, ``ssh-keygen -D``), an environment that picks the code
(``PATH=DIR:$PATH``, ``PERL5OPT``), a shell named among the arguments (``cpio --rsh-command
/bin/sh``, ``ip netns exec NS /bin/sh``), or the project's own build scripts (``npm i``,
``composer run-script``). A coding agent must not escalate unattended, so the class is held
back, not the list: a program run as root is judged by what it is handed, whatever its name.

PRIVILEGE (blocked): the hand-over reaches a shell or loads code of one's choosing into root:
a file written in the same command whose text starts a shell (or a shell copied there) handed
to a root program; a shell named in a root program's arguments; a shared library given to it;
variables that choose the code it runs (``LD_*``, ``PYTHONPATH``, ``PERL5OPT``, ``RUBYOPT``,
``NODE_OPTIONS``, ``GIT_EXEC_PATH``, ``*_BIN_PATH`` ...) set for it; interpreter code that runs a
shell.

SUDO_INSTALL (asked): code of unknown content run as root: an interpreter's code or script
(``sudo python3 x.py``, ``sudo php -r CODE``), a file written in the command handed to a root
program, a ``PATH`` that puts a directory outside the system's in front of root, and the
project's build or task runners run as root (``sudo make``, ``sudo npm i``, ``sudo cargo
build``): their scripts are the project's, run as root.

Not held back here: a root program given files to read or write (``sudo tail -f LOG``, ``sudo cp
x /etc/y``): the secret, system-file and privilege-file rules judge the files by what they are.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterable, Iterator

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..interpreters import AWKS, INTERPRETERS, fed_code, inline_code
from ..parse import WRITE_OPERATORS, Script
from ..programs import (
    ROOT_WRAPPERS,
    SHELLS,
    Invocation,
    is_root_user,
    program_name,
    runs_as,
    walk,
    written_text,
)
from ..verdict import BLOCK, DEFAULT_VERDICTS, PRIVILEGE, SUDO_INSTALL, Verdict

__all__ = ["code_variable", "judge", "judge_as_root", "judge_script", "strongest"]

SHELL_SPAWN = lazy_compile(
    r"/bin/(?:ba|da|z|k|c|tc|fi|a)?sh\b|\bpty\.spawn|\bos\.exec[lv]|\bsetuid\(0\)"
    r"|(?:^|[\s;&|(`'\"=,{])(?:exec\s+)?(?:ba|da|z|k)?sh(?:\s+-[a-z]*[cip]|\s*[#;]|\s+[0-9]?[<>]|\s*[)'\"`]|\s*$)"
    r"|\b(?:system|exec|popen|spawn|execute|callCommand|run-shell-command|esyscmd|syscmd)\b"
)
"""Text that starts a shell or a command (``/bin/sh``, ``exec sh 0<&2``, ``system(...)``, ``os.execute``):
in a file, a configuration or code handed to a program run as root, a root shell."""

_CODE_VARIABLES = lazy_compile(
    r"^(?:LD_PRELOAD|LD_AUDIT|LD_LIBRARY_PATH|DYLD_INSERT_LIBRARIES|DYLD_LIBRARY_PATH|GCONV_PATH"
    r"|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONINSPECT|PERL5OPT|PERL5LIB|PERLLIB|PERL5DB|RUBYOPT|RUBYLIB"
    r"|NODE_OPTIONS|NODE_PATH|LUA_INIT(?:_\d_\d)?|LUA_PATH|LUA_CPATH|TCLLIBPATH|R_PROFILE(?:_USER)?"
    r"|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH|PHPRC|PHP_INI_SCAN_DIR|BASH_ENV"
    r"|GIT_EXEC_PATH|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|FACTERLIB|RUBYSHELL"
    r"|PERL5SHELL|SHELLOPTS|PS4|[A-Z0-9_]*_BIN_PATH|[A-Z0-9_]*_PLUGIN_PATH|[A-Z0-9_]*PLUGINS?_DIR)$"
)
"""Variables that choose the code a program loads or runs: set for a root program, root runs that code."""


def code_variable(name: str) -> bool:
    """Whether the environment variable ``name`` chooses the code a program loads or runs (``PERL5OPT``)."""
    return _CODE_VARIABLES.match(name) is not None


_SYSTEM_DIRS = lazy_compile(
    r"^(?:/usr/local/s?bin|/usr/s?bin|/s?bin|/usr/games|/usr/local/games|/snap/bin|/opt/[^/]+/s?bin"
    r"|/usr/lib/[^/]+/bin|/usr/local/go/bin|/usr/local/cuda[^/]*/bin)/?$"
)
"""Directories of the system's programs, written by root only."""
_WHOLE_PATH = frozenset({"$PATH", "${PATH}", "$SUDO_PATH"})

_SHARED_LIBRARY = lazy_compile(r"\.(?:so(?:\.[0-9]+)*|dylib)$")
"""A shared library's name (``./lib.so``, ``/x/y.so.1``), the last part of a value (``file=/x/lib.so``)."""

_FILE_HANDLERS = frozenset({
    "cp", "mv", "ln", "install", "rsync", "scp", "ls", "stat", "file", "readlink", "realpath", "which",
    "whereis", "type", "command", "cmp", "diff", "chmod", "chown", "chgrp", "chattr", "lsattr", "chcon",
    "chsh", "lchsh", "usermod", "useradd", "adduser", "update-alternatives", "dpkg", "dpkg-divert",
    "dpkg-query", "dpkg-reconfigure", "rpm", "tee", "echo", "printf", "grep", "egrep", "fgrep", "rg",
    "strings", "ldd", "objdump", "readelf", "nm", "setcap", "getcap", "setfacl", "getfacl", "sha1sum",
    "sha256sum", "sha512sum", "md5sum", "b2sum", "cksum", "touch", "rm", "unlink", "shred", "lsof",
    "fuser", "pgrep", "pkill", "kill", "killall", "ps", "strace", "ltrace", "gdb", "aa-complain",
    "aa-enforce", "aa-disable", "restorecon", "semanage", "ldconfig", "tar", "zip", "unzip", "patchelf",
    "chrpath", "strip", "objcopy",
    "ssh", "sftp", "docker", "podman", "nerdctl", "kubectl", "oc", "lxc", "incus", "machinectl",
    "systemd-nspawn", "chroot", "nsenter", "unshare", "visudo", "vipw", "vigr", "mount", "umount",
    "find", "xargs", "env", "sudo", "doas", "pkexec", "run0", "su", "runuser", "apt", "apt-get", "dnf",
    "yum", "zypper", "pacman", "apk", "snap", "flatpak", "brew", "port", "debugfs", "tune2fs", "dscl",
    "sysadminctl", "pw", "luseradd", "lusermod", "newusers", "debsums", "journalctl", "coredumpctl",
    "pidof", "auditctl", "ausearch", "aureport", "trace-cmd", "aa-genprof",
    "aa-logprof", "apparmor_parser",
})  # fmt: skip
"""Programs that take a shell's or a library's path as a file to handle, list or install, not to run
(``sudo chsh -s /bin/zsh dev``, ``sudo ln -sf /bin/dash /bin/sh``, ``sudo ldd /bin/sh``); containers
and other machines run what they are given there, judged by their own rules."""

_DATA_ONLY = frozenset({
    "cat", "tac", "head", "tail", "nl", "wc", "egrep", "zgrep", "ag", "ack", "comm", "sha224sum", "sha384sum",
    "sum", "md5", "shasum", "test", "[", "cut", "od", "xxd", "hexdump", "hd", "column", "fold", "fmt", "pr",
    "rev", "base64", "base32", "expand", "unexpand", "paste", "join", "look", "tr", "iconv", "zcat", "bzcat",
    "xzcat", "namei", "basename", "dirname", "du", "id", "sort", "uniq", "tree", "locate", "dpkg-query",
    "exa", "eza", "vdir", "dir", "jq", "yq",
})  # fmt: skip
"""Programs that only read their operands as data: a shell's or a library's path given to them is text.
(Not every reader of :func:`~..targets.reads_only`: ``sed``, ``awk``, ``git``, ``openssl``, ``nginx`` and
``logrotate`` write nothing, but run commands or load modules they are given.)"""
_NOT_RUN = _FILE_HANDLERS | _DATA_ONLY

_PROJECT_RUNNERS = frozenset({
    "make", "gmake", "bmake", "cmake", "ctest", "meson", "ninja", "scons", "npm", "pnpm", "yarn", "bun",
    "npx", "pnpx", "bunx", "composer", "bundle", "bundler", "rake", "cargo", "gradle", "gradlew", "mvn",
    "mvnw", "ant", "sbt", "mix", "poetry", "pipenv", "pdm", "hatch", "just",
    "task", "invoke", "fab", "gulp", "grunt", "vagrant", "ansible-playbook", "forge", "dotnet", "swift",
    "stack", "cabal", "dune", "opam", "lein", "clojure", "zig", "bazel", "bazelisk", "buck", "pants",
    "pipx", "uv", "rye", "deno", "go", "arch-nspawn", "makepkg", "debuild", "dpkg-buildpackage",
    "rpmbuild", "easy_install", "acr", "nix-build", "nix-shell",
})  # fmt: skip
"""Build and task runners: what they run is the project's (its Makefile, package.json scripts, build.rs,
setup.py, Gemfile, Vagrantfile, playbook), root's when they run as root. Test runners are not here:
``sudo -E env PATH=$PATH pytest`` is how tests that need root (namespaces, raw sockets) are run."""
_PRINTS_ONLY = frozenset({"--version", "-V", "--help", "-h", "help", "version", "-v"})
_INTERPRETER_ONLY = frozenset({"rpm", "rake", "puppet", "gimp", "emacs", "bpftrace", "go", *AWKS})
"""Interpreters whose operands are not their script (``rpm -qa``, ``awk '{print}' LOG``): their code is
the code an option gives."""


def _as_root(invocation: Invocation) -> bool:
    user = runs_as(invocation)
    return user is not None and is_root_user(user)


def _root_env(invocation: Invocation) -> list[tuple[str, str]]:
    """The assignments a root wrapper passes to its program (``sudo VAR=VALUE CMD``, ``sudo env
    VAR=VALUE CMD``): root's environment, not the caller's (``VAR=x sudo CMD`` is reset by sudo). In
    code root runs (``su -c CODE``, ``sudo sh -c CODE``) every assignment of the code is root's."""
    words = invocation.command.words
    start = next(
        (i for i, w in enumerate(words) if program_name(invocation.command.static(w) or "") in ROOT_WRAPPERS),
        None,
    )
    after = set(words[start + 1 :] if start is not None else words)  # su -c CODE: CODE's own are root's
    found: list[tuple[str, str]] = []
    for assignment in invocation.env:
        if assignment in after:
            key, _, value = (invocation.command.static(assignment) or assignment).partition("=")
            found.append((key, value))
    return found


def _environment(invocation: Invocation) -> Verdict | None:
    for key, value in _root_env(invocation):
        if _CODE_VARIABLES.match(key) and value:
            program = invocation.name or "a program"
            why = f"sets {key} for {program} run as root: it chooses the code root runs"
            return _verdict(PRIVILEGE, invocation, why)
        if key == "PATH":
            outside = [d for d in value.split(":") if d not in _WHOLE_PATH and not _SYSTEM_DIRS.match(d)]
            if outside:
                why = f"puts {outside[0] or '.'} in root's PATH: a program found there runs as root"
                return _verdict(SUDO_INSTALL, invocation, why)
    return None


def _split(value: str) -> Iterator[str]:
    """``value`` and its parts: ``--opt=A,B``, ``key=value``, ``a:b`` (a path list)."""
    yield value
    for part in re.split(r"[=,:]", value):
        if part != value:
            yield part


def _commands(value: str) -> Iterator[str]:
    """Where a shell may be named to run: the value, an option's value, and the parts of a list written
    with commas (``-wrapper /bin/sh,-s``); not ``_EXE=/bin/bash`` or ``uprobe:/bin/bash:readline``,
    which name the file."""
    yield value
    if value.startswith("-") and "=" in value:
        value = value.partition("=")[2]
        yield value
    if "," in value:
        yield from value.split(",")


_LIBRARY_OPTION = lazy_compile(
    r"^--?(?:default[-_]auth|plugin[-_](?:dir|load(?:[-_]add)?|path)|plugins?[-_]?dir|engine|"
    r"load[-_](?:extension|module|plugin)s?|extension[-_]dir|module[-_]path|preload)$"
)
"""Options whose value is a library or a directory of them that the program loads (``mysql
--default-auth=PATH``, ``--plugin-dir=DIR``, ``openssl -engine``): a path of one's choosing loads one's
own code into root."""
_SYSTEM_LIBRARIES = lazy_compile(r"^/(?:usr/(?:local/)?)?lib(?:64|exec)?/")


def _library_option(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``sudo mysql --default-auth ../../tmp/x``: a library path given through an option that loads it."""
    for index, value in enumerate(values):
        option, equals, given = value.partition("=")
        if not equals:
            given = values[index + 1] if index + 1 < len(values) else ""
        if _LIBRARY_OPTION.match(option) and "/" in given and not _SYSTEM_LIBRARIES.match(given):
            why = f"loads {given} into {invocation.name} through {option}, run as root"
            return _verdict(PRIVILEGE, invocation, why)
    return None


def _handed(invocation: Invocation) -> Verdict | None:
    """A shell or a shared library among a root program's arguments."""
    if invocation.name in _NOT_RUN or invocation.name in SHELLS:
        return None
    values = _values(invocation)
    loaded = _library_option(invocation, values)
    if loaded is not None:
        return loaded
    for value in values:
        library = re.split(r"[=,:]", value)[-1].removeprefix("-D")
        if _SHARED_LIBRARY.search(library) and not value.startswith("-o"):
            why = f"loads {library} into {invocation.name}, run as root"
            return _verdict(PRIVILEGE, invocation, why)
    for value in values:
        for part in _commands(value):
            if SHELL_SPAWN.search(part) and _names_shell(part):
                why = f"hands a shell ({part.strip()[:40]}) to {invocation.name}, run as root"
                return _verdict(PRIVILEGE, invocation, why)
    return None


_SHELL_WORD = lazy_compile(
    r"(?:^|[\s;&|(`'\"{])/(?:usr/)?(?:local/)?s?bin/(?:ba|da|z|k|c|tc|fi|a|y|mk|rba)?sh(?:$|[\s;&|)`'\"<>#])"
    r"|(?:^|[\s;&|(`'\"{])(?:ba|da|z|k)?sh\s+-[a-z]*[ci]\b"
)


def _names_shell(text: str) -> bool:
    """Whether ``text`` names a shell to run (``/bin/sh``, ``sh -i``, ``}; /bin/sh #``), not a shell's
    name as data (``completions bash``) or a call in code (``system(...)``: judged as code)."""
    return bool(_SHELL_WORD.search(text))


def _code(invocation: Invocation) -> Verdict | None:
    """An interpreter run as root with code: a shell from it is blocked, any other code asked."""
    name = invocation.name
    if not INTERPRETERS.match(name) or name in SHELLS or name in _CODE_OPTIONS:
        return None  # rpm --eval: judged by _code_option (a macro's value is no code of one's own)
    values = _values(invocation)
    if _PRINTS_ONLY & set(values):
        return None
    code = [c for c in (inline_code(invocation), *fed_code(invocation)) if c]
    script = None
    if not code and name not in _INTERPRETER_ONLY:
        script = next((v for v in values if not v.startswith("-")), None)
        if "-m" in values:
            return None  # python3 -m MODULE: installed code (pip and the package managers: their rules)
    if name == "go" and values[:1] == ["run"]:
        script = next((v for v in values[1:] if not v.startswith("-")), None)
    if not code and script is None:
        return None
    if any(SHELL_SPAWN.search(c) for c in code):
        return _verdict(PRIVILEGE, invocation, f"runs {name} code that starts a command, as root")
    if name in AWKS or name == "bpftrace":
        return None  # sudo awk '{print $1}' LOG, sudo bpftrace -e PROBE: reading, tracing (system(): above)
    shown = f"the script {script}" if script else f"{name} code"
    return _verdict(SUDO_INSTALL, invocation, f"runs {shown} as root")


_TEX = ("tex", "latex", "pdflatex", "xelatex", "lualatex", "luatex", "pdftex", "etex", "xetex", "context")
_RPMS = ("rpm", "rpmdb", "rpmquery", "rpmverify", "rpmspec", "rpmbuild")
_CODE_OPTIONS: dict[str, frozenset[str]] = {
    **dict.fromkeys(_TEX, frozenset({"-shell-escape", "--shell-escape", "-enable-write18",
                                     "--enable-write18"})),
    "dvips": frozenset({"-R0"}),
    "latexmk": frozenset({"-e", "-shell-escape", "--shell-escape"}),
    "knife": frozenset({"exec"}),
    "sqlmap": frozenset({"--eval"}),
    **dict.fromkeys(_RPMS, frozenset({"--eval", "-E"})),
    "bee": frozenset({"eval", "ev", "php-eval", "php-script"}),
    "drush": frozenset({"eval", "ev", "php-eval", "php-script", "scr"}),
    "gem": frozenset({"build", "open"}),
    "facter": frozenset({"--custom-dir", "--external-dir"}),
    **dict.fromkeys(("cowsay", "cowthink"), frozenset({"-f"})),
    "ldconfig": frozenset({"-f", "-C"}),
}  # fmt: skip
"""Programs that are no language, and the options or verbs with which they run code of one's own (TeX's
shell escape, rpm's Lua macros, knife's Ruby, a gemspec, Drupal's PHP, Facter's Ruby facts, a cow file's
Perl, the library directories ldconfig gives every program)."""
_SCRIPT_RUNNERS = frozenset({"java", "byebug", "rdbg", "pdb", "pdb3", "pudb", "ipdb", "jdb"})
"""Programs that run the class, jar or script they are given (a debugger runs it too)."""


def _code_option(invocation: Invocation) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    if _PRINTS_ONLY & set(values):
        return None
    options = _CODE_OPTIONS.get(name)
    if options is not None:
        for value in values:
            if value in options or value.partition("=")[0] in options:
                if name in _RPMS and "lua:" not in " ".join(values):
                    return None  # rpm --eval '%{_arch}': a macro's value (%(...) runs a shell: carriers)
                return _verdict(
                    SUDO_INSTALL, invocation, f"runs code of one's own through {name} {value}, as root"
                )
    if name in _SCRIPT_RUNNERS:
        script = next((v for v in values if not v.startswith("-")), None)
        if script is not None or "-jar" in values:
            return _verdict(SUDO_INSTALL, invocation, f"runs {script or 'a jar'} with {name}, as root")
    return None


def _project(invocation: Invocation) -> Verdict | None:
    name = invocation.name
    if name not in _PROJECT_RUNNERS:
        return None
    values = _values(invocation)
    if _PRINTS_ONLY & set(values[:1]) or (values and values[-1] in ("--version", "--help")):
        return None
    return _verdict(SUDO_INSTALL, invocation, f"runs {name} as root: the project's scripts run as root")


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """What a program run as root is handed to run (None when it does not run as root)."""
    if not _as_root(invocation):
        return None
    return judge_as_root(invocation)


def strongest(verdicts: Iterable[Verdict | None]) -> Verdict | None:
    """The first finding of a category blocked by default among ``verdicts`` (read lazily, up to it),
    else the first finding: an ask met first (a ``PATH`` outside the system's, an account change) does
    not hide a block found after it."""
    first: Verdict | None = None
    for verdict in verdicts:
        if verdict is not None and DEFAULT_VERDICTS.get(verdict.category) == BLOCK:
            return verdict
        first = first or verdict
    return first


def judge_as_root(invocation: Invocation) -> Verdict | None:
    """What ``invocation``, known to run as root (``su -c CODE``'s commands), is handed to run."""
    checks = (_environment, _handed, _code, _code_option, _project)
    return strongest(check(invocation) for check in checks)


# -- files written in the command, handed to a root program ---------------------------------------

_SHELL_COPY = frozenset({"cp", "ln", "install", "rsync"})
_MAX_WRITTEN = 32
"""How many written files are followed (each root program's arguments are compared with each: linear)."""


def _written(invocation: Invocation) -> Iterator[tuple[str, str]]:
    """The files ``invocation`` writes and their text as far as known (``echo CODE > F``, ``cat > F
    <<EOF``, ``tee F``; ``cp /bin/sh DIR/``, ``ln -s /bin/sh F``: a shell)."""
    command = invocation.command
    name = invocation.name
    targets = [
        t
        for r in command.redirects
        if r.op in WRITE_OPERATORS and (t := command.static(r.target)) and t[:1] != "&"
    ]
    if targets:
        text = written_text(invocation) or ""
        for target in targets:
            yield target, text
    values = _values(invocation)
    if name == "tee":
        piped = written_text(invocation) or ""  # tee F <<EOF, echo CODE | tee F
        for value in values:
            if not value.startswith("-"):
                yield value, piped
    if name in _SHELL_COPY:
        operands = [v for v in values if not v.startswith("-")]
        if len(operands) >= 2 and any(program_name(o) in SHELLS for o in operands[:-1]):
            yield operands[-1], "exec /bin/sh"
    if name in ("mkdir", "touch"):
        for value in values:
            if not value.startswith("-"):
                yield value, ""


def _names(value: str, path: str) -> bool:
    """Whether a root program's argument ``value`` names the written ``path`` or a directory above it."""
    value = value.rstrip("/") or value
    if value in ("", "/"):
        return False
    path = posixpath.normpath(path)
    if value in (".", "./"):
        return "/" not in path or path.startswith("./")
    return posixpath.normpath(value) == path or path.startswith(posixpath.normpath(value) + "/")


def _values_of(invocation: Invocation) -> Iterator[str]:
    """The program's own word (``rsync -e FILE`` runs FILE), its arguments and root's variables."""
    if invocation.name in _NOT_RUN:
        yield from _searched(invocation)
        return
    words = invocation.command.words
    at = len(words) - len(invocation.args) - 1
    head = invocation.command.static(words[at]) if 0 <= at < len(words) else None
    if head and "/" in head:
        yield head
    for value in _values(invocation):
        yield from _split(value)
        if value.startswith("-") and len(value) > 2 and not value.startswith("--"):
            yield value[2:]
    for _key, value in _root_env(invocation):
        yield from value.split(":")


def _searched(invocation: Invocation) -> Iterator[str]:
    """The directories root's ``PATH`` puts before the system's: a program that only handles files
    (``apt``, ``cp``) still runs others by name (``dpkg``, ``apt-*``), found there."""
    for key, value in _root_env(invocation):
        if key == "PATH":
            yield from (d for d in value.split(":") if d not in _WHOLE_PATH and not _SYSTEM_DIRS.match(d))


def judge_script(script: Script, home: str) -> Verdict | None:
    """A file written earlier in the command, then handed to a program run as root."""
    return strongest(_handed_all(script))


_USER_CONFIG = lazy_compile(r"^(?:(?:~|\$\{?HOME\}?|/home/[^/]+|/Users/[^/]+)/|\./)?\.(?!\.?/)[^/]")
"""A file of the user's home or of the working directory whose name (or first directory) starts with a
dot: where programs look for their configuration and start-up files (``~/.rtorrent.rc``,
``~/.config/procps/toprc``, ``./.gdbinit``)."""
_SHELL_PROFILE = lazy_compile(
    r"/?\.(?:(?:ba|z|k|c|tc)?sh(?:rc|env)|(?:bash_|z)?(?:profile|login|logout)|bash_aliases)$"
)
"""Shell start-up files: the profile rule's (root's shell reads root's own, not the user's)."""


_READS_NO_CONFIG = _NOT_RUN | SHELLS
"""Root programs that read no configuration of the user's (file handlers; a root shell reads root's)."""


def _config_with_shell(invocation: Invocation) -> Iterator[str]:
    """The user configuration files ``invocation`` writes with a command or a shell in the text."""
    for path, text in _written(invocation):
        if _USER_CONFIG.match(path) and not _SHELL_PROFILE.search(path) and SHELL_SPAWN.search(text):
            yield path


def _handed_all(script: Script) -> Iterator[Verdict | None]:
    written: dict[str, list[str]] = {}
    configs: list[str] = []
    for stages in walk(script):
        for invocation in stages:
            if written and _as_root(invocation):
                yield _handed_written(invocation, written)
            if configs and _as_root(invocation) and invocation.name not in _READS_NO_CONFIG:
                # ~/.rtorrent.rc with `execute = /bin/sh…`, then sudo rtorrent: sudo keeps HOME (or -E
                # does): root reads the user's configuration, and runs what it names.
                why = f"writes {configs[0]} with a command in it, then runs {invocation.name} as root"
                yield _verdict(PRIVILEGE, invocation, f"{why}: a program run as root may read it")
            if len(configs) < _MAX_WRITTEN:
                configs.extend(_config_with_shell(invocation))
            for path, text in _written(invocation):
                key = posixpath.normpath(path)
                if key in written or len(written) < _MAX_WRITTEN:
                    written.setdefault(key, []).append(text)


def _handed_written(invocation: Invocation, written: dict[str, list[str]]) -> Verdict | None:
    return strongest(_each_handed(invocation, written))


def _each_handed(invocation: Invocation, written: dict[str, list[str]]) -> Iterator[Verdict]:
    for value in _values_of(invocation):
        texts = [text for path, texts in written.items() if _names(value, path) for text in texts]
        if texts:
            shown, program = shlex.quote(value), invocation.name
            if any(SHELL_SPAWN.search(t) for t in texts):
                why = f"hands {shown}, written with a shell in it, to {program} run as root"
                yield _verdict(PRIVILEGE, invocation, why)
            elif invocation.name not in _NOT_RUN:
                why = f"hands {shown}, written in this command, to {program} run as root"
                yield _verdict(SUDO_INSTALL, invocation, why)
