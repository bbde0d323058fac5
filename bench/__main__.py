"""`python -m bench`: the main benchmark (bench/main.py), what `make bench` runs."""

from bench.main import main

main()
