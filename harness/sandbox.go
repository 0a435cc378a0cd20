package harness

import (
	"context"
	"fmt"
	"io"
	"net/netip"
	"syscall"
	"time"

	"homologa/simulator/server"
)

// ContractStart is the instant the contract features freeze their clocks
// at ("Given my clock is frozen at …").
var ContractStart = time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)

// Names the in-process sandbox allows as webhook hosts and pins, as
// --webhook-allow and --webhook-resolve would, to addresses no delivery
// may reach: features register webhooks on them and see the deliveries
// refused (features/contract/delivery-safety.feature).
var (
	SandboxWebhookAllow   = []string{"metadata.homologa.test", "internal.homologa.test"}
	SandboxWebhookResolve = []string{"metadata.homologa.test=169.254.169.254", "internal.homologa.test=10.0.0.1"}
)

// StartSandbox starts an in-process sandbox on a loopback port with an
// in-memory database on the real clock: the sandbox a long-running test
// run shares, each scenario in a namespace of its own (World.Begin).
//
// Its deliveries never leave loopback, even if the sandbox's webhook guard
// were broken: webhook names resolve by pins or as localhost, never by
// real DNS, and a dial hook behind the guard refuses any address that is
// not loopback before connect(2).
func StartSandbox(ctx context.Context, log io.Writer) (*server.Server, error) {
	s, err := server.New(ctx, server.Config{
		Addr: "127.0.0.1:0", Log: log, DeliveryTimeout: 5 * time.Second, PingEvery: 500 * time.Millisecond,
		WebhookAllow: SandboxWebhookAllow, WebhookResolve: SandboxWebhookResolve,
		WebhookLookup: loopbackLookup, WebhookDialControl: loopbackOnly,
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

// loopbackLookup answers localhost, and refuses every other name rather
// than ask real DNS (a packet beyond loopback).
func loopbackLookup(_ context.Context, host string) ([]netip.Addr, error) {
	if host == "localhost" {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	return nil, fmt.Errorf("harness: %s is not looked up: the in-process sandbox asks no DNS", host)
}

// loopbackOnly refuses a dial to anything but loopback. The guard refuses
// first; this is what would stop a broken one, and its message is not
// the guard's, so a feature expecting the guard's refusal fails.
func loopbackOnly(_, address string, _ syscall.RawConn) error {
	if ap, err := netip.ParseAddrPort(address); err == nil && ap.Addr().Unmap().IsLoopback() {
		return nil
	}
	return fmt.Errorf("harness: refused a dial to %s: the in-process sandbox dials loopback only", address)
}
