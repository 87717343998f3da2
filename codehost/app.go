package codehost

import (
	"context"
	"crypto/rsa"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// App is a GitHub App: Plumb signs a JSON Web Token with the App's private
// key, finds the App's installation on a repository and exchanges the token
// for an installation access token, which the Checks API requires
// (docs/pull-requests.md, "GitHub App").
type App struct {
	ID      int64
	Key     *rsa.PrivateKey
	BaseURL string // https://api.github.com, or https://ghe.example/api/v3
	Client  *Client
	// Now is the clock (time.Now by default).
	Now func() time.Time

	mu            sync.Mutex
	tokens        map[int64]appToken
	installations map[string]int64 // lower-case owner/name
}

type appToken struct {
	token   string
	expires time.Time
}

// tokenMargin: an installation token is renewed this long before it expires.
const tokenMargin = 5 * time.Minute

// ParsePrivateKey reads the PEM private key GitHub gives an App.
func ParsePrivateKey(pem []byte) (*rsa.PrivateKey, error) {
	k, err := jwt.ParseRSAPrivateKeyFromPEM(pem)
	if err != nil {
		return nil, fmt.Errorf("the GitHub App's private key is not an RSA key in PEM form: %w", err)
	}
	return k, nil
}

// LoadApp is the App id with its private key, given as the PEM itself or
// as the path of its PEM file, on the GitHub API at apiURL ("": GitHub's,
// DefaultURLs).
func LoadApp(id int64, key, apiURL string) (*App, error) {
	pem := []byte(key)
	if !strings.HasPrefix(strings.TrimSpace(key), "-----BEGIN") {
		var err error
		if pem, err = os.ReadFile(key); err != nil {
			return nil, err
		}
	}
	k, err := ParsePrivateKey(pem)
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(apiURL, "/")
	if base == "" {
		base = DefaultURLs[GitHub]
	}
	return &App{ID: id, Key: k, BaseURL: base}, nil
}

func (a *App) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

func (a *App) client() *Client {
	if a.Client != nil {
		return a.Client
	}
	return &Client{}
}

// JWT is the App's token for the App endpoints: RS256, issued 60 seconds in
// the past (clock drift), expiring in 9 minutes (GitHub accepts 10 at most),
// issued by the App id.
func (a *App) JWT() (string, error) {
	now := a.now()
	claims := jwt.RegisteredClaims{
		Issuer:    strconv.FormatInt(a.ID, 10),
		IssuedAt:  jwt.NewNumericDate(now.Add(-60 * time.Second)),
		ExpiresAt: jwt.NewNumericDate(now.Add(9 * time.Minute)),
	}
	return jwt.NewWithClaims(jwt.SigningMethodRS256, claims).SignedString(a.Key)
}

func (a *App) target() (Target, error) {
	tok, err := a.JWT()
	if err != nil {
		return Target{}, err
	}
	return Target{Kind: GitHub, BaseURL: a.BaseURL, Token: tok}, nil
}

// Installation returns the App's installation id on a repository (GET
// /repos/{owner}/{repo}/installation), remembered once found.
func (a *App) Installation(ctx context.Context, repository string) (int64, error) {
	key := strings.ToLower(repository)
	a.mu.Lock()
	id, ok := a.installations[key]
	a.mu.Unlock()
	if ok {
		return id, nil
	}
	t, err := a.target()
	if err != nil {
		return 0, err
	}
	var out struct {
		ID int64 `json:"id"`
	}
	c := a.client()
	if err := c.call(ctx, t, http.MethodGet, c.base(t)+"/repos/"+repository+"/installation", nil, &out); err != nil {
		return 0, err
	}
	if out.ID < 1 {
		return 0, fmt.Errorf("GitHub named no installation of the App on %s", repository)
	}
	a.Remember(repository, out.ID)
	return out.ID, nil
}

// Remember notes the installation of the App on a repository (from a
// webhook), or forgets it with id 0.
func (a *App) Remember(repository string, id int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.installations == nil {
		a.installations = map[string]int64{}
	}
	if id == 0 {
		delete(a.installations, strings.ToLower(repository))
		return
	}
	a.installations[strings.ToLower(repository)] = id
}

// ForgetInstallation forgets an installation (uninstalled): its
// repositories and its token.
func (a *App) ForgetInstallation(id int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for repo, known := range a.installations {
		if known == id {
			delete(a.installations, repo)
		}
	}
	delete(a.tokens, id)
}

// Token returns an installation access token (POST
// /app/installations/{id}/access_tokens), reused until shortly before its
// expires_at.
func (a *App) Token(ctx context.Context, installation int64) (string, error) {
	a.mu.Lock()
	cached, ok := a.tokens[installation]
	a.mu.Unlock()
	if ok && a.now().Add(tokenMargin).Before(cached.expires) {
		return cached.token, nil
	}
	t, err := a.target()
	if err != nil {
		return "", err
	}
	var out struct {
		Token     string    `json:"token"`
		ExpiresAt time.Time `json:"expires_at"`
	}
	c := a.client()
	u := c.base(t) + "/app/installations/" + strconv.FormatInt(installation, 10) + "/access_tokens"
	if err := c.call(ctx, t, http.MethodPost, u, nil, &out); err != nil {
		return "", err
	}
	if out.Token == "" {
		return "", fmt.Errorf("POST %s: no token in the answer", u)
	}
	a.mu.Lock()
	if a.tokens == nil {
		a.tokens = map[int64]appToken{}
	}
	a.tokens[installation] = appToken{out.Token, out.ExpiresAt}
	a.mu.Unlock()
	return out.Token, nil
}

// Target is where a repository's statuses, comment and check runs go with
// an installation token; known is the installation id from the webhooks (0:
// ask GitHub).
func (a *App) Target(ctx context.Context, repository string, known int64) (Target, error) {
	id := known
	if id == 0 {
		var err error
		if id, err = a.Installation(ctx, repository); err != nil {
			return Target{}, err
		}
	}
	tok, err := a.Token(ctx, id)
	if he, ok := err.(*HTTPError); ok && he.Status == http.StatusNotFound {
		// The installation is gone: ask GitHub again next time.
		a.ForgetInstallation(id)
	}
	if err != nil {
		return Target{}, err
	}
	return Target{Kind: GitHub, BaseURL: a.BaseURL, Repository: repository, Token: tok}, nil
}
