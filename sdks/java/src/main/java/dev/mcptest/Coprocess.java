/*
 * Coprocess: one running mcptest binary and the newline-delimited JSON-RPC channel to it.
 *
 * It owns the process from spawn to reaping: stdout is read and stdin written on threads of
 * their own (so no pipe can block a test past its deadline), stderr is drained continuously,
 * every request waits with a deadline, and close() always ends with the process and the
 * processes it started gone (mcp.shutdown, then destroy, then destroyForcibly).
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** One mcptest binary process and the strictly serialized request/response channel to it. */
final class Coprocess implements AutoCloseable {
    /** Members a response envelope may have; anything else is a frame error. */
    private static final Set<String> ENVELOPE = Set.of("jsonrpc", "id", "result", "error");
    /** Members of an error object. */
    private static final Set<String> ERROR = Set.of("code", "message", "data");

    /**
     * Request lines up to this size are written by the calling thread: the binary reads a
     * request whole before answering it, so the pipe is empty when the next one is sent, and a
     * pipe holds at least 64 KiB. Longer lines go through the writer thread, so that a binary
     * that stops reading cannot block the caller past its deadline.
     */
    private static final int DIRECT_WRITE_MAX = 16 * 1024;

    /** Binaries still running, killed by the shutdown hook if the JVM exits first. */
    private static final Set<Coprocess> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Coprocess live : LIVE) {
                live.kill(Duration.ofMillis(200));
            }
        }, "mcptest-shutdown"));
    }

    /** What the stdout reader hands over: a line, or the end of the stream. */
    private record Line(String text) {
        static final Line END = new Line(null);
    }

    private final Process process;
    private final List<String> command;
    private final Duration grace;
    private final StderrTail stderr;
    private final BlockingQueue<Line> answers = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> requests = new LinkedBlockingQueue<>();
    private final Thread reader;
    private final Thread writer;
    /** Keeps lines whole on stdin (not the process's monitor: Process.waitFor holds that). */
    private final Object stdinLock = new Object();
    private long nextId = 1;
    /** Why no further request may be sent, once the channel lost its footing. */
    private String broken;
    private boolean closed;

    private Coprocess(Process process, List<String> command, Duration grace) {
        this.process = process;
        this.command = List.copyOf(command);
        this.grace = grace;
        long pid = process.pid();
        this.stderr = new StderrTail(process.getErrorStream(), "mcptest-stderr-" + pid);
        this.reader = new Thread(this::readAnswers, "mcptest-stdout-" + pid);
        this.writer = new Thread(this::writeRequests, "mcptest-stdin-" + pid);
        reader.setDaemon(true);
        writer.setDaemon(true);
        reader.start();
        writer.start();
        LIVE.add(this);
    }

    /**
     * Starts {@code binary} with {@code args}.
     *
     * @param binary the mcptest binary
     * @param args its arguments (after the program)
     */
    static Coprocess spawn(Path binary, List<String> args, ClientOptions options) {
        var command = new ArrayList<String>();
        command.add(binary.toString());
        command.addAll(args);
        var builder = new ProcessBuilder(command);
        if (options.cwd() != null) {
            builder.directory(options.cwd().toFile());
        }
        Map<String, String> env = builder.environment();
        env.putAll(options.env());
        try {
            return new Coprocess(builder.start(), command, options.grace());
        } catch (IOException e) {
            throw new McpTestException("cannot start the mcptest binary " + binary + ": "
                    + e.getMessage() + "; " + BinaryLocator.HOW_TO_INSTALL, "", e);
        }
    }

    private void readAnswers() {
        try (var in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                answers.add(new Line(line));
            }
        } catch (IOException e) {
            // The pipe closes when the process is killed; the end marker below says so.
        } finally {
            answers.add(Line.END);
        }
    }

    private void writeRequests() {
        OutputStream out = process.getOutputStream();
        try (out) {
            while (true) {
                String line = requests.take();
                if (line.isEmpty()) {
                    return;
                }
                synchronized (stdinLock) {
                    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            }
        } catch (IOException e) {
            // The binary stopped reading (it exited); the reader sees the end of its output.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes one short line from the calling thread (see {@link #DIRECT_WRITE_MAX}). */
    private void writeDirectly(String text) {
        synchronized (stdinLock) {
            try {
                OutputStream out = process.getOutputStream();
                out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException e) {
                // The binary stopped reading (it exited); the reader sees the end of its output.
            }
        }
    }

    /** The binary's process id. */
    long pid() {
        return process.pid();
    }

    /** The command line the binary was started with. */
    List<String> command() {
        return command;
    }

    /** The last lines of the binary's stderr. */
    String stderrTail() {
        return stderr.tail();
    }

    /**
     * Sends one request and returns its {@code result}, or throws what its {@code error} means.
     *
     * @param method the coprocess method
     * @param what the call as a person reads it, for messages
     * @param params the params object, or {@code null} for none
     * @param wait how long to wait for the answer before stopping the binary
     */
    synchronized JsonNode request(String method, String what, JsonNode params, Duration wait) {
        return request(method, what, params, wait, result -> result);
    }

    /**
     * Sends one request and reads its {@code result} with {@code read}; a frame error in the
     * reading, as in the envelope, leaves the channel unusable: the SDK never guesses past a
     * frame it cannot read.
     */
    synchronized <T> T request(String method, String what, JsonNode params, Duration wait,
            Function<JsonNode, T> read) {
        if (closed) {
            throw new IllegalStateException(
                    "this mcptest client is closed; " + what + " needs an open one");
        }
        if (broken != null) {
            throw new McpTestException(what + " was not sent: the channel to mcptest is unusable"
                    + " since " + broken, stderr.tail());
        }
        long id = nextId++;
        ObjectNode frame = Frames.object();
        frame.put("jsonrpc", "2.0");
        frame.put("id", id);
        frame.put("method", method);
        if (params != null) {
            frame.set("params", params);
        }
        String text = Frames.write(frame);
        if (text.length() <= DIRECT_WRITE_MAX && requests.isEmpty()) {
            writeDirectly(text);
        } else {
            requests.add(text);
        }
        Line line;
        try {
            line = answers.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            broken = "the wait for " + what + " was interrupted";
            kill(grace);
            throw new McpTestException("interrupted while waiting for mcptest to answer " + what
                    + "; the binary was stopped", stderr.tail(), e);
        }
        if (line == null) {
            broken = "mcptest did not answer " + what + " in time";
            kill(grace);
            stderr.awaitEnd(500);
            throw new BinaryTimeoutException(what, method, wait, process.pid(), stderr.tail());
        }
        if (line.text() == null) {
            broken = "mcptest closed its output";
            Integer code = exitCode(grace);
            stderr.awaitEnd(1000);
            throw new BinaryExitedException(what, code, stderr.tail());
        }
        try {
            return read.apply(answer(Frames.parse(line.text(), method), id, method, what));
        } catch (FrameException e) {
            // After a frame we cannot read, the next answer may belong to this request.
            broken = "its answer to " + what + " broke the frame shape";
            throw e;
        }
    }

    /** The result of a well-formed response, or the exception its error means. */
    private JsonNode answer(JsonNode frame, long id, String method, String what) {
        if (!frame.isObject()) {
            throw new FrameException(method, "$",
                    "a response is a JSON object, not " + frame.getNodeType());
        }
        for (var names = frame.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!ENVELOPE.contains(name)) {
                throw new FrameException(method, "$." + name, "unknown top-level field `" + name
                        + "`: a response has only jsonrpc, id, and result or error");
            }
        }
        if (!frame.path("jsonrpc").isTextual() || !frame.get("jsonrpc").asText().equals("2.0")) {
            throw new FrameException(method, "$.jsonrpc", "must be \"2.0\", not "
                    + frame.path("jsonrpc"));
        }
        boolean hasResult = frame.has("result");
        if (hasResult == frame.has("error")) {
            throw new FrameException(method, "$",
                    "a response has exactly one of result and error, not "
                            + (hasResult ? "both" : "neither"));
        }
        JsonNode gotId = frame.path("id");
        boolean idMatches = gotId.isIntegralNumber() && gotId.asLong() == id;
        if (!idMatches && !(frame.has("error") && gotId.isNull())) {
            throw new FrameException(method, "$.id",
                    "the answer's id " + gotId + " is not the request's id " + id);
        }
        if (hasResult) {
            return frame.get("result");
        }
        JsonNode error = frame.get("error");
        if (!error.isObject()) {
            throw new FrameException(method, "$.error", "an error is an object, not "
                    + error.getNodeType());
        }
        for (var names = error.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!ERROR.contains(name)) {
                throw new FrameException(method, "$.error." + name, "unknown field `" + name
                        + "` in an error: it has only code, message and data");
            }
        }
        if (!error.path("code").isIntegralNumber() || !error.path("message").isTextual()) {
            throw new FrameException(method, "$.error",
                    "an error has an integer code and a string message: " + error);
        }
        throw CoprocessException.of(method, what, error.get("code").asInt(),
                error.get("message").asText(),
                error.has("data") ? error.get("data") : NullNode.getInstance(), stderr.tail());
    }

    /** The exit code once the process has exited (waiting up to {@code wait}), or null. */
    private Integer exitCode(Duration wait) {
        try {
            if (process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                return process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    /**
     * Asks the binary to shut down ({@code mcp.shutdown}, when the channel is sound), closes its
     * stdin, and kills it (and what it started) if it has not exited after the grace period.
     * Safe to call more than once.
     */
    @Override
    public void close() {
        List<ProcessHandle> started;
        synchronized (this) {
            if (closed) {
                return;
            }
            started = process.descendants().toList();
            if (broken == null && process.isAlive()) {
                try {
                    request("mcp.shutdown", "mcp.shutdown", null, grace);
                } catch (RuntimeException e) {
                    // Shutting down is best effort: the kill below is the guarantee.
                }
            }
            closed = true;
        }
        requests.add("");
        if (exitCode(grace) == null) {
            kill(grace);
        }
        // A binary that exited without stopping its server leaves an orphan: stop it here.
        started.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        try {
            reader.join(1000);
            writer.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stderr.awaitEnd(1000);
        LIVE.remove(this);
    }

    /**
     * Stops the process: destroy, then destroyForcibly after {@code wait}; the processes it
     * started (the server under test) are stopped too, since a killed binary cannot stop them.
     */
    void kill(Duration wait) {
        List<ProcessHandle> started = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle child : started) {
            child.destroyForcibly();
        }
        for (ProcessHandle child : started) {
            try {
                child.onExit().get(2, TimeUnit.SECONDS);
            } catch (Exception e) {
                // Reaping is the parent's: a child that lingers shows in the leak test.
            }
        }
    }
}
