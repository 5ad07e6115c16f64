package resilientredis_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/resilientredis"
	"github.com/resilientgo/resilient/tools"
)

// The tests across processes re-execute the test binary as a helper process
// (TestChild) with childEnv naming its role; the helper talks to its parent
// through lines on its standard output.

const childEnv = "RESILIENTREDIS_CHILD"

// TestChild is not a test: it is the body of the helper processes.
func TestChild(t *testing.T) {
	role := os.Getenv(childEnv)
	if role == "" {
		t.Skip("the helper process of the tests across processes")
	}
	var err error
	switch role {
	case "charge":
		err = chargeChild()
	case "breaker":
		err = breakerChild()
	case "semaphore-calls":
		err = semaphoreCallsChild()
	case "semaphore-hold":
		err = semaphoreHoldChild()
	default:
		err = fmt.Errorf("unknown role %q", role)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// redisCharge is a payment tool that counts its executions in Redis, at
// prefix+"executions", so that processes count together. It prints RUNNING
// once it has charged, then takes delay, or hangs until killed.
func redisCharge(client redis.UniversalClient, prefix string, delay time.Duration, hang bool) lctools.Tool {
	return tools.Func("charge", "Charges a card once for an order.", func(ctx context.Context, input string) (string, error) {
		n, err := client.Incr(context.WithoutCancel(ctx), prefix+"executions").Result()
		if err != nil {
			return "", err
		}
		if os.Getenv(childEnv) != "" {
			fmt.Println("RUNNING")
		}
		if hang {
			time.Sleep(time.Hour) // ignores its context: killed mid-call
		}
		time.Sleep(delay)
		return fmt.Sprintf("charged txn-%d", n), nil
	})
}

const chargeInput = `{"order":"4471","amount":2499}`

// chargeChild calls the charge tool once through a Redis store, after
// waiting for PARTIES processes to be ready, and prints RESULT <output>.
func chargeChild() error {
	prefix := os.Getenv("PREFIX")
	lease, _ := time.ParseDuration(os.Getenv("LEASE"))
	delay, _ := time.ParseDuration(os.Getenv("DELAY"))
	parties, _ := strconv.Atoi(os.Getenv("PARTIES"))
	client := universal(redis.UniversalOptions{})
	defer client.Close()
	store, err := resilientredis.NewStore(client, resilientredis.Prefix(prefix+"idem:"))
	if err != nil {
		return err
	}
	charge, err := tools.New(redisCharge(client, prefix, delay, os.Getenv("HANG") != ""),
		tools.Idempotent(store), tools.Lease(lease))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := client.Incr(ctx, prefix+"ready").Err(); err != nil {
		return err
	}
	for { // a barrier, so that the calls overlap
		n, err := client.Get(ctx, prefix+"ready").Int()
		if err != nil {
			return err
		}
		if n >= parties {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	out, err := charge.Call(ctx, chargeInput)
	if err != nil {
		return err
	}
	fmt.Println("RESULT " + out)
	return nil
}

// breakerChild shares a breaker under KEY and prints READY once sharing,
// then OPEN <remaining ms> and CLOSED as its state changes, until its
// standard input ends.
func breakerChild() error {
	poll, _ := time.ParseDuration(os.Getenv("POLL"))
	client := universal(redis.UniversalOptions{})
	defer client.Close()
	b := breaker.New(breaker.Settings{Name: "provider", Failures: 5, Delay: 100 * time.Millisecond})
	b.OnStateChange(func(s observe.BreakerState) {
		switch s {
		case observe.BreakerOpen:
			fmt.Println("OPEN", b.RemainingDelay().Milliseconds())
		case observe.BreakerClosed:
			fmt.Println("CLOSED")
		}
	})
	sb, err := resilientredis.ShareBreaker(context.Background(), client, b, os.Getenv("KEY"),
		resilientredis.Prefix(os.Getenv("PREFIX")), resilientredis.PollInterval(poll))
	if err != nil {
		return err
	}
	defer sb.Close()
	fmt.Println("READY")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

// child is a running helper process.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *bytes.Buffer
}

func startChild(t *testing.T, role string, env ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChild$")
	cmd.Env = append(append(os.Environ(), childEnv+"="+role), env...)
	c := &child{cmd: cmd, lines: make(chan string, 16), stderr: new(bytes.Buffer)}
	cmd.Stderr = c.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		for range c.lines { // until the reader is done
		}
	})
	return c
}

// expect waits for the next line starting with prefix and returns the rest
// of it.
func (c *child) expect(t *testing.T, prefix string, d time.Duration) string {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				t.Fatalf("the child ended before %q; its stderr:\n%s", prefix, c.stderr)
			}
			if rest, found := strings.CutPrefix(line, prefix); found {
				return rest
			}
		case <-timeout:
			t.Fatalf("no %q from the child in %v", prefix, d)
		}
	}
}

// wait waits for the child to exit with status 0.
func (c *child) wait(t *testing.T) {
	t.Helper()
	_ = c.stdin.Close()
	if err := c.cmd.Wait(); err != nil {
		t.Errorf("child: %v; its stderr:\n%s", err, c.stderr)
	}
}

// TestTwoProcessesChargeOnce: two OS processes call the same mutating tool
// with the same input at once through the Redis store: exactly one
// execution, and both get its result.
func TestTwoProcessesChargeOnce(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	env := []string{"PREFIX=" + prefix, "PARTIES=2", "DELAY=300ms", "LEASE=10s"}
	a, b := startChild(t, "charge", env...), startChild(t, "charge", env...)
	for _, c := range []*child{a, b} {
		if got, want := c.expect(t, "RESULT ", 15*time.Second), "charged txn-1"; got != want {
			t.Errorf("result: got %q, want %q", got, want)
		}
		c.wait(t)
	}
	if got := newClient(t, addr).Get(context.Background(), prefix+"executions").Val(); got != "1" {
		t.Errorf("executions: got %s, want 1", got)
	}
}

// TestHolderKilledMidCall: a process killed while it holds the claim blocks
// the key until its lease expires; then a later call runs once, and a
// repeat reads its result.
func TestHolderKilledMidCall(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	const lease = time.Second
	a := startChild(t, "charge", "PREFIX="+prefix, "PARTIES=1", "HANG=1", "LEASE="+lease.String())
	a.expect(t, "RUNNING", 15*time.Second)
	killed := time.Now()
	if err := a.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = a.cmd.Wait()

	client := newClient(t, addr)
	store, err := resilientredis.NewStore(client, resilientredis.Prefix(prefix+"idem:"))
	if err != nil {
		t.Fatal(err)
	}
	key := tools.DefaultKey("charge", chargeInput)
	if r, ok, err := store.Get(context.Background(), key); !ok || r.Done || err != nil {
		t.Fatalf("after the kill: got %+v, %v, %v, want the dead holder's in-flight record", r, ok, err)
	}
	charge, err := tools.New(redisCharge(client, prefix, 0, false), tools.Idempotent(store), tools.Lease(lease))
	if err != nil {
		t.Fatal(err)
	}
	out, err := charge.Call(context.Background(), chargeInput)
	waited := time.Since(killed)
	if want := "charged txn-2"; out != want || err != nil {
		t.Errorf("the later call: got (%q, %v), want (%q, nil)", out, err, want)
	}
	if waited > lease+time.Second {
		t.Errorf("the later call ended %v after the kill, want within the lease (%v) and a poll", waited, lease)
	}
	out, _ = charge.Call(context.Background(), chargeInput)
	if want := "already done: charged txn-2"; out != want {
		t.Errorf("the repeat: got %q, want %q", out, want)
	}
	if got := client.Get(context.Background(), prefix+"executions").Val(); got != "2" {
		t.Errorf("executions: got %s, want 2 (the killed one and the later one)", got)
	}
	t.Logf("the later call ran %v after the kill (lease %v)", waited.Round(time.Millisecond), lease)
}

// TestBreakerAcrossProcesses: a breaker held open in this process is seen
// open by a breaker in another process within the documented delay, for the
// remaining period (far longer than that breaker's own 100 ms delay), and
// closes when this one closes.
func TestBreakerAcrossProcesses(t *testing.T) {
	t.Parallel()
	addr := redisAddr(t)
	prefix := testPrefix(t, addr)
	const poll = 200 * time.Millisecond
	bound := poll + 3*resilientredis.DefaultTimeout // the documented bound: PollInterval + three round trips
	c := startChild(t, "breaker", "PREFIX="+prefix, "KEY=provider", "POLL="+poll.String())
	c.expect(t, "READY", 15*time.Second)

	b := breaker.New(breaker.Settings{Name: "provider", Failures: 5, Delay: 100 * time.Millisecond})
	sb, err := resilientredis.ShareBreaker(context.Background(), newClient(t, addr), b, "provider",
		resilientredis.Prefix(prefix), resilientredis.PollInterval(poll))
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()

	opened := time.Now()
	b.HoldOpen(3 * time.Second) // as for a Retry-After of 3 s over the cap
	remaining, _ := strconv.Atoi(c.expect(t, "OPEN ", bound))
	seen := time.Since(opened)
	if remaining < 2500 || remaining > 3000 {
		t.Errorf("the other process holds open for %d ms, want about 3000", remaining)
	}

	closed := time.Now()
	b.Close()
	c.expect(t, "CLOSED", bound)
	t.Logf("seen open after %v, closed after %v (bound %v)", seen.Round(time.Millisecond),
		time.Since(closed).Round(time.Millisecond), bound)
	c.wait(t)
}
