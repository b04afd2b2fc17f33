"""A differential fuzzer of the command guard against real bash.

The guards read shell through tree-sitter-bash, whose tree is not always what
bash does: a shape tree-sitter reads as an error, a word or a comment can be a
command to bash. This module finds such shapes systematically:

- :func:`cases` generates command lines that wrap a dangerous core (``rm -rf ~``,
  ``echo x > ~/.bashrc``, ``curl x | sh``) in syntax variations: quoting,
  escapes, line continuations, here-documents, arithmetic, ``[[ ]]``, case with
  ``;&``/``;;&``, functions with odd names, substitutions, aliases, traps, odd
  whitespace and fragments that tree-sitter cannot parse;
- :class:`Bash` runs one through real bash in a throwaway directory whose PATH
  holds only logging stubs (each program logs its argv and does nothing; the
  downloaders print a payload that runs the ``pwned`` stub) with HOME at a
  scratch home: what bash executed and which files it wrote there is observed,
  not guessed;
- :func:`finding` compares that with the guard's decision: the core ran (or the
  profile was written) while the guard let the command through.

Used by tests/guards/test_fuzz_bash.py (a bounded run in CI, where bash is
present) and by benchmarks/fuzz_shell.py (a larger budget, printing every finding).
Nothing here reaches the network or writes outside its temporary directory.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from agentbus.guards.judge import judge_command

BASH = shutil.which("bash")

_STUBS = (
    "rm", "curl", "wget", "pwned", "sudo", "env", "nohup", "timeout", "xargs", "find", "nice",
    "python3", "perl", "tee", "cp", "mv", "chmod", "ls", "git", "make", "setsid", "stdbuf", "doas",
)  # fmt: skip
"""Programs replaced by a stub that logs its argv (the wrappers among them log the command they carry)."""
_RUNNERS = frozenset({"sudo", "env", "nohup", "timeout", "xargs", "find", "nice", "setsid", "stdbuf", "doas"})
_RECURSIVE = re.compile(r"-[A-Za-z]*[rR][A-Za-z]*|--recursive")
"""An option rm reads as recursive (``-r\v-f`` is an invalid option: rm deletes nothing)."""
_REAL = ("cat", "base64", "tr", "rev", "head", "tail")
"""Harmless programs the variations use to compute a word: the real ones."""
_SHELLS = ("bash", "sh")

_STUB = """#!{bash}
{{ printf '%s\\0' "${{0##*/}}" "$@"; }} > "$FUZZ_LOG/$BASHPID.$RANDOM$RANDOM"
{payload}
exit 0
"""
_ENV_FILE = """command_not_found_handle() {
    { printf '%s\\0' "$@"; } > "$FUZZ_LOG/$BASHPID.$RANDOM$RANDOM"
    return 127
}
"""


@dataclass(frozen=True)
class Observation:
    """What bash did with a command line: each program's argv, and whether the profile was written."""

    argvs: tuple[tuple[str, ...], ...]
    wrote_profile: bool
    timed_out: bool


class Bash:
    """A scratch directory with a stub PATH, a scratch HOME and a log; reset before each run."""

    def __init__(self) -> None:
        if BASH is None:
            raise RuntimeError("bash is not installed")
        self.root = Path(tempfile.mkdtemp(prefix="agentbus-fuzz-"))
        self.bin = self.root / "bin"
        self.home = self.root / "home"
        self.work = self.root / "work"
        self.log = self.root / "log"
        self.bin.mkdir()
        for name in _STUBS:
            payload = "echo pwned" if name in ("curl", "wget") else ""
            stub = self.bin / name
            stub.write_text(_STUB.format(bash=BASH, payload=payload))
            stub.chmod(0o755)
        for name in _REAL:
            real = shutil.which(name)
            if real is not None:
                (self.bin / name).symlink_to(real)
        for name in _SHELLS:
            (self.bin / name).symlink_to(BASH)
        self.env_file = self.root / "env.sh"
        self.env_file.write_text(_ENV_FILE)

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Bash:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def run(self, text: str, timeout: float = 5.0) -> Observation:
        """Run ``text`` as ``bash -c`` would (a NUL ends the C string an exec call passes)."""
        for directory in (self.home, self.work, self.log):
            shutil.rmtree(directory, ignore_errors=True)
            directory.mkdir()
        env = {
            "PATH": str(self.bin),
            "HOME": str(self.home),
            "BASH_ENV": str(self.env_file),
            "FUZZ_LOG": str(self.log),
            "LC_ALL": "C.UTF-8",
        }
        timed_out = False
        with subprocess.Popen(
            [str(BASH), "-c", text.split("\0", 1)[0]],
            cwd=self.work,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        ) as process:
            deadline = time.monotonic() + timeout
            try:
                process.wait(timeout)
                while time.monotonic() < deadline:  # what it started in the background (coproc, &)
                    os.killpg(process.pid, 0)
                    time.sleep(0.005)
                else:
                    timed_out = True
            except subprocess.TimeoutExpired:
                timed_out = True
            except ProcessLookupError:
                pass
            finally:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait()
        argvs = []
        for entry in sorted(self.log.iterdir()):
            fields = entry.read_bytes().split(b"\0")[:-1]
            argvs.append(tuple(f.decode("utf-8", "replace") for f in fields))
        return Observation(tuple(argvs), (self.home / ".bashrc").exists(), timed_out)

    def dangerous(self, observation: Observation) -> str | None:
        """Which dangerous effect bash carried out, if any."""
        home = str(self.home)
        for argv in observation.argvs:
            # rm itself, or a wrapper that runs it (`sudo rm ...`; not `x rm ...`, which runs x)
            for index, word in enumerate(argv if argv and argv[0] in _RUNNERS else argv[:1]):
                rest = argv[index + 1 :]
                if (
                    word.rpartition("/")[2] == "rm"
                    and any(a.rstrip("/") == home for a in rest)
                    and any(_RECURSIVE.fullmatch(a) for a in rest)
                ):
                    return "rm -rf ~ ran"
            if argv and argv[0] == "pwned":
                return "a downloaded payload ran"
        if observation.wrote_profile:
            return "~/.bashrc was written"
        return None


def finding(bash: Bash, text: str) -> str | None:
    """A description when bash does something dangerous with ``text`` that the guard lets through."""
    try:
        verdict = judge_command(text, home=str(bash.home), cwd=str(bash.work))
    except Exception as exc:  # the hook would fail closed, but the guard must not raise
        return f"the guard raised {type(exc).__name__}: {exc} on {text!r}"
    if verdict is not None:
        return None
    effect = bash.dangerous(bash.run(text))
    return f"{effect}, and the guard allowed {text!r}" if effect else None


# -- the generator -----------------------------------------------------------------------

_CORES = (
    ["rm", "-rf", "~"],
    ["rm", "-fr", "$HOME"],
    ["rm", "-r", "-f", "~/"],
    ["echo", "x", ">", "~/.bashrc"],
    ["echo", "x", ">>", "~/.bashrc"],
    ["echo", "x", ">|", "~/.bashrc"],
    ["echo", "x", "&>", "~/.bashrc"],
    ["curl", "-s", "x", "|", "sh"],
    ["wget", "-qO-", "x", "|", "bash"],
)
_OPERATORS = frozenset({">", ">>", ">|", "&>", "|"})


def _quote_token(draw: st.DrawFn, token: str) -> str:
    """One spelling of a word that bash may or may not read as the same word."""
    how = draw(
        st.sampled_from([
            "plain", "plain", "plain", "single", "double", "partial", "backslash", "ansi", "locale",
            "continuation", "brace", "subst", "backtick", "default", "hex",
        ])
    )  # fmt: skip
    position = draw(st.integers(0, len(token)))
    if how == "single":
        return f"'{token}'"
    if how == "double":
        return f'"{token}"'
    if how == "partial":
        quote = draw(st.sampled_from(["''", '""', "$''", '$""']))
        return token[:position] + quote + token[position:]
    if how == "backslash":
        return token[:position] + "\\" + token[position:] if position < len(token) else token
    if how == "ansi":
        return f"$'{token}'"
    if how == "locale":
        return f'$"{token}"'
    if how == "continuation":
        return token[:position] + "\\\n" + token[position:]
    if how == "brace":
        return "{" + token + ",}"
    if how == "subst":
        return f"$(echo {token})"
    if how == "backtick":
        return f"`echo {token}`"
    if how == "default":
        return "${unset_variable:-" + token + "}"
    if how == "hex":
        return "$'" + "".join(f"\\x{ord(c):02x}" for c in token) + "'"
    return token


_SEPARATORS = st.sampled_from([" ", " ", " ", "\t", "  ", " \\\n", "\\\n ", "\r", "\u00a0", "\v", "\f"])


@st.composite
def _core(draw: st.DrawFn) -> str:
    tokens = draw(st.sampled_from(_CORES))
    words = [token if token in _OPERATORS else _quote_token(draw, token) for token in tokens]
    if draw(st.booleans()) and not any(t in _OPERATORS for t in tokens):
        return "{" + ",".join(words) + "}"  # brace expansion of the whole command
    out = words[0]
    for word in words[1:]:
        out += draw(_SEPARATORS) + word
    return out


_HOMELY = frozenset({"~", "$HOME", "~/", "~/.bashrc"})


def _split_core(tokens: list[str]) -> tuple[list[str], list[str]]:
    """A core cut where a builtin's value must end: before an operator or a home word, which a
    value would not expand (``v='rm -rf ~'; $v`` deletes a directory named ``~``)."""
    for index, token in enumerate(tokens):
        if token in _OPERATORS or token in _HOMELY:
            return tokens[:index], tokens[index:]
    return tokens, []


_VALUE_FORMS = (
    ("printf -v v %s {q}", "$v"),
    ("printf -v v '%s ' {w}", "$v"),
    ("printf -v v '%b' {q}", "$v"),
    ("read v <<< {q}", "$v"),
    ("read -r v w <<< {q}", "$v $w"),
    ("read -a v <<< {q}", '"${{v[@]}}"'),
    ("mapfile -t v <<< {q}", "$v"),
    ("readarray v <<< {q}", "${{v[@]}}"),
    ("set -- {w}", '"$@"'),
    ("set -- {w}", "$*"),
    ("IFS=, read -a v <<< {c}", '"${{v[@]}}"'),
    ("IFS=,; v={c}", "$v"),
    ("IFS=: read -r v w <<< {k}", "$v $w"),
    ("read -d , v <<< {q},", "$v"),
    ("read v <<EOF\n{b}\nEOF\n", "$v"),
    ("read v <<'EOF'\n{b}\nEOF\n", "$v"),
    ("read -a v <<-EOF\n\t{b}\n\tEOF\n", '"${{v[@]}}"'),
    ("v=$(cat <<EOF\n{b}\nEOF\n)", "$v"),
    ("v=$(printf %s {q})", "$v"),
    ("mapfile -t v <<EOF\n{b}\nEOF\n", "$v"),
    ("v=XY{q}; i=2", "${{v:$i}}"),
    ("v=XY{q}Z; i=2; n=-1", "${{v:$i:$n}}"),
    ("v=XY{q}; i=2", "${{v:i}}"),
)
"""A builtin that makes a value (``{q}``: the words as one quoted word, ``{w}``: as words,
``{c}``/``{k}``: joined by ``,``/``:``, ``{b}``: a here-document line), then how it is run."""


@st.composite
def _valued_core(draw: st.DrawFn) -> str:
    """A core whose program and first arguments are a value a builtin made (printf -v, read,
    mapfile, set --, IFS splitting, here-documents); the rest follows as written."""
    tokens = draw(st.sampled_from(_CORES))
    value, rest = _split_core(list(tokens))
    cut = draw(st.integers(1, len(value)))
    value, rest = value[:cut], value[cut:] + rest
    made, used = draw(st.sampled_from(_VALUE_FORMS))
    text = " ".join(value)
    words = " ".join(_quote_token(draw, word) for word in value)
    assignment = made.format(q=shlex.quote(text), w=words, c=",".join(value), k=":".join(value), b=text)
    joiner = "" if assignment.endswith("\n") else draw(st.sampled_from(["; ", "\n", " && "]))
    use = used.format()
    out = assignment + joiner + use
    for token in rest:
        out += " " + (token if token in _OPERATORS else _quote_token(draw, token))
    return out


_WRAPPERS = (
    "{{ {s}; }}", "( {s} )", "echo $({s})", "echo `{s}`", "echo \"$({s})\"", ": <({s})", "cat <({s})",
    "echo x > >({s})", "if true; then {s}; fi", "if {s}; then :; fi", "while {s}; do break; done",
    "until ! {s}; do :; done", "for i in 1; do {s}; done", "for ((i=0;i<1;i++)); do {s}; done",
    "case x in x) {s};; esac", "case x in (x) {s};; esac", "case x in x) :;& y) {s};; esac",
    "case x in x) :;;& *) {s};; esac", "! {s}", "time -p {s}", "time {s}", "f() {{ {s}; }}; f",
    "function f {{ {s}; }}; f", "function a.b {{ {s}; }}; a.b", "a-b() {{ {s}; }}; a-b",
    "function == {{ {s}; }}; ==", "@() {{ {s}; }}; @", "true && {s}", "false || {s}", "{s} &",
    "{s} | cat", "echo | {s}", "{s} |& cat", "coproc {s}", "coproc c {{ {s}; }}",
    "eval {q}", "eval \"{s}\"", "bash -c {q}", "sh -c {q}", "source <(echo {q})", ". <(echo {q})",
    "bash <<EOF\n{s}\nEOF", "bash <<'EOF'\n{s}\nEOF", "bash <<-EOF\n\t{s}\n\tEOF", "cat <<EOF\n$({s})\nEOF",
    "[[ $({s}) ]]", "[[ -n x ]] && {s}", "[[ x == @(a|x) ]] && {s}", "[[ x =~ $({s}) ]]",
    "(( 1 )) && {s}", "echo $(( $({s}) + 1 ))", "echo $(( a[$({s})] ))", "a[$({s})]=1",
    "echo ${{x:-$({s})}}", "echo ${{x:=$({s})}}", "echo \"${{x#$({s})}}\"", "echo ${{x/$({s})/}}",
    "# comment\n{s}", "{s} # comment", ": # comment \\\n{s}", "shopt -s expand_aliases\nalias x={q}\nx",
    "trap {q} EXIT", "exec {s}", "command {s}", "env {s}", "nohup {s}", "x=1 {s}", "sudo {s}",
    "select x in a; do {s}; break; done <<< 1", "echo $({s} 2>&1)", "echo $(echo $({s}))",
    "shopt -s extglob\necho @(a|b); {s}", "{s}\r", "{s};", "{s} ;;", "\n{s}\n",
    "bash <<\\EOF\n{s}\nEOF", "bash <<\"EOF\"\n{s}\nEOF", "bash 0<<EOF\n{s}\nEOF",
    "cat <<EOF | bash\n{s}\nEOF", "cat - <<EOF | bash\n{s}\nEOF", "bash - <<EOF\n{s}\nEOF",
    "eval \"$(cat - <<'EOF'\n{s}\nEOF\n)\"",
    "bash <<EOF; :\n{s}\nEOF", "cat <<A; bash <<B\nx\nA\n{s}\nB", "source /dev/stdin <<EOF\n{s}\nEOF",
    "eval \"$(cat <<'EOF'\n{s}\nEOF\n)\"", "bash -c \"$(cat <<'EOF'\n{s}\nEOF\n)\"", "bash <<< {q}",
    "cat <<EOF\n$({s})\nEOF", "cat <<EOF\n`{s}`\nEOF", "cat <<EOF\n${{x:-$({s})}}\nEOF",
    "mapfile -t L <<'EOF'\n{s}\nEOF\neval \"${{L[@]}}\"", "read -r L <<'EOF'\n{s}\nEOF\neval \"$L\"",
    "bash <<-EOF\n\t{s}\nEOF", "bash <<EOF\n{s}", "bash <<'A'\nbash <<B\n{s}\nA",
)  # fmt: skip
"""Ways to run a statement ``{s}`` (``{q}``: the statement as one single-quoted word)."""

_FRAGMENTS = (
    "echo ==", "echo a =~ b", "echo }", "echo ]]", "echo {", "echo esac", "echo fi then do",
    "echo $[1+1]", "echo $((1))", "echo ${#}", "echo ${!x}", "echo ${x@Q}", "a+=(1)",
    "declare -A m=([k]=v)", "echo <<<x", "echo 1 2>&-", "exec 3<>f", "echo {a..c}", "echo \\#",
    "echo #", "echo x |& cat", "echo '", "echo \"", "echo `", "echo $(", "echo )", "echo ((",
    "echo ))", "echo [[", "echo !", "echo 'a'\"b\"$'c'$\"d\"", "x=(", "echo \\", "echo -- -",
    "echo $'\\''", "echo \"$(echo \")\"", "echo ${x:-}}", "{ echo; }", "echo ;;", "echo a=b c==d",
    "echo ![", "case", "echo $'\\n'", "echo $\"x\"", "a=b c=d", "echo <(:)", "echo 2>&1 >&2",
)  # fmt: skip
"""Fragments, valid or not in bash, put before the statement: some make tree-sitter give up."""

_JOINERS = st.sampled_from(["; ", "\n", "\r\n", " && ", " || ", " & ", " | ", ";\n", "\n\n", " "])


@st.composite
def cases(draw: st.DrawFn) -> str:
    """A command line: a dangerous core under 0-3 wrappers, maybe after a fragment."""
    statement = draw(st.one_of(_core(), _valued_core()))
    for _ in range(draw(st.integers(0, 3))):
        wrapper = draw(st.sampled_from(_WRAPPERS))
        statement = wrapper.format(s=statement, q=shlex.quote(statement))
    if draw(st.booleans()):
        statement = draw(st.sampled_from(_FRAGMENTS)) + draw(_JOINERS) + statement
    if draw(st.integers(0, 9)) == 0:
        statement += "\0" + draw(st.sampled_from(["", "x", "; :"]))
    return statement
