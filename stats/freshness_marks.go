package stats

// uriMark is a subscription's place in one URI's changes: start, the first
// change made after it was acknowledged; cursor, the first change it has
// not yet been told of.
type uriMark struct {
	uri           string
	start, cursor int
}

// marksIndexAt is how many URIs a subscription's marks hold before they
// are indexed by a map: most subscriptions ask for one document, or a
// handful, and thousands of them are open at once; a slice of a few marks
// costs a fraction of two maps' buckets, and a linear search of it no
// more than a map lookup.
const marksIndexAt = 8

// uriMarks are a subscription's marks, one per URI it asked for, in the
// order asked.
type uriMarks struct {
	list  []uriMark
	index map[string]int // uri -> position in list; nil below marksIndexAt marks
}

// newURIMarks makes the marks of uris, each at i(uri); a URI asked for
// twice has one mark.
func newURIMarks(uris []string, at func(uri string) int) uriMarks {
	m := uriMarks{list: make([]uriMark, 0, len(uris))}
	for _, u := range uris {
		i := at(u)
		if k := m.find(u); k != nil {
			k.start, k.cursor = i, i
			continue
		}
		m.list = append(m.list, uriMark{uri: u, start: i, cursor: i})
		if m.index != nil {
			m.index[u] = len(m.list) - 1
		} else if len(m.list) > marksIndexAt {
			m.index = make(map[string]int, len(uris))
			for j, k := range m.list {
				m.index[k.uri] = j
			}
		}
	}
	return m
}

// find is uri's mark, nil when the subscription did not ask for uri.
func (m *uriMarks) find(uri string) *uriMark {
	if m.index != nil {
		if j, ok := m.index[uri]; ok {
			return &m.list[j]
		}
		return nil
	}
	for j := range m.list {
		if m.list[j].uri == uri {
			return &m.list[j]
		}
	}
	return nil
}
