package gapset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/sysprobe"
	"github.com/gapset/gapset/keyset"
)

// Config describes a streaming enumeration (Enumerate).
type Config struct {
	Rows, Cols int
	MaxGap     int            // even: 0 for G0, 2 for the gap <= 2 set, ...
	Exact      bool           // write only the members whose gap equals MaxGap
	Cells      []int          // projections to write (k = Rows*Cols: whole boards)
	Dir        string         // key-set files go here, named by Header.Name + ".keys"
	Paths      map[int]string // optional: the file for projection k instead
	TempDir    string         // scratch runs; default: a fresh directory inside Dir
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
	// Packed writes the key-set files delta-coded (keyset format version
	// 2): 2-5 bytes per key instead of 8.
	Packed   bool
	Progress func(Progress)
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
}

// SoftMemoryLimit is the Go memory limit (debug.SetMemoryLimit) for an
// Enumerate run with this budget. The buffers grow by doubling and hold no
// pointers: a soft limit a little above the budget makes the collector
// free the old copies cheaply (a gap <= 4 run with a budget of 8 GiB
// reached 17 GiB without it).
func (c Config) SoftMemoryLimit() int64 { return c.Memory + c.Memory/4 + 1<<30 }

// LayerCount is the size of one finished layer.
type LayerCount struct {
	Gap       int   `json:"gap"`
	Manhattan int   `json:"manhattan"`
	Count     int64 `json:"count"`
}

// OutputFile is one key-set file written by Enumerate.
type OutputFile struct {
	Cells int    `json:"cells"`
	Name  string `json:"name"`
	Path  string `json:"path"`
	Count uint64 `json:"count"`
}

// Result summarises a streaming enumeration.
type Result struct {
	Rows     int           `json:"rows"`
	Cols     int           `json:"cols"`
	MaxGap   int           `json:"gap"`
	Exact    bool          `json:"exact"`
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
	if err := cfg.Check(); err != nil {
		return Result{}, err
	}
	g, _ := checkArgs(cfg.Rows, cfg.Cols, cfg.MaxGap, cfg.Cells)
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
	e := &streamer{cfg: cfg, g: g, ctx: ctx, tmp: tmp, start: time.Now(), cpu0: sysprobe.ProcessCPU(), workers: cfg.Workers, inChunk: inChunk}
	if cfg.Checkpoint != "" && cfg.MaxStep <= 0 {
		if err := os.MkdirAll(cfg.Checkpoint, 0o755); err != nil {
			return Result{}, err
		}
		unlock, err := lockDir(cfg.Checkpoint)
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
	// state is the checkpoint directory ("" for none): layer and
	// projection runs live there, and dropped ones stay until the next
	// manifest no longer names them.
	state         string
	fresh         []string // state runs written since the last checkpoint (to sync)
	dropped       []run
	rss0          uint64    // peak RSS of the earlier processes of a resumed run
	lastCP        time.Time // when the last checkpoint was written
	wn            int
	work, scratch []uint64
	seq           int
	disk, peak    int64
	members       int64
	spills        int
	// layers[j][d]: level j's layer at step d (an empty run when empty).
	layers [][]run
	// proj[k]: projected runs waiting for the final merge, with their
	// compaction tiers.
	proj map[int][]tiered
}

func (e *streamer) newRunPath(tag string) string {
	e.seq++
	name := fmt.Sprintf("%06d-%s", e.seq, tag)
	if e.state != "" && isStateTag(tag) {
		p := filepath.Join(e.state, name)
		e.fresh = append(e.fresh, p)
		return p
	}
	return filepath.Join(e.tmp, name)
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
	e.disk += r.bytes
	e.peak = max(e.peak, e.disk)
	return r
}

func (e *streamer) drop(r run) {
	switch {
	case r.path == "":
	case e.state != "" && filepath.Dir(r.path) == e.state:
		e.dropped = append(e.dropped, r)
	default:
		os.Remove(r.path)
		e.disk -= r.bytes
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
	res := Result{Rows: e.cfg.Rows, Cols: e.cfg.Cols, MaxGap: e.cfg.MaxGap, Exact: e.cfg.Exact}
	finished := func(j, d int, r run, inWork []uint64) error {
		e.members += r.n
		if r.n > 0 {
			res.Layers = append(res.Layers, LayerCount{Gap: 2 * j, Manhattan: d - 2*j, Count: r.n})
		}
		e.report(Progress{Gap: 2 * j, Manhattan: d - 2*j, Step: d, Layer: r.n, Phase: "layer"})
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
		e.layers = make([][]run, levels)
		e.proj = map[int][]tiered{}
		goal, err := writeRun(e.newRunPath("L0-0"), []uint64{g.goal}, !e.cfg.RawRuns)
		if err != nil {
			return res, err
		}
		e.layers[0] = append(e.layers[0], e.track(goal))
		for j := 1; j < levels; j++ {
			e.layers[j] = append(e.layers[j], run{})
		}
		if err := finished(0, 0, goal, nil); err != nil {
			return res, err
		}
	}
	for d := last + 1; !done && (e.cfg.MaxStep <= 0 || d <= e.cfg.MaxStep); d++ {
		if err := e.ctx.Err(); err != nil {
			return res, err
		}
		any := false
		for j := 0; j < levels; j++ {
			r, inWork, err := e.step(j, d)
			if err != nil {
				return res, err
			}
			e.layers[j] = append(e.layers[j], e.track(r))
			if r.n > 0 {
				any = true
			}
			if err := finished(j, d, r, inWork); err != nil {
				return res, err
			}
		}
		// Layers no longer needed: level j at step d-1 fed step d; level i
		// layers serve subtraction until step s + 2(levels-1-i). Whole-board
		// output needs them all until the end.
		if !slices.Contains(e.cfg.Cells, g.N) {
			for i := 0; i < levels; i++ {
				for s := range e.layers[i] {
					if s < d && s+2*(levels-1-i) < d+1 && e.layers[i][s].path != "" {
						e.drop(e.layers[i][s])
						e.layers[i][s] = run{}
					}
				}
			}
		}
		if err := e.checkpoint(&res, d, !any); err != nil {
			return res, err
		}
		if !any {
			break
		}
	}
	if e.cfg.MaxStep <= 0 {
		if err := e.finish(&res); err != nil {
			return res, err
		}
		if e.state != "" {
			// The key-set files are in place: the state has served.
			e.dropped = nil
			if err := os.RemoveAll(e.state); err != nil {
				return res, err
			}
		}
	}
	res.Members = e.members
	res.Elapsed = time.Since(e.start)
	res.CPU = sysprobe.ProcessCPU() - e.cpu0
	_, res.PeakRSS = sysprobe.Memory()
	res.PeakRSS = max(res.PeakRSS, e.rss0)
	res.PeakDisk = e.peak
	res.Spills = e.spills
	return res, nil
}

// step builds level j's layer at step d. When the whole layer fitted in the
// work buffer it also returns it there (sorted), for projecting without
// reading it back.
func (e *streamer) step(j, d int) (run, []uint64, error) {
	g := e.g
	fill := 0
	var pieces []run
	flush := func() error {
		a := e.work[:fill]
		e.sortWork(a, 4*g.N)
		a = dedup(a)
		r, err := writeRun(e.newRunPath(fmt.Sprintf("c%d-%d", j, d)), a, !e.cfg.RawRuns)
		if err != nil {
			return err
		}
		pieces = append(pieces, e.track(r))
		e.spills++
		fill = 0
		return nil
	}
	expandFrom := func(r run, raise bool) error {
		if r.n == 0 {
			return nil
		}
		return forEachChunk(r, e.inChunk, func(keys []uint64) error {
			if fill+4*len(keys) > e.wn {
				if err := flush(); err != nil {
					return err
				}
			}
			e.need(fill+4*len(keys), fill)
			fill = len(expandAll(g, keys, raise, e.work[:fill], e.workers))
			return e.ctx.Err()
		})
	}
	if err := expandFrom(e.layers[j][d-1], true); err != nil {
		return run{}, nil, err
	}
	if j > 0 {
		if err := expandFrom(e.layers[j-1][d-1], false); err != nil {
			return run{}, nil, err
		}
	}
	// Lower-gap layers with the same Manhattan distance are removed.
	var subs []*subtractor
	defer func() {
		for _, s := range subs {
			s.close()
		}
	}()
	for i := 0; i < j; i++ {
		if s := d - 2*(j-i); s >= 0 && e.layers[i][s].n > 0 {
			sb, err := newSubtractor(e.layers[i][s])
			if err != nil {
				return run{}, nil, err
			}
			subs = append(subs, sb)
		}
	}
	subtractAll := func(a []uint64) ([]uint64, error) {
		var err error
		for _, s := range subs {
			if a, err = s.apply(a); err != nil {
				return nil, err
			}
		}
		return a, nil
	}
	path := e.newRunPath(fmt.Sprintf("L%d-%d", j, d))
	if len(pieces) == 0 {
		a := e.work[:fill]
		e.sortWork(a, 4*g.N)
		a, err := subtractAll(dedup(a))
		if err != nil {
			return run{}, nil, err
		}
		r, err := writeRun(path, a, !e.cfg.RawRuns)
		return r, a, err
	}
	if fill > 0 {
		if err := flush(); err != nil {
			return run{}, nil, err
		}
	}
	w, err := createRun(path, !e.cfg.RawRuns)
	if err != nil {
		return run{}, nil, err
	}
	err = mergeRuns(pieces, 1<<16, func(b []uint64) error {
		b, err := subtractAll(b)
		if err != nil {
			return err
		}
		return w.write(b)
	})
	r, cerr := w.close()
	for _, p := range pieces {
		e.drop(p)
	}
	return r, nil, errors.Join(err, cerr)
}

// project adds the layer's projections (cells below the whole board) to the
// runs waiting for the final merge. inWork, when set, is the layer itself in
// the work buffer; otherwise the layer is read back in buffer-sized pieces.
func (e *streamer) project(r run, inWork []uint64) error {
	n := e.g.N
	var ks []int
	for _, k := range e.cfg.Cells {
		if k < n {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return nil
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ks))) // nested: project 12, then 10 from that, ...
	doChunk := func(a []uint64) error {
		for _, k := range ks {
			mask := encode.ProjectMask(k)
			for i := range a {
				a[i] &= mask
			}
			e.sortWork(a, 4*k)
			a = dedup(a)
			pr, err := writeRun(e.newRunPath(fmt.Sprintf("p%d", k)), a, !e.cfg.RawRuns)
			if err != nil {
				return err
			}
			if err := e.addProjection(k, pr); err != nil {
				return err
			}
		}
		return nil
	}
	if inWork != nil {
		return doChunk(inWork)
	}
	fill := 0
	err := forEachChunk(r, e.inChunk, func(keys []uint64) error {
		if fill+len(keys) > e.wn {
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
	return err
}

// tiered is a projection run and how many compactions built it.
type tiered struct {
	run
	tier int
}

// compactFanIn runs of one tier are merged into one run of the next tier.
// Projections of different layers overlap (a k-cell pattern recurs at many
// Manhattan distances), so compaction keeps the scratch disk near the size
// of the final set, at the price of rewriting each key about log8(layers)
// times.
const compactFanIn = 8

func (e *streamer) addProjection(k int, r run) error {
	e.proj[k] = append(e.proj[k], tiered{e.track(r), 0})
	for {
		runs := e.proj[k]
		t := runs[len(runs)-1].tier
		same := 0
		for i := len(runs) - 1; i >= 0 && runs[i].tier == t; i-- {
			same++
		}
		if same < compactFanIn {
			return nil
		}
		in := make([]run, 0, same)
		for _, x := range runs[len(runs)-same:] {
			in = append(in, x.run)
		}
		w, err := createRun(e.newRunPath(fmt.Sprintf("p%d-t%d", k, t+1)), !e.cfg.RawRuns)
		if err != nil {
			return err
		}
		err = mergeRuns(in, 1<<15, w.write)
		merged, cerr := w.close()
		if err = errors.Join(err, cerr); err != nil {
			return err
		}
		for _, x := range in {
			e.drop(x)
		}
		e.proj[k] = append(runs[:len(runs)-same], tiered{e.track(merged), t + 1})
	}
}

// finish merges the runs of every projection into its key-set file.
func (e *streamer) finish(res *Result) error {
	// The work buffers are not needed any more.
	e.work, e.scratch = nil, nil
	n := e.g.N
	levels := e.cfg.MaxGap/2 + 1
	type job struct {
		k    int
		runs []run
	}
	var jobs []job
	for _, k := range e.cfg.Cells {
		if k == n {
			var runs []run
			for j := 0; j < levels; j++ {
				if e.cfg.Exact && j != levels-1 {
					continue
				}
				runs = append(runs, e.layers[j]...)
			}
			jobs = append(jobs, job{k, runs})
		} else {
			var runs []run
			for _, x := range e.proj[k] {
				runs = append(runs, x.run)
			}
			jobs = append(jobs, job{k, runs})
		}
	}
	// One merge at a time, smallest first, each dropping its runs when done:
	// that bounds the scratch disk (the merge itself is I/O bound).
	size := func(j job) (n int64) {
		for _, r := range j.runs {
			n += r.n
		}
		return n
	}
	sort.SliceStable(jobs, func(a, b int) bool { return size(jobs[a]) < size(jobs[b]) })
	var written int64
	for _, jb := range jobs {
		h := e.cfg.header(jb.k)
		path := e.cfg.OutputPath(jb.k)
		w, err := keyset.Create(path, h)
		if err != nil {
			return err
		}
		err = mergeRuns(jb.runs, 1<<15, func(b []uint64) error {
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
		})
		if err != nil {
			w.Abort()
			return err
		}
		cnt := w.Count()
		if err := w.Close(); err != nil {
			return err
		}
		for _, r := range jb.runs {
			e.drop(r)
		}
		res.Outputs = append(res.Outputs, OutputFile{Cells: jb.k, Name: h.Name(), Path: path, Count: cnt})
		e.report(Progress{Gap: e.cfg.MaxGap, Layer: int64(cnt), Phase: "wrote " + h.Name()})
	}
	return nil
}
