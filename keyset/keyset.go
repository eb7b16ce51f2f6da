// Package keyset reads and writes key-set files: sorted sets of 64-bit board
// keys (encode.Board.Key, projected onto the last k cells) with a header that
// names the board, the cells and the gap bound, and a CRC-32C trailer. The
// enumerator (package gapset) writes them; the BDD builder (package bdd) and
// the in-memory sets (package memset) read them.
package keyset

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/gapset/gapset/encode"
)

// Key-set file format, version 1 (all integers little-endian):
//
//	offset size
//	0      8    magic "GAPKEYS\x00"
//	8      2    version (1)
//	10     1    rows
//	11     1    cols
//	12     1    cells k: keys hold the last k cells (k = rows*cols: whole boards)
//	13     1    gap: the set holds configurations with gap (optimum - Manhattan) at most gap,
//	            or exactly gap when the exact flag is set
//	14     1    flags: bit 0 = exact; bit 1 = approximated (a superset of the
//	            projection of the gap set, e.g. gapset.Approximate's; Name ends in "a")
//	15     1    reserved (0)
//	16     8    count of keys
//	24     8    reserved (0)
//	32     8*count keys, strictly increasing uint64 (encode.Board.Key, projected)
//	end    4    CRC-32C (Castagnoli) of every byte before it
//
// Writers produce the file under a temporary name in the same directory and
// rename it when complete, so an interrupted run leaves no partial file.

const (
	keysetMagic   = "GAPKEYS\x00"
	keysetVersion = 1
	// HeaderSize is the byte offset of the first key.
	HeaderSize  = 32
	trailerSize = 4
)

// ErrFormat marks a file that is not a valid key-set file.
var ErrFormat = errors.New("bad key-set file")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header describes a key set.
type Header struct {
	Rows, Cols int
	Cells      int    // keys keep the last Cells cells
	Gap        int    // maximum gap (or the exact gap when Exact)
	Exact      bool   // gap equals Gap rather than at most Gap
	Approx     bool   // a superset of the set (still admissible in h_G:2N)
	Count      uint64 // number of keys
}

// Name is the paper's name of the set: Gap0, Gap0_8, Gap2_10, ... ("Gap2"
// means gap at most 2 as in the paper; an exact set is written G2x).
func (h Header) Name() string {
	s := fmt.Sprintf("Gap%d", h.Gap)
	if h.Exact && h.Gap > 0 {
		s = fmt.Sprintf("G%dx", h.Gap)
	}
	if h.Cells < h.Rows*h.Cols {
		s += fmt.Sprintf("_%d", h.Cells)
	}
	if h.Approx {
		s += "a"
	}
	return s
}

func (h Header) validate() error {
	if err := encode.CheckSize(h.Rows, h.Cols); err != nil {
		return err
	}
	if h.Cells < 1 || h.Cells > h.Rows*h.Cols {
		return fmt.Errorf("cells %d out of range 1..%d", h.Cells, h.Rows*h.Cols)
	}
	if h.Gap < 0 || h.Gap > 254 || h.Gap%2 != 0 {
		return fmt.Errorf("gap %d must be even and in 0..254", h.Gap)
	}
	return nil
}

func (h Header) encode() []byte {
	b := make([]byte, HeaderSize)
	copy(b, keysetMagic)
	binary.LittleEndian.PutUint16(b[8:], keysetVersion)
	b[10], b[11], b[12], b[13] = byte(h.Rows), byte(h.Cols), byte(h.Cells), byte(h.Gap)
	if h.Exact {
		b[14] = 1
	}
	if h.Approx {
		b[14] |= 2
	}
	binary.LittleEndian.PutUint64(b[16:], h.Count)
	return b
}

func decodeHeader(b []byte) (Header, error) {
	if string(b[:8]) != keysetMagic {
		return Header{}, fmt.Errorf("%w: wrong magic (not a gapset key-set file)", ErrFormat)
	}
	if v := binary.LittleEndian.Uint16(b[8:]); v != keysetVersion {
		return Header{}, fmt.Errorf("%w: version %d, this program reads version %d", ErrFormat, v, keysetVersion)
	}
	h := Header{Rows: int(b[10]), Cols: int(b[11]), Cells: int(b[12]), Gap: int(b[13]), Exact: b[14]&1 != 0, Approx: b[14]&2 != 0,
		Count: binary.LittleEndian.Uint64(b[16:])}
	if b[14]&^3 != 0 || b[15] != 0 || binary.LittleEndian.Uint64(b[24:]) != 0 {
		return Header{}, fmt.Errorf("%w: reserved header bytes are not zero", ErrFormat)
	}
	if err := h.validate(); err != nil {
		return Header{}, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	return h, nil
}

// Writer writes a key-set file. Keys must be added in strictly increasing
// order. Close publishes the file; Abort (or a failed Close) removes it.
type Writer struct {
	h     Header
	path  string
	tmp   *os.File
	bw    *bufio.Writer
	crc   hash.Hash32
	last  uint64
	count uint64
	err   error
	buf   [8]byte
	batch []byte // AddSorted's encoding buffer
}

// Create starts a key-set file at path; h.Count is ignored (Close fills it in).
func Create(path string, h Header) (*Writer, error) {
	if err := h.validate(); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	w := &Writer{h: h, path: path, tmp: tmp, crc: crc32.New(castagnoli)}
	w.bw = bufio.NewWriterSize(io.MultiWriter(tmp, w.crc), 1<<20)
	if _, err := w.bw.Write(h.encode()); err != nil { // count patched at Close
		w.Abort()
		return nil, err
	}
	return w, nil
}

// Add appends one key.
func (w *Writer) Add(key uint64) error {
	if w.err != nil {
		return w.err
	}
	if w.count > 0 && key <= w.last {
		w.err = fmt.Errorf("key-set writer: key %#x not above previous %#x", key, w.last)
		return w.err
	}
	if mask := encode.ProjectMask(w.h.Cells); key&^mask != 0 && w.h.Cells < 16 {
		w.err = fmt.Errorf("key-set writer: key %#x has bits outside the last %d cells", key, w.h.Cells)
		return w.err
	}
	binary.LittleEndian.PutUint64(w.buf[:], key)
	if _, err := w.bw.Write(w.buf[:]); err != nil {
		w.err = err
		return err
	}
	w.last = key
	w.count++
	return nil
}

// AddSorted appends a batch of keys: strictly increasing, and above every
// key added before. It is Add for bulk writers (one buffer write per batch).
func (w *Writer) AddSorted(keys []uint64) error {
	if w.err != nil {
		return w.err
	}
	mask := encode.ProjectMask(w.h.Cells)
	if len(w.batch) < 8*len(keys) {
		w.batch = make([]byte, 8*len(keys))
	}
	b := w.batch[:8*len(keys)]
	for i, key := range keys {
		if (w.count > 0 || i > 0) && key <= w.last {
			w.err = fmt.Errorf("key-set writer: key %#x not above previous %#x", key, w.last)
			return w.err
		}
		if key&^mask != 0 && w.h.Cells < 16 {
			w.err = fmt.Errorf("key-set writer: key %#x has bits outside the last %d cells", key, w.h.Cells)
			return w.err
		}
		binary.LittleEndian.PutUint64(b[8*i:], key)
		w.last = key
	}
	if _, err := w.bw.Write(b); err != nil {
		w.err = err
		return err
	}
	w.count += uint64(len(keys))
	return nil
}

// Count returns the keys added so far.
func (w *Writer) Count() uint64 { return w.count }

// Close writes the count and checksum, syncs and renames the file into place.
func (w *Writer) Close() error {
	if w.err != nil {
		w.Abort()
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.Abort()
		return err
	}
	// The header was hashed with count 0; recompute the CRC over the final
	// header and the keys by re-reading (cheap next to writing).
	w.h.Count = w.count
	if _, err := w.tmp.WriteAt(w.h.encode(), 0); err != nil {
		w.Abort()
		return err
	}
	sum, err := fileCRC(w.tmp, HeaderSize+8*int64(w.count))
	if err != nil {
		w.Abort()
		return err
	}
	var tail [trailerSize]byte
	binary.LittleEndian.PutUint32(tail[:], sum)
	if _, err := w.tmp.WriteAt(tail[:], HeaderSize+8*int64(w.count)); err != nil {
		w.Abort()
		return err
	}
	// CreateTemp makes the file private (0600); a published key set is data
	// for other tools and users.
	if err := w.tmp.Chmod(0o644); err != nil {
		w.Abort()
		return err
	}
	if err := w.tmp.Sync(); err != nil {
		w.Abort()
		return err
	}
	if err := w.tmp.Close(); err != nil {
		os.Remove(w.tmp.Name())
		return err
	}
	if err := os.Rename(w.tmp.Name(), w.path); err != nil {
		os.Remove(w.tmp.Name())
		return err
	}
	return nil
}

// Abort discards the partial file.
func (w *Writer) Abort() {
	w.tmp.Close()
	os.Remove(w.tmp.Name())
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
	crc  hash.Hash32
	left uint64
	last uint64
	read uint64
	err  error
	name string
}

// Open opens a key-set file and checks its header and length.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
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
	h, err := decodeHeader(hdr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if h.Count > uint64(st.Size()) {
		return nil, fmt.Errorf("%s: %w: header claims %d keys, file has %d bytes", name, ErrFormat, h.Count, st.Size())
	}
	if want := int64(HeaderSize + 8*h.Count + trailerSize); st.Size() != want {
		return nil, fmt.Errorf("%s: %w: %d bytes, header says %d keys (%d bytes): truncated or padded", name, ErrFormat, st.Size(), h.Count, want)
	}
	r := &Reader{h: h, f: f, br: bufio.NewReaderSize(f, 1<<20), crc: crc32.New(castagnoli), left: h.Count, name: name}
	r.crc.Write(hdr)
	return r, nil
}

// Header returns the file's header.
func (r *Reader) Header() Header { return r.h }

// Next returns the next key; ok is false at the end or on an error (see Err).
func (r *Reader) Next() (key uint64, ok bool) {
	if r.err != nil {
		return 0, false
	}
	if r.left == 0 {
		r.finish()
		return 0, false
	}
	var b [8]byte
	if _, err := io.ReadFull(r.br, b[:]); err != nil {
		r.err = fmt.Errorf("%s: %w: %v", r.name, ErrFormat, err)
		return 0, false
	}
	r.crc.Write(b[:])
	key = binary.LittleEndian.Uint64(b[:])
	if r.read > 0 && key <= r.last {
		r.err = fmt.Errorf("%s: %w: keys out of order at key %d", r.name, ErrFormat, r.read)
		return 0, false
	}
	if !ValidKey(key, r.h.Rows*r.h.Cols, r.h.Cells) {
		r.err = fmt.Errorf("%s: %w: key %d (%#x) is not a placement of tiles on the last %d cells of a %dx%d board",
			r.name, ErrFormat, r.read, key, r.h.Cells, r.h.Rows, r.h.Cols)
		return 0, false
	}
	r.last = key
	r.read++
	r.left--
	return key, true
}

// finish checks the checksum once all keys were read.
func (r *Reader) finish() {
	if r.err != nil {
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
// its last cells cells: no bits above them, each cell a tile (or the blank)
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

// ReadAll reads and verifies a whole key-set file into memory.
func ReadAll(path string) (Header, []uint64, error) {
	r, err := Open(path)
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
