"""How to reach the MCP server under test: a program's argv (with env and
working directory), a Streamable HTTP URL or a legacy HTTP+SSE URL, the
latter two with the credentials the binary sends (headers, a bearer token or
the client-credentials grant, secrets named by environment variable only).

The argv goes to the binary item by item (``mcptest exec ... -- PROGRAM
ARG...``): no shell ever runs it, so nothing needs quoting.

Example::

    ServerSpec.command("python3", "server.py", env={"TOKEN": "x"}, cwd="srv")
    ServerSpec.http("http://127.0.0.1:3001/mcp")
    ServerSpec.sse("http://127.0.0.1:3001/sse", bearer_env="MCP_TOKEN")
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union


@dataclass(frozen=True)
class ServerSpec:
    """A server under test. Build one with :meth:`command`, :meth:`split` or
    :meth:`http`.

    Example: ``ServerSpec.command("python3", "server.py")``.
    """

    argv: Tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: Optional[str] = None
    url: Optional[str] = None
    sse_url: Optional[str] = None
    headers: Mapping[str, str] = field(default_factory=dict)
    bearer_env: Optional[str] = None
    client_id: Optional[str] = None
    client_secret_env: Optional[str] = None
    token_url: Optional[str] = None

    def __post_init__(self) -> None:
        if self.url is not None and self.sse_url is not None:
            raise ValueError("a server is either a Streamable HTTP url or an sse_url, not both")
        address = self.url if self.url is not None else self.sse_url
        if address is not None:
            field_name = "url" if self.url is not None else "sse_url"
            if self.argv or self.env or self.cwd is not None:
                raise ValueError(
                    f"a server is either an argv (with env and cwd) or a {field_name}, not both"
                )
            _check_http(f"server {field_name}", address)
            self._check_credentials()
            return
        given = [name for name in _CREDENTIALS if getattr(self, name)]
        if given:
            raise ValueError(
                f"server {given[0]} is for a server reached at a url or sse_url, "
                "not for a process server (pass the secret in its env instead)"
            )
        if not self.argv:
            raise ValueError("a server needs a program to run: the argv is empty")
        for index, item in enumerate(self.argv):
            if not isinstance(item, str):
                raise ValueError(
                    f"server argv[{index}] is {type(item).__name__} {item!r}, not a string"
                )
        for key, value in self.env.items():
            if not isinstance(key, str) or not isinstance(value, str) or not key or "=" in key:
                raise ValueError(
                    f"server env entry {key!r}={value!r} is not a NAME=VALUE pair of strings"
                )

    def _check_credentials(self) -> None:
        for name, value in self.headers.items():
            if (
                not isinstance(name, str)
                or not isinstance(value, str)
                or not name
                or any(c in name for c in ": \t\r\n")
                or any(c in value for c in "\r\n")
            ):
                raise ValueError(
                    f"server headers entry {name!r}: {value!r} is not a header name "
                    "(no ':' or whitespace) with a one-line string value"
                )
        for name in ("bearer_env", "client_secret_env"):
            variable = getattr(self, name)
            if variable is not None and (
                not isinstance(variable, str) or not variable or "=" in variable
            ):
                raise ValueError(f"server {name} {variable!r} is not an environment variable name")
        if (self.client_id is None) != (self.client_secret_env is None):
            raise ValueError(
                "server client_id and client_secret_env go together "
                "(the client-credentials grant needs both)"
            )
        if self.client_id is not None and not self.client_id:
            raise ValueError("server client_id is empty")
        if self.token_url is not None:
            if self.client_id is None:
                raise ValueError("server token_url needs client_id and client_secret_env")
            _check_http("server token_url", self.token_url)

    @classmethod
    def command(
        cls,
        program: str,
        *args: str,
        env: Optional[Mapping[str, str]] = None,
        cwd: Union[str, os.PathLike[str], None] = None,
    ) -> ServerSpec:
        """A server run as ``program args...`` (no shell).

        Example: ``ServerSpec.command("node", "dist/server.js", env={"DEBUG": "1"})``.
        """
        return cls(
            argv=(program, *args),
            env=dict(env or {}),
            cwd=None if cwd is None else os.fspath(cwd),
        )

    @classmethod
    def split(
        cls,
        command_line: str,
        *,
        env: Optional[Mapping[str, str]] = None,
        cwd: Union[str, os.PathLike[str], None] = None,
    ) -> ServerSpec:
        """A server from one command line, split like a POSIX shell would
        (``shlex.split``), though no shell runs it.

        Example: ``ServerSpec.split("python3 'my server.py' --stdio")``.
        """
        argv = shlex.split(command_line)
        if not argv:
            raise ValueError(f"server command line {command_line!r} names no program")
        return cls.command(*argv, env=env, cwd=cwd)

    @classmethod
    def http(
        cls,
        url: str,
        *,
        headers: Optional[Mapping[str, str]] = None,
        bearer_env: Optional[str] = None,
        client_id: Optional[str] = None,
        client_secret_env: Optional[str] = None,
        token_url: Optional[str] = None,
    ) -> ServerSpec:
        """A server reached over Streamable HTTP, with optional credentials:
        ``headers`` (a value may say ``${VAR}``, read by the binary from its
        environment), ``bearer_env`` (the variable holding a bearer token),
        or ``client_id`` + ``client_secret_env`` (+ ``token_url``) for the
        client-credentials grant.

        Example: ``ServerSpec.http("http://127.0.0.1:3001/mcp", headers={"X-Key": "${KEY}"})``.
        """
        return cls(
            url=url,
            headers=dict(headers or {}),
            bearer_env=bearer_env,
            client_id=client_id,
            client_secret_env=client_secret_env,
            token_url=token_url,
        )

    @classmethod
    def sse(
        cls,
        url: str,
        *,
        headers: Optional[Mapping[str, str]] = None,
        bearer_env: Optional[str] = None,
        client_id: Optional[str] = None,
        client_secret_env: Optional[str] = None,
        token_url: Optional[str] = None,
    ) -> ServerSpec:
        """A server of the legacy HTTP+SSE transport, named by its
        event-stream URL; the credentials are those of :meth:`http`.

        Example: ``ServerSpec.sse("http://127.0.0.1:3001/sse", bearer_env="MCP_TOKEN")``.
        """
        return cls(
            sse_url=url,
            headers=dict(headers or {}),
            bearer_env=bearer_env,
            client_id=client_id,
            client_secret_env=client_secret_env,
            token_url=token_url,
        )

    @classmethod
    def of(cls, value: Any, where: str) -> ServerSpec:
        """``value`` as a spec: a spec, or a list/tuple of argv strings.
        ``where`` names the source in the error.

        Example: ``ServerSpec.of(["python3", "server.py"], "my fixture")``.
        """
        if isinstance(value, ServerSpec):
            return value
        if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
            return cls.command(*value) if value else cls()
        raise TypeError(
            f"{where} gave {type(value).__name__} {value!r}; expected a "
            "mcptest.ServerSpec or a list of argv strings"
        )

    def exec_args(self) -> List[str]:
        """The ``mcptest exec`` arguments that name this server.

        Example: ``["--server-cwd", "srv", "--", "python3", "server.py"]``.
        """
        if self.url is not None or self.sse_url is not None:
            flags = (
                ["--server-url", self.url]
                if self.url is not None
                else ["--server-sse", str(self.sse_url)]
            )
            for name, value in self.headers.items():
                flags += ["--header", f"{name}: {value}"]
            if self.bearer_env is not None:
                flags += ["--bearer-env", self.bearer_env]
            if self.client_id is not None:
                flags += ["--client-id", self.client_id]
                flags += ["--client-secret-env", str(self.client_secret_env)]
            if self.token_url is not None:
                flags += ["--token-url", self.token_url]
            return flags
        args: List[str] = []
        for key, value in self.env.items():
            args += ["--server-env", f"{key}={value}"]
        if self.cwd is not None:
            args += ["--server-cwd", self.cwd]
        return [*args, "--", *self.argv]

    def suite_param(self) -> Dict[str, Any]:
        """This server as ``suite.run``'s ``server`` param: an argv, or a
        url or sse url with its credentials (variables are named, never
        read here: the binary reads them).

        Example: ``{"sse": "http://127.0.0.1:3001/sse", "bearer_env": "MCP_TOKEN"}``.
        """
        if self.url is not None or self.sse_url is not None:
            remote: Dict[str, Any] = (
                {"url": self.url} if self.url is not None else {"sse": self.sse_url}
            )
            if self.headers:
                remote["headers"] = dict(self.headers)
            for name in _CREDENTIALS[1:]:
                value = getattr(self, name)
                if value is not None:
                    remote[name] = value
            return remote
        param: Dict[str, Any] = {"argv": list(self.argv)}
        if self.env:
            param["env"] = dict(self.env)
        if self.cwd is not None:
            param["cwd"] = self.cwd
        return param

    def __str__(self) -> str:
        if self.url is not None:
            return self.url
        if self.sse_url is not None:
            return f"{self.sse_url} (sse)"
        shown = shlex.join(self.argv)
        if self.cwd is not None:
            shown += f" (in {self.cwd})"
        return shown


_CREDENTIALS = ("headers", "bearer_env", "client_id", "client_secret_env", "token_url")


def _check_http(what: str, value: Any) -> None:
    if not isinstance(value, str) or not value.startswith(("http://", "https://")):
        raise ValueError(f"{what} {value!r} is not an http:// or https:// URL")
