"""Privileged install, the ask side: the system's package managers without sudo, software of every user
installed or removed as root (:mod:`agentbus.guards.tactics.privilege`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbus.guards.danger import check_command
from agentbus.guards.policy import Policy
from agentbus.guards.verdict import SUDO_INSTALL

HOME = "/home/dev"

ASKED = [
    # benign9's ask labels: Dockerfiles and CI run these as root, without sudo
    "apt-get update -qq && apt-get install -qq -y --no-install-recommends build-essential make",
    "apk add --no-cache rsync git",
    "apt update && apt install -y build-essential git python3-dev",
    "dnf -y install which gcc make g++",
    "dpkg --add-architecture arm64",
    "sudo corepack enable",
    "sudo mv ./kind /usr/local/bin/kind",
    "sudo rmz -f /usr/local/lib/android &",
    "rm -f /usr/local/bin/docker-compose",
    "softwareupdate --install-rosetta --agree-to-license",
    # and the neighbours
    "yum install -y epel-release",
    "zypper --non-interactive install gcc",
    "pacman -Syu --noconfirm base-devel",
    "rpm -ivh ./agent.rpm",
    "rpm --import https://packages.example.com/key.asc",
    "emerge app-editors/vim",
    "add-apt-repository -y ppa:deadsnakes/ppa",
    "apt-key add repo.gpg",
    "dnf config-manager --add-repo https://download.docker.com/linux/fedora/docker-ce.repo",
    "zypper addrepo https://download.example.com/repo.repo example",
    "snap install code --classic",
    "flatpak install flathub org.gimp.GIMP",
    "port install wget",
    "installer -pkg ./Tool.pkg -target /",
    "sudo install -m 0755 kubectl /usr/local/bin/kubectl",
    "sudo tar -C /usr/local -xzf go1.22.linux-amd64.tar.gz",
    "sudo chmod +x /usr/local/bin/kind",
    "su -c 'dnf install -y htop'",
]
RUN = [
    "brew install jq",
    "pip install -r requirements.txt",
    "npm i -g pnpm",
    "corepack enable",
    "apt-get download libssl-dev",
    "apt-get install --simulate curl",
    "apt-get update",
    "apt list --installed",
    "apt-cache policy docker-ce",
    "dpkg -l | grep libc6",
    "dpkg --print-architecture",
    "rpm -qa",
    "dnf list installed",
    "dnf install --downloadonly git",
    "pacman -Ss ripgrep",
    "pacman -Qi git",
    "snap list",
    "softwareupdate --list",
    "flatpak install --user flathub org.gimp.GIMP",
    "installer -pkg Tool.pkg -target CurrentUserHomeDirectory",
    "apt-key list",
    "cp ./bin/tool ~/.local/bin/tool",
    "ln -s ~/tools/rmz/rmz /usr/local/bin/rmz",
    "sudo ln -s '/Applications/Visual Studio Code.app/Contents/Resources/app/bin/code' /usr/local/bin/",
    "make install PREFIX=$HOME/.local",
    "rm -rf /opt/hostedtoolcache/Python/3.8",
    "mount",
    "df -h",
    "lsblk",
]


@pytest.mark.parametrize("command", ASKED)
def test_an_install_for_every_user_is_asked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (SUDO_INSTALL, "ask"), verdict


@pytest.mark.parametrize("command", RUN)
def test_user_installs_queries_and_downloads_run(command: str) -> None:
    assert check_command(command, home=HOME) is None


@pytest.mark.parametrize(
    "command", ["apt-get install -y curl", "apk add git", "sudo mv kind /usr/local/bin/"]
)
def test_the_policy_decides_what_a_system_install_does(command: str) -> None:
    assert check_command(command, home=HOME, policy=Policy(verdicts={SUDO_INSTALL: "allow"})) is None
    blocked = check_command(command, home=HOME, policy=Policy(verdicts={SUDO_INSTALL: "block"}))
    assert blocked is not None
    assert blocked.decision == "block"
    unattended = check_command(command, home=HOME, policy=Policy(profile="unattended"))
    assert unattended is not None
    assert (unattended.category, unattended.decision) == (SUDO_INSTALL, "block")


_MANAGERS = st.sampled_from([("apt-get", "install"), ("apt", "remove"), ("dnf", "install"), ("yum", "erase"),
                             ("apk", "add"), ("zypper", "in"), ("snap", "install")])  # fmt: skip
_PACKAGE = st.from_regex(r"[a-z][a-z0-9+.-]{0,20}", fullmatch=True)


@given(_MANAGERS, _PACKAGE, st.sampled_from(["", "-y", "-q", "--no-install-recommends"]))
def test_any_system_package_change_without_sudo_is_asked(
    manager: tuple[str, str], package: str, flag: str
) -> None:
    name, verb = manager
    verdict = check_command(" ".join(w for w in (name, flag, verb, package) if w), home=HOME)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (SUDO_INSTALL, "ask")
