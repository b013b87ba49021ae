package deparse

// Operator and function resolution as PostgreSQL's parser does it
// (parse_oper.c's oper_select_candidate, parse_func.c's
// func_select_candidate), over the catalog tables of pgcatalog_gen.go:
// the deparser needs the chosen operator's argument types to know which
// casts PostgreSQL put around the arguments ((v)::text, (100)::numeric).

// resolve picks among cands (procs of the same name and arity) the one
// PostgreSQL's parser picks for arguments of types args; ok is false when
// none or several fit.
func resolve[P argTyped](cands []P, args []typ) (P, bool) {
	var none P
	if len(cands) == 0 {
		return none, false
	}
	// an exact match; a binary operator with one unknown argument tries
	// the other's type for both (binary_oper_exact)
	for _, c := range cands {
		if exactly(c, args) {
			return c, true
		}
	}
	if len(args) == 2 && (args[0].oid == oidUnknown) != (args[1].oid == oidUnknown) {
		known := args[0]
		if known.oid == oidUnknown {
			known = args[1]
		}
		for _, c := range cands {
			if a := c.args(); a[0] == known.oid && a[1] == known.oid {
				return c, true
			}
		}
	}
	var fit []P
	for _, c := range cands {
		ok := true
		for i, a := range c.args() {
			if !canCoerce(args[i], a) {
				ok = false
				break
			}
		}
		if ok {
			fit = append(fit, c)
		}
	}
	if len(fit) == 1 {
		return fit[0], true
	}
	if len(fit) == 0 {
		return none, false
	}
	// most exact matches, then most exact or preferred-in-category
	// matches, among the known arguments
	fit = keepBest(fit, func(c P) int {
		n := 0
		for i, a := range c.args() {
			if args[i].oid != oidUnknown && a == args[i].oid {
				n++
			}
		}
		return n
	})
	if len(fit) == 1 {
		return fit[0], true
	}
	fit = keepBest(fit, func(c P) int {
		n := 0
		for i, a := range c.args() {
			if args[i].oid == oidUnknown {
				continue
			}
			if a == args[i].oid || categoryOf(a).preferred && categoryOf(a).cat == categoryOfType(args[i]).cat {
				n++
			}
		}
		return n
	})
	if len(fit) == 1 {
		return fit[0], true
	}
	if out, ok := resolveUnknowns(fit, args); ok {
		return out, true
	}
	// last gasp: the unknown arguments take the known ones' one type
	var same uint32
	for _, a := range args {
		if a.oid == oidUnknown {
			continue
		}
		if same != 0 && same != a.oid {
			return none, false
		}
		same = a.oid
	}
	if same == 0 {
		return none, false
	}
	var last []P
	for _, c := range fit {
		ok := true
		for i, a := range c.args() {
			if args[i].oid == oidUnknown && a != same {
				ok = false
			}
		}
		if ok {
			last = append(last, c)
		}
	}
	if len(last) == 1 {
		return last[0], true
	}
	return none, false
}

// argTyped is a candidate of a resolution: a built-in's proc, or a user
// function's form a call may take (usercall.go).
type argTyped interface{ args() []uint32 }

func exactly[P argTyped](c P, args []typ) bool {
	for i, a := range c.args() {
		if a != args[i].oid {
			return false
		}
	}
	return true
}

// keepBest keeps the candidates of the highest score.
func keepBest[P argTyped](cands []P, score func(P) int) []P {
	best := -1
	var out []P
	for _, c := range cands {
		switch s := score(c); {
		case s > best:
			best, out = s, []P{c}
		case s == best:
			out = append(out, c)
		}
	}
	return out
}

// resolveUnknowns is func_select_candidate's choice at the unknown
// arguments: each takes the category its candidates agree on (string when
// any candidate has a string type there), and the preferred type of it
// when a candidate has one.
func resolveUnknowns[P argTyped](cands []P, args []typ) (P, bool) {
	var none P
	type slot struct {
		cat       byte
		preferred bool
	}
	slots := map[int]slot{}
	for i, a := range args {
		if a.oid != oidUnknown {
			continue
		}
		var s slot
		conflict := false
		for _, c := range cands {
			cc := categoryOf(c.args()[i])
			switch {
			case s.cat == 0:
				s = slot{cc.cat, cc.preferred}
			case cc.cat == s.cat:
				s.preferred = s.preferred || cc.preferred
			case cc.cat == 'S':
				s = slot{cc.cat, cc.preferred}
			default:
				conflict = true
			}
		}
		if conflict && s.cat != 'S' {
			return none, false
		}
		slots[i] = s
	}
	if len(slots) == 0 {
		return none, false
	}
	var out []P
	for _, c := range cands {
		keep := true
		for i, s := range slots {
			cc := categoryOf(c.args()[i])
			if cc.cat != s.cat || s.preferred && !cc.preferred {
				keep = false
			}
		}
		if keep {
			out = append(out, c)
		}
	}
	if len(out) == 1 {
		return out[0], true
	}
	return none, false
}

// candidates are the procs of list named name with n arguments.
func candidates(list []proc, name string, n int) []proc {
	var out []proc
	for _, p := range list {
		if p.name == name && p.n == n {
			out = append(out, p)
		}
	}
	return out
}
