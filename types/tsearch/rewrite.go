package tsearch

import "sort"

// ts_rewrite(query, target, substitute) (tsquery_rewrite.c over
// tsquery_util.c's QTNode trees): the query and the target are made
// n-ary (AND and OR flattened) and their operands sorted as QTNodeCompare
// sorts them (by PostgreSQL's legacy CRC-32 of the word, as a signed
// number, highest first), every occurrence of the target (for AND and OR
// also a subset of the operands) is replaced by the substitute, and the
// tree is made binary again the way QTNBinary pairs children, so that
// the result prints as PostgreSQL's does.

// qtn is a QTNode: an operand or an operator with its children (a binary
// operator's child 0 is its right operand, 1 its left, as QT2QTN reads
// PostgreSQL's items).
type qtn struct {
	node     *Node // the operand or operator (its L and R unused)
	crc      int32
	sign     uint32
	child    []*qtn
	noChange bool
}

func toQTN(n *Node) *qtn {
	if n.Op == 0 {
		c := legacyCRC32(n.Word) // key.go
		return &qtn{node: n, crc: int32(c), sign: 1 << (c % 32)}
	}
	t := &qtn{node: n}
	t.child = append(t.child, toQTN(n.R))
	if n.Op != OpNot {
		t.child = append(t.child, toQTN(n.L))
	}
	for _, c := range t.child {
		t.sign |= c.sign
	}
	return t
}

// ternary is QTNTernary: an AND or OR child of the same operator gives
// its children to its parent.
func (t *qtn) ternary() {
	if t.node.Op == 0 {
		return
	}
	for _, c := range t.child {
		c.ternary()
	}
	if t.node.Op != OpAnd && t.node.Op != OpOr {
		return
	}
	var out []*qtn
	for _, c := range t.child {
		if c.node.Op == t.node.Op {
			out = append(out, c.child...)
		} else {
			out = append(out, c)
		}
	}
	t.child = out
}

// qtnCompare is QTNodeCompare.
func qtnCompare(a, b *qtn) int {
	at, bt := 1, 1 // QI_VAL
	if a.node.Op != 0 {
		at = 2
	}
	if b.node.Op != 0 {
		bt = 2
	}
	if at != bt {
		if at > bt {
			return -1
		}
		return 1
	}
	if at == 2 {
		if a.node.Op != b.node.Op {
			if a.node.Op > b.node.Op {
				return -1
			}
			return 1
		}
		if len(a.child) != len(b.child) {
			if len(a.child) > len(b.child) {
				return -1
			}
			return 1
		}
		for i := range a.child {
			if r := qtnCompare(a.child[i], b.child[i]); r != 0 {
				return r
			}
		}
		if a.node.Op == OpPhrase && a.node.Dist != b.node.Dist {
			if a.node.Dist > b.node.Dist {
				return -1
			}
			return 1
		}
		return 0
	}
	if a.crc != b.crc {
		if a.crc > b.crc {
			return -1
		}
		return 1
	}
	switch {
	case a.node.Word < b.node.Word:
		return -1
	case a.node.Word > b.node.Word:
		return 1
	}
	return 0
}

// sortTree is QTNSort: the children of every operator but a phrase.
func (t *qtn) sortTree() {
	if t.node.Op == 0 {
		return
	}
	for _, c := range t.child {
		c.sortTree()
	}
	if len(t.child) > 1 && t.node.Op != OpPhrase {
		sort.SliceStable(t.child, func(i, j int) bool { return qtnCompare(t.child[i], t.child[j]) < 0 })
	}
}

func qtnEq(a, b *qtn) bool {
	s := a.sign & b.sign
	return s == a.sign && s == b.sign && qtnCompare(a, b) == 0
}

func (t *qtn) copyTree() *qtn {
	c := *t
	c.child = make([]*qtn, len(t.child))
	for i, x := range t.child {
		c.child[i] = x.copyTree()
	}
	return &c
}

// findEq is findeq: node, or subs (nil: removed) where node is the
// target or, for AND and OR, holds the target's operands.
func findEq(node, ex, subs *qtn, found *bool) *qtn {
	nodeOpr, exOpr := node.node.Op != 0, ex.node.Op != 0
	if node.sign&ex.sign != ex.sign || nodeOpr != exOpr || node.noChange {
		return node
	}
	replace := func() *qtn {
		*found = true
		if subs == nil {
			return nil
		}
		c := subs.copyTree()
		c.noChange = true
		return c
	}
	if !nodeOpr {
		if node.crc != ex.crc || !qtnEq(node, ex) {
			return node
		}
		return replace()
	}
	if node.node.Op != ex.node.Op {
		return node
	}
	if len(node.child) == len(ex.child) {
		if qtnEq(node, ex) {
			return replace()
		}
		return node
	}
	if len(node.child) > len(ex.child) && len(ex.child) > 0 {
		matched := make([]bool, len(node.child))
		n, i, j := 0, 0, 0
		for i < len(node.child) && j < len(ex.child) {
			switch cmp := qtnCompare(node.child[i], ex.child[j]); {
			case cmp == 0:
				matched[i] = true
				n++
				i++
				j++
			case cmp < 0:
				i++
			default:
				j = len(ex.child) + 1 // give up
			}
		}
		if n == len(ex.child) {
			var kept []*qtn
			for i, c := range node.child {
				if !matched[i] {
					kept = append(kept, c)
				}
			}
			if subs != nil {
				c := subs.copyTree()
				c.noChange = true
				kept = append(kept, c)
			}
			node.child = kept
			node.sortTree()
			*found = true
		}
	}
	return node
}

// findSub is dofindsubquery.
func findSub(root, ex, subs *qtn, found *bool) *qtn {
	root = findEq(root, ex, subs, found)
	if root != nil && !root.noChange && root.node.Op != 0 {
		var kept []*qtn
		for _, c := range root.child {
			if c = findSub(c, ex, subs, found); c != nil {
				kept = append(kept, c)
			}
		}
		root.child = kept
		switch {
		case len(kept) == 0:
			return nil
		case len(kept) == 1 && root.node.Op != OpNot:
			return kept[0]
		}
	}
	return root
}

// binary is QTNBinary: an operator of more than two children becomes
// binary ones, the first two paired, then that pair with the last.
func (t *qtn) binary() {
	if t.node.Op == 0 {
		return
	}
	for _, c := range t.child {
		c.binary()
	}
	for len(t.child) > 2 {
		nn := &qtn{node: &Node{Op: t.node.Op}, child: []*qtn{t.child[0], t.child[1]}}
		t.child[0] = nn
		t.child[1] = t.child[len(t.child)-1]
		t.child = t.child[:len(t.child)-1]
	}
}

// toNode is QTN2QT: child 0 is the right operand again.
func (t *qtn) toNode() *Node {
	n := *t.node
	n.L, n.R = nil, nil
	if n.Op == 0 {
		return &n
	}
	n.R = t.child[0].toNode()
	if n.Op != OpNot {
		n.L = t.child[1].toNode()
	}
	return &n
}

// Rewrite is ts_rewrite(q, target, subst).
func Rewrite(q, target, subst Query) Query {
	if q.Root == nil || target.Root == nil {
		return q
	}
	tree := toQTN(q.Root)
	tree.ternary()
	tree.sortTree()
	ex := toQTN(target.Root)
	ex.ternary()
	ex.sortTree()
	var subs *qtn
	if subst.Root != nil {
		subs = toQTN(subst.Root)
	}
	var found bool
	tree = findSub(tree, ex, subs, &found)
	if tree == nil {
		return Query{}
	}
	tree.binary()
	return Query{Root: tree.toNode()}
}

// RewriteEach is ts_rewrite(query, select): each (target, substitute)
// pair the select gives, in its order, rewrites what the ones before
// left (tsquery_rewrite_query), the tree flattened and sorted again
// after each pass;
// an empty target is passed over. A pair with a NULL is the caller's to
// leave out.
func RewriteEach(q Query, pairs [][2]Query) Query {
	if q.Root == nil {
		return q
	}
	tree := toQTN(q.Root)
	tree.ternary()
	tree.sortTree()
	for _, p := range pairs {
		if tree == nil {
			break
		}
		if p[0].Root == nil {
			continue
		}
		ex := toQTN(p[0].Root)
		ex.ternary()
		ex.sortTree()
		var subs *qtn
		if p[1].Root != nil {
			subs = toQTN(p[1].Root)
		}
		var found bool
		if tree = findSub(tree, ex, subs, &found); tree != nil {
			// ready the tree for another pass
			tree.clearNoChange()
			tree.ternary()
			tree.sortTree()
		}
	}
	if tree == nil {
		return Query{}
	}
	tree.binary()
	return Query{Root: tree.toNode()}
}

// clearNoChange is QTNClearFlags(t, QTN_NOCHANGE).
func (t *qtn) clearNoChange() {
	t.noChange = false
	for _, c := range t.child {
		c.clearNoChange()
	}
}
