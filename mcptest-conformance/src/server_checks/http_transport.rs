//! Server checks of the Streamable HTTP transport: the standard request
//! headers of SEP-2243, DNS-rebinding protection, the classic session
//! lifecycle and concurrent streams.
//!
//! Every check here finds what it needs on the server (a tool from
//! `tools/list`, the session id `initialize` hands out) and is skipped with
//! the reason when the server has none.

#[cfg(not(feature = "http"))]
mod checks {
    //! Without the `http` feature no server is reached over HTTP, and these
    //! checks (for Streamable HTTP only) never run.
    use crate::model::Checked;
    use crate::server_checks::facts::{ClassicFacts, StatelessFacts};
    use crate::support::probe::Probe;

    fn never() -> Checked {
        unreachable!("HTTP checks run only over HTTP, which needs the http feature")
    }

    pub(crate) async fn method_header(_: &mut Probe, _: &StatelessFacts) -> Checked {
        never()
    }
    pub(crate) async fn name_header(_: &mut Probe, _: &StatelessFacts) -> Checked {
        never()
    }
    pub(crate) async fn custom_headers(_: &mut Probe) -> Checked {
        never()
    }
    pub(crate) async fn dns_rebinding(_: &mut Probe) -> Checked {
        never()
    }
    pub(crate) async fn session_terminated(_: &mut Probe) -> Checked {
        never()
    }
    pub(crate) async fn session_id_visible_ascii(_: &mut Probe) -> Checked {
        never()
    }
    pub(crate) async fn multiple_streams(_: &mut Probe, _: &ClassicFacts) -> Checked {
        never()
    }
}

#[cfg(feature = "http")]
mod checks {
    use serde_json::{Value, json};

    use crate::model::{Checked, Exchange, Observed, Problems, RawRequest, Transport};
    use crate::server_checks::facts::{ClassicFacts, StatelessFacts, declares};
    use crate::server_checks::listing::list_all;
    use crate::server_checks::tools::tool_name;
    use crate::support::http::send as http_send;
    use crate::support::message::{initialize_params, meta, request, stateless};
    use crate::support::probe::{Ch, Headers, Probe};
    use crate::support::received::Received;
    use crate::support::revision::{CLASSIC, STATELESS};

    /// How many requests `multiple_streams` sends at once.
    const STREAMS: usize = 3;

    fn headers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect()
    }

    /// A rejection of a standard header: HTTP 400; a code other than
    /// -32020 is a note, since the status is what the rule fixes.
    fn expect_rejected(
        problems: &mut Problems,
        notes: &mut Vec<String>,
        what: &str,
        reply: &Received,
    ) {
        if reply.status != Some(400) {
            problems.push(format!("{what} got {}, not HTTP 400", reply.describe()));
        } else if reply.code() != Some(-32020) {
            notes.push(format!(
                "{what} got HTTP 400 with {}, not -32020 (HeaderMismatch)",
                reply.describe()
            ));
        }
    }

    fn expect_accepted(problems: &mut Problems, what: &str, reply: &Received) {
        let rejected = reply.code() == Some(-32020) || reply.status == Some(400);
        if rejected || reply.response.is_none() {
            problems.push(format!(
                "{what} got {}, but it must be served",
                reply.describe()
            ));
        }
    }

    fn finding(problems: Problems, notes: Vec<String>) -> Observed {
        match problems.into_finding() {
            Observed::Holds(_) if !notes.is_empty() => Observed::Holds(Some(notes.join("; "))),
            other => other,
        }
    }

    pub(crate) async fn method_header(p: &mut Probe, facts: &StatelessFacts) -> Checked {
        let method = facts.list_method();
        let other = match method {
            "tools/list" => "prompts/list",
            _ => "tools/list",
        };
        let upper = method.to_uppercase();
        let mut problems = Problems::default();
        let mut notes = Vec::new();
        let cases: [(Option<&str>, String); 3] = [
            (Some(other), format!("{method} with Mcp-Method: {other}")),
            (None, format!("{method} without Mcp-Method")),
            (Some(&upper), format!("{method} with Mcp-Method: {upper}")),
        ];
        for (header, what) in cases {
            let mut sent = headers(&[("MCP-Protocol-Version", STATELESS)]);
            if let Some(header) = header {
                sent.push(("Mcp-Method".into(), header.into()));
            }
            let build = |id| stateless(id, method, Value::Null, meta(STATELESS));
            let (_, reply) = p.open_call(build, Headers::Exactly(sent)).await?;
            expect_rejected(&mut problems, &mut notes, &what, &reply);
        }
        // Header names are case-insensitive: the same request with a
        // lower-case name must be served, or rejecting proves nothing.
        let sent = headers(&[("mcp-protocol-version", STATELESS), ("mcp-method", method)]);
        let build = |id| stateless(id, method, Value::Null, meta(STATELESS));
        let (_, reply) = p.open_call(build, Headers::Exactly(sent)).await?;
        if reply.result().is_none() {
            problems.push(format!(
                "{method} with a matching mcp-method header (lower-case name) got {}, not a result",
                reply.describe()
            ));
        }
        Ok(finding(problems, notes))
    }

    pub(crate) async fn name_header(p: &mut Probe, facts: &StatelessFacts) -> Checked {
        let declared = facts
            .discover
            .as_ref()
            .and_then(|d| d.get("capabilities"))
            .is_some_and(|c| declares(c, "tools"));
        if !declared {
            return Err(Observed::NotApplicable(
                "server/discover does not declare the tools capability".into(),
            ));
        }
        let build = |id| stateless(id, "tools/list", Value::Null, meta(STATELESS));
        let (_, reply) = p.open_call(build, Headers::Quietly).await?;
        let tool = reply
            .result()
            .and_then(|r| r.get("tools"))
            .and_then(Value::as_array)
            .and_then(|tools| harmless_tool(tools))
            .map(|t| tool_name(t).to_owned());
        let Some(tool) = tool else {
            return Err(Observed::NotApplicable(format!(
                "tools/list gave no tool to call (it got {})",
                reply.describe()
            )));
        };
        let mut problems = Problems::default();
        let mut notes = Vec::new();
        let call = |id: Value| {
            stateless(
                id,
                "tools/call",
                json!({ "name": tool, "arguments": {} }),
                meta(STATELESS),
            )
        };
        let base = headers(&[
            ("MCP-Protocol-Version", STATELESS),
            ("Mcp-Method", "tools/call"),
        ]);
        let wrong = format!("{tool}-not-this-one");
        let padded = format!("  {tool}  ");
        let cases = [
            (
                Some(wrong.as_str()),
                format!("tools/call {tool:?} with Mcp-Name: {wrong}"),
                false,
            ),
            (None, format!("tools/call {tool:?} without Mcp-Name"), false),
            (
                Some(padded.as_str()),
                format!("tools/call {tool:?} with Mcp-Name {padded:?} (whitespace around it)"),
                true,
            ),
        ];
        for (name, what, accept) in cases {
            let mut sent = base.clone();
            if let Some(name) = name {
                sent.push(("Mcp-Name".into(), name.into()));
            }
            let (_, reply) = p.open_call(&call, Headers::Exactly(sent)).await?;
            match accept {
                true => expect_accepted(&mut problems, &what, &reply),
                false => expect_rejected(&mut problems, &mut notes, &what, &reply),
            }
        }
        Ok(finding(problems, notes))
    }

    /// The tool least likely to do anything when called with `{}` (a
    /// server that ignores the headers runs it): a read-only one, else one
    /// with required arguments (the call is an input error), else the first.
    fn harmless_tool(tools: &[Value]) -> Option<&Value> {
        let read_only = |t: &&Value| t["annotations"]["readOnlyHint"] == json!(true);
        let needs_arguments = |t: &&Value| {
            t["inputSchema"]["required"]
                .as_array()
                .is_some_and(|r| !r.is_empty())
        };
        tools
            .iter()
            .find(read_only)
            .or_else(|| tools.iter().find(needs_arguments))
            .or_else(|| tools.first())
    }

    /// A tool with a string argument annotated `x-mcp-header`: the tool,
    /// the argument and the header suffix.
    fn routed_tool(tools: &[Value]) -> Option<(&Value, String, String)> {
        tools.iter().find_map(|tool| {
            let properties = tool["inputSchema"]["properties"].as_object()?;
            properties.iter().find_map(|(name, schema)| {
                let suffix = schema.get("x-mcp-header")?.as_str()?;
                (schema["type"] == "string").then(|| (tool, name.clone(), suffix.to_owned()))
            })
        })
    }

    /// Arguments for the tool's other required parameters, by type, and
    /// the headers the annotated ones among them need.
    fn other_arguments(
        tool: &Value,
        skip: &str,
    ) -> (serde_json::Map<String, Value>, Vec<(String, String)>) {
        let mut arguments = serde_json::Map::new();
        let mut headers = Vec::new();
        let required = tool["inputSchema"]["required"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for name in required
            .iter()
            .filter_map(Value::as_str)
            .filter(|n| *n != skip)
        {
            let schema = &tool["inputSchema"]["properties"][name];
            let value = match schema["type"].as_str() {
                Some("number" | "integer") => json!(0),
                Some("boolean") => json!(false),
                _ => json!("mcptest"),
            };
            if let Some(suffix) = schema.get("x-mcp-header").and_then(Value::as_str) {
                let text = match &value {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                headers.push((format!("Mcp-Param-{suffix}"), text));
            }
            arguments.insert(name.to_owned(), value);
        }
        (arguments, headers)
    }

    pub(crate) async fn custom_headers(p: &mut Probe) -> Checked {
        let ch = p.open().await?;
        let (tools, _) = list_all(p, ch, "tools/list", "tools", Some(&meta(STATELESS)), false)
            .await
            .map_err(|finding| match finding {
                Observed::Broken(why) => {
                    Observed::NotApplicable(format!("no tools to look at: {why}"))
                }
                other => other,
            })?;
        let Some((tool, argument, suffix)) = routed_tool(&tools) else {
            return Err(Observed::NotApplicable(
                "no tool has a string argument annotated x-mcp-header".into(),
            ));
        };
        let name = tool_name(tool).to_owned();
        let (mut arguments, extra) = other_arguments(tool, &argument);
        arguments.insert(argument.clone(), json!("Hello"));
        let header = format!("Mcp-Param-{suffix}");
        let mut problems = Problems::default();
        let mut notes = Vec::new();
        let cases = [
            (Some("Hello"), "the same value", true),
            (Some("=?base64?SGVsbG8=?="), "the value in Base64", true),
            (None, "no header", false),
            (Some("Goodbye"), "another value", false),
        ];
        for (value, how, accept) in cases {
            let call = |id| {
                stateless(
                    id,
                    "tools/call",
                    json!({ "name": name, "arguments": arguments }),
                    meta(STATELESS),
                )
            };
            let mut sent = headers(&[
                ("MCP-Protocol-Version", STATELESS),
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", &name),
            ]);
            sent.extend(extra.iter().cloned());
            if let Some(value) = value {
                sent.push((header.clone(), value.to_owned()));
            }
            let what =
                format!("tools/call {name:?} with {argument}: \"Hello\" and {how} in {header}");
            let (_, reply) = p.open_call(call, Headers::Exactly(sent)).await?;
            match accept {
                true => expect_accepted(&mut problems, &what, &reply),
                false => expect_rejected(&mut problems, &mut notes, &what, &reply),
            }
        }
        Ok(finding(problems, notes))
    }

    fn is_localhost(url: &str) -> bool {
        reqwest::Url::parse(url).is_ok_and(|url| {
            matches!(
                url.host_str(),
                Some("localhost" | "127.0.0.1" | "[::1]" | "::1")
            )
        })
    }

    pub(crate) async fn dns_rebinding(p: &mut Probe) -> Checked {
        let http = p.raw_http().expect("an HTTP probe has a client");
        if !is_localhost(http.url()) {
            return Err(Observed::NotApplicable(format!(
                "{} is not on localhost; the rule protects local servers",
                http.url()
            )));
        }
        let evil = "evil.example.com";
        let sent = headers(&[("Host", evil), ("Origin", &format!("http://{evil}"))]);
        let init = |id| request(id, "initialize", initialize_params(CLASSIC));
        let (_, reply) = p.open_call(init, Headers::Exactly(sent)).await?;
        match reply.status {
            Some(status) if (400..500).contains(&status) => Ok(Observed::holds()),
            _ => Ok(Observed::Broken(format!(
                "initialize with Host: {evil} and Origin: http://{evil} got {}, not HTTP 4xx",
                reply.describe()
            ))),
        }
    }

    /// `initialize` on a fresh channel, recorded, and the session id it
    /// handed out; the channel then carries the session.
    async fn session(p: &mut Probe) -> Result<(Ch, String), Observed> {
        let (ch, _) = p.classic_session().await?;
        match p.session_id(ch) {
            Some(session) => Ok((ch, session)),
            None => Err(Observed::NotApplicable(
                "initialize gave no Mcp-Session-Id: the server keeps no sessions".into(),
            )),
        }
    }

    pub(crate) async fn session_terminated(p: &mut Probe) -> Checked {
        let (ch, _) = session(p).await?;
        let http = p.raw_http().expect("an HTTP probe has a client");
        let sent = p.session_headers(ch);
        let (reply, response) = http_send(&http, None, &sent).await;
        p.record(Exchange {
            transport: Transport::Http,
            request: RawRequest {
                method: Some("DELETE"),
                headers: sent,
                body: String::new(),
            },
            response,
        });
        match reply.status {
            Some(405) => {
                return Err(Observed::NotApplicable(
                    "DELETE got HTTP 405: the server does not let clients end sessions".into(),
                ));
            }
            Some(status) if (200..300).contains(&status) => {}
            _ => {
                return Ok(Observed::Broken(format!(
                    "DELETE with the session id got {}, not 2xx (or 405)",
                    reply.describe()
                )));
            }
        }
        let id = p.id();
        let reply = p.call(ch, request(id, "ping", Value::Null)).await;
        match reply.status {
            Some(404) => Ok(Observed::holds()),
            _ => Ok(Observed::Broken(format!(
                "ping with the ended session's id got {}, not HTTP 404",
                reply.describe()
            ))),
        }
    }

    pub(crate) async fn session_id_visible_ascii(p: &mut Probe) -> Checked {
        let (_, reply) = p
            .open_call(
                |id| request(id, "initialize", initialize_params(CLASSIC)),
                Headers::Derived,
            )
            .await?;
        if reply.result().is_none() {
            return Ok(Observed::Broken(format!(
                "initialize got {}",
                reply.describe()
            )));
        }
        let session = reply
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("mcp-session-id"))
            .map(|(_, v)| v.clone());
        let Some(session) = session else {
            return Err(Observed::NotApplicable(
                "initialize gave no Mcp-Session-Id: the server keeps no sessions".into(),
            ));
        };
        let bad: Vec<String> = session
            .chars()
            .filter(|c| !('\u{21}'..='\u{7e}').contains(c))
            .map(|c| format!("U+{:04X}", c as u32))
            .collect();
        match bad.is_empty() && !session.is_empty() {
            true => Ok(Observed::holds()),
            false if session.is_empty() => Ok(Observed::Broken(
                "initialize gave an empty Mcp-Session-Id".into(),
            )),
            false => Ok(Observed::Broken(format!(
                "initialize gave Mcp-Session-Id {session:?}, which holds {}",
                bad.join(", ")
            ))),
        }
    }

    pub(crate) async fn multiple_streams(p: &mut Probe, facts: &ClassicFacts) -> Checked {
        let (ch, _) = session(p).await?;
        let http = p.raw_http().expect("an HTTP probe has a client");
        let method = match declares(&facts.capabilities, "tools") {
            true => "tools/list",
            false => "ping",
        };
        let mut sent = p.session_headers(ch);
        sent.push((
            "Accept".into(),
            "text/event-stream, application/json".into(),
        ));
        let messages: Vec<Value> = (0..STREAMS)
            .map(|_| request(p.id(), method, Value::Null))
            .collect();
        let replies = futures::future::join_all(
            messages
                .iter()
                .map(|m| http_send(&http, Some(m.to_string()), &sent)),
        )
        .await;
        let mut problems = Problems::default();
        for (message, (reply, response)) in messages.iter().zip(replies) {
            let id = &message["id"];
            p.record(Exchange {
                transport: Transport::Http,
                request: RawRequest {
                    method: None,
                    headers: sent.clone(),
                    body: message.to_string(),
                },
                response,
            });
            let answered = reply.result().is_some() && reply.id() == Some(id);
            if !answered || !reply.status.is_some_and(|s| (200..300).contains(&s)) {
                problems.push(format!(
                    "{method} id {id}, sent with {} others at once, got {}",
                    STREAMS - 1,
                    reply.describe()
                ));
            }
        }
        Ok(problems.into_finding())
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn the_tool_called_is_the_least_likely_to_act() {
            let tools = [
                json!({"name": "wipe", "inputSchema": {"type": "object"}}),
                json!({"name": "add", "inputSchema": {"type": "object", "required": ["a"]}}),
                json!({"name": "look", "annotations": {"readOnlyHint": true}}),
            ];
            assert_eq!(harmless_tool(&tools).unwrap()["name"], "look");
            assert_eq!(harmless_tool(&tools[..2]).unwrap()["name"], "add");
            assert_eq!(harmless_tool(&tools[..1]).unwrap()["name"], "wipe");
            assert!(harmless_tool(&[]).is_none());
        }

        #[test]
        fn the_routed_tool_and_its_other_arguments_are_found() {
            let tools = [
                json!({"name": "plain", "inputSchema": {"type": "object"}}),
                json!({"name": "route", "inputSchema": {"type": "object",
                    "properties": {
                        "count": {"type": "integer", "x-mcp-header": "Count"},
                        "region": {"type": "string", "x-mcp-header": "Region"},
                        "flag": {"type": "boolean"}
                    },
                    "required": ["region", "count", "flag"]}}),
            ];
            let (tool, argument, suffix) = routed_tool(&tools).unwrap();
            assert_eq!(
                (tool["name"].as_str(), argument.as_str(), suffix.as_str()),
                (Some("route"), "region", "Region")
            );
            let (arguments, headers) = other_arguments(tool, "region");
            assert_eq!(Value::Object(arguments), json!({"count": 0, "flag": false}));
            assert_eq!(headers, [("Mcp-Param-Count".to_owned(), "0".to_owned())]);
            assert!(routed_tool(&tools[..1]).is_none());
        }

        #[test]
        fn localhost_is_told_by_the_url_host() {
            assert!(is_localhost("http://127.0.0.1:3001/mcp"));
            assert!(is_localhost("http://localhost/mcp"));
            assert!(is_localhost("http://[::1]:8080/mcp"));
            assert!(!is_localhost("https://example.com/mcp"));
        }
    }
}

pub(crate) use checks::*;
