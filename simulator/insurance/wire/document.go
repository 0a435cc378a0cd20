package wire

import (
	"encoding/base64"
	"fmt"

	"homologa/simulator/errs"
)

// MaxDocument bounds an attached document (decoded), as a real GED would.
const MaxDocument = 5 << 20

// DocumentSize decodes an attached document's base64 content and returns
// its size, the only thing of it the sandbox keeps; field names it in the
// 400 when it is not base64 or too large.
func DocumentSize(field, content string) (int, error) {
	raw, err := base64.StdEncoding.DecodeString(content)
	if err != nil {
		return 0, errs.Invalidf(field, "conteúdo não é base64 válido: %v", err)
	}
	if len(raw) > MaxDocument {
		return 0, errs.Invalidf(field, "documento de %d bytes excede o limite de %d", len(raw), MaxDocument)
	}
	return len(raw), nil
}

// Documento is an attached document as the clients send it: the sandbox's
// {nomeArquivo, formato, tipoDocumento, conteudoBase64}, or the v2 GED
// Documento, whose content is in its pages' dados (base64 strings;
// insurance CLIENTS §3.8).
type Documento struct {
	ID               string      `json:"id,omitempty"`
	NomeArquivo      string      `json:"nomeArquivo"`
	Formato          string      `json:"formato"`
	TipoDocumento    string      `json:"tipoDocumento"`
	GrupoDocumento   string      `json:"grupoDocumento,omitempty"`
	DataDocumento    string      `json:"dataDocumento,omitempty"`
	QtdePaginas      int         `json:"qtdePaginas,omitempty"`
	ConteudoBase64   string      `json:"conteudoBase64,omitempty"`
	IndicesDocumento []IndiceDoc `json:"indicesDocumento,omitempty"`
	Pagina           []PaginaDoc `json:"pagina,omitempty"`
}

// IndiceDoc is an index of a GED document: a value and its kind (a
// proposal number, a CPF…).
type IndiceDoc struct {
	Valor      string `json:"valor"`
	TipoIndice string `json:"tipoIndice"`
}

// PaginaDoc is a page of a GED document.
type PaginaDoc struct {
	Pagina int      `json:"pagina"`
	Dados  []string `json:"dados"`
}

// Size decodes the document's content, in conteudoBase64 or its pages'
// dados, and returns its size, the only thing of it the sandbox keeps;
// field names it in the 400 (field.conteudoBase64, field.pagina.N.dados.M).
func (d *Documento) Size(field string) (int, error) {
	if d.ConteudoBase64 != "" || len(d.Pagina) == 0 {
		return DocumentSize(field+".conteudoBase64", d.ConteudoBase64)
	}
	total := 0
	for i, p := range d.Pagina {
		for j, dados := range p.Dados {
			n, err := DocumentSize(fmt.Sprintf("%s.pagina.%d.dados.%d", field, i, j), dados)
			if err != nil {
				return 0, err
			}
			if total += n; total > MaxDocument {
				return 0, errs.Invalidf(field+".pagina", "documento de mais de %d bytes", MaxDocument)
			}
		}
	}
	return total, nil
}
