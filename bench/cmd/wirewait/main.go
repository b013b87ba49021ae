//go:build linux

// Command wirewait weighs bench servers (cmd/benchserver builds) by the
// server CPU time one simple query's round trip costs when the client
// keeps the server waiting between queries, as pgx does between the
// messages of a transaction: pgwire's wait for the next message is in the
// figure, with as little of the engine as a query can have.
//
//	wirewait [-n 20000] [-rounds 6] [-think 20us] [-sql "SELECT 1"] [-idle=true] BIN...
//
// For each round it starts each BIN in turn (alternated, so that a change
// of the machine's load falls on all of them) with a fresh data directory,
// opens one session (and, with -idle, a second one left idle all along,
// as the benchmark harness's setup session is), runs 1,000 warm-up round
// trips and then n measured ones, the client spinning -think after each
// reply, and reads the server's CPU time and context switches from
// /proc/PID/task/*. It prints each round and the median per BIN.
//
// It must not hold sqlgate code: it is a client of the bench server.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/sqlgate/sqlgate/bench/internal/procstat"
)

func main() {
	n := flag.Int("n", 20000, "measured round trips per round")
	rounds := flag.Int("rounds", 6, "rounds (each starts every BIN once)")
	think := flag.Duration("think", 20*time.Microsecond, "the client's spin after each reply")
	sql := flag.String("sql", "SELECT 1", "the query of each round trip")
	idle := flag.Bool("idle", true, "keep a second session open and idle")
	flag.Parse()
	bins := flag.Args()
	if len(bins) == 0 {
		fmt.Fprintln(os.Stderr, "usage: wirewait [flags] BIN...")
		os.Exit(2)
	}
	cpu := map[string][]float64{}
	for r := range *rounds {
		for _, bin := range bins {
			us, cs, err := round(bin, *n, *think, *sql, *idle)
			if err != nil {
				fmt.Fprintln(os.Stderr, "wirewait:", bin, err)
				os.Exit(1)
			}
			cpu[bin] = append(cpu[bin], us)
			fmt.Printf("round %d %-28s server %6.2f µs CPU, %.2f context switches per round trip\n", r+1, filepath.Base(bin), us, cs)
		}
	}
	for _, bin := range bins {
		v := cpu[bin]
		slices.Sort(v)
		fmt.Printf("median %-27s server %6.2f µs CPU per round trip (min %.2f, max %.2f, %d rounds)\n", filepath.Base(bin), v[len(v)/2], v[0], v[len(v)-1], len(v))
	}
}

// round starts bin, measures n round trips and stops it.
func round(bin string, n int, think time.Duration, sql string, idle bool) (cpuUS, cs float64, err error) {
	dir, err := os.MkdirTemp("", "wirewait")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(bin, "--data", dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		return 0, 0, err
	}
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "listening" {
		return 0, 0, fmt.Errorf("server said %q", line)
	}
	addr := f[1]
	if idle {
		ic, err := session(addr)
		if err != nil {
			return 0, 0, err
		}
		defer ic.Close()
	}
	c, err := session(addr)
	if err != nil {
		return 0, 0, err
	}
	defer c.Close()
	fe := pgproto3.NewFrontend(c, c)
	roundTrip := func() error {
		fe.Send(&pgproto3.Query{String: sql})
		if err := fe.Flush(); err != nil {
			return err
		}
		for {
			m, err := fe.Receive()
			if err != nil {
				return err
			}
			if e, ok := m.(*pgproto3.ErrorResponse); ok {
				return errors.New(e.Message)
			}
			if _, ok := m.(*pgproto3.ReadyForQuery); ok {
				break
			}
		}
		for t := time.Now(); time.Since(t) < think; {
		}
		return nil
	}
	for range 1000 {
		if err := roundTrip(); err != nil {
			return 0, 0, err
		}
	}
	pid := cmd.Process.Pid
	cpu0, cs0, err := procstat.TaskStats(pid)
	if err != nil {
		return 0, 0, err
	}
	for range n {
		if err := roundTrip(); err != nil {
			return 0, 0, err
		}
	}
	cpu1, cs1, err := procstat.TaskStats(pid)
	if err != nil {
		return 0, 0, err
	}
	return float64((cpu1 - cpu0).Nanoseconds()) / 1e3 / float64(n), float64(cs1-cs0) / float64(n), nil
}

// session opens a session of user sqlgate (trust) and reads up to its
// first ReadyForQuery.
func session(addr string) (net.Conn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	fe := pgproto3.NewFrontend(c, c)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": "sqlgate", "database": "sqlgate"}})
	if err := fe.Flush(); err != nil {
		c.Close()
		return nil, err
	}
	for {
		m, err := fe.Receive()
		if err != nil {
			c.Close()
			return nil, err
		}
		switch m := m.(type) {
		case *pgproto3.ErrorResponse:
			c.Close()
			return nil, errors.New(m.Message)
		case *pgproto3.ReadyForQuery:
			return c, nil
		}
	}
}
