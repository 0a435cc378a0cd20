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
	var rs []httpx.Route
	for _, group := range [][]httpx.Route{
		s.chargeRoutes(),
		s.locRoutes(),
		s.pixRoutes(),
		s.recRoutes(),
		s.cobrRoutes(),
		s.payloadRoutes(),
		s.controlRoutes(),
		s.portalRoutes(),
	} {
		rs = append(rs, group...)
	}
	return rs
}

// app is a route of the official API, for an app's token with a scope,
// over mutual TLS as every Pix API; a POST is idempotent.
func app(method, path, scope, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
	return httpx.Route{API: "pix", Method: method, Path: path, Auth: httpx.App, Scopes: httpx.Scopes(scope), MutualTLS: true,
		Idempotent: method == http.MethodPost, Answer: answer, Handler: f, Doc: doc}
}

// Undeclared are the answers of every route of the API Pix that no
// operation of the spec declares, and why: the route reference lists
// them beside the routes.
var Undeclared = []string{
	"401 `about:blank` (`WWW-Authenticate: Bearer`) for a request without a valid token: missing, unknown or expired, or used without the certificate it is bound to (mutual TLS). " +
		"RFC 6750 and RFC 8705 require a 401, which the spec declares nowhere and no type of its catalogue has; `AcessoNegado` is the catalogue's 403 for a participant authenticated that breaks an authorization rule (a missing scope is one: 403 `AcessoNegado`). " +
		"The spec's error bodies are RFC 7807's, whose §4.2 gives `about:blank` to a problem that means no more than its status",
	"405 `about:blank` with `Allow` for a method the path does not take: no operation is addressed, so none declares a status; RFC 9110 requires the 405",
	"400 `RequisicaoInvalida` for a body that is not JSON (elsewhere 415), over 1 MiB (413), or an `Idempotency-Key` reused with another body (422): the operations declare 400, not those",
	"503 `ServicoIndisponivel` with `Retry-After` for the same `Idempotency-Key` while its first request runs (409) or too many requests (429): the declared status that says to try again",
}

// consulta notes on a GET route the 400 of its catalogue type for bad
// query parameters, which its operation's responses do not declare.
func consulta(rt httpx.Route, typ string) httpx.Route {
	rt.Undeclared = "400 `" + typ + "` for bad query parameters: the catalogue names this operation for that type, although its responses declare no 400 (the catalogue is the more specific of the two)"
	return rt
}

// chargeRoutes are cob, cobv and lotecobv.
func (s *Service) chargeRoutes() []httpx.Route {
	return []httpx.Route{
		app(http.MethodPut, "/cob/{txid}", "cob.write", "pix/cob", s.handleCobPut, "create or replace an immediate charge").WithRequest("pix/cob.request"),
		app(http.MethodPost, "/cob/{txid}", "cob.write", "pix/cob", s.handleCobPut, "the seed's method for PUT /cob/{txid}").WithRequest("pix/cob.request"),
		app(http.MethodPost, "/cob", "cob.write", "pix/cob", s.handleCobPost, "create an immediate charge; the PSP chooses the txid").WithRequest("pix/cob.request"),
		app(http.MethodPatch, "/cob/{txid}", "cob.write", "pix/cob", s.handleCobPatch, "revise or remove an immediate charge").WithRequest("pix/cob.patch"),
		consulta(app(http.MethodGet, "/cob/{txid}", "cob.read", "pix/cob.completa", s.handleCobGet, "an immediate charge, or one of its revisions"), "CobConsultaInvalida"),
		consulta(app(http.MethodGet, "/cob", "cob.read", "pix/cob.list", s.handleCobList, "immediate charges by creation time"), "CobConsultaInvalida"),

		app(http.MethodPut, "/cobv/{txid}", "cobv.write", "pix/cobv", s.handleCobvPut, "create or replace a due-date charge").WithRequest("pix/cobv.request"),
		app(http.MethodPost, "/cobv/{txid}", "cobv.write", "pix/cobv", s.handleCobvPut, "the seed's method for PUT /cobv/{txid}").WithRequest("pix/cobv.request"),
		app(http.MethodPatch, "/cobv/{txid}", "cobv.write", "pix/cobv", s.handleCobvPatch, "revise or remove a due-date charge").WithRequest("pix/cobv.patch"),
		app(http.MethodGet, "/cobv/{txid}", "cobv.read", "pix/cobv.completa", s.handleCobvGet, "a due-date charge"),
		consulta(app(http.MethodGet, "/cobv", "cobv.read", "pix/cobv.list", s.handleCobvList, "due-date charges by creation time"), "CobVConsultaInvalida"),

		app(http.MethodPut, "/lotecobv/{id}", "lotecobv.write", "", s.handleLotePut, "create a batch of due-date charges").WithRequest("pix/lotecobv.request"),
		app(http.MethodPatch, "/lotecobv/{id}", "lotecobv.write", "", s.handleLotePatch, "revise charges of a batch").WithRequest("pix/lotecobv.patch"),
		consulta(app(http.MethodGet, "/lotecobv/{id}", "lotecobv.read", "pix/lotecobv", s.handleLoteGet, "a batch and its items"), "LoteCobVConsultaInvalida"),
		consulta(app(http.MethodGet, "/lotecobv", "lotecobv.read", "pix/lotecobv.list", s.handleLoteList, "batches"), "LoteCobVConsultaInvalida"),
	}
}

// locRoutes are the payload locations.
func (s *Service) locRoutes() []httpx.Route {
	return []httpx.Route{
		app(http.MethodPost, "/loc", "payloadlocation.write", "pix/loc", s.handleLocPost, "create a payload location").WithRequest("pix/loc.request"),
		consulta(app(http.MethodGet, "/loc", "payloadlocation.read", "pix/loc.list", s.handleLocList, "payload locations"), "PayloadLocationConsultaInvalida"),
		app(http.MethodGet, "/loc/{id}", "payloadlocation.read", "pix/loc", s.handleLocGet, "a payload location"),
		app(http.MethodDelete, "/loc/{id}/txid", "payloadlocation.write", "pix/loc", s.handleLocUnlink, "unlink a location from its charge"),
	}
}

// pixRoutes are the received Pix, their refunds and the webhooks by key.
func (s *Service) pixRoutes() []httpx.Route {
	return []httpx.Route{
		app(http.MethodGet, "/pix/{e2eid}", "pix.read", "pix/pix", s.handlePixGet, "a received Pix"),
		consulta(app(http.MethodGet, "/pix", "pix.read", "pix/pix.list", s.handlePixList, "received Pix"), "PixConsultaInvalida"),
		app(http.MethodPut, "/pix/{e2eid}/devolucao/{id}", "pix.write", "pix/devolucao", s.handleDevolucaoPut, "ask for a refund").WithRequest("pix/devolucao.request"),
		app(http.MethodGet, "/pix/{e2eid}/devolucao/{id}", "pix.read", "pix/devolucao", s.handleDevolucaoGet, "a refund"),

		app(http.MethodPut, "/webhook/{chave}", "webhook.write", "", s.handleWebhookPut, "set a key's webhook").WithRequest("pix/webhook.request"),
		app(http.MethodGet, "/webhook/{chave}", "webhook.read", "pix/webhook", s.handleWebhookGet, "a key's webhook"),
		app(http.MethodDelete, "/webhook/{chave}", "webhook.write", "", s.handleWebhookDelete, "remove a key's webhook"),
		consulta(app(http.MethodGet, "/webhook", "webhook.read", "pix/webhook.list", s.handleWebhookList, "webhooks"), "WebhookConsultaInvalida"),
	}
}

// recRoutes are Pix Automático's locations, recurrences and confirmation
// requests.
func (s *Service) recRoutes() []httpx.Route {
	return []httpx.Route{
		app(http.MethodPost, "/locrec", "payloadlocationrec.write", "pix/locrec", s.handleLocRecPost, "create a recurrence location"),
		consulta(app(http.MethodGet, "/locrec", "payloadlocationrec.read", "pix/locrec.list", s.handleLocRecList, "recurrence locations"), "PayloadLocationRecConsultaInvalida"),
		app(http.MethodGet, "/locrec/{id:[0-9]+}", "payloadlocationrec.read", "pix/locrec", s.handleLocRecGet, "a recurrence location"),
		app(http.MethodDelete, "/locrec/{id:[0-9]+}/idRec", "payloadlocationrec.write", "pix/locrec", s.handleLocRecUnlink, "unlink a location from its recurrence"),

		app(http.MethodPost, "/rec", "rec.write", "pix/rec", s.handleRecPost, "create a recurrence").WithRequest("pix/rec.request"),
		app(http.MethodPatch, "/rec/{idRec}", "rec.write", "pix/rec", s.handleRecPatch, "revise or cancel a recurrence").WithRequest("pix/rec.patch"),
		consulta(app(http.MethodGet, "/rec/{idRec}", "rec.read", "pix/rec.completa", s.handleRecGet, "a recurrence"), "RecConsultaInvalida"),
		consulta(app(http.MethodGet, "/rec", "rec.read", "pix/rec.list", s.handleRecList, "recurrences"), "RecConsultaInvalida"),

		app(http.MethodPost, "/solicrec", "solicrec.write", "pix/solicrec", s.handleSolicRecPost, "ask the payer to confirm a recurrence").WithRequest("pix/solicrec.request"),
		app(http.MethodGet, "/solicrec/{id}", "solicrec.read", "pix/solicrec", s.handleSolicRecGet, "a confirmation request"),
		app(http.MethodPatch, "/solicrec/{id}", "solicrec.write", "pix/solicrec", s.handleSolicRecPatch, "cancel a confirmation request").WithRequest("pix/solicrec.patch"),
	}
}

// cobrRoutes are the recurring charges and the webhooks of rec and cobr.
func (s *Service) cobrRoutes() []httpx.Route {
	rs := []httpx.Route{
		app(http.MethodPut, "/cobr/{txid}", "cobr.write", "pix/cobr", s.handleCobRPut, "create a recurring charge").WithRequest("pix/cobr.request"),
		app(http.MethodPost, "/cobr", "cobr.write", "pix/cobr", s.handleCobRPost, "create a recurring charge; the PSP chooses the txid").WithRequest("pix/cobr.request"),
		app(http.MethodPatch, "/cobr/{txid}", "cobr.write", "pix/cobr", s.handleCobRPatch, "cancel a recurring charge").WithRequest("pix/cobr.patch"),
		app(http.MethodGet, "/cobr/{txid}", "cobr.read", "pix/cobr.completa", s.handleCobRGet, "a recurring charge"),
		consulta(app(http.MethodGet, "/cobr", "cobr.read", "pix/cobr.list", s.handleCobRList, "recurring charges"), "CobRConsultaInvalida"),
		app(http.MethodPost, "/cobr/{txid}/retentativa/{data}", "cobr.write", "pix/cobr.completa", s.handleCobRRetry, "retry a rejected settlement"),
	}
	for _, kind := range []string{"rec", "cobr"} {
		rs = append(rs,
			app(http.MethodPut, "/webhook"+kind, "webhook"+kind+".write", "", s.handleWebhookRecPut(kind), "set the "+kind+" webhook").WithRequest("pix/webhook"+kind+".request"),
			app(http.MethodPost, "/webhook"+kind, "webhook"+kind+".write", "", s.handleWebhookRecPut(kind), "the seed's method for PUT /webhook"+kind).WithRequest("pix/webhook"+kind+".request"),
			app(http.MethodGet, "/webhook"+kind, "webhook"+kind+".read", "pix/webhook"+kind, s.handleWebhookRecGet(kind), "the "+kind+" webhook"),
			app(http.MethodDelete, "/webhook"+kind, "webhook"+kind+".write", "", s.handleWebhookRecDelete(kind), "remove the "+kind+" webhook"))
	}
	return rs
}

// payloadRoutes are the payload endpoints. They belong to the QR
// location's host, not to the API (SUMMARY §10): they are public.
func (s *Service) payloadRoutes() []httpx.Route {
	payload := func(path string, f http.Handler, doc string) httpx.Route {
		return httpx.Route{API: "pix-payload", Method: http.MethodGet, Path: path, Auth: httpx.Public, Handler: f, Doc: doc}
	}
	return []httpx.Route{
		payload("/jwks.json", httpx.HandlerFunc(s.handleJWKS), "the keys that sign payloads"),
		payload("/cobv/{token:[0-9a-f]{32}}", http.HandlerFunc(s.handleCobvPayload), "a due-date charge's payload (JWS)"),
		payload("/rec/{token:[0-9a-f]{32}}", http.HandlerFunc(s.handleRecPayload), "a recurrence's payload (JWS)"),
		payload("/{token:[0-9a-f]{32}}", http.HandlerFunc(s.handleCobPayload), "an immediate charge's payload (JWS)"),
	}
}

// controlRoutes are the simulated payer of the control API.
func (s *Service) controlRoutes() []httpx.Route {
	control := func(method, path, answer string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: "sandbox", Method: method, Path: path, Auth: httpx.Tenant, Answer: answer, Handler: f, Doc: doc}
	}
	return []httpx.Route{
		control(http.MethodPost, "/pix/payments", "pix/pix", s.handlePay, "the payer pays a charge, or credits a Pix without txid").WithRequest("platform/pix.payment"),
		control(http.MethodPost, "/pix/refunds/{e2eid}/{id}", "", s.handleDevolucaoSettle, "decide a refund now").WithRequest("platform/pix.refund.settle"),
		control(http.MethodPost, "/pix/rec/{idRec}/{acao:aprovar|rejeitar|cancelar}", "", s.handleRecPayerAction, "the payer acts on a recurrence"),
		control(http.MethodPost, "/pix/cobr/{txid}/{acao:pagar|rejeitar}", "", s.handleCobRPayerAction, "the payer settles or rejects a recurring charge"),
	}
}

// portalRoutes are an app's Pix keys in the portal.
func (s *Service) portalRoutes() []httpx.Route {
	portal := func(method string, f httpx.HandlerFunc, doc string) httpx.Route {
		return httpx.Route{API: "portal", Method: method, Path: "/apps/{id}/pix-keys", Auth: httpx.Account, Handler: f, Doc: doc}
	}
	return []httpx.Route{
		portal(http.MethodGet, s.handleKeysList, "an app's Pix keys"),
		portal(http.MethodPost, s.handleKeyAdd, "add a Pix key to an app").WithRequest("platform/pixkey.create"),
	}
}
