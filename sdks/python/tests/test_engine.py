"""The channel to the binary: finding it, the handshake and its pin,
strict frames, deadlines, stderr draining and shutdown — mostly against the
fake binary, which stages each failure on demand.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

import pytest

import procs
from mcptest import (
    PROTOCOL_VERSION,
    BinaryNotFound,
    EngineDied,
    EngineTimeout,
    FrameError,
    McpClient,
    ProtocolMismatch,
    ServerSpec,
    SuiteRunner,
)
from mcptest._engine import Engine

Fake = Callable[[str], Path]


def spawns(log: Path) -> List[Dict[str, Any]]:
    """What each spawn of the fake logged."""
    return [json.loads(line) for line in log.read_text().splitlines()]


SERVER = ServerSpec.command("my-server", "--flag with space", env={"TOKEN": "a=b"}, cwd="/srv")


def test_the_pin_is_what_the_real_binary_speaks(real_binary: str) -> None:
    engine = Engine.start(None)
    try:
        assert engine.handshake is not None
        assert engine.handshake.protocol_version == PROTOCOL_VERSION == 3
        assert "suite.run" in engine.handshake.methods
        assert "tool" in engine.handshake.lanes
        assert "check-frames" in engine.handshake.features
    finally:
        engine.close()


def test_the_handshake_goes_first_with_the_argv_and_check_frames(
    fake: Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake("ok")
    log = tmp_path / "spawns.jsonl"
    monkeypatch.setenv("MCPTEST_FAKE_LOG", str(log))
    with McpClient.connect(SERVER, timeout=2.5) as mcp:
        assert mcp.handshake.binary_version == "0.0.0-fake"
        assert mcp.call("echo", {"message": "hi"}).text == "hi"
    [spawn] = spawns(log)
    assert spawn["argv"] == [
        "exec",
        "--connection-server",
        "--call-timeout",
        "2500ms",
        "--check-frames",
        "--server-env",
        "TOKEN=a=b",
        "--server-cwd",
        "/srv",
        "--",
        "my-server",
        "--flag with space",
    ]
    sent = [json.loads(line) for line in (tmp_path / "frames.jsonl").read_text().splitlines()]
    assert sent[0]["frame"]["method"] == "coprocess/handshake"
    assert sent[0]["frame"]["params"]["protocol_version"] == PROTOCOL_VERSION


def test_check_frames_follows_the_environment_unless_told(
    fake: Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake("ok")
    log = tmp_path / "spawns.jsonl"
    monkeypatch.setenv("MCPTEST_FAKE_LOG", str(log))
    monkeypatch.setenv("MCPTEST_CHECK_FRAMES", "0")
    Engine.start(None).close()
    Engine.start(None, check_frames=True).close()
    first, second = spawns(log)
    assert "--check-frames" not in first["argv"]
    assert "--check-frames" in second["argv"]


@pytest.mark.frames_break_schema  # a v2 binary's mismatch data is v2's: {"binary": 2}
def test_an_older_binary_fails_fast_with_its_own_words(fake: Fake) -> None:
    fake("older")
    with pytest.raises(ProtocolMismatch) as caught:
        McpClient.connect(SERVER)
    message = str(caught.value)
    assert "speaks v2, the python SDK sent v3" in message
    assert "Upgrade the mcptest binary" in message
    assert caught.value.binary == 2
    assert caught.value.sdk == 3


def test_a_newer_binary_fails_fast_naming_the_sdk_to_upgrade(fake: Fake) -> None:
    fake("newer")
    with pytest.raises(ProtocolMismatch) as caught:
        McpClient.connect(SERVER)
    assert "speaks v4 to v5, the python SDK sent v3" in str(caught.value)
    assert "Upgrade the python SDK" in str(caught.value)
    assert caught.value.binary == [4, 5]


def test_a_binary_older_than_the_v3_command_line_is_a_mismatch(fake: Fake) -> None:
    fake("v2-cli")
    with pytest.raises(ProtocolMismatch) as caught:
        McpClient.connect(SERVER)
    message = str(caught.value)
    assert message.startswith("the mcptest binary refused the coprocess v3 command line")
    assert "Upgrade the mcptest binary" in message
    assert "error: unexpected argument '--flag with space' found" in message


def test_a_binary_that_exits_before_the_handshake_shows_why(fake: Fake) -> None:
    fake("usage")
    with pytest.raises(EngineDied) as caught:
        McpClient.connect(SERVER)
    assert str(caught.value).startswith(
        "coprocess/handshake: the mcptest binary exited before the handshake (exit code 2)"
    )
    assert "the server program `my-server` was not found on PATH" in str(caught.value)


@pytest.mark.frames_break_schema  # a v3 handshake result says 3
def test_a_handshake_answered_with_another_version_fails_fast(fake: Fake) -> None:
    fake("newer-result")
    with pytest.raises(ProtocolMismatch) as caught:
        McpClient.connect(SERVER)
    message = str(caught.value)
    assert "answered the handshake with v4, this python SDK speaks v3" in message
    assert "Upgrade the python SDK" in message


def test_a_v1_binary_fails_fast(fake: Fake) -> None:
    fake("v1")
    with pytest.raises(ProtocolMismatch) as caught:
        McpClient.connect(SERVER)
    assert str(caught.value).startswith(
        "mcptest binary speaks coprocess v1; this SDK needs v3. Upgrade the mcptest binary"
    )


@pytest.mark.frames_break_schema  # a v2 binary's mismatch data is v2's: {"binary": 2}
def test_a_mismatch_sends_no_test_traffic_and_leaves_no_process(fake: Fake, tmp_path: Path) -> None:
    fake("older")
    with pytest.raises(ProtocolMismatch):
        McpClient.connect(SERVER)
    records = [json.loads(line) for line in (tmp_path / "frames.jsonl").read_text().splitlines()]
    assert {record["method"] for record in records} == {"coprocess/handshake", "mcp.shutdown"}
    assert procs.wait_gone(records[0]["pid"])


@pytest.mark.frames_break_schema
def test_an_unknown_field_in_a_verdict_fails_loudly(fake: Fake) -> None:
    fake("verdict-extra")
    with McpClient.connect(SERVER) as mcp, pytest.raises(FrameError) as caught:
        mcp.call("echo", {"message": "hi"})
    message = str(caught.value)
    assert "mcp.call" in message
    assert "unknown field `colour`" in message
    assert caught.value.method == "mcp.call"


@pytest.mark.frames_break_schema
def test_an_unknown_top_level_field_fails_loudly(fake: Fake) -> None:
    fake("envelope-extra")
    with McpClient.connect(SERVER) as mcp, pytest.raises(FrameError) as caught:
        mcp.call("echo")
    assert "the response: unknown field `extra`" in str(caught.value)
    assert "mcp.call" in str(caught.value)


@pytest.mark.frames_break_schema
def test_an_unknown_field_in_a_test_listing_fails_loudly(fake: Fake) -> None:
    fake("listing-extra")
    with SuiteRunner.start() as suites, pytest.raises(FrameError) as caught:
        suites.list(["a.yaml"])
    assert "suite.list" in str(caught.value)
    assert "tests[0]: unknown field `colour`" in str(caught.value)


@pytest.mark.frames_break_schema
def test_a_line_that_is_not_json_fails_loudly(fake: Fake) -> None:
    fake("garbage")
    with McpClient.connect(SERVER) as mcp, pytest.raises(FrameError) as caught:
        mcp.call("echo")
    assert "the answer line is not JSON" in str(caught.value)
    assert "'this is not JSON'" in str(caught.value)


def test_an_answer_to_another_request_fails_loudly(fake: Fake) -> None:
    fake("wrong-id")
    with McpClient.connect(SERVER) as mcp, pytest.raises(FrameError) as caught:
        mcp.call("echo")
    assert "`id` is 999" in str(caught.value)


def test_a_binary_that_never_answers_fails_the_handshake_in_time(
    fake: Fake, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake("silent")
    monkeypatch.setattr("mcptest._engine.HANDSHAKE_TIMEOUT", 0.5)
    started = time.monotonic()
    with pytest.raises(EngineTimeout) as caught:
        Engine.start(None, timeout=0.2, answer_margin=0.1)
    assert time.monotonic() - started < 5
    assert "coprocess/handshake" in str(caught.value)
    assert "did not answer within 0.5 s" in str(caught.value)


def test_a_binary_that_hangs_on_a_call_fails_the_call_in_time(fake: Fake) -> None:
    fake("silent-after-handshake")
    mcp = McpClient.connect(SERVER, timeout=0.2, answer_margin=0.3)
    pid = mcp.pid
    started = time.monotonic()
    with pytest.raises(EngineTimeout) as caught:
        mcp.call("echo", {"message": "hi"})
    assert time.monotonic() - started < 5
    assert 'mcp.call {"arguments": {"message": "hi"}, "tool": "echo"}' in str(caught.value)
    assert procs.wait_gone(pid), "the hung binary was killed and reaped"
    with pytest.raises(EngineDied):
        mcp.call("echo")
    mcp.close()


def test_a_binary_that_dies_shows_its_exit_code_and_stderr(fake: Fake) -> None:
    fake("die-on-call")
    with McpClient.connect(SERVER) as mcp, pytest.raises(EngineDied) as caught:
        mcp.call("echo")
    assert caught.value.exit_code == 3
    assert "fake mcptest: dying on purpose" in str(caught.value)


def test_stderr_is_drained_while_the_binary_writes_megabytes(fake: Fake) -> None:
    fake("stderr-flood")
    with McpClient.connect(SERVER, timeout=10) as mcp:
        assert mcp.call("echo").success
        deadline = time.monotonic() + 5
        while "the last line of the flood" not in mcp.stderr_tail(1):
            assert time.monotonic() < deadline, mcp.stderr_tail(3)
            time.sleep(0.02)


def test_close_leaves_no_process_behind(fake: Fake) -> None:
    fake("ok")
    mcp = McpClient.connect(SERVER)
    pid = mcp.pid
    assert procs.running(pid)
    assert mcp.close() == 0
    assert procs.wait_gone(pid)
    assert mcp.close() == 0, "closing twice is harmless"


def test_an_interrupted_call_stops_the_binary(fake: Fake) -> None:
    fake("silent-after-handshake")
    mcp = McpClient.connect(SERVER, timeout=30)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            mcp.call("echo")
    finally:
        timer.cancel()
    assert procs.wait_gone(mcp.pid), "Ctrl-C during a call kills and reaps the binary"
    with pytest.raises(EngineDied):
        mcp.call("echo")
    mcp.close()


def test_close_kills_a_binary_that_ignores_shutdown(fake: Fake) -> None:
    fake("silent-after-handshake")
    engine = Engine.start(None)
    started = time.monotonic()
    engine.close(grace=0.3)
    assert time.monotonic() - started < 3
    assert procs.wait_gone(engine.pid)


def test_no_binary_says_how_to_install_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MCPTEST_BIN", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr("sysconfig.get_path", lambda name: str(tmp_path))
    with pytest.raises(BinaryNotFound) as caught:
        McpClient.connect(SERVER)
    assert "no mcptest binary" in str(caught.value)
    assert "cargo install --path mcptest-cli" in str(caught.value)


def test_a_wrong_mcptest_bin_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MCPTEST_BIN", str(tmp_path / "nowhere"))
    with pytest.raises(BinaryNotFound) as caught:
        McpClient.connect(SERVER)
    assert f"MCPTEST_BIN names '{tmp_path / 'nowhere'}', which does not exist" in str(caught.value)
    not_executable = tmp_path / "mcptest"
    not_executable.write_text("")
    monkeypatch.setenv("MCPTEST_BIN", str(not_executable))
    with pytest.raises(BinaryNotFound, match="is not an executable file"):
        McpClient.connect(SERVER)


def test_mcptest_on_path_is_found(
    fake: Fake, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake("ok")
    monkeypatch.delenv("MCPTEST_BIN")
    (tmp_path / "mcptest").symlink_to(Path(__file__).parent / "fakes" / "fake_mcptest.py")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    with McpClient.connect(SERVER) as mcp:
        assert mcp.handshake.binary_version == "0.0.0-fake"
