"""Every spelling of a path, reduced to the one file it names.

The guards judge a path by its name, lexically: symbolic links on disk are not
followed here (the file tools' guard follows them too, :func:`.files.opened_path`), but
the aliases every system has are. A model that wants
``~/.ssh/id_rsa`` can write it as ``$HOME//.ssh/./id_rsa``,
``/proc/self/root/home/me/.ssh/id_rsa``, ``C:\\Users\\me\\.SSH\\ID_RSA``,
``\\\\?\\C:\\Users\\me\\.ssh\\id_rsa::$DATA``, ``%USERPROFILE%\\.ssh\\id_rsa`` or
``file:///home/me/.ssh/id%5Frsa``; :func:`resolve` turns each into
``/home/me/.ssh/id_rsa``, and says when the directory a path starts from is
unknown (``../../etc/shadow`` without a working directory, ``$SOMEDIR/.npmrc``,
another process's ``/proc/PID/cwd``), so that the classifier can assume the
worst place it could be.

Case is kept: the classifier matches without it, because macOS and Windows
homes ignore it.
"""

from __future__ import annotations

import functools
import os
import re
from typing import NamedTuple

from ..lazy_regex import lazy_compile

__all__ = ["Resolved", "display_path", "home_directory", "normalize_path", "resolve"]

_DRIVE = lazy_compile(r"^[A-Za-z]:(?=/|$)")
_DRIVE_RELATIVE = lazy_compile(r"^[A-Za-z]:(?=[^/])")
_STREAM = lazy_compile(r":[^:/]*:\$(?:DATA|INDEX_ALLOCATION)(?=/|$)", re.IGNORECASE)
"""An NTFS stream suffix: ``id_rsa::$DATA`` is ``id_rsa``, ``.ssh::$INDEX_ALLOCATION`` is ``.ssh``."""
_WIN32_DEVICE = lazy_compile(
    r"^//[.?]/(?:physicaldrive\d+|[a-z]:|harddisk\d+partition\d+|harddiskvolume\d+|cdrom\d+|tape\d+)/?$",
    re.IGNORECASE,
)
"""A Win32 device name: a whole disk (``\\\\.\\PhysicalDrive0``) or a raw volume (``\\\\.\\C:``)."""
_NT_DISK = lazy_compile(r"^//[.?]/globalroot/device/(harddisk\d+)/(?:partition|dr)(\d+)/?$", re.IGNORECASE)
_SHADOW_COPY = lazy_compile(
    r"^//[.?]/globalroot/device/harddiskvolume(?:shadowcopy)?\d+(?=/|$)", re.IGNORECASE
)
_VOLUME_GUID = lazy_compile(r"^//[.?]/volume\{[0-9a-f-]+\}(?=/|$)", re.IGNORECASE)
_DEVICE_PREFIX = lazy_compile(r"^//[.?]/(?:unc/|(?=[a-z]:(?:/|$)))", re.IGNORECASE)
"""``\\\\?\\C:\\`` and ``\\\\?\\UNC\\``; ``//./etc/shadow`` is POSIX's ``/etc/shadow``."""
_ADMIN_SHARE = lazy_compile(r"^//[^/]+/[a-z]\$(?=/|$)", re.IGNORECASE)
"""``\\\\host\\c$\\Users``: a drive shared whole, the same files as ``C:\\Users``."""
_VARIABLE = lazy_compile(
    r"^(?:\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::?[-=?+][^}]*)?\}|\$(?:env:)?([A-Za-z_][A-Za-z0-9_]*)"
    r"|%([A-Za-z_][A-Za-z0-9_()]*)%(?:%HOMEPATH%)?)(?=/|$)",
    re.IGNORECASE,
)
_TILDE_USER = lazy_compile(r"^~([A-Za-z0-9_.][A-Za-z0-9_.-]*)(?=/|$)")
_PROC_ALIAS = lazy_compile(r"^proc/[^/]+/(?:task/[^/]+/)?(root|cwd)$")
_FIRMLINKS = lazy_compile(r"^/private(?=/(?:etc|var|tmp)(?:/|$))|^/System/Volumes/Data(?=/)", re.IGNORECASE)
"""macOS: ``/etc`` is ``/private/etc``; the data volume is mounted again at ``/System/Volumes/Data``."""

_HOME_RELATIVE = {
    "home": "", "userprofile": "", "homepath": "", "homedrive": "",
    "appdata": "/AppData/Roaming", "localappdata": "/AppData/Local",
    "xdg_config_home": "/.config", "xdg_data_home": "/.local/share", "xdg_state_home": "/.local/state",
    "xdg_cache_home": "/.cache", "gnupghome": "/.gnupg", "password_store_dir": "/.password-store",
    "cargo_home": "/.cargo", "docker_config": "/.docker", "kubeconfig": "/.kube/config",
    "aws_config_file": "/.aws/config", "aws_shared_credentials_file": "/.aws/credentials",
}  # fmt: skip
"""Variables that name a place in the home directory, where they are not set otherwise."""
_ABSOLUTE = {
    "systemroot": "/Windows", "windir": "/Windows", "systemdrive": "/", "programdata": "/ProgramData",
    "allusersprofile": "/ProgramData", "programfiles": "/Program Files",
    "programfiles(x86)": "/Program Files (x86)", "tmpdir": "/tmp", "temp": "/tmp", "tmp": "/tmp",
}  # fmt: skip


class Resolved(NamedTuple):
    """A path as the file system resolves it, lexically."""

    path: str
    """Absolute where the start is known; relative (maybe ``../...``) where it is not."""
    unknown_start: str | None
    """The part after an unknown directory (``$SOMEDIR/.npmrc``: ``.npmrc``), which may be
    anywhere, the home directory included; None when the start is known or is the working directory."""


def home_directory() -> str:
    """The home directory the guards resolve ``~`` with: ``$HOME``, else the system's."""
    return os.environ.get("HOME") or os.path.expanduser("~")


def normalize_path(path: str, *, cwd: str | None = None, home: str | None = None) -> str:
    """The path as the file system will resolve it, lexically (see :func:`resolve`)."""
    return resolve(path, cwd=cwd, home=home).path


def resolve(path: str, *, cwd: str | None = None, home: str | None = None) -> Resolved:
    """Expands ``~``, ``~user``, ``$HOME``, ``%USERPROFILE%`` and the other variables that
    name a known place; joins a relative path to ``cwd`` when one is given; turns Windows
    spellings (drive letters, backslashes, ``\\\\?\\``, admin shares, streams, trailing
    dots) into POSIX ones; collapses ``..``, ``.``, repeated slashes and the aliases of
    ``/proc/PID/root``, ``/proc/self/cwd`` and macOS's ``/private``. Linear in the path.
    """
    home = (home or home_directory()).rstrip("/") or "/"
    text = path.strip()
    if text[:7].lower() == "file://":
        from urllib.parse import unquote  # only for URLs: the hook process imports this module

        text = unquote(text[7:])
        if text[:10].lower() == "localhost/":
            text = text[9:]
    windows = "\\" in text or text.startswith("%") or "$env:" in text.lower()
    text = text.replace("\\", "/")
    if ":$" in text:  # every stream name (``:name:$DATA``) holds it: other paths skip compiling the pattern
        text = _STREAM.sub("", text)
    windows = windows or bool(_DRIVE.match(text))
    if text[:2] == "//":  # each device, volume and share pattern starts so: other paths skip compiling them
        device = _win32_device(text)
        if device is not None:
            return Resolved(device, None)
        text = _SHADOW_COPY.sub("", _VOLUME_GUID.sub("", text))  # a snapshot or volume of a disk: its root
        prefix = _DEVICE_PREFIX.match(text)
        unc = windows and text[:2] == "//" and prefix is None
        if prefix is not None:
            unc = prefix.group(0).lower().endswith("unc/")  # \\?\UNC\server\share
            text = ("//" if unc else "") + text[prefix.end() :]
        text = _ADMIN_SHARE.sub("", text)
        if unc and text[:2] == "//":
            text = "/" + text[2:].partition("/")[2]  # \\server\Users\me: the share's path, server aside
    if text[:1] == "/" and _DRIVE.match(text.lstrip("/")):
        text = text.lstrip("/")  # file:///C:/Users/me, //C:/Users/me
    if _DRIVE.match(text):
        text = text[2:] or "/"
    elif _DRIVE_RELATIVE.match(text):
        text = text[2:]  # C:file: relative to the drive's working directory
    text, unknown = _expand(text, home=home, cwd=cwd)
    if cwd and not text.startswith("/"):
        base = _resolved_directory(cwd, home)
        text = base.rstrip("/") + "/" + text if base.startswith("/") else text
    resolved = _walk(text, cwd=cwd, windows=windows)
    if unknown is not None:
        start = _walk(unknown, cwd=None, windows=windows).path.lstrip("/") or "."
        return Resolved(resolved.path, start)
    return resolved


@functools.lru_cache(maxsize=256)
def _resolved_directory(cwd: str, home: str) -> str:
    """The working directory, resolved once for the many paths judged against it."""
    return resolve(cwd, home=home).path


def _win32_device(text: str) -> str | None:
    if _WIN32_DEVICE.match(text):
        return "//./" + text[4:].rstrip("/")
    disk = _NT_DISK.match(text)
    if disk:
        return f"//./{disk.group(1)}Partition{disk.group(2)}"
    return None


def _expand(text: str, *, home: str, cwd: str | None) -> tuple[str, str | None]:
    """The path with a leading ``~`` or variable expanded, and what follows an unknown one."""
    if text == "~" or text.startswith("~/"):
        return home + text[1:], None
    if text[:2] in ("~+", "~-") and text[2:3] in ("", "/"):
        start = cwd if text[1] == "+" else None  # ~- is $OLDPWD: somewhere unknown
        return ((start + text[2:]) if start else "." + text[2:]), (None if start else text[3:])
    user = _TILDE_USER.match(text) if text.startswith("~") else None
    if user:
        name = user.group(1)
        return ("/root" if name == "root" else f"/home/{name}") + text[user.end() :], None
    # Checked first: compiling the pattern costs a hook process more than judging its command.
    variable = _VARIABLE.match(text) if text.startswith(("$", "%")) else None
    if variable is None:
        return text, None
    name = next(group for group in variable.groups() if group).lower()
    rest = text[variable.end() :]
    if name in _HOME_RELATIVE:
        return home + _HOME_RELATIVE[name] + rest, None
    if name == "claude_config_dir":  # Claude Code's directory: the Bash tool's value is the hook's own
        chosen = os.path.expanduser(os.environ.get("CLAUDE_CONFIG_DIR") or "")
        return (chosen.rstrip("/") if chosen.startswith("/") else home + "/.claude") + rest, None
    if name in _ABSOLUTE:
        return _ABSOLUTE[name].rstrip("/") + rest or "/", None
    if name == "pwd" and cwd:
        return cwd + rest, None
    return text, rest  # $SOMEDIR/.npmrc: the directory is unknown


def _walk(text: str, *, cwd: str | None, windows: bool) -> Resolved:
    """``..``, ``.`` and ``//`` collapsed, component by component, with ``/proc`` aliases followed."""
    absolute = text.startswith("/")
    parts: list[str] = []
    up = 0  # leading .. of a relative path
    unknown = False
    pieces = text.split("/")
    for index, part in enumerate(pieces):
        if windows and part not in (".", ".."):
            part = _windows_trimmed(part, last=index == len(pieces) - 1)
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            elif not absolute:
                up += 1
            continue
        if absolute and not parts and len(part) == 2 and _DRIVE.match(part):
            continue  # /a/../C: or \C:. trimmed to C: names a drive's root, as a leading /C: does
        parts.append(part)
        if absolute and len(parts) in (3, 5):
            alias = _PROC_ALIAS.match("/".join(parts))
            if alias and alias.group(1) == "root":
                parts = []  # /proc/self/root/etc/shadow is /etc/shadow
            elif alias and parts[1] in ("self", "thread-self") and cwd and cwd.startswith("/"):
                parts = [p for p in _walk(cwd, cwd=None, windows=False).path.split("/") if p]
            elif alias:
                parts, absolute, up, unknown = [], False, 0, True  # another process's cwd: unknown
    if absolute:
        joined = _FIRMLINKS.sub("", "/" + "/".join(parts)) or "/"
        return Resolved(joined, None)
    joined = "/".join([".."] * up + parts) or "."
    return Resolved(joined, joined if unknown else None)


def _windows_trimmed(part: str, *, last: bool) -> str:
    """A component as Windows opens it: ``id_rsa.`` and ``id_rsa .`` are ``id_rsa``, ``...`` is a name."""
    if last:
        return part.rstrip(". ") or part
    return part[:-1] if part.endswith(".") and not part.endswith("..") else part


def display_path(path: str, *, home: str | None = None) -> str:
    """A normalised path with the home directory written as ``~``."""
    home = (home or home_directory()).rstrip("/")
    if home and (path == home or path.startswith(home + "/")):
        return "~" + path[len(home) :]
    return path
