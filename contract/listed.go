package contract

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// The rows that read what was listed (docs/check.md): a listed size
// against the bytes a read decoded and one instance of each listed
// template (the not-found probes of the server's own shapes are in
// notfound.go). A listing is what a host plans from (init sizes a class
// from it); each row says what it read.

// listedSize is a listing's size: a whole number of bytes, or -1 when
// absent or not one (a listing's odd size is no read's fault).
func listedSize(raw json.RawMessage) int64 {
	var f float64
	if len(raw) == 0 || string(raw) == "null" || json.Unmarshal(raw, &f) != nil || f < 0 || f != math.Trunc(f) || f > math.MaxInt64/2 {
		return -1
	}
	return int64(f)
}

// judgeListedSize compares a listed size with the decoded bytes a read of
// the resource answered: MCP's size is the raw content's, before base64.
func judgeListedSize(listed, read int64, entries int) (results.CheckStatus, string) {
	what := fmt.Sprintf("%d %s", entries, plural(entries, "entry", "entries"))
	if listed == read {
		return results.CheckPass, fmt.Sprintf("listed size %d, read %d decoded bytes (%s)", listed, read, what)
	}
	return results.CheckFail, fmt.Sprintf("listed size %d, read %d decoded bytes (%s): a host that plans from the listing (readbench init sizes a class from it) is %s by %d bytes",
		listed, read, what, map[bool]string{true: "under", false: "over"}[listed < read], absDiff(listed, read))
}

func absDiff(a, b int64) int64 {
	if a < b {
		return b - a
	}
	return a - b
}

// maxTemplates bounds the template rows: one read per listed template.
const maxTemplates = 20

// contractTemplate is one entry of resources/templates/list.
type contractTemplate struct {
	URITemplate string `json:"uriTemplate"`
}

// templateValue is a value for one variable and where it came from.
type templateValue struct{ value, from string }

// templateReads reads one instance of each listed template, and keeps
// the list for the not-found rows (checker.templates).
func (c *checker) templateReads(ctx context.Context) {
	const row = "template read"
	var listed []string
	_, err := c.s.Paginate(ctx, protocol.MethodResourceTemplates, maxListPages, c.o.Timeout, func(raw json.RawMessage) (string, error) {
		var res struct {
			ResourceTemplates []contractTemplate `json:"resourceTemplates"`
			NextCursor        string             `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return "", err
		}
		for _, t := range res.ResourceTemplates {
			if t.URITemplate != "" && !slices.Contains(listed, t.URITemplate) {
				listed = append(listed, t.URITemplate)
			}
		}
		return res.NextCursor, nil
	})
	c.templates = listed
	switch {
	case isMethodNotFound(err):
		c.rep.add(row, results.CheckNA, "", "the server does not implement resources/templates/list (-32601): it lists no templates")
		return
	case err != nil && len(listed) == 0:
		c.rep.add(row, results.CheckSkip, "", "could not list templates: "+err.Error())
		return
	case len(listed) == 0:
		c.rep.add(row, results.CheckNA, "", "the server lists no templates")
		return
	}
	for _, t := range listed[:min(len(listed), maxTemplates)] {
		if ctx.Err() != nil {
			return
		}
		c.templateRead(ctx, t)
	}
}

// templateRead finds an instance of tmpl and reads it.
func (c *checker) templateRead(ctx context.Context, tmpl string) {
	const row = "template read"
	uri, from, why := c.templateInstance(ctx, tmpl)
	if uri == "" {
		c.rep.add(row, results.CheckSkip, tmpl, why)
		return
	}
	rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	a, err := c.s.ReadDocument(rctx, uri, client.ReadSpec{})
	cancel()
	st, got := judgeTemplateRead(a, err)
	c.rep.add(row, st, tmpl, fmt.Sprintf("read %s (%s): %s", uri, from, got))
}

// judgeTemplateRead judges the read of a template's instance: a listed
// template promises its instances can be read.
func judgeTemplateRead(a *client.Answer, err error) (results.CheckStatus, string) {
	switch {
	case err != nil:
		return results.CheckFail, err.Error()
	case !a.Answered:
		return results.CheckFail, a.Detail
	}
	switch a.Outcome {
	case stats.OK:
		return results.CheckPass, fmt.Sprintf("%d %s, %d bytes", a.Entries, plural(a.Entries, "entry", "entries"), a.DiskBytes)
	case stats.InputRequired:
		return results.CheckSkip, "answered input_required: it wants input readbench cannot give"
	case stats.Protocol:
		return results.CheckFail, "unusable answer: " + a.Reason
	}
	return results.CheckFail, describeAnswer(a) + ": the instance of a listed template could not be read"
}

// templateInstance picks a URI of tmpl: a value the user gave for each
// variable (--template-value), else a listed resource that is an instance,
// else a completion of each variable; "" with why when none is found.
func (c *checker) templateInstance(ctx context.Context, tmpl string) (uri, from, why string) {
	names, err := workload.TemplateNames(tmpl)
	if err != nil {
		return "", "", "cannot expand the template: " + err.Error()
	}
	if len(names) == 0 {
		return tmpl, "the template has no variable", ""
	}
	given := map[string]templateValue{}
	for _, n := range names {
		if v, ok := c.o.TemplateValues[n]; ok {
			given[n] = templateValue{v, "--template-value"}
		} else if v, ok := simTemplateDefaults()[n]; ok && c.sim {
			given[n] = templateValue{v, "the check's sim: default"}
		}
	}
	if len(given) < len(names) {
		for _, r := range c.listed {
			if workload.MatchesTemplate(tmpl, r.URI) {
				return r.URI, "a listed resource of the template", ""
			}
		}
	}
	var lacking []string
	for _, n := range names {
		if _, ok := given[n]; ok {
			continue
		}
		if v := c.complete(ctx, tmpl, n, given); v != "" {
			given[n] = templateValue{v, "completion/complete"}
			continue
		}
		lacking = append(lacking, n)
	}
	if len(lacking) > 0 {
		how := "the server declares no completions"
		if c.s.Capabilities().Completions || !c.s.Capabilities().Known {
			how = "completion/complete offered none"
		}
		return "", "", fmt.Sprintf("no value for {%s}: no listed resource is an instance and %s; give --template-value %s=VALUE",
			strings.Join(lacking, "}, {"), how, lacking[0])
	}
	vals := map[string]string{}
	var froms []string
	for _, n := range names {
		vals[n] = given[n].value
		froms = append(froms, fmt.Sprintf("%s=%q from %s", n, given[n].value, given[n].from))
	}
	uri, err = workload.ExpandTemplate(tmpl, vals)
	if err != nil {
		return "", "", err.Error()
	}
	return uri, strings.Join(froms, ", "), ""
}

// simTemplateDefaults are values for the simulated server's templates
// (any sim: URI is served): a small text document read at once.
func simTemplateDefaults() map[string]string {
	return map[string]string{"name": "readbench-check-template.txt", "mime": "text/plain", "size": "64", "delay": "1ms"}
}

// complete asks completion/complete for a value of one variable, the
// values already chosen as its context; "" when the server offers none.
func (c *checker) complete(ctx context.Context, tmpl, name string, chosen map[string]templateValue) string {
	if caps := c.s.Capabilities(); caps.Known && !caps.Completions {
		return ""
	}
	params := map[string]any{
		"ref":      map[string]string{"type": "ref/resource", "uri": tmpl},
		"argument": map[string]string{"name": name, "value": ""},
	}
	if len(chosen) > 0 {
		args := map[string]string{}
		for n, v := range chosen {
			args[n] = v.value
		}
		params["context"] = map[string]any{"arguments": args}
	}
	var res struct {
		Completion struct {
			Values []string `json:"values"`
		} `json:"completion"`
	}
	rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	if err := c.s.Call(rctx, "completion/complete", params, &res); err != nil {
		return ""
	}
	for _, v := range res.Completion.Values {
		if v != "" {
			return v
		}
	}
	return ""
}
