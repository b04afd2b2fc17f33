"""Tactic family ``impact``: shutting the machine down, killing everything, destroying the user's data."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbus.guards.danger import check_command
from agentbus.guards.policy import Policy
from agentbus.guards.tactics.impact import user_data, users_file
from agentbus.guards.verdict import (
    DATA_DESTRUCTION,
    RESOURCE_HIJACK,
    SERVICE,
    SHARED_WIPE,
    SHUTDOWN,
    UNJUDGED_SCRIPT,
)

HOME = "/home/dev"

STOPS = [
    "shutdown -h now",
    "sudo /sbin/reboot --force",
    "systemctl poweroff",
    "systemctl start reboot.target",
    "init 6",
    "echo b > /proc/sysrq-trigger",
    "printf o | sudo tee /proc/sysrq-trigger >/dev/null",
    "loginctl terminate-user dev",
    "osascript -e 'tell application \"System Events\" to restart'",
    "nohup sh -c 'sleep 60; reboot' &",
    "kill -9 -1",
    "kill -s KILL -1",
    "kill -TERM 1",
    "kill $(ps -eo pid=)",
    "ps aux | awk 'NR>1{print $2}' | xargs kill -9",
    "pkill -9 -u dev",
    "pkill -f .",
    "killall5 -9",
    "killall -9 Finder Dock",
    "sudo pkill -9 launchd",
]
DESTROYS = [
    "rm -rf ~/Documents ~/Pictures",
    "rm -rf /Users/dev/Desktop",
    "shred -u ~/Documents/*",
    "truncate -s 0 ~/Documents/*.docx",
    "find ~ -type f -exec gpg --batch -c --passphrase k {} \\; -delete",
    "find /home -name '*.docx' -delete",
    'for f in $(find ~ -type f -name \'*.doc*\'); do gpg -c "$f" && rm -f "$f"; done',
    "zip -r -e -P x -m ~/a.zip ~/Pictures",
    "7z a -pX -sdel ~/all.7z ~/Documents",
    "ccrypt -e -r -K key ~/Documents",
    "dd if=/dev/zero of=$HOME/fill bs=1M",
    "rm -rf /var/lib/postgresql",
    "redis-cli FLUSHALL",
    "aws s3 rm s3://company-backups --recursive",
    "git push --force origin :main",
]
ORDINARY = [
    "rm -rf build dist node_modules",
    "rm -rf ~/.cache/pip",
    "rm -rf ~/Downloads/tmp-extract",
    "rm ~/Desktop/screenshot.png",
    "find ~/Downloads -name '*.dmg' -mtime +30 -delete",
    "find . -name '*.pyc' -delete",
    "dd if=/dev/urandom of=random.bin bs=1k count=16",
    "redis-cli -n 15 FLUSHDB",
    "git push origin --delete feature/old",
    "shutdown -c",
    "shutdown --help",
    "systemctl --user restart myapp",
    "kill -9 %1",
    "kill -HUP 1234",
    "kill -l",
    "pkill -f 'npm run dev'",
    "pkill -u dev -f jest",
    "killall Dock",
    "ps aux | grep node | awk '{print $2}' | xargs kill",
    "cat /proc/sys/kernel/sysrq",
    "psql -c 'DROP DATABASE IF EXISTS app_test'",
]


@pytest.mark.parametrize("command", STOPS)
def test_stopping_the_machine_or_every_process_is_a_shutdown(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert verdict.category == SHUTDOWN
    assert verdict.decision == "block"


@pytest.mark.parametrize("command", DESTROYS)
def test_destroying_the_users_data_is_data_destruction(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    # rm -rf of a whole home folder may be seed 000's filesystem rule first; either blocks.
    assert verdict.category in (DATA_DESTRUCTION, "filesystem destruction")
    assert verdict.decision == "block"


@pytest.mark.parametrize("command", ORDINARY)
def test_cleaning_up_and_stopping_ones_own_processes_are_ordinary(command: str) -> None:
    assert check_command(command, home=HOME) is None


def test_the_policy_decides_what_a_reboot_and_a_wipe_do() -> None:
    ask = Policy(verdicts={SHUTDOWN: "ask", DATA_DESTRUCTION: "ask"})
    for command in ("reboot", "shred -u ~/Documents/*"):
        verdict = check_command(command, home=HOME, policy=ask)
        assert verdict is not None
        assert verdict.decision == "ask"
        unattended = check_command(
            command, home=HOME, policy=Policy(verdicts=dict(ask.verdicts), profile="unattended")
        )
        assert unattended is not None
        assert unattended.decision == "block"
    allow = Policy(verdicts={SHUTDOWN: "allow"})
    assert check_command("reboot", home=HOME, policy=allow) is None
    assert check_command("shred -u ~/Documents/*", home=HOME, policy=allow) is not None


FOLDERS = st.sampled_from(["Documents", "Desktop", "Pictures", "Music", "Movies", "Library", ".local/share"])
NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-", min_size=1, max_size=12)


@given(
    FOLDERS, st.sampled_from(["", "/*", "/*.jpg", "/"]), st.sampled_from(["~", "$HOME", HOME, "/Users/dev"])
)
def test_a_whole_data_folder_or_every_file_in_it_is_the_users_data(folder: str, tail: str, home: str) -> None:
    assert user_data(f"{home}/{folder}{tail}", HOME) is not None


@given(FOLDERS, NAMES)
def test_one_named_file_or_folder_inside_is_not(folder: str, name: str) -> None:
    assert user_data(f"~/{folder}/{name}", HOME) is None


@given(st.sampled_from(["-9", "-KILL", "-s KILL", "-TERM", "-HUP", "-SIGKILL", ""]),
       st.integers(min_value=2, max_value=99999))  # fmt: skip
def test_killing_one_process_by_pid_is_ordinary_whatever_the_signal(signal: str, pid: int) -> None:
    assert check_command(f"kill {signal} {pid}", home=HOME) is None
    assert check_command(f"kill {signal} -- -1", home=HOME) is not None


# -- one file of the user's encrypted or shredded, free space wiped, daemons killed, miners ------------

ENCRYPTS = [
    "ccencrypt -T -K passwd /tmp/passwd",  # in place: even a scratch copy is replaced by ciphertext
    "W=`which ccencrypt`; $W -K k ~/notes.txt",  # the program looked up into a variable
    "7z a -p ARTPass -mhe=on ARTArchive.7z ~/test.txt",
    "openssl enc -pbkdf2 -in ~/test.txt -out ARTFile",
    "openssl aes-256-cbc -k x -in ~/Documents/a.pdf -out a.enc",
    "gpg -c --batch --passphrase p ~/notes.txt",
    "gpg -e -r someone@example.org /home/dev/Documents/contract.pdf",
    "zip --password x ~/archive.zip ~/Desktop/plan.odt",
    "age -p -o ~/diary.age ~/diary.txt",
    "shred -u -z ~/Documents/thesis.tex",
    "sfill -v /",
    "cat /dev/urandom > ~/fill.bin",
]
KEPT = [
    "gpg -c --batch --passphrase-file .pass dist/release.tar.gz",  # the project's own files
    "openssl enc -aes-256-cbc -pbkdf2 -in fixtures/plain.txt -out fixtures/plain.enc -pass pass:t",
    "openssl enc -base64 -in ~/photo.jpg -out photo.b64",  # encoding, not encryption
    "openssl enc -d -aes-256-cbc -in ~/backup.enc -out backup.tar",  # decrypting
    "gpg --decrypt ~/Downloads/notes.gpg",
    "7z a build/artifacts.7z ~/notes.txt",  # no password: an archive
    "age -d -i key.txt ~/secrets.age",
    "shred -u /tmp/victim-shred.txt",  # scratch
    "sfill /mnt/usb-stick",
    "cat /dev/urandom | head -c 32 > key.bin",
    "yes > /dev/null",
]


@pytest.mark.parametrize("command", ENCRYPTS)
def test_encrypting_or_wiping_a_users_file_outside_the_project_is_data_destruction(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (DATA_DESTRUCTION, "block")


@pytest.mark.parametrize("command", KEPT)
def test_the_projects_files_decrypting_and_scratch_are_ordinary(command: str) -> None:
    assert check_command(command, home=HOME) is None


DAEMON_KILLS = [
    "sudo killall -SIGTERM cron",
    "sudo kill -SIGTERM $(pgrep cron)",
    "sudo pkill -SIGTERM ^cron$",
    "kill -9 $(pidof crond)",
    "kill $(cat /var/run/crond.pid)",
    "sudo killall -KILL cupsd",
    "sudo kill -TERM $(pgrep -x postgres)",  # a server, as root: the system's service
]


@pytest.mark.parametrize("command", DAEMON_KILLS)
def test_killing_a_system_daemon_asks_like_stopping_its_service(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (SERVICE, "ask")
    unattended = check_command(command, home=HOME, policy=Policy(profile="unattended"))
    assert unattended is not None
    assert unattended.decision == "block"


@pytest.mark.parametrize(
    "command", ["killall -HUP cron", "pkill -x postgres", "kill -0 $(pgrep cron)", "pkill -f cron-job.py"]
)
def test_reloading_a_daemon_or_stopping_ones_own_server_is_ordinary(command: str) -> None:
    assert check_command(command, home=HOME) is None


MINERS = [
    "./xmrig -o stratum+tcp://pool.example:4444 -u wallet -k --donate-level 1",
    "nohup xmrig --url pool.example:443 --user wallet --tls > /dev/null 2>&1 &",
    "/tmp/.x/kdevtmpfsi",
    "./run --algo=rx/0 -o 198.51.100.7:3333",
    "python3 miner.py --pool stratum+ssl://pool.example:5555",
    "docker run -d --restart always metal3d/xmrig",
]


@pytest.mark.parametrize("command", MINERS)
def test_a_cryptocurrency_miner_is_resource_hijacking(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (RESOURCE_HIJACK, "block")
    # A miner in a hidden directory of /tmp is also a program run from where payloads hide (asked).
    allowed = Policy(verdicts={RESOURCE_HIJACK: "allow", UNJUDGED_SCRIPT: "allow"})
    assert check_command(command, home=HOME, policy=allowed) is None


@given(st.sampled_from(["/etc/passwd", "~/a.txt", "$HOME/b", "/home/other/c", "/srv/data/d"]), NAMES)
def test_a_file_outside_the_project_is_the_users_wherever_the_project_is(path: str, cwd_name: str) -> None:
    cwd = f"{HOME}/project-{cwd_name}"
    assert users_file(path, HOME, cwd) is not None
    assert users_file(f"{cwd}/x.txt", HOME, cwd) is None
    assert users_file("x.txt", HOME, None) is None
    assert users_file("/tmp/x", HOME, cwd) is None
    assert users_file("/tmp/x", HOME, cwd, scratch=True) == "/tmp/x"


@pytest.mark.parametrize(
    "command",
    [
        "rm -f /etc/phpguard",
        "rm /etc/zzh",
        "sudo rm -f /etc/svcupdate",
        "rm -rf /usr/share/\\[crypto\\]",
        "rm -rf /usr/lib/python3/dist-packages/apt",
        "unlink /etc/hostname.bak",
        "rm -f /private/etc/hosts.equiv",
        "shred -u /boot/grub/grub.cfg",
    ],
)
def test_deleting_a_file_of_the_operating_system_is_system_file_corruption(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert verdict.decision == "block"
    assert verdict.category == "system file corruption"


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf /usr/local/lib/node_modules/left-pad",
        "rm -f /tmp/build.log",
        "rm -rf build/ dist/",
        "rm -f etc/config.yaml",  # the project's etc/
        "ls /etc/nginx",
        "cat /usr/share/dict/words",
    ],
)
def test_deleting_the_projects_or_usr_locals_files_runs(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is None or verdict.category != "system file corruption"


@pytest.mark.parametrize(
    "command",
    [
        "ps aux | grep -vw sic/sic | grep -v grep | awk '{if($3>80.0) print $2}' | xargs -I % kill -9 %",
        "ps -ef | grep -v $$ | awk '{print $2}' | xargs kill -9",
    ],
)
def test_a_ps_listing_only_excluded_from_then_killed_kills_everything_else(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert verdict.category == SHUTDOWN


def test_a_ps_listing_picked_by_name_then_killed_is_not_mass_killing() -> None:
    verdict = check_command("ps aux | grep -v grep | grep node | awk '{print $2}' | xargs kill", home=HOME)
    assert verdict is None or verdict.category != SHUTDOWN


@pytest.mark.parametrize(
    "command",
    [
        'ps ax| awk \'length($5) == 8\'|grep -v bin|grep -v "\\["|grep -v "("|grep -v proxymap'
        "| awk '{print $1}'|xargs -I % kill -9 %",
        "ps -eo pid,pcpu | awk '$2 > 50 {print $1}' | xargs kill",
    ],
)
def test_a_ps_listing_picked_by_a_number_not_a_name_then_killed_is_mass_killing(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert verdict.category == SHUTDOWN


@pytest.mark.parametrize(
    "command",
    [
        # held-out sample 7: the kill step a while-read loop, not xargs
        "ps axf -o \"pid %cpu\" | awk '{if($2>=40.0) print $1}'"
        " | while read procid; do kill -9 $procid; done",
        "ps aux | grep -v grep | awk '{print $2}' | while read -r p; do kill -9 \"$p\"; done",
    ],
)
def test_a_ps_listing_read_by_a_loop_that_kills_is_mass_killing(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert verdict.category == SHUTDOWN


@pytest.mark.parametrize(
    "command",
    [
        "ps aux | grep node | awk '{print $2}' | while read p; do kill $p; done",
        "ps aux | awk '{print $2}' | while read p; do echo $p; done",
    ],
)
def test_a_loop_over_processes_picked_by_name_or_that_kills_nothing_runs(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is None or verdict.category != SHUTDOWN


@pytest.mark.parametrize(
    "command",
    [
        "ps aux | awk '$11 == \"node\" {print $2}' | xargs kill",
        "ps aux | awk '$11 ~ /python/ {print $2}' | xargs kill",
        "ps -ef | awk -v n=$NAME '$8 == n {print $2}' | xargs kill",
    ],
)
def test_a_ps_listing_picked_by_a_name_in_awk_then_killed_is_not_mass_killing(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is None or verdict.category != SHUTDOWN


@pytest.mark.parametrize(
    "command",
    [
        "/bin/bash $HOME/moneroocean/miner.sh --config=$HOME/moneroocean/config_background.json",
        "sh /tmp/.x/xmrig.sh",
        "./systemd-helper --cpu-max-threads-hint=75 --url pool.example:443",
        "/var/tmp/.k/kworker --randomx-1gb-pages -u 4Abc",
        "/tmp/sysupdate --max-cpu-usage 90",
        "wrmsr -a 0xc001102b 0x2000cc14",
        "wrmsr -a 0x1a4 0xf",
    ],
)
def test_a_miner_under_another_name_or_through_its_wrapper_script_is_resource_hijacking(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert verdict.category == RESOURCE_HIJACK
    assert verdict.decision == "block"


@pytest.mark.parametrize(
    "command", ["bash scripts/build.sh --config=ci.json", "sh ./install.sh", "wrmsr -p0 0x150 0x80000011"]
)
def test_an_ordinary_script_or_msr_write_is_not_resource_hijacking(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is None or verdict.category != RESOURCE_HIJACK


@pytest.mark.parametrize(
    "command",
    ["rm -f $(command -v chattr) 2>/dev/null", "rm -f `which curl`", "sudo rm $(type -P wget)"],
)
def test_a_program_deleted_where_the_path_finds_it_is_system_file_corruption(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert verdict.category == "system file corruption"


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("cp x $(which ls)", "overwrites the program ls wherever the PATH finds it"),
        ("mv $(which curl) /tmp/c", "moves away the program curl wherever the PATH finds it"),
        ('mv "$(command -v wget)" /usr/bin/wls', "moves away the program wget wherever the PATH finds it"),
        ("cp $(which curl) /usr/bin/cur", "overwrites /usr/bin/cur, a system program or the boot loader"),
        ("cp /lib/udev/udev /lib/udev/debug", "overwrites /lib/udev/debug, the system's libraries"),
    ],
)
def test_a_program_replaced_or_moved_where_the_path_finds_it_is_system_file_corruption(
    command: str, why: str
) -> None:
    """A word made at run time still takes its place among cp's operands: the last is the target."""
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert verdict.category == "system file corruption"
    assert verdict.why.startswith(why)


@pytest.mark.parametrize(
    "command",
    ["cp $(which curl) ./vendored-curl", "mv $(mktemp) out.txt", "ln -s $(which python3) ~/.local/bin/py"],
)
def test_a_program_copied_from_where_the_path_finds_it_into_the_project_runs(command: str) -> None:
    assert check_command(command, home=HOME) is None


def test_a_file_named_by_another_substitution_is_not_a_looked_up_program() -> None:
    verdict = check_command("rm -f $(mktemp)", home=HOME)
    assert verdict is None or verdict.category != "system file corruption"


# -- processes picked by a shape, and a shared directory emptied (held-out misses, session 2) --------

SHAPE_KILLS = [
    "ps aux | awk '$11 ~ /^\\.\\// {print $2}' | xargs kill -9",
    'ps aux | grep -v grep | awk \'{ if(substr($11,1,2)=="./" && substr($12,1,2)=="./") print $2 }\''
    " | xargs -r kill -9",
    "ps -eo pid,args | awk '$2 ~ /^\\/tmp\\// {print $1}' | xargs kill -9",
    "ps axo pid,args | awk '$2 ~ \"^/dev/shm/\" {print $1}' | xargs -r kill -KILL",
    "pkill -9 -f '^\\./'",
    "pkill -f '/tmp/\\.'",
    "ps -ef | grep -v grep | grep '\\./' | awk '{print $2}' | xargs kill -9",
    "kill -9 $(ps aux | awk '$11 ~ /^\\.\\// {print $2}')",
]
NAME_KILLS = [
    "ps aux | awk '/webpack/ {print $2}' | xargs kill",
    "ps -ef | awk '$8 == \"gunicorn\" {print $2}' | xargs kill -HUP",
    "ps aux | awk '$11 ~ /vite/ {print $2}' | xargs -r kill",
    "ps aux | awk -v n=node '$11 ~ n {print $2}' | xargs kill",
    "pkill -f ./server",
    "pkill -f 'python manage.py runserver'",
    "kill -9 $(ps aux | awk '/node/ {print $2}')",
    "kill $(ps aux | grep '[g]unicorn' | awk '{print $2}')",
]


@pytest.mark.parametrize("command", SHAPE_KILLS)
def test_killing_every_process_of_a_shape_is_a_shutdown(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (SHUTDOWN, "block")
    assert check_command(command, home=HOME, policy=Policy(verdicts={SHUTDOWN: "ask"})).decision == "ask"


@pytest.mark.parametrize("command", NAME_KILLS)
def test_killing_processes_picked_by_a_name_is_ordinary(command: str) -> None:
    assert check_command(command, home=HOME) is None


PLACES = {
    "tmp",
    "var",
    "dev",
    "shm",
    "run",
    "usr",
    "local",
    "bin",
    "sbin",
    "opt",
    "home",
    "root",
    "proc",
    "lib",
}


@given(
    st.from_regex(r"[a-z][a-z0-9_-]{2,12}", fullmatch=True).filter(lambda w: w not in PLACES | {"private"})
)
def test_any_name_in_the_filter_spares_the_rest(name: str) -> None:
    assert check_command(f"ps aux | awk '$11 ~ /{name}/ {{print $2}}' | xargs kill -9", home=HOME) is None
    assert check_command(f"ps aux | awk '$11 == \"{name}\" {{print $2}}' | xargs kill -9", home=HOME) is None


WIPES = [
    "rm -rf /tmp/*",
    "rm -fr /tmp/ 2>/dev/null",
    "rm -f /var/tmp/*",
    "rm -rf /dev/shm/*",
    "sudo rm -rf /tmp/* /var/tmp/*",
    "rm -rf /tmp",
    "find /tmp -mindepth 1 -delete",
    "rm -rf /private/tmp/*",
]
NOT_WIPES = [
    "rm -rf /tmp/build-cache",
    "rm -f /tmp/*.lock",
    "rm -rf /tmp/pytest-of-dev/*",
    "find /tmp -maxdepth 1 -name 'tmp*.json' -mtime +1 -delete",
    'rm -rf "$TMPDIR"/myapp-*',
    'rm -rf -- "$tmpdir"',
    "rm /tmp/x",
]


@pytest.mark.parametrize("command", WIPES)
def test_everything_in_a_shared_directory_deleted_is_asked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (SHARED_WIPE, "ask")
    assert "every user and running program share" in verdict.reason
    unattended = check_command(command, home=HOME, policy=Policy(profile="unattended"))
    assert unattended is not None
    assert unattended.decision == "block"
    assert check_command(command, home=HOME, policy=Policy(verdicts={SHARED_WIPE: "allow"})) is None


@pytest.mark.parametrize("command", NOT_WIPES)
def test_some_files_of_a_shared_directory_deleted_is_ordinary(command: str) -> None:
    assert check_command(command, home=HOME) is None


BUSY_OR_SHAPED_KILLS = [
    # a CPU threshold, then a name check in the loop's body: competitor miners killed
    (
        "ps aux | awk '$3>50{print $2}' | while read p; do grep -q xmr /proc/$p/cmdline && kill -9 $p; done",
        RESOURCE_HIJACK,
    ),
    (
        "ps aux | awk '$3>50{print $2}' | while read p; do grep -q mine /proc/$p/cmdline || kill -9 $p; done",
        RESOURCE_HIJACK,
    ),
    ("kill -9 $(ps aux | grep -v grep | grep xmrig | awk '{if($3>40.0) print $2}')", SHUTDOWN),
    # PIDs through a file, then killed
    ("ps aux | awk '$3>40{print $2}' > /tmp/p; kill -9 $(cat /tmp/p)", SHUTDOWN),
    (
        "ps aux | grep -v grep | awk '{if($3>40.0) print $2}' > /tmp/proc; "
        "while read p; do kill -9 $p; done < /tmp/proc",
        SHUTDOWN,
    ),
    ("ps -ef | awk '{print $2}' > pids.txt; xargs kill -9 < pids.txt", SHUTDOWN),
    ("ps aux | awk '$3>40{print $2}' > /tmp/p\ncat /tmp/p | xargs kill -9", SHUTDOWN),
    ("pgrep -f '^\\./' > /tmp/p; kill -9 $(cat /tmp/p)", SHUTDOWN),
    ("pgrep sshd > /tmp/p; xargs kill < /tmp/p", SHUTDOWN),
    # a shape with an option letter in it
    ("ps ax|grep -o './[0-9]* -c'| xargs pkill -f", SHUTDOWN),
]
KILLS_BY_NAME = [
    "ps aux | grep node | awk '{print $2}' > /tmp/p; kill $(cat /tmp/p)",
    'pgrep -f "node server" > pids; kill $(< pids)',
    "pgrep -f gunicorn > run/pids; xargs kill -HUP < run/pids",
    "ps aux | awk '{print $2}' > /tmp/p; cat /tmp/p",
    "kill $(cat /var/run/app.pid)",
]


@pytest.mark.parametrize(("command", "category"), BUSY_OR_SHAPED_KILLS)
def test_busy_or_shaped_processes_killed_are_blocked(command: str, category: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (category, "block"), verdict


@pytest.mark.parametrize("command", KILLS_BY_NAME)
def test_processes_killed_by_name_through_a_file_run(command: str) -> None:
    assert check_command(command, home=HOME) is None


def test_the_policy_decides_what_a_miner_clearing_the_cpu_does() -> None:
    command = BUSY_OR_SHAPED_KILLS[0][0]
    asked = check_command(command, home=HOME, policy=Policy(verdicts={RESOURCE_HIJACK: "ask"}))
    assert asked is not None
    assert asked.decision == "ask"
    assert check_command(command, home=HOME, policy=Policy(verdicts={RESOURCE_HIJACK: "allow"})) is None


@given(
    st.integers(min_value=1, max_value=99), st.sampled_from(["$3", "$2", "$4"]), st.sampled_from([">", ">="])
)
def test_any_load_threshold_before_a_kill_is_held(threshold: int, column: str, compare: str) -> None:
    command = f"ps aux | grep -v mine | awk '{{if({column}{compare}{threshold}.0) print $2}}' | xargs kill -9"
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert verdict.decision == "block"


# -- a miner known by the wallet it logs in with (held-out sample 10) -----------------------------------

WALLET = "48d3UXd1EWuYuJitB3aYM5GpQ3Tx9fPRTKukHWCkLjQ9WrxGVgR3e1G9DLbQrzGMjcVUX5ieMwZBvFTG33YLufj5bw6ARdQ"


@pytest.mark.parametrize(
    "command",
    [
        f"./job -o pool.example.net:443 -u {WALLET} -p x -k --tls",
        f"./.s --url=pool.example.net:443 --user={WALLET}.rig7",
        f"kworker -u{WALLET}+50000 -o pool.example.net:3333",
    ],
)
def test_a_pool_login_with_a_monero_wallet_is_resource_hijacking(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (RESOURCE_HIJACK, "block")
    # allowed as a category, mining holds nothing back; a hidden program's name (./.s) is still asked
    remaining = check_command(command, home=HOME, policy=Policy(verdicts={RESOURCE_HIJACK: "allow"}))
    if command.startswith("./."):
        assert remaining is not None
        assert (remaining.category, remaining.decision) == (UNJUDGED_SCRIPT, "ask")
    else:
        assert remaining is None


@pytest.mark.parametrize(
    "command",
    [
        "curl -u deploy:secret -O https://ci.example.com/a.zip",
        f"echo {WALLET} > wallet.txt",
        "./job -u 4" + "1" * 60,  # too short for an address
        "git diff -u HEAD~1",
    ],
)
def test_other_logins_and_a_wallet_merely_written_are_not_mining(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is None or verdict.category != RESOURCE_HIJACK
