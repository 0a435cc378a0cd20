package harness_test

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/cucumber/godog"

	"homologa/harness"
)

// TestContract runs features/contract against one in-process sandbox on
// the real clock, as a QA team runs them against a long-running one: each
// scenario in a namespace of its own, with a fresh copy of the demo
// company and a clock of its own, four at a time.
func TestContract(t *testing.T) {
	var log io.Writer = io.Discard
	if os.Getenv("HOMOLOGA_TEST_LOG") != "" {
		log = os.Stderr
	}
	ctx := context.Background()
	s, err := harness.StartSandbox(ctx, log)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	// HOMOLOGA_FEATURES narrows the run to some features while iterating,
	// e.g. ../features/contract/platform.feature.
	paths := []string{"../features/contract"}
	if v := os.Getenv("HOMOLOGA_FEATURES"); v != "" {
		paths = strings.Split(v, ",")
	}
	suite := godog.TestSuite{
		Name: "contract",
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			w := harness.NewWorld(s.URL(), s.Schemas, harness.Credentials{})
			sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
				return ctx, w.Begin()
			})
			sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
				w.End()
				w.Close()
				return ctx, nil
			})
			harness.Register(sc, w)
		},
		Options: &godog.Options{
			Format: "progress", Paths: paths, Strict: true, NoColors: true, TestingT: t, Concurrency: 4,
		},
	}
	if suite.Run() != 0 {
		t.Fatal("contract features failed")
	}
}
