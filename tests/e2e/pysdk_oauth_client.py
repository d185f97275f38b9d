"""A headless OAuth client on the Python SDK (mcp 2.3.0) for client
conformance with authorization: `OAuthClientProvider` authorizes against the
protected recording server, its redirect handler GETs the authorization URL
(which approves at once with a 302) and hands the code back, with no browser.

It lists the tools, waits out its first token (the server issues it for
2 s) and lists them again, then calls `echo`, which needs a wider scope
(403 insufficient_scope, the step-up).

    python pysdk_oauth_client.py URL
"""

import asyncio
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


async def main(url: str) -> None:
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

    provider = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            redirect_uris=[REDIRECT],
            client_name="pysdk-oauth-client",
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=Memory(),
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
    asyncio.run(asyncio.wait_for(main(sys.argv[1]), LIMIT))
