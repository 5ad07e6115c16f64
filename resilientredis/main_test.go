package resilientredis_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/resilientredis"
)

// The tests run against a real Redis at RESILIENT_REDIS_ADDR (.ci/run
// starts one on 127.0.0.1:6399); without it they skip. Each test keeps its
// keys under a prefix of its own and deletes them when it ends; nothing
// global is flushed.
//
// RESILIENT_REDIS_TOPOLOGY names what that Redis is: standalone (the
// default), cluster (RESILIENT_REDIS_ADDR lists seed nodes, comma
// separated) or sentinel (it lists the sentinels, and
// RESILIENT_REDIS_MASTER names the master, "mymaster" by default). With a
// topology of cluster or sentinel and no RESILIENT_REDIS_ADDR, TestMain
// starts one of its own from redis-server and redis-sentinel (3 masters
// with a replica each; a master, a replica and 3 sentinels) and stops it
// at the end, so that
//
//	RESILIENT_REDIS_TOPOLOGY=cluster go test -race ./resilientredis/
//
// runs the suite on a Redis Cluster. The tests that pause, kill or restart
// a Redis of their own, or cut the connection through a proxy, are not
// about the topology: they run in the standalone run only.

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(m.Run()) // a helper process (see TestChild): no leak check
	}
	redis.SetLogger(quiet{}) // the tests of Redis down would fill the output
	stop, err := startTopology()
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilientredis tests:", err)
		os.Exit(1)
	}
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		stop()
		os.Exit(code)
	}))
}

type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

const (
	addrEnv     = "RESILIENT_REDIS_ADDR"
	topologyEnv = "RESILIENT_REDIS_TOPOLOGY"
	masterEnv   = "RESILIENT_REDIS_MASTER"
)

// The topologies of RESILIENT_REDIS_TOPOLOGY.
const (
	standalone = "standalone"
	cluster    = "cluster"
	sentinel   = "sentinel"
)

// topology returns the topology of the test Redis.
func topology() string {
	if t := os.Getenv(topologyEnv); t != "" {
		return t
	}
	return standalone
}

// onlyStandalone skips a test that is not about the topology in the runs
// on a cluster or through sentinels: it runs in the standalone run.
func onlyStandalone(t testing.TB, why string) {
	t.Helper()
	if topology() != standalone {
		t.Skipf("%s: not about the topology, it runs in the standalone run (%s=%s here)", why, topologyEnv, topology())
	}
}

// universal returns a client of the test Redis, of its topology, with
// options o (whose Addrs, MasterName and cluster mode it sets).
func universal(o redis.UniversalOptions) redis.UniversalClient {
	o.Addrs = strings.Split(os.Getenv(addrEnv), ",")
	switch topology() {
	case cluster:
		o.IsClusterMode = true
		return redis.NewUniversalClient(&o)
	case sentinel:
		o.MasterName = os.Getenv(masterEnv)
		if o.MasterName == "" {
			o.MasterName = masterName
		}
	}
	return redis.NewUniversalClient(&o)
}

// redisAddr returns the address of the test Redis, or skips the test. When
// nothing answers there, every test fails at once, saying so, rather than
// each waiting on a Redis that is not coming.
func redisAddr(t testing.TB) string {
	t.Helper()
	addr := os.Getenv(addrEnv)
	if addr == "" {
		t.Skip(addrEnv + " is not set: start Redis (redis-server --port 6399) and set " +
			addrEnv + "=127.0.0.1:6399 to run the Redis tests")
	}
	if err := reachable(); err != nil {
		t.Fatalf("%s=%s (%s), but no Redis answers there (%v): start one (redis-server --port 6399) or unset %s",
			addrEnv, addr, topology(), err, addrEnv)
	}
	return addr
}

// reachable pings the test Redis once per test process, with no retry and
// a short timeout.
var reachable = sync.OnceValue(func() error {
	c := universal(redis.UniversalOptions{MaxRetries: -1, DialerRetries: 1,
		DialTimeout: 2 * time.Second, ReadTimeout: 2 * time.Second, WriteTimeout: 2 * time.Second})
	defer c.Close()
	return c.Ping(context.Background()).Err()
})

// slow is the Timeout of the Stores, Limiters and SharedBreakers of the
// tests on the shared Redis, which are not about timeouts: on a machine
// shared by many test runs under the race detector, a round trip now and
// then takes longer than the default second, and one slow round trip
// makes a feature treat Redis as down for a second.
var slow = resilientredis.Timeout(5 * time.Second)

// newClient returns a client of its own for addr, closed when the test
// ends: of the test Redis's topology when addr is the test Redis
// (redisAddr), of the one server at addr otherwise (a proxy, a server of
// the test's own).
func newClient(t testing.TB, addr string) redis.UniversalClient {
	t.Helper()
	var c redis.UniversalClient
	if addr == os.Getenv(addrEnv) {
		c = universal(redis.UniversalOptions{})
	} else {
		c = redis.NewClient(&redis.Options{Addr: addr})
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// testPrefix returns a key prefix unique to the test and to this run, whose
// keys are deleted when the test ends.
func testPrefix(t testing.TB, addr string) string {
	t.Helper()
	prefix := "resilienttest:" + t.Name() + ":" + rand.Text()[:8] + ":"
	t.Cleanup(func() {
		c := universal(redis.UniversalOptions{})
		defer c.Close()
		if addr != os.Getenv(addrEnv) {
			c = redis.NewClient(&redis.Options{Addr: addr})
			defer c.Close()
		}
		if err := deleteKeys(context.Background(), c, prefix+"*"); err != nil {
			t.Logf("deleting the keys %s*: %v", prefix, err)
		}
	})
	return prefix
}

// deleteKeys deletes the keys matching pattern: on every master of a
// cluster, whose keys are spread over them.
func deleteKeys(ctx context.Context, c redis.UniversalClient, pattern string) error {
	del := func(ctx context.Context, c redis.Cmdable) error {
		iter := c.Scan(ctx, 0, pattern, 100).Iterator()
		for iter.Next(ctx) {
			if err := c.Del(ctx, iter.Val()).Err(); err != nil {
				return err
			}
		}
		return iter.Err()
	}
	if cc, ok := c.(*redis.ClusterClient); ok {
		return cc.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error { return del(ctx, n) })
	}
	return del(ctx, c)
}

// closedAddr returns a loopback address where nothing listens.
func closedAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// downClient returns a client of a Redis that is not there, with no
// retries, so that each failure is quick.
func downClient(t testing.TB) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: closedAddr(t), MaxRetries: -1, DialerRetries: 1})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// recorder is a slog handler that keeps the messages logged.
type recorder struct {
	mu   *sync.Mutex
	msgs *[]string
}

func newRecorder() (*slog.Logger, func() []string) {
	r := recorder{mu: new(sync.Mutex), msgs: new([]string)}
	return slog.New(r), func() []string {
		r.mu.Lock()
		defer r.mu.Unlock()
		return append([]string(nil), *r.msgs...)
	}
}

func (r recorder) Enabled(context.Context, slog.Level) bool { return true }
func (r recorder) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r recorder) WithGroup(string) slog.Handler            { return r }
func (r recorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	*r.msgs = append(*r.msgs, rec.Message)
	return nil
}

func count(msgs []string, msg string) int {
	n := 0
	for _, m := range msgs {
		if m == msg {
			n++
		}
	}
	return n
}

// proxy forwards TCP connections to a Redis, and can be taken down (every
// connection cut, nothing accepted) and up again on the same address: a
// Redis outage as the client sees it.
type proxy struct {
	upstream, addr string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]struct{}
	isUp  bool
	wg    sync.WaitGroup
	lose  atomic.Bool // lose the next reply
}

func newProxy(t testing.TB, upstream string) *proxy {
	t.Helper()
	onlyStandalone(t, "a proxy in front of one server")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{upstream: upstream, addr: ln.Addr().String(), conns: make(map[net.Conn]struct{})}
	p.serve(ln)
	t.Cleanup(func() {
		p.down()
		p.wg.Wait()
	})
	return p
}

func (p *proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln, p.isUp = ln, true
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.wg.Add(1)
			go p.pipe(c)
		}
	}()
}

func (p *proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.isUp {
		c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *proxy) pipe(c net.Conn) {
	defer p.wg.Done()
	if !p.track(c) {
		return
	}
	u, err := net.Dial("tcp", p.upstream)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(u) {
		c.Close()
		return
	}
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(u, c); done <- struct{}{} }()
	go func() { p.replies(c, u); done <- struct{}{} }()
	<-done
	c.Close()
	u.Close()
	<-done
}

// replies copies Redis's replies from u to the client's connection c, but
// for the first reply after loseReply: then it cuts both connections
// instead, as a reset after Redis ran the command.
func (p *proxy) replies(c, u net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := u.Read(buf)
		if n > 0 && p.lose.CompareAndSwap(true, false) {
			c.Close()
			u.Close()
			return
		}
		if n > 0 {
			if _, werr := c.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// loseReply makes the proxy lose the next reply that Redis sends, on any
// connection, by cutting that connection.
func (p *proxy) loseReply() { p.lose.Store(true) }

// down cuts every connection and stops accepting.
func (p *proxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.isUp {
		return
	}
	p.isUp = false
	p.ln.Close()
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// up accepts connections again, on the same address.
func (p *proxy) up(t testing.TB) {
	t.Helper()
	var ln net.Listener
	var err error
	for range 50 { // the port may take a moment to be free again
		if ln, err = net.Listen("tcp", p.addr); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	p.serve(ln)
}

// eventually polls cond every 5 ms until it holds or d has passed, and
// returns how long it took and whether it held.
func eventually(d time.Duration, cond func() bool) (time.Duration, bool) {
	start := time.Now()
	for {
		if cond() {
			return time.Since(start), true
		}
		if time.Since(start) > d {
			return time.Since(start), false
		}
		time.Sleep(5 * time.Millisecond)
	}
}
