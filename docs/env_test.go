package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The README names every GAPSET_ variable a test reads (the one slow-test
// switch, and the ones that say where data is), so a new gate cannot hide;
// one read by the cluster module's tests may be named in cluster/README.md
// instead.
func TestReadmeNamesEveryTestVariable(t *testing.T) {
	getenv := regexp.MustCompile(`(?:Getenv|LookupEnv|Setenv)\("(GAPSET_[A-Z0-9_]+)"|Env = "(GAPSET_[A-Z0-9_]+)"|const \w+ = "(GAPSET_[A-Z0-9_]+)"`)
	readme, clusterReadme := read(t, "README.md"), read(t, "cluster/README.md")
	found := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") && !strings.HasSuffix(p, "slowtest.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range getenv.FindAllStringSubmatch(string(b), -1) {
			found[m[1]+m[2]+m[3]] = p
		}
		return nil
	})
	assert.NoError(t, err)
	assert.Contains(t, found, "GAPSET_SLOW", "the slow-test switch is read")
	assert.Contains(t, found, "GAPSET_CLUSTER_TEST_AS_COMMAND", "a constant naming a variable is found too")
	for v, p := range found {
		rel, _ := filepath.Rel(root, p)
		named := strings.Contains(readme, "`"+v)
		if strings.HasPrefix(filepath.ToSlash(rel), "cluster/") {
			named = named || strings.Contains(clusterReadme, "`"+v)
		}
		assert.True(t, named, "%s reads %s, which the README's test section does not name", p, v)
	}
}
