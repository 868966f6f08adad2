package deploy

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/moby/buildkit/frontend/dockerfile/parser"
)

// stage is one FROM ... of the Dockerfile and its instructions.
type stage struct {
	base, name string
	nodes      []*parser.Node
}

func dockerStages(t *testing.T) []stage {
	t.Helper()
	f, err := os.Open("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := parser.Parse(f)
	if err != nil {
		t.Fatalf("Dockerfile: %v", err)
	}
	if len(res.Warnings) > 0 {
		t.Errorf("Dockerfile warnings: %+v", res.Warnings)
	}
	var out []stage
	for _, n := range res.AST.Children {
		if strings.EqualFold(n.Value, "from") {
			s := stage{base: words(n)[0]}
			if w := words(n); len(w) == 3 && strings.EqualFold(w[1], "as") {
				s.name = w[2]
			}
			out = append(out, s)
			continue
		}
		if len(out) == 0 {
			t.Fatalf("Dockerfile line %d: %s before any FROM", n.StartLine, n.Value)
		}
		out[len(out)-1].nodes = append(out[len(out)-1].nodes, n)
	}
	return out
}

// words are an instruction's arguments.
func words(n *parser.Node) []string {
	var w []string
	for a := n.Next; a != nil; a = a.Next {
		w = append(w, a.Value)
	}
	return w
}

// goBuild is the arguments after "go build" of a command line, with
// -o and its value left out (where the binary lands differs), and the
// environment assignments before the command.
func goBuild(cmd string) (args []string, env []string, ok bool) {
	f := strings.Fields(cmd)
	i := 0
	for i < len(f) && strings.Contains(f[i], "=") && !strings.HasPrefix(f[i], "-") {
		env = append(env, f[i])
		i++
	}
	if i+1 >= len(f) || (f[i] != "go" && f[i] != "$(GO)") || f[i+1] != "build" {
		return nil, env, false
	}
	rest := f[i+2:]
	for j := 0; j < len(rest); j++ {
		if rest[j] == "-o" {
			j++
			continue
		}
		if strings.HasPrefix(rest[j], "-o=") {
			continue
		}
		args = append(args, rest[j])
	}
	return args, env, true
}

// makefileBuild is the go build of the Makefile's build target.
func makefileBuild(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "build:"):
			in = true
		case in && strings.HasPrefix(line, "\t"):
			if args, _, ok := goBuild(strings.TrimSpace(line)); ok {
				return args
			}
		case in && strings.TrimSpace(line) != "":
			in = false
		}
	}
	t.Fatal("the Makefile's build target has no go build")
	return nil
}

// TestDockerfile: multi-stage; the build stage builds ./cmd/readbench
// with the Makefile's flags and CGO_ENABLED=0; the final stage is
// distroless or scratch, copies that binary from the build stage, runs
// it as its entrypoint, and as a non-root user.
func TestDockerfile(t *testing.T) {
	stages := dockerStages(t)
	if len(stages) < 2 {
		t.Fatalf("%d stages: want a build stage and a final one", len(stages))
	}
	build, final := stages[0], stages[len(stages)-1]
	want := makefileBuild(t)
	if !slices.Contains(want, "./cmd/readbench") {
		t.Fatalf("the Makefile builds %v", want)
	}
	var built, binary string
	for _, n := range build.nodes {
		if !strings.EqualFold(n.Value, "run") {
			continue
		}
		cmd := strings.Join(words(n), " ")
		args, env, ok := goBuild(cmd)
		if !ok {
			continue
		}
		if !slices.Equal(args, want) {
			t.Errorf("the image builds with %v, the Makefile with %v", args, want)
		}
		if !slices.Contains(env, "CGO_ENABLED=0") {
			t.Errorf("%q: not CGO_ENABLED=0, the binary would not be static", cmd)
		}
		f := strings.Fields(cmd)
		for i, w := range f {
			if w == "-o" && i+1 < len(f) {
				binary = f[i+1]
			}
		}
		built = cmd
	}
	if built == "" || binary == "" {
		t.Fatal("the build stage runs no go build -o BINARY")
	}
	if b := final.base; b != "scratch" && !strings.HasPrefix(b, "gcr.io/distroless/") {
		t.Errorf("final base %s: want distroless or scratch", b)
	}
	var copied, user, entry string
	for _, n := range final.nodes {
		w := words(n)
		switch strings.ToLower(n.Value) {
		case "copy":
			if slices.Contains(n.Flags, "--from="+build.name) && len(w) == 2 && w[0] == binary {
				copied = w[1]
			}
		case "user":
			user = w[0]
		case "entrypoint":
			if !n.Attributes["json"] {
				t.Error("ENTRYPOINT in shell form: the distroless base has no shell")
			}
			entry = w[0]
		case "run":
			t.Errorf("line %d: RUN in the final stage: a distroless or scratch base has no shell", n.StartLine)
		}
	}
	if copied == "" || entry != copied {
		t.Errorf("the final stage copies %q from stage %q and runs %q: want the built binary as the entrypoint", copied, build.name, entry)
	}
	uid, _, _ := strings.Cut(user, ":")
	if user == "" || uid == "0" || uid == "root" {
		t.Errorf("USER %q: the image must run as a non-root user", user)
	}
	if strings.Trim(uid, "0123456789") != "" {
		t.Errorf("USER %q: numeric, so Kubernetes can verify runAsNonRoot", user)
	}
}
