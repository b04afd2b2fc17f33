"""Classes of technique that cryptojacking droppers got past the guards (helper miners26b).

Known misses of miners26's held-out part (sagemantap/stealth-miner, Sazfa-Kuy/Sazfa-Kuy), fixed as classes
with variants written here (no held-out measurement: no fresh source). The commands are variants, not the
measured lines:

- one line of the Rocke and Kinsing kill lists, alone: the rivals those lists name in copy after copy
  (``xzpauectgr``, ``mixtape``, ``xiaoyao``, ``mwyumwdbpq.conf``) are kits' programs like ``ddgs``; a plain
  word alone (``pkill -f server``) stays allowed;
- a program run under a name held in a variable (``exec -a "$PROCNAME" $CMD``): asked, since a test
  harness marks its processes so too; ``exec -a "$0"`` (a wrapper's own name) stays allowed;
- a rival miner's hidden files deleted from a shared temporary directory by a command that names a miner
  (``rm -rf /tmp/.xmrig /tmp/.ICE-unix/.x``);
- a miner's algorithm set in its config (``"algo": "power2b"``, ``"algo": "rx/0"``), and a placeholder in
  a config named by a variable replaced by the dropper's ``$POOL`` or ``$WALLET``.

Left allowed on purpose: ``sed -i "s/\\"tua\\"/\\"$IP:$PORT\\"/" $CFG`` (an address made of variables put
into a config named by one: a deploy script's line as much as a dropper's) and ``rm -rf /tmp/.x`` alone.
"""

from __future__ import annotations

HELD = {
    "a rival from the kill lists, alone": [
        "pgrep -f xzpauectgr | xargs -I % kill -9 %",
        "pgrep -f mixtape | xargs kill -9",
        "pkill -f slxfbkmxtd",
        "ps auxf | grep xiaoyao | awk '{print $2}' | xargs -I % kill -9 %",
        "pgrep -f mwyumwdbpq.conf | xargs -I % kill -9 %",
        "killall -9 addnj",
    ],
    "a program run under a name held in a variable": [
        'exec -a "$PROCNAME" $CMD',
        'exec -a "$FAKE" "$BIN" -c "$CFG" &',
        '(exec -a "${NAME}" ./svc >/dev/null 2>&1 &)',
    ],
    "a rival miner's hidden files deleted from a shared temporary directory": [
        "rm -rf /tmp/.xmrig",
        "rm -rf /tmp/.xmrig /tmp/.ICE-unix/.x /var/tmp/.kdevtmpfsi",
        "rm -f /dev/shm/.minerd",
        "rm -rf /var/tmp/.x/xmrig",
        "rm -rf /tmp/.X11-unix/.c /tmp/kinsing",
    ],
    "a miner's algorithm or a dropper's pool put into a config": [
        'sed -i \'s/"algo": .*/"algo": "power2b",/\' config.json',
        'sed -i \'s/"algo": *"[^"]*"/"algo": "rx\\/0"/\' /tmp/.c/config.json',
        'sed -i \'s/"algo": null/"algo": "cn\\/r"/\' cfg.json',
        'sed -i "s/tua/$WALLET/" $CFG',
        'sed -i "s#POOL_HERE#$POOL:$PORT#" "$CONFIG"',
        'sed -i "s/\\"x\\"/\\"${XMR_POOL}\\"/" ${DIR}/c.json',
    ],
}

ALLOWED = [
    "pkill -f server",
    "pkill -9 -f server",
    "pgrep -f myapp | xargs kill -9",
    "pgrep -f mixtape-web | xargs kill",
    'exec -a "$0" "$HOME/.nix-profile/bin/.hello-wrapped" "$@"',
    'exec -a "${ARGV0:-$0}" /usr/lib/app/bin/app "$@"',
    'exec -a "-$0" bash',
    "rm -rf /tmp/.x",
    "rm -rf /tmp/xmrig-build",
    "rm -rf /tmp/.cache/pip /tmp/build",
    "rm -rf ~/.xmrig-notes.md",
    'sed -i "s/\\"tua\\"/\\"$IP:$PORT\\"/" $CFG',
    'sed -i \'s/"algo": .*/"algo": "HS256",/\' config.json',
    'sed -i \'s/"algo": .*/"algo": "sha256",/\' config.json',
    'sed -i "s/POOL_SIZE/$POOL_SIZE/" $CFG',
    'sed -i "s/DB_POOL/$DB_POOL/" "$CONFIG"',
    'sed -i "s/__HOST__/$HOST/" $CONF',
]
