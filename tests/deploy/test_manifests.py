"""deploy/: the Kubernetes manifests against the official schemas, and what they must say.

kubernetes-validate carries the Kubernetes JSON schemas, so this runs offline.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from tiebreak.compute.gate import WORKER_MEMORY_HEADROOM
from tiebreak.wire.limits import ENV as LIMIT_ENV
from tiebreak.http.server import SERVER_ENV

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "kubernetes"
# The oldest version the manifests are for (preStop `sleep`, backoffLimitPerIndex) and the newest packaged.
VERSIONS = ["1.33.0", "1.37.0"]


def documents() -> dict[str, dict]:
    found = {}
    for path in sorted(K8S.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc and not doc["apiVersion"].startswith("kustomize"):
                found[f"{doc['kind']}/{doc['metadata']['name']}"] = doc
    return found


DOCS = documents()


def by_kind(kind: str) -> dict:
    [doc] = [d for d in DOCS.values() if d["kind"] == kind]
    return doc


def test_every_kind_the_issue_asks_for_is_there():
    kinds = sorted(d["kind"] for d in DOCS.values())
    assert kinds == [
        "ConfigMap",
        "Deployment",
        "HorizontalPodAutoscaler",
        "Ingress",
        "Job",
        "PodDisruptionBudget",
        "Service",
    ]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", sorted(DOCS))
def test_manifest_is_valid_against_the_kubernetes_schema(name, version):
    kubernetes_validate.validate(DOCS[name], version, strict=True)


def test_the_validator_does_reject_a_broken_manifest():
    broken = copy.deepcopy(by_kind("Deployment"))
    broken["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["httpGet"]["paht"] = "/healthz"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, VERSIONS[-1], strict=True)
    broken = copy.deepcopy(by_kind("Deployment"))
    broken["spec"]["replicas"] = "two"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, VERSIONS[-1], strict=True)


def test_kustomization_lists_every_service_manifest():
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    for resource in kustomization["resources"]:
        assert (K8S / resource).exists()
    assert set(kustomization["resources"]) == {
        "deployment.yaml",
        "service.yaml",
        "hpa.yaml",
        "pdb.yaml",
        "ingress.yaml",
    }


def container(doc: dict) -> dict:
    [c] = doc["spec"]["template"]["spec"]["containers"]
    return c


def test_deployment_probes_resources_security_and_termination():
    deployment = by_kind("Deployment")
    pod = deployment["spec"]["template"]["spec"]
    c = container(deployment)
    port = next(p for p in c["ports"] if p["name"] == "http")
    env = {e["name"]: e.get("value") for e in c["env"]}
    assert str(port["containerPort"]) == env["PORT"]
    assert c["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert c["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert {"cpu", "memory"} <= set(c["resources"]["requests"]) and {"cpu", "memory"} <= set(c["resources"]["limits"])
    assert c["securityContext"]["readOnlyRootFilesystem"] is True
    assert c["securityContext"]["allowPrivilegeEscalation"] is False
    assert c["securityContext"]["capabilities"]["drop"] == ["ALL"]
    assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] >= 1000
    # a writable /tmp on the read-only root filesystem
    assert any(m["mountPath"] == "/tmp" for m in c["volumeMounts"])
    # graceful: preStop pause + uvicorn's drain both fit in the grace period
    grace = pod["terminationGracePeriodSeconds"]
    assert c["lifecycle"]["preStop"]["sleep"]["seconds"] + int(env["TIEBREAK_GRACEFUL_TIMEOUT_S"]) < grace
    # one worker per pod: the HPA scales pods, and every scrape of /metrics sees the whole process
    assert env["WORKERS"] == "1"
    assert c["args"] == ["tiebreak", "serve"]
    # every TIEBREAK_ variable it sets is one the service reads
    known = set(LIMIT_ENV.values()) | set(SERVER_ENV) | {"TIEBREAK_CORS_ORIGINS", "TIEBREAK_API_KEYS"}
    assert {n for n in env if n.startswith("TIEBREAK_")} <= known
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_service_hpa_and_pdb_point_at_the_deployment():
    deployment = by_kind("Deployment")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    service = by_kind("Service")
    assert service["spec"]["selector"].items() <= labels.items()
    assert service["spec"]["ports"][0]["targetPort"] == "http"
    hpa = by_kind("HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": deployment["metadata"]["name"],
    }
    assert 2 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
    pdb = by_kind("PodDisruptionBudget")
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert pdb["spec"]["minAvailable"] < hpa["spec"]["minReplicas"], "a drain can always evict one pod"


def test_rerank_job_is_indexed_one_shard_per_index_with_tiebreak_batch():
    job = by_kind("Job")
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed"
    assert spec["parallelism"] <= spec["completions"]
    c = container(job)
    script = " ".join(c.get("command", []) + c.get("args", []))
    assert re.search(r"tiebreak batch /archive/shard-\$\{JOB_COMPLETION_INDEX\}/", script)
    assert re.search(r"--out /results/shard-\$\{JOB_COMPLETION_INDEX\}\.ndjson", script)
    assert " -t " in script and "--jobs" in script
    assert c["securityContext"]["readOnlyRootFilesystem"] is True
    mounts = {m["mountPath"]: m for m in c["volumeMounts"]}
    assert mounts["/archive"]["readOnly"] is True and "/results" in mounts
    assert job["spec"]["template"]["spec"]["restartPolicy"] == "Never"


def env_of(doc: dict) -> dict[str, str]:
    return {e["name"]: e.get("value") for e in container(doc)["env"]}


def nginx_size(text: str) -> int:
    """ingress-nginx sizes: 32m, 8k, 1024."""
    units = {"k": 1024, "m": 1024**2, "g": 1024**3}
    text = text.strip().lower()
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


def test_ingress_reaches_only_the_public_port_with_bounds_that_fit_the_service():
    ingress, service, deployment = by_kind("Ingress"), by_kind("Service"), by_kind("Deployment")
    env = env_of(deployment)
    [rule] = ingress["spec"]["rules"]
    [path] = rule["http"]["paths"]
    assert path["backend"]["service"] == {"name": service["metadata"]["name"], "port": {"name": "http"}}
    notes = ingress["metadata"]["annotations"]
    prefix = "nginx.ingress.kubernetes.io/"
    # the proxy refuses what the service would refuse anyway, before it reaches a pod
    assert nginx_size(notes[prefix + "proxy-body-size"]) == int(env["TIEBREAK_MAX_BODY_BYTES"])
    assert notes[prefix + "proxy-request-buffering"] == "on"
    # a computation answered at the deadline still reaches the client
    assert int(notes[prefix + "proxy-read-timeout"]) > float(env["TIEBREAK_COMPUTE_DEADLINE_S"])
    assert int(notes[prefix + "limit-connections"]) > 0 and int(notes[prefix + "limit-rps"]) > 0
    # the Service exposes the public port only; metrics and docs stay on the admin port
    assert [p["targetPort"] for p in service["spec"]["ports"]] == ["http"]


def test_ingress_controller_settings_are_stricter_than_the_service():
    config, deployment = by_kind("ConfigMap")["data"], by_kind("Deployment")
    env = env_of(deployment)
    count, size = config["large-client-header-buffers"].split()
    assert int(count) * nginx_size(size) <= int(env["TIEBREAK_MAX_HEADER_BYTES"])
    assert int(config["client-header-timeout"]) <= float(env["TIEBREAK_HEADER_TIMEOUT_S"])
    assert int(config["client-body-timeout"]) <= float(env["TIEBREAK_BODY_TIMEOUT_S"])
    # the proxy closes idle upstream connections before the pod does (no request on a closing socket)
    assert int(config["upstream-keepalive-timeout"]) < float(env["TIEBREAK_KEEPALIVE_TIMEOUT_S"])
    assert int(config["keep-alive"]) > 0


def test_metrics_are_scraped_on_the_admin_port_and_readiness_follows_saturation():
    deployment = by_kind("Deployment")
    c, env = container(deployment), env_of(deployment)
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert ports["admin"] == int(env["TIEBREAK_ADMIN_PORT"]) != ports["http"]
    notes = deployment["spec"]["template"]["metadata"]["annotations"]
    assert notes["prometheus.io/port"] == str(ports["admin"]) and notes["prometheus.io/path"] == "/metrics"
    readiness = c["readinessProbe"]
    assert readiness["httpGet"] == {"path": "/readyz", "port": "http"}
    assert readiness["periodSeconds"] * readiness["failureThreshold"] <= 5, "a saturated pod leaves the Service fast"
    assert c["livenessProbe"]["timeoutSeconds"] >= 1


def test_the_pod_memory_limit_holds_the_compute_workers_and_the_bodies_in_flight():
    deployment = by_kind("Deployment")
    env = env_of(deployment)
    limit = nginx_size(container(deployment)["resources"]["limits"]["memory"].replace("Gi", "g").replace("Mi", "m"))
    workers = int(env["TIEBREAK_COMPUTE_WORKERS"]) * int(env["TIEBREAK_MAX_MEMORY_MIB"]) * WORKER_MEMORY_HEADROOM
    bodies = 2 * int(env["TIEBREAK_MAX_IN_FLIGHT_BODY_BYTES"]) / 2**20  # a body, and its copy sent to a worker
    server = 150  # MiB: the uvicorn process itself (measured about 80-100 MiB)
    assert workers + bodies + server <= limit / 2**20


def test_rerank_job_has_an_overall_deadline_and_retry_limit():
    spec = by_kind("Job")["spec"]
    assert 0 < spec["activeDeadlineSeconds"] <= 24 * 3600
    assert 0 < spec["backoffLimit"] and 0 < spec["backoffLimitPerIndex"] <= spec["backoffLimit"]


def test_compose_file_for_one_host():
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    [(name, service)] = compose["services"].items()
    build = service["build"]
    assert (ROOT / "deploy" / build["context"] / build["dockerfile"]).resolve() == ROOT / "Dockerfile"
    assert service["command"] == ["tiebreak", "serve"]
    env = service["environment"]
    assert int(env["WORKERS"]) > 1 and env["PROMETHEUS_MULTIPROC_DIR"].startswith("/tmp")
    assert "/tmp" in service["tmpfs"] and service["read_only"] is True
    assert service["ports"][0].startswith("127.0.0.1:") and service["ports"][0].endswith(":" + env["PORT"])
    assert "/healthz" in " ".join(service["healthcheck"]["test"])
    assert service["user"].split(":")[0] != "0"
