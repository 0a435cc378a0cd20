package server_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"homologa/simulator/server"
)

// The survey of the Pix clients published on npm (issue 38): each runs
// unchanged — its package as published, the partner's code written from
// its README — against serve --mtls, with the certificate the portal
// issues in the form the client takes. testdata/pspclients/connect.cjs
// maps the PSP's homologation URLs written in each package onto the
// sandbox (its base path for the API Pix rewritten to /pix/v2), as a
// hosts file would, and refuses every connection that is not loopback.
var pspPackages = []string{"sdk-node-apis-efi@1.4.0", "efi2@npm:sdk-node-apis-efi@2.0.1", "gn-api-sdk-node@3.0.4", "data7-pix@1.0.7"}

// pspCall is a call's expected outcome: ok; or failed, with the words
// its error has; or skipped, the client not having it.
type pspCall struct {
	ok      bool
	error   string
	skipped bool
}

// Every call of each client, and how it ends. A call that fails does so
// for a reason of the client's own, said beside it, and the sandbox's
// answer to it is among refused ("METHOD path-prefix status" of the
// interaction log).
var pspSurvey = []struct {
	name, pkg, script, sdk string
	calls                  map[string]pspCall
	refused                []string
	// findings are the interaction log's findings of the client's
	// requests, as "kind METHOD field".
	findings []string
}{
	{name: "efi", pkg: "sdk-node-apis-efi@1.4.0", script: "efi.cjs", sdk: "sdk-node-apis-efi", calls: efiCalls(true),
		findings: []string{"trailing-slash GET /pix/v2/cobv/"}},
	{name: "efitwo", pkg: "sdk-node-apis-efi@2.0.1", script: "efi.cjs", sdk: "efi2", calls: efiCalls(true),
		findings: []string{"trailing-slash GET /pix/v2/cobv/"}},
	{name: "gn", pkg: "gn-api-sdk-node@3.0.4", script: "efi.cjs", sdk: "gn-api-sdk-node", calls: efiCalls(false),
		findings: []string{"trailing-slash GET /pix/v2/cobv/"}},
	{name: "data7", pkg: "data7-pix@1.0.7", script: "data7.cjs", calls: map[string]pspCall{
		"criar_cobranca": {ok: true}, "consultar_cobranca": {ok: true}, "listar_cobrancas": {ok: true},
		"criar_cobranca (another)": {ok: true}, "cancelar_cobranca": {ok: true},
		"registrar_webhook": {ok: true}, "consultar_webhook": {ok: true}, "deletar_webhook": {ok: true},
		"listar_pix_recebidos": {ok: true}, "consultar_pix_recebido": {ok: true},
		// PATCH /cob repeating the charge it read, status ATIVA,
		// tx_id and revisao included: the status ignored (same-status),
		// the unknown members too.
		"alterar_cobranca": {ok: true},
		// data7-pix throws the Problema it got as "[object Object]".
		// PUT devolucao with valor the number 1: the spec's valor is a
		// string, "1.00" (a 400 naming valor).
		"devolver_pix_recebido": {error: "[object Object]"},
		// GET of the refund the client could not ask for: a 404.
		"consultar_pix_devolvido": {error: "[object Object]"},
	}, refused: []string{"PUT /pix/v2/pix/ 400", "GET /pix/v2/pix/ 404"}, findings: []string{
		"token-in-query POST grant_type,client_id,client_secret,scope", "two-client-authentications POST client_secret",
		"unknown-member PUT tx_id", "unknown-member PUT status", "unknown-member PUT revisao",
		"same-status PATCH status", "unknown-member PATCH tx_id", "unknown-member PATCH revisao",
	}},
}

// efiCalls are the outcomes of Efí's SDKs' calls; gn-api-sdk-node has
// no methods for the batches (batches false).
func efiCalls(batches bool) map[string]pspCall {
	calls := map[string]pspCall{}
	for _, c := range []string{"pixCreateCharge", "pixCreateImmediateCharge", "pixDetailCharge", "pixUpdateCharge", "pixListCharges",
		"pixCreateDueCharge", "pixDetailDueCharge", "pixUpdateDueCharge", "pixListDueCharges",
		"pixCreateDueChargeBatch", "pixUpdateDueChargeBatch", "pixDetailDueChargeBatch", "pixListDueChargeBatch",
		"pixCreateLocation", "pixLocationList", "pixDetailLocation", "pixUnlinkTxidLocation",
		"pixConfigWebhook", "pixDetailWebhook", "pixListWebhook", "pixDeleteWebhook",
		"pixReceivedList", "pixDetailReceived", "pixDevolution", "pixDetailDevolution"} {
		calls[c] = pspCall{ok: true, skipped: !batches && strings.Contains(c, "Batch")}
	}
	// GET /v2/loc/{id}/qrcode is Efí's own, not the API Pix's: a 404.
	calls["pixGenerateQRCode"] = pspCall{error: "NaoEncontrado"}
	return calls
}

// TestPublishedPixClients runs each client's calls, the charges first,
// then, once the sandbox's payer has paid one, the Pix received and its
// refund; each call ends as pspSurvey says, and the client's requests
// leave in the interaction log the findings it says.
func TestPublishedPixClients(t *testing.T) {
	t.Parallel()
	modules := installPSPClients(t)
	dir := t.TempDir()
	s := startServer(t, server.Config{MTLS: true, TLSDir: dir})
	defer s.Close(context.Background())
	base, roots := s.URL(), trustDir(t, dir)

	for i, client := range pspSurvey {
		t.Run(client.name, func(t *testing.T) {
			cnpj := []string{"11444777000161", "04252011000110", "60746948000112", "33000167000101"}[i]
			a := onboard(t, base, roots, client.name+"@exemplo.com.br", cnpj)
			env := pspEnv(t, base, dir, a, cnpj, client.name, i)
			env = append(env, "NODE_PATH="+modules, "HOMOLOGA_SDK="+client.sdk)
			got := map[string]string{}
			for k, v := range runPSPClient(t, client.script, append(env, "HOMOLOGA_PHASE=charges")) {
				got[k] = v
			}
			txid := firstCharge(client.name)
			e2e := payCharge(t, base, roots, a, txid)
			for k, v := range runPSPClient(t, client.script, append(env, "HOMOLOGA_PHASE=pix", "HOMOLOGA_E2E="+e2e)) {
				got[k] = v
			}
			for call, want := range client.calls {
				errText, ran := got[call]
				switch {
				case !ran:
					t.Errorf("%s: did not run", call)
				case want.skipped != (errText == skippedCall):
					t.Errorf("%s: %q, want skipped %v", call, errText, want.skipped)
				case want.skipped:
				case want.ok && errText != "":
					t.Errorf("%s: failed: %s", call, errText)
				case !want.ok && (errText == "" || !strings.Contains(errText, want.error)):
					t.Errorf("%s: %q, want a failure with %q", call, errText, want.error)
				}
			}
			if len(got) != len(client.calls) {
				t.Errorf("ran %d calls, the survey lists %d: %v", len(got), len(client.calls), got)
			}
			findings, refusals := appLog(t, base, roots, a.clientID)
			for _, want := range client.refused {
				if !slices.ContainsFunc(refusals, func(r string) bool {
					return strings.HasPrefix(r, strings.Fields(want)[0]+" "+strings.Fields(want)[1]) && strings.HasSuffix(r, " "+strings.Fields(want)[2])
				}) {
					t.Errorf("no refusal %q in the log: %v", want, refusals)
				}
			}
			sort.Strings(findings)
			want := append([]string(nil), client.findings...)
			sort.Strings(want)
			if strings.Join(findings, "\n") != strings.Join(want, "\n") {
				t.Errorf("findings:\n  %s\nwant:\n  %s", strings.Join(findings, "\n  "), strings.Join(want, "\n  "))
			}
			t.Logf("%s: %d calls; findings: %v", client.pkg, len(got), findings)
		})
	}
}

// firstCharge is the txid of the charge a client's script creates first.
func firstCharge(name string) string {
	if name == "data7" {
		return pad("tdata7datasete1")
	}
	return pad("t" + name + "efisdk1")
}

// pad writes a txid as the scripts do: 30 characters, zeros after.
func pad(s string) string { return s + strings.Repeat("0", 30-len(s)) }

// pspEnv is a client's environment: its credentials, its certificate
// (the .p12 with the empty password for Efí's SDKs, the PEM bundle for
// data7-pix), the sandbox CA, its Pix key and webhook, and connect.cjs.
func pspEnv(t *testing.T, base, tlsDir string, a portalApp, cnpj, name string, i int) []string {
	t.Helper()
	files := t.TempDir()
	pemFile, p12File := filepath.Join(files, "app.pem"), filepath.Join(files, "app.p12")
	req, _ := http.NewRequest(http.MethodPost, base+"/portal/apps/"+a.id+"/certificates", strings.NewReader(`{"format": "p12", "password": ""}`))
	req.Header.Set("Authorization", "Bearer "+testOperator)
	req.Header.Set("Content-Type", "application/json")
	resp, err := partnerClient(trustDir(t, tlsDir), nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	p12, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 201 {
		t.Fatalf("the .p12 without a password: %d %s", resp.StatusCode, p12)
	}
	os.WriteFile(p12File, p12, 0o600)
	os.WriteFile(pemFile, a.pem, 0o600)
	connect, _ := filepath.Abs("testdata/pspclients/connect.cjs")
	ca := filepath.Join(tlsDir, server.CAFile)
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + files,
		"NODE_OPTIONS=--require " + connect, "NODE_EXTRA_CA_CERTS=" + ca, "HOMOLOGA_SANDBOX=" + base,
		"HOMOLOGA_CLIENT_ID=" + a.clientID, "HOMOLOGA_CLIENT_SECRET=" + a.secret,
		"HOMOLOGA_CERT=" + p12File, "HOMOLOGA_PEM=" + pemFile, "HOMOLOGA_CA=" + ca,
		"HOMOLOGA_CHAVE=" + cnpj, "HOMOLOGA_WEBHOOK=" + base + "/sandbox/inbox/" + name,
		"HOMOLOGA_TAG=t" + name, "HOMOLOGA_LOTE=" + fmt.Sprint(100+i),
	}
}

// runPSPClient runs a client script and reads its calls: name → "" when
// it ended well, else its error.
func runPSPClient(t *testing.T, script string, env []string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join("testdata/pspclients", script))
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s\n%s", script, err, out, stderr.String())
	}
	calls := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var line struct {
			Call    string `json:"call"`
			OK      bool   `json:"ok"`
			Error   string `json:"error"`
			Skipped string `json:"skipped"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Call == "" {
			continue // the client's own logging
		}
		calls[line.Call] = ""
		switch {
		case line.Skipped != "":
			calls[line.Call] = skippedCall
		case !line.OK:
			calls[line.Call] = line.Error
			if line.Error == "" {
				calls[line.Call] = "failed"
			}
		}
	}
	return calls
}

// skippedCall marks a call the client does not have.
const skippedCall = "(skipped)"

// payCharge has the sandbox's payer pay a charge of the app's, and
// answers the Pix's endToEndId.
func payCharge(t *testing.T, base string, roots *x509.CertPool, a portalApp, txid string) string {
	t.Helper()
	cert, err := tls.X509KeyPair(a.pem, a.pem)
	if err != nil {
		t.Fatal(err)
	}
	p := &pixSession{t: t, base: base, http: partnerClient(roots, &cert), clientID: a.clientID, pass: a.secret}
	if code, out, err := p.login(); err != nil || code != 200 {
		t.Fatalf("token: %d %v %v", code, out, err)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/sandbox/pix/payments", strings.NewReader(`{"txid": "`+txid+`"}`))
	req.Header.Set("Authorization", "Bearer "+p.token)
	req.Header.Set("Content-Type", "application/json")
	code, out, err := p.send(req)
	if err != nil || code != 201 {
		t.Fatalf("pay %s: %d %v %v", txid, code, out, err)
	}
	return out["endToEndId"].(string)
}

// appLog reads an app's requests in the interaction log: their findings,
// as "kind METHOD field", each once, and the refused ones, as "METHOD
// path status".
func appLog(t *testing.T, base string, roots *x509.CertPool, clientID string) (findings, refusals []string) {
	t.Helper()
	code, body := operatorCall(t, roots, http.MethodGet, base+"/sandbox/interactions?limit=1000&app="+clientID)
	if code != 200 {
		t.Fatalf("interactions: %d %s", code, body)
	}
	var out struct {
		Interactions []struct {
			Method, Path string
			Status       int
			Findings     []struct{ Kind, Field, Detail string }
		}
	}
	json.Unmarshal([]byte(body), &out)
	seen := map[string]bool{}
	for _, it := range out.Interactions {
		if it.Status >= 400 {
			refusals = append(refusals, fmt.Sprintf("%s %s %d", it.Method, it.Path, it.Status))
		}
		for _, f := range it.Findings {
			k := f.Kind + " " + it.Method + " " + f.Field
			if !seen[k] {
				seen[k] = true
				findings = append(findings, k)
			}
		}
	}
	return findings, refusals
}

// installPSPClients installs the surveyed packages, as published, into a
// folder of the test's and answers its node_modules. Without node and
// npm, or without the registry, the survey cannot run: it says so loudly
// and skips, unless HOMOLOGA_REQUIRE_NPM makes that a failure.
func installPSPClients(t *testing.T) string {
	t.Helper()
	skip := func(why string) {
		msg := "*** THE PUBLISHED PIX CLIENTS DID NOT RUN: " + why + " (set HOMOLOGA_REQUIRE_NPM to make this a failure) ***"
		fmt.Fprintln(os.Stderr, msg)
		if os.Getenv("HOMOLOGA_REQUIRE_NPM") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			skip("no " + tool + " on PATH")
		}
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := append([]string{"install", "--no-audit", "--no-fund", "--no-save", "--prefix", dir}, pspPackages...)
	out, err := exec.CommandContext(ctx, "npm", args...).CombinedOutput()
	switch {
	case err == nil:
	case ctx.Err() != nil || bytes.Contains(out, []byte("ENOTFOUND")) || bytes.Contains(out, []byte("EAI_AGAIN")) ||
		bytes.Contains(out, []byte("ECONNREFUSED")) || bytes.Contains(out, []byte("ETIMEDOUT")) || bytes.Contains(out, []byte("ECONNRESET")):
		skip("the npm registry cannot be reached: " + lastLine(out))
	default:
		t.Fatalf("npm install %s: %v\n%s", strings.Join(pspPackages, " "), err, out)
	}
	return filepath.Join(dir, "node_modules")
}

// lastLine is the last non-empty line of out.
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}
