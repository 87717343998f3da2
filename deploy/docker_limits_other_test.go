//go:build !linux

package deploy_test

// podmanLimits: podman's defaults (outside Linux it runs in a virtual machine).
func podmanLimits() []string { return nil }
