package ida

import "fmt"

// LinearConflict is Manhattan distance plus 2 per tile that must leave its
// goal line (row or column) to let the others of that line pass (Hansson,
// Mayer and Yung): in each line, of the tiles whose goal line it is, all but
// a longest run in goal order must step out and back, two moves Manhattan
// distance does not count. A row's extra moves are vertical and a column's
// horizontal, so the lines add up.
type LinearConflict struct{}

// Name implements Heuristic.
func (LinearConflict) Name() string { return "lc" }

// NewEvaluator implements Heuristic.
func (LinearConflict) NewEvaluator(rows, cols int) (Evaluator, error) {
	if rows > 8 || cols > 8 {
		return nil, fmt.Errorf("linear conflict: board %dx%d too wide", rows, cols)
	}
	return &lcEval{rows: rows, cols: cols}, nil
}

type lcEval struct {
	rows, cols int
	rowC, colC [8]int // extra moves / 2 per row and column
	total      int
	undo       []lcUndo
}

type lcUndo struct {
	a, b     int // lines changed: rows (vertical move) or columns
	va, vb   int
	vertical bool
}

// lineConflict returns the number of tiles to remove from line i (a row when
// row is true) so the remaining goal-line tiles are in goal order.
func (e *lcEval) lineConflict(p *Position, i int, row bool) int {
	var seq [8]int
	n := 0
	if row {
		for c := 0; c < e.cols; c++ {
			if t := int(p.Tiles[i*e.cols+c]); t != 0 && (t-1)/e.cols == i {
				seq[n] = (t - 1) % e.cols
				n++
			}
		}
	} else {
		for r := 0; r < e.rows; r++ {
			if t := int(p.Tiles[r*e.cols+i]); t != 0 && (t-1)%e.cols == i {
				seq[n] = (t - 1) / e.cols
				n++
			}
		}
	}
	if n < 2 {
		return 0
	}
	// Longest increasing subsequence, O(n^2) on at most 8 values.
	var lis [8]int
	best := 0
	for a := 0; a < n; a++ {
		lis[a] = 1
		for b := 0; b < a; b++ {
			if seq[b] < seq[a] && lis[b]+1 > lis[a] {
				lis[a] = lis[b] + 1
			}
		}
		best = max(best, lis[a])
	}
	return n - best
}

func (e *lcEval) Root(p *Position) int {
	e.total = 0
	for r := 0; r < e.rows; r++ {
		e.rowC[r] = e.lineConflict(p, r, true)
		e.total += e.rowC[r]
	}
	for c := 0; c < e.cols; c++ {
		e.colC[c] = e.lineConflict(p, c, false)
		e.total += e.colC[c]
	}
	e.undo = e.undo[:0]
	return p.MD + 2*e.total
}

// Push implements Evaluator. A vertical move keeps every column's order and
// changes two rows; a horizontal move changes two columns.
func (e *lcEval) Push(p *Position, tile uint8, from, to int, need int) int {
	u := lcUndo{}
	if from%e.cols == to%e.cols {
		u.vertical, u.a, u.b = true, from/e.cols, to/e.cols
		u.va, u.vb = e.rowC[u.a], e.rowC[u.b]
		e.rowC[u.a] = e.lineConflict(p, u.a, true)
		e.rowC[u.b] = e.lineConflict(p, u.b, true)
		e.total += e.rowC[u.a] + e.rowC[u.b] - u.va - u.vb
	} else {
		u.a, u.b = from%e.cols, to%e.cols
		u.va, u.vb = e.colC[u.a], e.colC[u.b]
		e.colC[u.a] = e.lineConflict(p, u.a, false)
		e.colC[u.b] = e.lineConflict(p, u.b, false)
		e.total += e.colC[u.a] + e.colC[u.b] - u.va - u.vb
	}
	e.undo = append(e.undo, u)
	return p.MD + 2*e.total
}

func (e *lcEval) Pop(p *Position, tile uint8, from, to int) {
	u := e.undo[len(e.undo)-1]
	e.undo = e.undo[:len(e.undo)-1]
	if u.vertical {
		e.total += u.va + u.vb - e.rowC[u.a] - e.rowC[u.b]
		e.rowC[u.a], e.rowC[u.b] = u.va, u.vb
	} else {
		e.total += u.va + u.vb - e.colC[u.a] - e.colC[u.b]
		e.colC[u.a], e.colC[u.b] = u.va, u.vb
	}
}
