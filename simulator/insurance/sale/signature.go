package sale

import (
	"context"
	"strings"
	"time"

	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

// checkSignature requires ASSINATURA: a signature-token code issued for
// the proponent's CPF (single use, unexpired), used up for proposal
// numero, or a signed document's id.
func checkSignature(ctx context.Context, tx *store.Tx, payer Payer, prop map[string]any, numero int64, now time.Time) error {
	code, err := signatureCode(prop)
	if err != nil || code == "" {
		return err
	}
	return useToken(ctx, tx, payer, code, numero, now)
}

// signatureCode reads ASSINATURA: the token code to use, or "" for a
// signed document.
func signatureCode(prop map[string]any) (string, error) {
	a, ok := prop["ASSINATURA"].(map[string]any)
	if !ok {
		return "", wire.Rule("PROPOSTA.ASSINATURA", "ASSINATURA_AUSENTE",
			"a proposta precisa ser assinada: ASSINATURA {TIPO: TOKEN, TOKEN: <código enviado por POST /access/v1/token/user>} ou {TIPO: DOCUMENTO, ID_DOCUMENTO}")
	}
	switch wire.Str(a, "TIPO") {
	case "TOKEN":
		code := wire.Str(a, "TOKEN")
		if code == "" {
			return "", wire.Rule("PROPOSTA.ASSINATURA.TOKEN", "ASSINATURA_INVALIDA", "informe o código do token de assinatura")
		}
		return code, nil
	case "DOCUMENTO":
		if strings.TrimSpace(wire.Str(a, "ID_DOCUMENTO")) == "" {
			return "", wire.Rule("PROPOSTA.ASSINATURA.ID_DOCUMENTO", "ASSINATURA_INVALIDA", "informe o ID_DOCUMENTO da proposta assinada")
		}
	}
	return "", nil
}
