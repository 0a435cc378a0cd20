// Package wire is what the insurer's three cycles (package sale, customer
// and benefit) share: the envelope their answers go in
// ({Valor, Mensagens, HouveErrosDuranteProcessamento}), their rule
// errors, the lenient reading of what clients send, and the plumbing each
// of their resources uses the same way (the platform services, events to
// the owning app, scenario runners, timelines and pendings).
package wire
