package remote

import (
	"maps"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/remote/internal/pb"
)

// COMMENT ON on a cluster. Fluss 0.9.1 keeps a table's and its columns'
// comments from CREATE TABLE, but its AlterTable cannot change them (its
// SchemaUpdate refuses column changes other than adding, and it has no
// table comment change). What it can change are custom properties, which
// it stores and returns untouched: COMMENT ON sets sqlgate's own
// (commentKey, columnCommentKey), and reading the table puts them over
// Fluss's comments (withComments), so the comment set last is the one
// shown. A value is "=" and the comment, so that a removed comment (IS
// NULL, or an empty string) is "=" and still overrides the one CREATE TABLE gave. Other
// Fluss clients see the CREATE TABLE comments and these properties.
const (
	commentKey       = "sqlgate.comment"
	columnCommentKey = "sqlgate.comment:c:" // + the column's name
)

// commentChange is the AlterTable config change that sets a comment
// (column "" for the table's).
func commentChange(column, comment string) *pb.PbAlterConfig {
	key := commentKey
	if column != "" {
		key = columnCommentKey + column
	}
	return &pb.PbAlterConfig{ConfigKey: proto.String(key), ConfigValue: proto.String("=" + comment), OpType: proto.Int32(0)}
}

// withComments puts the comments COMMENT ON set over Fluss's, and takes
// their properties out of the custom ones (they are sqlgate's bookkeeping).
func withComments(info fluss.TableInfo) fluss.TableInfo {
	custom := info.Descriptor.CustomProperties
	found := false
	for k := range custom {
		if strings.HasPrefix(k, commentKey) {
			found = true
			break
		}
	}
	if !found {
		return info
	}
	custom = maps.Clone(custom)
	d := &info.Descriptor
	d.Schema.Columns = append([]fluss.Column(nil), d.Schema.Columns...)
	for k, v := range custom {
		if !strings.HasPrefix(k, commentKey) {
			continue
		}
		delete(custom, k)
		v = strings.TrimPrefix(v, "=")
		if k == commentKey {
			d.Comment = v
			continue
		}
		name, ok := strings.CutPrefix(k, columnCommentKey)
		if !ok {
			continue
		}
		for i := range d.Schema.Columns {
			if d.Schema.Columns[i].Name == name {
				d.Schema.Columns[i].Comment = v
			}
		}
	}
	if len(custom) == 0 {
		custom = nil
	}
	d.CustomProperties = custom
	return info
}
