package schema

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"homologa/schemas"
)

// BenchmarkValidateCharge validates pixbench's charge body (a valid one,
// the common case) as a creation does, with its check and with
// gojsonschema alone.
func BenchmarkValidateCharge(b *testing.B) {
	const body = `{"calendario":{"expiracao":3600},"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},"valor":{"original":"123.45"},"chave":"52998224725","solicitacaoPagador":"Servico realizado: mensalidade de marco, pedido 4521.","infoAdicionais":[{"nome":"Pedido","valor":"4521-2026-03"},{"nome":"Cliente","valor":"Francisco da Silva, contrato 998877"}]}`
	reg, err := LoadLazy(schemas.FS)
	if err != nil {
		b.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(body)))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		b.Fatal(err)
	}
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if vs, err := reg.ValidateDocument("pix/cob.request", doc); err != nil || len(vs) > 0 {
				b.Fatal(vs, err)
			}
		}
	})
	b.Run("gojsonschema", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if vs, err := reg.validate("pix/cob.request", gojsonschema.NewRawLoader(doc)); err != nil || len(vs) > 0 {
				b.Fatal(vs, err)
			}
		}
	})
}
