"""A Windows domain attacked from a Linux shell (ad19, session 17): one table of tools by what they do.

Measured on fresh material split by source before any verdict was seen (kept outside the repository:
/work/realworld/ad19 on the machine that measured it): tuned on
MGamalCYSEC/Active-Directory-Enumeration-and-Attacks and r1cksec/cheatsheets' Linux AD pages; held out:
AD-Attacks/Active-Directory-Penetration-Testing, m3t3hn/my-little-ad-cheat-sheet and Chvxt3r/HackTools.
The classes, by verb rather than tool:

- ``enumerate`` (asked as a service attack): a domain's accounts, SPNs, shares and templates listed, by
  bloodhound-python, GetADUsers, certipy find, bloodyAD get, rpcclient, null-session smbclient, anonymous or
  account-hunting ldapsearch of another server;
- ``execute`` (asked as remote access): psexec/wmiexec/evil-winrm/winexe/RDP clients with a password;
- ``steal`` (blocked): roasting, tickets requested or forged, certificates abused, relays, poisoners and
  coercion, LAPS/gMSA passwords, directory rights rewritten; and any tool handed a hash, a key or a ticket
  (pass-the-hash, pass-the-ticket).

The commands here are variants written for the tests (other spellings, paths, wrappers and hosts than the
ones measured).
"""

from __future__ import annotations

HELD = {
    "enumerate": [
        "bloodhound-ce-python -u svc -p 'S3cret!' -d example.org -ns 192.0.2.10 -c DCOnly --zip",
        "python3 -m bloodhound -c All -d example.org -u a -p b",
        "GetADComputers.py -dc-ip 192.0.2.10 example.org/alice:pw",
        "certipy-ad find -u alice@example.org -p pw -dc-ip 192.0.2.10 -enabled -stdout",
        "bloodyAD -d example.org -u alice -p pw --host 192.0.2.10 get writable",
        "rpcclient -U '' -N 192.0.2.10 -c enumdomusers",
        "smbclient -L //fileserver.example.org -N",
        "smbclient -U guest% //192.0.2.20/IPC$",
        "ldapsearch -x -H ldap://192.0.2.10 -b 'DC=example,DC=org' '(servicePrincipalName=*)' sAMAccountName",
        "./kerbrute_darwin_amd64 userenum --dc dc01.example.org -d example.org names.txt",
    ],
    "execute": [
        "python3 ~/tools/impacket/examples/atexec.py example/alice:pw@192.0.2.30 whoami",
        "impacket-dcomexec -object MMC20 example/alice:pw@192.0.2.30",
        "evil-winrm-py -i 192.0.2.30 -u alice -p pw",
        "winexe -U 'example/alice%pw' //192.0.2.30 cmd.exe",
        "xfreerdp3 /v:192.0.2.30 /u:alice /p:pw /drive:home,/home/me",
    ],
    "steal": [
        "GetUserSPNs.py example.org/alice:pw -dc-ip 192.0.2.10 -request -outputfile roast.txt",
        "impacket-GetNPUsers example.org/ -usersfile names.txt -no-pass -format hashcat",
        "sudo python3 /opt/impacket/examples/ticketer.py -aesKey 00ff -domain-sid S-1-5-21-1 -domain e.org x",
        "getTGT.py example.org/alice:pw",
        "certipy req -u alice@example.org -p pw -ca EXAMPLE-CA -template VulnTemplate -upn administrator",
        "certipy auth -pfx administrator.pfx",
        "sudo ntlmrelayx.py -t ldaps://192.0.2.10 --delegate-access -smb2support",
        "sudo mitm6 -d example.org",
        "python3 Coercer.py coerce -u alice -p pw -d example.org -l 192.0.2.99 -t 192.0.2.10",
        "bloodyAD --host 192.0.2.10 -d example.org -u alice -p pw set password bob 'N3w!pass'",
        "bloodyAD --host 192.0.2.10 -d ex.org -u alice -p pw get object 'svc$' --attr msDS-ManagedPassword",
        "impacket-rbcd -delegate-from 'EVIL$' -delegate-to 'SRV$' -action write example.org/alice:pw",
        "targetedKerberoast.py -d example.org -u alice -p pw",
        "pyLAPS.py --action get -d example.org -u alice -p pw",
        "gpp-decrypt edBSHOwhZLTjt/QS9FeIcJ83mjWA98gw9guKOhJOdcqh+ZGMeXOsQbCpZ3xUjTLfCuNH8pG5aSVYdYw/NglVmQ",
        "python3 -m impacket.examples.secretsdump -just-dc example/alice:pw@192.0.2.10",
        "impacket-psexec -hashes aad3b435b51404eeaad3b435b51404ee:31d6cfe0d16ae931b73c59d7e0c089c0 a@h",
        "evil-winrm -i 192.0.2.30 -u admin -H 31d6cfe0d16ae931b73c59d7e0c089c0",
        "KRB5CCNAME=admin.ccache wmiexec.py -k -no-pass example.org/admin@srv01.example.org",
        "xfreerdp /v:192.0.2.30 /u:admin /pth:31d6cfe0d16ae931b73c59d7e0c089c0",
        "pth-winexe -U 'ex/admin%aad3b435b51404eeaad3b435b51404ee:31d6cfe0d16ae931b73c59d7e0c089c0' //h cmd",
        "smbclient //192.0.2.30/C$ -U admin --pw-nt-hash 31d6cfe0d16ae931b73c59d7e0c089c0",
        "net rpc password bob 'N3w!pass' -U example.org/alice%pw -S 192.0.2.10",
        "rpcclient -U 'alice%pw' 192.0.2.10 -c 'setuserinfo2 bob 23 N3w!pass'",
    ],
}

ALLOWED = [
    "ldapsearch -x -H ldap://localhost:1389 -b dc=example,dc=org '(uid=alice)'",
    "ldapsearch -x -H ldapi:/// -Y EXTERNAL -b cn=config",
    "ldapsearch -H ldaps://ldap.example.org -D uid=me,ou=people,dc=example,dc=org -W uid=me",
    "kinit alice@EXAMPLE.ORG",
    "klist -e",
    "smbclient //nas/projects -U me -c 'get report.pdf'",
    "python -m pip install impacket",
    "pipx install certipy-ad",
    "python3 responder.py",
    "python3 -m pytest tests/test_ticketer.py",
    "grep -rn GetUserSPNs docs/",
    "bloodhound",
    "net --help",
    "xfreerdp --version",
]
