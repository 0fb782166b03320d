"""The catalogues: every text the code and the page use is there, in every language, with
the same placeholders; nothing in the catalogue is left unused."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from referee.cells import RANKS, SUITS
from referee.judge import WarningKind
from referee.moves import ViolationKind
from server.i18n import FALLBACK, LANGUAGES, catalogue, message, pick_language, placeholders
from calibration.learn import NoteKind
from server.reading import EVENT_CODES, REMOVAL_CODES, SEVERAL, VISION_WARNING_CODES
from server.errors import HTTP_ERROR_CODES, OTHER_HTTP_ERROR
from server.routers.calibration import CALIBRATION_ERROR_CODES
from server.routers.photos import VISION_CODES

SERVER = Path(__file__).resolve().parents[2] / "server"
PAGE_ONLY_ERRORS = ("network", "unexpected")  # the page's own: the server never sent them
KEY = re.compile(r"""["'`]([a-z]+\.[a-z0-9_]+)["'`]""")


def api_error_codes() -> set[str]:
    sources = "\n".join(path.read_text() for path in SERVER.rglob("*.py"))
    raised = set(re.findall(r'ApiError\(\s*\d+,\s*"(\w+)"', sources))
    return raised | {code for _, code in VISION_CODES.values()} | set(CALIBRATION_ERROR_CODES.values()) \
        | {"invalid_request", OTHER_HTTP_ERROR, *HTTP_ERROR_CODES.values()}


def page_keys() -> set[str]:
    script = (SERVER / "static" / "app.js").read_text()
    page = (SERVER / "static" / "index.html").read_text()
    return set(KEY.findall(script)) | set(re.findall(r'data-i18n(?:-label)?="([\w.]+)"', page))


def expected_keys() -> set[str]:
    """Every key the server or the page looks up, literal or built from a stable code."""
    families = {
        "error": [*api_error_codes(), *PAGE_ONLY_ERRORS],
        "removal": REMOVAL_CODES,
        "warning": [*VISION_WARNING_CODES, *(kind.value for kind in WarningKind)],
        "calibration": [kind.value for kind in NoteKind],
        "violation": [SEVERAL, *(kind.value for kind in ViolationKind)],
        "event": EVENT_CODES,
        "team": "BGR",
        "chip": "BGR",
        "page.answer": ["yes", "no", "unsure"],
        "page.card": ["dead", "alive", "unsure", "one_eyed", "two_eyed"],
        "rank": RANKS,
        "suit": SUITS,
    }
    built = {f"{family}{'_' if family.startswith('page.') else '.'}{code}"
             for family, codes in families.items() for code in codes}
    return built | page_keys() | {"lang.name"}


def test_every_key_in_use_is_in_the_english_catalogue() -> None:
    missing = expected_keys() - set(catalogue(FALLBACK))
    assert not missing, f"keys used but not in en.json: {sorted(missing)}"


def test_no_text_in_the_catalogue_is_unused() -> None:
    unused = set(catalogue(FALLBACK)) - expected_keys()
    assert not unused, f"keys in en.json that nothing uses: {sorted(unused)}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_key_with_the_same_placeholders(language: str) -> None:
    english, other = catalogue(FALLBACK), catalogue(language)
    assert set(other) == set(english), f"{language}: missing {sorted(set(english) - set(other))}"
    for key, text in english.items():
        assert placeholders(other[key]) == placeholders(text), f"{language} {key}"
        assert other[key].strip(), f"{language} {key} is empty"


def test_catalogues_are_plain_json_objects_of_text() -> None:
    for path in resources.files("server.i18n").iterdir():
        if path.name.endswith(".json"):
            assert path.name[:-5] in LANGUAGES, f"{path.name} is not offered in LANGUAGES"
            assert all(isinstance(v, str) for v in json.loads(path.read_text(encoding="utf-8")).values())


def test_an_unknown_language_falls_back_to_english() -> None:
    assert catalogue("xx") == catalogue(FALLBACK)
    assert pick_language("xx-YY, zz;q=0.5") == FALLBACK
    assert message("error.photo_too_large", "xx", megabytes=20) == "The photo is larger than 20 MB. Send a smaller photo."


def test_an_unknown_key_is_a_bug_not_a_blank() -> None:
    with pytest.raises(KeyError):
        message("error.no_such_code")
