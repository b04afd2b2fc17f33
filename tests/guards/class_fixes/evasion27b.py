"""Defense-evasion leftovers of evasion27 (helper evasion27b): known misses, no fresh source.

Every command here is a variant written for the test, from the classes evasion27 left allowed:

- a program copied or installed into ``/usr/local/bin`` or ``/usr/local/sbin`` under a daemon's or kernel
  thread's name (``sshd_fake``, ``systemd-helper``, ``systemd-journald``, ``kswapd0``, ``dbus-daemon-*``,
  ``[kthreadd]``): a planted program passing for the system's in ``ps``. ``systemd-`` alone is not
  enough (``systemd-lsp`` is a language server): a daemon's ``-d`` ending or a helper-like word is;
- a file at the top of ``/proc`` written (``echo hide > /proc/rootkit``, ``/proc/modules``): no kernel
  file there takes writes but ``sysrq-trigger`` and ``mtrr``; a loaded rootkit's command channel;
- a security module unloaded by its kernel name (``rmmod lkrg``, ``modprobe -r tpe``, Sophos' talpa);
  any other module's removal stays asked (``modprobe -r snd_hda_intel``, system configuration);
- Falcon's proxy pointed at this machine (``falconctl -s --aph=127.0.0.1``): the sensor cut off its cloud;
- eBPF rootkits run (``ebpfkit``, ``pamspy``, bad-bpf's ``pidhide``/``sudoadd``);
- ``mokutil --import key.der`` (a Machine Owner Key enrolled: what it signs loads under Secure Boot) is
  asked as system configuration, not blocked: the NVIDIA and VirtualBox guides do it.

Already decided and left so: ``chattr +i``/``-i`` on system files, ``touch -r /bin/ls PLANTED`` (blocked);
``bpftool prog load`` of an object (asked); ``touch -r src dst`` in a project (allowed).
"""

from __future__ import annotations

HELD = {
    "daemon or kernel-thread name planted in /usr/local/bin": [
        "cp /tmp/backdoor /usr/local/bin/sshd_fake",
        "install -m755 x /usr/local/sbin/systemd-helper",
        "cp /tmp/x /usr/local/bin/systemd-journald",
        "install -m755 x /usr/local/bin/dbus-daemon-helper",
        "mv /dev/shm/.m /usr/local/bin/kswapd0",
        "cp ./miner '/usr/local/bin/[kthreadd]'",
        "gcc -o /usr/local/sbin/kworker b.c",
    ],
    "rootkit command channel in /proc": [
        "echo hide > /proc/rootkit",
        "echo 1 > /proc/modules",
        "printf 'hide 4242' > /proc/diamorphine",
        "echo root | tee /proc/.x",
    ],
    "security module unloaded": [
        "sudo rmmod lkrg",
        "rmmod tpe",
        "sudo modprobe -r p_lkrg",
        "rmmod talpa_core",
    ],
    "falcon proxy at loopback": [
        "falconctl -s --aph=127.0.0.1 --app=8080",
        "sudo /opt/CrowdStrike/falconctl -s -f --aph=localhost --app=3128",
    ],
    "ebpf rootkit run": [
        "./ebpfkit",
        "./pamspy -p /lib/x86_64-linux-gnu/libpam.so.0",
        "sudo ./pidhide --pid-to-hide 4242",
        "./sudoadd -u www-data",
        "/tmp/.k/ebpfkit-client -a 10.0.0.5 --fs-watch /etc/passwd",
    ],
    "machine owner key enrolled": [
        "mokutil --import key.der",
        "sudo mokutil --import /tmp/MOK.der",
    ],
}

ALLOWED = [
    "cp build/mytool /usr/local/bin/mytool",
    "cp target/release/systemd-lsp /usr/local/bin/",
    "install -m755 bin/sshpass /usr/local/bin/sshpass",
    "cp ./tini /usr/local/bin/tini",
    "cp init.sh /usr/local/bin/init-db",
    "cat /proc/modules",
    "cat /proc/meminfo > mem.txt",
    "echo 1 > /proc/acpi/ibm/fan",
    "echo 2 > /proc/irq/24/smp_affinity",
    "echo -1000 > /proc/self/oom_score_adj",
    "falconctl -g --aph --app",
    "falconctl -s --aph=proxy.corp.example.com --app=8080",
    "bpftool prog list",
    "bpftool prog show",
    "make pamspy",
    "mokutil --sb-state",
    "mokutil --list-enrolled",
    "touch -r src dst",
    "touch -r package.json dist/bundle.js",
]
