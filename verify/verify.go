// Package verify runs the full, slow checks of the files the heuristics
// read (gapset verify): each file against the set enumerated again or the
// table built again, beyond what a load checks (docs/file-checks.md says
// what each covers).
package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/infile"
	"github.com/gapset/gapset/internal/sysprobe"
	"github.com/gapset/gapset/keyset"
	"github.com/gapset/gapset/pdb"
)

// ErrFailed is wrapped by every verification failure that is the file's
// fault (as opposed to an error reading it).
var ErrFailed = errors.New("verification failed")

// File runs the full, slow checks of a file the heuristics read,
// whatever its kind (found by its magic bytes), and returns a one-line
// summary:
//   - key-set files: checksum, order, every key a valid projected board,
//     and the keys compared with the set enumerated again where that fits
//     in memory (boards of at most 12 cells, or gap 0);
//   - BDD files: checksum, structure, the member count, the order's name
//     against its bits, the ZDD node count if stored, and the members
//     compared with the set enumerated again where that fits;
//   - gap databases: the load's checks (header, length, chunk CRCs), every
//     entry counted against the header's counts, and the table built again
//     from the level files it names when they are found beside it (same
//     names and CRCs) and compared byte for byte, its header's board,
//     cells, levels and base with theirs;
//   - pattern databases (blank-aware ones too): the group and kind its
//     file name says (as a load requires), checksum, the load-time checks,
//     and the whole table built again and compared byte for byte.
func File(ctx context.Context, path string, workers int) (string, error) {
	f, err := infile.Open(path)
	if err != nil {
		return "", err
	}
	var head [8]byte
	_, err = io.ReadFull(f, head[:])
	f.Close()
	switch {
	case err != nil:
		return "", fmt.Errorf("%s: %w: too short for any gapset file", path, ErrFailed)
	case bytes.HasPrefix(head[:], []byte("GAPKEYS")):
		return verifyKeys(ctx, path)
	case bdd.IsMapped(path):
		return verifyMapped(ctx, path)
	case bytes.HasPrefix(head[:], []byte("GAPBDD")):
		return verifyBDD(ctx, path)
	case bytes.HasPrefix(head[:], []byte("GAPSPDB")):
		return verifyPDB(ctx, path, workers)
	case bytes.HasPrefix(head[:], []byte("GAPDB")):
		return verifyGapDB(ctx, path)
	}
	return "", fmt.Errorf("%s: %w: not a key-set, BDD, pattern database or gap database file", path, ErrFailed)
}

func failed(err error) error { return fmt.Errorf("%w: %w", ErrFailed, err) }

// enumerable reports whether a set can be enumerated again in memory here.
func enumerable(rows, cols, gap int, exact bool) bool {
	return !(exact && gap > 0) && (rows*cols <= 12 || gap == 0)
}

func enumerate(ctx context.Context, rows, cols, gap, cells int) ([]uint64, error) {
	sets, err := gapset.Sets(ctx, rows, cols, gap, []int{cells}, nil)
	if err != nil {
		return nil, err
	}
	return sets[cells], nil
}

func verifyKeys(ctx context.Context, path string) (string, error) {
	h, keys, err := keyset.ReadAllAny(path)
	if err != nil {
		return "", failed(err)
	}
	if h.Exact && h.Gap == 0 {
		return "", fmt.Errorf("%w: %s: the header marks a gap-0 set exact, which no writer does", ErrFailed, path)
	}
	msg := fmt.Sprintf("%s: key set %s, %d keys: checksum, order and keys valid", path, h.Name(), len(keys))
	if !enumerable(h.Rows, h.Cols, h.Gap, h.Exact) {
		return msg + "; not enumerated again (too big to hold in memory here)", nil
	}
	var want []uint64
	if h.CellSet == 0 {
		want, err = enumerate(ctx, h.Rows, h.Cols, h.Gap, h.Cells)
	} else {
		// a cell set: the whole boards' set, gathered
		want, err = enumerate(ctx, h.Rows, h.Cols, h.Gap, h.Rows*h.Cols)
		p := h.CellSet.Projector(h.Rows * h.Cols)
		for i, k := range want {
			want[i] = p.Gather(k)
		}
		slices.Sort(want)
		want = slices.Compact(want)
	}
	if err != nil {
		return "", err
	}
	if h.Approx {
		// an approximation must hold the whole set (admissibility), and
		// more: one equal to the set would be marked exact
		if missing := countMissing(keys, want); missing > 0 || len(keys) == len(want) {
			return "", fmt.Errorf("%w: %s: marked approximate, but %d keys of %s are missing and %d extra", ErrFailed, path, missing, h.Name(), len(keys)-len(want)+missing)
		}
		return msg + "; a superset of the set enumerated again", nil
	}
	if !slices.Equal(keys, want) {
		return "", fmt.Errorf("%w: %s: %d keys, but %s enumerated again has %d (or other keys)", ErrFailed, path, len(keys), h.Name(), len(want))
	}
	return msg + "; equal to the set enumerated again", nil
}

// verifyMapped checks a diagram's mapped form: the checks of its load
// (header, every block's CRC, every node's children), then its members
// listed from the file and counted against the header.
func verifyMapped(ctx context.Context, path string) (string, error) {
	s, err := bdd.Open(path)
	if err != nil {
		return "", failedIf(err, bdd.ErrMapped)
	}
	defer s.Close()
	in := s.Info()
	var n uint64
	var stopped error
	if _, err := s.Members(func(uint64) bool {
		if n++; n%(1<<24) == 0 && ctx.Err() != nil {
			stopped = ctx.Err()
			return false
		}
		return true
	}); err != nil {
		return "", failed(err)
	}
	if stopped != nil {
		return "", stopped
	}
	if n != in.Count {
		return "", fmt.Errorf("%w: %s: %d members, the header says %d", ErrFailed, path, n, in.Count)
	}
	return fmt.Sprintf("%s: mapped BDD of %s, %d nodes, %d members: checksums, structure and count ok", path, in.Name(), in.Nodes, n), nil
}

func verifyBDD(ctx context.Context, path string) (string, error) {
	_, avail := sysprobe.Machine()
	return verifyBDDWithin(ctx, path, avail)
}

// verifyBDDWithin is verifyBDD with avail bytes of memory (0: no limit).
func verifyBDDWithin(ctx context.Context, path string, avail uint64) (string, error) {
	in, err := bdd.ReadInfo(path)
	if err != nil {
		return "", failed(err)
	}
	// The whole diagram is needed only to count its ZDD or to query it with
	// the set enumerated again; otherwise one stream checks it, holding its
	// nodes with several parents (a big set's diagram may not fit at all).
	var d *bdd.Diagram
	zddNote := ""
	big := in.ZDD || !enumerable(in.Rows, in.Cols, in.Gap, in.Exact)
	if in.ZDDNodes > 0 && !in.ZDD || !big {
		d, in, err = bdd.LoadWithin(path, avail)
		if errors.Is(err, bdd.ErrTooBig) && big { // all but the ZDD count, then
			zddNote = "; the ZDD count not checked (the diagram does not fit in memory)"
		}
	}
	if d == nil && (err == nil || zddNote != "") {
		_, in, err = bdd.Check(path, avail)
	}
	if errors.Is(err, bdd.ErrTooBig) {
		return "", err // the machine's limit, not the file's fault
	}
	if err != nil {
		return "", failed(err)
	}
	if o, err := bdd.NamedOrder(in.Order.Name, in.Rows, in.Cols, in.Cells); err == nil && !slices.Equal(o.Bits, in.Order.Bits) {
		return "", fmt.Errorf("%w: %s: the order is named %q but its bits are another order's", ErrFailed, path, in.Order.Name)
	}
	// Writers name a named order by its name: bits of a named order under
	// another name (not "custom", not a search's "method:start") mean a
	// damaged name. (A custom order's name is a label no check can confirm.)
	// (Two named orders can have the same bits, as on the cells of one row:
	// either name is then right, which the check above confirmed.)
	_, named := bdd.NamedOrder(in.Order.Name, in.Rows, in.Cols, in.Cells)
	for _, n := range bdd.OrderNames() {
		if o, err := bdd.NamedOrder(n, in.Rows, in.Cols, in.Cells); err == nil && slices.Equal(o.Bits, in.Order.Bits) &&
			named != nil && in.Order.Name != "custom" && !strings.Contains(in.Order.Name, ":") {
			return "", fmt.Errorf("%w: %s: the order is %s's, but named %q", ErrFailed, path, n, in.Order.Name)
		}
	}
	for _, r := range in.Order.Name {
		if r < ' ' || r > '~' {
			return "", fmt.Errorf("%w: %s: the order's name %q is not printable", ErrFailed, path, in.Order.Name)
		}
	}
	if in.ZDDNodes > 0 && !in.ZDD && d != nil {
		z, err := d.ZDDOf()
		if err != nil {
			return "", err
		}
		if n := uint64(z.NodeCount()); n != in.ZDDNodes {
			return "", fmt.Errorf("%w: %s: the header says %d ZDD nodes, the set has %d", ErrFailed, path, in.ZDDNodes, n)
		}
	}
	msg := fmt.Sprintf("%s: BDD of %s, %d nodes, %d members: checksum, structure and count valid%s", path, in.Name(), in.Nodes, in.Count, zddNote)
	if in.ZDD || !enumerable(in.Rows, in.Cols, in.Gap, in.Exact) {
		return msg + "; not enumerated again", nil
	}
	want, err := enumerate(ctx, in.Rows, in.Cols, in.Gap, in.Cells)
	if err != nil {
		return "", err
	}
	if in.Exact && in.Gap == 0 {
		return "", fmt.Errorf("%w: %s: the header marks a gap-0 set exact, which no writer does", ErrFailed, path)
	}
	if in.Approx {
		// an approximation holds the whole set and more (see verifyKeys)
		if uint64(len(want)) >= in.Count {
			return "", fmt.Errorf("%w: %s: marked approximate, but it has %d members and %s enumerated again %d", ErrFailed, path, in.Count, in.Name(), len(want))
		}
	} else if uint64(len(want)) != in.Count {
		return "", fmt.Errorf("%w: %s: %d members, but %s enumerated again has %d", ErrFailed, path, in.Count, in.Name(), len(want))
	}
	s, err := bdd.NewSet(d, in)
	if err != nil {
		return "", failed(err)
	}
	for _, k := range want {
		if !s.Contains(k) {
			return "", fmt.Errorf("%w: %s: key %#x of %s enumerated again is missing", ErrFailed, path, k, in.Name())
		}
	}
	if in.Approx {
		return msg + "; a superset of the set enumerated again", nil
	}
	return msg + "; equal to the set enumerated again", nil
}

func verifyPDB(ctx context.Context, path string, workers int) (string, error) {
	rows, cols, group, blank, table, step, err := pdb.ReadAny(path)
	if err != nil {
		return "", failed(err)
	}
	if blank {
		want, err := pdb.BuildBlank(ctx, rows, cols, group, workers, nil)
		if err != nil {
			return "", err
		}
		if i := firstDiff(table, want); i >= 0 {
			return "", fmt.Errorf("%w: %s: byte %d of the blank-aware entries is %#02x, built again %#02x", ErrFailed, path, i, table[i], want[i])
		}
		return fmt.Sprintf("%s: blank-aware pattern database of group %v on %dx%d, %d entries: equal to the table built again", path, group, rows, cols, pdb.BlankEntries(rows*cols, len(group))), nil
	}
	want, wstep, err := pdb.Build(ctx, rows, cols, group, workers, nil)
	if err != nil {
		return "", err
	}
	if wstep != step {
		return "", fmt.Errorf("%w: %s: stored step %d, built again %d", ErrFailed, path, step, wstep)
	}
	if i := firstDiff(table, want); i >= 0 {
		return "", fmt.Errorf("%w: %s: entry %d is %d, built again %d", ErrFailed, path, i, table[i], want[i])
	}
	return fmt.Sprintf("%s: pattern database of group %v on %dx%d, %d entries, step %d: equal to the table built again", path, group, rows, cols, len(table), step), nil
}

// countMissing counts the keys of want (sorted) not in have (sorted).
func countMissing(have, want []uint64) int {
	missing, i := 0, 0
	for _, k := range want {
		for i < len(have) && have[i] < k {
			i++
		}
		if i == len(have) || have[i] != k {
			missing++
		}
	}
	return missing
}

func firstDiff(a, b []uint8) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func verifyGapDB(ctx context.Context, path string) (string, error) {
	d, err := gapdb.Open(path)
	if err != nil {
		return "", failed(err)
	}
	defer d.Close()
	if err := d.Recount(); err != nil {
		return "", failed(fmt.Errorf("%s: %w", path, err))
	}
	msg := fmt.Sprintf("%s: gap database %s, %d entries: header, chunk CRCs, counts and filter valid", path, d.Name(), d.Entries)
	var files []string
	for _, s := range d.Sources {
		f := filepath.Join(filepath.Dir(path), s.Name)
		if crc, err := gapdb.Trailer(f); err != nil || crc != s.CRC {
			return msg + "; not built again (its level files are not beside it)", nil
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return msg + "; not built again (it names no level files)", nil
	}
	b, err := gapdb.FromKeyFiles(ctx, files, d.FilterCells, nil)
	if err != nil {
		return "", err
	}
	// The same table bytes under another base, cells or levels are another
	// bound: a load cannot check the base record, so it is checked here.
	if w := b.Header(); w.Rows != d.Rows || w.Cols != d.Cols || !slices.Equal(w.Cells, d.Cells) || w.Levels != d.Levels || w.ResLevels != d.ResLevels || w.Base != d.Base {
		return "", fmt.Errorf("%w: %s: its header records %s (%s), its level files build %s (%s)", ErrFailed, path, d.Name(), d.Base, w.Name(), w.Base)
	}
	if !bytes.Equal(b.Table(), d.Table()) {
		return "", fmt.Errorf("%w: %s: the table differs from the one its level files build", ErrFailed, path)
	}
	if !bytes.Equal(b.Filter(), d.Filter()) {
		return "", fmt.Errorf("%w: %s: the filter differs from the one its level files build", ErrFailed, path)
	}
	return msg + "; equal to the table its level files build", nil
}
