package encode

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNumberRange is wrapped when a number has too many digits to be a tile.
var ErrNumberRange = errors.New("number out of range")

// SplitNumbers reads the numbers of a board strictly: decimal digits only
// (no plus sign, no leading zero; a minus is read, for the range check), separated by blanks and at most one comma,
// optionally inside one pair of parentheses. "+15", "015", "1,,2" and an
// unbalanced "(1 2" are refused: a typo is not a board.
func SplitNumbers(s string) ([]int, error) {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "(") || strings.HasSuffix(t, ")") {
		if !strings.HasPrefix(t, "(") || !strings.HasSuffix(t, ")") || len(t) < 2 {
			return nil, fmt.Errorf("%w: unbalanced parentheses", ErrSyntax)
		}
		t = t[1 : len(t)-1]
	}
	var nums []int
	commaOK := false // a comma may follow a number, once
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == ',':
			if !commaOK {
				return nil, fmt.Errorf("%w: empty field before the comma at byte %d", ErrSyntax, i+1)
			}
			commaOK = false
			i++
		case c >= '0' && c <= '9' || c == '-' && i+1 < len(t) && t[i+1] >= '0' && t[i+1] <= '9':
			// a minus sign is read so that the board check can say "out of range"
			neg := c == '-'
			if neg {
				i++
			}
			j := i
			for j < len(t) && t[j] >= '0' && t[j] <= '9' {
				j++
			}
			if j < len(t) && !strings.ContainsRune(" \t\r\n,", rune(t[j])) {
				return nil, fmt.Errorf("%w: %s", ErrSyntax, quoteField(t[i:]))
			}
			f := t[i:j]
			if len(f) > 1 && f[0] == '0' {
				return nil, fmt.Errorf("%w: %s has a leading zero", ErrSyntax, quoteField(f))
			}
			if len(f) > 9 {
				return nil, fmt.Errorf("%w: %s", ErrNumberRange, quoteField(f))
			}
			v := 0
			for _, d := range f {
				v = v*10 + int(d-'0')
			}
			if neg {
				v = -v
			}
			nums = append(nums, v)
			commaOK = true
			i = j
		default:
			return nil, fmt.Errorf("%w: %s", ErrSyntax, quoteField(t[i:]))
		}
	}
	if !commaOK && len(nums) > 0 {
		return nil, fmt.Errorf("%w: trailing comma", ErrSyntax)
	}
	return nums, nil
}

// quoteField quotes the start of a field for an error message: at most 20
// bytes, up to the next separator, so a huge argument is not echoed.
func quoteField(s string) string {
	if i := strings.IndexAny(s, " \t\r\n,"); i >= 0 {
		s = s[:i]
	}
	if len(s) > 20 {
		return fmt.Sprintf("%q...", s[:20])
	}
	return fmt.Sprintf("%q", s)
}
