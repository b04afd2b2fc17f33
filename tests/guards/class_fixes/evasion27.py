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
- the crash reports and core dumps deleted (``/var/crash``, systemd-coredump's): asked, not blocked
  (emptying /var/crash is also Ubuntu's common fix for apport's notices).
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
    "crash reports deleted": [
        "rm -f /var/crash/_tmp_.x_xmrig.0.crash",
        "find /var/lib/systemd/coredump -type f -delete",
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
    "coredumpctl list",
    "systemctl status bdredline",
    "pgrep -a savd",
    "./scripts/stop-services.sh --stop",
]
