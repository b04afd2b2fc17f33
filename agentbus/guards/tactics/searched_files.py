"""What a search's every file is put through, when the search covers the user's data or the system.

``find /srv -type f | while read f; do openssl enc … -in "$f" -out "$f.enc"; mv "$f.enc" "$f"; done``,
``find ~ -type f -print0 | xargs -0 -P4 ccrypt -e -K K``: every file of the user's encrypted in place,
ransomware's loop (data destruction), as the ``for f in $(find …)`` spelling already is in
:mod:`.impact`. ``find "$root" -type f | xargs -P4 "$0" enc``: a script handing every file to itself,
many at once (the crypto-locker's fan-out; data destruction unless the search is the project's).
``find /srv -type f | xargs -P8 -I{} ./locker {}``: a program of one's own run on every file of the
home, the whole disk, a server's or a mount's data, many at once (a home folder's, ``~/Pictures``, is
asked as :mod:`.impact` asks it: a developer's batch job is plausible there).
``find ~ -type f | while read f; do shred -u "$f"; done``, ``… | parallel rm {}``, ``while read f; do rm
"$f"; done < <(find ~/Documents -type f)``: every file of the user's data deleted one by one (data
destruction); files picked by name (``find ~ -name '*.pyc'``) are a clean-up.
``find /etc -type f | while read f; do touch -d … "$f"; done``, ``find /var/www | xargs touch -d '2 years
ago'``: the system's files or logs, or a server's tree, back-dated one by one (evidence destruction).
The project's own files (``find . | while read f; do touch -r setup.py "$f"; done``) stay allowed.
"""

from __future__ import annotations

from ...lazy_regex import lazy_compile
from ..findings import exec_runs, piece
from ..findings import static_args as _values
from ..parse import Script
from ..paths import normalize_path
from ..programs import SHELLS, Invocation, walk
from ..verdict import DATA_DESTRUCTION, EVIDENCE, Verdict
from .impact import _a_script, _run_encrypts, _script_of, _searched_start

__all__ = ["judge_script"]

_SEARCHES = frozenset({"find", "fd", "fdfind", "locate", "ls"})
_SELF = lazy_compile(r"""(?:^|\s)["']?\$(?:0|\{0\})["']?(?=\s|$)""")
"""``$0``, ``"$0"``, ``${0}``: the running script itself, as the program a stage runs."""
_PARALLEL = lazy_compile(r"\bxargs\b.*?\s(?:-\w*P\s*\d*|--max-procs)")
_SYSTEM_ROOTS = ("/etc", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/var/log", "/boot", "/opt", "/System")
_DESTROYS = frozenset({"rm", "shred", "gshred", "wipe", "srm", "truncate", "unlink"})
"""What leaves a file it is handed deleted or overwritten."""
_STAMP_OPTIONS = lazy_compile(r"^(?:-\w*[rdt]|--reference(?:=.*)?|--date(?:=.*)?)$")


def _start_words(search: Invocation) -> list[str]:
    words = []
    for value in _values(search):
        if value.startswith(("-", "(", "!", ")")):
            break
        words.append(value)
    return words


def _outside_project(search: Invocation, home: str) -> bool:
    """Whether the search starts somewhere other than the project (an absolute path out of the working
    directory, the home, or a variable the line does not set: ``$root``, ``"$1"``)."""
    for word in _start_words(search):
        if "$" in word or "\ue020" in word:
            return True
        path = normalize_path(word, home=home, cwd=search.cwd)
        root = (search.cwd or "").rstrip("/")
        if path.startswith("/") and not (root and (path == root or path.startswith(root + "/"))):
            return not path.startswith(("/tmp/", "/var/tmp/", "/dev/shm/")) and path not in (
                "/tmp",
                "/var/tmp",
            )
    return False


def _named(search: Invocation) -> bool:
    """The search picks files by name, path or age (``-name '*.pyc'``): a clean-up, not every file."""
    return bool({"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-newer"} & set(_values(search)))


def _every_file_somewhere(search: Invocation, home: str) -> bool:
    """Every file (no name picked: ``find "$root" -type f``) under a place outside the project; a script
    that fans itself out over ``find "$1" -name '*.png'`` is a batch job."""
    return not _named(search) and _outside_project(search, home)


_DATA_ROOTS = ("/srv/", "/var/www/", "/mnt/", "/media/", "/run/media/", "/Volumes/", "/home/", "/Users/")


def _under_data_root(search: Invocation, home: str) -> str | None:
    """``find /srv/share``, ``find /var/www/site``: a folder of a server's, a mount's or a user's data."""
    for word in _start_words(search):
        path = normalize_path(word, home=home, cwd=search.cwd).rstrip("/")
        root = (search.cwd or "").rstrip("/")
        inside = bool(root) and (path == root or path.startswith(root + "/"))
        if path.startswith(_DATA_ROOTS) and not inside:
            return path
    return None


def _system_start(search: Invocation, home: str) -> str | None:
    """``find /etc``, ``find /usr/bin``, ``find /var/log``: the system's files or logs."""
    for word in _start_words(search):
        path = normalize_path(word, home=home, cwd=search.cwd).rstrip("/") or "/"
        if path == "/" or any(path == r or path.startswith(r + "/") for r in _SYSTEM_ROOTS):
            return path
    return None


def _outside_home_start(search: Invocation, home: str) -> str | None:
    """``find /var/www``, ``find /srv/app``: a tree outside the home and the scratch directories (a file
    there back-dated alone is held too, :mod:`.impairment`)."""
    home = home.rstrip("/")
    for word in _start_words(search):
        if not word.startswith(("/", "~", "$HOME")):
            continue
        path = normalize_path(word, home=home, cwd=search.cwd).rstrip("/") or "/"
        if path.startswith("/") and not (
            path == home or path.startswith((home + "/", "/tmp/", "/var/tmp/", "/dev/shm/")) or path == "/tmp"
        ):
            return path
    return None


def _stamps(stage: Invocation) -> bool:
    """``touch -r REF``, ``touch -d DATE``, ``touch -a -t STAMP``: a date given, not now."""
    return stage.name == "touch" and any(_STAMP_OPTIONS.match(v) for v in _values(stage))


def _fans_out_itself(stage: Invocation) -> bool:
    """``xargs -P4 "$0" enc``, ``xargs bash "$0" lock``: the running script is the program."""
    text = stage.text
    after = text.split("xargs", 1)[1] if "xargs" in stage.wrappers and "xargs" in text else text
    return bool(_SELF.search(after)) and (stage.name in SHELLS or stage.name == "")


def _own_program(stage: Invocation) -> bool:
    """``xargs -P8 -I{} ./locker {}``, ``xargs -P8 python3 enc.py``: a script or a program by path, not
    the system's."""
    word = _script_of(stage) or next(
        (w for w in stage.text.split() if w.strip("'\"").rsplit("/", 1)[-1] == stage.name), stage.name
    )
    return _a_script(word)


def _search_verdict(search: Invocation, home: str) -> Verdict | None:
    """``find "$1" -type f -exec "$0" enc {} \\;``: one search whose files the script hands to itself."""
    runs = exec_runs(_values(search))
    if any(run and _SELF.search(" ".join(run[:2])) for run in runs) and (
        _searched_start(search, home) or _every_file_somewhere(search, home)
    ):
        why = "hands every file it finds to the running script itself (a crypto-locker's fan-out)"
        return Verdict(DATA_DESTRUCTION, piece(search.text), why)
    return None


def _handed(stage: Invocation) -> tuple[str, list[str]]:
    """The program a stage runs on each file, and its arguments: ``parallel rm {}``'s ``rm``, ``xargs sh -c
    'gpg -c "{}" && rm "{}"'``'s ``gpg`` (the first words of the code a shell is given), else the stage's."""
    values = _values(stage)
    if stage.name == "parallel":
        words = [v for v in values if not v.startswith("-")]
        return (words[0].rsplit("/", 1)[-1], values[values.index(words[0]) + 1 :]) if words else ("", [])
    if stage.name in SHELLS and "-c" in values[:-1]:
        code = values[values.index("-c") + 1].split("&&", 1)[0].split(";", 1)[0].split()
        return (code[0].rsplit("/", 1)[-1], code[1:]) if code else ("", [])
    return stage.name, values


def _pipeline_verdict(stages: list[Invocation], home: str, *, looped: bool = False) -> Verdict | None:
    """``looped``: the later stages are a ``while read`` loop's body, fed the search (``done < <(find
    ~)``)."""
    search = stages[0]
    whole = _searched_start(search, home)
    start = whole or _under_data_root(search, home)
    system = _system_start(search, home) or _outside_home_start(search, home)
    # looped: a ``while read`` loop the search feeds: each later stage gets its files one by one
    for stage in stages[1:]:
        if stage.name == "read":
            looped = True
        if not (looped or "xargs" in stage.wrappers or stage.name == "parallel"):
            continue
        text = piece(f"{search.text} | … {stage.text}")
        handed, handed_args = _handed(stage)
        if whole and handed in _DESTROYS and not _named(search):
            why = f"deletes or overwrites every file a search of {whole} lists, one by one ({handed})"
            return Verdict(DATA_DESTRUCTION, text, why)
        if start and _run_encrypts(handed, handed_args):
            why = f"encrypts every file a search of {start} lists, one by one ({handed})"
            return Verdict(DATA_DESTRUCTION, text, why)
        if _fans_out_itself(stage) and (start or _every_file_somewhere(search, home)):
            many = " many at once," if _PARALLEL.search(stage.text) else ""
            why = (
                f"hands every file the search lists to the running script itself,{many}"
                " as a crypto-locker fans out"
            )
            return Verdict(DATA_DESTRUCTION, text, why)
        if whole and not whole.startswith("~/") and _PARALLEL.search(stage.text) and _own_program(stage):
            why = (
                f"runs its own program on every file under {whole}, many at once, as a crypto-locker fans out"
            )
            return Verdict(DATA_DESTRUCTION, text, why)
        if system and _stamps(stage):
            why = f"back-dates each file a search of {system} lists, so what changed there looks untouched"
            return Verdict(EVIDENCE, text, why)
    return None


def _fed_search(stage: Invocation) -> Invocation | None:
    """The search a loop's body is fed through a process substitution (``while read f; do …; done <
    <(find ~ -type f)``: each command of the body carries the loop's redirect)."""
    command = stage.command
    for redirect in command.redirects:
        if redirect.op != "<":
            continue
        for sub in command.substitutions_in(redirect.target):
            if sub.kind != "<(":
                continue
            for inner in walk(sub.script):
                if inner and inner[0].name in _SEARCHES:
                    return inner[0]
    return None


def judge_script(script: Script, home: str) -> Verdict | None:
    """The first loop over a search's files that deletes or encrypts them, fans the script out over them
    or back-dates the system's."""
    for stages in walk(script):
        if stages and stages[0].name not in _SEARCHES:
            search = _fed_search(stages[0]) if len(stages) == 1 else None
            verdict = _pipeline_verdict([search, stages[0]], home, looped=True) if search else None
            if verdict is not None:
                return verdict
        if not stages or stages[0].name not in _SEARCHES:
            continue
        verdict = _search_verdict(stages[0], home) if stages[0].name == "find" else None
        verdict = verdict or (_pipeline_verdict(stages, home) if len(stages) > 1 else None)
        if verdict is not None:
            return verdict
    return None
