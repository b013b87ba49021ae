# sqlgate — build, run and test. `make run` and `make test` are the two
# commands a newcomer needs (see README.md).
GO        ?= go
BIN       := bin/sqlgate
LISTEN    ?= 127.0.0.1:5433
DATA      ?= ./sqlgate-data
FUZZTIME  ?= 10m

.PHONY: all build run test deps test-go test-allocs test-slt test-slt-columnar test-cluster test-cluster-run vet fuzz fuzz-short soak soak-subscribe soak-copy soak-relop bench bench-go ledger proto clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/sqlgate

# Builds and starts sqlgate on the embedded store in $(DATA); prints how to connect.
run: build
	./$(BIN) serve --listen $(LISTEN) --data $(DATA)

# Every test: vet, the Go tests (unit, wire, crash and end-to-end, with the
# race detector; the differential tests against PostgreSQL without it, see
# test-go) and the sqllogictest suites through the CLI.
test: deps vet test-go test-allocs test-slt test-slt-columnar test-cluster fuzz-short

# Installs what the tests need beyond Go (PostgreSQL 15, psql, the drivers);
# only what is missing.
deps:
	./scripts/install-test-deps.sh

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...

# -vet=off: go test would vet each package again, with its analyzers' facts
# recomputed for every dependency built with -race (a cache of its own),
# while the vet target (a prerequisite) has run every analyzer go test's
# vet runs, and more, on the same files (but for the four small files built
# only with -race, //go:build race, which mirror their !race twins).
# -ldflags=-w: the test binaries carry no DWARF, which is a large part of
# linking each one; panics and the race detector's reports name functions,
# files and lines from the binary's own tables (pclntab), not from DWARF.
#
# The packages in ANSWER_PACKAGES run in a second step without the race
# detector: their tests compare SQL answers with PostgreSQL 15's against an
# in-process server (tests/difftest, tests/coverage), which the race
# detector slowed 10-20 times over (tests/difftest alone was ~680 s of
# test-go under -race on 2 cores). The same server code's concurrency stays
# under -race in the first step: sessions, pipelines, COPY and cancels in
# tests/e2e, tests/clients and pgwire; concurrent transactions, row locks,
# EvalPlanQual re-checks of joined writes and MERGE (epq-*.spec, the
# interleavings difftest's TestJoinedWriteRecheckDifferential compares) and
# LISTEN/NOTIFY in tests/isolation; crashes and load in tests/reliability;
# the store's own in fluss/embedded and engine.
ANSWER_PACKAGES = ./tests/difftest/... ./tests/coverage/...
# Both steps run when the first fails, as one go test reported every
# package's failures before.
test-go: vet
	status=0; \
	$(GO) test -race -vet=off -ldflags=-w -timeout 20m $$($(GO) list ./... | grep -v -e '/tests/difftest' -e '/tests/coverage') || status=1; \
	$(GO) test -vet=off -ldflags=-w -timeout 20m $(ANSWER_PACKAGES) || status=1; \
	exit $$status

# Allocation budgets, in files built without the race detector (it changes
# what allocates: sync.Pool drops a share of what is put back).
ALLOC_PACKAGES = ./engine ./exec ./functions ./fluss/embedded ./lower ./pgwire ./sql ./types
test-allocs:
	$(GO) test -count=1 -run 'Allocations$$|Allocs$$' $(ALLOC_PACKAGES)

# The tests against a real Apache Fluss 0.9.1 cluster (fluss/remote, build
# tag fluss_cluster). The test binary starts the cluster with
# scripts/fluss-cluster.sh (jars cached after the first download) and stops
# it; SQLGATE_FLUSS_BOOTSTRAP=HOST:PORT runs them against a running cluster
# instead. No cluster is a failure, never a skip.
# One Fluss 0.9.1 cluster (one tablet server: nothing run on it needs
# replication; the fault test starts its own with three) serves the
# fluss/remote cluster tests, pyfluss interop included, and a second pass of
# the sqllogictest suites with the store switched (each file in a Fluss
# database of its own; tests/sqllogic/fluss_cluster.skips names the records
# a cluster cannot run, each with its reason). SQLGATE_FLUSS_BOOTSTRAP=HOST:PORT
# uses a running cluster instead.
test-cluster: build
	SQLGATE_FLUSS_TABLETS=1 ./scripts/fluss-cluster.sh run $(MAKE) --no-print-directory test-cluster-run

test-cluster-run:
	@test -n "$$SQLGATE_FLUSS_BOOTSTRAP" || (echo "test-cluster-run: SQLGATE_FLUSS_BOOTSTRAP not set (use make test-cluster)"; exit 1)
	# -p 1: the packages share the cluster's metadata table, where each test
	# server imports its own users (admin's password differs between them).
	$(GO) test -tags fluss_cluster -count=1 -p 1 -timeout 8m -run 'Cluster' ./fluss/remote ./tests/reliability ./flightsql ./tests/clients
	./$(BIN) slt --parallel 2 --fluss "$$SQLGATE_FLUSS_BOOTSTRAP" --skips tests/sqllogic/fluss_cluster.skips \
		tests/sqllogic/*.slt tests/sqllogic/generated/*.slt

# Regenerates fluss/remote/internal/pb from its .proto (needs protoc, Debian
# protobuf-compiler, and protoc-gen-go at the version go.mod pins).
PROTOC_GEN_GO = $(shell $(GO) env GOPATH)/bin/protoc-gen-go
proto:
	$(GO) install google.golang.org/protobuf/cmd/protoc-gen-go@$$($(GO) list -m -f '{{.Version}}' google.golang.org/protobuf)
	cd fluss/remote/internal/pb && protoc --plugin=protoc-gen-go=$(PROTOC_GEN_GO) --go_out=. --go_opt=paths=source_relative fluss.proto

# --restart-check: after each file its server is stopped and started again
# on the same data directory, and the catalogs must read back the same.
test-slt: build
	./$(BIN) slt --parallel 2 --restart-check tests/sqllogic/*.slt tests/sqllogic/generated/*.slt

# The same suites with every primary-key table's full scans on the columnar
# path (issue 27): images built after a table's first scan, writes since
# merged on read.
test-slt-columnar: build
	./$(BIN) slt --parallel 2 --columnar-min-rows 1 tests/sqllogic/*.slt tests/sqllogic/generated/*.slt

# Every fuzz target, as package:Name. `make fuzz` runs each for $(FUZZTIME);
# `make test` runs each briefly (fuzz-short), after `go test` ran their seeds
# and committed corpora (testdata/fuzz) as regression inputs.
FUZZ_TARGETS = ./sql:FuzzParse ./sql:FuzzFastPath ./sql:FuzzPlainRewrite ./pgtypes:FuzzDecodeParam ./pgwire:FuzzClientMessages \
	./pgwire:FuzzCopyDecode ./pgwire:FuzzStartup ./tests/reliability:FuzzPipeline ./fluss/format:FuzzDecodeBatch \
	./fluss/format:FuzzDecodeRow ./fluss/format:FuzzEncodeBatch ./fluss/format:FuzzRowDecoder \
	./fluss/embedded:FuzzRecover ./types:FuzzTimestampTZText ./exec:FuzzSIMDKernels ./flightsql:FuzzRequests
# A count, not a duration: with -fuzztime 5s a slow target (FuzzRecover opens
# a store per input, ~20 a second on the CI machine) could still be running an
# input when the deadline passed, which go test reports as a failure ("context
# deadline exceeded"); a count has no deadline.
FUZZ_SHORT ?= 400x

fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$name ($$pkg) for $(FUZZTIME)"; \
		$(GO) test $$pkg -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) || exit 1; \
	done

fuzz-short:
	@$(MAKE) --no-print-directory fuzz FUZZTIME=$(FUZZ_SHORT)

# Long crash and load runs.
soak:
	SQLGATE_CRASH_ROUNDS=200 SQLGATE_LOAD_SECONDS=120 $(GO) test -timeout 60m -run 'Crash|Load' ./...
	SQLGATE_SOAK=1 $(GO) test -timeout 30m ./tests/isolation
	@$(MAKE) --no-print-directory soak-subscribe

# Issue 28 acceptance 3: 64 subscribers on one table, a writer committing
# 10k rows/s for 60 s, the server a process of its own; logs latency
# (p50/p99) and the server's memory every 5 s for bench/LEDGER.md, and fails
# on a lost or duplicated change or when the server's memory grows after
# warm-up (tests/clients/subscribe_soak_test.go says the bound).
soak-subscribe:
	SQLGATE_SUBSCRIBE_SOAK=64,10000,60 $(GO) test -timeout 20m -count=1 -v -run '^TestSubscribeSoak$$' ./tests/clients

# Issue 33 acceptance 3: COPY of 100M generated six-column rows into a
# primary-key and a log table, server peak RSS < 1 GiB, then a COPY killed
# part way leaves nothing (needs ~15 GB of free disk; logs time and RSS).
soak-copy:
	SQLGATE_BIGCOPY_ROWS=100000000 $(GO) test -timeout 180m -run TestBigCopyBoundedMemory -v -count=1 ./tests/reliability

# Issue 5 acceptance 3: GROUP BY over 100M generated rows, 512 MiB limit, peak RSS < 1 GiB.
soak-relop:
	$(GO) test -tags soak -timeout 20m -run '^$$' -bench SoakGroupBy100M -benchtime 1x ./exec/relop

# Benchmarks: sqlgate, PostgreSQL 15 and DuckDB side by side (bench/, its own
# module because DuckDB needs cgo). Prints a table, writes bench/results/*.json;
# figures worth keeping go to bench/LEDGER.md. BENCHFLAGS passes options, e.g.
# BENCHFLAGS='--cpuprofile /tmp/cpu.prof --workloads W5'. bench/python/setup.sh
# first makes the virtualenv of the Python figures (ADBC into pyarrow, psycopg2
# into pandas; pip from PyPI, once).
bench:
	bench/python/setup.sh >/dev/null
	cd bench && $(GO) run . $(BENCHFLAGS)

# The Go micro-benchmarks of the packages (kernels, operators, store, parser).
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Regenerates exec/ledger.json, the kernel-backend ledger the auto backend
# decides from (native vs arrow-go per kernel family at 64 KiB, 1 MiB and
# 16 MiB batches); commit it with the figures noted in bench/LEDGER.md.
ledger:
	$(GO) run ./exec/ledgergen -o exec/ledger.json

# The same with 200k rows and short runs: about two minutes.
.PHONY: bench-quick
bench-quick:
	bench/python/setup.sh >/dev/null
	cd bench && $(GO) run . --quick $(BENCHFLAGS)

clean:
	rm -rf bin
