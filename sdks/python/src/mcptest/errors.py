"""The errors the SDK raises, one class per way a test can go wrong.

Every class derives from :class:`McpTestError`, so ``except McpTestError``
catches them all; the three failure layers of MCP stay apart: a tool that
reports failure is a :class:`~mcptest.Verdict` with ``success`` false (no
exception), a JSON-RPC error from the server is :class:`McpUpstreamError`, a
server that dies or never comes up is :class:`McpConnectionError`.

Example::

    try:
        mcp.call("rpc_error")
    except McpUpstreamError as error:
        assert error.upstream_code == -32603
"""

from __future__ import annotations

import json
from typing import Any, Optional


def sdk_frames_hidden(excinfo: Any) -> bool:
    """pytest's ``__tracebackhide__`` for the SDK's modules: a test that
    fails with one of these errors shows its own line and the message, not
    the SDK's frames (``--fulltrace`` shows them); any other exception keeps
    every frame.

    Example: ``__tracebackhide__ = sdk_frames_hidden`` at a module's top.
    """
    return excinfo is not None and isinstance(getattr(excinfo, "value", None), McpTestError)


def _section(title: str, text: Optional[str]) -> str:
    """A titled, indented block for the end of a message (empty if no text)."""
    if not text or not text.strip():
        return ""
    body = "\n".join("    " + line for line in text.rstrip().splitlines())
    return f"\n{title}:\n{body}"


class McpTestError(Exception):
    """Base class of every error raised by the mcptest SDK.

    Example: ``except mcptest.McpTestError as error: print(error)``.
    """


class BinaryNotFound(McpTestError):
    """No ``mcptest`` binary could be found or started.

    Example: raised by ``McpClient.connect(...)`` when neither ``MCPTEST_BIN``
    nor ``mcptest`` on ``PATH`` names an executable.
    """


class ProtocolMismatch(McpTestError):
    """The binary speaks another coprocess protocol version than the SDK.

    Raised before any test traffic. ``binary`` is the version (or range)
    the binary reported, when it said; ``sdk`` is the SDK's pin.

    Example: ``except ProtocolMismatch as e: print(e.binary, e.sdk)``.
    """

    def __init__(self, message: str, *, binary: Any = None, sdk: int) -> None:
        super().__init__(message)
        self.binary = binary
        self.sdk = sdk


class FrameError(McpTestError):
    """A frame from the binary broke the coprocess contract.

    An unknown field, a missing field or a value of the wrong type: the SDK
    refuses to guess. ``method`` is the coprocess method whose answer broke.

    Example: ``except FrameError as e: assert "unknown field" in str(e)``.
    """

    def __init__(self, method: str, detail: str, stderr_tail: str = "") -> None:
        message = (
            f"the mcptest binary's answer to {method} breaks the coprocess "
            f"protocol: {detail} (the binary and this SDK disagree on the "
            "protocol; upgrade the older of the two)"
        )
        super().__init__(message + _section("mcptest stderr (last lines)", stderr_tail))
        self.method = method
        self.detail = detail


class EngineDied(McpTestError):
    """The binary exited (or closed its stdout) while a request was pending,
    or a request was sent after it had stopped.

    Example: ``except EngineDied as e: print(e.exit_code, e.stderr_tail)``.
    """

    def __init__(
        self,
        called: str,
        exit_code: Optional[int],
        stderr_tail: str,
        what: str = "stopped answering",
    ) -> None:
        status = "still running" if exit_code is None else f"exit code {exit_code}"
        super().__init__(
            f"{called}: the mcptest binary {what} ({status})"
            + _section("mcptest stderr (last lines)", stderr_tail)
        )
        self.exit_code = exit_code
        self.stderr_tail = stderr_tail


class EngineTimeout(McpTestError):
    """The binary did not answer within the SDK's own deadline (its
    ``--call-timeout`` plus a margin); the binary was stopped.

    Example: ``except EngineTimeout as e: print(e.timeout)``.
    """

    def __init__(self, called: str, timeout: float, stderr_tail: str) -> None:
        super().__init__(
            f"{called}: the mcptest binary did not answer within {timeout:g} s; "
            "it was stopped" + _section("mcptest stderr (last lines)", stderr_tail)
        )
        self.timeout = timeout
        self.stderr_tail = stderr_tail


class EngineError(McpTestError):
    """The binary answered a request with a JSON-RPC error.

    ``code``, ``message`` and ``data`` are the error's members; ``called``
    says what was sent. The subclasses below are the errors with a meaning
    of their own; any other code (a request the binary refused, -326xx)
    arrives as this class.

    Example: ``except EngineError as e: print(e.code, e.message)``.
    """

    def __init__(
        self,
        called: str,
        code: int,
        message: str,
        data: Any = None,
        *,
        stderr_tail: str = "",
        text: Optional[str] = None,
    ) -> None:
        shown = text if text is not None else f"mcptest answered {code}: {message}"
        super().__init__(
            f"{called} failed: {shown}" + _section("mcptest stderr (last lines)", stderr_tail)
        )
        self.called = called
        self.code = code
        self.message = message
        self.data = data


class McpUpstreamError(EngineError):
    """The MCP server answered with a JSON-RPC error, or an answer the engine
    could not take (coprocess -32000).

    ``upstream_code``, ``upstream_message`` and ``upstream_data`` are the
    server's JSON-RPC error (None when the failure was of another kind, such
    as a result that breaks the MCP schema); ``upstream_method`` the MCP
    method; ``tool`` the tool called, if any.

    Example: ``except McpUpstreamError as e: assert e.upstream_code == -32602``.
    """

    def __init__(
        self,
        called: str,
        code: int,
        message: str,
        data: Any,
        *,
        upstream_code: Optional[int],
        upstream_message: Optional[str],
        upstream_data: Any,
        upstream_method: str,
        tool: Optional[str],
        stderr_tail: str = "",
    ) -> None:
        subject = upstream_method + (f" ({tool})" if tool else "")
        if upstream_code is None:
            text = f"the MCP server's answer to {subject} was refused: {message}"
        else:
            text = (
                f"the MCP server answered {subject} with JSON-RPC error "
                f"{upstream_code}: {upstream_message}"
            )
        if upstream_data is not None:
            text += f"\nerror data: {json.dumps(upstream_data, sort_keys=True)}"
        super().__init__(called, code, message, data, stderr_tail=stderr_tail, text=text)
        self.upstream_code = upstream_code
        self.upstream_message = upstream_message
        self.upstream_data = upstream_data
        self.upstream_method = upstream_method
        self.tool = tool


class McpConnectionError(EngineError):
    """The connection to the MCP server dropped or never came up
    (coprocess -32001): the server crashed, exited, or could not start.

    ``exit_code`` is the server's exit code when known, ``server_stderr`` the
    tail of what it printed.

    Example: ``except McpConnectionError as e: print(e.exit_code, e.server_stderr)``.
    """

    def __init__(
        self,
        called: str,
        code: int,
        message: str,
        data: Any,
        *,
        exit_code: Optional[int],
        server_stderr: str,
        stderr_tail: str = "",
    ) -> None:
        text = f"the MCP server connection failed: {message}"
        if exit_code is not None:
            text += f"\nserver exit code: {exit_code}"
        text += _section("server stderr (last lines)", server_stderr)
        super().__init__(called, code, message, data, stderr_tail=stderr_tail, text=text)
        self.exit_code = exit_code
        self.server_stderr = server_stderr


class McpTimeoutError(EngineError):
    """An upstream request took longer than the binary's ``--call-timeout``
    (coprocess -32603 with ``data.timeout_ms``).

    Example: ``except McpTimeoutError as e: print(e.timeout_ms)``.
    """

    def __init__(
        self,
        called: str,
        code: int,
        message: str,
        data: Any,
        *,
        timeout_ms: int,
        stderr_tail: str = "",
    ) -> None:
        super().__init__(
            called,
            code,
            message,
            data,
            stderr_tail=stderr_tail,
            text=f"the MCP server did not answer in time: {message}",
        )
        self.timeout_ms = timeout_ms


class SuiteLoadError(EngineError):
    """A suite file did not load (``suite.list`` answered -32602 naming
    the file); the message is the loader's, ``file:line:column: ...``.

    Example: ``except SuiteLoadError as e: print(e.file, e.line)``.
    """

    def __init__(
        self,
        called: str,
        code: int,
        message: str,
        data: Any,
        *,
        file: str,
        line: Optional[int],
        column: Optional[int],
        stderr_tail: str = "",
    ) -> None:
        super().__init__(called, code, message, data, stderr_tail=stderr_tail, text=message)
        self.file = file
        self.line = line
        self.column = column
