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
// its arguments (started over stdio, never through a shell), a Streamable
// HTTP URL, or a legacy HTTP+SSE event-stream URL. A URL server takes the
// credentials options (WithHeader, WithBearerEnv, WithClientCredentials,
// WithTokenURL).
//
//	srv := mcptest.Command("python3", "server.py", "--stdio")
type Server struct {
	argv []string
	url  string
	sse  string
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

// SSE is a server of the legacy HTTP+SSE transport (2024-11-05), named by
// its event-stream URL.
//
//	c := mcptest.Start(t, mcptest.SSE("http://127.0.0.1:3001/sse"), mcptest.WithBearerEnv("MCP_TOKEN"))
func SSE(url string) Server { return Server{sse: url} }

func (s Server) isZero() bool { return len(s.argv) == 0 && s.url == "" && s.sse == "" }

// remote is the server's URL and its field name, or "" for a command.
func (s Server) remote() (url, field string) {
	if s.sse != "" {
		return s.sse, "SSE"
	}
	if s.url != "" {
		return s.url, "URL"
	}
	return "", ""
}

// check is the server's own problem, if any: a URL that is not http(s).
func (s Server) check() error {
	url, field := s.remote()
	if field != "" && !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		return fmt.Errorf("mcptest.%s(%q): not an http:// or https:// URL", field, url)
	}
	return nil
}

func (s Server) String() string {
	if s.sse != "" {
		return s.sse + " (sse)"
	}
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
	// credentials are the binary's flags for a URL server's credentials;
	// credentialOptions name the options that set them, for errors.
	credentials       []string
	credentialOptions []string
	// headers and bearerEnv are what credentials says, as suite.run's
	// server param names them.
	headers         [][2]string
	bearerEnv       string
	clientID        string
	clientSecretEnv string
	tokenURL        string
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

// WithHeader adds a header the binary sends to a URL server (--header
// "NAME: VALUE"); the value may say ${VAR}, which the binary reads from its
// environment (inherited from the test's), so a secret stays off every
// command line.
//
//	mcptest.Start(t, mcptest.URL(u), mcptest.WithHeader("X-Api-Key", "${API_KEY}"))
func WithHeader(name, value string) Option {
	return func(c *config) {
		if name == "" || strings.ContainsAny(name, ": \t\r\n") || strings.ContainsAny(value, "\r\n") {
			c.problems = append(c.problems, fmt.Sprintf("WithHeader(%q, ...): a header name has no ':' or whitespace and its value is one line", name))
			return
		}
		c.credentials = append(c.credentials, "--header", name+": "+value)
		c.headers = append(c.headers, [2]string{name, value})
		c.credentialOptions = append(c.credentialOptions, "WithHeader")
	}
}

// WithBearerEnv names the environment variable holding a bearer token for a
// URL server (--bearer-env): the binary sends "Authorization: Bearer TOKEN".
//
//	mcptest.Start(t, mcptest.SSE(u), mcptest.WithBearerEnv("MCP_TOKEN"))
func WithBearerEnv(variable string) Option {
	return func(c *config) {
		if !variableName(variable) {
			c.problems = append(c.problems, fmt.Sprintf("WithBearerEnv(%q): a variable name is not empty and has no '='", variable))
			return
		}
		c.credentials = append(c.credentials, "--bearer-env", variable)
		c.bearerEnv = variable
		c.credentialOptions = append(c.credentialOptions, "WithBearerEnv")
	}
}

// WithClientCredentials has the binary get a token for a URL server by the
// OAuth client-credentials grant (--client-id, --client-secret-env): the
// secret is read from the variable secretEnv. The token endpoint comes from
// the server's protected-resource metadata unless WithTokenURL names it.
//
//	mcptest.Start(t, mcptest.URL(u), mcptest.WithClientCredentials("ci", "MCP_SECRET"))
func WithClientCredentials(clientID, secretEnv string) Option {
	return func(c *config) {
		if clientID == "" || !variableName(secretEnv) {
			c.problems = append(c.problems, fmt.Sprintf("WithClientCredentials(%q, %q): the client id is not empty and the secret's variable name is not empty and has no '='", clientID, secretEnv))
			return
		}
		c.clientID, c.clientSecretEnv = clientID, secretEnv
		c.credentialOptions = append(c.credentialOptions, "WithClientCredentials")
	}
}

// WithTokenURL is the token endpoint of WithClientCredentials (--token-url).
//
//	mcptest.WithTokenURL("https://auth.example/token")
func WithTokenURL(url string) Option {
	return func(c *config) {
		if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
			c.problems = append(c.problems, fmt.Sprintf("WithTokenURL(%q): not an http:// or https:// URL", url))
			return
		}
		c.tokenURL = url
		c.credentialOptions = append(c.credentialOptions, "WithTokenURL")
	}
}

func variableName(name string) bool {
	return name != "" && !strings.ContainsAny(name, "=\x00")
}

// checkServer is every problem of server with the options: server options
// on a URL server, credentials on a command or none, a URL not http(s).
func (c *config) checkServer(server Server) []string {
	var problems []string
	if err := server.check(); err != nil {
		problems = append(problems, strings.TrimPrefix(err.Error(), "mcptest."))
	}
	_, field := server.remote()
	if len(c.serverOptions) > 0 && len(server.argv) == 0 {
		what := "no server"
		if field != "" {
			what = "a URL server"
		}
		problems = append(problems, fmt.Sprintf("%s applies to a server started from a command, and this session has %s", strings.Join(c.serverOptions, ", "), what))
	}
	if len(c.credentialOptions) > 0 && field == "" {
		what := "no server"
		if len(server.argv) > 0 {
			what = "a command server (give its secrets with WithEnv)"
		}
		problems = append(problems, fmt.Sprintf("%s applies to a server reached at mcptest.URL or mcptest.SSE, and this session has %s", strings.Join(c.credentialOptions, ", "), what))
	}
	if c.tokenURL != "" && c.clientID == "" {
		problems = append(problems, "WithTokenURL needs WithClientCredentials")
	}
	return problems
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
	if server.sse != "" {
		return append(append(args, "--server-sse", server.sse), c.credentialFlags()...)
	}
	if server.url != "" {
		return append(append(args, "--server-url", server.url), c.credentialFlags()...)
	}
	return append(append(args, "--"), server.argv...)
}

// credentialFlags are the binary's flags for a URL server's credentials.
func (c *config) credentialFlags() []string {
	flags := append([]string(nil), c.credentials...)
	if c.clientID != "" {
		flags = append(flags, "--client-id", c.clientID, "--client-secret-env", c.clientSecretEnv)
	}
	if c.tokenURL != "" {
		flags = append(flags, "--token-url", c.tokenURL)
	}
	return flags
}

// credentialParams adds the credentials to param, suite.run's server
// param of a URL or SSE server, under suite.run's names (variables are
// named, never read: the binary reads them).
func (c *config) credentialParams(param map[string]any) {
	if len(c.headers) > 0 {
		headers := make(map[string]string, len(c.headers))
		for _, h := range c.headers {
			headers[h[0]] = h[1]
		}
		param["headers"] = headers
	}
	for key, value := range map[string]string{
		"bearer_env":        c.bearerEnv,
		"client_id":         c.clientID,
		"client_secret_env": c.clientSecretEnv,
		"token_url":         c.tokenURL,
	} {
		if value != "" {
			param[key] = value
		}
	}
}

// formatDuration writes d in the binary's duration syntax.
func formatDuration(d time.Duration) string {
	ms := d.Milliseconds()
	if ms < 1 {
		ms = 1
	}
	return strconv.FormatInt(ms, 10) + "ms"
}
