// Package report checks and describes the result of a search on a small
// puzzle (package search): it replays the solution, fills the record the
// command prints, and renders it as text or as one JSON line.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gapset/gapset/search"
)

// Spec tells the report how to show and check one puzzle's states.
type Spec[S comparable] struct {
	Name   string
	Format func(S) string
	Grid   func(S) string // multi-line drawing for text output; nil: Format
	Move   func(S, int) (S, error)
	Goal   func(S) bool
	// MoveName names a move label in text output.
	MoveName func(int) string
}

// Path is the record of a path search.
type Path struct {
	Puzzle     string             `json:"puzzle"`
	Method     string             `json:"method"`
	Start      string             `json:"start"`
	Goal       string             `json:"goal,omitempty"`
	Length     int                `json:"length"`
	Moves      []int              `json:"moves"`
	Path       []string           `json:"path"`
	Generated  int64              `json:"generated"`
	Stored     int                `json:"stored,omitempty"`
	Expanded   int64              `json:"expanded"`
	Seconds    float64            `json:"seconds"`
	Dedup      string             `json:"dedup,omitempty"`
	NoUndo     bool               `json:"no_undo"`
	LowerBound *bool              `json:"lower_bound,omitempty"`
	Iterations []search.Iteration `json:"iterations,omitempty"`
	Extra      map[string]any     `json:"extra,omitempty"`

	moveNames []string // text output only
	grids     []string // multi-line drawings of the path; nil: one line per state
}

// Verify replays the moves from the start and checks each state and the
// goal: a failure is a bug, never a user error.
func (p Spec[S]) Verify(r search.Result[S]) error {
	if len(r.Path) != len(r.Moves)+1 {
		return fmt.Errorf("internal error: path of %d states for %d moves", len(r.Path), len(r.Moves))
	}
	cur := r.Path[0]
	for i, m := range r.Moves {
		next, err := p.Move(cur, m)
		if err != nil || next != r.Path[i+1] {
			return fmt.Errorf("internal error: move %d of the solution does not replay (%v)", i+1, err)
		}
		cur = next
	}
	if !p.Goal(cur) {
		return fmt.Errorf("internal error: the solution ends at %s, not a goal", p.Format(cur))
	}
	return nil
}

// Path verifies r and completes rec (which holds the method and the options)
// with the solution and the work done.
func (p Spec[S]) Path(rec Path, r search.Result[S]) (Path, error) {
	if err := p.Verify(r); err != nil {
		return Path{}, err
	}
	rec.Puzzle = p.Name
	rec.Start = p.Format(r.Path[0])
	rec.Length = r.Length()
	rec.Moves = r.Moves
	rec.Generated, rec.Stored, rec.Expanded = r.Generated, r.Stored, r.Expanded
	rec.Seconds = r.Elapsed.Seconds()
	rec.Iterations = r.Iterations
	for _, s := range r.Path {
		rec.Path = append(rec.Path, p.Format(s))
		if p.Grid != nil {
			rec.grids = append(rec.grids, p.Grid(s))
		}
	}
	rec.moveNames = make([]string, len(r.Moves))
	for i, m := range r.Moves {
		rec.moveNames[i] = p.MoveName(m)
	}
	return rec, nil
}

// Write renders the record as text or (format "json") as one JSON line.
func (rec Path) Write(w io.Writer, format string) error {
	if format == "json" {
		return json.NewEncoder(w).Encode(rec)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s %s: %s\n", rec.Puzzle, rec.Method, rec.Start)
	fmt.Fprintf(&sb, "length %d, %d states generated", rec.Length, rec.Generated)
	if rec.Stored > 0 {
		fmt.Fprintf(&sb, ", %d stored", rec.Stored)
	}
	fmt.Fprintf(&sb, ", %d expanded, %.3fs", rec.Expanded, rec.Seconds)
	if rec.Dedup != "" {
		fmt.Fprintf(&sb, ", dedup %s", rec.Dedup)
	}
	sb.WriteString("\n")
	for _, it := range rec.Iterations {
		fmt.Fprintf(&sb, "  limit %2d: %d expanded, %d generated\n", it.Limit, it.Expanded, it.Generated)
	}
	fmt.Fprintf(&sb, "moves: %s\n", strings.Join(rec.moveNames, " "))
	for i, s := range rec.Path {
		if rec.grids == nil {
			fmt.Fprintf(&sb, "%3d  %s\n", i, s)
			continue
		}
		fmt.Fprintf(&sb, "%d:\n%s", i, rec.grids[i])
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// Farthest is the record of a farthest-positions search.
type Farthest struct {
	Puzzle    string   `json:"puzzle"`
	From      string   `json:"from"`
	Depth     int      `json:"depth"`
	Count     int      `json:"count"`
	Positions []string `json:"positions"`
	Reached   int      `json:"reached"`
	Layers    []int    `json:"layers"`
	Generated int64    `json:"generated"`
	Stored    int      `json:"stored"`
	Seconds   float64  `json:"seconds"`
	Dedup     string   `json:"dedup"`
	NoUndo    bool     `json:"no_undo"`
}

// Farthest describes the layers of a breadth-first search from one state.
func (p Spec[S]) Farthest(from S, l search.Layers[S], opt search.Options) Farthest {
	rec := Farthest{
		Puzzle: p.Name, From: p.Format(from), Depth: l.Depth(), Count: len(l.Farthest), Reached: l.Reached,
		Layers: l.Sizes, Generated: l.Work.Generated, Stored: l.Work.Stored, Seconds: l.Work.Elapsed.Seconds(),
		Dedup: opt.Dedup.String(), NoUndo: opt.NoUndo,
	}
	for _, s := range l.Farthest {
		rec.Positions = append(rec.Positions, p.Format(s))
	}
	return rec
}

// Write renders the record as text or (format "json") as one JSON line.
func (rec Farthest) Write(w io.Writer, format string) error {
	if format == "json" {
		return json.NewEncoder(w).Encode(rec)
	}
	var sb strings.Builder
	plural := "s"
	if rec.Count == 1 {
		plural = ""
	}
	fmt.Fprintf(&sb, "%s farthest from %s: %d moves, %d position%s\n", rec.Puzzle, rec.From, rec.Depth, rec.Count, plural)
	fmt.Fprintf(&sb, "reached %d states; %d generated, %.3fs, dedup %s\n", rec.Reached, rec.Generated, rec.Seconds, rec.Dedup)
	layers := make([]string, len(rec.Layers))
	for i, n := range rec.Layers {
		layers[i] = fmt.Sprint(n)
	}
	fmt.Fprintf(&sb, "states per distance: %s\n", strings.Join(layers, " "))
	for _, s := range rec.Positions {
		fmt.Fprintf(&sb, "  %s\n", s)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}
