package binder

import "github.com/sqlgate/sqlgate/sqlerr"

// explainMetrics reads EXPLAIN's METRICS option (seed 002's metrics
// levels): counts (exact batch and row counts), timing (plus each node's
// own time) or stalls (plus stall times and queue depths, the default).
// Like PostgreSQL's TIMING, it requires ANALYZE.
func (b *binder) explainMetrics(analyze bool) (string, error) {
	if b.stmt == nil {
		return "", nil
	}
	v, ok := b.stmt.ExplainOptions["metrics"]
	if !ok {
		return "", nil
	}
	switch v {
	case "counts", "timing", "stalls":
	default:
		return "", sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized value for EXPLAIN option \"metrics\": \"%s\"", v).
			WithHint("The levels are counts, timing and stalls.")
	}
	if !analyze {
		return "", sqlerr.New(sqlerr.InvalidParameterValue, "EXPLAIN option METRICS requires ANALYZE")
	}
	return v, nil
}
