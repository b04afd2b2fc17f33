"""What each verb of a Windows domain attack gets: enumerate and execute asked, steal blocked.

:mod:`agentbus.guards.tactics.domain_attacks` names each tool by what it does; a hash, a key or a
ticket handed to any of them is pass-the-hash or pass-the-ticket (blocked), while the same remote
command with a password is asked (a Windows machine of one's own is reached that way too).
"""

from __future__ import annotations

import pytest

from agentbus.guards.judge import judge_command

HOME = "/home/me"


def _decision(command: str) -> str:
    verdict = judge_command(command, home=HOME, cwd=f"{HOME}/project")
    return "allow" if verdict is None else verdict.decision


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("impacket-psexec example/alice:pw@192.0.2.30", "ask"),
        ("psexec.py -hashes :31d6cfe0d16ae931b73c59d7e0c089c0 example/admin@192.0.2.30", "block"),
        ("KRB5CCNAME=a.ccache impacket-psexec -k -no-pass example/admin@srv01", "block"),
        ("evil-winrm -i 192.0.2.30 -u alice -p pw", "ask"),
        ("evil-winrm -i 192.0.2.30 -u alice -H 31d6cfe0d16ae931b73c59d7e0c089c0", "block"),
        ("certipy find -u a@example.org -p pw -dc-ip 192.0.2.10", "ask"),
        ("certipy-ad req -u a@example.org -p pw -ca CA -template T -upn administrator", "block"),
        ("bloodyAD --host 192.0.2.10 -d example.org -u a -p pw get object bob", "ask"),
        ("bloodyAD --host 192.0.2.10 -d example.org -u a -p pw add groupMember admins a", "block"),
        ("rpcclient -U '' -N 192.0.2.10", "ask"),
        ("smbclient -N -L //192.0.2.10", "ask"),
        ("ldapsearch -x -H ldap://192.0.2.10 -b DC=example,DC=org", "ask"),
        (
            "ldapsearch -x -H ldap://192.0.2.10 -D a@example.org -w pw -b DC=example,DC=org ms-Mcs-AdmPwd",
            "block",
        ),
        ("sudo responder -I eth0 -wd", "block"),
        ("pth-wmis -U c/a%00:31d6cfe0d16ae931b73c59d7e0c089c0 //192.0.2.30 'select * from x'", "block"),
        ("impacket-ntlmrelayx -tf targets.txt -smb2support", "block"),
        ("timeout 60 impacket-getST -spn cifs/srv -impersonate Administrator example.org/svc:pw", "block"),
        ("ldapdomaindump -u 'EXAMPLE\\alice' -p pw 127.0.0.1", "allow"),
        ("smbclient //nas/projects -U me -c 'put build.zip'", "allow"),
        ("ldapsearch -x -H ldap://127.0.0.1:1389 -b dc=example,dc=org", "allow"),
        ("python -m pip install impacket", "allow"),
    ],
)
def test_each_verb_gets_its_decision(command: str, decision: str) -> None:
    assert _decision(command) == decision, command
