package sql

import (
	"reflect"
	"testing"
)

func TestSessionStatements(t *testing.T) {
	tests := []struct {
		in   string
		kind Kind
		set  *SetStmt
		show *ShowStmt
		tx   *TxStmt
	}{
		{in: "SET extra_float_digits = 3", kind: Set, set: &SetStmt{Name: "extra_float_digits", Values: []string{"3"}}},
		{in: "SET application_name = 'PostgreSQL JDBC Driver'", kind: Set, set: &SetStmt{Name: "application_name", Values: []string{"PostgreSQL JDBC Driver"}}},
		{in: `SET search_path TO Public, "$user"`, kind: Set, set: &SetStmt{Name: "search_path", Values: []string{"public", "$user"}}},
		{in: "SET SESSION statement_timeout TO -1", kind: Set, set: &SetStmt{Name: "statement_timeout", Values: []string{"-1"}}},
		{in: "SET LOCAL work_mem = DEFAULT", kind: Set, set: &SetStmt{Name: "work_mem", IsLocal: true, Default: true}},
		{in: "SET TIME ZONE 'UTC'", kind: Set, set: &SetStmt{Name: "timezone", Values: []string{"UTC"}}},
		{in: "SET TIME ZONE LOCAL", kind: Set, set: &SetStmt{Name: "timezone", Default: true}},
		// Sequelize's connection set-up; gram.y's zone_value INTERVAL forms
		{in: "SET TIME ZONE INTERVAL '+00:00' HOUR TO MINUTE", kind: Set,
			set: &SetStmt{Name: "timezone", Values: []string{"+00:00"}, Interval: &IntervalQualifier{Fields: "hour to minute", Precision: -1}}},
		{in: "SET TIME ZONE INTERVAL '-08:00'", kind: Set,
			set: &SetStmt{Name: "timezone", Values: []string{"-08:00"}, Interval: &IntervalQualifier{Precision: -1}}},
		{in: "set time zone interval(2) '1.555 seconds'", kind: Set,
			set: &SetStmt{Name: "timezone", Values: []string{"1.555 seconds"}, Interval: &IntervalQualifier{Precision: 2}}},
		{in: "SET TIME ZONE INTERVAL '1' MINUTE TO SECOND(3)", kind: Set,
			set: &SetStmt{Name: "timezone", Values: []string{"1"}, Interval: &IntervalQualifier{Fields: "minute to second", Precision: 3}}},
		{in: "SET NAMES 'UTF8'", kind: Set, set: &SetStmt{Name: "client_encoding", Values: []string{"UTF8"}}},
		{in: "SET plan.x = on", kind: Set, set: &SetStmt{Name: "plan.x", Values: []string{"on"}}},
		{in: "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ UNCOMMITTED", kind: Set,
			set: &SetStmt{SessionDefaults: true, Tx: &TxStmt{Isolation: "read uncommitted"}}},
		{in: "SET TRANSACTION READ ONLY, DEFERRABLE", kind: Set, set: &SetStmt{Tx: &TxStmt{ReadOnly: true, Deferrable: true}}},
		{in: "RESET ALL", kind: Reset, set: &SetStmt{Reset: true, ResetAll: true}},
		{in: "RESET search_path", kind: Reset, set: &SetStmt{Name: "search_path", Reset: true}},
		{in: "SHOW ALL", kind: Show, show: &ShowStmt{Name: "all"}},
		{in: "show transaction isolation level", kind: Show, show: &ShowStmt{Name: "transaction_isolation"}},
		{in: "SHOW TimeZone", kind: Show, show: &ShowStmt{Name: "timezone"}},
		{in: "SHOW standard_conforming_strings", kind: Show, show: &ShowStmt{Name: "standard_conforming_strings"}},
		{in: "BEGIN", kind: Begin, tx: &TxStmt{}},
		{in: "BEGIN WORK", kind: Begin, tx: &TxStmt{}},
		{in: "BEGIN TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY", kind: Begin, tx: &TxStmt{Isolation: "serializable", ReadOnly: true}},
		{in: "START TRANSACTION READ WRITE ISOLATION LEVEL REPEATABLE READ", kind: Begin, tx: &TxStmt{Isolation: "repeatable read", ReadWrite: true}},
		{in: "BEGIN READ ONLY", kind: Begin, tx: &TxStmt{ReadOnly: true}},
		{in: "COMMIT", kind: Commit, tx: &TxStmt{}},
		{in: "END TRANSACTION", kind: Commit, tx: &TxStmt{}},
		{in: "COMMIT AND CHAIN", kind: Commit, tx: &TxStmt{Chain: true}},
		{in: "ROLLBACK", kind: Rollback, tx: &TxStmt{}},
		{in: "ABORT WORK", kind: Rollback, tx: &TxStmt{}},
		{in: "ROLLBACK TO SAVEPOINT sp", kind: RollbackToSavepoint, tx: &TxStmt{Savepoint: "sp"}},
	}
	for _, tc := range tests {
		st := parseOne(t, tc.in)
		if st.Kind != tc.kind || st.AST != nil {
			t.Errorf("%q: kind %v AST %v, want %v and nil", tc.in, st.Kind, st.AST, tc.kind)
		}
		if !reflect.DeepEqual(st.Set, tc.set) {
			t.Errorf("%q: Set = %+v, want %+v", tc.in, st.Set, tc.set)
		}
		if !reflect.DeepEqual(st.Show, tc.show) {
			t.Errorf("%q: Show = %+v, want %+v", tc.in, st.Show, tc.show)
		}
		if !reflect.DeepEqual(st.Tx, tc.tx) {
			t.Errorf("%q: Tx = %+v, want %+v", tc.in, st.Tx, tc.tx)
		}
	}
	if st := parseOne(t, "DISCARD ALL"); st.Kind != Discard || st.Discard != "all" {
		t.Errorf("DISCARD ALL: %v %q", st.Kind, st.Discard)
	}
	if st := parseOne(t, "DEALLOCATE PREPARE S_1"); st.Kind != Deallocate || !reflect.DeepEqual(st.Deallocate, &DeallocateStmt{Name: "s_1"}) {
		t.Errorf("DEALLOCATE PREPARE S_1: %v %+v", st.Kind, st.Deallocate)
	}
	if st := parseOne(t, "deallocate all"); !reflect.DeepEqual(st.Deallocate, &DeallocateStmt{All: true}) {
		t.Errorf("deallocate all: %+v", st.Deallocate)
	}
}
