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

import base64
import binascii
import re
from collections.abc import Callable, Iterator

import attrs

from ..lazy_regex import lazy_compile
from .programs import Invocation

__all__ = ["INTERPRETERS", "CodeDanger", "fed_code", "inline_code", "judge_code"]

INTERPRETERS = lazy_compile(
    r"^(?:python[\d.]*|pypy[\d.]*|perl[\d.]*|ruby[\d.]*|node|nodejs|bun|deno|php[\d.]*|lua[\d.]*|luajit|"
    r"pwsh|powershell|tclsh[\d.]*|wish[\d.]*|expect|irb|R|Rscript|osascript|julia|jrunscript|jshell|groovy|"
    r"scala|kotlin|kotlinc|awk|gawk|nawk|mawk|busybox-awk|swift|crystal|elixir|erl|escript|guile|racket|"
    r"sbcl|clisp|ghc|runghc|dotnet-script|csi|rustc-script|zx)$"
)
"""Programs that run code."""
AWKS = frozenset({"awk", "gawk", "nawk", "mawk", "busybox-awk"})
_AWK_VALUES = "Ffv"
_CODE_FLAGS = frozenset({"-c", "-e", "-E", "-r", "--eval", "-Command", "--command", "-x", "--exec", "--run"})

_SOCKET = lazy_compile(
    r"socket|TCPSocket|fsockopen|Socket::INET|net\.Socket|net\.connect|/dev/tcp/|/inet/tcp/|/inet/udp/|"
    r"new Socket\(|connect\(\s*[\"']?\d|java\.net|s_client|ServerSocket|listen\(|require\([\"']net[\"']\)|"
    r"Net::|IO::Socket|socat|TCPServer|UDPSocket|\bconnect\([^)]{0,200}\d+\.\d+\.\d+\.\d+",
    re.IGNORECASE,
)
_PROCESS = lazy_compile(
    r"subprocess|pty\.spawn|dup2|exec|proc_open|popen|spawn|/bin/(?:ba|z|da)?sh\b|cmd\.exe|ProcessBuilder|"
    r"child_process|system\s*\(|IO\.popen|open3|\brun\s*\(|\|&?\s*\"(?:/bin/)?(?:ba)?sh",
    re.IGNORECASE,
)
_FORK_CODE = lazy_compile(
    r"fork\s*(?:while|until)\s*fork|while\s*\(?\s*(?:1|true|True)\s*\)?\s*[:{]?\s*(?:os\.)?fork\s*\(|"
    r"for\s*\(\s*;\s*;\s*\)\s*\{?\s*fork\s*\("
)
# os.system("..."), subprocess.run([...]), Runtime.exec("..."), run(`...`) (Julia), %x(...) (Ruby).
_SHELL_CALL = lazy_compile(
    r"(?:system|popen|exec[lv]?p?e?|run|call|check_call|check_output|Popen|spawn|execSync|spawnSync|"
    r"shell_exec|passthru|getRuntime\(\)\.exec|ProcessBuilder|shell|sh)\s*\(\s*"
    r"(?:[rbf]?(([\"'`])(.{0,4000}?)(?<!\\)\2)|\[([^\]]{0,4000})\]|\(([^)]{0,4000})\))"
)
_BACKTICKS = lazy_compile(r"`([^`]{1,4000})`")
_QX = lazy_compile(r"(?:\bqx|%x)\s*(?:\(([^)]{1,4000})\)|\{([^}]{1,4000})\}|\[([^\]]{1,4000})\])")
_DASH_C = lazy_compile(r"[\"']-c[\"']\s*,\s*([\"'])(.{1,4000}?)\1")
_BASE64_LITERAL = lazy_compile(
    r"(?:b64decode|decode64|atob|base64_decode|from_base64)\s*\(\s*b?[\"']([A-Za-z0-9+/=]{4,8000})[\"']"
)
_HOME_EXPRESSION = lazy_compile(
    r"os\.path\.expanduser\(\s*[\"']~[\"']\s*\)|Path\.home\(\)|os\.environ\[\s*[\"']HOME[\"']\s*\]|"
    r"os\.getenv\(\s*[\"']HOME[\"']\s*\)|\$ENV\{\s*[\"']?HOME[\"']?\s*\}|process\.env\.HOME|Dir\.home|"
    r"ENV\[\s*[\"']HOME[\"']\s*\]|os\.homedir\(\)"
)
_AWK_PIPE = lazy_compile(r"\|&?\s*\"([^\"]{1,4000})\"|\"([^\"]{1,4000})\"\s*\|&?\s*getline")
_RMTREE = lazy_compile(
    r"(?:rmtree|rmdir|rm_rf|rmSync|remove_dir_all|rm_r|deleteRecursively|rimraf)\s*\(\s*[rbf]?([\"'])(.{0,4000}?)\1"
)
_SYSTEM_PATH = lazy_compile(
    r"/etc/(?!ssl/|os-release|lsb-release)[^\"'\s]*"
    r"|/dev/(?:sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|disk/by-)[^\"'\s]*"
)
_WRITES = lazy_compile(
    r"[\"'](?:a|w|r\+|a\+|w\+|wb|ab|rb\+)[\"']|>>|\bwrite|append|O_WRONLY|O_RDWR|O_APPEND|writeFile|appendFile|"
    r"File\.open|print\s+[A-Z]+\s|open\s*\(\s*[A-Z]+\s*,\s*[\"']?>|\bputs\b|shutil\.copy|copyfile|truncate|"
    r"unlink|remove\(|>\s*[\"']?/|chmod|chown|rename|symlink|os\.replace",
    re.IGNORECASE,
)


@attrs.frozen
class CodeDanger:
    """What interpreter code does that a shell command rule would block: a category and why.

    ``command`` is the shell command the code runs, when the danger is a shell call.
    """

    category: str
    why: str
    command: str = ""


def inline_code(invocation: Invocation) -> str | None:
    """The code an interpreter is given on its command line, if any."""
    values = [v for v in (invocation.command.static(w) for w in invocation.args) if v is not None]
    if invocation.name in AWKS:
        return _awk_program(values)
    for index, value in enumerate(values):
        if index + 1 >= len(values):
            break
        if value in _CODE_FLAGS:
            return values[index + 1]
        if re.fullmatch(r"-[a-zA-Z]*[ce]", value) and value != "-m":
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
    code: str, *, awk: bool, is_critical: Callable[[str], str | None], judge_shell: Callable[[str], object]
) -> CodeDanger | None:
    """What ``code`` does that a command rule would block, or None.

    ``is_critical(path)`` describes a protected root (for recursive deletes);
    ``judge_shell(command)`` returns a verdict for a shell command the code runs.
    """
    from .verdict import BACKDOOR, DISK, FILESYSTEM, FORK_BOMB, SYSTEM_FILES

    if _FORK_CODE.search(code):
        return CodeDanger(FORK_BOMB, "forks processes without end")
    if _SOCKET.search(code) is not None and _PROCESS.search(code) is not None:
        return CodeDanger(BACKDOOR, "connects a shell to a network socket")
    if awk and ("/inet/tcp/" in code or "/inet/udp/" in code):
        return CodeDanger(BACKDOOR, "opens a network connection from awk (/inet/tcp)")
    code = _HOME_EXPRESSION.sub('"~"', code)  # shutil.rmtree(os.path.expanduser("~")) is rmtree("~")
    for match in _RMTREE.finditer(code):
        what = is_critical(match.group(2))
        if what and "working directory" not in what:
            return CodeDanger(FILESYSTEM, f"deletes {what}")
    for command in _shell_commands(code, awk=awk):
        verdict = judge_shell(command)
        if verdict is not None:
            return CodeDanger(getattr(verdict, "category", ""), getattr(verdict, "why", ""), command)
    target = _SYSTEM_PATH.search(code)
    if target is not None and _WRITES.search(code) is not None:
        category = DISK if target.group(0).startswith("/dev/") else SYSTEM_FILES
        return CodeDanger(category, f"writes {target.group(0)}")
    return None


def _shell_commands(code: str, *, awk: bool) -> Iterator[str]:
    for match in _SHELL_CALL.finditer(code):
        inner = (
            match.group(3)
            or match.group(5)
            or " ".join(re.findall(r"[\"']([^\"']*)[\"']", match.group(4) or ""))
        )
        if inner:
            yield inner
    for match in _BACKTICKS.finditer(code):
        yield match.group(1)  # Perl, Ruby, PHP, Julia: `command` runs it
    for match in _QX.finditer(code):
        yield match.group(1) or match.group(2) or match.group(3)  # Perl qx(...), Ruby %x(...)
    for match in _DASH_C.finditer(code):
        yield match.group(2)  # execvp('sh', ['sh', '-c', 'rm -rf /'])
    for match in _BASE64_LITERAL.finditer(code):
        try:
            decoded = base64.b64decode(match.group(1) + "==").decode("utf-8", "replace")
        except (binascii.Error, ValueError):
            continue
        yield decoded  # os.system(base64.b64decode('cm0gLXJmIH4=').decode())
    if awk:
        for match in _AWK_PIPE.finditer(code):
            yield match.group(1) or match.group(2)
