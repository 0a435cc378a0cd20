package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/server"
	"homologa/simulator/store"
)

// lastBeforeCents is the last migration of the version that kept
// insurance money as REAL reais.
const lastBeforeCents = "0014_interactions_wall.sql"

// oldCentsDB makes, in path, the database a sandbox of that version made:
// a company and its app, and insurance rows with REAL amounts, and JSON
// documents with an amount of three decimals. It returns the company and
// app ids.
func oldCentsDB(t *testing.T, path string) (companyID, appID string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.OpenUpTo(ctx, path, lastBeforeCents)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := count(t, db, `SELECT COUNT(*) FROM migrations WHERE name > 'migrations/`+lastBeforeCents+`'`); n != 0 {
		t.Fatalf("%d migrations after %s applied", n, lastBeforeCents)
	}
	// The company and its app as the version of 0014 stored them (the
	// current auth writes columns that version lacks).
	c := struct{ ID string }{"company-old"}
	app := struct{ ID string }{"app-old"}
	secretHash := sha256.Sum256([]byte("old-secret"))
	err = db.Tx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO companies (id, cnpj, name, created_at) VALUES (?, '11444777000161', 'Corretora Antiga', 1)`, c.ID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO apps (id, company_id, name, client_id, secret_hash, webhook_url, webhook_secret, scopes, environment, created_at, updated_at)
			VALUES (?, ?, 'antigo', 'old-app', ?, '', 'whsec_old', ?, 'sandbox', 1, 1)`, app.ID, c.ID, hex.EncodeToString(secretHash[:]), strings.Join(auth.Scopes, " "))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	const cpf, at = "52998224725", 1767614400000000000
	body := `{"inscricaoId": 1, "numeroProposta": 100001, "cpf": "` + cpf + `", "codigoModeloProposta": "YZ", "status": "ATIVA",
		"produto": {"idProduto": 511, "descricao": "VIDA"}, "valorContribuicao": 46.34, "formaCobranca": "BOLETO", "diaVencimento": 10,
		"periodicidade": "MENSAL", "dataInicioVigencia": "2026-01-05",
		"coberturas": [{"capitalSegurado": 1234.567, "itemProdutoId": 1001, "premio": 46.34}, {"capitalSegurado": 100000, "itemProdutoId": 1002, "premio": 0}]}`
	err = db.Tx(ctx, func(tx *store.Tx) error {
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO card_preauths (code, company_id, cpf, valor, bandeira, final, created_at) VALUES ('PAOLD1', ?, ?, 46.34, 'VISA', '1111', ?), ('PAOLD2', ?, ?, 46.33, 'VISA', '1111', ?)`,
				[]any{c.ID, cpf, at, c.ID, cpf, at}},
			{`INSERT INTO propostas (numero, company_id, app_id, offer_id, cpf, status, valor_total, request, created_at, updated_at)
				VALUES (100001, ?, ?, 'YZ', ?, 'IMPLANTADA', 1234.5, '{"PROPOSTA": {}}', ?, ?)`, []any{c.ID, app.ID, cpf, at, at}},
			{`INSERT INTO inscricoes (id, numero, company_id, app_id, cpf, produto_id, status, body, created_at, updated_at) VALUES (1, 100001, ?, ?, ?, 511, 'ATIVA', ?, ?, ?)`,
				[]any{c.ID, app.ID, cpf, body, at, at}},
			{`INSERT INTO cobrancas (id, inscricao_id, company_id, app_id, competencia, parcela, valor, vencimento, forma, status, data_pagamento, created_at, updated_at)
				VALUES (1, 1, ?, ?, '01/2026', 1, 46.34, '2026-01-10', 'BOLETO', 'PAGA', ?, ?, ?)`, []any{c.ID, app.ID, at, at, at}},
			{`INSERT INTO comissoes (id, cobranca_id, inscricao_id, company_id, app_id, valor, percentual, competencia, status, created_at)
				VALUES (1, 1, 1, ?, ?, 13.9, 30, '01/2026', 'EMITIDA', ?)`, []any{c.ID, app.ID, at}},
			{`INSERT INTO beneficios (id, protocolo, company_id, app_id, inscricao_id, numero, cpf, causa, status, data_ocorrencia, aviso, coberturas, valor, pago_em, beneficiarios, created_at, updated_at)
				VALUES (1, '20260105000001', ?, ?, 1, 100001, ?, 'MORTE', 'PAGO', '2026-01-04', '{"comunicante": {}, "documentos": []}',
				'[{"itemProdutoId": 1001, "descricao": "MORTE", "capitalSegurado": 1234.567}]', 1234.5, ?,
				'[{"nome": "HERDEIROS LEGAIS", "percentual": 100, "valor": 1234.5}]', ?, ?)`, []any{c.ID, app.ID, cpf, at, at, at}},
		} {
			if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
				return fmt.Errorf("%s: %w", q.sql, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return c.ID, app.ID
}

// The money columns of a database an earlier version made become integer
// cents, with their tables' keys and indexes intact, and money in JSON
// documents is rounded to the cent.
func TestInsuranceCentsMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "homologa.db")
	oldCentsDB(t, path)
	db := MustOpen(t, path)
	for _, tt := range []struct {
		column string
		want   int64
	}{
		{"valor FROM card_preauths WHERE code = 'PAOLD1'", 4634},
		{"valor FROM card_preauths WHERE code = 'PAOLD2'", 4633},
		{"valor_total FROM propostas", 123450},
		{"valor FROM cobrancas", 4634},
		{"valor FROM comissoes", 1390},
		{"valor FROM beneficios", 123450},
	} {
		var typ string
		var got int64
		err := db.Read(context.Background(), func(tx *store.Tx) error {
			col, from, _ := strings.Cut(tt.column, " FROM ")
			return tx.QueryRow(`SELECT typeof(`+col+`), `+col+` FROM `+from).Scan(&typ, &got)
		})
		if err != nil {
			t.Fatal(err)
		}
		if typ != "integer" || got != tt.want {
			t.Errorf("%s = %v (%s), want %d (integer)", tt.column, got, typ, tt.want)
		}
	}
	if n := count(t, db, `SELECT COUNT(*) FROM pragma_foreign_key_check`); n != 0 {
		t.Errorf("%d foreign keys broken", n)
	}
	for _, idx := range []string{"propostas_company", "cobrancas_company", "comissoes_company", "comissoes_inscricao", "beneficios_company", "beneficios_inscricao"} {
		if n := count(t, db, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = '`+idx+`'`); n != 1 {
			t.Errorf("index %s lost", idx)
		}
	}
	for q, want := range map[string]string{
		`SELECT json_extract(body, '$.coberturas') FROM inscricoes`:        `[{"capitalSegurado":1234.57,"itemProdutoId":1001,"premio":46.34},{"capitalSegurado":100000,"itemProdutoId":1002,"premio":0}]`,
		`SELECT json_extract(body, '$.valorContribuicao') FROM inscricoes`: `46.34`,
		`SELECT coberturas FROM beneficios`:                                `[{"itemProdutoId":1001,"descricao":"MORTE","capitalSegurado":1234.57}]`,
		`SELECT beneficiarios FROM beneficios`:                             `[{"nome": "HERDEIROS LEGAIS", "percentual": 100, "valor": 1234.5}]`,
	} {
		var got string
		if err := db.Read(context.Background(), func(tx *store.Tx) error { return tx.QueryRow(q).Scan(&got) }); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s = %s, want %s", q, got, want)
		}
	}
}

// The sandbox reads the migrated amounts back as they were: the same
// numbers on the wire, and a card pre-authorisation compared to the cent.
func TestInsuranceCentsReadBack(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "homologa.db")
	oldCentsDB(t, path)
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", DBPath: path, Clock: "frozen", ClockStart: time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC),
		Log: io.Discard, NoDemo: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	tok, err := s.Auth.IssueToken(ctx, "old-app", "old-secret", "")
	if err != nil {
		t.Fatal(err)
	}
	call := func(method, path, body string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}
	valor := func(m map[string]any, keys ...any) any {
		var v any = m["Valor"]
		for _, k := range keys {
			switch k := k.(type) {
			case string:
				v, _ = v.(map[string]any)[k]
			case int:
				l, _ := v.([]any)
				if k >= len(l) {
					return nil
				}
				v = l[k]
			}
		}
		return v
	}
	for _, tt := range []struct {
		path string
		keys []any
		want float64
	}{
		{"/insurer/v1/proposta/100001", []any{"valorProposta"}, 1234.5},
		{"/customer/v1/cobranca/1", []any{"valor"}, 46.34},
		{"/customer/v1/comissao", []any{0, "valor"}, 13.9},
		{"/benefits/v1/beneficio/1", []any{"valor"}, 1234.5},
		{"/benefits/v1/beneficio/1", []any{"coberturas", 0, "capitalSegurado"}, 1234.57},
		{"/customer/v1/inscricao/1", []any{"coberturas", 0, "capitalSegurado"}, 1234.57},
	} {
		status, m := call(http.MethodGet, tt.path, "")
		if got := valor(m, tt.keys...); status != http.StatusOK || got != tt.want {
			t.Errorf("GET %s %v = %d %v, want %v: %v", tt.path, tt.keys, status, got, tt.want, m)
		}
	}
	// The enrollment's premium is 46.34: a pre-authorisation of 46.33 falls
	// a cent short, one of 46.34 covers it.
	change := `{"TIPO_COBRANCA": "CARTAO", "DIA_VENCIMENTO": 10, "CARTAO": {"NUM_PRE_AUTORIZACAO": "%s"}}`
	if status, m := call(http.MethodPut, "/customer/v1/inscricao/1/forma-cobranca", fmt.Sprintf(change, "PAOLD2")); status != http.StatusUnprocessableEntity ||
		!strings.Contains(fmt.Sprint(m["Mensagens"]), "não cobre o prêmio de 46.34") {
		t.Errorf("a pre-authorisation of 46.33 for a premium of 46.34: %d %v", status, m)
	}
	if status, m := call(http.MethodPut, "/customer/v1/inscricao/1/forma-cobranca", fmt.Sprintf(change, "PAOLD1")); status != http.StatusOK {
		t.Errorf("a pre-authorisation of 46.34 for a premium of 46.34: %d %v", status, m)
	}
}
