package report

import (
	"strconv"
	"strings"
)

// Group writes 1234567 as 1,234,567, as the paper's Table 1 does.
func Group(v uint64) string {
	s := strconv.FormatUint(v, 10)
	var b strings.Builder
	for i, ch := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	return b.String()
}
