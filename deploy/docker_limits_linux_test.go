//go:build linux

package deploy_test

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// podmanLimits are the --ulimit flags for podman: nofile and nproc at this
// process's hard limits, at most 4096 (see containerEngine).
func podmanLimits() []string {
	var flags []string
	for _, r := range []struct {
		name     string
		resource int
	}{{"nofile", unix.RLIMIT_NOFILE}, {"nproc", unix.RLIMIT_NPROC}} {
		n := uint64(4096)
		var l unix.Rlimit
		if unix.Getrlimit(r.resource, &l) == nil && l.Max < n {
			n = l.Max
		}
		flags = append(flags, "--ulimit", fmt.Sprintf("%s=%d:%d", r.name, n, n))
	}
	return flags
}
