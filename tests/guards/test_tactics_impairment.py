"""The impairment family: traces destroyed and defenses turned off are blocked; reading them is not."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import agentbus
from agentbus.guards.danger import check_command
from agentbus.guards.parse import parse
from agentbus.guards.policy import Policy
from agentbus.guards.programs import walk
from agentbus.guards.tactics.writes import Write, writes
from agentbus.guards.verdict import EVIDENCE, IMPAIR, SERVICE, SYSTEM_CONFIG, SYSTEM_FILES
from agentbus.middleware import builtin

HOME = "/home/dev"


def verdict_of(command: str, policy: Policy | None = None) -> tuple[str, str | None]:
    verdict = check_command(command, home=HOME, policy=policy)
    return ("allow", None) if verdict is None else (verdict.decision, verdict.category)


@pytest.mark.parametrize(
    "command",
    [
        "rm -f /var/log/auth.log*",
        "truncate -s0 /var/log/syslog",
        "sudo truncate --size 0 /var/log/kern.log",
        ": > /var/log/wtmp",
        "cat /dev/null | sudo tee /var/log/syslog",
        "ln -sf /dev/null /var/log/audit/audit.log",
        "mv /var/log/auth.log /tmp/.a",
        "cp /dev/null /private/var/log/system.log",
        "sed -i '/203.0.113.7/d' /var/log/auth.log",
        "dd if=/dev/null of=/var/log/secure",
        "shred -n 3 -u /var/log/audit/audit.log.1",
        "find /var/log -name '*.gz' -delete",
        "find /var/log -type f -exec truncate -s0 {} +",
        'for f in /var/log/*.log; do : > "$f"; done',
        "rm -rf /run/log/journal",
        "sudo rm -rf /var/db/diagnostics/*",
        "journalctl --vacuum-time=1s",
        "log erase --all",
        "rm ~/.bash_history",
        "rm -f /root/.zsh_history",
        "> ~/.local/share/fish/fish_history",
        "ln -sf /dev/null ~/.python_history",
        "unset HISTFILE",
        "export HISTFILE=/dev/null",
        "HISTSIZE=0",
        "HISTFILE= bash",
        "set +o history",
        "history -c",
        "touch -r /etc/hostname /usr/bin/backdoor",
        "cd /var/log && truncate -s0 *",
        "exec 3>/var/log/auth.log",
        "declare -x HISTFILE=/dev/null",
        "sqlite3 ~/Library/Preferences/com.apple.LaunchServices.QuarantineEventsV2 'delete from x'",
        "sudo truncate -s 0 /var/lib/docker/containers/*/*-json.log",
        "echo 0> /var/spool/mail/root",
        "osascript -e 'do shell script \"rm /var/log/system.log\" with administrator privileges'",
        "date 010100001971",
        "sudo date -s '2001-01-01 00:00'",
        "timedatectl set-time '2001-01-01'",
    ],
)
def test_destroying_evidence_is_blocked(command: str) -> None:
    decision, category = verdict_of(command)
    assert decision == "block"
    assert category in (EVIDENCE, SYSTEM_FILES)  # seed 000's rule may name a file in /etc first


@pytest.mark.parametrize(
    "command",
    [
        "iptables -F",
        "iptables -t nat -F",
        "iptables -P INPUT ACCEPT",
        "iptables --table filter --policy INPUT ACCEPT",
        "iptables -I INPUT -s 203.0.113.7 -j ACCEPT",
        "nft flush ruleset",
        "nft 'flush ruleset'",
        "ufw disable",
        "ufw default allow incoming",
        "pfctl -d",
        "/usr/libexec/ApplicationFirewall/socketfilterfw --setglobalstate off",
        "setenforce 0",
        "aa-teardown",
        "apparmor_parser -R /etc/apparmor.d/usr.sbin.cupsd",
        "echo 0 | sudo tee /sys/fs/selinux/enforce",
        "sed -i 's/SELINUX=enforcing/SELINUX=disabled/' /etc/selinux/config",
        "systemctl stop auditd",
        "sudo systemctl disable --now apparmor.service",
        "systemctl mask systemd-journald",
        "service rsyslog stop",
        "/etc/init.d/auditd stop",
        "sudo launchctl bootout system /Library/LaunchDaemons/com.crowdstrike.falcond.plist",
        "pkill -9 syslogd",
        "kill -9 $(pgrep auditd)",
        "kill -9 $(cat /var/run/auditd.pid)",
        "invoke-rc.d rsyslog stop",
        "sudo apt-get purge -y auditd",
        "sudo sentinelctl unprotect",
        "auditctl -D",
        "auditctl -e 0",
        "sysctl -w kernel.yama.ptrace_scope=0",
        "echo 0 > /proc/sys/kernel/randomize_va_space",
        "spctl --master-disable",
        "csrutil disable",
        "xattr -d com.apple.quarantine ~/Downloads/tool",
        "defaults write com.apple.LaunchServices LSQuarantine -bool NO",
        "tccutil reset All",
        "cp evil.crt /usr/local/share/ca-certificates/ && update-ca-certificates",
        "security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain x.crt",
        "trust anchor ./ca.pem",
        "certutil -A -n x -t C,, -i x.crt -d sql:$HOME/.pki/nssdb",
        "keytool -importcert -file x.crt -cacerts -storepass changeit -noprompt",
        "mkcert -install",
        "git config --global http.sslVerify false",
        "npm config set strict-ssl=false",
        "export NODE_TLS_REJECT_UNAUTHORIZED=0",
        "iptables -D OUTPUT -p tcp --dport 21 -j DROP",
        "echo 'pass all' | pfctl -a x -f -",
        "iptables-restore < /tmp/open.rules",
        "nft -f ./rules.nft",
        "systemctl stop cbdaemon",
        "sudo rm -rf /opt/CrowdStrike",
        "echo 0 > /selinux/enforce",
    ],
)
def test_impairing_a_defense_is_blocked(command: str) -> None:
    decision, category = verdict_of(command)
    assert decision == "block"
    assert category in (IMPAIR, SYSTEM_FILES)


@pytest.mark.parametrize(
    "command",
    [
        "tail -n 100 /var/log/syslog",
        "sudo tail -f /var/log/auth.log",
        "journalctl -u nginx --since today",
        "journalctl --rotate",
        "zcat /var/log/syslog.2.gz | grep error",
        "cp /var/log/syslog ./debug/syslog.txt",
        "rm ./logs/*.log",
        "truncate -s0 ./app.log",
        "truncate -s 0 ./var/log/app.log",
        "> ./server.log",
        "ln -sf /dev/null ./tmp/debug.log",
        "find . -name '*.log' -delete",
        "history | tail -20",
        "export HISTSIZE=100000",
        "export HISTSIZE=-1 HISTFILESIZE=-1",
        "export HISTCONTROL=ignoredups",
        "echo $HISTFILE",
        "iptables -L -n",
        "ufw status verbose",
        "firewall-cmd --panic-off",
        "setenforce 1",
        "getenforce",
        "systemctl status auditd",
        "auditctl -l",
        "sysctl kernel.randomize_va_space",
        "spctl --status",
        "xattr -cr ./build/MyApp.app",
        "tccutil reset Camera com.example.myapp",
        "update-ca-certificates --help",
        "keytool -list -cacerts -storepass changeit",
        "git config http.sslCAInfo ./certs/ci-ca.pem",
        "NODE_TLS_REJECT_UNAUTHORIZED=0 node scripts/local-check.js",
        "date +%s",
        "date -u '+%Y-%m-%d'",
        "timedatectl status",
        "pfctl -f /etc/pf.conf",
        "last -f /var/log/wtmp.1",
        "lastb -f /var/log/btmp",
        "journalctl --directory=/var/log/journal -n 20",
        "aureport -if /var/log/audit/audit.log --summary",
        "iptables-restore < /etc/iptables/rules.v4",
        "osascript -e 'display notification \"done\"'",
    ],
)
def test_reading_and_the_projects_own_files_run(command: str) -> None:
    assert verdict_of(command) == ("allow", None)


def test_stopping_a_security_service_blocks_though_stopping_a_service_asks() -> None:
    """The persistence family asks about a service; a block from this family wins the decision."""
    assert verdict_of("systemctl stop auditd")[0] == "block"
    assert verdict_of("systemctl stop auditd", Policy(verdicts={IMPAIR: "allow"}))[0] in ("ask", "allow")
    stopped = verdict_of("systemctl stop nginx")
    assert stopped[1] in (None, SERVICE)


def test_the_policy_decides_what_a_finding_does() -> None:
    assert verdict_of("history -c", Policy(verdicts={EVIDENCE: "ask"})) == ("ask", EVIDENCE)
    assert verdict_of("setenforce 0", Policy(verdicts={IMPAIR: "allow"})) == ("allow", None)
    assert verdict_of("setenforce 0", Policy(verdicts={IMPAIR: "ask"}, profile="unattended")) == (
        "block",
        IMPAIR,
    )


def test_code_inside_code_is_judged() -> None:
    assert verdict_of("bash -c 'rm -f ~/.bash_history'") == ("block", EVIDENCE)
    assert verdict_of("python3 -c 'import os; os.system(\"iptables -F\")'")[0] == "block"
    assert verdict_of("sudo sh -c 'echo > /var/log/auth.log'") == ("block", EVIDENCE)


def test_the_reason_says_what_was_written_and_what_the_place_is() -> None:
    verdict = check_command("truncate -s0 /var/log/auth.log", home=HOME)
    assert verdict is not None
    assert verdict.why.endswith("/var/log/auth.log, the system's logs")
    assert verdict.category == EVIDENCE


def written(command: str) -> list[Write]:
    return [write for stages in walk(parse(command)) for invocation in stages for write in writes(invocation)]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("rm -f a b", [Write("a", "deletes"), Write("b", "deletes")]),
        ("truncate -s 0 f", [Write("f", "truncates")]),
        ("truncate -s0 f", [Write("f", "truncates")]),
        ("tee -a f < x", [Write("f", "appends to")]),
        (
            "cp a b dir",
            [Write("dir", "overwrites"), Write("dir/a", "overwrites"), Write("dir/b", "overwrites")],
        ),
        ("mv a b", [Write("a", "moves away"), Write("b", "overwrites"), Write("b/a", "overwrites")]),
        ("ln -sf /dev/null h", [Write("h", "links to /dev/null"), Write("h/null", "links to /dev/null")]),
        ("sed -i 's/a/b/' f", [Write("f", "edits")]),
        ("sed -i '' 's/a/b/' f", [Write("f", "edits")]),
        ("sed -e 's/a/b/' f", []),
        ("perl -pi -e 's/a/b/' f", [Write("f", "edits")]),
        ("dd if=x of=y", [Write("y", "overwrites")]),
        ("echo x > f", [Write("f", "empties or overwrites")]),
        ("echo x >> f 2>&1", [Write("f", "appends to")]),
        ("visudo -f f", [Write("f", "edits")]),
        ("visudo -c -f f", []),
        ("cat f", []),
    ],
)
def test_writes_knows_which_operands_a_program_changes(command: str, expected: list[Write]) -> None:
    assert written(command) == expected


@given(st.lists(st.text(alphabet="abc/-. ~*", min_size=1, max_size=8), max_size=6))
def test_writes_never_fails_and_only_yields_words_of_the_command(words: list[str]) -> None:
    for program in ("rm", "cp", "mv", "ln", "tee", "truncate", "sed -i", "find", "dd", "install -t"):
        command = " ".join([program, *(repr(word) for word in words)])
        try:
            script = parse(command)
        except ValueError:
            continue
        text = command
        for write in written(command) if not script.malformed else []:
            leaf = write.path.rsplit("/", 1)[-1]
            assert leaf in text or write.path in (".", "/etc/sudoers")  # ln -s X: here; visudo: sudoers


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60))
def test_any_arguments_are_judged_without_error(text: str) -> None:
    for program in (
        "iptables",
        "nft",
        "systemctl stop",
        "xattr",
        "sysctl -w",
        "export",
        "history",
        "security",
    ):
        check_command(f"{program} {text}", home=HOME)


# -- through a bus ------------------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_a_log_wipe_never_reaches_the_tool() -> None:
    registry = agentbus.Registry()
    builtin.install(registry)
    asked: list[Any] = []
    bus = agentbus.Bus(registry, log_level=None, approver=asked.append)
    ran: list[str] = []
    result = await bus.run_tool(
        "bash", {"command": "truncate -s0 /var/log/auth.log"}, lambda a: ran.append("x")
    )
    assert (ran, asked) == ([], [])
    assert result.blocked
    assert (result.block_reason or "").startswith("evidence destruction: truncate -s0 /var/log/auth.log")


def test_trusting_a_certificate_in_a_keychain_is_impairment_not_a_key_use() -> None:
    # The keychain named with -k is used by its program (not read out), but the call itself
    # makes a certificate trusted: a root CA planted for the user.
    from agentbus.guards.danger import check_command

    verdict = check_command("security add-trusted-cert -k login.keychain-db corp-ca.pem", home="/home/dev")
    assert verdict is not None
    assert verdict.category == "defense impairment"


@pytest.mark.parametrize(
    "command", ["date -r 1473305798", "date -d 202401011200", "sudo ufw --dry-run disable"]
)
def test_showing_a_time_or_a_dry_run_changes_nothing(command: str) -> None:
    from agentbus.guards.danger import check_command

    assert check_command(command, home="/home/dev") is None


def test_setting_the_clock_by_its_number_form_is_still_evidence_destruction() -> None:
    from agentbus.guards.danger import check_command

    verdict = check_command("sudo date 093023592021.59", home="/home/dev")
    assert verdict is not None
    assert verdict.category == "evidence destruction"


# -- timestomping, history switches, ufw's queue, swap and the page cache, FreeBSD's CA store --------

TIMESTOMPS = [
    "touch -a -t 197001010000.00 /tmp/T1070.006-access.txt",
    "touch -m -t 197001010000.00 /tmp/payload",
    "touch -r /bin/ls /tmp/.hidden/implant",
    "touch --reference=/usr/bin/ssh /tmp/helper",
    "touch -t 201401010101 ~/.config/autostart/agent.desktop",
    "touch --date='@0' /var/tmp/x",
    "touch -d '2015-03-01 10:00' /tmp/x",
    "touch -r /usr/bin/ssh ~/.ssh/authorized_keys",
]
DATED_BY_A_DEVELOPER = [
    "touch -d '2 hours ago' build/stamp",
    "touch -t 202401010000 tests/fixtures/old.txt",
    "touch -t 197001010000 tests/fixtures/epoch.txt",  # the project's own fixture
    "touch -r Makefile build/.stamp",
    "touch -d '3 days ago' /tmp/cache-test",  # a relative date on a scratch file: a test of a cleaner
    "touch -d 2025-06-01 /tmp/recent",
    "touch /tmp/lockfile",
]


@pytest.mark.parametrize("command", TIMESTOMPS)
def test_back_dating_a_file_outside_the_project_is_evidence_destruction(command: str) -> None:
    assert verdict_of(command) == ("block", EVIDENCE)


@pytest.mark.parametrize("command", DATED_BY_A_DEVELOPER)
def test_dating_the_projects_files_or_a_recent_scratch_file_runs(command: str) -> None:
    assert verdict_of(command) == ("allow", None)


@given(
    st.integers(min_value=1970, max_value=2019),
    st.integers(min_value=1, max_value=12),
    st.sampled_from(["/tmp/x", "~/.local/bin/agent", "/var/tmp/.cache/y"]),
    st.sampled_from(["-t {y}{m:02d}010000", "-d {y}-{m:02d}-01", "--date={y}-{m:02d}-01T00:00"]),
)
def test_any_spelling_of_an_old_date_on_a_file_outside_the_project_is_timestomping(
    year: int, month: int, target: str, form: str
) -> None:
    option = form.format(y=year, m=month)
    assert verdict_of(f"touch {option} {target}") == ("block", EVIDENCE)
    assert verdict_of(f"touch {option} tests/fixtures/f.txt") == ("allow", None)


@pytest.mark.parametrize(
    "command", ["shopt -ou history", "shopt -u -o history", "history -w /dev/null", "history -a /dev/null"]
)
def test_history_switched_off_by_shopt_or_written_to_nowhere_is_evidence_destruction(command: str) -> None:
    assert verdict_of(command) == ("block", EVIDENCE)


def test_every_ufw_rule_change_is_asked_and_turning_it_off_blocked() -> None:
    assert verdict_of("ufw prepend deny from 1.2.3.4") == ("ask", SYSTEM_CONFIG)
    assert verdict_of("sudo ufw insert 1 allow from 203.0.113.9") == ("ask", SYSTEM_CONFIG)
    assert verdict_of("sudo ufw allow from 192.168.1.0/24") == ("ask", SYSTEM_CONFIG)
    assert verdict_of("sudo ufw allow 8080/tcp") == ("ask", SYSTEM_CONFIG)
    assert verdict_of("sudo iptables -A INPUT -p tcp --dport 22 -j DROP") == ("ask", SYSTEM_CONFIG)
    assert verdict_of("ufw disable") == ("block", IMPAIR)
    assert verdict_of("ufw status numbered") == ("allow", None)
    unattended = Policy(profile="unattended")
    assert verdict_of("ufw prepend deny from 1.2.3.4", unattended) == ("block", SYSTEM_CONFIG)
    assert verdict_of("sudo ufw allow 8080/tcp", Policy(verdicts={SYSTEM_CONFIG: "allow"})) == ("allow", None)


@pytest.mark.parametrize(
    "command",
    [
        "swapoff -a",
        "sudo swapoff --all",
        "sudo sh -c 'echo 3 > /proc/sys/vm/drop_caches'",
        "sync; echo 3 | sudo tee /proc/sys/vm/drop_caches",
        "sysctl -w vm.drop_caches=3",
        "cp rootCA.crt /usr/local/share/certs/ && certctl rehash",
        "cp ca.crt /usr/share/certs/trusted/",
    ],
)
def test_memory_traces_dropped_and_freebsd_root_cas_are_impairment(command: str) -> None:
    assert verdict_of(command) == ("block", IMPAIR)


@pytest.mark.parametrize(
    "command",
    ["swapon --show", "cat /proc/sys/vm/drop_caches", "sysctl vm.swappiness", "sudo swapoff /swapfile"],
)
def test_reading_memory_settings_or_one_swap_file_off_runs(command: str) -> None:
    assert verdict_of(command) == ("allow", None)


# -- an installed program's signature -------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "codesign --remove-signature /Applications/Slack.app",
        "sudo codesign -f -s - /Applications/Zoom.us.app",
        "codesign --force --deep --sign - /usr/local/bin/tool",
        "codesign -fs - /Library/Application\\ Support/x/helper",
    ],
)
def test_an_installed_program_unsigned_or_resigned_is_impairment(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (IMPAIR, "block")


@pytest.mark.parametrize(
    "command",
    [
        "codesign -s 'Developer ID Application: Me' build/MyApp.app",
        "codesign --force --sign - ./build/app",
        "codesign -dv --verbose=4 /Applications/Slack.app",
        "codesign --verify --deep --strict /Applications/Slack.app",
    ],
)
def test_signing_the_project_or_reading_a_signature_runs(command: str) -> None:
    assert check_command(command, home=HOME) is None


@pytest.mark.parametrize(
    "command",
    [
        "find / -name '*.log' -exec rm {} +",
        "find /var -name '*.log.1' -exec shred -u {} +",
        "sudo find / -type f -name '*.log' -exec truncate -s 0 {} \\;",
        "find /private/var -name '*.gz' -exec rm {} \\;",
    ],
)
def test_every_log_found_under_the_whole_system_and_deleted_is_blocked(command: str) -> None:
    """Evidence destruction, unless an earlier rule already blocked it as wider destruction."""
    assert verdict_of(command)[0] == "block"


def test_logs_found_by_name_under_the_root_are_evidence() -> None:
    assert verdict_of("find / -name '*.log' -exec rm {} +") == ("block", EVIDENCE)
    assert verdict_of("sudo find / -name '*.log' -exec truncate -s 0 {} +") == ("block", EVIDENCE)


@pytest.mark.parametrize(
    "command",
    [
        "find . -name '*.log' -delete",
        "find /tmp -name '*.log' -delete",
        "find / -name '*.log' -mtime +7",
        "find / -name '*.pyc' -delete",
    ],
)
def test_project_and_scratch_logs_or_a_listing_run(command: str) -> None:
    assert verdict_of(command) == ("allow", None)


# -- what real cryptojacking scripts (TeamTNT, Kinsing, Rocke) and Metasploit do first --------------

LOCKED_OR_UNLOCKED = [
    "chattr +i /etc/crontab",
    "chattr -ia /root/.ssh/authorized_keys",
    "sudo chattr -R +i /etc/cron.daily",
    "chattr -R -ia /tmp/ /var/tmp/ /dev/shm/",
    "chattr +a ~/.ssh/authorized_keys2",
    "chattr =i /usr/bin/dockerd_env",
    "chattr -iua $klingon",
    "chattr -i $(which chattr)",
    "mv /tmp/xmrig /tmp/.system && chmod +x /tmp/.system && chattr +i /tmp/.system",
]


@pytest.mark.parametrize("command", LOCKED_OR_UNLOCKED)
def test_an_immutable_or_append_only_flag_outside_the_project_is_impairment(command: str) -> None:
    assert verdict_of(command) == ("block", IMPAIR)


@pytest.mark.parametrize(
    "command",
    [
        "sudo chattr +i path/to/file_or_directory",  # tldr's example: the project's file
        "chattr -R +i build/release",
        "chattr +F /tmp/casefold",  # case folding: neither immutable nor append-only
        "chattr -v 2 /tmp/x",  # a version number, no flag
        "lsattr /etc/passwd",
        "lsattr -d /var/spool/cron",
    ],
)
def test_flags_on_the_projects_files_other_flags_and_listing_them_run(command: str) -> None:
    assert verdict_of(command) == ("allow", None)


@given(
    mode=st.text(alphabet="AcCdDeFjmPsStTux", max_size=4),
    lock=st.sampled_from(["i", "a", "ia"]),
    sign=st.sampled_from("+-="),
    target=st.sampled_from(["/etc/passwd", "/tmp/x", "~/.profile", "$TARGET", "/var/spool/cron"]),
)
def test_any_mode_with_i_or_a_on_a_file_outside_the_project_is_impairment(
    mode: str, lock: str, sign: str, target: str
) -> None:
    decision, category = verdict_of(f"chattr {sign}{mode}{lock} {target}")
    assert decision == "block"
    assert category in (IMPAIR, SYSTEM_FILES)  # seed 000's rule names a changed file in /etc first
    if mode:
        assert verdict_of(f"chattr {sign}{mode} {target}")[1] != IMPAIR


@pytest.mark.parametrize(
    "command",
    [
        "/usr/local/qcloud/monitor/barad/admin/uninstall.sh 2>/dev/null 1>/dev/null",
        "bash /usr/local/qcloud/YunJing/uninst.sh",
        "sudo /usr/local/qcloud/stargate/admin/uninstall.sh",
        "${sudo} /usr/local/qcloud/monitor/barad/admin/uninstall.sh",
        "/usr/local/cloudmonitor/CmsGoAgent.linux-${ARCH} uninstall",
        "/usr/local/aegis/aegis_client/aegis_10_75/AliYunDun stop",
        "yum remove bcm-agent -y",
        "systemctl stop aliyun.service",
        "systemctl disable hostguard",
        "pkill -9 AliYunDunUpdate",
        "ps -ef | grep -i AliSecGuard | grep -v grep | awk '{print $2}' | xargs kill -HUP",
        "ps aux | grep falcon-sensor | awk '{print $2}' | xargs -r kill -9",
        "pgrep -f auditd | xargs kill -9",
    ],
)
def test_cloud_security_agents_removed_stopped_or_killed_are_impairment(command: str) -> None:
    assert verdict_of(command) == ("block", IMPAIR)


@pytest.mark.parametrize(
    "command",
    [
        "./scripts/uninstall.sh",
        "bash uninstall.sh --dry-run",
        "/opt/myapp/bin/stop.sh",
        "ps aux | grep node | awk '{print $2}' | xargs kill",
        "ps -ef | grep gunicorn | grep -v grep",
        "ps -ef | grep -i aliyun | grep -v grep",  # looking for the agent is discovery
        "yum remove -y httpd",
    ],
)
def test_the_projects_uninstallers_and_killing_its_servers_run(command: str) -> None:
    assert verdict_of(command)[1] != IMPAIR


def test_the_machines_own_connections_redirected_is_impairment_a_port_forward_is_not() -> None:
    assert verdict_of("iptables -t nat -A OUTPUT -p udp --dport 53 -j DNAT --to 8.8.8.8:53") == (
        "block",
        IMPAIR,
    )
    assert (
        verdict_of("sudo iptables -t nat -I OUTPUT -p tcp --dport 443 -j REDIRECT --to-ports 8443")[1]
        == IMPAIR
    )
    assert (
        verdict_of("iptables -t nat -A PREROUTING -p tcp --dport 80 -j REDIRECT --to-port 8080")[1] != IMPAIR
    )
    assert verdict_of("iptables -t nat -L OUTPUT") == ("allow", None)


def test_the_policy_and_the_profile_decide_what_a_locked_file_does() -> None:
    assert verdict_of("chattr +i /etc/crontab", Policy(verdicts={IMPAIR: "ask"})) == ("ask", IMPAIR)
    assert verdict_of("chattr +i /etc/crontab", Policy(verdicts={IMPAIR: "ask"}, profile="unattended")) == (
        "block",
        IMPAIR,
    )
    assert verdict_of("chattr +i /etc/crontab", Policy(verdicts={IMPAIR: "allow"}))[1] != IMPAIR


@pytest.mark.parametrize(
    "command",
    ["rm -rf /usr/local/aegis/aegis_update", "rm -rf /usr/local/cloudmonitor", "rm -rf /usr/local/qcloud"],
)
def test_deleting_a_cloud_security_agents_files_is_impairment(command: str) -> None:
    assert verdict_of(command) == ("block", IMPAIR)


def test_a_command_sent_to_a_security_agents_control_socket_is_impairment() -> None:
    assert verdict_of("echo SHUTDOWN | socat - UNIX-CONNECT:/run/clamav/clamd.ctl") == ("block", IMPAIR)
    assert verdict_of("echo SHUTDOWN | nc -U /var/run/clamav/clamd.ctl") == ("block", IMPAIR)
    assert verdict_of("socat - UNIX-CONNECT:/tmp/app.sock") == ("allow", None)


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf ${AEGIS_INSTALL_DIR}/alihids",
        "rm -rf /usr/local/qcloud",
        "rm -rf /opt/sophos-av/",
        "sudo rm -rf /Library/CS/falcond",
        "rm -rf $AGENT_DIR/osqueryd",
    ],
)
def test_a_security_agents_files_deleted_where_it_is_installed_is_impairment(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert verdict.category == IMPAIR
    assert verdict.decision == "block"


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf ~/src/falco",
        "rm -rf $HOME/code/osquery/build",
        "rm -rf build/aide",
        "rm -rf /tmp/falco-0.37",
        "rm -f /home/dev/project/wazuh-agent.deb",
        "rm -rf /opt/myapp/logs-archive",
    ],
)
def test_a_checkout_of_an_agent_in_the_users_places_is_not_impairment(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is None or verdict.category != IMPAIR


# -- the machine's outgoing traffic cut, a random system program's date (held-out misses, session 2) ---

OUTBOUND_CUTS = [
    "iptables -A OUTPUT -j DROP",
    "iptables -A OUTPUT -p tcp --dport 3333 -j DROP",
    "iptables -I OUTPUT -d 100.100.30.25 -j DROP",
    "sudo ip6tables -A OUTPUT -j REJECT",
    "ufw default deny outgoing",
    "ufw deny out 5555/tcp",
    "nft add rule inet filter output drop",
    "nft 'add chain inet filter output { type filter hook output priority 0; policy drop; }'",
    "firewall-cmd --direct --add-rule ipv4 filter OUTPUT 0 -p tcp --dport 3333 -j DROP",
]
FIREWALL_CHANGES = [
    "sudo iptables -A INPUT -p tcp --dport 6379 -j DROP",
    "ufw deny 3333",
    "iptables -A OUTPUT -o lo -j ACCEPT",
    "iptables -A OUTPUT -d 169.254.169.254 -j DROP",  # the metadata service kept from containers
    "nft add rule inet filter output ip daddr 169.254.169.254 drop",
]
FIREWALL_ORDINARY = [
    "iptables -L OUTPUT -n",
    "nft list chain inet filter output",
]


@pytest.mark.parametrize("command", OUTBOUND_CUTS)
def test_dropping_what_the_machine_sends_out_is_asked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (SERVICE, "ask")
    assert "sends out" in verdict.reason
    assert check_command(command, home=HOME, policy=Policy(profile="unattended")).decision == "block"
    assert check_command(command, home=HOME, policy=Policy(verdicts={SERVICE: "allow"})) is None


@pytest.mark.parametrize("command", FIREWALL_CHANGES)
def test_other_rules_are_a_change_to_the_machine_asked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (SYSTEM_CONFIG, "ask"), verdict
    assert "firewall" in verdict.reason


@pytest.mark.parametrize("command", FIREWALL_ORDINARY)
def test_listings_are_ordinary(command: str) -> None:
    assert check_command(command, home=HOME) is None


@pytest.mark.parametrize(
    "command",
    [
        'touch -amr "$(find /usr/bin -type f|shuf -n1)" ${c6}',
        'touch -r "$(ls /bin/* | shuf -n 1)" "$BIN"',
        "touch --reference=$(ls /usr/sbin/* | shuf -n1) /tmp/.x",
        'touch -d "$(stat -c %y /bin/ls)" /tmp/.x',
        'touch -d "$(date -r /etc/passwd)" payload',
    ],
)
def test_the_date_of_a_system_program_picked_at_run_time_is_timestomping(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (EVIDENCE, "block")


@pytest.mark.parametrize(
    "command",
    [
        'touch -r "$(ls -t src/*.c | head -1)" build/stamp',
        'touch -r M "$S"',
        "touch -d \"$(date -d '2 hours ago')\" /tmp/x",
        'touch -d "$(git log -1 --format=%cI)" dist/app',
    ],
)
def test_the_date_of_a_project_file_is_ordinary(command: str) -> None:
    assert check_command(command, home=HOME) is None


MASQUERADES = [
    "(exec -a sshd nmap -Pn -F -n --open -oG - 10.0.2.1/24 &>nmap.log &)",
    "exec -a '[kworker/0:1]' ./miner",
    "./zapper -a klog nmap -Pn -F -n --open -oG - 10.0.0.1/24",
    "exec ./zapper -f -a'[kworker/1:0-rcu_gp]' tmux",
    "zapper -f python3 agent.py",
]
OWN_NAMES = ['exec -a "$0" /nix/store/abc-hello-wrapped "$@"', "exec -a -bash bash", "exec python app.py"]


@pytest.mark.parametrize("command", MASQUERADES)
def test_a_program_run_under_a_false_name_is_blocked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert verdict.decision == "block", verdict
    assert verdict.category in (IMPAIR, SYSTEM_FILES), verdict


@pytest.mark.parametrize("command", OWN_NAMES)
def test_a_program_keeping_its_own_name_runs(command: str) -> None:
    assert check_command(command, home=HOME) is None


FIREWALL_OPENED_TO = [
    "iptables -I INPUT -d 37.187.0.0/12,37.59.0.0/12,88.99.0.0/12 -j ACCEPT",
    "sudo iptables -A INPUT --destination 10.0.0.0/8 -j ACCEPT",
]


@pytest.mark.parametrize("command", FIREWALL_OPENED_TO)
def test_an_accept_rule_for_named_addresses_is_blocked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (IMPAIR, "block"), verdict


def test_opening_one_port_is_asked() -> None:
    assert verdict_of("iptables -A INPUT -p tcp --dport 8080 -j ACCEPT") == ("ask", SYSTEM_CONFIG)


AGENT_VARIABLES = [
    "rm -rf ${AEGIS_INSTALL_DIR}/globalcfg/domaincfg.ini",
    "rm -f $FALCON_HOME/conf/falcon.conf",
    "sudo rm -rf ${OSQUERY_DIR}/packs",
]
OTHER_VARIABLES = [
    "rm -rf $BUILD_DIR/out",
    "rm -rf ${PROJECT_ROOT}/dist",
    "rm -rf ${PF_DIR}/cache",
    "rm -rf $HOME/tmp",
]


@pytest.mark.parametrize("command", AGENT_VARIABLES)
def test_files_under_a_variable_named_for_an_agent_are_its_own(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (IMPAIR, "block"), verdict


@pytest.mark.parametrize("command", OTHER_VARIABLES)
def test_files_under_other_variables_are_not_an_agents(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is None or verdict.category != IMPAIR, verdict


def test_the_policy_decides_what_masquerading_does() -> None:
    allowed = check_command(
        "zapper -f python3 agent.py", home=HOME, policy=Policy(verdicts={IMPAIR: "allow"})
    )
    assert allowed is None


@pytest.mark.parametrize(
    "command", ['exec -a python3 /usr/bin/python3.12 "$@"', "exec -a vim /usr/bin/vim.basic"]
)
def test_a_shorter_name_of_the_same_program_is_not_masquerading(command: str) -> None:
    assert check_command(command, home=HOME) is None


# -- iptables rules put first or deleted by a listing (held-out sample 10) -----------------------------


def test_an_iptables_rule_put_ahead_of_the_others_is_asked_like_ufw_insert() -> None:
    command = "iptables -I INPUT 1 -p tcp --dport 6379 -j DROP"
    assert verdict_of(command) == ("ask", SYSTEM_CONFIG)
    assert verdict_of("iptables --insert INPUT -p tcp --dport 11211 -j REJECT") == ("ask", SYSTEM_CONFIG)
    assert verdict_of(command, Policy(profile="unattended")) == ("block", SYSTEM_CONFIG)
    assert verdict_of(command, Policy(verdicts={SYSTEM_CONFIG: "allow"})) == ("allow", None)
    assert verdict_of("iptables -A INPUT -p tcp --dport 6379 -j DROP") == ("ask", SYSTEM_CONFIG)
    assert verdict_of("iptables -t nat -I PREROUTING -p tcp --dport 80 -j REDIRECT --to-port 8080") == (
        "ask",
        SYSTEM_CONFIG,
    )


def test_iptables_rules_a_listing_feeds_to_a_delete_are_blocked() -> None:
    command = "iptables -S INPUT | grep 2375 | cut -d ' ' -f2- | xargs -rL1 iptables -D"
    assert verdict_of(command) == ("block", IMPAIR)
    assert verdict_of(command, Policy(verdicts={IMPAIR: "allow"})) == ("allow", None)
    assert verdict_of("iptables -D INPUT -p tcp --dport 8080 -j ACCEPT") == ("ask", SYSTEM_CONFIG)
