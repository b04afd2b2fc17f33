"""Tactic family ``collection``: what the user sees, hears, types and copies, captured and staged.

- :data:`~agentbus.guards.verdict.COLLECTION` (asked by default): the screen
  (``screencapture``, ``scrot``, ``grim``, ``xwd -root``, ``import -window root``,
  ``ffmpeg -f x11grab``/``avfoundation``), the microphone (``arecord``, ``rec``,
  ``sox -d``, ``ffmpeg -f alsa``/``pulse``), the camera (``imagesnap``,
  ``fswebcam``, ``ffmpeg -f v4l2``), the clipboard read (``pbpaste``, ``xclip -o``,
  ``xsel -o``, ``wl-paste``) and network packets (``tcpdump``, ``tshark``,
  ``dumpcap``, ``ngrep``, ARP spoofers, ``etterfilter`` compiling the filter that rewrites what ettercap
  intercepts), and the keys that decrypt the machine's IPsec traffic printed (``ip xfrm state``; its
  policies are not secret). Reading a capture file (``tcpdump -r``),
  listing devices (``arecord -l``) and writing the clipboard (``pbcopy``) are ordinary. A disk imaged
  (``dd if=/dev/sda of=disk.img``): every file on it read past the permissions.
- :data:`~agentbus.guards.verdict.CREDENTIALS`: keyloggers, which catch the
  passwords typed: a ``DEBUG`` trap or ``PROMPT_COMMAND`` that records each
  command to a file, a logger or the network, ``auditctl -S execve`` rules,
  ``xinput test``, ``logkeys``, reading ``/dev/input`` (``strace -p`` is :mod:`.credentials`'s).
- :data:`~agentbus.guards.verdict.OBFUSCATED`: the clipboard's content run as code
  (``$(pbpaste)``, ``eval "$(xclip -o)"``, ``pbpaste | sh``): code no guard can read.
- :data:`~agentbus.guards.verdict.EXFILTRATION`: a sensitive place packed into an
  archive (``tar czf /tmp/e.tgz /etc``, ``zip -r h.zip ~``, ``7z a k.7z ~/.aws``,
  ``python3 -c "tarfile.open(...).add('/etc')"``): the staging step of carrying
  it away. Archives of the project or its build outputs are ordinary.
"""

from __future__ import annotations

import itertools
import posixpath
import re

from ...lazy_regex import lazy_compile
from ..findings import copies_into_found, exec_runs
from ..findings import finding as _verdict
from ..findings import piece as _piece
from ..findings import positionals as _positionals
from ..findings import static_args as _values
from ..interpreters import INTERPRETERS, inline_code, runs_scripts
from ..operands import block_device
from ..parse import WRITE_OPERATORS, Script, parsed
from ..pathnames import normalize_path
from ..programs import SHELLS, Invocation, shell_mode, substituted, walk
from ..verdict import COLLECTION, CREDENTIALS, EXFILTRATION, OBFUSCATED, Verdict
from .exfiltration import sends_stdin, sensitive_source
from .impact import user_data

__all__ = ["judge", "judge_script", "reads_clipboard"]


# -- capturing the screen, the microphone, the camera, the clipboard, the network ----------------

_SCREEN, _MICROPHONE, _CAMERA, _CLIPBOARD, _PACKETS = (
    "captures the screen",
    "records the microphone",
    "takes pictures with the camera",
    "reads the clipboard",
    "captures network traffic (passwords and tokens in clear text)",
)
_CAPTURERS: dict[str, str] = {
    **dict.fromkeys(("screencapture", "scrot", "gnome-screenshot", "spectacle", "grim", "grimshot", "maim",
                     "flameshot", "xfce4-screenshooter", "shutter", "ksnip", "deepin-screenshot",
                     "mate-screenshot", "escrotum", "shotgun", "wayshot", "hyprshot", "xwd", "wf-recorder",
                     "recordmydesktop", "byzanz-record", "screenshot"), _SCREEN),
    **dict.fromkeys(("arecord", "parecord", "parec", "pw-record", "rec", "termux-microphone-record",
                     "audiorecorder"), _MICROPHONE),
    **dict.fromkeys(("imagesnap", "fswebcam", "streamer", "uvccapture", "videosnap",
                     "termux-camera-photo"), _CAMERA),
    **dict.fromkeys(("pbpaste", "wl-paste", "termux-clipboard-get"), _CLIPBOARD),
    **dict.fromkeys(("tcpdump", "tshark", "dumpcap", "ngrep", "tcpflow", "ettercap", "dsniff", "bettercap",
                     "arpspoof", "urlsnarf", "mailsnarf", "driftnet", "tcpick", "justniffer", "sniffglue",
                     "termshark", "airodump-ng", "kismet", "netsniff-ng", "ssldump", "sslsniff",
                     "responder", "arpwatch", "p0f", "hcxdumptool", "mitm6", "wash"), _PACKETS),
    "etterfilter": "compiles a filter for ettercap to rewrite or drop others' intercepted traffic",
}  # fmt: skip
"""Programs whose every run captures something (besides asking them for help or a list)."""
_INFO = frozenset({"-h", "--help", "-help", "--version", "-version", "-V", "--usage", "-?"})
_NOT_CAPTURING: dict[str, frozenset[str]] = {
    "tcpdump": frozenset({"-D", "--list-interfaces", "-r", "-L", "--list-data-link-types", "-d", "-dd",
                          "-ddd"}),
    "tshark": frozenset({"-r", "--read-file", "-D", "--list-interfaces", "-G", "-L", "-v"}),
    "dumpcap": frozenset({"-D", "--list-interfaces", "-L", "-v", "-M", "-S"}),
    "termshark": frozenset({"-r"}),
    "tcpflow": frozenset({"-r", "-R"}),
    "ngrep": frozenset({"-I", "-L"}),
    "tcpick": frozenset({"-r"}),
    "ssldump": frozenset({"-r"}),
    "p0f": frozenset({"-r", "-L"}),
    "justniffer": frozenset({"-f", "--filecap"}),
    "ettercap": frozenset({"-r", "--read"}),
    **dict.fromkeys(("dsniff", "urlsnarf", "mailsnarf"), frozenset({"-p"})),
    "arecord": frozenset({"-l", "-L", "--list-devices", "--list-pcms"}),
    "imagesnap": frozenset({"-l"}),
    "wl-paste": frozenset({"-l", "--list-types"}),
    "scrot": frozenset({"-v"}),
    "kismet": frozenset({"--list-datasources"}),
}  # fmt: skip
"""Options with which a capturing program only reads a file or lists what it could capture."""

_DEVICE_FORMATS: dict[str, str] = {
    **dict.fromkeys(("x11grab", "gdigrab", "kmsgrab", "fbdev", "xcbgrab", "wayland"), _SCREEN),
    **dict.fromkeys(("alsa", "pulse", "oss", "jack", "openal", "sndio", "pipewire", "audiotoolbox"),
                    _MICROPHONE),
    **dict.fromkeys(("v4l2", "video4linux2", "dshow", "vfwcap", "qtkit"), _CAMERA),
    "avfoundation": "captures the screen, camera or microphone",
}  # fmt: skip
"""ffmpeg input formats that read a device, not a file."""
_GSTREAMER_SOURCES: dict[str, str] = {
    **dict.fromkeys(("ximagesrc", "gdiscreencapsrc", "dx9screencapsrc", "d3d11screencapturesrc",
                     "pipewiresrc", "avfvideosrc", "waylandsrc"), _SCREEN),
    **dict.fromkeys(("alsasrc", "pulsesrc", "autoaudiosrc", "osxaudiosrc", "jackaudiosrc", "wasapisrc",
                     "directsoundsrc", "openalsrc"), _MICROPHONE),
    **dict.fromkeys(("v4l2src", "autovideosrc", "ksvideosrc", "mfvideosrc", "qtkitvideosrc"), _CAMERA),
}  # fmt: skip
_SOX_DEVICES = frozenset({"alsa", "coreaudio", "pulseaudio", "oss", "waveaudio", "sndio", "ao"})
_CAPTURE_DEVICE = lazy_compile(r"^/dev/(?:video\d|dsp\d*$|audio\d*$|snd/pcm|fb\d)")


_IMAGE_FILE = lazy_compile(
    r"^[A-Za-z0-9]{2,8}:.|\.(?:png|jpe?g|gif|bmp|tiff?|webp|ppm|pnm|pgm|pbm|xwd|miff|pdf|e?ps|svg|ico|heic"
    r"|avif|jxl|tga|pcx|sgi|xpm)$",
    re.IGNORECASE,
)
"""An ImageMagick output: a file named as an image, or a ``FORMAT:name`` the encoder reads."""


def _imagemagick_import(values: list[str]) -> bool:
    """Whether ``import VALUES`` is ImageMagick taking a screenshot: ``-window``/``-screen`` names what
    to grab, or an image file is written. Python's ``import sys, json`` read as a shell command (code
    handed to a runner the guards do not know) names no image and grabs nothing."""
    if "-window" in values or "-screen" in values:
        return True
    return any(not v.startswith("-") and _IMAGE_FILE.search(v) for v in values)


_IMAGERS = frozenset({"dd", "dcfldd", "dc3dd"})
"""Programs that copy a device block by block (``if=DEVICE of=FILE``)."""


def _disk_image(invocation: Invocation) -> str | None:
    """``dd if=/dev/sda of=disk.img``, ``dd if=/dev/nvme0n1 | gzip > x.gz``: a whole disk or partition read
    into an image, every file on it (other accounts', deleted ones) past the permissions. A copy onto
    another disk is the disk rule's; a counted read (``count=1``: a boot sector) is no image."""
    if invocation.name not in _IMAGERS:
        return None
    values = _values(invocation)
    source = next((v[3:] for v in values if v.startswith("if=")), None)
    if source is None or block_device(source) is None or any(v.startswith("count=") for v in values):
        return None
    if any(v.startswith("of=") and block_device(v[3:]) is not None for v in values):
        return None
    return f"reads the whole of {source} into an image: every file on it, past the permissions"


_XFRM_READS = frozenset({"list", "lst", "ls", "l", "show", "sh", "get"})
"""``ip xfrm state``'s verbs that print its security associations (none given: it lists them)."""


def _ipsec_keys(values: list[str]) -> bool:
    """``ip xfrm state`` (``list``, ``get``, ``ip -s x s``): the IPsec security associations printed with
    their encryption and authentication keys; ``ip xfrm policy`` and a state added or flushed print none."""
    words = [v for v in values if not v.startswith("-")]
    if len(words) < 2 or words[0] not in ("xfrm", "x") or not "state".startswith(words[1]):
        return False
    return len(words) == 2 or words[2] in _XFRM_READS


def _captures(invocation: Invocation) -> str | None:
    """What ``invocation`` captures from the screen, microphone, camera, clipboard or network, if anything."""
    name = invocation.name
    values = _values(invocation)
    if values and set(values) <= _INFO:
        return None
    what = _CAPTURERS.get(name)
    if what is not None:
        quiet = _NOT_CAPTURING.get(name, frozenset())
        if any(v in quiet or v.split("=", 1)[0] in quiet for v in values):
            return None
        if what == _PACKETS and _loopback_only(values):
            return None
        if name == "screencapture" and any(_INTERACTIVE_CAPTURE.match(v) for v in values):
            return None  # the person picks the area or the window with the mouse, or nothing is taken
        if name == "flameshot" and _flameshot_takes_nothing(values):
            return None
        return what
    if name in ("ffmpeg", "avconv", "ffmpeg6", "ffmpeg7"):
        return None if "-list_devices" in values or "-list_formats" in values else _ffmpeg_device(values)
    if name.startswith("gst-launch"):
        return next((_GSTREAMER_SOURCES[v] for v in values if v in _GSTREAMER_SOURCES), None)
    if name in ("sox", "rec"):
        return _sox_records(values)
    if name == "ip" and _ipsec_keys(values):
        return "prints the keys of the machine's IPsec tunnels: captured traffic decrypted with them"
    if name in ("pacat", "pw-cat") and {"-r", "--record"} & set(values):
        return _MICROPHONE
    if name == "v4l2-ctl" and any(v.startswith(("--stream-to", "--stream-mmap")) for v in values):
        return _CAMERA
    if name == "import" and _imagemagick_import(values):
        return _SCREEN
    if name in ("convert", "magick") and any(v.startswith("x:") for v in values):
        return _SCREEN
    if reads_clipboard(invocation):
        return _CLIPBOARD
    if name in _INPUT_READERS and _reads_framebuffer(invocation, values):
        return _SCREEN
    if _monitor_mode(name, values):
        return "puts a wireless card in monitor mode, to capture the traffic of networks around it"
    if name in _DISK_READERS and _images_mac_disk(invocation, values):
        return "copies a whole disk of this Mac into a file: every account's files, keychains and mail"
    return None


def _monitor_mode(name: str, values: list[str]) -> bool:
    """``iw dev wlan0 set type monitor``, ``iwconfig wlan0 mode monitor``: a wireless card made to hear every
    frame in the air, the first step of capturing others' handshakes."""
    lowered = [v.lower() for v in values]
    if name == "iw":
        return "set" in lowered and "monitor" in lowered
    return name == "iwconfig" and "mode" in lowered and "monitor" in lowered


_MAC_DISK = lazy_compile(r"^(?:if=)?/dev/r?disk\d+(?:s\d+)?$")
"""A disk or partition as macOS names it (``/dev/rdisk0``, ``/dev/disk3s1``): ``dd if=/dev/rdisk0
of=disk.img`` takes everything on it, the way a disk is imaged for forensics or theft. Issue 12 leaves
Linux's ``dd if=/dev/sda of=disk.img`` to run (an image of a VM's or an SD card's disk); a Mac's disks
are the developer's own machine. Writing to a disk is :data:`~agentbus.guards.verdict.DISK`'s."""
_INTERACTIVE_CAPTURE = lazy_compile(r"^-[A-Za-z]*[iWJ]")
"""``screencapture -i``, ``-W``, ``-J window``: an area or window chosen by the person at the Mac."""
_FLAMESHOT_QUIET = frozenset({"config", "launcher"})
"""flameshot's settings and its launcher window: nothing is captured."""


def _flameshot_takes_nothing(values: list[str]) -> bool:
    """``flameshot config``, ``flameshot launcher``, ``flameshot gui``: its settings, or an area the person
    drags with the mouse (nothing is taken unless they do), as ``screencapture -i``. ``flameshot full``,
    ``flameshot screen`` and ``gui --region`` take the screen unattended: asked."""
    words = [v for v in values if not v.startswith("-")]
    command = words[0] if words else ""
    if command in _FLAMESHOT_QUIET:
        return True
    return command == "gui" and not any(v.split("=", 1)[0] == "--region" for v in values)


_DISK_READERS = frozenset({"dd", "cat", "pv", "gzip", "pigz", "xz", "zstd", "bzip2", "lz4", "ditto", "cp"})
_FEW_BLOCKS = 64
"""``dd if=/dev/rdisk0 count=1 | xxd``: a look at the partition table, not an image."""


def _images_mac_disk(invocation: Invocation, values: list[str]) -> bool:
    """Whether ``invocation`` reads a macOS disk device into a file or a pipe (not a short look)."""
    command = invocation.command
    read = [v for v in values if _MAC_DISK.match(v) and not v.startswith("of=")]
    read += [
        t for r in command.redirects if r.op == "<" and _MAC_DISK.match(t := command.static(r.target) or "")
    ]
    if not read:
        return False
    if invocation.name == "dd":
        count = next((v[6:] for v in values if v.startswith("count=")), None)
        if count is not None and count.isdigit() and int(count) <= _FEW_BLOCKS:
            return False
        return not any(v.startswith("of=/dev/") for v in values)
    return True


_FRAMEBUFFER = lazy_compile(r"^(?:if=)?/dev/fb\d+$")
"""The Linux framebuffer: its bytes are the pixels on the screen (``cat /dev/fb0 > screen.raw``)."""


def _reads_framebuffer(invocation: Invocation, values: list[str]) -> bool:
    command = invocation.command
    return any(_FRAMEBUFFER.match(v) for v in values) or any(
        r.op == "<" and _FRAMEBUFFER.match(command.static(r.target) or "") for r in command.redirects
    )


_LOOPBACK = frozenset({"lo", "lo0", "loopback", "Loopback", "\\Device\\NPF_Loopback"})


def _loopback_only(values: list[str]) -> bool:
    """``tcpdump -i lo``: the machine's own loopback traffic, a developer debugging a local server."""
    interfaces = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-i", "--interface", "-d")]
    interfaces += [v.partition("=")[2] for v in values if v.startswith("--interface=")]
    interfaces += [v[2:] for v in values if v.startswith("-i") and len(v) > 2 and not v.startswith("-i=")]
    return bool(interfaces) and all(i in _LOOPBACK for i in interfaces)


def _ffmpeg_device(values: list[str]) -> str | None:
    """``ffmpeg -f x11grab -i :0``, ``-f avfoundation -i 1``, ``-i /dev/video0``: a device as input."""
    format_ = ""
    for index, value in enumerate(values[:-1]):
        if value == "-f":
            format_ = values[index + 1]
        elif value == "-i":
            source = values[index + 1]
            if format_ in _DEVICE_FORMATS:
                return _DEVICE_FORMATS[format_]
            if _CAPTURE_DEVICE.match(source):
                return _CAMERA if "video" in source else _MICROPHONE
            format_ = ""
    return None


def _sox_records(values: list[str]) -> str | None:
    """``rec FILE``, ``sox -d FILE``, ``sox -t alsa default FILE``: the default input device recorded."""
    files = 0
    for index, value in enumerate(values):
        if value in ("-d", "--default-device"):
            if any(not v.startswith("-") for v in values[index + 1 :]):
                return _MICROPHONE
        elif value == "-t" and index + 1 < len(values) and values[index + 1] in _SOX_DEVICES:
            if files == 0:
                return _MICROPHONE
        elif not value.startswith("-") and (index == 0 or values[index - 1] not in _SOX_VALUES):
            files += 1
    return None


_SOX_VALUES = frozenset({"-t", "--type", "-r", "--rate", "-c", "--channels", "-b", "--bits", "-e",
                         "--encoding", "-C", "--compression", "-v", "--volume", "-V"})  # fmt: skip


def reads_clipboard(invocation: Invocation) -> bool:
    """``pbpaste``, ``xclip -o``, ``xsel -o``, ``wl-paste``, ``copyq read``: the clipboard's content out."""
    name = invocation.name
    values = _values(invocation)
    if name in ("pbpaste", "wl-paste", "termux-clipboard-get"):
        return not {"-l", "--list-types"} & set(values)
    if name == "xclip":
        return any(v in ("-o", "-ou", "-out") for v in values)
    if name == "xsel":
        if any(v == "--output" or re.fullmatch(r"-[abpsfnkvx]*o[abpsfnkvx]*", v) for v in values):
            return True
        # No mode given: xsel writes the selection when its output goes to a file (xsel -b > f).
        changes = any(
            v in ("--input", "--append", "--follow", "--clear", "--delete", "--keep", "--exchange")
            or re.fullmatch(r"-[a-z]*[iafcdkx][a-z]*", v)
            for v in values
        )
        fed = any(r.op in ("<", "<<", "<<<") for r in invocation.command.redirects)
        saved = any(r.op in (">", ">>", ">|") and r.fd in ("", "1") for r in invocation.command.redirects)
        return saved and not changes and not fed
    if name == "copyq":
        return bool(values) and values[0] in ("read", "clipboard", "selection")
    return False


# -- keyloggers -----------------------------------------------------------------------------------

_SINKS = frozenset({"logger", "tee", "curl", "wget", "nc", "ncat", "netcat", "socat", "systemd-cat", "ssh",
                    "sendmail", "mail", "mailx", "scp", "telnet", "openssl"})  # fmt: skip
"""Programs that keep or send what they are given: a recorded command goes somewhere."""
_STREAMS = lazy_compile(r"^(?:/dev/(?:null|stdout|stderr|tty|fd/\d+)|&?\d)$")


def _records_commands(code: str) -> bool:
    """Whether shell ``code`` run before each command records it: the command line kept or sent."""
    if "BASH_COMMAND" not in code and not re.search(r"\bhistory\b|\bfc\s+-", code):
        return False
    script = parsed(code)
    for stages in walk(script):
        for stage in stages:
            if stage.name in _SINKS:
                return True
            for redirect in stage.command.redirects:
                target = stage.command.static(redirect.target)
                if redirect.op in WRITE_OPERATORS and (target is None or not _STREAMS.match(target)):
                    return True
    return bool(script.substitutions) and any(sub.kind == ">(" for sub in script.substitutions)


_READLINE_PROBE = lazy_compile(
    r"probe:[^:\s]*:readline\b|\btty_write\b|\bpty_write\b|\bn_tty_\w+|\binput_event\b"
)
"""bpftrace probes that see what is typed: bash's ``readline``, the terminal driver, input events."""
_AUDITED_CALLS = frozenset({"execve", "execveat", "read", "all", "write"})
_INPUT_DEVICE = lazy_compile(r"^/dev/(?:input/|uinput$|hidraw\d|tty\d*$|pts/|console$)")
_INPUT_READERS = frozenset({"cat", "dd", "od", "hexdump", "xxd", "head", "tail", "strings", "tee", "cp",
                            "evtest", "evemu-record", "input-events", "intercept", "python", "python3",
                            "perl"})  # fmt: skip
"""Programs that, given an input device, read the events from it (keystrokes among them)."""


_KEYLOGGER_NAME = lazy_compile(r"(?<!ssl)(?<!ssl[-_])key[-_.]?log(?:ger|ging)?s?(?![a-z])", re.IGNORECASE)
"""A name that says it logs keys: ``keylogger``, ``SwiftKeylogger``, ``USBKeyLog``, ``key_log.py``
(``monkeylogic`` goes on with letters, ``sslkeylog`` logs TLS secrets for Wireshark: neither is one)."""


_BUILDERS = frozenset({"swiftc", "gcc", "cc", "clang", "clang++", "g++", "c++", "rustc", "javac", "kotlinc",
                       "go", "tcc", "zig", "nim", "crystal", "ldc2", "dmd", "xcrun"})  # fmt: skip
"""Compilers: a program built from a keylogger's source is a keylogger under whatever name it is given
(``swiftc k/keylogger.swift -o /tmp/.u && /tmp/.u``)."""


def _runs_keylogger(invocation: Invocation, values: list[str]) -> bool:
    """``swift keylogger.swift``, ``python3 key_logger.py``: a runner given a keylogger's script;
    ``swiftc keylogger.swift -o /tmp/u``, ``go build ./cmd/keylogger``: one built from its source."""
    if invocation.name in _BUILDERS:
        # any part of the path: Sources/KeyLogger/main.swift
        return any(_KEYLOGGER_NAME.search(v) for v in values if not v.startswith("-"))
    if not runs_scripts(invocation.name):
        return False
    script = next((v for v in values if not v.startswith("-")), "")
    return bool(_KEYLOGGER_NAME.search(posixpath.basename(script)))


def _keylogger(invocation: Invocation) -> str | None:
    """Why ``invocation`` logs keystrokes or command lines (passwords among them), or None."""
    name = invocation.name
    values = _values(invocation)
    if name == "trap" and values and values[-1] == "DEBUG" and _records_commands(values[0]):
        return "records every command line before it runs (a keylogger)"
    for assignment in (
        *invocation.env,
        *(values if name in ("export", "declare", "typeset", "readonly") else ()),
    ):
        key, _, value = assignment.partition("=")
        if key == "PROMPT_COMMAND" and _records_commands(invocation.command.static(value) or value):
            return "records every command line at each prompt (a keylogger)"
    if name == "auditctl" and {"-a", "-A"} & set(values):
        calls = {c for i, v in enumerate(values[:-1]) if v == "-S" for c in values[i + 1].split(",")}
        watched = [values[i + 1] for i, v in enumerate(values[:-1]) if v == "-w"]
        if calls & _AUDITED_CALLS or any(_INPUT_DEVICE.match(w) for w in watched):
            return "an audit rule that logs every command or keystroke"
    if name == "auditctl" and any(
        v == "-w" and _INPUT_DEVICE.match(w) for v, w in itertools.pairwise(values)
    ):
        return "an audit rule that logs every keystroke"
    if name == "xinput" and values[:1] and values[0] in ("test", "test-xi2", "--test", "--test-xi2"):
        return "prints every key pressed (a keylogger)"
    if name == "bpftrace" and _READLINE_PROBE.search(" ".join(values)):
        return "a probe on the shell's readline or the terminal: every line typed (a keylogger)"
    if name in (
        "logkeys",
        "lkl",
        "uberkey",
        "xkeylogger",
        "keylogger",
        "xspy",
        "pykeylogger",
        "bashreadline",
        "ttysnoop",
        "bashreadline-bpfcc",
        "ttysnoop-bpfcc",
        "ttysnoop.bt",
        "bashreadline.bt",
    ):
        return None if values and set(values) <= {"-k", "--kill", *_INFO} else "a keylogger"
    if _KEYLOGGER_NAME.search(posixpath.basename(name)) or _runs_keylogger(invocation, values):
        return "a program named as a keylogger"
    if name in _INPUT_READERS and not (name == "evtest" and "--query" in values):
        for value in values:
            if value.startswith("/dev/input/") or value == "/dev/uinput":
                return f"reads keystrokes from {value}"
        for redirect in invocation.command.redirects:
            target = invocation.command.static(redirect.target) or ""
            if redirect.op == "<" and target.startswith("/dev/input/"):
                return f"reads keystrokes from {target}"
    return None


# -- the clipboard run as code ------------------------------------------------------------------


def _clipboard_code(invocation: Invocation) -> bool:
    """``$(pbpaste)``, ``eval "$(xclip -o)"``, ``bash -c "$(xsel -o)"``: the clipboard run as code."""
    runs_code = (
        invocation.dynamic or invocation.name in ("eval", "source", ".") or runs_scripts(invocation.name)
    )
    if not runs_code:
        return False
    command = invocation.command
    words = command.words if invocation.dynamic else invocation.args
    return any(reads_clipboard(stage) for stages in substituted(command, words) for stage in stages)


def _reads_stdin_as_code(invocation: Invocation) -> bool:
    if invocation.name in SHELLS:
        return shell_mode(invocation).reads_stdin
    if INTERPRETERS.match(invocation.name):
        return inline_code(invocation) is None and not [
            v for v in _values(invocation) if not v.startswith("-")
        ]
    return False


# -- staging archives --------------------------------------------------------------------------------

_COMPRESSORS = frozenset({"gzip", "bzip2", "xz", "zstd", "lz4", "lzma", "lzip", "pigz", "pbzip2", "compress",
                          "brotli", "lzop", "pixz", "plzip"})  # fmt: skip
_COMPRESSOR_VALUES = frozenset({"-o", "-S", "--suffix", "-p", "--processes", "-D", "-b", "--output"})
_TAR_VALUES = "fCTXbHKLNgVI"
_TAR_LONG_VALUES = frozenset({
    "--file", "--directory", "--files-from", "--exclude-from", "--exclude", "--exclude-tag",
    "--exclude-tag-all", "--exclude-tag-under", "--exclude-ignore", "--exclude-ignore-recursive",
    "--transform", "--xform", "--owner", "--group", "--mode", "--mtime", "--label", "--format",
    "--use-compress-program", "--newer", "--newer-mtime", "--after-date", "--blocking-factor",
    "--record-size", "--strip-components", "--sort", "--warning",
})  # fmt: skip
"""tar's long options that take their value as the next word (``--exclude .env``): not sources."""
_ZIP_VALUES = frozenset({"-P", "--password", "-b", "-t", "-tt", "-n", "-Z", "-O", "--output-file", "-s"})


def _archive_sources(invocation: Invocation) -> list[tuple[str, str | None]]:
    """What an archiver packs, each with the directory it is relative to; [] unless it creates an archive."""
    name = invocation.name
    values = _values(invocation)
    cwd = invocation.cwd
    if name in ("tar", "gtar", "bsdtar", "gpgtar", "star"):
        return _tar_sources(values, cwd)
    if name == "zip":
        positionals, skip, patterns = [], False, False
        for value in values:
            if skip:
                skip = False
            elif value in _ZIP_VALUES:
                skip = True
            elif value in ("-x", "-i", "--exclude", "--include"):
                patterns = True
            elif value.startswith("-"):
                patterns = False
            elif not patterns:
                positionals.append(value)
        return [(p, cwd) for p in positionals[1:]]
    if name in ("7z", "7za", "7zz", "7zr", "rar") and values[:1] and values[0] in ("a", "u"):
        return [(p, cwd) for p in [v for v in values[1:] if not v.startswith("-")][1:]]
    if name in _COMPRESSORS:
        if any(v in ("-d", "--decompress", "-t", "--test", "-l", "--list") or re.fullmatch(r"-\w*d\w*", v)
               for v in values):  # fmt: skip
            return []
        found, skip = [], False
        for value in values:
            if skip:
                skip = False
            elif value in _COMPRESSOR_VALUES:
                skip = True
            elif not value.startswith("-"):
                found.append((value, cwd))
        return found
    if name == "ditto" and ("-c" in values or any(re.fullmatch(r"-\w*c\w*", v) for v in values)):
        return [(p, cwd) for p in [v for v in values if not v.startswith("-")][:-1]]
    if name == "pax" and any(re.fullmatch(r"-\w*w\w*", v) for v in values):
        return [(p, cwd) for p in _positionals(values, frozenset({"-f", "-s", "-x", "-o", "-b"}))]
    if name == "hdiutil" and values[:1] == ["create"]:
        return [(values[i + 1], cwd) for i, v in enumerate(values[:-1]) if v in ("-srcfolder", "-srcdir")]
    return []


def _tar_sources(values: list[str], cwd: str | None) -> list[tuple[str, str | None]]:
    """``tar czf OUT SRC... [-C DIR SRC...]``: the sources of a tar that creates, appends or updates."""
    create = False
    directory = cwd
    pending: list[str] = []
    sources: list[tuple[str, str | None]] = []
    for index, value in enumerate(values):
        if pending:
            option = pending.pop(0)
            if option == "C":
                directory = (
                    posixpath.join(directory or "", value) if not value.startswith(("/", "~", "$")) else value
                )
            continue
        if value.startswith("--"):
            option, has_value, _ = value.partition("=")
            create = create or option in ("--create", "--append", "--update", "--concatenate")
            if option in _TAR_LONG_VALUES and not has_value:
                pending.append("C" if option == "--directory" else "f")  # --exclude .env: a pattern, skipped
            elif option == "--directory" and has_value:
                directory = value.partition("=")[2]
            continue
        letters = value[1:] if value.startswith("-") else value if index == 0 and value.isalpha() else ""
        if letters:
            create = create or bool(set(letters) & set("cru"))
            pending.extend(letter for letter in letters if letter in _TAR_VALUES)
            continue
        sources.append((value, directory))
    return sources if create else []


_ARCHIVE_CODE = lazy_compile(
    r"tarfile|zipfile|ZipFile|\bgzip\b|\bbz2\b|\blzma\b|make_archive|Archive::(?:Tar|Zip)|IO::Compress|"
    r"Compress::Zlib|GzipWriter|Zip::File|Gem::Package::TarWriter|adm-zip|archiver|createGzip|\bzlib\b|"
    r"ZipArchive|PharData"
)
_PATH_LITERAL = lazy_compile(r"([\"'])((?:/|~)[^\"'\n]{0,4095})\1")
_NAMED_INTERPRETER = lazy_compile(r"^\$\{?\w*(?:python|perl|ruby|node|php)\w*\}?$", re.IGNORECASE)
"""``$PYTHON``, ``$which_python``: a variable named after the interpreter it holds."""


def _runs_code(invocation: Invocation) -> bool:
    return bool(INTERPRETERS.match(invocation.name) or _NAMED_INTERPRETER.match(invocation.name))


def _staged(invocation: Invocation, home: str) -> Verdict | None:
    """An archive (or a compressed copy) of a sensitive place: collected to be carried away."""
    for source, directory in _archive_sources(invocation):
        what = sensitive_source(source, home, directory)
        if what:
            return _verdict(EXFILTRATION, invocation, f"packs {what} into an archive, ready to carry away")
    if _runs_code(invocation):
        code = inline_code(invocation)
        if code and _ARCHIVE_CODE.search(code):
            for match in _PATH_LITERAL.finditer(code):
                what = sensitive_source(match.group(2), home, invocation.cwd)
                if what:
                    return _verdict(EXFILTRATION, invocation, f"code that packs {what} into an archive")
    return None


_COLLECTORS = frozenset({"cp", "mv", "rsync", "tar", "zip", "7z", "7za", "rar", "ditto", "scp", "curl",
                         "cpio", "install", "gzip", "xz", "bsdtar", "gtar"})  # fmt: skip
"""Programs that, run on each file ``find`` turns up, gather them into one place (or send them)."""
_NAME_TESTS = frozenset(
    {"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-wholename", "-iwholename"}
)


def _gathered(invocation: Invocation, home: str) -> Verdict | None:
    """``find ~ -name '*.pdf' -exec cp {} /tmp/s \\;``: files from across home or ``/`` put in one place."""
    if invocation.name not in ("find", "gfind", "bfs"):
        return None
    values = _values(invocation)
    starts = []
    for value in values:
        if value.startswith(("-", "(", "!")):
            break
        starts.append(value)
    runs = {values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-exec", "-execdir", "-ok", "-okdir")}
    if not {posixpath.basename(r) for r in runs} & _COLLECTORS:
        return None
    if _into_each(values):
        return None  # cp NOTE {}: one file put in every place found (impact's ransom note), not gathered
    patterns = [values[i + 1] for i, v in enumerate(values[:-1]) if v in _NAME_TESTS]
    if patterns and not any(re.search(r"[*?\[]", p) for p in patterns):
        return None  # a file named exactly: one file, not a collection
    for start in starts or ["."]:
        what = sensitive_source(start, home, invocation.cwd)
        if what:
            return _verdict(EXFILTRATION, invocation, f"gathers files from across {what} into one place")
    return None


def _into_each(values: list[str]) -> bool:
    """``find / -type d -exec cp NOTE {} \\;``: each ``-exec`` copies into what the search found."""
    runs = exec_runs(values)
    return bool(runs) and all(copies_into_found(run[1:]) for run in runs)


_COPIERS = frozenset({"cp", "gcp", "rsync", "ditto"})
_STAGING = lazy_compile(r"^(?:/private)?/(?:tmp|var/tmp|var/folders|dev/shm|Users/Shared)(?:/|$)")
"""Places every program may read: where a stealer gathers what it takes before it packs and sends it."""


def _staged_copy(invocation: Invocation, home: str) -> Verdict | None:
    """``cp -r ~/Documents /tmp/x``, ``ditto ~/Desktop /Users/Shared/.s``: a whole folder of the user's
    data (or the home) copied where every program may read it: a stealer's staging step. A project's
    folder, or one file of a data folder, is not a data folder."""
    if invocation.name not in _COPIERS:
        return None
    values = _values(invocation)
    recursive = invocation.name in ("rsync", "ditto") or any(
        v in ("--recursive", "--archive") or re.fullmatch(r"-[A-Za-z]*[rRa][A-Za-z]*", v) for v in values
    )
    operands = _positionals(values, frozenset({"-t", "--target-directory", "-e", "--rsh", "--exclude"}))
    if not recursive or len(operands) < 2:
        return None
    target = normalize_path(operands[-1], home=home, cwd=invocation.cwd)
    if not _STAGING.match(target):
        return None
    for source in operands[:-1]:
        what = user_data(source, home, invocation.cwd)
        if what:
            return _verdict(EXFILTRATION, invocation, f"copies {what} to {operands[-1]}, ready to carry away")
    return None


_DISK_SEARCHES = frozenset({"mdfind", "locate", "plocate", "mlocate"})
"""Searches of the whole disk's index (Spotlight's, locate's): what they find is the user's."""


def _searches_user_files(invocation: Invocation, home: str) -> bool:
    """``mdfind QUERY`` (or with ``-onlyin`` a folder of the user's), ``locate``, ``find ~/Documents``."""
    values = _values(invocation)
    if invocation.name in _DISK_SEARCHES:
        places = [values[i + 1] for i, v in enumerate(values[:-1]) if v == "-onlyin"]
        return not places or any(sensitive_source(p, home, invocation.cwd) for p in places)
    if invocation.name in ("find", "gfind", "bfs", "fd", "fdfind"):
        return any(not v.startswith("-") and sensitive_source(v, home, invocation.cwd) for v in values)
    return False


def _copies_each_to_staging(invocation: Invocation, home: str) -> bool:
    """``cp "$f" /tmp/stage/`` in a ``while read f`` loop, ``xargs -I{} cp {} /tmp/s``: each name read
    copied into a place every program may read."""
    if invocation.name not in (*_COPIERS, "mv"):
        return False
    words = [invocation.command.static(a) or "$" for a in invocation.args]
    operands = [w for w in words if not w.startswith("-")]
    if len(operands) < 2 or "$" in operands[-1]:
        return False
    each = any("$" in w or w == "{}" for w in operands[:-1])
    return each and _STAGING.match(normalize_path(operands[-1], home=home)) is not None


def _search_staged(stages: list[Invocation], home: str) -> Invocation | None:
    """``mdfind "kMDItemContentType == com.adobe.pdf" | while read f; do cp "$f" /tmp/stage; done``: what
    a search of the user's files finds copied, one by one, to a staging place (a stealer's collection)."""
    searched = False
    for stage in stages:
        if searched and _copies_each_to_staging(stage, home):
            return stage
        searched = searched or _searches_user_files(stage, home)
    return None


# -- the judges ---------------------------------------------------------------------------------------


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """The first finding of this family in ``invocation``, or None."""
    keylogger = _keylogger(invocation)
    if keylogger is not None:
        return _verdict(CREDENTIALS, invocation, keylogger)
    if _clipboard_code(invocation):
        return _verdict(
            OBFUSCATED, invocation, "runs the clipboard's content as code, which no guard can read"
        )
    staged = _staged(invocation, home) or _gathered(invocation, home) or _staged_copy(invocation, home)
    if staged is not None:
        return staged
    if not invocation.name:
        return None
    captured = _captures(invocation) or _disk_image(invocation)
    if captured is not None:
        return _verdict(COLLECTION, invocation, captured)
    return None


_LISTERS = frozenset({"find", "ls", "echo", "printf", "locate", "fd", "mdfind", "realpath", "readlink"})


def judge_script(script: Script, home: str) -> Verdict | None:
    """In one pipeline: the clipboard piped into a shell; sensitive names piped into an archiver."""
    for stages in walk(script):
        clipboard = listed = None
        for stage in stages:
            if clipboard is not None and _reads_stdin_as_code(stage):
                text = " | ".join(s.text for s in stages)
                return Verdict(OBFUSCATED, _piece(text), "pipes the clipboard's content into a shell, unread")
            if clipboard is not None and sends_stdin(stage):
                text = " | ".join(s.text for s in stages)
                return Verdict(
                    EXFILTRATION, _piece(text), f"pipes the clipboard to {stage.name}, off the machine"
                )
            if listed is not None and (
                _archives_stdin(stage) or ("xargs" in stage.wrappers and stage.name in _COLLECTORS)
            ):
                text = " | ".join(s.text for s in stages)
                return Verdict(
                    EXFILTRATION,
                    _piece(text),
                    f"gathers {listed} into an archive or one place, ready to carry away",
                )
            if reads_clipboard(stage):
                clipboard = stage
            if stage.name in _LISTERS:
                listed = next(
                    (
                        w
                        for v in _values(stage)
                        if not v.startswith("-") and (w := sensitive_source(v, home, stage.cwd))
                    ),
                    listed,
                )
        staged = _search_staged(stages, home)
        if staged is not None:
            text = " | ".join(s.text for s in stages)
            why = "copies what a search of the user's files finds into a staging place, one by one"
            return Verdict(COLLECTION, _piece(text), why)
    return None


def _archives_stdin(invocation: Invocation) -> bool:
    """``cpio -o``, ``pax -w``, ``tar -T -``, ``zip -@``: an archiver packing the names it reads."""
    values = _values(invocation)
    name = invocation.name
    if name == "cpio":
        return any(v == "--create" or re.fullmatch(r"-\w*o\w*", v) for v in values)
    if name == "pax":
        return any(re.fullmatch(r"-\w*w\w*", v) for v in values) and not [
            v for v in values if not v.startswith("-")
        ]
    if name in ("tar", "bsdtar", "gtar"):
        return any(v in ("-T", "--files-from") for v in values) and "-" in values
    if name == "zip":
        return "-@" in values
    return False
