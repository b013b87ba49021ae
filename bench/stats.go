package main

import (
	"slices"
	"time"
)

// stat is one system's figure for one metric: the median of the measured
// runs (after the warm-up), with min and max. Err is set instead when the
// system could not run the workload; it is reported, never hidden.
type stat struct {
	Samples []float64 `json:"samples,omitempty"`
	Median  float64   `json:"median"`
	Min     float64   `json:"min"`
	Max     float64   `json:"max"`
	Err     string    `json:"error,omitempty"`
	Note    string    `json:"note,omitempty"`
}

func newStat(samples []float64) *stat {
	s := &stat{Samples: samples}
	if len(samples) == 0 {
		return s
	}
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	s.Min, s.Max = sorted[0], sorted[len(sorted)-1]
	mid := len(sorted) / 2
	if len(sorted)%2 == 1 {
		s.Median = sorted[mid]
	} else {
		s.Median = (sorted[mid-1] + sorted[mid]) / 2
	}
	return s
}

func errStat(err error) *stat { return &stat{Err: "unsupported: " + firstLine(err.Error())} }

// percentile returns the p-th percentile (0..100) of durations, nearest rank.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	sorted := slices.Clone(d)
	slices.Sort(sorted)
	rank := int(p/100*float64(len(sorted))+0.5) - 1
	rank = max(0, min(rank, len(sorted)-1))
	return sorted[rank]
}

// figure is one row of the result table: a workload's metric on every system.
type figure struct {
	Workload     string           `json:"workload"`
	Metric       string           `json:"metric"`
	Unit         string           `json:"unit"`
	HigherBetter bool             `json:"higher_is_better"`
	Systems      map[string]*stat `json:"systems"`
	// VsPostgres is, per system, how many times better than PostgreSQL
	// the median is (>1 = better), whichever direction the unit runs.
	VsPostgres map[string]float64 `json:"vs_postgres,omitempty"`
	// SqlgateVsDuckDB is the same for sqlgate against DuckDB.
	SqlgateVsDuckDB float64 `json:"sqlgate_vs_duckdb,omitempty"`
	Mismatch        string  `json:"mismatch,omitempty"`
}

// betterRatio is how many times better a is than b (>1 = a better).
func betterRatio(a, b *stat, higherBetter bool) (float64, bool) {
	if a == nil || b == nil || a.Err != "" || b.Err != "" || a.Median == 0 || b.Median == 0 {
		return 0, false
	}
	if higherBetter {
		return a.Median / b.Median, true
	}
	return b.Median / a.Median, true
}

func (f *figure) computeRatios() {
	f.VsPostgres = map[string]float64{}
	pg := f.Systems[sysPostgres]
	for name, s := range f.Systems {
		if name == sysPostgres {
			continue
		}
		if r, ok := betterRatio(s, pg, f.HigherBetter); ok {
			f.VsPostgres[name] = r
		}
	}
	if r, ok := betterRatio(f.Systems[sysSqlgate], f.Systems[sysDuckDB], f.HigherBetter); ok {
		f.SqlgateVsDuckDB = r
	}
}
