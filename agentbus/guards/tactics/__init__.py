"""The attacker's tactics beyond seed 000, one module per family, judged per command.

Each module has ``judge(invocation, home)``: the first finding of its family in
one simple command (a :class:`~agentbus.guards.verdict.Verdict` whose category is
one of :data:`~agentbus.guards.verdict.TACTICS`), or None. Some also have
``judge_script(script, home)`` for what spans statements (a payload downloaded in
one statement and run in the next). They find; the policy (:mod:`..policy`)
decides whether a finding blocks, asks or is allowed, so a judge never consults it.

- :mod:`.persistence`: scheduled tasks, services, accounts, shell profiles, hidden start-up code;
- :mod:`.privilege`: setuid bits, capabilities, sudoers and PAM, container escapes, installs as root;
- :mod:`.impairment`: logs and history destroyed, firewalls and security tools turned off, root CAs;
- :mod:`.credentials`: hunting for keys and passwords, process memory, cloud metadata, browser stores;
- :mod:`.impact`: shutdown and reboot, killing everything, destroying or encrypting the user's data;
- :mod:`.exfiltration`: archives sent away, payloads downloaded and run;
- :mod:`.dns_loops`: encoded or secret data looked up a chunk at a time as DNS names;
- :mod:`.uploads`: files named only at run time, or from outside the project, sent away (asked);
- :mod:`.collection`: the screen, microphone, camera, clipboard and packets captured, keyloggers,
  sensitive places packed into archives;
- :mod:`.macos`: AppleScript (``osascript``) and the programs only macOS has, across every tactic;
- :mod:`.cloud`: the cloud and cluster CLIs (``aws``, ``gcloud``, ``az``, ``kubectl`` ...), across tactics;
- :mod:`.tunnels`: tunnels, proxies, shared terminals and remote desktops that open the machine;
- :mod:`.cracking`: passwords guessed against a login or cracked from hashes;
- :mod:`.scanning`: address ranges swept for open ports (masscan, zmap, pnscan; nmap of wide ranges);
- :mod:`.unseen`: code the guard cannot see: values made at run time run as commands, ``enable -f``, ``fc``;
- :mod:`.hidden_runs`: programs run from shared memory or a hidden directory of ``/tmp`` (asked);
- :mod:`.redis_abuse`: a Redis server told to write its dump file elsewhere, commands fed to a host list;
- :mod:`.volumes`: disks and volumes mounted, attached, resized or unlocked (asked);
- :mod:`.system_config`: the machine's own configuration changed: the rest of ``/etc``, ``git config
  --system``, ``update-alternatives``, locale, host name, kernel settings, routes (asked);
- :mod:`.identities`: another account acted as (``su USER -c``), Kerberos and directory administration;
- :mod:`.access_tokens`: the tokens ``gh auth token``, ``gcloud auth print-access-token`` ... print,
  judged by where they go (a login, the provider's own hosts; or printed, sent elsewhere).
"""

from __future__ import annotations

from collections.abc import Callable

from ..parse import Script
from ..programs import Invocation
from ..verdict import Verdict
from . import (
    access_tokens,
    cloud,
    collection,
    cracking,
    credentials,
    dns_loops,
    exfiltration,
    hidden_runs,
    identities,
    impact,
    impairment,
    macos,
    persistence,
    privilege,
    redis_abuse,
    scanning,
    system_config,
    tunnels,
    unseen,
    uploads,
    volumes,
)

__all__ = ["JUDGES", "SCRIPT_JUDGES"]

InvocationJudge = Callable[[Invocation, str], "Verdict | None"]
ScriptJudge = Callable[[Script, str], "Verdict | None"]

JUDGES: tuple[InvocationJudge, ...] = (
    persistence.judge,
    privilege.judge,
    impairment.judge,
    credentials.judge,
    impact.judge,
    exfiltration.judge,
    uploads.judge,
    macos.judge,
    collection.judge,
    cloud.judge,
    tunnels.judge,
    cracking.judge,
    scanning.judge,
    unseen.judge,
    hidden_runs.judge,
    redis_abuse.judge,
    volumes.judge,
    system_config.judge,
    identities.judge,
)
"""Every family's judge of one simple command, in the order they are asked."""

SCRIPT_JUDGES: tuple[ScriptJudge, ...] = (
    credentials.judge_script,
    access_tokens.judge_script,
    impact.judge_script,
    impairment.judge_script,
    exfiltration.judge_script,
    dns_loops.judge_script,
    uploads.judge_script,
    persistence.judge_script,
    privilege.judge_script,
    macos.judge_script,
    collection.judge_script,
    unseen.judge_script,
    redis_abuse.judge_script,
    cloud.judge_script,
)
"""The judges of what spans statements."""
