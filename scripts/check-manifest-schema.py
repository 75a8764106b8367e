"""Checks deploy/kubernetes against Kubernetes' own API types, as `kubectl apply --validate=strict` would first.

    VENV_PYTHON scripts/check-manifest-schema.py [--deploy DIR]

VENV_PYTHON is the python3 of scripts/bench-venv.sh, which has the official Kubernetes Python client from PyPI
(`kubernetes`): its generated models (pydantic) carry every API type's fields, their types, which of them are
required, and forbid any other. Each document is validated strictly by the model of its apiVersion and kind: a
field the type does not have, a value of the wrong type or a missing required field is a failure. Prints one line
per failure and exits 1, or prints `ok: N documents` and exits 0. The manifests are not
applied: there is no cluster here (scripts/check-manifests.py checks them against the server's flags).
"""
import glob
import os
import sys

import kubernetes
import pydantic
import yaml
from kubernetes.client import models

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = {
    ("apps/v1", "Deployment"): "V1Deployment",
    ("v1", "Service"): "V1Service",
    ("v1", "ConfigMap"): "V1ConfigMap",
    ("networking.k8s.io/v1", "Ingress"): "V1Ingress",
    ("autoscaling/v2", "HorizontalPodAutoscaler"): "V2HorizontalPodAutoscaler",
}
failures = []


def validate(document, model, where):
    """The client's model of the document's type validates it strictly: no field it does not have (`extra` is
    forbidden), every required one, each value of its type (no "1" for 1) and in its allowed set."""
    try:
        model.model_validate(document, strict=True)
    except pydantic.ValidationError as error:
        for item in error.errors():
            field = ".".join(str(part) for part in item["loc"])
            failures.append(f"{where}: {field}: {item['msg']} ({item['type']})")


def main():
    deploy = os.path.join(ROOT, "deploy")
    if len(sys.argv) == 3 and sys.argv[1] == "--deploy":
        deploy = sys.argv[2]
    documents = 0
    for path in sorted(glob.glob(os.path.join(deploy, "kubernetes", "*.yaml"))):
        name = os.path.relpath(path, deploy)
        with open(path, encoding="utf-8") as f:
            try:
                parsed = list(yaml.safe_load_all(f))
            except yaml.YAMLError as error:
                failures.append(f"{name}: not YAML: {' '.join(str(error).split())}")
                continue
            for index, document in enumerate(parsed):
                if document is None:
                    continue
                documents += 1
                kind = (document.get("apiVersion"), document.get("kind"))
                if kind not in KINDS:
                    failures.append(f"{name}#{index}: no API type known here for {kind[0]} {kind[1]}")
                    continue
                validate(document, getattr(models, KINDS[kind]), f"{name}#{index}")
    if documents == 0:
        failures.append(f"no manifest under {deploy}/kubernetes")
    for failure in failures:
        print(failure)
    if failures:
        sys.exit(1)
    print(f"ok: {documents} documents (Kubernetes Python client {kubernetes.__version__})")


main()
