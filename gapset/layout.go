package gapset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/gapset/gapset/keyset"
)

// The per-part API: the steps of Enumerate cut into independent
// pieces of work on part files, for a pipeline that runs them on many
// machines (cluster/, gapset-cluster enumerate). One step d is
//
//	ExpandPart for every non-empty part of every layer (j, d-1)
//	MergePart for every target (level, part) the pieces name
//	MergeRunFiles for every projection part: the step's projection
//	    pieces (and, by FoldCount, earlier projection runs) into one run
//
// with step 0 made of WriteGoal and MergePart; at the end WriteOutput
// writes each key-set file from its runs, part by part. The files are those of docs/enumeration-layout.md
// (split by key range, delta-coded runs) on local paths; the caller
// names them and keeps the manifest. Pieces (candidates, projection pieces)
// are scratch read within the same step: written in place without a sync.
// Layer parts, projection runs and key-set files are state: written
// through internal/atomicfile (a temporary, synced, renamed), so a file
// under its final name is whole.

// ErrCount is WriteOutput's refusal of a file whose key count is not the
// one its caller counted: the state it was merged from is damaged.
var ErrCount = errors.New("key count differs from the layers'")

// Layout is an enumeration as the per-part API sees it: what Config
// says about the board, the sets and the splitting, and the work buffer
// of one call.
type Layout struct {
	Rows   int   `json:"rows"`
	Cols   int   `json:"cols"`
	MaxGap int   `json:"gap"`
	Exact  bool  `json:"exact"`
	Packed bool  `json:"packed"`
	Cells  []int `json:"cells"`
	// PrefixBits is as Config.PrefixBits (0: DefaultPrefixBits, -1: one
	// part).
	PrefixBits int `json:"prefix_bits"`
	// Memory bounds one call's work buffers in bytes (default 256 MiB);
	// a part whose candidates do not fit is written in pieces.
	Memory int64 `json:"memory"`
	// RankRuns is as Config.RankRuns: whole-board runs rank-coded.
	RankRuns bool `json:"rank_runs,omitempty"`
	// Transpose is as Config.Transpose: on a square board the layers hold
	// one key of each transposed pair (Canonical), and the whole board,
	// when asked for, is a projection like the others.
	Transpose bool `json:"transpose,omitempty"`
	// Sets is as Config.Sets. Enumerate writes them; the per-part API
	// refuses them (Check): its projections are the last k cells.
	Sets []encode.CellSet `json:"cell_sets,omitempty"`
}

// Config is the enumeration the layout describes, writing into dir.
func (l Layout) Config(dir string) Config {
	return Config{Rows: l.Rows, Cols: l.Cols, MaxGap: l.MaxGap, Exact: l.Exact, Packed: l.Packed, Cells: l.Cells, Sets: l.Sets,
		PrefixBits: l.PrefixBits, Memory: l.Memory, RankRuns: l.RankRuns, Transpose: l.Transpose, Dir: dir}
}

// Check reports what the per-part API would refuse (wrapping ErrArgs):
// what Enumerate refuses, and cell sets, which only Enumerate writes.
func (l Layout) Check() error {
	if err := l.Config("").Check(); err != nil {
		return err
	}
	_, err := l.check()
	return err
}

// check is checkArgs of the per-part API: the last k cells only.
func (l Layout) check() (*geometry, error) {
	if len(l.Sets) > 0 {
		return nil, fmt.Errorf("%w: cell set %s: projections onto cells other than the last k are written by gapset enumerate only, not by the per-part API (gapset-cluster)", ErrArgs, l.Sets[0])
	}
	return checkArgs(l.Rows, l.Cols, l.MaxGap, l.Cells)
}

// Levels is the number of levels: gaps 0, 2, ..., MaxGap.
func (l Layout) Levels() int { return l.MaxGap/2 + 1 }

// N is the number of cells of the board.
func (l Layout) N() int { return l.Rows * l.Cols }

// Bits is the number of prefix bits that split the layers.
func (l Layout) Bits() int { return l.Config("").prefixBits() }

// ProjectionBits is the number of prefix bits that split the
// projection runs onto k cells.
func (l Layout) ProjectionBits(k int) int {
	return partBits(min(l.Bits(), projectionPrefixBits), 4*k)
}

// Projected tells whether level j's layers go into the projections (an
// exact set keeps only the top level).
func (l Layout) Projected(j int) bool { return !l.Exact || j == l.Levels()-1 }

// Canonical tells whether the layers hold one key of each transposed pair
// (Transpose on a square board): a layer part's members are then
// 2*N - Self, and the whole board is projected like the other cells.
func (l Layout) Canonical() bool { return l.Config("").transposer() != nil }

// Projections are the cells below the whole board (and the whole board
// when the layers are canonical), largest first (each projection is made
// from the one before).
func (l Layout) Projections() []int {
	var ks []int
	for _, k := range l.Cells {
		if k < l.N() || l.Canonical() {
			ks = append(ks, k)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ks)))
	return ks
}

// WholeBoard tells whether the whole-board set is asked for from the
// layers: then every layer is needed until the end. Canonical layers hold
// half of it: the whole board is then a projection.
func (l Layout) WholeBoard() bool { return slices.Contains(l.Cells, l.N()) && !l.Canonical() }

// Lower lists the steps of the layers subtracted from level j's layer at
// step d: lower[i] is level i's step (-1 when there is none).
func (l Layout) Lower(j, d int) []int {
	lower := make([]int, j)
	for i := range lower {
		lower[i] = statedir.LowerStep(i, j, d)
	}
	return lower
}

// Needed tells whether level i's layer at step s is still read after step
// d has been found: by the next step's expansion, by the subtractions of
// the steps to come (until step s + 2(levels-1-i)), or by the whole-board
// key-set file.
func (l Layout) Needed(i, s, d int) bool {
	return statedir.Needed(l.Levels(), i, s, d, l.WholeBoard())
}

// FoldCount is the compaction rule of Enumerate's projection runs: runs
// that fold compactFanIn runs of one tier into one of the next. Given the
// tiers of the runs waiting for the final merge (oldest first), a new run
// of tier 0 is merged with the last fold of them, and the result has the
// tier returned.
func FoldCount(tiers []int) (fold, tier int) {
	for {
		same := 0
		for i := len(tiers) - fold - 1; i >= 0 && tiers[i] == tier; i-- {
			same++
		}
		if same+1 < compactFanIn {
			return fold, tier
		}
		fold += same
		tier++
	}
}

// coding is how the layout's runs are stored: uvarint differences
// (byte-order free), of rank codes for whole boards when RankRuns is set.
func (l Layout) coding(whole bool) coding {
	if whole && l.RankRuns {
		return coding{delta: true, cells: l.N()}
	}
	return coding{delta: true}
}

// RunFile is one part file: a sorted run of distinct keys.
type RunFile struct {
	Path  string `json:"path"`
	N     int64  `json:"n"`
	Bytes int64  `json:"bytes"`
	Delta bool   `json:"delta"`
	Cells int    `json:"rank_cells,omitempty"` // > 0: rank-coded boards of this many cells (rankcode.go)
	Sum   uint32 `json:"crc32c"`               // the file's CRC-32C, checked on resume
}

// The run code decides the encoding; these two are the one place that
// converts between its runs and the exported files.
func fileOf(r run) RunFile {
	return RunFile{Path: r.path, N: r.n, Bytes: r.bytes, Delta: r.delta, Cells: r.cells, Sum: r.sum}
}

func (f RunFile) run() run {
	return run{path: f.Path, n: f.N, bytes: f.Bytes, delta: f.Delta, cells: f.Cells, sum: f.Sum}
}

// check refuses a file whose size is not the one recorded (a reader
// checks the size here and the count as it reads).
func (f RunFile) check() error {
	st, err := os.Stat(f.Path)
	if err != nil {
		return err
	}
	if st.Size() != f.Bytes || f.N <= 0 {
		return fmt.Errorf("run %s: %d bytes on disk, %d recorded (%d keys): damaged or replaced", f.Path, st.Size(), f.Bytes, f.N)
	}
	return nil
}

func runsOf(files []RunFile) ([]run, error) {
	var rs []run
	for _, f := range files {
		if f.N == 0 {
			continue
		}
		if err := f.check(); err != nil {
			return nil, err
		}
		rs = append(rs, f.run())
	}
	return rs, nil
}

// Piece is a file of one part: of level Level's layer (a candidate
// piece, or the layer's part) or of the projection onto Cells cells.
type Piece struct {
	Level int `json:"level"`
	Cells int `json:"cells"`
	P     int `json:"p"`
	// Self counts the self-transposed keys of a canonical layer's
	// part: it holds 2*N - Self members.
	Self int64 `json:"self,omitempty"`
	// Index counts the pieces one call wrote for the same target: more
	// than one when the work buffer filled (a spill).
	Index int `json:"index"`
	RunFile
}

// durable is a run written through internal/atomicfile: the target is
// only ever whole.
type durable struct {
	f *atomicfile.File
	w *runWriter
}

func createDurable(path string, c coding, maxKeys int64) (*durable, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	// The run writer writes the temporary atomicfile made (a second
	// descriptor); Commit syncs it and renames it into place.
	w, err := createRun(f.Name(), c, maxKeys)
	if err != nil {
		f.Abort()
		return nil, err
	}
	return &durable{f, w}, nil
}

func (d *durable) commit() (RunFile, error) {
	r, err := d.w.close()
	if err != nil {
		d.f.Abort()
		return RunFile{}, err
	}
	if err := d.f.Commit(); err != nil {
		return RunFile{}, err
	}
	r.path = d.f.Target()
	return fileOf(r), nil
}

func (d *durable) abort() {
	d.w.close()
	d.f.Abort()
}

// memory is the work buffer in keys.
func (l Layout) memory() int {
	m := l.Memory
	if m <= 0 {
		m = 256 << 20
	}
	return max(1<<12, int(m/16))
}

// WriteGoal writes the candidates of step 0: the goal alone, as a piece
// at path(p) of its part p, which MergePart turns into level
// 0's layer at step 0 (and its projections) like any other step's.
func (l Layout) WriteGoal(path func(p int) string) (Piece, error) {
	g, err := l.check()
	if err != nil {
		return Piece{}, err
	}
	a := []uint64{g.goal}
	b := partBounds(a, 4*g.N, l.Bits())
	p := 0
	for b[p+1] == 0 {
		p++
	}
	r, err := writeRun(path(p), a, l.coding(true))
	return Piece{Level: 0, P: p, RunFile: fileOf(r)}, err
}

// ExpandPart expands one part of level j's layer at step d-1
// into the candidates of step d: the moves that raise the Manhattan
// distance give level j's candidates, those that lower it level j+1's
// (when there is one). Candidates are sorted, de-duplicated and split by
// target part, and written as pieces at path(level, part,
// piece) (piece 0, and more when the work buffer fills); the pieces are
// returned in that order.
func (l Layout) ExpandPart(ctx context.Context, j int, in RunFile, path func(level, p, piece int) string) ([]Piece, error) {
	g, err := l.check()
	if err != nil {
		return nil, err
	}
	if j < 0 || j >= l.Levels() {
		return nil, fmt.Errorf("%w: level %d out of range 0..%d", ErrArgs, j, l.Levels()-1)
	}
	if err := in.check(); err != nil {
		return nil, err
	}
	width, bits, tr := 4*g.N, l.Bits(), l.Config("").transposer()
	limit := max(1<<10, l.memory()/3) // two buffers and the sort scratch
	chunk := max(1, limit/8)
	var scratch []uint64
	var out []Piece
	type target struct {
		level int
		buf   []uint64
		piece int
	}
	targets := []*target{{level: j}}
	if j+1 < l.Levels() {
		targets = append(targets, &target{level: j + 1})
	}
	flush := func(t *target) error {
		a := t.buf
		if len(a) >= 1<<16 && len(scratch) < len(a) {
			scratch = make([]uint64, len(a))
		}
		sortKeys(a, scratch, width, 1)
		a = dedup(a)
		bounds := partBounds(a, width, bits)
		for p := 0; p+1 < len(bounds); p++ {
			seg := a[bounds[p]:bounds[p+1]]
			if len(seg) == 0 {
				continue
			}
			r, err := writeRun(path(t.level, p, t.piece), seg, l.coding(true))
			if err != nil {
				return err
			}
			out = append(out, Piece{Level: t.level, P: p, Index: t.piece, RunFile: fileOf(r)})
		}
		t.buf = t.buf[:0]
		t.piece++
		return nil
	}
	err = forEachChunk(in.run(), chunk, func(keys []uint64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := g.checkBoards(keys); err != nil {
			return fmt.Errorf("%s: %w", in.Path, err)
		}
		for i, t := range targets {
			if len(t.buf)+4*len(keys) > limit && len(t.buf) > 0 {
				if err := flush(t); err != nil {
					return err
				}
			}
			n := len(t.buf)
			t.buf = slices.Grow(t.buf, 4*len(keys))[:n+4*len(keys)]
			n0 := n
			if i == 0 {
				n += g.expandRaise(keys, t.buf[n:])
			} else {
				n += g.expandLower(keys, t.buf[n:])
			}
			if tr != nil {
				tr.canonAll(t.buf[n0:n])
			}
			t.buf = t.buf[:n]
		}
		return nil
	})
	for _, t := range targets {
		if err == nil && len(t.buf) > 0 {
			err = flush(t)
		}
	}
	if err != nil {
		for _, p := range out {
			os.Remove(p.Path)
		}
		return nil, err
	}
	return out, nil
}

// MergePart finishes part p of level j's layer: it merges the
// candidate pieces (de-duplicating), subtracts the same part of the
// lower levels' layers (lower: their part files), and writes the
// part at path (nothing when it is empty: the Piece then has no
// path). When the level is projected, the part's projections onto
// the cells below the whole board are written as pieces at
// projPath(cells, projection part, piece), sorted and de-duplicated,
// and returned. A canonical layer's keys are projected with their
// transposes, onto the whole board too.
func (l Layout) MergePart(ctx context.Context, j, p int, candidates, lower []RunFile, path string,
	projPath func(k, q, piece int) string) (Piece, []Piece, error) {
	if _, err := l.check(); err != nil {
		return Piece{}, nil, err
	}
	in, err := runsOf(candidates)
	if err != nil {
		return Piece{}, nil, err
	}
	sub, err := runsOf(lower)
	if err != nil {
		return Piece{}, nil, err
	}
	var subs []*subtractor
	defer func() {
		for _, s := range subs {
			s.close()
		}
	}()
	for _, r := range sub {
		s, err := newSubtractor(r)
		if err != nil {
			return Piece{}, nil, err
		}
		subs = append(subs, s)
	}
	var size int64
	for _, r := range in {
		size += r.n
	}
	ks := l.Projections()
	if !l.Projected(j) {
		ks = nil
	}
	var w *durable
	var projs []Piece
	pieces := map[int]int{}
	var buf, scratch []uint64
	limit := max(1<<10, l.memory()/2)
	tr := l.Config("").transposer()
	if tr != nil {
		limit /= 2 // the keys and their transposes
	}
	var self atomic.Int64
	project := func() error {
		a := buf
		if tr != nil {
			m := len(a)
			a = slices.Grow(a, m)[:2*m]
			tr.mirrorAll(a[:m], a[m:])
			buf = a
		}
		if len(a) >= 1<<16 && len(scratch) < len(a) {
			scratch = make([]uint64, len(a))
		}
		for _, k := range ks {
			mask := encode.ProjectMask(k)
			for i := range a {
				a[i] &= mask
			}
			width := 4 * k
			sortKeys(a, scratch, width, 1)
			a = dedup(a)
			bounds := partBounds(a, width, l.ProjectionBits(k))
			for q := 0; q+1 < len(bounds); q++ {
				seg := a[bounds[q]:bounds[q+1]]
				if len(seg) == 0 {
					continue
				}
				r, err := writeRun(projPath(k, q, pieces[k]), seg, l.coding(false))
				if err != nil {
					return err
				}
				projs = append(projs, Piece{Level: j, Cells: k, P: q, Index: pieces[k], RunFile: fileOf(r)})
			}
			pieces[k]++
		}
		buf = buf[:0]
		return nil
	}
	err = mergeRuns(in, 1<<14, func(b []uint64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		for _, s := range subs {
			var err error
			if b, err = s.apply(b); err != nil {
				return err
			}
		}
		if len(b) == 0 {
			return nil
		}
		if w == nil {
			var err error
			if w, err = createDurable(path, l.coding(true), size); err != nil {
				return err
			}
		}
		if err := w.w.write(b); err != nil {
			return err
		}
		if tr != nil {
			tr.selfCount(b, &self)
		}
		if len(ks) == 0 {
			return nil
		}
		if len(buf)+len(b) > limit && len(buf) > 0 {
			if err := project(); err != nil {
				return err
			}
		}
		buf = append(buf, b...)
		return nil
	})
	if err == nil && len(buf) > 0 {
		err = project()
	}
	out := Piece{Level: j, P: p, Self: self.Load()}
	if err == nil && w != nil {
		out.RunFile, err = w.commit()
		w = nil
	}
	if err != nil {
		if w != nil {
			w.abort()
		}
		for _, q := range projs {
			os.Remove(q.Path)
		}
		return Piece{}, nil, err
	}
	return out, projs, nil
}

// MergeRunFiles merges sorted runs (pieces of one part, earlier runs
// folded in) into one run at path, without repeats, and returns it (no
// path when every run is empty).
func MergeRunFiles(ctx context.Context, files []RunFile, path string) (RunFile, error) {
	in, err := runsOf(files)
	if err != nil {
		return RunFile{}, err
	}
	var size int64
	for _, r := range in {
		size += r.n
	}
	var w *durable
	err = mergeRuns(in, 1<<14, func(b []uint64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if w == nil {
			var err error
			if w, err = createDurable(path, coding{delta: true}, size); err != nil { // projection runs
				return err
			}
		}
		return w.w.write(b)
	})
	if w == nil {
		return RunFile{}, err
	}
	if err != nil {
		w.abort()
		return RunFile{}, err
	}
	return w.commit()
}

// WriteOutput writes the key-set file of the projection onto k cells at
// path: byPart[p] are the runs of part p (of the projection runs, or
// for the whole board of the layers), merged part after part
// as Enumerate's final merge does, so the file is byte for byte
// Enumerate's. With want >= 0 (the whole board: the layers' count, which
// are disjoint) a file of another count is refused before it takes its
// name: the error is ErrCount and the OutputFile has the merged count.
func (l Layout) WriteOutput(ctx context.Context, k int, path string, byPart [][]RunFile, want int64) (OutputFile, error) {
	cfg := l.Config("")
	if err := l.Check(); err != nil {
		return OutputFile{}, err
	}
	if !slices.Contains(l.Cells, k) {
		return OutputFile{}, fmt.Errorf("%w: cells %d not asked for", ErrArgs, k)
	}
	runs := make([][]run, len(byPart))
	for p, fs := range byPart {
		var err error
		if runs[p], err = runsOf(fs); err != nil {
			return OutputFile{}, err
		}
	}
	h := cfg.header(encode.LastCells(l.N(), k))
	w, err := keyset.Create(path, h)
	if err != nil {
		return OutputFile{}, err
	}
	for _, rs := range runs {
		err = mergeRuns(rs, 1<<15, func(b []uint64) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return w.AddSorted(b)
		})
		if err != nil {
			w.Abort()
			return OutputFile{}, err
		}
	}
	n := w.Count()
	if want >= 0 && int64(n) != want {
		w.Abort()
		return OutputFile{Cells: k, Count: n}, fmt.Errorf("%w: the layers hold %d boards, their merge %d: %d-cell file not written", ErrCount, want, n, k)
	}
	if err := w.Close(); err != nil {
		return OutputFile{}, fmt.Errorf("writing %s: %w", path, err)
	}
	return OutputFile{Cells: k, Name: h.Name(), Path: path, Count: n}, nil
}
