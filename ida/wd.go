package ida

import (
	"fmt"
	"sync"

	"github.com/gapset/gapset/encode"
)

// Walking distance (WD) and inversion distance (ID) are the two lower bounds
// of the web page "PDBを使った15パズル自動解答プログラム" (2000; WD is that
// page's author's own idea). Each splits the puzzle into a vertical and a horizontal
// half: a vertical move changes only the vertical half and a horizontal move
// only the horizontal half, so the two halves add up.
//
// WD, vertical half: forget columns and tile identities except each tile's
// goal row; a state is how many tiles of each goal row sit in each row, plus
// the blank's row. Its exact distance to the goal state in that relaxed puzzle
// (a breadth-first search over all such states, done by the program) bounds
// the vertical moves. The horizontal half is the same on columns.
//
// ID, vertical half: read the tiles row by row; a vertical move jumps one
// tile over the w = cols-1 tiles between, changing the inversion count by an
// amount of w's parity and at most w, so at least inv/w + inv%w vertical moves
// remain. The horizontal half reads column by column with rows-1.

// wdTable is the relaxed puzzle of lines lines of width cells each (the
// vertical half of a lines x width board).
type wdTable struct {
	lines int
	dist  []uint8
	// next[(s*2+dir)*lines+class]: state after a tile of that goal line
	// moves into the blank's line from the line below (dir 0: blank moves
	// down) or above (dir 1: blank moves up); -1 when impossible.
	next  []int32
	index map[uint64]int32
}

func wdKey(cnt *[4][4]uint8, blank int) uint64 {
	var k uint64
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			k = k<<3 | uint64(cnt[i][j])
		}
	}
	return k<<2 | uint64(blank)
}

func wdUnkey(k uint64) (cnt [4][4]uint8, blank int) {
	blank = int(k & 3)
	k >>= 2
	for i := 3; i >= 0; i-- {
		for j := 3; j >= 0; j-- {
			cnt[i][j] = uint8(k & 7)
			k >>= 3
		}
	}
	return
}

var wdCache sync.Map // [2]int{lines, width} -> *wdTable; tables are read-only

func getWDTable(lines, width int) *wdTable {
	key := [2]int{lines, width}
	if t, ok := wdCache.Load(key); ok {
		return t.(*wdTable)
	}
	t, _ := wdCache.LoadOrStore(key, buildWDTable(lines, width))
	return t.(*wdTable)
}

func buildWDTable(lines, width int) *wdTable {
	t := &wdTable{lines: lines, index: map[uint64]int32{}}
	var goal [4][4]uint8
	for i := 0; i < lines; i++ {
		goal[i][i] = uint8(width)
	}
	goal[lines-1][lines-1]--
	keys := []uint64{wdKey(&goal, lines-1)}
	t.index[keys[0]] = 0
	t.dist = append(t.dist, 0)
	for q := 0; q < len(keys); q++ {
		cnt, blank := wdUnkey(keys[q])
		for dir := 0; dir < 2; dir++ {
			for class := 0; class < lines; class++ {
				t.next = append(t.next, -1)
			}
			src := blank + 1 - 2*dir // the line the tile comes from
			if src < 0 || src >= lines {
				continue
			}
			for class := 0; class < lines; class++ {
				if cnt[src][class] == 0 {
					continue
				}
				c := cnt
				c[src][class]--
				c[blank][class]++
				k := wdKey(&c, src)
				id, ok := t.index[k]
				if !ok {
					id = int32(len(keys))
					t.index[k] = id
					keys = append(keys, k)
					t.dist = append(t.dist, t.dist[q]+1)
				}
				t.next[(q*2+dir)*lines+class] = id
			}
		}
	}
	return t
}

// state returns the relaxed state of a position; line(cell) and class(tile)
// give the cell's line and the tile's goal line.
func (t *wdTable) state(p *Position, line func(int) int, class func(int) int) int32 {
	var cnt [4][4]uint8
	blank := 0
	for c := 0; c < p.Rows*p.Cols; c++ {
		if tile := int(p.Tiles[c]); tile == 0 {
			blank = line(c)
		} else {
			cnt[line(c)][class(tile)]++
		}
	}
	return t.index[wdKey(&cnt, blank)]
}

func checkWDSize(name string, rows, cols int) error {
	if rows < 2 || cols < 2 || rows > 4 || cols > 4 {
		return fmt.Errorf("%s needs a board of 2 to 4 rows and columns, not %dx%d", name, rows, cols)
	}
	return nil
}

// WalkingDistance is the WD bound (vertical plus horizontal walking
// distance). It is consistent, so lower-bound checks are skipped unless
// NoSkip is set.
type WalkingDistance struct{ NoSkip bool }

// Name implements Heuristic.
func (WalkingDistance) Name() string { return "wd" }

// NewEvaluator implements Heuristic.
func (h WalkingDistance) NewEvaluator(rows, cols int) (Evaluator, error) {
	tr, err := h.NewTracker(rows, cols)
	if err != nil {
		return nil, err
	}
	return NewSkipEvaluator(tr, !h.NoSkip, 1, true), nil
}

// TrackerInfo implements TrackerMaker: WD is consistent and each half is at
// least the tiles' Manhattan distance along that axis.
func (WalkingDistance) TrackerInfo() (int, bool) { return 1, true }

// NewTracker implements TrackerMaker.
func (WalkingDistance) NewTracker(rows, cols int) (Tracker, error) {
	if err := checkWDSize("walking distance", rows, cols); err != nil {
		return nil, err
	}
	return &wdTracker{cols: cols, v: getWDTable(rows, cols), h: getWDTable(cols, rows)}, nil
}

type wdTracker struct {
	cols   int
	v, h   *wdTable
	sv, sh int32
	stack  []int32
}

func (w *wdTracker) Reset(p *Position) {
	cols := w.cols
	w.sv = w.v.state(p, func(c int) int { return c / cols }, func(t int) int { return (t - 1) / cols })
	w.sh = w.h.state(p, func(c int) int { return c % cols }, func(t int) int { return (t - 1) % cols })
	w.stack = w.stack[:0]
}

func (w *wdTracker) Move(p *Position, tile uint8, from, to int) {
	cols := w.cols
	// The blank moved from cell to into cell from.
	if from%cols == to%cols {
		w.stack = append(w.stack, w.sv)
		dir := 0 // blank moves down: the tile came from the line below
		if from < to {
			dir = 1
		}
		w.sv = w.v.next[(int(w.sv)*2+dir)*w.v.lines+(int(tile)-1)/cols]
	} else {
		w.stack = append(w.stack, w.sh)
		dir := 0
		if from < to {
			dir = 1
		}
		w.sh = w.h.next[(int(w.sh)*2+dir)*w.h.lines+(int(tile)-1)%cols]
	}
}

func (w *wdTracker) Undo(p *Position, tile uint8, from, to int) {
	old := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	if from%w.cols == to%w.cols {
		w.sv = old
	} else {
		w.sh = old
	}
}

func (w *wdTracker) Bound(p *Position, need int) int {
	return int(w.v.dist[w.sv]) + int(w.h.dist[w.sh])
}

// InversionDistance is the ID bound. It is consistent, so lower-bound checks
// are skipped unless NoSkip is set.
type InversionDistance struct{ NoSkip bool }

// Name implements Heuristic.
func (InversionDistance) Name() string { return "id" }

// NewEvaluator implements Heuristic.
func (h InversionDistance) NewEvaluator(rows, cols int) (Evaluator, error) {
	tr, err := h.NewTracker(rows, cols)
	if err != nil {
		return nil, err
	}
	return NewSkipEvaluator(tr, !h.NoSkip, 1, false), nil
}

// TrackerInfo implements TrackerMaker: ID is consistent.
func (InversionDistance) TrackerInfo() (int, bool) { return 1, false }

// NewTracker implements TrackerMaker.
func (InversionDistance) NewTracker(rows, cols int) (Tracker, error) {
	if err := checkWDSize("inversion distance", rows, cols); err != nil {
		return nil, err
	}
	tr, err := encode.NewTransposition(rows, cols)
	if err != nil {
		return nil, err
	}
	return &idTracker{rows: rows, cols: cols, colOrder: tr.Order, trank: tr.Tile}, nil
}

type idTracker struct {
	rows, cols int
	colOrder   [16]uint8 // cells in column-major order
	trank      [16]uint8 // tile's rank in the column-major goal (its name on the transposed board)
}

func (*idTracker) Reset(*Position)                 {}
func (*idTracker) Move(*Position, uint8, int, int) {}
func (*idTracker) Undo(*Position, uint8, int, int) {}
func idPart(inv, w int) int                        { return inv/w + inv%w }
func (t *idTracker) Bound(p *Position, need int) int {
	n := t.rows * t.cols
	var seq [16]uint8
	m := 0
	for c := 0; c < n; c++ {
		if tile := p.Tiles[c]; tile != 0 {
			seq[m] = tile
			m++
		}
	}
	inv := 0
	for a := 0; a < m; a++ {
		for b := a + 1; b < m; b++ {
			if seq[a] > seq[b] {
				inv++
			}
		}
	}
	m = 0
	for _, c := range t.colOrder[:n] {
		if tile := p.Tiles[c]; tile != 0 {
			seq[m] = t.trank[tile]
			m++
		}
	}
	invH := 0
	for a := 0; a < m; a++ {
		for b := a + 1; b < m; b++ {
			if seq[a] > seq[b] {
				invH++
			}
		}
	}
	return idPart(inv, t.cols-1) + idPart(invH, t.rows-1)
}
