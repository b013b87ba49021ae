// Command schedtrace reads an execution trace of the bench server
// (cmd/benchserver --trace, SIGUSR1 to SIGUSR2 around a run) and says where
// the server's connections wait off the CPU, and how often the Go scheduler
// leaves a P without a goroutine while some goroutine is runnable:
//
//	schedtrace [-conn pgwire.(*conn).run] TRACE
//
// It prints, time-weighted over the trace:
//   - the connection goroutines' time by state: running, runnable (the
//     scheduler's wait: ready but no P ran it yet), and waiting by reason
//     (network: the client's turn and the way back through the netpoller;
//     select and chan receive: the store's commit hand-offs; sync: locks);
//   - the share of the time a P was idle while a goroutine was runnable,
//     and the number of goroutines running against the number runnable;
//   - how long a goroutine stayed runnable, by what made it runnable (the
//     netpoller, another goroutine, a preemption).
//
// A connection goroutine is one whose stack, at any event of its own,
// passes through a function whose name contains -conn. It must not hold
// sqlgate code: it reads a trace file.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"golang.org/x/exp/trace"
)

func main() {
	conn := flag.String("conn", "pgwire.(*conn).run", "a function on every connection goroutine's stack")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: schedtrace [-conn FUNC] TRACE")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "schedtrace:", err)
		os.Exit(1)
	}
	defer f.Close()
	r, err := analyze(f, *conn)
	if err != nil {
		fmt.Fprintln(os.Stderr, "schedtrace:", err)
		os.Exit(1)
	}
	r.print(os.Stdout)
}

// report is what analyze measured; times are in trace nanoseconds.
type report struct {
	span float64
	// conn is the connection goroutines' time by state ("Waiting:network").
	conn map[string]float64
	// idleRunnable is the time a P was idle while a goroutine was runnable.
	idleRunnable float64
	// load is the time by goroutines running and runnable (capped at 8).
	load map[[2]int]float64
	// ready is how long goroutines stayed runnable, by what readied them.
	ready  map[string]float64
	readyN map[string]int
}

func analyze(rd io.Reader, connFunc string) (*report, error) {
	r, err := trace.NewReader(rd)
	if err != nil {
		return nil, err
	}
	rep := &report{conn: map[string]float64{}, load: map[[2]int]float64{}, ready: map[string]float64{}, readyN: map[string]int{}}
	type gstate struct {
		state    trace.GoState
		since    trace.Time
		reason   string // a waiting goroutine's reason
		readyBy  string // a runnable goroutine's cause
		isConn   bool
		seenConn bool // its stack was looked at
	}
	gs := map[trace.GoID]*gstate{}
	get := func(id trace.GoID) *gstate {
		g := gs[id]
		if g == nil {
			g = &gstate{}
			gs[id] = g
		}
		return g
	}
	procIdle := map[trace.ProcID]bool{}
	running, runnable, idleP := 0, 0, 0
	var first, last trace.Time
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		t := ev.Time()
		if first == 0 {
			first = t
		}
		if last != 0 {
			d := float64(t - last)
			rep.load[[2]int{running, min(runnable, 8)}] += d
			if runnable > 0 && idleP > 0 {
				rep.idleRunnable += d
			}
		}
		last = t
		if id := ev.Goroutine(); id != trace.NoGoroutine {
			if g := get(id); !g.seenConn {
				for fr := range ev.Stack().Frames() {
					g.seenConn = true
					if strings.Contains(fr.Func, connFunc) {
						g.isConn = true
						break
					}
				}
			}
		}
		if ev.Kind() != trace.EventStateTransition {
			continue
		}
		st := ev.StateTransition()
		switch st.Resource.Kind {
		case trace.ResourceGoroutine:
			id := st.Resource.Goroutine()
			from, to := st.Goroutine()
			g := get(id)
			if g.isConn && g.since != 0 {
				k := from.String()
				if from == trace.GoWaiting {
					k += ":" + g.reason
				}
				rep.conn[k] += float64(t - g.since)
			}
			switch from {
			case trace.GoRunning:
				running--
			case trace.GoRunnable:
				runnable--
				if to == trace.GoRunning {
					rep.ready[g.readyBy] += float64(t - g.since)
					rep.readyN[g.readyBy]++
				}
			}
			switch to {
			case trace.GoRunning:
				running++
			case trace.GoRunnable:
				runnable++
				switch {
				case from == trace.GoRunning:
					g.readyBy = "preempted or yielded"
				case from == trace.GoWaiting && ev.Goroutine() == trace.NoGoroutine:
					g.readyBy = "unblocked by the netpoller or the runtime (no goroutine)"
				case from == trace.GoWaiting:
					g.readyBy = "unblocked by a goroutine"
				default:
					g.readyBy = "created or other"
				}
			case trace.GoWaiting:
				g.reason = st.Reason
			}
			g.state, g.since = to, t
		case trace.ResourceProc:
			id := st.Resource.Proc()
			from, to := st.Proc()
			if to == trace.ProcIdle && from != trace.ProcIdle && !procIdle[id] {
				procIdle[id] = true
				idleP++
			}
			if to != trace.ProcIdle && procIdle[id] {
				procIdle[id] = false
				idleP--
			}
		}
	}
	rep.span = float64(last - first)
	return rep, nil
}

func (rep *report) print(w io.Writer) {
	fmt.Fprintf(w, "trace span %.3f s\n", rep.span/1e9)
	var ct float64
	for _, v := range rep.conn {
		ct += v
	}
	if ct > 0 {
		fmt.Fprintln(w, "connection goroutines' time by state:")
		for _, k := range sortedKeys(rep.conn) {
			fmt.Fprintf(w, "  %-28s %5.1f%%\n", k, 100*rep.conn[k]/ct)
		}
	}
	fmt.Fprintf(w, "a P idle while a goroutine was runnable: %.1f%% of the time\n", 100*rep.idleRunnable/rep.span)
	fmt.Fprintln(w, "goroutines running / runnable (8: 8 or more), share of the time:")
	keys := make([][2]int, 0, len(rep.load))
	for k := range rep.load {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	for _, k := range keys {
		if v := rep.load[k] / rep.span; v >= 0.005 {
			fmt.Fprintf(w, "  %d / %d  %5.1f%%\n", k[0], k[1], 100*v)
		}
	}
	fmt.Fprintln(w, "runnable before running, by what readied the goroutine:")
	for _, k := range sortedKeys(rep.ready) {
		fmt.Fprintf(w, "  %-58s %9.1f ms, n %8d, mean %7.1f µs\n", k, rep.ready[k]/1e6, rep.readyN[k], rep.ready[k]/float64(rep.readyN[k])/1e3)
	}
}

// sortedKeys returns m's keys, largest value first.
func sortedKeys(m map[string]float64) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(a, b string) int {
		switch {
		case m[a] > m[b]:
			return -1
		case m[a] < m[b]:
			return 1
		}
		return strings.Compare(a, b)
	})
	return ks
}
