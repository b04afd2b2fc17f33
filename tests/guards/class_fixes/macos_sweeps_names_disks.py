"""Classes of macOS attack left over from session 14's held-out misses (helper macos17).

Tuned on commands written from the misses the session-14 helpers reported (sshpass sweeps, keyloggers
known by name, ``dd`` of a Mac's raw disk) and on babywyrm/sysadmin's macOS "hack sheet"; a red-team
knowledge base's macOS credential-access and privilege-escalation files, a course chapter on macOS
tradecraft and a "macOS Red Team Toolkit" script were held out (the corpus stays outside the
repository: /work/realworld/macos17 on the machine that measured it). The commands here are variants
written for the tests, not the ones measured:

- logins swept over a host list: a host named at run time (a ``for`` over a command's output, a
  ``while read``) logged in to with a password on the command line (``sshpass``, ``SSHPASS=``) or with
  host keys unchecked (``StrictHostKeyChecking=no``): asked as remote access, like commands fed to a
  list of Redis hosts;
- a program, or a runner's script, named as a keylogger (``./MacKeyLogger``, ``ruby key-logger.rb``):
  blocked like ``logkeys``;
- a disk as macOS names it (``/dev/rdiskN``, ``/dev/diskNsM``) read into a file or a pipe: asked as
  data collection (issue 12 still lets Linux's ``dd if=/dev/sda of=disk.img`` run);
- ``screencapture -i``/``-W`` (the person picks the area with the mouse) no longer asked;
- after the held-out part was measured: ``security authorizationdb remove``/``merge`` (as ``write``),
  ``chmod +a "… deny readextattr"`` (the quarantine hidden from Gatekeeper, CVE-2022-42821).
"""

HELD: dict[str, list[str]] = {
    "host list sweep": [
        "for ip in $(cat ips.lst); do sshpass -p 'Spring2025' ssh -o StrictHostKeyChecking=no "
        "root@$ip 'uname -a'; done",
        "while read host; do sshpass -p admin ssh admin@$host 'sudo -l'; done < hosts.lst",
        "cat hosts | while read h; do ssh -o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=no "
        "pi@$h id; done",
        "for h in $(awk '{print $1}' inventory); do SSHPASS=raspberry sshpass -e scp implant.sh "
        "pi@$h:/tmp/; done",
        "timeout 5 sshpass -p toor ssh -oStrictHostKeyChecking=off root@`cat target` whoami",
        "for h in $(cat hosts); do sshpass -p hunter2 ssh-copy-id -i ~/.ssh/id_ed25519.pub root@$h; done",
        "while read h; do rsync -e 'ssh -o StrictHostKeyChecking=no' -a loot/ u@$h:/srv/; done < hosts",
    ],
    "keylogger by name": [
        "./MacKeyLogger -d",
        "ruby key-logger.rb --out /tmp/.k",
        "nohup ~/.local/bin/keylogger >/dev/null 2>&1 &",
        "osascript keylog.scpt",
        "sudo /Users/Shared/.cache/KeyLoggerDaemon",
    ],
    "mac disk image": [
        "sudo dd if=/dev/rdisk1 of=$HOME/Desktop/mac.img bs=4m",
        "dd if=/dev/disk0s2 bs=1m | gzip > /tmp/part.img.gz",
        "sudo cat /dev/rdisk3 > ~/Downloads/disk3.raw",
        "pv /dev/rdisk2 | xz > backup.img.xz",
        "sudo dd if=/dev/rdisk0 of=/Volumes/USB/full.dmg bs=1m count=500000",
    ],
    # fixed after the held-out part was measured (so not unseen): the authorization database's rights
    # removed or merged, not only written; an ACL that hides a file's quarantine from Gatekeeper
    "after the held-out measure": [
        "sudo security authorizationdb remove system.preferences",
        "security authorizationdb merge /tmp/rights.plist",
        'sudo chmod +ai "group:everyone deny readextattr,readsecurity" ~/Downloads/Tool.app',
    ],
}

ALLOWED: list[str] = [
    # one deploy host from the environment, a keyed fan-out, ordinary logins
    'sshpass -p "$DEPLOY_PASSWORD" ssh -o StrictHostKeyChecking=no deploy@$DEPLOY_HOST ./release.sh',
    "for h in $(cat hosts); do ssh $h uptime; done",
    "ssh -o StrictHostKeyChecking=no git@github.com",
    "ssh dev@$(terraform output -raw bastion_ip) uptime",
    "rsync -a dist/ deploy@$DEPLOY_HOST:/srv/app/",
    "scp build.tar.gz deploy@staging.example.com:/tmp/",
    # names that only look like a keylogger's, and the TLS key log for Wireshark
    "python3 monkeylogic.py",
    "SSLKEYLOGFILE=/tmp/keys.log curl https://example.com",
    "python3 -m sslkeylog --help",
    "cat keylog.txt",
    # a look at the partition table, an image written to an SD card is DISK's (a whole disk imaged is
    # data collection since leftovers22: asked)
    "sudo dd if=/dev/rdisk0 bs=512 count=1 | xxd | head",
    "diskutil list /dev/disk4",
    "dd if=/dev/zero of=swap.img bs=1m count=64",
    # the person chooses what is taken
    "screencapture -i docs/images/settings.png",
    "screencapture -W -o window.png",
    "security authorizationdb read system.preferences",
    'chmod +a "staff allow read" shared/notes.txt',
]
