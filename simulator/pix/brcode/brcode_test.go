package brcode

import (
	"errors"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// specExamples are the pixCopiaECola values of openapi.yaml 2.9.0
// (recResponse3 / JORNADA_2, recResponse6 / JORNADA_3, recResponse7 /
// JORNADA_4), copied verbatim so the test does not depend on the reference
// folder. All three CRCs are correct.
var specExamples = []struct {
	name, s, url, rec string
}{
	{
		"JORNADA_2",
		"00020126180014br.gov.bcb.pix5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002630462C9",
		"",
		"pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002",
	},
	{
		"JORNADA_3",
		"00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa35319489063047741",
		"pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd441",
		"pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa353194890",
	},
	{
		"JORNADA_4",
		"00020101021226810014br.gov.bcb.pix2559pix.example.com/qr/v2/cobv/1e6c54d3ec9449b7a7fc53b6b0f998e75204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/3ffa640fa4f14080adccb949fa2dc0d06304A441",
		"pix.example.com/qr/v2/cobv/1e6c54d3ec9449b7a7fc53b6b0f998e7",
		"pix.example.com/qr/v2/rec/3ffa640fa4f14080adccb949fa2dc0d0",
	},
}

func TestCRC16(t *testing.T) {
	tests := []struct{ in, want string }{
		{"123456789", "29B1"}, // the CRC-16/CCITT-FALSE check value
		{"", "FFFF"},
		{"A", "B915"},
	}
	for _, tt := range tests {
		if got := CRC16(tt.in); got != tt.want {
			t.Errorf("CRC16(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseSpecExamples(t *testing.T) {
	for _, ex := range specExamples {
		t.Run(ex.name, func(t *testing.T) {
			f, err := Parse(ex.s)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := f.URL(); got != ex.url {
				t.Errorf("URL() = %q, want %q", got, ex.url)
			}
			if f.Top["59"] != "Fulano de Tal" || f.Top["60"] != "BRASILIA" {
				t.Errorf("name/city = %q/%q", f.Top["59"], f.Top["60"])
			}
			if f.Additional["05"] != "***" {
				t.Errorf("62/05 = %q, want ***", f.Additional["05"])
			}
			rec, err := f.Template("80")
			if err != nil {
				t.Fatalf("Template(80): %v", err)
			}
			if rec["00"] != GUI || rec["25"] != ex.rec {
				t.Errorf("template 80 = %v, want GUI and %q", rec, ex.rec)
			}
		})
	}
}

// TestParseReferenceFiles parses every pixCopiaECola literal of the
// official spec's examples (the copy kept in schemas/testdata), so a newly
// added example is covered without editing this file.
func TestParseReferenceFiles(t *testing.T) {
	re := regexp.MustCompile(`"?pixCopiaECola"?\s*:\s*"?(000201[ -~]*?\d{4}[0-9A-Fa-f]{4})"?,?\s*$`)
	found := 0
	for _, path := range []string{"../../../schemas/testdata/pix-examples.json"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			m := re.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			found++
			if _, err := Parse(m[1]); err != nil {
				t.Errorf("%s: Parse(%q): %v", path, m[1], err)
			}
		}
	}
	if found == 0 {
		t.Fatal("no pixCopiaECola found in the reference examples")
	}
	t.Logf("parsed %d reference payloads", found)
}

// The payload shown for "Pix Dinâmico" in the BR Code manual writes the GUI
// in upper case; older PSPs still do, so Parse must accept it.
func TestParseUpperCaseGUI(t *testing.T) {
	s := "00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a995204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304EEAB"
	f, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if f.URL() != "pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a99" {
		t.Errorf("URL() = %q", f.URL())
	}
}

// The golden strings were built by hand and their CRC computed with an
// independent implementation, so they check Encode's layout and CRC16 at once.
func TestEncodeGolden(t *testing.T) {
	tests := []struct {
		name string
		p    Payload
		want string
	}{
		{
			"no amount, like the spec examples",
			Payload{URL: "pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd441", MerchantName: "Fulano de Tal", MerchantCity: "Brasília"},
			"00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913FULANO DE TAL6008BRASILIA62070503***63047A90",
		},
		{
			"amount and postal code",
			Payload{URL: "pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd441", Amount: "1234.56", MerchantName: "São Paulo", MerchantCity: "São Paulo", PostalCode: "01310100"},
			"00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd44152040000530398654071234.565802BR5909SAO PAULO6009SAO PAULO61080131010062070503***63049D5F",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode(tt.p)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			if got != tt.want {
				t.Errorf("Encode =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestEncodeParseRoundTrip(t *testing.T) {
	url77 := "pix.example.com/qr/v2/" + strings.Repeat("a", MaxURL-len("pix.example.com/qr/v2/"))
	tests := []struct {
		name     string
		p        Payload
		wantName string
		wantCity string
	}{
		{"minimal", Payload{URL: "pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25", MerchantName: "Loja", MerchantCity: "Recife"}, "LOJA", "RECIFE"},
		{"with amount", Payload{URL: "pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25", Amount: "0.01", MerchantName: "Padaria Pão de Açúcar", MerchantCity: "Goiânia"}, "PADARIA PAO DE ACUCAR", "GOIANIA"},
		{"largest amount", Payload{URL: "x.io/1", Amount: "9999999999.99", MerchantName: "A", MerchantCity: "B"}, "A", "B"},
		{"URL of exactly 77", Payload{URL: url77, MerchantName: "Empresa de Serviços SA", MerchantCity: "Rio de Janeiro", PostalCode: "20040002"}, "EMPRESA DE SERVICOS SA", "RIO DE JANEIRO"},
		{"truncated", Payload{URL: "x.io/1", MerchantName: "Companhia Brasileira de Distribuição", MerchantCity: "São José dos Campos"}, "COMPANHIA BRASILEIRA DE D", "SAO JOSE DOS CA"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Encode(tt.p)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			f, err := Parse(s)
			if err != nil {
				t.Fatalf("Parse(%q): %v", s, err)
			}
			if f.URL() != tt.p.URL {
				t.Errorf("URL = %q, want %q", f.URL(), tt.p.URL)
			}
			if f.Amount() != tt.p.Amount {
				t.Errorf("Amount = %q, want %q", f.Amount(), tt.p.Amount)
			}
			if f.Top["59"] != tt.wantName || f.Top["60"] != tt.wantCity {
				t.Errorf("name/city = %q/%q, want %q/%q", f.Top["59"], f.Top["60"], tt.wantName, tt.wantCity)
			}
			if f.Top["61"] != tt.p.PostalCode {
				t.Errorf("postal code = %q, want %q", f.Top["61"], tt.p.PostalCode)
			}
			if f.Top["01"] != "12" || f.Account["00"] != GUI || f.Additional["05"] != "***" {
				t.Errorf("fixed fields wrong: %v %v", f.Top, f.Additional)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"São Paulo", 15, "SAO PAULO"},
		{"  Florianópolis\t", 15, "FLORIANOPOLIS"},
		{"Itaú Unibanco S.A.", 25, "ITAU UNIBANCO S.A."},
		{"Açaí & Cia 😀 Ltda", 25, "ACAI & CIA LTDA"},
		{"Rua 1º de Maio", 25, "RUA 1O DE MAIO"},
		{"Mogi das Cruzes Norte", 15, "MOGI DAS CRUZES"},
		{"Vila Velha Sul", 11, "VILA VELHA"}, // no trailing space after the cut
		{"日本", 15, ""},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in, tt.max); got != tt.want {
			t.Errorf("Normalize(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	ok := Payload{URL: "pix.example.com/qr/v2/abc", MerchantName: "Loja", MerchantCity: "Recife"}
	tests := []struct {
		name  string
		edit  func(*Payload)
		field string
	}{
		{"empty URL", func(p *Payload) { p.URL = "" }, "URL"},
		{"URL of 78", func(p *Payload) { p.URL = strings.Repeat("a", 78) }, "URL"},
		{"URL with scheme", func(p *Payload) { p.URL = "https://pix.example.com/qr/v2/abc" }, "URL"},
		{"URL with space", func(p *Payload) { p.URL = "pix.example.com/qr v2" }, "URL"},
		{"comma amount", func(p *Payload) { p.Amount = "1,00" }, "Amount"},
		{"thousands separator", func(p *Payload) { p.Amount = "1,000.00" }, "Amount"},
		{"one decimal", func(p *Payload) { p.Amount = "1.0" }, "Amount"},
		{"negative", func(p *Payload) { p.Amount = "-1.00" }, "Amount"},
		{"11 integer digits", func(p *Payload) { p.Amount = "12345678901.00" }, "Amount"},
		{"empty name", func(p *Payload) { p.MerchantName = "" }, "MerchantName"},
		{"name without ASCII", func(p *Payload) { p.MerchantName = "日本" }, "MerchantName"},
		{"empty city", func(p *Payload) { p.MerchantCity = " " }, "MerchantCity"},
		{"postal code with dash", func(p *Payload) { p.PostalCode = "01310-100" }, "PostalCode"},
		{"postal code short", func(p *Payload) { p.PostalCode = "1234567" }, "PostalCode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ok
			tt.edit(&p)
			_, err := Encode(p)
			if err == nil {
				t.Fatal("Encode succeeded, want an error")
			}
			if !errors.Is(err, ErrInvalidPayload) {
				t.Errorf("error %v does not wrap ErrInvalidPayload", err)
			}
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("error %q does not name %s", err, tt.field)
			}
		})
	}
}

// withCRC replaces the last four characters by the correct CRC, so the
// structural checks of Parse are reached.
func withCRC(s string) string {
	body := s[:len(s)-4]
	return body + CRC16(body)
}

func TestParseErrors(t *testing.T) {
	good := specExamples[1].s
	body := good[:len(good)-4]
	tests := []struct {
		name  string
		s     string
		isCRC bool
	}{
		{"empty", "", false},
		{"bad CRC", body + "0000", true},
		{"one character changed", strings.Replace(good, "Fulano", "Fulana", 1), true},
		{"city changed, CRC kept", strings.Replace(good, "BRASILIA", "BRASILIx", 1), true},
		{"no CRC field", body[:len(body)-4], false},
		{"CRC not last", "0002016304ABCD5802BR", false},
		{"CRC not hex", body + "ZZZZ", false},
		{"length overruns", withCRC("00020126990014br.gov.bcb.pix6304FFFF"), false},
		{"id not digits", withCRC("0002010X02126304FFFF"), false},
		{"length not digits", withCRC("00020101A2126304FFFF"), false},
		{"zero length", withCRC("00020101006304FFFF"), false},
		{"point of initiation 13", withCRC(strings.Replace(body, "010212", "010213", 1) + "FFFF"), false},
		{"name of 26", withCRC(strings.Replace(body, "5913Fulano de Tal", "5926"+strings.Repeat("A", 26), 1) + "FFFF"), false},
		{"truncated header", "000201630", false},
		{"does not start with 00", withCRC("0102120002016304FFFF"), false},
		{"missing 59", withCRC(strings.Replace(body, "5913Fulano de Tal", "", 1) + "FFFF"), false},
		{"missing 26", withCRC(strings.Replace(body, "26760014br.gov.bcb.pix2554pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd441", "", 1) + "FFFF"), false},
		{"wrong GUI", withCRC(strings.Replace(body, "br.gov.bcb.pix2554", "br.gov.bcb.pax2554", 1) + "FFFF"), false},
		{"wrong currency", withCRC(strings.Replace(body, "5303986", "5303840", 1) + "FFFF"), false},
		{"duplicated field", withCRC(strings.Replace(body, "5802BR", "5802BR5802BR", 1) + "FFFF"), false},
		{"bad amount", withCRC(strings.Replace(body, "5802BR", "54041,005802BR", 1) + "FFFF"), false},
		{"missing reference label", withCRC(strings.Replace(body, "62070503***", "62070703***", 1) + "FFFF"), false},
		{"non-ASCII", withCRC(strings.Replace(body, "5913Fulano de Tal", "5913Fulano de Tál", 1) + "FFFF"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.s)
			if err == nil {
				t.Fatal("Parse succeeded, want an error")
			}
			t.Log(err)
			if got := errors.Is(err, ErrCRC); got != tt.isCRC {
				t.Errorf("errors.Is(%v, ErrCRC) = %v, want %v", err, got, tt.isCRC)
			}
			if !tt.isCRC && !errors.Is(err, ErrMalformed) {
				t.Errorf("error %v does not wrap ErrMalformed", err)
			}
		})
	}
}

func TestParseAcceptsLowerCaseCRC(t *testing.T) {
	s := specExamples[2].s
	if _, err := Parse(s[:len(s)-4] + strings.ToLower(s[len(s)-4:])); err != nil {
		t.Fatalf("Parse with lower-case CRC: %v", err)
	}
}

func TestTemplateAbsent(t *testing.T) {
	s, err := Encode(Payload{URL: "x.io/1", MerchantName: "A", MerchantCity: "B"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Template("80"); !errors.Is(err, ErrMalformed) {
		t.Errorf("Template(80) error = %v, want ErrMalformed", err)
	}
}

// normalizeAsSpecified is Normalize as first written (fold, drop, upper,
// then strings.Fields and Join): the one-pass Normalize must agree with it.
func normalizeAsSpecified(s string, max int) string {
	var b strings.Builder
	for _, r := range s {
		if a, ok := fold[r]; ok {
			b.WriteString(a)
			continue
		}
		if unicode.IsSpace(r) {
			b.WriteByte(' ')
			continue
		}
		if r < ' ' || r > '~' {
			continue
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	if len(out) > max {
		out = strings.TrimRight(out[:max], " ")
	}
	return out
}

// TestNormalizeAgreesWithItsDefinition compares Normalize with its
// definition on random strings drawn from ASCII, white space of every
// kind, the folded letters, control characters and other scripts.
func TestNormalizeAgreesWithItsDefinition(t *testing.T) {
	var alphabet []rune
	for r := rune(0); r < 0x80; r++ {
		alphabet = append(alphabet, r)
	}
	for r := range fold {
		alphabet = append(alphabet, r)
	}
	alphabet = append(alphabet, '\u00a0', '\u0085', '\u2003', '\u3000', '日', '😀', '\u00ad', '\ufffd')
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		rs := make([]rune, rnd.IntN(40))
		for i := range rs {
			rs[i] = alphabet[rnd.IntN(len(alphabet))]
		}
		s, max := string(rs), rnd.IntN(30)
		if got, want := Normalize(s, max), normalizeAsSpecified(s, max); got != want {
			t.Fatalf("Normalize(%q, %d) = %q, want %q", s, max, got, want)
		}
	}
	if got := Normalize("a\xffb", 10); got != normalizeAsSpecified("a\xffb", 10) {
		t.Errorf("invalid UTF-8: %q", got)
	}
}

// TestIsMoneyIsTheMoneyFormat compares isMoney with the API Pix money
// pattern on short strings of digits, dots and other characters.
func TestIsMoneyIsTheMoneyFormat(t *testing.T) {
	money := regexp.MustCompile(`^\d{1,10}\.\d{2}$`)
	rnd := rand.New(rand.NewPCG(3, 4))
	const chars = "0123456789012345678901234567890123456789..,-+ e٣"
	for range 50000 {
		b := make([]byte, rnd.IntN(15))
		for i := range b {
			b[i] = chars[rnd.IntN(len(chars))]
		}
		s := string(b)
		if got, want := isMoney(s), money.MatchString(s); got != want {
			t.Fatalf("isMoney(%q) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"0.00", "1234567890.12", "12345678901.12", ".12", "1.2", "1.234", "1.2a"} {
		if got, want := isMoney(s), money.MatchString(s); got != want {
			t.Errorf("isMoney(%q) = %v, want %v", s, got, want)
		}
	}
}
