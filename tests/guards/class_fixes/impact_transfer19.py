"""Ransomware, wiper and hypervisor impact from fresh sources (helper impact19).

First sight was measured on fresh material split by source before any verdict was seen (kept outside
the repository, /work/realworld/impact19 on the machine that measured it): tuning = the brief's list of
session-16 held-out misses and their neighbours, LOLESXi's ESXi procedures (vim-cmd, esxcli,
vmkfstools), a teaching ransomware loop (dnikolaidis2/disaster-security), a GPG ransomware simulation
write-up (IbraDevOps), disk wipers (kenmoini/disk-wiper, MAAS's wipe-all-disks script); held out =
ESXiArgs' main script, an ESXi power-off loop, a random-tool ransomware demo, disk wipers and a
break-the-VM exercise. The fixes, by class:

- the machine's disks listed at run time and handed to a disk tool: a glob of device names
  (``/dev/sd*``, ``/dev/nvme[0-9]n1``), a command substitution listing them (``$(ls /dev/sd[a-z])``,
  ``$(lsblk -pdno NAME)``, a ``for`` loop's word list), or a listing (``find /dev -type b``, ``lsblk``)
  whose names reach ``wipefs``/``sgdisk``/``dd of=`` as ``$1``, ``{}`` or a ``read`` variable;
- the boot chain rewritten: a boot loader installed (``grub-install``, ``lilo``, ``bootctl install``) or
  the firmware's boot entries deleted or reordered (``efibootmgr -B``, ``-o``): system files, blocked;
- backups and snapshots deleted: ``borg delete REPO``, a retention that keeps nothing (``restic forget
  --keep-last 0``), ``snapper delete`` of a range, ``timeshift --delete-all``, ``zfs destroy`` of what
  a listing names; one named archive or snapshot and a retention that keeps some stay allowed;
- a ransom note: text that says files are encrypted and asks for payment, written to a file or a banner;
- ESXi: VM autostart turned off or cleared, virtual disks deleted or zeroed (``vmkfstools -U``), the
  console's welcome message changed (asked);
- every file under the home, a data folder or the whole disk handed to a script (``find $HOME -type f
  | xargs ./x.sh``, ``-exec /tmp/x {}``): asked;
- a CPU burned without end into /dev/null (``yes > /dev/null &`` in a loop) and never stopped in sight.

The commands here are variants written for the tests (other programs, paths, wrappers and
spellings than the measured ones).
"""

from __future__ import annotations

HELD = {
    "disks listed at run time": [
        "for d in /dev/vd?; do sudo sgdisk -Z $d; done",
        "sudo blkdiscard -f $(ls -1 /dev/nvme*n1)",
        "for disk in $(lsblk -dpno NAME); do wipefs --all --force $disk; done",
        "lsblk -dpno NAME | xargs -I{} sh -c 'dd if=/dev/urandom of={} bs=1M'",
        "ls /dev/disk/by-id/ata-* | while read dev; do sudo wipefs -a $dev; done",
    ],
    "boot chain rewritten": [
        "sudo efibootmgr --delete-bootnum --bootnum 0003",
        "efibootmgr -o 0004,0001",
        "sudo grub2-install --target=i386-pc /dev/vda",
        "bootctl remove",
        "sudo lilo -v",
    ],
    "backups and snapshots deleted": [
        "borg2 rdelete --repo /backup/borg",
        "sudo borg delete ssh://backup@nas/./repo",
        "rustic forget --keep-daily=0 --prune",
        "sudo snapper --config home delete 3-57",
        "zfs list -H -o name -t snapshot tank | xargs -n 1 sudo zfs destroy",
    ],
    "ransom note": [
        "printf 'All your documents have been encrypted!\\nPay 0.1 BTC for the decryptor.' > ~/Desktop/R.txt",
        "echo 'Your network has been locked. Contact us via the .onion site below' | tee /etc/issue.net",
        'echo "ALL YOUR DATA WERE ENCRYPTED. Send \\$500 in monero" >> /var/www/html/index.html',
    ],
    "ESXi recovery removed": [
        "vim-cmd hostsvc/autostartmanager/enable_autostart false",
        "vmkfstools --deletevirtualdisk /vmfs/volumes/datastore1/web01/web01.vmdk",
        "esxcli system welcomemsg set --message='contact us'",
    ],
    "every home file to a script": [
        "find ~/ -type f -print0 | xargs -0 -n 10 bash ./lock.sh",
        "find /home/dev/Documents -type f | xargs -P8 /tmp/.x/enc",
        "find / -xdev -type f -exec ./wipe.py {} +",
    ],
    "CPU burned without end": [
        "for c in $(seq $(nproc)); do cat /dev/zero > /dev/null & done",
        "nohup yes >/dev/null 2>&1 &",
    ],
}

ALLOWED = [
    "lsblk -f",
    "dd if=build/disk.img of=out/disk-copy.img bs=1M",
    "mkfs.ext4 -F build/rootfs.ext4",
    "efibootmgr -v",
    "grub-install --version",
    "borg delete /backup/repo::app-2024-01-01",
    "borg prune --keep-daily 7 --keep-weekly 4 /backup/repo",
    "restic forget --keep-last 10 --prune",
    "snapper -c root delete 42",
    "zfs destroy tank/home@2024-01-01",
    "echo 'decrypt the file with: openssl enc -d -aes-256-cbc -in x.enc' > docs/DECRYPT.md",
    "echo 'All files are encrypted at rest with AES-256' > docs/security.md",
    "find . -type f -name '*.sh' | xargs ./scripts/lint.sh",
    "yes | head -n 3 > /dev/null",
    "timeout 10 yes > /dev/null",
    "vim-cmd vmsvc/getallvms",
]
