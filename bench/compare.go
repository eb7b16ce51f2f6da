package bench

import (
	"fmt"
	"io"

	"github.com/gapset/gapset/encode"
)

// CPUOrWall is the record's CPU time, or its wall time where CPU time is
// unknown.
func (r Record) CPUOrWall() float64 {
	if r.CPU > 0 {
		return r.CPU
	}
	return r.Seconds
}

// WritePaperTable2 prints a summary's averages and ratios beside the
// paper's Table 2 rows, as Markdown.
func WritePaperTable2(w io.Writer, s Summary) {
	fmt.Fprintln(w, "## Table 2 comparison (averages; ratios to Manhattan distance; our times are CPU seconds of the search thread)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| heuristic | nodes | time (s) | node ratio | time ratio |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for _, r := range s.Rows {
		t, tr := r.AvgCPU, r.CPURatio
		if t == 0 { // no per-thread CPU clock: wall time
			t, tr = r.AvgSeconds, r.TimeRatio
		}
		fmt.Fprintf(w, "| %s, here | %.3g | %.3f | %.3f | %.3f |\n", r.Heuristic, r.AvgNodes, t, r.NodeRatio, tr)
	}
	base := PaperTable2[0]
	for _, p := range PaperTable2[:2] {
		fmt.Fprintf(w, "| %s, paper (300 random) | %.3g | %.1f | %.3f | %.3f |\n", p.Heuristic, p.Nodes, p.Seconds, p.Nodes/base.Nodes, p.Seconds/base.Seconds)
	}
	fmt.Fprintln(w)
}

// Merge puts included records (earlier runs) and new ones together,
// in instance order; included records must be for the same boards, and a
// heuristic solved now replaces the same heuristic's included record.
func Merge(insts []encode.Instance, included, fresh []Record) ([]Record, error) {
	if len(included) == 0 {
		return fresh, nil
	}
	board := map[string]string{}
	for _, in := range insts {
		board[in.ID] = in.Board.String()
	}
	type idh struct{ id, h string }
	seen := map[idh]bool{}
	for _, r := range fresh {
		seen[idh{r.ID, r.Heuristic}] = true
	}
	byID := map[string][]Record{}
	for _, r := range included {
		b, ok := board[r.ID]
		if !ok {
			continue // an instance outside this run (e.g. beyond --limit)
		}
		if b != r.Board {
			return nil, fmt.Errorf("included record %s (%s) is for board %s, but this run's %s is %s", r.ID, r.Heuristic, r.Board, r.ID, b)
		}
		if k := (idh{r.ID, r.Heuristic}); !seen[k] {
			seen[k] = true
			byID[r.ID] = append(byID[r.ID], r)
		}
	}
	for _, r := range fresh {
		byID[r.ID] = append(byID[r.ID], r)
	}
	var out []Record
	for _, in := range insts {
		out = append(out, byID[in.ID]...)
	}
	return out, nil
}
