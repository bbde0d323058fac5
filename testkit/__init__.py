"""Inputs the suite, the benchmarks and the developer tools build from; no part of the service.

Seeded synthetic events (`testkit.synthetic`, `testkit.synthetic_teams`), the readers of the
conformance corpora and the rule lists several of them send. Imported from the repository's root
(`tests/`, `bench/`, `tools/`); nothing in `tiebreak` imports it (an import-linter contract in
pyproject.toml), and the package that is installed and shipped does not hold it.
"""
