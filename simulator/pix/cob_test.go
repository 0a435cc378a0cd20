package pix

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)

// fields lists the fields of violations, in order.
func fields(vs []violation) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.field)
	}
	return out
}

func TestValidateCharge(t *testing.T) {
	cob := func(valor doc, more ...any) doc {
		d := doc{"valor": valor, "chave": "52998224725"}
		for i := 0; i+1 < len(more); i += 2 {
			d[more[i].(string)] = more[i+1]
		}
		return d
	}
	tests := []struct {
		name     string
		kind     string
		d        doc
		keyOwned bool
		want     []string
	}{
		{"OK", "cob", cob(doc{"original": "10.00"}), true, nil},
		{"ErrExpiracao", "cob", cob(doc{"original": "10.00"}, "calendario", doc{"expiracao": float64(0)}), true, []string{"cob.calendario.expiracao"}},
		{"ErrOriginalZero", "cob", cob(doc{"original": "0.00"}), true, []string{"cob.valor.original"}},
		{"OK saque with zero", "cob", cob(doc{"original": "0.00", "retirada": doc{"saque": doc{"valor": "5.00"}}}), true, nil},
		{"ErrSaqueWithOriginal", "cob", cob(doc{"original": "1.00", "retirada": doc{"saque": doc{"valor": "5.00"}}}), true, []string{"cob.valor.original"}},
		{"ErrTrocoAGPSS", "cob", cob(doc{"original": "1.00", "retirada": doc{"troco": doc{"valor": "5.00", "modalidadeAgente": "AGPSS"}}}), true,
			[]string{"cob.valor.retirada.troco.modalidadeAgente"}},
		{"ErrModalidadeWithRetirada", "cob", cob(doc{"original": "1.00", "modalidadeAlteracao": float64(1), "retirada": doc{"troco": doc{"valor": "5.00"}}}), true,
			[]string{"cob.valor.modalidadeAlteracao"}},
		{"ErrDevedorCPF", "cob", cob(doc{"original": "1.00"}, "devedor", doc{"cpf": "12345678900"}), true, []string{"cob.devedor.cpf"}},
		{"ErrDevedorCNPJ", "cob", cob(doc{"original": "1.00"}, "devedor", doc{"cnpj": "11222333000100"}), true, []string{"cob.devedor.cnpj"}},
		{"ErrChave", "cob", cob(doc{"original": "1.00"}), false, []string{"cob.chave"}},
		{"ErrSeveral in order", "cob", cob(doc{"original": "0.00"}, "calendario", doc{"expiracao": float64(-1)}), false,
			[]string{"cob.calendario.expiracao", "cob.valor.original", "cob.chave"}},
		{"OK cobv", "cobv", cob(doc{"original": "10.00"}, "calendario", doc{"dataDeVencimento": "2026-01-10"}), true, nil},
		{"ErrCobvDueBeforeCreation", "cobv", cob(doc{"original": "10.00"}, "calendario", doc{"dataDeVencimento": "2026-01-04"}), true,
			[]string{"cobv.calendario.dataDeVencimento"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, vs := validateCharge(tt.kind, tt.d, t0, tt.keyOwned)
			if got := fields(vs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// A value the rules cannot read is refused naming its field and saying
// what it must be, never read as zero: an amount without its two
// decimals is not "zero, which must be more than zero".
func TestValidateChargeReadsEveryValue(t *testing.T) {
	tests := []struct {
		name, field, reason string
		d                   doc
	}{
		{"ErrOriginal", "cob.valor.original", moneyReason, doc{"valor": doc{"original": "10"}}},
		{"ErrOriginalMissing", "cob.valor.original", moneyReason, doc{"valor": doc{}}},
		{"ErrSaqueValor", "cob.valor.retirada.saque.valor", moneyReason,
			doc{"valor": doc{"original": "0.00", "retirada": doc{"saque": doc{"valor": "5,00", "modalidadeAgente": "AGTEC"}}}}},
		{"ErrTrocoValor", "cob.valor.retirada.troco.valor", moneyReason,
			doc{"valor": doc{"original": "1.00", "retirada": doc{"troco": doc{"modalidadeAgente": "AGTEC"}}}}},
		{"ErrExpiracaoNotWhole", "cob.calendario.expiracao", "inteiro", doc{"calendario": doc{"expiracao": 3600.5}, "valor": doc{"original": "1.00"}}},
		{"ErrModalidadeAsText", "cob.valor.modalidadeAlteracao", "0 ou 1", doc{"valor": doc{"original": "1.00", "modalidadeAlteracao": "1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, vs := validateCharge("cob", tt.d, t0, true)
			if len(vs) != 1 || vs[0].field != tt.field || !strings.Contains(vs[0].reason, tt.reason) {
				t.Errorf("got %+v, want one on %s saying %q", vs, tt.field, tt.reason)
			}
		})
	}
	terms, vs := validateCharge("cob", doc{"calendario": doc{"expiracao": float64(60)},
		"valor": doc{"original": "0.00", "modalidadeAlteracao": float64(0), "retirada": doc{"saque": doc{"valor": "5.00", "modalidadeAgente": "AGTEC"}}}}, t0, true)
	want := chargeTerms{expiracao: 60, saque: &retirada{valor: 5_00, agente: "AGTEC"}}
	if len(vs) > 0 || !reflect.DeepEqual(terms, want) {
		t.Errorf("terms %+v, %v; want %+v", terms, vs, want)
	}
}

func TestTxidRule(t *testing.T) {
	for txid, ok := range map[string]bool{
		"7978c0c97ea847e78e8849634473c1f1":     true,
		"abcdefghijklmnopqrstuvwxyz":           true,
		"abcdefghijklmnopqrstuvwxy":            false, // 25
		"7978c0c97ea847e78e8849634473c1f1abc":  true,  // 35
		"7978c0c97ea847e78e8849634473c1f1abcd": false,
		"7978c0c97ea847e7-8849634473c1f1":      false,
	} {
		if err := txidRule("CobOperacaoInvalida", "cob.txid", txid); (err == nil) != ok {
			t.Errorf("txidRule(%q) = %v, want ok %v", txid, err, ok)
		}
	}
}

func TestRevised(t *testing.T) {
	old := doc{"valor": doc{"original": "10.00", "modalidadeAlteracao": float64(1)}, "devedor": doc{"cpf": "52998224725", "nome": "A"}, "chave": "k"}
	tests := []struct {
		name    string
		req     doc
		replace bool
		want    doc
	}{
		{"OK PUT replaces", doc{"valor": doc{"original": "2.00"}, "chave": "k"}, true,
			doc{"valor": doc{"original": "2.00"}, "chave": "k"}},
		{"OK PATCH merges objects", doc{"valor": doc{"original": "2.00"}}, false,
			doc{"valor": doc{"original": "2.00", "modalidadeAlteracao": float64(1)}, "devedor": doc{"cpf": "52998224725", "nome": "A"}, "chave": "k"}},
		{"OK PATCH replaces devedor whole", doc{"devedor": doc{"cnpj": "11222333000181", "nome": "B"}}, false,
			doc{"valor": doc{"original": "10.00", "modalidadeAlteracao": float64(1)}, "devedor": doc{"cnpj": "11222333000181", "nome": "B"}, "chave": "k"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := clone(old)
			if got := revised(old, tt.req, tt.replace); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			if !reflect.DeepEqual(old, before) {
				t.Errorf("revised changed the current part: %v", old)
			}
		})
	}
}

func TestRevisionChanged(t *testing.T) {
	base := doc{"valor": doc{"original": "1.00"}, "loc": doc{"id": float64(1)}}
	tests := []struct {
		name string
		next doc
		want bool
	}{
		{"OK same", doc{"valor": doc{"original": "1.00"}, "loc": doc{"id": float64(1)}}, false},
		{"OK only loc", doc{"valor": doc{"original": "1.00"}, "loc": doc{"id": float64(2)}}, false},
		{"OK valor", doc{"valor": doc{"original": "2.00"}, "loc": doc{"id": float64(1)}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := revisionChanged(base, tt.next); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRequestPart(t *testing.T) {
	body := doc{"calendario": doc{"criacao": "x", "expiracao": float64(60)}, "txid": "t", "revisao": float64(2), "status": Ativa,
		"valor": doc{"original": "1.00"}, "chave": "k", "loc": doc{"id": float64(3), "location": "l"}, "location": "l",
		"pixCopiaECola": "p", "recebedor": doc{"nome": "n"}}
	want := doc{"calendario": doc{"expiracao": float64(60)}, "valor": doc{"original": "1.00"}, "chave": "k", "loc": doc{"id": float64(3)}}
	if got := requestPart(body); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if sub(body, "calendario")["criacao"] != "x" {
		t.Error("requestPart changed the body")
	}
}

func TestWithDefaults(t *testing.T) {
	tests := []struct {
		kind string
		d    doc
		want doc
	}{
		{"cob", doc{}, doc{"calendario": doc{"expiracao": float64(defaultExpiracao)}}},
		{"cob", doc{"calendario": doc{"expiracao": float64(60)}}, doc{"calendario": doc{"expiracao": float64(60)}}},
		{"cobv", doc{"calendario": doc{}}, doc{"calendario": doc{"validadeAposVencimento": float64(30)}}},
		{"cobv", doc{"calendario": doc{"validadeAposVencimento": float64(0)}}, doc{"calendario": doc{"validadeAposVencimento": float64(0)}}},
	}
	for _, tt := range tests {
		withDefaults(tt.d, tt.kind)
		if !reflect.DeepEqual(tt.d, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.kind, tt.d, tt.want)
		}
	}
}

func TestRemovalRule(t *testing.T) {
	tests := []struct {
		name    string
		current string
		req     doc
		want    string
	}{
		{"OK", Ativa, doc{"status": RemovidaUsuario}, ""},
		{"ErrOtherFields", Ativa, doc{"status": RemovidaUsuario, "chave": "k"}, "único campo"},
		{"ErrNotAtiva", Concluida, doc{"status": RemovidaUsuario}, "está CONCLUIDA"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := removalRule("cob", tt.current, tt.req)
			switch {
			case tt.want == "" && v != nil:
				t.Errorf("got %v, want none", *v)
			case tt.want != "" && (v == nil || !strings.Contains(v.reason, tt.want)):
				t.Errorf("got %v, want a reason with %q", v, tt.want)
			}
		})
	}
}

func TestOwedCob(t *testing.T) {
	c := &charge{Kind: "cob", CreatedAt: t0, Body: doc{"calendario": doc{"expiracao": float64(60)},
		"valor": doc{"original": "10.00", "retirada": doc{"troco": doc{"valor": "5.50", "modalidadeAgente": "AGTEC"}}}}}
	total, comps, err := owedCob(c, t0.Add(60*time.Second))
	if err != nil || total != 15_50 {
		t.Fatalf("got %v, %v; want 15.50", total, err)
	}
	if got := str(sub(comps, "troco"), "valor"); got != "5.50" {
		t.Errorf("troco = %q, want 5.50", got)
	}
	if _, _, err := owedCob(c, t0.Add(61*time.Second)); err == nil || !strings.Contains(err.Error(), "expirou") {
		t.Errorf("after expiracao: got %v, want an expiry", err)
	}
	// A stored amount that does not read is an error, not a troco of 0.
	sub(sub(sub(c.Body, "valor"), "retirada"), "troco")["valor"] = "5.5"
	if total, _, err := owedCob(c, t0.Add(time.Second)); err == nil || !strings.Contains(err.Error(), "cob.valor.retirada.troco.valor") {
		t.Errorf("an unreadable troco: got %v, %v; want an error naming it", total, err)
	}
}

func TestExpiry(t *testing.T) {
	valor := doc{"original": "1.00"}
	for _, tt := range []struct {
		name string
		body doc
		want time.Time
		ok   bool
	}{
		{"OKDefault", doc{"valor": valor}, t0.Add(defaultExpiracao * time.Second), true},
		{"OK", doc{"calendario": doc{"expiracao": float64(3600)}, "valor": valor}, t0.Add(time.Hour), true},
		{"ErrNotWhole", doc{"calendario": doc{"expiracao": 0.5}, "valor": valor}, time.Time{}, false},
	} {
		got, err := expiry(&charge{Kind: "cob", CreatedAt: t0, Body: tt.body})
		if (err == nil) != tt.ok || (tt.ok && !got.Equal(tt.want)) {
			t.Errorf("%s: got %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}
