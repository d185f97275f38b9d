#!/usr/bin/env python3
"""A plugin that breaks the protocol in the way its first argument names,
for the host's error tests. Each mode answers `ping` properly unless the
mode is about `ping` itself."""

import json
import os
import sys
import time

mode = sys.argv[1]


def send(obj_or_text):
    text = obj_or_text if isinstance(obj_or_text, str) else json.dumps(obj_or_text)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


if mode == "exit-at-once":
    print("cannot start: config missing", file=sys.stderr)
    sys.exit(4)

if mode == "no-stdout":
    # Closes stdout and keeps running until stdin ends.
    os.close(1)
    print("closed stdout on purpose", file=sys.stderr)
    sys.stdin.read()
    sys.exit(0)

if mode == "ignore-eof":
    # Never exits by itself: closing the plugin must kill it.
    for line in sys.stdin:
        send({"id": json.loads(line)["id"], "result": "ok"})
    while True:
        time.sleep(1)

for line in sys.stdin:
    request = json.loads(line)
    rid, method = request["id"], request["method"]
    if mode == "wrong-id":
        send({"id": rid + 100, "result": {"pong": True}})
    elif mode == "bad-json":
        send("pong, not json")
    elif mode == "both":
        send({"id": rid, "result": 1, "error": {"code": 1, "message": "and an error"}})
    elif mode == "neither":
        send({"id": rid})
    elif mode == "crash":
        print("plugin: fatal: out of cheese", file=sys.stderr)
        sys.stderr.flush()
        sys.exit(3)
    elif mode == "hang":
        time.sleep(60)
    elif mode == "slow-first":
        # The first answer comes after the host gave up; the second is prompt.
        if rid == 1:
            time.sleep(float(sys.argv[2]))
        send({"id": rid, "result": {"answered": rid}})
    elif mode == "app-error":
        send({"id": rid, "error": {"code": 7, "message": "the thing is off", "data": {"hint": "turn it on"}}})
    elif mode == "env-cwd":
        send({"id": rid, "result": {"cwd": os.getcwd(), "var": os.environ.get("PLUGIN_VAR")}})
    else:
        sys.exit(f"unknown mode {mode}")
