package proctest

import (
	"os/exec"
	"syscall"
)

// DieWithTest makes the kernel kill cmd's process if the test binary dies
// first (a test timeout, say), so no server outlives the tests. Call it
// before Start.
func DieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
