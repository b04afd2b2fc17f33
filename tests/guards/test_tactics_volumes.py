"""Tactic family ``volumes``: disks and volumes mounted, attached, resized or unlocked (asked)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbus.guards.danger import check_command
from agentbus.guards.policy import Policy
from agentbus.guards.verdict import DISK, VOLUMES

HOME = "/home/dev"

ADMINISTERED = [
    "sudo mount -o loop /tmp/btrfs.img /btrfs",  # benign9 (uv's CI): labelled ask
    "mount -t proc proc /proc",
    "sudo mount -t tmpfs -o size=256m tmpfs /tmpfs",
    "sudo mount /dev/sdb1 /mnt/usb",
    "sudo mount -a",
    "mount -L data",
    "mount --bind /data /srv/data",
    "sudo mount_smbfs //dev@nas.local/share /Volumes/share",
    "mount.cifs -o guest //server/share /mnt/share",
    "sudo umount /mnt/backup",
    "sudo losetup -fP disk.img",
    "sudo swapon /swapfile",
    "lvcreate -L 20G -n data vg0",
    "lvextend -r -L +10G /dev/vg0/data",
    "vgchange -ay vg0",
    "vgrename vg_old vg_new",
    "pvchange -x n /dev/sdb1",
    "lvm lvcreate -L 1G -n x vg0",
    "cryptsetup --verbose luksOpen /dev/sdX1 my_encrypted_partition",
    "cryptsetup luksAddKey /dev/sdX --iter-time 2000",
    "cryptsetup luksRemoveKey /dev/sdX --key-file /path/to/keyfile",
    "cryptdisks_start backup",
    "iscsiadm -m node -T IQN -p ADDR:PORT --login",
    "resize2fs /dev/xvdb1",  # benign9 cheat sheets: blocked as a disk write before, labelled ask
    "sudo growpart /dev/nvme0n1 1",
    "sudo tune2fs -L data /dev/sdb1",
    "zfs set compression=lz4 tank/data",
    "zpool import tank",
    "sudo mdadm --assemble --scan",
    "udisksctl mount -b /dev/sdb1",
    "diskutil mountDisk disk4",
    "sudo diskutil apfs addVolume disk1 APFS Scratch",
    "diskutil apfs unlockVolume disk3s2 -passphrase hunter2",
    "sudo hdiutil attach -nomount ram://2097152",
]
LISTED = [
    "mount",
    "mount | grep loop",
    "mount -l -t ext4",
    "findmnt -T .",
    "df -h /",
    "lsblk -f",
    "losetup -a",
    "swapon --show",
    "sudo pvs",
    "sudo lvdisplay",
    "sudo cryptsetup status cryptroot",
    "sudo cryptsetup luksDump /dev/sda3",
    "zfs list -t snapshot",
    "zfs snapshot tank/home@before",
    "zpool status -x",
    "zpool import",
    "sudo mdadm --detail /dev/md0",
    "tune2fs -l /dev/sda1",
    "fatlabel /dev/sdb1",
    "growpart -N /dev/sda 1",
    "iscsiadm -m session",
    "btrfs subvolume create /mnt/sv1",
    "diskutil list",
    "diskutil apfs list",
    "hdiutil attach ~/Downloads/Docker.dmg",
    "hdiutil detach /Volumes/Docker",
    "mkfs.ext4 -F /tmp/test.img",
    "mkswap ./swapfile.img",
    "sudo swapoff /swapfile",
]
DESTROYED = [
    "sudo mkfs.ext4 /dev/sdb1",
    "cryptsetup luksFormat /dev/sdb1",
    "lvremove -y vg0/home",
    "diskutil eraseDisk APFS X disk2",
    "sudo diskutil apfs deleteContainer disk3",
    "diskutil splitPartition disk0s2 2 JHFS+ A 10G JHFS+ B R",
    "zfs destroy -r tank/home",
]


@pytest.mark.parametrize("command", ADMINISTERED)
def test_a_disk_or_volume_administered_is_asked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (VOLUMES, "ask"), verdict


@pytest.mark.parametrize("command", LISTED)
def test_listing_disks_images_and_subvolumes_runs(command: str) -> None:
    assert check_command(command, home=HOME) is None


@pytest.mark.parametrize("command", DESTROYED)
def test_destroying_a_disk_or_volume_stays_blocked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (DISK, "block"), verdict


@pytest.mark.parametrize("command", ["sudo mount -o loop disk.img /mnt/img", "lvcreate -L 1G -n x vg0"])
def test_the_policy_decides_what_volume_administration_does(command: str) -> None:
    assert check_command(command, home=HOME, policy=Policy(verdicts={VOLUMES: "allow"})) is None
    blocked = check_command(command, home=HOME, policy=Policy(verdicts={VOLUMES: "block"}))
    assert blocked is not None
    assert blocked.decision == "block"
    unattended = check_command(command, home=HOME, policy=Policy(profile="unattended"))
    assert unattended is not None
    assert (unattended.category, unattended.decision) == (VOLUMES, "block")


_WORD = st.text(alphabet=st.sampled_from("abz/.-_=,0"), min_size=1, max_size=10)


@given(st.lists(st.sampled_from(["-t", "-o", "-l", "-O", "--types", "--options"]), max_size=4), _WORD)
def test_mount_with_only_options_and_their_values_lists(options: list[str], value: str) -> None:
    # Every option here that takes a value is given one: nothing is left to be a source or a mount point.
    words = [
        w for option in options for w in ((option,) if option == "-l" else (option, value.lstrip("-") or "x"))
    ]
    command = " ".join(["mount", *words])
    assert check_command(command, home=HOME) is None, command


@given(_WORD.filter(lambda w: not w.startswith("-")))
def test_mount_given_a_mount_point_is_asked(point: str) -> None:
    verdict = check_command(f"mount -o ro /srv/img.iso /mnt/{point}", home=HOME)
    assert verdict is not None
    assert verdict.category == VOLUMES
