package bdd

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/gapset/gapset/keyset"
)

// The out-of-core builder makes the diagram of sorted keys level by level,
// from the deepest up, in the manner of the I/O-efficient BDD packages
// (Adiar): only the level being reduced is in memory (the deepest levels
// together, in the bottom pass below), everything else is a sorted stream
// on disk.
//
// The stream of level l+1 holds one entry per distinct prefix of l+1 bits
// of the keys, in key order: the prefix and the reference of its node (for
// the deepest level: the keys themselves, all True), both as uvarints, the
// prefix as the difference from the one before (about 5 bytes an entry).
// Two consecutive prefixes that differ only in their last bit are the 0-
// and 1-branch of one prefix of l bits (one alone: the other branch is
// False); its node is made through level l's unique table and is the entry
// of the stream of level l. When level l is complete, its nodes go to a scratch
// file and leave memory (nothing refers to them but their references), and
// the table is dropped. At the end the node file is mapped and read as the
// builder's LevelDiagram, which Save walks like any other.
//
// A level whose table does not fit the memory budget is built in parts: a
// pass writes each prefix's pair of children to one of P bucket files by
// the pair's hash, each bucket is reduced alone (equal pairs share a
// bucket) and writes its nodes' references in bucket order, and a last
// pass over the stream takes the k-th reference of a bucket for the k-th
// pair sent there. The numbering differs from the one-table build's, the
// diagram does not (the file is canonical).

// ScratchName names the out-of-core builder's scratch directories (the
// file writer's naming adds the PID, so that a later run removes those of
// a dead process: atomicfile.RemoveStale).
const ScratchName = "gapset-bddlevels"

// OutOfCore says where and within how much memory BuildOutOfCore works.
type OutOfCore struct {
	Memory  int64  // bytes for the level being reduced: its nodes and index
	TempDir string // where the scratch directory goes
	// Bottom is how many of the deepest levels the first pass over the
	// keys makes in memory, at most (see outcore_bottom.go): 0 chooses from
	// the keys' density, NoBottom makes none.
	Bottom   int
	Progress Progress
	// State, when set, makes the build resumable (outcore_state.go): the
	// scratch is the state directory (TempDir is not used), a checkpoint
	// is written after the bottom pass and after each level, and a build
	// given a State holding one continues from it. The caller removes the
	// State once the diagram is saved.
	State *State
	// OnResume is told where a resumed build continues.
	OnResume func(Resumed)
	// Checkpointed, when set, is called after each checkpoint (the next
	// level of the BDD's or the ZDD's build); an error it returns stops
	// the build (tests stop builds there).
	Checkpointed func(zdd bool, next int) error
	// PassEvery is the keys between two checkpoints inside the bottom
	// pass (outcore_pass.go); 0: the default, every 5% of the keys or 10
	// minutes, none below 2^26 keys.
	PassEvery uint64
}

// entryBytes is the most bytes a stream entry takes: two uvarints.
const entryBytes = 2 * binary.MaxVarintLen64

// source is a stream of entries in key order.
type source interface {
	next() (s uint64, id uint32, ok bool)
	close() error // the stream's error, if any
}

// keySource reads the keys of a key-set file (converted to enc) as the
// deepest level's entries.
type keySource struct {
	r      *keyset.Reader
	enc    Encoding
	n, k   int
	mask   uint64
	prev   uint64
	count  uint64
	err    error
	closed bool
}

func (s *keySource) next() (uint64, uint32, bool) {
	key, ok := s.r.Next()
	if !ok || s.err != nil {
		return 0, 0, false
	}
	if s.enc != Cells {
		key = s.enc.Convert(key, s.n, s.k)
	}
	if key&^s.mask != 0 {
		s.err = fmt.Errorf("key %#x has more bits than the order's variables", key)
		return 0, 0, false
	}
	if s.count > 0 && key <= s.prev {
		s.err = fmt.Errorf("keys not strictly increasing at key %d (%#x after %#x)", s.count, key, s.prev)
		return 0, 0, false
	}
	s.prev = key
	s.count++
	return key, True, true
}

func (s *keySource) close() error {
	err := s.err
	if err == nil {
		err = s.r.Err()
	}
	if !s.closed {
		s.r.Close()
		s.closed = true
	}
	return err
}

// fileSource reads a level's stream back.
type fileSource struct {
	f    *os.File
	br   *bufio.Reader
	prev uint64
	err  error
}

func openSource(path string) (*fileSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &fileSource{f: f, br: bufio.NewReaderSize(f, 1<<20)}, nil
}

func (s *fileSource) next() (uint64, uint32, bool) {
	if s.err != nil {
		return 0, 0, false
	}
	d, err := binary.ReadUvarint(s.br)
	if err != nil {
		if err != io.EOF {
			s.err = err
		}
		return 0, 0, false
	}
	id, err := binary.ReadUvarint(s.br)
	if err != nil || id > 1<<32-1 {
		s.err = fmt.Errorf("scratch stream %s damaged: %v", s.f.Name(), err)
		return 0, 0, false
	}
	s.prev += d
	return s.prev, uint32(id), true
}

func (s *fileSource) close() error {
	if err := s.f.Close(); s.err == nil {
		s.err = err
	}
	return s.err
}

// sink writes a stream of entries or of fixed-size records.
type sink struct {
	f    *os.File
	bw   *bufio.Writer
	buf  [entryBytes]byte
	n    uint64 // records written
	prev uint64 // the last entry's prefix
	h    *crcWriter
}

func createSink(path string, bufSize int) (*sink, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &sink{f: f, bw: bufio.NewWriterSize(f, bufSize)}, nil
}

// createStream makes the sink of a level's stream, hashed when the build
// keeps checkpoints.
func (lb *levelBuilder) createStream(path string) (*sink, error) {
	w, err := createSink(path, 1<<20)
	if err != nil || lb.r == nil {
		return w, err
	}
	w.h = &crcWriter{w: w.f}
	w.bw.Reset(w.h)
	return w, nil
}

func (w *sink) entry(p uint64, id uint32) error {
	k := binary.PutUvarint(w.buf[:], p-w.prev)
	k += binary.PutUvarint(w.buf[k:], uint64(id))
	w.prev = p
	w.n++
	_, err := w.bw.Write(w.buf[:k])
	return err
}

func (w *sink) pair(lo, hi uint32) error {
	binary.LittleEndian.PutUint32(w.buf[:], lo)
	binary.LittleEndian.PutUint32(w.buf[4:], hi)
	w.n++
	_, err := w.bw.Write(w.buf[:8])
	return err
}

func (w *sink) ref(id uint32) error {
	binary.LittleEndian.PutUint32(w.buf[:], id)
	w.n++
	_, err := w.bw.Write(w.buf[:4])
	return err
}

func (w *sink) close() error {
	err := w.bw.Flush()
	if err2 := w.f.Close(); err == nil {
		err = err2
	}
	return err
}

// groups turns a level's input stream (prefixes of l+1 bits) into the
// prefixes of l bits, each with its two children (False where a branch is
// absent).
type groups struct {
	src     source
	pend    bool
	pp      uint64
	pid     uint32
	entries uint64 // read from src
}

func (g *groups) read() (uint64, uint32, bool) {
	if g.pend {
		g.pend = false
		return g.pp, g.pid, true
	}
	p, id, ok := g.src.next()
	if ok {
		g.entries++
	}
	return p, id, ok
}

func (g *groups) next() (p uint64, lo, hi uint32, ok bool) {
	p, id, ok := g.read()
	if !ok {
		return 0, 0, 0, false
	}
	if p&1 == 1 {
		return p >> 1, False, id, true
	}
	p2, id2, ok2 := g.read()
	if ok2 && p2 == p|1 {
		return p >> 1, id, id2, true
	}
	if ok2 {
		g.pend, g.pp, g.pid = true, p2, id2
	}
	return p >> 1, id, False, true
}

// levelBuilder holds the state of one out-of-core build.
type levelBuilder struct {
	t        *table
	L        int
	dir      string
	nodes    *os.File // the finished levels' chunks, at chunk id x 512 KiB
	flushed  []bool   // chunk written to nodes and released
	budget   int64
	progress Progress
	peak     int64 // the most bytes a level's table held
	parts    []int // parts each level was reduced in
	bottom   int   // levels the bottom pass made
	total    uint64
	keys     uint64 // entries of the deepest level: the keys
	zdd      bool
	r        *resumable // nil: no checkpoints
	// the node file as the last checkpoint saw it: its length and the
	// checksum of its bytes after the first chunk
	nodeLen int64
	nodeSum uint32
	stream  fileRecord // the last stream written (when hashed)
	// inside the bottom pass: the pairs of each chunk in the node file,
	// and the keys between two checkpoints asked (OutOfCore.PassEvery)
	saved []int
	every uint64
}

var errSpill = errors.New("level does not fit the memory budget")

// maxParts bounds the buckets of a level (each is an open file).
const maxParts = 512

// Streams reports whether the keys of a key-set file can be streamed into a
// diagram in order o and encoding enc, as the out-of-core build needs.
func Streams(o Order, enc Encoding) bool {
	return newPermuter(o).identity && enc.KeepsOrder()
}

// BuildOutOfCore builds the BDD (zdd: ZDD) of a key-set file's set of k
// cells on an n-cell board level by level within about oc.Memory bytes
// (see above), in the natural order (the file's key order) and the cells
// or ranks encoding. The diagram's nodes are a mapped scratch file: Close
// it when done.
func BuildOutOfCore(path string, n, k int, b KeysBuild, oc OutOfCore) (Built, error) {
	start := time.Now()
	if !Streams(b.Order, b.Encoding) {
		return Built{}, errors.New("the out-of-core build streams the key file: it needs the natural order and the cells or ranks encoding")
	}
	if err := b.Order.Validate(); err != nil {
		return Built{}, err
	}
	var r *resumable
	if oc.State != nil {
		id, err := identify(path, n, k, b)
		if err != nil {
			return Built{}, err
		}
		var ok bool
		if r, ok, err = oc.State.resume(id); err != nil {
			return Built{}, err
		}
		r.checkpointed = oc.Checkpointed
		if ok && oc.OnResume != nil {
			oc.OnResume(r.resumed())
		}
		start = start.Add(-r.m.Elapsed)
	}
	open := func() (source, error) {
		r, err := keyset.Open(path)
		if err != nil {
			return nil, err
		}
		return &keySource{r: r, enc: b.Encoding, n: n, k: k, mask: maskOf(b.Order.Vars())}, nil
	}
	bottom := bottomLevels(b.Count, n, k, oc.Bottom)
	d, err := buildLevels(open, b.Count, b.Order, false, bottom, oc, b.Progress, r)
	if err != nil {
		return Built{}, err
	}
	out := Built{BDD: d, Took: time.Since(start)}
	if b.ZDD {
		// the ZDD starts from the levels the BDD's bottom pass ended with:
		// its tables are seldom larger, and a fallback is a lost pass
		z, err := buildLevels(open, b.Count, b.Order, true, d.Bottom, oc, b.Progress, r)
		if err != nil {
			d.Close()
			return Built{}, err
		}
		out.ZDDNodes = uint64(z.NodeCount())
		z.Close()
		b.ZDD = false
		out.Took = time.Since(start)
	}
	out, err = b.finish(out, nil)
	if err != nil {
		d.Close()
	}
	return out, err
}

func maskOf(L int) uint64 {
	if L >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(L) - 1
}

// buildLevels runs the level passes over the stream open returns (the
// deepest level's entries: the keys), the deepest bottom levels in one pass
// if they fit the budget; with r, in r's state directory, from its
// checkpoint if it holds one, writing one after each level.
func buildLevels(open func() (source, error), total uint64, o Order, zdd bool, bottom int, oc OutOfCore, progress Progress, r *resumable) (_ *LevelDiagram, err error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if oc.Memory <= 0 {
		return nil, fmt.Errorf("%w: no memory for the out-of-core build", ErrBudget)
	}
	L := o.Vars()
	lb := &levelBuilder{t: newTable(zdd, L), L: L, budget: oc.Memory, progress: progress, total: total, parts: make([]int, L), zdd: zdd, r: r, every: oc.PassEvery}
	var rec *stageRecord
	if r == nil {
		tmp := oc.TempDir
		if tmp == "" {
			tmp = os.TempDir()
		}
		if lb.dir, err = atomicfile.MkdirTemp(tmp, ScratchName); err != nil {
			return nil, err
		}
		defer os.RemoveAll(lb.dir) // the node file stays readable while mapped
	} else {
		// the state directory stays until the caller removes it
		lb.dir, rec = filepath.Join(r.s.dir, stageDir(zdd)), r.m.stage(zdd)
		if err := os.MkdirAll(lb.dir, 0o755); err != nil {
			return nil, err
		}
	}
	top, prevPath, count := L, "", uint64(0)
	in := open
	var pass *stageRecord // a bottom pass to continue
	if rec != nil {
		if lb.nodes, err = os.OpenFile(filepath.Join(lb.dir, nodesName), os.O_RDWR, 0); err != nil {
			return nil, err
		}
		defer lb.nodes.Close()
		if err := lb.restore(rec); err != nil {
			return nil, err
		}
		if rec.Pass != nil {
			if err := lb.loadPass(rec); err != nil {
				return nil, err
			}
			pass, bottom = rec, rec.Bottom
		}
	} else {
		if lb.nodes, err = os.Create(filepath.Join(lb.dir, nodesName)); err != nil {
			return nil, err
		}
		defer lb.nodes.Close()
	}
	if rec != nil && pass == nil {
		if rec.Next < 0 {
			return lb.finishResumed(o, rec.Root)
		}
		top, prevPath, count = rec.Next+1, lb.streamPath(rec.Next+1), rec.Entries
		p := prevPath
		in = func() (source, error) { return openSource(p) }
	} else {
		// the bottom pass: levels L-1 .. top in memory, the stream of level top
		if b := min(bottom, L); b > 0 {
			if lb.bottom, count, err = lb.makeBottom(b, open, pass); err != nil {
				return nil, err
			}
			if lb.bottom > 0 {
				top, prevPath = L-lb.bottom, lb.streamPath(L-lb.bottom)
				p := prevPath
				in = func() (source, error) { return openSource(p) }
				if err := lb.checkpoint(top, prevPath, count); err != nil {
					return nil, err
				}
			}
		}
	}
	for l := top - 1; l >= 0; l-- {
		outPath := lb.streamPath(l)
		if count, err = lb.level(l, in, outPath); err != nil {
			return nil, err
		}
		if err := lb.checkpoint(l, outPath, count); err != nil {
			return nil, err
		}
		if prevPath != "" {
			if err := os.Remove(prevPath); err != nil {
				return nil, err
			}
		}
		prevPath = outPath
		p := outPath
		in = func() (source, error) { return openSource(p) }
	}
	if lb.t.err != nil {
		return nil, lb.t.err
	}
	root, err := rootOf(prevPath, count)
	if err != nil {
		return nil, err
	}
	if r != nil && prevPath != "" {
		// the state names no stream once every level is done
		if err := os.Remove(prevPath); err != nil {
			return nil, err
		}
	}
	if rec != nil {
		return lb.finishResumed(o, root)
	}
	return lb.finish(o, zdd, root)
}

// finishResumed is finish for a build that took up a checkpoint: the
// nodes read back are checked like a loaded file's (children within range
// and deeper, reduced) before anything walks them.
func (lb *levelBuilder) finishResumed(o Order, root uint32) (*LevelDiagram, error) {
	d, err := lb.finish(o, lb.zdd, root)
	if err != nil {
		return nil, err
	}
	if err := d.check(); err != nil {
		d.Close()
		return nil, statedir.Damaged(lb.r.s.dir, "its %s nodes: %v", stageDir(lb.zdd), err)
	}
	return d, nil
}

// rootOf reads the root from the stream of level 0 (count entries: none
// or the root's).
func rootOf(path string, count uint64) (uint32, error) {
	if count > 1 {
		return 0, fmt.Errorf("level 0 left %d prefixes", count)
	}
	if count == 0 {
		return False, nil
	}
	src, err := openSource(path)
	if err != nil {
		return 0, err
	}
	_, root, _ := src.next()
	return root, src.close()
}

// closeStream closes a level's stream, keeping its size and checksum.
func (lb *levelBuilder) closeStream(w *sink) error {
	if err := w.close(); err != nil || w.h == nil {
		return err
	}
	st, err := os.Stat(w.f.Name())
	if err != nil {
		return err
	}
	lb.stream = fileRecord{Name: filepath.Base(w.f.Name()), Bytes: st.Size(), Sum: w.h.crc}
	return nil
}

// checkpoint records the state after level l (the bottom pass down to l)
// is done: its stream, at path with count entries, is the next level's
// input; after level 0, the root. The stream and the node file reach the
// disk before the manifest naming them.
func (lb *levelBuilder) checkpoint(l int, path string, count uint64) error {
	r := lb.r
	if r == nil {
		return nil
	}
	if lb.t.err != nil {
		return lb.t.err
	}
	t := lb.t
	rec := &stageRecord{Next: l - 1, Entries: count, Chunks: len(t.chunks), Parts: lb.parts, Bottom: lb.bottom, Keys: lb.keys, Peak: lb.peak}
	if l == 0 {
		root, err := rootOf(path, count)
		if err != nil {
			return err
		}
		rec.Root, rec.Entries = root, 0
	} else {
		if lb.stream.Name != filepath.Base(path) {
			return fmt.Errorf("the stream of level %d was not hashed", l)
		}
		s := lb.stream
		rec.Stream = &s
		if err := r.s.sync(path); err != nil {
			return err
		}
	}
	// the node file: the finished levels' chunks up to the pool's end
	size := int64(len(t.chunks)) * chunkBytes
	if err := lb.nodes.Truncate(size); err != nil {
		return err
	}
	head, sum, err := nodeSums(lb.nodes, lb.nodeSum, lb.nodeLen, size)
	if err != nil {
		return err
	}
	if err := r.s.sync(lb.nodes.Name()); err != nil {
		return err
	}
	lb.nodeLen, lb.nodeSum = size, sum
	rec.Nodes = nodeRecord{Bytes: size, HeadSum: head, Sum: sum}
	rec.Levels = make([]levelRec, lb.L)
	for i := range t.levels {
		v := t.levels[i].nodes
		rec.Levels[i] = levelRec{IDs: append([]uint32{}, v.ids...), N: v.n}
	}
	rec.Parts = append([]int(nil), lb.parts...)
	return lb.commit(rec, l-1)
}

// commit makes rec the stage's checkpoint: the directory synced, the
// manifest written; then the Checkpointed hook is told next.
func (lb *levelBuilder) commit(rec *stageRecord, next int) error {
	r := lb.r
	if lb.zdd {
		r.m.ZDD = rec
	} else {
		r.m.BDD = rec
	}
	if err := r.s.sync(lb.dir); err != nil {
		return err
	}
	if err := r.save(); err != nil {
		return err
	}
	if r.checkpointed != nil {
		return r.checkpointed(lb.zdd, next)
	}
	return nil
}

// restore takes up the builder's state from a checkpoint: every chunk but
// the first (level 0's, built last) in the node file.
func (lb *levelBuilder) restore(rec *stageRecord) error {
	t := lb.t
	t.chunks = append(t.chunks[:1], make([][]pair, rec.Chunks-1)...)
	t.level, t.pos = make([]uint8, rec.Chunks), make([]uint32, rec.Chunks)
	lb.flushed = make([]bool, rec.Chunks)
	for l, lr := range rec.Levels {
		for c, id := range lr.IDs {
			t.level[id], t.pos[id] = uint8(l), uint32(c)
			lb.flushed[id] = true
		}
		if l > rec.Next {
			t.levels[l] = levelTable{nodes: levelNodes{ids: lr.IDs, n: lr.N}}
		}
	}
	if rec.Next >= 0 {
		lb.flushed[0] = false
	} else {
		t.chunks[0] = nil
	}
	copy(lb.parts, rec.Parts)
	lb.bottom, lb.keys, lb.peak = rec.Bottom, rec.Keys, rec.Peak
	lb.nodeLen, lb.nodeSum = rec.Nodes.Bytes, rec.Nodes.Sum
	// what a level that did not complete wrote after the checkpoint goes
	return lb.nodes.Truncate(rec.Nodes.Bytes)
}

// level reduces level l from the stream in returns into the stream at
// out, in as few parts as the budget allows; it returns the entries
// written.
func (lb *levelBuilder) level(l int, in func() (source, error), out string) (uint64, error) {
	t := lb.t
	lt := &t.levels[l]
	saved := levelNodes{ids: append([]uint32(nil), lt.nodes.ids...), n: lt.nodes.n}
	chunks := len(t.chunks)
	parts := 1
	for {
		written, err := lb.reduce(l, in, out, parts)
		if err == nil {
			lb.parts[l] = parts
			if err := lb.flush(l, lt.nodes.n); err != nil {
				return 0, err
			}
			t.levels[l] = levelTable{nodes: lt.nodes}
			return written, nil
		}
		if !errors.Is(err, errSpill) {
			return 0, err
		}
		// start the level again in more parts: drop its nodes
		for c := chunks; c < len(t.chunks); c++ {
			if lb.isFlushed(c) {
				lb.flushed[c] = false
			}
		}
		t.chunks, t.level, t.pos = t.chunks[:chunks], t.level[:chunks], t.pos[:chunks]
		lt.nodes = levelNodes{ids: append([]uint32(nil), saved.ids...), n: saved.n}
		t.recent[l] = [recentSize]recentEntry{}
		if parts >= maxParts {
			return 0, fmt.Errorf("%w: level %d does not fit %d MiB in %d parts", ErrBudget, l, lb.budget>>20, parts)
		}
		parts = min(4*parts, maxParts)
	}
}

// streamPath is where the stream of level l goes.
func (lb *levelBuilder) streamPath(l int) string {
	return filepath.Join(lb.dir, fmt.Sprintf("level-%d", l))
}

func (lb *levelBuilder) isFlushed(c int) bool { return c < len(lb.flushed) && lb.flushed[c] }

// tableBytes is what level l's table holds now (nodes since from, slots).
func tableBytes(lt *levelTable) int64 {
	return 8*int64(lt.nodes.n-lt.from) + 4*int64(len(lt.slots))
}

// reduce makes level l in the given number of parts.
func (lb *levelBuilder) reduce(l int, in func() (source, error), out string, parts int) (uint64, error) {
	t := lb.t
	lt := &t.levels[l]
	lt.from, lt.ib = 0, startIB
	lt.slots = make([]uint32, minSlots)
	src, err := in()
	if err != nil {
		return 0, err
	}
	defer src.close()
	g := &groups{src: src}
	stage := fmt.Sprintf("level %d of %d", l, lb.L)
	if parts == 1 {
		w, err := lb.createStream(out)
		if err != nil {
			return 0, err
		}
		defer w.close()
		for i := 0; ; i++ {
			s, lo, hi, ok := g.next()
			if !ok {
				break
			}
			id := t.mk(l, lo, hi)
			if t.err != nil {
				return 0, t.err
			}
			if err := w.entry(s, id); err != nil {
				return 0, err
			}
			if tableBytes(lt) > lb.budget {
				return 0, errSpill
			}
			if i&4095 == 0 {
				lb.report(stage, g.entries)
			}
		}
		if err := src.close(); err != nil {
			return 0, err
		}
		lb.peak = max(lb.peak, tableBytes(lt))
		lb.counted(l, g.entries)
		return w.n, lb.closeStream(w)
	}
	// pass 1: the children of each prefix to its bucket
	buckets := make([]*sink, parts)
	bufSize := max(4<<10, min(1<<20, int(lb.budget/int64(4*parts))))
	for b := range buckets {
		if buckets[b], err = createSink(filepath.Join(lb.dir, fmt.Sprintf("bucket-%d", b)), bufSize); err != nil {
			return 0, err
		}
		defer buckets[b].close()
	}
	for i := 0; ; i++ {
		_, lo, hi, ok := g.next()
		if !ok {
			break
		}
		if _, done := t.reduced(lo, hi); done {
			continue
		}
		if err := buckets[bucketOf(l, lo, hi, parts)].pair(lo, hi); err != nil {
			return 0, err
		}
		if i&4095 == 0 {
			lb.report(stage+fmt.Sprintf(" (in %d parts): distributing", parts), g.entries)
		}
	}
	if err := src.close(); err != nil {
		return 0, err
	}
	// pass 2: each bucket alone, its nodes' references in bucket order
	for b, w := range buckets {
		if err := w.close(); err != nil {
			return 0, err
		}
		pairsPath := filepath.Join(lb.dir, fmt.Sprintf("bucket-%d", b))
		refs, err := lb.reduceBucket(l, pairsPath, filepath.Join(lb.dir, fmt.Sprintf("refs-%d", b)))
		if err != nil {
			return 0, err
		}
		if err := os.Remove(pairsPath); err != nil {
			return 0, err
		}
		if refs != w.n {
			return 0, fmt.Errorf("bucket %d: %d references for %d pairs", b, refs, w.n)
		}
		lb.report(stage+fmt.Sprintf(" (in %d parts): part %d reduced", parts, b+1), 0)
	}
	// pass 3: the stream of level l, each prefix's reference from its bucket
	if src, err = in(); err != nil {
		return 0, err
	}
	defer src.close()
	g = &groups{src: src}
	readers := make([]*bufio.Reader, parts)
	for b := range readers {
		f, err := os.Open(filepath.Join(lb.dir, fmt.Sprintf("refs-%d", b)))
		if err != nil {
			return 0, err
		}
		defer f.Close()
		readers[b] = bufio.NewReaderSize(f, bufSize)
	}
	w, err := lb.createStream(out)
	if err != nil {
		return 0, err
	}
	defer w.close()
	var buf [4]byte
	for i := 0; ; i++ {
		s, lo, hi, ok := g.next()
		if !ok {
			break
		}
		id, done := t.reduced(lo, hi)
		if !done {
			if _, err := io.ReadFull(readers[bucketOf(l, lo, hi, parts)], buf[:]); err != nil {
				return 0, fmt.Errorf("level %d: a bucket's references end early: %v", l, err)
			}
			id = binary.LittleEndian.Uint32(buf[:])
		}
		if err := w.entry(s, id); err != nil {
			return 0, err
		}
		if i&4095 == 0 {
			lb.report(stage+fmt.Sprintf(" (in %d parts): joining", parts), g.entries)
		}
	}
	if err := src.close(); err != nil {
		return 0, err
	}
	lb.counted(l, g.entries)
	for b := range readers {
		if err := os.Remove(filepath.Join(lb.dir, fmt.Sprintf("refs-%d", b))); err != nil {
			return 0, err
		}
	}
	return w.n, lb.closeStream(w)
}

// reduced applies the reduction rule: the node a pair of children stands
// for when it makes none.
func (t *table) reduced(lo, hi uint32) (uint32, bool) {
	if t.zdd {
		return lo, hi == False
	}
	return lo, lo == hi
}

// bucketOf spreads the pairs of a level over the parts by their hash (the
// bits the slots do not use first).
func bucketOf(l int, lo, hi uint32, parts int) int {
	return int((hashNode(uint8(l), lo, hi) >> 32) % uint64(parts))
}

// reduceBucket makes the nodes of one bucket's pairs with a fresh index,
// writing each pair's reference in order; the nodes of the buckets before
// it are never asked for again, and their full chunks leave memory.
func (lb *levelBuilder) reduceBucket(l int, pairsPath, refsPath string) (uint64, error) {
	t := lb.t
	lt := &t.levels[l]
	if err := lb.flush(l, lt.nodes.n&^chunkMask); err != nil {
		return 0, err
	}
	lt.from, lt.ib = lt.nodes.n, startIB
	lt.slots = make([]uint32, minSlots)
	t.recent[l] = [recentSize]recentEntry{}
	f, err := os.Open(pairsPath)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	w, err := createSink(refsPath, 1<<20)
	if err != nil {
		return 0, err
	}
	defer w.close()
	var buf [8]byte
	for {
		if _, err := io.ReadFull(br, buf[:]); err != nil {
			if err == io.EOF {
				break
			}
			return 0, err
		}
		id := t.lookup(l, binary.LittleEndian.Uint32(buf[:]), binary.LittleEndian.Uint32(buf[4:]))
		if t.err != nil {
			return 0, t.err
		}
		if err := w.ref(id); err != nil {
			return 0, err
		}
		if tableBytes(lt) > lb.budget {
			return 0, errSpill
		}
	}
	lb.peak = max(lb.peak, tableBytes(lt))
	return w.n, w.close()
}

// flush writes level l's chunks holding indices below upTo to the node
// file and releases them.
func (lb *levelBuilder) flush(l int, upTo uint32) error {
	t := lb.t
	v := &t.levels[l].nodes
	for c := 0; c < len(v.ids) && uint64(c)<<chunkBits < uint64(upTo); c++ {
		id := int(v.ids[c])
		if lb.isFlushed(id) {
			continue
		}
		if err := lb.writeChunk(id, t.chunks[id]); err != nil {
			return err
		}
		for len(lb.flushed) <= id {
			lb.flushed = append(lb.flushed, false)
		}
		lb.flushed[id] = true
		t.chunks[id] = nil
	}
	return nil
}

// counted keeps the number of keys: the deepest level's entries.
func (lb *levelBuilder) counted(l int, entries uint64) {
	if l == lb.L-1 {
		lb.keys = entries
	}
}

func (lb *levelBuilder) report(stage string, done uint64) {
	if lb.progress != nil {
		lb.progress(stage, done, lb.total)
	}
}

// finish maps the node file as the diagram's chunks.
func (lb *levelBuilder) finish(o Order, zdd bool, root uint32) (*LevelDiagram, error) {
	t := lb.t
	size := int64(len(t.chunks)) << chunkBits * 8
	if err := lb.nodes.Truncate(size); err != nil {
		return nil, err
	}
	data, unmap, err := mapFile(lb.nodes, size)
	if err != nil {
		return nil, err
	}
	d := &LevelDiagram{Order: o, ZDD: zdd, Root: root, Count: lb.keys, levels: make([]levelNodes, lb.L), close: unmap}
	d.TableBytes = lb.peak
	d.arena = t.arena
	for l := range t.levels {
		v := t.levels[l].nodes
		d.levels[l] = v
		for c, id := range v.ids {
			m := min(chunkSize, int(v.n)-c<<chunkBits)
			off := int64(id) << chunkBits * 8
			d.chunks[id] = pairsOf(data[off : off+int64(m)*8])
		}
	}
	d.Parts, d.Bottom = lb.parts, lb.bottom
	d.index()
	return d, nil
}

// Close releases the nodes of a diagram built out of core (their mapping);
// a no-op for the others. The diagram is not usable afterwards.
func (d *LevelDiagram) Close() error {
	if d.close == nil {
		return nil
	}
	err := d.close()
	d.close, d.chunks = nil, nil
	return err
}
