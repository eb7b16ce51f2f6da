package gapset

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"os"
	"unsafe"

	"github.com/gapset/gapset/internal/statedir"
)

// Runs are the enumeration's state and scratch files: sorted uint64 keys,
// no header, either raw (8 bytes each, little-endian) or delta-coded. A
// resumable run keeps its layers and projections as runs in the checkpoint
// (docs/enumeration-layout.md); key-set files are the final form.

// littleEndian tells whether the machine's byte order is the raw runs'
// (then keys are written and read without conversion).
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

func asBytes(keys []uint64) []byte {
	if len(keys) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&keys[0])), 8*len(keys))
}

// run is one sorted file of keys: raw (8 bytes per key) or delta-coded
// (each key's difference from the previous one as a uvarint; sorted
// de-duplicated runs of dense sets take 1-3 bytes per key). A delta-coded
// run of whole boards may code their rank codes (rankcode.go) instead of
// the keys: cells is then the board's size.
type run struct {
	path  string
	n     int64
	bytes int64 // size on disk
	delta bool
	cells int    // > 0: delta-coded rank codes of boards of this many cells
	sum   uint32 // CRC-32C of the file's bytes (internal/statedir)
}

// coding is how a run's keys are stored.
type coding struct {
	delta bool
	cells int // > 0 (with delta): rank codes of whole boards of this many cells
}

func (r run) coding() coding { return coding{r.delta, r.cells} }

// coder is the rank coder of c, or nil.
func (c coding) coder() *rankCoder {
	if !c.delta || c.cells <= 0 {
		return nil
	}
	return newRankCoder(c.cells)
}

// runWriter writes a run.
type runWriter struct {
	f     *os.File
	bw    *bufio.Writer
	n     int64
	bytes int64
	path  string
	coding
	rc   *rankCoder
	prev uint64 // the last key's code
	enc  []byte
	sum  uint32 // CRC-32C of the bytes written
}

// createRun starts a run of at most about maxKeys keys (the size of its
// write buffer: small parts are many, and a big buffer each would
// cost more to clear than to write).
func createRun(path string, c coding, maxKeys int64) (*runWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	size := int(min(1<<20, max(4096, 8*maxKeys+64)))
	return &runWriter{f: f, bw: bufio.NewWriterSize(f, size), path: path, coding: c, rc: c.coder()}, nil
}

// write appends sorted keys (above every key written before when delta).
func (w *runWriter) write(keys []uint64) error {
	w.n += int64(len(keys))
	if !w.delta {
		w.bytes += 8 * int64(len(keys))
		if littleEndian {
			w.sum = statedir.Update(w.sum, asBytes(keys))
			_, err := w.bw.Write(asBytes(keys))
			return err
		}
		for _, k := range keys {
			w.enc = binary.LittleEndian.AppendUint64(w.enc[:0], k)
			w.sum = statedir.Update(w.sum, w.enc)
			if _, err := w.bw.Write(w.enc); err != nil {
				return err
			}
		}
		return nil
	}
	// Encoded a block at a time: the encoding buffer stays small.
	for len(keys) > 0 {
		blk := keys[:min(len(keys), 1<<12)]
		keys = keys[len(blk):]
		b := w.enc[:0]
		prev := w.prev
		if w.rc != nil {
			for _, k := range blk {
				c := w.rc.code(k)
				if c < prev {
					return fmt.Errorf("run %s: key %#x below the previous one", w.path, k)
				}
				b = binary.AppendUvarint(b, c-prev)
				prev = c
			}
		} else {
			for _, k := range blk {
				if k < prev {
					return fmt.Errorf("run %s: key %#x below the previous %#x", w.path, k, prev)
				}
				b = binary.AppendUvarint(b, k-prev)
				prev = k
			}
		}
		w.prev, w.enc = prev, b
		w.bytes += int64(len(b))
		w.sum = statedir.Update(w.sum, b)
		if _, err := w.bw.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func (w *runWriter) close() (run, error) {
	err := w.bw.Flush()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(w.path)
		return run{}, err
	}
	return run{w.path, w.n, w.bytes, w.delta, w.cells, w.sum}, nil
}

func writeRun(path string, keys []uint64, c coding) (run, error) {
	w, err := createRun(path, c, int64(len(keys)))
	if err != nil {
		return run{}, err
	}
	if err := w.write(keys); err != nil {
		w.close()
		os.Remove(path)
		return run{}, err
	}
	return w.close()
}

// cursor reads a run key by key through a buffer.
type cursor struct {
	f    *os.File
	buf  []uint64
	pos  int
	left int64 // keys not yet read into buf
	cur  uint64
	err  error
	// delta-coded runs: undecoded bytes raw[rpos:] and the last key's code
	delta bool
	raw   []byte
	rpos  int
	eof   bool
	prev  uint64
	rd    *rankDecoder // rank-coded runs
}

func openCursor(r run, bufKeys int) (*cursor, error) {
	f, err := os.Open(r.path)
	if err != nil {
		return nil, err
	}
	// Buffers no bigger than the run: parts are often small.
	bufKeys = int(max(1, min(int64(bufKeys), r.n)))
	c := &cursor{f: f, buf: make([]uint64, 0, bufKeys), left: r.n, delta: r.delta}
	if rc := r.coding().coder(); rc != nil {
		c.rd = &rankDecoder{rankCoder: rc}
	}
	if r.delta {
		c.raw = make([]byte, 0, min(max(4096, 2*int64(bufKeys)), max(64, r.bytes+binary.MaxVarintLen64)))
	}
	return c, nil
}

// reopen points the cursor at the start of another run, keeping its
// buffers.
func (c *cursor) reopen(r run) error {
	f, err := os.Open(r.path)
	if err != nil {
		return err
	}
	c.f.Close()
	*c = cursor{f: f, buf: c.buf[:0], left: r.n, delta: r.delta, raw: c.raw[:0]}
	if rc := r.coding().coder(); rc != nil {
		c.rd = &rankDecoder{rankCoder: rc}
	}
	if r.delta && cap(c.raw) == 0 {
		c.raw = make([]byte, 0, max(4096, 2*cap(c.buf)))
	}
	return nil
}

// next advances to the next key; false at the end or on an error.
func (c *cursor) next() bool {
	if c.pos >= len(c.buf) {
		if c.left == 0 || c.err != nil {
			return false
		}
		n := int(min(int64(cap(c.buf)), c.left))
		c.buf = c.buf[:n]
		if c.delta {
			c.err = c.decode()
		} else if _, err := io.ReadFull(c.f, asBytes(c.buf)); err != nil {
			c.err = fmt.Errorf("reading %s: %w", c.f.Name(), err)
		} else if !littleEndian {
			for i, v := range c.buf {
				c.buf[i] = bits.ReverseBytes64(v)
			}
		}
		if c.err != nil {
			return false
		}
		c.left -= int64(n)
		c.pos = 0
	}
	c.cur = c.buf[c.pos]
	c.pos++
	return true
}

// decode fills c.buf from the delta-coded bytes, reading more as needed.
func (c *cursor) decode() error {
	prev := c.prev
	for i := range c.buf {
		if len(c.raw)-c.rpos < binary.MaxVarintLen64 && !c.eof {
			// keep the undecoded tail and refill behind it
			m := copy(c.raw[:cap(c.raw)], c.raw[c.rpos:])
			k, err := io.ReadFull(c.f, c.raw[m:cap(c.raw)])
			c.raw, c.rpos = c.raw[:m+k], 0
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				c.eof = true
			} else if err != nil {
				return fmt.Errorf("reading %s: %w", c.f.Name(), err)
			}
		}
		d, k := binary.Uvarint(c.raw[c.rpos:])
		if k <= 0 {
			return fmt.Errorf("reading %s: truncated or damaged run", c.f.Name())
		}
		c.rpos += k
		prev += d
		c.buf[i] = prev
	}
	c.prev = prev
	if c.rd != nil {
		for i, code := range c.buf {
			key, err := c.rd.key(code)
			if err != nil {
				return fmt.Errorf("reading %s: %w", c.f.Name(), err)
			}
			c.buf[i] = key
		}
	}
	return nil
}

// chunk returns up to max keys in one slice (the cursor's own buffer).
func (c *cursor) chunk() []uint64 {
	if c.pos >= len(c.buf) {
		if !c.next() {
			return nil
		}
		c.pos--
	}
	out := c.buf[c.pos:]
	c.pos = len(c.buf)
	return out
}

func (c *cursor) close() { c.f.Close() }

// forEachChunk streams a run in chunks.
func forEachChunk(r run, bufKeys int, fn func([]uint64) error) error {
	c, err := openCursor(r, bufKeys)
	if err != nil {
		return err
	}
	defer c.close()
	for {
		ch := c.chunk()
		if ch == nil {
			return c.err
		}
		if err := fn(ch); err != nil {
			return err
		}
	}
}

// mergeRuns merges sorted runs, dropping repeats, and hands the result to
// emit in sorted batches. It keeps a binary heap of (key, run) pairs by
// value, without interface calls: the merge of a hundred runs is a large
// part of the whole enumeration's time.
func mergeRuns(runs []run, bufKeys int, emit func([]uint64) error) error {
	type item struct {
		v uint64
		c *cursor
	}
	var h []item
	var open []*cursor
	defer func() {
		for _, c := range open {
			c.close()
		}
	}()
	for _, r := range runs {
		if r.n == 0 {
			continue
		}
		c, err := openCursor(r, bufKeys)
		if err != nil {
			return err
		}
		open = append(open, c)
		if !c.next() {
			if c.err != nil {
				return c.err
			}
			continue
		}
		h = append(h, item{c.cur, c})
	}
	down := func(i int) {
		n := len(h)
		x := h[i]
		for {
			l := 2*i + 1
			if l >= n {
				break
			}
			if r := l + 1; r < n && h[r].v < h[l].v {
				l = r
			}
			if h[l].v >= x.v {
				break
			}
			h[i] = h[l]
			i = l
		}
		h[i] = x
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	var total int64
	for _, r := range runs {
		total += r.n
	}
	out := make([]uint64, 0, max(1, min(1<<16, total)))
	have := false
	var last uint64
	for len(h) > 0 {
		top := &h[0]
		if v := top.v; !have || v != last {
			out = append(out, v)
			last, have = v, true
			if len(out) == cap(out) {
				if err := emit(out); err != nil {
					return err
				}
				out = out[:0]
			}
		}
		c := top.c
		if c.next() {
			top.v = c.cur
		} else {
			if c.err != nil {
				return c.err
			}
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		if len(h) > 0 {
			down(0)
		}
	}
	if len(out) > 0 {
		return emit(out)
	}
	return nil
}

// subtractor removes from sorted batches the keys of a sorted run, keeping
// its place between batches (the batches must come in increasing order).
type subtractor struct {
	c    *cursor
	more bool
}

func newSubtractor(r run) (*subtractor, error) {
	c, err := openCursor(r, 1<<16)
	if err != nil {
		return nil, err
	}
	s := &subtractor{c: c}
	s.more = c.next()
	return s, c.err
}

func (s *subtractor) apply(a []uint64) ([]uint64, error) {
	j := 0
	for _, v := range a {
		for s.more && s.c.cur < v {
			s.more = s.c.next()
		}
		if s.more && s.c.cur == v {
			continue
		}
		a[j] = v
		j++
	}
	return a[:j], s.c.err
}

func (s *subtractor) close() { s.c.close() }
