#!/usr/bin/env python3
"""The reference mcptest plugin: `ping` answers {"pong": true}, `echo`
answers {"echoed": <params>}. A template for plugins in any language:
read one JSON request per line on stdin, write one JSON answer per line on
stdout with the request's id, flush, log to stderr, exit at EOF."""

import json
import sys


def handle(method, params):
    if method == "ping":
        return {"pong": True}
    if method == "echo":
        return {"echoed": params}
    raise LookupError(method)


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as error:
            answer = {"id": None, "error": {"code": -32700, "message": f"parse error: {error}"}}
        else:
            answer = {"id": request.get("id")}
            try:
                answer["result"] = handle(request.get("method"), request.get("params"))
            except LookupError:
                answer["error"] = {"code": -32601, "message": f"method not found: {request.get('method')}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    print("echo plugin: stdin closed, exiting", file=sys.stderr)


if __name__ == "__main__":
    main()
