// Package layering holds the test that keeps the package graph as the
// README's layout table draws it: each row of that table names what its
// package never imports, and the test fails when `go list -deps` finds
// such an import, direct or indirect. The table is the one place the
// layering is written; this package is how it stays true. It has no code
// of its own beyond the table reader the test uses.
package layering
