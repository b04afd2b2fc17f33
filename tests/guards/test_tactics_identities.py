"""Tactic family ``identities``: another account acted as, Kerberos and directory administration (asked)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbus.guards.danger import check_command
from agentbus.guards.policy import Policy
from agentbus.guards.verdict import ACCOUNT, PRIVILEGE

HOME = "/home/dev"

ASKED = [
    "su vscode -c 'umask 0002 && . /usr/local/share/nvm/nvm.sh && nvm install 20'",  # benign9
    "su - postgres -c 'createdb app'",
    "su -s /bin/sh www-data -c 'php artisan migrate'",
    "su --login deploy --command='git pull'",
    "su ubuntu",
    'su "$USERNAME" -c "nvm use"',
    "runuser -u app -- ./manage.py migrate",
    "runuser -l builder -c 'make release'",
    "sudo su vscode -c 'npm ci'",
    # sudo -u USER (and doas, run0, pkexec --user): another local account, its files and keys
    "sudo -u postgres psql -c 'select 1'",
    "sudo -u postgres psql",
    "sudo -iu postgres",
    "sudo -u postgres -s",
    "sudo -u www-data php artisan migrate",
    "sudo --user=deploy git pull",
    "sudo -H -u jenkins bash -c 'cd ~ && ls'",
    "doas -u app ./manage.py check",
    "run0 -u builder make",
    "pkexec --user dev id",
    "sudo -u postgres flock /tmp/lock psql",
    # benign9's cheat sheets: Kerberos administration
    'kadmin -q "renprinc [oldprincipal] [newprincipal]"',
    "kadmin -p admin/admin -q 'ktadd -k /etc/krb5.keytab host/app.example.com'",
    "sudo kadmin.local -q 'addprinc alice'",
    "kdb5_util ark /path/to/archivefile",
    "kprop -f /path/to/dumpfile -P port_number -k /path/to/keytab slave_server",
    "kpropd -d",
    "kpasswd -v",
    "ktutil",
    "ipa user-add jdoe --first=John --last=Doe",
    "samba-tool user create alice",
    "ldapmodify -x -D cn=admin,dc=example,dc=com -W -f change.ldif",
]
RUN = [
    "whoami",
    "su --help",
    "su --version",
    "klist",
    "kinit dev@EXAMPLE.COM",
    "kdestroy",
    "kvno HTTP/web.example.com",
    "kadmin -q 'getprinc alice'",
    "kadmin.local -q listprincs",
    "ipa user-show jdoe",
    "samba-tool user list",
    "ldapsearch -x -b dc=example,dc=com uid=dev",
    'sudo -u "$USER" make install-local',  # oneself
    'sudo -u "$SUDO_USER" git config --global user.name dev',  # root handing back to the user
]


@pytest.mark.parametrize("command", ASKED)
def test_acting_as_another_account_or_administering_accounts_is_asked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (ACCOUNT, "ask"), verdict


@pytest.mark.parametrize("command", RUN)
def test_tickets_for_oneself_and_queries_run(command: str) -> None:
    assert check_command(command, home=HOME) is None


@pytest.mark.parametrize("command", ["su", "su -", "su root -c id", "sudo su -"])
def test_su_to_root_stays_the_privilege_familys(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is None or verdict.category != ACCOUNT, verdict
    if command in ("su -", "sudo su -"):
        assert verdict is not None
        assert verdict.category == PRIVILEGE


def test_the_policy_decides_what_acting_as_another_account_does() -> None:
    command = "su vscode -c 'npm ci'"
    assert check_command(command, home=HOME, policy=Policy(verdicts={ACCOUNT: "allow"})) is None
    blocked = check_command(command, home=HOME, policy=Policy(verdicts={ACCOUNT: "block"}))
    assert blocked is not None
    assert blocked.decision == "block"
    unattended = check_command(command, home=HOME, policy=Policy(profile="unattended"))
    assert unattended is not None
    assert (unattended.category, unattended.decision) == (ACCOUNT, "block")


_USER = st.from_regex(r"[a-z_][a-z0-9_-]{0,15}", fullmatch=True).filter(lambda u: u not in ("root", "toor"))


@given(_USER, st.sampled_from(["", "-", "-l", "--login", "-s /bin/bash", "-m"]))
def test_su_to_any_other_user_is_asked_whatever_its_options(user: str, options: str) -> None:
    verdict = check_command(f"su {options} {user} -c 'id'".replace("  ", " "), home=HOME)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (ACCOUNT, "ask")


@pytest.mark.parametrize(
    "command",
    [
        "sudo -u root psql",
        "sudo -u 0 psql",
        "sudo -u#0 psql",
        "sudo --user=root psql",
        "sudo psql",
    ],
)
def test_sudo_to_root_by_name_or_uid_is_sudo_itself_not_an_account_change(command: str) -> None:
    assert check_command(command, home=HOME) is None


@pytest.mark.parametrize(
    "command",
    ["sudo -u root bash", "sudo -u#0 bash", "sudo -u 0 -s", "sudo --user=root -i", "sudo bash"],
)
def test_sudo_to_root_by_name_or_uid_opens_a_root_shell_like_sudo(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, verdict
    assert (verdict.category, verdict.decision) == (PRIVILEGE, "block"), verdict


def test_sudo_as_another_account_is_asked_never_blocked_and_a_policy_decides() -> None:
    assert check_command("sudo -u postgres bash", home=HOME).decision == "ask"  # type: ignore[union-attr]
    allowed = Policy(verdicts={ACCOUNT: "allow"})
    assert check_command("sudo -u postgres psql", home=HOME, policy=allowed) is None
    unattended = check_command("sudo -u postgres psql", home=HOME, policy=Policy(profile="unattended"))
    assert unattended is not None
    assert unattended.decision == "block"


@given(
    user=st.from_regex(r"[a-z_][a-z0-9_-]{0,15}", fullmatch=True).filter(lambda u: u not in ("root", "toor")),
    spelling=st.sampled_from(["-u {u}", "-u{u}", "--user={u}", "--user {u}", "-H -u {u}", "-Eu {u}"]),
)
def test_every_spelling_of_sudo_as_a_user_names_that_user(user: str, spelling: str) -> None:
    verdict = check_command(f"sudo {spelling.format(u=user)} psql", home=HOME)
    assert verdict is not None, verdict
    assert verdict.category == ACCOUNT, verdict
    assert f"the account {user}:" in verdict.why
