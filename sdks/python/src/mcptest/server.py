"""How to reach the MCP server under test: a program's argv (with env and
working directory) or a Streamable HTTP URL.

The argv goes to the binary item by item (``mcptest exec ... -- PROGRAM
ARG...``): no shell ever runs it, so nothing needs quoting.

Example::

    ServerSpec.command("python3", "server.py", env={"TOKEN": "x"}, cwd="srv")
    ServerSpec.http("http://127.0.0.1:3001/mcp")
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

    def __post_init__(self) -> None:
        if self.url is not None:
            if self.argv or self.env or self.cwd is not None:
                raise ValueError("a server is either an argv (with env and cwd) or a url, not both")
            if not self.url.startswith(("http://", "https://")):
                raise ValueError(f"server url {self.url!r} is not an http:// or https:// URL")
            return
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
    def http(cls, url: str) -> ServerSpec:
        """A server reached over Streamable HTTP.

        Example: ``ServerSpec.http("http://127.0.0.1:3001/mcp")``.
        """
        return cls(url=url)

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
        if self.url is not None:
            return ["--server-url", self.url]
        args: List[str] = []
        for key, value in self.env.items():
            args += ["--server-env", f"{key}={value}"]
        if self.cwd is not None:
            args += ["--server-cwd", self.cwd]
        return [*args, "--", *self.argv]

    def suite_param(self) -> Dict[str, Any]:
        """This server as ``suite.run``'s ``server`` param.

        Example: ``{"argv": ["python3", "server.py"]}``.
        """
        if self.url is not None:
            return {"url": self.url}
        param: Dict[str, Any] = {"argv": list(self.argv)}
        if self.env:
            param["env"] = dict(self.env)
        if self.cwd is not None:
            param["cwd"] = self.cwd
        return param

    def __str__(self) -> str:
        if self.url is not None:
            return self.url
        shown = shlex.join(self.argv)
        if self.cwd is not None:
            shown += f" (in {self.cwd})"
        return shown
