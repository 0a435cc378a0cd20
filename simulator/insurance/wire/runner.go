package wire

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"homologa/simulator/errs"
	"homologa/simulator/scenario"
	"homologa/simulator/store"
)

// Step does one verb of a scenario on a resource and says what happened.
type Step[T any] func(ctx context.Context, tx *store.Tx, v *T, st scenario.Step) (string, error)

// Runner is the one shape of the cycles' scenario runners: a binding's key
// is its resource's numeric id, Load finds the resource, and each verb of
// the kind is a Step. The emit verb is the same for every kind.
type Runner[T any] struct {
	*Platform
	// Noun names the resource in messages (proposta, cobrança, benefício).
	Noun string
	// Load reads the resource of any company (a scenario acts for the
	// insurer); nil when there is none.
	Load func(ctx context.Context, tx *store.Tx, id int64) (*T, error)
	// About says which app the resource belongs to and what its events
	// are about.
	About func(v *T) (appID string, subject map[string]any, key string)
	Steps map[string]Step[T]
	// Instants returns a named instant of the resource; nil when the kind
	// names none.
	Instants func(ctx context.Context, tx *store.Tx, v *T, name string) (time.Time, error)
}

func (r Runner[T]) load(ctx context.Context, tx *store.Tx, key string) (*T, error) {
	id, err := strconv.ParseInt(key, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("binding key %q: %w", key, err)
	}
	v, err := r.Load(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, errs.Errorf(errs.NotFound, "%s %d não existe mais", r.Noun, id)
	}
	return v, nil
}

// Instant implements scenario.Runner.
func (r Runner[T]) Instant(ctx context.Context, tx *store.Tx, b *scenario.Binding, name string) (time.Time, error) {
	if r.Instants == nil {
		return time.Time{}, fmt.Errorf("%s has no named instants", r.Noun)
	}
	v, err := r.load(ctx, tx, b.Key)
	if err != nil {
		return time.Time{}, err
	}
	return r.Instants(ctx, tx, v, name)
}

// Do implements scenario.Runner: a refusal of the domain stops the
// binding.
func (r Runner[T]) Do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	out, err := r.do(ctx, tx, b, st)
	return out, scenario.NotApplicable(err)
}

func (r Runner[T]) do(ctx context.Context, tx *store.Tx, b *scenario.Binding, st scenario.Step) (string, error) {
	v, err := r.load(ctx, tx, b.Key)
	if err != nil {
		return "", err
	}
	if st.Verb == "emit" {
		app, subject, key := r.About(v)
		typ, name, data := st.Event()
		if err := r.EmitFor(ctx, tx, app, Event{Type: typ, Name: name, Subject: subject, Key: key, Data: data}); err != nil {
			return "", err
		}
		return "emitted " + typ, nil
	}
	step, ok := r.Steps[st.Verb]
	if !ok {
		return "", errs.Errorf(errs.Invalid, "%s não aceita o passo %s", r.Noun, st.Verb)
	}
	return step(ctx, tx, v, st)
}

// Resolving is a Runner whose resources a user names, to start a scenario
// on one that exists: Ref is the reference's field ("numeroProposta").
type Resolving[T any] struct {
	Runner[T]
	Ref string
}

// Resolve implements scenario.Resolver: the resource must be the app's.
func (r Resolving[T]) Resolve(ctx context.Context, tx *store.Tx, appID string, ref map[string]string) (string, error) {
	id, err := strconv.ParseInt(ref[r.Ref], 10, 64)
	if err != nil {
		return "", errs.Invalidf(r.Ref, "informe %s", r.Ref)
	}
	v, err := r.Load(ctx, tx, id)
	if err != nil {
		return "", err
	}
	if v != nil {
		if app, _, _ := r.About(v); app == appID {
			return ID(id), nil
		}
	}
	return "", errs.Invalidf(r.Ref, "o app não tem %s %d", r.Noun, id)
}

// PendingArgs reads a pending step's arguments: its code, group and
// description (the code when it gives none).
func PendingArgs(st scenario.Step) (code, group, descricao string) {
	code, _ = st.Args["code"].(string)
	group, _ = st.Args["group"].(string)
	descricao, _ = st.Args["description"].(string)
	return code, group, OrDefault(descricao, code)
}
