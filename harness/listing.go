package harness

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// A partner that reconciles from the listing (GET /pix/v2/pix of a
// period) reads every page: the API Pix answers a page at a time
// (parametros.paginacao: paginaAtual, itensPorPagina, default 100,
// quantidadeDePaginas), and a reconciliation that reads the first page
// alone misses every Pix past it. The suite sends more Pix than one
// default page holds; a partner that asks for larger pages meets the rule
// another way and passes.

// payerSendsPix credits n Pix of valor to the partner's key, none paying
// a charge (as a payer who types the key does), and remembers each
// endToEndId and the period they fall in: ${pix.inicio} and ${pix.fim},
// on the sandbox's clock.
func (w *World) payerSendsPix(n int, valor string) error {
	if n < 1 || n > 1000 {
		return fmt.Errorf("the payer sends 1 to 1000 Pix, not %d", n)
	}
	body, _ := json.Marshal(map[string]string{"chave": w.vars["chave"], "valor": valor})
	var first, last time.Time
	w.sentPix = w.sentPix[:0]
	for i := range n {
		code, answer, err := w.asHarness(http.MethodPost, "/sandbox/pix/payments", body)
		if err != nil {
			return err
		}
		var px struct {
			EndToEndID string    `json:"endToEndId"`
			Horario    time.Time `json:"horario"`
		}
		if code != http.StatusCreated || json.Unmarshal(answer, &px) != nil || px.EndToEndID == "" {
			return fmt.Errorf("the payer could not send Pix %d of %d to %s: %d %.300s", i+1, n, w.vars["chave"], code, answer)
		}
		w.sentPix = append(w.sentPix, px.EndToEndID)
		if first.IsZero() || px.Horario.Before(first) {
			first = px.Horario
		}
		if px.Horario.After(last) {
			last = px.Horario
		}
	}
	w.vars["pix.inicio"] = first.Add(-time.Second).UTC().Format(time.RFC3339)
	w.vars["pix.fim"] = last.Add(time.Second).UTC().Format(time.RFC3339)
	return nil
}

// knowsEverySentPix checks the partner's state holds every Pix the payer
// sent: set aside (unknown) or booked, by endToEndId.
func (w *World) knowsEverySentPix() error {
	if len(w.sentPix) == 0 {
		return fmt.Errorf("the payer sent no Pix in this scenario")
	}
	l, err := w.partnerLedger()
	if err != nil {
		return err
	}
	if !l.known["unknown"] && !l.known["booked"] {
		return fmt.Errorf("the partner's state maps neither unknown nor payments: map where it keeps the Pix it received (docs/reference/homologation.md, the state contract)")
	}
	var missing []string
	for _, e2e := range w.sentPix {
		if !l.unknown[e2e] && !l.bookedAny(e2e) {
			missing = append(missing, e2e)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the partner knows %d of the %d Pix received between %s and %s (the first it lacks: %s): GET /pix/v2/pix answers a page at a time (parametros.paginacao.quantidadeDePaginas); read every page",
			len(w.sentPix)-len(missing), len(w.sentPix), w.vars["pix.inicio"], w.vars["pix.fim"], missing[0])
	}
	return nil
}
