package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON writes r to w as Marshal encodes it, byte for byte, without
// holding the document whole: the two values that grow with a run (the
// timeline and the classes) are encoded entry by entry, the rest at
// once. Marshal holds the encoded document twice over (json.MarshalIndent
// encodes, then indents into a second buffer), so `readbench report
// --format json` of a 468 MB result took 2.5 GB of peak RSS (issue 47,
// item 22).
func (r *Result) WriteJSON(w io.Writer) error {
	rest := *r // a shallow copy: the big lists are written apart
	rest.Timeline, rest.Classes = nil, nil
	head, err := json.MarshalIndent(&rest, "", "  ")
	if err != nil {
		return fmt.Errorf("results: encode: %w", err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	// MarshalIndent puts a top-level key at the start of a line after two
	// spaces; a raw newline is never inside a JSON string, so each key
	// is found once, where it is.
	lists := []struct {
		key   string
		write func(*bufio.Writer) error
	}{
		{"classes", func(bw *bufio.Writer) error { return writeList(bw, r.Classes) }},
		{"timeline", func(bw *bufio.Writer) error { return writeList(bw, r.Timeline) }},
	}
	for len(head) > 0 {
		at, which := len(head), -1
		for i, l := range lists {
			if j := bytes.Index(head, []byte("\n  \""+l.key+"\": null")); j >= 0 && j < at {
				at, which = j, i
			}
		}
		if which < 0 {
			_, _ = bw.Write(head)
			break
		}
		mark := "\n  \"" + lists[which].key + "\": "
		_, _ = bw.Write(head[:at+len(mark)])
		if err := lists[which].write(bw); err != nil {
			return err
		}
		head = head[at+len(mark)+len("null"):]
	}
	if err := bw.WriteByte('\n'); err != nil {
		return fmt.Errorf("results: write: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("results: write: %w", err)
	}
	return nil
}

// writeList writes a top-level list as json.MarshalIndent(r, "", "  ")
// writes it: null for nil, [] for empty, else each entry on its own lines
// four spaces in.
func writeList[T any](bw *bufio.Writer, list []T) error {
	switch {
	case list == nil:
		_, err := bw.WriteString("null")
		return err
	case len(list) == 0:
		_, err := bw.WriteString("[]")
		return err
	}
	_, _ = bw.WriteString("[")
	for i := range list {
		b, err := json.MarshalIndent(&list[i], "    ", "  ")
		if err != nil {
			return fmt.Errorf("results: encode: %w", err)
		}
		if i > 0 {
			_ = bw.WriteByte(',')
		}
		_, _ = bw.WriteString("\n    ")
		if _, err := bw.Write(b); err != nil {
			return fmt.Errorf("results: write: %w", err)
		}
	}
	_, err := bw.WriteString("\n  ]")
	return err
}
