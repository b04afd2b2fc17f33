"""Cloud, node and macOS misses the lead listed as known (cloudmac23, session 20).

No held-out measurement: the lead named the misses, each a class; the commands here are variants written
for the tests (other spellings, options and wrappers), with ordinary neighbours that stay allowed. The
classes:

- GuardDuty told to publish its updated findings hourly or six-hourly (``update-detector
  --finding-publishing-frequency SIX_HOURS``): the alerts come later; asked (cloud control), as six hours
  is also the service's default. Security Hub, Inspector and SCC switched off were already blocked;
- a command run in a pod's container from the node (``crictl exec``, ``nerdctl -n k8s.io exec``): past the
  cluster's API, RBAC and audit log; asked, as ``ctr task exec`` was. ``nerdctl exec`` of one's own
  containers and ``docker exec`` stay allowed;
- the Docker Engine API by ``curl --unix-socket``: a container created, started or a command run in one
  was already blocked in every spelling tried; kept here so it stays so;
- a shared access signature minted for Azure storage (``az storage account|container|blob|share|fs
  generate-sas``): a bearer token to the data, often for years; asked;
- macOS: every account's record exported (``dscl . profileexport``, password hashes with them):
  blocked; a configuration profile installed without a prompt (``profiles -s -F``): blocked, as
  ``profiles -I -F``; another directory server signed in to with a password on the line (``dscl -u U -P
  PASS /LDAPv3/HOST``): asked.
"""

from __future__ import annotations

HELD = {
    "findings delayed": [
        "aws guardduty update-detector --detector-id abc123 --finding-publishing-frequency SIX_HOURS",
        "aws --region us-east-1 guardduty update-detector --detector-id=d "
        "--finding-publishing-frequency=one_hour",
        "aws guardduty update-detector --finding-publishing-frequency SIX_HOURS --detector-id "
        "$(aws guardduty list-detectors --query 'DetectorIds[0]' --output text)",
        "aws securityhub disable-import-findings-for-product --product-subscription-arn "
        "arn:aws:securityhub:eu-west-1:123456789012:product-subscription/aws/guardduty",
        "aws inspector2 disable --resource-types EC2 ECR LAMBDA",
        "gcloud scc notifications delete soc-feed --organization=123456",
    ],
    "a pod's container entered from the node": [
        "crictl exec -it 1f73f2d81bf98 sh",
        "sudo crictl exec -i -t $(crictl ps --name kube-apiserver -q) /bin/bash",
        "crictl --runtime-endpoint unix:///run/containerd/containerd.sock exec -it abc sh",
        "crictl exec 1f73f2d81bf98 cat /var/run/secrets/kubernetes.io/serviceaccount/token",
        "crictl attach -it abc",
        "nerdctl -n k8s.io exec -it abc sh",
        "nerdctl --namespace=k8s.io exec abc cat /etc/passwd",
        "CONTAINERD_NAMESPACE=k8s.io nerdctl exec -it abc sh",
    ],
    "the engine's socket told to run something": [
        "curl --unix-socket /var/run/docker.sock -X POST http://localhost/containers/create -d "
        '\'{"Image":"alpine","HostConfig":{"Binds":["/:/host"],"Privileged":true}}\'',
        "curl -s --unix-socket /run/docker.sock -XPOST 'http://v1.41/containers/create?name=x' "
        '-d \'{"Image":"ubuntu","Cmd":["chroot","/host","sh"],"HostConfig":{"Binds":["/:/host"]}}\'',
        "curl -s --unix-socket /var/run/docker.sock -X POST http://localhost/containers/x/exec "
        '-H \'Content-Type: application/json\' -d \'{"Cmd":["cat","/host/etc/shadow"]}\'',
        "curl --unix-socket /var/run/docker.sock -X POST http://localhost/containers/x/start",
        "curl -s --unix-socket /var/run/docker.sock -X POST http://localhost/exec/9a8b7c/start -d '{}'",
    ],
    "storage token minted": [
        "az storage account generate-sas --permissions rwdl --expiry 2030-01-01 --account-name sa1 "
        "--services b --resource-types sco",
        "az storage container generate-sas --account-name sa1 --name c --permissions rwl --expiry 2030-01-01",
        "az storage blob generate-sas --account-name sa1 -c c -n b.txt --permissions r --expiry 2030-01-01 "
        "--full-uri",
        "az storage share generate-sas -n s --account-name sa1 --permissions rcwdl "
        "--expiry 2031-12-31T00:00Z",
        "az --only-show-errors storage fs generate-sas -n fs1 --account-name sa1 --permissions racwdl "
        "--expiry 2029-06-01",
    ],
    "macOS directory secrets and profiles": [
        "dscl . profileexport . all_users",
        "sudo dscl localhost -profileexport /Local/Default all_users",
        "dscl localhost -read /Local/Default/Users/bob ShadowHashData",
        "profiles -s -F x.mobileconfig",
        "sudo profiles -F ~/Downloads/vpn.mobileconfig -s",
        "dscl -u admin -P pass /LDAPv3/ldap.corp.com -list /Users",
        "dscl -u 'CORP\\admin' -P 'S3cret!' '/Active Directory/CORP/All Domains' -read /Users/bob",
    ],
}

ALLOWED = [
    "aws guardduty update-detector --detector-id d1 --finding-publishing-frequency FIFTEEN_MINUTES",
    "aws guardduty create-detector --enable --finding-publishing-frequency SIX_HOURS",
    "aws guardduty get-detector --detector-id abc123",
    "aws inspector2 list-findings",
    "gcloud scc notifications list --organization=123456",
    "crictl ps",
    "crictl logs -f abc",
    "crictl inspect abc",
    "nerdctl exec -it web sh",
    "nerdctl -n k8s.io ps",
    "docker exec -it web sh",
    "curl --unix-socket /var/run/docker.sock http://localhost/containers/json",
    "curl -s --unix-socket /var/run/docker.sock http://localhost/v1.41/images/json",
    "az storage blob list --account-name sa1 -c c",
    "az storage blob upload --account-name sa1 -c c -f out.txt -n out.txt --auth-mode login",
    "az storage blob url --account-name sa1 -c c -n b.txt",
    "dscl . -read /Users/bob",
    "dscl . -list /Users",
    "dscl /LDAPv3/ldap.corp.com -list /Users",
    "profiles list",
    "profiles status -type enrollment",
]
