package harness

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestStreamQuietNeedsASubscription: "the stream delivers nothing" cannot
// pass when no stream was ever opened, where silence proves nothing.
func TestStreamQuietNeedsASubscription(t *testing.T) {
	w := &World{}
	err := w.streamQuiet(0)
	if err == nil || !strings.Contains(err.Error(), "not subscribed") {
		t.Fatalf("streamQuiet without a subscription = %v, want an error saying it is not subscribed", err)
	}
}

// TestReceiverGetsNoneHoldsOverTheWindow: the step cannot pass before its
// window ends, and fails on an event that arrives late in the window.
func TestReceiverGetsNoneHoldsOverTheWindow(t *testing.T) {
	rc, err := NewReceiver(http.StatusOK)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	w := &World{receiver: rc}
	start := time.Now()
	if err := w.receiverGetsNone("comissao.paga", 1); err != nil {
		t.Fatalf("no event at all: %v", err)
	}
	if d := time.Since(start); d < time.Second {
		t.Fatalf("the step passed after %s, before its 1 s window ended", d)
	}
	go func() {
		time.Sleep(500 * time.Millisecond)
		http.Post(rc.URL, "application/json", strings.NewReader(`{"type":"comissao.paga"}`))
	}()
	if err := w.receiverGetsNone("comissao.paga", 2); err == nil {
		t.Fatal("an event half a second into the window went unnoticed")
	}
}
