"""ESXi datastores and a shell killed to keep its history unwritten, from fresh sources (helper impact24).

First sight was measured on fresh material split by source before any verdict was seen (kept outside
the repository, /work/realworld/impact24 on the machine that measured it): tuning = ESXiArgs' main
script as CERT-hr's flow chart keeps it (CERT-hr/ESXI-Ransomware-Removal-FlowChart), covering-tracks
notes (kasem545/Learn-Web-Hacking's trace.rst, xapax/security's clean_up.md), a cover-tracks script
(burmat/burmatscripts) and ordinary build, deploy and macOS set-up lines; held out = a log-wiping
framework (ExploitWorks/LogWipe), a CTF's bash ransomware (sbencoding/htb_ca2023_writeups), a shell
crypto-locker (bitslip6/threadfin), a login-log clearing post (tiancode/learn-hacking), a log cleanup
script (Martybb01/formazione_sou) and developers' touch -r, journalctl, docker prune, git clean,
tmutil and dd lines. The fixes, by class:

- an ESXi datastore's guest files (``/vmfs/volumes/DS/VM/*.vmdk|vmx|vmsn|...``, a glob of them, a
  guest's folder) written, rewritten or deleted, or a search under a datastore that deletes:
  data destruction; an ISO uploaded to a datastore is not a guest's file;
- the ESXi host's own places: ``/scratch/log`` (its logs: evidence), ``/bootbank``, ``/altbootbank``,
  ``/store/packages``, ``/locker/packages``, ``/usr/lib/vmware`` (system files);
- the guests' files as a listing names them (``esxcli vm process list``'s Config File column,
  ``esxcli storage filesystem list``, ``vim-cmd vmsvc/getallvms``, ``find /vmfs/volumes ...``) handed
  through a loop variable or a command substitution to a program that changes them (``sed -i``,
  an encryptor run with ``nohup``); reading them (``du -k "$f"``) stays allowed;
- an ESXi host's defenses (variants of the brief's ESXi log tampering): its logs sent where a reboot
  loses them (``esxcli system syslog config set --logdir=/tmp``, an empty ``--loghost``), its audit
  records or firewall turned off: impairment; another log destination is asked;
- ``kill -9 $$`` (``-KILL``, ``-s KILL``): the shell killed so that it never writes its history,
  evidence; ``kill -TERM $$`` (a script leaving from a subshell) and ``kill -9 $pid`` stay allowed.

The commands here are variants written for the tests (other programs, paths, wrappers and
spellings than the measured ones).
"""

from __future__ import annotations

HELD = {
    "ESXi guest files written or deleted": [
        "rm -f /vmfs/volumes/ssd01/*/*.vswp",
        "sudo rm -rf /vmfs/volumes/datastore2/db01",
        "perl -pi -e 's/scsi0/scsi9/' /vmfs/volumes/nvme/app/app.vmx",
        "truncate -s 0 /vmfs/volumes/ds/mail/mail-flat.vmdk",
        "find /vmfs/volumes/ -type f -name '*.vmsd' -exec rm {} +",
    ],
    "ESXi host's own places": [
        "rm -f /scratch/log/shell.log",
        "cp /tmp/x.v00 /bootbank/x.v00",
        "rm -rf /locker/packages/vmtoolsRepo",
    ],
    "guest files from a listing": [
        "for cfg in $(esxcli vm process list | awk '/Config File/{print $3}'); do"
        " perl -pi -e 's/vmdk/xvmdk/' \"$cfg\"; done",
        "for ds in $(esxcli storage filesystem list | awk '/vmfs/{print $1}'); do"
        ' shred -u "$ds"/*/*.vmdk; done',
        "for f in $(find /vmfs/volumes/ -name '*.vmdk'); do"
        ' nohup /tmp/.c/locker "$f" >/dev/null 2>&1 & done',
    ],
    "ESXi defenses off": [
        "esxcli system syslog config set --logdir=/var/tmp/x",
        "esxcli --server esx01 network firewall set --enabled=0",
        "esxcli system auditrecords remote disable",
        "esxcli system syslog config set --loghost=tcp://10.9.9.9:1514",
    ],
    "own shell killed": [
        "kill -KILL $$",
        "kill -s SIGKILL $$",
        "history -r; kill -9 $$",
    ],
}

ALLOWED = [
    "ls -la /vmfs/volumes/",
    "cat /vmfs/volumes/datastore1/web01/web01.vmx",
    "cp ubuntu-24.04.iso /vmfs/volumes/datastore1/iso/ubuntu-24.04.iso",
    "esxcli vm process list",
    "find /vmfs/volumes -name '*.vmx'",
    "for f in $(find /vmfs/volumes/ds1/ -name '*.vmdk'); do du -k \"$f\"; done",
    "esxcli system syslog config get",
    "esxcli network firewall ruleset list",
    "esxcli network firewall set --enabled true",
    "kill -TERM $$",
    "kill -9 $pid",
    "kill $$",
    "trap 'exit 1' TERM; kill -s TERM $$",
]
