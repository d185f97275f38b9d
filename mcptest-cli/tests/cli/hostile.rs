//! Server text that would act on a terminal or break XML: shown visibly
//! escaped on the terminal and in Markdown, and the JUnit report still
//! parses.

use super::*;
use quick_xml::{Reader, events::Event};

/// `add` answers with text that clears the screen and scrollback, forges a
/// passing summary, hides what follows, and holds U+FFFE, U+FFFF and NUL.
const HOSTILE_CONTRACT: &str = r#"
case: List tools
in: {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
out: {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}}
---
case: Add
in: {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}
out: {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "\u001b[2J\u001b[3J\u001b[32mPASS all 1 passed, 0 failed\u001b[8m \ufffe\uffff\u0000\u0007"}]}}
"#;

fn hostile() -> Workspace {
    let ws = Workspace::new(&[("suite/bad.yaml", FAILING)]);
    ws.write("contract.yaml", HOSTILE_CONTRACT);
    ws
}

/// Every character of the text the XML parser reads, unescaped: fails on
/// anything that is not well-formed.
fn parse_all(xml: &str) -> String {
    let mut reader = Reader::from_str(xml);
    let mut text = String::new();
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => return text,
            Ok(Event::Text(t)) => text.push_str(&t.decode().expect("text decodes")),
            Ok(Event::Start(e) | Event::Empty(e)) => {
                for a in e.attributes() {
                    let a = a.expect("a well-formed attribute");
                    text.push_str(&a.unescape_value().expect("an attribute value"));
                    text.push('\n');
                }
            }
            Ok(_) => {}
            Err(e) => panic!("the JUnit report is not well-formed XML: {e}\n{xml}"),
        }
    }
}

fn forbidden_in_xml(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || c == '\u{fffe}' || c == '\u{ffff}'
}

#[test]
fn server_text_is_escaped_on_the_terminal_and_in_markdown_and_junit_parses() {
    let ws = hostile();
    let out = output(ws.run(&["suite", "--junit", "junit.xml", "--markdown", "summary.md"]));
    assert_eq!(out.code, Some(1), "{out:?}");
    for shown in [&out.stdout, &out.stderr] {
        assert!(
            !shown.contains('\u{1b}'),
            "a raw escape reached the terminal: {out:?}"
        );
        assert!(!shown.contains('\u{7}'), "{out:?}");
    }
    let all = format!("{}{}", out.stdout, out.stderr);
    assert!(
        all.contains("\\u{1b}[2J"),
        "the escape is shown visibly: {out:?}"
    );

    let markdown = ws.read("summary.md");
    assert!(!markdown.chars().any(forbidden_in_xml), "{markdown}");
    assert!(markdown.contains("\\u{1b}[2J"), "{markdown}");

    let xml = ws.read("junit.xml");
    assert!(!xml.chars().any(forbidden_in_xml), "{xml}");
    let text = parse_all(&xml);
    assert!(text.contains("\\u{fffe}\\u{ffff}"), "{text}");
}
