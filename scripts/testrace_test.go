//go:build linux

package scripts

import (
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/testproc"
)

// makeList is the list of folders the Makefile assigns to name
// ("RACEFREE := ./a/ ./b/"), without "./" and the trailing slash.
func makeList(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^` + name + ` := (.*)$`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("the Makefile has no %s := line", name)
	}
	var dirs []string
	for _, f := range strings.Fields(string(m[1])) {
		dirs = append(dirs, strings.TrimSuffix(strings.TrimPrefix(f, "./"), "/"))
	}
	if len(dirs) == 0 {
		t.Fatalf("the Makefile's %s is empty", name)
	}
	return dirs
}

// TestRaceFreePackages holds the Makefile's two lists of packages tested
// without the race detector to what they claim. A RACEFREE package's own
// code starts no goroutine and imports neither sync nor sync/atomic (then
// the detector has nothing to find in it, and make test-norace is where
// its tests run); it has no file built only under -race (which would then
// never run). Every package with a file built only without -race is in
// RACEFREE or NORACE, so that its tests run somewhere.
func TestRaceFreePackages(t *testing.T) {
	racefree, norace := makeList(t, "RACEFREE"), makeList(t, "NORACE")
	fset := token.NewFileSet()
	for _, dir := range racefree {
		files, _ := filepath.Glob(filepath.Join("..", dir, "*.go"))
		if len(files) == 0 {
			t.Errorf("RACEFREE %s: no Go file", dir)
		}
		for _, file := range files {
			f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			if onlyUnder(f, true) {
				t.Errorf("RACEFREE %s: %s is built only under -race, which its package is not tested with", dir, file)
			}
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			for _, imp := range f.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); p == "sync" || p == "sync/atomic" {
					t.Errorf("RACEFREE %s: %s imports %s: test the package with -race", dir, file, p)
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok {
					t.Errorf("RACEFREE %s: %s starts a goroutine: test the package with -race", dir, fset.Position(g.Pos()))
				}
				return true
			})
		}
	}
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || d.Name() == "deploy" || strings.HasPrefix(d.Name(), ".") && path != "..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../")))
		if onlyUnder(f, false) && !slices.Contains(racefree, dir) && !slices.Contains(norace, dir) {
			t.Errorf("%s is built only without -race, but %s is in neither RACEFREE nor NORACE: its tests never run", path, dir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// onlyUnder says whether f's //go:build line builds it only with the race
// detector (race true) or only without it (race false). Other tags are
// tried all set and all unset, which decides every line this module has
// (linux && !race, !race, race).
func onlyUnder(f *ast.File, race bool) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			x, err := constraint.Parse(c.Text)
			if err != nil {
				return false
			}
			built := func(r bool) bool {
				return x.Eval(func(tag string) bool { return tag != "race" || r }) ||
					x.Eval(func(tag string) bool { return tag == "race" && r })
			}
			return built(race) && !built(!race)
		}
	}
	return false
}

// TestTestRaceShSplitsTheEndToEndTests: test-race.sh, with a go stand-in
// (list and run are the real go's), tests every package but cmd/readbench
// and the RACEFREE ones in one go test, builds cmd/readbench's test binary
// once and runs it twice from its folder, with -test.run and -test.skip of
// the one serial-tests pattern, prints each process's output under a
// header, and exits 1 naming the process that failed.
func TestTestRaceShSplitsTheEndToEndTests(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	goPath, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(dir, "go")
	script := `#!/bin/sh
[ "$1" = test ] || exec ` + goPath + ` "$@"
out=
prev=
for a; do [ "$prev" = -o ] && out=$a; prev=$a; done
if [ -n "$out" ]; then
	printf '#!/bin/sh\necho "binary $(pwd) $*" >> %s\necho "the binary ran"\ncase "$*" in *-test.skip*) exit 1 ;; esac\n' ` + log + ` > "$out"
	chmod +x "$out"
	exit 0
fi
echo "packages $*" >> ` + log + `
echo "ok  	fake packages"
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := testproc.Own(t, exec.Command("bash", "test-race.sh"))
	cmd.Env = append(os.Environ(), "GO="+fake, "RACEFREE=./results/ ./report/", "TESTPARALLEL=3")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("exit %v, want 1 (the parallel tests failed)", err)
	}
	if strings.Count(string(out), "the binary ran") != 1 {
		t.Errorf("want the output of the failed run alone, once:\n%s", out)
	}
	for _, want := range []string{"== packages but cmd/readbench: ", "ok  \tfake packages",
		"ok\tgithub.com/readbench/readbench/cmd/readbench [serial tests]", "FAIL\tgithub.com/readbench/readbench/cmd/readbench [parallel tests]"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var pkgs string
	var runs, skips []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		switch {
		case f[0] == "packages":
			pkgs = line
		case f[0] == "binary" && !strings.HasSuffix(f[1], "/cmd/readbench"):
			t.Errorf("the test binary ran in %s, not cmd/readbench's folder", f[1])
		case f[0] == "binary":
			for i, a := range f {
				switch a {
				case "-test.run":
					runs = append(runs, f[i+1])
				case "-test.skip":
					skips = append(skips, f[i+1])
				}
			}
		}
	}
	for _, p := range []string{"/driver ", "/client ", "/ab "} {
		if !strings.Contains(pkgs+" ", p) {
			t.Errorf("%s not tested: %s", p, pkgs)
		}
	}
	for _, p := range []string{"/cmd/readbench", "/results", "/report", " ./..."} {
		if strings.Contains(pkgs, p) {
			t.Errorf("%s tested with the other packages: %s", p, pkgs)
		}
	}
	if !strings.Contains(pkgs, "-race") || !strings.Contains(pkgs, "-parallel 3") {
		t.Errorf("packages not tested with -race -parallel 3: %s", pkgs)
	}
	if len(runs) != 1 || len(skips) != 1 || runs[0] != skips[0] {
		t.Fatalf("the binary ran with -test.run %q and -test.skip %q, want one each of the same pattern", runs, skips)
	}
	// A serial test of cmd/readbench's in it, a parallel one not.
	if !strings.Contains(runs[0], "|TestCompareServers|") || strings.Contains(runs[0], "TestConformance") {
		t.Errorf("the serial tests' pattern %q", runs[0])
	}
}
