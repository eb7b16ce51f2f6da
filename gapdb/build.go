package gapdb

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/hugemem"
	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/internal/safe"
	"github.com/gapset/gapset/keyset"
)

// ErrLevels marks level files that cannot make one database (missing or
// repeated levels, other boards or cells).
var ErrLevels = errors.New("bad level files")

// ErrFilter marks a filter the projection cannot have (as many cells as
// it, or more).
var ErrFilter = errors.New("bad filter")

// ErrTooBig marks a table beyond MaxTableBytes (a limit, not bad input).
var ErrTooBig = errors.New("gap database too big")

// MaxTableBytes bounds a table built in memory: 32 GiB (a 10-cell 4x4
// table at 3 bits is 10.9 GB; 11 cells would be 65 GB).
const MaxTableBytes = 1 << 35

// Builder fills a table in memory: every entry starts above the levels,
// and each pattern added keeps the smallest level it was added at, so the
// level files may come in any order and be nested (gap <= 2i) or disjoint
// (gap exactly 2i) alike.
type Builder struct {
	h      Header
	table  []byte
	filter []byte // nil without one
	fmask  uint64
	proj   projector
	mask   uint16 // an entry
	// gbits and gmask are the gap level's field of an entry (all of it but
	// with both levels; the residual level's field is above it).
	gbits uint
	gmask uint16
}

// NewBuilder makes an empty database of levels levels (gap 0..2(levels-1))
// on the given cells (increasing) of a rows x cols board, with a filter of
// its last filter cells (0: none; DefaultFilterCells gives the usual one).
func NewBuilder(rows, cols int, cells []int, levels, filter int) (*Builder, error) {
	return newBuilder(Header{Rows: rows, Cols: cols, Cells: slices.Clone(cells), Levels: levels, FilterCells: filter})
}

// NewBothBuilder makes an empty database of both levels: gap levels
// (gap 0..2(levels-1)) and residual levels of base (r <= 0..2(resLevels-1))
// in one entry (Header.Both).
func NewBothBuilder(rows, cols int, cells []int, levels, resLevels, filter int, base keyset.Base) (*Builder, error) {
	if resLevels < 1 {
		return nil, fmt.Errorf("%d residual levels: want 1..%d", resLevels, MaxLevels)
	}
	return newBuilder(Header{Rows: rows, Cols: cols, Cells: slices.Clone(cells), Levels: levels, FilterCells: filter, Base: base, ResLevels: resLevels})
}

func newBuilder(h Header) (*Builder, error) {
	if err := h.layout(); err != nil {
		return nil, err
	}
	if h.TableLen > MaxTableBytes {
		return nil, fmt.Errorf("%w: %d cells of %d at %d bits an entry take %d GiB, more than %d GiB", ErrTooBig, len(h.Cells), h.Rows*h.Cols, h.Bits, h.TableLen>>30, MaxTableBytes>>30)
	}
	b := &Builder{h: h, table: make([]byte, h.TableLen), proj: newProjector(h.Rows*h.Cols, h.Cells), mask: 1<<h.Bits - 1,
		gbits: uint(h.GapBits()), gmask: 1<<h.GapBits() - 1}
	if h.FilterCells > 0 {
		b.filter, b.fmask = newFilter(h.FilterCells, &h), 1<<(4*h.FilterCells)-1
	}
	above := uint16(h.Levels) | uint16(h.ResLevels)<<b.gbits
	// every entry "above": 8 entries fill Bits bytes; repeat them
	for x := uint64(0); x < 8; x++ {
		b.put(x, above)
	}
	body := b.table[:len(b.table)-tablePad]
	for n := h.Bits; n < len(body); n *= 2 {
		copy(body[n:], body[:n])
	}
	clear(b.table[len(b.table)-tablePad:])
	return b, nil
}

// put stores v as entry x.
func (b *Builder) put(x uint64, v uint16) {
	bit := x * uint64(b.h.Bits)
	w := binary.LittleEndian.Uint16(b.table[bit>>3:])
	w = w&^(b.mask<<(bit&7)) | v<<(bit&7)
	binary.LittleEndian.PutUint16(b.table[bit>>3:], w)
}

// Add records that level holds the pattern of key (a board's key, or one
// projected onto the last cells when the database's are the last ones).
func (b *Builder) Add(level int, key uint64) { b.add(0, level, b.proj.pattern(key)) }

// AddPattern records that level holds a pattern: the database's cells'
// contents gathered in cell order (a key of a key-set file of its cells).
// With both levels it is a gap level.
func (b *Builder) AddPattern(level int, pattern uint64) { b.add(0, level, pattern) }

// AddResPattern records that the residual level holds a pattern, in a
// database of both levels.
func (b *Builder) AddResPattern(level int, pattern uint64) { b.add(1, level, pattern) }

// add keeps the smaller level in the pattern's entry (its field: 0 the
// gap level, 1 the residual level of a database of both) and in its filter
// entry, which so ends as the smallest level over the patterns added with
// its last cells: the smallest entry over the patterns extending them
// (those never added are "above", the filter's start).
func (b *Builder) add(field uint, level int, pattern uint64) {
	x := placement.RankKey(pattern, b.proj.n, b.proj.k)
	e := entryAt(b.table, x, b.h.Bits, b.mask)
	sh, m := field*b.gbits, b.gmask
	if field == 1 {
		m = b.mask >> b.gbits
	}
	if e>>sh&m > uint16(level) {
		b.put(x, e&^(m<<sh)|uint16(level)<<sh)
	}
	if b.filter != nil {
		f := pattern & b.fmask
		if b.h.Both() {
			f = 2*f + uint64(field)
		}
		lower(b.filter, f, uint16(level))
	}
}

// AddSource records a level file in the header.
func (b *Builder) AddSource(s Source) { b.h.Sources = append(b.h.Sources, s) }

// Table is the table being built, read only.
func (b *Builder) Table() []byte { return b.table }

// Filter is the filter being built (nil without one), read only.
func (b *Builder) Filter() []byte { return b.filter }

// Header is the header the database will be written with (counts and
// CRCs filled by Write).
func (b *Builder) Header() Header { return b.h }

// Write counts the entries, sums the table and writes the file through
// atomicfile (a temporary renamed when complete). Once ctx is done it stops
// with ctx's error, and the file is not renamed after that (the commit
// point: atomicfile.File.CommitContext).
func (b *Builder) Write(ctx context.Context, path string) error {
	h := b.h
	if err := h.layout(); err != nil { // the table's offset after the sources and the base
		return err
	}
	h.Counts, h.ResCounts = [16]uint64{}, [16]uint64{}
	for x := uint64(0); x < h.Entries; x++ {
		if x%(1<<24) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		e := entryAt(b.table, x, h.Bits, b.mask)
		h.Counts[e&b.gmask]++
		if h.Both() {
			h.ResCounts[e>>b.gbits]++
		}
	}
	h.ChunkCRCs = chunkCRCs(b.table, b.filter, h.ChunkLog)
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	for _, part := range [][]byte{h.encode(), b.table, b.filter} {
		for len(part) > 0 { // in pieces, so that an interrupt is heard
			if err := ctx.Err(); err != nil {
				return err
			}
			n := min(len(part), 1<<26)
			if _, err := f.Write(part[:n]); err != nil {
				return err
			}
			part = part[n:]
		}
	}
	if err := f.CommitContext(ctx); err != nil {
		return err
	}
	// The pages the file was written with are small; dropped from the
	// cache, they come back from the disk at the first load in 2 MiB
	// folios, which the mapping then maps with huge pages (a 10-cell
	// table read at random misses the TLB on nearly every read otherwise).
	if r, err := os.Open(path); err == nil {
		hugemem.Uncache(r)
		r.Close()
	}
	return nil
}

// Progress is told the keys read so far and the keys of all level files.
type Progress func(done, total uint64)

// Plan is a database to be built from level files, checked and sized
// before any key is read: what a long build says before it starts.
type Plan struct {
	Header  Header // the layout: Entries, Bits, TableLen, FilterLen, TableOff
	Keys    uint64 // keys to read, over all files
	paths   []string
	headers []keyset.Header
}

// Memory is what the build holds: the table and the filter.
func (p *Plan) Memory() uint64 { return p.Header.TableLen + p.Header.FilterLen }

// FileBytes is the size of the file it writes.
func (p *Plan) FileBytes() uint64 { return p.Header.TableOff + p.Memory() }

// PlanKeyFiles checks the key-set files of one projection (the last k
// cells, or a cell set: keyset.Header.Set; one file a level, gaps 0, 2,
// ..., 2N each once, in any order) from their headers and sizes the
// database with a filter of filter cells (0: none; negative:
// DefaultFilterCells). Gap level files and residual level files of one
// base together (each of them gaps 0, 2, ... once) make a database of both
// levels (Header.Both).
func PlanKeyFiles(paths []string, filter int) (*Plan, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("%w: none given", ErrLevels)
	}
	pl := &Plan{paths: paths}
	type level struct {
		res bool
		gap int
	}
	byGap := map[level]string{}
	var base keyset.Base
	baseFile := ""
	for _, p := range paths {
		h, err := keyset.ReadHeader(p)
		if err != nil {
			return nil, err
		}
		lv := level{!h.Base.IsZero(), h.Gap}
		if prev, ok := byGap[lv]; ok {
			return nil, fmt.Errorf("%w: %s and %s are both of %s %d", ErrLevels, prev, p, map[bool]string{false: "gap", true: "r"}[lv.res], h.Gap)
		}
		byGap[lv] = p
		if h0 := pl.headers; len(h0) > 0 && (h.Rows != h0[0].Rows || h.Cols != h0[0].Cols || h.Set() != h0[0].Set()) {
			return nil, fmt.Errorf("%w: %s is a %dx%d set on the cells %s, but %s is %dx%d on %s: one database holds the levels of one projection", ErrLevels, p, h.Rows, h.Cols, h.Set(), paths[0], h0[0].Rows, h0[0].Cols, h0[0].Set())
		}
		if lv.res {
			if baseFile != "" && h.Base != base {
				return nil, fmt.Errorf("%w: %s is relative to the base %s, but %s to %s: one database holds the levels of one base", ErrLevels, p, h.Base, baseFile, base)
			}
			base, baseFile = h.Base, p
		}
		if len(filepath.Base(p)) > nameLen {
			return nil, fmt.Errorf("%w: %s: a name over %d bytes", ErrLevels, p, nameLen)
		}
		pl.headers = append(pl.headers, h)
		pl.Keys += h.Count
	}
	levels := map[bool]int{}
	for lv := range byGap {
		levels[lv.res]++
	}
	for _, res := range []bool{false, true} {
		what := map[bool]string{false: "gap", true: "r"}[res]
		for g := 0; g < 2*levels[res]; g += 2 {
			if _, ok := byGap[level{res, g}]; !ok {
				return nil, fmt.Errorf("%w: no level file of %s %d (want %s 0, 2, ..., %d, one file each)", ErrLevels, what, g, map[bool]string{false: "gaps", true: "r"}[res], 2*levels[res]-2)
			}
		}
	}
	h0 := pl.headers[0]
	cells := h0.Set().Cells()
	pl.Header = Header{Rows: h0.Rows, Cols: h0.Cols, Cells: slices.Clone(cells), Levels: levels[false], ResLevels: levels[true],
		Sources: make([]Source, len(paths)), Base: base} // sized as the built header will be
	if levels[false] == 0 { // residual levels alone
		pl.Header.Levels, pl.Header.ResLevels = levels[true], 0
	}
	if filter < 0 {
		filter = defaultFilterCells(h0.Rows*h0.Cols, len(cells), bitsFor(pl.Header.Levels)+bitsFor(pl.Header.ResLevels))
	}
	if filter > 0 && filter >= len(cells) {
		return nil, fmt.Errorf("%w: a filter of %d cells for a projection of %d: want fewer cells than the projection's", ErrFilter, filter, len(cells))
	}
	pl.Header.FilterCells = filter
	if err := pl.Header.layout(); err != nil { // more levels of a kind than an entry's field holds
		return nil, fmt.Errorf("%w: %v", ErrLevels, err)
	}
	pl.Header.Sources = nil
	if pl.Header.TableLen > MaxTableBytes {
		return nil, fmt.Errorf("%w: %d cells of %d at %d bits an entry take %d GiB, more than %d GiB", ErrTooBig, len(cells), h0.Rows*h0.Cols, pl.Header.Bits, pl.Header.TableLen>>30, MaxTableBytes>>30)
	}
	return pl, nil
}

// FromKeyFiles builds a database from the key-set files of one projection
// (PlanKeyFiles, then Build).
func FromKeyFiles(ctx context.Context, paths []string, filter int, progress Progress) (*Builder, error) {
	pl, err := PlanKeyFiles(paths, filter)
	if err != nil {
		return nil, err
	}
	return pl.Build(ctx, progress)
}

// Build reads every file once and fills the table; progress (if set)
// hears every few million keys. Once ctx is done it stops with ctx's error.
func (pl *Plan) Build(ctx context.Context, progress Progress) (*Builder, error) {
	h := pl.Header
	h.Sources, h.Counts, h.ResCounts, h.ChunkCRCs = nil, [16]uint64{}, [16]uint64{}, nil
	b, err := newBuilder(h)
	if err != nil {
		return nil, err
	}
	var done uint64
	for i, p := range pl.paths {
		crc, err := Trailer(p)
		if err != nil {
			return nil, err
		}
		hi := pl.headers[i]
		level := hi.Gap / 2
		res := h.Both() && !hi.Base.IsZero()
		err = readBatches(ctx, p, func(keys []uint64) {
			if res {
				for _, k := range keys {
					b.AddResPattern(level, k)
				}
			} else {
				for _, k := range keys {
					b.AddPattern(level, k)
				}
			}
			before := done
			done += uint64(len(keys))
			if progress != nil && done>>22 != before>>22 {
				progress(done, pl.Keys)
			}
		})
		if err != nil {
			return nil, err
		}
		b.AddSource(Source{Gap: hi.Gap, Exact: hi.Exact, Approx: hi.Approx, Res: res, CRC: crc, Count: hi.Count, Name: filepath.Base(p)})
	}
	if progress != nil {
		progress(done, pl.Keys)
	}
	return b, nil
}

// batchKeys is the keys a batch of readBatches holds: big enough that a
// batch's hand-over costs nothing beside its keys, small enough to stay in
// cache.
const batchKeys = 1 << 14

// readBatches reads a key-set file on its own goroutine, decoding and
// checking the keys (about half a build's CPU), and gives them to use in
// batches, in file order, on the caller's goroutine: the table is written
// by one goroutine in the order of the keys, so the file is the same bytes
// as a build that reads and writes on one. Once ctx is done both stop and
// it returns ctx's error.
func readBatches(ctx context.Context, path string, use func(keys []uint64)) error {
	r, err := keyset.OpenResidual(path) // the plan checked the bases
	if err != nil {
		return err
	}
	defer r.Close()
	const inFlight = 4
	full := make(chan []uint64, inFlight)
	free := make(chan []uint64, inFlight)
	for range inFlight {
		free <- make([]uint64, 0, batchKeys)
	}
	var g safe.Group
	g.Go(func() { // ends at the file's end, its first error or ctx done: the loop below drains it
		defer close(full)
		for ctx.Err() == nil {
			batch := (<-free)[:0]
			for len(batch) < batchKeys {
				k, ok := r.Next()
				if !ok {
					break
				}
				batch = append(batch, k)
			}
			if len(batch) == 0 {
				return
			}
			full <- batch
		}
	})
	for batch := range full {
		if ctx.Err() == nil {
			use(batch)
		}
		free <- batch // never blocks: free holds every batch
	}
	g.Wait() // a panic of the reader's goroutine comes up here
	if err := ctx.Err(); err != nil {
		return err
	}
	return r.Err() // the reader's goroutine has ended: full is closed
}

// Trailer is a key-set file's CRC-32C trailer (its last 4 bytes), the
// file's digest as its reader checks it.
func Trailer(path string) (uint32, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	var b [4]byte
	if st.Size() < 4 {
		return 0, fmt.Errorf("%s: %w: too short", path, keyset.ErrFormat)
	}
	if _, err := f.ReadAt(b[:], st.Size()-4); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}
