package harness

import (
	"testing"

	"homologa/schemas"
	"homologa/simulator/schema"
)

func TestCheckContract(t *testing.T) {
	reg, err := schema.Load(schemas.FS)
	if err != nil {
		t.Fatal(err)
	}
	w := &World{Schemas: reg}
	tests := []struct {
		name, method, path string
		status             int
		body               string
		ok                 bool
	}{
		{"OK", "GET", "/pix/v2/pix/E12345678202009091221abcdef12345", 200,
			`{"endToEndId":"E12345678202009091221abcdef12345","valor":"1.00","horario":"2020-09-09T20:15:00.358Z"}`, true},
		{"ErrShortE2E", "GET", "/pix/v2/pix/E1", 200, `{"endToEndId":"E1","valor":"1.00","horario":"2020-09-09T20:15:00.358Z"}`, false},
		{"ErrProblemDialect", "GET", "/pix/v2/cob/x", 404, `{"error":"not found"}`, false},
		{"OKProblem", "GET", "/pix/v2/cob/x", 404, `{"type":"https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado","title":"Não encontrado","status":404}`, true},
		{"OKUnknownOperation", "GET", "/sandbox/events", 200, `{"anything":1}`, true},
		{"ErrOAuth", "POST", "/oauth/token", 200, `{"access_token":"short"}`, false},
	}
	for _, tt := range tests {
		err := w.checkContract(tt.method, tt.path, tt.status, []byte(tt.body))
		if (err == nil) != tt.ok {
			t.Errorf("%s: checkContract = %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
}
