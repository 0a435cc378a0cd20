package sale

import (
	"strings"
	"unicode"

	"homologa/simulator/insurance/wire"
)

// The v2 API registers a proposal with POST /api/{version}/venda and a
// DadosRegistrarVenda body (insurance CLIENTS §3.6): PascalCase wire names
// (the generated client's classes send the same names in lower camel
// case), the partner's CNPJ and the offer in the body, lists where the
// UPPER_SNAKE PROPOSTA has wrappers, and no signature block. vendaProposta
// maps it onto the PROPOSTA body every other client sends, so that one set
// of rules judges both.

// upperSnake writes a PascalCase or lowerCamel name in UPPER_SNAKE:
// DtNascimento and dtNascimento are DT_NASCIMENTO; TitularCpf is
// TITULAR_CPF; CPF and COMPLEMENTO stay.
func upperSnake(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// snakeKeys is v with every object key in UPPER_SNAKE, at every depth.
func snakeKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[upperSnake(k)] = snakeKeys(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = snakeKeys(val)
		}
		return out
	}
	return v
}

// rename moves m's key from to to, when it is there.
func rename(m map[string]any, from, to string) {
	if v, ok := m[from]; ok {
		delete(m, from)
		m[to] = v
	}
}

// wrap turns m's list key into {inner: list}, the PROPOSTA's wrapper.
func wrap(m map[string]any, key, inner string) {
	if v, ok := m[key]; ok {
		if _, already := v.(map[string]any); !already {
			m[key] = map[string]any{inner: v}
		}
	}
}

// numero is the Numero of a v2 object ({Numero, Nome}, {Numero, DV}), or v
// itself when it is not one.
func numero(v any) any {
	if o, ok := v.(map[string]any); ok {
		return o["NUMERO"]
	}
	return v
}

// vendaProposta maps a DadosRegistrarVenda body onto {PROPOSTA: …}, and
// returns the CNPJ and the offer it names.
func vendaProposta(body map[string]any) (proposta map[string]any, cnpj, offer string) {
	v, _ := snakeKeys(body).(map[string]any)
	cnpj, offer = wire.Str(v, "CNPJ"), wire.Str(v, "MODELO_PROPOSTA")
	delete(v, "CNPJ")
	delete(v, "MODELO_PROPOSTA")
	if offer == "" {
		offer = wire.Str(wire.Obj(v, "USO_MONGERAL"), "MODELO_PROPOSTA")
	}
	if dp, ok := v["DADOS_PROPONENTE"].(map[string]any); ok {
		vendaProponente(dp)
	}
	if planos, ok := v["PLANOS"].(map[string]any); ok {
		for _, p := range wire.Items(planos["PLANO"]) {
			wrap(p, "COBERTURAS", "COBERTURA")
			wrap(p, "FUNDOS", "FUNDO")
		}
	}
	for _, b := range wire.Items(v["BENEFICIARIOS"]) {
		rename(b, "DATA_NASCIMENTO", "NASCIMENTO")
	}
	wrap(v, "BENEFICIARIOS", "BENEFICIARIO")
	if cob, ok := v["DADOS_COBRANCA"].(map[string]any); ok {
		vendaCobranca(cob)
	}
	return map[string]any{"PROPOSTA": v}, cnpj, offer
}

// vendaProponente maps DadosProponente's lists and names.
func vendaProponente(dp map[string]any) {
	switch wire.Str(dp, "SEXO") {
	case "M":
		dp["SEXO"] = "MASCULINO"
	case "F":
		dp["SEXO"] = "FEMININO"
	}
	for _, d := range wire.Items(dp["DOCUMENTOS"]) {
		rename(d, "NATUREZA_DOCUMENTO", "NATUREZA_DOC")
		rename(d, "NUMERO_DOCUMENTO", "DOCUMENTO")
		rename(d, "ORGAO_EXPEDITOR", "ORGAO_EXPEDIDOR")
	}
	wrap(dp, "DOCUMENTOS", "DOCUMENTO")
	wrap(dp, "ENDERECOS", "ENDERECO")
	if tp, ok := dp["TIPO_ENDERECO_CORRESPONDECIA"]; ok {
		delete(dp, "TIPO_ENDERECO_CORRESPONDECIA")
		if e, ok := dp["ENDERECOS"].(map[string]any); ok {
			e["TP_CORRESPONDENCIA"] = tp
		}
	}
	for _, t := range wire.Items(dp["TELEFONES"]) {
		rename(t, "TIPO_TELEFONE", "TIPO")
	}
	wrap(dp, "TELEFONES", "TELEFONE")
	if p, ok := dp["PROFISSAO"].(map[string]any); ok {
		if nome, ok := p["NOME_EMPRESA"]; ok {
			delete(p, "NOME_EMPRESA")
			p["EMPRESA"] = map[string]any{"NOME": nome}
		}
	}
}

// vendaCobranca maps DadosCobranca: Cartao (whose brand the model spells
// Badeira), Debito and Folha. In the v2 model Debito's Banco is an object
// {Numero, Nome} and its Agencia {Numero, DV}, as its ContaCorrente
// {Numero, DV} (M:PropostaDebito.js and the models it names; insurance
// CLIENTS, additions, item 4): the PROPOSTA's are their numbers. A flat
// value is taken as it is.
func vendaCobranca(cob map[string]any) {
	rename(cob, "COMPETENCIA_DEBITO", "COMP_DEBITO")
	if c, ok := cob["CARTAO"].(map[string]any); ok {
		rename(c, "BADEIRA", "BANDEIRA")
	}
	if d, ok := cob["DEBITO"].(map[string]any); ok {
		delete(cob, "DEBITO")
		cc := wire.Obj(d, "CONTA_CORRENTE")
		conta := map[string]any{"BANCO": numero(d["BANCO"]), "AGENCIA": numero(d["AGENCIA"]), "CONTA": cc["NUMERO"], "DIGITO_CONTA": cc["DV"],
			"TITULAR": d["CORRENTISTA"]}
		if a, nested := d["AGENCIA"].(map[string]any); nested && a["DV"] != nil {
			conta["DIGITO_AGENCIA"] = a["DV"]
		}
		cob["CONTA_CORRENTE"] = conta
	}
	if f, ok := cob["FOLHA"].(map[string]any); ok {
		delete(cob, "FOLHA")
		cob["CONSIGNACAO"] = map[string]any{"MATRICULA": f["MAT_FUNCIONAL"], "ORGAO": f["COD_ORGAO"]}
	}
}
