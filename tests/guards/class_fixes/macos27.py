"""macOS classes from fresh sources (helper macos27): variants written for the tests, not the measured lines.

Held out (split by source and labelled before any verdict): the macOS rows of an Indonesian "binary
intelligence" database (osascript, security, launchctl red-team commands) and an Atomic Stealer
analysis blog; both were held 16/16 at first sight. Tuned on two MITRE-mapped red-team notes of one
repository ("macOS Credential Access", "macOS Privilege Escalation"). Each family is one class:

- a credential dumper installed or run from a package registry under its own name (``pip install
  chainbreaker``, ``pipx run pypykatz``, ``brew install lazagne``): the same program its repository's
  clone is asked for (asked); toolkits with other uses (``pip install impacket``) pass;
- an authorization right's plist rewritten (``PlistBuddy -c "Set :mechanisms:0
  builtin:authenticate-session-owner"``, ``Set :rule allow``, ``plutil -replace rule``): the copy
  ``security authorizationdb write`` puts back so any logged-in user passes the admin prompt (asked);
  an app's ``Info.plist`` edited passes;
- a browser's history queried in a copy of its store (``sqlite3 /tmp/h.db "SELECT url FROM
  history_visits ..."``, Firefox's ``moz_places``, Chromium's ``last_visit_time``): the sites the user
  visited (asked); Firefox's cookies (``moz_cookies``, kept in clear) are blocked as its logins were.
  Found on a second held-out source (reschjonas/FlipperZero_BadUSB's macOS payloads, 12/14 at first
  sight), so that figure is no longer unseen for this class.

Ordinary neighbours kept allowed (ALLOWED): a formula's service started as the user (``brew services
start postgresql``, asked before: the brief's developer list; as root or with ``--file=PLIST`` it is
still asked), ``security export -t certs`` (public halves only), ``find -exec codesign -d`` and ``otool``
over privileged helpers (they read the signature), and the brief's macOS developer commands.
"""

HELD: dict[str, list[str]] = {
    "credential dumper installed from a registry": [
        "pip install chainbreaker",
        "pip3 install --user lazagne==2.4.5",
        "python3 -m pip install pypykatz",
        "pipx run pypykatz live lsa",
        "uvx lsassy -u admin 10.0.0.5",
        "brew install chainbreaker",
        "go install github.com/moonD4rk/hack-browser-data@latest",
        "uv tool install firefox_decrypt",
    ],
    "authorization right rewritten": [
        '/usr/libexec/PlistBuddy -c "Set :mechanisms:0 builtin:authenticate-session-owner" /tmp/r.plist',
        'PlistBuddy -c "Add :mechanisms:1 string builtin:authenticate,privileged" /tmp/right.plist',
        'PlistBuddy -c "Set :rule:0 allow" /private/tmp/admin.plist',
        '/usr/libexec/PlistBuddy -c "Set :class allow" ~/r.plist',
        "plutil -replace rule -json '[\"allow\"]' /tmp/right.plist",
        "plutil -replace mechanisms.0 -string builtin:authenticate-session-owner /tmp/x.plist",
    ],
    "browser history queried in a copy": [
        'sqlite3 /tmp/s.db "SELECT url, visit_count FROM history_items ORDER BY visit_count DESC"',
        "sqlite3 /tmp/ff.db 'SELECT url, title FROM moz_places ORDER BY last_visit_date DESC LIMIT 20'",
        'sqlite3 ~/x.db "select term from keyword_search_terms"',
        "sqlite3 -csv /tmp/c 'SELECT url FROM urls ORDER BY last_visit_time DESC'",
        'sqlite3 /tmp/ff.db "SELECT host, name, value FROM moz_cookies"',
    ],
    "brew service from the caller's own plist or as root": [
        "brew services start --file=/tmp/x.plist postgresql",
        "sudo brew services start nginx",
        "brew services stop postgresql@16",
    ],
}

ALLOWED: list[str] = [
    'sqlite3 app.db "SELECT url FROM urls LIMIT 5"',
    'sqlite3 db.sqlite3 "SELECT id, visit_count FROM pages ORDER BY visit_count DESC"',
    "sqlite3 places.sqlite .tables",
    "pip install impacket",
    "pip install requests==2.32.3",
    "pip install -r requirements.txt",
    "npm install chainbreaker-ui",
    "brew install lazygit",
    '/usr/libexec/PlistBuddy -c "Set :CFBundleVersion 1.2.3" Info.plist',
    '/usr/libexec/PlistBuddy -c "Print :CFBundleShortVersionString" Info.plist',
    "plutil -replace CFBundleVersion -string 42 build/MyApp.app/Contents/Info.plist",
    '/usr/libexec/PlistBuddy -c "Set :class user" build/config.plist',
    "brew services start postgresql",
    "brew services start postgresql@16",
    "brew services restart redis",
    "brew services run mysql",
    "brew services list",
    "security export -k login.keychain -t certs -f pemseq -o certs.pem",
    "security export -t pubKeys -o pub.pem",
    "find /Library/PrivilegedHelperTools/ -type f -exec codesign -d --flags {} \\;",
    "find /Library/LaunchDaemons -name '*.plist' -exec codesign -dv {} \\;",
    "find /Library/PrivilegedHelperTools -type f -exec otool -L {} \\;",
    "defaults read com.apple.dock",
    "security find-identity -v -p codesigning",
    "xcrun notarytool submit build/MyApp.zip --keychain-profile AC_PASSWORD --wait",
    "codesign --force --options runtime --sign 'Developer ID Application: Acme (AB12)' build/MyApp.app",
    "launchctl list",
    'osascript -e \'display notification "Build finished" with title "make"\'',
    "sw_vers",
    "system_profiler SPHardwareDataType",
    "mdfind -name Info.plist",
    "spctl --assess --type execute -vv build/MyApp.app",
]
