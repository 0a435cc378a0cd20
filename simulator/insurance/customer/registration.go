package customer

import (
	"context"
	"encoding/json"
	"regexp"

	"homologa/simulator/errs"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

var (
	cepRE   = regexp.MustCompile(`^\d{8}$`)
	emailRE = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
)

// dadosCadastrais are the registration data a partner may change.
var dadosCadastrais = []string{"email", "telefone", "endereco"}

// checkDadosCadastrais checks the e-mail and the CEP when they are sent.
func checkDadosCadastrais(in map[string]any) error {
	if e, ok := in["email"].(string); ok && !emailRE.MatchString(e) {
		return errs.Invalidf("email", "e-mail inválido")
	}
	if cep := wire.Str(wire.Obj(in, "endereco"), "cep"); cep != "" && !cepRE.MatchString(cep) {
		return errs.Invalidf("endereco.cep", "CEP deve ter 8 dígitos")
	}
	return nil
}

// changed merges the sent registration data into dados and names the
// fields whose value changed.
func changed(dados, in map[string]any) []string {
	var out []string
	for _, k := range dadosCadastrais {
		v, ok := in[k]
		if !ok {
			continue
		}
		old, _ := json.Marshal(dados[k])
		now, _ := json.Marshal(v)
		if string(old) != string(now) {
			out = append(out, k)
			dados[k] = v
		}
	}
	return out
}

// changeDadosCadastrais changes the registration data of the company's
// enrollment id; what changed is kept and announced (Dados Cadastrais
// Alterados).
func (s *Service) changeDadosCadastrais(ctx context.Context, companyID string, id int64, in map[string]any) (*Inscricao, error) {
	return wire.Write(ctx, s.DB, func(tx *store.Tx) (*Inscricao, error) {
		insc, err := mustInscricao(ctx, tx, companyID, id)
		if err != nil {
			return nil, err
		}
		if insc.Ended() {
			return nil, wire.Rule("id", "INSCRICAO_ENCERRADA", "a inscrição %d está %s", insc.ID, insc.Status)
		}
		dados := wire.Obj(insc.Body, "dadosCadastrais")
		fields := changed(dados, in)
		insc.Body["dadosCadastrais"] = dados
		if len(fields) == 0 {
			return insc, nil
		}
		if err := s.save(ctx, tx, insc); err != nil {
			return nil, err
		}
		subject := insc.subject()
		subject["cpf"] = insc.CPF
		return insc, s.EmitFor(ctx, tx, insc.AppID, wire.Event{Type: "inscricao.dados_cadastrais_alterados", Name: "Dados Cadastrais Alterados",
			Subject: subject, Key: insc.key(), Data: map[string]any{"camposAlterados": fields}})
	})
}
