//! What the coprocess tests share: a `mcptest exec --check-frames` session
//! over real pipes that validates every frame it sends and receives against
//! `coprocess.schema.json` with the `jsonschema` crate (independently of the
//! binary's own check), and the fixture servers of the `mcptest-tests`
//! package, built on first use into this test's target directory.

use std::{
    collections::HashMap,
    io::{BufRead, BufReader, Read, Write},
    path::{Path, PathBuf},
    process::{Child, ChildStdin, Stdio},
    sync::{Arc, Mutex, OnceLock, mpsc},
    time::{Duration, Instant},
};

use serde_json::{Value, json};

use super::*;

/// The schema file as shipped in the crate.
fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../mcptest-coprocess/coprocess.schema.json");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    })
}

/// `value` against the definition at `pointer` (`/$defs/...`): the first
/// error, as `path: rule`.
pub(super) fn validate(pointer: &str, value: &Value) -> Result<(), String> {
    static VALIDATORS: OnceLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> =
        OnceLock::new();
    let validator = {
        let mut cache = VALIDATORS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        cache
            .entry(pointer.to_owned())
            .or_insert_with(|| {
                let root = schema();
                assert!(
                    root.pointer(pointer).is_some(),
                    "the schema has no {pointer}"
                );
                let document = json!({
                    "$schema": root["$schema"], "$id": root["$id"],
                    "$defs": root["$defs"], "$ref": format!("#{pointer}"),
                });
                Arc::new(jsonschema::validator_for(&document).expect("the definition compiles"))
            })
            .clone()
    };
    match validator.iter_errors(value).next() {
        None => Ok(()),
        Some(e) => Err(format!("{}: {e}", e.instance_path())),
    }
}

/// A method name as a JSON pointer token.
fn token(method: &str) -> String {
    method.replace('~', "~0").replace('/', "~1")
}

/// Where the definitions of a session of `version` are.
fn group(version: u32) -> &'static str {
    if version >= 3 { "/$defs" } else { "/$defs/v2" }
}

/// A fixture server of the `mcptest-tests` package (`fixture-everything`,
/// ...). Cargo builds a package's binaries only for its own tests, so the
/// first use builds it with the cargo that runs these tests, into the same
/// target directory and profile. It is built as `cargo test --workspace`
/// (the README's command) builds it, with the whole workspace's tests
/// selected: the features are then the run's own and the build is a no-op.
/// Built for this package alone, the fixture's dependencies would get other
/// features and compile again (two minutes of every workspace run).
pub(super) fn fixture(name: &str) -> PathBuf {
    static BUILT: Mutex<Vec<String>> = Mutex::new(Vec::new());
    // target/<profile>/deps/cli-<hash> -> target/<profile>
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("a test binary in <target>/<profile>/deps");
    let target = profile_dir.parent().expect("a target directory");
    let path = profile_dir.join(name);
    let mut built = BUILT.lock().unwrap_or_else(|p| p.into_inner());
    if built.iter().any(|b| b == name) {
        return path;
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = std::process::Command::new(cargo);
    command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["build", "--quiet", "--workspace", "--tests", "--bin", name])
        .arg("--target-dir")
        .arg(target);
    let profile = profile_dir
        .file_name()
        .and_then(|p| p.to_str())
        .unwrap_or("debug");
    if profile != "debug" {
        command.args(["--profile", profile]);
    }
    let child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cargo starts");
    let (status, stderr) = crate::bounded_child::wait_bounded(
        child,
        Duration::from_secs(1800),
        &format!("building {name}"),
    );
    assert!(
        status.success() && path.is_file(),
        "building {name} failed ({status}):\n{stderr}"
    );
    built.push(name.to_owned());
    path
}

/// A one-shot HTTP endpoint on loopback for `mcp.reporter.flush`: its URL,
/// and the thread that returns the request it received (headers and
/// body), answering 200. Accepting and reading are bounded (30 s).
pub(super) fn upload_receiver() -> (String, std::thread::JoinHandle<String>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/upload", listener.local_addr().unwrap());
    listener.set_nonblocking(true).unwrap();
    let received = std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    assert!(Instant::now() < deadline, "no upload within 30 s");
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => panic!("accept: {e}"),
            }
        };
        stream.set_nonblocking(false).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut request = Vec::new();
        let mut buf = [0u8; 4096];
        // Headers, then as many body bytes as content-length says.
        loop {
            let n = stream.read(&mut buf).unwrap();
            request.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&request).to_string();
            if let Some(end) = text.find("\r\n\r\n") {
                let length: usize = text
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("content-length:")
                            .map(|v| v.trim().parse().unwrap())
                    })
                    .unwrap_or(0);
                if request.len() >= end + 4 + length {
                    break;
                }
            }
            if n == 0 {
                break;
            }
        }
        stream
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
            .unwrap();
        String::from_utf8(request).unwrap()
    });
    (url, received)
}

/// `mcptest exec --connection-server --check-frames ARGS...` with piped
/// stdio; every read has a deadline, stderr is kept for messages.
pub(super) struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    stderr: Arc<Mutex<String>>,
    next_id: u64,
    /// The session's protocol version, as the handshakes set it.
    pub(super) version: u32,
}

impl Session {
    /// Starts the engine in `dir` with `args` after `--connection-server
    /// --check-frames`.
    pub(super) fn start(dir: &Path, args: &[&str]) -> Session {
        Session::start_env(dir, args, &[])
    }

    /// As [`start`](Self::start), with environment variables.
    pub(super) fn start_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Session {
        let mut child = std::process::Command::new(MCPTEST)
            .current_dir(dir)
            .args(["exec", "--connection-server", "--check-frames"])
            .args(args)
            .envs(env.iter().copied())
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        let mut pipe = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let stdin = child.stdin.take();
        Session {
            child,
            stdin,
            lines,
            stderr,
            next_id: 0,
            version: 2,
        }
    }

    /// What the engine wrote to stderr so far.
    pub(super) fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Sends one line as it is and reads the answer, checked against the
    /// schema as a response (to `method`, when given).
    pub(super) fn send_line(&mut self, line: &str, method: Option<&str>) -> Value {
        let stdin = self.stdin.as_mut().expect("stdin open");
        let sent = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        if let Err(e) = sent {
            // Give the engine a moment to finish its stderr.
            std::thread::sleep(Duration::from_millis(200));
            panic!("cannot send {line:.200}: {e}\nstderr:\n{}", self.stderr());
        }
        let answer = self
            .lines
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|e| {
                std::thread::sleep(Duration::from_millis(200));
                panic!("no answer to {line:.200} ({e})\nstderr:\n{}", self.stderr())
            });
        let frame: Value =
            serde_json::from_str(&answer).unwrap_or_else(|e| panic!("not JSON ({e}): {answer}"));
        if let Err(e) = validate("/$defs/response", &frame) {
            panic!("the response breaks the schema at {e}\n{frame}");
        }
        if let (Some(method), Some(result)) = (method, frame.get("result")) {
            // A handshake's result is in the shape of the version it agrees on.
            let version = match method {
                "coprocess/handshake" => result["protocol_version"].as_u64().unwrap_or(0) as u32,
                _ => self.version,
            };
            let pointer = format!("{}/result/{}", group(version), token(method));
            if let Err(e) = validate(&pointer, result) {
                panic!("the result of {method} breaks {pointer} at {e}\n{frame}");
            }
        }
        frame
    }

    /// Sends a request of `method` (checked against the schema first) and
    /// returns the whole response frame.
    pub(super) fn ask(&mut self, method: &str, params: Option<Value>) -> Value {
        self.next_id += 1;
        let mut request = json!({"jsonrpc": "2.0", "id": self.next_id, "method": method});
        if let Some(params) = params {
            request["params"] = params;
        }
        let pointer = format!("{}/request/{}", group(self.version), token(method));
        if let Err(e) = validate(&pointer, &request) {
            panic!("the request breaks {pointer} at {e}\n{request}");
        }
        let frame = self.send_line(&request.to_string(), Some(method));
        assert_eq!(frame["id"], self.next_id, "{frame}");
        frame
    }

    /// The `result` of a request that must succeed.
    pub(super) fn result(&mut self, method: &str, params: Value) -> Value {
        let params = (!params.is_null()).then_some(params);
        let frame = self.ask(method, params);
        match frame.get("result") {
            Some(result) => result.clone(),
            None => panic!("{method} failed: {frame}\nstderr:\n{}", self.stderr()),
        }
    }

    /// The `error` of a request that must fail.
    pub(super) fn error(&mut self, method: &str, params: Value) -> Value {
        let params = (!params.is_null()).then_some(params);
        let frame = self.ask(method, params);
        match frame.get("error") {
            Some(error) => error.clone(),
            None => panic!("{method} was expected to fail: {frame}"),
        }
    }

    /// A v3 handshake; its result.
    pub(super) fn handshake(&mut self) -> Value {
        let result = self.result(
            "coprocess/handshake",
            json!({"protocol_version": 3, "sdk": "rust", "sdk_version": "0"}),
        );
        self.version = 3;
        result
    }

    /// `mcp.shutdown`, then the exit status (bounded).
    pub(super) fn shutdown(mut self) -> Option<i32> {
        assert_eq!(self.result("mcp.shutdown", Value::Null), json!({}));
        self.finish()
    }

    /// Closes stdin and waits (bounded) for the exit status.
    pub(super) fn finish(mut self) -> Option<i32> {
        drop(self.stdin.take());
        crate::bounded_child::exit_within(
            &mut self.child,
            Duration::from_secs(30),
            "mcptest exec's exit after stdin closed",
        )
        .code()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
