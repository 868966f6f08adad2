package stats

import (
	"math"
	"testing"
)

// TestTQuantileAgreesWithTables: Student's t quantiles against the
// printed tables (and the 0.975 table the prediction interval uses).
func TestTQuantileAgreesWithTables(t *testing.T) {
	for _, c := range []struct {
		q, df, want float64
	}{
		{0.975, 1, 12.706}, {0.975, 3, 3.182}, {0.975, 5, 2.571}, {0.975, 30, 2.042},
		{0.995, 5, 4.032}, {0.995, 9, 3.250}, {0.99, 7, 2.998}, {0.95, 10, 1.812},
		{0.999, 15, 3.733}, {0.5, 4, 0}, {0.025, 5, -2.571},
	} {
		if got := TQuantile(c.q, c.df); math.Abs(got-c.want) > 0.002 {
			t.Errorf("TQuantile(%v, %v) = %.4f, want %.3f", c.q, c.df, got, c.want)
		}
	}
	for df := 1; df <= 30; df++ {
		if got := TQuantile(0.975, float64(df)); math.Abs(got-t975[df-1]) > 0.002 {
			t.Errorf("df %d: %.4f, table %.3f", df, got, t975[df-1])
		}
	}
}

// TestPairedT: the test against values worked out apart (the trimmed
// mean and winsorized spread by hand, the p-value by Simpson's rule on
// t's density).
func TestPairedT(t *testing.T) {
	// 8 differences, one a stall (1.4): g = 1 trimmed from each end, the
	// trimmed mean 0.28167 (the stall set aside), winsorized SE 0.024527,
	// t = 11.484 with 5 df: p = 8.7745e-5; 95% interval 0.21862 .. 0.34472.
	p, ok := PairedT([]float64{0.25, 0.31, 0.18, 0.29, 0.22, 0.35, 1.4, 0.27}, 0.05)
	if !ok || math.Abs(p.Mean-0.28167) > 1e-4 || math.Abs(p.Low-0.21862) > 1e-4 || math.Abs(p.High-0.34472) > 1e-4 || math.Abs(p.P-8.7745e-5) > 1e-7 {
		t.Errorf("%+v", p)
	}
	// With the stall in the mean (Student's t on all 8) the change would
	// be 0.40875 ± a spread four times as wide: trimming is what finds it.
	// 4 differences, nothing trimmed: mean -0.015, t = 0.45750 with 3 df: p = 0.67841.
	p, _ = PairedT([]float64{-0.1, 0.05, 0.02, -0.03}, 0.05)
	if math.Abs(p.P-0.67841) > 1e-4 || p.Low >= 0 || p.High <= 0 {
		t.Errorf("%+v", p)
	}
	if _, ok := PairedT([]float64{0.1}, 0.05); ok {
		t.Error("one difference tested")
	}
	if p, ok := PairedT([]float64{0, 0, 0}, 0.05); !ok || p.P != 1 || p.Low != 0 {
		t.Errorf("no change, no spread: %+v", p)
	}
	if p, _ := PairedT([]float64{0.2, 0.2}, 0.05); p.P != 0 || p.Low != 0.2 {
		t.Errorf("a change with no spread: %+v", p)
	}
}
