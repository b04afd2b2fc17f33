"""Tactic family ``domain recon``: a domain's subdomains found and fed straight to a prober.

``subfinder -d example.com | httpx -silent`` is a bug hunter's first step against someone's domain: every
host name certificate logs and search engines know, each then probed for a live web server (``httpx``,
``httprobe``), crawled (``katana``), port-scanned (``naabu``) or scanned for flaws (``nuclei``). The
enumeration alone only reads public data sources (``subfinder -d example.com``, ``amass enum -d``) and
stays ordinary, as does resolving the names (``dnsx``); the pipeline that reaches each host is asked as a
:data:`~agentbus.guards.verdict.SERVICE_ATTACK`. Python's ``httpx`` client never reads a pipe of host names,
so only ProjectDiscovery's is fed one.
"""

from __future__ import annotations

from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..parse import Script
from ..programs import Invocation, walk
from ..verdict import SERVICE_ATTACK, Verdict

__all__ = ["judge_script"]

_ENUMERATORS = frozenset(
    {"subfinder", "assetfinder", "findomain", "chaos", "amass", "shosubgo", "github-subdomains"}
)
"""Programs that list a domain's subdomains from public sources."""
_PROBERS = frozenset(
    {"httpx", "httprobe", "katana", "naabu", "nuclei", "hakrawler", "gau", "gospider", "aquatone"}
)
"""Programs that reach every host fed to them: probe, crawl, port-scan or scan it for flaws."""


def _enumerates(invocation: Invocation) -> bool:
    """``subfinder -d example.com``, ``amass enum -d``: a domain's subdomains listed (not help, a version)."""
    values = _values(invocation)
    if invocation.name == "amass":
        return values[:1] == ["enum"] and "-d" in values
    return bool(values) and not {"-h", "--help", "-version", "--version"} & set(values)


def judge_script(script: Script, home: str) -> Verdict | None:
    """A pipeline whose subdomain enumeration feeds a prober of each host it finds."""
    for stages in walk(script):
        for index, stage in enumerate(stages[:-1]):
            if stage.name not in _ENUMERATORS or not _enumerates(stage):
                continue
            prober = next((later for later in stages[index + 1 :] if later.name in _PROBERS), None)
            if prober is not None:
                why = f"{stage.name} lists a domain's subdomains and {prober.name} reaches each one (recon)"
                return _verdict(SERVICE_ATTACK, prober, why)
    return None
