// Package reliability holds the tests that a gateway in front of a team's
// data must keep passing: a writing server killed with SIGKILL at random
// moments loses no acknowledged write (crash_test.go) and keeps no table
// an uncommitted transaction block created (ddltx_crash_test.go), 64 concurrent
// clients leave no goroutine or file descriptor behind (load_test.go),
// resource limits hold through the wire (limits_test.go), and hostile SQL
// cannot panic the parse-bind-plan pipeline (fuzz_pipeline_test.go).
//
// It owns tests only: no production code lives here, and it must not reach
// into a package's internals — everything goes through the wire protocol
// or the packages' public APIs, as a user or an embedding program would.
//
// `go test` runs short versions (10 crash rounds, 5 s of load, the fuzz
// seeds); SQLGATE_CRASH_ROUNDS and SQLGATE_LOAD_SECONDS lengthen them
// (`make soak`), and `go test -fuzz FuzzPipeline` fuzzes (`make fuzz`).
package reliability
