// The binary as a child process: finding it, spawning it with its own
// pipes, draining its stderr, reading its stdout line by line, and stopping
// it (politely, then by force) without leaving a goroutine or a process
// behind.

package mcptest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// findBinary resolves the mcptest binary: the explicit path, then
// MCPTEST_BIN, then `mcptest` on PATH.
func findBinary(explicit string) (string, error) {
	var tried []string
	candidate := explicit
	source := "WithBinary"
	if candidate == "" {
		candidate = os.Getenv("MCPTEST_BIN")
		source = "MCPTEST_BIN"
	}
	if candidate != "" {
		tried = append(tried, fmt.Sprintf("%s=%s", source, candidate))
		info, err := os.Stat(candidate)
		if err != nil {
			return "", &BinaryNotFoundError{Tried: tried, Err: err}
		}
		if info.IsDir() || info.Mode()&0o111 == 0 {
			return "", &BinaryNotFoundError{Tried: tried, Err: fmt.Errorf("%s is not an executable file", candidate)}
		}
		return candidate, nil
	}
	tried = append(tried, "MCPTEST_BIN (unset)", "`mcptest` on PATH")
	path, err := exec.LookPath("mcptest")
	if err != nil {
		return "", &BinaryNotFoundError{Tried: tried, Err: err}
	}
	return path, nil
}

// stderrTailBytes is how much of the binary's stderr is kept for messages.
const stderrTailBytes = 16 << 10

// tail keeps the last bytes written to it.
type tail struct {
	mu   sync.Mutex
	buf  []byte
	seen int64
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seen += int64(len(p))
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - stderrTailBytes; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String is the kept tail, starting at a line boundary when one is near.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(t.buf)
	if int64(len(t.buf)) < t.seen {
		if i := strings.IndexByte(s, '\n'); i >= 0 && i < 512 {
			s = s[i+1:]
		}
		s = "…" + s
	}
	return s
}

// line is one stdout line, or the error that ended stdout.
type line struct {
	data []byte
	err  error
}

// process is one running binary.
type process struct {
	cmd     *exec.Cmd
	stdin   *os.File
	stdout  *os.File
	stderr  *os.File
	lines   chan line
	errTail tail
	// exited is closed once the process has been reaped; state is valid then.
	exited   chan struct{}
	exitCode int
	// quit stops the stdout reader when nobody will read another line.
	quit     chan struct{}
	quitOnce sync.Once
	readers  sync.WaitGroup
	// stderrDone is closed when the stderr drain has ended.
	stderrDone chan struct{}
}

// spawn starts the binary with argv, in dir (when not empty). Its stdin,
// stdout and stderr are pipes of this process; nothing else holds them.
func spawn(binary string, argv []string, dir string) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	cmd := exec.Command(binary, argv...)
	cmd.Dir = dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	ownProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		return nil, fmt.Errorf("mcptest: starting %s: %w", binary, err)
	}
	// The child has its copies; ours would keep the pipes open after it exits.
	closeAll(inR, outW, errW)
	p := &process{
		cmd:    cmd,
		stdin:  inW,
		stdout: outR,
		stderr: errR,
		lines:  make(chan line),
		exited: make(chan struct{}),
		quit:   make(chan struct{}),

		stderrDone: make(chan struct{}),
	}
	p.readers.Add(2)
	go p.readStdout()
	go p.drainStderr()
	go p.reap()
	return p, nil
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

func (p *process) pid() int { return p.cmd.Process.Pid }

// readStdout sends each line to p.lines until stdout ends or quit closes.
func (p *process) readStdout() {
	defer p.readers.Done()
	defer close(p.lines)
	r := bufio.NewReaderSize(p.stdout, 64<<10)
	for {
		data, err := r.ReadBytes('\n')
		if len(data) > 0 && err == nil {
			select {
			case p.lines <- line{data: data}:
			case <-p.quit:
				return
			}
			continue
		}
		if err == nil || errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) {
			err = io.EOF
		}
		select {
		case p.lines <- line{err: err}:
		case <-p.quit:
		}
		return
	}
}

// drainStderr keeps reading stderr so the binary never blocks on a full
// pipe; the end of it is kept for messages.
func (p *process) drainStderr() {
	defer p.readers.Done()
	defer close(p.stderrDone)
	_, _ = io.Copy(&p.errTail, p.stderr)
}

func (p *process) reap() {
	err := p.cmd.Wait()
	p.exitCode = -1
	if p.cmd.ProcessState != nil {
		p.exitCode = p.cmd.ProcessState.ExitCode()
	}
	_ = err
	close(p.exited)
}

// send writes one frame line, giving up at the deadline.
func (p *process) send(frame []byte, deadline time.Time) error {
	_ = p.stdin.SetWriteDeadline(deadline)
	_, err := p.stdin.Write(frame)
	return err
}

// waitExit waits up to d for the process to be reaped.
func (p *process) waitExit(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-p.exited:
		return true
	case <-timer.C:
		return false
	}
}

// settleStderr gives the stderr drain a moment to catch the binary's last
// words after it exited (a grandchild may hold the pipe: do not wait for EOF).
func (p *process) settleStderr() {
	timer := time.NewTimer(200 * time.Millisecond)
	defer timer.Stop()
	select {
	case <-p.stderrDone:
	case <-timer.C:
	}
}

// stop ends the process: stdin closed, then up to grace for it to exit,
// then a kill of its process group. It always reaps the process and ends
// both reader goroutines. It reports whether a kill was needed.
func (p *process) stop(grace time.Duration) (killed bool) {
	_ = p.stdin.Close()
	if !p.waitExit(grace) {
		killed = true
		p.killNow()
		// SIGKILL cannot be ignored; the bound only guards against a
		// process stuck in the kernel.
		p.waitExit(5 * time.Second)
	}
	// The binary is gone; its children (the MCP server) may still hold the
	// pipes for a moment. Wait briefly, then close our ends to end the readers.
	p.settleStderr()
	p.quitOnce.Do(func() { close(p.quit) })
	closeAll(p.stdout, p.stderr)
	p.readers.Wait()
	return killed
}

// killNow kills the process group while its leader has not been reaped
// (after that its id may name another process).
func (p *process) killNow() {
	select {
	case <-p.exited:
	default:
		killGroup(p.cmd)
	}
}

// kill ends the process at once (after a timeout or a broken frame).
func (p *process) kill() {
	p.killNow()
	p.stop(0)
}
