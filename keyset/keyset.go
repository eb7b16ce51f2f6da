// Package keyset reads and writes key-set files: sorted sets of 64-bit board
// keys (encode.Board.Key, projected onto the last k cells or gathered from
// any set of k cells) with a header that names the board, the cells and the
// gap bound, and a CRC-32C trailer. The
// enumerator (package gapset) writes them; the BDD builder (package bdd) and
// the in-memory sets (package memset) read them.
package keyset

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"math/bits"
	"os"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/infile"
)

// MaxGap is the largest gap a header can name (it is stored in one byte,
// and gaps are even).
const MaxGap = 254

// Key-set file format, version 1 (all integers little-endian):
//
//	offset size
//	0      8    magic "GAPKEYS\x00"
//	8      2    version (1)
//	10     1    rows
//	11     1    cols
//	12     1    cells k: keys hold the last k cells (k = rows*cols: whole boards),
//	            or the k cells of the cell set (byte 15 bit 0)
//	13     1    gap: the set holds configurations with gap (optimum - Manhattan) at most gap,
//	            or exactly gap when the exact flag is set
//	14     1    flags: bit 0 = exact; bit 1 = approximated (a superset of the
//	            projection of the gap set, e.g. gapset.Approximate's; Name ends in "a");
//	            bit 2 = residual: the set is of optimum - h for a base heuristic h
//	            other than Manhattan distance, and the base record follows the header
//	15     1    format flags: bit 0 = cell set: bytes 30-31 hold the cells (a
//	            16-bit mask, bit c = cell c, row-major; k bits set, never the
//	            last k cells, which are written without the flag); other bits 0
//	16     8    count of keys
//	24     8    reserved (0); with the cell-set flag, bytes 24-29 are 0 and
//	            bytes 30-31 the cells
//	32     96   only with the residual flag: the base record, the base's digest (32,
//	            Base.Digest) and its spec (64, printable ASCII, NUL-padded: Base.Spec)
//	32|128 8*count keys, strictly increasing uint64 (encode.Board.Key, projected:
//	            the contents of the cells c_1 < ... < c_k in the low 4k bits, c_1
//	            most significant; for the last k cells the key masked)
//	end    4    CRC-32C (Castagnoli) of every byte before it
//
// Version 2 (packed) is the same but for two fields: bytes 24-31 hold the
// length L of the key section (with the cell-set flag: bytes 24-29, L below
// 2^48, and bytes 30-31 the cells), and the keys are delta-coded: each key's
// difference from the previous one (the first: from 0) as a uvarint. Dense
// sorted sets take 2-5 bytes per key instead of 8 (a 12-cell projection of
// the 4x4 gap <= 4 set would not fit on our disk as version 1).
//
// The cell-set flag is a reserved byte of both versions, so a file of the
// last k cells keeps its bytes and a reader that predates the flag refuses
// a cell-set file (reserved bytes not zero) rather than misread it. The
// residual flag is a reserved bit alike: a gap set keeps every byte, and a
// reader that predates it refuses a residual set.
//
// Writers produce the file under a temporary name in the same directory and
// rename it when complete, so an interrupted run leaves no partial file.

const (
	keysetMagic   = "GAPKEYS\x00"
	keysetVersion = 1
	packedVersion = 2
	// HeaderSize is the byte offset of the first key (of a gap set; a
	// residual set's base record comes first: Header.KeysOffset).
	HeaderSize  = 32
	trailerSize = 4
	// baseLen is the base record of a residual set: digest and spec.
	baseLen = 32 + BaseSpecLen
	// BaseSpecLen bounds a base's spec.
	BaseSpecLen = 64
	// flagResidual (byte 14): the set is relative to a base (Header.Base).
	flagResidual = 4
	// flagCellSet (byte 15): the cells are the mask at bytes 30-31.
	flagCellSet = 1
	// maxSetDataLen bounds a cell-set file's key section (48 bits).
	maxSetDataLen = 1<<48 - 1
)

// ErrFormat marks a file that is not a valid key-set file.
var ErrFormat = errors.New("bad key-set file")

// ErrCellSet marks a key set of a cell set (not the last k cells) given to
// a reader of the last k cells only (Open, ReadAll): the keys would be
// read as other cells' contents. It wraps ErrFormat (bad input).
var ErrCellSet = fmt.Errorf("%w: cells other than the last k", ErrFormat)

// ErrResidual marks a residual set (relative to a base heuristic, not to
// Manhattan distance) given to a reader of gap sets (Open, OpenAny): its
// levels are not gap levels. It wraps ErrFormat (bad input).
var ErrResidual = fmt.Errorf("%w: a residual set", ErrFormat)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Base identifies the heuristic h a residual set is relative to: the set
// holds configurations with optimum - h at most (or exactly) its gap. The
// zero Base is Manhattan distance: the set is a gap set.
type Base struct {
	// Spec names the base as the heuristic registry resolves it
	// (printable ASCII, 1..BaseSpecLen bytes).
	Spec string
	// Digest identifies its tables (SHA-256 of what it is computed from):
	// two bases of one spec built from other files differ here.
	Digest [32]byte
}

// IsZero reports whether b is Manhattan distance (a gap set).
func (b Base) IsZero() bool { return b == Base{} }

// String is the base as refusals name it: its spec and the start of its
// digest.
func (b Base) String() string {
	if b.IsZero() {
		return "md (Manhattan distance)"
	}
	return fmt.Sprintf("%s (digest %x...)", b.Spec, b.Digest[:6])
}

// Check refuses a base a header cannot hold.
func (b Base) Check() error {
	if b.IsZero() {
		return nil
	}
	if len(b.Spec) == 0 || len(b.Spec) > BaseSpecLen {
		return fmt.Errorf("base spec %q: want 1..%d bytes", b.Spec, BaseSpecLen)
	}
	for i := 0; i < len(b.Spec); i++ {
		if c := b.Spec[i]; c <= ' ' || c > '~' {
			return fmt.Errorf("base spec %q: printable ASCII without blanks only", b.Spec)
		}
	}
	if b.Digest == [32]byte{} {
		return fmt.Errorf("base %s without a digest", b.Spec)
	}
	return nil
}

// Header describes a key set.
type Header struct {
	Rows, Cols int
	Cells      int // keys keep the last Cells cells, or those of CellSet
	// CellSet, when not 0, is the set of Cells cells the keys hold
	// (gathered: encode.CellSet.Projector); 0 is the last Cells cells, and
	// so is the only spelling of them (OnCells makes it).
	CellSet encode.CellSet
	Gap     int    // maximum gap (or the exact gap when Exact)
	Exact   bool   // gap equals Gap rather than at most Gap
	Approx  bool   // a superset of the set (still admissible in h_G:2N)
	Count   uint64 // number of keys
	// Packed: the file's keys are delta-coded (format version 2). It says
	// how the file is stored, not what the set is.
	Packed bool
	// Base is the heuristic h of a residual set (optimum - h at most Gap);
	// zero for a gap set (h is Manhattan distance).
	Base Base
}

// KeysOffset is the byte offset of the first key.
func (h Header) KeysOffset() int64 {
	if h.Base.IsZero() {
		return HeaderSize
	}
	return HeaderSize + baseLen
}

// Name is the paper's name of the set: Gap0, Gap0_8, Gap2_10, ... ("Gap2"
// means gap at most 2 as in the paper; an exact set is written G2x). A
// residual set is Res0_8, Res2_10, ... (exact: R2x).
func (h Header) Name() string {
	s := fmt.Sprintf("Gap%d", h.Gap)
	if h.Exact && h.Gap > 0 {
		s = fmt.Sprintf("G%dx", h.Gap)
	}
	if !h.Base.IsZero() {
		s = fmt.Sprintf("Res%d", h.Gap)
		if h.Exact && h.Gap > 0 {
			s = fmt.Sprintf("R%dx", h.Gap)
		}
	}
	if h.CellSet != 0 {
		// the cells in four hex digits after a "c": fixed width, so the
		// approximated "a" (lower case) cannot run into them
		s += fmt.Sprintf("_%dc%s", h.Cells, h.CellSet.Hex())
	} else if h.Cells < h.Rows*h.Cols {
		s += fmt.Sprintf("_%d", h.Cells)
	}
	if h.Approx {
		s += "a"
	}
	return s
}

// Set is the set of cells the keys hold (the last Cells cells when
// CellSet is 0).
func (h Header) Set() encode.CellSet {
	if h.CellSet != 0 {
		return h.CellSet
	}
	return encode.LastCells(h.Rows*h.Cols, h.Cells)
}

// OnCells is h on the cells of s (Rows and Cols set): Cells is their
// number, and CellSet s, or 0 when s is the last cells.
func (h Header) OnCells(s encode.CellSet) Header {
	h.Cells, h.CellSet = s.Len(), s
	if s.IsLast(h.Rows * h.Cols) {
		h.CellSet = 0
	}
	return h
}

func (h Header) validate() error {
	if err := encode.CheckSize(h.Rows, h.Cols); err != nil {
		return err
	}
	if h.Cells < 1 || h.Cells > h.Rows*h.Cols {
		return fmt.Errorf("cells %d out of range 1..%d", h.Cells, h.Rows*h.Cols)
	}
	if s := h.CellSet; s != 0 {
		if err := s.Check(h.Rows * h.Cols); err != nil {
			return err
		}
		if s.Len() != h.Cells {
			return fmt.Errorf("cell set %s has %d cells, not %d", s, s.Len(), h.Cells)
		}
		if s.IsLast(h.Rows * h.Cols) {
			return fmt.Errorf("cell set %s is the last %d cells: written without a set", s, h.Cells)
		}
	}
	if h.Gap < 0 || h.Gap > MaxGap || h.Gap%2 != 0 {
		return fmt.Errorf("gap %d must be even and in 0..%d", h.Gap, MaxGap)
	}
	if err := h.Base.Check(); err != nil {
		return err
	}
	if !h.Base.IsZero() && h.Approx {
		return fmt.Errorf("an approximated residual set: approximations are of gap sets")
	}
	return nil
}

// encodeAll writes the header and, for a residual set, its base record:
// everything before the keys.
func (h Header) encodeAll(dataLen uint64) []byte {
	b := h.encode(dataLen)
	if h.Base.IsZero() {
		return b
	}
	b = append(b, h.Base.Digest[:]...)
	spec := make([]byte, BaseSpecLen)
	copy(spec, h.Base.Spec)
	return append(b, spec...)
}

// decodeBase reads a base record.
func decodeBase(b []byte) (Base, error) {
	var base Base
	copy(base.Digest[:], b[:32])
	spec := b[32:baseLen]
	if i := bytes.IndexByte(spec, 0); i >= 0 {
		if bytes.ContainsFunc(spec[i:], func(r rune) bool { return r != 0 }) {
			return Base{}, fmt.Errorf("%w: the base's spec is not NUL-padded", ErrFormat)
		}
		spec = spec[:i]
	}
	base.Spec = string(spec)
	if base.IsZero() {
		return Base{}, fmt.Errorf("%w: the residual flag with an empty base record", ErrFormat)
	}
	if err := base.Check(); err != nil {
		return Base{}, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	return base, nil
}

// encode writes the fixed header (the residual flag set when there is a
// base; its record is encodeAll's); dataLen is the key section's length
// (stored only by packed files).
func (h Header) encode(dataLen uint64) []byte {
	b := make([]byte, HeaderSize)
	copy(b, keysetMagic)
	binary.LittleEndian.PutUint16(b[8:], keysetVersion)
	if h.Packed {
		binary.LittleEndian.PutUint16(b[8:], packedVersion)
		binary.LittleEndian.PutUint64(b[24:], dataLen)
	}
	b[10], b[11], b[12], b[13] = byte(h.Rows), byte(h.Cols), byte(h.Cells), byte(h.Gap)
	if h.Exact {
		b[14] = 1
	}
	if h.Approx {
		b[14] |= 2
	}
	if !h.Base.IsZero() {
		b[14] |= flagResidual
	}
	if h.CellSet != 0 {
		b[15] = flagCellSet
		binary.LittleEndian.PutUint16(b[30:], uint16(h.CellSet))
	}
	binary.LittleEndian.PutUint64(b[16:], h.Count)
	return b
}

// decodeHeader reads the fixed header and the key section's length, and
// whether a base record follows (the residual flag; Header.Base is then
// still zero: decodeBase reads it).
func decodeHeader(b []byte) (Header, uint64, bool, error) {
	h, n, err := decodeFixed(b)
	return h, n, err == nil && b[14]&flagResidual != 0, err
}

func decodeFixed(b []byte) (Header, uint64, error) {
	if string(b[:8]) != keysetMagic {
		return Header{}, 0, fmt.Errorf("%w: wrong magic (not a gapset key-set file)", ErrFormat)
	}
	v := binary.LittleEndian.Uint16(b[8:])
	if v != keysetVersion && v != packedVersion {
		return Header{}, 0, fmt.Errorf("%w: version %d, this program reads versions %d and %d", ErrFormat, v, keysetVersion, packedVersion)
	}
	h := Header{Rows: int(b[10]), Cols: int(b[11]), Cells: int(b[12]), Gap: int(b[13]), Exact: b[14]&1 != 0, Approx: b[14]&2 != 0,
		Count: binary.LittleEndian.Uint64(b[16:]), Packed: v == packedVersion}
	dataLen := binary.LittleEndian.Uint64(b[24:])
	if b[15] == flagCellSet {
		h.CellSet = encode.CellSet(binary.LittleEndian.Uint16(b[30:]))
		dataLen &= maxSetDataLen
		if h.CellSet == 0 {
			return Header{}, 0, fmt.Errorf("%w: the cell-set flag with no cells", ErrFormat)
		}
	}
	if b[14]&^(3|flagResidual) != 0 || b[15]&^flagCellSet != 0 || (!h.Packed && dataLen != 0) {
		return Header{}, 0, fmt.Errorf("%w: reserved header bytes are not zero", ErrFormat)
	}
	if err := h.validate(); err != nil {
		return Header{}, 0, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if !h.Packed {
		if h.Count > (math.MaxInt64-HeaderSize-trailerSize)/8 {
			return Header{}, 0, fmt.Errorf("%w: header claims %d keys", ErrFormat, h.Count)
		}
		dataLen = 8 * h.Count
	}
	if dataLen > math.MaxInt64-HeaderSize-trailerSize || h.Count > dataLen {
		return Header{}, 0, fmt.Errorf("%w: header claims %d keys in %d bytes", ErrFormat, h.Count, dataLen)
	}
	return h, dataLen, nil
}

// Writer writes a key-set file. Keys must be added in strictly increasing
// order. Close publishes the file; Abort (or a failed Close) removes it.
type Writer struct {
	h       Header
	tmp     *atomicfile.File
	bw      *bufio.Writer
	last    uint64
	count   uint64
	dataLen uint64 // bytes of keys written
	err     error
	batch   []byte // the encoding buffer
	one     [1]uint64
}

// Create starts a key-set file at path (packed when h.Packed); h.Count is
// ignored (Close fills it in).
func Create(path string, h Header) (*Writer, error) {
	if err := h.validate(); err != nil {
		return nil, err
	}
	tmp, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	w := &Writer{h: h, tmp: tmp}
	w.bw = bufio.NewWriterSize(tmp, 1<<20)
	if _, err := w.bw.Write(h.encodeAll(0)); err != nil { // count and length patched at Close
		w.Abort()
		return nil, err
	}
	return w, nil
}

// Add appends one key.
func (w *Writer) Add(key uint64) error {
	w.one[0] = key
	return w.AddSorted(w.one[:])
}

// AddSorted appends a batch of keys: strictly increasing, and above every
// key added before. It is Add for bulk writers (one buffer write per batch).
func (w *Writer) AddSorted(keys []uint64) error {
	if w.err != nil {
		return w.err
	}
	mask := encode.ProjectMask(w.h.Cells)
	b := w.batch[:0]
	prev := w.last
	for i, key := range keys {
		if (w.count > 0 || i > 0) && key <= prev {
			w.err = fmt.Errorf("key-set writer: key %#x not above previous %#x", key, prev)
			return w.err
		}
		if key&^mask != 0 && w.h.Cells < 16 {
			w.err = fmt.Errorf("key-set writer: key %#x has bits outside the low %d nibbles (%d cells)", key, w.h.Cells, w.h.Cells)
			return w.err
		}
		if w.h.Packed {
			b = binary.AppendUvarint(b, key-prev) // prev is 0 before the first key
		} else {
			b = binary.LittleEndian.AppendUint64(b, key)
		}
		prev = key
	}
	w.batch = b
	if _, err := w.bw.Write(b); err != nil {
		w.err = err
		return err
	}
	w.last = prev
	w.count += uint64(len(keys))
	w.dataLen += uint64(len(b))
	return nil
}

// Count returns the keys added so far.
func (w *Writer) Count() uint64 { return w.count }

// Close writes the count and checksum, syncs and renames the file into place.
func (w *Writer) Close() error {
	f, err := w.Finish()
	if err != nil {
		return err
	}
	return f.Commit()
}

// Finish writes the count and checksum and hands back the temporary, whole
// but not in place: the caller commits it, with other files
// (atomicfile.CommitAll), or aborts it.
func (w *Writer) Finish() (*atomicfile.File, error) {
	if w.err != nil {
		w.Abort()
		return nil, w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.Abort()
		return nil, err
	}
	// The header is final only now; the CRC is computed by re-reading
	// (cheap next to writing).
	if w.h.CellSet != 0 && w.dataLen > maxSetDataLen {
		w.Abort()
		return nil, fmt.Errorf("key-set writer: %d bytes of keys, more than a cell-set file's header holds", w.dataLen)
	}
	w.h.Count = w.count
	if _, err := w.tmp.WriteAt(w.h.encodeAll(w.dataLen), 0); err != nil {
		w.Abort()
		return nil, err
	}
	end := w.h.KeysOffset() + int64(w.dataLen)
	sum, err := fileCRC(w.tmp.File, end)
	if err != nil {
		w.Abort()
		return nil, err
	}
	var tail [trailerSize]byte
	binary.LittleEndian.PutUint32(tail[:], sum)
	if _, err := w.tmp.WriteAt(tail[:], end); err != nil {
		w.Abort()
		return nil, err
	}
	return w.tmp, nil
}

// Abort discards the partial file.
func (w *Writer) Abort() {
	w.tmp.Abort()
	if w.err == nil {
		w.err = errors.New("key-set writer aborted")
	}
}

func fileCRC(f *os.File, n int64) (uint32, error) {
	h := crc32.New(castagnoli)
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, n)); err != nil {
		return 0, err
	}
	return h.Sum32(), nil
}

// WriteFile writes sorted keys to path in one call.
func WriteFile(path string, h Header, keys []uint64) error {
	w, err := Create(path, h)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := w.Add(k); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}

// Reader streams the keys of a key-set file, checking order and the
// checksum as it goes; Err reports the first problem once Next returns false.
type Reader struct {
	h    Header
	f    *os.File
	br   *bufio.Reader
	src  io.Reader // the key section, hashed into crc as it is read
	crc  hash.Hash32
	buf  []byte // read from src: buf[pos:end] not yet decoded
	pos  int
	end  int
	done bool // src is exhausted
	left uint64
	last uint64
	read uint64
	err  error
	name string
}

// Open opens a gap set's key-set file of the last k cells and checks its
// header and length; a file of another cell set is refused (ErrCellSet),
// and so is a residual set (ErrResidual).
func Open(path string) (*Reader, error) {
	r, err := OpenAny(path)
	if err != nil {
		return nil, err
	}
	if s := r.h.CellSet; s != 0 {
		r.Close()
		return nil, fmt.Errorf("%s: %w: it holds the cells %s, and this reads the last %d cells only (gapset gapdb takes any cells)", path, ErrCellSet, s, r.h.Cells)
	}
	return r, nil
}

// OpenAny is Open for a reader of any cells: it must use Header.Set. A
// residual set is refused (ErrResidual).
func OpenAny(path string) (*Reader, error) {
	r, err := OpenResidual(path)
	if err != nil {
		return nil, err
	}
	if b := r.h.Base; !b.IsZero() {
		r.Close()
		return nil, fmt.Errorf("%s: %w relative to the base %s, not a gap set: its levels bound optimum - %s, and only gapset gapdb reads it (a database of residual levels)", path, ErrResidual, b, b.Spec)
	}
	return r, nil
}

// OpenResidual is OpenAny for a reader of gap and residual sets alike: it
// must use Header.Set and Header.Base.
func OpenResidual(path string) (*Reader, error) {
	f, err := infile.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := newReader(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

func newReader(f *os.File, name string) (*Reader, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	hdr := make([]byte, HeaderSize)
	if st.IsDir() {
		return nil, fmt.Errorf("%s: %w: a directory, not a key-set file", name, ErrFormat)
	}
	if _, err := io.ReadFull(f, hdr); err != nil {
		return nil, fmt.Errorf("%s: %w: file too short for a header", name, ErrFormat)
	}
	h, dataLen, residual, err := decodeHeader(hdr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if residual {
		rec := make([]byte, baseLen)
		if _, err := io.ReadFull(f, rec); err != nil {
			return nil, fmt.Errorf("%s: %w: file too short for a residual set's base record", name, ErrFormat)
		}
		if h.Base, err = decodeBase(rec); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if h.Approx {
			return nil, fmt.Errorf("%s: %w: an approximated residual set", name, ErrFormat)
		}
		hdr = append(hdr, rec...)
	}
	if want := h.KeysOffset() + int64(dataLen) + trailerSize; st.Size() != want {
		return nil, fmt.Errorf("%s: %w: %d bytes, header says %d keys in %d bytes: truncated or padded", name, ErrFormat, st.Size(), h.Count, want)
	}
	r := &Reader{h: h, f: f, br: bufio.NewReaderSize(f, 1<<16), crc: crc32.New(castagnoli), left: h.Count, name: name,
		buf: make([]byte, 1<<20)}
	r.crc.Write(hdr)
	r.src = io.TeeReader(io.LimitReader(r.br, int64(dataLen)), r.crc)
	return r, nil
}

// Header returns the file's header.
func (r *Reader) Header() Header { return r.h }

// fill keeps at least binary.MaxVarintLen64 bytes undecoded unless the key
// section is exhausted.
func (r *Reader) fill() error {
	if r.done || r.end-r.pos >= binary.MaxVarintLen64 {
		return nil
	}
	r.end = copy(r.buf, r.buf[r.pos:r.end])
	r.pos = 0
	n, err := io.ReadFull(r.src, r.buf[r.end:])
	r.end += n
	switch err {
	case nil:
	case io.EOF, io.ErrUnexpectedEOF:
		r.done = true
	default:
		return err
	}
	return nil
}

// Next returns the next key; ok is false at the end or on an error (see Err).
func (r *Reader) Next() (key uint64, ok bool) {
	if r.err != nil {
		return 0, false
	}
	if r.left == 0 {
		r.finish()
		return 0, false
	}
	if err := r.fill(); err != nil {
		r.err = fmt.Errorf("%s: %w", r.name, err)
		return 0, false
	}
	if r.h.Packed {
		d, n := binary.Uvarint(r.buf[r.pos:r.end])
		if n <= 0 || n != max(1, (bits.Len64(d)+6)/7) { // the shortest coding only
			r.err = fmt.Errorf("%s: %w: key %d is not a valid delta (truncated, damaged or not minimally coded)", r.name, ErrFormat, r.read)
			return 0, false
		}
		r.pos += n
		key = r.last + d
		if r.read > 0 && (d == 0 || key < r.last) {
			r.err = fmt.Errorf("%s: %w: keys out of order at key %d", r.name, ErrFormat, r.read)
			return 0, false
		}
	} else {
		if r.end-r.pos < 8 {
			r.err = fmt.Errorf("%s: %w: truncated at key %d", r.name, ErrFormat, r.read)
			return 0, false
		}
		key = binary.LittleEndian.Uint64(r.buf[r.pos:])
		r.pos += 8
		if r.read > 0 && key <= r.last {
			r.err = fmt.Errorf("%s: %w: keys out of order at key %d", r.name, ErrFormat, r.read)
			return 0, false
		}
	}
	if !ValidKey(key, r.h.Rows*r.h.Cols, r.h.Cells) {
		r.err = fmt.Errorf("%s: %w: key %d (%#x) is not a placement of tiles on the cells %s of a %dx%d board",
			r.name, ErrFormat, r.read, key, r.h.Set(), r.h.Rows, r.h.Cols)
		return 0, false
	}
	r.last = key
	r.read++
	r.left--
	return key, true
}

// finish checks that the key section ended with the last key and the
// checksum once all keys were read.
func (r *Reader) finish() {
	if r.err != nil {
		return
	}
	if err := r.fill(); err != nil {
		r.err = fmt.Errorf("%s: %w", r.name, err)
		return
	}
	if r.pos != r.end || !r.done {
		r.err = fmt.Errorf("%s: %w: bytes after the last of %d keys", r.name, ErrFormat, r.h.Count)
		return
	}
	var tail [trailerSize]byte
	if _, err := io.ReadFull(r.br, tail[:]); err != nil {
		r.err = fmt.Errorf("%s: %w: missing checksum", r.name, ErrFormat)
		return
	}
	if binary.LittleEndian.Uint32(tail[:]) != r.crc.Sum32() {
		r.err = fmt.Errorf("%s: %w: checksum mismatch (file corrupt)", r.name, ErrFormat)
		return
	}
	r.err = io.EOF
}

// Err returns the first error met, or nil after a clean, verified end.
func (r *Reader) Err() error {
	if r.err == io.EOF {
		return nil
	}
	return r.err
}

// ValidKey reports whether key is a projected board of an n-cell puzzle on
// cells cells (the last ones, or any set gathered): no bits above them, each cell a tile (or the blank)
// below n, no tile twice. Damage that keeps the checksum valid (or a writer
// bug) is caught here on every load, at the cost of a few shifts per key.
func ValidKey(key uint64, n, cells int) bool {
	if cells < 16 && key>>(4*uint(cells)) != 0 {
		return false
	}
	var seen uint32
	for i := 0; i < cells; i++ {
		t := uint(key>>(4*uint(i))) & 15
		if int(t) >= n || seen&(1<<t) != 0 {
			return false
		}
		seen |= 1 << t
	}
	return true
}

// Close releases the file.
func (r *Reader) Close() error { return r.f.Close() }

// ReadAll reads and verifies a whole key-set file of the last k cells
// into memory (a file of another cell set: ErrCellSet).
func ReadAll(path string) (Header, []uint64, error) {
	return readAll(path, Open)
}

// ReadAllAny is ReadAll for a reader of any cells (Header.Set).
func ReadAllAny(path string) (Header, []uint64, error) {
	return readAll(path, OpenAny)
}

func readAll(path string, open func(string) (*Reader, error)) (Header, []uint64, error) {
	r, err := open(path)
	if err != nil {
		return Header{}, nil, err
	}
	defer r.Close()
	keys := make([]uint64, 0, r.h.Count)
	for {
		k, ok := r.Next()
		if !ok {
			break
		}
		keys = append(keys, k)
	}
	if err := r.Err(); err != nil {
		return Header{}, nil, err
	}
	return r.h, keys, nil
}
