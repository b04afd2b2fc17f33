"""Which files hold secrets: the sensitive-path classifier of seed 000.

One classifier serves every guard that sees a path: the file tools
(``builtin:security-audit``), file arguments of shell commands
(``builtin:shell-file-guard``) and the paths and globs of search tools
(``builtin:search-path-guard``). Paths are normalised first, so that
``~/x/../.ssh//id_rsa``, ``$HOME/.ssh/id_rsa`` and ``/home/me/.ssh/./id_rsa``
are one file.

The seed's allow-list (``node_modules/``, ``.test.``, ``/test/``,
``/fixtures/``, ``package-lock.json``) exempts test data and vendored files;
it never unlocks the real credential stores: a dot-directory directly in the
home directory (``~/.ssh``, ``~/.aws`` ...) or ``/etc``.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable

from ..lazy_regex import lazy_compile
from .verdict import Verdict

__all__ = ["check_glob", "check_path", "display_path", "glob_matcher", "normalize_path"]

_HOME_VARIABLE = lazy_compile(r"^(?:\$HOME|\$\{HOME(?::?[-=?+][^}]*)?\})(?=/|$)")
_TILDE_USER = lazy_compile(r"^~([A-Za-z0-9_.][A-Za-z0-9_.-]*)(?=/|$)")
_GLOB_CHARS = frozenset("*?[")
_WINDOWS_DRIVE = lazy_compile(r"^[A-Za-z]:[\\/]")
_WINDOWS_DEVICE = lazy_compile(r"^(?:\\\\|//)[?.](?:\\|/)(?:UNC(?:\\|/))?")
_PROC_ROOT = lazy_compile(r"^/proc/[^/]+/root(?=/|$)")


def _rule(pattern: str, label: str) -> tuple[re.Pattern[str], str]:
    # Case-insensitive: macOS and Windows homes are (~/.SSH/ID_RSA is the key), and
    # on Linux an upper-case twin of a secret's name is rare enough to be suspect.
    return lazy_compile(pattern, re.IGNORECASE), label


# Checked in order, most specific first; matched against "/" + the normalised path.
_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    _rule(r"/id_(?:rsa|dsa|ecdsa|ed25519|ecdsa_sk|ed25519_sk)$", "SSH private key"),
    _rule(r"/\.ssh$", "SSH directory, where private keys live"),
    _rule(
        r"/\.ssh/(?!known_hosts(?:\.old)?$|config$|authorized_keys2?$)[^/]+(?<!\.pub)$",
        "file in the SSH directory, where private keys live",
    ),
    _rule(r"/\.aws(?:/|$)", "AWS credentials"),
    _rule(r"/\.boto$", "Boto cloud credentials"),
    _rule(r"/gogcli/credentials\.json$", "Google CLI OAuth credentials"),
    _rule(r"/\.config/gcloud(?:/|$)", "Google Cloud credentials"),
    _rule(r"/\.azure(?:/|$)", "Azure credentials"),
    _rule(r"/(?:kubeconfig[^/]*|\.kube/config)$", "Kubernetes credentials"),
    _rule(r"/\.docker/config\.json$", "Docker registry credentials"),
    _rule(r"/[^/]*service[-_]account[^/]*\.json$", "cloud service-account key"),
    _rule(r"/\.claude/\.credentials\.json$|/\.claude/credentials(?:/|$)", "Claude Code credentials"),
    _rule(r"/\.(?:openclaw|clawdbot)/credentials(?:/|$)|/auth-profiles\.json$", "OpenClaw credentials"),
    _rule(r"/\.codex/auth\.json$", "OpenAI Codex credentials"),
    _rule(
        r"/github-copilot\.token\.json$|/\.config/github-copilot/(?:hosts|apps)\.json$",
        "GitHub Copilot token",
    ),
    _rule(r"/\.(?:qwen|minimax)/oauth_creds\.json$", "Qwen/MiniMax OAuth credentials"),
    _rule(r"/whatsapp/default/creds\.json$", "WhatsApp session credentials"),
    _rule(r"/credentials\.json$", "cloud credentials"),
    _rule(r"/\.gnupg(?:/|$)", "GnuPG keyring"),
    _rule(r"/\.password-store(?:/|$)", "password store"),
    _rule(
        r"^/etc/(?:passwd|shadow|gshadow|group|sudoers|master\.passwd|security/opasswd)(?:[-~]|\.(?:bak|old|orig|tmp|lock))?$"
        r"|^/etc/sudoers\.d(?:/|$)|^/var/db/sudo(?:/|$)",
        "system auth file",
    ),
    _rule(r"/\.(?:netrc|git-credentials|pypirc)$|/_netrc$", "stored credentials"),
    _rule(
        r"/\.env(?:\.(?!(?:example|sample|template|dist|defaults?|schema)$)[^/]+)?$",
        "environment file with secrets",
    ),
    _rule(r"\.(?:pem|key|p12|pfx|ppk|jks|keystore)$", "certificate or private key file"),
    _rule(
        r"/\.(?:profile|bashrc|zshrc|zprofile|bash_profile|bash_login|bash_logout|zshenv|zlogin|zlogout|"
        r"bash_aliases|kshrc|cshrc|tcshrc|mkshrc)"
        r"(?:\.(?:local|bak|old|orig|save|backup|swp|pre-[^/]*|d(?:/.*)?)|-[^/]*|~)?$|/\.config/fish/(?:config\.fish|conf\.d(?:/|$))",
        "shell profile, may export API keys",
    ),
    _rule(
        r"/\.(?:bash|zsh|sh|ksh|mysql|psql|python|node_repl|sqlite|rediscli)_history[^/]*$|/\.histfile$"
        r"|/\.local/share/fish/fish_history$|/\.config/fish/fish_history$",
        "shell history, may hold secrets typed on the command line",
    ),
)

_RULES += (
    # agentbus's own trust anchors: a model that rewrote them could switch the guards off.
    _rule(
        r"/\.agentbus(?:/|$)|/\.config/agentbus(?:/|$)",
        "agentbus's own configuration, trust store and audit log",
    ),
)

_WRITE_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    _rule(r"/\.ssh/authorized_keys2?$", "SSH authorized keys: writing one grants a login"),
    _rule(
        r"/\.claude/settings(?:\.local)?\.json$|/\.claude/managed-settings\.json$",
        "Claude Code settings: writing them can remove the hooks that guard it",
    ),
)

_ALLOWED = lazy_compile(r"/node_modules/|\.test\.|/tests?/|/fixtures/|/package-lock\.json$")
_SOMEONES_HOME_DOT = lazy_compile(r"^/(?:home|users)/[^/]+/\.|^/root/\.|^/etc/", re.IGNORECASE)
"""A dot-file in a home directory, or /etc: a real credential store that the allow-list never unlocks."""

# What a glob aimed at secrets matches, and what an ordinary glob matches too.
_SENSITIVE_SAMPLES = (
    ".env", ".env.local", "id_rsa", "id_ed25519", "server.pem", "server.key", "cert.p12", "cert.pfx",
    "credentials.json", "service-account.json", "kubeconfig", ".bashrc", ".zshrc", ".profile",
    ".bash_history", ".netrc", ".git-credentials", "auth-profiles.json",
)  # fmt: skip
_ORDINARY_SAMPLES = (
    "main.py", "README.md", "data.json", "index.ts", "notes.txt", "config.yaml", "Makefile", "x",
    "style.css", "setup.cfg", "app.log", "package.json", "test.sh", "image.png", "a.b",
)  # fmt: skip


def glob_matcher(pattern: str) -> Callable[[str], bool]:
    """A matcher for one glob component (``*``, ``?``, ``[...]``), linear in the pattern.

    :mod:`fnmatch` translates ``[`` by searching for its ``]`` each time, which
    is quadratic (a pattern of 20,000 ``[`` took 13 s); this tokenises in one
    pass and matches with the two-pointer wildcard algorithm (pattern x name).
    """
    closing = [-1] * (len(pattern) + 1)
    after = -1
    for index in range(len(pattern) - 1, -1, -1):
        closing[index] = after
        if pattern[index] == "]":
            after = index
    tokens: list[str | frozenset[str] | tuple[bool, str] | None] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "*":
            if not tokens or tokens[-1] is not None:
                tokens.append(None)  # None: any run of characters
            i += 1
        elif char == "?":
            tokens.append(frozenset())  # the empty set: any one character
            i += 1
        elif char == "[":
            start = i + 1 + (pattern[i + 1 : i + 2] in ("!", "^"))
            end = closing[start] if start < len(pattern) else -1  # a ] right after [ is a member
            if end < 0:
                tokens.append((False, "["))
                i += 1
                continue
            negated = start > i + 1
            tokens.append((negated, _class_members(pattern[start:end])))
            i = end + 1
        else:
            tokens.append(char)
            i += 1

    def one(token: str | frozenset[str] | tuple[bool, str] | None, char: str) -> bool:
        if isinstance(token, str):
            return token == char
        if isinstance(token, frozenset):
            return True
        assert token is not None
        negated, members = token
        return (char in members) != negated

    def matches(name: str) -> bool:
        t = n = 0
        star_t, star_n = -1, 0
        while n < len(name):
            if t < len(tokens) and tokens[t] is None:
                star_t, star_n = t, n
                t += 1
            elif t < len(tokens) and one(tokens[t], name[n]):
                t += 1
                n += 1
            elif star_t >= 0:
                star_n += 1
                t, n = star_t + 1, star_n
            else:
                return False
        while t < len(tokens) and tokens[t] is None:
            t += 1
        return t == len(tokens)

    return matches


def _class_members(body: str) -> str:
    """The characters of a bracket expression's body (``a-c`` is ``abc``; ranges capped)."""
    members: list[str] = []
    i = 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            low, high = ord(body[i]), ord(body[i + 2])
            members.extend(chr(c) for c in range(low, min(high, low + 256) + 1))
            i += 3
        else:
            members.append(body[i])
            i += 1
    return "".join(members)


def _home() -> str:
    return os.environ.get("HOME") or os.path.expanduser("~")


def normalize_path(path: str, *, cwd: str | None = None, home: str | None = None) -> str:
    """The path as the file system will resolve it, lexically.

    Expands ``~``, ``~user``, ``$HOME`` and ``${HOME}``; joins a relative path
    to ``cwd`` when one is given; collapses ``..``, ``.`` and repeated slashes.
    Symbolic links are not followed: the guard judges the name, not the disk.
    """
    home = home or _home()
    text = path.strip()
    if text[:7].lower() == "file://":
        text = text[len("file://") :]
        if text.startswith("localhost/"):
            text = text[len("localhost") :]
    text = _WINDOWS_DEVICE.sub("", text)  # \\?\C:\Users\me: the same file as C:\Users\me
    if text[:1] == "/" and _WINDOWS_DRIVE.match(text[1:]):
        text = text[1:]  # file:///C:/Users/me
    if _WINDOWS_DRIVE.match(text):
        # C:\Users\me\.ssh\id_rsa: judged by its components, like a POSIX path.
        text = text[2:].replace("\\", "/")
    if text == "~" or text.startswith("~/"):
        text = home + text[1:]
    else:
        text = _HOME_VARIABLE.sub(lambda _: home, text)
        text = _TILDE_USER.sub(lambda m: "/root" if m.group(1) == "root" else f"/home/{m.group(1)}", text)
    if cwd and not text.startswith("/"):
        text = normalize_path(cwd, home=home).rstrip("/") + "/" + text
    text = posixpath.normpath(text) if text else text
    if text.startswith("//"):
        text = "/" + text.lstrip("/")
    # /proc/self/root/etc/shadow is /etc/shadow: a process's root is the machine's.
    return _PROC_ROOT.sub("", text) or "/" if text.startswith("/proc/") else text


def display_path(path: str, *, home: str | None = None) -> str:
    """A normalised path with the home directory written as ``~``."""
    home = (home or _home()).rstrip("/")
    if home and (path == home or path.startswith(home + "/")):
        return "~" + path[len(home) :]
    return path


def _classify(normalized: str, *, home: str, write: bool) -> str | None:
    label = _classify_one(normalized, home=home, write=write)
    if label is None and normalized.startswith("../"):
        # The working directory is unknown: enough ../ reach the root (../../../../etc/passwd).
        label = _classify_one("/" + normalized.lstrip("./"), home=home, write=write)
    return label


def _classify_one(normalized: str, *, home: str, write: bool) -> str | None:
    # A relative path stays relative: ./etc/passwd in a project is not /etc/passwd.
    anchored = normalized if normalized.startswith("/") else "./" + normalized
    label = None
    if write:
        label = next((label for rule, label in _WRITE_RULES if rule.search(anchored)), None)
    if label is None:
        label = next((label for rule, label in _RULES if rule.search(anchored)), None)
    if label is None:
        return None
    home_dot = home.rstrip("/").lower() + "/."
    protected = bool(_SOMEONES_HOME_DOT.match(anchored)) or anchored.lower().startswith(home_dot)
    if not protected and _ALLOWED.search(anchored):
        return None
    return label


def check_path(
    path: str, *, cwd: str | None = None, home: str | None = None, write: bool = False
) -> Verdict | None:
    """A :class:`Verdict` if ``path`` names a sensitive file or directory, else None.

    ``write=True`` also blocks files that are only dangerous to write
    (``~/.ssh/authorized_keys``). The reason reads ``Access denied:
    ~/.ssh/id_rsa (SSH private key)``.
    """
    if not isinstance(path, str) or not path.strip():
        return None
    home = home or _home()
    normalized = normalize_path(path, cwd=cwd, home=home)
    label = _classify(normalized, home=home, write=write)
    if label is None:
        return None
    shown = display_path(normalized, home=home)
    return Verdict("Access denied", shown, label, reason=f"Access denied: {shown} ({label})")


def check_glob(pattern: str, *, cwd: str | None = None, home: str | None = None) -> Verdict | None:
    """A :class:`Verdict` if a glob pattern is aimed at sensitive files.

    A glob is judged by its literal directories (``~/.ssh/*`` is inside the SSH
    directory) and by whether its last part matches a sensitive name that no
    ordinary file name matches (``*.pem`` and ``.env*`` are blocked, ``*.json``
    and ``**/*`` are not).
    """
    if not isinstance(pattern, str) or not pattern.strip():
        return None
    if not _GLOB_CHARS & set(pattern):
        return check_path(pattern, cwd=cwd, home=home)
    home = home or _home()
    parts = pattern.rstrip("/").split("/")
    directories = ["x" if _GLOB_CHARS & set(part) else part for part in parts[:-1]]
    last = parts[-1]
    candidates: list[str] = []
    base = "/".join(directories) if directories else "."
    if pattern.startswith("/") and not base:
        base = "/"
    if _GLOB_CHARS & set(last):
        candidates += [base, f"{base}/x"]
        matches = glob_matcher(last.lower())
        if not any(matches(name) for name in _ORDINARY_SAMPLES):
            candidates += [f"{base}/{name}" for name in _SENSITIVE_SAMPLES if matches(name)]
    else:
        candidates.append(f"{base}/{last}")
    for candidate in candidates:
        normalized = normalize_path(candidate, cwd=cwd, home=home)
        label = _classify(normalized, home=home, write=False)
        if label is not None:
            shown = pattern
            return Verdict("Access denied", shown, label, reason=f"Access denied: {shown} ({label})")
    return None
