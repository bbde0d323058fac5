"""Extract the message ids from the source and check the catalogues against them
(`make i18n`; the tests run the same check).

`python -m tiebreak.texts.catalogue_check` prints every gap and exits 1 when there is one;
`--update` first merges new ids into each catalogue (untranslated, to be written) and drops
ids the source no longer has.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from .catalogue import LANGUAGES, LOCALE_DIR

SOURCE = Path(__file__).resolve().parents[1]  # service/tiebreak
KEYWORDS = {"msg": (1,), "msg_n": (1, 2), "pre": (2,), "text_id": (1,)}
_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})")


def placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


def extracted() -> Catalog:
    """Every message id of the source, with where it is made."""
    template = Catalog(project="tiebreak", fuzzy=False)
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(SOURCE), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=(), strip_comment_tags=True
    ):
        template.add(message, locations=[(filename, lineno)])
    return template


def catalogue_path(code: str) -> Path:
    return LOCALE_DIR / f"{code}.po"


def read(code: str) -> Catalog:
    with catalogue_path(code).open("rb") as po:
        return read_po(po, locale=code)


def update(template: Catalog) -> None:
    for code in LANGUAGES:
        if code == "en":
            continue
        catalog = read(code) if catalogue_path(code).exists() else Catalog(locale=code)
        created = catalog.creation_date
        catalog.update(template, no_fuzzy_matching=True)
        catalog.creation_date = created  # unchanged ids: an unchanged file
        catalog.obsolete.clear()
        with catalogue_path(code).open("wb") as po:
            write_po(
                po, catalog, width=100, omit_header=False, include_previous=False, sort_output=True, no_location=True
            )


def gaps(template: Catalog) -> list[str]:
    """What is missing or wrong: an id without translation, a placeholder lost or added, a
    plural without every form of the language, an id the source no longer makes."""
    found = []
    ids = {_key(m.id) for m in template if m.id}
    for code in LANGUAGES:
        if code == "en":
            continue
        catalog = read(code)
        have = {_key(m.id) for m in catalog if m.id}
        for message in template:
            if not message.id:
                continue
            key = message.id if isinstance(message.id, str) else message.id[0]
            entry = catalog.get(key)
            if entry is None:
                found.append(f"{code}: no entry for {key!r}")
                continue
            singular = key if isinstance(message.id, str) else message.id[0]
            wanted = placeholders(singular) | (set() if isinstance(message.id, str) else placeholders(message.id[1]))
            forms = entry.string if isinstance(entry.string, tuple | list) else (entry.string,)
            if isinstance(message.id, tuple) and len(forms) != catalog.num_plurals:
                found.append(f"{code}: {key!r} has {len(forms)} plural forms, the language has {catalog.num_plurals}")
            for form in forms:
                if not form:
                    found.append(f"{code}: {key!r} is not translated")
                elif placeholders(form) - wanted or (placeholders(form) != wanted and isinstance(message.id, str)):
                    found.append(f"{code}: {key!r} has placeholders {sorted(placeholders(form))}, not {sorted(wanted)}")
        for extra in sorted(have - ids):
            found.append(f"{code}: {extra!r} is no longer in the source")
    return found


def _key(msgid: Any) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


def main(argv: list[str]) -> int:
    template = extracted()
    if "--update" in argv:
        update(template)
    found = gaps(template)
    for line in found:
        print(line)
    print(f"{len(template)} messages, {len(LANGUAGES) - 1} catalogues, {len(found)} gaps")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
