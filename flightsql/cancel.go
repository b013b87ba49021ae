package flightsql

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow/flight"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	pb "github.com/apache/arrow-go/v18/arrow/flight/gen/flight"
)

// CancelFlightInfo cancels the query a FlightInfo's ticket names: one
// awaiting its DoGet is dropped, a running one has its context cancelled
// (its DoGet ends with 57014), as a PostgreSQL CancelRequest does.
func (s *Server) CancelFlightInfo(ctx context.Context, req *flight.CancelFlightInfoRequest) (flight.CancelFlightInfoResult, error) {
	return flight.CancelFlightInfoResult{Status: cancelQuery(connOf(ctx), req.GetInfo())}, nil
}

// cancelQuery cancels the query of info on c.
func cancelQuery(c *conn, info *flight.FlightInfo) flight.CancelStatus {
	res := flight.CancelStatusNotCancellable
	if info == nil || len(info.Endpoint) == 0 || info.Endpoint[0].GetTicket() == nil {
		return res
	}
	var any anypb.Any
	if err := proto.Unmarshal(info.Endpoint[0].GetTicket().GetTicket(), &any); err != nil {
		return res
	}
	var t pb.TicketStatementQuery
	if err := any.UnmarshalTo(&t); err != nil {
		return res
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pending[string(t.GetStatementHandle())]
	if !ok {
		return res
	}
	if p.cancel != nil {
		p.cancel()
	} else {
		delete(c.pending, string(t.GetStatementHandle()))
	}
	return flight.CancelStatusCancelled
}

var _ afsql.Server = (*Server)(nil)
