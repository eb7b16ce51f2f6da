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
	// ResMaxGap and ResCounts are the residual levels of a database of
	// both (Base their base).
	ResMaxGap int      `json:"res_max_gap,omitempty"`
	ResCounts []uint64 `json:"res_counts,omitempty"`
	Base      string   `json:"base,omitempty"`
	Digest    string   `json:"digest"`
	Sources   []Source `json:"sources"`
}

// Summarize describes a header.
func Summarize(path string, h Header) Summary {
	s := summarize(path, h)
	if !h.Base.IsZero() {
		s.Base = h.Base.Spec
	}
	if h.Both() {
		s.ResMaxGap, s.ResCounts = h.ResMaxGap(), h.ResCounts[:h.ResLevels+1]
	}
	return s
}

func summarize(path string, h Header) Summary {
	return Summary{Path: path, Name: h.Name(), Rows: h.Rows, Cols: h.Cols, Cells: h.Cells, MaxGap: h.MaxGap(), Bits: h.Bits, Filter: h.FilterCells,
		Entries: h.Entries, Bytes: h.TableOff + h.TableLen + h.FilterLen, Counts: h.Counts[:h.Levels+1], Digest: fmt.Sprintf("%08x", h.Digest()), Sources: h.Sources}
}

// Write prints s as one line of text (format "md") or a JSON object
// ("json").
func (s Summary) Write(w io.Writer, format string) error {
	if format == "json" {
		return json.NewEncoder(w).Encode(s)
	}
	lv := levelCounts(s.Counts, "gap")
	levels := fmt.Sprintf("gap <= %d in %d bits", s.MaxGap, s.Bits)
	if s.ResCounts != nil {
		lv = append(lv, levelCounts(s.ResCounts, "r")...)
		levels = fmt.Sprintf("gap <= %d and r <= %d (base %s) in %d bits", s.MaxGap, s.ResMaxGap, s.Base, s.Bits)
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
	_, err := fmt.Fprintf(w, "%s: gap database %s, %dx%d, cells %s, %s, %d entries, %s, %d bytes; %s; digest %s; from %s\n",
		s.Path, s.Name, s.Rows, s.Cols, joinInts(s.Cells, ","), levels, s.Entries, filter, s.Bytes, strings.Join(lv, ", "), s.Digest, strings.Join(src, ", "))
	return err
}

// levelCounts names the counts of one field: "gap<=0 N", ..., "above N"
// ("gap above N" and "r<=0 N", ..., "r above N" with both levels).
func levelCounts(counts []uint64, what string) []string {
	var lv []string
	for v, c := range counts {
		name := fmt.Sprintf("%s<=%d", what, 2*v)
		if v == len(counts)-1 {
			name = what + " above"
			if what == "gap" {
				name = "above"
			}
		}
		lv = append(lv, fmt.Sprintf("%s %d", name, c))
	}
	return lv
}

// Recount counts the entries of the table by value and checks each against
// the levels, and computes the filter again from the table: the checks of
// verify, one pass over the entries on all cores (a few seconds for 8
// cells, minutes for 10).
func (d *DB) Recount() error {
	filter, counts, res := scan(d.table, &d.Header)
	if err := recounted(counts, d.Counts, d.Levels, ""); err != nil {
		return err
	}
	if d.Both() {
		if err := recounted(res, d.ResCounts, d.ResLevels, "residual "); err != nil {
			return err
		}
	}
	if !bytes.Equal(filter, d.filter) {
		return fmt.Errorf("%w: the filter differs from the smallest entries of the table", ErrFormat)
	}
	return nil
}

// recounted compares the counts of one field of the table with the
// header's.
func recounted(counts, header [16]uint64, levels int, what string) error {
	for v := levels + 1; v < len(counts); v++ {
		if counts[v] != 0 {
			return fmt.Errorf("%w: %d entries hold %s%d, above the %d levels", ErrFormat, counts[v], what, v, levels)
		}
	}
	if counts != header {
		return fmt.Errorf("%w: the table's %scounts %v differ from the header's %v", ErrFormat, what, counts[:levels+1], header[:levels+1])
	}
	return nil
}
