"""Offensive notes' leftover misses closed as classes, and a fresh held-out sample (left24, session 21).

The leftovers came from the lead's list (session 20's misses); a fresh held-out sample of two OSCP and
pentest note repositories was measured at first sight and at the end, and the classes found on a
third, separate tuning source are at the end (the corpora are kept outside the repository in
/work/realworld/left24 on the machine that measured them). The classes:

- a pass-the-hash login with evil-winrm (``-H``/``--hash``, whatever the value is written as: ``-H
  "$NT"``) is held whatever the host, ``localhost`` through a tunnel too;
- jwt_tool forging or tampering with a web token (``-X`` exploits, ``-T``, ``-I``, ``-S``, ``-M`` scans)
  is a service attack, asked; cracking its secret (``-C``), and ``jwt-cracker``/``jwtcrack``, is
  password cracking, blocked; decoding a token and a site of this machine are not judged;
- ``cewl``, a site crawled for the words to guess its users' passwords with, is asked as a brute
  forcer is;
- a file named as a web shell (``shell.php``, ``php-reverse-shell.php``, ``cmd.aspx``) copied to another
  machine by any copier (``aws s3 cp``, ``scp``, ``gsutil``, smbclient's ``put``) is a web shell planted,
  asked; a PHP file of another name is a deployment;
- curl's ``-O`` (``--remote-name``) takes no value: the bare URL after it is the request judged
  (``curl -O 10.10.10.5/x.php?cmd=id``); wget's ``-O`` still names the output file;
- an interpreter's script ends its options (``python3 dirsearch.py -u URL -e php``: ``-e`` is the
  script's, not inline code), and ``python3 -m MODULE`` runs a module, not a file after it: service
  attacks find the tool by :func:`~agentbus.guards.tactics.hidden_runs.launched_file`;
- (found on the tuning source, wwong99/pentest-notes) a payload wrapped to get past antivirus (Veil,
  Shellter, Hyperion under wine) is a backdoor made, blocked; a wireless card put in monitor mode (``iw
  ... set type monitor``, ``iwconfig ... mode monitor``) and ``wash``'s WPS survey capture the air around,
  asked; IKE's and EAP-MD5's offline crackers (``psk-crack``, ``eapmd5pass``) are crackers, blocked.

The commands here are variants written for the tests, not the measured lines.
"""

from __future__ import annotations

HELD = {
    "evil-winrm handed a hash, any host": [
        "evil-winrm -i localhost -u admin -H HASH",
        'evil-winrm -i 127.0.0.1 -u administrator -H "$NTHASH"',
        "evil-winrm-py -i 127.0.0.1 -u administrator --hash abc",
        "proxychains evil-winrm -i 10.0.0.5 -u svc -H 5f4dcc3b5aa765d61d8327deb882cf99",
    ],
    "jwt_tool forging a token": [
        "python3 jwt_tool.py eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyIjoiYSJ9.sig -X a",
        "jwt_tool eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyIjoiYSJ9.sig -T",
        "jwt_tool TOKEN -I -pc role -pv admin -S hs256 -p secret",
        "python3 /opt/jwt_tool/jwt_tool.py -t https://api.corp.example/ -rc 'jwt=TOKEN' -M at",
        "./jwt_tool.py TOKEN --exploit k -pk pub.key",
    ],
    "jwt secrets cracked": [
        "python3 jwt_tool.py TOKEN -C -d words.txt",
        "jwt_tool TOKEN --crack -p secret123",
        "jwt-cracker -t eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyIjoiYSJ9.sig -a abcdef -m 6",
        "jwtcrack eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyIjoiYSJ9.sig",
    ],
    "cewl word lists from a site": [
        "cewl http://target -w words.txt",
        "cewl -d 2 -m 5 -w words.txt https://www.corp.example",
        "ruby cewl.rb https://corp.example --with-numbers",
    ],
    "a web shell copied to another machine": [
        "aws s3 cp shell.php s3://bucket/",
        "aws --endpoint-url http://s3.thetoppers.htb s3 cp shell.php s3://thetoppers.htb",
        "scp php-reverse-shell.php user@10.10.10.5:/var/www/html/",
        "gsutil cp cmd.jsp gs://site-assets/",
        "smbclient //10.10.10.5/wwwroot -U user -c 'put cmd.aspx'",
        "scp simple-backdoor.php.jpg u@h:/var/www/uploads/",
    ],
    "curl -O before a bare URL": [
        "curl -O 10.10.10.5/x.php?cmd=id",
        "curl --remote-name 10.10.10.5/uploads/shell.php?cmd=whoami",
        "curl -O -s 10.10.10.5/index.php?page=php://filter/convert.base64-encode/resource=index",
    ],
    "attack scripts by their interpreter": [
        "python3 /opt/dirsearch/dirsearch.py -u http://10.0.0.5 -e php",
        "python3 -m sqlmap -u 'http://10.0.0.5/item.php?id=1'",
        "python3 -W ignore odat.py all -s 10.0.0.5",
    ],
    "payload crypters": [
        "wine hyperion.exe ../backdoor.exe ../crypted.exe",
        "shellter -a -f putty.exe -p meterpreter_reverse_tcp",
        "veil -t Evasion -p 22 --ip 10.0.0.1 --port 443",
    ],
    "wireless monitor mode and surveys": [
        "sudo iw dev wlan0 set type monitor",
        "iw phy phy0 interface add mon0 type monitor && iw dev mon0 set monitor control",
        "iwconfig wlan1 mode Monitor",
        "wash -i wlan0mon",
    ],
    "IKE and EAP crackers": [
        "psk-crack -d rockyou.txt ike-psk.txt",
        "eapmd5pass -r capture.pcap -w words.txt",
    ],
}

ALLOWED = [
    "evil-winrm -i 127.0.0.1 -u administrator -p Password1",
    "evil-winrm --help",
    "jwt_tool eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyIjoiYSJ9.sig",
    "python3 jwt_tool.py --help",
    "python3 jwt_tool.py -t http://localhost:5000/ -rc 'jwt=TOKEN' -M at",
    "cewl http://localhost:8080 -w words.txt",
    "cewl --help",
    "aws s3 cp index.php s3://my-site/",
    "scp cmd_handler.php deploy@web1:/srv/app/",
    "scp shell/indexer.php deploy@web1:/srv/app/shell/",
    "scp shell.sh user@host:",
    "curl -O https://example.com/files/report.pdf",
    "curl -O example.com/files/report.pdf?download=1",
    "wget -O page.html example.com/index.php?page=2",
    "python3 -m http.server 8000",
    "python3 manage.py runserver -e dev",
    "python3 -m pytest -x -k e",
    "veil --help",
    "iw dev",
    "iw dev wlan0 set type managed",
    "iwconfig wlan0",
]
