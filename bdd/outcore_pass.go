package bdd

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"time"
	"unsafe"

	"github.com/gapset/gapset/internal/statedir"
)

// Checkpoints inside the bottom pass. The pass holds the tables of its b
// levels in memory for its whole length (up to the budget), so a kill in
// it lost all of it. A resumable build now also writes a checkpoint inside
// the pass, between two groups, every passShare of the keys or
// passInterval, whichever comes first (none for builds of fewer than
// passMinKeys keys, where it would cost more than it saves): the pool's
// chunks go to the node file at their place (only what they gained since
// the last checkpoint: nodes never change once made), the stream of level
// L-b written so far is flushed, and the manifest records the keys read,
// the stream's last prefix (its deltas go on from it) and each table's
// slot count and index bits. A resumed pass reads the chunks back, rebuilds
// each level's slots at the recorded size (a node's reference is its place
// in creation order, not its slot, so the references are the same; the
// sizes make the budget checks the same), skips the keys read and goes on
// appending to the stream. Saving needs no memory beyond the tables: the
// chunks are written and hashed where they are. The checksum covers each
// chunk's nodes only, not the rest of its 512 KiB: a process killed after
// a checkpoint may have written more nodes there, which a resume ignores
// and overwrites.

const (
	passShare    = 20 // a checkpoint every 1/passShare of the keys,
	passInterval = 10 * time.Minute
	passMinKeys  = 1 << 26 // for builds of at least this many keys
)

// passRecord is a stage's state inside its bottom pass (stageRecord.Pass):
// the pass makes levels L-1 .. L-Bottom, its stream (Stream, Entries) is
// level L-Bottom's so far.
type passRecord struct {
	Read  uint64   `json:"keys_read"`   // keys of the groups done
	Total uint64   `json:"keys"`        // of the build (for the message)
	Prev  uint64   `json:"last_prefix"` // the stream's last entry's
	Slots []int    `json:"slots"`       // of levels L-Bottom .. L-1
	IB    []uint32 `json:"index_bits"`  // of levels L-Bottom .. L-1
}

// passEvery is the keys between two checkpoints inside the bottom pass
// (0: none).
func passEvery(total, asked uint64) uint64 {
	switch {
	case asked > 0:
		return asked
	case total < passMinKeys:
		return 0
	}
	return total / passShare
}

// passCheckpoint records the bottom pass of b levels after the groups of
// its first read keys; w is its stream.
func (lb *levelBuilder) passCheckpoint(b int, read uint64, w *sink) error {
	r, t := lb.r, lb.t
	if err := w.bw.Flush(); err != nil {
		return err
	}
	st, err := w.f.Stat()
	if err != nil {
		return err
	}
	if err := r.s.sync(w.f.Name()); err != nil {
		return err
	}
	// the chunks, each from where the last checkpoint left it
	for len(lb.saved) < len(t.chunks) {
		lb.saved = append(lb.saved, 0)
	}
	for id, ch := range t.chunks {
		if err := lb.writeChunk(id, ch); err != nil {
			return err
		}
	}
	size := int64(len(t.chunks)) * chunkBytes
	if err := lb.nodes.Truncate(size); err != nil {
		return err
	}
	if err := r.s.sync(lb.nodes.Name()); err != nil {
		return err
	}
	sum := poolSum(t.chunks)
	L, top := lb.L, lb.L-b
	p := &passRecord{Read: read, Total: lb.total, Prev: w.prev}
	for l := top; l < L; l++ {
		p.Slots = append(p.Slots, len(t.levels[l].slots))
		p.IB = append(p.IB, uint32(t.levels[l].ib))
	}
	rec := &stageRecord{Next: top - 1, Entries: w.n, Chunks: len(t.chunks), Parts: make([]int, L), Bottom: b, Peak: lb.peak,
		Stream: &fileRecord{Name: filepath.Base(w.f.Name()), Bytes: st.Size(), Sum: w.h.crc}, Pass: p,
		Nodes: nodeRecord{Bytes: size, Sum: sum}, Levels: make([]levelRec, L)}
	for i := range t.levels {
		v := t.levels[i].nodes
		rec.Levels[i] = levelRec{IDs: append([]uint32{}, v.ids...), N: v.n}
	}
	return lb.commit(rec, L)
}

// writeChunk writes what chunk id gained since it was last written to its
// place in the node file.
func (lb *levelBuilder) writeChunk(id int, ch []pair) error {
	from := 0
	if id < len(lb.saved) {
		from = lb.saved[id]
	}
	if len(ch) <= from {
		return nil
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&ch[from])), 8*(len(ch)-from))
	if _, err := lb.nodes.WriteAt(b, int64(id)<<chunkBits*8+int64(8*from)); err != nil {
		return err
	}
	if id < len(lb.saved) {
		lb.saved[id] = len(ch)
	}
	return nil
}

// poolSum is the checksum of the chunks' nodes, in chunk order, taken
// from memory.
func poolSum(chunks [][]pair) uint32 {
	var sum uint32
	for _, ch := range chunks {
		if len(ch) > 0 {
			sum = statedir.Update(sum, unsafe.Slice((*byte)(unsafe.Pointer(&ch[0])), 8*len(ch)))
		}
	}
	return sum
}

// checkPassNodes refuses the node file of a checkpoint inside the bottom
// pass whose chunks' nodes (as many as the levels say) fail poolSum's
// checksum.
func checkPassNodes(dir, path string, rec *stageRecord) error {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		return statedir.Damaged(dir, "its node file is missing or not a file")
	}
	if st.Size() < rec.Nodes.Bytes {
		return statedir.Damaged(dir, "its node file has %d bytes, the manifest says %d", st.Size(), rec.Nodes.Bytes)
	}
	f, err := os.Open(path)
	if err != nil {
		return statedir.Damaged(dir, "%v", err)
	}
	defer f.Close()
	used := make([]int64, rec.Chunks)
	for _, lr := range rec.Levels {
		for c, id := range lr.IDs {
			used[id] = 8 * min(chunkSize, int64(lr.N)-int64(c)<<chunkBits)
		}
	}
	buf := make([]byte, chunkBytes)
	var sum uint32
	for id, n := range used {
		if _, err := f.ReadAt(buf[:n], int64(id)*chunkBytes); err != nil {
			return statedir.Damaged(dir, "its node file: %v", err)
		}
		sum = statedir.Update(sum, buf[:n])
	}
	if sum != rec.Nodes.Sum || rec.Nodes.HeadSum != 0 {
		return statedir.Damaged(dir, "its node file fails its checksum")
	}
	return nil
}

// loadPass takes up a bottom pass from its checkpoint (after restore): the
// chunks back in memory, each level's slots rebuilt at their size.
func (lb *levelBuilder) loadPass(rec *stageRecord) error {
	t, p := lb.t, rec.Pass
	lb.saved = make([]int, len(t.chunks))
	top := lb.L - rec.Bottom
	for l := top; l < lb.L; l++ {
		lt := &t.levels[l]
		for c, id := range lt.nodes.ids {
			m := min(chunkSize, int(lt.nodes.n)-c<<chunkBits)
			ch := make([]pair, m, max(m, 16))
			b := unsafe.Slice((*byte)(unsafe.Pointer(&ch[0])), 8*m)
			if _, err := lb.nodes.ReadAt(b, int64(id)<<chunkBits*8); err != nil {
				return statedir.Damaged(lb.r.s.dir, "its %s node file: %v", stageDir(lb.zdd), err)
			}
			t.chunks[id], lb.flushed[id], lb.saved[id] = ch, false, m
		}
		lt.ib = uint(p.IB[l-top])
		lt.resize(&t.arena, l, p.Slots[l-top])
	}
	lb.nodeLen, lb.nodeSum = 0, 0 // the pass's chunks grow in place
	return nil
}

// checkPass refuses a record inside the bottom pass whose shape could not
// be the pass's (the files are checked against their sums apart).
func (rec *stageRecord) checkPass(L int) error {
	p, b := rec.Pass, rec.Bottom
	switch {
	case b < 1 || b > min(L, maxBottom):
		return fmt.Errorf("bottom pass of %d levels", b)
	case rec.Next != L-1-b:
		return fmt.Errorf("next level %d", rec.Next)
	case len(p.Slots) != b || len(p.IB) != b:
		return fmt.Errorf("%d tables for %d levels", len(p.Slots), b)
	case p.Read == 0 || p.Read > p.Total || rec.Entries == 0 || rec.Entries > p.Read:
		return fmt.Errorf("%d entries after %d of %d keys", rec.Entries, p.Read, p.Total)
	case rec.Stream == nil || rec.Stream.Name != fmt.Sprintf("level-%d", L-b):
		return fmt.Errorf("stream of level %d", L-b)
	case rec.Root != 0:
		return fmt.Errorf("root %#x", rec.Root)
	}
	for l, lr := range rec.Levels {
		if rec.Parts[l] != 0 || l > 0 && l < L-b && lr.N != 0 || l == 0 && (lr.N < 2 || lr.N > 3 || b < L && lr.N != 2) {
			return fmt.Errorf("level %d: %d nodes in %d parts", l, lr.N, rec.Parts[l])
		}
	}
	for i, n := range p.Slots {
		l := L - b + i
		ib := uint(p.IB[i])
		used := int64(rec.Levels[l].N) - int64(first(l))
		// the slots must hold the nodes and an empty one (probes end there)
		if ib < startIB || ib > 32 || n < minSlots || int64(n) <= used || int64(n) > 2*used+minSlots ||
			uint64(rec.Levels[l].N) > 1<<ib-1 {
			return fmt.Errorf("level %d: %d slots of %d index bits for %d nodes", l, n, ib, used)
		}
	}
	return nil
}

// checkStreamHead refuses a stream shorter than recorded or whose first
// size bytes fail their checksum (a stream written on after the checkpoint
// is longer: the resume cuts it back).
func checkStreamHead(dir, path string, size int64, sum uint32) error {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		return statedir.Damaged(dir, "%s is missing or not a file", filepath.Base(path))
	}
	if st.Size() < size {
		return statedir.Damaged(dir, "%s has %d bytes, the manifest says %d", filepath.Base(path), st.Size(), size)
	}
	f, err := os.Open(path)
	if err != nil {
		return statedir.Damaged(dir, "%v", err)
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	var crc uint32
	for off := int64(0); off < size; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		crc = statedir.Update(crc, buf[:n])
		off += int64(n)
		if err != nil && off < size {
			return statedir.Damaged(dir, "%v", err)
		}
	}
	if crc != sum {
		return statedir.Damaged(dir, "%s fails its checksum", filepath.Base(path))
	}
	return nil
}

// reopenStream opens the stream of a resumed bottom pass to append to it,
// cut back to its checkpoint.
func (lb *levelBuilder) reopenStream(path string, rec *stageRecord) (*sink, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(rec.Stream.Bytes); err == nil {
		_, err = f.Seek(rec.Stream.Bytes, 0)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	w := &sink{f: f, n: rec.Entries, prev: rec.Pass.Prev, h: &crcWriter{w: f, crc: rec.Stream.Sum}}
	w.bw = bufio.NewWriterSize(w.h, 1<<20)
	return w, nil
}

// skip reads past the first n keys (a resumed bottom pass): the reader
// checks their order and, at the end, the file's checksum as before.
func (s *keySource) skip(n uint64) error {
	var key uint64
	for i := uint64(0); i < n; i++ {
		k, ok := s.r.Next()
		if !ok {
			if err := s.r.Err(); err != nil {
				return err
			}
			return fmt.Errorf("the key file ends at key %d, before the checkpoint's %d", i, n)
		}
		key = k
	}
	if n > 0 {
		if s.enc != Cells {
			key = s.enc.Convert(key, s.n, s.k)
		}
		s.prev, s.count = key, n
	}
	return nil
}
