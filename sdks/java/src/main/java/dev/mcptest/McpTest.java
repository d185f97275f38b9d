/*
 * McpTest: a JUnit test that gets an McpClient (Test plus McpExtension in one annotation).
 */
package dev.mcptest;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A JUnit 5 test whose {@link McpClient} parameter is connected to the server that an
 * {@link McpServer} on the method or its class names. The same as {@code @Test} plus
 * {@code @ExtendWith(McpExtension.class)}.
 *
 * <pre>{@code
 * @McpTest
 * @McpServer(argv = {"node", "server.js"})
 * void echoes(McpClient client) {
 *     assertEquals("hi", client.call("echo", Map.of("message", "hi")).text());
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Test
@ExtendWith(McpExtension.class)
public @interface McpTest {}
