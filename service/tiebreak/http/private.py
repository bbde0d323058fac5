"""Who may read `/metrics` and the API description (`/schema…`, `/docs`): private by default.

`/metrics` names the Python version and the memory in use, `/schema` the limits; a hall deployment
(`HOST=0.0.0.0`) must not hand them to every phone in the room, and a developer on localhost
expects them at http://127.0.0.1:8000/. So, on the main port, a private path is served when

- it was asked to be public (`TIEBREAK_PUBLIC_METRICS=1`, `TIEBREAK_PUBLIC_SCHEMA=1`), or
- there is no admin port and the client is this machine (a loopback address).

With `TIEBREAK_ADMIN_PORT` they are served on that port to anyone who reaches it (Prometheus in
Kubernetes scrapes the pod's address) and, unless asked public, nowhere else. docs/operations.md,
"Security", says why each.
"""

from __future__ import annotations

import ipaddress

METRICS = "/metrics"


def private(path: str) -> bool:
    """A private path (`path` normalised: the router collapses slashes, so `//metrics` and
    `/metrics/` are /metrics to it too)."""
    return path in (METRICS, "/schema", "/docs") or path.startswith("/schema/")


def loopback(scope) -> bool:
    """The client is this machine. uvicorn gives the address of the peer, or, from a proxy it trusts
    (FORWARDED_ALLOW_IPS, 127.0.0.1 by default), the one its X-Forwarded-For names: a proxy on the
    laptop that says whom it forwards for does not make the hall local. No address: not local."""
    client = scope.get("client")
    if not client:
        return False
    try:
        address = ipaddress.ip_address(client[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # ::ffff:127.0.0.1 on a dual-stack socket
    return address.is_loopback


def shown(path: str, scope, admin_port: int | None, public_metrics: bool, public_schema: bool) -> bool:
    """Whether the main port serves the private `path` to this request."""
    if public_metrics if path == METRICS else public_schema:
        return True
    return admin_port is None and loopback(scope)
