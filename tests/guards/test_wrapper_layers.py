"""Each wrapper keeps its own arguments: ``sudo flock -u / sh`` is flock's ``-u``, not sudo's user.

The walk used to keep every wrapper's words in one flat list, so one wrapper's option was read as
another's. These tests hold the layers apart, and the root shells GTFOBins lists for sudo (programs
that run a program named by an option or an operand) are found through them.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbus.guards.danger import check_command
from agentbus.guards.parse import parse
from agentbus.guards.programs import Invocation, Layer, runs_as, shell_mode, walk, wrapper_option
from agentbus.guards.verdict import ACCOUNT, PRIVILEGE

HOME = "/home/dev"


def _invocations(command: str) -> list[Invocation]:
    return [stage for stages in walk(parse(command)) for stage in stages]


def _program(command: str, name: str) -> Invocation:
    return next(i for i in _invocations(command) if i.name == name)


def test_each_wrapper_keeps_its_own_words() -> None:
    sh = _program("sudo flock -u / /bin/sh", "sh")
    assert sh.layers == (Layer("sudo"), Layer("flock", ("-u", "/")))
    assert sh.wrappers == ("sudo", "flock")
    assert sh.options_of("flock") == ("-u", "/")
    assert sh.options_of("sudo") == ()
    assert sh.options_of("nice") is None


def test_a_wrapper_options_are_read_against_its_own_words() -> None:
    assert runs_as(_program("sudo flock -u / /bin/sh", "sh")) == "root"
    assert runs_as(_program("sudo -u dev flock -u / /bin/sh", "sh")) == "dev"
    assert runs_as(_program("sudo -D /usr -u dev nice -n 5 make", "make")) == "dev"
    assert runs_as(_program("sudo -D/usr make", "make")) == "root"  # -D's value is no user
    assert runs_as(_program("sudo -u dev sudo make", "make")) == "root"  # the innermost says who
    assert runs_as(_program("sudo sudo -u dev make", "make")) == "dev"
    assert runs_as(_program("nice -n 5 make", "make")) is None
    assert runs_as(_program("timeout -s KILL 5 doas -u app make", "make")) == "app"


def test_code_a_root_program_hands_on_runs_under_its_layers() -> None:
    vim = _program("sudo -u dev find . -exec vim {} \\;", "vim")
    assert vim.layers == (Layer("sudo", ("-u", "dev")),)
    assert runs_as(vim) == "dev"


@given(
    user=st.from_regex(r"[a-z_][a-z0-9_]{0,10}", fullmatch=True),
    before=st.sampled_from(["", "-H ", "-E ", "-D /tmp ", "-g staff ", "-C 3 ", "--chdir=/srv "]),
    spelling=st.sampled_from(["-u {u}", "-u{u}", "--user={u}", "--user {u}", "-Hu {u}", "-Eu{u}"]),
)
def test_sudo_user_is_found_in_every_spelling_whatever_precedes(
    user: str, before: str, spelling: str
) -> None:
    words = tuple(f"{before}{spelling.format(u=user)}".split())
    assert wrapper_option(Layer("sudo", words), "u", "--user") == user


@given(value=st.from_regex(r"[a-z/._]{1,12}", fullmatch=True))
def test_an_option_value_is_never_read_as_the_user(value: str) -> None:
    for option in ("-D", "-g", "-p", "-C", "-h", "-r", "-t", "-T", "-U"):
        assert wrapper_option(Layer("sudo", (option, value)), "u", "--user") is None
        assert wrapper_option(Layer("sudo", (option + value,)), "u", "--user") is None


# -- root shells through wrappers and runners (GTFOBins' sudo list) ---------------------------------

ROOT_SHELLS = [
    "sudo flock -u / /bin/sh",
    "sudo flock -n /tmp/x.lock /bin/bash",
    "sudo script -q /dev/null",
    "sudo run-parts --new-session --regex '^sh$' /bin",
    "sudo start-stop-daemon -n $RANDOM -S -x /bin/sh",
    "sudo start-stop-daemon --start --startas /bin/bash",
    "sudo fd -x /bin/sh",
    "sudo fdfind . -X /bin/bash",
    "sudo aa-exec /bin/sh",
    "sudo choom -n 0 /bin/sh",
    "sudo valgrind /bin/sh",
    "sudo logsave /dev/null /bin/sh -i",
    "sudo setlock - /bin/sh",
    "sudo softlimit /bin/sh",
    "sudo sshpass /bin/sh",
    "sudo ssh-agent /bin/sh",
    "sudo torify /bin/sh",
    "sudo grc --pty /bin/sh",
    "sudo setarch -3 /bin/sh",
    "sudo setarch x86_64 -R /bin/bash",
    "sudo /lib64/ld-linux-x86-64.so.2 /bin/sh",
    "sudo capsh --",
    "sudo pidstat -e /bin/sh",
    "sudo ksu -q -e /bin/sh",
    "sudo dhclient -sf /bin/sh",
    "sudo perf stat /bin/sh",
    "sudo npm exec /bin/sh",
    "sudo uv run /bin/sh",
    "sudo xdotool exec --sync /bin/sh",
    "sudo cabal exec --project-file=/dev/null -- /bin/sh",
    "sudo bpftrace -c /bin/sh -e 'END {exit()}'",
    "sudo bpftrace --unsafe -e 'BEGIN {system(\"/bin/sh 1<&0\");exit()}'",
    "sudo plymouth ask-for-password --prompt=x --command=/bin/sh",
    "sudo openvpn --dev null --script-security 2 --up '/bin/sh -s'",
    "sudo split --filter='/bin/sh -i 0<&2 1>&2' /etc/hosts",
    "sudo nohup /bin/sh -c '/bin/sh </dev/tty >/dev/tty 2>/dev/tty'",
    "sudo certbot certonly -n -d x --standalone --pre-hook '/bin/sh 1>&0 2>&0'",
    "sudo restic --password-command='/bin/sh -c \"/bin/sh 0<&2 1<&2\"' backup",
    "sudo busctl --address=unixexec:path=/bin/sh,argv1=-c,argv2='/bin/sh -i 0<&2 1>&2'",
    "sudo fzf --bind 'enter:execute(/bin/sh)'",
    "sudo gem open -e '/bin/sh -s' debug",
    "sudo pip config --editor '/bin/sh -s' edit",
    "sudo rpm --eval '%(/bin/sh 1>&2)'",
    "sudo latexmk -pdf -pdflatex='/bin/sh #' /dev/null",
    "sudo yt-dlp 'https://example.com/v' --exec '/bin/sh #'",
    "sudo sg root",
    "sudo systemd-run -S",
    "sudo service ../../bin/sh",
    "sudo tclsh",
    "sudo python3",
    "sudo pwsh",
    "sudo sash",
    "sudo sh 0<&2",
    "sudo bash </dev/tty",
    "sudo PAGER='/bin/sh -c \"exec sh 0<&1\"' git -p help",
]


@pytest.mark.parametrize("command", ROOT_SHELLS)
def test_a_root_shell_through_a_wrapper_or_a_runner_is_blocked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, verdict
    assert (verdict.category, verdict.decision) == (PRIVILEGE, "block"), verdict


RUN = [
    "flock -u / /bin/sh",  # the user's own shell
    "flock /tmp/build.lock make",
    "script -q session.log",  # (fp21: on /dev/null, a pty shell recorded nowhere is a TTY upgrade, blocked)
    "script -q -c 'make test' build.log",
    "run-parts --test /etc/cron.daily",
    "sudo run-parts --test /bin",
    "fd -e py -x wc -l",
    "fd -x /bin/sh",
    "valgrind --leak-check=full ./build/app",
    "sudo valgrind ./build/app",
    "perf stat make -j4",
    "npm exec eslint .",
    "uv run pytest -q",
    "sudo python3 --version",
    "sudo python3 -m http.server 80",
    "sudo ls -l /bin/sh",
    "sudo file /bin/bash",
    "sudo sh 0<&2 <<'EOF'\necho hi\nEOF",
    "setarch x86_64 -R ./a.out",
    "start-stop-daemon -S -x /bin/sh",
    "sudo start-stop-daemon --stop --exec /usr/sbin/nginx",
    "sudo service nginx status",
    "ssh-agent -s",
    "sg docker -c 'docker ps'",
    "echo 'SELECT 1' | sudo -u postgres psql",
]


@pytest.mark.parametrize("command", RUN)
def test_the_same_programs_without_a_root_shell_are_not_blocked_as_one(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is None or (verdict.category != PRIVILEGE and verdict.decision != "block"), verdict


def test_sudo_as_another_user_through_a_wrapper_is_that_users_shell_asked() -> None:
    verdict = check_command("sudo -u postgres flock -u / /bin/sh", home=HOME)
    assert verdict is not None, verdict
    assert (verdict.category, verdict.decision) == (ACCOUNT, "ask"), verdict


# -- privileged mode, read by shell_mode -------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "privileged"),
    [
        ("bash -p", True),
        ("sh -pi", True),
        ("bash -o privileged", True),
        ("bash -e -o privileged -c id", True),
        ("bash +p", False),
        ("bash +o privileged", False),
        ("bash -c 'echo -p'", False),
        ("bash script.sh -p", False),
        ("bash -- -p", False),
        ("bash --rcfile -p", False),
        ("bash -x", False),
    ],
)
def test_privileged_mode_is_read_from_the_shells_own_options(command: str, privileged: bool) -> None:
    shell = _program(command, "bash" if command.startswith("bash") else "sh")
    assert shell_mode(shell).privileged is privileged
    verdict = check_command(command, home=HOME)
    blocked = verdict is not None and verdict.category == PRIVILEGE and "privileged mode" in verdict.why
    assert blocked is privileged, verdict


# -- a shell escape typed at the prompt of a program run as root -------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "sudo debugfs\n!/bin/sh",
        "sudo ftp\n!/bin/sh",
        "sudo smbclient '\\\\host\\share'\n!/bin/sh",
        "sudo zathura\n:! /bin/sh -c 'exec /bin/sh 0<&1'",
        "sudo bconsole\n@exec /bin/sh",
        "sudo scanmem\nshell /bin/sh",
    ],
)
def test_a_shell_escape_typed_into_a_root_program_is_blocked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (PRIVILEGE, "block"), verdict


@pytest.mark.parametrize(
    "command",
    [
        "ftp host\n!ls",  # the user's own prompt
        "sudo apt-get update\n! grep -q nginx /etc/hosts",  # a negated pipeline, not a prompt
        "sudo tee /etc/motd < motd.txt\n!true",  # its input is a file, not the terminal
        "sudo ls /root\nshell_check",
    ],
)
def test_lines_after_a_root_program_that_are_no_escape_into_it_pass(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is None or "shell escape" not in verdict.why, verdict
