//go:build !linux

package proctest

import "os/exec"

// DieWithTest does nothing outside Linux: the tests' cleanups stop their
// processes.
func DieWithTest(cmd *exec.Cmd) {}
