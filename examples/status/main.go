// Command status serves the status endpoint of package status for a pool
// of two deployments that fail, and plays the operator: it reads what the
// endpoint shows, resets a member that recovered, forces one open for
// maintenance and resets it, printing each request and its answer.
//
// The deployments are loopback fault servers, called through langchaingo's
// real OpenAI client: eastus refuses the key (401, an account failure that
// takes it out of rotation), westus is overloaded (529) until it recovers.
//
//	go run ./examples/status          # play it, print each step, exit
//	go run ./examples/status -serve   # ... and keep serving /status/ until Ctrl-C
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/status"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9465", "address to serve /status/ on")
	serve := flag.Bool("serve", false, "keep serving /status/ after the run, until interrupted")
	flag.Parse()
	if err := run(*addr, *serve, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "status:", err)
		os.Exit(1)
	}
}

func run(addr string, serve bool, out io.Writer) error {
	eastus := faultserver.New(faultserver.InvalidAPIKey())
	westus := faultserver.New(faultserver.Overloaded())
	defer eastus.Close()
	defer westus.Close()
	east, err := client(eastus)
	if err != nil {
		return err
	}
	west, err := client(westus)
	if err != nil {
		return err
	}
	model := resilient.Pool([]lcllms.Model{resilient.Named(east, "eastus"), resilient.Named(west, "westus")},
		resilient.CircuitBreaker(2, time.Minute), resilient.Backoff(10*time.Millisecond, 100*time.Millisecond))

	// What the endpoint shows, and the actions it takes.
	reg := &status.Registry{}
	if err := reg.AddModel("chat", model); err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/status/", http.StripPrefix("/status", status.Handler(reg, status.AllowActions())))
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	defer srv.Close()
	base := "http://" + l.Addr().String() + "/status"

	ctx := context.Background()
	call := func() {
		answer, err := model.Call(ctx, "Say hello")
		if err != nil {
			fmt.Fprintf(out, "call: %v\n", summary(err))
			return
		}
		fmt.Fprintf(out, "call: %q\n", answer)
	}

	fmt.Fprintln(out, "# eastus refuses the key, westus is overloaded")
	for range 2 {
		call()
	}
	if err := show(out, "GET", base+"/ready"); err != nil {
		return err
	}
	if err := show(out, "GET", base+"/"); err != nil {
		return err
	}

	fmt.Fprintln(out, "\n# westus recovered: the operator resets its breaker rather than wait a minute")
	westus.SetScript(faultserver.Reply("Hello from westus."))
	if err := show(out, "POST", base+"/models/chat/members/westus/reset"); err != nil {
		return err
	}
	call()
	if err := show(out, "GET", base+"/ready"); err != nil {
		return err
	}

	fmt.Fprintln(out, "\n# westus goes into maintenance: forced open, no call reaches it")
	if err := show(out, "POST", base+"/models/chat/members/westus/force_open"); err != nil {
		return err
	}
	call()
	fmt.Fprintln(out, "\n# maintenance over")
	if err := show(out, "POST", base+"/models/chat/members/westus/reset"); err != nil {
		return err
	}
	call()
	fmt.Fprintf(out, "\nrequests: eastus %d, westus %d\n", eastus.Count(), westus.Count())

	if serve {
		fmt.Fprintf(out, "\nserving %s/ until interrupted\n", base)
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
		defer stop()
		<-ctx.Done()
	}
	return nil
}

// client returns langchaingo's OpenAI client for s, its transport reading
// the wire's evidence (the error codes that tell an account failure).
func client(s *faultserver.Server) (lcllms.Model, error) {
	return s.OpenAI(openai.WithHTTPClient(&http.Client{Transport: llms.NewTransport(s.Client().Transport)}))
}

// show makes a request of the endpoint and prints it with the answer.
func show(out io.Writer, method, url string) error {
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s %s -> %s\n%s", method, url[strings.Index(url, "/status"):], resp.Status, body)
	if resp.StatusCode >= 400 && resp.StatusCode != http.StatusServiceUnavailable {
		return errors.New(method + " " + url + ": " + resp.Status)
	}
	return nil
}

// summary returns err's text without its attempts, which the final error
// lists after its reason.
func summary(err error) string {
	s, _, _ := strings.Cut(err.Error(), ": attempt 1")
	return s
}
