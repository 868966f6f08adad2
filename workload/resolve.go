package workload

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/readbench/readbench/units"
)

// A class written with mime and size names no resource: it describes one.
// The simulated server synthesizes what it describes (its URIs carry the
// description), but a real server only has the documents it has. Against a
// real target such a class is a filter over the target's listing
// (resources/list): the resources whose MIME type matches the class's mime,
// a glob, and whose decoded size lies in the class's size range. This file
// holds that filter; package driver does the listing.
//
// How `size` is read:
//
//   - a range — "1KiB..5MiB", "1MiB.." (open above), "..200KiB" (from 0),
//     "<=200KiB", "<200KiB", ">=1MiB", ">1MiB", "any" — is a filter only,
//     on every target, the simulated one included (it lists a catalog);
//   - a size or a distribution keeps describing what the simulated server
//     synthesizes and, against a real target, is read as the range it
//     covers: a fixed size exactly (±0), uniform(min, max) as min..max and
//     lognormal(median, p99) as p1..p99 (p1 = median²/p99, as far below the
//     median as the p99 is above it).
//
// A glob in mime ("image/*", "*/*") cannot be synthesized either: such a
// class is resolved from the listing on every target.

// NoMaxSize is the Max of a SizeRange that is open above.
const NoMaxSize = math.MaxInt64

// SizeRange is an inclusive range of decoded sizes in bytes.
type SizeRange struct {
	Min, Max int64 // Max is NoMaxSize when the range is open above
}

// AnySize is the range every size is in.
func AnySize() SizeRange { return SizeRange{Min: 0, Max: NoMaxSize} }

// ParseSizeRange parses a size range: "MIN..MAX", "MIN..", "..MAX",
// "<=MAX", "<MAX", ">=MIN", ">MIN" or "any", with sizes as
// units.ParseSize reads them ("1.5MiB", "200KiB", "1834208"). Both ends
// are inclusive, and whitespace around the parts is allowed.
func ParseSizeRange(s string) (SizeRange, error) {
	t := strings.TrimSpace(s)
	size := func(v string) (int64, error) {
		n, err := units.ParseSize(v)
		if err != nil {
			return 0, fmt.Errorf("bad size range %q: %w", s, err)
		}
		return n, nil
	}
	var r SizeRange
	var err error
	switch {
	case t == "any":
		return AnySize(), nil
	case strings.HasPrefix(t, "<="):
		r.Max, err = size(t[2:])
	case strings.HasPrefix(t, ">="):
		r.Min, err = size(t[2:])
		r.Max = NoMaxSize
	case strings.HasPrefix(t, "<"):
		r.Max, err = size(t[1:])
		if err == nil && r.Max == 0 {
			return SizeRange{}, fmt.Errorf("bad size range %q: no size is below 0", s)
		}
		r.Max--
	case strings.HasPrefix(t, ">"):
		r.Min, err = size(t[1:])
		if err == nil && r.Min == NoMaxSize {
			return SizeRange{}, fmt.Errorf("bad size range %q: too large", s)
		}
		r.Min++
		r.Max = NoMaxSize
	default:
		lo, hi, ok := strings.Cut(t, "..")
		if !ok {
			return SizeRange{}, fmt.Errorf("bad size range %q: want MIN..MAX, MIN.., ..MAX, <=MAX, >=MIN or any", s)
		}
		lo, hi = strings.TrimSpace(lo), strings.TrimSpace(hi)
		if lo == "" && hi == "" {
			return SizeRange{}, fmt.Errorf("bad size range %q: give at least one end (or write any)", s)
		}
		r.Max = NoMaxSize
		if lo != "" {
			if r.Min, err = size(lo); err != nil {
				return SizeRange{}, err
			}
		}
		if hi != "" {
			r.Max, err = size(hi)
		}
	}
	if err != nil {
		return SizeRange{}, err
	}
	if r.Min > r.Max {
		return SizeRange{}, fmt.Errorf("bad size range %q: the minimum (%s) is above the maximum (%s)", s, units.FormatSize(r.Min), units.FormatSize(r.Max))
	}
	return r, nil
}

// IsSizeRange tells a range from a size or a distribution by its syntax,
// so that the one key "size" can hold either.
func IsSizeRange(s string) bool {
	t := strings.TrimSpace(s)
	return t == "any" || strings.Contains(t, "..") || strings.HasPrefix(t, "<") || strings.HasPrefix(t, ">")
}

// Contains reports whether n bytes are in the range.
func (r SizeRange) Contains(n int64) bool { return n >= r.Min && n <= r.Max }

// String is the canonical text of r, which ParseSizeRange reads back to
// the same range: "any", "1KiB..5MiB", "1MiB..", "0..200KiB".
func (r SizeRange) String() string {
	switch {
	case r == AnySize():
		return "any"
	case r.Max == NoMaxSize:
		return units.FormatSize(r.Min) + ".."
	}
	return units.FormatSize(r.Min) + ".." + units.FormatSize(r.Max)
}

// MarshalText writes the canonical text, for saved results.
func (r SizeRange) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// MatchMIME reports whether a MIME type matches a class's mime glob: "*"
// stands for any run of characters but "/", "[...]" for a set, as in
// path.Match. MIME types are case-insensitive and parameters ("; charset=")
// are ignored. A resource of unknown type ("") matches nothing.
func MatchMIME(glob, mime string) bool {
	m := BaseMIME(mime)
	if m == "" {
		return false
	}
	ok, err := path.Match(strings.ToLower(strings.TrimSpace(glob)), m)
	return err == nil && ok
}

// BaseMIME is a MIME type without its parameters, in lower case: the form
// in which listings are grouped and matched.
func BaseMIME(m string) string {
	m, _, _ = strings.Cut(m, ";")
	return strings.ToLower(strings.TrimSpace(m))
}

// isGlob reports whether a class's mime is a pattern rather than a type.
func isGlob(mime string) bool { return strings.ContainsAny(mime, "*[\\") }

// checkGlob reports a malformed mime glob ("image/[png").
func checkGlob(mime string) error {
	if _, err := path.Match(mime, "x/y"); err != nil {
		return errors.New("bad glob: an unclosed [ or a trailing \\")
	}
	return nil
}

// Synthesizable reports whether the simulated server can synthesize the
// class: a plain MIME type and a size or distribution (not a range).
func (c *Class) Synthesizable() bool {
	return c.Size != nil && c.SizeRange == nil && c.MIME != "" && !isGlob(c.MIME)
}

// Discovered reports whether the class must be resolved from the target's
// listing: a mime+size class against a real server (sim false), or one the
// simulated server cannot synthesize (a glob or a range).
func (c *Class) Discovered(sim bool) bool {
	if c.MIME == "" || (c.Size == nil && c.SizeRange == nil) {
		return false
	}
	return !sim || !c.Synthesizable()
}

// DiscoveryClasses returns the indices of the classes that must be
// resolved from the listing of the target (sim: readbench's simulated
// server), in order; nil when none.
func (w *Workload) DiscoveryClasses(sim bool) []int {
	var out []int
	for i := range w.Mix {
		if w.Mix[i].Discovered(sim) {
			out = append(out, i)
		}
	}
	return out
}

// SizeBounds is the range of sizes the class accepts from a listing (see
// the top of this file): its range, or the range its size or distribution
// covers; AnySize when it says nothing.
func (c *Class) SizeBounds() SizeRange {
	if c.SizeRange != nil {
		return *c.SizeRange
	}
	if c.Size == nil {
		return AnySize()
	}
	d := *c.Size
	switch d.Kind {
	case units.DistUniform:
		return SizeRange{Min: int64(d.A), Max: int64(d.B)}
	case units.DistLognormal:
		return SizeRange{Min: int64(math.Floor(d.A * d.A / d.B)), Max: int64(d.B)}
	}
	return SizeRange{Min: int64(d.A), Max: int64(d.A)}
}

// SizeText is the class's size as written, canonical: a range or a
// distribution; "" when it has none. Results show it.
func (c *Class) SizeText() string {
	switch {
	case c.SizeRange != nil:
		return c.SizeRange.String()
	case c.Size != nil:
		return c.Size.String()
	}
	return ""
}

// UnknownSize is the Size of a Resource whose size is not known.
const UnknownSize = -1

// Resource is one resource of a target's listing, as discovery learned
// it: from resources/list, or from a sampled read when the listing gave no
// size or type.
type Resource struct {
	URI     string
	MIME    string // "" when neither the listing nor a read said
	Size    int64  // decoded bytes; UnknownSize when not known
	Sampled bool   // Size (and MIME when the listing had none) come from a read
	// Answered is the mimeType a read of the resource answered with ("":
	// not read, or no type answered). It may contradict MIME, the
	// listing's type, which is what a class's mime selects on.
	Answered string
}

// Resolve matches each class of w named by classes (indices into w.Mix,
// see DiscoveryClasses) against a listing and returns the URIs of each:
// the resources whose MIME type matches the class's glob and whose size is
// in its bounds, sorted, so that the plan depends on what the server
// offers and not on the order it lists it in. A resource of unknown size
// matches only a class that accepts any size. A class that matches nothing
// is an *Error at the class, naming its glob and range and what the
// listing offered (counts per MIME type): a workload written for one
// server, run against another, must say so before the run, not after.
func Resolve(w *Workload, classes []int, listing []Resource) (map[int][]string, error) {
	out := make(map[int][]string, len(classes))
	for _, i := range classes {
		if i < 0 || i >= len(w.Mix) {
			return nil, fmt.Errorf("resolve: no class %d", i)
		}
		c := &w.Mix[i]
		bounds := c.SizeBounds()
		seen := map[string]bool{}
		var uris []string
		for _, r := range listing {
			if seen[r.URI] || r.URI == "" || !MatchMIME(c.MIME, r.MIME) {
				continue
			}
			if (r.Size < 0 && bounds != AnySize()) || (r.Size >= 0 && !bounds.Contains(r.Size)) {
				continue
			}
			seen[r.URI] = true
			uris = append(uris, r.URI)
		}
		if len(uris) == 0 {
			e := errorf(IndexKey("mix", i), "class %q matches nothing the target lists: no resource has a MIME type matching %s and a size in %s%s; %s",
				c.Name, c.MIME, bounds, boundsHint(c), describeListing(listing))
			w.locate(e)
			return nil, e
		}
		slices.Sort(uris)
		out[i] = uris
	}
	return out, nil
}

// boundsHint explains how a size that is not a range was read.
func boundsHint(c *Class) string {
	if c.SizeRange != nil || c.Size == nil {
		return ""
	}
	switch c.Size.Kind {
	case units.DistLognormal:
		return " (lognormal(median, p99) is read as p1..p99; write a range such as size: 1KiB..5MiB to choose)"
	case units.DistUniform:
		return ""
	}
	return " (a fixed size is matched exactly; write a range such as size: 1MiB..4MiB)"
}

// maxListedTypes bounds the MIME types an error message lists.
const maxListedTypes = 12

// TypeGroup is what a listing says of one MIME type: how many resources
// have it, how many of them have a known size and their range, and how
// many of those sizes a read learned (Resource.Sampled). An error message
// (describeListing) and init's starter file describe a listing by it.
type TypeGroup struct {
	MIME             string // its base type ("": resources of no known type)
	N, Sized, Read   int
	MinSize, MaxSize int64 // of the sized ones
}

// GroupByType groups a listing per base MIME type, most common first
// (ties by name).
func GroupByType(listing []Resource) []*TypeGroup {
	byType := map[string]*TypeGroup{}
	for _, r := range listing {
		m := BaseMIME(r.MIME)
		g := byType[m]
		if g == nil {
			g = &TypeGroup{MIME: m, MinSize: NoMaxSize}
			byType[m] = g
		}
		g.N++
		if r.Size >= 0 {
			g.Sized++
			g.MinSize, g.MaxSize = min(g.MinSize, r.Size), max(g.MaxSize, r.Size)
		}
		if r.Sampled {
			g.Read++
		}
	}
	return slices.SortedFunc(maps.Values(byType), func(a, b *TypeGroup) int {
		return cmp.Or(cmp.Compare(b.N, a.N), cmp.Compare(a.MIME, b.MIME))
	})
}

// describeListing summarizes a listing per MIME type, most common first:
// "the listing has 57 resources: text/markdown 40 (1KiB..96KiB), ...".
func describeListing(listing []Resource) string {
	if len(listing) == 0 {
		return "the target lists no resources (resources/list returned none): name them with uri, uris or template"
	}
	groups := GroupByType(listing)
	parts := make([]string, 0, min(len(groups), maxListedTypes)+1)
	for k, g := range groups {
		if k == maxListedTypes {
			parts = append(parts, fmt.Sprintf("and %d more types", len(groups)-k))
			break
		}
		name := g.MIME
		if name == "" {
			name = "(no type)"
		}
		sizes := "size unknown"
		if g.Sized > 0 {
			sizes = SizeRange{Min: g.MinSize, Max: g.MaxSize}.String()
			if g.Sized < g.N {
				sizes += fmt.Sprintf(", %d of unknown size", g.N-g.Sized)
			}
		}
		parts = append(parts, fmt.Sprintf("%s %d (%s)", name, g.N, sizes))
	}
	return fmt.Sprintf("the listing has %d resources: %s", len(listing), strings.Join(parts, ", "))
}
