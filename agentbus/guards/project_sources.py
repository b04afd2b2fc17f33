"""Where the text of a project file a command runs comes from, when the command line itself makes it.

:mod:`.project_commands` says which file ``make``, ``npm test``, ``kubectl apply -f``
or ``docker compose up`` reads; :mod:`.script_files` reads it from disk and judges it.
But the line may make that file first, and then what runs is what the line made:

- written: ``printf 'all:\\n\\t…' > Makefile && make``, ``cat > compose.yaml <<EOF``,
  ``>>`` appended after what the line wrote (or after the file on disk), ``tee`` fed
  ``echo``: the text is judged;
- copied: ``cp hostile.mk Makefile``, ``cat x.mk > Makefile``, ``mv``, ``install``,
  ``ln``: the source is judged, from disk;
- fed on standard input (``kubectl apply -f -``, ``make -f -``, ``compose -f -``): a
  here-document or ``printf`` (the text), ``cat FILE`` and ``envsubst < FILE`` (the file),
  ``kustomize build DIR`` (as ``-k DIR``), ``helm template CHART`` (as the chart);
  ``kubectl create … -o yaml`` is kubectl's own objects;
- told by the environment the line exports (``export COMPOSE_FILE=evil.yml; docker compose
  up``): :class:`Exports` follows it;
- made in a way the guard cannot follow (a download, ``sed -i``, another program's
  output, a variable): :data:`~.project_commands.UNSEEN`, which a person is asked about.

Each is a :class:`~.project_commands.FileRun` whose ``how`` says which; the file on disk
is judged as well (an over-approximation: make reads ``GNUmakefile`` before a written
``Makefile``).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from ..lazy_regex import lazy_compile
from .exports import Exports
from .findings import piece
from .parse import WRITE_OPERATORS
from .programs import Invocation, written_text
from .project_commands import APPENDED, STDIN, UNSEEN, WRITTEN, FileRun, planned, unseen

__all__ = ["Exports", "as_run", "note_writes", "place"]


def place(cwd: str | None, word: str) -> str:
    """Where ``word`` is, seen from ``cwd``, as a key (relative when the directory is unknown)."""
    return posixpath.normpath(posixpath.join(cwd or "", word))


def as_run(
    run: FileRun, stages: list[Invocation], index: int, written: dict[str, FileRun]
) -> Iterator[FileRun]:
    """``run`` as the command leaves the file when it runs: fed on standard input, or written (or
    copied) earlier in the line under one of the names it is read by (``written``, from
    :func:`note_writes`); and the file on disk."""
    if run.how:
        yield run
        return
    if run.word == STDIN:
        yield from _from_stdin(run, stages, index)
        return
    for name in (run.word, *run.fallbacks):
        found = written.get(place(run.cwd, name))
        if found is not None:
            yield run.replace(word=found.word, cwd=found.cwd, fallbacks=(), how=found.how, text=found.text)
    yield run


def note_writes(stages: list[Invocation], index: int, written: dict[str, FileRun]) -> None:
    """Record in ``written`` what the command ``stages[index]`` leaves in the files it writes."""
    for where, record in _writes(stages, index).items():
        written[where] = _after(written.get(where), record)


def _after(before: FileRun | None, record: FileRun) -> FileRun:
    """What a file holds after ``record``'s write, given what the line wrote in it ``before``."""
    if record.how != APPENDED or before is None:
        return record
    if before.how in (WRITTEN, APPENDED):
        return before.replace(text=before.text + record.text)  # printf 'x:\n' > M; printf '\tcmd\n' >> M
    if before.how == UNSEEN:
        return before
    return unseen(record.word, "", record.cwd, "text is appended to a copy of another file")


# -- standard input ------------------------------------------------------------------------------

_MANIFEST_MAKERS = frozenset({"kubectl", "oc"})
"""Programs whose YAML output is their own objects (``kubectl create secret … -o yaml``)."""
_TEXT_WRITERS = ("echo", "printf", "cat")
_VALUE_WORD = lazy_compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$[@*0-9]|\ue020\d+\ue021")
"""A word that is one variable (``$MANIFEST``) or one substitution (``$(cat x)``) and nothing else."""
_VALUE_ONLY = "it is fed a value known only when it runs"


def _stdin_text(invocation: Invocation) -> str | None:
    """What a here-document or a here-string feeds ``invocation`` (None: not known before it runs)."""
    command = invocation.command
    for redirect in command.redirects:
        if redirect.op == "<<":
            return "".join(sub.text for sub in command.substitutions_in(redirect.target))
        if redirect.op == "<<<":
            text = command.static(redirect.target)
            return text if text is not None and "$" not in text else None
    return None


def _from_stdin(run: FileRun, stages: list[Invocation], index: int) -> Iterator[FileRun]:
    """``kubectl apply -f -``, ``make -f -``, ``docker compose -f - up``: what feeds standard input."""
    invocation = stages[index]
    command = invocation.command
    if any(redirect.op in ("<<", "<<<") for redirect in command.redirects):
        text = _stdin_text(invocation)
        if text is None:
            yield unseen(STDIN, run.language, run.cwd, _VALUE_ONLY, run.entries)
        else:
            yield run.replace(word="<here-document>", how=WRITTEN, text=text)
        return
    for redirect in command.redirects:
        target = command.static(redirect.target) if redirect.op == "<" else None
        if target:
            yield run.replace(word=target)
            return
    if index == 0:
        return  # nothing feeds it: an agent's command reads no terminal
    producer = stages[index - 1]
    values = [v for v in (producer.command.static(a) for a in producer.args) if v is not None]
    text = written_text(producer) if producer.name in _TEXT_WRITERS else None
    if text is not None and any(_VALUE_WORD.fullmatch(arg) for arg in producer.args):
        yield unseen(STDIN, run.language, run.cwd, _VALUE_ONLY, run.entries)  # echo "$MANIFEST" |
    elif text is not None:
        yield run.replace(word="<standard input>", how=WRITTEN, text=text)
    elif producer.name in ("cat", "envsubst"):
        files = [v for v in values if not v.startswith("-")] or [
            producer.command.static(r.target) or "" for r in producer.command.redirects if r.op == "<"
        ]
        yield from (run.replace(word=file) for file in files if file)
    elif producer.name == "kustomize" or (producer.name in _MANIFEST_MAKERS and "kustomize" in values):
        named = [v for v in values if not v.startswith("-") and v not in ("build", "kustomize")]
        yield run.replace(word=(named or ["."])[0], entries=("kustomize",), language="kube")
    elif producer.name == "helm" and "template" in values:
        yield from (made for made in planned(producer) if made.language == "helm")
    elif producer.name not in _MANIFEST_MAKERS:  # kubectl create … -o yaml: kubectl's own objects
        why = f"it is fed the output of {producer.name or 'a program'}, which cannot be judged before it runs"
        yield unseen(STDIN, run.language, run.cwd, why, run.entries)


# -- files written -----------------------------------------------------------------------------------

_COPIERS = frozenset({"cp", "mv", "install", "ln", "gcp", "gmv"})
_EDITORS = frozenset({"sed", "gsed", "perl"})
_FETCHERS = frozenset({"curl", "wget", "rsync", "dd", "scp"})
"""Their operands include the files they write, with what nobody can see before they run.
(An archive's operands are the archive and the files packed: what it unpacks is not known.)"""


def _writes(stages: list[Invocation], index: int) -> dict[str, FileRun]:
    """The files a command writes, each with what will be in it: the text (``echo``, ``printf``,
    ``cat <<EOF``, ``tee`` fed one of those), a copy of another file, or unknown (a download, an
    edit in place, another program's output)."""
    invocation = stages[index]
    command = invocation.command
    cwd = invocation.cwd
    found: dict[str, FileRun] = {}
    how_written = f"it is written by {piece(invocation.text)[:80]} earlier in the command"
    text = written_text(invocation) if invocation.name in _TEXT_WRITERS else None
    values = [v for v in (command.static(a) for a in invocation.args) if v is not None]
    operands = [v for v in values if not v.startswith("-")]
    for redirect in command.redirects:
        target = command.static(redirect.target) if redirect.op in WRITE_OPERATORS else None
        if not target:
            continue
        how = APPENDED if redirect.op in (">>", "&>>") else WRITTEN
        if text is not None:
            found[place(cwd, target)] = FileRun(target, "", cwd, how=how, text=text)
        elif invocation.name == "cat" and len(operands) == 1 and how == WRITTEN:
            found[place(cwd, target)] = FileRun(operands[0], "", cwd)  # cat other.mk > Makefile: a copy
        else:
            found[place(cwd, target)] = unseen(target, "", cwd, how_written)
    if invocation.name == "tee":
        before = stages[index - 1] if index else None
        fed = written_text(before) if before is not None and before.name in _TEXT_WRITERS else None
        how = APPENDED if {"-a", "--append"} & set(values) else WRITTEN
        for target in operands:
            made = FileRun(target, "", cwd, how=how, text=fed or "")
            found[place(cwd, target)] = made if fed is not None else unseen(target, "", cwd, how_written)
    elif invocation.name in _COPIERS and len(operands) >= 2 and "-t" not in values:
        *sources, destination = operands
        for source in sources:
            target = destination
            if destination.endswith("/") or destination in (".", "..") or len(sources) > 1:
                target = posixpath.join(destination, posixpath.basename(source.rstrip("/")))
            found[place(cwd, target)] = FileRun(source, "", cwd)
    elif invocation.name in _FETCHERS or _edits_in_place(invocation, values):
        for target in operands:
            found[place(cwd, target)] = unseen(target, "", cwd, how_written)
    return found


def _edits_in_place(invocation: Invocation, values: list[str]) -> bool:
    """``sed -i``, ``perl -pi -e``: a file changed where it is."""
    return invocation.name in _EDITORS and any(
        v.startswith("--in-place") or (v[:1] == "-" and v[1:2] != "-" and "i" in v[1:]) for v in values
    )
