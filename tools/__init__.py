"""What the Makefile, CI and developers run, beside the product: each module runs as
`python -m tools.NAME` from the repository's root (docs/development.md, "What lives where").

Standard library only here and in `tools.make_venv`: the machine's bare Python runs the venv
bootstrap before any venv exists.
"""
