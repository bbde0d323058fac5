"""The service's version: the installed package's, named in every response (`Tiebreak-Version`),
every batch line, `GET /v1/version`, the OpenAPI document and `tiebreak --version`."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tiebreak-service")
except PackageNotFoundError:  # pragma: no cover - running from a source tree that was never installed
    __version__ = "0+unknown"
