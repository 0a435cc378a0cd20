package sale

import (
	"context"
	"strings"
	"time"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/store"
)

// The v2 API's documents (POST, GET /Documento; insurance CLIENTS §3.8)
// are the insurer's GED: a partner files a document under indexes (the
// proposal's number, the customer's CPF) and finds it again by them. As
// with a pending's documents, the sandbox keeps what describes a document
// and the size of each page, never its content.

// documentoBody is a document as kept and answered: the page contents
// are dropped.
func documentoBody(d wire.Documento, sizes []int) map[string]any {
	paginas := make([]map[string]any, 0, len(d.Pagina))
	for i, p := range d.Pagina {
		n := p.Pagina
		if n == 0 {
			n = i + 1
		}
		paginas = append(paginas, map[string]any{"pagina": n, "dados": []string{}, "tamanho": sizes[i]})
	}
	indices := d.IndicesDocumento
	if indices == nil {
		indices = []wire.IndiceDoc{}
	}
	return map[string]any{"id": d.ID, "dataDocumento": d.DataDocumento, "formato": d.Formato, "grupoDocumento": d.GrupoDocumento,
		"qtdePaginas": len(d.Pagina), "tipoDocumento": d.TipoDocumento, "nomeArquivo": d.NomeArquivo, "indicesDocumento": indices, "pagina": paginas}
}

// fileDocumento checks and files a document of the company: a name, pages
// of base64 content (or conteudoBase64, one page), an id of its own or
// one made up; a 409 for an id the company used.
func (s *Service) fileDocumento(ctx context.Context, by auth.Principal, d wire.Documento) (map[string]any, error) {
	if strings.TrimSpace(d.NomeArquivo) == "" {
		return nil, errs.Invalidf("nomeArquivo", "informe o nome do arquivo")
	}
	if d.ConteudoBase64 != "" {
		d.Pagina = append([]wire.PaginaDoc{{Pagina: 1, Dados: []string{d.ConteudoBase64}}}, d.Pagina...)
		d.ConteudoBase64 = ""
	}
	if len(d.Pagina) == 0 {
		return nil, errs.Invalidf("pagina", "o documento não tem páginas: envie pagina[{pagina, dados: [base64]}]")
	}
	sizes := make([]int, len(d.Pagina))
	for i, p := range d.Pagina {
		page := wire.Documento{Pagina: []wire.PaginaDoc{p}}
		n, err := page.Size("pagina." + wire.ID(int64(i)))
		if err != nil {
			return nil, err
		}
		sizes[i] = n
	}
	now := s.NowOf(by.CompanyID)
	d.ID = wire.OrDefault(strings.TrimSpace(d.ID), "DOC-"+s.DB.IDs.UUID())
	d.DataDocumento = wire.OrDefault(d.DataDocumento, now.Format(time.RFC3339))
	body := documentoBody(d, sizes)
	err := s.DB.Tx(ctx, func(tx *store.Tx) error { return insertDocumento(ctx, tx, by.CompanyID, d.ID, body, now) })
	return body, err
}

// documentoOf reads the company's document id, or the 404 to answer.
func (s *Service) documentoOf(ctx context.Context, companyID, id string) (map[string]any, error) {
	return wire.Read(ctx, s.DB, func(tx *store.Tx) (map[string]any, error) {
		d, err := loadDocumento(ctx, tx, companyID, id)
		if err == nil && d == nil {
			return nil, wire.NotFound("DOCUMENTO_NAO_ENCONTRADO", "documento %s não encontrado", id)
		}
		return d, err
	})
}

// documentosBy lists the company's documents with an index of value (and
// of kind tipo, when given), oldest first.
func (s *Service) documentosBy(ctx context.Context, companyID, valor, tipo string) ([]map[string]any, error) {
	if valor == "" {
		return nil, errs.Invalidf("indiceDocumento.valor", "informe o valor do índice (indiceDocumento.valor)")
	}
	return wire.Read(ctx, s.DB, func(tx *store.Tx) ([]map[string]any, error) {
		return findDocumentos(ctx, tx, companyID, valor, tipo)
	})
}
