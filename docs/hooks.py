"""MkDocs hook: render the docstrings' Sphinx cross-reference roles as plain code.

The docstrings say ``:func:`wrap_tool``` (read in a terminal and by Sphinx-aware tools);
mkdocstrings renders the backticks as code and leaves the role's name in front of it. This
drops the name (and a leading ``~``), so the page reads ``wrap_tool``.
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|attr|data|exc|obj|const):<code>~?")


def on_page_content(html: str, **kwargs: Any) -> str:
    return ROLE.sub("<code>", html)
