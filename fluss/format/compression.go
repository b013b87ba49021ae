package format

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/sqlgate/sqlgate/types"
)

// Compression is the codec of a log table's Arrow bodies, as the table
// declares it in 'table.log.arrow.compression.type'. Fluss's server
// projects columns of a batch by the table's declared codec, so a batch
// written with another one does not survive a projected FetchLog: writers
// use the table's.
type Compression uint8

// The codecs Fluss 0.9.1 declares (ArrowCompressionType).
const (
	CompressionNone Compression = iota
	CompressionLZ4Frame
	CompressionZstd
)

// CompressionProperty is the table property that declares the codec, and
// CompressionDefault what Fluss 0.9.1 uses when a table does not set it.
const (
	CompressionProperty = "table.log.arrow.compression.type"
	CompressionDefault  = CompressionZstd
)

// ParseCompression reads a 'table.log.arrow.compression.type' value
// (case-insensitive, as Fluss's enum option); "" is Fluss's default.
func ParseCompression(s string) (Compression, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "":
		return CompressionDefault, nil
	case "NONE":
		return CompressionNone, nil
	case "LZ4_FRAME":
		return CompressionLZ4Frame, nil
	case "ZSTD":
		return CompressionZstd, nil
	}
	return CompressionNone, fmt.Errorf("unknown %s %q (NONE, LZ4_FRAME or ZSTD)", CompressionProperty, s)
}

func (c Compression) String() string {
	switch c {
	case CompressionLZ4Frame:
		return "LZ4_FRAME"
	case CompressionZstd:
		return "ZSTD"
	}
	return "NONE"
}

// ipcOptions are the IPC writer options of c. arrow-go's ZSTD writer uses
// klauspost/compress's default level, which stands for zstd's level 3,
// Fluss's default 'table.log.arrow.compression.zstd.level'; a table
// declaring another level gets level-3 bodies, which every ZSTD reader
// decodes alike (the level only trades size for time).
func (c Compression) ipcOptions() []ipc.Option {
	switch c {
	case CompressionLZ4Frame:
		return []ipc.Option{ipc.WithLZ4()}
	case CompressionZstd:
		return []ipc.Option{ipc.WithZstd()}
	}
	return nil
}

// EncodeTableBatchCompressed is EncodeTableBatch with the Arrow body
// buffers compressed by c (a log table's declared codec). Decoders read
// compressed and uncompressed batches alike.
func EncodeTableBatchCompressed(rec arrow.RecordBatch, ts []types.T, changes []ChangeType, schemaID int16, c Compression) ([]byte, error) {
	if len(ts) != int(rec.NumCols()) {
		return nil, fmt.Errorf("%d column types for a record of %d columns", len(ts), rec.NumCols())
	}
	return encodeBatch(rec, ts, changes, schemaID, c.ipcOptions()...)
}
