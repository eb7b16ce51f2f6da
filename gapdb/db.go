package gapdb

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"os"
	"runtime"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/hugemem"
	"github.com/gapset/gapset/internal/infile"
	"github.com/gapset/gapset/internal/safe"
)

// DB is an opened gap database: its header and its table, mapped from the
// file (read into memory where mapping is not available). Safe for
// concurrent readers.
type DB struct {
	Header
	Path   string
	table  []byte
	filter []byte // FilterLen bytes after the table (nil without one)
	unmap  func()
	// Huge is how many bytes of the mapping the kernel maps with 2 MiB
	// pages (-1: not known); see hugemem.Mapped.
	Huge int64
	proj projector
	mask uint16 // 1<<GapBits - 1: the gap level (all of an entry but with both)
	// rshift and rmask read the residual level of a database of both
	// levels.
	rshift uint64
	rmask  uint16
}

// Open maps a database and checks it whole: the header's CRC and fields,
// the file's length, and the CRC-32C of every chunk of the table (on all
// cores; a few milliseconds for an 8-cell table in the page cache, about a
// second a core for a 10-cell one). Nothing is decoded: the table is the
// file's pages.
func Open(path string) (*DB, error) {
	f, err := infile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h, err := readHeader(f, path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	body := int64(h.TableLen + h.FilterLen)
	if want := int64(h.TableOff) + body; st.Size() != want {
		return nil, fmt.Errorf("%s: %w: %d bytes, the header says %d", path, ErrFormat, st.Size(), want)
	}
	d := &DB{Header: h, Path: path}
	data, unmap := mapTable(f, int64(h.TableOff), body)
	if data == nil {
		data = make([]byte, body)
		if _, err := f.ReadAt(data, int64(h.TableOff)); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	d.unmap = unmap
	d.Huge = -1
	if unmap != nil {
		if huge, ok := hugemem.Mapped(data); ok {
			d.Huge = huge
		}
	}
	d.table = data[:h.TableLen:h.TableLen]
	if h.FilterLen > 0 {
		d.filter = data[h.TableLen:]
	}
	if err := d.checkTable(); err != nil {
		d.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d.proj = newProjector(h.Rows*h.Cols, h.Cells)
	d.mask = 1<<h.GapBits() - 1
	if h.Both() {
		d.rshift, d.rmask = uint64(h.GapBits()), 1<<bitsFor(h.ResLevels)-1
	}
	if err := d.checkGapZero(); err != nil {
		d.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// gapZeroWalks is how many walks checkGapZero takes.
const gapZeroWalks = 64

// checkGapZero refuses a header that does not describe its table. A walk
// from the goal whose every move takes a tile one cell further from its
// goal cell ends on a board of gap 0: its Manhattan distance is the walk's
// length, which bounds its optimal length from above as the Manhattan
// distance does from below. So every board of such a walk has its pattern
// at level 0 on any projection, in the table and in the filter. A cells
// list edited in the header, the CRCs made again, reads other patterns'
// entries and is refused here as bad input, rather than found as an
// inadmissible bound in a search (gap 0 is the sparsest level: few other
// patterns pass); verify builds the table again from its level files. The
// walks are the same at every load (a fixed seed). A board of gap 0 is of
// residual 0 for any base (Manhattan distance <= h <= optimum), so the
// residual levels of a database of both are 0 on the walks too.
func (d *DB) checkGapZero() error {
	rng := rand.New(rand.NewPCG(54, 4))
	dist := func(tile, cell int) int { // to the tile's goal cell, tile-1
		return abs((tile-1)/d.Cols-cell/d.Cols) + abs((tile-1)%d.Cols-cell%d.Cols)
	}
	for range gapZeroWalks {
		b := encode.Goal(d.Rows, d.Cols)
		for steps := 0; ; steps++ {
			k := b.Key()
			if v, f := d.Value(k), d.Floor(k); v != 0 || f != 0 {
				return fmt.Errorf("%w: the board %s (gap 0: %d moves from the goal, each away from it) is at level %d (filter %d), not 0: the header does not describe the table (its cells?)", ErrFormat, b, steps, v, f)
			}
			if v, f := d.ResValue(k), d.ResFloor(k); d.Both() && (v != 0 || f != 0) {
				return fmt.Errorf("%w: the board %s (gap 0, so residual 0: %d moves from the goal, each away from it) is at residual level %d (filter %d), not 0: the header does not describe the table (its cells?)", ErrFormat, b, steps, v, f)
			}
			blank := b.Blank()
			var away []int
			for _, c := range encode.Neighbors(d.Rows, d.Cols, blank) {
				if t := int(b.Tiles[c]); dist(t, blank) > dist(t, c) {
					away = append(away, c)
				}
			}
			if len(away) == 0 {
				break
			}
			c := away[rng.IntN(len(away))]
			b.Tiles[blank], b.Tiles[c] = b.Tiles[c], 0
		}
	}
	return nil
}

func abs(x int) int { return max(x, -x) }

// ReadHeader reads and checks a database's header alone (report, verify).
func ReadHeader(path string) (Header, error) {
	f, err := infile.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	return readHeader(f, path)
}

func readHeader(f *os.File, path string) (Header, error) {
	fixed := make([]byte, fixedLen)
	if _, err := io.ReadFull(f, fixed); err != nil {
		return Header{}, fmt.Errorf("%s: %w: shorter than a header", path, ErrFormat)
	}
	hl, err := HeaderLen(fixed)
	if err != nil {
		return Header{}, fmt.Errorf("%s: %w", path, err)
	}
	if st, err := f.Stat(); err != nil || int64(hl) > st.Size() {
		return Header{}, fmt.Errorf("%s: %w: the header is cut short", path, ErrFormat)
	}
	b := make([]byte, hl)
	copy(b, fixed)
	if _, err := io.ReadFull(f, b[fixedLen:]); err != nil {
		return Header{}, fmt.Errorf("%s: %w: the header is cut short", path, ErrFormat)
	}
	h, err := DecodeHeader(b)
	if err != nil {
		return Header{}, fmt.Errorf("%s: %w", path, err)
	}
	pad := make([]byte, h.TableOff-uint64(hl))
	if _, err := io.ReadFull(f, pad); err != nil || bytes.ContainsFunc(pad, func(r rune) bool { return r != 0 }) {
		return Header{}, fmt.Errorf("%s: %w: the header's padding is cut short or not zero", path, ErrFormat)
	}
	return h, nil
}

// chunkCRCs computes the CRC-32C of each chunk of the table followed by
// the filter (one stream, as the file holds them), the chunks shared out
// over the cores.
func chunkCRCs(table, filter []byte, chunkLog int) []uint32 {
	size := 1 << chunkLog
	total := len(table) + len(filter)
	crcs := make([]uint32, (total+size-1)/size)
	workers := min(runtime.GOMAXPROCS(0), len(crcs))
	var g safe.Group
	for w := 0; w < workers; w++ {
		g.Go(func() {
			for i := w; i < len(crcs); i += workers {
				lo, hi := i*size, min((i+1)*size, total)
				var c uint32
				if lo < len(table) {
					c = crc32.Update(c, castagnoli, table[lo:min(hi, len(table))])
				}
				if hi > len(table) {
					c = crc32.Update(c, castagnoli, filter[max(lo-len(table), 0):hi-len(table)])
				}
				crcs[i] = c
			}
		})
	}
	g.Wait()
	return crcs
}

// checkTable compares the table's chunk CRCs with the header's, and the
// padding with zeros.
func (d *DB) checkTable() error {
	got := chunkCRCs(d.table, d.filter, d.ChunkLog)
	for i, c := range got {
		if c != d.ChunkCRCs[i] {
			return fmt.Errorf("%w: the table's chunk %d (bytes %d..) does not match its CRC", ErrFormat, i, i<<d.ChunkLog)
		}
	}
	if binary.LittleEndian.Uint64(d.table[len(d.table)-tablePad:]) != 0 {
		return fmt.Errorf("%w: the table's padding is not zero", ErrFormat)
	}
	return nil
}

// Close unmaps the table; the DB must not be used after.
func (d *DB) Close() {
	if d.unmap != nil {
		d.unmap()
		d.unmap = nil
	}
	d.table, d.filter = nil, nil
}

// Table is the packed table, read only (for verify and tests).
func (d *DB) Table() []byte { return d.table }

// Filter is the filter, read only (nil without one).
func (d *DB) Filter() []byte { return d.filter }

// Floor is the filter's entry for a board (its key, or a key projected onto
// cells that include the database's): at most the board's entry (its gap
// level, with both levels). Without a filter it is 0.
func (d *DB) Floor(key uint64) int { return d.floor(key, 0) }

// ResFloor is Floor of the residual levels of a database of both (0
// otherwise).
func (d *DB) ResFloor(key uint64) int {
	if !d.Both() {
		return 0
	}
	return d.floor(key, 1)
}

// floor is the filter's nibble of field 0 (gap) or 1 (residual).
func (d *DB) floor(key uint64, field uint64) int {
	if d.filter == nil {
		return 0
	}
	m := d.proj.pattern(key) & (1<<(4*d.FilterCells) - 1)
	if d.Both() {
		m = 2*m + field
	}
	return int(nibble(d.filter, m))
}

// Index is the entry of a board (its key, or a key projected onto cells
// that include the database's).
func (d *DB) Index(key uint64) uint64 { return d.proj.index(key) }

// At is entry x: the smallest level holding the pattern, Levels when none
// (the gap level, with both levels).
func (d *DB) At(x uint64) int { return int(entryAt(d.table, x, d.Bits, d.mask)) }

// Value is the entry of a board.
func (d *DB) Value(key uint64) int { return d.At(d.Index(key)) }

// ResAt is the residual level of entry x in a database of both levels: the
// smallest holding the pattern, ResLevels when none (0 otherwise).
func (d *DB) ResAt(x uint64) int {
	return int(entryAt(d.table, x, d.Bits, 0xffff) >> d.rshift & d.rmask)
}

// ResValue is ResAt of a board.
func (d *DB) ResValue(key uint64) int { return d.ResAt(d.Index(key)) }

// entryAt reads entry x of a table of b-bit entries: two bytes hold any
// entry of at most 9 bits (the table's padding keeps the second in range).
func entryAt(table []byte, x uint64, b int, mask uint16) uint16 {
	bit := x * uint64(b)
	return binary.LittleEndian.Uint16(table[bit>>3:]) >> (bit & 7) & mask
}

// IsDB reports whether the file begins as a gap database does (its magic).
func IsDB(path string) bool {
	f, err := infile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, len(magic))
	_, err = io.ReadFull(f, b)
	return err == nil && string(b) == magic
}
