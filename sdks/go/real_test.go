//go:build unix

// Against the real binary (MCPTEST_BIN, with --check-frames through
// MCPTEST_CHECK_FRAMES=1 set in TestMain) and the project's fixture servers
// (MCPTEST_FIXTURES): the pin, every method, the typed upstream errors,
// timeouts, process cleanup, and the project's suite corpora.

package mcptest

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// repoRoot is the repository holding this module (sdks/go).
const repoRoot = "../.."

// fixtures is the directory of the fixture servers; the real binary must
// be reachable too. Both are required: these tests do not pass vacuously.
func fixtures(t testing.TB) string {
	t.Helper()
	if os.Getenv("MCPTEST_BIN") == "" {
		if _, err := exec.LookPath("mcptest"); err != nil {
			t.Fatal("these tests need the real binary: set MCPTEST_BIN to the mcptest binary (ci.sh does)")
		}
	}
	dir := os.Getenv("MCPTEST_FIXTURES")
	if dir == "" {
		t.Fatal("these tests need the fixture servers: set MCPTEST_FIXTURES to the directory holding fixture-everything and fixture-chaos (ci.sh does)")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func everything(t testing.TB) Server {
	return Command(filepath.Join(fixtures(t), "fixture-everything"), "--root", t.TempDir())
}

func chaos(t testing.TB, flags ...string) Server {
	return Command(filepath.Join(fixtures(t), "fixture-chaos"), flags...)
}

// sdkMethods is every coprocess method this SDK sends.
var sdkMethods = []string{
	"coprocess/handshake", "mcp.initialize", "mcp.call", "mcp.listTools", "mcp.listResources",
	"mcp.listPrompts", "mcp.listResourceTemplates", "mcp.readResource", "mcp.callPrompt",
	"mcp.messages", "suite.list", "suite.run", "mcp.reporter.record", "mcp.reporter.setUpload",
	"mcp.reporter.flush", "mcp.cassette.set_mode", "mcp.cache.set_mode", "mcp.shutdown",
}

func TestRealBinarySpeaksThePinnedVersion(t *testing.T) {
	fixtures(t)
	c, err := Open(bg(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// The spawn validates every frame: the flag is on the binary's command line.
	args, err := commandLine(c.PID())
	if err != nil || !strings.Contains(string(args), " exec --connection-server ") || !strings.Contains(string(args), " --check-frames") {
		t.Errorf("the binary's command line lacks --check-frames: %q (%v)", args, err)
	}
	hs := c.Handshake()
	if hs.ProtocolVersion != ProtocolVersion {
		t.Errorf("the binary speaks v%d, the SDK pins v%d", hs.ProtocolVersion, ProtocolVersion)
	}
	for _, m := range sdkMethods {
		if !hs.HasMethod(m) {
			t.Errorf("the binary does not list %s (it lists %v)", m, hs.Methods)
		}
	}
	for _, f := range []string{"argv", "passthrough", "suites", "messages", "report-results", "check-frames"} {
		if !contains(hs.Features, f) {
			t.Errorf("the binary does not list the feature %q (it lists %v)", f, hs.Features)
		}
	}
	if !hs.HasLane("tool") {
		t.Errorf("lanes %v", hs.Lanes)
	}
}

// commandLine is a process's command line, space-separated: from /proc
// where there is one (a minimal Linux may lack ps), else from ps.
func commandLine(pid int) (string, error) {
	if data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); err == nil {
		return strings.ReplaceAll(string(data), "\x00", " "), nil
	}
	out, err := exec.Command("ps", "-o", "args=", "-p", strconv.Itoa(pid)).Output()
	return string(out), err
}

func TestRealEveryMCPMethod(t *testing.T) {
	c := Start(t, everything(t))
	ctx := bg(t)
	if c.ServerInfo().ServerInfo.Name == "" || c.ServerInfo().ProtocolVersion == "" {
		t.Errorf("initialize: %+v", c.ServerInfo())
	}
	info, err := c.Initialize(ctx)
	if err != nil || info.ServerInfo.Name != c.ServerInfo().ServerInfo.Name {
		t.Errorf("a second mcp.initialize: %v %+v", err, info)
	}

	v, err := c.Call(ctx, "add", map[string]any{"a": 2, "b": 3})
	if err != nil || !v.Success || v.Text != "5" || v.Error != nil || len(v.Content) != 1 || v.Content[0].Type != "text" || v.HasData() {
		t.Errorf("add: %v %+v", err, v)
	}

	v, err = c.Call(ctx, "weather", map[string]any{"city": "Paris"})
	var report struct {
		City        string  `json:"city"`
		Temperature float64 `json:"temperature"`
		Conditions  string  `json:"conditions"`
	}
	if err != nil || !v.HasData() || v.DecodeData(&report) != nil || report.City != "Paris" {
		t.Errorf("weather: %v %+v %+v", err, v, report)
	}

	v, err = c.Call(ctx, "fail", nil)
	if err != nil || v.Success || v.Error == nil || *v.Error != v.Text {
		t.Errorf("fail: %v %+v", err, v)
	}

	v, err = c.Call(ctx, "log", map[string]any{"level": "warning", "message": "careful", "count": 2})
	if err != nil || len(v.Logs) != 2 || v.Logs[0].Level != "warning" || v.Logs[0].Logger != "fixture" || string(v.Logs[0].Data) != `"careful"` {
		t.Errorf("log: %v %+v", err, v)
	} else if len(v.Messages) < 2 || v.Messages[0].Method != "notifications/message" {
		t.Errorf("the logs are among the messages: %+v", v.Messages)
	}

	v, err = c.Call(ctx, "progress", map[string]any{"steps": 2, "delay_ms": 1})
	if err != nil || v.Text != "done after 2 steps" {
		t.Errorf("progress: %v %+v", err, v)
	} else if n := countMethod(v.Messages, "notifications/progress"); n != 2 {
		t.Errorf("progress: %d progress notifications in %+v", n, v.Messages)
	}

	r, err := c.CallPassthrough(ctx, "echo", map[string]any{"message": "verbatim"})
	if err != nil || r.IsError || len(r.Content) != 1 || r.Content[0].Text != "verbatim" || len(r.Raw) == 0 {
		t.Errorf("passthrough: %v %+v", err, r)
	}

	tools, err := c.ListTools(ctx)
	if err != nil || findTool(tools, "echo") == nil || findTool(tools, "add") == nil || len(findTool(tools, "add").InputSchema) == 0 {
		t.Errorf("tools: %v %d tools", err, len(tools))
	}
	prompts, err := c.ListPrompts(ctx)
	if err != nil || !anyPrompt(prompts, "greeting") {
		t.Errorf("prompts: %v %+v", err, prompts)
	}
	resources, err := c.ListResources(ctx)
	if err != nil || !anyResource(resources, "fixture://static/text") {
		t.Errorf("resources: %v %d", err, len(resources))
	}
	templates, err := c.ListResourceTemplates(ctx)
	if err != nil || len(templates) == 0 || templates[0].URITemplate != "fixture://items/{id}" {
		t.Errorf("templates: %v %+v", err, templates)
	}
	read, err := c.ReadResource(ctx, "fixture://items/7")
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Text != "item 7" {
		t.Errorf("read: %v %+v", err, read)
	}
	prompt, err := c.GetPrompt(ctx, "greeting", map[string]string{"name": "Ada", "style": "pirate"})
	if err != nil || len(prompt.Messages) == 0 || prompt.Messages[0].Content.Text != "Ahoy, Ada!" {
		t.Errorf("prompt: %v %+v", err, prompt)
	}
	msgs, err := c.Messages(ctx)
	if err != nil || msgs == nil {
		t.Errorf("messages: %v %+v", err, msgs)
	}
	if err := c.Record(ctx, Record{Name: "TestFromGo", Status: "pass", Duration: 3 * time.Millisecond, File: "real_test.go", Line: 1}); err != nil {
		t.Errorf("record: %v", err)
	}
}

func countMethod(messages []Message, method string) int {
	n := 0
	for _, m := range messages {
		if m.Method == method {
			n++
		}
	}
	return n
}

func findTool(tools []Tool, name string) *Tool {
	for i := range tools {
		if tools[i].Name == name {
			return &tools[i]
		}
	}
	return nil
}

func anyPrompt(prompts []Prompt, name string) bool {
	for _, p := range prompts {
		if p.Name == name {
			return true
		}
	}
	return false
}

func anyResource(resources []Resource, uri string) bool {
	for _, r := range resources {
		if r.URI == uri {
			return true
		}
	}
	return false
}

func TestRealServerEnvAndDir(t *testing.T) {
	dir := t.TempDir()
	c := Start(t, everything(t), WithEnv("MCPTEST_GO_PROBE", "two words; $HOME"), WithDir(dir))
	ctx := bg(t)
	v, err := c.Call(ctx, "env", map[string]any{"name": "MCPTEST_GO_PROBE"})
	if err != nil || v.Text != "two words; $HOME" {
		t.Errorf("env: %v %+v", err, v)
	}
	v, err = c.Call(ctx, "cwd", nil)
	want, _ := filepath.EvalSymlinks(dir)
	if got, _ := filepath.EvalSymlinks(v.Text); err != nil || got != want {
		t.Errorf("cwd: %v %q, want %q", err, v.Text, want)
	}
}

func TestRealReportRecordAndUpload(t *testing.T) {
	var mu sync.Mutex
	var body, auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		mu.Lock()
		body, auth = string(data), r.Header.Get("Authorization")
		mu.Unlock()
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	c := Start(t, everything(t))
	ctx := bg(t)
	if _, err := c.Call(ctx, "echo", map[string]any{"message": "hi"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Record(ctx, Record{Name: "TestRecordedFromGo", Status: "fail", Message: "it broke", File: "x_test.go", Line: 12}); err != nil {
		t.Fatal(err)
	}
	if err := c.SetUpload(ctx, srv.URL, "secret-token"); err != nil {
		t.Fatal(err)
	}
	r, err := c.Flush(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Uploaded || r.Status != http.StatusCreated || r.Results < 2 {
		t.Errorf("flush: %+v", r)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(body, "TestRecordedFromGo") || !strings.Contains(body, "it broke") || auth != "Bearer secret-token" {
		t.Errorf("the upload: auth %q body %s", auth, clip(body, 2000))
	}
	if err := c.Record(ctx, Record{Name: "x", Status: "maybe"}); err == nil {
		t.Error("a status other than pass, fail or skip is refused")
	}
}

func TestRealRecordTestReportsEachTestsVerdict(t *testing.T) {
	var mu sync.Mutex
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		mu.Lock()
		body = string(data)
		mu.Unlock()
	}))
	defer srv.Close()
	c, err := Connect(bg(t), everything(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	t.Run("recorded pass", func(t *testing.T) { c.RecordTest(t) })
	t.Run("recorded skip", func(t *testing.T) {
		c.RecordTest(t)
		t.Skip("on purpose")
	})
	t.Run("recorded fail", func(st *testing.T) {
		// A failing subtest must not fail this test: its verdict is faked
		// through a TB whose Failed reports true.
		c.RecordTest(failedTB{st})
	})
	if err := c.SetUpload(bg(t), srv.URL, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Flush(bg(t)); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	var report struct {
		Results []struct {
			Name   string `json:"name"`
			Status string `json:"status"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(body), &report); err != nil {
		t.Fatalf("the uploaded report: %v\n%s", err, clip(body, 3000))
	}
	got := map[string]string{}
	for _, r := range report.Results {
		got[r.Name] = r.Status
	}
	for name, status := range map[string]string{"recorded_pass": "pass", "recorded_skip": "skip", "recorded_fail": "fail"} {
		if full := t.Name() + "/" + name; got[full] != status {
			t.Errorf("%s is %q in the report, want %q: %s", full, got[full], status, clip(body, 3000))
		}
	}
}

// failedTB is a TB that says it failed.
type failedTB struct{ testing.TB }

func (failedTB) Failed() bool { return true }

func TestRealCassetteRecordsAndReplays(t *testing.T) {
	c := Start(t, everything(t))
	ctx := bg(t)
	tape := filepath.Join(t.TempDir(), "echo.cassette.json")
	if m, err := c.SetCassetteMode(ctx, "record", tape); err != nil || m.Mode != "record" {
		t.Fatalf("record: %v %+v", err, m)
	}
	if _, err := c.Call(ctx, "echo", map[string]any{"message": "taped"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetCassetteMode(ctx, "off", tape); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tape); err != nil {
		t.Fatalf("no cassette written: %v", err)
	}
	if _, err := c.SetCassetteMode(ctx, "replay", tape); err != nil {
		t.Fatal(err)
	}
	v, err := c.Call(ctx, "echo", map[string]any{"message": "taped"})
	if err != nil || v.Text != "taped" {
		t.Errorf("replayed: %v %+v", err, v)
	}
	if _, err := c.SetCacheMode(ctx, "bogus", ""); err == nil {
		t.Error("an unknown cache mode is refused")
	}
	cache := filepath.Join(t.TempDir(), "cache.json")
	if m, err := c.SetCacheMode(ctx, "readwrite", cache); err != nil || m.Mode != "readwrite" {
		t.Errorf("cache: %v %+v", err, m)
	}
}

func TestRealUpstreamErrorIsTyped(t *testing.T) {
	c := Start(t, everything(t))
	_, err := c.Call(bg(t), "rpc_error", nil)
	var ue *UpstreamError
	if !errors.As(err, &ue) {
		t.Fatalf("want an *UpstreamError, got %T: %v", err, err)
	}
	if ue.Tool != "rpc_error" || ue.Method != "tools/call" || ue.Code == 0 || !strings.Contains(string(ue.Data), "on purpose") {
		t.Errorf("%+v", ue)
	}
	if !strings.Contains(err.Error(), `mcp.call "rpc_error"`) || !strings.Contains(err.Error(), ue.Message) {
		t.Errorf("the message says what was called and what came back: %v", err)
	}
	// The session goes on.
	if v, err := c.Call(bg(t), "echo", map[string]any{"message": "on"}); err != nil || v.Text != "on" {
		t.Errorf("after an upstream error: %v %+v", err, v)
	}
}

func TestRealDroppedConnectionIsTyped(t *testing.T) {
	c := Start(t, chaos(t, "--exit-mid-call"))
	_, err := c.Call(bg(t), "poke", nil)
	var cd *ConnectionDroppedError
	if !errors.As(err, &cd) {
		t.Fatalf("want a *ConnectionDroppedError, got %T: %v", err, err)
	}
	if cd.ExitCode == nil || *cd.ExitCode != 7 {
		t.Errorf("exit code: %+v", cd)
	}
	if !strings.Contains(err.Error(), `mcp.call "poke"`) {
		t.Errorf("the message names the call: %v", err)
	}

	_, err = Connect(bg(t), chaos(t, "--exit-before-initialize"))
	if !errors.As(err, &cd) {
		t.Fatalf("a server that never comes up: want a *ConnectionDroppedError, got %T: %v", err, err)
	}
}

func TestRealUpstreamTimeoutIsTypedAndTheSessionGoesOn(t *testing.T) {
	c := Start(t, everything(t), WithCallTimeout(300*time.Millisecond))
	started := time.Now()
	_, err := c.Call(bg(t), "slow", map[string]any{"ms": 20000})
	var ut *UpstreamTimeoutError
	if !errors.As(err, &ut) || ut.Timeout != 300*time.Millisecond {
		t.Fatalf("want an *UpstreamTimeoutError of 300ms, got %T: %v", err, err)
	}
	if took := time.Since(started); took > 5*time.Second {
		t.Errorf("the call took %v", took)
	}
	if v, err := c.Call(bg(t), "echo", map[string]any{"message": "on"}); err != nil || v.Text != "on" {
		t.Errorf("after a timeout: %v %+v", err, v)
	}
}

func TestRealANeverAnsweringServerTimesOut(t *testing.T) {
	c := Start(t, chaos(t, "--never-answer"), WithCallTimeout(300*time.Millisecond))
	_, err := c.Call(bg(t), "poke", nil)
	var ut *UpstreamTimeoutError
	if !errors.As(err, &ut) {
		t.Fatalf("want an *UpstreamTimeoutError, got %T: %v", err, err)
	}
}

// pidIn reads a pid file the fixture writes, waiting for it a moment.
func pidIn(t testing.TB, path string) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		data, err := os.ReadFile(path)
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && perr == nil && pid > 0 {
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestRealCloseLeavesNoProcess(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "server.pid")
	var binary, server int
	t.Run("a test using a client", func(t *testing.T) {
		c := Start(t, chaos(t, "--pid-file", pidFile))
		binary, server = c.PID(), pidIn(t, pidFile)
		if gone(binary) || gone(server) {
			t.Fatal("the binary or the server is not running during the test")
		}
	})
	if binary == 0 || server == 0 {
		t.Fatal("the subtest did not get as far as starting the client")
	}
	assertGone(t, binary, "the binary")
	assertGone(t, server, "the MCP server")
}

func TestRealAFailedTestStillShutsDown(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "server.pid")
	var binary, server int
	t.Run("a test that fails after Start", func(st *testing.T) {
		tb := &fatalTB{TB: st}
		done := make(chan struct{})
		go func() {
			defer close(done)
			c := Start(tb, chaos(t, "--pid-file", pidFile))
			binary, server = c.PID(), pidIn(t, pidFile)
			tb.Fatalf("the test fails here")
		}()
		<-done
		if tb.fatal != "the test fails here" {
			st.Errorf("fatal: %q", tb.fatal)
		}
	})
	if binary == 0 || server == 0 {
		t.Fatal("the subtest did not get as far as starting the client")
	}
	assertGone(t, binary, "the binary")
	assertGone(t, server, "the MCP server")
}

// An interrupted `go test` (SIGINT, no cleanup runs): the binary reads the
// end of its stdin, stops its server and exits.
func TestRealAnInterruptedTestRunLeavesNoProcess(t *testing.T) {
	fixtures(t)
	pidFile := filepath.Join(t.TempDir(), "server.pid")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestInterruptedChild$", "-test.v")
	cmd.Env = append(os.Environ(), "MCPTEST_GO_CHILD=interrupted", "MCPTEST_GO_PID_FILE="+pidFile)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lines := make(chan string)
	go func() {
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			lines <- scanner.Text()
		}
		close(lines)
	}()
	binaryPID := 0
	timeout := time.After(30 * time.Second)
	for binaryPID == 0 {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the child ended before starting its client")
			}
			if m := regexp.MustCompile(`binary-pid: (\d+)`).FindStringSubmatch(l); m != nil {
				binaryPID, _ = strconv.Atoi(m[1])
			}
		case <-timeout:
			t.Fatal("the child did not start its client")
		}
	}
	server := pidIn(t, pidFile)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	go func() {
		for range lines {
		}
	}()
	assertGone(t, binaryPID, "the binary of the interrupted test")
	assertGone(t, server, "the MCP server of the interrupted test")
}

// TestInterruptedChild is the body TestRealAnInterruptedTestRunLeavesNoProcess
// runs in a child process; it does not run on its own.
func TestInterruptedChild(t *testing.T) {
	if os.Getenv("MCPTEST_GO_CHILD") != "interrupted" {
		t.Skip("the child process of TestRealAnInterruptedTestRunLeavesNoProcess; it runs there")
	}
	c := Start(t, chaos(t, "--pid-file", os.Getenv("MCPTEST_GO_PID_FILE")))
	os.Stdout.WriteString("binary-pid: " + strconv.Itoa(c.PID()) + "\n")
	time.Sleep(60 * time.Second)
}

// suiteOptions runs the project's corpora as the repository's own suite
// tests do (tests/tests/integration/suites.rs): from the tests crate's
// directory, the fixture directory copied per test, fixture-everything as
// the default server.
func suiteOptions(t testing.TB) []SuiteOption {
	keepFixturesInTempDir(t)
	return []SuiteOption{
		WithBinaryDir(testsCrate),
		WithFixture("suites/fixtures"),
		WithDefaultServer(Command(filepath.Join(fixtures(t), "fixture-everything"), "--root", "{{fixture}}")),
	}
}

// keepFixturesInTempDir points the engine's copies of failed tests' fixture
// directories (kept for inspection) at the test's own temporary directory,
// which is removed after the test.
func keepFixturesInTempDir(t testing.TB) {
	t.Setenv("MCPTEST_KEPT_DIR", t.TempDir())
}

// testsCrate is the directory the corpora's relative paths are written for.
const testsCrate = repoRoot + "/tests"

func TestRealPassCorpusPasses(t *testing.T) {
	// The corpus is written for `cargo test -p mcptest-tests`, whose
	// environment names the package (server_env_go_forms.yaml expands it);
	// the binary and the servers it starts inherit this one.
	t.Setenv("CARGO_PKG_NAME", "mcptest-tests")
	top, results := recordSuite([]string{"suites/pass"}, suiteOptions(t)...)
	if top.status() != "pass" {
		t.Fatalf("top level: %s", top.message())
	}
	passed := 0
	for _, o := range results {
		switch o.status() {
		case "pass":
			passed++
		case "skip":
			// Only the files' own skips (`skip: true`, skip_unless_env): every
			// lane of this corpus is driven over the coprocess.
			if strings.Contains(o.skipped, "lane") {
				t.Errorf("%s was skipped for its lane: %s", o.name, o.skipped)
			}
			t.Logf("skipped %s: %s", o.name, o.skipped)
		default:
			t.Errorf("%s failed:\n%s", o.name, o.message())
		}
	}
	if passed == 0 {
		t.Errorf("no test passed of %d", len(results))
	}
	t.Logf("%d tests, %d passed", len(results), passed)
}

func TestRealFailCorpusFailsWithTheEnginesText(t *testing.T) {
	top, results := recordSuite([]string{"suites/fail"}, suiteOptions(t)...)
	if top.status() != "pass" {
		t.Fatalf("top level: %s", top.message())
	}
	failed := 0
	for _, o := range results {
		switch o.status() {
		case "fail":
			failed++
			if !strings.HasPrefix(o.errors[0], "suites/fail/") || !strings.Contains(o.errors[0], "` failed\n") {
				t.Errorf("%s: the failure does not name its file: %s", o.name, o.errors[0])
			}
		case "skip":
			t.Errorf("%s was skipped, but every test of the fail corpus fails: %s", o.name, o.skipped)
		default:
			t.Errorf("%s passed, but every test of the fail corpus fails", o.name)
		}
	}
	if failed == 0 {
		t.Fatal("no test failed")
	}
	t.Logf("%d tests, %d failed", len(results), failed)
}

// The failure text is the engine's: under its first line (`file:line:column:
// `name` failed`), `mcptest run` prints the same text for the same test.
func TestRealFailureTextIsWhatMcptestRunPrints(t *testing.T) {
	keepFixturesInTempDir(t)
	c, err := Open(bg(t), WithBinaryDir(testsCrate))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := bg(t)
	server := filepath.Join(fixtures(t), "fixture-everything")
	binary, err := findBinary("")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"suites/fail/equals.yaml", "suites/fail/json_path.yaml", "suites/fail/cases_mismatch.yaml"} {
		tests, err := c.ListSuite(ctx, []string{file}, "")
		if err != nil || len(tests) == 0 {
			t.Fatalf("listing %s: %v %+v", file, err, tests)
		}
		v, err := c.RunTest(ctx, tests[0].ID, RunOptions{Fixture: "suites/fixtures", Server: Command(server, "--root", "{{fixture}}")})
		if err != nil || v.Status != "fail" || v.Failure == nil {
			t.Fatalf("suite.run %s: %v %+v", file, err, v)
		}
		header, body, _ := strings.Cut(*v.Failure, "\n")
		if want := fmt.Sprintf("%s: `%s` failed", tests[0].Location(), tests[0].Name); header != want {
			t.Errorf("the failure's first line is %q, want %q", header, want)
		}
		cli := exec.Command(binary, "run", file, "--fixture", "suites/fixtures", "--server", server+" --root {{fixture}}")
		cli.Dir = testsCrate
		cli.Env = append(os.Environ(), "NO_COLOR=1")
		out, _ := cli.CombinedOutput()
		indented := "  " + strings.ReplaceAll(strings.TrimRight(body, "\n"), "\n", "\n  ")
		if !strings.Contains(string(out), indented) {
			t.Errorf("%s: `mcptest run` does not print the verdict's failure text\n%s\nit printed:\n%s", file, indented, out)
		}
	}
}

func TestRealInvalidFilesAreCollectionErrors(t *testing.T) {
	top, results := recordSuite([]string{"suites/invalid/unknown_key.yaml", "suites/pass/echo_text_checks.yaml"}, suiteOptions(t)...)
	if len(top.errors) != 1 || !strings.Contains(top.errors[0], "collection error in suites/invalid/unknown_key.yaml:") {
		t.Errorf("collection errors: %q", top.errors)
	}
	if len(results) == 0 {
		t.Error("the loadable file's tests still run")
	}
	for _, o := range results {
		if o.status() == "fail" {
			t.Errorf("%s: %s", o.name, o.message())
		}
	}
}

func TestRealAnOlderBinaryIsRefused(t *testing.T) {
	v2 := os.Getenv("MCPTEST_V2_BIN")
	if v2 == "" {
		t.Skip("set MCPTEST_V2_BIN to a v2 mcptest binary to run this against one; the fake binaries cover the path in every run")
	}
	// A v2 binary does not know --check-frames nor `-- PROGRAM`: it refuses the command line.
	_, err := Connect(bg(t), Command("x"), WithBinary(v2))
	var be *BinaryExitedError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "upgrade the mcptest binary") {
		t.Errorf("with v3's command line: %T %v", err, err)
	}
	// With a command line it accepts, it answers the v3 handshake with -32602.
	_, err = Connect(bg(t), URL("http://127.0.0.1:9/mcp"), WithBinary(v2), WithCheckFrames(false))
	var vm *VersionMismatchError
	if !errors.As(err, &vm) || !strings.Contains(err.Error(), "speaks v2") || !strings.Contains(err.Error(), "Upgrade the mcptest binary") {
		t.Errorf("with v2's command line: %T %v", err, err)
	}
}
