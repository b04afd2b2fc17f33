"""Kernel rootkits driven, kernel code installed, exploits built by number (helper rootkit24).

First sight was measured on a held-out part split by source before any verdict was seen (TripleCross'
README and deployer, berdav's and xkaneiki's PwnKit and overlayfs PoC READMEs, the hiding-cryptominers
rootkit's README, a container-escape course script, a Kubernetes attack-path note, a Chinese
persistence note using Diamorphine and Reptile, kernel-module homework and lkmpg notes, bpftool notes,
``docker run -v $PWD:/src`` lines); the classes were fixed on other sources (two miner installers that
load Diamorphine, Reptile and the cryptominer-hiding LKM, a CCDC red-team note, a cowroot script, a
rootkit homework README, hacktricks' sensitive mounts, dkms driver scripts, a BPF note, ly4k/PwnKit,
a shellshock + overlayfs write-up). Corpora are kept outside the repository (/work/realworld/rootkit24
on the machine that measured them). The commands here are variants written for the tests:

- the signals Diamorphine-style LKM rootkits take as orders (``kill -31 PID`` hides a process, ``-63``
  the module, ``-64`` gives root), by number, by name and with ``-s``/``-n``: blocked;
- a rootkit's own control program (Reptile's ``reptile_cmd``, boopkit's ``boopkit-boop``): blocked;
- ``dkms install``/``autoinstall``: a module the kernel loads at every boot (drivers too): asked;
- ``bpftool prog|cgroup|net attach``: an eBPF program hooked to the kernel, a cgroup or an interface: asked;
- a program run by its path under a five-digit name (an Exploit-DB source built as its number): blocked.
"""

from __future__ import annotations

HELD = {
    "rootkit signals": [
        'kill -31 "$MINER_PID"',
        "kill -63 0",
        "kill -64 $$",
        "kill -s 64 0",
        "kill -n 31 1234",
        "kill -SIGSYS 4321",
        "/bin/kill -RTMAX 0",
        "sudo kill -31 $(pgrep -f xmrig)",
        "for p in $(pgrep kswapd0); do kill -31 $p; done",
    ],
    "rootkit control programs": [
        "/reptile/reptile_cmd hide",
        "./reptile_cmd root",
        "reptile_cmd udp 10.1.1.1 53 hide",
        "/opt/.r/reptile_cmd file-tampering",
        "sudo boopkit -i eth0 -q",
        "boopkit-boop -rhost 10.9.9.9 -rport 22 -c 'id'",
    ],
    "kernel module installed by dkms": [
        "sudo dkms install -m hidemod -v 1.0",
        "dkms install --force -m x -v 2 -k $(uname -r)",
        "dkms autoinstall",
    ],
    "eBPF program attached": [
        "bpftool cgroup attach /sys/fs/cgroup/ sock_ops pinned /sys/fs/bpf/sockops",
        "sudo bpftool prog attach pinned /sys/fs/bpf/p msg_verdict pinned /sys/fs/bpf/map",
        "bpftool net attach xdp pinned /sys/fs/bpf/xdp_door dev eth0",
    ],
    "exploit built under its number": [
        "/tmp/40611",
        "gcc 45010.c -o 45010 && ./45010",
        "/dev/shm/50135",
    ],
}

ALLOWED = [
    "kill -9 1234",
    "kill -TERM $PID",
    "kill -HUP $(cat /run/nginx.pid)",
    "kill -l 31",
    "kill -USR1 4242",
    "kill 12345",
    "dkms status",
    "sudo dkms build -m v4l2loopback -v 0.12.7",
    "dkms add -m mydriver -v 1.0",
    "bpftool prog list",
    "sudo bpftool cgroup show /sys/fs/cgroup",
    "bpftool net list",
    "bpftool prog show id 7",
    "./2024",
    "./a.out 40611",
    "python3 40611_test.py",
    "lsmod | grep reptile",
    "grep -r reptile_cmd /etc",
    "modinfo hello-1.ko",
]
