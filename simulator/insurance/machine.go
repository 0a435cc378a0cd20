package insurance

import (
	"net/http"
	"strconv"

	"homologa/simulator/insurance/catalog"
	"homologa/simulator/insurance/wire"
)

// The pending states, shared with the sale's pendings.
const (
	Aberta        = wire.Aberta
	Respondida    = wire.Respondida
	Resolvida     = wire.Resolvida
	Rejeitada     = wire.Rejeitada
	PendCancelada = wire.PendCancelada
)

const maxDocument = wire.MaxDocument

var brasilia = wire.Brasilia

func checkCNPJ(r *http.Request, names ...string) error { return wire.CheckCNPJ(r, names...) }

func b10(n int64) string { return strconv.FormatInt(n, 10) }

func productOf(o *catalog.Offer, id int) *catalog.Produto { return o.Produto(id) }

func coverageOf(p *catalog.Produto, item int) *catalog.Cobertura { return p.Cobertura(item) }
