"""Tactic family ``volumes``: disks and volumes administered without being destroyed (asked).

VOLUMES (asked by default): what changes the machine's storage but keeps its data:

- mounting and unmounting (``mount SRC DIR``, ``mount -a``, ``mount -o loop``, ``umount``,
  ``mount_smbfs``, ``udisksctl mount``), loop devices attached (``losetup -f IMG``), swap turned
  on (``swapon``);
- LVM (``lvcreate``, ``lvextend``, ``vgchange -ay``, ``vgrename``, ``pvresize`` ...), LUKS
  (``cryptsetup open``, ``luksAddKey``, ``luksRemoveKey``, ``cryptdisks_start``), iSCSI logins,
  ZFS and mdadm changes, a file system grown or relabelled (``resize2fs``, ``growpart``,
  ``xfs_growfs``, ``tune2fs -L``);
- macOS: ``diskutil`` changes (``mountDisk``, ``resizeVolume``, ``apfs addVolume``, ``apfs
  unlockVolume``), a RAM disk attached (``hdiutil attach ram://N``).

Listing is discovery (``mount``, ``lsblk``, ``pvs``, ``cryptsetup status``, ``diskutil list``,
``zpool status``); a disk image attached (``hdiutil attach app.dmg``) is how macOS software is
installed, and stays allowed. Destroying a disk or a volume (``mkfs /dev/sdb1``, ``lvremove``,
``cryptsetup luksFormat``, ``diskutil eraseDisk``) is seed 000's direct disk operation, blocked by
:mod:`..targets` before this family is asked.
"""

from __future__ import annotations

from ..findings import finding, static_args, without_values
from ..programs import Invocation
from ..verdict import VOLUMES, Verdict

__all__ = ["judge"]

_MOUNT_VALUES = frozenset({"-t", "--types", "-o", "--options", "-O", "--test-opts", "-T", "--fstab", "-N",
                           "--namespace", "--target-prefix", "--map-users", "--map-groups"})  # fmt: skip
"""mount's options that take a value (``-t ext4``, ``-o loop``): not the source or the mount point."""
_MOUNT_NAMES = frozenset({"-L", "--label", "-U", "--uuid", "--source", "--target"})
"""mount's options whose value is what is mounted, or where (``mount -L data``)."""
_LISTING = frozenset({"-l", "--show", "-s", "--summary", "-a", "--all", "--list", "-h", "--help", "-V",
                      "--version", "-n", "--noheadings", "-J", "--json", "--raw", "-v",
                      "--verbose"})  # fmt: skip
"""What ``losetup`` and ``swapon`` print with: their listing options (``losetup -a``, ``swapon --show``)."""

_CHANGERS: dict[str, frozenset[str] | None] = {
    # LVM: None means every run changes something; the listing programs (pvs, lvdisplay ...) are absent.
    **dict.fromkeys(("pvchange", "pvresize", "pvmove", "vgchange", "vgrename", "vgextend", "vgimport",
                     "vgexport", "vgmerge", "vgsplit", "vgcfgrestore", "vgimportclone", "vgmknodes",
                     "lvcreate", "lvchange", "lvextend", "lvresize", "lvrename", "lvconvert"), None),
    "lvm": frozenset({"pvchange", "pvresize", "pvmove", "vgchange", "vgrename", "vgextend", "lvcreate",
                      "lvchange", "lvextend", "lvresize", "lvrename", "lvconvert", "vgimport", "vgexport"}),
    "cryptsetup": frozenset({"open", "luksOpen", "close", "luksClose", "luksAddKey", "luksRemoveKey",
                             "luksChangeKey", "luksSuspend", "luksResume", "resize", "refresh", "config",
                             "token", "convert", "tcryptOpen", "bitlkOpen", "plainOpen", "loopaesOpen"}),
    **dict.fromkeys(("cryptdisks_start", "cryptdisks_stop", "resize2fs", "growpart", "xfs_growfs",
                     "e2label", "fatlabel", "exfatlabel", "ntfslabel", "swaplabel"), None),
    "tune2fs": frozenset({"-L", "-O", "-o", "-U", "-c", "-C", "-e", "-i", "-j", "-J", "-m", "-r", "-E",
                          "-I", "-M", "-Q", "-T", "-g", "-u"}),
    "xfs_admin": frozenset({"-L", "-U", "-c", "-j", "-O"}),
    "iscsiadm": frozenset({"--login", "-l", "--logout", "-u", "--loginall", "--logoutall", "-o", "--op"}),
    # zfs snapshot: a cheap copy kept, nothing changed; its destroy is targets' rule.
    "zfs": frozenset({"create", "set", "inherit", "mount", "unmount", "umount", "clone", "rename", "promote",
                      "receive", "recv", "rollback", "allow", "unallow",
                      "share", "unshare", "load-key", "unload-key", "change-key"}),
    "zpool": frozenset({"create", "add", "attach", "online", "offline", "import", "export", "replace",
                        "set", "upgrade", "trim", "scrub", "clear", "reopen"}),
    "mdadm": frozenset({"--assemble", "-A", "--manage", "--add", "-a", "--re-add", "--fail", "-f", "--remove",
                        "-r", "--stop", "-S", "--grow", "-G", "--run", "-R", "--readonly", "-o",
                        "--readwrite", "-w", "--incremental", "-I", "--build", "-B"}),
    # btrfs subvolume create/snapshot make what is a directory to the user: not here.
    "btrfs": frozenset({"resize", "add", "balance", "set", "enable", "disable"}),
    "dmsetup": frozenset({"create", "suspend", "resume", "rename", "message", "mknodes"}),
    "blockdev": frozenset({"--setro", "--setrw", "--setra", "--setfra", "--setbsz", "--flushbufs",
                           "--rereadpt"}),
    "udisksctl": frozenset({"mount", "unmount", "loop-setup", "loop-delete", "unlock", "lock", "power-off"}),
    "diskutil": frozenset({"mount", "mountDisk", "unmount", "unmountDisk", "eject", "rename", "renameVolume",
                           "enableJournal", "disableJournal", "enableOwnership", "disableOwnership",
                           "resizeVolume", "repairVolume", "repairDisk", "addVolume", "resizeContainer",
                           "unlockVolume", "lockVolume", "encryptVolume", "decryptVolume", "changePassphrase",
                           "setRole", "addPartition", "updatePreboot", "create", "add", "remove", "enable",
                           "disable"}),
}  # fmt: skip
"""Storage programs and the subcommands or options that change what they manage (None: every run does).
Their destroying forms (``lvremove``, ``luksFormat``, ``zfs destroy``) are :mod:`..targets`' rule."""
_SUBCOMMANDS = {"zfs": 0, "zpool": 0, "cryptsetup": 0, "dmsetup": 0, "udisksctl": 0, "lvm": 0, "btrfs": 1,
                "diskutil": 0}  # fmt: skip
"""Programs told what to do by a word (its position among the words that are not options): ``zfs list
-t snapshot`` lists, whatever its option values say."""


def _mount(values: list[str]) -> str | None:
    """What ``mount`` is told to mount; None for the listing forms (``mount``, ``mount -l -t ext4``)."""
    operands: list[str] = []
    for value in without_values(values, _MOUNT_VALUES):
        if value in _MOUNT_NAMES:
            continue  # the next word is an operand
        if not value.startswith("-"):
            operands.append(value)
        elif value in ("-a", "--all") or (value[1:2] != "-" and "a" in value[1:] and "=" not in value):
            return "every file system in /etc/fstab"
        elif value.startswith(("--bind", "--rbind", "--move", "-B", "-M", "-R")):
            return "a directory onto another"
    return operands[-1] if operands else None


def _what(invocation: Invocation, values: list[str]) -> str | None:
    """Why ``invocation`` administers a disk or a volume, or None."""
    name = invocation.name
    if name == "mount" or name.startswith(("mount_", "mount.")):
        target = _mount(values)
        return f"mounts {target}" if target else None
    if name in ("umount", "umount2"):
        operands = [v for v in values if not v.startswith("-") or v in ("-a", "--all")]
        return f"unmounts {operands[-1]}" if operands else None
    if name == "losetup":
        return None if set(values) <= _LISTING else "attaches or detaches a loop device"
    if name == "swapon":  # swapoff -a is defense impairment's; one swap file off changes little
        return None if set(values) <= _LISTING - {"-a", "--all"} else "turns swap on"
    if name == "hdiutil":
        # hdiutil attach app.dmg installs software the macOS way; a RAM disk is a device of its own.
        ram = any(v.startswith("ram://") for v in values)
        return "attaches a RAM disk" if values[:1] == ["attach"] and ram else None
    if name not in _CHANGERS:
        return None
    wanted = _CHANGERS[name]
    if wanted is None:
        reads = {"-h", "--help", "-V", "--version", "-N", "--dry-run"} | (
            {"-l", "--list"} if name == "vgcfgrestore" else set()
        )
        if set(values) & reads:
            return None  # growpart -N, vgcfgrestore --list: nothing changed
        if name.endswith("label") and len([v for v in values if not v.startswith("-")]) < 2:
            return None  # fatlabel /dev/sda1: the label printed, none given
        return f"{name} changes a disk or volume"
    position = _SUBCOMMANDS.get(name)
    if position is not None:
        words = [v for v in values if not v.startswith("-")]
        if name == "diskutil" and words[:1] in (["apfs"], ["cs"], ["coreStorage"], ["appleRAID"]):
            position = 1  # diskutil apfs addVolume …
        found = words[position] if len(words) > position and words[position] in wanted else None
        if name == "zpool" and found == "import" and len(words) == 1 and not {"-a", "-d"} & set(values):
            return None  # zpool import: the pools that could be imported, listed
    else:
        found = next((v for v in values if v in wanted or v.partition("=")[0] in wanted), None)
    if found is None:
        return None
    return f"{name} {found} changes a disk or volume"


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A disk or volume mounted, attached, resized, unlocked or relabelled: asked."""
    values = static_args(invocation)
    why = _what(invocation, values)
    return None if why is None else finding(VOLUMES, invocation, why)
