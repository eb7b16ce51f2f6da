package gapset

import (
	"fmt"
	"math"
	"os"
	"slices"
	"time"

	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/internal/sysprobe"
)

// Estimate is what an enumeration will take, from measured growth (the
// measurements: docs/resuming.md#what-the-estimate-is-calibrated-on).
// Figures are rough: within a factor of about 2.
type Estimate struct {
	Known   bool      // false: no measurements for this board (figures are 0)
	Members float64   // configurations of gap <= MaxGap
	Levels  []float64 // members of each exact gap 0, 2, ...
	// Projected[i] is the estimated size of the projection onto Cells[i].
	Cells     []int
	Projected []float64
	// OutputBytes are the key-set files (8 bytes per key, fewer packed);
	// ScratchBytes the runs alive at the peak (delta-coded unless raw), of
	// which ProjectionBytes are the projections' runs.
	OutputBytes, ScratchBytes, ProjectionBytes float64
	// TableBytes are the projections kept as bit tables (Config.Tables):
	// memory, and a copy in each checkpoint (two while one replaces the
	// other, counted in ScratchBytes).
	TableBytes float64
	CPU        time.Duration
	// RSS is the process's peak memory: the work buffers (Config.Memory)
	// and what the runtime and the projections hold beside them.
	RSS float64
	// Held is what a checkpoint being resumed already holds on the disk:
	// it is part of the peak, so it counts as free for the check.
	Held float64
}

// rssPerBuffer: the gap <= 4 run with --memory 8192 peaked at 14.0 GB of
// RSS, 1.63 times its buffers; small runs hold about 150 MiB at least.
const rssPerBuffer, rssFloor = 1.63, 150 << 20

// longRun is the wall time past which the estimate says a run will likely
// outlive the process that starts it (a working session, a batch slot).
const longRun = 2 * time.Hour

// Disk is the peak disk the run needs: the layers' scratch while they are
// enumerated, the outputs and the projections' runs they are merged from
// at the end (measured for gap <= 4 with projections 8 and 10: 10.3 GB of
// scratch, the model says 11.7 GB).
func (e Estimate) Disk() float64 {
	return max(e.ScratchBytes, e.OutputBytes+e.ProjectionBytes+e.TableBytes)
}

// Measured level sizes (exact gap 2j), from our enumerations: the 4x4 G0,
// G2, G4 and G6 and every level up to gap 8 of the 3x4 board (LevelSets);
// see docs/resuming.md#what-the-estimate-is-calibrated-on.
var measuredLevels = map[[2]int][]float64{
	{4, 4}: {88728780, 1243092017, 10080723128, 56196404624},
	{3, 4}: {114831, 740821, 3443143, 11502195, 27779243},
}

// levelGrowthDecay: on the 3x4 board the ratio of consecutive levels falls
// by the same factor each level (6.45, 4.65, 3.34, 2.42: x0.72, 0.72, 0.72);
// levels not measured are extrapolated with it.
const levelGrowthDecay = 0.72

// projShare[k][j] is the measured share of the gap <= 2j set that
// survives the projection onto k cells on the 4x4 board (Table 1 and the
// gap <= 4 and gap <= 6 runs); higher gaps repeat the last measured step (the share
// falls as the set grows; the step itself shrank at 8 and 10 cells, so
// this errs high).
var projShare = map[int][]float64{
	12: {61559068.0 / 88728780, 830504340.0 / 1331820797},
	10: {23696364.0 / 88728780, 256541479.0 / 1331820797, 1428073614.0 / 11412543925, 4974483135.0 / 67608948549},
	8:  {4233704.0 / 88728780, 32844091.0 / 1331820797, 122333832.0 / 11412543925, 272692796.0 / 67608948549},
}

// projectedShare is the share of the gap <= 2(levels-1) set of the 4x4
// board that survives the projection onto k cells: measured (projShare),
// or between two measured sizes log-linear in k (9 cells at gap <= 6:
// 1.17e9 keys this way; the 9-cell set @0-3+5+12-15 held 1.44e9, the last
// 9 cells at most the last 10's 4.97e9), or 1 (the whole set) beyond them.
func projectedShare(k, levels int) float64 {
	at := func(s []float64) float64 {
		m := len(s)
		share := s[min(levels, m)-1]
		for j := m; j < levels; j++ {
			share *= s[m-1] / s[m-2]
		}
		return share
	}
	if s, ok := projShare[k]; ok {
		return at(s)
	}
	lo, hi := 0, 0
	for m := range projShare {
		if m < k && m > lo {
			lo = m
		}
		if m > k && (hi == 0 || m < hi) {
			hi = m
		}
	}
	if lo == 0 || hi == 0 {
		return 1
	}
	a, b := math.Log(at(projShare[lo])), math.Log(at(projShare[hi]))
	return math.Exp(a + (b-a)*float64(k-lo)/float64(hi-lo))
}

// packedBytes is the size of a delta-coded key of a set of p keys among
// the patterns of k cells of n: a uvarint of the mean gap in pattern
// units, 7 bits per byte, plus the spread of the gaps. Measured on the 4x4
// sets (bytes per key, then this model): Gap4_8 1.02 (1.15), Gap4_10 1.14
// (1.15), Gap2_12 1.67 (1.72), Gap2 3.13 (3.13: whole-board keys spend a
// nibble on the last cell, which the other cells determine).
func packedBytes(n, k int, p float64) float64 {
	if p < 1 {
		return 0
	}
	spread := 2.0
	if k == n {
		spread = 8
	}
	return math.Max(1.15, (math.Log2(Patterns(n, k)/p)+spread)/7)
}

// cpuPerMember is the CPU per member of the split enumerator's gap <=
// 4 run with projections 8 and 10 and key-difference runs (2,130 s for
// 1.14e10 members, 2026-11-25; docs/resuming.md). The gap <= 2 run took
// 0.71 times as much per member.
const cpuPerMember = 2130.0 / 11412543925

// cpuPerSetMember is the CPU per member that a projection onto a cell set
// adds: the 4x4 gap <= 4 run with three 8-cell sets and no last-k cells
// took 2,603 s (2026-11-27, docs/gap-bound/cellsets-4x4/; beside other
// work, so rough), which the model charges as the canonical run with its
// last-k projections plus three sets. (The gap-0 runs of the day before,
// 12.5 s for two sets over 88,728,780 members, were mostly start-up.)
const cpuPerSetMember = (2603.0 - 2130*transposeCPU) / 3 / 11412543925

// cpuPerWideMember is the CPU per member that a projection onto 12 or more
// cells (not the whole board) adds: the same run with Gap4_12 as well took
// 4,885 s (its 48-bit keys sorted per layer, 7.6e9 of them merged).
const cpuPerWideMember = (4885.0 - 3030.0) / 11412543925

// rankRunsCPU is the CPU of a run with rank-coded runs against key
// differences (the 4x4 gap 0 and gap <= 2 runs with projections 8 and 10:
// 1.24 and 1.23).
const rankRunsCPU = 1.23

// transposeCPU is the CPU of a run with canonical layers (Transpose, on
// the 4x4 board) against the full enumerator's: the layers' expansion,
// sort, merge and runs halve, the projections (of both members) do not
// (gap <= 2 with projections 8 and 10, paired on a busy machine: 252.8 s
// against 304.6 s; gap 0: 18.5 s against 21.0 s).
const transposeCPU = 0.83

// EstimateRun estimates an enumeration of cfg's board, gap and projections.
// Boards without measurements but small enough (12 cells or fewer) are
// bounded by their whole state space. A residual run (cfg.Base) is
// estimated from measured levels of its base (measuredResidual) or not at
// all: EstimateRunLevels takes levels sampled for it.
func EstimateRun(cfg Config) Estimate { return EstimateRunLevels(cfg, nil) }

// residualKey names the measured levels of a base on a board.
type residualKey struct {
	rows, cols int
	base       string
}

// measuredResidual are the residual levels (members of r = 0, 2, ...)
// measured by enumeration: the 3x4 board relative to the blank-aware 1-6 /
// 7-11 databases, 2026-12-02 (docs/residual/counts-3x4.tsv; the levels of
// the r <= 8 run).
var measuredResidual = map[residualKey][]float64{
	{3, 4, "pdbb:1-6/7-11"}: {7074514, 32805144, 72552838, 77474913, 39244634},
}

// residualCPU is the CPU per member of a residual enumeration against a
// gap enumeration's (each move's base computed at both ends): 2 to 4 on
// the 3x4 board with its tables in cache (docs/residual, on a busy
// machine); on the 4x4 board the blank-aware 7-8 tables (2.3 GB) miss the
// cache on nearly every lookup, so this is a floor there.
const residualCPU = 2.5

// EstimateRunLevels is EstimateRun with the sizes of the exact levels
// given (members of gap, or residual, 0, 2, ..., the last extrapolated
// when fewer are given; heuristic.SampleLevels samples them for a base);
// nil: the measured ones.
func EstimateRunLevels(cfg Config, given []float64) Estimate {
	if _, err := cfg.check(); err != nil {
		return Estimate{} // the run itself reports the bad arguments
	}
	residual := !baseID(cfg.Base).IsZero()
	n := cfg.Rows * cfg.Cols
	levels := cfg.MaxGap/2 + 1
	// A cell set of k cells is estimated as the last k (the shares were
	// measured on those only).
	cells := slices.Clone(cfg.Cells)
	for _, s := range cfg.Sets {
		cells = append(cells, s.Len())
	}
	e := Estimate{Cells: cells}
	m, ok := measuredLevels[[2]int{cfg.Rows, cfg.Cols}]
	if residual {
		m, ok = measuredResidual[residualKey{cfg.Rows, cfg.Cols, baseID(cfg.Base).Spec}]
	}
	if given != nil {
		m, ok = given, true
	}
	switch {
	case ok && len(m) < 2 && len(m) < levels:
		return e // nothing to extrapolate from
	case ok:
		e.Levels = append(e.Levels, m[:min(levels, len(m))]...)
		for len(e.Levels) < levels {
			j := len(e.Levels)
			r := e.Levels[j-1] / e.Levels[j-2]
			e.Levels = append(e.Levels, e.Levels[j-1]*r*levelGrowthDecay)
		}
	case n <= 12:
		total := 1.0
		for i := 2; i <= n; i++ {
			total *= float64(i)
		}
		e.Levels = []float64{total / 2} // an upper bound
	default:
		return e
	}
	e.Known = true
	for j, v := range e.Levels {
		if !cfg.Exact || j == levels-1 {
			e.Members += v
		}
	}
	all := 0.0
	for _, v := range e.Levels {
		all += v
	}
	for _, k := range cells {
		p := e.Members
		if k < n {
			share := 1.0
			if n == 16 && !residual { // measured on the 4x4 gap sets only
				share = projectedShare(k, levels)
			}
			p = math.Min(e.Members*share, Patterns(n, k))
		}
		e.Projected = append(e.Projected, p)
		if cfg.Packed {
			e.OutputBytes += p * packedBytes(n, k, p)
		} else {
			e.OutputBytes += 8 * p
		}
	}
	// Scratch at the peak: about four of the largest layers (the input,
	// the new layer, the smaller-gap layers it subtracts), the largest
	// being a fourteenth of its level (G2: 88.5M of 1.24e9), and the
	// projections' runs, which compaction keeps near the final sets' size
	// (with raw runs this model gives 10.9 GiB for the gap <= 2 run with
	// projections 8, 10, 12; measured 11.1 GiB); delta-coded, 2 bytes per
	// projected key and per whole-board key 3 for sets up to gap 4 and 3.6
	// above (the gap-6 layers of the 4x4 took 3.56-3.96 bytes a key, the
	// sparser the more), or 2.2 rank-coded (2.18 on sparse 4x4 layers,
	// TestRankCodedRunsRoundTrip). Above gap 4 the projection runs held
	// 3.4 bytes a projected key at their peak (the gap <= 6 run onto the
	// last 10 cells and @0-3+5+12-15, 2026-11-28: 20.3 GiB for 6.42e9 keys;
	// 3.0 for the 10 cells, 3.25 for the 9): the denser projections repeat
	// more keys between runs before compaction merges them.
	perKey, perProj := 3.0, 2.0
	if cfg.MaxGap > 4 {
		perKey, perProj = 3.6, 3.4
	}
	switch {
	case cfg.RawRuns:
		perKey, perProj = 8, 8
	case cfg.RankRuns && cfg.MaxGap > 4:
		perKey = 1.52 // the gap-6 layers of the 4x4 run at steps 38 and 39
	case cfg.RankRuns:
		perKey = 2.2
	}
	largest := e.Levels[len(e.Levels)-1] / 14
	canonical := cfg.transposer() != nil
	if canonical {
		largest /= 2 // one key of each transposed pair
	}
	e.ScratchBytes = 4 * largest * perKey
	for i, k := range cells {
		if k < n && cfg.Tables && placement.Bytes(n, k) <= MaxApproxBytes {
			e.TableBytes += float64(placement.Bytes(n, k))
			continue
		}
		if k < n {
			e.ProjectionBytes += e.Projected[i] * perProj
		} else {
			// the whole-board file merges every layer run at the end (or,
			// canonical, runs of both members: as many keys)
			e.ProjectionBytes += all * perKey
		}
	}
	e.ScratchBytes += e.ProjectionBytes + 2*e.TableBytes
	cpu := cpuPerMember * all
	for _, k := range cells {
		if k >= 12 && k < n {
			cpu += cpuPerWideMember * all
		}
	}
	if cfg.RankRuns {
		cpu *= rankRunsCPU
	}
	if canonical {
		cpu *= transposeCPU
	}
	if residual {
		cpu *= residualCPU
	}
	// Each cell set gathers and sorts every member again (the last k cells
	// are nested, masked in place): measured on a canonical run, and the
	// members projected are the same either way.
	cpu += cpuPerSetMember * all * float64(len(cfg.Sets))
	e.CPU = time.Duration(cpu * float64(time.Second))
	mem := cfg.Memory
	if mem == 0 {
		mem = 4 << 30
	}
	// Small sets never fill the buffers: they grow on demand.
	// (Canonical layers are half as big, but a layer is projected with
	// its transposes: as many keys in the buffer.)
	e.RSS = max(rssFloor, min(rssPerBuffer*float64(mem), 64*e.Levels[len(e.Levels)-1]/14)) + e.TableBytes
	return e
}

// Patterns is n!/(n-k)!: the fillings of k cells of an n-cell board with
// distinct values (the projections a set of k cells can hold).
func Patterns(n, k int) float64 { return float64(placement.Size(n, k)) }

// coresBusy is how many of 2 cores the split enumerator keeps busy:
// 1.8 while its runs stay in the page cache (4x4 gap <= 2: 206.7 s of CPU
// in 113.7 s of wall), 1.27 once they are read back from the disk (gap <=
// 4: 2,082 s of CPU in 1,645 s).
func (e Estimate) coresBusy() float64 {
	if e.Members > 2e9 {
		return 1.27
	}
	return 1.8
}

// Wall is the expected wall time on 2 cores.
func (e Estimate) Wall() time.Duration { return time.Duration(float64(e.CPU) / e.coresBusy()) }

// String is the estimate in one line for a person about to start the run.
func (e Estimate) String() string {
	if !e.Known {
		return "no estimate: no measured growth for this board"
	}
	gib := func(x float64) float64 { return x / (1 << 30) }
	proj := fmt.Sprintf("projection runs %.1f GiB", gib(e.ProjectionBytes))
	if e.TableBytes > 0 {
		proj += fmt.Sprintf(", projection tables %.1f GiB in memory and in the checkpoint", gib(e.TableBytes))
	}
	s := fmt.Sprintf("estimate: %.3g members, peak disk %.1f GiB (scratch %.1f GiB while enumerating; at the end outputs %.1f GiB and %s), memory %.1f GiB, CPU %s (wall about %s on 2 cores)",
		e.Members, gib(e.Disk()), gib(e.ScratchBytes), gib(e.OutputBytes), proj, gib(e.RSS), e.CPU.Round(time.Second), e.Wall().Round(time.Second))
	if e.Wall() > longRun {
		s += "; longer than one process may live: it checkpoints after each step, and the same command run again resumes it"
	}
	return s
}

// CheckDisk refuses a run whose estimated peak disk does not fit: the
// outputs in dir, the scratch runs in scratch (both on one file system
// when they share it). Without figures to check against it lets the run try.
func (e Estimate) CheckDisk(dir, scratch string) error {
	a, err := sysprobe.FreeDisk(dir)
	if err != nil {
		return nil
	}
	b, err := sysprobe.FreeDisk(scratch)
	if err != nil {
		return nil
	}
	free := func(d sysprobe.Disk) float64 { return float64(d.Free) + e.Held }
	gib := func(x float64) float64 { return x / (1 << 30) }
	if a.SameFS(b) {
		if e.Disk() > free(a) {
			return fmt.Errorf("not enough disk: the run needs about %.1f GiB (outputs %.1f, scratch %.1f), %s has %.1f GiB free (fewer --cells, --packed, or --tmp on another disk)",
				gib(e.Disk()), gib(e.OutputBytes), gib(e.ScratchBytes), dir, gib(free(a)))
		}
		return nil
	}
	if e.OutputBytes > free(a) {
		return fmt.Errorf("not enough disk: the key-set files need about %.1f GiB, %s has %.1f GiB free", gib(e.OutputBytes), dir, gib(free(a)))
	}
	if e.ScratchBytes > free(b) {
		return fmt.Errorf("not enough disk: the scratch runs need about %.1f GiB, %s has %.1f GiB free", gib(e.ScratchBytes), scratch, gib(free(b)))
	}
	return nil
}

// FitDisk checks that the run of cfg, estimated as est, fits on the disk
// of its output and scratch directories. When it does not with runs of key
// differences but does with rank-coded runs, and then with rank-coded runs
// and projection tables (Tables), it returns cfg with those set, that
// estimate, and ranked true. The files of the checkpoint it
// would resume (cfg.Checkpoint, unless Fresh) count as free. Without
// figures (est.Known false), or for a run with MaxStep, it checks nothing.
func FitDisk(cfg Config, est Estimate, scratch string) (_ Config, _ Estimate, ranked bool, _ error) {
	held := 0.0
	if cfg.Checkpoint != "" && !cfg.Fresh {
		entries, _ := os.ReadDir(cfg.Checkpoint)
		for _, d := range entries {
			if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
				held += float64(info.Size())
			}
		}
	}
	est.Held = held
	if !est.Known || cfg.MaxStep > 0 {
		return cfg, est, false, nil // nothing to check against; a calibration run
	}
	err := est.CheckDisk(cfg.Dir, scratch)
	if err == nil || cfg.RawRuns || cfg.RankRuns {
		return cfg, est, false, err
	}
	alt := cfg
	alt.RankRuns = true
	for _, tables := range []bool{cfg.Tables, true} {
		alt.Tables = tables
		altEst := EstimateRun(alt)
		altEst.Held = held
		if altEst.CheckDisk(cfg.Dir, scratch) == nil {
			return alt, altEst, true, nil
		}
	}
	return cfg, est, false, err
}
