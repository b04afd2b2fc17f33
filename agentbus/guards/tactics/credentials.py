"""Tactic family ``credentials``: hunting for keys and passwords beyond the project.

What a coding task never needs, judged by mechanism (category
:data:`~agentbus.guards.verdict.CREDENTIALS`):

- **searching the machine** for key files (``find / -name id_rsa``, ``locate``,
  ``mdfind``) or for secrets in files (``grep -r password ~``): a search is a
  hunt when it starts outside the project (``/``, the home directory, ``/etc``
  ...) and looks for a credential's name or a secret's word. ``grep -rn
  password src/`` is ordinary;
- **process memory**: ``/proc/PID/mem`` and another process's ``environ``,
  ``gcore``, a debugger attached to dump memory, ``strace -p``, and the known
  dumpers (mimipenguin, LaZagne, mimikatz);
- **the cloud metadata service** (169.254.169.254 in any spelling, ECS's
  169.254.170.2, ``metadata.google.internal``, Alibaba's 100.100.100.200): any
  request to it, since what it serves is the machine's identity and keys;
- **credential stores**: browser profiles (``Login Data``, ``logins.json``,
  ``key4.db``, cookies), keychains and keyrings, the token files of developer
  tools (``~/.npmrc``, ``~/.pgpass``, ``~/.vault-token`` ...), and the commands
  that print a stored secret (``security find-generic-password -w``,
  ``secret-tool lookup``, ``gh auth token``, ``kubectl get secret -o yaml``).
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Callable, Iterable

from ...lazy_regex import lazy_compile
from ..findings import finding, piece
from ..findings import static_args as _values
from ..interpreters import INTERPRETERS, runs_scripts
from ..operands import operands
from ..parse import Script, SimpleCommand
from ..paths import check_glob, check_path, normalize_path
from ..programs import Invocation, substituted, walk
from ..verdict import CLOUD_CONTROL, COLLECTION, CREDENTIALS, ENV_SECRETS, SYSTEM_FILES, Verdict

__all__ = [
    "KUBE_SECRETS_PATH",
    "credential_store",
    "judge",
    "judge_script",
    "metadata_host",
    "secret_name",
    "secret_word",
    "wide_root",
]


def _verdict(invocation: Invocation, why: str) -> Verdict:
    return finding(CREDENTIALS, invocation, why)


# -- where a search is a hunt ------------------------------------------------------------

_WIDE_ROOTS = frozenset({"/", "/home", "/Users", "/root", "/etc", "/var", "/opt", "/srv", "/mnt", "/media",
                         "/Volumes", "/private", "/usr", "/tmp", "/Library", "/var/www", "/var/log",
                         "/var/backups"})  # fmt: skip
_NODE_ROOT = lazy_compile(r"^/(?:host|rootfs|hostfs)(?=/|$)")
"""Where a pod mounts its node's root file system (``kubectl debug node/NAME`` at /host, node exporters at
/rootfs, badPods): a search under it is a search of the node's own directories."""


_WEB_ROOTS = lazy_compile(r"^/(?:var/www|srv/www|srv/http|usr/share/nginx)/[^/]+$")
"""A site's directory under a web server's root (``/var/www/html``): wp-config.php, .env and the like."""


_SITE_FILES = lazy_compile(r"^/(?:var/www|srv/www|srv/http|usr/share/nginx)/")
"""What a web server serves, at any depth (``/var/www/html/*.php``, ``wp-config.php``): a site's
configuration holds its database password, the first thing a shell on a web server looks for."""


def _site_files(place: str, cwd: str | None) -> str | None:
    """Describe ``place`` if it is a web server's files outside the project (a site's developer works
    in theirs: ``cd /var/www/app && grep -rn DB_PASSWORD config/`` is the project)."""
    path = normalize_path(place, cwd=cwd)
    if not _SITE_FILES.match(path + "/") or (
        cwd is not None and (path + "/").startswith(cwd.rstrip("/") + "/")
    ):
        return None
    return f"the web server's files ({path})"


_CONFIG_ROOTS = frozenset({"", "/etc", "/root", "/opt", "/srv", "/var/www", "/usr/local/etc"})
"""Directories whose files, globbed (``/etc/*.conf``), are other programs' configurations and secrets."""


def wide_root(word: str, home: str, cwd: str | None = None) -> str | None:
    """Describe ``word`` if it is a place a search of which reaches beyond the project.

    The root, the home directory itself (not a folder in it), another user's
    home, and the top-level system directories.
    """
    path = normalize_path(word, home=home, cwd=cwd)
    path = path.rstrip("/") or "/"
    node = _NODE_ROOT.match(path)
    if node:
        inner = wide_root(path[node.end() :] or "/", home="/nonexistent")
        return f"the node's file system ({inner})" if inner else None
    if path.endswith("/*"):
        path = path[:-2] or "/"
    home = home.rstrip("/")
    if path == home or re.fullmatch(r"/(?:home|Users)/[^/]+|/root", path):
        return "the home directory"
    if path in _WIDE_ROOTS:
        return "the whole machine" if path == "/" else path
    inside = cwd is not None and (path + "/").startswith(cwd.rstrip("/") + "/")
    if _WEB_ROOTS.match(path) and not inside:  # a site's own developer works in it: the project
        return f"the web server's files ({path}: its configuration holds database passwords)"
    hidden = re.match(rf"^(?:{re.escape(home)}|/home/[^/]+|/Users/[^/]+|/root|)/(\.[^/.][^/]*)(?:/|$)", path)
    if hidden:
        return f"a hidden folder ({hidden.group(1)}) outside the project, where tools keep their credentials"
    return None


# A credential's file name: keys, keystores, password databases, token files.
_SECRET_NAME = lazy_compile(
    r"^(?:id_[a-z0-9_*?\[\]]+|.*\.(?:pem|key|p12|pfx|ppk|jks|keystore|kdbx?|ovpn|gpg|asc|keychain(?:-db)?|"
    r"psafe3|agilekeychain|opvault|1pif|rdp|pgpass|tfrc\.json)|\.?netrc|_netrc|\.?git-credentials|"
    r"\.?pgpass|\.?my\.cnf|credentials(?:\.\w+)?|\.?smbcred(?:ential)?s?|.*_credentials\.json|.*credentials\.(?:db|json|xml|ya?ml)|\.?s3cfg|\.?npmrc|\.?pypirc|\.?vault-token|\.?boto|"
    r"\.?docker/config\.json|known_hosts|shadow|master\.passwd|"
    r"tokens?(?:\.\w+)?|.*[._-]token|access_tokens\.db|wp-config\.php|\.env(?:\.[a-z]+)?|\*\.env|secrets?(?:\.\w+)?|.*passw(?:or)?d.*|.*secret.*|"
    r"logins\.json|key[34]\.db|login data|cookies(?:\.sqlite)?|kubeconfig|\.?kube/config|"
    # Telegram Desktop's session folder (tdata/D877F783D5D3EF8C) and its key file:
    r"d877f783d5d3ef8c\w*|key_datas?|"
    r"\.aws/credentials|.*\.aws.*|.*\.ssh.*|keyring.*|.*wallet.*|htpasswd|\.htpasswd)$",
    re.IGNORECASE,
)


_PUBLIC_ACCOUNT_LISTS = frozenset({"passwd", "passwd-", "group", "group-"})
"""The account lists every user may read (``/etc/passwd`` and its backup ``passwd-``): names, ids and
shells, no password hashes (those are in ``shadow``). Finding them is discovery, not a hunt."""


_SOURCE_FILE = lazy_compile(
    r"^(?!(?:secrets?|passw(?:or)?ds?|credentials?|wp-config|settings|config)\.)[^*?\[\]/]+\."
    r"(?:java|kt|scala|groovy|php|py|js|mjs|cjs|ts|tsx|jsx|go|rb|rs|c|h|cc|cpp|hpp|cs|swift|vue|svelte|"
    r"html|css|scss)$",
    re.IGNORECASE,
)
"""``PasswordEncoder.java``, ``password_hash.php``, ``reset_password.ts``: a program's source named after
what it handles, looked up by a developer (``locate PasswordEncoder.java``); a file that holds secrets
by its name (``secrets.py``, ``wp-config.php``) or a glob (``*password*.php``) stays a hunt."""


def secret_name(name: str) -> bool:
    """Whether a name (or glob) a search looks for is a credential's."""
    name = name.strip().strip("'\"").rstrip("/")
    if len(name.strip("*?.[]")) < 2:
        return False  # "*", ".*": every file, or every hidden one (listing a directory, not a hunt)
    if name.rsplit("/", 1)[-1] in _PUBLIC_ACCOUNT_LISTS:
        return (
            False  # find / -name passwd, locate passwd: the public account list (a glob *passwd* still hunts)
        )
    tail = name.rsplit("/", 1)[-1] if "/" in name and not name.startswith(".aws") else name
    if _SOURCE_FILE.match(tail):
        return False
    if (
        _SECRET_NAME.match(tail)
        or _SECRET_NAME.match(name.lstrip("*/"))
        or _SECRET_NAME.match(tail.strip("*"))
    ):
        return True
    probe = f"/home/x/{tail}"
    return (
        check_glob(probe, home="/home/x")
        if any(c in tail for c in "*?[")
        else check_path(probe, home="/home/x")
    ) is not None


_SECRET_WORDS = lazy_compile(
    r"pass(?:w(?:or)?d)?|pwd|secret|token|api[^a-z]{0,3}key|apikey|private[^a-z]{0,3}key|credential|"
    r"auth|AKIA|ASIA|aws_|xox[abposr]|ghp_|gh[ousr]_|glpat|sk-|bearer|cookie|session|BEGIN|\bkey\b|_key|key=|"
    r"eyJhbGci|current-context|client-(?:key|certificate)-data|bindpw|ANSIBLE_VAULT|service_account",
    re.IGNORECASE,
)
"""Words a secret search looks for: passwords, tokens, API keys, PEM headers, cloud key ids, a JWT's
first bytes (``eyJhbGci``: service-account tokens in etcd's database), a kubeconfig's keys, an LDAP client's
bind password (``bindpw``), Ansible's vault header, a Google service account's key file."""
_KEY_MATERIAL = lazy_compile(
    r"PRIVATE KEY|BEGIN (?:[A-Z0-9]+ )*PRIVATE|BEGIN (?:OPENSSH|RSA|DSA|EC|ENCRYPTED)(?: |$)|^-+BEGIN-*$"
)
"""A private key's PEM header (or any header) searched for: the files found are keys, wherever the
search runs (``-----BEGIN CERTIFICATE`` finds certificates: not a hunt)."""


def secret_word(pattern: str) -> bool:
    """Whether a search pattern (or a key name) looks for a secret: a password, token, API key, PEM header."""
    return _SECRET_WORDS.search(pattern) is not None or secret_name(pattern)


_SEARCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "ack-grep", "zgrep", "pt", "ugrep",
                        "sift", "git-grep", "trufflehog", "gitleaks", "detect-secrets", "noseyparker",
                        "ripsecrets"})  # fmt: skip
_SCANNERS = frozenset({"trufflehog", "gitleaks", "detect-secrets", "noseyparker", "ripsecrets"})
"""Secret scanners: ordinary on the project, a hunt when pointed at the home directory or the disk."""
_GREP_VALUE_OPTIONS = frozenset({"-e", "--regexp", "-f", "--file", "-m", "--max-count", "-A", "-B", "-C",
                                 "--include", "--exclude", "--exclude-dir", "-g", "--glob", "-t", "--type",
                                 "-T", "--type-not", "--iglob", "-d", "-D", "--max-depth", "--color",
                                 "--colour", "-M", "--max-columns", "-j", "--threads", "--ignore-file",
                                 "--label", "--context", "-E", "--encoding", "--pre", "--sort"})  # fmt: skip


def _organizations_fed(invocation: Invocation) -> str | None:
    """``… | xargs -I{} trufflehog github --org={}``: every organization of a list (fetched from GitHub's API,
    read from a file) scanned, not one's own named (``trufflehog github --org acme``, ``--org "$ORG"`` in
    CI), nor a repository (``trufflehog git file://.``)."""
    args = invocation.args
    if invocation.name != "trufflehog" or args[:1] != ("github",):
        return None
    for index, arg in enumerate(args):
        option, equals, value = arg.partition("=")
        if option != "--org":
            continue
        value = value if equals else (args[index + 1] if index + 1 < len(args) else "")
        if "{}" in value:
            return value
    return None


def _search(invocation: Invocation, home: str) -> Verdict | None:
    """grep -r / rg / ag over a wide root for a secret's word, or anywhere for a private key's header."""
    values = _values(invocation)
    if invocation.name in _SCANNERS:
        org = _organizations_fed(invocation)
        if org is not None:
            why = (
                f"scans the GitHub organizations fed to it ({org}) for secrets: another's, harvested in bulk"
            )
            return _verdict(invocation, why)
        for value in values:
            where = wide_root(value.partition("=")[2] or value, home, invocation.cwd)
            if where:
                return _verdict(invocation, f"scans {where} for secrets")
        return None
    recursive, patterns, places = search_parts(invocation)
    if recursive and any(_KEY_MATERIAL.search(p) for p in patterns):
        return _verdict(invocation, "searches every file below a directory for private keys")
    if any(secret_word(p) for p in patterns):
        site = next((w for w in (_site_files(p, invocation.cwd) for p in places) if w), None)
        if site is not None:
            return _verdict(invocation, f"searches {site} for passwords, keys or tokens")
    named = places
    if not recursive:
        places = [p for p in places if p.endswith("/*") or "*" in p.rsplit("/", 1)[-1]]
        # grep -i password /etc/*.conf: every configuration file of the directory, as grep -r reads them
        places += [p.rsplit("/", 1)[0] or "/" for p in places if p.rsplit("/", 1)[0] in _CONFIG_ROOTS]
    if not any(secret_word(p) for p in patterns):
        return None
    hunt = recursive and any(_BARE_SECRET_WORD.fullmatch(p) for p in patterns)
    for place in places:
        where = wide_root(place, home, invocation.cwd)
        if where is None and hunt:
            where = _service_configuration(place, home, invocation.cwd)
        if where:
            return _verdict(invocation, f"searches {where} for passwords, keys or tokens")
    if any(_PASSWORD_WORD.search(p) for p in patterns):
        kept = next((w for w in (_password_configuration(p, invocation.cwd) for p in named) if w), None)
        if kept is not None:
            return finding(ENV_SECRETS, invocation, f"picks the password out of {kept}")
    return None


_BARE_SECRET_WORD = lazy_compile(
    r"\W*(?:db_?)?(?:pass(?:word|wd)?|pwd|secret|token|api[_-]?key|credentials?|auth)s?\W*",
    re.IGNORECASE,
)
"""A search for the word alone (``password``, ``PASSWORD=``, ``"pass"``): a hunt for whatever value follows
it, where ``PasswordAuthentication`` looks up one setting. One trailing ``\\W*``: a second after it made a
long run of ``=`` cost quadratic time."""


_PASSWORD_CONFIGS = lazy_compile(
    r"^/etc/(?:mysql|mariadb|my\.cnf(?:\.d)?|redis|zabbix|grafana|phpmyadmin|mongod\.conf|mongodb|rabbitmq"
    r"|tomcat\d*|proftpd|pure-ftpd|dovecot|nagios\d*|icinga2|gitlab|pgbouncer|pgpool[\w-]*|odbc\.ini"
    r"|freeradius|raddb|keystone|nova|neutron|glance|cinder|mosquitto|influxdb|elasticsearch|kibana)(?:/|$)"
)
"""Services whose configuration keeps a database's, an admin's or a client's password in clear (``my.cnf``'s
``[client] password``, redis's ``requirepass``, zabbix's ``DBPassword``, ``tomcat-users.xml``)."""
_PASSWORD_WORD = lazy_compile(r"pass|pwd|secret|token|bindpw|masterauth|api[^a-z]{0,3}key|credential", re.I)
"""What a look for such a password searches for (``auth`` or ``key`` alone look up settings)."""


def _password_configuration(place: str, cwd: str | None) -> str | None:
    """Describe ``place`` if it is a configuration, or a directory of them, that keeps a service's passwords.
    One such file searched for its password shows the password to the agent, where ``grep -i pass
    /etc/ssh/sshd_config`` looks up a setting (sshd keeps none): asked, as a secret of the environment
    printed is (a developer looks up their local database's password so now and then); a search through
    the whole directory is :func:`_service_configuration`'s hunt (blocked)."""
    path = normalize_path(place, cwd=cwd)
    if not _PASSWORD_CONFIGS.match(path) or check_path(path, cwd=cwd) is not None:
        return None  # debian.cnf: a secret file, blocked whoever reads it
    return f"a service's password configuration ({path})"


def _service_configuration(place: str, home: str, cwd: str | None) -> str | None:
    """``grep -iR password /etc/zabbix/``: a service's configuration directory searched through, where its
    database and admin passwords are kept (one file read by name is a look at a setting)."""
    path = normalize_path(place, home=home, cwd=cwd)
    return f"a service's configuration ({path})" if path.startswith("/etc/") and path != "/etc/" else None


def search_parts(invocation: Invocation) -> tuple[bool, list[str], list[str]]:
    """A search program's (grep, rg, ag ...) words read: whether it recurses, its patterns, its places."""
    name = invocation.name
    values = _values(invocation)
    recursive = name not in ("grep", "egrep", "fgrep", "zgrep") or any(
        v in ("--recursive", "--dereference-recursive", "-d") or (v.startswith("-") and not v.startswith("--")
                                                             and ("r" in v or "R" in v))
        for v in values
    )  # fmt: skip
    patterns: list[str] = []
    places: list[str] = []
    expect_value = ""
    pattern_given = False
    explicit = any(  # -e/-f name the pattern: then every positional is a place, even before them
        v in ("-e", "--regexp", "-f", "--file") or v.startswith(("--regexp=", "--file="))
        or _short_cluster_value(v) is not None
        for v in values
    )  # fmt: skip
    for index, value in enumerate(values):
        if value == "--" and not expect_value:  # grep -r -- '-----BEGIN' .: only operands follow
            operands_left = values[index + 1 :]
            if not explicit and not pattern_given and not patterns and operands_left:
                patterns.append(operands_left[0])
                operands_left = operands_left[1:]
            places.extend(operands_left)
            break
        cluster = _short_cluster_value(value)
        if cluster is not None:  # -ie PATTERN, -rnwe PATTERN, -ePATTERN: -e inside a cluster of flags
            if cluster:
                patterns.append(cluster)
                pattern_given = True
            else:
                expect_value = "-e"
            continue
        if expect_value:
            if expect_value in ("-e", "--regexp"):
                patterns.append(value)
                pattern_given = True
            elif expect_value in ("--include", "-g", "--glob", "--iglob"):
                patterns.append(value)
            expect_value = ""
            continue
        if value in _GREP_VALUE_OPTIONS:
            expect_value = value
            continue
        if value.startswith("--") and "=" in value:
            option, _, rest = value.partition("=")
            if option in ("--regexp", "--include", "--glob", "--iglob"):
                patterns.append(rest)
                pattern_given = pattern_given or option == "--regexp"
            continue
        if value.startswith("-") and len(value) > 1:
            continue
        if not explicit and not pattern_given and not patterns:
            patterns.append(value)
            pattern_given = True
            continue
        places.append(value)
    return recursive, patterns, places


def _short_cluster_value(value: str) -> str | None:
    """The pattern of a short-option cluster ending in ``-e`` (``-ie``: "" for the next word), else None.

    ``grep -rnw / -ie PASSWORD``: the cluster gives the pattern, so ``/`` is a place searched.
    """
    if not re.fullmatch(r"-[a-zA-Z]+e.*", value) or value.startswith("--") or value == "-e":
        return None
    flags, _, attached = value[1:].partition("e")
    if any(flag in "mABCdDfj" for flag in flags):
        return None  # a value-taking flag before the e: the e is that flag's value (-m5e is unusual)
    return attached


_POD_VOLUMES = lazy_compile(r"(?:^|/)kubelet/pods(?:/|$)")
"""A node's pod directories (``/var/lib/kubelet/pods``, ``/host/var/lib/kubelet/pods``): each pod's
volumes, its service-account token and mounted secrets among them."""
_POD_SECRET_NAME = lazy_compile(
    r"token|ca\.crt|namespace|\.?dockerconfigjson|kube-api-access.*", re.IGNORECASE
)

FIXED_PLACE_HASHES = frozenset({"shadow", "gshadow", "master.passwd"})
"""The system's password-hash files, each at one known place (``/etc/shadow``, BSD's ``/etc/master.passwd``):
a search for the exact name lists a path every administrator knows and reads nothing. Reading what it
finds (``-exec cat``, ``| xargs cat``) is the file guard's, and a glob (``*shadow*``: backups such as
``shadow.bak`` left readable) still hunts."""

_FIND_ACTIONS = frozenset({"-exec", "-execdir", "-ok", "-okdir", "-delete"})
_FIND_NAME_TESTS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex",
                              "-iregex"})  # fmt: skip


_SHARED_TEMP = frozenset({"/tmp", "/var/tmp", "/private/tmp", "/dev/shm"})
_AGENT_SOCKET_NAME = lazy_compile(r"^[\"']?(?:agent\.|ssh-)")


def _hunts_agent_sockets(starts: list[str], values: list[str]) -> bool:
    """``find /tmp -type s -name 'agent.*'``: the sockets of the shared temporary directory named as
    OpenSSH's agents' (``/tmp/ssh-XXXX/agent.PID``) looked for."""
    if not any(start.rstrip("/") in _SHARED_TEMP for start in starts):
        return False
    pairs = list(itertools.pairwise(values))
    return ("-type", "s") in pairs and any(
        test in ("-name", "-iname", "-path") and _AGENT_SOCKET_NAME.match(name) for test, name in pairs
    )


def _find(invocation: Invocation, home: str) -> Verdict | None:
    """find over a wide root for a credential's file name."""
    values = _values(invocation)
    starts = []
    for value in values:
        if value.startswith(("-", "(", "!", ")")):
            break
        starts.append(value)
    if _hunts_agent_sockets(starts, values):
        why = "looks for ssh-agent sockets in the shared temporary directory: others' keys to sign with"
        return finding(ENV_SECRETS, invocation, why)
    where = next((w for w in (wide_root(s, home, invocation.cwd) for s in starts) if w), None)
    pods = next((s for s in starts if _POD_VOLUMES.search(s)), None)
    if where is None and pods is None:
        return None
    negated = False
    for index, value in enumerate(values[:-1]):
        if value in ("!", "-not"):
            negated = True
            continue
        if value in _FIND_NAME_TESTS and not negated:
            name = values[index + 1]
            if value in ("-regex", "-iregex"):
                name = re.sub(r"[\\^$()]|\.\*", "", name)
            if secret_name(name) and not (name in FIXED_PLACE_HASHES and _FIND_ACTIONS.isdisjoint(values)):
                return _verdict(invocation, f"searches {where or pods} for credential files ({name})")
            if pods is not None and _POD_SECRET_NAME.fullmatch(name.strip("*")):
                why = f"searches a node's pod volumes ({pods}) for their tokens ({name})"
                return _verdict(invocation, why)
        negated = False
    return None


_FD = frozenset({"fd", "fdfind"})
_FD_VALUE_OPTIONS = frozenset({"-e", "--extension", "-E", "--exclude", "-t", "--type", "-d", "--max-depth",
                               "--min-depth", "--exact-depth", "-S", "--size", "--changed-within",
                               "--changed-before", "--change-newer-than", "--change-older-than", "-o",
                               "--owner", "-j", "--threads", "-c", "--color", "--ignore-file",
                               "--max-results", "--path-separator", "--batch-size", "--format",
                               "--max-buffer-time", "--search-path", "--base-directory"})  # fmt: skip
"""fd's options that take a value (the pattern is the first other word, the places after it)."""


def _fd(invocation: Invocation, home: str) -> Verdict | None:
    """``fd -H id_rsa ~``, ``fdfind -e pem . /``: fd over a wide root for a credential's file name, as
    :func:`_find` judges ``find ~ -name id_rsa`` (fd's pattern comes first, then the places; ``-e EXT``
    names files by extension)."""
    values = _values(invocation)
    words: list[str] = []
    places: list[str] = []
    names: list[str] = []
    index = 0
    while index < len(values):
        value = values[index]
        option, equals, rest = value.partition("=")
        if value == "--":
            words += values[index + 1 :]
            break
        if option in _FD_VALUE_OPTIONS and value.startswith("--") and equals:
            given = rest
        elif value in _FD_VALUE_OPTIONS:
            given = values[index + 1] if index + 1 < len(values) else ""
            index += 1
        else:
            if not value.startswith("-") or value == "-":
                words.append(value)
            index += 1
            continue
        index += 1
        if option in ("--search-path", "--base-directory"):
            places.append(given)
        elif option in ("-e", "--extension"):
            names.append(f"x.{given.lstrip('.')}")
    if words:
        names.insert(0, words[0])
        places += words[1:]
    where = next((w for w in (wide_root(p, home, invocation.cwd) for p in places) if w), None)
    if where is None:
        return None
    # a regular expression's alternatives each (id_(rsa|ed25519) names id_rsa), without its anchors
    found = next(
        (n for n in names if any(secret_name(a) for a in re.sub(r"[\\^$()]|\.\*", "", n).split("|"))), None
    )
    if found is None:
        return None
    return _verdict(invocation, f"searches {where} for credential files ({found})")


_LOCATORS = frozenset({"locate", "mlocate", "plocate", "slocate", "mdfind", "glocate"})
_MDFIND_NAME = lazy_compile(r"(?:==|=)\s*[\"']?([^\"'\s]+)")


def _locate(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    skip = False
    scopes = [values[i + 1] for i, v in enumerate(values[:-1]) if v == "-onlyin"]
    where = next((w for w in (wide_root(s, home, invocation.cwd) for s in scopes) if w), None)
    if scopes and where is None:
        return None  # mdfind -onlyin . password: a search of the project
    for value in values:
        if skip:
            skip = False
            continue
        if value in ("-onlyin", "-d", "--database", "-l", "--limit", "-n", "-s", "-attr"):
            skip = True
            continue
        if value.startswith("-"):
            continue
        names = [value, *_MDFIND_NAME.findall(value)]
        if any(secret_name(n) for n in names):
            return _verdict(invocation, f"looks up credential files by name ({value})")
        if invocation.name == "mdfind" and _SECRET_WORDS.search(value):
            # Spotlight indexes contents too: mdfind AKIA, kMDItemTextContent == '*password*'.
            return _verdict(invocation, f"searches {where or 'every indexed file'} for {value[:40]}")
    return None


# -- process memory ----------------------------------------------------------------------

_PROC_SECRET = lazy_compile(r"^/proc/([^/]+)/(?:task/[^/]+/)?(mem|environ|maps|smaps|pagemap)$")
_OWN_PROCESS = frozenset({"self", "thread-self", "$$", "${$}", "$BASHPID", "${BASHPID}", "curproc"})
_NAMES_ONLY = frozenset({"ls", "stat", "test", "[", "[[", "file", "du", "readlink", "realpath", "basename",
                         "dirname", "echo", "printf", "namei", "lsattr", "getfacl", "which", "type", "touch",
                         "mkdir", "chmod", "chown", "ssh-keygen", "ssh-add", "wc", "rm", "rmdir", "unlink",
                         "shred"})  # fmt: skip
"""Programs that look at a file's name or metadata, not its contents (wc counts: not a leak)."""
_DUMPERS = lazy_compile(
    r"^(?:mimipenguin|lazagne|mimikatz|pypykatz|secretsdump|procdump|keychaindump|chainbreaker|"
    r"firefox_decrypt|hack-browser-data|sharpchrome|sharpweb|dumpkeychain|lsassy|unshadow|"
    r"linpeas|credentialharvester|swap_digger|3snake|keetheft|keethief|dploot|ssh-agent-dump|bifrost|"
    r"linikatz|sshlooter|"
    r"(?:impacket-)?(?:secretsdump|getnpusers|getuserspns|ticketer|dpapi|goldenpac|keylistattack))"
    r"(?:\.(?:py|sh|pl|rb|exe|ps1))?$",
    re.IGNORECASE,
)
"""Tools whose only purpose is dumping credentials from memory, stores or the disk, or taking them from a
domain (impacket's roasting, ticket forging and DPAPI key scripts, bifrost's Kerberos tickets on macOS;
guessing and cracking passwords is :mod:`.cracking`'s)."""


def credential_dumper(name: str) -> bool:
    """Whether a program's or a repository's name is a credential dumper's (``mimipenguin``, ``LaZagne``)."""
    return _DUMPERS.match(name) is not None


_KEEPERS = lazy_compile(
    r"ssh-agent|gpg-agent|keyring|keepass|kwallet|seahorse|sshd|\bsudo\b|\bsu\b|passwd|login|"
    r"chrome|chromium|firefox|safari|brave|msedge|1password|bitwarden|lastpass|vault|securityd|lsass|"
    r"secretd|keychain|ksecretd|polkit|systemd-logind",
    re.IGNORECASE,
)
"""Processes that hold credentials in memory."""
_DUMP_COMMANDS = lazy_compile(
    r"dump\s+(?:memory|binary|value)|generate-core-file|\bgcore\b|save-core|\bx/\d*[sxbw]|find\s+/|"
    r"memory\s+read|process\s+save-core",
    re.IGNORECASE,
)


_LISTERS_OF_NAMES = frozenset({"ls", "echo", "printf", "stat", "find"})
_FIND_NAMES = frozenset({"-name", "-path", "-iname", "-wholename"})
_PROC_SECRET_NAME = lazy_compile(r"^\*?/?(?:environ|mem)\*?$|^\*/(?:environ|mem)$")
_EVERY_PROCESS_FILES = lazy_compile(r"^/proc/[^/]*[*?\[][^/]*/fd(?:/\*?)?$")
"""``/proc/*/fd``: every process's open files, each readable through its link (a deleted secret, a swap
file): listed to be read, as badPods' hostPID pod does."""


def _every_process(invocation: Invocation) -> Verdict | None:
    """``for e in `ls /proc/*/environ`; do xargs -0 -a $e; done``, ``find /proc -name environ``: every
    process's environment (or memory) listed, to be read one at a time (badPods' hostPID pod)."""
    values = _values(invocation)
    if invocation.name not in _LISTERS_OF_NAMES:
        return None
    if invocation.name == "find":
        named = [values[i + 1] for i, v in enumerate(values[:-1]) if v in _FIND_NAMES]
        found = "/proc" in (v.rstrip("/") for v in values) and any(_PROC_SECRET_NAME.match(n) for n in named)
    else:
        found = any(
            (match := _PROC_SECRET.match(v)) is not None and any(c in match.group(1) for c in "*?[")
            for v in values
        )
    found = found or any(_EVERY_PROCESS_FILES.match(v) for v in values)
    return (
        _verdict(invocation, "lists every process's environment or memory, to read each") if found else None
    )


def _proc_memory(invocation: Invocation) -> Verdict | None:
    if invocation.name in _NAMES_ONLY:
        return _every_process(invocation)
    command = invocation.command
    words = [command.render(w) for w in invocation.args]
    words += [command.render(r.target) for r in command.redirects if r.op in ("<", "<>")]
    words += [w.partition("=")[2] for w in words if w.startswith(("if=", "--input="))]
    for word in words:
        match = _PROC_SECRET.match(word.strip("'\""))
        if match and match.group(1) not in _OWN_PROCESS:
            what = "memory" if match.group(2) in ("mem", "pagemap") else match.group(2)
            return _verdict(invocation, f"reads another process's {what}, where passwords and tokens live")
    return None


def _debugger(invocation: Invocation) -> Verdict | None:
    """gcore, gdb/lldb attached to a process to dump it or to a credential keeper."""
    name = invocation.name
    command = invocation.command
    rendered = [command.render(w) for w in invocation.args]
    if name == "gcore":
        return _verdict(invocation, "dumps a process's memory to a file")
    if name not in ("gdb", "lldb", "gdb-multiarch", "cgdb"):
        return None
    attach = None
    for index, word in enumerate(rendered):
        if word in ("-p", "--pid", "-n", "--attach-name", "--attach-pid") and index + 1 < len(rendered):
            attach = rendered[index + 1]
        elif word.startswith(("--pid=", "-p")) and len(word) > 2 and word not in ("-p",):
            attach = word.partition("=")[2] if word.startswith("--") else word[2:]
        elif word == "attach" or word.startswith("attach "):
            attach = word
    if attach is None:
        return None
    code = " ".join(rendered)
    if _DUMP_COMMANDS.search(code):
        return _verdict(invocation, "attaches a debugger to a running process and dumps its memory")
    if _KEEPERS.search(attach):
        return _verdict(invocation, "attaches a debugger to a process that holds credentials")
    return None


_MEMORY_TOOL = lazy_compile(r"dump|heap|mem(?:ory)?(?:[-_.]|$)|core|scrape|grab", re.IGNORECASE)
_DUMPING_TOOL = lazy_compile(r"dump|heap", re.IGNORECASE)
_PID_VARIABLE = lazy_compile(r"^\$\{?[A-Za-z_]*(?:PID|pid)[A-Za-z_]*(?:\}?$|\[)")
"""``$PID``, ``${target_pid}``, ``${pids[RANDOM % n]}`` (an element of a list of them)."""
_PID_LOOKUP = frozenset({"pgrep", "pidof", "pgrep.exe"})


def _given_a_pid(invocation: Invocation, *, dumper: bool = False) -> str | None:
    """The argument that names another process: ``--pid N``, ``$PID``, ``$(pgrep sshd)``, ``$(pidof x)``."""
    command = invocation.command
    previous = ""
    for raw in invocation.args:
        word = command.render(raw)
        if previous in ("--pid", "-pid", "--process-id") or word.startswith("--pid="):
            return word
        if _PID_VARIABLE.match(word.strip("'\"")) or (previous == "-p" and word.isdigit() and dumper):
            return word  # "${rand_pid}"; -p 812 to a dumper (to others -p is as often a port)
        if any(stage.name in _PID_LOOKUP for stages in substituted(command, [raw]) for stage in stages):
            return word
        previous = word
    return None


def _memory_script(invocation: Invocation) -> Verdict | None:
    """``python dump_heap.py $PID out``, ``./memdump --pid 812``: a program made to dump another process."""
    name = invocation.name
    tool = name
    if runs_scripts(name):
        scripts = [v for v in _values(invocation) if not v.startswith("-")]
        tool = posixpath.basename(scripts[0]) if scripts else ""
    if not tool or len(tool) > 255 or not _MEMORY_TOOL.search(tool):  # longer than any file name: not one
        return None
    pid = _given_a_pid(invocation, dumper=_DUMPING_TOOL.search(tool) is not None)
    if pid is None:
        return None
    return _verdict(invocation, f"{tool} is given another process ({pid}) to dump its memory")


_SAMBA_HASH_LISTINGS = frozenset({"-w", "--smbpasswd-style", "-e", "--export"})
"""pdbedit's options that print or export the accounts' NT hashes (``pdbedit -L -w``, ``-e smbpasswd:F``)."""


def _dumper(invocation: Invocation) -> Verdict | None:
    values = _values(invocation)
    if _DUMPERS.match(invocation.name):
        return _verdict(invocation, f"{invocation.name} is a credential-theft tool")
    if invocation.name == "pdbedit" and _SAMBA_HASH_LISTINGS & {v.partition("=")[0] for v in values}:
        return _verdict(invocation, "pdbedit prints Samba's password hashes")
    if runs_scripts(invocation.name):
        for index, value in enumerate(values):
            if value.startswith("-") and value != "-m":
                continue
            module = values[index + 1] if value == "-m" and index + 1 < len(values) else value
            if _DUMPERS.match(posixpath.basename(module)):
                return _verdict(invocation, f"{module} is a credential-theft tool")
            break
    return None


# -- a browser's session opened to other programs ---------------------------------------------

_BROWSERS = lazy_compile(
    r"(?:google[- ]chrome(?:-stable|-beta|-unstable)?|chrome|chromium(?:-browser)?|brave(?:-browser)?"
    r"|brave browser|msedge|microsoft[- ]edge(?:-stable)?|vivaldi|opera|arc)(?:\.app)?",
    re.IGNORECASE,
)


def _browser_debugging(invocation: Invocation, home: str) -> Verdict | None:
    """The user's own browser profile opened on a debugging port: any local program can read its cookies.

    Automation (Puppeteer, Playwright, ``chrome --headless``) runs on a profile of its own
    (``--user-data-dir`` elsewhere than the browser's own) or headless; restarting the user's
    browser with the port is how cookie stealers (WhiteChocolateMacademiaNut, CookieMonster) take
    the sessions.
    """
    # Rendered, not only the static words: --load-extension=$(pwd)/ext is still that option.
    values = [invocation.command.render(word) for word in invocation.args]
    name = invocation.name
    if name == "open":
        app = next((values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-a", "-b")), "")
        if not _BROWSERS.fullmatch(posixpath.basename(app.rstrip("/"))) or "--args" not in values:
            return None
        values = values[values.index("--args") + 1 :]
    else:
        # The program's own word, whole: "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"
        # is one quoted path, though a name with a space is read as split words (Google, Chrome...).
        heads = (posixpath.basename(invocation.command.static(w) or "") for w in invocation.command.words)
        head = next((h for h in heads if name and h.lower().startswith(name.lower())), "")
        if not _BROWSERS.fullmatch(head):
            return None
    options = {v.partition("=")[0] for v in values}
    profiles = [v.partition("=")[2] or following
                for v, following in zip(values, [*values[1:], ""], strict=False)
                if v.partition("=")[0] == "--user-data-dir"]  # fmt: skip
    own = any(credential_store(p, home, invocation.cwd) for p in profiles)  # the user's real profile
    if "--headless" in options or (profiles and not own):
        return None
    if options & {"--remote-debugging-port", "--remote-debugging-pipe"}:
        why = "opens the user's browser session on a debugging port, where its cookies can be read"
        return _verdict(invocation, why)
    if "--load-extension" in options:  # asked: extension developers do it too
        why = "loads an extension into the user's own browser: it sees every page, cookie and form"
        return finding(COLLECTION, invocation, why)
    return None


_DEBUG_OPTIONS = frozenset(
    {"--inspect", "--inspect-brk", "--remote-debugging-port", "--remote-debugging-pipe"}
)


def _app_debugging(invocation: Invocation) -> Verdict | None:
    """An installed app (``/Applications/Slack.app/Contents/MacOS/Slack``) started with a debugger port
    (``--inspect=9229``) or as plain Node (``ELECTRON_RUN_AS_NODE=1``): any local program then runs code
    inside it, with its sessions, its keychain items and the privacy permissions (TCC) the user gave it."""
    command = invocation.command
    at = len(command.words) - len(invocation.args) - 1
    head = command.static(command.words[at]) if 0 <= at < len(command.words) else None
    if not head or not _INSTALLED_APP.match(head):
        return None
    options = {command.render(word).partition("=")[0] for word in invocation.args}
    as_node = any(a.partition("=")[0] == "ELECTRON_RUN_AS_NODE" for a in invocation.env) and not any(
        (command.static(word) or "").endswith("/Contents/Resources/app/out/cli.js")
        for word in invocation.args
    )  # VS Code's own `code` command runs its cli.js this way
    if options & _DEBUG_OPTIONS or as_node:
        why = "opens an installed app to any local program: its sessions, keys and privacy permissions"
        return _verdict(invocation, why)
    return None


_INSTALLED_APP = lazy_compile(r"^(?:~|/Users/[^/]+)?/Applications/[^/]+\.app/Contents/(?:MacOS|Frameworks)/")


# -- the cloud metadata service ------------------------------------------------------------

_METADATA_V4 = frozenset({0xA9FEA9FE, 0xA9FEAA02, 0xA9FEAA17, 0x646464C8, 0xC00000C0})
"""169.254.169.254 (AWS, GCP, Azure, OCI ...), 169.254.170.2 and .23 (ECS, EKS), 100.100.100.200
(Alibaba), 192.0.0.192 (Oracle Classic), as 32-bit numbers."""
_METADATA_V6 = frozenset({"fd00:ec2::254", "fd00:ec2::23"})
_METADATA_NAMES = frozenset({"metadata.google.internal", "metadata.goog", "metadata", "instance-data",
                             "instance-data.ec2.internal", "metadata.tencentyun.com",
                             "metadata.platformequinix.com"})  # fmt: skip
_HOST_IN_URL = lazy_compile(
    r"(?<![a-z0-9+.-])(?:[a-z][a-z0-9+.-]*://)(?:[^@/\s'\"]*@)?(\[[0-9a-fA-F:.%]+\]|[^/:\s'\"?#\\)$`{]+)",
    re.IGNORECASE,
)
"""A URL's host. A scheme starts where no scheme character precedes it: tried at every letter of a long
``a.a.a…`` word, the scheme would be read to the word's end each time (quadratic)."""
_BARE_HOST = lazy_compile(r"^(?:[^@/\s]*@)?(\[[0-9a-fA-F:.%]+\]|[0-9a-zA-Z.\-]+)(?::\d+)?(?:/.*)?$")
_TEXT_ONLY = frozenset({"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "git", "sed",
                        "awk", "jq", "yq", "man", "iptables", "ip6tables", "nft", "ip", "route", "ufw",
                        "firewall-cmd", "pfctl", "cat", "less", "head", "tail", "wc", "sort", "test", "[",
                        "ls"})  # fmt: skip
"""Programs that only print or match text, and firewalls (blocking the metadata service is hardening)."""


_NUMBER = lazy_compile(r"^(?:0[xX][0-9a-fA-F]*|[0-9]+)$")


def _ipv4(text: str) -> int | None:
    """An IPv4 address in any form inet_aton accepts (2852039166, 0xa9fea9fe, 0251.0376.0251.0376)."""
    parts = text.split(".")
    if not 1 <= len(parts) <= 4 or not all(_NUMBER.match(part) for part in parts):
        return None
    numbers = []
    for part in parts:
        if part[:2].lower() == "0x":
            numbers.append(int(part[2:] or "0", 16))
        elif len(part) > 1 and part.startswith("0"):
            if not set(part) <= set("01234567"):
                return None
            numbers.append(int(part, 8))
        else:
            numbers.append(int(part, 10))
    *head, last = numbers
    if any(n > 255 for n in head) or last >= 256 ** (5 - len(numbers)):
        return None
    value = 0
    for n in head:
        value = value * 256 + n
    return (value << (8 * (5 - len(numbers)))) + last


def metadata_host(host: str) -> bool:
    """Whether ``host`` names a cloud metadata service, however it is spelled."""
    host = host.strip().strip("[]").rstrip(".").lower()
    if not host:
        return False
    if host in _METADATA_NAMES:
        return True
    v4 = _ipv4(host)
    if v4 is not None:
        return v4 in _METADATA_V4
    if ":" not in host:
        return False
    import ipaddress  # only for an IPv6 literal: most commands never need the module

    try:
        v6 = ipaddress.IPv6Address(host.split("%", 1)[0])
    except ValueError:
        return False
    mapped = v6.ipv4_mapped or v6.sixtofour
    return v6.compressed in _METADATA_V6 or (mapped is not None and int(mapped) in _METADATA_V4)


def _hosts(word: str, bare: bool) -> Iterable[str]:
    for found in _HOST_IN_URL.finditer(word):
        yield found.group(1)
    bare_host = _BARE_HOST.match(word) if bare else None
    if bare_host:
        yield bare_host.group(1)


_INSTANCE_FACT = lazy_compile(
    r"(?:https?://)?[^/\s]+(?:"
    r"/latest/api/token|"
    r"/latest/meta-data/(?:(?:instance-id|instance-type|instance-life-cycle|ami-id|ami-launch-index|"
    r"reservation-id|(?:local-|public-)?hostname|(?:local|public)-ipv4|ipv6|mac|security-groups|"
    r"placement(?:/[\w-]+)?|network/interfaces/macs(?:/[\w:-]+(?:/[\w-]+)?)?|services/[\w/-]+|events/[\w/-]+|"
    r"tags/instance(?:/[\w:-]+)?|block-device-mapping(?:/[\w-]+)?)/?)|"
    r"/latest/dynamic/instance-identity/document|"
    r"/computeMetadata/v1/instance/(?:id|zone|name|hostname|machine-type|cpu-platform|image|tags|"
    r"network-interfaces(?:/[\w/-]*)?)|"
    r"/computeMetadata/v1/project/(?:numeric-)?project-id|"
    r"/metadata/instance(?:/(?:compute|network)(?:/[\w/-]*)?)?"
    r")(?:\?[\w=&.-]*)?",
    re.IGNORECASE,
)
"""Metadata paths that name a fact about the machine, not a secret: its id, type, zone, region, addresses
(``curl -H "X-aws-ec2-metadata-token: $T" http://169.254.169.254/latest/meta-data/instance-id``, a node log
collector's first question), and the IMDSv2 session token that only reads them. Credentials, the
identity document's signature (Vault's AWS login accepts it), user data and custom attributes (both
carry secrets: ``kube-env``, bootstrap tokens) and the bare listing (``/latest/meta-data/``, where a
search for the credentials starts) stay credential hunting."""
_CLIMBS = lazy_compile(r"\.\.|%2e|%2f|\\", re.IGNORECASE)


def _metadata(invocation: Invocation) -> Verdict | None:
    if invocation.name in _TEXT_ONLY:
        return None
    command = invocation.command
    for word in invocation.args:
        text = command.render(word)
        value = command.static(word)
        bare = value is not None and not value.startswith("-") and "=" not in value.partition("/")[0]
        if value is not None and _INSTANCE_FACT.fullmatch(value) and not _CLIMBS.search(value):
            continue
        for host in _hosts(value if value is not None else text, bare):
            if metadata_host(host) and not (host.strip("[]").lower() == "metadata" and "://" not in text):
                return _verdict(
                    invocation, f"asks the cloud metadata service ({host}) for the machine's credentials"
                )
    return None


_CREDENTIAL_PATH = lazy_compile(
    r"/latest/meta-data/(?:iam|container)/security-credentials|/latest/meta-data/identity-credentials/|"
    r"/computeMetadata/v1/instance/service-accounts/[^/?#\s]+/(?:token|identity)|"
    r"/metadata/identity/oauth2/token|"
    r"/opc/v\d/identity/|/latest/meta-data/ram/security-credentials",
    re.IGNORECASE,
)
"""The metadata services' credential paths, whatever the host: CloudShell serves them on
``localhost:1338``, ECS on ``169.254.170.2$AWS_CONTAINER_CREDENTIALS_RELATIVE_URI``, proxies elsewhere."""
_IDENTITY_ENDPOINT_VARIABLES = lazy_compile(
    r"\$\{?(?:IDENTITY_ENDPOINT|MSI_ENDPOINT|AWS_CONTAINER_CREDENTIALS_FULL_URI|"
    r"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI|ACTIONS_ID_TOKEN_REQUEST_URL|IMDS_ENDPOINT)\b"
)
"""Variables the platform sets to its credential endpoint (Azure App Service and Functions, ECS,
GitHub Actions' OIDC tokens): a request to one is a request for the workload's token."""


_HTTP_CLIENTS = frozenset({"curl", "wget", "wget2", "http", "https", "xh", "xhs", "curlie", "aria2c", "fetch",
                           "lwp-request", "GET", "POST", "httpie"})  # fmt: skip
"""Programs that make the request themselves (``export U=$IDENTITY_ENDPOINT`` only names the endpoint)."""


def _credential_endpoint(invocation: Invocation) -> Verdict | None:
    """``curl "$IDENTITY_ENDPOINT?resource=..." -H secret:$IDENTITY_HEADER``, ``curl localhost:1338/latest/
    meta-data/container/security-credentials``: the workload's token asked for by another address."""
    if invocation.name not in _HTTP_CLIENTS:
        return None
    command = invocation.command
    for word in invocation.args:
        text = command.render(word)
        if _IDENTITY_ENDPOINT_VARIABLES.search(text):
            return _verdict(invocation, "asks the platform's identity endpoint for the workload's token")
        value = command.static(word)
        url = value if value is not None else text
        if "/" in url and not url.startswith("-") and _CREDENTIAL_PATH.search(url.split("?", 1)[0]):
            return _verdict(invocation, "asks a metadata service's credential path for the machine's keys")
        if "/" in url and not url.startswith("-") and KUBE_SECRETS_PATH.search(url.split("?", 1)[0]):
            return _verdict(invocation, "reads the cluster's secrets from the Kubernetes API")
        if "getSigninToken" in url and _CONSOLE_SIGNIN.search(url):
            return _verdict(invocation, "turns AWS credentials into a console sign-in token")
        if "/" in url and _KUBE_CONTROL_PATH.search(url.split("?", 1)[0]) and _writes(invocation):
            why = "writes the cluster's role bindings or kube-system through the Kubernetes API"
            return finding(CLOUD_CONTROL, invocation, why)
    return _cluster_api_with_token(invocation)


_IN_CLUSTER_API = lazy_compile(
    r"^(?:https?://)?(?:kubernetes\.default(?:\.svc(?:\.cluster\.local)?)?(?:[:/]|$)"
    r"|\$\{?KUBERNETES_(?:SERVICE_HOST|PORT_443_TCP_ADDR)\b)",
    re.IGNORECASE,
)
"""The Kubernetes API as a pod reaches it (``kubernetes.default.svc``, ``$KUBERNETES_SERVICE_HOST``): from
inside the cluster, with the pod's own token. The API server by its address (``https://$APISERVER/…``)
is how a developer calls their cluster, and stays allowed (test_cluster_attacks decided so)."""
_BEARER = lazy_compile(r"^\s*Authorization\s*:\s*Bearer\b", re.IGNORECASE)


def _cluster_api_with_token(invocation: Invocation) -> Verdict | None:
    """``curl -k -H "Authorization: Bearer $TOKEN" https://kubernetes.default.svc/api/v1/…``: the cluster's
    API called by hand with a token (a pod's service account's, read from its file, or a stolen one),
    not as the user's kubeconfig identity; asked (its secrets are :data:`KUBE_SECRETS_PATH`'s, blocked)."""
    command = invocation.command
    texts = [command.render(word) for word in invocation.args]
    headers = [t.partition("=")[2] if t.startswith("--header=") else t for t in texts]
    if not any(_BEARER.match(h) for h in headers):
        return None
    if any(_IN_CLUSTER_API.match(t) for t in texts):
        why = (
            "calls the Kubernetes API with a bearer token: a pod's service account (or a stolen token) acting"
        )
        return finding(CLOUD_CONTROL, invocation, why)
    return None


_KUBE_CONTROL_PATH = lazy_compile(
    r"/apis/rbac\.authorization\.k8s\.io/|/api/v1/namespaces/kube-system/|/apis/[^/\s]+/v1\w*/namespaces/kube-system/"
    r"|/api/v1/namespaces/[^/\s]+/serviceaccounts/[^/\s]+/token"
)
"""Where a write to the Kubernetes API grants (role bindings, cluster roles), lands beside the cluster's own
components (kube-system) or mints a service account's token: ``kubectl create rolebinding`` by HTTP."""
_WRITE_METHODS = lazy_compile(r"^(?:-X|--request=?|--method=)?(?:POST|PUT|PATCH)$", re.IGNORECASE)
_BODY_OPTIONS = frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "--json", "-T",
                           "--upload-file", "-F", "--form", "--body-data", "--body-file", "--post-data",
                           "--post-file"})  # fmt: skip


def _writes(invocation: Invocation) -> bool:
    """Whether an HTTP client's request writes: a method that does (``-X POST``, ``-XPATCH``) or a body."""
    words = _values(invocation)
    for index, word in enumerate(words):
        if _WRITE_METHODS.match(word) and word[:1] == "-":
            return True
        following = words[index + 1] if index + 1 < len(words) else ""
        if word in ("-X", "--request", "--method") and _WRITE_METHODS.match(following):
            return True
        if word.split("=", 1)[0] in _BODY_OPTIONS:
            return True
    return False


_CONSOLE_SIGNIN = lazy_compile(
    r"signin\.(?:aws\.amazon\.com|amazonaws-us-gov\.com|amazonaws\.cn)/federation\?"
)
"""AWS's federation endpoint asked for a sign-in token: temporary credentials (a machine's, from the metadata
service) made into a console session that outlives the shell (CloudGoat's console takeover)."""
KUBE_SECRETS_PATH = lazy_compile(r"/api/v1/(?:namespaces/[^/\s]+/)?secrets(?:/|$)")
"""The Kubernetes API's secrets, of one namespace or every one (``curl -H "Authorization: Bearer $TOKEN"
$APISERVER/api/v1/namespaces/$NS/secrets``: a pod's stolen token spent on them)."""


# -- credential stores -------------------------------------------------------------------

_HOME_PREFIX = r"(?:/home/[^/]+|/Users/[^/]+|/root|/var/root|{home})"
_STORE_RULES: tuple[tuple[str, str], ...] = (
    (
        r"/(?:Login Data(?: For Account)?|Web Data|Cookies|Local State|Network/Cookies)(?:-journal)?$",
        "a browser's saved passwords, cookies or encryption key",
    ),
    (r"/Cookies\.binarycookies$", "Safari's cookies"),
    (
        r"/(?:logins\.json|signons\.sqlite|key[34]\.db|cookies\.sqlite|cert9\.db|formhistory\.sqlite)$",
        "a Firefox profile's passwords, cookies or keys",
    ),
    (r"/(?:Local Storage/leveldb|Session Storage|storage)(?:/|$)", "an app's stored session tokens"),
    (
        r"/(?:\.config|Library/Application Support)/(?:google-chrome[^/]*|chromium|Google/Chrome[^/]*|"
        r"BraveSoftware|Microsoft Edge|microsoft-edge[^/]*|Vivaldi|vivaldi|opera|com\.operasoftware\.Opera|"
        r"Firefox|Arc)$"
        r"|/\.mozilla/firefox$|/Library/Safari$",
        "a browser profile (saved passwords, cookies)",
    ),
    (r"/Library/Keychains(?:/|$)|\.keychain(?:-db)?$", "a macOS keychain"),
    (r"/\.local/share/(?:keyrings|kwalletd)(?:/|$)|/\.kde4?/share/apps/kwallet(?:/|$)", "a desktop keyring"),
    (r"/\.config/gh/hosts\.yml$|/\.config/hub$", "GitHub CLI token"),
    (r"/\.docker/config\.json$", "Docker registry credentials"),
    (r"/\.vault-token$", "Vault token"),
    (r"/\.pgpass$|/\.my\.cnf$|/\.mylogin\.cnf$", "database passwords"),
    (r"/\.config/rclone/rclone\.conf$", "rclone cloud credentials"),
    (r"/\.terraform\.d/credentials\.tfrc\.json$", "Terraform Cloud token"),
    (r"/\.npmrc$|/\.yarnrc(?:\.yml)?$", "npm registry token"),
    (r"/\.cargo/credentials(?:\.toml)?$", "crates.io token"),
    (r"/\.gem/credentials$", "RubyGems token"),
    (r"/\.s3cfg$|/\.passwd-s3fs$", "S3 credentials"),
    (r"/\.composer/auth\.json$|/\.config/composer/auth\.json$", "Composer credentials"),
    (r"/\.gradle/gradle\.properties$|/\.m2/settings(?:-security)?\.xml$", "build tool credentials"),
    (r"/\.config/(?:heroku|doctl|hcloud|linode-cli|op|Bitwarden CLI)(?:/|$)", "cloud CLI credentials"),
    (r"/\.(?:password-store|electrum|bitcoin|ethereum)(?:/|$)|/wallet\.dat$", "password store or wallet"),
    (
        r"/(?:Library/Application Support|\.config)/(?:Exodus|Binance|atomic|Coinomi|Ledger Live|Guarda|"
        r"@trezor/suite-desktop|@tonkeeper|Electrum|Bitcoin|Litecoin|DashCore|Dogecoin|Wasabi)(?:/|$)"
        r"|/\.(?:walletwasabi|electrum-ltc|electron-cash)(?:/|$)",
        "a desktop wallet's or exchange app's keys and session",
    ),
    (r"/Library/Application Support/iCloud/Accounts(?:/|$)", "the iCloud account's tokens"),
)
_STORES = tuple((lazy_compile(pattern, re.IGNORECASE), label) for pattern, label in _STORE_RULES)
_SYSTEM_STORES = lazy_compile(
    r"^/(?:var/)?run/secrets/kubernetes\.io(?:/|$)|^/Library/Keychains(?:/|$)|^/etc/(?:krb5\.keytab|"
    r"ssl/private)(?:/|$)|^/var/lib/(?:sss/secrets|samba/private)(?:/|$)|^/(?:private/)?tmp/krb5cc_[^/]*$"
)
_SYSTEM_STORE_STARTS = ("/run/", "/var/", "/Library/", "/etc/", "/tmp/", "/private/tmp/")
"""How every :data:`_SYSTEM_STORES` path starts: other paths skip compiling it (a hook process is short)."""
_FIREFOX_IN_A_VARIABLE = lazy_compile(
    r"^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/(?:logins\.json|signons\.sqlite|key[34]\.db|cookies\.sqlite)$",
    re.IGNORECASE,
)
"""``"$profile/logins.json"``: a loop over Firefox profiles; names no project file carries."""
_APP_DIR = lazy_compile(
    r"/\.config/|/Library/Application Support/|/\.mozilla/|/Library/Cookies|/Library/Keychains|"
    r"/\.local/share/|/snap/[^/]+/[^/]+/\.|/\.var/app/|/Library/Containers/|/Library/Safari"
)


def credential_store(word: str, home: str, cwd: str | None = None) -> str | None:
    """What credential store ``word`` names (a browser profile, a keychain, a tool's token file), or None.

    Only stores in a home directory or the system's secret places count: a file
    called ``Cookies`` in the project is the project's.
    """
    path = normalize_path(word, home=home, cwd=cwd)
    if path.startswith(_SYSTEM_STORE_STARTS) and _SYSTEM_STORES.match(path):
        return "the system's secrets (service-account token, keytab, Kerberos tickets, private keys)"
    if path.startswith("$") and _FIREFOX_IN_A_VARIABLE.match(path):
        return "a Firefox profile's passwords, cookies or keys (in a directory only a variable names)"
    prefix = re.compile(_HOME_PREFIX.format(home=re.escape(home.rstrip("/"))))
    if not prefix.match(path):
        return None
    for rule, label in _STORES:
        if rule.search(path):
            if label.startswith(("a browser", "a Firefox", "an app")) and not _APP_DIR.search(path):
                continue
            return label
    return None


_EVERY_HOME = lazy_compile(r"^/(?:home|Users)/[*?\[][^/]*(?=/)")
_HISTORY = lazy_compile(
    r"^(?:~|/home/[^/]+|/Users/[^/]+|/root|/var/root|/home/[*?][^/]*|/Users/[*?][^/]*)/"
    r"(?:\.[A-Za-z0-9_]*_?history|\.zhistory|\.histfile|\.local/share/fish/fish_history|\.[*?][^/]*history)$"
)
"""Shell and REPL history files, in any home: passwords typed on a command line stay there.
Each holds ``hist``: other paths skip compiling it."""


_QUIET = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})


def _history(invocation: Invocation, home: str) -> Verdict | None:
    if invocation.name == "history":  # history > /Volumes/USB/h.txt: what was typed, copied away
        kept = [o.value for o in operands(invocation) if o.role == "output" and o.value not in _QUIET]
        if kept:
            why = f"copies the shell's history, where typed passwords stay, to {kept[0]}"
            return _verdict(invocation, why)
        return None
    if invocation.name in _NAMES_ONLY or invocation.name == "fc":
        return None
    for operand in operands(invocation):
        if operand.role == "output":
            continue
        path = normalize_path(operand.value, home=home, cwd=invocation.cwd)
        if path.startswith(home.rstrip("/") + "/"):
            path = "~" + path[len(home.rstrip("/")) :]
        if "hist" not in path or not _HISTORY.match(path):
            continue
        if check_path(operand.value, home=home, cwd=invocation.cwd) is None:
            return _verdict(invocation, f"reads {operand.value}, a shell history, where typed passwords stay")
    return None


def _stores(invocation: Invocation, home: str) -> Verdict | None:
    for operand in operands(invocation):
        if operand.role in ("pattern", "output"):
            continue
        every = _EVERY_HOME.match(operand.value)
        if every and check_glob(_EVERY_HOME.sub("/home/someone", operand.value), home=home) is not None:
            return _verdict(invocation, "looks for credentials in every user's home directory")
        if invocation.name in _NAMES_ONLY:
            continue
        value = operand.value
        if value[:5].lower() == "file:" and value[5:7] != "//":
            value = value[5:].split("?", 1)[0]  # sqlite3 "file:$HOME/.../Login Data?immutable=1"
        if check_path(value, home=home, cwd=invocation.cwd) is not None:
            continue  # a secret the path guards know: theirs to deny (secret access)
        label = credential_store(value, home, invocation.cwd)
        if label is not None:
            return _verdict(invocation, f"reads {label}")
    return None


_SMB_CLIENTS = frozenset({"smbclient", "smbget", "smbclient.py", "impacket-smbclient", "smbmap"})
_GPP_FILES = lazy_compile(
    r"\b(?:Groups|Services|ScheduledTasks|DataSources|Printers|Drives)\.xml\b|cpassword", re.IGNORECASE
)


_GPP_KEY = "4e9906e8fcb66cc9faf49310620ffee8f496e806cc057990209b09a433b66c1b"
"""The AES key of every Group Policy Preferences ``cpassword``, published by Microsoft (MS14-025)."""


def _sysvol(invocation: Invocation) -> Verdict | None:
    """Group Policy Preferences fetched from a domain's SYSVOL: their ``cpassword`` fields decrypt with
    the key Microsoft published (MS14-025)."""
    if invocation.name == "openssl" and _GPP_KEY in (v.lower() for v in _values(invocation)):
        return _verdict(invocation, "decrypts Group Policy Preferences passwords with their published key")
    if invocation.name not in _SMB_CLIENTS:
        return None
    values = _values(invocation)
    text = " ".join(values)
    recursive = "-R" in values or "--recursive" in values or re.search(r"\brecurse\s+on\b", text, re.I)
    if "sysvol" in text.lower() and (_GPP_FILES.search(text) or recursive):
        return _verdict(invocation, "fetches Group Policy Preferences from SYSVOL, where cpassword decrypts")
    return None


_REMOTE_COPIERS = frozenset({"scp", "rsync", "sftp"})
_REMOTE_FILE = lazy_compile(r"^(?:[^@/\s:]+@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?!:)(.*)$")
"""``[user@]host:path``, the remote operand of scp, rsync and sftp (not ``rsync host::module``)."""


def _remote_stores(invocation: Invocation, home: str) -> Verdict | None:
    """``scp user@host:Library/Cookies/Cookies.binarycookies .``: a credential store taken from a machine.

    The path is the remote user's: a relative one starts in their home directory,
    read here as the user's own (``localhost`` is this machine; elsewhere the same
    files of another user).
    """
    if invocation.name not in _REMOTE_COPIERS:
        return None
    for value in _values(invocation):
        found = _REMOTE_FILE.match(value)
        if value.startswith("-") or found is None:
            continue
        host, path = found.group(1), found.group(2) or "~"
        if not path.startswith(("/", "~")):
            path = f"~/{path}"
        label = credential_store(path, home)
        secret = check_path(path, home=home)
        if label is None and secret is not None and secret.category != SYSTEM_FILES:
            label = secret.reason.partition("(")[2].rstrip(")") or "a secret file"
        if label is None and _HISTORY.match(path):
            label = "a shell history"
        if label is not None:
            return _verdict(invocation, f"copies {label} from {host}")
    return None


_PASS_HARMLESS = frozenset({"", "ls", "list", "find", "search", "init", "git", "help", "version", "insert",
                            "generate", "edit", "rm", "mv", "cp", "grep"})  # fmt: skip
"""pass subcommands that do not print a password."""


_ETCD_WHOLE = frozenset({"/registry", "/registry/", "", "/"})
"""Prefixes that take in the whole store Kubernetes keeps in etcd (its secrets among the rest)."""


def _etcd_read(words: list[str], flags: set[str]) -> bool:
    """``etcdctl get /registry/secrets --prefix``, ``etcdctl get / --prefix``: Kubernetes keeps its secrets
    in etcd under ``/registry/secrets``; a prefix of the whole store takes them in too."""
    if "get" not in words:
        return False
    keys = words[words.index("get") + 1 :]
    every = bool(flags & {"--prefix", "--from-key"})
    return any(k.startswith("/registry/secrets") or (every and k in _ETCD_WHOLE) for k in keys)


def _etcd_secrets(words: list[str], flags: set[str]) -> bool:
    """The cluster's secrets printed from etcd (their values: ``--keys-only`` is :func:`_etcd_keys`)."""
    return "--keys-only" not in flags and _etcd_read(words, flags)


def _etcd_keys(invocation: Invocation) -> Verdict | None:
    """``etcdctl get /registry --prefix --keys-only``: every key of Kubernetes' store listed, past the API
    server's permissions and audit log: the map of its secrets and service accounts before they are read.
    Asked; the keys of an etcd by any other prefix (``""``, ``/``, ``/myapp``) are an administrator's
    everyday listing, not known to be a cluster's."""
    if invocation.name != "etcdctl":
        return None
    values = _values(invocation)
    flags = {v for v in values if v.startswith("-")}
    words = [v for v in values if not v.startswith("-")]
    keys = words[words.index("get") + 1 :] if "get" in words else []
    if "--keys-only" not in flags or not any(k.startswith("/registry") for k in keys):
        return None
    if not _etcd_read(words, flags):
        return None
    return finding(COLLECTION, invocation, "lists every key of the cluster's etcd store (its secrets' names)")


def _public_export(values: list[str]) -> bool:
    """``security export -t certs`` (or ``pubKeys``): what it writes has no private key; with no
    ``-t``, or ``identities``, ``privKeys``, ``allKeys``, ``all``, the keys go with it."""
    kinds = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-t", "--type")]
    kinds += [v.partition("=")[2] for v in values if v.startswith("--type=")]
    return bool(kinds) and all(kind.lower() in ("certs", "pubkeys") for kind in kinds)


def _secret_printers(invocation: Invocation) -> Verdict | None:
    """Commands whose purpose is to print a stored secret or token."""
    name = invocation.name
    values = _values(invocation)
    words = [v for v in values if not v.startswith("-")]
    first = words[0] if words else ""
    flags = {v for v in values if v.startswith("-")}
    why = None
    if name == "security":
        shows = any(f.startswith("-") and not f.startswith("--") and ("w" in f or "g" in f) for f in flags)
        # security(1) runs the first command its word is a prefix of: `security dump` is dump-keychain.
        first = "dump-keychain" if len(first) >= 2 and "dump-keychain".startswith(first) else first
        if first == "export" and _public_export(values):
            return None  # security export -t certs: the certificates, public halves only
        if first in ("dump-keychain", "export") or (first.startswith("find-") and shows):
            why = "prints passwords from the macOS keychain"
    elif name == "getent" and first in ("shadow", "gshadow"):
        why = "prints the password hashes of the accounts (only root reads them)"
    elif name == "secret-tool" and first in ("lookup", "search"):
        why = "prints passwords from the desktop keyring"
    elif name in ("kwallet-query", "kwalletcli") and (
        flags & {"-r", "--read-password", "-l"} or name == "kwalletcli"
    ):
        why = "prints passwords from KWallet"
    elif name == "kcc" and first in ("copy_cred_cache", "copy-cred-cache"):
        why = "copies the user's Kerberos tickets out of their cache"
    elif name in ("klist", "kcc") and flags & {"-K", "--keys"}:
        why = "prints the keys of a Kerberos keytab"
    elif name == "keyctl" and first in ("print", "read", "pipe"):
        why = "prints a key from the kernel keyring"
    elif name.startswith("docker-credential-") and first in ("list", "get"):
        why = "prints Docker registry credentials"
    elif name == "gcloud" and words[:3] == ["secrets", "versions", "access"]:
        why = "prints a Google Cloud secret"  # the access tokens: .access_tokens, by where they go
    elif name == "az" and words[:2] == ["keyvault", "secret"] and "show" in words:
        why = "prints an Azure secret"
    elif name == "aws" and (words[:2] in (["secretsmanager", "get-secret-value"],
                                          ["configure", "export-credentials"]) or
                            (words[:1] == ["ssm"] and "--with-decryption" in values) or
                            (words[:2] == ["configure", "get"] and any("secret" in w or "key" in w
                                                                        for w in words[2:]))):  # fmt: skip
        why = "prints AWS credentials or a secret"
    elif name == "vault" and first in ("read", "kv") and ("get" in words or first == "read"):
        why = "prints a secret from Vault"
    elif name == "kubectl" and words[:1] == ["get"] and len(words) > 1 and words[1].startswith("secret"):
        output = " ".join(values)
        if re.search(r"(?:-o|--output)[= ]?(?:yaml|json|jsonpath|go-template|custom-columns)", output) or \
                re.search(r"-o(?:yaml|json|jsonpath)", output):  # fmt: skip
            why = "prints Kubernetes secrets"
    elif name == "etcdctl" and _etcd_secrets(words, flags):
        why = "prints the cluster's secrets from etcd"
    elif name in ("op", "bw", "lpass") and first in ("read", "get", "show", "export", "item"):
        why = "prints a password manager's secrets"
    elif name == "bw" and words[:2] == ["list", "items"]:
        why = "prints every item of the Bitwarden vault, passwords included"
    elif name == "pass" and first not in _PASS_HARMLESS:
        why = "prints a password from the password store"
    return _verdict(invocation, why) if why else None


_FIELD_CUTTERS = frozenset({"cut", "awk", "gawk", "mawk", "sed", "perl", "tr"})


def _sshpass(invocation: Invocation, home: str) -> Verdict | None:
    """``sshpass -p PASSWORD ssh host cat /etc/shadow``: a password used to reach another host's secrets.

    ``sshpass -p $(cut -d: -f2 <<< "$line") ssh ...``: passwords tried from a list (credential stuffing).

    ``sshpass -p password ssh user@host`` alone is how tldr shows the tool: left to the ssh rules.
    sshpass is a wrapper: its options are its own layer's words, the command it runs the program's.
    """
    own = invocation.options_of("sshpass")
    if invocation.name == "sshpass":
        options = invocation.args
    elif own is not None:
        options = own
    else:
        return None
    command = invocation.command
    for index, raw in enumerate(options[:-1]):
        if command.static(raw) == "-p" and command.static(options[index + 1]) is None:
            subs = command.substitutions_in(options[index + 1])
            if any(
                stage.name in _FIELD_CUTTERS
                for sub in subs
                for stages in walk(sub.script)
                for stage in stages
            ):
                return _verdict(
                    invocation, "logs in with passwords computed from a list: credential stuffing"
                )
    values = [v for v in (command.static(w) for w in options) if v is not None]
    if not any(v.startswith("-p") for v in values):
        return None
    for value in [*values, *(_values(invocation) if invocation.name != "sshpass" else [])]:
        for token in re.split(r"[\s:;'\"|&]+", value):
            if token.startswith(("/", "~")) and check_path(token, home=home) is not None:
                return _verdict(invocation, f"logs in with a password on the command line to read {token}")
    return None


# -- the judge -----------------------------------------------------------------------------


_SQL_CLIENTS = frozenset({"sqlite3", "sqlite", "litecli", "sqlcipher"})
_BROWSER_SECRET_COLUMNS = lazy_compile(
    r"\b(?:password_value|encrypted_value|card_number_encrypted|encrypted(?:Username|Password)|moz_logins"
    r"|moz_cookies)\b",
    re.IGNORECASE,
)
"""The columns a browser keeps its secrets in: Chromium's logins.password_value, cookies.encrypted_value,
credit_cards.card_number_encrypted; Firefox's encryptedUsername/encryptedPassword, old moz_logins and its
cookies (moz_cookies, in clear)."""
_BROWSER_HISTORY_TABLES = lazy_compile(
    r"\b(?:history_items|history_visits|moz_places|moz_historyvisits|keyword_search_terms|last_visit_time)\b",
    re.IGNORECASE,
)
"""A browser's history: Safari's history_items/history_visits, Firefox's moz_places/moz_historyvisits,
Chromium's urls.last_visit_time and keyword_search_terms (what the user searched for)."""


def _browser_secret_query(invocation: Invocation) -> Verdict | None:
    """``sqlite3 /tmp/LoginData "SELECT ... password_value FROM logins"``: the query says what it reads,
    whatever the copy of the store is called."""
    if invocation.name not in _SQL_CLIENTS:
        return None
    command = invocation.command
    texts = _values(invocation) + [sub.text for sub in command.substitutions if sub.kind == "<<"]
    texts += [command.render(r.target) for r in command.redirects if r.op == "<<<"]
    if any(_BROWSER_SECRET_COLUMNS.search(text) for text in texts):
        return _verdict(invocation, "queries the columns a browser keeps its passwords, cookies or cards in")
    if any(_BROWSER_HISTORY_TABLES.search(text) for text in texts):
        why = "queries a browser's history (the sites the user visited), whatever its copy is called"
        return finding(COLLECTION, invocation, why)
    return None


_BROWSER_KEY_PATH = lazy_compile(r"os_crypt\W{1,4}encrypted_key")
"""Where Chromium keeps its key in ``Local State``: ``.os_crypt.encrypted_key``, ``["os_crypt"]
["encrypted_key"]``."""
_LOCAL_STATE = lazy_compile(r"(?:^|/)Local State(?:\.json)?$")
_KEY_FIELD = lazy_compile(r"(?:^|\W)encrypted_key(?:\W|$)")


def _browser_key(invocation: Invocation) -> Verdict | None:
    """``jq -r .os_crypt.encrypted_key "Local State" | base64 -d``, Python reading ``["os_crypt"]
    ["encrypted_key"]``, ``grep -o '"encrypted_key":…' "Local State"``: the key Chromium browsers encrypt
    saved passwords and cookies with, taken out of the profile's ``Local State`` (wherever its copy is)."""
    values = _values(invocation)
    if any(_BROWSER_KEY_PATH.search(v) for v in values) or (
        any(_LOCAL_STATE.search(v) for v in values) and any(_KEY_FIELD.search(v) for v in values)
    ):
        return _verdict(
            invocation, "takes a Chromium browser's password and cookie key out of its Local State"
        )
    return None


_AGENT_SOCKET = lazy_compile(
    r"^SSH_AUTH_SOCK=(?:/tmp|/var/tmp|/dev/shm|/private/tmp|/run/user)/\S*[$*?\[`\ue020]"
)
"""An agent socket in a shared directory, its name made at run time (a variable, a substitution, a glob)."""
_NAMED_AGENT_SOCKET = lazy_compile(r"^SSH_AUTH_SOCK=(?:/private)?/(?:var/)?tmp/ssh-[^/]+/agent\.[^/]+$")
"""OpenSSH's agent socket named whole (``/tmp/ssh-XXXX/agent.1234``): one found by listing the shared
directory, whose owner's keys sign for whoever connects (one's own agent exports its socket itself)."""


def _borrowed_agent(invocation: Invocation) -> Verdict | None:
    """``export SSH_AUTH_SOCK=/tmp/$AGENT/$(ls /tmp/$AGENT)``, ``SSH_AUTH_SOCK=/tmp/ssh-*/agent.*
    ssh-add -l``: the agent socket looked for among the sockets in a shared directory, not one's own:
    another user's (root's) loaded keys used to log in elsewhere."""
    exported = invocation.args if invocation.name in ("export", "declare", "typeset") else ()
    for word in (*invocation.env, *exported):
        if not word.startswith("SSH_AUTH_SOCK="):
            continue
        found = [
            f"SSH_AUTH_SOCK={s.text.split()[-1]}" for s in invocation.command.substitutions_in(word) if s.text
        ]
        if any(_AGENT_SOCKET.match(w) for w in (word, *found)):
            why = "points SSH_AUTH_SOCK at an agent socket found at run time"
            return finding(CREDENTIALS, invocation, why)
        if _NAMED_AGENT_SOCKET.match(invocation.command.static(word) or ""):
            why = "points SSH_AUTH_SOCK at an ssh-agent socket in /tmp: its owner's keys sign the logins"
            return finding(ENV_SECRETS, invocation, why)
    return None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """The first finding of this family in ``invocation``, or None."""
    name = invocation.name
    if not name:
        return None
    verdict = _browser_key(invocation)
    if verdict is not None:
        return verdict
    if name == "find":
        verdict = _find(invocation, home) or _every_process(invocation)
    elif name in _SEARCHERS:
        verdict = _search(invocation, home)
    elif name in _LOCATORS:
        verdict = _locate(invocation, home)
    elif name in _FD:
        verdict = _fd(invocation, home)
    else:
        verdict = (
            _debugger(invocation)
            or _dumper(invocation)
            or _memory_script(invocation)
            or _sshpass(invocation, home)
            or _secret_printers(invocation)
            or _browser_debugging(invocation, home)
            or _app_debugging(invocation)
            or _browser_secret_query(invocation)
            or _sysvol(invocation)
            or _borrowed_agent(invocation)
            or _etcd_keys(invocation)
        )
    if verdict is not None:
        return verdict
    return (
        _traced_prompt(invocation)
        or _password_dialog(invocation)
        or _proc_memory(invocation)
        or _metadata(invocation)
        or _credential_endpoint(invocation)
        or _history(invocation, home)
        or _stores(invocation, home)
        or _remote_stores(invocation, home)
    )


_TRACERS = frozenset({"strace", "ltrace"})
_PROMPTERS = frozenset({"ssh", "scp", "sftp", "sudo", "su", "passwd", "login", "ssh-add", "ssh-keygen",
                        "gpg", "gpg2", "kinit", "doas", "pkexec", "chsh", "chfn", "vncpasswd",
                        "htpasswd"})  # fmt: skip
"""Programs that read a password or passphrase typed at the terminal (what they are for, not a debugging
target: ``strace git fetch`` and ``strace psql`` trace a developer's connection problem)."""


def _traced_prompt(invocation: Invocation) -> Verdict | None:
    """``strace -e read -o /tmp/.ssh.log ssh host``: a tracer under a program that reads a password
    from the terminal records every key typed (the ssh alias backdoor of intrusion notes)."""
    tracer = next((w for w in invocation.wrappers if w in _TRACERS), None)
    if tracer is None or invocation.name not in _PROMPTERS:
        return None
    return _verdict(invocation, f"{tracer} records what {invocation.name} reads: the password typed at it")


def _attached_tracer(script: Script) -> SimpleCommand | None:
    """``strace -p PID`` with no command of its own: reads what another process reads and writes."""
    stack = [script]
    while stack:
        current = stack.pop()
        stack.extend(sub.script for sub in current.substitutions)
        for pipeline in current.pipelines:
            for command in pipeline:
                words = [command.static(w) or "" for w in command.words]
                as_root = False
                while words and words[0] in ("sudo", "doas", "nohup", "timeout", "env"):
                    as_root = as_root or words[0] in ("sudo", "doas")
                    words = words[1:]
                if (
                    words
                    and posixpath.basename(words[0]) in _TRACERS
                    and any(w in ("-p", "--attach") or w.startswith(("-p", "--attach=")) for w in words[1:])
                    and not _traces_own_process(command, as_root=as_root)
                    and not any(_SUMMARY_ONLY.fullmatch(w) for w in words[1:])
                ):
                    return command
    return None


_SUMMARY_ONLY = lazy_compile(r"--summary-only|-[fFqQrtTvwxyzhinkdDVZ]*c[fFqQrtTvwxyzhinkdDVZ]*")
"""``strace -c -p PID``, ``ltrace -fc -p PID``: a count of the calls and their time, printed instead of
the calls (``-c``, alone or in a cluster of flags that take no value; not ``-C``, which prints both):
a profile of where a process spends its time, with none of the data it reads or writes."""
_OWN_PIDS = frozenset({"$!", "${!}", "$$", "${$}", "$BASHPID", "${BASHPID}"})
_PROJECT_RUNNERS = frozenset({"npm", "npx", "yarn", "pnpm", "cargo", "java", "gunicorn", "uvicorn",
                              "celery", "rails", "puma", "pytest", "jest", "vite", "next", "webpack", "air",
                              "nodemon"})  # fmt: skip
"""Programs a project's server or tests run under, besides the interpreters."""
_PID_FINDERS = frozenset({"pgrep", "pidof"})


def _traces_own_process(command: SimpleCommand, *, as_root: bool) -> bool:
    """``strace -p $!``, ``strace -p $(pgrep -f 'python manage.py runserver')``: the tracer is attached to
    a process of the agent's own shell (``$!``, ``$$``) or to one found by the command line of the
    project's code (an interpreter, a script path, a project runner such as ``npm`` or ``gunicorn``):
    a developer debugging their own server, not a reader of another program's secrets. A process found
    by a name that keeps secrets (:data:`_KEEPERS`: an agent, a keyring, sshd, a browser) is not, nor,
    as root, one found by a pattern (``sudo strace -p $(pgrep -f python)`` may reach a root daemon)."""
    pid_words = []
    for word, after in itertools.pairwise([*command.words, ""]):
        if word in ("-p", "--attach"):
            pid_words.append(after)
        elif word.startswith("--attach="):
            pid_words.append(word.partition("=")[2])
        elif word.startswith("-p"):
            pid_words.append(word[2:])
    if not pid_words:
        return False
    for pid in pid_words:
        if command.render(pid).strip("'\"") in _OWN_PIDS:
            continue
        found = [sub.script for sub in command.substitutions_in(pid)]
        if as_root or not found or not all(_finds_project_process(script) for script in found):
            return False
    return True


def _finds_project_process(script: Script) -> bool:
    """Whether a substitution is a ``pgrep``/``pidof`` of the project's code (filters after it allowed)."""
    if not script.pipelines or not script.pipelines[0]:
        return False
    finder = script.pipelines[0][0]
    words = [finder.static(w) for w in finder.words]
    if not words or words[0] is None or posixpath.basename(words[0]) not in _PID_FINDERS or None in words:
        return False
    tokens = [t for w in words[1:] if w and not w.startswith("-") for t in w.split()]
    if not tokens or any(_KEEPERS.search(t) for t in tokens):
        return False
    return any(
        INTERPRETERS.match(posixpath.basename(t))
        or posixpath.basename(t) in _PROJECT_RUNNERS
        or t.startswith("./")
        or t.endswith((".py", ".js", ".ts", ".rb", ".php", ".jar"))
        for t in tokens
    )


_LINE_EDITORS = frozenset({"ed", "red", "ex", "vi", "vim", "nvi", "nvim", "view", "busybox-ed"})
_FEEDERS = frozenset({"echo", "printf", "cat"})
_EDITOR_WORD = lazy_compile(r"\s+|\\n|[,;|'\"]")


def _fed_commands(stages: list[Invocation], index: int) -> list[str]:
    """The text an editor reads as commands: its here-document or here-string, or what echo pipes in."""
    editor = stages[index]
    texts = [sub.text for sub in editor.command.substitutions if sub.kind == "<<"]
    texts += [editor.command.render(r.target) for r in editor.command.redirects if r.op == "<<<"]
    if index and stages[index - 1].name in _FEEDERS:
        feeder = stages[index - 1]
        texts += [" ".join(_values(feeder))] + [
            s.text for s in feeder.command.substitutions if s.kind == "<<"
        ]
    return texts


def _editor_fed_a_secret(script: Script, home: str) -> tuple[Invocation, str] | None:
    """``echo -e "e /etc/shadow\n,p" | ed``: the file an editor is told to open comes on its stdin."""
    for stages in walk(script):
        for index, stage in enumerate(stages):
            if stage.name not in _LINE_EDITORS:
                continue
            for text in _fed_commands(stages, index):
                for token in _EDITOR_WORD.split(text):
                    if token.startswith(("/", "~", "$HOME")) and check_path(token, home=home) is not None:
                        return stage, token
    return None


_LISTERS = frozenset({"find", "locate", "mlocate", "plocate", "mdfind", "ls"})


def _search_fed_by_lister(script: Script, home: str) -> Invocation | None:
    """``find /Users -name '*.emlx' | xargs grep -i password``: the search's files come from a listing
    of a wide root (every home, the disk) on its input, so it is as wide as a ``grep -r`` there."""
    for stages in walk(script):
        wide = False
        for stage in stages:
            if stage.name in _LISTERS and any(wide_root(v, home, stage.cwd) for v in _values(stage)):
                wide = True
            elif (
                wide
                and stage.name in _SEARCHERS
                and "xargs" in stage.wrappers
                and any(secret_word(p) for p in search_parts(stage)[1])
            ):
                return stage
    return None


_DUMP_READERS = frozenset({"strings", "gstrings", "cat", "xxd", "hexdump", "od"})
_MEMORY_IMAGE = lazy_compile(
    r"(?:^|/)(?:core(?:\.\d+)?|[^/]+\.(?:core|dmp|mdmp|mem|vmem|lime|hprof|gcore))$|^/(?:cores|private/cores)/",
    re.IGNORECASE,
)
"""A process's or machine's memory saved to a file: core files (``gcore -o X`` writes X.PID or X.core,
/cores on macOS), minidumps, raw memory images, JVM heap dumps."""


def _memory_image_searched(script: Script) -> Invocation | None:
    """``strings /tmp/securityd.core | grep -iE "password|token"``: a memory image read (or searched
    directly) for a secret's word: the passwords and keys the dumped process held."""
    for stages in walk(script):
        image = False
        for stage in stages:
            files = [v for v in _values(stage) if not v.startswith("-")]
            if stage.name in _DUMP_READERS and any(_MEMORY_IMAGE.search(f) for f in files):
                image = True
            elif stage.name in _SEARCHERS:
                _, patterns, places = search_parts(stage)
                searched = image or any(_MEMORY_IMAGE.search(p) for p in places)
                if searched and any(secret_word(p) for p in patterns):
                    return stage
    return None


_DIALOGS = frozenset({"zenity", "kdialog", "yad", "Xdialog", "gxmessage"})
_HIDDEN_ENTRY = frozenset({"--password", "--hide-text", "--passwordbox", "--new-password"})


def _password_dialog(invocation: Invocation) -> Verdict | None:
    """A dialog that asks the user for a password (``zenity --password``, ``kdialog --password TEXT``,
    ``yad --entry --hide-text``): a program has no need to draw its own password prompt but to phish
    one (sudo, polkit and ssh ask through their own helpers); macOS's ``with hidden answer`` likewise."""
    if invocation.name not in _DIALOGS:
        return None
    values = _values(invocation)
    hidden = next((v for v in values if v.partition("=")[0] in _HIDDEN_ENTRY), None)
    if hidden is None and not (
        invocation.name == "yad" and any(":H" in v for v in values if v.startswith("--field"))
    ):
        return None
    return _verdict(invocation, f"{invocation.name} draws its own password prompt ({hidden or '--field :H'})")


def judge_script(script: Script, home: str) -> Verdict | None:
    """What the per-command judge cannot see: a tracer attached to another process, an editor fed a secret,
    a search fed the files of a wide root."""
    searcher = _search_fed_by_lister(script, home)
    if searcher is not None:
        why = "searches the files listed from every home or the disk for passwords, keys or tokens"
        return Verdict(CREDENTIALS, piece(searcher.text), why)
    searched = _memory_image_searched(script)
    if searched is not None:
        why = "searches a process's memory image for passwords, keys or tokens"
        return Verdict(CREDENTIALS, piece(searched.text), why)
    command = _attached_tracer(script)
    if command is not None:
        why = "attaches a tracer to a running process, seeing the secrets it reads"
        return Verdict(CREDENTIALS, piece(command.text), why)
    fed = _editor_fed_a_secret(script, home)
    if fed is not None:
        return Verdict(CREDENTIALS, piece(fed[0].text), f"an editor is told on its input to open {fed[1]}")
    return _environment_searched(script) or _secret_variable_printed(script) or _metadata_token_alone(script)


_METADATA_TOKEN = lazy_compile(r"(?:https?://)?[^/\s]+/latest/api/token/?", re.IGNORECASE)


def _metadata_token_alone(script: Script) -> Verdict | None:
    """``curl -X PUT http://169.254.169.254/latest/api/token -H "X-aws-ec2-metadata-token-ttl-seconds: …"``
    with nothing in the line that spends it: the IMDSv2 session token handed to the agent, whose only use
    left is a later request (the role's credentials, blocked when asked for; the machine's facts, read
    in the same line with it, stay allowed). Asked: a person sees what the next request is for."""
    tokens: list[Invocation] = []
    for stages in walk(script):
        for stage in stages:
            if stage.name not in _HTTP_CLIENTS:
                continue
            urls = [stage.command.static(word) or "" for word in stage.args]
            metadata = [url for url in urls if "/" in url and any(map(metadata_host, _hosts(url, True)))]
            if any(_METADATA_TOKEN.fullmatch(url) for url in metadata):
                tokens.append(stage)
            elif metadata:
                return None
    if not tokens:
        return None
    why = "asks the metadata service for an IMDSv2 session token and spends it on nothing here"
    return finding(ENV_SECRETS, tokens[0], why)


_ENV_SECRET = lazy_compile(r"pass|secret|token|key|credential|cred\b", re.IGNORECASE)
"""What a search of the environment for secrets looks for (``PASSWORD``, ``API_KEY``, ``GITHUB_TOKEN``;
not ``PWD``, the working directory)."""


def _dumps_environment(words: list[str]) -> bool:
    """``env``, ``printenv``, ``set``, ``export -p``, ``declare -x``: every variable and its value printed."""
    name, values = (words[0].rsplit("/", 1)[-1], words[1:]) if words else ("", [])
    if name in ("env", "printenv"):
        return all(v.startswith("-") for v in values)
    if name in ("set", "export"):
        return all(v == "-p" for v in values)
    return name in ("declare", "typeset") and bool(values) and all(re.fullmatch(r"-[xp]+", v) for v in values)


_PROCESS_SECRET = lazy_compile(
    r"\bpass(?:w(?:or)?d|wd)?\b|secret|token|api[_-]?key|credential", re.IGNORECASE
)
"""What a search of the process list for secrets looks for (``ps aux | grep pass``; not ``passenger``)."""


_EVERY_COMMAND_LINE = lazy_compile(r"^/proc/(?:\*|\[0-9\]\*|\[1-9\]\*)/cmdline$")


def _lists_commands(words: list[str]) -> bool:
    """``ps aux``, ``ps -ef``, ``ps -eo args``, ``cat /proc/*/cmdline``: every process's command line,
    passwords given as arguments; ``lsof``: every process's open files (a ``.env``, a credentials file)."""
    words = _unwrapped(words)
    name = words[0].rsplit("/", 1)[-1] if words else ""
    if name == "lsof":
        return True
    if name in ("cat", "strings", "xargs") and any(_EVERY_COMMAND_LINE.match(w) for w in words[1:]):
        return True
    if name != "ps":
        return False
    return any(re.fullmatch(r"-?[a-zA-Z]*[aAex][a-zA-Z]*", v) for v in words[1:])


_PLAIN_WRAPPERS = frozenset(
    {"sudo", "doas", "nice", "ionice", "env", "timeout", "stdbuf", "nohup", "command"}
)


def _unwrapped(words: list[str]) -> list[str]:
    """The words from the program on: ``sudo tcpdump -A`` is ``tcpdump -A`` (wrappers, their options
    and numbers skipped; the pipelines here are read as written, not resolved)."""
    for index, word in enumerate(words):
        if word.rsplit("/", 1)[-1] not in _PLAIN_WRAPPERS and not word.startswith("-") and not word.isdigit():
            return words[index:]
    return []


def _prints_packets(words: list[str]) -> bool:
    """``tcpdump -A``/``-X``: every packet's payload printed as text, loopback's too (a local login)."""
    words = _unwrapped(words)
    if not words or words[0].rsplit("/", 1)[-1] != "tcpdump":
        return False
    return any(re.fullmatch(r"-[a-zA-Z]*[AX][a-zA-Z]*", v) for v in words[1:])


_SECRET_VARIABLE = lazy_compile(
    r"^(?!.*_(?:FILE|PATH|DIR|ID|NAME|URL|ENV|TYPE|HEADER|REGION|HOST|PORT|USER|USERNAME|LENGTH)$)"
    r"(?:\w*_)?(?:PASS(?:WORD|WD|PHRASE)?|SECRET|TOKEN|API_?KEY|ACCESS_KEY|PRIVATE_KEY|SECRET_KEY|CREDENTIALS?)"
    r"(?:_\w*)?$",
    re.IGNORECASE,
)
"""A variable named for a secret (``OPENAI_API_KEY``, ``GITHUB_TOKEN``, ``DB_PASSWORD``); not a path, an id or
a name that goes with one (``GITHUB_TOKEN_FILE``, ``AWS_ACCESS_KEY_ID``)."""
_EXPANDED = lazy_compile(r"\$(?:\{([A-Za-z_]\w*)(?:\}|:?-)|([A-Za-z_]\w*)(?![\w{]))")
"""``$NAME``, ``${NAME}``: the value itself (not ``${#NAME}``, ``${NAME:0:4}``, ``${NAME:+set}``)."""
_SHOWN_BY = frozenset({"head", "tail", "cat", "tee", "less", "more", "cut", "tr", "base64", "xxd", "od",
                       "rev", "fold", "sed", "awk", "wc"})  # fmt: skip
"""Filters whose output is still the value, or part of it, for the agent to read."""
_NOT_SHOWN = frozenset({"/dev/stdout", "/dev/stderr", "/dev/tty"})


def _secret_variable_printed(script: Script) -> Verdict | None:
    """``echo $OPENAI_API_KEY``, ``printenv GITHUB_TOKEN``: a secret of the session's environment printed
    where the agent reads it, as ``env | grep TOKEN`` does (asked: a developer checks a key this way).
    Fed to a program that uses it (``echo $TOKEN | gh auth login --with-token``), written to a file (the
    path rules judge that) or checked without its value (``${TOKEN:+set}``, ``${#TOKEN}``) it runs."""
    for pipeline in script.pipelines:
        for index, command in enumerate(pipeline):
            words = command.words
            name = (command.static(words[0]) or "").rsplit("/", 1)[-1] if words else ""
            if name in ("echo", "printf"):
                shown = [m.group(1) or m.group(2) for w in words[1:] for m in _EXPANDED.finditer(w)]
            elif name == "printenv":
                shown = [w for w in words[1:] if not w.startswith("-")]
            else:
                continue
            secret = next((v for v in shown if _SECRET_VARIABLE.match(v)), None)
            if secret is None:
                continue
            later = [c for c in pipeline[index + 1 :] if c.words]
            after = [(c.static(c.words[0]) or "").rsplit("/", 1)[-1] for c in later]
            written = any(
                r.op in (">", ">>", ">|") and r.fd in ("", "1") and r.target not in _NOT_SHOWN
                for c in pipeline[index:]
                for r in c.redirects
            )
            if written or any(program not in _SHOWN_BY for program in after):
                continue
            why = f"prints ${secret}, a secret of the environment, where the agent reads it"
            return Verdict(ENV_SECRETS, piece(command.text), why)
    return None


_FILE_PRINTERS = frozenset({"cat", "head", "tail", "strings", "more", "less", "tac"})


def _site_file_read(words: list[str]) -> str | None:
    """``cat /var/www/*/wp-config.php``: a web server's files printed (then searched, as grep reads them)."""
    return _printed(words, _site_files)


def _password_configuration_read(words: list[str]) -> str | None:
    """``cat /etc/mysql/my.cnf``: a service's password configuration printed (then searched for it)."""
    return _printed(words, _password_configuration)


def _printed(words: list[str], described: Callable[[str, str | None], str | None]) -> str | None:
    words = _unwrapped(words)
    if not words or words[0].rsplit("/", 1)[-1] not in _FILE_PRINTERS:
        return None
    return next((w for w in (described(v, None) for v in words[1:] if v[:1] not in ("-", "")) if w), None)


def _environment_searched(script: Script) -> Verdict | None:
    """``env | grep -iE 'key|token|secret|pass'``: the secrets the session holds, picked out of its
    environment (``env | grep -i proxy``, ``printenv | grep ^LANG`` look for settings: ordinary).

    Read from the pipelines as written: a bare ``env`` runs no program, so :func:`walk` has no stage
    for it."""
    for pipeline in script.pipelines:
        stages = [[command.static(word) or "" for word in command.words] for command in pipeline]
        for index, words in enumerate(stages[:-1]):
            if _lists_commands(words) and any(
                search and search[0] in _SEARCHERS and any(_PROCESS_SECRET.search(v) for v in search[1:])
                for search in stages[index + 1 :]
            ):
                text = piece(" | ".join(command.text for command in pipeline))
                why = "picks passwords and tokens out of every process's command line"
                return Verdict(ENV_SECRETS, text, why)
            site = _site_file_read(words)
            if site and any(
                search and search[0] in _SEARCHERS and any(secret_word(v) for v in search[1:] if v[:1] != "-")
                for search in stages[index + 1 :]
            ):
                text = piece(" | ".join(command.text for command in pipeline))
                return Verdict(CREDENTIALS, text, f"picks passwords, keys or tokens out of {site}")
            kept = _password_configuration_read(words)
            if kept and any(
                search
                and search[0] in _SEARCHERS
                and any(_PASSWORD_WORD.search(v) for v in search[1:] if v[:1] != "-")
                for search in stages[index + 1 :]
            ):
                text = piece(" | ".join(command.text for command in pipeline))
                return Verdict(ENV_SECRETS, text, f"picks the password out of {kept}")
            if _prints_packets(words) and any(
                search and search[0] in _SEARCHERS and any(_PROCESS_SECRET.search(v) for v in search[1:])
                for search in stages[index + 1 :]
            ):
                text = piece(" | ".join(command.text for command in pipeline))
                return Verdict(CREDENTIALS, text, "picks passwords and tokens out of the traffic it captures")
            if not _dumps_environment(words):
                continue
            for search in stages[index + 1 :]:
                if (
                    search
                    and search[0] in _SEARCHERS
                    and any(
                        _ENV_SECRET.search(v)
                        for v in search[1:]
                        if not v.startswith("-") or v.startswith("-e")
                    )
                ):
                    text = piece(" | ".join(command.text for command in pipeline))
                    return Verdict(
                        ENV_SECRETS,
                        text,
                        "picks the secrets (keys, tokens, passwords) out of the environment",
                    )
    for substitution in script.substitutions:  # $(env | grep TOKEN)
        found = _environment_searched(substitution.script)
        if found is not None:
            return found
    return None
