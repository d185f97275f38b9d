// Command bench measures one mcp.call round trip through the Go SDK: echo
// on fixture-everything, after a warm-up, mean of -n calls.
//
//	MCPTEST_BIN=/abs/mcptest MCPTEST_FIXTURES=/abs/fixtures go run ./bench -n 1000
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"mcptest.invalid/mcptest"
)

func main() {
	n := flag.Int("n", 1000, "measured calls (at least 500)")
	warmup := flag.Int("warmup", 100, "calls before measuring")
	checkFrames := flag.Bool("check-frames", false, "have the binary validate every frame (slower; the tests' setting)")
	flag.Parse()
	if *n < 500 {
		fail(fmt.Errorf("-n %d: measure at least 500 calls", *n))
	}
	fixtures := os.Getenv("MCPTEST_FIXTURES")
	if fixtures == "" {
		fail(fmt.Errorf("set MCPTEST_FIXTURES to the directory holding fixture-everything"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	c, err := mcptest.Connect(ctx, mcptest.Command(filepath.Join(fixtures, "fixture-everything")), mcptest.WithCheckFrames(*checkFrames))
	if err != nil {
		fail(err)
	}
	defer c.Close()
	args := map[string]any{"message": "ping"}
	for i := 0; i < *warmup; i++ {
		if _, err := c.Call(ctx, "echo", args); err != nil {
			fail(err)
		}
	}
	took := make([]time.Duration, *n)
	for i := range took {
		started := time.Now()
		v, err := c.Call(ctx, "echo", args)
		took[i] = time.Since(started)
		if err != nil || v.Text != "ping" {
			fail(fmt.Errorf("call %d: %v %+v", i, err, v))
		}
	}
	var total time.Duration
	for _, d := range took {
		total += d
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	fmt.Printf("mcp.call echo round trip over %d calls (check-frames %v): mean %v, median %v, p99 %v\n",
		*n, *checkFrames, (total / time.Duration(*n)).Round(time.Microsecond),
		took[len(took)/2].Round(time.Microsecond), took[len(took)*99/100].Round(time.Microsecond))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}
