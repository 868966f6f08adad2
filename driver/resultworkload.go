package driver

import (
	"cmp"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
)

// resultWorkload is w as a result document records it: every value as
// its text, the defaults it ran with written out, and its secrets removed
// (a target URL's password masked, header values replaced by
// results.Redacted). It lives here, beside the workload and the result,
// because results knows nothing of the workload file format.
func resultWorkload(w *workload.Workload) results.Workload {
	r := results.Workload{
		Name:       w.Name,
		Source:     w.Source,
		Target:     targets.RedactURLs(w.Target.String()),
		Protocol:   w.Protocol,
		Sessions:   w.Sessions,
		Seed:       w.Seed,
		Load:       resolveLoad(w.Load),
		Turn:       resolveTurn(w.Turn),
		Mix:        make([]results.MixClass, 0, len(w.Mix)),
		Thresholds: make(map[string]string, len(w.Thresholds)),
		AllowHosts: append([]string{}, w.AllowHosts...),
		Headers:    make(map[string]string, len(w.Headers)),
	}
	for _, t := range w.Thresholds {
		r.Thresholds[t.Metric] = t.Bound // as written
	}
	for k := range w.Headers {
		r.Headers[k] = results.Redacted
	}
	for _, c := range w.Mix {
		r.Mix = append(r.Mix, resolveClass(c))
	}
	if w.Auth != nil && w.Auth.OAuth != nil {
		o := w.Auth.OAuth
		r.Auth = &results.AuthSpec{OAuth: results.OAuthSpec{Grant: cmp.Or(o.Grant, "client_credentials"), ClientID: o.ClientID,
			Scope: o.Scope, PrivateKey: o.PrivateKey, TokenEndpointAuth: o.TokenEndpointAuth}}
		if o.ClientSecret != "" {
			r.Auth.OAuth.ClientSecret = results.Redacted
		}
	}
	return r
}

func resolveLoad(l workload.Load) results.LoadSpec {
	r := results.LoadSpec{
		Model:        l.Model,
		Concurrency:  l.Concurrency,
		Arrival:      l.Arrival,
		Warmup:       l.Warmup.String(),
		Duration:     l.Duration.String(),
		Turns:        l.Turns,
		Stages:       make([]results.StageSpec, 0, len(l.Stages)),
		MaxInFlight:  l.MaxInFlight,
		SessionTurns: l.SessionTurns, SessionLifetime: l.SessionLifetime.String(),
		KeepAlive: new(!l.NoKeepAlive),
	}
	if l.Rate.PerSecond > 0 || l.Rate.Text != "" {
		r.Rate, r.RatePerS = l.Rate.String(), l.Rate.PerSecond
	}
	for _, s := range l.Stages {
		r.Stages = append(r.Stages, results.StageSpec{
			Rate: s.Rate.String(), RatePerS: s.Rate.PerSecond, For: s.For.String(), Ramp: s.Ramp,
		})
	}
	return r
}

func resolveTurn(t workload.Turn) results.TurnSpec {
	r := results.TurnSpec{
		Attachments: t.Attachments.Fixed,
		Weighted:    make(map[int]int, len(t.Attachments.Weighted)),
		ReadTimeout: t.ReadTimeout.String(),
		Deadline:    t.Deadline.String(),
		MaxAnswer:   units.FormatSize(cmp.Or(t.MaxAnswer, targets.DefaultMaxAnswer)),
	}
	for n, w := range t.Attachments.Weighted {
		r.Weighted[n] = w
	}
	if len(r.Weighted) > 0 {
		r.Attachments = 0
	}
	return r
}

func resolveClass(c workload.Class) results.MixClass {
	m := results.MixClass{
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
