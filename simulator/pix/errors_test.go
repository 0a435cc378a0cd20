package pix

import (
	"errors"
	"testing"

	"homologa/simulator/errs"
)

func TestCancelOnly(t *testing.T) {
	if err := cancelOnly("CobROperacaoInvalida", doc{"status": "CANCELADA"}); err != nil {
		t.Errorf("CANCELADA: %v", err)
	}
	err := cancelOnly("CobROperacaoInvalida", doc{"status": "ATIVA"})
	var e *errs.Error
	if !errors.As(err, &e) || e.Type != "CobROperacaoInvalida" || len(e.Violations) != 1 || e.Violations[0].Value != "ATIVA" {
		t.Errorf("ATIVA: got %v", err)
	}
}

func TestRetype(t *testing.T) {
	err := retype(&errs.Error{Code: errs.Invalid, Type: "RequisicaoInvalida", Violations: []errs.Violation{{Field: "valor.original", Reason: "r"}, {Reason: "q"}}},
		"cob", "CobOperacaoInvalida")
	var e *errs.Error
	if !errors.As(err, &e) || e.Type != "CobOperacaoInvalida" || e.Violations[0].Field != "cob.valor.original" || e.Violations[1].Field != "cob" ||
		e.Message != "cob.valor.original: r; cob: q" {
		t.Errorf("got %+v", e)
	}
	malformed := &errs.Error{Code: errs.Invalid, Type: "RequisicaoInvalida", Message: "JSON malformado"}
	if got := retype(malformed, "cob", "CobOperacaoInvalida").(*errs.Error); got.Type != "RequisicaoInvalida" {
		t.Errorf("malformed JSON: type %q, want RequisicaoInvalida", got.Type)
	}
}

func TestAbsent(t *testing.T) {
	e := recAbsent.err("RR1")
	if e.Code != errs.NotFound || e.Type != "RecNaoEncontrada" || e.Message != "nenhuma recorrência RR1" {
		t.Errorf("got %+v", e)
	}
	// Named by a body, an unknown resource is a violation of its field.
	e = absentIn("CobROperacaoInvalida", "idRec", "nenhuma recorrência %v").err("RR1")
	if e.Code != errs.Invalid || e.Type != "CobROperacaoInvalida" || e.Violations[0].Field != "idRec" || e.Violations[0].Value != "RR1" {
		t.Errorf("got %+v", e)
	}
}
