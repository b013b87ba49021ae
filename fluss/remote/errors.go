package remote

import (
	"errors"
	"fmt"
)

// Error codes of Fluss 0.9.1 (org.apache.fluss.rpc.protocol.Errors) that the
// client acts on or names; any other code is reported by number.
const (
	CodeUnknownServerError     = -1
	CodeNetwork                = 1
	CodeUnsupportedVersion     = 2
	CodeCorruptMessage         = 3
	CodeDatabaseNotExist       = 4
	CodeDatabaseNotEmpty       = 5
	CodeDatabaseAlreadyExist   = 6
	CodeTableNotExist          = 7
	CodeTableAlreadyExist      = 8
	CodeSchemaNotExist         = 9
	CodeNotLeaderOrFollower    = 12
	CodeRecordTooLarge         = 13
	CodeCorruptRecord          = 14
	CodeLogOffsetOutOfRange    = 19
	CodeNonPrimaryKeyTable     = 20
	CodeUnknownTableOrBucket   = 21
	CodeFencedLeaderEpoch      = 24
	CodeRequestTimeOut         = 25
	CodeStorage                = 26
	CodeNotEnoughReplicasAfter = 28
	CodeNotEnoughReplicas      = 29
	CodeOutOfOrderSequence     = 31
	CodeDuplicateSequence      = 32
	CodeUnknownWriterID        = 33
	CodePartitionNotExists     = 36
	CodeInvalidTimestamp       = 38
	CodeLeaderNotAvailable     = 44
	CodeAuthenticate           = 46
	CodeAuthorization          = 48
	CodeRetriableAuthenticate  = 51
	CodeDeletionDisabled       = 57
)

var codeNames = map[int32]string{
	-1: "UNKNOWN_SERVER_ERROR", 1: "NETWORK_EXCEPTION", 2: "UNSUPPORTED_VERSION", 3: "CORRUPT_MESSAGE",
	4: "DATABASE_NOT_EXIST", 5: "DATABASE_NOT_EMPTY", 6: "DATABASE_ALREADY_EXIST", 7: "TABLE_NOT_EXIST",
	8: "TABLE_ALREADY_EXIST", 9: "SCHEMA_NOT_EXIST", 10: "LOG_STORAGE_EXCEPTION", 11: "KV_STORAGE_EXCEPTION",
	12: "NOT_LEADER_OR_FOLLOWER", 13: "RECORD_TOO_LARGE_EXCEPTION", 14: "CORRUPT_RECORD_EXCEPTION",
	15: "INVALID_TABLE_EXCEPTION", 16: "INVALID_DATABASE_EXCEPTION", 17: "INVALID_REPLICATION_FACTOR",
	18: "INVALID_REQUIRED_ACKS", 19: "LOG_OFFSET_OUT_OF_RANGE_EXCEPTION", 20: "NON_PRIMARY_KEY_TABLE_EXCEPTION",
	21: "UNKNOWN_TABLE_OR_BUCKET_EXCEPTION", 22: "INVALID_UPDATE_VERSION_EXCEPTION",
	23: "INVALID_COORDINATOR_EXCEPTION", 24: "FENCED_LEADER_EPOCH_EXCEPTION", 25: "REQUEST_TIME_OUT",
	26: "STORAGE_EXCEPTION", 27: "OPERATION_NOT_ATTEMPTED_EXCEPTION", 28: "NOT_ENOUGH_REPLICAS_AFTER_APPEND_EXCEPTION",
	29: "NOT_ENOUGH_REPLICAS_EXCEPTION", 30: "SECURITY_TOKEN_EXCEPTION", 31: "OUT_OF_ORDER_SEQUENCE_EXCEPTION",
	32: "DUPLICATE_SEQUENCE_EXCEPTION", 33: "UNKNOWN_WRITER_ID_EXCEPTION", 34: "INVALID_COLUMN_PROJECTION",
	35: "INVALID_TARGET_COLUMN", 36: "PARTITION_NOT_EXISTS", 37: "TABLE_NOT_PARTITIONED_EXCEPTION",
	38: "INVALID_TIMESTAMP_EXCEPTION", 39: "INVALID_CONFIG_EXCEPTION", 40: "LAKE_STORAGE_NOT_CONFIGURED_EXCEPTION",
	41: "KV_SNAPSHOT_NOT_EXIST", 42: "PARTITION_ALREADY_EXISTS", 43: "PARTITION_SPEC_INVALID_EXCEPTION",
	44: "LEADER_NOT_AVAILABLE_EXCEPTION", 45: "PARTITION_MAX_NUM_EXCEPTION", 46: "AUTHENTICATE_EXCEPTION",
	47: "SECURITY_DISABLED_EXCEPTION", 48: "AUTHORIZATION_EXCEPTION", 49: "BUCKET_MAX_NUM_EXCEPTION",
	50: "FENCED_TIERING_EPOCH_EXCEPTION", 51: "RETRIABLE_AUTHENTICATE_EXCEPTION", 52: "INVALID_SERVER_RACK_INFO_EXCEPTION",
	53: "LAKE_SNAPSHOT_NOT_EXIST", 54: "LAKE_TABLE_ALREADY_EXIST", 55: "INELIGIBLE_REPLICA_EXCEPTION",
	56: "INVALID_ALTER_TABLE_EXCEPTION", 57: "DELETION_DISABLED_EXCEPTION", 58: "SERVER_NOT_EXIST_EXCEPTION",
	63: "INVALID_PRODUCER_ID_EXCEPTION",
}

// Error is an error the Fluss server returned: a whole-request ErrorResponse
// or a per-bucket error code.
type Error struct {
	Code    int32
	Message string
	// API names the request that failed (e.g. "PutKv").
	API string
}

func (e *Error) Error() string {
	name := codeNames[e.Code]
	if name == "" {
		name = fmt.Sprintf("unknown error code %d", e.Code)
	}
	if e.Message == "" {
		return fmt.Sprintf("fluss %s: %s", e.API, name)
	}
	return fmt.Sprintf("fluss %s: %s: %s", e.API, name, e.Message)
}

// Retriable reports whether the request may be sent again unchanged: the
// server did not apply it (a leader moved, a replica set is short) or applied
// it in a way an idempotent writer deduplicates. Fluss's Java client retries
// the same family (exceptions extending RetriableException). Corrupt
// message/record are retriable in Java (a flipped bit on the wire) but here
// they would mean our encoder is wrong, and retrying would only repeat it.
func (e *Error) Retriable() bool {
	switch e.Code {
	case CodeNetwork, CodeNotLeaderOrFollower, CodeUnknownTableOrBucket, CodeFencedLeaderEpoch,
		CodeRequestTimeOut, CodeStorage, CodeNotEnoughReplicasAfter, CodeNotEnoughReplicas,
		CodeLeaderNotAvailable, CodeRetriableAuthenticate, CodeSchemaNotExist:
		return true
	}
	return false
}

// staleMetadata reports whether the error means our leader map is out of
// date (fluss.md §4.2: 12, 21, 44; a fenced epoch says the same).
func (e *Error) staleMetadata() bool {
	switch e.Code {
	case CodeNotLeaderOrFollower, CodeUnknownTableOrBucket, CodeLeaderNotAvailable, CodeFencedLeaderEpoch:
		return true
	}
	return false
}

// CodeOf returns the Fluss error code carried by err, or 0.
func CodeOf(err error) int32 {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// ConnError is a failure of the connection to one server (dial, write, read,
// a malformed frame, or the server closing it): the request may or may not
// have reached the server.
type ConnError struct {
	Addr string
	Err  error
	// NotSent is set when the request never left this process (the dial or
	// the handshake failed), so that resending it cannot apply it twice.
	NotSent bool
}

func (e *ConnError) Error() string { return fmt.Sprintf("fluss connection to %s: %v", e.Addr, e.Err) }
func (e *ConnError) Unwrap() error { return e.Err }

// ProtocolError is a response that breaks the protocol: a frame too short or
// too long, a body that does not decode. The connection is closed.
type ProtocolError struct{ Msg string }

func (e *ProtocolError) Error() string { return "fluss protocol error: " + e.Msg }

// ErrClosed is returned by calls on a closed client.
var ErrClosed = errors.New("fluss client closed")
