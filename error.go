package plumb

import (
	"errors"
	"fmt"
	"strings"
)

// Application error codes. The HTTP layer maps each to one status in a single
// table; no handler invents a status of its own.
const (
	EINVALID       = "invalid"          // 400
	EUNAUTHORIZED  = "unauthorized"     // 401
	EFORBIDDEN     = "forbidden"        // 403
	ENOTFOUND      = "not_found"        // 404
	EMETHOD        = "method"           // 405
	ENOTACCEPTABLE = "not_acceptable"   // 406
	ETIMEOUT       = "timeout"          // 408
	ECONFLICT      = "conflict"         // 409
	ETOOLARGE      = "too_large"        // 413
	EUNSUPPORTED   = "unsupported_type" // 415
	ERATELIMIT     = "rate_limited"     // 429
	EINTERNAL      = "internal"         // 500
	EUNAVAILABLE   = "unavailable"      // 503
)

// Error is an application error: a code plus one or more sentences a user can
// act on. Details holds one entry per problem when a request has several
// (one per invalid parameter, say).
type Error struct {
	Code    string
	Details []string
	Cause   error // the underlying failure, for logs only; never shown to users
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

func (e *Error) Error() string {
	return fmt.Sprintf("plumb error: code=%s %s", e.Code, strings.Join(e.Details, "; "))
}

// Errorf returns an application error with one formatted detail.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Details: []string{fmt.Sprintf(format, args...)}}
}

// MaxDetails is the most problems an error lists one by one: a request
// with thousands of bad values gets the first MaxDetails and one more detail
// counting the rest, so its answer stays small whatever it sent.
const MaxDetails = 100

// Invalid returns an EINVALID error carrying the details (at most
// MaxDetails of them, then a count of the rest), or nil when there is none.
func Invalid(details []string) error { return InvalidCounted(details, len(details)) }

// InvalidCounted is Invalid for total problems of which details are the
// first ones found (a collector that stopped keeping them).
func InvalidCounted(details []string, total int) error {
	total = max(total, len(details))
	if total == 0 {
		return nil
	}
	shown := details[:min(len(details), MaxDetails):min(len(details), MaxDetails)]
	if more := total - len(shown); more > 0 {
		shown = append(shown, fmt.Sprintf("… and %d more problems (only the first %d are listed).", more, len(shown)))
	}
	return &Error{Code: EINVALID, Details: shown}
}

// ErrorCode returns the code of an application error, EINTERNAL for anything else.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorDetails returns the user-facing details of an application error.
// Internal errors have no user-facing details.
func ErrorDetails(err error) []string {
	var e *Error
	if errors.As(err, &e) {
		return e.Details
	}
	return nil
}
