"""A secret of the session's environment printed where the agent reads it (lead, session 14).

fp16's held-out sample of what coding agents really ran (committed Claude Code allow lists, aider
histories) had ``echo $OPENAI_API_KEY`` pass while ``env | grep TOKEN`` was asked: the same secret shown,
by name instead of by search. Now both are asked (``environment secrets``); a value fed to the program
that uses it, written to a file, or checked without being shown runs. Variants written for the tests.
"""

HELD = {
    "secret variable printed": [
        "echo $STRIPE_SECRET_KEY",
        'printf "%s\\n" "${HF_TOKEN}"',
        "printenv NPM_TOKEN",
        'echo "key is ${OPENAI_API_KEY}"',
        "echo $DATABASE_PASSWORD | base64",
        "echo $GH_TOKEN >&2",
    ],
}

ALLOWED = [
    "echo ${#OPENAI_API_KEY}",
    'echo "${GITHUB_TOKEN:+token is set}"',
    "echo ${ANTHROPIC_API_KEY:0:7}",
    "echo $NPM_TOKEN | npm login --auth-type=legacy",
    'echo "$CR_PAT" | docker login ghcr.io -u me --password-stdin',
    'echo "API_TOKEN=$API_TOKEN" >> "$GITHUB_ENV"',
    "echo $AWS_ACCESS_KEY_ID",
    "echo $GOOGLE_APPLICATION_CREDENTIALS_FILE",
    "echo $PATH",
    "printenv HOME",
    "echo $KEYMAP",
]
