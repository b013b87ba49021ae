package embedded

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestParallel: every index is called once, and a panic in any call, on
// the caller's goroutine or another, reaches the caller once no call runs.
func TestParallel(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100} {
		calls := make([]atomic.Int32, n)
		parallel(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d called %d times", n, i, c)
			}
		}
	}
	for _, bad := range []int{0, 5, 99} {
		var running atomic.Int32
		func() {
			defer func() {
				if p := recover(); p != "boom" {
					t.Fatalf("panic at %d: recovered %v", bad, p)
				}
				if r := running.Load(); r != 0 {
					t.Fatalf("panic at %d: raised while %d calls still ran", bad, r)
				}
			}()
			parallel(100, func(i int) {
				running.Add(1)
				defer running.Add(-1)
				if i == bad {
					panic("boom")
				}
				time.Sleep(100 * time.Microsecond)
			})
		}()
	}
}
