package plumb

import (
	"testing"
	"time"
)

func TestWorkspaceAndProjectInputs(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	w, err := WorkspaceInput{Key: " acme "}.Workspace("w1", now)
	if err != nil || w.Key != "acme" || w.AvatarURL != "https://github.com/acme.png" || w.ProviderURL != "https://github.com/acme" || !w.CreatedAt.Equal(now) {
		t.Fatalf("%+v, %v", w, err)
	}
	w, err = WorkspaceInput{Key: "acme", AvatarURL: "https://example.com/a.png", ProviderURL: "https://example.com/acme"}.Workspace("w1", now)
	if err != nil || w.AvatarURL != "https://example.com/a.png" || w.ProviderURL != "https://example.com/acme" {
		t.Fatalf("given URLs: %+v, %v", w, err)
	}
	if _, err := (WorkspaceInput{Key: "a b"}).Workspace("w1", now); ErrorCode(err) != EINVALID {
		t.Fatalf("key with a space: %v", err)
	}
	p, err := ProjectInput{Workspace: "acme", Key: "web"}.Project("p1", now)
	if err != nil || p.DefaultBranch != "main" || p.Key != "web" || p.ID != "p1" {
		t.Fatalf("%+v, %v", p, err)
	}
	if p, _ := (ProjectInput{Key: "web", DefaultBranch: "trunk"}).Project("p1", now); p.DefaultBranch != "trunk" {
		t.Fatalf("default branch %q, want trunk", p.DefaultBranch)
	}
	if _, err := (ProjectInput{Key: ""}).Project("p1", now); ErrorCode(err) != EINVALID {
		t.Fatalf("empty key: %v", err)
	}
}
