//go:build !unix

package proctest

import "os/exec"

// kill kills cmd's process.
func kill(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
