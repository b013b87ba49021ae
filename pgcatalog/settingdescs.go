package pgcatalog

// settingDesc is what pg_settings shows of a parameter besides its value:
// PostgreSQL 15's descriptions, unit, bounds and enum values (from
// PostgreSQL 15.18's pg_settings), which administration clients (pgAdmin's
// configuration tab, DBeaver's session manager) display.
type settingDesc struct {
	short, extra, unit, min, max string
	enumvals                     []string
}

var settingDescs = map[string]settingDesc{
	"DateStyle":                           {short: "Sets the display format for date and time values.", extra: "Also controls interpretation of ambiguous date inputs.", unit: "", min: "", max: "", enumvals: nil},
	"IntervalStyle":                       {short: "Sets the display format for interval values.", extra: "", unit: "", min: "", max: "", enumvals: []string{"postgres", "postgres_verbose", "sql_standard", "iso_8601"}},
	"TimeZone":                            {short: "Sets the time zone for displaying and interpreting time stamps.", extra: "", unit: "", min: "", max: "", enumvals: nil},
	"application_name":                    {short: "Sets the application name to be reported in statistics and logs.", extra: "", unit: "", min: "", max: "", enumvals: nil},
	"default_text_search_config":          {short: "Sets default text search configuration.", extra: "", unit: "", min: "", max: "", enumvals: nil},
	"block_size":                          {short: "Shows the size of a disk block.", extra: "", unit: "", min: "8192", max: "8192", enumvals: nil},
	"bytea_output":                        {short: "Sets the output format for bytea.", extra: "", unit: "", min: "", max: "", enumvals: []string{"escape", "hex"}},
	"client_encoding":                     {short: "Sets the client's character set encoding.", extra: "", unit: "", min: "", max: "", enumvals: nil},
	"client_min_messages":                 {short: "Sets the message levels that are sent to the client.", extra: "Each level includes all the levels that follow it. The later the level, the fewer messages are sent.", unit: "", min: "", max: "", enumvals: []string{"debug5", "debug4", "debug3", "debug2", "debug1", "log", "notice", "warning", "error"}},
	"deadlock_timeout":                    {short: "Sets the time to wait on a lock before checking for deadlock.", extra: "", unit: "ms", min: "1", max: "2147483647", enumvals: nil},
	"default_transaction_isolation":       {short: "Sets the transaction isolation level of each new transaction.", extra: "", unit: "", min: "", max: "", enumvals: []string{"serializable", "repeatable read", "read committed", "read uncommitted"}},
	"default_transaction_read_only":       {short: "Sets the default read-only status of new transactions.", extra: "", unit: "", min: "", max: "", enumvals: nil},
	"extra_float_digits":                  {short: "Sets the number of digits displayed for floating-point values.", extra: "This affects real, double precision, and geometric data types. A zero or negative parameter value is added to the standard number of digits (FLT_DIG or DBL_DIG as appropriate). Any value greater than zero selects precise output mode.", unit: "", min: "-15", max: "3", enumvals: nil},
	"idle_in_transaction_session_timeout": {short: "Sets the maximum allowed idle time between queries, when in a transaction.", extra: "A value of 0 turns off the timeout.", unit: "ms", min: "0", max: "2147483647", enumvals: nil},
	"in_hot_standby":                      {short: "Shows whether hot standby is currently active.", extra: "", unit: "", min: "", max: "", enumvals: nil},
	"integer_datetimes":                   {short: "Shows whether datetimes are integer based.", extra: "", unit: "", min: "", max: "", enumvals: nil},
	"lc_collate":                          {short: "Shows the collation order locale.", extra: "", unit: "", min: "", max: "", enumvals: nil},
	"lc_ctype":                            {short: "Shows the character classification and case conversion locale.", extra: "", unit: "", min: "", max: "", enumvals: nil},
	"lock_timeout":                        {short: "Sets the maximum allowed duration of any wait for a lock.", extra: "A value of 0 turns off the timeout.", unit: "ms", min: "0", max: "2147483647", enumvals: nil},
	"log_min_duration_statement":          {short: "Sets the minimum execution time above which all statements will be logged.", extra: "Zero prints all queries. -1 turns this feature off.", unit: "ms", min: "-1", max: "2147483647", enumvals: nil},
	"max_connections":                     {short: "Sets the maximum number of concurrent connections.", extra: "", unit: "", min: "1", max: "262143", enumvals: nil},
	"max_identifier_length":               {short: "Shows the maximum identifier length.", extra: "", unit: "", min: "63", max: "63", enumvals: nil},
	"max_index_keys":                      {short: "Shows the maximum number of index keys.", extra: "", unit: "", min: "32", max: "32", enumvals: nil},
	"search_path":                         {short: "Sets the schema search order for names that are not schema-qualified.", extra: "", unit: "", min: "", max: "", enumvals: nil},
	"server_encoding":                     {short: "Shows the server (database) character set encoding.", extra: "", unit: "", min: "", max: "", enumvals: nil},
	"server_version":                      {short: "Shows the server version.", extra: "", unit: "", min: "", max: "", enumvals: nil},
	"server_version_num":                  {short: "Shows the server version as an integer.", extra: "", unit: "", min: "150018", max: "150018", enumvals: nil},
	"standard_conforming_strings":         {short: "Causes '...' strings to treat backslashes literally.", extra: "", unit: "", min: "", max: "", enumvals: nil},
	"statement_timeout":                   {short: "Sets the maximum allowed duration of any statement.", extra: "A value of 0 turns off the timeout.", unit: "ms", min: "0", max: "2147483647", enumvals: nil},
	"synchronous_commit":                  {short: "Sets the current transaction's synchronization level.", extra: "", unit: "", min: "", max: "", enumvals: []string{"local", "remote_write", "remote_apply", "on", "off"}},
	"transaction_isolation":               {short: "Sets the current transaction's isolation level.", extra: "", unit: "", min: "", max: "", enumvals: []string{"serializable", "repeatable read", "read committed", "read uncommitted"}},
	"transaction_read_only":               {short: "Sets the current transaction's read-only status.", extra: "", unit: "", min: "", max: "", enumvals: nil},
}

// extraSettings are the pg_settings rows of session settings beyond the
// preset ones (settingRows): name, server default, vartype, category,
// context, as PostgreSQL 15 shows them.
var extraSettings = [][5]string{
	{"bytea_output", "hex", "enum", "Client Connection Defaults / Statement Behavior", "user"},
	{"client_min_messages", "notice", "enum", "Client Connection Defaults / Statement Behavior", "user"},
	{"default_text_search_config", "pg_catalog.english", "string", "Client Connection Defaults / Locale and Formatting", "user"},
	{"deadlock_timeout", "1000", "integer", "Lock Management", "superuser"},
	{"idle_in_transaction_session_timeout", "0", "integer", "Client Connection Defaults / Statement Behavior", "user"},
	{"lock_timeout", "0", "integer", "Client Connection Defaults / Statement Behavior", "user"},
	{"log_min_duration_statement", "-1", "integer", "Reporting and Logging / When to Log", "superuser"},
	{"statement_timeout", "0", "integer", "Client Connection Defaults / Statement Behavior", "user"},
	{"synchronous_commit", "on", "enum", "Write-Ahead Log / Settings", "user"},
}

// describeSetting fills a pg_settings row's descriptive columns.
func describeSetting(r row) {
	name, _ := r["name"].(string)
	d, ok := settingDescs[name]
	if !ok {
		return
	}
	r["short_desc"] = d.short
	if d.extra != "" {
		r["extra_desc"] = d.extra
	}
	if d.unit != "" {
		r["unit"] = d.unit
	}
	if d.min != "" {
		r["min_val"], r["max_val"] = d.min, d.max
	}
	if d.enumvals != nil {
		vals := make([]any, len(d.enumvals))
		for i, v := range d.enumvals {
			vals[i] = v
		}
		r["enumvals"] = vals
	}
}
