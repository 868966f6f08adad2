package workload

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
)

// The saved form: a resolved workload marshals to JSON as a result keeps
// it (the "workload" key of readbench/result/v1, docs/results.md, key by
// key) and unmarshals from it (savedread.go), so that `readbench run
// --like RESULT` runs it again. Every value is written as its text
// ("50/s", "800ms", "lognormal(12ms,40ms)"), rates also as their number
// per second for scripts, the defaults the run had written out, every key
// always present (an empty list or map, never null) in the order
// docs/results.md lists it.
//
// Not saved, on purpose: Description (a line for `readbench scenarios`),
// InsecureCredentials (said on the command line each time), where the keys
// were written, and every secret: a header's value and the OAuth client
// secret become Redacted, a token parameter whose name looks secret too,
// and a target's password (in a URL, or a secret-named NAME=value word of
// a stdio command) is masked. A workload read back has the placeholders,
// and Validate refuses it until the secrets are given again (unsaved.go).
// json_test.go fails when a field is added to a type without its key.

// Redacted replaces every secret in a saved workload: a header's value
// (the names show which headers were sent) and the OAuth client secret.
// A workload read back from a result carries it where the secret was, and
// refuses to run until the secret is given again.
const Redacted = "<redacted>"

// MarshalJSON writes w in its saved form, without its secrets.
func (w Workload) MarshalJSON() ([]byte, error) {
	thresholds := make(map[string]string, len(w.Thresholds))
	for _, t := range w.Thresholds {
		thresholds[t.Metric] = t.Bound // as written
	}
	headers := make(map[string]string, len(w.Headers))
	for k := range w.Headers {
		headers[k] = Redacted
	}
	var o object
	o.put("name", w.Name)
	o.put("source", w.Source)
	o.put("target", targets.RedactSecrets(w.Target.String()))
	o.put("protocol", w.Protocol)
	o.put("sessions", w.Sessions)
	o.put("seed", w.Seed)
	o.put("load", w.Load)
	o.put("turn", w.Turn)
	o.put("mix", orEmpty(w.Mix))
	o.put("thresholds", thresholds)
	o.put("allow_hosts", orEmpty(w.AllowHosts))
	o.put("headers", headers)
	if w.Auth != nil && w.Auth.OAuth != nil {
		o.put("auth", *w.Auth)
	}
	if w.Listen != nil {
		o.put("listen", *w.Listen)
	}
	if w.Changes != nil {
		o.put("changes", *w.Changes)
	}
	if !w.HTTP.IsZero() {
		o.put("http", w.HTTP)
	}
	return o.close()
}

// MarshalJSON writes the load block: each rate as its text ("" unset)
// and its number per second, durations as text, keep_alive and
// trace_sample as the run had them.
func (l Load) MarshalJSON() ([]byte, error) {
	var o object
	o.put("model", l.Model)
	o.putRate("rate", l.Rate)
	o.put("concurrency", l.Concurrency)
	o.put("arrival", l.Arrival)
	o.put("warmup", units.Duration(l.Warmup))
	o.put("duration", units.Duration(l.Duration))
	o.put("turns", l.Turns)
	o.put("stages", orEmpty(l.Stages))
	o.put("max_in_flight", l.MaxInFlight)
	o.put("handshake_timeout", units.Duration(l.HandshakeTimeout))
	o.putRate("connect_rate", l.ConnectRate)
	o.put("min_sessions", l.MinSessions)
	o.put("session_turns", l.SessionTurns)
	o.put("session_lifetime", units.Duration(l.SessionLifetime))
	o.put("keep_alive", !l.NoKeepAlive)
	o.put("trace_sample", l.TraceShare())
	return o.close()
}

// MarshalJSON writes one stage of the rate profile.
func (s Stage) MarshalJSON() ([]byte, error) {
	var o object
	o.putRate("rate", s.Rate)
	o.put("for", units.Duration(s.For))
	o.put("ramp", s.Ramp)
	return o.close()
}

// MarshalJSON writes the turn block: attachments is the fixed count, 0
// when the count is drawn from attachments_weighted (count -> weight);
// max_answer is written out when it was the default.
func (t Turn) MarshalJSON() ([]byte, error) {
	fixed := t.Attachments.Fixed
	if len(t.Attachments.Weighted) > 0 {
		fixed = 0
	}
	var o object
	o.put("attachments", fixed)
	o.put("attachments_weighted", orEmptyMap(t.Attachments.Weighted))
	o.put("read_timeout", units.Duration(t.ReadTimeout))
	o.put("deadline", units.Duration(t.Deadline))
	o.put("max_answer", units.FormatSize(cmp.Or(t.MaxAnswer, targets.DefaultMaxAnswer)))
	return o.close()
}

// MarshalJSON writes one class of the mix: sizes and delays in their
// canonical text, "" when unset; ranged_chunk is "" unless the class is
// fetched with the ranged read.
func (c Class) MarshalJSON() ([]byte, error) {
	delay, chunk := "", ""
	if c.Delay != nil {
		delay = c.Delay.String()
	}
	if c.Ranged != nil {
		chunk = units.FormatSize(c.Ranged.Chunk)
	}
	var o object
	o.put("class", c.Name)
	o.put("weight", c.Weight)
	o.put("uri", c.URI)
	o.put("uris", orEmpty(c.URIs))
	o.put("template", c.Template)
	o.put("vars", orEmptyMap(c.Vars))
	o.put("mime", c.MIME)
	o.put("size", c.SizeText())
	o.put("delay", delay)
	o.put("entries", c.Entries)
	o.put("expect", c.Expect)
	o.put("ranged_chunk", chunk)
	return o.close()
}

// MarshalJSON writes the auth block: its OAuth client without secrets.
func (a Auth) MarshalJSON() ([]byte, error) {
	var o object
	o.put("oauth", a.OAuth)
	return o.close()
}

// MarshalJSON writes an OAuth client without its secret: client_secret
// is Redacted when one was given, private_key the file's name, the grant
// written out when it was the default, and a token parameter whose name
// looks secret (targets.SecretName) Redacted.
func (o OAuth) MarshalJSON() ([]byte, error) {
	var ob object
	ob.put("grant", cmp.Or(o.Grant, OAuthGrants[0]))
	ob.put("client_id", o.ClientID)
	if o.ClientSecret != "" {
		ob.put("client_secret", Redacted)
	}
	ob.putNonEmpty("scope", o.Scope)
	ob.putNonEmpty("private_key", o.PrivateKey)
	ob.putNonEmpty("token_endpoint_auth", o.TokenEndpointAuth)
	if len(o.TokenParams) > 0 {
		params := make(map[string][]string, len(o.TokenParams))
		for k, vs := range o.TokenParams {
			if targets.SecretName(k) {
				vs = []string{Redacted}
			}
			params[k] = slices.Clone(vs)
		}
		ob.put("token_params", params)
	}
	return ob.close()
}

// object writes one JSON object of the saved form, its keys in the order
// they are put. Values are written without HTML escaping: the encoder of
// the whole document escapes as it was asked to.
type object struct {
	buf bytes.Buffer
	err error
}

// put writes the key and its value.
func (o *object) put(key string, v any) {
	if o.err != nil {
		return
	}
	if o.buf.Len() == 0 {
		o.buf.WriteByte('{')
	} else {
		o.buf.WriteByte(',')
	}
	enc := json.NewEncoder(&o.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(key); err != nil {
		o.err = err
		return
	}
	o.buf.Truncate(o.buf.Len() - 1) // Encode's newline
	o.buf.WriteByte(':')
	if err := enc.Encode(v); err != nil {
		o.err = fmt.Errorf("workload: %s: %w", key, err)
		return
	}
	o.buf.Truncate(o.buf.Len() - 1)
}

// putNonEmpty writes a text that is not "" (an omitted optional key).
func (o *object) putNonEmpty(key, v string) {
	if v != "" {
		o.put(key, v)
	}
}

// putRate writes a rate as its text and, under key_per_s, its number per
// second: "" and 0 when unset.
func (o *object) putRate(key string, r units.Rate) {
	text, perS := "", 0.0
	if r.PerSecond > 0 || r.Text != "" {
		text, perS = r.String(), r.PerSecond
	}
	o.put(key, text)
	o.put(key+"_per_s", perS)
}

// close ends the object.
func (o *object) close() ([]byte, error) {
	if o.err != nil {
		return nil, o.err
	}
	if o.buf.Len() == 0 {
		return []byte("{}"), nil
	}
	o.buf.WriteByte('}')
	return o.buf.Bytes(), nil
}

// orEmpty is s, or an empty list when s is nil: a saved list is [],
// never null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// orEmptyMap is m, or an empty map when m is nil: a saved map is {},
// never null.
func orEmptyMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return map[K]V{}
	}
	return m
}
