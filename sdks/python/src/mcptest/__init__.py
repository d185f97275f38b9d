"""mcptest for Python: test MCP servers from pytest through the ``mcptest``
binary.

The package is a pytest plugin (the ``mcp`` fixture, the ``mcp_server``
marker, suite files collected as tests) and a synchronous client,
:class:`McpClient`, usable without pytest. It never speaks MCP itself: it
drives ``mcptest exec`` over the coprocess protocol (v3, :data:`PROTOCOL_VERSION`).

Example::

    import pytest

    @pytest.mark.mcp_server("python3", "server.py")
    def test_adds(mcp):
        assert mcp.call("add", {"a": 2, "b": 3}).text == "5"
"""

__version__ = "0.1.0"

from ._engine import PROTOCOL_VERSION
from .client import McpClient
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
)
from .results import (
    FlushResult,
    Handshake,
    LogEntry,
    Message,
    PassthroughResult,
    Prompt,
    PromptArgument,
    PromptMessage,
    PromptResult,
    Resource,
    ResourceContents,
    ResourceRead,
    ResourceTemplate,
    ServerInfo,
    ServerMessages,
    Skip,
    SuiteTest,
    TestVerdict,
    Tool,
    Verdict,
)
from .server import ServerSpec
from .suite import SuiteRunner

__all__ = [
    "PROTOCOL_VERSION",
    "BinaryNotFound",
    "EngineDied",
    "EngineError",
    "EngineTimeout",
    "FlushResult",
    "FrameError",
    "Handshake",
    "LogEntry",
    "McpClient",
    "McpConnectionError",
    "McpTestError",
    "McpTimeoutError",
    "McpUpstreamError",
    "Message",
    "PassthroughResult",
    "Prompt",
    "PromptArgument",
    "PromptMessage",
    "PromptResult",
    "ProtocolMismatch",
    "Resource",
    "ResourceContents",
    "ResourceRead",
    "ResourceTemplate",
    "ServerInfo",
    "ServerMessages",
    "ServerSpec",
    "Skip",
    "SuiteLoadError",
    "SuiteRunner",
    "SuiteTest",
    "TestVerdict",
    "Tool",
    "Verdict",
    "__version__",
]
