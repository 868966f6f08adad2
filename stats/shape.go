package stats

// Shape counts findings of the response-shape checks (docs/measurement.md
// (shape)): entries with neither or both of text and blob, a rewritten
// uri, a missing or inconsistent mimeType, bad base64, empty contents,
// several entries. It is the one shape type from the classifier to the
// report: the client counts one answer's findings in it, a run sums them,
// and the result document saves it under these keys as it is.
type Shape struct {
	Neither       int64 `json:"neither"`
	Both          int64 `json:"both"`
	URIRewritten  int64 `json:"uri_rewritten"`
	MIMEMissing   int64 `json:"mime_missing"`
	MIMEMismatch  int64 `json:"mime_mismatch"`
	BadBase64     int64 `json:"bad_base64"`
	EmptyContents int64 `json:"empty_contents"`
	MultiEntry    int64 `json:"multi_entry"`
}

// Add adds o into s.
func (s *Shape) Add(o Shape) {
	s.Neither += o.Neither
	s.Both += o.Both
	s.URIRewritten += o.URIRewritten
	s.MIMEMissing += o.MIMEMissing
	s.MIMEMismatch += o.MIMEMismatch
	s.BadBase64 += o.BadBase64
	s.EmptyContents += o.EmptyContents
	s.MultiEntry += o.MultiEntry
}
