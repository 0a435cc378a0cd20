package cli_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"homologa/cli"
	"homologa/simulator/server"
)

// specEvents are the events the specification names: its nineteen
// insurance events and its Pix notifications (a payment or refund on a
// key's webhook, a recurrence's authorisation on /rec, a recurring
// charge's confirmation and settlement on /cobr).
var specEvents = []string{
	"Status de Proposta", "Pendência de Proposta", "Proposta Implantada",
	"Cobrança Emitida", "Cobrança Recebida", "Cobrança Paga", "Cobrança Recusada",
	"Comissão Emitida", "Comissão Estornada", "Comissão Paga",
	"Forma de Cobrança Alterada", "Dados Cadastrais Alterados", "Valor Pago Alterado",
	"Benefício Avisado", "Status de Benefício", "Pendência de Benefício", "Pendência Respondida", "Beneficio Pago", "Beneficio Recusado",
	"Pix Recebido", "Devolução de Pix", "Status de Recorrência", "Status de Cobrança Recorrente", "Tentativa de Cobrança Recorrente",
}

// TestEveryTriggerFires: trigger --list covers every event the
// specification names; each event of the list fires on a fresh sandbox
// through homologa trigger, without a resource named (it makes what it
// needs), and reaches a receiver through homologa listen with a
// signature the receiver verifies.
func TestEveryTriggerFires(t *testing.T) {
	names := map[string]bool{}
	for _, tr := range cli.Triggers() {
		names[tr.Name] = true
	}
	for _, n := range specEvents {
		if !names[n] {
			t.Errorf("trigger --list lacks %q, an event of the specification", n)
		}
	}
	list := runCommand(t, "trigger", "--list")
	code := <-list.code
	list.code <- code
	if code != 0 {
		t.Fatalf("--list: exit %d", code)
	}
	for _, tr := range cli.Triggers() {
		if !strings.Contains(list.out.String(), tr.Type) {
			t.Errorf("--list does not show %s", tr.Type)
		}
	}

	s := startSandbox(t, server.Config{})
	recv := newReceiver(t)
	l := runCommand(t, "listen", "--sandbox", s.URL(), "--forward-to", recv.URL)
	m, _ := l.out.waitFor(t, `signing secret is (whsec_\w+)`, 0, 10*time.Second)
	recv.setSecret(m[1])
	l.out.waitFor(t, `^Ready`, 0, 10*time.Second)
	for _, tr := range cli.Triggers() {
		t.Run(tr.Type, func(t *testing.T) {
			out, errOut := newOutput(), newOutput()
			code := cli.MainEnv(context.Background(), []string{"trigger", tr.Type, "--sandbox", s.URL()}, func(string) string { return "" }, out, errOut)
			if code != 0 {
				t.Fatalf("exit %d: %s\n%s", code, errOut, out)
			}
			if !strings.Contains(out.String(), tr.Type) || !strings.Contains(out.String(), "← fired") {
				t.Errorf("the output does not show the event fired:\n%s", out)
			}
			got := recv.waitUntil(t, tr.Type, 10*time.Second, hasTypes(tr.Type))
			i := slices.IndexFunc(got, func(r received) bool { return r.Env.Type == tr.Type })
			if got[i].Valid != nil {
				t.Errorf("its signature: %v", got[i].Valid)
			}
		})
	}
}

// trigger runs homologa trigger to its end.
func trigger(t *testing.T, base string, args ...string) (int, string, string) {
	t.Helper()
	out, errOut := newOutput(), newOutput()
	code := cli.MainEnv(context.Background(), append([]string{"trigger", "--sandbox", base}, args...), func(string) string { return "" }, out, errOut)
	return code, out.String(), errOut.String()
}

// TestTriggerOnANamedResource: with --resource, trigger acts on the
// partner's own resource, moving it along its state machine from where
// it is; a move the machine refuses is an error that says why, and an
// event the sandbox does not fire is a usage error.
func TestTriggerOnANamedResource(t *testing.T) {
	s := startSandbox(t, server.Config{})
	code, out, errOut := trigger(t, s.URL(), "proposta.status")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := regexp.MustCompile(`numeroProposta=(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the output names no proposal:\n%s", out)
	}
	code, out, errOut = trigger(t, s.URL(), "proposta.implantada", "--resource", m[1])
	if code != 0 {
		t.Fatalf("implanting %s: exit %d: %s", m[1], code, errOut)
	}
	if strings.Contains(out, "/insurer/v1/proposta?") || !strings.Contains(out, `POST /sandbox/actions/proposta → 200`) {
		t.Errorf("with --resource the trigger made a proposal or did not move the one named:\n%s", out)
	}
	code, _, errOut = trigger(t, s.URL(), "proposta.status", "--resource", m[1], "--field", "status=CANCELADA")
	if code != 1 || !strings.Contains(errOut, "IMPLANTADA") {
		t.Errorf("cancelling an implanted proposal: exit %d, %q; want 1 naming its status", code, errOut)
	}
	code, _, errOut = trigger(t, s.URL(), "proposta.aprovada")
	if code != 2 || !strings.Contains(errOut, "--list") {
		t.Errorf("an event the sandbox does not fire: exit %d, %q; want 2 pointing to --list", code, errOut)
	}
}
