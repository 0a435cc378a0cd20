package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"homologa/simulator/errs"
	"homologa/simulator/schema"
	"homologa/simulator/store"
)

// A control action is one step of a scenario run now on a resource that
// exists (POST /sandbox/actions/{kind}): the insurer's analyst approving
// a proposal, the regulator paying a benefit, the bank settling a
// charge. The step is written as in a scenario file and done by the
// kind's runner, so it goes through the resource's state machine and
// emits what the same change emits in a scenario.

// timing are a step's fields that place it in time: an action runs now.
var timing = []string{"after", "jitter", "at", "when"}

// ParseStep reads one step of kind as a scenario file writes it, checked
// as a file's step is: the schema, one verb the kind takes, a state the
// kind has. Whether the resource may move there is checked when the step
// runs, against the resource as it is then. Problems name the field as
// step.<field>.
func ParseStep(kinds Kinds, reg *schema.Registry, kind string, m map[string]any) (Step, error) {
	k, ok := kinds[kind]
	if !ok {
		return Step{}, errs.Errorf(errs.NotFound, "%q não é um tipo de recurso que ações conduzem; tipos: %s", kind, strings.Join(kinds.Names(), ", "))
	}
	for _, f := range timing {
		if _, ok := m[f]; ok {
			return Step{}, errs.Invalidf("step."+f, "uma ação roda agora: tire %s (para agendar, vincule um cenário)", f)
		}
	}
	doc := map[string]any{"id": "acao", "title": "ação de controle", "applies_to": kind, "steps": []any{m}}
	raw, _ := json.Marshal(doc)
	vs, err := reg.Validate(SchemaName, raw)
	if err != nil {
		return Step{}, err
	}
	bad := &errs.Error{Code: errs.Invalid, Message: "passo inválido"}
	for _, v := range vs {
		bad.Violations = append(bad.Violations, errs.Violation{Field: stepField(v.Field), Reason: v.Reason})
	}
	if len(bad.Violations) > 0 {
		return Step{}, bad
	}
	var root yaml.Node
	yaml.Unmarshal(raw, &root)
	c := &checker{file: "step", root: root.Content[0], kinds: kinds}
	st := c.step(m, "steps.0")
	if len(c.problems) == 0 {
		c.checkStep(k, st, "", "steps.0")
	}
	for _, p := range c.problems {
		bad.Violations = append(bad.Violations, errs.Violation{Field: stepField(p.Field), Reason: p.Message})
	}
	if len(bad.Violations) > 0 {
		return Step{}, bad
	}
	return st, nil
}

// stepField names a field of the wrapped document as the action's body
// does.
func stepField(f string) string {
	if rest, ok := strings.CutPrefix(f, "steps.0"); ok {
		return "step" + rest
	}
	return f
}

// Actable are the kinds whose resources an action can name.
func (e *Engine) Actable() []string {
	var out []string
	for kind, r := range e.runners {
		if _, ok := r.(Resolver); ok {
			out = append(out, kind)
		}
	}
	sort.Strings(out)
	return out
}

// Act runs st now on the resource of kind that ref names, which must be
// appID's, in one transaction with the company of ctx, and says what it
// did. A step the resource refuses as it is (a proposal already
// implanted cannot be approved) is the domain's error, unchanged.
func (e *Engine) Act(ctx context.Context, kind, appID string, ref map[string]string, st Step) (string, error) {
	res, ok := e.runners[kind].(Resolver)
	if !ok {
		return "", errs.Errorf(errs.NotFound, "ações não conduzem %q; tipos: %s", kind, strings.Join(e.Actable(), ", "))
	}
	var out string
	err := e.DB.Tx(ctx, func(tx *store.Tx) error {
		key, err := res.Resolve(ctx, tx, appID, ref)
		if err != nil {
			return err
		}
		b := &Binding{Kind: kind, Key: key, Ref: refText(ref), AppID: appID, How: "control", Next: -1}
		out, err = e.runners[kind].Do(ctx, tx, b, st)
		return err
	})
	if na := (notApplicable{}); errors.As(err, &na) {
		return "", na.err
	}
	return out, err
}

// refText is the reference as the binding log writes it.
func refText(ref map[string]string) string {
	keys := make([]string, 0, len(ref))
	for k := range ref {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, ref[k])
	}
	return strings.Join(parts, "/")
}
