#!/usr/bin/python3
"""Checks deploy/kubernetes against the server's own flags and defaults, and deploy/ against Docs/Cluster.md.

    /usr/bin/python3 scripts/check-manifests.py [--deploy DIR]

Reads the manifests with PyYAML (Debian's python3-yaml, scripts/install-deps.sh), the options of
Sources/pinhole/Commands/ServeCommand.swift and the drain timeout of ServerConfiguration.swift. Prints one line
per failed check and exits 1, or prints `ok: N checks` and exits 0. --deploy reads the manifests and the nginx
template from another directory (the test suite breaks a copy to see the checker fail).
"""
import glob
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
failures, passed = [], 0


def check(condition, message):
    global passed
    if condition:
        passed += 1
    else:
        failures.append(message)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def quantity_bytes(text):
    """A Kubernetes memory quantity (`768Mi`, `1G`, `805306368`) in bytes."""
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGT]i?|k)?", str(text))
    if not m:
        raise ValueError(f"not a memory quantity: {text}")
    return float(m.group(1)) * units.get(m.group(2) or "", 1)


def cpu_cores(text):
    text = str(text)
    return int(text[:-1]) / 1000 if text.endswith("m") else float(text)


def flag(args, name):
    """The value after `name` in a container's args (`--flag value` or `--flag=value`), or None."""
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return str(args[i + 1])
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def probe_port(probe, container):
    """The port number a probe's httpGet asks for (a name resolved through the container's ports)."""
    port = probe.get("httpGet", {}).get("port")
    if isinstance(port, str) and not port.isdigit():
        return next((p["containerPort"] for p in container.get("ports", []) if p.get("name") == port), None)
    return int(port) if port is not None else None


def main():
    deploy = os.path.join(ROOT, "deploy")
    if len(sys.argv) == 3 and sys.argv[1] == "--deploy":
        deploy = os.path.abspath(sys.argv[2])
    elif len(sys.argv) != 1:
        sys.exit(__doc__)

    serve_swift = read(os.path.join(ROOT, "Sources/pinhole/Commands/ServeCommand.swift"))
    known_flags = set(re.findall(r'\.(?:value|flag)\(\s*"(--[a-z-]+)"', serve_swift))
    configuration = read(os.path.join(ROOT, "Sources/PinholeServer/Service/ServerConfiguration.swift"))
    drain = re.search(r"var drainTimeout: Duration = \.seconds\((\d+)\)", configuration)
    check(drain is not None, "ServerConfiguration.swift: no `drainTimeout: Duration = .seconds(N)` to read")
    drain_seconds = int(drain.group(1)) if drain else 30

    documents = {}
    for path in sorted(glob.glob(os.path.join(deploy, "kubernetes", "*.yaml"))):
        for document in yaml.safe_load_all(read(path)):
            if document:
                documents[(document["kind"], document["metadata"]["name"])] = document
    deployments = [d for (kind, _), d in documents.items() if kind == "Deployment"]
    check(len(deployments) == 1, f"expected one Deployment, found {len(deployments)}")
    if not deployments:
        return
    deployment = deployments[0]
    name = deployment["metadata"]["name"]
    pod = deployment["spec"]["template"]["spec"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    container = next((c for c in pod["containers"] if (c.get("args") or [None])[0] == "serve"), None)
    check(container is not None, "no container runs `pinhole serve` (args starting with `serve`)")
    if container is None:
        return
    args = [str(a) for a in container["args"]]

    # The flags exist, --listen names the port the container exposes and the probes ask for.
    for arg in args:
        if arg.startswith("--"):
            check(arg.split("=")[0] in known_flags, f"args: `{arg}` is not an option of ServeCommand.swift")
    listen = flag(args, "--listen")
    check(listen is not None, "args: no --listen (the default 127.0.0.1 is unreachable from outside the pod)")
    port = int(listen.rsplit(":", 1)[1]) if listen else None
    check(listen is None or not listen.startswith("127."), f"--listen {listen}: loopback, no probe reaches it")
    check(port in [p["containerPort"] for p in container.get("ports", [])],
          f"containerPort: none is the --listen port {port}")
    for kind in ("readinessProbe", "livenessProbe"):
        probe = container.get(kind)
        check(probe is not None, f"{kind}: missing")
        if probe is None:
            continue
        path = probe.get("httpGet", {}).get("path")
        check(path == "/health", f"{kind}: asks for {path}, not /health")
        check(probe_port(probe, container) == port,
              f"{kind}: port {probe.get('httpGet', {}).get('port')} is not the --listen port {port}")
    liveness = container.get("livenessProbe") or {}
    patience = liveness.get("periodSeconds", 10) * liveness.get("failureThreshold", 3)
    check(patience > drain_seconds,
          f"livenessProbe: restarts after {patience} s of 503, within the {drain_seconds} s drain")

    # Memory: the limit leaves headroom over the budget (issue 27: peak RSS <= budget + 64 MB).
    budget = flag(args, "--memory-budget")
    check(budget is not None, "args: no --memory-budget (the limit must be set against it)")
    limits = container.get("resources", {}).get("limits", {})
    requests = container.get("resources", {}).get("requests", {})
    if budget is not None and "memory" in limits:
        limit = quantity_bytes(limits["memory"])
        check(limit >= int(budget) + 64 * 2**20,
              f"resources.limits.memory {limits['memory']} < --memory-budget {budget} + 64 MiB")
    else:
        check(False, "resources.limits.memory: missing")
    if "memory" in requests and "memory" in limits:
        check(quantity_bytes(requests["memory"]) <= quantity_bytes(limits["memory"]),
              "resources: memory request above the limit")
    check("cpu" in requests, "resources.requests.cpu: missing (the HorizontalPodAutoscaler divides by it)")
    concurrency = flag(args, "--concurrency")
    if concurrency is not None and "cpu" in limits:
        check(int(concurrency) <= cpu_cores(limits["cpu"]) * 2,
              f"--concurrency {concurrency} is far above the CPU limit {limits['cpu']}")

    # The cache directory is a mounted volume (the root filesystem may be read-only).
    cache = flag(args, "--cache-dir")
    if cache is not None:
        mounts = [m["mountPath"] for m in container.get("volumeMounts", [])]
        check(cache in mounts, f"--cache-dir {cache} is not a volumeMount ({mounts})")

    # The drain: SIGTERM comes after preStop; the grace period must cover both.
    pre_stop = container.get("lifecycle", {}).get("preStop")
    check(pre_stop is not None, "lifecycle.preStop: missing (endpoints need time to drop the pod before SIGTERM)")
    pre_stop_seconds = 0
    if pre_stop:
        command = pre_stop.get("exec", {}).get("command", [])
        if "sleep" in pre_stop:
            pre_stop_seconds = int(pre_stop["sleep"]["seconds"])
        elif command and command[0].endswith("sleep"):
            pre_stop_seconds = int(command[1])
        else:
            check(False, f"lifecycle.preStop: expected a sleep, found {pre_stop}")
        check(not any("kill" in str(part) or "TERM" in str(part) for part in command),
              "lifecycle.preStop signals the server: the kubelet's SIGTERM would be the second signal (exit 1)")
    grace = pod.get("terminationGracePeriodSeconds", 30)
    check(grace > pre_stop_seconds + drain_seconds,
          f"terminationGracePeriodSeconds {grace} <= preStop {pre_stop_seconds} s + drain {drain_seconds} s")

    # The Service selects the pods and reaches the --listen port.
    services = [d for (kind, _), d in documents.items() if kind == "Service"]
    check(len(services) == 1, f"expected one Service, found {len(services)}")
    for service in services:
        selector = service["spec"].get("selector", {})
        check(selector and all(labels.get(k) == v for k, v in selector.items()),
              f"Service {service['metadata']['name']}: selector {selector} does not match the pods {labels}")
        for p in service["spec"]["ports"]:
            target = p.get("targetPort", p["port"])
            resolved = probe_port({"httpGet": {"port": target}}, container)
            check(resolved == port, f"Service port {p.get('name')}: targetPort {target} is not {port}")

    # The HorizontalPodAutoscaler scales this Deployment on CPU.
    hpas = [d for (kind, _), d in documents.items() if kind == "HorizontalPodAutoscaler"]
    check(len(hpas) == 1, f"expected one HorizontalPodAutoscaler, found {len(hpas)}")
    for hpa in hpas:
        target = hpa["spec"]["scaleTargetRef"]
        check(target.get("kind") == "Deployment" and target.get("name") == name,
              f"HorizontalPodAutoscaler targets {target.get('kind')}/{target.get('name')}, not Deployment/{name}")
        metrics = [m.get("resource", {}).get("name") for m in hpa["spec"].get("metrics", [])]
        check("cpu" in metrics, f"HorizontalPodAutoscaler: no cpu metric ({metrics})")

    # The Ingress hashes on the source part, defined by the controller's http-snippet as in the nginx template.
    ingresses = [d for (kind, _), d in documents.items() if kind == "Ingress"]
    check(len(ingresses) == 1, f"expected one Ingress, found {len(ingresses)}")
    snippets = [d["data"].get("http-snippet", "") for (kind, _), d in documents.items() if kind == "ConfigMap"]
    template = read(os.path.join(deploy, "nginx", "pinhole-cluster.conf"))
    template_map = re.search(r"^map \$request_uri \$(\w+) \{.*?^\}", template, re.S | re.M)
    next_upstream = re.search(r"^\s*proxy_next_upstream ([^;]*);", template, re.M)
    check(next_upstream is not None and "http_502" not in next_upstream.group(1).split(),
          "deploy/nginx/pinhole-cluster.conf: proxy_next_upstream must not retry a 502 (the origin failed)")
    check(template_map is not None, "deploy/nginx/pinhole-cluster.conf: no `map $request_uri $NAME { … }`")
    for ingress in ingresses:
        annotations = ingress["metadata"].get("annotations", {})
        hash_by = annotations.get("nginx.ingress.kubernetes.io/upstream-hash-by")
        check(hash_by is not None, "Ingress: no nginx.ingress.kubernetes.io/upstream-hash-by annotation")
        if hash_by and template_map:
            check(hash_by == "$" + template_map.group(1),
                  f"Ingress hashes by {hash_by}, the template's map defines ${template_map.group(1)}")
            check(any(template_map.group(0) in s for s in snippets),
                  "ConfigMap http-snippet: not the map of deploy/nginx/pinhole-cluster.conf")
        retry = annotations.get("nginx.ingress.kubernetes.io/proxy-next-upstream", "")
        check(all(w in retry.split() for w in ("error", "timeout", "http_503")),
              f"Ingress proxy-next-upstream `{retry}`: a killed or draining pod's requests are not retried")
        check("http_502" not in retry.split(),
              f"Ingress proxy-next-upstream `{retry}`: a 502 says the origin failed; the next pod would ask it again")
        backends = [p["backend"]["service"]["name"] for rule in ingress["spec"]["rules"]
                    for p in rule["http"]["paths"]]
        check(all(b in [s["metadata"]["name"] for s in services] for b in backends),
              f"Ingress backends {backends} are not the Service")

    # One source of truth: Docs/Cluster.md shows every file of deploy/ as it is.
    docs = read(os.path.join(ROOT, "Docs", "Cluster.md"))
    for path in sorted(glob.glob(os.path.join(deploy, "*", "*"))):
        check(read(path).strip() in docs, f"Docs/Cluster.md does not show {os.path.relpath(path, deploy)} as it is")


main()
if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"ok: {passed} checks")
