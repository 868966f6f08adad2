package workload

import "testing"

func TestErrorString(t *testing.T) {
	for _, c := range []struct {
		e    Error
		want string
	}{
		{Error{"docs.yaml", 7, 5, "load.rat", `unknown key (did you mean "rate"?)`}, `docs.yaml:7:5: load.rat: unknown key (did you mean "rate"?)`},
		{Error{"docs.yaml", 7, 0, "", "bad YAML: x"}, "docs.yaml:7: bad YAML: x"},
		{Error{"docs.yaml", 0, 0, "", "empty"}, "docs.yaml: empty"},
		{Error{"", 0, 0, "load.rate", "must be more than zero"}, "load.rate: must be more than zero"},
		{Error{"", 3, 4, "k", "m"}, "line 3:4: k: m"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%#v.Error() = %q, want %q", c.e, got, c.want)
		}
	}
}
