//! What a server lists: the input of the tool-surface snapshot and of the
//! security lint.

use rmcp::model::{Prompt, Resource, ResourceTemplate, Tool};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{client::McpClient, error::Error};

/// What a server lists — tools, prompts, resources, resource templates and
/// its instructions — as [`assert_tool_surface_snapshot!`](crate::assert_tool_surface_snapshot)
/// pins it and the security lint (`mcptest::scan::lint`) reads it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[non_exhaustive]
pub struct Definitions {
    /// The `instructions` of the initialize result.
    pub instructions: Option<String>,
    /// `tools/list`, every page.
    pub tools: Vec<Tool>,
    /// `prompts/list`, every page.
    pub prompts: Vec<Prompt>,
    /// `resources/list`, every page.
    pub resources: Vec<Resource>,
    /// `resources/templates/list`, every page.
    pub resource_templates: Vec<ResourceTemplate>,
}

impl Definitions {
    /// Definitions from a JSON document with any of the keys
    /// `instructions`, `tools`, `prompts`, `resources`, `resourceTemplates`.
    ///
    /// ```
    /// use mcptest::Definitions;
    /// let defs = Definitions::from_json(serde_json::json!({"tools": [
    ///     {"name": "t", "inputSchema": {"type": "object"}}
    /// ]})).unwrap();
    /// assert_eq!(defs.tools.len(), 1);
    /// ```
    pub fn from_json(value: Value) -> Result<Self, serde_json::Error> {
        serde_json::from_value(value)
    }

    /// The document every finding's pointer points into.
    pub fn to_json(&self) -> Value {
        let mut doc = json!({
            "tools": self.tools,
            "prompts": self.prompts,
            "resources": self.resources,
            "resourceTemplates": self.resource_templates,
        });
        if let Some(instructions) = &self.instructions {
            doc["instructions"] = Value::String(instructions.clone());
        }
        doc
    }

    /// How many definitions there are (instructions count as one).
    pub fn len(&self) -> usize {
        usize::from(self.instructions.is_some())
            + self.tools.len()
            + self.prompts.len()
            + self.resources.len()
            + self.resource_templates.len()
    }

    /// True when the server listed nothing to lint.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The tool surface as [`assert_tool_surface_snapshot!`](crate::assert_tool_surface_snapshot)
    /// stores it: tools, prompts, resources and templates with their names,
    /// descriptions, schemas and annotations, each list sorted by name (or
    /// URI), and the fields that change from run to run left out (`_meta`,
    /// a resource's `size` and `annotations.lastModified`). The server's
    /// `instructions` are not part of it.
    ///
    /// ```
    /// use mcptest::Definitions;
    /// use serde_json::json;
    ///
    /// let defs = Definitions::from_json(json!({"tools": [
    ///     {"name": "b", "inputSchema": {"type": "object"}, "_meta": {"id": 7}},
    ///     {"name": "a", "inputSchema": {"type": "object"}}
    /// ]})).unwrap();
    /// let surface = defs.surface();
    /// assert_eq!(surface["tools"][0]["name"], "a");
    /// assert_eq!(surface["tools"][1].get("_meta"), None);
    /// ```
    pub fn surface(&self) -> Value {
        Definitions::surface_of(&self.to_json())
    }

    /// Lists everything `mcp`'s server declares a capability for (tools,
    /// prompts, resources and their templates, every page).
    pub async fn list(mcp: &McpClient) -> Result<Definitions, (&'static str, Error)> {
        let info = mcp.server_info();
        let capabilities = &info.capabilities;
        let mut defs = Definitions {
            instructions: info.instructions.clone(),
            ..Definitions::default()
        };
        if capabilities.tools.is_some() {
            defs.tools = mcp
                .list_tools()
                .await
                .map_err(|e| ("tools/list", e))?
                .into_inner();
        }
        if capabilities.prompts.is_some() {
            defs.prompts = mcp
                .list_prompts()
                .await
                .map_err(|e| ("prompts/list", e))?
                .into_inner();
        }
        if capabilities.resources.is_some() {
            defs.resources = mcp
                .list_resources()
                .await
                .map_err(|e| ("resources/list", e))?
                .into_inner();
            defs.resource_templates = mcp
                .list_resource_templates()
                .await
                .map_err(|e| ("resources/templates/list", e))?
                .into_inner();
        }
        Ok(defs)
    }

    /// The tool surface of a document with the keys of
    /// [`Definitions::to_json`] (or a stored surface): the four lists, each
    /// sorted by name (or URI), without the fields that change from run to run
    /// (`_meta`, a resource's `size`, `annotations.lastModified`) and without
    /// `instructions`. What [`Definitions::surface`] returns, for a surface
    /// read back from a file; applying it twice changes nothing.
    ///
    /// ```
    /// use mcptest::Definitions;
    /// use serde_json::json;
    ///
    /// let surface = Definitions::surface_of(&json!({"tools": [{"name": "b", "_meta": {}}, {"name": "a"}]}));
    /// assert_eq!(surface["tools"], json!([{"name": "a"}, {"name": "b"}]));
    /// assert_eq!(Definitions::surface_of(&surface), surface);
    /// ```
    pub fn surface_of(doc: &Value) -> Value {
        fn sorted(items: Option<&Value>, key: &str) -> Vec<Value> {
            let mut values: Vec<Value> = items
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .cloned()
                .map(|mut value| {
                    if let Value::Object(map) = &mut value {
                        map.remove("_meta");
                        map.remove("size");
                        if let Some(Value::Object(annotations)) = map.get_mut("annotations") {
                            annotations.remove("lastModified");
                        }
                    }
                    value
                })
                .collect();
            values.sort_by(|a, b| {
                let name = |v: &Value| v.get(key).and_then(Value::as_str).map(str::to_owned);
                name(a).cmp(&name(b))
            });
            values
        }
        json!({
            "tools": sorted(doc.get("tools"), "name"),
            "prompts": sorted(doc.get("prompts"), "name"),
            "resources": sorted(doc.get("resources"), "uri"),
            "resourceTemplates": sorted(doc.get("resourceTemplates"), "uriTemplate"),
        })
    }
}
