package insurance

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/scenario"
	"homologa/simulator/store"
)

// propostaRunner does the steps of proposal bindings.
type propostaRunner struct{ s *Service }

// ScenarioRunners registers the runner of the proposal kind.
func (s *Service) ScenarioRunners(e *scenario.Engine) {
	e.Handle("proposta", propostaRunner{s})
	s.customerRunners(e)
	s.benefitRunners(e)
}

func (r propostaRunner) load(ctx context.Context, tx *store.Tx, b *scenario.Binding) (*proposta, error) {
	n, err := strconv.ParseInt(b.Key, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("binding key %q: %w", b.Key, err)
	}
	p, err := loadProposta(ctx, tx, "", n)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, errs.Errorf(errs.NotFound, "proposta %d no longer exists", n)
	}
	return p, nil
}

// Resolve finds a proposal of the app by {"numeroProposta"}.
func (r propostaRunner) Resolve(ctx context.Context, tx *store.Tx, appID string, ref map[string]string) (string, error) {
	n, err := strconv.ParseInt(ref["numeroProposta"], 10, 64)
	if err != nil {
		return "", errs.Invalidf("numeroProposta", "name the proposal: numeroProposta")
	}
	p, err := loadProposta(ctx, tx, "", n)
	if err != nil {
		return "", err
	}
	if p == nil || p.AppID != appID {
		return "", errs.Invalidf("numeroProposta", "the app has no proposal %d", n)
	}
	return b10(n), nil
}

func b10(n int64) string { return strconv.FormatInt(n, 10) }

func (r propostaRunner) Instant(context.Context, *store.Tx, *scenario.Binding, string) (time.Time, error) {
	return time.Time{}, fmt.Errorf("a proposal has no named instants")
}

// Do performs one step; a refusal of the domain stops the binding.
func (r propostaRunner) Do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	out, err := r.do(ctx, tx, b, st)
	return out, scenario.NotApplicable(err)
}

func (r propostaRunner) do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	s := r.s
	p, err := r.load(ctx, tx, b)
	if err != nil {
		return "", err
	}
	switch st.Verb {
	case "status":
		switch {
		case st.Status == Implantada:
			ids, err := s.implant(ctx, tx, p)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("implanted: inscrições %v", ids), nil
		case st.Status == EmAnalise && p.Status == Pendente:
			if err := s.resolveAnswered(ctx, tx, p); err != nil {
				return "", err
			}
		case st.Status == Cancelada:
			if err := s.closePendencias(ctx, tx, p); err != nil {
				return "", err
			}
		}
		if err := s.move(ctx, tx, p, st.Status, st.Reason, "SUBSCRICAO", nil); err != nil {
			return "", err
		}
		return "moved to " + st.Status, nil
	case "pending":
		code, _ := st.Args["code"].(string)
		desc, _ := st.Args["description"].(string)
		group, _ := st.Args["group"].(string)
		if desc == "" {
			desc = code
		}
		id, err := s.raisePendencia(ctx, tx, p, code, group, desc)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("pending %d raised: %s", id, code), nil
	case "refuse":
		reason := st.Reason
		if reason == "" {
			reason, _ = st.Args["description"].(string)
		}
		if reason == "" {
			reason = "Recusa técnica da subscrição"
		}
		if err := s.closePendencias(ctx, tx, p); err != nil {
			return "", err
		}
		if err := s.move(ctx, tx, p, Recusada, reason, "SUBSCRICAO", nil); err != nil {
			return "", err
		}
		return "refused: " + reason, nil
	case "emit":
		own, err := s.owner(ctx, tx, p)
		if err != nil {
			return "", err
		}
		typ, name, data := st.Event()
		if err := s.emit(ctx, tx, own, typ, name, subjectOf(p), keyOf(p), data); err != nil {
			return "", err
		}
		return "emitted " + typ, nil
	}
	return "", errs.Errorf(errs.Invalid, "proposta takes no %s step", st.Verb)
}
