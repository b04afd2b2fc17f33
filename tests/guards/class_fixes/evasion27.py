"""Defense impairment and evidence destruction on fresh sources (helper evasion27).

Sources (store ids, see /work/wt/TACTICS.md): held out, a red-team Linux defense-evasion note
(6491387129); tuning, a miner dropper's "disabling security scanners" section (52439504932) and a
gitbook page on hiding processes (48488360049). Every command here is a variant written for the test
(other vendors, spellings, paths), not a measured line.

- Linux anti-virus daemons by their process and unit names (Sophos ``savd``/``savscand``, Bitdefender
  ``bdagent``/``bdscan``, McAfee/Trellix ``mfetpd``/``masvc``, Symantec ``rtvscand``, Kaspersky's
  ``klnagent``) killed, stopped or removed: defense impairment, as ClamAV and Falcon already were;
- a security agent's own program told ``--stop``/``--disable`` as an option
  (``/opt/eset/.../esets_daemon --stop``), or an installed agent told ``uninstall``
  (``elastic-agent uninstall``);
- a program named like a system tool (``ps``, ``netstat``, ``lsof``, ``who``, ``sudo`` ...) built,
  copied or installed into ``/usr/local/bin`` or ``/usr/local/sbin``, which come first on PATH: the
  trojaned tool that hides its owner, system file corruption; any other program there stays allowed;
- a process's ``comm`` written (``echo kworker > /proc/self/comm``): a masquerade, as ``exec -a`` was;
- a tool named for editing the login records (``utmpclean``, ``wtmpclean.py``, ``clear_lastlog``) run:
  evidence destruction; ``mokutil --disable-validation`` (Secure Boot's signature checks off, so an
  unsigned module loads): defense impairment.

Left allowed: deleting crash reports (``rm -rf /var/crash/*.crash``, the dropper's line) stays allowed
as impact25 decided (emptying /var/crash is Ubuntu's common fix for apport's notices).
"""

from __future__ import annotations

HELD = {
    "anti-virus daemons by process name": [
        "pkill -9 savscand",
        "killall -KILL bdagent 2>/dev/null",
        "kill -9 $(pidof masvc)",
        "systemctl stop mfetpd.service",
        "service rtvscand stop",
        "apt-get purge -y klnagent64",
        "systemctl mask --now bdredline.service",
    ],
    "agent program told to stop by option": [
        "/opt/bitdefender/bin/bdsecd --disable",
        "/opt/McAfee/ens/tp/bin/mfetpcli --stop",
        "sudo elastic-agent uninstall --force",
    ],
    "system tool shadowed in /usr/local/bin": [
        "cc -o /usr/local/bin/netstat /dev/shm/n.c",
        "gcc hide.c -o /usr/local/sbin/ss",
        "cp /tmp/.x/who /usr/local/bin/who",
        "install -m 0755 ./trojan /usr/local/bin/lsof",
        "mv /var/tmp/.p /usr/local/bin/pstree",
        "cat ./fake-sudo > /usr/local/bin/sudo",
    ],
    "process renamed through comm": [
        "printf '[kworker/0:1]' > /proc/self/comm",
        "echo sshd > /proc/$$/comm",
        "echo -n dbus-daemon | tee /proc/4242/comm",
    ],
    "login records edited by a named tool": [
        "/dev/shm/.u/wtmp-clean -u admin -a 203.0.113.7",
        "python2 utmp_edit.py --ip 198.51.100.2",
        "./cleanlastlog root",
    ],
    "secure boot validation off": [
        "sudo mokutil --disable-validation",
    ],
}

ALLOWED = [
    "journalctl -u app --since today",
    "aa-status",
    "getenforce",
    "auditctl -l",
    "touch -d '2020-01-01 00:00:00' dist/app.tar",
    "history | grep docker",
    "cat /proc/self/comm",
    "ps -o comm= -p $$",
    "gcc -o /usr/local/bin/mytool main.c",
    "ls -la /usr/local/bin/ps",
    "which netstat lsof",
    "ls /var/crash",
    "rm -f /var/crash/_usr_bin_node.1000.crash",
    "coredumpctl list",
    "mokutil --sb-state",
    "last -f /var/log/wtmp.1",
    "python3 scripts/clean_cache.py",
    "systemctl status bdredline",
    "pgrep -a savd",
    "./scripts/stop-services.sh --stop",
]
