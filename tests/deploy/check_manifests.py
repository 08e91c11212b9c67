#!/usr/bin/env python3
"""Checks deploy/kubernetes/*.yaml for the fields that matter: each document a known kind with its
apiVersion; Deployments whose selector matches their pods, whose containers run exocheck binaries
with flags those binaries have (from their --help), mutual TLS and the token, volumes for every
mount, and a locked-down security context; the agents pointed at the coordinator's Service, whose
selector and ports match the coordinator's pods.  Usage: check_manifests.py BIN_DIR FILE..."""
import subprocess
import sys

import yaml

KINDS = {"Deployment": "apps/v1", "Service": "v1", "PersistentVolumeClaim": "v1", "Secret": "v1"}
problems = []


def problem(where, text):
    problems.append(f"{where}: {text}")


def flags_of(bin_dir, program):
    help_text = subprocess.run([f"{bin_dir}/{program}", "--help"], capture_output=True, text=True, check=True).stdout
    return {word.strip(",[]=") for word in help_text.split() if word.startswith("--")}


def check_deployment(where, doc, bin_dir):
    spec = doc["spec"]
    pod = spec["template"]
    selector = spec["selector"]["matchLabels"]
    labels = pod["metadata"]["labels"]
    if any(labels.get(key) != value for key, value in selector.items()):
        problem(where, f"selector {selector} does not match the pod's labels {labels}")
    pod_security = pod["spec"].get("securityContext", {})
    if pod_security.get("runAsNonRoot") is not True:
        problem(where, "pods must run as non-root")
    volumes = {volume["name"] for volume in pod["spec"].get("volumes", [])}
    containers = []
    for container in pod["spec"]["containers"]:
        args = container["args"]
        program = args[0]
        if program not in ("exocheck-coordinator", "exocheck-agent"):
            problem(where, f"runs {program}, not an exocheck daemon")
            continue
        known = flags_of(bin_dir, program)
        for arg in args[1:]:
            flag = arg.split("=", 1)[0]
            if flag not in known:
                problem(where, f"{program} has no flag {flag}")
        given = {arg.split("=", 1)[0] for arg in args[1:]}
        for needed in ("--tls-cert", "--tls-key", "--tls-ca", "--token-file"):
            if needed not in given:
                problem(where, f"{program} without {needed}")
        security = container.get("securityContext", {})
        if security.get("allowPrivilegeEscalation") is not False or security.get("readOnlyRootFilesystem") is not True:
            problem(where, "containers must not escalate privileges and must have a read-only root")
        mounts = {mount["name"]: mount["mountPath"] for mount in container.get("volumeMounts", [])}
        for name in mounts:
            if name not in volumes:
                problem(where, f"mount {name} has no volume")
        for arg in args[1:]:
            if arg.startswith(("--tls-", "--token-file=", "--subjects-dir=", "--state-dir=")):
                path = arg.split("=", 1)[1]
                if not any(path == folder or path.startswith(folder.rstrip("/") + "/") for folder in mounts.values()):
                    problem(where, f"{arg}: no volume is mounted there")
        containers.append((program, args, container))
    return containers


def main():
    bin_dir, files = sys.argv[1], sys.argv[2:]
    services, daemons = [], []
    for file in files:
        for index, doc in enumerate(yaml.safe_load_all(open(file))):
            where = f"{file}#{index}"
            kind = doc.get("kind")
            if KINDS.get(kind) != doc.get("apiVersion"):
                problem(where, f"kind {kind} with apiVersion {doc.get('apiVersion')}")
                continue
            if kind == "Deployment":
                for program, args, container in check_deployment(where, doc, bin_dir):
                    daemons.append((where, program, args, container, doc))
            elif kind == "Service":
                services.append((where, doc))
    coordinators = [d for d in daemons if d[1] == "exocheck-coordinator"]
    agents = [d for d in daemons if d[1] == "exocheck-agent"]
    if len(coordinators) != 1 or not agents:
        problem("manifests", f"{len(coordinators)} coordinators and {len(agents)} agent deployments")
    for where, _, args, container, doc in coordinators:
        if doc["spec"]["replicas"] != 1 or doc["spec"].get("strategy", {}).get("type") != "Recreate":
            problem(where, "one coordinator at a time: replicas 1, strategy Recreate")
        if not any(arg.startswith("--state-dir=") for arg in args):
            problem(where, "the coordinator keeps no journal (--state-dir)")
        ports = {port["name"]: port["containerPort"] for port in container["ports"]}
        listen_port = int(next(arg for arg in args if arg.startswith("--listen=")).rsplit(":", 1)[1])
        labels = doc["spec"]["template"]["metadata"]["labels"]
        service = next((s for s in services if all(labels.get(k) == v for k, v in s[1]["spec"]["selector"].items())), None)
        if service is None:
            problem(where, "no Service selects the coordinator")
            continue
        service_ports = {port["port"]: port["targetPort"] for port in service[1]["spec"]["ports"]}
        for port, target in service_ports.items():
            if target not in ports:
                problem(service[0], f"port {port} targets {target}, which the coordinator does not expose")
        if ports.get("grpc") != listen_port:
            problem(where, f"--listen port {listen_port} is not the grpc port {ports.get('grpc')}")
        address = f"{service[1]['metadata']['name']}:{next(p for p, t in service_ports.items() if t == 'grpc')}"
        for agent_where, _, agent_args, _, _ in agents:
            if f"--coordinator={address}" not in agent_args:
                problem(agent_where, f"agents must reach the coordinator's Service at {address}")
            if not any(arg.startswith("--subjects-dir=") for arg in agent_args):
                problem(agent_where, "agents must be told which subjects they run (--subjects-dir)")
    for line in problems:
        print(line)
    print(f"{len(files)} files, {len(daemons)} daemons, {len(services)} services: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
