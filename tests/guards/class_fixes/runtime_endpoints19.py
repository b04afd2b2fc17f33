"""Container and orchestrator escapes judged by what they reach (helper escape19).

First sight was measured on commands taken from DataDog/KubeHound's attack pages (Apache-2.0), the
appsecco "attacking and auditing Docker containers and Kubernetes clusters" training and the helper's own
variants of the brief's classes, kept outside the repository (/work/realworld/escape19 on the machine
that measured them). The commands here are variants written for the tests:

- a container engine's socket under the host's root as a container was given it (``/host``, ``/hostfs``,
  ``/host-run``, ``$NODE_ROOT``, ``/proc/1/root``), named by any program but one that only looks at the
  file: an engine client's ``-H``/``--address``/``--runtime-endpoint``, ``DOCKER_HOST``, a client's
  configuration written with it; a runtime's ``--root``/``--config`` there;
- an engine socket where none is kept, driven to change something (asked; a look stays allowed);
  raw requests to an engine socket (``socat``, ``nc -U``: asked); a command run in a container of the
  node's own runtime (``ctr task exec``, ``runc exec``: asked; ``crictl exec`` too since cloudmac23);
- a kubelet (port 10250/10255, the API server's node proxy) told to run a command in a pod (blocked) or
  to give up its pods and logs (asked); ``kubeletctl``'s verbs alike; health, metrics, stats, configz
  stay allowed;
- a kernel hook by its file name in any directory (``/sysproc/core_pattern`` after ``cd``), a system
  directory of the host under its own name (``/host-etc/cron.d``), a node's pod volumes searched for
  tokens, impersonating ``system:masters``, a privileged pod fed to ``kubectl apply -f -`` by a pipe;
- (after the held-out part was measured: kubelet/engine-API notes of other authors, GameOver(lay) notes,
  a hotplug PoC, KubeShadow's labs) an engine API body asking for a container with the host's root or
  privileges, through any socket or address (a socket in a variable, the local TCP port).
"""

from __future__ import annotations

HELD = {
    "host engine socket": [
        "docker --host unix:///hostfs/var/run/docker.sock exec -it web sh",
        "env DOCKER_HOST=unix:///host/var/run/docker.sock docker images",
        "export CONTAINER_HOST=unix:///host-run/podman/podman.sock",
        "nerdctl -a /proc/1/root/run/containerd/containerd.sock ps",
        "printf 'runtime-endpoint: unix:///host/run/crio/crio.sock\\n' > ~/.crictl.yaml",
        "crun --root /hostfs/run/crun list",
        "curl -s --unix-socket $NODE_ROOT/run/docker.sock http://x/info",
    ],
    "engine socket elsewhere": [
        "docker -H unix:///srv/sock/docker.sock run --rm -it alpine sh",
        "printf 'GET /containers/json HTTP/1.0\\r\\n\\r\\n' | nc -U /var/run/docker.sock",
        "socat - UNIX-CONNECT:/run/containerd/containerd.sock",
        "ctr --namespace k8s.io t exec --exec-id dbg abc123 sh",
        "runc exec -t 9f2c sh",
    ],
    "kubelet": [
        "curl -ks -X POST 'https://192.168.49.2:10250/exec/kube-system/coredns-1/coredns?command=id&output=1'",
        "wget --no-check-certificate --post-data 'cmd=id' https://node-2:10250/run/prod/api-0/api -O-",
        "kubectl get --raw /api/v1/nodes/worker-1/proxy/runningpods/",
        "http --verify=no https://10.1.2.3:10250/containerLogs/kube-system/etcd-m/etcd",
        "kubeletctl runningpods -s 10.1.2.3",
        "kubeletctl attach -p api-0 -c api -n prod -s 10.1.2.3",
    ],
    "host by name": [
        "cd /host_proc/sys/kernel && echo '|/tmp/x' > core_pattern",
        "tee /host-etc/sudoers.d/zz <<< 'dev ALL=(ALL) NOPASSWD: ALL'",
        "find /node/var/lib/kubelet/pods -name 'token' -print",
        "kubectl get secrets -A --as=x --as-group=system:masters",
        'echo \'{"spec":{"hostPID":true}}\' | kubectl create -f -',
    ],
    "engine API body": [
        'ID=$(curl -s --unix-socket "$S" -H "Content-Type: application/json" '
        """-d '{"Image":"busybox","HostConfig":{"Binds":["/etc:/x"]}}' http://v/containers/create)""",
        "curl -sXPOST localhost:2375/containers/create "
        """-d '{"Image":"a","HostConfig":{"PidMode":"host"}}'""",
        """wget -qO- --post-data '{"Image":"a","Privileged":true}' """
        "http://127.0.0.1:2375/v1.43/containers/create",
    ],
}

ALLOWED = [
    "docker -H unix:///var/run/docker.sock ps",
    "export DOCKER_HOST=unix://$HOME/.rd/docker.sock",
    "crictl --runtime-endpoint unix:///var/run/crio/crio.sock ps",
    "docker -H unix:///srv/sock/docker.sock images",
    "ls -l /host/run/docker.sock",
    "curl -sk https://10.1.2.3:10250/healthz",
    "kubectl get --raw /api/v1/nodes/worker-1/proxy/stats/summary",
    "kubectl get --raw /api/v1/nodes/worker-1/proxy/configz",
    "ctr -n k8s.io containers ls",
    "crictl inspect 9f2c",
    "podman --url ssh://me@box/run/podman/podman.sock ps",
    "kubectl auth can-i get pods --as=system:serviceaccount:dev:builder",
    "kubectl get pods -o wide",
    "echo 'apiVersion: v1\nkind: ConfigMap' | kubectl apply -f -",
    "find . -name token.go",
    "curl -s localhost:2375/containers/json",
]
