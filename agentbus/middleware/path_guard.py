"""The sensitive-path guards: moved to :mod:`agentbus.guards.files`; this name stays for the installer."""

from ..guards.files import (
    GUARDS,
    SEARCH_PATH_GUARD_ID,
    SECURITY_AUDIT_ID,
    SHELL_FILE_GUARD_ID,
    check_glob,
    check_path,
    check_shell_files,
    install,
)

__all__ = [
    "GUARDS",
    "SEARCH_PATH_GUARD_ID",
    "SECURITY_AUDIT_ID",
    "SHELL_FILE_GUARD_ID",
    "check_glob",
    "check_path",
    "check_shell_files",
    "install",
]
