// Package demo is the main job of gapset on embedded data, end to end:
// enumerate Gap0, keep its projection Gap0_8 exactly (memset) and as a BDD,
// solve shipped instances with Manhattan distance and h_G from both, check
// they agree, and print the Table 1 row and Table 2 beside the paper's.
package demo

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/bdd/report"
	"github.com/gapset/gapset/bench"
	"github.com/gapset/gapset/data"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/heuristic"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/memset"
)

// KorfIDs are Korf instances quick enough for a demo on any machine.
var KorfIDs = []string{"12", "42", "55", "79", "97"}

// truth returns the optimal length of every demo instance: the published
// lengths on the 15-puzzle, breadth-first search on the 8-puzzle.
func truth(insts []encode.Instance, small bool) (map[string]int, error) {
	want := map[string]int{}
	if !small {
		korf := map[string]int{}
		for i, in := range data.Korf100() {
			korf[in.ID] = data.KorfLength(i + 1)
		}
		for _, in := range insts {
			l, ok := korf[in.ID]
			if !ok {
				return nil, fmt.Errorf("instance %s is not one of Korf's 100", in.ID)
			}
			want[in.ID] = l
		}
		return want, nil
	}
	dist := encode.Distances(3, 3)
	for _, in := range insts {
		want[in.ID] = dist[in.Board.Key()]
	}
	return want, nil
}

// checkLengths fails unless every record's length is the true optimum.
func checkLengths(recs []bench.Record, want map[string]int) error {
	for _, r := range recs {
		if w, ok := want[r.ID]; !ok || r.Length != w {
			return fmt.Errorf("instance %s: %s found %d moves, the optimum is %d", r.ID, r.Heuristic, r.Length, w)
		}
	}
	return nil
}

// timing is how long the demo repeats each solve so that its CPU time
// means something (a 15-puzzle solve here takes 0.5-20 ms, an 8-puzzle one
// tens of microseconds): MinTime per heuristic and instance, in rounds.
// With 3 heuristics: about 3 s on the 15-puzzle's 5 instances, 0.6 s on
// the 8-puzzle's 20.
func timing(small bool) bench.TimeOptions {
	if small {
		return bench.TimeOptions{MinTime: 10 * time.Millisecond, Rounds: 5}
	}
	return bench.TimeOptions{MinTime: 200 * time.Millisecond, Rounds: 5}
}

// Progress receives the status of the long steps: done of total (0:
// unknown), whether the line must be shown now, and the message; Done ends a
// step. Nil fields show nothing.
type Progress struct {
	Update func(done, total int64, force bool, format string, a ...any)
	Done   func()
}

// Instances returns the demo's boards: Korf's KorfIDs on the 15-puzzle, or
// (small) 20 random 8-puzzle boards from a fixed seed.
func Instances(small bool) []encode.Instance {
	var insts []encode.Instance
	if small {
		rng := rand.New(rand.NewPCG(2012, 3))
		for i := 0; i < 20; i++ {
			insts = append(insts, encode.Instance{ID: strconv.Itoa(i + 1), Line: i + 1, Board: encode.Random(rng, 3, 3)})
		}
		return insts
	}
	for _, in := range data.Korf100() {
		if slices.Contains(KorfIDs, in.ID) {
			insts = append(insts, in)
		}
	}
	return insts
}

// Run runs the demo on the 15-puzzle (small: the 8-puzzle with Gap0_4) and
// writes its Markdown report to w. An error means the demo did not finish
// or its checks failed.
func Run(ctx context.Context, w io.Writer, small bool, p Progress) error {
	if p.Update == nil {
		p.Update = func(int64, int64, bool, string, ...any) {}
	}
	if p.Done == nil {
		p.Done = func() {}
	}
	rows, cols, cells := 4, 4, 8
	if small {
		rows, cols, cells = 3, 3, 4
	}
	insts := Instances(small)
	fmt.Fprintf(w, "# gapset demo: h_G with Gap0_%d on the %dx%d puzzle\n\n", cells, rows, cols)

	start := time.Now()
	var members int64
	sets, err := gapset.Sets(ctx, rows, cols, 0, []int{cells}, func(g gapset.Progress) {
		members = max(members, g.Members)
		p.Update(0, 0, false, "step 1 of 4, enumerating Gap0 by Manhattan transitions: layer M=%d, %d members", g.Manhattan, g.Members)
	})
	p.Done()
	if err != nil {
		return err
	}
	set := memset.New(sets[cells], cells)
	fmt.Fprintf(w, "Gap0 of the %dx%d puzzle has %d configurations; its projection onto the last %d cells (Gap0_%d) has %d patterns (enumerated in %.1f s, held exactly in a %d-byte hash table).\n\n",
		rows, cols, members, cells, cells, set.Len(), time.Since(start).Seconds(), set.Bytes())

	// the BDD of the same set, in the paper's variable order
	start = time.Now()
	p.Update(0, 0, true, "step 2 of 4, building the BDD of Gap0_%d", cells)
	order, err := bdd.NamedOrder("natural", rows, cols, cells)
	if err != nil {
		return err
	}
	d, err := bdd.BuildInPlace(slices.Clone(sets[cells]), order, false, nil)
	if err != nil {
		return err
	}
	var file countWriter
	info, err := bdd.Encode(&file, d, bdd.Meta{Rows: rows, Cols: cols, Cells: cells, Gap: 0, BuildTime: time.Since(start)})
	if err != nil {
		return err
	}
	bset, err := bdd.NewSet(d, info)
	if err != nil {
		return err
	}
	p.Done()
	fmt.Fprintf(w, "Its BDD (natural variable order: cells row-major, each cell's bits most significant first, as in the paper) was built in %.1f s.\n\n", time.Since(start).Seconds())

	fmt.Fprintln(w, "## Table 1 row")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| set | file size (bytes) | BDD nodes | patterns |")
	fmt.Fprintln(w, "|---|---:|---:|---:|")
	if p, ok := data.PaperTable1()[fmt.Sprintf("Gap0_%d", cells)]; ok && rows == 4 && cols == 4 {
		fmt.Fprintf(w, "| Gap0_%d (paper, BDD) | %s | %s | %s |\n", cells, report.Group(uint64(p.FileSize)), report.Group(uint64(p.Nodes)), report.Group(uint64(p.Patterns)))
	}
	fmt.Fprintf(w, "| Gap0_%d (here, BDD) | %s | %s | %s |\n\n", cells, report.Group(uint64(file.n)), report.Group(info.Nodes), report.Group(info.Count))

	// Both answer most questions from small bit tables of the set's
	// projections (taken from the BDD for the one, the hash table for the
	// other), as gapset solve and bench do by default.
	hBDD, err := heuristic.GapOf(fmt.Sprintf("h_G (Gap0_%d BDD)", cells), heuristic.BDDSet(bset), cells)
	if err != nil {
		return err
	}
	hSet, err := heuristic.GapOf(fmt.Sprintf("h_G (Gap0_%d exact)", cells), set, cells)
	if err != nil {
		return err
	}
	for i, t := range hBDD.Dense[0] {
		if a, b := t.(*memset.Dense).Len(), hSet.Dense[0][i].(*memset.Dense).Len(); a != b {
			return fmt.Errorf("Gap0_%d projected for table %d: %d patterns from the BDD, %d from the keys", cells, i, a, b)
		}
	}
	hs := []ida.Heuristic{ida.Manhattan{}, hBDD, hSet}
	recs, err := bench.Run(ctx, insts, hs, bench.Options{Jobs: 1, Progress: func(done, total int, r bench.Record) {
		// the line starts with done/total: the words after it say what it counts
		p.Update(int64(done), int64(total), true, "solves (step 3 of 4): instance %s with %s, length %d, %d nodes", r.ID, r.Heuristic, r.Length, r.Nodes)
	}})
	p.Done()
	if err != nil {
		return err
	}
	for i := 0; i+2 < len(recs); i += 3 {
		if recs[i+1].Nodes != recs[i+2].Nodes {
			return fmt.Errorf("instance %s: the BDD and the exact set disagree (%d and %d nodes)", recs[i].ID, recs[i+1].Nodes, recs[i+2].Nodes)
		}
	}
	s := bench.Summarize(recs, "md")
	if len(s.Mismatches) > 0 {
		return fmt.Errorf("heuristics disagree on lengths: %v", s.Mismatches)
	}
	want, err := truth(insts, small)
	if err != nil {
		return err
	}
	if err := checkLengths(recs, want); err != nil {
		return err
	}
	topt := timing(small)
	topt.Progress = func(done, total int) {
		p.Update(int64(done), int64(total), true, "instance and heuristic pairs timed (step 4 of 4), each solved over and over for %v", topt.MinTime)
	}
	times, err := bench.Time(ctx, insts, hs, topt)
	p.Done()
	if err != nil {
		return err
	}
	method := fmt.Sprintf("the search thread's CPU time per solve, the median of %d rounds of repeated solves (each round at least %v)",
		topt.Rounds, topt.MinTime/time.Duration(topt.Rounds))
	fmt.Fprintf(w, "## Solved (%d instances)\n\n", len(insts))
	fmt.Fprintf(w, "Times (ms): %s.\n\n", method)
	fmt.Fprintln(w, "| id | length | md nodes | h_G nodes | md ms | h_G (BDD) ms | h_G (exact) ms | queries | skipped |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for i := 0; i+2 < len(recs); i += 3 {
		m, g := recs[i], recs[i+1]
		fmt.Fprintf(w, "| %s | %d | %d | %d | %s | %s | %s | %d | %d |\n", m.ID, m.Length, m.Nodes, g.Nodes,
			bench.Figure(1e3*times[i].Median()), bench.Figure(1e3*times[i+1].Median()), bench.Figure(1e3*times[i+2].Median()), g.Queries, g.Skipped)
	}
	fmt.Fprintln(w)
	bench.WritePaperTable2(w, s, bench.SummarizeTimes(times, s.Baseline),
		"Our time (s) is "+method+"; the time ratio is the median of the rounds' ratios, min-max their range.")
	return nil
}

// countWriter counts the bytes of a BDD file without keeping them.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}
