package sale

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestUpperSnake(t *testing.T) {
	for in, want := range map[string]string{
		"DtNascimento": "DT_NASCIMENTO", "dtNascimento": "DT_NASCIMENTO", "TitularCpf": "TITULAR_CPF", "CPF": "CPF", "PPE": "PPE",
		"COMPLEMENTO": "COMPLEMENTO", "VlApInicial": "VL_AP_INICIAL", "Corretor1": "CORRETOR1", "NumPreAutorizacao": "NUM_PRE_AUTORIZACAO",
		"cdPlano": "CD_PLANO", "DDI": "DDI",
	} {
		if got := upperSnake(in); got != want {
			t.Errorf("upperSnake(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestVendaProposta: a DadosRegistrarVenda with the wire names of the v2
// model (insurance CLIENTS §3.6) is the PROPOSTA every other client sends.
func TestVendaProposta(t *testing.T) {
	var venda map[string]any
	json.Unmarshal([]byte(`{"CNPJ": "11222333000181", "ModeloProposta": "YZ",
		"DadosProponente": {"Nome": "Maria", "DtNascimento": "1986-03-15T00:00:00.000Z", "Sexo": "F", "CPF": "11144477735", "TitularCpf": true,
			"Documentos": [{"NaturezaDocumento": "RG", "NumeroDocumento": "123", "OrgaoExpeditor": "SSP", "DataExpedicao": "2010-01-01"}],
			"TipoEnderecoCorrespondecia": "RESIDENCIAL",
			"Enderecos": [{"Tipo": "RESIDENCIAL", "Logradouro": "Rua A", "ESTADO": "SP", "CEP": "01310100"}],
			"Telefones": [{"TipoTelefone": "CELULAR", "DDI": 55, "DDD": 11, "Numero": 999990000}],
			"Profissao": {"Codigo": "2410-05", "NomeEmpresa": "Escritório"}},
		"Planos": {"VlTotal": 10.5, "Plano": [{"Codigo": 511, "Coberturas": [{"Codigo": 1001, "VlContrib": 10.5, "VlCobertura": 50000}]}]},
		"Beneficiarios": [{"Nome": "João", "DataNascimento": "1985-01-01", "Parentesco": "CONJUGE", "Participacao": 100, "CdPlano": 511}],
		"DadosCobranca": {"Periodicidade": "MENSAL", "TipoCobranca": "DEBITO", "DiaVencimento": 10, "CompetenciaDebito": "01/2026",
			"Debito": {"Banco": "001", "Agencia": "1234", "ContaCorrente": {"Numero": "98765", "DV": "4"}},
			"Cartao": {"Badeira": "VISA"}},
		"UsoMongeral": {"ModeloProposta": "YZ", "Corretor1": 0}}`), &venda)
	got, cnpj, offer := vendaProposta(venda)
	if cnpj != "11222333000181" || offer != "YZ" {
		t.Errorf("cnpj %q offer %q", cnpj, offer)
	}
	var want map[string]any
	json.Unmarshal([]byte(`{"PROPOSTA": {
		"DADOS_PROPONENTE": {"NOME": "Maria", "DT_NASCIMENTO": "1986-03-15T00:00:00.000Z", "SEXO": "FEMININO", "CPF": "11144477735", "TITULAR_CPF": true,
			"DOCUMENTOS": {"DOCUMENTO": [{"NATUREZA_DOC": "RG", "DOCUMENTO": "123", "ORGAO_EXPEDIDOR": "SSP", "DATA_EXPEDICAO": "2010-01-01"}]},
			"ENDERECOS": {"TP_CORRESPONDENCIA": "RESIDENCIAL", "ENDERECO": [{"TIPO": "RESIDENCIAL", "LOGRADOURO": "Rua A", "ESTADO": "SP", "CEP": "01310100"}]},
			"TELEFONES": {"TELEFONE": [{"TIPO": "CELULAR", "DDI": 55, "DDD": 11, "NUMERO": 999990000}]},
			"PROFISSAO": {"CODIGO": "2410-05", "EMPRESA": {"NOME": "Escritório"}}},
		"PLANOS": {"VL_TOTAL": 10.5, "PLANO": [{"CODIGO": 511, "COBERTURAS": {"COBERTURA": [{"CODIGO": 1001, "VL_CONTRIB": 10.5, "VL_COBERTURA": 50000}]}}]},
		"BENEFICIARIOS": {"BENEFICIARIO": [{"NOME": "João", "NASCIMENTO": "1985-01-01", "PARENTESCO": "CONJUGE", "PARTICIPACAO": 100, "CD_PLANO": 511}]},
		"DADOS_COBRANCA": {"PERIODICIDADE": "MENSAL", "TIPO_COBRANCA": "DEBITO", "DIA_VENCIMENTO": 10, "COMP_DEBITO": "01/2026",
			"CONTA_CORRENTE": {"BANCO": "001", "AGENCIA": "1234", "CONTA": "98765", "DIGITO_CONTA": "4", "TITULAR": null},
			"CARTAO": {"BANDEIRA": "VISA"}},
		"USO_MONGERAL": {"MODELO_PROPOSTA": "YZ", "CORRETOR1": 0}}}`), &want)
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		t.Errorf("got %s", g)
	}
	// The generated classes' lower-camel names map the same.
	var camel map[string]any
	json.Unmarshal([]byte(`{"CNPJ": "11222333000181", "modeloProposta": "YZ", "dadosProponente": {"CPF": "11144477735", "dtNascimento": "1986-03-15"}}`), &camel)
	if got, cnpj, offer := vendaProposta(camel); offer != "YZ" || cnpj != "11222333000181" || got["PROPOSTA"].(map[string]any)["DADOS_PROPONENTE"].(map[string]any)["DT_NASCIMENTO"] != "1986-03-15" {
		t.Errorf("lower camel: %v %q", got, offer)
	}
}

// TestVendaDebitoNested: the v2 model's Debito has Banco {Numero, Nome}
// and Agencia {Numero, DV} objects (insurance CLIENTS, additions, item
// 4), as the generated client sends them; the PROPOSTA's CONTA_CORRENTE
// has their numbers, so a debit sale's billing data is complete.
func TestVendaDebitoNested(t *testing.T) {
	var venda map[string]any
	json.Unmarshal([]byte(`{"DadosCobranca": {"TipoCobranca": "DEBITO", "Debito": {"CodOrgao": 0,
		"Banco": {"Numero": 1, "Nome": "BANCO DO BRASIL"}, "Agencia": {"Numero": "1234", "DV": "5"},
		"ContaCorrente": {"Numero": "98765", "DV": "4"}, "Correntista": {"Nome": "MARIA", "CPF": "11144477735"}}}}`), &venda)
	got, _, _ := vendaProposta(venda)
	conta := got["PROPOSTA"].(map[string]any)["DADOS_COBRANCA"].(map[string]any)["CONTA_CORRENTE"]
	want := map[string]any{"BANCO": 1.0, "AGENCIA": "1234", "DIGITO_AGENCIA": "5", "CONTA": "98765", "DIGITO_CONTA": "4",
		"TITULAR": map[string]any{"NOME": "MARIA", "CPF": "11144477735"}}
	if !reflect.DeepEqual(conta, want) {
		t.Errorf("CONTA_CORRENTE %v, want %v", conta, want)
	}
}
