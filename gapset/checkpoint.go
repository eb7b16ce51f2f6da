package gapset

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/gapset/gapset/internal/sysprobe"
)

// CheckpointName is the directory inside the output directory where a
// resumable enumeration keeps its state: the layer and projection runs
// still needed and a manifest naming them, written after every completed
// step (all layers of one depth). It carries no PID: the cleanup of stale
// temporaries never touches it, and a run started again with the same
// arguments continues from it. It goes when the key-set files are written.
const CheckpointName = "gapset-checkpoint"

// checkpointKind names a checkpoint in its marker and in refusals.
const checkpointKind = "checkpoint"

// ErrForeign marks a checkpoint path that is not a checkpoint directory
// gapset made (a symlink, a file, a directory without the marker): it is
// refused before anything in it is touched, --fresh or not. ErrDamaged
// marks a damaged checkpoint. Both are bad input (exit status 2).
var (
	ErrForeign = statedir.ErrForeign
	ErrDamaged = statedir.ErrDamaged
)

// openCheckpoint makes or opens the checkpoint directory and locks it.
func openCheckpoint(dir string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	if _, err := statedir.Open(dir, checkpointKind); err != nil {
		return nil, err
	}
	unlock, err := statedir.Lock(dir, checkpointKind)
	if errors.Is(err, statedir.ErrBusy) {
		err = fmt.Errorf("%w: %w", ErrArgs, err)
	}
	return unlock, err
}

// checkpointFormat changes whenever the manifest or the run files change
// meaning; a checkpoint of another format is refused, not misread.
// Format 2: layers and projections split by key range. Format 3: a
// CRC-32C of every run file and of the manifest, and the marker. Format 4:
// the manifest in statedir's sealed envelope, the runs named by statedir.
// Format 5: projections kept as bit tables (Tables).
const checkpointFormat = 5

const manifestName = statedir.ManifestName

// ErrCheckpoint marks a checkpoint that belongs to another enumeration (or
// another format): the caller's arguments are wrong for it. It wraps
// ErrArgs.
var ErrCheckpoint = fmt.Errorf("%w: checkpoint mismatch", ErrArgs)

// manifest is a checkpoint's description: what the enumeration is, where
// it stands and which runs hold its state.
// Its format and checksum are statedir's envelope's.
type manifest struct {
	Rows   int    `json:"rows"`
	Cols   int    `json:"cols"`
	MaxGap int    `json:"gap"`
	Exact  bool   `json:"exact"`
	Packed bool   `json:"packed"`
	Cells  []int  `json:"cells"` // sorted
	Step   int    `json:"step"`  // the last completed step
	Done   bool   `json:"done"`  // every layer found; the key-set files are pending
	Seq    int    `json:"seq"`
	Spills int    `json:"spills"`
	Peak   int64  `json:"peak_disk_bytes"`
	RSS    uint64 `json:"peak_rss_bytes"`
	// Elapsed and CPU add up the processes that worked on the run.
	Elapsed time.Duration `json:"elapsed_ns"`
	CPU     time.Duration `json:"cpu_ns"`
	Members int64         `json:"members"`
	Counts  []LayerCount  `json:"layers"`
	// PrefixBits splits the layers (the top bits of whole-board
	// keys), ProjectionBits the projection runs (min(ProjectionBits, 4k)
	// top bits of k-cell keys).
	PrefixBits     int                   `json:"prefix_bits"`
	ProjectionBits int                   `json:"projection_prefix_bits"`
	Runs           [][]partsRecord       `json:"runs"` // Runs[j][d]: level j's layer at step d
	Proj           map[int][]partsRecord `json:"projections"`
	// Transpose: the layers hold one key of each transposed pair, and the
	// whole board (when asked for) has projection runs (transpose.go).
	Transpose bool `json:"transpose,omitempty"`
	// CellSets are Config.Sets (sorted; absent without), SetProj their
	// projection runs, by the set's four hex digits (encode.CellSet.Hex).
	CellSets []string                 `json:"cell_sets,omitempty"`
	SetProj  map[string][]partsRecord `json:"cell_set_projections,omitempty"`
	// Tables are the projections kept as bit tables (Config.Tables), by
	// the set's four hex digits (the last k cells too).
	Tables map[string]tableRecord `json:"projection_tables,omitempty"`
	// Base is the base heuristic of a residual enumeration (Config.Base:
	// its spec and digest, hex), absent for the gap sets.
	Base       string `json:"base,omitempty"`
	BaseDigest string `json:"base_digest,omitempty"`
}

// partsRecord is a split run of the checkpoint: its non-empty
// parts, in part order (none for an empty layer).
type partsRecord struct {
	N     int64       `json:"n"`
	Tier  int         `json:"tier,omitempty"` // projections: compactions that built it
	Parts []runRecord `json:"parts,omitempty"`
}

// runRecord names a part's run file.
type runRecord struct {
	P     int    `json:"p"`
	Name  string `json:"name"`
	N     int64  `json:"n"`
	Bytes int64  `json:"bytes"`
	Delta bool   `json:"delta"`
	Cells int    `json:"cells,omitempty"` // > 0: rank codes of boards of this many cells (rankcode.go)
	Sum   uint32 `json:"crc32c"`          // the file's CRC-32C
}

// identity is what a checkpoint must agree on with the run resuming it.
func (m manifest) identity() string {
	id := fmt.Sprintf("%dx%d, gap <= %d, exact %v, cells %v, packed %v, transpose %v",
		m.Rows, m.Cols, m.MaxGap, m.Exact, m.Cells, m.Packed, m.Transpose)
	if len(m.CellSets) > 0 {
		id += fmt.Sprintf(", cell sets %v", m.CellSets)
	}
	if m.Base != "" {
		id += fmt.Sprintf(", residual to the base %s (digest %s)", m.Base, m.BaseDigest)
	}
	return id
}

func newManifest(cfg Config) manifest {
	cells := slices.Clone(cfg.Cells)
	slices.Sort(cells)
	var sets []string
	for _, s := range slices.Sorted(slices.Values(cfg.Sets)) {
		sets = append(sets, s.Hex())
	}
	m := manifest{Rows: cfg.Rows, Cols: cfg.Cols, MaxGap: cfg.MaxGap,
		Exact: cfg.Exact, Packed: cfg.Packed, Cells: cells, Transpose: cfg.transposer() != nil, CellSets: sets}
	if b := baseID(cfg.Base); !b.IsZero() {
		m.Base, m.BaseDigest = b.Spec, hex.EncodeToString(b.Digest[:])
	}
	return m
}

// Resumed describes the checkpoint an enumeration continues from.
type Resumed struct {
	Dir     string
	Step    int // steps completed
	Done    bool
	Members int64
	Elapsed time.Duration // wall time of the earlier processes
}

func (r Resumed) String() string {
	if r.Done {
		return fmt.Sprintf("resuming from checkpoint %s: every layer found (%d members, %s so far); writing the key-set files",
			r.Dir, r.Members, r.Elapsed.Round(time.Second))
	}
	return fmt.Sprintf("resuming from checkpoint %s after step %d (%d members, %s so far)",
		r.Dir, r.Step, r.Members, r.Elapsed.Round(time.Second))
}

// readManifest returns the checkpoint's manifest, or ok false when the
// directory holds none (a run stopped before its first checkpoint).
func readManifest(dir string) (m manifest, ok bool, err error) {
	path := filepath.Join(dir, manifestName)
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return m, false, nil
	}
	if err == nil && !st.Mode().IsRegular() {
		return m, false, statedir.Damaged(dir, "its %s is not a file", manifestName)
	}
	b, err := statedir.ReadManifest(path)
	if err != nil {
		return m, false, statedir.Damaged(dir, "%v", err)
	}
	if err := statedir.Unseal(dir, path, b, checkpointFormat, &m); err != nil {
		return m, false, err
	}
	return m, true, nil
}

// checkMatch refuses a checkpoint made for another enumeration.
func checkMatch(dir string, have, want manifest) error {
	if have.identity() != want.identity() {
		return fmt.Errorf("%w: %s holds a run of %s, not of %s (give --fresh to discard it, or another --out-dir)",
			ErrCheckpoint, dir, have.identity(), want.identity())
	}
	return nil
}

// referenced lists the run files a manifest names.
func (m manifest) referenced() map[string]bool {
	names := map[string]bool{manifestName: true, statedir.LockName: true}
	m.eachRun(func(r runRecord) error {
		names[r.Name] = true
		return nil
	})
	for _, t := range m.Tables {
		names[t.Name] = true
	}
	return names
}

// eachRun calls fn for every run the manifest names, up to an error.
func (m manifest) eachRun(fn func(runRecord) error) error {
	for _, ls := range m.Runs {
		for _, l := range ls {
			for _, r := range l.Parts {
				if err := fn(r); err != nil {
					return err
				}
			}
		}
	}
	var projs [][]partsRecord
	for _, ls := range m.Proj {
		projs = append(projs, ls)
	}
	for _, ls := range m.SetProj {
		projs = append(projs, ls)
	}
	for _, ls := range projs {
		for _, l := range ls {
			for _, r := range l.Parts {
				if err := fn(r); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// prune removes what the manifest does not name (runs of a step that did
// not complete; with ok false, everything but the marker and the lock).
// A resumed run calls it only once the checkpoint has passed every check
// (checkRuns and the rest of resume): a refused checkpoint is left as it
// was.
func prune(dir string, m manifest, ok bool) error {
	keep := map[string]bool{statedir.LockName: true}
	if ok {
		keep = m.referenced()
	}
	keep[statedir.MarkerName] = true
	if !keep[manifestName] {
		// The manifest goes first: a stop while the runs are removed must
		// not leave it naming files that are gone.
		if err := os.Remove(filepath.Join(dir, manifestName)); err == nil {
			if err := atomicfile.SyncDir(dir); err != nil {
				return err
			}
		}
	}
	return statedir.RemoveExcept(dir, keep)
}

// checkRuns checks that every run the manifest names is there whole: each
// is read and checked against its checksum before any is used, so a
// damaged checkpoint is refused, never resumed into a wrong set.
func checkRuns(dir string, m manifest) error {
	np := 1 << max(m.PrefixBits, m.ProjectionBits)
	return m.eachRun(func(r runRecord) error {
		if r.Name == "" || strings.ContainsAny(r.Name, `/\`) || r.Name == manifestName || statedir.Keep(r.Name) || r.P < 0 || r.P >= np || r.N <= 0 {
			return statedir.Damaged(dir, "the manifest names a bad run %q of %d keys in part %d", r.Name, r.N, r.P)
		}
		return statedir.CheckFile(dir, filepath.Join(dir, r.Name), r.Bytes, r.Sum)
	})
}

// checkCounts refuses layer runs that do not hold the boards the layer
// counts say (recorded as each layer was found, apart from the runs): a
// layer's run holds its count's boards (canonical layers one of each
// transposed pair: from half the count to the count); a layer without one
// is empty or one the run had dropped (not needed after the step, and the
// whole board not written from the layers: keepAll false); and the counts
// add up to the members.
func (m manifest) checkCounts(canonical, keepAll bool) error {
	counts := map[[2]int]int64{}
	var sum int64
	for _, c := range m.Counts {
		at := [2]int{c.Gap, c.Manhattan}
		if _, twice := counts[at]; twice || c.Count <= 0 || c.Count > 1<<56 {
			return fmt.Errorf("layer count %d of gap %d, Manhattan %d (or a second one)", c.Count, c.Gap, c.Manhattan)
		}
		counts[at] = c.Count
		sum += c.Count
	}
	if sum != m.Members {
		return fmt.Errorf("layer counts of %d boards, but %d members", sum, m.Members)
	}
	levels := len(m.Runs)
	for j, rs := range m.Runs {
		for d, r := range rs {
			at := [2]int{2 * j, d - 2*j}
			c := counts[at]
			delete(counts, at)
			switch {
			case r.N > 0 && (!canonical && r.N != c || canonical && (c < r.N || c > 2*r.N)):
				return fmt.Errorf("level %d's layer at step %d: a run of %d boards, but its count is %d", j, d, r.N, c)
			case r.N == 0 && c > 0 && (keepAll || statedir.Needed(levels, j, d, m.Step, false)):
				return fmt.Errorf("level %d's layer at step %d: no run, but its count is %d", j, d, c)
			}
		}
	}
	for at, c := range counts {
		return fmt.Errorf("layer count %d of gap %d, Manhattan %d: a layer the runs do not have", c, at[0], at[1])
	}
	return nil
}

func (e *streamer) record(l parts) partsRecord {
	rec := partsRecord{N: l.n}
	for p, r := range l.runs {
		if r.path != "" {
			rec.Parts = append(rec.Parts, runRecord{P: p, Name: filepath.Base(r.path), N: r.n, Bytes: r.bytes, Delta: r.delta, Cells: r.cells, Sum: r.sum})
		}
	}
	return rec
}

// fromRecord is the split run a record names; width is its keys'.
func (e *streamer) fromRecord(rec partsRecord, bits, width int) (parts, error) {
	if len(rec.Parts) == 0 && rec.N == 0 {
		return parts{}, nil
	}
	l := parts{runs: make([]run, 1<<partBits(bits, width)), n: rec.N}
	var n int64
	for _, r := range rec.Parts {
		if r.P >= len(l.runs) || l.runs[r.P].path != "" {
			return l, statedir.Damaged(e.state, "the manifest names part %d of %s twice or out of range", r.P, r.Name)
		}
		if r.Cells != 0 && (!r.Delta || r.Cells != e.g.N || width != 4*e.g.N) {
			return l, statedir.Damaged(e.state, "the manifest says %s is coded for boards of %d cells", r.Name, r.Cells)
		}
		l.runs[r.P] = e.track(run{path: filepath.Join(e.state, r.Name), n: r.N, bytes: r.Bytes, delta: r.Delta, cells: r.Cells, sum: r.Sum})
		n += r.N
	}
	if n != rec.N {
		return l, statedir.Damaged(e.state, "the manifest's parts of %d keys make a run of %d", n, rec.N)
	}
	return l, nil
}

// checkpoint writes the manifest of the state after step (atomically, so a
// stop at any moment leaves the previous one or this one), then removes the
// runs that state no longer needs.
func (e *streamer) checkpoint(res *Result, step int, done bool) error {
	if e.state == "" {
		return nil
	}
	// A checkpoint is due when the interval has passed, or when the runs
	// kept only for the last one hold more than an eighth of the disk the
	// run uses: they bound what checkpointing adds to the peak.
	if time.Since(e.lastCP) < e.cfg.CheckpointEvery && e.droppedBytes <= (e.du.Now()-e.droppedBytes)/8 {
		return nil
	}
	e.lastCP = time.Now()
	tables, err := e.checkpointTables() // before the manifest takes the sequence number
	if err != nil {
		return err
	}
	m := newManifest(e.cfg)
	m.Tables = tables
	m.Step, m.Done, m.Seq, m.Spills, m.Peak, m.Members = step, done, e.seq, e.spills, e.du.Peak(), e.members
	m.Elapsed, m.CPU = time.Since(e.start), sysprobe.ProcessCPU()-e.cpu0
	_, rss := sysprobe.Memory()
	m.RSS = max(rss, e.rss0)
	m.Counts, m.PrefixBits, m.ProjectionBits = res.Layers, e.bits, e.pbits
	for _, layers := range e.layers {
		var rs []partsRecord
		for _, l := range layers {
			rs = append(rs, e.record(l))
		}
		m.Runs = append(m.Runs, rs)
	}
	m.Proj = map[int][]partsRecord{}
	for s, ts := range e.proj {
		for _, t := range ts {
			rec := e.record(t.parts)
			rec.Tier = t.tier
			if s.IsLast(e.g.N) {
				m.Proj[s.Len()] = append(m.Proj[s.Len()], rec)
				continue
			}
			if m.SetProj == nil {
				m.SetProj = map[string][]partsRecord{}
			}
			m.SetProj[s.Hex()] = append(m.SetProj[s.Hex()], rec)
		}
	}
	b, err := statedir.Seal(checkpointFormat, &m)
	if err != nil {
		return err
	}
	// The runs the manifest names reach the disk before it does.
	for _, p := range e.fresh {
		if err := atomicfile.Sync(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	e.fresh = e.fresh[:0]
	if err := atomicfile.SyncDir(e.state); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(e.state, manifestName), b); err != nil {
		return err
	}
	e.retireTables(m.Tables)
	e.removeDropped()
	e.pin()
	return nil
}

// pin records the run files of the state just saved: dropping one of them
// must wait for the next manifest; any other state run goes at once.
func (e *streamer) pin() {
	e.pinned = map[string]bool{}
	add := func(ps parts) {
		for _, r := range ps.runs {
			if r.path != "" {
				e.pinned[r.path] = true
			}
		}
	}
	for _, layers := range e.layers {
		for _, l := range layers {
			add(l)
		}
	}
	for _, ts := range e.proj {
		for _, t := range ts {
			add(t.parts)
		}
	}
}

// removeDropped deletes the runs dropped since the last manifest: until it
// was written they were part of the state to resume from.
func (e *streamer) removeDropped() {
	e.diskMu.Lock()
	defer e.diskMu.Unlock()
	for _, r := range e.dropped {
		os.Remove(r.path)
		e.du.Remove(r.bytes)
	}
	e.dropped, e.droppedBytes = e.dropped[:0], 0
}

// resume loads the checkpoint's state into the streamer and returns the
// step to continue after, or -1 when there is nothing to resume.
func (e *streamer) resume(res *Result) (int, error) {
	want := newManifest(e.cfg)
	m, ok, err := readManifest(e.state)
	if err != nil {
		return -1, err
	}
	if ok {
		if err := checkMatch(e.state, m, want); err != nil {
			return -1, err
		}
	}
	if !ok { // no checkpoint yet: what a run stopped before its first left goes
		return -1, prune(e.state, m, false)
	}
	// Everything is checked before anything is removed: a refused
	// checkpoint is left as it was.
	if m.PrefixBits < 0 || m.PrefixBits > maxPrefixBits || m.ProjectionBits < 0 || m.ProjectionBits > maxPrefixBits {
		return -1, statedir.Damaged(e.state, "the manifest's prefix bits %d/%d", m.PrefixBits, m.ProjectionBits)
	}
	if err := m.checkShape(e.cfg, e.g.N); err != nil {
		return -1, statedir.Damaged(e.state, "the manifest's %v", err)
	}
	if err := m.checkCounts(e.tr != nil, slices.Contains(e.cfg.Cells, e.g.N) && e.tr == nil); err != nil {
		return -1, statedir.Damaged(e.state, "the manifest's %v", err)
	}
	if err := checkRuns(e.state, m); err != nil {
		return -1, err
	}
	// The checkpoint's splitting is the layout of its runs.
	e.bits, e.pbits = m.PrefixBits, m.ProjectionBits
	e.seq, e.spills, e.members, e.rss0 = m.Seq, m.Spills, m.Members, m.RSS
	e.start = e.start.Add(-m.Elapsed)
	e.cpu0 -= m.CPU
	res.Layers = m.Counts
	e.layers = make([][]parts, len(m.Runs))
	for j, rs := range m.Runs {
		for _, r := range rs {
			l, err := e.fromRecord(r, e.bits, 4*e.g.N)
			if err != nil {
				return -1, err
			}
			e.layers[j] = append(e.layers[j], l)
		}
	}
	e.proj = map[encode.CellSet][]tiered{}
	add := func(s encode.CellSet, rs []partsRecord) error {
		for _, r := range rs {
			l, err := e.fromRecord(r, e.pbits, 4*s.Len())
			if err != nil {
				return err
			}
			e.proj[s] = append(e.proj[s], tiered{l, r.Tier})
		}
		return nil
	}
	for k, rs := range m.Proj {
		if err := add(encode.LastCells(e.g.N, k), rs); err != nil {
			return -1, err
		}
	}
	for hex, rs := range m.SetProj {
		s, _ := parseHexSet(hex) // checked by checkShape
		if err := add(s, rs); err != nil {
			return -1, err
		}
	}
	// The checkpoint's tables, checked whole: its choice of tables or
	// runs stands, whatever this run's Config.Tables says.
	e.tables = map[encode.CellSet]*Bits{}
	for hex, rec := range m.Tables {
		s, _ := parseHexSet(hex) // checked by checkShape
		if len(e.proj[s]) > 0 {
			return -1, statedir.Damaged(e.state, "the manifest names both runs and a table of the projection onto %s", s)
		}
		b, err := e.readTable(s, rec)
		if err != nil {
			return -1, err
		}
		e.tables[s] = b
	}
	e.tableFiles = m.Tables
	// The layers' keys are boards (a run passes its checksum only as
	// written, but the expansion must never see anything else): checked
	// here once, so a fresh run's steps pay nothing for it.
	for _, ls := range e.layers {
		for _, l := range ls {
			for _, r := range l.runs {
				if r.n == 0 {
					continue
				}
				if err := forEachChunk(r, 1<<14, e.g.checkBoards); err != nil {
					return -1, statedir.Damaged(e.state, "%s: %v", filepath.Base(r.path), err)
				}
			}
		}
	}
	// Checked whole: the runs of the step that did not complete go.
	if err := prune(e.state, m, true); err != nil {
		return -1, err
	}
	e.du.Resume(m.Peak)
	e.pin()
	if e.cfg.OnResume != nil {
		e.cfg.OnResume(Resumed{Dir: e.state, Step: m.Step, Done: m.Done, Members: m.Members, Elapsed: m.Elapsed})
	}
	if m.Done {
		return m.Step, errDone
	}
	return m.Step, nil
}

// errDone is resume's word that every layer was found before the stop.
var errDone = errors.New("enumeration done; outputs pending")

// checkShape refuses a manifest whose runs do not fit its step: one layer a
// step for every level, projections only of the cells asked for.
func (m manifest) checkShape(cfg Config, n int) error {
	levels := cfg.MaxGap/2 + 1
	if m.Step < 0 || len(m.Runs) != levels {
		return fmt.Errorf("step %d with %d levels, want %d", m.Step, len(m.Runs), levels)
	}
	for j, rs := range m.Runs {
		if len(rs) != m.Step+1 {
			return fmt.Errorf("level %d has %d layers after step %d", j, len(rs), m.Step)
		}
	}
	for k := range m.Proj {
		if k > n || k == n && !m.Transpose || !slices.Contains(cfg.Cells, k) {
			return fmt.Errorf("projection onto %d cells not asked for", k)
		}
	}
	for hex := range m.SetProj {
		if s, err := parseHexSet(hex); err != nil || !slices.Contains(cfg.Sets, s) {
			return fmt.Errorf("projection onto the cell set %q not asked for", hex)
		}
	}
	for hex, t := range m.Tables {
		s, err := parseHexSet(hex)
		if err != nil || !slices.Contains(cfg.Projections(), s) || s.Len() >= n {
			return fmt.Errorf("table of the cell set %q not asked for", hex)
		}
		if t.Name == "" || strings.ContainsAny(t.Name, `/\`) || t.Name == manifestName || statedir.Keep(t.Name) {
			return fmt.Errorf("table file name %q", t.Name)
		}
	}
	return nil
}

// parseHexSet reads a cell set's four hex digits (encode.CellSet.Hex).
func parseHexSet(hex string) (encode.CellSet, error) {
	v, err := strconv.ParseUint(hex, 16, 16)
	if err != nil || len(hex) != 4 || encode.CellSet(v).Hex() != hex {
		return 0, fmt.Errorf("%q is not a cell set", hex)
	}
	return encode.CellSet(v), nil
}

// checkCount refuses a key-set file whose count does not agree with the
// layer counts (recorded as each layer was found, want of them projected):
// the whole board's must be want (the layers are disjoint), a projection's
// at most want. It runs before the file takes its name.
func (e *streamer) checkCount(s encode.CellSet, merged, want int64) error {
	if merged == want || merged < want && s.Len() != e.g.N {
		return nil
	}
	if e.state != "" {
		return statedir.Damaged(e.state, "the layers hold %d boards, the %d-cell file %d", want, s.Len(), merged)
	}
	return fmt.Errorf("the layers hold %d boards, the %d-cell file %d: not written", want, s.Len(), merged)
}

// projectedMembers is how many boards of layers the key-set files hold:
// every level's, or with Exact the last level's.
func (c Config) projectedMembers(layers []LayerCount) int64 {
	var n int64
	for _, l := range layers {
		if !c.Exact || l.Gap == c.MaxGap {
			n += l.Count
		}
	}
	return n
}
