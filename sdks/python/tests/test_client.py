"""Every client method against fixture-everything through the real binary,
and the upstream failures: -32000, -32001, the binary's call timeout.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from pathlib import Path
from typing import Any, Callable, ClassVar, Dict, Iterator, List

import pytest

import procs
from mcptest import (
    McpClient,
    McpConnectionError,
    McpTimeoutError,
    McpUpstreamError,
    ServerSpec,
    Verdict,
)


@pytest.fixture
def mcp(everything: ServerSpec) -> Iterator[McpClient]:
    with McpClient.connect(everything) as client:
        yield client


def test_initialize_names_the_server(mcp: McpClient) -> None:
    info = mcp.initialize()
    assert info.name == "fixture-everything"
    assert info.version
    assert info.protocol_version.startswith("20")
    assert info.capabilities is not None
    assert "tools" in info.capabilities
    assert mcp.server_info is info


def test_call_returns_the_verdict(mcp: McpClient) -> None:
    verdict = mcp.call("add", {"a": 2, "b": 3})
    assert isinstance(verdict, Verdict)
    assert verdict.success
    assert verdict.text == "5"
    assert verdict.error is None
    assert verdict.content == [{"type": "text", "text": "5"}]
    assert verdict.duration_ms >= 0


def test_a_tool_error_is_a_verdict_not_an_exception(mcp: McpClient) -> None:
    verdict = mcp.call("fail")
    assert not verdict.success
    assert verdict.error == "the tool failed on purpose"


def test_structured_content_is_the_verdicts_data(mcp: McpClient) -> None:
    verdict = mcp.call("weather", {"city": "Oslo"})
    assert verdict.data == {"city": "Oslo", "temperature": 21.5, "conditions": "sunny"}


def test_a_verdict_carries_the_calls_messages_and_logs(mcp: McpClient) -> None:
    progress = mcp.call("progress", {"steps": 3, "delay_ms": 1})
    methods = [message.method for message in progress.messages]
    assert methods == ["notifications/progress"] * 3
    assert progress.messages[2].params is not None
    assert progress.messages[2].params["progress"] == 3
    logged = mcp.call("log", {"level": "warning", "message": "careful", "count": 2})
    assert [(log.level, log.logger, log.data) for log in logged.logs] == [
        ("warning", "fixture", "careful")
    ] * 2


def test_passthrough_returns_the_upstream_result_verbatim(mcp: McpClient) -> None:
    failed = mcp.call_passthrough("fail")
    assert failed.is_error
    assert not failed.success
    assert failed.raw["content"] == [{"type": "text", "text": "the tool failed on purpose"}]
    weather = mcp.call_passthrough("weather", {"city": "Oslo"})
    assert weather.success
    assert weather.structured_content["city"] == "Oslo"
    assert "success" not in weather.raw


def test_lists(mcp: McpClient) -> None:
    tools = {tool.name: tool for tool in mcp.list_tools()}
    assert {"echo", "add", "slow", "fail"} <= set(tools)
    assert tools["add"].input_schema["type"] == "object"
    assert tools["echo"].description == "Returns the message unchanged."
    resources = [resource.uri for resource in mcp.list_resources()]
    assert "fixture://static/text" in resources
    assert [template.uri_template for template in mcp.list_resource_templates()] == [
        "fixture://items/{id}"
    ]
    prompts = {prompt.name: prompt for prompt in mcp.list_prompts()}
    assert list(prompts) == ["simple", "greeting", "code_review"]
    assert "name" in [argument.name for argument in prompts["greeting"].arguments]


def test_read_resource(mcp: McpClient) -> None:
    text = mcp.read_resource("fixture://static/text")
    assert text.text == "Hello from fixture-everything."
    assert text.contents[0].uri == "fixture://static/text"
    blob = mcp.read_resource("fixture://static/blob")
    assert blob.contents[0].blob == "AAECA/8="
    assert blob.contents[0].text is None


def test_get_prompt(mcp: McpClient) -> None:
    prompt = mcp.get_prompt("greeting", {"name": "Ada", "style": "pirate"})
    assert prompt.messages[0].role == "user"
    assert "Ahoy, Ada!" in json.dumps(prompt.messages[0].content)


def test_messages_holds_what_no_verdict_reported(everything: ServerSpec) -> None:
    # Progress that arrives during a call that then times out is in no
    # verdict: the next messages() reports it, once.
    with McpClient.connect(everything, timeout=0.5) as mcp:
        with pytest.raises(McpTimeoutError):
            mcp.call("progress", {"steps": 20, "delay_ms": 100})
        late = mcp.messages()
        methods = {message.method for message in late.messages}
        assert methods == {"notifications/progress"}, late
        assert not late.messages[0].is_request
        assert mcp.messages().messages == [], "reported once, then forgotten"


def test_an_upstream_error_is_typed_and_says_what_was_called(mcp: McpClient) -> None:
    with pytest.raises(McpUpstreamError) as caught:
        mcp.call("rpc_error")
    error = caught.value
    assert error.code == -32000
    assert error.upstream_code == -32603
    assert error.upstream_message == "rpc_error always fails"
    assert error.upstream_data == {"reason": "on purpose"}
    assert error.tool == "rpc_error"
    message = str(error)
    assert message.startswith('mcp.call {"tool": "rpc_error"} failed:')
    assert "JSON-RPC error -32603: rpc_error always fails" in message
    assert mcp.call("echo", {"message": "still up"}).text == "still up"


def test_a_resource_that_is_not_there_is_an_upstream_error(mcp: McpClient) -> None:
    with pytest.raises(McpUpstreamError) as caught:
        mcp.read_resource("fixture://nowhere")
    assert caught.value.upstream_data == {"uri": "fixture://nowhere"}


def test_a_crashed_server_is_a_connection_error(chaos: Callable[..., ServerSpec]) -> None:
    with McpClient.connect(chaos("--exit-mid-call")) as mcp:
        with pytest.raises(McpConnectionError) as caught:
            mcp.call("poke")
        assert caught.value.code == -32001
        assert caught.value.exit_code == 7
        assert 'mcp.call {"tool": "poke"} failed' in str(caught.value)
        assert "server exit code: 7" in str(caught.value)


def test_a_server_that_never_starts_fails_the_connect(chaos: Callable[..., ServerSpec]) -> None:
    with pytest.raises(McpConnectionError) as caught:
        McpClient.connect(chaos("--exit-before-initialize"))
    assert "mcp.initialize failed" in str(caught.value)


def test_a_hung_tool_fails_at_the_call_timeout(everything: ServerSpec) -> None:
    with McpClient.connect(everything, timeout=0.5) as mcp:
        started = time.monotonic()
        with pytest.raises(McpTimeoutError) as caught:
            mcp.call("slow", {"ms": 20_000})
        assert time.monotonic() - started < 10
        assert caught.value.timeout_ms == 500
        assert "slow" in str(caught.value)


def test_env_and_cwd_reach_the_server(fixture_bins: Path, tmp_path: Path) -> None:
    server = ServerSpec.command(
        str(fixture_bins / "fixture-everything"), env={"GREETING": "hello there"}, cwd=tmp_path
    )
    with McpClient.connect(server) as mcp:
        assert mcp.call("env", {"name": "GREETING"}).text == "hello there"
        assert Path(mcp.call("cwd").text).resolve() == tmp_path.resolve()


def test_close_stops_the_binary_and_the_server(everything: ServerSpec) -> None:
    mcp = McpClient.connect(everything)
    servers = procs.children(mcp.pid)
    assert servers, "the binary started the server"
    assert mcp.close() == 0
    assert procs.wait_gone(mcp.pid), "the binary is gone and reaped"
    for pid in servers:
        assert procs.wait_stopped(pid), f"server {pid} still runs"


def test_a_failing_test_still_stops_everything(everything: ServerSpec) -> None:
    mcp = McpClient.connect(everything)
    pids = [mcp.pid, *procs.children(mcp.pid)]
    with pytest.raises(AssertionError, match="the test failed"), mcp:
        raise AssertionError("the test failed")
    assert len(pids) >= 2
    for pid in pids:
        assert procs.wait_stopped(pid)


class _Collector(http.server.BaseHTTPRequestHandler):
    received: ClassVar[List[Dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append(
            {"auth": self.headers.get("Authorization"), "report": json.loads(body)}
        )
        self.send_response(201)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_recorded_results_reach_the_uploaded_report(mcp: McpClient) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
    _Collector.received = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        mcp.call("echo", {"message": "hi"})
        mcp.record("my own check", "fail", duration_ms=12, message="it broke", file="t.py", line=3)
        mcp.set_upload(f"http://127.0.0.1:{server.server_address[1]}/report", token="secret")
        flushed = mcp.flush()
    finally:
        server.shutdown()
        server.server_close()
    assert flushed.uploaded
    assert flushed.status == 201
    assert flushed.results == 2
    [upload] = _Collector.received
    assert upload["auth"] == "Bearer secret"
    assert "my own check" in json.dumps(upload["report"])
    with pytest.raises(ValueError, match="none of pass, fail, skip"):
        mcp.record("x", "passed")


def test_a_cassette_replays_what_it_recorded(everything: ServerSpec, tmp_path: Path) -> None:
    tape = tmp_path / "echo.cassette.json"
    with McpClient.connect(everything) as mcp:
        assert mcp.set_cassette("record", str(tape)) == {"mode": "record", "path": str(tape)}
        assert mcp.call("echo", {"message": "taped"}).text == "taped"
        mcp.set_cassette("off", str(tape))
    assert tape.is_file()
    with McpClient.connect(everything) as mcp:
        mcp.set_cassette("replay", str(tape))
        assert mcp.call("echo", {"message": "taped"}).text == "taped"


def test_the_cache_mode_is_set(mcp: McpClient, tmp_path: Path) -> None:
    store = tmp_path / "cache.json"
    assert mcp.set_cache("readwrite", str(store)) == {"mode": "readwrite", "path": str(store)}
    assert mcp.call("echo", {"message": "cached"}).text == "cached"
