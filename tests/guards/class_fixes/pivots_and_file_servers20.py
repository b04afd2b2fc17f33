"""Relays, file servers, file receiving, web shell clients and bait files on shares (pivot20, session 18).

Measured on fresh material split by source before any verdict was seen (kept outside the repository:
/work/realworld/pivot20 on the machine that measured it): pivoting and file-transfer cheat sheets
(rodolfomarianocy/OSCP-Tricks-2023, lojique/OffSec-Wiki, nicholas-long/kb, Qazeer/InfoSec-Notes) tuned on;
mouthless-mutters, rubbxalc/notes, leonteale/CyberWolf-Security, evets007/OSCP-Prep-cheatsheet,
G4sp4rCS/igruntplay and 5aava/galkonda held out. The classes, by what a command opens to whom:

- a relay that publishes a service of this machine on every address (``socat TCP-LISTEN:P,fork
  TCP:127.0.0.1:3306``, ``UNIX-CONNECT:``, a listener piped into another ``nc``) or on every address of
  another machine (``ssh -R 0.0.0.0:PORT:localhost:PORT``): asked, as ngrok is; bound to loopback it stays
  ordinary;
- a file server others may write into (SMB shares, FTP with ``-w``, TFTP, WebDAV, upload servers):
  asked; over the home, ``/`` or a secret: blocked;
- a listener on every address whose output is written or handed on (``nc -l -p P > f``): a drop point
  for anyone, asked; a developer's copy between machines of their own goes by scp or rsync;
- a web shell client run by its script name (``./weevely.py``, ``python3 weevely.py``): blocked;
- a shortcut or ``.scf`` file planted on another host's share (NTLM hash theft): blocked.

The commands here are variants written for the tests (other spellings, ports, wrappers and paths than
the ones measured).
"""

from __future__ import annotations

HELD = {
    "relay-publishes-local-service": [
        "socat tcp-l:9229,reuseaddr,fork tcp:localhost:9229",
        "sudo socat TCP6-LISTEN:80,fork UNIX-CONNECT:/run/app.sock",
        "socat OPENSSL-LISTEN:8443,cert=s.pem,verify=0,fork TCP4:127.0.0.1:6379",
        "nohup socat UDP4-LISTEN:5353,fork UDP4:127.0.0.1:53 &",
        "nc -l -p 2222 0<pipe | nc 127.0.0.1 22 1>pipe",
        "ssh -fNR '*:9000:127.0.0.1:9000' relay@vps.example.net",
        "autossh -M 0 -N -R 0.0.0.0:8080:localhost:3000 tunnel@vps.example.net",
    ],
    "file-server-writable": [
        "impacket-smbserver -smb2support loot /tmp/loot",
        "sudo smbserver.py TOOLS $(pwd) -smb2support -username u -password p",
        "python3 -m pyftpdlib --write --port 2121",
        "nohup python3 -m uploadserver 8000 &",
        "updog -p 80",
        "in.tftpd -L -c -s /srv/tftpboot",
        "rclone serve webdav ./share --addr 0.0.0.0:8080",
    ],
    "file-server-over-secrets": [
        "impacket-smbserver share ~ -smb2support",
        "python3 -m pyftpdlib -d / -p 21",
        "updog --directory ~/.ssh",
        "python3 /usr/share/doc/python3-impacket/examples/smbserver.py x /etc",
    ],
    "listener-receives-file": [
        "ncat -lvnp 443 > backup.tgz",
        "nc -nlvp 8888 | tar xzf -",
        "timeout 120 nc -k -l 4444 >> received.bin",
        "socat -u TCP4-LISTEN:9999,reuseaddr CREATE:dump.bin",
    ],
    "webshell-client-script": [
        "python3 weevely.py http://10.0.0.7/uploads/img.php s3cret",
        "/opt/weevely3/weevely.py generate s3cret /tmp/agent.php",
    ],
    "bait-file-on-share": [
        "smbclient //10.0.0.5/Public -U 'bob%Pass1' -c 'put @Inventory.scf'",
        "smbclient //fs01/Users -N -c 'cd Shared; mput *.lnk'",
        "smbclient //fs01/Dept -U a -c 'put \"Quarterly Report.url\"'",
    ],
}

ALLOWED = [
    "ssh -L 5432:localhost:5432 db",
    "autossh -M 20000 -f -N -L 6379:localhost:6379 cache-bastion",
    "ssh -R 8080:localhost:3000 localhost -N",  # left25: -R to another host is asked
    "socat - UNIX-CONNECT:/tmp/x.sock",
    "socat TCP-LISTEN:8080,bind=127.0.0.1,fork TCP:localhost:3000",
    "socat - TCP:localhost:8080",
    "kubectl port-forward svc/api 8080:80",
    "python -m http.server 8000",
    "python3 -m pyftpdlib -p 2121",
    "python3 -m pyftpdlib -i 127.0.0.1 -w",
    "rclone serve webdav remote:bucket",
    "nc -l 127.0.0.1 9000 > build.tar",
    "nc -l 9000 < dist/app.tgz",
    "nc -z localhost 5432",
    "smbclient //nas/backup -U me -c 'put dist/app.tgz'",
    "python3 weevely.py --help",
    "python3 manage.py runserver 0.0.0.0:8000",
]
