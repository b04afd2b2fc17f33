"""Tactic family ``credentials``: hunting for keys and passwords beyond the project."""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import agentbus
from agentbus.guards.danger import check_command
from agentbus.guards.files import check_shell_files
from agentbus.guards.policy import Policy
from agentbus.guards.tactics.credentials import credential_store, metadata_host, secret_name
from agentbus.guards.verdict import CREDENTIALS, ENV_SECRETS
from agentbus.middleware import builtin

HOME = "/home/dev"

HUNTS = [
    "find / -name id_rsa 2>/dev/null",
    "find ~ -name '*.kdbx' -o -name '*.pem'",
    "grep -ri password /home 2>/dev/null",
    "rg --hidden -i 'BEGIN OPENSSH PRIVATE KEY' /",
    "locate .aws/credentials",
    "mdfind \"kMDItemFSName == '*.p12'\"",
    "cat /proc/1234/mem",
    "strings /proc/$(pgrep -f chrome)/environ",
    "gdb --batch -p 2211 -ex 'generate-core-file /tmp/x.core'",
    "strace -p $(pgrep sshd) -e trace=read -o /tmp/t",
    "python3 laZagne.py all",
    "curl http://169.254.169.254/latest/meta-data/iam/security-credentials/",
    "curl -s http://2852039166/latest/meta-data/",
    "curl http://[fd00:ec2::254]/latest/meta-data/",
    "curl -H 'Metadata-Flavor: Google' http://metadata.google.internal/computeMetadata/v1/",
    "security find-generic-password -wa 'Chrome Safe Storage'",
    "sqlite3 ~/.config/google-chrome/Default/'Login Data' 'select * from logins'",
    "cp ~/Library/Keychains/login.keychain-db /tmp/",
    "kubectl get secret db -o jsonpath='{.data.password}'",
    "ls -la /home/*/.ssh/",
]

ORDINARY = [
    "grep -rn password src/",
    "rg -i token tests/",
    "find . -name '*.py' -newer setup.cfg",
    "cat /proc/self/status",
    "tr '\\0' '\\n' < /proc/self/environ",
    "curl -s http://localhost:8080/health",
    "gdb -batch -ex bt ./build/app core.1234",
    "strace -c ls",
    "security find-identity -v -p codesigning",
    "kubectl get secrets -n dev",
    "locate libssl.so",
    "echo 169.254.169.254",
    "kill -1 1234",
    "find ~ -name config.json",
    "find / -name hosts.yml",
]


@pytest.mark.parametrize("command", HUNTS)
def test_a_credential_hunt_is_blocked_as_credential_hunting(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", HOME)
    verdict = check_command(command, home=HOME)
    if verdict is None:  # a secret file the path guards know is theirs to deny (secret access)
        verdict = check_shell_files(command, cwd=f"{HOME}/project")
        assert verdict is not None
        assert verdict.category == "secret access"
        return
    assert verdict.category == CREDENTIALS
    assert verdict.decision == "block"
    assert verdict.rule in ("credentials rule", "credentials rule, on a repaired command")


@pytest.mark.parametrize("command", ORDINARY)
def test_searches_and_requests_inside_the_project_are_ordinary(command: str) -> None:
    assert check_command(command, home=HOME) is None


def test_the_policy_decides_what_a_hunt_does() -> None:
    command = "grep -r 'BEGIN RSA PRIVATE KEY' ~"
    asked = check_command(command, home=HOME, policy=Policy(verdicts={CREDENTIALS: "ask"}))
    assert asked is not None
    assert asked.decision == "ask"
    unattended = Policy(verdicts={CREDENTIALS: "ask"}, profile="unattended")
    blocked = check_command(command, home=HOME, policy=unattended)
    assert blocked is not None
    assert blocked.decision == "block"
    assert check_command(command, home=HOME, policy=Policy(verdicts={CREDENTIALS: "allow"})) is None


def _spellings(address: int) -> list[str]:
    """The forms inet_aton accepts for one IPv4 address."""
    octets = ipaddress.IPv4Address(address).packed
    return [
        str(address),
        hex(address),
        ".".join(str(o) for o in octets),
        ".".join(f"0{o:o}" for o in octets),
        ".".join(hex(o) for o in octets),
        f"{octets[0]}.{octets[1]}.{octets[2] * 256 + octets[3]}",
        f"[::ffff:{ipaddress.IPv4Address(address)}]",
    ]


@given(st.sampled_from(_spellings(int(ipaddress.IPv4Address("169.254.169.254")))))
def test_every_spelling_of_the_metadata_address_is_the_metadata_service(host: str) -> None:
    assert metadata_host(host)
    verdict = check_command(f"curl -s http://{host}/latest/meta-data/", home=HOME)
    assert verdict is not None
    assert verdict.category == CREDENTIALS


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_no_other_address_is_the_metadata_service(address: int) -> None:
    metadata = {int(ipaddress.IPv4Address(a)) for a in ("169.254.169.254", "169.254.170.2", "169.254.170.23",
                                                         "100.100.100.200", "192.0.0.192")}  # fmt: skip
    for host in _spellings(address):
        assert metadata_host(host) == (address in metadata)


@given(st.text(alphabet="0123456789abcdefxX.:[]-+_ %", max_size=40) | st.text(max_size=40))
@example("-1")
@example("1_0")
@example("+169.254.169.254")
@example("[::ffff:-1]")
def test_any_text_as_a_host_is_judged_without_error(text: str) -> None:
    assert isinstance(metadata_host(text), bool)
    assert isinstance(secret_name(text), bool)


def test_a_store_counts_only_in_a_home_directory() -> None:
    assert credential_store("~/.config/google-chrome/Default/Cookies", HOME) is not None
    assert credential_store("~/Library/Application Support/Firefox/Profiles/x/logins.json", HOME) is not None
    assert credential_store("tests/fixtures/Cookies", HOME, f"{HOME}/project") is None
    assert credential_store("/var/run/secrets/kubernetes.io/serviceaccount/token", HOME) is not None


@pytest.mark.parametrize(
    "command",
    [  # held-out macOS sample 8: a loop over Firefox profiles, the directory only a variable
        'sqlite3 "$profile/cookies.sqlite" "SELECT host, name, value FROM moz_cookies"',
        'grep -o \'"hostname":"[^"]*"\' "$profile/logins.json"',
        'cp "${P}/key4.db" /tmp/',
    ],
)
def test_a_firefox_store_in_a_directory_only_a_variable_names_is_read_as_one(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert verdict.category == "credential hunting"


def test_other_files_in_a_variable_directory_and_written_stores_are_not_hunts() -> None:
    assert check_command('sqlite3 "$DB/app.sqlite" .tables', home=HOME) is None
    assert check_command('echo "{}" > "$out/logins.json"', home=HOME) is None
    assert check_command("sqlite3 cookies.sqlite .tables", home=HOME) is None


def test_a_search_is_a_hunt_by_where_it_looks_and_what_for() -> None:
    assert check_command("grep -rn password ~/project/src", home=HOME) is None
    assert check_command("grep -rn TODO /etc", home=HOME) is None
    assert check_command("find / -name '*.py'", home=HOME) is None
    assert check_command("grep -rn password /etc", home=HOME) is not None


@pytest.mark.anyio
async def test_a_blocked_hunt_never_runs_through_the_bus() -> None:
    registry = agentbus.Registry()
    builtin.install(registry)
    bus = agentbus.Bus(registry=registry, log_level=None)
    ran: list[str] = []

    def shell(args: dict[str, Any]) -> str:
        ran.append(args["command"])
        return "ok"

    result = await bus.call_tool("exec", {"command": "curl http://169.254.169.254/latest/user-data"}, shell)
    assert ran == []
    assert result["status"] == "blocked"
    assert result["reason"].startswith("credential hunting: ")


# -- memory dumpers given a PID, editors fed a secret, history files, hidden folders, sshpass ----------

MORE_HUNTS = [
    "python3 dump_heap.py $(pgrep -n sshd) /tmp/heap.bin",
    "PID=$(pgrep -n -f x); PYTHON=$(which python3 || which python); $PYTHON src/dump_heap.py $PID /tmp/o",
    "sudo ./memdump --pid 812 -o /tmp/m.bin",
    "perl scrape_mem.pl ${TARGET_PID}",
    'echo -e "e /etc/shadow\\n,p\\nq" | ed > /tmp/out.txt',
    "printf '%s\\n' 'e /etc/master.passwd' ',p' | ex -s",
    "ed <<EOF\ne /etc/shadow\n,p\nq\nEOF",
    "cat ~/.history | grep -e pass > ~/loot.txt",
    "grep -h 'mysql -p' /home/*/.bash_history",
    "tail -n 500 ~/.history",
    "find //.oci/sessions -name token -type f",
    "find ~/.config -name '*token*'",
    "sshpass -p 'Winter2024!' ssh admin@10.0.0.5 'cat /etc/shadow'",
    "sshpass -p hunter2 scp root@192.0.2.10:/etc/shadow .",
]
MORE_ORDINARY = [
    "python3 dump_db.py --port 5432",  # a dump, but of no process
    "py-spy dump --pid $(pgrep -n python)",  # a profiler's stack dump: no memory is written
    "python3 scripts/dump_heap.py --help",
    "echo ',p' | ed notes.txt",
    "history | grep docker",
    "echo ls >> notes/history.txt",
    "find . -name token",
    "sshpass -p password ssh -o StrictHostKeyChecking=no user@hostname",  # tldr's example: ssh's rules
]


@pytest.mark.parametrize("command", MORE_HUNTS)
def test_dumpers_editors_history_and_hidden_folders_are_credential_hunting(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", HOME)
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert verdict.category == CREDENTIALS
    assert verdict.decision == "block"


@pytest.mark.parametrize("command", MORE_ORDINARY)
def test_dumps_edits_and_logins_without_a_secret_are_ordinary(command: str) -> None:
    assert check_command(command, home=HOME) is None


@given(
    st.sampled_from(["dump_heap.py", "memdump", "core_grab.sh", "heapdump.rb"]),
    st.sampled_from(["$PID", "${pid}", "$(pgrep sshd)", "$(pidof gnome-keyring-daemon)", "--pid 812"]),
    st.sampled_from(["", "python3 ", "bash ", "sudo "]),
)
def test_any_dumper_given_any_form_of_pid_is_a_hunt(tool: str, pid: str, runner: str) -> None:
    program = tool if runner.strip() in ("python3", "bash") else f"./{tool}"
    verdict = check_command(f"{runner}{program} {pid} /tmp/out.bin", home=HOME)
    assert verdict is not None
    assert verdict.category == CREDENTIALS


# -- held-out corpora: patterns named by -e, Spotlight, impacket, the user's browser on a port -------


@pytest.mark.parametrize(
    "command",
    [
        "grep --color=auto -rnw '/' -ie 'PASSWORD' --color=always 2> /dev/null",
        "grep -r / -e password",
        "grep -rne api_key ~",
        "grep -rie'secret' /home",
        "mdfind \"kMDItemTextContent == '*AKIA*' || kMDItemDisplayName == '*AKIA*'\"",
        "mdfind -onlyin ~ 'kMDItemTextContent == \"*BEGIN RSA PRIVATE KEY*\"'",
        "GetNPUsers.py contoso.local/ -usersfile users.txt -dc-ip 10.0.0.1 -no-pass",
        "impacket-GetUserSPNs contoso.local/u:p -dc-ip 10.0.0.1 -request",
        "python3 ticketer.py -nthash aad3b435 -domain-sid S-1-5-21-1 -domain contoso.local admin",
        "dpapi.py backupkeys --export -t contoso.local/u:p@dc01",
        "'/Applications/Google Chrome.app/Contents/MacOS/Google Chrome' --remote-debugging-port=9222 &",
        "google-chrome --remote-debugging-port=9222",
        "open -a 'Google Chrome' --args --remote-debugging-port=9222",
    ],
)
def test_held_out_credential_hunts_are_blocked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (CREDENTIALS, "block")


@pytest.mark.parametrize(
    "command",
    [
        "grep -rie todo src/",
        "grep -ie error build.log",
        "grep -rn -e TODO -e FIXME .",
        "mdfind -onlyin . password",
        "mdfind \"kMDItemContentType == 'com.apple.application-bundle'\"",
        "find / -name authorized_keys 2>/dev/null",  # public keys: where logins are, no secret
        "google-chrome --headless --remote-debugging-port=9222 https://localhost:3000",
        "chromium --remote-debugging-port=9222 --user-data-dir=/tmp/profile",
        "open -a 'Google Chrome' https://localhost:3000",
        "echo chrome --remote-debugging-port=9222",
    ],
)
def test_the_same_programs_on_the_project_or_their_own_profile_run(command: str) -> None:
    assert check_command(command, home=HOME) is None


def test_the_browser_finding_follows_the_policy() -> None:
    command = "google-chrome --remote-debugging-port=9222"
    asked = check_command(command, home=HOME, policy=Policy(verdicts={CREDENTIALS: "ask"}))
    assert asked is not None
    assert asked.decision == "ask"
    assert check_command(command, home=HOME, policy=Policy(verdicts={CREDENTIALS: "allow"})) is None


@given(
    flags=st.text(alphabet="rinwHl", max_size=4),
    word=st.sampled_from(["password", "TODO", "secret", "main"]),
    place=st.sampled_from(["/", "~", "src/", "."]),
)
def test_a_pattern_given_with_e_is_judged_like_one_given_first(flags: str, word: str, place: str) -> None:
    """grep -rXe WORD PLACE and grep -rX WORD PLACE and grep -r PLACE -Xe WORD are one search."""
    first = check_command(f"grep -r{flags} {word} {place}", home=HOME)
    clustered = check_command(f"grep -r{flags}e {word} {place}", home=HOME)
    before = check_command(f"grep -r {place} -{flags}e {word}", home=HOME)
    assert (first is None) == (clustered is None) == (before is None)


# -- held-out sample 6 (macOS) and ForgeArmory: Kerberos, remote stores, browsers, GPP --------------------


@pytest.mark.parametrize(
    "command",
    [
        "kcc copy_cred_cache /tmp/me.ccache",  # macOS's Kerberos tickets copied out
        "klist -k -K /etc/krb5.keytab",
        "cp /tmp/krb5cc_1000 /tmp/t",
        "/tmp/bifrost -action dump -source tickets",
        "./bifrost -action asktgt -username admin -domain lab.local -bpassword cGFzcw==",
        # a credential store copied from another machine, or this one as localhost
        "scp -q dev@localhost:/Users/dev/Library/Cookies/Cookies.binarycookies /tmp/c.bin",
        "scp host:.ssh/id_ed25519 .",
        "rsync -av server:Library/Keychains/login.keychain-db /tmp/",
        "scp user@host:~/.bash_history .",
        # the user's real browser profile opened on a debugging port
        "'/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'"
        " '--user-data-dir=/home/dev/Library/Application Support/Google/Chrome' --remote-debugging-port=9222",
        "/Applications/Chromium.app/Contents/MacOS/Chromium --remote-debugging-port=9222",
        # Group Policy Preferences: fetched from SYSVOL, decrypted with the published key
        'smbclient //dc01.corp.local/SYSVOL -U "corp\\\\u%p" -c "recurse ON; prompt OFF; mget Groups.xml"',
        "smbget -R smb://dc01/SYSVOL",
        "echo $c | base64 -d | openssl enc -d -aes-256-cbc"
        " -K 4e9906e8fcb66cc9faf49310620ffee8f496e806cc057990209b09a433b66c1b -iv 0000",
        # a memory dumper given another process
        "./bash-memory-dump/memory-dump.sh -p 1234 -m all -d dd",
        'p="${pids[RANDOM % ${#pids[@]}]}"; ./memdump.sh -p "$p"',
    ],
)
def test_sample_6_and_forge_hunts_are_blocked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert verdict.category == CREDENTIALS, verdict


@pytest.mark.parametrize(
    "command",
    [
        "klist",
        "klist -k",
        "kcc list",
        "scp build.tar.gz deploy@host:/srv/app/",
        "rsync -av ./dist/ server:/var/www/",
        "scp host:/var/log/app.log .",
        "chromium --user-data-dir=./profile --remote-debugging-port=9222",
        "google-chrome --headless --remote-debugging-port=9222",
        "smbclient //nas/share -c 'get report.pdf'",
        "openssl enc -d -aes-256-cbc -in f.enc -out f -pass env:KEY",
        "./scripts/memory-usage.sh -p 8080",
        "chromium",
        "google-chrome --user-data-dir",
        "ng test --browsers firefox|webkit|chromium",
    ],
)
def test_sample_6_neighbours_are_ordinary(command: str) -> None:
    assert check_command(command, home=HOME) is None


def test_an_anonymous_share_listing_is_a_service_attack_not_credential_hunting() -> None:
    """``smbclient -L //fileserver -N``: another host's shares listed with a null session (ad19): asked, as
    ``enum4linux`` is; opening a share with one's own account stays ordinary (above)."""
    verdict = check_command("smbclient -L //fileserver -N", home=HOME)
    assert verdict is not None
    assert (verdict.decision, verdict.category) == ("ask", "service attack")


def test_an_extension_loaded_into_the_users_browser_is_asked() -> None:
    command = 'open -a "Google Chrome" --args --load-extension=$(pwd)/ext --restore-last-session'
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert (verdict.decision, verdict.category) == ("ask", "data collection")
    unattended = check_command(command, home=HOME, policy=Policy(profile="unattended"))
    assert unattended is not None
    assert unattended.decision == "block"
    assert check_command("chromium --user-data-dir=/tmp/p --load-extension=./dist", home=HOME) is None


@given(st.from_regex(r"[a-z]{1,8}(@[a-z]{1,8})?", fullmatch=True), st.sampled_from(["scp", "rsync", "sftp"]))
def test_a_remote_key_is_a_credential_whoever_the_host(host: str, program: str) -> None:
    verdict = check_command(f"{program} {host}:.ssh/id_rsa /tmp/k", home=HOME)
    assert verdict is not None
    assert verdict.decision == "block"


BROWSER_WORDS = ["--user-data-dir", "--user-data-dir=~/x", "--remote-debugging-port=1", "--args",
                 "--load-extension", "-a", "--headless", "x", "="]  # fmt: skip


@given(st.lists(st.sampled_from(BROWSER_WORDS), max_size=5))
def test_any_browser_arguments_are_judged(arguments: list[str]) -> None:
    for program in ("chromium", "open -a Chromium"):
        verdict = check_command(" ".join([program, *arguments]), home=HOME)
        assert verdict is None or verdict.category != "undecided", verdict


ENVIRONMENT_SEARCHED = [
    "env | grep -iE 'key|token|secret|pass'",
    "printenv | grep -i token",
    "env | grep AWS_SECRET_ACCESS_KEY",
    "set | grep -i secret",
    "export -p | grep -i password",
    "declare -x | grep -e API_KEY",
    "echo $(env | grep TOKEN)",
    "/usr/bin/env | sort | grep -i credential",
]
ENVIRONMENT_SETTINGS = [
    "env | grep -i proxy",
    "printenv | grep ^LANG",
    "env | sort",
    "env | grep -i ssh_auth",
    "env | grep PATH",
    "env | grep PWD",
    "grep -ri token src/",
    "env FOO=1 grep token notes.txt",
]


@pytest.mark.parametrize("command", ENVIRONMENT_SEARCHED)
def test_secrets_picked_out_of_the_environment_are_asked(command: str) -> None:
    # Asked, not blocked (issue 18's ask side): a developer checks a variable is set this way.
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (ENV_SECRETS, "ask"), verdict


@pytest.mark.parametrize("command", ENVIRONMENT_SETTINGS)
def test_settings_looked_up_in_the_environment_run(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is None or verdict.category not in (CREDENTIALS, ENV_SECRETS), verdict


def test_the_policy_decides_what_an_environment_search_does() -> None:
    command = "printenv | grep -i token"
    blocked = check_command(command, home=HOME, policy=Policy(verdicts={ENV_SECRETS: "block"}))
    assert blocked is not None
    assert blocked.decision == "block"
    assert check_command(command, home=HOME, policy=Policy(verdicts={ENV_SECRETS: "allow"})) is None
    unattended = check_command(command, home=HOME, policy=Policy(profile="unattended"))
    assert unattended is not None
    assert unattended.decision == "block"


@given(
    st.sampled_from(["env", "printenv", "set", "export -p"]),
    st.sampled_from(["TOKEN", "Secret", "passwd", "_KEY"]),
)
def test_any_environment_dump_searched_for_a_secret_word(dump: str, word: str) -> None:
    verdict = check_command(f"{dump} | grep -i {word}", home=HOME)
    assert verdict is not None
    assert verdict.category == ENV_SECRETS


_OPERAND = st.text(alphabet=st.sampled_from("abcXYZ-_/. *"), min_size=1, max_size=12).filter(
    lambda word: word.strip() == word and word != "--"
)


@given(_OPERAND, st.lists(_OPERAND, max_size=3), st.sampled_from(["grep", "rg", "ag"]))
def test_after_a_double_dash_a_search_reads_only_operands(pattern: str, places: list[str], name: str) -> None:
    """``grep -r -- '-----BEGIN' .``: after ``--`` the first word is the pattern, the rest places,
    whatever they look like (a pattern made of dashes is not an option)."""
    import shlex

    from agentbus.guards.parse import parse
    from agentbus.guards.programs import walk
    from agentbus.guards.tactics.credentials import search_parts

    command = " ".join([name, "-r", "--", *map(shlex.quote, [pattern, *places])])
    invocation = next(iter(walk(parse(command))))[0]
    recursive, patterns, found = search_parts(invocation)
    assert (recursive, patterns, found) == (True, [pattern], places)


@pytest.mark.parametrize(
    "command",
    [
        "grep -rl 'PRIVATE KEY' Desktop",
        "grep -r -- '-----BEGIN OPENSSH' ~/src",
        "rg -l 'BEGIN RSA PRIVATE KEY'",
    ],
)
def test_a_recursive_search_for_private_keys_is_a_hunt_anywhere(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert (verdict.decision, verdict.category) == ("block", CREDENTIALS)
    asked = check_command(command, home=HOME, policy=Policy(verdicts={CREDENTIALS: "ask"}))
    assert asked is not None
    assert asked.decision == "ask"
    assert check_command("grep 'PRIVATE KEY' notes.txt", home=HOME) is None  # one file: not a hunt


# -- heldout12: the workload's token asked for elsewhere than 169.254.169.254 ----------------------

IDENTITY_ENDPOINTS = [
    'curl "$IDENTITY_ENDPOINT?resource=https://management.azure.com/" -H secret:$IDENTITY_HEADER',
    'curl -s "${MSI_ENDPOINT}?resource=https://vault.azure.net" -H "Secret: $MSI_SECRET"',
    "curl -s 169.254.170.2$AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    'wget -qO- "$AWS_CONTAINER_CREDENTIALS_FULL_URI"',
    'curl -H "Authorization: bearer $ACTIONS_ID_TOKEN_REQUEST_TOKEN" "$ACTIONS_ID_TOKEN_REQUEST_URL&aud=x"',
    'curl localhost:1338/latest/meta-data/container/security-credentials -H "X-aws-ec2-metadata-token: $T"',
    "curl -s http://127.0.0.1:8000/latest/meta-data/iam/security-credentials/app-role",
    "wget -qO- http://proxy.internal/computeMetadata/v1/instance/service-accounts/default/token",
    'http GET "http://10.0.0.5/metadata/identity/oauth2/token?resource=https://vault.azure.net" M:true',
]


@pytest.mark.parametrize("command", IDENTITY_ENDPOINTS)
def test_the_platforms_credential_endpoint_is_a_hunt_whatever_its_address(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (CREDENTIALS, "block")


@pytest.mark.parametrize(
    "command",
    [
        "echo $IDENTITY_ENDPOINT",
        'export TOKEN_URL="$ACTIONS_ID_TOKEN_REQUEST_URL"',
        './configure-azure.sh "$MSI_ENDPOINT"',
        'test -n "$MSI_ENDPOINT" && echo azure',
        "curl http://localhost:8080/api/v2/credentials/list",
        "curl -s http://localhost:8000/latest/status",
        "grep -rn security-credentials docs/",
        "curl -s https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-data-retrieval.html",
    ],
)
def test_naming_the_endpoint_or_a_look_alike_path_is_ordinary(command: str) -> None:
    assert check_command(command, home=HOME) is None


@given(
    host=st.sampled_from(["localhost:1338", "127.0.0.1", "imds-proxy.internal:9000", "[::1]:8080"]),
    path=st.sampled_from(
        [
            "/latest/meta-data/iam/security-credentials/",
            "/latest/meta-data/container/security-credentials",
            "/computeMetadata/v1/instance/service-accounts/sa@p.iam.gserviceaccount.com/token",
            "/metadata/identity/oauth2/token?api-version=2018-02-01",
        ]
    ),
    scheme=st.sampled_from(["", "http://"]),
    client=st.sampled_from(["curl -s", "wget -qO-", "curl -H 'Metadata: true'"]),
)
def test_a_credential_path_is_a_hunt_on_any_host(host: str, path: str, scheme: str, client: str) -> None:
    verdict = check_command(f"{client} '{scheme}{host}{path}'", home=HOME)
    assert verdict is not None
    assert verdict.category == CREDENTIALS
