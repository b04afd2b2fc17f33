"""Tactic family ``identities``: acting as another account, and administering the directory of accounts.

ACCOUNT (asked by default), beside the local user and group tools of :mod:`.persistence`:

- running as another (not root) account: ``su vscode -c CMD``, ``su - postgres``, ``runuser -u app --
  CMD``, ``sudo -u postgres psql``, ``doas -u app CMD``, ``sudo -iu dev``: that account's files, keys,
  shell profile and services are the command's. ``su`` and ``sudo -u root`` (``-u#0``) to root are
  :mod:`.privilege`'s (a root shell, or code run as root);
- Kerberos administration: ``kadmin``/``kadmin.local`` (principals created, deleted, keys extracted
  into keytabs), ``kdb5_util`` (the KDC's database), ``kprop``/``kpropd`` (it copied to other KDCs),
  ``kpasswd``, ``ktutil`` (keytabs written), ``ktpass``;
- directory administration: ``ldapadd``/``ldapmodify``/``ldapdelete``/``ldappasswd``, FreeIPA's
  ``ipa user-add …``, ``samba-tool user create …``.

A ticket for oneself (``kinit``, ``klist``, ``kdestroy``, ``kvno``) and the read-only queries
(``kadmin -q getprinc``, ``ipa user-show``, ``samba-tool user list``, ``ldapsearch``) are ordinary.
"""

from __future__ import annotations

from ..findings import finding, static_args
from ..programs import ROOT_WRAPPERS, Invocation, Layer, is_root_user, runs_as, wrapper_option
from ..verdict import ACCOUNT, Verdict

__all__ = ["judge"]

_SU_VALUES = frozenset({"-c", "--command", "-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w",
                        "--whitelist-environment", "--session-command"})  # fmt: skip
_RUNUSER_VALUES = _SU_VALUES | {"-u", "--user"}
_ROOT = frozenset({"root", "0", "toor"})
_KADMIN_READS = frozenset({"getprinc", "get_principal", "getprincs", "listprincs", "get_principals",
                           "list_principals", "getpol", "get_policy", "getpols", "listpols", "get_policies",
                           "list_policies", "getprivs", "get_privs", "list_requests", "lr", "?",
                           "help"})  # fmt: skip
"""kadmin's queries that change nothing."""
_KERBEROS_ADMIN = frozenset({"kdb5_util", "kdb5_ldap_util", "kprop", "kpropd", "kpasswd", "ktutil", "ktpass",
                             "ldapadd", "ldapmodify", "ldapdelete", "ldapmodrdn", "ldappasswd"})  # fmt: skip
"""Programs whose every run changes accounts or their keys."""
_IPA_CHANGE = ("-add", "-mod", "-del", "-enable", "-disable", "-unlock", "-add-member", "-remove-member",
               "-add-principal", "-remove-principal", "-add-cert", "passwd")  # fmt: skip
_SAMBA_CHANGE = frozenset({"create", "add", "delete", "setpassword", "setexpiry", "enable", "disable",
                           "addmembers", "removemembers", "move", "rename", "unlock",
                           "setprimarygroup"})  # fmt: skip
_HELP = frozenset({"-h", "--help", "-V", "--version"})
_ONESELF = frozenset({"$USER", "${USER}", "$LOGNAME", "${LOGNAME}", "$(whoami)", "$(id -un)", "$(id -u -n)",
                      "`whoami`", "$SUDO_USER", "${SUDO_USER}"})  # fmt: skip
"""The user running the session (``sudo -u "$SUDO_USER" CMD`` gives root back): no other account."""


def _other_user(name: str, values: list[str | None]) -> str | None:
    """The account ``su``/``runuser`` switches to, when it is not root (root is the privilege family's);
    ``values`` are the static words (None: made at run time, ``su "$USERNAME"``: an account unknown)."""
    if _HELP & {v for v in values if v is not None}:
        return None
    takes_value = _RUNUSER_VALUES if name == "runuser" else _SU_VALUES
    index = 0
    while index < len(values):
        value = values[index]
        if value is None:
            return "named at run time"
        if value in ("-u", "--user") and name == "runuser" and index + 1 < len(values):
            user = values[index + 1]
            return None if user in _ROOT else user or "named at run time"
        if value in takes_value:
            index += 2
            continue
        if value == "--":
            return None
        if not value.startswith("-"):
            return None if value in _ROOT else value
        index += 1
    return None


def _administers(name: str, values: list[str]) -> str | None:
    """Why ``name`` changes accounts of a directory (Kerberos, LDAP, FreeIPA, Samba), or None."""
    if values and set(values) <= _HELP:
        return None
    if name in ("kadmin", "kadmin.local"):
        queries = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-q", "--query")]
        if queries and all(q.split()[:1] and q.split()[0] in _KADMIN_READS for q in queries):
            return None
        return f"{name} administers Kerberos principals and their keys"
    if name in _KERBEROS_ADMIN:
        return f"{name} changes accounts, their passwords or their keys"
    words = [v for v in values if not v.startswith("-")]
    if name == "ipa" and words and words[0].endswith(_IPA_CHANGE):
        return f"ipa {words[0]} changes an account of the directory"
    if (
        name == "samba-tool"
        and len(words) > 1
        and words[0] in ("user", "group", "computer", "contact")
        and (words[1] in _SAMBA_CHANGE)
    ):
        return f"samba-tool {words[0]} {words[1]} changes an account of the domain"
    return None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """Another account acted as, or a directory of accounts administered: asked."""
    name = invocation.name
    values = static_args(invocation)
    own = invocation.options_of("runuser")
    if own is not None:  # runuser -u app -- CMD: resolved as a wrapper, like sudo
        user = _other_user("runuser", list(own))
        if user is not None:
            return finding(
                ACCOUNT, invocation, f"runs as the account {user}: its files, keys and shell profile"
            )
    user = (
        wrapper_option(Layer(name, tuple(values)), "u", "--user")
        if name in ROOT_WRAPPERS
        else runs_as(invocation)
    )
    if user is not None and not is_root_user(user) and user.strip("\"'") not in _ONESELF:
        # sudo -u postgres psql; sudo -iu dev: that account's shell
        return finding(ACCOUNT, invocation, f"runs as the account {user}: its files, keys and shell profile")
    if name in ("su", "runuser"):
        user = _other_user(name, [invocation.command.static(word) for word in invocation.args])
        if user is not None:
            return finding(
                ACCOUNT, invocation, f"runs as the account {user}: its files, keys and shell profile"
            )
        return None
    why = _administers(name, values)
    return None if why is None else finding(ACCOUNT, invocation, why)
