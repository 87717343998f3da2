package deploy_test

import (
	"archive/tar"
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/internal/testtool"
)

// engine is the container tool that the test drives, with the flags this
// machine needs.
type engine struct {
	tool   string   // docker, podman or buildah
	canRun bool     // buildah builds only
	global []string // before the subcommand: podman --runtime runc
	limits []string // after build and run: --ulimit ...
	build  []string // after build: podman --layers=false
}

// containerEngine is the first container tool that works here: docker with
// a running daemon, podman, or buildah (build only).
//
// With podman, two settings make it work inside an unprivileged sandbox
// (and are harmless elsewhere): the runc runtime when it is installed
// (Debian 12's crun refuses cgroup v1 hybrid mode: "cgroups in hybrid mode
// not supported"), and resource limits no higher than this process's hard
// limits (podman raises nofile and nproc by default, which needs
// CAP_SYS_RESOURCE; here even nproc at the hard limit was refused, so both
// are capped at 4096, plenty for one plumb process).
func containerEngine() engine {
	if _, err := exec.LookPath("docker"); err == nil && exec.Command("docker", "info").Run() == nil {
		return engine{tool: "docker", canRun: true}
	}
	if _, err := exec.LookPath("podman"); err == nil {
		e := engine{tool: "podman", canRun: true}
		if runc, err := exec.LookPath("runc"); err == nil {
			e.global = []string{"--runtime", runc}
		}
		e.limits = podmanLimits()
		// No intermediate images (about 1 GB a build) stay behind once
		// the test removes its image.
		e.build = []string{"--layers=false"}
		return e
	}
	if _, err := exec.LookPath("buildah"); err == nil {
		return engine{tool: "buildah"}
	}
	return engine{}
}

// command is the tool running subcommand with args, with the engine's flags.
func (e engine) command(ctx context.Context, sub string, args ...string) *exec.Cmd {
	all := append([]string{}, e.global...)
	if e.tool == "buildah" && sub == "build" {
		sub = "bud"
	}
	all = append(all, sub)
	if sub == "build" || sub == "bud" || sub == "run" {
		all = append(all, e.limits...)
	}
	if sub == "build" {
		all = append(all, e.build...)
	}
	return exec.CommandContext(ctx, e.tool, append(all, args...)...)
}

// output runs subcommand and returns its trimmed standard output; the test
// fails with the command's output when it fails.
func (e engine) output(t *testing.T, sub string, args ...string) string {
	t.Helper()
	cmd := e.command(context.Background(), sub, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s %s: %v\n%s%s", e.tool, sub, strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return strings.TrimSpace(string(out))
}

// deploy/Dockerfile builds, and the image serves plumb as documented: /healthz
// and /readyz answer 200, "plumb version" and administration commands run in
// the container, the process runs as uid 65532 with its SQLite database in the
// volume /data, and SIGTERM stops it cleanly. The base images are the
// Dockerfile's defaults when they can be pulled, else local stand-ins
// (standInImages); the log says which. Without a container tool the test says
// what to install and skips.
func TestDockerfile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a container image")
	}
	e := containerEngine()
	if e.tool == "" {
		testtool.Missing(t, "no container builder here (docker without a daemon, no podman or buildah): install podman and runc (apt-get install podman runc) to build and run deploy/Dockerfile in this test")
	}
	id := fmt.Sprintf("%d", time.Now().UnixNano())
	buildArgs, which := baseImages(t, e, id)
	t.Logf("%s: %s", e.tool, which)
	gp, err := exec.Command("go", "env", "GOPROXY").Output()
	if err != nil {
		t.Fatal(err)
	}
	buildArgs = append(buildArgs, "--build-arg", "GOPROXY="+strings.TrimSpace(string(gp)))

	tag := "localhost/plumb-test:" + id
	start := time.Now()
	build := e.command(context.Background(), "build", append(buildArgs, "-f", "deploy/Dockerfile", "-t", tag, ".")...)
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s build: %v\n%s", e.tool, err, lastLines(string(out), 30))
	}
	t.Cleanup(func() { e.command(context.Background(), "rmi", "-f", tag).Run() })
	t.Logf("built %s in %s", tag, time.Since(start).Round(time.Second))
	if !e.canRun {
		t.Logf("%s cannot run containers, so the image was not started", e.tool)
		return
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	name, volume := "plumb-test-"+id, "plumb-test-data-"+id
	e.output(t, "volume", "create", volume)
	t.Cleanup(func() { e.command(context.Background(), "volume", "rm", "-f", volume).Run() })
	t.Cleanup(func() { e.command(context.Background(), "rm", "-f", name).Run() })
	// As docs/deploy.md runs it, without --rm so that the exit code stays.
	e.output(t, "run", "-d", "--name", name, "-p", fmt.Sprintf("127.0.0.1:%d:8080", port), "-v", volume+":/data", "--stop-timeout", "35", tag)

	for _, path := range []string{"/healthz", "/readyz"} {
		deadline := time.Now().Add(60 * time.Second)
		for {
			resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, path))
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == 200 {
					break
				}
				err = fmt.Errorf("status %d", resp.StatusCode)
			}
			if time.Now().After(deadline) || e.output(t, "inspect", "--format", "{{.State.Running}}", name) != "true" {
				logs, _ := e.command(context.Background(), "logs", name).CombinedOutput()
				t.Fatalf("the container never answered %s 200 (%v)\n%s", path, err, logs)
			}
			time.Sleep(300 * time.Millisecond)
		}
	}

	if out := e.output(t, "exec", name, "/usr/local/bin/plumb", "version"); !strings.HasPrefix(out, "plumb ") {
		t.Errorf("plumb version printed %q", out)
	}
	// The administration command of docs/deploy.md, on the server's database.
	e.output(t, "exec", name, "/usr/local/bin/plumb", "user", "create", "alice")
	if out := e.output(t, "exec", name, "/usr/local/bin/plumb", "user", "list"); !strings.Contains(out, "alice") {
		t.Errorf("plumb user list after user create alice:\n%s", out)
	}

	// The server process, seen from the host (a root engine maps ids 1:1).
	if os.Geteuid() == 0 {
		pid := e.output(t, "inspect", "--format", "{{.State.Pid}}", name)
		status, err := os.ReadFile("/proc/" + pid + "/status")
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`(?m)^Uid:\s+(\d+)\s+(\d+).*$`).FindSubmatch(status)
		if m == nil {
			t.Fatalf("no Uid line in /proc/%s/status:\n%s", pid, status)
		}
		if string(m[1]) != "65532" || string(m[2]) != "65532" {
			t.Errorf("the server process (pid %s): %q, want real and effective uid 65532", pid, m[0])
		}
	} else {
		t.Log("not root: the process's uid is checked through its database file's owner only")
	}
	// The database, seen from the container: /data/plumb.db, the process's.
	dbOwner := -1
	cp := e.command(context.Background(), "cp", name+":/data", "-")
	tarOut, err := cp.Output()
	if err != nil {
		t.Fatalf("%s cp %s:/data -: %v", e.tool, name, err)
	}
	tr := tar.NewReader(bytes.NewReader(tarOut))
	var files []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fmt.Sprintf("%s (uid %d, %d bytes)", h.Name, h.Uid, h.Size))
		if h.Name == "data/plumb.db" && h.Size > 0 {
			dbOwner = h.Uid
		}
	}
	if dbOwner != 65532 {
		t.Errorf("want data/plumb.db owned by uid 65532 in the volume /data, got %v", files)
	}

	// SIGTERM: plumb drains and exits 0 well before the 35 s after which the
	// engine would kill it (exit 137).
	e.output(t, "stop", "-t", "35", name)
	if code := e.output(t, "inspect", "--format", "{{.State.ExitCode}}", name); code != "0" {
		logs, _ := e.command(context.Background(), "logs", name).CombinedOutput()
		t.Errorf("exit code after stop: %s, want 0\n%s", code, logs)
	}
	if logs, _ := e.command(context.Background(), "logs", name).CombinedOutput(); !strings.Contains(string(logs), `msg=stopped`) {
		t.Errorf("the log does not say the server stopped:\n%s", logs)
	}
}

// baseImages returns the --build-arg flags choosing deploy/Dockerfile's base
// images, and a sentence saying which were used: none (the defaults) when
// the engine can pull them, else local stand-ins.
func baseImages(t *testing.T, e engine, id string) ([]string, string) {
	dockerfile, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defaults := map[string]string{}
	for _, arg := range []string{"GO_IMAGE", "RUNTIME_IMAGE"} {
		m := regexp.MustCompile(`(?m)^ARG ` + arg + `=(\S+)$`).FindSubmatch(dockerfile)
		if m == nil {
			t.Fatalf("deploy/Dockerfile has no ARG %s=... line", arg)
		}
		defaults[arg] = string(m[1])
	}
	var failed []string
	for _, arg := range []string{"GO_IMAGE", "RUNTIME_IMAGE"} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		out, err := e.command(ctx, "pull", defaults[arg]).CombinedOutput()
		cancel()
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v: %s", defaults[arg], err, lastLines(string(out), 1)))
		}
	}
	if failed == nil {
		return nil, fmt.Sprintf("the real base images %s and %s", defaults["GO_IMAGE"], defaults["RUNTIME_IMAGE"])
	}
	if e.tool == "buildah" {
		testtool.Missing(t, "the base images cannot be pulled (%s) and this test makes stand-ins with podman or docker only: install podman (apt-get install podman runc)", strings.Join(failed, "; "))
	}
	goImage, runtimeImage := standInImages(t, e, id)
	return []string{"--build-arg", "GO_IMAGE=" + goImage, "--build-arg", "RUNTIME_IMAGE=" + runtimeImage},
		fmt.Sprintf("stand-ins %s and %s for the base images, which cannot be pulled (%s)", goImage, runtimeImage, strings.Join(failed, "; "))
}

// standInImages imports two local images that stand in for deploy/Dockerfile's
// base images on a machine without registry access:
//
//   - for golang:1.26-bookworm, this machine's Go toolchain (GOROOT) at
//     /usr/local/go, with GOTOOLCHAIN=local, GOPATH=/go and PATH as the golang
//     image sets them, CA certificates for the module proxy, and a static
//     busybox as /bin/sh and mkdir for the Dockerfile's shell-form RUN steps;
//   - for distroless/static:nonroot, what that image holds and plumb may use:
//     /etc/passwd and /etc/group with nonroot (65532), CA certificates,
//     time zones, /tmp, and USER 65532:65532.
//
// Both are removed when the test ends.
func standInImages(t *testing.T, e engine, id string) (goImage, runtimeImage string) {
	busybox, err := exec.LookPath("busybox")
	if err == nil && !isStatic(busybox) {
		err = errors.New(busybox + " is linked dynamically")
	}
	if err != nil {
		testtool.Missing(t, "the base images cannot be pulled, and the Go stand-in needs a static busybox (apt-get install busybox-static): %v", err)
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	goroot := strings.TrimSpace(string(out))
	goImage = "localhost/plumb-test-go:" + id
	importImage(t, e, goImage, []string{
		"ENV PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"ENV GOTOOLCHAIN=local", "ENV GOPATH=/go", "WORKDIR /go",
	}, func(w *imageTar) {
		w.system("root:x:0:0:root:/root:/bin/sh\n", "root:x:0:\n")
		w.dir("go", 0o777, 0)
		w.file("bin/busybox", busybox)
		w.symlink("bin/sh", "busybox")
		w.symlink("bin/mkdir", "busybox")
		w.tree("usr/local/go", goroot)
	})
	runtimeImage = "localhost/plumb-test-runtime:" + id
	importImage(t, e, runtimeImage, []string{
		"ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"ENV SSL_CERT_FILE=" + caCertificates, "USER 65532:65532", "WORKDIR /home/nonroot",
	}, func(w *imageTar) {
		w.system("root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n",
			"root:x:0:\nnobody:x:65534:\nnonroot:x:65532:\n")
		w.dir("home/nonroot", 0o700, 65532)
		if _, err := os.Stat("/usr/share/zoneinfo"); err == nil {
			w.tree("usr/share/zoneinfo", "/usr/share/zoneinfo")
		}
	})
	return goImage, runtimeImage
}

// isStatic reports whether the executable at path has no program
// interpreter (dynamic loader).
func isStatic(path string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return false
		}
	}
	return true
}

// importImage makes image from the file system that fill writes, with the
// Dockerfile instructions changes ("podman import --change").
func importImage(t *testing.T, e engine, image string, changes []string, fill func(*imageTar)) {
	t.Helper()
	start := time.Now()
	args := []string{}
	for _, c := range changes {
		args = append(args, "--change", c)
	}
	cmd := e.command(context.Background(), "import", append(args, "-", image)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &imageTar{tw: tar.NewWriter(stdin), dirs: map[string]bool{}}
	fill(w)
	if w.err == nil {
		w.err = w.tw.Close()
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil || w.err != nil {
		t.Fatalf("%s import %s: %v %v\n%s", e.tool, image, err, w.err, out.Bytes())
	}
	t.Cleanup(func() { e.command(context.Background(), "rmi", "-f", image).Run() })
	t.Logf("imported %s in %s", image, time.Since(start).Round(100*time.Millisecond))
}

// imageTar writes an image's file system as a tar stream, with the parent
// directories of every entry; the first error stops it.
type imageTar struct {
	tw   *tar.Writer
	dirs map[string]bool
	err  error
}

func (w *imageTar) write(h *tar.Header, body io.Reader) {
	if w.err != nil {
		return
	}
	if parent := filepath.Dir(strings.TrimSuffix(h.Name, "/")); parent != "." && !w.dirs[parent] {
		w.dir(parent, 0o755, 0)
	}
	h.ModTime = time.Unix(0, 0)
	h.Uname, h.Gname = "", ""
	if w.err = w.tw.WriteHeader(h); w.err == nil && body != nil {
		_, w.err = io.Copy(w.tw, body)
	}
}

// caCertificates is the CA bundle, on Debian and in both images.
const caCertificates = "/etc/ssl/certs/ca-certificates.crt"

// system writes what both stand-ins have: /tmp, /etc/passwd, /etc/group and
// the host's CA certificates.
func (w *imageTar) system(passwd, group string) {
	w.dir("tmp", 01777, 0)
	w.text("etc/passwd", passwd, 0)
	w.text("etc/group", group, 0)
	w.file(strings.TrimPrefix(caCertificates, "/"), caCertificates)
}

func (w *imageTar) dir(name string, mode int64, uid int) {
	if w.dirs[name] {
		return
	}
	w.dirs[name] = true
	w.write(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: mode, Uid: uid, Gid: uid}, nil)
}

func (w *imageTar) text(name, body string, uid int) {
	w.write(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(body)), Uid: uid, Gid: uid}, strings.NewReader(body))
}

func (w *imageTar) symlink(name, target string) {
	w.write(&tar.Header{Typeflag: tar.TypeSymlink, Name: name, Linkname: target, Mode: 0o777}, nil)
}

// file copies the host file src (symbolic links followed) to name.
func (w *imageTar) file(name, src string) {
	if w.err != nil {
		return
	}
	f, err := os.Open(src)
	if err != nil {
		w.err = err
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		w.err = err
		return
	}
	w.write(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: int64(fi.Mode().Perm()), Size: fi.Size()}, f)
}

// tree copies the host directory src to name, keeping symbolic links and
// modes; everything belongs to root.
func (w *imageTar) tree(name, src string) {
	if w.err != nil {
		return
	}
	w.err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.ToSlash(filepath.Join(name, rel))
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			w.dirs[target] = false // (re)write with the source's mode
			w.dir(target, int64(fi.Mode().Perm()), 0)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			w.symlink(target, link)
		case d.Type().IsRegular():
			w.file(target, path)
		}
		return w.err
	})
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
