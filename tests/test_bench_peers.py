"""bench.peers' verdict on issue 40's targets, from medians it is given (no timing measured here)."""

from __future__ import annotations

from bench.peers import report, targets


def results(on_40: float, core_40: float, on_500: float, off_500: float, core_500: float) -> dict:
    """Three rounds per call, in seconds, with the given median (the others around it)."""

    def rounds(median: float) -> list[float]:
        return [median * 0.9, median, median * 1.5]

    return {
        "40x9": {
            "service, explain off": rounds(0.001),
            "service, explain on": rounds(on_40),
            "tiebreak-core": rounds(core_40),
        },
        "500x11": {
            "service, explain off": rounds(off_500),
            "service, explain on": rounds(on_500),
            "tiebreak-core": rounds(core_500),
        },
    }


def test_the_targets_met_and_not_met_are_named(capsys):
    targets(results(on_40=0.0016, core_40=0.002, on_500=0.016, off_500=0.0025, core_500=0.030))
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "FIDE reference: not run (no copy in the repository or testkit)",
        "target 40x9 with the breakdown / tiebreak-core: 0.80 (≤ 0.8): met",
        "target 500x11 with the breakdown / tiebreak-core: 0.53 (≤ 0.8): met",
        "target 500x11 with the breakdown, ms: 16.00 (≤ 15): not met",
        "target 500x11 without, ms: 2.50 (≤ 2.5): met",
    ]


def test_the_table_prints_medians_and_ratios_to_the_peer(capsys):
    report(results(on_40=0.003, core_40=0.002, on_500=0.016, off_500=0.005, core_500=0.032))
    out = capsys.readouterr().out
    assert "service, explain on" in out and "3.00 ms (2.70)" in out
    ratios = [line for line in out.splitlines() if "/ tiebreak-core" in line]
    assert [line.split()[-4:] for line in ratios] == [["0.50", "×", "0.16", "×"], ["1.50", "×", "0.50", "×"]]


def test_without_the_peer_only_the_budgets_are_checked(capsys):
    given = results(on_40=0.003, core_40=0.002, on_500=0.012, off_500=0.002, core_500=0.032)
    for rows in given.values():
        del rows["tiebreak-core"]
    targets(given)
    assert capsys.readouterr().out.splitlines()[1:] == [
        "target 500x11 with the breakdown, ms: 12.00 (≤ 15): met",
        "target 500x11 without, ms: 2.00 (≤ 2.5): met",
    ]


def test_a_baseline_tree_is_imported_beside_this_one_and_answers_the_same():
    """--baseline: a tree's package under its own name in this process (here this very tree)."""
    import sys
    from pathlib import Path

    import msgspec

    import tiebreak
    from bench.peers import baseline_package
    from testkit.synthetic import swiss_tournament
    from tiebreak.formats.trf_writer import write_trf

    root = Path(__file__).resolve().parents[1]
    try:
        baseline = baseline_package(str(root))
        assert baseline is not tiebreak and baseline.__name__ == "tiebreak_baseline"
        text = write_trf(swiss_tournament(12, 5, seed=3), tiebreaks=["BH", "SB"]).text
        ours, theirs = tiebreak.standings(text, ["BH", "SB"]), baseline.standings(text, ["BH", "SB"])
        assert type(theirs).__module__.startswith("tiebreak_baseline.")
        assert msgspec.json.encode(ours) == msgspec.json.encode(theirs)
    finally:
        for name in [n for n in sys.modules if n == "tiebreak_baseline" or n.startswith("tiebreak_baseline.")]:
            del sys.modules[name]
