package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/web"
)

// webFlags are the web's sign-in flags (docs/web.md), server flags of serve
// and demo.
type webFlags struct {
	OIDCIssuer       string        `name:"oidc-issuer" placeholder:"URL" penv:"PLUMB_OIDC_ISSUER" server:"" help:"OpenID Connect issuer URL for single sign-on (empty: passwords only)."`
	OIDCClientID     string        `name:"oidc-client-id" placeholder:"ID" penv:"PLUMB_OIDC_CLIENT_ID" server:"" help:"OpenID Connect client id."`
	OIDCClientSecret string        `name:"oidc-client-secret" placeholder:"SECRET" penv:"PLUMB_OIDC_CLIENT_SECRET" server:"" help:"OpenID Connect client secret."`
	OIDCName         string        `name:"oidc-name" placeholder:"NAME" penv:"PLUMB_OIDC_NAME" server:"" help:"Name of the identity provider on the sign-in button."`
	OIDCCreateUsers  bool          `name:"oidc-create-users" penv:"PLUMB_OIDC_CREATE_USERS" server:"" help:"Create a Plumb user on a first single sign-on that matches none."`
	SessionTTL       time.Duration `name:"session-ttl" placeholder:"DURATION" penv:"PLUMB_SESSION_TTL" server:"" help:"How long a web session lasts after sign-in (0: 336h, two weeks)."`
}

func (f *webFlags) config() web.Config {
	var c web.Config
	c.OIDC.Issuer, c.OIDC.ClientID, c.OIDC.ClientSecret, c.OIDC.Name = f.OIDCIssuer, f.OIDCClientID, f.OIDCClientSecret, f.OIDCName
	c.OIDC.CreateUsers = f.OIDCCreateUsers
	c.SessionTTL = f.SessionTTL
	return c
}

// newSite puts the web's pages and badges in front of the API handler.
func newSite(cfg *config, db *sqlstore.DB, log *slog.Logger, api http.Handler) (http.Handler, error) {
	wc := cfg.Web
	if wc.BaseURL == "" {
		wc.BaseURL = cfg.BaseURL
	}
	wc.TrustHost = cfg.TrustHost
	app, err := cfg.GitHub.app() // the settings' code-host form follows the API's rules
	if err != nil {
		return nil, err
	}
	wc.GitHubApp = app
	w, err := web.New(db, log, wc)
	if err != nil {
		return nil, err
	}
	return w.Mount(api), nil
}

// cmdUserPassword is 'plumb user password LOGIN': it reads a new password
// without echo from the terminal (asking twice), or the first line of stdin
// when stdin is not a terminal, stores its hash, and says so.
func cmdUserPassword(ctx context.Context, db *sqlstore.DB, login string, stdin io.Reader, stdout, stderr io.Writer) error {
	if _, err := db.FindUser(ctx, login); err != nil {
		return err
	}
	pw, err := readPassword(stdin, stderr)
	if err != nil {
		return err
	}
	if err := web.SetUserPassword(ctx, db, login, pw); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "set the web sign-in password of user %s (only its argon2id hash is stored)\n", login)
	return nil
}

// readPassword reads a password twice without echo from a terminal, or the
// first line of any other stdin.
func readPassword(stdin io.Reader, stderr io.Writer) (string, error) {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		ask := func(prompt string) (string, error) {
			fmt.Fprint(stderr, prompt)
			pw, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(stderr)
			return string(pw), err
		}
		a, err := ask("New password: ")
		if err != nil {
			return "", err
		}
		b, err := ask("Repeat it: ")
		if err != nil {
			return "", err
		}
		if a != b {
			return "", errors.New("the two passwords differ; nothing changed")
		}
		return a, nil
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", errors.New("no password on stdin: pipe it in, e.g. 'printf %s \"$PW\" | plumb user password LOGIN'")
	}
	return line, nil
}

// demoSignIn gives the demo token's user a fresh random password (argon2id
// hash stored) and returns the lines that tell how to sign in to the web.
func demoSignIn(ctx context.Context, db *sqlstore.DB, token, base string) (string, error) {
	u, _, err := db.Authenticate(ctx, token)
	if err != nil {
		return "", err
	}
	pw := sqlstore.NewTokenSecret()[4:20]
	if err := web.SetUserPassword(ctx, db, u.ID, pw); err != nil {
		return "", err
	}
	return "Web: " + base + "/login  (login " + u.Login + ", password " + pw + ")\n" +
		"API token settings: " + base + "/settings/tokens\n", nil
}
