"""The service's version, named in every response (`Tiebreak-Version`), every batch line,
`GET /v1/version`, the OpenAPI document and `tiebreak --version`.

This line is the one place it is written: pyproject.toml reads it at build time
(`[tool.setuptools.dynamic]`), so the installed package's metadata says the same
(tests/contract/test_exact_contract.py checks both). A literal, not
`importlib.metadata.version(...)`, whose import would weigh on every command's start-up."""

__version__ = "0.1.0"
