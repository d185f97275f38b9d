/*
 * package-info: the mcptest SDK for Java (JUnit 5).
 */

/**
 * Test MCP servers from JUnit 5 through the {@code mcptest} binary: the binary speaks MCP, runs
 * suites and checks; this package starts it ({@code mcptest exec}), speaks coprocess protocol
 * v{@value dev.mcptest.McpClient#PROTOCOL_VERSION} with it, and turns what comes back into
 * JUnit tests and failures.
 *
 * <ul>
 *   <li>{@link dev.mcptest.McpClient}: a typed client of one server;
 *   <li>{@link dev.mcptest.McpServer}, {@link dev.mcptest.McpTest},
 *       {@link dev.mcptest.McpExtension}: a connected client per test;
 *   <li>{@link dev.mcptest.McpSuite}: suite files as dynamic tests.
 * </ul>
 *
 * <pre>{@code
 * @McpServer(argv = {"python3", "server.py"})
 * class ServerTest {
 *     @Test
 *     void adds(McpClient client) {
 *         assertEquals("5", client.call("add", Map.of("a", 2, "b", 3)).text());
 *     }
 * }
 * }</pre>
 */
package dev.mcptest;
