"""The runtime-endpoint operand class (agentbus.guards.runtime_endpoints): what it finds, in linear time."""

from __future__ import annotations

from linearity import cost_ratio

from agentbus.guards.runtime_endpoints import (
    READS,
    RUNS,
    engine_sockets,
    host_socket,
    kubelet_call,
    unusual_socket,
)


def test_sockets_are_found_in_every_spelling() -> None:
    text = "-H unix:///hostfs/run/docker.sock -v /var/run/docker.sock:/s UNIX-CONNECT:/run/crio/crio.sock"
    assert engine_sockets(text) == ["/hostfs/run/docker.sock", "/var/run/docker.sock", "/run/crio/crio.sock"]
    assert engine_sockets("--address=$NODE_ROOT/run/containerd/containerd.sock") == [
        "$NODE_ROOT/run/containerd/containerd.sock"
    ]
    assert engine_sockets("/tmp/mydocker.sock /run/app.sock") == []


def test_where_a_socket_lies() -> None:
    assert host_socket("/host/run/docker.sock")
    assert host_socket("/proc/1/root/run/docker.sock")
    assert not host_socket("/var/run/docker.sock")
    assert unusual_socket("/custom/docker/docker.sock")
    assert not unusual_socket("/run/user/1000/podman/podman.sock")
    assert not unusual_socket("/home/dev/.colima/default/docker.sock")


def test_kubelet_calls() -> None:
    assert kubelet_call("https://10.0.0.2:10250/run/ns/pod/c") == RUNS
    assert kubelet_call("/api/v1/nodes/n1/proxy/exec/ns/pod/c?command=id") == RUNS
    assert kubelet_call("https://$NODE:10250/pods/") == READS
    assert kubelet_call("https://10.0.0.2:10250/metrics") is None
    assert kubelet_call("/api/v1/nodes/n1/proxy/configz") is None
    assert kubelet_call("https://example.com/run/x") is None


def test_the_scans_are_linear() -> None:
    for unit in ("/a/a/a" + ".sock ", "//////.sock", "unix://" * 3 + "/x:"):
        assert cost_ratio(engine_sockets, unit * 2000, unit * 20000) < 40
    for unit in ("/api/v1/nodes/x:10250", "a:10250/" * 3):
        assert cost_ratio(kubelet_call, unit * 2000, unit * 20000) < 40
