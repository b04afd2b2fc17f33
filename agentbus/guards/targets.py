"""System files and block devices, whatever the program: the operand decides.

Writes to ``/etc/sudoers`` used to be recognised for redirection, ``tee``,
``cp``, ``sed -i`` and a few output options, and disk destruction for a list of
tools; ``aria2c -o /etc/sudoers``, ``strace -o /etc/passwd``, ``nvme format
/dev/nvme0n1`` or ``cryptsetup luksFormat /dev/disk/by-id/...`` passed. Here any
program with a system file (:data:`~.operands.SYSTEM_FILE`) or a block device
(:data:`~.operands.DEVICE`) among its operands or option values is taken to
write or destroy it, unless it is known only to read: a short allow-list, with
the options that make an otherwise read-only program write (``sed -i``,
``sort -o``, ``find -fprintf``, ``tar -x``).
"""

from __future__ import annotations

import re

from ..lazy_regex import lazy_compile
from .carriers import container_command_start
from .findings import static_args as _values
from .locations import location, written
from .operands import CORE_SYSTEM_FILE, EDITORS, Operand, block_device, operands, option_values, system_file
from .paths import normalize_path
from .policy import current_policy
from .programs import CONTAINER_RUNNERS, SHELLS, SYSTEM_CONTAINER_RUNNERS, Invocation, script_operands
from .verdict import ACCOUNT, BLOCK, DISK, EVIDENCE, IMPAIR, SYSTEM_FILES, Verdict

__all__ = ["check_targets", "reads_only"]

_READ_ONLY = frozenset({
    "cat", "tac", "less", "more", "most", "head", "tail", "nl", "wc", "grep", "egrep", "fgrep", "rg", "ag",
    "ack", "zgrep", "diff", "cmp", "comm", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum",
    "sha512sum", "b2sum", "cksum", "sum", "md5", "shasum", "stat", "ls", "ll", "file", "test", "[", "getent",
    "cut", "strings", "od", "xxd", "hexdump", "hd", "column", "fold", "fmt", "pr", "rev", "jq", "bat",
    "batcat",
    "view", "readlink", "realpath", "namei", "lsattr", "getfacl", "basename", "dirname", "echo", "printf",
    "du", "lsof", "fuser", "id", "cd", "pushd", "source", ".", "awk", "gawk", "mawk", "nawk", "sed", "sort",
    "uniq", "yq", "find", "tar", "visudo", "pwck", "grpck", "tree", "exa", "eza", "type", "which", "whereis",
    "command", "locate", "git", "base64", "base32", "expand", "unexpand", "paste",
    "join", "look", "tr", "iconv", "zcat", "zless", "bzcat", "xzcat", "ldd", "objdump", "readelf", "nm",
    "nginx", "apachectl", "apache2ctl", "httpd", "haproxy", "sshd", "named-checkconf", "promtool", "man",
    "vdir", "dir", "openssl", "logrotate", "dpkg-query",
    "export", "local", "declare", "typeset", "readonly", "unset", ":", "true", "false",
    "socketfilterfw", "ausearch", "aureport", "auditctl", "getcap",
    # viewers: colour, page, highlight, render or tabulate a file on standard output, never write it
    "lolcat", "ccat", "hexyl", "glow", "mdcat", "mdless", "jless", "gron", "highlight", "pygmentize",
    "source-highlight", "csvlook", "csvstat", "csvcut", "csvgrep", "csvsort", "csvjson", "pv", "batman",
    "delta", "difft", "colordiff", "icdiff", "tspin",
})  # fmt: skip
"""Programs that read their operands and write nothing but their standard output (with exceptions below).
``socketfilterfw`` changes only the firewall's rules for the programs it is given: the macOS family
(:mod:`.tactics.macos`) is the one place that judges it; ``auditctl -w /etc/passwd`` watches the file
(turning auditing off is :mod:`.tactics.impairment`'s)."""

_DEVICE_READERS = frozenset({
    "lsblk", "blkid", "file", "stat", "ls", "test", "[", "udevadm", "mount", "umount", "eject", "partprobe",
    "smartctl", "df", "du", "findmnt", "dumpe2fs", "hexdump", "xxd", "od", "strings", "head", "tail", "cat",
    "less", "cmp", "md5sum", "sha1sum", "sha256sum", "sha512sum", "b2sum", "pv", "pvs", "vgs", "lvs",
    "pvdisplay", "vgdisplay", "lvdisplay", "swapon", "swapoff", "losetup", "readlink", "realpath", "echo",
    "printf", "isosize", "lsscsi", "sginfo", "iostat", "ioping", "mountpoint", "grep",
    "dd", "fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "wipefs", "shred", "blkdiscard", "mkswap",
    "mke2fs", "mkdosfs", "mkntfs",
    # Read a device, or change its state or label without touching the data on it: recovery and
    # forensics (photorec, fls), rippers, power and LED management, LVM activation and renaming.
    "handbrakecli", "HandBrakeCLI", "hd-idle", "ledctl", "dmstats", "fls", "icat", "mmls", "fsstat",
    "photorec", "raw", "lvmpersist", "lvchange", "vgchange", "lvrename", "vgrename", "lvscan", "pvscan",
    "vgscan", "e2label", "fatlabel", "exfatlabel", "dosfslabel", "mlabel", "ntfslabel", "swaplabel",
    "hdparm-info", "udisksctl", "cdparanoia", "cdrdao-read", "ddrescue-info", "sg_inq", "sg_readcap",
    # Grow, move or unlock what is on a device, keeping its data: volume administration, which
    # tactics.volumes asks about.
    "resize2fs", "growpart", "xfs_growfs", "pvchange", "pvresize", "pvmove", "lvextend", "lvresize",
    "iscsiadm", "cryptdisks_start", "cryptdisks_stop",
})  # fmt: skip
"""Programs that only read a device (the disk tools are judged by their own rule, with their flags)."""

_CLOUD_CLIS = frozenset({"aws", "gcloud", "az"})
"""Their option values name cloud resources (SSM parameters are paths: ``/dev/app/db-url``)."""
_DEVICE_SUBCOMMANDS: dict[str, frozenset[str]] = {
    "cryptsetup": frozenset({"luksDump", "status", "isLuks", "open", "luksOpen", "close", "luksClose",
                             "luksUUID", "tcryptDump", "bitlkDump", "benchmark", "luksAddKey",
                             "luksRemoveKey", "luksChangeKey", "resize", "refresh", "luksSuspend",
                             "luksResume",
                             "luksHeaderBackup", "config", "token", "tcryptOpen", "bitlkOpen", "plainOpen"}),
    "nvme": frozenset({"list", "id-ctrl", "id-ns", "smart-log", "error-log", "list-ns", "list-ctrl",
                       "fw-log", "get-log", "show-regs", "get-feature", "id-ns-desc", "list-subsys"}),
    "diskutil": frozenset({"list", "info", "activity", "listFilesystems", "mount", "unmount",
                           "unmountDisk", "mountDisk", "eject", "verifyVolume", "verifyDisk", "resizeVolume",
                           "renameVolume", "rename", "enableJournal", "disableJournal", "enableOwnership",
                           "disableOwnership", "repairVolume", "addVolume", "resizeContainer", "unlockVolume",
                           "lockVolume", "listCryptoUsers", "listSnapshots", "listVolumeGroups",
                           "updatePreboot"}),
    "mdadm": frozenset({"--detail", "-D", "--examine", "-E", "--query", "-Q", "--misc", "--assemble", "-A",
                        "--monitor", "--detail-platform", "--stop", "-S", "--fail", "--remove"}),
    "lvconvert": frozenset({"--repair", "--mirrors", "-m", "--replace"}),
    "fsadm": frozenset({"check", "--dry-run", "-n"}),
    "lvm_import_vdo": frozenset({"--dry-run"}),
    "zpool": frozenset({"status", "list", "import", "iostat", "get", "history"}),
    "tune2fs": frozenset({"-l", "-L", "-c", "-C", "-i", "-m", "-r", "-e", "-U"}),
    "hdparm": frozenset({"-I", "-i", "-t", "-T", "-g", "-C", "-tT", "-Tt", "-B", "-W"}),
    "blockdev": frozenset({"--report", "--getsize64", "--getsize", "--getss", "--getbsz", "--getro",
                           "--getpbsz", "--getra", "--getsz", "--getiomin", "--getioopt"}),
    "e2fsck": frozenset({"-n"}),
    "fsck": frozenset({"-n", "-N"}),
    "badblocks": frozenset({"-s", "-v", "-sv", "-vs", "-b", "-c"}),
}  # fmt: skip
"""Programs that read or destroy a device depending on the subcommand: the ones that only read."""


_OUTPUT_OPTION = lazy_compile(
    r"^(?:-o|-O|-w|--?(?:output|out|outfile|output-file|output-document|log-file|logfile|write|save|dest|"
    r"destination|target|to|of|append-output)(?:[-_][a-z-]+)?)$|^of$",
    re.IGNORECASE,
)
"""Options whose value is a file the program writes (``-o FILE``, ``--output=FILE``, ``of=FILE``)."""
_INPUT_OPTION = lazy_compile(r"^--?(?:from|input|infile|in)(?:[-_](?:file|path))?$", re.IGNORECASE)
"""Options whose value is a file the program reads (``argocd cert add-ssh --from /etc/ssh/ssh_known_hosts``,
``--input FILE``, ``-in FILE``): not told to write it (the core system files stay held, and reading a
secret is the path guards' business)."""
_INSTALL_LOCATION = lazy_compile(r"^--(?:prefix|exec-prefix|[a-z]*dir)$")
"""``./configure --sysconfdir=/etc``, ``meson setup --prefix=/usr``: where ``make install`` puts files later,
compiled into the build; the configuring step itself writes only the build tree."""

_SAVE = ("-f", "--file")
_DUMP_FILE_OPTIONS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("iptables-save", "ip6tables-save", "iptables-legacy-save", "ip6tables-legacy-save",
                     "iptables-nft-save", "ip6tables-nft-save", "arptables-save", "ebtables-save"), _SAVE),
    "pg_dump": _SAVE,
    "pg_dumpall": _SAVE,
    "mysqldump": ("-r", "--result-file"),
    "mariadb-dump": ("-r", "--result-file"),
}  # fmt: skip
"""Dumpers whose file option is their output, though ``-f`` names an input elsewhere:
``iptables-save -f /root/.ssh/authorized_keys`` writes a key hidden in a rule's comment."""

_PRECISE = frozenset({"cp", "mv", "install", "ln", "rsync", "scp", "dd", "tee", "chmod", "rm", "unlink",
                      "curl", "wget", "truncate"})  # fmt: skip
"""Programs with a rule of their own for system files (the destination of a copy, ``of=``)."""


_FIND_RUNS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_EXEC_READERS = frozenset({
    "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "zgrep", "ls", "stat", "file", "strings", "od",
    "xxd", "hexdump", "cmp", "diff", "md5sum", "sha1sum", "sha256sum", "sha512sum", "shasum", "md5", "cksum",
    "readlink", "realpath", "basename", "dirname", "echo", "printf", "lsattr", "getfacl", "jq", "test", "[",
    "otool", "nm",
})  # fmt: skip
"""Programs ``find -exec`` may run on what it finds that only read it (no option makes them write)."""

_READING_SUBCOMMANDS = {
    "defaults": frozenset({"read", "read-type", "domains", "find", "help"}),
    "plutil": frozenset({"-p", "-lint", "-type", "-help"}),
}
"""Programs that write with other words, and the first words that make them only print (``defaults read``)."""


def _codesign_shows(words: list[str]) -> bool:
    """``codesign -d`` (``--display``) or ``-v`` (``--verify``) with no signing option: it reads the
    signature; ``-s``/``--sign`` (alone or in ``-fs``) and ``--remove-signature`` rewrite the file."""
    shows = signs = False
    for word in words:
        if word.startswith("--"):
            option = word.partition("=")[0]
            shows |= option in ("--display", "--verify")
            signs |= option in ("--sign", "--remove-signature")
        elif word.startswith("-"):
            shows |= "d" in word or "v" in word
            signs |= "s" in word[1:]
    return shows and not signs


def _exec_reads_only(run: list[str]) -> bool:
    """Whether the program ``find -exec`` runs (the words after ``-exec``) only reads what it finds."""
    program = run[0].rsplit("/", 1)[-1] if run else ""
    if program in _EXEC_READERS:
        return True
    if program == "codesign":
        return _codesign_shows(run[1 : run.index(";")] if ";" in run else run[1:])
    reading = _READING_SUBCOMMANDS.get(program)
    return reading is not None and len(run) > 1 and run[1] in reading


def _writes_anyway(invocation: Invocation, values: list[str]) -> bool:
    """A read-only program with the option that makes it write (``sed -i``, ``sort -o`` ...)."""
    name = invocation.name
    if name in ("sed", "perl", "yq", "ruby"):
        return any(v == "-i" or v.startswith(("-i", "--in-place")) for v in values)
    if name in ("awk", "gawk"):
        return "inplace" in values or any(v.endswith("inplace") for v in values)
    if name == "sort":
        return any(v in ("-o", "--output") or v.startswith(("--output=", "-o")) for v in values)
    if name == "find":
        if any(v in ("-fprint", "-fprint0", "-fprintf", "-fls", "-delete") for v in values):
            return True
        # -exec grep … {} only reads what it finds; any other program may write it.
        runs = [values[i + 1 :] for i, v in enumerate(values) if v in _FIND_RUNS]
        return not all(_exec_reads_only(run) for run in runs)
    if name == "tar":
        first = values[0] if values else ""
        return "--extract" in values or "-x" in values or ("x" in first and not first.startswith("--"))
    if name == "git":
        if "config" in values:  # git config core.editor /usr/bin/vim names a program; --file FILE is written
            return any(v in ("--file", "-f") or v.startswith("--file=") for v in values)
        return not any(v in ("diff", "log", "show", "status", "grep", "blame", "ls-files", "check-ignore")
                       for v in values)  # fmt: skip
    if name == "openssl":
        return any(v in ("-out", "-keyout") or v.startswith(("-out=", "-keyout=")) for v in values)
    if name == "uniq":
        return len([v for v in values if not v.startswith("-")]) > 1  # uniq IN OUT writes OUT
    if name == "visudo":
        return not any(v in ("-c", "--check") for v in values)
    return False


def reads_only(invocation: Invocation) -> bool:
    """Whether the program only reads its operands (and writes its standard output)."""
    if invocation.dynamic or invocation.name not in _READ_ONLY:
        return False
    values = [v for v in (invocation.command.static(w) for w in invocation.args) if v is not None]
    return not _writes_anyway(invocation, values)


def _reads_device_only(invocation: Invocation, operand: Operand) -> bool:
    name = invocation.name
    if operand.role == "input":
        return True
    if operand.role == "output":
        return False
    if name == "dd":
        return operand.option == "if"
    if name in _DEVICE_READERS:
        return True
    if name in _CLOUD_CLIS and operand.role in ("option value", "after option"):
        return True  # aws ssm get-parameter --name /dev/app/db-url: a parameter's name, not a disk
    safe = _DEVICE_SUBCOMMANDS.get(name)
    if safe is None:
        return False
    values = [v for v in (invocation.command.static(w) for w in invocation.args) if v is not None]
    if name == "badblocks":
        return not any(v.startswith("-") and ("w" in v or "n" in v) for v in values)
    return any(v in safe for v in values)


_STORAGE_DESTROYERS: dict[str, frozenset[str] | None] = {
    "zpool": frozenset({"destroy", "labelclear", "remove", "detach", "split", "reguid"}),
    "zfs": frozenset({"destroy"}),
    "vgremove": None, "lvremove": None, "pvremove": None, "lvreduce": None, "vgreduce": None,
    "lvconvert": frozenset({"--merge", "--splitmirrors", "thin-pool", "cache-pool", "--thinpool",
                            "--cachepool"}),
    "lvm": frozenset({"vgremove", "lvremove", "pvremove", "lvreduce"}),
    "dmsetup": frozenset({"remove_all", "wipe_table", "remove", "clear", "load", "reload"}),
    # --stop, --fail and --remove take a disk out of an array, leaving its data: not here.
    "mdadm": frozenset({"--zero-superblock", "--create", "-C"}),
    "btrfs": frozenset({"delete", "remove", "--force"}),
    "cryptsetup": frozenset({"erase", "luksErase", "luksKillSlot", "luksFormat", "reencrypt"}),
    "flashrom": frozenset({"-w", "--write", "-E", "--erase"}),
    "fwupdtool": frozenset({"install-blob", "install"}),
    "nvme": frozenset({"format", "sanitize", "delete-ns", "detach-ns"}),
    "sg_format": None,
    "hdparm": frozenset({"--security-erase", "--security-erase-enhanced", "--trim-sector-ranges"}),
    "diskutil": frozenset({"eraseDisk", "eraseVolume", "zeroDisk", "randomDisk", "secureErase",
                           "partitionDisk", "reformat", "deleteVolume", "deleteContainer",
                           "deleteVolumeGroup", "deleteSnapshot", "splitPartition", "mergePartitions",
                           "deletePartition"}),
}  # fmt: skip
"""Volume managers, RAID, firmware flashers: the subcommands or options that destroy what they manage
(``None``: the program only destroys). A snapshot (``zfs destroy pool/fs@snap``) is spared."""


def _destroys_storage(invocation: Invocation, values: list[str]) -> str | None:
    name = invocation.name
    if name not in _STORAGE_DESTROYERS:
        return None
    wanted = _STORAGE_DESTROYERS[name]
    if wanted is not None and not wanted & set(values):
        return None
    if name == "zfs" and all("@" in v for v in values if not v.startswith("-") and v != "destroy"):
        return None  # zfs destroy pool/fs@snap: a snapshot
    operands = [v for v in values if not v.startswith("-")]
    return operands[-1] if operands else name


_OUTPUT_SHORT = lazy_compile(r"^-o[A-Z]?$")
"""``-o FILE``, nmap's ``-oN FILE``: the next argument is written."""
_EDITOR_WRITES = lazy_compile(
    r"(?:^|\|)\s*:?\s*(?:x|wq?a?!?|w!?|up(?:date)?|sav(?:eas)?|exit|xa(?:ll)?)\s*(?:$|\|)"
)
_EDITOR_WRITES_TO = lazy_compile(r"(?:^|\|)\s*:?\s*(?:w(?:rite)?|sav(?:eas)?|wq|x)!?\s+(?!!)([^\s|]+)")
_SED_WRITES = lazy_compile(
    r"(?:^|[;{}\n])\s*(?:\d+|\$|/[^/\n]*/)?\s*w\s+([^;\n}]+)|s/[^/\n]*/[^/\n]*/[gpiI\d]*w\s+(\S+)"
)
"""sed's ``w FILE`` command and ``s///w FILE`` flag: lines written to FILE."""
_ACCOUNT_DATABASE = {
    "chpasswd": "/etc/shadow", "chgpasswd": "/etc/gshadow", "newusers": "/etc/passwd", "vipw": "/etc/passwd",
    "vigr": "/etc/group", "pwconv": "/etc/shadow", "pwunconv": "/etc/passwd", "grpconv": "/etc/gshadow",
    "grpunconv": "/etc/group",
}  # fmt: skip
"""Programs that rewrite the account database."""


def _written_operands(invocation: Invocation, values: list[str]) -> list[str]:
    """The operands a program writes: ``script FILE``, ``xxd -r IN OUT``, ``patch FILE``,
    ``mount --bind SRC TARGET``, ``ex -c x FILE``, ``iconv -o FILE``, ``nmap -oN FILE``."""
    name = invocation.name
    positionals = [v for v in values if not v.startswith("-")]
    # -o FILE of a program that otherwise only reads (iconv -o); nmap's -oN FILE of any.
    plain = name in _READ_ONLY
    written = [
        values[i + 1]
        for i, v in enumerate(values[:-1])
        if (plain and v in ("-o", "--output")) or (len(v) == 3 and _OUTPUT_SHORT.match(v))
    ]
    written += [
        v.partition("=")[2] for v in values if plain and v.startswith(("--output=", "--output-file="))
    ]
    if name in ("tar", "bsdtar", "gtar") and _writes_anyway(invocation, values):
        # tar -xPf A --xform 's@.*@/etc/sudoers@': the member is renamed onto the file it names.
        rules = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("--xform", "--transform", "-s")]
        rules += [v.partition("=")[2] for v in values if v.startswith(("--xform=", "--transform="))]
        for rule in rules:
            parts = rule[2:].split(rule[1]) if len(rule) > 2 and rule[0] == "s" else []
            if len(parts) >= 2 and parts[1].startswith("/"):
                written.append(parts[1])
    if name in ("npx", "pnpx", "bunx") and positionals[:1] in (["asar"], ["@electron/asar"]):
        name, positionals = "asar", positionals[1:]  # npx asar pack SRC DEST: the package's own program
    if name == "script":
        written += script_operands(values)[0]
    elif name == "asar" and positionals[:1] in (["pack"], ["p"]) and len(positionals) >= 3:
        written.append(positionals[-1])  # asar pack DIR ARCHIVE: an Electron app's code, repacked
    elif name == "xxd" and "-r" in values and len(positionals) >= 2:
        written.append(positionals[-1])
    elif name == "patch":
        written += positionals[:1]
    elif name in ("cpio", "bsdcpio") and (
        "--pass-through" in values or any(v[:1] == "-" and v[1:2] != "-" and "p" in v for v in values)
    ):
        written += positionals[-1:]  # cpio -p DIR: the files read from stdin are copied into DIR
    elif name == "mount" and len(positionals) >= 2:
        written.append(positionals[-1])  # the mount point: what was there is replaced
    elif name in ("ex", "vim", "vi", "nvim", "view", "ed"):
        commands = [values[i + 1] for i, v in enumerate(values[:-1]) if v.startswith("-") and v.endswith("c")]
        commands += [v[1:] for v in values if v.startswith("+")]
        if any(_EDITOR_WRITES.search(c) for c in commands):
            given = {*commands, *(f"+{c}" for c in commands)}
            written += [v for v in positionals if v not in given]
        # :w! /etc/sudoers, :saveas FILE: the buffer written to a file the command names.
        written += [m.group(1) for c in commands for m in _EDITOR_WRITES_TO.finditer(c)]
    elif name in ("sed", "gsed"):
        scripts = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-e", "--expression")]
        scripts += [v.partition("=")[2] for v in values if v.startswith("--expression=")]
        scripts += positionals[:1] if not scripts else []
        written += [m.group(1) for s in scripts for m in _SED_WRITES.finditer(s)]
    return written


_EXTRACTORS = frozenset(
    {"tar", "bsdtar", "gtar", "unzip", "cpio", "7z", "7za", "unar", "bsdcpio", "rpm2cpio"}
)


def _extracted_into_root(invocation: Invocation, values: list[str], writes_anyway: bool) -> str | None:
    """``tar -xf A -C /``, ``cpio -idm -D /``, ``unzip -d /``: an archive unpacked over the system."""
    name = invocation.name
    if name not in _EXTRACTORS:
        return None
    extracting = writes_anyway or name in ("unzip", "unar") or (
        name in ("cpio", "bsdcpio") and any(v.startswith("-") and "i" in v for v in values)
    )  # fmt: skip
    if not extracting:
        return None
    directory = None
    for index, value in enumerate(values[:-1]):
        if value in ("-C", "--directory", "-d", "-D", "--directory"):
            directory = values[index + 1]
    directory = directory or next((v.partition("=")[2] for v in values if v.startswith("--directory=")), None)
    if directory is None:
        return None
    root = directory.rstrip("/") == ""
    if root or directory.rstrip("/") in ("/etc", "/boot", "/usr", "/bin", "/sbin", "/lib", "/var"):
        return directory
    return None


def check_targets(invocation: Invocation, home: str) -> Verdict | None:
    """A verdict if the command writes a system file or destroys a block device through an operand."""
    name = invocation.name
    if not name and not invocation.dynamic:
        return None  # redirections alone: judged with the redirections
    piece = invocation.text
    if name in CONTAINER_RUNNERS or name in SYSTEM_CONTAINER_RUNNERS:
        # docker exec c ls -l /etc/hosts: the container's command is judged as itself (a wrapped command);
        # the runner's own operands end where it starts (-l /etc/hosts is ls's, not docker's)
        command = invocation.command
        rendered = [command.render(w) if (v := command.static(w)) is None else v for w in invocation.args]
        inner = container_command_start(name, rendered)
        if inner is not None:
            invocation = invocation.replace(args=invocation.args[: inner - 1])
    values = _values(invocation)
    destroyed = _destroys_storage(invocation, values)
    if destroyed is not None:
        return Verdict(DISK, _short(piece), f"{name} destroys {destroyed} and the data on it")
    policy = current_policy()
    held: Verdict | None = None  # a finding the policy asks about: a later one may block
    account = _ACCOUNT_DATABASE.get(name)
    if account is not None and not (values and set(values) <= {"-h", "--help", "-V", "--version"}):
        # chpasswd, vipw: an account change (issue 18 asks a person), not a corruption of the file.
        held = Verdict(ACCOUNT, _short(piece), f"{name} rewrites {account}")
    for target in _written_operands(invocation, values):
        device = block_device(target)
        place = (DISK, device) if device else written(target, home=home, cwd=invocation.cwd)
        if place is not None:
            verdict = Verdict(place[0], _short(piece), f"{name} writes {place[1]}")
            if policy.decision(verdict.category) == BLOCK:
                return verdict
            held = held or verdict
    if name == "systemd-tmpfiles" and any(v in ("--create", "--remove", "--purge") for v in values):
        # --prefix PATH, --exclude-prefix PATH, --root DIR narrow what is done: not configuration files.
        narrowing = ("--prefix", "--exclude-prefix", "--root", "--image", "-E")
        configs = [
            v for i, v in enumerate(values) if not v.startswith("-") and values[i - 1] not in narrowing
        ]
        if configs:
            return Verdict(
                SYSTEM_FILES, _short(piece), f"creates or removes files as root as {configs[0]} says"
            )
    for layer, word in ((la, w) for la in invocation.layers for w in la.args):  # strace -o /etc/passwd ls
        for value in (word, *(o.value for o in option_values(word))):
            device = block_device(value)
            place = (DISK, device) if device else written(value, home=home, cwd=invocation.cwd)
            if place is not None:
                wrapper = layer.name
                verdict = Verdict(place[0], _short(piece), f"{wrapper} is given {place[1]}, and may write it")
                if policy.decision(verdict.category) == BLOCK:
                    return verdict
                held = held or verdict
    writes_anyway = _writes_anyway(invocation, values)  # once: linear in the words
    unpacked = _extracted_into_root(invocation, values, writes_anyway)
    if unpacked is not None:
        return Verdict(SYSTEM_FILES, _short(piece), f"{name} unpacks an archive over {unpacked}")
    for operand in operands(invocation):
        if operand.role in ("pattern", "input"):
            continue
        device = block_device(operand.value)
        if device is not None and not _reads_device_only(invocation, operand):
            what = name or "a computed command"
            return Verdict(DISK, _short(piece), f"{what} writes to or erases the block device {device}")
        if name in _PRECISE or operand.role == "output":
            continue  # their own rules, and the redirection rule, know which operand is written
        if _INSTALL_LOCATION.match(operand.option) and _configures_a_build(invocation):
            continue
        value = operand.value.partition("=")[2] or operand.value
        told_to_write = (
            operand.role in ("option value", "after option") and not _INPUT_OPTION.match(operand.option)
        ) or writes_anyway
        place = location(value, home=home, cwd=invocation.cwd)
        if place is not None and place[0] in _READ_OFTEN:
            continue  # last -f /var/log/wtmp reads it: tactics.writes knows the writers of these
        if place is not None:
            # ~/.bashrc, /etc/cron.d: judged by the table of locations, when the program writes there.
            # Only a sure write: an option value is a guess (virtualenv -p /usr/bin/python3, chsh -s
            # /bin/zsh, ssh-keygen -l -f ~/.ssh/authorized_keys read), unless the option says output.
            core = CORE_SYSTEM_FILE.match(normalize_path(value, home=home, cwd=invocation.cwd))
            output = operand.role in ("option value", "after option") and (
                _OUTPUT_OPTION.match(operand.option) or operand.option in _DUMP_FILE_OPTIONS.get(name, ())
            )
            writes = writes_anyway or core or output or name in EDITORS
            if writes and name not in SHELLS and not reads_only(invocation):
                what = name or "a computed command"
                shown = written(value, home=home, cwd=invocation.cwd) or place
                held = held or Verdict(place[0], _short(piece), f"{what} may write {shown[1]}")
            continue
        found = system_file(value, home=home, cwd=invocation.cwd)
        if found is None and told_to_write and operand.value.rstrip("/") in ("/etc", "/boot"):
            found = operand.value  # unzip -d /etc, tar -C /etc: files land in the machine's configuration
        if found is not None and not CORE_SYSTEM_FILE.match(found) and not told_to_write:
            continue  # vim /etc/hosts: pointed at it, not told to write it
        if found is not None and not reads_only(invocation):
            what = name or "a computed command"
            return Verdict(
                SYSTEM_FILES, _short(piece), f"{what} may write {found}, and is not known only to read"
            )
    return held


def _configures_a_build(invocation: Invocation) -> bool:
    """Autotools' ``configure`` script (any path to it) or ``meson setup``/``meson configure``."""
    if invocation.name == "configure":
        return True
    words = [arg for arg in invocation.args if not arg.startswith("-")]
    return invocation.name == "meson" and words[:1] in (["setup"], ["configure"])


_READ_OFTEN = frozenset({EVIDENCE, IMPAIR})
"""Logs, history, firewall rules, trusted roots: read with options far more than written."""


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 200 else text[:199] + "…"
