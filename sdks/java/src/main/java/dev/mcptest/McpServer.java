/*
 * McpServer: the annotation that names the server under test of a JUnit test.
 */
package dev.mcptest;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Names the MCP server under test of a test method, or of every test of a class (a method's own
 * annotation wins). It registers {@link McpExtension}, so a test only declares an
 * {@link McpClient} parameter. The argv runs exactly as given, without a shell; a relative
 * program is looked up on PATH, a relative path resolves against {@link #cwd()}.
 *
 * <pre>{@code
 * @McpServer(argv = {"python3", "server.py"}, env = {"API_KEY=test"}, cwd = "examples/weather")
 * class WeatherTest {
 *     @Test
 *     void forecasts(McpClient client) {
 *         assertEquals("sunny", client.call("forecast", Map.of("city", "Paris")).text());
 *     }
 * }
 * }</pre>
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(McpExtension.class)
public @interface McpServer {
    /**
     * The server's program and arguments (give this or {@link #url()}).
     *
     * @return the argv
     */
    String[] argv() default {};

    /**
     * The URL of a Streamable HTTP server already running (give this or {@link #argv()}).
     *
     * @return the URL, or "" for none
     */
    String url() default "";

    /**
     * The event-stream URL of a legacy HTTP+SSE server already running (instead of
     * {@link #argv()} or {@link #url()}).
     *
     * @return the URL, or "" for none
     */
    String sse() default "";

    /**
     * Headers the binary sends to a url or sse server, each {@code "NAME: VALUE"}; a value may
     * say {@code ${VAR}}, read by the binary from its environment.
     *
     * @return the headers
     */
    String[] headers() default {};

    /**
     * The variable of the binary's environment holding a bearer token for a url or sse server.
     *
     * @return the variable's name, or "" for none
     */
    String bearerEnv() default "";

    /**
     * The client id of the client-credentials grant (with {@link #clientSecretEnv()}).
     *
     * @return the id, or "" for none
     */
    String clientId() default "";

    /**
     * The variable holding the client secret of the client-credentials grant.
     *
     * @return the variable's name, or "" for none
     */
    String clientSecretEnv() default "";

    /**
     * The token endpoint of the client-credentials grant; "" to find it in the server's
     * protected-resource metadata.
     *
     * @return the URL, or "" for none
     */
    String tokenUrl() default "";

    /**
     * Variables added to the server's environment, each {@code KEY=VALUE}.
     *
     * @return the entries
     */
    String[] env() default {};

    /**
     * The server's working directory, relative to the test's working directory; "" for the
     * test's own.
     *
     * @return the directory
     */
    String cwd() default "";

    /**
     * The limit of one upstream call, in milliseconds; 0 for {@link ClientOptions#defaults()}.
     *
     * @return the limit
     */
    long callTimeoutMillis() default 0;
}
