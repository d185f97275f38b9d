// The server under test and the options of Start, Connect, Open and
// RunSuite.

package mcptest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Server is how the binary reaches the MCP server under test: a program and
// its arguments (started over stdio, never through a shell), or a Streamable
// HTTP URL.
//
//	srv := mcptest.Command("python3", "server.py", "--stdio")
type Server struct {
	argv []string
	url  string
}

// Command is a server started as a program with arguments, exactly as
// given: no shell splitting, no shell.
//
//	c := mcptest.Start(t, mcptest.Command("python3", "server.py"))
func Command(program string, args ...string) Server {
	return Server{argv: append([]string{program}, args...)}
}

// URL is a server reached over Streamable HTTP.
//
//	c := mcptest.Start(t, mcptest.URL("http://127.0.0.1:3001/mcp"))
func URL(url string) Server { return Server{url: url} }

func (s Server) isZero() bool { return len(s.argv) == 0 && s.url == "" }

func (s Server) String() string {
	if s.url != "" {
		return s.url
	}
	return strings.Join(s.argv, " ")
}

// Default limits.
const (
	// DefaultCallTimeout is the binary's --call-timeout unless WithCallTimeout says otherwise.
	DefaultCallTimeout = 30 * time.Second
	// DefaultTimeoutMargin is how much longer than the binary's own limit the SDK waits.
	DefaultTimeoutMargin = 5 * time.Second
	// DefaultStartTimeout bounds spawning the binary and its handshake.
	DefaultStartTimeout = 30 * time.Second
	// DefaultShutdownGrace is how long Close waits before it kills the binary.
	DefaultShutdownGrace = 3 * time.Second
	// DefaultTestTimeout is how long the SDK waits for one suite test when WithTestTimeout is not given.
	DefaultTestTimeout = 2 * time.Minute
)

// config is everything an Option can set.
type config struct {
	binary        string
	binaryDir     string
	env           [][2]string
	dir           string
	callTimeout   time.Duration
	margin        time.Duration
	startTimeout  time.Duration
	grace         time.Duration
	checkFrames   *bool
	sdkName       string
	maxLineBytes  int
	problems      []string
	serverOptions []string // names of options that apply to the server, for errors
}

func defaultConfig() config {
	return config{
		callTimeout:  DefaultCallTimeout,
		margin:       DefaultTimeoutMargin,
		startTimeout: DefaultStartTimeout,
		grace:        DefaultShutdownGrace,
		sdkName:      "go",
	}
}

// Option configures Start, Connect and Open, and (for the binary and the
// default server) RunSuite.
//
//	mcptest.Start(t, srv, mcptest.WithCallTimeout(5*time.Second))
type Option func(*config)

func (o Option) applySuite(s *suiteConfig) { o(&s.client) }

// WithEnv sets an environment variable of the MCP server the binary starts
// (added to the environment it inherits). In RunSuite it applies to the
// server given by WithDefaultServer.
//
//	mcptest.Start(t, srv, mcptest.WithEnv("API_KEY", "test"))
func WithEnv(key, value string) Option {
	return func(c *config) {
		if key == "" || strings.Contains(key, "=") {
			c.problems = append(c.problems, fmt.Sprintf("WithEnv(%q, ...): a variable name is not empty and has no '='", key))
			return
		}
		c.env = append(c.env, [2]string{key, value})
		c.serverOptions = append(c.serverOptions, "WithEnv")
	}
}

// WithDir sets the working directory of the MCP server the binary starts.
// In RunSuite it applies to the server given by WithDefaultServer.
//
//	mcptest.Start(t, srv, mcptest.WithDir("testdata"))
func WithDir(dir string) Option {
	return func(c *config) {
		c.dir = dir
		c.serverOptions = append(c.serverOptions, "WithDir")
	}
}

// WithCallTimeout is how long one MCP call may take (the binary's
// --call-timeout). The SDK itself waits this plus the margin.
//
//	mcptest.Start(t, srv, mcptest.WithCallTimeout(2*time.Second))
func WithCallTimeout(d time.Duration) Option {
	return func(c *config) {
		if d < time.Millisecond {
			c.problems = append(c.problems, fmt.Sprintf("WithCallTimeout(%v): the limit is at least 1ms", d))
			return
		}
		c.callTimeout = d
	}
}

// WithTimeoutMargin is how much longer than the binary's own limit the SDK
// waits for an answer before it declares the binary hung.
//
//	mcptest.Start(t, srv, mcptest.WithTimeoutMargin(time.Second))
func WithTimeoutMargin(d time.Duration) Option {
	return func(c *config) {
		if d < 0 {
			c.problems = append(c.problems, fmt.Sprintf("WithTimeoutMargin(%v): the margin is not negative", d))
			return
		}
		c.margin = d
	}
}

// WithStartTimeout bounds starting the binary and its handshake.
//
//	mcptest.Start(t, srv, mcptest.WithStartTimeout(10*time.Second))
func WithStartTimeout(d time.Duration) Option {
	return func(c *config) {
		if d <= 0 {
			c.problems = append(c.problems, fmt.Sprintf("WithStartTimeout(%v): the limit is positive", d))
			return
		}
		c.startTimeout = d
	}
}

// WithShutdownGrace is how long Close waits for the binary to exit after
// mcp.shutdown before it kills it.
//
//	mcptest.Start(t, srv, mcptest.WithShutdownGrace(time.Second))
func WithShutdownGrace(d time.Duration) Option {
	return func(c *config) {
		if d < 0 {
			c.problems = append(c.problems, fmt.Sprintf("WithShutdownGrace(%v): the grace is not negative", d))
			return
		}
		c.grace = d
	}
}

// WithBinary names the mcptest binary, instead of MCPTEST_BIN or PATH.
//
//	mcptest.Start(t, srv, mcptest.WithBinary("/opt/mcptest/bin/mcptest"))
func WithBinary(path string) Option { return func(c *config) { c.binary = path } }

// WithBinaryDir is the binary's working directory: suite paths and the
// fixture directory are resolved against it (default: the test's).
//
//	mcptest.RunSuite(t, []string{"tests/evals"}, mcptest.WithBinaryDir("../.."))
func WithBinaryDir(dir string) Option { return func(c *config) { c.binaryDir = dir } }

// WithCheckFrames turns the binary's --check-frames on or off: it validates
// every frame it receives and sends against the coprocess schema. Without
// this option, the environment variable MCPTEST_CHECK_FRAMES=1 turns it on.
//
//	mcptest.Start(t, srv, mcptest.WithCheckFrames(true))
func WithCheckFrames(on bool) Option { return func(c *config) { c.checkFrames = &on } }

// WithMaxLineBytes is the binary's --max-line-bytes: the longest request
// line it accepts.
//
//	mcptest.Start(t, srv, mcptest.WithMaxLineBytes(16<<20))
func WithMaxLineBytes(n int) Option {
	return func(c *config) {
		if n <= 0 {
			c.problems = append(c.problems, fmt.Sprintf("WithMaxLineBytes(%d): the limit is positive", n))
			return
		}
		c.maxLineBytes = n
	}
}

// checkFramesOn is the effective --check-frames setting.
func (c *config) checkFramesOn() bool {
	if c.checkFrames != nil {
		return *c.checkFrames
	}
	on, _ := strconv.ParseBool(os.Getenv("MCPTEST_CHECK_FRAMES"))
	return on
}

// argv is the binary's command line for a session with server (may be zero).
func (c *config) argv(server Server) []string {
	args := []string{"exec", "--connection-server", "--call-timeout", formatDuration(c.callTimeout)}
	if c.checkFramesOn() {
		args = append(args, "--check-frames")
	}
	if c.maxLineBytes > 0 {
		args = append(args, "--max-line-bytes", strconv.Itoa(c.maxLineBytes))
	}
	if server.isZero() {
		return args
	}
	for _, kv := range c.env {
		args = append(args, "--server-env", kv[0]+"="+kv[1])
	}
	if c.dir != "" {
		args = append(args, "--server-cwd", c.dir)
	}
	if server.url != "" {
		return append(args, "--server-url", server.url)
	}
	return append(append(args, "--"), server.argv...)
}

// formatDuration writes d in the binary's duration syntax.
func formatDuration(d time.Duration) string {
	ms := d.Milliseconds()
	if ms < 1 {
		ms = 1
	}
	return strconv.FormatInt(ms, 10) + "ms"
}
