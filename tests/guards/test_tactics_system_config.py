"""Tactic family ``system_config``: the machine's own configuration changed (asked)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbus.guards.danger import check_command
from agentbus.guards.files import check_write
from agentbus.guards.policy import Policy
from agentbus.guards.verdict import IMPAIR, STEALTH_PERSISTENCE, SYSTEM_CONFIG, SYSTEM_FILES

HOME = "/home/dev"

CHANGED = [
    # benign9's ask labels (real Dockerfiles and CI steps)
    "git config --system core.autocrlf false",
    "update-alternatives --install /usr/bin/g++ g++ /usr/bin/g++-13 100",
    "sed -i -e 's/# en_US.UTF-8 UTF-8/en_US.UTF-8 UTF-8/' /etc/locale.gen",
    "sudo sed -i 's~http://azure.archive.ubuntu.com/ubuntu/~mirror~' /etc/apt/sources.list",
    "chown -R nobody:nobody /etc/prometheus /prometheus",
    "locale-gen en_US.UTF-8",
    "dpkg-reconfigure --frontend=noninteractive locales",
    # and the neighbours
    "sudo git config --system safe.directory '*'",
    "git config set --system init.defaultBranch main",
    "sudo update-alternatives --set java /usr/lib/jvm/java-17/bin/java",
    "echo 'deb https://apt.example.com stable main' | sudo tee /etc/apt/sources.list.d/x.list",
    "echo x > /etc/locale.gen",
    "cd /etc && echo x >> agent",
    "sudo cp nginx.conf /etc/nginx/sites-available/app",
    "sudo mkdir -p /etc/apt/keyrings",
    "chmod 644 /etc/nginx/nginx.conf",
    "sudo hostnamectl set-hostname devbox",
    "sudo timedatectl set-timezone Europe/Berlin",
    "sudo sysctl -w vm.max_map_count=262144",
    "sudo ip route add 10.10.0.0/16 via 192.168.1.1",
    "sudo route del default",
    "sudo ip addr add 10.0.0.5/24 dev eth0",
    "sudo systemsetup -settimezone America/New_York",
    "sudo scutil --set HostName devbox",
    "sudo pmset -a sleep 0",
    'sudo nvram boot-args="-v"',
    "sudo launchctl limit maxfiles 65536 200000",
    "sudo defaults write /Library/Preferences/com.apple.loginwindow GuestEnabled -bool false",
    # a driver unloaded from the running kernel (Bella unloads the keyboard's and the trackpad's)
    "kextunload /System/Library/Extensions/AppleUSBTopCase.kext/Contents/PlugIns/AppleUSBTCKeyboard.kext/",
    "sudo kextunload -b com.apple.driver.AppleUSBMultitouch",
    "sudo kmutil unload -b com.vmware.kext.vmx86",
    "sudo kmutil unload -p /Library/Extensions/SoftRAID.kext",
    "sudo rmmod nouveau",
    "sudo modprobe -r kvm_intel",
    "sudo modprobe -rv nvidia_drm",
    "sudo modprobe --remove usbhid",
]
READ = [
    "git config --global pull.rebase true",
    "git config --system --list",
    "git config --system --get core.autocrlf",
    "git config list --system",
    "update-alternatives --display java",
    "update-alternatives --query editor",
    "locale -a",
    "timedatectl status",
    "hostnamectl",
    "hostname -f",
    "sysctl vm.max_map_count",
    "sysctl -a",
    "ip route show",
    "ip addr",
    "route -n",
    "cat /etc/apt/sources.list",
    "cp /etc/nginx/nginx.conf ./nginx.conf.orig",
    "scutil --get LocalHostName",
    "pmset -g",
    "pmset schedule cancelall",
    "nvram -p",
    "networksetup -setwebproxy Wi-Fi 127.0.0.1 8888",
    "defaults write com.apple.finder AppleShowAllFiles -bool true",
    "echo 'vm.max_map_count=262144' > sysctl.d/99-es.conf",
    "echo x > /usr/local/etc/my.cnf",
    "kextstat",
    "kmutil showloaded",
    "kmutil inspect",
    "lsmod",
    "modinfo kvm",
    "modprobe -c",
    "modprobe -n -r kvm_intel",
    "rmmod --help",
]
NARROWER = [
    # Places whose change is a tactic of its own keep their category (and its block).
    ("echo 'Acquire::Retries \"3\";' > /etc/apt/apt.conf.d/80-retries", STEALTH_PERSISTENCE),
    ("echo 'nameserver 1.1.1.1' | sudo tee /etc/resolv.conf", SYSTEM_FILES),
    ("echo x >> /etc/sudoers", SYSTEM_FILES),
    ("sudo sysctl -w kernel.randomize_va_space=0", IMPAIR),
    ("git config --system http.sslVerify false", IMPAIR),
    ("sudo kmutil unload -b com.crowdstrike.sensor", IMPAIR),
    ("sudo kextunload -b com.crowdstrike.sensor", IMPAIR),
    ("sudo modprobe -r falcon_lsm_serviceable", IMPAIR),
    ("sudo kextload /tmp/x/Insomnia.kext", STEALTH_PERSISTENCE),
]


@pytest.mark.parametrize("command", CHANGED)
def test_a_change_of_the_machines_configuration_is_asked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (SYSTEM_CONFIG, "ask"), verdict


@pytest.mark.parametrize("command", READ)
def test_reading_it_or_changing_the_users_own_runs(command: str) -> None:
    assert check_command(command, home=HOME) is None


@pytest.mark.parametrize(("command", "category"), NARROWER)
def test_a_narrower_place_keeps_its_own_category(command: str, category: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (category, "block"), verdict


def test_the_file_tools_ask_before_writing_under_etc() -> None:
    verdict = check_write("/etc/docker/daemon.json", home=HOME)
    assert verdict is not None
    assert verdict.category == SYSTEM_CONFIG
    assert check_write("/etc/passwd", home=HOME) is not None
    assert check_write("/etc/passwd", home=HOME).category == SYSTEM_FILES  # type: ignore[union-attr]
    assert check_write("/usr/local/etc/nginx/nginx.conf", home=HOME) is None


@pytest.mark.parametrize(
    "command", ["git config --system core.autocrlf false", "sudo mkdir -p /etc/apt/keyrings"]
)
def test_the_policy_decides_what_a_configuration_change_does(command: str) -> None:
    assert check_command(command, home=HOME, policy=Policy(verdicts={SYSTEM_CONFIG: "allow"})) is None
    blocked = check_command(command, home=HOME, policy=Policy(verdicts={SYSTEM_CONFIG: "block"}))
    assert blocked is not None
    assert blocked.decision == "block"
    unattended = check_command(command, home=HOME, policy=Policy(profile="unattended"))
    assert unattended is not None
    assert (unattended.category, unattended.decision) == (SYSTEM_CONFIG, "block")


_NAME = st.text(alphabet=st.sampled_from("abcxyz-_.0"), min_size=1, max_size=12).filter(
    lambda name: name not in (".", "..") and not name.startswith("-")
)


@given(_NAME, _NAME)
def test_any_file_written_under_etc_is_held_back(directory: str, name: str) -> None:
    verdict = check_command(f"echo x | sudo tee /etc/{directory}/{name}", home=HOME)
    assert verdict is not None
    assert verdict.decision in ("ask", "block")


@given(
    st.lists(st.sampled_from(["--list", "--get", "--get-all", "--show-origin", "-l"]), min_size=1, max_size=3)
)
def test_git_config_reads_of_the_system_file_run(reads: list[str]) -> None:
    assert check_command(" ".join(["git", "config", "--system", *reads]), home=HOME) is None
