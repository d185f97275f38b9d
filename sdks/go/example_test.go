// Examples for the package documentation: compiled with the tests, not run
// (they need a server of the reader's own).

package mcptest_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"mcptest.invalid/mcptest"
)

// A client test: Start fails the test if the binary or the server does not
// come up, and shuts both down when the test ends.
func ExampleStart() {
	_ = func(t *testing.T) {
		c := mcptest.Start(t, mcptest.Command("python3", "server.py"), mcptest.WithEnv("API_KEY", "test"))
		v, err := c.Call(context.Background(), "add", map[string]any{"a": 2, "b": 3})
		if err != nil {
			t.Fatal(err)
		}
		if !v.Success || v.Text != "5" {
			t.Errorf("add(2, 3) = %q (success %v)", v.Text, v.Success)
		}
	}
}

// A suite: one subtest per test of the files.
func ExampleRunSuite() {
	_ = func(t *testing.T) {
		mcptest.RunSuite(t, []string{"testdata/evals"},
			mcptest.WithDefaultServer(mcptest.Command("python3", "server.py", "--root", "{{fixture}}")),
			mcptest.WithFixture("testdata/fixture"),
			mcptest.WithTestTimeout(20*time.Second))
	}
}

// Outside a test: Connect returns errors, typed for errors.As.
func ExampleConnect() {
	ctx := context.Background()
	c, err := mcptest.Connect(ctx, mcptest.Command("./server"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	_, err = c.Call(ctx, "rpc_error", nil)
	var upstream *mcptest.UpstreamError
	if errors.As(err, &upstream) {
		fmt.Println("the server answered", upstream.Code, upstream.Message)
	}
}
