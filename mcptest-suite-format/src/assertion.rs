//! mcp-assert assertion files: one assertion per file, loaded strictly.

use std::time::Duration;

use serde_json::Value;

use crate::{
    error::LoadError,
    fields::{self, Fields},
    json::ToJson,
    keys::{define_expect, expect_keys},
    tree::{Kind, Node, Pos},
};

/// The names `set_level` and `contains_level` accept (one list, the crate's).
pub use crate::names::LOG_LEVELS;

/// One mcp-assert assertion (one file).
#[derive(Debug, Clone)]
pub struct Assertion {
    pub name: String,
    /// Where its block (`assert`, `trajectory`, ..) is written.
    pub pos: Pos,
    pub server: Option<ServerSpec>,
    pub setup: Vec<SetupStep>,
    pub timeout: Option<Duration>,
    pub skip: bool,
    pub skip_unless_env: Option<String>,
    pub block: Block,
}

#[derive(Debug, Clone, Default)]
pub struct ServerSpec {
    pub command: Option<String>,
    pub args: Option<Vec<String>>,
    pub env: Vec<(String, String)>,
    /// Reached at `url` rather than started from `command`: over Streamable
    /// HTTP, or the legacy HTTP+SSE transport when `sse` is set too.
    pub http: bool,
    /// `transport: sse`: the legacy HTTP+SSE transport of 2024-11-05.
    pub sse: bool,
    /// `docker:`: the command runs in a fresh container of this image.
    pub docker: Option<String>,
    pub url: Option<String>,
    pub headers: Vec<(String, String)>,
    /// `auth:`: how to authorize with the server at `url`.
    pub auth: Option<AuthSpec>,
    pub roots: Vec<String>,
    pub sampling: Option<SamplingMock>,
    pub elicitation: Option<Value>,
}

/// How to authorize with a server reached at a URL: a suite file's
/// `auth:` block, or a run's credentials (`mcptest run --bearer-env ..`).
/// Secrets are named by the environment variables that hold them, never
/// written in a file or on a command line.
///
/// ```yaml
/// server:
///   url: http://127.0.0.1:3002/mcp
///   auth:
///     client_id: my-client
///     client_secret_env: MY_CLIENT_SECRET
///     token_url: http://127.0.0.1:9000/token   # optional: else discovered
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuthSpec {
    /// HTTP headers for every request (`${VAR}` in a value is read from the
    /// environment); a file gives them as the server's `headers`.
    pub headers: Vec<(String, String)>,
    /// The environment variable holding a bearer token.
    pub bearer_env: Option<String>,
    /// The client id of a client-credentials grant.
    pub client_id: Option<String>,
    /// The environment variable holding the client's secret.
    pub client_secret_env: Option<String>,
    /// The token endpoint of the grant, instead of discovery.
    pub token_url: Option<String>,
}

impl AuthSpec {
    /// Whether it says anything.
    pub fn is_empty(&self) -> bool {
        *self == AuthSpec::default()
    }

    /// The first variable it names (a bearer token's, then a client's
    /// secret's) that is not set or is empty, with its key: what every front
    /// end reports before anything connects.
    ///
    /// ```
    /// use mcptest_suite_format::assertion::AuthSpec;
    ///
    /// let auth = AuthSpec {
    ///     bearer_env: Some("MCPTEST_DOC_NO_SUCH_VARIABLE".into()),
    ///     ..AuthSpec::default()
    /// };
    /// assert_eq!(
    ///     auth.unset_variable(),
    ///     Some(("bearer_env", "MCPTEST_DOC_NO_SUCH_VARIABLE"))
    /// );
    /// assert_eq!(AuthSpec::default().unset_variable(), None);
    /// ```
    pub fn unset_variable(&self) -> Option<(&'static str, &str)> {
        [
            ("bearer_env", &self.bearer_env),
            ("client_secret_env", &self.client_secret_env),
        ]
        .into_iter()
        .find_map(|(key, var)| {
            let var = var.as_deref()?;
            std::env::var(var)
                .map_or(true, |v| v.is_empty())
                .then_some((key, var))
        })
    }
}

#[derive(Debug, Clone)]
pub struct SamplingMock {
    pub text: String,
    pub model: String,
    pub stop_reason: String,
}

#[derive(Debug, Clone)]
pub struct SetupStep {
    pub tool: String,
    pub args: Value,
    pub capture: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
pub enum Block {
    Tool(ToolBlock),
    Resources(ResourcesBlock),
    Prompts(PromptsBlock),
    Completion(CompletionBlock),
    Sampling(SamplingBlock),
    Logging(LoggingBlock),
    Notifications(NotificationsBlock),
    Trajectory(TrajectoryBlock),
}

#[derive(Debug, Clone)]
pub struct ToolBlock {
    pub tool: String,
    pub args: Value,
    pub capture_progress: bool,
    pub expect: Expect,
}

#[derive(Debug, Clone)]
pub enum ResourceAction {
    List {
        cursor: Option<String>,
    },
    Read(String),
    /// Only subscribe (and check the notification).
    None,
}

#[derive(Debug, Clone)]
pub struct ResourcesBlock {
    pub action: ResourceAction,
    pub subscribe: Option<String>,
    pub unsubscribe: Option<String>,
    pub expect_notification: Option<bool>,
    pub expect: Expect,
}

#[derive(Debug, Clone)]
pub enum PromptAction {
    List {
        cursor: Option<String>,
    },
    Get {
        name: String,
        arguments: Vec<(String, String)>,
    },
}

#[derive(Debug, Clone)]
pub struct PromptsBlock {
    pub action: PromptAction,
    pub expect: Expect,
}

#[derive(Debug, Clone)]
pub struct CompletionBlock {
    pub prompt: bool,
    pub name: String,
    pub argument: String,
    pub value: String,
    pub expect: Expect,
}

#[derive(Debug, Clone)]
pub struct SamplingBlock {
    pub tool: String,
    pub args: Value,
    pub mock_text: String,
    pub mock_model: Option<String>,
    pub expect: Expect,
}

#[derive(Debug, Clone)]
pub struct LoggingBlock {
    pub set_level: String,
    pub tool: Option<(String, Value)>,
    pub min_messages: Option<usize>,
    pub contains_level: Vec<String>,
    pub contains_data: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct NotificationsBlock {
    pub tool: String,
    pub args: Value,
    pub min_count: Option<usize>,
    pub max_count: Option<usize>,
    pub methods: Vec<String>,
    pub not_methods: Vec<String>,
    pub contains_data: Vec<String>,
    pub not_contains_data: Vec<String>,
}

#[derive(Debug, Clone)]
pub enum TraceSource {
    Inline(Vec<TraceEntry>),
    AuditLog(String),
}

#[derive(Debug, Clone)]
pub struct TraceEntry {
    pub tool: String,
    pub args: Value,
}

#[derive(Debug, Clone)]
pub enum TrajectoryCheck {
    Order(Vec<String>),
    Presence(Vec<String>),
    Absence(Vec<String>),
    ArgsContain {
        tool: String,
        args: Vec<(String, Value)>,
    },
}

#[derive(Debug, Clone)]
pub struct TrajectoryBlock {
    pub trace: TraceSource,
    pub checks: Vec<TrajectoryCheck>,
}

expect_keys!(define_expect);

/// The keys of an mcp-assert file before its one block.
const FILE_KEYS: &[&str] = &[
    "name",
    "server",
    "setup",
    "timeout",
    "skip",
    "skip_unless_env",
];

/// The keys that go with a `trajectory` block (which names no server).
const TRAJECTORY_KEYS: &[&str] = &["trace", "audit_log"];

/// How a block is read: from the file's top-level fields and the block's node.
type BlockLoader = fn(&Fields<'_>, &Node) -> Result<Block, LoadError>;

/// Every block an mcp-assert file may hold, declared once: its key and its
/// loader. The file's key list and the dispatch both read it.
const BLOCKS: &[(&str, BlockLoader)] = &[
    ("assert", |top, n| {
        load_tool_block(top.file, n).map(Block::Tool)
    }),
    ("assert_resources", |top, n| {
        load_resources(top.file, n).map(Block::Resources)
    }),
    ("assert_prompts", |top, n| {
        load_prompts(top.file, n).map(Block::Prompts)
    }),
    ("assert_completion", |top, n| {
        load_completion(top.file, n).map(Block::Completion)
    }),
    ("assert_sampling", |top, n| {
        load_sampling(top.file, n).map(Block::Sampling)
    }),
    ("assert_logging", |top, n| {
        load_logging(top.file, n).map(Block::Logging)
    }),
    ("assert_notifications", |top, n| {
        load_notifications(top.file, n).map(Block::Notifications)
    }),
    ("trajectory", |top, n| {
        load_trajectory(top, n).map(Block::Trajectory)
    }),
];

/// Every key an mcp-assert file may hold at its top level.
fn top_keys() -> Vec<&'static str> {
    FILE_KEYS
        .iter()
        .copied()
        .chain(BLOCKS.iter().map(|(key, _)| *key))
        .chain(TRAJECTORY_KEYS.iter().copied())
        .collect()
}

/// Loads an assertion from its (only) document. `default_name` is the file
/// name without extension.
pub(crate) fn load(file: &str, doc: &Node, default_name: &str) -> Result<Assertion, LoadError> {
    let top = Fields::new(file, doc, "an mcp-assert file", &top_keys())?;
    let name = top
        .string("name")?
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| default_name.to_owned());
    let server = top
        .get("server")
        .map(|n| load_server(file, n))
        .transpose()?;
    let setup = match top.get("setup") {
        None => Vec::new(),
        Some(node) => {
            let Kind::Seq(items) = &node.kind else {
                return Err(fields::expected(
                    file,
                    node,
                    "`setup` to be a list of tool calls",
                ));
            };
            items
                .iter()
                .map(|item| load_setup_step(file, item))
                .collect::<Result<_, _>>()?
        }
    };
    let present: Vec<&(&str, BlockLoader)> = BLOCKS
        .iter()
        .filter(|(key, _)| top.get(key).is_some())
        .collect();
    let block = match present.as_slice() {
        [] => {
            return Err(LoadError::at(
                file,
                doc.pos,
                format!(
                    "an mcp-assert file needs one block saying what to check; expected one of: {}",
                    BLOCKS
                        .iter()
                        .map(|(key, _)| *key)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        [one] => *one,
        [(first, _), (second, _), ..] => {
            return Err(LoadError::at(
                file,
                top.key_pos(second).unwrap_or(doc.pos),
                format!(
                    "`{second}` and `{first}` are both given; an mcp-assert file holds exactly one block"
                ),
            ));
        }
    };
    for key in TRAJECTORY_KEYS {
        if let (Some(pos), true) = (top.key_pos(key), block.0 != "trajectory") {
            return Err(LoadError::at(
                file,
                pos,
                format!("`{key}` only goes with a `trajectory` block"),
            ));
        }
    }
    let (block, load_block) = block;
    let node = top.get(block).expect("present");
    let block_pos = top.key_pos(block).unwrap_or(doc.pos);
    let block = load_block(&top, node)?;
    if let Block::Trajectory(_) = &block
        && let Some(pos) = top.key_pos("setup")
    {
        return Err(LoadError::at(
            file,
            pos,
            "`setup` calls tools on a server; a `trajectory` block runs no server",
        ));
    }
    Ok(Assertion {
        name,
        pos: block_pos,
        server,
        setup,
        timeout: top.duration("timeout")?,
        skip: top.bool("skip")?.unwrap_or(false),
        skip_unless_env: top.string("skip_unless_env")?,
        block,
    })
}

impl Block {
    /// The block's `expect`, for the blocks that have one.
    pub fn expect(&self) -> Option<&Expect> {
        match self {
            Block::Tool(b) => Some(&b.expect),
            Block::Resources(b) => Some(&b.expect),
            Block::Prompts(b) => Some(&b.expect),
            Block::Completion(b) => Some(&b.expect),
            Block::Sampling(b) => Some(&b.expect),
            Block::Logging(_) | Block::Notifications(_) | Block::Trajectory(_) => None,
        }
    }
}

impl Assertion {
    /// The block (by its key) when it checks nothing: such a file would
    /// pass whatever the server does, so it fails instead.
    pub fn checks_nothing(&self) -> Option<&'static str> {
        match &self.block {
            Block::Tool(b) if b.expect.is_empty() => Some("assert"),
            Block::Sampling(b) if b.expect.is_empty() => Some("assert_sampling"),
            Block::Resources(b) if b.expect.is_empty() && b.expect_notification.is_none() => {
                Some("assert_resources")
            }
            Block::Prompts(b) if b.expect.is_empty() => Some("assert_prompts"),
            Block::Completion(b) if b.expect.is_empty() => Some("assert_completion"),
            Block::Logging(b)
                if b.min_messages.is_none()
                    && b.contains_level.is_empty()
                    && b.contains_data.is_empty() =>
            {
                Some("assert_logging")
            }
            Block::Notifications(b)
                if b.min_count.is_none()
                    && b.max_count.is_none()
                    && b.methods.is_empty()
                    && b.not_methods.is_empty()
                    && b.contains_data.is_empty()
                    && b.not_contains_data.is_empty() =>
            {
                Some("assert_notifications")
            }
            Block::Trajectory(b) if b.checks.is_empty() => Some("trajectory"),
            _ => None,
        }
    }
}

fn load_server(file: &str, node: &Node) -> Result<ServerSpec, LoadError> {
    const KEYS: &[&str] = &[
        "command",
        "args",
        "env",
        "transport",
        "url",
        "headers",
        "client_capabilities",
        "docker",
        "auth",
    ];
    let f = Fields::new(file, node, "`server`", KEYS)?;
    // A `url` without a `command` says HTTP by itself.
    let (http, sse) = match f.get("transport") {
        None => (f.get("url").is_some() && f.get("command").is_none(), false),
        Some(n) => match n.as_str() {
            Some("stdio") => (false, false),
            Some("http") => (true, false),
            Some("sse") => (true, true),
            _ => {
                return Err(fields::expected(
                    file,
                    n,
                    "`transport` to be `stdio`, `http` or `sse`",
                ));
            }
        },
    };
    let spec = ServerSpec {
        command: f.string("command")?,
        args: f
            .get("args")
            .map(|n| fields::strings(file, n, "args"))
            .transpose()?,
        env: f.string_map("env")?,
        http,
        sse,
        docker: f.string("docker")?,
        url: f.string("url")?,
        headers: f.string_map("headers")?,
        ..ServerSpec::default()
    };
    if !http && let Some(url) = f.get("url") {
        return Err(f.error(
            url,
            "`url` is for `transport: http` or `sse`; a stdio server is started from `command`",
        ));
    }
    if http && spec.url.is_none() {
        let example = match sse {
            true => "the HTTP+SSE stream to GET, e.g. http://127.0.0.1:8000/sse",
            false => "the Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp",
        };
        return Err(f.missing("url", example));
    }
    let mut spec = spec;
    if let Some(node) = f.get("auth") {
        if !http {
            return Err(f.error(
                node,
                "`auth` authorizes with a server reached at a `url`; a stdio server is started from `command`",
            ));
        }
        spec.auth = Some(load_auth(file, node)?);
    }
    if http && let Some(docker) = f.get("docker") {
        return Err(f.error(
            docker,
            "`docker` runs a stdio server's `command` in a container; a server reached at a `url` is already running",
        ));
    }
    if let Some(docker) = f.get("docker")
        && spec
            .docker
            .as_deref()
            .is_some_and(|image| image.trim().is_empty())
    {
        return Err(f.error(docker, "`docker` names no image"));
    }
    // Without `command` (or `url`) the file names no server: the suite's
    // default one is used, with this block's `env` and `client_capabilities`.
    if let Some(caps) = f.get("client_capabilities") {
        load_client_capabilities(file, caps, &mut spec)?;
    }
    Ok(spec)
}

/// A `client_capabilities` block: the mocked roots, sampling and
/// elicitation.
fn load_client_capabilities(
    file: &str,
    caps: &Node,
    spec: &mut ServerSpec,
) -> Result<(), LoadError> {
    let c = Fields::new(
        file,
        caps,
        "`client_capabilities`",
        &["roots", "sampling", "elicitation"],
    )?;
    spec.roots = c.strings("roots")?;
    if let Some(s) = c.get("sampling") {
        let s = Fields::new(file, s, "`sampling`", &["text", "model", "stop_reason"])?;
        spec.sampling = Some(SamplingMock {
            text: s.required_string("text", "the mocked model's reply")?,
            model: s.string("model")?.unwrap_or_else(|| "mock".into()),
            stop_reason: s
                .string("stop_reason")?
                .unwrap_or_else(|| "end_turn".into()),
        });
    }
    if let Some(e) = c.get("elicitation") {
        if e.as_map().is_none() {
            return Err(fields::expected(
                file,
                e,
                "`elicitation` to be a mapping (`action`, `content` or the form's values)",
            ));
        }
        let value = e.to_json(file, "`elicitation`")?;
        if let Some(action) = value.get("action")
            && !matches!(action.as_str(), Some("accept" | "decline" | "cancel"))
        {
            let at = c.get("elicitation").expect("present");
            return Err(c.error(
                at,
                format!("elicitation `action` must be accept, decline or cancel, not {action}"),
            ));
        }
        spec.elicitation = Some(value);
    }
    Ok(())
}

fn load_auth(file: &str, node: &Node) -> Result<AuthSpec, LoadError> {
    let f = Fields::new(
        file,
        node,
        "`auth`",
        &["bearer_env", "client_id", "client_secret_env", "token_url"],
    )?;
    let auth = AuthSpec {
        headers: Vec::new(),
        bearer_env: f.string("bearer_env")?,
        client_id: f.string("client_id")?,
        client_secret_env: f.string("client_secret_env")?,
        token_url: f.string("token_url")?,
    };
    match (&auth.client_id, &auth.client_secret_env) {
        (Some(_), None) => {
            return Err(f.missing(
                "client_secret_env",
                "the environment variable that holds the client's secret",
            ));
        }
        (None, Some(_)) => return Err(f.missing("client_id", "the client's id")),
        _ => {}
    }
    if auth.client_id.is_none()
        && let Some(url) = f.get("token_url")
    {
        return Err(f.error(
            url,
            "`token_url` is where `client_id` gets its token; give `client_id` too",
        ));
    }
    if auth.is_empty() {
        return Err(f.error(
            node,
            "`auth` says nothing: give `bearer_env`, or `client_id` and `client_secret_env`",
        ));
    }
    Ok(auth)
}

fn load_setup_step(file: &str, node: &Node) -> Result<SetupStep, LoadError> {
    let f = Fields::new(file, node, "a `setup` step", &["tool", "args", "capture"])?;
    Ok(SetupStep {
        tool: f.required_string("tool", "the name of the tool to call")?,
        args: f.arguments("args")?,
        capture: f.string_map("capture")?,
    })
}

fn load_expect(file: &str, node: Option<&Node>, what: &str) -> Result<Expect, LoadError> {
    match node {
        None => Ok(Expect::default()),
        Some(node) => Expect::load(file, node, what),
    }
}

/// Rejects expectations a block cannot check (they would pass silently).
fn only_text_expectations(f: &Fields<'_>, expect: &Expect, block: &str) -> Result<(), LoadError> {
    let e = f.get("expect");
    let refuse = |key: &str, why: &str| -> Result<(), LoadError> {
        let at = e
            .and_then(|e| e.as_map())
            .and_then(|m| m.iter().find(|(k, _)| k.as_str() == Some(key)));
        match at {
            Some((k, _)) => Err(LoadError::at(
                f.file,
                k.pos,
                format!("`{key}` cannot be checked in `{block}`: {why}"),
            )),
            None => Ok(()),
        }
    };
    if expect.min_progress.is_some() {
        refuse(
            "min_progress",
            "only `assert` with `capture_progress: true` collects progress",
        )?;
    }
    if !expect.file_unchanged.is_empty() && block != "assert" && block != "assert_sampling" {
        refuse("file_unchanged", "only a tool call can change files")?;
    }
    Ok(())
}

fn load_tool_block(file: &str, node: &Node) -> Result<ToolBlock, LoadError> {
    let f = Fields::new(
        file,
        node,
        "`assert`",
        &["tool", "args", "expect", "capture_progress"],
    )?;
    let expect = load_expect(file, f.get("expect"), "`expect`")?;
    let capture_progress = f.bool("capture_progress")?.unwrap_or(false);
    if expect.min_progress.is_some() && !capture_progress {
        let at = f
            .get("expect")
            .and_then(|e| e.as_map())
            .and_then(|m| m.iter().find(|(k, _)| k.as_str() == Some("min_progress")))
            .map(|(k, _)| k.pos)
            .unwrap_or(node.pos);
        return Err(LoadError::at(
            file,
            at,
            "`min_progress` needs `capture_progress: true` in `assert`, or it would never be checked",
        ));
    }
    Ok(ToolBlock {
        tool: f.required_string("tool", "the name of the tool to call")?,
        args: f.arguments("args")?,
        capture_progress,
        expect,
    })
}

fn cursor(file: &str, node: &Node, what: &str) -> Result<Option<String>, LoadError> {
    if matches!(node.kind, Kind::Null | Kind::Bool(true)) {
        return Ok(None);
    }
    let f = Fields::new(file, node, what, &["cursor"])?;
    f.string("cursor")
}

fn load_resources(file: &str, node: &Node) -> Result<ResourcesBlock, LoadError> {
    let f = Fields::new(
        file,
        node,
        "`assert_resources`",
        &[
            "list",
            "read",
            "subscribe",
            "unsubscribe",
            "expect_notification",
            "expect",
        ],
    )?;
    let action = match (f.get("list"), f.string("read")?) {
        (Some(_), Some(_)) => {
            return Err(f.error(
                f.get("read").expect("present"),
                "`assert_resources` takes `list` or `read`, not both",
            ));
        }
        (Some(list), None) => ResourceAction::List {
            cursor: cursor(file, list, "`list`")?,
        },
        (None, Some(uri)) => ResourceAction::Read(uri),
        (None, None) => ResourceAction::None,
    };
    let subscribe = f.string("subscribe")?;
    if matches!(action, ResourceAction::None) && subscribe.is_none() {
        return Err(f.missing("list", "`list: {}`, `read: <uri>` or `subscribe: <uri>`"));
    }
    let expect = load_expect(file, f.get("expect"), "`expect`")?;
    only_text_expectations(&f, &expect, "assert_resources")?;
    let expect_notification = f.bool("expect_notification")?;
    if expect_notification.is_some() && subscribe.is_none() {
        return Err(f.error(f.get("expect_notification").expect("present"), "`expect_notification` needs `subscribe: <uri>`: updates are only sent for subscribed resources"));
    }
    Ok(ResourcesBlock {
        action,
        subscribe,
        unsubscribe: f.string("unsubscribe")?,
        expect_notification,
        expect,
    })
}

fn load_prompts(file: &str, node: &Node) -> Result<PromptsBlock, LoadError> {
    let f = Fields::new(file, node, "`assert_prompts`", &["list", "get", "expect"])?;
    let action = match (f.get("list"), f.get("get")) {
        (Some(_), Some(get)) => {
            return Err(f.error(get, "`assert_prompts` takes `list` or `get`, not both"));
        }
        (Some(list), None) => PromptAction::List {
            cursor: cursor(file, list, "`list`")?,
        },
        (None, Some(get)) => {
            let g = Fields::new(file, get, "`get`", &["name", "arguments"])?;
            PromptAction::Get {
                name: g.required_string("name", "the name of the prompt")?,
                arguments: g.string_map("arguments")?,
            }
        }
        (None, None) => return Err(f.missing("get", "`get: {name: ..}` or `list: {}`")),
    };
    let expect = load_expect(file, f.get("expect"), "`expect`")?;
    only_text_expectations(&f, &expect, "assert_prompts")?;
    Ok(PromptsBlock { action, expect })
}

fn load_completion(file: &str, node: &Node) -> Result<CompletionBlock, LoadError> {
    let f = Fields::new(
        file,
        node,
        "`assert_completion`",
        &["ref", "argument", "expect"],
    )?;
    let Some(reference) = f.get("ref") else {
        return Err(f.missing(
            "ref",
            "`{type: ref/prompt, name: ..}` or `{type: ref/resource, name: <uri template>}`",
        ));
    };
    let r = Fields::new(file, reference, "`ref`", &["type", "name", "uri"])?;
    let kind = r.required_string("type", "`ref/prompt` or `ref/resource`")?;
    let prompt = match kind.as_str() {
        "ref/prompt" => true,
        "ref/resource" => false,
        _ => {
            return Err(r.error(
                r.get("type").expect("present"),
                format!("`type` must be `ref/prompt` or `ref/resource`, not {kind:?}"),
            ));
        }
    };
    let name = match (r.string("name")?, r.string("uri")?) {
        (Some(n), _) | (None, Some(n)) => n,
        (None, None) => {
            return Err(r.missing("name", "the prompt's name (or the resource's URI template)"));
        }
    };
    let Some(argument) = f.get("argument") else {
        return Err(f.missing(
            "argument",
            "`{name: .., value: ..}`: the argument being completed",
        ));
    };
    let a = Fields::new(file, argument, "`argument`", &["name", "value"])?;
    let expect = load_expect(file, f.get("expect"), "`expect`")?;
    only_text_expectations(&f, &expect, "assert_completion")?;
    Ok(CompletionBlock {
        prompt,
        name,
        argument: a.required_string("name", "the argument's name")?,
        value: a.string("value")?.unwrap_or_default(),
        expect,
    })
}

fn load_sampling(file: &str, node: &Node) -> Result<SamplingBlock, LoadError> {
    let f = Fields::new(
        file,
        node,
        "`assert_sampling`",
        &["tool", "args", "mock_text", "mock_model", "expect"],
    )?;
    let expect = load_expect(file, f.get("expect"), "`expect`")?;
    only_text_expectations(&f, &expect, "assert_sampling")?;
    Ok(SamplingBlock {
        tool: f.required_string("tool", "the name of the tool that asks for sampling")?,
        args: f.arguments("args")?,
        mock_text: f
            .string("mock_text")?
            .ok_or_else(|| f.missing("mock_text", "the mocked model's reply"))?,
        mock_model: f.string("mock_model")?,
        expect,
    })
}

fn load_logging(file: &str, node: &Node) -> Result<LoggingBlock, LoadError> {
    let f = Fields::new(
        file,
        node,
        "`assert_logging`",
        &["set_level", "tool", "args", "expect"],
    )?;
    let level_text = f.required_string(
        "set_level",
        "the level for logging/setLevel (debug, info, ..)",
    )?;
    let set_level = log_level(
        &f,
        f.get("set_level").expect("present"),
        "set_level",
        &level_text,
    )?;
    let tool = f.string("tool")?;
    if tool.is_none()
        && let Some(args) = f.get("args")
    {
        return Err(f.error(args, "`args` without `tool`: name the tool to call"));
    }
    let args = f.arguments("args")?;
    let (min_messages, contains_level, contains_data) = match f.get("expect") {
        None => (None, Vec::new(), Vec::new()),
        Some(e) => {
            let e = Fields::new(
                file,
                e,
                "`expect` of `assert_logging`",
                &["min_messages", "contains_level", "contains_data"],
            )?;
            let levels = match e.get("contains_level") {
                None => Vec::new(),
                Some(node) => {
                    let names = fields::strings(file, node, "contains_level")?;
                    let Kind::Seq(items) = &node.kind else {
                        unreachable!("a list of strings is a sequence")
                    };
                    names
                        .iter()
                        .zip(items)
                        .map(|(name, item)| log_level(&e, item, "contains_level", name))
                        .collect::<Result<_, _>>()?
                }
            };
            (
                e.count("min_messages")?,
                levels,
                e.strings("contains_data")?,
            )
        }
    };
    Ok(LoggingBlock {
        set_level,
        tool: tool.map(|t| (t, args)),
        min_messages,
        contains_level,
        contains_data,
    })
}

/// A log level by name, or an error at `node` that lists the names.
fn log_level(f: &Fields<'_>, node: &Node, key: &str, name: &str) -> Result<String, LoadError> {
    if LOG_LEVELS.contains(&name) {
        Ok(name.to_owned())
    } else {
        Err(f.error(
            node,
            format!(
                "`{key}`: {name:?} is not a log level; expected one of {}",
                LOG_LEVELS.join(", ")
            ),
        ))
    }
}

fn load_notifications(file: &str, node: &Node) -> Result<NotificationsBlock, LoadError> {
    let f = Fields::new(
        file,
        node,
        "`assert_notifications`",
        &["tool", "args", "expect"],
    )?;
    let tool = f.required_string(
        "tool",
        "the name of the tool whose notifications are checked",
    )?;
    let args = f.arguments("args")?;
    let mut block = NotificationsBlock {
        tool,
        args,
        min_count: None,
        max_count: None,
        methods: Vec::new(),
        not_methods: Vec::new(),
        contains_data: Vec::new(),
        not_contains_data: Vec::new(),
    };
    if let Some(e) = f.get("expect") {
        let e = Fields::new(
            file,
            e,
            "`expect` of `assert_notifications`",
            &[
                "min_count",
                "max_count",
                "methods",
                "not_methods",
                "contains_data",
                "not_contains_data",
            ],
        )?;
        block.min_count = e.count("min_count")?;
        block.max_count = e.count("max_count")?;
        block.methods = e.strings("methods")?;
        block.not_methods = e.strings("not_methods")?;
        block.contains_data = e.strings("contains_data")?;
        block.not_contains_data = e.strings("not_contains_data")?;
    }
    Ok(block)
}

fn load_trajectory(top: &Fields<'_>, node: &Node) -> Result<TrajectoryBlock, LoadError> {
    let file = top.file;
    let trace = match (top.get("trace"), top.string("audit_log")?) {
        (Some(t), Some(_)) => return Err(top.error(t, "give `trace` or `audit_log`, not both")),
        (Some(t), None) => {
            let Kind::Seq(items) = &t.kind else {
                return Err(fields::expected(
                    file,
                    t,
                    "`trace` to be a list of `{tool, args}` entries",
                ));
            };
            TraceSource::Inline(
                items
                    .iter()
                    .map(|item| {
                        let e = Fields::new(file, item, "a `trace` entry", &["tool", "args"])?;
                        Ok(TraceEntry {
                            tool: e
                                .required_string("tool", "the name of the tool that was called")?,
                            args: e.arguments("args")?,
                        })
                    })
                    .collect::<Result<_, LoadError>>()?,
            )
        }
        (None, Some(path)) => TraceSource::AuditLog(path),
        (None, None) => {
            return Err(LoadError::at(
                file,
                top.node.pos,
                "a `trajectory` block needs `trace` (inline tool calls) or `audit_log` (a JSONL file)",
            ));
        }
    };
    let Kind::Seq(items) = &node.kind else {
        return Err(fields::expected(
            file,
            node,
            "`trajectory` to be a list of checks",
        ));
    };
    let checks = items
        .iter()
        .map(|item| {
            let c = Fields::new(
                file,
                item,
                "a `trajectory` check",
                &["type", "tools", "tool", "args"],
            )?;
            let kind = c.required_string("type", "order, presence, absence or args_contain")?;
            let tools = || -> Result<Vec<String>, LoadError> {
                let tools = c.strings("tools")?;
                if tools.is_empty() {
                    return Err(c.missing("tools", "the list of tool names to check"));
                }
                Ok(tools)
            };
            Ok(match kind.as_str() {
                "order" => TrajectoryCheck::Order(tools()?),
                "presence" => TrajectoryCheck::Presence(tools()?),
                "absence" => TrajectoryCheck::Absence(tools()?),
                "args_contain" => {
                    let args = c.arguments("args")?;
                    TrajectoryCheck::ArgsContain {
                        tool: c.required_string("tool", "the tool whose arguments are checked")?,
                        args: args
                            .as_object()
                            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                            .unwrap_or_default(),
                    }
                }
                other => {
                    let at = c.get("type").expect("present");
                    let mut message = format!("unknown trajectory check type `{other}`");
                    let types = ["order", "presence", "absence", "args_contain"];
                    if let Some(near) = crate::names::nearest(other, &types) {
                        message.push_str(&format!("; did you mean `{near}`?"));
                    }
                    message.push_str(" (expected one of: order, presence, absence, args_contain)");
                    return Err(c.error(at, message));
                }
            })
        })
        .collect::<Result<_, LoadError>>()?;
    Ok(TrajectoryBlock { trace, checks })
}

#[cfg(test)]
mod tests {
    use crate::load::{Loaded, parse};

    fn server(text: &str) -> Result<super::ServerSpec, String> {
        let file = format!("name: t\nserver:\n{text}assert:\n  tool: echo\n");
        match parse("t.yaml", &file, None) {
            Ok(Loaded::Assertion(a)) => Ok(a.server.expect("a server block")),
            Ok(Loaded::Cases(_)) => panic!("read as MCP Cases"),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn transport_sse_is_a_url_over_the_legacy_transport() {
        let spec = server("  transport: sse\n  url: http://127.0.0.1:8000/sse\n").unwrap();
        assert!(spec.http && spec.sse);
        assert_eq!(spec.url.as_deref(), Some("http://127.0.0.1:8000/sse"));
        let plain = server("  url: http://127.0.0.1:3000/mcp\n").unwrap();
        assert!(plain.http && !plain.sse);
    }

    #[test]
    fn transport_sse_without_a_url_says_what_to_give() {
        let err = server("  transport: sse\n").unwrap_err();
        assert!(err.contains("the HTTP+SSE stream to GET"), "{err}");
        let err = server("  transport: smoke\n").unwrap_err();
        assert!(err.contains("`stdio`, `http` or `sse`"), "{err}");
    }

    #[test]
    fn docker_names_the_image_of_a_command_server() {
        let spec = server("  command: my-server --stdio\n  docker: ghcr.io/me/srv:1\n").unwrap();
        assert_eq!(spec.docker.as_deref(), Some("ghcr.io/me/srv:1"));
        // Without a command it contains the suite's default server.
        let spec = server("  docker: img\n").unwrap();
        assert_eq!(spec.docker.as_deref(), Some("img"));
        let err = server("  command: srv\n  docker: \"  \"\n").unwrap_err();
        assert!(
            err.contains("t.yaml:4:11: `docker` names no image"),
            "{err}"
        );
    }

    #[test]
    fn auth_names_variables_and_is_for_a_url() {
        let spec = server(
            "  url: http://127.0.0.1:3002/mcp\n  auth:\n    client_id: c\n    client_secret_env: S\n    token_url: http://127.0.0.1:9000/token\n",
        )
        .unwrap();
        let auth = spec.auth.unwrap();
        assert_eq!(auth.client_id.as_deref(), Some("c"));
        assert_eq!(auth.client_secret_env.as_deref(), Some("S"));
        assert_eq!(
            auth.token_url.as_deref(),
            Some("http://127.0.0.1:9000/token")
        );
        for (block, says) in [
            (
                "  command: srv\n  auth:\n    bearer_env: T\n",
                "t.yaml:5:5: `auth` authorizes with a server reached at a `url`",
            ),
            (
                "  url: http://x/mcp\n  auth:\n    client_id: c\n",
                "needs `client_secret_env`",
            ),
            (
                "  url: http://x/mcp\n  auth:\n    token_url: http://x/t\n",
                "give `client_id` too",
            ),
            (
                "  url: http://x/mcp\n  auth:\n    client_secret: oops\n",
                "unknown key `client_secret`",
            ),
        ] {
            let err = server(block).unwrap_err();
            assert!(err.contains(says), "{block}: {err}");
        }
    }
}
