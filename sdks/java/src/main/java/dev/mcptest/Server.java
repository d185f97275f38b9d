/*
 * Server: the MCP server under test, as an argv (never a shell string), a Streamable HTTP URL or
 * a legacy HTTP+SSE URL, with the credentials the binary sends to a URL server.
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The MCP server under test: a program with its arguments (started by the binary exactly as
 * given, with no shell), the URL of a Streamable HTTP server, or the event-stream URL of a
 * legacy HTTP+SSE server. A URL server takes {@link Credentials}, which the binary sends; a
 * secret is never a value here, only the name of the variable that holds it. Immutable; every
 * {@code with} method returns a new value.
 *
 * <pre>{@code
 * Server server = Server.argv("python3", "server.py", "--stdio")
 *         .withEnv("API_KEY", "test")
 *         .withCwd(Path.of("examples/weather"));
 * Server remote = Server.sse("http://127.0.0.1:3001/sse").withBearerEnv("MCP_TOKEN");
 * }</pre>
 *
 * @param argv the program and its arguments; empty for a URL server
 * @param url the Streamable HTTP URL; {@code null} for an argv or SSE server
 * @param sse the legacy HTTP+SSE event-stream URL; {@code null} for an argv or url server
 * @param env variables added to the server's environment (argv servers only)
 * @param cwd the server's working directory, or {@code null} for the binary's
 * @param credentials what the binary sends to a URL server ({@link Credentials#NONE} for none)
 */
public record Server(
        List<String> argv,
        String url,
        String sse,
        Map<String, String> env,
        Path cwd,
        Credentials credentials) {
    /** Checks that exactly one of argv, url and sse is given, and copies the collections. */
    public Server {
        argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
        env = Map.copyOf(Objects.requireNonNull(env, "env"));
        credentials = Objects.requireNonNull(credentials, "credentials");
        if (url != null && sse != null) {
            throw new IllegalArgumentException(
                    "a server is either a Streamable HTTP url or an sse url, not both");
        }
        String address = url != null ? url : sse;
        String field = url != null ? "url" : "sse";
        if (argv.isEmpty() == (address == null)) {
            throw new IllegalArgumentException(
                    "a server is either an argv (program and arguments) or a URL, not "
                            + (argv.isEmpty() ? "neither" : "both"));
        }
        if (address != null && (!env.isEmpty() || cwd != null)) {
            throw new IllegalArgumentException(
                    "env and cwd apply to a server the binary starts (an argv), not to the URL "
                            + address);
        }
        if (address != null) {
            Credentials.requireHttp(field, address);
        } else if (!credentials.isEmpty()) {
            throw new IllegalArgumentException(credentials.firstField()
                    + " applies to a server reached at a url or sse, not to a server the binary"
                    + " starts (give its secrets with env)");
        }
        for (String arg : argv) {
            Objects.requireNonNull(arg, "an argv element is null");
        }
        for (String key : env.keySet()) {
            if (key.isEmpty() || key.contains("=")) {
                throw new IllegalArgumentException(
                        "an environment variable's name is not empty and has no '=': " + key);
            }
        }
    }

    /**
     * A server started as this program with these arguments, exactly as given (no shell).
     *
     * <pre>{@code Server.argv("node", "dist/server.js") }</pre>
     *
     * @param argv the program, then its arguments
     * @return the server
     */
    public static Server argv(String... argv) {
        if (argv.length == 0) {
            throw new IllegalArgumentException("a server's argv names at least the program");
        }
        return new Server(List.of(argv), null, null, Map.of(), null, Credentials.NONE);
    }

    /**
     * The server as the four components of earlier releases (argv, url, env, cwd), no
     * credentials.
     *
     * <pre>{@code new Server(List.of("my-server"), null, Map.of(), null) }</pre>
     *
     * @param argv the program and its arguments; empty for a URL server
     * @param url the Streamable HTTP URL; {@code null} for an argv server
     * @param env variables added to the server's environment
     * @param cwd the server's working directory, or {@code null}
     */
    public Server(List<String> argv, String url, Map<String, String> env, Path cwd) {
        this(argv, url, null, env, cwd, Credentials.NONE);
    }

    /**
     * A server started as this argv list, exactly as given (no shell).
     *
     * <pre>{@code Server.argv(List.of("python3", "-m", "my_server")) }</pre>
     *
     * @param argv the program, then its arguments
     * @return the server
     */
    public static Server argv(List<String> argv) {
        return argv(argv.toArray(String[]::new));
    }

    /**
     * A Streamable HTTP server already running at this URL.
     *
     * <pre>{@code Server.url("http://127.0.0.1:3001/mcp") }</pre>
     *
     * @param url the server's URL
     * @return the server
     */
    public static Server url(String url) {
        return new Server(
                List.of(), Objects.requireNonNull(url, "url"), null, Map.of(), null,
                Credentials.NONE);
    }

    /**
     * A server of the legacy HTTP+SSE transport (2024-11-05), by its event-stream URL.
     *
     * <pre>{@code Server.sse("http://127.0.0.1:3001/sse") }</pre>
     *
     * @param url the server's event-stream URL
     * @return the server
     */
    public static Server sse(String url) {
        return new Server(
                List.of(), null, Objects.requireNonNull(url, "sse"), Map.of(), null,
                Credentials.NONE);
    }

    /**
     * This URL server with these credentials (replacing any).
     *
     * <pre>{@code Server.url(u).withCredentials(Credentials.NONE.withBearerEnv("MCP_TOKEN")) }</pre>
     *
     * @param credentials what the binary sends
     * @return the new server
     */
    public Server withCredentials(Credentials credentials) {
        return new Server(argv, url, sse, env, cwd, credentials);
    }

    /**
     * This URL server with one more header, sent by the binary ({@code --header "NAME: VALUE"});
     * the value may say {@code ${VAR}}, which the binary reads from its environment.
     *
     * <pre>{@code Server.url(u).withHeader("X-Api-Key", "${API_KEY}") }</pre>
     *
     * @param name the header's name
     * @param value its value
     * @return the new server
     */
    public Server withHeader(String name, String value) {
        return withCredentials(credentials.withHeader(name, value));
    }

    /**
     * This URL server reached with the bearer token held by this environment variable of the
     * binary ({@code --bearer-env}).
     *
     * <pre>{@code Server.sse(u).withBearerEnv("MCP_TOKEN") }</pre>
     *
     * @param variable the variable's name
     * @return the new server
     */
    public Server withBearerEnv(String variable) {
        return withCredentials(credentials.withBearerEnv(variable));
    }

    /**
     * This URL server reached with a token of the client-credentials grant ({@code --client-id},
     * {@code --client-secret-env}); the secret is read from the variable {@code secretEnv}.
     *
     * <pre>{@code Server.url(u).withClientCredentials("ci", "MCP_SECRET") }</pre>
     *
     * @param clientId the client id
     * @param secretEnv the name of the variable holding the client secret
     * @return the new server
     */
    public Server withClientCredentials(String clientId, String secretEnv) {
        return withCredentials(credentials.withClientCredentials(clientId, secretEnv));
    }

    /**
     * This URL server's token endpoint for the client-credentials grant ({@code --token-url});
     * without it the binary finds it in the server's protected-resource metadata.
     *
     * <pre>{@code Server.url(u).withClientCredentials("ci", "S").withTokenUrl("https://a/token") }</pre>
     *
     * @param tokenUrl the token endpoint
     * @return the new server
     */
    public Server withTokenUrl(String tokenUrl) {
        return withCredentials(credentials.withTokenUrl(tokenUrl));
    }

    /**
     * This server with one more environment variable (replacing one of the same name).
     *
     * <pre>{@code Server.argv("my-server").withEnv("LOG", "debug") }</pre>
     *
     * @param key the variable's name
     * @param value its value
     * @return the new server
     */
    public Server withEnv(String key, String value) {
        var merged = new LinkedHashMap<>(env);
        merged.put(key, Objects.requireNonNull(value, "value"));
        return new Server(argv, url, sse, merged, cwd, credentials);
    }

    /**
     * This server with the variables of {@code KEY=VALUE} entries added.
     *
     * <pre>{@code Server.argv("my-server").withEnv(List.of("A=1", "B=2")) }</pre>
     *
     * @param entries {@code KEY=VALUE} texts
     * @return the new server
     */
    public Server withEnv(List<String> entries) {
        var merged = new LinkedHashMap<>(env);
        for (String entry : entries) {
            int at = entry.indexOf('=');
            if (at <= 0) {
                throw new IllegalArgumentException(
                        "an environment entry is KEY=VALUE, not \"" + entry + "\"");
            }
            merged.put(entry.substring(0, at), entry.substring(at + 1));
        }
        return new Server(argv, url, sse, merged, cwd, credentials);
    }

    /**
     * This server run in another working directory.
     *
     * <pre>{@code Server.argv("python3", "server.py").withCwd(Path.of("examples")) }</pre>
     *
     * @param dir the directory
     * @return the new server
     */
    public Server withCwd(Path dir) {
        return new Server(argv, url, sse, env, dir, credentials);
    }

    /** The binary's command-line arguments that name this server. */
    List<String> arguments() {
        var out = new ArrayList<String>();
        // Sorted so the command line is the same run to run.
        env.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> {
                    out.add("--server-env");
                    out.add(e.getKey() + "=" + e.getValue());
                });
        if (cwd != null) {
            out.add("--server-cwd");
            out.add(cwd.toAbsolutePath().toString());
        }
        if (url != null || sse != null) {
            out.add(url != null ? "--server-url" : "--server-sse");
            out.add(url != null ? url : sse);
            out.addAll(credentials.arguments());
        } else {
            out.add("--");
            out.addAll(argv);
        }
        return out;
    }

    /**
     * This server as the {@code server} param of {@code suite.run}: an argv, or a url or sse
     * server with its credentials (the variables are named, never read here: the binary
     * reads them).
     */
    ObjectNode param() {
        ObjectNode out = Frames.object();
        if (url != null || sse != null) {
            out.put(url != null ? "url" : "sse", url != null ? url : sse);
            credentials.param(out);
            return out;
        }
        var list = out.putArray("argv");
        argv.forEach(list::add);
        if (!env.isEmpty()) {
            ObjectNode vars = out.putObject("env");
            env.entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .forEach(e -> vars.put(e.getKey(), e.getValue()));
        }
        if (cwd != null) {
            out.put("cwd", cwd.toString());
        }
        return out;
    }
}
