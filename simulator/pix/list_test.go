package pix

import (
	"net/url"
	"reflect"
	"testing"
)

func TestParseList(t *testing.T) {
	tests := []struct {
		name     string
		query    string
		required bool
		want     []string // the violated fields
	}{
		{"OK", "inicio=2026-01-01T00:00:00Z&fim=2026-02-01T00:00:00Z", true, nil},
		{"OK open period", "", false, nil},
		{"ErrRequired", "", true, []string{"inicio", "fim"}},
		{"ErrNotRFC3339", "inicio=2026-01-01&fim=2026-02-01T00:00:00Z", true, []string{"inicio"}},
		{"ErrFimBeforeInicio", "inicio=2026-02-01T00:00:00Z&fim=2026-01-01T00:00:00Z", true, []string{"fim"}},
		{"ErrPage", "paginacao.paginaAtual=-1&paginacao.itensPorPagina=1001", false, []string{"paginacao.paginaAtual", "paginacao.itensPorPagina"}},
		{"ErrCPFAndCNPJ", "cpf=52998224725&cnpj=11222333000181", false, []string{"cnpj"}},
		{"ErrCPF", "cpf=12345678900", false, []string{"cpf"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, _ := url.ParseQuery(tt.query)
			lq := parseList(q, "CobConsultaInvalida", tt.required)
			if got := fields(lq.invalid); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			if (lq.err() == nil) != (tt.want == nil) {
				t.Errorf("err() = %v", lq.err())
			}
		})
	}
}

func TestListQueryPage(t *testing.T) {
	q, _ := url.ParseQuery("paginacao.paginaAtual=2&paginacao.itensPorPagina=10&cpf=52998224725")
	lq := parseList(q, "CobConsultaInvalida", false)
	params, limit, offset := lq.page(25)
	want := doc{"cpf": "52998224725", "paginacao": doc{"paginaAtual": 2, "itensPorPagina": 10, "quantidadeDePaginas": 3, "quantidadeTotalDeItens": 25}}
	if limit != 10 || offset != 20 || !reflect.DeepEqual(params, want) {
		t.Errorf("got %v %d %d, want %v 10 20", params, limit, offset, want)
	}
	if params, _, _ := lq.page(0); sub(params, "paginacao")["quantidadeDePaginas"] != 1 {
		t.Errorf("an empty list has one page, got %v", params)
	}
}

func TestListQueryFilters(t *testing.T) {
	q, _ := url.ParseQuery("status=ATIVA&convenio=C1&locationPresente=talvez")
	lq := parseList(q, "CobConsultaInvalida", false)
	if got := lq.oneOf("status", "bad", "ATIVA", "CONCLUIDA"); got != "ATIVA" || lq.params["status"] != "ATIVA" {
		t.Errorf("oneOf = %q, params %v", got, lq.params)
	}
	if got := lq.echo("convenio"); got != "C1" || lq.params["convenio"] != "C1" {
		t.Errorf("echo = %q", got)
	}
	if got := lq.boolParam("locationPresente"); got != nil || len(lq.invalid) != 1 {
		t.Errorf("boolParam = %v, invalid %v", got, lq.invalid)
	}
	if lq.oneOf("tipoCob", "bad", "cob") != "" {
		t.Error("an absent filter should be empty")
	}
}

func TestListing(t *testing.T) {
	lq := parseList(url.Values{}, "CobConsultaInvalida", false)
	l := lq.listingAt("co", "t c", "c.x", "c.at", "c.", "at")
	l.eq("c.a", "1", "c.b", "", "c.d", "4")
	present := true
	l.andIf(&present, "c.e IS NOT NULL", "c.e IS NULL")
	want := "c.company_id = ? AND c.at >= ? AND c.at <= ? AND c.a = ? AND c.d = ? AND c.e IS NOT NULL"
	if got := l.filter(); got != want {
		t.Errorf("filter = %q, want %q", got, want)
	}
	if len(l.args) != 5 || l.args[3] != "1" || l.args[4] != "4" {
		t.Errorf("args = %v", l.args)
	}
}
