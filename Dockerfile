# syntax=docker/dockerfile:1
# Chess tie-break service: a small, non-root image that runs `tiebreak serve`.
#   docker build -t tiebreak-service .
#   docker run --rm -p 8000:8000 -e WORKERS=2 tiebreak-service
# Configuration is by environment variables only (see docs/operations.md).

ARG PYTHON_VERSION=3.11

# ---- build: the locked dependencies (hashes checked), then the package, into a venv ----
FROM python:${PYTHON_VERSION}-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
RUN python -m venv /opt/venv
# The lock first: its layer is cached until requirements/run.txt changes (`make lock`).
COPY requirements/run.txt ./requirements/run.txt
RUN /opt/venv/bin/pip install --require-hashes -r requirements/run.txt
COPY pyproject.toml README.md ./
COPY service ./service
# A regular (not editable) install of the package alone: every dependency, and the build
# backend, came from the lock above.
RUN /opt/venv/bin/pip install --no-deps --no-build-isolation .

# ---- runtime: the venv, a non-root user, nothing else ----
FROM python:${PYTHON_VERSION}-slim AS runtime
RUN groupadd --system --gid 10001 tiebreak \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin tiebreak
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    WORKERS=1
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"]
# uvicorn finishes the requests in flight on SIGTERM (TIEBREAK_GRACEFUL_TIMEOUT_S) and exits 0.
STOPSIGNAL SIGTERM
CMD ["tiebreak", "serve"]
