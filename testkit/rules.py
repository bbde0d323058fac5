"""Rule lists the benchmarks, the tools and the tests send when they time or price many rules."""

from __future__ import annotations

# The 12 tie-breaks of SPEC section 4's speed targets ("a 500-player, 11-round Swiss with 12
# tie-breaks"), as the benchmarks time them.
RULES_12 = ["BH/C1", "BH/C2", "BH", "BH/M1", "SB", "SB/C1", "PS", "WIN", "WON", "BPG", "DE", "ARO"]

# 24 rules of every family, direct encounter sixth and the rating rules among them: the heavy
# requests of the hostile cases, of the gate's tests and of the cost calibration.
RULES_24 = [
    "BH/C1",
    "BH",
    "SB",
    "PS",
    "WIN",
    "DE",
    "ARO",
    "KS",
    "BH/M1",
    "SB/C1",
    "WON",
    "BPG",
    "AOB",
    "FB",
    "TPR",
    "PTP",
    "APRO",
    "APPO",
    "GE",
    "BWG",
    "BH/C2",
    "SB/M1",
    "KS/L40",
    "BH/C3",
]
RULES_40 = (RULES_24 * 2)[:40]  # the most rules a request may name (max_rules)
