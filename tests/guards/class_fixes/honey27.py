"""Classes of technique that SSH bots used on honeypots in 2024-26 and got past the guards (helper honey27).

First sight was measured on fresh captures kept outside the repository (/work/realworld/honey27), one row per
distinct command, split by source before anything was judged: tuning on Michael-Meade/MinerFind's Cowrie posts
(2019-21), Herweg-Jake/cowrie-log-analysis' labelled sessions (2020) and the NINGI homelab write-ups of a 2026
Cowrie honeypot (the RedTail miner's ``setup.sh`` and ``clean.sh``, a Mirai ``sshbins.sh``, a Raspberry Pi IRC
worm, a fake ``sshd``); held out, LLM-written hourly T-Pot summary reports of October 2025. The commands here
are variants written for the tests:

- a program run under a hidden file name of its own where the login lands (``./.redtail ssh``, RedTail's
  miner copied to a random dot name), or named as a system daemon in a hidden folder (``nohup
  ./.1455647341291108698/sshd &``, a fake SSH server), and that daemon's name made runnable there
  (``chmod +x``): a payload out of sight or passing for the system's, asked; toolchains' dot folders
  (``.venv``, ``.build``, ``.stack-work``, ``.lake``), Nix's ``.NAME-wrapped`` programs and a daemon built
  in a plain folder are not;
- a program in ``/tmp`` whose name the script draws at run time, left running (``nohup /tmp/$BOT &``);
- a worm's kill list of other bots: IRC and DDoS bots by name (``kaiten``, ``tsunami``, Mirai's
  ``dvrHelper``) and programs named by the CPU they were built for (``arm5``, ``mipsel``, ``ktx-mips``,
  ``bot.x86``), a process hunt like the miners' names; QEMU's user-mode emulators (``qemu-arm``) are not.
"""

from __future__ import annotations

HELD = {
    "program under a hidden file name": [
        "./.kxw ssh",
        "cat miner.$ARCH >.sysd; chmod +x .sysd; ./.sysd",
        "cd /opt/app && nohup ./.agent -c 198.51.100.9 &",
        "/srv/www/.k -d",
    ],
    "daemon's name in a hidden folder": [
        "nohup ./.99120837744/sshd &",
        "./.cache2/crond -f",
        "chmod +x ./.4471/sshd",
        "chmod 755 .x/systemd; .x/systemd",
        "setsid /opt/.data/rsyslogd",
    ],
    "program in /tmp named at run time, left running": [
        "nohup /tmp/$NAME > /dev/null 2>&1 &",
        "setsid /var/tmp/${BIN} &",
        "nohup /dev/shm/$(date +%s) &",
    ],
    "bots killed by name": [
        "killall -9 kaiten",
        "pkill tsunami",
        "killall arm7 mips mpsl",
        "pkill -9 ktx-i586",
        "killall bot.mipsel dvrHelper",
    ],
}

ALLOWED = [
    "./bin/server &",
    "nohup ./target/release/app &",
    "nohup .build/release/App &",
    "nohup .stack-work/install/x86_64-linux/bin/app &",
    "./.lake/build/bin/main",
    "./.git/hooks/pre-commit",
    "chmod +x .husky/pre-commit",
    "chmod 755 build/sshd",
    "chmod 600 ./.ssh-keys/sshd",
    "./sshd -t -f sshd_config",
    "/tmp/build/$APP --version",
    'nohup "$TMPDIR/app" &',
    "cat ./.redtail",
    '"$HOME/.nix-profile/bin/.hello-wrapped" --version',
    "pkill qemu-arm",
    "pkill -f qemu-system-x86_64",
    "killall arm-none-eabi-gdb",
    "killall node",
]
