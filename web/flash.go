package web

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"

	"github.com/plumbhq/plumb"
)

// One-time messages across a redirect (post/redirect/get): a form that
// creates a token answers 303, and the page it redirects to shows the new
// secret once. The secret waits in the session's row, sealed (AES-256-GCM)
// with a key derived from the session's secret, which only the browser's
// cookie holds: the database keeps only the session's hash, so it never
// holds a readable token. Taking it removes it, so a reload shows nothing.

func flashKey(sessionSecret string) []byte {
	sum := sha256.Sum256([]byte("plumb-flash\x00" + sessionSecret))
	return sum[:]
}

func flashAEAD(sessionSecret string) (cipher.AEAD, error) {
	block, err := aes.NewCipher(flashKey(sessionSecret))
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// sessionSecret is the secret of the request's session cookie.
func sessionSecret(r *http.Request) (string, bool) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return "", false
	}
	return c.Value, true
}

// setFlash keeps value for the next page of this session that takes kind.
func (s *Server) setFlash(r *http.Request, kind, value string) error {
	secret, ok := sessionSecret(r)
	if !ok {
		return errors.New("no session")
	}
	aead, err := flashAEAD(secret)
	if err != nil {
		return err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return err
	}
	sealed := aead.Seal(nonce, nonce, []byte(value), []byte(kind))
	return s.store.SetSessionFlash(r.Context(), plumb.HashToken(secret), kind, base64.RawStdEncoding.EncodeToString(sealed))
}

// takeFlash returns the session's value of kind and forgets it ("" when
// there is none).
func (s *Server) takeFlash(r *http.Request, kind string) (string, error) {
	secret, ok := sessionSecret(r)
	if !ok {
		return "", nil
	}
	stored, err := s.store.TakeSessionFlash(r.Context(), plumb.HashToken(secret), kind)
	if err != nil || stored == "" {
		return "", err
	}
	aead, err := flashAEAD(secret)
	if err != nil {
		return "", err
	}
	raw, err := base64.RawStdEncoding.DecodeString(stored)
	if err != nil || len(raw) < aead.NonceSize() {
		return "", errors.New("web: a session flash is malformed")
	}
	plain, err := aead.Open(nil, raw[:aead.NonceSize()], raw[aead.NonceSize():], []byte(kind))
	if err != nil {
		return "", errors.New("web: a session flash does not open with its session's key")
	}
	return string(plain), nil
}
