package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
)

// dir is where the dashboard and the alerting rules are kept.
const dir = "../../dashboards"

// dashboard is the part of a Grafana dashboard's JSON that holds queries.
type dashboard struct {
	Panels []struct {
		Title   string `json:"title"`
		Type    string `json:"type"`
		Targets []struct {
			Expr string `json:"expr"`
		} `json:"targets"`
	} `json:"panels"`
	Templating struct {
		List []struct {
			Name  string `json:"name"`
			Type  string `json:"type"`
			Query any    `json:"query"`
		} `json:"list"`
	} `json:"templating"`
}

// query is one query of the dashboard: a panel's, or a variable's
// label_values(metric, label).
type query struct {
	where  string // the panel's title, or the variable's name
	expr   string // PromQL, with the dashboard's variables in it
	metric string // a variable's metric
	label  string // a variable's label
}

var labelValues = regexp.MustCompile(`^label_values\((\w+),\s*(\w+)\)$`)

// queries returns every query of the dashboard: at least one per panel.
func queries(t *testing.T) []query {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "resilient.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("resilient.json: %v", err)
	}
	var qs []query
	for _, p := range d.Panels {
		if p.Type == "row" {
			continue
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			qs = append(qs, query{where: p.Title, expr: tg.Expr})
		}
	}
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		q, _ := v.Query.(map[string]any)
		s, _ := q["query"].(string)
		m := labelValues.FindStringSubmatch(s)
		if m == nil {
			t.Errorf("variable %s: query %q is not label_values(metric, label)", v.Name, s)
			continue
		}
		qs = append(qs, query{where: "variable " + v.Name, metric: m[1], label: m[2]})
	}
	if len(qs) < 20 {
		t.Fatalf("only %d queries in the dashboard", len(qs))
	}
	return qs
}

// names holds the metric families exported and every label name they
// carry, as the registry gathers them.
type names struct {
	families map[string]dto.MetricType
	labels   map[string]bool
}

func gather(t *testing.T, m *metrics) names {
	t.Helper()
	mfs, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	n := names{families: map[string]dto.MetricType{}, labels: map[string]bool{"le": true, "job": true, "instance": true}}
	for _, mf := range mfs {
		n.families[mf.GetName()] = mf.GetType()
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				n.labels[l.GetName()] = true
			}
		}
	}
	return n
}

// has reports whether the series name is exported: a family, or a
// histogram's _bucket, _sum or _count.
func (n names) has(name string) bool {
	if _, ok := n.families[name]; ok {
		return true
	}
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		if base, ok := strings.CutSuffix(name, suffix); ok && n.families[base] == dto.MetricType_HISTOGRAM {
			return true
		}
	}
	return false
}

// ours are the identifiers of this library's instruments and attributes in
// PromQL: metric names and label names alike.
var ours = regexp.MustCompile(`\b(?:resilient|gen_ai|error)_[a-z0-9_]+\b`)

// unknown returns the identifiers of expr that are neither an exported
// series nor an exported label.
func (n names) unknown(expr string) []string {
	var out []string
	for _, id := range ours.FindAllString(expr, -1) {
		if !n.has(id) && !n.labels[id] && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// running runs the load and serves its metrics until the test ends.
func running(t *testing.T, redisAddr string) *metrics {
	t.Helper()
	m, err := serveMetrics("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- load(ctx, redisAddr) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("load: %v", err)
		}
		m.close()
	})
	return m
}

// Every metric and label the dashboard names is exported by the load,
// under the name the OpenTelemetry Prometheus exporter gives it: a renamed
// instrument, or a panel querying a name that does not exist, fails here.
// Without a Redis, the shared-state instruments are left out.
func TestDashboardNamesAreExported(t *testing.T) {
	redisAddr := os.Getenv("RESILIENT_REDIS_ADDR")
	m := running(t, redisAddr)
	qs := queries(t)
	var missing []string
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		n := gather(t, m)
		missing = nil
		for _, q := range qs {
			expr := q.expr + " " + q.metric + " " + q.label
			for _, id := range n.unknown(expr) {
				if redisAddr == "" && strings.HasPrefix(id, "resilient_shared_") {
					continue
				}
				missing = append(missing, q.where+": "+id)
			}
		}
		if len(missing) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(missing) > 0 {
		t.Errorf("not exported after a minute of load:\n%s", strings.Join(missing, "\n"))
	}
	if redisAddr == "" {
		t.Log("RESILIENT_REDIS_ADDR is not set: the shared-state panels were not checked")
	}
}
