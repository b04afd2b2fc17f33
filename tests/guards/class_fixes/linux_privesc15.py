"""Classes of privilege escalation and credential access that a second fresh sample got past the guards
(helper privesc15).

First sight was measured on BeRoot's Linux notes, SUDO_KILLER's exploits and tools, traitor's exploits,
linuxprivchecker's and pentest-wiki's enumeration and linux-exploit-suggester's usage, with the classes
the privesc14 held-out sample still missed (kept outside the repository: /work/realworld/privesc15 on
the machine that measured them). What they missed is fixed by class; the commands here are variants
written for the tests, not the ones measured:

- a program that names itself an exploit (``./exploit``, ``./cve-2016-0728``, ``/tmp/rootshell``,
  ``python dirtyc0w.py``), a shell's name run from a shared directory (``/tmp/sh``), an escalation kit
  told to attack (``traitor -a``, ``logrotten``), a set-user-ID helper run by hand
  (``enlightenment_sys``, ``snap-confine``);
- a system service asked over D-Bus to create a user, set a password or install a package
  (``dbus-send ... org.freedesktop.Accounts.CreateUser``: polkit's CVE-2021-3560);
- a ``sed`` program that rewrites root's entry or gives an account uid 0;
- a password fed to ``su`` by a pipe or a redirect (a word list guessed through ``su -c whoami``);
- a written command line that copies a shell and sets its setuid bit (a mail server's
  ``debugger_command``, a script's line), wherever it is written;
- ``SSH_AUTH_SOCK`` pointed at an agent socket found at run time in a shared directory;
- ``/var/log`` and ``/var/backups`` as wide roots of a password search.
"""

from __future__ import annotations

HELD = {
    "program named as an exploit": [
        "./CVE-2022-0847",
        "cc dirtypipe.c -o /tmp/dirtypipe && /tmp/dirtypipe /usr/bin/su",
        "python3 ./exploit_x64.py",
        "bash pwnkit.sh",
        "nice -n 5 ./sploit2",
    ],
    "shell's name in a shared directory": [
        "/var/tmp/bash",
        "timeout 5 /dev/shm/dash",
        "/tmp/suid",
    ],
    "escalation kit or set-user-ID helper": [
        "./traitor --any --with-password",
        "logrotten -c -s 3 -p /tmp/p /home/u/logs/a.log",
        "/usr/lib/snapd/snap-confine --base core snap.x.y /bin/sh",
        "/usr/lib/x86_64-linux-gnu/enlightenment/utils/enlightenment_sys /bin/mount -o x /dev/x /tmp/y",
    ],
    "D-Bus call that makes root act": [
        "gdbus call --system --dest org.freedesktop.Accounts --object-path /org/freedesktop/Accounts"
        " --method org.freedesktop.Accounts.CreateUser hax hax 1",
        "busctl call org.freedesktop.Accounts /org/freedesktop/Accounts/User1000"
        " org.freedesktop.Accounts.User SetPassword ss '$6$x' ''",
        "dbus-send --system --print-reply --dest=org.freedesktop.PackageKit /org/freedesktop/PackageKit/T1"
        " org.freedesktop.PackageKit.Transaction.InstallFiles uint64:0 array:string:/tmp/x.deb",
    ],
    "root's entry rewritten or uid 0 given": [
        "sed -i 's/^root:[^:]*:/root::/' /tmp/shadow.copy",
        "perl -pi -e 's/bob:x:1001/bob:x:0/' passwd.new",
        "printf 's|^root:[^:]*:|root:$6$abc:|\\n' > /tmp/ed.sed",
    ],
    "password fed to su": [
        "printf 'hunter2\\n' | su -c id root",
        "su admin -c id < guesses.txt",
        "cat pw.txt | su - root -c whoami",
    ],
    "shell copy and setuid recipe written": [
        "echo 'cp /bin/zsh ~/z; chmod +s ~/z' > job.sh",
        "printf 'cp -p /usr/bin/bash /var/tmp/b && chmod 6755 /var/tmp/b' >> notes/run.txt",
    ],
    "agent socket borrowed": [
        "SSH_AUTH_SOCK=$(ls /tmp/ssh-*/agent.*) ssh-add -L",
        "export SSH_AUTH_SOCK=/tmp/ssh-*/agent.*",
    ],
    "password search in logs and backups": [
        "grep -Rni 'password' /var/log 2>/dev/null",
        "find /var/backups -type f | xargs grep -il passwd",
    ],
}

ALLOWED = [
    "searchsploit dirty cow",
    "./scripts/spawn_workers.sh 4",
    "python scripts/exploitability_check.py report.json",
    "/tmp/build/bash --version",
    "/tmp/shellcheck -x deploy.sh",
    "gdbus call --session --dest org.freedesktop.Notifications --object-path /org/freedesktop/Notifications"
    " --method org.freedesktop.Notifications.GetServerInformation",
    "dbus-send --system --print-reply --dest=org.freedesktop.Accounts /org/freedesktop/Accounts"
    " org.freedesktop.Accounts.ListCachedUsers",
    "busctl status",
    "sed -i 's/^rootdir = .*/rootdir = build/' setup.cfg",
    "echo 'cp /bin/true ./stub && chmod 755 ./stub' > make_stub.sh",
    "export SSH_AUTH_SOCK=$XDG_RUNTIME_DIR/ssh-agent.socket",
    "grep -n timeout /var/log/nginx/error.log",
    "echo ok | tee status.txt",
    "traitor --help",
    "pwn cyclic 64",
]
