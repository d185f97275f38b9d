/*
 * Server: the MCP server under test, as an argv (never a shell string) or a URL.
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
 * given, with no shell), or the URL of a Streamable HTTP server. Immutable; every {@code with}
 * method returns a new value.
 *
 * <pre>{@code
 * Server server = Server.argv("python3", "server.py", "--stdio")
 *         .withEnv("API_KEY", "test")
 *         .withCwd(Path.of("examples/weather"));
 * }</pre>
 *
 * @param argv the program and its arguments; empty for a URL server
 * @param url the Streamable HTTP URL; {@code null} for an argv server
 * @param env variables added to the server's environment (argv servers only)
 * @param cwd the server's working directory, or {@code null} for the binary's
 */
public record Server(List<String> argv, String url, Map<String, String> env, Path cwd) {
    /** Checks that exactly one of argv and url is given, and copies the collections. */
    public Server {
        argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
        env = Map.copyOf(Objects.requireNonNull(env, "env"));
        if (argv.isEmpty() == (url == null)) {
            throw new IllegalArgumentException(
                    "a server is either an argv (program and arguments) or a URL, not "
                            + (argv.isEmpty() ? "neither" : "both"));
        }
        if (url != null && (!env.isEmpty() || cwd != null)) {
            throw new IllegalArgumentException(
                    "env and cwd apply to a server the binary starts (an argv), not to the URL "
                            + url);
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
        return new Server(List.of(argv), null, Map.of(), null);
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
        return new Server(List.of(), Objects.requireNonNull(url, "url"), Map.of(), null);
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
        return new Server(argv, url, merged, cwd);
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
        return new Server(argv, url, merged, cwd);
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
        return new Server(argv, url, env, dir);
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
        if (url != null) {
            out.add("--server-url");
            out.add(url);
        } else {
            out.add("--");
            out.addAll(argv);
        }
        return out;
    }

    /** This server as the {@code server} param of {@code suite.run}. */
    ObjectNode param() {
        ObjectNode out = Frames.object();
        if (url != null) {
            out.put("url", url);
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
