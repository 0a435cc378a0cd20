package pix

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"homologa/simulator/httpx"
	"homologa/simulator/store"
)

// putWebhook is PUT /webhook/{chave}: where the Pix received on the key are
// notified (POST {webhookUrl}/pix). 200 without a body, as the spec says.
func (s *Service) putWebhook(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	chave := mux.Vars(r)["chave"]
	var in struct {
		WebhookURL string `json:"webhookUrl"`
	}
	if err := decode(r, s.Schemas, "pix/webhook.request", "", "WebhookOperacaoInvalida", &in); err != nil {
		return nil, err
	}
	if err := s.Auth.Webhooks.Check(in.WebhookURL); err != nil {
		return nil, invalid("WebhookOperacaoInvalida", violation{"webhookUrl", err.Error(), in.WebhookURL})
	}
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		if _, err := KeyType(chave); err != nil {
			return invalid("WebhookOperacaoInvalida", violation{"chave", "a chave não existe no DICT: " + err.Error(), chave})
		}
		ok, err := s.ownsKey(ctx, tx, p.AppID, chave)
		if err != nil {
			return err
		}
		if !ok {
			return invalid("WebhookOperacaoInvalida", violation{"chave", "a chave não pertence ao usuário recebedor", chave})
		}
		// Re-registering keeps the creation time, as a PUT of the same
		// resource does.
		_, err = tx.ExecContext(ctx, `INSERT INTO pix_webhooks (company_id, chave, app_id, url, created_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (company_id, chave) DO UPDATE SET url = excluded.url, app_id = excluded.app_id`,
			p.CompanyID, chave, p.AppID, in.WebhookURL, s.Clock.Now().UnixNano())
		return err
	})
	if err != nil {
		return nil, err
	}
	return &httpx.Reply{Status: http.StatusOK}, nil
}

type webhook struct {
	Chave, URL, AppID string
	CreatedAt         time.Time
}

func loadWebhook(ctx context.Context, tx *store.Tx, companyID, chave string) (*webhook, error) {
	var w webhook
	var at int64
	err := tx.QueryRowContext(ctx, `SELECT chave, url, app_id, created_at FROM pix_webhooks WHERE company_id = ? AND chave = ?`, companyID, chave).
		Scan(&w.Chave, &w.URL, &w.AppID, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	w.CreatedAt = time.Unix(0, at).UTC()
	return &w, nil
}

// webhookBody is WebhookCompleto. It carries both `cnpj` (required since
// 2.7.0) and `chave` (the field up to 2.6.3, still in the example): a client
// of either version finds its field (SUMMARY §12).
func webhookBody(w *webhook, cnpj string) doc {
	return doc{"webhookUrl": w.URL, "chave": w.Chave, "cnpj": cnpj, "criacao": rfc3339(w.CreatedAt)}
}

// getWebhook is GET /webhook/{chave}.
func (s *Service) getWebhook(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		w, err := loadWebhook(ctx, tx, p.CompanyID, mux.Vars(r)["chave"])
		if err != nil {
			return err
		}
		if w == nil {
			return notFound("WebhookNaoEncontrado", "nenhum webhook para a chave %s", mux.Vars(r)["chave"])
		}
		out = webhookBody(w, p.CNPJ)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// deleteWebhook is DELETE /webhook/{chave}: 204.
func (s *Service) deleteWebhook(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	chave := mux.Vars(r)["chave"]
	err := s.DB.Tx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM pix_webhooks WHERE company_id = ? AND chave = ?`, p.CompanyID, chave)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound("WebhookNaoEncontrado", "nenhum webhook para a chave %s", chave)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return httpx.NoContent(), nil
}

// listWebhooks is GET /webhook; inicio and fim are optional here.
func (s *Service) listWebhooks(r *http.Request) (*httpx.Reply, error) {
	ctx := r.Context()
	p := principal(r)
	lq := parseList(r, "WebhookConsultaInvalida", false)
	if err := lq.err(); err != nil {
		return nil, err
	}
	where := `company_id = ? AND created_at >= ? AND created_at <= ?`
	args := []any{p.CompanyID, lq.Inicio.UnixNano(), lq.Fim.UnixNano()}
	var out doc
	err := s.DB.Read(ctx, func(tx *store.Tx) error {
		params, rows, err := lq.pageRows(ctx, tx, "pix_webhooks", "chave, url, app_id, created_at", where, "created_at, chave", args)
		if err != nil {
			return err
		}
		defer rows.Close()
		items := []doc{}
		for rows.Next() {
			var w webhook
			var at int64
			if err := rows.Scan(&w.Chave, &w.URL, &w.AppID, &at); err != nil {
				return err
			}
			w.CreatedAt = time.Unix(0, at).UTC()
			items = append(items, webhookBody(&w, p.CNPJ))
		}
		out = doc{"parametros": params, "webhooks": items}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return httpx.OK(out), nil
}

// callbackURL is where the PSP posts: the registered URL with /pix appended.
func callbackURL(base string) string { return strings.TrimSuffix(base, "/") + "/pix" }
