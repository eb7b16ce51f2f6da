// Package gapdb is the gap database: for every pattern of k cells of an
// R x C board (its tiles on those cells, ranked as placements), the
// smallest gap level that holds it, 0..N (gap 0, 2, ..., 2N), or N+1
// (above 2N), packed in as few bits as the levels need. It replaces a chain
// of gap sets (ida.Gap's levels): one read answers every level, the file is
// mapped, never decoded, and the heuristic (Heuristic) takes the largest
// excess over any number of databases, each a projection onto its own cells.
package gapdb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"slices"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
)

// File format, version 2 with a filter, 1 without (f = 0: the format
// before filters, byte for byte), 3 for both levels (below); integers
// little-endian:
//
//	offset size
//	0      8    magic "GAPDB\x00\x00\x00"
//	8      2    version (2; 1 when f = 0)
//	10     1    rows
//	11     1    cols
//	12     1    k, the number of cells
//	13     1    levels L (1..15): an entry v < L is level v (gap <= 2v), v = L above
//	14     1    bits b per entry (bits.Len(L): 1..4)
//	15     1    log2 of the check chunk (20..30)
//	16     16   the cells, increasing (k bytes, then zeros)
//	32     8    entries E = n!/(n-k)! (n = rows*cols)
//	40     8    table length T = ceil(E*b/8) + 8 (8 zero bytes of padding)
//	48     8    table offset (a multiple of 4096)
//	56     4    S, the level files it was built from (0..64)
//	60     1    f, the filter's cells (0: no filter; below k, at most 6)
//	61     1    flags: bit 0 = residual (the levels are of optimum - h for
//	            the base heuristic h of the base record; 0: of the gap,
//	            optimum - Manhattan distance), bit 1 = both levels (version
//	            3 only, with bit 0); other bits 0
//	62     1    both levels: L_R, the residual levels (1..15); else 0
//	63     1    reserved (0)
//	64     128  counts[16]: entries holding v (v = 0..L), then zeros
//	192    64*S the level files: gap (1), flags (1: bit 0 exact, bit 1
//	            approximated, bit 2 (version 3 only) a residual level file,
//	            relative to the base), reserved (2), the file's own CRC-32C
//	            trailer (4), its key count (8), its base name (48,
//	            NUL-padded)
//	then   96   only when residual: the base's digest (32) and spec (64,
//	            NUL-padded), as the level files record it (keyset.Base)
//	then   128  only with both levels: the residual counts[16]
//	then   4*C  CRC-32C of each chunk of the table and filter (C = ceil((T+FL) / chunk))
//	then   4    CRC-32C of every header byte before it
//	zeros up to the table offset, then the table: entry x at bits
//	x*b .. x*b+b-1 (bit 0 the least significant of byte 0); then the
//	filter, FL = 16^f/2 bytes (none when f = 0): entry m, a nibble (the low
//	one of byte m/2 for even m), is the smallest table entry over the
//	patterns whose last f cells hold the tiles of m's nibbles (the last cell
//	least significant), or L where there is none
//
// The digest of the table is the CRC-32C of the chunk CRCs (Header.Digest).
//
// Both levels (version 3, flags 3): a pattern's entry holds its gap level
// (0..L, L = above gap 2L-2) in its low bits(L) bits and its residual
// level (0..L_R) in the bits(L_R) bits above them, b = bits(L) + bits(L_R)
// (at most 8), so that one read answers both bounds of a projection: the
// Manhattan-gap one and the base's residual one (docs/gap-databases.md).
// Counts are the gap levels', the residual counts follow the base record;
// the filter is two nibbles a pattern of its f cells, FL = 16^f bytes:
// nibble 2m the smallest gap level, 2m+1 the smallest residual level.
//
// The filter answers most questions of a search in cache: an entry is at
// least its filter entry, so a question "entry at most j?" whose filter
// entry exceeds j is answered "no" without the table.

const (
	magic   = "GAPDB\x00\x00\x00"
	version = 2
	// versionBoth is the version of a database of both levels.
	versionBoth = 3
	fixedLen    = 192
	// MaxLevels bounds L: 4 bits an entry hold 0..15.
	MaxLevels = 15
	// MaxFilterCells bounds f: a filter of 6 cells is 8 MiB, in the last
	// level cache.
	MaxFilterCells = 6
	maxSources     = 64
	nameLen        = 48
	sourceLen      = 16 + nameLen
	baseLen        = 32 + keyset.BaseSpecLen
	flagResidual   = 1
	flagBoth       = 2
	countsLen      = 128
	pageAlign      = 4096
	tablePad       = 8
	// chunkLog is the check chunk written: 64 MiB, so that two cores share
	// the check of a 200 MB table and an 11 GB one alike.
	chunkLog = 26
)

// ErrFormat marks a file that is not a valid gap database.
var ErrFormat = errors.New("bad gap database")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Source is one level file a database was built from.
type Source struct {
	Gap           int
	Exact, Approx bool
	// Res marks, in a database of both levels, a residual level file (the
	// others are of the gap).
	Res   bool
	CRC   uint32 // the file's own CRC-32C trailer
	Count uint64
	Name  string // base name, at most 48 bytes
}

// Header describes a database.
type Header struct {
	Rows, Cols int
	Cells      []int // increasing
	Levels     int   // L: levels 0..L-1 (gap 0..2L-2), L = above
	// FilterCells is f, the last cells of the projection the filter is
	// indexed by (0: no filter).
	FilterCells int
	Bits        int
	ChunkLog    int
	Entries     uint64
	TableLen    uint64
	TableOff    uint64
	FilterLen   uint64
	Counts      [16]uint64
	Sources     []Source
	ChunkCRCs   []uint32
	// Base is the heuristic h the levels are relative to (residual sets:
	// optimum - h); zero for gap levels (h is Manhattan distance).
	Base keyset.Base
	// ResLevels is L_R in a database of both levels (Both): each entry
	// holds the gap level (Levels, Counts) in its low GapBits bits and the
	// residual level of Base (0..L_R, ResCounts) above them; Bits is their
	// sum. 0 otherwise.
	ResLevels int
	ResCounts [16]uint64
}

// Both reports whether each entry holds the gap level and the residual
// level of a pattern (version 3).
func (h *Header) Both() bool { return h.ResLevels > 0 }

// GapBits is the width of the entries' gap level (all of an entry but in a
// database of both levels).
func (h *Header) GapBits() int { return bitsFor(h.Levels) }

// ResMaxGap is the largest residual level a database of both levels holds
// (r <= 2(L_R-1)).
func (h *Header) ResMaxGap() int { return 2 * (h.ResLevels - 1) }

// MaxGap is 2N, the largest gap level the database holds.
func (h *Header) MaxGap() int { return 2 * (h.Levels - 1) }

// Digest is the CRC-32C of the chunk CRCs: one number for the table.
func (h *Header) Digest() uint32 {
	b := make([]byte, 4*len(h.ChunkCRCs))
	for i, c := range h.ChunkCRCs {
		binary.LittleEndian.PutUint32(b[4*i:], c)
	}
	return crc32.Checksum(b, castagnoli)
}

// Name is the database's short name: GapDB8_8 (gap <= 8 on 8 cells) for
// the last cells, GapDB8_{0,1,4,5} for others; ResDB8_8 for residual
// levels; BothDB8+4_8 for gap <= 8 and r <= 4 in one.
func (h *Header) Name() string {
	n := h.Rows * h.Cols
	s := fmt.Sprintf("GapDB%d_", h.MaxGap())
	if h.Both() {
		s = fmt.Sprintf("BothDB%d+%d_", h.MaxGap(), h.ResMaxGap())
	} else if !h.Base.IsZero() {
		s = fmt.Sprintf("ResDB%d_", h.MaxGap())
	}
	if slices.Equal(h.Cells, lastCells(n, len(h.Cells))) {
		return s + fmt.Sprint(len(h.Cells))
	}
	return s + fmt.Sprintf("{%s}", joinInts(h.Cells, ","))
}

func joinInts(xs []int, sep string) string {
	var b bytes.Buffer
	for i, x := range xs {
		if i > 0 {
			b.WriteString(sep)
		}
		fmt.Fprint(&b, x)
	}
	return b.String()
}

// lastCells is n-k..n-1, the cells of a key set's projection.
func lastCells(n, k int) []int {
	cs := make([]int, k)
	for i := range cs {
		cs[i] = n - k + i
	}
	return cs
}

// entries is n!/(n-k)!, the placements of k distinct tiles on k cells.
func entries(n, k int) uint64 {
	p := uint64(1)
	for i := 0; i < k; i++ {
		p *= uint64(n - i)
	}
	return p
}

// version is the version the header is written as: 1 without a filter, so
// that databases without one stay readable by the programs before filters.
func (h *Header) version() uint16 {
	if h.Both() {
		return versionBoth
	}
	if h.FilterCells == 0 {
		return 1
	}
	return version
}

// filterLen is the filter's length for f cells: a nibble a pattern, two
// with both levels.
func filterLen(f int, both bool) uint64 {
	if f == 0 {
		return 0
	}
	if both {
		return 1 << (4 * f)
	}
	return 1 << (4*f - 1)
}

// DefaultFilterCells is the filter a database of k cells of an n-cell board
// gets by default: 6 cells where the table is over 64 MiB (8 MiB beside
// it), none where the table is small enough to sit in cache itself.
func DefaultFilterCells(n, k, levels int) int { return defaultFilterCells(n, k, bitsFor(levels)) }

func defaultFilterCells(n, k, bits int) int {
	if k <= MaxFilterCells || entries(n, k)*uint64(bits)/8 <= 64<<20 {
		return 0
	}
	return MaxFilterCells
}

// bitsFor is the entry width for L levels (values 0..L).
func bitsFor(levels int) int { return bits.Len(uint(levels)) }

// headerLen is the header's length before the page padding.
func (h *Header) headerLen() int {
	return fixedLen + sourceLen*len(h.Sources) + h.baseLen() + 4*len(h.ChunkCRCs) + 4
}

// baseLen is the length of the base record (0 for gap levels) and the
// residual counts (both levels).
func (h *Header) baseLen() int {
	if h.Base.IsZero() {
		return 0
	}
	if h.Both() {
		return baseLen + countsLen
	}
	return baseLen
}

// layout fills the derived fields (entries, widths, lengths, offset) from
// board, cells and levels, and checks them.
func (h *Header) layout() error {
	if err := encode.CheckSize(h.Rows, h.Cols); err != nil {
		return err
	}
	n := h.Rows * h.Cols
	if len(h.Cells) < 1 || len(h.Cells) > n {
		return fmt.Errorf("%d cells on a board of %d", len(h.Cells), n)
	}
	for i, c := range h.Cells {
		if c < 0 || c >= n || i > 0 && c <= h.Cells[i-1] {
			return fmt.Errorf("cells %v: want increasing cells in 0..%d", h.Cells, n-1)
		}
	}
	if h.Levels < 1 || h.Levels > MaxLevels {
		return fmt.Errorf("%d levels: want 1..%d (gap 0..%d)", h.Levels, MaxLevels, 2*MaxLevels-2)
	}
	if len(h.Sources) > maxSources {
		return fmt.Errorf("%d level files: at most %d", len(h.Sources), maxSources)
	}
	if h.FilterCells < 0 || h.FilterCells > MaxFilterCells || h.FilterCells > 0 && h.FilterCells >= len(h.Cells) {
		return fmt.Errorf("a filter of %d cells for %d cells: want 0 (none) or 1..%d, fewer than the cells", h.FilterCells, len(h.Cells), MaxFilterCells)
	}
	if err := h.Base.Check(); err != nil {
		return err
	}
	h.Bits = bitsFor(h.Levels)
	if h.ResLevels != 0 {
		if h.ResLevels < 1 || h.ResLevels > MaxLevels {
			return fmt.Errorf("%d residual levels: want 1..%d (r <= 0..%d)", h.ResLevels, MaxLevels, 2*MaxLevels-2)
		}
		if h.Base.IsZero() {
			return errors.New("both levels without a base: the residual levels are of a base heuristic")
		}
		h.Bits += bitsFor(h.ResLevels)
	}
	h.ChunkLog = chunkLog
	h.Entries = entries(n, len(h.Cells))
	h.TableLen = (h.Entries*uint64(h.Bits)+7)/8 + tablePad
	h.FilterLen = filterLen(h.FilterCells, h.Both())
	chunks := int((h.TableLen + h.FilterLen + 1<<chunkLog - 1) >> chunkLog)
	if len(h.ChunkCRCs) != chunks {
		h.ChunkCRCs = make([]uint32, chunks)
	}
	h.TableOff = uint64(h.headerLen()+pageAlign-1) / pageAlign * pageAlign
	return nil
}

// encode writes the header, page padding included.
func (h *Header) encode() []byte {
	b := make([]byte, h.TableOff)
	copy(b, magic)
	binary.LittleEndian.PutUint16(b[8:], h.version())
	b[10], b[11], b[12], b[13], b[14], b[15] = byte(h.Rows), byte(h.Cols), byte(len(h.Cells)), byte(h.Levels), byte(h.Bits), byte(h.ChunkLog)
	for i, c := range h.Cells {
		b[16+i] = byte(c)
	}
	binary.LittleEndian.PutUint64(b[32:], h.Entries)
	binary.LittleEndian.PutUint64(b[40:], h.TableLen)
	binary.LittleEndian.PutUint64(b[48:], h.TableOff)
	binary.LittleEndian.PutUint32(b[56:], uint32(len(h.Sources)))
	b[60] = byte(h.FilterCells)
	if !h.Base.IsZero() {
		b[61] = flagResidual
	}
	if h.Both() {
		b[61] |= flagBoth
		b[62] = byte(h.ResLevels)
	}
	for v, c := range h.Counts {
		binary.LittleEndian.PutUint64(b[64+8*v:], c)
	}
	o := fixedLen
	for _, s := range h.Sources {
		b[o] = byte(s.Gap)
		if s.Exact {
			b[o+1] |= 1
		}
		if s.Approx {
			b[o+1] |= 2
		}
		if s.Res {
			b[o+1] |= 4
		}
		binary.LittleEndian.PutUint32(b[o+4:], s.CRC)
		binary.LittleEndian.PutUint64(b[o+8:], s.Count)
		copy(b[o+16:o+sourceLen], s.Name)
		o += sourceLen
	}
	if !h.Base.IsZero() {
		copy(b[o:], h.Base.Digest[:])
		copy(b[o+32:o+baseLen], h.Base.Spec)
		o += baseLen
	}
	if h.Both() {
		for v, c := range h.ResCounts {
			binary.LittleEndian.PutUint64(b[o+8*v:], c)
		}
		o += countsLen
	}
	for _, c := range h.ChunkCRCs {
		binary.LittleEndian.PutUint32(b[o:], c)
		o += 4
	}
	binary.LittleEndian.PutUint32(b[o:], crc32.Checksum(b[:o], castagnoli))
	return b
}

// FixedLen is how many bytes DecodeHeader needs to tell the header's whole
// length (HeaderLen).
const FixedLen = fixedLen

// HeaderLen reads from the fixed part (at least FixedLen bytes) how long
// the whole header is, page padding excluded, or an error for a file that
// is not a gap database.
func HeaderLen(b []byte) (int, error) {
	if len(b) < fixedLen {
		return 0, fmt.Errorf("%w: %d bytes, shorter than a header", ErrFormat, len(b))
	}
	if string(b[:8]) != magic {
		return 0, fmt.Errorf("%w: wrong magic (not a gapset gap database)", ErrFormat)
	}
	v := binary.LittleEndian.Uint16(b[8:])
	if v != 1 && v != version && v != versionBoth {
		return 0, fmt.Errorf("%w: version %d, this program reads versions 1 to %d", ErrFormat, v, versionBoth)
	}
	both := v == versionBoth
	if both != (b[61]&flagBoth != 0) || both && b[61]&flagResidual == 0 {
		return 0, fmt.Errorf("%w: flags %#x in a version %d file (both levels: version %d, flags 3)", ErrFormat, b[61], v, versionBoth)
	}
	fc := int(b[60])
	if fc > MaxFilterCells || !both && (v == version) != (fc > 0) {
		return 0, fmt.Errorf("%w: a filter of %d cells in a version %d file", ErrFormat, fc, v)
	}
	f := binary.LittleEndian.Uint32(b[56:])
	if f > maxSources {
		return 0, fmt.Errorf("%w: %d level files, at most %d", ErrFormat, f, maxSources)
	}
	tl := binary.LittleEndian.Uint64(b[40:])
	lg := int(b[15])
	if lg < 20 || lg > 30 || tl > 1<<44 {
		return 0, fmt.Errorf("%w: chunk 2^%d, table of %d bytes", ErrFormat, lg, tl)
	}
	chunks := (tl + filterLen(fc, both) + 1<<lg - 1) >> lg
	base := 0
	if b[61]&flagResidual != 0 {
		base = baseLen
	}
	if both {
		base += countsLen
	}
	return fixedLen + sourceLen*int(f) + base + 4*int(chunks) + 4, nil
}

// DecodeHeader reads and checks a whole header (HeaderLen bytes or more):
// its CRC, and every field against the others.
func DecodeHeader(b []byte) (Header, error) {
	hl, err := HeaderLen(b)
	if err != nil {
		return Header{}, err
	}
	if len(b) < hl {
		return Header{}, fmt.Errorf("%w: header of %d bytes, %d given", ErrFormat, hl, len(b))
	}
	if crc32.Checksum(b[:hl-4], castagnoli) != binary.LittleEndian.Uint32(b[hl-4:]) {
		return Header{}, fmt.Errorf("%w: the header's CRC does not match", ErrFormat)
	}
	h := Header{Rows: int(b[10]), Cols: int(b[11]), Levels: int(b[13]), FilterCells: int(b[60])}
	k := int(b[12])
	if k < 1 || k > 16 {
		return Header{}, fmt.Errorf("%w: %d cells", ErrFormat, k)
	}
	for i := 0; i < 16; i++ {
		if i < k {
			h.Cells = append(h.Cells, int(b[16+i]))
		} else if b[16+i] != 0 {
			return Header{}, fmt.Errorf("%w: bytes after the cells are not zero", ErrFormat)
		}
	}
	both := b[61]&flagBoth != 0 // HeaderLen checked it against the version
	if b[61]&^(flagResidual|flagBoth) != 0 || !both && b[62] != 0 || b[63] != 0 {
		return Header{}, fmt.Errorf("%w: reserved header bytes are not zero", ErrFormat)
	}
	if both {
		h.ResLevels = int(b[62])
		if h.ResLevels == 0 {
			return Header{}, fmt.Errorf("%w: both levels, but no residual level", ErrFormat)
		}
	}
	srcFlags := byte(3)
	if both {
		srcFlags = 7
	}
	o := fixedLen
	for i := uint32(0); i < binary.LittleEndian.Uint32(b[56:]); i++ {
		name := b[o+16 : o+sourceLen]
		if j := bytes.IndexByte(name, 0); j >= 0 {
			if bytes.ContainsFunc(name[j:], func(r rune) bool { return r != 0 }) {
				return Header{}, fmt.Errorf("%w: a level file's name is not NUL-padded", ErrFormat)
			}
			name = name[:j]
		}
		if b[o+1]&^srcFlags != 0 || b[o+2] != 0 || b[o+3] != 0 {
			return Header{}, fmt.Errorf("%w: reserved bytes of a level file are not zero", ErrFormat)
		}
		h.Sources = append(h.Sources, Source{Gap: int(b[o]), Exact: b[o+1]&1 != 0, Approx: b[o+1]&2 != 0, Res: b[o+1]&4 != 0,
			CRC: binary.LittleEndian.Uint32(b[o+4:]), Count: binary.LittleEndian.Uint64(b[o+8:]), Name: string(name)})
		o += sourceLen
	}
	if b[61]&flagResidual != 0 {
		copy(h.Base.Digest[:], b[o:o+32])
		spec := b[o+32 : o+baseLen]
		if j := bytes.IndexByte(spec, 0); j >= 0 {
			if bytes.ContainsFunc(spec[j:], func(r rune) bool { return r != 0 }) {
				return Header{}, fmt.Errorf("%w: the base's spec is not NUL-padded", ErrFormat)
			}
			spec = spec[:j]
		}
		h.Base.Spec = string(spec)
		if h.Base.IsZero() {
			return Header{}, fmt.Errorf("%w: the residual flag with an empty base record", ErrFormat)
		}
		o += baseLen
	}
	if both {
		for v := range h.ResCounts {
			h.ResCounts[v] = binary.LittleEndian.Uint64(b[o+8*v:])
		}
		o += countsLen
	}
	for ; o < hl-4; o += 4 {
		h.ChunkCRCs = append(h.ChunkCRCs, binary.LittleEndian.Uint32(b[o:]))
	}
	want := h
	want.ChunkCRCs = slices.Clone(h.ChunkCRCs)
	if err := want.layout(); err != nil {
		return Header{}, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	h.Bits, h.ChunkLog = int(b[14]), int(b[15])
	h.Entries = binary.LittleEndian.Uint64(b[32:])
	h.TableLen = binary.LittleEndian.Uint64(b[40:])
	h.TableOff = binary.LittleEndian.Uint64(b[48:])
	h.FilterLen = want.FilterLen
	if h.Bits != want.Bits || h.ChunkLog != want.ChunkLog || h.Entries != want.Entries || h.TableLen != want.TableLen || h.TableOff != want.TableOff {
		return Header{}, fmt.Errorf("%w: sizes do not match the board, cells and levels", ErrFormat)
	}
	for v := range h.Counts {
		h.Counts[v] = binary.LittleEndian.Uint64(b[64+8*v:])
	}
	if err := checkCounts(&h.Counts, h.Levels, h.Entries); err != nil {
		return Header{}, err
	}
	if both {
		if err := checkCounts(&h.ResCounts, h.ResLevels, h.Entries); err != nil {
			return Header{}, fmt.Errorf("%w (the residual levels)", err)
		}
		if err := checkBothSources(&h); err != nil {
			return Header{}, err
		}
	}
	return h, nil
}

// checkBothSources checks the level files a database of both levels names
// (if any) against its levels: gaps 0, 2, ..., 2(L-1) of each kind once.
func checkBothSources(h *Header) error {
	if len(h.Sources) == 0 {
		return nil
	}
	seen := map[[2]int]bool{}
	for _, s := range h.Sources {
		kind, levels := 0, h.Levels
		if s.Res {
			kind, levels = 1, h.ResLevels
		}
		if s.Gap%2 != 0 || s.Gap/2 >= levels || seen[[2]int{kind, s.Gap}] {
			return fmt.Errorf("%w: the level files named (%s, residual %v) are not one of each level of %d gap and %d residual levels", ErrFormat, s.Name, s.Res, h.Levels, h.ResLevels)
		}
		seen[[2]int{kind, s.Gap}] = true
	}
	if len(seen) != h.Levels+h.ResLevels {
		return fmt.Errorf("%w: %d level files named, for %d gap and %d residual levels", ErrFormat, len(seen), h.Levels, h.ResLevels)
	}
	return nil
}

// checkCounts checks counts of the values 0..levels against the entries.
func checkCounts(counts *[16]uint64, levels int, entries uint64) error {
	var sum uint64
	for v, c := range counts {
		if v > levels && c != 0 {
			return fmt.Errorf("%w: a count of level %d, above the %d levels", ErrFormat, v, levels)
		}
		sum += c
		if sum < c || sum > entries {
			return fmt.Errorf("%w: counts exceed the %d entries", ErrFormat, entries)
		}
	}
	if sum != entries {
		return fmt.Errorf("%w: counts of %d entries, not %d", ErrFormat, sum, entries)
	}
	return nil
}
