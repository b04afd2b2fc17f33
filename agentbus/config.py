"""Declarative configuration: which middleware a bus gets, and with what settings.

Where it comes from, and how far each source is trusted:

- an explicit path (``--config``), else ``$AGENTBUS_CONFIG``: the user's
  choice, trusted, and the only file read;
- otherwise two layers: the user's own file (``config.toml`` or
  ``config.yaml`` in :func:`agentbus.userdirs.config_dir`), trusted; then
  the project's file, ``agentbus.toml``, ``agentbus.yaml`` or
  ``[tool.agentbus]`` in ``pyproject.toml`` in the project directory.

A project's file is written by whoever writes the project, the agent
included, so until the user trusts it (``agentbus trust``, see
:mod:`agentbus.trust`) it can add restrictions and middleware from installed
packages, and nothing more. Refused, each with a message in
:attr:`Config.refused` (the hook prints them and records them): turning the
built-in guards off, shadowing or disabling one, making a category of danger
less strict than its default (ask to allow, block to ask) or choosing the
attended profile, ``enabled = false``, an audit
log outside agentbus's data directory, and middleware whose code lives in the
project directory. The hook still decides with everything else.

No file means the defaults: the built-in guards and nothing else. The schema,
in TOML::

    enabled = true                  # master switch (seed 002): false installs nothing
    builtins = true                 # the built-in guards; or a table of their options:
    # builtins = { shadow = true, disable = ["builtin:security-audit"] }
    # builtins = { profile = "unattended", verdicts = { "scheduled task" = "block" } }
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
import importlib.util
import os
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from .errors import AgentbusError
from .registry import Registry
from .userdirs import config_dir_name, data_dir

if TYPE_CHECKING:
    from pathlib import Path  # imported where a file is found: the hook's process does without it

__all__ = [
    "ENTRY_POINT_GROUP",
    "FILE_OPTIONS_ATTRIBUTE",
    "Config",
    "ConfigError",
    "Installer",
    "MiddlewareSpec",
    "RefusedSetting",
    "load_config",
    "load_installer",
    "load_reference",
    "project_settings",
    "user_config_file",
]

ENTRY_POINT_GROUP = "agentbus.middleware"
Installer = Callable[..., None]
"""``install(registry, **options)``: adds registrations to a registry."""

FILE_OPTIONS_ATTRIBUTE = "agentbus_file_options"
"""An installer names the options that are files it writes: ``install.agentbus_file_options =
("path",)``. From an untrusted project, those must lie in agentbus's data directory."""

_PROJECT_FILES = ("agentbus.toml", "agentbus.yaml", "agentbus.yml")
_USER_FILES = ("config.toml", "config.yaml", "config.yml")

_TOP_LEVEL_KEYS = frozenset({"version", "enabled", "builtins", "audit_log", "middleware", "tools"})


class ConfigError(AgentbusError, ValueError):
    """A configuration file or reference is wrong; the message names file, key and fix."""


class RefusedSetting(ConfigError):
    """An untrusted project asked for something only the user may configure."""


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
    project: Path | None = None
    """The project directory this came from, if any: its code is not installed code."""
    trusted: bool = True
    """False: from a project the user has not trusted (see :func:`refusal`)."""

    def refusal(self) -> str | None:
        """Why an untrusted project may not install this, or None if it may.

        Checked before anything is imported: the module must be importable
        from outside the project directory, and the files it writes must lie
        in agentbus's data directory.
        """
        if self.trusted:
            return None
        module_name = self.use.partition(":")[0] if ":" in self.use else None
        if module_name is not None and self.project is not None:
            origin = _module_location(module_name.partition(".")[0])
            if origin is None:
                return (
                    f"{self.source}: refused use = {self.use!r}: no installed module "
                    f"{module_name.partition('.')[0]!r}, and a project's configuration may only use "
                    f"installed packages (the project directory is not on the import path)"
                )
            if _is_project_code(origin, self.project):
                return (
                    f"{self.source}: refused use = {self.use!r}: its code is in the project "
                    f"({origin}), and a project's configuration may only use installed packages"
                )
        return None

    def install(self, registry: Registry) -> None:
        if self.project is not None and self.trusted and ":" in self.use:
            _importable_from(self.project)
        installer = load_installer(self.use)
        if not self.trusted:
            for option in getattr(installer, FILE_OPTIONS_ATTRIBUTE, ()):
                value = self.options.get(option)
                if value is not None and not _in_data_dir(value):
                    raise RefusedSetting(
                        f"{self.source}: refused {option} = {value!r}: a project's configuration "
                        f"may only write files in agentbus's data directory ({data_dir()})"
                    )
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
    refused: tuple[str, ...] = ()
    """What an untrusted project asked for and did not get, one message each; :meth:`install`
    adds to :attr:`refusals` what it refuses while installing."""
    sources: tuple[Path, ...] = ()
    """Every file read, the user's first."""
    refusals: list[str] = attrs.field(factory=list, eq=False, repr=False)
    """:attr:`refused`, and after :meth:`install` the middleware it refused to install."""

    def __attrs_post_init__(self) -> None:
        self.refusals.extend(self.refused)

    def install(self, registry: Registry) -> Registry:
        """Add everything this configuration names to ``registry``; return it.

        Middleware an untrusted project may not install is skipped, and the
        reason appended to :attr:`refusals`.
        """
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
            refused = spec.refusal()
            if refused is None:
                try:
                    spec.install(registry)
                except RefusedSetting as exc:
                    refused = str(exc)
            if refused is not None:
                self.refusals.append(refused)
        return registry

    def build_registry(self) -> Registry:
        """A new registry with what this configuration names."""
        return self.install(Registry())


def load_config(
    path: str | os.PathLike[str] | None = None, *, cwd: str | os.PathLike[str] | None = None
) -> Config:
    """Read the configuration: ``path`` (or ``$AGENTBUS_CONFIG``) alone, trusted; else
    the user's file and the project's (in ``cwd``, default the working directory),
    the project's with the limits of an untrusted project unless the user trusted it.
    No file gives ``Config()``.
    """
    if path is None:
        path = os.environ.get("AGENTBUS_CONFIG") or None
    if path is not None:
        from pathlib import Path

        file = Path(path).expanduser()
        if not file.is_file():
            raise ConfigError(f"{file}: no such configuration file")
        return _parse(*_settings(file), trusted=True)
    user = user_config_file()
    base = _parse(*_settings(user), trusted=True) if user is not None else Config()
    found = project_settings(cwd if cwd is not None else os.getcwd())
    if found is None:
        return base
    from pathlib import Path

    from . import trust

    directory = Path(cwd) if cwd is not None else Path.cwd()
    file, settings = found
    trusted = trust.is_trusted(directory, file, trust.digest(settings))
    return _layer(base, _parse(file, settings, _where(file), trusted=trusted, project=directory))


def user_config_file() -> Path | None:
    """The user's own configuration file, if there is one."""
    directory = config_dir_name()
    for name in _USER_FILES:
        if os.path.isfile(os.path.join(directory, name)):
            from pathlib import Path

            return Path(directory, name)
    return None


def project_settings(directory: str | os.PathLike[str]) -> tuple[Path, dict[str, Any]] | None:
    """The project's configuration file in ``directory`` and its agentbus settings, if any."""
    for name in _PROJECT_FILES:
        if os.path.isfile(os.path.join(directory, name)):
            from pathlib import Path

            file = Path(directory, name)
            return file, _settings(file)[1]
    if _may_name_agentbus(os.path.join(directory, "pyproject.toml")):
        from pathlib import Path

        pyproject = Path(directory, "pyproject.toml")
        if "agentbus" in _read(pyproject).get("tool", {}):
            return pyproject, _settings(pyproject)[1]
    return None


def _may_name_agentbus(pyproject: str) -> bool:
    """Whether ``pyproject`` is a file that may hold a ``[tool.agentbus]`` table: it spells ``agentbus``,
    or has an escape (``\\u0061gentbus`` in a quoted key), or cannot be read (then
    reading it fails as before). Most projects have a pyproject.toml and no such table;
    importing the TOML parser to find that out cost each hook process several milliseconds.
    """
    if not os.path.isfile(pyproject):
        return False
    try:
        with open(pyproject, "rb") as file:
            data = file.read()
    except OSError:
        return True
    return b"agentbus" in data or b"\\u" in data or b"\\U" in data


def _where(file: Path) -> str:
    return f"{file} [tool.agentbus]" if file.name == "pyproject.toml" else str(file)


def _settings(file: Path) -> tuple[Path, dict[str, Any], str]:
    data = _read(file)
    if file.name == "pyproject.toml":
        tool = data.get("tool", {})
        data = tool.get("agentbus", {}) if isinstance(tool, dict) else {}
        if not isinstance(data, dict):
            raise ConfigError(f"{_where(file)}: expected a table of settings")
    return file, data, _where(file)


def _layer(user: Config, project: Config) -> Config:
    """The user's configuration, then the project's on top.

    Off switches hold from either side (an untrusted project's were refused
    already); the project's audit log replaces the user's; middleware adds up.
    """
    return Config(
        path=project.path,
        enabled=user.enabled and project.enabled,
        builtins=user.builtins and project.builtins,
        builtin_options=_layer_options(user.builtin_options, project.builtin_options),
        middleware=user.middleware + project.middleware,
        audit_log=project.audit_log or user.audit_log,
        refused=user.refused + project.refused,
        sources=user.sources + project.sources,
    )


def _layer_options(user: Mapping[str, Any], project: Mapping[str, Any]) -> dict[str, Any]:
    """The built-in guards' options, the project's on top; ``verdicts`` merge per category."""
    layered = {**user, **project}
    if isinstance(user.get("verdicts"), Mapping) and isinstance(project.get("verdicts"), Mapping):
        layered["verdicts"] = {**user["verdicts"], **project["verdicts"]}
    return layered


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


def _parse(
    file: Path, data: Mapping[str, Any], where: str, *, trusted: bool, project: Path | None = None
) -> Config:
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
    refused: list[str] = []
    if not trusted:
        enabled, builtins, builtin_options, audit_log = _restrict(
            where, project or file.parent, refused, enabled, builtins, builtin_options, audit_log
        )
    specs: list[MiddlewareSpec] = []
    for index, entry in enumerate(_expect(data.get("middleware", []), list, where, "middleware", "a list")):
        key = f"middleware[{index}]"
        _expect(entry, dict, where, key, "a table with a 'use' key")
        options = dict(entry)
        use = options.pop("use", None)
        _expect(use, str, where, f"{key}.use", "'package.module:install' or an entry-point name")
        specs.append(
            MiddlewareSpec(
                use=use, options=options, source=f"{where} {key}", project=project, trusted=trusted
            )
        )
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
                MiddlewareSpec(
                    use=name,
                    options={"tool": tool_name, **settings},
                    source=f"{where} {tkey}",
                    project=project,
                    trusted=trusted,
                )
            )
    return Config(
        path=file,
        enabled=enabled,
        builtins=builtins,
        builtin_options=builtin_options,
        middleware=tuple(specs),
        audit_log=audit_log,
        refused=tuple(refused),
        sources=(file,),
    )


def _restrict(
    where: str,
    project: Path,
    refused: list[str],
    enabled: bool,
    builtins: bool,
    builtin_options: dict[str, Any],
    audit_log: str | None,
) -> tuple[bool, bool, dict[str, Any], str | None]:
    """An untrusted project's settings, without what would weaken the user's protection."""
    how = f"; if you wrote it, run: agentbus trust {project}"
    if not enabled:
        refused.append(f"{where}: refused enabled = false: a project cannot turn agentbus off{how}")
        enabled = True
    if not builtins:
        refused.append(f"{where}: refused builtins = false: a project cannot remove the built-in guards{how}")
        builtins = True
    policy_keys = ("verdicts", "profile")
    kept = _restrict_policy(where, how, builtin_options, refused)
    builtin_options = {key: value for key, value in builtin_options.items() if key not in policy_keys} | kept
    weakening = {
        key: value
        for key, value in builtin_options.items()
        if key not in policy_keys and value not in (False, [], {}, None)
    }
    if weakening:
        shown = ", ".join(f"{key} = {value!r}" for key, value in weakening.items())
        refused.append(
            f"{where}: refused builtins {{ {shown} }}: a project cannot shadow, disable or "
            f"reorder the built-in guards{how}"
        )
        builtin_options = {key: value for key, value in builtin_options.items() if key in policy_keys}
    if audit_log is not None and not _in_data_dir(audit_log):
        refused.append(
            f"{where}: refused audit_log = {audit_log!r}: a project's audit log must be in "
            f"agentbus's data directory ({data_dir()}){how}"
        )
        audit_log = None
    return enabled, builtins, builtin_options, audit_log


def _restrict_policy(where: str, how: str, options: dict[str, Any], refused: list[str]) -> dict[str, Any]:
    """An untrusted project's ``verdicts`` and ``profile``, keeping only what is stricter.

    A category may go from ask to block, the profile to unattended; anything
    else would loosen the user's protection and is refused. What is kept is
    stricter than every other setting, so layering it on the user's cannot loosen.
    """
    from .guards.policy import DEFAULT_POLICY, STRENGTH

    kept: dict[str, Any] = {}
    profile = options.get("profile")
    if profile == "unattended":
        kept["profile"] = profile
    elif profile is not None:
        refusal = f"refused builtins profile = {profile!r}: a project can only choose 'unattended'"
        refused.append(f"{where}: {refusal}{how}")
    verdicts = options.get("verdicts")
    if verdicts is None:
        return kept
    if not isinstance(verdicts, Mapping):
        refused.append(
            f"{where}: refused builtins verdicts = {verdicts!r}: not a table of category = verdict{how}"
        )
        return kept
    stricter = {}
    for category, verdict in verdicts.items():
        default = DEFAULT_POLICY.decision(category) if isinstance(category, str) else None
        if verdict in STRENGTH and default is not None and STRENGTH[verdict] > STRENGTH[default]:
            stricter[category] = verdict
        else:
            refused.append(
                f"{where}: refused builtins verdicts {category!r} = {verdict!r}: a project can only make "
                f"a category stricter than its default{how}"
            )
    kept["verdicts"] = stricter
    return kept


def _in_data_dir(value: Any) -> bool:
    """Whether ``value`` names a file inside agentbus's data directory (links resolved)."""
    if not isinstance(value, (str, os.PathLike)):
        return False
    try:
        target = os.path.realpath(os.path.expanduser(value))
        home = os.path.realpath(data_dir())
    except (OSError, ValueError):
        return False
    return os.path.commonpath([target, home]) == home and target != home


def _module_location(name: str) -> Path | None:
    """Where the top-level module ``name`` would be imported from, without running it."""
    from pathlib import Path

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.origin and spec.origin not in ("built-in", "frozen"):
        return Path(spec.origin)
    locations = list(spec.submodule_search_locations or ())
    return Path(locations[0]) if locations else None


def _is_project_code(location: Path, project: Path) -> bool:
    """Code in the project directory, except what a virtual environment in it installed."""
    real, root = os.path.realpath(location), os.path.realpath(project)
    if os.path.commonpath([real, root]) != root:
        return False
    from pathlib import Path

    return not any(part in ("site-packages", "dist-packages") for part in Path(real).parts)


def _importable_from(project: Path) -> None:
    """A trusted project may use its own modules: its directory goes last on the import
    path, so it can add modules but never shadow an installed one."""
    entry = os.path.realpath(project)
    if entry not in sys.path:
        sys.path.append(entry)
