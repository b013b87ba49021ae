package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// ---- W10 driven by PostgreSQL's pgbench ----
//
// The pgx clients of ledgerw.go cost the machine ~40 µs of CPU per
// transaction, about what a server spends: on 2 cores that client shares
// the CPU with the server and flattens the difference between servers.
// pgbench, a C loop over libpq, is the tool the figures came from
// and costs a fraction of that. The transaction is the same (BEGIN; UPDATE
// by key; SELECT by key; END, prepared); the delta is 1, so that the sum of
// the balances counts the transactions committed and a lost update shows.

// w10Script is the pgbench script; %d is the key range.
const w10Script = `\set id random(1, %d)
\set delta 1
BEGIN;
UPDATE ledger SET bal = bal + :delta WHERE id = :id;
SELECT bal FROM ledger WHERE id = :id;
END;
`

var (
	pgbenchProcessed = regexp.MustCompile(`number of transactions actually processed: (\d+)`)
	pgbenchTPS       = regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`)
)

// w10pgbench measures one target with pgbench: transactions per second (as
// pgbench reports them, without its connection time), the server's CPU per
// transaction (sqlgate's process; for PostgreSQL the whole cluster: the
// postmaster, its background processes and the backends pgbench's clients
// had, which have exited by the end of a run and are counted through the
// postmaster's reaped children's times), and pgbench's own CPU per
// transaction.
func (h *harness) w10pgbench(ctx context.Context, t target, clients int, hot bool, workload string) (tps, cpu, client, idle *stat) {
	binDir := os.Getenv("PGTEST_BIN_DIR")
	if binDir == "" {
		binDir = pgtest.DefaultBinDir
	}
	pgbench := filepath.Join(binDir, "pgbench")
	if _, err := os.Stat(pgbench); err != nil {
		err = fmt.Errorf("pgbench not found (set PGTEST_BIN_DIR or use --w10-client pgx): %w", err)
		return errStat(err), errStat(err), errStat(err), errStat(err)
	}
	dbURL, options, err := pgbenchConn(t.connString)
	if err != nil {
		return errStat(err), errStat(err), errStat(err), errStat(err)
	}
	setup, err := makeLedger(ctx, t)
	if err != nil {
		return errStat(err), errStat(err), errStat(err), errStat(err)
	}
	defer setup.Close(context.Background())
	if t.name == sysPostgres {
		// As the run had it: statistics, and the heap's visibility.
		if _, err := setup.Exec(ctx, "VACUUM ANALYZE ledger"); err != nil {
			return errStat(err), errStat(err), errStat(err), errStat(err)
		}
	}
	keys := ledgerRows
	if hot {
		keys = ledgerHot
	}
	script := filepath.Join(os.TempDir(), fmt.Sprintf("sqlgate-w10-%d.pgb", os.Getpid()))
	if err := os.WriteFile(script, fmt.Appendf(nil, w10Script, keys), 0o644); err != nil {
		return errStat(err), errStat(err), errStat(err), errStat(err)
	}
	defer os.Remove(script)
	seconds := max(1, int(math.Ceil(h.cfg.W1Duration.Seconds())))
	args := []string{"-n", "-M", "prepared", "-f", script, "-c", strconv.Itoa(clients),
		"-j", strconv.Itoa(min(clients, 2)), "-T", strconv.Itoa(seconds), dbURL}

	var committed, runs int64
	reported := false
	var cpuS, clientS, idleS []float64
	tps = h.repeat(ctx, func(ctx context.Context, measured bool) (float64, error) {
		cpu0, cpuErr := serverCPU(t)
		idle0, idleErr := machineIdle()
		cmd := exec.CommandContext(ctx, pgbench, args...)
		cmd.Env = append(os.Environ(), "PGOPTIONS="+options)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return 0, fmt.Errorf("pgbench: %v\n%s", err, tail(out.String(), 2000))
		}
		cpu1, err := serverCPU(t)
		if cpuErr == nil {
			cpuErr = err
		}
		idle1, err := machineIdle()
		if idleErr == nil {
			idleErr = err
		}
		n, rate, err := pgbenchFigures(out.String())
		if err != nil {
			return 0, err
		}
		committed += n
		runs++
		var sum int64
		if err := setup.QueryRow(ctx, "SELECT coalesce(sum(bal), 0) FROM ledger").Scan(&sum); err != nil {
			return 0, err
		}
		// A transaction whose COMMIT the server executed as pgbench's
		// timer ended is applied but not counted: at most one per client
		// and run beyond the count, never fewer than it.
		if (sum < committed || sum > committed+runs*int64(clients)) && !reported {
			reported = true
			h.mismatch(workload, t.name, fmt.Sprintf("balances sum to %d, pgbench committed %d transactions: lost or phantom updates", sum, committed))
		}
		if measured && cpuErr == nil && n > 0 {
			cpuS = append(cpuS, float64((cpu1-cpu0).Nanoseconds())/1e3/float64(n))
		}
		if measured && n > 0 {
			own := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			clientS = append(clientS, float64(own.Nanoseconds())/1e3/float64(n))
		}
		if measured && idleErr == nil && n > 0 {
			idleS = append(idleS, float64((idle1-idle0).Nanoseconds())/1e3/float64(n))
		}
		return rate, nil
	})
	if tps.Err != "" {
		return tps, tps, tps, tps
	}
	cpu, client = newStat(cpuS), newStat(clientS)
	if len(cpuS) == 0 {
		cpu = errStat(errors.New("no CPU times: /proc/PID/task/*/schedstat unreadable"))
	}
	return tps, cpu, client, idleStat(idleS)
}

// pgbenchConn turns a target's pgx connection string into a URL libpq
// accepts and a PGOPTIONS value: pgx passes unknown query parameters (the
// harness's synchronous_commit=off) as session settings, libpq refuses
// them.
func pgbenchConn(connString string) (dbURL, options string, err error) {
	u, err := url.Parse(connString)
	if err != nil {
		return "", "", fmt.Errorf("connection string %q: %w", connString, err)
	}
	q := u.Query()
	var opts []string
	for _, name := range []string{"synchronous_commit"} {
		if v := q.Get(name); v != "" {
			opts = append(opts, fmt.Sprintf("-c %s=%s", name, v))
			q.Del(name)
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), strings.Join(opts, " "), nil
}

// pgbenchFigures reads the transactions processed and the rate from
// pgbench's report.
func pgbenchFigures(out string) (int64, float64, error) {
	m := pgbenchProcessed.FindStringSubmatch(out)
	r := pgbenchTPS.FindStringSubmatch(out)
	if m == nil || r == nil {
		return 0, 0, fmt.Errorf("pgbench printed no transaction count or rate:\n%s", tail(out, 2000))
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return 0, 0, err
	}
	rate, err := strconv.ParseFloat(r[1], 64)
	return n, rate, err
}

// serverCPU is the CPU time a target's server has used: sqlgate's process,
// or PostgreSQL's cluster (see clusterCPU).
func serverCPU(t target) (time.Duration, error) {
	if t.name == sysPostgres {
		return clusterCPU(t.pid)
	}
	return cpuTime([]int{t.pid})
}

// clusterCPU is the CPU time of a PostgreSQL cluster: its postmaster's
// threads and live children (schedstat, nanoseconds), plus the times of
// the children the postmaster has reaped (/proc/PID/stat's cutime and
// cstime, in clock ticks of 10 ms): a backend that served a pgbench client
// has exited by the time a run is measured.
func clusterCPU(postmaster int) (time.Duration, error) {
	pids := []int{postmaster}
	children, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", postmaster, postmaster))
	if err != nil {
		return 0, err
	}
	for _, f := range strings.Fields(string(children)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d children: %q", postmaster, f)
		}
		pids = append(pids, pid)
	}
	live, err := cpuTimeLive(pids)
	if err != nil {
		return 0, err
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", postmaster))
	if err != nil {
		return 0, err
	}
	// The fields after the command name, which is in parentheses and may
	// hold spaces: state is field 3, cutime 16 and cstime 17.
	_, rest, ok := bytes.Cut(stat, []byte(") "))
	fields := strings.Fields(string(rest))
	if !ok || len(fields) < 15 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected %q", postmaster, stat)
	}
	var reaped time.Duration
	for _, f := range fields[13:15] {
		ticks, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %v", postmaster, err)
		}
		reaped += time.Duration(ticks) * 10 * time.Millisecond
	}
	return live + reaped, nil
}

// cpuTimeLive is cpuTime over processes some of which may exit while it
// reads: an exited one is skipped (its time moves to its parent's reaped
// children's times).
func cpuTimeLive(pids []int) (time.Duration, error) {
	var total time.Duration
	for _, pid := range pids {
		d, err := cpuTime([]int{pid})
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, err
		}
		total += d
	}
	return total, nil
}

// tail is the last n bytes of s, for an error message.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// machineIdle is the time every CPU of the machine has spent idle or
// waiting for I/O since boot (/proc/stat's first line, in clock ticks of
// 10 ms). W10 reports it per transaction beside the server's and the
// client's CPU: at several clients on 2 cores a server can spend no more
// CPU per transaction than another and still run fewer, when its
// wake-ups leave a core idle while work is waiting (bench/LEDGER.md,
// 2026-12-07 13:53–13:59).
func machineIdle() (time.Duration, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 6 || f[0] != "cpu" {
		return 0, fmt.Errorf("/proc/stat: unexpected first line %q", line)
	}
	var ticks int64
	for _, v := range f[4:6] { // idle, iowait
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/stat: %v", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}

// idleStat is the machine's idle time per transaction over the measured
// runs, or why there is none.
func idleStat(perTx []float64) *stat {
	if len(perTx) == 0 {
		return errStat(errors.New("no idle times: /proc/stat unreadable"))
	}
	return newStat(perTx)
}
