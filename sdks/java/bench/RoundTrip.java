/*
 * RoundTrip: measures one mcp.call round trip through the Java SDK (echo on
 * fixture-everything): the mean of many calls after a warm-up. Not part of the test run.
 *
 *   bash sdks/java/bench/run.sh            (after ci.sh built target/sdk-java)
 */

import dev.mcptest.CallResult;
import dev.mcptest.ClientOptions;
import dev.mcptest.McpClient;
import dev.mcptest.Server;
import java.util.Arrays;
import java.util.Map;

/** The round-trip benchmark; arguments: the fixture-everything path, then the call count. */
public final class RoundTrip {
    private RoundTrip() {}

    /**
     * Runs the benchmark.
     *
     * <pre>{@code java -cp ... RoundTrip /path/to/fixture-everything 1000}</pre>
     *
     * @param args the fixture-everything path, then how many calls to time (default 1000)
     */
    public static void main(String[] args) {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: RoundTrip FIXTURE_EVERYTHING [CALLS]");
        }
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int warmup = 1000;
        Map<String, String> message = Map.of("message", "hello");
        long[] nanos = new long[calls];
        try (McpClient client = McpClient.start(Server.argv(args[0]),
                ClientOptions.defaults().checkFrames(false))) {
            for (int i = 0; i < warmup; i++) {
                check(client.call("echo", message));
            }
            for (int i = 0; i < calls; i++) {
                long start = System.nanoTime();
                CallResult r = client.call("echo", message);
                nanos[i] = System.nanoTime() - start;
                check(r);
            }
        }
        Arrays.sort(nanos);
        double mean = Arrays.stream(nanos).average().orElse(0) / 1000.0;
        System.out.printf("java mcp.call echo round trip: mean %.1f us, median %.1f us,"
                + " p99 %.1f us over %d calls (after %d warm-up calls, --check-frames off)%n",
                mean, nanos[calls / 2] / 1000.0, nanos[(int) (calls * 0.99)] / 1000.0, calls,
                warmup);
    }

    private static void check(CallResult r) {
        if (!r.success() || !r.text().equals("hello")) {
            throw new IllegalStateException("echo answered " + r);
        }
    }
}
