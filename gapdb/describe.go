package gapdb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Summary is a database's header as report prints it.
type Summary struct {
	Path    string   `json:"path"`
	Name    string   `json:"name"`
	Rows    int      `json:"rows"`
	Cols    int      `json:"cols"`
	Cells   []int    `json:"cells"`
	MaxGap  int      `json:"max_gap"`
	Bits    int      `json:"bits"`
	Filter  int      `json:"filter_cells"` // 0: none
	Entries uint64   `json:"entries"`
	Bytes   uint64   `json:"bytes"`
	Counts  []uint64 `json:"counts"` // per level, the last: above MaxGap
	Digest  string   `json:"digest"`
	Sources []Source `json:"sources"`
}

// Summarize describes a header.
func Summarize(path string, h Header) Summary {
	return Summary{Path: path, Name: h.Name(), Rows: h.Rows, Cols: h.Cols, Cells: h.Cells, MaxGap: h.MaxGap(), Bits: h.Bits, Filter: h.FilterCells,
		Entries: h.Entries, Bytes: h.TableOff + h.TableLen + h.FilterLen, Counts: h.Counts[:h.Levels+1], Digest: fmt.Sprintf("%08x", h.Digest()), Sources: h.Sources}
}

// Write prints s as one line of text (format "md") or a JSON object
// ("json").
func (s Summary) Write(w io.Writer, format string) error {
	if format == "json" {
		return json.NewEncoder(w).Encode(s)
	}
	var lv []string
	for v, c := range s.Counts {
		name := fmt.Sprintf("gap<=%d", 2*v)
		if v == len(s.Counts)-1 {
			name = "above"
		}
		lv = append(lv, fmt.Sprintf("%s %d", name, c))
	}
	var src []string
	for _, x := range s.Sources {
		src = append(src, fmt.Sprintf("%s (%d keys, crc %08x)", x.Name, x.Count, x.CRC))
	}
	if len(src) == 0 {
		src = []string{"no files named"}
	}
	filter := "no filter"
	if s.Filter > 0 {
		filter = fmt.Sprintf("a filter of its last %d cells", s.Filter)
	}
	_, err := fmt.Fprintf(w, "%s: gap database %s, %dx%d, cells %s, gap <= %d in %d bits, %d entries, %s, %d bytes; %s; digest %s; from %s\n",
		s.Path, s.Name, s.Rows, s.Cols, joinInts(s.Cells, ","), s.MaxGap, s.Bits, s.Entries, filter, s.Bytes, strings.Join(lv, ", "), s.Digest, strings.Join(src, ", "))
	return err
}

// Recount counts the entries of the table by value and checks each against
// the levels, and computes the filter again from the table: the checks of
// verify, one pass over the entries on all cores (a few seconds for 8
// cells, minutes for 10).
func (d *DB) Recount() error {
	filter, counts := scan(d.table, d.Rows*d.Cols, len(d.Cells), d.FilterCells, d.Bits, d.Levels)
	for v := d.Levels + 1; v < len(counts); v++ {
		if counts[v] != 0 {
			return fmt.Errorf("%w: %d entries hold %d, above the %d levels", ErrFormat, counts[v], v, d.Levels)
		}
	}
	if counts != d.Counts {
		return fmt.Errorf("%w: the table's counts %v differ from the header's %v", ErrFormat, counts[:d.Levels+1], d.Counts[:d.Levels+1])
	}
	if !bytes.Equal(filter, d.filter) {
		return fmt.Errorf("%w: the filter differs from the smallest entries of the table", ErrFormat)
	}
	return nil
}
