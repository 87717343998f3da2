package web

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/plumbhq/plumb"
)

// OIDCConfig configures single sign-on with an OpenID Connect provider
// (Keycloak, Dex, Google, GitLab, …). See docs/web.md for the matching rule.
type OIDCConfig struct {
	Issuer       string // the provider's issuer URL (its discovery document is read at start-up)
	ClientID     string
	ClientSecret string
	Name         string // shown on the sign-in button (default "single sign-on")
	// RedirectURL is the callback registered at the provider; default
	// <base URL>/auth/oidc/callback.
	RedirectURL string
	// CreateUsers creates a Plumb user on a first sign-in that matches none.
	CreateUsers bool
	// NoEmailLink turns off linking a first sign-in to the one user with the
	// same verified e-mail address.
	NoEmailLink bool
}

func (c OIDCConfig) displayName() string {
	if c.Name != "" {
		return c.Name
	}
	return "single sign-on"
}

type oidcClient struct {
	cfg      OIDCConfig
	provider *oidc.Provider
	verifier *oidc.IDTokenVerifier
}

func newOIDCClient(ctx context.Context, cfg OIDCConfig) (*oidcClient, error) {
	if cfg.ClientID == "" {
		return nil, fmt.Errorf("OIDC: a client id is needed with the issuer %s", cfg.Issuer)
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	p, err := oidc.NewProvider(ctx, cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("OIDC: read the discovery document of %s: %w", cfg.Issuer, err)
	}
	return &oidcClient{cfg: cfg, provider: p, verifier: p.Verifier(&oidc.Config{ClientID: cfg.ClientID})}, nil
}

func (s *Server) oauthConfig(r *http.Request) *oauth2.Config {
	redirect := s.oidc.cfg.RedirectURL
	if redirect == "" {
		redirect = s.baseURL(r) + "/auth/oidc/callback"
	}
	return &oauth2.Config{ClientID: s.oidc.cfg.ClientID, ClientSecret: s.oidc.cfg.ClientSecret, Endpoint: s.oidc.provider.Endpoint(),
		RedirectURL: redirect, Scopes: []string{oidc.ScopeOpenID, "profile", "email"}}
}

// oidcCookie carries the state of one sign-in attempt (state, nonce, PKCE
// verifier, where to go next) for ten minutes.
const oidcCookie = "plumb_oidc"

func (s *Server) handleOIDCStart(w http.ResponseWriter, r *http.Request) {
	if s.oidc == nil {
		s.renderError(w, r, http.StatusNotFound, "Single sign-on is not configured on this server.")
		return
	}
	state, nonce, verifier := newSecret(), newSecret(), oauth2.GenerateVerifier()
	next := localPath(r.URL.Query().Get("next"))
	val := strings.Join([]string{state, nonce, verifier, base64.RawURLEncoding.EncodeToString([]byte(next))}, ".")
	s.setCookie(w, r, oidcCookie, val, 10*time.Minute)
	http.Redirect(w, r, s.oauthConfig(r).AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier)), http.StatusFound)
}

func (s *Server) handleOIDCCallback(w http.ResponseWriter, r *http.Request) {
	if s.oidc == nil {
		s.renderError(w, r, http.StatusNotFound, "Single sign-on is not configured on this server.")
		return
	}
	refuse := func(status int, msg string, err error) {
		if err != nil {
			s.log.Warn("OIDC sign-in refused", "reason", msg, "error", err)
		}
		s.renderLogin(w, r, status, loginData{Error: msg})
	}
	c, err := r.Cookie(oidcCookie)
	parts := []string{}
	if err == nil {
		parts = strings.Split(c.Value, ".")
	}
	s.setCookie(w, r, oidcCookie, "", -1)
	q := r.URL.Query()
	if e := q.Get("error"); e != "" {
		refuse(http.StatusUnauthorized, "The identity provider did not sign you in ("+e+").", nil)
		return
	}
	if len(parts) != 4 || q.Get("state") == "" || !validCSRF(parts[0], q.Get("state")) {
		refuse(http.StatusBadRequest, "This sign-in link is stale or was not started here. Start again.", nil)
		return
	}
	nonce, verifier := parts[1], parts[2]
	nextB, _ := base64.RawURLEncoding.DecodeString(parts[3])
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	tok, err := s.oauthConfig(r).Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		refuse(http.StatusBadGateway, "The identity provider refused the sign-in code. Start again.", err)
		return
	}
	raw, _ := tok.Extra("id_token").(string)
	idt, err := s.oidc.verifier.Verify(ctx, raw)
	if err != nil {
		refuse(http.StatusUnauthorized, "The identity provider's answer could not be verified.", err)
		return
	}
	if !validCSRF(nonce, idt.Nonce) {
		refuse(http.StatusUnauthorized, "The identity provider's answer does not belong to this sign-in. Start again.", nil)
		return
	}
	var claims struct {
		Email         string `json:"email"`
		EmailVerified *bool  `json:"email_verified"`
		Name          string `json:"name"`
		Preferred     string `json:"preferred_username"`
		Nickname      string `json:"nickname"`
	}
	if err := idt.Claims(&claims); err != nil {
		refuse(http.StatusUnauthorized, "The identity provider's answer could not be read.", err)
		return
	}
	login := claims.Preferred
	if login == "" {
		login = claims.Nickname
	}
	id := plumb.Identity{Issuer: idt.Issuer, Subject: idt.Subject, Login: login, Name: claims.Name, Email: claims.Email,
		Verified: claims.EmailVerified != nil && *claims.EmailVerified}
	u, err := s.store.SignInIdentity(r.Context(), id, !s.oidc.cfg.NoEmailLink, s.oidc.cfg.CreateUsers)
	if err != nil {
		if plumb.ErrorCode(err) == plumb.ENOTFOUND {
			refuse(http.StatusForbidden, "You signed in at the identity provider, but no Plumb account is linked to it. Ask an administrator to create your account with your e-mail address.", nil)
			return
		}
		refuse(http.StatusInternalServerError, "Signing in failed on our side; try again in a moment.", err)
		return
	}
	if err := s.startSession(w, r, u, "oidc", string(nextB)); err != nil {
		s.log.Info("OIDC sign-in refused: the user is disabled", "user", u.Login)
		refuse(http.StatusForbidden, "You signed in at the identity provider, but your Plumb account is disabled. Ask an administrator.", nil)
	}
}
