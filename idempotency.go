package plumb

import (
	"context"
	"time"
)

// IdempotentAnswer is the answer a request's Idempotency-Key replays. Given
// to a write through its context (WithIdempotentAnswer), it is recorded by
// the transaction that publishes the write: a server that dies at any
// moment has either published the write and recorded its answer, which a
// retry replays, or done neither, and a retry runs the request again.
type IdempotentAnswer struct {
	ProjectID, Key string
	// Answer gives the response's status, its body and the SHA-256 (hex) of
	// the request's body for what the write published: a Snapshot
	// (AddAnalysis, AddFindings), a CoverageSummary (IngestCoverage) or a
	// Build (AddBuild).
	Answer   func(result any) (status int, body, bodyHash string, err error)
	recorded bool
}

// Recorded reports whether a write recorded the answer (its transaction
// committed).
func (a *IdempotentAnswer) Recorded() bool { return a.recorded }

// MarkRecorded is the store's: the transaction that recorded the answer
// committed.
func (a *IdempotentAnswer) MarkRecorded() { a.recorded = true }

type answerKey struct{}

// WithIdempotentAnswer returns ctx carrying the answer the write made with
// it records when it publishes.
func WithIdempotentAnswer(ctx context.Context, a *IdempotentAnswer) context.Context {
	return context.WithValue(ctx, answerKey{}, a)
}

// IdempotentAnswerFrom returns the answer ctx carries (nil if none).
func IdempotentAnswerFrom(ctx context.Context) *IdempotentAnswer {
	a, _ := ctx.Value(answerKey{}).(*IdempotentAnswer)
	return a
}

// IdempotencyLease is how long a key under way stays its server's without
// a renewal (IdempotencyRenew). A server renews the keys of its running
// uploads well within it; a key whose lease ran out belongs to a server that
// is gone, and a retry takes it over.
const IdempotencyLease = 30 * time.Second
