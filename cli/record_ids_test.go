package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"homologa/simulator/server"
)

// recordTrigger fires an event with homologa trigger on a fresh sandbox
// (the sale, the moves and requests it needs, as the partner and the
// other side make them) and records that session into a folder; it
// answers the folder, the feature and what trigger printed.
func recordTrigger(t *testing.T, event string) (dir, feature, fired string) {
	t.Helper()
	s := startSandbox(t, server.Config{})
	start := time.Now()
	code, fired, errOut := trigger(t, s.URL(), event)
	if code != 0 {
		t.Fatalf("trigger %s: %s", event, errOut)
	}
	time.Sleep(200 * time.Millisecond)
	dir = t.TempDir()
	out := filepath.Join(dir, "session.feature")
	if code, _, errOut := run(t, "record", "--sandbox", s.URL(), "--since", start.Format(time.RFC3339Nano), "--out", out); code != 0 {
		t.Fatalf("record: %s", errOut)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return dir, string(text), fired
}

// shiftedSandbox is a sandbox whose demo company already sold, enrolled,
// charged, paid a commission and a benefit: the sandbox numbers these
// sandbox-wide, so a replay on it gets other enrollment, charge, benefit
// and commission numbers than a fresh sandbox gave the recorded session.
// It answers what its triggers printed.
func shiftedSandbox(t *testing.T) (*server.Server, string) {
	t.Helper()
	s := startSandbox(t, server.Config{})
	var fired strings.Builder
	for _, ev := range []string{"beneficio.pago", "comissao.paga"} {
		code, out, errOut := trigger(t, s.URL(), ev)
		if code != 0 {
			t.Fatalf("trigger %s: %s", ev, errOut)
		}
		fired.WriteString(out)
	}
	return s, fired.String()
}

// takenID proves the shifted sandbox already gave an id the recorded
// session got: kind=value of the recording's trigger output must be in
// the shifted sandbox's.
func takenID(t *testing.T, recorded, shifted, kind string) {
	t.Helper()
	m := regexp.MustCompile(`\b` + kind + `=(\d+)`).FindStringSubmatch(recorded)
	if m == nil {
		t.Fatalf("the recorded session shows no %s:\n%s", kind, recorded)
	}
	if !strings.Contains(shifted, kind+"="+m[1]+" ") && !strings.Contains(shifted, kind+"="+m[1]+"\n") {
		t.Fatalf("the shifted sandbox did not take %s=%s: a replay there could get the recorded number", kind, m[1])
	}
}

// smallIDLiteral is an id-named field of an event asserted as a number:
// a sandbox-made id written as its recorded value.
var smallIDLiteral = regexp.MustCompile(`the (event|response) field "[^"]*(Id|Ids\.\d+|\.id)" is "\d+"`)

// refusingSandbox is a sandbox whose every benefit notice (kind
// "beneficio") is taken into regulation and refused, or every charge
// ("cobranca") refused, as soon as they are made: what the recorded
// sessions did (the regulator approving and paying, the bank receiving
// the charge) cannot happen there.
func refusingSandbox(t *testing.T, kind string) *server.Server {
	dir := t.TempDir()
	files := map[string]string{
		"beneficio": "id: beneficio-padrao\ntitle: Every benefit refused at once\napplies_to: beneficio\ndefault: true\n" +
			"steps:\n  - after: 0s\n    status: EM_REGULACAO\n  - after: 0s\n    refuse: {reason: SEM_DOCUMENTACAO, description: Sem documentos}\n",
		"cobranca": "id: cobranca-padrao\ntitle: Every charge refused at once\napplies_to: cobranca\ndefault: true\n" +
			"steps:\n  - after: 0s\n    refuse: {reason: SALDO_INSUFICIENTE, description: Conta sem saldo}\n",
	}
	os.WriteFile(filepath.Join(dir, kind+"-padrao.yaml"), []byte(files[kind]), 0o644)
	return startSandbox(t, server.Config{ScenariosDir: dir})
}

// TestRecordedBenefitFollowsItsIDs: homologa trigger beneficio.pago's
// session (a sale, its implantation, a benefit notice on the enrollment,
// its regulation and payment), recorded, follows the small numbers the
// sandbox made by their kind: the enrollment's inscricaoId from the
// implantation's event into the notice's body, the benefit's beneficioId
// from the notice's answer into its route and the regulator's moves; it
// asserts none of them as its recorded number. The feature passes on a
// sandbox that had already given those numbers to other resources, and
// fails, naming the status, where benefits are refused.
func TestRecordedBenefitFollowsItsIDs(t *testing.T) {
	dir, feature, fired := recordTrigger(t, "beneficio.pago")
	t.Logf("the recorded feature:\n%s", feature)
	for _, want := range []string{
		`I remember the event field "data.inscricaoIds.0" as "inscricaoId"`,
		`"inscricaoId": ${inscricaoId}`,
		`I remember the response field "Valor.beneficioId" as "beneficioId"`,
		`I send "GET" to "/benefits/v1/beneficio/${beneficioId}"`,
		`"beneficioId": "${beneficioId}",`,
		`the event field "subject.beneficioId" is "${beneficioId}"`,
		`the event field "subject.inscricaoId" is "${inscricaoId}"`,
		`"PARTICIPACAO": 100`, // a number in no id's field stays as it was
	} {
		if !strings.Contains(feature, want) {
			t.Errorf("the feature lacks %q", want)
		}
	}
	if m := smallIDLiteral.FindString(feature); m != "" {
		t.Errorf("the feature asserts an id the sandbox made as its recorded number: %s", m)
	}

	s, shifted := shiftedSandbox(t)
	for _, kind := range []string{"inscricaoId", "cobrancaId", "beneficioId"} {
		takenID(t, fired, shifted, kind)
	}
	rep, out := replay(t, dir, s.URL())
	if rep.Failed != 0 || rep.Passed == 0 {
		t.Fatalf("against a sandbox whose numbers are shifted: %d passed, %d failed\n%s", rep.Passed, rep.Failed, out)
	}

	rep, out = replay(t, dir, refusingSandbox(t, "beneficio").URL())
	if rep.Failed == 0 {
		t.Fatalf("against a sandbox that refuses benefits the recording passed:\n%s", out)
	}
	if !strings.Contains(out, "RECUSADO") && !strings.Contains(out, `want "AVISADO"`) {
		t.Errorf("the failure does not name the benefit's status:\n%s", out)
	}
}

// TestRecordedChargeFollowsItsIDs: homologa trigger comissao.paga's
// session (a sale implanted, its first charge read through the
// enrollment's route, received and paid by the bank, its commission paid
// out) follows the enrollment's and the charge's numbers by kind
// (/inscricao/{id}/cobrancas, the charge's moves), passes on a sandbox
// whose numbers are shifted, and fails, naming the charge's status, where
// charges are refused.
func TestRecordedChargeFollowsItsIDs(t *testing.T) {
	dir, feature, fired := recordTrigger(t, "comissao.paga")
	t.Logf("the recorded feature:\n%s", feature)
	for _, want := range []string{
		`I send "GET" to "/customer/v1/inscricao/${inscricaoId}/cobrancas"`,
		`"cobrancaId": "${cobrancaId}",`,
		`the event field "subject.cobrancaId" is "${cobrancaId}"`,
		`the stream delivers a "comissao.paga" event`,
	} {
		if !strings.Contains(feature, want) {
			t.Errorf("the feature lacks %q", want)
		}
	}
	// The charge's number is remembered where the sandbox first showed
	// it: its Cobrança Emitida, or the enrollment's list of charges when
	// the trigger read that before the event was written.
	if !strings.Contains(feature, `I remember the event field "subject.cobrancaId" as "cobrancaId"`) &&
		!strings.Contains(feature, `I remember the response field "Valor.0.cobrancaId" as "cobrancaId"`) {
		t.Errorf("the feature remembers the charge's number nowhere")
	}
	if m := smallIDLiteral.FindString(feature); m != "" {
		t.Errorf("the feature asserts an id the sandbox made as its recorded number: %s", m)
	}

	s, shifted := shiftedSandbox(t)
	for _, kind := range []string{"inscricaoId", "cobrancaId", "comissaoId"} {
		takenID(t, fired, shifted, kind)
	}
	rep, out := replay(t, dir, s.URL())
	if rep.Failed != 0 || rep.Passed == 0 {
		t.Fatalf("against a sandbox whose numbers are shifted: %d passed, %d failed\n%s", rep.Passed, rep.Failed, out)
	}

	rep, out = replay(t, dir, refusingSandbox(t, "cobranca").URL())
	if rep.Failed == 0 {
		t.Fatalf("against a sandbox that refuses charges the recording passed:\n%s", out)
	}
	if !strings.Contains(out, "RECUSADA") {
		t.Errorf("the failure does not name the charge's status:\n%s", out)
	}
}
