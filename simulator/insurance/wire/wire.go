// Package wire is what the insurer's three cycles (package sale, customer
// and benefit) share: the envelope their answers go in
// ({Valor, Mensagens, HouveErrosDuranteProcessamento}), their rule
// errors, the lenient reading of what clients send, and the plumbing each
// of their resources uses the same way (the platform services, events to
// the owning app, scenario runners, timelines and pendings).
package wire

import (
	"net/http"

	"homologa/simulator/httpx"
)

// Envelope is a successful ResultadoDaOperacao.
func Envelope(v any) httpx.InsurerEnvelope {
	return httpx.InsurerEnvelope{Valor: v, Mensagens: []httpx.InsurerMensagem{}}
}

// OK answers 200 with v in the envelope.
func OK(v any) *httpx.Reply { return Reply(http.StatusOK, v) }

// Created answers 201 with v in the envelope.
func Created(v any) *httpx.Reply { return Reply(http.StatusCreated, v) }

// Reply answers status with v in the envelope.
func Reply(status int, v any) *httpx.Reply { return &httpx.Reply{Status: status, Body: Envelope(v)} }

// OKOf answers 200 with what an operation read, or the operation's error.
func OKOf[T any](v T, err error) (*httpx.Reply, error) {
	if err != nil {
		return nil, err
	}
	return OK(v), nil
}
