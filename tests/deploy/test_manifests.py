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

from service.api.limits import ENV as LIMIT_ENV

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
    assert kinds == ["Deployment", "HorizontalPodAutoscaler", "Job", "PodDisruptionBudget", "Service"]


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
    assert set(kustomization["resources"]) == {"deployment.yaml", "service.yaml", "hpa.yaml", "pdb.yaml"}


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
    known = set(LIMIT_ENV.values()) | {"TIEBREAK_GRACEFUL_TIMEOUT_S", "TIEBREAK_CORS_ORIGINS", "TIEBREAK_API_KEYS"}
    assert {n for n in env if n.startswith("TIEBREAK_")} <= known
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_service_hpa_and_pdb_point_at_the_deployment():
    deployment = by_kind("Deployment")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    service = by_kind("Service")
    assert service["spec"]["selector"].items() <= labels.items()
    assert service["spec"]["ports"][0]["targetPort"] == "http"
    hpa = by_kind("HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment",
                                             "name": deployment["metadata"]["name"]}
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
