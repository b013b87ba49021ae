package embedded

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallel calls fn(i) for every i in [0, n) on up to GOMAXPROCS cores,
// the caller's goroutine among them, and returns when all calls have. A
// panic in a call is raised again in the caller, as if the calls had run
// one after the other. A bulk write uses it for the parts of its work that
// touch disjoint data (the sstables, the keys beside the rows): that work
// is on the path of the write's acknowledgement, and the store has no
// other work meanwhile.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers < 2 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
			fn(i)
		}
	}
	panics := make([]any, workers)
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[w] = recover() }()
			work()
		}()
	}
	func() {
		// The caller's own panic waits for the others too.
		defer func() { panics[0] = recover() }()
		work()
	}()
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}
