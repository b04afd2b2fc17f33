"""Secret redaction in tool results, through a real bus."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import agentbus
from agentbus.middleware import redact
from agentbus.middleware.redact import Redactor, SecretPattern

pytestmark = pytest.mark.anyio

SECRETS = {
    "openai_api_key": "sk-proj-" + "a1B2c3D4e5" * 4,
    "anthropic_api_key": "sk-ant-api03-" + "Z9y8X7w6V5" * 5,
    "aws_access_key_id": "AKIAIOSFODNN7EXAMPLE",
    "github_token": "ghp_" + "A1b2C3d4E5" * 4,
    "slack_token": "xoxb-123456789012-123456789012-abcdefABCDEF",
    "google_api_key": "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "stripe_key": "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
    "huggingface_token": "hf_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ012345",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
}

PEM = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----"
)


async def run(bus: agentbus.Bus, output: Any) -> Any:
    async def tool(args: dict[str, Any]) -> Any:
        return output

    return await bus.call_tool("exec", {"command": "env"}, tool)


def bus_with(**options: Any) -> agentbus.Bus:
    bus = agentbus.Bus(log_level=None)
    redact.install(bus.registry, **options)
    return bus


@pytest.mark.parametrize(("kind", "secret"), sorted(SECRETS.items()))
async def test_each_known_secret_kind_is_replaced_by_its_kind(kind: str, secret: str) -> None:
    result = await run(bus_with(), f"value: {secret} end")
    assert secret not in result
    assert result == f"value: [REDACTED:{kind}] end"


async def test_secrets_are_redacted_in_nested_mcp_style_results_without_mutating_the_original() -> None:
    original = {"content": [{"type": "text", "text": f"export OPENAI_KEY={SECRETS['openai_api_key']}"}]}
    result = await run(bus_with(), original)
    assert SECRETS["openai_api_key"] not in str(result)
    assert result["content"][0]["type"] == "text"
    assert SECRETS["openai_api_key"] in original["content"][0]["text"], "the tool's own object is not changed"


async def test_pem_private_key_blocks_are_redacted_whole_even_when_truncated() -> None:
    result = await run(bus_with(), f"before\n{PEM}\nafter")
    assert result == "before\n[REDACTED:private_key]\nafter"
    truncated = PEM.rsplit("\n", 1)[0]
    assert await run(bus_with(), truncated) == "[REDACTED:private_key]"


async def test_assignments_keep_the_name_and_lose_the_value() -> None:
    result = await run(bus_with(), 'DB_PASSWORD=hunter2\n"api_key": "abc123def"\npassword=None')
    assert result == 'DB_PASSWORD=[REDACTED:secret]\n"api_key": "[REDACTED:secret]"\npassword=None'


@pytest.mark.parametrize(
    "code",
    [
        "password = get_password()",
        'conn = connect(user=user, password=os.environ["PW"])',
        "self.password = self._password",
        "def login(password: Optional[str] = None) -> None:",
        'password = ""',
        'export PASSWORD="${DB_PASSWORD}"',
    ],
)
async def test_source_code_the_agent_reads_is_not_mangled(code: str) -> None:
    assert await run(bus_with(), code) == code


async def test_a_quoted_value_is_redacted_whole() -> None:
    assert await run(bus_with(), 'passwd: "correct horse battery"') == 'passwd: "[REDACTED:secret]"'


async def test_passwords_in_connection_urls_are_redacted() -> None:
    result = await run(bus_with(), "DATABASE_URL=postgres://app:s3cr3t-pw@db:5432/app")
    assert result == "DATABASE_URL=postgres://app:[REDACTED:url_password]@db:5432/app"


async def test_bearer_tokens_are_redacted_but_the_header_stays_readable() -> None:
    result = await run(bus_with(), "Authorization: Bearer abcdefghijklmnop0123456789")
    assert result == "Authorization: Bearer [REDACTED:bearer_token]"


async def test_text_without_secrets_is_returned_as_the_same_object() -> None:
    output = {"stdout": "total 0\ndrwxr-xr-x  2 user  staff  64 build", "code": 0}
    assert await run(bus_with(), output) is output


async def test_look_alikes_are_not_redacted() -> None:
    text = "task-runner sk-short AKIA123 password: <your-password> skeleton-key"
    assert await run(bus_with(), text) == text


async def test_extra_patterns_are_pluggable_and_reported_by_kind_not_value() -> None:
    seen: list[dict[str, int]] = []
    layer = Redactor(
        extra_patterns={"internal_token": r"\bitk_[0-9a-f]{16}\b"},
        on_redact=lambda event, counts: seen.append(counts),
    )
    bus = agentbus.Bus(log_level=None)
    bus.intercept("tool.after", layer, id="redact")
    result = await run(bus, ["itk_0123456789abcdef", "itk_fedcba9876543210", SECRETS["github_token"]])
    assert result == ["[REDACTED:internal_token]", "[REDACTED:internal_token]", "[REDACTED:github_token]"]
    assert seen == [{"internal_token": 2, "github_token": 1}]
    assert layer.counts == {"internal_token": 2, "github_token": 1}


async def test_patterns_replace_the_defaults_and_a_secret_group_limits_the_replacement() -> None:
    bus = bus_with(patterns=[SecretPattern("pin", r"PIN (?P<secret>\d{4})")], replacement="***")
    assert await run(bus, f"PIN 1234 and {SECRETS['openai_api_key']}") == (
        f"PIN *** and {SECRETS['openai_api_key']}"
    )


async def test_blocked_and_error_results_pass_through_untouched() -> None:
    bus = bus_with()

    async def boom(args: dict[str, Any]) -> str:
        raise RuntimeError("failed")

    assert await bus.call_tool("exec", {"command": "x"}, boom) == {
        "status": "error",
        "tool": "exec",
        "error": "RuntimeError: failed",
    }


def test_an_invalid_pattern_is_refused_with_its_kind() -> None:
    with pytest.raises(ValueError, match="'broken'"):
        Redactor(extra_patterns=[("broken", "(unclosed")])


async def test_records_of_the_redaction_can_be_cleaned_before_they_are_stored() -> None:
    """A record's changes hold the old result; redact_record removes the secret from it."""
    layer = Redactor()
    bus = agentbus.Bus(log_level=None)
    bus.intercept("tool.after", layer, id="redact")
    records: list[agentbus.Record] = []
    bus.on_event(lambda record: records.append(layer.redact_record(record)), level="info")
    await run(bus, f"key {SECRETS['openai_api_key']}")
    (record,) = records
    assert SECRETS["openai_api_key"] not in repr(record.to_dict())
    assert record.changes["result"] == ("key [REDACTED:openai_api_key]", "key [REDACTED:openai_api_key]")


async def test_installed_redactor_records_carry_no_values_even_at_the_default_log_level() -> None:
    """install() registers with record_values=False: the secret never reaches a record."""
    bus = agentbus.Bus(log_level=None)
    redact.install(bus.registry)
    records: list[agentbus.Record] = []
    bus.on_event(records.append, level="debug")
    await run(bus, f"key {SECRETS['openai_api_key']}")
    (record,) = records
    assert set(record.changes) == {"result"}
    assert SECRETS["openai_api_key"] not in repr(record.to_dict())


def test_the_structlog_processor_redacts_every_field() -> None:
    event_dict = {"event": "interception", "changes": {"result": [f"t {SECRETS['jwt']}", "t"]}}
    cleaned = Redactor().structlog_processor(None, "info", event_dict)
    assert cleaned == {"event": "interception", "changes": {"result": ["t [REDACTED:jwt]", "t"]}}


secret_values = st.sampled_from(sorted(SECRETS.values()))
filler = st.text(alphabet=st.sampled_from(" \n\t:=,;\"'()[]{}abcXYZ019-_./"), max_size=30)


@given(st.lists(st.tuples(filler, secret_values), min_size=1, max_size=4), filler)
def test_no_known_secret_survives_between_separators(parts: list[tuple[str, str]], tail: str) -> None:
    text = "".join(f"{before} {secret} " for before, secret in parts) + tail
    redacted, found = Redactor().redact(text)
    assert not any(secret in redacted for _, secret in parts)
    assert sum(found.values()) >= len(parts)


@given(
    st.text(max_size=200)
    | st.lists(st.sampled_from(sorted(SECRETS.values())) | st.text(max_size=40)).map(" ".join)
)
def test_redaction_is_idempotent(text: str) -> None:
    layer = Redactor()
    once, _ = layer.redact(text)
    twice, found = layer.redact(once)
    assert twice == once
    assert found == {}
