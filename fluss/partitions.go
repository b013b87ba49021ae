package fluss

import (
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Partitioned tables as Fluss 0.9.1 has them (TableDescriptor's partition
// keys, PartitionUtils, ResolvedPartitionSpec, AutoPartitionStrategy): a
// partitioned table's rows live in partitions, one per distinct tuple of
// partition-key values, each with its own id and its own buckets. A
// partition is named by its values rendered as Fluss renders them
// (PartitionValue) and joined with '$' (PartitionName). Partitions are
// created explicitly (PartitionCatalog.CreatePartition: ALTER TABLE ... ADD
// PARTITION), by the auto-partitioning of table.auto-partition.* (today's
// and the next num-precreate time partitions are created, those older than
// num-retention dropped; AutoPartition) and by writers: a row whose
// partition does not exist creates it, as Fluss's writer does with
// client.writer.dynamic-create-partition.enabled (true by default).

// The auto-partition table properties (ConfigOptions of 0.9.1).
const (
	PropAutoPartitionEnabled   = "table.auto-partition.enabled"
	PropAutoPartitionKey       = "table.auto-partition.key"
	PropAutoPartitionTimeUnit  = "table.auto-partition.time-unit"
	PropAutoPartitionTimeZone  = "table.auto-partition.time-zone"
	PropAutoPartitionPrecreate = "table.auto-partition.num-precreate"
	PropAutoPartitionRetention = "table.auto-partition.num-retention"
)

// MaxPartitions is Fluss's default max.partition.num: the partitions one
// table may have.
const MaxPartitions = 1000

// maxPartitionValueLen is TablePath.MAX_NAME_LENGTH, which partition values
// are held to.
const maxPartitionValueLen = 200

// PartitionInfo is one partition of a table.
type PartitionInfo struct {
	ID   int64
	Name string
	// Values are the partition-key values in partition-key order.
	Values []string
}

// PartitionFilter reports whether a scan reads a partition (partition
// pruning): see ScanOptions.Partitions.
type PartitionFilter func(PartitionInfo) bool

// PartitionCatalog is implemented by stores that keep partitioned tables.
// Errors are *sqlerr.Error: 42P01 for a missing table, 42809 for a table
// that is not partitioned, 42P07 / 42704 for a partition that exists /
// does not, 22023 for an invalid value, 54000 past MaxPartitions.
type PartitionCatalog interface {
	// ListPartitions lists a partitioned table's partitions, by name.
	ListPartitions(ctx context.Context, path TablePath) ([]PartitionInfo, error)
	// CreatePartition creates the partition of values (in partition-key
	// order).
	CreatePartition(ctx context.Context, path TablePath, values []string, ignoreIfExists bool) error
	// DropPartition drops the partition of values and its rows.
	DropPartition(ctx context.Context, path TablePath, values []string, ignoreIfNotExists bool) error
}

// IsPartitioned reports whether the table is partitioned.
func (t TableInfo) IsPartitioned() bool { return len(t.Descriptor.PartitionKeys) > 0 }

// PartitionName is Fluss's name of the partition of values: the values
// joined with '$' (ResolvedPartitionSpec.getPartitionName).
func PartitionName(values []string) string { return strings.Join(values, "$") }

// PartitionValues splits a partition name into the values of a table with
// n partition keys.
func PartitionValues(name string, n int) ([]string, error) {
	v := strings.Split(name, "$")
	if len(v) != n {
		return nil, fmt.Errorf("partition name %q does not have %d values", name, n)
	}
	return v, nil
}

// PartitionSpec shows a partition as Flink's SHOW PARTITIONS does:
// key=value pairs joined with '/'.
func PartitionSpec(keys, values []string) string {
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(k)
		b.WriteByte('=')
		if i < len(values) {
			b.WriteString(values[i])
		}
	}
	return b.String()
}

// errInvalidPartition builds every invalid-partition-value error.
func errInvalidPartition(v, reason string) error {
	return sqlerr.New(sqlerr.InvalidParameterValue, "the partition value %q is invalid: %s", v, reason)
}

// ValidatePartitionValue checks a partition value as Fluss does
// (TablePath.detectInvalidName; on create also validatePrefix): 1 to 200
// ASCII letters, digits, '_' and '-', not starting with "__".
func ValidatePartitionValue(v string, create bool) error {
	switch {
	case v == "":
		return errInvalidPartition(v, "the empty string is not allowed")
	case len(v) > maxPartitionValueLen:
		return errInvalidPartition(v, fmt.Sprintf("it is longer than the max allowed length %d", maxPartitionValueLen))
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return errInvalidPartition(v, "it contains one or more characters other than ASCII alphanumerics, '_' and '-'")
		}
	}
	if create && strings.HasPrefix(v, "__") {
		return errInvalidPartition(v, "'__' is not allowed as prefix, since it is reserved for internal partitions in Fluss")
	}
	return nil
}

// partitionKeyKinds are PartitionUtils.PARTITION_KEY_SUPPORTED_TYPES.
var partitionKeyKinds = []types.Kind{types.Char, types.String, types.Bool, types.Binary, types.Bytes,
	types.Int8, types.Int16, types.Int32, types.Int64, types.Date, types.Time, types.Float32, types.Float64,
	types.Timestamp, types.TimestampTZ}

// validatePartitioning checks out's partition keys and auto-partition
// properties (TableDescriptorValidation.checkPartition) and, for a
// primary-key table, that the partition keys are part of the primary key;
// it defaults the bucket key of a partitioned primary-key table to the
// primary key without the partition keys, as Fluss does.
func validatePartitioning(out *TableDescriptor, keys []string) error {
	auto, err := parseAutoPartition(out.Properties, keys)
	if err != nil {
		return err
	}
	if len(keys) == 0 {
		if auto.Enabled {
			return sqlerr.New(sqlerr.InvalidTableDefinition, "auto partition is only supported for partitioned tables; set table property '%s' to false", PropAutoPartitionEnabled)
		}
		return nil
	}
	seen := map[string]bool{}
	for _, k := range keys {
		i := slices.IndexFunc(out.Schema.Columns, func(c Column) bool { return c.Name == k })
		if i < 0 {
			return sqlerr.New(sqlerr.UndefinedColumn, "partition key column \"%s\" does not exist", k)
		}
		if seen[k] {
			return sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\" appears twice in the partition key", k)
		}
		seen[k] = true
		if t := out.Schema.Columns[i].Type; !slices.Contains(partitionKeyKinds, t.Kind) {
			return sqlerr.New(sqlerr.InvalidTableDefinition, "column \"%s\" of type %s cannot be a partition key: Fluss partition keys are CHAR, STRING, BOOLEAN, BINARY, BYTES, TINYINT, SMALLINT, INT, BIGINT, DATE, TIME, FLOAT, DOUBLE, TIMESTAMP or TIMESTAMP_LTZ", k, t.Nullable())
		}
		if len(out.Schema.PrimaryKey) > 0 && !slices.Contains(out.Schema.PrimaryKey, k) {
			return sqlerr.New(sqlerr.InvalidTableDefinition, "partition key column \"%s\" is not part of the primary key: a partitioned primary-key table's partition keys must be primary-key columns", k)
		}
		if slices.Contains(out.BucketKey, k) {
			return sqlerr.New(sqlerr.InvalidTableDefinition, "bucket key column \"%s\" is a partition key: the bucket key of a partitioned table must not contain partition keys", k)
		}
	}
	if len(out.Schema.PrimaryKey) > 0 && len(out.BucketKey) == 0 {
		for _, c := range out.Schema.PrimaryKey {
			if !seen[c] {
				out.BucketKey = append(out.BucketKey, c)
			}
		}
		if len(out.BucketKey) == 0 {
			return sqlerr.New(sqlerr.InvalidTableDefinition, "the primary key of a partitioned table must have a column that is not a partition key")
		}
	}
	out.PartitionKeys = slices.Clone(keys)
	return nil
}

// AutoPartition is a table's table.auto-partition.* strategy
// (AutoPartitionStrategy).
type AutoPartition struct {
	Enabled bool
	// Key is the time partition key, KeyIndex its position among the
	// partition keys.
	Key       string
	KeyIndex  int
	Unit      string // HOUR, DAY, MONTH, QUARTER or YEAR
	Zone      *time.Location
	Precreate int
	// Retention is how many past partitions are kept; negative keeps all.
	Retention int
}

// AutoPartitionOf returns d's auto-partition strategy.
func AutoPartitionOf(d TableDescriptor) AutoPartition {
	a, _ := parseAutoPartition(d.Properties, d.PartitionKeys)
	return a
}

func parseAutoPartition(props map[string]string, keys []string) (AutoPartition, error) {
	a := AutoPartition{Unit: "DAY", Zone: time.Local, Precreate: 2, Retention: 7}
	bad := func(k, v, want string) error {
		return sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for table property '%s': %q (%s)", k, v, want)
	}
	if v, ok := props[PropAutoPartitionEnabled]; ok {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return a, bad(PropAutoPartitionEnabled, v, "true or false")
		}
		a.Enabled = b
	}
	if v, ok := props[PropAutoPartitionTimeUnit]; ok {
		u := strings.ToUpper(strings.TrimSpace(v))
		if !slices.Contains([]string{"HOUR", "DAY", "MONTH", "QUARTER", "YEAR"}, u) {
			return a, bad(PropAutoPartitionTimeUnit, v, "HOUR, DAY, MONTH, QUARTER or YEAR")
		}
		a.Unit = u
	}
	if v, ok := props[PropAutoPartitionTimeZone]; ok {
		z, err := time.LoadLocation(strings.TrimSpace(v))
		if err != nil {
			return a, bad(PropAutoPartitionTimeZone, v, "a time zone name")
		}
		a.Zone = z
	}
	_, precreateSet := props[PropAutoPartitionPrecreate]
	for _, p := range []struct {
		key string
		dst *int
	}{{PropAutoPartitionPrecreate, &a.Precreate}, {PropAutoPartitionRetention, &a.Retention}} {
		if v, ok := props[p.key]; ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return a, bad(p.key, v, "a whole number")
			}
			*p.dst = n
		}
	}
	a.Key = props[PropAutoPartitionKey]
	if !a.Enabled || len(keys) == 0 {
		return a, nil
	}
	if len(keys) > 1 {
		if strings.TrimSpace(a.Key) == "" {
			return a, sqlerr.New(sqlerr.InvalidTableDefinition, "an auto-partitioned table with several partition keys must name its time partition key in table property '%s'", PropAutoPartitionKey)
		}
		if !precreateSet {
			a.Precreate = 0 // Fluss sets it to 0 when it is not given
		}
		if a.Precreate > 0 {
			return a, sqlerr.New(sqlerr.InvalidTableDefinition, "for a partitioned table with multiple partition keys, auto pre-create is unsupported and '%s' must be 0, but is %d", PropAutoPartitionPrecreate, a.Precreate)
		}
	} else if a.Key == "" {
		a.Key = keys[0]
	}
	a.KeyIndex = slices.Index(keys, a.Key)
	if a.KeyIndex < 0 {
		return a, sqlerr.New(sqlerr.InvalidTableDefinition, "the auto-partition key '%s' is not a partition key (%s)", a.Key, strings.Join(keys, ", "))
	}
	return a, nil
}

// TimeValue is the auto-partition time value offset units from now's
// (AutoPartitionStrategy's formats: yyyyMMddHH, yyyyMMdd, yyyyMM, yyyyQ,
// yyyy, in the strategy's time zone).
func (a AutoPartition) TimeValue(now time.Time, offset int) string {
	t := now.In(a.Zone)
	switch a.Unit {
	case "HOUR":
		t = t.Add(time.Duration(offset) * time.Hour)
		return t.Format("2006010215")
	case "MONTH":
		return t.AddDate(0, offset, 0).Format("200601")
	case "QUARTER":
		t = t.AddDate(0, 3*offset, 0)
		return fmt.Sprintf("%04d%d", t.Year(), (int(t.Month())-1)/3+1)
	case "YEAR":
		return fmt.Sprintf("%04d", t.AddDate(offset, 0, 0).Year())
	}
	return t.AddDate(0, 0, offset).Format("20060102")
}

// Plan returns what auto-partitioning does at now to a table with
// partitions have (AutoPartitionManager): the partitions to drop (those
// whose time value sorts before the oldest retained one, when retention is
// not negative) and the values of those to pre-create (single-key tables:
// now's and the next Precreate-1 time values that do not exist).
func (a AutoPartition) Plan(nkeys int, have []PartitionInfo, now time.Time) (drop []PartitionInfo, create [][]string) {
	if !a.Enabled || a.KeyIndex < 0 || a.KeyIndex >= nkeys {
		return nil, nil
	}
	if a.Retention >= 0 {
		oldest := a.TimeValue(now, -a.Retention)
		for _, p := range have {
			if a.KeyIndex < len(p.Values) && p.Values[a.KeyIndex] < oldest {
				drop = append(drop, p)
			}
		}
	}
	if nkeys == 1 {
		for i := 0; i < a.Precreate; i++ {
			v := a.TimeValue(now, i)
			if !slices.ContainsFunc(have, func(p PartitionInfo) bool { return p.Name == v }) {
				create = append(create, []string{v})
			}
		}
	}
	return drop, create
}

// PartitionValue renders row i of col, a partition-key column of type t,
// as Fluss's PartitionUtils.convertValueOfType does. A NULL is refused
// (23502), as Fluss's PartitionGetter refuses it.
func PartitionValue(t types.T, col arrow.Array, i int, name string) (string, error) {
	if col.IsNull(i) {
		return "", sqlerr.New(sqlerr.NotNullViolation, "null value in partition key column \"%s\": a row's partition key must not be null", name)
	}
	switch a := col.(type) {
	case *array.String:
		return a.Value(i), nil
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i)), nil
	case *array.Binary:
		return hex.EncodeToString(a.Value(i)), nil
	case *array.FixedSizeBinary:
		return hex.EncodeToString(a.Value(i)), nil
	case *array.Int8:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int16:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10), nil
	case *array.Float32:
		return javaFloat(float64(a.Value(i)), 32), nil
	case *array.Float64:
		return javaFloat(a.Value(i), 64), nil
	case *array.Date32:
		return time.Unix(int64(a.Value(i))*86400, 0).UTC().Format("2006-01-02"), nil
	case *array.Time32:
		return timeValue(int64(a.Value(i)) * int64(time.Millisecond)), nil
	case *array.Time64:
		d := int64(a.Value(i))
		if a.DataType().(*arrow.Time64Type).Unit == arrow.Microsecond {
			d *= 1000
		}
		return timeValue(d), nil
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		ts := time.Unix(0, 0).UTC().Add(time.Duration(int64(a.Value(i)) * int64(unit.Multiplier())))
		s := ts.Format("2006-01-02-15-04-05") + "_"
		if ns := ts.Nanosecond(); ns != 0 {
			s += strings.TrimRight(fmt.Sprintf("%09d", ns), "0")
		}
		return s, nil
	}
	return "", sqlerr.New(sqlerr.FeatureNotSupported, "column \"%s\" of type %s cannot be a partition key", name, t.Nullable())
}

// timeValue is PartitionNameConverters.milliToString: HH-mm-ss_SSS of a
// TIME (Fluss keeps milliseconds).
func timeValue(nanos int64) string {
	ms := nanos / int64(time.Millisecond)
	return fmt.Sprintf("%02d-%02d-%02d_%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}

// javaFloat is Java's Float/Double.toString of v with '.' replaced by '_'
// (PartitionNameConverters.reformatFloat / reformatDouble): the shortest
// digits that read back, plain between 10^-3 and 10^7, else d.dddE±n.
func javaFloat(v float64, bits int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	var s string
	if abs := math.Abs(v); abs == 0 || abs >= 1e-3 && abs < 1e7 {
		s = strconv.FormatFloat(v, 'f', -1, bits)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
	} else {
		e := strconv.FormatFloat(v, 'e', -1, bits) // d.ddde+XX
		mant, exp, _ := strings.Cut(e, "e")
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		n, _ := strconv.Atoi(exp)
		s = mant + "E" + strconv.Itoa(n)
	}
	if math.Signbit(v) && v == 0 {
		s = "-0.0"
	}
	return strings.ReplaceAll(s, ".", "_")
}

// SortPartitions orders partitions by name.
func SortPartitions(ps []PartitionInfo) {
	sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
}

// ErrNotPartitioned is the error of a partition statement on a table that
// is not partitioned.
func ErrNotPartitioned(path TablePath) error {
	return sqlerr.New(sqlerr.WrongObjectType, "table \"%s\" is not partitioned", path.Table).
		WithHint("Partitions are declared at CREATE TABLE: PARTITIONED BY (col) WITH (...).")
}

// ErrPartitionExists and ErrNoPartition are the errors of a partition that
// exists / does not.
func ErrPartitionExists(path TablePath, name string) error {
	return sqlerr.New(sqlerr.DuplicateObject, "partition \"%s\" of table \"%s\" already exists", name, path.Table)
}

// ErrNoPartition: see ErrPartitionExists.
func ErrNoPartition(path TablePath, name string) error {
	return sqlerr.New(sqlerr.UndefinedObject, "partition \"%s\" of table \"%s\" does not exist", name, path.Table)
}

// ErrTooManyPartitions is the error of a partition past MaxPartitions.
func ErrTooManyPartitions(path TablePath) error {
	return sqlerr.New(sqlerr.ProgramLimitExceeded, "table \"%s\" cannot have more than %d partitions (Fluss's max.partition.num)", path.Table, MaxPartitions)
}

// PhysicalInfo is the info a partition's rows are kept under: the table's,
// with the primary key less the partition keys (Fluss's
// TableInfo.getPhysicalPrimaryKeys), which is what Fluss encodes a
// partitioned table's keys from: a partition's key bytes, its lookups and
// its deletes name the physical key only (the partition says the rest).
func PhysicalInfo(info TableInfo) TableInfo {
	if !info.IsPartitioned() || !info.HasPrimaryKey() {
		return info
	}
	var pk []string
	for _, c := range info.Descriptor.Schema.PrimaryKey {
		if !slices.Contains(info.Descriptor.PartitionKeys, c) {
			pk = append(pk, c)
		}
	}
	info.Descriptor.Schema.PrimaryKey = pk
	info.ArrowSchemas = nil
	return info
}

// PartitionStrategyProperty is the custom property that marks a table
// created with PostgreSQL's PARTITION BY LIST (col) rather than Fluss's
// PARTITIONED BY (its value: "list"). Such a table is PostgreSQL's
// partitioned table: its partitions are named relations (CREATE TABLE p
// PARTITION OF t FOR VALUES IN (v)), and a row whose partition does not
// exist is refused (23514) instead of creating one.
const PartitionStrategyProperty = "sqlgate.partition.strategy"

// PartitionStrategy is the table's PostgreSQL partitioning strategy
// (PartitionStrategyProperty), "" for a table that has none.
func (t TableInfo) PartitionStrategy() string {
	if !t.IsPartitioned() {
		return ""
	}
	return t.Descriptor.CustomProperties[PartitionStrategyProperty]
}
