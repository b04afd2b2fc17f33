"""What a Kubernetes manifest or a compose file asks of the host: privileges, its namespaces, its disk.

``kubectl apply -f pod.yaml`` and ``docker compose up`` start what a file in the
project describes, and the project is not trusted. A container is judged the
way ``docker run`` is (:mod:`.tactics.privilege`), so the same finding holds in
a file and on the command line:

- Kubernetes (every document, every object in it): ``privileged: true``,
  ``hostPID``/``hostIPC``/``hostNetwork: true``, a ``hostPath`` of the node's
  root, system or account directories or of a container engine's socket (root on
  the node), capabilities that break out (``SYS_ADMIN``, ``ALL`` ...); ``SYS_PTRACE`` or an
  ``Unconfined`` seccomp/AppArmor profile alone is a debugger's container (:func:`kube_debugging`,
  asked), from the same lists as ``docker run`` (:mod:`.containers`);
- what its containers run (``command`` and ``args``), as the ``kubectl run NAME --image=X -- CMD``
  it amounts to (:func:`kube_commands`): a reverse shell or a miner in a pod is judged as on the
  command line; and a workload placed in ``kube-system`` (:func:`kube_placements`), beside the
  cluster's own components and their service accounts;
- compose: each service is turned into the ``docker run`` command it amounts to
  (``privileged``, ``pid: host``, ``cap_add``, ``security_opt``, ``devices``,
  ``volumes``), which the command guard judges.

Files are read with PyYAML when it is installed (the ``yaml`` extra); without it,
lines are matched (``privileged: true``, ``path: /``), which a file written to
dodge it can. Aliases are followed once (a YAML bomb is not walked).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from typing import Any

from ..lazy_regex import lazy_compile
from .budget import spend
from .containers import BREAKOUT_CAPABILITIES, DEBUGGING_CAPABILITIES

__all__ = [
    "chart_debugging",
    "chart_findings",
    "compose_commands",
    "compose_references",
    "dotenv",
    "kube_commands",
    "kube_debugging",
    "kube_findings",
    "kube_placements",
    "load_documents",
    "manifest_files",
    "set_findings",
]

_HOST_PATHS = lazy_compile(
    r"^/(?:|etc|root|boot|proc|sys|dev|usr|var|lib|lib64|bin|sbin|home|Users|run|var/run|var/lib|opt|srv)/?$"
    r"|^/(?:etc|root|boot|proc|sys|dev|var/lib/docker|var/lib/kubelet|var/lib/containerd|home/[^/]+/\.ssh"
    r"|Users/[^/]+/\.ssh)(?:/|$)|(?:docker|containerd|crio|podman|cri-dockerd)\.sock$"
)
"""Node paths a pod must not mount: the disk, system and account files, a container engine's socket."""
_MAX_NODES = 200_000
"""How many YAML nodes one file may have before the guard stops walking it."""


def load_documents(text: str) -> list[Any] | None:
    """The documents of a YAML (or JSON) file; None without PyYAML; ``[]`` for one it cannot parse."""
    try:
        import yaml
    except ImportError:  # pragma: no cover - the yaml extra is not installed
        return None
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return [document for document in yaml.load_all(text, Loader=loader) if document is not None]
    except yaml.YAMLError:
        return []  # kubectl and compose refuse it too: nothing starts


def _nodes(document: Any) -> Iterator[dict[Any, Any]]:
    """Every mapping in ``document``, each once (an alias is not walked again)."""
    seen: set[int] = set()
    stack = [document]
    count = 0
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        count += 1
        if count > _MAX_NODES:
            raise ValueError(f"it has more than {_MAX_NODES} YAML nodes")
        if count % 256 == 0:
            spend()
        if isinstance(node, dict):
            yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def kube_findings(text: str) -> list[str]:
    """What a Kubernetes manifest gives its pods of the node (``privileged: true`` ...), in words."""
    documents = load_documents(text)
    if documents is None:
        return _kube_lines(text)
    found: list[str] = []
    for document in documents:
        for node in _nodes(document):
            if node.get("privileged") is True:
                found.append("privileged: true (a privileged container: root on the node)")
            for key in ("hostPID", "hostIPC", "hostNetwork"):
                if node.get(key) is True:
                    found.append(f"{key}: true (the node's {key[4:].lower()} namespace)")
            host_path = node.get("hostPath")
            if isinstance(host_path, dict):
                path = host_path.get("path")
                if isinstance(path, str) and _HOST_PATHS.search(_clean(path)):
                    found.append(f"hostPath {path} (mounts the node's {path})")
            for capability in _added_capabilities(node):
                if capability.upper().removeprefix("CAP_") in BREAKOUT_CAPABILITIES:
                    found.append(f"capabilities add {capability} (breaks out of the container)")
    return found


def _added_capabilities(node: dict[Any, Any]) -> list[str]:
    capabilities = node.get("capabilities")
    if isinstance(capabilities, dict) and isinstance(capabilities.get("add"), list):
        return [str(capability) for capability in capabilities["add"]]
    return []


_CONFINEMENT_PROFILES = ("seccompProfile", "appArmorProfile")


def kube_debugging(text: str) -> list[str]:
    """What a Kubernetes manifest gives its containers that a debugger needs, in words: ``SYS_PTRACE``
    (:data:`~agentbus.guards.containers.DEBUGGING_CAPABILITIES`, the list ``docker run --cap-add`` is
    judged by) or a seccomp/AppArmor profile of type ``Unconfined`` (``--security-opt
    seccomp=unconfined``). The ``debugging container`` category, as on the command line; with the
    node's namespaces or disk beside them :func:`kube_findings` holds the pod anyway."""
    documents = load_documents(text)
    if not documents:
        return []
    found: list[str] = []
    for document in documents:
        for node in _nodes(document):
            for capability in _added_capabilities(node):
                if capability.upper().removeprefix("CAP_") in DEBUGGING_CAPABILITIES:
                    found.append(f"capabilities add {capability} (ptrace of the container's own processes)")
            for key in _CONFINEMENT_PROFILES:
                profile = node.get(key)
                if isinstance(profile, dict) and str(profile.get("type", "")).lower() == "unconfined":
                    found.append(f"{key} Unconfined (the container's confinement off)")
    return found


_WORKLOAD_KINDS = frozenset({"pod", "deployment", "daemonset", "statefulset", "replicaset",
                             "replicationcontroller", "job", "cronjob"})  # fmt: skip
_SYSTEM_NAMESPACES = frozenset({"kube-system"})


def kube_commands(text: str) -> list[tuple[str, str]]:
    """(container, the ``kubectl run`` command it amounts to) for each container of a Kubernetes
    manifest given a ``command`` or ``args`` (``[]`` without PyYAML: the lines cannot say which
    list belongs to which container)."""
    documents = load_documents(text)
    if documents is None:
        return []
    commands = []
    for document in documents:
        for node in _nodes(document):
            image = node.get("image")
            words = [*_listed_words(node.get("command")), *_listed_words(node.get("args"))]
            if not isinstance(image, str) or not words:
                continue
            name = str(node.get("name") or "container")
            commands.append((name, shlex.join(["kubectl", "run", name, f"--image={image}", "--", *words])))
    return commands


def _listed_words(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(item) for item in value if isinstance(item, (str, int, float))]
    return []


def kube_placements(text: str) -> list[str]:
    """The workloads of a Kubernetes manifest placed in ``kube-system``, in words (``Pod
    kube-proxy-x2b9``): a pod there passes for the cluster's own and may run as its service accounts."""
    documents = load_documents(text)
    if documents is None:
        return []
    found = []
    for document in documents:
        if not isinstance(document, dict) or str(document.get("kind", "")).lower() not in _WORKLOAD_KINDS:
            continue
        metadata = document.get("metadata")
        if isinstance(metadata, dict) and metadata.get("namespace") in _SYSTEM_NAMESPACES:
            found.append(f"{document['kind']} {metadata.get('name', '')} in {metadata['namespace']}".strip())
    return found


_KUBE_LINE = lazy_compile(
    r"""["']?(privileged|hostPID|hostIPC|hostNetwork)["']?\s*:\s*(?:!!bool\s+)?["']?(?:true|yes|on)\b"""
    r"""|["']?path["']?\s*:\s*["']?(/[^\s"',}]*)""",
    re.IGNORECASE,
)


def _kube_lines(text: str) -> list[str]:
    """Without PyYAML: the lines that give pods the node (over-reads ``path:`` of other kinds)."""
    found = []
    for match in _KUBE_LINE.finditer(text):
        if match.group(1):
            found.append(f"{match.group(1)}: true")
        elif _HOST_PATHS.search(_clean(match.group(2))):
            found.append(f"path {match.group(2)} (a node path, read without a YAML parser)")
    return found


def _clean(path: str) -> str:
    cleaned = re.sub(r"/+", "/", path.strip())
    return cleaned.rstrip("/") or "/"


def compose_commands(text: str) -> list[tuple[str, str]]:
    """(service, the ``docker run`` command it amounts to) for each service of a compose file."""
    documents = load_documents(text)
    if documents is None:
        return _compose_lines(text)
    commands = []
    for document in documents:
        services = document.get("services") if isinstance(document, dict) else None
        if not isinstance(services, dict):
            continue
        for name, service in services.items():
            spend()
            if isinstance(service, dict):
                commands.append((str(name), shlex.join(_docker_run(service))))
    return commands


def _docker_run(service: dict[Any, Any]) -> list[str]:
    words = ["docker", "run"]
    if service.get("privileged") is True:
        words.append("--privileged")
    for key, option in (("pid", "--pid"), ("userns_mode", "--userns"), ("cgroup", "--cgroupns"),
                        ("uts", "--uts"), ("ipc", "--ipc"), ("network_mode", "--network")):  # fmt: skip
        if isinstance(service.get(key), str):
            words.append(f"{option}={service[key]}")
    for key, option in (("cap_add", "--cap-add"), ("security_opt", "--security-opt")):
        for value in _listed(service.get(key)):
            words.append(f"{option}={value}")
    for device in service.get("devices") or []:
        source = device.get("source") if isinstance(device, dict) else device
        if isinstance(source, str):
            words.append(f"--device={source}")
    for volume in service.get("volumes") or []:
        if isinstance(volume, str):
            words += ["-v", volume]
        elif isinstance(volume, dict) and volume.get("type", "bind") == "bind":
            source = volume.get("source")
            if isinstance(source, str):
                words += ["--mount", f"type=bind,src={source},dst={volume.get('target', '/mnt')}"]
    image = service.get("image")
    words.append(str(image) if image else "image")
    return words


def _listed(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(item) for item in value]
    return []


_COMPOSE_LINE = lazy_compile(
    r"""^\s*(?:privileged\s*:\s*["']?(?:true|yes)|pid\s*:\s*["']?host|-\s*["']?(/[^:\s"']*):)""",
    re.MULTILINE | re.IGNORECASE,
)


def _compose_lines(text: str) -> list[tuple[str, str]]:
    """Without PyYAML: the lines that give a service the host, as ``docker run`` options."""
    commands = []
    for match in _COMPOSE_LINE.finditer(text):
        line = match.group(0).strip()
        if match.group(1):
            commands.append(("?", shlex.join(["docker", "run", "-v", f"{match.group(1)}:/host", "image"])))
        elif line.startswith("privileged"):
            commands.append(("?", "docker run --privileged image"))
        else:
            commands.append(("?", "docker run --pid=host image"))
    return commands


def manifest_files(names: list[str]) -> list[str]:
    """The manifests among a directory's file names (``kubectl apply -f DIR``), in order."""
    return sorted(name for name in names if name.endswith((".yaml", ".yml", ".json")))


# -- Helm charts: templates judged without rendering them ------------------------------------------

_ACTION = lazy_compile(r"\{\{.*?\}\}", re.DOTALL)
_DOCUMENT = lazy_compile(r"^---[^\n]*$", re.MULTILINE)
_HOST_PATH_BLOCK = lazy_compile(
    r"hostPath\s*:\s*(?:\n\s*(?:type\s*:[^\n]*)?)*?\n?\s*path\s*:\s*[\"']?(/[^\s\"'}]*)"
)
_TRUE_KEY = lazy_compile(
    r"""^\s*["']?(privileged|hostPID|hostIPC|hostNetwork)["']?\s*:\s*["']?(?:true|yes|on)\b""",
    re.MULTILINE | re.IGNORECASE,
)


def chart_findings(text: str) -> tuple[list[str], list[str]]:
    """What a Helm template gives its pods of the node, read without rendering it: (found whatever
    the values, found only inside ``{{ if }}``/``with``/``range``/``define`` blocks, which depend on
    values the guard does not evaluate).

    The template's actions (``{{ … }}``) are dropped, each document parsed as YAML, and one that
    then does not parse is read line by line (``privileged: true``, a ``hostPath`` whose ``path`` is
    the node's). What the actions would insert comes from the values, judged apart
    (:func:`kube_findings`, :func:`set_findings`)."""
    certain = _template_findings(_outside_blocks(text))
    found = _template_findings(_ACTION.sub("", text))
    return certain, [finding for finding in found if finding not in certain]


def chart_debugging(text: str) -> list[str]:
    """:func:`kube_debugging` of a Helm template, its actions dropped (whatever the values say)."""
    found: list[str] = []
    for document in _DOCUMENT.split(_ACTION.sub("", text)):
        spend()
        found += kube_debugging(document)
    return found


_OPENS = lazy_compile(r"^\{\{-?\s*(?:if|with|range|define|block)\b")
_ENDS = lazy_compile(r"^\{\{-?\s*end\b")


def _outside_blocks(text: str) -> str:
    """The template's text outside every block (``{{ if }} … {{ end }}``), its actions dropped."""
    kept: list[str] = []
    depth = position = 0
    for match in _ACTION.finditer(text):
        if depth == 0:
            kept.append(text[position : match.start()])
        action = match.group(0)
        if _OPENS.match(action):
            depth += 1
        elif _ENDS.match(action) and depth:
            depth -= 1
        position = match.end()
    if depth == 0:
        kept.append(text[position:])
    return "".join(kept)


def _template_findings(bare: str) -> list[str]:
    found: list[str] = []
    for document in _DOCUMENT.split(bare):
        spend()
        if load_documents(document):
            found += kube_findings(document)
            continue
        lines = "\n".join(
            line.split(" #", 1)[0] for line in document.split("\n") if not line.lstrip().startswith("#")
        )
        found += [f"{match.group(1)}: true" for match in _TRUE_KEY.finditer(lines)]
        for match in _HOST_PATH_BLOCK.finditer(lines):
            if _HOST_PATHS.search(_clean(match.group(1))):
                found.append(f"hostPath {match.group(1)} (mounts the node's {match.group(1)})")
    return list(dict.fromkeys(found))


def set_findings(pairs: list[str]) -> list[str]:
    """``helm --set securityContext.privileged=true``: the values that give a pod the node."""
    found = []
    for pair in pairs:
        key, _, value = pair.partition("=")
        leaf = key.rsplit(".", 1)[-1].strip()
        if leaf in ("privileged", "hostPID", "hostIPC", "hostNetwork") and value.strip().lower() == "true":
            found.append(f"--set {key}=true")
        elif leaf == "path" and "hostPath" in key and _HOST_PATHS.search(_clean(value)):
            found.append(f"--set {key}={value} (mounts the node's {value})")
    return found


# -- compose files that bring in others ------------------------------------------------------------


def compose_references(text: str) -> list[str]:
    """The other compose files a compose file brings in: ``include:`` (a path, a list of paths, or
    ``path:`` entries) and services' ``extends: {file: …}``, as written (relative to the file)."""
    documents = load_documents(text) or []
    found: list[str] = []
    for document in documents:
        if not isinstance(document, dict):
            continue
        for item in _listed_items(document.get("include")):
            if isinstance(item, dict):
                found += [str(p) for p in _listed_items(item.get("path")) if isinstance(p, (str, int))]
            elif isinstance(item, str):
                found.append(item)
        services = document.get("services")
        for service in services.values() if isinstance(services, dict) else ():
            extends = service.get("extends") if isinstance(service, dict) else None
            if isinstance(extends, dict) and isinstance(extends.get("file"), str):
                found.append(extends["file"])
    return found


def _listed_items(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    return [value] if value is not None else []


_DOTENV_LINE = lazy_compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$")


def dotenv(text: str) -> dict[str, str | None]:
    """The settings of a ``.env`` file as compose reads it (``KEY=value``, ``export KEY=value``,
    quotes, ``#`` comments; the last of a key wins). A value that interpolates another
    (``${X}``, ``$X``) is None: what it becomes depends on the environment."""
    settings: dict[str, str | None] = {}
    for line in text.splitlines():
        spend()
        match = _DOTENV_LINE.match(line)
        if match is None or line.lstrip().startswith("#"):
            continue
        key, value = match.groups()
        if value[:1] in ("'", '"') and value.find(value[0], 1) > 0:
            quote = value[0]
            value = value[1 : value.find(quote, 1)]
            settings[key] = value if quote == "'" or "$" not in value else None
            continue
        value = re.split(r"\s+#", value, maxsplit=1)[0]
        settings[key] = None if "$" in value else value
    return settings
