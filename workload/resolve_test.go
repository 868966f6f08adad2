package workload_test

import (
	"errors"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseSizeRange(t *testing.T) {
	cases := []struct {
		in       string
		min, max int64
		err      string // a part of the message; "" when it parses
	}{
		{"1KiB..5MiB", 1024, 5 << 20, ""},                                      // both ends, inclusive
		{" 1KiB .. 5MiB ", 1024, 5 << 20, ""},                                  // spaces around the parts
		{"1.5MiB..2MiB", 1572864, 2 << 20, ""},                                 // a decimal size before the dots
		{"1MiB..", 1 << 20, workload.NoMaxSize, ""},                            // open above
		{"..200KiB", 0, 200 << 10, ""},                                         // from 0
		{"<=200KiB", 0, 200 << 10, ""},                                         // the same, as a bound
		{"<200KiB", 0, 200<<10 - 1, ""},                                        // strict: whole bytes
		{">=1MiB", 1 << 20, workload.NoMaxSize, ""},                            // open above
		{"> 1MiB", 1<<20 + 1, workload.NoMaxSize, ""},                          // strict, space after the operator
		{"any", 0, workload.NoMaxSize, ""},                                     // everything
		{"0..0", 0, 0, ""},                                                     // empty resources only
		{"1834208..1834208", 1834208, 1834208, ""},                             // one exact size
		{"1KB..1MB", 1000, 1000000, ""},                                        // SI units
		{"5MiB..1KiB", 0, 0, "the minimum (5MiB) is above the maximum (1KiB)"}, // reversed
		{"..", 0, 0, "give at least one end"},
		{"<0", 0, 0, "no size is below 0"},
		{"1kb..2kb", 0, 0, "ambiguous"}, // unit spelling is checked as for sizes
		{"-1..5", 0, 0, "must not be negative"},
		{"1..2..3", 0, 0, "bad size"}, // one range only
		{"<=", 0, 0, "want a number"},
		{"1KiB", 0, 0, "want MIN..MAX"}, // a plain size is not a range
		{">9223372036854775807", 0, 0, "too large"},
		{"..99999999999999999999", 0, 0, "too large"},
	}
	for _, c := range cases {
		r, err := workload.ParseSizeRange(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseSizeRange(%q) = %v, %v; want an error with %q", c.in, r, err, c.err)
			}
			continue
		}
		if err != nil || r.Min != c.min || r.Max != c.max {
			t.Errorf("ParseSizeRange(%q) = %+v, %v; want %d..%d", c.in, r, err, c.min, c.max)
			continue
		}
		back, err := workload.ParseSizeRange(r.String())
		if err != nil || back != r {
			t.Errorf("%q: canonical text %q reads back as %+v, %v", c.in, r.String(), back, err)
		}
	}
}

// FuzzParseSizeRange: whatever the text, the parser never panics, what it
// accepts is a non-empty range within int64 and its canonical text reads
// back to the same range; the syntax check that routes "size" to it agrees.
func FuzzParseSizeRange(f *testing.F) {
	for _, s := range []string{"1KiB..5MiB", "1MiB..", "..200KiB", "<=200KiB", "<1", ">=1MiB", ">0", "any", "1.5MiB..2MiB", "..", "<0", "9223372036854775807..", ">9223372036854775806"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := workload.ParseSizeRange(s)
		if err != nil {
			return
		}
		if r.Min < 0 || r.Min > r.Max {
			t.Fatalf("ParseSizeRange(%q) = %+v: not a range", s, r)
		}
		if !workload.IsSizeRange(s) {
			t.Fatalf("ParseSizeRange accepts %q but isSizeRange does not route it there", s)
		}
		text := r.String()
		back, err := workload.ParseSizeRange(text)
		if err != nil || back != r {
			t.Fatalf("%q: canonical %q reads back as %+v, %v", s, text, back, err)
		}
		if !r.Contains(r.Min) || !r.Contains(r.Max) || (r.Min > 0 && r.Contains(r.Min-1)) {
			t.Fatalf("%+v: Contains is wrong at its ends", r)
		}
	})
}

func TestMatchMIME(t *testing.T) {
	cases := []struct {
		glob, mime string
		want       bool
	}{
		{"text/markdown", "text/markdown", true},
		{"text/markdown", "text/plain", false},
		{"image/*", "image/png", true},
		{"image/*", "image/svg+xml", true},
		{"image/*", "text/plain", false},
		{"image/*", "image", false}, // no subtype
		{"*/*", "application/pdf", true},
		{"*/*", "", false},                                // unknown type matches nothing
		{"*", "text/plain", false},                        // * does not cross the slash
		{"text/*", "TEXT/Plain", true},                    // case-insensitive
		{"Text/Markdown", "text/markdown", true},          // in the glob too
		{"text/plain", "text/plain; charset=utf-8", true}, // parameters ignored
		{"application/*+json", "application/vnd.api+json", true},
		{"application/*+json", "application/json", false},
		{"image/[pj]*", "image/jpeg", true},
		{"image/[pj]*", "image/gif", false},
		{"image/[png", "image/png", false}, // a bad pattern matches nothing
	}
	for _, c := range cases {
		if got := workload.MatchMIME(c.glob, c.mime); got != c.want {
			t.Errorf("MatchMIME(%q, %q) = %v, want %v", c.glob, c.mime, got, c.want)
		}
	}
}

const resolveYAML = `
target: http://127.0.0.1:9/mcp
seed: 3
load: {rate: 10/s}
turn: {attachments: 4}
mix:
  - {class: images, mime: "image/*", size: "100KiB..2MiB", weight: 2}
  - {class: small-md, mime: text/markdown, size: "<=8KiB"}
  - {class: anything, mime: "*/*", size: any}
  - {class: shot, mime: image/png, size: 1834208}
  - {class: md-dist, mime: text/markdown, size: "lognormal(8KiB, 200KiB)"}
  - {class: fixed, uri: "docs://fixed"}
`

// listing is a small catalog: sizes listed, learned or unknown.
func listing() []workload.Resource {
	return []workload.Resource{
		{URI: "file:///a.png", MIME: "image/png", Size: 1834208},
		{URI: "file:///b.jpg", MIME: "image/jpeg", Size: 300 << 10},
		{URI: "file:///tiny.png", MIME: "image/png", Size: 10 << 10},                // below the images range
		{URI: "file:///huge.png", MIME: "image/png", Size: 9 << 20},                 // above it
		{URI: "file:///unknown.gif", MIME: "image/gif", Size: workload.UnknownSize}, // a bounded range cannot take it
		{URI: "docs://x.md", MIME: "text/markdown; charset=utf-8", Size: 2000, Sampled: true},
		{URI: "docs://big.md", MIME: "text/markdown", Size: 100 << 10},
		{URI: "docs://mystery", MIME: "", Size: 50},              // no type: matches no glob
		{URI: "file:///a.png", MIME: "image/png", Size: 1834208}, // listed twice
	}
}

func TestResolve(t *testing.T) {
	w, err := yamlfile.Parse("r.yaml", []byte(resolveYAML))
	if err != nil {
		t.Fatal(err)
	}
	idx := w.DiscoveryClasses(false)
	if !slices.Equal(idx, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("DiscoveryClasses(real) = %v", idx)
	}
	// The simulated server synthesizes plain types with a size or a
	// distribution; a glob or a range is resolved from its catalog.
	if sim := w.DiscoveryClasses(true); !slices.Equal(sim, []int{0, 1, 2}) {
		t.Fatalf("DiscoveryClasses(sim) = %v", sim)
	}
	got, err := workload.Resolve(w, idx, listing())
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]string{
		0: {"file:///a.png", "file:///b.jpg"},
		1: {"docs://x.md"},
		2: {"docs://big.md", "docs://x.md", "file:///a.png", "file:///b.jpg", "file:///huge.png", "file:///tiny.png", "file:///unknown.gif"},
		3: {"file:///a.png"},
		4: {"docs://big.md", "docs://x.md"}, // p1..p99 = 327..200KiB
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Resolve = %v\nwant %v", got, want)
	}
	// The plan draws uniformly from the matches, the same with the same seed.
	p, err := workload.NewSamplingWith(w, workload.SamplingOptions{Resolved: got})
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := workload.NewSamplingWith(w, workload.SamplingOptions{Resolved: got})
	counts := map[string]int{}
	for i := range uint64(4000) {
		turn := p.Turn(i)
		if !reflect.DeepEqual(turn, p2.Turn(i)) {
			t.Fatalf("turn %d differs between two plans of the same seed", i)
		}
		for _, a := range turn {
			if a.Class == 0 {
				counts[a.URI]++
			}
			if a.Class < 5 && !slices.Contains(want[a.Class], a.URI) {
				t.Fatalf("class %d drew %q, not one of its matches", a.Class, a.URI)
			}
		}
	}
	if a, b := counts["file:///a.png"], counts["file:///b.jpg"]; a == 0 || b == 0 || a*10 < b*8 || b*10 < a*8 {
		t.Errorf("images drawn unevenly: %v", counts)
	}
	// Without a resolution, a real target's class cannot be planned.
	if _, err := workload.NewSamplingWith(w, workload.SamplingOptions{Resolved: map[int][]string{0: want[0]}}); err == nil || !strings.Contains(err.Error(), `class "small-md"`) {
		t.Errorf("planning with class 1 unresolved: %v", err)
	}
}

func TestResolveNoMatch(t *testing.T) {
	w, err := yamlfile.Parse("r.yaml", []byte(resolveYAML))
	if err != nil {
		t.Fatal(err)
	}
	l := listing()
	l[0].Size, l[8].Size = 1834209, 1834209 // the exact screenshot size is no longer listed
	_, err = workload.Resolve(w, []int{3}, l)
	var e *workload.Error
	if !errors.As(err, &e) || e.Key != "mix[3]" || e.File != "r.yaml" || e.Line != 10 {
		t.Fatalf("Resolve = %v; want an *Error at r.yaml:10 mix[3]", err)
	}
	for _, want := range []string{
		`class "shot" matches nothing the target lists`,
		"image/png and a size in 1834208..1834208",
		"a fixed size is matched exactly",
		"the listing has 9 resources: image/png 4 (10KiB..9MiB), text/markdown 2 (2000..100KiB), (no type) 1 (50..50), image/gif 1 (size unknown), image/jpeg 1 (300KiB..300KiB)",
	} {
		if !strings.Contains(e.Msg, want) {
			t.Errorf("message lacks %q:\n%s", want, e.Msg)
		}
	}
	_, err = workload.Resolve(w, []int{0}, nil)
	if err == nil || !strings.Contains(err.Error(), "the target lists no resources") {
		t.Errorf("empty listing: %v", err)
	}
}

func TestSizeBoundsAndText(t *testing.T) {
	w, err := yamlfile.Parse("r.yaml", []byte(resolveYAML))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct{ bounds, text string }{
		{"100KiB..2MiB", "100KiB..2MiB"},
		{"0..8KiB", "0..8KiB"},
		{"any", "any"},
		{"1834208..1834208", "1834208"},
		{"327..200KiB", "lognormal(8KiB,200KiB)"},
		{"any", ""},
	} {
		c := &w.Mix[i]
		if got := c.SizeBounds().String(); got != want.bounds {
			t.Errorf("%s: bounds %s, want %s", c.Name, got, want.bounds)
		}
		if got := c.SizeText(); got != want.text {
			t.Errorf("%s: size text %q, want %q", c.Name, got, want.text)
		}
	}
}

func TestRangeClassErrors(t *testing.T) {
	base := "load: {rate: 1/s}\nmix:\n  - class: a\n"
	for _, c := range []struct{ class, want string }{
		{`    mime: "image/[png"` + "\n    size: any\n", "mix[0].mime: bad glob"},
		{"    mime: image/png\n    size: 5MiB..1KiB\n", "mix[0].size: bad size range"},
		{"    mime: image/png\n", "mime needs size"},
		{"    size: 1KiB..\n", "size needs mime"},
		{"    mime: image/png\n    size: 1KiB..\n    delay: fast\n", "mix[0].delay"},
	} {
		_, err := yamlfile.Parse("c.yaml", []byte(base+c.class))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.class, err, c.want)
		}
	}
	// A range class on the simulated server is resolved, never synthesized.
	w, err := yamlfile.Parse("c.yaml", []byte("load: {rate: 1/s}\nmix:\n  - {class: a, mime: image/png, size: \"1KiB..\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := workload.NewSimPlan(w); err == nil || !strings.Contains(err.Error(), "resolved from the target's listing") {
		t.Errorf("NewSimPlan of a range class: %v", err)
	}
	p, err := workload.NewSamplingWith(w, workload.SamplingOptions{Sim: true, Resolved: map[int][]string{0: {"sim:///x"}}})
	if err != nil {
		t.Fatal(err)
	}
	if a := p.Turn(0)[0]; a.URI != "sim:///x" {
		t.Errorf("drew %+v", a)
	}
}
