"""The Dockerfile, read as text: what it builds from, who it runs as, what it starts.

No container engine runs on the development machines, so the checks are on the
file itself, plus one that runs the image's start command and health check
against a real server outside a container.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from testkit.loopback import free_port
from tests.deploy.dockerfile import ROOT, dockerignore_patterns, ignored, parse, split_flags

DOCKERFILE = (ROOT / "Dockerfile").read_text()
INSTRUCTIONS = parse(DOCKERFILE)
LAST_STAGE = max(i.stage for i in INSTRUCTIONS)
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def final(keyword: str):
    found = [i for i in INSTRUCTIONS if i.keyword == keyword and i.stage == LAST_STAGE]
    assert found, f"no {keyword} in the runtime stage"
    return found[-1]


def env_of_last_stage() -> dict[str, str]:
    env = {}
    for i in INSTRUCTIONS:
        if i.keyword == "ENV" and i.stage == LAST_STAGE:
            for word in re.findall(r'(\w+)=("[^"]*"|\S+)', i.args):
                env[word[0]] = word[1].strip('"')
    return env


def test_reader_understands_continuations_and_stages():
    parsed = parse('FROM a AS one\nRUN x \\\n  # note\n  && y\nFROM b\nCMD ["c"]\n')
    assert [(i.keyword, i.stage) for i in parsed] == [("FROM", 0), ("RUN", 0), ("FROM", 1), ("CMD", 1)]
    assert parsed[1].args.split() == ["x", "&&", "y"]
    assert parsed[3].exec_form() == ["c"]


def test_multi_stage_on_a_slim_python_base_that_fits_requires_python():
    froms = [i for i in INSTRUCTIONS if i.keyword == "FROM"]
    assert len(froms) >= 2, "a build stage and a runtime stage"
    args = {k: v for i in INSTRUCTIONS if i.keyword == "ARG" for k, _, v in [i.args.partition("=")]}
    for f in froms:
        image = f.args.split()[0].replace("${PYTHON_VERSION}", args.get("PYTHON_VERSION", ""))
        assert re.fullmatch(r"python:3\.\d+-slim", image), image
        minor = int(image.split(".")[1].split("-")[0])
        required = int(PYPROJECT["project"]["requires-python"].removeprefix(">=3."))
        assert minor >= required
    runtime_copies = [i for i in INSTRUCTIONS if i.keyword == "COPY" and i.stage == LAST_STAGE]
    assert runtime_copies and all(split_flags(c.args)[0].get("from") for c in runtime_copies), (
        "the runtime stage copies only from the build stage"
    )


def test_installs_the_locked_dependencies_with_hashes_then_the_package_alone():
    runs = [i.args for i in INSTRUCTIONS if i.keyword == "RUN"]
    lock = next(i for i, run in enumerate(runs) if "--require-hashes -r requirements/run.txt" in run)
    package = next(
        i for i, run in enumerate(runs) if re.search(r"pip install --no-deps --no-build-isolation \.(\s|$)", run)
    )
    assert lock < package


def lock_pins(path: Path) -> dict[str, str]:
    """name -> version of a lock file, checking every pin carries a hash."""
    text = path.read_text()
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==([^\s;]+)", text, re.M))
    entries = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", text.split("\n", 2)[2])
    assert all("--hash=sha256:" in entry for entry in entries if "==" in entry), path
    return {re.sub(r"[-_.]+", "-", name).lower(): version for name, version in pins.items()}


def test_the_locks_pin_every_dependency_with_hashes_and_agree():
    run, test = lock_pins(ROOT / "requirements" / "run.txt"), lock_pins(ROOT / "requirements" / "test.txt")
    names = lambda deps: {re.sub(r"[-_.]+", "-", re.split(r"[<>=!~;\[ ]", d, maxsplit=1)[0]).lower() for d in deps}  # noqa: E731
    assert names(PYPROJECT["project"]["dependencies"]) <= set(run)
    assert names(PYPROJECT["project"]["optional-dependencies"]["test"]) <= set(test)
    assert "setuptools" in run  # the build backend, for the install without build isolation
    assert all(test[name] == version for name, version in run.items()), "make lock: run.txt follows test.txt"
    assert "pytest" not in run and "schemathesis" not in run  # serving installs no test tools


def test_copies_only_what_exists_and_what_dockerignore_lets_through():
    patterns = dockerignore_patterns()
    copies = [i for i in INSTRUCTIONS if i.keyword in ("COPY", "ADD") and not split_flags(i.args)[0].get("from")]
    assert copies
    sources = []
    for c in copies:
        _, words = split_flags(c.args)
        assert len(words) >= 2
        sources += words[:-1]
    for source in sources:
        path = ROOT / source
        assert path.exists(), f"COPY {source}: no such file in the repository"
        assert not ignored(source, patterns), f"COPY {source}: excluded by .dockerignore"
        if path.is_dir():
            for file in path.rglob("*.py"):
                assert not ignored(str(file.relative_to(ROOT)), patterns)
    # the readme pyproject.toml names is in the build context (setuptools reads it)
    assert PYPROJECT["project"]["readme"] in sources
    # and the rest of the repository is not sent to the builder
    for path in ("tests/api/conftest.py", ".venv/bin/python", ".git/HEAD", "docs/architecture.md"):
        assert ignored(path, patterns), path
    assert ignored("service/tiebreak/http/__pycache__/app.cpython-311.pyc", patterns)


def test_runs_as_a_non_root_user():
    user = final("USER").args.split(":")[0]
    assert user not in ("root", "0")
    assert user.isdigit() and int(user) >= 1000, "a numeric uid, so runAsNonRoot can verify it"
    assert "runAsUser: " + user in (ROOT / "deploy" / "kubernetes" / "deployment.yaml").read_text()


def test_starts_the_entry_point_the_readme_documents_with_port_and_workers_from_env():
    cmd = final("CMD").exec_form()
    assert cmd == ["tiebreak", "serve"]
    assert PYPROJECT["project"]["scripts"]["tiebreak"] == "tiebreak.cli:main"
    readme = (ROOT / "README.md").read_text()
    assert "tiebreak serve" in readme
    env = env_of_last_stage()
    assert env["HOST"] == "0.0.0.0"
    assert {"PORT", "WORKERS"} <= set(env)
    assert final("EXPOSE").args.split()[0] == env["PORT"]
    # `tiebreak serve` takes its host, port and workers from exactly these variables
    from tiebreak.cli import main  # noqa: F401  (the entry point imports)

    cli = (ROOT / "service" / "tiebreak" / "cli" / "parser.py").read_text()
    for name in ("HOST", "PORT"):
        assert f'os.environ.get("{name}"' in cli
    # WORKERS is read when the server starts, by `serve` alone (decision 0285)
    from tiebreak.cli.serve import workers_of

    assert workers_of(None, {"WORKERS": env["WORKERS"]}) == int(env["WORKERS"])


def test_healthcheck_probes_healthz():
    healthcheck = final("HEALTHCHECK")
    flags, _ = split_flags(healthcheck.args.split(" CMD ")[0])
    assert {"interval", "timeout", "retries"} <= set(flags)
    command = [i for i in [healthcheck] if " CMD " in i.args][0].args.split(" CMD ", 1)[1]
    assert "/healthz" in command


@pytest.mark.server
def test_the_image_command_and_healthcheck_work_against_a_real_server():
    """Run the image's CMD with the image's environment (host narrowed to loopback),
    then the HEALTHCHECK command: it must exit 0; once the server is gone, non-zero."""
    port = free_port()
    env = {**os.environ, **env_of_last_stage(), "HOST": "127.0.0.1", "PORT": str(port), "WORKERS": "2"}
    bin_dir = Path(sys.executable).parent  # the venv's bin, where pip put the `tiebreak` script
    env["PATH"] = f"{bin_dir}:{os.environ['PATH']}"
    entry = final("CMD").exec_form()
    assert (bin_dir / entry[0]).exists(), "the console script the image starts is installed"
    healthcheck = final("HEALTHCHECK").args.split(" CMD ", 1)[1]
    probe = [sys.executable if word == "python" else word for word in __import__("json").loads(healthcheck)]
    server = subprocess.Popen(entry, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        import time

        deadline = time.monotonic() + 30
        while subprocess.run(probe, env=env, capture_output=True).returncode != 0:
            assert server.poll() is None, server.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "the health check never passed"
            time.sleep(0.2)
    finally:
        server.terminate()
        assert server.wait(timeout=30) == 0
    assert subprocess.run(probe, env=env, capture_output=True).returncode != 0
