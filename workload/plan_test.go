package workload_test

import (
	"errors"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
	"math"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
)

const planYAML = `
seed: 42
load: {rate: 10/s}
turn: {attachments: 4}
mix:
  - class: markdown
    weight: 70
    mime: text/markdown
    size: lognormal(8KiB, 200KiB)
    delay: lognormal(12ms, 40ms)
    entries: 3
  - class: screenshot
    weight: 25
    mime: image/png
    size: 1834208
  - class: renamed-policy
    weight: 5
    uri: docs://team/platform/policy/on-call-escalation
    expect: not_found
`

func mustPlan(t testing.TB, yaml string) (*workload.Workload, *workload.Sampling) {
	t.Helper()
	w, err := yamlfile.Parse("plan.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	p, err := workload.NewSampling(w)
	if err != nil {
		t.Fatal(err)
	}
	return w, p
}

func TestPlanDeterminism(t *testing.T) {
	_, p1 := mustPlan(t, planYAML)
	_, p2 := mustPlan(t, planYAML)
	_, other := mustPlan(t, strings.Replace(planYAML, "seed: 42", "seed: 43", 1))
	same := 0
	for i := range uint64(200) {
		a, b := p1.Turn(i), p2.Turn(i)
		if !slices.Equal(a, b) {
			t.Fatalf("turn %d differs between two plans with the same seed:\n%v\n%v", i, a, b)
		}
		if slices.Equal(a, other.Turn(i)) {
			same++
		}
	}
	if same > 20 { // a turn of 4 renamed-policy reads can repeat by chance; most cannot
		t.Errorf("%d of 200 turns are the same with seeds 42 and 43", same)
	}
	if slices.Equal(p1.Turn(0), p1.Turn(1)) {
		t.Errorf("turns 0 and 1 are the same")
	}
}

// Turns can be built in any order and from many goroutines.
func TestPlanOrderAndConcurrency(t *testing.T) {
	_, p := mustPlan(t, planYAML)
	const n = 500
	want := make([][]workload.Attachment, n)
	for i := range want {
		want[i] = p.Turn(uint64(i))
	}
	var wg sync.WaitGroup
	got := make([][]workload.Attachment, n)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := n - 1 - g; i >= 0; i -= 4 {
				got[i] = p.Turn(uint64(i))
			}
		}()
	}
	wg.Wait()
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("turn %d depends on the order it was built in", i)
		}
	}
}

// The sim URIs of the embedded target carry what the simulated server needs,
// and parse back with net/url.
func TestPlanSimURIs(t *testing.T) {
	w, p := mustPlan(t, planYAML)
	counts := make([]int, len(w.Mix))
	seen := map[string]bool{}
	var sizes []float64
	for i := range uint64(5000) {
		for slot, a := range p.Turn(i) {
			counts[a.Class]++
			c := w.Mix[a.Class]
			if a.Expect != c.Expect {
				t.Fatalf("Expect = %q, want the class's %q", a.Expect, c.Expect)
			}
			if c.URI != "" {
				if a.URI != c.URI {
					t.Fatalf("URI = %q, want %q", a.URI, c.URI)
				}
				continue
			}
			if seen[a.URI] {
				t.Fatalf("URI %q read twice", a.URI)
			}
			seen[a.URI] = true
			u, err := url.Parse(a.URI)
			if err != nil {
				t.Fatal(err)
			}
			q := u.Query()
			wantPath := "/" + c.Name + "-" + strconv.FormatUint(i, 10) + "-" + strconv.Itoa(slot)
			if u.Scheme != "sim" || u.Host != "" || u.Path != wantPath {
				t.Fatalf("%q: scheme %q host %q path %q, want sim:// with path %q", a.URI, u.Scheme, u.Host, u.Path, wantPath)
			}
			if q.Get("mime") != c.MIME {
				t.Fatalf("%q: mime %q, want %q", a.URI, q.Get("mime"), c.MIME)
			}
			size, err := strconv.ParseInt(q.Get("size"), 10, 64)
			if err != nil || size < 0 {
				t.Fatalf("%q: size %q is not a byte count", a.URI, q.Get("size"))
			}
			if c.Name == "screenshot" {
				if size != 1834208 || q.Has("delay") || q.Has("entries") {
					t.Fatalf("%q: a fixed size must stay fixed, and no delay or entries were asked", a.URI)
				}
				continue
			}
			sizes = append(sizes, float64(size))
			d, err := units.ParseDurationDist(q.Get("delay"))
			if err != nil || d != *c.Delay {
				t.Fatalf("%q: delay %q parses to %v, %v; want %v", a.URI, q.Get("delay"), d, err, c.Delay)
			}
			if q.Get("entries") != "3" {
				t.Fatalf("%q: entries %q", a.URI, q.Get("entries"))
			}
		}
	}
	total := float64(counts[0] + counts[1] + counts[2])
	for i, want := range []float64{0.70, 0.25, 0.05} {
		if got := float64(counts[i]) / total; math.Abs(got-want) > 0.01 {
			t.Errorf("class %s drawn %.3f of the time, want %.2f", w.Mix[i].Name, got, want)
		}
	}
	slices.Sort(sizes)
	if med := sizes[len(sizes)/2]; math.Abs(med/8192-1) > 0.05 {
		t.Errorf("median markdown size %v, want about 8KiB", med)
	}
}

func TestPlanWeightedAttachments(t *testing.T) {
	_, p := mustPlan(t, `
load: {rate: 1/s}
turn: {attachments: {1: 50, 4: 40, 10: 10}}
mix: [{class: a, uri: docs://a}]`)
	const n = 100_000
	counts := map[int]int{}
	for i := range uint64(n) {
		counts[len(p.Turn(i))]++
	}
	if len(counts) != 3 {
		t.Fatalf("counts drawn: %v, want only 1, 4 and 10", counts)
	}
	for k, want := range map[int]float64{1: 0.5, 4: 0.4, 10: 0.1} {
		if got := float64(counts[k]) / n; math.Abs(got-want) > 0.01 {
			t.Errorf("%d attachments in %.3f of turns, want %.2f", k, got, want)
		}
	}
}

func TestPlanURIsAndTemplate(t *testing.T) {
	w, p := mustPlan(t, `
load: {rate: 1/s}
turn: {attachments: 2}
mix:
  - class: list
    uris: [docs://a, docs://b, docs://c]
  - class: page
    template: docs://{team}/{page}?v={team}
    vars: {team: [platform, web ops], page: ["on call", "a/b"]}
  - class: path
    template: file:///repo/{+path}
    vars: {path: [src/main.go, "docs/read me.md", "x%2Fy"]}`)
	seen := map[string]int{}
	for i := range uint64(3000) {
		for _, a := range p.Turn(i) {
			seen[a.URI]++
			if w.Mix[a.Class].Name == "list" && !slices.Contains(w.Mix[0].URIs, a.URI) {
				t.Fatalf("uris class read %q", a.URI)
			}
		}
	}
	for _, want := range []string{
		"docs://a", "docs://b", "docs://c",
		"docs://platform/on%20call?v=platform", "docs://web%20ops/a%2Fb?v=web%20ops",
		"file:///repo/src/main.go", "file:///repo/docs/read%20me.md", "file:///repo/x%2Fy",
	} {
		if seen[want] == 0 {
			t.Errorf("%q never drawn; drew %v", want, seen)
		}
	}
	if len(seen) != 3+4+3 {
		t.Errorf("drew %d distinct URIs, want 10: %v", len(seen), seen)
	}
}

func TestPlanRealTargetNeedsNames(t *testing.T) {
	w, err := yamlfile.Parse("real.yaml", []byte(strings.Replace(planYAML, "seed: 42", "seed: 42\ntarget: http://127.0.0.1:8080/mcp", 1)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = workload.NewSampling(w)
	var e *workload.Error
	if !errors.As(err, &e) || e.Key != "mix[0]" || e.Line != 7 || e.File != "real.yaml" ||
		!strings.Contains(e.Msg, `class "markdown" (mime text/markdown, size lognormal(8KiB,200KiB)) is resolved from the target's listing (resources/list)`) {
		t.Errorf("NewPlan with an http target and mime+size classes: %v", err)
	}
	// The simulated server behind an http target synthesizes them as the
	// embedded one does: the same sim: URIs.
	sp, err := workload.NewSimPlan(w)
	if err != nil {
		t.Fatalf("NewSimPlan: %v", err)
	}
	real := w.Target
	w.Target = targets.Target{Kind: targets.Embedded}
	ep, err := workload.NewSampling(w)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := sp.Turn(3), ep.Turn(3); !reflect.DeepEqual(a, b) || !strings.HasPrefix(a[0].URI, "sim:///") {
		t.Errorf("NewSimPlan turn %v, embedded NewPlan turn %v", a, b)
	}
	w.Target = real
	// Classes with names work against any target.
	w.Mix = w.Mix[2:]
	if _, err := workload.NewSampling(w); err != nil {
		t.Errorf("NewPlan with a uri class: %v", err)
	}
	// NewSampling validates.
	w.Mix = nil
	if _, err := workload.NewSampling(w); err == nil {
		t.Errorf("NewPlan with an empty mix succeeded")
	}
}

func BenchmarkPlanTurn(b *testing.B) {
	_, p := mustPlan(b, planYAML)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.Turn(uint64(i))
	}
}

// simURI's prepared pieces give exactly what net/url would build.
func TestSimURIMatchesNetURL(t *testing.T) {
	w, p := mustPlan(t, `
load: {rate: 1/s}
mix:
  - class: "odd name?#%/x ü"
    mime: application/vnd.a+json
    size: uniform(0, 1MiB)
    delay: uniform(1ms, 2s)
    entries: 2
  - class: plain
    mime: text/plain
    size: 10`)
	for i := range uint64(200) {
		a := p.Turn(i)[0]
		c := w.Mix[a.Class]
		got, _ := url.Parse(a.URI)
		q := url.Values{}
		q.Set("mime", c.MIME)
		q.Set("size", got.Query().Get("size"))
		if c.Delay != nil {
			q.Set("delay", c.Delay.String())
		}
		if c.Entries > 0 {
			q.Set("entries", strconv.Itoa(c.Entries))
		}
		want := url.URL{Scheme: "sim", Path: "/" + c.Name + "-" + strconv.FormatUint(i, 10) + "-0", RawQuery: q.Encode()}
		if a.URI != want.String() {
			t.Fatalf("sim URI\n got %s\nwant %s", a.URI, want.String())
		}
		if got.Path != want.Path {
			t.Fatalf("path %q, want %q", got.Path, want.Path)
		}
	}
}

// A Workload literal with ApplyDefaults plans like the same YAML.
func TestApplyDefaults(t *testing.T) {
	size := units.Dist{Kind: units.DistFixed, A: 1834208, Unit: units.UnitBytes}
	w := &workload.Workload{
		Seed: 42,
		Load: workload.Load{Rate: units.Rate{PerSecond: 10}},
		Mix:  []workload.Class{{Name: "screenshot", MIME: "image/png", Size: &size}},
	}
	if err := w.Validate(); err == nil {
		t.Fatal("a bare literal validates without defaults")
	}
	w.ApplyDefaults()
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	p, err := workload.NewSampling(w)
	if err != nil {
		t.Fatal(err)
	}
	_, q := mustPlan(t, "seed: 42\nload: {rate: 10/s}\nmix: [{class: screenshot, mime: image/png, size: 1834208}]")
	for i := range uint64(10) {
		if !slices.Equal(p.Turn(i), q.Turn(i)) {
			t.Fatalf("turn %d: %v, want %v", i, p.Turn(i), q.Turn(i))
		}
	}
	if w.Seed != 42 || w.Load.Duration != workload.DefaultDuration || w.Protocol != "auto" || w.Mix[0].Weight != 1 {
		t.Errorf("ApplyDefaults: %+v", w)
	}
}
