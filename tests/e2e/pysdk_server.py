"""A small MCP server on the official Python SDK (mcp==2.3.0), for mcptest's e2e tests.

It speaks both protocol eras: the 2025-11-25 initialize handshake and 2026-07-28
stateless (`server/discover`, per-request `_meta`); on stdio the first request of a
connection decides which.

    python pysdk_server.py                        # stdio
    python pysdk_server.py --http [--port N]      # streamable HTTP on 127.0.0.1
                                                  # (port 0 / omitted: the OS picks)
    python pysdk_server.py --sse [--port N]       # the legacy HTTP+SSE transport

With --http it prints `listening on http://127.0.0.1:<port>/mcp` on stdout once
the server accepts connections (with --sse, the event stream's `/sse`).
"""

import argparse
import socket

from mcp.server.mcpserver import MCPServer
from mcp.types import Completion, PromptReference, ResourceTemplateReference

mcp = MCPServer("pysdk-e2e", version="1.0.0")


@mcp.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@mcp.tool()
def greet(name: str) -> str:
    """Greet someone by name."""
    return f"Hello, {name}!"


@mcp.tool()
def boom() -> str:
    """Always fails: raises an exception."""
    raise RuntimeError("boom: this tool always fails")


@mcp.prompt()
def hello(name: str) -> str:
    """A prompt that says hello to `name`."""
    return f"Say hello to {name}."


@mcp.resource("pysdk://static/text", mime_type="text/plain")
def static_text() -> str:
    """A static text resource."""
    return "static text from the python sdk server"


@mcp.resource("pysdk://items/{id}", mime_type="text/plain")
def item(id: str) -> str:
    """One item, by id."""
    return f"item {id}"


@mcp.completion()
async def complete(ref, argument, context):
    if isinstance(ref, PromptReference) and ref.name == "hello" and argument.name == "name":
        names = ["Alice", "Bob", "Carol"]
    elif isinstance(ref, ResourceTemplateReference) and argument.name == "id":
        names = ["1", "2", "3", "10"]
    else:
        return None
    values = [n for n in names if n.startswith(argument.value)]
    return Completion(values=values, total=len(values), has_more=False)


def serve_http(port: int, sse: bool) -> None:
    import anyio
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as e:
        raise SystemExit(f"pysdk_server: cannot bind 127.0.0.1:{port}: {e.strerror}")
    bound = sock.getsockname()[1]

    class Server(uvicorn.Server):
        async def startup(self, sockets=None):
            await super().startup(sockets=sockets)
            if self.started:
                print(f"listening on http://127.0.0.1:{bound}{path}", flush=True)

    if sse:
        path, app = "/sse", mcp.sse_app(host="127.0.0.1")
    else:
        path, app = "/mcp", mcp.streamable_http_app(host="127.0.0.1")
    server = Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    anyio.run(lambda: server.serve(sockets=[sock]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    transport.add_argument("--sse", action="store_true", help="serve the legacy HTTP+SSE transport")
    parser.add_argument("--port", type=int, default=0, help="HTTP port (default 0: the OS picks)")
    args = parser.parse_args()
    if args.http or args.sse:
        serve_http(args.port, args.sse)
    else:
        mcp.run()


if __name__ == "__main__":
    main()
