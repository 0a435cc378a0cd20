package partner

import (
	"encoding/json"
	"maps"
	"slices"
)

// insurerState is what the partner holds of the insurer's resources: each
// proposal's and benefit's status with the sequence of the event that set
// it, and the events it applied. A careful integration applies an event
// once (its id), and takes a status only from an event newer than the one
// it holds (the envelope's sequence grows with every event of the
// company), so a delivery that arrives late cannot take a status back.
type insurerState struct {
	proposals map[int64]heldStatus
	benefits  map[int64]heldStatus
	applied   []string
	seen      map[string]bool
}

type heldStatus struct {
	status string
	seq    int64
}

func newInsurerState() insurerState {
	return insurerState{proposals: map[int64]heldStatus{}, benefits: map[int64]heldStatus{}, seen: map[string]bool{}}
}

// insurerEvent is what the partner reads of the insurer's envelope.
type insurerEvent struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Sequence int64  `json:"sequence"`
	Subject  struct {
		NumeroProposta int64 `json:"numeroProposta"`
		BeneficioID    int64 `json:"beneficioId"`
		PendenciaID    int64 `json:"pendenciaId"`
	} `json:"subject"`
	Data map[string]any `json:"data"`
}

func parseInsurerEvent(body []byte) (insurerEvent, bool) {
	var ev insurerEvent
	return ev, json.Unmarshal(body, &ev) == nil && ev.ID != ""
}

// statusOf is the status an event says its resource is in, "" for an
// event that says none.
func (ev insurerEvent) statusOf() string {
	switch ev.Type {
	case "proposta.implantada":
		return "IMPLANTADA"
	case "beneficio.avisado":
		return "AVISADO"
	case "beneficio.pago":
		return "PAGO"
	case "beneficio.recusado":
		return "RECUSADO"
	case "proposta.status", "beneficio.status":
		s, _ := ev.Data["statusAtual"].(string)
		return s
	}
	return ""
}

// apply records an event. It reports false for an event already applied,
// unless again (the process-duplicates defect); a status is taken from an
// event newer than the one that set the held one, or from any event when
// anyOrder (the status-regression defect).
func (s *insurerState) apply(ev insurerEvent, again, anyOrder bool) bool {
	if s.seen[ev.ID] && !again {
		return false
	}
	s.seen[ev.ID] = true
	s.applied = append(s.applied, ev.ID)
	status := ev.statusOf()
	if status == "" {
		return true
	}
	held, key := s.proposals, ev.Subject.NumeroProposta
	if ev.Subject.BeneficioID != 0 {
		held, key = s.benefits, ev.Subject.BeneficioID
	}
	if key == 0 {
		return true
	}
	if cur, ok := held[key]; ok && cur.seq >= ev.Sequence && !anyOrder {
		return true
	}
	held[key] = heldStatus{status, ev.Sequence}
	return true
}

// sold records a proposal from the insurer's answer to it.
func (s *insurerState) sold(numero int64, status string) {
	if _, ok := s.proposals[numero]; !ok && numero != 0 {
		s.proposals[numero] = heldStatus{status: status}
	}
}

// notified records a benefit notice from the insurer's answer to it.
func (s *insurerState) notified(id int64, status string) {
	if _, ok := s.benefits[id]; !ok && id != 0 {
		s.benefits[id] = heldStatus{status: status}
	}
}

// held lists what it holds, in order.
func (s *insurerState) held() (proposals, benefits []Held, applied []string) {
	proposals, benefits = []Held{}, []Held{}
	for _, n := range slices.Sorted(maps.Keys(s.proposals)) {
		proposals = append(proposals, Held{Numero: n, Status: s.proposals[n].status})
	}
	for _, id := range slices.Sorted(maps.Keys(s.benefits)) {
		benefits = append(benefits, Held{ID: id, Status: s.benefits[id].status})
	}
	return proposals, benefits, append([]string{}, s.applied...)
}
