"""PANIX, ForgeArmory, Metasploit and macclean: attack scripts nobody on the team had seen, at first sight.

``corpus/external/panix.jsonl`` holds the commands of PANIX's Linux persistence modules,
``corpus/external/forgearmory.jsonl`` the shell steps of Meta's ForgeArmory TTPs for Linux and
macOS (both MIT), and ``corpus/external/metasploit.jsonl`` the shell commands of Metasploit's
Linux and macOS post and persistence modules (BSD-3-Clause), ``corpus/external/macclean.jsonl`` the
stages and decoded shell commands of a 2026 macOS infostealer (MIT); see external/README.md. Each was
labelled before the guards judged it, then measured as the guards stood ("first sight"); the
floors below are today's figures per tactic, raised when the guards improve, and never lowered
to let a change through. Discovery and ordinary steps are held to no false positive but the
ones listed in KNOWN_FALSE_POSITIVES.
"""

from __future__ import annotations

import json
from pathlib import Path

from measured import HeldOut, held_out_tests
from test_corpus import HOME, judge_command

FIRST_SIGHT = {
    # corpus: {tactic: (held back at first sight, dangerous entries)}
    "panix": {
        "persistence": (67, 79),
        "privilege-escalation": (19, 19),
        "command-and-control": (20, 21),
        "defense-impairment": (4, 4),
        "credential-access": (3, 3),
    },
    "forgearmory": {
        "persistence": (26, 27),
        "credential-access": (7, 17),
        "defense-impairment": (8, 10),
        "command-and-control": (5, 6),
        "exfiltration": (2, 5),
        "privilege-escalation": (2, 4),
    },
    "metasploit": {
        "persistence": (22, 23),
        "privilege-escalation": (12, 12),
        "defense-impairment": (12, 16),
        "credential-access": (8, 10),
    },
    "macclean": {
        "credential-access": (10, 10),
        "persistence": (5, 6),
        "command-and-control": (3, 3),
        "exfiltration": (2, 2),
        "privilege-escalation": (1, 1),
    },
}
"""What the guards held back before they were changed with these corpora in view."""

FLOORS = {
    # corpus: {tactic: dangerous entries held back today (raise when the guards improve)}
    "panix": {
        # left: a payload decoded by base64 and run (download-and-run), a kernel module copied to a
        # path built by $(uname -r), `rpm -i` without sudo, two web shells (a CGI script under
        # /var/www, `python3 -m http.server --cgi`)
        "persistence": 75,
        "privilege-escalation": 19,
        "command-and-control": 20,
        "defense-impairment": 4,
        "credential-access": 3,
    },
    "forgearmory": {
        # left: ~/.bashenv (no shell reads it unless BASH_ENV names it)
        "persistence": 26,
        # 16 (GPP from SYSVOL and its published key, a memory dumper given a pid list's element):
        # `cp $/Users/dev/Library/Keychains/... /tmp` (a template left unfilled) copies the
        # relative path `$/Users/...`: bash reads `$/` as text, tree-sitter split the word in two
        "credential-access": 16,
        "defense-impairment": 8,  # left: xattr -c of the project's own app, ssh-keygen -D of its dylib
        "command-and-control": 5,
        # 4: a file folded into DNS labels, an extension loaded into the user's Chrome (asked);
        # left: rclone of a project file (an upload of the project's own file is the developer's)
        "exfiltration": 4,
        "privilege-escalation": 2,
    },
    "metasploit": {
        "persistence": 23,
        "privilege-escalation": 12,
        "defense-impairment": 16,
        "credential-access": 10,
    },
    "macclean": {
        "credential-access": 10,
        # left: `ditto -x -k /tmp/app.zip /Applications`, the trojanised wallet app unpacked over the
        # real one (a developer installs their own build into /Applications the same way)
        "persistence": 5,
        "command-and-control": 3,
        "exfiltration": 2,
        "privilege-escalation": 1,
    },
}


def _command_of(corpus: str, test: str) -> str:
    """A corpus entry's command, by its test id (an entry too long to spell here)."""
    path = Path(__file__).parent / "corpus" / "external" / f"{corpus}.jsonl"
    entries = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return str(next(entry["command"] for entry in entries if entry.get("test") == test))


LAZAGNE_SETUP = _command_of("forgearmory", "enumerate-creds-lazagne:setup")
KNOWN_FALSE_POSITIVES = {
    # Metasploit's enum_network looks for .ssh directories before reading the keys in them; the
    # credential rule holds back any search of the machine for key names (tactics.jsonl's
    # `find ~ -name '*.pem'`), though this one only lists directories.
    "/usr/bin/find / -maxdepth 3 -name .ssh",
    # ForgeArmory's LaZagne TTP labels its setup step (the dumper's repository cloned into /tmp/lazagne and
    # its requirements installed) as ordinary; since cred27 a credential dumper's source fetched by name is
    # asked (exploit source), as an exploit's is: held on purpose.
    LAZAGNE_SETUP,
}


LABELS = {
    "panix": {"dangerous": 126, "benign": 31, "unlabelled": 6},
    "forgearmory": {"dangerous": 69, "benign": 80, "unlabelled": 150},
    "metasploit": {"dangerous": 61, "benign": 53, "unlabelled": 22},
    "macclean": {"dangerous": 22, "benign": 2, "unlabelled": 16},
}

CORPORA = [
    HeldOut(
        name=name,
        first_sight=FIRST_SIGHT[name],
        floors=FLOORS[name],
        labels=labels,
        judge=judge_command,
        home=HOME,
        known_false_positives=frozenset(KNOWN_FALSE_POSITIVES),
        key="test",
    )
    for name, labels in LABELS.items()
]

(
    test_the_corpora_are_what_the_readme_describes,
    test_dangerous_scripts_held_back_do_not_fall_below_todays,
    test_discovery_and_ordinary_steps_are_never_held_back,
) = held_out_tests(*CORPORA)
