package gapset

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/gapset/gapset/internal/sysprobe"
	"github.com/gapset/gapset/keyset"
)

// Config describes a streaming enumeration (Enumerate).
type Config struct {
	Rows, Cols int
	MaxGap     int   // even: 0 for G0, 2 for the gap <= 2 set, ...
	Exact      bool  // write only the members whose gap equals MaxGap
	Cells      []int // projections to write: the last k cells (k = Rows*Cols: whole boards)
	// Sets are projections onto cell sets that are not the last cells
	// (keys gathered: encode.Projector; keyset.Header.CellSet): written
	// beside Cells', from the same layers.
	Sets    []encode.CellSet
	Dir     string                    // key-set files go here, named by Header.Name + ".keys"
	Paths   map[encode.CellSet]string // optional: the file for the projection onto these cells instead
	TempDir string                    // scratch runs; default: a fresh directory inside Dir
	// Memory is the budget in bytes for the two big work buffers (a
	// generation/sort buffer and its sort scratch); default 4 GiB. Layers
	// whose candidates do not fit are sorted in pieces and merged from disk.
	Memory  int64
	Workers int // default GOMAXPROCS
	// MaxStep > 0 stops after that many reverse moves and writes no
	// key-set file (the layers found are counted: calibration runs).
	MaxStep int
	// RawRuns keeps scratch runs as 8 bytes per key instead of delta-coded
	// (uvarint differences: a fraction of the disk for a little CPU).
	RawRuns bool
	// RankRuns codes the runs of whole boards by rank (rankcode.go): about
	// 40% less disk for their layers than key differences, for about 20%
	// more CPU. Runs of a checkpoint keep the coding they were written in.
	RankRuns bool
	// Packed writes the key-set files delta-coded (keyset format version
	// 2): 2-5 bytes per key instead of 8.
	Packed bool
	// Tables keeps every projection below the whole board (up to
	// MaxApproxBytes) as a bit table of its patterns in memory instead of
	// runs on the disk (projtable.go): the same key-set files, no
	// projection runs, the tables written whole at each checkpoint. A
	// resumed run keeps its checkpoint's choice.
	Tables bool
	// Transpose enumerates one configuration of each transposed pair on a
	// square board (transpose.go): half the layers' keys, the same
	// key-set files. Other boards ignore it (their transpose is another
	// board). A checkpoint records it: a resumed run keeps its mode.
	Transpose bool
	// PrefixBits is the number of top key bits that part every layer
	// and projection run (at most 8; default DefaultPrefixBits, -1: one
	// part). A resumed run keeps its checkpoint's.
	PrefixBits int
	Progress   func(Progress)
	// Checkpoint, when set, is the directory where the run keeps its state
	// after every step (CheckpointName inside the output directory, for
	// the command) and resumes from when it holds a checkpoint of the same
	// enumeration; it is removed once the key-set files are written.
	// Runs with MaxStep keep none.
	Checkpoint string
	// CheckpointEvery is the least time between two checkpoints: a step
	// that ends sooner after the last one writes none (small layers are
	// cheaper to find again than to sync). 0: after every step.
	CheckpointEvery time.Duration
	// Fresh discards the checkpoint there and starts over.
	Fresh bool
	// OnResume is told where a resumed run continues from.
	OnResume func(Resumed)
	// Base, when set, layers the enumeration by a base heuristic h in
	// Manhattan distance's place: the sets are the residual sets R<=2j
	// (optimum - h at most 2j; base.go), their files and checkpoint record
	// the base's ID, and a checkpoint of another base is refused. Transpose
	// needs a symmetric base. nil (or ManhattanBase): the gap sets.
	Base Base
}

// SoftMemoryLimit is the Go memory limit (debug.SetMemoryLimit) for an
// Enumerate run with this budget. The buffers grow by doubling and hold no
// pointers: a soft limit a little above the budget makes the collector
// free the old copies cheaply (a gap <= 4 run with a budget of 8 GiB
// reached 17 GiB without it).
// Projection tables (Tables) are live on top.
func (c Config) SoftMemoryLimit() int64 { return c.Memory + c.Memory/4 + 1<<30 + c.TableBytes() }

// LayerCount is the size of one finished layer.
type LayerCount struct {
	Gap       int   `json:"gap"`
	Manhattan int   `json:"manhattan"`
	Count     int64 `json:"count"`
}

// OutputFile is one key-set file written by Enumerate.
type OutputFile struct {
	Cells   int    `json:"cells"`
	CellSet string `json:"cell_set,omitempty"` // the cells when not the last Cells ("0-3+8-11")
	Name    string `json:"name"`
	Path    string `json:"path"`
	Count   uint64 `json:"count"`
}

// outputFile describes the file at path of header h holding n keys.
func outputFile(h keyset.Header, path string, n uint64) OutputFile {
	o := OutputFile{Cells: h.Cells, Name: h.Name(), Path: path, Count: n}
	if h.CellSet != 0 {
		o.CellSet = h.CellSet.String()
	}
	return o
}

// Result summarises a streaming enumeration.
type Result struct {
	Rows     int           `json:"rows"`
	Cols     int           `json:"cols"`
	MaxGap   int           `json:"gap"`
	Exact    bool          `json:"exact"`
	Base     string        `json:"base,omitempty"` // the base heuristic's spec (residual sets; Config.Base)
	Layers   []LayerCount  `json:"layers"`
	Members  int64         `json:"members"` // configurations enumerated (all gaps up to MaxGap)
	Outputs  []OutputFile  `json:"outputs"`
	Elapsed  time.Duration `json:"-"`
	CPU      time.Duration `json:"-"`               // user + system time of the process during the run
	PeakRSS  uint64        `json:"peak_rss_bytes"`  // VmHWM of the process
	PeakDisk int64         `json:"peak_disk_bytes"` // scratch runs alive at once, at most
	Spills   int           `json:"spills"`          // candidate pieces sorted and spilled because a layer did not fit
}

// Enumerate enumerates the configurations with gap at most cfg.MaxGap layer
// by layer, keeping at most the work buffers in memory and everything else
// in sorted runs on disk, and writes one key-set file per projection in
// cfg.Cells into cfg.Dir (named by Header.Name with extension .keys).
func Enumerate(ctx context.Context, cfg Config) (Result, error) {
	return enumerate(ctx, cfg, 1<<20)
}

// enumerate is Enumerate with the input chunk size as a parameter (tests
// make it tiny to exercise the spilling paths on small boards).
func enumerate(ctx context.Context, cfg Config, inChunk int) (Result, error) {
	return enumerateWith(ctx, cfg, inChunk, nil)
}

// enumerateWith is enumerate that shows every finished layer to onLayer.
func enumerateWith(ctx context.Context, cfg Config, inChunk int, onLayer func(j, d int, l parts)) (Result, error) {
	if err := cfg.Check(); err != nil {
		return Result{}, err
	}
	g, _ := cfg.check()
	if cfg.Base != nil {
		g = g.withBase(cfg.Base)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if cfg.Memory == 0 {
		cfg.Memory = 4 << 30
	}
	if cfg.Workers <= 0 {
		cfg.Workers = defaultWorkers()
	}
	if cfg.Dir == "" {
		cfg.Dir = "."
	}
	tmp, err := atomicfile.MkdirTemp(cfg.ScratchDir(), ScratchName)
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(tmp)
	e := &streamer{cfg: cfg, g: g, ctx: ctx, tmp: tmp, start: time.Now(), cpu0: sysprobe.ProcessCPU(), workers: cfg.Workers, inChunk: inChunk,
		bits: cfg.prefixBits(), onLayer: onLayer, tr: cfg.transposer()}
	e.pbits = min(e.bits, projectionPrefixBits)
	if cfg.Checkpoint != "" && cfg.MaxStep <= 0 {
		// A clean path: run files are told from scratch by their directory.
		cfg.Checkpoint = filepath.Clean(cfg.Checkpoint)
		unlock, err := openCheckpoint(cfg.Checkpoint)
		if err != nil {
			return Result{}, err
		}
		defer unlock()
		if cfg.Fresh { // only the holder of the lock may discard the state
			if err := prune(cfg.Checkpoint, manifest{}, false); err != nil {
				return Result{}, err
			}
		}
		e.state, e.lastCP = cfg.Checkpoint, time.Now()
	}
	// Two buffers of wn keys; at least enough for one input chunk's successors.
	e.wn = max(int(cfg.Memory/16), 8*inChunk)
	res, err := e.run()
	e.work, e.scratch = nil, nil
	return res, err
}

type streamer struct {
	cfg     Config
	g       *geometry
	ctx     context.Context
	tmp     string
	start   time.Time
	cpu0    time.Duration
	workers int
	inChunk int // keys of an input layer expanded at a time
	bits    int // prefix bits of the layers' parts (whole-board keys)
	pbits   int // prefix bits of the projection runs' parts
	// onLayer, when set, sees every finished layer (tests).
	onLayer func(j, d int, l parts)
	// tr, when set, makes the layers canonical (transpose.go).
	tr *transposer
	// state is the checkpoint directory ("" for none): layer and
	// projection runs live there, and dropped ones stay until the next
	// manifest no longer names them.
	state         string
	fresh         []string // state runs written since the last checkpoint (to sync)
	dropped       []run
	droppedBytes  int64
	pinned        map[string]bool // the run files the last manifest names
	rss0          uint64          // peak RSS of the earlier processes of a resumed run
	lastCP        time.Time       // when the last checkpoint was written
	wn            int
	work, scratch []uint64
	seq           int
	// du counts the run files on the disk (each from when it is closed;
	// parts are counted as they finish, on whichever worker); diskMu
	// guards the runs dropped but pinned by the last manifest.
	du      statedir.Disk
	diskMu  sync.Mutex
	members int64
	spills  int
	// layers[j][d]: level j's layer at step d (no parts when empty).
	layers [][]parts
	// proj[s]: the runs projected onto the cells of s waiting for the
	// final merge, with their compaction tiers.
	proj map[encode.CellSet][]tiered
	// tables[s]: the projection onto s as a bit table (Config.Tables);
	// tableFiles: their files named by the last manifest.
	tables     map[encode.CellSet]*Bits
	tableFiles map[string]tableRecord
}

// transposer is the canonical enumerator's transposer: set when the
// configuration asks for it on a square board.
func (c Config) transposer() *transposer {
	if !c.Transpose {
		return nil
	}
	return newTransposer(c.Rows, c.Cols)
}

// prefixBits is the splitting the configuration asks for.
func (c Config) prefixBits() int {
	switch {
	case c.PrefixBits == 0:
		return DefaultPrefixBits
	case c.PrefixBits < 0:
		return 0
	}
	return min(c.PrefixBits, maxPrefixBits)
}

// need makes the work buffer hold at least n keys (n <= wn), keeping its
// first keep keys. Buffers grow on demand, so small boards stay small.
func (e *streamer) need(n, keep int) {
	if cap(e.work) >= n {
		e.work = e.work[:cap(e.work)]
		return
	}
	w := make([]uint64, min(e.wn, max(n, 2*cap(e.work))))
	copy(w, e.work[:keep])
	e.work = w
}

// sortWork sorts a (a prefix of the work buffer) with the scratch buffer.
func (e *streamer) sortWork(a []uint64, width int) {
	if len(e.scratch) < len(a) && len(a) >= 1<<16 {
		n := min(e.wn, max(len(a), 2*len(e.scratch)))
		e.scratch = nil // let the old one go first
		e.scratch = make([]uint64, n)
	}
	sortKeys(a, e.scratch, width, e.workers)
}

func (e *streamer) track(r run) run {
	e.du.Add(r.bytes)
	return r
}

func (e *streamer) drop(r run) {
	e.diskMu.Lock()
	defer e.diskMu.Unlock()
	switch {
	case r.path == "":
	case e.pinned[r.path]:
		// Named by the last manifest: kept until the next one is written.
		e.dropped = append(e.dropped, r)
		e.droppedBytes += r.bytes
	default:
		os.Remove(r.path)
		e.du.Remove(r.bytes)
	}
}

func (e *streamer) report(p Progress) {
	if e.cfg.Progress == nil {
		return
	}
	p.Elapsed = time.Since(e.start)
	p.RSS, p.PeakRSS = sysprobe.Memory()
	p.Members = e.members
	e.cfg.Progress(p)
}

func (e *streamer) run() (Result, error) {
	g := e.g
	levels := e.cfg.MaxGap/2 + 1
	res := Result{Rows: e.cfg.Rows, Cols: e.cfg.Cols, MaxGap: e.cfg.MaxGap, Exact: e.cfg.Exact, Base: baseID(e.cfg.Base).Spec}
	finished := func(j, d int, r parts, inWork []uint64) error {
		if e.onLayer != nil {
			e.onLayer(j, d, r)
		}
		members := r.n
		if e.tr != nil {
			members = 2*r.n - r.self
		}
		e.members += members
		if r.n > 0 {
			res.Layers = append(res.Layers, LayerCount{Gap: 2 * j, Manhattan: d - 2*j, Count: members})
		}
		e.report(Progress{Gap: 2 * j, Manhattan: d - 2*j, Step: d, Layer: members, Phase: "layer"})
		if e.cfg.Exact && j != levels-1 || r.n == 0 {
			return nil
		}
		return e.project(r, inWork)
	}
	last, done := 0, false
	if e.state != "" {
		var err error
		last, err = e.resume(&res)
		done = err == errDone
		if err != nil && !done {
			return res, err
		}
	}
	if last < 0 || e.state == "" {
		last = 0
		e.layers = make([][]parts, levels)
		e.proj = map[encode.CellSet][]tiered{}
		e.keepTables()
		a := []uint64{g.goal}
		goal, _, err := e.writeParts(a, partBounds(a, 4*g.N, e.bits), e.partsBase("L0-0"), e.coding(4*g.N), nil)
		if err != nil {
			return res, err
		}
		goal.self = 1 // the goal is its own transpose
		e.layers[0] = append(e.layers[0], goal)
		for j := 1; j < levels; j++ {
			e.layers[j] = append(e.layers[j], parts{})
		}
		if err := finished(0, 0, goal, nil); err != nil {
			return res, err
		}
	}
	for d := last + 1; !done && (e.cfg.MaxStep <= 0 || d <= e.cfg.MaxStep); d++ {
		if err := e.ctx.Err(); err != nil {
			return res, err
		}
		found := false
		for j := 0; j < levels; j++ {
			r, inWork, err := e.step(j, d)
			if err != nil {
				return res, err
			}
			e.layers[j] = append(e.layers[j], r)
			if r.n > 0 {
				found = true
			}
			if err := finished(j, d, r, inWork); err != nil {
				return res, err
			}
		}
		// Layers no longer needed: level j at step d-1 fed step d; level i
		// layers serve subtraction until step s + 2(levels-1-i). Whole-board
		// output needs them all until the end, unless they are canonical
		// (its runs are then projections holding both members).
		if !slices.Contains(e.cfg.Cells, g.N) || e.tr != nil {
			for i := 0; i < levels; i++ {
				for s := range e.layers[i] {
					if !statedir.Needed(levels, i, s, d, false) && e.layers[i][s].runs != nil {
						e.dropParts(e.layers[i][s])
						e.layers[i][s] = parts{}
					}
				}
			}
		}
		if err := e.checkpoint(&res, d, !found); err != nil {
			return res, err
		}
		if !found {
			break
		}
	}
	if e.cfg.MaxStep <= 0 {
		if err := e.finish(&res); err != nil {
			return res, err
		}
		if e.state != "" {
			// The key-set files are in place: the state has served. It is
			// renamed away in one step first, so that a stop while it is
			// removed never leaves a manifest naming files already gone.
			e.dropped = nil
			if err := atomicfile.Retire(e.state); err != nil {
				return res, err
			}
		}
	}
	res.Members = e.members
	res.Elapsed = time.Since(e.start)
	res.CPU = sysprobe.ProcessCPU() - e.cpu0
	_, res.PeakRSS = sysprobe.Memory()
	res.PeakRSS = max(res.PeakRSS, e.rss0)
	res.PeakDisk = e.du.Peak()
	res.Spills = e.spills
	return res, nil
}

// step builds level j's layer at step d: the input layers' parts
// are expanded in parallel into the work buffer; when it fills, its keys
// are sorted and spilled as a piece per target part. Each target
// part is then finished on its own, in parallel: de-duplicated (its
// pieces merged), the same part of the lower levels' layers at this
// Manhattan distance subtracted, and written. When the whole layer fitted
// in the work buffer step also returns it there (sorted), for projecting
// without reading it back.
func (e *streamer) step(j, d int) (parts, []uint64, error) {
	g := e.g
	width := 4 * g.N
	np := 1 << e.bits
	var in []expandTask
	add := func(l parts, raise bool) {
		for _, r := range l.runs {
			if r.n > 0 {
				in = append(in, expandTask{r, raise})
			}
		}
	}
	add(e.layers[j][d-1], true)
	if j > 0 {
		add(e.layers[j-1][d-1], false)
	}
	fill := 0
	pieces := make([][]run, np)
	flush := func() error {
		a := e.work[:fill]
		e.sortWork(a, width)
		ps, _, err := e.writeParts(a, partBounds(a, width, e.bits), e.partsBase(statedir.Candidates(j, d)), e.coding(width), nil)
		for p, r := range ps.runs {
			if r.n > 0 {
				pieces[p] = append(pieces[p], r)
			}
		}
		e.spills++
		fill = 0
		return err
	}
	x := newExpander(g, e.tr, in, e.workers, e.inChunk)
	defer x.close()
	for x.left > 0 {
		if fill > 0 && int64(e.wn-fill)/4 < min(x.left, int64(e.inChunk)) {
			if err := flush(); err != nil {
				return parts{}, nil, err
			}
		}
		// A batch expands at most an input chunk: the buffer grows as the
		// children come, not by the bound of four per key.
		in := min(x.left, int64(e.inChunk))
		e.need(int(min(int64(e.wn), int64(fill)+4*in)), fill)
		var err error
		if fill, err = x.batch(e.work, fill, int(in)); err != nil {
			return parts{}, nil, err
		}
		if err := e.ctx.Err(); err != nil {
			return parts{}, nil, err
		}
		if err := g.baseErr(); err != nil {
			return parts{}, nil, err
		}
	}
	x.close()
	// Lower-gap layers with the same Manhattan distance are removed,
	// part by part.
	var lower []parts
	for i := 0; i < j; i++ {
		if s := statedir.LowerStep(i, j, d); s >= 0 && e.layers[i][s].n > 0 {
			lower = append(lower, e.layers[i][s])
		}
	}
	var self atomic.Int64 // canonical: the self-transposed keys kept
	subtractor := func(p int) (func([]uint64) ([]uint64, error), func(), error) {
		var subs []*subtractor
		done := func() {
			for _, s := range subs {
				s.close()
			}
		}
		for _, l := range lower {
			if p < len(l.runs) && l.runs[p].n > 0 {
				sb, err := newSubtractor(l.runs[p])
				if err != nil {
					done()
					return nil, nil, err
				}
				subs = append(subs, sb)
			}
		}
		return func(a []uint64) ([]uint64, error) {
			var err error
			for _, s := range subs {
				if a, err = s.apply(a); err != nil {
					return nil, err
				}
			}
			if e.tr != nil {
				e.tr.selfCount(a, &self)
			}
			return a, nil
		}, done, nil
	}
	base := e.partsBase(statedir.Layer(j, d))
	if len(slices.Concat(pieces...)) == 0 {
		a := e.work[:fill]
		e.sortWork(a, width)
		l, n, err := e.writeParts(a, partBounds(a, width, e.bits), base, e.coding(width), func(p int, seg []uint64) ([]uint64, error) {
			keep, done, err := subtractor(p)
			if err != nil {
				return nil, err
			}
			defer done()
			return keep(seg)
		})
		l.self = self.Load()
		return l, a[:n], err
	}
	if fill > 0 {
		if err := flush(); err != nil {
			return parts{}, nil, err
		}
	}
	l, err := e.mergeParts(pieces, base, e.coding(width), max(1<<10, (1<<16)/e.workers), subtractor)
	for _, ps := range pieces {
		for _, r := range ps {
			e.drop(r)
		}
	}
	l.self = self.Load()
	return l, nil, err
}

// project adds the layer's projections (cells below the whole board, and
// the cell sets) to the runs waiting for the final merge. inWork, when set,
// is the layer itself in the work buffer; otherwise the layer is read back,
// as many parts at a time as the buffer holds, each on a worker. A
// canonical layer's keys are projected with their transposes (the whole
// board too: its file is then merged from these runs), so a chunk takes
// twice its keys in the buffer; cell sets are gathered into the buffer
// after the chunk, which takes twice again.
func (e *streamer) project(l parts, inWork []uint64) error {
	n := e.g.N
	var ks []int
	for _, k := range e.cfg.Cells {
		if k < n || e.tr != nil {
			ks = append(ks, k)
		}
	}
	// Largest first: a set inside the one before it is gathered from that
	// one's de-duplicated keys, not from the whole chunk.
	sets := slices.Clone(e.cfg.Sets)
	slices.SortStableFunc(sets, func(x, y encode.CellSet) int { return y.Len() - x.Len() })
	if len(ks)+len(sets) == 0 {
		return nil
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ks))) // nested: project 12, then 10 from that, ...
	// The keys a chunk may hold.
	grow := 1
	if e.tr != nil {
		grow *= 2 // the transposes
	}
	if len(sets) > 0 {
		grow *= 2 // the gathered copy
	}
	limit := e.wn / grow
	if grow*len(inWork) > e.wn {
		inWork = nil // no room: read back in chunks
	}
	emit := func(s encode.CellSet, a []uint64) (int, error) {
		width := 4 * s.Len()
		e.sortWork(a, width)
		if b := e.tables[s]; b != nil {
			a = dedup(a)
			return len(a), e.addSorted(b, a)
		}
		pr, m, err := e.writeParts(a, partBounds(a, width, partBits(e.pbits, width)), e.partsBase(projectionName(s, n, 0)), e.coding(width), nil)
		if err != nil {
			return 0, err
		}
		return m, e.addProjection(s, pr)
	}
	doChunk := func(a []uint64) error {
		if e.tr != nil { // a is a prefix of the work buffer
			m := len(a)
			e.need(2*m, m)
			a = e.work[:2*m]
			e.mirrorAll(a[:m], a[m:])
		}
		// Cell sets first, each gathered into the buffer after the whole
		// keys (from them, or in place from the set before when it holds
		// this one); then the last cells, masked in place.
		var prev encode.CellSet
		kept := 0 // prev's keys, de-duplicated, after the whole keys
		for _, s := range sets {
			m := len(a)
			e.need(2*m, m)
			a = e.work[:m]
			var b []uint64
			if prev != 0 && s&^prev == 0 {
				b = e.work[m : m+kept]
				e.gatherAll(b, b, s.Within(prev))
			} else {
				b = e.work[m : 2*m]
				e.gatherAll(a, b, s.Projector(n))
			}
			var err error
			if kept, err = emit(s, b); err != nil {
				return err
			}
			prev = s
		}
		for _, k := range ks {
			e.maskAll(a, encode.ProjectMask(k))
			m, err := emit(encode.LastCells(n, k), a)
			if err != nil {
				return err
			}
			a = a[:m]
		}
		return nil
	}
	if inWork != nil {
		return doChunk(inWork)
	}
	// Parts go into the buffer whole, read in parallel; one bigger
	// than the buffer is read in buffer-sized pieces.
	var batch []int
	fill := 0
	readBatch := func() error {
		if len(batch) == 0 {
			return nil
		}
		e.need(fill, 0)
		offs := make([]int, len(batch)+1)
		sizes := make([]int64, len(batch))
		for i, p := range batch {
			offs[i+1] = offs[i] + int(l.runs[p].n)
			sizes[i] = l.runs[p].n
		}
		err := e.each(bySize(sizes), func(i int) error {
			return readInto(l.runs[batch[i]], e.work[offs[i]:offs[i+1]], 1<<14)
		})
		if err == nil {
			err = doChunk(e.work[:fill])
		}
		batch, fill = batch[:0], 0
		return err
	}
	for p, r := range l.runs {
		if r.n == 0 {
			continue
		}
		if fill+int(r.n) > limit {
			if err := readBatch(); err != nil {
				return err
			}
		}
		if int(r.n) <= limit {
			batch = append(batch, p)
			fill += int(r.n)
			continue
		}
		err := forEachChunk(r, e.inChunk, func(keys []uint64) error {
			if fill+len(keys) > limit {
				if err := doChunk(e.work[:fill]); err != nil {
					return err
				}
				fill = 0
			}
			e.need(fill+len(keys), fill)
			fill += copy(e.work[fill:], keys)
			return nil
		})
		if err == nil && fill > 0 {
			err = doChunk(e.work[:fill])
		}
		if err != nil {
			return err
		}
		fill = 0
	}
	return readBatch()
}

// mirrorAll writes the transpose of each key of a into out (in parallel).
func (e *streamer) mirrorAll(a, out []uint64) {
	e.inSegments(len(a), func(lo, hi int) { e.tr.mirrorAll(a[lo:hi], out[lo:hi]) })
}

// inSegments calls f on the segments [lo, hi) of 0..n, 2^18 keys each, on
// the workers.
func (e *streamer) inSegments(n int, f func(lo, hi int)) {
	const seg = 1 << 18
	order := make([]int, (n+seg-1)/seg)
	for i := range order {
		order[i] = i
	}
	e.each(order, func(i int) error {
		f(i*seg, min(n, (i+1)*seg))
		return nil
	})
}

// gatherAll writes the projection of each key of a onto p's cells into
// out (in parallel).
func (e *streamer) gatherAll(a, out []uint64, p encode.Projector) {
	e.inSegments(len(a), func(lo, hi int) {
		for x, k := range a[lo:hi] {
			out[lo+x] = p.Gather(k)
		}
	})
}

// projectionName names the runs of the projection onto s (of an n-cell
// board) of compaction tier t.
func projectionName(s encode.CellSet, n, t int) string {
	if s.IsLast(n) {
		return statedir.Projection(s.Len(), t)
	}
	return statedir.ProjectionSet(s.Len(), uint16(s), t)
}

// maskAll keeps the bits of mask in every key of a (in parallel).
func (e *streamer) maskAll(a []uint64, mask uint64) {
	e.inSegments(len(a), func(lo, hi int) {
		b := a[lo:hi]
		for x := range b {
			b[x] &= mask
		}
	})
}

// tiered is a projection run and how many compactions built it.
type tiered struct {
	parts
	tier int
}

// compactFanIn runs of one tier are merged into one run of the next tier.
// Projections of different layers overlap (a k-cell pattern recurs at many
// Manhattan distances), so compaction keeps the scratch disk near the size
// of the final set, at the price of rewriting each key about log8(layers)
// times.
const compactFanIn = 8

func (e *streamer) addProjection(s encode.CellSet, r parts) error {
	e.proj[s] = append(e.proj[s], tiered{r, 0})
	for {
		runs := e.proj[s]
		t := runs[len(runs)-1].tier
		same := 0
		for i := len(runs) - 1; i >= 0 && runs[i].tier == t; i-- {
			same++
		}
		if same < compactFanIn {
			return nil
		}
		in := make([]parts, 0, same)
		for _, x := range runs[len(runs)-same:] {
			in = append(in, x.parts)
		}
		merged, err := e.mergeParts(partsOf(in), e.partsBase(projectionName(s, e.g.N, t+1)), e.coding(4*s.Len()), max(1<<10, (1<<15)/e.workers), nil)
		if err != nil {
			return err
		}
		for _, x := range in {
			e.dropParts(x)
		}
		e.proj[s] = append(runs[:len(runs)-same], tiered{merged, t + 1})
	}
}

// finish merges the runs of every projection into its key-set file,
// part after part: as many parts as the work buffer holds
// are merged at once, each on a worker, then written in order (the
// whole-board file is the layers' parts merged across layers).
func (e *streamer) finish(res *Result) error {
	// The sort scratch is not needed any more; the work buffer (no bigger
	// than the steps made it) holds merged parts.
	e.scratch = nil
	n := e.g.N
	levels := e.cfg.MaxGap/2 + 1
	type job struct {
		s     encode.CellSet
		parts [][]run
		size  int64
	}
	var jobs []job
	for _, s := range e.cfg.Projections() {
		var list []parts
		if s.Len() == n && e.tr == nil {
			for j := 0; j < levels; j++ {
				if e.cfg.Exact && j != levels-1 {
					continue
				}
				list = append(list, e.layers[j]...)
			}
		} else {
			for _, x := range e.proj[s] {
				list = append(list, x.parts)
			}
		}
		jb := job{s: s, parts: partsOf(list)}
		for _, l := range list {
			jb.size += l.n
		}
		if b := e.tables[s]; b != nil {
			jb.size = b.count
		}
		jobs = append(jobs, jb)
	}
	// One file at a time, smallest first, each dropping its runs when done:
	// that bounds the scratch disk.
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].size < jobs[b].size })
	budget := max(cap(e.work), min(e.wn, 1<<20))
	bufKeys := max(1<<10, (1<<15)/e.workers)
	var written int64
	// The files take their names together at the end: an interrupt finds
	// all of them in place or none.
	var files []*atomicfile.File
	defer func() {
		for _, f := range files {
			f.Abort() // a no-op once committed
		}
	}()
	for _, jb := range jobs {
		h := e.cfg.header(jb.s)
		path := e.cfg.OutputPathOf(jb.s)
		w, err := keyset.Create(path, h)
		if err != nil {
			return err
		}
		add := func(b []uint64) error {
			if err := e.ctx.Err(); err != nil {
				return err
			}
			if err := w.AddSorted(b); err != nil {
				return err
			}
			before := written
			written += int64(len(b))
			if written>>26 != before>>26 {
				e.report(Progress{Gap: e.cfg.MaxGap, Layer: written, Phase: "merge"})
			}
			return nil
		}
		if b := e.tables[jb.s]; b != nil {
			err = b.Each(add)
		} else {
			err = e.mergeInOrder(jb.parts, budget, bufKeys, add)
		}
		if err != nil {
			w.Abort()
			return err
		}
		cnt := w.Count()
		if err := e.checkCount(jb.s, int64(cnt), e.cfg.projectedMembers(res.Layers)); err != nil {
			w.Abort()
			return err
		}
		f, err := w.Finish()
		if err != nil {
			return err
		}
		files = append(files, f)
		for _, rs := range jb.parts {
			for _, r := range rs {
				e.drop(r)
			}
		}
		res.Outputs = append(res.Outputs, outputFile(h, path, cnt))
		e.report(Progress{Gap: e.cfg.MaxGap, Layer: int64(cnt), Phase: "wrote " + h.Name()})
	}
	e.work = nil
	sortOutputs(res.Outputs)
	return atomicfile.CommitAll(e.ctx, files...)
}

// sortOutputs lists the key-set files by count, smallest first, and files
// of equal count by their cells, fewest first: the order the summary gives
// whatever order they were written in (the cluster pipeline lists them the
// same way).
func sortOutputs(o []OutputFile) {
	sort.SliceStable(o, func(a, b int) bool {
		if o[a].Count != o[b].Count {
			return o[a].Count < o[b].Count
		}
		if o[a].Cells != o[b].Cells {
			return o[a].Cells < o[b].Cells
		}
		return o[a].CellSet < o[b].CellSet
	})
}

// mergeInOrder merges each part's runs and hands the keys to emit in
// part order: windows of consecutive parts whose runs hold at
// most budget keys are merged in parallel into the work buffer, then
// emitted; a part bigger than that is merged straight to emit.
func (e *streamer) mergeInOrder(byPart [][]run, budget, bufKeys int, emit func([]uint64) error) error {
	size := func(p int) (n int64) {
		for _, r := range byPart[p] {
			n += r.n
		}
		return n
	}
	for p := 0; p < len(byPart); {
		if s := size(p); s > int64(budget) {
			if err := mergeRuns(byPart[p], 1<<15, emit); err != nil {
				return err
			}
			p++
			continue
		}
		// The window p..q-1 and each part's place in the buffer.
		offs := []int{0}
		q := p
		for q < len(byPart) && int64(offs[len(offs)-1])+size(q) <= int64(budget) {
			offs = append(offs, offs[len(offs)-1]+int(size(q)))
			q++
		}
		e.need(offs[len(offs)-1], 0)
		lens := make([]int, q-p)
		sizes := make([]int64, q-p)
		for i := range sizes {
			sizes[i] = size(p + i)
		}
		err := e.each(bySize(sizes), func(i int) error {
			dst := e.work[offs[i]:offs[i+1]]
			return mergeRuns(byPart[p+i], bufKeys, func(b []uint64) error {
				lens[i] += copy(dst[lens[i]:], b)
				return nil
			})
		})
		if err != nil {
			return err
		}
		for i := range lens {
			if lens[i] > 0 {
				if err := emit(e.work[offs[i] : offs[i]+lens[i]]); err != nil {
					return err
				}
			}
		}
		p = q
	}
	return nil
}
