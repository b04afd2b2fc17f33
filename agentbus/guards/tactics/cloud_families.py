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
_WORLD_RANGE = lazy_compile(r"(?:^|[\s\"'=:,\[{])(?:0\.0\.0\.0/0|::/0)(?:$|[\s\"',\]}])")
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
    if not _WORLD_RANGE.search(text) or call.value("--direction").lower() in ("outbound", "out", "egress"):
        return False  # a rule for what leaves opens nothing
    if call.has("--egress") or call.value("--rule-action", "--access", "--action").lower() == "deny":
        return False
    ports = " ".join(call.values("--port", "--ports", "--allow", "--rules", "--destination-port-ranges",
                                 "--ip-permissions", "--security-group-rules", "--from-port",
                                 "--inbound-rules", "--rule", "--ingress-security-rules"))  # fmt: skip
    found = {p for m in _PORT.finditer(ports) for p in m.groups() if p}
    # no port number (every port, or one named by a placeholder or variable): as open as any
    return not found or bool(found - _WEB_PORTS)


_RANGE_OPTION = lazy_compile(
    r"^--(?![\w-]*(?:destination|route|next-hop|egress|outbound))[\w-]*(?:authorized-networks|source-ranges?|"
    r"source-address-prefix(?:es)?|allowed-ips?|ip-ranges?|cidr-ips?|cidrip|ip-address(?:es)?|allow-?list|"
    r"white-?list|ip-rules?|trusted-ips?)$"
)
"""Options naming who may connect (``gcloud sql instances patch --authorized-networks=0.0.0.0/0``), not where
traffic goes (``create-route --destination-cidr-block 0.0.0.0/0`` is every VPC's default route)."""


def _every_address(call: CloudCall) -> bool:
    """``az sql server firewall-rule create --start-ip-address 0.0.0.0 --end-ip-address 255.255.255.255``."""
    start = call.value("--start-ip-address", "--start-ip", "--start-ip-range")
    end = call.value("--end-ip-address", "--end-ip", "--end-ip-range")
    return end == "255.255.255.255" and bool(re.match(r"^(?:0|1)\.\d+\.\d+\.\d+$", start))


def _public_ports(call: CloudCall) -> bool:
    """``aws lightsail open-instance-public-ports``, ``az vm open-port``: from anywhere unless sources are
    named."""
    text = call.text
    if re.search(r"cidrs?\W{0,3}[=:]|--source|--cidr", text, re.IGNORECASE) and not _WORLD_RANGE.search(text):
        return False
    ports = " ".join(call.values("--port", "--ports", "--port-info"))
    ports = ports.replace("fromPort=", " ").replace("toPort=", " ")
    found = {p for m in _PORT.finditer(ports) for p in m.groups() if p}
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
    if re.search(r"ingress|firewall|security-rule|nsg|inbound|acl-entry", " ".join((operation, *call.path))):
        if _world_ports(call):
            return "opens a port to the whole internet"
    elif any(
        _RANGE_OPTION.match(name) and any(_WORLD_RANGE.search(v) for v in values)
        for name, values in call.options.items()
    ):
        return "lets every address on the internet connect"
    if _every_address(call):
        return "a firewall rule from 0.0.0.0 to 255.255.255.255: every address may connect"
    if re.match(r"^open-[\w-]*ports?$", operation) and _public_ports(call):
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


# -- a security setting turned off -------------------------------------------------------------
#
# One rule for every CLI and service: a call that changes something (not a read) and names a
# security property -- in an option (``--https-only``), a member of a setting (``--set
# httpsOnly=false``, ``--metadata block-project-ssh-keys=FALSE``, ``PointInTimeRecoveryEnabled=false``),
# a ``--name X --value Y`` pair, or its operation (``disable-key-rotation``) -- and gives it the value
# that turns the protection off. A name is read word by word: a protection (encryption, a log, an
# audit, backups, versioning, TLS, MFA, a firewall ...) is weakened when switched off; an exposure
# (public access, anonymous access, a serial port, remote debugging, local or shared-key sign-in ...)
# when switched on; each negating word (``no``, ``disable``, ``block``, ``ignore`` ...) flips the value.

_PROTECTIONS = lazy_compile(
    r"encrypt\w*|kms|sse|tde|cmk|cmek|rotation|logs?|logging|\w*audit\w*|trail|monitor\w*|tracing|record\w*|"
    r"backups?|pitr|recovery|versioning|retention|purge|protection|protected|scan\w*|vulnerabilit\w*|"
    r"threat\w*|defender|guard\w*|detector|detection|alerts?|watcher|inspection|https|tls|mtls|ssl|secure|"
    r"dnssec|vtpm|integrity|shielded|mfa|auth|authentication|authorization|rbac|oslogin|cert|certificate|"
    r"firewall|waf|ddos|admission|psp|security|validation|verification|enforce\w*|checks?|private|"
    r"fine|grained|tokens|locks?|throttl\w*|uniform\w*|ubla|pap"
)
"""Words naming a protection: weakened when switched off (``--enable-versioning false``); ``tokens`` as in
IMDSv2's ``--http-tokens optional``."""
_EXPOSURES = lazy_compile(
    r"public|anonymous|insecure|serial|debugging|unencrypted|plaintext|legacy|basic|shared|local|keys|"
    r"infile|chaining|contained|remote|external|cross|termination|show"
)
"""Words naming an exposure: weakened when switched on (``--allow-blob-public-access true``,
``serial-port-enable=true``, ``disableLocalAuth=false``); ``keys`` as in project-wide SSH keys (not
``--generate-ssh-keys``). Database settings whose "on" is the exposure: ``local_infile`` (the server reads
the client's files), ``cross db ownership chaining``, ``remote access``, ``external scripts enabled``,
``contained database authentication`` (sign-in that bypasses the server's logins), and ``skip_show_database``
(off: any user lists every database); ``termination`` as in ``--no-disable-api-termination``."""
_EXPOSURE_WITH: dict[str, frozenset[str]] = {
    "local": frozenset({"auth", "infile", "accounts"}),  # local sign-in or files, not a local anything
    "remote": frozenset({"access", "admin"}),
    "external": frozenset({"scripts"}),
    "cross": frozenset({"tenant", "chaining"}),
    "show": frozenset({"database", "databases"}),
    "contained": frozenset({"database", "authentication"}),
}
"""Exposure words that are one only beside another word (``remote access``, not a remote anything)."""
_NEGATIONS = frozenset({"no", "not", "disable", "disabled", "disables", "skip", "without", "block", "blocks",
                        "deny", "restrict", "restricts", "ignore", "prevent", "prevention",
                        "exclude", "clear"})  # fmt: skip
_ON = frozenset({"true", "enabled", "enable", "on", "yes", "1", "y", "required", "enforced"})
_OFF = frozenset({"false", "disabled", "disable", "off", "no", "none", "0", "n", "suspended", "paused",
                  "privileged", "optional", "unspecified", "inherited"})  # fmt: skip
_GENERIC = frozenset({"status", "state", "enabled", "enable", "disabled", "is", "mode", "value", "setting",
                      "flag", "configuration", "config", "properties", "spec", "set"})  # fmt: skip
"""Setting names that say nothing of what they set (``--status Disabled``, ``{"enabled": false}``):
the call's own words (``sql db tde set``, ``flow-log configure``) or ``--name`` say it."""
_WORD = lazy_compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_PAIR = lazy_compile(
    r"(?:^|[\s,{\[(;&])[\"']?([A-Za-z][\w./-]{0,80}?)[\"']?\s*[:=]\s*[\"']?([\w.]{1,20})(?=[\"'\s,}\])&;]|$)"
)
"""``key=value`` or ``"key": value`` inside an option's value, a query string or a JSON document."""
_ENCLOSING = lazy_compile(r"([A-Za-z][\w.-]{0,80})[\"']?\s*[:=]\s*\{[^{}]{0,200}$")
"""The member a bare ``Enabled=false`` belongs to: the key whose ``{`` encloses it."""
_OFF_OPERATION = lazy_compile(r"^(?:disable|stop|suspend|deactivate|delete|remove|deregister)-")
_DELETABLE = frozenset({"encryption", "rotation", "logging", "audit", "versioning", "protection", "mfa",
                        "validation", "scanning", "tls", "ssl", "lock", "locks"})  # fmt: skip
"""What ``delete-*`` removes as a setting (``delete-bucket-encryption``), not as data (``delete-backup``)."""
_SCHEDULES = frozenset({"plan", "policy", "selection", "schedule", "rule", "vault"})
"""With backups or snapshots, what ``delete-*`` removes is the protection to come (``delete-backup-plan``)."""
_CLIENT_OPTIONS = frozenset({
    "--no-verify-ssl", "--insecure-skip-tls-verify", "--insecure", "--no-sign-request", "--log-http",
    "--verbosity", "--log-level", "--debug", "--no-cli-pager", "--skip-ssl-validation", "--skip-tls-verify",
    "--tls-verify", "--no-verify",
})  # fmt: skip
"""How the CLI itself talks or reports (its own TLS check, its own log), not a setting of the resource."""
_OLD_PROTOCOL = lazy_compile(r"^(?:(?:TLS|TLSv|SSLv?)(?:1(?:[._]?[01])?|[23])|1[._][01])$", re.IGNORECASE)
_TLS_KEYS = frozenset({"tls_version", "minimumtlsversion", "mintlsversion", "minimum_tls_version"})
_WATCHING = lazy_compile(
    r"log|audit|trail|monitor|flow|record|alert|detect|tracing|defender|guard|threat|scan"
)
"""A setting of these words turned off blinds the defenders (:data:`IMPAIR`); the others weaken a resource."""


def _words(name: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(name)]


def _state(value: str) -> bool | None:
    word = value.strip().strip("\"'{}[](),.;").lower()
    return True if word in _ON else False if word in _OFF else None


def _weakens(name: str, on: bool, context: str = "") -> bool:
    """Whether setting ``name`` to ``on`` turns a protection off or an exposure on."""
    words = _words(name)
    negations = sum(w in _NEGATIONS for w in words)
    named = [w for w in words if w not in _NEGATIONS]
    if not named or all(w in _GENERIC for w in named):
        named = _words(context)  # what the call itself is about; its negations are not the setting's
    given = set(named)
    exposures = {
        w for w in named if _EXPOSURES.fullmatch(w) and (w not in _EXPOSURE_WITH or _EXPOSURE_WITH[w] & given)
    }
    if "keys" in exposures and not {"ssh", "project"} <= given:  # project-wide SSH keys, not one's own
        exposures.discard("keys")
    if "termination" in exposures and any(_PROTECTIONS.fullmatch(w) for w in given):  # ...-protected
        exposures.discard("termination")
    if exposures and "ip" not in given:  # a public IP is no setting
        return on != (negations % 2 == 1)
    if "delete" in given and given & {"policy", "retention", "soft"}:  # soft delete: what is deleted stays
        return on == (negations % 2 == 1)
    policy = "policy" in named and bool({"network", "pod"} & set(named))
    if policy or any(_PROTECTIONS.fullmatch(w) for w in named):
        return on == (negations % 2 == 1)
    return False


def _operation_off(operation: str) -> str:
    """``disable-key-rotation``, ``delete-bucket-encryption``, ``enable-serial-console-access``."""
    verb, _, rest = operation.partition("-")
    if _OFF_OPERATION.match(operation) and not _HARMLESS_OFF.search(operation):
        deletes = verb in ("delete", "remove", "deregister")
        words = set(_words(rest))
        if deletes and {"backup", "backups", "snapshot"} & words and _SCHEDULES & words:
            return f"{operation}: the backups it would take stop"
        if (not deletes or _DELETABLE & words) and _weakens(rest, False):
            return f"{operation} turns a security setting off"
    if verb == "enable" and _weakens(rest, True):
        return f"{operation} turns an exposure on"
    return ""


def _option_off(option: str, values: tuple[str, ...], context: str) -> str:
    """``--https-only false``, ``--no-deletion-protection``, ``--min-tls-version 1.0``, ``--status Disabled``
    (of ``sql db tde set``), ``--public-access-type ObjectRead``."""
    name = option.lstrip("-")
    words = set(_words(name))
    given = [v.strip(",;") for v in values if v.strip(",;")]
    about = f"{name} {context}" if words <= _GENERIC else name
    if re.search(r"tls|ssl|security-policy|protocol", about, re.IGNORECASE) and any(
        _OLD_PROTOCOL.match(v) for v in given
    ):
        return f"{option} {given[0]}: an outdated TLS or SSL version allowed"
    state = _state(given[0]) if given else None
    if state is not None:
        return f"{option} {given[0]}: a security setting turned off" if _weakens(name, state, context) else ""
    if (not given or name.startswith(("no-", "disable-"))) and _weakens(name, True, context):
        return f"{option}: a security setting turned off"  # a flag: --no-encrypted
    if (
        given
        and {"public", "access"} <= words
        and not _NEGATIONS & words
        and re.fullmatch(r"[A-Za-z][\w-]*", given[0])  # a kind of access named, not an address range
        and not re.match(r"(?:no|none|private|disabled?|off|deny)", given[0], re.IGNORECASE)
    ):
        return f"{option} {given[0]}: public access turned on"
    return ""


_NAME_VALUE = lazy_compile(
    r"(?:Parameter|Setting|Option)?(?:Name|Key)\W{0,3}[=:]\s*\W{0,2}([A-Za-z][\w. -]{0,80}?)\W{0,3}[,\s]"
    r"\s*\W{0,2}(?:Parameter|Setting|Option)?Value\W{0,3}[=:]\s*\W{0,2}([\w.]{1,20})",
    re.IGNORECASE,
)
"""A setting given as a name and a value (``ParameterName=local_infile,ParameterValue=1``)."""


def setting_switched(setting: str, value: str) -> tuple[str, str] | None:
    """A setting named by a command word switched to ``value`` (``gsutil versioning set off``), if that
    weakens it."""
    state = _state(value)
    if state is None or not _weakens(setting, state):
        return None
    return (IMPAIR if _WATCHING.search(setting) else CLOUD_CONTROL, "a security setting turned off")


def _member_off(option: str, value: str, context: str) -> str:
    """A member of a setting: ``httpsOnly=false``, ``"enabled": false`` in ``--logs``, ``Status=Suspended``
    in ``--versioning-configuration``, ``allSupported=false`` in a recorder's ``--recording-group``."""
    name = option.lstrip("-")
    for match in _NAME_VALUE.finditer(value):  # ParameterName=local_infile,ParameterValue=1
        key, setting = match.groups()
        state = _state(setting)
        if state is not None and _weakens(key, state):
            return f"{key}={setting}: a security setting turned off"
    for match in _PAIR.finditer(value):
        key, setting = match.groups()
        if key.rsplit(".", 1)[-1].lower() in _TLS_KEYS and _OLD_PROTOCOL.match(setting):
            return f"{key}={setting}: an outdated TLS version allowed"
        state = _state(setting)
        enclosing = _ENCLOSING.search(value, max(0, match.start(1) - 200), match.start(1))
        if enclosing and set(_words(key)) <= _GENERIC:  # Unauthenticated={Enabled=false}: its own setting
            if state is not None and _weakens(enclosing.group(1), state):
                return f"{enclosing.group(1)} {key}={setting}: a security setting turned off"
            continue
        if state is not None and _weakens(key, state, f"{name} {context}"):
            return f"{key}={setting}: a security setting turned off"
        if state is False and _WATCHING.search(name.lower()) and _weakens(name, False):
            return f"{option} {key}={setting}: part of a log, an audit or a recorder turned off"
    return ""


_FLAG = lazy_compile(r"(?:^|,)\s*[\"']?([A-Za-z][\w. -]{0,80}?)[\"']?\s*[=:]\s*[\"']?([\w.-]{1,20})")
"""A database flag, its name possibly of several words (``cross db ownership chaining=on``)."""
_PROTECTION_NOUNS = frozenset({"lock", "locks", "protection", "retention", "versioning", "immutability"})
"""What az and gcloud name before ``delete``/``disable`` when the call removes a protection (``az lock
delete``, ``az group lock delete``), not a resource."""


def _flags_off(values: tuple[str, ...]) -> str:
    """``--database-flags "cross db ownership chaining=on,local_infile=on"``: each flag by its whole name."""
    for value in values:
        for match in _FLAG.finditer(value):
            key, setting = match.groups()
            state = _state(setting)
            if state is not None and _weakens(key, state):
                return f"{key.strip()}={setting}: a database's security setting turned off"
    return ""


def _protection_removed(call: CloudCall, operation: str) -> str:
    """``az lock delete``, ``az resource lock delete``: the nouns before the verb name a protection."""
    if call.program not in ("az", "gcloud") or operation not in ("delete", "remove", "disable"):
        return ""
    nouns = set(call.path[: call.path.index(operation)]) if operation in call.path else set()
    if nouns & _PROTECTION_NOUNS:
        return f"{' '.join(call.path[: call.path.index(operation) + 1])} removes a protection"
    return ""


def _setting_off(call: CloudCall, operation: str) -> str:
    """What security setting the call turns off, or ``""``."""
    names = call.values("--name", "-n", "--key", "--setting-name", "--parameter-name")
    # the command words up to the operation (``sql db tde set``), not the values aws keeps among them
    command = call.path[: call.path.index(operation) + 1] if operation in call.path else call.path[:1]
    context = " ".join((*command, *names))
    why = _operation_off(operation) or _protection_removed(call, operation)
    for option, values in call.options.items():
        if why or option in _CLIENT_OPTIONS:
            continue
        if option == "--database-flags":
            why = _flags_off(values)
            continue
        why = _option_off(option, values, context) or next(
            (found for value in values if (found := _member_off(option, value, context))), ""
        )
    if not why and call.program in ("kubectl", "oc", "helm"):
        for word in call.path:  # kubectl annotate/label NAME key=value
            why = why or _member_off("", word, context)
    return why


def _setting_verdict(call: CloudCall, operation: str) -> tuple[str, str] | None:
    why = _setting_off(call, operation)
    if not why:
        return None
    return (IMPAIR if _WATCHING.search(why.lower()) else CLOUD_CONTROL, why)


_OTHER_CLIS = frozenset({"kubectl", "oc", "helm", "oci", "doctl", "ibmcloud", "ic", "aliyun"})
"""CLIs judged here by the security-setting rule alone (their other rules, if any, are in :mod:`.cloud`)."""
_KUBE_CHANGES = frozenset({"patch", "annotate", "label", "install", "upgrade", "set", "edit"})
_CHANGE = lazy_compile(r"^(?:modify|update|set|create|put|disable|delete|enable|config|add|append|patch)")


def _other_cli(invocation: Invocation, call: CloudCall) -> Verdict | None:
    """kubectl/oc (``patch``, ``annotate``, ``label``), helm (``--set``), oci, doctl, ibmcloud, aliyun."""
    if call.program in ("kubectl", "oc", "helm"):
        operation = call.path[0]
        if operation not in _KUBE_CHANGES:
            return None
    else:
        operation = next((w for w in call.path if _GROUP_VERB.match(w) or _CHANGE.match(w)), call.path[-1])
        if _READS.match(operation):
            return None
    found = _setting_verdict(call, operation)
    if found is None and call.program not in ("kubectl", "oc", "helm"):
        why = _opened(call, operation)
        found = (CLOUD_CONTROL, why) if why else None
    return finding(found[0], invocation, found[1]) if found else None


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
    elif call.program in _OTHER_CLIS and call.path:
        return _other_cli(invocation, call)
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
    if found is None and not _READS.match(operation):
        found = _setting_verdict(call, operation)
    if found is None and _moved_identity(call, operation):
        found = (CLOUD_CONTROL, "hands an existing resource another identity: its code acts as that role")
    if isinstance(found, tuple):
        return finding(found[0], invocation, found[1])
    return found
