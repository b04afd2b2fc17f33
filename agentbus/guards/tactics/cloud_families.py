"""Cloud calls judged by what their verb and options do, across services (after the per-API rules).

The per-API tables of :mod:`.cloud` name single operations (``cloudtrail stop-logging``); attack
guides use whichever of the hundreds of services an account has. These rules read a call's verb
family and option classes instead, the same way for each service:

- credentials minted or read: ``get-*credentials*``, ``*-secret-value``, ``get-*-token``,
  ``create-presigned-*-url``, except the logins developers use every day (``ecr get-login-password``,
  ``eks get-token``, ``codeartifact get-authorization-token``);
- the account's watchers turned off: ``stop-*``/``delete-*``/``disable-*``/``deregister-*`` on a
  logging, monitoring or security service; ``disable-logging``-like verbs on any service; a log or
  audit option set to ``Enabled=false`` / ``--no-enable-logging`` / ``log_*=off``;
- resources opened to everyone: ``--publicly-accessible``, ``--public-network-access Enabled``,
  ``--default-action Allow``, ``--admin-enabled true``, ``--allow-blob-public-access true``, block-public-
  access turned off, a resource policy with ``"Principal": "*"`` (``set-topic-attributes``,
  ``put-*-policy``), ``add-permission --principal '*'``, any port but the web's open to 0.0.0.0/0;
- transport or encryption weakened: ``--https-only false``, TLS 1.0/1.1, ``Enabled=false`` on an
  encryption option;
- a compute call that carries a payload acting on IAM or the metadata service (a build spec, a start
  command, a task's command line that attaches ``AdministratorAccess`` or reads role credentials);
- an existing resource moved to another identity (``update-*`` with ``--role-arn``, ``gcloud app update
  --service-account``): whoever controls its code acts as that identity.

A shell on one of the account's machines (``ssm start-session``, ``ecs execute-command``) is left as
``ssh`` and ``kubectl exec`` are; what it is given to run is judged. Creating or deploying one's own
resources with a role (``lambda create-function --role``, ``gcloud run
deploy --service-account``) and reads of non-secret metadata stay allowed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...lazy_regex import lazy_compile
from ..findings import finding
from ..programs import Invocation
from ..verdict import CLOUD_CONTROL, CREDENTIALS, IMPAIR, PRIVILEGE, Verdict

if TYPE_CHECKING:
    from .cloud import CloudCall

COMPUTED = "$(\u2026)"
""":data:`.cloud.COMPUTED` (imported there from here would be circular): a word known only at run time."""

__all__ = ["judge_call"]

_READS = lazy_compile(
    r"^(?:list|describe|get|batch-get|head|lookup|search|wait|view|show|validate|estimate|test|simulate|"
    r"preview|check|help)(?:-|$)"
)
"""Verbs that only read (their credential-shaped members are judged on their own)."""

# -- credentials --------------------------------------------------------------------------

_CREDENTIAL_VERBS = lazy_compile(
    r"^(?:(?:get|batch-get|retrieve|export)-[\w-]*?(?:credentials?|secret-value|password-data|master-user-password)"
    r"|(?:get|create|generate)-[\w-]*?(?:(?<!caller-)(?<!change-)(?<!pagination-)(?<!next-)(?<!continuation-)token|"
    r"presigned[\w-]*-url|(?:login|auth|sign-in|console|embed)[\w-]*-url))(?:-[\w-]+)?$"
)
_DEVELOPER_LOGINS = frozenset({
    ("ecr", "get-login-password"), ("ecr", "get-authorization-token"), ("ecr-public", "get-login-password"),
    ("ecr-public", "get-authorization-token"), ("codeartifact", "get-authorization-token"),
    ("eks", "get-token"), ("sso-oidc", "create-token"), ("secretsmanager", "get-random-password"),
    ("iam", "get-credential-report"), ("iam", "generate-credential-report"),
    ("cognito-idp", "get-signing-certificate"),
})  # fmt: skip
"""Logins a developer's tools fetch every day (a registry, a package index, a cluster), and reports."""


def _credential_verb(service: str, operation: str) -> Verdict | tuple[str, str] | None:
    if (service, operation) in _DEVELOPER_LOGINS or not _CREDENTIAL_VERBS.match(operation):
        return None
    if re.search(r"secret|password", operation):
        return (CREDENTIALS, f"{service} {operation} prints a secret or a password")
    return (
        CLOUD_CONTROL,
        f"{service} {operation} mints credentials, a token or a sign-in link for an identity",
    )


# -- the account's watchers ---------------------------------------------------------------

_WATCHERS = frozenset({
    "cloudtrail", "guardduty", "securityhub", "macie", "macie2", "inspector", "inspector2", "detective",
    "accessanalyzer", "access-analyzer", "fms", "configservice", "config", "auditmanager", "cloudwatch",
    "network-firewall", "shield", "security-lake", "securitylake", "cloudtrail-data",
})  # fmt: skip
"""AWS services that log, monitor or detect: stopping or deleting any of their parts blinds the defenders."""
_OFF_VERBS = lazy_compile(r"^(?:stop|delete|disable|deregister|disassociate|remove|cancel|batch-disable)-")
_HARMLESS_OFF = lazy_compile(
    r"(?:dashboards?|tags?|insight-rules?|archive-rules?|filter|sample-findings|reports?|sbom-export)$"
)
_LOGGING_OFF = lazy_compile(
    r"^(?:stop|delete|disable|deregister|disassociate|remove)-[\w-]*?"
    r"(?:logging|logs?|audit\w*|flow-logs|trail|monitoring|metric-streams?|alarms?|detector|recorder|"
    r"analyzer|findings|insights|log-delivery\w*)(?:-[\w-]+)?$"
)
_LOG_OPTION = lazy_compile(
    r"^--(?![\w-]*(?:level|format|http|verbosity|retention|dir|file|group|bucket|prefix))"
    r"[\w-]*(?:log|audit|monitor|tracking|alert)[\w-]*$"
)
"""Options that set a log, an audit or a monitor (not its level, format or place: ``--log-level none``)."""
_VALUE_OFF = lazy_compile(
    r"(?:enabled?|status|state|isEnabled|logging|auditing)\W{0,3}\s*[:=]\s*\W{0,2}(?:false|disabled?|off)\b",
    re.IGNORECASE,
)
_NO_WATCHER = lazy_compile(
    r"^--no-(?:enable-)?[\w-]*(?:log|logging|audit|monitor|defender|validation|alert|flow-logs)[\w-]*$"
)
_SOME_OFF = lazy_compile(r"(?:^|[,{\s])\"?\w+\"?\s*[=:]\s*false\b", re.IGNORECASE)
"""In a log option's value, any member set to false (``--logs Audit=true,General=false``)."""
_LOG_VALUE_OFF = lazy_compile(
    r"(?:log|audit|trail|tracing)[\w./]{0,60}?\W{0,4}(?:\{\s*\W?)?"
    r"(?:enabled?\W{0,3}[:=]\s*\W?false|,\s*value\s*=\s*false)"
    r"|\b(?:LoggingLevel|logging|auditing)\W{0,3}[:=]\s*\W?(?:off|none|disabled)\b",
    re.IGNORECASE,
)
"""A log named in a document and switched off (``AccessLog={Enabled=false}``,
``Key=access_logs.s3.enabled,Value=false``, ``path=/tracingEnabled,value=false``)."""
_SECURITY_URL = lazy_compile(
    r"/providers/Microsoft\.Security/|/(?:vulnerabilityAssessments|securityAlertPolicies|auditingSettings|"
    r"advancedThreatProtectionSettings|diagnosticSettings)/",
    re.IGNORECASE,
)
_AUDIT_FLAG_OFF = lazy_compile(
    r"(?:^|[,\s])(?:log_\w{1,60}|\w{0,40}audit\w{0,40}|general_log|slow_query_log)\s*[=:]\s*(?:off|false|0|none)\b",
    re.IGNORECASE,
)


def _watchers_off(call: CloudCall, service: str, operation: str) -> str:
    if service in _WATCHERS and _OFF_VERBS.match(operation) and not _HARMLESS_OFF.search(operation):
        return f"{service} {operation}: a logging, monitoring or security service stopped or removed"
    if (
        service in _WATCHERS
        and not _READS.match(operation)
        and any(
            call.value(name).lower() in ("paused", "disabled", "false")
            for name in ("--status", "--state", "--enable")
        )
    ):
        return f"{service} {operation} pauses or disables a security service"
    if _LOGGING_OFF.match(operation):
        return f"{service} {operation} stops a log, an audit or a detector"
    if _READS.match(operation):
        return ""
    for name, values in call.options.items():
        if _NO_WATCHER.match(name):
            return f"{name} turns a log, an audit or a security monitor off"
        if _LOG_OPTION.match(name) and any(
            _VALUE_OFF.search(v) or _SOME_OFF.search(v) or v.lower() in ("off", "none") for v in values
        ):
            return f"{name} turns a log, an audit or an alert off"
    if _LOG_VALUE_OFF.search(call.text):
        return "turns a log, an audit or a trace off"
    if _AUDIT_FLAG_OFF.search(" ".join(call.values("--database-flags", "--parameters", "--value"))) or (
        re.match(r"^(?:log_|\w*audit)", call.value("--name"), re.IGNORECASE)
        and call.value("--value").lower() in ("off", "false", "0", "none")
    ):
        return "turns a database's connection, query or audit log off"
    return ""


# -- exposure -------------------------------------------------------------------------------

_PUBLIC_PRINCIPAL = lazy_compile(
    r"\\?\"Principal\\?\"\s*:\s*(?:\\?\"\*\\?\"|\{\s*\\?\"AWS\\?\"\s*:\s*(?:\[\s*)?\\?\"\*\\?\")"
)
"""``"Principal": "*"`` (or ``{"AWS": "*"}``), also escaped inside another document (an SQS or SNS
``Policy`` attribute is a JSON string in JSON)."""
_WORLD_RANGE = lazy_compile(r"(?:^|[\s\"'=,\[{])(?:0\.0\.0\.0/0|::/0)(?:$|[\s\"',\]}])")
_WEB_PORTS = frozenset({"80", "443"})
_PORT = lazy_compile(
    r"(?:FromPort|--port|ToPort)\W{0,3}\s*[:=]?\s*(\d+)|(?:^|[\s,=:])(\d+)(?:-(\d+))?(?:$|[\s,])"
)
_OPEN_SWITCHES: dict[str, frozenset[str]] = {
    "--public-network-access": frozenset({"enabled", "true", "all"}),
    "--default-action": frozenset({"allow"}),
    "--admin-enabled": frozenset({"true", ""}),
    "--allow-blob-public-access": frozenset({"true", ""}),
    "--public-access": frozenset({"blob", "container", "enabled", "all"}),
    "--anonymous-pull-enabled": frozenset({"true", ""}),
    "--publicly-accessible": frozenset({"", "true"}),
    "--public-ip-address-allowed": frozenset({"true"}),
}
"""Options that open a resource (a server, a registry's admin login, a storage account) to everyone."""
_WEAK_TRANSPORT = lazy_compile(
    r"^(?:--https-only|--enforce-https|--require-ssl|--ssl-enforcement|--enable-ssl)\b"
)
_OLD_TLS = lazy_compile(r"^(?:TLS)?1[._][01]$", re.IGNORECASE)
_ENCRYPTION_OPTION = lazy_compile(r"^--[\w-]*(?:encrypt|sse-specification|kms)[\w-]*$")
_GUARD_OFF_OPTION = lazy_compile(
    r"^--no-enable-(?![\w-]*(?:basic|legacy|local|shared-key|anonymous|insecure|public))"
    r"[\w-]*(?:auth|authentication|mfa|protection|soft-delete|lock|versioning|validation)[\w-]*$"
)
"""Sign-in checks and protections switched off (``--no-enable-iam-database-authentication``); the weak ones
switched off are the secure choice (``--no-enable-basic-auth``, ``--no-enable-legacy-authorization``)."""
_GUARD_SETTING = lazy_compile(r"^--[\w-]*(?:dnssec|mfa|auth-enabled)[\w-]*$")
_GUARD_OFF_VALUE = lazy_compile(
    r"(?:Auth|Mfa|Deletion_?Protection|Termination_?Protection)\w{0,40}?\W{0,3}(?:\.enabled)?"
    r"\W{0,3}(?:,\s*value)?\s*[:=]\s*\W?false\b",
    re.IGNORECASE,
)
_GUARD_OFF_VERB = lazy_compile(r"^(?:disable|delete)-[\w-]*(?:transfer-lock|protection|mfa-device)$")
_PLAIN_ALLOWED = lazy_compile(
    r"(?:EnforceHTTPS|require_ssl|RequireSSL)\W{0,3}[,:=]\s*\W{0,2}(?:ParameterValue\W{0,3}[:=]\s*)?false",
    re.IGNORECASE,
)
_BLOCK_PUBLIC = lazy_compile(r"(?:block-public-access|public-access-block)")


def _world_ports(call: CloudCall) -> bool:
    """Whether the call opens a port other than the web's to 0.0.0.0/0 or ::/0."""
    text = call.text
    if not _WORLD_RANGE.search(text):
        return False
    ports = " ".join(call.values("--port", "--ports", "--allow", "--rules", "--destination-port-ranges",
                                 "--ip-permissions", "--security-group-rules", "--from-port"))  # fmt: skip
    found = {p for m in _PORT.finditer(ports) for p in m.groups() if p}
    # no port number (every port, or one named by a placeholder or variable): as open as any
    return not found or bool(found - _WEB_PORTS)


def _opened(call: CloudCall, operation: str) -> str:
    if _READS.match(operation):
        return ""
    for name, opening in _OPEN_SWITCHES.items():
        if call.has(name) and (not call.options[name] or call.options[name][0].lower() in opening):
            return f"{name} opens the resource to everyone"
    if re.match(r"^(?:delete|disable)-", operation) and _BLOCK_PUBLIC.search(operation):
        return f"{operation} lets resources be made public"
    if _BLOCK_PUBLIC.search(operation) and re.search(
        r"(?:Block|Restrict|Ignore)\w*\W{0,3}[:=]\s*false", call.text
    ):
        return "turns block-public-access off"
    if _PUBLIC_PRINCIPAL.search(call.text) and not re.search(r"Condition\\?\"\s*:", call.text):
        return 'a resource policy that lets anyone (Principal "*") in'
    if operation == "add-permission" and call.value("--principal") in ("*", COMPUTED):
        return "lets anyone use the resource"
    if re.search(r"ingress|firewall|security-rule|nsg|inbound", operation + " " + " ".join(call.path)) and (
        _world_ports(call)
    ):
        return "opens a port to the whole internet"
    for name, values in call.options.items():
        value = values[0] if values else ""
        if _WEAK_TRANSPORT.match(name) and value.lower() in ("false", "disabled", "0"):
            return f"{name} {value}: plain HTTP or unencrypted connections allowed"
        if re.search(r"tls", name) and _OLD_TLS.match(value):
            return f"{name} {value}: an outdated TLS version allowed"
        if _ENCRYPTION_OPTION.match(name) and any(_VALUE_OFF.search(v) for v in values):
            return f"{name}: encryption turned off"
    if any(_GUARD_OFF_OPTION.match(n) for n in call.options):
        return "turns a sign-in check or a deletion protection off"
    for name, values in call.options.items():
        if _GUARD_SETTING.search(name) and any(v.lower() in ("off", "false", "disabled") for v in values):
            return f"{name} {values[0]}: a sign-in or integrity check turned off"
        if name == "--enabled" and "auth" in call.path and values[:1] == ("false",):
            return "turns the app's sign-in off"
    if _GUARD_OFF_VALUE.search(call.text) or _GUARD_OFF_VERB.match(operation):
        return "turns a sign-in check or a deletion protection off"
    if _PLAIN_ALLOWED.search(call.text):
        return "plain, unencrypted connections allowed"
    return ""


# -- payloads, shells and identities ---------------------------------------------------------

_PAYLOAD_GRANT = lazy_compile(
    r"attach[-_](?:user|role|group)[-_]policy|put[-_](?:user|role|group)[-_]policy|create[-_]access[-_]key|"
    r"create[-_]login[-_]profile|update[-_]assume[-_]role[-_]policy|policy/AdministratorAccess"
)
_PAYLOAD_CREDENTIALS = lazy_compile(
    r"169\.254\.169\.254|169\.254\.170\.2|AWS_CONTAINER_CREDENTIALS|metadata\.google\.internal|"
    r"security-credentials|get-secret-value"
)
_ROLE_OPTIONS = frozenset({"--role", "--role-arn", "--service-role", "--task-role-arn",
                           "--execution-role-arn", "--iam-role-arn", "--service-account",
                           "--instance-role-arn", "--job-role-arn"})  # fmt: skip


def _payload(call: CloudCall, service: str, operation: str) -> Verdict | tuple[str, str] | None:
    if service in ("iam", "sts") or _READS.match(operation):
        return None
    text = call.text
    if _PAYLOAD_GRANT.search(text):
        return (
            PRIVILEGE,
            f"{service} {operation} carries code that grants IAM power (runs as the resource's role)",
        )
    if _PAYLOAD_CREDENTIALS.search(text):
        return (CREDENTIALS, f"{service} {operation} carries code that reads a role's credentials")
    return None


_HOOK_VARIABLES = lazy_compile(
    r"(?:^|[\s,{\[\"'=])\"?(?:PYTHONWARNINGS|PYTHONSTARTUP|PYTHONINSPECT|BROWSER|LD_PRELOAD|LD_AUDIT|NODE_OPTIONS|"
    r"PERL5OPT|PERL5DB|RUBYOPT|BASH_ENV|ENV|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|AWS_LAMBDA_EXEC_WRAPPER)\"?\s*[=:]"
)
"""Variables that make an interpreter load or run code of their value (Composer's ``PYTHONWARNINGS``
and ``BROWSER`` trick, Lambda's ``NODE_OPTIONS`` and ``AWS_LAMBDA_EXEC_WRAPPER``)."""
_ENV_OPTION = lazy_compile(r"^--(?:[\w-]*env[\w-]*|environment|settings|set-env-vars|update-env-variables)$")


def _code_by_variable(call: CloudCall, operation: str) -> bool:
    """A cloud workload given a variable that makes its interpreter run code of one's choosing."""
    if _READS.match(operation):
        return False
    return any(
        _ENV_OPTION.match(name) and any(_HOOK_VARIABLES.search(v) for v in values)
        for name, values in call.options.items()
    )


def _moved_identity(call: CloudCall, operation: str) -> bool:
    """``update-*`` (or gcloud/az ``update``) handing an existing resource another role: its code, whoever
    wrote it, now acts as that role. Creating one's own resource with a role is a deploy."""
    updates = operation.startswith(("update-", "modify-")) or (
        call.program != "aws" and "update" in call.path
    )
    if not updates:
        return False
    if any(name in call.options for name in _ROLE_OPTIONS):
        return True
    return bool(
        re.search(r"(?:^|[,{\s])\"?(?:Role|InstanceRoleArn|ServiceRole)\"?\s*[:=]\s*\"?arn:", call.text)
    )


# -- the judge --------------------------------------------------------------------------------

_GROUP_VERB = lazy_compile(
    r"^(?:create|update|patch|delete|set|add|remove|disable|enable|stop|start|deploy|show|list|describe|get|"
    r"assign|reset|invoke|run|apply|attach|detach|grant|revoke|purge|modify|put|import|export)(?:-[\w-]+)?$"
)
"""gcloud's and az's verb among the command groups (``sql instances patch NAME``: ``patch``)."""


def _az_rest(invocation: Invocation, call: CloudCall) -> Verdict | None:
    """``az rest --method put --url .../Microsoft.Security/... --body '{"isEnabled": false}'``: Defender,
    auditing or vulnerability assessment switched off through the management API."""
    words = " ".join((*call.path, call.text))  # -m, -u and -b are read as flags, their values as words
    if not ({"put", "patch", "post"} & {w.lower() for w in (*call.path, *call.values("--method"))}):
        return None
    if not _SECURITY_URL.search(words):
        return None
    body = words
    if _VALUE_OFF.search(body) or re.search(r"\"pricingTier\"\s*:\s*\"Free\"", body, re.IGNORECASE):
        return finding(IMPAIR, invocation, "turns a Defender, audit or assessment setting off")
    return None


def judge_call(invocation: Invocation, call: CloudCall) -> Verdict | None:
    """A finding by verb family for an aws, gcloud or az call no per-API rule judged, or None."""
    if call.program == "aws":
        if len(call.path) < 2:
            return None
        service, operation = call.path[0], call.path[1]
    elif call.program in ("gcloud", "az"):
        if len(call.path) < 2 and call.path[:1] != ("rest",):
            return None
        service = call.path[0]
        operation = next((w for w in call.path[1:] if _GROUP_VERB.match(w)), call.path[-1])
    else:
        return None
    if call.program == "az" and call.path[:1] == ("rest",):
        return _az_rest(invocation, call)
    found = _credential_verb(service, operation) if call.program == "aws" else None
    if found is None:
        why = _watchers_off(call, service, operation)
        if why:
            found = (IMPAIR, why)
    if found is None:
        why = _opened(call, operation)
        if why:
            found = (CLOUD_CONTROL, why)
    if found is None:
        found = _payload(call, service, operation)
    if found is None and _code_by_variable(call, operation):
        found = (
            PRIVILEGE,
            "sets a variable that makes the workload's interpreter run code (as its identity)",
        )
    if found is None and _moved_identity(call, operation):
        found = (CLOUD_CONTROL, "hands an existing resource another identity: its code acts as that role")
    if isinstance(found, tuple):
        return finding(found[0], invocation, found[1])
    return found
