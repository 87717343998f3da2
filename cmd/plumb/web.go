package main

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/web"
)

// webFlags declares the web's sign-in flags (docs/web.md) on fs.
func webFlags(fs *flag.FlagSet, env func(name, def string) string, c *web.Config) {
	fs.StringVar(&c.OIDC.Issuer, "oidc-issuer", env("PLUMB_OIDC_ISSUER", ""), "OpenID Connect issuer URL for single sign-on (empty: passwords only)")
	fs.StringVar(&c.OIDC.ClientID, "oidc-client-id", env("PLUMB_OIDC_CLIENT_ID", ""), "OpenID Connect client id")
	fs.StringVar(&c.OIDC.ClientSecret, "oidc-client-secret", env("PLUMB_OIDC_CLIENT_SECRET", ""), "OpenID Connect client secret")
	fs.StringVar(&c.OIDC.Name, "oidc-name", env("PLUMB_OIDC_NAME", ""), "name of the identity provider on the sign-in button")
	create, _ := strconv.ParseBool(env("PLUMB_OIDC_CREATE_USERS", "false"))
	fs.BoolVar(&c.OIDC.CreateUsers, "oidc-create-users", create, "create a Plumb user on a first single sign-on that matches none")
	ttl, _ := time.ParseDuration(env("PLUMB_SESSION_TTL", "0s"))
	fs.DurationVar(&c.SessionTTL, "session-ttl", ttl, "how long a web session lasts after sign-in (0: 336h, two weeks)")
}

// newSite puts the web's pages and badges in front of the API handler.
func newSite(cfg *config, db *sqlstore.DB, log *slog.Logger, api http.Handler) (http.Handler, error) {
	wc := cfg.Web
	if wc.BaseURL == "" {
		wc.BaseURL = cfg.BaseURL
	}
	w, err := web.New(db, log, wc)
	if err != nil {
		return nil, err
	}
	return w.Mount(api), nil
}

// cmdUserPassword is 'plumb user password LOGIN'.
func cmdUserPassword(ctx context.Context, db *sqlstore.DB, login string, stdin io.Reader, stderr io.Writer) error {
	return web.SetUserPassword(ctx, db, login, stdin, stderr)
}

// demoSignIn gives the demo token's user a fresh random password (argon2id
// hash stored) and returns the lines that tell how to sign in to the web.
func demoSignIn(ctx context.Context, db *sqlstore.DB, token, base string) (string, error) {
	u, _, err := db.Authenticate(ctx, token)
	if err != nil {
		return "", err
	}
	pw := sqlstore.NewTokenSecret()[4:20]
	hash, err := web.HashPassword(pw)
	if err != nil {
		return "", err
	}
	if err := db.SetPasswordHash(ctx, u.ID, hash); err != nil {
		return "", err
	}
	return "Web: " + base + "/login  (login " + u.Login + ", password " + pw + ")\n" +
		"API token settings: " + base + "/settings/tokens\n", nil
}
