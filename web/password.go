package web

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Passwords are hashed with argon2id (RFC 9106) at OWASP's recommended cost
// (19 MiB, 2 passes, 1 lane) and stored as a PHC string:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>.
const (
	argonMemory  = 19 * 1024
	argonTime    = 2
	argonThreads = 1
	argonKeyLen  = 32
	// MinPasswordLength is the shortest password accepted (NIST SP 800-63B).
	MinPasswordLength = 8
	maxPasswordLength = 1024
)

// CheckPasswordRules says what is wrong with a new password, or nil.
func CheckPasswordRules(pw string) error {
	switch n := utf8.RuneCountInString(pw); {
	case n < MinPasswordLength:
		return fmt.Errorf("a password must be at least %d characters long, got %d", MinPasswordLength, n)
	case len(pw) > maxPasswordLength:
		return fmt.Errorf("a password must be at most %d bytes long", maxPasswordLength)
	}
	return nil
}

// PasswordStore keeps users' password hashes (sqlstore.DB is one).
type PasswordStore interface {
	SetPasswordHash(ctx context.Context, userLoginOrID, hash string) error
}

// SetUserPassword sets the web sign-in password of a user (by login or id)
// when it follows CheckPasswordRules: only its argon2id hash is stored.
func SetUserPassword(ctx context.Context, db PasswordStore, userLoginOrID, pw string) error {
	hash, err := HashPassword(pw)
	if err != nil {
		return err
	}
	return db.SetPasswordHash(ctx, userLoginOrID, hash)
}

// HashPassword returns the PHC string of a password with a fresh salt.
func HashPassword(pw string) (string, error) {
	if err := CheckPasswordRules(pw); err != nil {
		return "", err
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(key)), nil
}

var errBadHash = errors.New("unrecognised password hash")

// VerifyPassword reports whether pw matches a PHC string made by HashPassword
// (with any cost parameters). An empty or foreign hash never matches.
func VerifyPassword(hash, pw string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || t == 0 || p == 0 {
		return false, errBadHash
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[4])
	want, err2 := enc.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(pw), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is verified against when a login is unknown, so an unknown login
// takes as long to refuse as a wrong password.
// It is made on first use, not at start: every plumb command links this
// package, and an argon2id hash costs tens of milliseconds and its memory.
var dummyHash = sync.OnceValue(func() string {
	h, _ := HashPassword("not a password of anyone")
	return h
})
