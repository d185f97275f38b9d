// Typed errors of the SDK: one type per way a request can fail, so a test
// can tell them apart with errors.As.

package mcptest

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// BinaryNotFoundError: neither MCPTEST_BIN nor `mcptest` on PATH names a
// binary that can be started.
//
//	var nf *mcptest.BinaryNotFoundError
//	if errors.As(err, &nf) { fmt.Println(nf.Tried) }
type BinaryNotFoundError struct {
	// Tried says where the SDK looked, in order.
	Tried []string
	// Err is the last lookup's error, if any.
	Err error
}

func (e *BinaryNotFoundError) Error() string {
	msg := "mcptest: the mcptest binary was not found (looked at " + strings.Join(e.Tried, ", ") + ")"
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg + ". Install it with `cargo install --path mcptest-cli` from a clone of mcptest, " +
		"then put it on PATH or set MCPTEST_BIN to its absolute path"
}

func (e *BinaryNotFoundError) Unwrap() error { return e.Err }

// VersionMismatchError: the binary does not speak coprocess protocol v3. It
// is returned by the handshake, before any test traffic.
//
//	var vm *mcptest.VersionMismatchError
//	if errors.As(err, &vm) { fmt.Println(vm.Binary, vm.SDK) }
type VersionMismatchError struct {
	// SDK is the version this SDK speaks (ProtocolVersion).
	SDK int
	// Binary lists the versions the binary speaks, when it said so.
	Binary []int
	// Message is the binary's own message, or the SDK's when the binary gave none.
	Message string
}

func (e *VersionMismatchError) Error() string { return "mcptest: " + e.Message }

// ProtocolError: a frame from the binary broke the coprocess v3 contract
// (not JSON, an unknown or missing field, a wrong type, the wrong id). The
// SDK parses strictly so that drift fails loudly instead of misparsing; the
// session is closed after one.
//
//	var pe *mcptest.ProtocolError
//	if errors.As(err, &pe) { fmt.Println(pe.Method, pe.Field) }
type ProtocolError struct {
	// Method is the coprocess method whose answer broke the contract.
	Method string
	// Field is the offending field's JSON path (for example `$.flaky`), when one field is to blame.
	Field string
	// Detail says what is wrong.
	Detail string
	// Frame is the start of the offending line.
	Frame string
	// StderrTail is the end of the binary's stderr.
	StderrTail string
}

func (e *ProtocolError) Error() string {
	detail := e.Detail
	if e.Field != "" && !strings.Contains(detail, e.Field) {
		detail += " (at " + e.Field + ")"
	}
	msg := fmt.Sprintf("mcptest: the binary's answer to %s broke the coprocess v%d contract: %s", e.Method, ProtocolVersion, detail)
	if e.Frame != "" {
		msg += "\n  frame: " + e.Frame
	}
	return msg + tailSuffix(e.StderrTail)
}

// RPCError: the binary answered with a JSON-RPC error that no more specific
// type covers (-32602 invalid params, -32600 a frame the binary refused,
// -32601 an unknown method or a lane it does not drive, -32603 internal).
//
//	var re *mcptest.RPCError
//	if errors.As(err, &re) && re.Code == -32602 { fmt.Println(re.Message) }
type RPCError struct {
	// Method is the coprocess method that was called.
	Method string
	// Called describes the call (for example `mcp.call "add"`).
	Called string
	// Code, Message and Data are the error object's members.
	Code    int
	Message string
	Data    json.RawMessage
}

func (e *RPCError) Error() string {
	msg := fmt.Sprintf("mcptest: %s: the binary answered error %d: %s", e.Called, e.Code, e.Message)
	if len(e.Data) > 0 && string(e.Data) != "null" {
		msg += " (data: " + clip(string(e.Data), 500) + ")"
	}
	return msg
}

// UpstreamError: the MCP server answered the call with a JSON-RPC error
// (coprocess code -32000). Code, Message and Data are the server's.
//
//	var ue *mcptest.UpstreamError
//	if errors.As(err, &ue) { fmt.Println(ue.Code, ue.Message) }
type UpstreamError struct {
	// Called describes the coprocess call (for example `mcp.call "add"`).
	Called string
	// Method is the MCP method the binary sent upstream (for example `tools/call`).
	Method string
	// Tool is the tool's name, for a tool call.
	Tool string
	// Code, Message and Data are the upstream error object's members.
	Code    int
	Message string
	Data    json.RawMessage
}

func (e *UpstreamError) Error() string {
	msg := fmt.Sprintf("mcptest: %s: the MCP server answered %s with error %d: %s", e.Called, e.Method, e.Code, e.Message)
	if len(e.Data) > 0 && string(e.Data) != "null" {
		msg += " (data: " + clip(string(e.Data), 500) + ")"
	}
	return msg
}

// ConnectionDroppedError: the connection to the MCP server dropped or never
// came up (coprocess code -32001); ExitCode and StderrTail are the server's.
//
//	var ce *mcptest.ConnectionDroppedError
//	if errors.As(err, &ce) && ce.ExitCode != nil { fmt.Println(*ce.ExitCode) }
type ConnectionDroppedError struct {
	// Called describes the coprocess call.
	Called string
	// Method is the method the binary names in the error's data.
	Method string
	// Message is the binary's message.
	Message string
	// ExitCode is the server's exit code, when it exited with one.
	ExitCode *int
	// StderrTail is the end of the MCP server's stderr, when the binary had it.
	StderrTail string
}

func (e *ConnectionDroppedError) Error() string {
	msg := fmt.Sprintf("mcptest: %s: the MCP server connection dropped: %s", e.Called, e.Message)
	if e.ExitCode != nil {
		msg += fmt.Sprintf(" (exit code %d)", *e.ExitCode)
	}
	if strings.TrimSpace(e.StderrTail) != "" {
		msg += "\n  the server's stderr ends with:\n" + indent(e.StderrTail)
	}
	return msg
}

// UpstreamTimeoutError: the MCP server did not answer within the binary's
// --call-timeout (coprocess code -32603 with data.timeout_ms). The session
// stays usable.
//
//	var te *mcptest.UpstreamTimeoutError
//	if errors.As(err, &te) { fmt.Println(te.Timeout) }
type UpstreamTimeoutError struct {
	// Called describes the coprocess call.
	Called string
	// Method is the method the binary names in the error's data.
	Method string
	// Message is the binary's message.
	Message string
	// Timeout is the limit that was exceeded.
	Timeout time.Duration
}

func (e *UpstreamTimeoutError) Error() string {
	return fmt.Sprintf("mcptest: %s: the MCP server did not answer within %v: %s", e.Called, e.Timeout, e.Message)
}

// TimeoutError: the binary itself did not answer in time (the SDK's own
// limit: the call timeout plus a margin, or the context's deadline). The
// binary is killed, since the serialized channel cannot be resynchronised.
//
//	var te *mcptest.TimeoutError
//	if errors.As(err, &te) { fmt.Println(te.After) }
type TimeoutError struct {
	// Called describes the request that got no answer.
	Called string
	// After is how long the SDK waited.
	After time.Duration
	// Cause is the context's error when the context ended the wait, else nil.
	Cause error
	// StderrTail is the end of the binary's stderr.
	StderrTail string
}

func (e *TimeoutError) Error() string {
	why := fmt.Sprintf("the mcptest binary did not answer within %v", e.After.Round(time.Millisecond))
	if e.Cause != nil {
		why = fmt.Sprintf("gave up after %v: %v", e.After.Round(time.Millisecond), e.Cause)
	}
	return fmt.Sprintf("mcptest: %s: %s; the binary was stopped", e.Called, why) + tailSuffix(e.StderrTail)
}

func (e *TimeoutError) Unwrap() error { return e.Cause }

// BinaryExitedError: the binary closed its stdout (it exited) while the SDK
// waited for an answer.
//
//	var be *mcptest.BinaryExitedError
//	if errors.As(err, &be) { fmt.Println(be.ExitCode) }
type BinaryExitedError struct {
	// Called describes the request that got no answer.
	Called string
	// ExitCode is the binary's exit code (-1 when killed by a signal or unknown).
	ExitCode int
	// StderrTail is the end of the binary's stderr.
	StderrTail string
}

func (e *BinaryExitedError) Error() string {
	msg := fmt.Sprintf("mcptest: %s: the mcptest binary exited (code %d) without answering", e.Called, e.ExitCode)
	if strings.Contains(e.StderrTail, "unexpected argument") || strings.Contains(e.StderrTail, "unrecognized") {
		msg += "; it rejected the command line, so it is likely older than this SDK (coprocess v" +
			fmt.Sprint(ProtocolVersion) + "): upgrade the mcptest binary"
	}
	return msg + tailSuffix(e.StderrTail)
}

// ClosedError: the client was used after Close, or after an earlier failure
// ended its session (Cause).
//
//	var ce *mcptest.ClosedError
//	if errors.As(err, &ce) { fmt.Println(ce.Cause) }
type ClosedError struct {
	// Called describes the refused request.
	Called string
	// Cause is what ended the session (nil after an ordinary Close).
	Cause error
}

func (e *ClosedError) Error() string {
	if e.Cause == nil {
		return fmt.Sprintf("mcptest: %s: the client is closed", e.Called)
	}
	return fmt.Sprintf("mcptest: %s: the session ended after an earlier failure: %v", e.Called, e.Cause)
}

func (e *ClosedError) Unwrap() error { return e.Cause }

// LoadError: a suite file did not load (suite.list answered -32602 naming
// the file). RunSuite reports it as a collection error.
//
//	var le *mcptest.LoadError
//	if errors.As(err, &le) { fmt.Println(le.File, le.Line) }
type LoadError struct {
	// File is the file that did not load; Line and Column are 0 when unknown.
	File   string
	Line   int
	Column int
	// Message is the loader's message (it starts with file:line:column).
	Message string
}

func (e *LoadError) Error() string {
	if strings.HasPrefix(e.Message, e.File) {
		return "mcptest: suite file did not load: " + e.Message
	}
	return "mcptest: suite file did not load: " + e.Location() + ": " + e.Message
}

// Location is file:line:column, as far as known.
func (e *LoadError) Location() string { return location(e.File, e.Line, e.Column) }

// ShutdownError: Close could not end the binary politely (mcp.shutdown
// failed or the binary outlived the grace period) and killed it.
//
//	if err := c.Close(); err != nil { var se *mcptest.ShutdownError; _ = errors.As(err, &se) }
type ShutdownError struct {
	// Reason says what went wrong.
	Reason string
	// StderrTail is the end of the binary's stderr.
	StderrTail string
}

func (e *ShutdownError) Error() string {
	return "mcptest: shutting the binary down: " + e.Reason + tailSuffix(e.StderrTail)
}

func tailSuffix(tail string) string {
	if strings.TrimSpace(tail) == "" {
		return ""
	}
	return "\n  the binary's stderr ends with:\n" + indent(tail)
}

func indent(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "    " + l
	}
	return strings.Join(lines, "\n")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
