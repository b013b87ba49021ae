//go:build cgo && linux

package embedded

// #include <malloc.h>
import "C"

// returnFreedCMemory hands the C heap's free pages back to the system
// (glibc's malloc_trim). Pebble allocates its block cache and its
// compactions' buffers with C malloc when built with cgo; glibc keeps what
// they free in its arenas, so after a bulk load's compactions or an image
// build had every block of a 10M-row table pass through, the process kept
// ~600 MiB of freed C memory resident. Measured on the bench server at 10M
// rows (bench/LEDGER.md, issue 27): one malloc_trim(0) took RSS from 868
// to 486 MiB. Called after such bursts, not on a timer: it walks and locks
// each arena in turn.
func returnFreedCMemory() { C.malloc_trim(0) }
