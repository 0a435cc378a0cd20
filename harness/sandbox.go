package harness

import (
	"context"
	"io"
	"time"

	"homologa/simulator/server"
)

// ContractStart is the instant the contract features freeze their clocks
// at ("Given my clock is frozen at …").
var ContractStart = time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)

// StartSandbox starts an in-process sandbox on a loopback port with an
// in-memory database on the real clock: the sandbox a long-running test
// run shares, each scenario in a namespace of its own (World.Begin).
func StartSandbox(ctx context.Context, log io.Writer) (*server.Server, error) {
	s, err := server.New(ctx, server.Config{
		Addr: "127.0.0.1:0", Log: log, DeliveryTimeout: 5 * time.Second, PingEvery: 500 * time.Millisecond,
	})
	if err != nil {
		return nil, err
	}
	if err := s.Start(ctx); err != nil {
		s.Close(ctx)
		return nil, err
	}
	return s, nil
}
