package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/bdd/levelplot"
	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/errmark"
	"github.com/gapset/gapset/internal/sysprobe"
)

// ErrInput marks a file or an option Files refuses (bad input); the
// error's text is unchanged (errmark).
var ErrInput = errors.New("bad report input")

func inputErrorf(format string, a ...any) error {
	return errmark.As(fmt.Errorf(format, a...), ErrInput)
}

// Options are what Files reads of each BDD file beyond its checked header.
type Options struct {
	Format string // md, csv or json (a gap database: md or json)
	Verify bool   // check each file whole in one pass (bdd.Check)
	Levels bool   // add each file's nodes per level to its row
	Chart  string // also draw the files' nodes per level to this PNG file
}

// Files writes to w the rows of the BDD files (Write) and a line for each
// gap database (gapdb.Summarize), as gapset report prints them; a mapped
// form, a damaged or missing file is ErrInput.
func Files(w io.Writer, paths []string, opt Options) error {
	var rows []Row
	var series []levelplot.Series
	for _, path := range paths {
		if gapdb.IsDB(path) {
			// a gap database: its own line, not a BDD's row
			d, err := gapdb.Open(path) // checks the table too: seconds at most
			if err != nil {
				return errmark.If(err, ErrInput, gapdb.ErrFormat)
			}
			h := d.Header
			d.Close()
			if opt.Format == "csv" {
				return inputErrorf("%s: a gap database is reported as md or json, not csv", path)
			}
			if err := gapdb.Summarize(path, h).Write(w, opt.Format); err != nil {
				return err
			}
			continue
		}
		if bdd.IsMapped(path) {
			return inputErrorf("%s is a diagram's mapped form (build --map): report its .bdd file; gapset verify checks this one", path)
		}
		var levels []uint64
		var in bdd.Info
		var err error
		switch {
		case opt.Verify:
			_, avail := sysprobe.Machine()
			levels, in, err = bdd.Check(path, avail) // Load's checks in one stream
		case opt.Levels || opt.Chart != "":
			levels, in, err = bdd.LevelNodes(path) // checks the checksum too
		default:
			in, err = bdd.ReadInfoChecked(path)
		}
		if err != nil {
			return errmark.If(err, ErrInput, bdd.ErrFormat, os.ErrNotExist)
		}
		row := NewRow(path, in)
		if opt.Levels {
			row.LevelNodes = levels
		}
		rows = append(rows, row)
		if opt.Chart != "" {
			counts := make([]int, len(levels))
			for i, n := range levels {
				counts[i] = int(n)
			}
			series = append(series, levelplot.Series{Name: filepath.Base(path), Counts: counts})
		}
	}
	if opt.Chart != "" {
		if len(series) == 0 {
			return inputErrorf("--chart draws BDD files' levels: no BDD file given")
		}
		var sets []string
		for _, r := range rows {
			if !slices.Contains(sets, r.Set) {
				sets = append(sets, r.Set)
			}
		}
		png, err := levelplot.Chart("BDD nodes per level: "+strings.Join(sets, ", "), series)
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(opt.Chart, png); err != nil {
			return err
		}
	}
	if len(rows) == 0 {
		return nil // gap databases only
	}
	return Write(w, opt.Format, rows)
}
