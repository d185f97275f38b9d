//! A server's surface as the scans compare and point into it: the
//! [`Surface`] of a live server or of a file (the insta snapshot that
//! `assert_tool_surface_snapshot!` writes, or a JSON/YAML surface), and
//! [`Address`]es — a place in it by list, name and path — that a file read
//! with line numbers turns into a line (the locations of SARIF results).

use std::fmt;

use mcptest_core::{Definitions, Server, WireSchema};
use mcptest_suite_format::{Kind, Node, ToJson, parse_documents};

/// A file that cannot be read as a surface: the file, the line and why.
pub use mcptest_suite_format::LoadError;
use serde_json::Value;

/// One of the four lists of a surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum List {
    /// `tools`, keyed by `name`.
    Tools,
    /// `prompts`, keyed by `name`.
    Prompts,
    /// `resources`, keyed by `uri`.
    Resources,
    /// `resourceTemplates`, keyed by `uriTemplate`.
    ResourceTemplates,
}

impl List {
    /// Every list, in the order a surface holds them.
    pub const ALL: [List; 4] = [
        List::Tools,
        List::Prompts,
        List::Resources,
        List::ResourceTemplates,
    ];

    /// The list's key in a surface: `tools`, `resourceTemplates`.
    ///
    /// ```
    /// use mcptest::scan::surface::List;
    /// assert_eq!(List::ResourceTemplates.key(), "resourceTemplates");
    /// ```
    pub fn key(self) -> &'static str {
        match self {
            List::Tools => "tools",
            List::Prompts => "prompts",
            List::Resources => "resources",
            List::ResourceTemplates => "resourceTemplates",
        }
    }

    /// The field that names an item of the list: `name`, `uri`, `uriTemplate`.
    pub fn id_field(self) -> &'static str {
        match self {
            List::Tools | List::Prompts => "name",
            List::Resources => "uri",
            List::ResourceTemplates => "uriTemplate",
        }
    }

    /// What one item is called in messages: `tool`, `resource template`.
    pub fn noun(self) -> &'static str {
        match self {
            List::Tools => "tool",
            List::Prompts => "prompt",
            List::Resources => "resource",
            List::ResourceTemplates => "resource template",
        }
    }

    /// The list whose key is `key`.
    pub fn of_key(key: &str) -> Option<List> {
        List::ALL.into_iter().find(|l| l.key() == key)
    }
}

/// A place in a surface by name rather than by index, so that it finds the
/// same field in another listing of the same server (the stored snapshot
/// a SARIF result points into, the other side of a drift).
///
/// ```
/// use mcptest::scan::surface::{Address, List};
/// use serde_json::json;
///
/// let listed = json!({"tools": [{"name": "read", "inputSchema": {"properties": {"path": {}}}}]});
/// let address = Address::from_pointer(&listed, "/tools/0/inputSchema/properties/path").unwrap();
/// assert_eq!(address, Address::item(List::Tools, "read").field(["inputSchema", "properties", "path"]));
/// assert_eq!(address.to_string(), "tools/read/inputSchema/properties/path");
/// assert_eq!(address.parameter(), Some("path"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Address {
    /// The list, or `None` for the server as a whole (its `instructions`).
    pub list: Option<List>,
    /// The item's name (or URI); empty for the list as a whole.
    pub name: String,
    /// The path inside the item: object keys, and for lists of named
    /// things (a prompt's `arguments`) the thing's name.
    pub path: Vec<String>,
}

impl Address {
    /// The server as a whole.
    pub fn server() -> Address {
        Address {
            list: None,
            name: String::new(),
            path: Vec::new(),
        }
    }

    /// An item of a list.
    pub fn item(list: List, name: impl Into<String>) -> Address {
        Address {
            list: Some(list),
            name: name.into(),
            path: Vec::new(),
        }
    }

    /// The same address, further in.
    pub fn field<I, S>(mut self, path: I) -> Address
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.path.extend(path.into_iter().map(Into::into));
        self
    }

    /// The address of `pointer`, a JSON pointer into `listed` (a document
    /// with the keys of [`Definitions::to_json`], or a surface): the item's
    /// index becomes its name, and so does the index of a named thing
    /// inside it. A member that is not there (a missing `description`,
    /// which a lint finding points at) stays in the path as written: the
    /// address of where it would go. `None` when the pointer does not
    /// start at an item.
    pub fn from_pointer(listed: &Value, pointer: &str) -> Option<Address> {
        let tokens: Vec<String> = pointer
            .split('/')
            .skip(1)
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect();
        let (first, rest) = tokens.split_first()?;
        let Some(list) = List::of_key(first) else {
            return (first == "instructions").then(Address::server);
        };
        let Some((index, path)) = rest.split_first() else {
            return Some(Address::item(list, ""));
        };
        let mut node = listed.get(list.key())?.get(index.parse::<usize>().ok()?)?;
        let name = node.get(list.id_field())?.as_str()?.to_owned();
        let mut address = Address::item(list, name);
        for (at, token) in path.iter().enumerate() {
            let next = match node {
                Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => node.get(token),
            };
            let Some(next) = next else {
                address.path.extend(path[at..].iter().cloned());
                break;
            };
            let named = match node {
                Value::Array(_) => next.get("name").and_then(Value::as_str),
                _ => None,
            };
            address.path.push(named.unwrap_or(token).to_owned());
            node = next;
        }
        Some(address)
    }

    /// The parameter a tool address is about: the name after
    /// `inputSchema/properties`.
    pub fn parameter(&self) -> Option<&str> {
        match self.path.as_slice() {
            [schema, properties, name, ..]
                if schema == "inputSchema" && properties == "properties" =>
            {
                Some(name)
            }
            [arguments, name, ..] if arguments == "arguments" => Some(name),
            _ => None,
        }
    }

    /// What it is about in words: `tool "read"`, `tool "read" parameter
    /// "path"`, `server instructions`.
    pub fn subject(&self) -> String {
        let Some(list) = self.list else {
            return "server instructions".into();
        };
        if self.name.is_empty() {
            return format!("the {} list", list.noun());
        }
        let item = format!("{} {:?}", list.noun(), self.name);
        match (list, self.parameter()) {
            (List::Tools, Some(name)) => format!("{item} parameter {name:?}"),
            (List::Prompts, Some(name)) => format!("{item} argument {name:?}"),
            _ => item,
        }
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.list {
            None => f.write_str("instructions")?,
            Some(list) if self.name.is_empty() => f.write_str(list.key())?,
            Some(list) => write!(f, "{}/{}", list.key(), self.name)?,
        }
        for segment in &self.path {
            write!(f, "/{segment}")?;
        }
        Ok(())
    }
}

/// A server's surface (see [`Definitions::surface`]), and, when it was
/// read from a file, where in the file each part is written.
#[derive(Debug, Clone)]
pub struct Surface {
    value: Value,
    file: Option<SurfaceFile>,
}

/// A file a surface was read from (or that SARIF results point into),
/// with the YAML tree that remembers each node's line.
#[derive(Debug, Clone)]
pub struct SurfaceFile {
    /// The path as given.
    pub path: String,
    /// The surface document, when the file holds one.
    tree: Option<Node>,
}

impl Surface {
    /// The surface of listed definitions.
    ///
    /// ```
    /// use mcptest::{Definitions, scan::surface::Surface};
    /// let surface = Surface::of(&Definitions::default());
    /// assert_eq!(surface.value()["tools"], serde_json::json!([]));
    /// ```
    pub fn of(definitions: &Definitions) -> Surface {
        Surface {
            value: definitions.surface(),
            file: None,
        }
    }

    /// A surface from a JSON document (a surface, or a document with the
    /// keys of [`Definitions::to_json`], such as a `tools/list` result),
    /// sorted and cleaned as [`Definitions::surface`] does.
    pub fn from_value(value: &Value) -> Surface {
        Surface {
            value: Definitions::surface_of(value),
            file: None,
        }
    }

    /// Reads a stored surface: the `.snap` file `assert_tool_surface_snapshot!`
    /// writes (its header is skipped), or a YAML or JSON file with the keys
    /// `tools`, `prompts`, `resources`, `resourceTemplates` (any of them; a
    /// JSON-RPC response's `result` works too). An error says the file and
    /// the line.
    ///
    /// ```no_run
    /// use mcptest::scan::surface::Surface;
    /// let old = Surface::load("tests/snapshots/surface__the_tool_surface.snap")?;
    /// # Ok::<(), mcptest::scan::surface::LoadError>(())
    /// ```
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Surface, LoadError> {
        let path = path.as_ref();
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| LoadError::file(&shown, format!("cannot read: {e}")))?;
        Surface::parse(&shown, &text)
    }

    /// [`load`](Surface::load) of text at hand; `path` names it in errors
    /// and locations.
    pub fn parse(path: &str, text: &str) -> Result<Surface, LoadError> {
        let docs = parse_documents(path, text)?;
        let Some(doc) = docs.iter().rev().find_map(surface_node) else {
            return Err(LoadError::file(
                path,
                "no surface in this file: expected a mapping with any of the keys `tools`, \
                 `prompts`, `resources`, `resourceTemplates` (the snapshot \
                 `assert_tool_surface_snapshot!` writes, or a JSON/YAML listing)",
            ));
        };
        let value = doc.to_json(path, "a surface")?;
        Ok(Surface {
            value: Definitions::surface_of(&value),
            file: Some(SurfaceFile {
                path: path.to_owned(),
                tree: Some(doc.clone()),
            }),
        })
    }

    /// Lists `server`'s definitions and returns their surface (the server
    /// is closed afterwards). Definitions that break the protocol's schema
    /// are taken as sent: they are the subject.
    pub async fn list(server: &Server) -> Result<Surface, (&'static str, mcptest_core::Error)> {
        Ok(Surface::of(&definitions(server).await?))
    }

    /// The surface as JSON.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The file it was read from, if any.
    pub fn file(&self) -> Option<&SurfaceFile> {
        self.file.as_ref()
    }
}

/// Starts `server`, lists everything it declares a capability for, and
/// closes it. Definitions that break the protocol's schema (an input schema
/// without `type`, say) are warned about on stderr and taken as sent: they
/// are what the scans look at. The error names the request that failed
/// (`initialize`, `tools/list`, ...).
///
/// ```no_run
/// # async fn demo() {
/// use mcptest::{Server, scan::surface::definitions};
/// let defs = definitions(&Server::command("my-server --stdio")).await.unwrap();
/// println!("{} tools", defs.tools.len());
/// # }
/// ```
pub async fn definitions(
    server: &Server,
) -> Result<Definitions, (&'static str, mcptest_core::Error)> {
    let server = server.clone().wire_schema(WireSchema::Warn);
    let mcp = server.connect().await.map_err(|e| ("initialize", e))?;
    let listed = Definitions::list(&mcp).await;
    mcp.close().await;
    listed
}

/// The surface mapping of a document, or of its `result`.
fn surface_node(doc: &Node) -> Option<&Node> {
    let is_surface = |n: &Node| List::ALL.iter().any(|l| n.get(l.key()).is_some());
    if is_surface(doc) {
        return Some(doc);
    }
    doc.get("result").filter(|n| is_surface(n))
}

impl SurfaceFile {
    /// Any file of the repository as an anchor for locations: a surface
    /// file is read with its lines; any other file (or one that does not
    /// parse) is pointed at as a whole, at its first line.
    ///
    /// ```
    /// use mcptest::scan::surface::{Address, List, SurfaceFile};
    ///
    /// let file = SurfaceFile::read("README.md");
    /// assert_eq!(file.line(&Address::item(List::Tools, "add")), (1, 1));
    /// ```
    pub fn read(path: impl AsRef<std::path::Path>) -> SurfaceFile {
        let path = path.as_ref();
        let shown = path.display().to_string();
        match std::fs::read_to_string(path) {
            Ok(text) => match Surface::parse(&shown, &text) {
                Ok(surface) => surface.file.expect("a parsed surface has its file"),
                Err(_) => SurfaceFile {
                    path: shown,
                    tree: None,
                },
            },
            Err(_) => SurfaceFile {
                path: shown,
                tree: None,
            },
        }
    }

    /// The line and column where `address` is written, or where the
    /// nearest thing that holds it is (an item missing from the file: its
    /// list's key; no surface at all: 1:1).
    pub fn line(&self, address: &Address) -> (u64, u64) {
        let Some(tree) = &self.tree else {
            return (1, 1);
        };
        let at = |n: &Node| (n.pos.line.max(1), n.pos.column.max(1));
        let Some(list) = address.list else {
            return at(tree);
        };
        let Some((key, items)) = tree
            .as_map()
            .and_then(|entries| entries.iter().find(|(k, _)| k.as_str() == Some(list.key())))
        else {
            return at(tree);
        };
        let Kind::Seq(items) = &items.kind else {
            return at(key);
        };
        let Some(mut node) = items.iter().find(|item| {
            item.get(list.id_field()).and_then(Node::as_str) == Some(address.name.as_str())
        }) else {
            return at(key);
        };
        let mut found = at(node);
        for segment in &address.path {
            let next = match &node.kind {
                Kind::Map(entries) => entries
                    .iter()
                    .find(|(k, _)| k.as_str() == Some(segment.as_str()))
                    .map(|(k, v)| {
                        found = at(k);
                        v
                    }),
                Kind::Seq(items) => items
                    .iter()
                    .find(|i| i.get("name").and_then(Node::as_str) == Some(segment.as_str()))
                    .or_else(|| items.get(segment.parse::<usize>().ok()?))
                    .inspect(|i| found = at(i)),
                _ => None,
            };
            match next {
                Some(next) => node = next,
                None => break,
            }
        }
        found
    }

    /// True when the file holds a surface whose lines can be pointed at.
    pub fn has_surface(&self) -> bool {
        self.tree.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SNAP: &str = "\
---
source: tests/surface.rs
expression: surface
---
prompts:
  - arguments:
      - name: code
        required: true
    name: review
resourceTemplates: []
resources: []
tools:
  - description: Adds.
    inputSchema:
      properties:
        a:
          type: number
      type: object
    name: add
  - inputSchema:
      type: object
    name: echo
";

    #[test]
    fn an_insta_snapshot_is_read_past_its_header_with_lines() {
        let surface = Surface::parse("s.snap", SNAP).unwrap();
        assert_eq!(surface.value()["tools"][1]["name"], "echo");
        let file = surface.file().unwrap();
        let add = Address::item(List::Tools, "add");
        assert_eq!(file.line(&add), (13, 5));
        assert_eq!(file.line(&add.clone().field(["description"])), (13, 5));
        assert_eq!(
            file.line(&add.clone().field(["inputSchema", "properties", "a"])),
            (16, 9)
        );
        assert_eq!(
            file.line(&add.field(["inputSchema", "properties", "gone"])),
            (15, 7),
            "the nearest thing that holds it"
        );
        assert_eq!(
            file.line(&Address::item(List::Prompts, "review").field(["arguments", "code"])),
            (7, 9)
        );
        assert_eq!(file.line(&Address::item(List::Tools, "new")), (12, 1));
        assert_eq!(file.line(&Address::server()), (5, 1));
    }

    #[test]
    fn json_listings_and_responses_are_surfaces_too() {
        let text = r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "b"}, {"name": "a", "_meta": {"x": 1}}]}}"#;
        let surface = Surface::parse("list.json", text).unwrap();
        assert_eq!(
            surface.value()["tools"],
            json!([{"name": "a"}, {"name": "b"}])
        );
        assert_eq!(surface.value()["prompts"], json!([]));
    }

    #[test]
    fn a_file_without_a_surface_is_an_error_that_says_what_was_expected() {
        let error = Surface::parse("x.yaml", "name: a suite\n").unwrap_err();
        assert!(
            error.to_string().starts_with("x.yaml: no surface"),
            "{error}"
        );
        let error = Surface::parse("x.yaml", "tools: [\n").unwrap_err();
        assert!(error.to_string().contains("invalid YAML"), "{error}");
    }

    #[test]
    fn pointers_become_names() {
        let listed = json!({
            "instructions": "x",
            "prompts": [{"name": "p", "arguments": [{"name": "a"}, {"name": "b", "description": "d"}]}]
        });
        let address = Address::from_pointer(&listed, "/prompts/0/arguments/1/description").unwrap();
        assert_eq!(address.to_string(), "prompts/p/arguments/b/description");
        assert_eq!(address.subject(), "prompt \"p\" argument \"b\"");
        assert_eq!(
            Address::from_pointer(&listed, "/instructions"),
            Some(Address::server())
        );
        // A missing member: where it would go, inside the item.
        let address = Address::from_pointer(&listed, "/prompts/0/arguments/0/description").unwrap();
        assert_eq!(address.to_string(), "prompts/p/arguments/a/description");
        let address = Address::from_pointer(&listed, "/prompts/0/title").unwrap();
        assert_eq!(address.to_string(), "prompts/p/title");
        assert_eq!(Address::from_pointer(&listed, "/prompts/9"), None);
        assert_eq!(Address::from_pointer(&listed, ""), None);
    }
}
