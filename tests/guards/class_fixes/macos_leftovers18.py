"""macOS classes left over from session 15's misses (helper macos18).

Tuned on the brief's list of session-15 misses and on 0xv1n/macnoise (MIT), a macOS telemetry generator
whose scenarios emulate AMOS, ClickFix and Lazarus tradecraft; Elastic Security Labs' BANSHEE write-up,
a BANSHEE log-analysis write-up and an AMOS reverse-engineering blog were held out (the corpus stays
outside the repository: /work/realworld/macos18 on the machine that measured it). The commands here are
variants written for the tests, not the ones measured:

- ``osascript`` given an AppleScript/JXA file in a shared temporary place (``/tmp``, ``/private/tmp``,
  ``/var/folders``, ``/Users/Shared``) that is not on disk to read: something else writes it, and
  AppleScript drives other apps, draws password dialogs and borrows their privacy grants, so it is
  asked (unjudged script); a file on disk is judged by its text, as before;
- an interpreter inside an app bundle given code (``GIMP.app/Contents/MacOS/python -c``,
  ``LibreOffice.app/.../python x.py``): it borrows that app's privacy (TCC) grants: asked. Apple's
  developer toolchain (Xcode's ``Contents/Developer``, CommandLineTools) is not such an app;
- logins to every address of a range (a brace range in the address, a counter such as ``$(seq 1 254)``,
  or three and more addresses at once from a loop's expanded list): asked as remote access, like the
  sshpass sweeps of session 15;
- a program built from a keylogger's source (``swiftc keylogger.swift -o /tmp/.u``, ``go build
  ./cmd/keylogger``): judged as the keylogger it is, under whatever name it is given.
"""

HELD: dict[str, list[str]] = {
    "unread AppleScript in a temp place": [
        "osascript -l JavaScript /private/tmp/com.apple.update.js",
        "osascript /var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/stage.scpt",
        "nohup osascript /Users/Shared/.cache/run.applescript >/dev/null 2>&1 &",
        "osascript -s o /tmp/agent-4821.scpt",
    ],
    "bundled interpreter": [
        "/Applications/LibreOffice.app/Contents/Resources/python -c "
        "'import glob; print(glob.glob(\"/Users/me/Documents/*\"))'",
        "/Applications/Krita.app/Contents/MacOS/python3 steal.py",
        "/Applications/Inkscape.app/Contents/Resources/bin/python3 -c "
        "'print(open(\"/Users/me/Library/Mail/V10/x\").read())'",
    ],
    "address range sweep": [
        "for n in $(seq 2 250); do ssh -o ConnectTimeout=2 pi@10.10.0.$n hostname; done",
        "for x in {10..40}; do scp payload.sh admin@172.16.5.$x:/tmp/; done",
        "for t in 192.168.56.{100..120}; do ssh -n ubuntu@$t 'cat /etc/hostname'; done",
    ],
    "terminal window hidden": [
        "osascript -e 'tell application \"iTerm2\" to set visible of the front window to false'",
        "osascript -e 'tell application \"Terminal\" to set miniaturized of window 1 to true' && ./stage2",
    ],
    "keylogger built": [
        "swiftc -O Sources/KeyLogger/main.swift -o ~/.local/share/.updater",
        "clang -framework Carbon keylog.m -o /tmp/svc && /tmp/svc &",
        "go build -o /Users/Shared/helper ./cmd/key-logger",
    ],
}

ALLOWED: list[str] = [
    # an AppleScript of the project, inline notifications, Xcode's own python
    "osascript scripts/release-notes.applescript",
    "osascript -l JavaScript tools/open-simulator.js",
    'osascript -e \'display notification "tests passed" with title "CI"\'',
    "/Applications/Xcode.app/Contents/Developer/usr/bin/python3 -c 'import sys; print(sys.version)'",
    "/Library/Developer/CommandLineTools/usr/bin/python3 -m pip --version",
    "osascript -e 'tell application \"Terminal\" to set visible of front window to true'",
    # an app's command-line tool, not its interpreter
    "/Applications/Docker.app/Contents/Resources/bin/docker compose up -d",
    "'/Applications/Visual Studio Code.app/Contents/Resources/app/bin/code' --list-extensions",
    # one host, named hosts in a loop, two addresses
    "for h in web1 web2 web3; do ssh $h uptime; done",
    "for i in $(seq 1 3); do ssh node$i.example.com 'systemctl is-active app'; done",
    "for h in 10.0.0.4 10.0.0.5; do ssh deploy@$h ./release.sh; done",
    "scp dist.tar.gz deploy@10.2.3.4:/srv/",
    # ordinary builds, and names that only look like a keylogger's
    "swiftc Sources/App/main.swift -o build/app",
    "go build ./cmd/server",
    "gcc sslkeylog.c -shared -fPIC -o libsslkeylog.so",
]
