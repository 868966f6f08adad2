package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/readbench/readbench/results"
)

// WriteJSON writes results as they are saved: one result as its document
// (the bytes SaveFile writes, so `report --format json` of a single file
// is that file, normalised), several as a JSON array of documents, so the
// output always parses as one JSON value for jq and friends.
func WriteJSON(w io.Writer, rs []*results.Result) error {
	var out []byte
	var err error
	switch len(rs) {
	case 0:
		out = []byte("[]\n")
	case 1: // streamed: a big result is not held twice more encoded
		if err := rs[0].WriteJSON(w); err != nil {
			return fmt.Errorf("report: json report: %w", err)
		}
		return nil
	default:
		out, err = json.MarshalIndent(rs, "", "  ")
		out = append(out, '\n')
	}
	if err != nil {
		return fmt.Errorf("report: json report: %w", err)
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("report: json report: %w", err)
	}
	return nil
}
