"""Program names hidden in a word: what bash makes of them, or why no reader can tell.

Injection payloads and obfuscators (PayloadsAllTheThings, Bashfuscator, commix's tamper scripts)
spell the program so that no filter finds its name. Some spellings bash settles the same way in
every shell an agent runs, so the guard reads them as bash does and judges what runs:

- the positional parameters are empty in a command line (no script, no arguments): ``$@``,
  ``$*`` and their operated forms (``"${@^}"``, ``${*//x/y}``, ``${!@}``) stand for nothing, so
  ``r$@m -rf ~`` is ``rm -rf ~`` and ``"${@/f}" $BASH <<< …`` is ``$BASH <<< …``
  (:func:`without_positional`, applied when a word holds such noise: a plain ``"$@"`` alone is
  left as it was, since in a script a line of which is judged it is the script's arguments);
- ``$0`` and what is made of it (``${0}``, ``${0##-}``, ``${0##*/}``), and ``${!#}`` (the last
  argument, ``$0`` when there is none), name the shell itself (:func:`names_the_shell`).

Others no reader can settle: a program named by a pattern (``/???/r?``, ``/bin/ca[t]``: what
it matches is on the disk, not in the line), and a name cut from a value the line never gives
(``${x:0:2}``, ``${x/a/b}``, ``${!x}``, ``c${u}a${u}t``, ``$a$b``): :func:`hidden_name` says why,
and :mod:`.tactics.unseen` asks a person. A prefix or a suffix from the environment leaves the
name readable (``${CROSS_COMPILE}gcc``, ``python$PY_VERSION``, ``$HOME/bin/x``, ``${CC:-cc}``), and a
variable between letters read as empty, as the payload means it (``c${u}a${u}t`` is ``cat``), is
judged as that command too (:func:`empty_reading`); a name after an unknown prefix is that program
(:func:`prefix_reading`: ``${QZ}nc -${QZ}e /bin/sh`` is ``nc -e /bin/sh``, its values empty in
every word).
"""

from __future__ import annotations

from ..lazy_regex import lazy_compile

__all__ = [
    "empty_reading",
    "has_positional_noise",
    "hidden_name",
    "names_the_shell",
    "positional_only",
    "prefix_reading",
    "without_positional",
]

_POSITIONAL = lazy_compile(r"\$(?:[@*]|\{!?[@*][^}]{0,200}\})")
"""``$@``, ``$*``, ``${@…}``, ``${*…}``, ``${!@}``, ``${!*}``: empty in a command line."""
_OPERATED_POSITIONAL = lazy_compile(r"\$\{(?:![@*]|[@*][\^,~/#%])")
"""An operated or indirect form (``${@^}``, ``${*//x}``, ``${!*}``): noise in any line; no script
needs ``${@^^}`` as a program word (a slice, ``"${@:2}"``, is a wrapper's arguments: not noise)."""
_SHELL_ITSELF = lazy_compile(r"\$(?:0|\{0(?:[#%/^,~][^}]*)?\}|\{!#\})")
_GLOB = lazy_compile(r"[?*]|\[[^\]/]{1,200}\]")
_EXPANSION = lazy_compile(r"\$(?:\{[^}]{0,200}\}|[A-Za-z_][A-Za-z0-9_]*)")
_OPERATED = lazy_compile(r"\$\{!|\$\{[A-Za-z_][A-Za-z0-9_]*(?:\[[^]]{0,200}\])?(?::[^-=+?]|[#%/^,~@])")
"""An unknown variable cut or changed: ``${x:0:1}``, ``${x/a/b}``, ``${x^^}``, ``${!x}`` (not a default,
``${CC:-cc}``, which is the variable or the word)."""
_LETTER = lazy_compile(r"[A-Za-z0-9]")


def has_positional_noise(word: str) -> bool:
    """``word`` holds an operated positional expansion, or one glued to other text (``r$@m``)."""
    if "$" not in word:
        return False
    if _OPERATED_POSITIONAL.search(word):
        return True
    found = _POSITIONAL.search(word)
    return found is not None and _POSITIONAL.sub("", word) != ""


def positional_only(word: str) -> bool:
    """``word`` is the positional parameters alone (``$@``, ``${*}``): nothing, in a command line."""
    return _POSITIONAL.fullmatch(word) is not None


def without_positional(word: str) -> str:
    """``word`` with the positional parameters put in: nothing."""
    return _POSITIONAL.sub("", word) if "$" in word else word


def names_the_shell(word: str) -> bool:
    """``$0``, ``${0}``, ``${0##-}`` (``-bash`` made ``bash``), ``${!#}``: the shell that runs the line."""
    return _SHELL_ITSELF.fullmatch(word) is not None


def hidden_name(name: str, word: str) -> str | None:
    """Why the program name ``name`` (a base name, variables the line does not set left as written) of
    the program word ``word`` cannot be read: a pattern in an absolute path (a system program's: a
    word without ``/`` is looked up on ``PATH``, never matched against a pattern, and a relative one
    names the project's files), or a name cut from or built around an unknown value; else None."""
    if name in ("[", "[[") or not name:
        return None
    if "$" in name:
        if _OPERATED.search(name):
            return f"cuts its program's name ({name}) from a value the line does not give"
        parts = _EXPANSION.split(name)
        if _between_letters(parts):
            return f"builds its program's name ({name}) around values the line does not give"
        if len(parts) > 2 and not "".join(parts):
            return f"builds its program's name ({name}) from values the line does not give"
        name = "".join(parts)
    if word.startswith("/") and _GLOB.search(name):
        return f"names its program by a pattern ({name}), which the guard does not expand"
    return None


def _between_letters(parts: list[str]) -> bool:
    """A value between letters: ``c${u}at`` (``["c", "at"]``), ``${u}r${u}m`` (``["", "r", "m"]``)."""
    if len(parts) < 2:
        return False
    inner = any(_LETTER.search(part) for part in parts[1:-1])
    return inner or (_LETTER.search(parts[0]) is not None and _LETTER.search(parts[-1]) is not None)


def empty_reading(name: str) -> str | None:
    """The program ``name`` spells when the unknown values between its letters are empty
    (``c${u}a${u}t`` is ``cat``), as an injected payload means it; None when it has none."""
    if "$" not in name or _OPERATED.search(name):
        return None
    parts = _EXPANSION.split(name)
    return "".join(parts) if _between_letters(parts) else None


def prefix_reading(name: str) -> str | None:
    """The program ``name`` names after an unknown value it starts with: ``${QZ}nc`` is ``nc`` when
    ``QZ`` is empty, as a payload means it (commix's uninitialised variable), and
    ``${CROSS_COMPILE}gcc`` is a ``gcc``; None for a name without that form (``$x``, ``c${u}at``)."""
    if not name.startswith("$") or _OPERATED.search(name):
        return None
    parts = _EXPANSION.split(name)
    if len(parts) != 2 or parts[0] or not _BARE.fullmatch(parts[1]):
        return None
    return parts[1]


_BARE = lazy_compile(r"[A-Za-z][\w.+-]*")
