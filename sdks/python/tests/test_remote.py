"""Servers reached at a URL with credentials: the flags a ServerSpec maps to,
the validation of each field, and a bearer-protected legacy HTTP+SSE
fixture reached through the real binary (the token read from a variable
the binary inherits, never on its command line nor in any error), as the
session's server and as a suite test's server.
"""

from __future__ import annotations

import queue
import re
import subprocess
import threading
from pathlib import Path
from typing import Callable, Iterator

import pytest

from mcptest import McpClient, McpConnectionError, ServerSpec, SuiteRunner, Verdict

TOKEN = "sdk-python-secret-7f3a"


@pytest.fixture
def protected_sse(fixture_bins: Path) -> Iterator[str]:
    """fixture-everything on legacy HTTP+SSE, demanding ``Bearer TOKEN``:
    its event-stream URL. It exits when its stdin closes; killed if not."""
    process = subprocess.Popen(
        [str(fixture_bins / "fixture-everything"), "--sse", "--bearer", TOKEN],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()

    def drain() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)

    threading.Thread(target=drain, daemon=True).start()
    try:
        try:
            first = lines.get(timeout=30)
        except queue.Empty:
            pytest.fail("fixture-everything --sse printed no URL within 30 s")
        assert first.startswith("listening on "), f"unexpected first line {first!r}"
        yield first.removeprefix("listening on ").strip()
    finally:
        assert process.stdin is not None
        process.stdin.close()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def _add(spec: ServerSpec) -> Verdict:
    with McpClient.connect(spec) as client:
        return client.call("add", {"a": 2, "b": 3})


def test_a_bearer_variable_reaches_the_protected_sse_server(
    protected_sse: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDK_TEST_MCP_TOKEN", TOKEN)
    spec = ServerSpec.sse(protected_sse, bearer_env="SDK_TEST_MCP_TOKEN")
    assert TOKEN not in " ".join(spec.exec_args())
    verdict = _add(spec)
    assert verdict.success
    assert verdict.text == "5"


def test_without_credentials_the_session_fails_with_http_401(protected_sse: str) -> None:
    with pytest.raises(McpConnectionError) as caught:
        _add(ServerSpec.sse(protected_sse))
    assert "HTTP 401" in str(caught.value)
    assert TOKEN not in str(caught.value)


def test_a_wrong_token_is_refused_and_never_shown(
    protected_sse: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDK_TEST_MCP_TOKEN", TOKEN + "-wrong")
    with pytest.raises(McpConnectionError) as caught:
        _add(ServerSpec.sse(protected_sse, bearer_env="SDK_TEST_MCP_TOKEN"))
    assert "HTTP 401" in str(caught.value)
    assert TOKEN not in str(caught.value)


def test_credentials_map_to_the_binarys_flags() -> None:
    spec = ServerSpec.http(
        "https://mcp.example/mcp",
        headers={"X-Api-Key": "${API_KEY}"},
        bearer_env="MCP_TOKEN",
        client_id="ci",
        client_secret_env="MCP_SECRET",
        token_url="https://auth.example/token",
    )
    assert spec.exec_args() == [
        "--server-url",
        "https://mcp.example/mcp",
        "--header",
        "X-Api-Key: ${API_KEY}",
        "--bearer-env",
        "MCP_TOKEN",
        "--client-id",
        "ci",
        "--client-secret-env",
        "MCP_SECRET",
        "--token-url",
        "https://auth.example/token",
    ]
    assert ServerSpec.sse("http://127.0.0.1:1/sse").exec_args() == [
        "--server-sse",
        "http://127.0.0.1:1/sse",
    ]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: ServerSpec(argv=("srv",), bearer_env="T"),
            "server bearer_env is for a server reached at a url or sse_url",
        ),
        (
            lambda: ServerSpec(argv=("srv",), headers={"A": "b"}),
            "server headers is for a server reached at a url or sse_url",
        ),
        (lambda: ServerSpec.sse("ws://x/sse"), "server sse_url 'ws://x/sse' is not an http://"),
        (
            lambda: ServerSpec(url="http://x/mcp", sse_url="http://x/sse"),
            "either a Streamable HTTP url or an sse_url, not both",
        ),
        (
            lambda: ServerSpec.http("http://x/mcp", client_id="ci"),
            "client_id and client_secret_env go together",
        ),
        (
            lambda: ServerSpec.http("http://x/mcp", token_url="http://x/token"),
            "token_url needs client_id and client_secret_env",
        ),
        (
            lambda: ServerSpec.http("http://x/mcp", headers={"Bad Name": "v"}),
            "server headers entry 'Bad Name'",
        ),
        (
            lambda: ServerSpec.http("http://x/mcp", bearer_env="A=B"),
            "server bearer_env 'A=B' is not an environment variable name",
        ),
    ],
)
def test_a_bad_remote_spec_names_the_field(build: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        build()


ADD_SUITE = """name: add over the protected sse server
assert:
  tool: add
  args: {a: 2, b: 3}
  expect:
    equals: "5"
"""


def test_a_suite_test_runs_against_the_protected_sse_server_with_the_token_from_a_variable(
    protected_sse: str,
    real_binary: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "add.yaml").write_text(ADD_SUITE)
    monkeypatch.setenv("SDK_TEST_MCP_TOKEN", TOKEN)
    with SuiteRunner.start(cwd=str(tmp_path)) as suites:
        [test] = suites.list(["add.yaml"])
        passed = suites.run(
            test, server=ServerSpec.sse(protected_sse, bearer_env="SDK_TEST_MCP_TOKEN")
        )
        refused = suites.run(test, server=ServerSpec.sse(protected_sse))
        stderr = suites.stderr_tail(200)
    assert passed.status == "pass", passed.failure
    assert refused.status == "fail"
    assert refused.failure is not None
    assert "HTTP 401" in refused.failure, refused.failure
    for shown in (str(passed), str(refused), refused.failure, stderr):
        assert TOKEN not in shown


def test_suite_params_carry_the_url_or_sse_and_the_credentials_by_name() -> None:
    spec = ServerSpec.sse(
        "http://127.0.0.1:1/sse",
        headers={"X-Api-Key": "${API_KEY}"},
        client_id="ci",
        client_secret_env="MCP_SECRET",
        token_url="http://127.0.0.1:1/token",
    )
    assert spec.suite_param() == {
        "sse": "http://127.0.0.1:1/sse",
        "headers": {"X-Api-Key": "${API_KEY}"},
        "client_id": "ci",
        "client_secret_env": "MCP_SECRET",
        "token_url": "http://127.0.0.1:1/token",
    }
    http = ServerSpec.http("http://127.0.0.1:1/mcp", bearer_env="MCP_TOKEN")
    assert http.suite_param() == {"url": "http://127.0.0.1:1/mcp", "bearer_env": "MCP_TOKEN"}
