"""The synchronous client: one ``mcptest exec`` per server under test, one
method per coprocess method, typed results.

The channel is one request line in, one response line out, so the client
is plain blocking code that works in any test, with or without an event
loop.

Example::

    from mcptest import McpClient, ServerSpec

    with McpClient.connect(ServerSpec.command("python3", "server.py")) as mcp:
        verdict = mcp.call("add", {"a": 2, "b": 3})
        assert verdict.success and verdict.text == "5"
"""

from __future__ import annotations

from types import TracebackType
from typing import Any, Dict, List, Mapping, Optional, Type

from ._engine import DEFAULT_ANSWER_MARGIN, DEFAULT_TIMEOUT, Engine
from ._strict import Fields
from .errors import sdk_frames_hidden
from .results import (
    FlushResult,
    Handshake,
    PassthroughResult,
    Prompt,
    PromptResult,
    Resource,
    ResourceRead,
    ResourceTemplate,
    ServerInfo,
    ServerMessages,
    Tool,
    Verdict,
)
from .server import ServerSpec

__tracebackhide__ = sdk_frames_hidden

_STATUSES = ("pass", "fail", "skip")


def _listing(result: Any, method: str, key: str) -> List[Any]:
    """The one array of a closed ``{key: [...]}`` list result."""
    fields = Fields(result, method, "the result")
    items = fields.array(key)
    fields.done()
    return items


class McpClient:
    """A connected client of one MCP server, through its own ``mcptest``
    binary. Close it (or use it as a context manager) to stop both.

    Example::

        mcp = McpClient.connect(ServerSpec.command("python3", "server.py"))
        try:
            assert "echo" in [tool.name for tool in mcp.list_tools()]
        finally:
            mcp.close()
    """

    def __init__(self, engine: Engine, server: ServerSpec) -> None:
        self._engine = engine
        self.server = server
        self._info: Optional[ServerInfo] = None

    @classmethod
    def connect(
        cls,
        server: ServerSpec,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        answer_margin: float = DEFAULT_ANSWER_MARGIN,
        check_frames: Optional[bool] = None,
        binary: Optional[str] = None,
        cwd: Optional[str] = None,
        initialize: bool = True,
    ) -> McpClient:
        """Spawns the binary for ``server``, performs the handshake and (with
        ``initialize``) starts the MCP connection.

        ``timeout`` bounds each upstream call, in seconds (the binary's
        ``--call-timeout``); the SDK waits ``answer_margin`` seconds more
        before it gives up on the binary. ``check_frames`` None follows
        ``MCPTEST_CHECK_FRAMES``; ``binary`` overrides ``MCPTEST_BIN``;
        ``cwd`` is the binary's working directory, where the server starts
        unless ``server.cwd`` says otherwise.

        Example: ``McpClient.connect(ServerSpec.split("node server.js"), timeout=5)``.
        """
        engine = Engine.start(
            server,
            timeout=timeout,
            answer_margin=answer_margin,
            check_frames=check_frames,
            binary=binary,
            cwd=cwd,
        )
        client = cls(engine, server)
        if initialize:
            try:
                client.initialize()
            except BaseException:
                client.close()
                raise
        return client

    def __enter__(self) -> McpClient:
        return self

    def __exit__(
        self,
        kind: Optional[Type[BaseException]],
        value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"McpClient({self.server}, pid={self.pid})"

    @property
    def handshake(self) -> Handshake:
        """What the binary said of itself (version, methods, lanes, features).

        Example: ``mcp.handshake.binary_version``.
        """
        assert self._engine.handshake is not None, "the engine starts with its handshake"
        return self._engine.handshake

    @property
    def pid(self) -> int:
        """The process id of this client's ``mcptest`` binary.

        Example: ``os.kill(mcp.pid, 0)`` while it runs.
        """
        return self._engine.pid

    def stderr_tail(self, lines: int = 40) -> str:
        """The last lines the binary wrote to its stderr.

        Example: ``print(mcp.stderr_tail())``.
        """
        return self._engine.stderr_tail(lines)

    def close(self) -> Optional[int]:
        """Stops the binary (``mcp.shutdown``, a kill after a grace period)
        and the server with it; returns the binary's exit code. Idempotent.

        Example: ``mcp.close()``.
        """
        return self._engine.close()

    # -- MCP -----------------------------------------------------------------

    def initialize(self) -> ServerInfo:
        """Starts the MCP connection (if not yet) and returns the server's
        name, version, protocol version and capabilities.

        Example: ``mcp.initialize().name``.
        """
        if self._info is None:
            self._info = ServerInfo.parse(self._engine.request("mcp.initialize"))
        return self._info

    @property
    def server_info(self) -> ServerInfo:
        """The server's identity (``initialize()``, remembered).

        Example: ``mcp.server_info.protocol_version``.
        """
        return self.initialize()

    def call(self, tool: str, arguments: Optional[Mapping[str, Any]] = None) -> Verdict:
        """Calls ``tool`` and returns its verdict. A tool that reports failure
        is a verdict with ``success`` false; a JSON-RPC error from the server
        raises :class:`~mcptest.McpUpstreamError`, a dropped connection
        :class:`~mcptest.McpConnectionError`.

        Example: ``assert mcp.call("echo", {"message": "hi"}).text == "hi"``.
        """
        return Verdict.parse(self._engine.request("mcp.call", self._call_params(tool, arguments)))

    def call_passthrough(
        self, tool: str, arguments: Optional[Mapping[str, Any]] = None
    ) -> PassthroughResult:
        """Calls ``tool`` and returns the server's ``tools/call`` result
        verbatim, every member included.

        Example: ``mcp.call_passthrough("weather", {"city": "Oslo"}).structured_content``.
        """
        params = self._call_params(tool, arguments)
        params["passthrough"] = True
        return PassthroughResult.parse(self._engine.request("mcp.call", params))

    @staticmethod
    def _call_params(tool: str, arguments: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
        params: Dict[str, Any] = {"tool": tool}
        if arguments is not None:
            params["arguments"] = dict(arguments)
        return params

    def list_tools(self) -> List[Tool]:
        """Every tool (all pages).

        Example: ``[tool.name for tool in mcp.list_tools()]``.
        """
        items = _listing(self._engine.request("mcp.listTools"), "mcp.listTools", "tools")
        return [Tool.parse(item, f"tools[{index}]") for index, item in enumerate(items)]

    def list_resources(self) -> List[Resource]:
        """Every resource (all pages).

        Example: ``[resource.uri for resource in mcp.list_resources()]``.
        """
        method = "mcp.listResources"
        items = _listing(self._engine.request(method), method, "resources")
        return [Resource.parse(item, f"resources[{index}]") for index, item in enumerate(items)]

    def list_resource_templates(self) -> List[ResourceTemplate]:
        """Every resource template (all pages).

        Example: ``[t.uri_template for t in mcp.list_resource_templates()]``.
        """
        method = "mcp.listResourceTemplates"
        items = _listing(self._engine.request(method), method, "resourceTemplates")
        return [
            ResourceTemplate.parse(item, f"resourceTemplates[{index}]")
            for index, item in enumerate(items)
        ]

    def list_prompts(self) -> List[Prompt]:
        """Every prompt (all pages).

        Example: ``[prompt.name for prompt in mcp.list_prompts()]``.
        """
        items = _listing(self._engine.request("mcp.listPrompts"), "mcp.listPrompts", "prompts")
        return [Prompt.parse(item, f"prompts[{index}]") for index, item in enumerate(items)]

    def read_resource(self, uri: str) -> ResourceRead:
        """Reads the resource at ``uri``.

        Example: ``mcp.read_resource("fixture://static/text").text``.
        """
        return ResourceRead.parse(self._engine.request("mcp.readResource", {"uri": uri}))

    def get_prompt(self, name: str, arguments: Optional[Mapping[str, str]] = None) -> PromptResult:
        """Gets the prompt ``name`` filled with ``arguments``.

        Example: ``mcp.get_prompt("greeting", {"name": "Ada"}).messages``.
        """
        params: Dict[str, Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = dict(arguments)
        return PromptResult.parse(self._engine.request("mcp.callPrompt", params))

    def messages(self) -> ServerMessages:
        """What the server sent on its own since the last call or
        ``messages()`` (then forgotten).

        Example: ``[m.method for m in mcp.messages().messages]``.
        """
        return ServerMessages.parse(self._engine.request("mcp.messages", {}))

    # -- reporting and stores ------------------------------------------------

    def record(
        self,
        name: str,
        status: str,
        *,
        duration_ms: Optional[int] = None,
        message: Optional[str] = None,
        file: Optional[str] = None,
        line: Optional[int] = None,
    ) -> None:
        """Adds a test result of your own to the session's report
        (``status`` is ``"pass"``, ``"fail"`` or ``"skip"``).

        Example: ``mcp.record("checkout flow", "pass", duration_ms=120)``.
        """
        if status not in _STATUSES:
            raise ValueError(f"status {status!r} is none of {', '.join(_STATUSES)}")
        params: Dict[str, Any] = {"name": name, "status": status}
        for key, value in (
            ("duration_ms", duration_ms),
            ("message", message),
            ("file", file),
            ("line", line),
        ):
            if value is not None:
                params[key] = value
        self._empty("mcp.reporter.record", params)

    def set_upload(self, url: str, token: Optional[str] = None) -> None:
        """Names where :meth:`flush` uploads the session's report.

        Example: ``mcp.set_upload("https://ci.example/api/report", token="...")``.
        """
        params: Dict[str, Any] = {"url": url}
        if token is not None:
            params["token"] = token
        self._empty("mcp.reporter.setUpload", params)

    def flush(self) -> FlushResult:
        """Uploads the session's report (every call, suite test and recorded
        result) to the URL given to :meth:`set_upload`.

        Example: ``assert mcp.flush().uploaded``.
        """
        return FlushResult.parse(self._engine.request("mcp.reporter.flush", {}))

    def set_cassette(self, mode: str, path: str) -> Dict[str, Any]:
        """Records or replays the MCP traffic in the cassette at ``path``
        (``mode``: record, replay, auto, off); the connection restarts.
        Returns the binary's answer (mode and path).

        Example: ``mcp.set_cassette("record", "tests/cassettes/echo.json")``.
        """
        return self._store("mcp.cassette.set_mode", mode, path)

    def set_cache(self, mode: str, path: Optional[str] = None) -> Dict[str, Any]:
        """Serves answers from the cache (``mode``: read, write, readwrite,
        off; ``path`` defaults to ``.mcptest/cache.json``).

        Example: ``mcp.set_cache("readwrite")``.
        """
        return self._store("mcp.cache.set_mode", mode, path)

    def _store(self, method: str, mode: str, path: Optional[str]) -> Dict[str, Any]:
        params: Dict[str, Any] = {"mode": mode}
        if path is not None:
            params["path"] = path
        fields = Fields(self._engine.request(method, params), method, "the result")
        answer = {"mode": fields.string("mode"), "path": fields.string("path")}
        fields.done()
        self._info = None  # the connection restarts on the next call
        return answer

    def _empty(self, method: str, params: Mapping[str, Any]) -> None:
        Fields(self._engine.request(method, params), method, "the result").done()
