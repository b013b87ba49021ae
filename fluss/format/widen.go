package format

// WidenRow appends to dst a compacted row of newFields fields made from
// row, a compacted row of its first oldFields fields: the fields added at
// the end are null. This is how a row written under an older schema reads
// under a newer one that only appended nullable columns (Fluss 0.9.1's one
// schema change): the null bitmap grows and marks them, the values stay.
func WidenRow(dst, row []byte, oldFields, newFields int) ([]byte, error) {
	ob, nb := (oldFields+7)/8, (newFields+7)/8
	if len(row) < ob {
		return nil, errShortRow
	}
	base := len(dst)
	dst = append(dst, row[:ob]...)
	for len(dst)-base < nb {
		dst = append(dst, 0)
	}
	for f := oldFields; f < newFields; f++ {
		dst[base+f>>3] |= 1 << (f & 7)
	}
	return append(dst, row[ob:]...), nil
}
