// Command serialtests prints a go test -run pattern of the top-level
// tests in a package's folder that do not call t.Parallel() in their own
// body: the ones go test runs one at a time, before any parallel test of
// the package starts. scripts/test-race.sh runs a package's serial tests
// and its parallel ones as two processes at once (-run with the pattern,
// then -skip with it), so that the serial ones, which wait on timed runs
// more than they use the CPU, no longer hold every parallel test back.
// Together -run and -skip of one pattern cover every test exactly once.
//
//	go run ./scripts/serialtests ./cmd/readbench   # ^(TestA|TestB)$
//
// It exits 1 when the folder has no serial test (an empty pattern would
// run every test under -run, or none under -skip, silently).
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: serialtests FOLDER")
		os.Exit(2)
	}
	names, err := serialTests(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "serialtests:", err)
		os.Exit(1)
	}
	if len(names) == 0 {
		fmt.Fprintf(os.Stderr, "serialtests: %s has no test that runs serially\n", os.Args[1])
		os.Exit(1)
	}
	fmt.Println(pattern(names))
}

// pattern is the anchored alternation of names, for -run and -skip (whose
// patterns are matched against each level of a test's name: anchoring
// keeps TestA from also matching TestAB).
func pattern(names []string) string {
	return "^(" + strings.Join(names, "|") + ")$"
}

// serialTests lists, sorted, the Test functions of dir's _test.go files
// whose body has no statement calling Parallel on their *testing.T.
func serialTests(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no _test.go file", dir)
	}
	fset := token.NewFileSet()
	var names []string
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !isTest(fn) {
				continue
			}
			if !callsParallel(fn) {
				names = append(names, fn.Name.Name)
			}
		}
	}
	sort.Strings(names)
	return names, nil
}

// isTest says whether fn is what go test runs as a test: TestXxx (Xxx
// not starting with a lower-case letter) taking one *testing.T.
func isTest(fn *ast.FuncDecl) bool {
	name := fn.Name.Name
	if !strings.HasPrefix(name, "Test") || name == "TestMain" {
		return false
	}
	if rest := name[len("Test"):]; rest != "" && rest[0] >= 'a' && rest[0] <= 'z' {
		return false
	}
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "T"
}

// callsParallel says whether a statement of fn's own body (not one of a
// function literal in it: a subtest's t.Parallel pauses the subtest, not
// the test) is a call of Parallel on fn's *testing.T parameter.
func callsParallel(fn *ast.FuncDecl) bool {
	if len(fn.Type.Params.List[0].Names) == 0 {
		return false
	}
	t := fn.Type.Params.List[0].Names[0].Name
	for _, st := range fn.Body.List {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := es.X.(*ast.CallExpr)
		if !ok {
			continue
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Parallel" {
			continue
		}
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == t {
			return true
		}
	}
	return false
}
