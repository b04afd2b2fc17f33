"""Tactic family ``unseen``: code that runs while the guard cannot see what it is.

The parser works out the values a line gives its variables, so ``read x <<< 'rm -rf ~';
$x`` is judged as ``rm -rf ~``. When the value is made at run time from what the guard
cannot read (``read x`` from a file or the terminal, ``printf -v x`` of the clock,
``set -- $(cat f)``, ``c=$(cat f)``; see :mod:`..shell_values`), and that value is then run
as a command, handed to ``eval``, ``sh -c`` or ``source``, no judge can tell what runs. The
same holds for a command's output run directly (``eval "$(cat f)"``, ``$(cat f) x``,
``source <(./gen)``), for a library loaded into the shell (``enable -f X.so``) and for
commands re-run from the shell's history when the line loaded it from a file (``history -r F;
fc -s``). Each finding is :data:`~agentbus.guards.verdict.UNJUDGED_SCRIPT` (ask by default: a
person sees it; blocked unattended).

Not held: the output of an installed tool that exists to print shell setup code (``eval
"$(pyenv init -)"``, ``eval "$(ssh-agent -s)"``, ``source <(kubectl completion bash)``) or a
program's path (``$(which python) x.py``): see :mod:`..setup_code` for the list and why it is
trusted; nor a quiet builtin's output (``while $(kill -0 $pid); do sleep 1; done``: empty, or the
shell's own text), unless the line defines a function of that name. A value from the environment
(``$EDITOR file``, ``"$@"`` of a wrapper script) is the user's, as before.
"""

from __future__ import annotations

import itertools
import posixpath
import re
import shlex

from ...lazy_regex import lazy_compile
from ..carriers import sed_runs_input
from ..findings import finding as _verdict
from ..findings import piece
from ..findings import static_args as _values
from ..hidden_names import hidden_name
from ..parse import RUNTIME, WRITE_OPERATORS, Script, SimpleCommand, Substitution, static_output
from ..powershell import POWERSHELLS
from ..programs import SHELLS, Invocation, shell_mode, walk
from ..setup_code import prints_a_program_path, prints_setup_code
from ..verdict import OBFUSCATED, REMOTE_CODE, UNJUDGED_SCRIPT, Verdict

__all__ = ["judge", "judge_script"]

_OUTPUTS = frozenset({"$(", "`", "<("})
"""Substitutions whose output (or file, for ``<(...)``) a word holds."""


def _hidden(sub: Substitution) -> bool:
    """Whether running what ``sub`` stands for runs code the guard cannot see."""
    if sub.kind == RUNTIME:  # read x (nothing known made it), c=$(cat f) (made by cat f)
        return not sub.origins or any(_hidden(origin) for origin in sub.origins)
    if sub.kind in _OUTPUTS and static_output(sub) is not None:
        # $(echo rm): judged as its value; $(echo "$c") of c=$(cat f): what made $c
        return any(_hidden(inner) for inner in sub.script.substitutions if inner.kind == RUNTIME)
    if sub.kind not in _OUTPUTS or _empty(sub.script) or _prints_no_code(sub.script):
        return False  # `` and $(): nothing; $(kill -0 $pid): nothing or the shell's own text
    return not (prints_setup_code(sub.script) or prints_a_program_path(sub.script))


def _empty(script: Script) -> bool:
    """No command at all (``$()``, a comment): it prints nothing."""
    return all(not any(c.words) and not c.redirects for stages in script.pipelines for c in stages)


_QUIET = frozenset({"kill", "true", "false", ":", "test", "["})
"""Shell builtins (no PATH can replace them) whose standard output is empty or the shell's own
fixed text, whatever their arguments: ``kill -0 $pid`` prints nothing (``kill -l`` a list of
signal names), ``test``/``[`` nothing. Errors, which can repeat an argument, go to standard error."""


_STDOUT = frozenset({"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})


def _prints_no_code(script: Script) -> bool:
    """Every command is a quiet program (:data:`_QUIET`, named plainly) that does not send its
    errors to standard output (``2>&1``): ``while $(kill -0 $pid); do sleep 1; done`` runs nothing
    it did not show."""
    commands = [c for stages in script.pipelines for c in stages if c.words or c.redirects]
    return bool(commands) and all(
        c.words
        and c.static(c.words[0]) in _QUIET
        and not any(r.target in _STDOUT or ("&" in r.op and r.target == "1") for r in c.redirects)
        for c in commands
    )


def _shown(sub: Substitution) -> str:
    if sub.kind == RUNTIME:
        return sub.text
    return f"`{sub.text}`" if sub.kind == "`" else f"{sub.kind}{sub.text})"


def _what(sub: Substitution) -> str:
    if sub.kind != RUNTIME:
        return f"the output of {_shown(sub)}"
    made = "; ".join(_shown(origin) for origin in sub.origins)
    return f"{sub.text}, a value made at run time" + (f" (by {made})" if made else "")


def _leading(command: SimpleCommand, word: str) -> Substitution | None:
    """The hidden value the program named by ``word`` starts with (``$x``, ``/usr/bin/$x``,
    ``$(cat f)``); not ``echo_$x`` or ``$dir/run.sh``, whose program is known but for a part."""
    leaf = word.rpartition("/")[2]
    subs = command.substitutions_in(leaf)
    if subs and command.render(leaf).startswith(_shown(subs[0])) and _hidden(subs[0]):
        return subs[0]
    return None


def _inside(command: SimpleCommand, word: str, *, file: bool = False) -> Substitution | None:
    """A hidden value anywhere in ``word`` (code handed to ``eval``, ``sh -c``, ``source``).

    ``file``: the word names a file to run (``source``'s, a shell's script), not code; a value
    followed by ``/`` is a directory the file is looked up in (``. "$(brew --prefix asdf)/asdf.sh"``,
    ``source "$(dirname "$0")/lib.sh"``), as ``. "$HOME/.asdf/asdf.sh"`` is: not code it runs.
    """
    subs = command.substitutions_in(word)
    # A path has a substitution or two; past a few, no exemption (each look-up scans the word).
    rendered = command.render(word) if file and len(subs) <= _PATH_PARTS else ""
    found = (sub for sub in subs if _hidden(sub) and not (rendered and _shown(sub) + "/" in rendered))
    return next(found, None)


_PATH_PARTS = 4
"""The most substitutions a sourced file's path may have and still be read as directories."""


def _encoded_powershell(invocation: Invocation, home: str) -> Verdict | None:
    """``pwsh -enc BASE64`` (any prefix of ``-EncodedCommand``, or ``-ec``): a script in base64 of UTF-16,
    the spelling malware and ClickFix lures use so that nobody reads it. Blocked whatever it says; the
    script, decoded, is judged too, so that the reason names what it does (``Remove-Item -Recurse ~``)."""
    values = _values(invocation)
    for value, encoded in itertools.pairwise(values):
        flag = value.lower().lstrip("-/")
        if value.startswith(("-", "/")) and flag and ("encodedcommand".startswith(flag) or flag == "ec"):
            script = _utf16_base64(encoded)
            if script is None:
                return _verdict(OBFUSCATED, invocation, "runs a base64-encoded PowerShell script, unread")
            from ..danger import check_command  # here: danger imports the tactics
            from ..policy import current_policy

            found = check_command("pwsh -NoProfile -Command " + shlex.quote(script), home=home)
            if found is not None and current_policy().decision(found.category) == "block":
                why = f"{found.why}, in a script hidden in base64 (-EncodedCommand): {piece(script)}"
                return _verdict(found.category, invocation, why)
            why = f"runs a script hidden in base64 (-EncodedCommand): {piece(script)}"
            return _verdict(OBFUSCATED, invocation, why)
    return None


def _utf16_base64(text: str) -> str | None:
    """``text`` decoded as PowerShell's -EncodedCommand (base64 of UTF-16LE), or None if it is not one."""
    import base64  # here, not at import: it loads struct, a cost to every hook process
    import binascii

    if not re.fullmatch(r"[A-Za-z0-9+/]{4,65536}={0,2}", text):
        return None
    try:
        script = base64.b64decode(text, validate=True).decode("utf-16-le")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return script if all(c.isprintable() or c in "\r\n\t" for c in script) else None


_DATA_FILTERS = {"split": frozenset({"--filter"}), "tar": frozenset({"--to-command"}),
                 "gtar": frozenset({"--to-command"})}  # fmt: skip
"""Programs that hand pieces of their input to a command on its standard input: what the command does
with the data is its business, unless it is a shell or an interpreter that runs it as code."""


def _data_as_code(invocation: Invocation) -> Verdict | None:
    """``split -l 1 --filter=sh cmds.txt``, ``tar xf a.tar --to-command=bash``: a file's lines (an archive's
    members) run as code by a program whose job is to cut data, a disguise for ``sh cmds.txt``."""
    import shlex

    from ..interpreters import INTERPRETERS
    from ..options import option_values

    for value in option_values(_values(invocation), _DATA_FILTERS.get(invocation.name, frozenset())):
        try:
            words = shlex.split(value)
        except ValueError:
            continue
        program = posixpath.basename(words[0]) if words else ""
        rest = [w for w in words[1:] if w.startswith("-")]
        runs_input = (program in SHELLS and len(rest) == len(words) - 1 and "-c" not in rest) or (
            INTERPRETERS.match(program) is not None and "awk" not in program and words[1:] in ([], ["-"])
        )
        if runs_input:
            why = f"{invocation.name} hands the data it reads to {value} on its input: the data runs as code"
            return _verdict(UNJUDGED_SCRIPT, invocation, why)
    return None


_ATTRIBUTE_WRITERS = {"xattr": "-w", "setfattr": "-v"}
_BASE64_VALUE = lazy_compile(r"^(?:0s)?[A-Za-z0-9+/]{16,}={0,2}$")
_HEX_VALUE = lazy_compile(r"^(?:0x)?[0-9A-Fa-f]{80,}$")
"""An attribute's value that is base64 (setfattr's ``0s``) or hex (``0x``, ``xattr -x``) long enough to hold a
script: longer than a hash or ``com.apple.FinderInfo``'s 32 bytes, and base64 mixing cases and digits."""
_ENCODING_RUN = lazy_compile(r"\$\(\s*(?:base64|xxd|openssl\s+(?:base64|enc)|gzip|cat|<)")


def _encoded(value: str) -> bool:
    if _HEX_VALUE.match(value):
        return True
    if not _BASE64_VALUE.match(value):
        return False
    mixed = (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
    )
    return mixed or value.endswith("=")


def _hidden_in_attribute(invocation: Invocation) -> Verdict | None:
    """``xattr -w user.x "IyEvYmluL3No..." f``, ``setfattr -n user.p -v "$(base64 -w0 shell.sh)" notes.txt``:
    a payload stored encoded in a file's extended attribute, where no reader of the file sees it (macOS
    malware keeps its script there, read back by ``xattr -p … | base64 -d | sh``). A short plain value
    (``com.apple.quarantine``'s, a comment) stays ordinary."""
    command = invocation.command
    words = [command.render(word) for word in invocation.args]
    option = _ATTRIBUTE_WRITERS[invocation.name]
    if option not in words:
        return None
    rest = [w for w in words[words.index(option) + 1 :] if not w.startswith("-")]
    at = 0 if invocation.name == "setfattr" else 1  # setfattr -v VALUE; xattr -w [-x] NAME VALUE
    if len(rest) <= at:
        return None
    raw = rest[at]
    value = raw.strip("\"'")
    if not (_encoded(value) or _ENCODING_RUN.search(raw)):
        return None
    why = (
        f"{invocation.name} stores an encoded payload in a file's extended attribute, hidden from its readers"
    )
    return _verdict(UNJUDGED_SCRIPT, invocation, why)


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """Code run in this command that no judge can see, or None."""
    name = invocation.name
    if name in _ATTRIBUTE_WRITERS:
        hidden_payload = _hidden_in_attribute(invocation)
        if hidden_payload is not None:
            return hidden_payload
    if name in _DATA_FILTERS:
        data_run = _data_as_code(invocation)
        if data_run is not None:
            return data_run
    if name.lower() in POWERSHELLS:
        encoded = _encoded_powershell(invocation, home)
        if encoded is not None:
            return encoded
    computed = _computed_code(invocation)
    if computed is not None:  # bash <<< $((8#143)), ${0##-}<<<$'\$((2#1001…))': numbers made into code
        why = f"runs text made by arithmetic ({computed[:60]}) as code: what runs is hidden from a reader"
        return _verdict(UNJUDGED_SCRIPT, invocation, why)
    if name == "sed" and sed_runs_input(_values(invocation)):
        return _verdict(UNJUDGED_SCRIPT, invocation, "runs the lines it reads as commands (sed's e), unseen")
    if name in SHELLS and _input_as_code(invocation):
        why = f"runs what {invocation.wrappers[-1]} reads as shell code (sh -c), which the guard cannot see"
        return _verdict(UNJUDGED_SCRIPT, invocation, why)
    command = invocation.command
    at = len(command.words) - len(invocation.args) - 1
    head = command.static(command.words[at]) if 0 <= at < len(command.words) else None
    hidden = hidden_name(invocation.name, head or "")
    if hidden is not None:  # /???/r? -rf ~, ${x:0:2} -rf ~, c${u}a${u}t F: no reader can tell what runs
        return _verdict(UNJUDGED_SCRIPT, invocation, f"{hidden}: what runs is hidden from a reader")
    # The program word, and words before it that the parser took for a wrapper ($c ls).
    heads = [
        w
        for i, w in enumerate(command.words[: at + 1])
        if i == at or command.static(w) in invocation.wrappers
    ]
    for word in heads if invocation.dynamic or invocation.wrappers else ():
        found = _leading(command, word)
        if found is not None:
            downloader = _downloaded(found)
            if downloader is not None:  # c=$(curl URL); $c: as $(curl URL) is
                return _verdict(
                    REMOTE_CODE, invocation, f"runs {found.text}, downloaded by {downloader}, as a command"
                )
            why = f"runs {_what(found)} as a command, which the guard cannot see"
            return _verdict(UNJUDGED_SCRIPT, invocation, why)
    for word, file in _code_words(invocation):
        found = _inside(command, word, file=file)
        if found is not None:
            downloader = _downloaded(found)
            if downloader is not None:  # c=$(curl URL); eval "$c": as eval "$(curl URL)" is
                return _verdict(
                    REMOTE_CODE, invocation, f"runs {found.text}, downloaded by {downloader}, in {name}"
                )
            why = f"runs {_what(found)} as code in {name}, which the guard cannot see"
            return _verdict(UNJUDGED_SCRIPT, invocation, why)
    if name == "enable":
        values = _values(invocation)
        if any(v.startswith("-") and "f" in v and not v.startswith("--") for v in values):
            why = "loads a compiled library into the shell (enable -f)"
            return _verdict(UNJUDGED_SCRIPT, invocation, why)
    return None


_FEEDERS = frozenset({"xargs", "parallel"})
_ARITHMETIC_CODE = lazy_compile(r"^[\s{'\"$\\]*\$(?:\(\(|\[)|\\\$(?:\(\(|\[)")
"""Code that is an arithmetic expansion (``$((8#143))``: a number as the command) or spells escapes
with one (``$'\\$((2#1001))'``: the digits of an octal escape), which only running it reveals."""


def _computed_code(invocation: Invocation) -> str | None:
    """The text a shell (``eval``, ``source /dev/stdin``) runs, when arithmetic makes it (RodricBr's
    ``${0##-}<<<$'\\$((…))'``, ``bash <<< $((8#…))``): None when the code reads as text."""
    name = invocation.name
    command = invocation.command
    texts: list[str] = []
    if name in SHELLS or name in ("source", "."):
        texts.extend(command.render(r.target) for r in command.redirects if r.op == "<<<")
    if name in SHELLS:
        script = shell_mode(invocation).script
        texts.extend([script] if script is not None else [])
    elif name == "eval":
        texts.append(" ".join(command.render(w) for w in invocation.args))
    return next((t for t in texts if _ARITHMETIC_CODE.search(t)), None)


def _input_as_code(invocation: Invocation) -> bool:
    """``xargs -a cmds.txt sh -c``, ``xargs -I{} sh -c '{}'``: a shell given the words xargs reads as its
    code (its ``-c`` with no string, or a string that is only the replacement, ``{}``)."""
    if not invocation.wrappers or invocation.wrappers[-1] not in _FEEDERS:
        return False
    args = [invocation.command.static(a) for a in invocation.args]
    options = [a for a in args if a is not None and a.startswith("-") and not a.startswith("--")]
    if not any("c" in option for option in options):
        return False
    mode = shell_mode(invocation)
    code = (mode.script or "").strip().strip("'\"")
    replace = invocation.options_of(invocation.wrappers[-1]) or ()
    marks = {"{}", *(v[2:] for v in replace if v.startswith("-I") and len(v) > 2)}
    marks |= {replace[i + 1] for i, v in enumerate(replace[:-1]) if v == "-I"}
    return not code or code in marks


def _downloaded(sub: Substitution) -> str | None:
    """The downloader (``curl``) whose output a value made at run time holds (``c=$(curl URL)``)."""
    from ..danger import _downloads

    if sub.kind != RUNTIME:
        return None
    for origin in sub.origins:
        found = _downloads(origin.script)
        if found is not None:
            return found.name
    return None


def _code_words(invocation: Invocation) -> list[tuple[str, bool]]:
    """The words whose value runs as shell code: ``eval``'s, ``trap``'s first, the file
    ``source`` reads (``source <(X)``), a shell's ``-c`` string or script file (``bash <(X)``);
    each with whether it names a file (``source``'s, a shell's script) rather than being code."""
    name = invocation.name
    args = list(invocation.args)
    if name == "eval":
        return [(w, False) for w in args]
    if name == "trap":
        return [(w, False) for w in args[:1]]
    if name in ("source", "."):
        return [(w, True) for w in args[:1]]
    if name in SHELLS:
        mode = shell_mode(invocation)
        if mode.script is not None:
            command = invocation.command
            return [(next((w for w in args if command.render(w) == mode.script), mode.script), False)]
        return [(mode.file, True)] if mode.file is not None else []
    return []


def judge_script(script: Script, home: str) -> Verdict | None:
    """A program's output piped into a shell (``./gen.sh | bash``) or written to a file the line then
    runs (``./gen.sh > out.sh; bash out.sh``), and ``history -r FILE; fc -s``."""
    return (
        _piped_output(script)
        or _output_run_later(script)
        or _run_through_variables(script)
        or _made_executable_and_run(script)
        or _history(script)
        or _quiet_redefined(script)
    )


_OUTPUT_OPTIONS = frozenset({"-O", "-o", "--output", "--output-document"})
_PIPED_OUT = frozenset(
    {"-O-", "-qO-", "-qO", "-sO-", "-q", "-s", "-L", "-sL", "-fsSL", "-fsL", "-sSL", "-fL"}
)
"""A downloader's options that send what it fetches to its output (``$WGET -qO- $U``, ``$C -fsSL $U``)."""


def _named_at_run_time(stage: Invocation) -> bool:
    return stage.name.startswith("$")


def _fetch_like(stage: Invocation, words: list[str]) -> bool:
    """A program named at run time given a value it fetches (``$DL $URL``, ``$DL http://h/x``)."""
    return _named_at_run_time(stage) and any(
        w.startswith(("$", "http://", "https://", "ftp://")) for w in words
    )


def _run_through_variables(script: Script) -> Verdict | None:
    """``$DL $URL -O $F; $SH $F``, ``$WGET -qO- $U | $SH``: a program named only at run time fetches a
    value into a file or a pipe that a shell (named at run time too, or not) then runs. Nothing in the
    line says what either program is, but the shape is a loader's; :func:`_output_run_later` and the
    pipeline rule see only programs they can name. Asked."""
    made: dict[str, Invocation] = {}
    for stages in walk(script):
        for index, stage in enumerate(stages):
            command = stage.command
            words = [command.render(w) for w in stage.args]
            runner = _named_at_run_time(stage) or stage.name in SHELLS
            if runner and made:
                first = next((w for w in words if not w.startswith("-")), None)
                producer = made.get(first) if first else None
                if producer is not None:
                    why = (
                        f"runs {first}, which {piece(producer.text)[:80]} fetched: programs named at run time"
                    )
                    return _verdict(UNJUDGED_SCRIPT, stage, why)
            if runner and index and not words and _fetch_like(stages[index - 1], _args_of(stages[index - 1])):
                before = stages[index - 1]
                if _named_at_run_time(stage) and _PIPED_OUT & set(_args_of(before)):
                    why = f"pipes what {piece(before.text)[:80]} fetches into {stage.name}: named at run time"
                    return Verdict(UNJUDGED_SCRIPT, piece(" | ".join(s.text for s in stages)), why)
            if not _fetch_like(stage, words):
                continue
            outputs = [words[i + 1] for i, w in enumerate(words[:-1]) if w in _OUTPUT_OPTIONS]
            outputs += [command.render(r.target) for r in command.redirects if r.op in WRITE_OPERATORS]
            for output in outputs:
                if not output.startswith("/dev/"):
                    made[output] = stage
                    if _DOWNLOADER_VARIABLE.match(stage.name) and output.startswith(("$", "/")):
                        why = f"{stage.name} fetches a value into {output}: a payload, by an unnamed program"
                        return _verdict(UNJUDGED_SCRIPT, stage, why)
    return None


_EXECUTABLE_MODES = lazy_compile(r"^(?:[ugoa]*\+[rwX]*x[rwX]*|[0-7]?[1357][0-7][0-7])$")
"""``+x``, ``u+x``, ``a+rx``, ``755``, ``0777``: modes that let the owner run a file."""


def _made_executable_and_run(script: Script) -> Verdict | None:
    """``chmod +x $F; $F``, ``chmod +x $BIN && nohup $BIN &``: a file the line names only by a variable
    it cannot resolve, made executable and run. The guard cannot read it (its name is not known), so
    what runs is unseen: a dropper's way to start what it fetched in another line. Asked."""
    made: set[str] = set()
    for stages in walk(script):
        for stage in stages:
            if stage.name == "chmod":
                words = [w for w in stage.args if not w.startswith("-")]
                if len(words) > 1 and _EXECUTABLE_MODES.match(words[0]):
                    made.update(w for w in words[1:] if w.startswith("$"))
            elif stage.name in made:
                why = f"runs {stage.name}, a file named only at run time and made executable by the line"
                return _verdict(UNJUDGED_SCRIPT, stage, why)
    return None


_DOWNLOADER_VARIABLE = lazy_compile(
    r"^\$\{?(?:[A-Z_]*(?:DOWNLOAD(?:ER)?|WGET|CURL|FETCH(?:ER)?)[A-Z_0-9]*|DL|_?DLD)\}?$"
)
"""``$DOWNLOADER``, ``${WGET_CMD}``, ``$CURL``, ``$DL``: a variable named for the downloader it holds
(``DOWNLOADER=$(command -v curl || command -v wget)``). Saving what it fetches into a file (``$DOWNLOADER
$URL > $F``, the payload a later line makes executable and runs) is asked even when no shell follows
on the line, when the file is named at run time too or by an absolute path; a project's own data file
(``$CURL -fsSL -o out.json URL``) is not."""


def _args_of(stage: Invocation) -> list[str]:
    return [stage.command.render(w) for w in stage.args]


def _quiet_redefined(script: Script) -> Verdict | None:
    """``kill() { cat f; }; $(kill -0 1)``: a function the line defines takes a quiet program's name,
    so the output run as a command that :func:`_prints_no_code` lets through is the function's."""
    names = {f.name for f in script.functions} & _QUIET
    if not names:
        return None
    for sub in script.substitutions:
        if sub.kind in _OUTPUTS and _prints_no_code(sub.script):
            called = {
                c.static(c.words[0]) or "" for stages in sub.script.pipelines for c in stages if c.words
            }
            if called & names:
                shadowed = ", ".join(sorted(called & names))
                why = f"runs the output of {_shown(sub)}, and the line defines its own {shadowed}"
                return Verdict(UNJUDGED_SCRIPT, _shown(sub), why)
    return None


_TEXT = frozenset({"echo", "printf", "cat"})
"""Stages whose output the line spells out (or a file the script-file rule reads): ``cat x.sh | sh``."""
_FILTERS = frozenset({"grep", "egrep", "fgrep", "sed", "gsed", "tr", "head", "tail", "sort", "uniq", "cut",
                      "tee", "base64", "rev", "xxd", "fold", "iconv", "dos2unix", "envsubst", "column",
                      "awk", "gawk", "mawk", "nawk", "cat", "col", "expand", "unexpand"})  # fmt: skip
"""Stages that only change what flows through them (when they read no file of their own)."""
_RUNNERS = SHELLS | {"source", ".", "eval", "python", "python3", "node", "perl", "ruby", "php"}
"""What runs its standard input as code: shells, the shell itself, the common interpreters (bare)."""
_PATTERNED = frozenset({"grep", "egrep", "fgrep", "sed", "gsed", "awk", "gawk", "mawk", "nawk"})
"""Filters whose first operand is their pattern or program, not a file."""


def _piped_output(script: Script) -> Verdict | None:
    """``./gen.sh | bash``, ``python tools/gen.py | sh``, ``make -s print | source /dev/stdin``: the
    output of a program piped into something that runs it as code. The project is not trusted, so
    what its script prints is as unknown as a download (which the pipeline rule blocks): a person
    is asked, as for ``bash <(./gen.sh)`` and ``eval "$(./gen.sh)"``. Not held: text the line
    spells out (``echo ls | sh``: judged as code), ``cat FILE`` (the file is read and judged), an
    installed tool that prints shell setup code (``starship init fish | source``)."""
    from ..danger import _runs_stdin

    for stages in walk(script):
        for index, stage in enumerate(stages[1:], start=1):
            if "xargs" in stage.wrappers or stage.name not in _RUNNERS or not _runs_stdin(stage):
                continue  # find . | xargs bash: the input becomes arguments (files), not code
            producer = next((s for s in stages[:index] if _produces_unseen(s)), None)
            if producer is not None:
                why = (
                    f"pipes the output of {piece(producer.text)[:80]} into {stage.name or 'a shell'}, "
                    "which runs it as code the guard cannot see"
                )
                return Verdict(UNJUDGED_SCRIPT, piece(" | ".join(s.text for s in stages)), why)
            break  # a later runner reads the output of code, judged where it is
    return None


def _output_run_later(script: Script) -> Verdict | None:
    """``./gen.sh > out.sh && bash out.sh``, ``python gen.py | tee run.sh; . ./run.sh``: a program's
    output written to a file that the same line runs as code (a written Makefile or manifest is
    :mod:`..project_sources`' to follow; text the line spells out is judged where it runs)."""
    made: dict[str, Invocation] = {}
    for stages in walk(script):
        for index, stage in enumerate(stages):
            if made:
                ran = _script_run(stage)
                producer = made.get(posixpath.normpath(ran)) if ran else None
                if producer is not None:
                    why = (
                        f"runs {ran}, which {piece(producer.text)[:80]} wrote earlier in the command: "
                        "code the guard cannot see"
                    )
                    return _verdict(UNJUDGED_SCRIPT, stage, why)
            source = next((s for s in stages[: index + 1] if _produces_unseen(s)), None)
            if source is None:
                continue
            command = stage.command
            targets = [command.static(r.target) for r in command.redirects if r.op in WRITE_OPERATORS]
            if stage.name == "tee" and source is not stage:
                targets += [v for v in _values(stage) if not v.startswith("-")]
            for target in targets:
                if target and not target.startswith("/dev/"):
                    made[posixpath.normpath(target)] = source
    return None


def _script_run(stage: Invocation) -> str | None:
    """The file ``stage`` runs as code: ``bash F``, ``source F``, ``./F``, ``python3 F``."""
    command = stage.command
    if stage.name in SHELLS:
        file = shell_mode(stage).file
        return command.static(file) if file is not None else None
    values = _values(stage)
    if stage.name in ("source", "."):
        return values[0] if values else None
    if stage.name in _RUNNERS:  # python3 gen.py: its first operand
        return next((v for v in values if not v.startswith("-")), None) if values[:1] != ["-c"] else None
    at = len(command.words) - len(stage.args) - 1
    head = command.static(command.words[at]) if 0 <= at < len(command.words) else None
    return head if head and "/" in head else None


def _produces_unseen(stage: Invocation) -> bool:
    """Whether what ``stage`` writes to the pipe is made by a program the guard cannot see into."""
    command = stage.command
    if any(_inside(command, word) is not None for word in command.words):
        return True  # echo "$(./gen.sh)" | sh
    if stage.name in _TEXT:
        return False
    if stage.name in _FILTERS:  # grep -v '^#' setup.sh | sh: a file the guard does not judge so
        if stage.name in ("tr", "tee"):
            return False
        operands = [v for v in _values(stage) if not v.startswith("-") and not v.isdigit()]
        return len(operands) > (1 if stage.name in _PATTERNED else 0)
    if stage.dynamic or not stage.name:
        return False  # a program named at run time: the pipeline rule's
    return not prints_setup_code(Script(((command,),), ()))


def _history(script: Script) -> Verdict | None:
    """``history -r FILE; fc -s``: a history loaded from a file, then run again by ``fc``.

    A shell that is not interactive keeps no history, so ``fc`` alone runs nothing; what
    ``history -s CMD`` adds is judged where it is added (:mod:`..programs`), and what
    ``history -r``/``-n`` loads from a file is not seen: running it is held.
    """
    loaded: Invocation | None = None
    for stages in walk(script):
        for invocation in stages:
            values = _values(invocation)
            if invocation.name == "history" and any(_option(v, "rn") for v in values):
                loaded = loaded or invocation
            elif invocation.name == "fc" and loaded is not None and not any(_option(v, "l") for v in values):
                why = f"runs again what {loaded.text!r} loaded into the history, unseen by the guard"
                return _verdict(UNJUDGED_SCRIPT, invocation, why)
    return None


def _option(value: str, letters: str) -> bool:
    return value.startswith("-") and not value.startswith("--") and any(c in value[1:] for c in letters)
