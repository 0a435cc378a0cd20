package server_test

import (
	"strings"
	"testing"
)

// TestControlActions: POST /sandbox/actions/{kind} runs one step of a
// scenario now on a resource of the caller's company, through its state
// machine; a step the kind does not take, a step placed in time, an
// unknown kind and a move the resource refuses as it is are each a clear
// error naming what is wrong.
func TestControlActions(t *testing.T) {
	t.Parallel()
	w := newPixTenants(t)
	w.must(201, w.a, "PUT", "/pix/v2/cob/acaoacaoacaoacaoacaoacao0001", pixCob("52998224725"))

	out := w.must(200, w.a, "POST", "/sandbox/actions/cob", `{"txid":"acaoacaoacaoacaoacaoacao0001","step":{"pay":true}}`)
	if out["outcome"] == "" || out["step"] != "pay" {
		t.Errorf("the answer says nothing of what was done: %v", out)
	}
	cob := w.must(200, w.a, "GET", "/pix/v2/cob/acaoacaoacaoacaoacaoacao0001", "")
	if cob["status"] != "CONCLUIDA" || len(cob["pix"].([]any)) != 1 {
		t.Fatalf("the paid charge: %v", cob)
	}
	e2e := cob["pix"].([]any)[0].(map[string]any)["endToEndId"].(string)

	cases := []struct {
		name, kind, body string
		want             int
		says             string
	}{
		{"ErrRefusedByTheMachine", "cob", `{"txid":"acaoacaoacaoacaoacaoacao0001","step":{"status":"REMOVIDA_PELO_PSP"}}`, 409, "CONCLUIDA"},
		{"ErrVerbOfAnotherKind", "cob", `{"txid":"acaoacaoacaoacaoacaoacao0001","step":{"pending":{"code":"DOC"}}}`, 400, "step.pending"},
		{"ErrPlacedInTime", "cob", `{"txid":"acaoacaoacaoacaoacaoacao0001","step":{"after":"1m","pay":true}}`, 400, "step.after"},
		{"ErrNoStep", "cob", `{"txid":"acaoacaoacaoacaoacaoacao0001"}`, 400, "step"},
		{"ErrUnknownKind", "boleto", `{"txid":"x","step":{"pay":true}}`, 404, "proposta"},
		{"ErrAnotherCompanysResource", "devolucao", `{"e2eid":"` + e2e + `","id":"d1","step":{"settle":true}}`, 404, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			token := w.a
			if c.name == "ErrAnotherCompanysResource" {
				token = w.b
			}
			code, text := tenantCall(t, w.s, token, "POST", "/sandbox/actions/"+c.kind, c.body)
			if code != c.want && !(c.want == 404 && code == 400) {
				t.Errorf("%d %s, want %d", code, text, c.want)
			}
			if !strings.Contains(text, c.says) {
				t.Errorf("%s does not name %q", text, c.says)
			}
		})
	}
}
