package resilientredis_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// server is a redis-server of the test's own, on a free loopback port, for
// the tests that pause, kill or restart Redis: the Redis at
// RESILIENT_REDIS_ADDR is shared with other tests (and other programs), so
// it is never paused, killed or restarted. The server keeps its files in a
// temporary directory, kept across restarts.
type server struct {
	t    testing.TB
	bin  string
	dir  string
	addr string
	args []string
	cmd  *exec.Cmd
}

// startServer starts redis-server with args on top of: loopback only, no
// persistence, DEBUG allowed from loopback. It skips the test when
// redis-server is not installed.
func startServer(t testing.TB, args ...string) *server {
	t.Helper()
	onlyStandalone(t, "a Redis of the test's own")
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server is not installed (Debian/Ubuntu: apt-get install redis-server): " +
			"this test pauses, kills or restarts a Redis of its own")
	}
	if v := serverVersion(bin); v < 7 {
		t.Skipf("%s is version %d: this test needs 7.0 or later (--enable-debug-command)", bin, v)
	}
	s := &server{t: t, bin: bin, dir: t.TempDir(), args: args}
	s.start()
	t.Cleanup(s.kill)
	return s
}

// serverVersion returns the major version of the redis-server at bin, 0
// when it cannot tell.
var serverVersion = func() func(string) int {
	var once sync.Once
	var major int
	return func(bin string) int {
		once.Do(func() {
			out, _ := exec.Command(bin, "--version").Output() // "Redis server v=7.0.15 sha=..."
			_, v, _ := strings.Cut(string(out), " v=")
			v, _, _ = strings.Cut(v, ".")
			major, _ = strconv.Atoi(v)
		})
		return major
	}
}()

// start starts the server, on the address it had before if any, and waits
// until it answers.
func (s *server) start() {
	s.t.Helper()
	for try := 0; ; try++ {
		addr := s.addr
		if addr == "" {
			addr = closedAddr(s.t)
		}
		_, port, _ := net.SplitHostPort(addr)
		args := append([]string{"--port", port, "--bind", "127.0.0.1", "--dir", s.dir,
			"--save", "", "--appendonly", "no", "--enable-debug-command", "local",
			"--logfile", filepath.Join(s.dir, "redis.log")}, s.args...)
		s.cmd = exec.Command(s.bin, args...)
		if err := s.cmd.Start(); err != nil {
			s.t.Fatal(err)
		}
		if err := s.waitReady(addr); err == nil {
			s.addr = addr
			return
		} else if s.addr != "" || try == 2 { // a restart keeps its port; a new one may try another
			log, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
			s.kill()
			s.t.Fatalf("redis-server %v did not start: %v; its log:\n%s", args, err, log)
		}
		s.kill() // the port was taken meanwhile: try another
	}
}

func (s *server) waitReady(addr string) error {
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialerRetries: 1})
	defer c.Close()
	var err error
	for range 100 {
		if err = c.Ping(context.Background()).Err(); err == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}

// kill kills the server with SIGKILL, as a crash would, and waits for it.
func (s *server) kill() {
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	}
	s.cmd = nil
}

// restart kills the server and starts it again on the same address with
// the same files, as after a crash.
func (s *server) restart() {
	s.t.Helper()
	s.kill()
	s.start()
}

// pause makes the server sleep for d (DEBUG SLEEP), as a Redis stalled by
// a slow command, a fork or a stopped VM does: connections are accepted,
// and commands are read and run only when it wakes. pause returns once the
// server no longer answers, and the function it returns waits until it
// answers again.
func (s *server) pause(d time.Duration) (resumed func()) {
	s.t.Helper()
	c := redis.NewClient(&redis.Options{Addr: s.addr, ReadTimeout: d + 10*time.Second})
	done := make(chan error, 1)
	go func() {
		done <- c.Do(context.Background(), "DEBUG", "SLEEP", strconv.FormatFloat(d.Seconds(), 'f', 3, 64)).Err()
	}()
	probe := redis.NewClient(&redis.Options{Addr: s.addr, ContextTimeoutEnabled: true, MaxRetries: -1})
	defer probe.Close()
	for start := time.Now(); ; {
		// An awake Redis answers a PING within a millisecond; 100 ms of
		// silence is sleep, not a busy machine.
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		err := probe.Ping(ctx).Err()
		cancel()
		if err != nil {
			break // asleep
		}
		if time.Since(start) > 5*time.Second {
			s.t.Fatal("DEBUG SLEEP: the server kept answering")
		}
	}
	return func() {
		s.t.Helper()
		defer c.Close()
		if err := <-done; err != nil {
			s.t.Fatalf("DEBUG SLEEP: %v", err)
		}
	}
}

// client returns a client of the server as the README builds one: default
// options but the address, closed when the test ends.
func (s *server) client() *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.addr})
	s.t.Cleanup(func() { _ = c.Close() })
	return c
}

// do runs one command on a client of its own, failing the test on error.
func (s *server) do(args ...any) any {
	s.t.Helper()
	c := redis.NewClient(&redis.Options{Addr: s.addr})
	defer c.Close()
	v, err := c.Do(context.Background(), args...).Result()
	if err != nil {
		s.t.Fatalf("%v: %v", args, err)
	}
	return v
}
