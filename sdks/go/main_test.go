//go:build unix

// Shared test plumbing: the fake binary (built once per run from
// internal/fakemcptest and linked under one name per misbehaviour), the
// recorder that stands in for *testing.T in suite tests, and process-table
// checks.

package mcptest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var fakeDir string

func TestMain(m *testing.M) {
	// Every spawn of the real binary in these tests validates every frame
	// against the coprocess schema.
	os.Setenv("MCPTEST_CHECK_FRAMES", "1")
	if os.Getenv("MCPTEST_GO_CHILD") != "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "mcptest-go-fake-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fakeDir = dir
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	build := exec.Command(goTool, "build", "-o", filepath.Join(dir, "fakemcptest"), "./internal/fakemcptest")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the fake binary:", err)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fake is the fake binary under the name that selects its behaviour.
func fake(t testing.TB, mode string) string {
	t.Helper()
	link := filepath.Join(fakeDir, "fake-"+mode)
	if err := os.Symlink(filepath.Join(fakeDir, "fakemcptest"), link); err != nil && !errors.Is(err, os.ErrExist) {
		t.Fatal(err)
	}
	return link
}

// withFake is the option that runs the fake binary in mode.
func withFake(t testing.TB, mode string) Option { return WithBinary(fake(t, mode)) }

// gone reports whether pid is no longer in the process table.
func gone(pid int) bool {
	err := syscall.Kill(pid, 0)
	return errors.Is(err, syscall.ESRCH)
}

// assertGone fails unless pid leaves the process table within a moment.
func assertGone(t testing.TB, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !gone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) is still running", what, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func bg(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// outcome is what the recorder saw of one (sub)test.
type outcome struct {
	name    string
	errors  []string
	fatal   string
	skipped string
}

func (o outcome) status() string {
	switch {
	case o.fatal != "" || len(o.errors) > 0:
		return "fail"
	case o.skipped != "":
		return "skip"
	default:
		return "pass"
	}
}

func (o outcome) message() string {
	return strings.Join(append(append([]string(nil), o.errors...), o.fatal, o.skipped), "\n")
}

// recorder stands in for *testing.T: it runs each subtest on its own
// goroutine (Skipf and Fatalf end it with runtime.Goexit, as testing does)
// and keeps every outcome.
type recorder struct {
	outcome
	mu       *sync.Mutex
	children *[]outcome
}

func newRecorder() *recorder {
	return &recorder{mu: &sync.Mutex{}, children: &[]outcome{}}
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Run(name string, f func(suiteT)) bool {
	child := &recorder{outcome: outcome{name: name}, mu: r.mu, children: r.children}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(child)
	}()
	<-done
	r.mu.Lock()
	*r.children = append(*r.children, child.outcome)
	r.mu.Unlock()
	return child.status() != "fail"
}

func (r *recorder) context() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 5*time.Minute)
}

// recordSuite runs runSuite under a recorder: the top level's outcome and
// each subtest's.
func recordSuite(paths []string, opts ...SuiteOption) (outcome, []outcome) {
	r := newRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		runSuite(r, paths, opts)
	}()
	<-done
	return r.outcome, *r.children
}

func byName(results []outcome) map[string]outcome {
	m := make(map[string]outcome, len(results))
	for _, o := range results {
		m[o.name] = o
	}
	return m
}
