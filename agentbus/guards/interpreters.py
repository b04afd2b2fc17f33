"""Code given to an interpreter inline, judged for the dangers of a shell command.

``python -c``, ``perl -e``, ``node -e``, ``ruby -e``, ``php -r``, ``julia -e``,
``jrunscript -e``, an awk program (``BEGIN{system("...")}``), a here-string or
here-document fed to an interpreter, and text piped into one (``echo CODE |
tclsh``) are code. They are judged for what the command rules judge in a shell:
shell calls (``os.system("rm -rf /")``, ``run(`...`)``, awk's ``| "sh"``),
reverse and bind shells (a socket and a process in the same code, awk's
``/inet/tcp``), recursive deletes of protected roots (``shutil.rmtree``) and
writes to system files and devices (``open('/etc/passwd', 'a')``).

The patterns are searched in linear time: no pattern has two unbounded runs
that could backtrack into each other.
"""

from __future__ import annotations

import binascii
import itertools
import re
import shlex
from collections.abc import Callable, Iterator

from ..frozen import Frozen
from ..lazy_regex import lazy_compile
from .programs import SHELLS, Invocation

__all__ = [
    "INTERPRETERS",
    "SHELL_ESCAPE",
    "CodeDanger",
    "fed_code",
    "inline_code",
    "judge_code",
    "runs_scripts",
    "written_paths",
]

INTERPRETERS = lazy_compile(
    r"^(?:python[\d.]*|py|pypy[\d.]*|perl[\d.]*|ruby[\d.]*|node|nodejs|bun|deno|php[\d.]*|lua[\d.]*|luajit|"
    r"pwsh|powershell|tclsh[\d.]*|wish[\d.]*|expect|irb|R|Rscript|osascript|julia|jrunscript|jshell|groovy|"
    r"scala|kotlin|kotlinc|awk|gawk|nawk|mawk|busybox-awk|swift|crystal|elixir|erl|escript|guile|racket|"
    r"sbcl|clisp|ghc|runghc|dotnet-script|csi|rustc-script|zx|go|jjs|rhino|nashorn|emacs|gimp|puppet|rake|"
    r"rpm|bpftrace|octave|octave-cli|m4|gm4)$"
)
"""Programs that run code."""


def runs_scripts(name: str) -> bool:
    """Whether ``name`` is a shell's or an interpreter's: a program whose first operand is code to run
    (``bash x.sh``, ``python3 x.py``), not data."""
    return name in SHELLS or INTERPRETERS.match(name) is not None


AWKS = frozenset({"awk", "gawk", "nawk", "mawk", "busybox-awk"})
_AWK_VALUES = "Ffv"
_CODE_FLAGS = frozenset({"-c", "-e", "-E", "-r", "--eval", "-Command", "--command", "-x", "--exec", "--run"})

_SOCKET = lazy_compile(
    r"socket|TCPSocket|fsockopen|Socket::INET|net\.Socket|net\.connect|/dev/tcp/|/inet/tcp/|/inet/udp/|"
    r"TCPClient|Net\.Sockets|net\.Dial|ztcp|create_connection|\b(?:nc|ncat|netcat)\s+-?[\w.-]+\s+\d|"
    r"new Socket\(|connect\(\s*[\"']?\d|java\.net|s_client|ServerSocket|listen\(|require\([\"']net[\"']\)|"
    r"Net::|IO::Socket|socat|TCPServer|UDPSocket|\bconnect\([^)]{0,200}\d+\.\d+\.\d+\.\d+",
    re.IGNORECASE,
)
_PROCESS = lazy_compile(
    r"subprocess|pty\.spawn|dup2|exec|proc_open|popen|spawn|/bin/(?:ba|z|da)?sh\b|cmd\.exe|ProcessBuilder|"
    r"child_process|system\s*\(|IO\.popen|open3|\brun\s*\(|\|&?\s*\"(?:/bin/)?(?:ba)?sh|\bsystem\b|fdopen|"
    r"\biex\b|Invoke-Expression|Start-Process|exec\.Command|os\.execute|\.execute\(\)|\bpipe\s*\(|\be?syscmd\b",
    re.IGNORECASE,
)
_SHELL_BOUND = lazy_compile(
    r"dup2|pty\.spawn|fileno\(\)|[\"'](?:/bin/)?(?:ba|z|da|k)?sh[\"']|/bin/(?:ba|z|da|k)?sh\b|cmd\.exe|"
    r"\bsh\s+-i\b|proc_open|fdopen|Socket::INET[^;]{0,200}exec|TCPSocket[^;]{0,200}(?:exec|spawn|popen)"
)
"""In a file: what ties a process's input and output to a socket (a reverse shell), beyond "a process"."""
_FORK_CODE = lazy_compile(
    r"fork\s*(?:while|until)\s*fork|while\s*\(?\s*(?:1|true|True)\s*\)?\s*[:{]?\s*(?:os\.)?fork\s*\(|"
    r"for\s*\(\s*;\s*;\s*\)\s*\{?\s*fork\s*\("
)
# os.system("..."), subprocess.run([...]), Runtime.exec("..."), run(`...`) (Julia), %x(...) (Ruby).
_SHELL_CALL = lazy_compile(
    r"(?:system|popen|exec[lv]?p?e?|run|call|check_call|check_output|Popen|spawn|execSync|spawnSync|"
    r"shell_exec|passthru|getRuntime\(\)\.exec|ProcessBuilder|shell|sh|execute|Process|execFileSync|"
    r"execFile|Command|exec_command|getoutput|getstatusoutput|spawnSync|system2|shell\.exec)\s*\(\s*"
    r"(?:[rbf]?(([\"'`])(.{0,4000}?)(?<!\\)\2)|\[([^\]]{0,4000})\]|\(([^)]{0,4000})\))"
)
_BACKTICKS = lazy_compile(r"`([^`]{1,4000})`")
_STRING_RUN = lazy_compile(r"([\"'])([^\"'\n]{1,4000})\1\s*\.\s*(?:execute\s*\(|!!?|lines\b|run\b)")
"""Groovy ``"CMD".execute()``, Scala ``"CMD".!``: a string run as a command."""
_WORD_CALL = lazy_compile(
    r"(?:^|[;\[{\n]|\bthen\b|\bdo\b)\s*(?:exec|spawn|system|os\.execute)\s+(?!\()([^;\]\n}|&]{1,4000})"
)
"""Tcl and expect ``exec CMD``/``spawn CMD``, Perl and Ruby ``system "CMD"``: a command as words."""
_LANGUAGE_CALL = lazy_compile(
    r"\((?:shell-command|async-shell-command|call-process-shell-command|start-process-shell-command|"
    r"shell-command-to-string)\s+\"((?:[^\"\\]|\\.){1,4000})\"|\bexec\s*\{\s*([\"'])(.{1,4000}?)\2\s*:"
    r"|\\(?:immediate)?\\?write18\s*\{([^}]{1,4000})\}"
    r"|\be?syscmd\s*\(\s*`?([^()`']{1,4000})'?\s*\)"
)
"""Elisp ``(shell-command "CMD")``, Puppet ``exec { 'CMD': }``, TeX ``\\write18{CMD}``, m4
``esyscmd(CMD)``."""
_ARGV_CALL = lazy_compile(
    r"\b(?:system|exec[lv]?p?e?|spawn|spawnSync|execFileSync|execFile|Popen|run|call|check_call|check_output|"
    r"Command|ProcessBuilder|Process)\s*\(\s*\[?\s*((?:[rbf]?[\"'][^\"'\n]{0,400}[\"']\s*,\s*){1,40}[rbf]?[\"'][^\"'\n]{0,400}[\"'])"
)
"""``system("rm", "-rf", Dir.home)``, ``execl("/bin/sh", "sh", "-c", CMD)``: a command as arguments."""
_LITERAL = lazy_compile(r"\"((?:[^\"\\\n]|\\.){0,4000})\"|'((?:[^'\\\n]|\\.){0,4000})'")
"""A quoted string literal, escapes included (``"display dialog \\"Password\\""``)."""
_PROGRAM_ARGV = lazy_compile(
    r"\b(?:spawn|spawnSync|execFile|execFileSync|Popen|run|call|check_call|check_output|exec|"
    r"ProcessBuilder|Command)\s*\(\s*(\"(?:[^\"\\\n]|\\.){1,400}\"|'(?:[^'\\\n]|\\.){1,400}')\s*,\s*\[([^\]]{0,4000})\]"
)
"""Node's ``spawn("osascript", ["-e", CODE])``: a program and its arguments as a list."""
_RUN_URL = lazy_compile(
    r"\b(?:source|eval|exec|load|loadfile|dofile|require|import|include|include_once|require_once|iex|"
    r"instance_eval|load_file|runpy\.run_path)\b\s*\(?\s*(?:[\w.:]+\(\s*)?[\"']https?://",
    re.IGNORECASE,
)
"""``source("https://...")`` (R), ``eval get("https://...")`` (Perl): code run straight from a URL."""
SHELL_ESCAPE = lazy_compile(
    r"^\s*[\"']?(?:/(?:usr/)?bin/)?(?:ba|z|da|k|c|tc|fi)?sh(?:\s+-[ilp]+)*"
    r"(?:\s+[0-2]?[<>]&?\s*(?:[0-2]|/dev/tty))*[\"']?\s*$"
)
"""An interactive shell run from inside a program (``system("/bin/sh")``, ``esyscmd(sh 0<&2 1>&2)``, its
standard streams put back on the terminal): GTFOBins' shell escape."""
_RUN_FETCHED = lazy_compile(
    r"(?:\b(?:iex|Invoke-Expression|exec|eval|loadstring|load|instance_eval|Function)\b)"
    r"[^;\n]{0,300}?(?:DownloadString|DownloadData|Invoke-WebRequest|Invoke-RestMethod|\biwr\b|\birm\b|"
    r"urlopen|requests\.get|urllib|fetch\(|http\.get|Net::HTTP|open-uri|URI\.open|LWP|HTTP::Tiny|"
    r"file_get_contents\(\s*[\"']https?:)",
    re.IGNORECASE,
)
"""Code that runs what it downloads (``iex (New-Object Net.WebClient).DownloadString(URL)``)."""
_FETCHES = lazy_compile(
    r"[\"']https?://[^\"'\s]{1,400}[\"']|\b(?:urlopen|urlretrieve|requests|LWP|HTTP::Tiny|Net::HTTP|open-uri|"
    r"fetch\(|http\.get|https\.get|DownloadString|Invoke-WebRequest|file_get_contents)\b",
    re.IGNORECASE,
)
"""A one-liner that fetches something from the network (a URL literal or a fetching library)."""
_RUNS_VALUE = lazy_compile(
    r"\b(?:system|popen|exec|execSync|spawn|shell_exec|passthru|check_output|Popen|IO\.popen|os\.execute)\b"
    r"(?:\s*\(\s*|\s+)(?![\"'`\[(])[$@\w]"
)
"""A command run from a value, not a literal (``os.system(get(URL).text)``, Perl's ``system $c``)."""
_PROCESS_INJECTION = lazy_compile(
    r"\bptrace\s*\(|\bprocess_vm_writev\b|\bPTRACE_(?:ATTACH|SEIZE|POKE\w*|SETREGS)\b"
    r"|/proc/(?:\d+|[\"'{$+\s\w]{1,40})/mem\b",
)
"""A one-liner that attaches to another process or writes its memory (``ctypes.CDLL(None).ptrace(16, PID,
0, 0)``, ``process_vm_writev``, ``/proc/PID/mem``): code injected into a running program."""
_RUN_DECODED = lazy_compile(
    r"\b(?:exec|eval|iex|Invoke-Expression|loadstring|load|instance_eval|system(?!\.))\b[^;\n]{0,300}?"
    r"(?:b64decode|decode64|atob|base64_decode|FromBase64String|from_base64|unpack1?\(\s*[\"']m|"
    r"decode\(\s*[\"']base64|codecs\.decode|zlib\.decompress|bytes\.fromhex|unhexlify|rot13|rot_13)",
    re.IGNORECASE,
)
"""Code that runs what it decodes: the payload is hidden from any reader (``System.`` is .NET's namespace)."""
_QX = lazy_compile(r"(?:\bqx|%x)\s*(?:\(([^)]{1,4000})\)|\{([^}]{1,4000})\}|\[([^\]]{1,4000})\])")
_DASH_C = lazy_compile(r"[\"']-c[\"']\s*,\s*([\"'])(.{1,4000}?)\1")
_DO_SHELL_SCRIPT = lazy_compile(r"do\s+shell\s+script\s+\"((?:[^\"\\]|\\.){1,4000})\"", re.IGNORECASE)
"""AppleScript's ``do shell script "CMD"`` (osascript -e ...): CMD runs in sh."""
_BASE64_LITERAL = lazy_compile(
    r"(?:b64decode|decode64|atob|base64_decode|from_base64)\s*\(\s*b?[\"']([A-Za-z0-9+/=]{4,8000})[\"']"
)
_HOME_SOURCE = (
    r"os\.path\.expanduser\(\s*[\"']~[\"']\s*\)|(?:pathlib\.)?Path\.home\(\)|os\.environ\[\s*[\"']HOME[\"']\s*\]|"
    r"os\.(?:getenv|environ\.get)\(\s*[\"']HOME[\"']\s*\)|\$ENV\{+\s*[\"']?HOME[\"']?\s*\}+|process\.env\.HOME|"
    r"process\.env\[\s*[\"']HOME[\"']\s*\]|Dir\.home|ENV\[\s*[\"']HOME[\"']\s*\]|"
    r"(?:require\(\s*[\"'](?:node:)?os[\"']\s*\)|os)\.homedir\(\)|\bhomedir\(\)|"
    r"Deno\.env\.get\(\s*[\"']HOME[\"']\s*\)|Deno\.homeDir\(\)|\$env:(?:HOME|USERPROFILE)\b|\$HOME\b|"
    r"System\.getProperty\(\s*[\"']user\.home[\"']\s*\)|os\.UserHomeDir\(\)|Sys\.getenv\(\s*[\"']HOME[\"']\s*\)|"
    r"\bgetenv\(\s*[\"']HOME[\"']\s*\)|path\.expand\(\s*[\"']~[\"']\s*\)|File\.expand_path\(\s*[\"']~[\"']\s*\)"
)
_HOME_EXPRESSION = lazy_compile(_HOME_SOURCE)
_HOME_JOINED = lazy_compile(
    r"(?:" + _HOME_SOURCE + r")\s*(?:\+|/|,|\.\.?)\s*[rbf]?([\"'`])/?"
    r"|\$?\{\s*(?:" + _HOME_SOURCE + r")\s*\}/?"
)
"""A home expression joined to a literal: ``process.env.HOME + '/Library/...'``, ``Path.home() / '.ssh'``,
``os.path.join(os.environ['HOME'], 'Library/...')``, ``f"{Path.home()}/.aws"``."""
_KEYRING_READ = lazy_compile(
    r"\b(?:print|puts|pp|console\.log|sys\.stdout\.write|echo)\s*\(?[^\n;]{0,60}?"
    r"\b(?:get_password|get_credential|getPassword|findPassword|findCredentials|password_lookup_sync)\s*\("
    r"|\b(?:getPassword|findPassword|findCredentials)\s*\([^)\n]{0,200}\)\s*\.then\s*\(\s*"
    r"(?:console\.log|\(?\s*\w+\s*\)?\s*=>\s*console\.log)"
)
"""A stored password read from code through the OS keyring (Python's keyring, libsecret, Node's keytar)
and printed: what ``security find-generic-password -w`` prints. A program's own secret read and used
(``p = keyring.get_password('myapp', 'me')``) is not."""
_KEYRING_LOOKUP = lazy_compile(
    r"(?:password_lookup(?:_sync)?|\bkeyring\.get_password|SecKeychainFindGenericPassword|find-generic-password)"
    r"[^\n]{0,200}?(?:Safe Storage|\b(?:chrome|chromium|brave|vivaldi|yandex|opera)\b|microsoft[- ]edge)",
    re.IGNORECASE,
)
"""A keyring or keychain read from code (libsecret, Python's keyring, the macOS Security framework) of the
key a browser seals its cookies and passwords with (``Chrome Safe Storage``), named in the same call."""
_AWK_PIPE = lazy_compile(r"\|&?\s*\"([^\"]{1,4000})\"|\"([^\"]{1,4000})\"\s*\|&?\s*getline")
_RMTREE = lazy_compile(
    r"(?:rmtree|rm_rf|remove_dir_all|rm_r|deleteRecursively|rimraf|RemoveAll|remove_all|removeTree|"
    r"deleteDirectory|forceDelete|emptyDirSync|emptydir|remove_entry_secure|delete_recursively)"
    r"\s*\(\s*[rbf]?([\"'])(.{0,4000}?)\1"
)
"""Calls that delete a directory and everything in it."""
_DELETE = lazy_compile(
    r"(?:\brm|rmdir|rmSync|rmdirSync|unlink|remove|removeSync|remove_dir|delete|del)\s*\(\s*[rbf]?([\"'])(.{0,4000}?)\1"
)
"""Calls that delete a directory and everything in it when told to (``recursive=true``)."""
_RECURSIVE = lazy_compile(r"recursive|-Recurse\b|\bforce\s*[:=]", re.IGNORECASE)
_PS_REMOVE = lazy_compile(
    r"(?:Remove-Item|\bri|\brm|\bdel|\brd|\brmdir|\berase)\s+([^;|\n]{0,4000}?-Recurse[^;|\n]{0,4000})",
    re.IGNORECASE,
)
"""PowerShell's ``Remove-Item -Recurse PATH``."""
_WALKS = lazy_compile(
    r"(?:os\.walk|os\.scandir|os\.listdir|rglob|glob\.glob|Files\.walk|readdirSync|Dir\.glob|find|walkdir|"
    r"WalkDir::new|filepath\.Walk|Get-ChildItem)\s*\(?\s*[rbf]?([\"'])(.{1,4000}?)\1"
)
_REMOVES = lazy_compile(
    r"os\.remove|os\.unlink|unlink|\.unlink\(|rmSync|File\.delete|Remove-Item|shred", re.IGNORECASE
)
_ENCRYPTS = lazy_compile(
    r"\.encrypt\s*\(|encrypt_and_digest\s*\(|createCipheriv\s*\(|openssl_encrypt\s*\(|\bsodium_crypto_secretbox\s*\("
)
"""A cipher applied to data (``Fernet(k).encrypt(d)``, ``AES.new(k, m).encrypt(d)``, Node's
``createCipheriv``, PHP's ``openssl_encrypt``)."""
_TREE_METHOD = lazy_compile(r"[rbf]?([\"'])([^\"'\n]{1,4000}?)\1\s*\)?\s*\.(?:rglob|glob|walk|iterdir)\s*\(")
"""A path's own walk: ``Path('/srv').rglob('*')``, ``Path.home().rglob('*')`` (the home read as ``"~"``)."""
_REWRITES = lazy_compile(
    r"[\"'](?:wb|w|r\+b|rb\+|w\+b|wb\+)[\"']|\bos\.(?:remove|unlink|rename|replace)\s*\(|\.unlink\s*\(|"
    r"write_bytes\s*\(|writeFileSync\s*\(|file_put_contents\s*\(|shred",
)
"""A file written over, or its original removed, in the code."""
_REWRITTEN = lazy_compile(r"\bopen\s*\(\s*([^,()\n]{1,200}?)\s*,\s*[\"'](?:w|wb|w\+|r\+|r\+b|rb\+)[\"']")
"""A file opened to be written over: ``open(p, 'w')``, ``open('/var/log/auth.log', 'r+')``."""
_LOG_LITERAL = lazy_compile(r"^[rbf]?[\"'](/var/log/[^\"'\s]+)[\"']$")
_SYSTEM_PATH = lazy_compile(
    r"/etc/(?!ssl/|os-release|lsb-release)[^\"'\s]*"
    r"|/dev/(?:sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|disk/by-)[^\"'\s]*"
)
_CHANGES_INSTALLED = lazy_compile(
    r"\b(?:chmod|lchmod|chown|lchown|chflags|remove|unlink|rmtree|rmdir|rename|renames|replace|truncate|"
    r"utime|setxattr|removexattr|rm_rf|rm_r|rm_f|rm|chmod_R|chown_R|unlinkSync|rmSync|chmodSync|"
    r"chownSync|renameSync|truncateSync|utimesSync)\s*\(\s*[rb]?([\"'])"
    r"(/(?:usr/(?:local/)?)?(?:s?bin|lib(?:exec|32|64)?)(?:/[^\"'\s]*)?|/boot(?:/[^\"'\s]*)?"
    r"|/var/log(?:/[^\"'\s]*)?)\1"
)
"""A file call whose first argument is an installed program, library, the boot loader or the system
logs, changed in place (``os.chmod('/usr/bin/chmod', …)``, ``shutil.rmtree('/var/log')``,
``fs.unlinkSync('/usr/bin/ps')``): the chmod / rm of those paths, written in the interpreter."""
_INSTALLED_WHAT = "a system program, library or log"

_WRITES = lazy_compile(
    r"[\"'](?:a|w|r\+|a\+|w\+|wb|ab|rb\+)[\"']|>>|\bwrite|append|O_WRONLY|O_RDWR|O_APPEND|writeFile|appendFile|"
    r"File\.open|print\s+[A-Z]+\s|open\s*\(\s*[A-Z]+\s*,\s*[\"']?>|\bputs\b|shutil\.copy|copyfile|truncate|"
    r"unlink|remove\(|>\s*[\"']?/|chmod|chown|rename|symlink|os\.replace|Add-Content|Set-Content|Out-File|"
    r"Tee-Object|Copy-Item|Move-Item|New-Item|writefile|\.output|\bw\+?\b",
    re.IGNORECASE,
)


class CodeDanger(Frozen):
    """What interpreter code does that a shell command rule would block: a category and why.

    ``command`` is the shell command the code runs, when the danger is a shell call.
    """

    __slots__ = ("category", "command", "why")

    category: str
    why: str
    command: str

    def __init__(self, category: str, why: str, command: str = "") -> None:
        set_field = object.__setattr__
        set_field(self, "category", category)
        set_field(self, "why", why)
        set_field(self, "command", command)


_PROGRAM_CODE_FLAGS = {
    "emacs": frozenset({"--eval", "-eval"}), "gimp": frozenset({"-b", "--batch"}),
    "puppet": frozenset({"-e", "--execute"}), "rake": frozenset({"-e", "-p", "--execute", "--execute-print"}),
    "rpm": frozenset({"--eval", "-E"}), "bpftrace": frozenset({"-e"}),
}  # fmt: skip
"""Programs that are not languages first, and the options that give them code (Elisp, Script-Fu ...)."""


_SCRIPT_EXTRACT = lazy_compile(r"^(?:perl|python|ruby)[\d.]*$")
"""Interpreters whose ``-x`` names no code: it skips the script's leading lines (Perl's and Ruby's until a
``#!`` line naming them)."""


def inline_code(invocation: Invocation) -> str | None:
    """The code an interpreter is given on its command line, if any."""
    values = [v for v in (invocation.command.static(w) for w in invocation.args) if v is not None]
    if invocation.name in AWKS:
        return _awk_program(values)
    flags = _PROGRAM_CODE_FLAGS.get(invocation.name)
    if flags is not None:
        found = [values[i + 1] for i, v in enumerate(values[:-1]) if v in flags]
        found += [v.partition("=")[2] for v in values if v.partition("=")[0] in flags and "=" in v]
        return "\n".join(found) or None
    for index, value in enumerate(values):
        if value in ("eval", "repl") and index == 0 and invocation.name in ("deno", "bun"):
            return values[1] if len(values) > 1 else None  # deno eval CODE
        if not value.startswith("-") and (index == 0 or not values[index - 1].startswith("-")):
            break  # the script file (python3 dirsearch.py -u URL -e php): what follows are its own arguments
        if re.fullmatch(r"-[ce].+", value) and invocation.name not in ("pwsh", "powershell"):
            return value[2:]  # ruby -e'CODE', perl -e'CODE': the code attached to the flag
        if index + 1 >= len(values):
            break
        if value == "-x" and _SCRIPT_EXTRACT.match(invocation.name):
            continue  # perl -x FILE, python -x FILE: the script is FILE (its leading lines skipped)
        if value in _CODE_FLAGS or value.lower() in ("-command", "-c", "-encodedcommand"):
            return values[index + 1]
        if re.fullmatch(r"-[a-zA-Z]{0,2}[ce]", value) and value != "-m":
            return values[index + 1]
    return None


def _awk_program(values: list[str]) -> str | None:
    """awk's program: the first operand, unless ``-f FILE`` gives it."""
    i = 0
    while i < len(values):
        value = values[i]
        if value == "--":
            return values[i + 1] if i + 1 < len(values) else None
        if value.startswith("-") and len(value) > 1:
            if value[1] == "f" or value.startswith("--file"):
                return None
            if value[1] in _AWK_VALUES and len(value) == 2:
                i += 2
                continue
            i += 1
            continue
        return value
    return None


def fed_code(invocation: Invocation) -> Iterator[str]:
    """Code an interpreter reads from a here-string or a here-document."""
    command = invocation.command
    for redirect in command.redirects:
        if redirect.op == "<<<":
            text = command.static(redirect.target)
            if text:
                yield text
        elif redirect.op == "<<":
            for sub in command.substitutions_in(redirect.target):
                if sub.kind == "<<":
                    yield sub.text


def judge_code(
    code: str,
    *,
    awk: bool,
    is_critical: Callable[[str], str | None],
    judge_shell: Callable[[str], object],
    whole_file: bool = False,
    is_data: Callable[[str], str | None] | None = None,
) -> CodeDanger | None:
    """What ``code`` does that a command rule would block, or None.

    ``is_critical(path)`` describes a protected root (for recursive deletes);
    ``judge_shell(command)`` returns a verdict for a shell command the code runs.
    ``whole_file``: the code is part of a program's file (:mod:`.script_files`), not a
    one-liner: a socket counts as a reverse shell only beside a shell bound to it
    (``dup2``, ``pty.spawn``, ``/bin/sh``), and starting an interactive shell is no finding.
    ``is_data(path)`` describes a folder of the user's or a server's data (for a walk that encrypts).
    """
    danger = _judge_once(
        code,
        awk=awk,
        is_critical=is_critical,
        judge_shell=judge_shell,
        whole_file=whole_file,
        is_data=is_data,
    )
    if danger is None and ("\\" in code):
        # exec("import os\\nos.system(\\"rm -rf ~\\")"): the code inside a string, unescaped once.
        unescaped = code.replace('\\"', '"').replace("\\'", "'").replace("\\n", "\n").replace("\\t", "\t")
        danger = _judge_once(
            unescaped,
            awk=awk,
            is_critical=is_critical,
            judge_shell=judge_shell,
            whole_file=whole_file,
            is_data=is_data,
        )
    return danger


def _judge_once(
    code: str,
    *,
    awk: bool,
    is_critical: Callable[[str], str | None],
    judge_shell: Callable[[str], object],
    whole_file: bool = False,
    is_data: Callable[[str], str | None] | None = None,
) -> CodeDanger | None:
    from .verdict import (
        BACKDOOR,
        CREDENTIALS,
        DATA_DESTRUCTION,
        DISK,
        EVIDENCE,
        FILESYSTEM,
        FORK_BOMB,
        OBFUSCATED,
        PRIVILEGE,
        REMOTE_CODE,
        SYSTEM_FILES,
    )

    if _FORK_CODE.search(code):
        return CodeDanger(FORK_BOMB, "forks processes without end")
    process = _SHELL_BOUND if whole_file else _PROCESS
    if _SOCKET.search(code) is not None and process.search(code) is not None:
        return CodeDanger(BACKDOOR, "connects a shell to a network socket")
    if _KEYRING_LOOKUP.search(code):
        return CodeDanger(CREDENTIALS, "reads a browser's cookie and password key from the keyring")
    if not whole_file and _KEYRING_READ.search(code):
        # python -c "import keyring; print(keyring.get_password(S, U))": security find-generic-password -w
        return CodeDanger(CREDENTIALS, "prints a stored password from the keyring or keychain")
    if awk and ("/inet/tcp/" in code or "/inet/udp/" in code):
        return CodeDanger(BACKDOOR, "opens a network connection from awk (/inet/tcp)")
    if _RUN_FETCHED.search(code) or _RUN_URL.search(code):
        return CodeDanger(REMOTE_CODE, "runs code it downloads")
    if not whole_file and _FETCHES.search(code) and _RUNS_VALUE.search(code):
        # python -c "os.system(get(URL).text)", perl -e '...$c=$res->content();system $c': the command run
        # is what the network sent (a one-liner that fetches and runs a literal command is judged below).
        return CodeDanger(REMOTE_CODE, "runs as a command what it fetches from the network")
    if not whole_file and _PROCESS_INJECTION.search(code):
        why = "attaches to another process (ptrace) or writes its memory: code injection"
        return CodeDanger(PRIVILEGE, why)
    if _RUN_DECODED.search(code):
        return CodeDanger(OBFUSCATED, "runs code it decodes")
    code = _HOME_EXPRESSION.sub('"~"', code)  # shutil.rmtree(os.path.expanduser("~")) is rmtree("~")
    recursive = _RECURSIVE.search(code) is not None
    deletes = [m.group(2) for m in _RMTREE.finditer(code)]
    if recursive:
        deletes += [m.group(2) for m in _DELETE.finditer(code)]
    for match in _PS_REMOVE.finditer(code):
        deletes += [w.strip("\"'") for w in match.group(1).split() if not w.startswith("-")]
    if _REMOVES.search(code):
        deletes += [m.group(2) for m in _WALKS.finditer(code)]  # os.walk("/home") ... os.remove(...)
    for path in deletes:
        what = is_critical(path)
        if what and "working directory" not in what:
            return CodeDanger(FILESYSTEM, f"deletes {what}")
    if _ENCRYPTS.search(code) and _REWRITES.search(code):
        # os.walk('/home') ... open(p, 'wb').write(Fernet(k).encrypt(...)): ransomware's loop in a one-liner
        for match in itertools.chain(_WALKS.finditer(code), _TREE_METHOD.finditer(code)):
            root = _above_wildcards(match.group(2))
            what = is_critical(root) or (is_data(root) if is_data else None)
            if what and "working directory" not in what:
                return CodeDanger(DATA_DESTRUCTION, f"encrypts every file under {what}")
    for command in _shell_commands(code, awk=awk):
        if SHELL_ESCAPE.match(command) and not whole_file:
            return CodeDanger(
                PRIVILEGE, f"spawns a shell ({command.strip()}) from inside the program", command
            )
        verdict = judge_shell(command)
        if verdict is not None:
            return CodeDanger(getattr(verdict, "category", ""), getattr(verdict, "why", ""), command)
    rewritten = _rewritten_log(code)
    if rewritten:
        return CodeDanger(EVIDENCE, f"writes the system log {rewritten} over (its lines filtered or forged)")
    installed = _CHANGES_INSTALLED.search(code)
    if installed is not None:
        return CodeDanger(SYSTEM_FILES, f"changes {installed.group(2)}, {_INSTALLED_WHAT}")
    target = _system_write(code) if whole_file else _SYSTEM_PATH.search(code)
    if target is not None and (whole_file or _WRITES.search(code) is not None):
        category = DISK if target.group(0).startswith("/dev/") else SYSTEM_FILES
        return CodeDanger(category, f"writes {target.group(0)}")
    if not whole_file:
        return _built_command(code, awk=awk, judge_shell=judge_shell)
    return None


def _rewritten_log(code: str) -> str | None:
    """A system log opened to be written over, by its literal or by a name given it (``p='/var/log/
    auth.log'; d=open(p).read(); open(p,'w').write(filtered)``): the log's lines rewritten."""
    for match in itertools.islice(_REWRITTEN.finditer(code), 8):
        target = match.group(1).strip()
        literal = _LOG_LITERAL.match(target)
        if literal:
            return literal.group(1)
        if target.isidentifier():
            given = re.search(rf"\b{re.escape(target)}\s*=\s*[rbf]?([\"'])(/var/log/[^\"'\s]+)\1", code)
            if given:
                return given.group(2)
    return None


def _above_wildcards(root: str) -> str:
    """``/home/*/**``: where a walk given wildcard parts starts (``/home``)."""
    parts = root.rstrip("/").split("/")
    while len(parts) > 1 and any(c in parts[-1] for c in "*?["):
        parts.pop()
    return "/".join(parts) or "/"


def _built_command(code: str, *, awk: bool, judge_shell: Callable[[str], object]) -> CodeDanger | None:
    """A one-liner that runs a command it builds: string pieces joined (``os.system('r'+'m -rf ~')``,
    awk's ``"r" "m -rf ~"``, Perl's ``"r"."m"``, ``''.join([...])``), judged as the joined command; or
    a value (``system($c)``, ``system(pack("H*", …))``), which no reader can see: asked."""
    from .verdict import UNJUDGED_SCRIPT

    if not _RUNNER.search(code):
        return None
    folded = _folded(code)
    if folded != code:
        for command in _shell_commands(folded, awk=awk):
            verdict = judge_shell(command)
            if verdict is not None:
                return CodeDanger(getattr(verdict, "category", ""), getattr(verdict, "why", ""), command)
    if _RUNS_COMMAND_VALUE.search(folded) or _RUNS_BUILT.search(folded):
        return CodeDanger(UNJUDGED_SCRIPT, "runs a command it builds at run time, which no reader can see")
    return None


_RUNNER = lazy_compile(
    r"\b(?:system|popen|exec\w*|spawn\w*|shell_exec|passthru|check_output|Popen|run|call)\b"
)
_PIECES = lazy_compile(
    r"([\"'])([^\"'\\\n]{0,4000})\1\s{0,9}(?:\+|\.(?=\s{0,9}[\"'])|(?=\s[\"']))\s{0,9}([\"'])([^\"'\\\n]{0,4000})\3"
)
"""Two string literals joined: ``'r'+'m'``, Perl's ``"r"."m"``, awk's ``"r" "m"``."""
_JOINED_LIST = lazy_compile(r"([\"'])\1\.join\(\s{0,9}\[([^\]]{0,4000})\]\s{0,9}\)")
"""``''.join(['cu', 'rl …'])``: the literals of the list, joined."""
_FOLDS = 16
"""How many joins are folded (a bound: each fold scans the code once)."""
_RUNS_COMMAND_VALUE = lazy_compile(
    r"\b(?:system|popen|execSync|spawn|shell_exec|passthru|check_output|Popen|IO\.popen|os\.execute)\b"
    r"(?:\s*\(\s*(?![\"'`\[(])[$@\w]|\s+[$@])|\bexec\s*\(?\s*\$"
)
"""A shell command run from a value (``system($c)``, Perl's ``exec $c``); not Python's
``exec(open(f).read())``, which runs the project's Python file."""
_RUNS_BUILT = lazy_compile(
    r"\b(?:system|popen|exec|execSync|spawn|shell_exec|passthru|check_output|Popen|run|call)\s*\(\s*"
    r"[rbf]?([\"'])[^\"'\s]{0,200}\1\s*(?:\+|%|\.\s*[\"'$]|\.(?:join|format|replace|decode)\b|\s[\"'])"
)
"""A command whose first piece is a string cut short and joined to more (``system("r" . $m)``)."""


def _folded(code: str) -> str:
    """``code`` with joined string literals made one literal (:data:`_PIECES`, :data:`_JOINED_LIST`)."""

    def joined_list(match: re.Match[str]) -> str:
        quote = match.group(1)
        return quote + "".join(_literals(match.group(2))) + quote

    code = _JOINED_LIST.sub(joined_list, code)
    for _ in range(_FOLDS):
        folded = _PIECES.sub(lambda m: m.group(1) + m.group(2) + m.group(4) + m.group(1), code, count=1)
        if folded == code:
            break
        code = folded
    return code


_FILE_WRITES = lazy_compile(
    r"[\"'](?:a|w|r\+|a\+|w\+|wb|ab|rb\+)[\"']|\.write\(|\bwrite(?:File|_text|_bytes)?\s*\(|appendFile|"
    r"O_WRONLY|O_RDWR|O_APPEND|open\s*\(\s*[A-Za-z_$]\w*\s*,\s*[\"']\+?>|[\"']\+?>>?\s*/|\bputs\b|"
    r"shutil\.(?:copy|move)|copyfile|truncate\s*\(|unlink\s*\(|remove\s*\(|chmod\s*\(|chown\s*\(|"
    r"rename\s*\(|symlink\s*\(|os\.replace|Add-Content|Set-Content|Out-File|Copy-Item|Move-Item|New-Item"
)
"""In a file: a write on the line of a system path (the one-liner's list names words of prose too)."""


def _system_write(code: str) -> re.Match[str] | None:
    """In a file: a system path written on its own line (not a comment), not anywhere near a write."""
    for match in _SYSTEM_PATH.finditer(code):
        start = code.rfind("\n", 0, match.start()) + 1
        end = code.find("\n", match.end())
        line = code[start : end if end >= 0 else len(code)]
        if not line.lstrip().startswith(("#", "//", "*", "--")) and _FILE_WRITES.search(line):
            return match
    return None


def _literals(text: str) -> list[str]:
    """The string literals in ``text``, their escapes undone."""
    return [re.sub(r"\\(.)", r"\1", m.group(1) if m.group(1) is not None else m.group(2))
            for m in _LITERAL.finditer(text)]  # fmt: skip


def _shell_commands(code: str, *, awk: bool) -> Iterator[str]:
    for match in _SHELL_CALL.finditer(code):
        inner = (
            match.group(3)
            or match.group(5)
            or " ".join(re.findall(r"[\"']([^\"']*)[\"']", match.group(4) or ""))
        )
        if inner:
            yield inner
        argv = _literals(match.group(4) or "")
        if len(argv) > 1:
            # subprocess.run(["osascript", "-e", "display dialog \"…\""]): one word each
            yield shlex.join(argv)
    for match in _PROGRAM_ARGV.finditer(code):
        yield shlex.join(_literals(match.group(1)) + _literals(match.group(2)))
    for match in _BACKTICKS.finditer(code):
        yield match.group(1)  # Perl, Ruby, PHP, Julia: `command` runs it
    for match in _QX.finditer(code):
        yield match.group(1) or match.group(2) or match.group(3)  # Perl qx(...), Ruby %x(...)
    for match in _LANGUAGE_CALL.finditer(code):
        found = match.group(1) or match.group(3) or match.group(4) or match.group(5)
        yield found.replace('\\"', '"')
    for match in _STRING_RUN.finditer(code):
        yield match.group(2)  # "rm -rf /".execute()
    for match in _WORD_CALL.finditer(code):
        words = match.group(1).strip()
        literal = re.fullmatch(r"([\"'])((?:(?!\1)[^\\]|\\.)*)\1", words)
        if literal is not None:
            words = re.sub(r"\\(.)", r"\1", literal.group(2))  # Perl exec "/bin/sh -c \"CMD\""
        yield words  # exec rm -rf / (Tcl), spawn sh -c "..." (expect)
    for match in _ARGV_CALL.finditer(code):
        items = re.findall(r"[\"']([^\"']*)[\"']", match.group(1))
        if len(items) > 1:
            yield shlex.join(
                items[1:]
                if items[0].endswith(("sh", "/sh")) and items[1:2] == [items[0].rsplit("/", 1)[-1]]
                else items
            )
    for match in _DASH_C.finditer(code):
        yield match.group(2)  # execvp('sh', ['sh', '-c', 'rm -rf /'])
    for match in _DO_SHELL_SCRIPT.finditer(code):
        yield match.group(1).replace('\\"', '"')  # osascript -e 'do shell script "rm …" with administrator …'
    for match in _BASE64_LITERAL.finditer(code):
        import base64  # here, not at import: it loads struct, a cost to every hook process

        try:
            decoded = base64.b64decode(match.group(1) + "==").decode("utf-8", "replace")
        except (binascii.Error, ValueError):
            continue
        yield decoded  # os.system(base64.b64decode('cm0gLXJmIH4=').decode())
    if awk:
        for match in _AWK_PIPE.finditer(code):
            yield match.group(1) or match.group(2)


_PATH_ARG = r"(?:[\w.]{1,40}\(\s*)?[rbf]?([\"'])([^\"'\n]{1,400})\{q}\s*\)?"
"""A string literal argument, perhaps wrapped in one call (``os.path.expanduser("~/x")``, ``Path("x")``)."""
_WRITE_CALLS = lazy_compile(
    # open(PATH, "w"|"a"|"x"|"r+"...) in Python, Ruby, PHP (fopen), Lua (io.open)
    r"\b(?:open|fopen|io\.open|File\.open|codecs\.open)\s*\(\s*"
    + _PATH_ARG.replace("{q}", "1")
    + r"\s*,\s*(?:mode\s*=\s*)?[rbf]?[\"'][rbtU]*[wax+]"
    # writeFileSync(PATH, …), File.write(PATH, …), file_put_contents(PATH, …), Files.writeString(PATH …)
    r"|\b(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|File\.write|IO\.write|"
    r"File\.binwrite|file_put_contents|Files\.write(?:String)?|Deno\.writeTextFile(?:Sync)?|Bun\.write)\s*\(\s*"
    + _PATH_ARG.replace("{q}", "3")
    # Path(PATH).write_text(…), Path(PATH).open("w")
    + r"|\bPath\s*\(\s*[rbf]?([\"'])([^\"'\n]{1,400})\5\s*\)\s*\.\s*(?:write_text|write_bytes|"
    r"open\s*\(\s*[\"'][rbt]*[wax+]|symlink_to|touch)"
    # copy, move or link onto PATH: shutil.copy(a, PATH), fs.copyFileSync(a, PATH), os.symlink(a, PATH)
    r"|\b(?:shutil\.(?:copy\w*|move)|copyFileSync|copyFile|cpSync|renameSync|symlinkSync|os\.(?:rename|"
    r"replace|symlink|link)|FileUtils\.(?:cp|mv|ln_s|ln|copy|move|install)|copy|rename|symlink)\s*\("
    r"[^,()\n]{1,300}(?:\([^()\n]{0,200}\))?[^,()\n]{0,100},\s*"
    + _PATH_ARG.replace("{q}", "7")
    # Perl: open(my $f, '>>', PATH), open(F, ">PATH")
    + r"|\bopen\s*\(?\s*(?:my\s+)?[\$\w]+\s*,\s*(?:[\"']>>?[\"']\s*,\s*"
    + _PATH_ARG.replace("{q}", "9")
    + r"|([\"'])>>?\s*([^\"'\n]{1,400})\11)"
)
"""A call that writes, appends to, copies onto or links the file a string literal names."""


_HOME_INTERPOLATED = lazy_compile(
    r"^(?:\$ENV\{\s*[\"']?HOME[\"']?\s*\}|\$\{?HOME\}?|#\{Dir\.home\}|\$\{os\.homedir\(\)\})"
)
"""A home interpolated at the start of a string (Perl's ``">>$ENV{HOME}/.zshrc"``, ``"${HOME}/x"``)."""


def written_paths(code: str) -> list[str]:
    """The files ``code`` opens for writing, copies or links onto, named by literals (a home
    expression joined to a literal read as ``~/``): ``open(os.path.expanduser("~/.zshrc"), "a")``,
    ``fs.writeFileSync(process.env.HOME + '/Library/LaunchAgents/x.plist', …)``, ``shutil.copy(a,
    '/Library/LaunchDaemons/x.plist')``."""
    if not code:
        return []
    code = home_joined(code)
    found = []
    for match in _WRITE_CALLS.finditer(code):
        groups = match.groups()
        path = next((groups[i] for i in (1, 3, 5, 7, 9, 11) if groups[i]), None)
        if path:
            found.append(_HOME_INTERPOLATED.sub("~", path))
    return found


def home_joined(code: str) -> str:
    """``code`` with each home expression joined to a string literal written as ``~/``: the literal
    ``HOME + '/Library/Keychains/login.keychain-db'`` names is ``'~/Library/Keychains/login.keychain-db'``."""
    lowered = code.lower()
    if "home" not in lowered and "expand" not in lowered and "userprofile" not in lowered:  # each names one
        return code
    return _HOME_JOINED.sub(lambda m: f"{m.group(1)}~/" if m.group(1) else "~/", code)
