package resilienttemporal_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
	lctools "github.com/tmc/langchaingo/tools"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/resilienttemporal"
	"github.com/resilientgo/resilient/tools"
)

var anchorWrite = flag.String("anchor.write", "", "write TestAnchorSideBySide's table into this file, between its markers (docs/scenarios.md)")

// The anchor is Temporal's own agent integration for Go,
// go.temporal.io/sdk/contrib/googleadk v0.2.0, as its source has it:
// InvokeModel calls the model as it is (its doc asks users to turn the
// model SDK's own retries off) and classifyModelError (model.go) decides by
// the HTTP status alone: 408, 409, 429 and 5xx retryable, any other status
// not, no status retryable; its activity options set no RetryPolicy
// (model.go, common.go), so the server's default applies: unlimited
// attempts, 1 s doubling to 100 s. A tool is the user's own activity
// (ActivityAsTool, tool.go), under the same default policy, with no
// idempotency key. langchaingo's clients give no typed status, so the
// anchor's activity here reads the status of the response from its
// transport, as googleadk reads genai.APIError.Code.
const (
	anchorInvokeModel = "anchor.InvokeModel"
	anchorCharge      = "anchor.Charge"
	anchorWindow      = 40 * time.Second // how long a case is watched
)

// statusKey carries the cell the anchor's transport writes the status in.
type statusKey struct{}

type statusTransport struct{ base http.RoundTripper }

func (s statusTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := s.base.RoundTrip(req)
	if cell, ok := req.Context().Value(statusKey{}).(*int); ok && resp != nil {
		*cell = resp.StatusCode
	}
	return resp, err
}

// anchorActivities are the anchor's activities: one model per case.
type anchorActivities struct {
	models  map[string]lcllms.Model
	payment *paymentService
}

func (a *anchorActivities) invokeModel(ctx context.Context, name string) (string, error) {
	status := new(int)
	resp, err := a.models[name].GenerateContent(context.WithValue(ctx, statusKey{}, status), conversation(name))
	if err != nil {
		code := *status
		retryable := code == 0 || code == 408 || code == 409 || code == 429 || code >= 500 && code < 600
		return "", temporal.NewApplicationErrorWithOptions(fmt.Sprintf("model call failed: %v", err), "googleadk.ModelError",
			temporal.ApplicationErrorOptions{NonRetryable: !retryable, Cause: err})
	}
	if len(resp.Choices) == 0 {
		return "", temporal.NewApplicationErrorWithOptions("model returned no response", "googleadk.ModelError",
			temporal.ApplicationErrorOptions{})
	}
	return resp.Choices[0].Content, nil
}

func (a *anchorActivities) charge(ctx context.Context, input string) (string, error) {
	return a.payment.call(ctx, input, "") // the user's activity: no idempotency key
}

// paymentService charges each request, unless its idempotency key was
// charged already; its first reply comes after a delay, longer than the
// attempt's timeout: the charge is made, the reply lost.
type paymentService struct {
	mu       sync.Mutex
	requests int
	charges  int
	keys     map[string]bool
	delay    time.Duration
	srv      *httptest.Server
}

func newPaymentService(delay time.Duration) *paymentService {
	p := &paymentService{keys: map[string]bool{}, delay: delay}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		p.mu.Lock()
		p.requests++
		if key == "" || !p.keys[key] {
			p.charges++
			p.keys[key] = key != ""
		}
		first := p.requests == 1
		p.mu.Unlock()
		if first {
			select {
			case <-time.After(p.delay):
			case <-r.Context().Done():
			}
		}
		_, _ = io.WriteString(w, "charged")
	}))
	return p
}

func (p *paymentService) call(ctx context.Context, input, key string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.srv.URL, strings.NewReader(input))
	if err != nil {
		return "", err
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return string(body), err
}

func (p *paymentService) requestCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requests
}

func (p *paymentService) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.charges
}

// compareCase is one row of the comparison.
type compareCase struct {
	Name   string
	Model  string // the model of the case, or "" for the payment
	script []faultserver.Step
}

// ourCall makes the case's call through resilienttemporal.
func ourCall(wctx workflow.Context, c compareCase) (string, error) {
	ctx := resilienttemporal.NewRun(wctx)
	if c.Model == "" {
		charge := resilienttemporal.NewTool("charge_card", "Charges the card.",
			resilienttemporal.ActivityOptions(workflow.ActivityOptions{StartToCloseTimeout: time.Second}))
		return charge.Call(ctx, `{"order":"4471","amount_cents":2499}`)
	}
	resp, err := resilienttemporal.NewModel(c.Model).GenerateContent(ctx, conversation(c.Model))
	if err != nil {
		return "", err
	}
	return resp.Choices[0].Content, nil
}

// conversation is what the case's model is sent: for the overflow, a
// conversation of five messages, which overflows the window until it is
// compacted.
func conversation(model string) []lcllms.MessageContent {
	ask := lcllms.TextParts(lcllms.ChatMessageTypeHuman, "Where is order 4471?")
	if model != "overflow" {
		return []lcllms.MessageContent{ask}
	}
	return []lcllms.MessageContent{
		lcllms.TextParts(lcllms.ChatMessageTypeHuman, "Here is the order history: ..."),
		lcllms.TextParts(lcllms.ChatMessageTypeAI, "Noted."),
		lcllms.TextParts(lcllms.ChatMessageTypeHuman, "And the shipping log: ..."),
		lcllms.TextParts(lcllms.ChatMessageTypeAI, "Noted."),
		ask,
	}
}

// anchorCall makes the case's call as the anchor does.
func anchorCall(wctx workflow.Context, c compareCase) (string, error) {
	var out string
	if c.Model == "" {
		actx := workflow.WithActivityOptions(wctx, workflow.ActivityOptions{StartToCloseTimeout: time.Second})
		err := workflow.ExecuteActivity(actx, anchorCharge, `{"order":"4471","amount_cents":2499}`).Get(actx, &out)
		return out, err
	}
	actx := workflow.WithActivityOptions(wctx, workflow.ActivityOptions{StartToCloseTimeout: 2 * time.Minute})
	err := workflow.ExecuteActivity(actx, anchorInvokeModel, c.Model).Get(actx, &out)
	return out, err
}

// observed is how one side did on one case.
type observed struct {
	requests []time.Duration // when each request came, from the first
	charges  int
	answered bool
	running  bool   // still retrying when the window ended
	failure  string // the ApplicationError's type, when it failed
	retry    bool   // whether that error was retryable
}

// cell describes o for the comparison's table.
func (o *observed) cell(payment bool) string {
	var what string
	switch {
	case o.answered:
		what = "answered"
	case o.running:
		what = fmt.Sprintf("still retrying after %v", anchorWindow)
	case o.retry:
		what = fmt.Sprintf("failed (`%s`)", o.failure)
	default:
		what = fmt.Sprintf("failed, not retried (`%s`, non-retryable)", o.failure)
	}
	if payment {
		return fmt.Sprintf("charged %s; %s", times(o.charges), what)
	}
	at := make([]string, len(o.requests))
	for i, d := range o.requests {
		at[i] = strings.TrimSuffix(fmt.Sprintf("%.1f", d.Seconds()), ".0")
	}
	return fmt.Sprintf("%s (at %s s); %s", plural(len(o.requests), "request"), strings.Join(at, ", "), what)
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// TestAnchorSideBySide runs the same faults through resilienttemporal and
// through the anchor's behaviour, at once, on the real server, and checks
// what the comparison in docs/scenarios.md says; -anchor.write writes it.
func TestAnchorSideBySide(t *testing.T) {
	if testing.Short() {
		t.Skip("watches each case for 40 s")
	}
	sides := []string{"resilienttemporal", "anchor"}
	names := compareCases()
	results := map[string]map[string]*observed{}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, side := range sides {
		results[side] = map[string]*observed{}
		ours := side == "resilienttemporal"
		payment := newPaymentService(1500 * time.Millisecond)
		defer payment.srv.Close()
		servers := map[string]*faultserver.Server{}
		models := map[string]lcllms.Model{}
		cases := compareCases()
		for _, c := range cases {
			if c.Model == "" {
				continue
			}
			srv := faultserver.New(c.script...)
			defer srv.Close()
			servers[c.Model] = srv
			if ours {
				models[c.Model] = resilient.Model(openAI(t, srv))
				continue
			}
			llm, err := srv.OpenAI(openai.WithHTTPClient(&http.Client{Transport: statusTransport{srv.Client().Transport}}))
			if err != nil {
				t.Fatal(err)
			}
			models[c.Model] = llm
		}
		queue := newQueue(t) + side
		startWorker(t, queue, func(r worker.Registry) {
			if ours {
				r.RegisterWorkflowWithOptions(ourCall, workflow.RegisterOptions{Name: "compare"})
				store := tools.NewMemoryStore()
				charge := tools.Func("charge_card", "Charges the card.", func(ctx context.Context, input string) (string, error) {
					key, _ := tools.KeyFrom(ctx)
					return payment.call(ctx, input, key)
				})
				acts := &resilienttemporal.Activities{Models: models, Tools: []lctools.Tool{resilient.Tool(charge, resilient.Idempotent(store))}}
				if err := acts.Register(r); err != nil {
					t.Fatal(err)
				}
				return
			}
			r.RegisterWorkflowWithOptions(anchorCall, workflow.RegisterOptions{Name: "compare"})
			a := &anchorActivities{models: models, payment: payment}
			r.RegisterActivityWithOptions(a.invokeModel, activity.RegisterOptions{Name: anchorInvokeModel})
			r.RegisterActivityWithOptions(a.charge, activity.RegisterOptions{Name: anchorCharge})
		})
		for _, c := range cases {
			wg.Go(func() {
				began := func() bool { return payment.requestCount() > 0 }
				if c.Model != "" {
					srv := servers[c.Model]
					began = func() bool { return srv.Count() > 0 }
				}
				o := watch(t, queue, c, began)
				if c.Model == "" {
					o.charges = payment.count()
				} else {
					o.requests = requestTimes(servers[c.Model])
				}
				mu.Lock()
				results[side][c.Name] = o
				mu.Unlock()
			})
		}
	}
	wg.Wait()

	ours, anchor := results["resilienttemporal"], results["anchor"]
	for _, c := range names {
		t.Logf("%s: %s | %s", c.Name, ours[c.Name].cell(c.Model == ""), anchor[c.Name].cell(c.Model == ""))
	}
	// What the comparison claims, checked.
	checks := []struct {
		claim string
		ok    bool
	}{
		{"quota: ours 1 request, not retried", len(ours[quota].requests) == 1 && ours[quota].failure == "permanent" && !ours[quota].retry},
		{"quota: the anchor retries on", anchor[quota].running && len(anchor[quota].requests) >= 4},
		{"retry-after: ours waits 30 s once", len(ours[retryAfter].requests) == 2 && ours[retryAfter].requests[1] >= 29900*time.Millisecond && ours[retryAfter].answered},
		{"retry-after: the anchor asks again and again", len(anchor[retryAfter].requests) >= 4},
		{"overflow: ours compacts and answers", ours[overflow].answered && len(ours[overflow].requests) == 2},
		{"overflow: the anchor fails", !anchor[overflow].answered && !anchor[overflow].running && len(anchor[overflow].requests) == 1},
		{"in-band: ours retries and answers", ours[inBand].answered && len(ours[inBand].requests) == 2},
		{"in-band: the anchor makes one request", len(anchor[inBand].requests) == 1},
		{"payment: ours charges once", ours[payment].charges == 1 && ours[payment].answered},
		{"payment: the anchor charges again", anchor[payment].charges >= 2},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("the comparison no longer holds: %s", c.claim)
		}
	}
	if *anchorWrite != "" {
		if err := writeComparison(*anchorWrite, names, ours, anchor); err != nil {
			t.Fatal(err)
		}
	}
}

// The cases' names.
const (
	quota      = "quota 429 (`insufficient_quota`)"
	retryAfter = "429 with `Retry-After: 30`, refused until then"
	overflow   = "context overflow (400)"
	inBand     = "error object in a 200, then an answer"
	payment    = "payment whose attempt times out after the charge"
)

// Markers of the comparison's section in docs/scenarios.md, which the
// scenarios harness keeps when it rewrites the file.
const (
	comparisonBegin = "<!-- durable:begin (written by `go test -run TestAnchorSideBySide -anchor.write ../docs/scenarios.md` in resilienttemporal/; do not edit) -->"
	comparisonEnd   = "<!-- durable:end -->"
)

// writeComparison writes the comparison's section into path, in place of
// the one between the markers, or at the end.
func writeComparison(path string, cases []compareCase, ours, anchor map[string]*observed) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n## Durable runs on Temporal, against the anchor\n\n", comparisonBegin)
	fmt.Fprintf(&b, "The same faults through `resilienttemporal` (a `resilient.Model` and an idempotent `resilient.Tool` in the activities, "+
		"the defaults) and through the behaviour of Temporal's own agent integration for Go, "+
		"`go.temporal.io/sdk/contrib/googleadk` v0.2.0, as its source has it: `classifyModelError` (model.go) decides by the HTTP status "+
		"alone (408, 409, 429 and 5xx retryable, any other status not, no status retryable), the activity options set no `RetryPolicy` "+
		"(model.go, common.go), so the server's default applies (unlimited attempts, 1 s doubling to 100 s), and a tool is the user's "+
		"own activity (`ActivityAsTool`, tool.go) under the same policy, with no idempotency key. langchaingo's openai client gives no typed "+
		"status, so the anchor's activity reads it from its transport, as googleadk reads `genai.APIError.Code`.\n\n")
	fmt.Fprintf(&b, "Both sides ran at once, in real time, on a real Temporal server (go.temporal.io/server v1.30.8 in the test process, "+
		"SQLite in memory), each case watched for %v from its first request; measured on %s%s.\n\n", anchorWindow, time.Now().UTC().Format("2006-01-02"), revision())
	b.WriteString("| fault | resilienttemporal | anchor (contrib/googleadk v0.2.0's behaviour) |\n| --- | --- | --- |\n")
	for _, c := range cases {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", c.Name, ours[c.Name].cell(c.Model == ""), anchor[c.Name].cell(c.Model == ""))
	}
	b.WriteString("\nThe in-band error fails the anchor's call at once rather than passing as a success: langchaingo's client reports the " +
		"200 without choices as an error, and a 200 is not among the statuses the anchor retries. The payment's service executes a " +
		"charge once per `Idempotency-Key`; `resilienttemporal` gives the tool a key scoped by the workflow run, so the retried " +
		"attempt's charge is recognised, where the anchor's second attempt is a new charge.\n")
	b.WriteString(comparisonEnd)

	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc := string(old)
	if i, j := strings.Index(doc, comparisonBegin), strings.Index(doc, comparisonEnd); i >= 0 && j > i {
		doc = doc[:i] + b.String() + doc[j+len(comparisonEnd):]
	} else {
		doc = strings.TrimRight(doc, "\n") + "\n\n" + b.String() + "\n"
	}
	return os.WriteFile(path, []byte(doc), 0o644)
}

// revision names the commit, " at commit abc1234", when git can tell.
func revision() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return ""
	}
	return " at commit " + strings.TrimSpace(string(out))
}

// compareCases returns the cases of the comparison, each with its own
// provider state.
func compareCases() []compareCase {
	var first time.Time
	var firstMu sync.Mutex
	limited := func(r *faultserver.Request) faultserver.Step {
		firstMu.Lock()
		defer firstMu.Unlock()
		if first.IsZero() {
			first = r.Time
		}
		if left := first.Add(30 * time.Second).Sub(r.Time); left > 0 {
			return faultserver.RateLimited(fmt.Sprint(int((left + time.Second - 1) / time.Second)))
		}
		return faultserver.Reply("Order 4471 shipped.")
	}
	overflowing := func(r *faultserver.Request) faultserver.Step {
		if strings.Contains(string(r.Body), "order history") { // until compaction drops it
			return faultserver.ContextOverflow()
		}
		return faultserver.Reply("Order 4471 shipped.")
	}
	cases := []compareCase{
		{Name: quota, Model: "quota", script: []faultserver.Step{faultserver.QuotaExceeded()}},
		{Name: retryAfter, Model: "retry-after", script: []faultserver.Step{faultserver.Func(limited)}},
		{Name: overflow, Model: "overflow", script: []faultserver.Step{faultserver.Func(overflowing)}},
		{Name: inBand, Model: "in-band", script: []faultserver.Step{
			faultserver.InBandError("server_error", "The server had an error while processing your request."),
			faultserver.Reply("Order 4471 shipped.")}},
		{Name: payment, Model: ""},
	}
	return cases
}

// watch runs the case's workflow on queue for at most anchorWindow.
func watch(t *testing.T, queue string, c compareCase, began func() bool) *observed {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cl := server.GetDefaultClient()
	run, err := cl.ExecuteWorkflow(t.Context(), client.StartWorkflowOptions{TaskQueue: queue}, "compare", c)
	if err != nil {
		t.Fatal(err)
	}
	// The window opens with the case's first request: a slow start (a
	// loaded machine, the race detector) takes nothing from it.
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for !began() {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(anchorWindow):
			cancel()
		}
	}()
	var out string
	err = run.Get(ctx, &out)
	o := &observed{}
	var app *temporal.ApplicationError
	switch {
	case ctx.Err() != nil && t.Context().Err() == nil:
		o.running = true
		_ = cl.TerminateWorkflow(t.Context(), run.GetID(), run.GetRunID(), "the comparison's window ended")
	case errors.As(err, &app):
		o.failure, o.retry = app.Type(), !app.NonRetryable()
	case err != nil:
		o.failure = err.Error()
	default:
		o.answered = true
	}
	return o
}

func requestTimes(srv *faultserver.Server) []time.Duration {
	var out []time.Duration
	reqs := srv.Requests()
	for _, r := range reqs {
		out = append(out, r.Time.Sub(reqs[0].Time).Round(100*time.Millisecond))
	}
	return out
}
