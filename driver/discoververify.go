package driver

import "github.com/readbench/readbench/workload"

// verifyPicks chooses which listed sizes to check by reading: per MIME
// type, at most perType of the resources the listing gives a size and a
// type, evenly spaced over the listing.
func verifyPicks(res []workload.Resource, perType int) []int {
	if perType <= 0 {
		return nil
	}
	byType := map[string][]int{}
	var order []string
	for i, r := range res {
		if r.Size < 0 || r.MIME == "" {
			continue
		}
		m := workload.BaseMIME(r.MIME)
		if _, ok := byType[m]; !ok {
			order = append(order, m)
		}
		byType[m] = append(byType[m], i)
	}
	var picks []int
	for _, m := range order {
		idx := byType[m]
		n := min(perType, len(idx))
		for k := range n {
			picks = append(picks, idx[k*len(idx)/n])
		}
	}
	return picks
}
