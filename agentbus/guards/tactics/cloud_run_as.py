"""Code handed to Google Cloud to run as a privileged identity: the deploy as a way up.

Who may deploy a function and pass it a service account (``iam.serviceAccounts.actAs``) gets that
account's power: the function runs as it, and made public (``--allow-unauthenticated``) anyone may call
it for that account's token (the privilege escalation of GCP attack notes). A function or a service
deployed with an account named for ownership or administration, and public, is asked
(:data:`~agentbus.guards.verdict.CLOUD_CONTROL`); a public service with its own narrow account, or a
private one with any, is a deploy and stays allowed.

Deployment Manager creates what its configuration says as the project's Google APIs service account
(an editor of the project): a deployment whose properties bind ``roles/owner`` makes someone owner
(:data:`~agentbus.guards.verdict.PRIVILEGE`, as ``add-iam-policy-binding --role roles/owner`` is), in
its ``--properties`` or in the configuration file the same script writes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...lazy_regex import lazy_compile
from ..findings import finding, piece
from ..interpreters import fed_code
from ..parse import Script
from ..programs import Invocation, walk
from ..verdict import CLOUD_CONTROL, PRIVILEGE, Verdict

if TYPE_CHECKING:
    from .cloud import CloudCall

__all__ = ["judge_call", "judge_script"]

_PRIVILEGED_ACCOUNT = lazy_compile(r"^[^@]*(?:owner|admin|editor|superuser|root)[^@]*@", re.IGNORECASE)
"""A service account named for the power it holds (``owner@``, ``project-admin@``, ``ci-editor@``)."""
_SERVICE_ACCOUNT_OPTIONS = ("--service-account", "--run-service-account", "--build-service-account")
_DEPLOYS = (("functions", "deploy"), ("run", "deploy"), ("run", "services", "update"))
_OWNER_BINDING = lazy_compile(r"roles/owner\b")
_MANAGER_DEPLOYS = (
    ("deployment-manager", "deployments", "create"),
    ("deployment-manager", "deployments", "update"),
)


def _gcloud_path(call: CloudCall) -> tuple[str, ...]:
    return tuple(word for word in call.path if word not in ("alpha", "beta"))


def judge_call(invocation: Invocation, call: CloudCall) -> Verdict | None:
    """A public function deployed as a privileged account; a deployment that binds ``roles/owner``."""
    if call.program != "gcloud":
        return None
    path = _gcloud_path(call)
    if any(path[: len(deploy)] == deploy for deploy in _DEPLOYS) and call.has("--allow-unauthenticated"):
        account = next(
            (a for a in call.values(*_SERVICE_ACCOUNT_OPTIONS) if _PRIVILEGED_ACCOUNT.match(a)), ""
        )
        if account:
            why = f"deploys code anyone may call that runs as {account}: that account's power, made public"
            return finding(CLOUD_CONTROL, invocation, why)
    if path[:3] in _MANAGER_DEPLOYS and _OWNER_BINDING.search(" ".join(call.values("--properties"))):
        return finding(PRIVILEGE, invocation, "a deployment that makes someone owner of the project")
    return None


_WRITERS = frozenset({"cat", "tee", "echo", "printf"})


def _written_configurations(stages: list[Invocation]) -> dict[str, str]:
    """The files a script writes with a here-document or an echo: ``cat > dm.yaml <<EOF ... EOF``."""
    written: dict[str, str] = {}
    for stage in stages:
        if stage.name not in _WRITERS:
            continue
        targets = [r.target for r in stage.command.redirects if r.op in (">", ">>", ">|")]
        if stage.name == "tee":
            targets.extend(a for a in stage.args if not a.startswith("-"))
        text = "\n".join([*fed_code(stage), *(stage.args if stage.name in ("echo", "printf") else ())])
        for target in targets:
            name = stage.command.static(target)
            if name:
                written[name.removeprefix("./")] = text
    return written


def judge_script(script: Script, home: str) -> Verdict | None:
    """``cat > dm.yaml <<EOF`` with an owner binding, then ``gcloud deployment-manager deployments create
    --config dm.yaml``: the binding is in the file the script wrote."""
    del home
    from .cloud import read_call  # cloud imports this module

    written: dict[str, str] = {}
    for stages in walk(script):
        written.update(_written_configurations(stages))
        for stage in stages:
            if stage.name != "gcloud" or not written:
                continue
            call = read_call(stage)
            if _gcloud_path(call)[:3] not in _MANAGER_DEPLOYS:
                continue
            for name in call.values("--config", "--template"):
                if _OWNER_BINDING.search(written.get(name.removeprefix("./"), "")):
                    why = f"a deployment whose configuration ({name}, written just before) binds roles/owner"
                    return Verdict(PRIVILEGE, piece(stage.text), why)
    return None
