package bench

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gapset/gapset/data"
)

// Row summarises one heuristic over the instances that every heuristic
// solved (so averages compare like with like).
type Row struct {
	Heuristic     string
	Instances     int
	AvgNodes      float64
	MedianNodes   float64
	AvgSeconds    float64
	MedianSeconds float64
	AvgCPU        float64 // CPU seconds of the search thread
	NodesPerSec   float64 // per CPU second when known, else per wall second
	NodeRatio     float64 // average nodes / the baseline's average nodes
	TimeRatio     float64 // average time / the baseline's
	CPURatio      float64 // average CPU time / the baseline's
	AvgQueries    float64 // set queries made per instance
	AvgSkipped    float64 // nodes per instance whose query was skipped
}

// Summary is the comparison table and the checks behind it.
type Summary struct {
	Baseline   string // heuristic the ratios refer to ("" when none)
	Rows       []Row
	Instances  int      // instances solved by every heuristic
	Unsolved   []string // "id heuristic: reason" for solves over the node limit
	Mismatches []string // instances whose lengths differ between heuristics
}

// Summarize builds the table. Heuristics keep the order of their first
// appearance; baseline (usually "md") gives the ratios when present.
func Summarize(recs []Record, baseline string) Summary {
	var names []string
	byID := map[string]map[string]Record{}
	var ids []string
	for _, r := range recs {
		if !slices.Contains(names, r.Heuristic) {
			names = append(names, r.Heuristic)
		}
		if byID[r.ID] == nil {
			byID[r.ID] = map[string]Record{}
			ids = append(ids, r.ID)
		}
		byID[r.ID][r.Heuristic] = r
	}
	var s Summary
	var complete []string
	for _, id := range ids {
		ok := len(byID[id]) == len(names)
		var lens []string
		same := true
		length := -1
		for _, n := range names {
			r, have := byID[id][n]
			if !have {
				continue
			}
			if r.Error != "" {
				s.Unsolved = append(s.Unsolved, fmt.Sprintf("%s %s: %s", id, n, r.Error))
				ok = false
				continue
			}
			lens = append(lens, fmt.Sprintf("%s %d", n, r.Length))
			if length >= 0 && r.Length != length {
				same = false
			}
			length = r.Length
		}
		if !same {
			s.Mismatches = append(s.Mismatches, fmt.Sprintf("%s: %s", id, strings.Join(lens, ", ")))
		}
		if ok {
			complete = append(complete, id)
		}
	}
	s.Instances = len(complete)
	for _, n := range names {
		row := Row{Heuristic: n, Instances: len(complete)}
		var nodes, secs, cpus []float64
		var q, sk float64
		for _, id := range complete {
			r := byID[id][n]
			nodes = append(nodes, float64(r.Nodes))
			secs = append(secs, r.Seconds)
			cpus = append(cpus, r.CPU)
			q += float64(r.Queries)
			sk += float64(r.Skipped)
		}
		if len(complete) > 0 {
			c := float64(len(complete))
			row.AvgNodes, row.MedianNodes = mean(nodes), median(nodes)
			row.AvgSeconds, row.MedianSeconds = mean(secs), median(secs)
			row.AvgCPU = mean(cpus)
			if row.AvgCPU > 0 {
				row.NodesPerSec = row.AvgNodes / row.AvgCPU
			} else if row.AvgSeconds > 0 {
				row.NodesPerSec = row.AvgNodes / row.AvgSeconds
			}
			row.AvgQueries, row.AvgSkipped = q/c, sk/c
		}
		s.Rows = append(s.Rows, row)
	}
	if i := slices.IndexFunc(s.Rows, func(r Row) bool { return r.Heuristic == baseline }); i >= 0 {
		s.Baseline = baseline
		b := s.Rows[i]
		for j := range s.Rows {
			if b.AvgNodes > 0 {
				s.Rows[j].NodeRatio = s.Rows[j].AvgNodes / b.AvgNodes
			}
			if b.AvgSeconds > 0 {
				s.Rows[j].TimeRatio = s.Rows[j].AvgSeconds / b.AvgSeconds
			}
			if b.AvgCPU > 0 {
				s.Rows[j].CPURatio = s.Rows[j].AvgCPU / b.AvgCPU
			}
		}
	}
	return s
}

func mean(xs []float64) float64 {
	var t float64
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// DefaultTitle names what a run measured: the heuristics, the instances
// (how many, from which file) and the day, so that a summary or chart read
// later says what it holds.
func (s Summary) DefaultTitle(source string, day time.Time) string {
	names := make([]string, len(s.Rows))
	for i, r := range s.Rows {
		names[i] = r.Heuristic
	}
	return fmt.Sprintf("%s on %d instances of %s, %s", strings.Join(names, ", "), s.Instances, filepath.Base(source), day.Format(time.DateOnly))
}

// Markdown writes the summary, then the paper's Table 2 with its ratios.
// title heads the section; notes (set sizes, machine, command) follow it.
func (s Summary) Markdown(w io.Writer, title string, notes []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", title)
	for _, n := range notes {
		fmt.Fprintf(&b, "%s\n", n)
	}
	if len(notes) > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Instances solved by every heuristic: %d.", s.Instances)
	if s.Baseline != "" {
		fmt.Fprintf(&b, " Ratios are to %s.", s.Baseline)
	}
	b.WriteString("\n\n")
	b.WriteString("| heuristic | avg nodes | median nodes | avg time (s) | median time (s) | avg CPU (s) | nodes/CPU s | node ratio | time ratio | CPU ratio | avg queries | avg skipped | skipped share |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range s.Rows {
		share := "-"
		if r.AvgQueries+r.AvgSkipped > 0 {
			share = fmt.Sprintf("%.1f%%", 100*r.AvgSkipped/(r.AvgQueries+r.AvgSkipped))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.3f | %.3f | %.3f | %s | %s | %s | %s | %s | %s | %s |\n",
			r.Heuristic, sci(r.AvgNodes), sci(r.MedianNodes), r.AvgSeconds, r.MedianSeconds, r.AvgCPU,
			sci(r.NodesPerSec), ratio(r.NodeRatio, s.Baseline), ratio(r.TimeRatio, s.Baseline), ratio(r.CPURatio, s.Baseline),
			sci(r.AvgQueries), sci(r.AvgSkipped), share)
	}
	b.WriteString("\nTime is wall clock; CPU is the search thread's own CPU time, steadier on a shared machine.\n")
	b.WriteString("\nThe paper's Table 2 (300 random instances, averages; C, GCC 4.2.1, 2.93 GHz Xeon):\n\n")
	b.WriteString("| heuristic (BDD) | nodes | time (s) | node ratio | time ratio |\n|---|---:|---:|---:|---:|\n")
	paper := data.PaperTable2()
	for _, p := range paper {
		fmt.Fprintf(&b, "| %s | %s | %.1f | %.3f | %.3f |\n", p.Heuristic, sci(p.Nodes), p.Seconds,
			p.Nodes/paper[0].Nodes, p.Seconds/paper[0].Seconds)
	}
	if len(s.Mismatches) > 0 {
		b.WriteString("\n**Lengths differ between heuristics (a bug or an inadmissible set):**\n\n")
		for _, m := range s.Mismatches {
			fmt.Fprintf(&b, "- %s\n", m)
		}
	}
	if len(s.Unsolved) > 0 {
		fmt.Fprintf(&b, "\nNot solved within the node limit (left out of the averages): %d\n\n", len(s.Unsolved))
		for _, m := range s.Unsolved {
			fmt.Fprintf(&b, "- %s\n", m)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func sci(x float64) string {
	if x == 0 {
		return "0"
	}
	if x < 1e4 {
		return fmt.Sprintf("%.4g", x)
	}
	return fmt.Sprintf("%.3g", x)
}

func ratio(x float64, baseline string) string {
	if baseline == "" {
		return "-"
	}
	return fmt.Sprintf("%.3f", x)
}
