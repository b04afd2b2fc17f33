"""Classes of technique that botnet and miner droppers got past the guards (helper malware17).

First sight was measured on dropper kits published in public repositories (39ewgerw/1, a dump of a
compromised host's 8220-style killer kit and Mirai loaders, and littlAcen/moneroocean-setup, a miner
kit with its "bot killer", as the tuning part; LucasFaudman/honeypot-ai's captured honeypot sessions
and BlockchainOne/crack-mining's Redis worm held out), kept outside the repository
(/work/realworld/malware17 on the machine that measured them: no licence allows them in). What the
tuning part missed is fixed by class; the commands here are variants written for the tests:

- processes searched for and killed by what marks them as another's (``process hunt``, asked): run
  from a temp or boot directory, named like a kernel thread or a hidden file, talking to a given
  peer, holding a connection that ``netstat``/``ss`` lists; through ``pkill``/``killall``, ``kill
  $(…)`` or a listing piped to ``xargs kill``;
- the same searches for other miners (a miner's name, a pool, a wallet): a miner clearing the CPU for
  itself, blocked as resource hijacking; a wallet edited into files in place (``sed -i`` over
  miners' configs);
- the system's package manager killed mid-run (``pkill -9 dpkg``): asked as a service change;
- a program run from a hidden folder of the home that no toolchain lays out and left running on its own
  (``cd ~/.configrc/a; nohup ./init0 &``), from a hidden folder inside one (``~/.cache/.x/a``) or from
  ``~/.ssh``: asked, like a program run from a hidden name in ``/tmp``;
- a program run by a path that no rule knows given a password list and logins to try it on (a login
  port, a host list): a guesser renamed (``credential hunting``); or a wide address range as an
  operand (``./tsm -t 8 p 10.0.0.0/8``, Outlaw's): a scanner renamed (asked);
- a path made from a listing (``for d in $(find /sys/devices/… -type d); do echo 3 > $d/…``) judged
  under the directory listed (here a kernel setting, asked).
"""

from __future__ import annotations

WALLET = "44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A"
"""A Monero address of the shape miners pay to (made up: its checksum is not checked)."""

HELD = {
    "kill by a mark": [
        "ps -eo pid,args | grep '/var/tmp/.font-unix/' | awk '{print $1}' | xargs -r kill -9",
        "kill -KILL $(pgrep -f /dev/shm/.x)",
        "sudo pkill -9 -f '^/boot/initrd-helper'",
        "killall -s KILL '[kthreadd]'",
        "pkill -f 'ksoftirqd/3'",
        "killall -9 .cache-daemon",
        "ss -tnp | grep 198.51.100.20 | sed 's/.*pid=\\([0-9]*\\).*/\\1/' | xargs kill",
        "netstat -tpn | grep ESTABLISHED | awk '{print $7}' | cut -d/ -f1 | xargs -r kill -9",
        "for p in $(ps -ef | grep 203.0.113.77 | awk '{print $2}'); do kill -9 $p; done",
        "ps aux | grep -v grep | grep 'pool.hashpower.example.net' | awk '{print $2}'"
        " | while read pid; do kill $pid; done",
    ],
    "kill other miners": [
        "pkill -9 -f 'cpuminer-opt'",
        "killall -q nbminer t-rex",
        "ps -ef | grep -i stratum | awk '{print $2}' | xargs kill",
        "kill $(pidof xmr-stak)",
        f"pkill -f {WALLET}",
    ],
    "wallet edited into files": [
        f'sed -i -e \'s/"user": ".*"/"user": "{WALLET}"/\' ~/.config/c.json',
        f'perl -pi -e \'s/"user":.*/"user": "{WALLET}",/\' /etc/xmr.json',
    ],
    "package manager killed": [
        "killall -9 yum",
        "sudo pkill rpm",
    ],
    "program hidden in the home": [
        "cd ~/.mozilla/.cache && ./x86",
        "nohup ~/.bashtemp/a/run -c cfg >/dev/null 2>&1 &",
        "(cd ~/.rsync/c && setsid ./aptitude)",
        "~/.ssh/.k/agent --daemon",
    ],
    "renamed guesser": [
        "./kswap -t 64 -p 22 hosts_up.txt passwords.lst",
        "nohup ./dbx -P rockyou.txt -p 3389 -f targets.txt &",
        "./r32 -T 12 x 192.168.0.0/16",
        "/var/tmp/.s/g0 -s 10 0.0.0.0/0",
    ],
    "path under a listed directory": [
        "for n in $(find /sys/devices/system/node -maxdepth 1 -name 'node*');"
        " do echo 4 > $n/hugepages/hugepages-2048kB/nr_hugepages; done",
    ],
}

ALLOWED = [
    "pkill -f gunicorn",
    "pkill -f 'python -m http.server'",
    "pkill -f 'node dist/main.js'",
    "pkill -f webpack.config.js",
    "killall -q node || true",
    "kill $(pgrep -f 'celery -A app worker')",
    "kill $(lsof -t -i:8080)",
    "lsof -ti :5173 | xargs -r kill",
    "fuser -k 3000/tcp",
    "ps aux | grep -v grep | grep 'rails server' | awk '{print $2}' | xargs kill",
    "pgrep -af xmrig",
    "ps aux | grep 198.51.100.20",
    "netstat -tpn | grep :8080",
    "ss -ltnp",
    "sed -i 's/localhost/db.internal.example.com/' config.yaml",
    "for f in $(find ./src -name '*.orig'); do rm $f; done",
    "cat /sys/kernel/mm/transparent_hugepage/enabled",
    "nohup ~/.local/bin/uvicorn app:app &",
    "~/.fzf/install --all",
    "nohup ~/.pyenv/shims/python worker.py &",
    "~/.nvm/versions/node/v20.11.0/bin/node app.js &",
    "cd ~/.dotfiles && ./install.sh",
    "./scripts/firewall.sh 10.0.0.0/8",
    "./bin/seed --users users.txt --passwords passwords.txt",
    "docker network create --subnet 10.10.0.0/16 lab",
    "./server --allow-cidr 10.0.0.0/8",
    "pkill -f .vscode-server",
    "nohup ~/.local/share/pnpm/pnpm dev &",
]
