package errs

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Code classifies an error; httpx maps each to one HTTP status.
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
	// Misdirected is a request for a host the sandbox does not serve.
	Misdirected Code = "misdirected"
)

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
	// Status overrides the status of Code (an injected fault answers the
	// status its scenario names).
	Status int
	// Header carries response headers the error needs (WWW-Authenticate,
	// Retry-After, Allow).
	Header http.Header
	Err    error
}

// Errorf returns an Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalidf returns an Invalid error naming one bad field.
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

// As returns err as an *Error; anything else is an internal error whose
// details stay in the log, never in a response.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: Internal, Message: "erro interno", Err: err}
}

// CodeOf returns the code of err, Internal for an error that is not an
// *Error, and "" for nil.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// Is reports whether err is an *Error with code c.
func Is(err error, c Code) bool { return err != nil && CodeOf(err) == c }
