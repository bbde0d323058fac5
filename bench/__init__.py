"""The benchmarks (docs/benchmarks.md): `python -m bench` is `make bench` (bench/main.py); each other
module measures one part, `python -m bench.NAME`, from the repository's root."""
