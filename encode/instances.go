package encode

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/gapset/gapset/internal/infile"
)

// Instance is one board of an instance file.
type Instance struct {
	ID    string // the leading id of the line, or its ordinal (1-based) when absent
	Line  int    // 1-based line number in the source
	Board Board
}

// LineError names the input line of a parse failure.
type LineError struct {
	Source string // file name or "stdin"/"argument"; may be empty
	Line   int
	Err    error
}

func (e *LineError) Error() string {
	if e.Source != "" {
		return fmt.Sprintf("%s:%d: %v", e.Source, e.Line, e.Err)
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// ReadInstanceFile reads the instance file at path (see ReadInstances) and
// refuses one holding no board; a FIFO or device is refused unopened
// (infile.Open).
func ReadInstanceFile(path string, rows, cols int) ([]Instance, error) {
	f, err := infile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	insts, err := ReadInstances(f, path, rows, cols)
	if err == nil && len(insts) == 0 {
		err = fmt.Errorf("%s: no boards found", path)
	}
	return insts, err
}

// ParseArgs reads the boards of command-line arguments: each argument
// holding a space, comma or tab is one board; arguments that are all bare
// numbers together form one board. IDs name the argument, "arg1", "arg2",
// ... (never a number, which an instance file's board may carry as its
// id). A bad board's error names its argument.
func ParseArgs(args []string, rows, cols int) ([]Instance, error) {
	joined := true
	for _, a := range args {
		if strings.ContainsAny(a, " ,\t") {
			joined = false
		}
	}
	if joined {
		args = []string{strings.Join(args, " ")}
	}
	var out []Instance
	for i, a := range args {
		b, err := Parse(a, rows, cols)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %v", i+1, err)
		}
		out = append(out, Instance{ID: "arg" + strconv.Itoa(i+1), Line: i + 1, Board: b})
	}
	return out, nil
}

// MaxInstances bounds the boards of one instance file, and MaxInstanceBytes
// its bytes (comments and blank lines included): every board is held in
// memory, and a stream that never ends must not grow the process until
// the machine stops it.
const (
	MaxInstances     = 1 << 20
	MaxInstanceBytes = 1 << 30
)

// ReadInstances reads one board per line. A line holds R*C numbers, or R*C+1
// with a leading id; '#' starts a comment; blank lines are ignored. The first
// bad line stops the read with a *LineError naming it; a source of more
// than MaxInstances boards or MaxInstanceBytes bytes is refused.
func ReadInstances(r io.Reader, source string, rows, cols int) ([]Instance, error) {
	return readInstances(r, source, rows, cols, MaxInstances, MaxInstanceBytes)
}

func readInstances(r io.Reader, source string, rows, cols, maxBoards int, maxBytes int64) ([]Instance, error) {
	if err := CheckSize(rows, cols); err != nil {
		return nil, err
	}
	n := rows * cols
	var out []Instance
	lr := &io.LimitedReader{R: r, N: maxBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff") // a UTF-8 byte-order mark, as some editors write
		}
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		if len(out) == maxBoards {
			return nil, fmt.Errorf("%s: more than %d boards; split the file", source, maxBoards)
		}
		inst, err := parseLine(text, n, rows, cols, len(out)+1)
		if err != nil {
			return nil, &LineError{Source: source, Line: line, Err: err}
		}
		inst.Line = line
		out = append(out, inst)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &LineError{Source: source, Line: line + 1, Err: fmt.Errorf("line too long")}
		}
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if lr.N <= 0 {
		return nil, fmt.Errorf("%s: more than %d bytes; split the file", source, maxBytes)
	}
	return out, nil
}

func parseLine(text string, n, rows, cols, ordinal int) (Instance, error) {
	nums, err := splitNumbers(text)
	if err != nil {
		return Instance{}, err
	}
	id := strconv.Itoa(ordinal)
	if len(nums) == n+1 {
		id = strconv.Itoa(nums[0])
		nums = nums[1:]
	}
	b, err := New(rows, cols, nums)
	if err != nil {
		return Instance{}, err
	}
	return Instance{ID: id, Board: b}, nil
}

// WriteInstances writes instances in the format ReadInstances reads.
func WriteInstances(w io.Writer, insts []Instance) error {
	return WriteInstanceSeq(w, slices.Values(insts))
}

// WriteInstanceSeq writes instances as they come, "ID board" a line.
func WriteInstanceSeq(w io.Writer, insts iter.Seq[Instance]) error {
	bw := bufio.NewWriter(w)
	for in := range insts {
		if _, err := fmt.Fprintf(bw, "%s %s\n", in.ID, in.Board); err != nil {
			return err
		}
	}
	return bw.Flush()
}
