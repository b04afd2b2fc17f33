"""Tactic family ``domain attacks``: a Windows domain attacked from a Linux shell.

A prompt-injected agent on a developer's Linux machine (or a pentest box) reaches the company's
Active Directory with Python tools: impacket's scripts, certipy, bloodyAD, bloodhound-python,
Responder. One table (:data:`VERBS`) names each tool by what it does to the domain, whatever
spelling runs it (``impacket-getST``, ``getST.py``, ``python3 /usr/share/doc/python3-impacket/
examples/getST.py``, ``certipy-ad``, ``./kerbrute_linux_amd64``):

- ``enumerate``: another host's accounts, groups, shares, SPNs, delegation or certificate
  templates listed (``bloodhound-python -c All``, ``GetADUsers.py``, ``certipy find``, ``bloodyAD
  get``, ``rpcclient -U "" -N DC``, ``smbclient -N -L //DC``, an anonymous or account-hunting
  ``ldapsearch`` of another server): :data:`~agentbus.guards.verdict.SERVICE_ATTACK`, asked, as
  ``enum4linux`` is;
- ``execute``: a command run on another Windows host with an account's password (``psexec.py``,
  ``wmiexec.py``, ``evil-winrm``, ``winexe``, an RDP client):
  :data:`~agentbus.guards.verdict.REMOTE_ACCESS`, asked (a developer's ``ssh host cmd`` stays allowed:
  a Windows VM of one's own is reached the same way, and a person can say so);
- ``steal``: credential material requested, forged, dumped, relayed or poisoned for (Kerberoasting and
  AS-REP roasting, tickets forged or requested on another's behalf, certificates abused, NTLM relays and
  poisoners, coercion, LAPS and gMSA passwords read, directory rights rewritten to take an account):
  :data:`~agentbus.guards.verdict.CREDENTIALS`, blocked.

Whatever the tool, a hash or a ticket handed to it (``-hashes :NT``, ``-H NT``, ``/pth:NT``,
``--pw-nt-hash``, ``-aesKey``, ``-k -no-pass`` or ``KRB5CCNAME=x.ccache``: pass-the-hash or
pass-the-ticket) is credential use no coding task has: blocked. Tools with subcommands are judged
by the subcommand (``certipy find`` enumerates, ``certipy req`` steals; ``bloodyAD get`` reads,
``bloodyAD set``/``add``/``remove`` rewrite the directory). ``kinit``, ``klist`` and ``ldapsearch``
of the project's own server and ``smbclient //nas/share -U me`` are not judged here; installing a
tool (``pip install impacket``) runs none of it; help and version send nothing.
"""

from __future__ import annotations

import posixpath
import re

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..hosts import named_hosts, only_this_machine
from ..programs import Invocation
from ..verdict import CREDENTIALS, REMOTE_ACCESS, SERVICE_ATTACK, Verdict
from .bait_files import BAIT_NAME

__all__ = ["PROGRAMS", "PYTHONS", "judge"]

ENUMERATE, EXECUTE, STEAL = "enumerate", "execute", "steal"

VERBS: dict[str, str] = {
    **dict.fromkeys((
        "bloodhound-python", "bloodhound-ce-python", "bloodhound", "rusthound", "rusthound-ce",
        "ldapdomaindump", "windapsearch", "adidnsdump", "getadusers", "getadcomputers", "lookupsid",
        "samrdump", "rpcdump", "netview", "finddelegation", "ldeep", "smbcrawler", "fgpp", "ntlmrecon",
        "ldap-scanner", "ldaprelayscan", "manspider", "pywerview", "godap", "smbclient-ng", "smbclient",
        "rpcclient", "ldapsearch", "sccmhunter", "certipy", "bloodyad", "kerbrute", "net",
        "impacket-smbclient",
    ), ENUMERATE),
    **dict.fromkeys((
        "psexec", "smbexec", "wmiexec", "atexec", "dcomexec", "wmiquery", "evil-winrm", "evil-winrm-py",
        "winexe", "xfreerdp", "xfreerdp3", "wlfreerdp", "rdesktop", "goexec", "mssqlclient",
    ), EXECUTE),
    **dict.fromkeys((
        "getnpusers", "getuserspns", "targetedkerberoast", "ticketer", "getst", "gettgt", "gettgtpkinit",
        "getnthash", "ticketconverter", "kirbi2john", "getpac", "goldenpac", "raisechild", "keylistattack",
        "nopac", "sam_the_admin", "ntlmrelayx", "krbrelayx", "smbrelayx", "multirelay", "responder", "mitm6",
        "pretender", "petitpotam", "coercer", "dfscoerce", "shadowcoerce", "printerbug", "dementor",
        "privexchange", "addcomputer", "rbcd", "dacledit", "owneredit", "addspn", "dnstool", "aclpwn",
        "passthecert", "changepasswd", "pywhisker", "gmsadumper", "pylaps", "lapsdumper", "laps",
        "getlapspassword",
        "gpp-decrypt", "get-gpppassword", "pre2k", "sccmwtf", "pywsus", "zerologon_tester",
        "cve-2020-1472-exploit", "set_empty_pw", "dploot", "donpapi", "secretsdump", "lsassy", "dpapi",
        "pth-toolkit",
    ), STEAL),
}  # fmt: skip
"""Each domain tool, by its normalised name (lower case, no ``impacket-``/``pth-`` prefix, no ``.py``),
and what it does: ``enumerate`` (asked), ``execute`` (asked), ``steal`` (blocked). Samba's and
OpenLDAP's clients (:data:`_CLIENTS`) are judged by their arguments (:func:`_client`); the tools with
subcommands (:data:`_SUBCOMMANDS`) by the subcommand; impacket's ``smbclient.py`` is its own entry."""

PYTHONS = lazy_compile(r"^(?:python[\d.]*|pypy[\d.]*)$")
"""Interpreters a tool's script is run with (``python3 gMSADumper.py``, ``python3 -m bloodhound``)."""

_CLIENTS = frozenset({"smbclient", "rpcclient", "ldapsearch", "net"})
"""Samba's and OpenLDAP's clients: a developer's tools too, judged only in the ways an attacker uses them."""

PROGRAMS = frozenset({*VERBS, "certipy-ad"} - {"impacket-smbclient"})
"""The names the family is consulted for, in any case and with ``.py`` or not (``GetUserSPNs.py``);
besides them, Python running a script, and the names ``impacket-``, ``pth-`` and ``kerbrute`` start."""

_SUFFIX = lazy_compile(r"(?:\.py|_(?:linux|darwin|windows)_(?:amd64|386|arm64|arm)(?:\.exe)?)$")
_HASH_OPTIONS = frozenset(
    {"-hashes", "--hashes", "-nthash", "--nthash", "-aesKey", "--aes-key", "--pw-nt-hash"}
)
"""Options that hand a tool an NT hash or a Kerberos key instead of a password (``-H`` too, given a hash)."""
_HASH = lazy_compile(r"^(?:[0-9a-fA-F]{32})?:?[0-9a-fA-F]{32}$")
_HASH_LOGINS = frozenset({"evil-winrm", "evil-winrm-py"})
"""Tools whose ``-H`` is always the account's NT hash, however it is written (``-H "$NT"``, ``-H HASH``)."""
_INFO = frozenset({"-h", "--help", "-help", "--version", "-V", "version", "help"})
_SUBCOMMANDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "certipy": (frozenset({"find", "parse", "cert"}),
                frozenset({"req", "auth", "shadow", "forge", "ca", "template", "relay", "account"})),
    "bloodyad": (frozenset({"get"}), frozenset({"set", "add", "remove"})),
    "sccmhunter": (frozenset({"find", "smb", "show"}), frozenset({"http", "mssql", "dpapi", "admin"})),
    "kerbrute": (frozenset({"userenum"}), frozenset({"passwordspray", "bruteuser", "bruteforce"})),
}  # fmt: skip
"""Per tool with subcommands: the subcommands that read, and those that take credentials or rewrite the
directory to take an account (``certipy req``, ``bloodyAD set password``)."""
_SECRET_ATTRIBUTES = lazy_compile(
    r"(?i)ms-mcs-admpwd\b|mslaps-(?:encrypted)?password|msds-managedpassword|unicodepwd|\bgmsa\b"
)
"""Directory attributes that hold a password: LAPS, gMSA, an account's own."""
_RPC_WRITES = lazy_compile(r"(?i)setuserinfo|chgpasswd|createdomuser|deletedomuser|addmem|setdompwinfo")
_LDAP_HUNTS = lazy_compile(
    r"(?i)serviceprincipalname|1\.2\.840\.113556\.1\.4\.80[34]|admincount|msds-allowedtodelegateto"
    r"|msds-allowedtoactonbehalf|trustedfordelegation"
)
"""An LDAP filter or attribute that hunts a Windows domain's accounts to attack: SPNs to roast, accounts
with pre-authentication off or delegation set, admins (listing users or groups with an account is discovery,
as ART's T1069 has it)."""


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """The attack on a Windows domain in this command, or None."""
    tool, values = _tool(invocation.name, _values(invocation))
    if tool is None or (not values and tool != "mitm6") or (len(values) == 1 and values[0] in _INFO):
        return None
    if tool == "responder" and not {"-I", "--interface"} & set(values):
        return None  # a project's own responder.py; Responder poisons only on an interface
    if _credential_material(invocation, values, tool):
        why = f"{tool} is handed an NT hash, a Kerberos key or a ticket instead of a password (pass-the-hash)"
        return _verdict(CREDENTIALS, invocation, why)
    if tool in _CLIENTS:
        return _client(invocation, tool, values)
    verb = _subcommand_verb(tool, values) or VERBS[tool]
    if verb != STEAL and only_this_machine(named_hosts(values)):
        return None  # ART's ldapdomaindump of 127.0.0.1, a Windows container of one's own on localhost
    if verb == STEAL:
        why = f"{tool} takes credentials from a Windows domain (roasting, forged tickets, relays, rights)"
        return _verdict(CREDENTIALS, invocation, why)
    if verb == EXECUTE:
        if tool == "mssqlclient":
            return None  # a database client given a password; what it is told to run is .databases'
        why = f"{tool} runs commands on, or opens a desktop of, another (Windows) machine"
        return _verdict(REMOTE_ACCESS, invocation, why)
    why = f"{tool} lists a Windows domain's accounts, shares or services to attack"
    return _verdict(SERVICE_ATTACK, invocation, why)


def _tool(name: str, values: list[str]) -> tuple[str | None, list[str]]:
    """The domain tool run and its arguments: by name, or as a script (or module) Python runs."""
    if PYTHONS.match(name):
        index = next((i for i, v in enumerate(values) if v == "-m" or not v.startswith("-")), None)
        if index is None or (values[index] == "-m" and index + 1 >= len(values)):
            return None, values
        if values[index] == "-m":
            name, values = values[index + 1].rpartition(".")[2], values[index + 2 :]
        else:
            name, values = posixpath.basename(values[index]), values[index + 1 :]
            if not name.lower().endswith(".py") and (name.lower() not in VERBS or name.lower() in _CLIENTS):
                return None, values  # python3 ldapdomaindump (a checkout's directory), not python3 net
    lowered = name.lower()
    if lowered in ("impacket-smbclient", "smbclient.py"):
        return "impacket-smbclient", values
    lowered = _SUFFIX.sub("", lowered)
    for prefix in ("impacket-", "pth-"):
        if lowered.startswith(prefix):
            lowered = lowered[len(prefix) :]
    if lowered == "certipy-ad":
        lowered = "certipy"
    if lowered.startswith("kerbrute"):
        lowered = "kerbrute"
    if name.lower().startswith("pth-") and lowered not in VERBS:
        lowered = "pth-toolkit"  # pth-wmis, pth-curl, pth-sqsh: the pass-the-hash toolkit's other programs
    return (lowered if lowered in VERBS else None), values


def _credential_material(invocation: Invocation, values: list[str], tool: str) -> bool:
    """A hash, key or ticket used instead of a password: ``-hashes :NT``, ``-H NT``, ``/pth:NT``,
    ``-k -no-pass``, ``KRB5CCNAME=x.ccache`` before an attack tool, Samba's clients wrapped as ``pth-*``."""
    if invocation.name.lower().startswith("pth-"):
        return True
    if tool not in _CLIENTS and any(assignment.startswith("KRB5CCNAME=") for assignment in invocation.env):
        return True
    for index, value in enumerate(values):
        option, _, attached = value.partition("=")
        if option in _HASH_OPTIONS or value.lower().startswith("/pth:"):
            return True
        given = attached or (values[index + 1] if index + 1 < len(values) else "")
        if option in ("-H", "--hash") and (_HASH.match(given) or (tool in _HASH_LOGINS and given)):
            return True
    return "-k" in values and "-no-pass" in values


def _subcommand_verb(tool: str, values: list[str]) -> str | None:
    """What a tool with subcommands does, by its first subcommand word (``certipy req``, ``bloodyAD ...
    set password``); a read of a password attribute (LAPS, gMSA) steals."""
    if tool in _SUBCOMMANDS:
        reads, takes = _SUBCOMMANDS[tool]
        word = next((v.lower() for v in values if v.lower() in reads or v.lower() in takes), "")
        if word in takes or _SECRET_ATTRIBUTES.search(" ".join(values)):
            return STEAL
        return ENUMERATE
    if tool == "ldeep" and _SECRET_ATTRIBUTES.search(" ".join(values)):
        return STEAL
    return None


def _client(invocation: Invocation, tool: str, values: list[str]) -> Verdict | None:
    """Samba's and OpenLDAP's clients, in the ways an attacker uses them on another host."""
    hosts = [host for host in map(_host_of, values) if host]
    if tool == "ldapsearch":
        hosts += [
            values[i + 1]
            for i, v in enumerate(values[:-1])
            if v in ("-h", "-H") and "://" not in values[i + 1]
        ]
    if only_this_machine(hosts):
        return None
    if tool == "rpcclient":
        commands = " ".join(values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-c", "--command"))
        if _RPC_WRITES.search(commands):
            return _verdict(CREDENTIALS, invocation, "rpcclient resets or creates a domain account")
        return _verdict(
            SERVICE_ATTACK, invocation, "rpcclient lists another host's accounts, groups or policy"
        )
    if tool == "smbclient":
        return _bait(invocation, values) or _smb_listing(invocation, values)
    if tool == "net":
        if values[:1] == ["rpc"] and "password" in values:
            return _verdict(CREDENTIALS, invocation, "net rpc password resets a domain account's password")
        return None
    return _ldap_hunt(invocation, values, remote=bool(hosts))


def _host_of(value: str) -> str:
    """The host an argument names (``//10.0.0.5/share``, ``\\\\h\\s``, ``ldap://dc:389``), or ''."""
    slashed = value.replace("\\", "/")
    if slashed.startswith("//"):
        return slashed[2:].partition("/")[0]
    scheme, sep, rest = value.partition("://")
    if sep and scheme.lower() in ("ldap", "ldaps", "smb", "gc"):
        address = rest.partition("/")[0]
        return address.rpartition(":")[0] if address.count(":") == 1 else address
    return ""


_ANONYMOUS = frozenset({"", "%", "guest", "guest%", "anonymous", "null"})


def _bait(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``smbclient //h/share -c 'put @Inventory.scf'``: a shortcut, shell command or internet shortcut file
    (``.scf``, ``.lnk``, ``.url``, ``.library-ms``, ``.searchConnector-ms``, ``desktop.ini``) planted on
    another host's share: its icon points at the attacker's server, so whoever opens the folder in Windows
    Explorer sends their NTLM hash there (to Responder). No project ships those to a share."""
    commands = " ".join(values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-c", "--command"))
    commands += " " + " ".join(v.partition("=")[2] for v in values if v.startswith("--command="))
    for found in _BAIT.finditer(commands):
        name = found.group(1).strip("\"'")
        if BAIT_NAME.search(name):
            why = f"smbclient plants {name} on another host's share: its viewers' NTLM hashes are sent away"
            return _verdict(CREDENTIALS, invocation, why)
    return None


_BAIT = lazy_compile(
    r"\bm?put\s+(\"[^\"]{0,300}\"|'[^']{0,300}'|[^\s;]+)",
)
"""A file ``put``/``mput`` sends (quoted names bounded: the search stays linear in the commands' length)."""


def _smb_listing(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``smbclient -N -L //DC``, ``smbclient -U '' //h/share``, ``smbclient -L //h``: another host's shares
    listed, or opened with a null or guest session; ``smbclient -U bob //10.0.0.5/users``, ``smbclient -U bob
    //fs01/C$``: an administrative or domain share of another host opened, or a share of a machine known
    by its address alone (a scanned host's). ``smbclient //nas/projects -U me``, a named server's share, is
    not judged, nor the machine itself."""
    users = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-U", "--user")]
    users += [v.partition("=")[2] for v in values if v.startswith("--user=")]
    anonymous = "-N" in values or "--no-pass" in values or any(u.lower() in _ANONYMOUS for u in users)
    if anonymous or any(v == "-L" or v.startswith("--list") for v in values):
        how = "with a null or guest session" if anonymous else "as a list"
        return _verdict(SERVICE_ATTACK, invocation, f"smbclient opens another host's shares {how}")
    share = next((v for v in values if _host_of(v) and not v.startswith(("-", "smb:"))), None)
    if share is None:
        return None
    host, _, name = share.replace("\\", "/").lstrip("/").partition("/")
    name = name.strip("/")
    if name.endswith("$") or name.upper() in _DOMAIN_SHARES:
        how = "an administrative or domain share"
    elif _ADDRESS.fullmatch(host):
        how = "a machine known by its address alone"
    else:
        return None  # smbclient //nas/projects -U me: a named server's share
    return _verdict(SERVICE_ATTACK, invocation, f"smbclient opens {share} of another host, {how}")


_DOMAIN_SHARES = frozenset({"SYSVOL", "NETLOGON"})
"""A domain controller's shares: its policies and logon scripts (where Group Policy passwords were kept)."""
_ADDRESS = lazy_compile(r"\d{1,3}(?:\.\d{1,3}){3}|\[?[0-9a-fA-F:]+:[0-9a-fA-F:]*\]?")
"""A host given as an IPv4 or IPv6 address: a scanned machine's, where a server of one's own has a name."""


_DOMAIN_ROOT = lazy_compile(r"^\s*(?:dc=[^,=]+\s*,\s*)*dc=[^,=]+\s*$", re.IGNORECASE)
"""A search base that is a whole domain (``DC=corp,DC=local``): every object in it."""
_WINDOWS_ACCOUNT = lazy_compile(r"^[^=,@\\\s]+@[\w.-]+$|^[\w.-]+\\[^\\\s]+$")
"""A Windows logon name (``svc@corp.local``, ``CORP\\svc``), not a directory name (``cn=admin,dc=x``)."""


def _domain_dumped(values: list[str], binds: list[str]) -> bool:
    """``ldapsearch -x -H ldap://10.0.0.5 -D 'svc@corp.local' -w 'Pass' -b 'DC=corp,DC=local'``: a Windows
    account's password (one found on the way: in a config file, a share) used to read a whole domain,
    which is discovery of the domain to attack (users, groups, descriptions holding passwords). A
    directory's administrator bound by name (``-D cn=admin,dc=example,dc=org``) is an LDAP server's own."""
    bases = [values[i + 1] for i, v in enumerate(values[:-1]) if v == "-b"]
    bases += [v[2:] for v in values if v.startswith("-b") and len(v) > 2]
    password = any(v in ("-w", "-W", "-y") or (v.startswith("-w") and len(v) > 2) for v in values)
    return (
        password
        and any(_WINDOWS_ACCOUNT.match(b) for b in binds)
        and any(_DOMAIN_ROOT.match(b) for b in bases)
    )


def _ldap_hunt(invocation: Invocation, values: list[str], *, remote: bool) -> Verdict | None:
    """``ldapsearch -x -H ldap://DC -b DC=corp,DC=local`` (an anonymous bind to another server), a filter
    for SPNs, pre-authentication off, admins or every account; LAPS and gMSA passwords read (blocked)."""
    text = " ".join(values)
    if _SECRET_ATTRIBUTES.search(text):
        return _verdict(CREDENTIALS, invocation, "ldapsearch reads LAPS or gMSA passwords from a directory")
    binds = [values[i + 1] for i, v in enumerate(values[:-1]) if v == "-D"]
    passwords = [values[i + 1] for i, v in enumerate(values[:-1]) if v == "-w"]
    # no bind name, a guest's, or a name with an empty password (RFC 4513's unauthenticated bind)
    unauthenticated = all(not b or b.lower() in _ANONYMOUS for b in binds) or "" in passwords
    anonymous = remote and "-x" in values and unauthenticated
    if remote and _domain_dumped(values, binds):
        why = "ldapsearch dumps another server's Windows domain from its root with an account's password"
        return _verdict(SERVICE_ATTACK, invocation, why)
    if anonymous or _LDAP_HUNTS.search(text):
        why = (
            "ldapsearch lists another server's accounts, SPNs or delegation (anonymously, or to attack them)"
        )
        return _verdict(SERVICE_ATTACK, invocation, why)
    return None
