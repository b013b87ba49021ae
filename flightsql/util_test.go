package flightsql_test

import (
	"context"

	"google.golang.org/grpc/metadata"
)

func metadataCtx(kv ...string) context.Context {
	return metadata.AppendToOutgoingContext(context.Background(), kv...)
}
