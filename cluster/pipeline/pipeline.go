// Package pipeline runs gapset's layered enumeration (gapset.Enumerate) as
// Apache Beam jobs, one job per step, driven by a Go loop: each job
// expands the parts of the last step's layers (one element each),
// groups the candidate pieces by target part, merges each target
// (subtracting the lower levels' parts) and its projections, and
// writes the step's manifest last; the driver reads the manifest, removes
// what no later step reads and starts the next job. A final job writes the
// key-set files, byte for byte those of gapset.Enumerate. Elements are
// references to part files (Ref), never keys; the files are those of
// docs/enumeration-layout.md on a local (or shared) disk, or on an object
// store through Beam's filesystem, staged by each DoFn (store.go).
// cluster/README.md gives the design, docs/cluster.md the how-to.
package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/gapset/gapset/internal/sysprobe"
)

// WorkName names the work directory made inside Options.WorkDir: the
// run's state (layers, projection runs, one manifest per step). It stays
// when a run fails or is stopped, and the same enumeration run again
// continues after the last step whose manifest was written; it is removed
// at the end.
const WorkName = "gapset-cluster-work"

// Options describe one enumeration.
type Options struct {
	Layout gapset.Layout
	// OutDir receives the key-set files.
	OutDir string
	// WorkDir is where the work directory is made; default OutDir. A
	// Beam filesystem URL (gs://, s3://, memfs://; its backend linked in
	// by the command) puts it on an object store: the DoFns then copy
	// what they read and write through a scratch directory in LocalTmp.
	WorkDir string
	// LocalTmp is the workers' scratch directory for a work location URL
	// (default: the OS's temporary directory).
	LocalTmp string
	// Fresh discards the work directory of an earlier run instead of
	// resuming it.
	Fresh bool
	// Runner is the Beam runner: "prism" (in-process) or "universal"
	// (a job server; its endpoint and environment are Beam's flags).
	Runner string
	// Progress is told one line per step (and where a resumed run
	// continues).
	Progress func(string)
	// Lanes is the number of copies of each stage, each with its share
	// of the elements (default 1): Prism runs a stage's elements as one
	// bundle, one after another, so this is its parallelism. Runners that
	// spread a stage over workers themselves need no more than 1.
	Lanes int
	// FailAt "STEP/LEVEL/PART" makes that part's merge fail
	// (tests).
	FailAt string
}

// projRun is a projection run waiting for the final merge: its parts
// and its compaction tier.
type projRun struct {
	tier  int
	parts []Ref
}

// driver is the loop's state: what the manifests so far say.
type driver struct {
	opt     Options
	l       gapset.Layout
	work    string
	layers  [][][]Ref // layers[j][d]: the non-empty parts (nil once not needed)
	proj    map[int][]projRun
	res     gapset.Result
	disk    statedir.Disk // the files the manifests name, and a step's scratch
	spills  int
	started time.Time
}

// Enumerate runs the enumeration, or resumes it from the work directory,
// and returns the summary gapset.Enumerate would (Layers, Members,
// Outputs; the resources are this process's, and peak_disk_bytes is the
// work directory's, counted from the manifests at the end of each step).
func Enumerate(ctx context.Context, opt Options) (gapset.Result, error) {
	l := opt.Layout
	if err := l.Check(); err != nil {
		return gapset.Result{}, err
	}
	if opt.Runner == "" {
		opt.Runner = "prism"
	}
	if opt.WorkDir == "" {
		opt.WorkDir = opt.OutDir
	}
	// Workers may run elsewhere (another directory): absolute paths.
	outDir, err := filepath.Abs(opt.OutDir)
	if err != nil {
		return gapset.Result{}, err
	}
	var work string
	unlock := func() {}
	if IsURL(opt.WorkDir) {
		// No lock on an object store: two runs on one location are not
		// prevented (cluster/README.md).
		if err := CheckURL(opt.WorkDir); err != nil {
			return gapset.Result{}, err
		}
		work = workPath(opt.WorkDir, WorkName)
		// Never a location it did not make: it removes what it finds.
		if err := openWorkURL(ctx, work); err != nil {
			return gapset.Result{}, err
		}
	} else {
		base, err := filepath.Abs(opt.WorkDir)
		if err != nil {
			return gapset.Result{}, err
		}
		work = filepath.Join(base, WorkName)
		if err := os.MkdirAll(base, 0o755); err != nil {
			return gapset.Result{}, err
		}
		// Never a directory it did not make: it removes what it finds.
		if _, err := statedir.Open(work, workKind); err != nil {
			return gapset.Result{}, err
		}
		if unlock, err = statedir.Lock(work, workKind); err != nil {
			if errors.Is(err, statedir.ErrBusy) {
				err = fmt.Errorf("%w: %w", gapset.ErrArgs, err)
			}
			return gapset.Result{}, err
		}
	}
	defer unlock()
	if opt.Fresh {
		if err := clearWork(ctx, work, 0); err != nil {
			return gapset.Result{}, err
		}
	}
	cpu0 := sysprobe.ProcessCPU()
	e := &driver{opt: opt, l: l, work: work, proj: map[int][]projRun{}, started: time.Now(),
		layers: make([][][]Ref, l.Levels())}
	e.res = gapset.Result{Rows: l.Rows, Cols: l.Cols, MaxGap: l.MaxGap, Exact: l.Exact}
	next, done, err := e.resume(ctx)
	if err != nil {
		return e.res, err
	}
	for d := next; !done; d++ {
		if err := ctx.Err(); err != nil {
			return e.res, err
		}
		found, err := e.step(ctx, d)
		if err != nil {
			return e.res, err
		}
		done = !found
	}
	if err := e.outputs(ctx, outDir); err != nil {
		return e.res, err
	}
	// The key-set files are in place: the state has served.
	unlock()
	if IsURL(work) {
		err = removeMatching(ctx, work, func(string) bool { return true })
	} else {
		err = atomicfile.Retire(work)
	}
	if err != nil {
		return e.res, err
	}
	e.res.Elapsed = time.Since(e.started)
	e.res.CPU = sysprobe.ProcessCPU() - cpu0
	_, e.res.PeakRSS = sysprobe.Memory()
	e.res.PeakDisk, e.res.Spills = e.disk.Peak(), e.spills
	return e.res, nil
}

// resume replays the manifests in the work directory (the steps an
// earlier run completed) and removes what a step without a manifest left;
// it returns the step to run next and whether every step is done.
func (e *driver) resume(ctx context.Context) (int, bool, error) {
	d, done := 0, false
	for !done {
		// Files named here may have gone since (folded, no longer
		// needed): those the replayed state holds are checked below.
		m, ok, err := readManifest(ctx, e.work, d, e.l, manifestName, false)
		if err != nil {
			return 0, false, err
		}
		if !ok {
			break
		}
		done = !e.apply(m, false)
		if err := e.prune(ctx, d, m); err != nil {
			return 0, false, err
		}
		d++
	}
	if err := clearWork(ctx, e.work, d); err != nil {
		return 0, false, err
	}
	for _, layers := range e.layers {
		for _, rs := range layers {
			for _, r := range rs {
				if err := checkFile(ctx, e.work, r, true); err != nil {
					return 0, false, err
				}
			}
		}
	}
	for _, runs := range e.proj {
		for _, run := range runs {
			for _, r := range run.parts {
				if err := checkFile(ctx, e.work, r, true); err != nil {
					return 0, false, err
				}
			}
		}
	}
	if d > 0 && e.opt.Progress != nil {
		e.opt.Progress(fmt.Sprintf("resuming %s after step %d (%d members)", e.work, d-1, e.res.Members))
	}
	return d, done, nil
}

// clearWork removes from the work directory the steps from 'from' on and
// the final job's manifest: what no manifest of an earlier step names.
func clearWork(ctx context.Context, work string, from int) error {
	keep := func(name string) bool {
		var d int
		n, err := fmt.Sscanf(name, "d%06d", &d)
		return n == 1 && err == nil && name == statedir.StepDir(d) && d < from
	}
	if IsURL(work) {
		return removeMatching(ctx, work, func(name string) bool {
			dir, _, _ := strings.Cut(name, "/")
			return !keep(dir) && !statedir.Keep(name)
		})
	}
	entries, err := os.ReadDir(work)
	if err != nil {
		return err
	}
	for _, de := range entries {
		name := de.Name()
		if statedir.Keep(name) || keep(name) {
			continue
		}
		if err := removeSettled(filepath.Join(work, name)); err != nil {
			return err
		}
	}
	return nil
}

// removeSettled removes a directory tree. A job that failed in this
// process (the in-process runner) can return while its other bundles are
// still writing their parts into the step's directory, so that a file made
// after the walk leaves the directory not empty: try again, for at most
// 10 s, until a removal succeeds. What such a bundle writes into the step
// that runs again is the same part, byte for byte (a part is a function of
// its inputs), and nothing it writes is read before the step's sealed
// manifest names it.
func removeSettled(path string) error {
	var err error
	for try := 0; try < 200; try++ {
		if err = os.RemoveAll(path); err == nil || !errors.Is(err, syscall.ENOTEMPTY) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}

// run runs one job, its error cut to one line.
func (e *driver) run(ctx context.Context, p *beam.Pipeline) error {
	_, err := beam.Run(ctx, e.opt.Runner, p)
	if err != nil && ctx.Err() == nil {
		return jobError(err)
	}
	return err
}

// jobError is a failed job's error as one line: the runners wrap the
// DoFn's error in their own text, plans and stack traces over many lines,
// and end with the DoFn's own message (which names the step, level and
// part): its last line is kept.
func jobError(err error) error {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	line := strings.Join(strings.Fields(lines[len(lines)-1]), " ")
	if len(line) > 300 {
		line = line[:300] + "..."
	}
	return fmt.Errorf("the job failed: %s", line)
}

// step runs step d's job and applies its manifest; it reports whether the
// step found any configuration.
func (e *driver) step(ctx context.Context, d int) (bool, error) {
	l := e.l
	if !IsURL(e.work) {
		if err := os.MkdirAll(filepath.Join(e.work, statedir.ScratchDir(d)), 0o755); err != nil {
			return false, err
		}
	}
	tmp := e.opt.LocalTmp
	p, s := beam.NewPipelineWithRoot()
	lanes := max(1, e.opt.Lanes)
	var expanded []beam.PCollection
	if d == 0 {
		expanded = append(expanded, beam.ParDo(s, &goalFn{Layout: l, Work: e.work, Tmp: tmp}, beam.Impulse(s)))
	} else {
		var src []Ref
		for j := range l.Levels() {
			src = append(src, e.layers[j][d-1]...)
		}
		for i, part := range balance(src, lanes) {
			ls := s.Scope(fmt.Sprintf("expand%d", i))
			// The shuffle spreads the elements over a runner's workers
			// (a created list is one bundle).
			in := beam.Reshuffle(ls, beam.CreateList(ls, part))
			expanded = append(expanded, beam.ParDo(ls, &expandFn{Layout: l, Work: e.work, Tmp: tmp, Step: d}, in))
		}
	}
	cands := flatten(s, expanded)
	var lower []Ref
	seen := map[[2]int]bool{}
	for j := 1; j < l.Levels(); j++ {
		for i, st := range l.Lower(j, d) {
			if st >= 0 && !seen[[2]int{i, st}] {
				seen[[2]int{i, st}] = true
				lower = append(lower, e.layers[i][st]...)
			}
		}
	}
	var layerCols, pieceCols []beam.PCollection
	for i := range lanes {
		ls := s.Scope(fmt.Sprintf("merge%d", i))
		in := beam.GroupByKey(ls, beam.ParDo(ls, &laneFn{Lane: i, Lanes: lanes}, cands))
		layers, pieces := beam.ParDo2(ls, &mergeFn{Layout: l, Work: e.work, Tmp: tmp, Step: d, Lower: lower, FailAt: e.opt.FailAt}, in)
		layerCols, pieceCols = append(layerCols, layers), append(pieceCols, pieces)
	}
	// Projection runs: the step's pieces, and the earlier runs that the
	// compaction rule folds into this step's run.
	fold, tier := map[int]int{}, map[int]int{}
	var folded []Ref
	for _, k := range l.Projections() {
		var tiers []int
		for _, r := range e.proj[k] {
			tiers = append(tiers, r.tier)
		}
		fold[k], tier[k] = gapset.FoldCount(tiers)
		for _, r := range e.proj[k][len(e.proj[k])-fold[k]:] {
			folded = append(folded, r.parts...)
		}
	}
	if len(folded) > 0 {
		pieceCols = append(pieceCols, beam.ParDo(s, keyProjection, beam.CreateList(s, folded)))
	}
	pieces := flatten(s, pieceCols)
	var projCols []beam.PCollection
	for i := range lanes {
		ls := s.Scope(fmt.Sprintf("project%d", i))
		in := beam.GroupByKey(ls, beam.ParDo(ls, &laneFn{Lane: i, Lanes: lanes}, pieces))
		projCols = append(projCols, beam.ParDo(ls, &projectFn{Work: e.work, Tmp: tmp, Step: d, Tier: tier}, in))
	}
	beam.ParDo0(s, &manifestFn{Layout: l, Work: e.work, Step: d, Fold: fold, Tier: tier}, beam.Impulse(s),
		beam.SideInput{Input: flatten(s, layerCols)}, beam.SideInput{Input: flatten(s, projCols)},
		beam.SideInput{Input: cands}, beam.SideInput{Input: pieces})
	if err := e.run(ctx, p); err != nil {
		return false, err
	}
	m, ok, err := readManifest(ctx, e.work, d, l, jobManifestName, true)
	if err == nil && !ok {
		err = fmt.Errorf("step %d: the job ended without writing its manifest", d)
	}
	if err == nil {
		err = commitManifest(ctx, e.work, d)
	}
	if err != nil {
		return false, err
	}
	// At the step's end the disk holds the state before it, the step's
	// files and its scratch (removed by prune).
	held := e.named()
	for _, r := range slices.Concat(m.Layers, m.Projections) {
		held += r.Bytes
	}
	e.disk.Observe(held + m.Scratch)
	found := e.apply(m, true)
	return found, e.prune(ctx, d, m)
}

// flatten is beam.Flatten, which wants more than one collection.
func flatten(s beam.Scope, cols []beam.PCollection) beam.PCollection {
	if len(cols) == 1 {
		return cols[0]
	}
	return beam.Flatten(s, cols...)
}

// balance deals the source parts out to the lanes, largest first to
// the lane with the fewest bytes; lanes left empty are dropped.
func balance(src []Ref, lanes int) [][]Ref {
	order := slices.Clone(src)
	slices.SortStableFunc(order, func(a, b Ref) int { return cmp.Compare(b.Bytes, a.Bytes) })
	out := make([][]Ref, lanes)
	load := make([]int64, lanes)
	for _, r := range order {
		i := 0
		for x := range load {
			if load[x] < load[i] {
				i = x
			}
		}
		out[i] = append(out[i], r)
		load[i] += r.Bytes
	}
	return slices.DeleteFunc(out, func(rs []Ref) bool { return len(rs) == 0 })
}

// apply adds a step's manifest to the state and the summary (and reports
// it when report is set).
func (e *driver) apply(m manifest, report bool) bool {
	l, d := e.l, m.Step
	e.spills += m.Spills
	counts := make([]int64, l.Levels())
	for j := range e.layers {
		e.layers[j] = append(e.layers[j], nil)
	}
	for _, r := range m.Layers {
		e.layers[r.Level][d] = append(e.layers[r.Level][d], r)
		counts[r.Level] += r.N
		if l.Canonical() {
			counts[r.Level] += r.N - r.Self // the transposes
		}
	}
	found := false
	var total int64
	for j, n := range counts {
		if n > 0 {
			e.res.Layers = append(e.res.Layers, gapset.LayerCount{Gap: 2 * j, Manhattan: d - 2*j, Count: n})
			found = true
			total += n
		}
	}
	e.res.Members += total
	byCells := map[int][]Ref{}
	for _, r := range m.Projections {
		byCells[r.Cells] = append(byCells[r.Cells], r)
	}
	for k, rs := range byCells {
		runs := e.proj[k]
		e.proj[k] = append(runs[:len(runs)-m.Fold[k]], projRun{tier: m.Tier[k], parts: rs})
	}
	if report && e.opt.Progress != nil {
		e.opt.Progress(fmt.Sprintf("%6.1fs step %3d: %12d keys in %d parts; members %d",
			time.Since(e.started).Seconds(), d, total, len(m.Layers), e.res.Members))
	}
	return found
}

// prune removes what no later step reads: the step's pieces, the
// projection runs folded into its runs, and the layers no longer needed.
func (e *driver) prune(ctx context.Context, d int, m manifest) error {
	keep := map[string]bool{}
	for _, rs := range e.proj {
		for _, r := range rs {
			for _, x := range r.parts {
				keep[x.Name] = true
			}
		}
	}
	if IsURL(e.work) {
		// The layers no longer needed go as on a disk, below.
		err := removeMatching(ctx, e.work, func(name string) bool {
			if inDir(name, statedir.ScratchDir(d)) {
				return true
			}
			for s := range d {
				if matchIn(name, statedir.StepDir(s), "p*") && !keep[name] {
					return true
				}
			}
			return false
		})
		if err != nil {
			return err
		}
	} else if err := os.RemoveAll(filepath.Join(e.work, statedir.ScratchDir(d))); err != nil {
		return err
	}
	// Folded runs: projection files of earlier steps that no run names now.
	for s := range d {
		if IsURL(e.work) {
			break // removed above
		}
		matches, _ := filepath.Glob(filepath.Join(e.work, statedir.StepDir(s), "p*"))
		for _, path := range matches {
			rel, _ := filepath.Rel(e.work, path)
			if !keep[rel] {
				if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
		}
	}
	for i := range e.layers {
		for s, rs := range e.layers[i] {
			if rs == nil || e.l.Needed(i, s, d) {
				continue
			}
			for _, r := range rs {
				if err := removeWork(ctx, e.work, r.Name); err != nil {
					return err
				}
			}
			e.layers[i][s] = nil
		}
	}
	return nil
}

// outputs runs the final job: every key-set file from its runs, merged
// part by part.
func (e *driver) outputs(ctx context.Context, outDir string) error {
	l := e.l
	inputs := map[int][][]Ref{}
	for _, k := range l.Cells {
		if k == l.N() && !l.Canonical() { // canonical layers: a projection
			byPart := make([][]Ref, 1<<l.Bits())
			for j := range l.Levels() {
				if !l.Projected(j) {
					continue
				}
				for _, rs := range e.layers[j] {
					for _, r := range rs {
						byPart[r.Part] = append(byPart[r.Part], r)
					}
				}
			}
			inputs[k] = byPart
			continue
		}
		byPart := make([][]Ref, 1<<l.ProjectionBits(k))
		for _, run := range e.proj[k] {
			for _, r := range run.parts {
				byPart[r.Part] = append(byPart[r.Part], r)
			}
		}
		inputs[k] = byPart
	}
	p, s := beam.NewPipelineWithRoot()
	// One stage per file: each its own bundle, side by side.
	var outs []beam.PCollection
	for _, k := range l.Cells {
		ls := s.Scope(fmt.Sprintf("output%d", k))
		fn := &outputFn{Layout: l, Work: e.work, Tmp: e.opt.LocalTmp, OutDir: outDir, Inputs: map[int][][]Ref{k: inputs[k]}, Want: -1}
		if k == l.N() && !l.Canonical() {
			fn.Want = e.wholeBoard()
		}
		outs = append(outs, beam.ParDo(ls, fn, beam.Reshuffle(ls, beam.CreateList(ls, []int{k}))))
	}
	beam.ParDo0(s, &outputsFn{Work: e.work}, beam.Impulse(s), beam.SideInput{Input: flatten(s, outs)})
	if err := e.run(ctx, p); err != nil {
		return err
	}
	refs, err := readOutputs(ctx, e.work)
	if err != nil {
		return err
	}
	if len(refs) != len(l.Cells) {
		return fmt.Errorf("the output job wrote %d key-set files, not %d", len(refs), len(l.Cells))
	}
	// The whole board's count is the layers' (they are disjoint): a run
	// named twice or missing is damage, refused before the file is in
	// place (the output job wrote none).
	for _, r := range refs {
		if r.Cells == l.N() && !l.Canonical() && r.N != e.wholeBoard() {
			return statedir.Damaged(e.work, "the layers hold %d boards, their merge %d: the %d-cell file not written", e.wholeBoard(), r.N, r.Cells)
		}
	}
	if IsURL(e.work) {
		for _, r := range refs {
			if err := copyOut(ctx, e.work, outName(l, r.Cells), r.Bytes, l.Config(outDir).OutputPath(r.Cells)); err != nil {
				return err
			}
		}
	}
	// Listed smallest first, equal counts fewest cells first, as gapset
	// enumerate lists them.
	slices.SortStableFunc(refs, func(a, b Ref) int {
		if c := cmp.Compare(a.N, b.N); c != 0 {
			return c
		}
		return cmp.Compare(a.Cells, b.Cells)
	})
	user := l.Config(e.opt.OutDir)
	for _, r := range refs {
		e.res.Outputs = append(e.res.Outputs, gapset.OutputFile{Cells: r.Cells, Name: r.Name, Path: user.OutputPath(r.Cells), Count: uint64(r.N)})
	}
	if e.opt.Progress != nil {
		e.opt.Progress(fmt.Sprintf("%6.1fs wrote %d key-set files", time.Since(e.started).Seconds(), len(refs)))
	}
	return nil
}

// wholeBoard is the members of the layers the whole-board file holds.
func (e *driver) wholeBoard() int64 {
	var n int64
	for _, c := range e.res.Layers {
		if e.l.Projected(c.Gap / 2) {
			n += c.Count
		}
	}
	return n
}

// named is the bytes of the files the state names.
func (e *driver) named() int64 {
	var n int64
	for _, layers := range e.layers {
		for _, rs := range layers {
			for _, r := range rs {
				n += r.Bytes
			}
		}
	}
	for _, runs := range e.proj {
		for _, run := range runs {
			for _, r := range run.parts {
				n += r.Bytes
			}
		}
	}
	return n
}
