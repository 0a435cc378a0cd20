package wire

import (
	"fmt"

	"homologa/simulator/errs"
)

// Rule is a business-rule violation (422) naming its field; code is the
// Codigo the partner reads.
func Rule(field, code, format string, args ...any) *errs.Error {
	e := errs.Invalidf(field, format, args...)
	e.Code, e.Type = errs.Unprocessable, code
	return e
}

// NotFound is a 404 with the resource's own Codigo.
func NotFound(code, format string, args ...any) *errs.Error {
	return errs.Errorf(errs.NotFound, format, args...).WithType(code)
}

// Violations collects the broken rules of one request, so the partner
// learns all of them at once.
type Violations []errs.Violation

// Add records a broken rule of field.
func (vs *Violations) Add(field, format string, args ...any) {
	*vs = append(*vs, errs.Violation{Field: field, Reason: fmt.Sprintf(format, args...)})
}

// Err is the 422 naming every violation under code, or nil when there is
// none.
func (vs Violations) Err(code, message string) error {
	if len(vs) == 0 {
		return nil
	}
	return &errs.Error{Code: errs.Unprocessable, Type: code, Message: message, Violations: vs}
}
