package sql

// bitStringLiteral reads a B'..' or X'..' token as the text PostgreSQL's
// bit_in reads (b101, x1F): a bit string constant, which the binder types
// as bit (the type name pg__bit). Other tokens report false.
func bitStringLiteral(tok string) (string, bool) {
	if len(tok) < 3 || tok[1] != '\'' || tok[len(tok)-1] != '\'' {
		return "", false
	}
	switch tok[0] {
	case 'b', 'B':
		return "b" + tok[2:len(tok)-1], true
	case 'x', 'X':
		return "x" + tok[2:len(tok)-1], true
	}
	return "", false
}
