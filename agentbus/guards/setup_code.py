"""Installed tools known to print shell setup code: ``eval "$(pyenv init -)"`` and its kin.

Running the output of a command as code (``eval "$(X)"``, ``c=$(X); $c``, ``source <(X)``)
hides what runs from every judge, so :mod:`.tactics.unseen` asks a person about it. A few
developer tools exist to be run exactly that way: version managers (``pyenv init -``), shell
prompts and helpers (``starship init bash``, ``direnv hook bash``), agents (``ssh-agent -s``),
package managers (``brew shellenv``, ``conda shell.bash hook``) and every tool's completion
script (``kubectl completion bash``). Their output is written by the tool's own code, which
came with an installed package (trusted, like every installed program): it defines
functions and exports variables, and no file of the project becomes code in it.

Not listed, because they print what the project says: ``direnv export`` (the project's
``.envrc``), ``nix print-dev-env`` and ``devbox shellenv`` (the project's shell hooks),
``pixi shell-hook`` (its activation scripts), ``poetry env activate`` (a virtualenv's
``activate``, which may be the project's). A tool is named bare (found on the user's
``PATH``) or by a path in a system or package-manager directory, never by a relative path
(a project file), with its arguments as listed and no other substitution in them.
"""

from __future__ import annotations

import posixpath
import re

from ..lazy_regex import lazy_compile
from .parse import Script

__all__ = ["LOOKUPS", "SETUP_PRINTERS", "prints_a_program_path", "prints_setup_code"]

_SHELL = r"(?:bash|zsh|fish|sh|ksh|posix|elvish|nu|nushell|xonsh|tcsh|csh|pwsh|powershell|ion|cmd)"
_OPTIONS = r"(?: --?[\w-]+(?:[ =][\w./~:@+-]+)?)*"
"""Options with plain values (``--cmd cd``, ``--use-on-cd``)."""
_INIT = rf"init(?: -{{1,2}}(?:path)?)?(?: {_SHELL})?(?: --no-rehash)?"

SETUP_PRINTERS: dict[str, str] = {
    # version managers: PATH, shims, a shell function
    **dict.fromkeys(("rbenv", "nodenv", "goenv", "jenv", "plenv", "phpenv", "luaenv"), _INIT),
    "pyenv": rf"{_INIT}|virtualenv-init -(?: {_SHELL})?",
    # agents: the socket's address and the agent's pid
    "ssh-agent": r"(?:-[sc])?(?: -t \d+)?",
    "gpg-agent": r"--daemon(?: --[\w-]+)*",
    "keychain": r"(?:--?[\w-]+ )*--eval(?: [\w./~@-]+)*",
    # package and environment managers
    "brew": rf"shellenv(?: {_SHELL})?",
    "conda": rf"shell\.{_SHELL} hook",
    "micromamba": rf"shell hook(?: (?:-s|--shell)[ =]{_SHELL})?",
    "mamba": rf"shell hook(?: (?:-s|--shell)[ =]{_SHELL})?",
    "fnm": rf"env{_OPTIONS}",
    "mise": rf"activate(?: {_SHELL})?{_OPTIONS}",
    "rtx": rf"activate(?: {_SHELL})?{_OPTIONS}",
    "opam": rf"env{_OPTIONS}|config env{_OPTIONS}",
    "luarocks": rf"path{_OPTIONS}",
    "perl": r"(?:-I ?[\w./~-]+ )*-Mlocal::lib(?:=[\w./~-]+)?",
    "minikube": rf"(?:-p [\w.-]+ )?(?:docker|podman)-env{_OPTIONS}",
    "docker-machine": r"env(?: [\w.-]+)?",
    "cs": rf"java{_OPTIONS}",  # coursier: JAVA_HOME and PATH for a JVM
    # gimme: GOROOT and PATH for a Go release, named or in the user's environment (not ``module``:
    # the version the project's go.mod asks for)
    "gimme": r"(?:\d[\w.*+-]*|stable|oldstable|tip|master|\$\w+|\$\{\w+\})",
    # prompts and shell helpers
    **dict.fromkeys(("starship", "zoxide", "atuin", "mcfly"), rf"init {_SHELL}{_OPTIONS}"),
    "oh-my-posh": rf"init {_SHELL}",  # not --config: a theme's segments may run commands
    "direnv": rf"hook {_SHELL}",
    "thefuck": r"--alias(?: \w+)?",
    "fzf": rf"--{_SHELL}",
    "register-python-argcomplete": r"(?:--shell \w+ )?[\w.-]+",
    # terminal settings
    "dircolors": r"(?:-[bc]|--sh|--bourne-shell|--csh|--c-shell)?(?: [\w./~-]+)?",
    "gdircolors": r"(?:-[bc]|--sh|--bourne-shell|--csh|--c-shell)?(?: [\w./~-]+)?",
    "lesspipe": r"",
    "lesspipe.sh": r"",
    "resize": r"(?:-[cu])?",
    "path_helper": r"-[sc]",
}  # fmt: skip
"""Tool name -> its arguments (joined by blanks, matched whole) when it prints setup code."""

_COMPLETION = lazy_compile(
    r"(?:(?!(?:run|run-script|exec|x|dlx|start|test|script) )[a-z][\w-]* )?"  # jj util completion
    rf"(?:(?:completions?|gen-completions?|generate-shell-completion)"
    rf"(?: (?:-s|--shell)[ =]?)?(?: {_SHELL}| script)?"
    rf"|completion --{_SHELL}|--completion(?:[ =]{_SHELL})?)"
)
"""``kubectl completion bash``, ``gh completion -s zsh``, ``rustup completions bash``, ``jj util
completion fish``: any installed tool's completion script (functions and ``complete`` lines)."""

LOOKUPS: dict[str, str] = {
    "which": r"[\w.+-]+",
    "command": r"-v [\w.+-]+",
    "type": r"-[pP] [\w.+-]+",
    "whence": r"-p [\w.+-]+",
    "xcrun": r"(?:-f|--find) [\w.+-]+",
    **dict.fromkeys(("pyenv", "rbenv", "nodenv", "goenv", "jenv", "asdf", "mise"), r"which [\w.+-]+"),
}  # fmt: skip
"""Tool name -> its arguments when it prints where an installed program is (``$(which python)``):
what then runs is that program, found on the user's ``PATH``."""

_SYSTEM_DIRECTORY = lazy_compile(
    r"^(?:/usr/|/bin/|/sbin/|/opt/|/nix/|/snap/|/home/linuxbrew/\.linuxbrew/|/usr/libexec/"
    r"|(?:~|\$HOME|\$\{HOME\})/\.(?:pyenv|rbenv|nodenv|goenv|jenv|local|cargo|fzf|linuxbrew)/)"
)
"""Where a tool named by its path is installed (not a project's or a temporary directory)."""


def _tool(script: Script, table: dict[str, str], completions: bool) -> bool:
    if len(script.pipelines) != 1 or len(script.pipelines[0]) != 1 or script.substitutions:
        return False
    command = script.pipelines[0][0]
    if any(r.op not in (">", "2>") or command.static(r.target) != "/dev/null" for r in command.redirects):
        return False  # 2>/dev/null only: no input fed to the tool
    words = [command.static(word) for word in command.words]
    if not words or any(word is None for word in words) or "=" in (words[0] or "="):
        return False  # a word made at run time; X=1 tool: the environment changes what it prints
    program, *args = [word for word in words if word is not None]
    if "/" in program and not _SYSTEM_DIRECTORY.match(program):
        return False
    joined = " ".join(args)
    pattern = table.get(posixpath.basename(program))
    if pattern is not None and re.fullmatch(pattern, joined):
        return True
    # Every completion form names "completion": checked first, the pattern is costly to compile.
    return completions and "completion" in joined and _COMPLETION.fullmatch(joined) is not None


def prints_setup_code(script: Script) -> bool:
    """Whether ``script`` (the code of a substitution) is an installed tool printing shell setup code."""
    return _tool(script, SETUP_PRINTERS, completions=True)


def prints_a_program_path(script: Script) -> bool:
    """Whether ``script`` only looks an installed program up (``which python``, ``command -v node``)."""
    return _tool(script, LOOKUPS, completions=False)
