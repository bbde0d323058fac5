#!/usr/bin/env python3
"""A hash of every answer the corpora give, to check that a change to how answers are made left
their bytes alone (issue 40: "answers byte-identical to today's").

    .venv/bin/python -m tools.answer_hashes > /tmp/before.txt     # on the tree before the change
    .venv/bin/python -m tools.answer_hashes > /tmp/after.txt      # after it
    diff /tmp/before.txt /tmp/after.txt                           # nothing: the same bytes

One line per answer: what was asked, then the SHA-256 of the answer's JSON (or of the problem it
raised). The inputs: every TRF file of tests/fixtures and ../shared/conformance (the real-world
exports included), each read, written back, checked and ranked by the Python API (its own rules
and twelve, breakdowns on and off, English and Russian, progression and compare) and over the
HTTP API (a real `tiebreak serve` on loopback); the team cases' JSON bodies; the prize fixtures; and
synthetic 40 x 9 and 500 x 11 events with `top` and `player`.
"""

from __future__ import annotations

import hashlib
import json
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from tools.load import HEADERS, start_server

ROOT = Path(__file__).resolve().parents[1]
TWELVE = ["BH/C1", "BH/C2", "BH", "BH/M1", "SB", "SB/C1", "PS", "WIN", "WON", "BPG", "DE", "ARO"]


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def main() -> int:
    import tiebreak
    import httpx

    from testkit.synthetic import swiss_tournament
    from tiebreak.formats.trf_writer import write_trf
    from tiebreak.texts.catalogue import enc_hook

    encoder = msgspec.json.Encoder(enc_hook=enc_hook)

    def line(key: str, make: Callable[..., Any], *args: Any, **options: Any) -> None:
        """Print `key` and the hash of `make(*args, **options)`, called at once."""
        try:
            made = make(*args, **options)
            data = made.encode() if isinstance(made, str) else msgspec.json.encode(made)
        except Exception as exc:  # noqa: BLE001 (a problem is an answer too)
            problem = tiebreak.problem_of(exc)
            data = encoder.encode(problem) if problem is not None else repr(exc).encode()
        print(key, digest(data))

    texts: dict[str, str] = {}
    folders = [ROOT / "tests" / "fixtures", ROOT.parent / "shared" / "conformance"]
    for folder in folders:
        for path in sorted(folder.rglob("*.trf")):
            text = path.read_bytes().decode("utf-8", errors="replace")
            texts.setdefault(digest(text.encode()), text)
    for seed, (players, rounds) in enumerate([(40, 9), (500, 11)], start=1):
        texts[f"synthetic-{players}x{rounds}"] = write_trf(
            swiss_tournament(players, rounds, seed=seed), tiebreaks=TWELVE
        ).text

    process, base, _ = start_server(1, {})
    try:
        asked(line, httpx.Client(base_url=base, timeout=60), texts, encoder)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)
    return 0


def asked(line: Callable[..., None], client: Any, texts: dict[str, str], encoder: Any) -> None:
    """Every question of the module's docstring, one `line` each."""
    import tiebreak
    from testkit.conformance_teams import load_team_cases

    with client:

        def post(path: str, body: Any, lang: str = "en") -> str:
            got = client.post(
                path,
                content=msgspec.json.encode(body),
                headers={**HEADERS, "accept-language": lang},
            )
            return f"{got.status_code} {got.text}"

        def written_back(text: str) -> str:
            return tiebreak.write_trf(tiebreak.read_trf(text).tournament, TWELVE)

        for key, text in texts.items():
            k = key[:16]
            line(f"{k} read_trf", tiebreak.read_trf, text)
            line(f"{k} read_trf ru", tiebreak.read_trf, text, lang="ru")
            line(f"{k} write_trf", written_back, text)
            line(f"{k} check", tiebreak.check, text)
            line(f"{k} check ja", tiebreak.check, text, lang="ja")
            for explain in (True, False):
                line(f"{k} own {explain}", tiebreak.standings, text, explain=explain)
                line(f"{k} twelve {explain}", tiebreak.standings, text, TWELVE, explain=explain)
            line(f"{k} twelve ru", tiebreak.standings, text, TWELVE, lang="ru")
            line(f"{k} twelve top", tiebreak.standings, text, TWELVE, top=5, offset=2)
            line(f"{k} twelve player", tiebreak.standings, text, TWELVE, player=[1, 3])
            line(f"{k} fore 2009", tiebreak.standings, text, ["FB", "SB/C1", "BH/C1"], regulations="fide-2009")
            line(f"{k} fore 2024", tiebreak.standings, text, ["FB", "SB", "BH/M1"], regulations="fide-2024")
            line(f"{k} uscf", tiebreak.standings, text, preset="uscf-default", regulations="uscf")
            line(f"{k} progression", tiebreak.progression, text, ["BH/C1", "SB", "DE"])
            line(f"{k} compare", tiebreak.compare, text, {"a": ["BH/C1", "SB"], "b": ["ARO", "PS"]})
            line(f"{k} http standings", post, "/v1/standings", {"trf": text, "tiebreaks": TWELVE})
            line(f"{k} http standings ja", post, "/v1/standings", {"trf": text, "tiebreaks": TWELVE}, "ja")
            line(f"{k} http trf", post, "/v1/trf", {"trf": text})
            line(f"{k} http check", post, "/v1/check", [{"trf": text}])

        for case in load_team_cases():
            line(f"team {case.id}", tiebreak.standings, case.body["team_tournament"], case.body.get("tiebreaks"))
            line(f"team {case.id} http", post, "/v1/standings", case.body)

        for path in sorted((ROOT / "tests" / "fixtures" / "prizes").glob("*.json")):
            request = json.loads(path.read_text())["request"]
            line(f"prizes {path.stem}", tiebreak.distribute_prizes, request)
            line(f"prizes {path.stem} pl", tiebreak.distribute_prizes, request, lang="pl")
            line(f"prizes {path.stem} http", post, "/v1/prizes", request)


if __name__ == "__main__":
    sys.exit(main())
