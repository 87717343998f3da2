package plumb

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"
)

// Token is an API token. Only the SHA-256 hash of its secret is kept.
type Token struct {
	ID         string
	UserID     string
	Name       string
	Hash       string // hex SHA-256 of the secret
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
}

// HashToken is the only form in which an API token is stored: the hex
// SHA-256 of its secret.
func HashToken(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// UploadToken is a project-scoped token that can only upload to its project.
type UploadToken struct {
	ID         string
	ProjectID  string
	Name       string
	CreatedBy  string
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
}

// BadgeToken describes a project's badge token, the secret its private
// badges accept as ?token=; the secret is shown once, when it is created,
// and only its hash is kept.
type BadgeToken struct {
	CreatedBy string
	CreatedAt time.Time
}

// ErrTokenUnknown is the cause of the 401 for a token secret that is unknown
// or revoked: a secret that can never authenticate (a disabled user's token
// can again once the user is enabled, and has no such cause).
var ErrTokenUnknown = errors.New("unknown or revoked token")
