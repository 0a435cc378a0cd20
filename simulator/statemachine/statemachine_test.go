package statemachine_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"homologa/simulator/clock"
	"homologa/simulator/errs"
	"homologa/simulator/events"
	"homologa/simulator/jobs"
	"homologa/simulator/statemachine"
	"homologa/simulator/store"
)

// proposal is a small machine in the shape later resources declare.
var proposal = &statemachine.Machine{
	Resource: "proposta",
	Initial:  "RECEBIDA",
	Edges: map[string][]statemachine.Edge{
		"RECEBIDA":   {{To: "EM_ANALISE", Type: "proposta.status", Name: "Status de Proposta"}},
		"EM_ANALISE": {{To: "IMPLANTADA", Type: "proposta.implantada", Name: "Proposta Implantada"}, {To: "RECUSADA", Type: "proposta.status", Name: "Status de Proposta"}},
		"RECUSADA":   nil,
		"IMPLANTADA": nil,
	},
}

func TestCheck(t *testing.T) {
	if err := proposal.Validate(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		from, to string
		code     errs.Code
		msg      string
	}{
		{"RECEBIDA", "EM_ANALISE", "", ""},
		{"EM_ANALISE", "IMPLANTADA", "", ""},
		{"RECEBIDA", "IMPLANTADA", errs.Conflict, "próximos estados permitidos: EM_ANALISE"},
		{"EM_ANALISE", "RECEBIDA", errs.Conflict, "próximos estados permitidos: IMPLANTADA, RECUSADA"},
		{"IMPLANTADA", "EM_ANALISE", errs.Conflict, "um estado final"},
		{"RECEBIDA", "VOADORA", errs.Invalid, "não tem o estado"},
	}
	for _, tt := range tests {
		_, err := proposal.Check(tt.from, tt.to)
		if tt.code == "" {
			if err != nil {
				t.Errorf("%s → %s: %v", tt.from, tt.to, err)
			}
			continue
		}
		var e *errs.Error
		if !errors.As(err, &e) || e.Code != tt.code || !strings.Contains(e.Message, tt.msg) {
			t.Errorf("%s → %s = %v, want %s containing %q", tt.from, tt.to, err, tt.code, tt.msg)
		}
	}
}

func TestValidate(t *testing.T) {
	bad := []*statemachine.Machine{
		{Resource: "x"},
		{Resource: "x", Initial: "A", Edges: map[string][]statemachine.Edge{"A": {{To: ""}}}},
		{Resource: "x", Initial: "A", Edges: map[string][]statemachine.Edge{"A": {{To: "B"}, {To: "B"}}}},
		{Resource: "x", Initial: "A", Edges: map[string][]statemachine.Edge{"A": {{To: "B", Type: "x.y"}}}},
	}
	for i, m := range bad {
		if m.Validate() == nil {
			t.Errorf("machine %d validated", i)
		}
	}
}

func TestApply(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clk := clock.New(clock.Frozen, 0, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	hub := events.NewHub()
	sub := hub.Subscribe(events.Filter{Every: true}, 10)
	bus := &events.Bus{DB: db, Clocks: clock.NewClocks(clk), Jobs: jobs.New(db, clock.NewClocks(clk), log), Hub: hub, Log: log,
		AppOf: func(context.Context, *store.Tx, string) (events.App, error) { return events.App{CompanyID: "c1"}, nil }}
	a := &statemachine.Applier{Bus: bus}
	var observed []string
	a.Observe(func(ctx context.Context, tx *store.Tx, m statemachine.Move, ev *events.Envelope) error {
		observed = append(observed, m.From+"→"+m.To)
		if m.To == "RECUSADA" {
			return errors.New("observer refuses")
		}
		return nil
	})
	state := "RECEBIDA"
	move := func(to string) error {
		return db.Tx(ctx, func(tx *store.Tx) error {
			_, err := a.Apply(ctx, tx, statemachine.Move{Machine: proposal, From: state, To: to, AppID: "app", CNPJ: "11222333000181",
				Subject: map[string]any{"numeroProposta": 1}, SubjectKey: "proposta:1", Data: map[string]any{"statusAtual": to},
				Store: func(ctx context.Context, tx *store.Tx) error { state = to; return nil }})
			return err
		})
	}
	t.Run("OK", func(t *testing.T) {
		if err := move("EM_ANALISE"); err != nil {
			t.Fatal(err)
		}
		e := <-sub.C
		if e.Type != "proposta.status" || e.Name != "Status de Proposta" || state != "EM_ANALISE" {
			t.Fatalf("event %s/%s, state %s", e.Type, e.Name, state)
		}
	})
	t.Run("ErrInvalidMoveStoresNothing", func(t *testing.T) {
		if err := move("RECEBIDA"); err == nil || state != "EM_ANALISE" {
			t.Fatalf("err=%v state=%s", err, state)
		}
	})
	t.Run("ErrObserverRollsBackTheEvent", func(t *testing.T) {
		if err := move("RECUSADA"); err == nil {
			t.Fatal("an observer error did not fail the move")
		}
		select {
		case e := <-sub.C:
			t.Fatalf("a rolled-back move published %s", e.Type)
		default:
		}
		evs, _ := bus.Events(ctx, events.Filter{Every: true}, 0, 10)
		if len(evs) != 1 {
			t.Fatalf("events stored = %d, want 1 (the rolled-back one gone)", len(evs))
		}
	})
	if strings.Join(observed, ",") != "RECEBIDA→EM_ANALISE,EM_ANALISE→RECUSADA" {
		t.Fatalf("observed %v", observed)
	}
}
