package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gapset/gapset/heuristic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// root is the repository root, seen from this package's directory.
const root = ".."

// maxReadmeLines keeps the README a front door.
const maxReadmeLines = 200

var (
	// mdLink is a Markdown link or image: [text](target) or ![alt](target).
	mdLink = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	// codeSpan is an inline code span.
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	// machinePath is an absolute path of a machine's own folders.
	machinePath = regexp.MustCompile(`(^|[\s"'(=:,\[])/(work|tmp|root|home)/`)
	// heading is a Markdown heading line.
	heading = regexp.MustCompile(`(?m)^#{1,6} .*$`)
	// workRound names an issue or a round of work rather than a topic.
	workRound = regexp.MustCompile(`(?i)\bissue\s*#?\d+|#\d+\b|\bsession\b|\bround\s+\d+|\bitem\s+\d+`)
	// datedEntry is a NOTES.md entry heading: a date, then a topic.
	datedEntry = regexp.MustCompile(`^## \d{4}-\d{2}-\d{2}: \S`)
)

// fence is a fenced code block.
var fence = regexp.MustCompile("(?ms)^```.*?^```")

// prose is a page without its fenced code blocks.
func prose(text string) string { return fence.ReplaceAllString(text, "") }

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, path))
	require.NoError(t, err)
	return string(b)
}

// pages lists the Markdown files a reader is sent to: the README and every
// .md file under docs/, as paths relative to the root.
func pages(t *testing.T) []string {
	t.Helper()
	out := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	require.NoError(t, err)
	return out
}

// links returns the relative targets of a page's links, without anchors,
// resolved against the page's folder (relative to the root).
func links(page, text string) []string {
	var out []string
	for _, m := range mdLink.FindAllStringSubmatch(prose(text), -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
			continue
		}
		target, _, _ = strings.Cut(target, "#")
		out = append(out, filepath.ToSlash(filepath.Join(filepath.Dir(page), target)))
	}
	return out
}

func exists(path string) bool {
	_, err := os.Stat(filepath.Join(root, path))
	return err == nil
}

func TestLinksExist(t *testing.T) {
	for _, page := range pages(t) {
		for _, target := range links(page, read(t, page)) {
			assert.True(t, exists(target), "%s links to %s, which does not exist", page, target)
		}
	}
}

func TestLinksFindsBrokenOnes(t *testing.T) {
	got := links("docs/x.md", "see [a](a.md#part), [b](../b/), ![c](c.png), [web](https://x.org/y), [top](#top)")
	assert.Equal(t, []string{"docs/a.md", "b", "docs/c.png"}, got)
	assert.False(t, exists("docs/no-such-page.md"))
}

// TestReadmeIsAFrontDoor: short, and every repository path it names exists
// (in code: `data/korf100.txt`, `.ci/run`; links are checked above); paths
// under folders the repository does not have (keys/) or ignores (out/) are
// the reader's own.
func TestReadmeIsAFrontDoor(t *testing.T) {
	text := read(t, "README.md")
	assert.LessOrEqual(t, strings.Count(text, "\n"), maxReadmeLines, "README.md is a front door: move detail into docs/")
	ignored := map[string]bool{}
	for _, line := range strings.Split(read(t, ".gitignore"), "\n") {
		ignored[strings.Trim(line, "/ ")] = true
	}
	var code []string
	for _, span := range codeSpan.FindAllStringSubmatch(prose(text), -1) {
		code = append(code, span[1])
	}
	code = append(code, fence.FindAllString(text, -1)...)
	named := 0
	for _, word := range strings.Fields(strings.Join(code, " ")) {
		word = strings.TrimRight(word, ".,;:)`")
		first, _, ok := strings.Cut(word, "/")
		if !ok || first == "" || first == "." || ignored[first] || strings.ContainsAny(word, "*$<>'\"") {
			continue
		}
		if st, err := os.Stat(filepath.Join(root, first)); err == nil && st.IsDir() {
			named++
			assert.True(t, exists(word), "README.md names %s, which does not exist", word)
		}
	}
	assert.Positive(t, named, "the README names repository paths (data/korf100.txt, ...)")
}

// TestIndexListsEverything: docs/README.md links every page in docs/ and
// every folder under it, and every results folder, at any depth, has its
// own README (what was run, how, when).
func TestIndexListsEverything(t *testing.T) {
	linked := map[string]bool{}
	for _, l := range links("docs/README.md", read(t, "docs/README.md")) {
		linked[strings.TrimSuffix(l, "/")] = true
	}
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	for _, e := range entries {
		name := "docs/" + e.Name()
		switch {
		case e.IsDir():
			assert.True(t, exists(name+"/README.md"), "%s has no README.md saying what was run, how and when", name)
		case strings.HasSuffix(name, ".md") && name != "docs/README.md":
			assert.True(t, linked[name], "docs/README.md does not link %s", name)
		}
	}
	err = filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != "." {
			assert.True(t, linked["docs/"+filepath.ToSlash(p)], "docs/README.md does not link the folder docs/%s", p)
			assert.True(t, exists("docs/"+filepath.ToSlash(p)+"/README.md"), "docs/%s has no README.md saying what was run, how and when", p)
		}
		return err
	})
	require.NoError(t, err)
}

// TestHeuristicsPageListsEveryName: the one list of heuristics names every
// registered one; a family such as pdb78+gap2r-gapfirst is listed with G
// for the gap (pdb78+gapGr-gapfirst), res8r as resGr.
func TestHeuristicsPageListsEveryName(t *testing.T) {
	text := read(t, "docs/heuristics.md")
	gap := regexp.MustCompile(`(gap|res)[0-9]`)
	for _, e := range heuristic.Entries() {
		family := gap.ReplaceAllString(e.Name, "${1}G")
		assert.True(t, strings.Contains(text, "`"+e.Name+"`") || strings.Contains(text, "`"+family),
			"docs/heuristics.md does not list %s (or %s)", e.Name, family)
	}
}

// TestNoMachinePaths: help texts, pages and committed results name paths
// relative to where the reader works, not folders of one machine.
func TestNoMachinePaths(t *testing.T) {
	var files []string
	for _, dir := range []string{"docs", "cmd/gapset/help"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				switch filepath.Ext(p) {
				case ".md", ".txt", ".csv", ".json", ".jsonl", ".sh":
					files = append(files, p)
				}
			}
			return err
		})
		require.NoError(t, err)
	}
	files = append(files, filepath.Join(root, "README.md"), filepath.Join(root, "NOTES.md"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for i, line := range strings.Split(string(b), "\n") {
			assert.False(t, machinePath.MatchString(line), "%s:%d names a machine's path: %.120s", f, i+1, line)
		}
	}
	assert.True(t, machinePath.MatchString("--out-dir /work/keys"))
	assert.True(t, machinePath.MatchString(`"path":"/tmp/x"`))
	assert.False(t, machinePath.MatchString("--out-dir keys; /usr/bin/time"))
}

// TestHeadingsNameTopics: headings name a topic (and in NOTES.md a date),
// not an issue number or a round of work.
func TestHeadingsNameTopics(t *testing.T) {
	for _, page := range append(pages(t), "NOTES.md") {
		for _, h := range heading.FindAllString(prose(read(t, page)), -1) {
			assert.False(t, workRound.MatchString(strings.TrimLeft(h, "# ")), "%s: heading %q names an issue or a round of work", page, h)
		}
	}
	for _, h := range heading.FindAllString(prose(read(t, "NOTES.md")), -1) {
		if strings.HasPrefix(h, "## ") {
			assert.Regexp(t, datedEntry, h, "NOTES.md entries are headed by a date and a topic")
		}
	}
	assert.True(t, workRound.MatchString("## Foundation (issue 2)"))
	assert.True(t, workRound.MatchString("### ready, not run this session"))
	assert.False(t, workRound.MatchString("## 2026-11-22: foundation: boards, keys, IDA*"))
}
