package gapdb

import (
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
	Entries uint64   `json:"entries"`
	Bytes   uint64   `json:"bytes"`
	Counts  []uint64 `json:"counts"` // per level, the last: above MaxGap
	Digest  string   `json:"digest"`
	Sources []Source `json:"sources"`
}

// Summarize describes a header.
func Summarize(path string, h Header) Summary {
	return Summary{Path: path, Name: h.Name(), Rows: h.Rows, Cols: h.Cols, Cells: h.Cells, MaxGap: h.MaxGap(), Bits: h.Bits,
		Entries: h.Entries, Bytes: h.TableOff + h.TableLen, Counts: h.Counts[:h.Levels+1], Digest: fmt.Sprintf("%08x", h.Digest()), Sources: h.Sources}
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
	_, err := fmt.Fprintf(w, "%s: gap database %s, %dx%d, cells %s, gap <= %d in %d bits, %d entries, %d bytes; %s; digest %s; from %s\n",
		s.Path, s.Name, s.Rows, s.Cols, joinInts(s.Cells, ","), s.MaxGap, s.Bits, s.Entries, s.Bytes, strings.Join(lv, ", "), s.Digest, strings.Join(src, ", "))
	return err
}

// Recount counts the entries of the table by value and checks each against
// the levels: the count check of verify.
func (d *DB) Recount() error {
	var counts [16]uint64
	for x := uint64(0); x < d.Entries; x++ {
		counts[d.At(x)]++
	}
	for v := d.Levels + 1; v < len(counts); v++ {
		if counts[v] != 0 {
			return fmt.Errorf("%w: %d entries hold %d, above the %d levels", ErrFormat, counts[v], v, d.Levels)
		}
	}
	if counts != d.Counts {
		return fmt.Errorf("%w: the table's counts %v differ from the header's %v", ErrFormat, counts[:d.Levels+1], d.Counts[:d.Levels+1])
	}
	return nil
}
