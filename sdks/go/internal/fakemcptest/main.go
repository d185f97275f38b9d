// Command fakemcptest stands in for the mcptest binary in the SDK's tests of
// failure paths: it speaks just enough of coprocess v3, then misbehaves in
// the way its own file name says (the tests link it under names such as
// `fake-v1` or `fake-extra-verdict-field`).
//
// It writes its command line to stderr as `argv: [...]` so tests can check
// what the SDK passed.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

var mode = strings.TrimPrefix(filepath.Base(os.Args[0]), "fake-")

var out = bufio.NewWriter(os.Stdout)

func main() {
	argv, _ := json.Marshal(os.Args[1:])
	fmt.Fprintf(os.Stderr, "argv: %s\n", argv)
	if mode == "stubborn" {
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
		child := exec.Command("sleep", "600")
		if err := child.Start(); err == nil {
			fmt.Fprintf(os.Stderr, "child: %d\n", child.Process.Pid)
		}
	}
	if mode == "stderr-flood" {
		flood()
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			if mode == "stubborn" {
				hold()
			}
			return
		}
		var req request
		if json.Unmarshal(line, &req) != nil {
			continue
		}
		if !serve(req) {
			return
		}
	}
}

// flood writes 8 MiB to stderr: more than any pipe holds, so the binary
// would block if the SDK did not drain it.
func flood() {
	chunk := strings.Repeat("x", 1023) + "\n"
	for i := 0; i < 8<<10; i++ {
		fmt.Fprint(os.Stderr, chunk)
	}
	fmt.Fprintln(os.Stderr, "flood: done")
}

func reply(id json.RawMessage, result any) {
	frame := map[string]any{"jsonrpc": "2.0", "id": id, "result": result}
	if mode == "extra-top-field" && !isHandshake {
		frame["trace"] = map[string]any{"span": 1}
	}
	write(frame)
}

func fail(id json.RawMessage, code int, message string, data any) {
	e := map[string]any{"code": code, "message": message}
	if data != nil {
		e["data"] = data
	}
	write(map[string]any{"jsonrpc": "2.0", "id": id, "error": e})
}

func write(frame map[string]any) {
	data, _ := json.Marshal(frame)
	out.Write(append(data, '\n'))
	out.Flush()
}

var isHandshake bool

func hold() { time.Sleep(time.Hour) }

// serve answers one request; false ends the process.
func serve(req request) bool {
	isHandshake = req.Method == "coprocess/handshake"
	if mode == "silent" {
		return true
	}
	if isHandshake {
		return handshake(req)
	}
	switch mode {
	case "hang-call":
		if req.Method == "mcp.call" {
			hold()
		}
	case "garbage":
		fmt.Fprintln(out, "hello from a binary that prints to stdout")
		out.Flush()
		return true
	case "wrong-id":
		reply(json.RawMessage("999"), map[string]any{})
		return true
	case "dies":
		fmt.Fprintln(os.Stderr, "fatal: the fake binary gave up")
		os.Exit(3)
	case "stubborn":
		if req.Method == "mcp.shutdown" {
			return true
		}
	}
	switch req.Method {
	case "mcp.initialize":
		reply(req.ID, map[string]any{
			"serverInfo":      map[string]any{"name": "fake", "version": "0.0.1"},
			"protocolVersion": "2025-11-25",
			"capabilities":    map[string]any{"tools": map[string]any{}},
		})
	case "mcp.call":
		call(req)
	case "mcp.callPrompt":
		fail(req.ID, -32000, "prompt not found", map[string]any{
			"method": "prompts/get", "upstream": map[string]any{"code": -32602, "message": "prompt not found", "data": map[string]any{"name": "nope"}},
		})
	case "mcp.readResource":
		code := 7
		fail(req.ID, -32001, "the MCP server exited (exit status: 7)", map[string]any{
			"method": "resources/read", "exit_code": code, "stderr_tail": "panic: out of cheese\n",
		})
	case "mcp.listTools":
		fail(req.ID, -32603, "tools/list did not answer within 200 ms", map[string]any{"method": "tools/list", "timeout_ms": 200})
	case "suite.list":
		suiteList(req)
	case "suite.run":
		suiteRun(req)
	case "mcp.shutdown":
		reply(req.ID, map[string]any{})
		return false
	default:
		fail(req.ID, -32601, "unknown method `"+req.Method+"`", nil)
	}
	return true
}

func handshake(req request) bool {
	switch mode {
	case "hang-handshake":
		hold()
	case "v1":
		fail(req.ID, -32601, "unknown method `coprocess/handshake`", nil)
		return true
	case "older":
		fail(req.ID, -32602, "coprocess protocol version mismatch: this mcptest binary speaks v2, the go SDK sent v3. "+
			"Upgrade the mcptest binary (or pin the SDK to the matching release).", map[string]any{"binary": 2, "sdk": 3})
		return true
	case "newer":
		fail(req.ID, -32602, "coprocess protocol version mismatch: this mcptest binary speaks v4 to v5, the go SDK sent v3. "+
			"Upgrade the go SDK (or pin the mcptest binary to the matching release).", map[string]any{"binary": []int{4, 5}, "sdk": 3})
		return true
	}
	version := 3
	if mode == "answers-v2" {
		version = 2
	}
	result := map[string]any{
		"protocol_version": version,
		"binary_version":   "0.0.0-fake",
		"methods":          []string{"coprocess/handshake", "mcp.initialize", "mcp.call", "suite.list", "suite.run", "mcp.shutdown"},
		"lanes":            []string{"tool", "resources"},
		"features":         []string{"argv", "suites"},
	}
	if mode == "extra-handshake-field" {
		result["experimental"] = true
	}
	reply(req.ID, result)
	return true
}

func call(req request) {
	var p struct {
		Tool        string         `json:"tool"`
		Arguments   map[string]any `json:"arguments"`
		Passthrough bool           `json:"passthrough"`
	}
	_ = json.Unmarshal(req.Params, &p)
	text, _ := p.Arguments["message"].(string)
	content := []any{map[string]any{"type": "text", "text": text}}
	if p.Passthrough || mode == "passthrough-shape" {
		reply(req.ID, map[string]any{"content": content, "isError": false})
		return
	}
	verdict := map[string]any{
		"success": true, "text": text, "data": nil, "error": nil, "duration_ms": 1,
		"content": content, "messages": []any{}, "logs": []any{},
	}
	if text == "log" {
		verdict["messages"] = []any{map[string]any{"method": "notifications/message", "params": map[string]any{"level": "info", "data": "x"}}}
		verdict["logs"] = []any{map[string]any{"level": "info", "data": "x"}}
	}
	switch mode {
	case "extra-verdict-field":
		verdict["flaky"] = true
	case "missing-verdict-field":
		delete(verdict, "logs")
	case "extra-nested-field":
		verdict["logs"] = []any{map[string]any{"level": "info", "data": "x", "origin": "stderr"}}
	}
	reply(req.ID, verdict)
}

func suiteList(req request) {
	var p struct {
		Paths []string `json:"paths"`
	}
	_ = json.Unmarshal(req.Params, &p)
	if len(p.Paths) == 1 && strings.Contains(p.Paths[0], "broken") {
		fail(req.ID, -32602, p.Paths[0]+":3:5: unknown key `expectt` (did you mean `expect`?)",
			map[string]any{"file": p.Paths[0], "line": 3, "column": 5})
		return
	}
	if len(p.Paths) == 1 && strings.Contains(p.Paths[0], "empty") {
		reply(req.ID, map[string]any{"tests": []any{}})
		return
	}
	file := "evals/fake.yaml"
	test := func(name string, line int, lane string, skip any) map[string]any {
		t := map[string]any{"id": file + "::" + name, "name": name, "file": file, "line": line, "column": 3, "lane": lane, "skip": skip}
		if mode == "extra-listing-field" {
			t["tags"] = []string{"slow"}
		}
		return t
	}
	reply(req.ID, map[string]any{"tests": []any{
		test("passes", 4, "tool", nil),
		test("fails", 9, "tool", nil),
		test("skipped in the file", 14, "tool", map[string]any{"reason": "skip: true in the file"}),
		test("needs the conformance lane", 19, "compliance", map[string]any{"reason": "the compliance lane runs from the command line", "command": "mcptest conformance --server CMD"}),
		test("a lane the handshake does not list", 24, "sampling", nil),
		test("skipped by the runner", 29, "tool", nil),
	}})
}

func suiteRun(req request) {
	var p struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(req.Params, &p)
	name := p.ID[strings.Index(p.ID, "::")+2:]
	verdict := map[string]any{
		"id": p.ID, "name": name, "status": "pass", "duration_ms": 2, "location": "evals/fake.yaml:4:3",
		"failure": nil, "skip_reason": nil, "properties": map[string]any{"params": string(req.Params)},
	}
	switch name {
	case "fails":
		verdict["status"] = "fail"
		verdict["location"] = "evals/fake.yaml:9:3"
		verdict["failure"] = "evals/fake.yaml:9:3: `fails` failed\nexpected text to equal \"5\"\n  got: \"6\""
	case "skipped by the runner":
		verdict["status"] = "skip"
		verdict["location"] = "evals/fake.yaml:29:3"
		verdict["skip_reason"] = "skip_unless_env: SOME_VAR is not set"
	}
	if mode == "echo-params" {
		verdict["status"] = "fail"
		verdict["failure"] = "evals/fake.yaml:4:3: `passes` failed\nparams: " + string(req.Params)
	}
	reply(req.ID, verdict)
}
