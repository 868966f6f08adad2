package results

import (
	"cmp"

	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
)

// Workload is the workload as the run resolved it (defaults applied, flags
// applied), so that a result alone says what was asked. Values are kept as
// their text ("50/s", "lognormal(12ms,40ms)", "800ms") as a person wrote
// them; rates also carry their per-second number for scripts. Durations are
// Go duration strings ("0s" when unset).
type Workload struct {
	Name       string            `json:"name"`
	Source     string            `json:"source"`
	Target     string            `json:"target"` // the target as written (a URL's password masked)
	Protocol   string            `json:"protocol"`
	Sessions   int               `json:"sessions"`
	Seed       int64             `json:"seed"`
	Load       LoadSpec          `json:"load"`
	Turn       TurnSpec          `json:"turn"`
	Mix        []MixClass        `json:"mix"`
	Thresholds map[string]string `json:"thresholds"`
	AllowHosts []string          `json:"allow_hosts"`
	// Headers maps every header name to Redacted: which headers were sent
	// is useful, their values are secrets and are never saved.
	Headers map[string]string `json:"headers"`
}

// LoadSpec is workload.Load as text.
type LoadSpec struct {
	Model       string      `json:"model"`
	Rate        string      `json:"rate"`       // as written, "" when unset
	RatePerS    float64     `json:"rate_per_s"` // the same in turns per second
	Concurrency int         `json:"concurrency"`
	Arrival     string      `json:"arrival"`
	Warmup      string      `json:"warmup"`
	Duration    string      `json:"duration"`
	Turns       int         `json:"turns"`
	Stages      []StageSpec `json:"stages"`
	MaxInFlight int         `json:"max_in_flight"`
}

// StageSpec is workload.Stage as text.
type StageSpec struct {
	Rate     string  `json:"rate"`
	RatePerS float64 `json:"rate_per_s"`
	For      string  `json:"for"`
	Ramp     bool    `json:"ramp"`
}

// TurnSpec is workload.Turn as text. Attachments is the fixed count, or 0 when
// the count is drawn from Weighted (count -> weight).
type TurnSpec struct {
	Attachments int         `json:"attachments"`
	Weighted    map[int]int `json:"attachments_weighted"`
	ReadTimeout string      `json:"read_timeout"`
	Deadline    string      `json:"deadline"`
	// MaxAnswer is the largest answer a read accepted, as a size
	// ("256MiB"): a bigger one was a protocol outcome.
	MaxAnswer string `json:"max_answer"`
}

// MixClass is workload.Class as text: sizes and delays in their canonical
// distribution text, "" when unset.
type MixClass struct {
	Class       string              `json:"class"`
	Weight      float64             `json:"weight"`
	URI         string              `json:"uri"`
	URIs        []string            `json:"uris"`
	Template    string              `json:"template"`
	Vars        map[string][]string `json:"vars"`
	MIME        string              `json:"mime"`
	Size        string              `json:"size"`
	Delay       string              `json:"delay"`
	Entries     int                 `json:"entries"`
	Expect      string              `json:"expect"`
	RangedChunk string              `json:"ranged_chunk"` // "" unless fetched with the ranged read
}

// resolveWorkload converts w for saving, removing its secrets.
func resolveWorkload(w *workload.Workload) Workload {
	r := Workload{
		Name:       w.Name,
		Source:     w.Source,
		Target:     workload.RedactURLs(w.Target.String()),
		Protocol:   w.Protocol,
		Sessions:   w.Sessions,
		Seed:       w.Seed,
		Load:       resolveLoad(w.Load),
		Turn:       resolveTurn(w.Turn),
		Mix:        make([]MixClass, 0, len(w.Mix)),
		Thresholds: make(map[string]string, len(w.Thresholds)),
		AllowHosts: append([]string{}, w.AllowHosts...),
		Headers:    make(map[string]string, len(w.Headers)),
	}
	for _, t := range w.Thresholds {
		r.Thresholds[t.Metric] = t.Bound // as written
	}
	for k := range w.Headers {
		r.Headers[k] = Redacted
	}
	for _, c := range w.Mix {
		r.Mix = append(r.Mix, resolveClass(c))
	}
	return r
}

func resolveLoad(l workload.Load) LoadSpec {
	r := LoadSpec{
		Model:       l.Model,
		Concurrency: l.Concurrency,
		Arrival:     l.Arrival,
		Warmup:      l.Warmup.String(),
		Duration:    l.Duration.String(),
		Turns:       l.Turns,
		Stages:      make([]StageSpec, 0, len(l.Stages)),
		MaxInFlight: l.MaxInFlight,
	}
	if l.Rate.PerSecond > 0 || l.Rate.Text != "" {
		r.Rate, r.RatePerS = l.Rate.String(), l.Rate.PerSecond
	}
	for _, s := range l.Stages {
		r.Stages = append(r.Stages, StageSpec{
			Rate: s.Rate.String(), RatePerS: s.Rate.PerSecond, For: s.For.String(), Ramp: s.Ramp,
		})
	}
	return r
}

func resolveTurn(t workload.Turn) TurnSpec {
	r := TurnSpec{
		Attachments: t.Attachments.Fixed,
		Weighted:    make(map[int]int, len(t.Attachments.Weighted)),
		ReadTimeout: t.ReadTimeout.String(),
		Deadline:    t.Deadline.String(),
		MaxAnswer:   units.FormatSize(cmp.Or(t.MaxAnswer, workload.DefaultMaxAnswer)),
	}
	for n, w := range t.Attachments.Weighted {
		r.Weighted[n] = w
	}
	if len(r.Weighted) > 0 {
		r.Attachments = 0
	}
	return r
}

func resolveClass(c workload.Class) MixClass {
	m := MixClass{
		Class:    c.Name,
		Weight:   c.Weight,
		URI:      c.URI,
		URIs:     append([]string{}, c.URIs...),
		Template: c.Template,
		Vars:     make(map[string][]string, len(c.Vars)),
		MIME:     c.MIME,
		Entries:  c.Entries,
		Expect:   c.Expect,
	}
	for k, v := range c.Vars {
		m.Vars[k] = append([]string{}, v...)
	}
	m.Size = c.SizeText()
	if c.Delay != nil {
		m.Delay = c.Delay.String()
	}
	if c.Ranged != nil {
		m.RangedChunk = units.FormatSize(c.Ranged.Chunk)
	}
	return m
}
