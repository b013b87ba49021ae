package main

import (
	"bytes"
	"runtime/trace"
	"strings"
	"testing"
	"time"
)

// fakeConnLoop stands for a connection goroutine: it waits on a channel
// (as a commit hand-off does) and runs a little between waits.
func fakeConnLoop(in <-chan int, out chan<- int) {
	for v := range in {
		spin(20 * time.Microsecond)
		out <- v
	}
	close(out)
}

func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

func TestAnalyzeFindsConnectionStates(t *testing.T) {
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Fatal(err)
	}
	in, out := make(chan int), make(chan int)
	go fakeConnLoop(in, out)
	go func() {
		for i := range 2000 {
			in <- i
		}
		close(in)
	}()
	n := 0
	for range out {
		n++
	}
	trace.Stop()
	if n != 2000 {
		t.Fatalf("got %d replies", n)
	}
	rep, err := analyze(&buf, "fakeConnLoop")
	if err != nil {
		t.Fatal(err)
	}
	if rep.span <= 0 {
		t.Fatalf("span %v", rep.span)
	}
	if rep.conn["Running"] <= 0 {
		t.Errorf("no running time for the connection goroutine: %v", rep.conn)
	}
	waited := false
	for k, v := range rep.conn {
		if strings.HasPrefix(k, "Waiting:chan") && v > 0 {
			waited = true
		}
	}
	if !waited {
		t.Errorf("no channel wait for the connection goroutine: %v", rep.conn)
	}
	if rep.readyN["unblocked by a goroutine"] == 0 {
		t.Errorf("no goroutine readied by another: %v", rep.readyN)
	}
	var out2 bytes.Buffer
	rep.print(&out2)
	if !strings.Contains(out2.String(), "connection goroutines' time by state:") {
		t.Errorf("report without the connection section:\n%s", out2.String())
	}
}
