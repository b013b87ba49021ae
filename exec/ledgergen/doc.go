// Command ledgergen measures the native and the arrow-go kernel backends
// per kernel family and writes the ledger the auto backend decides from
// (exec/ledger.json); `make ledger` runs it. See main.go.
package main
