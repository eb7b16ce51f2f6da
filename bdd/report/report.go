package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/data"
)

// Row describes one BDD file (one line of `gapset report`).
type Row struct {
	File          string  `json:"file"`
	Set           string  `json:"set"`
	Board         string  `json:"board"`
	Cells         int     `json:"cells"`
	Order         string  `json:"order"`
	Encoding      string  `json:"encoding"`
	OrderBits     []uint8 `json:"order_bits"`
	FileSize      int64   `json:"file_size"`
	Nodes         uint64  `json:"nodes"`
	BytesPerNode  float64 `json:"bytes_per_node"`
	ZDDNodes      uint64  `json:"zdd_nodes"`
	Patterns      uint64  `json:"patterns"`
	BuildSeconds  float64 `json:"build_seconds"`
	PaperFileSize int64   `json:"paper_file_size,omitempty"`
	PaperNodes    int64   `json:"paper_nodes,omitempty"`
	PaperPatterns int64   `json:"paper_patterns,omitempty"`
	// From version 4 files (zero and "" in older ones):
	WidestLevel uint64 `json:"widest_level"` // nodes on the widest level
	PeakMemory  int64  `json:"peak_memory"`  // the build's peak resident memory, bytes
	Builder     string `json:"builder"`      // "in memory" or "out of core"
	// With --levels: the nodes on each level, the root's first (bdd.LevelNodes).
	LevelNodes []uint64 `json:"level_nodes,omitempty"`
}

// NewRow describes the file at path from its header, with the paper's
// values when Table 1 holds the same set of the 15-puzzle.
func NewRow(path string, in bdd.Info) Row {
	row := Row{File: path, Set: in.Name(), Board: fmt.Sprintf("%dx%d", in.Rows, in.Cols), Cells: in.Cells,
		Order: in.Order.Name, FileSize: in.FileSize, Nodes: in.Nodes, ZDDNodes: in.ZDDNodes,
		Patterns: in.Count, BuildSeconds: in.BuildTime.Seconds(), Encoding: in.Encoding.String(), OrderBits: in.Order.Bits}
	if in.Nodes > 0 {
		row.BytesPerNode = float64(in.FileSize) / float64(in.Nodes)
	}
	if in.RefBytes != 0 { // version 4 on
		row.WidestLevel, row.PeakMemory, row.Builder = in.WidestLevel, in.PeakMemory, "in memory"
		if in.OutOfCore {
			row.Builder = "out of core"
		}
	}
	if p, ok := data.PaperTable1()[row.Set]; ok && in.Rows == 4 && in.Cols == 4 {
		row.PaperFileSize, row.PaperNodes, row.PaperPatterns = p.FileSize, p.Nodes, p.Patterns
	}
	return row
}

// Write writes the rows as a Markdown table (format "md"), CSV with a
// header line, or one indented JSON array. Rows with their nodes per level
// add them: a CSV column level_nodes ("n0;n1;..."), a JSON array, and in
// Markdown a second table, one row per level and one column per file.
func Write(w io.Writer, format string, rows []Row) error {
	levels := slices.ContainsFunc(rows, func(r Row) bool { return r.LevelNodes != nil })
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	case "csv":
		cw := csv.NewWriter(w)
		head := []string{"file", "set", "board", "cells", "order", "file_size", "nodes", "bytes_per_node", "zdd_nodes",
			"patterns", "build_seconds", "paper_file_size", "paper_nodes", "paper_patterns", "encoding", "order_bits",
			"widest_level", "peak_memory", "builder"}
		if levels {
			head = append(head, "level_nodes")
		}
		cw.Write(head)
		for _, r := range rows {
			rec := []string{r.File, r.Set, r.Board, strconv.Itoa(r.Cells), r.Order, strconv.FormatInt(r.FileSize, 10),
				strconv.FormatUint(r.Nodes, 10), strconv.FormatFloat(r.BytesPerNode, 'f', 3, 64),
				strconv.FormatUint(r.ZDDNodes, 10), strconv.FormatUint(r.Patterns, 10),
				strconv.FormatFloat(r.BuildSeconds, 'f', 2, 64), opt(r.PaperFileSize), opt(r.PaperNodes), opt(r.PaperPatterns),
				r.Encoding, BitList(r.OrderBits), opt(int64(r.WidestLevel)), opt(r.PeakMemory), r.Builder}
			if levels {
				rec = append(rec, LevelList(r.LevelNodes))
			}
			cw.Write(rec)
		}
		cw.Flush()
		return cw.Error()
	}
	var sb strings.Builder
	sb.WriteString("| set | order | file size | nodes | bytes/node | ZDD nodes | patterns | build s | paper file size | paper nodes | paper patterns | widest level | peak memory | built |\n")
	sb.WriteString("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n")
	for _, r := range rows {
		pp := optg(r.PaperPatterns)
		if r.PaperPatterns != 0 && uint64(r.PaperPatterns) == r.Patterns {
			pp += " (same)"
		}
		peak := ""
		if r.PeakMemory > 0 {
			peak = fmt.Sprintf("%.2f GiB", float64(r.PeakMemory)/(1<<30))
		}
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %.2f | %s | %s | %.1f | %s | %s | %s | %s | %s | %s |\n", r.Set, r.orderLabel(),
			Group(uint64(r.FileSize)), Group(r.Nodes), r.BytesPerNode, optg(int64(r.ZDDNodes)), Group(r.Patterns), r.BuildSeconds,
			optg(r.PaperFileSize), optg(r.PaperNodes), pp, optg(int64(r.WidestLevel)), peak, r.Builder)
	}
	if levels {
		writeLevels(&sb, rows)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// writeLevels adds the Markdown table of nodes per level: one row per
// level (as many as the file with the most variables has), one column per
// file with its levels.
func writeLevels(sb *strings.Builder, rows []Row) {
	var with []Row
	L := 0
	for _, r := range rows {
		if r.LevelNodes != nil {
			with = append(with, r)
			L = max(L, len(r.LevelNodes))
		}
	}
	sb.WriteString("\nnodes per level (level 0: the root's variable)\n\n| level |")
	for _, r := range with {
		fmt.Fprintf(sb, " %s |", r.File)
	}
	sb.WriteString("\n|--:|" + strings.Repeat("--:|", len(with)) + "\n")
	for lv := range L {
		fmt.Fprintf(sb, "| %d |", lv)
		for _, r := range with {
			cell := ""
			if lv < len(r.LevelNodes) {
				cell = Group(r.LevelNodes[lv])
			}
			fmt.Fprintf(sb, " %s |", cell)
		}
		sb.WriteString("\n")
	}
}

// LevelList writes nodes per level as the CSV column holds them: n0;n1;...
func LevelList(levels []uint64) string {
	s := make([]string, len(levels))
	for i, n := range levels {
		s[i] = strconv.FormatUint(n, 10)
	}
	return strings.Join(s, ";")
}

// orderLabel is the order column of the table: the name, the encoding if
// not cells, and the bits of an order that has no fixed name.
func (r Row) orderLabel() string {
	s := r.Order
	if !slices.Contains(bdd.OrderNames(), r.Order) {
		s += " [" + BitList(r.OrderBits) + "]"
	}
	if r.Encoding != bdd.Cells.String() {
		s += " (" + r.Encoding + ")"
	}
	return s
}

// BitList writes an order's key bits, level 0 first, separated by spaces.
func BitList(bits []uint8) string {
	s := make([]string, len(bits))
	for i, b := range bits {
		s[i] = strconv.Itoa(int(b))
	}
	return strings.Join(s, " ")
}

func opt(v int64) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatInt(v, 10)
}

func optg(v int64) string {
	if v == 0 {
		return ""
	}
	return Group(uint64(v))
}
