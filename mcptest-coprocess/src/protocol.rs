//! What both sides of the coprocess channel agree on: the protocol
//! versions, the frames' schema, the methods and the version that added
//! each, the engine's features, the error codes, and the lanes left to the
//! command line.

/// The coprocess protocol version this crate speaks, on both sides (the
/// newest the engine serves). Any change to a frame shape bumps it.
pub const COPROCESS_PROTOCOL_VERSION: u32 = 3;

/// The oldest protocol version the engine still serves: a session without
/// a handshake, or with a handshake of this version, gets its surface.
pub const OLDEST_COPROCESS_PROTOCOL_VERSION: u32 = 2;

/// The JSON Schema (draft 2020-12) of every frame, as shipped in
/// `coprocess.schema.json`: `#/$defs/request/<method>`,
/// `#/$defs/result/<method>`, `#/$defs/response` and, for v2 sessions,
/// `#/$defs/v2/...`.
///
/// ```
/// let schema: serde_json::Value = serde_json::from_str(mcptest_coprocess::SCHEMA).unwrap();
/// assert!(schema["$defs"]["request"]["mcp.call"].is_object());
/// ```
pub const SCHEMA: &str = include_str!("../coprocess.schema.json");

/// Every method the engine serves, each with the protocol version that
/// added it; a session of version `v` is served the methods of version
/// `v` and below. One table feeds dispatch, the handshake's `methods`, the
/// unknown-method message and the schema's completeness test.
///
/// ```
/// use mcptest_coprocess::METHODS;
/// assert!(METHODS.contains(&("mcp.call", 2)));
/// ```
pub const METHODS: &[(&str, u32)] = &[
    // v2's methods, in the order v2's unknown-method message lists them.
    ("coprocess/handshake", 2),
    ("mcp.initialize", 2),
    ("mcp.call", 2),
    ("mcp.listTools", 2),
    ("mcp.listResources", 2),
    ("mcp.readResource", 2),
    ("mcp.callPrompt", 2),
    ("mcp.reporter.setUpload", 2),
    ("mcp.reporter.flush", 2),
    ("mcp.cache.set_mode", 2),
    ("mcp.cassette.set_mode", 2),
    ("mcp.shutdown", 2),
    ("mcp.listPrompts", 3),
    ("mcp.listResourceTemplates", 3),
    ("mcp.messages", 3),
    ("mcp.reporter.record", 3),
    ("suite.list", 3),
    ("suite.run", 3),
];

/// The methods a session of protocol `version` is served, in table order.
///
/// ```
/// assert!(!mcptest_coprocess::methods_of(2).contains(&"mcp.messages"));
/// assert!(mcptest_coprocess::methods_of(3).contains(&"mcp.messages"));
/// ```
pub fn methods_of(version: u32) -> Vec<&'static str> {
    METHODS
        .iter()
        .filter(|(_, since)| *since <= version)
        .map(|(name, _)| *name)
        .collect()
}

/// What this build of the engine can do, as the v3 handshake lists it.
///
/// ```
/// assert!(mcptest_coprocess::features().contains(&"check-frames"));
/// ```
pub fn features() -> Vec<&'static str> {
    let mut features = vec![
        "argv",
        "passthrough",
        "suites",
        "messages",
        "report-results",
        "check-frames",
        "cassette",
        "cache",
    ];
    if cfg!(feature = "http") {
        features.push("upload");
    }
    features
}

/// JSON-RPC and application error codes of the coprocess channel.
pub mod codes {
    /// The line is not JSON.
    pub const PARSE_ERROR: i32 = -32700;
    /// Not a request of the closed envelope (an extra field, no method, a
    /// line over the size limit; with `--check-frames`, any frame that
    /// breaks the schema).
    pub const INVALID_REQUEST: i32 = -32600;
    /// No such method (also: a lane that runs only from the command line).
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// The params are wrong (also: a handshake of a version this binary
    /// does not speak, a suite file that does not load, an MCP request in a
    /// session without a server).
    pub const INVALID_PARAMS: i32 = -32602;
    /// The engine failed (also: a call over its time limit; with
    /// `--check-frames`, a frame of the engine's own that broke the schema).
    pub const INTERNAL_ERROR: i32 = -32603;
    /// The upstream MCP server answered with an error.
    pub const UPSTREAM_ERROR: i32 = -32000;
    /// The upstream MCP connection dropped (or never came up).
    pub const UPSTREAM_DROPPED: i32 = -32001;
}

/// Suite lanes that no coprocess method drives, each with the command that
/// runs it. A request for one is answered with an error naming the command.
pub const COMMAND_LINE_LANES: &[(&str, &str)] = &[
    (
        "agents",
        "mcptest intercept --server CMD --trajectory FILE (checks a real agent's tool calls)",
    ),
    (
        "compliance",
        "mcptest conformance --server CMD (or --url URL)",
    ),
    (
        "security",
        "mcptest audit --server CMD; mcptest fuzz --server CMD",
    ),
    ("evals", "mcptest run <suite>"),
];
