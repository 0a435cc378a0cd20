// Package partner is Homologa's reference partner: a small but real
// integration of the sandbox's Pix API, written the way a careful partner
// writes one, with switchable defects (one per homologation check) so the
// homologation runner can prove that each check catches what it should.
//
// The runner drives it over HTTP. Every action request names the app it
// acts for with headers (HeaderSandbox, HeaderClientID, HeaderClientSecret,
// HeaderWebhookSecret), so one partner serves many apps at once; state is
// kept per client id, in memory.
//
//	POST /actions/onboard          {"chave"}                      → {"webhookUrl"}
//	POST /actions/create-cob       {"valor", "chave"?, "devedor"?} → {"txid", "location", "pixCopiaECola"}
//	POST /actions/create-cob-auto  {"valor", "chave"?}            → {"txid"}
//	POST /actions/create-cobv      {"valor", "vencimento", "devedor", "chave"?} → {"txid", "pixCopiaECola"}
//	POST /actions/create-lotecobv  {"vencimento", "cobrancas": [{"valor", "devedor"}], "chave"?} → {"id", "txids"}
//	POST /actions/refund           {"e2eid", "valor"}             → {"id"}
//	GET  /state                    (HeaderClientID)               → State
//	POST /webhooks/{clientId}/pix  the Pix callback {"pix": […]}
//	POST /webhooks/{clientId}      the sandbox's event envelope
//
// Actions answer 200 with JSON, 400 {"error"} for a bad action request and
// 502 {"error"} when the sandbox call ultimately failed.
package partner
