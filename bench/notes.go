package bench

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// RunInfo describes a benchmark run for the notes under its summary's title.
type RunInfo struct {
	Instances  int
	Input      string // the instance file
	Heuristics string // as given
	Solved     bool   // false: the run only combined included records
	Jobs       int    // parallel searches
	Cores      int
	Repeat     int      // solves per instance and heuristic (the fastest kept)
	Included   []string // results.jsonl files of earlier runs
	SetNotes   []string // the gap sets in memory, a line each
	DBNotes    []string // the gap databases mapped, a line each
	// Ready is the wall time from the command's start until every
	// heuristic was built (files loaded and checked whole), Done until the
	// last search ended: the load is part of what a user waits for.
	Ready, Done time.Duration
}

// Notes are the lines under the summary's title: what ran on what, which
// earlier records were included, and the gap sets used.
func (r RunInfo) Notes() []string {
	first := fmt.Sprintf("%d instances from %s, heuristics %s, %d parallel searches on %d cores.",
		r.Instances, r.Input, r.Heuristics, r.Jobs, r.Cores)
	if r.Repeat > 1 {
		first += fmt.Sprintf(" Times are the fastest of %d solves.", r.Repeat)
	}
	if !r.Solved {
		first = fmt.Sprintf("%d instances from %s; nothing solved in this run.", r.Instances, r.Input)
	}
	notes := []string{first}
	if r.Solved && r.Done > 0 {
		notes = append(notes, "", fmt.Sprintf("Wall time from the start: heuristics ready (files loaded and checked) at %.3f s, the last search done at %.3f s.",
			r.Ready.Seconds(), r.Done.Seconds()))
	}
	if len(r.Included) > 0 {
		notes = append(notes, "", "Records included from earlier runs: "+strings.Join(r.Included, ", ")+".")
	}
	if len(r.SetNotes) > 0 {
		notes = append(append(append(notes, "", "Gap sets (exact, in memory):", ""), r.SetNotes...), "")
	}
	if len(r.DBNotes) > 0 {
		notes = append(append(append(notes, "", "Gap databases (mapped):", ""), r.DBNotes...), "")
	}
	return notes
}

// ReadRecords reads the records of several results.jsonl files, in order.
func ReadRecords(paths []string) ([]Record, error) {
	var out []Record
	for _, path := range paths {
		recs, err := ReadJSONL(path)
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
	}
	return out, nil
}

// Paths are the files WriteAll writes into dir.
func Paths(dir string) []string {
	var out []string
	for _, f := range []string{CSVFile, JSONLFile, ChartFile, SummaryFile} {
		out = append(out, filepath.Join(dir, f))
	}
	return out
}
