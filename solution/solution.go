// Package solution describes solved boards the way `gapset solve` prints
// them: one Row per board (its length, moves and the search's work), written
// as text, CSV or JSON lines by a Writer. It knows nothing of benchmarks, so
// that solving a board does not depend on package bench.
package solution

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
)

// Row is one board's line of `gapset solve` (text, CSV or JSON).
type Row struct {
	ID         string           `json:"id"`
	Board      string           `json:"board"`
	Length     int              `json:"length"`
	Moves      []int            `json:"moves"`
	Nodes      int64            `json:"nodes"`
	Generated  int64            `json:"generated"`
	Seconds    float64          `json:"seconds"`
	Heuristic  string           `json:"heuristic"`
	RootBound  int              `json:"root_bound"`
	Iterations []ida.Iteration  `json:"iterations"`
	Counters   map[string]int64 `json:"counters,omitempty"`
	Solutions  int64            `json:"solutions"`
	// Unsolved is set when the board reached the node limit; Length is then 0.
	Unsolved bool `json:"unsolved,omitempty"`
}

// New describes the search of one board; unsolved: it reached the node
// limit (res then holds the work done).
func New(in encode.Instance, res ida.Result, unsolved bool) Row {
	s := Row{
		ID: in.ID, Board: in.Board.String(), Length: res.Length, Moves: res.Moves,
		Nodes: res.Expanded, Generated: res.Generated, Seconds: res.Elapsed.Seconds(),
		Heuristic: res.Heuristic, RootBound: res.RootBound, Iterations: res.Iterations, Counters: res.Counters,
		Solutions: res.Solutions, Unsolved: unsolved,
	}
	if unsolved {
		s.Length, s.Moves = 0, nil
	}
	return s
}

// CSVHeader is the header line of CSV rows.
var CSVHeader = []string{"id", "board", "length", "nodes", "generated", "seconds", "heuristic", "moves"}

// CSV is the solution as a CSV row ("unsolved" for the length of one that
// reached the limit).
func (s Row) CSV() []string {
	length := strconv.Itoa(s.Length)
	if s.Unsolved {
		length = "unsolved"
	}
	return []string{s.ID, s.Board, length, strconv.FormatInt(s.Nodes, 10),
		strconv.FormatInt(s.Generated, 10), fmt.Sprintf("%.3f", s.Seconds), s.Heuristic, moveList(s.Moves)}
}

// Text is the solution as text: a line of figures, the board and the
// moves; maxNodes names the limit of an unsolved board, all adds the number
// of optimal solutions.
func (s Row) Text(maxNodes int64, all bool) string {
	if s.Unsolved {
		return fmt.Sprintf("%s: unsolved: --max-nodes %d reached, %d nodes, %.3fs, %s\n  board: %s\n",
			s.ID, maxNodes, s.Nodes, s.Seconds, s.Heuristic, s.Board)
	}
	n := ""
	if all {
		n = fmt.Sprintf(", %d optimal solutions", s.Solutions)
	}
	return fmt.Sprintf("%s: length %d%s, %d nodes, %.3fs, %s\n  board: %s\n  moves: %s\n",
		s.ID, s.Length, n, s.Nodes, s.Seconds, s.Heuristic, s.Board, moveList(s.Moves))
}

func moveList(moves []int) string {
	parts := make([]string, len(moves))
	for i, m := range moves {
		parts[i] = strconv.Itoa(m)
	}
	return strings.Join(parts, " ")
}

// Writer writes rows one at a time as text, CSV (the header
// first) or JSON lines (format "text", "csv", "json"), each flushed as it is
// written, and keeps their totals.
type Writer struct {
	w        io.Writer
	format   string
	maxNodes int64 // named by the text of an unsolved board
	all      bool  // the text counts the optimal solutions
	csv      *csv.Writer
	json     *json.Encoder
	held     *held // NewHeldWriter's

	Boards, Unsolved int
	Nodes            int64
	Seconds          float64
}

// NewWriter writes to w; maxNodes and all are the search's options that
// the text shows (see Row.Text).
func NewWriter(w io.Writer, format string, maxNodes int64, all bool) *Writer {
	s := &Writer{w: w, format: format, maxNodes: maxNodes, all: all, json: json.NewEncoder(w)}
	if format == "csv" {
		s.csv = csv.NewWriter(w)
		_ = s.csv.Write(CSVHeader)
	}
	return s
}

// Write writes one row.
func (s *Writer) Write(rec Row) error {
	if s.held != nil { // a failed check before anything is counted
		if err := s.held.release(false); err != nil {
			return err
		}
	}
	s.Boards++
	if rec.Unsolved {
		s.Unsolved++
	}
	s.Nodes += rec.Nodes
	s.Seconds += rec.Seconds
	switch s.format {
	case "json":
		return s.json.Encode(rec)
	case "csv":
		_ = s.csv.Write(rec.CSV())
		s.csv.Flush()
		return s.csv.Error()
	}
	_, err := io.WriteString(s.w, rec.Text(s.maxNodes, s.all))
	return err
}

// Close ends the output: as text, a line of totals when more than one board
// was written. A held writer's checks are waited for first (Release).
func (s *Writer) Close() error {
	if err := s.Release(); err != nil {
		return err
	}
	if s.format != "text" || s.Boards < 2 {
		return nil
	}
	_, err := fmt.Fprintf(s.w, "solved %d boards: %d nodes, %.3fs\n", s.Boards-s.Unsolved, s.Nodes, s.Seconds)
	return err
}
