//! A stdio MCP server that misbehaves on request, for testing how mcptest copes.
//!
//! Written against raw newline-delimited JSON instead of rmcp because the failures it
//! stages (half-written lines, non-JSON on stdout, wrong ids) are things a correct SDK
//! makes impossible. Without flags it is a minimal well-behaved server with one tool.

use std::{
    io::{self, BufRead, Write},
    process::{Command, Stdio},
    thread,
    time::Duration,
};

use mcptest_tests::{lintable, poisoned};
use serde_json::{Value, json};

const USAGE: &str = "\
usage: fixture-chaos [FLAGS]

A minimal stdio MCP server (one tool, `poke`) that misbehaves as the flags say:
  --exit-before-initialize  exit 3 before reading stdin
  --exit-mid-call           exit 7 on tools/call without answering
  --never-answer            never answer tools/call
  --partial-line            answer tools/call with half a line, then hang
  --garbage                 write non-JSON-RPC lines before every response
  --huge-response           answer tools/call with 50 MiB of text
  --stderr-flood            write 20 MiB to stderr while serving
  --ignore-eof              keep running after stdin closes
  --spawn-grandchild        start `sleep 600` and report its pid on stderr
  --wrong-id                answer tools/call with the wrong id
  --slow-start MS           sleep MS milliseconds before reading stdin
  --print-pid               report this process's pid on stderr
  --pid-file PATH           write this process's pid to PATH before anything else
  --reject-initialize       answer initialize with a JSON-RPC error
  --malformed-result        answer tools/list with a result that breaks the schema
  --array-input-schema      list `poke` with an `inputSchema` of type array, which
                            rmcp accepts and the MCP schema does not
  --string-progress         send a progress notification whose `progress` is a
                            string before answering tools/call (rmcp drops it)
  --defects                 also list `parse`, which panics (the server dies) on an
                            empty `text`, and `search`, which hangs on a `query`
                            longer than 1000 characters; both answer anything else
  --planted-crash           also list `ingest`, which panics (the server dies) on a
                            titled note with more than 3 tags while the environment
                            has MCPTEST_PLANTED_CRASH=1 (the bug), and answers
                            anything without it (the fix)
  --poisoned                list definitions that break every security lint rule
                            (tools, prompts, resources, templates, instructions)
  --lint-findings           list tools that trip each rule of `mcptest lint` once
                            (tests/lint/trips-each-rule.json), and answer their calls
  --lint-clean              list tools that trip no lint rule (tests/lint/trips-none.json)
  --ping-flood N            on tools/call send N ping requests, answer the call,
                            then stop reading stdin (and never exit)
  --stop-reading            on tools/call stop reading stdin, never answer
  --notification-flood N    send N notifications before answering tools/call
  --stray-flood N           send N answers with ids nobody sent before
                            answering tools/call
  --deep-answer N           answer tools/call with valid JSON whose result nests
                            N arrays deep (100000 is far past any parser's limit)
  --exit-leaving-grandchild start `sleep 30` in a process group of its own
                            that holds stdout open (its pid on stderr), then
                            exit 7 on tools/call without answering
  --hostile-text            answer tools/call with text holding terminal escapes
                            (clear screen, a forged PASS line, hidden text) and
                            the XML-invalid U+FFFE, U+FFFF and NUL";

/// Protocol versions echoed back from `initialize`; any other request gets the newest.
const KNOWN_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const DEFAULT_VERSION: &str = "2025-11-25";

const HUGE_RESPONSE_BYTES: usize = 50 * 1024 * 1024;
const STDERR_FLOOD_BYTES: usize = 20 * 1024 * 1024;
const STDERR_FLOOD_LINE: usize = 4 * 1024;

#[derive(Debug, Default)]
struct Chaos {
    exit_before_initialize: bool,
    exit_mid_call: bool,
    never_answer: bool,
    partial_line: bool,
    garbage: bool,
    huge_response: bool,
    stderr_flood: bool,
    ignore_eof: bool,
    spawn_grandchild: bool,
    wrong_id: bool,
    slow_start_ms: Option<u64>,
    print_pid: bool,
    pid_file: Option<String>,
    reject_initialize: bool,
    malformed_result: bool,
    array_input_schema: bool,
    string_progress: bool,
    poisoned: bool,
    lint_findings: bool,
    lint_clean: bool,
    defects: bool,
    planted_crash: bool,
    ping_flood: Option<u64>,
    stop_reading: bool,
    notification_flood: Option<u64>,
    stray_flood: Option<u64>,
    hostile_text: bool,
    deep_answer: Option<u64>,
    exit_leaving_grandchild: bool,
}

/// What `--hostile-text` answers: wipes the screen and scrollback, forges a
/// green summary, hides what follows, and holds characters XML cannot carry.
const HOSTILE_TEXT: &str = "\u{1b}[2J\u{1b}[3J\u{1b}[32mPASS all 1 passed, 0 failed\u{1b}[0m\u{1b}[8m hidden \u{fffe}\u{ffff}\u{0}\u{7}";

fn count(args: &mut impl Iterator<Item = String>, flag: &str) -> Result<u64, String> {
    let value = args.next().ok_or(format!("{flag} needs a count"))?;
    value
        .parse()
        .map_err(|_| format!("{flag} needs a count, got {value:?}"))
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Chaos, String> {
    let mut chaos = Chaos::default();
    while let Some(arg) = args.next() {
        let flag = match arg.as_str() {
            "--exit-before-initialize" => &mut chaos.exit_before_initialize,
            "--exit-mid-call" => &mut chaos.exit_mid_call,
            "--never-answer" => &mut chaos.never_answer,
            "--partial-line" => &mut chaos.partial_line,
            "--garbage" => &mut chaos.garbage,
            "--huge-response" => &mut chaos.huge_response,
            "--stderr-flood" => &mut chaos.stderr_flood,
            "--ignore-eof" => &mut chaos.ignore_eof,
            "--spawn-grandchild" => &mut chaos.spawn_grandchild,
            "--wrong-id" => &mut chaos.wrong_id,
            "--print-pid" => &mut chaos.print_pid,
            "--reject-initialize" => &mut chaos.reject_initialize,
            "--malformed-result" => &mut chaos.malformed_result,
            "--array-input-schema" => &mut chaos.array_input_schema,
            "--string-progress" => &mut chaos.string_progress,
            "--poisoned" => &mut chaos.poisoned,
            "--lint-findings" => &mut chaos.lint_findings,
            "--lint-clean" => &mut chaos.lint_clean,
            "--defects" => &mut chaos.defects,
            "--planted-crash" => &mut chaos.planted_crash,
            "--pid-file" => {
                chaos.pid_file = Some(args.next().ok_or("--pid-file needs a path")?);
                continue;
            }
            "--stop-reading" => &mut chaos.stop_reading,
            "--hostile-text" => &mut chaos.hostile_text,
            "--exit-leaving-grandchild" => &mut chaos.exit_leaving_grandchild,
            "--deep-answer" => {
                chaos.deep_answer = Some(count(&mut args, "--deep-answer")?);
                continue;
            }
            "--ping-flood" => {
                chaos.ping_flood = Some(count(&mut args, "--ping-flood")?);
                continue;
            }
            "--notification-flood" => {
                chaos.notification_flood = Some(count(&mut args, "--notification-flood")?);
                continue;
            }
            "--stray-flood" => {
                chaos.stray_flood = Some(count(&mut args, "--stray-flood")?);
                continue;
            }
            "--slow-start" => {
                let value = args.next().ok_or("--slow-start needs milliseconds")?;
                let ms = value
                    .parse()
                    .map_err(|_| format!("--slow-start needs milliseconds, got {value:?}"))?;
                chaos.slow_start_ms = Some(ms);
                continue;
            }
            other => return Err(format!("unknown argument: {other}")),
        };
        *flag = true;
    }
    Ok(chaos)
}

fn main() {
    let chaos = match parse_args(std::env::args().skip(1)) {
        Ok(chaos) => chaos,
        Err(message) => {
            eprintln!("fixture-chaos: {message}\n{USAGE}");
            std::process::exit(2);
        }
    };

    if let Some(path) = &chaos.pid_file
        && let Err(error) = std::fs::write(path, std::process::id().to_string())
    {
        eprintln!("fixture-chaos: cannot write the pid file {path}: {error}");
        std::process::exit(2);
    }
    if chaos.print_pid {
        eprintln!("chaos: pid {}", std::process::id());
    }
    if chaos.spawn_grandchild {
        spawn_grandchild();
    }
    if chaos.exit_leaving_grandchild {
        spawn_stdout_holder();
    }
    let flood = chaos.stderr_flood.then(|| thread::spawn(flood_stderr));
    if chaos.exit_before_initialize {
        eprintln!("chaos: exiting before initialize");
        std::process::exit(3);
    }
    if let Some(ms) = chaos.slow_start_ms {
        thread::sleep(Duration::from_millis(ms));
    }

    serve(&chaos);

    if chaos.ignore_eof {
        hang();
    }
    // Finish the flood even if stdin closed early, so a run always writes the full
    // 20 MiB and tests can reason about exactly how much stderr there was.
    if let Some(flood) = flood {
        let _ = flood.join();
    }
}

/// The grandchild gets null stdio: it exists to be killed with the process group,
/// and must not keep the harness's pipes open or write into the protocol stream.
fn spawn_grandchild() {
    let spawned = Command::new("sleep")
        .arg("600")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match spawned {
        // Dropping the handle neither waits for nor kills the child.
        Ok(child) => eprintln!("chaos: grandchild pid {}", child.id()),
        Err(error) => eprintln!("chaos: cannot spawn grandchild: {error}"),
    }
}

/// A grandchild that escapes the server's process group (so killing the
/// group misses it) and keeps the server's stdout open after the server
/// exits; bounded in time so that a failed test cannot leave it for long.
fn spawn_stdout_holder() {
    use std::os::unix::process::CommandExt;
    let spawned = Command::new("sleep")
        .arg("30")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn();
    match spawned {
        Ok(child) => eprintln!("chaos: stdout holder pid {}", child.id()),
        Err(error) => eprintln!("chaos: cannot spawn the stdout holder: {error}"),
    }
}

fn flood_stderr() {
    let mut line = vec![b'e'; STDERR_FLOOD_LINE];
    line[STDERR_FLOOD_LINE - 1] = b'\n';
    let mut stderr = io::stderr().lock();
    for _ in 0..STDERR_FLOOD_BYTES / STDERR_FLOOD_LINE {
        // A reader that stopped draining stderr blocks us here, which is the point;
        // a reader that went away ends the flood.
        if stderr.write_all(&line).is_err() {
            return;
        }
    }
    let _ = stderr.flush();
}

fn hang() -> ! {
    loop {
        thread::sleep(Duration::from_secs(3600));
    }
}

/// Reads requests until stdin closes.
fn serve(chaos: &Chaos) {
    let stdin = io::stdin();
    let mut out = io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        if line.trim().is_empty() {
            continue;
        }
        let message: Value = match serde_json::from_str(&line) {
            Ok(message) => message,
            Err(error) => {
                let reply = error_response(Value::Null, -32700, &format!("parse error: {error}"));
                respond(chaos, &mut out, &reply);
                continue;
            }
        };
        // Notifications and replies to requests we never send need no answer.
        let (Some(id), Some(method)) = (
            message.get("id").cloned(),
            message.get("method").and_then(Value::as_str),
        ) else {
            continue;
        };
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        if method == "tools/call" {
            call_tool(chaos, &mut out, id, &params);
            continue;
        }
        let reply = match method {
            "initialize" if chaos.reject_initialize => {
                error_response(id, -32600, "chaos: initialize rejected")
            }
            "initialize" => result_response(id, initialize_result(chaos, &params)),
            // `tools` must be an array of tools.
            "tools/list" if chaos.malformed_result => {
                result_response(id, json!({ "tools": "not a list" }))
            }
            "tools/list" if chaos.array_input_schema => result_response(
                id,
                json!({ "tools": [{"name": "poke", "inputSchema": {"type": "array"}}] }),
            ),
            "ping" => result_response(id, json!({})),
            "tools/list" if chaos.poisoned => {
                result_response(id, json!({ "tools": poisoned::tools() }))
            }
            "tools/list" if chaos.lint_findings => {
                result_response(id, json!({ "tools": lintable::tripping_tools() }))
            }
            "tools/list" if chaos.lint_clean => {
                result_response(id, json!({ "tools": lintable::clean_tools() }))
            }
            "prompts/list" if chaos.poisoned => {
                result_response(id, json!({ "prompts": poisoned::prompts() }))
            }
            "resources/list" if chaos.poisoned => {
                result_response(id, json!({ "resources": poisoned::resources() }))
            }
            "resources/templates/list" if chaos.poisoned => result_response(
                id,
                json!({ "resourceTemplates": poisoned::resource_templates() }),
            ),
            "tools/list" if chaos.defects => result_response(
                id,
                json!({ "tools": [poke_tool(), parse_tool(), search_tool()] }),
            ),
            "tools/list" if chaos.planted_crash => {
                result_response(id, json!({ "tools": [poke_tool(), ingest_tool()] }))
            }
            "tools/list" => result_response(id, json!({ "tools": [poke_tool()] })),
            _ => error_response(id, -32601, &format!("Method not found: {method}")),
        };
        respond(chaos, &mut out, &reply);
    }
}

fn call_tool(chaos: &Chaos, out: &mut io::Stdout, id: Value, params: &Value) {
    if chaos.exit_leaving_grandchild {
        eprintln!("chaos: exiting mid-call, the stdout holder stays");
        std::process::exit(7);
    }
    if let Some(depth) = chaos.deep_answer {
        let depth = usize::try_from(depth).unwrap_or(usize::MAX);
        let mut out = out.lock();
        let _ = write!(
            out,
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[],"deep":"#
        );
        let _ = out.write_all("[".repeat(depth).as_bytes());
        let _ = out.write_all("]".repeat(depth).as_bytes());
        let _ = out.write_all(b"}}\n");
        let _ = out.flush();
        return;
    }
    if chaos.exit_mid_call {
        eprintln!("chaos: exiting mid-call");
        std::process::exit(7);
    }
    if chaos.never_answer {
        return;
    }
    if chaos.stop_reading {
        eprintln!("chaos: no longer reading stdin");
        hang();
    }
    if let Some(n) = chaos.notification_flood {
        flood(out, n, |i| {
            json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": format!("flood {i}")}})
        });
    }
    if let Some(n) = chaos.stray_flood {
        flood(
            out,
            n,
            |i| json!({"jsonrpc": "2.0", "id": format!("stray-{i}"), "result": {}}),
        );
    }
    if let Some(n) = chaos.ping_flood {
        flood(
            out,
            n,
            |i| json!({"jsonrpc": "2.0", "id": format!("ping-{i}"), "method": "ping"}),
        );
        let reply = result_response(
            id,
            json!({ "content": [{ "type": "text", "text": "poked" }], "isError": false }),
        );
        respond(chaos, out, &reply);
        eprintln!("chaos: no longer reading stdin");
        hang();
    }
    if chaos.hostile_text {
        let reply = result_response(
            id,
            json!({ "content": [{ "type": "text", "text": HOSTILE_TEXT }], "isError": false }),
        );
        respond(chaos, out, &reply);
        return;
    }
    if chaos.partial_line {
        let mut out = out.lock();
        let _ = write!(out, r#"{{"jsonrpc":"2.0","id":{id},"res"#);
        let _ = out.flush();
        drop(out);
        // Drain stdin so a client that keeps writing never blocks on a full pipe, but
        // never answer and never exit, not even at EOF.
        thread::spawn(|| {
            let _ = io::copy(&mut io::stdin().lock(), &mut io::sink());
        });
        hang();
    }

    if chaos.string_progress {
        let note = json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": "chaos", "progress": "50"}});
        respond(chaos, out, &note);
    }
    let id = if chaos.wrong_id { wrong_id(id) } else { id };
    let name = params.get("name").and_then(Value::as_str).unwrap_or("");
    if chaos.defects && (name == "parse" || name == "search") {
        let reply = result_response(id, defective_call(name, params));
        respond(chaos, out, &reply);
        return;
    }
    if chaos.lint_findings || chaos.lint_clean {
        respond(chaos, out, &result_response(id, lintable::call(name)));
        return;
    }
    if chaos.planted_crash && name == "ingest" {
        let reply = result_response(id, ingest_call(params));
        respond(chaos, out, &reply);
        return;
    }
    if name != "poke" {
        let reply = error_response(id, -32602, &format!("unknown tool: {name}"));
        respond(chaos, out, &reply);
        return;
    }
    if chaos.huge_response {
        if chaos.garbage {
            write_garbage(out);
        }
        let _ = write_huge_response(out, &id);
        return;
    }
    let reply = result_response(
        id,
        json!({ "content": [{ "type": "text", "text": "poked" }], "isError": false }),
    );
    respond(chaos, out, &reply);
}

/// Writes `n` messages built by `message`, buffered; stops quietly when the
/// reader goes away.
fn flood(out: &mut io::Stdout, n: u64, message: impl Fn(u64) -> Value) {
    let mut out = io::BufWriter::new(out.lock());
    for i in 0..n {
        let mut line = message(i).to_string();
        line.push('\n');
        if out.write_all(line.as_bytes()).is_err() {
            return;
        }
    }
    let _ = out.flush();
}

fn wrong_id(id: Value) -> Value {
    match id {
        Value::Number(n) => match n.as_i64() {
            Some(n) => json!(n + 1000),
            None => json!(n.as_f64().unwrap_or(0.0) + 1000.0),
        },
        Value::String(s) => json!(format!("{s}-wrong")),
        other => other,
    }
}

/// Streams the text straight to stdout so 50 MiB never has to exist as a `String`.
fn write_huge_response(out: &mut io::Stdout, id: &Value) -> io::Result<()> {
    const CHUNK: usize = 1024 * 1024;
    let chunk = vec![b'x'; CHUNK];
    let mut out = out.lock();
    write!(
        out,
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":""#
    )?;
    let mut remaining = HUGE_RESPONSE_BYTES;
    while remaining > 0 {
        let n = remaining.min(CHUNK);
        out.write_all(&chunk[..n])?;
        remaining -= n;
    }
    out.write_all(b"\"}],\"isError\":false}}\n")?;
    out.flush()
}

fn initialize_result(chaos: &Chaos, params: &Value) -> Value {
    let requested = params.get("protocolVersion").and_then(Value::as_str);
    let version = requested
        .filter(|v| KNOWN_VERSIONS.contains(v))
        .unwrap_or(DEFAULT_VERSION);
    let mut result = json!({
        "protocolVersion": version,
        "capabilities": { "tools": {} },
        "serverInfo": { "name": "fixture-chaos", "version": env!("CARGO_PKG_VERSION") },
    });
    if chaos.poisoned {
        result["capabilities"] = json!({ "tools": {}, "prompts": {}, "resources": {} });
        result["instructions"] = json!(poisoned::INSTRUCTIONS);
    }
    result
}

fn poke_tool() -> Value {
    json!({
        "name": "poke",
        "description": "Answers \"poked\".",
        "inputSchema": { "type": "object" },
    })
}

fn parse_tool() -> Value {
    json!({
        "name": "parse",
        "description": "Parses a text (and panics on an empty one).",
        "inputSchema": {
            "type": "object",
            "properties": { "text": { "type": "string" } },
            "required": ["text"],
        },
    })
}

fn search_tool() -> Value {
    json!({
        "name": "search",
        "description": "Searches for a query (and hangs on a long one).",
        "inputSchema": {
            "type": "object",
            "properties": { "query": { "type": "string" } },
            "required": ["query"],
        },
    })
}

/// The defects of `--defects`: a panic that takes the server down, and a
/// hang that never answers; every other input gets a result (`isError`
/// when the argument is missing or not a string).
fn defective_call(name: &str, params: &Value) -> Value {
    let key = if name == "parse" { "text" } else { "query" };
    let Some(text) = params
        .pointer(&format!("/arguments/{key}"))
        .and_then(Value::as_str)
    else {
        return json!({
            "content": [{ "type": "text", "text": format!("{key} must be a string") }],
            "isError": true,
        });
    };
    if name == "parse" && text.is_empty() {
        panic!("chaos: parse cannot handle an empty text");
    }
    if name == "search" && text.chars().count() > 1000 {
        eprintln!(
            "chaos: search hangs on a query of {} characters",
            text.chars().count()
        );
        hang();
    }
    json!({
        "content": [{ "type": "text", "text": format!("{name}: {} characters", text.chars().count()) }],
        "isError": false,
    })
}

fn ingest_tool() -> Value {
    json!({
        "name": "ingest",
        "description": "Stores a note with its tags.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "title": { "type": "string" },
                "tags": { "type": "array", "items": { "type": "string" } },
                "count": { "type": "integer" },
            },
            "required": ["title", "tags"],
        },
    })
}

/// `ingest` of `--planted-crash`: the bug (a panic on a titled note with
/// more than 3 tags) is there only while MCPTEST_PLANTED_CRASH=1, so that
/// one binary is the server before and after the fix.
fn ingest_call(params: &Value) -> Value {
    let title = params.pointer("/arguments/title").and_then(Value::as_str);
    let tags = params.pointer("/arguments/tags").and_then(Value::as_array);
    let (Some(title), Some(tags)) = (title, tags) else {
        return json!({
            "content": [{ "type": "text", "text": "title (a string) and tags (a list) are required" }],
            "isError": true,
        });
    };
    let planted = std::env::var("MCPTEST_PLANTED_CRASH").is_ok_and(|v| v == "1");
    if planted && tags.len() > 3 && !title.is_empty() {
        panic!("chaos: ingest cannot index more than 3 tags of a titled note");
    }
    json!({
        "content": [{ "type": "text", "text": format!("ingested {title:?} with {} tags", tags.len()) }],
        "isError": false,
    })
}

fn result_response(id: Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn write_garbage(out: &mut io::Stdout) {
    let mut out = out.lock();
    let _ =
        out.write_all(b"chaos: this is not json\nListening on port 1234\n{\"hello\":\"world\"}\n");
}

/// Write failures mean the client is gone; the read loop will see EOF next.
fn respond(chaos: &Chaos, out: &mut io::Stdout, reply: &Value) {
    if chaos.garbage {
        write_garbage(out);
    }
    let mut out = out.lock();
    let _ = serde_json::to_writer(&mut out, reply);
    let _ = out.write_all(b"\n");
    let _ = out.flush();
}
