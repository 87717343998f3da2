package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api/apiv1"
)

// statusOf is the one table from application error codes to HTTP statuses.
var statusOf = map[string]int{
	plumb.EINVALID:       http.StatusBadRequest,
	plumb.EUNAUTHORIZED:  http.StatusUnauthorized,
	plumb.EFORBIDDEN:     http.StatusForbidden,
	plumb.ENOTFOUND:      http.StatusNotFound,
	plumb.EMETHOD:        http.StatusMethodNotAllowed,
	plumb.ENOTACCEPTABLE: http.StatusNotAcceptable,
	plumb.ETIMEOUT:       http.StatusRequestTimeout,
	plumb.ECONFLICT:      http.StatusConflict,
	plumb.ETOOLARGE:      http.StatusRequestEntityTooLarge,
	plumb.EUNSUPPORTED:   http.StatusUnsupportedMediaType,
	plumb.ERATELIMIT:     http.StatusTooManyRequests,
	plumb.EINTERNAL:      http.StatusInternalServerError,
	plumb.EUNAVAILABLE:   http.StatusServiceUnavailable,
}

// titleOf gives the reason phrase used as an error's title.
func titleOf(status int) string { return http.StatusText(status) }

type errorObject = apiv1.ErrorObject

type errorBody = apiv1.ErrorBody

// writeError writes err as the spec's error body. Internal errors are logged
// with the request id and shown without detail.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	code := plumb.ErrorCode(err)
	if code == plumb.EINTERNAL && s.store.IsUnavailable(err) {
		// A lost database is a 503 the client can retry, not a 500.
		s.log.Warn("database unavailable", "request_id", requestID(r.Context()), "error", err)
		err = plumb.Errorf(plumb.EUNAVAILABLE, "The database is unavailable; retry in a few seconds.")
		code = plumb.EUNAVAILABLE
	}
	var pe *plumb.Error
	if code == plumb.EUNAVAILABLE && errors.As(err, &pe) && pe.Cause != nil {
		s.log.Warn("database unavailable", "request_id", requestID(r.Context()), "error", pe.Cause)
	}
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	details := plumb.ErrorDetails(err)
	if status == http.StatusInternalServerError {
		s.log.LogAttrs(r.Context(), slog.LevelError, "request failed",
			slog.String("request_id", requestID(r.Context())), slog.String("method", r.Method),
			slog.String("path", r.URL.Path), slog.String("error", err.Error()))
		details = []string{"An unexpected error occurred. The server logged it with request id " + requestID(r.Context()) + "."}
	}
	if status == http.StatusServiceUnavailable && len(details) == 0 {
		details = []string{"The service is temporarily unavailable; retry in a few seconds."}
	}
	if len(details) == 0 {
		details = []string{http.StatusText(status)}
	}
	h := w.Header()
	h.Del("Link")
	h.Del("Location")
	setErrorHeaders(h)
	var ra *retryAfterError
	if errors.As(err, &ra) {
		h.Set("Retry-After", strconv.Itoa(ra.after))
		if ra.limit.Limit > 0 {
			setRateHeaders(h, ra.limit)
			h.Set("x-ratelimit-resource", "auth")
		}
	}
	switch status {
	case http.StatusUnauthorized:
		h.Set("WWW-Authenticate", `Bearer realm="plumb", Basic realm="plumb"`)
	}
	w.WriteHeader(status)
	encodeErrorBody(w, status, details)
}

// setErrorHeaders sets the headers every error body carries.
func setErrorHeaders(h http.Header) {
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
}

// encodeErrorBody writes the spec's error body, one error object a detail.
// Details quote what the client sent; < > & are written as they are (the
// body is JSON with nosniff, never HTML), not as \u003c escapes.
func encodeErrorBody(w io.Writer, status int, details []string) {
	if len(details) > plumb.MaxDetails+1 {
		// However an error was made, its answer stays small.
		details = append(details[:plumb.MaxDetails:plumb.MaxDetails],
			fmt.Sprintf("… and %d more problems (only the first %d are listed).", len(details)-plumb.MaxDetails, plumb.MaxDetails))
	}
	body := errorBody{}
	for _, d := range details {
		body.Errors = append(body.Errors, errorObject{Status: strconv.Itoa(status), Title: titleOf(status), Detail: d})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(body)
}

// WriteErrorBody answers status with the spec's error body and one detail,
// for handlers outside the API (the web's badges) whose errors share the
// API's paths.
func WriteErrorBody(w http.ResponseWriter, status int, detail string) {
	setErrorHeaders(w.Header())
	w.WriteHeader(status)
	encodeErrorBody(w, status, []string{detail})
}
