package sale

import (
	"context"
	"fmt"
	"strings"

	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
)

// The insurer's clients write some values in another JSON type than the
// v2 models, the only ones published, declare (insurance CLIENTS §8):
// the hackathon app sends a simulation's sexoId as "1" and its renda as
// the masked text of its field ("8.000,00"); the 2025 client sends a
// proposal's CEP as a number, its PLANO.CODIGO and CD_PLANO as strings.
// The sandbox reads them as the insurer must, and records each as a
// finding (httpx.Tolerate); --strict refuses them naming the field.

// wantNumber tolerates a Number of the model sent as a string: a masked
// amount is a masked-value finding, digits a type-mismatch.
func wantNumber(ctx context.Context, field string, v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	refusal := errs.Invalidf(field, "%s é um número no modelo v2 (Number), não o texto %q", field, s)
	if strings.ContainsAny(s, ",R$") {
		return httpx.Tolerate(ctx, httpx.Finding{Kind: httpx.FindingMaskedValue, Field: field,
			Detail: fmt.Sprintf("%s veio como o texto mascarado %q; o modelo v2 o declara Number: lido como %s, como a seguradora o lê", field, s, readAs(v))}, refusal)
	}
	return httpx.Tolerate(ctx, httpx.Finding{Kind: httpx.FindingTypeMismatch, Field: field,
		Detail: fmt.Sprintf("%s veio como texto (%q); o modelo v2 o declara Number", field, s)}, refusal)
}

// wantString tolerates a String of the model sent as a number.
func wantString(ctx context.Context, field string, v any) error {
	n, ok := v.(float64)
	if !ok {
		return nil
	}
	return httpx.Tolerate(ctx, httpx.Finding{Kind: httpx.FindingTypeMismatch, Field: field,
		Detail: fmt.Sprintf("%s veio como número (%v); o modelo v2 o declara String", field, n)},
		errs.Invalidf(field, "%s é um texto no modelo v2 (String), não o número %v", field, n))
}

// readAs is how a masked amount is read.
func readAs(v any) string {
	r, err := wire.Rate(v)
	if err != nil {
		return "um número"
	}
	return r.String()
}

// simulationTypes checks the types of a simulation item's proponent
// (M:SimulacaoSimulacaoProponente.js: sexoId and renda are Number).
func simulationTypes(ctx context.Context, prefix string, prop map[string]any) error {
	for _, k := range []string{"sexoId", "renda"} {
		if err := wantNumber(ctx, prefix+"proponente."+k, prop[k]); err != nil {
			return err
		}
	}
	return nil
}

// proposalTypes checks the types of a PROPOSTA's members whose v2 models
// declare another: ENDERECO's CEP is String (M:PropostaEndereco.js),
// PLANO's CODIGO and BENEFICIARIO's CD_PLANO Number (M:PropostaPlano.js,
// M:PropostaBeneficiario.js).
func proposalTypes(ctx context.Context, prop map[string]any) error {
	for i, e := range wire.Items(wire.Obj(wire.Obj(prop, "DADOS_PROPONENTE"), "ENDERECOS")["ENDERECO"]) {
		if err := wantString(ctx, fmt.Sprintf("PROPOSTA.DADOS_PROPONENTE.ENDERECOS.ENDERECO.%d.CEP", i), e["CEP"]); err != nil {
			return err
		}
	}
	for i, p := range wire.Items(wire.Obj(prop, "PLANOS")["PLANO"]) {
		if err := wantNumber(ctx, fmt.Sprintf("PROPOSTA.PLANOS.PLANO.%d.CODIGO", i), p["CODIGO"]); err != nil {
			return err
		}
	}
	for i, b := range wire.Items(wire.Obj(prop, "BENEFICIARIOS")["BENEFICIARIO"]) {
		if err := wantNumber(ctx, fmt.Sprintf("PROPOSTA.BENEFICIARIOS.BENEFICIARIO.%d.CD_PLANO", i), b["CD_PLANO"]); err != nil {
			return err
		}
	}
	return nil
}
