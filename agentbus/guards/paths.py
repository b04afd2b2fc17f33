"""Which files hold secrets: the sensitive-path classifier of seed 000.

One classifier serves every guard that sees a path: the file tools
(``builtin:security-audit``), file arguments of shell commands
(``builtin:shell-file-guard``), the paths and globs of search tools
(``builtin:search-path-guard``) and the sandbox's list of files to hide. Paths
are resolved first (:mod:`.pathnames`), so that ``~/x/../.ssh//id_rsa``,
``$HOME/.ssh/id_rsa``, ``/proc/self/root/home/me/.ssh/id_rsa`` and
``C:\\Users\\me\\.SSH\\ID_RSA`` are one file, and matched without case, because
macOS and Windows homes ignore it (on Linux an upper-case twin of a secret's name
is rare enough to be suspect).

Three tables, by where a name is a secret:

- anywhere (``id_rsa``, ``.env``, ``*.pem``, ``.aws/``): seed 000's list. Its
  allow-list (``node_modules/``, ``.test.``, ``/test/``, ``/fixtures/``,
  ``package-lock.json``) exempts test data and vendored files, never a
  dot-directory directly in a home directory or ``/etc``;
- in a home directory (``~/.npmrc``, ``~/.bashrc``, browser profiles, keychains):
  names that are ordinary in a project (a repository's ``.npmrc`` or
  ``dotfiles/.bashrc``) and secret only in the home directory that tools read them from;
- from the root (``/etc/shadow``, ``/proc/1/environ``, ``/dev/sda``, ``C:\\Windows\\System32\\config\\SAM``).

Two rules are narrower than their names: a shell profile is private only against leaving
the machine (``check_path(..., local=True)``, for readers that keep what they read here,
allows it), and a ``.pem`` named as a certificate, or any secret's name written, inside the
project (the working directory, not the home directory or a dot-directory of it) is the
project's own.

A backup of a secret is the secret (``/etc/shadow-``, ``.env.bak``, ``id_rsa~``,
``/etc/.shadow.swp``). A path whose start is unknown (``../../etc/shadow`` without
a working directory, ``$SOMEDIR/.npmrc``) is judged as if it started at the root
and at the home directory, the worst places it could.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from ..lazy_regex import lazy_compile
from .pathnames import Resolved, display_path, home_directory, normalize_path, resolve
from .verdict import DISK, IMPAIR, SECRETS, STEALTH_PERSISTENCE, SYSTEM_FILES, UNGUARDED_AGENT, Verdict
from .workdir import line_start, moved_by_the_line

__all__ = [
    "HIDDEN_SYSTEM_FOLDER",
    "OTHER_ROOT",
    "check_glob",
    "check_path",
    "display_path",
    "glob_matcher",
    "normalize_path",
]

_GLOB_CHARS = frozenset("*?[")


class _Rule(NamedTuple):
    pattern: re.Pattern[str]
    label: str
    category: str
    written: str
    """The category when the file is written (a device, a system file)."""
    local: bool = False
    """Private only against leaving the machine: a local read (``cat``, ``grep``, ``source``, the
    file tool) is allowed, a copy sent away is not (see :func:`check_path`)."""
    public: re.Pattern[str] | None = None
    """Harmless look-alikes the rule matches too, allowed inside the project (:func:`_in_project`)."""


def _rule(
    pattern: str,
    label: str,
    category: str = SECRETS,
    written: str | None = None,
    *,
    local: bool = False,
    public: re.Pattern[str] | None = None,
) -> _Rule:
    return _Rule(lazy_compile(pattern, re.IGNORECASE), label, category, written or category, local, public)


_KEY_OR_CERTIFICATE = "certificate or private key file"
_PUBLIC_CERTIFICATE = lazy_compile(
    r"/(?![^/]*(?:key|priv))(?:[^/]*[-_.])?(?:certs?|certificate|chain|fullchain|ca|cacert|ca-bundle|bundle"
    r"|crt|trust|truststore|root-?ca|ca-?chain)\.pem$"
    r"|/(?![^/]*priv)(?:[^/]*[-_.])?pub(?:lic)?(?:[-_.]?key)?(?:[-_.][a-z0-9]+)?\.pem$",
    re.IGNORECASE,
)
"""A .pem named as certificates are by every tool's convention (Let's Encrypt's cert.pem and
fullchain.pem, cfssl's ca.pem, ``server-cert.pem``), never with ``key`` or ``priv`` in its name
(privkey.pem, ca-key.pem, mkcert's localhost-key.pem): the public half, as a ``.crt`` is; or named
as a public key (``public.pem``, ``jwt_public_key.pem``, ``rsa_pub.pem``: what ``openssl rsa -pubout``
writes and ``jwt_tool -pk`` verifies with), never with ``priv`` in its name."""


_CA_STORE = lazy_compile(
    r"^/(?:etc/ssl/certs|etc/pki/(?:tls/certs|ca-trust)|etc/ca-certificates|usr/(?:local/)?share/ca-certificates"
    r"|usr/share/pki/(?:ca-trust-source|trust)|usr/local/etc/ssl/certs|etc/openssl/certs)/(?![^/]*(?:key|priv)[^/]*$)"
)
"""The system's trust stores: a ``.pem`` read there is a CA certificate every program trusts, public by
design (``cat /etc/ssl/certs/*.pem``); ``/etc/ssl/private`` and a file named for a key are not among
them, and writing there plants a CA (:mod:`.locations`)."""


class _Table:
    """Rules checked in order, most specific first; anchored ones as one expression of them
    all, which answers in one pass (the first alternative that matches is the first rule)."""

    def __init__(self, *rules: _Rule, starts: tuple[str, ...] | None = None) -> None:
        self.rules = rules
        self.starts = starts
        """How every text the rules match at its start begins, lower-cased (``/etc/``): a text that
        begins otherwise is answered without compiling the rules (a hook process is short)."""
        self._firsts: tuple[frozenset[str] | None, ...] | None = None
        self._literals: tuple[str | None, ...] | None = None
        self._any = lazy_compile(
            "|".join(f"(?P<r{index}>{rule.pattern.pattern})" for index, rule in enumerate(rules)),
            re.IGNORECASE,
        )

    def at_start(self, text: str) -> _Rule | None:
        """The first rule that matches at the start of ``text``."""
        if self.starts is not None and text.isascii() and not text.lower().startswith(self.starts):
            return None  # on ASCII, lower() is what IGNORECASE ignores
        found = self._any.match(text)
        return self.rules[int(found.lastgroup[1:])] if found and found.lastgroup else None

    def anywhere(self, text: str) -> _Rule | None:
        """The first rule found anywhere in ``text``."""
        if len(text) > _LONG:
            return self.anywhere_from_starts(text)
        return next((rule for rule in self.rules if rule.pattern.search(text)), None)

    def anywhere_from_starts(self, text: str) -> _Rule | None:
        """:meth:`anywhere` for a long text: a rule whose matches can only start at one of a few
        characters (``/``, ``.``) is tried at those places in ``text``, not searched through it.

        Each search of a 10 MB word costs a few milliseconds, each of the rules; the places a
        match may start are found in one pass each (``str.find``). With many such places, or a
        rule whose first character is not plain, the rule is searched as before.
        """
        firsts, literals = self._prefilters()
        starts = _places(text, frozenset().union(*(f for f in firsts if f)), _FEW_PLACES)
        folded = text.lower() if text.isascii() else None  # on ASCII, lower() is what IGNORECASE ignores
        for rule, first, literal in zip(self.rules, firsts, literals, strict=True):
            anchored = first is not None and starts is not None
            # A search, or a match that may run to the end (/[^/]*service…), costs a step per
            # character: a substring the match must hold is looked for first (str.find is faster).
            if (
                literal
                and folded is not None
                and (not anchored or _RUNS.search(rule.pattern.pattern))
                and literal not in folded
            ):
                continue
            if first is None or starts is None:
                found = rule.pattern.search(text) is not None
            else:
                match = rule.pattern.match
                found = any(text[at] in first and match(text, at) is not None for at in starts)
            if found:
                return rule
        return None

    def _prefilters(self) -> tuple[tuple[frozenset[str] | None, ...], tuple[str | None, ...]]:
        """Worked out once, on the first long text (not at import: a hook process starts often)."""
        if self._firsts is None or self._literals is None:
            self._firsts = tuple(first_characters(rule.pattern.pattern) for rule in self.rules)
            self._literals = tuple(required_literal(rule.pattern.pattern) for rule in self.rules)
        return self._firsts, self._literals


_LONG = 512
"""A text longer than this is searched from the places a match may start (``anywhere_from_starts``)."""
_RUNS = lazy_compile(r"(?<!\\)[*+]")
"""An unbounded repeat in a pattern: a match may run on through the text."""
_FEW_PLACES = 64


def _places(text: str, characters: frozenset[str], limit: int) -> list[int] | None:
    """Where ``characters`` occur in ``text``, in order; None when more than ``limit`` do."""
    found: list[int] = []
    for character in characters:
        at = text.find(character)
        while at >= 0:
            found.append(at)
            if len(found) > limit:
                return None
            at = text.find(character, at + 1)
    return sorted(found)


def first_characters(pattern: str) -> frozenset[str] | None:
    """The characters any match of ``pattern`` starts with, when each alternative at its top
    level starts with a plain character that has no case (``/``, ``\\.``), not optional; else None.

    Conservative: a group, a class, an anchor, a look-around or a letter first gives None.
    """
    characters: set[str] = set()
    for alternative in _alternatives(pattern):
        if alternative[:1] == "\\" and len(alternative) > 1 and not alternative[1].isalnum():
            character, after = alternative[1], alternative[2:3]
        elif alternative[:1] and alternative[0] not in "\\.^$*+?{}[]()|":
            character, after = alternative[0], alternative[1:2]
        else:
            return None
        if after in ("*", "?", "{") or character.lower() != character.upper():
            return None  # optional, or a letter (the rules ignore case)
        characters.add(character)
    return frozenset(characters) or None


_INLINE_FLAGS = lazy_compile(r"\(\?[aiLmsux-]")
_SPECIAL = frozenset("\\.^$*+?{}[]()|")


def required_literal(pattern: str) -> str | None:
    """The longest run of plain characters every match of ``pattern`` holds, lower-cased; or None.

    Only a pattern with one alternative at its top level has one: the run is read outside
    groups and classes, and a character made optional (``?``, ``*``, ``{``) ends it.
    """
    if _INLINE_FLAGS.search(pattern) or len(_alternatives(pattern)) != 1:
        return None
    best = run = ""
    index = 0
    while index < len(pattern):
        character = pattern[index]
        if character == "\\":
            # \. is a dot; \d, \b, \1 are classes, anchors and references: no plain character.
            escaped = pattern[index + 1 : index + 2]
            literal: str | None = escaped if escaped and not escaped.isalnum() else None
            index += 2
        elif character in "([":
            literal = None
            index = _skip_group(pattern, index)
        elif character in _SPECIAL:
            literal = None
            index += 1
        else:
            literal = character
            index += 1
        if literal is not None and pattern[index : index + 1] in ("?", "*", "{"):
            literal = None  # optional (or counted): not in every match
        if literal is None:
            run = ""
        else:
            run += literal
            best = max(best, run, key=len)
    return best.lower() or None


def _skip_group(pattern: str, index: int) -> int:
    """The index after the group or class that starts at ``index``."""
    depth = 0
    in_class = False
    while index < len(pattern):
        character = pattern[index]
        if character == "\\":
            index += 2
            continue
        if in_class:
            in_class = character != "]"
            if not in_class and depth == 0:
                return index + 1
        elif character == "[":
            in_class = True
            if pattern[index + 1 : index + 2] == "^":
                index += 1
            if pattern[index + 1 : index + 2] == "]":
                index += 1
        elif character == "(":
            depth += 1
        elif character == ")":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return index


def _alternatives(pattern: str) -> list[str]:
    """``pattern`` split at its top-level ``|`` (not inside a group, a class, or escaped)."""
    parts: list[str] = []
    start = index = 0
    while index < len(pattern):
        character = pattern[index]
        if character == "\\":
            index += 2
        elif character in "([":
            index = _skip_group(pattern, index)
        else:
            if character == "|":
                parts.append(pattern[start:index])
                start = index + 1
            index += 1
    parts.append(pattern[start:])
    return parts


# Searched in "/" + the absolute path, or "./" + a relative one; checked in order, most specific first.
_ANYWHERE: tuple[_Rule, ...] = (
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
    _rule(r"/(?:kubeconfig[^/]*|[^/]*\.kubeconfig|\.kube/config)$", "Kubernetes credentials"),
    # A node's pod volumes seen from elsewhere (a host disk mounted at /host, a relative path after cd /).
    _rule(
        r"/kubernetes\.io~(?:secret|projected)(?:/|$)|/serviceaccount/token$",
        "a pod's secret or service-account token",
    ),
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
    _rule(r"/\.(?:netrc|git-credentials|pypirc)$|/_netrc$", "stored credentials"),
    _rule(
        r"/\.env(?:\.(?!(?:[^/]*\.)?(?:example|sample|template|dist|defaults?|schema)(?:\.[^/]*)?$)"
        r"(?!(?:[^/]*\.)?(?:d\.ts|[cm]?[jt]sx?|py|rb|go|rs|java|kt|php|md|rst)$)[^/]+)?$",
        "environment file with secrets",
    ),
    # nektos/act reads a workflow's secrets from .secrets (and CI PoCs stash stolen ones there).
    _rule(r"/\.secrets$", "CI secrets file (act's --secret-file)"),
    _rule(r"\.(?:key|p12|pfx|pkcs12|p8|ppk|jks|keystore|ovpn)$", _KEY_OR_CERTIFICATE),
    # A .pem may hold a private key (an EC2 key pair, mkcert's localhost-key.pem); inside the
    # project, one named as certificates are by every tool's convention holds the public half.
    _rule(r"\.pem$", _KEY_OR_CERTIFICATE, public=_PUBLIC_CERTIFICATE),
    _rule(r"\.kdbx?$|\.(?:agilekeychain|opvault|1pif|1pux|psafe3)$", "password manager vault"),
    _rule(r"\.keytab$", "Kerberos keytab"),
    _rule(r"\.tfstate(?:\.backup)?$", "Terraform state, which holds secrets in plain text"),
    _rule(r"/\.htpasswd$", "password hashes"),
    _rule(
        r"/wallet\.dat$|/\.ethereum/keystore(?:/|$)|/\.electrum/wallets(?:/|$)",
        "cryptocurrency wallet",
    ),
    _rule(r"/\.mozilla/firefox(?:/|$)", "browser profile: saved passwords and session cookies"),
    _rule(
        r"/\.(?:bash|zsh|sh|ksh|mysql|psql|python|node_repl|sqlite|rediscli|irb|pry|php|lua|erl)_history[^/]*$"
        r"|/\.histfile$|/\.local/share/fish/fish_history$|/\.config/fish/fish_history$",
        "shell history, may hold secrets typed on the command line",
    ),
    # agentbus's own trust anchors: a model that rewrote them could switch the guards off.
    _rule(
        r"/\.agentbus(?:/|$)|/\.config/agentbus(?:/|$)",
        "agentbus's own configuration, trust store and audit log",
        written=IMPAIR,
    ),
)

_BROWSERS = (
    r"google-chrome[^/]*|chrom(?:e|ium)[^/]*|google/chrome[^/]*|bravesoftware|microsoft[- ]edge[^/]*|"
    r"microsoft/edge|vivaldi|opera[^/]*|com\.operasoftware\.opera[^/]*|yandex[^/]*|arc|firefox|mozilla|"
    r"thunderbird"
)
_APP_DATA = (
    r"(?:\.config|\.var/app|snap|Library/Application Support|Library/Containers|AppData/(?:Local|Roaming))"
)

_PROFILES = (
    r"\.(?:profile|bashrc|zshrc|zprofile|bash_profile|bash_login|bash_logout|zshenv|zlogin|zlogout|"
    r"bash_aliases|kshrc|cshrc|tcshrc|mkshrc|shrc)"
)

# Matched at the start of the path inside a home directory (/home/x/, /Users/x/, /root/, C:\Users\x\).
_IN_HOME: tuple[_Rule, ...] = (
    # The profile itself is read by every shell and shared in dotfiles repositories: readable on
    # this machine. Its machine-private parts (.zshrc.local, ~/.bashrc.d/secrets.sh) are where
    # keys are split out to, so that the dotfiles can be published: secrets.
    _rule(
        rf"{_PROFILES}$|\.config/fish/config\.fish$",
        "shell profile, may export API keys",
        local=True,
    ),
    _rule(
        rf"{_PROFILES}(?:\.(?:local|save|pre-[^/]*|d(?:/.*)?)|-[^/]*)$|\.config/fish/conf\.d(?:/|$)",
        "shell profile, may export API keys",
    ),
    _rule(r"\.npmrc$|\.yarnrc(?:\.ya?ml)?$|\.config/yarn/", "package registry token"),
    _rule(
        r"\.cargo/credentials(?:\.toml)?$|\.gem/credentials$|\.m2/settings(?:-security)?\.xml$"
        r"|\.gradle/gradle\.properties$|\.(?:ivy2|sbt)/(?:.*/)?\.?credentials|(?:\.config/)?\.?composer/auth\.json$"
        r"|\.nuget/NuGet/NuGet\.Config$|\.config/pip/pip\.conf$|\.pip/pip\.conf$|\.condarc$",
        "package registry credentials",
    ),
    _rule(
        r"\.config/gh(?:/hosts\.ya?ml)?$|AppData/Roaming/GitHub CLI/hosts\.ya?ml$|\.config/hub$"
        r"|\.config/glab-cli(?:/|$)|\.config/git/credentials$",
        "GitHub or GitLab token",
    ),
    _rule(
        r"\.vault-token$|\.config/doctl(?:/|$)|\.fly(?:/|$)|\.config/hcloud(?:/|$)|\.oci(?:/|$)"
        r"|\.databrickscfg$|\.terraform\.d/credentials\.tfrc\.json$|\.terraformrc$|\.s3cfg$|\.passwd-s3fs$"
        r"|\.config/rclone(?:/|$)|AppData/Roaming/rclone(?:/|$)|AppData/Roaming/gcloud(?:/|$)"
        r"|\.config/configstore/firebase-tools\.json$|(?:\.config/)?\.?wrangler/config(?:/|$)"
        r"|\.config/netlify/config\.json$|\.netlify/config\.json$|com\.vercel\.cli/auth\.json$"
        r"|\.config/op(?:/|$)|\.op(?:/|$)|\.config/sops(?:/|$)|\.config/age(?:/|$)"
        r"|\.config/ngrok/ngrok\.yml$|\.ngrok2(?:/|$)|(?:\.cache/)?huggingface/(?:stored_)?tokens?$"
        r"|\.kube(?:$|/(?!(?:http-)?cache(?:/|$)))|\.pulumi/credentials\.json$|\.config/heroku(?:/|$)",
        "cloud or service CLI credentials",
    ),
    # The Invariant Labs tool-poisoning demonstration read ~/.cursor/mcp.json for its tokens; the
    # SANDWORM_MODE worm wrote its own server into such files.
    _rule(
        r"\.cursor/mcp\.json$|\.codeium/windsurf/mcp_config\.json$|\.kiro/settings/mcp\.json$"
        r"|(?:\.config|Library/Application Support|AppData/Roaming)/(?:Claude/claude_desktop_config\.json"
        r"|Code(?: - Insiders)?/User/mcp\.json)$",
        "an AI agent's MCP servers and the tokens they are given (written: code its sessions start)",
        written=UNGUARDED_AGENT,
    ),
    _rule(r"\.pgpass$|\.my\.cnf$|\.mylogin\.cnf$|\.dbshell$", "database password file"),
    _rule(
        rf"{_APP_DATA}/(?:{_BROWSERS})(?:/|$)|\.mozilla(?:/|$)|\.thunderbird(?:/|$)|Library/(?:Safari|Cookies)(?:/|$)"
        rf"|{_APP_DATA}/.*/(?:Login Data(?: For Account)?|Cookies|Web Data|Local State|[^/]*\.binarycookies)"
        r"(?:-journal)?(?:/|$)",
        "browser or app profile: saved passwords and session cookies",
    ),
    _rule(
        r"\.local/share/(?:keyrings|kwalletd)(?:/|$)|\.gnome2/keyrings(?:/|$)|\.kde4?/share/apps/kwallet(?:/|$)"
        r"|Library/Keychains(?:/|$)|AppData/(?:Local|Roaming)/Microsoft/(?:Credentials|Protect|Vault)(?:/|$)",
        "keychain or credential vault",
    ),
    _rule(
        r"(?:\.config|Library/(?:Application Support|Group Containers|Containers)|AppData/(?:Local|Roaming))/"
        r"[^/]*(?:1password|bitwarden|keepassxc|enpass|lastpass|dashlane|exodus|electrum|password manager"
        r"|nordpass|roboform|stickypassword|proton pass)[^/]*(?:/|$)"
        r"|Documents/Enpass(?:/|$)|Monero/wallets(?:/|$)|\.sparrow/wallets(?:/|$)",
        "password manager or wallet data",
    ),
    _rule(
        r"(?:Library/Application Support/Telegram Desktop|\.local/share/TelegramDesktop)/tdata(?:/|$)",
        "a messenger's session keys (who holds them is logged in)",
    ),
    _rule(r"(?:\.config/)?\.?filezilla/(?:sitemanager|recentservers)\.xml$", "saved FTP/SFTP passwords"),
    _rule(
        r"Library/(?:Messages|Mail)(?:/|$)"
        r"|Library/Application Support/(?:com\.apple\.TCC|AddressBook)(?:/|$)"
        r"|Library/(?:Group Containers/group\.com\.apple\.notes|Containers/com\.apple\.Notes)(?:/|$)"
        r"|Library/Group Containers/group\.com\.apple\.usernoted(?:/|$)|Library/Suggestions(?:/|$)"
        r"|Library/Group Containers/[^/]*(?:whatsapp|signal)[^/]*(?:/|$)"
        r"|Library/Application Support/(?:Signal|discord/Local Storage)(?:/|$)"
        # every download's URL and the app that fetched it: the user's download history (Bundlore reads
        # it to find the disk image it came from, and whether a sandbox ever browsed anything)
        r"|Library/Preferences/com\.apple\.LaunchServices\.QuarantineEvents[^/]*$",
        "private mail, messages, notes, notifications (their text: codes, messages), the download history "
        "or the privacy database",
    ),
    _rule(
        r"NTUSER\.DAT(?:\.LOG\d*)?$|AppData/Local/Microsoft/Windows/UsrClass\.dat$", "Windows user registry"
    ),
    _rule(
        r"AppData/Roaming/Microsoft/Windows/PowerShell/PSReadLine(?:/|$)|\.(?:zsh|bash)_sessions(?:/|$)"
        r"|\.local/share/(?:psql|mysql|sqlite)_history$|\.julia/logs/repl_history\.jl$|\.mongodb/mongosh/[^/]*history",
        "shell history, may hold secrets typed on the command line",
    ),
)

_DEVICES = (
    r"/dev/(?:[shv]d[a-z]+\d*|xvd[a-z]+\d*|nvme\d+(?:n\d+(?:p\d+)?)?|mmcblk\d+(?:p\d+|boot\d+)?|dm-\d+"
    r"|md\d+(?:p\d+)?|md/.+|mapper/(?!control$).+|disk/by-[^/]+/.+|r?disk\d+(?:s\d+)*|nbd\d+(?:p\d+)?|zd\d+"
    r"|zvol/.+|bcache\d+|rbd\d+|pmem\d+|root|mtd(?:block)?\d+|ubi\d+(?:_\d+)?|block/.+)$"
)

_DISK_LABEL = "disk device: reading it bypasses every file permission, writing it destroys the disk"

# Matched at the start of an absolute path.
_FROM_ROOT: tuple[_Rule, ...] = (
    _rule(
        r"/etc/(?:passwd|shadow|gshadow|group|sudoers|master\.passwd|security/opasswd)$|/etc/sudoers\.d(?:/|$)"
        r"|/usr/local/etc/sudoers(?:\.d(?:/|$)|$)|/var/db/sudo(?:/|$)|/var/backups/g?shadow$",
        "system auth file",
        written=SYSTEM_FILES,
    ),
    _rule(
        _DEVICES,
        _DISK_LABEL,
        category=DISK,
    ),
    _rule(
        r"/proc/[^/]+/(?:task/[^/]+/)?(?:environ|mem)$|/proc/kcore$|/dev/(?:k?mem|port)$",
        "process environment or memory, where secrets live",
    ),
    _rule(r"/dev/(?:input(?:/|$)|hidraw\d+$|uinput$)", "input device: reading it logs keystrokes"),
    _rule(
        r"/Library/Application Support/[^/]*(?:password manager|1password|bitwarden|enpass|dashlane|nordpass"
        r"|roboform)[^/]*(?:/|$)",
        "password manager data (installed for every user)",
    ),
    _rule(r"/etc/ssh/[^/]*_key$", "SSH host private key", written=SYSTEM_FILES),
    _rule(
        r"/(?:var/)?run/secrets(?:/|$)|/var/lib/kubelet/(?:pki|pods)(?:/|$)|/etc/kubernetes/(?:pki(?:/|$)|[^/]+\.conf$|azure\.json$|cloud-config$)"
        r"|/etc/rancher/(?:k3s|rke2)/[^/]+\.ya?ml$|/var/lib/rancher/(?:k3s|rke2)/server/(?:token|cred|tls|db)(?:/|$)"
        r"|/var/lib/(?:etcd|minikube/etcd)(?:/|$)",
        "container or cluster secret",
    ),
    _rule(
        r"/var/lib/sss(?:/(?:secrets|db)(?:/|$)|/?$)|/etc/krb5kdc(?:/|$)|/var/kerberos/krb5kdc(?:/|$)",
        "Kerberos or SSSD credentials",
    ),
    _rule(
        r"/etc/NetworkManager/system-connections(?:/|$)|/etc/wpa_supplicant(?:/[^/]*\.conf)?$"
        r"|/etc/wpa_supplicant\.conf$|/etc/ipsec\.secrets$|/etc/(?:ipsec\.d|swanctl)/private(?:/|$)"
        r"|/etc/ppp/(?:chap|pap|srp)-secrets$|/etc/wireguard(?:/|$)|/var/lib/iwd(?:/|$)",
        "network passwords and VPN keys",
    ),
    _rule(
        r"/etc/mysql/debian\.cnf$|/etc/postfix/sasl_passwd(?:\.db|\.lmdb)?$"
        r"|/etc/gitlab/(?:gitlab-secrets\.json|initial_root_password)$"
        r"|/var/lib/jenkins/(?:secrets(?:/|$)|credentials\.xml$|secret\.key$)|/var/lib/samba/private(?:/|$)"
        r"|/etc/samba/smbpasswd$|/var/lib/cloud/instances?/(?:[^/]+/)?user-data|/etc/ssl/private(?:/|$)"
        r"|/etc/pki/tls/private(?:/|$)|/etc/letsencrypt/(?:live|archive|keys|accounts)(?:/|$)",
        "service credentials",
    ),
    # A service account's home (postgres's /var/lib/postgresql, jenkins's /var/lib/jenkins, a site under
    # /srv) holds the same password files as a person's: ~/.pgpass is protected, so is theirs.
    _rule(
        r"/(?:var/lib|srv)/(?:[^/]+/)*\.(?:pgpass|my\.cnf|mylogin\.cnf)$"
        r"|/(?:var/lib|srv)/[^/]+/(?:\.npmrc|\.m2/settings(?:-security)?\.xml|\.gem/credentials"
        r"|\.cargo/credentials(?:\.toml)?|\.config/gh/hosts\.ya?ml)$",
        "a service account's stored passwords (its home's password files)",
    ),
    _rule(
        r"/Library/Keychains(?:/|$)|/var/db/dslocal(?:/|$)|/var/db/shadow(?:/|$)|/var/db/SystemKey$|/etc/kcpassword$"
        r"|/Library/Application Support/com\.apple\.TCC(?:/|$)",
        "macOS keychain, password hashes, the auto-login password or the privacy database",
    ),
    _rule(
        r"/Windows/(?:System32/config/(?:RegBack/)?|repair/)(?:SAM|SYSTEM|SECURITY)(?:\.(?:LOG\d*|sav))?$"
        r"|/Windows/NTDS(?:/|$)|/Windows/(?:Panther(?:/Unattend)?|System32/Sysprep)/(?:auto)?unattend(?:ed)?\.xml$"
        r"|/(?:auto)?unattend\.xml$|/ProgramData/Microsoft/(?:Crypto|Wlansvc/Profiles|Vault)(?:/|$)",
        "Windows password hashes or stored credentials",
    ),
)

_WIN32_DEVICE = _rule(r"//\./", _DISK_LABEL, category=DISK)

HIDDEN_SYSTEM_FOLDER = lazy_compile(
    r"^/\.(?!well-known/|\.)[^/]+/|^/(?:usr/(?!(?:local/)?src/)|etc/(?!skel/)|lib/|lib32/|lib64/|libx32/|bin/"
    r"|sbin/|boot/)(?:[^/]+/)*\.(?!build-id(?:/|$)|git(?:/|$)|well-known(?:/|$)|\.?(?:/|$))[^/]*/"
)
"""A hidden directory among the system's files (``/usr/local/games/.x/``, ``/usr/share/fonts/.cache/``,
``/.Xll/``; tested on a path that ends with ``/``), where no package puts one: droppers keep their kit
there, out of ``ls``. Fedora's ``/usr/lib/.build-id``, etckeeper's ``/etc/.git``, a site's
``.well-known``, the project trees of container images (``/usr/src/app/.next``) and the dot files new
accounts get (``/etc/skel/.config``, system configuration's) are no payload's."""

_WRITE_RULES: tuple[_Rule, ...] = (
    _rule(
        HIDDEN_SYSTEM_FOLDER.pattern,
        "a hidden directory among the system's files, where no package puts one: a payload kept out of sight",
        category=STEALTH_PERSISTENCE,
    ),
    _rule(
        r"/\.ssh/authorized_keys2?$",
        "SSH authorized keys: writing one grants a login",
        category=STEALTH_PERSISTENCE,
    ),
    _rule(
        r"/\.claude/settings(?:\.local)?\.json$|/\.claude/managed-settings\.json$",
        "Claude Code settings: writing them can remove the hooks that guard it",
        category=IMPAIR,
    ),
    _rule(
        r"/\.mcp\.json$|/\.(?:cursor|vscode|amazonq|roo)/mcp\.json$|/\.kiro/settings/mcp\.json$"
        r"|/\.(?:gemini|qwen)/settings\.json$|/\.codex/config\.toml$|/\.amp/settings\.json$"
        r"|/\.config/amp/settings\.json$|/\.copilot/(?:mcp-)?config\.json$|/\.cursor/cli(?:-config)?\.json$"
        r"|/\.claude\.json$",
        "an AI agent's settings or MCP servers: written, its approvals go off or it starts new code",
        category=UNGUARDED_AGENT,
    ),
)

_HOME_STARTS = (
    *(".", "appdata/", "library/", "snap/", "documents/", "monero/", "ntuser.dat", "huggingface/"),
    *("com.vercel.cli/", "filezilla/", "wrangler/", "composer/"),
)
"""How every name of :data:`_IN_HOME` begins: a dot-file, an application data directory ..."""
_ROOT_STARTS = (
    *("/etc/", "/usr/local/etc/", "/var/", "/srv/", "/dev/", "/proc/", "/library/", "/run/", "/windows/"),
    *("/programdata/", "/unattend.xml", "/autounattend.xml"),
)
"""How every path of :data:`_FROM_ROOT` begins."""

_SEARCHED, _HOMES, _ROOTS, _WRITTEN = (
    _Table(*_ANYWHERE),
    _Table(*_IN_HOME, starts=_HOME_STARTS),
    _Table(*_FROM_ROOT, starts=_ROOT_STARTS),
    _Table(*_WRITE_RULES),
)

_OTHER_SSH_HOSTS = _rule(
    r"\.ssh/(?:known_hosts(?:\.old)?|config|authorized_keys2?|[^/]+\.pub)$",
    "another account's SSH hosts and keys: where it logs in and who may, the map a worm spreads by",
)
"""Read from another account's home only: the user's own ``~/.ssh/config`` is theirs to read;
``grep HostName /root/.ssh/config /home/*/.ssh/config`` is how Hadooken's worm finds its next hosts,
``cat /root/.ssh/authorized_keys`` how a dropper checks whose keys log in as root (its own or a rival's),
and a public key's comment names the account and host it opens (``deploy@db1``)."""

_LINUX_HOME = lazy_compile(r"^/(?:home/[^/]+|root|var/root)/")

_OTHER_ACCOUNT = _rule(
    r"^/(?:home/(?!linuxbrew/)[^/]+|root)/.|^/var/(?:spool/)?mail/[^/]+$",
    "another account's private files: its home (root's included) or its mailbox",
)
"""Read from another account's Linux home or mailbox: ``cat /root/proof.txt``, ``cat /home/bob/user.txt``,
``cat /var/mail/alice``. An agent that is not root reads them only through a misconfiguration or an
exploit (the flag files of a capture-the-flag write-up), and no task in the user's project needs them.
Written files are the other tables' (a hook planted in another user's repository, authorized_keys)."""
_OTHER_HOME_WRITTEN = _rule(
    _OTHER_ACCOUNT.pattern.pattern,
    "another account's home written: a file planted where that account (root's too) finds, loads or runs it",
    STEALTH_PERSISTENCE,
)
"""Written into another account's Linux home: ``mv xmrig.json /root/.config/``, ``cp helper /root/``,
``install tool /home/alice/bin/``. An agent that is not root writes there only through a misconfiguration
or an exploit, and as root it plants a file the other account's programs pick up (a miner's
configuration, a program on its PATH); no task in the user's project puts files there. Its start-up
files and keys are the narrower tables' (:mod:`.locations`, the home table)."""
_TILDE_WORD = lazy_compile(r"^~[^/]+/?$")
"""``~word`` alone: another account's home by the shell's reading, but mostly a program's own syntax."""
_SHARED_HOME = lazy_compile(r"^/home/linuxbrew/")
"""A home that is no one's: Homebrew on Linux installs under ``/home/linuxbrew/.linuxbrew`` for all."""
_MAILBOX = lazy_compile(r"^/var/(?:spool/)?mail/([^/]+)$")

_ALLOWED = lazy_compile(r"/node_modules/|\.test\.|/tests?/|/fixtures/|/package-lock\.json$")
_HOME_DIR = lazy_compile(
    r"^(?:/volumes/[^/]+)?(?:/(?:var|usr|export))?/(?:home|users)/[^/]+/|^/(?:var/)?root/"
    r"|^/windows/system32/config/systemprofile/",
    re.IGNORECASE,
)
"""Where a home directory lives: Linux, macOS (and its other volumes), BSD, Windows' drive root."""
_MOUNTED_DRIVE = lazy_compile(
    r"^/(?:mnt/|cygdrive/)[a-z](?=/)|^/[a-z](?=/(?:users|windows|programdata)(?:/|$))", re.IGNORECASE
)
"""A Windows drive seen from WSL (``/mnt/c``), Cygwin (``/cygdrive/c``) or Git Bash (``/c``)."""
OTHER_ROOT = lazy_compile(
    r"^(?:/(?:mnt|media|run/media/[^/]+|host|hostfs|host[-_]?os|host[-_]?root|rootfs|target|sysroot|chroot)"
    r"(?:/[^/]+){0,2}|/proc/(?:[0-9]+|\$[^/]*)/root|/root(?=/etc/))(?=/(?:etc|root|home|var|usr|bin|sbin|lib|lib64|boot)/)",
    re.IGNORECASE,
)
"""Another root file system's top (a disk mounted at ``/mnt`` or ``/media/USER/DISK``, the host's ``/`` a
container was given at ``/host``, ``/mnt/root`` of an LXD container, an installer's ``/target``, the
initramfs's ``/sysroot``, ``/proc/1/root`` with the host's process namespace, ``/root/etc``: the host's
``/`` a Kubernetes attack pod mounts at ``/root``, as Peirates' does), then one of its system
directories: ``/mnt/etc/passwd`` is that system's password file. Of its files only the
:data:`CORE_SYSTEM_FILE` ones count as system files: its ``/etc/fstab`` written by an installer
(``genfstab -U /mnt >> /mnt/etc/fstab``) is that system's set-up, not an escalation."""
_HOST_DIR = lazy_compile(
    r"^/host[-_]?(?P<dir>etc|root|var|usr|boot|proc|sys|lib|lib64|bin|sbin|opt|home)(?P<rest>/.*)?$",
    re.IGNORECASE,
)


def host_dir_path(path: str) -> str | None:
    """The host's path a system directory given to a container under its own name stands for:
    ``/host-etc/cron.d/x`` is the host's ``/etc/cron.d/x`` (``-v /etc:/host-etc``, ``/hostproc``)."""
    match = _HOST_DIR.match(path)
    return f"/{match['dir'].lower()}{match['rest'] or ''}" if match else None


_BACKUP_SUFFIX = lazy_compile(
    r"(?:~|-|\.(?:bak\d*|backup|old|orig|save|sav|swp|swo|tmp|temp|lock|dpkg-(?:old|dist|new|bak|tmp)"
    r"|rpm(?:save|new|orig)|ucf-(?:old|dist|new)|pac(?:save|new)|\d))$",
    re.IGNORECASE,
)
_SHORT_NAMES = {
    "ssh": ".ssh", "aws": ".aws", "gnupg": ".gnupg", "kube": ".kube", "docker": ".docker", "azure": ".azure",
    "config": ".config", "passwo": ".password-store", "git-cr": ".git-credentials", "netrc": ".netrc",
    "npmrc": ".npmrc", "bash_h": ".bash_history", "pgpass": ".pgpass", "creden": "credentials",
}  # fmt: skip
_SHORT_NAME = lazy_compile(rf"/({'|'.join(map(re.escape, _SHORT_NAMES))})~\d(?=/|$)", re.IGNORECASE)
"""Windows's 8.3 names of the secret places (``C:\\Users\\me\\SSH~1\\deploy`` is ``.ssh\\deploy``)."""
_EDITOR_COPY = lazy_compile(r"(^|/)(?:\.([^/]+)\.sw[a-p]|\.?#([^/]+?)#?)$")
"""vim's swap file (``.shadow.swp``), emacs's auto-save and lock files (``#shadow#``, ``.#shadow``)."""


# What a glob aimed at secrets matches, and what an ordinary glob matches too.
_SENSITIVE_SAMPLES = (
    ".env", ".env.local", "id_rsa", "id_ed25519", "server.pem", "server.key", "cert.p12", "cert.pfx",
    "credentials.json", "service-account.json", "kubeconfig", ".bashrc", ".zshrc", ".profile",
    ".bash_history", ".netrc", ".git-credentials", "auth-profiles.json", "vault.kdbx", "terraform.tfstate",
    "krb5.keytab", "client.ovpn", ".npmrc", ".pgpass",
)  # fmt: skip
_ORDINARY_SAMPLES = (
    "main.py", "README.md", "data.json", "index.ts", "notes.txt", "config.yaml", "Makefile", "x",
    "style.css", "setup.cfg", "app.log", "package.json", "test.sh", "image.png", "a.b",
)  # fmt: skip
_ORDINARY_HIDDEN = (".gitignore", ".editorconfig", ".github", ".eslintrc", ".DS_Store")
"""Hidden files every project has: a listing of names that match them is no hunt for secrets."""
_ORDINARY_SOURCES = ("db", "user.service.ts")
"""A backend's database folder and service modules: a name search that matches them (``find ../api
-name '*db*'``, ``-name '*service*'``) looks for code, though ``vault.kdbx`` and ``service-account.json``
match too."""


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


def _other_home_itself(path: str, home: str) -> bool:
    """Whether ``path`` is another account's Linux home directory itself (``/root``, ``/home/bob/``)."""
    folder = path.rstrip("/")
    mine = home.rstrip("/")
    return (
        _LINUX_HOME.match(folder + "/") is not None
        and folder.count("/") <= 2
        and not _SHARED_HOME.match(folder + "/")
        and folder.lower() != mine.lower()
        and not mine.lower().startswith(folder.lower() + "/")
    )


def _home_rest(path: str, home: str) -> str | None:
    """The path inside a home directory (``.ssh/id_rsa``), or None if it is in none."""
    if path.lower().startswith(home.lower().rstrip("/") + "/"):
        return path[len(home.rstrip("/")) + 1 :]
    found = _HOME_DIR.match(path)
    return path[found.end() :] if found else None


def _spellings(path: str) -> Iterator[str]:
    """The path, the file its Windows short names stand for (``SSH~1``: ``.ssh``), and the
    file it is a backup or editor copy of (``/etc/shadow-``: ``/etc/shadow``)."""
    yield path
    if "~" in path:
        longer = _SHORT_NAME.sub(lambda m: "/" + _SHORT_NAMES[m.group(1).lower()], path)
        if longer != path:
            yield longer
    for _ in range(2):
        tail = path[path.rfind("/") + 1 :]
        copy = _EDITOR_COPY.search(path) if "#" in tail or ".sw" in tail else None
        if copy:
            stripped = path[: copy.start()] + copy.group(1) + (copy.group(2) or copy.group(3))
        else:
            stripped = _BACKUP_SUFFIX.sub("", path)
        if stripped in (path, "", "/") or stripped.endswith("/"):
            return
        yield stripped
        path = stripped


def _starts(resolved: Resolved, home: str) -> list[str]:
    """Where a path could be: itself, and where its start is unknown, the root and the home directory."""
    starts = [resolved.path]
    unknown = resolved.unknown_start
    if unknown is None and resolved.path.startswith("../"):
        unknown = resolved.path  # enough ../ from an unknown directory reach the root, or the home
    if unknown is not None:
        climbed = re.sub(r"^(?:\.\.?/)+", "", unknown)
        if climbed not in ("", ".", ".."):
            starts += ["/" + climbed, home.rstrip("/") + "/" + climbed]
    return starts


def _classify(resolved: Resolved, *, home: str, write: bool, local: bool = False) -> _Rule | None:
    for start in _starts(resolved, home):
        for spelling in _spellings(start):
            rule = _classify_one(spelling, home=home, write=write)
            # A file private only against leaving the machine (a shell profile) is not disclosed
            # by a local reader, nor by a write: ``cp ~/.zshrc ~/.zshrc.orig`` keeps the copy here,
            # and a start-up file written is the locations table's (:mod:`.locations`: asked).
            if rule is not None and not (rule.local and (local or write)):
                return rule
    return None


def _classify_one(path: str, *, home: str, write: bool) -> _Rule | None:
    if path.startswith("//./"):
        return _WIN32_DEVICE
    # A relative path stays relative: ./etc/passwd in a project is not /etc/passwd.
    anchored = path if path.startswith("/") else "./" + path
    rule = (_WRITTEN.anywhere(anchored) if write else None) or _SEARCHED.anywhere(anchored)
    if rule is not None:
        rest = _home_rest(anchored, home)
        protected = (rest is not None and rest.startswith(".")) or anchored.lower().startswith("/etc/")
        if protected or not _ALLOWED.search(anchored):
            return rule
    if not path.startswith("/"):
        return None
    # /mnt/c/Users/NAME (a Windows drive under WSL); /host/etc/shadow (the host's root given to a container):
    # that system's file, a secret as it is at home.
    on_other_root = OTHER_ROOT.sub("", path, count=1)  # /mnt/root/x: the root's /root/x, as the host has it
    for absolute in dict.fromkeys((path, _MOUNTED_DRIVE.sub("", path), on_other_root)):
        rest = _home_rest(absolute, home)
        if rest is None and absolute == path and _other_home_itself(absolute, home):
            # cp -r /home/bob ./loot, ln -s /root www/r: all of it; cp helper /root/: planted there
            return _OTHER_HOME_WRITTEN if write else _OTHER_ACCOUNT
        if rest is not None:
            own = absolute.lower().startswith(home.lower().rstrip("/") + "/")
            # Linux homes only: C:\\Users\\NAME arrives as /Users/NAME, the user's own on Windows.
            linux = _LINUX_HOME.match(absolute) is not None
            # Read first: another account's authorized_keys read is its map; written, the home table's.
            if not write and not own and linux and _OTHER_SSH_HOSTS.pattern.fullmatch(rest):
                return _OTHER_SSH_HOSTS
            rule = _HOMES.at_start(rest)
            if rule is not None:
                return rule
            named = absolute in (path, on_other_root)  # not a Windows drive's /Users/NAME under WSL's /mnt/c
            if not own and linux and named and not _SHARED_HOME.match(absolute):
                return _OTHER_HOME_WRITTEN if write else _OTHER_ACCOUNT
        mailbox = _MAILBOX.match(absolute)
        if not write and mailbox and mailbox.group(1) != home.rstrip("/").rpartition("/")[2]:
            return _OTHER_ACCOUNT
        rule = _ROOTS.at_start(absolute)
        if rule is not None:
            return rule
    return None


def _in_project(resolved: Resolved, *, cwd: str | None, home: str) -> bool:
    """A file under the working directory, when that is no home directory, no ancestor of one
    and no dot-directory, and the file is in no credential store (a dot-directory directly in a
    home, ``/etc``): writing a secret's name there (``cp .env.example .env``, ``> cert.pem``)
    changes the project's own configuration, as editing any of its files does; writing
    ``~/.aws/credentials`` or ``~/.ssh/id_rsa`` swaps the user's."""
    if not cwd or resolved.unknown_start is not None:
        return False
    base = resolve(cwd, home=home).path.rstrip("/").lower()
    path = resolved.path
    if not base or not path.lower().startswith(base + "/") or "/." in base:
        return False
    if (home.rstrip("/") + "/").lower().startswith(base + "/") or _HOME_DIR.fullmatch(base + "/"):
        return False  # the home directory, or a directory above it: every secret is under it
    rest = _home_rest(path, home)
    return not (
        (rest is not None and rest.startswith(".")) or path.lower().startswith(("/etc/", "/private/etc/"))
    )


def _verdict(rule: _Rule, shown: str, *, write: bool) -> Verdict:
    return Verdict(
        rule.written if write else rule.category,
        shown,
        rule.label,
        reason=f"Access denied: {shown} ({rule.label})",
    )


def _named_absolutely(path: str) -> bool:
    return path.lstrip().startswith(("/", "~"))


def _named_elsewhere(path: str, resolved: Resolved, home: str, cwd: str | None) -> bool:
    """Another account's file named as such: from the root or by ``~``, or relative to a directory a
    ``cd`` in the line moved to (``cd /root && cat root.txt``; a relative path from where the call runs,
    ``data.json`` or ``../../scripts/x``, is where the agent works or climbs from where it is used: a
    link's directory), and outside the home the call runs in (a project under another home than $HOME:
    it is its own; the call's directory, not one a ``cd`` in the line moved to: ``cd /root && cat
    /root/x`` is no project)."""
    if not _named_absolutely(path) and not moved_by_the_line(cwd):
        return False
    cwd = line_start()
    working = _HOME_DIR.match(resolve(cwd, home=home).path.rstrip("/") + "/") if cwd else None
    return not (working and resolved.path.startswith(working.group(0)))


def check_path(
    path: str,
    *,
    cwd: str | None = None,
    home: str | None = None,
    write: bool = False,
    local: bool = False,
    tilde_home: bool = False,
) -> Verdict | None:
    """A :class:`Verdict` if ``path`` names a sensitive file, directory or device, else None.

    ``write=True`` also blocks files that are only dangerous to write
    (``~/.ssh/authorized_keys``). ``local=True`` says the contents stay on this
    machine (``cat``, ``grep``, ``source``, the file tool's read): a shell profile
    is then allowed, because it holds nothing the agent's own environment does not
    (``printenv`` shows the keys it exports), while uploading or archiving it for
    sending is still held back. ``tilde_home=True``: a bare ``~word`` is that
    account's home (a file command's operand), not a program's own syntax. The
    reason reads ``Access denied: ~/.ssh/id_rsa (SSH private key)``; the category
    is ``secret access``, or ``system file corruption`` for a system file
    written, ``direct disk operation`` for a disk.
    """
    if not isinstance(path, str) or not path.strip():
        return None
    home = home or home_directory()
    resolved = resolve(path, cwd=cwd, home=home)
    rule = _classify(resolved, home=home, write=write, local=local)
    others = rule is _OTHER_ACCOUNT or rule is _OTHER_HOME_WRITTEN
    if rule is None or (others and not _named_elsewhere(path, resolved, home, cwd)):
        return None
    if rule is _OTHER_ACCOUNT and not tilde_home and _TILDE_WORD.match(path.strip()):
        return None  # bspc node -t ~fullscreen, mitmdump "~m_post": a filter's word, rarely a home
    public = rule.public is not None and bool(rule.public.search(resolved.path))
    if rule.public is not None and not write and _CA_STORE.match(resolved.path):
        return None  # cat /etc/ssl/certs/ISRG_Root_X1.pem: a CA's certificate, public
    # The project's own certificate, read or written. Its .env is not written (seed 000's rule):
    # tools load it (dotenv, compose, direnv), so a write there is a change of what runs.
    if public and _in_project(resolved, cwd=cwd, home=home):
        return None
    known = resolved.unknown_start is None and not resolved.path.startswith("//./")
    shown = display_path(resolved.path, home=home) if known else path.strip()
    return _verdict(rule, shown, write=write)


def in_project(path: str, *, cwd: str | None, home: str | None = None) -> bool:
    """A path inside the project (see :func:`_in_project`): ``find . -name .env`` lists where the
    project's own file is, which :func:`check_glob` lets a listing name (``find . -name '*.pem'``)."""
    home = home or home_directory()
    return _in_project(resolve(path, cwd=cwd, home=home), cwd=cwd, home=home)


def new_in_project(path: str, *, cwd: str | None, home: str | None = None) -> bool:
    """A key or certificate file that is not there yet, inside the project (see :func:`_in_project`).

    Written (``openssl req -x509 ... > cert.pem``, ``security find-certificate -p > dev.pem``,
    the file tool's write of ``certs/dev.key``), it is made: nothing is read and no key is
    replaced. One already there may be the only copy of a key, so overwriting it stays judged,
    as do a link, a path whose real directory is elsewhere, and every other secret's name (a
    project's ``.env`` is loaded by its tools).
    """
    if not isinstance(path, str) or not path.strip():
        return False
    home = home or home_directory()
    resolved = resolve(path, cwd=cwd, home=home)
    rule = _classify(resolved, home=home, write=True, local=False)
    if rule is None or rule.label != _KEY_OR_CERTIFICATE or not _in_project(resolved, cwd=cwd, home=home):
        return False
    target = resolved.path
    directory = os.path.dirname(target)
    return not os.path.lexists(target) and os.path.realpath(directory) == directory


def check_glob(
    pattern: str,
    *,
    cwd: str | None = None,
    home: str | None = None,
    local: bool = False,
    listing: bool = False,
) -> Verdict | None:
    """A :class:`Verdict` if a glob pattern is aimed at sensitive files.

    A glob is judged by its literal directories (``~/.ssh/*`` is inside the SSH
    directory) and by whether its last part matches a sensitive name that no
    ordinary file name matches (``*.pem`` and ``.env*`` are blocked, ``*.json``
    and ``**/*`` are not). ``listing=True`` says only the names are shown (``find
    -name``): then a pattern that ordinary hidden files match too (``.*``) is no
    aim at secrets, though ``cat ~/.*`` reads them, and names in the project are the
    project's (``find . -name '*.pem'``). ``local`` as for :func:`check_path`.
    """
    if not isinstance(pattern, str) or not pattern.strip():
        return None
    if not _GLOB_CHARS & set(pattern):
        return check_path(pattern, cwd=cwd, home=home, local=local)
    home = home or home_directory()
    parts = pattern.replace("\\", "/").rstrip("/").split("/")
    directories = ["x" if _GLOB_CHARS & set(part) else part for part in parts[:-1]]
    last = parts[-1]
    candidates: list[str] = []
    base = "/".join(directories) if directories else "."
    if pattern.startswith("/") and not base:
        base = "/"
    if listing and _in_project(resolve(f"{base}/x", cwd=cwd, home=home), cwd=cwd, home=home):
        return None
    if _GLOB_CHARS & set(last):
        candidates += [base, f"{base}/x"]
        matches = glob_matcher(last.lower())
        ordinary = _ORDINARY_SAMPLES + (_ORDINARY_HIDDEN + _ORDINARY_SOURCES if listing else ())
        if not any(matches(name.lower()) for name in ordinary):
            candidates += [f"{base}/{name}" for name in _SENSITIVE_SAMPLES if matches(name.lower())]
    else:
        candidates.append(f"{base}/{last}")
    for candidate in candidates:
        resolved = resolve(candidate, cwd=cwd, home=home)
        rule = _classify(resolved, home=home, write=False, local=local)
        if rule is _OTHER_ACCOUNT and not _named_absolutely(pattern):
            continue  # config/*.json in a project under another home: the project's own files
        if rule is not None and rule.public is not None and _CA_STORE.match(resolved.path):
            continue  # /etc/ssl/certs/*.pem: the trust store's certificates
        if rule is not None:
            return _verdict(rule, pattern, write=False)
    return None
