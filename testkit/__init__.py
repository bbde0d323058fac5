"""Inputs the suite, the benchmarks and the developer tools build from; no part of the service.

- `synthetic`, `synthetic_teams`: seeded, consistent synthetic Swiss events (players, teams);
- `teams`: the parts of a team event (teams, seats, colours) that the generator and the tests'
  builders and strategies share;
- `conformance`, `conformance_teams`: the readers of the conformance corpora and the comparison
  with their expected values;
- `rules`: the rule lists several of them send; `loopback`: a real `tiebreak serve` on a free
  loopback port.

Imported from the repository's root (`tests/`, `bench/`, `tools/`); nothing in `tiebreak` imports
it and it imports neither `tools`, `bench` nor `tests` (import-linter contracts in pyproject.toml);
the package that is installed and shipped does not hold it (decision 0153).
"""
