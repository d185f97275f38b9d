// Suites: the binary lists a suite's tests (suite.list) and runs each one
// (suite.run); RunSuite turns each into one `go test` subtest, a skipped
// one into t.Skip naming the command that runs it. The SDK never reads the
// suite files.

package mcptest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// ListSuite lists the tests of suite files and directories (every .yaml
// and .yml below a directory), resolved against the binary's working
// directory; filter, when not empty, selects tests as `mcptest run
// --filter` does. A file that does not load is a *LoadError.
//
//	tests, err := c.ListSuite(ctx, []string{"evals"}, "")
func (c *Client) ListSuite(ctx context.Context, paths []string, filter string) ([]SuiteTest, error) {
	if len(paths) == 0 {
		return nil, errors.New("mcptest: ListSuite: no paths given (files or directories of suite files)")
	}
	params := map[string]any{"paths": paths}
	if filter != "" {
		params["filter"] = filter
	}
	called := fmt.Sprintf("suite.list %s", strings.Join(paths, " "))
	raw, err := c.request(ctx, "suite.list", called, params, c.cfg.callTimeout+c.cfg.margin)
	if err != nil {
		var re *RPCError
		if errors.As(err, &re) && re.Code == -32602 {
			if le := loadError(re); le != nil {
				return nil, le
			}
		}
		return nil, err
	}
	var r struct {
		Tests []SuiteTest `json:"tests"`
	}
	if err := decodeStrict("suite.list", "the test listing", raw, &r); err != nil {
		return nil, c.brokeLocked(err)
	}
	return r.Tests, nil
}

// loadError reads suite.list's -32602 data `{file, line?, column?}`; nil
// when the error is not about a file.
func loadError(re *RPCError) *LoadError {
	var d struct {
		File   string `json:"file"`
		Line   int    `json:"line,omitempty"`
		Column int    `json:"column,omitempty"`
	}
	if len(re.Data) == 0 || decodeStrict("suite.list", "the data of error -32602", re.Data, &d) != nil || d.File == "" {
		return nil
	}
	return &LoadError{File: d.File, Line: d.Line, Column: d.Column, Message: re.Message}
}

// RunOptions are the parameters of one suite.run.
//
//	v, err := c.RunTest(ctx, id, mcptest.RunOptions{Fixture: "testdata/fixture"})
type RunOptions struct {
	// Fixture is the directory copied afresh for the test (`mcptest run --fixture`).
	Fixture string
	// Server is the server for files that name none; its env and dir come from Env and Dir.
	Server Server
	// Env and Dir are the environment additions and working directory of Server.
	Env map[string]string
	Dir string
	// Credentials are the credentials options (WithHeader, WithBearerEnv,
	// WithClientCredentials, WithTokenURL) of a Server at mcptest.URL or
	// mcptest.SSE; the binary reads the variables they name.
	Credentials []Option
	// Timeout is the test's limit, sent to the binary; zero leaves the file's own limits
	// and makes the SDK wait DefaultTestTimeout.
	Timeout time.Duration
	// WireSchema is "fail", "warn" or "off" (empty: the binary's default).
	WireSchema string

	// auth is RunSuite's credentials, already checked; Credentials when nil.
	auth *config
}

// credentials is the config the credentials options of o set, or why not.
func (o RunOptions) credentials() (*config, error) {
	if o.auth != nil {
		return o.auth, nil
	}
	c := defaultConfig()
	for _, opt := range o.Credentials {
		opt(&c)
	}
	if len(c.problems) > 0 {
		return nil, fmt.Errorf("RunOptions.Credentials: %s", strings.Join(c.problems, "; "))
	}
	rest := c
	rest.credentials, rest.credentialOptions, rest.headers = nil, nil, nil
	rest.bearerEnv, rest.clientID, rest.clientSecretEnv, rest.tokenURL = "", "", "", ""
	if !reflect.DeepEqual(rest, defaultConfig()) {
		return nil, errors.New("RunOptions.Credentials takes only WithHeader, WithBearerEnv, WithClientCredentials and WithTokenURL")
	}
	if c.tokenURL != "" && c.clientID == "" {
		return nil, errors.New("RunOptions.Credentials: WithTokenURL needs WithClientCredentials")
	}
	return &c, nil
}

// RunTest runs one listed test (suite.run) through the same runner as
// `mcptest run` and returns its verdict.
//
//	v, err := c.RunTest(ctx, tests[0].ID, mcptest.RunOptions{})
//	if err == nil && v.Status == "fail" { fmt.Println(*v.Failure) }
func (c *Client) RunTest(ctx context.Context, id string, o RunOptions) (*TestVerdict, error) {
	params := map[string]any{"id": id}
	if o.Fixture != "" {
		params["fixture"] = o.Fixture
	}
	auth, err := o.credentials()
	if err != nil {
		return nil, fmt.Errorf("mcptest: RunTest: %v", err)
	}
	url, field := o.Server.remote()
	if len(auth.credentialOptions) > 0 && field == "" {
		what := "a command"
		if o.Server.isZero() {
			what = "none"
		}
		return nil, fmt.Errorf("mcptest: RunTest: %s applies to a Server at mcptest.URL or mcptest.SSE, and this one is %s",
			strings.Join(auth.credentialOptions, ", "), what)
	}
	switch {
	case field != "":
		if err := o.Server.check(); err != nil {
			return nil, fmt.Errorf("mcptest: RunTest: %v", err)
		}
		server := map[string]any{strings.ToLower(field): url}
		auth.credentialParams(server)
		params["server"] = server
	case len(o.Server.argv) > 0:
		server := map[string]any{"argv": o.Server.argv}
		if len(o.Env) > 0 {
			server["env"] = o.Env
		}
		if o.Dir != "" {
			server["cwd"] = o.Dir
		}
		params["server"] = server
	}
	wait := DefaultTestTimeout
	if o.Timeout > 0 {
		params["timeout_ms"] = o.Timeout.Milliseconds()
		wait = o.Timeout
	}
	if o.WireSchema != "" {
		params["wire_schema"] = o.WireSchema
	}
	var v TestVerdict
	called := fmt.Sprintf("suite.run %q", id)
	raw, err := c.request(ctx, "suite.run", called, params, wait+c.cfg.margin)
	if err != nil {
		return nil, err
	}
	if err := decodeStrict("suite.run", "the test verdict", raw, &v); err != nil {
		return nil, c.brokeLocked(err)
	}
	switch v.Status {
	case "pass", "fail", "skip":
	default:
		return nil, c.brokeLocked(&ProtocolError{Method: "suite.run", Field: "$.status",
			Detail: fmt.Sprintf("status is pass, fail or skip, not %q", v.Status)})
	}
	return &v, nil
}

// SuiteOption configures RunSuite; every Option is one too.
//
//	mcptest.RunSuite(t, paths, mcptest.WithFixture("testdata/fixture"), mcptest.WithCallTimeout(time.Second))
type SuiteOption interface{ applySuite(*suiteConfig) }

type suiteOption func(*suiteConfig)

func (o suiteOption) applySuite(s *suiteConfig) { o(s) }

type suiteConfig struct {
	client     config
	fixture    string
	server     Server
	filter     string
	timeout    time.Duration
	wireSchema string
	problems   []string
}

// WithFixture is the fixture directory copied afresh for every test
// (`mcptest run --fixture`), resolved against the binary's working directory.
//
//	mcptest.RunSuite(t, []string{"evals"}, mcptest.WithFixture("testdata/fixture"))
func WithFixture(dir string) SuiteOption {
	return suiteOption(func(s *suiteConfig) { s.fixture = dir })
}

// WithDefaultServer is the server for suite files that name none. WithEnv
// and WithDir apply to a command; WithHeader, WithBearerEnv,
// WithClientCredentials and WithTokenURL to a server at mcptest.URL or
// mcptest.SSE.
//
//	mcptest.RunSuite(t, paths, mcptest.WithDefaultServer(mcptest.Command("./server", "--root", "{{fixture}}")))
//	mcptest.RunSuite(t, paths, mcptest.WithDefaultServer(mcptest.SSE(u)), mcptest.WithBearerEnv("MCP_TOKEN"))
func WithDefaultServer(server Server) SuiteOption {
	return suiteOption(func(s *suiteConfig) {
		if server.isZero() {
			s.problems = append(s.problems, "WithDefaultServer: the server is empty")
		}
		s.server = server
	})
}

// WithFilter runs only the tests the filter selects (`mcptest run --filter`).
//
//	mcptest.RunSuite(t, paths, mcptest.WithFilter("echo"))
func WithFilter(filter string) SuiteOption {
	return suiteOption(func(s *suiteConfig) { s.filter = filter })
}

// WithTestTimeout is each suite test's time limit, sent to the binary; the
// SDK waits this plus the margin.
//
//	mcptest.RunSuite(t, paths, mcptest.WithTestTimeout(20*time.Second))
func WithTestTimeout(d time.Duration) SuiteOption {
	return suiteOption(func(s *suiteConfig) {
		if d < time.Millisecond {
			s.problems = append(s.problems, fmt.Sprintf("WithTestTimeout(%v): the limit is at least 1ms", d))
		}
		s.timeout = d
	})
}

// WithWireSchema is how the runner treats frames that break the MCP
// schema: "fail", "warn" or "off" (`mcptest run --wire-schema`).
//
//	mcptest.RunSuite(t, paths, mcptest.WithWireSchema("warn"))
func WithWireSchema(mode string) SuiteOption {
	return suiteOption(func(s *suiteConfig) {
		switch mode {
		case "fail", "warn", "off":
		default:
			s.problems = append(s.problems, fmt.Sprintf("WithWireSchema(%q): the mode is fail, warn or off", mode))
		}
		s.wireSchema = mode
	})
}

// suiteT is what RunSuite needs of *testing.T; the SDK's own tests drive it
// with a recorder to check every verdict.
type suiteT interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
	Run(name string, f func(suiteT)) bool
	context() (context.Context, context.CancelFunc)
}

type testingT struct{ *testing.T }

// Run marks every frame between the user's RunSuite call and a failure as
// a helper, so `go test` shows the user's line next to the suite file's.
func (t testingT) Run(name string, f func(suiteT)) bool {
	t.T.Helper()
	return t.T.Run(name, func(t *testing.T) {
		t.Helper()
		f(testingT{t})
	})
}

func (t testingT) context() (context.Context, context.CancelFunc) { return testContext(t.T) }

// RunSuite runs suite files as subtests of t: the binary lists the tests of
// paths (files or directories, resolved against the binary's working
// directory) and runs each one; each becomes a subtest named after the
// test. A failed test reports the engine's failure text at the test's
// file:line; a test the binary will not run here is skipped with the
// reason and the command that runs it; a file that does not load is an
// error naming it. One binary serves the whole run and is shut down at its end.
//
//	func TestEvals(t *testing.T) {
//		mcptest.RunSuite(t, []string{"testdata/evals"},
//			mcptest.WithDefaultServer(mcptest.Command("./server")),
//			mcptest.WithFixture("testdata/fixture"))
//	}
func RunSuite(t *testing.T, paths []string, opts ...SuiteOption) {
	t.Helper()
	runSuite(testingT{t}, paths, opts)
}

func runSuite(t suiteT, paths []string, opts []SuiteOption) {
	t.Helper()
	s := suiteConfig{client: defaultConfig()}
	for _, o := range opts {
		o.applySuite(&s)
	}
	problems := append(append([]string(nil), s.client.problems...), s.problems...)
	if len(s.client.serverOptions) > 0 && len(s.server.argv) == 0 {
		problems = append(problems, strings.Join(s.client.serverOptions, ", ")+" applies to the server of WithDefaultServer(mcptest.Command(...)), and none was given")
	}
	if _, field := s.server.remote(); len(s.client.credentialOptions) > 0 && field == "" {
		problems = append(problems, strings.Join(s.client.credentialOptions, ", ")+" applies to the server of WithDefaultServer(mcptest.URL(...)) or WithDefaultServer(mcptest.SSE(...)), and none was given")
	}
	if s.client.tokenURL != "" && s.client.clientID == "" {
		problems = append(problems, "WithTokenURL needs WithClientCredentials")
	}
	if err := s.server.check(); err != nil {
		problems = append(problems, "WithDefaultServer: "+strings.TrimPrefix(err.Error(), "mcptest."))
	}
	if len(paths) == 0 {
		problems = append(problems, "no suite paths given")
	}
	if len(problems) > 0 {
		t.Fatalf("mcptest.RunSuite: %s", strings.Join(problems, "; "))
	}
	ctx, cancel := t.context()
	defer cancel()
	session := s.client
	session.env, session.dir = nil, ""
	c, err := startSession(ctx, session, Server{})
	if err != nil {
		t.Fatalf("mcptest.RunSuite: %v", err)
	}
	defer func() {
		if err := c.Close(); err != nil {
			t.Errorf("mcptest.RunSuite: %v", err)
		}
	}()

	// One listing per path, so that a file that does not load costs only
	// its own path's tests.
	var tests []SuiteTest
	collectionErrors := 0
	for _, path := range paths {
		listed, err := c.ListSuite(ctx, []string{path}, s.filter)
		var le *LoadError
		switch {
		case errors.As(err, &le):
			collectionErrors++
			t.Errorf("collection error in %s:\n%s", le.Location(), le.Message)
		case err != nil:
			t.Fatalf("mcptest.RunSuite: listing %s: %v", path, err)
		default:
			tests = append(tests, listed...)
		}
	}
	if len(tests) == 0 {
		if collectionErrors == 0 {
			filter := ""
			if s.filter != "" {
				filter = fmt.Sprintf(" matching the filter %q", s.filter)
			}
			t.Fatalf("mcptest.RunSuite: no tests%s in %s (paths resolve against the binary's working directory)", filter, strings.Join(paths, ", "))
		}
		return
	}
	var env map[string]string
	if len(s.client.env) > 0 {
		env = make(map[string]string, len(s.client.env))
		for _, kv := range s.client.env {
			env[kv[0]] = kv[1]
		}
	}
	auth := s.client
	run := RunOptions{Fixture: s.fixture, Server: s.server, Env: env, Dir: s.client.dir, Timeout: s.timeout, WireSchema: s.wireSchema, auth: &auth}
	hs := c.Handshake()
	for _, test := range tests {
		test := test
		t.Run(test.Name, func(t suiteT) {
			t.Helper()
			runSuiteTest(ctx, t, c, hs, test, run)
		})
	}
}

// runSuiteTest is the body of one suite subtest.
func runSuiteTest(ctx context.Context, t suiteT, c *Client, hs Handshake, test SuiteTest, run RunOptions) {
	t.Helper()
	if test.Skip != nil {
		t.Skipf("%s: %s", test.Location(), skipText(test.Skip.Reason, test.Skip.Command))
	}
	if !hs.HasLane(test.Lane) {
		t.Skipf("%s: the %q lane is not driven over the coprocess by this binary (it drives: %s)",
			test.Location(), test.Lane, strings.Join(hs.Lanes, ", "))
	}
	v, err := c.RunTest(ctx, test.ID, run)
	if err != nil {
		t.Errorf("%s: mcptest could not run the test: %v", test.Location(), err)
		return
	}
	where := v.Location
	if where == "" {
		where = test.Location()
	}
	switch v.Status {
	case "fail":
		failure := "(the binary gave no failure text)"
		if v.Failure != nil && strings.TrimSpace(*v.Failure) != "" {
			failure = *v.Failure
		}
		if strings.HasPrefix(failure, where) {
			// The engine's text already opens with the location.
			t.Errorf("%s", failure)
		} else {
			t.Errorf("%s:\n%s", where, failure)
		}
	case "skip":
		reason := "skipped by the runner"
		if v.SkipReason != nil && *v.SkipReason != "" {
			reason = *v.SkipReason
		}
		t.Skipf("%s: %s", where, reason)
	}
}

func skipText(reason, command string) string {
	if command == "" {
		return reason
	}
	return fmt.Sprintf("%s (run it with: %s)", reason, command)
}

func location(file string, line, column int) string {
	switch {
	case line > 0 && column > 0:
		return fmt.Sprintf("%s:%d:%d", file, line, column)
	case line > 0:
		return fmt.Sprintf("%s:%d", file, line)
	default:
		return file
	}
}
