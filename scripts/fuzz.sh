#!/usr/bin/env bash
# Run every fuzz target in the module for a while each: ./scripts/fuzz.sh 30s
# (-fuzzminimizetime 100x: with the default 60 s, a short run that ends while
# the fuzzer minimizes a new input reports "context deadline exceeded".)
set -euo pipefail
t=${1:-10s}
cd "$(dirname "$0")/.."
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for f in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //'); do
    echo "== $pkg $f ($t)"
    go test -run '^$' -fuzz "^$f\$" -fuzztime "$t" -fuzzminimizetime 100x "$pkg"
  done
done
