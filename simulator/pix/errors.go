package pix

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"homologa/simulator/errs"
	"homologa/simulator/store"
)

// violation is one broken rule, with the property path the spec's
// violacoes use ("cob.valor.original").
type violation struct {
	field, reason, value string
}

// problem builds a Pix error of the given official type.
func problem(code errs.Code, typ, detail string, vs ...violation) *errs.Error {
	e := &errs.Error{Code: code, Type: typ, Message: detail}
	for _, v := range vs {
		e.Violations = append(e.Violations, errs.Violation{Field: v.field, Reason: v.reason, Value: v.value})
	}
	return e
}

// invalid is a 400 of type typ naming the violated properties.
func invalid(typ string, vs ...violation) *errs.Error {
	var parts []string
	for _, v := range vs {
		parts = append(parts, v.field+": "+v.reason)
	}
	return problem(errs.Invalid, typ, strings.Join(parts, "; "), vs...)
}

func notFound(typ, format string, args ...any) *errs.Error {
	return problem(errs.NotFound, typ, fmt.Sprintf(format, args...))
}

// absent is how a resource answers an id it does not hold: its Pix
// NaoEncontrado type and a message with a %v for the id.
type absent struct{ typ, format, field string }

func (a absent) err(id any) *errs.Error {
	if a.field != "" {
		return invalid(a.typ, violation{a.field, fmt.Sprintf(a.format, id), fmt.Sprint(id)})
	}
	return notFound(a.typ, a.format, id)
}

// absentIn is how an operation answers a resource its body names that
// does not exist: a 400 of its type, the field violated.
func absentIn(typ, field, format string) absent {
	return absent{typ: typ, format: format, field: field}
}

// load finds one resource of a company with a store finder, or answers
// the resource's NaoEncontrado.
func load[K, T any](ctx context.Context, tx *store.Tx, find func(context.Context, *store.Tx, string, K) (*T, error), companyID string, id K, a absent) (*T, error) {
	v, err := find(ctx, tx, companyID, id)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, a.err(id)
	}
	return v, nil
}

// view loads one resource of a company in a read transaction and renders
// it with fn.
func view[K, T any](ctx context.Context, db *store.DB, find func(context.Context, *store.Tx, string, K) (*T, error), companyID string, id K, a absent,
	fn func(tx *store.Tx, v *T) (doc, error)) (doc, error) {
	return read(ctx, db, loaded(ctx, find, companyID, id, a, fn))
}

// change loads one resource of a company in a write transaction and
// changes it with fn, which answers its new body.
func change[K, T any](ctx context.Context, db *store.DB, find func(context.Context, *store.Tx, string, K) (*T, error), companyID string, id K, a absent,
	fn func(tx *store.Tx, v *T) (doc, error)) (doc, error) {
	return write(ctx, db, loaded(ctx, find, companyID, id, a, fn))
}

// loaded is fn applied to the resource load finds.
func loaded[K, T any](ctx context.Context, find func(context.Context, *store.Tx, string, K) (*T, error), companyID string, id K, a absent,
	fn func(tx *store.Tx, v *T) (doc, error)) func(tx *store.Tx) (doc, error) {
	return func(tx *store.Tx) (doc, error) {
		v, err := load(ctx, tx, find, companyID, id, a)
		if err != nil {
			return nil, err
		}
		return fn(tx, v)
	}
}

// remove deletes one resource of a company in a write transaction with a
// store function that says how many rows it deleted; none is the
// resource's NaoEncontrado.
func remove(ctx context.Context, db *store.DB, del func(context.Context, *store.Tx, string, string) (int64, error), companyID, id string, a absent) error {
	return db.Tx(ctx, func(tx *store.Tx) error {
		n, err := del(ctx, tx, companyID, id)
		if err == nil && n == 0 {
			return a.err(id)
		}
		return err
	})
}

// cancelOnly is the rule of a PATCH that can only cancel: its status must
// be CANCELADA.
func cancelOnly(typ string, req doc) error {
	if st := str(req, "status"); st != "CANCELADA" {
		return invalid(typ, violation{"status", "o status só pode ser alterado para CANCELADA", st})
	}
	return nil
}

// retype gives a schema error the operation's own type (CobOperacaoInvalida…)
// with properties prefixed by the entity ("cob."), as the spec's examples
// show; malformed JSON stays RequisicaoInvalida.
func retype(err error, entity, typ string) error {
	var e *errs.Error
	if err == nil || !errors.As(err, &e) || e.Code != errs.Invalid || len(e.Violations) == 0 {
		return err
	}
	e.Type = typ
	var parts []string
	for i, v := range e.Violations {
		if entity != "" {
			if v.Field == "" {
				v.Field = entity
			} else {
				v.Field = entity + "." + v.Field
			}
		}
		e.Violations[i] = v
		parts = append(parts, v.Field+": "+v.Reason)
	}
	e.Message = strings.Join(parts, "; ")
	return e
}
