package deploy_test

import (
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// containerTool is the first container builder that works here: docker
// with a running daemon, podman, or buildah (build only).
func containerTool() (tool string, canRun bool) {
	if _, err := exec.LookPath("docker"); err == nil && exec.Command("docker", "info").Run() == nil {
		return "docker", true
	}
	if _, err := exec.LookPath("podman"); err == nil {
		return "podman", true
	}
	if _, err := exec.LookPath("buildah"); err == nil {
		return "buildah", false
	}
	return "", false
}

// deploy/Dockerfile builds, and the image serves /healthz and /readyz, when
// this machine has a container builder (docker with a daemon, podman or
// buildah); otherwise the test says what to install and skips.
func TestDockerfile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a container image")
	}
	tool, canRun := containerTool()
	if tool == "" {
		t.Skip("no container builder here (docker without a daemon, no podman or buildah): install podman or buildah (apt-get install podman) to build deploy/Dockerfile in this test")
	}
	tag := fmt.Sprintf("plumb-test:%d", time.Now().UnixNano())
	args := []string{"build", "-f", "deploy/Dockerfile", "-t", tag, "."}
	if tool == "buildah" {
		args = append([]string{"bud"}, args[1:]...)
	}
	build := exec.Command(tool, args...)
	build.Dir = ".."
	out, err := build.CombinedOutput()
	if err != nil {
		if s := string(out); strings.Contains(s, "pull") || strings.Contains(s, "registry") || strings.Contains(s, "manifest") {
			t.Skipf("%s cannot fetch the base images (no registry access from here): %v\n%s", tool, err, lastLines(s, 5))
		}
		t.Fatalf("%s build: %v\n%s", tool, err, out)
	}
	t.Cleanup(func() { exec.Command(tool, "rmi", "-f", tag).Run() })
	if !canRun {
		t.Logf("built %s with %s; %s cannot run it, so the image was not started", tag, tool, tool)
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	name := strings.ReplaceAll(strings.ReplaceAll(tag, ":", "-"), ".", "-")
	run := exec.Command(tool, "run", "-d", "--rm", "--name", name, "-p", fmt.Sprintf("127.0.0.1:%d:8080", port), tag)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("%s run: %v\n%s", tool, err, out)
	}
	t.Cleanup(func() { exec.Command(tool, "stop", "-t", "35", name).Run() })
	for _, path := range []string{"/healthz", "/readyz"} {
		deadline := time.Now().Add(60 * time.Second)
		for {
			resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, path))
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == 200 {
					break
				}
			}
			if time.Now().After(deadline) {
				logs, _ := exec.Command(tool, "logs", name).CombinedOutput()
				t.Fatalf("the container never answered %s 200 (%v)\n%s", path, err, logs)
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
