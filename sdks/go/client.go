// The client: one binary per session, the handshake first, then one request
// line out and one response line in, strictly in order, each bounded in
// time; typed results and typed errors.

package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// ProtocolVersion is the coprocess protocol version this SDK speaks: the
// one place the pin is written.
const ProtocolVersion = 3

// SDKVersion is this SDK's release, sent in the handshake.
const SDKVersion = "0.1.0"

// Client is one session with one mcptest binary. Its methods are safe for
// concurrent use; requests are serialized, as the channel requires.
//
//	c := mcptest.Start(t, mcptest.Command("python3", "server.py"))
//	v, err := c.Call(ctx, "echo", map[string]any{"message": "hi"})
type Client struct {
	cfg       config
	proc      *process
	handshake Handshake
	info      *ServerInfo

	mu     sync.Mutex
	nextID int64
	// ended is set when the session can take no more requests: Close, or a
	// failure that left the channel out of step.
	ended     bool
	endCause  error
	closeOnce sync.Once
	closeErr  error
}

// Start spawns the binary for server, performs the handshake and
// mcp.initialize, and registers t.Cleanup to shut the binary down. Any
// failure ends the test with t.Fatal.
//
//	func TestEcho(t *testing.T) {
//		c := mcptest.Start(t, mcptest.Command("python3", "server.py"))
//		v, err := c.Call(context.Background(), "echo", map[string]any{"message": "hi"})
//		if err != nil || v.Text != "hi" { t.Fatalf("echo: %v %+v", err, v) }
//	}
func Start(t testing.TB, server Server, opts ...Option) *Client {
	t.Helper()
	ctx, cancel := testContext(t)
	defer cancel()
	c, err := Connect(ctx, server, opts...)
	if err != nil {
		t.Fatalf("mcptest.Start(%s): %v", server, err)
	}
	t.Cleanup(func() { closeForTest(t, c) })
	return c
}

// closeForTest shuts the binary down at the end of a test; a failure to do
// so fails the test, unless the test failed already (then it is context).
func closeForTest(t testing.TB, c *Client) {
	t.Helper()
	if err := c.Close(); err != nil {
		if t.Failed() {
			t.Logf("%v", err)
		} else {
			t.Errorf("%v", err)
		}
	}
}

// testContext ends at the test binary's deadline (go test -timeout), less
// a moment for the report.
func testContext(t testing.TB) (context.Context, context.CancelFunc) {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if deadline, ok := d.Deadline(); ok {
			return context.WithDeadline(context.Background(), deadline.Add(-time.Second))
		}
	}
	return context.WithCancel(context.Background())
}

// Connect is Start for use outside tests: it returns the error instead of
// failing a test, and the caller must Close the client.
//
//	c, err := mcptest.Connect(ctx, mcptest.Command("./server"))
//	if err != nil { return err }
//	defer c.Close()
func Connect(ctx context.Context, server Server, opts ...Option) (*Client, error) {
	if server.isZero() {
		return nil, errors.New("mcptest: no server given: use mcptest.Command(program, args...) or mcptest.URL(url)")
	}
	c, err := open(ctx, server, opts)
	if err != nil {
		return nil, err
	}
	info, err := c.Initialize(ctx)
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	c.info = info
	return c, nil
}

// Open starts a session without a server under test, for suites (each file
// names its server, or RunTest is given a default) and reporting.
//
//	c, err := mcptest.Open(ctx)
//	tests, err := c.ListSuite(ctx, []string{"evals"}, "")
func Open(ctx context.Context, opts ...Option) (*Client, error) {
	return open(ctx, Server{}, opts)
}

func open(ctx context.Context, server Server, opts []Option) (*Client, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if len(cfg.problems) > 0 {
		return nil, errors.New("mcptest: " + strings.Join(cfg.problems, "; "))
	}
	if problems := cfg.checkServer(server); len(problems) > 0 {
		return nil, errors.New("mcptest: " + strings.Join(problems, "; "))
	}
	return startSession(ctx, cfg, server)
}

func startSession(ctx context.Context, cfg config, server Server) (*Client, error) {
	binary, err := findBinary(cfg.binary)
	if err != nil {
		return nil, err
	}
	proc, err := spawn(binary, cfg.argv(server), cfg.binaryDir)
	if err != nil {
		return nil, err
	}
	c := &Client{cfg: cfg, proc: proc}
	if err := c.shake(ctx); err != nil {
		c.proc.kill()
		c.ended = true
		return nil, err
	}
	return c, nil
}

// shake performs the handshake and checks the pin.
func (c *Client) shake(ctx context.Context) error {
	const method = "coprocess/handshake"
	params := map[string]any{"protocol_version": ProtocolVersion, "sdk": c.cfg.sdkName, "sdk_version": SDKVersion}
	raw, err := c.request(ctx, method, method, params, c.cfg.startTimeout)
	if err != nil {
		var re *RPCError
		if errors.As(err, &re) {
			switch re.Code {
			case -32601:
				return &VersionMismatchError{SDK: ProtocolVersion, Message: fmt.Sprintf(
					"mcptest binary speaks coprocess v1; this SDK needs v%d. Upgrade the mcptest binary "+
						"(cargo install --path mcptest-cli from a clone of mcptest), or pin the SDK to the matching release",
					ProtocolVersion)}
			case -32602:
				return &VersionMismatchError{SDK: ProtocolVersion, Binary: versionsIn(re.Data), Message: re.Message}
			}
		}
		return err
	}
	var peek struct {
		ProtocolVersion json.RawMessage `json:"protocol_version"`
	}
	_ = json.Unmarshal(raw, &peek)
	if string(peek.ProtocolVersion) != fmt.Sprint(ProtocolVersion) {
		got := string(peek.ProtocolVersion)
		if got == "" {
			got = "no version"
		}
		return &VersionMismatchError{SDK: ProtocolVersion, Binary: versionsIn(peek.ProtocolVersion), Message: fmt.Sprintf(
			"coprocess protocol version mismatch: the mcptest binary answered the handshake with %s, this go SDK speaks v%d. "+
				"Upgrade the side that is older (or pin both to the same release).", got, ProtocolVersion)}
	}
	var hs Handshake
	if err := decodeStrict(method, "the handshake result", raw, &hs); err != nil {
		return c.brokeLocked(err)
	}
	c.handshake = hs
	return nil
}

// versionsIn reads the binary's versions from a mismatch's data
// (`{"binary": [2, 3]}` or `{"binary": 2}`) or from a bare version.
func versionsIn(raw json.RawMessage) []int {
	var data struct {
		Binary json.RawMessage `json:"binary"`
	}
	if json.Unmarshal(raw, &data) == nil && len(data.Binary) > 0 {
		raw = data.Binary
	}
	var list []int
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	var one int
	if json.Unmarshal(raw, &one) == nil {
		return []int{one}
	}
	return nil
}

// Handshake is the binary's handshake answer: its version, methods, lanes
// and features.
//
//	fmt.Println(c.Handshake().BinaryVersion)
func (c *Client) Handshake() Handshake { return c.handshake }

// ServerInfo is the MCP server's mcp.initialize answer (nil for a session
// opened without a server).
//
//	fmt.Println(c.ServerInfo().ServerInfo.Name)
func (c *Client) ServerInfo() *ServerInfo { return c.info }

// PID is the binary's process id.
//
//	pid := c.PID()
func (c *Client) PID() int { return c.proc.pid() }

// Stderr is the end of the binary's stderr so far.
//
//	t.Log(c.Stderr())
func (c *Client) Stderr() string { return c.proc.errTail.String() }

// Close shuts the binary down: mcp.shutdown (its answer awaited up to the
// grace period), then up to the grace period for the binary to exit, then a
// kill of its process group. The process is always
// reaped. Close is idempotent; it reports a *ShutdownError when the binary
// had to be killed.
//
//	defer c.Close()
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		wasEnded := c.ended
		c.mu.Unlock()
		var reason string
		if !wasEnded {
			// The grace bounds the answer to mcp.shutdown, then the exit.
			wait := c.cfg.grace
			if wait < 100*time.Millisecond {
				wait = 100 * time.Millisecond
			}
			raw, err := c.request(context.Background(), "mcp.shutdown", "mcp.shutdown", nil, wait)
			if err == nil {
				var empty struct{}
				err = decodeStrict("mcp.shutdown", "the mcp.shutdown result", raw, &empty)
			}
			if err != nil {
				reason = "mcp.shutdown failed: " + err.Error()
			}
		}
		c.mu.Lock()
		c.ended = true
		c.mu.Unlock()
		if c.proc.stop(c.cfg.grace) && reason == "" && !wasEnded {
			reason = fmt.Sprintf("the binary did not exit within %v of mcp.shutdown and was killed", c.cfg.grace)
		}
		if reason != "" {
			c.closeErr = &ShutdownError{Reason: reason, StderrTail: c.Stderr()}
		}
	})
	return c.closeErr
}

// broke ends the session after a failure that leaves the channel out of
// step (a broken frame, no answer): the binary is killed.
func (c *Client) broke(err error) error {
	if pe, ok := err.(*ProtocolError); ok && pe.StderrTail == "" {
		pe.StderrTail = c.Stderr()
	}
	c.ended = true
	c.endCause = err
	c.proc.kill()
	return err
}

// request sends one request and returns its result. called names it for
// messages; wait is the SDK's limit (the context may end it sooner). The
// caller must not hold c.mu.
func (c *Client) request(ctx context.Context, method, called string, params any, wait time.Duration) (json.RawMessage, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return nil, &ClosedError{Called: called, Cause: c.endCause}
	}
	c.nextID++
	id := c.nextID
	frame := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		frame["params"] = params
	}
	data, err := json.Marshal(frame)
	if err != nil {
		return nil, fmt.Errorf("mcptest: %s: the params do not encode as JSON: %w", called, err)
	}
	data = append(data, '\n')

	started := time.Now()
	deadline := started.Add(wait)
	// When the context's deadline is the nearer one, its timer and ours
	// race: the error names the context either way.
	var byContext error
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
		byContext = context.DeadlineExceeded
	}
	if err := c.proc.send(data, deadline); err != nil {
		if ctx.Err() != nil || time.Now().After(deadline) {
			cause := ctx.Err()
			if cause == nil {
				cause = byContext
			}
			return nil, c.broke(&TimeoutError{Called: called, After: time.Since(started), Cause: cause, StderrTail: c.Stderr()})
		}
		return nil, c.broke(c.exitedError(called))
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		select {
		case l, ok := <-c.proc.lines:
			if !ok || l.err != nil {
				return nil, c.broke(c.exitedError(called))
			}
			if len(bytes.TrimSpace(l.data)) == 0 {
				continue
			}
			return c.response(method, called, id, l.data)
		case <-timer.C:
			return nil, c.broke(&TimeoutError{Called: called, After: time.Since(started), Cause: byContext, StderrTail: c.Stderr()})
		case <-ctx.Done():
			return nil, c.broke(&TimeoutError{Called: called, After: time.Since(started), Cause: ctx.Err(), StderrTail: c.Stderr()})
		}
	}
}

// exitedError describes a binary that stopped answering because it exited.
func (c *Client) exitedError(called string) error {
	code := -1
	if c.proc.waitExit(2 * time.Second) {
		code = c.proc.exitCode
	}
	c.proc.settleStderr()
	return &BinaryExitedError{Called: called, ExitCode: code, StderrTail: c.Stderr()}
}

// response checks one response line against the closed envelope and turns
// an error object into its typed error.
func (c *Client) response(method, called string, id int64, line []byte) (json.RawMessage, error) {
	frame := strings.TrimSpace(clip(string(line), 300))
	fail := func(field, detail string) (json.RawMessage, error) {
		return nil, c.broke(&ProtocolError{Method: method, Field: field, Detail: detail, Frame: frame})
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(line, &members); err != nil {
		return fail("", "the line is not a JSON object: "+err.Error())
	}
	for _, k := range sortedKeys(members) {
		switch k {
		case "jsonrpc", "id", "result", "error":
		default:
			return fail("$."+k, fmt.Sprintf("unknown top-level field %q: a response has only jsonrpc, id, and result or error", k))
		}
	}
	if string(members["jsonrpc"]) != `"2.0"` {
		return fail("$.jsonrpc", `"jsonrpc" must be "2.0"`)
	}
	rawID, hasID := members["id"]
	result, hasResult := members["result"]
	errObj, hasError := members["error"]
	if hasResult == hasError {
		return fail("", "a response has exactly one of result and error")
	}
	if !hasID {
		return fail("$.id", "missing field \"id\"")
	}
	if string(rawID) != fmt.Sprint(id) && !(hasError && string(rawID) == "null") {
		return fail("$.id", fmt.Sprintf("the response's id is %s, the request's was %d", rawID, id))
	}
	if hasResult {
		return result, nil
	}
	var wire struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data,omitempty"`
	}
	if err := decodeStrict(method, "the error object", errObj, &wire); err != nil {
		return nil, c.broke(err)
	}
	return nil, c.typedError(method, called, wire.Code, wire.Message, wire.Data)
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// A handful of keys: insertion sort keeps this dependency-free and stable.
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// typedError maps a coprocess error object to its Go type.
func (c *Client) typedError(method, called string, code int, message string, data json.RawMessage) error {
	switch code {
	case -32000:
		var d struct {
			Method   string `json:"method"`
			Tool     string `json:"tool,omitempty"`
			Upstream *struct {
				Code    int             `json:"code"`
				Message string          `json:"message"`
				Data    json.RawMessage `json:"data,omitempty"`
			} `json:"upstream,omitempty"`
		}
		if err := decodeStrict(method, "the data of error -32000", data, &d); err != nil {
			return c.broke(err)
		}
		e := &UpstreamError{Called: called, Method: d.Method, Tool: d.Tool, Code: code, Message: message}
		if d.Upstream != nil {
			e.Code, e.Message, e.Data = d.Upstream.Code, d.Upstream.Message, d.Upstream.Data
		}
		return e
	case -32001:
		var d struct {
			Method     string `json:"method"`
			ExitCode   *int   `json:"exit_code,omitempty"`
			StderrTail string `json:"stderr_tail,omitempty"`
		}
		if err := decodeStrict(method, "the data of error -32001", data, &d); err != nil {
			return c.broke(err)
		}
		return &ConnectionDroppedError{Called: called, Method: d.Method, Message: message, ExitCode: d.ExitCode, StderrTail: d.StderrTail}
	case -32603:
		var d struct {
			Method    string `json:"method"`
			TimeoutMS *int64 `json:"timeout_ms"`
		}
		if len(data) > 0 && json.Unmarshal(data, &d) == nil && d.TimeoutMS != nil {
			return &UpstreamTimeoutError{Called: called, Method: d.Method, Message: message, Timeout: time.Duration(*d.TimeoutMS) * time.Millisecond}
		}
	}
	return &RPCError{Method: method, Called: called, Code: code, Message: message, Data: data}
}

// call sends a request with the SDK's wait for an MCP call and decodes the
// result strictly into target.
func (c *Client) call(ctx context.Context, method, called, what string, params any, target any) error {
	raw, err := c.request(ctx, method, called, params, c.cfg.callTimeout+c.cfg.margin)
	if err != nil {
		return err
	}
	if err := decodeStrict(method, what, raw, target); err != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.broke(err)
	}
	return nil
}

// Initialize sends mcp.initialize: the MCP connection starts if it has not
// yet, and the server's name, version and capabilities come back.
//
//	info, err := c.Initialize(ctx)
func (c *Client) Initialize(ctx context.Context) (*ServerInfo, error) {
	var info ServerInfo
	if err := c.call(ctx, "mcp.initialize", "mcp.initialize", "the mcp.initialize result", nil, &info); err != nil {
		return nil, err
	}
	return &info, nil
}

// Call calls a tool and returns the binary's verdict. A tool that answers
// with isError is a verdict with Success false, not an error; a JSON-RPC
// error upstream is an *UpstreamError.
//
//	v, err := c.Call(ctx, "add", map[string]any{"a": 2, "b": 3})
//	if err != nil { t.Fatal(err) }
//	if v.Text != "5" { t.Errorf("add gave %q", v.Text) }
func (c *Client) Call(ctx context.Context, tool string, arguments map[string]any) (*Verdict, error) {
	called := fmt.Sprintf("mcp.call %q", tool)
	raw, err := c.request(ctx, "mcp.call", called, callParams(tool, arguments, false), c.cfg.callTimeout+c.cfg.margin)
	if err != nil {
		return nil, err
	}
	members := keysOf(raw)
	if _, ok := members["success"]; !ok && members != nil {
		if _, passthrough := members["content"]; passthrough {
			return nil, c.brokeLocked(&ProtocolError{Method: "mcp.call", Field: "$.success",
				Detail: "the result has the passthrough shape (no \"success\", a \"content\" array), but no passthrough was asked for"})
		}
	}
	var v Verdict
	if err := decodeStrict("mcp.call", "the verdict", raw, &v); err != nil {
		return nil, c.brokeLocked(err)
	}
	return &v, nil
}

// CallPassthrough calls a tool and returns the upstream tools/call result
// verbatim (mcp.call with passthrough): what a server returned, before the
// binary's verdict.
//
//	r, err := c.CallPassthrough(ctx, "echo", map[string]any{"message": "hi"})
//	if err == nil && r.IsError { t.Error("echo failed") }
func (c *Client) CallPassthrough(ctx context.Context, tool string, arguments map[string]any) (*ToolResult, error) {
	called := fmt.Sprintf("mcp.call %q (passthrough)", tool)
	raw, err := c.request(ctx, "mcp.call", called, callParams(tool, arguments, true), c.cfg.callTimeout+c.cfg.margin)
	if err != nil {
		return nil, err
	}
	members := keysOf(raw)
	if members == nil {
		return nil, c.brokeLocked(&ProtocolError{Method: "mcp.call", Detail: "the passthrough result is not a JSON object"})
	}
	if _, ok := members["success"]; ok {
		return nil, c.brokeLocked(&ProtocolError{Method: "mcp.call", Field: "$.success",
			Detail: "passthrough was asked for, but the result has the verdict's \"success\" member"})
	}
	content, ok := members["content"]
	if !ok || !bytes.HasPrefix(bytes.TrimSpace(content), []byte("[")) {
		return nil, c.brokeLocked(&ProtocolError{Method: "mcp.call", Field: "$.content",
			Detail: "a passthrough result (a tools/call result) has a \"content\" array"})
	}
	var r ToolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, c.brokeLocked(&ProtocolError{Method: "mcp.call", Detail: "the passthrough result does not decode: " + err.Error()})
	}
	return &r, nil
}

func (c *Client) brokeLocked(err error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.broke(err)
}

func callParams(tool string, arguments map[string]any, passthrough bool) map[string]any {
	params := map[string]any{"tool": tool}
	if arguments != nil {
		params["arguments"] = arguments
	}
	if passthrough {
		params["passthrough"] = true
	}
	return params
}

// ListTools lists the server's tools (every page).
//
//	tools, err := c.ListTools(ctx)
func (c *Client) ListTools(ctx context.Context) ([]Tool, error) {
	var r struct {
		Tools []Tool `json:"tools"`
	}
	err := c.call(ctx, "mcp.listTools", "mcp.listTools", "the tool list", nil, &r)
	return r.Tools, err
}

// ListPrompts lists the server's prompts (every page).
//
//	prompts, err := c.ListPrompts(ctx)
func (c *Client) ListPrompts(ctx context.Context) ([]Prompt, error) {
	var r struct {
		Prompts []Prompt `json:"prompts"`
	}
	err := c.call(ctx, "mcp.listPrompts", "mcp.listPrompts", "the prompt list", nil, &r)
	return r.Prompts, err
}

// ListResources lists the server's resources (every page).
//
//	resources, err := c.ListResources(ctx)
func (c *Client) ListResources(ctx context.Context) ([]Resource, error) {
	var r struct {
		Resources []Resource `json:"resources"`
	}
	err := c.call(ctx, "mcp.listResources", "mcp.listResources", "the resource list", nil, &r)
	return r.Resources, err
}

// ListResourceTemplates lists the server's resource templates (every page).
//
//	templates, err := c.ListResourceTemplates(ctx)
func (c *Client) ListResourceTemplates(ctx context.Context) ([]ResourceTemplate, error) {
	var r struct {
		ResourceTemplates []ResourceTemplate `json:"resourceTemplates"`
	}
	err := c.call(ctx, "mcp.listResourceTemplates", "mcp.listResourceTemplates", "the resource template list", nil, &r)
	return r.ResourceTemplates, err
}

// ReadResource reads one resource (mcp.readResource).
//
//	r, err := c.ReadResource(ctx, "file:///notes.txt")
func (c *Client) ReadResource(ctx context.Context, uri string) (*ReadResourceResult, error) {
	called := fmt.Sprintf("mcp.readResource %q", uri)
	raw, err := c.request(ctx, "mcp.readResource", called, map[string]any{"uri": uri}, c.cfg.callTimeout+c.cfg.margin)
	if err != nil {
		return nil, err
	}
	var r ReadResourceResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, c.brokeLocked(&ProtocolError{Method: "mcp.readResource", Detail: "the resources/read result does not decode: " + err.Error()})
	}
	return &r, nil
}

// GetPrompt gets one prompt with its arguments (mcp.callPrompt).
//
//	p, err := c.GetPrompt(ctx, "greeting", map[string]string{"name": "Ada"})
func (c *Client) GetPrompt(ctx context.Context, name string, arguments map[string]string) (*PromptResult, error) {
	called := fmt.Sprintf("mcp.callPrompt %q", name)
	params := map[string]any{"name": name}
	if arguments != nil {
		params["arguments"] = arguments
	}
	raw, err := c.request(ctx, "mcp.callPrompt", called, params, c.cfg.callTimeout+c.cfg.margin)
	if err != nil {
		return nil, err
	}
	var r PromptResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, c.brokeLocked(&ProtocolError{Method: "mcp.callPrompt", Detail: "the prompts/get result does not decode: " + err.Error()})
	}
	return &r, nil
}

// Messages returns what the server sent on its own since the session's
// last Call or Messages (mcp.messages), and forgets it.
//
//	m, err := c.Messages(ctx)
func (c *Client) Messages(ctx context.Context) (*Messages, error) {
	var m Messages
	if err := c.call(ctx, "mcp.messages", "mcp.messages", "the mcp.messages result", map[string]any{}, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// Record adds a test result of the caller's own to the session's report
// (mcp.reporter.record).
//
//	err := c.Record(ctx, mcptest.Record{Name: "TestAdd", Status: "pass", Duration: time.Second})
func (c *Client) Record(ctx context.Context, r Record) error {
	switch r.Status {
	case "pass", "fail", "skip":
	default:
		return fmt.Errorf("mcptest: Record %q: status is pass, fail or skip, not %q", r.Name, r.Status)
	}
	params := map[string]any{"name": r.Name, "status": r.Status}
	if r.Duration > 0 {
		params["duration_ms"] = r.Duration.Milliseconds()
	}
	if r.Message != "" {
		params["message"] = r.Message
	}
	if r.File != "" {
		params["file"] = r.File
	}
	if r.Line > 0 {
		params["line"] = r.Line
	}
	var empty struct{}
	return c.call(ctx, "mcp.reporter.record", fmt.Sprintf("mcp.reporter.record %q", r.Name), "the mcp.reporter.record result", params, &empty)
}

// RecordTest records t's own verdict in the session's report when t ends
// (mcp.reporter.record): its name, pass/fail/skip and duration. Call it
// after Start, so that it runs before the binary shuts down.
//
//	c := mcptest.Start(t, srv)
//	c.RecordTest(t)
func (c *Client) RecordTest(t testing.TB) {
	t.Helper()
	started := time.Now()
	t.Cleanup(func() {
		status := "pass"
		switch {
		case t.Failed():
			status = "fail"
		case t.Skipped():
			status = "skip"
		}
		ctx, cancel := context.WithTimeout(context.Background(), c.cfg.callTimeout+c.cfg.margin)
		defer cancel()
		if err := c.Record(ctx, Record{Name: t.Name(), Status: status, Duration: time.Since(started)}); err != nil {
			t.Logf("mcptest: recording %s: %v", t.Name(), err)
		}
	})
}

// SetUpload tells the binary where Flush posts the session's report.
//
//	err := c.SetUpload(ctx, "https://reports.example/api", os.Getenv("REPORT_TOKEN"))
func (c *Client) SetUpload(ctx context.Context, url, token string) error {
	params := map[string]any{"url": url}
	if token != "" {
		params["token"] = token
	}
	var empty struct{}
	return c.call(ctx, "mcp.reporter.setUpload", "mcp.reporter.setUpload", "the mcp.reporter.setUpload result", params, &empty)
}

// Flush posts the session's report (every call, suite test and recorded
// result) to the URL given to SetUpload.
//
//	r, err := c.Flush(ctx)
func (c *Client) Flush(ctx context.Context) (*FlushResult, error) {
	var r FlushResult
	if err := c.call(ctx, "mcp.reporter.flush", "mcp.reporter.flush", "the mcp.reporter.flush result", nil, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// SetCassetteMode records the session's MCP traffic to path, or replays it
// from there (mode: record, replay, auto or off). The current connection
// closes; the next call opens one on the cassette.
//
//	_, err := c.SetCassetteMode(ctx, "record", "testdata/echo.cassette.json")
func (c *Client) SetCassetteMode(ctx context.Context, mode, path string) (*TapeMode, error) {
	return c.setTape(ctx, "mcp.cassette.set_mode", mode, path)
}

// SetCacheMode is SetCassetteMode with the cache's words (read, write,
// readwrite or off); an empty path is the binary's default store.
//
//	_, err := c.SetCacheMode(ctx, "readwrite", "")
func (c *Client) SetCacheMode(ctx context.Context, mode, path string) (*TapeMode, error) {
	return c.setTape(ctx, "mcp.cache.set_mode", mode, path)
}

func (c *Client) setTape(ctx context.Context, method, mode, path string) (*TapeMode, error) {
	params := map[string]any{"mode": mode}
	if path != "" {
		params["path"] = path
	}
	var m TapeMode
	if err := c.call(ctx, method, fmt.Sprintf("%s %q", method, mode), "the "+method+" result", params, &m); err != nil {
		return nil, err
	}
	return &m, nil
}
