# readbench — build and test. `make test` is the one command CI runs
# (.ci/run); on a fresh machine it installs everything the tests need.

GO      ?= go
PKGS    := ./...
FUZZTIME ?= 10s
# CI_FUZZTIME: how long `make test` runs each fuzz target (a smoke run: the
# seeds, then a fixed number of new inputs, so that the run neither depends
# on the machine's speed nor ends inside the fuzzer's minimization; the
# long runs are `make fuzz`).
CI_FUZZTIME ?= 5000x
# TESTPARALLEL: tests that call t.Parallel run this many at a time in a
# package (go test's default is the number of CPUs). The end-to-end tests
# of cmd/readbench mostly wait on the binary they run and on fixed server
# delays, so more of them than CPUs overlap well; the ones that measure
# latency or rate do not call t.Parallel.
TESTPARALLEL ?= 4
# TESTTIMEOUT: go test's -timeout for each package of the race step, a
# hang detector rather than a speed check (every readbench a test runs has
# its own limit, two minutes for most). On a 2-core machine kept busy by
# other work cmd/readbench's tests ran past 15 minutes and were cut while
# still making progress.
TESTTIMEOUT ?= 45m

.PHONY: all build test test-race test-norace test-deploy deps vet fuzz fuzz-smoke bench clean

all: build

build:
	$(GO) build -o bin/readbench ./cmd/readbench

# deps: Go modules, Chromium (headless, for the HTML report test), xmllint
# (libxml2-utils: the JUnit output is validated against its schema),
# Prometheus (the --metrics tests push to and are scraped by a real one), tmux
# (the live view's test reads the screen of a run as a person sees it), jq
# (scripts/ab-experiments.sh reads ab's JSON; its test runs it), nginx (the
# TLS HTTP/2 front of internal/h2peers, proxying to an MCP server over
# HTTP/1.1; Debian's nginx package has the ssl and http_v2 modules built
# in), nghttp2-client (h2load, an HTTP/2 benchmark to compare against) and the npm MCP
# servers the end-to-end tests drive (pinned in peers/package-lock.json; npm
# ci installs exactly that; scripts/peers-install.sh runs it and says why
# its engine warnings under Node 20 are harmless).
# scripts/apt-install.sh waits (APT_LOCK_TIMEOUT, 300 s) for another
# package manager's dpkg or apt lock instead of failing on it.
deps:
	$(GO) mod download
	cd deploy && $(GO) mod download
	@missing=; command -v chromium >/dev/null || missing="$$missing chromium"; \
		command -v xmllint >/dev/null || missing="$$missing libxml2-utils"; \
		command -v prometheus >/dev/null || missing="$$missing prometheus"; \
		command -v tmux >/dev/null || missing="$$missing tmux"; \
		command -v jq >/dev/null || missing="$$missing jq"; \
		command -v nginx >/dev/null || missing="$$missing nginx"; \
		command -v h2load >/dev/null || missing="$$missing nghttp2-client"; \
		[ -z "$$missing" ] || ./scripts/apt-install.sh $$missing
	./scripts/peers-install.sh

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)
	cd deploy && $(GO) vet ./...

# test: every fuzz target briefly, then every test with the race detector
# but RACEFREE's (below), then RACEFREE's and NORACE's without it (internal/h1's
# and the client's raw system calls are made only then, see
# internal/h1/rawsys_linux.go), end-to-end tests included (they build the binary and run it against the
# embedded server over stdio and HTTP), and the tests of deploy/, a module
# of its own so that its Kubernetes and Dockerfile libraries stay out of
# the go.mod every user of readbench downloads. scripts/test.sh runs every
# step even when one fails, then prints a summary and "N passed, N failed"
# naming the failed steps, and fails when a step did or when a process of
# the run was left running.
test: deps
	MAKE="$(MAKE)" ./scripts/test.sh vet fuzz-smoke test-race test-norace test-deploy

# RACEFREE: packages whose own code starts no goroutine and imports
# neither sync nor sync/atomic (internal/layering's TestRaceFreePackages
# holds them to it): pure transformations of results and reports, where
# the race detector can find nothing and costs their data-heavy tests 10
# to 60 times the CPU (results' took 143 s with it, 13 s without). They are
# tested once, in test-norace.
RACEFREE := ./compare/ ./report/ ./results/
# NORACE: packages with tests built only without -race (//go:build !race:
# internal/h1's and the client's raw system calls, stack sizes, allocation
# counts and 32 MiB scans, ab's 2,600 simulated experiments), tested whole
# once more without it
# (TestRaceFreePackages checks that every such package is here).
NORACE := ./internal/h1/ ./client/ ./ab/

# test-race: scripts/test-race.sh runs cmd/readbench's serial and parallel
# end-to-end tests as two processes beside the other packages' tests.
test-race:
	GO="$(GO)" RACEFREE="$(RACEFREE)" TESTTIMEOUT=$(TESTTIMEOUT) TESTPARALLEL=$(TESTPARALLEL) ./scripts/test-race.sh

test-norace:
	$(GO) test -count=1 $(NORACE) $(RACEFREE)

test-deploy:
	cd deploy && $(GO) test -race -count=1 ./...

# fuzz-smoke: each fuzz target for CI_FUZZTIME (make test runs it).
fuzz-smoke:
	./scripts/fuzz.sh $(CI_FUZZTIME)

# fuzz: each fuzz target of the parsers of outside input for FUZZTIME.
fuzz:
	./scripts/fuzz.sh $(FUZZTIME)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./client/ ./simserver/ ./stats/ ./driver/ ./internal/clock/

clean:
	rm -rf bin runs peers/node_modules
