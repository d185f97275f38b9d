"""A headless OAuth client on the Python SDK (mcp 2.3.0) for client
conformance with authorization: `OAuthClientProvider` authorizes against the
protected recording server, its redirect handler GETs the authorization URL
(which approves at once with a 302) and hands the code back, with no browser.

It lists the tools, waits out its first token (the server issues it for
2 s) and lists them again, then calls `echo`, which needs a wider scope
(403 insufficient_scope, the step-up).

It registers dynamically unless it is given a pre-registered client: by
`--client-id ID [--client-secret SECRET]`, or by the official suite's
MCP_CONFORMANCE_CONTEXT (`client_id`, `client_secret`). The client record
is then in its storage from the start, as an application that was
registered out of band keeps it; with a secret it authenticates by HTTP
Basic. With `--client-metadata-url URL` it offers that Client ID Metadata
Document URL (the SDK takes only https ones) to a server that supports them.

    python pysdk_oauth_client.py [--client-id ID [--client-secret SECRET]]
        [--client-metadata-url URL] URL
"""

import asyncio
import json
import os
import sys

import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)

# Never contacted: the code is read from the authorization endpoint's 302.
REDIRECT = "http://127.0.0.1:1/callback"
LIMIT = 20


class Memory(TokenStorage):
    """Tokens and client registration kept for this run only."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


def registration(args: list[str]) -> tuple[str | None, str | None, str | None]:
    """The pre-registered client id and secret, from the arguments or the
    official suite's context, and the metadata document URL."""
    options = dict(zip(args[::2], args[1::2]))
    unknown = set(options) - {"--client-id", "--client-secret", "--client-metadata-url"}
    if unknown or len(args) % 2:
        sys.exit(
            "usage: pysdk_oauth_client.py [--client-id ID [--client-secret S]] "
            f"[--client-metadata-url URL] URL; got {args}"
        )
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    client_id = options.get("--client-id") or context.get("client_id")
    secret = options.get("--client-secret") or context.get("client_secret")
    return client_id, secret, options.get("--client-metadata-url")


async def main(url: str, client_id: str | None, secret: str | None, document: str | None) -> None:
    returned: dict[str, str | None] = {}

    async def redirect(authorization_url: str) -> None:
        async with httpx2.AsyncClient(follow_redirects=False, timeout=10) as http:
            answer = await http.get(authorization_url)
        back = httpx2.URL(answer.headers["location"])
        returned["code"] = back.params.get("code")
        returned["state"] = back.params.get("state")
        # RFC 9207: an authorization server that advertises `iss` sends it
        # back, and the SDK checks it.
        returned["iss"] = back.params.get("iss")

    async def callback() -> AuthorizationCodeResult:
        return AuthorizationCodeResult(
            code=returned["code"] or "", state=returned["state"], iss=returned.get("iss")
        )

    storage = Memory()
    if client_id is not None:
        storage.client = OAuthClientInformationFull(
            client_id=client_id,
            client_secret=secret,
            redirect_uris=[REDIRECT],
            client_name="pysdk-oauth-client",
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="client_secret_basic" if secret else "none",
        )
    provider = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            redirect_uris=[REDIRECT],
            client_name="pysdk-oauth-client",
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=storage,
        client_metadata_url=document,
        redirect_handler=redirect,
        callback_handler=callback,
    )
    http = create_mcp_http_client(auth=provider)
    async with Client(streamable_http_client(url, http_client=http)) as client:
        await client.list_tools()
        await asyncio.sleep(2.5)
        await client.list_tools()
        await client.call_tool("echo", {"text": "hi"})


if __name__ == "__main__":
    client_id, secret, document = registration(sys.argv[1:-1])
    asyncio.run(asyncio.wait_for(main(sys.argv[-1], client_id, secret, document), LIMIT))
