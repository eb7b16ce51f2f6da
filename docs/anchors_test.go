package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
)

// docRef is a pointer from code to a page: docs/PAGE.md or docs/PAGE.md#anchor.
var docRef = regexp.MustCompile(`docs/([a-z0-9-]+\.md)(#[a-z0-9_-]+)?`)

// slug is the anchor a Markdown renderer (GitHub's rule) gives a heading:
// lower case, spaces to hyphens, punctuation other than - and _ dropped.
func slug(h string) string {
	h = strings.TrimSpace(strings.TrimLeft(h, "#"))
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// resolves reports whether docs/page (and its anchor, if any) exists.
func resolves(t *testing.T, page, anchor string) bool {
	if !exists(filepath.Join("docs", page)) {
		return false
	}
	if anchor == "" {
		return true
	}
	for _, h := range heading.FindAllString(prose(read(t, filepath.Join("docs", page))), -1) {
		if "#"+slug(h) == anchor {
			return true
		}
	}
	return false
}

// Every page and anchor a Go comment points readers to exists (the pages'
// own links are TestLinksExist's).
func TestCodePointsToExistingDocs(t *testing.T) {
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		if filepath.Dir(p) == filepath.Join(root, "docs") {
			return nil // this package's tests name pages that do not exist on purpose
		}
		for _, m := range docRef.FindAllStringSubmatch(readAbs(t, p), -1) {
			n++
			assert.True(t, resolves(t, m[1], m[2]), "%s points to docs/%s%s, which does not exist", p, m[1], m[2])
		}
		return nil
	})
	assert.NoError(t, err)
	assert.Positive(t, n, "the code points to the docs somewhere")
	assert.True(t, resolves(t, "proofs.md", ""))
	assert.False(t, resolves(t, "proofs.md", "#no-such-section"), "the check can fail")
	assert.False(t, resolves(t, "no-such-page.md", ""))
	assert.Equal(t, "the-gap-set-bound-h_g2n", slug("## The gap-set bound h_G:2N"))
}

func readAbs(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	assert.NoError(t, err)
	return string(b)
}
