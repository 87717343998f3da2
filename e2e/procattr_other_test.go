//go:build !linux

package e2e

import "os/exec"

// dieWithTest does nothing outside Linux: the tests' cleanups stop their
// servers.
func dieWithTest(cmd *exec.Cmd) {}
