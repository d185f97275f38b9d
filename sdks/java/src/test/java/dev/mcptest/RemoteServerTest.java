/*
 * RemoteServerTest: servers reached at a URL with credentials: the flags they map to (through the
 * fake binary, which writes its argv), the checks of every field and annotation element, and a
 * bearer-protected legacy HTTP+SSE fixture-everything through the real binary (the token in the
 * binary's environment, never on its command line nor in any error), as a client's server and
 * as a suite's.
 */
package dev.mcptest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ParameterResolutionException;

class RemoteServerTest {
    private static final String TOKEN = "sdk-java-secret-4e8a";

    /** fixture-everything on HTTP+SSE demanding {@code Bearer TOKEN}; closing stops it. */
    private static final class ProtectedSse implements AutoCloseable {
        final Process process;
        final String url;

        ProtectedSse() throws Exception {
            process = new ProcessBuilder(TestBed.fixtures().resolve("fixture-everything").toString(),
                    "--sse", "--bearer", TOKEN)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            var reader = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            var first = new CompletableFuture<String>();
            Thread drain = new Thread(() -> {
                try {
                    first.complete(reader.readLine());
                    // Keep draining so the server never blocks on a full pipe.
                    while (reader.readLine() != null) {
                        continue;
                    }
                } catch (IOException e) {
                    first.complete(null);
                }
            }, "fixture-everything stdout");
            drain.setDaemon(true);
            drain.start();
            String line;
            try {
                line = first.get(30, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                line = null;
            }
            if (line == null || !line.startsWith("listening on ")) {
                close();
                fail("fixture-everything --sse printed no URL within 30 s: " + line);
            }
            url = line.substring("listening on ".length()).strip();
        }

        @Override
        public void close() {
            try {
                process.getOutputStream().close();
            } catch (IOException e) {
                // Already closed: the wait below still bounds the exit.
            }
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void a_bearer_variable_reaches_the_protected_sse_server() throws Exception {
        try (var sse = new ProtectedSse();
                McpClient client = McpClient.start(
                        Server.sse(sse.url).withBearerEnv("SDK_JAVA_MCP_TOKEN"),
                        TestBed.options().env("SDK_JAVA_MCP_TOKEN", TOKEN))) {
            assertFalse(String.join(" ", client.command()).contains(TOKEN));
            assertEquals("5", client.call("add", Map.of("a", 2, "b", 3)).text());
        }
    }

    @Test
    void without_credentials_the_session_fails_with_http_401_and_no_token_shows()
            throws Exception {
        try (var sse = new ProtectedSse()) {
            for (Server server : List.of(Server.sse(sse.url),
                    Server.sse(sse.url).withBearerEnv("SDK_JAVA_MCP_TOKEN"))) {
                var error = assertThrows(CoprocessException.class, () -> {
                    try (McpClient client = McpClient.start(server,
                            TestBed.options().env("SDK_JAVA_MCP_TOKEN", TOKEN + "-wrong"))) {
                        client.call("add", Map.of("a", 2, "b", 3));
                    }
                });
                assertTrue(error instanceof ConnectionDroppedException, error.toString());
                assertTrue(error.getMessage().contains("HTTP 401"), error.getMessage());
                assertFalse(error.getMessage().contains(TOKEN), error.getMessage());
            }
        }
    }

    private static final String ADD_SUITE = "name: add over sse\nassert:\n  tool: add\n"
            + "  args: {a: 2, b: 3}\n  expect:\n    equals: \"5\"\n";

    @Test
    void a_suite_test_runs_against_the_protected_sse_server_with_the_token_from_a_variable()
            throws Exception {
        Path scratch = TestBed.scratch("suite-sse");
        Path file = scratch.resolve("add.yaml");
        Files.writeString(file, ADD_SUITE);
        try (var sse = new ProtectedSse();
                McpClient client = McpClient.start(
                        TestBed.options().env("SDK_JAVA_MCP_TOKEN", TOKEN))) {
            List<SuiteTest> tests = client.listSuite(List.of(file.toString()), null);
            assertEquals(1, tests.size(), tests.toString());
            SuiteOptions withToken = SuiteOptions.defaults()
                    .server(Server.sse(sse.url).withBearerEnv("SDK_JAVA_MCP_TOKEN"));
            TestVerdict passed = client.runSuiteTest(tests.get(0).id(), withToken);
            assertEquals(TestVerdict.Status.PASS, passed.status(), passed.failure());
            TestVerdict failed = client.runSuiteTest(tests.get(0).id(),
                    SuiteOptions.defaults().server(Server.sse(sse.url)));
            assertEquals(TestVerdict.Status.FAIL, failed.status());
            assertTrue(failed.failure().contains("HTTP 401"), failed.failure());
            for (String shown : List.of(passed.toString(), failed.toString(),
                    client.stderrTail())) {
                assertFalse(shown.contains(TOKEN), shown);
            }
        }
        TestBed.remove(scratch);
    }

    @Test
    void a_suite_server_at_a_url_reaches_suite_run_with_its_credentials_by_name()
            throws Exception {
        Server server = Server.sse("http://127.0.0.1:9/sse")
                .withHeader("X-Api-Key", "${API_KEY}")
                .withBearerEnv("MCP_TOKEN")
                .withClientCredentials("ci", "MCP_SECRET")
                .withTokenUrl("http://127.0.0.1:9/token");
        try (McpClient client = McpClient.start(TestBed.fake("ok"))) {
            TestVerdict verdict = client.runSuiteTest("suites/fake.yaml::passes",
                    SuiteOptions.defaults().server(server));
            var mapper = new ObjectMapper();
            assertEquals(mapper.readTree("{\"sse\": \"http://127.0.0.1:9/sse\","
                    + " \"headers\": {\"X-Api-Key\": \"${API_KEY}\"}, \"bearer_env\": \"MCP_TOKEN\","
                    + " \"client_id\": \"ci\", \"client_secret_env\": \"MCP_SECRET\","
                    + " \"token_url\": \"http://127.0.0.1:9/token\"}"),
                    mapper.readTree(verdict.properties().get("server").asText()));
        }
        assertEquals("{\"url\":\"http://127.0.0.1:9/mcp\",\"bearer_env\":\"T\"}",
                Server.url("http://127.0.0.1:9/mcp").withBearerEnv("T").param().toString());
    }

    @Test
    void credentials_reach_the_binary_as_flags() throws Exception {
        Path scratch = TestBed.scratch("credentials");
        Path args = scratch.resolve("args.json");
        Server server = Server.url("https://mcp.example/mcp")
                .withHeader("X-Api-Key", "${API_KEY}")
                .withBearerEnv("MCP_TOKEN")
                .withClientCredentials("ci", "MCP_SECRET")
                .withTokenUrl("https://auth.example/token");
        try (McpClient client = McpClient.start(server,
                TestBed.fake("ok").env("FAKE_MCPTEST_ARGS", args.toString()))) {
            assertEquals(McpClient.PROTOCOL_VERSION, client.handshake().protocolVersion());
        }
        List<?> got = new ObjectMapper().readValue(Files.readString(args), List.class);
        assertEquals(List.of("exec", "--connection-server", "--call-timeout", "30s",
                "--check-frames", "--server-url", "https://mcp.example/mcp",
                "--header", "X-Api-Key: ${API_KEY}", "--bearer-env", "MCP_TOKEN",
                "--client-id", "ci", "--client-secret-env", "MCP_SECRET",
                "--token-url", "https://auth.example/token"), got);
        assertEquals(List.of("--server-sse", "http://127.0.0.1:9/sse"),
                Server.sse("http://127.0.0.1:9/sse").arguments());
        TestBed.remove(scratch);
    }

    private static void refused(Supplier<?> build, String message) {
        var error = assertThrows(IllegalArgumentException.class, build::get);
        assertTrue(error.getMessage().contains(message), error.getMessage());
    }

    @Test
    void a_bad_server_names_the_field() {
        refused(() -> Server.argv("srv").withBearerEnv("T"),
                "bearerEnv applies to a server reached at a url or sse");
        refused(() -> Server.argv("srv").withHeader("A", "b"),
                "headers applies to a server reached at a url or sse");
        refused(() -> Server.sse("ws://x/sse"), "sse: \"ws://x/sse\" is not an http://");
        refused(() -> Server.url("file:///mcp"), "url: \"file:///mcp\" is not an http://");
        refused(() -> new Server(List.of(), "http://x/mcp", "http://x/sse", Map.of(), null,
                Credentials.NONE), "either a Streamable HTTP url or an sse url, not both");
        refused(() -> Server.url("http://x/mcp").withTokenUrl("http://x/token"),
                "tokenUrl needs clientId and clientSecretEnv");
        refused(() -> Server.url("http://x/mcp").withClientCredentials("ci", null),
                "clientId and clientSecretEnv go together");
        refused(() -> Server.url("http://x/mcp").withBearerEnv("A=B"),
                "bearerEnv: \"A=B\" is not an environment variable name");
        refused(() -> Server.url("http://x/mcp").withHeader("Bad Name", "v"),
                "headers: \"Bad Name\" is not a header name");
    }

    @McpServer(sse = "http://127.0.0.1:9/sse", bearerEnv = "MCP_TOKEN",
            headers = {"X-Api-Key: ${API_KEY}"})
    static final class SseAnnotated {}

    @McpServer(argv = {"srv"}, bearerEnv = "MCP_TOKEN")
    static final class CredentialsOnArgv {}

    @McpServer(url = "http://x/mcp", sse = "http://x/sse")
    static final class UrlAndSse {}

    @McpServer(sse = "ftp://x/sse")
    static final class NotHttp {}

    @Test
    void the_annotation_names_an_sse_server_with_credentials() {
        Server server = McpExtension.server(
                SseAnnotated.class.getAnnotation(McpServer.class), "SseAnnotated");
        assertEquals(List.of("--server-sse", "http://127.0.0.1:9/sse", "--header",
                "X-Api-Key: ${API_KEY}", "--bearer-env", "MCP_TOKEN"), server.arguments());
        for (var c : Map.of(
                CredentialsOnArgv.class, "bearerEnv applies to a server given by url or sse",
                UrlAndSse.class, "names both url and sse",
                NotHttp.class, "sse: \"ftp://x/sse\" is not an http://").entrySet()) {
            var error = assertThrows(ParameterResolutionException.class, () -> McpExtension.server(
                    c.getKey().getAnnotation(McpServer.class), c.getKey().getSimpleName()));
            assertTrue(error.getMessage().contains(c.getValue()), error.getMessage());
            assertTrue(error.getMessage().contains("@McpServer on " + c.getKey().getSimpleName()),
                    error.getMessage());
        }
    }
}
