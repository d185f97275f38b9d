//go:build unix

// RunSuite's glue against the fake binary: one subtest per listed test,
// failures with the engine's text at file:line, skips naming the command,
// collection errors, and the parameters suite.run receives.

package mcptest

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestRunSuiteTurnsEachListedTestIntoOneSubtest(t *testing.T) {
	top, results := recordSuite([]string{"evals"}, withFake(t, "ok"))
	if top.status() != "pass" {
		t.Fatalf("top level: %+v", top)
	}
	got := byName(results)
	if len(results) != 6 {
		t.Fatalf("want 6 subtests, got %d: %+v", len(results), results)
	}
	checks := []struct{ name, status, text string }{
		{"passes", "pass", ""},
		{"fails", "fail", "evals/fake.yaml:9:3: `fails` failed\nexpected text to equal \"5\"\n  got: \"6\""},
		{"skipped in the file", "skip", "evals/fake.yaml:14:3: skip: true in the file"},
		{"needs the conformance lane", "skip", "evals/fake.yaml:19:3: the compliance lane runs from the command line (run it with: mcptest conformance --server CMD)"},
		{"a lane the handshake does not list", "skip", `evals/fake.yaml:24:3: the "sampling" lane is not driven over the coprocess by this binary (it drives: tool, resources)`},
		{"skipped by the runner", "skip", "evals/fake.yaml:29:3: skip_unless_env: SOME_VAR is not set"},
	}
	for _, c := range checks {
		o, ok := got[c.name]
		if !ok {
			t.Errorf("no subtest %q", c.name)
			continue
		}
		if o.status() != c.status || strings.TrimSpace(o.message()) != c.text {
			t.Errorf("%s: %s %q, want %s %q", c.name, o.status(), strings.TrimSpace(o.message()), c.status, c.text)
		}
	}
}

func TestRunSuitePassesFixtureServerTimeoutAndWireSchema(t *testing.T) {
	want := `{"fixture":"testdata/fixture","id":"evals/fake.yaml::passes","server":{"argv":["srv","--root","{{fixture}}"],"cwd":"/tmp","env":{"K":"v"}},"timeout_ms":1500,"wire_schema":"warn"}`
	if got := suiteRunParams(t, WithFixture("testdata/fixture"), WithDefaultServer(Command("srv", "--root", "{{fixture}}")),
		WithEnv("K", "v"), WithDir("/tmp"), WithTestTimeout(1500*time.Millisecond), WithWireSchema("warn")); got != want {
		t.Errorf("RunSuite: suite.run params\n got: %s\nwant: %s", got, want)
	}
	c := openFake(t)
	got := runTestParams(t, c, RunOptions{
		Fixture: "testdata/fixture", Server: Command("srv", "--root", "{{fixture}}"),
		Env: map[string]string{"K": "v"}, Dir: "/tmp", Timeout: 1500 * time.Millisecond, WireSchema: "warn",
	})
	if got != want {
		t.Errorf("RunTest: suite.run params\n got: %s\nwant: %s", got, want)
	}
}

// suiteRunParams runs the suite "evals" through the fake that fails each
// test with the params suite.run received, and returns those of the test
// "passes" (the JSON after "params: " in its one failure).
func suiteRunParams(t *testing.T, opts ...SuiteOption) string {
	t.Helper()
	_, results := recordSuite([]string{"evals"}, append([]SuiteOption{withFake(t, "echo-params")}, opts...)...)
	o, ok := byName(results)["passes"]
	if !ok || len(o.errors) != 1 {
		t.Fatalf("want one failure of the test \"passes\" saying its params, got %+v", results)
	}
	_, params, found := strings.Cut(o.errors[0], "\nparams: ")
	if !found {
		t.Fatalf("the failure of \"passes\" says no params:\n%s", o.errors[0])
	}
	return params
}

// openFake opens a client on the fake binary in its "ok" mode, closed when
// the test ends.
func openFake(t *testing.T) *Client {
	t.Helper()
	c, err := Open(bg(t), withFake(t, "ok"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// runTestParams runs the test "passes" with run through c (the fake echoes
// the params suite.run received in the verdict's properties), and returns
// those params as compact JSON.
func runTestParams(t *testing.T, c *Client, run RunOptions) string {
	t.Helper()
	v, err := c.RunTest(bg(t), "evals/fake.yaml::passes", run)
	if err != nil {
		t.Fatal(err)
	}
	var params map[string]any
	if err := json.Unmarshal([]byte(v.Properties["params"]), &params); err != nil {
		t.Fatalf("the params echoed are not JSON: %v\n%s", err, v.Properties["params"])
	}
	compact, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	return string(compact)
}

func TestASuitesServerAtAURLCarriesTheCredentialsOptions(t *testing.T) {
	want := `{"id":"evals/fake.yaml::passes","server":{"bearer_env":"MCP_TOKEN","client_id":"ci","client_secret_env":"MCP_SECRET","headers":{"X-Api-Key":"${API_KEY}"},"sse":"http://127.0.0.1:9/sse","token_url":"http://127.0.0.1:9/token"}}`
	if got := suiteRunParams(t, WithDefaultServer(SSE("http://127.0.0.1:9/sse")), WithHeader("X-Api-Key", "${API_KEY}"),
		WithBearerEnv("MCP_TOKEN"), WithClientCredentials("ci", "MCP_SECRET"), WithTokenURL("http://127.0.0.1:9/token")); got != want {
		t.Errorf("RunSuite: suite.run params\n got: %s\nwant: %s", got, want)
	}
	c := openFake(t)
	got := runTestParams(t, c, RunOptions{
		Server: URL("http://127.0.0.1:9/mcp"), Credentials: []Option{WithBearerEnv("MCP_TOKEN")},
	})
	if want := `{"id":"evals/fake.yaml::passes","server":{"bearer_env":"MCP_TOKEN","url":"http://127.0.0.1:9/mcp"}}`; got != want {
		t.Errorf("RunTest: suite.run params\n got: %s\nwant: %s", got, want)
	}
	for _, tc := range []struct {
		run  RunOptions
		want string
	}{
		{RunOptions{Server: Command("srv"), Credentials: []Option{WithBearerEnv("T")}}, "WithBearerEnv applies to a Server at mcptest.URL or mcptest.SSE, and this one is a command"},
		{RunOptions{Server: SSE("http://x/sse"), Credentials: []Option{WithCallTimeout(time.Second)}}, "RunOptions.Credentials takes only WithHeader"},
		{RunOptions{Server: SSE("http://x/sse"), Credentials: []Option{WithTokenURL("http://x/token")}}, "WithTokenURL needs WithClientCredentials"},
		{RunOptions{Server: SSE("http://x/sse"), Credentials: []Option{WithBearerEnv("A=B")}}, `WithBearerEnv("A=B")`},
	} {
		if _, err := c.RunTest(bg(t), "evals/fake.yaml::passes", tc.run); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("want an error containing %q, got %v", tc.want, err)
		}
	}
	top, _ := recordSuite([]string{"evals"}, withFake(t, "ok"), WithDefaultServer(Command("srv")), WithBearerEnv("T"))
	if !strings.Contains(top.fatal, "WithBearerEnv applies to the server of WithDefaultServer(mcptest.URL(...)) or WithDefaultServer(mcptest.SSE(...))") {
		t.Errorf("credentials on a command: %+v", top)
	}
}

func TestAFileThatDoesNotLoadIsACollectionErrorAndTheRestStillRuns(t *testing.T) {
	top, results := recordSuite([]string{"evals/broken.yaml", "evals"}, withFake(t, "ok"))
	want := "collection error in evals/broken.yaml:3:5:\nevals/broken.yaml:3:5: unknown key `expectt` (did you mean `expect`?)"
	if len(top.errors) != 1 || top.errors[0] != want {
		t.Errorf("collection error: %q", top.errors)
	}
	if len(results) != 6 {
		t.Errorf("the other path's tests still run: %d", len(results))
	}
}

func TestASuiteWithNoTestsFailsInsteadOfPassingVacuously(t *testing.T) {
	top, _ := recordSuite([]string{"evals/empty"}, withFake(t, "ok"))
	if !strings.Contains(top.fatal, "no tests in evals/empty") {
		t.Errorf("top level: %+v", top)
	}
	c, err := Open(bg(t), withFake(t, "ok"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ListSuite(bg(t), nil, ""); err == nil || !strings.Contains(err.Error(), "no paths given") {
		t.Errorf("ListSuite without paths: %v", err)
	}
	top, _ = recordSuite(nil, withFake(t, "ok"))
	if !strings.Contains(top.fatal, "no suite paths given") {
		t.Errorf("no paths: %+v", top)
	}
	top, _ = recordSuite([]string{"evals"}, withFake(t, "ok"), WithEnv("K", "v"), WithWireSchema("loud"))
	if !strings.Contains(top.fatal, "WithEnv applies to the server of WithDefaultServer") || !strings.Contains(top.fatal, `WithWireSchema("loud")`) {
		t.Errorf("bad options: %+v", top)
	}
}

func TestRunSuiteRefusesAnOlderBinaryBeforeListing(t *testing.T) {
	top, results := recordSuite([]string{"evals"}, withFake(t, "older"))
	if !strings.Contains(top.fatal, "Upgrade the mcptest binary") || len(results) != 0 {
		t.Errorf("top %+v, %d subtests", top, len(results))
	}
}

// The real *testing.T: this test runs the test binary again on
// TestSuiteGlueChild and reads `go test -v`'s own report.
func TestRunSuiteReportsThroughGoTest(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run", "^TestSuiteGlueChild$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPTEST_GO_CHILD=suite-glue", "MCPTEST_GO_FAKE="+fake(t, "ok"))
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child run passed, but one suite test fails:\n%s", out)
	}
	text := string(out)
	// Failures point at the user's RunSuite line, then the suite file's.
	if !regexp.MustCompile("suite_fake_test\\.go:\\d+: evals/fake\\.yaml:9:3: `fails` failed").MatchString(text) {
		t.Errorf("the failure is not reported at the RunSuite call:\n%s", text)
	}
	for _, want := range []string{
		"--- PASS: TestSuiteGlueChild/passes",
		"--- FAIL: TestSuiteGlueChild/fails",
		"evals/fake.yaml:9:3:",
		"expected text to equal \"5\"",
		"--- SKIP: TestSuiteGlueChild/needs_the_conformance_lane",
		"(run it with: mcptest conformance --server CMD)",
		"--- SKIP: TestSuiteGlueChild/skipped_by_the_runner",
		"--- FAIL: TestSuiteGlueChild ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the go test report lacks %q:\n%s", want, text)
		}
	}
}

// TestSuiteGlueChild is the body that TestRunSuiteReportsThroughGoTest runs
// in a child process; it does not run on its own.
func TestSuiteGlueChild(t *testing.T) {
	if os.Getenv("MCPTEST_GO_CHILD") != "suite-glue" {
		t.Skip("the child process of TestRunSuiteReportsThroughGoTest; it runs there")
	}
	RunSuite(t, []string{"evals"}, WithBinary(os.Getenv("MCPTEST_GO_FAKE")))
}
