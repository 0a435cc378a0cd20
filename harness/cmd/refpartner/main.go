package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"homologa/harness/partner"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9100", "address to listen on")
	defect := flag.String("defect", "", "the defect to switch on (empty: the correct partner)")
	quiet := flag.Bool("quiet", false, "do not log sandbox calls and notifications")
	byPOST := flag.Bool("create-by-post", false, "create charges with POST /cob and an Idempotency-Key instead of PUT /cob/{txid}")
	dueDates := flag.Bool("due-dates", false, "ask for the scopes of due-date charges too ("+partner.DueDateScopes+"): for a partner file that declares the cobv and lotecobv flows")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: refpartner [--addr host:port] [--defect name] [--quiet]\n\nflags:\n")
		flag.PrintDefaults()
		fmt.Fprintf(flag.CommandLine.Output(), "\ndefects:\n")
		for _, d := range partner.Defects {
			fmt.Fprintf(flag.CommandLine.Output(), "  %-20s %s\n", d, partner.DefectDoc[d])
		}
	}
	flag.Parse()
	cfg := partner.Config{Defect: *defect, Log: os.Stderr, CreateByPOST: *byPOST}
	if *dueDates {
		cfg.Scopes = partner.Scopes + " " + partner.DueDateScopes
	}
	if *quiet {
		cfg.Log = nil
	}
	p := partner.New(cfg)
	if err := p.Start(*addr); err != nil {
		fmt.Fprintln(os.Stderr, "refpartner:", err)
		os.Exit(2)
	}
	fmt.Printf("reference partner on %s (defect %q)\n", p.URL(), *defect)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	p.Close()
}
