package embedded

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The columnar image on disk (issue 27).
//
// An image is one directory, columnar/TABLEID/GEN/, holding one Arrow IPC
// file per column (cCOL.arrow: one record batch of that column alone per
// chunk, uncompressed) and manifest.json: the state the image holds (the
// table's bucket logs' committed lengths, which grow with every write of
// the state in the same pebble commit), each file's size and CRC-32C, and
// per chunk its bucket, rows and per column the null count and min/max.
//
// Arrow IPC was chosen over Parquet by what a scan costs: a chunk of a
// column is one pread of its batch, its buffers used in place (no
// decoding); Parquet's encodings and pages would be decoded on every scan,
// which is the cost the image exists to avoid. Uncompressed, because the
// files are read from the page cache at memory speed and decompressing
// would be the scan's largest cost. One file per column, so that a scan
// reads only its columns' bytes and an image given more columns links the
// files it has (no rewrite).
//
// Crash safety: an image is written under GEN.tmp/, its files and manifest
// synced, then renamed to GEN and the directory synced: a directory
// without the .tmp suffix is complete. Open (loadImages) removes .tmp
// directories, the images of tables that no longer exist and all but each
// table's newest complete image, so a crash during a build leaves nothing
// that is read. The first scan of a table after Open reads its image's
// files whole once to check their CRCs (in the background, as a build);
// a file that fails the check (or a manifest that does not parse or agree
// with its files) is refused, naming the file, and scans read the row
// store until a new image is built. Files this process wrote are trusted.
//
// Memory: a scan reads one chunk of its columns at a time: a large
// fixed-width column from a read-only mapping of its file, zero copy, the
// pages behind the scan given back (columnarmap.go); the others into Go
// memory (pread), which the collector frees once the query has consumed
// it. The process holds no image in memory. The page cache holds the
// files, as it does the logs.

const (
	columnarDir      = "columnar"
	manifestName     = "manifest.json"
	manifestVersion  = 2 // 2: chunks' first keys (merge-on-read)
	imageTmpSuffix   = ".tmp"
	columnFilePrefix = "c"
)

var crc32c = crc32.MakeTable(crc32.Castagnoli)

// imageManifest is manifest.json.
type imageManifest struct {
	Version int   `json:"version"`
	TableID int64 `json:"table_id"`
	// Committed is the table's bucket logs' committed lengths in the state
	// the image holds.
	Committed []int64          `json:"committed"`
	Rows      int64            `json:"rows"`
	Columns   []manifestColumn `json:"columns"` // ascending Col
	Chunks    []manifestChunk  `json:"chunks"`  // in bucket then key order
}

type manifestColumn struct {
	Col   int    `json:"col"`  // the table column
	Type  string `json:"type"` // its Arrow type, checked against the table's
	File  string `json:"file"`
	Bytes int64  `json:"bytes"`
	CRC   uint32 `json:"crc32c"`
}

type manifestChunk struct {
	Bucket int   `json:"bucket"`
	Rows   int64 `json:"rows"`
	// First is the primary key (CompactedKeyEncoder bytes) of the chunk's
	// first row: a bucket's chunks split its keys at these bounds, which
	// tell a merging scan which chunks a later write touched
	// (columnarmerge.go).
	First []byte       `json:"first"`
	Stats []chunkStats `json:"stats"` // one per manifest column
}

// chunkStats are one column's statistics over one chunk. Min and Max are
// set for integer-like columns (integers, dates, times, timestamps) with a
// non-null value; FMin and FMax for floating-point columns with a non-null,
// non-NaN value (NaN says whether one was seen: it sorts above every
// number, as in PostgreSQL).
type chunkStats struct {
	Nulls int64      `json:"nulls"`
	Min   *int64     `json:"min,omitempty"`
	Max   *int64     `json:"max,omitempty"`
	FMin  *jsonFloat `json:"fmin,omitempty"`
	FMax  *jsonFloat `json:"fmax,omitempty"`
	NaN   bool       `json:"nan,omitempty"`
}

// jsonFloat is a float64 written as a string, so that infinities survive
// JSON.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	return json.Marshal(strconv.FormatFloat(float64(f), 'g', -1, 64))
}

func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := strconv.ParseFloat(s, 64)
	*f = jsonFloat(v)
	return err
}

// statsOf computes a column chunk's statistics.
func statsOf(a arrow.Array) chunkStats {
	st := chunkStats{Nulls: int64(a.NullN())}
	setI := func(lo, hi int64, ok bool) {
		if ok {
			st.Min, st.Max = &lo, &hi
		}
	}
	switch a := a.(type) {
	case *array.Int8:
		setI(intRange(a, func(i int) int64 { return int64(a.Value(i)) }))
	case *array.Int16:
		setI(intRange(a, func(i int) int64 { return int64(a.Value(i)) }))
	case *array.Int32:
		setI(intRange(a, func(i int) int64 { return int64(a.Value(i)) }))
	case *array.Int64:
		setI(intRange(a, func(i int) int64 { return a.Value(i) }))
	case *array.Date32:
		setI(intRange(a, func(i int) int64 { return int64(a.Value(i)) }))
	case *array.Time64:
		setI(intRange(a, func(i int) int64 { return int64(a.Value(i)) }))
	case *array.Timestamp:
		setI(intRange(a, func(i int) int64 { return int64(a.Value(i)) }))
	case *array.Float32:
		st.floatRange(a, func(i int) float64 { return float64(a.Value(i)) })
	case *array.Float64:
		st.floatRange(a, func(i int) float64 { return a.Value(i) })
	}
	return st
}

func intRange(a arrow.Array, v func(int) int64) (lo, hi int64, ok bool) {
	lo, hi = math.MaxInt64, math.MinInt64
	for i := range a.Len() {
		if a.IsNull(i) {
			continue
		}
		x := v(i)
		lo, hi, ok = min(lo, x), max(hi, x), true
	}
	return lo, hi, ok
}

func (st *chunkStats) floatRange(a arrow.Array, v func(int) float64) {
	lo, hi, ok := math.Inf(1), math.Inf(-1), false
	for i := range a.Len() {
		if a.IsNull(i) {
			continue
		}
		x := v(i)
		if math.IsNaN(x) {
			st.NaN = true
			continue
		}
		lo, hi, ok = min(lo, x), max(hi, x), true
	}
	if ok {
		l, h := jsonFloat(lo), jsonFloat(hi)
		st.FMin, st.FMax = &l, &h
	}
}

// columnFileName is the name of table column c's file in an image.
func columnFileName(c int) string { return columnFilePrefix + strconv.Itoa(c) + ".arrow" }

// imageFiles are the open column files of an image on disk, read by
// concurrent scans (ipc.FileReader.RecordBatchAt is safe for that).
type imageFiles struct {
	readers []*ipc.FileReader // per manifest column
	// maps are the mapped columns (columnarmap.go); nil: none.
	maps *imageMaps
}

// chunk reads chunk k of manifest column j: from its mapping when it has
// one (the array points into it), else with pread into Go memory.
func (f *imageFiles) chunk(k, j int) (arrow.Array, error) {
	if a, ok, err := f.maps.chunk(k, j); ok {
		return a, err
	}
	rec, err := f.readers[j].RecordBatchAt(k)
	if err != nil {
		return nil, err
	}
	if rec.NumCols() != 1 {
		rec.Release()
		return nil, fmt.Errorf("chunk %d has %d columns", k, rec.NumCols())
	}
	a := rec.Column(0)
	a.Retain()
	rec.Release()
	return a, nil
}

// openImageFiles opens an image directory's column files, mapping those
// pool maps (columnarmap.go; pool nil: none). The files are closed when
// the image is no longer reachable (runtime.AddCleanup in newDiskImage),
// since scans still reading a replaced image hold it.
func openImageFiles(dir string, m *imageManifest, pool *mapPool) (*imageFiles, []*os.File, error) {
	f := &imageFiles{}
	var files []*os.File
	fail := func(err error) (*imageFiles, []*os.File, error) {
		for _, fl := range files {
			fl.Close()
		}
		return nil, nil, err
	}
	for _, c := range m.Columns {
		p := filepath.Join(dir, c.File)
		fl, err := os.Open(p)
		if err != nil {
			return fail(err)
		}
		files = append(files, fl)
		r, err := ipc.NewFileReader(fl, ipc.WithAllocator(memory.DefaultAllocator))
		if err != nil {
			return fail(fmt.Errorf("%s: %w", p, err))
		}
		if r.NumRecords() != len(m.Chunks) {
			return fail(fmt.Errorf("%s has %d chunks, its manifest %d", p, r.NumRecords(), len(m.Chunks)))
		}
		f.readers = append(f.readers, r)
	}
	types := make([]arrow.DataType, len(m.Columns))
	sizes := make([]int64, len(m.Columns))
	for j, c := range m.Columns {
		types[j], sizes[j] = f.readers[j].Schema().Field(0).Type, c.Bytes
	}
	f.maps = openImageMaps(pool, files, types, sizes)
	return f, files, nil
}

// crcWriter counts and hashes what it writes.
type crcWriter struct {
	w io.Writer
	h hash.Hash32
	n int64
}

func (c *crcWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.h.Write(p[:n])
	c.n += int64(n)
	return n, err
}

// imageWriter writes a new image directory, chunk by chunk.
type imageWriter struct {
	s        *Store
	tmp, dir string
	man      imageManifest
	files    []*os.File
	bufs     []*bufio.Writer
	crcs     []*crcWriter
	writers  []*ipc.FileWriter
	done     bool
}

// newImageWriter starts image directory dir (written as dir.tmp) of the
// given table columns, whose Arrow fields are fields. The columns whose
// files an image of the same state already has are hard-linked into the
// new directory when it is finished (finish's base).
func (s *Store) newImageWriter(dir string, tableID int64, committed []int64, cols []int, fields []arrow.Field) (*imageWriter, error) {
	w := &imageWriter{s: s, tmp: dir + imageTmpSuffix, dir: dir,
		man: imageManifest{Version: manifestVersion, TableID: tableID, Committed: committed}}
	if err := os.RemoveAll(w.tmp); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(w.tmp, 0o755); err != nil {
		return nil, err
	}
	for i, c := range cols {
		name := columnFileName(c)
		fl, err := os.Create(filepath.Join(w.tmp, name))
		if err != nil {
			w.abort()
			return nil, err
		}
		w.files = append(w.files, fl)
		buf := bufio.NewWriterSize(fl, 1<<20)
		cw := &crcWriter{w: buf, h: crc32.New(crc32c)}
		fw, err := ipc.NewFileWriter(cw, ipc.WithSchema(arrow.NewSchema([]arrow.Field{fields[i]}, nil)), ipc.WithAllocator(memory.DefaultAllocator))
		if err != nil {
			w.abort()
			return nil, err
		}
		w.bufs, w.crcs, w.writers = append(w.bufs, buf), append(w.crcs, cw), append(w.writers, fw)
		w.man.Columns = append(w.man.Columns, manifestColumn{Col: c, Type: fields[i].Type.String(), File: name})
	}
	return w, nil
}

// add writes one chunk of bucket b: rec's columns in the writer's order;
// first is the primary key of its first row.
func (w *imageWriter) add(b int, rec arrow.RecordBatch, first []byte) error {
	ch := manifestChunk{Bucket: b, Rows: rec.NumRows(), First: bytes.Clone(first)}
	for j, fw := range w.writers {
		a := rec.Column(j)
		one := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{rec.Schema().Field(j)}, nil), []arrow.Array{a}, rec.NumRows())
		err := fw.Write(one)
		one.Release()
		if err != nil {
			return err
		}
		ch.Stats = append(ch.Stats, statsOf(a))
	}
	w.man.Chunks = append(w.man.Chunks, ch)
	w.man.Rows += rec.NumRows()
	return nil
}

// finish closes the files, writes the manifest, links base's columns and
// makes the directory complete (renamed and synced). It returns the
// manifest.
func (w *imageWriter) finish(base *imageManifest, baseDir string) (*imageManifest, error) {
	for j, fw := range w.writers {
		if err := fw.Close(); err != nil {
			w.abort()
			return nil, err
		}
		if err := w.bufs[j].Flush(); err != nil {
			w.abort()
			return nil, err
		}
		name := w.files[j].Name()
		if err := w.s.sync(name, SyncData, w.files[j].Sync); err != nil {
			w.abort()
			return nil, err
		}
		w.man.Columns[j].Bytes, w.man.Columns[j].CRC = w.crcs[j].n, w.crcs[j].h.Sum32()
	}
	for _, f := range w.files {
		f.Close()
	}
	w.files = nil
	if base != nil {
		// base holds the same state in the same chunks: its columns join.
		for j, c := range base.Columns {
			if err := os.Link(filepath.Join(baseDir, c.File), filepath.Join(w.tmp, c.File)); err != nil {
				w.abort()
				return nil, err
			}
			w.man.Columns = append(w.man.Columns, c)
			for k := range w.man.Chunks {
				w.man.Chunks[k].Stats = append(w.man.Chunks[k].Stats, base.Chunks[k].Stats[j])
			}
		}
		sortManifestColumns(&w.man)
	}
	b, err := json.Marshal(&w.man)
	if err != nil {
		w.abort()
		return nil, err
	}
	if err := w.s.writeFileAtomic(filepath.Join(w.tmp, manifestName), b); err != nil {
		w.abort()
		return nil, err
	}
	if err := os.Rename(w.tmp, w.dir); err != nil {
		w.abort()
		return nil, err
	}
	w.done = true
	if err := w.s.syncDir(filepath.Dir(w.dir)); err != nil {
		return nil, err
	}
	return &w.man, nil
}

// sortManifestColumns orders m's columns (and each chunk's statistics) by
// table column.
func sortManifestColumns(m *imageManifest) {
	idx := make([]int, len(m.Columns))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return m.Columns[a].Col - m.Columns[b].Col })
	cols := make([]manifestColumn, len(idx))
	for i, j := range idx {
		cols[i] = m.Columns[j]
	}
	m.Columns = cols
	for k := range m.Chunks {
		st := make([]chunkStats, len(idx))
		for i, j := range idx {
			st[i] = m.Chunks[k].Stats[j]
		}
		m.Chunks[k].Stats = st
	}
}

// abort removes an unfinished image directory.
func (w *imageWriter) abort() {
	if w.done {
		return
	}
	for _, f := range w.files {
		f.Close()
	}
	w.files = nil
	_ = os.RemoveAll(w.tmp)
}

// errImageOutdated is an image an earlier version of sqlgate wrote (no
// chunk bounds): not damaged, just rebuilt.
var errImageOutdated = errors.New("the image is of an earlier format")

// readManifest reads and checks an image directory's manifest against the
// table (id, column types): an error names the file.
func readManifest(dir string, tableID int64, colType func(c int) (arrow.DataType, bool)) (*imageManifest, error) {
	p := filepath.Join(dir, manifestName)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var m imageManifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s does not parse: %w", p, err)
	}
	if m.Version > 0 && m.Version < manifestVersion && m.TableID == tableID {
		return nil, fmt.Errorf("%s: %w (version %d)", p, errImageOutdated, m.Version)
	}
	if m.Version != manifestVersion || m.TableID != tableID {
		return nil, fmt.Errorf("%s is version %d of table %d, not version %d of table %d", p, m.Version, m.TableID, manifestVersion, tableID)
	}
	var rows int64
	for k, ch := range m.Chunks {
		if len(ch.Stats) != len(m.Columns) || ch.Rows <= 0 || len(ch.First) == 0 || ch.Bucket < 0 {
			return nil, fmt.Errorf("%s has a malformed chunk", p)
		}
		// Chunks are in bucket then key order: a merging scan finds a
		// key's chunk by these bounds.
		if k > 0 {
			prev := &m.Chunks[k-1]
			if ch.Bucket < prev.Bucket || ch.Bucket == prev.Bucket && bytes.Compare(ch.First, prev.First) <= 0 {
				return nil, fmt.Errorf("%s has chunks out of key order", p)
			}
		}
		rows += ch.Rows
	}
	if rows != m.Rows {
		return nil, fmt.Errorf("%s counts %d rows, its chunks %d", p, m.Rows, rows)
	}
	for i, c := range m.Columns {
		if i > 0 && c.Col <= m.Columns[i-1].Col || c.File != columnFileName(c.Col) {
			return nil, fmt.Errorf("%s has a malformed column list", p)
		}
		t, ok := colType(c.Col)
		if !ok || t.String() != c.Type {
			return nil, fmt.Errorf("%s: column %d is %s in the image, not the table's type", p, c.Col, c.Type)
		}
	}
	return &m, nil
}

// verifyImageFiles checks each column file's size and CRC-32C against the
// manifest; an error names the damaged file.
func verifyImageFiles(dir string, m *imageManifest) error {
	buf := make([]byte, 1<<20)
	for _, c := range m.Columns {
		p := filepath.Join(dir, c.File)
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		h := crc32.New(crc32c)
		n, err := io.CopyBuffer(h, f, buf)
		f.Close()
		if err != nil {
			return fmt.Errorf("reading %s: %w", p, err)
		}
		if n != c.Bytes || h.Sum32() != c.CRC {
			return fmt.Errorf("%s is damaged: %d bytes with CRC-32C %08x, its manifest says %d bytes with %08x", p, n, h.Sum32(), c.Bytes, c.CRC)
		}
	}
	return nil
}

// imageGen parses an image directory's name: its generation, and whether
// it is complete.
func imageGen(name string) (gen int64, complete, ok bool) {
	base, tmp := strings.CutSuffix(name, imageTmpSuffix)
	g, err := strconv.ParseInt(base, 10, 64)
	if err != nil || g <= 0 {
		return 0, false, false
	}
	return g, !tmp, true
}

// cleanImages is Open's part: it removes what builds a crash interrupted
// (.tmp directories), the images of tables the catalog no longer has, and
// all but each table's newest complete image, and returns the newest
// generation seen (new images are numbered after it) and each table's
// image directory left.
func cleanImages(root string, live func(tableID int64) bool) (int64, map[int64]string, error) {
	ents, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, err
	}
	var maxGen int64
	keep := map[int64]string{}
	for _, e := range ents {
		id, err := strconv.ParseInt(e.Name(), 10, 64)
		tdir := filepath.Join(root, e.Name())
		if err != nil || !e.IsDir() || !live(id) {
			if err := os.RemoveAll(tdir); err != nil {
				return 0, nil, err
			}
			continue
		}
		gens, err := os.ReadDir(tdir)
		if err != nil {
			return 0, nil, err
		}
		var newest int64
		for _, g := range gens {
			n, complete, ok := imageGen(g.Name())
			maxGen = max(maxGen, n)
			if ok && complete && n > newest {
				newest = n
			}
		}
		for _, g := range gens {
			if n, complete, ok := imageGen(g.Name()); !ok || !complete || n != newest {
				if err := os.RemoveAll(filepath.Join(tdir, g.Name())); err != nil {
					return 0, nil, err
				}
			}
		}
		if newest > 0 {
			keep[id] = filepath.Join(tdir, strconv.FormatInt(newest, 10))
		}
	}
	return maxGen, keep, nil
}

// closeFilesWhenUnreachable closes files once owner is garbage, and
// retires maps (once no array points into them).
func closeFilesWhenUnreachable[T any](owner *T, files []*os.File, maps *imageMaps) {
	runtime.AddCleanup(owner, func(fs []*os.File) {
		maps.retire()
		for _, f := range fs {
			f.Close()
		}
	}, files)
}
