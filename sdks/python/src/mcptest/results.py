"""Typed results of the coprocess methods, each parsed strictly from its frame.

The binary's own shapes (the handshake, a call's verdict, a listed suite
test, a test verdict) are closed: an unknown field is a
:class:`~mcptest.errors.FrameError`. The MCP objects inside them (tools,
content blocks, resources) belong to the MCP revision the server speaks; they
keep their common fields typed and the whole object in ``raw``.

Example::

    verdict = mcp.call("add", {"a": 2, "b": 3})
    assert verdict.success and verdict.text == "5"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from ._strict import Fields, describe
from .errors import sdk_frames_hidden

__tracebackhide__ = sdk_frames_hidden

JsonObject = Dict[str, Any]


@dataclass(frozen=True)
class Handshake:
    """What the binary said of itself on ``coprocess/handshake``.

    Example: ``"tool" in mcp.handshake.lanes``.
    """

    protocol_version: int
    binary_version: str
    methods: Tuple[str, ...]
    lanes: Tuple[str, ...]
    features: Tuple[str, ...]

    @classmethod
    def parse(cls, value: object) -> Handshake:
        """Reads the handshake result."""
        fields = Fields(value, "coprocess/handshake", "the result")
        parsed = cls(
            protocol_version=fields.integer("protocol_version"),
            binary_version=fields.string("binary_version"),
            methods=tuple(fields.string_list("methods")),
            lanes=tuple(fields.string_list("lanes")),
            features=tuple(fields.string_list("features")),
        )
        fields.done()
        return parsed


@dataclass(frozen=True)
class ServerInfo:
    """The server under test, as ``mcp.initialize`` reports it.

    Example: ``mcp.server_info.name == "fixture-everything"``.
    """

    name: str
    version: str
    protocol_version: str
    capabilities: Optional[JsonObject]

    @classmethod
    def parse(cls, value: object) -> ServerInfo:
        """Reads the ``mcp.initialize`` result."""
        fields = Fields(value, "mcp.initialize", "the result")
        info = Fields(fields.obj("serverInfo"), "mcp.initialize", "serverInfo")
        name, version = info.string("name"), info.string("version")
        info.done()
        parsed = cls(
            name=name,
            version=version,
            protocol_version=fields.string("protocolVersion"),
            capabilities=fields.opt_obj("capabilities", required=True),
        )
        fields.done()
        return parsed


@dataclass(frozen=True)
class Message:
    """A notification or request the server sent on its own.

    ``params`` is as the server sent it (None when it had none). For a
    request to the client, ``is_request`` is true, ``id`` is its id and
    ``reply`` what the client answered (None until it answered).

    Example: ``[m.method for m in verdict.messages]``.
    """

    method: str
    params: Any
    is_request: bool = False
    id: Any = None
    reply: Any = None

    @classmethod
    def parse(cls, value: object, method: str, where: str) -> Message:
        """Reads one item of a ``messages`` array."""
        fields = Fields(value, method, where)
        raw: JsonObject = value  # type: ignore[assignment]  # Fields checked it is a dict
        if ("id" in raw) != ("reply" in raw):
            raise fields.fail("`id` and `reply` come together (a request to the client)")
        parsed = cls(
            method=fields.string("method"),
            params=fields.any("params"),
            is_request="id" in raw,
            id=fields.any("id", required=False),
            reply=fields.any("reply", required=False),
        )
        fields.done()
        return parsed


@dataclass(frozen=True)
class LogEntry:
    """A ``notifications/message`` log entry.

    Example: ``verdict.logs[0].level == "info"``.
    """

    level: str
    data: Any
    logger: Optional[str] = None

    @classmethod
    def parse(cls, value: object, method: str, where: str) -> LogEntry:
        """Reads one item of a ``logs`` array."""
        fields = Fields(value, method, where)
        parsed = cls(
            level=fields.string("level"),
            logger=fields.opt_string("logger"),
            data=fields.any("data"),
        )
        fields.done()
        return parsed


def _messages(fields: Fields, method: str) -> List[Message]:
    return [
        Message.parse(item, method, f"{fields.where}: messages[{index}]")
        for index, item in enumerate(fields.array("messages"))
    ]


def _logs(fields: Fields, method: str) -> List[LogEntry]:
    return [
        LogEntry.parse(item, method, f"{fields.where}: logs[{index}]")
        for index, item in enumerate(fields.array("logs"))
    ]


@dataclass(frozen=True)
class Verdict:
    """What one ``mcp.call`` came to.

    ``success`` is a tool result whose ``isError`` is not true; ``text`` the
    text blocks joined by newlines; ``data`` the ``structuredContent`` (or
    None); ``error`` the text when the tool reported failure; ``content``
    the upstream content blocks verbatim; ``messages`` what the server sent
    during the call (``logs`` the log entries among them).

    Example::

        verdict = mcp.call("add", {"a": 2, "b": 3})
        assert verdict.success, verdict.error
        assert verdict.text == "5"
    """

    success: bool
    text: str
    data: Any
    error: Optional[str]
    duration_ms: int
    content: List[JsonObject]
    messages: List[Message]
    logs: List[LogEntry]

    @classmethod
    def parse(cls, value: object) -> Verdict:
        """Reads an ``mcp.call`` verdict."""
        fields = Fields(value, "mcp.call", "the verdict")
        parsed = cls(
            success=fields.boolean("success"),
            text=fields.string("text"),
            data=fields.any("data"),
            error=fields.opt_string("error", required=True),
            duration_ms=fields.integer("duration_ms"),
            content=fields.objects("content"),
            messages=_messages(fields, "mcp.call"),
            logs=_logs(fields, "mcp.call"),
        )
        fields.done()
        return parsed


@dataclass(frozen=True)
class PassthroughResult:
    """The upstream ``tools/call`` result, verbatim (``mcp.call`` with
    ``passthrough``). ``raw`` is the whole result, including any member a
    newer MCP revision adds.

    Example::

        result = mcp.call_passthrough("fail")
        assert result.is_error and not result.success
    """

    content: List[JsonObject]
    is_error: bool
    structured_content: Any
    meta: Optional[JsonObject]
    raw: JsonObject

    @property
    def success(self) -> bool:
        """True unless the tool reported failure (``isError``)."""
        return not self.is_error

    @classmethod
    def parse(cls, value: object) -> PassthroughResult:
        """Reads a passthrough result; refuses a verdict (it has ``success``)."""
        fields = Fields(value, "mcp.call", "the passthrough result")
        raw: JsonObject = value  # type: ignore[assignment]  # Fields checked it is a dict
        if "success" in raw:
            raise fields.fail(
                "it has a `success` member, so it is a verdict, not the upstream "
                "tools/call result a passthrough call asked for"
            )
        content = fields.objects("content")
        is_error = raw.get("isError", False)
        if not isinstance(is_error, bool):
            raise fields.fail(f"field `isError` is {describe(is_error)}, not a boolean")
        meta = raw.get("_meta")
        if meta is not None and not isinstance(meta, dict):
            raise fields.fail(f"field `_meta` is {describe(meta)}, not an object")
        return cls(
            content=content,
            is_error=is_error,
            structured_content=raw.get("structuredContent"),
            meta=meta,
            raw=raw,
        )


def _mcp_object(value: object, method: str, where: str) -> Tuple[Fields, JsonObject]:
    """An MCP object: open (its revision may add members), read for its typed fields."""
    fields = Fields(value, method, where)
    raw: JsonObject = value  # type: ignore[assignment]  # Fields checked it is a dict
    return fields, raw


@dataclass(frozen=True)
class Tool:
    """A tool as ``tools/list`` lists it.

    Example: ``{tool.name for tool in mcp.list_tools()} >= {"echo", "add"}``.
    """

    name: str
    description: Optional[str]
    input_schema: JsonObject
    raw: JsonObject = field(repr=False)

    @classmethod
    def parse(cls, value: object, where: str) -> Tool:
        """Reads one listed tool."""
        fields, raw = _mcp_object(value, "mcp.listTools", where)
        return cls(
            name=fields.string("name"),
            description=fields.opt_string("description"),
            input_schema=fields.obj("inputSchema"),
            raw=raw,
        )


@dataclass(frozen=True)
class Resource:
    """A resource as ``resources/list`` lists it.

    Example: ``[r.uri for r in mcp.list_resources()]``.
    """

    uri: str
    name: str
    description: Optional[str]
    mime_type: Optional[str]
    raw: JsonObject = field(repr=False)

    @classmethod
    def parse(cls, value: object, where: str) -> Resource:
        """Reads one listed resource."""
        fields, raw = _mcp_object(value, "mcp.listResources", where)
        return cls(
            uri=fields.string("uri"),
            name=fields.string("name"),
            description=fields.opt_string("description"),
            mime_type=fields.opt_string("mimeType"),
            raw=raw,
        )


@dataclass(frozen=True)
class ResourceTemplate:
    """A resource template as ``resources/templates/list`` lists it.

    Example: ``[t.uri_template for t in mcp.list_resource_templates()]``.
    """

    uri_template: str
    name: str
    description: Optional[str]
    mime_type: Optional[str]
    raw: JsonObject = field(repr=False)

    @classmethod
    def parse(cls, value: object, where: str) -> ResourceTemplate:
        """Reads one listed template."""
        fields, raw = _mcp_object(value, "mcp.listResourceTemplates", where)
        return cls(
            uri_template=fields.string("uriTemplate"),
            name=fields.string("name"),
            description=fields.opt_string("description"),
            mime_type=fields.opt_string("mimeType"),
            raw=raw,
        )


@dataclass(frozen=True)
class PromptArgument:
    """One argument a prompt takes.

    Example: ``[a.name for a in prompt.arguments if a.required]``.
    """

    name: str
    description: Optional[str]
    required: bool


@dataclass(frozen=True)
class Prompt:
    """A prompt as ``prompts/list`` lists it.

    Example: ``[p.name for p in mcp.list_prompts()]``.
    """

    name: str
    description: Optional[str]
    arguments: List[PromptArgument]
    raw: JsonObject = field(repr=False)

    @classmethod
    def parse(cls, value: object, where: str) -> Prompt:
        """Reads one listed prompt."""
        fields, raw = _mcp_object(value, "mcp.listPrompts", where)
        arguments = []
        for index, item in enumerate(raw.get("arguments") or []):
            argument, _ = _mcp_object(item, "mcp.listPrompts", f"{where}.arguments[{index}]")
            required = item.get("required", False)
            if not isinstance(required, bool):
                raise argument.fail(f"field `required` is {describe(required)}, not a boolean")
            arguments.append(
                PromptArgument(
                    name=argument.string("name"),
                    description=argument.opt_string("description"),
                    required=required,
                )
            )
        return cls(
            name=fields.string("name"),
            description=fields.opt_string("description"),
            arguments=arguments,
            raw=raw,
        )


@dataclass(frozen=True)
class ResourceContents:
    """One item of a ``resources/read`` result: ``text`` or ``blob`` (base64).

    Example: ``mcp.read_resource(uri).contents[0].text``.
    """

    uri: str
    mime_type: Optional[str]
    text: Optional[str]
    blob: Optional[str]
    raw: JsonObject = field(repr=False)


@dataclass(frozen=True)
class ResourceRead:
    """A ``resources/read`` result.

    Example: ``mcp.read_resource("fixture://static/text").text``.
    """

    contents: List[ResourceContents]
    raw: JsonObject = field(repr=False)

    @property
    def text(self) -> str:
        """The text items joined by newlines."""
        return "\n".join(item.text for item in self.contents if item.text is not None)

    @classmethod
    def parse(cls, value: object) -> ResourceRead:
        """Reads the ``mcp.readResource`` result."""
        fields, raw = _mcp_object(value, "mcp.readResource", "the result")
        contents = []
        for index, item in enumerate(fields.objects("contents")):
            entry, _ = _mcp_object(item, "mcp.readResource", f"contents[{index}]")
            contents.append(
                ResourceContents(
                    uri=entry.string("uri"),
                    mime_type=entry.opt_string("mimeType"),
                    text=entry.opt_string("text"),
                    blob=entry.opt_string("blob"),
                    raw=item,
                )
            )
        return cls(contents=contents, raw=raw)


@dataclass(frozen=True)
class PromptMessage:
    """One message of a ``prompts/get`` result; ``content`` is the MCP
    content block.

    Example: ``prompt.messages[0].content["text"]``.
    """

    role: str
    content: JsonObject


@dataclass(frozen=True)
class PromptResult:
    """A ``prompts/get`` result.

    Example: ``mcp.get_prompt("greet", {"name": "Ada"}).messages[0].role``.
    """

    description: Optional[str]
    messages: List[PromptMessage]
    raw: JsonObject = field(repr=False)

    @classmethod
    def parse(cls, value: object) -> PromptResult:
        """Reads the ``mcp.callPrompt`` result."""
        fields, raw = _mcp_object(value, "mcp.callPrompt", "the result")
        messages = []
        for index, item in enumerate(fields.objects("messages")):
            entry, _ = _mcp_object(item, "mcp.callPrompt", f"messages[{index}]")
            messages.append(PromptMessage(role=entry.string("role"), content=entry.obj("content")))
        return cls(description=fields.opt_string("description"), messages=messages, raw=raw)


@dataclass(frozen=True)
class ServerMessages:
    """What the server sent on its own since the last call (``mcp.messages``).

    Example: ``[m.method for m in mcp.messages().messages]``.
    """

    messages: List[Message]
    logs: List[LogEntry]

    @classmethod
    def parse(cls, value: object) -> ServerMessages:
        """Reads the ``mcp.messages`` result."""
        fields = Fields(value, "mcp.messages", "the result")
        parsed = cls(messages=_messages(fields, "mcp.messages"), logs=_logs(fields, "mcp.messages"))
        fields.done()
        return parsed


@dataclass(frozen=True)
class FlushResult:
    """The answer to ``mcp.reporter.flush``: the report was uploaded.

    Example: ``mcp.flush().results`` (how many results the report held).
    """

    uploaded: bool
    status: int
    results: int

    @classmethod
    def parse(cls, value: object) -> FlushResult:
        """Reads the ``mcp.reporter.flush`` result."""
        fields = Fields(value, "mcp.reporter.flush", "the result")
        parsed = cls(
            uploaded=fields.boolean("uploaded"),
            status=fields.integer("status"),
            results=fields.integer("results"),
        )
        fields.done()
        return parsed


@dataclass(frozen=True)
class Skip:
    """Why a listed suite test will not run here; ``command`` is the CLI
    command that runs it, when there is one.

    Example: ``test.skip.command if test.skip else None``.
    """

    reason: str
    command: Optional[str] = None


@dataclass(frozen=True)
class SuiteTest:
    """One test of a suite file, as ``suite.list`` lists it.

    ``id`` is opaque: hand it to ``suite.run`` as given.

    Example: ``f"{test.file}:{test.line}: {test.name}"``.
    """

    id: str
    name: str
    file: str
    line: int
    column: int
    lane: str
    skip: Optional[Skip]

    @classmethod
    def parse(cls, value: object, where: str) -> SuiteTest:
        """Reads one listed test."""
        fields = Fields(value, "suite.list", where)
        skip_value = fields.opt_obj("skip", required=True)
        skip = None
        if skip_value is not None:
            reason = Fields(skip_value, "suite.list", f"{where}.skip")
            skip = Skip(reason=reason.string("reason"), command=reason.opt_string("command"))
            reason.done()
        parsed = cls(
            id=fields.string("id"),
            name=fields.string("name"),
            file=fields.string("file"),
            line=fields.integer("line"),
            column=fields.integer("column"),
            lane=fields.string("lane"),
            skip=skip,
        )
        fields.done()
        return parsed


@dataclass(frozen=True)
class TestVerdict:
    """What ``suite.run`` made of one suite test.

    ``status`` is ``"pass"``, ``"fail"`` or ``"skip"``; ``failure`` is the
    engine's failure text (what ``mcptest run`` prints for the test).

    Example: ``assert verdict.status == "pass", verdict.failure``.
    """

    __test__ = False  # a result type, not a pytest test class

    id: str
    name: str
    status: str
    duration_ms: int
    location: str
    failure: Optional[str]
    skip_reason: Optional[str]
    properties: JsonObject

    @classmethod
    def parse(cls, value: object) -> TestVerdict:
        """Reads a ``suite.run`` verdict; the status and its text must agree."""
        fields = Fields(value, "suite.run", "the verdict")
        parsed = cls(
            id=fields.string("id"),
            name=fields.string("name"),
            status=fields.string("status"),
            duration_ms=fields.integer("duration_ms"),
            location=fields.string("location"),
            failure=fields.opt_string("failure", required=True),
            skip_reason=fields.opt_string("skip_reason", required=True),
            properties=fields.obj("properties"),
        )
        fields.done()
        expected = {"pass": (False, False), "fail": (True, False), "skip": (False, True)}
        shape = expected.get(parsed.status)
        if shape is None:
            raise fields.fail(f"status `{parsed.status}` is none of pass, fail, skip")
        if shape != (parsed.failure is not None, parsed.skip_reason is not None):
            raise fields.fail(
                f"status `{parsed.status}` with failure={parsed.failure!r} and "
                f"skip_reason={parsed.skip_reason!r}"
            )
        return parsed
