package sale_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"homologa/simulator/server"
	"homologa/simulator/store"
)

// TestSignThroughAccessManagement: the 2025 client's signature, call by
// call (insurance CLIENTS §3.7, §5): the user looked up and registered,
// the code sent, the signature made with it; the proponent's next
// proposal, without an ASSINATURA block and paid with the card in
// CARTAO, is signed by it; the one after is not. The card is in no table.
func TestSignThroughAccessManagement(t *testing.T) {
	sb := startSandbox(t)
	tok := sb.token(server.DemoClientID, server.DemoClientSecret, "apiseguradora apicontroleacesso")
	const cpf = "11144477735"
	if status, _, raw := sb.call("GET", "/gestao-acesso/v1/user/"+cpf, tok, ""); status != 404 {
		t.Fatalf("GET user before: %d %s", status, raw)
	}
	user := `{"username": "` + cpf + `", "document": "` + cpf + `", "email": "maria@example.com", "name": "Maria", "cellphone": "11999990000", "active": true}`
	if status, _, raw := sb.call("POST", "/gestao-acesso/v1/user", tok, user); status != 201 {
		t.Fatalf("POST user: %d %s", status, raw)
	} else {
		sb.valid("insurance/user", raw)
	}
	if status, _, raw := sb.call("POST", "/gestao-acesso/v1/user", tok, user); status != 409 {
		t.Fatalf("POST user again: %d %s, want 409", status, raw)
	}
	if status, _, raw := sb.call("GET", "/gestao-acesso/v1/User/"+cpf, tok, ""); status != 200 {
		t.Fatalf("GET user after: %d %s", status, raw)
	}
	if status, _, raw := sb.call("POST", "/gestao-acesso/v1/token/user/"+cpf+"/system/SIMULADOR", tok, `{"output": "Email", "timeoutInMinutes": "5", "tokenSize": "6"}`); status != 201 {
		t.Fatalf("token/user: %d %s", status, raw)
	}
	_, out, _ := sb.call("GET", "/sandbox/outbox?cpf="+cpf, tok, "")
	code, _ := field(out, "messages.0.codigo").(string)
	sign := func(code string) (int, map[string]any, []byte) {
		return sb.call("POST", "/gestao-acesso/v1/signature", tok, `{"user": {"username": "`+cpf+`", "document": "`+cpf+`", "email": "maria@example.com",
			"nameProponente": "Maria", "cellphone": "11999990000"}, "token": {"tokenCode": "`+code+`", "sendType": "Email", "systemId": "SIMULADOR",
			"tokenType": "ValidacaoCompra"}, "sender": {"userAgent": "Simulador", "ip": "127.0.0.1", "port": "443", "timezone": "UTC"}, "description": "Sig"}`)
	}
	if status, m, raw := sign("000000"); status != 400 || !strings.HasPrefix(fmt.Sprint(field(m, "Mensagens.0.Descricao")), "Token inválido") ||
		strings.Contains(strings.ToLower(fmt.Sprint(field(m, "Mensagens.0.Descricao"))), "inválido: token inválido") {
		t.Fatalf("a wrong code: %d %s, want 400 Token inválido, said once", status, raw)
	}
	status, m, raw := sign(code)
	if status != 201 || field(m, "id") == nil || field(m, "id") != field(m, "Valor.id") {
		t.Fatalf("signature: %d %s", status, raw)
	}
	sb.valid("insurance/signature", raw)
	if status, _, raw := sign(code); status != 400 {
		t.Fatalf("the code again: %d %s, want 400", status, raw)
	}

	_, sim, _ := sb.call("POST", "/apiseguradora/v3/simulacao?codigoModeloProposta=EIS", tok,
		`{"simulacoes": [{"proponente": {"cpf": "`+cpf+`", "dataNascimento": "1980-01-01", "sexoId": 2}, "periodicidadeCobrancaId": 30}]}`)
	premio := field(sim, "Valor.simulacoes.0.produtos.0.coberturas.0.premioBase")
	proposta := fmt.Sprintf(`{"PROPOSTA": {"NUMERO": 0, "DADOS_PROPONENTE": {"NOME": "MARIA", "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "%s", "TITULAR_CPF": true},
		"PLANOS": {"VL_TOTAL": %v, "PLANO": [{"CODIGO": "530", "COBERTURAS": {"COBERTURA": [{"CODIGO": 3001, "VL_CONTRIB": %v, "VL_COBERTURA": 7000}]}}]},
		"DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "DIA_VENCIMENTO": 10, "TIPO_COBRANCA": "CARTAO",
			"CARTAO": {"NUMERO": "4111111111111111", "VALIDADE": "2030-12-31", "BANDEIRA": "VISA", "PARCELA": 1, "NUM_PRE_AUTORIZACAO": 0}},
		"USO_MONGERAL": {"MODELO_PROPOSTA": "EIS"}}}`, cpf, premio, premio)
	status, m, raw = sb.call("POST", "/apiseguradora/v3/proposta?empresa=11222333000181", tok, proposta)
	if status != 201 || field(m, "numeroProposta") == nil {
		t.Fatalf("proposal signed by the signature: %d %s", status, raw)
	}
	sb.valid("insurance/proposta.created", raw)
	status, m, raw = sb.call("POST", "/apiseguradora/v3/proposta?empresa=11222333000181", tok, proposta)
	if status != 422 || field(m, "Mensagens.0.Codigo") != "ASSINATURA_AUSENTE" {
		t.Fatalf("a second proposal on one signature: %d %s, want 422 ASSINATURA_AUSENTE", status, raw)
	}
	if where := storedAnywhere(t, sb, "4111111111111111"); len(where) > 0 {
		t.Errorf("the card number is stored in %v", where)
	}
}

// storedAnywhere lists the tables of the sandbox's databases (its own and
// the interaction log's) with a text column holding s.
func storedAnywhere(t *testing.T, sb *sandbox, s string) []string {
	t.Helper()
	var found []string
	err := sb.s.DB.Read(context.Background(), func(tx *store.Tx) error {
		var tables []string
		rows, err := tx.QueryContext(context.Background(), `SELECT name FROM sqlite_master WHERE type = 'table'`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var n string
			rows.Scan(&n)
			tables = append(tables, n)
		}
		rows.Close()
		for _, table := range tables {
			var n sql.NullInt64
			cols, err := tx.QueryContext(context.Background(), `SELECT name FROM pragma_table_info(?)`, table)
			if err != nil {
				return err
			}
			var conds []string
			for cols.Next() {
				var c string
				cols.Scan(&c)
				conds = append(conds, `instr(CAST("`+c+`" AS TEXT), ?) > 0`)
			}
			cols.Close()
			args := make([]any, len(conds))
			for i := range args {
				args[i] = s
			}
			if err := tx.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM "`+table+`" WHERE `+strings.Join(conds, " OR "), args...).Scan(&n); err != nil {
				return err
			}
			if n.Int64 > 0 {
				found = append(found, table)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
