package benefit

import (
	"encoding/json"
	"io/fs"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"homologa/scenarios"
	"homologa/schemas"
	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
	"homologa/simulator/money"
	"homologa/simulator/scenario"
	"homologa/simulator/schema"
	"homologa/simulator/taxid"
)

func ids(xs ...int) []int { return xs }

func TestClaimableMapsCausesToCoverages(t *testing.T) {
	morte := covInfo{ItemProdutoID: 1001, Descricao: "MORTE", Causas: ids(causaMorte), Capital: 200000}
	ipta := covInfo{ItemProdutoID: 1002, Descricao: "IPTA", Causas: ids(causaInvalidez), Capital: 100000}
	acid := covInfo{ItemProdutoID: 1003, Descricao: "MORTE ACIDENTAL", Causas: ids(causaMorteAcidente), Capital: 50000}
	funeral := covInfo{ItemProdutoID: 3001, Causas: ids(causaFuneral), Capital: 7000}
	grave := covInfo{ItemProdutoID: 5001, Causas: ids(causaDoencaGrave), Capital: 80000}
	vida := []covInfo{morte, ipta, acid}
	tests := []struct {
		name  string
		causa string
		covs  []covInfo
		item  int
		want  []int
	}{
		{"Death by the death cover", "MORTE", vida, 0, []int{1001}},
		{"AccidentalDeathPaysBothCapitals", "MORTE_ACIDENTAL", vida, 0, []int{1001, 1003}},
		{"AccidentalDeathByTheDeathCoverAlone", "MORTE_ACIDENTAL", []covInfo{morte}, 0, []int{1001}},
		{"AccidentalDeathNamingItsCover", "MORTE_ACIDENTAL", vida, 1003, []int{1003}},
		{"DeathIsNotAnAccidentalDeathCover", "MORTE", []covInfo{acid, ipta}, 0, nil},
		{"DisabilityTotal", "INVALIDEZ_TOTAL_POR_ACIDENTE", vida, 0, []int{1002}},
		{"DisabilityPartial", "INVALIDEZ_PARCIAL_POR_ACIDENTE", vida, 0, []int{1002}},
		{"NamedCoverThatDoesNotPay", "INVALIDEZ_TOTAL_POR_ACIDENTE", vida, 1001, nil},
		{"NamedCoverNotContracted", "MORTE", vida, 9999, nil},
		{"CriticalIllness", "DOENCA_GRAVE", []covInfo{grave}, 0, []int{5001}},
		{"CriticalIllnessNotInALifeOffer", "DOENCA_GRAVE", vida, 0, nil},
		{"Funeral", "FUNERAL", []covInfo{funeral}, 0, []int{3001}},
		{"HospitalisationNoOfferCovers", "INTERNACAO_HOSPITALAR", append(vida, funeral, grave), 0, nil},
		{"UnknownCause", "SOBREVIVENCIA", vida, 0, nil},
		{"CoverWithoutCatalogueCausas", "MORTE", []covInfo{{ItemProdutoID: 1}}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			for _, c := range claimable(tt.causa, tt.covs, tt.item) {
				got = append(got, c.ItemProdutoID)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("claimable(%s, item %d) = %v, want %v", tt.causa, tt.item, got, tt.want)
			}
		})
	}
}

// The catalogue is the other half of the mapping: every causa id a cause
// names must be one some coverage of the catalogue pays, or the cause
// could never be covered.
func TestCausesNameCatalogueCausas(t *testing.T) {
	c, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	known := map[int]string{}
	for _, o := range c.Offers() {
		for _, p := range o.Produtos {
			for _, cov := range p.Coberturas {
				for _, d := range cov.Causas {
					known[d.ID] = d.Descricao
				}
			}
		}
	}
	for name, spec := range causas {
		for _, id := range spec.Causas {
			if _, ok := known[id]; !ok {
				t.Errorf("cause %s names causa %d, which no coverage of the catalogue has", name, id)
			}
		}
	}
}

// A benefit is shared by the beneficiaries' PARTICIPACAO (exact
// decimals, any sum) to the cent, and the parts add up to it.
func TestSharesAddUpToTheCent(t *testing.T) {
	tests := []struct {
		name   string
		total  money.Cents
		shares []string
		want   []money.Cents
	}{
		{"SixtyForty", 200000_00, []string{"60", "40"}, []money.Cents{120000_00, 80000_00}},
		{"Thirds", 100_00, []string{"1", "1", "1"}, []money.Cents{33_34, 33_33, 33_33}},
		{"ThirdsOfACent", 1, []string{"1", "1", "1"}, []money.Cents{1, 0, 0}},
		{"SharesNotSummingTo100", 1000_00, []string{"50", "30"}, []money.Cents{625_00, 375_00}},
		{"LargestRemainderWins", 10_00, []string{"33.3", "33.3", "33.4"}, []money.Cents{3_33, 3_33, 3_34}},
		{"LargestRemainderNotTheFirst", 10, []string{"1", "2"}, []money.Cents{3, 7}},
		{"Sevenths", 7000_00, []string{"1", "1", "1", "1", "1", "1", "1"}, []money.Cents{1000_00, 1000_00, 1000_00, 1000_00, 1000_00, 1000_00, 1000_00}},
		{"OddCents", 1234_57, []string{"50", "50"}, []money.Cents{617_29, 617_28}},
		{"ThirdsToFourPlaces", 100_00, []string{"33.3333", "33.3333", "33.3334"}, []money.Cents{33_33, 33_33, 33_34}},
		{"Single", 7000_00, []string{"100"}, []money.Cents{7000_00}},
		{"NoShares", 100_00, nil, []money.Cents{}},
		{"ZeroShares", 100_00, []string{"0", "0"}, []money.Cents{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			weights := make([]int64, len(tt.shares))
			for i, s := range tt.shares {
				weights[i] = int64(money.MustParseRate(s))
			}
			got := tt.total.Apportion(weights)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Apportion(%v, %v) = %v, want %v", tt.total, tt.shares, got, tt.want)
			}
			var sum money.Cents
			for _, v := range got {
				sum += v
			}
			if len(weights) > 0 && weights[0] > 0 && sum != tt.total {
				t.Errorf("parts add up to %v, not %v", sum, tt.total)
			}
		})
	}
}

func TestBeneficiariosOf(t *testing.T) {
	var one, two, planos []map[string]any
	json.Unmarshal([]byte(`[{"NOME": "João Souza", "PARENTESCO": "CONJUGE", "PARTICIPACAO": "100", "CPF": "529.982.247-25"}]`), &one)
	json.Unmarshal([]byte(`[{"NOME": "João", "PARTICIPACAO": 60}, {"NOME": "Ana", "PARTICIPACAO": 40}]`), &two)
	json.Unmarshal([]byte(`[{"NOME": "João", "PARTICIPACAO": 100, "CD_PLANO": 511}, {"NOME": "Ana", "PARTICIPACAO": 100, "CD_PLANO": 512}]`), &planos)
	tests := []struct {
		name    string
		list    []map[string]any
		produto int
		want    []beneficiario
	}{
		{"None: legal heirs", nil, 511, []beneficiario{{Nome: herdeirosLegais, Percentual: whole}}},
		{"One, CPF unmasked", one, 511, []beneficiario{{CPF: "52998224725", Nome: "João Souza", Parentesco: "CONJUGE", Percentual: whole}}},
		{"Two", two, 511, []beneficiario{{Nome: "João", Percentual: 60 * money.RateOne}, {Nome: "Ana", Percentual: 40 * money.RateOne}}},
		{"Per plan", planos, 512, []beneficiario{{Nome: "Ana", Percentual: whole}}},
		{"Another plan's only: legal heirs", planos[:1], 512, []beneficiario{{Nome: herdeirosLegais, Percentual: whole}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := beneficiariosOf(tt.list, tt.produto); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("beneficiariosOf = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestMotivoRecusa(t *testing.T) {
	tests := []struct{ reason, desc, motivo, descricao string }{
		{"SEM_DOCUMENTACAO", "Faltou a certidão", "SEM_DOCUMENTACAO", "Faltou a certidão"},
		{"", "Recusa", "OUTROS", "Recusa"},
		{"Doença preexistente", "", "OUTROS", "Doença preexistente"},
		{"CARENCIA", "em carência", "OUTROS", "CARENCIA: em carência"},
	}
	for _, tt := range tests {
		if m, d := motivoRecusa(tt.reason, tt.desc); m != tt.motivo || d != tt.descricao {
			t.Errorf("motivoRecusa(%q, %q) = %q, %q; want %q, %q", tt.reason, tt.desc, m, d, tt.motivo, tt.descricao)
		}
	}
}

// Today and now are Brasília's (UTC−3): 13:07 UTC is 10:07 there, and
// 01:00 UTC on the 6th is still the 5th, at 22:00.
func TestOccurrenceNotFuture(t *testing.T) {
	morning := time.Date(2026, 1, 5, 13, 7, 0, 0, time.UTC)
	night := time.Date(2026, 1, 6, 1, 0, 0, 0, time.UTC)
	day := func(s string) time.Time { d, _ := wire.ParseDate(s); return d }
	tests := []struct {
		now               time.Time
		date, hora, field string
	}{
		{morning, "2026-01-05", "", ""},
		{morning, "2026-01-05", "10:07:00", ""},
		{morning, "2026-01-05", "10:08", "horaOcorrencia"},
		{morning, "2026-01-05", "13:07", "horaOcorrencia"},
		{morning, "2026-01-04", "23:59:59", ""},
		{morning, "2026-01-06", "", "dataOcorrencia"},
		{night, "2026-01-05", "21:59", ""},
		{night, "2026-01-05", "22:01", "horaOcorrencia"},
		{night, "2026-01-06", "", "dataOcorrencia"},
	}
	for _, tt := range tests {
		var vs violations
		checkOccurrenceNotFuture(&vs, day(tt.date), tt.hora, tt.now)
		got := ""
		if len(vs) > 0 {
			got = vs[0].field
		}
		if got != tt.field {
			t.Errorf("at %s, %s %s: violation on %q, want %q", tt.now, tt.date, tt.hora, got, tt.field)
		}
	}
}

// The schemas' enums are the code's lists: a cause, state or reason added
// on one side only would be refused by the schema or never written.
func TestSchemasMatchTheCode(t *testing.T) {
	raw, err := fs.ReadFile(schemas.FS, "insurance/beneficio.common.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Definitions map[string]struct {
			Enum []string `json:"enum"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	sorted := func(xs []string) []string { xs = slices.Clone(xs); sort.Strings(xs); return xs }
	var names []string
	for n := range causas {
		names = append(names, n)
	}
	var opin []string
	for _, v := range statusOpin {
		if !slices.Contains(opin, v) {
			opin = append(opin, v)
		}
	}
	for def, want := range map[string][]string{
		"causa": names, "statusBeneficio": beneficioMachine.States(), "motivoRecusa": motivosRecusa, "statusOpin": opin,
	} {
		if got := doc.Definitions[def].Enum; !reflect.DeepEqual(sorted(got), sorted(want)) {
			t.Errorf("beneficio.common.json %s = %v, the code has %v", def, sorted(got), sorted(want))
		}
	}
	for _, st := range beneficioMachine.States() {
		if statusOpin[st] == "" {
			t.Errorf("state %s has no OPIN status", st)
		}
	}
}

func TestMachinesAreWellFormed(t *testing.T) {
	for _, m := range []interface{ Validate() error }{beneficioMachine, pendenciaMachine} {
		if err := m.Validate(); err != nil {
			t.Error(err)
		}
	}
}

// The shipped benefit scenarios load against the kind, their magic CPFs
// are valid, and each selects on its own values.
func TestBenefitScenariosLoad(t *testing.T) {
	reg, err := schema.Load(schemas.FS)
	if err != nil {
		t.Fatal(err)
	}
	all, err := scenario.ReadFS(scenarios.FS, "scenarios/")
	if err != nil {
		t.Fatal(err)
	}
	var files []scenario.File
	for _, f := range all {
		if strings.Contains(f.Name, "beneficio-") {
			files = append(files, f)
		}
	}
	cat, err := scenario.Build(files, Kinds, reg)
	if err != nil {
		t.Fatalf("benefit scenarios do not load:\n%v", err)
	}
	if d := cat.Default("beneficio"); d == nil || d.ID != "beneficio-padrao" {
		t.Errorf("default of beneficio = %v, want beneficio-padrao", d)
	}
	if cat.Get(reopenScenario) == nil {
		t.Errorf("the reopening fallback %s is not shipped", reopenScenario)
	}
	seen := map[string]string{}
	for _, s := range cat.All() {
		if s.Select == nil {
			continue
		}
		for _, v := range s.Select.In {
			cpf := wire.Digits(v.(string))
			if err := taxid.CheckCPF(cpf); err != nil {
				t.Errorf("%s: magic CPF %v: %v", s.ID, v, err)
			}
			if prev, dup := seen[cpf]; dup && prev != s.ID {
				t.Errorf("magic CPF %s selects %s and %s", cpf, prev, s.ID)
			}
			seen[cpf] = s.ID
			if got := cat.Selected("beneficio", map[string]any{"comunicante": map[string]any{"documento": v}}); got == nil || got.ID != s.ID {
				t.Errorf("comunicante.documento %v selects %v, want %s", v, got, s.ID)
			}
		}
	}
}
