# Homologa. Every target is one line of intent; nothing hidden.
GO ?= go
BIN := bin/homologa

.PHONY: run build test vet fmt-check bench profile soak steps dist image release-test clean

## run: start the sandbox on 127.0.0.1:8080 with zero configuration
# (built, then run: under go run, Ctrl-C would end in "Error 1" although
# the sandbox stops cleanly with exit 0)
run: build
	./$(BIN) serve

## build: build the homologa binary into bin/, stamped with its commit and build date
LDFLAGS := -X homologa/simulator/server.Commit=$(shell git rev-parse --short=12 HEAD 2>/dev/null) -X homologa/simulator/server.BuildDate=$(shell date -u +%Y-%m-%dT%H:%M:%SZ)
build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./simulator/cmd/homologa

## test: formatting, vet, then every test (unit and Gherkin) with the race detector;
## says loudly when no Chromium was found, so the browser tests skipped
# (the race detector sleeps a second as each test binary exits, atexit_sleep_ms, for reports of goroutines still running:
# a test binary has none left, and 35 binaries' seconds were a sixth of the suite's wall time; the four longest packages
# are named first, so that go test starts them first instead of leaving one of them alone on a core at the end)
LONG_TESTS := ./harness ./simulator/server ./simulator/widgets ./simulator/dashboard
test: fmt-check vet
	GORACE="atexit_sleep_ms=0 $$GORACE" $(GO) test -race -count=1 $(LONG_TESTS) ./...
	@[ -n "$$HOMOLOGA_CHROMIUM" ] || command -v chromium-headless-shell >/dev/null || command -v headless-shell >/dev/null || command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null || echo "*** BROWSER TESTS DID NOT RUN: no Chromium found; install it (apt-get install chromium-headless-shell) or set HOMOLOGA_CHROMIUM ***"

## vet: go vet
vet:
	$(GO) vet ./...

## fmt-check: fail when a Go file is not gofmt-formatted
fmt-check:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './.git/*')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## bench: benchmarks, each with its baseline measured in the same run, then the Pix load table (homologa and a bare
## server each pinned to a core, the load on another; BENCH_TIME per measurement, start and idle RSS), the webhook latency of
## a payment (a receiver on loopback, alone and beside another company's slow one) and the year of time travel
BENCH_TIME ?= 10s
bench: build
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./...
	$(GO) build -o bin/pixbench-bare ./simulator/cmd/pixbench/bare
	$(GO) run ./simulator/cmd/pixbench -d $(BENCH_TIME) -homologa $(BIN) -bare bin/pixbench-bare
	$(GO) run ./simulator/cmd/cyclebench

## profile: CPU and allocation profiles of creations and GETs under load, and a trace of creations, in reports/profiles, with their top functions
profile:
	$(GO) run ./simulator/cmd/pixbench -profile reports/profiles -d $(BENCH_TIME)
	@for p in reports/profiles/*.cpu.pprof; do echo "== $$p"; $(GO) tool pprof -top -nodecount=30 $$p 2>/dev/null; done
	@for p in reports/profiles/*.allocs.pprof; do echo "== $$p (alloc_space)"; $(GO) tool pprof -top -nodecount=25 -sample_index=alloc_space $$p 2>/dev/null; done

## soak: homologa with a database file and small retention under a steady load for SOAK_TIME (100 charges/s, as many reads, 10 payments/s,
## three companies): RSS and database size every 10 s, a verdict of flat (within 10% after the first third) with no errors
SOAK_TIME ?= 10m
## (SOAK_MEMORY=1: an in-memory sandbox, judged by RSS alone, where its database and interaction log are)
soak: build
	$(GO) run ./simulator/cmd/pixbench -soak $(SOAK_TIME) -homologa $(BIN) $(if $(SOAK_MEMORY),-soak-memory)

## steps: regenerate the step reference in harness/README.md, the scenario catalogue, ROUTES.md and the event and request references
steps:
	$(GO) test ./harness -run TestStepReference -update
	$(GO) test ./simulator/server -run "TestCatalogueTable|TestRouteReference" -update
	$(GO) test ./simulator/server -run TestRequestReference -update
	$(GO) test ./cli -run TestEventReference -update

## dist: static Linux amd64 and arm64 archives in dist/, with SHA256SUMS (VERSION=x.y.z to name them)
dist:
	./scripts/dist.sh

## image: the container image FROM scratch with buildah, for amd64 and arm64, also as docker archives in dist/
image: dist
	./scripts/image.sh

## release-test: the archives' sums and static binaries; the images' config, and their entrypoint run under chroot
release-test:
	./scripts/release-test.sh

clean:
	rm -rf bin reports dist
