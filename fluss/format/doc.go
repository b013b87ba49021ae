// Package format owns Apache Fluss's byte formats, written and read exactly
// as Fluss 0.9.1 writes them:
//   - the bucketing hash (FlussBucketingFunction, bucket.go);
//   - the CompactedKeyEncoder and CompactedRow encodings (compacted.go),
//     with Fluss's nested values: ARRAY and MAP as a length and a
//     BinaryArray / BinaryMap, ROW as a length and a CompactedRow
//     (binaryarray.go), and TIME as milliseconds of the day at every
//     precision (a finer value is refused: ErrTimeBelowMillis);
//   - the log record batch (logbatch.go): header, CRC-32C, change-type
//     vector and one Arrow IPC RecordBatch message without a schema
//     message; sqlgate writes magic V0 as Fluss clients do and reads V0,
//     V1 (0.9.1's leader epoch) and V2 (1.0's epoch and statistics), and
//     empty batches (no Arrow; they take one offset). The Arrow in a batch
//     is Fluss's (arrowunits.go: TIME/TIMESTAMP(0) seconds, (1-3)
//     milliseconds, no zone on TIMESTAMP_LTZ), converted losslessly to and
//     from the engine's representation (types.T.ArrowType) by
//     EncodeTableBatch and NewTableBatchDecoder, including projected reads
//     (projected.go) and zero-copy reads (batchreader.go); EncodeBatch and
//     NewBatchDecoder take Arrow that is Fluss's already, as it is;
//     SmallBatchEncoder writes a table's small batches of fixed-width
//     columns without nulls itself, from the IPC prefix arrow-go's writer
//     produced for the first batch of as many rows (smallbatch.go), from
//     an Arrow record or, for integer, float and date columns, from the
//     rows' compacted bytes (EncodeRows); append-only batches too;
//     SetWriter stamps an idempotent writer's id and sequence (inside the
//     CRC, which it recomputes); a ServerProjected decoder skips the CRC of
//     batches a server projected in FetchLog (it keeps the unprojected
//     batch's CRC), every other decode checks it;
//   - the KV formats of PutKv, Lookup and LimitScan (kvbatch.go):
//     DefaultKvRecordBatch and its KvRecords, DefaultValueRecordBatch, and
//     ValueEncoder's 2-byte schema id in front of a value.
//
// testdata/golden holds byte vectors written by Fluss 0.9.1's own encoders
// (GenGolden.java says how to regenerate them) that golden_test.go matches
// both ways. It also holds the small Arrow helpers the encoders share
// (copying a value between arrays of equivalent representations).
//
// It must not know about stores, files, catalogs or SQL: functions here take
// bytes and Arrow arrays and return bytes and Arrow arrays. It does not import
// package fluss, so that package can use these helpers.
package format
