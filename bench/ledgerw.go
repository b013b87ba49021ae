package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// ---- W10: pgbench-style write transactions (issue 35) ----
//
// Each transaction is pgbench's core, on a table of its own: BEGIN; UPDATE
// ledger SET bal = bal + $delta WHERE id = $id; SELECT bal FROM ledger
// WHERE id = $id; END, both statements prepared. Keys are uniform over the
// table's rows, or drawn from a hot set of 10 keys where every transaction
// waits for row locks. After each run the sum of the balances must equal
// the sum of the deltas committed: a lost update is a MISMATCH.

const (
	ledgerRows = 100_000
	ledgerHot  = 10
)

func (h *harness) runW10(ctx context.Context) {
	keys := []bool{false}
	if h.cfg.W10Hot {
		keys = append(keys, true)
	}
	for _, hot := range keys {
		for _, clients := range h.cfg.W10Clients {
			keys := "uniform keys"
			if hot {
				keys = fmt.Sprintf("hot set of %d keys", ledgerHot)
			}
			name := fmt.Sprintf("W10 write transaction, %s, %d client", keys, clients)
			if clients > 1 {
				name += "s"
			}
			tps := h.addFigure(&figure{Workload: name, Metric: "TPS", Unit: "transactions/s", HigherBetter: true, Systems: map[string]*stat{}})
			cpu := h.addFigure(&figure{Workload: name, Metric: "server CPU", Unit: "µs/transaction", Systems: map[string]*stat{}})
			client := h.addFigure(&figure{Workload: name, Metric: "client CPU", Unit: "µs/transaction", Systems: map[string]*stat{}})
			idle := h.addFigure(&figure{Workload: name, Metric: "machine idle", Unit: "µs/transaction", Systems: map[string]*stat{}})
			for _, t := range h.targets {
				h.logf("W10 %s, %s, %d clients", t.name, keys, clients)
				run := h.w10
				if h.cfg.W10Client == "pgbench" {
					run = h.w10pgbench
				}
				tps.Systems[t.name], cpu.Systems[t.name], client.Systems[t.name], idle.Systems[t.name] = run(ctx, t, clients, hot, name)
			}
		}
	}
}

// w10 measures one target: transactions per second over runs of
// W1Duration each, and the server's CPU time per transaction as W1
// measures it (the sqlgate process, or the PostgreSQL backends serving the
// clients): on a shared machine the CPU per transaction moves much less
// than the rate, and at several clients on 2 cores it is what the rate is
// bound by. client is the harness's own CPU time per transaction (pgx and
// the client goroutines, the same code for every system): on 2 cores the
// client and the server share the CPU, so a server whose replies cost the
// client more work lowers the rate as surely as its own CPU does.
func (h *harness) w10(ctx context.Context, t target, clients int, hot bool, workload string) (tps, cpu, client, idle *stat) {
	setup, err := makeLedger(ctx, t)
	if err != nil {
		return errStat(err), errStat(err), errStat(err), errStat(err)
	}
	defer setup.Close(context.Background())
	conns := make([]*pgx.Conn, clients)
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close(context.Background())
			}
		}
	}()
	for i := range conns {
		c, err := pgx.Connect(ctx, t.connString)
		if err != nil {
			return errStat(err), errStat(err), errStat(err), errStat(err)
		}
		conns[i] = c
		if _, err := c.Prepare(ctx, "w10u", "UPDATE ledger SET bal = bal + $1 WHERE id = $2"); err != nil {
			return errStat(err), errStat(err), errStat(err), errStat(err)
		}
		if _, err := c.Prepare(ctx, "w10s", "SELECT bal FROM ledger WHERE id = $1"); err != nil {
			return errStat(err), errStat(err), errStat(err), errStat(err)
		}
	}
	pids := h.serverPIDs(t, conns)
	var committed atomic.Int64 // sum of the deltas committed, over every run
	reported := false
	var cpuS, clientS, idleS []float64
	self := []int{os.Getpid()}
	tps = h.repeat(ctx, func(ctx context.Context, measured bool) (float64, error) {
		cpu0, cpuErr := cpuTime(pids)
		own0, ownErr := cpuTime(self)
		idle0, idleErr := machineIdle()
		var wg sync.WaitGroup
		var n atomic.Int64
		errs := make(chan error, clients)
		deadline := time.Now().Add(h.cfg.W1Duration)
		start := time.Now()
		for i, c := range conns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(i)+7, uint64(clients)))
				for time.Now().Before(deadline) {
					id := rng.Int64N(ledgerRows) + 1
					if hot {
						id = rng.Int64N(ledgerHot) + 1
					}
					delta := rng.Int64N(1000) - 500
					if err := w10tx(ctx, c, id, delta); err != nil {
						errs <- err
						return
					}
					committed.Add(delta)
					n.Add(1)
				}
			}()
		}
		wg.Wait()
		elapsed := time.Since(start)
		cpu1, err := cpuTime(pids)
		if cpuErr == nil {
			cpuErr = err
		}
		own1, err := cpuTime(self)
		if ownErr == nil {
			ownErr = err
		}
		idle1, err := machineIdle()
		if idleErr == nil {
			idleErr = err
		}
		close(errs)
		for err := range errs {
			return 0, err
		}
		var sum int64
		if err := setup.QueryRow(ctx, "SELECT coalesce(sum(bal), 0) FROM ledger").Scan(&sum); err != nil {
			return 0, err
		}
		if sum != committed.Load() && !reported {
			reported = true
			h.mismatch(workload, t.name, fmt.Sprintf("balances sum to %d, the committed transactions to %d: lost updates", sum, committed.Load()))
		}
		if measured && cpuErr == nil && n.Load() > 0 {
			cpuS = append(cpuS, float64((cpu1-cpu0).Nanoseconds())/1e3/float64(n.Load()))
		}
		if measured && ownErr == nil && n.Load() > 0 {
			clientS = append(clientS, float64((own1-own0).Nanoseconds())/1e3/float64(n.Load()))
		}
		if measured && idleErr == nil && n.Load() > 0 {
			idleS = append(idleS, float64((idle1-idle0).Nanoseconds())/1e3/float64(n.Load()))
		}
		return float64(n.Load()) / elapsed.Seconds(), nil
	})
	if tps.Err != "" {
		return tps, tps, tps, tps
	}
	cpu, client = newStat(cpuS), newStat(clientS)
	noCPU := errStat(errors.New("no CPU times: /proc/PID/task/*/schedstat unreadable"))
	if len(cpuS) == 0 {
		cpu = noCPU
	}
	if len(clientS) == 0 {
		client = noCPU
	}
	return tps, cpu, client, idleStat(idleS)
}

// makeLedger makes W10's table of ledgerRows zero balances on t and
// returns the connection it used, which checks the sums after each run.
func makeLedger(ctx context.Context, t target) (*pgx.Conn, error) {
	setup, err := pgx.Connect(ctx, t.connString)
	if err != nil {
		return nil, err
	}
	for _, q := range []string{
		"DROP TABLE IF EXISTS ledger",
		"CREATE TABLE ledger (id BIGINT PRIMARY KEY, bal BIGINT NOT NULL)",
		fmt.Sprintf("INSERT INTO ledger SELECT g, 0 FROM generate_series(1, %d) AS g", ledgerRows),
	} {
		if _, err := setup.Exec(ctx, q); err != nil {
			setup.Close(context.Background())
			return nil, err
		}
	}
	return setup, nil
}

func w10tx(ctx context.Context, c *pgx.Conn, id, delta int64) error {
	tx, err := c.Begin(ctx)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "w10u", delta, id); err != nil {
		tx.Rollback(ctx)
		return err
	}
	var bal int64
	if err := tx.QueryRow(ctx, "w10s", id).Scan(&bal); err != nil {
		tx.Rollback(ctx)
		return err
	}
	return tx.Commit(ctx)
}
