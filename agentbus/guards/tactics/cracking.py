"""Tactic family ``cracking``: guessing passwords, online against a login or offline against hashes.

ATT&CK's brute force (password guessing, spraying, cracking): no coding task needs it, so
each finding is :data:`~agentbus.guards.verdict.CREDENTIALS` (blocked by default):

- the tools by name: online guessers (``hydra``, ``medusa``, ``ncrack``, ``patator``,
  ``crowbar``, ``crackmapexec``/``nxc``, ``kerbrute``, ``legba``, ``brutespray``) and offline
  crackers (``john``, ``hashcat``, ``ophcrack``, ``fcrackzip``, ``pdfcrack``, ``aircrack-ng`` …);
- a password tried against a local account: ``dscl . -authonly USER PASSWORD`` (macOS), the
  step of a guessing loop;
- a wireless network attacked for its key or its users' passwords: WPS guessers (``reaver``,
  ``bully``, ``pixiewps``), rogue access points that collect logins (``hostapd-wpe``,
  ``eaphammer``, ``wifiphisher``), clients knocked off to capture their handshake
  (``aireplay-ng``, ``mdk4``) and the suites that chain them (``wifite``, ``airgeddon``);
- a login form guessed by a web fuzzer from a password list (``wfuzz -z file,users.txt -z file,pass.txt
  -d "user=FUZZ&pass=FUZ2Z" URL``, ``ffuf -w rockyou.txt``), on one's own site too, as hydra's is;
- a web token's signing secret cracked: ``jwt_tool TOKEN -C -d words.txt`` (``python3 jwt_tool.py``),
  ``jwt-cracker``, ``jwtcrack``: with it, any token the application trusts can be forged;
- nmap's guessing scripts: ``--script ssh-brute``, ``--script brute`` (the NSE category) or any
  ``*-brute`` script in the list, a guesser like hydra inside the scanner, and the scripts that
  take hashes or try empty and default passwords (``mysql-dump-hashes``, ``mysql-empty-password``,
  ``http-default-accounts``).

Asking a tool for its help or version is ordinary, and so is ``hashcat``'s or ``john``'s ``--stdout``:
candidate passwords printed from a word list and rules, no hash cracked.
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..options import option_values
from ..programs import Invocation
from ..verdict import CREDENTIALS, Verdict
from . import JOHN_CONVERTERS
from .hidden_runs import launched_file

__all__ = ["judge"]

_GUESSERS = frozenset({"hydra", "xhydra", "pw-inspector", "medusa", "ncrack", "patator", "crowbar",
                       "crackmapexec", "cme", "nxc", "netexec", "kerbrute", "legba", "brutespray",
                       "thc-pptp-bruter", "sucrack", "spray", "o365spray"})  # fmt: skip
"""Programs that try passwords against a login service."""
_CRACKERS = frozenset({"john", "hashcat", "ophcrack", "fcrackzip", "pdfcrack", "rarcrack", "zip2john",
                       "ssh2john", "ssh2john.py", "keychain2john", "office2john", "unshadow", "aircrack-ng",
                       "cowpatty", "asleap", "bkcrack", "hashcat-legacy", "oclhashcat", "rcracki_mt",
                       "chntpw", "jwt-cracker", "jwtcrack", "psk-crack", "eapmd5pass",
                       "hcxpcaptool", "hcxpcapngtool", "hcxpsktool"})  # fmt: skip
"""Programs that recover passwords from hashes, keys or captured handshakes, or turn a capture into what a
cracker takes (hcxtools' ``hcxpcapngtool -o hash.22000 dump.pcapng``: a Wi-Fi handshake for hashcat, as
``zip2john`` for john)."""
_CANDIDATE_PRINTERS = frozenset({"hashcat", "john"})
"""Crackers whose ``--stdout`` mode only prints the candidates a word list and its rules make (as ``crunch``
does): no hash is read or cracked in that mode."""
_TOKEN_CRACKERS = frozenset({"jwt_tool", "jwt_tool.py"})
"""A web token tool whose ``-C`` mode guesses the token's signing secret (judged only in that mode)."""
_WIRELESS = frozenset({"reaver", "bully", "pixiewps", "hostapd-wpe", "eaphammer", "wifiphisher", "wifite",
                       "airgeddon", "aireplay-ng", "airbase-ng", "mdk3", "mdk4", "fluxion",
                       "airmon-ng"})  # fmt: skip
"""Programs that attack a wireless network for its key or for the logins of its users (``airmon-ng start``
puts a card in monitor mode to capture others' traffic; ``check kill`` stops the network managers)."""
_INFO = frozenset({"-h", "--help", "-help", "--version", "-V", "--list", "-I"})
_NSE_BRUTE = lazy_compile(
    r"^(?:[\w.-]*-(?:brute|dump-hashes|empty-password|default-accounts)|brute|[\w.-]*hashdump)(?:\.nse)?$"
)
"""An nmap script that guesses logins or takes their hashes: every ``*-brute`` script, the ``brute``
category, ``*-dump-hashes``, ``*-empty-password``, ``*-default-accounts``."""


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A password guessed or cracked in this command, or None."""
    name = _released(invocation.name)
    if name == "nmap":
        return _nmap_brute(invocation, _values(invocation))
    if name.startswith("python"):  # python3 o365spray.py --spray …: a guesser published as a script
        return _guessing_script(invocation, _values(invocation)) or _token_crack(
            invocation, _values(invocation)
        )
    if name in _TOKEN_CRACKERS:
        return _token_crack(invocation, _values(invocation))
    if name in _WEB_FUZZERS:
        return _login_fuzz(invocation, _values(invocation))
    if name == "chmod":
        return _cracker_made_runnable(invocation, _values(invocation))
    if (
        name not in _GUESSERS
        and name not in _CRACKERS
        and name not in _WIRELESS
        and name != "dscl"
        and not name.endswith(JOHN_CONVERTERS)
    ):
        return None
    values = _values(invocation)
    if name == "dscl":
        return _dscl_guess(invocation, values)
    if len(values) == 1 and values[0] in _INFO:
        return None
    if name in _CANDIDATE_PRINTERS and any(value.partition("=")[0] == "--stdout" for value in values):
        return None  # hashcat -r rules --stdout, john --rules --stdout: words mutated and printed, no hash
    if name == "airmon-ng" and not {"start", "kill"} & set(values):
        return None  # airmon-ng alone, or check: lists the wireless interfaces and what would get in the way
    if name in _GUESSERS:
        return _verdict(CREDENTIALS, invocation, f"{name} guesses passwords against a login")
    if name in _WIRELESS:
        return _verdict(CREDENTIALS, invocation, f"{name} attacks a wireless network for its key or logins")
    return _verdict(CREDENTIALS, invocation, f"{name} cracks passwords from hashes or keys")


def _guessing_script(invocation: Invocation, values: list[str]) -> Verdict | None:
    """A guesser or cracker run as Python's script by its file's name (``python3 o365spray.py``)."""
    script = (launched_file(invocation) or "").rpartition("/")[2].lower()
    tool = script.removesuffix(".py")
    if not script.endswith(".py") or (tool not in _GUESSERS and tool not in _CRACKERS):
        return None
    if len(values) == 2 and values[1] in _INFO:
        return None
    what = "guesses passwords against a login" if tool in _GUESSERS else "cracks passwords from hashes"
    return _verdict(CREDENTIALS, invocation, f"{script} {what}")


def _token_crack(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``jwt_tool TOKEN -C -d words.txt``, ``python3 jwt_tool.py TOKEN --crack -p guess``: the secret a web
    token is signed with guessed (its other modes, forging a token, are :mod:`.service_attacks`')."""
    script = (launched_file(invocation) or invocation.name).rpartition("/")[2]
    if script not in _TOKEN_CRACKERS or not {"-C", "--crack"} & set(values):
        return None
    return _verdict(CREDENTIALS, invocation, "jwt_tool cracks the secret a web token is signed with")


_WEB_FUZZERS = frozenset({"wfuzz", "ffuf"})
"""Web fuzzers, which guess a login as hydra does when a word list of passwords is their payload."""
_PASSWORD_LIST = lazy_compile(r"pass|pwd|rockyou|credential|darkweb|probable-v2", re.IGNORECASE)
"""A word list's file name that says it holds passwords (``pass.txt``, ``rockyou.txt``, ``10k-most-common``'s
SecLists siblings ``darkweb2017-top10000.txt``, ``probable-v2-top1575.txt``)."""


def _login_fuzz(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``wfuzz -z file,users.txt -z file,pass.txt -d "user=FUZZ&pass=FUZ2Z" URL``, ``ffuf -w rockyou.txt:PW
    -X POST -d "password=PW" -u URL``: a login form guessed from a password list, on any host (hydra's
    guessing, blocked against one's own site too); paths and parameters fuzzed are
    :mod:`.service_attacks`'."""
    lists = option_values(values, frozenset({"-w", "-z", "--wordlist"}))
    lists += [v.partition("=")[2] for v in values if v.startswith(("-w=", "-z=", "--wordlist="))]
    for words in lists:
        path = words.removeprefix("file,").partition(",")[0].partition(":")[0]
        if _PASSWORD_LIST.search(path.rpartition("/")[2]):
            why = f"{invocation.name} guesses a login with the passwords of {path}"
            return _verdict(CREDENTIALS, invocation, why)
    return None


_RUNNABLE_CRACKERS = frozenset({"sucrack", "kerbrute", "hydra", "medusa", "ncrack", "patator", "crowbar",
                                "legba", "brutespray", "o365spray", "hashcat", "fcrackzip", "pdfcrack",
                                "rarcrack", "bkcrack", "aircrack-ng"})  # fmt: skip
"""Guessers and crackers whose names no project's file takes (``spray`` or ``john`` might)."""
_RELEASE = lazy_compile(
    r"(?:[-_](?:linux|darwin|amd64|386|arm64|x64|static|v?\d[\w.]*))*(?:\.(?:sh|py|bin|exe))?$"
)


def _released(name: str) -> str:
    """A guesser's or cracker's name without its release's platform and version (``kerbrute_linux_amd64``
    is ``kerbrute``, as ``sliver-server_linux`` is ``sliver-server``): the tool run from its download."""
    stem = _RELEASE.sub("", name, count=1).lower()
    return stem if stem != name.lower() and stem in _RUNNABLE_CRACKERS else name


def _cracker_made_runnable(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``chmod +x sucrack``, ``chmod 755 kerbrute_linux_amd64``: a password guesser or cracker made ready
    to run by its name, the step before it guesses."""
    if not any(
        (v.startswith(("+", "u+", "a+", "ug+")) and "x" in v) or (v.isdigit() and set(v) & set("1357"))
        for v in values
    ):
        return None
    for value in values:
        stem = _RELEASE.sub("", value.rstrip("/").rpartition("/")[2], count=1).lower()
        if stem in _RUNNABLE_CRACKERS:
            return _verdict(CREDENTIALS, invocation, f"chmod makes {value}, a password guesser, ready to run")
    return None


def _dscl_guess(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``dscl . -authonly USER PASSWORD``: one guess at an account's password (macOS's spraying loop)."""
    if "-authonly" not in values:
        return None
    return _verdict(CREDENTIALS, invocation, "dscl -authonly tries a password against a local account")


def _nmap_brute(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``nmap --script ssh-brute HOST``, ``--script=brute``, ``--script "auth or brute"``."""
    for script in nse_scripts(values):
        if _NSE_BRUTE.match(script.rsplit("/", 1)[-1]):
            return _verdict(
                CREDENTIALS, invocation, f"nmap's {script} script guesses passwords against a login"
            )
    return None


def nse_scripts(values: list[str]) -> list[str]:
    """The scripts and categories nmap's ``--script`` options name: comma separated, or a boolean
    expression (``--script "auth or brute"``)."""
    names: list[str] = []
    for index, value in enumerate(values):
        option, equals, attached = value.partition("=")
        if option != "--script":
            continue
        scripts = attached if equals else (values[index + 1] if index + 1 < len(values) else "")
        names += [word for word in _SCRIPT_WORDS.findall(scripts) if word not in ("and", "or", "not")]
    return names


_SCRIPT_WORDS = lazy_compile(r"[\w./*-]+")
