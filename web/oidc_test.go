package web_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/plumbhq/plumb/web"
)

// idp is a tiny OpenID Connect provider for tests: discovery, an authorize
// endpoint that signs in whoever the test says at once, a token endpoint that
// checks the PKCE verifier and issues an RS256-signed ID token, and its keys.
type idp struct {
	*httptest.Server
	key    *rsa.PrivateKey
	signer jose.Signer

	mu        sync.Mutex
	person    map[string]any // the claims of the person signing in next
	codes     map[string]grant
	badNonce  bool
	exchanges int
}

type grant struct {
	nonce, challenge string
	claims           map[string]any
}

const clientID, clientSecret = "plumb-test", "s3cret"

func newIDP(t *testing.T) *idp {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: "k1"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &idp{key: key, signer: signer, codes: map[string]grant{}}
	mux := http.NewServeMux()
	p.Server = httptest.NewServer(mux)
	t.Cleanup(p.Close)
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": p.URL, "authorization_endpoint": p.URL + "/authorize", "token_endpoint": p.URL + "/token",
			"jwks_uri": p.URL + "/jwks", "response_types_supported": []string{"code"}, "subject_types_supported": []string{"public"},
			"id_token_signing_alg_values_supported": []string{"RS256"},
		})
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "RS256", Use: "sig"}}})
	})
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("client_id") != clientID || q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" {
			http.Error(w, "bad authorize request", 400)
			return
		}
		p.mu.Lock()
		code := base64.RawURLEncoding.EncodeToString([]byte(time.Now().String()))
		p.codes[code] = grant{nonce: q.Get("nonce"), challenge: q.Get("code_challenge"), claims: p.person}
		p.mu.Unlock()
		http.Redirect(w, r, q.Get("redirect_uri")+"?"+url.Values{"code": {code}, "state": {q.Get("state")}}.Encode(), http.StatusFound)
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		id, secret, ok := r.BasicAuth()
		if !ok {
			id, secret = r.PostFormValue("client_id"), r.PostFormValue("client_secret")
		}
		p.mu.Lock()
		g, found := p.codes[r.PostFormValue("code")]
		delete(p.codes, r.PostFormValue("code"))
		p.exchanges++
		bad := p.badNonce
		p.mu.Unlock()
		sum := sha256.Sum256([]byte(r.PostFormValue("code_verifier")))
		if id != clientID || secret != clientSecret || !found || base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
			w.WriteHeader(400)
			json.NewEncoder(w).Encode(map[string]string{"error": "invalid_grant"})
			return
		}
		claims := map[string]any{"iss": p.URL, "aud": clientID, "iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix(), "nonce": g.nonce}
		if bad {
			claims["nonce"] = "another"
		}
		for k, v := range g.claims {
			claims[k] = v
		}
		raw, err := jwt.Signed(p.signer).Claims(claims).Serialize()
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"access_token": "at", "token_type": "Bearer", "expires_in": 3600, "id_token": raw})
	})
	return p
}

// oidcSignIn runs the whole redirect dance for browser b and returns the
// site's last answer (the callback's).
func oidcSignIn(t *testing.T, b *browser, p *idp, claims map[string]any, next string) page {
	t.Helper()
	p.mu.Lock()
	p.person = claims
	p.mu.Unlock()
	start := b.get("/auth/oidc?next=" + url.QueryEscape(next))
	if start.Status != http.StatusFound || !strings.HasPrefix(start.Header.Get("Location"), p.URL+"/authorize?") {
		t.Fatalf("start: %d %q", start.Status, start.Header.Get("Location"))
	}
	back := providerAnswer(t, start.Header.Get("Location"))
	if !strings.HasPrefix(back.String(), b.site.URL+"/auth/oidc/callback?") {
		t.Fatalf("provider sent the browser to %q", back)
	}
	return b.get(back.RequestURI())
}

// providerAnswer follows a sign-on to the identity provider at location (its
// authorize URL) and returns where the provider sends the browser back.
func providerAnswer(t *testing.T, location string) *url.URL {
	t.Helper()
	resp, err := noRedirects.Get(location)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	back, _ := url.Parse(resp.Header.Get("Location"))
	return back
}

func TestOIDCSignIn(t *testing.T) {
	p := newIDP(t)
	s := newSite(t, web.Config{OIDC: web.OIDCConfig{Issuer: p.URL, ClientID: clientID, ClientSecret: clientSecret, Name: "Test IdP", CreateUsers: true}})
	b := s.browser(t)
	b.get("/login").want(t, 200, "Sign in with Test IdP")

	// A first sign-in that matches nobody creates the user (login from
	// preferred_username) and links the identity.
	ada := map[string]any{"sub": "u-1", "preferred_username": "ada", "name": "Ada L.", "email": "ada@example.org", "email_verified": true}
	r := oidcSignIn(t, b, p, ada, "/settings/tokens")
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/settings/tokens" {
		t.Fatalf("callback: %d %q %s", r.Status, r.Header.Get("Location"), r.Body)
	}
	b.get("/settings/tokens").want(t, 200, "Sign out ada")
	u, err := s.DB.FindUser(t.Context(), "ada")
	if err != nil || u.Name != "Ada L." {
		t.Fatalf("created user %+v, %v", u, err)
	}
	list, _ := s.DB.ListSessions(t.Context(), u.ID)
	if len(list) != 1 || list[0].Method != "oidc" {
		t.Fatalf("sessions %+v", list)
	}
	// The same subject again is the same user, whatever its name says now.
	b2 := s.browser(t)
	ada["preferred_username"] = "ada-renamed"
	oidcSignIn(t, b2, p, ada, "/")
	b2.get("/settings/tokens").want(t, 200, "Sign out ada<")

	// A new subject whose login is taken gets a numbered login.
	b3 := s.browser(t)
	oidcSignIn(t, b3, p, map[string]any{"sub": "u-2", "preferred_username": "ada"}, "/")
	b3.get("/settings/tokens").want(t, 200, "Sign out ada-2")

	// Linking by a verified e-mail: an existing password user.
	s.person(t, "grace", "hopper-1906")
	if err := s.DB.SetUserEmail(t.Context(), "grace", "Grace@Example.org"); err != nil {
		t.Fatal(err)
	}
	b4 := s.browser(t)
	oidcSignIn(t, b4, p, map[string]any{"sub": "g-1", "email": "grace@example.org", "email_verified": true, "preferred_username": "gh"}, "/")
	b4.get("/settings/tokens").want(t, 200, "Sign out grace")
	// An unverified e-mail is not enough to take over an account.
	s.person(t, "linus", "torvalds-1969")
	s.DB.SetUserEmail(t.Context(), "linus", "linus@example.org")
	b5 := s.browser(t)
	oidcSignIn(t, b5, p, map[string]any{"sub": "l-1", "email": "linus@example.org", "email_verified": false, "preferred_username": "lt"}, "/")
	b5.get("/settings/tokens").want(t, 200, "Sign out lt")

	// A stale or forged state is refused; so is an answer with another nonce.
	b.get("/auth/oidc/callback?code=x&state=forged").want(t, http.StatusBadRequest, "stale")
	p.mu.Lock()
	p.badNonce = true
	p.mu.Unlock()
	oidcSignIn(t, s.browser(t), p, ada, "/").want(t, http.StatusUnauthorized, "does not belong to this sign-in")
}

func TestOIDCWithoutUserCreation(t *testing.T) {
	p := newIDP(t)
	s := newSite(t, web.Config{OIDC: web.OIDCConfig{Issuer: p.URL, ClientID: clientID, ClientSecret: clientSecret}})
	b := s.browser(t)
	oidcSignIn(t, b, p, map[string]any{"sub": "x", "preferred_username": "eve", "email": "eve@example.org", "email_verified": true}, "/").
		want(t, http.StatusForbidden, "no Plumb account is linked")
	if _, err := s.DB.FindUser(t.Context(), "eve"); err == nil {
		t.Fatal("a user was created with user creation off")
	}
	if p := b.get("/settings/tokens"); p.Status != http.StatusSeeOther {
		t.Fatalf("refused sign-in opened a session: %d", p.Status)
	}
	// Without OIDC configured, its endpoints are 404.
	plain := newSite(t, web.Config{})
	plain.browser(t).get("/auth/oidc").want(t, http.StatusNotFound)
}
