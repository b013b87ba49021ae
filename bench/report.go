package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// machineInfo describes where the run happened, for the ledger.
type machineInfo struct {
	CPU      string `json:"cpu"`
	Cores    int    `json:"cores"`
	MemoryGB string `json:"memory"`
	Kernel   string `json:"kernel"`
	Go       string `json:"go"`
}

func describeMachine() machineInfo {
	m := machineInfo{Cores: runtime.NumCPU(), Go: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				m.CPU = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	if kib, err := readMemTotalKiB(); err == nil {
		m.MemoryGB = fmt.Sprintf("%.1f GiB", float64(kib)/(1<<20))
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	return m
}

func readMemTotalKiB() (int64, error) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no MemTotal")
}

// gitCommit is the commit of the tree under test, with "+dirty" when the
// working tree has changes (the figures then describe uncommitted code).
func gitCommit() string {
	out, err := exec.Command("git", "-C", "..", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	commit := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "-C", "..", "status", "--porcelain").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		commit += "+dirty"
	}
	return commit
}

// report is the JSON file's content.
type report struct {
	Date       string                `json:"date"`
	Commit     string                `json:"commit"`
	Machine    machineInfo           `json:"machine"`
	Command    string                `json:"command"`
	Config     config                `json:"config"`
	Loads      map[string]loadResult `json:"loads"`
	Figures    []*figure             `json:"figures"`
	Mismatches []string              `json:"mismatches"`
	Seconds    float64               `json:"total_seconds"`
	// The 1-minute load average before and after: above the core count,
	// something else shared the machine and every figure is suspect.
	LoadAvgStart float64 `json:"loadavg_start"`
	LoadAvgEnd   float64 `json:"loadavg_end"`
}

func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return -1
	}
	return v
}

func writeJSON(dir string, r *report) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	name := strings.NewReplacer(":", "-").Replace(r.Date) + ".json"
	path := filepath.Join(dir, name)
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return "", err
	}
	return path, os.WriteFile(path, append(b, '\n'), 0o644)
}

// formatNumber prints a figure with 3 significant digits and a k/M suffix
// for large rates.
func formatNumber(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', sigDecimals(v/1e6), 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(v/1e3, 'f', sigDecimals(v/1e3), 64) + "k"
	default:
		return strconv.FormatFloat(v, 'f', sigDecimals(v), 64)
	}
}

func sigDecimals(v float64) int {
	switch a := math.Abs(v); {
	case a >= 100:
		return 0
	case a >= 10:
		return 1
	default:
		return 2
	}
}

func formatStat(s *stat) string {
	switch {
	case s == nil:
		return "n/a"
	case s.Err != "":
		msg := s.Err
		if len(msg) > 70 {
			msg = msg[:67] + "..."
		}
		return strings.ReplaceAll(msg, "|", "/")
	case len(s.Samples) == 1:
		return formatNumber(s.Median)
	default:
		return fmt.Sprintf("%s [%s–%s]", formatNumber(s.Median), formatNumber(s.Min), formatNumber(s.Max))
	}
}

func formatRatio(r float64) string {
	if r == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2fx", r)
}

// printTable writes the result table as Markdown, ready for LEDGER.md.
func printTable(w io.Writer, r *report) {
	fmt.Fprintf(w, "| workload | metric | PostgreSQL | sqlgate | DuckDB | sqlgate vs PG | DuckDB vs PG | sqlgate vs DuckDB | answers |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|\n")
	for _, f := range r.Figures {
		check := "agree"
		if f.Mismatch != "" {
			check = "**MISMATCH**: " + strings.ReplaceAll(f.Mismatch, "|", "/")
		} else if f.Workload[:2] == "W9" {
			check = "—"
		}
		fmt.Fprintf(w, "| %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s |\n",
			f.Workload, f.Metric, f.Unit,
			formatStat(f.Systems[sysPostgres]), formatStat(f.Systems[sysSqlgate]), formatStat(f.Systems[sysDuckDB]),
			formatRatio(f.VsPostgres[sysSqlgate]), formatRatio(f.VsPostgres[sysDuckDB]), formatRatio(f.SqlgateVsDuckDB), check)
	}
	fmt.Fprintf(w, "\nFigures are median [min–max] of %d runs after %d warm-up. Ratios are \"times better\" (>1 = better than the other system), whichever way the unit runs.\n",
		r.Config.Runs, r.Config.Warmups)
	for _, sys := range []string{sysPostgres, sysSqlgate, sysDuckDB} {
		if l, ok := r.Loads[sys]; ok {
			note := ""
			if l.Note != "" {
				note = " (" + l.Note + ")"
			}
			fmt.Fprintf(w, "Load %s: %d rows by %s in %.1fs%s.\n", sys, r.Config.Rows, l.Method, l.Seconds, note)
		}
	}
	fmt.Fprintf(w, "Machine: %s, %d cores, %s; commit %s; %.0fs in all; 1-minute load average %.2f at start, %.2f at end.\n",
		r.Machine.CPU, r.Machine.Cores, r.Machine.MemoryGB, r.Commit, r.Seconds, r.LoadAvgStart, r.LoadAvgEnd)
	if max(r.LoadAvgStart, r.LoadAvgEnd) > float64(r.Machine.Cores) {
		fmt.Fprintf(w, "**WARNING: the load average exceeded the %d cores: other work shared the machine and the figures are noisy.**\n", r.Machine.Cores)
	}
	for _, f := range r.Figures {
		if s := f.Systems[sysSqlgate]; strings.HasPrefix(f.Workload, "W9") && s != nil && s.Note != "" {
			fmt.Fprintf(w, "%s: %s.\n", f.Workload, s.Note)
		}
	}
	for _, line := range flightOwnRatios(r.Figures) { // flight.go
		fmt.Fprintln(w, line)
	}
	if len(r.Mismatches) > 0 {
		fmt.Fprintf(w, "\n**%d DISAGREEMENTS:**\n", len(r.Mismatches))
		for _, m := range r.Mismatches {
			fmt.Fprintf(w, "- %s\n", m)
		}
	} else {
		fmt.Fprintf(w, "All answers agree (PostgreSQL is the reference; W2/W3 also checked against the generator).\n")
	}
}
