package jsondoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// reference is what Decode stands for: a Decoder with UseNumber, one
// value and nothing after it but white space.
func reference(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the document")
	}
	return v, nil
}

// Decode agrees with encoding/json, value for value and on what it
// refuses, on documents written by json.Marshal with white space added,
// on texts with the escapes, numbers and bytes a hand-written body may
// hold, and on every one of them cut short or with a byte changed.
func TestDecodeIsEncodingJSONs(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(3, 4))}
	pieces := []string{`{`, `}`, `[`, `]`, `:`, `,`, ` `, "\t", "\n", "\r", `"a"`, `"\u00e9"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00\ud83d"`,
		`"\ud83d\u0041"`, `"\ud83dx"`, `"\u12"`, `"\x"`, `"\/\b\f\n\r\t\"\\"`, `"\'"`, "\"\x01\"", "\"\xff\"", "\"\xc3\xa7\"", "\"\xed\xa0\x80\"",
		`0`, `-0`, `01`, `1.`, `.5`, `1e`, `1e+`, `-`, `1.5e-7`, `12E+3`, `123456789012345678901234567890`, `1e400`, `-1.0e0`,
		`true`, `false`, `null`, `tru`, `nul`, `"k":`, `{"a":1,"a":2}`, `[]`, `{}`, `[1,]`, `{,}`, "\ufeff"}
	texts := []string{``, ` `, `{}`, `[]`, `""`, strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001), strings.Repeat(`[`, 10000) + strings.Repeat(`]`, 10000),
		strings.Repeat(`{"a":`, 10001) + `1` + strings.Repeat(`}`, 10001)}
	for range 3000 {
		b, err := json.Marshal(g.value(0))
		if err != nil {
			continue
		}
		if g.r.IntN(2) == 0 { // white space between tokens
			var spaced []byte
			for _, c := range b {
				spaced = append(spaced, c)
				if (c == ',' || c == ':' || c == '{' || c == '[') && g.r.IntN(2) == 0 {
					spaced = append(spaced, " \n\t\r"[g.r.IntN(4)])
				}
			}
			b = spaced
		}
		texts = append(texts, string(b))
		var s strings.Builder
		for range g.r.IntN(8) {
			s.WriteString(pieces[g.r.IntN(len(pieces))])
		}
		texts = append(texts, s.String())
	}
	checked := 0
	for _, text := range texts {
		variants := []string{text}
		if len(text) > 0 && len(text) < 5000 {
			i := g.r.IntN(len(text))
			variants = append(variants, text[:i], text[:i]+string(rune(g.r.IntN(128)))+text[i+1:], text+" x")
		}
		for _, v := range variants {
			want, werr := reference([]byte(v))
			got, err := Decode([]byte(v))
			if (werr == nil) != (err == nil) || !reflect.DeepEqual(got, want) {
				t.Fatalf("%q:\n got %#v, %v\nwant %#v, %v", v, got, err, want, werr)
			}
			checked++
		}
	}
	t.Logf("%d texts", checked)
}

func BenchmarkDecode(b *testing.B) {
	body := []byte(`{"calendario":{"expiracao":3600},"devedor":{"cnpj":"12345678000195","nome":"Empresa de Serviços SA"},"valor":{"original":"37.00","modalidadeAlteracao":1},"chave":"7d9f0335-8dcc-4054-9bf9-0dbd61d36906","solicitacaoPagador":"Serviço realizado.","infoAdicionais":[{"nome":"Campo 1","valor":"Informação Adicional1 do PSP-Recebedor"},{"nome":"Campo 2","valor":"Informação Adicional2 do PSP-Recebedor"}]}`)
	b.Run("jsondoc", func(b *testing.B) {
		for b.Loop() {
			Decode(body)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			reference(body)
		}
	})
}
