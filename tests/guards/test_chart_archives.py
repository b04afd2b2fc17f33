"""Packaged Helm charts (``helm install x ./chart.tgz``): judged by the templates inside the archive,
which is read as hostile input (bounded, never unpacked to disk)."""

from __future__ import annotations

import gzip
import io
import tarfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentbus.guards import chart_archives
from agentbus.guards.chart_archives import PackagedChart, unpack_chart
from agentbus.guards.policy import Policy
from agentbus.guards.script_files import check_script_files
from agentbus.guards.verdict import PRIVILEGE, UNJUDGED_SCRIPT, Verdict

pytestmark = pytest.mark.anyio

HOME = "/home/user"
CHART = "apiVersion: v2\nname: web\nversion: 1.0.0\n"
DEPLOYMENT = (
    "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n"
    '      containers:\n        - name: web\n          image: "{{ .Values.image }}"\n'
)
ROOT_MOUNT = (
    "kind: DaemonSet\nspec:\n  template:\n    spec:\n"
    "      volumes:\n        - hostPath:\n            path: /\n"
)


def packed(files: dict[str, bytes | str], *, form: int = tarfile.PAX_FORMAT) -> bytes:
    """A gzip tar holding ``files`` (name -> content), as ``helm package`` makes one."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=form) as archive:
        for name, content in files.items():
            data = content.encode() if isinstance(content, str) else content
            member = tarfile.TarInfo(name)
            member.size = len(data)
            archive.addfile(member, io.BytesIO(data))
    return gzip.compress(raw.getvalue())


def chart(template: str = DEPLOYMENT, **more: bytes | str) -> bytes:
    return packed({"web/Chart.yaml": CHART, "web/values.yaml": "image: nginx\n",
                   "web/templates/deploy.yaml": template, **more})  # fmt: skip


def judged(command: str, project: Path, **options: object) -> Verdict | None:
    return check_script_files(command, cwd=str(project), home=HOME, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "command",
    [
        "helm install web ./web-1.0.0.tgz",
        "helm upgrade --install web web-1.0.0.tgz -n prod",
        "helm template ./web-1.0.0.tgz | kubectl apply -f -",
    ],
)
def test_a_packaged_chart_is_judged_by_its_templates(tmp_path: Path, command: str) -> None:
    (tmp_path / "web-1.0.0.tgz").write_bytes(chart(ROOT_MOUNT))
    verdict = judged(command, tmp_path)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (PRIVILEGE, "block"), verdict.reason
    assert "hostPath /" in verdict.reason
    (tmp_path / "web-1.0.0.tgz").write_bytes(chart())
    assert judged(command, tmp_path) is None  # an ordinary chart, read from its archive, passes


def test_values_and_set_apply_to_a_packaged_chart(tmp_path: Path) -> None:
    (tmp_path / "web.tgz").write_bytes(chart(**{"web/values.yaml": "securityContext: {privileged: true}\n"}))
    assert judged("helm install web ./web.tgz", tmp_path) is not None
    (tmp_path / "web.tgz").write_bytes(chart())
    verdict = judged("helm install web ./web.tgz --set hostNetwork=true", tmp_path)
    assert verdict is not None
    assert verdict.category == PRIVILEGE
    held = judged(
        "helm install web ./web.tgz --set hostNetwork=true",
        tmp_path,
        policy=Policy(verdicts={PRIVILEGE: "ask"}),
    )
    assert held is not None
    assert held.decision == "ask"


def test_subcharts_inside_the_archive_are_judged(tmp_path: Path) -> None:
    agent = packed({"agent/Chart.yaml": CHART, "agent/templates/ds.yaml": ROOT_MOUNT})
    (tmp_path / "web.tgz").write_bytes(chart(**{"web/charts/agent-1.0.tgz": agent}))
    verdict = judged("helm install web ./web.tgz", tmp_path)
    assert verdict is not None
    assert verdict.category == PRIVILEGE
    (tmp_path / "web.tgz").write_bytes(chart(**{"web/charts/agent/templates/ds.yaml": ROOT_MOUNT}))
    assert judged("helm install web ./web.tgz", tmp_path) is not None
    # A packaged subchart in a chart directory is read too.
    (tmp_path / "dir" / "charts").mkdir(parents=True)
    (tmp_path / "dir" / "Chart.yaml").write_text(CHART)
    (tmp_path / "dir" / "charts" / "agent-1.0.tgz").write_bytes(agent)
    verdict = judged("helm install web ./dir", tmp_path)
    assert verdict is not None
    assert verdict.category == PRIVILEGE


@pytest.mark.parametrize("form", [tarfile.PAX_FORMAT, tarfile.GNU_FORMAT, tarfile.USTAR_FORMAT])
def test_long_names_are_read_in_every_tar_format(form: int) -> None:
    name = "web/templates/" + "deep/" * 30 + "ds.yaml"  # past ustar's 100-byte name
    if form == tarfile.USTAR_FORMAT:
        name = "web/templates/" + "d/" * 40 + "ds.yaml"  # ustar keeps long names in its prefix field
    found = unpack_chart(packed({"web/Chart.yaml": CHART, name: ROOT_MOUNT}, form=form))
    assert found.problem == ""
    assert [text for _, text in found.templates] == [ROOT_MOUNT]


def test_a_template_in_a_second_gzip_member_is_read() -> None:
    """helm reads concatenated gzip members as one stream: so does the guard."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as archive:
        for name, text in (("web/Chart.yaml", CHART), ("web/templates/ds.yaml", ROOT_MOUNT)):
            member = tarfile.TarInfo(name)
            member.size = len(text)
            archive.addfile(member, io.BytesIO(text.encode()))
    data = raw.getvalue()
    split = gzip.compress(data[:512]) + gzip.compress(data[512:])
    assert [text for _, text in unpack_chart(split).templates] == [ROOT_MOUNT]


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"\x1f\x8b", "cut short"),
        (b"plain text", "not a gzip"),
        (gzip.compress(b"\0" * (chart_archives.MAX_UNPACKED + 1024)), "inflates past"),
        (gzip.compress(b"x" * 2048), "damaged"),
        (packed({"a/Chart.yaml": CHART, "b/Chart.yaml": CHART}), "one chart directory"),
        (packed({"web/templates/x.yaml": "a" * (600 * 1024)}), "larger than"),
        (packed({"web/templates/x.yaml": b"\0\1"}), "not text"),
    ],
)
def test_an_archive_that_cannot_be_read_is_asked(tmp_path: Path, data: bytes, says: str) -> None:
    assert says in unpack_chart(data).problem
    (tmp_path / "web.tgz").write_bytes(data)
    verdict = judged("helm install web ./web.tgz", tmp_path)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (UNJUDGED_SCRIPT, "ask"), verdict.reason
    assert says in verdict.reason


def test_a_bomb_of_nested_archives_stops_at_one_budget() -> None:
    """Each nested archive inflates from what is left of the same budget."""
    zeros = packed({"z/Chart.yaml": CHART, "z/big": b"\0" * (chart_archives.MAX_UNPACKED // 2 + 1024)})
    inner = {f"web/charts/z{i}.tgz": zeros for i in range(3)}
    assert "inflates past" in unpack_chart(packed({"web/Chart.yaml": CHART, **inner})).problem


def test_a_large_archive_file_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "web.tgz").write_bytes(b"\0" * (chart_archives.MAX_ARCHIVE + 1))
    assert "larger than" in chart_archives.read_chart_archive(str(tmp_path / "web.tgz")).problem
    assert "not a regular file" in chart_archives.read_chart_archive(str(tmp_path)).problem


@settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2048), st.integers(min_value=0, max_value=4096), st.binary(max_size=16))
def test_any_bytes_and_any_damaged_archive_read_without_error(noise: bytes, at: int, patch: bytes) -> None:
    assert isinstance(unpack_chart(noise), PackagedChart)
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as archive:
        member = tarfile.TarInfo("web/templates/" + "x" * 120 + ".yaml")
        member.size = len(ROOT_MOUNT)
        archive.addfile(member, io.BytesIO(ROOT_MOUNT.encode()))
    data = raw.getvalue()
    at %= len(data)
    damaged = data[:at] + patch + data[at + len(patch) :]
    found = unpack_chart(gzip.compress(damaged))
    assert isinstance(found, PackagedChart)
    assert found.problem or all(isinstance(text, str) for _, text in found.templates)


def entry(name: str, data: bytes, kind: bytes = tarfile.REGTYPE, size: int | None = None) -> bytes:
    """One tar entry written by hand (its header's size may lie: ``size``)."""
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = len(data) if size is None else size
    return info.tobuf(format=tarfile.USTAR_FORMAT) + data + b"\0" * (-len(data) % 512)


def pax(**records: str) -> bytes:
    body = b""
    for key, value in records.items():
        record = f" {key}={value}\n".encode()
        length = len(record) + len(str(len(record)))
        length += len(str(length)) - len(str(len(record)))
        body += str(length).encode() + record
    return entry("PaxHeaders/x", body, tarfile.XHDTYPE)


def test_names_and_sizes_are_read_as_helms_tar_reader_reads_them() -> None:
    """A pax ``size`` overrides the header's, a pax ``path`` its name, and a newline inside a pax value
    is no record of its own (tar reads records by their lengths)."""
    chart_yaml = entry("web/Chart.yaml", CHART.encode())
    sized = pax(size=str(len(ROOT_MOUNT))) + entry("web/templates/ds.yaml", ROOT_MOUNT.encode(), size=0)
    found = unpack_chart(gzip.compress(chart_yaml + sized + bytes(1024)))
    assert [text for _, text in found.templates] == [ROOT_MOUNT]
    renamed = pax(path="web/templates/ds.yaml", comment="x\n20 path=web/README\n") + entry(
        "web/README", ROOT_MOUNT.encode()
    )
    found = unpack_chart(gzip.compress(chart_yaml + renamed + bytes(1024)))
    assert found.problem == ""
    assert [text for _, text in found.templates] == [ROOT_MOUNT]


def test_a_path_helm_cleans_into_templates_is_a_template() -> None:
    found = unpack_chart(chart(**{"web/docs/../templates/ds.yaml": ROOT_MOUNT}))
    assert ROOT_MOUNT in [text for _, text in found.templates]
    assert "outside its chart directory" in unpack_chart(chart(**{"web/../../etc/x.yaml": "a"})).problem


def test_an_entry_of_a_kind_no_chart_holds_is_asked_about() -> None:
    sparse = entry("web/templates/ds.yaml", ROOT_MOUNT.encode(), kind=tarfile.GNUTYPE_SPARSE)
    found = unpack_chart(gzip.compress(entry("web/Chart.yaml", CHART.encode()) + sparse + bytes(1024)))
    assert "a kind the guard does not read" in found.problem
