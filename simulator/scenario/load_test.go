package scenario_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"homologa/schemas"
	"homologa/simulator/pix"
	"homologa/simulator/scenario"
	"homologa/simulator/schema"
)

func registry(t *testing.T) *schema.Registry {
	t.Helper()
	reg, err := schema.Load(schemas.FS)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// laughs is the "billion laughs" file: nine anchors, each ten aliases of the
// one before, a few hundred bytes that expand to 10^9 nodes.
func laughs() string {
	var b strings.Builder
	b.WriteString("id: x-y\ntitle: T\napplies_to: cob\na0: &a0 [lol]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d,", i-1), 10), ","))
	}
	b.WriteString("steps:\n  - pay: true\n")
	return b.String()
}

// Every bad file is refused with the file, the line and the field of the
// problem.
func TestParseRefusesBadFiles(t *testing.T) {
	reg := registry(t)
	const head = "id: x-y\ntitle: T\napplies_to: cob\n"
	tests := []struct {
		name, yaml, want string
	}{
		{"malformed YAML", "id: [x\n", "f.yaml:1: YAML malformado"},
		{"empty file", "", "f.yaml:1: o arquivo está vazio"},
		{"unknown field", head + "speed: 2\nsteps:\n  - after: 1s\n    pay: true\n", "f.yaml:4: speed: A propriedade adicional speed não é permitida"},
		{"unknown field in a step", head + "steps:\n  - after: 1s\n    pay: true\n    colour: red\n", "f.yaml:7: steps.0.colour: A propriedade adicional colour não é permitida"},
		{"unknown state", head + "steps:\n  - status: PAGA\n", "f.yaml:5: steps.0.status: cob não tem o estado \"PAGA\""},
		{"impossible transition", head + "steps:\n  - status: REMOVIDA_PELO_PSP\n  - after: 1m\n    pay: true\n", "f.yaml:6: steps.1: transição impossível: cob está REMOVIDA_PELO_PSP, um estado final; não pode passar a CONCLUIDA"},
		{"status the kind may not set", head + "steps:\n  - status: CONCLUIDA\n", "f.yaml:5: steps.0.status: passos status de cob só levam a REMOVIDA_PELO_PSP"},
		{"negative delay", head + "steps:\n  - after: -5m\n    pay: true\n", "f.yaml:5: steps.0.after: uma duração não pode ser negativa"},
		{"not a duration", head + "steps:\n  - after: soon\n    pay: true\n", "f.yaml:5: steps.0.after: \"soon\" não é uma duração"},
		{"two actions", head + "steps:\n  - pay: true\n    status: REMOVIDA_PELO_PSP\n", "f.yaml:5: steps.0: um passo tem exatamente uma ação"},
		{"no action", head + "steps:\n  - after: 1m\n", "f.yaml:5: steps.0: um passo tem exatamente uma ação"},
		{"verb the kind does not take", head + "steps:\n  - pending: {code: DPS}\n", "f.yaml:5: steps.0.pending: cob não aceita passos pending"},
		{"unknown trigger", head + "steps:\n  - when: approved\n    pay: true\n", "f.yaml:5: steps.0.when: cob não dispara o gatilho \"approved\""},
		{"unknown instant", head + "steps:\n  - at: due\n    pay: true\n", "f.yaml:5: steps.0.at: cob não tem o instante \"due\"; instantes: expiry"},
		{"steps on something not a kind", "id: x-y\ntitle: T\napplies_to: boleto\nsteps:\n  - pay: true\n", "f.yaml:3: applies_to: \"boleto\" não é um tipo de recurso"},
		{"a fault matching nothing", "id: x-y\ntitle: T\napplies_to: pix\nfaults:\n  - times: 1\n    reset: true\n", "f.yaml:5: faults.0: uma falha precisa de match (requisições) ou webhook (entregas)"},
		{"an HTTP fault doing two things", "id: x-y\ntitle: T\napplies_to: pix\nfaults:\n  - match: {path: /pix/v2/cob}\n    reset: true\n    timeout: 1s\n", "f.yaml:5: faults.0: uma falha HTTP faz uma coisa só"},
		{"a webhook action on a request", "id: x-y\ntitle: T\napplies_to: pix\nfaults:\n  - match: {path: /pix/v2/cob}\n    drop: true\n", "são falhas de webhook: use webhook, não match"},
		{"an answer lost with nothing to lose it", "id: x-y\ntitle: T\napplies_to: pix\nfaults:\n  - match: {path: /pix/v2/cob}\n    phase: after\n    latency: 1s\n", "f.yaml:6: faults.0.phase: uma falha depois do trabalho perde a resposta"},
		{"neither steps nor faults", "id: x-y\ntitle: T\napplies_to: pix\n", "f.yaml:1: um cenário precisa de passos ou falhas"},
		{"select with both equals and in", head + "select: {field: a, equals: 1, in: [2]}\nsteps:\n  - pay: true\n", "f.yaml:4: select: informe exatamente um entre equals e in"},
		{"a key twice", head + "title: U\nsteps:\n  - pay: true\n", "f.yaml:1: linha 4: a chave \"title\" aparece duas vezes"},
		{"a billion laughs", laughs(), "o arquivo se expande a mais de 20000 nós"},
		{"nesting too deep", head + "x: " + strings.Repeat("[", 80) + strings.Repeat("]", 80) + "\n", "aninhamento mais fundo que 64 níveis"},
		{"two documents", head + "steps:\n  - pay: true\n---\nid: z\n", "f.yaml:6: um cenário por arquivo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := scenario.Parse("f.yaml", []byte(tt.yaml), pix.ScenarioKinds, reg)
			if err == nil {
				t.Fatalf("loaded; want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error\n%v\nwant it to contain\n%s", err, tt.want)
			}
		})
	}
}

func TestParseReadsEveryPart(t *testing.T) {
	src := `id: demo
title: Demo
applies_to: cob
select: {field: valor.original, in: ["1.01", 2]}
seed: 7
steps:
  - after: 1m
    jitter: 10s
    pay: {valor: "1.00", divergent: true}
  - when: paid
    emit: {type: x.y, data: {a: 1}}
  - at: expiry
    after: 1d
    emit: {type: x.z}
faults:
  - match: {method: PUT, path: "/pix/v2/cob/*", body: {field: valor.original, equals: "1.01"}}
    phase: after
    times: 2
    reset: true
  - webhook: {event: "pix.*"}
    window: 1h
    delay: 5m
`
	s, err := scenario.Parse("demo.yaml", []byte(src), pix.ScenarioKinds, registry(t))
	if err != nil {
		t.Fatal(err)
	}
	if s.Seed != 7 || len(s.Steps) != 3 || len(s.Faults) != 2 {
		t.Fatalf("parsed %+v", s)
	}
	if st := s.Steps[0]; st.After != time.Minute || st.Jitter != 10*time.Second || st.Verb != "pay" || st.Args["valor"] != "1.00" || st.Line != 7 {
		t.Errorf("step 0 = %+v", st)
	}
	if st := s.Steps[2]; st.At != "expiry" || st.After != 24*time.Hour || st.Verb != "emit" || st.Args["type"] != "x.z" {
		t.Errorf("step 2 = %+v", st)
	}
	if f := s.Faults[0]; f.Phase != "after" || f.Times != 2 || !f.Reset || f.Match.Method != "PUT" {
		t.Errorf("fault 0 = %+v", f)
	}
	if f := s.Faults[1]; f.Delay != 5*time.Minute || f.Window != time.Hour || f.Webhook.Event != "pix.*" {
		t.Errorf("fault 1 = %+v", f)
	}
	if !s.Select.Match(map[string]any{"valor": map[string]any{"original": float64(2)}}) || s.Select.Match(map[string]any{"valor": map[string]any{"original": "3"}}) {
		t.Error("select rule")
	}
}

// The set is checked as a whole: ids unique per source, one default per
// kind; nothing is returned when it fails.
func TestBuildChecksTheSet(t *testing.T) {
	reg := registry(t)
	a := scenario.File{Name: "d/a.yaml", Data: []byte("id: aa\ntitle: A\napplies_to: cob\ndefault: true\n")}
	b := scenario.File{Name: "d/b.yaml", Data: []byte("id: bb\ntitle: B\napplies_to: cob\ndefault: true\n")}
	dup := scenario.File{Name: "d/c.yaml", Data: []byte("id: aa\ntitle: C\napplies_to: cob\nsteps:\n  - pay: true\n")}
	if _, err := scenario.Build([]scenario.File{a, b}, pix.ScenarioKinds, reg); err == nil || !strings.Contains(err.Error(), "cob já tem um cenário padrão: aa") {
		t.Errorf("two defaults: %v", err)
	}
	if _, err := scenario.Build([]scenario.File{a, dup}, pix.ScenarioKinds, reg); err == nil || !strings.Contains(err.Error(), "d/c.yaml:1: id: o id \"aa\" já é usado por d/a.yaml") {
		t.Errorf("duplicate id: %v", err)
	}
	over := scenario.File{Name: "mine/a.yaml", Data: dup.Data}
	c, err := scenario.Build([]scenario.File{a, over}, pix.ScenarioKinds, reg)
	if err != nil || c.Get("aa").File != "mine/a.yaml" {
		t.Errorf("a folder overrides a shipped id: %v", err)
	}
}

func TestPathMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"/pix/v2/cob/*", "/pix/v2/cob/abc", true},
		{"/pix/v2/cob/*", "/pix/v2/cob", false},
		{"/pix/v2/cob/*", "/pix/v2/cob/abc/x", false},
		{"/pix/v2/cob/**", "/pix/v2/cob", true},
		{"/pix/v2/cob/**", "/pix/v2/cob/a/b", true},
		{"/pix/v2/**/devolucao/*", "/pix/v2/pix/E1/devolucao/D1", true},
		{"/pix/v2/co*", "/pix/v2/cobv", true},
		{"/pix/v2/co*", "/pix/v2/loc", false},
	}
	for _, tt := range tests {
		if got := scenario.PathMatch(tt.pattern, tt.path); got != tt.want {
			t.Errorf("PathMatch(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}
