package harness_test

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/cucumber/godog"

	"homologa/harness"
	"homologa/simulator/server"
)

// TestContract runs features/contract against a fresh in-process sandbox
// per scenario.
func TestContract(t *testing.T) {
	var log io.Writer = io.Discard
	if os.Getenv("HOMOLOGA_TEST_LOG") != "" {
		log = os.Stderr
	}
	// HOMOLOGA_FEATURES narrows the run to some features while iterating,
	// e.g. ../features/contract/platform.feature.
	paths := []string{"../features/contract"}
	if v := os.Getenv("HOMOLOGA_FEATURES"); v != "" {
		paths = strings.Split(v, ",")
	}
	suite := godog.TestSuite{
		Name: "contract",
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			w := &harness.World{}
			var s *server.Server
			sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
				srv, world, err := harness.StartSandbox(ctx, log)
				if err != nil {
					return ctx, err
				}
				s, *w = srv, *world
				return ctx, nil
			})
			sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
				w.Close()
				if s != nil {
					s.Close(context.Background())
				}
				return ctx, nil
			})
			harness.Register(sc, w)
		},
		Options: &godog.Options{
			Format: "progress", Paths: paths, Strict: true, NoColors: true, TestingT: t,
		},
	}
	if suite.Run() != 0 {
		t.Fatal("contract features failed")
	}
}
