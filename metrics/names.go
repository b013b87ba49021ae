package metrics

// The metric names sqlgate exports. Names lists them all, for the
// dashboard test; the Go runtime's (go_*) and the process's (process_*)
// come from client_golang's own collectors.
const (
	Connections         = "sqlgate_connections"
	ConnectionsTotal    = "sqlgate_connections_total"
	Statements          = "sqlgate_statements_total"
	StatementSeconds    = "sqlgate_statement_duration_seconds"
	RowsRead            = "sqlgate_rows_read_total"
	RowsWritten         = "sqlgate_rows_written_total"
	BytesSent           = "sqlgate_client_bytes_sent_total"
	CopyBytes           = "sqlgate_copy_bytes_total"
	Errors              = "sqlgate_errors_total"
	Commits             = "sqlgate_transactions_total"
	StoreSyncs          = "sqlgate_store_syncs_total"
	StoreSyncSeconds    = "sqlgate_store_sync_duration_seconds"
	CacheHits           = "sqlgate_block_cache_hits_total"
	CacheMisses         = "sqlgate_block_cache_misses_total"
	SpillFiles          = "sqlgate_spill_files"
	SpillBytes          = "sqlgate_spill_bytes"
	GoMemoryBytes       = "go_memstats_heap_alloc_bytes"
	ProcessResidentSize = "process_resident_memory_bytes"
)

// Names are every metric a scrape of a running server shows (after one
// statement and one sync: counter vectors appear with their first label
// values).
func Names() []string {
	return []string{Connections, ConnectionsTotal, Statements, StatementSeconds, RowsRead, RowsWritten, BytesSent,
		CopyBytes, Errors, Commits, StoreSyncs, StoreSyncSeconds, CacheHits, CacheMisses, SpillFiles, SpillBytes,
		GoMemoryBytes, ProcessResidentSize}
}
