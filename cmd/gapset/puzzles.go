package main

// Shared plumbing of the small-puzzle commands (six, oshidori, slide): the
// search flags, running a method of package search, checking the path and
// printing it as text or JSON.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gapset/gapset/search"
	"github.com/urfave/cli/v2"
)

func formatFlag() cli.Flag {
	return &cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text or json"}
}

// bfsFlags are the flags of the breadth-first methods.
func bfsFlags(noUndo bool) []cli.Flag {
	return []cli.Flag{
		formatFlag(),
		&cli.StringFlag{Name: "dedup", Value: "map", Usage: "duplicate detection: map, open (open addressing, linear probing) or linear (scan; slow, for measuring)"},
		&cli.BoolFlag{Name: "no-undo", Value: noUndo, Usage: "never generate the move that undoes the last one"},
		&cli.IntFlag{Name: "max-states", Value: 10_000_000, Usage: "give up after storing `N` states (about 100 bytes each)"},
	}
}

// deepenFlags are the flags of iterative deepening.
func deepenFlags() []cli.Flag {
	return []cli.Flag{
		formatFlag(),
		&cli.BoolFlag{Name: "lower-bound", Aliases: []string{"l"}, Usage: "prune with the admissible lower bound (depth + bound > limit cuts); the limit starts at the bound"},
		&cli.BoolFlag{Name: "no-undo", Value: true, Usage: "never move the same piece twice in a row (--no-undo=false to allow)"},
		&cli.IntFlag{Name: "max-depth", Value: 40, Usage: "give up after the pass with depth limit `N`"},
		&cli.Int64Flag{Name: "max-nodes", Usage: "give up after `N` nodes expanded (0: no limit)"},
	}
}

func searchOptions(c *cli.Context) (search.Options, error) {
	d, err := search.ParseDedup(c.String("dedup"))
	if err != nil {
		return search.Options{}, badInput(err)
	}
	if c.Int("max-states") < 1 {
		return search.Options{}, badInputf("--max-states must be at least 1")
	}
	return search.Options{Dedup: d, NoUndo: c.Bool("no-undo"), MaxStates: c.Int("max-states")}, nil
}

func deepenOptions(c *cli.Context) (search.DeepenOptions, error) {
	if c.Int("max-depth") < 0 || c.Int64("max-nodes") < 0 {
		return search.DeepenOptions{}, badInputf("--max-depth and --max-nodes must not be negative")
	}
	return search.DeepenOptions{NoUndo: c.Bool("no-undo"), MaxDepth: c.Int("max-depth"), MaxNodes: c.Int64("max-nodes")}, nil
}

// puzzleSpec tells the shared code how to show and check one puzzle's states.
type puzzleSpec[S comparable] struct {
	name   string
	format func(S) string
	grid   func(S) string // multi-line drawing for text output; nil: format
	move   func(S, int) (S, error)
	goal   func(S) bool
	// moveName names a move label in text output.
	moveName func(int) string
}

// pathRecord is the JSON output of a path search.
type pathRecord struct {
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
}

// verify replays the moves from the start and checks each state and the
// goal: a failure is a bug, never a user error.
func (p puzzleSpec[S]) verify(r search.Result[S]) error {
	if len(r.Path) != len(r.Moves)+1 {
		return fmt.Errorf("internal error: path of %d states for %d moves", len(r.Path), len(r.Moves))
	}
	cur := r.Path[0]
	for i, m := range r.Moves {
		next, err := p.move(cur, m)
		if err != nil || next != r.Path[i+1] {
			return fmt.Errorf("internal error: move %d of the solution does not replay (%v)", i+1, err)
		}
		cur = next
	}
	if !p.goal(cur) {
		return fmt.Errorf("internal error: the solution ends at %s, not a goal", p.format(cur))
	}
	return nil
}

// searchError turns a failed search into the command's error: an
// unreachable goal is the input's fault (exit 2), a limit is not.
func searchError(err error) error {
	if errors.Is(err, search.ErrNotFound) {
		return badInput(err)
	}
	if errors.Is(err, search.ErrLimit) {
		return fmt.Errorf("%w (raise --max-states, --max-nodes or --max-depth)", err)
	}
	return err
}

func (p puzzleSpec[S]) report(w io.Writer, format string, rec pathRecord, r search.Result[S]) error {
	if err := p.verify(r); err != nil {
		return err
	}
	rec.Puzzle = p.name
	rec.Start = p.format(r.Path[0])
	rec.Length = r.Length()
	rec.Moves = r.Moves
	rec.Generated, rec.Stored, rec.Expanded = r.Generated, r.Stored, r.Expanded
	rec.Seconds = r.Elapsed.Seconds()
	rec.Iterations = r.Iterations
	for _, s := range r.Path {
		rec.Path = append(rec.Path, p.format(s))
	}
	if format == "json" {
		return json.NewEncoder(w).Encode(rec)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s %s: %s\n", p.name, rec.Method, rec.Start)
	fmt.Fprintf(&sb, "length %d, %d states generated", rec.Length, rec.Generated)
	if rec.Stored > 0 {
		fmt.Fprintf(&sb, ", %d stored", rec.Stored)
	}
	fmt.Fprintf(&sb, ", %d expanded, %ss", rec.Expanded, seconds(rec.Seconds))
	if rec.Dedup != "" {
		fmt.Fprintf(&sb, ", dedup %s", rec.Dedup)
	}
	sb.WriteString("\n")
	for _, it := range rec.Iterations {
		fmt.Fprintf(&sb, "  limit %2d: %d expanded, %d generated\n", it.Limit, it.Expanded, it.Generated)
	}
	names := make([]string, len(r.Moves))
	for i, m := range r.Moves {
		names[i] = p.moveName(m)
	}
	fmt.Fprintf(&sb, "moves: %s\n", strings.Join(names, " "))
	for i, s := range r.Path {
		if p.grid == nil {
			fmt.Fprintf(&sb, "%3d  %s\n", i, p.format(s))
			continue
		}
		fmt.Fprintf(&sb, "%d:\n%s", i, p.grid(s))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// farthestRecord is the JSON output of a farthest-positions search.
type farthestRecord struct {
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

func (p puzzleSpec[S]) reportFarthest(w io.Writer, format string, from S, l search.Layers[S], opt search.Options) error {
	rec := farthestRecord{
		Puzzle: p.name, From: p.format(from), Depth: l.Depth(), Count: len(l.Farthest), Reached: l.Reached,
		Layers: l.Sizes, Generated: l.Work.Generated, Stored: l.Work.Stored, Seconds: l.Work.Elapsed.Seconds(),
		Dedup: opt.Dedup.String(), NoUndo: opt.NoUndo,
	}
	for _, s := range l.Farthest {
		rec.Positions = append(rec.Positions, p.format(s))
	}
	if format == "json" {
		return json.NewEncoder(w).Encode(rec)
	}
	var sb strings.Builder
	plural := "s"
	if rec.Count == 1 {
		plural = ""
	}
	fmt.Fprintf(&sb, "%s farthest from %s: %d moves, %d position%s\n", p.name, rec.From, rec.Depth, rec.Count, plural)
	fmt.Fprintf(&sb, "reached %d states; %d generated, %ss, dedup %s\n", rec.Reached, rec.Generated, seconds(rec.Seconds), rec.Dedup)
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

// joinArgs makes one board string of the arguments: either one quoted
// argument or several bare pieces.
func joinArgs(c *cli.Context, what string) (string, error) {
	if c.NArg() == 0 {
		return "", badInputf("no %s given", what)
	}
	for _, a := range c.Args().Slice() {
		if strings.HasPrefix(a, "--") {
			return "", badInputf("%s after the board: put flags before it", quoteArg(a))
		}
	}
	return strings.Join(c.Args().Slice(), " "), nil
}
