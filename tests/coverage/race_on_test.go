//go:build race

package coverage

// raceEnabled: the race detector slows sqlgate several times, so the
// differential walk's default sample is smaller.
const raceEnabled = true
