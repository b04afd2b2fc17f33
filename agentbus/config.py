"""Declarative configuration: which middleware a bus gets, and with what settings.

A configuration is read from one file: an explicit path, else ``$AGENTBUS_CONFIG``,
else ``agentbus.toml``, ``agentbus.yaml`` or ``[tool.agentbus]`` in
``pyproject.toml`` in the working directory. No file means the defaults: the
built-in guards and nothing else. The schema, in TOML::

    enabled = true                  # master switch (seed 002): false installs nothing
    builtins = true                 # the built-in guards; or a table of their options:
    # builtins = { shadow = true, disable = ["builtin:security-audit"] }
    audit_log = "~/.agentbus/audit.jsonl"

    [[middleware]]
    use = "agentbus.middleware.redact:install"   # module:attr, or an entry-point name
    priority = 5                                 # every other key goes to the installer

    [tools.Glob]                    # seed 002: per-tool transformers
    enabled = true
    transformers = [{ name = "exclude_directories", config = { patterns = [".venv"] } }]

The same keys work in YAML (seed 002's file is valid as it stands). Middleware
are *installers*: callables ``install(registry, **options)`` that add
registrations; third-party packages publish them in the ``agentbus.middleware``
entry-point group, so ``use = "name"`` finds them.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from .errors import AgentbusError
from .registry import Registry

__all__ = [
    "ENTRY_POINT_GROUP",
    "Config",
    "ConfigError",
    "Installer",
    "MiddlewareSpec",
    "load_config",
    "load_installer",
    "load_reference",
]

ENTRY_POINT_GROUP = "agentbus.middleware"
Installer = Callable[..., None]
"""``install(registry, **options)``: adds registrations to a registry."""

_TOP_LEVEL_KEYS = frozenset({"version", "enabled", "builtins", "audit_log", "middleware", "tools"})


class ConfigError(AgentbusError, ValueError):
    """A configuration file or reference is wrong; the message names file, key and fix."""


def load_reference(reference: str) -> Any:
    """Import ``"package.module:attr"`` (attr may be dotted) and return the object."""
    module_name, sep, attr_path = reference.partition(":")
    if not sep or not module_name or not attr_path:
        raise ConfigError(f"{reference!r} is not a reference: write it as 'package.module:attribute'")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"cannot import {module_name!r} for {reference!r}: {exc}") from exc
    for part in attr_path.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ConfigError(f"{module_name!r} has no attribute {attr_path!r} ({reference!r})") from None
    return target


def load_installer(name: str) -> Installer:
    """Resolve a ``module:attr`` reference or an ``agentbus.middleware`` entry-point name."""
    if ":" in name:
        installer = load_reference(name)
    else:
        from importlib.metadata import entry_points

        found = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
        if name not in found:
            available = ", ".join(sorted(found)) or "none installed"
            raise ConfigError(
                f"no middleware named {name!r} in the {ENTRY_POINT_GROUP!r} entry points "
                f"(available: {available}); or write a reference as 'package.module:install'"
            )
        installer = found[name].load()
    if not callable(installer):
        raise ConfigError(f"{name!r} is not callable: an installer is install(registry, **options)")
    return installer  # type: ignore[no-any-return]


@attrs.frozen
class MiddlewareSpec:
    """One installer to call, its options, and where it was configured (for errors)."""

    use: str
    options: Mapping[str, Any] = attrs.field(factory=dict)
    source: str = "<code>"

    def install(self, registry: Registry) -> None:
        installer = load_installer(self.use)
        try:
            installer(registry, **self.options)
        except ConfigError:
            raise
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"{self.source}: {self.use} refused its options: {exc}") from exc


@attrs.frozen
class Config:
    """A loaded configuration. ``Config()`` is the default: built-in guards only."""

    path: Path | None = None
    enabled: bool = True
    builtins: bool = True
    builtin_options: Mapping[str, Any] = attrs.field(factory=dict)
    middleware: tuple[MiddlewareSpec, ...] = ()
    audit_log: str | None = None

    def install(self, registry: Registry) -> Registry:
        """Add everything this configuration names to ``registry``; return it."""
        if not self.enabled:
            return registry
        if self.builtins:
            from .middleware import builtin

            try:
                builtin.install(registry, **self.builtin_options)
            except (TypeError, ValueError) as exc:
                where = f"{self.path}: builtins" if self.path is not None else "builtins"
                raise ConfigError(f"{where}: {exc}") from exc
        for spec in self.middleware:
            spec.install(registry)
        return registry

    def build_registry(self) -> Registry:
        """A new registry with what this configuration names."""
        return self.install(Registry())


def load_config(
    path: str | os.PathLike[str] | None = None, *, cwd: str | os.PathLike[str] | None = None
) -> Config:
    """Read the configuration from ``path`` or discover it; no file gives ``Config()``."""
    if path is None:
        path = os.environ.get("AGENTBUS_CONFIG") or _discover(Path(cwd) if cwd is not None else Path.cwd())
        if path is None:
            return Config()
    file = Path(path).expanduser()
    if not file.is_file():
        raise ConfigError(f"{file}: no such configuration file")
    data = _read(file)
    if file.name == "pyproject.toml":
        data = data.get("tool", {}).get("agentbus", {})
        where = f"{file} [tool.agentbus]"
    else:
        where = str(file)
    return _parse(data, file, where)


def _discover(directory: Path) -> Path | None:
    for name in ("agentbus.toml", "agentbus.yaml", "agentbus.yml"):
        if (directory / name).is_file():
            return directory / name
    pyproject = directory / "pyproject.toml"
    if pyproject.is_file() and "agentbus" in _read(pyproject).get("tool", {}):
        return pyproject
    return None


def _read(file: Path) -> dict[str, Any]:
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{file}: cannot read it: {exc}") from exc
    if file.suffix in (".yaml", ".yml"):
        try:
            import yaml
        except ImportError:
            raise ConfigError(f"{file}: reading YAML needs PyYAML: pip install 'agentbus[yaml]'") from None
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise ConfigError(f"{file}: invalid YAML: {exc}") from exc
        data = {} if data is None else data
    else:
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover - Python 3.10
            try:
                import tomli as tomllib
            except ImportError:
                raise ConfigError(
                    f"{file}: reading TOML on Python 3.10 needs tomli: pip install 'agentbus[toml]'"
                ) from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{file}: invalid TOML: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{file}: expected a table of settings at the top, got {type(data).__name__}")
    return data


def _expect(value: Any, kind: type | tuple[type, ...], where: str, key: str, expected: str) -> Any:
    if not isinstance(value, kind):
        raise ConfigError(f"{where}: {key} must be {expected}, got {value!r}")
    return value


def _parse(data: Mapping[str, Any], file: Path, where: str) -> Config:
    unknown = set(data) - _TOP_LEVEL_KEYS
    if unknown:
        raise ConfigError(
            f"{where}: unknown key(s) {', '.join(sorted(unknown))}; "
            f"known keys: {', '.join(sorted(_TOP_LEVEL_KEYS))}"
        )
    version = data.get("version", 1)
    if version != 1:
        raise ConfigError(f"{where}: version must be 1, got {version!r}")
    enabled = _expect(data.get("enabled", True), bool, where, "enabled", "true or false")
    builtins_value = data.get("builtins", True)
    builtin_options: dict[str, Any] = {}
    if isinstance(builtins_value, dict):
        builtin_options = dict(builtins_value)
        builtins = True
    else:
        builtins = _expect(builtins_value, bool, where, "builtins", "true, false or a table of options")
    audit_log = data.get("audit_log")
    if audit_log is not None:
        _expect(audit_log, str, where, "audit_log", "a file path")
    specs: list[MiddlewareSpec] = []
    for index, entry in enumerate(_expect(data.get("middleware", []), list, where, "middleware", "a list")):
        key = f"middleware[{index}]"
        _expect(entry, dict, where, key, "a table with a 'use' key")
        options = dict(entry)
        use = options.pop("use", None)
        _expect(use, str, where, f"{key}.use", "'package.module:install' or an entry-point name")
        specs.append(MiddlewareSpec(use=use, options=options, source=f"{where} {key}"))
    tools = _expect(data.get("tools", {}), dict, where, "tools", "a table of tool names")
    for tool_name, tool_settings in tools.items():
        key = f"tools.{tool_name}"
        _expect(tool_settings, dict, where, key, "a table with 'enabled' and 'transformers'")
        if not _expect(tool_settings.get("enabled", True), bool, where, f"{key}.enabled", "true or false"):
            continue
        transformers = _expect(
            tool_settings.get("transformers", []), list, where, f"{key}.transformers", "a list"
        )
        for index, transformer in enumerate(transformers):
            tkey = f"{key}.transformers[{index}]"
            _expect(transformer, dict, where, tkey, "a table with 'name' and 'config'")
            name = _expect(transformer.get("name"), str, where, f"{tkey}.name", "a transformer name")
            settings = _expect(transformer.get("config", {}) or {}, dict, where, f"{tkey}.config", "a table")
            if not transformer.get("enabled", True):
                continue
            specs.append(
                MiddlewareSpec(use=name, options={"tool": tool_name, **settings}, source=f"{where} {tkey}")
            )
    return Config(
        path=file,
        enabled=enabled,
        builtins=builtins,
        builtin_options=builtin_options,
        middleware=tuple(specs),
        audit_log=audit_log,
    )
