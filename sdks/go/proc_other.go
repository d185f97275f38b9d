//go:build !unix

// Elsewhere the binary is killed alone; its MCP server ends when the
// binary's pipes close.

package mcptest

import "os/exec"

func ownProcessGroup(*exec.Cmd) {}

func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
