"""Classes of Linux attack technique the guards let through (helper linux23; known misses, no measurement).

The misses were named in the brief from kits' scripts (TeamTNT's and Kinsing's rival-clearing
sections, rootkit hunters, service enumeration cheat sheets); the commands here are variants
written for the tests, not the lines that were measured:

- rivals' containers killed or removed: a miner's or a kit's name (``xmr``, ``kinsing``, ``pocosow``)
  picked from ``docker ps``/``docker images`` (grep, awk, ``--filter``) and fed to ``docker
  kill``/``stop``/``rm``/``rmi``: resource hijacking, blocked;
- processes hidden by a bind mount over ``/proc/PID`` found in the mount table (``/proc/mounts``,
  ``/etc/mtab``, ``mount``) and killed: a process hunt, asked;
"""

from __future__ import annotations

HELD = {
    "rivals' containers removed": [
        "docker ps | grep -E 'xmr|kinsing|pocosow' | awk '{print $1}' | xargs -I % docker kill %",
        "docker images -a | grep \"monero\" | awk '{print $3}' | xargs docker rmi -f",
        "docker ps -a | grep gakeaws | awk '{print $1}' | xargs -r docker rm -f",
        "sudo docker container ls | grep -i minergate | cut -d' ' -f1 | xargs docker container stop",
        "docker kill $(docker ps | grep xmrig | awk '{print $1}')",
        "docker rm -f $(docker ps -aq --filter name=kinsing)",
        "podman images | grep azulu | awk '{print $3}' | xargs -I{} podman rmi -f {}",
        "for c in $(docker ps -q --filter ancestor=pocosow/centos); do docker kill $c; done",
        "docker ps | grep 'stratum' | awk '{print $1}' | while read id; do docker stop $id; done",
    ],
    "hidden processes killed from the mount table": [
        "grep -E '/proc/[0-9]+' /proc/mounts | awk '{print $2}' | cut -d/ -f3 | xargs kill -9",
        "cat /proc/mounts | grep proc | awk '{print $2}' | xargs kill",
        "cat /proc/mounts | awk '{print $2}' | grep -P '/proc/\\d+' | grep -Po '\\d+' | xargs -I % kill -9 %",
        "kill -9 $(grep -Eo '/proc/[0-9]+' /proc/self/mounts | cut -d/ -f3)",
        "awk '$2 ~ /^\\/proc\\/[0-9]+/ {split($2,a,\"/\"); print a[3]}' /etc/mtab | xargs kill -9",
        "mount | grep '/proc/[0-9]' | awk '{print $3}' | cut -d/ -f3 | while read p; do kill -9 $p; done",
        "for pid in $(cat /proc/mounts | grep proc | awk -F/ '{print $3}'); do kill -9 $pid; done",
    ],
}

ALLOWED = [
    "docker ps | grep myapp | awk '{print $1}' | xargs docker kill",
    "docker images | grep none | awk '{print $3}' | xargs docker rmi",
    "docker images -q --filter dangling=true | xargs docker rmi",
    "docker ps -a | grep Exited | awk '{print $1}' | xargs docker rm",
    "docker stop $(docker ps -q --filter name=web)",
    "docker images | grep xmrig",
    "cat /proc/mounts | grep tmpfs",
    "grep nfs /proc/mounts | awk '{print $2}' | xargs -n1 umount",
    "lsof -ti:3000 | xargs kill",
]
