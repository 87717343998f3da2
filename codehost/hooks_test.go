package codehost

import (
	"strings"
	"testing"
)

func TestVerifySignature(t *testing.T) {
	body := []byte(`{"zen":"Keep it logically awesome."}`)
	// GitHub's documented example: secret "It's a Secret to Everybody",
	// payload "Hello, World!".
	if !VerifySignature("It's a Secret to Everybody", []byte("Hello, World!"),
		"sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17") {
		t.Error("GitHub's documented example does not verify")
	}
	good := Sign("s3cret", body)
	for _, c := range []struct {
		name, secret, sig string
		want              bool
	}{
		{"right", "s3cret", good, true},
		{"wrong secret", "other", good, false},
		{"missing", "s3cret", "", false},
		{"sha1 form", "s3cret", "sha1=" + good[7:], false},
		{"not hex", "s3cret", "sha256=zz", false},
		{"no secret configured", "", Sign("", body), false},
	} {
		if got := VerifySignature(c.secret, body, c.sig); got != c.want {
			t.Errorf("%s: verified %v, want %v", c.name, got, c.want)
		}
	}
	if VerifySignature("s3cret", append(body, ' '), good) {
		t.Error("a changed body verified")
	}
}

func TestParseHook(t *testing.T) {
	pr := `{"action":"synchronize","number":7,"repository":{"full_name":"acme/web"},
		"pull_request":{"number":7,"title":"Faster cart","state":"closed","merged":true,"user":{"login":"ada"},
		"base":{"ref":"main"},"head":{"ref":"feature/cart","sha":"0123456789abcdef0123456789abcdef01234567"},"updated_at":"2026-11-28T10:00:00Z"}}`
	d, ok, err := ParseHook("d1", "pull_request", []byte(pr))
	if err != nil || !ok {
		t.Fatalf("pull_request: ok %v, err %v", ok, err)
	}
	want := PullRequest{Number: 7, Title: "Faster cart", Author: "ada", BaseBranch: "main", HeadBranch: "feature/cart",
		HeadSHA: "0123456789abcdef0123456789abcdef01234567", State: "closed", Merged: true, UpdatedAt: d.PullRequest.UpdatedAt}
	if *d.PullRequest != want || d.Repository != "acme/web" || d.Action != "synchronize" || d.PullRequest.UpdatedAt.IsZero() {
		t.Errorf("parsed %+v %+v", d, *d.PullRequest)
	}
	in, ok, err := ParseHook("d2", "installation", []byte(`{"action":"deleted","installation":{"id":99},"repositories":[{"full_name":"acme/web"}]}`))
	if err != nil || !ok || in.Installation.ID != 99 || !in.Installation.Deleted || len(in.Installation.Repositories) != 1 {
		t.Errorf("installation: %+v, %v, %v", in.Installation, ok, err)
	}
	added, ok, err := ParseHook("d3", "installation_repositories", []byte(`{"action":"added","installation":{"id":99},
		"repositories_added":[{"full_name":"acme/api"}],"repositories_removed":[]}`))
	if err != nil || !ok || added.Installation.Deleted || added.Installation.Uninstalled || strings.Join(added.Installation.Repositories, ",") != "acme/api" {
		t.Errorf("repositories added: %+v, %v, %v", added.Installation, ok, err)
	}
	removed, ok, err := ParseHook("d4", "installation_repositories", []byte(`{"action":"removed","installation":{"id":99},
		"repositories_added":[],"repositories_removed":[{"full_name":"acme/web"}]}`))
	if err != nil || !ok || !removed.Installation.Deleted || removed.Installation.Uninstalled || strings.Join(removed.Installation.Repositories, ",") != "acme/web" {
		t.Errorf("repositories removed: %+v, %v, %v", removed.Installation, ok, err)
	}
	for _, c := range []struct{ event, body string }{
		{"push", `{}`},
		{"pull_request", `{"action":"labeled"}`},
		{"ping", `not json at all`},
	} {
		if _, ok, err := ParseHook("x", c.event, []byte(c.body)); ok || err != nil {
			t.Errorf("%s %s: ok %v err %v; want ignored", c.event, c.body, ok, err)
		}
	}
	for _, c := range []struct{ event, body string }{
		{"pull_request", `{"action":"opened",`},
		{"pull_request", `{"action":"opened","repository":{"full_name":"acme/web"},"pull_request":{"number":0}}`},
		{"pull_request", `{"action":"opened","repository":{"full_name":"acme/web"},"pull_request":{"number":3,"state":"weird","head":{"sha":"abc"}}}`},
		{"installation", `{"action":"created"}`},
		{"installation", `[1,2]`},
	} {
		if _, _, err := ParseHook("x", c.event, []byte(c.body)); err == nil {
			t.Errorf("%s %s: accepted", c.event, c.body)
		}
	}
}
