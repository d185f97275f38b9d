/*
 * McpExtension: the JUnit 5 extension that gives each test a connected McpClient.
 */
package dev.mcptest;

import java.lang.reflect.AnnotatedElement;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Resolves {@link McpClient} parameters: one client per test (shared by its
 * {@code @BeforeEach} methods), started for the server an {@link McpServer} on the method, its
 * class or an enclosing class names, and closed after the test whatever its outcome (an
 * {@code ExtensionContext.Store} resource). A failing test gets the binary's stderr tail
 * attached as a suppressed exception.
 *
 * <p>Configuration parameters (e.g. in {@code junit-platform.properties}):
 * {@code mcptest.bin} (the binary, else {@code MCPTEST_BIN}, else PATH) and
 * {@code mcptest.checkFrames} ({@code true} turns on {@code --check-frames}, as does
 * {@code MCPTEST_CHECK_FRAMES=1}).
 *
 * <pre>{@code
 * @ExtendWith(McpExtension.class)
 * @McpServer(argv = {"python3", "server.py"})
 * class ServerTest {
 *     @Test
 *     void lists(McpClient client) {
 *         assertFalse(client.listTools().isEmpty());
 *     }
 * }
 * }</pre>
 */
public final class McpExtension implements ParameterResolver, TestExecutionExceptionHandler {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(McpExtension.class);
    private static final String KEY = "client";

    /** The configuration parameter naming the binary. */
    public static final String BIN_PARAMETER = "mcptest.bin";
    /** The configuration parameter turning {@code --check-frames} on. */
    public static final String CHECK_FRAMES_PARAMETER = "mcptest.checkFrames";

    /** Creates the extension (JUnit does, for {@code @ExtendWith}). */
    public McpExtension() {}

    /** A client in the store, closed when its context (the test) ends. */
    private record Session(McpClient client) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            client.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == McpClient.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        McpServer annotation = find(context).orElseThrow(() -> new ParameterResolutionException(
                "an McpClient parameter needs a server: annotate " + where(context)
                        + " with @McpServer(argv = {\"program\", \"arg\"})"));
        Server server = server(annotation, where(context));
        ClientOptions options = options(annotation, context);
        return context.getStore(NAMESPACE)
                .getOrComputeIfAbsent(KEY, key -> new Session(McpClient.start(server, options)),
                        Session.class)
                .client();
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown)
            throws Throwable {
        Session session = context.getStore(NAMESPACE).get(KEY, Session.class);
        if (session != null && !(thrown instanceof McpTestException)) {
            String tail = session.client().stderrTail();
            if (!tail.isBlank()) {
                thrown.addSuppressed(new BinaryStderr(tail));
            }
        }
        throw thrown;
    }

    /** The nearest {@link McpServer}: the method's, then its class's, then enclosing classes'. */
    private static Optional<McpServer> find(ExtensionContext context) {
        Optional<McpServer> found = context.getTestMethod()
                .flatMap(m -> AnnotationSupport.findAnnotation(m, McpServer.class));
        Class<?> type = context.getTestClass().orElse(null);
        while (found.isEmpty() && type != null) {
            found = AnnotationSupport.findAnnotation(type, McpServer.class);
            type = type.getEnclosingClass();
        }
        return found;
    }

    private static String where(ExtensionContext context) {
        Optional<? extends AnnotatedElement> method = context.getTestMethod();
        String type = context.getTestClass().map(Class::getName).orElse("the test class");
        return method.map(m -> "the test method " + type + "#" + context.getRequiredTestMethod()
                .getName() + " or its class").orElse("the test class " + type);
    }

    /** The server an annotation names; a malformed one is a resolution error naming it. */
    static Server server(McpServer annotation, String where) {
        boolean hasArgv = annotation.argv().length > 0;
        boolean hasUrl = !annotation.url().isEmpty();
        boolean hasSse = !annotation.sse().isEmpty();
        if (hasUrl && hasSse) {
            throw new ParameterResolutionException("@McpServer on " + where
                    + " names both url and sse: give one");
        }
        if (hasArgv == (hasUrl || hasSse)) {
            throw new ParameterResolutionException("@McpServer on " + where + " names "
                    + (hasArgv ? "both argv and " + (hasUrl ? "url" : "sse")
                            : "neither argv nor url nor sse")
                    + ": give exactly one, e.g. @McpServer(argv = {\"python3\", \"server.py\"})");
        }
        try {
            Credentials credentials = credentials(annotation);
            if (hasUrl || hasSse) {
                if (annotation.env().length > 0 || !annotation.cwd().isEmpty()) {
                    throw new IllegalArgumentException("env and cwd apply to a server the binary"
                            + " starts (argv), not " + (hasUrl ? "a url" : "an sse server"));
                }
                return (hasUrl ? Server.url(annotation.url()) : Server.sse(annotation.sse()))
                        .withCredentials(credentials);
            }
            if (!credentials.isEmpty()) {
                throw new IllegalArgumentException(credentials.firstField()
                        + " applies to a server given by url or sse, not to an argv server");
            }
            Server server = Server.argv(annotation.argv()).withEnv(List.of(annotation.env()));
            return annotation.cwd().isEmpty() ? server : server.withCwd(Path.of(annotation.cwd()));
        } catch (IllegalArgumentException e) {
            throw new ParameterResolutionException(
                    "@McpServer on " + where + ": " + e.getMessage(), e);
        }
    }

    /** The annotation's credentials ("" is none). */
    private static Credentials credentials(McpServer annotation) {
        Credentials out = Credentials.NONE;
        for (String header : annotation.headers()) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(
                        "headers: \"" + header + "\" is not \"NAME: VALUE\"");
            }
            out = out.withHeader(header.substring(0, colon), header.substring(colon + 1).strip());
        }
        if (!annotation.bearerEnv().isEmpty()) {
            out = out.withBearerEnv(annotation.bearerEnv());
        }
        if (!annotation.clientId().isEmpty() || !annotation.clientSecretEnv().isEmpty()) {
            out = out.withClientCredentials(emptyIsNull(annotation.clientId()),
                    emptyIsNull(annotation.clientSecretEnv()));
        }
        if (!annotation.tokenUrl().isEmpty()) {
            out = out.withTokenUrl(annotation.tokenUrl());
        }
        return out;
    }

    private static String emptyIsNull(String value) {
        return value.isEmpty() ? null : value;
    }

    private static ClientOptions options(McpServer annotation, ExtensionContext context) {
        ClientOptions options = ClientOptions.defaults();
        Optional<String> bin = context.getConfigurationParameter(BIN_PARAMETER);
        if (bin.isPresent() && !bin.get().isBlank()) {
            options = options.binary(Path.of(bin.get()));
        }
        Optional<String> check = context.getConfigurationParameter(CHECK_FRAMES_PARAMETER);
        if (check.isPresent() && check.get().trim().toLowerCase(Locale.ROOT).equals("true")) {
            options = options.checkFrames(true);
        }
        if (annotation.callTimeoutMillis() > 0) {
            options = options.callTimeout(Duration.ofMillis(annotation.callTimeoutMillis()));
        }
        return options;
    }

    /** The binary's stderr tail, attached to a failing test's exception. */
    static final class BinaryStderr extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BinaryStderr(String tail) {
            super("mcptest stderr (last lines):\n" + tail, null, false, false);
        }
    }
}
