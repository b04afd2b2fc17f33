"""The attacker's tactics beyond seed 000, one module per family, judged per command.

Each module has ``judge(invocation, home)``: the first finding of its family in
one simple command (a :class:`~agentbus.guards.verdict.Verdict` whose category is
one of :data:`~agentbus.guards.verdict.TACTICS`), or None. Some also have
``judge_script(script, home)`` for what spans statements (a payload downloaded in
one statement and run in the next). They find; the policy (:mod:`..policy`)
decides whether a finding blocks, asks or is allowed, so a judge never consults it.

- :mod:`.persistence`: scheduled tasks, services, accounts, shell profiles, hidden start-up code;
- :mod:`.privilege`: setuid bits, capabilities, sudoers and PAM, container escapes, installs as root;
- :mod:`.impairment`: logs and history destroyed, firewalls and security tools turned off, root CAs;
- :mod:`.credentials`: hunting for keys and passwords, process memory, cloud metadata, browser stores;
- :mod:`.impact`: shutdown and reboot, killing everything, destroying or encrypting the user's data;
- :mod:`.process_hunts`: processes searched for and killed by what marks them as another's (other miners,
  programs in /tmp, kernel-thread impostors, a peer's connections);
- :mod:`.miner_setups`: a miner's config rewritten, its program renamed, a pool and a wallet given by
  their variables;
- :mod:`.exfiltration`: archives sent away, payloads downloaded and run;
- :mod:`.file_servers`: SMB, FTP, TFTP, WebDAV and upload servers opening a directory to the network;
- :mod:`.dns_loops`: encoded or secret data looked up a chunk at a time as DNS names;
- :mod:`.uploads`: files named only at run time, or from outside the project, sent away (asked);
- :mod:`.raw_transfers`: a file fetched over bash's ``/dev/tcp`` and kept, or served by a netcat listener
  to whoever connects (asked);
- :mod:`.password_prompts`: a password typed at a silent prompt (``read -s``) kept in a file;
- :mod:`.collection`: the screen, microphone, camera, clipboard and packets captured, keyloggers,
  sensitive places packed into archives;
- :mod:`.macos`: AppleScript (``osascript``) and the programs only macOS has, across every tactic;
- :mod:`.cloud`: the cloud and cluster CLIs (``aws``, ``gcloud``, ``az``, ``kubectl`` ...), across tactics;
- :mod:`.tunnels`: tunnels, proxies, shared terminals and remote desktops that open the machine;
- :mod:`.pivots`: EarthWorm-style relays, Ligolo-ng and rpivot known by their modes and options, whatever
  the binary is called;
- :mod:`.cracking`: passwords guessed against a login or cracked from hashes;
- :mod:`.scanning`: address ranges swept for open ports (masscan, zmap, pnscan; nmap of wide ranges; hping3);
- :mod:`.port_probes`: many ports of another machine probed through bash's ``/dev/tcp``, or a connection
  to one opened by the shell and kept for later calls (asked);
- :mod:`.service_attacks`: another machine's service probed and attacked (web fuzzers, sqlmap, nikto,
  user and share enumeration, path traversal URLs);
- :mod:`.domain_attacks`: a Windows domain attacked from Linux (impacket, certipy, bloodyAD, Responder):
  its accounts listed, commands run on its hosts, its credentials roasted, forged or relayed;
- :mod:`.bait_files`: files that send their viewers' NTLM hashes away, generated or put on a share;
- :mod:`.domain_recon`: a domain's subdomains listed and fed straight to a prober (asked);
- :mod:`.dependency_lists`: an installed application's requirements file written (asked);
- :mod:`.rootkits`: a loaded kernel rootkit given its orders (Diamorphine's signals, ``reptile_cmd``);
- :mod:`.rootkit_sources`: a published rootkit's source fetched (asked) or built;
- :mod:`.exploit_sources`: a published exploit's repository fetched (asked) or built, by its name;
- :mod:`.searched_files`: each file a search found encrypted, handed to the script itself or back-dated;
- :mod:`.irc_bots`: scripts told to join an IRC server or channel (a botnet's command channel, asked);
- :mod:`.unseen`: code the guard cannot see: values made at run time run as commands, ``enable -f``, ``fc``;
- :mod:`.hidden_runs`: programs run from shared memory or a hidden directory of ``/tmp`` (asked);
- :mod:`.disguised_runs`: a program under a hidden name of its own, or named as a system daemon in a hidden
  folder (``./.redtail``, ``nohup ./.123/sshd &``), or named at run time in ``/tmp`` (asked);
- :mod:`.temp_scripts`: a script run from ``/tmp``, ``/var/tmp`` or ``/dev/shm`` not there to read (asked);
- :mod:`.databases`: a database server made to run commands, write web pages, load libraries, or give up
  its password table;
- :mod:`.redis_abuse`: a Redis server told to write its dump file elsewhere, commands fed to a host list;
- :mod:`.volumes`: disks and volumes mounted, attached, resized or unlocked (asked);
- :mod:`.system_config`: the machine's own configuration changed: the rest of ``/etc``, ``git config
  --system``, ``update-alternatives``, locale, host name, kernel settings, routes (asked);
- :mod:`.identities`: another account acted as (``su USER -c``), Kerberos and directory administration;
- :mod:`.agent_controls`: another AI coding agent let loose: started with its approvals off, its approval
  settings written off, an MCP server added to its config (asked);
- :mod:`.ci_files`: a CI runner's ``$GITHUB_ENV``/``$GITHUB_PATH`` (and ``::set-env``) made to load code in
  the job's later steps;
- :mod:`.beacons`: the user or host name, or a secret variable, sent away in a URL or a DNS name;
- :mod:`.forge_settings`: a GitHub repository made public, or given a workflow, through the API (asked);
- :mod:`.checkout_tokens`: the token a CI checkout leaves in ``.git/config`` (its extraheader) read back;
- :mod:`.access_tokens`: the tokens ``gh auth token``, ``gcloud auth print-access-token`` ... print,
  judged by where they go (a login, the provider's own hosts; or printed, sent elsewhere).

The families whose every finding names a program (:data:`FAMILIES`: ``cloud``, ``macos``,
``tunnels`` ...) are imported when a command names one of their programs: Claude Code starts
a hook process per tool call, and a ``git status`` has no use for the cracking tools' tables.
What each family judges is listed here (a test compares it with the family's own tables and
checks on every corpus command that a family not consulted would have found nothing), so a
new program judged by one of them goes into its :class:`Family` too.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType

from ..parse import Script
from ..programs import Invocation
from ..verdict import Verdict
from . import (
    agent_controls,
    bait_files,
    checkout_tokens,
    collection,
    credentials,
    dependency_lists,
    disguised_runs,
    domain_recon,
    exfiltration,
    exploit_sources,
    file_servers,
    hidden_runs,
    impact,
    impairment,
    irc_bots,
    miner_setups,
    password_prompts,
    persistence,
    pivots,
    port_probes,
    privilege,
    process_hunts,
    raw_transfers,
    rootkit_sources,
    searched_files,
    system_config,
    temp_scripts,
    unseen,
    uploads,
)

__all__ = ["FAMILIES", "JOHN_CONVERTERS", "JUDGES", "SCRIPT_JUDGES", "Family", "judges", "script_judges"]

InvocationJudge = Callable[[Invocation, str], "Verdict | None"]
ScriptJudge = Callable[[Script, str], "Verdict | None"]


JOHN_CONVERTERS = ("2john", "2john.py", "2john.pl")
"""How John the Ripper's converters end (``zip2john``, ``ansible2john``, ``keepass2john.py``): each turns a
protected file into a hash to crack."""


class Family:
    """A family imported on demand: the programs (``programs``, separated by spaces), wrappers,
    name prefixes or environment assignments without which its judges find nothing."""

    __slots__ = ("any_spelling", "env", "name", "prefixes", "programs", "suffixes", "wrappers")

    def __init__(
        self,
        name: str,
        programs: str,
        *,
        prefixes: tuple[str, ...] = (),
        suffixes: tuple[str, ...] = (),
        wrappers: Iterable[str] = (),
        env: bool = False,
        any_spelling: bool = False,
    ) -> None:
        self.name = name
        self.programs = frozenset(programs.split())
        self.prefixes = prefixes
        """Program names that start so (``python3.12``, ``mount.cifs``)."""
        self.suffixes = suffixes
        """Program names that end so (John the Ripper's converters: ``ansible2john``, ``rar2john.py``)."""
        self.wrappers = frozenset(wrappers)
        """Wrappers it judges whatever they run (``torsocks CMD``, ``sudo -u USER CMD``)."""
        self.env = env
        """Whether it judges a command's environment assignments whatever the program."""
        self.any_spelling = any_spelling
        """Whether its programs go by any case and with ``.py`` too (``GetUserSPNs.py``, ``getuserspns``)."""

    def consulted_by(self, invocation: Invocation) -> bool:
        """Whether ``invocation`` may give this family a finding (if not, its judge returns None)."""
        name = invocation.name
        return (
            name in self.programs
            or (self.any_spelling and _spelled(name) in self.programs)
            or (bool(self.prefixes) and name.startswith(self.prefixes))
            or (bool(self.suffixes) and name.endswith(self.suffixes))
            or (self.env and bool(invocation.env))
            or (bool(self.wrappers) and not self.wrappers.isdisjoint(invocation.wrappers))
        )

    def module(self) -> ModuleType:
        """The family's module, imported on first use."""
        qualified = f"{__name__}.{self.name}"
        return sys.modules.get(qualified) or importlib.import_module(qualified)

    def __repr__(self) -> str:
        return f"Family({self.name!r})"


def _spelled(name: str) -> str:
    """A script's name as a family lists it: lower case, without ``.py`` (``GetUserSPNs.py``)."""
    lowered = name.lower()
    return lowered[:-3] if lowered.endswith(".py") else lowered


ACCESS_TOKENS = Family(
    "access_tokens",
    "aws az doctl gcloud gh npm pnpm yarn",
)
BEACONS = Family(
    "beacons",
    "curl curlie dig drill host http httpie https kdig nslookup ping wget xh",
)
CI_FILES = Family(
    "ci_files",
    "echo printf",
)
FORGE_SETTINGS = Family(
    "forge_settings",
    "gh",
)
CLOUD = Family(
    "cloud",
    "aliyun aws aws-okta aws-sso-util aws-vault az bq doctl gcloud granted gsutil helm ibmcloud ic kubectl "
    "oc oci pacu saml2aws stratus terraform tofu",
    prefixes=("python", "pypy", "ipython"),
)
_RELEASED_CRACKERS = ("python", "kerbrute", "hydra", "medusa", "ncrack", "hashcat", "sucrack", "legba",
                      "patator", "crowbar", "brutespray", "o365spray", "fcrackzip", "pdfcrack", "rarcrack",
                      "bkcrack", "aircrack-ng")  # fmt: skip
"""Python, and the guessers and crackers run by their release's name (``kerbrute_linux_amd64``,
``hashcat-6.2.6``): cracking's judge strips the platform and version."""
CRACKING = Family(
    "cracking",
    "aircrack-ng aireplay-ng airbase-ng airgeddon airmon-ng asleap bkcrack brutespray bully chntpw cme "
    "cowpatty crackmapexec crowbar dscl eaphammer eapmd5pass fcrackzip fluxion hashcat hashcat-legacy "
    "hostapd-wpe hydra john jwt-cracker jwt_tool jwt_tool.py jwtcrack kerbrute keychain2john legba mdk3 "
    "mdk4 medusa ncrack netexec nmap nxc o365spray oclhashcat office2john ophcrack patator pdfcrack "
    "pixiewps psk-crack pw-inspector rarcrack rcracki_mt "
    "reaver spray ssh2john ssh2john.py sucrack thc-pptp-bruter unshadow wifiphisher wifite "
    "xhydra zip2john hcxpcaptool hcxpcapngtool hcxpsktool wfuzz ffuf chmod",
    prefixes=_RELEASED_CRACKERS,
    suffixes=JOHN_CONVERTERS,
)
DATABASES = Family(
    "databases",
    "bcp clickhouse-client cockroach duckdb impacket-mssqlclient isql java litecli mariadb mongo mongosh "
    "mssqlclient mssqlclient.py mycli mysql mysqlsh osql pgcli psql sqlcmd sqlite sqlite3 sqlplus usql",
)
DOMAIN_ATTACKS = Family(
    "domain_attacks",
    "aclpwn addcomputer addspn adidnsdump atexec bloodhound bloodhound-ce-python bloodhound-python "
    "bloodyad certipy certipy-ad changepasswd coercer cve-2020-1472-exploit dacledit dcomexec "
    "dementor dfscoerce dnstool donpapi dpapi dploot evil-winrm evil-winrm-py fgpp finddelegation "
    "get-gpppassword getadcomputers getadusers getlapspassword getnpusers getnthash getpac getst "
    "gettgt gettgtpkinit getuserspns gmsadumper godap goexec goldenpac gpp-decrypt kerbrute "
    "keylistattack kirbi2john krbrelayx laps lapsdumper ldap-scanner ldapdomaindump ldaprelayscan "
    "ldapsearch ldeep lookupsid lsassy manspider mitm6 mssqlclient multirelay net netview nopac ntlmrecon "
    "ntlmrelayx owneredit passthecert petitpotam pre2k pretender printerbug privexchange psexec pth-toolkit "
    "pylaps pywerview pywhisker pywsus raisechild rbcd rdesktop responder rpcclient rpcdump rusthound "
    "rusthound-ce sam_the_admin samrdump sccmhunter sccmwtf secretsdump set_empty_pw shadowcoerce smbclient "
    "smbclient-ng smbcrawler smbexec smbrelayx targetedkerberoast ticketconverter ticketer "
    "windapsearch winexe wlfreerdp wmiexec wmiquery xfreerdp xfreerdp3 zerologon_tester",
    prefixes=("python", "pypy", "impacket-", "pth-", "kerbrute"),
    any_spelling=True,
)
DNS_LOOPS = Family(
    "dns_loops",
    "adnshost avahi-resolve delv dig dns-sd dnsget dog doggo drill dscacheutil getent host kdig "
    "nmap nslookup ping ping6 resolvectl systemd-resolve traceroute",
)
IDENTITIES = Family(
    "identities",
    "ipa kadmin kadmin.local kdb5_ldap_util kdb5_util kpasswd kprop kpropd ktpass ktutil ldapadd "
    "ldapdelete ldapmodify ldapmodrdn ldappasswd runuser samba-tool su doas pkexec run0 sudo",
    wrappers=("runuser", "doas", "pkexec", "run0", "sudo"),
)
MACOS = Family(
    "macos",
    "PlistBuddy SetFile audit automator bputil chflags defaults dockutil dscl dseditgroup "
    "dsenableroot duti fdesetup firmwarepasswd insert_dylib install_name_tool jamf kickstart "
    "llvm-install-name-tool mkpassdb networksetup open optool osacompile "
    "osascript pluginkit plutil pmset profiles pwpolicy setfile sfltool socketfilterfw "
    "softwareupdate spctl sysadminctl systemextensionsctl systemsetup touch",
    env=True,
)
REDIS_ABUSE = Family(
    "redis_abuse",
    "keydb-cli redis-cli valkey-cli",
)
SCANNING = Family(
    "scanning",
    "hping3 masscan naabu nmap pnscan rustscan unicornscan zgrab zgrab2 zmap",
)
SERVICE_ATTACKS = Family(
    "service_attacks",
    "EyeWitness.py arachni cmseek curl dalfox davtest dig dirb dirbuster eyewitness eyewitness.py finger "
    "impacket-rdp_check rdp_check rdp_check.py showmount smbutil "
    "java marshalsec php phpggc ysoserial dirhunt dirsearch dirsearch.py drill droopescan enum4linux "
    "enum4linux-ng enum4linux-ng.py enum4linux.pl gopherus "
    "dnsenum dnsenum.pl dnsmap dnsrecon dnsrecon.py fierce rusers "
    "feroxbuster ffuf ftp finger-user-enum finger-user-enum.pl ghauri git-dumper gobuster goop host "
    "http httpie https "
    "ident-user-enum ident-user-enum.pl ike-scan "
    "cewl cewl.rb cewler jaeles joomscan jwt_tool jwt_tool.py kiterunner kr nbtscan "
    "nfsshell nikto nikto.pl nmap nosqlmap nosqlmap.py nuclei odat odat.py onesixtyone perl "
    "redis-rogue-server redis-rogue-server.py ruby "
    "skipfish smbmap smtp-user-enum smtp-user-enum.pl "
    "snmp-check snmpbulkwalk snmpset snmpwalk braa theHarvester theharvester nbtscan-unixwiz "
    "sqlmap sqlmap.py ssh sshpass sftp sstimap sstimap.py tplmap tplmap.py wapiti wfuzz "
    "telnet wget wpscan xh xsser xsstrike xsstrike.py",
    prefixes=("python",),
)
TUNNELS = Family(
    "tunnels",
    "3proxy Xvnc amazon-ssm-agent anydesk autossh azcmagent blitz bore bunx chisel cloudflared curl "
    "danted devtunnel dns2tcpc dns2tcpd dnscat dnscat2 dnscat2-server docker frpc frps gost gotty "
    "gs-full-link gs-mount gs-netcat gs-sftp gsocket hans hping3 http httpie https hysteria icmpsh "
    "icmpsh_m.py iodine iodined iox krfb ligolo ligolo-agent ligolo-ng ligolo-proxy localtonet "
    "localtunnel loclx lt meshagent meshagent32 meshagent64 meshagent_arm64 meshagent_osx64 microsocks "
    "nerdctl ngrok npc nping nps npx pagekite pagekite.py plink pnpm pnpx podman privoxy ptunnel ptunnel-ng "
    "rathole rdp2tcp redsocks resocks revsocks rpivot rsockstun rsocx rustdesk scope shadowsocks shellinabox "
    "shellinaboxd sockd ss-local ss-server ssh sshuttle sshx ssm-agent-worker suo5 tailscale teamviewer "
    "telebit teleconsole tigervncserver tightvncserver tinyproxy tmate tmole tor trojan tty-share ttyd "
    "tunnelmole udp2raw upterm v2ray vino-server vncserver wayvnc wetty wget wstunnel x0vncserver x11vnc "
    "xh xhs xray xrdp yarn zrok",
    prefixes=(
        *("chisel", "ligolo", "frpc", "frps", "gost", "ngrok", "rathole", "revsocks", "rpivot"),
        *("resocks", "rsockstun", "suo5"),
    ),
    wrappers=("proxychains", "proxychains4", "torify", "torsocks", "tsocks"),
)
VOLUMES = Family(
    "volumes",
    "blockdev btrfs cryptdisks_start cryptdisks_stop cryptsetup "
    "diskutil dmsetup e2label exfatlabel fatlabel growpart hdiutil iscsiadm losetup lvchange "
    "lvconvert lvcreate lvextend lvm lvrename lvresize mdadm mount ntfslabel pvchange pvmove "
    "pvresize resize2fs swaplabel swapon tune2fs udisksctl umount umount2 vgcfgrestore vgchange "
    "vgexport vgextend vgimport vgimportclone vgmerge vgmknodes vgrename vgsplit xfs_admin "
    "xfs_growfs zfs zpool",
    prefixes=("mount_", "mount."),
)

ROOTKITS = Family(
    "rootkits",
    "boopkit boopkit-boop kill reptile_cmd ebpfkit ebpfkit-client pamspy pidhide sudoadd exechijack "
    "textreplace2 writeblocker bpfdos nysm",
)

FAMILIES: tuple[Family, ...] = (
    *(ACCESS_TOKENS, BEACONS, CI_FILES, CLOUD, CRACKING, DATABASES, DNS_LOOPS),
    *(DOMAIN_ATTACKS, FORGE_SETTINGS, IDENTITIES, MACOS, REDIS_ABUSE, ROOTKITS, SCANNING, SERVICE_ATTACKS),
    *(TUNNELS, VOLUMES),
)
"""The families imported on demand."""

JUDGES: tuple[InvocationJudge | Family, ...] = (
    persistence.judge,
    ROOTKITS,
    rootkit_sources.judge,
    CI_FILES,
    privilege.judge,
    exploit_sources.judge,
    impairment.judge,
    credentials.judge,
    checkout_tokens.judge,
    impact.judge,
    process_hunts.judge,
    miner_setups.judge,
    exfiltration.judge,
    BEACONS,
    file_servers.judge,
    uploads.judge,
    MACOS,
    collection.judge,
    CLOUD,
    FORGE_SETTINGS,
    TUNNELS,
    pivots.judge,
    port_probes.judge,
    CRACKING,
    SERVICE_ATTACKS,  # before scanning: nmap's flaw-hunting scripts are an attack, whatever else it probes
    SCANNING,
    DOMAIN_ATTACKS,
    bait_files.judge,
    dependency_lists.judge,
    irc_bots.judge,
    unseen.judge,
    hidden_runs.judge,
    disguised_runs.judge,
    REDIS_ABUSE,
    DATABASES,
    VOLUMES,
    system_config.judge,
    IDENTITIES,
    agent_controls.judge,
)
"""Every family's judge of one simple command, in the order they are asked (a :class:`Family`
stands for its module's ``judge``)."""

SCRIPT_JUDGES: tuple[ScriptJudge | Family, ...] = (
    credentials.judge_script,
    checkout_tokens.judge_script,
    ACCESS_TOKENS,
    impact.judge_script,
    searched_files.judge_script,
    process_hunts.judge_script,
    impairment.judge_script,
    exfiltration.judge_script,
    DNS_LOOPS,
    uploads.judge_script,
    raw_transfers.judge_script,
    password_prompts.judge_script,
    persistence.judge_script,
    privilege.judge_script,
    MACOS,
    collection.judge_script,
    unseen.judge_script,
    hidden_runs.judge_script,
    temp_scripts.judge_script,
    domain_recon.judge_script,
    REDIS_ABUSE,
    DATABASES,
    CLOUD,
    rootkit_sources.judge_script,
    exploit_sources.judge_script,
    agent_controls.judge_script,
)
"""The judges of what spans statements (a :class:`Family` stands for its ``judge_script``)."""


def judges(invocation: Invocation) -> Iterator[InvocationJudge]:
    """The judges of :data:`JUDGES` that may find something in ``invocation``, in order."""
    for judge in JUDGES:
        if not isinstance(judge, Family):
            yield judge
        elif judge.consulted_by(invocation):
            yield judge.module().judge


def script_judges(names: Iterable[str]) -> Iterator[ScriptJudge]:
    """The judges of :data:`SCRIPT_JUDGES` that may find something in a script whose walk
    (:func:`~agentbus.guards.programs.walk`) runs the programs ``names``, in order."""
    named = frozenset(names)
    for judge in SCRIPT_JUDGES:
        if not isinstance(judge, Family):
            yield judge
        elif not judge.programs.isdisjoint(named):
            yield judge.module().judge_script
