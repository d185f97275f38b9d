/*
 * Credentials: what the binary sends to a server reached at a URL (headers, a bearer token, the
 * client-credentials grant), each secret named by an environment variable, never given.
 */
package dev.mcptest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The credentials of a URL {@link Server}, mapped to the binary's flags. A secret is never a
 * value here, only the name of the variable of the binary's environment that holds it.
 * Immutable; every {@code with} method returns a new value.
 *
 * <pre>{@code
 * Credentials c = Credentials.NONE.withHeader("X-Api-Key", "${API_KEY}").withBearerEnv("TOKEN");
 * }</pre>
 *
 * @param headers headers sent as given ({@code --header "NAME: VALUE"}); a value may say
 *     {@code ${VAR}}
 * @param bearerEnv the variable holding a bearer token ({@code --bearer-env}), or {@code null}
 * @param clientId the client id of the client-credentials grant, or {@code null}
 * @param clientSecretEnv the variable holding the client secret, or {@code null}
 * @param tokenUrl the token endpoint, or {@code null} to find it in the server's metadata
 */
public record Credentials(
        Map<String, String> headers,
        String bearerEnv,
        String clientId,
        String clientSecretEnv,
        String tokenUrl) {
    /** No credentials. */
    public static final Credentials NONE = new Credentials(Map.of(), null, null, null, null);

    /** Checks every field, naming it, and copies the headers in their order. */
    public Credentials {
        var copy = new LinkedHashMap<String, String>();
        for (var e : Objects.requireNonNull(headers, "headers").entrySet()) {
            String name = e.getKey();
            String value = e.getValue();
            if (name == null || name.isEmpty() || name.matches(".*[:\\s].*") || value == null
                    || value.contains("\n") || value.contains("\r")) {
                throw new IllegalArgumentException("headers: \"" + name + "\" is not a header"
                        + " name (no ':' or whitespace) with a one-line value");
            }
            copy.put(name, value);
        }
        headers = java.util.Collections.unmodifiableMap(copy);
        requireVariable("bearerEnv", bearerEnv);
        requireVariable("clientSecretEnv", clientSecretEnv);
        if ((clientId == null) != (clientSecretEnv == null)) {
            throw new IllegalArgumentException("clientId and clientSecretEnv go together (the"
                    + " client-credentials grant needs both)");
        }
        if (clientId != null && clientId.isEmpty()) {
            throw new IllegalArgumentException("clientId is empty");
        }
        if (tokenUrl != null) {
            if (clientId == null) {
                throw new IllegalArgumentException(
                        "tokenUrl needs clientId and clientSecretEnv");
            }
            requireHttp("tokenUrl", tokenUrl);
        }
    }

    /**
     * These credentials with one more header (replacing one of the same name).
     *
     * <pre>{@code Credentials.NONE.withHeader("X-Api-Key", "${API_KEY}") }</pre>
     *
     * @param name the header's name
     * @param value its value
     * @return the new credentials
     */
    public Credentials withHeader(String name, String value) {
        var merged = new LinkedHashMap<>(headers);
        merged.put(name, value);
        return new Credentials(merged, bearerEnv, clientId, clientSecretEnv, tokenUrl);
    }

    /**
     * These credentials with a bearer token read from this variable.
     *
     * <pre>{@code Credentials.NONE.withBearerEnv("MCP_TOKEN") }</pre>
     *
     * @param variable the variable's name
     * @return the new credentials
     */
    public Credentials withBearerEnv(String variable) {
        return new Credentials(headers, variable, clientId, clientSecretEnv, tokenUrl);
    }

    /**
     * These credentials with the client-credentials grant.
     *
     * <pre>{@code Credentials.NONE.withClientCredentials("ci", "MCP_SECRET") }</pre>
     *
     * @param id the client id
     * @param secretEnv the variable holding the client secret
     * @return the new credentials
     */
    public Credentials withClientCredentials(String id, String secretEnv) {
        return new Credentials(headers, bearerEnv, id, secretEnv, tokenUrl);
    }

    /**
     * These credentials with the grant's token endpoint.
     *
     * <pre>{@code Credentials.NONE.withClientCredentials("ci", "S").withTokenUrl("https://a/t") }</pre>
     *
     * @param url the token endpoint
     * @return the new credentials
     */
    public Credentials withTokenUrl(String url) {
        return new Credentials(headers, bearerEnv, clientId, clientSecretEnv, url);
    }

    /**
     * Whether no credential is set.
     *
     * <pre>{@code assertTrue(Credentials.NONE.isEmpty()); }</pre>
     *
     * @return true for none
     */
    public boolean isEmpty() {
        return headers.isEmpty() && bearerEnv == null && clientId == null
                && clientSecretEnv == null && tokenUrl == null;
    }

    /** The name of the first field set, for errors. */
    String firstField() {
        if (!headers.isEmpty()) {
            return "headers";
        }
        if (bearerEnv != null) {
            return "bearerEnv";
        }
        return clientId != null ? "clientId" : "tokenUrl";
    }

    /** The binary's flags for these credentials. */
    List<String> arguments() {
        var out = new ArrayList<String>();
        headers.forEach((name, value) -> {
            out.add("--header");
            out.add(name + ": " + value);
        });
        if (bearerEnv != null) {
            out.add("--bearer-env");
            out.add(bearerEnv);
        }
        if (clientId != null) {
            out.add("--client-id");
            out.add(clientId);
            out.add("--client-secret-env");
            out.add(clientSecretEnv);
        }
        if (tokenUrl != null) {
            out.add("--token-url");
            out.add(tokenUrl);
        }
        return out;
    }

    /** Adds these credentials to {@code suite.run}'s {@code server} param, under its names. */
    void param(ObjectNode server) {
        if (!headers.isEmpty()) {
            var out = server.putObject("headers");
            headers.forEach(out::put);
        }
        if (bearerEnv != null) {
            server.put("bearer_env", bearerEnv);
        }
        if (clientId != null) {
            server.put("client_id", clientId);
            server.put("client_secret_env", clientSecretEnv);
        }
        if (tokenUrl != null) {
            server.put("token_url", tokenUrl);
        }
    }

    private static void requireVariable(String field, String name) {
        if (name != null && (name.isEmpty() || name.contains("=") || name.contains("\0"))) {
            throw new IllegalArgumentException(
                    field + ": \"" + name + "\" is not an environment variable name");
        }
    }

    static void requireHttp(String field, String url) {
        if (!url.startsWith("http://") && !url.startsWith("https://")) {
            throw new IllegalArgumentException(
                    field + ": \"" + url + "\" is not an http:// or https:// URL");
        }
    }
}
