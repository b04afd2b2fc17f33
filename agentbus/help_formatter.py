"""argparse's help formatter, sized to the terminal without importing shutil.

Its own module, so that a command line that never prints help (the hook's)
does not import argparse to define it.
"""

from __future__ import annotations

import argparse

from .cli import terminal_width

__all__ = ["HelpFormatter"]


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter, sized to the terminal without importing shutil.

    argparse makes a formatter for every ``add_argument`` (to check the
    metavar), and its default sizes each one with ``shutil.get_terminal_size``:
    importing shutil (with bz2 and lzma) was about a tenth of a hook process.
    """

    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
    ) -> None:
        width = terminal_width() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)
