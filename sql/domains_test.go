package sql

import (
	"reflect"
	"testing"
)

func TestParseDomainStatements(t *testing.T) {
	cases := []struct {
		in   string
		want DomainStmt
	}{
		{"CREATE DOMAIN posint AS int CHECK (value > 0)",
			DomainStmt{Op: CreateDomain, Names: []ObjectName{{Name: "posint"}}, BaseType: "int", Constraints: []DomainConstraint{{Check: "value > 0"}}}},
		// COLLATE "C" is dropped by the rewrite: the collation sqlgate has
		{"create domain s.d varchar(5) collate \"C\" default 'x' || 'y' constraint nn not null null check ((value) <> 'z')",
			DomainStmt{Op: CreateDomain, Names: []ObjectName{{Schema: "s", Name: "d"}}, BaseType: "varchar(5)", Default: "'x' || 'y'",
				Constraints: []DomainConstraint{{Name: "nn", NotNull: true}, {Null: true}, {Check: "(value) <> 'z'"}}}},
		{"CREATE DOMAIN a AS numeric(10, 2)[] DEFAULT NULL",
			DomainStmt{Op: CreateDomain, Names: []ObjectName{{Name: "a"}}, BaseType: "numeric(10, 2)[]", Default: "NULL"}},
		{"DROP DOMAIN IF EXISTS a, s.b CASCADE",
			DomainStmt{Op: DropDomain, Names: []ObjectName{{Name: "a"}, {Schema: "s", Name: "b"}}, IfExists: true, Cascade: true}},
		{"ALTER DOMAIN d SET DEFAULT 1 + 2", DomainStmt{Op: AlterDomainSetDefault, Names: []ObjectName{{Name: "d"}}, Default: "1 + 2"}},
		{"ALTER DOMAIN d DROP DEFAULT", DomainStmt{Op: AlterDomainDropDefault, Names: []ObjectName{{Name: "d"}}}},
		{"ALTER DOMAIN d SET NOT NULL", DomainStmt{Op: AlterDomainSetNotNull, Names: []ObjectName{{Name: "d"}}}},
		{"ALTER DOMAIN d DROP NOT NULL", DomainStmt{Op: AlterDomainDropNotNull, Names: []ObjectName{{Name: "d"}}}},
		{"ALTER DOMAIN d ADD CONSTRAINT c CHECK (value < 9) NOT VALID",
			DomainStmt{Op: AlterDomainAddConstraint, Names: []ObjectName{{Name: "d"}}, Constraints: []DomainConstraint{{Name: "c", Check: "value < 9", NotValid: true}}}},
		{"ALTER DOMAIN d DROP CONSTRAINT IF EXISTS c RESTRICT",
			DomainStmt{Op: AlterDomainDropConstraint, Names: []ObjectName{{Name: "d"}}, IfExists: true, Constraint: "c"}},
		{"ALTER DOMAIN d VALIDATE CONSTRAINT c", DomainStmt{Op: AlterDomainValidateConstraint, Names: []ObjectName{{Name: "d"}}, Constraint: "c"}},
		{"ALTER DOMAIN d RENAME CONSTRAINT c TO e", DomainStmt{Op: AlterDomainRenameConstraint, Names: []ObjectName{{Name: "d"}}, Constraint: "c", NewName: "e"}},
		{"ALTER DOMAIN d RENAME TO e", DomainStmt{Op: AlterDomainRename, Names: []ObjectName{{Name: "d"}}, NewName: "e"}},
		{"ALTER DOMAIN d OWNER TO bob", DomainStmt{Op: AlterDomainOwner, Names: []ObjectName{{Name: "d"}}, NewName: "bob"}},
		{"ALTER DOMAIN d SET SCHEMA s", DomainStmt{Op: AlterDomainSetSchema, Names: []ObjectName{{Name: "d"}}, NewName: "s"}},
	}
	for _, c := range cases {
		sts, err := NewParser().Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if len(sts) != 1 || sts[0].Domain == nil {
			t.Errorf("%s: not a domain statement", c.in)
			continue
		}
		if got := *sts[0].Domain; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got  %+v\n want %+v", c.in, got, c.want)
		}
	}
}

func TestParseDomainErrors(t *testing.T) {
	for _, in := range []string{
		"CREATE DOMAIN d",
		"CREATE DOMAIN d AS int CHECK value > 0",
		"CREATE DOMAIN d AS int CHECK (value > 0",
		"ALTER DOMAIN d ADD NULL",
		"ALTER DOMAIN d ADD NOT NULL NOT VALID",
		"ALTER DOMAIN d FROB",
		"DROP DOMAIN",
	} {
		if _, err := NewParser().Parse(in); err == nil {
			t.Errorf("%s: parsed", in)
		}
	}
}
