package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestMain(m *testing.M) {
	redis.SetLogger(quiet{}) // the load's staged Redis outages
	os.Exit(m.Run())
}

// lookPath returns the path of a Prometheus tool, or skips the test.
func lookPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (Debian/Ubuntu: apt-get install prometheus): this test runs it", name)
	}
	return p
}

// The alerting rules are valid and each alert fires on the series of its
// unit tests (promtool test rules), and only there.
func TestAlertRules(t *testing.T) {
	promtool := lookPath(t, "promtool")
	for _, args := range [][]string{{"check", "rules", "alerts.yml"}, {"test", "rules", "alerts_test.yml"}} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// promServer is a Prometheus server of the test's own, scraping one
// target every second and evaluating the alerting rules every second.
type promServer struct {
	url string
	cmd *exec.Cmd
}

func startPrometheus(t *testing.T, target string) *promServer {
	t.Helper()
	bin := lookPath(t, "prometheus")
	tmp := t.TempDir()
	rules, err := filepath.Abs(filepath.Join(dir, "alerts.yml"))
	if err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - %q
scrape_configs:
  - job_name: agent
    static_configs:
      - targets: [%q]
`, rules, target)
	if err := os.WriteFile(filepath.Join(tmp, "prometheus.yml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p := &promServer{url: "http://" + addr}
	p.cmd = exec.Command(bin, "--config.file="+filepath.Join(tmp, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(tmp, "data"), "--web.listen-address="+addr, "--log.level=warn")
	log, err := os.Create(filepath.Join(tmp, "prometheus.log"))
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stdout, p.cmd.Stderr = log, log
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
		log.Close()
	})
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		resp, err := http.Get(p.url + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		if time.Since(start) > 30*time.Second {
			out, _ := os.ReadFile(filepath.Join(tmp, "prometheus.log"))
			t.Fatalf("prometheus did not get ready: %v\n%s", err, out)
		}
	}
}

// get calls the HTTP API and decodes its data into v.
func (p *promServer) get(path string, params url.Values, v any) error {
	resp, err := http.Get(p.url + path + "?" + params.Encode())
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var r struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return fmt.Errorf("%s: %s: %w", path, resp.Status, err)
	}
	if r.Status != "success" {
		return fmt.Errorf("%s: %s", path, r.Error)
	}
	return json.Unmarshal(r.Data, v)
}

// series returns how many series a query answers.
func (p *promServer) series(q query) (int, error) {
	if q.label != "" {
		var values []string
		err := p.get("/api/v1/label/"+q.label+"/values", url.Values{"match[]": {q.metric}}, &values)
		return len(values), err
	}
	var res struct {
		Result []json.RawMessage `json:"result"`
	}
	err := p.get("/api/v1/query", url.Values{"query": {grafana.Replace(q.expr)}}, &res)
	return len(res.Result), err
}

// grafana replaces the dashboard's variables as Grafana would with every
// value selected, and $__rate_interval as Grafana computes it for a
// scrape interval of 1 s (four intervals at least), with a margin.
var grafana = strings.NewReplacer("$__rate_interval", "5s", "$job", ".*", "$model", ".*", "$target", ".*")

// rule is an alerting rule as the rules API reports it.
type rule struct {
	Name      string `json:"name"`
	Query     string `json:"query"`
	Health    string `json:"health"`
	LastError string `json:"lastError"`
}

func (p *promServer) rules() ([]rule, error) {
	var res struct {
		Groups []struct {
			Rules []rule `json:"rules"`
		} `json:"groups"`
	}
	if err := p.get("/api/v1/rules", url.Values{"type": {"alert"}}, &res); err != nil {
		return nil, err
	}
	var rules []rule
	for _, g := range res.Groups {
		rules = append(rules, g.Rules...)
	}
	return rules, nil
}

// The dashboard and the alerting rules against a real Prometheus scraping
// the load every second, as operators would run them: every query of the
// dashboard (each panel's, each variable's) answers series; every rule
// loads and evaluates without error; every metric and label a rule names
// is exported; and every alert has a unit test whose input series have the
// names and labels of the exported ones.
func TestDashboardOnPrometheus(t *testing.T) {
	redisAddr := os.Getenv("RESILIENT_REDIS_ADDR")
	if redisAddr == "" {
		t.Skip("RESILIENT_REDIS_ADDR is not set: the shared-state panels need a Redis")
	}
	m := running(t, redisAddr)
	p := startPrometheus(t, m.addr)

	qs := queries(t)
	pending := slices.Clone(qs)
	errs := map[string]error{}
	for deadline := time.Now().Add(90 * time.Second); len(pending) > 0 && time.Now().Before(deadline); time.Sleep(time.Second) {
		pending = slices.DeleteFunc(pending, func(q query) bool {
			n, err := p.series(q)
			errs[q.where+": "+q.expr] = err
			return err == nil && n > 0
		})
	}
	for _, q := range pending {
		t.Errorf("%s: no series (%v) for\n\t%s", q.where, errs[q.where+": "+q.expr], grafana.Replace(q.expr+q.metric))
	}
	t.Logf("%d dashboard queries answered series", len(qs)-len(pending))

	var rules []rule
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Second) {
		var err error
		if rules, err = p.rules(); err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(rules, func(r rule) bool { return r.Health != "ok" }) || time.Now().After(deadline) {
			break
		}
	}
	if len(rules) < 7 {
		t.Errorf("prometheus loaded %d alerting rules, want 7", len(rules))
	}
	n := gather(t, m)
	tested := alertsTested(t)
	for _, r := range rules {
		if r.Health != "ok" {
			t.Errorf("rule %s: health %q: %s", r.Name, r.Health, r.LastError)
		}
		if ids := n.unknown(r.Query); len(ids) > 0 {
			t.Errorf("rule %s names what is not exported: %v", r.Name, ids)
		}
		if !tested[r.Name] {
			t.Errorf("rule %s has no unit test in alerts_test.yml", r.Name)
		}
	}
	for _, s := range testSeries(t) {
		if ids := n.unknown(s); len(ids) > 0 {
			t.Errorf("alerts_test.yml: series %s: %v not exported", s, ids)
		}
	}
}

var (
	alertName  = regexp.MustCompile(`^\s*alertname:\s*(\w+)\s*$`)
	seriesLine = regexp.MustCompile(`^\s*- series:\s*'(.*)'\s*$`)
)

// alertsTested returns the alerts that alerts_test.yml evaluates.
func alertsTested(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, l := range testLines(t) {
		if m := alertName.FindStringSubmatch(l); m != nil {
			out[m[1]] = true
		}
	}
	return out
}

// testSeries returns the input series of alerts_test.yml.
func testSeries(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, l := range testLines(t) {
		if m := seriesLine.FindStringSubmatch(l); m != nil {
			out = append(out, m[1])
		}
	}
	if len(out) == 0 {
		t.Fatal("alerts_test.yml: no input series found")
	}
	return out
}

func testLines(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "alerts_test.yml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}
