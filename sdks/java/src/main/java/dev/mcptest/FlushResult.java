/*
 * FlushResult: the outcome of uploading the session's report (mcp.reporter.flush).
 */
package dev.mcptest;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The outcome of uploading the session's report.
 *
 * <pre>{@code
 * client.setUpload("https://reports.example/api", token);
 * FlushResult sent = client.flush();
 * assertEquals(200, sent.status());
 * }</pre>
 *
 * @param uploaded always true (a failed upload is an exception)
 * @param status the HTTP status of the upload
 * @param results how many results the report held
 */
public record FlushResult(
        @JsonProperty(value = "uploaded", required = true) boolean uploaded,
        @JsonProperty(value = "status", required = true) int status,
        @JsonProperty(value = "results", required = true) int results) {}
