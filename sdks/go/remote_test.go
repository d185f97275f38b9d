//go:build unix

// Servers reached at a URL with credentials: the flags the options map to
// (through the fake binary, which reports its argv), the checks of every
// option, and a bearer-protected legacy HTTP+SSE fixture-everything through
// the real binary (the token read from a variable the binary inherits,
// never on its command line nor in any error), as a session's server and
// as a suite's.

package mcptest

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const remoteToken = "sdk-go-secret-9d2b"

// protectedSSE starts fixture-everything on HTTP+SSE demanding
// "Bearer remoteToken" and returns its event-stream URL; it is stopped at
// the test's end (stdin closed, killed after 5 s).
func protectedSSE(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(fixtures(t), "fixture-everything"), "--sse", "--bearer", remoteToken)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		if line, err := r.ReadString('\n'); err == nil {
			lines <- line
		}
		// Keep draining so the server never blocks on a full pipe.
		_, _ = io.Copy(io.Discard, r)
	}()
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = stdin.Close()
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	select {
	case line := <-lines:
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "listening on ") {
			t.Fatalf("unexpected first line from fixture-everything: %q", line)
		}
		return strings.TrimPrefix(line, "listening on ")
	case <-time.After(30 * time.Second):
		t.Fatal("fixture-everything --sse printed no URL within 30 s")
	case <-exited:
		t.Fatal("fixture-everything --sse exited before printing its URL")
	}
	return ""
}

func TestRealABearerVariableReachesTheProtectedSSEServer(t *testing.T) {
	t.Setenv("MCPTEST_GO_SSE_TOKEN", remoteToken)
	c := Start(t, SSE(protectedSSE(t)), WithBearerEnv("MCPTEST_GO_SSE_TOKEN"))
	v, err := c.Call(bg(t), "add", map[string]any{"a": 2, "b": 3})
	if err != nil || !v.Success || v.Text != "5" {
		t.Fatalf("add: %v %+v", err, v)
	}
}

func TestRealWithoutCredentialsTheSessionFailsWithHTTP401(t *testing.T) {
	url := protectedSSE(t)
	t.Setenv("MCPTEST_GO_SSE_TOKEN", remoteToken+"-wrong")
	for name, opts := range map[string][]Option{
		"none":        nil,
		"wrong token": {WithBearerEnv("MCPTEST_GO_SSE_TOKEN")},
	} {
		_, err := Connect(bg(t), SSE(url), opts...)
		var cd *ConnectionDroppedError
		if !errors.As(err, &cd) {
			t.Fatalf("%s: want a *ConnectionDroppedError, got %T: %v", name, err, err)
		}
		if !strings.Contains(err.Error(), "HTTP 401") {
			t.Errorf("%s: the error does not say HTTP 401: %v", name, err)
		}
		if strings.Contains(err.Error(), remoteToken) || strings.Contains(cd.StderrTail, remoteToken) {
			t.Errorf("%s: the token is in the error: %v", name, err)
		}
	}
}

func TestRealASuiteRunsAgainstTheProtectedSSEServerWithTheTokenFromAVariable(t *testing.T) {
	url := protectedSSE(t)
	file := filepath.Join(t.TempDir(), "add.yaml")
	suite := "name: add over sse\nassert:\n  tool: add\n  args: {a: 2, b: 3}\n  expect:\n    equals: \"5\"\n"
	if err := os.WriteFile(file, []byte(suite), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MCPTEST_GO_SSE_TOKEN", remoteToken)
	_, passed := recordSuite([]string{file}, WithDefaultServer(SSE(url)), WithBearerEnv("MCPTEST_GO_SSE_TOKEN"))
	if len(passed) != 1 || passed[0].status() != "pass" {
		t.Fatalf("with the token: %+v", passed)
	}
	_, failed := recordSuite([]string{file}, WithDefaultServer(SSE(url)))
	if len(failed) != 1 || failed[0].status() != "fail" || !strings.Contains(failed[0].message(), "HTTP 401") {
		t.Fatalf("without the token: %+v", failed)
	}
	if strings.Contains(failed[0].message(), remoteToken) {
		t.Errorf("the token is in the failure: %s", failed[0].message())
	}
	// A per-test server, through RunTest.
	c, err := Open(bg(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tests, err := c.ListSuite(bg(t), []string{file}, "")
	if err != nil || len(tests) != 1 {
		t.Fatalf("ListSuite: %v %+v", err, tests)
	}
	v, err := c.RunTest(bg(t), tests[0].ID, RunOptions{Server: SSE(url), Credentials: []Option{WithBearerEnv("MCPTEST_GO_SSE_TOKEN")}})
	if err != nil || v.Status != "pass" {
		t.Fatalf("RunTest with the token: %v %+v", err, v)
	}
	v, err = c.RunTest(bg(t), tests[0].ID, RunOptions{Server: SSE(url)})
	if err != nil || v.Status != "fail" || v.Failure == nil || !strings.Contains(*v.Failure, "HTTP 401") {
		t.Fatalf("RunTest without the token: %v %+v", err, v)
	}
	if strings.Contains(*v.Failure, remoteToken) || strings.Contains(c.Stderr(), remoteToken) {
		t.Errorf("the token is in the failure or the binary's stderr")
	}
}

func TestCredentialsReachTheBinaryAsFlags(t *testing.T) {
	c := Start(t, URL("https://mcp.example/mcp"), withFake(t, "ok"), WithCheckFrames(false),
		WithHeader("X-Api-Key", "${API_KEY}"), WithBearerEnv("MCP_TOKEN"),
		WithClientCredentials("ci", "MCP_SECRET"), WithTokenURL("https://auth.example/token"))
	want := []string{"exec", "--connection-server", "--call-timeout", "30000ms", "--server-url", "https://mcp.example/mcp",
		"--header", "X-Api-Key: ${API_KEY}", "--bearer-env", "MCP_TOKEN",
		"--client-id", "ci", "--client-secret-env", "MCP_SECRET", "--token-url", "https://auth.example/token"}
	if got := argvOf(t, c.Stderr()); !equalStrings(got, want) {
		t.Errorf("argv\n got: %q\nwant: %q", got, want)
	}
	s := Start(t, SSE("http://127.0.0.1:9/sse"), withFake(t, "ok"), WithCheckFrames(false))
	want = []string{"exec", "--connection-server", "--call-timeout", "30000ms", "--server-sse", "http://127.0.0.1:9/sse"}
	if got := argvOf(t, s.Stderr()); !equalStrings(got, want) {
		t.Errorf("argv\n got: %q\nwant: %q", got, want)
	}
}

func TestABadRemoteServerNamesTheOption(t *testing.T) {
	for _, tc := range []struct {
		server Server
		opts   []Option
		want   string
	}{
		{Command("srv"), []Option{WithBearerEnv("T")}, "WithBearerEnv applies to a server reached at mcptest.URL or mcptest.SSE, and this session has a command server"},
		{Command("srv"), []Option{WithHeader("A", "b")}, "WithHeader applies to a server reached at mcptest.URL or mcptest.SSE"},
		{SSE("ws://x/sse"), nil, `SSE("ws://x/sse"): not an http:// or https:// URL`},
		{URL("file:///mcp"), nil, `URL("file:///mcp"): not an http:// or https:// URL`},
		{SSE("http://x/sse"), []Option{WithEnv("A", "b")}, "WithEnv applies to a server started from a command, and this session has a URL server"},
		{URL("http://x/mcp"), []Option{WithTokenURL("http://x/token")}, "WithTokenURL needs WithClientCredentials"},
		{URL("http://x/mcp"), []Option{WithTokenURL("x/token")}, `WithTokenURL("x/token"): not an http:// or https:// URL`},
		{URL("http://x/mcp"), []Option{WithBearerEnv("A=B")}, `WithBearerEnv("A=B"): a variable name is not empty`},
		{URL("http://x/mcp"), []Option{WithClientCredentials("ci", "")}, `WithClientCredentials("ci", ""):`},
		{URL("http://x/mcp"), []Option{WithHeader("Bad Name", "v")}, `WithHeader("Bad Name", ...)`},
	} {
		_, err := Connect(bg(t), tc.server, append(tc.opts, withFake(t, "ok"))...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: want an error containing %q, got %v", tc.server, tc.want, err)
		}
	}
}
