"""One ``mcptest exec`` process and the coprocess channel to it.

The engine spawns the binary, performs the handshake (the protocol pin
:data:`PROTOCOL_VERSION` is the one literal of it), then exchanges one
request line for one response line, strictly in order. Its stdout is read
by a thread into a queue so every wait has a deadline; its stderr is drained
by another thread into a bounded tail shown in failures. :meth:`Engine.close`
sends ``mcp.shutdown``, then kills the process group after a grace period,
and reaps it; engines still open when Python exits are closed then.

Two environment variables serve test runs:

- ``MCPTEST_CHECK_FRAMES=1`` adds ``--check-frames``: the binary validates
  every frame against the coprocess schema.
- ``MCPTEST_TRACE_FRAMES=PATH`` appends every frame sent and received to
  ``PATH`` as JSON lines (``{"direction", "method", "frame"}``).

Example::

    engine = Engine.start(ServerSpec.command("python3", "server.py"))
    try:
        verdict = engine.request("mcp.call", {"tool": "echo", "arguments": {"message": "hi"}})
    finally:
        engine.close()
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import queue
import signal
import subprocess
import threading
from typing import IO, Any, Dict, List, Mapping, NoReturn, Optional, Set

from . import __version__
from ._binary import find_binary
from ._strict import Fields
from .errors import (
    BinaryNotFound,
    EngineDied,
    EngineError,
    EngineTimeout,
    FrameError,
    McpConnectionError,
    McpTestError,
    McpTimeoutError,
    McpUpstreamError,
    ProtocolMismatch,
    SuiteLoadError,
    _section,
    sdk_frames_hidden,
)
from .results import Handshake
from .server import ServerSpec

__tracebackhide__ = sdk_frames_hidden

PROTOCOL_VERSION = 3
"""The coprocess protocol version this SDK speaks: the pin, checked on the
handshake before any test traffic."""

SDK_NAME = "python"

DEFAULT_TIMEOUT = 30.0
"""Seconds one upstream call may take (the binary's ``--call-timeout``)."""

DEFAULT_ANSWER_MARGIN = 5.0
"""Seconds the SDK waits beyond the binary's own limit before it gives up
on the binary itself."""

HANDSHAKE_TIMEOUT = 10.0
"""The least time the binary gets to start and answer the handshake, however
short the call timeout: a loaded machine may take seconds to start it."""

SHUTDOWN_GRACE = 3.0
"""Seconds the binary gets to answer ``mcp.shutdown`` and exit before it is
killed."""

_STDERR_TAIL_BYTES = 64 * 1024
_CALLED_MAX = 300

_TRUE = {"1", "true", "yes", "on"}

# Every engine not yet closed, held so that none is lost unclosed: those
# still open when Python exits are closed then.
_LIVE: Set[Engine] = set()


def check_frames_from_env() -> bool:
    """True when ``MCPTEST_CHECK_FRAMES`` asks for ``--check-frames``.

    Example: ``MCPTEST_CHECK_FRAMES=1 pytest`` turns it on in every spawn.
    """
    return os.environ.get("MCPTEST_CHECK_FRAMES", "").strip().lower() in _TRUE


def _describe_call(method: str, params: Optional[Mapping[str, Any]]) -> str:
    if not params:
        return method
    shown = json.dumps(params, sort_keys=True, ensure_ascii=False)
    if len(shown) > _CALLED_MAX:
        shown = shown[: _CALLED_MAX - 1] + "…"
    return f"{method} {shown}"


def _seconds_arg(seconds: float) -> str:
    return f"{max(1, round(seconds * 1000))}ms"


class _Tail:
    """The last bytes a stream wrote, bounded."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._lock = threading.Lock()

    def add(self, chunk: bytes) -> None:
        with self._lock:
            self._buffer += chunk
            if len(self._buffer) > _STDERR_TAIL_BYTES:
                del self._buffer[: len(self._buffer) - _STDERR_TAIL_BYTES]

    def text(self, lines: int = 40) -> str:
        with self._lock:
            data = bytes(self._buffer)
        return "\n".join(data.decode("utf-8", "replace").splitlines()[-lines:])


class Engine:
    """A running ``mcptest exec`` with its handshake done.

    Start one with :meth:`start`; it is not safe to share between threads
    beyond its own locking of one request at a time.

    Example: ``Engine.start(None).request("suite.list", {"paths": ["evals"]})``.
    """

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        timeout: float,
        answer_margin: float,
    ) -> None:
        self._process = process
        self.timeout = timeout
        self.answer_margin = answer_margin
        self._lines: queue.Queue[Optional[bytes]] = queue.Queue()
        self._stderr = _Tail()
        self._lock = threading.Lock()
        self._next_id = 0
        self._stopped = False
        self._trace = os.environ.get("MCPTEST_TRACE_FRAMES") or None
        self.handshake: Optional[Handshake] = None
        assert process.stdout is not None
        assert process.stderr is not None
        self._threads = [
            threading.Thread(
                target=self._pump_stdout, args=(process.stdout,), name="mcptest-stdout", daemon=True
            ),
            threading.Thread(
                target=self._pump_stderr, args=(process.stderr,), name="mcptest-stderr", daemon=True
            ),
        ]
        for thread in self._threads:
            thread.start()
        _LIVE.add(self)

    @classmethod
    def start(
        cls,
        server: Optional[ServerSpec],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        answer_margin: float = DEFAULT_ANSWER_MARGIN,
        check_frames: Optional[bool] = None,
        binary: Optional[str] = None,
        cwd: Optional[str] = None,
    ) -> Engine:
        """Spawns the binary (for ``server``, or none for a suites-only
        session) and performs the handshake.

        ``timeout`` is the binary's ``--call-timeout`` in seconds; the SDK
        waits ``answer_margin`` seconds more for any answer. ``check_frames``
        None means ``MCPTEST_CHECK_FRAMES``. ``cwd`` is the binary's working
        directory (suite paths resolve against it).

        Example: ``Engine.start(ServerSpec.command("my-server"), timeout=5)``.
        """
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, not {timeout}")
        path = find_binary(binary)
        argv = [path, "exec", "--connection-server", "--call-timeout", _seconds_arg(timeout)]
        if check_frames_from_env() if check_frames is None else check_frames:
            argv.append("--check-frames")
        if server is not None:
            argv += server.exec_args()
        try:
            process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                # Its own process group, so a kill reaches the server it started too.
                start_new_session=True,
            )
        except OSError as error:
            raise BinaryNotFound(f"cannot start the mcptest binary {path!r}: {error}") from error
        engine = cls(process, timeout, answer_margin)
        try:
            engine._handshake()
        except BaseException:
            engine.close(grace=0.5)
            raise
        return engine

    @property
    def pid(self) -> int:
        """The binary's process id.

        Example: ``os.kill(engine.pid, 0)`` while it runs.
        """
        return self._process.pid

    def stderr_tail(self, lines: int = 40) -> str:
        """The last ``lines`` lines the binary wrote to stderr.

        Example: ``print(engine.stderr_tail())``.
        """
        return self._stderr.text(lines)

    # -- the channel -------------------------------------------------------

    def _pump_stdout(self, stream: IO[bytes]) -> None:
        try:
            for line in iter(stream.readline, b""):
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        finally:
            self._lines.put(None)

    def _pump_stderr(self, stream: IO[bytes]) -> None:
        try:
            read = getattr(stream, "read1", stream.read)
            for chunk in iter(lambda: read(65536), b""):
                self._stderr.add(chunk)
        except (OSError, ValueError):
            pass

    def _record(self, direction: str, method: str, frame: Any, raw: Optional[str] = None) -> None:
        if self._trace is None:
            return
        entry: Dict[str, Any] = {"direction": direction, "method": method, "pid": self.pid}
        if raw is None:
            entry["frame"] = frame
        else:
            entry["line"] = raw
        line = json.dumps(entry, ensure_ascii=False) + "\n"
        with open(self._trace, "a", encoding="utf-8") as out:
            out.write(line)

    def request(
        self,
        method: str,
        params: Optional[Mapping[str, Any]] = None,
        *,
        timeout: Optional[float] = None,
    ) -> Any:
        """Sends one request and returns its ``result``; a JSON-RPC error
        becomes the matching :class:`~mcptest.errors.EngineError`.

        ``timeout`` is how long to wait for the answer (default: the
        binary's own call timeout plus the margin); past it the binary is
        killed and :class:`~mcptest.errors.EngineTimeout` raised.

        Example: ``engine.request("mcp.listTools")["tools"]``.
        """
        called = _describe_call(method, params)
        wait = self.timeout + self.answer_margin if timeout is None else timeout
        with self._lock:
            if self._stopped:
                raise EngineDied(called, self._process.poll(), self.stderr_tail())
            self._next_id += 1
            request_id = self._next_id
            frame: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
            if params is not None:
                frame["params"] = dict(params)
            self._record("sent", method, frame)
            try:
                assert self._process.stdin is not None
                self._process.stdin.write(json.dumps(frame).encode("utf-8") + b"\n")
                self._process.stdin.flush()
            except (OSError, ValueError):
                self._died(called)
            try:
                line = self._lines.get(timeout=wait)
            except queue.Empty:
                self._kill()
                raise EngineTimeout(called, wait, self.stderr_tail()) from None
            except BaseException:
                # Interrupted (Ctrl-C) with an answer still owed: the channel
                # is out of step for good, so the binary goes now.
                self._kill()
                raise
            if line is None:
                self._died(called)
            return self._answer(method, params, called, request_id, line)

    def _died(self, called: str) -> NoReturn:
        self._stopped = True
        self._lines.put(None)  # later requests see the end too
        try:
            code: Optional[int] = self._process.wait(timeout=SHUTDOWN_GRACE)
        except subprocess.TimeoutExpired:
            code = None
        raise EngineDied(called, code, self.stderr_tail())

    def _answer(
        self,
        method: str,
        params: Optional[Mapping[str, Any]],
        called: str,
        request_id: int,
        line: bytes,
    ) -> Any:
        text = line.decode("utf-8", "replace").strip()
        try:
            frame = json.loads(text)
        except ValueError as error:
            self._record("received", method, None, raw=text)
            shown = text if len(text) <= 200 else text[:200] + "…"
            raise FrameError(
                method, f"the answer line is not JSON ({error}): {shown!r}", self.stderr_tail()
            ) from None
        self._record("received", method, frame)
        envelope = Fields(frame, method, "the response")
        envelope.string("jsonrpc")
        if frame["jsonrpc"] != "2.0":
            raise envelope.fail(f'`jsonrpc` is {frame["jsonrpc"]!r}, not "2.0"')
        answered_id = envelope.any("id")
        has_error = "error" in frame
        has_result = "result" in frame
        result = envelope.any("result", required=False)
        error_value = envelope.any("error", required=False)
        envelope.done()
        if has_error == has_result:
            raise envelope.fail("a response holds exactly one of `result` and `error`")
        if has_result and answered_id != request_id:
            raise envelope.fail(f"`id` is {answered_id!r}; the request's was {request_id}")
        if has_error:
            if answered_id not in (request_id, None):
                raise envelope.fail(f"`id` is {answered_id!r}; the request's was {request_id}")
            raise self._error(method, called, error_value)
        return result

    def _error(self, method: str, called: str, value: Any) -> McpTestError:
        """The exception for a JSON-RPC error object, read strictly."""
        error = Fields(value, method, "the error")
        code = error.integer("code")
        message = error.string("message")
        data = error.any("data", required=False)
        error.done()
        tail = self.stderr_tail()
        if code == -32000:
            fields = Fields(data, method, "the -32000 error's data")
            upstream_value = fields.opt_obj("upstream")
            upstream = None
            if upstream_value is not None:
                upstream = Fields(upstream_value, method, "the -32000 error's data.upstream")
            failure = McpUpstreamError(
                called,
                code,
                message,
                data,
                upstream_method=fields.string("method"),
                tool=fields.opt_string("tool"),
                upstream_code=None if upstream is None else upstream.integer("code"),
                upstream_message=None if upstream is None else upstream.string("message"),
                upstream_data=None if upstream is None else upstream.any("data", required=False),
                stderr_tail=tail,
            )
            if upstream is not None:
                upstream.done()
            fields.done()
            return failure
        if code == -32001:
            fields = Fields(data, method, "the -32001 error's data")
            fields.string("method")
            dropped = McpConnectionError(
                called,
                code,
                message,
                data,
                exit_code=fields.opt_integer("exit_code"),
                server_stderr=fields.opt_string("stderr_tail") or "",
                stderr_tail=tail,
            )
            fields.done()
            return dropped
        if code == -32603 and isinstance(data, dict) and "timeout_ms" in data:
            fields = Fields(data, method, "the -32603 error's data")
            fields.string("method")
            late = McpTimeoutError(
                called,
                code,
                message,
                data,
                timeout_ms=fields.integer("timeout_ms"),
                stderr_tail=tail,
            )
            fields.done()
            return late
        if code == -32602 and method == "suite.list" and isinstance(data, dict) and "file" in data:
            fields = Fields(data, method, "the -32602 error's data")
            unloadable = SuiteLoadError(
                called,
                code,
                message,
                data,
                file=fields.string("file"),
                line=fields.opt_integer("line"),
                column=fields.opt_integer("column"),
                stderr_tail=tail,
            )
            fields.done()
            return unloadable
        return EngineError(called, code, message, data, stderr_tail=tail)

    # -- handshake and shutdown -------------------------------------------

    def _handshake(self) -> None:
        try:
            result = self.request(
                "coprocess/handshake",
                {"protocol_version": PROTOCOL_VERSION, "sdk": SDK_NAME, "sdk_version": __version__},
                timeout=max(HANDSHAKE_TIMEOUT, self.timeout + self.answer_margin),
            )
        except EngineDied as died:
            # A usage error (exit 2) that names an argument it does not know
            # is a binary older than the v3 command line (`-- PROGRAM ARG...`,
            # --check-frames, --server-env): a mismatch, said before any traffic.
            if died.exit_code == 2 and "unexpected argument" in died.stderr_tail:
                raise ProtocolMismatch(
                    "the mcptest binary refused the coprocess v3 command line: it is older "
                    f"than this SDK, which needs coprocess v{PROTOCOL_VERSION}. Upgrade the "
                    "mcptest binary (`cargo install --path mcptest-cli` from a clone), or pin "
                    "this SDK to the matching release."
                    + _section("mcptest stderr (last lines)", died.stderr_tail),
                    binary=None,
                    sdk=PROTOCOL_VERSION,
                ) from None
            raise EngineDied(
                "coprocess/handshake",
                died.exit_code,
                died.stderr_tail,
                "exited before the handshake",
            ) from None
        except EngineError as error:
            if error.code == -32601:
                raise ProtocolMismatch(
                    f"mcptest binary speaks coprocess v1; this SDK needs v{PROTOCOL_VERSION}. "
                    "Upgrade the mcptest binary (`cargo install --path mcptest-cli` from a "
                    "clone), or pin this SDK to the matching release.",
                    binary=1,
                    sdk=PROTOCOL_VERSION,
                ) from None
            if error.code == -32602:
                binary = error.data.get("binary") if isinstance(error.data, dict) else None
                raise ProtocolMismatch(error.message, binary=binary, sdk=PROTOCOL_VERSION) from None
            raise
        version = result.get("protocol_version") if isinstance(result, dict) else PROTOCOL_VERSION
        if version != PROTOCOL_VERSION:
            if isinstance(version, int) and version > PROTOCOL_VERSION:
                upgrade = (
                    "Upgrade the python SDK (pip install -U mcptest), or pin the mcptest "
                    "binary to the matching release."
                )
            else:
                upgrade = (
                    "Upgrade the mcptest binary (`cargo install --path mcptest-cli` from a "
                    "clone), or pin this SDK to the matching release."
                )
            raise ProtocolMismatch(
                f"coprocess protocol version mismatch: the mcptest binary answered the "
                f"handshake with v{version}, this python SDK speaks v{PROTOCOL_VERSION}. {upgrade}",
                binary=version,
                sdk=PROTOCOL_VERSION,
            )
        self.handshake = Handshake.parse(result)

    def _kill_group(self) -> None:
        """SIGKILL to the binary's process group: the binary and whatever it
        started and left behind."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if hasattr(os, "killpg"):
                os.killpg(self._process.pid, signal.SIGKILL)
            else:  # pragma: no cover - not POSIX
                self._process.kill()

    def _kill(self) -> None:
        """Kills the binary and its process group, then reaps it."""
        self._stopped = True
        if self._process.poll() is None:
            self._kill_group()
        # SIGKILL is not refused; the bound only keeps a wedged kernel from hanging us.
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=SHUTDOWN_GRACE)

    def close(self, grace: float = SHUTDOWN_GRACE) -> Optional[int]:
        """Shuts the binary down: ``mcp.shutdown``, then a kill after
        ``grace`` seconds; reaps it and its pipes. Safe to call twice.
        Returns the binary's exit code.

        Example: ``engine.close()``.
        """
        if not self._stopped and self._process.poll() is None:
            # A binary that fails to answer is killed below.
            with contextlib.suppress(McpTestError):
                self.request("mcp.shutdown", {}, timeout=grace)
        with self._lock:
            self._stopped = True
            stdin = self._process.stdin
            if stdin is not None:
                with contextlib.suppress(OSError):
                    stdin.close()
            try:
                self._process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self._kill()
            self._kill_group()
            for thread in self._threads:
                thread.join(timeout=grace)
            for stream in (self._process.stdout, self._process.stderr):
                if stream is not None:
                    stream.close()
        _LIVE.discard(self)
        return self._process.returncode


def _close_all() -> None:
    for engine in list(_LIVE):
        engine.close(grace=1.0)


atexit.register(_close_all)


def engines_alive() -> List[int]:
    """The pids of engines started and not yet closed in this process.

    Example: ``assert not engines_alive()`` at the end of a test session.
    """
    return [engine.pid for engine in _LIVE]
