package sale

import (
	"context"
	"errors"
	"strings"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/httpx"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
	"homologa/simulator/taxid"
)

// A proposal must be signed (the specification's rule 6), and it is
// signed one of three ways. The way the insurer's 2025 client signs
// (insurance CLIENTS §5): the customer's one-time code (POST
// /token/user/{cpf}/system/{systemId}) goes to POST /signature, apart
// from the proposal, and the proponent's next proposal is signed by that
// signature. The v2 API has no signature (neither its models nor its
// operations), but it has the GED: a signed proposal filed with POST
// /Documento (tipoDocumento PROPOSTA ASSINADA, indexed by the customer's
// CPF) signs the customer's next proposal, so that a v2 client signs
// with its own operations. Or the sandbox's own ASSINATURA block in the
// proposal, kept as an alternative: a code issued for the proponent's
// CPF, or a signed document's id.

// signatureIn is POST /signature's body as the 2025 client sends it.
type signatureIn struct {
	User struct {
		Username       string `json:"username"`
		Document       string `json:"document"`
		Email          string `json:"email"`
		NameProponente string `json:"nameProponente"`
		Cellphone      string `json:"cellphone"`
	} `json:"user"`
	Token struct {
		TokenCode string `json:"tokenCode"`
		SendType  string `json:"sendType"`
		SystemID  string `json:"systemId"`
		TokenType string `json:"tokenType"`
	} `json:"token"`
	Sender      map[string]any `json:"sender"`
	Description string         `json:"description"`
}

// signature is a signature made with a one-time code; UsedBy is the
// proposal it signed, 0 while it signed none.
type signature struct {
	ID, CompanyID, AppID, CPF, TokenID, Description string
	CreatedAt                                       time.Time
	UsedBy                                          int64
}

// signerOf is the CPF a signature is for: the user's document, else its
// username (both are the CPF's digits in the 2025 client).
func signerOf(in signatureIn) (string, error) {
	cpf := wire.Digits(wire.OrDefault(in.User.Document, in.User.Username))
	if err := taxid.CheckCPF(cpf); err != nil {
		return "", errs.Invalidf("user.document", "CPF inválido: %v", err)
	}
	if strings.TrimSpace(in.Token.TokenCode) == "" {
		return "", errs.Invalidf("token.tokenCode", "informe o código enviado ao cliente (token.tokenCode)")
	}
	return cpf, nil
}

// sign makes a signature with the customer's one-time code, which it uses
// up: a wrong, used or expired code is a 400 "Token inválido", as the
// 2025 client tells its customer.
func (s *Service) sign(ctx context.Context, by auth.Principal, in signatureIn) (*signature, error) {
	cpf, err := signerOf(in)
	if err != nil {
		return nil, err
	}
	now := s.NowOf(by.CompanyID)
	sig := &signature{ID: s.DB.IDs.UUID(), CompanyID: by.CompanyID, AppID: by.AppID, CPF: cpf, Description: in.Description, CreatedAt: now}
	err = s.DB.Tx(ctx, func(tx *store.Tx) error {
		payer := Payer{CompanyID: by.CompanyID, CPF: cpf}
		t, err := latestToken(ctx, tx, payer, in.Token.TokenCode)
		if err != nil {
			return err
		}
		if err := checkToken(t, payer, in.Token.TokenCode, now); err != nil {
			return invalidToken(err)
		}
		sig.TokenID = t.ID
		if err := markTokenUsed(ctx, tx, t.ID, 0, now); err != nil {
			return err
		}
		return insertSignature(ctx, tx, sig)
	})
	return sig, err
}

// invalidToken turns a refused code into the access-management API's
// 400, whose text starts "Token inválido".
func invalidToken(err error) error {
	reason := errs.As(err).Message
	if vs := errs.As(err).Violations; len(vs) > 0 {
		reason = vs[0].Reason
	}
	return errs.Invalidf("token.tokenCode", "Token inválido: %s", reason).WithType("TOKEN_INVALIDO")
}

// checkSignature requires the proposal signed: ASSINATURA (a code issued
// for the proponent's CPF, single use and unexpired, used up for proposal
// numero; or a signed document's id), or else a signature made for the
// proponent's CPF through access management and not used yet, which signs
// this proposal. A v2 sale that has none of them is a finding, not a
// refusal (unsigned).
func checkSignature(ctx context.Context, tx *store.Tx, payer Payer, prop map[string]any, numero int64, now time.Time, v2 bool) error {
	if _, block := prop["ASSINATURA"]; !block {
		err := useSignature(ctx, tx, payer, numero)
		var e *errs.Error
		if v2 && errors.As(err, &e) && e.Type == "ASSINATURA_AUSENTE" {
			return unsigned(ctx, err)
		}
		return err
	}
	code, err := signatureCode(prop)
	if err != nil || code == "" {
		return err
	}
	return useToken(ctx, tx, payer, code, numero, now)
}

// useSignature signs proposal numero with the proponent's oldest unused
// signature, or else its oldest unused signed proposal in the GED.
func useSignature(ctx context.Context, tx *store.Tx, payer Payer, numero int64) error {
	id, err := unusedSignature(ctx, tx, payer)
	if err != nil || id != "" {
		if err == nil {
			err = markSignatureUsed(ctx, tx, id, numero)
		}
		return err
	}
	doc, err := unusedSignedDocument(ctx, tx, payer)
	if err != nil || doc != "" {
		if err == nil {
			err = markDocumentUsed(ctx, tx, doc, numero)
		}
		return err
	}
	return wire.Rule("PROPOSTA.ASSINATURA", "ASSINATURA_AUSENTE",
		"a proposta precisa ser assinada pelo CPF %s: assine com o código enviado ao cliente (POST /gestao-acesso/v1/token/user/{cpf}/system/{systemId}, depois POST /gestao-acesso/v1/signature) ou arquive a proposta assinada no GED (POST /Documento, tipoDocumento %s, índice CPF) antes de enviá-la, ou envie ASSINATURA {TIPO: TOKEN, TOKEN: <código>} ou {TIPO: DOCUMENTO, ID_DOCUMENTO}", payer.CPF, tipoPropostaAssinada)
}

// unsigned is a v2 sale with no signature of any kind. The v2 API has no
// way to sign (no model of it has a signature field, nor its operations a
// signature; insurance CLIENTS §5), and no known v2 client files the
// signed proposal in the GED (its DocumentoApi is generated, but no
// app's code calls it: CLIENTS §3.8) before POST /venda: the insurer
// must take the sale and collect the signature its own way, which the
// clients do not show. So the sale is accepted, as production must, and
// the missing signature recorded as a finding (the specification's rule
// 6 wants every proposal signed); --strict refuses it with refusal. A
// signature made through access management, or a signed proposal in the
// GED, still signs the sale when there is one.
func unsigned(ctx context.Context, refusal error) error {
	return httpx.Tolerate(ctx, httpx.Finding{Kind: httpx.FindingUnsignedSale, Field: "PROPOSTA.ASSINATURA",
		Detail: "a venda v2 chegou sem assinatura: nem assinatura pela gestão de acesso, nem proposta assinada no GED (POST /Documento, tipoDocumento PROPOSTA ASSINADA); aceita porque nenhum cliente v2 conhecido assina, mas a especificação exige a proposta assinada"},
		refusal)
}

// tipoPropostaAssinada is the tipoDocumento of a signed proposal in the
// GED (written with a space or an underscore, in any case).
const tipoPropostaAssinada = "PROPOSTA ASSINADA"

// signatureCode reads ASSINATURA: the token code to use, or "" for a
// signed document.
func signatureCode(prop map[string]any) (string, error) {
	a, ok := prop["ASSINATURA"].(map[string]any)
	if !ok {
		return "", wire.Rule("PROPOSTA.ASSINATURA", "ASSINATURA_INVALIDA",
			"ASSINATURA deve ser {TIPO: TOKEN, TOKEN: <código enviado por POST /access/v1/token/user>} ou {TIPO: DOCUMENTO, ID_DOCUMENTO}")
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
