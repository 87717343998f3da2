package e2e

import (
	"os/exec"
	"syscall"
)

// dieWithTest makes the kernel kill cmd's process if the test binary dies
// first (a test timeout, say), so no server outlives the tests.
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
