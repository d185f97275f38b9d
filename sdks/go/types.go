// Typed results of the coprocess methods. Shapes the coprocess defines are
// closed and decoded strictly (see strict.go); shapes the MCP server sent
// are open (MCP adds fields between revisions): they expose the common
// members and keep the verbatim object in Raw.

package mcptest

import (
	"encoding/json"
	"time"
)

// Handshake is the binary's answer to coprocess/handshake.
//
//	fmt.Println(c.Handshake().BinaryVersion, c.Handshake().Lanes)
type Handshake struct {
	ProtocolVersion int      `json:"protocol_version"`
	BinaryVersion   string   `json:"binary_version"`
	Methods         []string `json:"methods"`
	Lanes           []string `json:"lanes"`
	Features        []string `json:"features"`
}

// HasLane reports whether suite.run drives tests of this lane here.
//
//	if !c.Handshake().HasLane("sampling") { /* ... */ }
func (h Handshake) HasLane(lane string) bool { return contains(h.Lanes, lane) }

// HasMethod reports whether the binary serves this coprocess method.
//
//	ok := c.Handshake().HasMethod("mcp.messages")
func (h Handshake) HasMethod(method string) bool { return contains(h.Methods, method) }

// ServerInfo is the answer to mcp.initialize: who the MCP server says it is.
//
//	fmt.Println(c.ServerInfo().ServerInfo.Name)
type ServerInfo struct {
	ServerInfo struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"serverInfo"`
	ProtocolVersion string `json:"protocolVersion"`
	// Capabilities is the server's capabilities object, verbatim.
	Capabilities json.RawMessage `json:"capabilities"`
}

// Verdict is the binary's verdict on one tool call (mcp.call).
//
//	v, _ := c.Call(ctx, "add", map[string]any{"a": 2, "b": 3})
//	if !v.Success || v.Text != "5" { t.Errorf("add: %+v", v) }
type Verdict struct {
	// Success is true when the tool's result does not have isError: true.
	Success bool `json:"success"`
	// Text is the result's text blocks joined by "\n".
	Text string `json:"text"`
	// Data is structuredContent verbatim ("null" when there is none).
	Data json.RawMessage `json:"data"`
	// Error is the text when the result has isError: true, else nil.
	Error *string `json:"error"`
	// DurationMS is how long the call took, in milliseconds.
	DurationMS int64 `json:"duration_ms"`
	// Content is the result's content blocks as the server sent them.
	Content []ContentBlock `json:"content"`
	// Messages is every notification and request the server sent during the call, in order.
	Messages []Message `json:"messages"`
	// Logs is the notifications/message among Messages.
	Logs []LogEntry `json:"logs"`
}

// Duration is DurationMS as a time.Duration.
//
//	t.Logf("took %v", v.Duration())
func (v *Verdict) Duration() time.Duration { return time.Duration(v.DurationMS) * time.Millisecond }

// HasData reports whether the result carried structuredContent.
//
//	if v.HasData() { _ = v.DecodeData(&report) }
func (v *Verdict) HasData() bool { return len(v.Data) > 0 && string(v.Data) != "null" }

// DecodeData decodes structuredContent into target.
//
//	var w struct{ City string `json:"city"` }
//	err := v.DecodeData(&w)
func (v *Verdict) DecodeData(target any) error { return json.Unmarshal(v.Data, target) }

// Message is one notification or request the server sent on its own. For a
// request, ID is its id and Reply the answer the binary gave it.
//
//	for _, m := range v.Messages { fmt.Println(m.Method) }
type Message struct {
	Method string `json:"method"`
	// Params is the message's params as sent ("null" when it had none).
	Params json.RawMessage `json:"params"`
	ID     json.RawMessage `json:"id,omitempty"`
	Reply  json.RawMessage `json:"reply,omitempty"`
}

// LogEntry is one notifications/message: level, logger (may be empty) and data.
//
//	for _, l := range v.Logs { fmt.Println(l.Level, string(l.Data)) }
type LogEntry struct {
	Level  string          `json:"level"`
	Logger string          `json:"logger,omitempty"`
	Data   json.RawMessage `json:"data"`
}

// Messages is the answer to mcp.messages: what the server sent on its own
// since the session's last mcp.call or mcp.messages.
//
//	m, _ := c.Messages(ctx); fmt.Println(len(m.Messages))
type Messages struct {
	Messages []Message  `json:"messages"`
	Logs     []LogEntry `json:"logs"`
}

// verbatim is the part every MCP object shares: its verbatim JSON.
type verbatim struct {
	// Raw is the object exactly as the server sent it.
	Raw json.RawMessage `json:"-"`
}

// decodeOpen decodes an open MCP object leniently into fields and keeps raw.
func decodeOpen(data []byte, fields any, raw *json.RawMessage) error {
	if err := json.Unmarshal(data, fields); err != nil {
		return err
	}
	*raw = append(json.RawMessage(nil), data...)
	return nil
}

// ContentBlock is one content block of a tool result or a prompt message
// (text, image, audio, resource, resource_link, ...).
//
//	if b.Type == "text" { fmt.Println(b.Text) }
type ContentBlock struct {
	Type     string
	Text     string
	Data     string
	MimeType string
	URI      string
	// Resource is the embedded resource of a "resource" block, verbatim.
	Resource json.RawMessage
	verbatim
}

// UnmarshalJSON decodes an open MCP content block.
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	var f struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Data     string          `json:"data"`
		MimeType string          `json:"mimeType"`
		URI      string          `json:"uri"`
		Resource json.RawMessage `json:"resource"`
	}
	if err := decodeOpen(data, &f, &b.Raw); err != nil {
		return err
	}
	b.Type, b.Text, b.Data, b.MimeType, b.URI, b.Resource = f.Type, f.Text, f.Data, f.MimeType, f.URI, f.Resource
	return nil
}

// ToolResult is the upstream tools/call result verbatim (mcp.call with
// passthrough): what a server returned, before the binary's verdict.
//
//	r, _ := c.CallPassthrough(ctx, "echo", map[string]any{"message": "hi"})
//	if r.IsError { t.Error(r.Content) }
type ToolResult struct {
	Content           []ContentBlock
	StructuredContent json.RawMessage
	IsError           bool
	Meta              json.RawMessage
	verbatim
}

// UnmarshalJSON decodes an open tools/call result.
func (r *ToolResult) UnmarshalJSON(data []byte) error {
	var f struct {
		Content           []ContentBlock  `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
		Meta              json.RawMessage `json:"_meta"`
	}
	if err := decodeOpen(data, &f, &r.Raw); err != nil {
		return err
	}
	r.Content, r.StructuredContent, r.IsError, r.Meta = f.Content, f.StructuredContent, f.IsError, f.Meta
	return nil
}

// Tool is one entry of tools/list.
//
//	for _, tool := range tools { fmt.Println(tool.Name, tool.Description) }
type Tool struct {
	Name         string
	Title        string
	Description  string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	Annotations  json.RawMessage
	verbatim
}

// UnmarshalJSON decodes an open MCP tool.
func (t *Tool) UnmarshalJSON(data []byte) error {
	var f struct {
		Name         string          `json:"name"`
		Title        string          `json:"title"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
		Annotations  json.RawMessage `json:"annotations"`
	}
	if err := decodeOpen(data, &f, &t.Raw); err != nil {
		return err
	}
	t.Name, t.Title, t.Description, t.InputSchema, t.OutputSchema, t.Annotations =
		f.Name, f.Title, f.Description, f.InputSchema, f.OutputSchema, f.Annotations
	return nil
}

// Prompt is one entry of prompts/list.
//
//	for _, p := range prompts { fmt.Println(p.Name, len(p.Arguments)) }
type Prompt struct {
	Name        string
	Title       string
	Description string
	Arguments   []PromptArgument
	verbatim
}

// PromptArgument is one argument a prompt takes.
//
//	if arg.Required { fmt.Println(arg.Name) }
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// UnmarshalJSON decodes an open MCP prompt.
func (p *Prompt) UnmarshalJSON(data []byte) error {
	var f struct {
		Name        string           `json:"name"`
		Title       string           `json:"title"`
		Description string           `json:"description"`
		Arguments   []PromptArgument `json:"arguments"`
	}
	if err := decodeOpen(data, &f, &p.Raw); err != nil {
		return err
	}
	p.Name, p.Title, p.Description, p.Arguments = f.Name, f.Title, f.Description, f.Arguments
	return nil
}

// Resource is one entry of resources/list.
//
//	for _, r := range resources { fmt.Println(r.URI, r.MimeType) }
type Resource struct {
	URI         string
	Name        string
	Title       string
	Description string
	MimeType    string
	verbatim
}

// UnmarshalJSON decodes an open MCP resource.
func (r *Resource) UnmarshalJSON(data []byte) error {
	var f struct {
		URI         string `json:"uri"`
		Name        string `json:"name"`
		Title       string `json:"title"`
		Description string `json:"description"`
		MimeType    string `json:"mimeType"`
	}
	if err := decodeOpen(data, &f, &r.Raw); err != nil {
		return err
	}
	r.URI, r.Name, r.Title, r.Description, r.MimeType = f.URI, f.Name, f.Title, f.Description, f.MimeType
	return nil
}

// ResourceTemplate is one entry of resources/templates/list.
//
//	for _, rt := range templates { fmt.Println(rt.URITemplate) }
type ResourceTemplate struct {
	URITemplate string
	Name        string
	Title       string
	Description string
	MimeType    string
	verbatim
}

// UnmarshalJSON decodes an open MCP resource template.
func (r *ResourceTemplate) UnmarshalJSON(data []byte) error {
	var f struct {
		URITemplate string `json:"uriTemplate"`
		Name        string `json:"name"`
		Title       string `json:"title"`
		Description string `json:"description"`
		MimeType    string `json:"mimeType"`
	}
	if err := decodeOpen(data, &f, &r.Raw); err != nil {
		return err
	}
	r.URITemplate, r.Name, r.Title, r.Description, r.MimeType = f.URITemplate, f.Name, f.Title, f.Description, f.MimeType
	return nil
}

// ResourceContents is one item of a resources/read result: Text for a text
// resource, Blob (base64) for a binary one.
//
//	fmt.Println(r.Contents[0].Text)
type ResourceContents struct {
	URI      string
	MimeType string
	Text     string
	Blob     string
	verbatim
}

// UnmarshalJSON decodes open MCP resource contents.
func (r *ResourceContents) UnmarshalJSON(data []byte) error {
	var f struct {
		URI      string `json:"uri"`
		MimeType string `json:"mimeType"`
		Text     string `json:"text"`
		Blob     string `json:"blob"`
	}
	if err := decodeOpen(data, &f, &r.Raw); err != nil {
		return err
	}
	r.URI, r.MimeType, r.Text, r.Blob = f.URI, f.MimeType, f.Text, f.Blob
	return nil
}

// ReadResourceResult is the resources/read result (mcp.readResource).
//
//	r, _ := c.ReadResource(ctx, "fixture://static/text")
//	fmt.Println(r.Contents[0].Text)
type ReadResourceResult struct {
	Contents []ResourceContents
	verbatim
}

// UnmarshalJSON decodes an open resources/read result.
func (r *ReadResourceResult) UnmarshalJSON(data []byte) error {
	var f struct {
		Contents []ResourceContents `json:"contents"`
	}
	if err := decodeOpen(data, &f, &r.Raw); err != nil {
		return err
	}
	r.Contents = f.Contents
	return nil
}

// PromptMessage is one message of a prompts/get result.
//
//	fmt.Println(m.Role, m.Content.Text)
type PromptMessage struct {
	Role    string       `json:"role"`
	Content ContentBlock `json:"content"`
}

// PromptResult is the prompts/get result (mcp.callPrompt).
//
//	p, _ := c.GetPrompt(ctx, "greeting", map[string]string{"name": "Ada"})
//	fmt.Println(p.Messages[0].Content.Text)
type PromptResult struct {
	Description string
	Messages    []PromptMessage
	verbatim
}

// UnmarshalJSON decodes an open prompts/get result.
func (p *PromptResult) UnmarshalJSON(data []byte) error {
	var f struct {
		Description string          `json:"description"`
		Messages    []PromptMessage `json:"messages"`
	}
	if err := decodeOpen(data, &f, &p.Raw); err != nil {
		return err
	}
	p.Description, p.Messages = f.Description, f.Messages
	return nil
}

// FlushResult is the answer to mcp.reporter.flush.
//
//	r, _ := c.Flush(ctx); fmt.Println(r.Status, r.Results)
type FlushResult struct {
	Uploaded bool `json:"uploaded"`
	Status   int  `json:"status"`
	Results  int  `json:"results"`
}

// TapeMode is the answer to mcp.cassette.set_mode and mcp.cache.set_mode.
//
//	m, _ := c.SetCassetteMode(ctx, "record", "calls.json"); fmt.Println(m.Path)
type TapeMode struct {
	Mode string `json:"mode"`
	Path string `json:"path"`
}

// Record is one test result the SDK's caller adds to the session's report
// (mcp.reporter.record). Status is "pass", "fail" or "skip".
//
//	err := c.Record(ctx, mcptest.Record{Name: "TestAdd", Status: "pass"})
type Record struct {
	Name     string
	Status   string
	Duration time.Duration
	Message  string
	File     string
	Line     int
}

// SuiteTest is one test of a suite file, as suite.list lists it.
//
//	tests, _ := c.ListSuite(ctx, []string{"evals"}, "")
//	fmt.Println(tests[0].File, tests[0].Line, tests[0].Name)
type SuiteTest struct {
	// ID identifies the test for RunTest; it is opaque.
	ID     string `json:"id"`
	Name   string `json:"name"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Lane   string `json:"lane"`
	// Skip is set when the test will not run over this channel.
	Skip *Skip `json:"skip"`
}

// Location is file:line:column.
//
//	fmt.Println(test.Location()) // evals/add.yaml:4:1
func (s SuiteTest) Location() string { return location(s.File, s.Line, s.Column) }

// Skip says why a listed test will not run here, and which command runs it.
//
//	if test.Skip != nil { fmt.Println(test.Skip.Reason, test.Skip.Command) }
type Skip struct {
	Reason  string `json:"reason"`
	Command string `json:"command,omitempty"`
}

// TestVerdict is the binary's verdict on one suite test (suite.run). Status
// is "pass", "fail" or "skip"; Failure is `file:line:column: `name` failed`
// followed by the engine's failure text, exactly as `mcptest run` prints it;
// Properties are the result's labels.
//
//	v, _ := c.RunTest(ctx, test.ID, mcptest.RunOptions{})
//	if v.Status == "fail" { t.Error(*v.Failure) }
type TestVerdict struct {
	ID         string            `json:"id"`
	Name       string            `json:"name"`
	Status     string            `json:"status"`
	DurationMS int64             `json:"duration_ms"`
	Location   string            `json:"location"`
	Failure    *string           `json:"failure"`
	SkipReason *string           `json:"skip_reason"`
	Properties map[string]string `json:"properties"`
}

// Duration is DurationMS as a time.Duration.
//
//	t.Logf("ran in %v", v.Duration())
func (v *TestVerdict) Duration() time.Duration {
	return time.Duration(v.DurationMS) * time.Millisecond
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
