// Command typepairs lists the struct types of two different packages
// whose field names are alike (Jaccard similarity of the two sets at or
// above -min, each type having at least -fields fields): the twins one
// concept grows when a type is mirrored across a package border instead
// of shared. It reads the module's non-test Go files under the folder
// given (default "."), skipping deploy/, scripts/ and testdata.
//
//	go run ./scripts/typepairs            # the pairs, then their count
//	go run ./scripts/typepairs -min 0.8   # only the closest twins
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type structType struct {
	pkg, name string
	fields    map[string]bool
}

func main() {
	minSim := flag.Float64("min", 0.6, "the least Jaccard similarity of two field sets that makes a pair")
	minFields := flag.Int("fields", 3, "the fewest fields a type has to be compared")
	flag.Parse()
	root := "."
	if flag.NArg() > 0 {
		root = flag.Arg(0)
	}
	types, err := collect(root, *minFields)
	if err != nil {
		fmt.Fprintln(os.Stderr, "typepairs:", err)
		os.Exit(1)
	}
	n := 0
	for i, a := range types {
		for _, b := range types[i+1:] {
			if a.pkg == b.pkg {
				continue
			}
			if s := jaccard(a.fields, b.fields); s >= *minSim {
				fmt.Printf("%.2f  %s.%s  %s.%s\n", s, a.pkg, a.name, b.pkg, b.name)
				n++
			}
		}
	}
	fmt.Printf("%d pairs of struct types in different packages with field sets alike ≥ %.2f (%d types of ≥ %d fields)\n", n, *minSim, len(types), *minFields)
}

// collect parses every non-test Go file under root and returns its named
// struct types with at least minFields fields, ordered by package and name.
func collect(root string, minFields int) ([]structType, error) {
	var out []structType
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "deploy", "scripts", "testdata", "node_modules", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			fields := map[string]bool{}
			for _, fl := range st.Fields.List {
				for _, nm := range fl.Names {
					fields[strings.ToLower(nm.Name)] = true
				}
				if len(fl.Names) == 0 { // embedded: its type's name
					fields[strings.ToLower(typeName(fl.Type))] = true
				}
			}
			if len(fields) >= minFields {
				out = append(out, structType{pkg: pkg, name: ts.Name.Name, fields: fields})
			}
			return true
		})
		return nil
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].pkg != out[j].pkg {
			return out[i].pkg < out[j].pkg
		}
		return out[i].name < out[j].name
	})
	return out, err
}

func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return typeName(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	}
	return "?"
}

func jaccard(a, b map[string]bool) float64 {
	both := 0
	for k := range a {
		if b[k] {
			both++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}
