"""The pytest plugin end to end, through ``pytester``: registration,
options and usage errors, the ``mcp`` fixture and where its server comes
from, and suite collection with the fake binary (one spawn per run, skips
naming the command, failures as the engine's text, which files count).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from importlib.metadata import distribution
from pathlib import Path
from typing import Any, Callable, Dict, List

import pytest

import mcptest
import procs
from mcptest.server import ServerSpec

Fake = Callable[[str], Path]

ECHO_TEST = """
def test_echo(mcp):
    assert mcp.call("echo", {"message": "hi"}).text == "hi"
"""


def spawns(log: Path) -> List[Dict[str, Any]]:
    """What each spawn of the fake logged (none if it never ran)."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def junit(path: Path) -> Dict[str, ElementTree.Element]:
    """The JUnit XML's test cases by name."""
    root = ElementTree.parse(path).getroot()
    return {case.attrib["name"]: case for case in root.iter("testcase")}


def test_the_package_is_typed() -> None:
    assert (Path(mcptest.__file__).parent / "py.typed").is_file()


def test_the_plugin_is_registered_by_its_entry_point(pytester: pytest.Pytester) -> None:
    entries = distribution("mcptest").entry_points
    plugins = {entry.name: entry.value for entry in entries if entry.group == "pytest11"}
    assert plugins == {"mcptest": "mcptest.plugin"}
    helped = pytester.runpytest("--help")
    helped.stdout.fnmatch_lines(
        [
            "mcptest: test MCP servers through the mcptest binary:",
            "*--mcptest-server=COMMAND*",
            "*--mcptest-url=URL*",
            "*--mcptest-sse=URL*",
            "*--mcptest-fixture=DIR*",
            "*--mcptest-timeout=SECONDS*",
            "*--mcptest-check-frames*",
            "*mcptest_server (args):*",
            "*mcptest_suites (paths):*",
        ]
    )
    markers = pytester.runpytest("--markers")
    markers.stdout.fnmatch_lines(
        ["@pytest.mark.mcp_server(*argv, env=None, cwd=None, url=None, sse=None, *"]
    )


@pytest.mark.parametrize(
    ("ini", "message"),
    [
        ("mcptest_timeout = soon", "mcptest timeout = 'soon' is not a number of seconds"),
        ("mcptest_timeout = 0", "must be more than 0 seconds"),
        ("mcptest_suites = no/such/dir", "ini mcptest_suites: */no/such/dir does not exist"),
        ("mcptest_fixture = nowhere", "ini mcptest_fixture: */nowhere is not a directory"),
        ("mcptest_fixture = a b", "ini mcptest_fixture names 2 paths; it takes one directory"),
        ("mcptest_server = 'unclosed", "ini mcptest_server:*"),
    ],
)
def test_bad_settings_are_usage_errors(pytester: pytest.Pytester, ini: str, message: str) -> None:
    pytester.makeini(f"[pytest]\n{ini}\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{message}*"])


def test_the_mcp_fixture_takes_the_server_from_the_marker(
    pytester: pytest.Pytester, fake: Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake("ok")
    log = tmp_path / "spawns.jsonl"
    monkeypatch.setenv("MCPTEST_FAKE_LOG", str(log))
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.mcp_server("python3", "my server.py", env={"TOKEN": "t"}, cwd="srv")
        def test_marked(mcp):
            assert mcp.call("echo").text == "hi"
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)
    [spawn] = spawns(log)
    assert spawn["argv"][-7:] == [
        "--server-env",
        "TOKEN=t",
        "--server-cwd",
        "srv",
        "--",
        "python3",
        "my server.py",
    ]
    assert spawn["cwd"] == str(pytester.path)
    assert procs.wait_gone(spawn["pid"])


@pytest.mark.parametrize(
    ("ini", "from_ini_tail"),
    [
        (
            "mcptest_server = python3 'my server.py' --stdio",
            ["--", "python3", "my server.py", "--stdio"],
        ),
        ("mcptest_url = http://127.0.0.1:9/mcp", ["--server-url", "http://127.0.0.1:9/mcp"]),
    ],
)
def test_the_mcp_fixture_takes_the_server_from_the_ini_then_the_options(
    pytester: pytest.Pytester,
    fake: Fake,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ini: str,
    from_ini_tail: List[str],
) -> None:
    fake("ok")
    log = tmp_path / "spawns.jsonl"
    monkeypatch.setenv("MCPTEST_FAKE_LOG", str(log))
    pytester.makeini(f"[pytest]\n{ini}\n")
    pytester.makepyfile(ECHO_TEST)
    pytester.runpytest().assert_outcomes(passed=1)
    # An option overrides every ini key, whichever kind of server each names.
    pytester.runpytest("--mcptest-sse", "http://127.0.0.1:9/sse").assert_outcomes(passed=1)
    pytester.runpytest("--mcptest-server", "node dist/server.js").assert_outcomes(passed=1)
    from_ini, sse, command = spawns(log)
    assert from_ini["argv"][-len(from_ini_tail) :] == from_ini_tail
    assert sse["argv"][-2:] == ["--server-sse", "http://127.0.0.1:9/sse"]
    assert command["argv"][-3:] == ["--", "node", "dist/server.js"]


@pytest.mark.parametrize(
    ("ini", "args", "message"),
    [
        ("mcptest_url = ftp://x", [], "ini mcptest_url: *http*"),
        ('mcptest_server = "my server', [], "ini mcptest_server: No closing quotation"),
        ("", ["--mcptest-sse", "127.0.0.1:9/sse"], "--mcptest-sse: *http*"),
        (
            "mcptest_server = my-server\nmcptest_url = http://127.0.0.1:9/mcp",
            [],
            "ini mcptest_server and ini mcptest_url both name the server under test; give one*",
        ),
        (
            "",
            ["--mcptest-server", "my-server", "--mcptest-url", "http://127.0.0.1:9/mcp"],
            "--mcptest-server and --mcptest-url both name the server under test; give one*",
        ),
    ],
)
def test_a_bad_or_doubled_default_server_is_a_usage_error(
    pytester: pytest.Pytester, ini: str, args: List[str], message: str
) -> None:
    pytester.makeini(f"[pytest]\n{ini}\n")
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    # The message is the whole line: nothing before it names another source.
    result.stderr.fnmatch_lines([f"ERROR: {message}"])


def test_the_marker_names_an_sse_server_with_credentials(
    pytester: pytest.Pytester, fake: Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake("ok")
    log = tmp_path / "spawns.jsonl"
    monkeypatch.setenv("MCPTEST_FAKE_LOG", str(log))
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.mcp_server(
            sse="http://127.0.0.1:9/sse",
            headers={"X-Api-Key": "${API_KEY}"},
            bearer_env="MCP_TOKEN",
            client_id="ci",
            client_secret_env="MCP_SECRET",
            token_url="http://127.0.0.1:9/token",
        )
        def test_echo(mcp):
            assert mcp.call("echo", {"message": "hi"}).text == "hi"
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)
    (spawn,) = spawns(log)
    at = spawn["argv"].index("--server-sse")
    assert spawn["argv"][at:] == [
        "--server-sse",
        "http://127.0.0.1:9/sse",
        "--header",
        "X-Api-Key: ${API_KEY}",
        "--bearer-env",
        "MCP_TOKEN",
        "--client-id",
        "ci",
        "--client-secret-env",
        "MCP_SECRET",
        "--token-url",
        "http://127.0.0.1:9/token",
    ]


def test_a_user_fixture_overrides_mcp_server(
    pytester: pytest.Pytester, fake: Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake("ok")
    log = tmp_path / "spawns.jsonl"
    monkeypatch.setenv("MCPTEST_FAKE_LOG", str(log))
    pytester.makeconftest(
        """
        import pytest
        import mcptest

        @pytest.fixture
        def mcp_server(tmp_path):
            return mcptest.ServerSpec.command("python3", "built.py", cwd=tmp_path)
        """
    )
    pytester.makepyfile(
        ECHO_TEST
        + """
def test_list(mcp_server, mcp):
    assert mcp_server.argv == ("python3", "built.py")
"""
    )
    pytester.runpytest().assert_outcomes(passed=2)
    assert [spawn["argv"][-2:] for spawn in spawns(log)] == [["python3", "built.py"]] * 2


def test_a_test_without_a_server_says_how_to_name_one(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(ECHO_TEST)
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*no MCP server for the `mcp` fixture: mark the test with @pytest.mark.mcp_server(*"]
    )


@pytest.mark.parametrize(
    ("marker", "message"),
    [
        ('env={"A": "b"}', "no program given"),
        ('"x", colour=1', "unknown keyword colour (known: env, cwd, url, sse, headers, *)"),
        ('"x", bearer_env="T"', "bearer_env= is for a server given by url= or sse="),
        ('url="http://a/mcp", sse="http://a/sse"', "give either url= or sse=, not both"),
        ('sse="ftp://a/sse"', "server sse_url 'ftp://a/sse' is not an http:// or https:// URL"),
        ('"x", url="http://127.0.0.1:1/mcp"', "give either an argv (with env and cwd) or url="),
        ('"x", env={"A": 1}', "server env entry 'A'=1 is not a NAME=VALUE pair of strings"),
    ],
)
def test_a_bad_marker_is_a_clear_error(
    pytester: pytest.Pytester, fake: Fake, marker: str, message: str
) -> None:
    fake("ok")
    pytester.makepyfile(
        f"""
        import pytest

        @pytest.mark.mcp_server({marker})
        def test_marked(mcp):
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*@pytest.mark.mcp_server: *{message}*"])


@pytest.mark.frames_break_schema  # a v2 binary's mismatch data is v2's: {"binary": 2}
def test_a_binary_that_cannot_start_is_a_setup_error_naming_why(
    pytester: pytest.Pytester, fake: Fake
) -> None:
    fake("older")
    pytester.makeini("[pytest]\nmcptest_server = my-server\n")
    pytester.makepyfile(ECHO_TEST)
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*mcp fixture: cannot start the server under test (my-server):",
            "*this mcptest binary speaks v2, the python SDK sent v3*",
        ]
    )


@pytest.mark.frames_break_schema  # the fake's verdict carries an unknown field
def test_an_sdk_error_reads_as_the_test_line_and_the_message(
    pytester: pytest.Pytester, fake: Fake
) -> None:
    fake("verdict-extra")
    pytester.makeini("[pytest]\nmcptest_server = my-server\n")
    pytester.makepyfile(
        """
        def test_calls(mcp):
            mcp.call("echo")
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            '>       mcp.call("echo")',
            "E       mcptest.errors.FrameError: the mcptest binary's answer to mcp.call breaks "
            "the coprocess protocol: the verdict: unknown field `colour`*",
        ]
    )
    assert "_engine.py" not in result.stdout.str()
    assert "client.py" not in result.stdout.str()


def test_a_failing_test_stops_its_binary(
    pytester: pytest.Pytester, fake: Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake("ok")
    log = tmp_path / "spawns.jsonl"
    monkeypatch.setenv("MCPTEST_FAKE_LOG", str(log))
    pytester.makeini("[pytest]\nmcptest_server = my-server\n")
    pytester.makepyfile(
        """
        def test_fails(mcp):
            assert mcp.call("echo").text == "bye"
        """
    )
    pytester.runpytest().assert_outcomes(failed=1)
    [spawn] = spawns(log)
    assert procs.wait_gone(spawn["pid"])


# -- suites, with the fake binary ---------------------------------------------


def make_suites(pytester: pytest.Pytester) -> None:
    """Two suite files (the fake lists the same tests for any path) and
    YAML that is no suite."""
    pytester.mkdir("evals")
    pytester.path.joinpath("evals", "one.yaml").write_text("# a suite file\n")
    pytester.path.joinpath("evals", "two.yml").write_text("# another\n")
    pytester.path.joinpath("docker-compose.yml").write_text("services: {}\n")
    pytester.mkdir("config")
    pytester.path.joinpath("config", "app.yaml").write_text("debug: true\n")


def test_suite_items_come_from_the_binary_with_one_spawn(
    pytester: pytest.Pytester, fake: Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake("suite")
    log = tmp_path / "spawns.jsonl"
    monkeypatch.setenv("MCPTEST_FAKE_LOG", str(log))
    make_suites(pytester)
    pytester.mkdir("fixture")
    pytester.makeini(
        "[pytest]\nmcptest_server = my-server --root {{fixture}}\nmcptest_fixture = fixture\n"
    )
    xml = tmp_path / "junit.xml"
    result = pytester.runpytest("evals", "-rs", f"--junitxml={xml}")
    result.assert_outcomes(passed=2, failed=2, skipped=6)
    [spawn] = spawns(log)
    assert "--" not in spawn["argv"], "the suite binary has no server of its own"
    assert procs.wait_gone(spawn["pid"])
    result.stdout.fnmatch_lines(
        [
            "*SKIPPED [[]1[]] evals/one.yaml:9: the sampling lane runs only from the command "
            "line; run it with: mcptest run FILE",
            "*SKIPPED [[]1[]] evals/one.yaml:12: the `completion` lane is not driven over the "
            "coprocess by this mcptest binary (it drives: tool)",
            "*SKIPPED [[]1[]] evals/one.yaml:15: MY_ENV is unset",
            "*SKIPPED [[]1[]] evals/two.yml:9: the sampling lane*",
        ]
    )
    cases = junit(xml)
    assert set(cases) == {"passes", "fails", "samples", "completes", "skips at run time"}
    root = ElementTree.parse(xml).getroot()
    failures = [case.find("failure") for case in root.iter("testcase")]
    texts = [failure.text for failure in failures if failure is not None]
    assert texts == ['fails: equals\n  expected: "a"\n  got:      "b"'] * 2
    properties = {
        prop.attrib["name"]: prop.attrib["value"] for prop in cases["passes"].iter("property")
    }
    assert properties["fixture"] == str(pytester.path / "fixture")
    assert json.loads(properties["server"]) == {"argv": ["my-server", "--root", "{{fixture}}"]}


def test_a_suite_failure_reads_as_the_engines_text(pytester: pytest.Pytester, fake: Fake) -> None:
    fake("suite")
    make_suites(pytester)
    result = pytester.runpytest("evals/one.yaml::fails")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ fails _*",
            "fails: equals",
            '  expected: "a"',
            '  got:      "b"',
            "*short test summary info*",
        ]
    )
    assert "Traceback" not in result.stdout.str()
    assert "SuiteTestFailed" not in result.stdout.str()


@pytest.mark.parametrize(
    ("args", "ini"),
    [
        ([], ""),
        (["."], ""),
        (["config"], "mcptest_suites = evals"),
    ],
)
def test_yaml_that_was_not_pointed_at_is_never_collected(
    pytester: pytest.Pytester,
    fake: Fake,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: List[str],
    ini: str,
) -> None:
    fake("suite")
    log = tmp_path / "spawns.jsonl"
    monkeypatch.setenv("MCPTEST_FAKE_LOG", str(log))
    make_suites(pytester)
    pytester.makeini(f"[pytest]\n{ini}\n")
    if args == ["config"]:
        # Named on the command line, config/ counts: its YAML is a suite file.
        pytester.runpytest(*args).assert_outcomes(passed=1, failed=1, skipped=3)
        return
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    assert spawns(log) == [], "no binary was spawned for YAML nobody pointed at"


def test_suite_directories_from_the_ini_are_collected(
    pytester: pytest.Pytester, fake: Fake
) -> None:
    fake("suite")
    make_suites(pytester)
    pytester.makeini("[pytest]\nmcptest_suites = evals\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, failed=2, skipped=6)
    result.stdout.fnmatch_lines(["evals/one.yaml .Fsss *", "evals/two.yml .Fsss *"])


def test_a_suite_binary_that_cannot_start_is_a_collection_error(
    pytester: pytest.Pytester, fake: Fake
) -> None:
    fake("v1")
    make_suites(pytester)
    result = pytester.runpytest("evals")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*mcptest binary speaks coprocess v1; this SDK needs v3*"])


def test_the_server_spec_reaches_suite_run_whole(
    pytester: pytest.Pytester, fake: Fake, tmp_path: Path
) -> None:
    fake("suite")
    make_suites(pytester)
    xml = tmp_path / "junit.xml"
    result = pytester.runpytest(
        "evals/one.yaml", "--mcptest-server", "srv 'a b'", f"--junitxml={xml}"
    )
    result.assert_outcomes(passed=1, failed=1, skipped=3)
    properties = {
        prop.attrib["name"]: prop.attrib["value"] for prop in junit(xml)["passes"].iter("property")
    }
    assert json.loads(properties["server"]) == ServerSpec.command("srv", "a b").suite_param()
    assert properties["fixture"] == "None"
