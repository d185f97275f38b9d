"""Fixtures of the SDK's own tests: the real binary and fixture servers
(``MCPTEST_BIN``, ``MCPTEST_FIXTURES``), the fake binary, the repository's
suite corpus, and the frame check every test gets.

Every test must close every binary it started. Every test runs with
``MCPTEST_CHECK_FRAMES=1`` (the binary checks each frame against the
schema) and ``MCPTEST_TRACE_FRAMES`` set: after the test, every frame the
SDK sent or received is validated here too with ``jsonschema``. A test
whose fake binary breaks the schema on purpose is marked
``frames_break_schema``, and then the check must find the break.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterator

import pytest

import frames
from mcptest._engine import engines_alive
from mcptest.server import ServerSpec

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
FAKE = HERE / "fakes" / "fake_mcptest.py"


@pytest.fixture(autouse=True)
def _checked_frames(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[None]:
    trace = tmp_path / "frames.jsonl"
    monkeypatch.setenv("MCPTEST_CHECK_FRAMES", "1")
    monkeypatch.setenv("MCPTEST_TRACE_FRAMES", str(trace))
    yield
    assert not engines_alive(), "the test left mcptest binaries running"
    found = frames.problems(trace)
    if request.node.get_closest_marker("frames_break_schema"):
        assert found, "the fake sends frames the schema refuses, yet the check found none"
    else:
        assert not found, "frames that break the coprocess schema:\n" + "\n".join(found)


@pytest.fixture(scope="session")
def real_binary() -> str:
    """The mcptest binary under test (``MCPTEST_BIN``)."""
    path = os.environ.get("MCPTEST_BIN")
    if not path or not os.access(path, os.X_OK):
        pytest.fail(
            f"MCPTEST_BIN={path!r} is not an executable mcptest binary; "
            "run the tests through ci.sh or set it",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def fixture_bins(real_binary: str) -> Path:
    """The directory of the project's fixture servers (``MCPTEST_FIXTURES``)."""
    path = Path(os.environ.get("MCPTEST_FIXTURES", ""))
    if not (path / "fixture-everything").is_file():
        pytest.fail(
            f"MCPTEST_FIXTURES={str(path)!r} holds no fixture-everything; "
            "run the tests through ci.sh or set it",
            pytrace=False,
        )
    return path


@pytest.fixture
def everything(fixture_bins: Path) -> ServerSpec:
    """fixture-everything, rooted in the repository's suite fixtures."""
    return ServerSpec.command(
        str(fixture_bins / "fixture-everything"), "--root", str(corpus_dir() / "fixtures")
    )


@pytest.fixture
def chaos(fixture_bins: Path) -> Callable[..., ServerSpec]:
    """fixture-chaos with the given flags."""

    def build(*flags: str) -> ServerSpec:
        return ServerSpec.command(str(fixture_bins / "fixture-chaos"), *flags)

    return build


def corpus_dir() -> Path:
    """The repository's suite corpus (tests/suites)."""
    path = REPO / "tests" / "suites"
    if not (path / "pass").is_dir():
        pytest.fail(f"the suite corpus {path} is missing", pytrace=False)
    return path


@pytest.fixture
def corpus() -> Path:
    """The repository's suite corpus (tests/suites)."""
    return corpus_dir()


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Path]:
    """Points MCPTEST_BIN at the fake binary in the given mode."""

    def use(mode: str) -> Path:
        monkeypatch.setenv("MCPTEST_BIN", str(FAKE))
        monkeypatch.setenv("MCPTEST_FAKE", mode)
        return FAKE

    return use
