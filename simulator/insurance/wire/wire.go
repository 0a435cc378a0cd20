package wire

import (
	"encoding/json"
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

// ReplyTop answers status with v in the envelope and the top fields beside
// it: what a client reads at the top level of an answer (the 2025 client
// reads a proposal's numeroProposta there, insurance CLIENTS §3.6).
func ReplyTop(status int, top map[string]any, v any) *httpx.Reply {
	return &httpx.Reply{Status: status, Body: Topped{Top: top, Envelope: Envelope(v)}}
}

// Topped is an envelope with fields beside it.
type Topped struct {
	Top      map[string]any
	Envelope httpx.InsurerEnvelope
}

// ForStyle implements httpx.Styled: the envelope in the style, the top
// fields as they are.
func (t Topped) ForStyle(style string) any { return topped{t.Top, t.Envelope.ForStyle(style)} }

// MarshalJSON writes the envelope with the top fields beside it.
func (t Topped) MarshalJSON() ([]byte, error) { return topped{t.Top, t.Envelope}.MarshalJSON() }

type topped struct {
	top map[string]any
	env any
}

func (t topped) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(t.env)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, v := range t.top {
		m[k] = v
	}
	return json.Marshal(m)
}
