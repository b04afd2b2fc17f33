"""A cloud security setting turned off, as one rule across CLIs and services (cloud17, session 15).

First sight was measured on fresh material, split before any verdict was seen (kept outside the
repository: /work/realworld/cloud17 on the machine that measured it): the "From Command Line"
remediations of Turbot's steampipe-mod-aws/azure/gcp-compliance CIS and foundational-security docs
(Apache-2.0) and of cloudgraphdev's cloudgraph-policy-packs (MPL-2.0), each as written (allowed: it turns a
protection on) and mechanically inverted to the insecure setting it fixes; split by (CLI, service), a third
of the services held out. The rule reads a call that changes something and names a security property -- in
an option, a member of a setting (``--set httpsOnly=false``, ``--metadata block-project-ssh-keys=FALSE``),
a ``--name X --value Y`` pair or its operation (``disable-key-rotation``) -- word by word: a protection
(encryption, logs, audit, backups, versioning, TLS, MFA, firewalls ...) switched off or an exposure (public
or anonymous access, a serial port, remote debugging, local or shared-key sign-in, project-wide SSH keys)
switched on, each negating word (``no``, ``disable``, ``block``, ``ignore`` ...) flipping the value.

The commands here are variants written for the tests (other services, CLIs, spellings and wrappers than
the ones measured), among them the held-out misses session 14 named (DynamoDB PITR, ECR scan on push,
KMS rotation, OpenSearch security, ``--set httpsOnly=false``, ``--state Disabled``, dotted database
flags, ``block-project-ssh-keys=false``), which are therefore tuned on, not held out.
"""

from __future__ import annotations

HELD = {
    "protection-off": [
        (
            "aws dynamodb update-continuous-backups --table-name orders "
            "--point-in-time-recovery-specification PointInTimeRecoveryEnabled=false"
        ),
        (
            "aws ecr put-image-scanning-configuration --repository-name app "
            "--image-scanning-configuration scanOnPush=false"
        ),
        "env AWS_PROFILE=prod aws kms disable-key-rotation --key-id alias/prod",
        "aws opensearch update-domain-config --domain-name logs --advanced-security-options Enabled=false",
        (
            "aws es update-elasticsearch-domain-config --domain-name d "
            "--node-to-node-encryption-options Enabled=false"
        ),
        "aws rds modify-db-instance --db-instance-identifier db --backup-retention-period 0",
        "aws rds modify-db-cluster --db-cluster-identifier c --no-deletion-protection",
        "aws ec2 modify-instance-metadata-options --instance-id i-1 --http-tokens optional",
        "aws cognito-idp set-user-pool-mfa-config --user-pool-id p --mfa-configuration OFF",
        "aws efs create-file-system --creation-token t --no-encrypted",
        "sudo az functionapp update -g rg -n fn --set httpsOnly=false",
        "az sql db threat-policy update -g rg -s srv -n db --state Disabled",
        "az keyvault update -n kv --enable-purge-protection false",
        "az cosmosdb update -n db -g rg --set properties.disableLocalAuth=false",
        "az appconfig update -n cfg -g rg --disable-local-auth false",
        "az mysql flexible-server parameter set -g rg -s srv --name tls_version --value TLSv1",
        "gcloud sql instances patch db1 --database-flags=cloudsql.enable_pgaudit=off",
        "gcloud compute project-info add-metadata --metadata block-project-ssh-keys=false",
        "timeout 60 gcloud compute instances add-metadata vm1 --metadata=enable-oslogin=false",
        "gcloud compute instances add-metadata vm1 --metadata serial-port-enable=TRUE",
        "gcloud container clusters update c1 --no-enable-network-policy",
        "gcloud container clusters update c1 --enable-legacy-authorization",
        "gcloud compute instances update vm1 --no-shielded-integrity-monitoring",
        "oci db autonomous-database update --autonomous-database-id x --is-mtls-connection-required false",
        "oci os bucket update --bucket-name b --public-access-type ObjectRead",
        "doctl compute firewall add-rules fw --inbound-rules protocol:tcp,ports:22,address:0.0.0.0/0",
        "aliyun rds ModifyDBInstanceSSL --DBInstanceId x --SSLEnabled 0",
        "ibmcloud cos bucket-versioning-set --bucket b --versioning-configuration Status=Suspended",
        "kubectl label --overwrite ns prod pod-security.kubernetes.io/enforce=privileged",
        "helm upgrade --install kyverno kyverno/kyverno --set admissionController.enabled=false",
        "helm upgrade web ./chart --set networkPolicy.enabled=false",
    ],
}

ALLOWED = [
    (
        "aws dynamodb update-continuous-backups --table-name orders "
        "--point-in-time-recovery-specification PointInTimeRecoveryEnabled=true"
    ),
    "aws kms enable-key-rotation --key-id alias/prod",
    "az webapp update -g rg -n app --set httpsOnly=true",
    "az webapp up --name app --no-wait",
    "az deployment group create -g rg --template-file main.bicep --no-wait",
    "helm upgrade --install web ./chart --set replicaCount=0",
    "gcloud app deploy --no-user-output-enabled",
    "gcloud run deploy api --image gcr.io/p/api --no-allow-unauthenticated",
    (
        "aws ecs run-task --cluster c --task-definition t --network-configuration "
        '"awsvpcConfiguration={subnets=[s1],assignPublicIp=ENABLED}"'
    ),
    "aws ec2 run-instances --image-id ami-1 --count 1 --associate-public-ip-address",
    "aws lambda update-function-configuration --function-name f --tracing-config Mode=Active",
    "aws s3 cp --no-verify-ssl build.zip s3://b/k",
    'kubectl annotate deploy web kubernetes.io/change-cause="rollout v2"',
    """kubectl patch deploy web -p '{"spec":{"replicas":0}}'""",
    "gcloud compute instances create vm --shielded-secure-boot",
    "az storage account update -n sa --min-tls-version TLS1_2",
    "aws ecs update-service --cluster c --service s --desired-count 0",
    "az containerapp update -n app -g rg --set-env-vars DEBUG=false",
    "aws cloudformation deploy --template-file t.yaml --stack-name s --no-fail-on-empty-changeset",
    "az monitor log-analytics workspace create -g rg -n ws --retention-time 30",
    "ibmcloud api https://cloud.ibm.com --skip-ssl-validation",
    "oci os bucket update --bucket-name b --public-access-type NoPublicAccess",
    "doctl compute firewall add-rules fw --inbound-rules protocol:tcp,ports:443,address:0.0.0.0/0",
    "aws s3api put-public-access-block --bucket b --public-access-block-configuration BlockPublicAcls=true",
    "gcloud compute project-info add-metadata --metadata enable-oslogin=TRUE",
    "aws ec2 import-key-pair --key-name k --public-key-material fileb://k.pub",
]
