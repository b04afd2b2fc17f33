"""Cloud protections removed, settings whose "on" is the weakness, every address let in (cloud18, session 16).

Measured on fresh material split before any verdict was seen (kept outside the repository:
/work/realworld/cloud18 on the machine that measured it): elastic/cloudbeat's CIS AWS/Azure/GCP/EKS rules
(Apache-2.0), each remediation as written (allowed) and mechanically inverted (held), split by service;
0xJs/RedTeaming_CheatSheet's cloud notes (held out whole); Azure-Samples/azure-cli-samples scripts (MIT) as
ordinary developer work. The classes, by what a call does rather than which API it names:

- a protection removed: a resource lock deleted (``az lock delete``: the nouns before the verb name the
  protection), soft delete or a retention period cleared (``--clear-soft-delete``), a backup plan deleted,
  versioning or uniform bucket access switched off through ``gsutil X set off``;
- a database setting whose "on" is the exposure, read by its whole name (``cross db ownership chaining``,
  ``local_infile``, ``remote access``, ``external scripts enabled``, ``contained database authentication``;
  ``skip_show_database`` off), also as ``ParameterName=...,ParameterValue=...`` pairs; local accounts and
  cross-tenant replication switched on, API termination protection switched off;
- every address let in: ``--authorized-networks 0.0.0.0/0``-like options, a firewall rule from 0.0.0.0 to
  255.255.255.255, ``open-*-ports`` without a source, network ACL entries; outbound rules open nothing.

The commands here are variants written for the tests (other spellings, services and wrappers than the
ones measured); the session-15 held-out misses the brief named (az lock delete, blob delete-policy, SQL
Server flags) are tuned on.
"""

from __future__ import annotations

HELD = {
    "protection-removed": [
        "az lock delete -n keep -g rg-prod",
        (
            "sudo az resource lock delete --name keep --resource-group rg --resource-name kv "
            "--resource-type Microsoft.KeyVault/vaults"
        ),
        "az storage blob service-properties delete-policy update --enable false --account-name logs",
        "env AWS_PROFILE=prod aws backup delete-backup-selection --backup-plan-id p --selection-id s",
        "aws redshift delete-snapshot-schedule --schedule-identifier nightly",
        "gcloud storage buckets update gs://audit-logs --clear-retention-period",
        "gsutil ubla set off gs://data",
        "gsutil versioning set off gs://backups",
        "aws ec2 modify-instance-attribute --instance-id i-0abc --no-disable-api-termination",
        (
            "aws s3api put-object-lock-configuration --bucket b --object-lock-configuration "
            '\'{"ObjectLockEnabled": "Disabled"}\''
        ),
    ],
    "unsafe-on": [
        "gcloud sql instances patch mssql --database-flags='remote access=on'",
        (
            'gcloud sql instances patch mssql --database-flags="external scripts enabled=on,user '
            'connections=100"'
        ),
        "gcloud sql instances patch mysql --database-flags skip_show_database=off,local_infile=on",
        "az sql server configuration set -g rg -s srv -n 'contained database authentication' --value on",
        "az mysql flexible-server parameter set -g rg -s db --name local_infile --value 1",
        (
            "aws rds modify-db-parameter-group --db-parameter-group-name mysql8 --parameters "
            "ParameterName=local_infile,ParameterValue=ON,ApplyMethod=pending-reboot"
        ),
        "az aks update --resource-group rg --name prod --enable-local-accounts",
        "az storage account update --name sa --allow-cross-tenant-replication",
        "az postgres server configuration set -g rg -s pg --name connection_throttling --value OFF",
    ],
    "every-address": [
        (
            "gcloud container clusters update prod --enable-master-authorized-networks "
            "--master-authorized-networks 0.0.0.0/0"
        ),
        (
            "az mysql flexible-server firewall-rule create -g rg -n db -r any --start-ip-address "
            "0.0.0.0 --end-ip-address 255.255.255.255"
        ),
        (
            "az webapp config access-restriction add -g rg -n app --rule-name any --action Allow "
            "--ip-address 0.0.0.0/0 --priority 90"
        ),
        "aws emr modify-cluster-attributes --cluster-id j-1 --termination-protected false",
        (
            "aws lightsail open-instance-public-ports --instance-name web --port-info "
            "fromPort=3389,toPort=3389,protocol=TCP"
        ),
        (
            "aws ec2 create-network-acl-entry --network-acl-id acl-1 --ingress --rule-number 90 "
            "--protocol tcp --port-range From=22,To=22 --cidr-block 0.0.0.0/0 --rule-action allow"
        ),
    ],
}

ALLOWED = [
    "gcloud sql instances patch mssql --database-flags='contained database authentication=off'",
    "gcloud sql instances patch mssql --database-flags='remote access=off,cross db ownership chaining=off'",
    "gcloud sql instances patch mysql --database-flags skip_show_database=on,local_infile=off",
    "az sql server configuration set -g rg -s srv -n 'cross db ownership chaining' --value off",
    (
        "aws rds modify-db-parameter-group --db-parameter-group-name mysql8 --parameters "
        "ParameterName=local_infile,ParameterValue=0,ApplyMethod=pending-reboot"
    ),
    "az lock create -n keep -g rg-prod --lock-type CanNotDelete",
    "az lock list -g rg-prod",
    (
        "az storage blob service-properties delete-policy update --enable true "
        "--days-retained 14 --account-name logs"
    ),
    "az aks update --resource-group rg --name prod --disable-local-accounts",
    "gsutil versioning set on gs://backups",
    "gsutil ubla set on gs://data",
    "gcloud storage buckets update gs://b --soft-delete-duration=14d",
    "aws ec2 modify-instance-attribute --instance-id i-0abc --disable-api-termination",
    "aws cloudformation update-termination-protection --enable-termination-protection --stack-name prod",
    "az mysql flexible-server replica stop-replication -g rg --name replica1 --yes",
    "gcloud container clusters update prod --master-authorized-networks 203.0.113.0/24",
    (
        "az mysql flexible-server firewall-rule create -g rg -n db -r office "
        "--start-ip-address 203.0.113.4 --end-ip-address 203.0.113.9"
    ),
    (
        "aws lightsail open-instance-public-ports --instance-name web --port-info "
        "fromPort=443,toPort=443,protocol=TCP"
    ),
    (
        "az network nsg rule create -g rg --nsg-name web -n all-out --priority 300 --direction Outbound "
        "--access Allow --protocol '*' --source-address-prefixes '*' --destination-address-prefixes '*' "
        "--destination-port-ranges '*'"
    ),
    (
        "aws ec2 create-network-acl-entry --network-acl-id acl-1 --egress --rule-number 100 "
        "--protocol -1 --cidr-block 0.0.0.0/0 --rule-action allow"
    ),
    "gcloud sql instances patch db --database-flags max_connections=500",
    "aws ec2 create-route --route-table-id rtb-1 --destination-cidr-block 0.0.0.0/0 --gateway-id igw-1",
    (
        "gcloud compute routes create out --destination-range 0.0.0.0/0 --next-hop-gateway "
        "default-internet-gateway"
    ),
    "az vm open-port -g rg -n web --port 443",
    "gcloud run services update api --clear-env-vars",
]
