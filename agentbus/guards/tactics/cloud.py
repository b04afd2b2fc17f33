"""Tactic family ``cloud``: the cloud and cluster command-line tools, across tactics.

Attack scripts run on a developer's machine use the developer's cloud credentials
through the same CLIs the developer uses (Stratus Red Team's detonations, Atomic Red
Team's cloud tests, Pacu's modules). This module reads a call of ``aws``, ``gcloud``,
``az``, ``kubectl``/``oc``, ``helm``, ``terraform``, ``gsutil``, ``bq``, ``stratus`` or ``pacu`` as the CLI
does (global options such as ``--profile`` anywhere, ``--flag value`` and
``--flag=value``) and judges the operation and its options:

- :data:`~agentbus.guards.verdict.IMPAIR` / :data:`~agentbus.guards.verdict.EVIDENCE`:
  audit trails stopped or deleted (CloudTrail, GuardDuty, Config, Security Hub, flow
  logs, alarms, log groups, log sinks and their retention, organisation policies,
  diagnostic settings), cluster security agents (Falco, Datadog ...) deleted;
- :data:`~agentbus.guards.verdict.CREDENTIALS`: secrets printed in bulk or for a
  machine (``ec2 get-password-data``, ``batch-get-secret-value``, ``--with-decryption``,
  Key Vault downloads, storage account keys, Kubernetes secrets and service-account tokens);
- :data:`~agentbus.guards.verdict.CLOUD_CONTROL` (asked): who may do what changes:
  IAM users, keys, policies, trust, role bindings, temporary credentials minted,
  resources made public; :data:`~agentbus.guards.verdict.PRIVILEGE` (blocked) when the
  grant is the whole account (``AdministratorAccess``, ``roles/owner``, ``Owner``,
  ``cluster-admin``) or a privileged pod;
- :data:`~agentbus.guards.verdict.EXFILTRATION`: disk snapshots, images and database
  snapshots shared with another account; :data:`~agentbus.guards.verdict.BACKDOOR`:
  SSH, RDP or every port opened to the whole internet;
- :data:`~agentbus.guards.verdict.DATA_DESTRUCTION`: keys scheduled for deletion,
  databases deleted without a final snapshot, backups, projects, every namespace;
  :data:`~agentbus.guards.verdict.SERVICE` (asked): ``terraform destroy``, a resource
  group deleted, instances terminated, machines started with a boot script;
- :data:`~agentbus.guards.verdict.STEALTH_PERSISTENCE`: a boot script or SSH key put
  into an existing machine's metadata;
- every ``stratus detonate`` and every Pacu module that is not enumeration: these tools
  exist to attack, so their category follows the technique's tactic.

Listing, describing, deploying and reading logs stay allowed: ``aws s3 ls``, ``gcloud
builds submit``, ``kubectl apply -f k8s/``, ``terraform plan``, ``az account show``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ...frozen import Frozen
from ...lazy_regex import lazy_compile
from ..findings import finding, piece, static_args
from ..interpreters import fed_code, inline_code
from ..parse import Script
from ..programs import Invocation, walk
from ..verdict import (
    BACKDOOR,
    CLOUD_CONTROL,
    CREDENTIALS,
    DATA_DESTRUCTION,
    EVIDENCE,
    EXFILTRATION,
    IMPAIR,
    PRIVILEGE,
    REMOTE_ACCESS,
    SCHEDULED,
    SERVICE,
    STEALTH_PERSISTENCE,
    UPLOAD,
    Verdict,
)
from . import cloud_families, cloud_removals, cloud_run_as, pod_uploads
from .credentials import KUBE_SECRETS_PATH, secret_word

__all__ = ["CloudCall", "judge", "judge_script", "read_call"]

COMPUTED = cloud_families.COMPUTED
"""The value of an argument known only at run time (``$(aws ec2 describe-instances ...)``)."""


# -- reading a call as the CLI does ------------------------------------------------------


class CloudCall(Frozen):
    """One call of a cloud CLI: its command path, its options and what follows ``--``.

    ``path`` holds the positional words (``("iam", "create-user")``), lower-cased, with
    the values of the known global options (``--profile prod``) left out; ``options``
    maps each option to its values (aws: the words up to the next option, ``--instance-ids
    a b`` gives ``("a", "b")``; the others: one word; ``--role=x`` gives ``("x",)``). A word
    computed at run time reads :data:`COMPUTED`.
    """

    __slots__ = ("after", "options", "path", "program")

    program: str
    path: tuple[str, ...]
    options: dict[str, tuple[str, ...]]
    after: tuple[str, ...]

    def __init__(
        self, program: str, path: tuple[str, ...], options: dict[str, tuple[str, ...]], after: tuple[str, ...]
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "program", program)
        set_field(self, "path", path)
        set_field(self, "options", options)
        set_field(self, "after", after)

    def has(self, *names: str) -> bool:
        """Whether any of the options ``names`` was given."""
        return any(name in self.options for name in names)

    def value(self, *names: str) -> str:
        """The first value of the first of ``names`` given, or ``""``."""
        for name in names:
            values = self.options.get(name)
            if values:
                return values[0]
        return ""

    def values(self, *names: str) -> tuple[str, ...]:
        """Every value of the options ``names``."""
        return tuple(v for name in names for v in self.options.get(name, ()))

    @property
    def text(self) -> str:
        """Every option value, joined: the documents (JSON policies, selectors) given inline."""
        return " ".join(v for values in self.options.values() for v in values)


_GLOBAL_VALUES: dict[str, frozenset[str]] = {
    "aws": frozenset({"--profile", "--region", "--output", "--endpoint-url", "--query", "--color",
                      "--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout", "--cli-binary-format"}),
    "gcloud": frozenset({"--project", "--account", "--configuration", "--impersonate-service-account",
                         "--billing-project", "--format", "--verbosity", "--flags-file",
                         "--access-token-file",
                         "--trace-token", "--zone", "--region", "--location"}),
    "az": frozenset({"--subscription", "--output", "-o", "--query", "--resource-group", "-g", "-n", "-s",
                     "-l"}),
    "kubectl": frozenset({"-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s",
                          "--server", "--token", "--as", "--as-group", "--as-uid", "--request-timeout",
                          "--certificate-authority", "--client-certificate", "--client-key",
                          "--tls-server-name", "-l", "--selector", "-o", "--output", "-c", "--container",
                          "-f", "--filename", "--cache-dir", "-v", "--v", "--image", "--field-selector"}),
    "helm": frozenset({"-n", "--namespace", "--kube-context", "--kubeconfig", "--registry-config",
                       "--repository-cache", "--repository-config", "-f", "--values", "--set", "--version",
                       "--timeout"}),
    "terraform": frozenset({"-chdir", "-var", "-var-file", "-target", "-state", "-lock-timeout",
                            "-parallelism"}),
    "gsutil": frozenset({"-o", "-h", "-u"}),
    "bq": frozenset({"--project_id", "--location", "--format", "--dataset_id", "--api"}),
}  # fmt: skip
"""Options that take a value where it may be mistaken for a command word (``aws --profile prod iam``)."""
_GLOBAL_VALUES["oc"] = _GLOBAL_VALUES["kubectl"]
_FLAGS: dict[str, frozenset[str]] = {
    "gcloud": frozenset({"--quiet", "--async", "--disabled", "--log-http", "--user-output-enabled",
                         "--all", "--recursive", "--force", "--verbose", "--allow-unauthenticated"}),
    "az": frozenset({"--yes", "--no-wait", "--only-show-errors", "--debug", "--verbose", "--all",
                     "--force", "--admin", "--overwrite-existing"}),
    "kubectl": frozenset({"--all-namespaces", "--all", "--force", "--now", "--watch", "--ignore-not-found",
                          "--wait", "--privileged", "--rm", "--stdin", "--tty", "--insecure-skip-tls-verify",
                          "--overwrite", "--recursive", "--show-labels", "--attach", "--quiet"}),
    "helm": frozenset({"--all-namespaces", "--wait", "--dry-run", "--debug", "--keep-history", "--no-hooks",
                       "--atomic", "--install", "--force"}),
    "pacu": frozenset({"--exec", "--list-modules", "--pacu-help", "--quiet"}),
    "stratus": frozenset({"--force", "--cleanup", "--all"}),
}  # fmt: skip
"""Long options known to take no value (so that the word after one is read as a command word)."""
_FLAGS["oc"] = _FLAGS["kubectl"]


def _static_word(invocation: Invocation, raw: str) -> str:
    """A word's value; :data:`COMPUTED` where run time decides it, keeping the option's name
    (``--token=$(cat t)`` is ``--token=$(…)``)."""
    value = invocation.command.static(raw)
    if value is not None:
        return value
    text = invocation.command.render(raw)
    name, equals, _ = text.partition("=")
    if equals and re.fullmatch(r"--?[A-Za-z][\w-]*", name):
        return f"{name}={COMPUTED}"
    return COMPUTED


_DASHES = ("\u2013", "\u2014")
"""An en or em dash where ``--`` belongs (``–user-name``, as typeset pages print it): read as ``--``."""


def read_call(invocation: Invocation, program: str | None = None) -> CloudCall:
    """``invocation`` read as a call of ``program`` (default: its own name).

    aws options take lists (``--instance-ids a b``), so a word after an option is both
    its value and a positional word; the service and operation come first either way.
    The other CLIs take one value per long option unless it is a known flag, and none
    for an unknown short option (``-it``, ``-q``).
    """
    program = program or invocation.name
    words = [_static_word(invocation, raw) for raw in invocation.args]
    words = [f"--{word[1:]}" if word[:1] in _DASHES and len(word) > 1 else word for word in words]
    takes_value = _GLOBAL_VALUES.get(program, frozenset())
    flags = _FLAGS.get(program, frozenset())
    path: list[str] = []
    options: dict[str, list[str]] = {}
    current: list[str] | None = None
    index = 0
    after: tuple[str, ...] = ()
    while index < len(words):
        word = words[index]
        index += 1
        if word == "--":
            after = tuple(words[index:])
            break
        if word.startswith("-") and len(word) > 1 and word != COMPUTED and not word[1:2].isdigit():
            name, equals, value = word.partition("=")
            if not equals and not word.startswith("--") and len(word) > 2 and name[:2] in takes_value:
                name, value, equals = name[:2], name[2:], "="  # -nkube-system, -oyaml
            current = options.setdefault(name, [])
            if equals:
                current.append(value)
                current = None
            elif name in takes_value and index < len(words):
                current.append(words[index])
                index += 1
                current = None
            elif program != "aws" and (
                name in flags or name.startswith("--no-") or not name.startswith("--")
            ):
                current = None
            continue
        if current is not None:
            current.append(word)
            if program != "aws":
                current = None  # one value per option
                continue
        path.append(word.lower())
    return CloudCall(program, tuple(path), {k: tuple(v) for k, v in options.items()}, after)


def _verdict(category: str, invocation: Invocation, why: str) -> Verdict:
    return finding(category, invocation, why)


def _computed(call: CloudCall) -> bool:
    """Whether a name the call acts on is computed at run time (``$(gcloud ... list)``)."""
    return COMPUTED in call.path or any(COMPUTED in values for values in call.options.values())


# -- what several CLIs share -------------------------------------------------------------

_WORLD = lazy_compile(
    r"(?:^|[\s\"'=,\[])(?:(?:\d{1,3}\.){3}\d{1,3}/0|[0-9a-f:]*::[0-9a-f:]*/0|\*|Internet|Any)(?:$|[\s\"',\]])",
    re.IGNORECASE,
)
_ADMIN_PORT = lazy_compile(r"(?:^|[^\d])(?:22|3389|5985|5986|0-65535|1-65535)(?:$|[^\d])")
_ADMIN_POLICY = lazy_compile(r"/(?:AdministratorAccess|IAMFullAccess)$")
_EVERYTHING_ALLOWED = lazy_compile(
    r"\"Effect\"\s*:\s*\"Allow\".{0,200}?\"Action\"\s*:\s*(?:\[\s*)?\"(?:\*|\*:\*|iam:\*)\""
    r"|\"Action\"\s*:\s*(?:\[\s*)?\"(?:\*|\*:\*|iam:\*)\".{0,200}?\"Effect\"\s*:\s*\"Allow\"",
    re.DOTALL,
)
_PUBLIC_PRINCIPAL = lazy_compile(r"\"Principal\"\s*:\s*(?:\"\*\"|\{\s*\"AWS\"\s*:\s*(?:\[\s*)?\"\*\")")
_OWNER_ROLE = lazy_compile(
    r"^(?:roles/(?:owner|resourcemanager\.organizationAdmin|resourcemanager\.projectIamAdmin|"
    r"iam\.securityAdmin|iam\.organizationRoleAdmin)|Owner|User Access Administrator|"
    r"8e3af657-a8ff-443c-a75c-2fe8c4bcb635|18d7d88d-d35e-4fb5-a5c3-7773c20a72d9)$",
    re.IGNORECASE,
)
"""Roles that hand over the whole project or subscription (Azure's by name or by id)."""
_PUBLIC_MEMBER = frozenset({"allusers", "allauthenticatedusers"})

_SECURITY_AGENTS = lazy_compile(
    r"(?:^|[/.:_-])(?:falco|falcosidekick|tetragon|tracee|sysdig|sysdig-agent|datadog|datadog-agent|"
    r"crowdstrike|falcon-sensor|falcon|aqua|aqua-enforcer|twistlock|prisma-cloud|defender|microsoft-defender|"
    r"wiz|wiz-sensor|lacework|lacework-agent|neuvector|stackrox|kube-bench|gatekeeper|gatekeeper-system|kyverno|"
    r"auditd|audit-policy|kube-audit|falco-system|security-profiles-operator|"
    r"cilium-tetragon|guardduty-agent|amazon-guardduty|aws-guardduty-agent|calico-audit)(?:$|[/.:_-])",
    re.IGNORECASE,
)
"""Names of the cluster's security and audit agents: deleting them blinds the defenders."""
_POLICY_KINDS = frozenset({"validatingwebhookconfiguration", "validatingwebhookconfigurations",
                           "mutatingwebhookconfiguration", "mutatingwebhookconfigurations",
                           "clusterpolicy", "clusterpolicies", "constrainttemplate", "constrainttemplates",
                           "validatingadmissionpolicy", "validatingadmissionpolicies",
                           "podsecuritypolicy", "podsecuritypolicies"})  # fmt: skip
_NAMESPACE_KINDS = frozenset({"ns", "namespace", "namespaces", "all", "pv", "pvc", "persistentvolume",
                              "persistentvolumes", "persistentvolumeclaim",
                              "persistentvolumeclaims"})  # fmt: skip


def _days(value: str) -> int | None:
    try:
        return int(value.strip().strip("'\""))
    except ValueError:
        return None


def _expiry_days(document: str) -> int | None:
    """The shortest ``Expiration`` of a lifecycle document given inline (None: none or unreadable)."""
    found = [
        int(d)
        for d in re.findall(r"\"?Expiration\"?\s*[:=]\s*\{[^}]{0,200}?\"?Days\"?\s*[:=]\s*(\d+)", document)
    ]
    found += [int(d) for d in re.findall(r"Expiration=\{?Days=(\d+)", document)]
    return min(found) if found else None


# -- aws ----------------------------------------------------------------------------------


def _each(service: str, operations: str, verdict: tuple[str, str]) -> dict[tuple[str, str], tuple[str, str]]:
    return {(service, operation): verdict for operation in operations.split()}


_AWS_OPERATIONS: dict[tuple[str, str], tuple[str, str]] = {
    # defense impairment: the account's audit trail and detectors
    **_each("cloudtrail", "stop-logging delete-trail update-trail delete-event-data-store delete-channel "
            "stop-event-data-store-ingestion",
            (IMPAIR, "stops, deletes or redirects the account's CloudTrail audit log")),
    **_each("guardduty", "delete-detector disassociate-from-master-account disassociate-members "
            "disassociate-from-administrator-account delete-members stop-monitoring-members "
            "delete-publishing-destination create-ip-set update-ip-set delete-threat-intel-set",
            (IMPAIR, "turns GuardDuty off, detaches it or teaches it to trust an address list")),
    **_each("securityhub", "disable-security-hub batch-disable-standards disable-import-findings-for-product "
            "disassociate-from-administrator-account disassociate-from-master-account delete-members "
            "disable-organization-admin-account",
            (IMPAIR, "turns Security Hub or its standards off")),
    **_each("cloudwatch", "delete-alarms disable-alarm-actions delete-anomaly-detector",
            (IMPAIR, "deletes or silences the alarms that watch the account")),
    **_each("logs", "delete-log-group delete-log-stream",
            (EVIDENCE, "deletes a CloudWatch log group or stream: the records are gone")),
    **_each("logs", "delete-subscription-filter delete-metric-filter delete-destination",
            (IMPAIR, "stops CloudWatch logs being forwarded or watched")),
    ("ec2", "delete-flow-logs"): (IMPAIR, "deletes VPC flow logs"),
    ("ec2", "disable-ebs-encryption-by-default"): (IMPAIR, "turns off the account's default disk encryption"),
    ("organizations", "leave-organization"): (IMPAIR, "takes the account out of its organisation's rules"),
    ("organizations", "detach-policy"): (IMPAIR, "detaches an organisation's guardrail policy"),
    ("organizations", "disable-policy-type"): (IMPAIR, "turns off an organisation's guardrail policies"),
    ("detective", "delete-graph"): (IMPAIR, "deletes Amazon Detective's behaviour graph"),
    ("detective", "disassociate-membership"): (IMPAIR, "takes the account out of Amazon Detective"),
    ("macie2", "disable-macie"): (IMPAIR, "turns Amazon Macie off"),
    ("inspector2", "disable"): (IMPAIR, "turns Amazon Inspector off"),
    ("access-analyzer", "delete-analyzer"): (IMPAIR, "deletes the IAM Access Analyzer"),
    **_each("route53resolver", "delete-resolver-query-log-config disassociate-resolver-query-log-config",
            (IMPAIR, "stops DNS query logging")),
    ("wafv2", "delete-logging-configuration"): (IMPAIR, "stops the web firewall's logging"),
    **_each("fms", "delete-policy disassociate-admin-account",
            (IMPAIR, "deletes Firewall Manager's policies or detaches its administrator")),
    **_each("wafv2", "delete-web-acl delete-rule-group disassociate-web-acl "
            "delete-firewall-manager-rule-groups",
            (IMPAIR, "deletes or detaches the web firewall's rules")),
    **_each("network-firewall", "delete-firewall delete-firewall-policy delete-rule-group "
            "disassociate-subnets", (IMPAIR, "deletes the network firewall or its rules")),
    ("shield", "delete-protection"): (IMPAIR, "removes a resource's DDoS protection"),
    # credentials
    ("ec2", "get-password-data"): (CREDENTIALS, "decrypts a Windows machine's administrator password"),
    ("secretsmanager", "batch-get-secret-value"): (CREDENTIALS, "prints many Secrets Manager secrets"),
    ("secretsmanager", "get-secret-value"): (CREDENTIALS, "prints a Secrets Manager secret"),
    ("configure", "export-credentials"): (CREDENTIALS, "prints the profile's AWS credentials"),
    **_each("lightsail", "get-instance-access-details download-default-key-pair",
            (CREDENTIALS, "prints a machine's SSH private key")),
    ("lightsail", "get-relational-database-master-user-password"): (
        CREDENTIALS, "prints a database's administrator password"),
    ("redshift", "get-cluster-credentials"): (CREDENTIALS, "mints a database login for any of its users"),
    # exfiltration: whole disks exported
    **_each("ec2", "create-instance-export-task export-image",
            (EXFILTRATION, "exports a machine's whole disk to a bucket")),
    ("rds", "start-export-task"): (EXFILTRATION, "exports a whole database snapshot to a bucket"),
    ("s3api", "put-bucket-replication"): (
        CLOUD_CONTROL, "copies every new object of the bucket to another bucket (another account's, maybe)"
    ),
    # cloud control: minting credentials, access to machines, resource policies
    **_each("sts", "assume-role assume-role-with-saml assume-role-with-web-identity get-session-token "
            "get-federation-token",
            (CLOUD_CONTROL, "mints temporary AWS credentials")),
    **_each("ec2-instance-connect", "send-ssh-public-key send-serial-console-ssh-public-key",
            (CLOUD_CONTROL, "lets an SSH key into a machine")),
    ("kms", "put-key-policy"): (CLOUD_CONTROL, "changes who may use an encryption key"),
    ("kms", "create-grant"): (CLOUD_CONTROL, "lets another principal use an encryption key"),
    **_each("sqs", "add-permission", (CLOUD_CONTROL, "lets other accounts use the queue")),
    **_each("sns", "add-permission", (CLOUD_CONTROL, "lets other accounts use the topic")),
    ("events", "put-permission"): (CLOUD_CONTROL, "lets other accounts send to the event bus"),
    ("lambda", "add-layer-version-permission"): (CLOUD_CONTROL, "lets other accounts use a code layer"),
    ("secretsmanager", "put-resource-policy"): (CLOUD_CONTROL, "changes who may read a secret"),
    ("ecr", "set-repository-policy"): (CLOUD_CONTROL, "changes who may pull or push the images"),
    ("glacier", "set-vault-access-policy"): (CLOUD_CONTROL, "changes who may read an archive vault"),
    ("backup", "put-backup-vault-access-policy"): (CLOUD_CONTROL, "changes who may use a backup vault"),
    ("s3api", "delete-public-access-block"): (CLOUD_CONTROL, "lets a bucket be made public"),
    **_each("ec2", "associate-iam-instance-profile replace-iam-instance-profile-association",
            (CLOUD_CONTROL, "gives a machine a role: whoever runs code on it acts as that role")),
    ("ec2", "enable-serial-console-access"): (CLOUD_CONTROL, "opens machines' serial consoles to SSH keys"),
    **_each("glue", "create-dev-endpoint update-dev-endpoint",
            (CLOUD_CONTROL, "a Glue endpoint that runs one's code (and SSH key) as a role")),
    ("cognito-identity", "get-credentials-for-identity"): (CLOUD_CONTROL, "mints temporary AWS credentials"),
    ("s3control", "delete-public-access-block"): (CLOUD_CONTROL, "lets every bucket be made public"),
    # impact
    # commands run on the account's machines (lateral movement, asked as a deploy may be a developer's)
    ("ssm", "send-command"): (REMOTE_ACCESS, "runs commands or a script on the account's machines"),
    ("ssm", "create-association"): (SCHEDULED, "runs an SSM document on machines, again and again"),
    ("sqs", "purge-queue"): (SERVICE, "deletes every message waiting in a queue"),
    ("kms", "schedule-key-deletion"): (DATA_DESTRUCTION, "deletes an encryption key: its data is lost"),
    ("kms", "disable-key"): (DATA_DESTRUCTION, "disables an encryption key: its data cannot be read"),
    **_each("kms", "delete-custom-key-store delete-imported-key-material",
            (DATA_DESTRUCTION, "deletes encryption keys' material: what they encrypt is lost")),
    ("backup", "delete-backup-vault"): (DATA_DESTRUCTION, "deletes a backup vault"),
    ("backup", "delete-recovery-point"): (DATA_DESTRUCTION, "deletes a backup"),
    ("s3api", "delete-objects"): (DATA_DESTRUCTION, "deletes objects from a bucket in bulk"),
}  # fmt: skip
"""Operations judged whatever their options: (service, operation) -> (category, why)."""

_IDENTITY_CHANGES: dict[str, re.Pattern[str]] = {
    "rolesanywhere": lazy_compile(r"^(?:create|update|enable)-"),
    "sso-admin": lazy_compile(
        r"^(?:create-account-assignment|create-permission-set|attach-|detach-|put-|delete-account-assignment|"
        r"delete-inline-policy|delete-permissions-boundary|update-permission-set|provision-permission-set)"
    ),
    "cognito-identity": lazy_compile(
        r"^(?:set-identity-pool-roles|update-identity-pool|merge-developer-identities)$"
    ),
    "identitystore": lazy_compile(r"^(?:create|update)-"),
    "eks": lazy_compile(r"^(?:create-access-entry|update-access-entry|associate-access-policy)$"),
    "organizations": lazy_compile(r"^(?:invite-account-to-organization|create-account)$"),
    "cognito-idp": lazy_compile(
        r"^(?:update-user-attributes|admin-(?:update-user-attributes|add-user-to-group|set-user-password|"
        r"reset-user-password|create-user|confirm-sign-up|enable-user|link-provider-for-user|"
        r"set-user-mfa-preference|set-user-settings|initiate-auth|respond-to-auth-challenge)|"
        r"update-user-pool-client|create-user-pool-client|set-user-pool-mfa-config)$"
    ),
}
"""Services besides IAM that decide who gets credentials (IAM Roles Anywhere, Identity Center, EKS access,
Cognito user pools: a user's ``custom:role`` attribute or group is what the application trusts; Cognito
identity pools: which roles, and whether strangers without a login get one)."""
_CLUSTER_ADMIN_POLICY = lazy_compile(r"/(?:AmazonEKSClusterAdminPolicy|AmazonEKSAdminPolicy)$")
_IAM_CHANGES = lazy_compile(
    r"^(?:create|attach|put|update|add|set|delete|detach|remove|upload|enable|deactivate|reset|change|tag|untag)-"
)
"""IAM operations that change who may do what; tags too (``tag-user``): policies that test
``aws:PrincipalTag`` grant by them."""
_BACKUP_DELETIONS: dict[str, frozenset[str]] = {
    "ec2": frozenset({"delete-snapshot", "delete-volume", "deregister-image", "terminate-instances"}),
    "rds": frozenset(
        {"delete-db-snapshot", "delete-db-cluster-snapshot", "delete-db-instance", "delete-db-cluster"}
    ),
    "backup": frozenset({"delete-recovery-point"}),
    "s3api": frozenset({"delete-object", "delete-bucket"}),
    "secretsmanager": frozenset({"delete-secret"}),
    "dynamodb": frozenset({"delete-table", "delete-backup"}),
}
"""Deletions that, run over a listing (``$(aws ... describe-snapshots)``, ``| xargs``), destroy them all."""
_MANY_MACHINES = 10
_COSTLY_MACHINE = lazy_compile(r"^(?:p[2-6]|g[3-6]\w*|trn\d|inf\d|dl\d|x[12]\w*|u-\d+)[a-z]*\.")
_SNAPSHOT_SHARES = {
    ("ec2", "modify-snapshot-attribute"): "a disk snapshot",
    ("ec2", "modify-image-attribute"): "a machine image",
    ("rds", "modify-db-snapshot-attribute"): "a database snapshot",
    ("rds", "modify-db-cluster-snapshot-attribute"): "a database cluster snapshot",
    ("ebs", "modify-snapshot-attribute"): "a disk snapshot",
}


def _aws(invocation: Invocation, call: CloudCall) -> Verdict | None:
    if len(call.path) < 2 or "help" in call.path:
        return None
    service, operation = call.path[0], call.path[1]
    known = _AWS_OPERATIONS.get((service, operation))
    if (service, operation) == ("cloudtrail", "update-trail") and set(call.options) <= _TRAIL_HARDENING:
        return None  # log file validation, every region: the trail made stronger
    if known is not None:
        return _verdict(known[0], invocation, known[1])
    for judge_operation in _AWS_JUDGES:
        verdict = judge_operation(invocation, call, service, operation)
        if verdict is not None:
            return verdict
    return None


_TRAIL_HARDENING = frozenset({"--name", "--enable-log-file-validation", "--is-multi-region-trail",
                               "--include-global-service-events", "--is-organization-trail"})  # fmt: skip
"""``update-trail`` options that only make the trail cover or prove more."""
_SECURITY_SERVICES_AWS = frozenset({"guardduty", "securityhub", "macie2", "inspector2", "detective",
                                    "access-analyzer", "fms", "configservice", "auditmanager"})  # fmt: skip
_SHORT_EXPIRY = 7
"""Days within which a lifecycle rule over a whole bucket deletes all of it (asked: a bucket for scratch
files may want it, a bucket of records is gone)."""
_SECURITY_DETACHED = lazy_compile(r"^(?:disable|disassociate|stop|deregister)-")
_AUDIT_PARAMETER_OFF = lazy_compile(
    r"ParameterName\W{0,3}(?:general_log|slow_query_log|log_statement|log_connections|log_disconnections|"
    r"pgaudit\.\w+|server_audit\w*|audit_trail|log_min_duration_statement)\W{0,3}[,\s]+\W{0,3}"
    r"ParameterValue\W{0,3}(?:0|off|none|false|-1)\b",
    re.IGNORECASE,
)
"""A database parameter that turns its query, connection or audit log off."""
_LOGINS = lazy_compile(
    r"^(?:create|update)-user$|^create-[\w-]*(?:access-key|credential)s?$|^(?:reset|update|set)-[\w-]*password$"
)
"""Operations that make or change a login to a service (a broker's console user, a bucket's access key)."""


def _aws_logging(invocation: Invocation, call: CloudCall, service: str, operation: str) -> Verdict | None:
    text = call.text
    if service in _SECURITY_SERVICES_AWS and (
        _SECURITY_DETACHED.match(operation) or operation.startswith("delete-")
    ):
        why = f"{service} {operation}: a security service turned off or detached"
        return _verdict(IMPAIR, invocation, why)
    if service in _DATABASES and "parameter-group" in operation and _AUDIT_PARAMETER_OFF.search(text):
        return _verdict(IMPAIR, invocation, "turns a database's query or audit log off")
    if service == "s3api" and (
        call.has("--bypass-governance-retention")
        or (operation == "put-object-legal-hold" and re.search(r"Status\W{0,3}OFF", text))
    ):
        return _verdict(IMPAIR, invocation, "lifts an object's retention lock (what keeps it from deletion)")
    if call.has("--force-delete-without-recovery"):
        return _verdict(DATA_DESTRUCTION, invocation, f"{service} {operation} with no recovery window")
    if operation.endswith("data-protection-policy") and (
        operation.startswith("delete-") or not call.value("--data-protection-policy").strip("'\" {}")
    ):
        return _verdict(IMPAIR, invocation, "removes a data protection policy (what masks or audits data)")
    if service == "wafv2" and operation in ("update-ip-set", "update-web-acl", "update-rule-group"):
        return _verdict(
            CLOUD_CONTROL, invocation, "changes which addresses or requests the web firewall lets in"
        )
    if re.search(r"allowPublicOverrides\W{0,3}=\W{0,3}true|getObject\W{0,3}=\W{0,3}public", text, re.I):
        return _verdict(CLOUD_CONTROL, invocation, "lets a bucket's objects be public")
    if re.match(r"^create-presigned-[\w-]*url$", operation):
        return _verdict(CLOUD_CONTROL, invocation, "mints a sign-in URL: whoever holds it acts as that user")
    if "lifecycle-config" in operation and operation.startswith(("create-", "update-")):
        return _verdict(SERVICE, invocation, "code that runs in every notebook or studio app as it starts")
    if (
        service == "lambda"
        and operation == "add-permission"
        and not call.value("--principal").endswith((".amazonaws.com", ".amazon.com"))
    ):
        return _verdict(CLOUD_CONTROL, invocation, "lets another account or user invoke the function")
    if operation.startswith("update-") and (
        call.has("--role", "--role-arn", "--execution-role-arn", "--service-role")
        or re.search(r"\bExecutionRole\W{0,3}=", text)
    ):
        return _verdict(CLOUD_CONTROL, invocation, f"{service} {operation} gives a resource another role")
    if service not in ("iam", "cognito-idp") and _LOGINS.match(operation):
        return _verdict(CLOUD_CONTROL, invocation, f"{service} {operation} makes or changes a login")
    if service == "kms" and (
        call.has("--bypass-policy-lockout-safety-check")
        or (operation == "replicate-key" and call.has("--policy"))
    ):
        return _verdict(CLOUD_CONTROL, invocation, "sets an encryption key's policy past its safety check")
    if service == "cloudtrail" and operation == "put-event-selectors":
        keeps_management = re.search(r"IncludeManagementEvents\"?\s*[:=]\s*true", text, re.IGNORECASE)
        narrowed = re.search(r"ReadOnly|WriteOnly|NotEquals|\"?Management\"?", text)
        if not keeps_management or narrowed or "file://" in text or COMPUTED in text:
            return _verdict(IMPAIR, invocation, "narrows what CloudTrail records: management events drop out")
    if (
        service == "guardduty"
        and operation == "update-detector"
        and (call.has("--no-enable") or call.value("--enable").lower() == "false")
    ):
        return _verdict(IMPAIR, invocation, "turns GuardDuty's detector off")
    if service == "guardduty" and operation == "update-detector" and _detector_weakened(call):
        return _verdict(IMPAIR, invocation, "turns GuardDuty's data sources or features off")
    if (
        service == "guardduty"
        and operation == "update-detector"
        and call.value("--finding-publishing-frequency").upper() in _SLOW_PUBLISHING
    ):
        why = "slows the publishing of GuardDuty's updated findings to its alerts (hours, not minutes)"
        return _verdict(CLOUD_CONTROL, invocation, why)
    if service == "events" and operation in _RULE_CHANGES and _security_rule(call):
        return _verdict(
            IMPAIR, invocation, "disables, re-points or strips the rule that carries security findings"
        )
    if (
        service == "guardduty"
        and operation in ("create-filter", "update-filter")
        and (call.value("--action").upper() == "ARCHIVE")
    ):
        return _verdict(IMPAIR, invocation, "archives GuardDuty findings as they arrive")
    if service == "configservice" and (
        operation.startswith("delete-") or operation == "stop-configuration-recorder"
    ):
        return _verdict(IMPAIR, invocation, "stops or deletes AWS Config's recording of changes")
    if (
        service == "securityhub"
        and operation in ("batch-update-findings", "update-findings")
        and "SUPPRESSED" in text
    ):
        return _verdict(IMPAIR, invocation, "suppresses Security Hub findings")
    if service == "logs" and operation == "put-retention-policy":
        days = _days(call.value("--retention-in-days"))
        if days is not None and days <= 1:
            return _verdict(
                EVIDENCE, invocation, "makes CloudWatch delete the log group's records within a day"
            )
    if service == "s3api" and operation in ("put-bucket-lifecycle-configuration", "put-bucket-lifecycle"):
        days = _expiry_days(text)
        if days is not None and days <= 1:
            return _verdict(
                IMPAIR, invocation, "makes S3 delete the bucket's objects (a trail's logs) within a day"
            )
        whole = not re.search(r"\"Prefix\"\s*:\s*\"[^\"]|\"Tag\"|\"And\"", text)
        if days is not None and days <= _SHORT_EXPIRY and whole:
            why = f"makes S3 delete every object of the bucket within {days} days"
            return _verdict(SERVICE, invocation, why)
    if service == "s3api" and operation == "put-bucket-logging" and not re.search(r"LoggingEnabled", text):
        return _verdict(IMPAIR, invocation, "turns a bucket's access logging off")
    if (
        service == "eks"
        and operation == "update-cluster-config"
        and re.search(r"\"?enabled\"?\s*[:=]\s*false", call.value("--logging"), re.IGNORECASE)
    ):
        return _verdict(IMPAIR, invocation, "turns a cluster's audit logging off")
    return None


_RULE_CHANGES = frozenset({"put-rule", "disable-rule", "delete-rule", "remove-targets", "put-targets"})
_SECURITY_SOURCES = lazy_compile(
    r"guardduty|security-?hub|cloudtrail|access-?analyzer|inspector2?\b|macie|aws\.detective|aws\.config\b",
    re.IGNORECASE,
)
"""What an EventBridge rule that carries security findings (to a team's mail, chat or SIEM) is named for."""


def _security_rule(call: CloudCall) -> bool:
    """Whether an EventBridge change touches a rule that carries security findings.

    The rule's name says so (``guardduty-event``), or its pattern does; ``put-rule`` on such a
    rule counts when it disables it or its pattern no longer names the security source (how an
    intruder keeps the rule in place while nothing matches any more).
    """
    names = " ".join(call.values("--name", "--rule"))
    pattern = call.value("--event-pattern")
    if call.path[1] != "put-rule":
        return bool(_SECURITY_SOURCES.search(names))
    if call.value("--state").upper() == "DISABLED":
        return bool(_SECURITY_SOURCES.search(names) or _SECURITY_SOURCES.search(pattern))
    return bool(_SECURITY_SOURCES.search(names)) and bool(pattern) and not _SECURITY_SOURCES.search(pattern)


_SLOW_PUBLISHING = frozenset({"ONE_HOUR", "SIX_HOURS"})
"""GuardDuty's slower finding publishing frequencies: a finding's later sightings reach the alerts (and the
responder) an hour or six later than the quickest (``FIFTEEN_MINUTES``). Six hours is the service's
default, so setting it is often plain configuration; a person is asked, as for other cloud settings."""


def _detector_weakened(call: CloudCall) -> bool:
    """``update-detector --data-sources S3Logs={Enable=false}``, ``--features Name=...,Status=DISABLED``:
    the detector stays on while it sees less. (``--finding-publishing-frequency SIX_HOURS`` delays
    findings rather than hiding them: asked, :data:`_SLOW_PUBLISHING`.)"""
    text = " ".join(call.values("--data-sources", "--features"))
    return bool(re.search(r"Enable\"?\s*[:=]\s*false|Status\"?\s*[:=]\s*\"?DISABLED", text, re.IGNORECASE))


_SERVICE_DOMAIN = lazy_compile(
    r"(?:^|\.)(?:amazonaws\.com|amazonaws\.com\.cn|aws\.amazon\.com|googleapis\.com|azure\.com|"
    r"windows\.net|azure\.net|microsoftonline\.com)\.?$",
    re.IGNORECASE,
)
"""The cloud providers' own API domains: a zone or record of that name answers for the provider."""


def _aws_dns(invocation: Invocation, call: CloudCall, service: str, operation: str) -> Verdict | None:
    """A private zone named after a cloud API (``secretsmanager.us-east-1.amazonaws.com``): inside the
    network, calls to that API (and the secrets they carry) go where the zone's records say."""
    if service != "route53":
        return None
    if operation == "create-hosted-zone" and _SERVICE_DOMAIN.search(call.value("--name")):
        return _verdict(IMPAIR, invocation, "answers for a cloud provider's API name inside the network")
    if operation == "change-resource-record-sets" and re.search(
        r"\"?Name\"?\s*[:=]\s*\"?[\w.-]*(?:amazonaws\.com|googleapis\.com|azure\.com)\.?\"?",
        call.value("--change-batch"),
    ):
        return _verdict(IMPAIR, invocation, "points a cloud provider's API name at other addresses")
    return None


def _aws_secrets(invocation: Invocation, call: CloudCall, service: str, operation: str) -> Verdict | None:
    if (
        service == "apigateway"
        and operation in ("get-api-keys", "get-api-key")
        and call.has("--include-values", "--include-value")
    ):
        return _verdict(CREDENTIALS, invocation, "prints API Gateway keys' values")
    if service == "ssm" and operation.startswith("get-parameter") and call.has("--with-decryption"):
        return _verdict(CREDENTIALS, invocation, "prints decrypted SSM SecureString parameters")
    if (
        service == "ec2"
        and operation == "describe-instance-attribute"
        and call.value("--attribute").lower() == "userdata"
    ):
        return _verdict(CREDENTIALS, invocation, "prints a machine's boot script, where secrets are left")
    if (
        service == "configure"
        and operation == "get"
        and len(call.path) > 2
        and re.search(r"secret|session_token|access_key", call.path[2])
    ):
        return _verdict(CREDENTIALS, invocation, "prints the profile's AWS credentials")
    return None


_DATABASES = frozenset({"rds", "docdb", "neptune", "redshift"})
_DATABASE_SETUPS = ("create-db-", "restore-db-", "modify-db-", "create-cluster", "modify-cluster",
                    "restore-from-cluster-snapshot")  # fmt: skip
"""Operations that make or reconfigure a database (``--publicly-accessible``: open to the internet)."""
_OBJECT_WRITES = frozenset({"put-object", "delete-object", "delete-objects", "copy-object"})


def _anonymous_write(call: CloudCall, service: str, operation: str) -> bool:
    """``aws s3 cp x.js s3://b/k --no-sign-request``: a bucket written with no credentials is not the
    account's own; it was left writable by anyone (a site's scripts replaced, CloudGoat's ``static``)."""
    if service == "s3api":
        return operation in _OBJECT_WRITES
    if service != "s3":
        return False
    return operation == "rm" or (operation in ("cp", "mv", "sync") and call.path[3:4] >= ("s3://",)
                                 and call.path[3].startswith("s3://"))  # fmt: skip


_MASTER_PASSWORDS = frozenset({("rds", "modify-db-instance"), ("rds", "modify-db-cluster"),
                               ("docdb", "modify-db-cluster"), ("neptune", "modify-db-cluster"),
                               ("redshift", "modify-cluster")})  # fmt: skip


def _aws_database_login(
    invocation: Invocation, call: CloudCall, service: str, operation: str
) -> Verdict | None:
    """``aws rds modify-db-instance --master-user-password X``: whoever sets it logs in as its admin."""
    if (service, operation) in _MASTER_PASSWORDS and call.has("--master-user-password"):
        return _verdict(CLOUD_CONTROL, invocation, "resets a database's administrator password")
    return None


def _aws_iam(invocation: Invocation, call: CloudCall, service: str, operation: str) -> Verdict | None:
    if service != "iam" or not _IAM_CHANGES.match(operation):
        return None
    if any(_ADMIN_POLICY.search(arn) for arn in call.values("--policy-arn")):
        return _verdict(PRIVILEGE, invocation, "grants full administrator access to the account")
    if _EVERYTHING_ALLOWED.search(call.value("--policy-document")):
        return _verdict(PRIVILEGE, invocation, "grants every action on the account")
    return _verdict(CLOUD_CONTROL, invocation, f"iam {operation} changes who may do what in the account")


def _aws_identity(invocation: Invocation, call: CloudCall, service: str, operation: str) -> Verdict | None:
    changes = _IDENTITY_CHANGES.get(service)
    if changes is None or not changes.match(operation):
        return None
    if any(_CLUSTER_ADMIN_POLICY.search(arn) for arn in call.values("--policy-arn")):
        return _verdict(PRIVILEGE, invocation, "makes a principal administrator of the cluster")
    return _verdict(CLOUD_CONTROL, invocation, f"{service} {operation} changes who may get credentials")


_PUBLIC_ACLS = frozenset({"public-read-write", "authenticated-read"})
_PUBLISHING_WRITES = frozenset({"put-object", "copy-object", "put-object-acl", "create-multipart-upload"})
_EVERY_ACCOUNT = lazy_compile(r"acs\.amazonaws\.com/groups/global/AuthenticatedUsers", re.IGNORECASE)
_ANYONE_CONTROLS = lazy_compile(
    r"(?:^|[\s,])(?:full|writeacl|read|readacl)=uri=https?://acs\.amazonaws\.com/groups/global/AllUsers",
    re.IGNORECASE,
)
"""An explicit grant to the global ``AllUsers`` group: the spelling that exposes one object (attack guides'
``--grants read=uri=.../AllUsers``), or lets anyone change it."""


def _public_object(call: CloudCall, service: str, operation: str) -> bool:
    """``aws s3 cp x s3://b/k --acl authenticated-read``, ``--grants read=uri=.../AllUsers``: the object
    is left to every AWS account, to anyone by an explicit grant, or to anyone to change. (``--acl
    public-read`` on a whole site's sync is how a static site is published: it stays the developer's.)"""
    writes = (service == "s3" and operation in ("cp", "mv", "sync")) or (
        service == "s3api" and operation in _PUBLISHING_WRITES
    )
    if not writes:
        return False
    grants = " ".join(call.values("--grants", "--grant-read", "--grant-full-control", "--grant-read-acp"))
    anyone_controls = " ".join(call.values("--grant-full-control", "--grant-write-acp", "--grant-read"))
    return (
        call.value("--acl").lower() in _PUBLIC_ACLS
        or bool(_EVERY_ACCOUNT.search(grants))
        or bool(_ANYONE_CONTROLS.search(grants))
        or "AllUsers" in anyone_controls
    )


def _aws_exposure(invocation: Invocation, call: CloudCall, service: str, operation: str) -> Verdict | None:
    text = call.text
    shared = _SNAPSHOT_SHARES.get((service, operation))
    if shared is not None and (
        call.value("--operation-type").lower() == "add"
        or call.has("--values-to-add")
        or re.search(r"\bAdd=|\"Add\"\s*:", text, re.IGNORECASE)
    ):
        return _verdict(EXFILTRATION, invocation, f"shares {shared} with another account or everyone")
    if service == "ec2" and operation in ("authorize-security-group-ingress", "modify-security-group-rules"):
        world = any(_WORLD.search(v) for v in call.values("--cidr", "--cidr-ipv6", "--cidr-ip")) or re.search(
            r"(?:CidrIp(?:v6)?[\"']?\s*[:=]\s*[\"']?(?:(?:\d{1,3}\.){3}\d{1,3}/0|::/0))", text, re.IGNORECASE
        )
        ports = " ".join(
            call.values("--port", "--from-port", "--to-port", "--ip-permissions", "--security-group-rules")
        )
        every = call.value("--protocol", "--ip-protocol") in ("-1", "all") or re.search(
            r"IpProtocol[\"']?\s*[:=]\s*[\"']?-1", text, re.IGNORECASE
        )
        if world and (every or _ADMIN_PORT.search(ports)):
            return _verdict(BACKDOOR, invocation, "opens SSH, RDP or every port to the whole internet")
    if (
        service == "s3api"
        and operation == "put-bucket-policy"
        and _PUBLIC_PRINCIPAL.search(call.value("--policy"))
    ):
        return _verdict(CLOUD_CONTROL, invocation, "lets anyone read or write the bucket")
    if (
        service == "s3api"
        and operation in ("put-bucket-acl", "put-public-access-block")
        and (
            call.value("--acl") in ("public-read", "public-read-write", "authenticated-read")
            or "AllUsers" in text
            or "AuthenticatedUsers" in text
            or re.search(r"(?:BlockPublic\w+|RestrictPublicBuckets)\"?\s*[:=]\s*false", text, re.IGNORECASE)
        )
    ):
        return _verdict(CLOUD_CONTROL, invocation, "makes a bucket public")
    if (
        service == "s3api"
        and operation in ("put-object-acl", "put-bucket-acl")
        and call.value("--access-control-policy").startswith(("file://", "fileb://", COMPUTED))
    ):
        # the grants are in a file the guard does not read: the whole access list replaced (attack notes'
        # WRITE_ACP abuse gives AuthenticatedUsers FULL_CONTROL so); the canned --acl spellings are above
        return _verdict(CLOUD_CONTROL, invocation, f"s3api {operation} replaces who may read or change it")
    if _public_object(call, service, operation):
        return _verdict(
            CLOUD_CONTROL, invocation, "writes objects any AWS account may read, or anyone change"
        )
    if service in _DATABASES and operation.startswith(_DATABASE_SETUPS) and call.has("--publicly-accessible"):
        return _verdict(CLOUD_CONTROL, invocation, "makes a database reachable from the internet")
    if call.has("--no-sign-request") and _anonymous_write(call, service, operation):
        return _verdict(UPLOAD, invocation, "writes into a bucket anonymously: not the account's, left open")
    if operation == "add-resource-permissions" and re.search(r"Type=ANONYMOUS|\bId=anonymous\b", text, re.I):
        return _verdict(CLOUD_CONTROL, invocation, "shares a document with anyone, signed in or not")
    if service == "lambda" and operation == "add-permission" and call.value("--principal") in ("*", COMPUTED):
        return _verdict(CLOUD_CONTROL, invocation, "lets anyone invoke the function")
    if (
        service == "lambda"
        and operation.endswith("function-url-config")
        and call.value("--auth-type") == "NONE"
    ):
        return _verdict(CLOUD_CONTROL, invocation, "gives the function a public URL without authentication")
    return None


def _aws_compute(invocation: Invocation, call: CloudCall, service: str, operation: str) -> Verdict | None:
    if (
        service == "ec2"
        and operation == "modify-instance-attribute"
        and (call.has("--user-data") or call.value("--attribute").lower() == "userdata")
    ):
        return _verdict(STEALTH_PERSISTENCE, invocation, "changes the script a machine runs when it boots")
    if service == "ec2" and operation == "run-instances" and call.has("--iam-instance-profile"):
        return _verdict(CLOUD_CONTROL, invocation, "starts a machine with a role: its code acts as that role")
    if service == "ec2" and operation == "run-instances" and call.has("--user-data"):
        return _verdict(SERVICE, invocation, "starts a cloud machine that runs a script when it boots")
    if (
        service == "ec2"
        and operation in ("create-launch-template", "create-launch-template-version")
        and ("UserData" in call.text)
    ):
        return _verdict(SERVICE, invocation, "makes a launch template whose machines run a script at boot")
    if service == "ec2" and operation == "terminate-instances":
        ids = call.values("--instance-ids")
        if COMPUTED in ids:
            return _verdict(DATA_DESTRUCTION, invocation, "terminates every machine a query lists")
        if len(ids) > 1:
            return _verdict(SERVICE, invocation, "terminates several machines")
    if operation in _BACKUP_DELETIONS.get(service, ()) and (
        "xargs" in invocation.wrappers or any(COMPUTED in v for v in call.options.values())
    ):
        return _verdict(DATA_DESTRUCTION, invocation, f"{operation} over every item a listing names")
    if service == "ec2" and operation == "run-instances":
        count = max((_days(v) or 0 for v in call.values("--count")), default=0)
        if count >= _MANY_MACHINES or _COSTLY_MACHINE.match(call.value("--instance-type")):
            return _verdict(
                SERVICE, invocation, "starts many or GPU machines: the account pays (mining's way)"
            )
    if service == "rds" and operation in ("delete-db-instance", "delete-db-cluster"):
        if call.has("--skip-final-snapshot"):
            return _verdict(DATA_DESTRUCTION, invocation, "deletes a database without a final snapshot")
        return _verdict(SERVICE, invocation, "deletes a database")
    return None


def _aws_storage(invocation: Invocation, call: CloudCall, service: str, operation: str) -> Verdict | None:
    if service == "s3api" and operation == "put-bucket-versioning" and "Suspended" in call.text:
        return _verdict(DATA_DESTRUCTION, invocation, "suspends versioning: what is then overwritten is lost")
    writes = (service == "s3api" and operation in ("put-object", "copy-object", "upload-part")) or (
        service == "s3" and operation in ("cp", "mv", "sync")
    )
    if writes and call.has("--sse-customer-key", "--sse-c-key"):
        return _verdict(
            DATA_DESTRUCTION, invocation, "encrypts objects with a key held outside AWS (ransomware's way)"
        )
    uploads = (service == "s3api" and operation in ("put-object", "upload-part")) or (
        service == "s3"
        and operation in ("cp", "mv", "sync")
        and len(call.path) >= 4
        and not call.path[2].startswith("s3://")
        and call.path[3].startswith("s3://")
    )
    if uploads and _BARE_ADDRESS.match(call.value("--endpoint-url")):
        why = "uploads files to a storage server known only by its address, not the account's buckets"
        return _verdict(UPLOAD, invocation, why)
    return None


_BARE_ADDRESS = lazy_compile(
    r"^(?:\w+://)?(?!127\.|0\.0\.0\.0|\[?::1\]?(?:[:/]|$))(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\])(?:[:/]|$)",
    re.IGNORECASE,
)
"""An ``--endpoint-url`` that is a bare IP address other than the loopback's (LocalStack, MinIO on one's own
machine): an S3-speaking server somewhere, a drop box (``http://10.10.10.5``, ``http://45.33.12.7:9000``)."""


_AWS_JUDGES: tuple[Callable[[Invocation, CloudCall, str, str], Verdict | None], ...] = (
    _aws_logging,
    _aws_dns,
    _aws_secrets,
    _aws_database_login,
    _aws_iam,
    _aws_identity,
    _aws_exposure,
    _aws_compute,
    _aws_storage,
)


def _boto3(invocation: Invocation) -> Verdict | None:
    """The same operations called from Python: ``boto3.client('cloudtrail').stop_logging(Name=...)``."""
    code = "\n".join(c for c in (inline_code(invocation), *fed_code(invocation)) if c)
    if "boto3" not in code:
        return None
    services = list(dict.fromkeys(m.group(1) for m in _BOTO_CLIENT.finditer(code)))[:_BOTO_SERVICES]
    for method in _BOTO_CALL.finditer(code):
        operation = method.group(1).replace("_", "-")
        for service in services:
            known = _AWS_OPERATIONS.get((service, operation))
            if known is not None:
                return _verdict(known[0], invocation, f"boto3 {service}: {known[1]}")
            if service == "iam" and _IAM_CHANGES.match(operation):
                return _verdict(CLOUD_CONTROL, invocation, f"boto3 iam {operation} changes who may do what")
    return None


_PYTHONS = lazy_compile(r"^(?:python[\d.]*|pypy[\d.]*|ipython[\d.]*)$")
_BOTO_CLIENT = lazy_compile(r"""\b(?:client|resource)\(\s*(?:service_name\s*=\s*)?['"]([\w-]+)['"]""")
_BOTO_CALL = lazy_compile(r"\.([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*\(")
_BOTO_SERVICES = 8
"""How many clients of one script are matched against each call (each is a lookup per call)."""


# -- gcloud -------------------------------------------------------------------------------

_GCLOUD_IMPAIR = {
    ("logging", "sinks", "delete"): "deletes a log sink: the audit logs stop arriving",
    ("logging", "buckets", "delete"): "deletes a log bucket",
    ("logging", "logs", "delete"): "deletes a log and its entries",
    ("resource-manager", "org-policies", "disable-enforce"): "turns off an organisation policy",
    ("resource-manager", "org-policies", "allow"): "loosens an organisation policy",
    ("resource-manager", "org-policies", "delete"): "deletes an organisation policy",
    ("org-policies", "delete"): "deletes an organisation policy",
    ("org-policies", "reset"): "resets an organisation policy to allow everything",
    ("access-context-manager", "perimeters", "delete"): "deletes a VPC service perimeter",
    ("access-context-manager", "policies", "delete"): "deletes an access policy",
    ("scc", "notifications", "delete"): "deletes Security Command Center notifications",
    ("scc", "muteconfigs", "create"): "mutes Security Command Center findings",
    ("scc", "findings", "bulk-mute"): "mutes Security Command Center findings",
    ("scc", "findings", "set-mute"): "mutes a Security Command Center finding",
    ("monitoring", "policies", "delete"): "deletes an alerting policy: nobody is told",
    ("monitoring", "channels", "delete"): "deletes a notification channel: alerts reach nobody",
}
_ALERTS_SILENCED = frozenset({"--no-enabled", "--clear-notification-channels",
                              "--remove-notification-channels", "--set-notification-channels",
                              "--update-channel-labels", "--channel-labels",
                              "--no-enabled-channel"})  # fmt: skip
"""``gcloud monitoring policies|channels update`` options that turn an alert off or send it elsewhere."""
_GCLOUD_DELETIONS = frozenset({("compute", "instances", "delete"), ("compute", "disks", "delete"),
                               ("compute", "snapshots", "delete"), ("compute", "images", "delete"),
                               ("sql", "instances", "delete"), ("sql", "backups", "delete"),
                               ("storage", "buckets", "delete")})  # fmt: skip
"""Deletions that, run over a listing, destroy every machine, disk or backup."""
_BINDINGS = frozenset(
    {"add-iam-policy-binding", "set-iam-policy", "add-invoker-policy-binding", "remove-iam-policy-binding"}
)
_SECURITY_SERVICES = lazy_compile(
    r"^(?:logging|monitoring|securitycenter|containerthreatdetection|cloudaudit|websecurityscanner|"
    r"binaryauthorization|cloudasset|accessapproval)\.googleapis\.com$"
)


def _gcloud(invocation: Invocation, call: CloudCall) -> Verdict | None:
    path = tuple(word for word in call.path if word not in ("alpha", "beta"))
    if not path or "help" in path:
        return None
    for prefix, why in _GCLOUD_IMPAIR.items():
        if path[: len(prefix)] == prefix:
            category = EVIDENCE if prefix[1] == "logs" else IMPAIR
            return _verdict(category, invocation, why)
    text = call.text
    if path[:3] == ("logging", "sinks", "update"):
        return _verdict(IMPAIR, invocation, "changes what a log sink keeps or where it sends it")
    if path[:3] == ("compute", "instances", "create") and (
        call.has("--accelerator") or (_days(call.value("--count")) or 0) >= _MANY_MACHINES
    ):
        return _verdict(SERVICE, invocation, "starts GPU machines: the account pays (mining's way)")
    if path[:2] == ("logging", "buckets") and "update" in path[2:3]:
        days = _days(call.value("--retention-days"))
        if days is not None and days <= 1:
            return _verdict(EVIDENCE, invocation, "makes a log bucket delete its entries within a day")
    if path[:2] == ("logging", "settings") and call.has("--disable-default-sink"):
        return _verdict(IMPAIR, invocation, "turns off the default log sink")
    if path[:2] == ("services", "disable") and any(_SECURITY_SERVICES.match(w) for w in path[2:]):
        return _verdict(IMPAIR, invocation, "turns off a logging or security service")
    if (
        path[:2] in (("monitoring", "policies"), ("monitoring", "channels"))
        and path[2:3] == ("update",)
        and (call.has(*_ALERTS_SILENCED) or call.value("--enabled").lower() == "false")
    ):
        return _verdict(IMPAIR, invocation, "turns an alert off or sends it to someone else")
    if path[:3] == ("compute", "networks", "subnets") and call.has("--no-enable-flow-logs"):
        return _verdict(IMPAIR, invocation, "turns off a subnet's flow logs")
    if path[:2] == ("container", "clusters") and (
        call.value("--logging").upper() == "NONE" or call.has("--no-enable-cloud-logging")
    ):
        return _verdict(IMPAIR, invocation, "turns off a cluster's logging")
    # credentials
    # (gcloud auth print-access-token: .access_tokens, judged by where the token goes)
    if path[:3] == ("secrets", "versions", "access"):
        return _verdict(CREDENTIALS, invocation, "prints a Secret Manager secret")
    # who may do what
    binding = next((w for w in path if w in _BINDINGS), "")
    if binding:
        roles = call.values("--role")
        members = [m.lower() for m in call.values("--member", "--members")]
        if any(_OWNER_ROLE.match(role) for role in roles):
            return _verdict(PRIVILEGE, invocation, "grants ownership of the project or organisation")
        if any(m in _PUBLIC_MEMBER for m in members) or re.search(r"allUsers|allAuthenticatedUsers", text):
            return _verdict(CLOUD_CONTROL, invocation, "makes a resource public")
        return _verdict(CLOUD_CONTROL, invocation, f"{binding} changes who may do what in the project")
    if (
        path[:1] == ("iam",)
        and len(path) >= 3
        and path[2] in ("create", "update", "upload", "undelete", "enable")
        and path[:3] != ("iam", "service-accounts", "create")
    ):
        # A service account created is an identity with no key and no role (as az identity create and
        # kubectl create serviceaccount): its keys and role bindings are what give it power, asked.
        return _verdict(
            CLOUD_CONTROL,
            invocation,
            f"gcloud {' '.join(path[:3])} creates or changes an identity or its keys",
        )
    if path[:3] in (("compute", "instances", "set-service-account"), ("sql", "users", "set-password")):
        return _verdict(
            CLOUD_CONTROL, invocation, f"gcloud {' '.join(path[:3])} changes a machine's or user's identity"
        )
    if path[:2] == ("compute", "reset-windows-password"):
        return _verdict(CREDENTIALS, invocation, "creates a Windows machine's password and prints it")
    if path[:3] == ("storage", "hmac", "create"):
        return _verdict(CLOUD_CONTROL, invocation, "creates a long-lived storage key for a service account")
    if path[:3] == ("iam", "service-accounts", "keys") and path[3:4] == ("create",):
        return _verdict(CLOUD_CONTROL, invocation, "creates a long-lived key for a service account")
    if path[:2] == ("iam", "service-accounts") and path[2:3] in (("sign-blob",), ("sign-jwt",)):
        why = "signs with a service account's key: a token or signed URL in that identity's name"
        return _verdict(CLOUD_CONTROL, invocation, why)
    if path[:3] == ("services", "api-keys", "create"):
        return _verdict(CLOUD_CONTROL, invocation, "creates an API key: a credential for the project's APIs")
    if path[:3] == ("services", "api-keys", "get-key-string"):
        return _verdict(CREDENTIALS, invocation, "prints an API key")
    # exposure
    if path[:3] == ("compute", "firewall-rules", "create") or path[:3] == (
        "compute",
        "firewall-rules",
        "update",
    ):
        ranges = " ".join(call.values("--source-ranges"))
        allowed = " ".join(call.values("--allow", "--rules"))
        if _WORLD.search(ranges) and (
            allowed == "all" or _ADMIN_PORT.search(allowed) or re.search(r"^(?:tcp|all)$", allowed)
        ):
            return _verdict(BACKDOOR, invocation, "opens SSH, RDP or every port to the whole internet")
    # start-up code in existing machines, and new ones
    metadata = " ".join(call.values("--metadata", "--metadata-from-file"))
    boot = re.search(
        r"(?:^|[\s,])(?:startup-script(?:-url)?|ssh-keys|sshKeys|windows-startup-script-\w+)=", metadata
    )
    if boot and "add-metadata" in path[:4]:
        return _verdict(
            STEALTH_PERSISTENCE, invocation, "puts a boot script or SSH key into a machine's metadata"
        )
    if boot and path[:3] == ("compute", "instances", "create"):
        return _verdict(SERVICE, invocation, "starts a cloud machine that runs a script when it boots")
    # impact
    if path[:3] == ("scc", "findings", "update") and (
        call.value("--state").upper() == "INACTIVE" or call.value("--mute").upper() == "MUTED"
    ):
        return _verdict(IMPAIR, invocation, "closes or mutes a Security Command Center finding")
    if path[:3] == ("secrets", "versions", "destroy"):
        return _verdict(DATA_DESTRUCTION, invocation, "destroys a secret's version: it cannot be read again")
    if path[:3] == ("secrets", "versions", "disable"):
        return _verdict(SERVICE, invocation, "disables a secret's version: what reads it stops working")
    if "backups" in path[:3] and "delete" in path[:4]:
        return _verdict(DATA_DESTRUCTION, invocation, f"gcloud {' '.join(path[:3])}: a backup deleted")
    if path[:2] == ("firestore", "bulk-delete") or path[:3] == ("firestore", "databases", "delete"):
        return _verdict(DATA_DESTRUCTION, invocation, "deletes a Firestore database's documents in bulk")
    if path[:2] == ("projects", "delete"):
        return _verdict(DATA_DESTRUCTION, invocation, "deletes a whole Google Cloud project")
    if path[:3] == ("kms", "keys", "versions") and path[3:4] in (("destroy",), ("disable",)):
        return _verdict(DATA_DESTRUCTION, invocation, "destroys an encryption key: what it encrypts is lost")
    if path[:3] in _GCLOUD_DELETIONS and _computed(call):
        return _verdict(
            DATA_DESTRUCTION, invocation, f"gcloud {' '.join(path[:3])} over every item a listing names"
        )
    if path[:3] == ("compute", "images", "export"):
        return _verdict(EXFILTRATION, invocation, "exports a machine image to a bucket")
    if path[:3] in (("sql", "instances", "delete"), ("container", "clusters", "delete")):
        return _verdict(SERVICE, invocation, "deletes a database or a cluster")
    return None


# -- az -----------------------------------------------------------------------------------

_AZ_IMPAIR = {
    ("monitor", "diagnostic-settings", "delete"): "deletes a resource's diagnostic logging",
    ("monitor", "activity-log", "alert", "delete"): "deletes an activity-log alert",
    ("monitor", "log-profiles", "delete"): "deletes the subscription's activity-log profile",
    ("monitor", "log-analytics", "workspace", "delete"): "deletes a Log Analytics workspace",
    ("security", "contact", "delete"): "deletes Defender for Cloud's security contact",
    ("network", "watcher", "flow-log", "delete"): "deletes network flow logs",
}
_AZ_CONTROL = {
    ("role", "assignment", "create"): "grants a role in the subscription",
    ("role", "definition", "create"): "creates a custom role",
    ("role", "definition", "update"): "changes a custom role",
    ("ad", "user", "create"): "creates a directory user",
    ("ad", "user", "update"): "changes a directory user",
    ("ad", "sp", "create-for-rbac"): "creates a service principal with a role and a secret",
    ("ad", "sp", "credential", "reset"): "creates new credentials for a service principal",
    ("ad", "app", "credential", "reset"): "creates new credentials for an application",
    ("ad", "group", "member", "add"): "adds a member to a directory group",
    ("ad", "app", "permission", "admin-consent"): "grants an application's permissions for the whole tenant",
    ("ad", "app", "permission", "grant"): "grants an application's permissions",
    ("vm", "user", "update"): "resets a machine's password or SSH key",
    ("vm", "user", "reset-ssh"): "resets a machine's SSH configuration",
    ("keyvault", "set-policy"): "changes who may read a Key Vault",
    ("ad", "sp", "update"): "changes a service principal (enabled, URLs, credentials' owner)",
    ("ad", "app", "update"): "changes an application (where its sign-ins' tokens are sent)",
    ("ad", "sp", "owner", "add"): "makes someone owner of a service principal: they may add its secrets",
    ("ad", "app", "owner", "add"): "makes someone owner of an application: they may add its secrets",
    ("ad", "app", "federated-credential", "create"): "lets another provider's tokens sign in as the app",
    ("webapp", "deployment", "user", "set"): "sets the publishing login of every web app of the user",
    ("functionapp", "keys", "set"): "sets a function app's host key: whoever knows it calls the functions",
    ("functionapp", "function", "keys", "set"): "sets a function's key: whoever knows it calls the function",
    ("staticwebapp", "users", "invite"): "invites a user into a static web app with roles",
    ("staticwebapp", "users", "update"): "changes a static web app user's roles",
    ("storage", "account", "keys", "renew"): "replaces a storage account's key and prints the new keys",
}
_AZ_REMOTE = (("vm", "extension", "set"), ("vmss", "extension", "set"), ("vm", "run-command", "invoke"),
              ("vm", "run-command", "create"), ("vmss", "run-command", "invoke"))  # fmt: skip
"""Ways to run one's code on the subscription's machines (extensions such as CustomScript, Chef, Salt)."""
_AZ_DELETIONS = (("vm", "delete"), ("disk", "delete"), ("snapshot", "delete"), ("group", "delete"),
                 ("sql", "db", "delete"), ("storage", "account", "delete"), ("keyvault", "delete"),
                 ("backup", "protection", "disable"))  # fmt: skip
"""Deletions that, run over a listing (``--ids $(az vm list --query [].id -o tsv)``), destroy them all."""
_AZ_CREDENTIALS = {
    ("keyvault", "secret", "show"): "prints a Key Vault secret",
    ("keyvault", "secret", "download"): "saves a Key Vault secret to a file",
    ("keyvault", "secret", "backup"): "saves a Key Vault secret to a file",
    ("storage", "account", "keys", "list"): "prints a storage account's keys",
    ("webapp", "deployment", "list-publishing-profiles"): "prints a web app's publishing passwords",
    ("webapp", "deployment", "list-publishing-credentials"): "prints a web app's publishing passwords",
    ("functionapp", "deployment", "list-publishing-profiles"): "prints a function app's publishing passwords",
    ("functionapp", "deployment", "list-publishing-credentials"): "prints a function app's publishing logins",
    ("webapp", "config", "connection-string", "list"): "prints a web app's connection strings",
    ("search", "admin-key", "show"): "prints a search service's admin keys",
}
_ARM_SECRETS = lazy_compile(
    r"/(?:listKeys|listSecrets|listConnectionStrings|listCredentials?|listAdminKeys|listAccountSas|listServiceSas|"
    r"listKeyValue|listSyncFunctionTriggers|listQueryKeys|regenerateKeys?)(?:$|[/?])|"
    r"/config/(?:connectionstrings|appsettings|publishingcredentials)/list(?:$|[/?])|"
    r"/(?:functions/admin/token|host/default/list(?:keys|functionkeys|systemkeys))(?:$|[/?])",
    re.IGNORECASE,
)
"""Azure Resource Manager actions that answer with a resource's keys, passwords or a master token (an
``az rest`` spelling of ``az storage account keys list`` or ``az functionapp keys list``)."""


_GRAPH_DIRECTORY = lazy_compile(
    r"/(?:users|groups|directoryRoles|roleManagement|roleAssignments|administrativeUnits|applications|"
    r"servicePrincipals|oauth2PermissionGrants|appRoleAssignments|identity/conditionalAccess|policies|"
    r"invitations|domains|directory|devices)(?:/|\(|$)",
    re.IGNORECASE,
)
"""Microsoft Graph's directory: written through ``az rest`` (a hidden administrative unit, a new owner, a
member added to a role), it is an ``az ad`` change by another spelling."""
_GRAPH_CREDENTIALS = lazy_compile(
    r"/(?:deviceLocalCredentials|bitlockerRecoveryKeys|bitlocker/recoveryKeys)\b|/informationProtection/bitlocker",
    re.IGNORECASE,
)
"""Microsoft Graph reads that answer with machines' local administrator passwords or disk recovery keys."""
_ROLE_ASSIGNMENTS = lazy_compile(
    r"/providers/Microsoft\.Authorization/role(?:Assignments|Definitions)", re.IGNORECASE
)


_WRITES = frozenset({"post", "put", "patch", "delete"})


def _az_rest(invocation: Invocation, *names: str) -> str:
    """The value of ``az rest``'s option ``names`` (``-m PATCH``, ``--url=...``): short forms take one too."""
    words = static_args(invocation)
    for index, word in enumerate(words):
        name, equals, value = word.partition("=")
        if name in names:
            return value if equals else (words[index + 1] if index + 1 < len(words) else "")
    return ""


def _pair(path: tuple[str, ...], first: str, second: str) -> bool:
    """Whether ``first second`` follow each other in ``path`` (values of unknown short options such as
    ``-g rg`` are read as words too, so the command is not always the path's end)."""
    return any(path[index : index + 2] == (first, second) for index in range(len(path) - 1))


def _az(invocation: Invocation, call: CloudCall) -> Verdict | None:
    path = call.path
    if not path or "help" in path or call.has("-h", "--help"):
        return None
    for table, category in ((_AZ_IMPAIR, IMPAIR), (_AZ_CREDENTIALS, CREDENTIALS)):
        for prefix, why in table.items():
            if path[: len(prefix)] == prefix:
                return _verdict(category, invocation, why)
    if (
        "list-keys" in path
        or _pair(path, "keys", "list")
        or "show-secret" in path
        or ("secret" in path and call.has("--show-values"))
        or (_pair(path, "secret", "show") and path[:1] != ("keyvault",))
    ):
        return _verdict(CREDENTIALS, invocation, f"az {' '.join(path)} prints access keys or secrets' values")
    if path[:1] == ("storage",) and "generate-sas" in path:
        why = "mints a shared access signature: a token to the storage that works for whoever holds it"
        return _verdict(CLOUD_CONTROL, invocation, why)
    if path[:2] == ("aks", "get-credentials") and call.has("--admin", "-a"):
        why = "fetches the cluster's administrator certificate: cluster-admin, past the directory's sign-in"
        return _verdict(CLOUD_CONTROL, invocation, why)
    for prefix, why in _AZ_CONTROL.items():
        if path[: len(prefix)] == prefix:
            if any(_OWNER_ROLE.match(role) for role in call.values("--role")):
                return _verdict(PRIVILEGE, invocation, "grants ownership of the subscription")
            return _verdict(CLOUD_CONTROL, invocation, why)
    if (_pair(path, "role", "assignment") or _pair(path, "role", "definition")) and (
        "create" in path or "update" in path
    ):
        return _verdict(CLOUD_CONTROL, invocation, f"az {' '.join(path[:4])} grants or defines a role")
    if any(word in ("ad-admin", "aad-admin", "microsoft-entra-admin") for word in path) and (
        "create" in path or "set" in path or "update" in path
    ):
        return _verdict(CLOUD_CONTROL, invocation, "makes a directory identity the server's administrator")
    if ("immutability-policy" in path and "delete" in path) or _pair(path, "legal-hold", "clear"):
        return _verdict(
            IMPAIR, invocation, "lifts a container's immutability (what keeps its data from deletion)"
        )
    if path[:1] == ("automation",) and (
        _pair(path, "runbook", "create")
        or _pair(path, "runbook", "replace-content")
        or _pair(path, "runbook", "publish")
        or _pair(path, "runbook", "start")
        or (any(word.endswith("-package") for word in path) and "create" in path)
    ):
        return _verdict(REMOTE_ACCESS, invocation, "runs code as the automation account's identity")
    if {"user", "users", "local-user"} & set(path) and {"create", "update", "regenerate-password",
                                                         "reset-password", "invite"} & set(path):  # fmt: skip
        return _verdict(CLOUD_CONTROL, invocation, f"az {' '.join(path[:4])} makes or changes a login")
    if _pair(path, "identity", "assign"):
        return _verdict(CLOUD_CONTROL, invocation, "gives a resource a managed identity: its code acts as it")
    if "update" in path and (
        call.value("--public-access").lower() in ("enabled", "all", "0.0.0.0-255.255.255.255")
        or call.value("--public-network-access").lower() == "enabled"
        or (call.has("--enable-public-network") and call.value("--enable-public-network").lower() != "false")
    ):
        return _verdict(CLOUD_CONTROL, invocation, "opens a server to the internet")
    if _pair(path, "authorization-rule", "create") or _pair(path, "authorization-rule", "update"):
        return _verdict(CLOUD_CONTROL, invocation, "creates a shared access key with the rights it names")
    if path[:2] == ("acr", "task") and path[2:3] in (("create",), ("update",)):
        if call.has("--schedule"):
            return _verdict(SCHEDULED, invocation, "schedules a registry task: its command runs again")
        if call.has("--assign-identity"):
            return _verdict(CLOUD_CONTROL, invocation, "gives a registry task a managed identity")
    if "update" in path and call.has("--admin-password", "--administrator-login-password"):
        return _verdict(CLOUD_CONTROL, invocation, "resets a server's administrator password")
    if (
        path[:2] == ("acr", "update")
        and call.has("--anonymous-pull-enabled")
        and call.value("--anonymous-pull-enabled").lower() in ("true", "")
    ):
        return _verdict(CLOUD_CONTROL, invocation, "lets anyone pull the registry's images")
    if any(path[: len(prefix)] == prefix for prefix in _AZ_REMOTE):
        return _verdict(REMOTE_ACCESS, invocation, "runs code on the subscription's machines")
    if path[:2] == ("keyvault", "key") and path[2:3] in (("delete",), ("purge",)):
        return _verdict(DATA_DESTRUCTION, invocation, "deletes an encryption key: what it encrypts is lost")
    if (
        path[:1] == ("rest",)
        and "/microsoft.authorization/elevateaccess"
        in _az_rest(invocation, "--url", "--uri", "-u").lower().split("?")[0]
    ):
        return _verdict(
            PRIVILEGE, invocation, "elevates a directory admin to User Access Administrator of all"
        )
    if path[:1] == ("rest",) and _GRAPH_CREDENTIALS.search(_az_rest(invocation, "--url", "--uri", "-u")):
        return _verdict(CREDENTIALS, invocation, "reads machines' local admin passwords or recovery keys")
    if path[:1] == ("rest",) and _ARM_SECRETS.search(
        _az_rest(invocation, "--url", "--uri", "-u").split("?")[0]
    ):
        return _verdict(CREDENTIALS, invocation, "asks Azure for a resource's keys, passwords or master key")
    if path[:1] == ("rest",) and _az_rest(invocation, "--method", "-m").lower() in _WRITES:
        url = _az_rest(invocation, "--url", "--uri", "-u")
        host, _, rest = url.partition("://")[2].partition("/")
        graph = host.lower() in ("graph.microsoft.com", "graph.windows.net")
        if (graph and _GRAPH_DIRECTORY.search("/" + rest.split("?", 1)[0])) or _ROLE_ASSIGNMENTS.search(url):
            return _verdict(CLOUD_CONTROL, invocation, "changes the directory's users, groups, roles or apps")
    if (
        path[:3] == ("security", "auto-provisioning-setting", "update")
        and call.value("--auto-provision").lower() == "off"
    ):
        return _verdict(IMPAIR, invocation, "turns off Defender for Cloud's agents")
    if path[:3] == ("security", "pricing", "create") and call.value("--tier").lower() == "free":
        return _verdict(IMPAIR, invocation, "turns off Defender for Cloud's protection")
    if (
        path[:4] == ("network", "watcher", "flow-log", "update")
        and call.value("--enabled").lower() == "false"
    ):
        return _verdict(IMPAIR, invocation, "turns network flow logs off")
    if path[:3] == ("network", "nsg", "rule") and path[3:4] in (("create",), ("update",)):
        sources = " ".join(call.values("--source-address-prefixes", "--source-address-prefix"))
        ports = " ".join(call.values("--destination-port-ranges", "--destination-port-range"))
        allow = call.value("--access").lower() != "deny"
        inbound = call.value("--direction").lower() not in ("outbound", "out")  # what leaves opens nothing
        if allow and inbound and _WORLD.search(sources) and (ports == "*" or _ADMIN_PORT.search(ports)):
            return _verdict(BACKDOOR, invocation, "opens SSH, RDP or every port to the whole internet")
    if path[:3] == ("storage", "container", "set-permission") and call.value("--public-access") in (
        "blob",
        "container",
    ):
        return _verdict(CLOUD_CONTROL, invocation, "makes a storage container public")
    if (
        path[:3] == ("storage", "account", "update")
        and re.search(r"--allow-blob-public-access", " ".join(call.options))
        and (call.value("--allow-blob-public-access").lower() in ("true", ""))
    ):
        return _verdict(CLOUD_CONTROL, invocation, "lets a storage account's containers be made public")
    if path[:2] == ("keyvault", "purge") or path[:3] == ("keyvault", "secret", "purge"):
        return _verdict(DATA_DESTRUCTION, invocation, "purges a deleted Key Vault: it cannot be recovered")
    if path[:2] in (("disk", "grant-access"), ("snapshot", "grant-access")):
        return _verdict(EXFILTRATION, invocation, "makes a disk downloadable by anyone with the URL")
    if any(path[: len(prefix)] == prefix for prefix in _AZ_DELETIONS) and _computed(call):
        return _verdict(
            DATA_DESTRUCTION, invocation, f"az {' '.join(path[:3])} over every item a listing names"
        )
    if path[:2] == ("group", "delete"):
        return _verdict(SERVICE, invocation, "deletes a resource group and everything in it")
    return None


# -- kubectl and oc -----------------------------------------------------------------------

_TOKEN_PATH = lazy_compile(
    r"/(?:var/)?run/secrets/(?:kubernetes\.io|eks\.amazonaws\.com)/|/serviceaccount/token"
)
_POD_SECURITY_OFF = lazy_compile(
    r"^pod-security\.kubernetes\.io/(?:enforce(?:=privileged|-)$|\w+=privileged$)"
)
_WORKLOAD_IDENTITY = lazy_compile(
    r"^(?:eks\.amazonaws\.com/role-arn|iam\.gke\.io/gcp-service-account|azure\.workload\.identity/"
    r"(?:client-id|tenant-id|use))="
)
"""Annotations and labels that hand a Kubernetes service account a cloud identity (IRSA, GKE and Azure
workload identity): every pod running as it gets that role's credentials."""
_SECRET_KINDS = lazy_compile(r"^(?:secrets?|secret/.+|secrets/.+)(?:,|$)")
_SECRET_PLUGINS = frozenset({"view-secret", "view_secret", "view-serviceaccount-kubeconfig"})
"""krew plugins that print a secret's values decoded (``kubectl view-secret NAME``)."""


_KUBECTL_WRITES = frozenset({"apply", "create", "patch", "replace", "edit", "set", "delete", "label",
                             "annotate", "scale", "run", "expose", "exec", "cp", "debug", "attach",
                             "port-forward", "proxy", "drain", "cordon", "taint", "rollout"})  # fmt: skip
"""Verbs that change the cluster or reach into it: done with a ``--token`` (a pod's, stolen) or ``--as``
(impersonation), they act as an identity that is not the user's kubeconfig one."""


_IN_PLACE_EDITS = frozenset({"edit", "patch", "replace", "set", "label"})
_RBAC_KINDS = lazy_compile(
    r"^(?:cluster)?role(?:binding)?s?(?:\.rbac\.authorization\.k8s\.io)?(?:/|$)", re.IGNORECASE
)
_OPEN_ADDRESS = lazy_compile(r"^(?!127\.|localhost$|::1$|\[::1\]$)\S")
"""An address to listen on other than the loopback's (``0.0.0.0``, a LAN address)."""


def _rbac_object(words: tuple[str, ...]) -> bool:
    """``clusterrole view``, ``clusterrole/view``, ``rolebinding.rbac.authorization.k8s.io dev``: RBAC objects
    (``label`` too: an aggregation label puts a role's rules into ``admin`` or ``edit``; ``set subject
    rolebinding NAME``: the kind comes after the subcommand)."""
    return any(_RBAC_KINDS.match(word) for word in words)


_FILE_READERS = frozenset({"cat", "head", "tail", "tr", "xargs", "base64", "less", "more", "sed", "awk"})


def _token_read_from_file(invocation: Invocation) -> bool:
    """``--token $(cat FILE)``, ``--token="$(< FILE)"``: kubectl's token read from a file as the line runs."""
    command = invocation.command
    for index, word in enumerate(invocation.args):
        text = command.render(word)
        if not (
            text.startswith("--token=") or (index and command.render(invocation.args[index - 1]) == "--token")
        ):
            continue
        for sub in command.substitutions_in(word):
            body = sub.text.strip()
            if body.startswith("<") or body.split(" ", 1)[0].rpartition("/")[2] in _FILE_READERS:
                return True
    return False


def _kubectl(invocation: Invocation, call: CloudCall) -> Verdict | None:
    path = call.path
    if not path:
        return None
    verb = path[0]
    output = call.value("-o", "--output")
    every_namespace = call.has("-A", "--all-namespaces")
    secrets = len(path) > 1 and any(_SECRET_KINDS.match(k) for k in path[1].split(","))
    printed = re.match(r"^(?:yaml|json|jsonpath|go-template|custom-columns|template)", output)
    if verb == "get" and secrets and (printed or call.has("--template")):
        return _verdict(CREDENTIALS, invocation, "prints Kubernetes secrets")
    if verb == "describe" and secrets:
        # a service-account token secret is described with its token in clear
        return _verdict(CREDENTIALS, invocation, "prints Kubernetes secrets (service tokens in clear)")
    if verb in _SECRET_PLUGINS:
        return _verdict(CREDENTIALS, invocation, "prints Kubernetes secrets, decoded")
    if verb == "exec" and any(_TOKEN_PATH.search(word) for word in call.after):
        return _verdict(CREDENTIALS, invocation, "reads a pod's service-account token")
    raw = call.value("--raw")
    if raw and KUBE_SECRETS_PATH.search(raw.split("?", 1)[0]):
        return _verdict(CREDENTIALS, invocation, "reads the cluster's secrets from the Kubernetes API")
    if verb == "create" and path[1:2] in (("clusterrolebinding",), ("rolebinding",)):
        if (
            call.value("--clusterrole", "--role") in ("cluster-admin", "admin")
            and path[1] == "clusterrolebinding"
        ):
            return _verdict(PRIVILEGE, invocation, "makes someone administrator of the whole cluster")
        return _verdict(CLOUD_CONTROL, invocation, f"kubectl create {path[1]} grants a role in the cluster")
    if verb == "create" and path[1:2] in (("clusterrole",), ("role",)):
        return _verdict(
            CLOUD_CONTROL, invocation, f"kubectl create {path[1]} defines what may be done in the cluster"
        )
    if verb in _IN_PLACE_EDITS and _rbac_object(path[2:3] if verb == "set" else path[1:2]):
        why = f"kubectl {verb} changes a role or a role binding in place: who may do what in the cluster"
        return _verdict(CLOUD_CONTROL, invocation, why)
    if verb == "create" and path[1:2] == ("token",):
        return _verdict(CLOUD_CONTROL, invocation, "mints a service-account token")
    if verb == "proxy" and (
        _OPEN_ADDRESS.match(call.value("--address")) or call.value("--accept-hosts") in (".*", "^.*$", "*")
    ):
        why = "serves the cluster's API, with one's own credentials, to every machine that can reach this one"
        return _verdict(REMOTE_ACCESS, invocation, why)
    if verb == "certificate" and path[1:2] == ("approve",):
        return _verdict(CLOUD_CONTROL, invocation, "approves a certificate: a new identity in the cluster")
    if verb == "create" and path[1:2] in (("cronjob",), ("cj",)):
        return _verdict(SCHEDULED, invocation, "schedules a job in the cluster")
    if verb == "run" and call.has("--privileged") and call.value("--privileged").lower() != "false":
        return _verdict(PRIVILEGE, invocation, "starts a privileged pod: root on the node")
    if verb == "run" and "kube-system" in call.values("-n", "--namespace"):
        return _verdict(CLOUD_CONTROL, invocation, "starts a pod in kube-system, beside the cluster's own")
    system = "kube-system" in call.values("-n", "--namespace")
    system = system or any(word.startswith("kube-system/") for word in path[1:])
    if verb in ("exec", "attach", "debug", "cp") and system:
        why = f"kubectl {verb} into a pod of the cluster's own components (kube-system: etcd, the API server)"
        return _verdict(CLOUD_CONTROL, invocation, why)
    if verb == "run" and (call.has("--serviceaccount") or "serviceAccount" in call.value("--overrides")):
        return _verdict(CLOUD_CONTROL, invocation, "starts a pod as a service account of one's choosing")
    if verb in _KUBECTL_WRITES and call.has("--token", "--as", "--as-group", "--username", "--password"):
        why = f"kubectl {verb} as another identity (a token or impersonation)"
        return _verdict(CLOUD_CONTROL, invocation, why)
    if verb != "config" and _token_read_from_file(invocation):
        # reads too: `kubectl --token=$(cat token) get pods -A` is how a pod's (or a stolen) token, read
        # from its file, is tried; a token in a variable (`--token=$T auth can-i --list`) is a CI's own
        why = f"kubectl {verb} with a token read from a file: not the kubeconfig's identity (a pod's, stolen)"
        return _verdict(CLOUD_CONTROL, invocation, why)
    if verb != "auth" and call.has("--as", "--as-group", "--as-uid"):
        # reads too: impersonating a service account reads what it may (its secrets); `auth can-i --as`
        # only asks what it may
        return _verdict(CLOUD_CONTROL, invocation, f"kubectl {verb} impersonating another identity")
    if verb in ("label", "annotate") and any(_WORKLOAD_IDENTITY.match(word) for word in path[1:]):
        return _verdict(CLOUD_CONTROL, invocation, "binds a service account to a cloud role (its pods')")
    if verb in ("label", "annotate") and any(_POD_SECURITY_OFF.search(word) for word in path[1:]):
        return _verdict(IMPAIR, invocation, "turns pod security admission off for a namespace")
    if (
        verb in ("patch", "edit", "replace", "apply", "create", "set")
        and any(word in ("aws-auth", "configmap/aws-auth", "cm/aws-auth") for word in path[1:])
    ) or (
        verb in ("apply", "create", "replace")
        and any("aws-auth" in name.rsplit("/", 1)[-1] for name in call.values("-f", "--filename"))
    ):
        return _verdict(CLOUD_CONTROL, invocation, "changes which AWS identities may act in the cluster")
    if verb in ("delete", "scale"):
        names = [*path[1:], *call.values("-n", "--namespace"), *call.values("-f", "--filename")]
        if any(_SECURITY_AGENTS.search(name) for name in names) and (
            verb == "delete" or call.value("--replicas") == "0"
        ):
            return _verdict(IMPAIR, invocation, "deletes or stops the cluster's security or audit agent")
        if verb == "delete" and any(kind in _POLICY_KINDS for part in path[1:2] for kind in part.split(",")):
            return _verdict(IMPAIR, invocation, "deletes the cluster's admission policies")
        if verb == "delete" and (every_namespace or (COMPUTED in path and path[1:2] != ("pod",))):
            return _verdict(DATA_DESTRUCTION, invocation, "deletes resources in every namespace")
        kinds = {kind for part in path[1:2] for kind in part.split(",")}
        if verb == "delete" and call.has("--all") and kinds & _NAMESPACE_KINDS:
            return _verdict(DATA_DESTRUCTION, invocation, "deletes every namespace, volume or resource")
    return None


# -- helm, terraform, stratus, pacu -------------------------------------------------------


def _helm(invocation: Invocation, call: CloudCall) -> Verdict | None:
    if call.path[:1] in (("uninstall",), ("delete",), ("del",), ("un",)):
        names = [*call.path[1:], *call.values("-n", "--namespace")]
        if any(_SECURITY_AGENTS.search(name) for name in names):
            return _verdict(IMPAIR, invocation, "uninstalls the cluster's security or audit agent")
    return None


def _terraform(invocation: Invocation, call: CloudCall) -> Verdict | None:
    path = call.path
    help_asked = call.has("-help", "--help", "-h")
    if path[:1] == ("destroy",) and not help_asked:
        return _verdict(SERVICE, invocation, "destroys every resource the configuration manages")
    if path[:1] == ("apply",) and call.has("-destroy") and not help_asked:
        return _verdict(SERVICE, invocation, "destroys every resource the configuration manages")
    return None


_TACTIC_CATEGORIES = {
    "defense-evasion": IMPAIR,
    "credential-access": CREDENTIALS,
    "persistence": STEALTH_PERSISTENCE,
    "privilege-escalation": PRIVILEGE,
    "exfiltration": EXFILTRATION,
    "impact": DATA_DESTRUCTION,
}
"""Stratus Red Team's tactic (the second part of a technique id) -> the category it is judged as."""


def _stratus(invocation: Invocation, call: CloudCall) -> Verdict | None:
    if call.path[:1] != ("detonate",) or call.has("-h", "--help"):
        return None
    techniques = [word for word in call.path[1:] if "." in word] or [COMPUTED]
    tactic = techniques[0].split(".")[1] if techniques[0].count(".") >= 2 else ""
    if tactic == "discovery":
        return None  # enumeration only: discovery stays allowed (issue 18)
    category = _TACTIC_CATEGORIES.get(tactic, IMPAIR)
    return _verdict(category, invocation, f"detonates Stratus Red Team's attack {techniques[0]}")


_PACU_FAMILIES = (
    (lazy_compile(r"privesc|escalat"), PRIVILEGE),
    (lazy_compile(r"backdoor|persist|startup|userdata|user_data"), STEALTH_PERSISTENCE),
    (lazy_compile(r"disrupt|cloudtrail|guardduty|detection|waf|evasion|config"), IMPAIR),
    (lazy_compile(r"secret|password|download|cred|keys|dump|sniff"), CREDENTIALS),
)


def _pacu(invocation: Invocation, call: CloudCall) -> Verdict | None:
    modules = [*call.values("--module-name", "-m"), *(w for w in call.path if "__" in w)]
    if not modules and not call.has("--exec"):
        return None
    module = modules[0] if modules else COMPUTED
    if "__enum" in module or module.endswith("__enum") or module.startswith("recon"):
        return None
    category = next((cat for pattern, cat in _PACU_FAMILIES if pattern.search(module)), PRIVILEGE)
    return _verdict(category, invocation, f"runs Pacu's attack module {module}")


def _gsutil(invocation: Invocation, call: CloudCall) -> Verdict | None:
    """``gsutil iam ch allUsers:objectViewer gs://b``, ``gsutil acl ch -u AllUsers:R``: who may read or
    change a bucket, the ``gcloud storage buckets add-iam-policy-binding`` of the older CLI."""
    if call.path[:2] == ("hmac", "create"):
        return _verdict(CLOUD_CONTROL, invocation, "creates a long-lived storage key for a service account")
    if call.path[1:2] == ("set",) and call.path[:1] != ("acl",) and len(call.path) > 2:
        # gsutil versioning/ubla/pap/logging set off: a bucket's protection switched off
        found = cloud_families.setting_switched(call.path[0], call.path[2])
        if found:
            return _verdict(found[0], invocation, f"gsutil {' '.join(call.path[:3])}: {found[1]}")
    if call.path[:1] not in (("iam",), ("acl",), ("defacl",)) or call.path[1:2] not in (("ch",), ("set",)):
        return None
    text = " ".join((*call.path, *(v for values in call.options.values() for v in values)))
    if re.search(r"\ballusers\b|\ballauthenticatedusers\b|public-read", text, re.IGNORECASE):
        return _verdict(CLOUD_CONTROL, invocation, "makes a bucket or its objects public")
    why = f"gsutil {call.path[0]} {call.path[1]} changes who may use a bucket"
    return _verdict(CLOUD_CONTROL, invocation, why)


_SQL_ACCESS = lazy_compile(r"\b(?:GRANT|REVOKE)\b|\bDROP\s+(?:ALL\s+)?ROW\s+ACCESS\s+POLIC", re.IGNORECASE)
_BQ_ACCESS = (("add-iam-policy-binding",), ("set-iam-policy",), ("remove-iam-policy-binding",))


def _bq(invocation: Invocation, call: CloudCall) -> Verdict | None:
    """``bq add-iam-policy-binding --role roles/bigquery.admin``: a dataset's or table's access."""
    if call.path[:1] == ("update",) and call.has("--source"):
        return _verdict(CLOUD_CONTROL, invocation, "replaces a dataset's access list")
    sql = " ".join((*call.path[1:], *(v for values in call.options.values() for v in values)))
    if call.path[:1] == ("query",) and _SQL_ACCESS.search(sql):
        return _verdict(CLOUD_CONTROL, invocation, "grants, revokes or drops row access in BigQuery")
    if call.path[:1] not in _BQ_ACCESS:
        return None
    members = " ".join(call.values("--member"))
    if re.search(r"allUsers|allAuthenticatedUsers", members):
        return _verdict(CLOUD_CONTROL, invocation, "makes a dataset or table public")
    return _verdict(CLOUD_CONTROL, invocation, f"bq {call.path[0]} changes who may use a dataset or table")


# -- the judge -----------------------------------------------------------------------------


def _no_rule(invocation: Invocation, call: CloudCall) -> Verdict | None:
    """oci, doctl, ibmcloud, aliyun: judged by :mod:`.cloud_families` alone (a setting turned off)."""
    del invocation, call
    return None


_CLIS: dict[str, Callable[[Invocation, CloudCall], Verdict | None]] = {
    "aws": _aws,
    "gcloud": _gcloud,
    "gsutil": _gsutil,
    "bq": _bq,
    "az": _az,
    "kubectl": _kubectl,
    "oc": _kubectl,
    "helm": _helm,
    "terraform": _terraform,
    "tofu": _terraform,
    "stratus": _stratus,
    "pacu": _pacu,
    **dict.fromkeys(("oci", "doctl", "ibmcloud", "ic", "aliyun"), _no_rule),
}
_CREDENTIAL_RUNNERS = frozenset({"aws-vault", "aws-okta", "saml2aws", "granted", "aws-sso-util"})
"""Programs that run a command with cloud credentials: ``aws-vault exec prod -- aws iam ...``."""


def _unwrapped(invocation: Invocation) -> Iterable[Invocation]:
    """``invocation``, and the command a credential runner runs after ``--``."""
    yield invocation
    if invocation.name in _CREDENTIAL_RUNNERS and "--" in invocation.args:
        rest = invocation.args[invocation.args.index("--") + 1 :]
        program = invocation.command.static(rest[0]) if rest else None
        if program:
            yield invocation.replace(name=program.rsplit("/", 1)[-1], args=rest[1:])


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """The first finding of this family in ``invocation``, or None."""
    del home  # the cloud's resources are named by the call, not by local paths
    if _PYTHONS.match(invocation.name):
        return _boto3(invocation)
    for candidate in _unwrapped(invocation):
        judge_cli = _CLIS.get(candidate.name)
        if judge_cli is not None:
            call = read_call(candidate)
            verdict = (
                judge_cli(candidate, call)
                or cloud_families.judge_call(candidate, call)
                or cloud_removals.judge_call(candidate, call)
                or cloud_run_as.judge_call(candidate, call)
            )
            if verdict is not None:
                return verdict
    return None


# -- across a pipeline ----------------------------------------------------------------------

_IDENTITY_VARIABLES = ("AWS_PROFILE=", "AWS_DEFAULT_PROFILE=", "AWS_ACCESS_KEY_ID=")


def _identity(invocation: Invocation, call: CloudCall) -> tuple[str, ...]:
    """Who an aws call acts as: its ``--profile`` and the credentials put in its environment."""
    named = tuple(entry for entry in invocation.env if entry.startswith(_IDENTITY_VARIABLES))
    return (call.value("--profile"), *named)


def _streams_object(call: CloudCall, direction: str) -> bool:
    """``aws s3 cp s3://b/k -`` (``out``: an object to standard output) or ``aws s3 cp - s3://b/k``
    (``in``: standard input into a bucket)."""
    if call.path[:2] != ("s3", "cp") or len(call.path) < 4:
        return False
    source, destination = call.path[2], call.path[3]
    if direction == "out":
        return source.startswith("s3://") and destination == "-"
    return source == "-" and destination.startswith("s3://")


_CONFIG_KINDS = lazy_compile(
    r"^(?:configmaps?|cm|pods?|po|deployments?|deploy|daemonsets?|ds|statefulsets?|sts|replicasets?|rs|"
    r"jobs?|cronjobs?|cj|all)(?:\.[\w.]+)?$"
)
_FILTERS = frozenset({"grep", "egrep", "fgrep", "rg", "jq", "yq", "gojq", "awk", "gawk", "mawk"})


def _configuration_searched(script: Script) -> Invocation | None:
    """``kubectl get cm -A -o json | jq '... contains("pass") or contains("token")'``: the cluster's
    configuration (config maps, the pods' environment) dumped and searched for passwords and tokens
    (red-kube's credential access): what ``kubectl get secrets -o yaml`` is held for, by another kind;
    likewise a pod's environment (``kubectl exec POD -- env | grep -i token``)."""
    for stages in walk(script):
        dumped = False
        for invocation in stages:
            if invocation.name in ("kubectl", "oc"):
                call = read_call(invocation)
                kinds = call.path[1].split(",") if call.path[:1] == ("get",) and len(call.path) > 1 else []
                dumped = dumped or (
                    any(_CONFIG_KINDS.match(kind) for kind in kinds)
                    and re.match(r"(?:json|yaml)", call.value("-o", "--output")) is not None
                )
                program = call.after[0].rsplit("/", 1)[-1] if call.after else ""
                dumped = dumped or (call.path[:1] == ("exec",) and program in ("env", "printenv"))
            elif (
                dumped
                and invocation.name in _FILTERS
                and any(secret_word(v) for v in static_args(invocation))
            ):
                return invocation
    return None


def judge_script(script: Script, home: str) -> Verdict | None:
    """``aws s3 cp s3://theirs/x - | aws s3 cp --profile attacker - s3://mine/x``: an object streamed
    from a bucket read as one identity into a bucket written as another (the S3 streaming copy):
    data moved between accounts without touching the disk. Asked: moving data between one's own
    accounts is done this way too. And the cluster's configuration searched for secrets
    (:func:`_configuration_searched`)."""
    placed = pod_uploads.judge_script(script, home) or cloud_run_as.judge_script(script, home)
    if placed is not None:
        return placed
    searched = _configuration_searched(script)
    if searched is not None:
        why = "searches the cluster's configuration (config maps, pods' environment) for passwords and tokens"
        return Verdict(CREDENTIALS, piece(searched.text), why)
    for stages in walk(script):
        readers: list[tuple[str, ...]] = []
        for invocation in stages:
            if invocation.name != "aws":
                continue
            call = read_call(invocation)
            if _streams_object(call, "out"):
                readers.append(_identity(invocation, call))
            elif readers and _streams_object(call, "in") and _identity(invocation, call) not in readers:
                text = " | ".join(" ".join(stage.text.split()) for stage in stages)
                why = (
                    "streams a bucket's object into a bucket of another identity: data moved between accounts"
                )
                return Verdict(UPLOAD, piece(text), why)
    return None
