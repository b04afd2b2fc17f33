"""Tactic family ``impairment``: the traces destroyed and the defenses turned off.

EVIDENCE (blocked by default): deleting, truncating, overwriting, editing or
linking to ``/dev/null`` the system's logs (``/var/log``, the journal, utmp/wtmp,
the audit trail, macOS's unified log store) and shell history, by any writer
(:mod:`.writes`: ``rm``, ``truncate -s0``, ``> FILE``, ``ln -sf /dev/null``,
``sed -i``, ``find DIR -delete`` ...); ``journalctl --vacuum-*``, ``log erase``,
``history -c``, a tool named for editing the login records (``utmpclean``),
turning history off (``unset HISTFILE``, ``HISTSIZE=0``,
``set +o history``), back-dating a system file (``touch -r``), and a running script
destroying itself or its folder (``shred -u "$0"``, ``rm -rf "$(dirname "$0")"``: a
dropper's self-deletion). A project's own logs (``logs/app.log``, ``./server.log``) are
the project's: not evidence.

IMPAIR (blocked by default): firewall flushes and openings (``iptables -F``,
``-P INPUT ACCEPT``, ``nft flush ruleset``, ``ufw disable``, ``pfctl -d``, the
macOS application firewall), SELinux and AppArmor off (``setenforce 0``,
``aa-teardown``, their configuration), stopping, disabling, killing or removing
audit, logging and security agents (auditd, rsyslog, journald, Falcon,
SentinelOne, osquery, Wazuh, ClamAV ...), ``auditctl -D``/``-e 0``, kernel
hardening lowered (``ptrace_scope``, ASLR), Secure Boot's checks (``mokutil
--disable-validation``), Gatekeeper, SIP, quarantine and TCC
on macOS, and trust: a new root certificate (``update-ca-certificates`` after a
copy into the store, ``trust anchor``, ``security add-trusted-cert``,
``certutil -A``, ``keytool -importcert -cacerts``, ``mkcert -install``) or TLS
verification turned off for every later command (``git config --global
http.sslVerify false``, ``export NODE_TLS_REJECT_UNAUTHORIZED=0``); a program
run under a false name so that ``ps`` shows something else (``exec -a sshd
nmap …``, THC's ``zapper -a klog …``): masquerading.

SYSTEM_CONFIG (asked by default): any other change to the host's firewall rules
(``iptables -A``, ``ufw allow``, ``nft add rule``, ``firewall-cmd --add-port``, pf's whole ruleset
loaded from an ``/etc`` file other than ``pf.conf``);
listing them runs.

Stopping an ordinary service is the persistence family's SERVICE (ask); a
security or logging service is judged here and blocked, and a block wins over
an ask in the decision.
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..locations import location
from ..parse import Script
from ..paths import normalize_path
from ..programs import Invocation, substituted, walk
from ..verdict import EVIDENCE, IMPAIR, SERVICE, SYSTEM_CONFIG, UNJUDGED_SCRIPT, Verdict
from ..workdir import line_start, moved_by_the_line
from .writes import located

__all__ = ["judge", "judge_script"]

_MY_PLACES = frozenset({EVIDENCE, IMPAIR})

_SECURITY = lazy_compile(
    r"(?:^|[^a-z0-9])(?:auditd?|kauditd|rsyslogd?|syslogd?|syslog-ng|systemd-journald|journald|apparmor|selinux|"
    r"firewalld|ufw|iptables|ip6tables|nftables|netfilter-persistent|pf|alf|socketfilterfw|falcon(?:-sensor|d|ctl)?|"
    r"crowdstrike|osqueryd?|sentinel(?:one|agent|d|ctl)?|wazuh(?:-agent|-manager|d)?|ossec|clamav(?:-daemon|-freshclam)?|"
    r"clamd|freshclam|fail2ban|aide|tripwire|auditbeat|filebeat|elastic-agent|elastic-endpoint|splunkd?|"
    r"splunkforwarder|fluentd|fluent-bit|td-agent|sysmon|falco|tetragon|tracee|mdatp|wdavdaemon|xprotect\w*|"
    r"gatekeeper|little ?snitch(?: agent| daemon)?|littlesnitch\w*|lulu|blockblock|santad?|carbonblack|"
    r"notificationcenter|usernoted|"  # macOS's alerts: a login item added raises no notice
    r"cbagentd|"
    # macOS endpoint agents: Jamf Protect, Kandji, Malwarebytes, Huntress, Cisco's AMP, Bitdefender, Webroot,
    # Microsoft Defender by its app name.
    r"jamf ?protect\w*|com\.jamf\.protect\w*|kandji\w*|io\.kandji\.\w+|malwarebytes\w*|rtprotectiondaemon|"
    r"huntress\w*|ampdaemon|bitdefender\w*|webroot\w*|microsoft defender\w*|"
    r"cylance\w*|sophos\w*|esets?\w*|kesl|kaspersky\w*|ds_agent|qualys\w*|ir_agent|taniumclient|traps\w*|"
    r"cortex-xdr|cbdaemon|cbsensor|cb-psc-sensor|"
    # Linux anti-virus daemons by their process names (Sophos, Bitdefender, McAfee/Trellix, Symantec,
    # Kaspersky's network agent): a miner's dropper kills them by these names, not the vendor's.
    r"savd|savscand|sav-protect|sav-rms|bdagent|bdscan|bdredline|bdsecd|mfetpd|mfeespd|masvc|macmnsvc|"
    r"mcafee\w*|trellix\w*|rtvscand|symantec\w*|klnagent\w*|opendns\S*|umbrella\S*|amazon-cloudwatch-agent|google-fluentd|snoopy|endpointsecurity\w*|com\.apple\.(?:auditd|syslogd|"
    r"alf|xprotect\w*|security\.\w+|tccd|syspolicy\w*|amfid|mrt\w*|endpointsecurity\w*)|tccd|syspolicyd|amfid|mrtagent|"
    # The host-security and monitoring agents of Chinese clouds, which cryptojacking scripts remove first:
    # Alibaba (aegis, AliYunDun, AliSecGuard, CloudMonitor), Tencent (qcloud's YunJing, barad, stargate),
    # Baidu (bcm-agent, installed as /opt/bcm), Huawei (hostguard), and Alibaba's cloud assistant
    # (aliyun-assist, its assist-daemon), through which the console runs commands and sees the host.
    r"aegis\w*|aliyun(?:-service|dun\w*|-assist\w*)?|alisecguard|alihids|cmsgoagent\S*|cloudmonitor|argusagent|"
    r"qcloud\w*|yunjing|barad_agent|sgagent|bcm(?:-agent)?|assist-daemon|hostguard\w*)(?:$|[^a-z0-9])",
    re.IGNORECASE,
)
"""Audit, logging, firewall and endpoint-security services and processes, by name (on macOS also
the privacy daemon tccd, Gatekeeper's syspolicyd, amfid which checks code signatures, the malware
removal tool)."""

_STOP_VERBS: dict[str, frozenset[str]] = {
    "systemctl": frozenset({"stop", "disable", "mask", "kill", "freeze"}),
    "service": frozenset({"stop", "disable", "kill", "teardown"}),  # apparmor teardown: profiles unloaded
    "launchctl": frozenset({"unload", "bootout", "disable", "remove", "stop", "kill"}),
    "rc-service": frozenset({"stop"}),
    "invoke-rc.d": frozenset({"stop"}),
    "rc-update": frozenset({"del", "delete"}),
    "update-rc.d": frozenset({"disable", "remove", "stop"}),
    "chkconfig": frozenset({"off", "--del"}),
    "sv": frozenset({"down", "stop", "kill", "exit", "force-stop"}),
    "initctl": frozenset({"stop"}),
    "rcctl": frozenset({"stop", "disable"}),
    "svcadm": frozenset({"disable"}),
    "brew": frozenset({"stop"}),
    "osqueryctl": frozenset({"stop"}),
    "wazuh-control": frozenset({"stop"}),
    "ossec-control": frozenset({"stop"}),
    "auditd": frozenset(),
}  # fmt: skip
_SYSTEM_PROGRAM_DIRS = ("/etc/init.d/", "/etc/rc.d/", "/sbin/", "/usr/sbin/", "/bin/", "/usr/bin/",
                        "/usr/local/sbin/", "/usr/local/bin/")  # fmt: skip
"""Where an installed program (or an init script) is run from by path; elsewhere a path names a script."""
_FIREWALL_CONTROL = lazy_compile(r"\w*firewall\d*", re.IGNORECASE)
"""A firewall's own control program or init script by name (``SuSEfirewall2``, SUSE's ``rcSuSEfirewall2``
link, OpenWrt's ``/etc/init.d/firewall``): told ``stop`` it turns the firewall off."""
_KILLERS = frozenset({"kill", "pkill", "killall", "skill", "killall5", "pkill.exe", "taskkill"})
_REMOVE_VERBS = frozenset(
    {"remove", "purge", "erase", "autoremove", "del", "uninstall", "rm", "-e", "--erase"}
)
_PACKAGE_MANAGERS = frozenset(
    {
        "apt",
        "apt-get",
        "aptitude",
        "dnf",
        "yum",
        "microdnf",
        "zypper",
        "apk",
        "brew",
        "snap",
        "port",
        "rpm",
        "dpkg",
        "pacman",
    }
)
_VENDOR_OFF = {
    "falconctl": frozenset({"unload", "uninstall", "-d", "--disable", "disable", "stop"}),
    "sentinelctl": frozenset({"unload", "unprotect", "uninstall", "stop", "disable"}),
    "mdatp": frozenset({"disabled", "uninstall"}),
    "systemextensionsctl": frozenset({"uninstall", "reset"}),
    "kextunload": frozenset(),
    "rmmod": frozenset(),
    "kmutil": frozenset({"unload"}),
    "modprobe": frozenset({"-r", "--remove"}),
    "santactl": frozenset({"--disable"}),
}  # fmt: skip
_KERNEL_UNLOADERS = frozenset({"kextunload", "rmmod", "kmutil", "modprobe"})
"""Unloading a kernel module impairs a defense only when the module is one (else :mod:`.system_config`)."""
_SECURITY_MODULES = lazy_compile(
    r"^(?:p_)?lkrg$|^tpe(?:_lsm|_lkm)?$|^akari$|^caitsith$|^ccsecurity$|^talpa\w*$|^mfehidk$|^mfeaac\w*$|"
    r"^symev\w*$|^symap\w*$|^eset_rtp$|^sysdig[-_]probe$|^scap$|^snoopy$",
    re.IGNORECASE,
)
"""Security modules by their kernel names: the Linux Kernel Runtime Guard, Trusted Path Execution, TOMOYO's
AKARI and CaitSith, Sophos' talpa, McAfee's and Symantec's hooks, ESET's real-time scanner, the Falco and
Sysdig probes: unloaded, what they guard goes unwatched (``rmmod lkrg``)."""
_FIREWALL_LOADERS = frozenset({"iptables-restore", "ip6tables-restore", "iptables-legacy-restore",
                                "iptables-nft-restore", "nft"})  # fmt: skip
_IPTABLES = lazy_compile(r"^(?:ip6?tables|ip6?tables-(?:legacy|nft)|ebtables|arptables)$")
_HISTORY_VARIABLES = lazy_compile(
    r"^(?:HISTFILE|HISTSIZE|HISTFILESIZE|SAVEHIST|HISTCONTROL|HISTIGNORE|fish_history)=(.*)$"
)
_TRUST_OFF_ENV = lazy_compile(
    r"^(?:NODE_TLS_REJECT_UNAUTHORIZED=0|PYTHONHTTPSVERIFY=0|GIT_SSL_NO_VERIFY=(?:1|true|yes)?|"
    r"CURL_CA_BUNDLE=|REQUESTS_CA_BUNDLE=|NPM_CONFIG_STRICT_SSL=false|npm_config_strict_ssl=false)$",
    re.IGNORECASE,
)
_FALSEY = frozenset({"0", "false", "no", "off", "disabled"})
_MAC_DEFAULTS = lazy_compile(
    r"LSQuarantine|GKAutoRearm|com\.apple\.alf|systempolicy|EnableAssessment|XProtect|ConfigDataInstall|"
    r"CriticalUpdateInstall|com\.apple\.security|WarnAboutFraudulentWebsites|SafeBrowsing",
    re.IGNORECASE,
)
_HARDENING = {
    "kernel.randomize_va_space": 2, "kernel.yama.ptrace_scope": 1, "kernel.kptr_restrict": 1,
    "kernel.dmesg_restrict": 1, "kernel.unprivileged_bpf_disabled": 1, "fs.protected_symlinks": 1,
    "fs.protected_hardlinks": 1, "fs.protected_fifos": 1, "fs.protected_regular": 1,
    "fs.suid_dumpable": -1, "kernel.perf_event_paranoid": -99,
}  # fmt: skip
"""Kernel settings, and the lowest value that keeps the protection (below it: impaired)."""
_KERNEL_ARGS = lazy_compile(
    r"(?:^|\s)(?:selinux=0|enforcing=0|apparmor=0|audit=0|lockdown=none|"
    r"amfi_get_out_of_my_way=\w+|cs_enforcement_disable=\w+|amfi=\w+)"
)
_SQL_WRITE = lazy_compile(r"\b(?:insert|update|delete|replace|drop)\b", re.IGNORECASE)
_SCRATCH = ("/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/", "/private/var/folders/", "/var/folders/")


def _short_flags(values: list[str]) -> set[str]:
    return {char for v in values if v.startswith("-") and not v.startswith("--") for char in v[1:]}


# -- evidence -----------------------------------------------------------------------------------------


def _history(invocation: Invocation) -> Verdict | None:
    """Shell history cleared or turned off."""
    name = invocation.name
    values = _values(invocation)
    assignments = list(invocation.env)
    if name in ("export", "declare", "typeset", "local", "readonly"):
        assignments += [v for v in values if "=" in v]
    if name == "setenv" and len(values) >= 1:  # csh: setenv HISTFILE /dev/null
        assignments.append(f"{values[0]}={values[1] if len(values) > 1 else ''}")
    for assignment in assignments:
        match = _HISTORY_VARIABLES.match(assignment)
        if match is None:
            continue
        variable, value = assignment.partition("=")[0], match.group(1).strip("'\"")
        if variable in ("HISTFILE", "fish_history") and value in ("", "/dev/null"):
            return _verdict(
                EVIDENCE, invocation, f"{variable}={value or '(empty)'}: nothing is kept in the history"
            )
        if variable in ("HISTSIZE", "HISTFILESIZE", "SAVEHIST") and value in ("0", "1"):  # -1 is unlimited
            return _verdict(EVIDENCE, invocation, f"{variable}={value}: the history is turned off")
        if variable == "HISTCONTROL" and ("ignorespace" in value or "ignoreboth" in value):
            return _verdict(EVIDENCE, invocation, "HISTCONTROL hides every command typed after a space")
        if variable == "HISTIGNORE" and "*" in value.split(":"):
            return _verdict(EVIDENCE, invocation, "HISTIGNORE='*' keeps no command in the history")
    if name == "unset" and {"HISTFILE", "HISTSIZE", "HISTFILESIZE", "SAVEHIST"} & set(values):
        return _verdict(EVIDENCE, invocation, "unsets the history file: nothing is kept")
    if name == "set" and "+o" in values and "history" in values:
        return _verdict(EVIDENCE, invocation, "set +o history turns the history off")
    if name == "kill" and _kills_own_shell(invocation):
        return _verdict(
            EVIDENCE, invocation, "kills its own shell with SIGKILL: the session's history is never written"
        )
    if name == "history" and _short_flags(values) & {"c", "d"}:
        return _verdict(EVIDENCE, invocation, "clears the shell history")
    if name == "history" and _short_flags(values) & {"w", "a"} and "/dev/null" in values:
        return _verdict(EVIDENCE, invocation, "writes the shell history to /dev/null: nothing is kept")
    if (
        name == "shopt"
        and "history" in values
        and "u" in _short_flags(values)
        and "o" in _short_flags(values)
    ):
        return _verdict(EVIDENCE, invocation, "shopt -ou history turns the history off")
    if name in ("unsetopt", "setopt") and any(
        v.lower().replace("_", "") in ("histignorespace", "nohistsavebycopy") for v in values
    ):
        return _verdict(EVIDENCE, invocation, "hides commands from the zsh history")
    return None


_SIGKILL = frozenset({"-9", "-KILL", "-SIGKILL", "-kill", "-sigkill"})


def _kills_own_shell(invocation: Invocation) -> bool:
    """``kill -9 $$``, ``kill -s KILL $$``: the covering-tracks notes' way out of a shell, since a shell
    killed by SIGKILL cannot save its history (``kill -TERM $$``, a script's exit from a subshell, can)."""
    words = [invocation.command.render(word) for word in invocation.args]
    if not any(word in ("$$", "${$}") for word in words):
        return False
    signal = any(word in _SIGKILL for word in words)
    named = any(
        word in ("-s", "-n", "--signal") and words[index + 1].upper() in ("9", "KILL", "SIGKILL")
        for index, word in enumerate(words[:-1])
    )
    return signal or named


_SELF_DELETERS = frozenset({"rm", "grm", "unlink", "shred", "gshred", "srm", "wipe"})
_SCRIPT_ITSELF = frozenset({"$0", "${0}", "$BASH_SOURCE", "${BASH_SOURCE}", "${BASH_SOURCE[0]}",
                            "$ZSH_SCRIPT", "${ZSH_SCRIPT}"})  # fmt: skip
"""``$0``, ``${BASH_SOURCE[0]}``: the path of the script that is running."""
_PATH_OF = frozenset({"dirname", "realpath", "readlink", "cd"})
_LEADING_OPTIONS = lazy_compile(r"(?:-\S*\s+)*")
"""``$(dirname X)``, ``$(readlink -f X)``, ``$(cd X && pwd)``: the path X names, or its folder."""


def _script_itself(word: str) -> str | None:
    """``"$0"`` -> ``the running script``, ``"$(dirname "$(readlink -f "$0")")"`` -> ``the running
    script's folder``: a word naming the script that runs, or its folder (a few layers peeled, each
    by slicing: linear in the word's length)."""
    folder = False
    for _ in range(6):
        word = word.strip().strip("'\"")
        if word in _SCRIPT_ITSELF:
            return "the running script's own folder" if folder else "the running script itself"
        if word.startswith("$(") and word.endswith(")"):
            inner = word[2:-1]
        elif len(word) > 1 and word.startswith("`") and word.endswith("`"):
            inner = word[1:-1]
        else:
            return None
        parts = inner.split(None, 1)
        if len(parts) != 2 or parts[0] not in _PATH_OF:
            return None
        head, rest = parts
        rest = rest[_LEADING_OPTIONS.match(rest).end() :]  # type: ignore[union-attr]  # always matches
        if head == "cd":
            rest = rest.rstrip()
            for tail in ("pwd -P", "pwd"):
                if rest.endswith(tail):
                    rest = rest[: -len(tail)].rstrip()
                    break
            if not rest.endswith("&&"):
                return None
            rest = rest[:-2]
        folder = folder or head in ("dirname", "cd")
        word = rest
    return None


def _self_deleted(invocation: Invocation) -> Verdict | None:
    """``shred -u "$0"``, ``rm -- "$0"``, ``rm -rf "$(dirname "$0")"``: a script that deletes itself
    (or the folder it came in) when it has run, so nothing is left to analyse: a dropper's last
    step. The words are read as written: what ``$0`` is cannot be known, what it stands for can."""
    if invocation.name not in _SELF_DELETERS:
        return None
    for word in invocation.args:
        text = invocation.command.render(word)
        if "$" not in text:
            continue
        what = _script_itself(text)
        if what is not None:
            return _verdict(EVIDENCE, invocation, f"deletes {what} (a dropper's self-deletion)")
    return None


def _logs(invocation: Invocation, home: str) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    if name == "journalctl" and any(v.startswith("--vacuum") for v in values):
        return _verdict(EVIDENCE, invocation, "deletes the journal's archived logs")
    if name == "log" and values[:1] == ["erase"]:
        return _verdict(EVIDENCE, invocation, "erases macOS's unified log")
    if name == "log" and values[:1] == ["config"] and any(":off" in v or v.endswith("off") for v in values):
        return _verdict(IMPAIR, invocation, "turns macOS logging off")
    if name == "wevtutil" and values[:1] in (["cl"], ["clear-log"]):
        return _verdict(EVIDENCE, invocation, "clears a Windows event log")
    if name == "audit" and "-t" in values:
        return _verdict(IMPAIR, invocation, "stops the macOS audit daemon")
    if _sets_the_clock(name, values):
        return _verdict(EVIDENCE, invocation, "sets the system clock, so what is logged next is misdated")
    if name == "touch":
        return _timestomp(invocation, values, home)
    if name == "find":
        return _log_sweep(invocation, values, home)
    return None


_LOG_NAME = lazy_compile(r"log|\.gz$|\.\d+$|wtmp|btmp|lastlog|journal", re.IGNORECASE)


def _log_sweep(invocation: Invocation, values: list[str], home: str) -> Verdict | None:
    """``find / -name '*.log' -delete``, ``find /var -name '*log*' -exec rm {} +``: every log, by name.

    The places table sees the start (``/``), not the logs below it; a name that is a log's,
    or none at all, under a start that holds ``/var/log`` is the system's logs.
    """
    starts = []
    for value in values:
        if value.startswith(("-", "(", "!", ")")):
            break
        starts.append(normalize_path(value, home=home, cwd=invocation.cwd).rstrip("/") or "/")
    if not any(start in ("/", "/var", "/private/var", "/private") for start in starts):
        return None
    destroys = "-delete" in values or any(
        value in ("-exec", "-execdir", "-ok", "-okdir")
        and index + 1 < len(values)
        and values[index + 1].rsplit("/", 1)[-1] in ("rm", "shred", "truncate", "unlink", "srm")
        for index, value in enumerate(values)
    )
    names = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-name", "-iname", "-path", "-ipath")]
    if destroys and (not names or any(_LOG_NAME.search(n) for n in names)):
        return _verdict(EVIDENCE, invocation, "deletes the logs it finds under the whole system")
    return None


_TOUCH_VALUES = frozenset({"-r", "-t", "-d", "--reference", "--date", "--time"})
_YEAR = lazy_compile(r"(?<!\d)(19[0-9]{2}|20[0-9]{2})(?!\d)")
_OLD_YEAR = 2020
"""A file outside the project dated before this was back-dated on purpose (tests use relative dates)."""


def _stamp_year(option: str, stamp: str) -> int | None:
    """The year an explicit ``touch -t``/``-d`` timestamp names (None: a relative date, or none)."""
    if option == "-t":
        digits = stamp.partition(".")[0]
        if len(digits) == 12:
            return int(digits[:4])
        if len(digits) == 10:
            return 1900 + int(digits[:2]) if int(digits[:2]) >= 69 else 2000 + int(digits[:2])
        return None
    if stamp.startswith("@"):
        seconds = stamp[1:].partition(".")[0]
        return 1970 + int(seconds) // 31_556_952 if seconds.isdigit() else None
    found = _YEAR.search(stamp)
    return int(found.group(1)) if found else None


def _timestomp(invocation: Invocation, values: list[str], home: str) -> Verdict | None:
    """``touch -t 197001010000``, ``touch -r /bin/ls FILE``: a file outside the project made to look old.

    Attackers date the files they drop (in ``/tmp`` too) like the system's own; a
    developer dates the project's files (``touch -r Makefile stamp``), or uses
    relative dates (``touch -d '2 hours ago'``) on scratch files in tests.
    """
    chosen = _system_file_chosen(invocation)
    if chosen:
        why = f"gives a file the date of {chosen}, so it passes for the system's"
        return _verdict(EVIDENCE, invocation, why)
    reference = year = None
    targets: list[str] = []
    index = 0
    while index < len(values):
        value = values[index]
        option, sep, inline = value.partition("=")
        if value in _TOUCH_VALUES or (
            value[:1] == "-" and value[1:2] != "-" and value[-1:] in "rtd" and len(value) > 2
        ):
            stamp = values[index + 1] if index + 1 < len(values) else ""
            letter = (
                "-r"
                if value in ("-r", "--reference") or value.endswith("r")
                else ("-t" if value == "-t" or value.endswith("t") else "-d")
            )
            if letter == "-r":
                reference = stamp
            elif value != "--time":
                year = _stamp_year(letter, stamp)
            index += 2
            continue
        if sep and option in ("--reference", "--date"):
            if option == "--reference":
                reference = inline
            else:
                year = _stamp_year("-d", inline)
        elif not value.startswith("-"):
            targets.append(value)
        index += 1
    if (
        reference is None
        and year is None
        and not any(v in _TOUCH_VALUES or v.startswith("--date") for v in values)
    ):
        return None
    from .impact import users_file  # one definition of "the user's files outside the project"

    foreign_reference = reference is not None and users_file(reference, home, invocation.cwd, scratch=True)
    system_reference = reference is not None and normalize_path(reference, home=home).startswith(
        ("/bin/", "/sbin/", "/usr/", "/etc/", "/lib", "/System/", "/Library/", "/var/", "/opt/")
    )
    for target in targets:
        outside = (target.startswith(("/", "~", "$HOME")) and _outside_home(target, home)) or _moved_outside(
            target, home, invocation.cwd
        )
        if outside:
            return _verdict(EVIDENCE, invocation, f"back-dates {target}, so it looks old")
        if not users_file(target, home, invocation.cwd, scratch=True):
            continue
        if year is not None and year < _OLD_YEAR:
            return _verdict(EVIDENCE, invocation, f"dates {target} {year}, so it passes for an old file")
        if foreign_reference or system_reference:
            return _verdict(
                EVIDENCE, invocation, f"gives {target} the date of {reference}, so it passes for it"
            )
    return None


_SYSTEM_LISTING = lazy_compile(
    r"^\s*(?:find|ls|stat|date|gstat|gdate)\b[^|;&]*?\s[\"']?/(?:(?:usr/(?:local/)?)?s?bin|usr|etc|lib\w*|System)(?:/|\b)"
)
"""``find /usr/bin -type f``, ``ls /bin/*``, ``stat -c %y /bin/ls``, ``date -r /bin/ls``: a system
directory's files listed (to pick one), or a system file's date read."""


def _system_file_chosen(invocation: Invocation) -> str | None:
    """``touch -r "$(find /usr/bin -type f | shuf -n1)" x``, ``touch -d "$(stat -c %y /bin/ls)" x``:
    the date is some system program's, picked or read as the command runs, so the file touched
    passes for one of them."""
    command = invocation.command
    after_date = False
    for raw in invocation.args:
        word = command.render(raw)
        if after_date or word.startswith(("--reference=", "--date=")):
            for sub in command.substitutions_in(raw):
                if _SYSTEM_LISTING.match(sub.text):
                    return "a system file (" + sub.text.split("|", 1)[0].strip() + ")"
        after_date = word in ("-r", "--reference", "-d", "--date", "-t") or (
            word[:1] == "-" and word[1:2] != "-" and word[-1:] in ("r", "d") and len(word) > 2
        )
    return None


def _sets_the_clock(name: str, values: list[str]) -> bool:
    if name == "date":
        # date MMDDhhmm[[CC]YY][.ss] sets the clock; after -r/-d/-f the number is a time to show.
        shown = ("-r", "-d", "-f", "--date", "--reference", "--file")
        return any(v in ("-s", "--set") or v.startswith("--set=") for v in values) or any(
            re.fullmatch(r"\d{8}(?:\d{2}|\d{4})?(?:\.\d{2})?", v) and (i == 0 or values[i - 1] not in shown)
            for i, v in enumerate(values)
        )
    if name == "timedatectl":
        return "set-time" in values or ("set-ntp" in values and any(v in _FALSEY for v in values))
    if name == "hwclock":
        return any(v in ("--set", "--systohc", "-w", "--hctosys", "-s") for v in values)
    return name == "systemsetup" and any(
        v.lower() in ("-settime", "-setdate", "-setusingnetworktime") for v in values
    )


def _moved_outside(target: str, home: str, cwd: str | None) -> bool:
    """``cd / && find . -exec touch -d "$d" {} +``: a relative name, after a ``cd`` of the line, that
    names a place outside the home, the scratch directories and where the line started."""
    if target.startswith(("/", "~", "$")) or not moved_by_the_line(cwd):
        return False
    path = normalize_path(target, home=home, cwd=cwd).rstrip("/") or "/"
    start = (line_start() or "").rstrip("/")
    inside_start = bool(start) and (path == start or path.startswith(start + "/"))
    return path.startswith("/") and _outside_home(path, home) and not inside_start


def _outside_home(target: str, home: str) -> bool:
    path = normalize_path(target, home=home)
    home = home.rstrip("/")
    return not (path == home or path.startswith(home + "/") or path.startswith(_SCRATCH) or path == "/tmp")


# -- defenses ------------------------------------------------------------------------------------------


def _unit_name(word: str) -> str:
    leaf = word.rstrip("/").rsplit("/", 1)[-1]
    return re.sub(r"\.(?:service|socket|target|plist|timer)$", "", leaf)


def _security_services(invocation: Invocation) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    verbs = _STOP_VERBS.get(name)
    words = [v for v in values if not v.startswith("-")]
    if verbs is not None and words:
        stopping = bool(verbs & set(words)) or (name == "chkconfig" and "--del" in values)
        if name == "systemctl" and "disable" in words and "--now" not in values and not stopping:
            stopping = True
        if name in ("osqueryctl", "wazuh-control", "ossec-control"):
            return (
                _verdict(IMPAIR, invocation, f"stops {name.split('ctl')[0].split('-')[0]}")
                if stopping
                else None
            )
        if stopping:
            for word in words:
                if word not in verbs and _SECURITY.search(_unit_name(word)):
                    return _verdict(IMPAIR, invocation, f"stops or disables {_unit_name(word)}, a defense")
    head = invocation.command.static(invocation.command.words[0]) if invocation.command.words else None
    installed = head is not None and ("/" not in head or head.startswith(_SYSTEM_PROGRAM_DIRS))
    if (
        words[:1] in (["stop"], ["disable"], ["uninstall"], ["unload"])
        and installed
        and verbs is None
        and name != "ufw"
        and (_SECURITY.search(name) or _FIREWALL_CONTROL.fullmatch(name))
    ):
        # /etc/init.d/iptables stop, and a defense's own control program: SuSEfirewall2 stop (SUSE's rc
        # links too: rcSuSEfirewall2 stop), fail2ban-client stop; not the project's ./firewall-test.sh stop
        return _verdict(IMPAIR, invocation, f"stops {name}, a defense")
    if name in _KILLERS:
        targets = [v for v in values if not v.startswith("-")]
        for target in targets:
            if _SECURITY.search(target):
                return _verdict(IMPAIR, invocation, f"kills {target}, a defense")
        for stages in substituted(invocation.command, invocation.args):
            for finder in stages:
                if any(_SECURITY.search(v) for v in _values(finder)):  # pgrep auditd, cat auditd.pid
                    return _verdict(IMPAIR, invocation, "kills a defense found by name")
    if name in _PACKAGE_MANAGERS and (
        _REMOVE_VERBS & set(values) or (_short_flags(values) & {"R"} and name == "pacman")
    ):
        removed = [v for v in words if v not in _REMOVE_VERBS and _SECURITY.search(v)]
        if removed:
            return _verdict(IMPAIR, invocation, f"uninstalls {removed[0]}, a defense")
    off = _VENDOR_OFF.get(name)
    turned_off = off is not None and (not off or off & set(values) or any("disabled" in v for v in values))
    if turned_off and (
        name not in _KERNEL_UNLOADERS
        or any(_SECURITY.search(v) or _SECURITY_MODULES.match(v.removesuffix(".ko")) for v in words)
    ):
        return _verdict(IMPAIR, invocation, f"turns off an endpoint security agent ({name})")
    if name == "falconctl" and _falcon_proxy_loopback(values):
        return _verdict(
            IMPAIR, invocation, "points Falcon's proxy at this machine: the sensor is cut off its cloud"
        )
    if name == "auditctl":
        flags = _short_flags(values)
        enable = next((values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-e", "--enabled")), None)
        if (
            "D" in flags
            or "-e0" in values
            or enable == "0"
            or any(v.startswith("never,") or v.endswith(",never") for v in values)
            or "d" in flags
        ):
            return _verdict(IMPAIR, invocation, "deletes the audit rules or turns auditing off")
    return None


_LOOPBACK_HOST = lazy_compile(r"^(?:127(?:\.\d+){0,3}|localhost|::1|\[::1\]|0\.0\.0\.0|0)$", re.IGNORECASE)


def _falcon_proxy_loopback(values: list[str]) -> bool:
    """``falconctl -s --aph=127.0.0.1 --app=8080``: the sensor's proxy host set to this machine, where no
    proxy listens, so it reports nothing to its cloud (an EDR silenced without being stopped)."""
    for index, value in enumerate(values):
        host = value.partition("=")[2] if value.startswith("--aph=") else None
        if value == "--aph" and index + 1 < len(values):
            host = values[index + 1]
        if host is not None and _LOOPBACK_HOST.match(host.strip("'\"")):
            return True
    return False


_ADDRESSED_TO = frozenset({"-d", "--destination", "--dst"})


def _firewall(invocation: Invocation) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    words = " ".join(v for v in values if not v.startswith("-")).split()  # nft 'flush ruleset' is two words
    if _IPTABLES.match(name):
        flags = _short_flags(values)
        if flags & {"F", "X"} or {"--flush", "--delete-chain"} & set(values):
            return _verdict(IMPAIR, invocation, "flushes the firewall's rules")
        for index, value in enumerate(values[:-2]):
            if value in ("-P", "--policy") and values[index + 2].upper() == "ACCEPT":
                return _verdict(IMPAIR, invocation, f"lets everything through {values[index + 1]}")
        if "ACCEPT" in values and flags & {"I", "A", "R"} and ({"-s", "--source", "--src"} & set(values)):
            return _verdict(IMPAIR, invocation, "opens the firewall to one address")
        if "ACCEPT" in values and flags & {"I", "A", "R"} and _ADDRESSED_TO & set(values):
            return _verdict(IMPAIR, invocation, "opens the firewall for traffic to the addresses named (-d)")
        deletes = "D" in flags or "--delete" in values
        if ({"DROP", "REJECT"} & set(values)) and deletes:
            return _verdict(IMPAIR, invocation, "deletes a rule that blocked traffic")
        if deletes and "xargs" in invocation.wrappers:
            # iptables -S INPUT | grep 2375 | cut -d' ' -f2- | xargs -rL1 iptables -D: each rule listed
            return _verdict(IMPAIR, invocation, "deletes the firewall rules a listing fed it")
        if _door_for_one_address(values):
            why = "redirects one address's connections to another port: a door only that address can use"
            return _verdict(IMPAIR, invocation, why)
        if _redirects_own_traffic(values, flags):
            return _verdict(
                IMPAIR, invocation, "redirects the machine's own connections elsewhere (DNAT in OUTPUT)"
            )
        if _drops_outgoing(values):
            return _cuts_outgoing(invocation)
        return _firewall_rule(invocation, words)
    elif name in _FIREWALL_LOADERS and (name != "nft" or "-f" in values or "--file" in values):
        files = [v for v in values if not v.startswith("-")] or ["-"]
        fed = [
            invocation.command.static(r.target) or "-" for r in invocation.command.redirects if r.op == "<"
        ]
        sources = fed if name.endswith("-restore") and fed else files
        if not all(f.startswith("/etc/") for f in sources):
            return _verdict(IMPAIR, invocation, f"replaces the firewall's rules with {sources[0]}")
    elif name == "nft":
        if (
            words[:1] in (["flush"], ["delete"])
            and len(words) > 1
            and words[1] in ("ruleset", "table", "chain", "rule")
        ):
            return _verdict(IMPAIR, invocation, f"{words[0]}es the firewall's {words[1]}")
        lowered = [word.strip(";{}").lower() for word in words]
        if (
            lowered[:1] in (["add"], ["insert"], ["create"])
            and "output" in lowered
            and ({"drop", "reject"} & set(lowered))
            and not _to_metadata(lowered)
        ):
            return _cuts_outgoing(invocation)
        return _firewall_rule(invocation, words)
    elif name == "ufw":
        if "--dry-run" in values:
            return None  # ufw --dry-run shows what a command would do
        if (
            words[:1] in (["disable"], ["reset"])
            or words[:2] == ["default", "allow"]
            or words[:2] == ["logging", "off"]
        ):
            return _verdict(IMPAIR, invocation, f"ufw {' '.join(words[:2])} turns the firewall off")
        if words[:2] in (["default", "deny"], ["default", "reject"]) and words[2:3] == ["outgoing"]:
            return _cuts_outgoing(invocation)
        if words[:1] in (["deny"], ["reject"]) and words[1:2] == ["out"]:
            return _cuts_outgoing(invocation)
        return _firewall_rule(invocation, words)
    elif name == "firewall-cmd":
        if any("trusted" in v for v in values) and any(
            v.startswith(("--set-default-zone", "--add-source", "--add-interface", "--zone")) for v in values
        ):
            return _verdict(IMPAIR, invocation, "puts traffic in the trusted zone: no filtering")
        if "--panic-on" in values:
            return None  # drops every packet: an outage, not an opening
        if any(v.startswith(("--add-rule", "--direct")) for v in values) and _drops_outgoing(values):
            return _cuts_outgoing(invocation)
        return _firewall_rule(invocation, words)
    elif name == "pfctl":
        if "d" in _short_flags(values) or "F" in _short_flags(values):
            return _verdict(IMPAIR, invocation, "turns pf off or flushes its rules")
        return _pf_rules_loaded(invocation, values)
    elif name == "netsh" and "advfirewall" in values and any(v.lower() in ("off", "disable") for v in values):
        return _verdict(IMPAIR, invocation, "turns the Windows firewall off")
    return None


_PF_DEFAULT_RULES = frozenset({"/etc/pf.conf", "/private/etc/pf.conf"})
"""The ruleset macOS loads at boot: reloading it after an edit is the ordinary step."""


def _pf_rules_loaded(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``pfctl -f FILE`` (also in a cluster, ``-evf FILE``): pf's rules replaced by a file's, which may
    redirect or drop any traffic. From a temporary or the user's place it is an attacker's ruleset
    (blocked); another file of ``/etc`` loaded as the whole ruleset (``/etc/pf.anchors/NAME``) is asked;
    ``/etc/pf.conf`` reloaded and a parse-only run (``-n``) pass."""
    loaded = None
    for index, value in enumerate(values):
        if value.startswith("-") and not value.startswith("--") and "f" in value:
            flags, _, attached = value[1:].partition("f")
            if "n" in flags:
                return None  # -nf: parsed, not loaded
            loaded = attached or (values[index + 1] if index + 1 < len(values) else None)
            break
    parse_only = any(v[:1] == "-" and v[1:].isalpha() and "n" in v.partition("f")[0] for v in values)
    if loaded is None or parse_only:
        return None
    if not loaded.startswith(("/etc/", "/private/etc/")):
        return _verdict(IMPAIR, invocation, f"replaces pf's rules with {loaded}")
    if loaded not in _PF_DEFAULT_RULES and "-a" not in values:
        return _verdict(SYSTEM_CONFIG, invocation, f"loads {loaded} as pf's whole ruleset")
    return None


def _drops_outgoing(values: list[str]) -> bool:
    """An iptables (or firewalld direct) rule that drops or rejects in the OUTPUT chain."""
    upper = [value.upper() for value in values]
    chain = any(
        value in ("-A", "-I", "--APPEND", "--INSERT", "--ADD-RULE") or value.startswith("--ADD-RULE")
        for value in upper
    )
    target = any(
        upper[index] in ("-J", "--JUMP") and upper[index + 1] in ("DROP", "REJECT")
        for index in range(len(upper) - 1)
    )
    return chain and target and "OUTPUT" in upper and not _to_metadata(values)


_METADATA_ADDRESSES = ("169.254.", "fd00:ec2::254")
"""The cloud metadata service (link-local): cutting a machine off from it is hardening, not an outage."""


def _to_metadata(words: list[str]) -> bool:
    """``iptables -A OUTPUT -d 169.254.169.254 -j DROP``, ``nft … ip daddr 169.254.169.254 drop``:
    the rule drops only what goes to the metadata service (how hosts keep containers from its keys)."""
    return any(
        words[index] in ("-d", "--destination", "--dst", "daddr")
        and words[index + 1].startswith(_METADATA_ADDRESSES)
        for index in range(len(words) - 1)
    )


def _cuts_outgoing(invocation: Invocation) -> Verdict:
    """What this machine may reach cut off: all of it, a port (a rival miner's pool), an address (a
    monitoring agent's server). A person decides: a developer seldom needs it."""
    why = "drops what the machine sends out (all of it, or to a port or address)"
    return _verdict(SERVICE, invocation, why)


def _redirects_own_traffic(values: list[str], flags: set[str]) -> bool:
    """``iptables -t nat -A OUTPUT -p udp --dport 53 -j DNAT --to 8.8.8.8:53``: what this machine
    connects to (its DNS, its update server) is sent somewhere else.

    PREROUTING redirects (``--dport 80 -j REDIRECT --to-port 8080``) forward what comes in,
    which is how people put a server on a low port: not judged here.
    """

    def after(option: str) -> str:
        return values[values.index(option) + 1] if option in values[:-1] else ""

    table = after("-t") or after("--table")
    chain = next(
        (values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-A", "-I", "--append", "--insert")), ""
    )
    target = after("-j") or after("--jump")
    return table == "nat" and chain.upper() == "OUTPUT" and target.upper() in ("DNAT", "REDIRECT")


def _door_for_one_address(values: list[str]) -> bool:
    """``iptables -t nat -I PREROUTING -s 203.0.113.9 -p tcp --dport 22 -j REDIRECT --to-ports 42391``:
    BPFDoor's rule. Connections to an open port from one address go to a hidden listener; everyone
    else still reaches the real service. A low-port redirect for a server names no source."""
    upper = [value.upper() for value in values]
    table = next((upper[i + 1] for i, v in enumerate(upper[:-1]) if v in ("-T", "--TABLE")), "")
    adds = any(v in ("-A", "-I", "--APPEND", "--INSERT") for v in upper)
    target = next((upper[i + 1] for i, v in enumerate(upper[:-1]) if v in ("-J", "--JUMP")), "")
    source = {"-S", "--SOURCE", "--SRC"} & set(upper)
    return (
        table == "NAT" and adds and "PREROUTING" in upper and target in ("REDIRECT", "DNAT") and bool(source)
    )


_ATTRIBUTE_OPTIONS = frozenset({"-R", "-V", "-f", "-v", "-p"})
"""chattr's options; every other word starting with ``-``, ``+`` or ``=`` is a mode."""


def _outside_project(word: str, home: str, cwd: str | None) -> bool:
    """A path outside the working directory, or one known only when the command runs (``$TARGET``)."""
    if word.startswith(("$", "`")) or "$(" in word:
        return True
    path = normalize_path(word, home=home, cwd=cwd)
    if not path.startswith("/"):
        return False  # relative, the working directory unknown: the project's
    root = (cwd or "").rstrip("/")
    return not (root and (path == root or path.startswith(root + "/")))


def _attributes(invocation: Invocation, home: str) -> Verdict | None:
    """``chattr +i /etc/passwd``, ``chattr -ia /root/.ssh/authorized_keys``: a file outside the project
    made immutable or append-only, or freed of it.

    Locking is how malware keeps its cron jobs, keys and binaries from being removed (even by
    root, until the flag goes); unlocking is the step before changing a protected file. A
    project's own files (``chattr +i path/to/file``, tldr's example) are the user's to lock.
    """
    if invocation.name != "chattr":
        return None
    words = [invocation.command.static(w) for w in invocation.args]
    modes, targets, skip = [], [], False
    for word in (w if w is not None else "$(...)" for w in words):  # a substitution: known when it runs
        if skip:
            skip = False
        elif word in ("-v", "-p"):
            skip = True
        elif word in _ATTRIBUTE_OPTIONS:
            continue
        elif word[:1] in "+-=" and len(word) > 1:
            modes.append(word[1:])
        else:
            targets.append(word)
    if not any(letter in mode for mode in modes for letter in "ia"):
        return None
    for target in targets:
        if _outside_project(target, home, invocation.cwd):
            return _verdict(
                IMPAIR,
                invocation,
                f"changes whether {target} can be changed or deleted (immutable, append-only)",
            )
    return None


_UNINSTALL = lazy_compile(r"uninst|remove|stop|disable|kill|unload", re.IGNORECASE)
_UNINSTALL_OPTION = lazy_compile(r"--?(?:uninstall|remove|stop|disable|kill|unload)", re.IGNORECASE)
"""The same told as an option (``/opt/eset/esets/sbin/esets_daemon --stop``, ``bdscan --disable``)."""
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash", "busybox"})


def _agent_uninstaller(invocation: Invocation) -> Verdict | None:
    """``/usr/local/qcloud/YunJing/uninst.sh``, ``/usr/local/cloudmonitor/CmsGoAgent.linux-amd64 uninstall``:
    a security agent's own program told to remove or stop it."""
    words = list(invocation.command.words)
    head = len(words) - len(invocation.args) - 1  # the program's word: wrappers (sudo ...) come before it
    if head < 0:
        return None
    words = [invocation.command.static(w) or w for w in words[head:]]
    program, rest = words[0], words[1:]
    fetched = next(filter(None, map(_uninstaller_url, rest)), None)
    if fetched is not None:
        return _verdict(IMPAIR, invocation, f"fetches {fetched}, a security agent's uninstaller")
    if invocation.name == "socketfilterfw":
        return None  # the firewall's own options: macos.py judges them, in one place
    if invocation.name in _SHELLS or invocation.name.startswith("$"):  # bash X, ${sudo} X: X is what runs
        scripts = [w for w in rest if not w.startswith("-")]
        if not scripts:
            return None
        program, rest = scripts[0], scripts[1:]
    if "/" not in program:
        return None
    directories, _, leaf = program.rpartition("/")
    if _ALIBABA_UNINSTALLER.match(leaf):
        return _verdict(IMPAIR, invocation, f"runs {program}, Alibaba Cloud's security agent uninstaller")
    if not any(_SECURITY.search(part) for part in [*directories.split("/"), leaf] if part):
        return None
    if (
        _UNINSTALL.search(leaf)
        or any(_UNINSTALL.search(w) for w in rest if not w.startswith("-"))
        or any(_UNINSTALL_OPTION.fullmatch(w) for w in rest)
    ):
        return _verdict(IMPAIR, invocation, f"runs {program} to remove or stop a security agent")
    return None


_ALIBABA_UNINSTALLER = lazy_compile(r"^quartz_uninstall(?:\.sh)?$", re.IGNORECASE)
"""The uninstaller of Alibaba Cloud's host security agent (aegis' quartz), run wherever it was saved."""
_URL_PARTS = lazy_compile(r"^(?:https?|ftp)://([^/?#]+)(/[^?#]*)?", re.IGNORECASE)


def _uninstaller_url(word: str) -> str | None:
    """``http://update.aegis.aliyun.com/download/uninstall.sh``: a URL of a security agent's uninstaller
    (fetched to be run: cryptojacking scripts remove the cloud's agents first)."""
    match = _URL_PARTS.match(word) if "://" in word[:10] else None
    if match is None or not match.group(2):
        return None
    leaf = match.group(2).rstrip("/").rsplit("/", 1)[-1]
    if not (_UNINSTALL.search(leaf) or _ALIBABA_UNINSTALLER.match(leaf)):
        return None
    if any(_SECURITY.search(part) for part in match.group(1).split(".") + match.group(2).split("/") if part):
        return word
    return None


_DELETERS = frozenset({"rm", "unlink", "shred", "srm", "wipe", "rmdir"})
_USERS_PLACES = ("/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/", "/Users/", "/home/")


_ROOT_VARIABLE = lazy_compile(r"^\$\{?([A-Za-z_]\w*)\}?/")
"""The variable a path starts from (``${AEGIS_INSTALL_DIR}/globalcfg``): its name says what it holds."""


def _agent_deleted(invocation: Invocation, home: str) -> Verdict | None:
    """``rm -rf ${AEGIS_INSTALL_DIR}/alihids``, ``rm -rf /usr/local/qcloud``: an agent's files deleted.

    A path under a variable named for an agent (``${AEGIS_INSTALL_DIR}/globalcfg/domaincfg.ini``) is the
    agent's, whatever its last component.

    Named by its last component, in a system place or a directory only a variable names
    (where the agent is installed); a checkout of the same name in the home directory, the
    temporary directory or the project (``rm -rf ~/src/falco``, ``rm -rf build/aide``) is a developer's.
    """
    if invocation.name not in _DELETERS:
        return None
    for value in _values(invocation):
        if value.startswith("-"):
            continue
        root = _ROOT_VARIABLE.match(value)
        agent = _SECURITY.search(root.group(1).lower().replace("_", " ")) if root else None
        if root and agent and len(agent.group(0).strip()) > 3:  # not PF_DIR, ALF_X: too short to say
            return _verdict(
                IMPAIR, invocation, f"deletes {value}, under {root.group(1)}: a security agent's files"
            )
        leaf = value.rstrip("/").rsplit("/", 1)[-1]
        if not leaf or not _SECURITY.search(leaf):
            continue
        variable = value.startswith("$") and not value.startswith(("$HOME", "${HOME}", "$PWD", "${PWD}"))
        path = normalize_path(value, home=home, cwd=invocation.cwd)
        system = path.startswith("/") and not path.startswith((home.rstrip("/") + "/", *_USERS_PLACES))
        if variable or (system and value.startswith("/")):
            return _verdict(IMPAIR, invocation, f"deletes {value}, a security or monitoring agent")
    return None


_SOCKET_ADDRESS = lazy_compile(r"^(?:UNIX-CONNECT|UNIX-CLIENT|UNIX-SENDTO|UNIX|LOCAL):([^,]+)", re.IGNORECASE)


def _agent_socket(invocation: Invocation, home: str) -> Verdict | None:
    """``echo SHUTDOWN | socat - UNIX-CONNECT:/run/clamav/clamd.ctl``: a command sent to a security
    agent's control socket (Metasploit's disable_clamav)."""
    if invocation.name not in ("socat", "nc", "ncat", "netcat"):
        return None
    values = _values(invocation)
    paths = [m.group(1) for m in map(_SOCKET_ADDRESS.match, values) if m]
    if invocation.name != "socat":
        paths += [values[i + 1] for i, v in enumerate(values[:-1]) if v == "-U" or v == "--unixsock"]
    for path in paths:
        place = location(path, home=home, cwd=invocation.cwd)
        if place is not None and place[0] == IMPAIR:
            return _verdict(IMPAIR, invocation, f"talks to {path}, {place[1]}")
    return None


def judge_script(script: Script, home: str) -> Verdict | None:
    """``ps -ef | grep AliSecGuard | awk '{print $2}' | xargs kill``: a defense killed through the
    pipeline that finds it by name (the kill names only the numbers it is fed)."""
    for stages in walk(script):
        for index, stage in enumerate(stages):
            if stage.name not in _KILLERS or index == 0:
                continue
            for finder in stages[:index]:
                if finder.name in ("grep", "egrep", "fgrep", "pgrep", "pidof", "awk") and any(
                    _SECURITY.search(v) for v in _values(finder) if not v.startswith("-")
                ):
                    return _verdict(IMPAIR, stage, "kills a defense its pipeline found by name")
    return None


def _esxi_defenses(invocation: Invocation) -> Verdict | None:
    """An ESXi host's logging moved where a reboot empties it (``esxcli system syslog config set
    --logdir=/tmp``) or sent nowhere (``--loghost=``), its audit records or its firewall turned off
    (``esxcli network firewall set --enabled false``): what ESXi intruders do before they encrypt.
    Any other change to where the host logs is its configuration: asked."""
    if invocation.name != "esxcli":
        return None
    values = _values(invocation)
    spoken = f" {' '.join(v for v in values if not v.startswith('-'))} "
    options = {v.partition("=")[0]: v.partition("=")[2] for v in values if v.startswith("--")}
    if " system syslog config set " in spoken:
        moved = options.get("--logdir", "").startswith(("/tmp", "/var/tmp", "/dev/null"))
        if moved or ("--loghost" in options and not options["--loghost"]):
            return _verdict(IMPAIR, invocation, "sends the ESXi host's logs where they are lost")
        return _verdict(SYSTEM_CONFIG, invocation, "changes where the ESXi host logs")
    if " system auditrecords " in spoken and " disable " in spoken:
        return _verdict(IMPAIR, invocation, "turns the ESXi host's audit records off")
    turned_off = any(v.partition("=")[2 if v.startswith("--") else 0].lower() in _FALSEY for v in values)
    if " network firewall unload " in spoken or (
        " network firewall set " in spoken and ("--enabled" in options or "-e" in values) and turned_off
    ):
        return _verdict(IMPAIR, invocation, "turns the ESXi host's firewall off")
    return None


_UFW_CHANGES = frozenset({"allow", "deny", "reject", "limit", "delete", "insert", "prepend", "route",
                          "enable", "default", "logging"})  # fmt: skip
_FIREWALLD_CHANGES = ("--add-", "--remove-", "--set-", "--change-", "--new-", "--delete-", "--direct",
                      "--runtime-to-permanent", "--load-")  # fmt: skip
_NFT_CHANGES = frozenset({"add", "insert", "replace", "create", "delete", "destroy", "flush", "rename",
                          "reset"})  # fmt: skip
_IPTABLES_CHANGES = frozenset({"A", "I", "R", "D", "P", "N", "E"})
_IPTABLES_LONG_CHANGES = frozenset({"--append", "--insert", "--replace", "--delete", "--policy",
                                    "--new-chain", "--rename-chain"})  # fmt: skip


def _firewall_rule(invocation: Invocation, words: list[str]) -> Verdict | None:
    """Any other change to the host's firewall rules: asked.

    The firewall is the machine's, not the project's: no coding task needs a rule added, and
    an attack script opens a port for its door (``iptables -A INPUT -p tcp --dport 4444 -j
    ACCEPT``, ``ufw allow 31337``) or locks rivals out exactly as an administrator hardens a
    server (``ufw default deny incoming``). The text cannot tell them apart, so a person does;
    listing the rules (``iptables -L``, ``ufw status``, ``nft list ruleset``, ``firewall-cmd
    --list-all``) runs. The openings and flushes no administrator does blindly are blocked
    before this (IMPAIR).
    """
    name = invocation.name
    values = _values(invocation)
    if name == "ufw":
        changed = bool(words) and words[0] in _UFW_CHANGES
    elif name == "firewall-cmd":
        changed = any(v.startswith(_FIREWALLD_CHANGES) for v in values)
    elif name == "nft":
        changed = bool(words) and words[0] in _NFT_CHANGES
    else:  # iptables and its kin
        changed = bool(_short_flags(values) & _IPTABLES_CHANGES or _IPTABLES_LONG_CHANGES & set(values))
    if not changed:
        return None
    shown = f"{name} {' '.join(words[:2])}" if name in ("ufw", "nft") else name
    return _verdict(SYSTEM_CONFIG, invocation, f"changes the host's firewall rules: {shown}")


_DMESG_CLEARS = lazy_compile(r"^--(?:clear|read-clear)$|^-[^-lfnsFKc]*[cC]")
"""``dmesg -C``/``-c``/``--clear``: a cluster's letters before the c take no value (``-lcrit`` is a level)."""
_BPF_DETACH = {"prog": ("detach",), "link": ("detach",), "net": ("detach",), "cgroup": ("detach",),
               "struct_ops": ("unregister",)}  # fmt: skip
_BPF_MAP_WRITES = frozenset({"delete", "update", "freeze"})
_BPF_ATTACH_TO = {"prog": "a kernel hook", "cgroup": "a cgroup (every process in it)",
                  "net": "a network interface (every packet)"}  # fmt: skip


def _kernel_traces(invocation: Invocation) -> Verdict | None:
    """The kernel's own record and probes: ``dmesg -C`` (the ring buffer emptied: module loads,
    segfaults and audit lines gone) and ``bpftool prog detach`` (an eBPF sensor unhooked: how
    rootkits blind Falco, Tracee and EDR agents). ``bpftool map update``/``delete`` rewrites what a
    loaded program filters on, ``tc filter add dev eth0 ingress bpf obj door.o`` hooks every packet
    (BPFDoor's way in), ``bpftool cgroup attach`` hooks every socket of a cgroup (eBPF rootkits'
    way to see and rewrite connections): asked, since eBPF developers do both to their own programs."""
    name = invocation.name
    values = _values(invocation)
    if name == "dmesg" and any(_DMESG_CLEARS.match(v) for v in values):
        return _verdict(EVIDENCE, invocation, "empties the kernel's ring buffer (dmesg's record)")
    if name == "bpftool":
        words = [v for v in values if not v.startswith("-")]
        if len(words) >= 2 and words[1] in _BPF_DETACH.get(words[0], ()):
            why = f"bpftool {words[0]} {words[1]} unhooks a loaded eBPF program (a sensor's probes)"
            return _verdict(IMPAIR, invocation, why)
        if len(words) >= 2 and words[0] == "prog" and words[1] in ("load", "loadall"):
            why = f"bpftool prog {words[1]} loads an eBPF program into the kernel (it may hide or intercept)"
            return _verdict(SYSTEM_CONFIG, invocation, why)
        if len(words) >= 2 and words[0] in _BPF_ATTACH_TO and words[1] == "attach":
            why = f"bpftool {words[0]} attach hooks an eBPF program to {_BPF_ATTACH_TO[words[0]]}"
            return _verdict(SYSTEM_CONFIG, invocation, why)
        if len(words) >= 2 and words[0] == "map" and words[1] in _BPF_MAP_WRITES:
            why = f"bpftool map {words[1]} rewrites a loaded eBPF program's map (its filters and lists)"
            return _verdict(SYSTEM_CONFIG, invocation, why)
    if name == "tc" and "bpf" in values and "filter" in values and {"add", "replace", "change"} & set(values):
        why = "tc attaches an eBPF classifier to a network interface (it sees, and can act on, every packet)"
        return _verdict(SYSTEM_CONFIG, invocation, why)
    return None


def _memory(invocation: Invocation) -> Verdict | None:
    """Swap and the page cache emptied: traces of what ran are gone from memory (the machine may run out)."""
    name = invocation.name
    values = _values(invocation)
    if name == "swapoff" and ({"-a", "--all"} & set(values) or "a" in _short_flags(values)):
        return _verdict(IMPAIR, invocation, "turns swap off, discarding what memory forensics would find")
    if name == "sysctl" and any(v.replace("/", ".").startswith("vm.drop_caches=") for v in values):
        return _verdict(
            IMPAIR, invocation, "drops the kernel's caches, discarding what memory forensics would find"
        )
    return None


def _mandatory_access(invocation: Invocation) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    if name == "setenforce" and values and values[0].lower() in ("0", "permissive"):
        return _verdict(IMPAIR, invocation, "puts SELinux in permissive mode: nothing is enforced")
    if name in ("aa-teardown", "aa-disable", "aa-complain"):
        return _verdict(IMPAIR, invocation, f"{name} lifts AppArmor's confinement")
    if name == "apparmor_parser" and ({"-R", "--remove"} & set(values) or "R" in _short_flags(values)):
        return _verdict(IMPAIR, invocation, "unloads AppArmor profiles")
    if name == "semodule" and ({"-d", "--disable", "-DB"} & set(values)):
        return _verdict(IMPAIR, invocation, "disables SELinux policy")
    if name in ("grubby", "kernelstub", "rpm-ostree", "grub2-editenv") and any(
        _KERNEL_ARGS.search(v) for v in values
    ):
        return _verdict(IMPAIR, invocation, "boots the kernel without its security modules")
    if name == "nvram" and any(_KERNEL_ARGS.search(v.partition("=")[2]) for v in values):
        return _verdict(IMPAIR, invocation, "boots macOS without code-signing enforcement")
    if name == "sysctl":
        for value in values:
            key, sep, setting = value.partition("=")
            floor = _HARDENING.get(key.replace("/", "."))
            if sep and floor is not None and setting.strip().lstrip("-").isdigit() and int(setting) < floor:
                return _verdict(IMPAIR, invocation, f"lowers the kernel hardening setting {key}")
    return None


_INSTALLED = ("/Applications/", "/System/", "/Library/", "/usr/", "/bin/", "/sbin/", "/opt/homebrew/")


def _resigns_installed(values: list[str]) -> bool:
    """``codesign --remove-signature /Applications/X.app``, ``codesign -f -s - /usr/bin/x``.

    Signing the project's build output is what codesign is for; an installed program
    re-signed or unsigned loses what Gatekeeper, TCC and the keychain trust it by.
    """
    changes = "--remove-signature" in values or (
        any(v in ("-f", "--force") or (v[:1] == "-" and v[1:2] != "-" and "f" in v[1:]) for v in values)
        and any(v in ("-s", "--sign") or (v[:1] == "-" and v[1:2] != "-" and v.endswith("s")) for v in values)
    )
    return changes and any(v.startswith(_INSTALLED) for v in values)


_BUILD_OUTPUT = lazy_compile(
    r"^(?:\./)?(?:[^/]+/)*(?:build|\.build|DerivedData|dist|out|target|Products|release|debug)/",
    re.IGNORECASE,
)
"""A path through a build output directory: what the project built, which no download quarantined
(``myapp.app`` alone, in the working directory, may be a download)."""


def _macos(invocation: Invocation, home: str) -> Verdict | None:
    name = invocation.name
    values = _values(invocation)
    if name == "spctl" and (
        {"--master-disable", "--global-disable", "--add"} & set(values) or values == ["--disable"]
    ):
        return _verdict(IMPAIR, invocation, "turns Gatekeeper off, or waves a program through it")
    if name == "csrutil" and ("disable" in values or ("enable" in values and "--without" in values)):
        return _verdict(IMPAIR, invocation, "turns System Integrity Protection off")
    if name == "codesign" and _resigns_installed(values):
        return _verdict(IMPAIR, invocation, "strips or replaces the signature of an installed program")
    if (
        name == "defaults"
        and values[:1] in (["write"], ["delete"])
        and any(_MAC_DEFAULTS.search(v) for v in values)
    ) and (values[0] == "delete" or any(v.lower() in _FALSEY for v in values[2:])):
        return _verdict(IMPAIR, invocation, "turns a macOS protection off (quarantine, Gatekeeper, firewall)")
    if (
        name == "tccutil"
        and values[:1] == ["reset"]
        and len([v for v in values if not v.startswith("-")]) < 3
    ):
        return _verdict(IMPAIR, invocation, "resets every app's privacy permissions")
    if name == "chmod" and any(_hides_attributes(v) for v in values):
        # CVE-2022-42821: Gatekeeper cannot read the quarantine it is never shown
        why = "hides a file's extended attributes (its quarantine) from Gatekeeper"
        return _verdict(IMPAIR, invocation, why)
    if name == "xattr":
        flags = _short_flags(values)
        targets = [v for v in values if not v.startswith("-") and v != "com.apple.quarantine"]
        outside = [
            t
            for t in targets
            if t.startswith(("/", "~", "$"))
            or ".." in t
            or "/Downloads" in normalize_path(t, home=home, cwd=invocation.cwd)
        ]
        built = targets and all(_BUILD_OUTPUT.match(t) for t in targets) and not outside
        if "com.apple.quarantine" in values and "d" in flags and not built:
            # a build output of the project (build/App.app) carries no quarantine of the internet's
            return _verdict(IMPAIR, invocation, "removes Gatekeeper's quarantine, so it is never checked")
        if "c" in flags and outside:
            return _verdict(IMPAIR, invocation, "clears the quarantine of a file from outside the project")
    if name in ("sqlite3", "sqlite") and any(_SQL_WRITE.search(v) for v in values):
        for value in values:
            place = location(value, home=home, cwd=invocation.cwd)
            if place is not None and place[0] in _MY_PLACES:
                return _verdict(place[0], invocation, f"changes the database of {place[1]}")
    return None


def _trust(invocation: Invocation) -> Verdict | None:
    """A new root certificate, or TLS verification off for every later command."""
    name = invocation.name
    values = _values(invocation)
    lowered = [v.lower() for v in values]
    if name == "trust" and values[:1] == ["anchor"] and "--remove" not in values:
        return _verdict(IMPAIR, invocation, "adds a trusted root certificate")
    if name == "security" and values[:1] and values[0] in ("add-trusted-cert", "trust-settings-import"):
        return _verdict(IMPAIR, invocation, "adds a trusted root certificate to a macOS keychain")
    if name == "certutil" and ({"-A", "--add", "-addstore"} & set(values)):
        return _verdict(IMPAIR, invocation, "adds a certificate to a trust store")
    if (
        name == "keytool"
        and {"-importcert", "-import"} & set(values)
        and ("-cacerts" in values or any(v.endswith("cacerts") and not v.startswith("-") for v in values))
    ):
        return _verdict(IMPAIR, invocation, "adds a root certificate to Java's trust store")
    if name == "mkcert" and "-install" in values and "-help" not in values:
        return _verdict(IMPAIR, invocation, "installs a local root certificate whose key sits on disk")
    if name == "git" and "config" in values and ("--global" in values or "--system" in values):
        for index, value in enumerate(lowered[:-1]):
            if value == "http.sslverify" and lowered[index + 1] in _FALSEY:
                return _verdict(IMPAIR, invocation, "turns TLS verification off for every git command")
    if (
        name in ("npm", "yarn", "pnpm")
        and "set" in values
        and any(v.strip("\"'").partition("=")[0] == "strict-ssl" for v in values)
    ) and any(v.rpartition("=")[2] in _FALSEY for v in lowered):
        return _verdict(IMPAIR, invocation, f"turns TLS verification off for every {name} command")
    if re.fullmatch(r"pip[0-9.]*", name) and "set" in values and any("trusted-host" in v for v in values):
        return _verdict(IMPAIR, invocation, "lets pip install from a host without TLS verification")
    if name in ("conda", "mamba") and "ssl_verify" in values and any(v in _FALSEY for v in lowered):
        return _verdict(IMPAIR, invocation, f"turns TLS verification off for every {name} command")
    if name == "composer" and any(v in ("disable-tls", "secure-http") for v in values):
        return _verdict(IMPAIR, invocation, "turns TLS verification off for composer")
    if name in ("export", "declare", "typeset", "setenv") or (not name and invocation.env):
        assignments = [v for v in values if "=" in v] if name else list(invocation.env)
        for assignment in assignments:
            if _TRUST_OFF_ENV.match(assignment.replace("'", "").replace('"', "")):
                return _verdict(IMPAIR, invocation, f"{assignment}: TLS is no longer verified")
    return None


def _places(invocation: Invocation, home: str) -> Verdict | None:
    found = located(invocation, home, _MY_PLACES)
    if found is not None:
        return _verdict(found[0], invocation, found[1])
    return None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """The first finding of evidence destroyed or a defense impaired in ``invocation``."""
    return (
        _places(invocation, home)
        or _history(invocation)
        or _self_deleted(invocation)
        or _logs(invocation, home)
        or _security_services(invocation)
        or _agent_uninstaller(invocation)
        or _agent_deleted(invocation, home)
        or _agent_socket(invocation, home)
        or _attributes(invocation, home)
        or _firewall(invocation)
        or _esxi_defenses(invocation)
        or _mandatory_access(invocation)
        or _memory(invocation)
        or _kernel_traces(invocation)
        or _macos(invocation, home)
        or _trust(invocation)
        or _masquerade(invocation)
        or _process_hider(invocation)
        or _login_record_cleaner(invocation)
        or _secure_boot_off(invocation)
    )


_LOGIN_RECORD_CLEANER = lazy_compile(
    r"^(?:[ubw]tmp|lastlog|utmpx?|wtmpx?)[-_.]?(?:clean|clear|edit|wipe|zap|fake|rm)\w*(?:\.(?:py|sh|pl|c))?$|"
    r"^(?:clean|clear|wipe|zap)[-_.]?(?:[ubw]tmp|lastlog)\w*(?:\.(?:py|sh|pl|c))?$",
    re.IGNORECASE,
)
"""``utmpclean``, ``wtmpclean.py``, ``clear_lastlog``: a tool named for editing the login records (who logged
in from where); nothing a project builds is called so."""


def _login_record_cleaner(invocation: Invocation) -> Verdict | None:
    """``./utmpclean -u root -a 10.0.0.5``, ``python3 wtmpclean.py -i IP``: the login records edited."""
    words = [invocation.name, *(v for v in _values(invocation)[:1] if invocation.name in _INTERPRETERS)]
    for word in words:
        leaf = word.rstrip("/").rsplit("/", 1)[-1]
        if _LOGIN_RECORD_CLEANER.match(leaf):
            return _verdict(EVIDENCE, invocation, f"runs {leaf}, a tool that edits the login records")
    return None


_INTERPRETERS = frozenset({"python", "python2", "python3", "perl", "sh", "bash", "dash", "zsh", "ruby"})


def _secure_boot_off(invocation: Invocation) -> Verdict | None:
    """``mokutil --disable-validation``: shim stops checking signatures at the next boot, so an unsigned
    kernel or module (a rootkit) loads."""
    if invocation.name == "mokutil" and "--disable-validation" in _values(invocation):
        return _verdict(IMPAIR, invocation, "turns off Secure Boot's signature checks (shim validation)")
    return None


_PROCESS_HIDER = lazy_compile(r"process-?hider|libprocesshider", re.IGNORECASE)
"""``libprocesshider`` (an ``LD_PRELOAD`` library that drops a program from ``/proc`` listings) and
``node-process-hider``: whatever they are given to hide no ``ps``, ``top`` or monitor shows."""
_INSTALLERS = frozenset({"npm", "pnpm", "yarn", "bun", "pip", "pip3", "pipx", "gem", "cargo", "git", "go",
                         "wget", "curl", "apt", "apt-get", "yum", "dnf", "make", "gcc", "cc"})  # fmt: skip
_HIDER_VERBS = frozenset({"add", "hide"})


def _process_hider(invocation: Invocation) -> Verdict | None:
    """A process hider installed, fetched or built (``npm i -g node-process-hider``, ``git clone
    …/libprocesshider``, ``gcc … processhider.c``), or told what to hide (``ph add sgr1``, its CLI)."""
    name = invocation.name
    values = _values(invocation)
    if name == "ph" and values and values[0] in _HIDER_VERBS and len(values) > 1:
        return _verdict(
            IMPAIR, invocation, f"hides {values[1]} from every process listing (node-process-hider)"
        )
    if name in _INSTALLERS and any(_PROCESS_HIDER.search(v) for v in values if not v.startswith("-")):
        return _verdict(IMPAIR, invocation, "a process hider: the programs it hides vanish from ps and top")
    return None


def _same_program(shown: str, name: str) -> bool:
    """``python3`` for ``python3.12``, ``vim`` for ``vim.basic``: one name a prefix of the other."""
    return bool(shown) and (name.startswith(shown) or shown.startswith(name))


_OWN_NAME_VARIABLE = lazy_compile(r"^-?\$\{?(?:0|ARGV0|BASH_ARGV0|argv0)\b")
"""``$0``, ``${ARGV0:-$0}``, ``-$0``: a wrapper's own name, kept."""


def _masquerade(invocation: Invocation) -> Verdict | None:
    """``exec -a NAME PROGRAM`` with another program's name, any ``zapper`` run: what ``ps`` shows is a lie.

    ``exec -a "$0" …`` (a wrapper keeping its own name) and ``exec -a -bash bash`` (a login shell's
    leading dash) keep the program's own name: ordinary. A name held in another variable (``exec -a
    "$PROCNAME" $CMD``) is a dropper's disguise or a test's marker: unseen, asked."""
    if "zapper" in invocation.wrappers:
        return _verdict(IMPAIR, invocation, "zapper hides the command line from ps (masquerading)")
    args = invocation.options_of("exec")
    if args is None or not invocation.name:
        return None
    for index, arg in enumerate(args):
        shown = (
            args[index + 1]
            if arg == "-a" and index + 1 < len(args)
            else arg[2:]
            if arg.startswith("-a")
            else ""
        )
        if shown and "$" in shown and not _OWN_NAME_VARIABLE.match(shown):
            why = f"runs {invocation.name} under a name held in {shown}: ps may show a lie (masquerading)"
            return _verdict(UNJUDGED_SCRIPT, invocation, why)
        if (
            shown
            and "$" not in shown
            and not _same_program(shown.lstrip("-").rsplit("/", 1)[-1], invocation.name)
        ):
            return _verdict(
                IMPAIR, invocation, f"runs {invocation.name} under the name {shown} (masquerading)"
            )
    return None


def _hides_attributes(value: str) -> bool:
    """A macOS ACL entry that stops anyone reading a file's extended attributes (``chmod +a "everyone
    deny readextattr" FILE``): a word search, linear however long the value."""
    lowered = value.lower()
    deny = lowered.find("deny")
    return deny >= 0 and "readextattr" in lowered[deny:]
