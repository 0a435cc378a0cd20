package httpx

import (
	"net/http"

	"homologa/simulator/errs"
)

var statusOf = map[errs.Code]int{
	errs.Invalid:          http.StatusBadRequest,
	errs.Unauthorized:     http.StatusUnauthorized,
	errs.Forbidden:        http.StatusForbidden,
	errs.NotFound:         http.StatusNotFound,
	errs.MethodNotAllowed: http.StatusMethodNotAllowed,
	errs.Conflict:         http.StatusConflict,
	errs.Gone:             http.StatusGone,
	errs.TooLarge:         http.StatusRequestEntityTooLarge,
	errs.UnsupportedMedia: http.StatusUnsupportedMediaType,
	errs.Unprocessable:    http.StatusUnprocessableEntity,
	errs.TooManyRequests:  http.StatusTooManyRequests,
	errs.Internal:         http.StatusInternalServerError,
	errs.Unavailable:      http.StatusServiceUnavailable,
	errs.Timeout:          http.StatusGatewayTimeout,
	errs.Misdirected:      http.StatusMisdirectedRequest,
}

// StatusOf returns the status an error is answered with: its own override,
// else its code's.
func StatusOf(e *errs.Error) int {
	if e.Status != 0 {
		return e.Status
	}
	if s, ok := statusOf[e.Code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// CodeForStatus returns the code whose status is status (an injected fault
// names a status; its error needs a code for the dialects).
func CodeForStatus(status int) errs.Code {
	for c, s := range statusOf {
		if s == status {
			return c
		}
	}
	if status >= 500 {
		return errs.Internal
	}
	return errs.Invalid
}
