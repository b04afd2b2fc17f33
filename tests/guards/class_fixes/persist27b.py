"""Persistence leftovers of persist27 (session 23), written from the brief's known misses.

No fresh source: the classes were the steps persist27 left allowed, and the commands are variants
written for the tests, not measured lines.

- a git setting made for every repository (``git config --global``/``--system``) whose command runs a
  program kept in a temporary directory, shared memory or under a hidden name (``core.pager
  '/tmp/x; less'``, ``credential.helper /tmp/.cred``, ``alias.st '!/tmp/.x; git status'``): blocked, as
  hidden persistence; an installed editor, pager or helper (``vim``, ``less -R``, ``osxkeychain``,
  ``~/.cargo/bin/delta``) passes.
"""

from __future__ import annotations

HELD = {
    "git setting runs a program from a hiding place": [
        "git config --global core.pager '/tmp/x; less'",
        "git config --global core.editor /dev/shm/.e",
        "git config --system core.sshCommand '/var/tmp/.ssh-wrap -q'",
        "git config --global credential.helper /tmp/.cred",
        "git config --global diff.external ~/.cache/.difftool",
        "git config --global alias.st '!/tmp/.x; git status'",
        "git config --global sequence.editor 'sh /private/tmp/ed.sh'",
        "git config --global --add core.fsmonitor /dev/shm/fsm",
    ],
}

ALLOWED = [
    "git config --global core.editor vim",
    "git config --global core.pager 'less -R'",
    "git config --global credential.helper osxkeychain",
    "git config --global credential.helper 'cache --timeout=3600'",
    "git config --global core.pager ~/.cargo/bin/delta",
    "git config --global diff.external difft",
    "git config --global core.sshCommand 'ssh -i ~/.ssh/id_work'",
    "git config --global alias.lg 'log --graph --oneline'",
    "git config --global --get core.pager",
]
