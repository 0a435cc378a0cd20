package harness

import (
	"context"
	"io"
	"time"

	"homologa/simulator/server"
)

// ContractStart is the sandbox clock of a contract scenario: frozen, so
// that only the scenario moves time.
var ContractStart = time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)

// StartSandbox starts an in-process sandbox on a loopback port with an
// in-memory database, a frozen clock and the demo app, and returns it with
// a World acting as the demo app.
func StartSandbox(ctx context.Context, log io.Writer) (*server.Server, *World, error) {
	s, err := server.New(ctx, server.Config{
		Addr: "127.0.0.1:0", Clock: "frozen", ClockStart: ContractStart, Log: log,
		DeliveryTimeout: 5 * time.Second, PingEvery: 500 * time.Millisecond,
	})
	if err != nil {
		return nil, nil, err
	}
	if err := s.Start(ctx); err != nil {
		s.Close(ctx)
		return nil, nil, err
	}
	demo := Credentials{ID: s.Demo.ID, ClientID: s.Demo.ClientID, ClientSecret: s.Demo.ClientSecret, WebhookSecret: s.Demo.WebhookSecret, CNPJ: s.Demo.CNPJ}
	return s, NewWorld(s.URL(), s.Schemas, demo), nil
}
