"""Strict reading of the binary's shapes, and server specs, without a binary."""

from __future__ import annotations

from typing import Any, Dict

import pytest

from mcptest import FrameError, Message, PassthroughResult, ServerSpec, SuiteTest, TestVerdict
from mcptest.results import Verdict

VERDICT: Dict[str, Any] = {
    "success": True,
    "text": "5",
    "data": None,
    "error": None,
    "duration_ms": 3,
    "content": [{"type": "text", "text": "5"}],
    "messages": [{"method": "notifications/progress", "params": {"progress": 1}}],
    "logs": [{"level": "info", "logger": "calc", "data": "adding"}],
}

TEST_VERDICT: Dict[str, Any] = {
    "id": "a.yaml::t",
    "name": "t",
    "status": "pass",
    "duration_ms": 4,
    "location": "a.yaml:1:1",
    "failure": None,
    "skip_reason": None,
    "properties": {},
}


def test_a_verdict_reads_every_field() -> None:
    verdict = Verdict.parse(VERDICT)
    assert verdict.text == "5"
    assert verdict.messages == [Message("notifications/progress", {"progress": 1})]
    assert verdict.logs[0].logger == "calc"


@pytest.mark.parametrize(
    ("change", "detail"),
    [
        ({"colour": "red", "size": 1}, "the verdict: unknown fields `colour`, `size`"),
        ({"success": 1}, "the verdict: field `success` is an integer, not a boolean"),
        ({"duration_ms": True}, "the verdict: field `duration_ms` is a boolean, not an integer"),
        ({"logs": [{"level": "info"}]}, "the verdict: logs[0]: missing field `data`"),
        (
            {"messages": [{"method": "ping", "params": None, "id": 1}]},
            "messages[0]: `id` and `reply` come together",
        ),
    ],
)
def test_a_verdict_that_breaks_the_contract_is_refused(change: Dict[str, Any], detail: str) -> None:
    with pytest.raises(FrameError) as caught:
        Verdict.parse({**VERDICT, **change})
    assert caught.value.method == "mcp.call"
    assert detail in str(caught.value)


def test_a_missing_field_is_refused() -> None:
    shape = dict(VERDICT)
    del shape["text"]
    with pytest.raises(FrameError, match="the verdict: missing field `text`"):
        Verdict.parse(shape)


def test_passthrough_is_recognised_and_open() -> None:
    result = PassthroughResult.parse({"content": [], "isError": True, "newField": 1})
    assert not result.success
    assert result.raw["newField"] == 1
    with pytest.raises(FrameError, match="it has a `success` member, so it is a verdict"):
        PassthroughResult.parse(VERDICT)


def test_a_test_verdicts_status_and_texts_agree() -> None:
    assert TestVerdict.parse(TEST_VERDICT).status == "pass"
    with pytest.raises(FrameError, match="status `fail` with failure=None"):
        TestVerdict.parse({**TEST_VERDICT, "status": "fail"})
    with pytest.raises(FrameError, match="status `maybe` is none of pass, fail, skip"):
        TestVerdict.parse({**TEST_VERDICT, "status": "maybe"})


def test_a_listed_tests_skip_is_closed() -> None:
    listed = {
        "id": "i",
        "name": "n",
        "file": "f.yaml",
        "line": 2,
        "column": 1,
        "lane": "tool",
        "skip": {"reason": "r", "command": "mcptest run f.yaml"},
    }
    assert SuiteTest.parse(listed, "tests[0]").skip is not None
    with pytest.raises(FrameError, match=r"tests\[0\].skip: unknown field `why`"):
        SuiteTest.parse({**listed, "skip": {"reason": "r", "why": "w"}}, "tests[0]")


def test_server_specs_refuse_what_cannot_run() -> None:
    with pytest.raises(ValueError, match="the argv is empty"):
        ServerSpec()
    with pytest.raises(ValueError, match="not an http:// or https:// URL"):
        ServerSpec.http("ftp://example")
    with pytest.raises(ValueError, match="names no program"):
        ServerSpec.split("   ")
    with pytest.raises(
        TypeError, match=r"expected a mcptest\.ServerSpec or a list of argv strings"
    ):
        ServerSpec.of("python3 server.py", "my fixture")


def test_server_specs_become_exec_arguments_and_suite_params() -> None:
    spec = ServerSpec.split("python3 'my server.py'", env={"K": "v"}, cwd="srv")
    assert spec.exec_args() == [
        "--server-env",
        "K=v",
        "--server-cwd",
        "srv",
        "--",
        "python3",
        "my server.py",
    ]
    assert spec.suite_param() == {
        "argv": ["python3", "my server.py"],
        "env": {"K": "v"},
        "cwd": "srv",
    }
    assert str(spec) == "python3 'my server.py' (in srv)"
    url = ServerSpec.http("http://127.0.0.1:3001/mcp")
    assert url.exec_args() == ["--server-url", "http://127.0.0.1:3001/mcp"]
    assert url.suite_param() == {"url": "http://127.0.0.1:3001/mcp"}
