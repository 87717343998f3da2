package sqlstore

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestBadgeTokenLifecycle(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_800_000_000, 0)
	db, p := sOpen(t, &now, Options{})

	if _, found, err := db.ProjectBadgeToken(ctx, p); err != nil || found {
		t.Fatalf("a new project has a badge token: %v, %v", found, err)
	}
	if ok, _ := db.BadgeTokenValid(ctx, p, ""); ok {
		t.Fatal("the empty token is valid on a project without one")
	}
	first, err := db.CreateBadgeToken(ctx, p, "ada")
	dCheck(t, err)
	if !strings.HasPrefix(first, BadgeTokenPrefix) || len(first) < 30 {
		t.Fatalf("secret %q", first)
	}
	info, found, err := db.ProjectBadgeToken(ctx, p)
	dCheck(t, err)
	if !found || info.CreatedBy != "ada" || !info.CreatedAt.Equal(now) {
		t.Fatalf("token info = %+v, %v", info, found)
	}
	// Only the hash is stored.
	var stored string
	dCheck(t, db.read.QueryRowContext(ctx, `SELECT hash FROM badge_tokens WHERE project_id = $1`, p).Scan(&stored))
	if stored == first || strings.Contains(stored, strings.TrimPrefix(first, BadgeTokenPrefix)) {
		t.Fatal("the secret is stored in clear")
	}
	for _, tc := range []struct {
		secret string
		want   bool
	}{{first, true}, {first + "x", false}, {"", false}, {strings.ToUpper(first), false}} {
		if ok, err := db.BadgeTokenValid(ctx, p, tc.secret); err != nil || ok != tc.want {
			t.Errorf("valid(%q) = %v, %v; want %v", tc.secret, ok, err, tc.want)
		}
	}

	// Regenerating replaces: the old secret stops working.
	second, err := db.CreateBadgeToken(ctx, p, "bob")
	dCheck(t, err)
	if second == first {
		t.Fatal("the regenerated token is the same")
	}
	if ok, _ := db.BadgeTokenValid(ctx, p, first); ok {
		t.Error("the replaced token still works")
	}
	if ok, _ := db.BadgeTokenValid(ctx, p, second); !ok {
		t.Error("the new token does not work")
	}

	// Revoking deletes; a second revoke reports there was none.
	if had, err := db.RevokeBadgeToken(ctx, p); err != nil || !had {
		t.Fatalf("revoke = %v, %v", had, err)
	}
	if ok, _ := db.BadgeTokenValid(ctx, p, second); ok {
		t.Error("the revoked token still works")
	}
	if had, err := db.RevokeBadgeToken(ctx, p); err != nil || had {
		t.Errorf("second revoke = %v, %v", had, err)
	}
	if _, err := db.CreateBadgeToken(ctx, "no-such-project", "ada"); err == nil {
		t.Error("a badge token for a missing project")
	}
}
