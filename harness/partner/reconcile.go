package partner

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
)

// maxPages bounds one reconciliation's listing: a period of more Pix
// than this many default pages is split by whoever asks.
const maxPages = 1000

// reconcilePeriod is POST /actions/reconcile {"inicio", "fim"}: the Pix received
// in the period, read from GET /pix/v2/pix page by page until the last
// (parametros.paginacao.quantidadeDePaginas), each Pix of no charge of
// its own set aside, as a back office's daily reconciliation does.
func (p *Partner) reconcilePeriod(ctx context.Context, a *app, body []byte) (any, error) {
	var in struct {
		Inicio string `json:"inicio"`
		Fim    string `json:"fim"`
	}
	if err := decodeInput(body, &in); err != nil {
		return nil, err
	}
	if in.Inicio == "" || in.Fim == "" {
		return nil, badRequest("inicio and fim are required")
	}
	seen := 0
	for page := 0; page < maxPages; page++ {
		q := url.Values{"inicio": {in.Inicio}, "fim": {in.Fim}, "paginacao.paginaAtual": {strconv.Itoa(page)}}
		path := "/pix/v2/pix?" + q.Encode()
		ans, _, err := p.retry(ctx, a.id, "GET /pix/v2/pix", func(int) (answer, error) {
			return p.send(ctx, a, http.MethodGet, path, nil, nil)
		})
		if err != nil {
			return nil, err
		}
		var list struct {
			Parametros struct {
				Paginacao struct {
					QuantidadeDePaginas int `json:"quantidadeDePaginas"`
				} `json:"paginacao"`
			} `json:"parametros"`
			Pix []struct {
				EndToEndID string `json:"endToEndId"`
				TxID       string `json:"txid"`
			} `json:"pix"`
		}
		if ans.status != http.StatusOK || json.Unmarshal(ans.body, &list) != nil {
			return nil, fmt.Errorf("GET %s answered %d: %s", path, ans.status, excerpt(ans.body))
		}
		for _, px := range list.Pix {
			seen++
			if px.TxID != "" && a.chargedAmount(px.TxID) >= 0 {
				continue // one of its charges: its notification books it
			}
			a.setAside(px.EndToEndID)
		}
		if p.defect == FirstPageOnly || page+1 >= list.Parametros.Paginacao.QuantidadeDePaginas {
			break
		}
	}
	return map[string]any{"pix": seen}, nil
}

// setAside keeps a Pix of no charge of its own for a person to look at,
// once.
func (a *app) setAside(e2eid string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !slices.Contains(a.unknown, e2eid) {
		a.unknown = append(a.unknown, e2eid)
	}
}
