# Homologa. Every target is one line of intent; nothing hidden.
GO ?= go
BIN := bin/homologa

.PHONY: run build test vet fmt-check bench steps clean

## run: start the sandbox on 127.0.0.1:8080 with zero configuration
# (built, then run: under go run, Ctrl-C would end in "Error 1" although
# the sandbox stops cleanly with exit 0)
run: build
	./$(BIN) serve

## build: build the homologa binary into bin/
build:
	$(GO) build -o $(BIN) ./simulator/cmd/homologa

## test: formatting, vet, then every test (unit and Gherkin) with the race detector;
## says loudly when no Chromium was found, so the browser tests skipped
test: fmt-check vet
	$(GO) test -race -count=1 ./...
	@[ -n "$$HOMOLOGA_CHROMIUM" ] || command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null || command -v headless-shell >/dev/null || echo "*** BROWSER TESTS DID NOT RUN: no Chromium found; install it (apt-get install chromium) or set HOMOLOGA_CHROMIUM ***"

## vet: go vet
vet:
	$(GO) vet ./...

## fmt-check: fail when a Go file is not gofmt-formatted
fmt-check:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './.git/*')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## bench: benchmarks, each with its baseline measured in the same run, then the Pix load table and the year of time travel
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./...
	$(GO) run ./simulator/cmd/pixbench
	$(GO) run ./simulator/cmd/cyclebench

## steps: regenerate the step reference in harness/README.md and the scenario catalogue
steps:
	$(GO) test ./harness -run TestStepReference -update
	$(GO) test ./simulator/server -run "TestCatalogueTable|TestRouteReference" -update

clean:
	rm -rf bin reports
