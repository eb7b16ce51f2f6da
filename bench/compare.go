package bench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/gapset/gapset/data"
	"github.com/gapset/gapset/encode"
)

// WritePaperTable2 prints a summary's averages beside the paper's Table 2
// rows, as Markdown: nodes and node ratios from s, times and time ratios
// (with their range over the rounds) from times, which method describes.
func WritePaperTable2(w io.Writer, s Summary, times []TimeRow, method string) {
	fmt.Fprintln(w, "## Table 2 comparison")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Averages over the instances; ratios to Manhattan distance. %s\n\n", method)
	fmt.Fprintln(w, "| heuristic | nodes | time (s) | node ratio | time ratio | time ratio min-max |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	for _, r := range s.Rows {
		i := slices.IndexFunc(times, func(t TimeRow) bool { return t.Heuristic == r.Heuristic })
		if i < 0 {
			continue // not timed: no figure to print
		}
		t := times[i]
		fmt.Fprintf(w, "| %s, here | %.3g | %s | %.3f | %.3f | %.3f-%.3f |\n", r.Heuristic, r.AvgNodes, Figure(t.Seconds), r.NodeRatio, t.Ratio, t.RatioMin, t.RatioMax)
	}
	paper := data.PaperTable2()
	for _, p := range paper[:2] {
		fmt.Fprintf(w, "| %s, paper (300 random) | %.3g | %s | %.3f | %.3f | - |\n", p.Heuristic, p.Nodes, Figure(p.Seconds), p.Nodes/paper[0].Nodes, p.Seconds/paper[0].Seconds)
	}
	fmt.Fprintln(w)
}

// Figure writes x with three significant digits and no exponent (51.8,
// 0.00512), for times that span many powers of ten in one column.
func Figure(x float64) string {
	if x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
	return strconv.FormatFloat(x, 'f', max(0, 2-int(math.Floor(math.Log10(x)))), 64)
}

// Merge puts included records (earlier runs) and new ones together,
// in instance order; included records must be for the same boards, and a
// heuristic solved now replaces the same heuristic's included record.
func Merge(insts []encode.Instance, included, fresh []Record) ([]Record, error) {
	if len(included) == 0 {
		return fresh, nil
	}
	board := map[string]string{}
	bound := map[string]int{}
	for _, in := range insts {
		board[in.ID] = in.Board.String()
		bound[in.ID] = in.Board.Manhattan()
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
		if err := plausible(r, bound[r.ID]); err != nil {
			return nil, err
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

// plausible refuses an included record no solve could have written: a
// solved board's length is at least its Manhattan distance md and of the
// same parity (every move changes md by one), and counts are never
// negative. A record with an error (a solve given up) carries no length.
func plausible(r Record, md int) error {
	bad := func(what string, v any) error {
		return fmt.Errorf("included record %s (%s): %s %v is impossible", r.ID, r.Heuristic, what, v)
	}
	switch {
	case r.Nodes < 0:
		return bad("nodes", r.Nodes)
	case r.Generated < 0:
		return bad("generated", r.Generated)
	case r.Queries < 0 || r.Skipped < 0:
		return bad("queries/skipped", fmt.Sprintf("%d/%d", r.Queries, r.Skipped))
	case r.Seconds < 0 || r.CPU < 0 || math.IsNaN(r.Seconds) || math.IsNaN(r.CPU):
		return bad("time", fmt.Sprintf("%g s (CPU %g s)", r.Seconds, r.CPU))
	case r.Error != "":
		return nil
	case r.Length < md || (r.Length-md)%2 != 0:
		return fmt.Errorf("included record %s (%s): length %d is impossible for a board at Manhattan distance %d", r.ID, r.Heuristic, r.Length, md)
	case r.RootBound > r.Length || r.RootBound < 0:
		return bad("root bound", r.RootBound)
	}
	return nil
}
