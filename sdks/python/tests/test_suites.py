"""The repository's suite corpus through the plugin and the real binary:
``tests/suites/pass`` (every test passes or is skipped for its reason),
``tests/suites/fail`` (every test fails with the engine's text) and
``tests/suites/invalid`` (every file is a collection error at file:line).
Each runs against fixture-everything in a fresh copy of
``tests/suites/fixtures``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Dict, Iterator, List

import pytest

import frames
import procs
from mcptest import ServerSpec, SuiteLoadError, SuiteRunner, SuiteTest, TestVerdict


@pytest.fixture
def suite_server(fixture_bins: Path) -> ServerSpec:
    """The corpus's server: fixture-everything rooted in the test's fixture copy."""
    return ServerSpec.command(str(fixture_bins / "fixture-everything"), "--root", "{{fixture}}")


@pytest.fixture
def runner(real_binary: str, corpus: Path) -> Iterator[SuiteRunner]:
    with SuiteRunner.start(cwd=str(corpus.parent)) as suites:
        yield suites


@pytest.fixture(autouse=True)
def _as_the_tests_crate(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The corpus is written for the `mcptest-tests` crate's run: its
    environment names the crate. Fixture copies, and those a failing test
    keeps, go under the test's own temp dir, not the machine's."""
    monkeypatch.setenv("CARGO_PKG_NAME", "mcptest-tests")
    monkeypatch.setenv("MCPTEST_KEPT_DIR", str(tmp_path / "kept"))
    (tmp_path / "copies").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "copies"))


def plugin_args(pytester: pytest.Pytester, server: ServerSpec, corpus: Path) -> List[str]:
    """The ini file naming the corpus's server and fixture, and the flags
    that make the run use it though the suites lie elsewhere: the rootdir
    (where the binary runs) is the tests crate, whose working directory the
    corpus's relative paths expect."""
    ini = pytester.makeini(
        f"[pytest]\nmcptest_server = {server}\nmcptest_fixture = {corpus / 'fixtures'}\n"
    )
    return ["-c", str(ini), "--rootdir", str(corpus.parent), "-p", "no:cacheprovider"]


def cases(xml: Path) -> Dict[str, ElementTree.Element]:
    """The JUnit XML's test cases by name; every name appears once."""
    found = list(ElementTree.parse(xml).getroot().iter("testcase"))
    named = {case.attrib["name"]: case for case in found}
    assert len(named) == len(found), "a test name appears twice"
    return named


def outcome(case: ElementTree.Element) -> str:
    for kind in ("failure", "error", "skipped"):
        if case.find(kind) is not None:
            return kind
    return "passed"


def test_the_pass_corpus_passes(
    pytester: pytest.Pytester,
    corpus: Path,
    suite_server: ServerSpec,
    runner: SuiteRunner,
    tmp_path: Path,
) -> None:
    listed = runner.list([str(corpus / "pass")])
    assert len(listed) >= 30, "the corpus lists its tests"
    xml = tmp_path / "junit.xml"
    result = pytester.runpytest(
        *plugin_args(pytester, suite_server, corpus),
        str(corpus / "pass"),
        f"--junitxml={xml}",
        "-rs",
    )
    counts = result.parseoutcomes()
    assert "failed" not in counts, result.stdout.str()
    assert "errors" not in counts, result.stdout.str()
    found = cases(xml)
    assert len(found) == len(listed)
    assert counts["passed"] + counts.get("skipped", 0) == len(listed)
    skipped = {name: case for name, case in found.items() if outcome(case) == "skipped"}
    assert "skipped on purpose" in skipped
    for name, case in skipped.items():
        reason = case.find("skipped")
        assert reason is not None
        assert reason.attrib["message"], f"{name} is skipped without a reason"
    for test in listed:
        if test.skip is not None:
            assert test.name in skipped, f"{test.name} is listed with a skip"


def test_the_fail_corpus_fails_with_the_engines_text(
    pytester: pytest.Pytester,
    corpus: Path,
    suite_server: ServerSpec,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    # A failing test's text may name its fixture copy (a fresh temp dir) and
    # where the copy is kept: each run keeps its copies apart, and the texts
    # are compared with those paths masked.
    direct_kept, plugin_kept = tmp_path / "kept-direct", tmp_path / "kept-plugin"
    copies = tmp_path / "copies"

    def comparable(text: str, kept: Path) -> str:
        text = text.replace(str(kept), "<kept>")
        return re.sub(re.escape(str(copies)) + r"/mcptest-[^/\s]*", "<copy>", text)

    monkeypatch.setenv("MCPTEST_KEPT_DIR", str(direct_kept))
    with SuiteRunner.start(cwd=str(corpus.parent)) as runner:
        listed = runner.list([str(corpus / "fail")])
        assert len(listed) >= 40, "the corpus lists its tests"
        fixture = str(corpus / "fixtures")
        direct: Dict[str, TestVerdict] = {
            test.name: runner.run(test, fixture=fixture, server=suite_server) for test in listed
        }
    monkeypatch.setenv("MCPTEST_KEPT_DIR", str(plugin_kept))
    xml = tmp_path / "junit.xml"
    result = pytester.runpytest(
        *plugin_args(pytester, suite_server, corpus), str(corpus / "fail"), f"--junitxml={xml}"
    )
    counts = result.parseoutcomes()
    assert counts == {"failed": len(listed)}, result.stdout.str()
    found = cases(xml)
    assert set(found) == set(direct)
    for name, case in found.items():
        failure = case.find("failure")
        assert failure is not None, name
        verdict = direct[name]
        assert verdict.status == "fail", name
        assert verdict.failure is not None
        assert failure.text is not None
        assert comparable(failure.text, plugin_kept) == comparable(verdict.failure, direct_kept)
        # pytest shortens the attribute to the first lines; the text holds it all.
        assert failure.attrib["message"].splitlines()[0] == verdict.failure.splitlines()[0]
    # The terminal shows the same text under each test's header.
    first = found[listed[0].name].find("failure")
    assert first is not None
    assert first.text is not None
    result.stdout.fnmatch_lines([f"*_ {listed[0].name} _*"])
    assert first.text in result.stdout.str()


def test_a_suite_test_sits_at_its_file_and_line(
    pytester: pytest.Pytester, corpus: Path, suite_server: ServerSpec, runner: SuiteRunner
) -> None:
    [test] = runner.list([str(corpus / "fail" / "equals.yaml")])
    assert isinstance(test, SuiteTest)
    result = pytester.runpytest(
        *plugin_args(pytester, suite_server, corpus),
        f"{corpus / 'fail' / 'equals.yaml'}::{test.name}",
        "--collect-only",
        "-q",
    )
    result.stdout.fnmatch_lines([f"*equals.yaml::{test.name}"])
    items, _ = pytester.inline_genitems(
        *plugin_args(pytester, suite_server, corpus), str(corpus / "fail" / "equals.yaml")
    )
    [item] = items
    path, line, name = item.reportinfo()
    assert (Path(path), line, name) == (corpus / "fail" / "equals.yaml", test.line - 1, test.name)


def test_files_that_do_not_load_are_collection_errors_at_their_line(
    pytester: pytest.Pytester, corpus: Path, suite_server: ServerSpec, runner: SuiteRunner
) -> None:
    files = sorted((corpus / "invalid").glob("*.yaml"))
    assert len(files) >= 10
    refusals: Dict[Path, SuiteLoadError] = {}
    for path in files:
        with pytest.raises(SuiteLoadError) as caught:
            runner.list([str(path)])
        refusals[path] = caught.value
    result = pytester.runpytest(
        *plugin_args(pytester, suite_server, corpus), str(corpus / "invalid")
    )
    assert result.parseoutcomes() == {"errors": len(files)}, result.stdout.str()
    shown = result.stdout.str()
    for path, refusal in refusals.items():
        assert refusal.file == str(path)
        if refusal.line is not None:
            assert refusal.message.startswith(f"{path}:{refusal.line}:{refusal.column}: ")
        # The collection error is the loader's message itself, on a line of its own.
        assert f"\n{refusal.message}\n" in shown, path.name
    located = [refusal for refusal in refusals.values() if refusal.line is not None]
    assert len(located) >= len(files) - 1, "all but the empty file name their line"
    assert "Traceback" not in shown


def test_one_binary_lists_and_runs_every_file_then_stops(
    pytester: pytest.Pytester, corpus: Path, suite_server: ServerSpec, tmp_path: Path
) -> None:
    result = pytester.runpytest(
        *plugin_args(pytester, suite_server, corpus), str(corpus / "shared")
    )
    counts = result.parseoutcomes()
    assert set(counts) == {"passed"}, result.stdout.str()
    sent = [
        record for record in frames.read(tmp_path / "frames.jsonl") if record["direction"] == "sent"
    ]
    pids = {record["pid"] for record in sent}
    assert len(pids) == 1, "one binary served the whole run"
    methods = [record["method"] for record in sent]
    assert methods.count("suite.list") == len(list((corpus / "shared").glob("*.yaml")))
    assert methods.count("suite.run") == counts["passed"]
    assert methods[-1] == "mcp.shutdown"
    assert procs.wait_gone(pids.pop())
