package plumb

import (
	"testing"
	"time"
)

func TestIdentityNewUserLogin(t *testing.T) {
	for _, c := range []struct {
		id   Identity
		want string
	}{
		{Identity{Login: "ada.l", Email: "x@example.com"}, "ada.l"},
		{Identity{Email: "bob+ci@example.com"}, "bobci"},
		{Identity{Login: "é ü"}, "user"},
		{Identity{}, "user"},
	} {
		if got := c.id.NewUserLogin(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.id, got, c.want)
		}
	}
}

func TestSessionActiveAndLoginDelay(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	s := Session{ExpiresAt: now.Add(time.Minute)}
	if !s.Active(now) || s.Active(now.Add(time.Minute)) {
		t.Fatal("a session is active until it expires")
	}
	s.RevokedAt = &now
	if s.Active(now) {
		t.Fatal("a revoked session is active")
	}
	l := LoginLimit{Free: 2, Base: time.Second, Max: 5 * time.Second}
	for n, want := range []time.Duration{0, 0, time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second} {
		if got := l.Delay(n); got != want {
			t.Errorf("Delay(%d) = %v, want %v", n, got, want)
		}
	}
}
