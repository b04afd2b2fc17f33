r"""What a search's every file is put through, when the search covers the user's data or the system.

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
``find /var/log -type f -exec sh -c 'for f do > "$f"; done' sh {} +``, ``ls /var/log/*.log | xargs -I{} sh -c
"> {}"``: a shell handed each file a search lists and told to empty it (the logs: evidence destruction;
the user's, a server's or a mount's data: data destruction).
``PAGES=$(find /var/www -name '*.html'); for p in $PAGES; do echo hacked > $p; done``, ``find /var/www
-name 'index.*' -exec cp deface.html {} \;``: every page a search of a web root lists written over with
one content (a defacement: data destruction); editing them (``sed -i``) or copying them away stays allowed.
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..findings import copies_into_found, exec_runs, piece
from ..findings import static_args as _values
from ..parse import WRITE_OPERATORS, Script, Substitution
from ..paths import normalize_path
from ..programs import SHELLS, Invocation, walk
from ..verdict import DATA_DESTRUCTION, EVIDENCE, SYSTEM_FILES, Verdict
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


_WEB_ROOTS = (
    "/var/www",
    "/usr/share/nginx",
    "/srv/www",
    "/srv/http",
    "/usr/local/apache2/htdocs",
    "/usr/share/httpd",
    "/var/lib/nginx/html",
    "/opt/lampp/htdocs",
    "/Library/WebServer",
)
_EMPTIED_LOOP = lazy_compile(
    r"""\bfor\s+(\w+)\s*(?:;\s*|\s+in\s+(?:""|''|"?\$(?:[@*]|\{[@*]\})"?)\s*;?\s*|\s+)do\b"""
)
"""``for f do``, ``for f; do``, ``for f in "$@"; do`` (``"$@"`` read as ``""``: a command line has no
arguments): a loop over the files the shell was handed."""
_XARGS_REPLACE = lazy_compile(r"\bxargs\b[^|]*?\s(?:-I\s*(\S+)|--replace(?:=(\S+))?|-i(?=\s))")


def _found_damage(search: Invocation, home: str) -> tuple[str, str, str] | None:
    """The category, the place and what it holds, when a search covers logs, the system, a web root or
    the user's, a server's or a mount's data (the files a program is then handed are those)."""
    system = _system_start(search, home)
    if system and (system == "/var/log" or system.startswith("/var/log/")):
        return EVIDENCE, system, "the logs"
    web = next(
        (
            path
            for word in _start_words(search)
            for path in [normalize_path(word, home=home, cwd=search.cwd).rstrip("/")]
            if any(path == r or path.startswith(r + "/") for r in _WEB_ROOTS)
        ),
        None,
    )
    if web:
        return DATA_DESTRUCTION, web, "a web root's pages (a defacement)"
    data = _searched_start(search, home) or _under_data_root(search, home)
    if data:
        return DATA_DESTRUCTION, data, "the user's or a server's data"
    if system:
        return SYSTEM_FILES, system, "the system's files"
    return None


def _empties_handed(code: str, handed: list[str]) -> bool:
    """Whether shell ``code`` writes over (``>``, ``: >``, ``truncate -s 0``) a file it is handed: ``$1``,
    a placeholder (``{}``), or the variable of a loop over its arguments (``for f do``)."""
    names = [re.escape(h) for h in handed]
    names += [rf"\$\{{?{re.escape(v)}\}}?" for v in _EMPTIED_LOOP.findall(code)]
    names.append(r"\$\{?1\}?")
    target = rf"[\"']?(?:{'|'.join(names)})[\"']?(?=$|[\s;&|)])"
    return bool(
        re.search(rf"(?<![>&\d])\d?>\|?\s*{target}", code)
        or re.search(rf"\btruncate\s+(?:-s\s*0|--size[= ]0)\s+{target}", code)
    )


def _shell_code(run: list[str]) -> str | None:
    """The code of ``sh -c CODE …`` (the words a search or xargs runs)."""
    if run and run[0].rsplit("/", 1)[-1] in SHELLS and "-c" in run[1:-1]:
        return run[run.index("-c") + 1]
    return None


def _search_verdict(search: Invocation, home: str) -> Verdict | None:
    """``find "$1" -type f -exec "$0" enc {} \\;``: one search whose files the script hands to itself;
    ``find /var/log -exec sh -c '> "$1"' _ {} \\;``: a shell told to empty each file it finds;
    ``find /var/www -name '*.html' -exec cp deface.html {} \\;``: one file copied over every page."""
    runs = exec_runs(_values(search))
    if any(run and _SELF.search(" ".join(run[:2])) for run in runs) and (
        _searched_start(search, home) or _every_file_somewhere(search, home)
    ):
        why = "hands every file it finds to the running script itself (a crypto-locker's fan-out)"
        return Verdict(DATA_DESTRUCTION, piece(search.text), why)
    damage = _found_damage(search, home) if runs else None
    if damage is None:
        return None
    category, where, what = damage
    for run in runs:
        code = _shell_code(run)
        if code is not None and _empties_handed(code, ["{}"]):
            why = f"empties each file a search of {where} lists, {what}"
            return Verdict(category, piece(search.text), why)
        if run[:1] in (["cp"], ["install"]) and copies_into_found(run[1:]) and category != EVIDENCE:
            why = f"copies one file over each file a search of {where} lists, {what}"
            return Verdict(category, piece(search.text), why)
    return None


def _xargs_empties(search: Invocation, stage: Invocation, home: str) -> Verdict | None:
    """``ls /var/log/*.log | xargs -I{} sh -c "> {}"``: each file a search lists emptied by a shell."""
    code = _shell_code([stage.name, *_values(stage)]) if "xargs" in stage.wrappers else None
    if code is None:
        return None
    found = _XARGS_REPLACE.search(stage.text)
    handed = [found.group(1) or found.group(2) or "{}"] if found else []
    damage = _found_damage(search, home)
    if damage is None or not _empties_handed(code, handed):
        return None
    category, where, what = damage
    why = f"empties each file a search of {where} lists, {what}"
    return Verdict(category, piece(f"{search.text} | … {stage.text}"), why)


_OVERWRITERS = frozenset({"", "echo", "printf", "cat", ":", "true", "curl", "wget", "base64"})
"""What a redirect of theirs fills with one content (a literal, a file, a download)."""


def _searches_in(subs: list[Substitution]) -> list[Invocation]:
    """The searches whose output a word holds: ``$(find …)``, or a variable assigned it (``PAGES=$(find
    …)``, its run-time value remembering the substitutions that made it)."""
    found: list[Invocation] = []
    for sub in subs:
        for made in (sub, *sub.origins):
            found.extend(stages[0] for stages in walk(made.script) if stages and stages[0].name in _SEARCHES)
    return found


def _each_written_over(stage: Invocation, home: str) -> Verdict | None:
    """``for p in $(find /var/www -name '*.html'); do echo hacked > "$p"; done``, ``… cp deface.html
    "$p"``: the word a search's files stand for written over with one content (not the file itself
    filtered, ``sed … "$p" > "$p.new"``)."""
    command = stage.command
    targets = []
    if stage.name in _OVERWRITERS:
        targets = [
            r.target for r in command.redirects if r.op in WRITE_OPERATORS and r.op not in (">>", "&>>")
        ]
    elif stage.name in ("cp", "install") and len([a for a in stage.args if not a.startswith("-")]) >= 2:
        targets = [stage.args[-1]]
    for raw in targets:
        rendered = command.render(raw)
        if any(command.render(a) == rendered for a in stage.args if a is not raw):
            continue
        for search in _searches_in(command.substitutions_in(raw)):
            damage = _found_damage(search, home)
            if damage and damage[0] == DATA_DESTRUCTION:
                why = f"writes one content over each file a search of {damage[1]} lists, {damage[2]}"
                return Verdict(DATA_DESTRUCTION, piece(f"{search.text} … {stage.text}"), why)
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
        emptied = _xargs_empties(search, stage, home)
        if emptied is not None:
            return emptied
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
        for stage in stages:
            written = _each_written_over(stage, home)
            if written is not None:
                return written
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
