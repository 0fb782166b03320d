"""Every player-facing text, one JSON catalogue per language (``en.json``, ...).

Keys are stable (``error.photo_too_large``); values may hold ``{name}`` placeholders, which
must be the same in every language. English is the fallback for a missing language.

>>> message("error.table_not_found", "en", table="abc")
'There is no table abc. Check the link, or start a new table.'
>>> message("error.table_not_found", "xx", table="abc") == message("error.table_not_found", "en", table="abc")
True
"""

from __future__ import annotations

import json
import re
import string
from functools import cache
from importlib import resources
from typing import Any

FALLBACK = "en"
LANGUAGES: tuple[str, ...] = ("en", "fr", "ja")
_LANGUAGE_TAG = re.compile(r"^[a-z]{2}$")


@cache
def catalogue(language: str) -> dict[str, str]:
    """The catalogue of ``language``, or the fallback's for a language not offered."""
    if language not in LANGUAGES:
        language = FALLBACK
    text = resources.files(__name__).joinpath(f"{language}.json").read_text(encoding="utf-8")
    entries = json.loads(text)
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in entries.items()):
        raise ValueError(f"{language}.json must map text keys to text values")
    return entries


def message(key: str, language: str = FALLBACK, **params: Any) -> str:
    """The text of ``key`` in ``language`` with its placeholders filled; raises KeyError for
    an unknown key (a bug: every key the code uses must be in the catalogue)."""
    template = catalogue(language).get(key) or catalogue(FALLBACK)[key]
    return template.format(**params)


def placeholders(template: str) -> frozenset[str]:
    """The ``{name}`` placeholders of a template.

    >>> sorted(placeholders("{team} has {count} sequence(s)"))
    ['count', 'team']
    """
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


def pick_language(accept_language: str | None) -> str:
    """The first offered language in an ``Accept-Language`` header, else the fallback.

    >>> pick_language("fr-CH, fr;q=0.9, en;q=0.8"), pick_language("de-DE, ja;q=0.5")
    ('fr', 'ja')
    >>> pick_language(None)
    'en'
    """
    for part in (accept_language or "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if _LANGUAGE_TAG.match(tag) and tag in LANGUAGES:
            return tag
    return FALLBACK
