"""Impact leftovers, second wave: known misses after impact24's held-out (helper impact25).

No fresh source was measured: the classes are the misses the brief names, and every command here is
a variant written for the test (other roots, programs, spellings and loop shapes than the brief's).

- each file of a search over the user's data (the home, a data folder, ``/srv``, ``/var/www``, a
  mount, the whole disk) encrypted one by one in a ``while read`` loop or through ``xargs``, the
  plaintext then replaced (``mv "$f.enc" "$f"``) or not: data destruction, as the ``for f in $(find
  …)`` spelling already was (tactics/searched_files.py);
- a script fanning itself out over every file (``xargs -P4 "$0" enc``, ``find "$1" -type f -exec "$0"
  enc {} \\;``), and a program of one's own run many at once (``xargs -P8 -I{} ./locker {}``) on every
  file of the home, the whole disk, a server's or a mount's data: data destruction (a home folder's,
  ``~/Pictures``, stays asked: a batch job is plausible there);
- a ransom note written into every directory: ``while read d`` over ``find -type d`` (``cp NOTE
  "$d/"``, ``curl -o "$d/README.txt"``), a loop over ``/srv/*/``, ``/home/*/`` or ``$(ls -d /mnt/*/)``
  writing a file with a note's name (tactics/impact.py);
- each file of a search of ``/etc``, ``/usr``, ``/var/log`` back-dated in a ``while read`` loop: evidence
  destruction; the project's ``touch -r`` stays allowed.

Decided and left as they were: ``journalctl --rotate`` alone archives the live journal and deletes
nothing (allowed; ``--vacuum-*`` is what deletes, blocked); ``rm /var/crash/*`` (apport's crash
reports, which Ubuntu's own help says to delete) and ``rm /var/lib/command-not-found/*`` (a cache
``apt update`` rebuilds) stay allowed; ``docker volume prune`` stays blocked as seed 000's "docker data
wipe" (the spec corpus labels it so).
"""

from __future__ import annotations

HELD = {
    "search's files encrypted one by one": [
        "find /srv/share -type f -name '*.xlsx'"
        ' | while read -r f; do openssl aes-256-cbc -in "$f" -out "$f.lck" -k x && mv "$f.lck" "$f"; done',
        "find /var/www -type f"
        ' | while IFS= read -r f; do gpg --batch --yes -c --passphrase x -o "$f.gpg" "$f"; done',
        "find ~/Desktop -type f"
        ' | while read f; do age -e -r age1qqq -o "$f.age" "$f"; mv "$f.age" "$f"; done',
        "find /media/backup -type f -print0 | xargs -0 -n1 -P6 ccencrypt -K hunter2",
        'find / -type f -name \'*.sql\' | while read f; do 7z a -pKEY "$f.7z" "$f"; done',
    ],
    "script fanned out over every file": [
        'find "$TARGET" -type f -print0 | xargs -0 -P8 -n1 "$0" lock',
        'find ~ -type f | xargs -P 4 -n 1 sh "$0" --enc',
        'find "$1" -type f -exec "${0}" crypt {} +',
        "find /home -type f -print0 | xargs -0 -P16 -I{} /dev/shm/.w {}",
        "find /srv -type f | xargs -P4 -n1 python3 ./cryptor.py",
    ],
    "ransom note in every directory": [
        'find ~ -type d | while read d; do cp /tmp/RECOVER_FILES.txt "$d/"; done',
        'find / -type d | while read -r d; do wget -q http://n.example/n -O "$d/HOW_TO_RESTORE.html"; done',
        "for d in /home/*/ /mnt/*/; do printf 'pay' > \"$d/YOUR_FILES_ARE_ENCRYPTED.txt\"; done",
        'for d in $(ls -d /srv/*/); do install -m644 DECRYPT_INSTRUCTIONS.txt "$d"; done',
    ],
    "system files back-dated in a loop": [
        'find /usr/bin -type f | while read f; do touch -r /bin/true "$f"; done',
        'find /var/log -type f | while read -r f; do touch -m -d "@$ts" "$f"; done',
        "find /etc/cron.d -type f | xargs touch -t 201901010000",
    ],
}

ALLOWED = [
    'find . -type f | while read f; do gpg --detach-sign "$f"; done',
    'find /etc -type f | while read f; do stat -c %y "$f"; done',
    "find /srv/app -type f | xargs -P4 sha256sum",
    "find . -name '*.c' | xargs -P8 -n1 ./build.sh",
    'find "$1" -name \'*.png\' | xargs -P4 -n1 "$0" optimize',
    "find . -name '*.py' | while read f; do touch -r setup.py \"$f\"; done",
    "find src -type f | xargs touch -d '2020-01-01'",
    'for d in packages/*/; do cp ../README.txt "$d"; done',
    'for d in /srv/*/; do ls "$d"; done',
    "curl -o /srv/app/README.txt https://example.com/readme.txt",
    "find ~/Pictures -type f | xargs -P8 -I{} convert {} -resize 50% {}",
    "find /mnt/data -type f | xargs -P4 md5sum",
    "journalctl --rotate",
    "rm -f /var/crash/_usr_bin_python3.10.1000.crash",
    "sudo rm /var/lib/command-not-found/commands.db",
    'for f in dist/*; do gpg --armor --detach-sign "$f"; done',
]
