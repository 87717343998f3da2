package plumb

import (
	"net/url"
	"strings"
	"time"
)

// User is a person who holds API tokens and belongs to workspaces.
type User struct {
	ID          string
	Login       string
	Name        string
	Email       string // "" when unknown
	AvatarURL   string // "" when unknown
	ProviderURL string // the user's profile on the code host; "" when unknown
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// SetProfile applies p to u after checking it: an email address needs one @
// with text on both sides and no spaces; URLs must be absolute http or https
// URLs. Each field is at most 1,000 characters.
func (u *User) SetProfile(p UserProfile) error {
	set := func(field string, dst *string, v *string, check func(string) bool, what string) error {
		if v == nil {
			return nil
		}
		s := strings.TrimSpace(*v)
		if len(s) > 1000 || s != "" && check != nil && !check(s) {
			return Errorf(EINVALID, "%s %q is not valid: %s", field, *v, what)
		}
		*dst = s
		return nil
	}
	for _, f := range []struct {
		field    string
		dst, val *string
		check    func(string) bool
		what     string
	}{
		{"name", &u.Name, p.Name, nil, "use at most 1000 characters"},
		{"email", &u.Email, p.Email, validEmail, "use an address such as alice@example.com (or an empty value to clear it)"},
		{"avatar URL", &u.AvatarURL, p.AvatarURL, validWebURL, "use an absolute http or https URL (or an empty value to clear it)"},
		{"provider URL", &u.ProviderURL, p.ProviderURL, validWebURL, "use an absolute http or https URL (or an empty value to clear it)"},
	} {
		if err := set(f.field, f.dst, f.val, f.check, f.what); err != nil {
			return err
		}
	}
	return nil
}

// UserProfile is a change to a user's profile: nil fields stay as they are,
// an empty string clears an optional field.
type UserProfile struct {
	Name, Email, AvatarURL, ProviderURL *string
}

func validEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	return ok && local != "" && domain != "" && !strings.ContainsAny(s, " \t\r\n") && !strings.Contains(domain, "@")
}

func validWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && !strings.ContainsAny(s, " \t\r\n")
}

// UserListing is a user as the operator lists them.
type UserListing struct {
	User
	DisabledAt *time.Time
	Tokens     int // active (not revoked) API tokens
	Workspaces int // memberships
}

// UserDeletion says what deleting a user removes.
type UserDeletion struct {
	User                                  User
	Tokens, Memberships, Admins, Sessions int
}

// Credentials are what a password sign-in checks: the user (found by login,
// case-insensitive), their password hash ("" when they have none) and
// whether they are disabled.
type Credentials struct {
	User     User
	Hash     string
	Disabled bool
}

// Identity is what a single sign-on provider says about a person.
type Identity struct {
	Issuer  string
	Subject string
	Login   string // the preferred user name, used for a new user's login
	Name    string
	Email   string
	// Verified is true when the provider vouches for Email.
	Verified bool
}

// NewUserLogin makes the login of a new user signing in with the identity:
// its preferred user name, or the local part of its e-mail, or "user",
// keeping letters, digits, '-', '_', '.'.
func (id Identity) NewUserLogin() string {
	s := id.Login
	if s == "" {
		s, _, _ = strings.Cut(id.Email, "@")
	}
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "user"
	}
	return b.String()
}

// Session is a signed-in browser.
type Session struct {
	ID         string
	UserID     string
	Method     string // "password" or "oidc"
	UserAgent  string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
	RevokedAt  *time.Time
}

// Active reports whether the session can still authenticate at now.
func (s Session) Active(now time.Time) bool { return s.RevokedAt == nil && now.Before(s.ExpiresAt) }
