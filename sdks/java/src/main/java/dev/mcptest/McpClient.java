/*
 * McpClient: a typed client of one MCP server under test, through one mcptest binary.
 */
package dev.mcptest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A client of one MCP server under test. It never speaks MCP itself: it starts one
 * {@code mcptest exec} process, checks the coprocess protocol version in a handshake before
 * anything else, and sends each request over that process's stdin/stdout. Closing it shuts the
 * binary down (and kills it after a grace period if need be), together with the server.
 *
 * <pre>{@code
 * try (McpClient client = McpClient.start(Server.argv("python3", "server.py"))) {
 *     CallResult r = client.call("add", Map.of("a", 2, "b", 3));
 *     assertTrue(r.success(), r.error());
 *     assertEquals("5", r.text());
 * }
 * }</pre>
 *
 * <p>In JUnit 5, {@link McpExtension} starts one per test from an {@link McpServer} annotation
 * and closes it after the test.
 */
public final class McpClient implements AutoCloseable {
    /** The coprocess protocol version this SDK speaks: the one pin, checked in the handshake. */
    public static final int PROTOCOL_VERSION = 3;

    /** This SDK's version, sent in the handshake. */
    public static final String SDK_VERSION = "0.1.0";

    /** This SDK's name as the binary's messages show it ("the java SDK"). */
    static final String SDK_NAME = "java";

    private final Coprocess coprocess;
    private final Handshake handshake;
    private final ClientOptions options;

    private McpClient(Coprocess coprocess, Handshake handshake, ClientOptions options) {
        this.coprocess = coprocess;
        this.handshake = handshake;
        this.options = options;
    }

    /**
     * Starts a binary for {@code server} with the default options.
     *
     * <pre>{@code McpClient client = McpClient.start(Server.argv("node", "server.js")); }</pre>
     *
     * @param server the server under test
     * @return the connected client (the server itself starts on the first MCP request)
     * @throws BinaryNotFoundException when there is no binary to start
     * @throws ProtocolMismatchException when the binary speaks another protocol version
     */
    public static McpClient start(Server server) {
        return start(server, ClientOptions.defaults());
    }

    /**
     * Starts a binary for {@code server}.
     *
     * <pre>{@code
     * McpClient client = McpClient.start(Server.argv("my-server"),
     *         ClientOptions.defaults().callTimeout(Duration.ofSeconds(5)));
     * }</pre>
     *
     * @param server the server under test
     * @param options how to start and drive the binary
     * @return the connected client
     * @throws BinaryNotFoundException when there is no binary to start
     * @throws ProtocolMismatchException when the binary speaks another protocol version
     */
    public static McpClient start(Server server, ClientOptions options) {
        return launch(Objects.requireNonNull(server, "server"), options);
    }

    /**
     * Starts a binary with no server under test, for suites (each file names its server, or
     * {@link SuiteOptions#server} gives one).
     *
     * <pre>{@code
     * try (McpClient session = McpClient.start(ClientOptions.defaults())) {
     *     List<SuiteTest> tests = session.listSuite(List.of("tests/evals"), null);
     * }
     * }</pre>
     *
     * @param options how to start and drive the binary
     * @return the client
     */
    public static McpClient start(ClientOptions options) {
        return launch(null, options);
    }

    private static McpClient launch(Server server, ClientOptions options) {
        Objects.requireNonNull(options, "options");
        Path binary = BinaryLocator.locate(options.binary(), System.getenv());
        var args = new ArrayList<String>(List.of("exec", "--connection-server",
                "--call-timeout", ClientOptions.spell(options.callTimeout())));
        if (options.checkFrames()) {
            args.add("--check-frames");
        }
        if (options.maxLineBytes() > 0) {
            args.add("--max-line-bytes");
            args.add(Long.toString(options.maxLineBytes()));
        }
        if (server != null) {
            args.addAll(server.arguments());
        }
        Coprocess coprocess = Coprocess.spawn(binary, args, options);
        try {
            return new McpClient(coprocess, shakeHands(coprocess, options), options);
        } catch (RuntimeException e) {
            coprocess.close();
            throw e;
        }
    }

    /** The handshake, first on every channel: anything but v3 stops here. */
    private static Handshake shakeHands(Coprocess coprocess, ClientOptions options) {
        ObjectNode params = Frames.object();
        params.put("protocol_version", PROTOCOL_VERSION);
        params.put("sdk", SDK_NAME);
        params.put("sdk_version", SDK_VERSION);
        String method = "coprocess/handshake";
        Handshake handshake;
        try {
            handshake = coprocess.request(method, "the handshake (" + method + ")", params,
                    options.startTimeout(), result -> readHandshake(result, coprocess));
        } catch (CoprocessException e) {
            if (e.code() == CoprocessException.METHOD_NOT_FOUND) {
                throw new ProtocolMismatchException("mcptest binary speaks coprocess v1; this SDK"
                        + " needs v" + PROTOCOL_VERSION + ". Upgrade the mcptest binary (`cargo"
                        + " install --path mcptest-cli` from a clone of the mcptest repository),"
                        + " or pin this SDK to a release that speaks v1. (The binary answered the"
                        + " handshake with -32601: " + e.binaryMessage() + ")",
                        e.stderrTail());
            }
            if (e.code() == CoprocessException.INVALID_PARAMS) {
                throw new ProtocolMismatchException(e.binaryMessage(), e.stderrTail());
            }
            throw e;
        }
        return handshake;
    }

    /** The handshake's answer: a version mismatch first, then the closed v3 shape. */
    private static Handshake readHandshake(JsonNode result, Coprocess coprocess) {
        String method = "coprocess/handshake";
        JsonNode version = OpenJson.object(result, method, "$.result").path("protocol_version");
        if (!version.isIntegralNumber()) {
            throw new FrameException(method, "$.result.protocol_version",
                    "expected an integer, got " + version.getNodeType());
        }
        int spoken = version.asInt();
        if (spoken != PROTOCOL_VERSION) {
            String upgrade = spoken < PROTOCOL_VERSION
                    ? "Upgrade the mcptest binary (or pin the SDK to the matching release)."
                    : "Upgrade the " + SDK_NAME + " SDK (or pin the mcptest binary to the"
                            + " matching release).";
            throw new ProtocolMismatchException("coprocess protocol version mismatch: the mcptest"
                    + " binary answered the handshake with v" + spoken + ", the " + SDK_NAME
                    + " SDK speaks v" + PROTOCOL_VERSION + ". " + upgrade,
                    coprocess.stderrTail());
        }
        return Frames.bind(result, Handshake.class, method, "$.result");
    }

    /**
     * What the binary said in the handshake: its versions, methods, lanes and features.
     *
     * <pre>{@code assertEquals(McpClient.PROTOCOL_VERSION, client.handshake().protocolVersion()); }</pre>
     *
     * @return the handshake answer
     */
    public Handshake handshake() {
        return handshake;
    }

    /**
     * The binary's process id (the process table shows it until the client is closed).
     *
     * <pre>{@code long pid = client.pid(); }</pre>
     *
     * @return the pid
     */
    public long pid() {
        return coprocess.pid();
    }

    /**
     * The binary's command line, program first.
     *
     * <pre>{@code assertTrue(client.command().contains("--check-frames")); }</pre>
     *
     * @return the command line
     */
    public List<String> command() {
        return coprocess.command();
    }

    /**
     * The last lines the binary wrote to stderr so far ("" when none).
     *
     * <pre>{@code System.err.println(client.stderrTail()); }</pre>
     *
     * @return the tail
     */
    public String stderrTail() {
        return coprocess.stderrTail();
    }

    /**
     * Connects to the server (if no request did yet) and returns what it said about itself.
     *
     * <pre>{@code assertEquals("weather", client.initialize().serverInfo().name()); }</pre>
     *
     * @return the server's name, version, protocol revision and capabilities
     */
    public ServerInfo initialize() {
        String m = "mcp.initialize";
        return upstream(m, m, Frames.object(),
                result -> Frames.bind(result, ServerInfo.class, m, "$.result"));
    }

    /**
     * Calls a tool without arguments.
     *
     * <pre>{@code assertTrue(client.call("image").success()); }</pre>
     *
     * @param tool the tool's name
     * @return the verdict
     * @throws UpstreamException when the server answers with a JSON-RPC error
     * @throws ConnectionDroppedException when the server's connection drops
     * @throws UpstreamTimeoutException when the server does not answer in time
     */
    public CallResult call(String tool) {
        return call(tool, Frames.object());
    }

    /**
     * Calls a tool with arguments given as a map (converted to a JSON object).
     *
     * <pre>{@code CallResult r = client.call("echo", Map.of("message", "hi")); }</pre>
     *
     * @param tool the tool's name
     * @param arguments the arguments
     * @return the verdict
     */
    public CallResult call(String tool, Map<String, ?> arguments) {
        return call(tool, Frames.tree(Objects.requireNonNull(arguments, "arguments")));
    }

    /**
     * Calls a tool with arguments given as a JSON object.
     *
     * <pre>{@code CallResult r = client.call("echo", json.readTree("{\"message\": \"hi\"}")); }</pre>
     *
     * @param tool the tool's name
     * @param arguments the arguments (a JSON object)
     * @return the verdict
     */
    public CallResult call(String tool, JsonNode arguments) {
        String m = "mcp.call";
        return upstream(m, m + " `" + tool + "`", callParams(tool, arguments, false),
                result -> Frames.bind(result, CallResult.class, m, "$.result"));
    }

    /**
     * Calls a tool and returns the server's result verbatim, for what the verdict does not
     * carry.
     *
     * <pre>{@code assertFalse(client.callPassthrough("fail", Map.of()).success()); }</pre>
     *
     * @param tool the tool's name
     * @param arguments the arguments
     * @return the server's {@code tools/call} result
     */
    public Passthrough callPassthrough(String tool, Map<String, ?> arguments) {
        String m = "mcp.call";
        JsonNode args = Frames.tree(Objects.requireNonNull(arguments, "arguments"));
        return upstream(m, m + " `" + tool + "` (passthrough)", callParams(tool, args, true),
                result -> Passthrough.read(result, m));
    }

    private static ObjectNode callParams(String tool, JsonNode arguments, boolean passthrough) {
        Objects.requireNonNull(tool, "tool");
        if (arguments == null || !arguments.isObject()) {
            throw new IllegalArgumentException("a tool's arguments are a JSON object, not "
                    + (arguments == null ? "null" : arguments.getNodeType()));
        }
        ObjectNode params = Frames.object();
        params.put("tool", tool);
        params.set("arguments", arguments);
        if (passthrough) {
            params.put("passthrough", true);
        }
        return params;
    }

    /**
     * Every tool the server lists (every page).
     *
     * <pre>{@code assertTrue(client.listTools().stream().anyMatch(t -> t.name().equals("echo"))); }</pre>
     *
     * @return the tools
     */
    public List<Tool> listTools() {
        String m = "mcp.listTools";
        return upstream(m, m, null, result -> OpenJson.list(only(result, "tools", m), "tools", m,
                "$.result", Tool::read));
    }

    /**
     * Every prompt the server lists (every page).
     *
     * <pre>{@code assertEquals("simple", client.listPrompts().get(0).name()); }</pre>
     *
     * @return the prompts
     */
    public List<Prompt> listPrompts() {
        String m = "mcp.listPrompts";
        return upstream(m, m, null, result -> OpenJson.list(only(result, "prompts", m), "prompts",
                m, "$.result", Prompt::read));
    }

    /**
     * Every resource the server lists (every page).
     *
     * <pre>{@code assertFalse(client.listResources().isEmpty()); }</pre>
     *
     * @return the resources
     */
    public List<Resource> listResources() {
        String m = "mcp.listResources";
        return upstream(m, m, null, result -> OpenJson.list(only(result, "resources", m),
                "resources", m, "$.result", Resource::read));
    }

    /**
     * Every resource template the server lists (every page).
     *
     * <pre>{@code assertEquals(1, client.listResourceTemplates().size()); }</pre>
     *
     * @return the templates
     */
    public List<ResourceTemplate> listResourceTemplates() {
        String m = "mcp.listResourceTemplates";
        return upstream(m, m, null, result -> OpenJson.list(only(result, "resourceTemplates", m),
                "resourceTemplates", m, "$.result", ResourceTemplate::read));
    }

    /**
     * Reads one resource.
     *
     * <pre>{@code String text = client.readResource("fixture://static/text").contents().get(0).text(); }</pre>
     *
     * @param uri the resource's URI
     * @return what the server answered
     */
    public ResourceRead readResource(String uri) {
        String m = "mcp.readResource";
        ObjectNode params = Frames.object();
        params.put("uri", Objects.requireNonNull(uri, "uri"));
        return upstream(m, m + " `" + uri + "`", params, ResourceRead::read);
    }

    /**
     * Gets a prompt that takes no arguments.
     *
     * <pre>{@code PromptResult p = client.getPrompt("simple"); }</pre>
     *
     * @param name the prompt's name
     * @return the prompt's messages
     */
    public PromptResult getPrompt(String name) {
        return getPrompt(name, null);
    }

    /**
     * Gets a prompt with arguments.
     *
     * <pre>{@code PromptResult p = client.getPrompt("greeting", Map.of("name", "Ada")); }</pre>
     *
     * @param name the prompt's name
     * @param arguments its arguments (strings), or {@code null}
     * @return the prompt's messages
     */
    public PromptResult getPrompt(String name, Map<String, String> arguments) {
        String m = "mcp.callPrompt";
        ObjectNode params = Frames.object();
        params.put("name", Objects.requireNonNull(name, "name"));
        if (arguments != null) {
            params.set("arguments", Frames.tree(arguments));
        }
        return upstream(m, m + " `" + name + "`", params, PromptResult::read);
    }

    /**
     * What the server sent on its own since the last call or the last {@code messages()}; each
     * message is returned once.
     *
     * <pre>{@code ServerMessages since = client.messages(); }</pre>
     *
     * @return the messages and logs
     */
    public ServerMessages messages() {
        String m = "mcp.messages";
        return upstream(m, m, Frames.object(),
                result -> Frames.bind(result, ServerMessages.class, m, "$.result"));
    }

    /**
     * Lists the tests of suite files; the SDK never reads them itself.
     *
     * <pre>{@code List<SuiteTest> tests = client.listSuite(List.of("tests/evals"), "echo"); }</pre>
     *
     * @param paths files or directories (every .yaml/.yml below), relative to the binary's
     *     working directory ({@link ClientOptions#cwd})
     * @param filter only tests whose name or file contains this text, or {@code null}
     * @return the tests, in file order
     * @throws SuiteLoadException when a file does not load
     */
    public List<SuiteTest> listSuite(List<String> paths, String filter) {
        String m = "suite.list";
        ObjectNode params = Frames.object();
        var list = params.putArray("paths");
        paths.forEach(list::add);
        if (filter != null) {
            params.put("filter", filter);
        }
        return coprocess.request(m, m + " " + paths, params, options.requestWait(),
                result -> Frames.bind(result, Listing.class, m, "$.result").tests());
    }

    /** The closed result of {@code suite.list}. */
    record Listing(@JsonProperty(value = "tests", required = true) List<SuiteTest> tests) {
        Listing {
            tests = List.copyOf(Objects.requireNonNull(tests, "tests is null"));
        }
    }

    /**
     * Runs one listed suite test through the binary's runner (the one behind
     * {@code mcptest run}).
     *
     * <pre>{@code
     * TestVerdict v = client.runSuiteTest(test.id(), SuiteOptions.defaults().fixture(dir));
     * }</pre>
     *
     * @param id the test's id, from {@link #listSuite}
     * @param options the fixture, default server, timeout and wire-schema mode
     * @return the verdict
     */
    public TestVerdict runSuiteTest(String id, SuiteOptions options) {
        String m = "suite.run";
        return coprocess.request(m, m + " `" + id + "`",
                options.runParams(Objects.requireNonNull(id, "id")), options.runWait(), result -> {
                    TestVerdict verdict = Frames.bind(result, TestVerdict.class, m, "$.result");
                    if (!verdict.id().equals(id)) {
                        throw new FrameException(m, "$.result.id", "the verdict is for `"
                                + verdict.id() + "`, not the test run, `" + id + "`");
                    }
                    return verdict;
                });
    }

    /**
     * Adds this SDK's own test and verdict to the session's report ({@code mcp.reporter.record}).
     *
     * <pre>{@code client.record("checks the forecast", TestVerdict.Status.PASS, Duration.ofMillis(40), null, null, 0); }</pre>
     *
     * @param name the test's name
     * @param status its verdict
     * @param duration how long it took, or {@code null}
     * @param message a failure message, or {@code null}
     * @param file the test's source file, or {@code null}
     * @param line the test's line, or 0 for none
     */
    public void record(String name, TestVerdict.Status status, Duration duration, String message,
            String file, int line) {
        String m = "mcp.reporter.record";
        ObjectNode params = Frames.object();
        params.put("name", Objects.requireNonNull(name, "name"));
        params.put("status", Objects.requireNonNull(status, "status").name().toLowerCase(Locale.ROOT));
        if (duration != null) {
            params.put("duration_ms", duration.toMillis());
        }
        if (message != null) {
            params.put("message", message);
        }
        if (file != null) {
            params.put("file", file);
        }
        if (line > 0) {
            params.put("line", line);
        }
        coprocess.request(m, m + " `" + name + "`", params, options.requestWait(),
                result -> empty(result, m));
    }

    /**
     * Sets where {@link #flush()} uploads the session's report.
     *
     * <pre>{@code client.setUpload("https://reports.example/api/runs", System.getenv("TOKEN")); }</pre>
     *
     * @param url an http:// or https:// URL
     * @param token a bearer token, or {@code null}
     */
    public void setUpload(String url, String token) {
        String m = "mcp.reporter.setUpload";
        ObjectNode params = Frames.object();
        params.put("url", Objects.requireNonNull(url, "url"));
        if (token != null) {
            params.put("token", token);
        }
        coprocess.request(m, m, params, options.requestWait(), result -> empty(result, m));
    }

    /**
     * Uploads the session's report (every call, suite test and recorded result).
     *
     * <pre>{@code FlushResult sent = client.flush(); }</pre>
     *
     * @return the upload's outcome
     */
    public FlushResult flush() {
        String m = "mcp.reporter.flush";
        return coprocess.request(m, m, null, options.requestWait(),
                result -> Frames.bind(result, FlushResult.class, m, "$.result"));
    }

    /**
     * Records or replays the next connection's traffic: {@code record}, {@code replay},
     * {@code auto} or {@code off}.
     *
     * <pre>{@code client.setCassetteMode("replay", Path.of("src/test/resources/weather.json")); }</pre>
     *
     * @param mode the mode
     * @param path the cassette file
     * @return the mode taken and the store's path
     */
    public TapeMode setCassetteMode(String mode, Path path) {
        return tape("mcp.cassette.set_mode", mode, Objects.requireNonNull(path, "path"));
    }

    /**
     * Caches the next connection's answers: {@code read}, {@code write}, {@code readwrite} or
     * {@code off}.
     *
     * <pre>{@code client.setCacheMode("readwrite", null); // the binary's default store }</pre>
     *
     * @param mode the mode
     * @param path the cache file, or {@code null} for the binary's default
     * @return the mode taken and the store's path
     */
    public TapeMode setCacheMode(String mode, Path path) {
        return tape("mcp.cache.set_mode", mode, path);
    }

    private TapeMode tape(String m, String mode, Path path) {
        ObjectNode params = Frames.object();
        params.put("mode", Objects.requireNonNull(mode, "mode"));
        if (path != null) {
            params.put("path", path.toString());
        }
        return coprocess.request(m, m + " " + mode, params, options.requestWait(),
                result -> Frames.bind(result, TapeMode.class, m, "$.result"));
    }

    /**
     * Shuts the binary down ({@code mcp.shutdown}), and kills it and its server if they have
     * not exited after the grace period. Safe to call twice.
     *
     * <pre>{@code client.close(); // or try-with-resources }</pre>
     */
    @Override
    public void close() {
        coprocess.close();
    }

    /** An upstream request, bounded by the call timeout plus the margin. */
    private <T> T upstream(String method, String what, JsonNode params,
            Function<JsonNode, T> read) {
        return coprocess.request(method, what, params, options.requestWait(), read);
    }

    /** The result, checked to hold only {@code key}. */
    private static JsonNode only(JsonNode result, String key, String method) {
        OpenJson.object(result, method, "$.result");
        for (var names = result.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals(key)) {
                throw new FrameException(method, "$.result." + name, "unknown field `" + name
                        + "`: the result has only `" + key + "`");
            }
        }
        return result;
    }

    /** Checks that a result is the empty object. */
    private static JsonNode empty(JsonNode result, String method) {
        OpenJson.object(result, method, "$.result");
        if (result.size() != 0) {
            String name = result.fieldNames().next();
            throw new FrameException(method, "$.result." + name,
                    "unknown field `" + name + "`: the result is an empty object");
        }
        return result;
    }
}
