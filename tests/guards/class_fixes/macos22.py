"""macOS stealer classes a fresh round found (helper macos22).

Held out by source before any verdict was seen: a red-team skill repository's macOS persistence page,
RabbITCybErSeC/CloudFlare-ClickFix (a found AMOS-style AppleScript stealer and its loader) and
Yogehi/random-macos-security-notes, with ordinary macOS developer commands (the corpus stays outside
the repository: /work/realworld/macos22 on the machine that measured it). Tuned on a Go macOS stealer
(adelbert33s/Stuart_Mac_Stealer), a process monitor's Swift tests, HackTricks' macOS sensitive
locations page and own spellings of the brief's classes. The commands here are variants written for
the tests, not the ones measured:

- a crypto wallet app in ``/Applications`` (Ledger Live, Trezor Suite, Exodus, Atomic Wallet ...)
  deleted, moved away or copied over: the stealers' wallet swap (AMOS and Odyssey put a look-alike
  that asks for the seed phrase in its place); the app's code inside was already an app's own;
- the Notification Center's database (``group.com.apple.usernoted``: the text of every notification,
  one-time codes and messages) and Siri's suggestions store (``~/Library/Suggestions``: snippets of
  mail) read or copied: private stores, like Messages and Notes.
"""

HELD: dict[str, list[str]] = {
    "wallet app swapped": [
        "rm -rf '/Applications/Trezor Suite.app' && ditto /tmp/ts/T.app '/Applications/Trezor Suite.app'",
        "cp -R '/Users/Shared/.w/Ledger Live.app' /Applications/",
        "sudo mv /tmp/Exodus.app /Applications/Exodus.app",
        "rsync -a --delete /var/folders/zz/T/aw/Atomic\\ Wallet.app/ '/Applications/Atomic Wallet.app/'",
        "sudo rm -rf /Applications/Electrum.app",
        "mv '/Applications/Ledger Wallet.app' /tmp/old.app",
    ],
    "notification and suggestion stores": [
        "sqlite3 ~/Library/Group\\ Containers/group.com.apple.usernoted/db2/db 'select data from record'",
        'cp -R "$HOME/Library/Group Containers/group.com.apple.usernoted" /tmp/stage/n',
        "sqlite3 ~/Library/Suggestions/snippets.db 'select * from emailSnippets'",
        "zip -r /tmp/s.zip ~/Library/Suggestions",
    ],
}

ALLOWED: list[str] = [
    # the project's own app installed or removed, apps installed from a disk image or Downloads
    "cp -R build/Release/MyApp.app /Applications/",
    "rm -rf /Applications/MyApp.app",
    "ditto build/MyApp.app /Applications/MyApp.app",
    "cp -R '/Volumes/Visual Studio Code/Visual Studio Code.app' /Applications/",
    "mv ~/Downloads/Rectangle.app /Applications/",
    # a wallet app only looked at
    "mdls -name kMDItemVersion '/Applications/Ledger Live.app'",
    "ls /Applications | grep -i -e ledger -e exodus",
    "codesign -dv --verbose=2 /Applications/Exodus.app",
    # the Group Containers folder listed, a notification shown
    "ls ~/Library/Group\\ Containers/",
    'osascript -e \'display notification "tests passed" with title "CI"\'',
]
