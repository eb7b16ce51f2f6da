package bdd

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/gapset/gapset/keyset"
)

// The resumable out-of-core build. A build given a State writes, after the
// bottom pass and after each level, a checkpoint: a manifest in statedir's
// sealed envelope saying which level comes next, the stream it reads (its
// size, entries and CRC-32C), the node file's length and CRC-32C, and the
// builder's small state (each level's chunk ids and node count, the parts,
// the bottom levels, the keys). The node file only grows at its end between
// checkpoints (a level's chunks come after every earlier level's), so its
// checksum is kept running: each checkpoint hashes what its level appended.
// Chunk 0 alone, level 0's, is written last at the file's start: the first
// chunk's bytes have their own checksum, taken afresh each time (512 KiB).
// A build run again with the same State continues from the last
// checkpoint, after checking that it was made from the same key file
// (size, modification time, header, checksum) with the same order,
// encoding and ZDD flag, and that every file it names is whole; anything
// else is refused, never resumed into a wrong diagram. The BDD and the ZDD
// count's build each have their subdirectory (bdd, zdd) and their record
// in the one manifest.

// stateKind names the state directory in its marker and in refusals.
const stateKind = "out-of-core build state"

// stateFormat changes whenever the manifest or the files it names change
// meaning.
const stateFormat = 1

// ErrStateMismatch marks a state directory holding the build of other keys
// or flags: the arguments are wrong for it (bad input).
var ErrStateMismatch = errors.New("build state of another build")

// State is a resumable out-of-core build's state directory, open and
// locked by this process (statedir's rules: made with its marker, never a
// symlink or a directory without the marker).
type State struct {
	dir    string
	unlock func()
	noSync bool // tests: the files are not synced (the checkpoints still come)
}

// OpenState makes or opens the state directory dir and locks it; fresh
// discards the state it holds.
func OpenState(dir string, fresh bool) (*State, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	if _, err := statedir.Open(dir, stateKind); err != nil {
		return nil, err
	}
	unlock, err := statedir.Lock(dir, stateKind)
	if err != nil {
		return nil, err
	}
	s := &State{dir: dir, unlock: unlock}
	if fresh {
		if err := s.prune(nil); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Dir is the state directory.
func (s *State) Dir() string { return s.dir }

// Close unlocks the state directory and leaves it as it is.
func (s *State) Close() {
	if s.unlock != nil {
		s.unlock()
		s.unlock = nil
	}
}

// Remove deletes the state directory (the diagram is saved) and unlocks
// it. A diagram whose nodes are mapped from it stays readable.
func (s *State) Remove() error {
	err := atomicfile.Retire(s.dir)
	s.Close()
	return err
}

// stateManifest is the checkpoint: what the build is and where each stage
// stands (nil: not started).
type stateManifest struct {
	Build   buildIdentity `json:"build"`
	Elapsed time.Duration `json:"elapsed_ns"` // the earlier processes' wall time
	BDD     *stageRecord  `json:"bdd"`
	ZDD     *stageRecord  `json:"zdd"`
}

// buildIdentity is what the state must agree on with the build resuming it.
type buildIdentity struct {
	KeyBytes  int64  `json:"key_file_bytes"`
	KeyMtime  int64  `json:"key_file_mtime_ns"`
	KeyHeader string `json:"key_file_header"`   // its first bytes, hex
	KeySum    string `json:"key_file_checksum"` // its trailer, hex
	N         int    `json:"n"`
	K         int    `json:"k"`
	Order     string `json:"order"`
	Vars      int    `json:"vars"`
	Encoding  string `json:"encoding"`
	ZDD       bool   `json:"zdd"`
}

// stageRecord is one stage's state after its last completed level.
type stageRecord struct {
	Next    int         `json:"next"`             // the level to reduce next; -1: every level done
	Root    uint32      `json:"root"`             // when every level is done
	Stream  *fileRecord `json:"stream,omitempty"` // the stream of level next+1
	Entries uint64      `json:"entries"`          // its entries
	Chunks  int         `json:"chunks"`           // the pool's
	Nodes   nodeRecord  `json:"nodes"`            // the node file
	Levels  []levelRec  `json:"levels"`           // by level
	Parts   []int       `json:"parts"`            // by level
	Bottom  int         `json:"bottom"`           // levels of the bottom pass
	Keys    uint64      `json:"keys"`             // counted by the deepest level
	Peak    int64       `json:"peak_table_bytes"` // the largest table so far
	// Pass, when set, is the bottom pass under way (outcore_pass.go): the
	// levels below Next hold its tables so far, and the stream is its.
	Pass *passRecord `json:"bottom_pass,omitempty"`
}

type fileRecord struct {
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
	Sum   uint32 `json:"crc32c"`
}

// nodeRecord is the node file: Bytes long, HeadSum the CRC-32C of its
// first chunk's bytes, Sum of the rest.
type nodeRecord struct {
	Bytes   int64  `json:"bytes"`
	HeadSum uint32 `json:"head_crc32c"`
	Sum     uint32 `json:"crc32c"`
}

type levelRec struct {
	IDs []uint32 `json:"chunk_ids"`
	N   uint32   `json:"n"`
}

const (
	nodesName  = "nodes"
	chunkBytes = int64(chunkSize) * 8
)

// stageDir is a stage's subdirectory of the state directory.
func stageDir(zdd bool) string {
	if zdd {
		return "zdd"
	}
	return "bdd"
}

// identify reads what identifies the key file and the build.
func identify(path string, n, k int, b KeysBuild) (buildIdentity, error) {
	id := buildIdentity{N: n, K: k, Order: b.Order.Name, Vars: b.Order.Vars(), Encoding: b.Encoding.String(), ZDD: b.ZDD}
	f, err := os.Open(path)
	if err != nil {
		return id, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return id, err
	}
	id.KeyBytes, id.KeyMtime = st.Size(), st.ModTime().UnixNano()
	head := make([]byte, keyset.HeaderSize)
	if _, err := io.ReadFull(f, head); err != nil {
		return id, fmt.Errorf("%s: %w: %v", path, keyset.ErrFormat, err)
	}
	tail := make([]byte, 4)
	if _, err := f.ReadAt(tail, st.Size()-4); err != nil {
		return id, fmt.Errorf("%s: %w: %v", path, keyset.ErrFormat, err)
	}
	id.KeyHeader, id.KeySum = hex.EncodeToString(head), hex.EncodeToString(tail)
	return id, nil
}

// differs names what tells two identities apart ("" when none).
func (a buildIdentity) differs(b buildIdentity) string {
	var d []string
	if a.KeyBytes != b.KeyBytes || a.KeyMtime != b.KeyMtime || a.KeyHeader != b.KeyHeader || a.KeySum != b.KeySum {
		d = append(d, fmt.Sprintf("another key file (%d bytes, modified %s; this one %d bytes, modified %s)",
			a.KeyBytes, time.Unix(0, a.KeyMtime).UTC().Format(time.RFC3339Nano), b.KeyBytes, time.Unix(0, b.KeyMtime).UTC().Format(time.RFC3339Nano)))
	}
	if a.N != b.N || a.K != b.K || a.Vars != b.Vars {
		d = append(d, fmt.Sprintf("%d of %d cells", a.K, a.N))
	}
	if a.Order != b.Order {
		d = append(d, "order "+a.Order)
	}
	if a.Encoding != b.Encoding {
		d = append(d, "encoding "+a.Encoding)
	}
	if a.ZDD != b.ZDD {
		d = append(d, fmt.Sprintf("zdd %v", a.ZDD))
	}
	return strings.Join(d, ", ")
}

// resumable is a build's state directory while it runs.
type resumable struct {
	s            *State
	m            stateManifest
	start        time.Time
	checkpointed func(zdd bool, next int) error
}

// Resumed describes the checkpoint a build continues from.
type Resumed struct {
	Dir     string
	ZDD     bool // the ZDD count's build continues (the BDD is done)
	Next    int  // the level it continues at (-1: every level done)
	Levels  int
	Bottom  int    // levels the bottom pass made
	Nodes   uint64 // made so far in that build
	Elapsed time.Duration
	// Read is, inside the bottom pass (Next is then the level after it),
	// the keys of the groups done, of Total; 0 after the pass.
	Read, Total uint64
}

func (r Resumed) String() string {
	what := "the BDD"
	if r.ZDD {
		what = "the BDD done; the ZDD count's build"
	}
	done := fmt.Sprintf("levels %d-%d of %d done", r.Levels-1, r.Next+1, r.Levels)
	if r.Read > 0 {
		return fmt.Sprintf("resuming the out-of-core build from %s: %s: inside the first pass (the deepest %d levels, %d-%d of %d): "+
			"%d of %d keys read (%.1f%%), %d nodes, %s so far; continuing at key %d",
			r.Dir, what, r.Bottom, r.Levels-1, r.Next+1, r.Levels, r.Read, r.Total, 100*float64(r.Read)/float64(max(r.Total, 1)),
			r.Nodes, r.Elapsed.Round(time.Second), r.Read)
	}
	if r.Bottom > 0 {
		done += fmt.Sprintf(" (the deepest %d in the first pass)", r.Bottom)
	}
	next := fmt.Sprintf("continuing at level %d", r.Next)
	if r.Next < 0 {
		next = "every level done"
	}
	if r.Next < 0 && !r.ZDD {
		next = "on to the ZDD count's build (if asked) and the save"
	}
	return fmt.Sprintf("resuming the out-of-core build from %s: %s: %s, %d nodes, %s so far; %s",
		r.Dir, what, done, r.Nodes, r.Elapsed.Round(time.Second), next)
}

// resume reads the state directory's checkpoint for the build id: it
// refuses one of another build or a damaged one, removes what the
// checkpoint does not name (a level that did not complete) and checks
// every file it names.
func (s *State) resume(id buildIdentity) (*resumable, bool, error) {
	r := &resumable{s: s, start: time.Now(), m: stateManifest{Build: id}}
	path := filepath.Join(s.dir, statedir.ManifestName)
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return r, false, s.prune(nil)
	}
	if err == nil && !st.Mode().IsRegular() {
		return nil, false, statedir.Damaged(s.dir, "its %s is not a file", statedir.ManifestName)
	}
	b, err := statedir.ReadManifest(path)
	if err != nil {
		return nil, false, statedir.Damaged(s.dir, "%v", err)
	}
	var m stateManifest
	if err := statedir.Unseal(s.dir, path, b, stateFormat, &m); err != nil {
		return nil, false, err
	}
	if d := m.Build.differs(id); d != "" {
		return nil, false, fmt.Errorf("%w: %s holds the build of %s (give --fresh to discard it, or another directory)", ErrStateMismatch, s.dir, d)
	}
	if err := m.check(id); err != nil {
		return nil, false, statedir.Damaged(s.dir, "the manifest's %v", err)
	}
	// Everything is checked before anything is removed: a refused state
	// is left as it was.
	for _, z := range []bool{false, true} {
		if m.stage(z) == nil {
			continue
		}
		if st, err := os.Lstat(filepath.Join(s.dir, stageDir(z))); err != nil || !st.IsDir() {
			return nil, false, statedir.Damaged(s.dir, "its %s is not a directory", stageDir(z))
		}
	}
	// the streams, then the node files (the larger)
	for _, nodes := range []bool{false, true} {
		for _, z := range []bool{false, true} {
			rec := m.stage(z)
			if rec == nil {
				continue
			}
			dir := filepath.Join(s.dir, stageDir(z))
			switch {
			case nodes && rec.Pass != nil:
				err = checkPassNodes(s.dir, filepath.Join(dir, nodesName), rec)
			case nodes:
				err = checkNodes(s.dir, filepath.Join(dir, nodesName), rec.Nodes)
			case rec.Pass != nil:
				err = checkStreamHead(s.dir, filepath.Join(dir, rec.Stream.Name), rec.Stream.Bytes, rec.Stream.Sum)
			case rec.Stream != nil:
				err = statedir.CheckFile(s.dir, filepath.Join(dir, rec.Stream.Name), rec.Stream.Bytes, rec.Stream.Sum)
			}
			if err != nil {
				return nil, false, err
			}
		}
	}
	if err := s.prune(&m); err != nil { // what no checkpoint names: a level that did not complete
		return nil, false, err
	}
	r.m = m
	return r, m.BDD != nil, nil
}

func (m *stateManifest) stage(zdd bool) *stageRecord {
	if zdd {
		return m.ZDD
	}
	return m.BDD
}

// resumed is the message's description of the checkpoint.
func (r *resumable) resumed() Resumed {
	z := r.m.ZDD != nil
	rec := r.m.stage(z)
	out := Resumed{Dir: r.s.dir, ZDD: z, Next: rec.Next, Levels: len(rec.Levels), Bottom: rec.Bottom, Nodes: rec.nodes(), Elapsed: r.m.Elapsed}
	if rec.Pass != nil {
		out.Read, out.Total = rec.Pass.Read, rec.Pass.Total
	}
	return out
}

// check refuses a manifest whose state could not be this build's.
func (m *stateManifest) check(id buildIdentity) error {
	if m.BDD == nil && m.ZDD != nil || m.ZDD != nil && (!id.ZDD || m.BDD.Next >= 0) {
		return errors.New("stages out of order")
	}
	if m.Elapsed < 0 {
		return errors.New("elapsed time")
	}
	for _, z := range []bool{false, true} {
		if rec := m.stage(z); rec != nil {
			if err := rec.check(id.Vars); err != nil {
				return fmt.Errorf("%s: %v", stageDir(z), err)
			}
		}
	}
	return nil
}

func (rec *stageRecord) check(L int) error {
	if len(rec.Levels) != L || len(rec.Parts) != L {
		return fmt.Errorf("%d levels for %d variables", len(rec.Levels), L)
	}
	if rec.Pass != nil {
		if err := rec.checkPass(L); err != nil {
			return err
		}
	} else if err := rec.checkStage(L); err != nil {
		return err
	}
	return rec.checkChunks()
}

// checkStage refuses the shape of a record between two levels.
func (rec *stageRecord) checkStage(L int) error {
	switch {
	case rec.Bottom < 0 || rec.Bottom > min(L, maxBottom):
		return fmt.Errorf("bottom levels %d", rec.Bottom)
	case rec.Next < -1 || rec.Next > L-2 || rec.Bottom > 0 && rec.Next > L-1-rec.Bottom:
		return fmt.Errorf("next level %d", rec.Next)
	case rec.Next >= 0 && (rec.Stream == nil || rec.Stream.Name != fmt.Sprintf("level-%d", rec.Next+1) ||
		rec.Next+1 < 64 && rec.Entries > 1<<uint(rec.Next+1)):
		return fmt.Errorf("stream of level %d", rec.Next+1)
	case rec.Next < 0 && (rec.Stream != nil || rec.Entries > 1):
		return errors.New("stream after the last level")
	}
	for l, p := range rec.Parts {
		if p < 0 || p > maxParts || (p == 0) != (l <= rec.Next) {
			return fmt.Errorf("level %d in %d parts", l, p)
		}
	}
	return nil
}

// checkChunks refuses levels and a root the pool's chunks cannot hold.
func (rec *stageRecord) checkChunks() error {
	if rec.Chunks < 1 || rec.Chunks > maxChunks || rec.Nodes.Bytes != int64(rec.Chunks)*chunkBytes {
		return fmt.Errorf("%d chunks in %d bytes", rec.Chunks, rec.Nodes.Bytes)
	}
	owner := make([]bool, rec.Chunks)
	level := make([]int, rec.Chunks)
	for l, lr := range rec.Levels {
		n := uint64(lr.N)
		switch {
		case l == 0 && (n < 2 || n > 3 || rec.Next >= 0 && n != 2):
			return fmt.Errorf("level 0 of %d entries", n)
		case l > 0 && l <= rec.Next && n != 0:
			return fmt.Errorf("level %d not done holds %d nodes", l, n)
		case uint64(len(lr.IDs)) != (n+chunkSize-1)/chunkSize:
			return fmt.Errorf("level %d: %d chunks for %d nodes", l, len(lr.IDs), n)
		case l == 0 && lr.IDs[0] != 0:
			return errors.New("level 0 without the first chunk")
		}
		for _, c := range lr.IDs {
			if int64(c) >= int64(rec.Chunks) || owner[c] {
				return fmt.Errorf("level %d: chunk %d", l, c)
			}
			owner[c], level[c] = true, l
		}
	}
	if slices.Contains(owner, false) {
		return errors.New("chunks unaccounted for")
	}
	// the root: a terminal, or a node of its level (its children are
	// checked when the diagram is loaded)
	if r := rec.Root; rec.Next >= 0 && r != 0 || r >= 2 && int(r>>chunkBits) >= rec.Chunks {
		return fmt.Errorf("root %#x", r)
	} else if r >= 2 {
		lr := rec.Levels[level[r>>chunkBits]]
		i := uint64(slices.Index(lr.IDs, r>>chunkBits))<<chunkBits | uint64(r&chunkMask)
		if i < uint64(first(level[r>>chunkBits])) || i >= uint64(lr.N) {
			return fmt.Errorf("root %#x", r)
		}
	}
	return nil
}

// nodes is the nodes the record's finished levels hold.
func (rec *stageRecord) nodes() uint64 {
	var n uint64
	for l, lr := range rec.Levels {
		n += uint64(lr.N) - uint64(first(l))
	}
	return n
}

// prune removes from the state directory what m does not name (all of
// the state when m is nil), keeping the marker and the lock.
func (s *State) prune(m *stateManifest) error {
	keep := map[string]bool{}
	if m != nil {
		keep[statedir.ManifestName] = true
	} else if err := os.Remove(filepath.Join(s.dir, statedir.ManifestName)); err == nil {
		// the manifest goes first: never one naming files that are gone
		if err := atomicfile.SyncDir(s.dir); err != nil {
			return err
		}
	}
	for _, z := range []bool{false, true} {
		if m == nil || m.stage(z) == nil {
			continue
		}
		rec := m.stage(z)
		keep[stageDir(z)] = true
		names := map[string]bool{nodesName: true}
		if rec.Stream != nil {
			names[rec.Stream.Name] = true
		}
		if err := removeExcept(filepath.Join(s.dir, stageDir(z)), names); err != nil {
			return err
		}
	}
	keep[statedir.MarkerName], keep[statedir.LockName] = true, true
	return statedir.RemoveExcept(s.dir, keep)
}

// removeExcept is statedir.RemoveExcept in a subdirectory of the state,
// which must be a real directory.
func removeExcept(dir string, keep map[string]bool) error {
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() {
		return statedir.Damaged(filepath.Dir(dir), "its %s is not a directory", filepath.Base(dir))
	}
	return statedir.RemoveExcept(dir, keep)
}

// checkNodes refuses a node file whose length or checksums are not the
// ones recorded.
func checkNodes(dir, path string, rec nodeRecord) error {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		return statedir.Damaged(dir, "its node file is missing or not a file")
	}
	if st.Size() < rec.Bytes {
		return statedir.Damaged(dir, "its node file has %d bytes, the manifest says %d", st.Size(), rec.Bytes)
	}
	f, err := os.Open(path)
	if err != nil {
		return statedir.Damaged(dir, "%v", err)
	}
	defer f.Close()
	head, sum, err := nodeSums(f, 0, 0, rec.Bytes)
	if err != nil {
		return statedir.Damaged(dir, "%v", err)
	}
	if head != rec.HeadSum || sum != rec.Sum {
		return statedir.Damaged(dir, "its node file fails its checksum")
	}
	return nil
}

// nodeSums returns the checksum of the node file's first chunk and, from
// sum (the checksum of the rest up to from), of the rest up to to.
func nodeSums(f *os.File, sum uint32, from, to int64) (uint32, uint32, error) {
	hash := func(crc uint32, off, end int64) (uint32, error) {
		buf := make([]byte, 1<<20)
		for off < end {
			n, err := f.ReadAt(buf[:min(int64(len(buf)), end-off)], off)
			crc = statedir.Update(crc, buf[:n])
			off += int64(n)
			if err != nil && off < end {
				return 0, err
			}
		}
		return crc, nil
	}
	head, err := hash(0, 0, min(chunkBytes, to))
	if err != nil {
		return 0, 0, err
	}
	sum, err = hash(sum, max(chunkBytes, from), to)
	return head, sum, err
}

// save writes the manifest atomically, after the files it names reach the
// disk.
func (r *resumable) save() error {
	m := r.m
	m.Elapsed += time.Since(r.start)
	b, err := statedir.Seal(stateFormat, &m)
	if err != nil {
		return err
	}
	path := filepath.Join(r.s.dir, statedir.ManifestName)
	if r.s.noSync { // tests: in place, nothing synced (a kill is not simulated mid-write)
		return os.WriteFile(path, b, 0o644)
	}
	return atomicfile.WriteFile(path, b)
}

// sync flushes a file of the state to the disk (not in tests).
func (s *State) sync(path string) error {
	if s.noSync {
		return nil
	}
	return atomicfile.Sync(path)
}
