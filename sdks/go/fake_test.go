//go:build unix

// Failure paths against the fake binary: version mismatches, strict
// frames, typed errors, timeouts, a binary that dies, floods stderr or will
// not stop, and the binary not found.

package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestTheHandshakeComesFirstAndIsKept(t *testing.T) {
	c := Start(t, Command("server"), withFake(t, "ok"))
	hs := c.Handshake()
	if hs.ProtocolVersion != 3 || hs.BinaryVersion != "0.0.0-fake" {
		t.Errorf("handshake = %+v", hs)
	}
	if !hs.HasLane("tool") || hs.HasLane("sampling") || !hs.HasMethod("suite.run") {
		t.Errorf("lanes/methods = %v / %v", hs.Lanes, hs.Methods)
	}
	if c.ServerInfo() == nil || c.ServerInfo().ServerInfo.Name != "fake" {
		t.Errorf("Start did not initialize: %+v", c.ServerInfo())
	}
}

func TestTheServerArgvEnvAndDirReachTheBinaryAsGiven(t *testing.T) {
	c := Start(t, Command("my server", "--flag", "two words", "$HOME", "'quoted'", "a;b"),
		withFake(t, "ok"), WithEnv("API_KEY", "k=v"), WithEnv("EMPTY", ""), WithDir("/srv/data dir"),
		WithCallTimeout(1500*time.Millisecond), WithMaxLineBytes(1<<20))
	want := []string{
		"exec", "--connection-server", "--call-timeout", "1500ms", "--check-frames", "--max-line-bytes", "1048576",
		"--server-env", "API_KEY=k=v", "--server-env", "EMPTY=", "--server-cwd", "/srv/data dir",
		"--", "my server", "--flag", "two words", "$HOME", "'quoted'", "a;b",
	}
	if got := argvOf(t, c.Stderr()); !equalStrings(got, want) {
		t.Errorf("argv\n got: %q\nwant: %q", got, want)
	}
}

func TestAURLServerIsPassedAsAURLAndCheckFramesCanBeTurnedOff(t *testing.T) {
	c := Start(t, URL("http://127.0.0.1:9/mcp"), withFake(t, "ok"), WithCheckFrames(false))
	want := []string{"exec", "--connection-server", "--call-timeout", "30000ms", "--server-url", "http://127.0.0.1:9/mcp"}
	if got := argvOf(t, c.Stderr()); !equalStrings(got, want) {
		t.Errorf("argv\n got: %q\nwant: %q", got, want)
	}
}

func argvOf(t *testing.T, stderr string) []string {
	t.Helper()
	m := regexp.MustCompile(`argv: (\[.*\])`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("the fake did not report its argv; stderr:\n%s", stderr)
	}
	var argv []string
	if err := json.Unmarshal([]byte(m[1]), &argv); err != nil {
		t.Fatal(err)
	}
	return argv
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestOptionsThatCannotApplyAreRefused(t *testing.T) {
	ctx := bg(t)
	_, err := Connect(ctx, URL("http://127.0.0.1:9/mcp"), withFake(t, "ok"), WithEnv("K", "v"))
	if err == nil || !strings.Contains(err.Error(), "WithEnv applies to a server started from a command") {
		t.Errorf("WithEnv with a URL: %v", err)
	}
	_, err = Connect(ctx, Command("x"), withFake(t, "ok"), WithCallTimeout(0), WithEnv("A=B", "c"))
	if err == nil || !strings.Contains(err.Error(), "WithCallTimeout(0s)") || !strings.Contains(err.Error(), `WithEnv("A=B"`) {
		t.Errorf("bad options: %v", err)
	}
	_, err = Connect(ctx, Server{}, withFake(t, "ok"))
	if err == nil || !strings.Contains(err.Error(), "no server given") {
		t.Errorf("no server: %v", err)
	}
}

// A v1 binary does not know the handshake: it answers -32601.
func TestAV1BinaryFailsBeforeAnyTestTraffic(t *testing.T) {
	_, err := Connect(bg(t), Command("server"), withFake(t, "v1"))
	var vm *VersionMismatchError
	if !errors.As(err, &vm) {
		t.Fatalf("want a *VersionMismatchError, got %T: %v", err, err)
	}
	want := "mcptest binary speaks coprocess v1; this SDK needs v3. Upgrade the mcptest binary"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("message %q lacks %q", err, want)
	}
}

func TestAnOlderBinaryShowsItsMessageNamingBothVersions(t *testing.T) {
	_, err := Connect(bg(t), Command("server"), withFake(t, "older"))
	var vm *VersionMismatchError
	if !errors.As(err, &vm) {
		t.Fatalf("want a *VersionMismatchError, got %T: %v", err, err)
	}
	for _, want := range []string{"speaks v2", "the go SDK sent v3", "Upgrade the mcptest binary"} {
		if !strings.Contains(vm.Error(), want) {
			t.Errorf("message %q lacks %q", vm, want)
		}
	}
	if vm.SDK != ProtocolVersion || len(vm.Binary) != 1 || vm.Binary[0] != 2 {
		t.Errorf("versions: sdk %d, binary %v", vm.SDK, vm.Binary)
	}
}

func TestANewerBinaryTellsToUpgradeTheSDK(t *testing.T) {
	_, err := Connect(bg(t), Command("server"), withFake(t, "newer"))
	var vm *VersionMismatchError
	if !errors.As(err, &vm) {
		t.Fatalf("want a *VersionMismatchError, got %T: %v", err, err)
	}
	if !strings.Contains(vm.Error(), "Upgrade the go SDK") || !equalInts(vm.Binary, []int{4, 5}) {
		t.Errorf("%v (binary %v)", vm, vm.Binary)
	}
}

func TestAHandshakeAnsweredWithAnotherVersionFails(t *testing.T) {
	_, err := Connect(bg(t), Command("server"), withFake(t, "answers-v2"))
	var vm *VersionMismatchError
	if !errors.As(err, &vm) || !strings.Contains(err.Error(), "answered the handshake with 2") {
		t.Fatalf("want a *VersionMismatchError naming v2, got %T: %v", err, err)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Each strict-parsing case: the fake's mode, the request that meets the
// drift, and the JSON path the error must name.
func TestUnknownOrMissingFieldsFailLoudlyNamingFieldAndMethod(t *testing.T) {
	cases := []struct {
		mode, method, field string
		do                  func(ctx context.Context, c *Client) error
	}{
		{"extra-verdict-field", "mcp.call", "$.flaky", func(ctx context.Context, c *Client) error {
			_, err := c.Call(ctx, "echo", map[string]any{"message": "hi"})
			return err
		}},
		{"missing-verdict-field", "mcp.call", "$.logs", func(ctx context.Context, c *Client) error {
			_, err := c.Call(ctx, "echo", nil)
			return err
		}},
		{"extra-nested-field", "mcp.call", "$.logs[0].origin", func(ctx context.Context, c *Client) error {
			_, err := c.Call(ctx, "echo", nil)
			return err
		}},
		{"passthrough-shape", "mcp.call", "$.success", func(ctx context.Context, c *Client) error {
			_, err := c.Call(ctx, "echo", nil)
			return err
		}},
		{"extra-listing-field", "suite.list", "$.tests[0].tags", func(ctx context.Context, c *Client) error {
			_, err := c.ListSuite(ctx, []string{"evals"}, "")
			return err
		}},
		{"extra-top-field", "mcp.call", "$.trace", func(ctx context.Context, c *Client) error {
			_, err := c.Call(ctx, "echo", nil)
			return err
		}},
	}
	for _, tc := range cases {
		tc := tc
		t.Run(tc.mode, func(t *testing.T) {
			ctx := bg(t)
			c, err := Open(ctx, withFake(t, tc.mode))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			err = tc.do(ctx, c)
			var pe *ProtocolError
			if !errors.As(err, &pe) {
				t.Fatalf("want a *ProtocolError, got %T: %v", err, err)
			}
			if pe.Method != tc.method || pe.Field != tc.field {
				t.Errorf("method %q field %q, want %q %q", pe.Method, pe.Field, tc.method, tc.field)
			}
			if !strings.Contains(err.Error(), tc.method) || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("the message does not name the method and field: %v", err)
			}
			// The channel is out of step after a broken frame: the session ends.
			_, err = c.Call(ctx, "echo", nil)
			var closed *ClosedError
			if !errors.As(err, &closed) || !errors.As(err, &pe) {
				t.Errorf("after a broken frame: %T %v", err, err)
			}
			assertGone(t, c.PID(), "the binary after a broken frame")
		})
	}
}

func TestAnExtraFieldInTheHandshakeFailsTheStart(t *testing.T) {
	_, err := Open(bg(t), withFake(t, "extra-handshake-field"))
	var pe *ProtocolError
	if !errors.As(err, &pe) || pe.Field != "$.experimental" || pe.Method != "coprocess/handshake" {
		t.Fatalf("got %T: %v", err, err)
	}
}

func TestTheStrictDecoderComparesKeysExactly(t *testing.T) {
	var v Verdict
	raw := `{"Success": true, "text": "", "data": null, "error": null, "duration_ms": 0, "content": [], "messages": [], "logs": []}`
	err := decodeStrict("mcp.call", "the verdict", json.RawMessage(raw), &v)
	var pe *ProtocolError
	if !errors.As(err, &pe) || pe.Field != "$.Success" {
		t.Errorf("a key in another case must not match: %v", err)
	}
	raw = `{"success": "yes", "text": "", "data": null, "error": null, "duration_ms": 0, "content": [], "messages": [], "logs": []}`
	if err := decodeStrict("mcp.call", "the verdict", json.RawMessage(raw), &v); err == nil || !strings.Contains(err.Error(), "success") {
		t.Errorf("a wrong type must fail naming the field: %v", err)
	}
	raw = `{"success": true, "text": "", "data": {"x": 1}, "error": null, "duration_ms": 0,
		"content": [{"type": "text", "text": "", "annotations": {"audience": ["user"]}, "_meta": {}}], "messages": [], "logs": []}`
	if err := decodeStrict("mcp.call", "the verdict", json.RawMessage(raw), &v); err != nil {
		t.Errorf("content blocks are MCP's, open to new fields: %v", err)
	}
	if !strings.Contains(string(v.Content[0].Raw), "audience") {
		t.Errorf("the block's verbatim JSON is kept: %s", v.Content[0].Raw)
	}
}

func TestCallPassthroughRecognisesTheUpstreamShape(t *testing.T) {
	c := Start(t, Command("server"), withFake(t, "ok"))
	r, err := c.CallPassthrough(bg(t), "echo", map[string]any{"message": "verbatim"})
	if err != nil {
		t.Fatal(err)
	}
	if r.IsError || len(r.Content) != 1 || r.Content[0].Text != "verbatim" {
		t.Errorf("passthrough = %+v", r)
	}
}

func TestErrorsAreTypedAndTheSessionGoesOn(t *testing.T) {
	c := Start(t, Command("server"), withFake(t, "ok"))
	ctx := bg(t)

	_, err := c.GetPrompt(ctx, "nope", nil)
	var ue *UpstreamError
	if !errors.As(err, &ue) || ue.Code != -32602 || ue.Method != "prompts/get" || string(ue.Data) != `{"name":"nope"}` {
		t.Errorf("upstream error: %T %v", err, err)
	} else if !strings.Contains(err.Error(), `mcp.callPrompt "nope"`) || !strings.Contains(err.Error(), "prompt not found") {
		t.Errorf("the message says what was called and what came back: %v", err)
	}

	_, err = c.ReadResource(ctx, "fixture://x")
	var cd *ConnectionDroppedError
	if !errors.As(err, &cd) || cd.ExitCode == nil || *cd.ExitCode != 7 || !strings.Contains(cd.StderrTail, "out of cheese") {
		t.Errorf("dropped: %T %v", err, err)
	} else if !strings.Contains(err.Error(), "exit code 7") || !strings.Contains(err.Error(), "out of cheese") {
		t.Errorf("the message shows the exit code and the stderr tail: %v", err)
	}

	_, err = c.ListTools(ctx)
	var ut *UpstreamTimeoutError
	if !errors.As(err, &ut) || ut.Timeout != 200*time.Millisecond {
		t.Errorf("upstream timeout: %T %v", err, err)
	}

	_, err = c.ListPrompts(ctx)
	var re *RPCError
	if !errors.As(err, &re) || re.Code != -32601 {
		t.Errorf("unknown method: %T %v", err, err)
	}

	v, err := c.Call(ctx, "echo", map[string]any{"message": "still here"})
	if err != nil || v.Text != "still here" {
		t.Errorf("after typed errors the session goes on: %v %+v", err, v)
	}
}

func TestABinaryThatNeverAnswersTheHandshakeTimesOut(t *testing.T) {
	for _, mode := range []string{"hang-handshake", "silent"} {
		started := time.Now()
		_, err := Open(bg(t), withFake(t, mode), WithStartTimeout(300*time.Millisecond))
		var te *TimeoutError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), "coprocess/handshake") {
			t.Fatalf("%s: want a *TimeoutError naming the handshake, got %T: %v", mode, err, err)
		}
		if took := time.Since(started); took > 5*time.Second {
			t.Errorf("%s: the timeout took %v", mode, took)
		}
	}
}

func TestAHungCallTimesOutAndTheBinaryIsStopped(t *testing.T) {
	c := Start(t, Command("server"), withFake(t, "hang-call"), WithCallTimeout(100*time.Millisecond), WithTimeoutMargin(200*time.Millisecond))
	started := time.Now()
	_, err := c.Call(bg(t), "echo", nil)
	var te *TimeoutError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), `mcp.call "echo"`) {
		t.Fatalf("want a *TimeoutError naming the call, got %T: %v", err, err)
	}
	if took := time.Since(started); took < 300*time.Millisecond || took > 5*time.Second {
		t.Errorf("waited %v, want the call timeout plus the margin (300ms)", took)
	}
	assertGone(t, c.PID(), "the hung binary")
	_, err = c.Call(bg(t), "echo", nil)
	var closed *ClosedError
	if !errors.As(err, &closed) || !errors.As(err, &te) {
		t.Errorf("after a timeout: %T %v", err, err)
	}
}

func TestTheContextEndsAWaitToo(t *testing.T) {
	c := Start(t, Command("server"), withFake(t, "hang-call"))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := c.Call(ctx, "echo", nil)
	var te *TimeoutError
	if !errors.As(err, &te) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want a *TimeoutError wrapping the deadline, got %T: %v", err, err)
	}
}

func TestABinaryThatPrintsGarbageOrTheWrongIdBreaksTheSession(t *testing.T) {
	for mode, want := range map[string]string{"garbage": "not a JSON object", "wrong-id": "the response's id is 999"} {
		_, err := Connect(bg(t), Command("server"), withFake(t, mode))
		var pe *ProtocolError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), want) || pe.Method != "mcp.initialize" {
			t.Errorf("%s: want a *ProtocolError %q, got %T: %v", mode, want, err, err)
		}
	}
}

func TestABinaryThatDiesShowsItsExitCodeAndStderr(t *testing.T) {
	_, err := Connect(bg(t), Command("server"), withFake(t, "dies"))
	var be *BinaryExitedError
	if !errors.As(err, &be) || be.ExitCode != 3 {
		t.Fatalf("want a *BinaryExitedError with code 3, got %T: %v", err, err)
	}
	if !strings.Contains(err.Error(), "fatal: the fake binary gave up") {
		t.Errorf("the message lacks the stderr tail: %v", err)
	}
}

// The fake writes 8 MiB to stderr before it answers: without a drain it
// would block on the full pipe and the handshake would time out.
func TestStderrIsDrainedContinuously(t *testing.T) {
	c := Start(t, Command("server"), withFake(t, "stderr-flood"), WithStartTimeout(20*time.Second))
	tail := c.Stderr()
	if !strings.Contains(tail, "flood: done") || len(tail) > stderrTailBytes+8 {
		t.Errorf("tail of %d bytes, ends %q", len(tail), tail[len(tail)-40:])
	}
}

// The stubborn fake ignores mcp.shutdown, stdin's end and SIGTERM, and has
// a child: Close kills the whole process group after the grace period.
func TestCloseKillsABinaryThatWillNotStopAndItsChildren(t *testing.T) {
	c, err := Connect(bg(t), Command("server"), withFake(t, "stubborn"), WithShutdownGrace(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`child: (\d+)`).FindStringSubmatch(c.Stderr())
	if m == nil {
		t.Fatalf("the fake did not report its child: %s", c.Stderr())
	}
	child, _ := strconv.Atoi(m[1])
	started := time.Now()
	err = c.Close()
	var se *ShutdownError
	if !errors.As(err, &se) {
		t.Errorf("want a *ShutdownError, got %T: %v", err, err)
	}
	if took := time.Since(started); took > 3*time.Second {
		t.Errorf("Close took %v", took)
	}
	assertGone(t, c.PID(), "the stubborn binary")
	assertGone(t, child, "the stubborn binary's child")
	if err2 := c.Close(); err2 != err {
		t.Errorf("Close is idempotent: %v then %v", err, err2)
	}
}

func TestCloseShutsDownPolitelyAndTheProcessIsGone(t *testing.T) {
	c, err := Connect(bg(t), Command("server"), withFake(t, "ok"))
	if err != nil {
		t.Fatal(err)
	}
	if gone(c.PID()) {
		t.Fatal("the binary is not running after Connect")
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if !gone(c.PID()) {
		t.Errorf("pid %d is still in the process table after Close", c.PID())
	}
	_, err = c.Call(bg(t), "echo", nil)
	var closed *ClosedError
	if !errors.As(err, &closed) || closed.Cause != nil {
		t.Errorf("a call after Close: %T %v", err, err)
	}
}

func TestStartRegistersCleanupAndFailsTheTestOnError(t *testing.T) {
	var pid int
	t.Run("uses a client", func(t *testing.T) {
		pid = Start(t, Command("server"), withFake(t, "ok")).PID()
	})
	if pid == 0 || !gone(pid) {
		t.Errorf("the binary (pid %d) outlived its test", pid)
	}

	tb := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Start(tb, Command("server"), withFake(t, "v1"))
	}()
	<-done
	if !strings.Contains(tb.fatal, "mcptest.Start(server)") || !strings.Contains(tb.fatal, "speaks coprocess v1") {
		t.Errorf("Start's failure: %q", tb.fatal)
	}
}

// fatalTB records Fatalf instead of failing the real test.
type fatalTB struct {
	testing.TB
	fatal string
}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.fatal = strings.TrimSpace(strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", " "))
	runtime.Goexit()
}

func TestTheBinaryNotFoundSaysHowToInstallIt(t *testing.T) {
	t.Setenv("MCPTEST_BIN", filepath.Join(t.TempDir(), "nope"))
	_, err := Open(bg(t))
	var nf *BinaryNotFoundError
	if !errors.As(err, &nf) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("want a *BinaryNotFoundError, got %T: %v", err, err)
	}
	for _, want := range []string{"MCPTEST_BIN=", "cargo install --path mcptest-cli"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}

	t.Setenv("MCPTEST_BIN", "")
	t.Setenv("PATH", t.TempDir())
	_, err = Open(bg(t))
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "`mcptest` on PATH") {
		t.Errorf("with nothing on PATH: %T %v", err, err)
	}

	_, err = Open(bg(t), WithBinary(t.TempDir()))
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "not an executable file") {
		t.Errorf("a directory: %T %v", err, err)
	}
}

func TestMCPTESTBINIsFoundBeforePATH(t *testing.T) {
	t.Setenv("MCPTEST_BIN", fake(t, "ok"))
	c, err := Open(bg(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Handshake().BinaryVersion != "0.0.0-fake" {
		t.Errorf("handshake %+v", c.Handshake())
	}
}

// Every goroutine a session starts (stdout reader, stderr drain, reaper)
// ends with it, on every way a session ends.
func TestNoGoroutineOutlivesItsSession(t *testing.T) {
	settle := func(limit int) int {
		deadline := time.Now().Add(3 * time.Second)
		for {
			n := runtime.NumGoroutine()
			if n <= limit || time.Now().After(deadline) {
				return n
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	before := runtime.NumGoroutine()
	ctx := bg(t)
	for _, mode := range []string{"ok", "stubborn", "hang-call", "dies", "extra-verdict-field", "stderr-flood"} {
		c, err := Connect(ctx, Command("server"), withFake(t, mode), WithShutdownGrace(200*time.Millisecond), WithCallTimeout(100*time.Millisecond), WithTimeoutMargin(100*time.Millisecond))
		if err == nil {
			_, _ = c.Call(ctx, "echo", nil)
			_ = c.Close()
		}
	}
	if after := settle(before); after > before {
		t.Errorf("%d goroutines before the sessions, %d after", before, after)
	}
}
