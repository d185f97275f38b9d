"""Suite files through the binary: ``suite.list`` names the tests,
``suite.run`` runs one through the same runner as ``mcptest run``.

The SDK never reads a suite file: what a file holds, where each test sits,
whether it runs here and how it fails are all the binary's answers.

Example::

    with SuiteRunner.start() as suites:
        for test in suites.list(["tests/evals"]):
            verdict = suites.run(test, server=ServerSpec.split("python3 server.py"))
            print(test.name, verdict.status, verdict.failure or "")
"""

from __future__ import annotations

from types import TracebackType
from typing import Any, Dict, List, Optional, Sequence, Tuple, Type, Union

from ._engine import DEFAULT_ANSWER_MARGIN, DEFAULT_TIMEOUT, Engine
from ._strict import Fields
from .errors import sdk_frames_hidden
from .results import SuiteTest, TestVerdict
from .server import ServerSpec

__tracebackhide__ = sdk_frames_hidden

DEFAULT_TEST_TIMEOUT = 120.0
"""Seconds a suite test that sets no timeout may take (``suite.run``'s
``timeout_ms``, as ``mcptest run --timeout``); the SDK waits this long plus
its margin for the verdict."""


class SuiteRunner:
    """A binary that lists and runs suite tests for a whole session.

    Example: ``SuiteRunner.start(check_frames=True)``.
    """

    def __init__(self, engine: Engine, test_timeout: float) -> None:
        self._engine = engine
        self.test_timeout = test_timeout

    @classmethod
    def start(
        cls,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        test_timeout: float = DEFAULT_TEST_TIMEOUT,
        answer_margin: float = DEFAULT_ANSWER_MARGIN,
        check_frames: Optional[bool] = None,
        binary: Optional[str] = None,
        cwd: Optional[str] = None,
    ) -> SuiteRunner:
        """Spawns a binary with no server of its own and performs the
        handshake. ``cwd`` is where relative suite paths resolve.

        Example: ``SuiteRunner.start(test_timeout=30, cwd="project")``.
        """
        if test_timeout <= 0:
            raise ValueError(f"test_timeout must be positive, not {test_timeout}")
        engine = Engine.start(
            None,
            timeout=timeout,
            answer_margin=answer_margin,
            check_frames=check_frames,
            binary=binary,
            cwd=cwd,
        )
        return cls(engine, test_timeout)

    def __enter__(self) -> SuiteRunner:
        return self

    def __exit__(
        self,
        kind: Optional[Type[BaseException]],
        value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()

    @property
    def lanes(self) -> Tuple[str, ...]:
        """The suite lanes ``suite.run`` drives over this channel.

        Example: ``"tool" in suites.lanes``.
        """
        assert self._engine.handshake is not None, "the engine starts with its handshake"
        return self._engine.handshake.lanes

    @property
    def pid(self) -> int:
        """The binary's process id.

        Example: ``os.kill(suites.pid, 0)`` while it runs.
        """
        return self._engine.pid

    def stderr_tail(self, lines: int = 40) -> str:
        """The last lines the binary wrote to stderr.

        Example: ``print(suites.stderr_tail())``.
        """
        return self._engine.stderr_tail(lines)

    def close(self) -> Optional[int]:
        """Stops the binary; returns its exit code. Idempotent.

        Example: ``suites.close()``.
        """
        return self._engine.close()

    def list(self, paths: Sequence[str], filter: Optional[str] = None) -> List[SuiteTest]:
        """The tests of the suite files at ``paths`` (files or directories,
        every ``.yaml``/``.yml`` below), in the binary's order. A file that
        does not load raises :class:`~mcptest.SuiteLoadError`.

        Example: ``[test.name for test in suites.list(["tests/evals"])]``.
        """
        params: Dict[str, Any] = {"paths": [str(path) for path in paths]}
        if filter is not None:
            params["filter"] = filter
        fields = Fields(self._engine.request("suite.list", params), "suite.list", "the result")
        tests = fields.array("tests")
        fields.done()
        return [SuiteTest.parse(item, f"tests[{index}]") for index, item in enumerate(tests)]

    def run(
        self,
        test: Union[SuiteTest, str],
        *,
        fixture: Optional[str] = None,
        server: Optional[ServerSpec] = None,
        timeout: Optional[float] = None,
    ) -> TestVerdict:
        """Runs one listed test (or its id) and returns the runner's
        verdict. ``fixture`` is the directory copied afresh for the test;
        ``server`` the server for files that name none; ``timeout`` the
        timeout in seconds if the test sets none (default: ``test_timeout``).

        Example: ``suites.run(test, fixture="tests/fixtures").status``.
        """
        limit = self.test_timeout if timeout is None else timeout
        params: Dict[str, Any] = {
            "id": test.id if isinstance(test, SuiteTest) else test,
            "timeout_ms": max(1, round(limit * 1000)),
        }
        if fixture is not None:
            params["fixture"] = str(fixture)
        if server is not None:
            params["server"] = server.suite_param()
        answer = self._engine.request(
            "suite.run", params, timeout=limit + self._engine.answer_margin
        )
        return TestVerdict.parse(answer)
