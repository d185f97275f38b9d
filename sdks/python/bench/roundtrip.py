"""Times one ``mcp.call`` round trip through the SDK: ``echo`` on
fixture-everything, after a warm-up, as the mean (and median, p99) of many
calls. Not part of the test run.

    MCPTEST_BIN=/abs/mcptest python bench/roundtrip.py /abs/fixture-everything [CALLS]
"""

from __future__ import annotations

import statistics
import sys
import time

from mcptest import McpClient, ServerSpec

WARM_UP = 100


def main() -> None:
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    calls = int(sys.argv[2]) if len(sys.argv) == 3 else 2000
    if calls < 500:
        sys.exit("measure at least 500 calls")
    server = ServerSpec.command(sys.argv[1])
    with McpClient.connect(server, check_frames=False) as mcp:
        for _ in range(WARM_UP):
            mcp.call("echo", {"message": "warm"})
        times = []
        for index in range(calls):
            started = time.perf_counter()
            verdict = mcp.call("echo", {"message": f"call {index}"})
            times.append(time.perf_counter() - started)
            if verdict.text != f"call {index}":
                sys.exit(f"echo answered {verdict.text!r} to call {index}")
    micros = sorted(t * 1e6 for t in times)
    print(
        f"mcp.call echo through the Python SDK, {calls} calls after {WARM_UP} warm-up: "
        f"mean {statistics.fmean(micros):.1f} us, median {statistics.median(micros):.1f} us, "
        f"p99 {micros[int(len(micros) * 0.99) - 1]:.1f} us"
    )


if __name__ == "__main__":
    main()
