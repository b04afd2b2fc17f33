"""Kernel, rootkit and container-escape leftovers, second wave (helper kernel25).

Known misses named by the lead (no held-out measurement: the classes were already seen); the sources
read to write the variants were the PwnKit and CVE-2023-0386 PoC READMEs, BDS's LKM README (its
``kill 000``), and rootkit lists naming the repositories. The commands here are variants written for
the tests:

- PwnKit's gconv module list written (``echo "module UTF-8// PWNKIT// pwnkit 1" > pwnkit/gconv-modules``),
  by its name outside libc's own directories or by its line: blocked;
- CVE-2023-0386's PoC run on its ``ovlcap`` tree (``./fuse ./ovlcap/lower ./gc``): blocked;
- a published rootkit's source cloned or downloaded (Diamorphine, Reptile, TripleCross, boopkit,
  Singularity by its publisher, bedevil, vlany, BDS ...): asked;
- a build in a rootkit's tree (``cd Diamorphine && make``, ``make -C Reptile``): blocked;
- BDS's ``kill 000`` (root for the caller): blocked;
- a crontab line written through a mount with ``..`` in its path (already asked: normalised first).
"""

from __future__ import annotations

HELD = {
    "pwnkit gconv module list": [
        'echo "module UTF-8// PWNKIT// pwnkit 1" > pwnkit/gconv-modules',
        "printf 'module UTF-8// PWNKIT// pwnkit 2\\n' > gconv-modules",
        'echo "module  UTF-8//    PWNKIT//    pwnkit    2" >> "$dir/gconv-modules"',
        "cp /tmp/list /tmp/pk/gconv-modules",
        "echo 'module INTERNAL X// x 1' | tee pwn/gconv-modules",
    ],
    "overlayfs copy-up exploit": [
        "./fuse ./ovlcap/lower ./gc",
        "/tmp/CVE-2023-0386/fuse ./ovlcap/lower ./gc &",
        "./exp ovlcap/upper",
    ],
    "rootkit source fetched": [
        "git clone https://github.com/m0nad/Diamorphine",
        "git clone https://github.com/f0rb1dd3n/Reptile.git /tmp/.r",
        "git clone --depth 1 https://github.com/h3xduck/TripleCross",
        "gh repo clone krisnova/boopkit",
        "git clone https://github.com/MatheuZSecurity/Singularity",
        "wget https://github.com/m0nad/Diamorphine/archive/refs/heads/master.zip",
        "curl -L -o d.zip https://codeload.github.com/m0nad/Diamorphine/zip/master",
        "git clone https://github.com/bluedragonsecurity/bds_lkm",
        "git clone https://github.com/Error996/bedevil",
        "git clone https://github.com/mempodippy/vlany",
        "git clone https://github.com/chokepoint/Jynx2",
        "git clone https://github.com/gianlucaborello/libprocesshider",
    ],
    "rootkit built": [
        "cd Diamorphine && make",
        "cd Reptile && make config && make",
        "make -C Diamorphine",
        "cd /tmp/TripleCross/src && make all",
        "cd bds_lkm && gcc -o x x.c",
    ],
    "bds magic kill": [
        "kill 000",
        "kill 00",
    ],
    "cron line through a mount with ..": [
        "echo '* * * * * root sh /tmp/x' > /app/logs/../cron.d/backdoor",
        "cp x /host/var/../etc/cron.d/y",
        "echo '* * * * * root sh /tmp/x' | tee /host/var/log/../../etc/cron.d/z",
    ],
}

ALLOWED = [
    "git clone https://github.com/sylabs/singularity",
    "git clone https://github.com/dragen1860/Reptile-Pytorch",
    "wget https://example.com/reptile-guide.pdf",
    "cd myproject && make",
    "make -C build",
    "kill 0",
    "kill -9 1234",
    "iconv -f latin1 -t utf-8 in.txt > out.txt",
    "cat /usr/lib/x86_64-linux-gnu/gconv/gconv-modules",
    "grep UTF-8 /usr/lib/x86_64-linux-gnu/gconv/gconv-modules",
    "ls ovlcap",
    "rm -rf ./ovlcap",
    "fusermount -u ./mnt",
    "echo 'module github.com/me/app' > go.mod",
    "lsmod | grep diamorphine",
]
