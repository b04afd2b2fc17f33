"""Persistence leftovers of persist27 (session 23), written from the brief's known misses.

No fresh source: the classes were the steps persist27 left allowed, and the commands are variants
written for the tests, not measured lines.

- a git setting made for every repository (``git config --global``/``--system``) whose command runs a
  program kept in a temporary directory, shared memory or under a hidden name (``core.pager
  '/tmp/x; less'``, ``credential.helper /tmp/.cred``, ``alias.st '!/tmp/.x; git status'``): blocked, as
  hidden persistence; an installed editor, pager or helper (``vim``, ``less -R``, ``osxkeychain``,
  ``~/.cargo/bin/delta``) passes.
- a program whose directory is found at run time but whose name is fixed
  (``/usr/src/linux-headers-$(uname -r)/scripts/sign-file …``): judged by that name, as
  ``$KDIR/scripts/sign-file`` was (sign-file: asked, as persist27 decided; ``$(dirname $0)/rm -rf /``
  blocked as rm); a name itself computed (``/bin/$(x)``) stays unknown.
- dkms given a module source in shared memory or under a hidden name (``dkms add /tmp/.rk``,
  ``--sourcetree /dev/shm/x``, ``ldtarball /var/tmp/.c/rk.tar.gz``): blocked as hidden persistence;
  ``add``/``build`` of a source elsewhere (``/usr/src``, ``./driver``, ``/tmp/v4l2loopback``) still passes.
- already held when checked (kept here as regression rows): a macOS app's library swapped by
  ``install_name_tool`` (blocked) and a PAM module copied into any ``security`` directory (blocked).
  Compiling one (``gcc -shared … -lpam``) passes: the build changes nothing, its install is held.
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
    "fixed program name in a computed directory": [
        "/usr/src/linux-headers-$(uname -r)/scripts/sign-file sha256 key.priv key.der mod.ko",
        "sudo /usr/src/kernels/`uname -r`/scripts/sign-file sha512 MOK.priv MOK.der x.ko",
        '"$(dirname "$0")"/rm -rf /',
    ],
    "dkms source hidden": [
        "dkms add /tmp/.rk",
        "sudo dkms build -m rk -v 1.0 --sourcetree /dev/shm/x",
        "dkms add -m k -v 1 --sourcetree=/var/tmp/.cache/src",
        "dkms ldtarball /var/tmp/.c/rk.tar.gz",
    ],
    "library swapped in an installed app": [
        "install_name_tool -change /usr/lib/libz.dylib @rpath/x.dylib /Applications/App.app/Contents/MacOS/A",
        "sudo install_name_tool -add_rpath /Users/Shared/.lib /Applications/Zoom.app/Contents/MacOS/zoom.us",
    ],
    "PAM module installed": [
        "cp pam_x.so /lib/security/",
        "sudo install -m 644 pam_x.so /usr/lib64/security/pam_x.so",
        "sudo cp pam_x.so /usr/lib/x86_64-linux-gnu/security/pam_unix.so",
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
    "$(go env GOPATH)/bin/golangci-lint run",
    '"$(git rev-parse --show-toplevel)"/scripts/lint.sh',
    "$(npm bin)/eslint .",
    "dkms status",
    "dkms add ./driver",
    "sudo dkms add /usr/src/v4l2loopback-0.12.7",
    "dkms add /tmp/v4l2loopback",
    "sudo dkms build -m v4l2loopback -v 0.12.7",
    "install_name_tool -add_rpath @loader_path/../lib dist/MyApp.app/Contents/MacOS/MyApp",
    "install_name_tool -id @rpath/libfoo.dylib libfoo.dylib",
    "gcc -shared -fPIC -o pam_x.so pam_x.c -lpam",
]
