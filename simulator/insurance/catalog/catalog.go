package catalog

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"homologa/simulator/money"
	"homologa/simulator/taxid"
)

//go:embed offers.yaml
var offersYAML []byte

// Coverage tipo ids (Cobertura.Tipo.ID). A 2025 MAG client reads tipoId 3
// as "adjustable capital"; 1 and 2 are the sandbox's.
const (
	TipoCapitalFixo      = 1 // the coverage insures valorFixo, whatever is asked
	TipoContribuicao     = 2 // pension: the capital is the monthly contribution
	TipoCapitalAjustavel = 3 // the partner chooses the capital
)

// Answer types of a questionnaire question (Pergunta.TipoResposta), named
// after the 2025 questionnaire service's TipoResposta.
const (
	RespostaSimNao  = "SIM_NAO"
	RespostaTexto   = "TEXTO"
	RespostaValor   = "VALOR"
	RespostaDominio = "DOMINIO"
	RespostaData    = "DATA"
)

// The kinds of value a VALOR question asks (Pergunta.Variacao), which the
// 2025 client draws an input for from the questionnaire service's
// TipoVariacaoResposta (insurance CLIENTS, additions, item 2): a weight
// in kilograms, a height in metres, or any number.
const (
	VariacaoPeso   = "PESO"
	VariacaoAltura = "ALTURA"
	VariacaoNumero = "NUMERO"
)

// DateTimeLayout is how the catalogue writes dataUltimaAlteracao: MAG's
// date-time without a zone, echoed verbatim by the API.
const DateTimeLayout = "2006-01-02T15:04:05"

// Dominio is MAG's {id, descricao} pair, used for every small domain.
type Dominio struct {
	ID        int    `json:"id" yaml:"id"`
	Descricao string `json:"descricao" yaml:"descricao"`
}

// Ref is how the reduced model (completo=false) and the offer's
// questionnaire list point at a full object.
type Ref struct {
	ID                  int    `json:"id" yaml:"id"`
	DataUltimaAlteracao string `json:"dataUltimaAlteracao" yaml:"dataUltimaAlteracao"`
}

// OfferHeader holds the fields an offer has in both the full and the
// reduced shape.
type OfferHeader struct {
	ID                      string      `json:"id" yaml:"id"`
	Nome                    string      `json:"nome" yaml:"nome"`
	DescricaoModeloProposta string      `json:"descricaoModeloProposta" yaml:"descricaoModeloProposta"`
	DataUltimaAlteracao     string      `json:"dataUltimaAlteracao" yaml:"dataUltimaAlteracao"`
	Namespace               string      `json:"namespace" yaml:"namespace"`
	FormasPagamento         []Dominio   `json:"formasPagamento" yaml:"formasPagamento"`
	DiasVencimento          []int       `json:"diasVencimento" yaml:"diasVencimento"`
	Periodicidades          []Dominio   `json:"periodicidades" yaml:"periodicidades"`
	TicketMinimo            money.Cents `json:"ticketMinimo" yaml:"ticketMinimo"`
	PoliticaValidacao       string      `json:"politicaValidacao" yaml:"politicaValidacao"`
	CanalComercializacao    Dominio     `json:"canalComercializacao" yaml:"canalComercializacao"`
	Grupo                   Dominio     `json:"grupo" yaml:"grupo"`
}

// Offer is one ModeloProposta in its full shape (completo=true).
type Offer struct {
	OfferHeader       `yaml:",inline"`
	Produtos          []Produto         `json:"produtos" yaml:"produtos"`
	PoliticaAceitacao PoliticaAceitacao `json:"politicaAceitacao" yaml:"politicaAceitacao"`
	Questionarios     []Ref             `json:"questionarios" yaml:"questionarios"`
	// Questionario is the questions behind the offer's questionnaire ref.
	// MAG serves them from a separate questionnaire API, so they are not
	// part of the offer's JSON.
	Questionario *Questionario `json:"-" yaml:"questionario"`
}

// ReducedOffer is the completo=false shape: products, acceptance policy
// and questionnaires shrink to refs.
type ReducedOffer struct {
	OfferHeader
	Produtos          []Ref `json:"produtos"`
	PoliticaAceitacao Ref   `json:"politicaAceitacao"`
	Questionarios     []Ref `json:"questionarios"`
}

// Produto is one product of an offer.
type Produto struct {
	ID                  int          `json:"id" yaml:"id"`
	Descricao           string       `json:"descricao" yaml:"descricao"`
	DescricaoComercial  string       `json:"descricaoComercial" yaml:"descricaoComercial"`
	DataUltimaAlteracao string       `json:"dataUltimaAlteracao" yaml:"dataUltimaAlteracao"`
	TipoProponente      Dominio      `json:"tipoProponente" yaml:"tipoProponente"`
	IdadeMinima         int          `json:"idadeMinima" yaml:"idadeMinima"`
	IdadeMaxima         int          `json:"idadeMaxima" yaml:"idadeMaxima"`
	IdadeExclusao       int          `json:"idadeExclusao" yaml:"idadeExclusao"` // 0: never (vitalícia)
	IndicarBeneficiario bool         `json:"indicarBeneficiario" yaml:"indicarBeneficiario"`
	ExigeDPS            bool         `json:"exigeDPS" yaml:"exigeDPS"`
	PrazoCerto          []int        `json:"prazoCerto" yaml:"prazoCerto"`
	PrazoRenda          []PrazoRenda `json:"prazoRenda" yaml:"prazoRenda"`
	Fundos              []Fundo      `json:"fundos" yaml:"fundos"`
	ProfissoesRecusadas []string     `json:"-" yaml:"profissoesRecusadas"` // CBO, "0000-00"
	UfsRecusadas        []string     `json:"ufsRecusadas" yaml:"ufsRecusadas"`
	Coberturas          []Cobertura  `json:"coberturas" yaml:"coberturas"`
}

// MarshalJSON writes profissoesRecusadas as the v2 model's numbers: each
// CBO's six digits ("2153-05" is 215305).
func (p Produto) MarshalJSON() ([]byte, error) {
	type plain Produto
	cbos := make([]int, 0, len(p.ProfissoesRecusadas))
	for _, c := range p.ProfissoesRecusadas {
		n, _ := strconv.Atoi(strings.Replace(c, "-", "", 1))
		cbos = append(cbos, n)
	}
	return json.Marshal(struct {
		plain
		ProfissoesRecusadas []int `json:"profissoesRecusadas"`
		produtoModelNulls
	}{plain(p), cbos, produtoModelNulls{}})
}

// produtoModelNulls are the fields of the v2 Produto model
// (M:ProdutoProduto.js; insurance CLIENTS §3.2) the catalogue does not
// have: present, and null, as the model has them. The generated client
// takes a null as it is (ApiClient.js convertToType returns null and
// undefined unchanged), where an absent field is not the model's.
type produtoModelNulls struct {
	DependenciasProdutos []int `json:"dependenciasProdutos"`
	Periodicidades       []int `json:"periodicidades"`
	PrazoDecrescimo      []int `json:"prazoDecrescimo"`
	IdadeAntecipacao     []int `json:"idadeAntecipacao"`
	TempoAntecipacao     []int `json:"tempoAntecipacao"`
	ProfissoesAceitas    []int `json:"profissoesAceitas"`
	FormasPagamento      []int `json:"formasPagamento"`
}

// coberturaModelNulls are the fields of the v2 Cobertura model
// (M:ProdutoCobertura.js) the catalogue has per product, not per
// coverage, or not at all: present, and null.
type coberturaModelNulls struct {
	PrazoCerto                    []int `json:"prazoCerto"`
	PrazoRenda                    []int `json:"prazoRenda"`
	TipoRelacaoSegurado           *int  `json:"tipoRelacaoSegurado"`
	IdadeExclusao                 *int  `json:"idadeExclusao"`
	IndicarBeneficiario           *bool `json:"indicarBeneficiario"`
	ExigeDPS                      *bool `json:"exigeDPS"`
	Fundos                        []int `json:"fundos"`
	ProfissoesRecusadas           []int `json:"profissoesRecusadas"`
	UfsRecusadas                  []int `json:"ufsRecusadas"`
	PrazoDecrescimo               []int `json:"prazoDecrescimo"`
	IdadeAntecipacao              []int `json:"idadeAntecipacao"`
	TempoAntecipacao              []int `json:"tempoAntecipacao"`
	DependenciasCoberturaProdutos []int `json:"dependenciasCoberturaProdutos"`
}

// PrazoRenda is a pension income option (years for the temporary kinds).
type PrazoRenda struct {
	ID          int    `json:"id" yaml:"id"`
	Descricao   string `json:"descricao" yaml:"descricao"`
	ValorMinimo int    `json:"valorMinimo" yaml:"valorMinimo"`
	ValorMaximo int    `json:"valorMaximo" yaml:"valorMaximo"`
}

// Fundo is an investment fund a pension product may invest in.
type Fundo struct {
	ID                      int        `json:"id" yaml:"id"`
	CNPJ                    string     `json:"cnpj" yaml:"cnpj"`
	Sigla                   string     `json:"sigla" yaml:"sigla"`
	NomeFantasia            string     `json:"nomeFantasia" yaml:"nomeFantasia"`
	PercentualRendaVariavel money.Rate `json:"percentualRendaVariavel" yaml:"percentualRendaVariavel"`
}

// Cobertura is one coverage of a product. TaxaPor1000 and CustoFixo feed
// Price and never leave the sandbox. In the JSON, capitalFixo is a number,
// as the v2 model declares it (insurance CLIENTS §8): the fixed capital,
// 0 when the partner chooses the capital.
type Cobertura struct {
	ID                            int         `json:"id" yaml:"id"`
	ItemProdutoID                 int         `json:"itemProdutoId" yaml:"itemProdutoId"`
	Descricao                     string      `json:"descricao" yaml:"descricao"`
	DescricaoComercial            string      `json:"descricaoComercial" yaml:"descricaoComercial"`
	Tipo                          Dominio     `json:"tipo" yaml:"tipo"`
	Causas                        []Dominio   `json:"causas" yaml:"causas"`
	Obrigatoria                   bool        `json:"obrigatoria" yaml:"obrigatoria"`
	CoberturaPrincipal            bool        `json:"coberturaPrincipal" yaml:"coberturaPrincipal"`
	IdadeEntrada                  int         `json:"idadeEntrada" yaml:"idadeEntrada"`
	IdadeSaida                    int         `json:"idadeSaida" yaml:"idadeSaida"`
	ValorMinimoCapitalContratacao money.Cents `json:"valorMinimoCapitalContratacao" yaml:"valorMinimoCapitalContratacao"`
	ValorLimiteCapitalReferencia  money.Cents `json:"valorLimiteCapitalReferencia" yaml:"valorLimiteCapitalReferencia"`
	CapitalFixo                   bool        `json:"-" yaml:"capitalFixo"`
	ValorFixo                     money.Cents `json:"valorFixo" yaml:"valorFixo"`
	NumeroProcessoSusep           string      `json:"numeroProcessoSusep" yaml:"numeroProcessoSusep"`
	// DescricaoDigitalCurta and DescricaoDigitalLonga are the texts the
	// 2025 client shows (GET /produto); by default the commercial
	// description, and it with the coverage's name.
	DescricaoDigitalCurta string      `json:"descricaoDigitalCurta" yaml:"descricaoDigitalCurta"`
	DescricaoDigitalLonga string      `json:"descricaoDigitalLonga" yaml:"descricaoDigitalLonga"`
	TaxaPor1000           money.Rate  `json:"-" yaml:"taxaPor1000"`
	CustoFixo             money.Cents `json:"-" yaml:"custoFixo"`
}

// MarshalJSON writes capitalFixo as the v2 model's number.
func (c Cobertura) MarshalJSON() ([]byte, error) {
	type plain Cobertura
	var fixed money.Cents
	if c.CapitalFixo {
		fixed = c.ValorFixo
	}
	return json.Marshal(struct {
		plain
		CapitalFixo money.Cents `json:"capitalFixo"`
		coberturaModelNulls
	}{plain(c), fixed, coberturaModelNulls{}})
}

// HasCausa reports whether the coverage pays for the given causa, which is
// how acceptance-policy limits find the coverages they apply to.
func (c *Cobertura) HasCausa(id int) bool {
	return slices.ContainsFunc(c.Causas, func(d Dominio) bool { return d.ID == id })
}

// Produto returns the offer's product id, nil when it has none.
func (o *Offer) Produto(id int) *Produto {
	for i := range o.Produtos {
		if o.Produtos[i].ID == id {
			return &o.Produtos[i]
		}
	}
	return nil
}

// Cobertura returns the product's coverage item (itemProdutoId), nil when
// it has none.
func (p *Produto) Cobertura(item int) *Cobertura {
	for i := range p.Coberturas {
		if p.Coberturas[i].ItemProdutoID == item {
			return &p.Coberturas[i]
		}
	}
	return nil
}

// PoliticaAceitacao is an offer's acceptance policy.
type PoliticaAceitacao struct {
	ID                  int    `json:"id" yaml:"id"`
	DataUltimaAlteracao string `json:"dataUltimaAlteracao" yaml:"dataUltimaAlteracao"`
	// The body-mass index bounds (kg/m²) are exact decimals too.
	ImcMinimoRecusa                   money.Rate          `json:"imcMinimoRecusa" yaml:"imcMinimoRecusa"`
	ImcMaximoRecusa                   money.Rate          `json:"imcMaximoRecusa" yaml:"imcMaximoRecusa"`
	ImcMinimoExame                    money.Rate          `json:"imcMinimoExame" yaml:"imcMinimoExame"`
	ImcMaximoExame                    money.Rate          `json:"imcMaximoExame" yaml:"imcMaximoExame"`
	CigarrosRecusa                    int                 `json:"cigarrosRecusa" yaml:"cigarrosRecusa"`
	CigarrosExame                     int                 `json:"cigarrosExame" yaml:"cigarrosExame"`
	LimitesOperacionaisPorProfissao   []LimiteProfissao   `json:"limitesOperacionaisPorProfissao" yaml:"limitesOperacionaisPorProfissao"`
	LimitesOperacionaisPorRenda       []LimiteRenda       `json:"limitesOperacionaisPorRenda" yaml:"limitesOperacionaisPorRenda"`
	LimitesOperacionaisPorFaixaEtaria []LimiteFaixaEtaria `json:"limitesOperacionaisPorFaixaEtaria" yaml:"limitesOperacionaisPorFaixaEtaria"`
}

// LimiteProfissao caps the capital of a causa for one profession (CBO).
type LimiteProfissao struct {
	Causa                      int         `json:"causa" yaml:"causa"`
	ProfissaoID                string      `json:"profissaoId" yaml:"profissaoId"`
	ValorMaximoCapitalSegurado money.Cents `json:"valorMaximoCapitalSegurado" yaml:"valorMaximoCapitalSegurado"`
}

// LimiteRenda caps the capital of a causa at multiploRenda × annual income
// for ages idadeInicial..idadeFinal.
type LimiteRenda struct {
	Causa         int        `json:"causa" yaml:"causa"`
	IdadeInicial  int        `json:"idadeInicial" yaml:"idadeInicial"`
	IdadeFinal    int        `json:"idadeFinal" yaml:"idadeFinal"`
	MultiploRenda money.Rate `json:"multiploRenda" yaml:"multiploRenda"`
}

// LimiteFaixaEtaria caps the capital of a causa for ages
// idadeInicial..idadeFinal.
type LimiteFaixaEtaria struct {
	Causa                      int         `json:"causa" yaml:"causa"`
	IdadeInicial               int         `json:"idadeInicial" yaml:"idadeInicial"`
	IdadeFinal                 int         `json:"idadeFinal" yaml:"idadeFinal"`
	ValorMaximoCapitalSegurado money.Cents `json:"valorMaximoCapitalSegurado" yaml:"valorMaximoCapitalSegurado"`
}

// Questionario is what a forms widget renders for an offer (a DPS, a
// suitability form…).
type Questionario struct {
	ID                  int    `json:"id" yaml:"id"`
	Descricao           string `json:"descricao" yaml:"descricao"`
	DataUltimaAlteracao string `json:"dataUltimaAlteracao" yaml:"dataUltimaAlteracao"`
	// Tipo, Sexo, RelacaoSegurado and Condicoes are what the v2 model
	// declares besides (M:QuestionarioQuestionario.js; insurance CLIENTS
	// §3.4): every questionnaire of the catalogue is a DPS of the holder,
	// for both sexes (null), always (no conditions). Load sets them.
	Tipo            TipoQuestionario `json:"tipo" yaml:"-"`
	Sexo            *Dominio         `json:"sexo" yaml:"-"`
	RelacaoSegurado Dominio          `json:"relacaoSegurado" yaml:"-"`
	Condicoes       []Condicao       `json:"condicoes" yaml:"-"`
	Perguntas       []Pergunta       `json:"perguntas" yaml:"perguntas"`
}

// TipoQuestionario is the v2 model's kind of questionnaire.
type TipoQuestionario struct {
	Sigla     string `json:"sigla"`
	ID        int    `json:"id"`
	Descricao string `json:"descricao"`
}

// Condicao is when a questionnaire applies, as the v2 model writes it.
type Condicao struct {
	Chave    string `json:"chave"`
	Operacao string `json:"operacao"`
	Valor    string `json:"valor"`
}

// The kind and the insured of every questionnaire of the catalogue.
var (
	TipoDPS         = TipoQuestionario{Sigla: "DPS", ID: 1, Descricao: "DECLARAÇÃO PESSOAL DE SAÚDE"}
	SeguradoTitular = Dominio{ID: 1, Descricao: "TITULAR"}
)

// Pergunta is one question. Opcoes is set only for DOMINIO answers. Tipo
// (the kind of item: 1 PERGUNTA) and Ordem (from 1) are what the v2
// model declares besides id and descricao; Load sets them.
type Pergunta struct {
	ID           int     `json:"id" yaml:"id"`
	Descricao    string  `json:"descricao" yaml:"descricao"`
	Tipo         Dominio `json:"tipo" yaml:"-"`
	Ordem        int     `json:"ordem" yaml:"-"`
	TipoResposta string  `json:"tipoResposta" yaml:"tipoResposta"`
	// Variacao is what a VALOR question's number is (VariacaoPeso,
	// VariacaoAltura, VariacaoNumero); "" for the other types.
	Variacao    string    `json:"-" yaml:"variacao"`
	Obrigatoria bool      `json:"obrigatoria" yaml:"obrigatoria"`
	Opcoes      []Dominio `json:"opcoes,omitempty" yaml:"opcoes"`
}

// TipoItemPergunta is the kind of item of every question of the
// catalogue (the questionnaire service's TipoItem 1).
var TipoItemPergunta = Dominio{ID: 1, Descricao: "PERGUNTA"}

// ItemDominio is one item of a domain list (GET /dominio/{id}): all
// strings, as the v2 model declares them, and Auxiliar is what a client
// sends back (a CBO's code as the simulation's profissaoCbo; insurance
// CLIENTS §3.1).
type ItemDominio struct {
	ID        string `json:"Id" yaml:"id"`
	Descricao string `json:"Descricao" yaml:"descricao"`
	Auxiliar  string `json:"Auxiliar" yaml:"auxiliar"`
}

// Catalog is the loaded, validated catalogue. It and everything it hands
// out are shared and must be treated as read-only.
type Catalog struct {
	offers        map[string]*Offer
	sorted        []*Offer
	questionarios map[int]*Questionario
	vendedores    map[string][]string
	dominios      map[string][]ItemDominio
}

// catalogFile is the YAML document.
type catalogFile struct {
	ModelosProposta []*Offer                 `yaml:"modelosProposta"`
	Vendedores      map[string][]string      `yaml:"vendedores"`
	Dominios        map[string][]ItemDominio `yaml:"dominios"`
}

// Load parses and validates the embedded offers.yaml.
func Load() (*Catalog, error) {
	c, err := parse(offersYAML)
	if err != nil {
		return nil, fmt.Errorf("catalog: offers.yaml: %w", err)
	}
	return c, nil
}

// parse is Load on any bytes, so tests can feed broken catalogues.
func parse(data []byte) (*Catalog, error) {
	var f catalogFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true) // a misspelt field would otherwise vanish silently
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("decode YAML: %w", err)
	}
	if err := validate(&f); err != nil {
		return nil, err
	}
	return build(&f), nil
}

func build(f *catalogFile) *Catalog {
	c := &Catalog{
		offers:        make(map[string]*Offer, len(f.ModelosProposta)),
		questionarios: make(map[int]*Questionario),
		vendedores:    make(map[string][]string, len(f.Vendedores)),
		dominios:      make(map[string][]ItemDominio, len(f.Dominios)),
	}
	for name, items := range f.Dominios {
		c.dominios[strings.ToUpper(name)] = items
	}
	for _, o := range f.ModelosProposta {
		normalize(o)
		c.offers[o.ID] = o
		c.sorted = append(c.sorted, o)
		c.questionarios[o.Questionario.ID] = o.Questionario
	}
	slices.SortFunc(c.sorted, func(a, b *Offer) int { return strings.Compare(a.ID, b.ID) })
	for cnpj, ids := range f.Vendedores {
		ids = slices.Clone(ids)
		slices.Sort(ids)
		c.vendedores[cnpj] = ids
	}
	return c
}

// normalize turns absent optional lists into empty ones, so the API
// answers [] rather than null.
func normalize(o *Offer) {
	for i := range o.Produtos {
		p := &o.Produtos[i]
		p.PrazoCerto = orEmpty(p.PrazoCerto)
		p.ProfissoesRecusadas = orEmpty(p.ProfissoesRecusadas)
		p.UfsRecusadas = orEmpty(p.UfsRecusadas)
		for j := range p.Coberturas {
			c := &p.Coberturas[j]
			c.DescricaoDigitalCurta = cmp.Or(c.DescricaoDigitalCurta, c.DescricaoComercial)
			c.DescricaoDigitalLonga = cmp.Or(c.DescricaoDigitalLonga, c.DescricaoComercial+" ("+c.Descricao+")")
		}
	}
	if q := o.Questionario; q != nil {
		q.Tipo, q.RelacaoSegurado, q.Condicoes = TipoDPS, SeguradoTitular, []Condicao{}
		for i := range q.Perguntas {
			q.Perguntas[i].Tipo, q.Perguntas[i].Ordem = TipoItemPergunta, i+1
		}
	}
	pol := &o.PoliticaAceitacao
	pol.LimitesOperacionaisPorProfissao = orEmpty(pol.LimitesOperacionaisPorProfissao)
	pol.LimitesOperacionaisPorRenda = orEmpty(pol.LimitesOperacionaisPorRenda)
	pol.LimitesOperacionaisPorFaixaEtaria = orEmpty(pol.LimitesOperacionaisPorFaixaEtaria)
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Offer returns the offer with that id.
func (c *Catalog) Offer(id string) (*Offer, bool) {
	o, ok := c.offers[id]
	return o, ok
}

// Offers returns every offer, sorted by id.
func (c *Catalog) Offers() []*Offer {
	return slices.Clone(c.sorted)
}

// Questionnaire returns the questionnaire with that id, as an offer's
// questionarios ref names it.
func (c *Catalog) Questionnaire(id int) (*Questionario, bool) {
	q, ok := c.questionarios[id]
	return q, ok
}

// Dominio returns the domain list named (CBO, SEXO, …; in any case).
func (c *Catalog) Dominio(name string) ([]ItemDominio, bool) {
	items, ok := c.dominios[strings.ToUpper(name)]
	return items, ok
}

// Dominios lists the names of the domains, sorted.
func (c *Catalog) Dominios() []string {
	return slices.Sorted(maps.Keys(c.dominios))
}

// SellableBy returns the ids of the offers the partner CNPJ may sell,
// sorted; none for an unknown CNPJ. A masked CNPJ is accepted.
func (c *Catalog) SellableBy(cnpj string) []string {
	return slices.Clone(c.vendedores[taxid.NormalizeCNPJ(cnpj)])
}

// Cobertura returns coverage item of product produto of offer, nil when
// the catalogue has none.
func (c *Catalog) Cobertura(offer string, produto, item int) *Cobertura {
	o, ok := c.offers[offer]
	if !ok {
		return nil
	}
	if p := o.Produto(produto); p != nil {
		return p.Cobertura(item)
	}
	return nil
}

// Reduced returns the completo=false shape of o.
func (c *Catalog) Reduced(o *Offer) ReducedOffer {
	r := ReducedOffer{
		OfferHeader: o.OfferHeader,
		Produtos:    make([]Ref, 0, len(o.Produtos)),
		PoliticaAceitacao: Ref{
			ID:                  o.PoliticaAceitacao.ID,
			DataUltimaAlteracao: o.PoliticaAceitacao.DataUltimaAlteracao,
		},
		Questionarios: slices.Clone(o.Questionarios),
	}
	for _, p := range o.Produtos {
		r.Produtos = append(r.Produtos, Ref{ID: p.ID, DataUltimaAlteracao: p.DataUltimaAlteracao})
	}
	return r
}

var (
	offerIDPattern = regexp.MustCompile(`^[A-Za-z0-9]{1,10}$`)
	cboPattern     = regexp.MustCompile(`^\d{4}-\d{2}$`)
	susepPattern   = regexp.MustCompile(`^\d{5}\.\d{6}/\d{4}-\d{2}$`)
)

// formasPagamento and periodicidades are closed domains: pricing depends
// on the periodicity ids, and partners map both to their own screens.
var (
	formasPagamento = map[int]string{1: "BOLETO", 2: "CARTAO", 3: "DEBITO", 4: "FOLHA"}
	periodicidades  = map[int]string{30: "MENSAL", 90: "TRIMESTRAL", 180: "SEMESTRAL", 360: "ANUAL"}
	respostas       = []string{RespostaSimNao, RespostaTexto, RespostaValor, RespostaDominio, RespostaData}
)

// ufs are the 27 Brazilian federative units.
var ufs = []string{"AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA",
	"PB", "PE", "PI", "PR", "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO"}

// problems collects every validation failure, so one run of Load lists
// all the catalogue's mistakes.
type problems struct{ errs []error }

func (p *problems) add(where, format string, args ...any) {
	p.errs = append(p.errs, fmt.Errorf("%s: %s", where, fmt.Sprintf(format, args...)))
}

func (p *problems) err() error { return errors.Join(p.errs...) }

func validate(f *catalogFile) error {
	var p problems
	if len(f.ModelosProposta) == 0 {
		p.add("modelosProposta", "no offers")
	}
	offerIDs := map[string]bool{}
	items := map[int]string{}          // itemProdutoId → where first seen
	questionnaires := map[int]string{} // questionario id → offer id
	for i, o := range f.ModelosProposta {
		if o == nil {
			p.add(fmt.Sprintf("modelosProposta[%d]", i), "empty offer")
			continue
		}
		where := fmt.Sprintf("offer %q", o.ID)
		if offerIDs[o.ID] {
			p.add(where, "id: duplicate offer id")
		}
		offerIDs[o.ID] = true
		validateOffer(&p, where, o)
		for _, prod := range o.Produtos {
			for _, c := range prod.Coberturas {
				if first, dup := items[c.ItemProdutoID]; dup && c.ItemProdutoID != 0 {
					p.add(fmt.Sprintf("%s: produto %d", where, prod.ID),
						"itemProdutoId %d: already used by %s", c.ItemProdutoID, first)
				} else {
					items[c.ItemProdutoID] = fmt.Sprintf("offer %q produto %d", o.ID, prod.ID)
				}
			}
		}
		if q := o.Questionario; q != nil {
			if other, dup := questionnaires[q.ID]; dup {
				p.add(where, "questionario.id %d: already used by offer %q", q.ID, other)
			}
			questionnaires[q.ID] = o.ID
		}
	}
	validateVendedores(&p, f.Vendedores, offerIDs)
	validateDominios(&p, f)
	return p.err()
}

func validateOffer(p *problems, where string, o *Offer) {
	if !offerIDPattern.MatchString(o.ID) {
		p.add(where, "id: must be 1 to 10 letters or digits")
	}
	requireText(p, where, "nome", o.Nome)
	requireText(p, where, "descricaoModeloProposta", o.DescricaoModeloProposta)
	requireText(p, where, "namespace", o.Namespace)
	requireText(p, where, "politicaValidacao", o.PoliticaValidacao)
	checkDate(p, where, "dataUltimaAlteracao", o.DataUltimaAlteracao)
	checkDomain(p, where, "formasPagamento", o.FormasPagamento, formasPagamento)
	checkDomain(p, where, "periodicidades", o.Periodicidades, periodicidades)
	if len(o.DiasVencimento) == 0 {
		p.add(where, "diasVencimento: empty")
	}
	for _, d := range o.DiasVencimento {
		if d < 1 || d > 31 {
			p.add(where, "diasVencimento: %d is not a day of the month", d)
		}
	}
	if o.TicketMinimo <= 0 {
		p.add(where, "ticketMinimo: must be positive")
	}
	if o.CanalComercializacao.ID <= 0 {
		p.add(where, "canalComercializacao.id: must be positive")
	}
	if o.Grupo.ID <= 0 || o.Grupo.Descricao == "" {
		p.add(where, "grupo: needs id and descricao")
	}
	if len(o.Produtos) == 0 {
		p.add(where, "produtos: empty")
	}
	produtoIDs := map[int]bool{}
	for i := range o.Produtos {
		prod := &o.Produtos[i]
		if produtoIDs[prod.ID] {
			p.add(where, "produtos: duplicate id %d", prod.ID)
		}
		produtoIDs[prod.ID] = true
		validateProduto(p, fmt.Sprintf("%s: produto %d", where, prod.ID), prod)
	}
	validatePolitica(p, where, o)
	validateQuestionario(p, where, o)
}

func validateProduto(p *problems, where string, prod *Produto) {
	if prod.ID <= 0 {
		p.add(where, "id: must be positive")
	}
	requireText(p, where, "descricao", prod.Descricao)
	checkDate(p, where, "dataUltimaAlteracao", prod.DataUltimaAlteracao)
	if prod.TipoProponente.ID <= 0 {
		p.add(where, "tipoProponente.id: must be positive")
	}
	if prod.IdadeMinima < 0 || prod.IdadeMinima > prod.IdadeMaxima {
		p.add(where, "idadeMinima %d / idadeMaxima %d: need 0 <= idadeMinima <= idadeMaxima",
			prod.IdadeMinima, prod.IdadeMaxima)
	}
	if prod.IdadeExclusao != 0 && prod.IdadeExclusao <= prod.IdadeMaxima {
		p.add(where, "idadeExclusao %d: must exceed idadeMaxima %d (0 means never)",
			prod.IdadeExclusao, prod.IdadeMaxima)
	}
	for _, prazo := range prod.PrazoCerto {
		if prazo <= 0 {
			p.add(where, "prazoCerto: %d is not a positive term", prazo)
		}
	}
	for _, r := range prod.PrazoRenda {
		if r.ValorMinimo < 0 || r.ValorMinimo > r.ValorMaximo {
			p.add(where, "prazoRenda %d: valorMinimo %d / valorMaximo %d out of order", r.ID, r.ValorMinimo, r.ValorMaximo)
		}
	}
	for _, fundo := range prod.Fundos {
		if err := taxid.CheckCNPJ(fundo.CNPJ); err != nil {
			p.add(where, "fundos %d: cnpj %q: %v", fundo.ID, fundo.CNPJ, err)
		}
		if fundo.PercentualRendaVariavel < 0 || fundo.PercentualRendaVariavel > 100*money.RateOne {
			p.add(where, "fundos %d: percentualRendaVariavel must be 0..100", fundo.ID)
		}
	}
	for _, cbo := range prod.ProfissoesRecusadas {
		if !cboPattern.MatchString(cbo) {
			p.add(where, "profissoesRecusadas: %q is not a CBO code 0000-00", cbo)
		}
	}
	for _, uf := range prod.UfsRecusadas {
		if !slices.Contains(ufs, uf) {
			p.add(where, "ufsRecusadas: %q is not a UF", uf)
		}
	}
	if len(prod.Coberturas) == 0 {
		p.add(where, "coberturas: empty")
	}
	principal := 0
	coberturaIDs := map[int]bool{}
	for i := range prod.Coberturas {
		c := &prod.Coberturas[i]
		if coberturaIDs[c.ID] {
			p.add(where, "coberturas: duplicate id %d", c.ID)
		}
		coberturaIDs[c.ID] = true
		if c.CoberturaPrincipal {
			principal++
		}
		validateCobertura(p, fmt.Sprintf("%s: cobertura %d", where, c.ItemProdutoID), prod, c)
	}
	if principal != 1 {
		p.add(where, "coberturas: %d have coberturaPrincipal, want exactly 1", principal)
	}
}

func validateCobertura(p *problems, where string, prod *Produto, c *Cobertura) {
	if c.ItemProdutoID <= 0 {
		p.add(where, "itemProdutoId: must be positive")
	}
	if c.ID <= 0 {
		p.add(where, "id: must be positive")
	}
	requireText(p, where, "descricao", c.Descricao)
	if !susepPattern.MatchString(c.NumeroProcessoSusep) {
		p.add(where, "numeroProcessoSusep %q: want 00000.000000/0000-00", c.NumeroProcessoSusep)
	}
	if c.CoberturaPrincipal && !c.Obrigatoria {
		p.add(where, "obrigatoria: the coberturaPrincipal must be obrigatoria")
	}
	if c.Tipo.ID < TipoCapitalFixo || c.Tipo.ID > TipoCapitalAjustavel {
		p.add(where, "tipo.id %d: want 1 (capital fixo), 2 (contribuição) or 3 (capital ajustável)", c.Tipo.ID)
	}
	if c.CapitalFixo != (c.Tipo.ID == TipoCapitalFixo) {
		p.add(where, "capitalFixo %t disagrees with tipo.id %d", c.CapitalFixo, c.Tipo.ID)
	}
	if len(c.Causas) == 0 {
		p.add(where, "causas: empty (acceptance limits find coverages by causa)")
	}
	if c.IdadeEntrada < 0 || c.IdadeEntrada > c.IdadeSaida {
		p.add(where, "idadeEntrada %d / idadeSaida %d: need 0 <= idadeEntrada <= idadeSaida", c.IdadeEntrada, c.IdadeSaida)
	} else if c.IdadeEntrada > prod.IdadeMaxima || c.IdadeSaida < prod.IdadeMinima {
		p.add(where, "idadeEntrada..idadeSaida %d..%d: no age in the product's %d..%d",
			c.IdadeEntrada, c.IdadeSaida, prod.IdadeMinima, prod.IdadeMaxima)
	}
	validateCapital(p, where, c)
	if c.TaxaPor1000 <= 0 {
		p.add(where, "taxaPor1000: must be positive")
	}
	if c.CustoFixo < 0 {
		p.add(where, "custoFixo: must not be negative")
	}
	if c.CustoFixo != 0 && !c.CapitalFixo {
		// The clients price capital ÷ capitalBase × premioBase and add
		// nothing: a cost on top would make every premium they send wrong.
		p.add(where, "custoFixo: only a capitalFixo coverage has one")
	}
}

func validateCapital(p *problems, where string, c *Cobertura) {
	if c.ValorMinimoCapitalContratacao <= 0 || c.ValorMinimoCapitalContratacao > c.ValorLimiteCapitalReferencia {
		p.add(where, "valorMinimoCapitalContratacao %v / valorLimiteCapitalReferencia %v: need 0 < minimum <= limit",
			c.ValorMinimoCapitalContratacao, c.ValorLimiteCapitalReferencia)
	}
	switch {
	case c.CapitalFixo && (c.ValorFixo < c.ValorMinimoCapitalContratacao || c.ValorFixo > c.ValorLimiteCapitalReferencia):
		p.add(where, "valorFixo %v: must lie within valorMinimoCapitalContratacao..valorLimiteCapitalReferencia", c.ValorFixo)
	case !c.CapitalFixo && c.ValorFixo != 0:
		p.add(where, "valorFixo %v: only a capitalFixo coverage has one", c.ValorFixo)
	}
}

func validatePolitica(p *problems, offerWhere string, o *Offer) {
	pol := &o.PoliticaAceitacao
	where := offerWhere + ": politicaAceitacao"
	if pol.ID <= 0 {
		p.add(where, "id: must be positive")
	}
	checkDate(p, where, "dataUltimaAlteracao", pol.DataUltimaAlteracao)
	checkPair(p, where, "imcMinimoRecusa", "imcMaximoRecusa", pol.ImcMinimoRecusa, pol.ImcMaximoRecusa)
	checkPair(p, where, "imcMinimoExame", "imcMaximoExame", pol.ImcMinimoExame, pol.ImcMaximoExame)
	if pol.CigarrosRecusa < 0 || pol.CigarrosExame < 0 {
		p.add(where, "cigarrosRecusa / cigarrosExame: must not be negative")
	}
	usedCausa := func(field string, i, causa int) {
		for _, prod := range o.Produtos {
			for _, c := range prod.Coberturas {
				if c.HasCausa(causa) {
					return
				}
			}
		}
		p.add(where, "%s[%d].causa %d: no coverage of the offer has it", field, i, causa)
	}
	for i, l := range pol.LimitesOperacionaisPorProfissao {
		usedCausa("limitesOperacionaisPorProfissao", i, l.Causa)
		if !cboPattern.MatchString(l.ProfissaoID) {
			p.add(where, "limitesOperacionaisPorProfissao[%d].profissaoId %q: not a CBO code 0000-00", i, l.ProfissaoID)
		}
		if l.ValorMaximoCapitalSegurado <= 0 {
			p.add(where, "limitesOperacionaisPorProfissao[%d].valorMaximoCapitalSegurado: must be positive", i)
		}
	}
	for i, l := range pol.LimitesOperacionaisPorRenda {
		usedCausa("limitesOperacionaisPorRenda", i, l.Causa)
		checkAgeBand(p, where, "limitesOperacionaisPorRenda", i, l.IdadeInicial, l.IdadeFinal)
		if l.MultiploRenda <= 0 {
			p.add(where, "limitesOperacionaisPorRenda[%d].multiploRenda: must be positive", i)
		}
	}
	for i, l := range pol.LimitesOperacionaisPorFaixaEtaria {
		usedCausa("limitesOperacionaisPorFaixaEtaria", i, l.Causa)
		checkAgeBand(p, where, "limitesOperacionaisPorFaixaEtaria", i, l.IdadeInicial, l.IdadeFinal)
		if l.ValorMaximoCapitalSegurado <= 0 {
			p.add(where, "limitesOperacionaisPorFaixaEtaria[%d].valorMaximoCapitalSegurado: must be positive", i)
		}
	}
}

func validateQuestionario(p *problems, where string, o *Offer) {
	q := o.Questionario
	if q == nil {
		p.add(where, "questionario: missing (every offer needs one)")
		return
	}
	qWhere := fmt.Sprintf("%s: questionario %d", where, q.ID)
	if q.ID <= 0 {
		p.add(qWhere, "id: must be positive")
	}
	requireText(p, qWhere, "descricao", q.Descricao)
	checkDate(p, qWhere, "dataUltimaAlteracao", q.DataUltimaAlteracao)
	// The refs are what the API shows; they must point at this definition.
	want := Ref{ID: q.ID, DataUltimaAlteracao: q.DataUltimaAlteracao}
	if !slices.Equal(o.Questionarios, []Ref{want}) {
		p.add(where, "questionarios: want exactly [{id: %d, dataUltimaAlteracao: %q}] (the questionario's)",
			q.ID, q.DataUltimaAlteracao)
	}
	if len(q.Perguntas) == 0 {
		p.add(qWhere, "perguntas: empty")
	}
	ids := map[int]bool{}
	for _, pg := range q.Perguntas {
		pWhere := fmt.Sprintf("%s: pergunta %d", qWhere, pg.ID)
		if ids[pg.ID] {
			p.add(pWhere, "id: duplicate")
		}
		ids[pg.ID] = true
		requireText(p, pWhere, "descricao", pg.Descricao)
		validateRespostas(p, pWhere, &pg)
	}
}

func validateRespostas(p *problems, where string, pg *Pergunta) {
	if !slices.Contains(respostas, pg.TipoResposta) {
		p.add(where, "tipoResposta %q: want one of %s", pg.TipoResposta, strings.Join(respostas, ", "))
	}
	switch {
	case pg.TipoResposta == RespostaValor && !slices.Contains([]string{VariacaoPeso, VariacaoAltura, VariacaoNumero}, pg.Variacao):
		p.add(where, "variacao %q: a VALOR question is a %s, an %s or a %s", pg.Variacao, VariacaoPeso, VariacaoAltura, VariacaoNumero)
	case pg.TipoResposta != RespostaValor && pg.Variacao != "":
		p.add(where, "variacao: only a VALOR question has one")
	}
	if pg.TipoResposta != RespostaDominio {
		if len(pg.Opcoes) > 0 {
			p.add(where, "opcoes: only a DOMINIO question has options")
		}
		return
	}
	if len(pg.Opcoes) == 0 {
		p.add(where, "opcoes: a DOMINIO question needs options")
	}
	seen := map[int]bool{}
	for _, op := range pg.Opcoes {
		if seen[op.ID] || op.Descricao == "" {
			p.add(where, "opcoes: option %d is duplicate or has no descricao", op.ID)
		}
		seen[op.ID] = true
	}
}

// validateDominios checks the domain lists: items with an id and a
// description, the CBO's items as CBO codes, and every profession the
// offers name among them (a partner picks professions from that list).
func validateDominios(p *problems, f *catalogFile) {
	cbo, ok := f.Dominios["CBO"]
	if !ok {
		p.add("dominios", "CBO: missing (the clients read it for profissaoCbo)")
	}
	codes := map[string]bool{}
	for name, items := range f.Dominios {
		if len(items) == 0 {
			p.add("dominios "+name, "empty")
		}
		for i, it := range items {
			if it.ID == "" || it.Descricao == "" {
				p.add(fmt.Sprintf("dominios %s[%d]", name, i), "needs id and descricao")
			}
		}
	}
	for i, it := range cbo {
		if !cboPattern.MatchString(it.Auxiliar) || it.ID != strings.Replace(it.Auxiliar, "-", "", 1) {
			p.add(fmt.Sprintf("dominios CBO[%d]", i), "auxiliar %q: want 0000-00, and id its digits", it.Auxiliar)
		}
		codes[it.Auxiliar] = true
	}
	for _, o := range f.ModelosProposta {
		if o == nil {
			continue
		}
		var named []string
		for _, prod := range o.Produtos {
			named = append(named, prod.ProfissoesRecusadas...)
		}
		for _, l := range o.PoliticaAceitacao.LimitesOperacionaisPorProfissao {
			named = append(named, l.ProfissaoID)
		}
		for _, c := range named {
			if ok && !codes[c] {
				p.add(fmt.Sprintf("offer %q", o.ID), "profession %s is not in dominios CBO", c)
			}
		}
	}
}

func validateVendedores(p *problems, vendedores map[string][]string, offerIDs map[string]bool) {
	for cnpj, ids := range vendedores {
		where := fmt.Sprintf("vendedores %q", cnpj)
		if err := taxid.CheckCNPJ(cnpj); err != nil {
			p.add(where, "not a CNPJ: %v", err)
		}
		seen := map[string]bool{}
		for _, id := range ids {
			if !offerIDs[id] {
				p.add(where, "offer %q: no such offer", id)
			}
			if seen[id] {
				p.add(where, "offer %q: listed twice", id)
			}
			seen[id] = true
		}
	}
}

func requireText(p *problems, where, field, v string) {
	if strings.TrimSpace(v) == "" {
		p.add(where, "%s: empty", field)
	}
}

func checkDate(p *problems, where, field, v string) {
	if _, err := time.Parse(DateTimeLayout, v); err != nil {
		p.add(where, "%s %q: want YYYY-MM-DDTHH:MM:SS", field, v)
	}
}

// checkDomain requires a non-empty list of known ids with their canonical
// descriptions, each once.
func checkDomain(p *problems, where, field string, list []Dominio, known map[int]string) {
	if len(list) == 0 {
		p.add(where, "%s: empty", field)
	}
	seen := map[int]bool{}
	for _, d := range list {
		want, ok := known[d.ID]
		switch {
		case !ok:
			p.add(where, "%s: unknown id %d", field, d.ID)
		case d.Descricao != want:
			p.add(where, "%s: id %d is %q, not %q", field, d.ID, want, d.Descricao)
		case seen[d.ID]:
			p.add(where, "%s: id %d listed twice", field, d.ID)
		}
		seen[d.ID] = true
	}
}

// checkPair accepts 0/0 (no such rule) or minimum < maximum.
func checkPair(p *problems, where, minField, maxField string, lo, hi money.Rate) {
	if lo == 0 && hi == 0 {
		return
	}
	if lo < 0 || lo >= hi {
		p.add(where, "%s %v / %s %v: need 0 <= minimum < maximum", minField, lo, maxField, hi)
	}
}

func checkAgeBand(p *problems, where, field string, i, from, to int) {
	if from < 0 || from > to {
		p.add(where, "%s[%d]: idadeInicial %d / idadeFinal %d out of order", field, i, from, to)
	}
}
