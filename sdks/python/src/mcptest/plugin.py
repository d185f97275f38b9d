"""The pytest plugin, registered by the ``pytest11`` entry point.

It adds, under the ``mcptest`` option group and ini keys:

- the ``mcp`` fixture: a connected :class:`~mcptest.McpClient` per test,
  for the server the ``mcp_server`` fixture names (the nearest
  ``@pytest.mark.mcp_server(...)``, else ``--mcptest-server`` (a command),
  ``--mcptest-url`` (Streamable HTTP) or ``--mcptest-sse`` (legacy
  HTTP+SSE), else the ``mcptest_server``, ``mcptest_url`` or ``mcptest_sse``
  ini key; override the fixture to build it yourself);
- suite files as tests: each ``.yaml``/``.yml`` file under a path given on
  the command line (``pytest tests/evals``) or under a directory of the
  ``mcptest_suites`` ini key is listed by the binary (``suite.list``), and
  each of its tests runs through the binary (``suite.run``) as one item.

Example (``pytest.ini``)::

    [pytest]
    mcptest_server = python3 server.py --stdio
    mcptest_suites = tests/evals
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Generator, Iterator, List, Optional, Tuple, Union

import pytest

from ._engine import DEFAULT_TIMEOUT
from .client import McpClient
from .errors import McpTestError, SuiteLoadError
from .results import SuiteTest, TestVerdict
from .server import ServerSpec
from .suite import DEFAULT_TEST_TIMEOUT, SuiteRunner

SUITE_SUFFIXES = (".yaml", ".yml")

_MARKER_USAGE = (
    'write it as @pytest.mark.mcp_server("python3", "server.py", env={"KEY": "value"}, '
    'cwd="dir") or @pytest.mark.mcp_server(url="http://127.0.0.1:3001/mcp")'
    ' (sse="http://.../sse" for legacy HTTP+SSE; bearer_env="VAR", headers={...} for credentials)'
)


@dataclass
class Settings:
    """The plugin's options, read once per session from the command line
    and the ini file.

    Example: ``config.stash[SETTINGS].server``.
    """

    server: Optional[ServerSpec]
    fixture: Optional[Path]
    suites: List[Path]
    timeout: float
    test_timeout: float
    check_frames: Optional[bool]
    rootdir: Path
    given: List[Path] = field(default_factory=list)

    def designates(self, path: Path) -> bool:
        """True when the suite file ``path`` was pointed at: it lies under
        an ``mcptest_suites`` entry or a path given on the command line.

        Example: ``settings.designates(Path("tests/evals/add.yaml"))``.
        """
        path = path.resolve()
        return any(root == path or root in path.parents for root in [*self.suites, *self.given])


SETTINGS = pytest.StashKey[Settings]()


@dataclass
class _Suites:
    """The session's suite runner, started on first use; or why it could not start."""

    runner: Optional[SuiteRunner] = None
    failure: Optional[McpTestError] = None


_SUITES = pytest.StashKey[_Suites]()
_CLIENT = pytest.StashKey[McpClient]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Registers the ``--mcptest-*`` options and the ``mcptest_*`` ini keys."""
    group = parser.getgroup("mcptest", "mcptest: test MCP servers through the mcptest binary")
    group.addoption(
        "--mcptest-server",
        metavar="COMMAND",
        default=None,
        help="the server under test, for the mcp fixture and for suite files that name "
        "none: one command line split like a shell would (no shell runs it). "
        "Overrides the mcptest_server ini key.",
    )
    group.addoption(
        "--mcptest-url",
        metavar="URL",
        default=None,
        help="the server under test, reached over Streamable HTTP, instead of a command "
        "(credentials: the mcp_server marker or fixture). Overrides the ini keys.",
    )
    group.addoption(
        "--mcptest-sse",
        metavar="URL",
        default=None,
        help="the server under test, reached over the legacy HTTP+SSE transport at its "
        "event-stream URL, instead of a command. Overrides the ini keys.",
    )
    group.addoption(
        "--mcptest-fixture",
        metavar="DIR",
        default=None,
        help="directory copied afresh for each suite test, as `mcptest run --fixture` "
        "takes it. Overrides the mcptest_fixture ini key.",
    )
    group.addoption(
        "--mcptest-timeout",
        metavar="SECONDS",
        default=None,
        help=f"how long one MCP call may take (default {DEFAULT_TIMEOUT:g}). "
        "Overrides the mcptest_timeout ini key.",
    )
    group.addoption(
        "--mcptest-check-frames",
        action="store_true",
        default=False,
        help="have the binary check every coprocess frame against the schema "
        "(also: ini mcptest_check_frames, env MCPTEST_CHECK_FRAMES=1).",
    )
    parser.addini(
        "mcptest_server",
        type="args",
        help="the server under test: its argv, split like a shell would "
        "(a TOML list in pyproject.toml); runs in the rootdir.",
    )
    parser.addini(
        "mcptest_url",
        type="string",
        default="",
        help="the server under test, reached over Streamable HTTP (instead of mcptest_server).",
    )
    parser.addini(
        "mcptest_sse",
        type="string",
        default="",
        help="the server under test, reached over legacy HTTP+SSE at its event-stream URL "
        "(instead of mcptest_server).",
    )
    parser.addini(
        "mcptest_suites",
        type="paths",
        help="suite files or directories (relative to the ini file) collected as tests.",
    )
    parser.addini(
        "mcptest_fixture",
        type="paths",
        help="directory (relative to the ini file) copied afresh for each suite test.",
    )
    parser.addini(
        "mcptest_timeout",
        type="string",
        default="",
        help=f"seconds one MCP call may take (default {DEFAULT_TIMEOUT:g}).",
    )
    parser.addini(
        "mcptest_test_timeout",
        type="string",
        default="",
        help="seconds a suite test that sets no timeout may take, as `mcptest run "
        f"--timeout` (default {DEFAULT_TEST_TIMEOUT:g}); the SDK waits this plus a margin.",
    )
    parser.addini(
        "mcptest_check_frames",
        type="bool",
        default=False,
        help="have the binary check every coprocess frame against the schema.",
    )


def _seconds(value: Any, where: str, default: float) -> float:
    if value is None or value == "":
        return default
    try:
        seconds = float(value)
    except ValueError:
        raise pytest.UsageError(f"{where} = {value!r} is not a number of seconds") from None
    if not seconds > 0:
        raise pytest.UsageError(f"{where} = {value!r} must be more than 0 seconds")
    return seconds


def _given_paths(config: pytest.Config) -> List[Path]:
    """The paths named on the command line, less the directory pytest runs
    in and its parents: pointing pytest at the whole tree never makes every
    YAML file a suite."""
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        return []
    here = config.invocation_params.dir.resolve()
    given = []
    for arg in config.args:
        path = (here / arg.split("::", 1)[0]).resolve()
        if path == here or path in here.parents:
            continue
        given.append(path)
    return given


_SERVER_KINDS = ("server", "url", "sse")


def _only_one(given: Dict[str, Any]) -> Optional[str]:
    """The one name in ``given`` (each one set); two or more are a usage error."""
    if len(given) > 1:
        raise pytest.UsageError(
            f"{' and '.join(given)} both name the server under test; give one of them"
        )
    return next(iter(given), None)


def _server_of(kind: str, value: Union[str, List[str]]) -> ServerSpec:
    if kind == "url":
        return ServerSpec.http(str(value))
    if kind == "sse":
        return ServerSpec.sse(str(value))
    if isinstance(value, list):
        return ServerSpec.command(*value)
    return ServerSpec.split(value)


def _read_server(config: pytest.Config) -> Optional[ServerSpec]:
    """The default server: a command-line option (given, even empty), else
    an ini key (not empty), each a command, a Streamable HTTP URL or an
    HTTP+SSE URL, one at a time. A bad value is a usage error naming its
    option or key (pytest names neither)."""
    given: Dict[str, Tuple[str, Any]] = {}
    for kind in _SERVER_KINDS:
        value = config.getoption(f"mcptest_{kind}")
        if value is not None:
            given[f"--mcptest-{kind}"] = (kind, value)
    if not given:
        for kind in _SERVER_KINDS:
            source = f"ini mcptest_{kind}"
            try:
                value = config.getini(f"mcptest_{kind}")
            except (ValueError, pytest.UsageError) as error:
                raise pytest.UsageError(f"{source}: {error}") from None
            if value:
                given[source] = (kind, value)
    chosen = _only_one(given)
    if chosen is None:
        return None
    kind, value = given[chosen]
    try:
        return _server_of(kind, value)
    except (ValueError, pytest.UsageError) as error:
        raise pytest.UsageError(f"{chosen}: {error}") from None


def _read_settings(config: pytest.Config) -> Settings:
    server = _read_server(config)

    fixture: Optional[Path] = None
    fixture_option = config.getoption("mcptest_fixture")
    if fixture_option is not None:
        fixture = config.invocation_params.dir / fixture_option
        fixture_source = "--mcptest-fixture"
    else:
        fixtures = config.getini("mcptest_fixture")
        if len(fixtures) > 1:
            raise pytest.UsageError(
                f"ini mcptest_fixture names {len(fixtures)} paths; it takes one directory"
            )
        fixture = fixtures[0] if fixtures else None
        fixture_source = "ini mcptest_fixture"
    if fixture is not None:
        fixture = fixture.resolve()
        if not fixture.is_dir():
            raise pytest.UsageError(f"{fixture_source}: {fixture} is not a directory")

    suites = []
    for suite in config.getini("mcptest_suites"):
        if not suite.exists():
            raise pytest.UsageError(f"ini mcptest_suites: {suite} does not exist")
        suites.append(suite.resolve())

    check = config.getoption("mcptest_check_frames") or config.getini("mcptest_check_frames")
    return Settings(
        server=server,
        fixture=fixture,
        suites=suites,
        timeout=_seconds(
            config.getoption("mcptest_timeout") or config.getini("mcptest_timeout"),
            "mcptest timeout",
            DEFAULT_TIMEOUT,
        ),
        test_timeout=_seconds(
            config.getini("mcptest_test_timeout"), "ini mcptest_test_timeout", DEFAULT_TEST_TIMEOUT
        ),
        check_frames=True if check else None,
        rootdir=config.rootpath,
        given=_given_paths(config),
    )


def pytest_configure(config: pytest.Config) -> None:
    """Registers the marker and reads the settings (bad ones are usage errors)."""
    config.addinivalue_line(
        "markers",
        "mcp_server(*argv, env=None, cwd=None, url=None, sse=None, headers=None, "
        "bearer_env=None, client_id=None, client_secret_env=None, token_url=None): the server "
        "under test for the mcp fixture: a program and its arguments (no shell), or a "
        "Streamable HTTP url or legacy HTTP+SSE url with optional credentials.",
    )
    config.stash[SETTINGS] = _read_settings(config)
    config.stash[_SUITES] = _Suites()


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stops the session's suite runner."""
    suites = config.stash.get(_SUITES, None)
    if suites is not None and suites.runner is not None:
        suites.runner.close()
        suites.runner = None


def _runner(config: pytest.Config) -> SuiteRunner:
    """The session's suite runner, started on first use (one binary for
    every suite file); a failure to start is remembered and raised again."""
    suites = config.stash[_SUITES]
    if suites.failure is not None:
        raise suites.failure
    if suites.runner is None:
        settings = config.stash[SETTINGS]
        try:
            suites.runner = SuiteRunner.start(
                timeout=settings.timeout,
                test_timeout=settings.test_timeout,
                check_frames=settings.check_frames,
                cwd=str(settings.rootdir),
            )
        except McpTestError as error:
            suites.failure = error
            raise
    return suites.runner


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Optional[SuiteFile]:
    """A suite file for each YAML file the run was pointed at."""
    if file_path.suffix not in SUITE_SUFFIXES:
        return None
    if not parent.config.stash[SETTINGS].designates(file_path):
        return None
    suite: SuiteFile = SuiteFile.from_parent(parent, path=file_path)
    return suite


def _skip_reason(test: SuiteTest, lanes: tuple[str, ...]) -> Optional[str]:
    if test.skip is not None:
        if test.skip.command:
            return f"{test.skip.reason}; run it with: {test.skip.command}"
        return test.skip.reason
    if test.lane not in lanes:
        return (
            f"the `{test.lane}` lane is not driven over the coprocess by this mcptest binary "
            f"(it drives: {', '.join(lanes)})"
        )
    return None


class SuiteFile(pytest.File):
    """A suite file: its tests, as the binary lists them.

    Example: ``pytest tests/evals/add.yaml`` collects one of these.
    """

    def collect(self) -> Iterator[SuiteItem]:
        """One item per listed test; a test that will not run here (``skip``
        in the file, a lane this binary does not drive) carries the reason
        and the command that runs it."""
        runner = _runner(self.config)
        seen: Dict[str, int] = {}
        for test in runner.list([str(self.path)]):
            name = test.name
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name} [line {test.line}]"
            item: SuiteItem = SuiteItem.from_parent(
                self, name=name, test=test, skip_reason=_skip_reason(test, runner.lanes)
            )
            yield item

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> Union[str, Any]:
        """A file that does not load shows the loader's ``file:line:column:
        message``; a binary that cannot start shows why."""
        if isinstance(excinfo.value, SuiteLoadError):
            return excinfo.value.message
        if isinstance(excinfo.value, McpTestError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class SuiteTestFailed(Exception):
    """A suite test failed; its text is the engine's failure text."""

    def __init__(self, verdict: TestVerdict) -> None:
        super().__init__(verdict.failure)
        self.verdict = verdict


class SuiteItem(pytest.Item):
    """One suite test, run by the binary through ``suite.run``.

    Example: ``pytest "tests/evals/add.yaml::adds two numbers"`` runs one.
    """

    def __init__(self, *, test: SuiteTest, skip_reason: Optional[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.test = test
        self.skip_reason = skip_reason

    def setup(self) -> None:
        """Skips a test that will not run here, naming why (and the command
        that runs it); a skip here, unlike a mark, keeps its line in reports."""
        if self.skip_reason is not None:
            pytest.skip(self.skip_reason)

    def runtest(self) -> None:
        """Runs the test in the binary; a failure carries the engine's text."""
        settings = self.config.stash[SETTINGS]
        verdict = _runner(self.config).run(
            self.test,
            fixture=None if settings.fixture is None else str(settings.fixture),
            server=settings.server,
            timeout=settings.test_timeout,
        )
        for key, value in verdict.properties.items():
            self.user_properties.append((key, value))
        if verdict.status == "fail":
            raise SuiteTestFailed(verdict)
        if verdict.status == "skip":
            assert verdict.skip_reason is not None, "TestVerdict.parse checks it"
            pytest.skip(verdict.skip_reason)

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> Union[str, Any]:
        """The engine's failure text, as ``mcptest run`` prints it."""
        if isinstance(excinfo.value, SuiteTestFailed):
            return excinfo.value.verdict.failure or ""
        if isinstance(excinfo.value, McpTestError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    @property
    def line(self) -> Optional[int]:
        """The test's 0-based line, as pytest counts (None when the binary
        does not know it: it says 0)."""
        return self.test.line - 1 if self.test.line > 0 else None

    def reportinfo(self) -> tuple[Union[os.PathLike[str], str], Optional[int], str]:
        """Where the test sits: its file, its line, its name."""
        return self.path, self.line, self.test.name


# -- the client fixtures ------------------------------------------------------


_MARKER_KEYS = (
    "env",
    "cwd",
    "url",
    "sse",
    "headers",
    "bearer_env",
    "client_id",
    "client_secret_env",
    "token_url",
)
_MARKER_CREDENTIALS = ("headers", "bearer_env", "client_id", "client_secret_env", "token_url")


def _marker_server(marker: pytest.Mark) -> ServerSpec:
    unknown = sorted(set(marker.kwargs) - set(_MARKER_KEYS))
    if unknown:
        pytest.fail(
            f"@pytest.mark.mcp_server: unknown keyword {', '.join(unknown)} "
            f"(known: {', '.join(_MARKER_KEYS)}); {_MARKER_USAGE}",
            pytrace=False,
        )
    try:
        argv = [os.fspath(arg) for arg in marker.args]
        kwargs = marker.kwargs
        credentials = {name: kwargs[name] for name in _MARKER_CREDENTIALS if name in kwargs}
        if kwargs.get("url") is not None and kwargs.get("sse") is not None:
            raise ValueError("give either url= or sse=, not both")
        for key in ("url", "sse"):
            if kwargs.get(key) is not None:
                if argv or kwargs.get("env") or kwargs.get("cwd") is not None:
                    raise ValueError(f"give either an argv (with env and cwd) or {key}=, not both")
                make = ServerSpec.http if key == "url" else ServerSpec.sse
                return make(kwargs[key], **credentials)
        if credentials:
            raise ValueError(
                f"{next(iter(credentials))}= is for a server given by url= or sse=, "
                "not for a process server"
            )
        if not argv:
            raise ValueError("no program given")
        return ServerSpec.command(*argv, env=marker.kwargs.get("env"), cwd=marker.kwargs.get("cwd"))
    except (TypeError, ValueError) as error:
        pytest.fail(f"@pytest.mark.mcp_server: {error}; {_MARKER_USAGE}", pytrace=False)


@pytest.fixture
def mcp_server(request: pytest.FixtureRequest) -> ServerSpec:
    """The server under test for the ``mcp`` fixture: the nearest
    ``@pytest.mark.mcp_server(...)``, else ``--mcptest-server``,
    ``--mcptest-url`` or ``--mcptest-sse``, else the ``mcptest_server``,
    ``mcptest_url`` or ``mcptest_sse`` ini key. Override it (returning a
    :class:`~mcptest.ServerSpec` or an argv list) to build the server yourself.

    Example::

        @pytest.fixture
        def mcp_server(tmp_path):
            return mcptest.ServerSpec.command("python3", "server.py", cwd=tmp_path)
    """
    marker = request.node.get_closest_marker("mcp_server")
    if marker is not None:
        return _marker_server(marker)
    server = request.config.stash[SETTINGS].server
    if server is None:
        pytest.fail(
            "no MCP server for the `mcp` fixture: mark the test with "
            '@pytest.mark.mcp_server("python3", "server.py"), pass --mcptest-server '
            "(or --mcptest-url, --mcptest-sse), set mcptest_server (or mcptest_url, "
            "mcptest_sse) in the ini file, or override the `mcp_server` fixture",
            pytrace=False,
        )
    return server


@pytest.fixture
def mcp(request: pytest.FixtureRequest, mcp_server: Any) -> Iterator[McpClient]:
    """A connected :class:`~mcptest.McpClient` for the test's server, with
    the MCP connection started; its binary and server are stopped after
    the test, whatever the outcome.

    Example::

        @pytest.mark.mcp_server("python3", "server.py")
        def test_echo(mcp):
            assert mcp.call("echo", {"message": "hi"}).text == "hi"
    """
    try:
        server = ServerSpec.of(mcp_server, "the mcp_server fixture")
    except (TypeError, ValueError) as error:
        pytest.fail(str(error), pytrace=False)
    settings = request.config.stash[SETTINGS]
    try:
        client = McpClient.connect(
            server,
            timeout=settings.timeout,
            check_frames=settings.check_frames,
            cwd=str(settings.rootdir),
        )
    except McpTestError as error:
        pytest.fail(
            f"mcp fixture: cannot start the server under test ({server}):\n{error}", pytrace=False
        )
    request.node.stash[_CLIENT] = client
    try:
        yield client
    finally:
        client.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Places a suite test's skip at its file and line, and adds the
    binary's stderr to the report of a failed test that used ``mcp``."""
    report = yield
    if (
        isinstance(item, SuiteItem)
        and item.line is not None
        and report.skipped
        and isinstance(report.longrepr, tuple)
    ):
        report.longrepr = (str(item.path), item.line + 1, report.longrepr[2])
    client = item.stash.get(_CLIENT, None)
    if client is not None and report.failed:
        tail = client.stderr_tail()
        if tail.strip():
            report.sections.append(("mcptest stderr", tail))
    return report
