package sql

// ALTER TABLE's identity actions on an existing column, which pg_dump
// writes after CREATE TABLE for every identity column (ADD GENERATED ...
// AS IDENTITY (SEQUENCE NAME s ...)): the engine makes the sequence and
// changes the column's metadata (engine/identity.go).

// identityAction reads, after ALTER [COLUMN] column, ADD GENERATED {
// ALWAYS | BY DEFAULT } AS IDENTITY [ ( options ) ], SET GENERATED {
// ALWAYS | BY DEFAULT } or DROP IDENTITY [ IF EXISTS ].
func (p *ddlParser) identityAction(column string) (AlterAction, error) {
	a := AlterAction{Column: column}
	switch {
	case p.accept("ADD"):
		c, next, err := identityClause(p.src, p.toks, p.pos)
		if err != nil {
			return a, err
		}
		p.pos = next
		a.Kind, a.Identity = AlterAddIdentity, c
	case p.accept("SET", "GENERATED"):
		a.Kind, a.Identity = AlterSetIdentity, &IdentityClause{}
		switch {
		case p.accept("ALWAYS"):
			a.Identity.Always = true
		case p.accept("BY", "DEFAULT"):
		default:
			return a, p.err()
		}
	case p.accept("DROP", "IDENTITY"):
		a.Kind = AlterDropIdentity
		a.IfNotExists = p.accept("IF", "EXISTS")
	}
	return a, nil
}
