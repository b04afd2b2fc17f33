"""Classes of container escape and privilege escalation that fresh sources got past the guards
(helper privesc17).

First sight was measured on commands written from stealthcopter/deepce (README, guides, the script's
exploit functions), 0xn3va/cheat-sheets (Container/Escaping) and swisskyrepo/InternalAllTheThings
(the Linux privilege escalation and Docker pages), plus session 14's held-out misses written as classes
(kept outside the repository: /work/realworld/privesc17 on the machine that measured them). The
commands here are variants written for the tests, not the ones measured:

- a container given the container engine's socket (docker, containerd, podman, CRI-O; ``-v`` or
  ``--mount``): asked (``container engine socket``), as Testcontainers and CI runners do it;
- a privilege-escalation scanner run or downloaded by its published name (``lse.sh``, ``LinEnum.sh``,
  ``les.sh``, ``deepce.sh``, ``pspy64``), ``linpeas.sh`` downloaded under another name;
- a Dirty COW or Dirty Pipe build by the bug's name, a source named by its Exploit-DB number, a
  container image built or run under an exploit's name (``docker build -t cve-2019-5736:poc``);
- a kernel hook written through a directory found at run time (``"$d/release_agent"``), a file created
  at the top of the file system (the escape's payload), a cgroup mounted outside ``/sys/fs/cgroup``;
- a system file of another root file system mounted here (``/mnt/etc/passwd``, ``/host/etc/sudoers``,
  ``/proc/1/root/...``);
- a command run in an LXD or Incus system container (``lxc exec NAME -- CMD``) judged as a command.
"""

from __future__ import annotations

HELD = {
    "engine socket": [
        "docker run --rm -v /run/docker.sock:/var/run/docker.sock docker:27-cli docker ps",
        "podman run -it -v /run/user/1000/podman/podman.sock:/run/podman/podman.sock fedora",
        "docker run --mount type=bind,src=/var/run/containerd/containerd.sock,dst=/c.sock alpine",
        "nerdctl run -v /var/run/crio/crio.sock:/crio.sock busybox sh",
        "docker run -d -v /run/containerd:/run/containerd ubuntu sleep infinity",
    ],
    "escalation scanner": [
        "sh ./linux-smart-enumeration/lse.sh -l2 -i",
        "timeout 300 ./linenum.sh -t",
        "perl linux-exploit-suggester-2.pl -k 3.2",
        "/dev/shm/pspy32s -pf",
        "curl -fsSL https://raw.githubusercontent.com/rebootuser/LinEnum/master/LinEnum.sh -o /tmp/le.sh",
        "wget -q https://github.com/DominicBreuker/pspy/releases/download/v1.2.1/pspy64",
        "curl -L https://github.com/peass-ng/PEASS-ng/releases/latest/download/linpeas.sh -o /tmp/check.sh",
    ],
    "exploit build by name": [
        "gcc -pthread dirtypipe_poc.c -o /tmp/dp && /tmp/dp /etc/passwd 1 x",
        "cc -o c0w c0w.c -lpthread",
        "gcc 37292.c -o ofs",
        "g++ -O2 -o /tmp/a 41458.cpp",
        "podman build -t dirtypipe-poc .",
        "docker run --rm localhost/cve-2024-21626:poc",
    ],
    "kernel hook and payload spot": [
        'echo "$host/payload" > "${cg}/release_agent"',
        "printf 1 > $CG/child/notify_on_release",
        "echo '|/var/lib/docker/overlay2/abc/merged/x' > $procdir/core_pattern",
        "printf '#!/bin/sh\\nid > /out\\n' > /payload && chmod +x /payload",
        "cat stage2.sh > /helper",
        "echo $$ > /opt/cg/x/cgroup.procs",
    ],
    "mounted root file system": [
        "echo 'backdoor::0:0::/root:/bin/bash' >> /host/etc/passwd",
        "cp shadow.new /hostfs/etc/shadow",
        "echo 'alice ALL=(ALL) NOPASSWD:ALL' > /mnt/root/etc/sudoers.d/alice",
        "echo '* * * * * root /tmp/x' >> /proc/1/root/etc/crontab",
        "tee -a /media/disk/root/.ssh/authorized_keys < key.pub",
    ],
    "system container exec": [
        "lxc exec box -- chroot /mnt/host sh",
        "incus exec c1 -- nsenter --target 1 --mount sh",
    ],
}

ALLOWED = [
    "docker run --rm -v $PWD:/src -w /src golang:1.23 go test ./...",
    'docker run --rm -v "$(pwd)/data":/data -v ~/.cache/pip:/root/.cache/pip python:3.12 pip list',
    "docker run -d -p 5432:5432 -v pgdata:/var/lib/postgresql/data postgres:16",
    "lxc exec web -- apt-get install -y nginx",
    "lxc list",
    "docker build -t registry.example.com/team/api:1.4.2 -f docker/Dockerfile .",
    "gcc -O2 -Wall -o build/server src/server.c",
    "gcc 2024.c -o day1 && ./day1",
    "python3 solutions/1234.py",
    "curl -sSfL https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.1/install.sh -o install-nvm.sh",
    "echo hello > /tmp/out.txt",
    "mkdir -p /workspace/app",
    "cat /proc/self/root/etc/os-release",
    "echo ok > /mnt/c/Users/dev/project/etc/settings.conf",
]
