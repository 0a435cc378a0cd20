package customer

import (
	"encoding/json"
	"testing"

	"homologa/simulator/money"
)

// The enrollment's document keeps money in reais, as the API answers it;
// the code reads and writes it in cents.
func TestBodyMoneyInCents(t *testing.T) {
	doc := `{"coberturas":[{"capitalSegurado":1234.5,"itemProdutoId":1001,"premio":46.34}],"codigoModeloProposta":"YZ","produto":{"idProduto":511},"status":"ATIVA","valorContribuicao":46.34}`
	in := &Inscricao{ID: 1, Status: InscAtiva}
	if err := json.Unmarshal([]byte(doc), &in.Body); err != nil {
		t.Fatal(err)
	}
	if err := in.readBody(); err != nil {
		t.Fatal(err)
	}
	if in.ValorContribuicao != money.Cents(46_34) || in.Capital() != money.Cents(1234_50) || in.OfferID != "YZ" || in.ProdutoID != 511 {
		t.Fatalf("read %+v", in)
	}
	in.writeBody()
	b, _ := json.Marshal(in.Body)
	if string(b) != doc {
		t.Errorf("written %s\nwant     %s", b, doc)
	}
}
