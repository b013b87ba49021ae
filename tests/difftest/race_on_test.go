//go:build race

package difftest

// raceEnabled lowers the default query count: the race detector slows the
// in-process sqlgate several times over.
const raceEnabled = true
