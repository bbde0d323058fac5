"""Prometheus metrics of the service (prometheus_client).

One registry per process. With several uvicorn workers in one container set
`PROMETHEUS_MULTIPROC_DIR` to an empty writable directory (`tiebreak serve`
empties it at start); `/metrics` then adds up every worker's values. On
Kubernetes the manifests run one worker per pod and scale by replicas, so
every scrape sees exactly one process.
"""

from __future__ import annotations

import os

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

MEDIA_TYPE = "text/plain; version=0.0.4"  # litestar adds "; charset=utf-8"
MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

REQUESTS = Counter(
    "tiebreak_http_requests",
    "HTTP requests answered, by route template, method and status",
    ["route", "method", "status"],
)
LATENCY = Histogram(
    "tiebreak_http_request_duration_seconds",
    "Time from the request's arrival to the last byte of the response, by route, method and status",
    ["route", "method", "status"],
    buckets=LATENCY_BUCKETS,
)
IN_FLIGHT = Gauge("tiebreak_http_requests_in_flight", "Requests being handled now", multiprocess_mode="livesum")
ENGINE_SECONDS = Histogram(
    "tiebreak_engine_seconds", "Engine time (compute_standings) per standings computation", buckets=LATENCY_BUCKETS
)
BATCH_ITEMS = Counter("tiebreak_batch_items", "Items of batch requests, by outcome (ok or error)", ["outcome"])
LIMIT_REJECTIONS = Counter("tiebreak_limit_rejections", "Requests refused by a limit, by the limit's name", ["limit"])


COMPUTED = Counter(
    "tiebreak_compute",
    "Computations by where they ran: `inline` on the event loop, `pool` in a worker process",
    ["lane"],
)
COMPUTE_BUSY = Gauge(
    "tiebreak_compute_busy",
    "Computations running now, by lane (inline: 0 or 1; pool: up to the workers)",
    ["lane"],
    multiprocess_mode="livesum",
)
COMPUTE_WAITING = Gauge(
    "tiebreak_compute_waiting", "Requests waiting for a compute slot, by lane", ["lane"], multiprocess_mode="livesum"
)
SHED = Counter(
    "tiebreak_shed",
    "Requests answered 503 at once because the service was at capacity, by what was full "
    "(pool: workers and queue; in_flight: TIEBREAK_MAX_IN_FLIGHT; body_bytes: TIEBREAK_MAX_IN_FLIGHT_BODY_BYTES)",
    ["reason"],
)
KILLED = Counter(
    "tiebreak_compute_killed",
    "Worker processes killed, by why (deadline, cancelled: the client left, crashed, "
    "starting: given up before it was ready)",
    ["reason"],
)
WORKER_STARTS = Counter("tiebreak_compute_worker_starts", "Compute worker processes started")
# The scenario solver's work (SPEC 3.11.1; an answer's `stats`): one question per reported
# player and extreme rank, settled by the players' ranges alone, by the solver, or not in time.
SCENARIO_QUESTIONS = Counter(
    "tiebreak_scenario_questions",
    "Questions the scenario solver was asked, by how each was settled (pruning, solver, undecided)",
    ["settled"],
)
SCENARIO_SOLVER_SECONDS = Histogram(
    "tiebreak_scenario_solver_seconds", "The scenario solver's time per request, all questions", buckets=LATENCY_BUCKETS
)


def count_solver(stats: tuple[int, int, int, float]) -> None:
    """A solver answer's `stats` (by pruning, by the solver, undecided, seconds) into /metrics."""
    by_pruning, by_solver, undecided, seconds = stats
    for settled, n in (("pruning", by_pruning), ("solver", by_solver), ("undecided", undecided)):
        SCENARIO_QUESTIONS.labels(settled).inc(n)
    SCENARIO_SOLVER_SECONDS.observe(seconds)


def count_batch_item(ok: bool) -> None:
    BATCH_ITEMS.labels("ok" if ok else "error").inc()


def render() -> bytes:
    if MULTIPROCESS:
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest()
