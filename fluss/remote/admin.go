package remote

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/remote/internal/pb"
)

// CreateDatabase creates a database (DDL goes to the coordinator).
func (c *Client) CreateDatabase(ctx context.Context, name string, ignoreIfExists bool) error {
	req := &pb.CreateDatabaseRequest{DatabaseName: proto.String(name), IgnoreIfExists: proto.Bool(ignoreIfExists),
		DatabaseJson: []byte(`{"version":1,"custom_properties":{}}`)}
	return c.adminCall(ctx, true, apiCreateDB, req, &pb.CreateDatabaseResponse{})
}

// DropDatabase drops a database; cascade drops its tables too.
func (c *Client) DropDatabase(ctx context.Context, name string, ignoreIfNotExists, cascade bool) error {
	req := &pb.DropDatabaseRequest{DatabaseName: proto.String(name), IgnoreIfNotExists: proto.Bool(ignoreIfNotExists),
		Cascade: proto.Bool(cascade)}
	return c.adminCall(ctx, true, apiDropDB, req, &pb.DropDatabaseResponse{})
}

// ListDatabases lists the databases' names.
func (c *Client) ListDatabases(ctx context.Context) ([]string, error) {
	var resp pb.ListDatabasesResponse
	if err := c.adminCall(ctx, false, apiListDBs, &pb.ListDatabasesRequest{}, &resp); err != nil {
		return nil, err
	}
	return resp.DatabaseName, nil
}

// DatabaseExists reports whether a database exists.
func (c *Client) DatabaseExists(ctx context.Context, name string) (bool, error) {
	var resp pb.DatabaseExistsResponse
	err := c.adminCall(ctx, false, apiDBExists, &pb.DatabaseExistsRequest{DatabaseName: proto.String(name)}, &resp)
	return resp.GetExists(), err
}

// CreateTable creates a table from its descriptor, sent as Fluss's table JSON.
func (c *Client) CreateTable(ctx context.Context, path fluss.TablePath, d fluss.TableDescriptor, ignoreIfExists bool) error {
	js, err := fluss.MarshalTableJSON(d)
	if err != nil {
		return fmt.Errorf("fluss CreateTable %s: %w", path, err)
	}
	req := &pb.CreateTableRequest{TablePath: pbPath(path), TableJson: js, IgnoreIfExists: proto.Bool(ignoreIfExists)}
	return c.adminCall(ctx, true, apiCreateTable, req, &pb.CreateTableResponse{})
}

// DropTable drops a table.
func (c *Client) DropTable(ctx context.Context, path fluss.TablePath, ignoreIfNotExists bool) error {
	req := &pb.DropTableRequest{TablePath: pbPath(path), IgnoreIfNotExists: proto.Bool(ignoreIfNotExists)}
	err := c.adminCall(ctx, true, apiDropTable, req, &pb.DropTableResponse{})
	c.mu.Lock()
	delete(c.tables, path)
	c.mu.Unlock()
	return err
}

// TableExists reports whether a table exists.
func (c *Client) TableExists(ctx context.Context, path fluss.TablePath) (bool, error) {
	var resp pb.TableExistsResponse
	err := c.adminCall(ctx, false, apiTableExists, &pb.TableExistsRequest{TablePath: pbPath(path)}, &resp)
	return resp.GetExists(), err
}

// ListTables lists a database's table names.
func (c *Client) ListTables(ctx context.Context, database string) ([]string, error) {
	var resp pb.ListTablesResponse
	if err := c.adminCall(ctx, false, apiListTables, &pb.ListTablesRequest{DatabaseName: proto.String(database)}, &resp); err != nil {
		return nil, err
	}
	return resp.TableName, nil
}

// GetTableInfo returns a table's id, current schema id and descriptor.
func (c *Client) GetTableInfo(ctx context.Context, path fluss.TablePath) (fluss.TableInfo, error) {
	var resp pb.GetTableInfoResponse
	if err := c.adminCall(ctx, false, apiGetTableInfo, &pb.GetTableInfoRequest{TablePath: pbPath(path)}, &resp); err != nil {
		return fluss.TableInfo{}, err
	}
	if resp.TableId == nil || resp.SchemaId == nil || resp.TableJson == nil {
		return fluss.TableInfo{}, &ProtocolError{Msg: fmt.Sprintf("GetTableInfo of %s lacks table id, schema id or table JSON", path)}
	}
	d, err := fluss.ParseTableJSON(resp.TableJson)
	if err != nil {
		return fluss.TableInfo{}, fmt.Errorf("fluss GetTableInfo %s: %w", path, err)
	}
	return fluss.TableInfo{Path: path, TableID: resp.GetTableId(), SchemaID: int16(resp.GetSchemaId()),
		CreatedAt: resp.GetCreatedTime(), Descriptor: d}, nil
}

// GetTableSchema returns one version of a table's schema (schemaID < 0: the
// latest) and its id; batches name the schema their writer used.
func (c *Client) GetTableSchema(ctx context.Context, path fluss.TablePath, schemaID int) (fluss.Schema, int16, error) {
	req := &pb.GetTableSchemaRequest{TablePath: pbPath(path)}
	if schemaID >= 0 {
		req.SchemaId = proto.Int32(int32(schemaID))
	}
	var resp pb.GetTableSchemaResponse
	if err := c.adminCall(ctx, false, apiGetSchema, req, &resp); err != nil {
		return fluss.Schema{}, 0, err
	}
	s, err := fluss.ParseSchemaJSON(resp.SchemaJson)
	if err != nil {
		return fluss.Schema{}, 0, fmt.Errorf("fluss GetTableSchema %s: %w", path, err)
	}
	return s, int16(resp.GetSchemaId()), nil
}

// InitWriter returns a new writer id for idempotent writes to the tables.
func (c *Client) InitWriter(ctx context.Context, paths ...fluss.TablePath) (int64, error) {
	req := &pb.InitWriterRequest{}
	for _, p := range paths {
		req.TablePath = append(req.TablePath, pbPath(p))
	}
	var resp pb.InitWriterResponse
	// Any tablet server answers InitWriter; the coordinator does not.
	if err := c.tabletCall(ctx, apiInitWriter, req, &resp); err != nil {
		return 0, err
	}
	if resp.WriterId == nil {
		return 0, &ProtocolError{Msg: "InitWriter response has no writer id"}
	}
	return resp.GetWriterId(), nil
}

// tabletCall sends a request that any tablet server answers.
func (c *Client) tabletCall(ctx context.Context, api int16, req, resp proto.Message) error {
	retries := orDefault(c.cfg.Retries, 8)
	var last error
	for n := 0; n <= retries; n++ {
		c.mu.Lock()
		var addrs []string
		for _, a := range c.meta.tablets {
			addrs = append(addrs, a)
		}
		c.mu.Unlock()
		if len(addrs) == 0 {
			if err := c.refreshCluster(ctx); err != nil {
				return err
			}
			c.mu.Lock()
			for _, a := range c.meta.tablets {
				addrs = append(addrs, a)
			}
			c.mu.Unlock()
			if len(addrs) == 0 {
				return &Error{Code: CodeNetwork, API: apiNames[api], Message: "the cluster has no live tablet server"}
			}
		}
		err := c.attempt(ctx, addrs[n%len(addrs)], api, req, resp)
		if err == nil {
			return nil
		}
		last = err
		retry, refresh := retriable(err)
		if !retry || ctx.Err() != nil {
			return err
		}
		if refresh {
			_ = c.refreshCluster(ctx)
		}
		if err := c.backoff(ctx, n); err != nil {
			return err
		}
	}
	return last
}
