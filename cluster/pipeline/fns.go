package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/statedir"
)

// Ref is what flows through the pipeline: a reference to one part
// file, never its keys. Name is relative to the work directory.
type Ref struct {
	Level int    `json:"level"` // layers and candidates: the level (gap / 2)
	Step  int    `json:"step"`  // layers: the step (reverse moves from the goal)
	Cells int    `json:"cells"` // projections: k
	Part  int    `json:"p"`
	Piece int    `json:"piece,omitempty"` // candidates: pieces after the first are spills
	Tier  int    `json:"tier,omitempty"`  // projection runs: compactions that built them
	Name  string `json:"name"`
	N     int64  `json:"n"`
	Bytes int64  `json:"bytes"`
	Delta bool   `json:"delta"`
	// Ranked > 0: the run holds rank codes of boards of this many cells
	// (gapset enumerate --rank-runs).
	Ranked int `json:"ranked,omitempty"`
	// Self: a canonical layer part's self-transposed keys (it holds
	// 2*N - Self members; gapset.Layout.Canonical).
	Self int64 `json:"self,omitempty"`
	// Sum is the file's CRC-32C, checked when a run resumes.
	Sum uint32 `json:"crc32c"`
}

// file is the run a reference names, below the work directory.
func (r Ref) file(work string) gapset.RunFile {
	return gapset.RunFile{Path: filepath.Join(work, r.Name), N: r.N, Bytes: r.Bytes, Delta: r.Delta, Cells: r.Ranked, Sum: r.Sum}
}

// refOf names a written piece relative to the work directory.
func refOf(work string, p gapset.Piece) (Ref, error) {
	rel, err := filepath.Rel(work, p.Path)
	if err != nil {
		return Ref{}, err
	}
	return Ref{Level: p.Level, Cells: p.Cells, Part: p.P, Piece: min(p.Index, 1), Name: rel, N: p.N, Bytes: p.Bytes, Delta: p.Delta, Ranked: p.RunFile.Cells, Self: p.Self, Sum: p.Sum}, nil
}

// Keys of the two GroupByKeys: a target part of a layer and a
// part of a projection.
func layerKey(level, p int) int { return level<<16 | p }
func projKey(k, q int) int      { return k<<16 | q }

// goalFn writes step 0's candidates: the goal.
type goalFn struct {
	Layout gapset.Layout
	Work   string
	Tmp    string // the local scratch of a work location URL
}

func (f *goalFn) ProcessElement(ctx context.Context, _ []byte, emit func(int, Ref)) error {
	st, err := newStage(ctx, f.Work, f.Tmp, statedir.ScratchDir(0))
	if err != nil {
		return err
	}
	defer st.done()
	pc, err := f.Layout.WriteGoal(func(p int) string {
		return filepath.Join(st.dir, statedir.ScratchDir(0), statedir.Part("goal", p))
	})
	if err != nil {
		return err
	}
	r, err := refOf(st.dir, pc)
	if err != nil {
		return err
	}
	if err := st.put(ctx, r.Name); err != nil {
		return err
	}
	emit(layerKey(r.Level, r.Part), r)
	return nil
}

// expandFn expands one part of a layer of step Step-1 into candidate
// pieces of step Step, keyed by target (level, part).
type expandFn struct {
	Layout gapset.Layout
	Work   string
	Tmp    string
	Step   int
}

func (f *expandFn) ProcessElement(ctx context.Context, src Ref, emit func(int, Ref)) error {
	st, err := newStage(ctx, f.Work, f.Tmp, statedir.ScratchDir(f.Step))
	if err != nil {
		return err
	}
	defer st.done()
	if err := st.fetch(ctx, src); err != nil {
		return err
	}
	// Fixed names: a retried bundle overwrites its own pieces.
	pieces, err := f.Layout.ExpandPart(ctx, src.Level, src.file(st.dir), func(level, p, piece int) string {
		return filepath.Join(st.dir, statedir.ScratchDir(f.Step), fmt.Sprintf("c%d-from-L%d.p%03d-%d.p%03d", level, src.Level, src.Part, piece, p))
	})
	if err != nil {
		return fmt.Errorf("step %d, expanding part %d of level %d: %w", f.Step, src.Part, src.Level, err)
	}
	refs := make([]Ref, len(pieces))
	for i, pc := range pieces {
		if refs[i], err = refOf(st.dir, pc); err != nil {
			return err
		}
		if err := st.put(ctx, refs[i].Name); err != nil {
			return err
		}
	}
	for _, r := range refs {
		emit(layerKey(r.Level, r.Part), r)
	}
	return nil
}

// mergeFn finishes one target part: its candidates merged, the lower
// levels' parts subtracted, the layer's part written (state) and
// its projection pieces (scratch), keyed by projection part.
type mergeFn struct {
	Layout gapset.Layout
	Work   string
	Tmp    string
	Step   int
	// Lower holds the parts of every layer some level of this step
	// subtracts; each target picks its own.
	Lower []Ref
	// FailAt "STEP/LEVEL/PART" makes that part fail after its
	// files are written (tests: a failed attempt's leftovers).
	FailAt string
}

func (f *mergeFn) ProcessElement(ctx context.Context, key int, cands func(*Ref) bool, emitLayer func(Ref), emitProj func(int, Ref)) error {
	j, p := key>>16, key&0xffff
	st, err := newStage(ctx, f.Work, f.Tmp, statedir.ScratchDir(f.Step))
	if err != nil {
		return err
	}
	defer st.done()
	var in []gapset.RunFile
	var fetch []Ref
	spills := 0
	var r Ref
	for cands(&r) {
		in = append(in, r.file(st.dir))
		fetch = append(fetch, r)
		spills += r.Piece
	}
	// The order of a group is the runner's: the merge does not depend on it.
	slices.SortFunc(in, func(a, b gapset.RunFile) int { return strings.Compare(a.Path, b.Path) })
	steps := f.Layout.Lower(j, f.Step)
	var lower []gapset.RunFile
	for _, l := range f.Lower {
		if l.Part == p && l.Level < j && l.Step == steps[l.Level] {
			lower = append(lower, l.file(st.dir))
			fetch = append(fetch, l)
		}
	}
	if err := st.fetch(ctx, fetch...); err != nil {
		return err
	}
	dir := filepath.Join(st.dir, statedir.StepDir(f.Step))
	layer, projs, err := f.Layout.MergePart(ctx, j, p, in, lower, filepath.Join(dir, statedir.Part(statedir.Layer(j, f.Step), p)),
		func(k, q, piece int) string {
			return filepath.Join(st.dir, statedir.ScratchDir(f.Step), fmt.Sprintf("q%d-L%d.p%03d-%d.p%03d", k, j, p, piece, q))
		})
	if err != nil {
		return fmt.Errorf("step %d, merging part %d of level %d: %w", f.Step, p, j, err)
	}
	out := Ref{Level: j, Step: f.Step, Part: p, Piece: spills}
	if layer.Path != "" {
		if out, err = refOf(st.dir, layer); err != nil {
			return err
		}
		out.Step, out.Piece = f.Step, spills
		if err := st.put(ctx, out.Name); err != nil {
			return err
		}
	}
	refs := make([]Ref, len(projs))
	for i, pc := range projs {
		if refs[i], err = refOf(st.dir, pc); err != nil {
			return err
		}
		if err := st.put(ctx, refs[i].Name); err != nil {
			return err
		}
	}
	if f.FailAt != "" && f.FailAt == fmt.Sprintf("%d/%d/%d", f.Step, j, p) {
		return fmt.Errorf("step %d, part %d of level %d: injected failure", f.Step, p, j)
	}
	emitLayer(out)
	for _, r := range refs {
		emitProj(projKey(r.Cells, r.Part), r)
	}
	return nil
}

// laneFn passes the elements of one lane: keys that are Lane modulo Lanes.
type laneFn struct {
	Lane, Lanes int
}

func (f *laneFn) ProcessElement(key int, r Ref, emit func(int, Ref)) {
	if key%f.Lanes == f.Lane {
		emit(key, r)
	}
}

// keyProjection keys a projection run folded into this step's by its
// projection part.
func keyProjection(r Ref) (int, Ref) { return projKey(r.Cells, r.Part), r }

// projectFn merges one projection part's pieces of this step, and the
// earlier runs FoldCount folds in, into one run of the step.
type projectFn struct {
	Work string
	Tmp  string
	Step int
	Tier map[int]int // by cells: the tier of this step's run
}

func (f *projectFn) ProcessElement(ctx context.Context, key int, runs func(*Ref) bool, emit func(Ref)) error {
	k, q := key>>16, key&0xffff
	st, err := newStage(ctx, f.Work, f.Tmp, statedir.StepDir(f.Step))
	if err != nil {
		return err
	}
	defer st.done()
	var in []gapset.RunFile
	var fetch []Ref
	var r Ref
	for runs(&r) {
		in = append(in, r.file(st.dir))
		fetch = append(fetch, r)
	}
	if err := st.fetch(ctx, fetch...); err != nil {
		return err
	}
	slices.SortFunc(in, func(a, b gapset.RunFile) int { return strings.Compare(a.Path, b.Path) })
	tier := f.Tier[k]
	run, err := gapset.MergeRunFiles(ctx, in, filepath.Join(st.dir, statedir.StepDir(f.Step), statedir.Part(statedir.Projection(k, tier), q)))
	if err != nil {
		return fmt.Errorf("step %d, projection onto %d cells, part %d: %w", f.Step, k, q, err)
	}
	if run.Path == "" {
		return nil
	}
	out, err := refOf(st.dir, gapset.Piece{Cells: k, P: q, RunFile: run})
	if err != nil {
		return err
	}
	if err := st.put(ctx, out.Name); err != nil {
		return err
	}
	out.Step, out.Tier = f.Step, tier
	emit(out)
	return nil
}

// manifestFn writes the step's manifest, last: the runner runs it once
// the side inputs (every layer part and projection run of the step)
// are complete, so a manifest names only files that are whole.
type manifestFn struct {
	Layout gapset.Layout
	Work   string
	Step   int
	Fold   map[int]int
	Tier   map[int]int
}

func (f *manifestFn) ProcessElement(ctx context.Context, _ []byte, layers, projs func(*Ref) bool, cands, pieces func(*int, *Ref) bool) error {
	m := manifest{Layout: f.Layout, Step: f.Step, Fold: f.Fold, Tier: f.Tier}
	// Every target the pieces name must have been merged: a check that
	// the side inputs are whole before anything is named.
	want, got := map[int]bool{}, map[int]bool{}
	var r Ref
	var k int
	for cands(&k, &r) {
		want[k] = true
		m.Scratch += r.Bytes
	}
	for layers(&r) {
		got[layerKey(r.Level, r.Part)] = true
		m.Spills += r.Piece
		if r.N > 0 {
			r.Piece = 0
			m.Layers = append(m.Layers, r)
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("step %d: %d target parts merged, %d expected: the manifest's inputs are incomplete", f.Step, len(got), len(want))
	}
	want, got = map[int]bool{}, map[int]bool{}
	for pieces(&k, &r) {
		want[k] = true
		if inDir(filepath.ToSlash(r.Name), statedir.ScratchDir(f.Step)) { // not a folded run
			m.Scratch += r.Bytes
		}
	}
	for projs(&r) {
		got[projKey(r.Cells, r.Part)] = true
		m.Projections = append(m.Projections, r)
	}
	if len(got) != len(want) {
		return fmt.Errorf("step %d: %d projection parts merged, %d expected: the manifest's inputs are incomplete", f.Step, len(got), len(want))
	}
	m.sort()
	b, err := statedir.Seal(manifestFormat, &m)
	if err != nil {
		return err
	}
	return writeWork(ctx, f.Work, filepath.Join(statedir.StepDir(f.Step), jobManifestName), b)
}

// outputFn writes one key-set file (the element is its cells) from the
// runs of its parts: into OutDir, or with a work location URL into
// its outName(k), from where the driver copies it.
type outputFn struct {
	Layout gapset.Layout
	Work   string
	Tmp    string
	OutDir string
	Inputs map[int][][]Ref // by cells: the runs of each part
	// Want >= 0 is the count the file must hold (the whole board: the
	// layers' count); a file of another is not written, and its Ref
	// (without a name) tells the driver the count merged.
	Want int64
}

func (f *outputFn) ProcessElement(ctx context.Context, k int, emit func(Ref)) error {
	st, err := newStage(ctx, f.Work, f.Tmp)
	if err != nil {
		return err
	}
	defer st.done()
	byPart := make([][]gapset.RunFile, len(f.Inputs[k]))
	for p, rs := range f.Inputs[k] {
		for _, r := range rs {
			byPart[p] = append(byPart[p], r.file(st.dir))
		}
		// One part at a time would keep less in the scratch; the
		// core merges them in one call.
		if err := st.fetch(ctx, rs...); err != nil {
			return err
		}
	}
	path := f.Layout.Config(f.OutDir).OutputPath(k)
	if IsURL(f.Work) {
		path = filepath.Join(st.dir, outName(f.Layout, k))
		if err := st.mkdir(filepath.Dir(outName(f.Layout, k))); err != nil {
			return err
		}
	}
	out, err := f.Layout.WriteOutput(ctx, k, path, byPart, f.Want)
	if errors.Is(err, gapset.ErrCount) {
		emit(Ref{Cells: k, N: int64(out.Count)})
		return nil
	}
	if err != nil {
		return fmt.Errorf("writing the projection onto %d cells: %w", k, err)
	}
	var size int64
	if IsURL(f.Work) {
		info, err := os.Stat(path)
		if err != nil {
			return err
		}
		size = info.Size()
		if err := st.put(ctx, outName(f.Layout, k)); err != nil {
			return err
		}
	}
	emit(Ref{Cells: k, Name: out.Name, N: int64(out.Count), Bytes: size})
	return nil
}

// outName is where a key-set file goes below a work location URL.
func outName(l gapset.Layout, k int) string {
	return "out/" + filepath.Base(l.Config("").OutputPath(k))
}

// outputsFn writes the manifest of the key-set files, last.
type outputsFn struct {
	Work string
}

func (f *outputsFn) ProcessElement(ctx context.Context, _ []byte, outs func(*Ref) bool) error {
	var all []Ref
	var r Ref
	for outs(&r) {
		all = append(all, r)
	}
	slices.SortFunc(all, func(a, b Ref) int { return a.Cells - b.Cells })
	b, err := statedir.Seal(outputsFormat, all)
	if err != nil {
		return err
	}
	return writeWork(ctx, f.Work, outputsName, b)
}

func init() {
	register.DoFn3x1[context.Context, []byte, func(int, Ref), error](&goalFn{})
	register.DoFn3x1[context.Context, Ref, func(int, Ref), error](&expandFn{})
	register.DoFn5x1[context.Context, int, func(*Ref) bool, func(Ref), func(int, Ref), error](&mergeFn{})
	register.DoFn4x1[context.Context, int, func(*Ref) bool, func(Ref), error](&projectFn{})
	register.DoFn6x1[context.Context, []byte, func(*Ref) bool, func(*Ref) bool, func(*int, *Ref) bool, func(*int, *Ref) bool, error](&manifestFn{})
	register.DoFn3x1[context.Context, int, func(Ref), error](&outputFn{})
	register.DoFn3x1[context.Context, []byte, func(*Ref) bool, error](&outputsFn{})
	register.DoFn3x0[int, Ref, func(int, Ref)](&laneFn{})
	register.Function1x2(keyProjection)
	register.Emitter1[Ref]()
	register.Emitter2[int, Ref]()
	register.Iter1[Ref]()
	register.Iter2[int, Ref]()
}
