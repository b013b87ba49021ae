package flightsql

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// statusOf turns err into the gRPC status the client gets, and the trailer
// metadata carrying its SQLSTATE (nil when it has none). A status error
// (from arrow-go's request decoding) passes as it is.
func statusOf(err error, log *slog.Logger) (error, metadata.MD) {
	if err == nil {
		return nil, nil
	}
	if _, ok := status.FromError(err); ok {
		return err, nil
	}
	e, internal := sqlErrorOf(err)
	if internal {
		log.Error("flightsql: internal error", "err", err)
	}
	msg := fmt.Sprintf("%s (SQLSTATE %s)", e.Message, e.Code)
	if e.Detail != "" {
		msg += "\nDETAIL: " + e.Detail
	}
	if e.Hint != "" {
		msg += "\nHINT: " + e.Hint
	}
	md := metadata.Pairs("sqlstate", string(e.Code))
	if e.Detail != "" {
		md.Set("detail", e.Detail)
	}
	if e.Hint != "" {
		md.Set("hint", e.Hint)
	}
	code := codeOf(e.Code)
	if e.Code == sqlerr.QueryCanceled && e.Message == statementTimeoutMessage {
		code = codes.DeadlineExceeded
	}
	return status.Error(code, msg), md
}

// codeOf is the gRPC code of a SQLSTATE: by its class, with the few codes
// whose meaning a gRPC client acts on (missing, existing, refused) apart.
func codeOf(c sqlerr.Code) codes.Code {
	switch c {
	case sqlerr.InsufficientPrivilege:
		return codes.PermissionDenied
	case sqlerr.UndefinedTable, sqlerr.UndefinedObject, sqlerr.UndefinedFunction, sqlerr.InvalidSchemaName,
		sqlerr.InvalidCatalogName, sqlerr.UndefinedPreparedStatement:
		return codes.NotFound
	case sqlerr.DuplicateTable, sqlerr.DuplicateObject, sqlerr.DuplicateSchema, sqlerr.UniqueViolation,
		sqlerr.DuplicatePreparedStatement:
		return codes.AlreadyExists
	case sqlerr.QueryCanceled:
		return codes.Canceled
	case sqlerr.AdminShutdown:
		return codes.Unavailable
	case sqlerr.DataCorrupted:
		return codes.DataLoss
	}
	class := string(c)
	if len(class) >= 2 {
		class = class[:2]
	}
	switch class {
	case "28":
		return codes.Unauthenticated
	case "0A":
		return codes.Unimplemented
	case "22", "42", "08", "21", "26", "34", "3F", "3D", "2B", "0L":
		return codes.InvalidArgument
	case "23", "25", "55":
		return codes.FailedPrecondition
	case "40":
		return codes.Aborted
	case "53", "54":
		return codes.ResourceExhausted
	case "57":
		return codes.Canceled
	case "XX", "58", "F0":
		return codes.Internal
	}
	if strings.HasPrefix(string(c), "3") {
		return codes.InvalidArgument
	}
	return codes.Unknown
}

// sqlErrorOf is the SQLSTATE error a client gets for err: its own, 57014
// for an ended context, else XX000 "internal error" (internal true: a Go
// error whose text must not reach the client).
func sqlErrorOf(err error) (e *sqlerr.Error, internal bool) {
	if e := sqlerr.As(err); e != nil {
		return e, false
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return canceledError(), false
	}
	return sqlerr.New(sqlerr.InternalError, "internal error"), true
}

// canceledError is PostgreSQL's 57014 for a statement a cancel request
// ended; shutdownError its 57P01 for a connection an administrator ended.
func canceledError() *sqlerr.Error {
	return sqlerr.CanceledByUser()
}

func shutdownError() *sqlerr.Error {
	return sqlerr.New(sqlerr.AdminShutdown, "terminating connection due to administrator command")
}

// statementTimeoutMessage is PostgreSQL's 57014 message when
// statement_timeout fired (pgwire sends the same).
const statementTimeoutMessage = "canceling statement due to statement timeout"
