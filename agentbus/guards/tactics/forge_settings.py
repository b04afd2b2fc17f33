"""A GitHub repository made public, or given a workflow, through the API rather than a review.

The Shai-Hulud worm (September 2025) turned its victims' private repositories public ("Shai-Hulud
Migration") and committed a workflow that sends the repository's secrets away, both through the
GitHub API with a stolen token; the hijacked Bitwarden CLI (2026) did the same to harvest Actions
secrets. ``gh repo edit --visibility public``, ``gh api -X PATCH repos/O/R -f visibility=public``
(``private=false``) and ``gh api -X PUT repos/O/R/contents/.github/workflows/F`` change who may read
a repository, or what its CI runs with its secrets, in one call: :data:`~..verdict.CLOUD_CONTROL`,
a person is asked. Reading (``gh api repos/O/R``), other settings and ordinary pushes pass.
"""

from __future__ import annotations

from ...lazy_regex import lazy_compile
from ..findings import finding
from ..findings import static_args as _values
from ..programs import Invocation
from ..verdict import CLOUD_CONTROL, Verdict

__all__ = ["judge"]

_FIELD_OPTIONS = frozenset({"-f", "--raw-field", "-F", "--field"})
_PUBLIC_FIELD = lazy_compile(r"^(?:visibility=public|private=false)$")
_WORKFLOW_CONTENT = lazy_compile(r"^/?repos/[^/]+/[^/]+/contents/\.github/workflows/")
_REPOSITORY = lazy_compile(r"^/?repos/[^/]+/[^/]+/?$")


def _api(values: list[str]) -> tuple[str, str, list[str]]:
    """``(method, endpoint, fields)`` of a ``gh api`` call."""
    method, endpoint, fields = "", "", []
    i = 1
    while i < len(values):
        word = values[i]
        if word in ("-X", "--method") and i + 1 < len(values):
            method = values[i + 1].upper()
            i += 2
            continue
        if word.startswith("--method="):
            method = word.partition("=")[2].upper()
        elif word in _FIELD_OPTIONS and i + 1 < len(values):
            fields.append(values[i + 1])
            i += 2
            continue
        elif not word.startswith("-") and not endpoint:
            endpoint = word
        i += 1
    return method or ("POST" if fields else "GET"), endpoint, fields


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """``gh`` making a repository public or writing its workflows through the API."""
    if invocation.name != "gh":
        return None
    values = _values(invocation)
    if values[:2] == ["repo", "edit"] and any(
        v == "--visibility=public" or (v == "--visibility" and values[i + 1 : i + 2] == ["public"])
        for i, v in enumerate(values)
    ):
        return finding(CLOUD_CONTROL, invocation, "makes a repository public")
    if values[:1] != ["api"]:
        return None
    method, endpoint, fields = _api(values)
    if (
        method in ("PATCH", "POST", "PUT")
        and _REPOSITORY.match(endpoint)
        and any(map(_PUBLIC_FIELD.match, fields))
    ):
        return finding(CLOUD_CONTROL, invocation, "makes a repository public through the API")
    if method == "PUT" and _WORKFLOW_CONTENT.match(endpoint):
        return finding(
            CLOUD_CONTROL,
            invocation,
            "commits a CI workflow through the API: it runs with the repository's secrets",
        )
    return None
