package workload

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/saved"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
)

// The resolved workload and its saved form (package saved, the "workload"
// key of a result): Saved writes w as a result records it, FromSaved reads
// a saved workload back into the Workload that ran, for `readbench run
// --like RESULT`. They live here, beside the types they convert, so that a
// field added to the workload is added to its saved form in the same
// place; saved_test.go fails when one is not (it fills every field and
// requires the round trip to give the same Workload back).
//
// Not saved, on purpose: Description (a line for `readbench scenarios`),
// InsecureCredentials (said on the command line each time), where the keys
// were written, and every secret (header values, the OAuth client secret,
// a URL's password), which come back as saved.Redacted and must be given
// again before the workload runs (checkUnsaved).

// Saved is w as a result document records it: every value as its text,
// the defaults it ran with written out, and its secrets removed (a target
// URL's password masked, header values and the client secret replaced by
// saved.Redacted).
func (w *Workload) Saved() saved.Workload {
	r := saved.Workload{
		Name: w.Name, Source: w.Source, Target: targets.RedactSecrets(w.Target.String()),
		Protocol: w.Protocol, Sessions: w.Sessions, Seed: w.Seed,
		Load: w.Load.saved(), Turn: w.Turn.saved(),
		Mix:        make([]saved.Class, 0, len(w.Mix)),
		Thresholds: make(map[string]string, len(w.Thresholds)),
		AllowHosts: append([]string{}, w.AllowHosts...),
		Headers:    make(map[string]string, len(w.Headers)),
	}
	for _, t := range w.Thresholds {
		r.Thresholds[t.Metric] = t.Bound // as written
	}
	for k := range w.Headers {
		r.Headers[k] = saved.Redacted
	}
	for _, c := range w.Mix {
		r.Mix = append(r.Mix, c.saved())
	}
	if w.Auth != nil && w.Auth.OAuth != nil {
		o := w.Auth.OAuth
		r.Auth = &saved.Auth{OAuth: saved.OAuth{Grant: cmp.Or(o.Grant, OAuthGrants[0]), ClientID: o.ClientID,
			Scope: o.Scope, PrivateKey: o.PrivateKey, TokenEndpointAuth: o.TokenEndpointAuth, TokenParams: savedParams(o.TokenParams)}}
		if o.ClientSecret != "" {
			r.Auth.OAuth.ClientSecret = saved.Redacted
		}
	}
	return r
}

func (l Load) saved() saved.Load {
	r := saved.Load{
		Model: l.Model, Concurrency: l.Concurrency, Arrival: l.Arrival,
		Warmup: l.Warmup.String(), Duration: l.Duration.String(), Turns: l.Turns,
		Stages:           make([]saved.Stage, 0, len(l.Stages)),
		MaxInFlight:      l.MaxInFlight,
		HandshakeTimeout: l.HandshakeTimeout.String(),
		MinSessions:      l.MinSessions,
		SessionTurns:     l.SessionTurns, SessionLifetime: l.SessionLifetime.String(),
		KeepAlive:   new(!l.NoKeepAlive),
		TraceSample: new(l.TraceShare()),
	}
	r.Rate, r.RatePerS = rateText(l.Rate)
	r.ConnectRate, r.ConnectRatePerS = rateText(l.ConnectRate)
	for _, s := range l.Stages {
		st := saved.Stage{For: s.For.String(), Ramp: s.Ramp}
		st.Rate, st.RatePerS = rateText(s.Rate)
		r.Stages = append(r.Stages, st)
	}
	return r
}

// rateText is a rate as saved: its text and per-second value, "" and 0
// when unset.
func rateText(r units.Rate) (string, float64) {
	if r.PerSecond > 0 || r.Text != "" {
		return r.String(), r.PerSecond
	}
	return "", 0
}

func (t Turn) saved() saved.Turn {
	r := saved.Turn{
		Attachments: t.Attachments.Fixed,
		Weighted:    maps.Clone(t.Attachments.Weighted),
		ReadTimeout: t.ReadTimeout.String(),
		Deadline:    t.Deadline.String(),
		MaxAnswer:   units.FormatSize(cmp.Or(t.MaxAnswer, targets.DefaultMaxAnswer)),
	}
	if r.Weighted == nil {
		r.Weighted = map[int]int{}
	}
	if len(r.Weighted) > 0 {
		r.Attachments = 0
	}
	return r
}

func (c Class) saved() saved.Class {
	m := saved.Class{
		Class: c.Name, Weight: c.Weight, URI: c.URI, URIs: append([]string{}, c.URIs...),
		Template: c.Template, Vars: make(map[string][]string, len(c.Vars)), MIME: c.MIME,
		Size: c.SizeText(), Entries: c.Entries, Expect: c.Expect,
	}
	for k, v := range c.Vars {
		m.Vars[k] = append([]string{}, v...)
	}
	if c.Delay != nil {
		m.Delay = c.Delay.String()
	}
	if c.Ranged != nil {
		m.RangedChunk = units.FormatSize(c.Ranged.Chunk)
	}
	return m
}

// FromSaved is the workload a result saved, as it ran: the inverse of
// Saved, so that `readbench run --like RESULT` runs it again. Secrets come
// back as saved.Redacted, which Validate refuses until a flag gives them
// again; a key of a result written before it existed reads as the
// default it stood for. The result is not validated: the command line's
// overrides come first. Every value that does not parse is reported, each
// with its key path under "workload.".
func FromSaved(s saved.Workload) (*Workload, error) {
	var errs []error
	bad := func(key string, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("workload.%s: %w", key, err))
		}
	}
	w := &Workload{
		Name: s.Name, Source: s.Source, Protocol: s.Protocol, Sessions: s.Sessions, Seed: s.Seed,
	}
	if len(s.AllowHosts) > 0 {
		w.AllowHosts = slices.Clone(s.AllowHosts)
	}
	var err error
	w.Target, err = targets.Parse(s.Target)
	bad("target", err)
	w.Load = loadFromSaved(s.Load, bad)
	w.Turn = turnFromSaved(s.Turn, bad)
	for i, c := range s.Mix {
		w.Mix = append(w.Mix, classFromSaved(c, func(key string, err error) { bad(fmt.Sprintf("mix[%d].%s", i, key), err) }))
	}
	if len(s.Headers) > 0 {
		w.Headers = maps.Clone(s.Headers)
		for k := range w.Headers {
			w.Headers[k] = saved.Redacted // a value is never saved, whatever a hand-edited file says
		}
	}
	for _, metric := range slices.Sorted(maps.Keys(s.Thresholds)) {
		parsed, err := bounds.ParseThresholdPair(metric, s.Thresholds[metric])
		bad("thresholds."+metric, err)
		w.Thresholds = append(w.Thresholds, Threshold{Metric: metric, Bound: s.Thresholds[metric], Parsed: parsed})
	}
	if s.Auth != nil {
		o := s.Auth.OAuth
		w.Auth = &Auth{OAuth: &OAuth{Grant: o.Grant, ClientID: o.ClientID, Scope: o.Scope,
			PrivateKey: o.PrivateKey, TokenEndpointAuth: o.TokenEndpointAuth, TokenParams: maps.Clone(o.TokenParams)}}
		if o.ClientSecret != "" {
			w.Auth.OAuth.ClientSecret = saved.Redacted
		}
	}
	return w, errors.Join(errs...)
}

func loadFromSaved(s saved.Load, bad func(string, error)) Load {
	l := Load{
		Model: s.Model, Concurrency: s.Concurrency, Arrival: s.Arrival, Turns: s.Turns,
		MaxInFlight: s.MaxInFlight, MinSessions: s.MinSessions, SessionTurns: s.SessionTurns,
		NoKeepAlive: s.KeepAlive != nil && !*s.KeepAlive,
	}
	switch ts := s.TraceSample; {
	case ts == nil || *ts == 1: // the default: nil, as a parsed file without the key has it
	case *ts < 0 || *ts > 1:
		bad("load.trace_sample", fmt.Errorf("%v is not a share from 0 to 1", *ts))
	default:
		l.TraceSample = new(*ts)
	}
	l.Rate = rateFromSaved("load.rate", s.Rate, bad)
	l.ConnectRate = rateFromSaved("load.connect_rate", s.ConnectRate, bad)
	l.Warmup = durationFromSaved("load.warmup", s.Warmup, bad)
	l.Duration = durationFromSaved("load.duration", s.Duration, bad)
	l.HandshakeTimeout = durationFromSaved("load.handshake_timeout", s.HandshakeTimeout, bad)
	l.SessionLifetime = durationFromSaved("load.session_lifetime", s.SessionLifetime, bad)
	for i, st := range s.Stages {
		key := fmt.Sprintf("load.stages[%d].", i)
		l.Stages = append(l.Stages, Stage{Rate: rateFromSaved(key+"rate", st.Rate, bad),
			For: durationFromSaved(key+"for", st.For, bad), Ramp: st.Ramp})
	}
	return l
}

func turnFromSaved(s saved.Turn, bad func(string, error)) Turn {
	t := Turn{
		Attachments: Attachments{Fixed: s.Attachments},
		ReadTimeout: durationFromSaved("turn.read_timeout", s.ReadTimeout, bad),
		Deadline:    durationFromSaved("turn.deadline", s.Deadline, bad),
	}
	if len(s.Weighted) > 0 {
		t.Attachments = Attachments{Weighted: maps.Clone(s.Weighted)}
	}
	if s.MaxAnswer != "" {
		n, err := units.ParseSize(s.MaxAnswer)
		bad("turn.max_answer", err)
		if n != targets.DefaultMaxAnswer {
			t.MaxAnswer = n // the default is saved written out and restored as unset
		}
	}
	return t
}

func classFromSaved(s saved.Class, bad func(string, error)) Class {
	c := Class{
		Name: s.Class, Weight: s.Weight, URI: s.URI, Template: s.Template, MIME: s.MIME,
		Entries: s.Entries, Expect: s.Expect,
	}
	if len(s.URIs) > 0 {
		c.URIs = slices.Clone(s.URIs)
	}
	if len(s.Vars) > 0 {
		c.Vars = make(map[string][]string, len(s.Vars))
		for k, v := range s.Vars {
			c.Vars[k] = slices.Clone(v)
		}
	}
	switch {
	case s.Size == "":
	case isSizeRange(s.Size):
		r, err := ParseSizeRange(s.Size)
		bad("size", err)
		c.SizeRange = &r
	default:
		d, err := units.ParseSizeDist(s.Size)
		bad("size", err)
		c.Size = &d
	}
	if s.Delay != "" {
		d, err := units.ParseDurationDist(s.Delay)
		bad("delay", err)
		c.Delay = &d
	}
	if s.RangedChunk != "" {
		n, err := units.ParseSize(s.RangedChunk)
		bad("ranged_chunk", err)
		c.Ranged = &Ranged{Chunk: n}
	}
	return c
}

// rateFromSaved reads a saved rate; "" is unset.
func rateFromSaved(key, s string, bad func(string, error)) units.Rate {
	if s == "" {
		return units.Rate{}
	}
	r, err := units.ParseRate(s)
	bad(key, err)
	return r
}

// durationFromSaved reads a saved Go duration; "" (a key older than the
// result) is 0.
func durationFromSaved(key, s string, bad func(string, error)) time.Duration {
	if s == "" {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err == nil && d < 0 {
		err = fmt.Errorf("%q: must not be negative", s)
	}
	bad(key, err)
	return d
}

// checkUnsaved refuses the secrets a saved workload could not keep: a
// header value or client secret that is still saved.Redacted, a target
// URL whose password is still the mask. A workload read back from a
// result (FromSaved) has them until the command line gives them again;
// run with them, it would send the placeholder as the secret.
func (w *Workload) checkUnsaved(add func(*Error)) {
	for _, name := range slices.Sorted(maps.Keys(w.Headers)) {
		if w.Headers[name] == saved.Redacted {
			add(errorf("headers."+name, "the value is %s, the placeholder a result saves instead of a header's value: give the value again with --header '%s: …'", saved.Redacted, name))
		}
	}
	if u, err := url.Parse(w.Target.Address); err == nil && u.User != nil {
		if p, ok := u.User.Password(); ok && p == maskedPassword {
			add(errorf("target", "the URL's password is masked (%s), as a result saves it: give the target again with --target", maskedPassword))
		}
	}
	for _, a := range w.Target.Argv {
		if name, value, ok := strings.Cut(strings.TrimLeft(a, "-"), "="); ok && value == maskedPassword && targets.SecretName(name) {
			add(errorf("target", "the argument %s is masked, as a result saves it: give the target again with --target, or export %s in the environment readbench runs in (a stdio server inherits it) and leave it off the command line", a, name))
		}
	}
}

// savedParams is the token parameters as a result saves them: as
// written, with the value of any whose name looks secret Redacted.
func savedParams(p map[string][]string) map[string][]string {
	if len(p) == 0 {
		return nil
	}
	out := make(map[string][]string, len(p))
	for k, vs := range p {
		if targets.SecretName(k) {
			vs = []string{saved.Redacted}
		}
		out[k] = slices.Clone(vs)
	}
	return out
}

// maskedPassword is what targets.RedactSecrets puts in place of a URL's
// password.
const maskedPassword = targets.Masked

// Unsaved reports the OAuth client secret a workload read back from a
// result does not have (saved.Redacted in its place), naming the flag
// that gives it; nil when the secret is a real one. The command line
// checks it after its --oauth-* flags, which may give the secret again.
func (o OAuth) Unsaved() error {
	if o.ClientSecret == saved.Redacted {
		return errors.New("auth.oauth.client_secret: a result does not save the client secret: give it again with --oauth-client-secret")
	}
	for _, k := range slices.Sorted(maps.Keys(o.TokenParams)) {
		if slices.Contains(o.TokenParams[k], saved.Redacted) {
			return fmt.Errorf("auth.oauth.token_params.%s: a result does not save a secret token parameter: give it again with --oauth-param '%s=…'", k, k)
		}
	}
	return nil
}
