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
    "sudo -u postgres psql -c 'select 1'",
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
