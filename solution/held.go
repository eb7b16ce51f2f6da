package solution

import (
	"bytes"
	"errors"
	"io"

	"github.com/gapset/gapset/internal/safe"
)

// CheckFailed is a check of the search's files, run beside the search
// (NewHeldWriter), that failed: nothing was written.
type CheckFailed struct{ Err error }

// ErrCheckFailed is what every CheckFailed is (errors.Is).
var ErrCheckFailed = errors.New("check of the search's files failed")

func (e CheckFailed) Error() string        { return e.Err.Error() }
func (e CheckFailed) Unwrap() error        { return e.Err }
func (e CheckFailed) Is(target error) bool { return target == ErrCheckFailed }

// NewHeldWriter is NewWriter for results found while checks of the files
// they were found with still run: it keeps everything (the CSV header
// too) until every check has returned nil, then writes what it kept and
// writes through. A failed check is a CheckFailed from the Write that sees
// it or from Release, and nothing is ever written.
func NewHeldWriter(w io.Writer, format string, maxNodes int64, all bool, checks []*safe.Pending) *Writer {
	h := &held{w: w, checks: checks}
	s := NewWriter(h, format, maxNodes, all)
	s.held = h
	return s
}

// Release waits for the checks of a held writer (NewHeldWriter) and writes
// what it kept; nil at once for any other writer.
func (s *Writer) Release() error {
	if s.held == nil {
		return nil
	}
	return s.held.release(true)
}

// held passes writes on to w once every check has passed, keeping them
// until then.
type held struct {
	w      io.Writer
	checks []*safe.Pending
	kept   bytes.Buffer
	err    error
	open   bool
}

// Write keeps or passes on p as the last release left the writer (Writer.Write
// releases before each row, Release before the totals).
func (h *held) Write(p []byte) (int, error) {
	if h.err != nil {
		return 0, h.err
	}
	if h.open {
		return h.w.Write(p)
	}
	return h.kept.Write(p)
}

// release opens the writer when every check has passed (waiting for them
// when wait), writing what was kept.
func (h *held) release(wait bool) error {
	if h.open || h.err != nil {
		return h.err
	}
	for _, c := range h.checks {
		if !wait && !c.Done() {
			return nil
		}
	}
	for _, c := range h.checks {
		if err := c.Wait(); err != nil {
			h.err = CheckFailed{err}
			return h.err
		}
	}
	h.open = true
	_, err := h.kept.WriteTo(h.w)
	return err
}
