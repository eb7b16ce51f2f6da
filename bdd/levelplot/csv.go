package levelplot

import (
	"fmt"
	"strings"
)

// CSV writes the series as a table: a header "level,NAME,...", then one
// line per level of the first series with each series' count.
func CSV(series []Series) string {
	var b strings.Builder
	b.WriteString("level")
	for _, s := range series {
		b.WriteString("," + s.Name)
	}
	b.WriteString("\n")
	if len(series) == 0 {
		return b.String()
	}
	for i := range series[0].Counts {
		fmt.Fprintf(&b, "%d", i)
		for _, s := range series {
			fmt.Fprintf(&b, ",%d", s.Counts[i])
		}
		b.WriteString("\n")
	}
	return b.String()
}
