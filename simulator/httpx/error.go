// Package httpx is the HTTP plumbing every API shares: one internal error
// value rendered in the dialect of the API that was called, handlers that
// return values, JSON decoding with schema validation, and middleware.
package httpx

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Code classifies an error; one table maps it to an HTTP status.
type Code string

// The error codes. Each dialect renders them in its own words.
const (
	Invalid          Code = "invalid"
	Unauthorized     Code = "unauthorized"
	Forbidden        Code = "forbidden"
	NotFound         Code = "not_found"
	MethodNotAllowed Code = "method_not_allowed"
	Conflict         Code = "conflict"
	Gone             Code = "gone"
	TooLarge         Code = "too_large"
	UnsupportedMedia Code = "unsupported_media_type"
	Unprocessable    Code = "unprocessable"
	TooManyRequests  Code = "too_many_requests"
	Internal         Code = "internal"
	Unavailable      Code = "unavailable"
	Timeout          Code = "timeout"
)

var statusOf = map[Code]int{
	Invalid:          http.StatusBadRequest,
	Unauthorized:     http.StatusUnauthorized,
	Forbidden:        http.StatusForbidden,
	NotFound:         http.StatusNotFound,
	MethodNotAllowed: http.StatusMethodNotAllowed,
	Conflict:         http.StatusConflict,
	Gone:             http.StatusGone,
	TooLarge:         http.StatusRequestEntityTooLarge,
	UnsupportedMedia: http.StatusUnsupportedMediaType,
	Unprocessable:    http.StatusUnprocessableEntity,
	TooManyRequests:  http.StatusTooManyRequests,
	Internal:         http.StatusInternalServerError,
	Unavailable:      http.StatusServiceUnavailable,
	Timeout:          http.StatusGatewayTimeout,
}

// Violation is one bad field of a request.
type Violation struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
	Value  string `json:"value,omitempty"`
}

// Error is the one internal error value of every API.
type Error struct {
	Code Code
	// Type is the dialect's own name for the error when the domain knows it
	// better than Code does: a Pix type such as "CobOperacaoInvalida", an
	// OAuth error such as "invalid_client", an insurer message code.
	Type       string
	Message    string
	Violations []Violation
	// Status overrides the status of Code (e.g. an injected 503 with a body).
	Status int
	Header http.Header
	Err    error
}

// Errorf returns an Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalidf returns a 400 naming one bad field.
func Invalidf(field, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Code: Invalid, Message: field + ": " + msg, Violations: []Violation{{Field: field, Reason: msg}}}
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Code))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// WithType sets the dialect's name for the error.
func (e *Error) WithType(t string) *Error { e.Type = t; return e }

// WithHeader adds a response header.
func (e *Error) WithHeader(k, v string) *Error {
	if e.Header == nil {
		e.Header = http.Header{}
	}
	e.Header.Add(k, v)
	return e
}

// HTTPStatus returns the status the error is answered with.
func (e *Error) HTTPStatus() int {
	if e.Status != 0 {
		return e.Status
	}
	if s, ok := statusOf[e.Code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// AsError returns err as an *Error; anything else is an internal error whose
// details stay in the log, not in the response.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: Internal, Message: "internal error", Err: err}
}
