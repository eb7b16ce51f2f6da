package docs

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headlinesFile holds one row a figure of the README's "What it has found":
// the figure as the README writes it, its date, the committed file it comes
// from and where in that file (docs/headlines.tsv's header names the columns).
const headlinesFile = "docs/headlines.tsv"

// foundHeading opens the README section whose figures headlinesFile holds.
const foundHeading = "## What it has found"

type headline struct {
	figure, date, source, locator, what string
	line                                int
}

func readHeadlines(t *testing.T) []headline {
	t.Helper()
	r := csv.NewReader(strings.NewReader(read(t, headlinesFile)))
	r.Comma, r.LazyQuotes = '\t', true
	rows, err := r.ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"figure", "date", "source", "locator", "what"}, rows[0], headlinesFile)
	var out []headline
	for i, row := range rows[1:] {
		out = append(out, headline{row[0], row[1], row[2], row[3], row[4], i + 2})
	}
	return out
}

var (
	// figNum is a number as the pages write one: 1,331,820,797, 0.405, 2.0e10, 1.99e-4.
	figNum = `\d+(?:,\d{3})+|\d+(?:\.\d+)?(?:e-?\d+)?`
	// figUnit is what may follow a figure; x and % are ratios.
	figUnit = `(?:\s?(?:minutes|min|ns|GiB|GB|MB|s|h|x)\b|%)`
	// figureTok is a figure in prose: a number or a range of two, a unit,
	// and a second part of a compound time (3 h 15 min). The boundary keeps
	// the digits of names (h_G:8, Gap8_10a, pdb78, @0-3) out.
	figureTok = regexp.MustCompile(`(?:^|[^\w:.@+\-/,])((?:` + figNum + `)(?:-(?:` + figNum + `))?` + figUnit + `?(?:\s(?:` + figNum + `)\s(?:min|s)\b)?)`)
	// quantityRe parses one figure.
	quantityRe = regexp.MustCompile(`^(` + figNum + `)(?:-(` + figNum + `))?(` + figUnit + `)?(?:\s(` + figNum + `)\s(min|s))?$`)
	// sourceNum is a number in a source, with its unit if it has one;
	// 16:11 is minutes and seconds.
	sourceNum = regexp.MustCompile(`(?:^|[^\w:.@+\-/,])(\d+:\d{2}\b|` + figNum + `)(` + figUnit + `)?`)
	dateRe    = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)
	rangeDash = regexp.MustCompile(`(\d)-(\d)`)
)

// quantity is a figure in base units (seconds, bytes; ratios as they are):
// lo and hi (equal unless a range), the half unit of its last digit, its
// dimension ("s", "B" or "" for a plain number or ratio) and its unit's scale.
type quantity struct {
	lo, hi, tol, scale float64
	dim                string
}

func unitScale(u string) (float64, string) {
	switch strings.TrimSpace(u) {
	case "ns":
		return 1e-9, "s"
	case "s":
		return 1, "s"
	case "min", "minutes":
		return 60, "s"
	case "h":
		return 3600, "s"
	case "MB":
		return 1e6, "B"
	case "GB":
		return 1e9, "B"
	case "GiB":
		return 1 << 30, "B"
	}
	return 1, "" // x, %, none
}

// parseNum reads 1,331,820,797 or 2.0e10 and the half unit of its last digit.
func parseNum(s string) (v, tol float64, err error) {
	s = strings.ReplaceAll(s, ",", "")
	mant, exp, _ := strings.Cut(s, "e")
	v, err = strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, 0, err
	}
	tol = 0.5
	if _, frac, ok := strings.Cut(mant, "."); ok {
		tol = 0.5 * math.Pow10(-len(frac))
	}
	if exp != "" {
		e, err := strconv.Atoi(exp)
		if err != nil {
			return 0, 0, err
		}
		tol *= math.Pow10(e)
	}
	return v, tol, nil
}

func parseQuantity(s string) (quantity, error) {
	m := quantityRe.FindStringSubmatch(s)
	if m == nil {
		return quantity{}, fmt.Errorf("%q is not a figure", s)
	}
	scale, dim := unitScale(m[3])
	lo, tol, err := parseNum(m[1])
	if err != nil {
		return quantity{}, err
	}
	hi := lo
	if m[2] != "" {
		if hi, tol, err = parseNum(m[2]); err != nil {
			return quantity{}, err
		}
	}
	q := quantity{lo: lo * scale, hi: hi * scale, tol: tol * scale, scale: scale, dim: dim}
	if m[4] != "" { // 3 h 15 min
		v, t, err := parseNum(m[4])
		if err != nil {
			return quantity{}, err
		}
		s2, _ := unitScale(m[5])
		q.lo += v * s2
		q.hi += v * s2
		q.tol = t * s2
	}
	return q, nil
}

// sourceValue is a number found in a source: its value in base units when
// it has a unit (raw otherwise) and its dimension ("?" when it has none).
type sourceValue struct {
	v   float64
	dim string
}

func sourceValues(text string) []sourceValue {
	text = rangeDash.ReplaceAllString(text, "$1 $2") // 0.23-0.38: two numbers
	var out []sourceValue
	for _, m := range sourceNum.FindAllStringSubmatch(text, -1) {
		if mm, ss, ok := strings.Cut(m[1], ":"); ok {
			a, _ := strconv.Atoi(mm)
			b, _ := strconv.Atoi(ss)
			out = append(out, sourceValue{float64(60*a + b), "s"})
			continue
		}
		v, _, err := parseNum(m[1])
		if err != nil {
			continue
		}
		if m[2] == "" {
			out = append(out, sourceValue{v, "?"})
			continue
		}
		scale, dim := unitScale(m[2])
		out = append(out, sourceValue{v * scale, dim})
	}
	return out
}

// matches reports whether the figure's value (each end of a range) is one
// of the source's numbers, rounded as the figure is. A number without a unit
// is read in base units or in the figure's unit (bytes in a CSV column,
// "408 / 387 ns").
func matches(q quantity, vals []sourceValue) bool {
	near := func(want float64) bool {
		for _, s := range vals {
			var cands []float64
			switch {
			case s.dim == "?":
				cands = []float64{s.v, s.v * q.scale}
			case s.dim == q.dim:
				cands = []float64{s.v}
			}
			for _, c := range cands {
				if math.Abs(c-want) <= q.tol*(1+1e-9)+1e-15 {
					return true
				}
			}
		}
		return false
	}
	return near(q.lo) && near(q.hi)
}

// located returns the text a row's locator points to in its source, and
// whether the row's date is the source's: for NOTES.md the locator must lie
// in an entry of that date; for a result file the date is in the file or in
// its folder's README.
func located(t *testing.T, h headline) (string, bool, error) {
	text := read(t, h.source)
	kind, loc, _ := strings.Cut(h.locator, ":")
	dated := func() bool {
		if strings.Contains(text, h.date) {
			return true
		}
		readme := filepath.Join(filepath.Dir(h.source), "README.md")
		return exists(readme) && strings.Contains(read(t, readme), h.date)
	}
	switch kind {
	case "text":
		if h.source == "NOTES.md" {
			for _, e := range notesEntries(text) {
				if strings.Contains(e.body, loc) {
					if e.date == h.date {
						return loc, true, nil
					}
				}
			}
			if strings.Contains(text, loc) {
				return loc, false, nil
			}
			return "", false, fmt.Errorf("NOTES.md has no %q", loc)
		}
		if !strings.Contains(text, loc) {
			return "", false, fmt.Errorf("%s has no %q", h.source, loc)
		}
		return loc, dated(), nil
	case "row":
		row, col, _ := strings.Cut(loc, "|")
		cell, err := tableCell(text, row, col)
		return cell, err == nil && dated(), err
	case "csv":
		v, err := csvValue(text, loc)
		return v, err == nil && dated(), err
	case "json":
		var m map[string]any
		if err := json.Unmarshal([]byte(text), &m); err != nil {
			return "", false, err
		}
		v, ok := m[loc].(float64)
		if !ok {
			return "", false, fmt.Errorf("%s has no number %q", h.source, loc)
		}
		return strconv.FormatFloat(v, 'f', -1, 64), dated(), nil
	}
	return "", false, fmt.Errorf("locator %q: want text:, row:, csv: or json:", h.locator)
}

type notesEntry struct{ date, body string }

// notesEntries splits NOTES.md at its dated "## " headings.
func notesEntries(text string) []notesEntry {
	var out []notesEntry
	for _, part := range strings.Split("\n"+text, "\n## ")[1:] {
		if d := dateRe.FindString(part); d != "" && strings.HasPrefix(part, d) {
			out = append(out, notesEntry{d, part})
		}
	}
	return out
}

// cell strips a Markdown table cell of its emphasis and code marks.
func cell(s string) string {
	return strings.TrimSpace(strings.NewReplacer("**", "", "`", "").Replace(s))
}

// tableCell finds the first Markdown table whose header has column col and
// a row whose first cell is row (emphasis and code marks ignored).
func tableCell(text, row, col string) (string, error) {
	row, col = cell(row), cell(col)
	var header []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			header = nil
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = cell(cells[i])
		}
		if header == nil {
			header = cells
			continue
		}
		if len(cells) == 0 || cells[0] != row {
			continue
		}
		for i, h := range header {
			if h == col && i < len(cells) {
				return cells[i], nil
			}
		}
	}
	return "", fmt.Errorf("no table with a row %q and a column %q", row, col)
}

// csvValue reads COLUMN@KEY=VALUE (the row whose KEY is VALUE), sum(COLUMN)
// or sum(COLUMN)@KEY=VALUE (over every row, or the rows whose KEY is VALUE).
func csvValue(text, loc string) (string, error) {
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		return "", err
	}
	col, where, _ := strings.Cut(loc, "@")
	key, val, _ := strings.Cut(where, "=")
	inner, sum := strings.CutPrefix(col, "sum(")
	if sum {
		col = strings.TrimSuffix(inner, ")")
	}
	idx := func(name string) int {
		for i, h := range rows[0] {
			if h == name {
				return i
			}
		}
		return -1
	}
	c, k := idx(col), idx(key)
	if c < 0 || where != "" && k < 0 {
		return "", fmt.Errorf("no column %q or %q", col, key)
	}
	total, n := 0.0, 0
	for _, r := range rows[1:] {
		if where != "" && r[k] != val {
			continue
		}
		if !sum {
			return r[c], nil
		}
		v, err := strconv.ParseFloat(r[c], 64)
		if err != nil {
			return "", err
		}
		total += v
		n++
	}
	if !sum || n == 0 {
		return "", fmt.Errorf("no row with %s", where)
	}
	return strconv.FormatFloat(total, 'f', -1, 64), nil
}

// foundBlocks returns the README section's paragraphs and list items, each
// on one line, without link targets and code spans.
func foundBlocks(t *testing.T) []string {
	t.Helper()
	text := read(t, "README.md")
	start := strings.Index(text, foundHeading+"\n")
	require.GreaterOrEqual(t, start, 0, "README.md has no %q", foundHeading)
	section := text[start+len(foundHeading):]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	var blocks []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			blocks = append(blocks, strings.Join(strings.Fields(strings.Join(cur, " ")), " "))
			cur = nil
		}
	}
	for _, line := range strings.Split(prose(section), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "- ") {
			flush()
		}
		cur = append(cur, line)
	}
	flush()
	target := regexp.MustCompile(`\]\([^)]*\)`)
	for i, b := range blocks {
		blocks[i] = codeSpan.ReplaceAllString(target.ReplaceAllString(b, "]"), "")
	}
	return blocks
}

// figures returns the figures of a block: numbers with a unit, a decimal
// point, a thousands comma or an exponent (plain counts such as "300
// instances" or "8 cells" are names, not measurements), and its dates.
func figures(block string) (figs []string, dates map[string]bool) {
	dates = map[string]bool{}
	for _, d := range dateRe.FindAllString(block, -1) {
		dates[d] = true
	}
	block = dateRe.ReplaceAllString(block, " ")
	for _, m := range figureTok.FindAllStringSubmatch(block, -1) {
		f := m[1]
		q := quantityRe.FindStringSubmatch(f)
		if strings.ContainsAny(f, ".,e") || q != nil && q[3] != "" {
			figs = append(figs, f)
		}
	}
	return figs, dates
}

// Every row of docs/headlines.tsv is what its source says: the figure,
// rounded as written, is the number at the locator, and the date is the
// source's.
func TestHeadlinesMatchTheirSources(t *testing.T) {
	rows := readHeadlines(t)
	require.NotEmpty(t, rows)
	for _, h := range rows {
		where := fmt.Sprintf("%s:%d (%s)", headlinesFile, h.line, h.figure)
		q, err := parseQuantity(h.figure)
		if !assert.NoError(t, err, where) {
			continue
		}
		assert.Regexp(t, `^\d{4}-\d{2}-\d{2}$`, h.date, where)
		if !assert.True(t, exists(h.source), "%s: no source %s", where, h.source) {
			continue
		}
		text, dated, err := located(t, h)
		if !assert.NoError(t, err, where) {
			continue
		}
		assert.True(t, matches(q, sourceValues(text)), "%s: %s says %q", where, h.source, text)
		assert.True(t, dated, "%s: %s does not date it %s", where, h.source, h.date)
	}
}

// The README's "What it has found" quotes each row's figure beside its date,
// and every figure it quotes is a row: a new figure cannot go in unsourced,
// nor a changed one drift from its source.
func TestReadmeFiguresAreHeadlines(t *testing.T) {
	rows := readHeadlines(t)
	dated := map[string]map[string]bool{} // figure -> dates of its rows
	for _, h := range rows {
		if dated[h.figure] == nil {
			dated[h.figure] = map[string]bool{}
		}
		dated[h.figure][h.date] = true
	}
	quoted := map[string]bool{}
	for _, b := range foundBlocks(t) {
		figs, dates := figures(b)
		for _, f := range figs {
			ok := false
			for d := range dated[f] {
				if dates[d] {
					ok, quoted[f+"\t"+d] = true, true
				}
			}
			assert.True(t, ok, "README.md quotes %s, which no row of %s gives with a date of its paragraph (%v): %.100s", f, headlinesFile, keys(dates), b)
		}
	}
	for _, h := range rows {
		assert.True(t, quoted[h.figure+"\t"+h.date], "%s:%d: README.md does not quote %s beside %s", headlinesFile, h.line, h.figure, h.date)
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The checks above can fail: a figure rounded wrongly, one of another
// unit, a row or column that is not there, an undated paragraph.
func TestHeadlineChecksCanFail(t *testing.T) {
	q, err := parseQuantity("3 h 15 min")
	require.NoError(t, err)
	assert.InDelta(t, 11700, q.lo, 1e-9)
	assert.True(t, matches(q, sourceValues("11678.7")))
	assert.False(t, matches(q, sourceValues("11750")))
	q, err = parseQuantity("506 MB")
	require.NoError(t, err)
	assert.True(t, matches(q, sourceValues("506129937")))
	assert.False(t, matches(q, sourceValues("506 GB")))
	q, err = parseQuantity("244-250 ns")
	require.NoError(t, err)
	assert.True(t, matches(q, sourceValues("| **250 / 244** |")))
	assert.False(t, matches(q, sourceValues("| 250 / 245 ns |")))
	q, err = parseQuantity("16 minutes")
	require.NoError(t, err)
	assert.True(t, matches(q, sourceValues("16:11 of wall")))
	q, err = parseQuantity("0.405x")
	require.NoError(t, err)
	assert.False(t, matches(q, sourceValues("0.406")))
	q, err = parseQuantity("2.36e-4")
	require.NoError(t, err)
	assert.True(t, matches(q, sourceValues("**0.000236**")))
	_, err = parseQuantity("about 2")
	assert.Error(t, err)

	table := "| heuristic | node ratio |\n|---|--:|\n| **pdb78+gap8r** | 0.405 |\n"
	c, err := tableCell(table, "pdb78+gap8r", "node ratio")
	require.NoError(t, err)
	assert.Equal(t, "0.405", c)
	_, err = tableCell(table, "pdb78", "node ratio")
	assert.Error(t, err)
	v, err := csvValue("gap,count\n0,5\n2,7\n2,1\n", "sum(count)@gap=2")
	require.NoError(t, err)
	assert.Equal(t, "8", v)
	_, err = csvValue("gap,count\n0,5\n", "nodes@gap=0")
	assert.Error(t, err)

	figs, dates := figures("h_G:8 expands 1.99e-4 of md's (2026-11-28) over 300 boards on 8 cells, pdb78 at 0.405x, 7-8 split in 3 h 15 min")
	assert.Equal(t, []string{"1.99e-4", "0.405x", "3 h 15 min"}, figs)
	assert.Equal(t, map[string]bool{"2026-11-28": true}, dates)
}

// Every dated heading of NOTES.md has a line in its contents: the day's
// bullets are as many as the day's entries.
func TestNotesIndexNamesEveryEntry(t *testing.T) {
	text := read(t, "NOTES.md")
	first := strings.Index(text, "\n## ")
	require.Positive(t, first)
	bullets := map[string]int{}
	day := ""
	for _, line := range strings.Split(text[:first], "\n") {
		if d := dateRe.FindString(line); d != "" && line == d+":" {
			day = d
		} else if day != "" && strings.HasPrefix(line, "- ") {
			bullets[day]++
		}
	}
	entries := map[string]int{}
	for _, e := range notesEntries(text) {
		entries[e.date]++
	}
	assert.NotEmpty(t, entries)
	assert.Equal(t, entries, bullets, "NOTES.md's contents: bullets a day against entries a day")
}
