package solution

import (
	"errors"
	"fmt"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
)

// Status is the status line Solve keeps while it searches (the command's
// progress bar).
type Status interface {
	Update(done, total int64, force bool, format string, a ...any)
	Clear()
	Done()
}

// Solve solves the boards in order with h under opt (its OnIteration is
// Solve's) and writes each row to w as it comes, then closes w. A board
// over opt.MaxNodes is written unsolved (w.Unsolved counts them) and the
// next one searched; another error stops, naming the board. The errors
// of w are its own (CheckFailed).
func Solve(insts []encode.Instance, h ida.Heuristic, opt ida.Options, w *Writer, st Status) error {
	n := int64(len(insts))
	for i, in := range insts {
		st.Update(int64(i), n, true, "solving %s (%s)", in.ID, h.Name())
		opt.OnIteration = func(it ida.Iteration) {
			st.Update(int64(i), n, false, "solving %s: limit %d, %d nodes", in.ID, it.Limit, it.Expanded)
		}
		res, err := ida.Solve(in.Board, h, opt)
		if errors.Is(err, ida.ErrNodeLimit) {
			res.Heuristic = h.Name() // a limit gives up on this board only
		} else if err != nil {
			st.Done()
			return fmt.Errorf("board %s (line %d): %w", in.ID, in.Line, err)
		}
		st.Clear()
		if err := w.Write(New(in, res, err != nil)); err != nil {
			return err
		}
	}
	st.Done()
	return w.Close()
}
