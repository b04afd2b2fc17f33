"""Ransomware, wipers and log cleaners on Linux from fresh sources, and the brief's known misses (helper
impact26).

First sight was measured on fresh material split by source before any verdict was seen (kept outside
the repository, /work/realworld/impact26 on the machine that measured it): tuning = a bash crypto-locker
(SergioZ3R0/Sergio-Code), a log and history cleaner (yaoliu/linux-clear), a red-team log-handling page
(wgpsec/wiki) and backup scripts and reproducible-build lines (isMTv/tar_bkp, mihairinzis/dotfiles,
``find . -exec touch -d @0``); held out = a crypto-locker that also defaces web roots
(skqhfla/CryptoTrooper), an OpenSSL folder locker (mahajang214/CyberShield), an intrusion-trace cleaner
(Maikefee/linux_cleaner), an SSH log wiper (Bxci/clean.sh), a clock-and-timestamp reset script, and
developers' gpgtar, shred, backup and ``touch -d @0`` lines. The fixes, by class:

- a variable assigned a path whose parts come from run time (``for i in `ls /home`; do
  h=/home/$i/.bash_history; : > $h; done``) keeps its shape (:mod:`agentbus.guards.parse`), so the
  history file it names is seen;
- a tar archive encrypted into a new file (``gpg -c ~/backup-$(date +%F).tar.gz``) is a backup
  script's step, no longer data destruction; a user's document encrypted stays held;
- the files a substitution lists handed to gpg or age (``gpg -c $(find ~/Documents -type f)``): judged
  by what the search covers, as ``openssl -in $(find …)`` already was;
- inline code that walks the home, a server's or a mount's data and encrypts each file it rewrites
  (``os.walk('/home')`` with ``Fernet(k).encrypt`` and ``open(p, 'wb')``), in a one-liner or a script
  file run: data destruction; a walk of the project, or printing a cipher text, stays allowed;
- inline code that opens a system log to write it over (``p='/var/log/auth.log'; …; open(p,'w')``):
  evidence destruction; reading a log into a report stays allowed;
- ``sponge FILE`` writes FILE as ``tee`` does (``grep -v IP /var/log/auth.log | sponge
  /var/log/auth.log``, ``… | sponge /etc/hosts``); the project's files stay allowed;
- a search of a tree outside the home (``find /var/www/html | xargs touch -d '2 years ago'``) back-
  dated through xargs or a ``while read`` loop, as ``find … -exec touch`` already was.
- every file a search of the user's data lists (no name picked) deleted or shredded one by one: in a
  ``while read`` loop, fed through ``done < <(find ~ -type f)``, by ``parallel``, or by ``xargs sh -c
  'shred -u {}'`` (the program a shell's code starts with), and encrypted that way (``xargs sh -c 'gpg
  -c "{}" && rm "{}"'``): data destruction; a clean-up by name (``find ~ -name '*.pyc'``), the
  project's or a cache's files stay allowed.

The commands here are variants written for the tests (other paths, programs and spellings than the
measured ones).
"""

from __future__ import annotations

HELD = {
    "history path built at run time": [
        "for u in $(ls /home); do hf=/home/$u/.zsh_history; cat /dev/null > $hf; done",
        'for u in `ls /home`; do H="/home/${u}/.bash_history"; echo > "$H"; done',
    ],
    "files a substitution lists, encrypted": [
        "gpg --batch --yes -c --passphrase s3cret $(find ~/Pictures -type f)",
        "gpg -e -r ops@example.org $(find /srv/share -name '*.xlsx')",
        "age -p -o /tmp/x.age $(ls ~/Documents/*)",
    ],
    "walk of the user's data encrypted in code": [
        'python3 -c "import os;from cryptography.fernet import Fernet;c=Fernet(Fernet.generate_key())\n'
        "for d,_,ns in os.walk('/srv/share'):\n for n in ns:\n  q=os.path.join(d,n)\n"
        "  b=open(q,'rb').read();open(q,'wb').write(c.encrypt(b))\"",
        'python3 -c "import os,pathlib;from Crypto.Cipher import AES;k=os.urandom(32)\n'
        "for q in pathlib.Path.home().rglob('*'):\n if q.is_file():\n"
        "  c=AES.new(k,AES.MODE_GCM);q.with_suffix('.lkd').write_bytes(c.encrypt(q.read_bytes()))\n"
        '  os.remove(q)"',
        'python -c "import glob,os;from cryptography.fernet import Fernet;c=Fernet(Fernet.generate_key());'
        "[open(q,'wb').write(c.encrypt(open(q,'rb').read())) for q in glob.glob('/mnt/nas/**',recursive=True)"
        ' if os.path.isfile(q)]"',
    ],
    "system log rewritten in code": [
        "python3 -c \"f='/var/log/secure';k=[l for l in open(f) if '192.0.2.7' not in l];"
        "open(f,'w').writelines(k)\"",
        "python3 -c \"open('/var/log/apache2/access.log','r+').truncate(0)\"",
    ],
    "sponge writes its file": [
        "grep -v 192.0.2.7 /var/log/nginx/access.log | sponge /var/log/nginx/access.log",
        "sed '/sshd.*192.0.2.7/d' /var/log/auth.log | sponge /var/log/auth.log",
        "echo '10.0.0.5 github.com' | sponge -a /etc/hosts",
    ],
    "search's files deleted one by one": [
        'find ~/Documents -type f | while IFS= read -r p; do shred -fu "$p"; done',
        'while read -r p; do rm -f -- "$p"; done < <(find "$HOME" -type f)',
        "find /home -type f | parallel -j8 shred -zu {}",
        "find ~/Music -type f -print0 | xargs -0 -I@ bash -c 'wipe -f \"@\"'",
        'find / -xdev -type f | while read p; do truncate -s 0 "$p"; done',
        "find ~/Desktop -type f | xargs -I{} sh -c 'openssl enc -aes-256-cbc -k k -in {} -out {}.x && rm {}'",
    ],
    "server tree back-dated through xargs": [
        "find /var/www/site -type f -print0 | xargs -0 touch -r /etc/hostname",
        "find /srv/www -name '*.php' | xargs touch -d 'last year'",
        'find /opt/webapp -type f | while read -r f; do touch -t 202001010101 "$f"; done',
    ],
}

ALLOWED = [
    "gpg --symmetric --cipher-algo AES256 ~/backups/site-$(date +%F).tar.gz",
    "gpg -e -r ops@example.org ~/db-dump.tgz",
    "openssl enc -aes-256-cbc -pbkdf2 -in ~/www-backup.tar.xz -out ~/www-backup.tar.xz.enc -pass file:.k",
    "gpg --detach-sign $(find dist -type f -name '*.whl')",
    "gpg -c $(find . -name 'dump-*.sql')",
    "python3 -c \"import os;from cryptography.fernet import Fernet;c=Fernet(open('k').read())\n"
    "for d,_,ns in os.walk('tests/fixtures'):\n for n in ns:\n  q=os.path.join(d,n)\n"
    "  open(q+'.enc','wb').write(c.encrypt(open(q,'rb').read()))\"",
    "python3 -c \"from cryptography.fernet import Fernet;print(Fernet(open('k').read()).encrypt(b'token'))\"",
    "python3 -c \"import os;print(sum(len(f) for _,_,f in os.walk('/srv/share')))\"",
    "python3 -c \"d=open('/var/log/syslog').read();open('syslog-tail.txt','w').write(d[-5000:])\"",
    "jq -S . tsconfig.json | sponge tsconfig.json",
    "sort -u requirements.txt | sponge requirements.txt",
    "find . -type f -print0 | xargs -0 touch -d @0",
    "find /tmp/pkgroot -type f | xargs touch -d '2000-01-01'",
    "find ~/src/app -name '*.o' | xargs touch -d '1 hour ago'",
    "for u in $(ls build); do out=build/$u/stamp; : > $out; done",
    "find ~ -name '*.pyc' | while read -r p; do rm -f \"$p\"; done",
    "find ~/.cache/pip -type f | xargs rm -f",
    'while read -r p; do rm -f "$p"; done < <(find build -type f)',
    "find . -name '*.orig' | parallel rm {}",
    "find ~/Pictures -type f | xargs -I{} sh -c 'exiftool -all= {}'",
    "d=$(mktemp -d); log=$d/run.log; echo start > $log",
]
