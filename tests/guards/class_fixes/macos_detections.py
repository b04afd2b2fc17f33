"""Classes of macOS attack that fresh detection content got past the guards (helper macos15).

First sight was measured on commands written from SigmaHQ's macOS rules and the collection, command
and control and credential access rules of Elastic's protections-artifacts for macOS (their licences
keep them outside the repository: /work/realworld/macos15 on the machine that measured them), with the
rest of Elastic's macOS rules and cedowens' Swift-Attack and persistence tools held out. What they
missed is fixed by class; the commands here are variants written for the tests, not the ones measured:

- a file hidden from the Finder (``chflags hidden``, ``SetFile -a V``) in a shared temporary place,
  ``/Users/Shared`` or a Library: where a dropper keeps its agent;
- the firmware password removed, an Apple silicon boot policy lowered (``bputil``), a password
  server's hashes dumped (``mkpassdb -dump``), the screen unlocked without a password;
- MeshCentral's agent started (remote access) or installed as a service (a backdoor);
- a path joined to the home in interpreter code (``os.homedir() + '/.aws/credentials'``,
  ``Path.home() / '.ssh'``): the secret it names;
- a whole folder of the user's data copied into a shared temporary place: a stealer's staging;
- a browser's Safe Storage key read through a keyring API in code;
- the terminal window hidden by AppleScript; a tab's cookies read by JXA's ``doJavaScript``;
  Terminal told to run a command in every window (``CommandString``);
- Notes' store, WhatsApp's and Signal's data, Discord's local storage: private; the Group Containers
  folder as the user's data.

A second round was fixed on the held-out part's misses, after it was measured (so those figures
are no longer unseen):

- AppleScript decoded at run time (``osascript -e "$(echo … | base64 -D)"``) judged as the script it
  decodes to; a decode that yields no text (a payload decoded twice) piped into a shell;
- ``killall NotificationCenter``; Safari told to let scripts run JavaScript in its tabs; the screen
  saver given a module from elsewhere; Terminal's window closed by AppleScript;
- Sublime Text's packages and Atom's ``init.coffee``: editor start-up code;
- a script in a hiding place (``/tmp/.x``, ``/Users/Shared/.x``) handed to an interpreter;
- an installed app started with a debugger port or as plain Node (``ELECTRON_RUN_AS_NODE``);
- ``pwsh -enc BASE64``.
"""

from __future__ import annotations

HELD = {
    "file hidden where a dropper keeps it": [
        "chflags hidden /Users/Shared/.svc",
        "SetFile -a V ~/Library/Application\\ Support/.cache-helper",
        "chflags -R hidden /private/tmp/.u",
    ],
    "boot, firmware and lock screen protections lowered": [
        "sudo firmwarepasswd -disable",
        "sudo bputil --enable-kexts",
        "bputil -r",
        "defaults -currentHost write com.apple.screensaver askForPassword -bool false",
    ],
    "password hashes dumped": ["sudo /usr/sbin/mkpassdb -dump -a diradmin"],
    "remote access agent": [
        "./meshagent_osx64 -install",
        "/usr/local/mesh_services/meshagent/meshagent --meshServiceName=Support",
        "./meshagent",
    ],
    "secret path joined to the home in code": [
        "node -e \"console.log(require('fs').readFileSync("
        "require('os').homedir() + '/.aws/credentials', 'utf8'))\"",
        "python3 -c \"import os;print(open(os.path.join(os.path.expanduser('~'), "
        "'Library/Keychains/login.keychain-db'),'rb').read()[:9])\"",
        "ruby -e 'puts File.read(Dir.home + \"/.netrc\")'",
        'python3 -c "import os;print(open(f\'{os.environ[\\"HOME\\"]}/.config/gh/hosts.yml\').read())"',
    ],
    "user data folder staged": [
        "cp -R ~/Desktop /private/tmp/grab",
        "rsync -r ~/Pictures /Users/Shared/p",
        "ditto ~/Documents /var/tmp/d",
    ],
    "browser key from the keyring in code": [
        "python3 -c \"import keyring;print(keyring.get_password('Chrome Safe Storage','Chrome'))\"",
        'python3 -c "from gi.repository import Secret;'
        "print(Secret.password_lookup_sync(S, {'application': 'chromium'}, None))\"",
    ],
    "what runs hidden from the user": [
        'osascript -e \'tell application "System Events" to set visible of process "iTerm2" to false\'',
        "osascript -l JavaScript -e "
        '\'Application("System Events").processes.byName("Terminal").visible = false\'',
        'defaults write com.apple.Terminal "Window Settings" -dict-add Basic '
        "'{CommandString = \"/Users/Shared/.u\";}'",
    ],
    "browser tab read by JXA": [
        'osascript -l JavaScript -e \'var s=Application("Safari"); '
        's.doJavaScript("localStorage.getItem(1)", {in: s.windows[0].currentTab})\'',
    ],
    "private notes and messengers": [
        "sqlite3 ~/Library/Group\\ Containers/group.com.apple.notes/NoteStore.sqlite .dump",
        "tar czf /tmp/s.tgz ~/Library/Application\\ Support/Signal",
        "cat ~/Library/Group\\ Containers/group.net.whatsapp.WhatsApp.shared/ChatStorage.sqlite",
        "zip -qr /tmp/g.zip ~/Library/Group\\ Containers",
    ],
    "decoded at run time": [
        'osascript -e "$(printf %s ZG8gc2hlbGwgc2NyaXB0ICJybSAtcmYgfiI= | base64 --decode)"',
        "echo SGVsbG8gd29ybGQ= | base64 -D | base64 -D | bash",
        "powershell -ec SQBFAFgA",
    ],
    "alerts, browser scripting and idle-time code": [
        "pkill -x usernoted",
        "defaults write com.apple.Safari AllowRemoteAutomation -bool YES",
        "defaults write com.apple.screensaver modulePath -string ~/Library/Caches/.idle.saver",
        "osascript -e 'tell application \"iTerm\" to close current window'",
    ],
    "editor start-up code": [
        "tee ~/.atom/init.js < payload.js",
        "cp helper.py ~/.config/sublime-text/Packages/User/helper.py",
    ],
    "script in a hiding place run by an interpreter": [
        "ruby /var/tmp/.cache/u.rb",
        "osascript /Users/Shared/.a.scpt",
        "python3 -u /private/tmp/.s/run.py",
    ],
    "installed app opened to a debugger": [
        "/Applications/Discord.app/Contents/MacOS/Discord --remote-debugging-port=9333",
        "env ELECTRON_RUN_AS_NODE=1 '/Applications/Slack.app/Contents/MacOS/Slack' -e 'require(1)'",
    ],
}

ALLOWED = [
    "chflags nohidden ~/Library",
    "chflags hidden build/.cache",
    "SetFile -a V /Volumes/MyApp/.background",
    "SetFile -a v ~/Library/Application\\ Support/MyApp",
    "firmwarepasswd -check",
    "bputil -d",
    "defaults write com.apple.screensaver askForPassword -int 1",
    "defaults write com.apple.Terminal 'Default Window Settings' -string Pro",
    "meshagent --help",
    "xattr -d com.apple.quarantine build/Tool.app",
    "xattr -dr com.apple.quarantine DerivedData/Build/Products/Debug/App.app",
    "cp -r ~/Documents/notes-project /tmp/np",
    "rsync -a src/ /tmp/src-copy/",
    "node -e \"console.log(require('os').homedir() + '/projects')\"",
    "python3 -c \"import os; print(os.path.join(os.environ['HOME'], 'src'))\"",
    'python3 -c "import keyring; print(keyring.get_keyring())"',
    "python3 -c \"import keyring;p = keyring.get_password('myapp', 'me')\nfrom selenium import webdriver\"",
    'osascript -e \'tell application "System Events" to set visible of process "Simulator" to false\'',
    "ls ~/Library/Group\\ Containers/",
    "echo SGVsbG8gd29ybGQ= | base64 -D",
    'osascript -e "$(echo ZGlzcGxheSBub3RpZmljYXRpb24gImRvbmUi | base64 -D)"',
    "killall Simulator",
    "defaults write com.apple.Safari IncludeDevelopMenu -bool true",
    "defaults -currentHost write com.apple.screensaver idleTime -int 600",
    "python3 /tmp/build/gen.py",
    "node --inspect server.js",
    "/Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild -version",
    "pwsh -NoProfile -ExecutionPolicy Bypass -File ./build.ps1",
]
