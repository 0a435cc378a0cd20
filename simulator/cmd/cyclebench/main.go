package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/pprof"
	"time"

	"homologa/simulator/events"
	"homologa/simulator/server"
	"homologa/simulator/store"
)

func main() {
	n := flag.Int("n", 1000, "enrollments")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	flag.Parse()
	server.TuneGC(context.Background(), os.Getenv) // as the served sandbox
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "cyclebench:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if err := run(*n); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "cyclebench:", err)
		os.Exit(1)
	}
}

type client struct {
	base, token string
	http        *http.Client
}

func (c *client) call(method, path string, body any, want int) (map[string]any, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		return nil, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	var out map[string]any
	json.Unmarshal(raw, &out)
	return out, nil
}

func count(ctx context.Context, db *store.DB, q string) (int64, error) {
	var n int64
	err := db.Read(ctx, func(tx *store.Tx) error { return tx.QueryRowContext(ctx, q).Scan(&n) })
	return n, err
}

func run(n int) error {
	ctx := context.Background()
	start := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	s, err := server.New(ctx, server.Config{Addr: "127.0.0.1:0", Clock: "frozen", ClockStart: start, Log: io.Discard})
	if err != nil {
		return err
	}
	if err := s.Start(ctx); err != nil {
		return err
	}
	defer s.Close(ctx)
	if _, err := s.Auth.SetWebhook(ctx, server.DemoClientID, ""); err != nil {
		return err
	}
	tok, err := s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		return err
	}
	c := &client{base: s.URL(), token: tok.AccessToken, http: &http.Client{Timeout: 10 * time.Minute}}
	seeded, err := seed(ctx, s, c, n)
	if err != nil {
		return err
	}
	before, err := count(ctx, s.DB, `SELECT COUNT(*) FROM events`)
	if err != nil {
		return err
	}
	t1 := time.Now()
	if _, err := c.call("POST", "/sandbox/clock/advance", map[string]any{"by": "365d"}, 200); err != nil {
		return err
	}
	year := time.Since(t1)
	after, _ := count(ctx, s.DB, `SELECT COUNT(*) FROM events`)
	evs := after - before
	if err := inOrder(ctx, s.DB); err != nil {
		return err
	}
	base, err := baseline(ctx, s, evs)
	if err != nil {
		return err
	}
	charges, _ := count(ctx, s.DB, `SELECT COUNT(*) FROM cobrancas`)
	paid, _ := count(ctx, s.DB, `SELECT COUNT(*) FROM cobrancas WHERE status = 'PAGA'`)
	comms, _ := count(ctx, s.DB, `SELECT COUNT(*) FROM comissoes WHERE status = 'PAGA'`)
	readj, _ := count(ctx, s.DB, `SELECT COUNT(*) FROM events WHERE type = 'inscricao.valor_pago_alterado'`)
	fmt.Printf("cyclebench: %d enrollments (offer EIS, BOLETO), sandbox in-memory, frozen clock, app without webhook\n\n", n)
	fmt.Printf("seeding (proposals through the API + analysis to implantation): %s\n", seeded.Round(time.Millisecond))
	fmt.Printf("one year of sandbox time: %s wall, %d events (%.0f events/s)\n", year.Round(time.Millisecond), evs, float64(evs)/year.Seconds())
	fmt.Printf("  charges %d (paid %d), commissions paid %d, readjustments %d\n", charges, paid, comms, readj)
	fmt.Printf("baseline: %d bare events through the bus in %s (%.0f events/s)\n", evs, base.Round(time.Millisecond), float64(evs)/base.Seconds())
	fmt.Printf("ratio: the year costs %.1fx the bare events' time\n", year.Seconds()/base.Seconds())
	return nil
}

// seed sells n funeral enrollments through the API and implants them.
func seed(ctx context.Context, s *server.Server, c *client, n int) (time.Duration, error) {
	t0 := time.Now()
	sim, err := c.call("POST", "/insurer/v1/simulacao?codigoModeloProposta=EIS", map[string]any{"simulacoes": []any{map[string]any{
		"proponente": map[string]any{"dataNascimento": "1980-01-01", "sexoId": 2}, "periodicidadeCobrancaId": 30}}}, 200)
	if err != nil {
		return 0, err
	}
	cov := sim["Valor"].(map[string]any)["simulacoes"].([]any)[0].(map[string]any)["produtos"].([]any)[0].(map[string]any)["coberturas"].([]any)[0].(map[string]any)
	for i := range n {
		if _, err := c.call("POST", "/insurer/v1/proposta?codigoModeloProposta=EIS", map[string]any{"PROPOSTA": map[string]any{
			"DADOS_PROPONENTE": map[string]any{"NOME": fmt.Sprintf("Cliente %d", i), "DT_NASCIMENTO": "1980-01-01", "SEXO": "FEMININO", "CPF": "11144477735"},
			"PLANOS":           map[string]any{"PLANO": map[string]any{"CODIGO": 530, "COBERTURAS": map[string]any{"COBERTURA": map[string]any{"CODIGO": cov["itemProdutoId"], "VL_CONTRIB": cov["premio"], "VL_COBERTURA": cov["capital"]}}}},
			"DADOS_COBRANCA":   map[string]any{"TIPO_COBRANCA": "BOLETO", "DIA_VENCIMENTO": 5 + 5*(i%5)},
			"ASSINATURA":       map[string]any{"TIPO": "DOCUMENTO", "ID_DOCUMENTO": fmt.Sprintf("GED-%d", i)},
		}}, 201); err != nil {
			return 0, err
		}
	}
	if _, err := c.call("POST", "/sandbox/clock/advance", map[string]any{"by": "1h7m"}, 200); err != nil {
		return 0, err
	}
	// A token of its own for the year's reads.
	tok, err := s.Auth.IssueToken(ctx, server.DemoClientID, server.DemoClientSecret, "")
	if err != nil {
		return 0, err
	}
	c.token = tok.AccessToken
	seeded := time.Since(t0)
	insc, err := count(ctx, s.DB, `SELECT COUNT(*) FROM inscricoes`)
	if err != nil {
		return 0, err
	}
	if insc != int64(n) {
		return 0, fmt.Errorf("%d enrollments implanted, want %d", insc, n)
	}
	return seeded, nil
}

// inOrder checks that sandbox time never goes back along the event
// sequence.
func inOrder(ctx context.Context, db *store.DB) error {
	var disorder int64
	if err := db.Read(ctx, func(tx *store.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM events a JOIN events b ON b.seq = a.seq + 1 WHERE b.occurred_at < a.occurred_at`).Scan(&disorder)
	}); err != nil {
		return err
	}
	if disorder > 0 {
		return fmt.Errorf("%d events occur before the one sequenced ahead of them", disorder)
	}
	return nil
}

// baseline emits the same number of events, one transaction each, through
// the same bus: no scenario, no job, no domain work.
func baseline(ctx context.Context, s *server.Server, evs int64) (time.Duration, error) {
	t2 := time.Now()
	for i := range evs {
		err := s.DB.Tx(ctx, func(tx *store.Tx) error {
			_, err := s.Bus.Emit(ctx, tx, events.Event{AppID: s.Demo.ID, CNPJ: server.DemoCNPJ, Type: "bench.baseline", Name: "Baseline",
				Subject: map[string]any{"i": i}, SubjectKey: fmt.Sprintf("bench:%d", i%1000), Data: map[string]any{"valor": 12.34}, Targets: []events.Target{}})
			return err
		})
		if err != nil {
			return 0, err
		}
	}
	return time.Since(t2), nil
}
