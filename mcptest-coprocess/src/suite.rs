//! `suite.list` and `suite.run`: suite files listed and run over the
//! coprocess by the runner behind `mcptest run`, so an SDK's test for a
//! suite test gets the same verdict and failure text as the command.
//!
//! The runner (`mcptest_suite::runner`) is reached through two functions
//! only, [`load`] (paths to tests) and [`run_one`] (one test with its
//! options to its result); the rest of this module is the protocol's:
//! params in, JSON out.
//!
//! A test's id is `<file>#<index of the test within the file>` (from 0),
//! documented to SDKs as opaque: stable while the file keeps the test at
//! its place.

use std::{path::Path, time::Duration};

use serde_json::{Map, Value, json};

use crate::fault::{Fault, object};
use mcptest_core::Server;
use mcptest_core::WireSchema;
use mcptest_core::report::{Location, Outcome, Status, TestResult};
use mcptest_suite::runner::{self, Event};
use mcptest_suite::{LoadError, RunOptions, Suite, SuiteTest, failure_message};

/// The runner's half of `suite.list`: every test of the files `paths` name
/// (a directory: every `.yaml` / `.yml` file below it, sorted), in order.
fn load(paths: &[String]) -> Result<Vec<SuiteTest>, LoadError> {
    let mut suite = Suite::default();
    for path in paths {
        suite.extend(Suite::load(path)?);
    }
    Ok(suite.tests().to_vec())
}

/// The runner's half of `suite.run`: one test run by the runner behind
/// `mcptest run` and `Suite::run` (a fresh server, the fixture copy, the
/// verdict, the server stopped and the copy removed, or kept when it
/// failed; a panic in the test is its failure), as a run of that one test.
async fn run_one(test: &SuiteTest, options: &RunOptions) -> TestResult {
    let mut quiet = |_: &Event<'_>| {};
    let report = runner::run(
        test.name.clone(),
        std::slice::from_ref(test),
        options,
        &mut quiet,
    )
    .await;
    report.results.into_iter().next().unwrap_or_else(|| {
        // A run of one test that reports none: said as this test's error,
        // never as a pass.
        TestResult::new(
            test.name.clone(),
            Outcome::error(
                "the runner reports the test it was given",
                "its report holds no result",
            ),
        )
        .location(Location::file(test.file.clone()))
    })
}

/// `suite.list {paths, filter?}` → `{tests: [...]}`.
pub(crate) fn list(params: &Value) -> Result<Value, Fault> {
    let fields = object(params, &["paths", "filter"], &["paths"])?;
    let paths: Vec<String> = match &fields["paths"] {
        Value::Array(items) if !items.is_empty() => items
            .iter()
            .map(|p| p.as_str().map(str::to_owned))
            .collect::<Option<_>>()
            .ok_or_else(|| Fault::params("`paths` must be a list of strings"))?,
        _ => return Err(Fault::params("`paths` must be a non-empty list of paths")),
    };
    let filter = match fields.get("filter") {
        None => None,
        Some(Value::String(f)) => Some(f.as_str()),
        Some(_) => return Err(Fault::params("`filter` must be a string")),
    };
    let tests = load(&paths).map_err(load_fault)?;
    let mut listed = Vec::new();
    let mut index_in_file = 0;
    let mut previous: Option<&str> = None;
    for test in &tests {
        if previous != Some(test.file.as_str()) {
            index_in_file = 0;
            previous = Some(test.file.as_str());
        }
        let index = index_in_file;
        index_in_file += 1;
        // As `mcptest run --filter`: the name or the file contains it.
        if filter.is_some_and(|f| !(test.name.contains(f) || test.file.contains(f))) {
            continue;
        }
        listed.push(json!({
            "id": format!("{}#{index}", test.file),
            "name": test.name,
            "file": test.file,
            "line": test.location.line,
            "column": test.location.column,
            "lane": test.lane(),
            "skip": test.skipped_in_file().map(|reason| json!({ "reason": reason })),
        }));
    }
    Ok(json!({ "tests": listed }))
}

/// `suite.run {id, fixture?, server?, timeout_ms?, wire_schema?}` → the
/// test's verdict, and its result for the session's report. `server`
/// serves the files that name none; without it, `session_server` does.
pub(crate) async fn run(
    params: &Value,
    session_server: Option<&Server>,
) -> Result<(Value, TestResult), Fault> {
    let fields = object(
        params,
        &["id", "fixture", "server", "timeout_ms", "wire_schema"],
        &["id"],
    )?;
    let id = fields["id"]
        .as_str()
        .ok_or_else(|| Fault::params("`id` must be a string"))?;
    let (file, index) = id
        .rsplit_once('#')
        .and_then(|(file, index)| Some((file, index.parse::<usize>().ok()?)))
        .filter(|(file, _)| !file.is_empty())
        .ok_or_else(|| {
            Fault::params(format!(
                "`id` {id:?} is not a test id: use an `id` from suite.list as given"
            ))
        })?;
    let tests = load(&[file.to_owned()]).map_err(load_fault)?;
    let in_file: Vec<&SuiteTest> = tests.iter().filter(|t| t.file == file).collect();
    let test = in_file.get(index).ok_or_else(|| {
        Fault::params(format!(
            "{file} holds {} test{} now, so there is no test {id:?}: list the file again",
            in_file.len(),
            if in_file.len() == 1 { "" } else { "s" }
        ))
    })?;
    let mut options = RunOptions::new();
    match fields.get("server") {
        Some(spec) => options = options.server(server(spec)?),
        None => {
            if let Some(server) = session_server {
                options = options.server(server.clone());
            }
        }
    }
    if let Some(fixture) = fields.get("fixture") {
        let dir = fixture
            .as_str()
            .ok_or_else(|| Fault::params("`fixture` must be a directory's path"))?;
        if !Path::new(dir).is_dir() {
            return Err(Fault::params(format!(
                "`fixture`: {dir} is not a directory"
            )));
        }
        options = options.fixture(dir);
    }
    if let Some(timeout) = fields.get("timeout_ms") {
        let ms = timeout
            .as_u64()
            .filter(|ms| *ms > 0)
            .ok_or_else(|| Fault::params("`timeout_ms` must be a positive integer"))?;
        options = options.timeout(Duration::from_millis(ms));
    }
    if let Some(mode) = fields.get("wire_schema") {
        options = options.wire_schema(match mode.as_str() {
            Some("fail") => WireSchema::Fail,
            Some("warn") => WireSchema::Warn,
            Some("off") => WireSchema::Off,
            _ => return Err(Fault::params("`wire_schema` must be fail, warn or off")),
        });
    }
    let result = run_one(test, &options).await;
    Ok((verdict(id, test, &result), result))
}

/// The keys of `server` that authorize with a server reached at a URL, as
/// the command's `--header`, `--bearer-env`, `--client-id`,
/// `--client-secret-env` and `--token-url` do.
const CREDENTIALS: [&str; 5] = [
    "headers",
    "bearer_env",
    "client_id",
    "client_secret_env",
    "token_url",
];

/// `server` of `suite.run`: `{argv, env?, cwd?}`, or `{url}` or `{sse}`
/// with the credentials keys, applied by [`mcptest_suite::authorize`].
/// An error names a key or a variable, never a value.
fn server(spec: &Value) -> Result<Server, Fault> {
    let bad = || {
        Fault::params(
            "`server` must be {\"argv\": [PROGRAM, ARG...], \"env\"?, \"cwd\"?}, or {\"url\": URL} or \
             {\"sse\": URL} with \"headers\"?, \"bearer_env\"?, \"client_id\"?, \"client_secret_env\"?, \"token_url\"?",
        )
    };
    let fields = spec.as_object().ok_or_else(bad)?;
    if fields.contains_key("url") || fields.contains_key("sse") {
        return remote(fields, bad);
    }
    if let Some(key) = fields.keys().find(|k| CREDENTIALS.contains(&k.as_str())) {
        return Err(Fault::params(format!(
            "`server.{key}` is for a server reached at a URL (`url` or `sse`); this one is `argv`, a command"
        )));
    }
    if fields
        .keys()
        .any(|k| !["argv", "env", "cwd"].contains(&k.as_str()))
    {
        return Err(bad());
    }
    let argv: Vec<&str> = fields
        .get("argv")
        .and_then(Value::as_array)
        .and_then(|items| items.iter().map(Value::as_str).collect())
        .ok_or_else(bad)?;
    let Some((program, args)) = argv.split_first() else {
        return Err(Fault::params("`server.argv` names no program"));
    };
    let mut server = Server::program(program).args(args);
    if let Some(env) = fields.get("env") {
        for (key, value) in env.as_object().ok_or_else(bad)? {
            server = server.env(key, value.as_str().ok_or_else(bad)?);
        }
    }
    if let Some(cwd) = fields.get("cwd") {
        server = server.current_dir(cwd.as_str().ok_or_else(bad)?);
    }
    Ok(server)
}

/// `{url}` or `{sse}` with its credentials.
fn remote(fields: &Map<String, Value>, bad: impl Fn() -> Fault) -> Result<Server, Fault> {
    if let Some(key) = fields
        .keys()
        .find(|k| !["url", "sse"].contains(&k.as_str()) && !CREDENTIALS.contains(&k.as_str()))
    {
        return Err(Fault::params(format!(
            "`server.{key}` is not a key of a server reached at a URL (url or sse, {})",
            CREDENTIALS.join(", ")
        )));
    }
    let (key, url) = match (fields.get("url"), fields.get("sse")) {
        (Some(_), Some(_)) => {
            return Err(Fault::params(
                "`server` gives both `url` and `sse`: one server, one transport",
            ));
        }
        (Some(url), None) => ("url", url),
        (None, Some(url)) => ("sse", url),
        (None, None) => return Err(bad()),
    };
    let url = http_url(key, url)?;
    let text = |key: &str| -> Result<Option<String>, Fault> {
        match fields.get(key) {
            None => Ok(None),
            Some(Value::String(s)) if !s.is_empty() => Ok(Some(s.clone())),
            Some(_) => Err(Fault::params(format!(
                "`server.{key}` must be a non-empty string"
            ))),
        }
    };
    let mut headers = Vec::new();
    if let Some(given) = fields.get("headers") {
        let given = given.as_object().ok_or_else(|| {
            Fault::params("`server.headers` must be an object of header names to strings")
        })?;
        for (name, value) in given {
            if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == ':') {
                return Err(Fault::params(format!(
                    "`server.headers`: {name:?} is not a header name"
                )));
            }
            // The value is never quoted back: it may be a credential.
            let value = value.as_str().ok_or_else(|| {
                Fault::params(format!("`server.headers.{name}` must be a string"))
            })?;
            headers.push((name.clone(), value.to_owned()));
        }
    }
    let auth = mcptest_suite::AuthSpec {
        headers,
        bearer_env: text("bearer_env")?,
        client_id: text("client_id")?,
        client_secret_env: text("client_secret_env")?,
        token_url: text("token_url")?,
    };
    if let Some(token_url) = &auth.token_url {
        http_url("token_url", &Value::String(token_url.clone()))?;
    }
    for (key, wanted) in [
        ("client_secret_env", auth.client_secret_env.is_some()),
        ("token_url", auth.token_url.is_some()),
    ] {
        if wanted && auth.client_id.is_none() {
            return Err(Fault::params(format!(
                "`server.{key}` belongs to a client-credentials grant: give `server.client_id` too"
            )));
        }
    }
    // As `--bearer-env`: a variable that is not set is the request's
    // mistake, said before any server starts.
    if let Some((key, var)) = auth.unset_variable() {
        return Err(Fault::params(format!(
            "`server.{key}` {var}: the variable is not set (or empty) in the environment of mcptest"
        )));
    }
    let server = connect(key, url)?;
    mcptest_suite::authorize(server, &auth).map_err(|e| Fault::params(format!("`server`: {e}")))
}

/// `url` or `sse` as an http(s) URL.
fn http_url<'a>(key: &str, url: &'a Value) -> Result<&'a str, Fault> {
    url.as_str()
        .filter(|u| u.starts_with("http://") || u.starts_with("https://"))
        .ok_or_else(|| Fault::params(format!("`server.{key}` must be an http:// or https:// URL")))
}

#[cfg(feature = "http")]
fn connect(key: &str, url: &str) -> Result<Server, Fault> {
    Ok(if key == "sse" {
        Server::sse(url)
    } else {
        Server::url(url)
    })
}

#[cfg(not(feature = "http"))]
fn connect(key: &str, url: &str) -> Result<Server, Fault> {
    Err(Fault::params(format!(
        "`server.{key}` {url}: this build of mcptest has no HTTP client (enable the `http` feature)"
    )))
}

/// A file that does not load: the loader's message, where it is.
fn load_fault(error: LoadError) -> Fault {
    let mut data = Map::new();
    data.insert("file".into(), error.file.clone().into());
    if error.line > 0 {
        data.insert("line".into(), error.line.into());
        if error.column > 0 {
            data.insert("column".into(), error.column.into());
        }
    }
    Fault::params(error.to_string()).data(Value::Object(data))
}

/// The verdict of `suite.run`. A warning (which no suite test gives
/// today) is a pass that carries the warning as the `warning` property.
fn verdict(id: &str, test: &SuiteTest, result: &TestResult) -> Value {
    let mut properties: Map<String, Value> = result
        .properties
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    let status = match result.status() {
        Status::Pass => "pass",
        Status::Fail => "fail",
        Status::Skip => "skip",
        Status::Warn => {
            if let Some(warning) = result.outcome.failure() {
                properties.insert("warning".into(), warning.render(false).into());
            }
            "pass"
        }
    };
    let location = result
        .location
        .clone()
        .unwrap_or_else(|| test.location.clone());
    json!({
        "id": id,
        "name": result.name,
        "status": status,
        "duration_ms": result.duration.as_millis() as u64,
        "location": location.to_string(),
        "failure": if status == "fail" { failure_message(result, false) } else { None },
        "skip_reason": result.outcome.skip_reason(),
        "properties": properties,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        dir
    }

    const TWO_CASES: &str = "case: one\nin: {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}\nout: {\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {}}\n---\ncase: two\nin: {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}\nout: {\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {}}\n";
    const SKIPPED: &str =
        "name: off\nskip: true\nassert:\n  tool: add\n  expect:\n    contains: [\"5\"]\n";

    #[test]
    fn ids_count_tests_within_each_file_and_the_filter_keeps_them() {
        let dir = dir_with(&[("a.yaml", TWO_CASES), ("b.yaml", SKIPPED)]);
        let root = dir.path().display().to_string();
        let listed = list(&json!({"paths": [root]})).unwrap();
        let tests = listed["tests"].as_array().unwrap();
        let ids: Vec<&str> = tests.iter().map(|t| t["id"].as_str().unwrap()).collect();
        assert_eq!(
            ids,
            [
                format!("{root}/a.yaml#0"),
                format!("{root}/a.yaml#1"),
                format!("{root}/b.yaml#0")
            ]
        );
        assert_eq!(tests[0]["lane"], "cases");
        assert_eq!(tests[0]["skip"], Value::Null);
        assert_eq!(tests[2]["lane"], "tool");
        assert_eq!(
            tests[2]["skip"],
            json!({"reason": format!("`skip: true` in {root}/b.yaml")})
        );
        let two = list(&json!({"paths": [root], "filter": "two"})).unwrap();
        assert_eq!(two["tests"][0]["id"], format!("{root}/a.yaml#1"), "{two}");
        assert_eq!(two["tests"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn a_file_that_does_not_load_is_32602_with_where() {
        let dir = dir_with(&[("bad.yaml", "name: x\nassert:\n  tool: echo\n  expekt: {}\n")]);
        let path = dir.path().join("bad.yaml").display().to_string();
        let fault = list(&json!({"paths": [path]})).unwrap_err();
        assert_eq!(fault.code, crate::codes::INVALID_PARAMS);
        assert!(
            fault.message.starts_with(&format!("{path}:4:3: ")),
            "{}",
            fault.message
        );
        assert_eq!(
            fault.data,
            Some(json!({"file": path, "line": 4, "column": 3}))
        );
        let missing = list(&json!({"paths": ["no/such/dir"]})).unwrap_err();
        assert_eq!(missing.data, Some(json!({"file": "no/such/dir"})));
        assert!(list(&json!({"paths": []})).is_err());
    }

    #[tokio::test]
    async fn a_skipped_test_runs_to_its_skip_and_a_bad_id_names_the_fix() {
        let dir = dir_with(&[("b.yaml", SKIPPED)]);
        let id = format!("{}/b.yaml#0", dir.path().display());
        let (verdict, result) = run(&json!({"id": id}), None).await.unwrap();
        assert_eq!(verdict["status"], "skip", "{verdict}");
        assert_eq!(verdict["failure"], Value::Null);
        assert_eq!(
            verdict["skip_reason"],
            result.outcome.skip_reason().unwrap()
        );
        let gone = run(
            &json!({"id": format!("{}/b.yaml#3", dir.path().display())}),
            None,
        )
        .await
        .unwrap_err();
        assert!(
            gone.message.contains("holds 1 test now"),
            "{}",
            gone.message
        );
        let bad = run(&json!({"id": "b.yaml"}), None).await.unwrap_err();
        assert!(
            bad.message.contains("use an `id` from suite.list"),
            "{}",
            bad.message
        );
        let server = run(&json!({"id": id, "server": {"argv": []}}), None)
            .await
            .unwrap_err();
        assert!(server.message.contains("no program"), "{}", server.message);
    }

    /// The message of `server(spec)`'s refusal.
    fn refusal(spec: Value) -> String {
        server(&spec).map(|_| ()).unwrap_err().message
    }

    #[test]
    fn credentials_are_for_a_url_or_sse_server_and_errors_name_keys_not_values() {
        let argv = refusal(json!({"argv": ["srv"], "bearer_env": "HOME"}));
        assert!(
            argv.contains("`server.bearer_env` is for a server reached at a URL"),
            "{argv}"
        );
        let both =
            refusal(json!({"url": "http://127.0.0.1:1/mcp", "sse": "http://127.0.0.1:1/sse"}));
        assert!(both.contains("both `url` and `sse`"), "{both}");
        let unknown = refusal(json!({"sse": "http://127.0.0.1:1/sse", "env": {}}));
        assert!(unknown.contains("`server.env` is not a key"), "{unknown}");
        let scheme = refusal(json!({"sse": "ftp://127.0.0.1/sse"}));
        assert!(
            scheme.contains("`server.sse` must be an http://"),
            "{scheme}"
        );
        let name = refusal(
            json!({"url": "http://127.0.0.1:1/mcp", "headers": {"X Token": "s3cret-value"}}),
        );
        assert!(name.contains("\"X Token\" is not a header name"), "{name}");
        assert!(!name.contains("s3cret-value"), "{name}");
        let value = refusal(json!({"url": "http://127.0.0.1:1/mcp", "headers": {"X-Token": 7}}));
        assert!(
            value.contains("`server.headers.X-Token` must be a string"),
            "{value}"
        );
        let lone = refusal(
            json!({"url": "http://127.0.0.1:1/mcp", "token_url": "http://127.0.0.1:1/token"}),
        );
        assert!(lone.contains("give `server.client_id` too"), "{lone}");
    }

    #[test]
    fn an_unset_variable_is_named_and_no_secret_is_said() {
        const UNSET: &str = "MCPTEST_COPROCESS_TEST_SURELY_UNSET";
        let bearer = refusal(json!({"sse": "http://127.0.0.1:1/sse", "bearer_env": UNSET}));
        assert!(
            bearer.contains(&format!(
                "`server.bearer_env` {UNSET}: the variable is not set"
            )),
            "{bearer}"
        );
        let secret = refusal(json!({
            "url": "http://127.0.0.1:1/mcp",
            "client_id": "my-client",
            "client_secret_env": UNSET,
        }));
        assert!(
            secret.contains(&format!(
                "`server.client_secret_env` {UNSET}: the variable is not set"
            )),
            "{secret}"
        );
    }

    #[cfg(feature = "http")]
    #[test]
    fn an_sse_or_url_server_with_credentials_is_accepted() {
        // PATH is set wherever the tests run. That the credentials reach
        // the server is the SDKs' end-to-end tests' (a fixture that
        // answers 401 without the token).
        let sse = server(&json!({
            "sse": "http://127.0.0.1:1/sse",
            "bearer_env": "PATH",
            "headers": {"X-Trace": "${PATH}"},
        }))
        .unwrap();
        assert!(sse.is_sse());
        let url = server(&json!({"url": "http://127.0.0.1:1/mcp"})).unwrap();
        assert!(url.is_http() && !url.is_sse());
    }

    #[cfg(not(feature = "http"))]
    #[test]
    fn without_http_a_url_server_is_refused_by_name() {
        let sse = refusal(json!({"sse": "http://127.0.0.1:1/sse"}));
        assert!(sse.contains("no HTTP client"), "{sse}");
    }
}
