package resilientredis

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// replication is what [WaitReplicas] asks of a Store's writes: none when
// replicas is 0.
type replication struct {
	replicas int
	timeout  time.Duration
}

// newReplication returns the replication c asks for on client, or an
// error when client cannot give it.
func newReplication(client redis.UniversalClient, c config) (replication, error) {
	r := replication{replicas: c.replicas, timeout: c.replicaTTL}
	if r.replicas == 0 {
		return r, nil
	}
	if r.timeout >= c.timeout {
		return r, fmt.Errorf("resilientredis: WaitReplicas(%d, %v): the wait must be shorter than the Timeout (%v)", r.replicas, r.timeout, c.timeout)
	}
	switch client.(type) {
	case *redis.Client, *redis.ClusterClient:
		return r, nil
	}
	return r, fmt.Errorf("resilientredis: WaitReplicas needs a *redis.Client or a *redis.ClusterClient, not a %T: WAIT must follow the write on its connection", client)
}

// errReplicas is the error of a write that fewer replicas acknowledged
// than WaitReplicas asks.
type errReplicas struct {
	acked, want int64
	timeout     time.Duration
}

func (e *errReplicas) Error() string {
	return fmt.Sprintf("the write reached %d of the %d replicas asked within %v", e.acked, e.want, e.timeout)
}

// eval runs script on key for the Store: through the client, which routes
// it, or, with WaitReplicas, on the master serving key followed by WAIT on
// the same connection, one round trip. A write that fewer replicas
// acknowledged than asked returns an error.
func (s *Store) eval(ctx context.Context, script *redis.Script, key string, args ...any) *redis.Cmd {
	if s.replication.replicas == 0 {
		return script.Run(ctx, s.client, []string{key}, args...)
	}
	cmd := redis.NewCmd(ctx)
	var err error
	var node *redis.Client
	for try := 0; ; try++ {
		if node == nil {
			if node, err = s.master(ctx, key); err != nil {
				cmd.SetErr(err)
				return cmd
			}
		}
		var acked int64
		cmd, acked, err = evalWait(ctx, node, script, key, args, s.replication)
		if err == nil && acked < int64(s.replication.replicas) {
			cmd.SetErr(&errReplicas{acked: acked, want: int64(s.replication.replicas), timeout: s.replication.timeout})
		}
		if err == nil || try == 3 || ctx.Err() != nil {
			return cmd
		}
		// The cluster changed (a failover, a slot moved) or the server is
		// busy becoming a master: follow a redirection, or ask again.
		node = nil
		if cc, ok := s.client.(*redis.ClusterClient); ok {
			if addr, moved := redirection(err); moved {
				cc.ReloadState(ctx)
				node = nodeAt(ctx, cc, addr)
			}
		}
		if node == nil && !transient(err) {
			return cmd
		}
		t := time.NewTimer(time.Duration(10<<try) * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return cmd
		case <-t.C:
		}
	}
}

// master returns the client of the one server that serves key: the client
// itself, or a cluster's master of key's slot.
func (s *Store) master(ctx context.Context, key string) (*redis.Client, error) {
	if cc, ok := s.client.(*redis.ClusterClient); ok {
		return cc.MasterForKey(ctx, key)
	}
	return s.client.(*redis.Client), nil // newReplication checked
}

// evalWait runs script then WAIT in one pipeline on node, and returns the
// script's command, the replicas that acknowledged, and the error of
// either. A script the server does not know yet is sent whole.
func evalWait(ctx context.Context, node *redis.Client, script *redis.Script, key string, args []any, r replication) (*redis.Cmd, int64, error) {
	run := func(whole bool) (*redis.Cmd, *redis.Cmd) {
		pipe := node.Pipeline()
		var cmd *redis.Cmd
		if whole {
			cmd = script.Eval(ctx, pipe, []string{key}, args...)
		} else {
			cmd = script.EvalSha(ctx, pipe, []string{key}, args...)
		}
		wait := pipe.Do(ctx, "WAIT", r.replicas, millis(r.timeout))
		_, _ = pipe.Exec(ctx)
		return cmd, wait
	}
	cmd, wait := run(false)
	if redis.HasErrorPrefix(cmd.Err(), "NOSCRIPT") {
		cmd, wait = run(true)
	}
	if err := cmd.Err(); err != nil {
		return cmd, 0, err
	}
	acked, err := wait.Int64()
	return cmd, acked, err
}

// redirection returns the address of a MOVED or ASK error.
func redirection(err error) (string, bool) {
	var rerr redis.Error
	if !errors.As(err, &rerr) {
		return "", false
	}
	f := strings.Fields(rerr.Error())
	if len(f) == 3 && (f[0] == "MOVED" || f[0] == "ASK") {
		return f[2], true
	}
	return "", false
}

// transient reports whether err is one that a server answers while it
// changes role or loads, or a connection it closed meanwhile: worth asking
// again (the scripts are safe to run twice).
func transient(err error) bool {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	for _, prefix := range []string{"READONLY", "LOADING", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN", "NOREPLICAS"} {
		if redis.HasErrorPrefix(err, prefix) {
			return true
		}
	}
	return false
}

// nodeAt returns the client of the cluster's node at addr, nil when the
// cluster does not know it.
func nodeAt(ctx context.Context, cc *redis.ClusterClient, addr string) *redis.Client {
	var found atomic.Pointer[redis.Client]
	_ = cc.ForEachShard(ctx, func(_ context.Context, c *redis.Client) error {
		if c.Options().Addr == addr {
			found.Store(c)
		}
		return nil
	})
	return found.Load()
}
