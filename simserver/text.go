package simserver

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// textKind describes how to generate one family of text content of an exact
// byte size: prefix, then whole items (never cut, so no multi-byte rune is
// ever split), then mid, ASCII padding and end. Items carry quotes,
// backslashes, newlines, tabs and non-ASCII (é, 日本, emoji) so that every
// answer exercises the JSON escaping of the text field.
type textKind struct {
	name                  string
	prefix, sep, mid, end string
	pad                   byte
	items                 string // item templates separated by '\x1e'; '\x00' stands for the item number
	json                  bool   // the content must itself be valid JSON
}

// Item templates. Kept as constants (no package-level mutable state) and
// split when a text is generated.
const (
	markdownItems = "## Section \x00: Café \"quoted\" notes\n\n" +
		"Paragraph \x00 has a backslash \\ and a tab\there, then 日本語のテキスト and an emoji 🚀.\n\n" +
		"- first point, with *emphasis* and `code`\n- second point: naïve façade, Ωmega\n- third point 🎉\n\n" +
		"\x1e### Steps for item \x00\n\n1. Open `C:\\Users\\dev\\notes-\x00.md`\n2. Run the command below\n3. Check the \"result\" ✅\n\n" +
		"```sh\necho \"hello, world\" | tr -d '\\n'\n\tindent\\tkept\n```\n\n" +
		"\x1e> Quote \x00: «ceci n'est pas une pipe» — ünïcödé, 中文, Ελληνικά.\n\n" +
		"| key | value |\n|-----|-------|\n| id  | \x00 |\n| tab | a\tb |\n\n"
	jsonItems = `{"id":` + "\x00" + `,"title":"Café \"Ω\" №` + "\x00" + `","path":"C:\\data\\` + "\x00" + `.bin","note":"line one\nline two\ttabbed","tags":["日本","emoji 🎉","<b>&amp;</b>"],"ok":true,"ratio":0.25,"none":null}` +
		"\x1e" + `{"id":` + "\x00" + `,"name":"naïve façade","nested":{"quote":"\"","backslash":"\\","unicode":"\u00e9\u65e5","raw":"日本 🚀"},"list":[1,2.5,-3e2,false]}`
	xmlItems = "  <item id=\"\x00\">Café &amp; \"quotes\" 'apostrophes' \\ backslash, 日本, 🎉</item>\n" +
		"\x1e  <entry n=\"\x00\"><title>Ωmega &lt;tag&gt;</title><body>line one\nline two\ttab</body></entry>\n"
	yamlItems = "  - id: \x00\n    title: \"Café \\\"quoted\\\" 日本 🎉\"\n    path: 'C:\\data\\\x00'\n    note: \"tab\there\"\n" +
		"\x1e  - id: \x00\n    name: naïve façade — Ωmega\n    multi: |\n      line one \"quoted\"\n      line two with \\ backslash\n"
	csvItems  = "\x00,\"Café \"\"quoted\"\" 日本\",C:\\data\\\x00,\"tab\there 🎉\"\n\x1e\x00,naïve façade,\"line one\nline two\",Ωmega\n"
	htmlItems = "<p id=\"p\x00\">Café &amp; \"quotes\" \\ 日本 🎉<br>line\ttab</p>\n\x1e<ul><li>item \x00</li><li>naïve façade — Ωmega</li></ul>\n"
	textItems = "line \x00: Café \"quoted\" \\back\\slash\ttab 日本語 🎉\n\x1eline \x00: naïve façade — Ωmega, «guillemets», 中文\n"
)

// textKindOf returns how to generate content of a text type, or nil for a
// binary type.
func textKindOf(m string) *textKind {
	if !isText(m) {
		return nil
	}
	t := baseType(m)
	switch {
	case t == "application/json" || strings.HasSuffix(t, "+json"):
		return &textKind{name: "json", prefix: "{\"generator\":\"readbench \\\"sim\\\" café 🎉\",\"items\":[\n\t", sep: ",\n\t", mid: "\n],\"pad\":\"", end: "\"}\n", pad: ' ', items: jsonItems, json: true}
	case t == "text/markdown" || t == "text/x-markdown":
		return &textKind{name: "markdown", prefix: "# Simulated document\n\n> Deterministic text from the readbench simulated server: \"quoted\", back\\slash, tab\there, café 日本 🎉.\n\n", mid: "Padding: ", end: "\n", pad: '.', items: markdownItems}
	case t == "text/html":
		return &textKind{name: "html", prefix: "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>readbench</title></head><body>\n", mid: "<!--", end: "-->\n</body></html>\n", pad: ' ', items: htmlItems}
	case strings.HasSuffix(t, "xml"):
		return &textKind{name: "xml", prefix: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<doc generator=\"readbench\">\n", mid: "  <pad>", end: "</pad>\n</doc>\n", pad: ' ', items: xmlItems}
	case strings.HasSuffix(t, "yaml"):
		return &textKind{name: "yaml", prefix: "# readbench simulated YAML\nitems:\n", mid: "pad: \"", end: "\"\n", pad: '.', items: yamlItems}
	case t == "text/csv":
		return &textKind{name: "csv", prefix: "id,title,path,note\n", mid: "0,\"", end: "\",,\n", pad: ' ', items: csvItems}
	default:
		return &textKind{name: "plain", prefix: "readbench simulated text: \"quoted\", back\\slash, tab\there, café 日本 🎉\n\n", end: "\n", pad: '.', items: textItems}
	}
}

// textBlock is a kind's items, numbered 1..K and each followed by the
// separator, built once per generator: raw, and JSON-escaped (the inside of
// a JSON string). unit i is raw[bound[i]:bound[i+1]] and, escaped,
// esc[ebound[i]:ebound[i+1]]. A text is the prefix, then whole units taken
// cyclically from a seed-chosen unit (the last one's separator dropped),
// then mid, padding and end, so that the raw text and its escaped form are
// both copies of slices: texts of any size cost a copy, not a generation
// and an escaping, which keeps the server fast on workloads whose sizes
// are all different (a cache would never hit).
type textBlock struct {
	k             *textKind
	raw, esc      []byte
	bound, ebound []int
	escSep        int // length of the escaped separator
}

// textBlockSize is the raw size a kind's block grows to; longer texts wrap
// around (item numbers repeat).
const textBlockSize = 128 << 10

func newTextBlock(k *textKind) *textBlock {
	tb := &textBlock{k: k, bound: []int{0}, ebound: []int{0}}
	tb.escSep = len(appendEscaped(nil, k.sep))
	items := strings.Split(k.items, "\x1e")
	for n := 1; len(tb.raw) < textBlockSize; n++ {
		start := len(tb.raw)
		tb.raw = appendItem(tb.raw, items[n%len(items)], n)
		tb.raw = append(tb.raw, k.sep...)
		tb.esc = appendEscaped(tb.esc, tb.raw[start:])
		tb.bound = append(tb.bound, len(tb.raw))
		tb.ebound = append(tb.ebound, len(tb.esc))
	}
	return tb
}

// textBlock returns the block of a kind, building it on first use.
func (g *generator) textBlock(k *textKind) *textBlock {
	g.mu.Lock()
	defer g.mu.Unlock()
	tb := g.texts[k.name]
	if tb == nil {
		tb = newTextBlock(k)
		g.texts[k.name] = tb
	}
	return tb
}

// units returns the unit ranges [from, to) of a text of size bytes: whole
// units from a seed-chosen one, cyclically, as many as fit. ok is false
// when size is too small for the kind's frame (see small).
func (tb *textBlock) units(size int, seed uint64) (runs [][2]int, pad int, ok bool) {
	k := tb.k
	fixed := len(k.prefix) + len(k.mid) + len(k.end)
	if size < fixed {
		return nil, 0, false
	}
	K := len(tb.bound) - 1
	budget := size - fixed + len(k.sep) // the last unit's separator is dropped
	used := 0
	for pos := int(seed % uint64(K)); ; pos = 0 {
		if rest := tb.bound[K] - tb.bound[pos]; rest <= budget {
			runs = append(runs, [2]int{pos, K})
			budget -= rest
			used += rest
			continue
		}
		// the largest end with bound[end]-bound[pos] <= budget
		end := sort.Search(K+1-pos, func(i int) bool { return tb.bound[pos+i]-tb.bound[pos] > budget }) + pos - 1
		if end > pos {
			runs = append(runs, [2]int{pos, end})
			used += tb.bound[end] - tb.bound[pos]
		}
		break
	}
	if len(runs) > 0 {
		used -= len(k.sep)
	}
	return runs, size - fixed - used, true
}

// appendRaw appends exactly size bytes of valid UTF-8 text.
func (tb *textBlock) appendRaw(dst []byte, size int, seed uint64) []byte {
	runs, pad, ok := tb.units(size, seed)
	if !ok {
		return tb.k.small(dst, size)
	}
	dst = append(dst, tb.k.prefix...)
	for i, r := range runs {
		to := tb.bound[r[1]]
		if i == len(runs)-1 {
			to -= len(tb.k.sep)
		}
		dst = append(dst, tb.raw[tb.bound[r[0]]:to]...)
	}
	return tb.k.frameEnd(dst, pad)
}

// appendJSON appends the same text as a JSON string, quotes included.
func (tb *textBlock) appendJSON(dst []byte, size int, seed uint64) []byte {
	runs, pad, ok := tb.units(size, seed)
	if !ok {
		return appendJSONString(dst, tb.k.small(nil, size))
	}
	dst = append(dst, '"')
	dst = appendEscaped(dst, tb.k.prefix)
	for i, r := range runs {
		to := tb.ebound[r[1]]
		if i == len(runs)-1 {
			to -= tb.escSep
		}
		dst = append(dst, tb.esc[tb.ebound[r[0]]:to]...)
	}
	dst = appendEscaped(dst, tb.k.frameEnd(nil, pad))
	return append(dst, '"')
}

// frameEnd appends mid, pad bytes of padding and end.
func (k *textKind) frameEnd(dst []byte, pad int) []byte {
	dst = append(dst, k.mid...)
	for range pad {
		dst = append(dst, k.pad)
	}
	return append(dst, k.end...)
}

// appendItem appends an item template with its number in place of '\x00'.
func appendItem(dst []byte, tmpl string, n int) []byte {
	for {
		before, after, found := strings.Cut(tmpl, "\x00")
		dst = append(dst, before...)
		if !found {
			return dst
		}
		dst = strconv.AppendInt(dst, int64(n), 10)
		tmpl = after
	}
}

// sample is the text of sizes too small for a kind's frame: escapes and
// non-ASCII first, so even tiny texts exercise escaping.
const sample = "\"Café\"\t\\日本🎉\n"

// small fills sizes below the kind's frame. JSON stays valid JSON where it
// can: a number for one byte, a string for two or more. Zero bytes cannot be
// a JSON document; that case returns the empty text (best effort).
func (k *textKind) small(dst []byte, size int) []byte {
	if k.json {
		switch {
		case size == 0:
			return dst
		case size == 1:
			return append(dst, '0')
		default:
			dst = append(dst, '"')
			body := size - 2
			// `\"` and `\\` are two bytes of JSON each; non-ASCII is raw UTF-8.
			for _, piece := range []string{`\"`, `é`, `\\`, `\n`, `日`} {
				if len(piece) <= body {
					dst = append(dst, piece...)
					body -= len(piece)
				}
			}
			for ; body > 0; body-- {
				dst = append(dst, ' ')
			}
			return append(dst, '"')
		}
	}
	s := sample
	for len(s) > size {
		_, n := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-n]
	}
	dst = append(dst, s...)
	for i := len(s); i < size; i++ {
		dst = append(dst, k.pad)
	}
	return dst
}
