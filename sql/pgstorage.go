package sql

import "strings"

// ALTER TABLE actions that change only PostgreSQL's catalog, which pg_dump
// and migration tools write: REPLICA IDENTITY, CLUSTER ON / SET WITHOUT
// CLUSTER, SET WITHOUT OIDS, and ALTER COLUMN SET STATISTICS / STORAGE /
// COMPRESSION. The engine checks them as PostgreSQL does and keeps them as
// table metadata (engine/pgstorage.go says why they change no storage).

// tableStorage parses REPLICA IDENTITY ..., CLUSTER ON index, SET WITHOUT
// CLUSTER and SET WITHOUT OIDS.
func (p *ddlParser) tableStorage() (AlterAction, error) {
	switch {
	case p.accept("REPLICA", "IDENTITY"):
		a := AlterAction{Kind: AlterReplicaIdentity}
		switch {
		case p.accept("DEFAULT"):
			a.NewName = "d"
		case p.accept("FULL"):
			a.NewName = "f"
		case p.accept("NOTHING"):
			a.NewName = "n"
		case p.accept("USING", "INDEX"):
			n, err := p.ident()
			if err != nil {
				return a, err
			}
			a.NewName, a.Constraint = "i", n
		default:
			return a, p.err()
		}
		return a, nil
	case p.accept("CLUSTER", "ON"):
		n, err := p.ident()
		return AlterAction{Kind: AlterClusterOn, Constraint: n}, err
	case p.accept("SET", "WITHOUT", "CLUSTER"):
		return AlterAction{Kind: AlterSetWithoutCluster}, nil
	}
	p.accept("SET", "WITHOUT", "OIDS")
	return AlterAction{Kind: AlterNoOp}, nil
}

// columnStorage parses SET STATISTICS n, SET STORAGE kind and SET
// COMPRESSION method after ALTER [COLUMN] column.
func (p *ddlParser) columnStorage(column string) (AlterAction, error) {
	p.pos++ // SET
	switch {
	case p.accept("STATISTICS"):
		a := AlterAction{Kind: AlterSetStatistics, Column: column}
		start := p.pos
		if p.pos < len(p.toks) && (p.toks[p.pos].kind == tkOp || p.toks[p.pos].kind == tkPunct) && p.toks[p.pos].text(p.src) == "-" {
			p.pos++
		}
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != tkNumber {
			return a, p.err()
		}
		p.pos++
		a.Default = p.src[p.toks[start].start:p.toks[p.pos-1].end]
		return a, nil
	case p.accept("STORAGE"):
		a := AlterAction{Kind: AlterSetStorage, Column: column}
		n, err := p.ident()
		a.NewName = strings.ToUpper(n)
		return a, err
	}
	p.accept("COMPRESSION")
	a := AlterAction{Kind: AlterSetCompression, Column: column}
	if p.accept("DEFAULT") {
		a.NewName = "default"
		return a, nil
	}
	n, err := p.ident()
	a.NewName = n
	return a, err
}
