"""Tactic family ``macos``: AppleScript and the programs only macOS has, across every tactic.

The other families judge the macOS forms of their tactic that look like the
Linux ones (``launchctl load``, ``spctl --master-disable``, ``security
dump-keychain``, ``log erase``). This one judges what has no Linux twin:

- ``osascript`` (AppleScript, and JXA with ``-l JavaScript``), read with
  :mod:`..applescript`: a password dialog the script draws itself (``display
  dialog ... with hidden answer``: CREDENTIALS, blocked), a browser tab's
  cookies read through ``execute javascript`` (CREDENTIALS), the Finder copying
  a credential or message store (Safari's cookies, Notes, Messages, a keychain:
  CREDENTIALS) or deleting a log, a protection's files or the user's folders
  (the category of the place, :mod:`..locations`; DATA_DESTRUCTION), UI
  scripting of the password prompt or the privacy settings, keystrokes typed
  into another window, the sound muted (IMPAIR), mail or messages sent
  (EXFILTRATION), the clipboard, notes or contacts read (COLLECTION, asked),
  raw power events (SHUTDOWN), JXA that evaluates what it downloads
  (DOWNLOAD_RUN). The shell code a script runs (``do shell script``, with
  ``administrator privileges`` as ``sudo``; Terminal's ``do script``) is
  handed on by :mod:`..carriers` and judged by every rule. A script in a file
  is not read; one downloaded first is download-and-run's.
- Accounts: a user put in the ``admin`` or ``wheel`` group, an admin or uid-0
  account created (``dscl``, ``dseditgroup``, ``sysadminctl``), the root account turned on
  (``dsenableroot``): PRIVILEGE,
  blocked (other account changes are the persistence family's ask); a
  password hash read (``dscl . -read /Users/NAME ShadowHashData``) or every
  account's record exported (``dscl . profileexport``): CREDENTIALS; an account
  hidden from the login window: STEALTH_PERSISTENCE; another directory server
  signed in to with a password on the line (``dscl -u U -P PASS /LDAPv3/HOST``):
  SERVICE_ATTACK, asked.
- Defenses: the application firewall told to let a program through or to stop
  hiding (``socketfilterfw --add``, ``--setstealthmode off``), system
  extensions' developer mode, FileVault off, automatic updates off, login
  without a password, the machine's web proxy or DNS servers pointed elsewhere
  (``networksetup -setwebproxy HOST``: every connection can be read): IMPAIR;
  a system or persistence file back-dated (``SetFile -d/-m``): EVIDENCE.
- An authorization right's rule rewritten in its plist (``PlistBuddy -c "Set :mechanisms:0
  builtin:authenticate-session-owner"``, ``plutil -replace rule``): SYSTEM_CONFIG, asked (its write
  back, ``security authorizationdb write``, is blocked elsewhere).
- A shutdown or restart scheduled (``pmset schedule|repeat shutdown``): SHUTDOWN.
- An app extension registered or turned on (``pluginkit -a``, ``-e use``), as a login item: PROFILE.
- ``touch`` of a file where it runs code later (``/Library/StartupItems``,
  ``/etc/periodic``): the place's category.

Discovery stays allowed: ``sw_vers``, ``system_profiler``, ``defaults read``,
``dscl . -read/-list``, ``dscacheutil -q``, ``networksetup -get*``, ``pmset -g``,
``osascript -e 'display notification ...'``, ``id of app "Xcode"``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from ...lazy_regex import lazy_compile
from ..applescript import paths, script_text
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..interpreters import fed_code
from ..locations import location, written
from ..parse import Script
from ..paths import check_path
from ..programs import Invocation, is_root_user, runs_as, walk
from ..verdict import (
    ACCOUNT,
    COLLECTION,
    CREDENTIALS,
    DATA_DESTRUCTION,
    DOWNLOAD_RUN,
    EVIDENCE,
    EXFILTRATION,
    IMPAIR,
    PRIVILEGE,
    PROFILE,
    SCHEDULED,
    SERVICE,
    SERVICE_ATTACK,
    SHUTDOWN,
    STEALTH_PERSISTENCE,
    SYSTEM_CONFIG,
    SYSTEM_FILES,
    UNJUDGED_SCRIPT,
    Verdict,
)
from .credentials import credential_store, search_parts, secret_word
from .impact import user_data

__all__ = ["judge"]

# -- osascript ----------------------------------------------------------------------------

_PROMPT = lazy_compile(r"\bdisplay\s+dialog\b|\bdisplayDialog\s*\(", re.IGNORECASE)
_HIDDEN_ANSWER = lazy_compile(
    r"\bwith\s+hidden\s+answer\b|\bhidden\s+answer\s*:?\s*true|hiddenAnswer\s*:\s*true", re.IGNORECASE
)
_ANSWER = lazy_compile(r"\bdefault\s+answer\b|\bdefaultAnswer\s*:", re.IGNORECASE)
_SECRET_WORD = lazy_compile(r"pass(?:word|phrase|code)|keychain|credential|\bPIN\b|Apple ID", re.IGNORECASE)
_BROWSER_JS = lazy_compile(
    r"\bexecute\b[^\n]{0,200}?\bjavascript\b|\bdo\s+JavaScript\b|\.execute\s*\(\s*\{?\s*javascript\s*:"
    r"|\.doJavaScript\s*\(",
    re.IGNORECASE,
)
_PAGE_SECRETS = lazy_compile(r"document\.cookie|password|localStorage|sessionStorage|document\.forms|"
                             r"type=['\"]?password", re.IGNORECASE)  # fmt: skip
_SECURITY_UI = lazy_compile(
    r"process\s+\"(?:SecurityAgent|UserNotificationCenter|coreautha|universalAccessAuthWarn)\"|"
    r"com\.apple\.preference\.security|com\.apple\.settings\.PrivacySecurity|Privacy_[A-Za-z]+|"
    r"Security\s*&\s*Privacy|Privacy\s*&\s*Security|processes\.byName\(\s*['\"]SecurityAgent",
    re.IGNORECASE,
)
_UI_ACTION = lazy_compile(r"\bclick\b|\bkeystroke\b|\bkey\s+code\b|\bset\s+value\b|\bperform\s+action\b|"
                          r"\.click\(|\.keystroke\(|\.keyCode\(|\.value\s*=", re.IGNORECASE)  # fmt: skip
_TYPING = lazy_compile(
    r"\bkeystroke\s+(?:\"((?:[^\"\\]|\\.){0,4000})\"|(?!return\b|tab\b|space\b|\")(\w+))"
    r"|\.keystroke\(\s*(['\"])((?:(?!\3)[^\\]|\\.){0,4000})\3",
    re.IGNORECASE,
)
_ADMIN_RIGHTS = lazy_compile(r"\bwith\s+administrator\s+privileges\b|administratorPrivileges\s*:\s*true",
                             re.IGNORECASE)  # fmt: skip
_OWN_PROMPT = lazy_compile(r"\bwith\s+prompt\b|\bwithPrompt\s*:", re.IGNORECASE)
"""``do shell script ... with administrator privileges with prompt "..."``: the system's password
dialog, with the text the script wants (``Software Update needs your password``)."""
_KEY_MONITOR = lazy_compile(
    r"addGlobalMonitorForEvents\w*[^;\n]{0,200}?Key(?:Down|Up)|CGEventTapCreate[^;\n]{0,300}?Key(?:Down|Up)"
    r"|IOHIDManager\w*[^;\n]{0,200}?Keyboard",
    re.IGNORECASE,
)
"""A global keyboard monitor (``NSEvent.addGlobalMonitorForEventsMatchingMask(KeyDown)``, an event
tap, an IOHID keyboard matcher): every key typed anywhere, passwords included."""
_SESSION_TYPED = lazy_compile(r"\bwrite\s+text\b|\.write\s*\(\s*\{\s*text\s*:", re.IGNORECASE)
_SESSION_READ = lazy_compile(
    r"\b(?:history|contents)\s+of\s+(?:(?:the\s+)?(?:selected\s+|current\s+)?(?:tab|session)\b)"
    r"|\.(?:history|contents)\s*\(\s*\)",
    re.IGNORECASE,
)
_MUTE = lazy_compile(
    r"(?m)\bset\s+volume\s+0\s*$|\bset\s+volume\b[^\n]{0,80}?(?:\bwith\s+output\s+muted\b"
    r"|\boutput\s+muted\s+(?:true|yes)\b|\boutput\s+volume\s+0\b)|setVolume\([^)]{0,80}outputMuted\s*:\s*true",
    re.IGNORECASE,
)
_HIDE_TERMINAL = lazy_compile(
    r"\bset\s+visible\s+of\s+(?:application\s+)?process\s+\"(?:Terminal|iTerm2?|Warp|kitty|Alacritty|Ghostty)\"\s+"
    r"to\s+false\b|processes(?:\.byName\(\s*|\[\s*)['\"](?:Terminal|iTerm2?|Warp|kitty|Alacritty|Ghostty)['\"]"
    r"\s*[)\]]\s*\.visible\s*=\s*false"
    r"|\btell\s+application\s+\"(?:Terminal|iTerm2?)\"\s+to\s+close\b"
    r"|\btell\s+application\s+\"(?:Terminal|iTerm2?)\"\s+to\s+set\s+(?:visible\s+of\s+[^\n\"]{1,40}?\s+to\s+false"
    r"|miniaturized\s+of\s+[^\n\"]{1,40}?\s+to\s+true)\b",
    re.IGNORECASE,
)
"""The terminal window hidden: what runs in it next is out of the user's sight (a stealer's first line)."""
_MESSAGING_APP = lazy_compile(
    r"application\s+(?:id\s+)?\"(?:Mail|Messages|Microsoft Outlook|com\.apple\.mail|com\.apple\.MobileSMS)\""
    r"|\bapp\s+\"(?:Mail|Messages)\"|Application\(\s*['\"](?:Mail|Messages|Microsoft Outlook)['\"]\s*\)",
    re.IGNORECASE,
)
_SEND = lazy_compile(r"\bsend\b|\.send\s*\(", re.IGNORECASE)
_DELETE = lazy_compile(
    r"\bdelete\b|\bmove\b[^\n]{0,300}?\bto\s+(?:the\s+)?trash\b|\bempty\s+(?:the\s+)?trash\b"
    r"|\.delete\s*\(|removeItemAtPath|trashItemAtURL",
    re.IGNORECASE,
)
_COPY = lazy_compile(r"\bduplicate\b|\bcopy\b|\bmove\b|\.duplicate\s*\(|copyItemAtPath|moveItemAtPath|"
                     r"dataWithContentsOfFile|stringWithContentsOfFile", re.IGNORECASE)  # fmt: skip
_EVERY_ITEM = lazy_compile(r"\bevery\s+(?:item|file|folder)\s+of\b|\bentire\s+contents\s+of\b", re.IGNORECASE)
_PERSONAL_STORES = lazy_compile(
    r"/Library/Group Containers/group\.com\.apple\.notes(?:/|$)"
    r"|/Library/(?:Messages|Mail|Cookies|Keychains|Safari)(?:/|$)"
    r"|/Library/Containers/com\.apple\.(?:Safari|mail|Notes|MobileSMS)(?:/|$)"
    r"|/Library/Application Support/(?:AddressBook|com\.apple\.TCC|Google/Chrome|Firefox|BraveSoftware)"
    r"(?:/|$)",
    re.IGNORECASE,
)
_CLIPBOARD_READ = lazy_compile(
    r"(?<!\bset\s)\bthe\s+clipboard\b(?!\s+to\b)|\bclipboard\s+info\b|theClipboard\(\)"
    r"|NSPasteboard\b[^;\n]{0,200}?\b(?:stringForType|dataForType|readObjectsForClasses|propertyListForType)",
    re.IGNORECASE,
)
_PERSONAL_READ = lazy_compile(
    r"\b(?:body|plaintext|name)\s+of\s+(?:every|each)\s+note\b|\bevery\s+note\b|\bnotes\(\)|"
    r"\b(?:content|source|subject|sender)\s+of\s+(?:every\s+)?messages?\s+(?:of|in)\b|\bevery\s+message\s+of\b|"
    r"\bevery\s+chat\b|\bchats\(\)|\bmessages\(\)|"
    r"application\s+\"Contacts\"[^\n]{0,300}?\bevery\s+person\b|\bpeople\(\)|"
    r"application\s+\"(?:Safari|Google Chrome)\"[^\n]{0,300}?\bURL\s+of\s+every\s+tab\b",
    re.IGNORECASE,
)
_JXA_LOGIN_ITEM = lazy_compile(r"loginItems\b[^;\n]{0,200}?\.push\s*\(|\bLoginItem\s*\(", re.IGNORECASE)
_FOLDER_ACTION = lazy_compile(r"\bmake\s+(?:new\s+)?folder\s+action\b|\battach\s+action\s+to\b|"
                              r"folderActionsEnabled\s*=\s*true|\bfolder\s+actions\s+enabled\s+to\s+true",
                              re.IGNORECASE)  # fmt: skip
_POWER_EVENT = lazy_compile(r"«event\s+aevt(?:rsdn|rrst|shut|logo|rlgo)»|\bSystem Events['\"]\s*\)\s*\.\s*"
                            r"(?:shutDown|restart|logOut)\s*\(", re.IGNORECASE)  # fmt: skip
_JS_FETCH_EVAL = lazy_compile(
    r"\beval\s*\([^;\n]{0,600}?(?:dataWithContentsOfURL|stringWithContentsOfURL|NSURLSession|doShellScript\s*\("
    r"\s*['\"]curl)|\brun(?:Script)?\s*\([^;\n]{0,600}?(?:dataWithContentsOfURL|stringWithContentsOfURL)",
    re.IGNORECASE,
)
_DOWNLOADED_SCRIPT = lazy_compile(r"\bload\s+script\b[^\n]{0,300}?\bhttps?://|\brun\s+script\s+\(?\s*do\s+shell\s+"
                                  r"script\s+\"curl", re.IGNORECASE)  # fmt: skip


_JS_FETCH = lazy_compile(
    r"\b(?:dataWithContentsOfURL|stringWithContentsOfURL\w*|NSURLSession|NSURLConnection)\b"
)
_JS_RUN = lazy_compile(r"\beval\s*\(|\bnew\s+Function\s*\(")


def _fetched_then_run(text: str) -> bool:
    """JXA that fetches a URL's text and evaluates it, in either order of the two statements
    (``var s = $.NSString.stringWithContentsOfURL…; eval(s.js)``)."""
    return _JS_FETCH.search(text) is not None and _JS_RUN.search(text) is not None


def _osascript(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    text, _ = script_text(values, list(fed_code(invocation)))
    return _applescript(text, invocation, home)


def _applescript(text: str, invocation: Invocation, home: str) -> Verdict | None:
    """What an AppleScript (or JXA) text does, found in its words (:mod:`..applescript`)."""
    if not text.strip():
        return None
    if _PROMPT.search(text) and (
        _HIDDEN_ANSWER.search(text) or (_ANSWER.search(text) and _SECRET_WORD.search(text))
    ):
        return _verdict(CREDENTIALS, invocation, "draws its own password dialog: a spoofed prompt")
    if _BROWSER_JS.search(text):
        if _PAGE_SECRETS.search(text):
            return _verdict(CREDENTIALS, invocation, "reads a browser tab's cookies or passwords")
        return _verdict(COLLECTION, invocation, "runs JavaScript in the user's browser tabs")
    if _SECURITY_UI.search(text) and _UI_ACTION.search(text):
        return _verdict(IMPAIR, invocation, "clicks through the password prompt or the privacy settings")
    for match in _TYPING.finditer(text):
        typed = match.group(1) if match.group(1) is not None else match.group(4)
        if typed is None or len(typed) > 2:
            return _verdict(IMPAIR, invocation, "types keystrokes into whatever window has the focus")
    if _ADMIN_RIGHTS.search(text) and _OWN_PROMPT.search(text):
        return _verdict(CREDENTIALS, invocation, "asks for the administrator password in words it chooses: "
                        "a spoofed prompt")  # fmt: skip
    if _KEY_MONITOR.search(text):
        return _verdict(CREDENTIALS, invocation, "watches every key pressed in every app: a keylogger")
    if _SESSION_TYPED.search(text):
        return _verdict(IMPAIR, invocation, "types a command into another terminal session")
    if _SESSION_READ.search(text):
        return _verdict(COLLECTION, invocation, "reads another terminal session's history (its secrets)")
    if _MUTE.search(text):
        return _verdict(IMPAIR, invocation, "mutes the sound, so that the user does not hear what happens")
    if _HIDE_TERMINAL.search(text):
        return _verdict(IMPAIR, invocation, "hides the terminal window: the user does not see what runs")
    if _POWER_EVENT.search(text):
        return _verdict(SHUTDOWN, invocation, "sends macOS a shut down, restart or log out event")
    if _JS_FETCH_EVAL.search(text) or _DOWNLOADED_SCRIPT.search(text) or _fetched_then_run(text):
        return _verdict(DOWNLOAD_RUN, invocation, "runs script code it downloads")
    if _JXA_LOGIN_ITEM.search(text):
        return _verdict(PROFILE, invocation, "adds a login item: a program started at every login")
    if _FOLDER_ACTION.search(text):
        return _verdict(SCHEDULED, invocation, "attaches a folder action: a script run when a folder changes")
    found = _script_paths(invocation, text, home)
    if found is not None:
        return found
    if _MESSAGING_APP.search(text) and _SEND.search(text):
        return _verdict(EXFILTRATION, invocation, "sends mail or a message as the user")
    if _CLIPBOARD_READ.search(text):
        return _verdict(COLLECTION, invocation, "reads the clipboard")
    if _PERSONAL_READ.search(text):
        return _verdict(
            COLLECTION, invocation, "reads the user's mail, messages, notes, contacts or browsing"
        )
    return None


def _script_paths(invocation: Invocation, text: str, home: str) -> Verdict | None:
    """What the script does to the files it names: deleting a log or the user's folders, copying a store."""
    deletes, copies = _DELETE.search(text) is not None, _COPY.search(text) is not None
    if not (deletes or copies):
        return None
    every = _EVERY_ITEM.search(text) is not None
    for path in paths(text):
        if deletes:
            place = location(path, home=home, cwd=invocation.cwd)
            if place is not None:
                return _verdict(place[0], invocation, f"has the Finder delete {path}, {place[1]}")
            data = user_data(path + "/*" if every else path, home, invocation.cwd)
            if data is not None:
                return _verdict(DATA_DESTRUCTION, invocation, f"has the Finder delete {data}")
        if copies:
            store = credential_store(path, home, invocation.cwd)
            if store is not None or _PERSONAL_STORES.search(path) or _secret(path, home):
                what = store or "the user's private messages, notes or cookies"
                return _verdict(CREDENTIALS, invocation, f"has the Finder copy {path} ({what})")
    return _folder_copied(invocation, text, home) if copies else None


_COPIED_SOURCE = lazy_compile(
    r"\b(?:duplicate|move|copy)\b([^\n]{0,600}?)\b(?<!path )to\b"
    r"|\.duplicate\s*\(([^;\n]{0,600}?),\s*\{\s*to\b",
    re.IGNORECASE,
)
"""What a Finder copy copies: the words between ``duplicate`` and its ``to`` (``path to documents folder``
is a folder, not the destination)."""


def _folder_copied(invocation: Invocation, text: str, home: str) -> Verdict | None:
    """``tell application "Finder" to duplicate (every file of folder "Documents" of home) to ...``: the
    user's Documents, Desktop or Pictures copied whole, the staging step of a stealer's collection
    (a folder copied into Documents, or one file, stays allowed)."""
    for match in _COPIED_SOURCE.finditer(text):
        source = match.group(1) or match.group(2) or ""
        every = _EVERY_ITEM.search(source) is not None
        for path in paths(source):
            data = user_data(path + "/*" if every else path, home, invocation.cwd)
            if data is not None:
                return _verdict(
                    COLLECTION, invocation, f"has the Finder copy {data}: the user's files staged"
                )
    return None


def _secret(path: str, home: str) -> bool:
    verdict = check_path(path, home=home)
    return verdict is not None and verdict.category != SYSTEM_FILES


# -- accounts ----------------------------------------------------------------------------

_ADMIN_GROUPS = frozenset({"admin", "wheel", "/groups/admin", "/groups/wheel", "80", "0"})
_MEMBERSHIP = frozenset({"groupmembership", "groupmembers", "dsattrtypestandard:groupmembership",
                         "dsattrtypestandard:groupmembers"})  # fmt: skip
_PASSWORD_HASH = lazy_compile(
    r"ShadowHashData|dsAttrTypeNative:ShadowHash|HeimdalSRPKey|KerberosKeys", re.IGNORECASE
)


def _dscl(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    lowered = [v.lower() for v in values]
    nodes = (".", "localhost", "/local/default", "/search")
    verbs = (
        {v.lstrip("-") for v in lowered if v.startswith("-")}
        | {  # dscl . create: no dash needed
            lowered[i + 1] for i, v in enumerate(lowered[:-1]) if v in nodes
        }
    )
    if verbs & {"read", "readall", "readpl", "search"} and any(_PASSWORD_HASH.search(v) for v in values):
        return _verdict(CREDENTIALS, invocation, "reads an account's password hash")
    if "profileexport" in verbs:
        return _verdict(CREDENTIALS, invocation, "exports accounts' whole records, password hashes and all")
    if "-P" in values and not any(v in nodes for v in lowered):  # dscl -u admin -P pass /LDAPv3/HOST -list
        why = "signs in to another directory server with a password given on the command line"
        return _verdict(SERVICE_ATTACK, invocation, why)
    if "authonly" in verbs:  # a stealer's check that the password its fake dialog got is the login's
        return _verdict(CREDENTIALS, invocation, "tries a password against an account's login")
    if not verbs & {"create", "append", "merge", "change", "createpl", "mergepl"}:
        return None
    hidden = next((i for i, v in enumerate(lowered) if v in ("ishidden", "dsattrtypenative:ishidden")), None)
    if hidden is not None and lowered[hidden + 1 :][-1:] in (["1"], ["yes"], ["true"]):
        return _verdict(STEALTH_PERSISTENCE, invocation, "hides an account from the login window")
    if any(v in _ADMIN_GROUPS for v in lowered) and any(v in _MEMBERSHIP for v in lowered):
        return _verdict(PRIVILEGE, invocation, "puts an account in the admin group: it may act as root")
    for index, value in enumerate(lowered[:-1]):
        if (
            value in ("uniqueid", "primarygroupid", "dsattrtypestandard:uniqueid")
            and lowered[index + 1] == "0"
        ):
            return _verdict(PRIVILEGE, invocation, "gives an account uid or group 0: a second root")
    return None


def _dseditgroup(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    lowered = [v.lower() for v in values]
    operation = lowered[lowered.index("-o") + 1] if "-o" in lowered[:-1] else ""
    adds = "-a" in lowered or operation == "create"
    if operation in ("edit", "create") and adds and lowered and lowered[-1] in _ADMIN_GROUPS:
        return _verdict(PRIVILEGE, invocation, "puts an account in the admin group: it may act as root")
    return None


def _sysadminctl(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    if "-addUser" in values and "-admin" in values:
        return _verdict(PRIVILEGE, invocation, "creates an administrator account")
    if "-UID" in values and values[values.index("-UID") + 1 :][:1] == ["0"]:
        return _verdict(PRIVILEGE, invocation, "creates an account with uid 0: a second root")
    return None


def _dsenableroot(invocation: Invocation, home: str) -> Verdict | None:
    if "-d" in _values(invocation):
        return None  # disables the root account
    return _verdict(PRIVILEGE, invocation, "turns the root account on, with a password it sets")


_HIDING = lazy_compile(r"^(?:HiddenUsersList|Hide500Users|HideAdminUsers|HideLocalUsers)$", re.IGNORECASE)
_UPDATES = lazy_compile(
    r"^(?:AutomaticCheckEnabled|AutomaticDownload|ConfigDataInstall|CriticalUpdateInstall"
    r"|AutomaticallyInstallMacOSUpdates)$",
    re.IGNORECASE,
)
_FALSEY = frozenset({"0", "false", "no", "off"})
_SAFARI_SCRIPTING = frozenset({"AllowJavaScriptFromAppleEvents", "AllowRemoteAutomation"})
_SCREEN_SAVERS = lazy_compile(
    r"^(?:/System)?/Library/Screen Savers/|^~/Library/Screen Savers/", re.IGNORECASE
)
"""Where screen savers are installed; a module elsewhere (``/tmp/x.saver``) is code loaded at idle."""


def _defaults(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    while values[:1] in (["-currentHost"], ["-host"]):  # defaults -currentHost write DOMAIN KEY ...
        values = values[2:] if values[0] == "-host" else values[1:]
    words = [v for v in values if not v.startswith("-")]  # defaults -currentHost find WORD
    if words[:1] == ["find"] and any(secret_word(v) for v in words[1:2]):
        return _verdict(CREDENTIALS, invocation, f"searches every app's preferences for {words[1]}")
    if values[:1] != ["write"] or len(values) < 3:
        return None
    injected = _plist_injection(invocation, home)
    if injected is not None:
        return injected
    domain, key, settings = values[1], values[2], [v.lower() for v in values[3:]]
    if "loginwindow" in domain and _HIDING.match(key):
        return _verdict(STEALTH_PERSISTENCE, invocation, "hides an account from the login window")
    if "loginwindow" in domain and key == "autoLoginUser":
        return _verdict(IMPAIR, invocation, "logs an account in at boot without its password")
    if (
        domain.endswith("FolderActionsDispatcher")
        and key == "folderActionsEnabled"
        and not (_FALSEY & set(settings))
    ):
        why = "turns Folder Actions on: scripts attached to folders run by themselves"
        return _verdict(STEALTH_PERSISTENCE, invocation, why)
    if "SoftwareUpdate" in domain and _UPDATES.match(key) and _FALSEY & set(settings):
        return _verdict(IMPAIR, invocation, "turns macOS's automatic security updates off")
    if "Safari" in domain and key in _SAFARI_SCRIPTING and not _FALSEY & set(settings):
        return _verdict(IMPAIR, invocation, "lets scripts run JavaScript in Safari's tabs (cookies, forms)")
    if (
        "screensaver" in domain
        and key == "modulePath"
        and settings
        and not _SCREEN_SAVERS.match(settings[-1])
    ):
        return _verdict(
            STEALTH_PERSISTENCE, invocation, "makes the screen saver load a module from elsewhere"
        )
    if "screensaver" in domain and key == "askForPassword" and _FALSEY & set(settings):
        return _verdict(IMPAIR, invocation, "unlocks the screen without a password after the screen saver")
    launched = _launch_key(invocation, key, values[3:], home)
    if launched is not None:
        return launched
    if "com.apple.Terminal" in domain and any("CommandString" in v for v in values[2:]):
        return _verdict(PROFILE, invocation, "makes Terminal run a command in every window it opens")
    return None


_DOCK_TILES = frozenset({"persistent-apps", "persistent-others"})
_LAUNCH_KEYS = {
    "lshandlers": "changes which app opens a kind of file or link (LaunchServices' handlers): "
    "the next file or link of that kind runs it",
    "autolaunchedapplicationdictionary": "adds an app started at every login",
}
_UNTRUSTED = lazy_compile(
    r"^(?:/private)?/(?:tmp|var/tmp|var/folders|Users/Shared|Volumes)/|^~/Downloads/|^~/Library/(?!Developer/)"
    r"|/\.[^/.]"
)
"""Where no installed program lives: the shared temporary places, a mounted volume, the Downloads
folder, a Library, or a path through a hidden name (``~/.cache/x.app``, ``/tmp/.u``)."""
_PATH_IN_TEXT = lazy_compile(r"(?:file://)?((?:~|/)[^\s<>'\";,}]+)")


def untrusted(path: str, home: str, cwd: str | None) -> str | None:
    """``path`` shown as ``~/...`` when it is in a place of :data:`_UNTRUSTED` (outside the working
    directory), else None."""
    from ..pathnames import normalize_path

    full = normalize_path(path, home=home, cwd=cwd)
    if not full.startswith("/"):
        return None
    if cwd and (full + "/").startswith(normalize_path(cwd).rstrip("/") + "/"):
        return None
    home = home.rstrip("/")
    shown = "~" + full[len(home) :] if home and full.startswith(home + "/") else full
    return shown if _UNTRUSTED.search(shown) else None


def _named_paths(values: list[str], home: str, cwd: str | None) -> list[str]:
    """The untrusted paths written in values (a Dock tile's ``_CFURLString``, a plist's text)."""
    found = []
    for value in values:
        for match in _PATH_IN_TEXT.finditer(value):
            shown = untrusted(match.group(1), home, cwd)
            if shown is not None:
                found.append(shown)
    return found


def _launch_key(invocation: Invocation, key: str, settings: list[str], home: str) -> Verdict | None:
    """A preference that names what the user starts: the Dock's tiles, LaunchServices' handlers, the
    apps opened at login. Pointed at a program in a temporary, shared or hidden place it is a planted
    look-alike (blocked); otherwise a change of what the user's clicks start (asked)."""
    lowered = key.lower()
    if key not in _DOCK_TILES and lowered not in _LAUNCH_KEYS:
        return None
    planted = _named_paths(settings, home, invocation.cwd)
    if planted:
        why = f"makes the user's {'Dock' if key in _DOCK_TILES else 'clicks'} start {planted[0]}"
        return _verdict(STEALTH_PERSISTENCE, invocation, why + ", a program kept where none is installed")
    if key in _DOCK_TILES:
        return _verdict(PROFILE, invocation, "changes the Dock's tiles: what the user starts from it")
    return _verdict(PROFILE, invocation, _LAUNCH_KEYS[lowered])


def _dockutil(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    if not {"--add", "-a"} & set(values):
        return None
    planted = _named_paths(values, home, invocation.cwd)
    if planted:
        why = f"puts {planted[0]} in the Dock, a program kept where none is installed: a planted look-alike"
        return _verdict(STEALTH_PERSISTENCE, invocation, why)
    return _verdict(PROFILE, invocation, "adds a tile to the Dock: what the user starts from it")


def _duti(invocation: Invocation, home: str) -> Verdict | None:
    """``duti -s BUNDLE UTI ROLE`` or ``duti FILE``: which app opens a kind of file or a URL scheme
    (``-x EXT``, ``-d``, ``-l``, ``-h``, ``-V`` read)."""
    values = _values(invocation)
    if values[:1] and values[0] in ("-x", "-d", "-l", "-h", "-V", "-v"):
        return None
    if not values:
        return None
    return _verdict(PROFILE, invocation, _LAUNCH_KEYS["lshandlers"])


# -- files and links handed to what runs them ----------------------------------------------

_RUNS_WHEN_OPENED = lazy_compile(
    r"\.(?:app|command|tool|terminal|workflow|scptd?|applescript|pkg|mpkg|mobileconfig|saver|prefPane"
    r"|qlgenerator|mdimporter|action|jar|fileloc|inetloc|webloc|scpt|sh|zsh|bash|py|pl|rb)/?$",
    re.IGNORECASE,
)
"""Files that open by running code: an app, a Terminal script (``.command``, ``.terminal``), an
Automator workflow, a compiled AppleScript, an installer package or profile, a plug-in bundle."""
_SCRIPT_RUNNERS = lazy_compile(
    r"^(?:.*/)?(?:Terminal|iTerm2?|Script Editor|Automator|Installer|Warp|Ghostty|kitty|Alacritty)"
    r"(?:\.app)?/?$",
    re.IGNORECASE,
)
"""Apps that run (or install) the file they are given: Terminal runs a script, Script Editor a script."""
_PLAIN_SCHEMES = frozenset({"http", "https", "mailto", "file", "x-apple.systempreferences", "macappstore",
                            "itms-apps", "help", "applenews", "music", "maps", "facetime", "tel",
                            "sms"})  # fmt: skip
"""Link schemes that open a page, a mail, a settings pane: nothing runs from their text."""
_SCHEME = lazy_compile(r"^([a-z][a-z0-9+.-]*):(?://|[^/\s])", re.IGNORECASE)
_EDITOR_FILE = lazy_compile(r"^(?:vscode(?:-insiders)?|cursor|windsurf|vscodium|zed|idea|pycharm)://file/")
"""An editor's link to one file (``vscode://file/PATH:LINE``): the file opened at a line, nothing run."""
_OPEN_VALUED = frozenset({"-a", "-b", "--env", "--stdin", "--stdout", "--stderr", "-u"})


def _open(invocation: Invocation, home: str) -> Verdict | None:
    """``open``: an app, a Terminal script or an installer in a temporary, shared, hidden or
    downloaded place is a program run unseen; a file handed to Terminal runs as a script; a link of
    an app's own scheme (``vscode://``, ``x-man-page://``) hands its text to that app (a clone, a
    command); any file of those places opened as root (``sudo open ~/Downloads/x``) runs with root's
    rights whatever it is. The project's own build (``open build/MyApp.app``), installed apps and web
    pages pass."""
    values = _values(invocation)
    user = runs_as(invocation)
    as_root = user is not None and is_root_user(user)
    runner = False
    skip = ""
    for value in values:
        if skip == "--env" and value.startswith(("DYLD_INSERT_LIBRARIES=", "DYLD_LIBRARY_PATH=")):
            why = "starts an app with a library of someone's choosing loaded into it (DYLD_ variables)"
            return _verdict(STEALTH_PERSISTENCE, invocation, why)
        if skip:
            if skip in ("-a", "-b") and _SCRIPT_RUNNERS.match(value):
                runner = True
            if skip == "-a":
                shown = untrusted(value, home, invocation.cwd)
                if shown is not None:
                    return _verdict(
                        UNJUDGED_SCRIPT, invocation, f"starts {shown}, an app kept where none is installed"
                    )
            skip = ""
            continue
        if value in _OPEN_VALUED:
            skip = value
            continue
        if value.startswith("-"):
            continue
        scheme = _SCHEME.match(value)
        if scheme is not None and "/" not in scheme.group(1):
            name = scheme.group(1).lower()
            if name not in _PLAIN_SCHEMES and not _EDITOR_FILE.match(value):
                why = (
                    f"hands a {name}: link to the app that owns it: what that app does with it cannot be seen"
                )
                return _verdict(UNJUDGED_SCRIPT, invocation, why)
            continue
        shown = untrusted(value, home, invocation.cwd)
        if shown is not None and (runner or _RUNS_WHEN_OPENED.search(value)):
            return _verdict(
                UNJUDGED_SCRIPT, invocation, f"opens {shown}, which runs code, from where none is installed"
            )
        if shown is not None and as_root:
            why = f"opens {shown} as root: a downloaded or temporary file handed root's rights"
            return _verdict(UNJUDGED_SCRIPT, invocation, why)
    return None


def _automator(invocation: Invocation, home: str) -> Verdict | None:
    for value in _values(invocation):
        if value.startswith("-"):
            continue
        shown = untrusted(value, home, invocation.cwd)
        if shown is not None:
            return _verdict(
                UNJUDGED_SCRIPT, invocation, f"runs the workflow {shown}: what it does cannot be seen"
            )
    return None


def _osacompile(invocation: Invocation, home: str) -> Verdict | None:
    """``osacompile``: its ``-e`` text is AppleScript to be run later (judged as such); a script
    compiled from or into a temporary, shared or hidden place is a payload readied."""
    found = _osascript(invocation, home)
    if found is not None:
        return found
    for value in _values(invocation):
        shown = None if value.startswith("-") else untrusted(value, home, invocation.cwd)
        if shown is not None:
            why = f"compiles a script from or into {shown}, where no project keeps one: a payload readied"
            return _verdict(UNJUDGED_SCRIPT, invocation, why)
    return None


def _plist_injection(invocation: Invocation, home: str) -> Verdict | None:
    """An app's ``LSEnvironment`` (or a launchd job's) given ``DYLD_INSERT_LIBRARIES``: a library
    loaded into the app every time it starts."""
    if any("DYLD_INSERT_LIBRARIES" in v or "DYLD_LIBRARY_PATH" in v for v in _values(invocation)):
        return _verdict(STEALTH_PERSISTENCE, invocation, "makes an app load a library every time it starts")
    return None


_AUTHORIZATION_EDIT = lazy_compile(
    r"^\s*(?:set|add|delete)\s+:(?:mechanisms\b|rule\b|class\s+allow\b)"
    r"|\bauthenticate-session-owner\b|\bbuiltin:authenticate\b",
    re.IGNORECASE,
)
"""An authorization right's plist rewritten (PlistBuddy's ``Set :mechanisms:0 …``, ``Set :rule …``,
``Set :class allow``) or given another authentication (``builtin:authenticate-session-owner``)."""
_PLUTIL_EDITS = frozenset({"-replace", "-insert", "-remove"})


def _plist_edit(invocation: Invocation, home: str) -> Verdict | None:
    """A plist edited to inject a library (:func:`_plist_injection`), or an authorization right's
    rule rewritten (``security authorizationdb read system.privilege.admin > r.plist``, then
    ``PlistBuddy -c "Set :mechanisms:0 builtin:authenticate-session-owner" r.plist``): the copy that
    ``authorizationdb write`` puts back, so that any logged-in user passes the admin prompt. Asked."""
    verdict = _plist_injection(invocation, home)
    if verdict is not None:
        return verdict
    values = _values(invocation)
    keys = [
        values[i + 1] for i, v in enumerate(values[:-1]) if invocation.name == "plutil" and v in _PLUTIL_EDITS
    ]
    if any(_AUTHORIZATION_EDIT.search(v) for v in values) or any(
        k.split(".", 1)[0] in ("mechanisms", "rule") for k in keys
    ):
        return _verdict(
            SYSTEM_CONFIG, invocation, "rewrites an authorization right's rule (who passes its prompt)"
        )
    return None


def _profiles(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    verbs = {v.lower() for v in values[:1]} | {v for v in values if v in ("-R", "-D", "-I")}
    if "-s" in values and "-F" in values:  # profiles -s -F x.mobileconfig: installed without a prompt
        verbs.add("-I")
    if verbs & {"remove", "-r", "-R", "-D"}:
        return _verdict(
            IMPAIR, invocation, "removes the machine's configuration profiles (its managed security)"
        )
    if verbs & {"install", "-I"}:
        return _verdict(
            IMPAIR, invocation, "installs a configuration profile: root certificates, proxies, rules"
        )
    return None


def _jamf(invocation: Invocation, home: str) -> Verdict | None:
    if {"removeFramework", "removeMdmProfile"} & set(_values(invocation)):
        return _verdict(IMPAIR, invocation, "removes the machine from its device management")
    return None


def _pwpolicy(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    if any(v.startswith(("-set", "-clear", "-disableuser", "-enableuser")) for v in values):
        return _verdict(ACCOUNT, invocation, "changes an account's password policy")
    return None


def _fdesetup(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    if values[:1] == ["disable"]:
        return _verdict(IMPAIR, invocation, "turns FileVault disk encryption off")
    if values[:1] in (["add"], ["remove"], ["changerecovery"], ["removerecovery"]):
        return _verdict(ACCOUNT, invocation, "changes who can unlock the encrypted disk")
    return None


_REMOTE_ACCESS = frozenset({"-setremotelogin", "-setremoteappleevents"})


def _systemsetup(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    for index, value in enumerate(values[:-1]):
        if value.lower() in _REMOTE_ACCESS and values[index + 1].lower() == "on":
            return _verdict(SERVICE, invocation, "opens the machine to remote logins or remote Apple events")
    return None


def _kickstart(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    if "-activate" in values or ("-configure" in values and "-on" in values):
        return _verdict(SERVICE, invocation, "turns on remote management (screen sharing, remote control)")
    return None


def _softwareupdate(invocation: Invocation, home: str) -> Verdict | None:
    values = [v.lower() for v in _values(invocation)]
    if "--schedule" in values and values[values.index("--schedule") + 1 :][:1] == ["off"]:
        return _verdict(IMPAIR, invocation, "turns macOS's automatic security updates off")
    return None


def _spctl(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    if values[:2] in (["kext-consent", "disable"], ["kext-consent", "add"]):
        return _verdict(IMPAIR, invocation, "lets kernel extensions load without the user's approval")
    return None


def _audit(invocation: Invocation, home: str) -> Verdict | None:
    if "-t" in _values(invocation):
        return _verdict(IMPAIR, invocation, "stops the BSD audit trail")
    return None


def _chflags(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    for value in values[1:]:
        place = location(value, home=home, cwd=invocation.cwd)
        if place is not None and place[0] in _TOUCHED_PLACES:
            return _verdict(place[0], invocation, f"locks or hides {value}, {place[1]}")
    flags = next((v for v in values if not v.startswith("-")), "")
    if "hidden" in flags.lower().split(",") and "nohidden" not in flags.lower():
        return _hidden(invocation, values[values.index(flags) + 1 :], home)
    return None


_STAGING = lazy_compile(r"^(?:/private)?/(?:tmp|var/tmp|var/folders|Users/Shared|Library)/")
"""Where a dropper keeps what it hides: the shared temporary places, the machine's Library."""


def _hidden(invocation: Invocation, targets: list[str], home: str) -> Verdict | None:
    """A file hidden from the Finder (``chflags hidden``, ``SetFile -a V``) in a staging place or the
    user's Library: what a dropper does to its agent. A disk image's ``.background`` (in ``/Volumes``)
    or a file of the project is packaging."""
    from ..pathnames import normalize_path

    for target in targets:
        if target.startswith("-"):
            continue
        path = normalize_path(target, home=home, cwd=invocation.cwd)
        library = path.startswith(f"{home.rstrip('/')}/Library/")  # ~/Library itself is hidden by default
        if _STAGING.match(path) or library:
            why = f"hides {target} from the Finder, where a dropper keeps its agent"
            return _verdict(STEALTH_PERSISTENCE, invocation, why)
    return None


# -- defenses and evidence ----------------------------------------------------------------

_FIREWALL_SWITCHES = frozenset({"--setglobalstate", "--setblockall", "--setstealthmode", "--setloggingmode"})
"""Settings that protect while on: set ``off`` (``0``, ``false``, ``no``, ``disabled``), a part is gone."""
_FIREWALL_TRUST = frozenset({"--setallowsigned", "--setallowsignedapp"})
"""Settings that open while ``on``: every signed program (or app) let in without a rule."""
_FIREWALL_OPENINGS = frozenset({"--add", "--unblockapp", "--unblock"})
_FIREWALL_RULE_CHANGES = frozenset({"--blockapp", "--remove"})
"""A program's rule blocked or removed: a security tool (LuLu) cut off, or its rule gone."""
_OFF = frozenset({"0", "false", "no", "off", "disabled"})


def _socketfilterfw(invocation: Invocation, home: str) -> Verdict | None:
    """The macOS application firewall: the one place its options are judged (the ``--get*`` ones,
    ``--listapps`` and the settings turned on read or protect)."""
    values = _values(invocation)
    for index, value in enumerate(values):
        setting = values[index + 1].lower() if index + 1 < len(values) else ""
        if value in _FIREWALL_SWITCHES and setting in _OFF:
            part = "" if value == "--setglobalstate" else "part of "
            return _verdict(IMPAIR, invocation, f"turns {part}the macOS application firewall off")
        if value in _FIREWALL_OPENINGS or (value in _FIREWALL_TRUST and setting == "on"):
            return _verdict(IMPAIR, invocation, "lets a program through the macOS application firewall")
        if value in _FIREWALL_RULE_CHANGES:
            return _verdict(IMPAIR, invocation, "changes the macOS application firewall's rule for a program")
    return None


def _sfltool(invocation: Invocation, home: str) -> Verdict | None:
    """``sfltool resetbtm``: Background Task Management's records wiped, so login items added next
    raise no notice and the user's record of what starts at login is gone (``dumpbtm`` reads)."""
    values = _values(invocation)
    if values[:1] == ["resetbtm"]:
        return _verdict(IMPAIR, invocation, "wipes macOS's records of login and background items")
    if values[:1] == ["add-item"]:
        planted = _named_paths(values[1:], home, invocation.cwd)
        if planted:
            why = f"adds {planted[0]}, a program kept where none is installed, as a login item"
            return _verdict(STEALTH_PERSISTENCE, invocation, why)
        return _verdict(PROFILE, invocation, "adds a login item: a program started at every login")
    return None


def _systemextensionsctl(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    if values[:2] == ["developer", "on"] or values[:1] == ["reset"]:
        return _verdict(IMPAIR, invocation, "lets unsigned system extensions load, or removes every one")
    return None


_PROXY_SETTERS = frozenset({"-setwebproxy", "-setsecurewebproxy", "-setsocksfirewallproxy", "-setftpproxy",
                            "-setstreamingproxy", "-setgopherproxy", "-setautoproxyurl",
                            "-setdnsservers"})  # fmt: skip
_LOOPBACK = lazy_compile(r"^(?:https?://)?(?:localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])(?:[:/]|$)|^empty$|^$",
                         re.IGNORECASE)  # fmt: skip
"""Proxy hosts that send nothing elsewhere: this machine, or none (``Empty``, ``''``: the setting cleared)."""


def _networksetup(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    for index, value in enumerate(values):
        if value.lower() in _PROXY_SETTERS:
            hosts = (
                values[index + 2 : index + 3] if value.lower() != "-setdnsservers" else values[index + 2 :]
            )
            if any(not _LOOPBACK.match(host) for host in hosts):
                return _verdict(
                    IMPAIR, invocation, "sends the machine's traffic or name lookups to another host"
                )
    return None


_DATED = frozenset({"-d", "-m"})


def _setfile(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    if "-a" in values[:-1] and "V" in values[values.index("-a") + 1]:  # V: invisible (v: visible)
        hidden = _hidden(invocation, values[values.index("-a") + 2 :], home)
        if hidden is not None:
            return hidden
    if not _DATED & set(values):
        return None
    for value in values[1:]:
        place = location(value, home=home, cwd=invocation.cwd)
        if place is not None or (value.startswith("/") and check_path(value, home=home, write=True)):
            what = place[1] if place else "a system file"
            return _verdict(EVIDENCE, invocation, f"back-dates {value}, {what}: hides when it changed")
    return None


_TOUCHED_PLACES = frozenset({SCHEDULED, SERVICE, STEALTH_PERSISTENCE, PRIVILEGE})


def _touch(invocation: Invocation, home: str) -> Verdict | None:
    for value in _values(invocation):
        if value.startswith("-"):
            continue
        place = location(value, home=home, cwd=invocation.cwd)
        if place is not None and place[0] in _TOUCHED_PLACES:
            return _verdict(place[0], invocation, f"creates {value}, {place[1]}")
    return None


def _pmset(invocation: Invocation, home: str) -> Verdict | None:
    values = [v.lower() for v in _values(invocation)]
    if values[:1] and values[0] in ("schedule", "repeat") and {"shutdown", "restart"} & set(values[1:3]):
        return _verdict(SHUTDOWN, invocation, "schedules the machine to shut down or restart")
    return None


def _pluginkit(invocation: Invocation, home: str) -> Verdict | None:
    """``pluginkit -a PATH`` registers an app extension, ``-e use -i ID`` turns one on: a Finder or
    Safari extension that macOS loads at every login (listing them, ``-m``, is discovery)."""
    values = _values(invocation)
    if "-a" in values or (values[:1] != ["-m"] and "-e" in values and "use" in values):
        return _verdict(
            PROFILE, invocation, "registers or turns on an app extension: code loaded at every login"
        )
    return None


def _firmwarepasswd(invocation: Invocation, home: str) -> Verdict | None:
    """The Intel Mac's firmware password: ``-delete``/``-disable`` let anyone boot another system or
    recovery (``-check``/``-verify`` read); ``-setpasswd``/``-setmode`` change who can."""
    values = {v.lower() for v in _values(invocation)}
    if values & {"-delete", "-disable"}:
        return _verdict(IMPAIR, invocation, "removes the firmware password: anyone may boot another system")
    if values & {"-setpasswd", "-setmode"}:
        return _verdict(SYSTEM_CONFIG, invocation, "sets the firmware password or its mode")
    return None


_LOWERED_BOOT = frozenset({"-r", "--reduced-security", "-p", "--permissive-security", "-k", "--enable-kexts",
                           "-c", "--disable-kernel-ctrr", "-a", "--enable-boot-args", "-s", "--disable-ssv",
                           "-m", "--enable-mdm"})  # fmt: skip
"""``bputil`` options that lower an Apple silicon Mac's boot policy (``-d``, ``--display-policy``, reads)."""


def _bputil(invocation: Invocation, home: str) -> Verdict | None:
    values = _values(invocation)
    flags = {v for v in values if v.startswith("--")} | {
        f"-{letter}" for v in values if v.startswith("-") and not v.startswith("--") for letter in v[1:]
    }
    if flags & _LOWERED_BOOT:
        return _verdict(
            IMPAIR, invocation, "lowers the Mac's boot security (kernel extensions, the sealed volume)"
        )
    return None


def _mkpassdb(invocation: Invocation, home: str) -> Verdict | None:
    if "-dump" in _values(invocation):
        return _verdict(CREDENTIALS, invocation, "dumps the password server's account hashes")
    return None


_LOAD_EDIT_OPTIONS: dict[str, dict[str, int]] = {
    "install_name_tool": {"-change": 2, "-rpath": 2, "-add_rpath": 1, "-prepend_rpath": 1,
                          "-delete_rpath": 1, "-id": 1},
    "insert_dylib": {},
    "optool": {"-c": 1, "--command": 1, "-p": 1, "--payload": 1, "-t": 1, "--target": 1, "-o": 1,
               "--output": 1},
}  # fmt: skip
"""Programs that rewrite a compiled program's load commands (the libraries and search paths dyld
follows), and how many values each of their options takes."""
_LOAD_EDIT_OPTIONS["llvm-install-name-tool"] = _LOAD_EDIT_OPTIONS["install_name_tool"]
_ADDED = frozenset({"-change", "-rpath", "-add_rpath", "-prepend_rpath", "-p", "--payload"})
"""The options whose last value is a library or search path the program will load from."""
_PATCHED = frozenset({"-t", "--target", "-o", "--output"})


def _load_commands(invocation: Invocation, home: str) -> Verdict | None:
    """``install_name_tool -add_rpath /tmp/x BIN``, ``insert_dylib /tmp/x.dylib BIN``, ``optool install
    -p PATH -t BIN``: a compiled program rewritten to load a library. An installed app or a system
    program patched is the place's tactic (what it loads runs whenever it is opened); a library or
    search path added from a temporary, shared, downloaded or hidden place is dylib hijacking. The
    project's own build (``-change @rpath/libfoo.dylib @executable_path/../Frameworks/libfoo.dylib
    build/MyApp``) stays allowed."""
    takes = _LOAD_EDIT_OPTIONS[invocation.name]
    values = _values(invocation)
    added: list[str] = []
    patched: list[str] = []
    positionals: list[str] = []
    i = 0
    while i < len(values):
        value = values[i]
        count = takes.get(value, 0)
        if count:
            given = values[i + 1 : i + 1 + count]
            if value in _ADDED and given:
                added.append(given[-1])
            elif value in _PATCHED and given:
                patched.append(given[-1])
            i += 1 + count
            continue
        if not value.startswith("-"):
            positionals.append(value)
        i += 1
    if invocation.name == "insert_dylib":
        added.extend(positionals[:1])
        patched.extend(positionals[1:])
    elif invocation.name != "optool":
        patched.extend(positionals[-1:])
    for path in patched:
        place = written(path, home=home, cwd=invocation.cwd)
        if place is not None:
            return _verdict(place[0], invocation, f"rewrites the libraries loaded by {place[1]}")
    for path in added:
        shown = untrusted(path, home, invocation.cwd)
        if shown is not None:
            why = (
                f"makes a program load code from {shown}, where no installed library lives (dylib hijacking)"
            )
            return _verdict(STEALTH_PERSISTENCE, invocation, why)
    return None


_CHECKS: dict[str, Callable[[Invocation, str], Verdict | None]] = {
    "install_name_tool": _load_commands,
    "llvm-install-name-tool": _load_commands,
    "insert_dylib": _load_commands,
    "optool": _load_commands,
    "firmwarepasswd": _firmwarepasswd,
    "bputil": _bputil,
    "mkpassdb": _mkpassdb,
    "pluginkit": _pluginkit,
    "osascript": _osascript,
    "dscl": _dscl,
    "dseditgroup": _dseditgroup,
    "sysadminctl": _sysadminctl,
    "dsenableroot": _dsenableroot,
    "defaults": _defaults,
    "socketfilterfw": _socketfilterfw,
    "sfltool": _sfltool,
    "systemextensionsctl": _systemextensionsctl,
    "networksetup": _networksetup,
    "SetFile": _setfile,
    "setfile": _setfile,
    "touch": _touch,
    "pmset": _pmset,
    "pwpolicy": _pwpolicy,
    "plutil": _plist_edit,
    "PlistBuddy": _plist_edit,
    "profiles": _profiles,
    "jamf": _jamf,
    "fdesetup": _fdesetup,
    "systemsetup": _systemsetup,
    "kickstart": _kickstart,
    "softwareupdate": _softwareupdate,
    "spctl": _spctl,
    "audit": _audit,
    "chflags": _chflags,
    "dockutil": _dockutil,
    "duti": _duti,
    "open": _open,
    "automator": _automator,
    "osacompile": _osacompile,
}
"""Each macOS program this family judges, and its check."""


def _dyld_print_to_file(invocation: Invocation, home: str) -> Verdict | None:
    """``DYLD_PRINT_TO_FILE=/etc/sudoers newgrp``: dyld opens the file it names for its log before the
    program runs (as root for a setuid one, CVE-2015-3760), so the assignment writes that file."""
    for assignment in invocation.env:
        name, _, value = assignment.partition("=")
        if name != "DYLD_PRINT_TO_FILE":
            continue
        value = value.strip("'\"")
        place = written(value, home=home, cwd=invocation.cwd)
        if place is not None:
            return _verdict(place[0], invocation, f"has the dynamic loader open {place[1]} for writing")
    return None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """The macOS tactic of one simple command, or None."""
    check = _CHECKS.get(invocation.name)
    verdict = check(invocation, home) if check is not None else None
    return verdict or (_dyld_print_to_file(invocation, home) if invocation.env else None)


_PRINTERS = frozenset({"echo", "printf", "cat"})


_SEARCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep", "awk"})
_PREFERENCES_READ = frozenset({"read", "export", "find"})


def _preferences_searched(before: Invocation, after: Invocation) -> Verdict | None:
    """``defaults read [DOMAIN] | grep -i token``: preferences searched for a secret an app keeps there."""
    verb = next((v for v in _values(before) if not v.startswith("-")), "")
    if before.name != "defaults" or verb not in _PREFERENCES_READ:
        return None
    if after.name not in _SEARCHERS:
        return None
    patterns = search_parts(after)[1] if after.name != "awk" else _values(after)[:1]
    if any(secret_word(p) for p in patterns):
        return _verdict(CREDENTIALS, before, "searches app preferences for passwords, keys or tokens")
    return None


def judge_script(script: Script, home: str) -> Verdict | None:
    """AppleScript piped into ``osascript`` (``echo 'display dialog ...' | osascript``); preferences
    searched for secrets (``defaults read | grep -i token``)."""
    for stages in walk(script):
        for before, after in itertools.pairwise(stages):
            searched = _preferences_searched(before, after)
            if searched is not None:
                return searched
            if after.name != "osascript" or before.name not in _PRINTERS:
                continue
            values = _values(after)
            text, file = script_text(values, ())
            if text or (file is not None and file != "-"):
                continue
            if before.name == "cat":
                fed = "\n".join(fed_code(before))
            else:
                words = [v for v in _values(before) if not (v.startswith("-") and len(v) <= 3)]
                fed = " ".join(words)
            found = _applescript(fed, after, home)
            if found is not None:
                return found
    return None
