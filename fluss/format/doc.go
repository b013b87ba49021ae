// Package format owns Apache Fluss's byte formats as sqlgate uses them: the
// bucketing hash (FlussBucketingFunction), the CompactedKeyEncoder and
// CompactedRow encodings, and the V0 log record batch (header, CRC-32C,
// change-type vector and one Arrow IPC RecordBatch message without a schema
// message), and the KV formats of PutKv, Lookup and LimitScan (kvbatch.go:
// DefaultKvRecordBatch and its KvRecords, DefaultValueRecordBatch, and
// ValueEncoder's 2-byte schema id in front of a value). It also holds the small Arrow helpers the encoders share (copying
// a value between arrays of equivalent representations).
//
// It must not know about stores, files, catalogs or SQL: functions here take
// bytes and Arrow arrays and return bytes and Arrow arrays. It does not import
// package fluss, so that package can use these helpers.
package format
