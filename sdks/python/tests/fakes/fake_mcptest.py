#!/usr/bin/env python3
"""A fake ``mcptest`` binary for the SDK's failure paths.

It speaks just enough of the coprocess protocol to stage one misbehaviour,
chosen by ``MCPTEST_FAKE`` (the tests set it, with ``MCPTEST_BIN`` pointing
here). ``MCPTEST_FAKE_LOG=PATH`` makes each spawn append one JSON line to
PATH: its pid, argv and working directory.

Modes: ok, older, newer, newer-result, v1, verdict-extra, envelope-extra,
listing-extra, garbage, wrong-id, silent, silent-after-handshake,
die-on-call, stderr-flood, v2-cli (refuses the v3 command line, as the v2
binary does), usage (exits 2 naming a missing server), suite (lists
SUITE_TESTS for any path and runs them to the verdicts in SUITE_VERDICTS).
"""

import json
import os
import sys
import time
from typing import Any, Dict, List, Optional

Frame = Dict[str, Any]

MODE = os.environ.get("MCPTEST_FAKE", "ok")

HANDSHAKE = {
    "protocol_version": 3,
    "binary_version": "0.0.0-fake",
    "methods": ["coprocess/handshake", "mcp.initialize", "mcp.call", "mcp.shutdown"],
    "lanes": ["tool"],
    "features": ["argv"],
}

VERDICT = {
    "success": True,
    "text": "hi",
    "data": None,
    "error": None,
    "duration_ms": 1,
    "content": [{"type": "text", "text": "hi"}],
    "messages": [],
    "logs": [],
}


SUITE_TESTS: List[Frame] = [
    {"name": "passes", "lane": "tool", "skip": None},
    {"name": "fails", "lane": "tool", "skip": None},
    {
        "name": "samples",
        "lane": "sampling",
        "skip": {
            "reason": "the sampling lane runs only from the command line",
            "command": "mcptest run FILE",
        },
    },
    {"name": "completes", "lane": "completion", "skip": None},
    {"name": "skips at run time", "lane": "tool", "skip": None},
]

SUITE_VERDICTS = {
    "passes": ("pass", None, None),
    "fails": ("fail", 'fails: equals\n  expected: "a"\n  got:      "b"', None),
    "skips at run time": ("skip", None, "MY_ENV is unset"),
}


def suite_list(request_id: object, params: Frame) -> Frame:
    tests = []
    for path in params["paths"]:
        for line, test in enumerate(SUITE_TESTS, start=1):
            tests.append(
                dict(test, id=f"{path}::{test['name']}", file=path, line=line * 3, column=1)
            )
    return {"jsonrpc": "2.0", "id": request_id, "result": {"tests": tests}}


def suite_run(request_id: object, params: Frame) -> Frame:
    path, name = params["id"].rsplit("::", 1)
    status, failure, skip_reason = SUITE_VERDICTS[name]
    line = 3 * [test["name"] for test in SUITE_TESTS].index(name) + 3
    verdict = {
        "id": params["id"],
        "name": name,
        "status": status,
        "duration_ms": 2,
        "location": f"{path}:{line}:1",
        "failure": failure,
        "skip_reason": skip_reason,
        "properties": {
            "fixture": str(params.get("fixture")),
            "server": json.dumps(params.get("server")),
        },
    }
    return {"jsonrpc": "2.0", "id": request_id, "result": verdict}


def send(frame: Frame) -> None:
    sys.stdout.write(json.dumps(frame) + "\n")
    sys.stdout.flush()


def error(request_id: object, code: int, message: str, data: object = None) -> Frame:
    body: Frame = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": body}


def handshake(request_id: object) -> Frame:
    if MODE == "older":
        return error(
            request_id,
            -32602,
            "coprocess protocol version mismatch: this mcptest binary speaks v2, the python "
            "SDK sent v3. Upgrade the mcptest binary (or pin the SDK to the matching release).",
            {"binary": 2, "sdk": 3},
        )
    if MODE == "newer":
        return error(
            request_id,
            -32602,
            "coprocess protocol version mismatch: this mcptest binary speaks v4 to v5, the "
            "python SDK sent v3. Upgrade the python SDK (or pin the mcptest binary to the "
            "matching release).",
            {"binary": [4, 5], "sdk": 3},
        )
    if MODE == "v1":
        return error(request_id, -32601, "unknown method `coprocess/handshake`")
    if MODE == "newer-result":
        return {"jsonrpc": "2.0", "id": request_id, "result": dict(HANDSHAKE, protocol_version=4)}
    return {"jsonrpc": "2.0", "id": request_id, "result": HANDSHAKE}


def answer(request: Frame) -> Optional[Frame]:
    """The frame (or None: no answer) for one request."""
    request_id = request.get("id")
    method = request.get("method")
    if MODE == "silent":
        return None
    if method == "coprocess/handshake":
        return handshake(request_id)
    if method == "mcp.shutdown":
        return {"jsonrpc": "2.0", "id": request_id, "result": {}}
    if method == "mcp.initialize":
        return {
            "jsonrpc": "2.0",
            "id": request_id,
            "result": {
                "serverInfo": {"name": "fake", "version": "0"},
                "protocolVersion": "2025-11-25",
                "capabilities": {},
            },
        }
    if MODE == "silent-after-handshake":
        return None
    if MODE == "suite" and method == "suite.list":
        return suite_list(request_id, request["params"])
    if MODE == "suite" and method == "suite.run":
        return suite_run(request_id, request["params"])
    if MODE == "die-on-call":
        sys.stderr.write("fake mcptest: dying on purpose\n")
        sys.stderr.flush()
        sys.exit(3)
    if MODE == "garbage":
        sys.stdout.write("this is not JSON\n")
        sys.stdout.flush()
        return None
    if MODE == "wrong-id":
        return {"jsonrpc": "2.0", "id": 999, "result": VERDICT}
    if MODE == "envelope-extra":
        return {"jsonrpc": "2.0", "id": request_id, "result": VERDICT, "extra": 1}
    if MODE == "verdict-extra":
        return {"jsonrpc": "2.0", "id": request_id, "result": dict(VERDICT, colour="red")}
    if MODE == "listing-extra" and method == "suite.list":
        test = {
            "id": "a.yaml::t",
            "name": "t",
            "file": "a.yaml",
            "line": 1,
            "column": 1,
            "lane": "tool",
            "skip": None,
            "colour": "red",
        }
        return {"jsonrpc": "2.0", "id": request_id, "result": {"tests": [test]}}
    if MODE == "stderr-flood":
        chunk = "x" * 1023 + "\n"
        for _ in range(8 * 1024):  # 8 MiB, far past any pipe buffer
            sys.stderr.write(chunk)
        sys.stderr.write("the last line of the flood\n")
        sys.stderr.flush()
    return {"jsonrpc": "2.0", "id": request_id, "result": VERDICT}


def main() -> None:
    if MODE == "v2-cli" and "--" in sys.argv:
        sys.stderr.write(
            f"error: unexpected argument '{sys.argv[-1]}' found\n\nUsage: mcptest exec\n"
        )
        sys.exit(2)
    if MODE == "usage":
        sys.stderr.write("error: the server program `my-server` was not found on PATH\n")
        sys.exit(2)
    log = os.environ.get("MCPTEST_FAKE_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as out:
            entry = {"pid": os.getpid(), "argv": sys.argv[1:], "cwd": os.getcwd()}
            out.write(json.dumps(entry) + "\n")
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        frame = answer(request)
        if frame is None:
            if MODE in ("silent", "silent-after-handshake"):
                time.sleep(3600)
            continue
        send(frame)
        if request.get("method") == "mcp.shutdown":
            return


if __name__ == "__main__":
    main()
