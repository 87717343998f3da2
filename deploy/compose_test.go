package deploy_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The compose file runs what docs/deploy.md describes: PostgreSQL, Redis,
// two replicas on them, and nginx with deploy/nginx/plumb.conf whose
// upstream servers are the replicas' addresses. With a working "docker
// compose" the file is also checked by compose itself.
func TestComposeFile(t *testing.T) {
	b, err := os.ReadFile("compose/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Services map[string]struct {
			Image       string            `yaml:"image"`
			Build       map[string]string `yaml:"build"`
			NetworkMode string            `yaml:"network_mode"`
			Environment map[string]string `yaml:"environment"`
			Volumes     []string          `yaml:"volumes"`
			DependsOn   map[string]any    `yaml:"depends_on"`
			StopGrace   string            `yaml:"stop_grace_period"`
			Ports       []string          `yaml:"ports"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range doc.Services {
		names = append(names, n)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "nginx,plumb1,plumb2,postgres,redis" {
		t.Fatalf("services %v", names)
	}
	conf, err := os.ReadFile("nginx/plumb.conf")
	if err != nil {
		t.Fatal(err)
	}
	upstream := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s*server (127\.0\.0\.1:\d+)`).FindAllStringSubmatch(string(conf), -1) {
		upstream[m[1]] = true
	}
	nginx := doc.Services["nginx"]
	mounted := false
	for _, v := range nginx.Volumes {
		src, dst, _ := strings.Cut(v, ":")
		if dst == "/etc/nginx/conf.d/plumb.conf:ro" {
			mounted = filepath.Clean(filepath.Join("compose", src)) == filepath.Join("nginx", "plumb.conf")
		}
	}
	if !mounted || len(nginx.Ports) == 0 {
		t.Errorf("nginx does not run deploy/nginx/plumb.conf or publishes nothing: %+v", nginx)
	}
	for _, name := range []string{"plumb1", "plumb2"} {
		s := doc.Services[name]
		env := s.Environment
		if !upstream[env["PLUMB_ADDR"]] {
			t.Errorf("%s listens on %q, not an upstream server of plumb.conf (%v)", name, env["PLUMB_ADDR"], upstream)
		}
		delete(upstream, env["PLUMB_ADDR"])
		if s.NetworkMode != "service:nginx" || !strings.Contains(env["PLUMB_DATABASE_URL"], "@postgres:5432/") || env["PLUMB_REDIS_URL"] != "redis://redis:6379/0" {
			t.Errorf("%s: network %q, environment %v", name, s.NetworkMode, env)
		}
		if s.StopGrace != "35s" || s.DependsOn["postgres"] == nil || s.DependsOn["redis"] == nil {
			t.Errorf("%s: stop_grace_period %q, depends_on %v", name, s.StopGrace, s.DependsOn)
		}
		if df := s.Build["dockerfile"]; df != "deploy/Dockerfile" || s.Build["context"] != "../.." {
			t.Errorf("%s builds %v", name, s.Build)
		}
	}
	if len(upstream) != 0 {
		t.Errorf("upstream servers without a replica: %v", upstream)
	}
	if out, err := exec.Command("docker", "compose", "version").CombinedOutput(); err != nil {
		t.Logf("docker compose is not available (%v), so compose itself did not check the file: %s", err, strings.TrimSpace(string(out)))
		return
	}
	cmd := exec.Command("docker", "compose", "-f", "compose/compose.yaml", "config", "--quiet")
	cmd.Env = append(os.Environ(), "PLUMB_DB_PASSWORD=test")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("docker compose config: %v\n%s", err, out)
	}
}
