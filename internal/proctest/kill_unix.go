//go:build unix

package proctest

import (
	"os/exec"
	"syscall"
)

// kill sends SIGKILL to cmd's process, or to its whole group when it was
// started with Setpgid (nginx's workers die with their master).
func kill(cmd *exec.Cmd) {
	if a := cmd.SysProcAttr; a != nil && a.Setpgid {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		return
	}
	_ = cmd.Process.Kill()
}
