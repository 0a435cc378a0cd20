package pix

import (
	"net/http"

	"homologa/simulator/httpx"
)

// Routes is every route the Pix API owns: the official operations under
// /pix/v2, the QR payloads under /qr/v2, the portal's Pix keys and the
// simulated payer under /sandbox. POST /cob/{txid}, POST /cobv/{txid},
// POST /webhookrec and POST /webhookcobr are the seed document's methods
// and behave as the official PUT.
func (s *Service) Routes() []httpx.Route {
	h := func(f httpx.HandlerFunc) http.Handler { return f }
	app := func(method, path, scope, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: "pix", Method: method, Path: path, Auth: httpx.App, Scopes: httpx.Scopes(scope),
			Idempotent: method == http.MethodPost, Answer: answer, Handler: f, Doc: doc}
	}
	rs := []httpx.Route{
		app(http.MethodPut, "/cob/{txid}", "cob.write", "pix/cob", s.putCob, "create or replace an immediate charge"),
		app(http.MethodPost, "/cob/{txid}", "cob.write", "pix/cob", s.putCob, "the seed's method for PUT /cob/{txid}"),
		app(http.MethodPost, "/cob", "cob.write", "pix/cob", s.postCob, "create an immediate charge; the PSP chooses the txid"),
		app(http.MethodPatch, "/cob/{txid}", "cob.write", "pix/cob", s.patchCob, "revise or remove an immediate charge"),
		app(http.MethodGet, "/cob/{txid}", "cob.read", "pix/cob.completa", s.getCob, "an immediate charge, or one of its revisions"),
		app(http.MethodGet, "/cob", "cob.read", "pix/cob.list", s.listCobs, "immediate charges by creation time"),

		app(http.MethodPut, "/cobv/{txid}", "cobv.write", "pix/cobv", s.putCobv, "create or replace a due-date charge"),
		app(http.MethodPost, "/cobv/{txid}", "cobv.write", "pix/cobv", s.putCobv, "the seed's method for PUT /cobv/{txid}"),
		app(http.MethodPatch, "/cobv/{txid}", "cobv.write", "pix/cobv", s.patchCobv, "revise or remove a due-date charge"),
		app(http.MethodGet, "/cobv/{txid}", "cobv.read", "pix/cobv.completa", s.getCobv, "a due-date charge"),
		app(http.MethodGet, "/cobv", "cobv.read", "pix/cobv.list", s.listCobv, "due-date charges by creation time"),

		app(http.MethodPut, "/lotecobv/{id}", "lotecobv.write", "", s.putLote, "create a batch of due-date charges"),
		app(http.MethodPatch, "/lotecobv/{id}", "lotecobv.write", "", s.patchLote, "revise charges of a batch"),
		app(http.MethodGet, "/lotecobv/{id}", "lotecobv.read", "pix/lotecobv", s.getLote, "a batch and its items"),
		app(http.MethodGet, "/lotecobv", "lotecobv.read", "pix/lotecobv.list", s.listLotes, "batches"),

		app(http.MethodPost, "/loc", "payloadlocation.write", "pix/loc", s.postLoc, "create a payload location"),
		app(http.MethodGet, "/loc", "payloadlocation.read", "pix/loc.list", s.listLocs, "payload locations"),
		app(http.MethodGet, "/loc/{id}", "payloadlocation.read", "pix/loc", s.getLoc, "a payload location"),
		app(http.MethodDelete, "/loc/{id}/txid", "payloadlocation.write", "pix/loc", s.unlinkLoc, "unlink a location from its charge"),

		app(http.MethodGet, "/pix/{e2eid}", "pix.read", "pix/pix", s.getPix, "a received Pix"),
		app(http.MethodGet, "/pix", "pix.read", "pix/pix.list", s.listPix, "received Pix"),
		app(http.MethodPut, "/pix/{e2eid}/devolucao/{id}", "pix.write", "pix/devolucao", s.putRefund, "ask for a refund"),
		app(http.MethodGet, "/pix/{e2eid}/devolucao/{id}", "pix.read", "pix/devolucao", s.getRefund, "a refund"),

		app(http.MethodPut, "/webhook/{chave}", "webhook.write", "", s.putWebhook, "set a key's webhook"),
		app(http.MethodGet, "/webhook/{chave}", "webhook.read", "pix/webhook", s.getWebhook, "a key's webhook"),
		app(http.MethodDelete, "/webhook/{chave}", "webhook.write", "", s.deleteWebhook, "remove a key's webhook"),
		app(http.MethodGet, "/webhook", "webhook.read", "pix/webhook.list", s.listWebhooks, "webhooks"),

		app(http.MethodPost, "/locrec", "payloadlocationrec.write", "pix/locrec", s.postLocRec, "create a recurrence location"),
		app(http.MethodGet, "/locrec", "payloadlocationrec.read", "pix/locrec.list", s.listLocRecs, "recurrence locations"),
		app(http.MethodGet, "/locrec/{id:[0-9]+}", "payloadlocationrec.read", "pix/locrec", s.getLocRec, "a recurrence location"),
		app(http.MethodDelete, "/locrec/{id:[0-9]+}/idRec", "payloadlocationrec.write", "pix/locrec", s.unlinkLocRec, "unlink a location from its recurrence"),

		app(http.MethodPost, "/rec", "rec.write", "pix/rec", s.postRec, "create a recurrence"),
		app(http.MethodPatch, "/rec/{idRec}", "rec.write", "pix/rec", s.patchRec, "revise or cancel a recurrence"),
		app(http.MethodGet, "/rec/{idRec}", "rec.read", "pix/rec.completa", s.getRec, "a recurrence"),
		app(http.MethodGet, "/rec", "rec.read", "pix/rec.list", s.listRecs, "recurrences"),

		app(http.MethodPost, "/solicrec", "solicrec.write", "pix/solicrec", s.postSolicRec, "ask the payer to confirm a recurrence"),
		app(http.MethodGet, "/solicrec/{id}", "solicrec.read", "pix/solicrec", s.getSolicRec, "a confirmation request"),
		app(http.MethodPatch, "/solicrec/{id}", "solicrec.write", "pix/solicrec", s.patchSolicRec, "cancel a confirmation request"),

		app(http.MethodPut, "/cobr/{txid}", "cobr.write", "pix/cobr", s.putCobR, "create a recurring charge"),
		app(http.MethodPost, "/cobr", "cobr.write", "pix/cobr", s.postCobR, "create a recurring charge; the PSP chooses the txid"),
		app(http.MethodPatch, "/cobr/{txid}", "cobr.write", "pix/cobr", s.patchCobR, "cancel a recurring charge"),
		app(http.MethodGet, "/cobr/{txid}", "cobr.read", "pix/cobr.completa", s.getCobR, "a recurring charge"),
		app(http.MethodGet, "/cobr", "cobr.read", "pix/cobr.list", s.listCobRs, "recurring charges"),
		app(http.MethodPost, "/cobr/{txid}/retentativa/{data}", "cobr.write", "pix/cobr.completa", s.retryCobR, "retry a rejected settlement"),
	}
	for _, kind := range []string{"rec", "cobr"} {
		rs = append(rs,
			app(http.MethodPut, "/webhook"+kind, "webhook"+kind+".write", "", s.putRecWebhook(kind), "set the "+kind+" webhook"),
			app(http.MethodPost, "/webhook"+kind, "webhook"+kind+".write", "", s.putRecWebhook(kind), "the seed's method for PUT /webhook"+kind),
			app(http.MethodGet, "/webhook"+kind, "webhook"+kind+".read", "pix/webhook"+kind, s.getRecWebhook(kind), "the "+kind+" webhook"),
			app(http.MethodDelete, "/webhook"+kind, "webhook"+kind+".write", "", s.deleteRecWebhook(kind), "remove the "+kind+" webhook"))
	}
	// The payload endpoints belong to the QR location's host, not to the
	// API (SUMMARY §10): they are public.
	payload := func(path string, f http.Handler, doc string) httpx.Route {
		return httpx.Route{API: "pix-payload", Method: http.MethodGet, Path: path, Auth: httpx.Public, Handler: f, Doc: doc}
	}
	rs = append(rs,
		payload("/jwks.json", h(s.jwks), "the keys that sign payloads"),
		payload("/cobv/{token:[0-9a-f]{32}}", http.HandlerFunc(s.cobvPayload), "a due-date charge's payload (JWS)"),
		payload("/rec/{token:[0-9a-f]{32}}", http.HandlerFunc(s.recPayloadJWS), "a recurrence's payload (JWS)"),
		payload("/{token:[0-9a-f]{32}}", http.HandlerFunc(s.cobPayload), "an immediate charge's payload (JWS)"),
	)
	control := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: "sandbox", Method: method, Path: path, Auth: httpx.Tenant, Answer: answer, Handler: f, Doc: doc}
	}
	rs = append(rs,
		control(http.MethodPost, "/pix/payments", "pix/pix", s.pay, "the payer pays a charge, or credits a Pix without txid"),
		control(http.MethodPost, "/pix/refunds/{e2eid}/{id}", "", s.settleRefundNow, "decide a refund now"),
		control(http.MethodPost, "/pix/rec/{idRec}/{acao:aprovar|rejeitar|cancelar}", "", s.payerActsOnRec, "the payer acts on a recurrence"),
		control(http.MethodPost, "/pix/cobr/{txid}/{acao:pagar|rejeitar}", "", s.payerActsOnCobR, "the payer settles or rejects a recurring charge"),
	)
	portal := func(method string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: "portal", Method: method, Path: "/apps/{id}/pix-keys", Auth: httpx.Public, Handler: f, Doc: doc}
	}
	rs = append(rs,
		portal(http.MethodGet, s.listKeysHandler, "an app's Pix keys"),
		portal(http.MethodPost, s.addKeyHandler, "add a Pix key to an app"),
	)
	return rs
}
