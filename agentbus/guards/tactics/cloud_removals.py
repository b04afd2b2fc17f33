"""A cloud resource that holds data or runs the service destroyed, one at a time: asked.

Attack guides end with impact (a machine terminated, a database or a disk deleted) and clean-up
steps delete what they made; the per-API rules of :mod:`.cloud` hold such deletions when they run
over a listing (every machine) or skip the last backup. One machine, one disk or one cluster deleted
by name is still irreversible and is a person's decision, as ``az group delete`` and ``gcloud sql
instances delete`` already are (asked, :data:`~agentbus.guards.verdict.SERVICE`): the same holds here
across aws, gcloud, az, doctl and oci, by the resource the call names. Resources that cannot hold
data once deleted (an empty bucket: ``aws s3 rb`` without ``--force``), the parts of a resource (an
extension, a firewall rule, a user) and dry runs stay allowed; stopping a machine is not deleting it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy_regex import lazy_compile
from ..findings import finding
from ..programs import Invocation
from ..verdict import SERVICE, Verdict

if TYPE_CHECKING:
    from .cloud import CloudCall

__all__ = ["judge_call"]

_AWS_REMOVAL = lazy_compile(
    r"^(?:terminate-instances|delete-(?:volume|db-instance|db-cluster|cluster|table|file-system|domain|"
    r"elasticsearch-domain|replication-group|cache-cluster|serverless-cache|instance|notebook-instance|"
    r"stream|global-cluster|workgroup|namespace|broker|environment|warehouse|database))$"
)
"""aws operations that destroy a machine, a disk, a database, a cluster, a table or a file system."""
_AWS_SERVICES = frozenset({
    "ec2", "rds", "docdb", "neptune", "dynamodb", "efs", "fsx", "eks", "ecs", "lightsail", "redshift",
    "redshift-serverless", "elasticache", "memorydb", "opensearch", "es", "kafka", "kinesis", "sagemaker",
    "emr", "mq", "elasticbeanstalk", "timestream-write", "keyspaces", "qldb", "dax",
})  # fmt: skip
_GCLOUD_REMOVALS = frozenset({
    ("compute", "instances"), ("compute", "disks"), ("sql", "instances"), ("container", "clusters"),
    ("filestore", "instances"), ("redis", "instances"), ("memcache", "instances"), ("spanner", "instances"),
    ("spanner", "databases"), ("bigtable", "instances"), ("alloydb", "clusters"), ("dataproc", "clusters"),
    ("firestore", "databases"), ("compute", "instance-groups"), ("workstations", "clusters"),
})  # fmt: skip
"""gcloud groups whose ``delete`` destroys a machine, a disk, a database or a cluster."""
_AZ_REMOVALS = frozenset({
    ("vm",), ("vmss",), ("disk",), ("aks",), ("cosmosdb",), ("redis",), ("keyvault",), ("sql", "db"),
    ("sql", "server"), ("sql", "mi"), ("postgres", "server"), ("postgres", "flexible-server"),
    ("mysql", "server"), ("mysql", "flexible-server"), ("mariadb", "server"), ("storage", "account"),
    ("storage", "container"), ("storage", "share"), ("storage", "share-rm"), ("cosmosdb", "sql", "database"),
    ("cosmosdb", "mongodb", "database"), ("netappfiles", "volume"), ("synapse", "workspace"),
})  # fmt: skip
"""az command groups whose ``delete`` destroys a machine, a disk, a database, a store or a cluster."""
_OTHER_REMOVALS = {
    "doctl": frozenset({("compute", "droplet", "delete"), ("compute", "volume", "delete"),
                        ("databases", "delete"), ("kubernetes", "cluster", "delete")}),
    "oci": frozenset({("compute", "instance", "terminate"), ("bv", "volume", "delete"),
                      ("db", "system", "terminate"), ("db", "autonomous-database", "delete")}),
}  # fmt: skip
_DRY_RUN = ("--dry-run", "--dryrun", "--generate-cli-skeleton", "--help", "-h")


def _removed(call: CloudCall) -> str:
    """What the call destroys (``gcloud compute instances delete``), or ``""``."""
    path = tuple(word for word in call.path if word not in ("alpha", "beta"))
    if call.program == "aws" and len(path) >= 2:
        if path[0] in _AWS_SERVICES and _AWS_REMOVAL.match(path[1]):
            return f"aws {path[0]} {path[1]}"
    elif call.program == "gcloud" and "delete" in path[2:4]:
        if path[:2] in _GCLOUD_REMOVALS and path[2:3] in (("delete",), ("managed",)):
            return f"gcloud {' '.join(path[: path.index('delete') + 1])}"
    elif call.program == "az" and "delete" in path:
        group = path[: path.index("delete")]
        if group in _AZ_REMOVALS:
            return f"az {' '.join(group)} delete"
    elif call.program in _OTHER_REMOVALS:
        for removal in _OTHER_REMOVALS[call.program]:
            if path[: len(removal)] == removal:
                return f"{call.program} {' '.join(removal)}"
    return ""


def judge_call(invocation: Invocation, call: CloudCall) -> Verdict | None:
    """Asked when the call destroys a machine, a disk, a database, a store or a cluster."""
    if call.has(*_DRY_RUN) or "help" in call.path:
        return None
    what = _removed(call)
    if not what:
        return None
    return finding(SERVICE, invocation, f"{what} destroys a resource and what it holds: it cannot be undone")
